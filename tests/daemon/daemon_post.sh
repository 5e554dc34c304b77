#!/bin/sh
# tests/daemon/daemon_post.sh BIN PARAMS_CACHE — WinningPoSt and WindowPoSt through cuzkd
# (kinds winning-post / window-post): gen-vanilla -> setup (test params in
# the daemon's params dir under their Filecoin names, found by default) ->
# cuzk submit (input inline, and input_path) -> wait -> proof -> cuzk verify
# from the public values; a vanilla proof for another randomness is refused
# with 400 naming the leaf, and the daemon keeps serving.
# The test params are made once into PARAMS_CACHE (shared with cli_post:
# same seed, same names) and copied into the daemon's params dir.
CACHE=$2
. "$(dirname "$0")/lib.sh"
mkdir -p "$dir/params" "$CACHE"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
for kind in winning window; do
    n=1; [ $kind = window ] && n=2
    "$CUZK" post gen-vanilla --kind $kind --sector-size 2KiB --sectors $n --random 5 \
        -o "$dir/$kind.json" >/dev/null || fail "$kind: gen-vanilla"
    if [ ! -f "$CACHE/.$kind-2KiB-seed7" ]; then
        "$CUZK" setup --kind $kind-post --sector-size 2KiB --params-dir "$CACHE" --seed 7 \
            >/dev/null 2>&1 || fail "$kind: setup"
        touch "$CACHE/.$kind-2KiB-seed7"
    fi
done
cp "$CACHE"/v28-proof-of-spacetime-* "$dir/params/" || fail "copying the params"
start_daemon

for kind in winning window; do
    if [ $kind = winning ]; then how="--input $dir/$kind.json"; else how="--input-path $dir/$kind.json"; fi
    id=$("$CUZK" submit --kind $kind-post $how --priority critical) || fail "$kind: submit"
    "$CUZK" wait "$id" --timeout 300 >"$dir/wait.txt" 2>/dev/null || fail "$kind: wait: $(cat "$dir/wait.txt")"
    "$CUZK" proof "$id" --out "$dir/$kind.proof" >/dev/null || fail "$kind: proof"
    [ "$(wc -c <"$dir/$kind.proof")" -eq 192 ] || fail "$kind: proof is not 192 bytes"
    "$CUZK" verify --kind $kind-post --params-dir "$dir/params" --proof "$dir/$kind.proof" \
        --input "$dir/$kind.json" >/dev/null || fail "$kind: the daemon's proof does not verify"
    ok "$kind-post: submit -> wait -> proof verifies from the public values"
done

# Wrong randomness: refused at submit (400), naming the challenged leaf.
"$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); r=j['randomness']; j['randomness']=('1' if r[0] != '1' else '2') + r[1:]; json.dump(j, open(sys.argv[2], 'w'))" \
    "$dir/winning.json" "$dir/bad.json" || fail "editing the input"
api POST /v1/proofs "{\"kind\": \"winning-post\", \"input_path\": \"$dir/bad.json\"}"
[ "$code" = 400 ] || fail "wrong randomness: HTTP $code, want 400"
grep -q "randomness challenges leaf" "$dir/body" || fail "400 without the reason: $(cat "$dir/body")"
api GET /v1/status
[ "$code" = 200 ] || fail "daemon not serving after a refused job"
ok "a vanilla proof for other randomness: 400 naming the leaf; still serving"
stop_daemon
echo "$passed passed, 0 failed"
