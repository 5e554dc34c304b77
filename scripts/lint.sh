#!/usr/bin/env bash
# lint.sh — cppcheck over src/ (and the include/ headers it includes), as the
# build compiles it, and the layer check (scripts/layers.sh: no door
# includes a circuit, gadget or groth16 header): `make lint`, and CI before
# `make test`.
#
#   scripts/lint.sh [BUILD]   BUILD (default build) holds compile_commands.json
#                             (cmake writes it at configure time)
#
# Each C file under src/ is checked once, with the defines and include paths
# of its compile command (so with CUZK_HAVE_CUDA=1 etc. when the build has
# the CUDA backend); .cu files and generated sources are not checked.
# Exit 0 when cppcheck finds nothing, 1 when it finds something (each
# finding printed as file:line: severity: message [id]), 2 on a setup error.
# Findings that are not defects are listed, each with its reason, in
# scripts/cppcheck.supp; scripts/cppcheck.cfg tells cppcheck the system
# macros it needs. BUILD/cppcheck keeps cppcheck's results per file, so a
# second run rechecks only what changed. JOBS (default 2) files at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
jobs=${JOBS:-2}
cc="$build/compile_commands.json"
command -v cppcheck >/dev/null || { echo "lint: cppcheck not found (apt install cppcheck)" >&2; exit 2; }
[ -f "$cc" ] || { echo "lint: no $cc (configure a build first: make build)" >&2; exit 2; }
mkdir -p "$build/cppcheck"

# the layers first (a grep: no door includes circuits/, gadgets/ or groth16/)
layers_rc=0
scripts/layers.sh || layers_rc=$?

# warning, style, performance and portability; not information (it reports
# the system headers left unread on purpose) nor unusedFunction (whole
# program only, and the library's API is used outside src/)
start=$(date +%s)
set +e
cppcheck --project="$cc" --file-filter='src/*.c' -j "$jobs" --std=c11 \
         --enable=warning,style,performance,portability \
         --library=posix --library=gnu --library=scripts/cppcheck.cfg \
         --suppressions-list=scripts/cppcheck.supp --inline-suppr \
         --cppcheck-build-dir="$build/cppcheck" --error-exitcode=1 --quiet \
         --template='{file}:{line}: {severity}: {message} [{id}]'
rc=$?
set -e
if [ $rc -eq 0 ]; then
    echo "lint: cppcheck clean ($(( $(date +%s) - start )) s)"
elif [ $rc -eq 1 ]; then
    echo "lint: cppcheck findings above: fix them, or list one in scripts/cppcheck.supp with its reason" >&2
else
    echo "lint: cppcheck failed (exit $rc)" >&2
    rc=2
fi
[ $rc -ne 0 ] || rc=$layers_rc
exit $rc
