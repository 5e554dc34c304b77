#!/bin/sh
# bench/post_priority.sh BIN POREP_PARAMS POST_PARAMS [BACKLOG] — how long a
# WinningPoSt waits behind a PoRep C2 backlog in cuzkd (CPU backend):
# BACKLOG (default 4) 2KiB porep-c2 jobs are submitted at priority normal,
# then one 2KiB winning-post job, once at priority normal (baseline: FIFO
# behind the backlog) and once at critical (it overtakes the queued PoRep
# partitions at the next partition boundary, in synthesis and in the
# device queue). Prints the winning job's submit-to-done time of both runs
# and their ratio. POREP_PARAMS holds the 2KiB PoRep C2 params and
# POST_PARAMS the 2KiB winning params, under their Filecoin names (seeded
# TEST params: the daemon runs with params.check=false, as the tests do).
set -eu
BIN=$1; PP=$2; QP=$3; N=${4:-4}
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
dir=$(mktemp -d /tmp/post-prio.XXXXXX)
sock=$dir/cuzkd.sock
export CUZK_SOCKET=$sock
pid=
trap '[ -n "$pid" ] && kill -KILL $pid 2>/dev/null; rm -rf "$dir"' EXIT
mkdir -p "$dir/params"
cp "$PP"/v28-stacked-proof-of-replication-* "$QP"/v28-proof-of-spacetime-* "$dir/params/"
"$BIN/cuzk" porep gen-c1 --sector-size 2KiB --random 1 -o "$dir/c1.json" >/dev/null
"$BIN/cuzk" post gen-vanilla --kind winning --sector-size 2KiB --random 3 -o "$dir/win.json" >/dev/null
"$BIN/cuzkd" --socket "$sock" --journal "$dir/journal" --params-dir "$dir/params" \
    --set devices.backend=cpu --set params.check=false >"$dir/daemon.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
    curl -s -o /dev/null --unix-socket "$sock" http://cuzkd/v1/status && break
    sleep 0.1
done
total_ms() {   # total_ms of job $1
    curl -s --unix-socket "$sock" "http://cuzkd/v1/proofs/$1" |
        "$PY" -c "import json,sys; print(int(json.load(sys.stdin)['timings']['total_ms']))"
}
run() {   # run PRIORITY: the winning job's submit-to-done ms behind the backlog
    ids=
    for i in $(seq 1 "$N"); do
        ids="$ids $("$BIN/cuzk" submit --kind porep-c2 --input-path "$dir/c1.json" --priority normal)"
    done
    sleep 1
    w=$("$BIN/cuzk" submit --kind winning-post --input-path "$dir/win.json" --priority "$1")
    "$BIN/cuzk" wait "$w" --timeout 900 >"$dir/wait.txt" 2>&1 ||
        { cat "$dir/wait.txt" >&2; echo "post_priority: the winning job failed" >&2; exit 1; }
    t=$(total_ms "$w")
    for id in $ids; do "$BIN/cuzk" wait "$id" --timeout 900 >/dev/null 2>&1; done
    echo "$t"
}
base=$(run normal)
crit=$(run critical)
echo "backlog: $N porep-c2 2KiB jobs (priority normal), cpu backend, commit $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo ?)"
echo "winning-post at priority normal:   ${base} ms submit to done"
echo "winning-post at priority critical: ${crit} ms submit to done"
"$PY" -c "print('ratio normal / critical: %.2fx' % ($base / max($crit, 1)))"
