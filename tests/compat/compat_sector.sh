#!/bin/sh
# tests/compat/compat_sector.sh — `cuzk porep public-inputs` and `cuzk verify
# --kind porep-c2 --registered-proof` on a real mainnet StackedDrg32GiBV1
# seal (shared/realdata/test-vectors/mainnet_seal_verify_infos.json, the
# first record: f010241 sector 71984):
#   - the prover forms (--miner, --prover-id) and --replica-id give the same
#     inputs, and the replica_id printed is the recorded one;
#   - the file verifies in the generic verifier's format: against the real
#     v27 32GiB vk (the same circuit, another setup) the v28-era mainnet
#     proof is INVALID (exit 1) in both paths, never a format error: the
#     inputs have the right count and the proof decodes;
#   - NonInteractivePoRep: 126 partitions at 32GiB, 13 at 2KiB, no seed (a seed
#     is refused);
#   - bad values exit 2 naming the option.
# Usage: compat_sector.sh CUZK [REALDATA] ($CUZK_REALDATA wins); 77 without data.
set -u
CUZK=$1
DATA=${CUZK_REALDATA:-${2:-}}
J=$DATA/test-vectors/mainnet_seal_verify_infos.json
VK=$DATA/fil-blst/converted/seal32.vk
if [ -z "$DATA" ] || [ ! -s "$J" ] || [ ! -s "$VK" ]; then
    echo "SKIP: mainnet seal vectors / v27 vk not found under '${DATA}' (set CUZK_REALDATA)"
    exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
field() { sed -n "s/^  \"$1\": \"*\([^\",]*\)\"*,*\$/\1/p" "$J" | head -1; }
MINER=$(field miner); SECTOR=$(field sector_number); TICKET=$(field ticket)
SEED=$(field seed); COMM_R=$(field comm_r); COMM_D=$(field comm_d)
PROVER=$(field prover_id); RID=$(field replica_id); PROOF=$(field proof)
[ ${#PROOF} -eq 3840 ] && [ ${#RID} -eq 64 ] || { echo "FAIL: cannot read $J"; exit 1; }
# the proof bytes (hex -> binary, POSIX: printf octal escapes)
echo "$PROOF" | sed 's/\(..\)/\1\n/g' | while read -r h; do
    [ -n "$h" ] && printf "\\$(printf '%03o' "0x$h")"
done >"$dir/proof"
[ "$(wc -c <"$dir/proof")" -eq 1920 ] || { echo "FAIL: proof not 1920 bytes"; exit 1; }

T=StackedDrg32GiBV1
COMMON="--registered-proof $T --seed $SEED --comm-r $COMM_R --comm-d $COMM_D"
# shellcheck disable=SC2086
"$CUZK" porep public-inputs $COMMON --miner "$MINER" --sector "$SECTOR" --ticket "$TICKET" \
    -o "$dir/a" 2>"$dir/a.err" && ok "public-inputs --miner" || bad "public-inputs --miner: $(cat "$dir/a.err")"
grep -q "replica_id $RID" "$dir/a.err" && ok "replica_id as recorded" \
    || bad "replica_id: $(cat "$dir/a.err"), want $RID"
# shellcheck disable=SC2086
"$CUZK" porep public-inputs $COMMON --prover-id "$PROVER" --sector "$SECTOR" \
    --ticket "$TICKET" -o "$dir/b" 2>/dev/null
# shellcheck disable=SC2086
"$CUZK" porep public-inputs $COMMON --replica-id "$RID" -o "$dir/c" 2>/dev/null
cmp -s "$dir/a" "$dir/b" && cmp -s "$dir/a" "$dir/c" && ok "--prover-id, --replica-id: same inputs" \
    || bad "the three forms differ"
[ "$(grep -c . "$dir/a")" -eq 3270 ] && ok "3270 inputs" || bad "$(grep -c . "$dir/a") inputs, want 3270"
# shellcheck disable=SC2086
"$CUZK" porep public-inputs $COMMON --replica-id "$RID" --partition 3 -o "$dir/p3" 2>/dev/null
awk 'BEGIN { b = 0 } /^$/ { b++; next } b == 3' "$dir/a" | cmp -s - "$dir/p3" \
    && ok "--partition 3 is block 3" || bad "--partition 3 differs from block 3"

"$CUZK" verify --vk "$VK" --proof "$dir/proof" --public "$dir/a" >"$dir/v1" 2>&1
rc=$?; [ $rc -eq 1 ] && ok "generic verify, v27 vk: INVALID (exit 1)" || bad "generic verify: exit $rc: $(cat "$dir/v1")"
# shellcheck disable=SC2086
"$CUZK" verify --kind porep-c2 $COMMON --miner "$MINER" --sector "$SECTOR" --ticket "$TICKET" \
    --vk "$VK" --proof "$dir/proof" >"$dir/v2" 2>&1
rc=$?; [ $rc -eq 1 ] && ok "verify --registered-proof, v27 vk: INVALID (exit 1)" \
    || bad "verify --registered-proof: exit $rc: $(cat "$dir/v2")"

# NI-PoRep: 126 partitions from replica_id and comm_r, no seed
NI=StackedDrg32GiBV1_2_Feat_NonInteractivePoRep
"$CUZK" porep public-inputs --registered-proof $NI --replica-id "$RID" --comm-r "$COMM_R" \
    --comm-d "$COMM_D" -o "$dir/ni" 2>"$dir/ni.err" \
    && [ "$(grep -c . "$dir/ni")" -eq $((126 * 327)) ] && ok "NI: 126 x 327 inputs" \
    || bad "NI public inputs: $(cat "$dir/ni.err")"
cmp -s "$dir/a" "$dir/ni" && bad "NI inputs equal the interactive ones" || ok "NI inputs differ"

# bad input: exit 2, the option named
expect2() {
    what=$1 name=$2; shift 2
    "$CUZK" "$@" >"$dir/e" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$name" "$dir/e"; then ok "$what: exit 2 naming $name"
    else bad "$what: exit $rc: $(cat "$dir/e")"; fi
}
expect2 "unknown proof" --registered-proof porep public-inputs --registered-proof StackedDrg3GiBV1 \
    --replica-id "$RID" --seed "$SEED" --comm-r "$COMM_R" --comm-d "$COMM_D"
expect2 "short seed" --seed porep public-inputs --registered-proof $T --replica-id "$RID" \
    --seed abcd --comm-r "$COMM_R" --comm-d "$COMM_D"
expect2 "bad miner" --miner porep public-inputs $COMMON --miner x12 --sector 1 --ticket "$TICKET"
expect2 "no sector" --sector porep public-inputs $COMMON --miner "$MINER" --ticket "$TICKET"
expect2 "replica and prover" --replica-id porep public-inputs $COMMON --replica-id "$RID" \
    --miner "$MINER" --sector 1 --ticket "$TICKET"
expect2 "NI with a seed" "no --seed" porep public-inputs --registered-proof $NI --replica-id "$RID" \
    --seed "$SEED" --comm-r "$COMM_R" --comm-d "$COMM_D"
# NI at a test size: 13 partitions x 2 challenges (39 inputs each)
"$CUZK" porep public-inputs --registered-proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep \
    --replica-id "$RID" --comm-r "$COMM_R" --comm-d "$COMM_D" -o "$dir/ni2k" 2>"$dir/ni2k.err" \
    && [ "$(grep -c . "$dir/ni2k")" -eq $((13 * 39)) ] && ok "NI 2KiB: 13 x 39 inputs" \
    || bad "NI 2KiB public inputs: $(cat "$dir/ni2k.err")"
expect2 "partition out of range" --partition porep public-inputs $COMMON --replica-id "$RID" \
    --partition 10
head -c 192 "$dir/proof" >"$dir/short"
expect2 "1 partition for 10" "192" verify --kind porep-c2 $COMMON --replica-id "$RID" --vk "$VK" \
    --proof "$dir/short"
expect2 "unknown proof in verify" "--registered-proof" verify --kind porep-c2 --registered-proof StackedDrg2KiBX \
    --replica-id "$RID" --seed "$SEED" --comm-r "$COMM_R" --comm-d "$COMM_D" --vk "$VK" --proof "$dir/short"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
