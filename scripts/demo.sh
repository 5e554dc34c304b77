#!/usr/bin/env bash
# demo.sh — the main job on built-in sample data (`make demo`).
#
# 1. The synthetic Filecoin-shaped circuit bench:N: test parameters
#    (generated once, cached in BUILD/demo), one proof through `cuzk prove`
#    checked by `cuzk verify`, several multi-partition jobs through the
#    engine (`cuzk bench pipeline`) with the timeline analysed and drawn.
# 2. cuzkd on a temporary socket: a bench job, then the real main job — a
#    2KiB PoRep test sector sealed here (`cuzk porep gen-c1`), its C2 proved
#    by the daemon with test parameters (seeded; made by the first run, which
#    takes minutes on a small machine, into BUILD/tests/c2-params, the cache
#    `make test` shares) and verified from the public values alone, as a
#    chain verifier would. CUZK_DEMO_POREP=0 skips the PoRep job.
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

# ---- the daemon: cuzkd on a temporary socket, driven by the cuzk client ----
cuzkd="$build/bin/cuzkd"
if [ -x "$cuzkd" ] && "$cuzk" help 2>/dev/null | grep -q '^  submit'; then
    echo "-- cuzkd on a temporary socket: submit, progress, proof, verify"
    dtmp=$(mktemp -d /tmp/cuzk-demo.XXXXXX)
    dpid=""
    stop_cuzkd() {
        if [ -n "$dpid" ] && kill -0 "$dpid" 2>/dev/null; then
            kill -TERM "$dpid"
            for _ in $(seq 1 300); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
            kill -0 "$dpid" 2>/dev/null && kill -KILL "$dpid"
            wait "$dpid" 2>/dev/null || true
        fi
        dpid=""
        rm -rf "$dtmp"
    }
    trap stop_cuzkd EXIT
    mkdir -p "$dtmp/params"
    ln -s "$(cd "$out" && pwd)/demo.params" "$dtmp/params/demo.params"
    porep=${CUZK_DEMO_POREP:-1}
    pdir="$(cd "$out" && pwd)/porep"
    # the tests' cache of the same params (tests/cli/c2_params.sh: seed 7,
    # Filecoin names): made once, by whichever of `make demo` and `make test`
    # runs first
    pparams="$(cd "$build" && pwd)/tests/c2-params"
    pname=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
    if [ "$porep" = 1 ]; then
        echo "-- a 2KiB PoRep test sector: seal it and write its C1"
        mkdir -p "$pdir" "$pparams"
        "$cuzk" porep gen-c1 --sector-size 2KiB --random 1 -o "$pdir/c1.json"
        if [ ! -s "$pparams/$pname.params" ] || [ ! -s "$pparams/$pname.vk" ]; then
            echo "-- PoRep 2KiB test parameters (first run only; seeded toxic waste, tests only)"
            "$cuzk" setup --kind porep-c2 --sector-size 2KiB --params-dir "$pparams" --seed 7
        fi
        ln -s "$pparams/$pname.params" "$pparams/$pname.vk" "$dtmp/params/"
    fi
    export CUZK_SOCKET="$dtmp/cuzkd.sock"
    "$cuzkd" --socket "$CUZK_SOCKET" --journal "$dtmp/journal" --params-dir "$dtmp/params" \
        --set timeline.file="$out/daemon-timeline.log" \
        --set params.check=false `# TEST params under the Filecoin names` \
        >"$out/cuzkd.log" 2>&1 &
    dpid=$!
    for _ in $(seq 1 100); do "$cuzk" daemon-status >/dev/null 2>&1 && break; sleep 0.1; done
    "$cuzk" daemon-status
    id=$("$cuzk" submit --circuit "$circuit" --params demo --partitions 3 --request-id demo-1)
    echo "submitted job $id (3 partitions)"
    "$cuzk" wait "$id" --timeout 600
    "$cuzk" proof "$id" --out "$out/daemon-proof.bin" --public "$out/daemon-public.txt"
    "$cuzk" verify --vk "$out/demo.vk" --proof "$out/daemon-proof.bin" --public "$out/daemon-public.txt"
    if [ "$porep" = 1 ]; then
        echo "-- PoRep C2 of the 2KiB sector through cuzkd"
        pid=$("$cuzk" submit --kind porep-c2 --input-path "$pdir/c1.json" --request-id demo-porep)
        echo "submitted job $pid (porep-c2, 2KiB)"
        "$cuzk" wait "$pid" --timeout 1800
        "$cuzk" proof "$pid" --out "$pdir/proof.bin"
        echo "-- verify from public values alone (replica_id, comm_d, comm_r, seed from the C1)"
        "$cuzk" verify --kind porep-c2 --params-dir "$pparams" --proof "$pdir/proof.bin" \
            --c1 "$pdir/c1.json"
    fi
    stop_cuzkd
    trap - EXIT
    echo "-- timeline summary of the daemon's jobs"
    "$cuzk" timeline analyze "$out/daemon-timeline.log"
    echo "   (daemon log: $out/cuzkd.log)"
else
    echo "-- cuzkd / client not built (libmicrohttpd, jansson, libconfig, libcurl missing): daemon part skipped"
fi
echo "== demo done: proof $out/proof.bin, timeline $out/timeline.svg"
