#!/bin/sh
# tests/cli/cli_doors.sh — the doors that prove through the public API alone
# include nothing below it: no header of src/engine, src/groth16,
# src/circuits, src/gadgets, src/backend or src/kinds (issue 38, "every door
# through cuzk.h"). A door listed here that starts to drive the engine again
# fails with the line that does.
#
# Usage: cli_doors.sh SOURCE_DIR
set -u
SRC=$1
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
pass=0
for f in src/cli/c2_random.c; do
    [ -f "$SRC/$f" ] || fail "no $f"
    bad=$(grep -nE '^#include "(engine|groth16|circuits|gadgets|backend|kinds)/' "$SRC/$f")
    [ -z "$bad" ] || fail "$f includes below cuzk.h: $bad"
    grep -q '^#include "cuzk.h"' "$SRC/$f" || fail "$f does not include cuzk.h"
    pass=$((pass + 1))
done
echo "$pass passed, 0 failed"
