#!/usr/bin/env bash
# fetch-debs.sh — download the .deb files cuzkd and the client commands
# need (runtime + -dev of libmicrohttpd, jansson, libconfig, libcurl; for the
# gRPC door libgrpc-dev, libprotobuf-c-dev, protobuf-c-compiler and the
# libraries they need, and python3-grpcio for its tests) into
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
# the gRPC door: its -dev packages pull further -dev packages (absl, re2,
# c-ares, ...) whose .pc files pkg-config needs, so follow the library
# dependencies two levels deep; what every system has is left out
grpc_top="libgrpc-dev libprotobuf-c-dev protobuf-c-compiler python3-grpcio python3-protobuf"
base=" libc6 libgcc-s1 libstdc++6 zlib1g libssl3 libpython3-stdlib "
seen=""
level="$grpc_top"
for _ in 1 2 3; do
    next=""
    for p in $level; do
        case " $seen " in *" $p "*) continue ;; esac
        apt-cache show "$p" >/dev/null 2>&1 || die "$p is not known to apt (run apt-get update?)"
        seen="$seen $p"
        for r in $(apt-cache depends "$p" 2>/dev/null | sed -n 's/^ *Depends: \(lib[a-z0-9.+-]*\|python3-[a-z0-9.+-]*\)$/\1/p'); do
            case "$base" in *" $r "*) continue ;; esac
            next="$next $r"
        done
    done
    level=$next
done
pkgs="$pkgs$seen"
mkdir -p "$dest"
cd "$dest"
echo "fetch-debs: downloading$pkgs into $dest"
# shellcheck disable=SC2086
apt-get download $pkgs || die "apt-get download failed (network?)"
ls -1 ./*.deb
echo "fetch-debs: done; scripts/deps.sh unpacks these when the libraries are missing"
