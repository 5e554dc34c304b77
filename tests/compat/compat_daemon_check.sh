#!/bin/sh
# tests/compat/compat_daemon_check.sh — cuzkd checks a params file named in
# Filecoin's v28 parameters.json before its first load (params.check,
# groth16/manifest.h via the params cache's one hook): valid params of our
# own under the published 2KiB PoRep name are refused with 422 naming
# both digests; the same file under its own name,
# or with params.check = false, loads (200). Usage: compat_daemon_check.sh
# BINDIR (cuzk and cuzkd); 77 without cuzkd or curl.
. "$(dirname "$0")/../daemon/lib.sh"
V28=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
make_params own bench:256 3
cp "$dir/params/own.params" "$dir/params/$V28.params"

start_daemon
api POST /v1/params/preload '{"params":"own"}'
[ "$code" = 200 ] || fail "preload of a file under its own name: $code $(cat "$dir/body")"
ok "own name: loaded without a manifest check"
api POST /v1/params/preload "{\"params\":\"$V28\"}"
[ "$code" = 422 ] || fail "preload under the published name: $code, want 422: $(cat "$dir/body")"
grep -q "434fb1338ecfaf0f59256f30dde4968f" "$dir/body" && grep -q "blake2b digest" "$dir/body" \
    || fail "the error does not name the digests: $(cat "$dir/body")"
ok "published name, other bytes: 422 naming both digests"
api POST /v1/params/preload "{\"params\":\"$V28\"}"
[ "$code" = 422 ] || fail "second preload: $code (the verdict is cached, not forgotten)"
ok "the verdict holds on the next request"
stop_daemon

start_daemon --set params.check=false
api POST /v1/params/preload "{\"params\":\"$V28\"}"
[ "$code" = 200 ] || fail "params.check=false: $code $(cat "$dir/body")"
ok "params.check = false: loaded"
stop_daemon
echo "$passed passed, 0 failed"
