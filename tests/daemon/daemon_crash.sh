#!/bin/sh
# tests/daemon/daemon_crash.sh — nothing accepted is lost: kill -9 during a
# job, restart on the same journal: the job is re-queued and completes, its
# proof verifies; a job finished before the crash is still served; a job
# whose params vanished while the daemon was down is reported failed with
# the reason.
. "$(dirname "$0")/lib.sh"

make_params b4k bench:4096 21
make_params b1k bench:1024 22
start_daemon --set devices.workers_per_device=1

# a finished job, fetched once before the crash
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","request_id":"before"}'
[ "$code" = 201 ] || fail "submit: HTTP $code"
done_id=$(json_get "$dir/body" id)
wait_state "$done_id" done 60
"$CUZK" proof "$done_id" --out "$dir/before1.bin" >/dev/null || fail "proof before crash"

# a long job (40 partitions: long enough to be caught running), killed while it runs
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:4096","params":"b4k","partitions":40,"request_id":"crash"}'
[ "$code" = 201 ] || fail "submit: HTTP $code"
id=$(json_get "$dir/body" id)
# a job whose params will be gone after the restart (queued behind the first)
cp "$dir/params/b1k.params" "$dir/params/gone.params"
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"gone","priority":"low"}'
[ "$code" = 201 ] || fail "submit gone: HTTP $code"
gone=$(json_get "$dir/body" id)
wait_state "$id" running 60
kill9_daemon
ok "kill -9 while job $id runs"
[ -f "$dir/journal/$id.job" ] || fail "the running job is not in the journal"
[ -f "$dir/journal/$id.result" ] && fail "the killed job has a result already"
rm -f "$dir/params/gone.params"

start_daemon --set devices.workers_per_device=2
api GET "/v1/proofs/$id"; [ "$code" = 200 ] || fail "job unknown after restart: HTTP $code"
grep -q '"recovered":true' "$dir/body" || fail "job not marked recovered"
"$CUZK" wait "$id" --timeout 180 --quiet >/dev/null || fail "recovered job did not complete: $(cat "$dir/body")"
"$CUZK" proof "$id" --out "$dir/after.bin" --public "$dir/after.pub" >/dev/null || fail "proof after restart"
[ "$(wc -c <"$dir/after.bin")" -eq $((40 * 192)) ] || fail "recovered proof size"
"$CUZK" verify --vk "$dir/b4k.vk" --proof "$dir/after.bin" --public "$dir/after.pub" >/dev/null \
    || fail "recovered job's proof does not verify"
ok "restart: the job is re-queued, completes, its proof verifies"

"$CUZK" proof "$done_id" --out "$dir/before2.bin" >/dev/null || fail "finished job not served after restart"
cmp -s "$dir/before1.bin" "$dir/before2.bin" || fail "finished job's proof changed across the restart"
api POST /v1/proofs '{"kind":"circuit","circuit":"bench:1024","params":"b1k","request_id":"before"}'
[ "$code" = 200 ] && [ "$(json_get "$dir/body" id)" = "$done_id" ] || fail "request_id forgotten after restart"
ok "finished job still served (same bytes), request_id remembered"

wait_state "$gone" failed 30
grep -q "gone" "$dir/body" || fail "failure reason does not name the params: $(cat "$dir/body")"
ok "job whose params vanished: failed with a reason"
stop_daemon
echo "$passed passed, 0 failed"
