#!/bin/sh
# tests/compat/compat_types.sh — every live seal proof type sealed at 2KiB,
# end to end with the `cuzk` tool: porep gen-c1 --registered-proof T (its
# challenges: interactive for StackedDrg2KiBV1_1, synthetic for
# StackedDrg2KiBV1_1_Feat_SyntheticPoRep, non-interactive for
# StackedDrg2KiBV1_2_Feat_NonInteractivePoRep) -> prove --kind porep-c2 ->
# verify --kind porep-c2 --registered-proof T from the sector values alone
# (prover_id, sector number, ticket, seed, comm_r, comm_d; NI: no seed) ->
# exit 0; the same proof under another type, seed or sector number, or with
# two partitions swapped, is INVALID (exit 1); a proof of the wrong
# partition count is bad input (exit 2). NI at 2KiB is 13 partitions x 2
# challenges (rust-fil-proofs constants.rs), the 2KiB V1_1 circuit and
# params: 13 proofs, ~2 min on 2 cores.
#
# Usage: compat_types.sh CUZK PARAMS_DIR. The 2KiB params (seed 7, Filecoin
# names) are shared with cli_porep and test_porep_c2 and made when missing.
set -u
CUZK=$1
PARAMS=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
mkdir -p "$PARAMS"
name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
if [ ! -s "$PARAMS/$name.params" ] || [ ! -s "$PARAMS/$name.vk" ]; then
    "$CUZK" setup --kind porep-c2 --sector-size 2KiB --params-dir "$PARAMS" --seed 7 >/dev/null \
        || { echo "FAIL: setup"; exit 1; }
fi
VK=$PARAMS/$name.vk
P=abababababababababababababababababababababababababababababababab
T=1111111111111111111111111111111111111111111111111111111111111111
S=2222222222222222222222222222222222222222222222222222222222222222
S2=3333333333333333333333333333333333333333333333333333333333333333

# verify_as TYPE SEED PROOF -> exit code
verify_as() {
    "$CUZK" verify --kind porep-c2 --registered-proof "$1" --prover-id $P --sector 7 \
        --ticket $T --seed "$2" --comm-r "$COMM_R" --comm-d "$COMM_D" --vk "$VK" \
        --proof "$3" >"$dir/v.out" 2>&1
}
for type in StackedDrg2KiBV1_1 StackedDrg2KiBV1_1_Feat_SyntheticPoRep; do
    "$CUZK" porep gen-c1 --registered-proof $type --random 5 --prover-id $P --ticket $T \
        --seed $S --sector-id 7 -o "$dir/$type.json" >"$dir/gen.txt" 2>&1 \
        || { bad "$type gen-c1: $(cat "$dir/gen.txt")"; continue; }
    grep -q "^registered_proof $type\$" "$dir/gen.txt" && ok "$type gen-c1" \
        || bad "$type gen-c1 printed $(head -1 "$dir/gen.txt")"
    COMM_D=$(sed -n 's/^comm_d //p' "$dir/gen.txt")
    COMM_R=$(sed -n 's/^comm_r //p' "$dir/gen.txt")
    t0=$(date +%s)
    "$CUZK" prove --kind porep-c2 --c1 "$dir/$type.json" --params-dir "$PARAMS" \
        --proof "$dir/$type.proof" --quiet >"$dir/prove.txt" 2>&1 \
        || { bad "$type prove: $(cat "$dir/prove.txt")"; continue; }
    ok "$type prove ($(( $(date +%s) - t0 )) s)"
    verify_as $type $S "$dir/$type.proof"
    rc=$?; [ $rc -eq 0 ] && ok "$type verifies from sector values" \
        || bad "$type verify: exit $rc: $(cat "$dir/v.out")"
    verify_as $type $S2 "$dir/$type.proof"
    rc=$?; [ $rc -eq 1 ] && ok "$type, another seed: INVALID" \
        || bad "$type, another seed: exit $rc: $(cat "$dir/v.out")"
done
# the synthetic proof under the interactive rules of the same porep_id
# cannot be asked for by name (the types differ in porep_id too); the
# interactive type's proof under the synthetic type's name is INVALID
COMM_D=$(sed -n 's/^comm_d //p' "$dir/gen.txt")
"$CUZK" porep gen-c1 --registered-proof StackedDrg2KiBV1_1 --random 5 --prover-id $P \
    --ticket $T --seed $S --sector-id 7 -o "$dir/again.json" >"$dir/gen2.txt" 2>&1
COMM_R=$(sed -n 's/^comm_r //p' "$dir/gen2.txt")
verify_as StackedDrg2KiBV1_1_Feat_SyntheticPoRep $S "$dir/StackedDrg2KiBV1_1.proof"
rc=$?; [ $rc -eq 1 ] && ok "V1_1 proof as SyntheticPoRep: INVALID" \
    || bad "V1_1 proof as SyntheticPoRep: exit $rc: $(cat "$dir/v.out")"
# the sparse sealer cannot take comm_r-dependent challenges: a clear refusal
"$CUZK" porep gen-c1 --registered-proof StackedDrg2KiBV1_1_Feat_SyntheticPoRep --sparse \
    -o "$dir/sp.json" >"$dir/sp.txt" 2>&1
rc=$?; [ $rc -ne 0 ] && grep -q "comm_r" "$dir/sp.txt" && ok "sparse + synthetic refused" \
    || bad "sparse + synthetic: exit $rc: $(cat "$dir/sp.txt")"

# NI-PoRep: 13 partitions, challenges from replica_id and comm_r (no seed)
NI=StackedDrg2KiBV1_2_Feat_NonInteractivePoRep
# verify_ni SECTOR PROOF [TYPE] -> exit code
verify_ni() {
    "$CUZK" verify --kind porep-c2 --registered-proof "${3:-$NI}" --prover-id $P --sector "$1" \
        --ticket $T --comm-r "$COMM_R" --comm-d "$COMM_D" --vk "$VK" --proof "$2" \
        >"$dir/v.out" 2>&1
}
if "$CUZK" porep gen-c1 --registered-proof $NI --random 5 --prover-id $P --ticket $T \
        --seed $S --sector-id 7 -o "$dir/ni.json" >"$dir/gen.txt" 2>&1; then
    COMM_D=$(sed -n 's/^comm_d //p' "$dir/gen.txt")
    COMM_R=$(sed -n 's/^comm_r //p' "$dir/gen.txt")
    "$CUZK" porep check-c1 "$dir/ni.json" >"$dir/chk.txt" 2>&1 \
        && grep -q "$NI (13 partitions x 2 challenges)" "$dir/chk.txt" \
        && ok "$NI gen-c1: 13 partitions x 2 challenges, valid" \
        || bad "$NI check-c1: $(cat "$dir/chk.txt")"
    t0=$(date +%s)
    if "$CUZK" prove --kind porep-c2 --c1 "$dir/ni.json" --params-dir "$PARAMS" \
            --proof "$dir/ni.proof" --quiet >"$dir/prove.txt" 2>&1; then
        ok "$NI prove ($(( $(date +%s) - t0 )) s, $(wc -c <"$dir/ni.proof") bytes)"
        [ "$(wc -c <"$dir/ni.proof")" -eq $((13 * 192)) ] && ok "NI proof: 13 x 192 bytes" \
            || bad "NI proof: $(wc -c <"$dir/ni.proof") bytes"
        verify_ni 7 "$dir/ni.proof"
        rc=$?; [ $rc -eq 0 ] && ok "$NI verifies from sector values (no seed)" \
            || bad "$NI verify: exit $rc: $(cat "$dir/v.out")"
        # the public API (cz_porep_public_from_c1 -> cz_porep_c2_verify): the
        # C1's registered proof picks the NI derivation
        "$CUZK" verify --kind porep-c2 --c1 "$dir/ni.json" --vk "$VK" --proof "$dir/ni.proof" \
            >"$dir/v.out" 2>&1
        rc=$?; [ $rc -eq 0 ] && ok "NI verifies through the public API (--c1)" \
            || bad "NI verify --c1: exit $rc: $(cat "$dir/v.out")"
        verify_ni 8 "$dir/ni.proof"
        rc=$?; [ $rc -eq 1 ] && ok "NI, another sector number: INVALID" \
            || bad "NI, another sector: exit $rc: $(cat "$dir/v.out")"
        # partitions 0 and 1 swapped
        { dd if="$dir/ni.proof" bs=192 skip=1 count=1; dd if="$dir/ni.proof" bs=192 count=1
          dd if="$dir/ni.proof" bs=192 skip=2; } >"$dir/swap.proof" 2>/dev/null
        verify_ni 7 "$dir/swap.proof"
        rc=$?; [ $rc -eq 1 ] && ok "NI, partitions 0/1 swapped: INVALID" \
            || bad "NI, swapped partitions: exit $rc: $(cat "$dir/v.out")"
        "$CUZK" verify --kind porep-c2 --c1 "$dir/ni.json" --vk "$VK" --proof "$dir/swap.proof" \
            >"$dir/v.out" 2>&1
        rc=$?; [ $rc -eq 1 ] && ok "NI swapped, public API: INVALID" \
            || bad "NI swapped, --c1: exit $rc: $(cat "$dir/v.out")"
        "$CUZK" verify --kind porep-c2 --registered-proof $NI --prover-id $P --sector 7 \
            --ticket $T --seed $S --comm-r "$COMM_R" --comm-d "$COMM_D" --vk "$VK" \
            --proof "$dir/ni.proof" >"$dir/v.out" 2>&1
        rc=$?; [ $rc -eq 2 ] && grep -q "no --seed" "$dir/v.out" && ok "NI with --seed: refused" \
            || bad "NI with --seed: exit $rc: $(cat "$dir/v.out")"
        verify_as StackedDrg2KiBV1_1 $S "$dir/ni.proof"
        rc=$?; [ $rc -eq 2 ] && ok "NI proof as V1_1: bad input (13 partitions for 1)" \
            || bad "NI proof as V1_1: exit $rc: $(cat "$dir/v.out")"
        if [ -s "$dir/StackedDrg2KiBV1_1.proof" ]; then
            verify_ni 7 "$dir/StackedDrg2KiBV1_1.proof"
            rc=$?; [ $rc -eq 2 ] && ok "V1_1 proof as NI: bad input (1 partition for 13)" \
                || bad "V1_1 proof as NI: exit $rc: $(cat "$dir/v.out")"
        fi
    else
        bad "$NI prove: $(cat "$dir/prove.txt")"
    fi
else
    bad "$NI gen-c1: $(cat "$dir/gen.txt")"
fi
"$CUZK" porep gen-c1 --registered-proof $NI --sparse -o "$dir/sp.json" >"$dir/sp.txt" 2>&1
rc=$?; [ $rc -ne 0 ] && grep -q "comm_r" "$dir/sp.txt" && ok "sparse + NI refused" \
    || bad "sparse + NI: exit $rc: $(cat "$dir/sp.txt")"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
