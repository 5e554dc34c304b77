#!/bin/sh
# tests/daemon/daemon_stage.sh — black-box (issue 15, items 7 and 8): a
# one-partition job reports the stage within its partition (status JSON
# partition_stage / partition_stages; `cuzk wait` shows it instead of a bare
# "proving"); errors about the kind list every registered kind; `cuzk submit
# --input-path` sends an absolute path for a relative one.
. "$(dirname "$0")/lib.sh"

make_params b16k bench:2^14 13
# every device step of the region takes 300 ms (a delay fault, core/fault.h): the
# region lasts ~2 s on any machine, so `cuzk wait`'s poll sees the partition in it
# (bench:2^14 alone proved in 0.2 s on a fast CPU: the poll saw only the start and the end)
start_daemon --set daemon.allow_client_paths=true --set test.fault=device_step:1+~300

# ---- the stage within a partition ------------------------------------------------
id=$("$CUZK" submit --circuit bench:2^14 --params b16k --seed 5) || fail "submit"
"$CUZK" wait "$id" --timeout 120 >"$dir/wait.txt" 2>"$dir/progress.txt" &
wpid=$!
: >"$dir/stages.txt"
for _ in $(seq 1 1500); do   # <= about 60 s
    api GET "/v1/proofs/$id"
    state=$(json_get "$dir/body" state)
    ps=$(json_get "$dir/body" partition_stage)
    stage=$(json_get "$dir/body" stage)
    case $stage in queued|proving|verifying) inside=1 ;; *) inside=0 ;; esac   # API.md: in the engine
    if [ $inside = 1 ]; then
        [ -n "$ps" ] || fail "a job in the engine has no partition_stage: $(cat "$dir/body")"
        grep -q '"partition_stages":{' "$dir/body" || fail "no partition_stages counts: $(cat "$dir/body")"
    fi
    [ -n "$ps" ] && echo "$ps" >>"$dir/stages.txt"
    case $state in done|failed|canceled) break ;; esac
    sleep 0.02
done
[ "$state" = done ] || fail "job ended $state"
wait "$wpid" || fail "cuzk wait: $(cat "$dir/wait.txt")"
seen=$(sort -u "$dir/stages.txt" | tr '\n' ' ')
echo "partition stages seen in status: $seen"
for s in $seen; do
    case $s in queued|synthesis|waiting_device|device|epilogue|verify) ;;
    *) fail "partition_stage '$s' is not a documented stage" ;; esac
done
# the device region lasts ~2 s (the delayed steps)
grep -qx device "$dir/stages.txt" || fail "status never showed the partition on the device: $seen"
grep -q "partition_stage" "$dir/body" && fail "an ended job still reports partition_stage"
cat "$dir/progress.txt"
grep -Eq "0/1 partitions, (synthesis|waiting_device|device|epilogue|verify)," "$dir/progress.txt" \
    || fail "cuzk wait did not show the stage within the partition: $(cat "$dir/progress.txt")"
grep -q "0/1 partitions, proving" "$dir/progress.txt" \
    && fail "cuzk wait still shows a bare 'proving' for a one-partition job"
ok "one-partition job: partition_stage in status, the stage in cuzk wait"

# ---- every kind named in kind errors -----------------------------------------------
api POST /v1/proofs '{"kind":"nosuch","circuit":"bench:1024","params":"b16k"}'
[ "$code" = 400 ] || fail "unknown kind: HTTP $code"
grep -q "circuit" "$dir/body" && grep -q "porep-c2" "$dir/body" \
    || fail "unknown kind: the message does not list every kind: $(cat "$dir/body")"
api POST /v1/proofs '{"circuit":"bench:1024","params":"b16k"}'
grep -q "circuit, porep-c2" "$dir/body" || fail "missing kind: $(cat "$dir/body")"
ok "kind errors list every registered kind"

# ---- --input-path made absolute by the client ----------------------------------
mkdir "$dir/cwd"
printf '{"not": "a c1"}\n' >"$dir/cwd/rel.json"
(cd "$dir/cwd" && "$CUZK" submit --kind porep-c2 --input-path rel.json --json) >"$dir/sub.txt" 2>&1
grep -q "absolute" "$dir/sub.txt" && fail "a relative --input-path reached the daemon: $(cat "$dir/sub.txt")"
(cd "$dir/cwd" && "$CUZK" submit --kind porep-c2 --input-path missing.json) >"$dir/sub2.txt" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a missing --input-path: exit $rc, want 2"
grep -q "missing.json" "$dir/sub2.txt" || fail "a missing --input-path is not named"
ok "submit --input-path: relative made absolute, missing named (exit 2)"

stop_daemon
echo "$passed passed, 0 failed"
