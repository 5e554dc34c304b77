#!/bin/sh
# tests/cli/cli_bench_pipeline.sh — `cuzk bench pipeline` drives jobs with
# real params through the prover (the public API; every proof verified),
# --random-params through it too (timing jobs, not verified), and
# --witness-cache too (the circuit kind's "witness":"copy"; with real
# params the copies' proofs verify): JSON "driver" is always "prover",
# "verified" says the prover's proofs verified and random params' did not;
# params that do not fit the circuit fail the run naming the file; the
# bench leaves nothing in its temporary directory.
set -u
CUZK=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "$pass passed, 1 failed"; exit 1; }
pass=0
export TMPDIR="$dir/tmp"
mkdir "$TMPDIR"
B="$CUZK bench pipeline --circuit bench:2^10 --jobs 2 --partitions 2 --threads 2 --json"

$B >test.json 2>err.txt || { cat err.txt; fail "test params: exit $?"; }
[ "$(grep -c '"driver":"prover"' test.json)" -eq 2 ] || fail "test params not through the prover: $(cat test.json)"
[ "$(grep -c '"verified":true' test.json)" -eq 2 ] || fail "prover runs not verified: $(cat test.json)"
grep -q '"overlap_violations":0' test.json || fail "overlaps: $(cat test.json)"
pass=$((pass + 1)); echo "ok: seeded test params through the prover, verified"

"$CUZK" setup --circuit bench:2^10 --params "$dir/b.params" --vk "$dir/b.vk" --seed 3 >/dev/null || fail "setup"
$B --params "$dir/b.params" --workers-per-device 2 >file.json 2>err.txt || { cat err.txt; fail "--params: exit $?"; }
grep -q '"driver":"prover".*' file.json && grep -q '"params":"file","verified":true' file.json \
    || fail "--params: $(cat file.json)"
pass=$((pass + 1)); echo "ok: --params FILE through the prover, verified"

$B --random-params --workers-per-device 1 >random.json 2>err.txt || { cat err.txt; fail "--random-params: exit $?"; }
grep -q '"verified":false' random.json && grep -q '"driver":"prover"' random.json \
    || fail "--random-params: $(cat random.json)"
grep -q '"overlap_violations":0' random.json || fail "--random-params overlaps: $(cat random.json)"
$B --random-params --witness-cache --workers-per-device 1 >rcache.json 2>err.txt \
    || { cat err.txt; fail "--random-params --witness-cache: exit $?"; }
grep -q '"params":"random","verified":false' rcache.json && grep -q '"synthesis":"cache","driver":"prover"' rcache.json \
    || fail "--random-params --witness-cache: $(cat rcache.json)"
$B --witness-cache --workers-per-device 1 >cache.json 2>err.txt || { cat err.txt; fail "--witness-cache: exit $?"; }
grep -q '"synthesis":"cache","driver":"prover"' cache.json && grep -q '"params":"test","verified":true' cache.json \
    || fail "--witness-cache: $(cat cache.json)"
pass=$((pass + 1)); echo "ok: --random-params (not verified) and --witness-cache (verified) through the prover"

"$CUZK" bench pipeline --circuit bench:2^11 --jobs 1 --partitions 1 --threads 2 --params "$dir/b.params" \
    >/dev/null 2>err.txt && fail "params of another shape: exit 0"
grep -q "b.params do not fit" err.txt || fail "shape mismatch not named: $(cat err.txt)"
pass=$((pass + 1)); echo "ok: params of another shape fail the run, naming the file"

[ -z "$(ls -A "$TMPDIR")" ] || fail "left behind in TMPDIR: $(ls -A "$TMPDIR")"
pass=$((pass + 1)); echo "ok: nothing left in TMPDIR"
echo "$pass passed, 0 failed"
