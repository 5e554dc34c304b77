#!/bin/sh
# tests/cli/cli_random_kinds.sh — TIMING ONLY runs of the kinds without a C1
# (cli/time_random.c): `cuzk prove --kind winning-post|snap --sector-size
# 2KiB --random-params --backend cpu` print the circuit's exact shape, the
# loud timing-only line and the run's figures; the usage errors exit 2
# (porep-c2's --jobs among them; its run is cli_porep_random.sh full's).
# About 30 s on 2 cores (the snap circuit is 1.7M constraints).
set -u
CUZK=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0
fail() { echo "FAIL: $*"; echo "$pass passed, 1 failed"; exit 1; }
ok() { pass=$((pass + 1)); echo "ok: $*"; }
cd "$dir"

"$CUZK" prove --kind winning-post --sector-size 2KiB --random-params --backend cpu >win.txt 2>err.txt \
    || { cat win.txt err.txt; fail "winning-post --random-params: exit $?"; }
grep -q "TIMING ONLY" win.txt || fail "winning: no timing-only line"
grep -q "StackedDrgWinning2KiBV1: 1 partition x 90750 constraints / 90883 rows (domain 131072, 133 inputs" win.txt \
    || { cat win.txt; fail "winning: wrong 2KiB shape"; }
grep -q "s/partition (synthesis" win.txt || { cat win.txt; fail "winning: no figures"; }
ok "winning-post 2KiB random params"

"$CUZK" prove --kind snap --sector-size 2KiB --random-params --backend cpu --seed 3 >snap.txt 2>err.txt \
    || { cat snap.txt err.txt; fail "snap --random-params: exit $?"; }
grep -q "TIMING ONLY" snap.txt || fail "snap: no timing-only line"
grep -q "snap 2KiB (RegisteredUpdateProof 0): 1 partition x 1705039 constraints / 1705044 rows (domain 2097152, 5 inputs" snap.txt \
    || { cat snap.txt; fail "snap: wrong 2KiB shape"; }
grep -q "s/partition (synthesis" snap.txt || { cat snap.txt; fail "snap: no figures"; }
ok "snap 2KiB random params"

expect_usage() {   # expect_usage WHAT ARGS...: exit 2
    what=$1; shift
    "$CUZK" "$@" >/dev/null 2>&1; rc=$?
    [ $rc -eq 2 ] || fail "$what: exit $rc, want 2"
}
expect_usage "snap --random-params without --sector-size" prove --kind snap --random-params
expect_usage "snap --random-params with --input" prove --kind snap --sector-size 2KiB --random-params --input x
expect_usage "snap --device x" prove --kind snap --sector-size 2KiB --random-params --device x
expect_usage "snap --seed without --random-params" prove --kind snap --input x --params-dir . --proof p --seed 1
"$CUZK" porep gen-c1 --sector-size 2KiB --random 1 -o c1.json >/dev/null || fail "gen-c1"
expect_usage "porep-c2 --jobs 0" prove --kind porep-c2 --c1 c1.json --random-params --jobs 0
expect_usage "porep-c2 --jobs without --random-params" prove --kind porep-c2 --c1 c1.json --params-dir . --proof p --jobs 2
ok "usage errors exit 2"

echo "$pass passed, 0 failed"
