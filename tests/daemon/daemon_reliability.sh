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

# ---- a result write that fails: retried until it lands -------------------------------

# watch_states ID SECONDS: poll the job every 0.1 s until it ends or SECONDS pass;
# every state seen goes to $dir/states, the last status stays in $dir/body
watch_states() {
    : >"$dir/states"
    for _ in $(seq 1 $(($2 * 10))); do
        api GET "/v1/proofs/$1"
        st=$(json_get "$dir/body" state)
        echo "$st $(json_get "$dir/body" stage)" >>"$dir/states"
        grep -q '"result_write"' "$dir/body" && cp "$dir/body" "$dir/retrying.json"
        case $st in done|failed|canceled) return 0 ;; esac
        sleep 0.1
    done
}

rm -f "$dir/retrying.json"
start_daemon --set test.fault=write:2x3   # write 1 = ID.job; the result's first 3 tries fail
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","seed":5}'
[ "$code" = 201 ] || fail "submit: HTTP $code"
id2=$(json_get "$dir/body" id)
watch_states "$id2" 60
grep -q '^failed' "$dir/states" && fail "job reported failed while its result was being retried"
[ "$(json_get "$dir/body" state)" = done ] || fail "job not done after the write landed: $(cat "$dir/body")"
[ -f "$dir/retrying.json" ] || fail "status never showed the retried write"
grep -q '"stage":"writing_result"' "$dir/retrying.json" && grep -q '"error":"CZ_EIO"' "$dir/retrying.json" \
    || fail "retrying status lacks stage / error: $(cat "$dir/retrying.json")"
grep -q 'result not journaled; the outcome is kept' "$dir/daemon.log" || fail "no retry line in the log"
"$CUZK" proof "$id2" --out "$dir/p2.bin" --public "$dir/p2.pub" >/dev/null || fail "proof of the retried job"
"$CUZK" verify --vk "$dir/b1k.vk" --proof "$dir/p2.bin" --public "$dir/p2.pub" >/dev/null \
    || fail "the retried job's proof does not verify"
ok "failed result writes retried until they landed: running/writing_result, then done (verifies)"
stop_daemon
start_daemon
api GET "/v1/proofs/$id2"
[ "$(json_get "$dir/body" state)" = done ] || fail "after restart the job is not done: $(cat "$dir/body")"
"$CUZK" proof "$id2" --out "$dir/p2b.bin" >/dev/null && cmp -s "$dir/p2.bin" "$dir/p2b.bin" \
    || fail "after restart the proof changed"
ok "after a restart: still done, same proof"
stop_daemon

start_daemon --set test.fault=write:2+   # the result never lands (the disk stays full)
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","seed":6}'
[ "$code" = 201 ] || fail "submit: HTTP $code"
id3=$(json_get "$dir/body" id)
watch_states "$id3" 4
grep -q '^failed\|^done' "$dir/states" && fail "job ended although its result was never journaled"
grep -q '"result_write"' "$dir/body" || fail "status lacks result_write: $(cat "$dir/body")"
t0=$(now)
stop_daemon
took=$(elapsed "$t0" "$(now)")
awk -v t="$took" 'BEGIN { exit !(t < 5.0) }' || fail "shutdown with a result pending took $took s"
[ -f "$dir/journal/$id3.job" ] && [ ! -f "$dir/journal/$id3.result" ] || fail "journal state of the unwritten job"
start_daemon
"$CUZK" wait "$id3" --timeout 60 --quiet >/dev/null || fail "unwritten job did not complete after restart"
api GET "/v1/proofs/$id3"
[ "$(json_get "$dir/body" state)" = done ] || fail "unwritten job: $(cat "$dir/body")"
ok "a result that never landed: running until shutdown ($took s), proved again and done after restart"
stop_daemon

# ---- errors through the one table ---------------------------------------------------
make_params b4k bench:4096 32
start_daemon --set test.fault=write:1
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k"}'
[ "$code" = 503 ] && grep -q '"error":"storage_unavailable"' "$dir/body" \
    && grep -q 'no space left on device' "$dir/body" || fail "submit on a full journal: HTTP $code $(cat "$dir/body")"
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b4k"}'   # params of another shape
[ "$code" = 201 ] || fail "submit after the refused one: HTTP $code"
id4=$(json_get "$dir/body" id)
wait_state "$id4" failed 30
grep -q '"error":"CZ_EMISMATCH"' "$dir/body" || fail "mismatched params: $(cat "$dir/body")"
api GET "/v1/proofs/$id4/proof"
[ "$code" = 422 ] && grep -q '"error":"job_failed"' "$dir/body" || fail "proof of a failed job: HTTP $code $(cat "$dir/body")"
ok "full journal on submit: 503 storage_unavailable; proof of a CZ_EMISMATCH job: 422 job_failed"

# ---- a corrupt journal entry: a tombstone, not a 404 ----------------------------------
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","seed":9}'
[ "$code" = 201 ] || fail "submit: HTTP $code"
id5=$(json_get "$dir/body" id)
wait_state "$id5" done 60
api GET "/v1/proofs/$id5/proof?format=json"
proof5=$(json_get "$dir/body" proof)
[ -n "$proof5" ] || fail "no proof: $(cat "$dir/body")"
stop_daemon
printf '{"id":"%s","request":{"kind":' "$id5" >"$dir/journal/$id5.job"   # torn by hand
start_daemon   # its result is intact: the proof is what matters, and it is served
[ -f "$dir/journal/$id5.job.corrupt" ] && [ -f "$dir/journal/$id5.result" ] \
    || fail "torn entry: not set aside, or its result gone"
api GET "/v1/proofs/$id5"
[ "$code" = 200 ] && [ "$(json_get "$dir/body" state)" = done ] || fail "torn entry with its result: $(cat "$dir/body")"
api GET "/v1/proofs/$id5/proof?format=json"
[ "$code" = 200 ] && [ "$(json_get "$dir/body" proof)" = "$proof5" ] \
    || fail "torn entry: not the same proof: HTTP $code $(cat "$dir/body")"
stop_daemon
ok "a torn journal entry whose result is intact: set aside, the result kept and served"
rm "$dir/journal/$id5.result"   # now nothing of the job can be recovered
for round in 1 2; do
    start_daemon
    [ -f "$dir/journal/$id5.job.corrupt" ] || fail "corrupt entry not set aside"
    api GET "/v1/proofs/$id5"
    [ "$code" = 200 ] && [ "$(json_get "$dir/body" state)" = lost ] \
        || fail "start $round: corrupt job's id: HTTP $code $(cat "$dir/body")"
    grep -q "journal entry $id5.job is corrupt" "$dir/body" && grep -q '"error":"CZ_EFORMAT"' "$dir/body" \
        || fail "lost job without its reason: $(cat "$dir/body")"
    api GET "/v1/proofs/$id5/proof"
    [ "$code" = 410 ] && grep -q '"error":"job_lost"' "$dir/body" || fail "proof of a lost job: HTTP $code"
    api GET "/v1/proofs?state=lost"
    grep -q "$id5" "$dir/body" || fail "list ?state=lost lacks the job"
    api GET /metrics
    grep -q '^cuzk_jobs{state="lost"} 1' "$dir/body" || fail "metrics: lost jobs not counted"
    stop_daemon
done
ok "corrupt journal entry: set aside, the id answers lost + reason (410 job_lost), across restarts"

# ---- bad input found before the params are loaded ---------------------------------------
start_daemon --params-dir "$dir/no-such-dir"
grep -q 'msg="params.dir does not exist' "$dir/daemon.log" || fail "no warning for a missing params.dir"
stop_daemon
ok "a params.dir that does not exist is warned about at start"

"$CUZK" porep gen-c1 --sector-size 2KiB --random 3 -o "$dir/c1.json" >/dev/null || fail "gen-c1"
# another seed byte: the challenges no longer follow from the seed
sed -e 's/"seed":\[0,/"seed":[1,/;t' -e 's/"seed":\[[0-9]*,/"seed":[0,/' "$dir/c1.json" >"$dir/bad-c1.json"
cmp -s "$dir/c1.json" "$dir/bad-c1.json" && fail "the C1 was not altered"
start_daemon
api POST /v1/proofs "{\"kind\":\"porep-c2\",\"input_path\":\"$dir/bad-c1.json\"}"
pname=$(sed -n "s/.*params: '\([^']*\)' not found.*/\1/p" "$dir/body")
[ "$code" = 404 ] && [ -n "$pname" ] || fail "submit without params: HTTP $code $(cat "$dir/body")"
# a params file of that name that is NOT 2KiB PoRep params: loading it would fail differently
cp "$dir/params/b1k.params" "$dir/params/$pname"
t0=$(now)
api POST /v1/proofs "{\"kind\":\"porep-c2\",\"input_path\":\"$dir/bad-c1.json\"}"
[ "$code" = 201 ] || fail "submit of the bad C1: HTTP $code $(cat "$dir/body")"
id6=$(json_get "$dir/body" id)
wait_state "$id6" failed 30
took=$(elapsed "$t0" "$(now)")
grep -q 'the C1 does not verify (checked before loading the params)' "$dir/body" \
    && grep -q '"error":"CZ_EVERIFY"' "$dir/body" || fail "bad C1 failed without the C1 error: $(cat "$dir/body")"
grep -q "msg=\"params loading\".*$pname" "$dir/daemon.log" && fail "the params were loaded for a bad C1"
api GET /metrics
grep -q '^cuzk_params_cache_bytes 0$' "$dir/body" || fail "params cache not empty: $(grep cuzk_params_cache_bytes "$dir/body")"
stop_daemon
ok "bad C1: failed in $took s with the C1 error (CZ_EVERIFY), params never loaded"

# ---- the log stays one format ---------------------------------------------------------
for tl in set default; do
    : >"$dir/daemon.log"
    rm -f "$dir/timeline.log"
    if [ $tl = set ]; then start_daemon; else start_daemon --set timeline.file=; fi
    api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","seed":12}'
    [ "$code" = 200 ] || [ "$code" = 201 ] || fail "submit: HTTP $code"
    wait_state "$(json_get "$dir/body" id)" done 60
    stop_daemon
    grep -q 'TIMELINE,' "$dir/daemon.log" && fail "TIMELINE lines in the log (timeline.file $tl)"
    if [ $tl = set ]; then
        grep -q '^TIMELINE,[0-9.]*,GPU_START,' "$dir/timeline.log" || fail "timeline.file lacks the job's events"
    else
        [ -e "$dir/timeline.log" ] && fail "a timeline file was written by default"
    fi
done
grep -q 'TIMELINE,' "$dir/daemon.log" && fail "TIMELINE lines in the log by default"
bad=$(grep -Ev '^[0-9TZ:.-]+ level=[a-z]+ msg="' "$dir/daemon.log" | head -n 2)
[ -z "$bad" ] || fail "log lines not in the one format: $bad"
ok "TIMELINE lines only in timeline.file; by default none, and the log is one format"

echo "$passed passed, 0 failed"
