#!/usr/bin/env bash
# layers.sh — the doors stay doors: no file under src/cli/ or src/daemon/
# includes a header of the circuit, gadget or Groth16 layers (circuits/,
# gadgets/, groth16/). What a door needs of them goes through include/cuzk.h
# (issue 38: "no door includes a circuit, gadget or groth16 header").
# bench/'s micro-benchmarks of the kernels (bench_prove.c, bench_msm.c,
# bench_ntt.c, ...) measure one layer each and include it: they are not
# doors and are not checked. The whole-pipeline drivers are callers of the
# library like any program (issue 38: "the benchmarks' private pipelines
# go"), so they are held tighter than the doors: bench/bench_pipeline.c and
# bench/bench_mixed.c include only system headers, cuzk.h (cuzk/...),
# bench/bench.h and cli/ headers (options and helpers).
#
#   scripts/layers.sh [ROOT]   ROOT (default: the repository) holds src/
#
# Run by `make lint` (scripts/lint.sh) and by ctest (test `layers`).
# An include that must stay for now is listed, with its reason, in
# scripts/layers.allow as "FILE HEADER"; a listed pair that is no longer
# there fails too, so the list only shrinks. Exit 0 clean, 1 a forbidden
# include (each printed as file:line: the include), 2 a setup error.
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
cd "$root" 2>/dev/null && [ -d src/cli ] || { echo "layers: no src/cli under $root" >&2; exit 2; }
allow=scripts/layers.allow
doors="src/cli src/daemon"
forbidden='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](circuits|gadgets|groth16)/'

found=$(grep -rnE --include='*.c' --include='*.h' --include='*.cc' --include='*.cpp' \
        "$forbidden" $doors 2>/dev/null || true)
allowed=$( [ -f "$allow" ] && grep -vE '^[[:space:]]*(#|$)' "$allow" | awk '{print $1" "$2}' || true)

rc=0
while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    file=${hit%%:*}
    header=$(printf '%s\n' "$hit" | sed -E 's/.*include[[:space:]]*[<"]([^">]+)[">].*/\1/')
    if printf '%s\n' "$allowed" | grep -qxF "$file $header"; then
        continue
    fi
    echo "$hit" >&2
    rc=1
done <<<"$found"
[ $rc -eq 0 ] || echo "layers: the includes above reach below the doors; give the door a call in include/cuzk.h (or, with a reason, list 'FILE HEADER' in $allow)" >&2

# a stale exception: listed, no longer included
while IFS= read -r pair; do
    [ -n "$pair" ] || continue
    file=${pair%% *}
    header=${pair#* }
    if ! printf '%s\n' "$found" | grep -qE "^$file:[0-9]+:.*[<\"]$header[\">]"; then
        echo "layers: $allow lists '$file $header', which is not included any more: drop the line" >&2
        rc=1
    fi
done <<<"$allowed"

# the whole-pipeline benchmarks: through cuzk.h alone (no exceptions list)
pipeline_benches="bench/bench_pipeline.c bench/bench_mixed.c"
for f in $pipeline_benches; do
    [ -f "$f" ] || continue
    while IFS= read -r hit; do
        [ -n "$hit" ] || continue
        header=$(printf '%s\n' "$hit" | sed -E 's/.*include[[:space:]]*[<"]([^">]+)[">].*/\1/')
        case "$hit" in
        *'"'*) case "$header" in cuzk.h | cuzk/* | bench/bench.h | cli/*) continue ;; esac ;;
        *) [ -d "src/${header%%/*}" ] && [ "${header%%/*}" != cli ] || continue ;;
        esac
        echo "$f:$hit" >&2
        echo "layers: $f is a whole-pipeline benchmark: it includes only system headers, cuzk.h, bench/bench.h and cli/ headers" >&2
        rc=1
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$f" || true)
done

[ $rc -eq 0 ] && echo "layers: no door (src/cli, src/daemon) includes circuits/, gadgets/ or groth16/ headers$( [ -n "$allowed" ] && echo " ($(printf '%s\n' "$allowed" | wc -l) listed in $allow)"); $pipeline_benches through cuzk.h"
exit $rc
