#!/usr/bin/env bash
# tests/lint/layers_selftest.sh — scripts/layers.sh fails where it should:
# on a copy of src/ and scripts/, a forbidden include planted in a CLI file
# and in a daemon file (each form: "..." and <...>, spaces after #), a
# header below cuzk.h in a whole-pipeline benchmark (bench_pipeline.c,
# bench_mixed.c: even the engine's, timeline's or core's), and a stale line
# in scripts/layers.allow, each exit 1 naming the file; the clean copy
# passes, and so does a micro-benchmark's include of its layer; a missing
# root is a setup error (2).
set -u
src=${1:?usage: layers_selftest.sh SOURCE_DIR}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
fresh() { rm -rf "$t/r"; mkdir -p "$t/r"; cp -r "$src/src" "$src/scripts" "$src/bench" "$t/r/"; }
expect() { # expect RC WHAT-IN-STDERR
    bash "$src/scripts/layers.sh" "$t/r" >"$t/out" 2>"$t/err"
    local rc=$?
    [ $rc -eq "$1" ] || { cat "$t/out" "$t/err"; fail "exit $rc, want $1 ($2)"; }
    [ -z "$2" ] || grep -qF -- "$2" "$t/err" || { cat "$t/err"; fail "no '$2' in stderr"; }
}

fresh
expect 0 ""

fresh
echo '#include "groth16/verify.h"' >>"$t/r/src/cli/cmd_prove.c"
expect 1 "src/cli/cmd_prove.c:"

fresh
echo '  #  include <gadgets/sha256.h>' >>"$t/r/src/daemon/server.c"
expect 1 "src/daemon/server.c:"

fresh
echo '#include "circuits/registry.h"' >>"$t/r/src/cli/cli.h"
expect 1 "src/cli/cli.h:"

fresh # nested folders are doors too
f=$(find "$t/r/src/daemon" -mindepth 2 -name '*.c' | head -1)
if [ -n "$f" ]; then
    echo '#include "circuits/registry.h"' >>"$f"
    expect 1 "${f#"$t/r/"}:"
fi

fresh # an exception whose include is gone
echo 'src/cli/main.c groth16/proof.h  test' >>"$t/r/scripts/layers.allow"
expect 1 "not included any more"

fresh # a listed exception passes
echo '#include "groth16/proof.h"' >>"$t/r/src/cli/main.c"
echo 'src/cli/main.c groth16/proof.h  test' >>"$t/r/scripts/layers.allow"
expect 0 ""

fresh # bench/ is not a door; other layers' headers are allowed
mkdir -p "$t/r/bench" && echo '#include "groth16/proof.h"' >"$t/r/bench/x.c"
echo '#include "core/clock.h"' >>"$t/r/src/cli/main.c"
expect 0 ""

fresh # the whole-pipeline benchmarks go through cuzk.h alone
echo '#include "engine/engine.h"' >>"$t/r/bench/bench_pipeline.c"
expect 1 "bench/bench_pipeline.c:"

fresh
echo '# include <core/pool.h>' >>"$t/r/bench/bench_mixed.c"
expect 1 "bench/bench_mixed.c:"

fresh
echo '#include "timeline/analyze.h"' >>"$t/r/bench/bench_pipeline.c"
expect 1 "whole-pipeline benchmark"

fresh # their system, API, bench and cli headers pass
printf '#include <stdint.h>\n#include "cuzk.h"\n#include "cli/options.h"\n' >>"$t/r/bench/bench_pipeline.c"
expect 0 ""

bash "$src/scripts/layers.sh" "$t/none" >/dev/null 2>&1
[ $? -eq 2 ] || fail "a missing root is not exit 2"
echo "layers_selftest: ok"
