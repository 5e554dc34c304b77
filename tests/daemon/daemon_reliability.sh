#!/bin/sh
# tests/daemon/daemon_reliability.sh — states and limits that must hold when
# things go wrong (issue 15), each driven through the real daemon with the
# test.fault key (core/fault.h) instead of real disks and devices:
#   - SIGTERM with a job inside its device region exits within
#     journal.shutdown_grace + one device step (each step made 2 s long by a
#     delay fault), and the job is still journaled for the next start.
. "$(dirname "$0")/lib.sh"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# wait_grep FILE PATTERN SECONDS
wait_grep() {
    for _ in $(seq 1 $(($3 * 10))); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    fail "no '$2' in $1 within $3 s"
}

make_params b1k bench:1024 31

# ---- shutdown: grace + one step, not the whole region ------------------------------
start_daemon --set devices.workers_per_device=1 --set journal.shutdown_grace=1 \
    --set test.fault=device_step:1+~2000
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k"}'
[ "$code" = 201 ] || fail "submit: HTTP $code"
id=$(json_get "$dir/body" id)
wait_state "$id" running 30
sleep 1.5   # synthesis takes milliseconds: the region (5 steps x 2 s) has begun
t0=$(now)
kill -TERM "$pid"
for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
t1=$(now)
wait "$pid"; rc=$?; pid=""
[ $rc -eq 0 ] || fail "cuzkd exit status $rc after SIGTERM"
took=$(elapsed "$t0" "$t1")
awk -v t="$took" 'BEGIN { exit !(t < 5.0) }' \
    || fail "SIGTERM took $took s with grace 1 s and 2 s steps (the region ran on)"
[ -f "$dir/journal/$id.job" ] && [ ! -f "$dir/journal/$id.result" ] \
    || fail "the interrupted job is not left journaled without a result"
ok "SIGTERM mid-region: exit in $took s (grace 1 s + one 2 s step), job left journaled"
start_daemon
"$CUZK" wait "$id" --timeout 60 --quiet >/dev/null || fail "interrupted job did not complete after restart"
ok "the interrupted job completes after the restart"
stop_daemon

echo "$passed passed, 0 failed"
