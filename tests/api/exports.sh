#!/bin/sh
# tests/api/exports.sh — libcuzk.so exports exactly the CZ_EXTERN functions
# of the installed headers: nothing else (no internal cz_/cz__ function, no
# blst_*, no jansson), and every declared one is defined.
#
# Usage: exports.sh LIBCUZK_SO INCLUDE_DIR
set -u
SO=$1
INC=$2
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
command -v nm >/dev/null || { echo "nm not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$SO" | awk '{print $NF}' | sort -u >"$tmp/exported"
[ -s "$tmp/exported" ] || fail "no symbols read from $SO"
bad=$(grep -v '^cz_' "$tmp/exported")
[ -z "$bad" ] || fail "exported without the cz_ prefix: $(echo $bad | head -c 400)"
grep -q '^cz__' "$tmp/exported" && fail "internal cz__ symbols exported: $(grep '^cz__' "$tmp/exported")"
# the declared API: the name before "(" of every declaration that opens with CZ_EXTERN
cat "$INC/cuzk.h" "$INC"/cuzk/*.h |
    awk '/^CZ_EXTERN /{ d = $0; while (d !~ /\(/ && (getline l) > 0) d = d " " l; print d }' |
    sed -E 's/^CZ_EXTERN[^(]*[ *]([a-z_0-9]+) *\(.*/\1/' | sort -u >"$tmp/declared"
[ "$(wc -l <"$tmp/declared")" -ge 20 ] || fail "could not read the CZ_EXTERN declarations"
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
missing=$(comm -13 "$tmp/exported" "$tmp/declared")
[ -z "$extra" ] || fail "exported but not declared CZ_EXTERN: $extra"
[ -z "$missing" ] || fail "declared CZ_EXTERN but not in the library: $missing"
echo "$(wc -l <"$tmp/exported") symbols, all declared CZ_EXTERN in cuzk.h"
echo "1 passed, 0 failed"
