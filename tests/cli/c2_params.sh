#!/bin/sh
# tests/cli/c2_params.sh — the ctest fixtures c2_params and snap_params: the
# 2KiB PoRep C2 (or SnapDeals) test params in the build tree (seed 7,
# Filecoin file names), made once when missing. Every test that proves with
# them requires the fixture (FIXTURES_REQUIRED), so the minutes of setup are
# spent once, before those tests, which then only read the files and may run
# side by side. `make demo` leaves the same PoRep params there (same seed,
# same names), so a `make test` after it finds them made.
#
# Usage: c2_params.sh CUZK PARAMS_DIR [porep-c2|snap]
set -u
CUZK=$1
PARAMS=$2
KIND=${3:-porep-c2}
case $KIND in
porep-c2) name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f ;;
snap)     name=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194 ;;
*)        echo "FAIL: unknown kind $KIND"; echo "0 passed, 1 failed"; exit 1 ;;
esac
if [ -s "$PARAMS/$name.params" ] && [ -s "$PARAMS/$name.vk" ]; then
    echo "$KIND params cached in $PARAMS"
    echo "1 passed, 0 failed"
    exit 0
fi
t0=$(date +%s)
"$CUZK" setup --kind "$KIND" --sector-size 2KiB --params-dir "$PARAMS" --seed 7 >/dev/null \
    || { echo "FAIL: setup"; echo "0 passed, 1 failed"; exit 1; }
[ -s "$PARAMS/$name.params" ] && [ -s "$PARAMS/$name.vk" ] \
    || { echo "FAIL: setup wrote no $name.{params,vk}"; echo "0 passed, 1 failed"; exit 1; }
echo "$KIND params made in $(( $(date +%s) - t0 )) s"
echo "1 passed, 0 failed"
