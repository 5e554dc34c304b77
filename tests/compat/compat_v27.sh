#!/bin/sh
# tests/compat/compat_v27.sh — the three real v27 proof sets (fil-blst,
# shared/realdata/fil-blst/converted: 32GiB PoRep x10 partitions,
# WinningPoSt, WindowPoSt; provenance in shared/realdata/README.md) verify
# with `cuzk verify --vk --proof --public`, and each tampered copy fails
# with the right exit code:
#   exit 1 (invalid proof): one public input changed; two partitions'
#          proofs swapped (PoRep) or the A and C points swapped (one-
#          partition PoSt sets);
#   exit 2 (bad input):     one byte of a G1 point flipped (not on the curve
#          or not in the subgroup); one public input missing.
# A control that must stay valid: PoRep partitions 0 and 1 swapped in BOTH
# the proof and the public file (partitions are checked independently).
#
# Usage: compat_v27.sh CUZK [REALDATA]. REALDATA defaults to
# $CUZK_REALDATA, else the argument (CMake passes <repo>/../shared/realdata).
# Exit 77 (skip) when the data is not there.
set -u
CUZK=$1
DATA=${CUZK_REALDATA:-${2:-}}
SET=$DATA/fil-blst/converted
if [ -z "$DATA" ] || [ ! -s "$SET/seal32.vk" ]; then
    echo "SKIP: real v27 proof sets not found (looked in '${SET}'; set CUZK_REALDATA" \
         "to a copy of shared/realdata)"
    exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

# expect WANT NAME VK PROOF PUBLIC
expect() {
    want=$1 name=$2
    "$CUZK" verify --vk "$3" --proof "$4" --public "$5" >"$dir/out" 2>&1
    got=$?
    if [ $got -eq "$want" ]; then ok "$name: exit $got ($(head -1 "$dir/out"))"
    else bad "$name: exit $got, want $want: $(cat "$dir/out")"; fi
}

# change_input FILE LINE OUT: the BE hex value on LINE with its last digit
# changed (it stays below r), every other line as it was.
change_input() {
    awk -v n="$2" 'NR == n { d = substr($0, length($0)); $0 = substr($0, 1, length($0) - 1) \
        (d == "0" ? "1" : "0") } { print }' "$1" >"$3"
}
# drop_input FILE LINE OUT
drop_input() { awk -v n="$2" 'NR != n' "$1" >"$3"; }
# flip_byte FILE OFFSET OUT: byte OFFSET xor 0x01
flip_byte() {
    cp "$1" "$3"
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ 1)))" |
        dd of="$3" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# swap_blocks FILE SIZE I J OUT: swap the SIZE-byte blocks at I*SIZE, J*SIZE
swap_blocks() {
    cp "$1" "$5"
    dd if="$1" bs="$2" skip="$3" count=1 2>/dev/null |
        dd of="$5" bs="$2" seek="$4" conv=notrunc 2>/dev/null
    dd if="$1" bs="$2" skip="$4" count=1 2>/dev/null |
        dd of="$5" bs="$2" seek="$3" conv=notrunc 2>/dev/null
}
# swap_partitions PUBLIC OUT: the first two blank-line-separated blocks swapped
swap_partitions() {
    awk 'BEGIN { b = 0 } /^$/ { b++; next } { blk[b] = blk[b] $0 "\n" }
         END { t = blk[0]; blk[0] = blk[1]; blk[1] = t
               for (i = 0; i <= b; i++) { printf "%s", blk[i]; if (i < b) print "" } }' "$1" >"$2"
}

# The proof is 192 bytes per partition: A (G1, 48 B compressed) || B (G2,
# 96 B) || C (G1, 48 B). Offset 10 is inside A's x coordinate.
for s in seal32 winning32 window32; do
    vk=$SET/$s.vk proof=$SET/$s.proof pub=$SET/$s.public
    expect 0 "$s real" "$vk" "$proof" "$pub"
    change_input "$pub" 5 "$dir/$s.in.public"
    expect 1 "$s one input changed" "$vk" "$proof" "$dir/$s.in.public"
    flip_byte "$proof" 10 "$dir/$s.flip.proof"
    expect 2 "$s one point byte flipped" "$vk" "$dir/$s.flip.proof" "$pub"
    drop_input "$pub" 5 "$dir/$s.short.public"
    expect 2 "$s one input missing" "$vk" "$proof" "$dir/$s.short.public"
done

swap_blocks "$SET/seal32.proof" 192 0 1 "$dir/seal32.swap.proof"
expect 1 "seal32 partitions 0/1 swapped" "$SET/seal32.vk" "$dir/seal32.swap.proof" \
    "$SET/seal32.public"
swap_partitions "$SET/seal32.public" "$dir/seal32.swap.public"
expect 0 "seal32 partitions 0/1 swapped in proof and inputs" "$SET/seal32.vk" \
    "$dir/seal32.swap.proof" "$dir/seal32.swap.public"
for s in winning32 window32; do
    # A (bytes 0..48) and C (144..192) exchanged: both valid G1 points
    cp "$SET/$s.proof" "$dir/$s.ac.proof"
    dd if="$SET/$s.proof" bs=48 skip=3 count=1 2>/dev/null |
        dd of="$dir/$s.ac.proof" bs=48 seek=0 conv=notrunc 2>/dev/null
    dd if="$SET/$s.proof" bs=48 skip=0 count=1 2>/dev/null |
        dd of="$dir/$s.ac.proof" bs=48 seek=3 conv=notrunc 2>/dev/null
    expect 1 "$s A and C swapped" "$SET/$s.vk" "$dir/$s.ac.proof" "$SET/$s.public"
done
expect 2 "winning32 vk on the seal32 proof" "$SET/winning32.vk" "$SET/seal32.proof" \
    "$SET/seal32.public"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
