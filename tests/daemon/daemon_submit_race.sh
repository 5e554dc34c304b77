#!/bin/sh
# tests/daemon/daemon_submit_race.sh — black-box: a request_id names one
# job however its submits race: four concurrent submits of one porep-c2
# request (each prepare parses the C1 and takes its shape) get one job,
# one 201 and three 200 "existing" with the same id; a params file that is
# present but not params fails that job later, with a message naming it.
. "$(dirname "$0")/lib.sh"

"$CUZK" porep gen-c1 --sector-size 2KiB --random 5 -o "$dir/c1.json" >/dev/null || fail "gen-c1"
mkdir -p "$dir/params"
name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
echo "not params" >"$dir/params/$name.params"
start_daemon --set daemon.allow_client_paths=true

req="{\"kind\":\"porep-c2\",\"input_path\":\"$dir/c1.json\",\"request_id\":\"race-1\"}"
pids=""
for i in 1 2 3 4; do
    curl -s --max-time 60 --unix-socket "$sock" -H 'Content-Type: application/json' \
        --data-binary "$req" -o "$dir/r$i.json" -w '%{http_code}\n' http://cuzkd/v1/proofs \
        >"$dir/c$i.txt" &
    pids="$pids $!"
done
wait $pids   # the curls only: the daemon is a child of this shell too
created=0; existing=0
for i in 1 2 3 4; do
    case "$(cat "$dir/c$i.txt")" in
    201) created=$((created + 1)) ;;
    200) existing=$((existing + 1)); grep -q '"existing":true' "$dir/r$i.json" || fail "200 not existing" ;;
    *) fail "submit $i: HTTP $(cat "$dir/c$i.txt"): $(cat "$dir/r$i.json")" ;;
    esac
done
[ $created -eq 1 ] && [ $existing -eq 3 ] || fail "$created created, $existing existing: want 1 and 3"
id=$(json_get "$dir/r1.json" id)
for i in 2 3 4; do
    [ "$(json_get "$dir/r$i.json" id)" = "$id" ] || fail "submit $i named another job"
done
api GET /v1/proofs; [ "$(grep -o '"id":' "$dir/body" | wc -l)" -eq 1 ] || fail "more than one job: $(cat "$dir/body")"
ok "four concurrent submits of one request_id: one job"

wait_state "$id" failed 60
grep -q "$name" "$dir/body" || fail "the failure does not name the params file: $(cat "$dir/body")"
ok "params present but not params: the job fails, naming the file"
stop_daemon
echo "$passed passed, 0 failed"
