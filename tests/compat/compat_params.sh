#!/bin/sh
# tests/compat/compat_params.sh — `cuzk params check DIR` on real files: the
# three real v27 32GiB vks (fil-blst) under their published names digest to
# the entries of the real v27 manifest (rust-fil-proofs@d088e7b
# parameters.json); a flipped byte or a truncation is CORRUPT (exit 1); a
# manifest file of a held sector size not in DIR is MISSING (exit 1);
# files outside the manifest are "extra" and never fail; the built-in v28
# manifest knows the v28 names (a file under a v28 name with other bytes is
# CORRUPT); a bad manifest or directory exits 2.
# Usage: compat_params.sh CUZK [REALDATA] ($CUZK_REALDATA wins); 77 without data.
set -u
CUZK=$1
DATA=${CUZK_REALDATA:-${2:-}}
V27=$DATA/rust-fil-proofs/parameters-v27-d088e7b.json
SET=$DATA/fil-blst/converted
if [ -z "$DATA" ] || [ ! -s "$V27" ] || [ ! -s "$SET/seal32.vk" ]; then
    echo "SKIP: v27 manifest / vks not found under '${DATA}' (set CUZK_REALDATA)"
    exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
# expect WANT NAME PATTERN ARGS...: exit WANT and PATTERN in the output
expect() {
    want=$1 name=$2 pat=$3; shift 3
    "$CUZK" params check "$@" >"$dir/out" 2>&1
    got=$?
    if [ $got -eq "$want" ] && grep -q -- "$pat" "$dir/out"; then ok "$name: exit $got"
    else bad "$name: exit $got (want $want, '$pat'): $(cat "$dir/out")"; fi
}
SEAL=v27-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820
WIN=v27-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e
WDW=v27-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc
mkdir "$dir/p"
cp "$SET/seal32.vk" "$dir/p/$SEAL.vk"
cp "$SET/winning32.vk" "$dir/p/$WIN.vk"
cp "$SET/window32.vk" "$dir/p/$WDW.vk"
echo "not params" >"$dir/p/notes.txt"

# the real manifest: the three vks are ok; their .params are missing
expect 1 "v27 vks, v27 manifest" "3 ok, 0 corrupt, 3 missing, 1 extra" "$dir/p" --manifest "$V27"
grep -q "^ok       $SEAL.vk" "$dir/out" && grep -q "^MISSING  $SEAL.params" "$dir/out" \
    && ok "seal32.vk ok, its .params MISSING" || bad "listing: $(cat "$dir/out")"
# a manifest of just the three vk entries (their lines from the real one)
{
    echo "{"
    for n in $SEAL $WIN $WDW; do
        grep -A4 "\"$n.vk\"" "$V27" | sed -n '1,4p'
        [ $n = $WDW ] && echo "  }" || echo "  },"
    done
    echo "}"
} >"$dir/vks.json"
expect 0 "v27 vks, their entries" "3 ok, 0 corrupt, 0 missing, 1 extra" "$dir/p" --manifest "$dir/vks.json"
expect 0 "--quiet" "3 ok" "$dir/p" --manifest "$dir/vks.json" --quiet
grep -q "^ok " "$dir/out" && bad "--quiet listed ok files" || ok "--quiet lists only problems"

# one flipped byte; a truncation
b=$(od -An -tu1 -j 1000 -N1 "$dir/p/$WIN.vk" | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$dir/p/$WIN.vk" bs=1 seek=1000 conv=notrunc 2>/dev/null
expect 1 "one flipped byte" "CORRUPT  $WIN.vk" "$dir/p" --manifest "$dir/vks.json"
grep -q "2306247a1e616dbe07f01b88196c2044" "$dir/out" && ok "names the manifest digest" \
    || bad "no manifest digest: $(cat "$dir/out")"
cp "$SET/winning32.vk" "$dir/p/$WIN.vk"
head -c 30000 "$SET/window32.vk" >"$dir/p/$WDW.vk"
expect 1 "truncated" "CORRUPT  $WDW.vk" "$dir/p" --manifest "$dir/vks.json"
cp "$SET/window32.vk" "$dir/p/$WDW.vk"
expect 0 "restored" "3 ok, 0 corrupt" "$dir/p" --manifest "$dir/vks.json"

# built-in v28 manifest: v27 names are extra; a v28 name with other bytes is corrupt
expect 0 "built-in manifest, v27 files" "0 ok, 0 corrupt, 0 missing, 4 extra" "$dir/p"
V28=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
cp "$SET/seal32.vk" "$dir/p/$V28.vk"
expect 1 "v28 2KiB name, other bytes" "CORRUPT  $V28.vk" "$dir/p"
grep -q "dc1ade9929ade1708238f155343044ac" "$dir/out" && ok "built-in 2KiB vk digest" \
    || bad "built-in digest: $(cat "$dir/out")"
grep -q "^MISSING  $V28.params" "$dir/out" && ok "2KiB .params MISSING (a 2KiB file is held)" \
    || bad "no MISSING 2KiB params"
expect 1 "--sector-size 32GiB" "MISSING  v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0" \
    "$dir/p" --sector-size 32GiB
rm "$dir/p/$V28.vk"

# usage and unreadable input: exit 2
expect 2 "no such directory" "cannot open" "$dir/nope"
echo "{ broken" >"$dir/bad.json"
expect 2 "broken manifest" "manifest" "$dir/p" --manifest "$dir/bad.json"
expect 2 "bad sector size" "sector-size" "$dir/p" --sector-size 3GiB

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
