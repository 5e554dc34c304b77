#!/bin/sh
# tests/daemon/daemon_config.sh — the config file: the shipped example is
# valid; unknown keys, wrong types and bad values are refused (exit 2) with
# a message naming the key (grpc.listen: not an address, or TCP beyond
# loopback without a token, or a build without gRPC); flags override the file.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

"$CUZKD" --check-config --config "$top/cuzk.example.conf" >/dev/null || fail "cuzk.example.conf is not valid"
ok "cuzk.example.conf is valid"

refuse() {   # FILE-CONTENT WORD
    printf '%s\n' "$1" >"$dir/c.conf"
    "$CUZKD" --check-config --config "$dir/c.conf" 2>"$dir/err.txt" >/dev/null; rc=$?
    [ $rc -eq 2 ] || fail "'$1': exit $rc, want 2"
    grep -q -- "$2" "$dir/err.txt" || fail "'$1': message does not name '$2': $(cat "$dir/err.txt")"
}
refuse 'daemon: { sockett = "/tmp/x"; };' "daemon.sockett"
refuse 'bogus: { a = 1; };' "bogus"
refuse 'devices: { workers_per_device = 0; };' "devices.workers_per_device"
refuse 'devices: { workers_per_device = "two"; };' "devices.workers_per_device"
refuse 'params: { cache_budget = "12 parsecs"; };' "params.cache_budget"
refuse 'memory: { total_budget = "lots"; };' "memory.total_budget"
refuse 'daemon: { log_level = "chatty"; };' "daemon.log_level"
refuse 'daemon: { socket_mode = "0999"; };' "daemon.socket_mode"
refuse 'journal: { result_ttl = -5; };' "journal.result_ttl"
refuse 'daemon: { socket = ; };' "c.conf:1"
refuse 'grpc: { listen = "0.0.0.0:9820"; };' "grpc.listen"
refuse 'grpc: { listen = "unix://run/cuzk.sock"; };' "grpc.listen"
refuse 'grpc: { listen = "http://127.0.0.1:9820"; };' "grpc.listen"
ok "bad files refused, naming the key"

printf 'daemon: { log_level = "warn"; max_body = "1MiB"; };\n' >"$dir/c.conf"
"$CUZKD" --print-config --config "$dir/c.conf" --log-level debug --set devices.devices=cpu:2 >"$dir/eff.txt" \
    || fail "print-config"
grep -q 'log_level = "debug"' "$dir/eff.txt" || fail "flag did not override the file"
grep -q 'max_body = "1048576"' "$dir/eff.txt" || fail "file value lost"
grep -q 'devices = "cpu:2"' "$dir/eff.txt" || fail "--set ignored"
"$CUZKD" --set nope.key=1 --check-config 2>"$dir/err.txt"; rc=$?
[ $rc -eq 2 ] && grep -q "nope.key" "$dir/err.txt" || fail "--set of an unknown key: exit $rc"
ok "flags override the file"
echo "$passed passed, 0 failed"
