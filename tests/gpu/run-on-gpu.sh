#!/usr/bin/env bash
# run-on-gpu.sh — build cuzk with the CUDA backend and run every GPU test and
# benchmark in one go, on a machine with an NVIDIA GPU (no network needed:
# blst is built from the checked tarball in .deps/, see scripts/deps.sh).
#
# Usage (from anywhere inside a fresh copy of the repo):
#   bash tests/gpu/run-on-gpu.sh
# Env:
#   OUT               the log goes to $OUT/gpu.log (else build-gpu/gpu.log)
#   CUZK_GPU_BUILD    build directory (default build-gpu)
#   CUZK_CUDA_ARCHS   CMAKE_CUDA_ARCHITECTURES (default: the GPU present,
#                     as CMakeLists.txt detects it)
#   CUZK_GPU_BENCH    0 to skip the benchmarks
#   CUZK_GPU_TESTS    0 to skip the GPU tests (a benchmark-only run)
#   JOBS              parallel build jobs (default: all cores)
#   CUZK_GPU_FULL     0 to build only the GPU tests and the CLI (faster)
#   CUZK_GPU_BENCH_LIST  which benchmark groups to run (default "ntt h msm prove pipeline";
#                     also "c2": a full 10-partition 32GiB PoRep C2 through the engine
#                     with random params, TIMING ONLY, ~60 GiB+ host memory, minutes:
#                     CUZK_GPU_BENCH_LIST=c2 CUZK_GPU_FULL=0 CUZK_GPU_TESTS=0 \
#                       bash tests/gpu/run-on-gpu.sh;
#                     "synth": one 32GiB partition's synthesis on all the host's cores,
#                     fresh and warm buffers, no GPU: `cuzk bench synth`; "prove32": one
#                     32GiB-shaped partition cold then warm, the cold region's parts;
#                     "post": 32GiB WinningPoSt and WindowPoSt partition, random params;
#                     "snap": a whole 32GiB SnapDeals update, random params; "pin": pinning
#                     8 GiB of host memory two ways; "c2steady": 3 32GiB C2 jobs at once, W=2, W=1
#                     (CUZK_GPU_STEADY_W: which W); "fmul": Montgomery products, CIOS vs FP64 limbs;
#                     "affine": one G1 addition, XYZZ vs batch-affine with a shared inversion)
# Exit status: 0 when the build and every GPU test and benchmark passed.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
build=${CUZK_GPU_BUILD:-$top/build-gpu}
logdir=${OUT:-$build}
mkdir -p "$build" "$logdir"
log=$logdir/gpu.log
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
archs=${CUZK_CUDA_ARCHS:-}
status=0
: >"$log"

say() { printf '== %s\n' "$*" | tee -a "$log"; }
run() {   # run CMD...: log it, its output and its status; remember failures
    say "\$ $*"
    local t0=$SECONDS
    "$@" 2>&1 | tee -a "$log"
    local rc=${PIPESTATUS[0]}
    say "rc=$rc ($((SECONDS - t0)) s)"
    [ "$rc" -eq 0 ] || status=1
    return "$rc"
}

say "cuzk GPU run, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')"
run nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit --format=csv
run nvcc --version

# ---- blst (offline, from the checked tarball) ---------------------------------
# deps.sh builds blst from .deps/ without network; the daemon's libraries are
# optional there (cuzkd is skipped when they are absent, which the GPU tests
# do not need).
blst=$build/deps/blst
run env CUZK_NO_APT=1 scripts/deps.sh "$build" || exit 1

# ---- build ------------------------------------------------------------------
run cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
    ${archs:+-DCMAKE_CUDA_ARCHITECTURES="$archs"} -DBLST_DIR="$blst" || exit 1
gpu_targets="test_cuda_field test_cuda_ntt test_cuda_msm test_cuda_backend test_cpu_h test_bin_inverse cuzk-cli"
if [ "${CUZK_GPU_FULL:-1}" = 0 ]; then
    run cmake --build "$build" -j "$jobs" --target $gpu_targets || exit 1
elif ! run cmake --build "$build" -j "$jobs"; then
    say "full build failed; building the GPU targets only"
    status=0
    run cmake --build "$build" -j "$jobs" --target $gpu_targets || exit 1
fi

# ---- tests --------------------------------------------------------------------
if [ "${CUZK_GPU_TESTS:-1}" != 0 ]; then
    run ctest --test-dir "$build" -L gpu --output-on-failure --timeout 900
    run ctest --test-dir "$build" -R '^(test_cpu_h|test_bin_inverse)$' --output-on-failure
fi

# ---- benchmarks ---------------------------------------------------------------
if [ "${CUZK_GPU_BENCH:-1}" != 0 ]; then
    cuzk=$build/bin/cuzk
    benches=${CUZK_GPU_BENCH_LIST:-ntt h msm prove pipeline}
    case " $benches " in *" ntt "*)
        for n in 20 24 26 27; do
            run "$cuzk" bench ntt --backend cuda --log-n "$n" --iters 10
        done ;;
    esac
    case " $benches " in *" h "*)
        for n in 20 24 27; do
            run "$cuzk" bench h --backend cuda --log-n "$n" --iters 3
        done ;;
    esac
    case " $benches " in *" msm "*)
        for n in 20 22 24 26; do
            run "$cuzk" bench msm --backend cuda --log-n "$n" --iters 5
        done
        run "$cuzk" bench msm --backend cuda --log-n 20 --g2 --iters 3 ;;
    esac
    case " $benches " in *" prove "*)
        run "$cuzk" bench prove --circuit bench:1000000 --backend cuda ;;
    esac
    case " $benches " in *" pipeline "*)
        run "$cuzk" bench pipeline --circuit bench:1000000 --devices cuda --workers-per-device 1,2 \
            --jobs 2 --partitions 4 ;;
    esac
    case " $benches " in *" fmul "*)
        run "$cuzk" bench fmul --iters 5 ;;
    esac
    case " $benches " in *" affine "*)
        run "$cuzk" bench affine --log-n 23 --iters 5 ;;
    esac
    case " $benches " in *" pin "*)
        run "$cuzk" bench pin --gib 8 ;;
    esac
    case " $benches " in *" prove32 "*)
        # one 32GiB-PoRep-shaped partition, cold then warm: the cold region's parts
        run "$cuzk" bench prove --circuit bench:130278869 --random-params --backend cuda --iters 2 ;;
    esac
    case " $benches " in *" post "*)
        # TIMING ONLY: a 32GiB WinningPoSt and one 32GiB WindowPoSt partition, random params
        run "$cuzk" prove --kind winning-post --sector-size 32GiB --random-params --backend cuda
        run "$cuzk" prove --kind window-post --sector-size 32GiB --random-params --backend cuda ;;
    esac
    case " $benches " in *" snap "*)
        # TIMING ONLY: a whole 32GiB SnapDeals update (16 partitions), random params
        run /usr/bin/time -v "$cuzk" prove --kind snap --sector-size 32GiB --random-params \
            --backend cuda ;;
    esac
    case " $benches " in *" synth "*)
        # CPU only: can synthesis keep this host's GPU busy? (docs/PERFORMANCE.md)
        run "$cuzk" bench synth --sparse 32GiB --iters 3 --no-baseline ;;
    esac
    case " $benches " in *" c2 "*|*" c2steady "*)
        # TIMING ONLY: a sparse 32GiB C1 (seconds), then every one of its 10
        # partitions synthesized and proved through the engine on the GPU with
        # random params of the partition's exact shape (not verified). The
        # porep commands need jansson (scripts/deps.sh; .deps/debs offline).
        # c2: one job from a cold start; c2steady: 3 jobs at once in one
        # engine (params in memory: the daemon's steady state), W=1 and W=2.
        c1=$build/c1-32g.json
        if [ -s "$c1" ] || run "$cuzk" porep gen-c1 --sparse --sector-size 32GiB --random 1 -o "$c1"; then
            case " $benches " in *" c2 "*)
                run /usr/bin/time -v "$cuzk" prove --kind porep-c2 --c1 "$c1" --random-params \
                    --backend cuda --workers-per-device 2 --quiet \
                    --timeline "$logdir/c2-32g.log" --svg "$logdir/c2-32g.svg" ;;
            esac
            case " $benches " in *" c2steady "*)
                for w in ${CUZK_GPU_STEADY_W:-2 1}; do
                    run /usr/bin/time -v "$cuzk" prove --kind porep-c2 --c1 "$c1" --random-params \
                        --backend cuda --workers-per-device "$w" --jobs 3 --quiet \
                        --timeline "$logdir/c2-32g-steady-w$w.log" --svg "$logdir/c2-32g-steady-w$w.svg"
                done ;;
            esac
        fi ;;
    esac
fi

say "summary:"
grep -E '^(NTT|H|MSM|FMUL) |^(NTT|H) 2\^|^(direct|warm): |tests passed|tests failed|^== rc=[^0]|s/proof|s/partition|first iteration|^PIN |jobs submitted at once|^synthesis per partition|^device region per partition|^peak RSS|Maximum resident' "$log" | tee -a "$log.summary"
say "status $status (log: $log)"
exit "$status"
