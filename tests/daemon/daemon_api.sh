#!/bin/sh
# tests/daemon/daemon_api.sh — black-box: a real cuzkd on a temporary unix
# socket, driven by the cuzk CLI and curl: submit -> wait -> proof verifies,
# idempotent resubmit, cancel, malformed and oversized requests (4xx, and
# the daemon still serves), metrics as Prometheus text, graceful shutdown.
. "$(dirname "$0")/lib.sh"

make_params b1k bench:1024 11
make_params b4k bench:4096 12
start_daemon --set daemon.max_body=8192

# ---- CLI: submit -> wait -> proof -> verify ------------------------------------
"$CUZK" daemon-status >"$dir/ds.txt" || fail "daemon-status"
grep -q "device 0 (cpu)" "$dir/ds.txt" || fail "daemon-status does not list device 0"
id=$("$CUZK" submit --circuit bench:1024 --params b1k --partitions 2 --seed 5) || fail "cuzk submit"
[ ${#id} -eq 16 ] || fail "submit printed '$id', not an id"
"$CUZK" wait "$id" --timeout 120 >"$dir/wait.txt" 2>"$dir/progress.txt" || fail "cuzk wait: $(cat "$dir/wait.txt")"
grep -q "progress: 2/2 partitions" "$dir/progress.txt" || fail "no plain progress lines: $(cat "$dir/progress.txt")"
grep -q "done" "$dir/wait.txt" || fail "wait did not report done"
"$CUZK" proof "$id" --out "$dir/p.bin" --public "$dir/p.pub" >/dev/null || fail "cuzk proof"
[ "$(wc -c <"$dir/p.bin")" -eq 384 ] || fail "2-partition proof is not 384 bytes"
"$CUZK" verify --vk "$dir/b1k.vk" --proof "$dir/p.bin" --public "$dir/p.pub" >/dev/null \
    || fail "the daemon's proof does not verify"
ok "submit -> wait -> proof verifies (2 partitions)"

"$CUZK" status "$id" --json >"$dir/st.json" || fail "status --json"
grep -q '"partitions_done": 2' "$dir/st.json" || fail "status --json lacks progress"
grep -q '"device_ms"' "$dir/st.json" || fail "status --json lacks timings"
"$CUZK" daemon-status --json >"$dir/dsj.json" || fail "daemon-status --json"
grep -q '"region_parts_ms"' "$dir/dsj.json" || fail "daemon-status --json lacks the region's parts"
grep -q '"partitions": 0' "$dir/dsj.json" || fail "the CPU backend reported a device-memory figure"
"$CUZK" list --state done >"$dir/list.txt" || fail "list"
grep -q "$id" "$dir/list.txt" || fail "list does not show the job"
ok "status / list (--json)"

# ---- prove through the daemon ---------------------------------------------------
"$CUZK" prove --daemon --circuit bench:1024 --params b1k --partitions 3 --proof "$dir/q.bin" \
    --public "$dir/q.pub" >/dev/null 2>&1 || fail "prove --daemon"
"$CUZK" verify --vk "$dir/b1k.vk" --proof "$dir/q.bin" --public "$dir/q.pub" >/dev/null \
    || fail "prove --daemon proof does not verify"
"$CUZK" prove --local --circuit bench:1024 --params "$dir/params/b1k.params" --proof "$dir/l.bin" \
    --public "$dir/l.pub" --quiet >/dev/null || fail "prove --local"
"$CUZK" verify --vk "$dir/b1k.vk" --proof "$dir/l.bin" --public "$dir/l.pub" >/dev/null \
    || fail "prove --local proof does not verify"
ok "prove --daemon (3 partitions) and --local"

# ---- idempotent resubmit ---------------------------------------------------------
req='{"kind":"circuit","circuit":"bench:1024","params":"b1k","request_id":"sector-42","seed":9}'
api POST /v1/proofs "$req"; [ "$code" = 201 ] || fail "submit: HTTP $code"
id1=$(json_get "$dir/body" id)
api POST /v1/proofs "$req"; [ "$code" = 200 ] || fail "resubmit: HTTP $code, want 200"
[ "$(json_get "$dir/body" id)" = "$id1" ] || fail "resubmit gave another job"
grep -q '"existing":true' "$dir/body" || fail "resubmit not marked existing"
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","request_id":"sector-42","seed":10}'
[ "$code" = 409 ] || fail "same request_id, other request: HTTP $code, want 409"
id2=$("$CUZK" submit --circuit bench:1024 --params b1k --seed 9 --request-id sector-42) || fail "cli resubmit"
[ "${id2%% *}" = "$id1" ] || fail "cli resubmit gave '$id2'"
ok "idempotent resubmit (same id), conflicting reuse 409"

# ---- cancel ------------------------------------------------------------------------
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:4096","params":"b4k","partitions":40,"priority":"low"}'
[ "$code" = 201 ] || fail "submit big: HTTP $code"
big=$(json_get "$dir/body" id)
"$CUZK" cancel "$big" >/dev/null || fail "cuzk cancel"
wait_state "$big" canceled 60
"$CUZK" proof "$big" --out "$dir/x.bin" 2>"$dir/err.txt"; rc=$?
[ $rc -eq 1 ] || fail "proof of a canceled job: exit $rc, want 1"
grep -q "canceled" "$dir/err.txt" || fail "no 'canceled' in: $(cat "$dir/err.txt")"
api GET "/v1/proofs/$big/proof"; [ "$code" = 410 ] || fail "proof of canceled job: HTTP $code, want 410"
ok "cancel"

# ---- malformed requests: 4xx with a JSON error, the daemon keeps serving -------
check4() {   # METHOD PATH BODY WANT_CODE WORD_IN_MESSAGE
    api "$1" "$2" "$3"
    [ "$code" = "$4" ] || fail "$1 $2 '$3': HTTP $code, want $4 ($(cat "$dir/body"))"
    grep -q '"error":' "$dir/body" || fail "$1 $2: no JSON error"
    grep -qi "$5" "$dir/body" || fail "$1 $2: message does not name '$5': $(cat "$dir/body")"
}
check4 POST /v1/proofs '{"kind":' 400 "line 1"
check4 POST /v1/proofs '[1,2]' 400 "object"
check4 POST /v1/proofs '{"kind":"nope"}' 400 "kind"
check4 POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","priority":7}' 400 priority
check4 POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","bogus":1}' 400 bogus
check4 POST /v1/proofs '{"kind":"circuit","circuit":"wat:3","params":"b1k"}' 400 circuit
check4 POST /v1/proofs '{"kind":"circuit","circuit":"porep:2048","params":"b1k"}' 400 "own kind"
check4 POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"../etc/passwd"}' 400 params
check4 POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"missing"}' 404 missing
check4 POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","partitions":100000}' 400 partitions
check4 POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","input":{"seed":"x"}}' 400 input.seed
check4 GET /v1/proofs/zzzz "" 404 "16 hex"
check4 GET /v1/proofs/0123456789abcdef "" 404 "not found"
check4 GET /v1/nothing "" 404 "no route"
check4 PUT /v1/status "" 405 allowed
check4 GET "/v1/proofs/$id/proof?wait=abc" "" 400 wait
head -c 20000 /dev/zero | tr '\0' ' ' >"$dir/big.json"
code=$(curl -s --max-time 30 --unix-socket "$sock" -H 'Content-Type: application/json' \
    --data-binary @"$dir/big.json" -o "$dir/body" -w '%{http_code}' http://cuzkd/v1/proofs)
[ "$code" = 413 ] || fail "oversized body: HTTP $code, want 413"
code=$(curl -s --max-time 30 --unix-socket "$sock" -H 'Content-Type: application/json' \
    -H 'Transfer-Encoding: chunked' --data-binary @"$dir/big.json" -o "$dir/body" -w '%{http_code}' \
    http://cuzkd/v1/proofs)
[ "$code" = 413 ] || fail "oversized chunked body: HTTP $code, want 413"
code=$(curl -s --max-time 30 --unix-socket "$sock" -d '{}' -o "$dir/body" -w '%{http_code}' \
    http://cuzkd/v1/proofs)
[ "$code" = 415 ] || fail "form content type: HTTP $code, want 415"
api GET /v1/status; [ "$code" = 200 ] || fail "daemon stopped serving after bad requests"
ok "malformed / oversized requests get 4xx with a JSON error; still serving"

# ---- params preload / evict -----------------------------------------------------------
api POST /v1/params/preload '{"params":"b4k"}'; [ "$code" = 200 ] || fail "preload: $code"
api POST /v1/params/evict '{"params":"b4k"}'; [ "$code" = 200 ] || fail "evict: $code"
api POST /v1/params/evict '{"params":"b4k"}'; [ "$code" = 404 ] || fail "evict again: $code, want 404"
api POST /v1/params/preload '{"params":"nope"}'; [ "$code" = 404 ] || fail "preload missing: $code"
ok "params preload / evict"

# ---- metrics: Prometheus text -----------------------------------------------------------
api GET /metrics; [ "$code" = 200 ] || fail "metrics: HTTP $code"
bad=$(grep -v '^#' "$dir/body" | grep -Ev '^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? -?[0-9.eE+-]+$' | head -n 3)
[ -z "$bad" ] || fail "metrics lines not in exposition format: $bad"
for m in cuzk_jobs cuzk_partitions_proved_total cuzk_device_busy_seconds_total cuzk_device_efficiency \
         cuzk_queue_depth cuzk_memory_reserved_bytes cuzk_memory_recycled_bytes \
         cuzk_memory_recycle_hits_total cuzk_params_cache_bytes cuzk_job_errors_total \
         cuzk_jobs_active cuzk_jobs_ended_total; do
    grep -q "^# TYPE $m " "$dir/body" || fail "metrics lack $m"
done
grep -q '^cuzk_jobs{state="done"} [1-9]' "$dir/body" || fail "metrics: no done jobs counted"
grep -q '^cuzk_jobs_ended_total{kind="circuit",state="done"} [1-9]' "$dir/body" \
    || fail "metrics: no done circuit job in cuzk_jobs_ended_total"
grep -q '^cuzk_jobs_active{kind="porep-c2",priority="4",state="queued"} 0' "$dir/body" \
    || fail "metrics: cuzk_jobs_active lacks the zero series of an idle kind"
ok "metrics parse as Prometheus text"

# ---- graceful shutdown ----------------------------------------------------------------
stop_daemon
[ -e "$sock" ] && fail "socket left behind after shutdown"
grep -q 'msg="cuzkd stopped"' "$dir/daemon.log" || fail "no stop line in the log"
grep -q 'level=info msg="job accepted"' "$dir/daemon.log" || fail "no structured log lines"
ok "SIGTERM: clean exit, socket removed"
echo "$passed passed, 0 failed"
