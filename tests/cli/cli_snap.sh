#!/bin/sh
# tests/cli/cli_snap.sh — black-box SnapDeals update at 2KiB with `cuzk`:
# snap gen-vanilla (a sealed CC sector, random deal data encoded into it,
# the bincode partition proofs) -> setup --kind snap -> prove --kind snap ->
# verify --kind snap from the public values alone; tampered commitments
# verify as INVALID (exit 1); a tampered vanilla proof is refused by prove
# before any proving, with the partition and the check named; a wrong
# registered_proof is a usage error (2); circuit shape --kind snap prints
# RFP's 1,705,039 constraints.
#
# Usage: cli_snap.sh CUZK [PARAMS_DIR]. The 2KiB update circuit has 1.7M
# constraints (PoRep 2KiB: 2.7M): its seeded setup (seed 7) takes minutes on
# 2 cores, so the params live in PARAMS_DIR under their Filecoin names and
# are generated only when missing.
set -u
CUZK=$1
dir=$(mktemp -d)
PARAMS=${2:-$dir/params}
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
cd "$dir"
mkdir -p "$PARAMS"

"$CUZK" circuit shape --kind snap --sector-size 2KiB --json >shape.json || fail "circuit shape"
grep -q '"constraints": 1705039' shape.json || fail "2KiB shape: $(cat shape.json)"
grep -q '"inputs": 5' shape.json || fail "2KiB inputs: $(cat shape.json)"

"$CUZK" snap gen-vanilla --sector-size 2KiB --random 7 -o req.json >gen.txt || fail "gen-vanilla"
grep -q '"registered_proof": 0' req.json || fail "request has no registered_proof 0"

name=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194
"$CUZK" setup --kind snap --sector-size 3KiB --params-dir "$PARAMS" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "setup with a bad size: exit $rc, want 2"
if [ ! -s "$PARAMS/$name.params" ] || [ ! -s "$PARAMS/$name.vk" ]; then
    t0=$(date +%s)
    "$CUZK" setup --kind snap --sector-size 2KiB --params-dir "$PARAMS" --seed 7 >setup.txt \
        || fail "setup"
    echo "setup snap 2KiB: $(( $(date +%s) - t0 )) s"
fi
[ -s "$PARAMS/$name.params" ] && [ -s "$PARAMS/$name.vk" ] || fail "setup wrote no Filecoin-named files"

t0=$(date +%s)
"$CUZK" prove --kind snap --input req.json --params-dir "$PARAMS" --proof proof.bin >prove.txt \
    || { cat prove.txt; fail "prove"; }
echo "prove snap 2KiB: $(( $(date +%s) - t0 )) s"
[ "$(wc -c <proof.bin)" -eq 192 ] || fail "2KiB update proof is not 192 bytes"

"$CUZK" verify --kind snap --params-dir "$PARAMS" --proof proof.bin --input req.json >/dev/null \
    || fail "valid proof rejected"

# tampered public commitments: INVALID (exit 1)
for field in comm_r_old comm_r_new comm_d_new; do
    sed "s/\"$field\": \"\(..\)/\"$field\": \"00/" req.json >bad.json
    cmp -s bad.json req.json && sed "s/\"$field\": \"\(..\)/\"$field\": \"01/" req.json >bad.json
    "$CUZK" verify --kind snap --params-dir "$PARAMS" --proof proof.bin --input bad.json >out.txt 2>&1
    rc=$?
    [ $rc -eq 1 ] || fail "tampered $field: verify exit $rc, want 1 ($(cat out.txt))"
done

# the proof of another registered proof: bad input (exit 2)
sed 's/"registered_proof": 0/"registered_proof": 9/' req.json >bad.json
"$CUZK" verify --kind snap --params-dir "$PARAMS" --proof proof.bin --input bad.json >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || fail "registered_proof 9: exit $rc, want 2"

# a request whose comm_r_new does not match its vanilla proofs: refused
# before proving, naming the partition
sed 's/"comm_r_new": "\(..\)/"comm_r_new": "00/' req.json >bad.json
cmp -s bad.json req.json && sed 's/"comm_r_new": "\(..\)/"comm_r_new": "01/' req.json >bad.json
"$CUZK" prove --kind snap --input bad.json --params-dir "$PARAMS" --proof bad.bin >out.txt 2>&1
rc=$?
[ $rc -ne 0 ] || fail "prove accepted a tampered request"
grep -q "vanilla_proofs\[0\]" out.txt || fail "prove error does not name the partition: $(cat out.txt)"
[ ! -e bad.bin ] || fail "prove wrote a proof for a tampered request"

echo "1 passed, 0 failed"
