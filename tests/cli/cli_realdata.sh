#!/bin/sh
# tests/cli/cli_realdata.sh CUZK REALDATA — the real v27 32GiB proofs of
# shared/realdata/fil-blst/converted (shared/realdata/README.md section 1:
# the published v27 vks, byte for byte) verify with `cuzk verify --vk`, and
# a changed public input does not. Skips (77) when REALDATA is absent.
set -u
CUZK=$1
DIR=$2/fil-blst/converted
if [ ! -f "$DIR/winning32.vk" ] || [ ! -f "$DIR/window32.vk" ]; then
    echo "SKIP: no $DIR (CI keeps shared/ beside the clone; cmake -DCUZK_REALDATA=...)"
    exit 77
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for c in winning32 window32 seal32; do
    "$CUZK" verify --vk "$DIR/$c.vk" --proof "$DIR/$c.proof" --public "$DIR/$c.public" \
        >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "$c: the real proof does not verify"; }
    grep -q valid "$TMP/out" || fail "$c: no 'valid' in: $(cat "$TMP/out")"
done

# Control: the first public input of the winning proof + 1 (last hex digit
# changed) must make it INVALID (exit 1), not an error (exit 2).
awk 'NR == 1 { d = substr($0, length($0), 1); n = (d == "0") ? "1" : "0";
               print substr($0, 1, length($0) - 1) n; next } { print }' \
    "$DIR/winning32.public" >"$TMP/bad.public"
cmp -s "$TMP/bad.public" "$DIR/winning32.public" && fail "control input unchanged"
"$CUZK" verify --vk "$DIR/winning32.vk" --proof "$DIR/winning32.proof" \
    --public "$TMP/bad.public" >"$TMP/out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { cat "$TMP/out"; fail "changed input: exit $rc, want 1"; }
echo "cli_realdata: ok"
