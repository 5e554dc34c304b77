#!/bin/sh
# tests/cli/cli_porep.sh — black-box PoRep C2 at 2KiB with the `cuzk` tool:
# porep gen-c1 -> setup --kind porep-c2 -> prove --kind porep-c2 -> verify
# --kind porep-c2 from the public values alone (and from --c1), with the
# exit codes: verify 0 valid / 1 invalid / 2 bad input; prove 1 on a
# tampered C1 with a message saying what is wrong; setup 2 on a bad size.
#
# Usage: cli_porep.sh CUZK [PARAMS_DIR]. The 2KiB setup takes minutes on a
# 2-core machine, so the params live in PARAMS_DIR (the build tree) under
# their Filecoin names and are generated only when missing; the seed (7)
# is the one tests/kinds/porep/test_c2.c uses, so either test fills the cache.
set -u
CUZK=$1
dir=$(mktemp -d)
PARAMS=${2:-$dir/params}
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
cd "$dir"
mkdir -p "$PARAMS"

SEED=abababababababababababababababababababababababababababababababab
"$CUZK" porep gen-c1 --sector-size 2KiB --random 3 --seed $SEED -o c1.json >gen.txt \
    || fail "gen-c1"
field() { sed -n "s/^$1 //p" gen.txt; }
COMM_D=$(field comm_d); COMM_R=$(field comm_r); REPLICA_ID=$(field replica_id)
[ ${#COMM_D} -eq 64 ] && [ ${#COMM_R} -eq 64 ] && [ ${#REPLICA_ID} -eq 64 ] \
    || fail "gen-c1 did not print comm_d/comm_r/replica_id"

# setup (cached), under the Filecoin names
"$CUZK" setup --kind porep-c2 --sector-size 3KiB --params-dir "$PARAMS" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "setup with a bad size: exit $rc, want 2"
name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
if [ ! -s "$PARAMS/$name.params" ] || [ ! -s "$PARAMS/$name.vk" ]; then
    t0=$(date +%s)
    "$CUZK" setup --kind porep-c2 --sector-size 2KiB --params-dir "$PARAMS" --seed 7 >setup.txt \
        || fail "setup"
    echo "setup 2KiB: $(( $(date +%s) - t0 )) s"
fi
[ -s "$PARAMS/$name.params" ] && [ -s "$PARAMS/$name.vk" ] || fail "setup wrote no Filecoin-named files"

# prove through the engine, verified before it is written
t0=$(date +%s)
"$CUZK" prove --kind porep-c2 --c1 c1.json --params-dir "$PARAMS" --proof proof.bin \
    --quiet >prove.txt || { cat prove.txt; fail "prove"; }
echo "prove 2KiB: $(( $(date +%s) - t0 )) s"
[ "$(wc -c <proof.bin)" -eq 192 ] || fail "2KiB proof is not 192 bytes"

# verify from the public values alone, and from the C1
verify() {
    "$CUZK" verify --kind porep-c2 --vk "$PARAMS/$name.vk" --proof "$1" --sector-size 2KiB \
        --replica-id "$2" --comm-d "$3" --comm-r "$4" --seed "$5" >/dev/null 2>err.txt
}
verify proof.bin $REPLICA_ID $COMM_D $COMM_R $SEED || fail "valid proof rejected (public values)"
"$CUZK" verify --kind porep-c2 --params-dir "$PARAMS" --proof proof.bin --c1 c1.json >/dev/null \
    || fail "valid proof rejected (--c1)"

# wrong public values: exit 1
OTHER=cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd
verify proof.bin $REPLICA_ID $COMM_D $COMM_R $OTHER; rc=$?
[ $rc -eq 1 ] || fail "wrong seed: exit $rc, want 1"
verify proof.bin $REPLICA_ID $COMM_D $COMM_D $SEED; rc=$?
[ $rc -eq 1 ] || fail "wrong comm_r: exit $rc, want 1"

# bad input: exit 2 with a message
head -c 100 proof.bin >short.bin
verify short.bin $REPLICA_ID $COMM_D $COMM_R $SEED; rc=$?
[ $rc -eq 2 ] || fail "truncated proof: exit $rc, want 2"
grep -q "192" err.txt || fail "truncated proof: no clear message"
verify proof.bin $REPLICA_ID $COMM_D $COMM_R 1234; rc=$?
[ $rc -eq 2 ] || fail "short seed: exit $rc, want 2"
verify proof.bin $REPLICA_ID 0000000000000000000000000000000000000000000000000000000000000000 \
    $COMM_R $SEED; rc=$?
[ $rc -eq 2 ] || fail "zero comm_d: exit $rc, want 2"

# a tampered C1 (comm_r changed): prove fails at synthesis, naming the problem
n=$(sed -E 's/.*"comm_r":\[([0-9]+),.*/\1/' c1.json)
sed -E "s/\"comm_r\":\[$n,/\"comm_r\":[$(( n ^ 1 )),/" c1.json >bad.json
cmp -s c1.json bad.json && fail "tampering did not change the C1"
"$CUZK" prove --kind porep-c2 --c1 bad.json --params-dir "$PARAMS" --proof bad.bin --quiet \
    >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] || fail "tampered C1: exit $rc, want 1"
# the C1 check runs before the params are loaded (kinds' validate) and names the relation
grep -q "comm_r != H(comm_c, comm_r_last)" err.txt || { cat err.txt; fail "tampered C1: no clear message"; }
[ -e bad.bin ] && fail "tampered C1: a proof was written"
echo "1 passed, 0 failed"
