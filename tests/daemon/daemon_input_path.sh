#!/bin/sh
# tests/daemon/daemon_input_path.sh — what a client may name as input_path
# cannot hang, starve or mislead cuzkd:
#   - a FIFO is refused at once (400 naming the path and "a FIFO"): a plain
#     open(2) of it blocks until a writer comes; 80 FIFO submits at once
#     leave the API answering, and SIGTERM still stops the daemon;
#   - a directory and a device are refused the same way;
#   - a readable file that is not JSON (a secret, say) is refused naming
#     the path, line and column, never echoing the file's bytes (jansson's
#     "near '...'"), for every kind that takes an input.
. "$(dirname "$0")/lib.sh"

mkfifo "$dir/fifo" || { echo "SKIP: mkfifo failed"; exit 77; }
start_daemon

api POST /v1/proofs "{\"kind\":\"porep-c2\",\"input_path\":\"$dir/fifo\"}"
[ "$code" = 400 ] && grep -q "input_path: $dir/fifo: a FIFO, not a regular file" "$dir/body" \
    || fail "FIFO: HTTP $code $(cat "$dir/body")"
ok "a FIFO as input_path: 400 at once, naming it"

i=0
pids=""
while [ $i -lt 80 ]; do
    curl -s --max-time 20 --unix-socket "$sock" -X POST -H 'Content-Type: application/json' \
        --data-binary "{\"kind\":\"winning-post\",\"input_path\":\"$dir/fifo\"}" \
        -o "$dir/fifo-$i.out" -w '%{http_code}\n' http://cuzkd/v1/proofs >"$dir/fifo-$i.code" &
    pids="$pids $!"
    i=$((i + 1))
done
wait $pids   # not a bare wait: the daemon is a child too
bad=$(cat "$dir"/fifo-*.code | grep -vc '^400$')
[ "$bad" = 0 ] || fail "80 FIFO submits at once: $bad not answered 400"
api GET /v1/status
[ "$code" = 200 ] || fail "status after 80 FIFO submits: HTTP $code"
ok "80 FIFO submits at once: every one 400, the API still answers"

for p in "$dir" /dev/zero; do
    api POST /v1/proofs "{\"kind\":\"snap\",\"input_path\":\"$p\"}"
    [ "$code" = 400 ] && grep -q "not a regular file" "$dir/body" || fail "$p: HTTP $code $(cat "$dir/body")"
done
ok "a directory and a device as input_path: 400, not a regular file"

printf 'SECRETrootpw:19000:0:99999:7:::\n' >"$dir/secret"
for kind in porep-c2 winning-post window-post snap circuit; do
    extra=""
    [ "$kind" = circuit ] && extra=",\"circuit\":\"toy\""
    api POST /v1/proofs "{\"kind\":\"$kind\",\"input_path\":\"$dir/secret\"$extra}"
    [ "$code" = 400 ] || fail "$kind, a non-JSON file: HTTP $code $(cat "$dir/body")"
    grep -q SECRET "$dir/body" && fail "$kind: the reply echoes the file: $(cat "$dir/body")"
    grep -q "line 1" "$dir/body" && grep -q "column" "$dir/body" \
        || fail "$kind: the reply does not name line and column: $(cat "$dir/body")"
done
grep -q SECRET "$dir/daemon.log" && fail "the log echoes the file"
ok "a non-JSON file as input for every kind: 400 naming line and column, its bytes never echoed"

t0=$(date +%s)
stop_daemon
[ $(( $(date +%s) - t0 )) -le 10 ] || fail "SIGTERM took over 10 s after the FIFO submits"
ok "SIGTERM stops the daemon"
echo "$passed passed, 0 failed"
