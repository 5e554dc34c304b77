#!/bin/sh
# tests/cli/cli_porep_random.sh — `cuzk prove --kind porep-c2 --random-params`
# (TIMING ONLY: random params of the partition's exact shape, the engine
# proves every partition, nothing is verified) on a 2KiB C1.
#
# Usage: cli_porep_random.sh CUZK [full]. Without "full": the --dry-run
# shape (1 partition x 2,687,921 constraints / 2,687,961 rows), the loud
# "timing only" line, --json, and the usage errors (seconds). With "full":
# also the whole timed run on --backend cpu (about a minute on 2 cores:
# random params of a 2^22 domain, one synthesis, one CPU proof) and its
# figures: s/proof, synthesis per partition, device region and efficiency,
# peak RSS, and -o's 192-byte (invalid) proof; as --jobs 2 (two jobs at once
# in one engine), so the steady s/proof line too; every line the GPU scripts
# (bench/small_cards.sh, tests/gpu/run-on-gpu.sh) read, matched whole, and
# --json's keys (a second, one-job run).
set -u
CUZK=$1
MODE=${2:-quick}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
cd "$dir"
"$CUZK" porep gen-c1 --sector-size 2KiB --random 1 -o c1.json >gen.txt || fail "gen-c1"

# the shape only
"$CUZK" prove --kind porep-c2 --c1 c1.json --random-params --dry-run >dry.txt 2>err.txt \
    || { cat dry.txt err.txt; fail "dry run: exit $?"; }
grep -q "TIMING ONLY: random params, proof not verified" dry.txt || fail "no timing-only line"
grep -q "StackedDrg2KiBV1_1: 1 partitions x 2687921 constraints / 2687961 rows" dry.txt \
    || { cat dry.txt; fail "wrong 2KiB shape"; }
"$CUZK" prove --kind porep-c2 --c1 c1.json --random-params --dry-run --json >dry.json 2>err.txt \
    || fail "dry run --json"
grep -q '"rows":2687961' dry.json || { cat dry.json; fail "--json shape"; }
grep -q "TIMING ONLY" err.txt || fail "--json: no timing-only line on stderr"

# usage: params and random params exclude each other; no --proof needs --random-params
"$CUZK" prove --kind porep-c2 --c1 c1.json --random-params --params x.params >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--random-params --params: exit $rc, want 2"
"$CUZK" prove --kind porep-c2 --c1 c1.json --params x.params >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "no --proof without --random-params: exit $rc, want 2"
"$CUZK" prove --kind porep-c2 --c1 c1.json --random-params --workers-per-device 0 >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--workers-per-device 0: exit $rc, want 2"

if [ "$MODE" = full ]; then
    t0=$(date +%s)
    "$CUZK" prove --kind porep-c2 --c1 c1.json --random-params --backend cpu \
        --workers-per-device 2 --jobs 2 --quiet --svg c2.svg --timeline tl.log -o p.bin \
        >run.txt 2>err.txt \
        || { cat run.txt err.txt; fail "random-params prove: exit $?"; }
    echo "random-params prove 2KiB: $(( $(date +%s) - t0 )) s"
    cat run.txt
    for want in "TIMING ONLY: random params, proof not verified" "s/proof" \
                "synthesis per partition: mean" "device region per partition" \
                "device efficiency" "peak RSS (VmHWM)" "NOT a valid proof" \
                "2 jobs submitted at once" "steady"; do
        grep -q "$want" run.txt || fail "no '$want' in the output"
    done
    # every line bench/small_cards.sh and tests/gpu/run-on-gpu.sh read, as they read it
    # (the device-memory lines are CUDA's only)
    for want in '^StackedDrg2KiBV1_1: 1 partitions x 2687921 constraints / 2687961 rows (domain 4194304, 40 inputs, 2685673 aux); c1+shape [0-9.]* s$' \
                '^random params: [0-9.]* s (seed 1, [0-9.]* GiB in memory); engine budget per partition [0-9.]* GiB$' \
                '^StackedDrg2KiBV1_1: [0-9.]* s/proof (1 partitions, submit to done; [0-9.]* s/partition), backend cpu, device 0, 2 workers/device$' \
                '^2 jobs submitted at once: the first done at [0-9.]* s, all at [0-9.]* s; steady [0-9.]* s/proof ((last - first) / 1)$' \
                '^synthesis per partition: mean [0-9.]* ms, max [0-9.]* ms (2 partitions, [0-9]* threads, 1 synthesis worker)$' \
                '^device region per partition: [0-9.]* ms (2 partitions in 2 regions); device efficiency [0-9.]*% (dispatch [0-9.]*%), 0 overlap violations$' \
                '^peak RSS (VmHWM): [0-9]* KiB ([0-9.]* GiB)$' \
                '^wrote p.bin (192 bytes): NOT a valid proof (random params)$'; do
        grep -q "$want" run.txt || fail "no line matching '$want'"
    done
    grep -m1 -o '[0-9.]* s/proof ([0-9]* partitions' run.txt >/dev/null || fail "small_cards: s/proof"
    grep -m1 -o 'steady [0-9.]* s/proof' run.txt >/dev/null || fail "small_cards: steady"
    grep -m1 -o 'device region per partition: [0-9.]* ms' run.txt >/dev/null \
        || fail "small_cards: device region"
    [ "$(head -1 run.txt)" = "*** TIMING ONLY: random params, proof not verified ***" ] \
        || fail "the banner is not the first line"
    [ "$(tail -1 run.txt)" = "*** TIMING ONLY: random params, proof not verified ***" ] \
        || fail "the banner is not the last line"
    [ -s tl.log ] && grep -q '^TIMELINE,' tl.log || fail "--timeline wrote no timeline"
    # --json: one line with every key
    "$CUZK" prove --kind porep-c2 --c1 c1.json --random-params --backend cpu --json \
        >run.json 2>err.txt || { cat run.json err.txt; fail "--json run: exit $?"; }
    for key in timing_only verified registered_proof partitions constraints rows backend \
               device workers_per_device threads s_per_proof s_per_partition \
               synthesis_ms_mean synthesis_ms_max synthesis_spans device_region_ms \
               device_efficiency dispatch_efficiency overlap_violations params_random_s \
               c1_shape_s peak_rss_kib jobs all_done_s steady_s_per_proof region_parts_ms \
               steady_region_parts_ms; do
        grep -q "\"$key\":" run.json || { cat run.json; fail "--json: no $key"; }
    done
    [ "$(wc -l <run.json)" -eq 1 ] || fail "--json: not one line"
    grep -q "TIMING ONLY" err.txt || fail "--json run: no timing-only line on stderr"
    [ "$(wc -c <p.bin)" -eq 192 ] || fail "-o did not write 192 bytes"
    [ -s c2.svg ] || fail "--svg wrote nothing"
fi
echo "1 passed, 0 failed"
