#!/bin/bash
# bench/small_cards.sh CUZK BALLAST C1 OUT [FREE_GIB ...] — a 32GiB PoRep C2 as
# cards with less device memory prove it (issue "every GPU"): for each FREE_GIB
# (default: full 22 14 10) a ballast process (../shared/tools/ballast.cu) holds
# all but FREE_GIB of the GPU's free memory ("full": none), then
#   cuzk prove --kind porep-c2 --c1 C1 --random-params --backend cuda
#       --workers-per-device 2 [--jobs J]
# runs cold (one job; CUZK_COLD=0: not) and, with CUZK_STEADY=1, steady (3 jobs
# at once).
# TIMING ONLY (random params). Each run's output, with the plan the backend
# printed and `/usr/bin/time -v`'s peak RSS, goes to OUT/FREE-cold.log and
# OUT/FREE-steady.log; one summary line per run on stdout. CUZK_BASE: a second
# cuzk binary (the baseline of the same run) run the same way at each FREE_GIB
# just before CUZK, under the same ballast (logs OUT/base-FREE-*.log): an A/B
# pair per card class on one machine. CUZK_TIMEOUT: seconds per run (default 300). CUZK_EXTRA: more
# options for cuzk prove (e.g. "--batch 1"), CUZK_TAG: a prefix of the logs'
# names (runs of one binary with different options side by side).
set -u
CUZK=$1; BALLAST=$2; C1=$3; OUT=$4; shift 4
FREES=${*:-full 22 14 10}
TO=${CUZK_TIMEOUT:-300}
mkdir -p "$OUT"
bpid=
stop_ballast() { [ -n "$bpid" ] && kill "$bpid" 2>/dev/null && wait "$bpid" 2>/dev/null; bpid=; }
trap stop_ballast EXIT

run() {   # run TAG BIN JOBS
    local tag=${CUZK_TAG:-}$1 bin=$2 jobs=$3
    local log=$OUT/$tag.log
    # shellcheck disable=SC2086  # CUZK_EXTRA: words on purpose
    timeout "$TO" /usr/bin/time -v "$bin" prove --kind porep-c2 --c1 "$C1" --random-params \
        --backend cuda --workers-per-device 2 --jobs "$jobs" --quiet ${CUZK_EXTRA:-} >"$log" 2>&1
    local rc=$?
    printf '%-14s rc=%d  %s | %s | %s | %s\n' "$tag" "$rc" \
        "$(grep -m1 -o '[0-9.]* s/proof ([0-9]* partitions' "$log")" \
        "$(grep -m1 -o 'steady [0-9.]* s/proof' "$log")" \
        "$(grep -m1 -o 'device region per partition: [0-9.]* ms' "$log")" \
        "$(grep -m1 -o 'Maximum resident set size (kbytes): [0-9]*' "$log")"
    grep -m4 -E '^device memory:|^params to the device:|^device region per partition.*its parts' \
        "$log" | sed 's/^/    /'
}

for free in $FREES; do
    if [ "$free" != full ]; then
        "$BALLAST" "$free" >"$OUT/ballast-$free.log" 2>&1 &
        bpid=$!
        for _ in $(seq 1 100); do grep -q holding "$OUT/ballast-$free.log" && break; sleep 0.1; done
        cat "$OUT/ballast-$free.log"
    fi
    for bin in ${CUZK_BASE:+"$CUZK_BASE"} "$CUZK"; do
        tag=$free
        [ "$bin" = "$CUZK" ] || tag=base-$free
        [ "${CUZK_COLD:-1}" = 1 ] && run "$tag-cold" "$bin" 1
        [ "${CUZK_STEADY:-0}" = 1 ] && run "$tag-steady" "$bin" 3
    done
    stop_ballast
done
