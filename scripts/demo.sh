#!/usr/bin/env bash
# demo.sh — the main job on built-in sample data (`make demo`).
#
# Until the PoRep circuit and the daemon land, the sample job is the
# synthetic Filecoin-shaped circuit bench:N: test parameters (generated once,
# cached in BUILD/demo), one proof through `cuzk prove` checked by
# `cuzk verify`, then several multi-partition jobs through the engine
# (`cuzk bench pipeline`) with the timeline analysed and drawn.
set -euo pipefail
build=${1:-build}
cuzk="$build/bin/cuzk"
[ -x "$cuzk" ] || { echo "demo: $cuzk not built (run make build)" >&2; exit 1; }
circuit=${CUZK_DEMO_CIRCUIT:-bench:16384}
out="$build/demo"
mkdir -p "$out"

echo "== cuzk demo on $(nproc) cores: circuit $circuit"
if [ ! -s "$out/demo.params" ] || [ ! -s "$out/demo.vk" ] || [ "$(cat "$out/circuit" 2>/dev/null)" != "$circuit" ]; then
    echo "-- test parameters (random toxic waste; for demos and tests only)"
    "$cuzk" setup --circuit "$circuit" --params "$out/demo.params" --vk "$out/demo.vk"
    echo "$circuit" >"$out/circuit"
fi

echo "-- one proof, in process"
"$cuzk" prove --circuit "$circuit" --params "$out/demo.params" --proof "$out/proof.bin" \
    --public "$out/public.txt"
"$cuzk" verify --vk "$out/demo.vk" --proof "$out/proof.bin" --public "$out/public.txt"

echo "-- 2 jobs x 3 partitions through the engine, 1 and 2 workers per device"
"$cuzk" bench pipeline --circuit "$circuit" --params "$out/demo.params" --jobs 2 --partitions 3 \
    --workers-per-device 1,2 --timeline "$out/timeline.log" --svg "$out/timeline.svg"

echo "-- timeline of the last run (W=2)"
"$cuzk" timeline analyze "$out/timeline.log"
echo "== demo done: proof $out/proof.bin, timeline $out/timeline.svg"
