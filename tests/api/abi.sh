#!/bin/sh
# tests/api/abi.sh — the public ABI against its committed snapshot.
#
# The ABI is what abi_dump prints (every public struct's size, alignment
# and field offsets, every public constant) plus the cz_ symbols libcuzk.so
# exports. A change to any of it fails this test with the diff, until the
# snapshot is regenerated on purpose (`make abi-snapshot`) and committed,
# so that an ABI change is always a visible line in a review.
#
# Usage: abi.sh ABI_DUMP LIBCUZK_SO SNAPSHOT [--update]
set -u
DUMP=$1
SO=$2
SNAP=$3
MODE=${4:-check}
command -v nm >/dev/null || { echo "nm not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
    echo "# cuzk public ABI (tests/api/abi.sh). Regenerate with \`make abi-snapshot\`"
    echo "# only for a deliberate change; see docs/API.md, \"ABI policy\"."
    "$DUMP" || { echo "abi_dump failed" >&2; exit 1; }
    nm -D --defined-only "$SO" | awk '$NF ~ /^cz_/ { print "symbol " $NF }' | sort -u
} >"$tmp/now" || { echo "FAIL: could not describe the ABI"; exit 1; }
grep -q '^symbol ' "$tmp/now" || { echo "FAIL: no cz_ symbol read from $SO"; exit 1; }

if [ "$MODE" = --update ]; then
    cp "$tmp/now" "$SNAP"
    echo "wrote $SNAP ($(grep -c '^struct ' "$SNAP") structs," \
         "$(grep -c '^const ' "$SNAP") constants, $(grep -c '^symbol ' "$SNAP") symbols)"
    exit 0
fi

[ -f "$SNAP" ] || { echo "FAIL: no snapshot $SNAP (make abi-snapshot writes it)"; exit 1; }
if diff -u "$SNAP" "$tmp/now" >"$tmp/diff"; then
    echo "ABI as in $(basename "$SNAP"): $(grep -c '^struct ' "$SNAP") structs," \
         "$(grep -c '^const ' "$SNAP") constants, $(grep -c '^symbol ' "$SNAP") symbols"
    echo "1 passed, 0 failed"
    exit 0
fi
echo "FAIL: the public ABI differs from $SNAP (- snapshot, + this build):"
cat "$tmp/diff"
# The changes that break programs built against the snapshot, said plainly.
if grep -q '^-struct .* size ' "$tmp/diff"; then
    echo "BREAKS THE ABI: a public struct changed size. A new field is carved out of"
    echo "its reserved[] tail so that the size stays (cuzk.h, STRUCTS THAT GROW)."
fi
if grep -q '^-symbol ' "$tmp/diff"; then
    echo "BREAKS THE ABI: an exported function is gone (programs linked to it fail to load)."
fi
if grep -Eq '^-(const|  field)' "$tmp/diff" && grep -Eq '^\+(const|  field)' "$tmp/diff"; then
    echo "Changed constants or moved fields break the ABI too, unless only reserved[] shrank."
fi
echo "If the change is deliberate (docs/API.md, \"ABI policy\"): run \`make abi-snapshot\`,"
echo "commit tests/api/abi.snapshot with the change, and say so in CHANGELOG.md."
echo "0 passed, 1 failed"
exit 1
