#!/bin/sh
# tests/daemon/daemon_backend.sh — the proving backend in cuzkd's config:
# devices.backend, devices.devices and the cuda_* keys are checked (exit 2,
# the message naming the key); an explicit "cuda" that is not usable here
# refuses to start (exit 1) with the reason; "auto" logs what it chose and
# /v1/status reports it; "cpu" with 2 devices proves a job.
. "$(dirname "$0")/lib.sh"

refuse() {   # FILE-CONTENT WORD
    printf '%s\n' "$1" >"$dir/c.conf"
    "$CUZKD" --check-config --config "$dir/c.conf" 2>"$dir/err.txt" >/dev/null; rc=$?
    [ $rc -eq 2 ] || fail "'$1': exit $rc, want 2"
    grep -q -- "$2" "$dir/err.txt" || fail "'$1': message does not name '$2': $(cat "$dir/err.txt")"
}
refuse 'devices: { backend = "gpu"; };' "devices.backend"
refuse 'devices: { backend = 1; };' "devices.backend"
refuse 'devices: { devices = 17; };' "devices.devices"
refuse 'devices: { devices = "cpu:0"; };' "devices.devices"
refuse 'devices: { devices = "some"; };' "devices.devices"
refuse 'devices: { devices = "cpu:cuda"; };' "devices.devices"
refuse 'devices: { devices = 2.5; };' "devices.devices"
refuse 'devices: { backend = "cpu"; devices = "cuda:2"; };' "devices.devices"
refuse 'devices: { cuda_device_mem_limit = "lots"; };' "devices.cuda_device_mem_limit"
refuse 'devices: { cuda_g2_on_cpu = "maybe"; };' "devices.cuda_g2_on_cpu"
"$CUZKD" --check-config --set devices.backend=tpu 2>"$dir/err.txt"; rc=$?
[ $rc -eq 2 ] && grep -q "devices.backend" "$dir/err.txt" || fail "--set devices.backend=tpu: exit $rc"
ok "bad backend / devices / cuda_* values refused, naming the key"

printf 'devices: { backend = "cuda"; devices = 2; cuda_device_mem_limit = "20GiB"; cuda_g2_on_cpu = true; };\n' \
    >"$dir/c.conf"
"$CUZKD" --print-config --config "$dir/c.conf" >"$dir/eff.txt" || fail "print-config"
grep -q 'backend = "cuda"' "$dir/eff.txt" || fail "backend lost: $(cat "$dir/eff.txt")"
grep -q 'devices = "2"' "$dir/eff.txt" || fail "devices = 2 lost"
grep -q 'cuda_device_mem_limit = "21474836480"' "$dir/eff.txt" || fail "cuda_device_mem_limit lost"
grep -q 'cuda_g2_on_cpu = true' "$dir/eff.txt" || fail "cuda_g2_on_cpu lost"
"$CUZKD" --print-config >"$dir/def.txt" || fail "print-config (defaults)"
grep -q 'backend = "auto"' "$dir/def.txt" && grep -q 'devices = "all"' "$dir/def.txt" \
    || fail "defaults are not backend auto, devices all"
"$CUZKD" --check-config --set devices.devices=cpu:2 >/dev/null || fail "legacy cpu:N refused"
ok "the new keys read and print back; defaults auto / all; cpu:N still accepted"

# An explicit cuda backend: refused at start-up with the reason unless a GPU is usable here.
"$CUZKD" --socket "$sock" --journal "$dir/journal" --params-dir "$dir/params" \
    --set devices.backend=cuda >"$dir/cuda.log" 2>&1 &
pid=$!
started=""
for _ in $(seq 1 200); do
    kill -0 "$pid" 2>/dev/null || break
    if curl -s -o /dev/null --max-time 2 --unix-socket "$sock" http://cuzkd/v1/status; then
        started=1
        break
    fi
    sleep 0.1
done
if [ -n "$started" ]; then
    api GET /v1/status
    grep -q '"backend":"cuda"' "$dir/body" || fail "backend=cuda started without cuda devices: $(cat "$dir/body")"
    stop_daemon
    ok "backend=cuda: a usable GPU here, cuzkd runs on it"
else
    kill -0 "$pid" 2>/dev/null && fail "backend=cuda: neither started nor exited within 20 s"
    wait "$pid"; rc=$?
    pid=""
    [ $rc -eq 1 ] || fail "backend=cuda without a usable GPU: exit $rc, want 1"
    grep -q 'devices.backend = \\"cuda\\": cuda backend: ..' "$dir/cuda.log" \
        || fail "backend=cuda: no reason given: $(cat "$dir/cuda.log")"
    ok "backend=cuda without a usable GPU: cuzkd refuses to start, saying why"
fi
rm -rf "$dir/journal"

# auto: the log says which backend and why; /v1/status agrees
start_daemon
chosen=$(sed -n 's/.*msg="backend chosen" backend=\([a-z]*\) requested=auto .*/\1/p' "$dir/daemon.log")
[ "$chosen" = cpu ] || [ "$chosen" = cuda ] || fail "auto: no 'backend chosen' line in the log"
grep 'msg="backend chosen"' "$dir/daemon.log" | grep -q 'detail="..' || fail "auto: no reason logged"
api GET /v1/status
grep -q "\"backend\":\"$chosen\"" "$dir/body" || fail "status does not report $chosen: $(cat "$dir/body")"
stop_daemon
ok "auto chose $chosen, logged with the reason; /v1/status agrees"

# cpu with 2 devices proves a job
make_params b1k bench:1024 31
start_daemon --set devices.backend=cpu --set devices.devices=2
api GET /v1/status
[ "$(grep -o '"backend":"cpu"' "$dir/body" | wc -l)" -eq 2 ] || fail "cpu x2: status $(cat "$dir/body")"
id=$("$CUZK" submit --circuit bench:1024 --params b1k --partitions 2 --seed 3) || fail "cuzk submit"
"$CUZK" wait "$id" --timeout 120 --quiet >/dev/null || fail "job on cpu x2 did not finish"
stop_daemon
ok "backend cpu, devices 2: two CPU devices, the job proved"
echo "$passed passed, 0 failed"
