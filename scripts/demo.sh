#!/usr/bin/env bash
# demo.sh — the main job on built-in sample data (`make demo`).
#
# Until the prover lands this benchmarks the foundation's pieces on
# generated inputs: the multi-threaded MSM (random and Filecoin-shaped
# scalars) against single-threaded blst, and the NTT against one thread.
set -euo pipefail
build=${1:-build}
cuzk="$build/bin/cuzk"
[ -x "$cuzk" ] || { echo "demo: $cuzk not built (run make build)" >&2; exit 1; }

echo "== cuzk demo: the foundation's pieces on generated data ($(nproc) cores)"
"$cuzk" bench msm --log-n 16 --mix random --iters 1
"$cuzk" bench msm --log-n 18 --mix filecoin --iters 2
if "$cuzk" bench --help | grep -q '^  ntt'; then
    "$cuzk" bench ntt --log-n 18 --iters 2
fi
echo "== demo done"
