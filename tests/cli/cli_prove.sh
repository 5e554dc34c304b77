#!/bin/sh
# tests/cli/cli_prove.sh — black-box: cuzk setup -> prove -> verify, the
# verify exit codes (0 valid, 1 invalid, 2 bad input), and the snarkjs
# export (checked with snarkjs itself when it is installed: SNARKJS=path or
# `snarkjs` on PATH; otherwise only the files' shape is checked).
set -u
CUZK=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
cd "$dir"

"$CUZK" setup --circuit bench:1024 --params p.params --vk p.vk --seed 5 >/dev/null || fail "setup"
"$CUZK" prove --circuit bench:1024 --params p.params --proof proof.bin --public pub.txt >/dev/null \
    || fail "prove"
[ "$(wc -c <proof.bin)" -eq 192 ] || fail "proof is not 192 bytes"
"$CUZK" verify --vk p.vk --proof proof.bin --public pub.txt >/dev/null || fail "valid proof rejected"

# a wrong public input: exit 1
sed '1s/.*/0x2a/' pub.txt >bad.txt
cmp -s pub.txt bad.txt && fail "tampering did not change the input"
"$CUZK" verify --vk p.vk --proof proof.bin --public bad.txt >/dev/null; rc=$?
[ $rc -eq 1 ] || fail "wrong input: exit $rc, want 1"

# a truncated proof and a missing file: exit 2 with a message
head -c 100 proof.bin >short.bin
"$CUZK" verify --vk p.vk --proof short.bin --public pub.txt 2>err.txt; rc=$?
[ $rc -eq 2 ] || fail "truncated proof: exit $rc, want 2"
grep -q "192-byte" err.txt || fail "truncated proof: no clear message"
"$CUZK" verify --vk missing.vk --proof proof.bin --public pub.txt 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "missing vk: exit $rc, want 2"

# params of another circuit: prove refuses with a message naming the params
"$CUZK" setup --circuit bench:2048 --params q.params --vk q.vk --seed 6 >/dev/null || fail "setup 2048"
"$CUZK" prove --circuit bench:1024 --params q.params --proof x.bin 2>err.txt; rc=$?
[ $rc -eq 1 ] || fail "mismatched params: exit $rc, want 1"
grep -qi "params" err.txt || fail "mismatched params: message does not name the params"

# snarkjs export
"$CUZK" export snarkjs --vk p.vk --proof proof.bin --public pub.txt --dir js >/dev/null \
    || fail "export"
for f in verification_key proof public; do [ -s "js/$f.json" ] || fail "js/$f.json missing"; done
grep -q '"curve": "bls12381"' js/proof.json || fail "proof.json has no curve"
[ "$(grep -c '\["' js/verification_key.json)" -ge 10 ] || fail "verification_key.json lacks IC"
snarkjs=${SNARKJS:-$(command -v snarkjs || true)}
if [ -n "$snarkjs" ]; then
    "$snarkjs" groth16 verify js/verification_key.json js/public.json js/proof.json >/dev/null \
        || fail "snarkjs rejects the exported proof"
    echo "snarkjs accepted the exported proof"
else
    echo "snarkjs not installed: its check was not run (set SNARKJS=/path/to/snarkjs)"
fi
echo "1 passed, 0 failed"
