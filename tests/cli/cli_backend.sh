#!/bin/sh
# tests/cli/cli_backend.sh — black-box: the CLI chooses the backend by name.
# --backend cpu proves and says so; --backend cuda where CUDA is not usable
# (every CI machine: no GPU, usually no CUDA in the build) fails cleanly —
# exit 1, the reason on stderr, no proof written, no crash — for prove,
# prove --kind porep-c2, bench prove and bench pipeline; an unknown backend
# is a usage error naming it; auto proves on whatever is usable.
set -u
CUZK=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
cd "$dir"

"$CUZK" setup --circuit bench:1024 --params p.params --vk p.vk --seed 5 >/dev/null || fail "setup"

"$CUZK" prove --circuit bench:1024 --params p.params --proof cpu.bin --public pub.txt \
    --backend cpu --quiet >out.txt || fail "prove --backend cpu"
grep -q "backend cpu" out.txt || fail "prove --backend cpu does not say which backend ran: $(cat out.txt)"
"$CUZK" verify --vk p.vk --proof cpu.bin --public pub.txt >/dev/null || fail "cpu proof rejected"
"$CUZK" prove --circuit bench:1024 --params p.params --proof j.bin --backend cpu --json >j.txt \
    || fail "prove --json"
grep -q '"backend":"cpu"' j.txt || fail "--json does not name the backend: $(cat j.txt)"

# cuda: either a usable GPU here (then it proves), or a clean failure with the reason
"$CUZK" prove --circuit bench:1024 --params p.params --proof cuda.bin --backend cuda --quiet \
    >out.txt 2>err.txt; rc=$?
if [ $rc -eq 0 ]; then
    grep -q "backend cuda" out.txt || fail "--backend cuda succeeded but names another backend"
    echo "a usable GPU here: --backend cuda proved"
    cuda=1
else
    [ $rc -eq 1 ] || fail "--backend cuda: exit $rc, want 1 (a crash is >= 128)"
    grep -q "cuzk prove: cuda backend: ." err.txt || fail "--backend cuda: no reason: $(cat err.txt)"
    [ -e cuda.bin ] && fail "--backend cuda failed but wrote a proof"
    echo "--backend cuda refused: $(cat err.txt)"
    cuda=0
fi

if [ $cuda -eq 0 ]; then
    "$CUZK" bench prove --circuit bench:1024 --backend cuda 2>err.txt >/dev/null; rc=$?
    [ $rc -eq 1 ] && grep -q "cuda backend: ." err.txt || fail "bench prove --backend cuda: exit $rc: $(cat err.txt)"
    "$CUZK" bench pipeline --circuit bench:1024 --devices cuda 2>err.txt >/dev/null; rc=$?
    [ $rc -eq 1 ] && grep -q "cuda backend: ." err.txt || fail "bench pipeline --devices cuda: exit $rc: $(cat err.txt)"
    "$CUZK" bench pipeline --circuit bench:1024 --devices cuda:2 2>err.txt >/dev/null; rc=$?
    [ $rc -eq 1 ] && grep -q "cuda backend: ." err.txt || fail "bench pipeline --devices cuda:2: exit $rc"
    # the C1 is never read: the backend is made first
    "$CUZK" prove --kind porep-c2 --c1 missing.json --params p.params --proof c2.bin --backend cuda \
        --quiet 2>err.txt >/dev/null; rc=$?
    if ! grep -q "needs jansson" err.txt; then
        [ $rc -eq 1 ] && grep -q "cuda backend: ." err.txt \
            || fail "prove --kind porep-c2 --backend cuda: exit $rc: $(cat err.txt)"
    fi
fi

# auto proves on whatever is usable and says which
"$CUZK" prove --circuit bench:1024 --params p.params --proof auto.bin --quiet >out.txt \
    || fail "prove (auto)"
grep -q "backend c[pu][ud]" out.txt || fail "auto does not say which backend ran: $(cat out.txt)"
[ $cuda -eq 1 ] || grep -q "backend cpu" out.txt || fail "auto without CUDA did not fall back to cpu"

# usage errors: exit 2
"$CUZK" prove --circuit bench:1024 --params p.params --proof x.bin --backend opencl 2>err.txt; rc=$?
[ $rc -eq 2 ] && grep -q "opencl" err.txt || fail "unknown backend: exit $rc: $(cat err.txt)"
"$CUZK" prove --daemon --circuit bench:1024 --params p --proof x.bin --backend cpu 2>err.txt; rc=$?
[ $rc -eq 2 ] || fail "--backend with --daemon: exit $rc, want 2"
"$CUZK" bench pipeline --devices gpu:2 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "bench pipeline --devices gpu:2: exit $rc, want 2"
"$CUZK" bench pipeline --circuit bench:1024 --jobs 1 --partitions 2 --workers-per-device 1 \
    --devices cpu:2 --json >pipe.txt || fail "bench pipeline --devices cpu:2"
grep -q '"devices":"cpu:2"' pipe.txt || fail "bench pipeline JSON devices: $(cat pipe.txt)"
echo "1 passed, 0 failed"
