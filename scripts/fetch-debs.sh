#!/usr/bin/env bash
# fetch-debs.sh — download the .deb files cuzkd and the client commands
# need (runtime + -dev of libmicrohttpd, jansson, libconfig, libcurl) into
# .deps/debs/, for a machine without network (the GPU machine): copy the
# folder there (or carry it) and scripts/deps.sh unpacks it with dpkg -x
# into BUILD/deps/prefix when the libraries are missing.
#
# Run it on a machine with the same Debian/Ubuntu release and architecture
# as the target. Uses `apt-get download` (no root needed, nothing installed).
#
# Usage: scripts/fetch-debs.sh [DEST]    (default: .deps/debs)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-${CUZK_DEPS_CACHE:-$top/.deps}/debs}
die() { printf 'fetch-debs: error: %s\n' "$*" >&2; exit 1; }

command -v apt-get >/dev/null 2>&1 || die "apt-get not found (a Debian/Ubuntu machine is needed)"
command -v apt-cache >/dev/null 2>&1 || die "apt-cache not found"

# the -dev packages and the runtime library each depends on (the versioned
# runtime names differ between releases, so they are read from apt-cache)
dev="libmicrohttpd-dev libjansson-dev libconfig-dev libcurl4-openssl-dev"
pkgs=""
for d in $dev; do
    apt-cache show "$d" >/dev/null 2>&1 || die "$d is not known to apt (run apt-get update?)"
    pkgs="$pkgs $d"
    for r in $(apt-cache depends "$d" 2>/dev/null | sed -n 's/^ *Depends: \(lib[a-z0-9.+-]*\)$/\1/p'); do
        case "$r" in
        libmicrohttpd[0-9]*|libjansson[0-9]*|libconfig[0-9]*|libcurl[0-9]*) pkgs="$pkgs $r" ;;
        esac
    done
done
mkdir -p "$dest"
cd "$dest"
echo "fetch-debs: downloading$pkgs into $dest"
# shellcheck disable=SC2086
apt-get download $pkgs || die "apt-get download failed (network?)"
ls -1 ./*.deb
echo "fetch-debs: done; scripts/deps.sh unpacks these when the libraries are missing"
