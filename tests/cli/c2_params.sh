#!/bin/sh
# tests/cli/c2_params.sh — the ctest fixture `c2_params`: the 2KiB PoRep C2
# test params in the build tree (seed 7, Filecoin file names), made once
# when missing. cli_porep and test_c2 fill the same cache; tests that need
# it without making it themselves (daemon_grpc) require this fixture, so
# they never skip for want of params in CI.
#
# Usage: c2_params.sh CUZK PARAMS_DIR
set -u
CUZK=$1
PARAMS=$2
name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
if [ -s "$PARAMS/$name.params" ] && [ -s "$PARAMS/$name.vk" ]; then
    echo "c2 params cached in $PARAMS"
    echo "1 passed, 0 failed"
    exit 0
fi
t0=$(date +%s)
"$CUZK" setup --kind porep-c2 --sector-size 2KiB --params-dir "$PARAMS" --seed 7 >/dev/null \
    || { echo "FAIL: setup"; echo "0 passed, 1 failed"; exit 1; }
echo "c2 params made in $(( $(date +%s) - t0 )) s"
echo "1 passed, 0 failed"
