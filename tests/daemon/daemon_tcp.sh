#!/bin/sh
# tests/daemon/daemon_tcp.sh — TCP listener: bearer token enforced (401
# without / with a wrong token), the CLI with --url --token; without a token
# a non-loopback address is refused at start-up, naming the key.
. "$(dirname "$0")/lib.sh"

make_params b1k bench:1024 31
echo "s3cret-token-$$" >"$dir/token"
chmod 600 "$dir/token"
start_daemon --listen 127.0.0.1:0 --token-file "$dir/token"
port=$(sed -n 's/.*msg="listening" tcp=127.0.0.1:\([0-9]*\).*/\1/p' "$dir/daemon.log" | tail -n 1)
[ -n "$port" ] || fail "no TCP port in the log"
url="http://127.0.0.1:$port"

code=$(curl -s --max-time 10 -o "$dir/body" -w '%{http_code}' "$url/v1/status")
[ "$code" = 401 ] || fail "no token: HTTP $code, want 401"
grep -q '"error":"unauthorized"' "$dir/body" || fail "401 without a JSON error"
code=$(curl -s --max-time 10 -H 'Authorization: Bearer wrong' -o /dev/null -w '%{http_code}' "$url/metrics")
[ "$code" = 401 ] || fail "wrong token: HTTP $code, want 401"
code=$(curl -s --max-time 10 -H "Authorization: Bearer s3cret-token-$$" -H 'Content-Type: application/json' \
    -d '{"kind":"circuit","circuit":"toy","params":"x"}' -o /dev/null -w '%{http_code}' "$url/v1/proofs")
[ "$code" = 404 ] || fail "right token: HTTP $code, want 404 (params x missing)"
code=$(curl -s --max-time 10 -H "Authorization: Bearer s3cret-token-$$" -o /dev/null -w '%{http_code}' "$url/v1/status")
[ "$code" = 200 ] || fail "right token: HTTP $code, want 200"
code=$(curl -s --max-time 10 --unix-socket "$sock" -o /dev/null -w '%{http_code}' http://cuzkd/v1/status)
[ "$code" = 200 ] || fail "unix socket needs no token: HTTP $code"
ok "TCP: 401 without or with a wrong token, 200 with it; the unix socket needs none"

"$CUZK" daemon-status --url "$url" >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || fail "CLI without token: exit $rc, want 1"
id=$("$CUZK" submit --url "$url" --token-file "$dir/token" --circuit bench:1024 --params b1k) \
    || fail "CLI submit over TCP"
"$CUZK" wait "$id" --url "$url" --token "s3cret-token-$$" --timeout 60 --quiet >/dev/null || fail "wait over TCP"
"$CUZK" proof "$id" --url "$url" --token-file "$dir/token" --out "$dir/p.bin" --public "$dir/p.pub" \
    >/dev/null || fail "proof over TCP"
"$CUZK" verify --vk "$dir/b1k.vk" --proof "$dir/p.bin" --public "$dir/p.pub" >/dev/null || fail "verify"
ok "CLI over TCP with the token: submit, wait, proof verifies"
stop_daemon

"$CUZKD" --socket "" --listen 0.0.0.0:0 --journal "$dir/j2" >"$dir/err.txt" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "public TCP without a token: exit $rc, want 2"
grep -q "daemon.listen" "$dir/err.txt" || fail "refusal does not name daemon.listen: $(cat "$dir/err.txt")"
"$CUZK" status 0123456789abcdef --socket "$dir/none.sock" 2>/dev/null; rc=$?
[ $rc -eq 3 ] || fail "unreachable daemon: exit $rc, want 3"
ok "public address without a token refused (exit 2); unreachable daemon exit 3"
echo "$passed passed, 0 failed"
