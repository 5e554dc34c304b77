#!/bin/sh
# tests/cli/cli_help.sh — black-box: help, version and usage errors of `cuzk`
# and `cuzkd` (issue 15, item 7), each with its exact exit code
# (docs/API.md: 0 success, 1 failure, 2 usage error, 3 daemon unreachable).
# Usage: cli_help.sh BINDIR (cuzk, and cuzkd when built, in BINDIR).
set -u
BIN=$1
CUZK="$BIN/cuzk"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
fail() { echo "FAIL: $*"; echo "--- stderr"; cat "$dir/err"; echo "$passed passed, 1 failed"; exit 1; }
cd "$dir"

# run WANT_RC CMD...: runs, stdout in $dir/out, stderr in $dir/err
run() {
    want=$1
    shift
    "$@" >"$dir/out" 2>"$dir/err" </dev/null
    rc=$?
    [ $rc -eq "$want" ] || fail "$*: exit $rc, want $want"
    passed=$((passed + 1))
}
out_has() { grep -qF -- "$1" "$dir/out" || fail "stdout of the last command lacks '$1'"; }
err_has() { grep -qF -- "$1" "$dir/err" || fail "stderr of the last command lacks '$1'"; }

have_c2=0
"$CUZK" setup --kind porep-c2 --help >/dev/null 2>&1 && have_c2=1
have_client=0
"$CUZK" list --help >/dev/null 2>&1 && have_client=1

# --help of setup/prove/verify shows the porep-c2 form too
if [ $have_c2 -eq 1 ]; then
    run 0 "$CUZK" setup --help;  out_has "--kind porep-c2 --sector-size"; out_has "--params-dir"
    run 0 "$CUZK" prove --help;  out_has "--kind porep-c2 --c1 FILE"; out_has "--random-params"
    run 0 "$CUZK" verify --help; out_has "--kind porep-c2"; out_has "--replica-id"
    # porep, its subcommands: help on stdout, exit 0
    run 0 "$CUZK" porep --help;            out_has "porep gen-c1"
    run 0 "$CUZK" porep gen-c1 --help;     out_has "--sector-size"
    run 0 "$CUZK" porep check-c1 --help;   out_has "check-c1"
    run 2 "$CUZK" porep bogus
    # a sector size that is not one names it
    run 2 "$CUZK" setup --kind porep-c2 --sector-size 3KiB --params-dir p
    err_has "--sector-size: '3KiB'"; err_has "2KiB"
    [ -e p ] && fail "setup with a bad size created its --params-dir"
fi
run 0 "$CUZK" hash poseidon --help; out_has "--arity"
run 0 "$CUZK" hash --help
run 2 "$CUZK" hash poseidon --arity 3 1 2 3

# versions
run 0 "$CUZK" --version; grep -Eq '^cuzk [0-9]+\.[0-9]+\.[0-9]+$' "$dir/out" || fail "cuzk --version: $(cat "$dir/out")"
run 0 "$CUZK" version
if [ -x "$BIN/cuzkd" ]; then
    run 0 "$BIN/cuzkd" --version
    grep -Eq '^cuzkd [0-9]+\.[0-9]+\.[0-9]+$' "$dir/out" || fail "cuzkd --version: $(cat "$dir/out")"
fi

# the top-level help lists every bench subcommand `cuzk bench --help` has
run 0 "$CUZK" --help
top=$(grep '^  bench ' "$dir/out")
run 0 "$CUZK" bench --help
names=$(sed -n 's/^  \([a-z0-9-]*\) .*/\1/p' "$dir/out")
[ -n "$names" ] || fail "cuzk bench --help lists no benchmarks"
for b in $names; do
    echo "$top" | grep -qw -- "$b" || fail "top-level help's bench line lacks '$b': $top"
done
run 2 "$CUZK" nosuchcommand; err_has "nosuchcommand"

# usage errors name the problem, exit 2
run 2 "$CUZK" prove --local --circuit nosuch:1 --params p.params --proof p.bin
err_has "nosuch:1"
run 2 "$CUZK" setup --circuit nosuch:1 --params p.params --vk p.vk
err_has "nosuch:1"
run 2 "$CUZK" verify --vk a.vk --proof a.bin; err_has "missing --public"
run 2 "$CUZK" verify --vk a.vk --public a.txt; err_has "missing --proof"

# a binary file as --public: a message without raw bytes, bounded in length
"$CUZK" setup --circuit bench:1024 --params b.params --vk b.vk --seed 3 >/dev/null || fail "setup"
"$CUZK" prove --circuit bench:1024 --params b.params --proof proof.bin --public pub.txt >/dev/null 2>&1 \
    || fail "prove"
run 2 "$CUZK" verify --vk b.vk --proof proof.bin --public proof.bin
err_has "proof.bin:1: not a field element"
LC_ALL=C tr -d '\n -~' <"$dir/err" | od -An -c | grep -q . && fail "verify --public BINARY printed raw bytes"
[ "$(wc -c <"$dir/err")" -lt 600 ] || fail "verify --public BINARY: a message of $(wc -c <"$dir/err") bytes"
run 0 "$CUZK" verify --vk b.vk --proof proof.bin --public pub.txt
# verify --vk through cuzk.h (cz_groth16_*): each bad input named, exit 2; a wrong one exit 1
head -3 pub.txt >short.txt
run 2 "$CUZK" verify --vk b.vk --proof proof.bin --public short.txt
err_has "short.txt has 3 inputs per block, the vk b.vk takes"
head -c 1000 b.vk >trunc.vk
run 2 "$CUZK" verify --vk trunc.vk --proof proof.bin --public pub.txt; err_has "trunc.vk"
run 2 "$CUZK" verify --vk none.vk --proof proof.bin --public pub.txt; err_has "none.vk"
head -c 191 proof.bin >short.bin
run 2 "$CUZK" verify --vk b.vk --proof short.bin --public pub.txt
err_has "191 bytes is not a whole number of 192-byte proofs"
sed '1s/.*/0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001/' pub.txt >big.txt
run 2 "$CUZK" verify --vk b.vk --proof proof.bin --public big.txt; err_has "big.txt:1: not a field element"
sed '1s/.*/0x05/' pub.txt >wrong.txt
run 1 "$CUZK" verify --vk b.vk --proof proof.bin --public wrong.txt

if [ $have_client -eq 1 ]; then
    run 2 "$CUZK" list --state bogus --socket "$dir/none.sock"; err_has "'bogus'"; err_has "queued"
    # every state the daemon takes, `lost` (tombstones) included: only the daemon is missing
    run 3 "$CUZK" list --state lost --socket "$dir/none.sock"
    # an unreachable daemon: exit 3, naming the socket or address, not "port 80"
    run 3 "$CUZK" list --socket "$dir/none.sock"; err_has "$dir/none.sock"
    grep -q "port 80" "$dir/err" && fail "unreachable socket: the message says port 80"
    run 3 "$CUZK" status 0123456789abcdef --url http://127.0.0.1:9; err_has "127.0.0.1:9"
    run 2 "$CUZK" status nothex --socket "$dir/none.sock"
    # --input-path: a missing file is named before any request
    run 2 "$CUZK" submit --kind porep-c2 --params x --input-path nothere.json --socket "$dir/none.sock"
    err_has "nothere.json"
fi
echo "$passed passed, 0 failed"
