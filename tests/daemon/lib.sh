# tests/daemon/lib.sh — shared by the black-box daemon tests (sourced).
#
# Usage in a test:  . "$(dirname "$0")/lib.sh"  with $1 = build dir's bin/.
# Gives: $dir (temp dir, removed at exit), start_daemon ARGS..., stop_daemon,
# kill9_daemon, api METHOD PATH [BODY] (curl on the unix socket; sets $code
# and writes the body to $dir/body), fail MSG, ok MSG, json_get FILE KEY.
# Every wait is bounded; the trap kills the daemon even when a check fails.
set -u
BIN=$1
CUZK="$BIN/cuzk"
CUZKD="$BIN/cuzkd"
[ -x "$CUZKD" ] || { echo "SKIP: cuzkd not built"; exit 77; }
command -v curl >/dev/null 2>&1 || { echo "SKIP: curl not installed"; exit 77; }
dir=$(mktemp -d /tmp/cuzkd-test.XXXXXX)
sock="$dir/cuzkd.sock"
export CUZK_SOCKET="$sock"
pid=""
passed=0
cleanup() {
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    fi
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() {
    echo "FAIL: $*"
    [ -f "$dir/daemon.log" ] && { echo "--- daemon log (tail)"; tail -n 25 "$dir/daemon.log" | grep -v TIMELINE; }
    echo "$passed passed, 1 failed"
    exit 1
}
ok() { passed=$((passed + 1)); echo "ok: $*"; }

# start_daemon [extra cuzkd args...]: waits (<= 20 s) until the socket answers
start_daemon() {
    "$CUZKD" --socket "$sock" --journal "$dir/journal" --params-dir "$dir/params" \
        --set synthesis.threads=2 --set memory.total_budget=4GiB --set timeline.file="$dir/timeline.log" \
        "$@" >>"$dir/daemon.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 200); do
        if curl -s -o /dev/null --max-time 2 --unix-socket "$sock" http://cuzkd/v1/status; then
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || fail "cuzkd exited at start-up"
        sleep 0.1
    done
    fail "cuzkd did not answer within 20 s"
}

# stop_daemon: SIGTERM, bounded wait (<= 30 s), exit status must be 0
stop_daemon() {
    kill -TERM "$pid"
    for _ in $(seq 1 300); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && fail "cuzkd did not stop within 30 s of SIGTERM"
    wait "$pid"
    rc=$?
    pid=""
    [ $rc -eq 0 ] || fail "cuzkd exit status $rc after SIGTERM"
}

kill9_daemon() {
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    pid=""
}

# api METHOD PATH [BODY]: $code = HTTP status, body in $dir/body
api() {
    if [ $# -ge 3 ]; then
        code=$(curl -s --max-time 60 --unix-socket "$sock" -X "$1" -H 'Content-Type: application/json' \
            --data-binary "$3" -o "$dir/body" -w '%{http_code}' "http://cuzkd$2")
    else
        code=$(curl -s --max-time 60 --unix-socket "$sock" -X "$1" -o "$dir/body" -w '%{http_code}' \
            "http://cuzkd$2")
    fi
}

# json_get FILE KEY: a top-level string or number field (enough for these replies)
json_get() {
    sed -n "s/.*\"$2\":\"\{0,1\}\([^\",}]*\).*/\1/p" "$1" | head -n 1
}

# make_params NAME CIRCUIT SEED: test params in $dir/params/NAME.params and $dir/NAME.vk
make_params() {
    mkdir -p "$dir/params"
    "$CUZK" setup --circuit "$2" --params "$dir/params/$1.params" --vk "$dir/$1.vk" --seed "$3" \
        >/dev/null || fail "setup $2"
}

# wait_state ID STATE SECONDS: poll until the job's state is STATE
wait_state() {
    for _ in $(seq 1 $(($3 * 10))); do
        api GET "/v1/proofs/$1"
        [ "$(json_get "$dir/body" state)" = "$2" ] && return 0
        sleep 0.1
    done
    fail "job $1 not $2 within $3 s (last: $(cat "$dir/body"))"
}
