#!/bin/sh
# tests/daemon/daemon_listen.sh — what the listeners' configuration accepts:
#   - "loopback" is decided by resolving the host: 127.evil.example (once a
#     string-prefix pass) and 0.0.0.0 are refused without a token, for
#     daemon.listen and grpc.listen alike, naming the key;
#   - a token file that group or others may read is refused at start,
#     naming the file and its mode; at 0600 it is taken;
#   - grpc.allow_from: a malformed entry is refused naming it (flag and
#     file forms), so is an allowlist on a unix socket or without
#     grpc.listen; a good one lets a non-loopback grpc.listen pass the
#     check without a token (only --check-config: nothing binds it);
#   - the new HTTP limits are refused out of range (header_timeout 0,
#     body_budget below 5 x max_body: a body counts 5 times its size).
# gRPC parts are skipped (not failed) in a build without gRPC.
. "$(dirname "$0")/lib.sh"

refuse() {   # WORD ARGS... : cuzkd --check-config ARGS exits 2 naming WORD
    word=$1
    shift
    "$CUZKD" --check-config --journal "$dir/j" "$@" >"$dir/err.txt" 2>&1; rc=$?
    [ $rc -eq 2 ] || fail "$*: exit $rc, want 2 ($(cat "$dir/err.txt"))"
    grep -q -- "$word" "$dir/err.txt" || fail "$*: message does not name '$word': $(cat "$dir/err.txt")"
}
accept() {   # ARGS... : cuzkd --check-config ARGS exits 0
    "$CUZKD" --check-config --journal "$dir/j" "$@" >"$dir/err.txt" 2>&1 \
        || fail "$*: refused: $(cat "$dir/err.txt")"
}

refuse "daemon.listen" --listen 127.evil.example:9820
refuse "daemon.listen" --listen 127.0.0.1.evil.example:9820
refuse "daemon.listen" --listen 0.0.0.0:9820
refuse "daemon.listen" --listen "[::]:9820"
accept --listen 127.0.0.1:0
accept --listen 127.9.9.9:0
accept --listen "[::1]:0"
accept --listen localhost:0
ok "daemon.listen: loopback by resolution (127.evil.example, 0.0.0.0, [::] refused)"

echo "tok-$$" >"$dir/token"
chmod 644 "$dir/token"
refuse "$dir/token has mode 0644" --token-file "$dir/token" --listen 127.0.0.1:0
chmod 640 "$dir/token"
refuse "mode 0640" --token-file "$dir/token"
chmod 600 "$dir/token"
accept --token-file "$dir/token" --listen 0.0.0.0:0
ok "token file readable by group/others refused, naming file and mode; 0600 taken"

refuse "daemon.header_timeout" --set daemon.header_timeout=0
refuse "daemon.body_budget" --set daemon.max_body=64MiB --set daemon.body_budget=256MiB
accept --set daemon.max_body=64MiB --set daemon.body_budget=320MiB
refuse "daemon.max_connections_per_ip" --set daemon.max_connections_per_ip=-1
ok "HTTP limits refused out of range"

if ! "$CUZKD" --help | grep -q "HOST:PORT (see docs/CURIO.md; available"; then
    echo "SKIP (gRPC parts): this cuzkd was built without gRPC"
    echo "$passed passed, 0 failed"
    exit 0
fi
refuse "grpc.listen" --grpc-listen 127.evil.example:9820
refuse "grpc.listen" --grpc-listen 0.0.0.0:9820
refuse "'10.1.2.3/24'" --grpc-listen 0.0.0.0:9820 --set grpc.allow_from=10.1.2.0/24,10.1.2.3/24
refuse "grpc.allow_from: 'bogus'" --grpc-listen 0.0.0.0:9820 --set grpc.allow_from=bogus
refuse "'fd00::/129'" --grpc-listen "[::]:9820" --set grpc.allow_from=fd00::/129
refuse "grpc.allow_from" --set grpc.allow_from=10.0.0.0/8
refuse "unix socket" --grpc-listen "unix://$dir/g.sock" --set grpc.allow_from=10.0.0.0/8
printf 'grpc: { listen = "0.0.0.0:9820"; allow_from = ["10.1.2.0/24", "192.0.2.300"]; };\n' >"$dir/c.conf"
refuse "'192.0.2.300'" --config "$dir/c.conf"
printf 'grpc: { listen = "0.0.0.0:9820"; allow_from = ["10.1.2.0/24", "192.0.2.7", "fd00::/8"]; };\n' \
    >"$dir/c.conf"
accept --config "$dir/c.conf"
"$CUZKD" --print-config --config "$dir/c.conf" | grep -q 'allow_from = \[ "10.1.2.0/24", "192.0.2.7", "fd00::/8" \];' \
    || fail "print-config does not show grpc.allow_from"
ok "grpc.allow_from: bad entries refused naming them; a good list opens a non-loopback grpc.listen"

echo "$passed passed, 0 failed"
