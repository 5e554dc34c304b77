#!/bin/sh
# tests/cli/cli_post.sh CUZK PARAMS_DIR — WinningPoSt and WindowPoSt at
# 2KiB end to end: gen-vanilla (sealed test sectors) -> setup (test params
# under the Filecoin names, cached in PARAMS_DIR) -> prove -> verify from
# the public values; then a changed randomness, comm_r or sector id makes
# verify say INVALID (exit 1), and prove refuses a vanilla proof that does
# not follow from its public values (exit 1) or is truncated (exit 2, the
# field and byte offset named), before any proving.
set -u
CUZK=$1
P=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# edit FILE OUT EXPR: OUT = FILE's JSON with EXPR applied to it as `j`.
edit() {
    "$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); $3; json.dump(j, open(sys.argv[2], 'w'))" "$1" "$2"
}
# A different hex digit at position 0 (the low byte: stays a field element).
FLIP='lambda s: ("1" if s[0] != "1" else "2") + s[1:]'

for kind in winning window; do
    n=1; [ $kind = window ] && n=2
    "$CUZK" post gen-vanilla --kind $kind --sector-size 2KiB --sectors $n --random 11 \
        -o "$TMP/$kind.json" >/dev/null || fail "$kind: gen-vanilla"
    if [ ! -f "$P/.$kind-2KiB-seed7" ]; then
        "$CUZK" setup --kind $kind-post --sector-size 2KiB --params-dir "$P" --seed 7 \
            >"$TMP/setup.log" 2>&1 || { cat "$TMP/setup.log"; fail "$kind: setup"; }
        touch "$P/.$kind-2KiB-seed7"
    fi
    "$CUZK" prove --kind $kind-post --input "$TMP/$kind.json" --params-dir "$P" \
        --proof "$TMP/$kind.proof" --backend cpu >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "$kind: prove"; }
    [ "$(wc -c <"$TMP/$kind.proof")" -eq 192 ] || fail "$kind: proof is not 192 bytes"
    "$CUZK" verify --kind $kind-post --params-dir "$P" --proof "$TMP/$kind.proof" \
        --input "$TMP/$kind.json" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "$kind: verify"; }
    grep -q '^valid' "$TMP/out" || fail "$kind: no valid line"

    # Wrong public values: INVALID, exit 1.
    edit "$TMP/$kind.json" "$TMP/r.json" "f=$FLIP; j['randomness']=f(j['randomness'])"
    edit "$TMP/$kind.json" "$TMP/c.json" "f=$FLIP; j['sectors'][0]['comm_r']=f(j['sectors'][0]['comm_r'])"
    edit "$TMP/$kind.json" "$TMP/s.json" "j['sectors'][-1]['sector_id'] += 7"
    for bad in r c s; do
        "$CUZK" verify --kind $kind-post --params-dir "$P" --proof "$TMP/$kind.proof" \
            --input "$TMP/$bad.json" >"$TMP/out" 2>&1
        rc=$?
        [ $rc -eq 1 ] || { cat "$TMP/out"; fail "$kind: verify with changed $bad: exit $rc, want 1"; }
        grep -q INVALID "$TMP/out" || fail "$kind: changed $bad: no INVALID"
    done

    # prove: a randomness that does not challenge the proved leaves fails
    # before anything is queued, naming the sector and the leaf.
    "$CUZK" prove --kind $kind-post --input "$TMP/r.json" --params-dir "$P" \
        --proof "$TMP/x.proof" --backend cpu >"$TMP/out" 2>&1
    rc=$?
    [ $rc -eq 1 ] || { cat "$TMP/out"; fail "$kind: prove with changed randomness: exit $rc"; }
    grep -q "the randomness challenges leaf" "$TMP/out" || { cat "$TMP/out"; fail "$kind: message"; }
    [ ! -e "$TMP/x.proof" ] || fail "$kind: a proof was written"
    # a truncated vanilla proof: exit 2, field and offset named
    edit "$TMP/$kind.json" "$TMP/t.json" "j['vanilla_proofs'][0]=j['vanilla_proofs'][0][:-20]"
    "$CUZK" prove --kind $kind-post --input "$TMP/t.json" --params-dir "$P" \
        --proof "$TMP/x.proof" --backend cpu >"$TMP/out" 2>&1
    rc=$?
    [ $rc -ne 0 ] || fail "$kind: truncated vanilla proof accepted"
    grep -q "comm_r_last at byte" "$TMP/out" || { cat "$TMP/out"; fail "$kind: truncation message"; }
done
echo "cli_post: ok"
