#!/usr/bin/env bash
# format.sh — clang-format over the C sources, by the rules of .clang-format.
#
#   scripts/format.sh           reformat the files in place (`make format`)
#   scripts/format.sh --check   change nothing; print each place that differs
#                               and exit 1 if any does (`make format-check`)
#   scripts/format.sh --count   change nothing; print how many files and lines
#                               `make format` would change
#
# The files are git's tracked *.c and *.h under src/, include/, tests/,
# bench/ and examples/ (so nothing generated in a build directory). The
# CUDA sources (.cu, .cuh) are left out: clang-format's idea of them is not
# yet the code's. CLANG_FORMAT names the binary (default clang-format);
# the options in .clang-format are those of clang-format 14.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format}
mode=${1:-}
command -v "$cf" >/dev/null || { echo "format: $cf not found (apt install clang-format)" >&2; exit 2; }

files=()
while IFS= read -r -d '' f; do
    files+=("$f")
done < <(git ls-files -z -- 'src/*.c' 'src/*.h' 'include/*.h' 'tests/*.c' 'tests/*.h' \
                            'bench/*.c' 'bench/*.h' 'examples/*.c' 'examples/*.h')

case "$mode" in
    "")
        printf '%s\0' "${files[@]}" | xargs -0 "$cf" -i --style=file ;;
    --check)
        # one run for all files: --dry-run prints every difference, -Werror
        # makes any of them a failure
        if ! printf '%s\0' "${files[@]}" | xargs -0 "$cf" --dry-run -Werror --style=file; then
            echo "format: the places above differ from .clang-format (make format fixes them)" >&2
            exit 1
        fi ;;
    --count)
        nfiles=0 nlines=0
        for f in "${files[@]}"; do
            # lines of the file that the formatted text replaces or drops
            n=$("$cf" --style=file "$f" | diff -- "$f" - | grep -c '^<' || true)
            if [ "$n" -gt 0 ]; then
                nfiles=$((nfiles + 1)) nlines=$((nlines + n))
            fi
        done
        echo "format: make format would change $nlines lines in $nfiles of ${#files[@]} files" ;;
    *)
        echo "usage: scripts/format.sh [--check | --count]" >&2; exit 2 ;;
esac
