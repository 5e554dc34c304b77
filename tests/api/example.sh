#!/bin/sh
# tests/api/example.sh — the public API the way a user uses it: install cuzk
# into a temporary prefix, compile examples/prove_c2.c with
# `pkg-config --cflags --libs cuzk` against the INSTALLED header and
# libcuzk.so, prove the 2KiB test sector with it, and check the proof with
# the installed `cuzk verify` from the public values alone; a proof of other
# public values must not verify.
#
# Usage: example.sh BUILD_DIR SOURCE_DIR CC PARAMS_DIR. The 2KiB params (seed 7,
# Filecoin names) are shared with cli_porep (RESOURCE_LOCK c2_params) and
# made only when missing.
set -u
BUILD=$1
SRC=$2
CC=$3
PARAMS=$4
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
command -v pkg-config >/dev/null || { echo "pkg-config not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$BUILD" --prefix "$prefix" >"$tmp/install.txt" 2>&1 || { cat "$tmp/install.txt"; fail "install"; }
for f in include/cuzk.h include/cuzk/error.h bin/cuzk; do
    [ -e "$prefix/$f" ] || fail "install: no $f"
done
if [ -e "$prefix/bin/cuzkd" ]; then
    unit=$prefix/lib/systemd/system/cuzkd.service
    grep -q "^ExecStart=$prefix/bin/cuzkd " "$unit" || fail "install: the systemd unit does not start $prefix/bin/cuzkd"
fi
pc=$(find "$prefix" -name cuzk.pc | head -1)
[ -n "$pc" ] || fail "install: no cuzk.pc"
libdir=$(dirname "$(dirname "$pc")")
[ -e "$libdir/libcuzk.so" ] && [ -e "$libdir/libcuzk.a" ] || fail "install: libcuzk.so / .a not in $libdir"
# only the installed files: the source tree's include/ and the build tree are not on any path
export PKG_CONFIG_PATH=$(dirname "$pc")
cflags=$(pkg-config --cflags cuzk) && libs=$(pkg-config --libs cuzk) || fail "pkg-config cuzk"
cp "$SRC/examples/prove_c2.c" "$tmp/"
(cd "$tmp" && "$CC" -std=c11 -Wall -Wextra -Werror prove_c2.c $cflags $libs -o prove_c2) \
    || fail "prove_c2.c does not compile against the installed cuzk ($cflags $libs)"
export LD_LIBRARY_PATH=$libdir
ldd "$tmp/prove_c2" | grep -q "$libdir/libcuzk.so" || fail "prove_c2 is not linked with the installed libcuzk.so"

CUZK=$prefix/bin/cuzk
cd "$tmp"
SEED=abababababababababababababababababababababababababababababababab
"$CUZK" porep gen-c1 --sector-size 2KiB --random 3 --seed $SEED -o c1.json >gen.txt || fail "gen-c1"
mkdir -p "$PARAMS"
name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
if [ ! -s "$PARAMS/$name.params" ] || [ ! -s "$PARAMS/$name.vk" ]; then
    "$CUZK" setup --kind porep-c2 --sector-size 2KiB --params-dir "$PARAMS" --seed 7 >/dev/null \
        || fail "setup"
fi
./prove_c2 2>usage.txt; rc=$?
[ $rc -eq 2 ] && grep -q "usage: prove_c2" usage.txt || fail "prove_c2 without arguments: exit $rc"
t0=$(date +%s)
./prove_c2 c1.json "$PARAMS" proof.bin >prove.txt 2>&1 || { cat prove.txt; fail "prove_c2"; }
echo "prove_c2 2KiB: $(( $(date +%s) - t0 )) s: $(cat prove.txt)"
[ "$(wc -c <proof.bin)" -eq 192 ] || fail "the proof is not 192 bytes"
field() { sed -n "s/^$1 //p" gen.txt; }
"$CUZK" verify --kind porep-c2 --params-dir "$PARAMS" --proof proof.bin --sector-size 2KiB \
    --replica-id "$(field replica_id)" --comm-d "$(field comm_d)" --comm-r "$(field comm_r)" \
    --seed $SEED >/dev/null || fail "the installed cuzk rejects prove_c2's proof"
"$CUZK" verify --kind porep-c2 --params-dir "$PARAMS" --proof proof.bin --sector-size 2KiB \
    --replica-id "$(field replica_id)" --comm-d "$(field comm_d)" --comm-r "$(field comm_r)" \
    --seed cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd >/dev/null; rc=$?
[ $rc -eq 1 ] || fail "a proof verified against another seed (exit $rc)"
# a C1 that does not parse: exit 1 with the error named
echo '{"registered_proof":' >bad.json
./prove_c2 bad.json "$PARAMS" bad.bin >/dev/null 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "CZ_EFORMAT" err.txt || fail "bad C1: exit $rc, $(cat err.txt)"
[ ! -e bad.bin ] || fail "a proof file was written for a bad C1"
echo "1 passed, 0 failed"
