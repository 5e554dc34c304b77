#!/bin/sh
# tests/cli/cli_linkage.sh — `cuzk` must start and prove whatever libcurl the
# machine has: the binary has no DT_NEEDED on libcurl (the client commands
# load it at run time, src/cli/curl_dl.h), and an unusable libcurl.so.4 on
# the loader's path fails the client commands alone, with the loader's
# message. (A Debian libcurl unpacked on Ubuntu stopped `cuzk` from starting.)
#
# Usage: cli_linkage.sh CUZK
set -u
CUZK=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
pass=0

if command -v readelf >/dev/null 2>&1; then
    readelf -d "$CUZK" | grep NEEDED | grep -q libcurl && fail "cuzk has a DT_NEEDED on libcurl"
    pass=$((pass + 1))
fi

# a libcurl.so.4 that cannot load, as the Debian one on Ubuntu: a real
# shared object whose own dependency is missing (needs a C compiler)
if command -v cc >/dev/null 2>&1; then
    printf 'int cz_gone(void) { return 1; }\n' >"$dir/gone.c"
    printf 'int cz_gone(void); int curl_easy_init(void) { return cz_gone(); }\n' >"$dir/curl.c"
    cc -shared -fPIC -o "$dir/libczgone.so" "$dir/gone.c" \
        && cc -shared -fPIC -o "$dir/libcurl.so.4" "$dir/curl.c" -L"$dir" -lczgone \
        || fail "cannot build the broken libcurl"
    rm -f "$dir/libczgone.so"
    LD_LIBRARY_PATH=$dir "$CUZK" circuit shape --circuit bench:1000 >"$dir/shape.txt" 2>&1 \
        || { cat "$dir/shape.txt"; fail "a local command failed with a broken libcurl on the path"; }
    pass=$((pass + 1))
    if "$CUZK" --help 2>&1 | grep -q '^ *submit'; then
        LD_LIBRARY_PATH=$dir "$CUZK" list --socket "$dir/none.sock" >"$dir/list.txt" 2>&1
        rc=$?
        [ $rc -ne 0 ] || fail "list with a broken libcurl exited 0"
        grep -q 'libczgone' "$dir/list.txt" || { cat "$dir/list.txt"; fail "the message does not give the loader's reason"; }
        pass=$((pass + 1))
    fi
fi
echo "$pass passed, 0 failed"
