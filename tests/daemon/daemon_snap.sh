#!/bin/sh
# tests/daemon/daemon_snap.sh — black-box: the "snap" job kind of cuzkd over
# HTTP. A request that does not fit its vanilla proofs (tampered comm_r_new
# or comm_d_new, a wrong registered_proof, broken base64, a truncated
# PartitionProof) is refused at submit with 400 naming what is wrong, and
# the daemon keeps serving. With the 2KiB snap params in PARAMS_DIR (the
# build tree's cache, made by the snap_params fixture), a 2KiB update is
# proved through the daemon and its proof verifies from the public values
# alone (cuzk verify --kind snap); without PARAMS_DIR that part is skipped,
# and params missing from a PARAMS_DIR given fail the test.
#
# Usage: daemon_snap.sh BIN_DIR [PARAMS_DIR]
. "$(dirname "$0")/lib.sh"
PARAMS=${2:-}
name=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194

"$CUZK" snap gen-vanilla --sector-size 2KiB --random 5 -o "$dir/req.json" >/dev/null \
    || fail "gen-vanilla"
have_params=0
if [ -n "$PARAMS" ] && [ -s "$PARAMS/$name.params" ] && [ -s "$PARAMS/$name.vk" ]; then
    have_params=1
    mkdir -p "$dir/params"
    ln -s "$PARAMS/$name.params" "$dir/params/$name.params"
elif [ -n "$PARAMS" ]; then
    fail "no 2KiB snap params ($name) in $PARAMS"
fi
start_daemon --set params.check=false   # seeded TEST params under the Filecoin names

check4() {   # INPUT_FILE WANT_CODE WORD_IN_MESSAGE
    api POST /v1/proofs "{\"kind\":\"snap\",\"input_path\":\"$1\"}"
    [ "$code" = "$2" ] || fail "snap $1: HTTP $code, want $2 ($(cat "$dir/body"))"
    grep -qi "$3" "$dir/body" || fail "snap $1: message does not name '$3': $(cat "$dir/body")"
}
sed 's/"comm_r_new": "\(..\)/"comm_r_new": "00/' "$dir/req.json" >"$dir/b1.json"
cmp -s "$dir/b1.json" "$dir/req.json" && sed 's/"comm_r_new": "\(..\)/"comm_r_new": "01/' "$dir/req.json" >"$dir/b1.json"
check4 "$dir/b1.json" 400 "vanilla_proofs\[0\]"
sed 's/"comm_d_new": "\(..\)/"comm_d_new": "00/' "$dir/req.json" >"$dir/b2.json"
cmp -s "$dir/b2.json" "$dir/req.json" && sed 's/"comm_d_new": "\(..\)/"comm_d_new": "01/' "$dir/req.json" >"$dir/b2.json"
check4 "$dir/b2.json" 400 "comm_d_new"
sed 's/"registered_proof": 0/"registered_proof": 3/' "$dir/req.json" >"$dir/b3.json"
check4 "$dir/b3.json" 400 "partitions"
sed 's/"vanilla_proofs": \[/"vanilla_proofs": ["**",/' "$dir/req.json" >"$dir/b4.json"
check4 "$dir/b4.json" 400 "base64"
# cut the base64 of the proof to its first 400 characters (a truncated PartitionProof)
awk '/^  "/ && !done { print substr($0, 1, 403) "\""; done = 1; next } { print }' \
    "$dir/req.json" >"$dir/b5.json"
check4 "$dir/b5.json" 400 "truncated"
api GET /v1/status
[ "$code" = 200 ] || fail "daemon stopped serving after bad snap requests"
grep -q '"snap"' "$dir/body" || fail "status does not list the snap kind"
ok "bad snap requests refused at submit (400, named), daemon serving"

if [ $have_params -eq 1 ]; then
    api POST /v1/proofs "{\"kind\":\"snap\",\"input_path\":\"$dir/req.json\"}"
    [ "$code" = 201 ] || fail "snap submit: HTTP $code ($(cat "$dir/body"))"
    id=$(json_get "$dir/body" id)
    "$CUZK" wait "$id" --timeout 1500 >"$dir/wait.txt" 2>&1 || fail "wait: $(cat "$dir/wait.txt")"
    "$CUZK" proof "$id" --out "$dir/p.bin" >/dev/null || fail "cuzk proof"
    [ "$(wc -c <"$dir/p.bin")" -eq 192 ] || fail "2KiB snap proof is not 192 bytes"
    "$CUZK" verify --kind snap --params-dir "$PARAMS" --proof "$dir/p.bin" --input "$dir/req.json" \
        >/dev/null || fail "the daemon's snap proof does not verify from the public values"
    ok "2KiB snap proved through cuzkd, verified from public values"
else
    echo "note: no params dir given: the proving part is skipped"
fi
stop_daemon
echo "$passed passed, 0 failed"
