#!/usr/bin/env bash
# deps.sh — fetch, check and build cuzk's third-party dependencies.
#
# blst: the C sources in the npm registry package @chainsafe/blst@0.2.11
# (package/blst/ holds blst 0.3.10). The tarball is fetched once with
# `npm pack` into $CUZK_DEPS_CACHE (default .deps/), checked against the
# pinned sha512 integrity, unpacked into the build tree and built with its
# own build.sh. With the checked tarball already in the cache no network is
# needed (the GPU machine has none).
#
# Debian packages are installed with apt-get only when missing.
#
# cuzkd and the client commands need libmicrohttpd, jansson, libconfig and
# libcurl (-dev packages; optional: without them the rest builds). On a
# machine without network, `scripts/fetch-debs.sh` run elsewhere leaves
# their .deb files in .deps/debs/; when the libraries are missing and that
# folder exists they are unpacked with `dpkg -x` into BUILD_DIR/deps/prefix
# (CMake looks there, see CUZK_DEPS_PREFIX in CMakeLists.txt).
#
# Usage: scripts/deps.sh BUILD_DIR
# Env:   BLST_DIR=/path  use an existing blst (libblst.a + bindings/blst.h)
#        CUZK_DEPS_CACHE  where the tarball is kept (default: .deps)
#        CUZK_NO_APT=1    never call apt-get (report what is missing instead)
set -euo pipefail

BLST_PKG="@chainsafe/blst@0.2.11"
BLST_TGZ="chainsafe-blst-0.2.11.tgz"
BLST_INTEGRITY="sha512-URyOLq5GtxBoxibOnd2pgLydCy0UZzbiIIBcsRAvGxAsRzjZL04TsQfwRkz5aphU3a1ebeRoMmI/HHyMCiFSQg=="

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(mkdir -p "${1:-$top/build}" && cd "${1:-$top/build}" && pwd)
cache=${CUZK_DEPS_CACHE:-$top/.deps}

die() { printf 'deps: error: %s\n' "$*" >&2; exit 1; }
say() { printf 'deps: %s\n' "$*"; }

# ---- Debian packages ------------------------------------------------------
# Each entry: "<command or header to probe>|<debian package>".
need_debs() {
    local missing=()
    command -v cc    >/dev/null 2>&1 || missing+=(gcc)
    command -v make  >/dev/null 2>&1 || missing+=(make)
    command -v cmake >/dev/null 2>&1 || missing+=(cmake)
    command -v perl  >/dev/null 2>&1 || missing+=(perl)
    command -v openssl >/dev/null 2>&1 || missing+=(openssl)
    # jansson (the C1 parser, the API) is required, cuzkd's libraries optional:
    # daemon_debs installs them when it can and warns when it cannot (cmake
    # then stops without jansson, naming it)
    printf '%s\n' "${missing[@]}"
}

install_debs() {
    local pkgs
    mapfile -t pkgs < <(need_debs | sed '/^$/d')
    [ ${#pkgs[@]} -eq 0 ] && return 0
    if [ "${CUZK_NO_APT:-0}" = 1 ] || ! command -v apt-get >/dev/null 2>&1; then
        die "missing packages: ${pkgs[*]} (install them, or unset CUZK_NO_APT)"
    fi
    say "installing missing Debian packages: ${pkgs[*]}"
    apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" \
        || die "apt-get install ${pkgs[*]} failed"
}

# ---- cuzkd's libraries (optional): pkg-config, then .deps/debs, then apt --
prefix="$build/deps/prefix"
DAEMON_PCS="libmicrohttpd:libmicrohttpd-dev jansson:libjansson-dev libconfig:libconfig-dev libcurl:libcurl4-openssl-dev"

pc_path() {
    local arch
    arch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
    printf '%s' "$prefix/usr/lib/$arch/pkgconfig:$prefix/usr/lib/pkgconfig:$prefix/usr/share/pkgconfig"
    printf '%s' "${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
}
have_pc() {
    command -v pkg-config >/dev/null 2>&1 && PKG_CONFIG_PATH="$(pc_path)" pkg-config --exists "$1" 2>/dev/null
}
daemon_missing() {
    local e
    command -v pkg-config >/dev/null 2>&1 || echo pkg-config
    for e in $DAEMON_PCS; do
        [ "${CUZK_DEPS_FORCE_DEBS:-0}" != 1 ] && have_pc "${e%%:*}" && continue
        printf '%s\n' "${e##*:}"
    done
}

# dpkg -x every .deb of $cache/debs into $prefix; point the .pc files there.
unpack_debs() {
    local deb pc
    command -v dpkg >/dev/null 2>&1 || { say "dpkg not found: cannot unpack $cache/debs"; return 1; }
    mkdir -p "$prefix"
    for deb in "$cache"/debs/*.deb; do
        dpkg -x "$deb" "$prefix" || { say "cannot unpack $deb"; return 1; }
    done
    find "$prefix" -name '*.pc' | while read -r pc; do
        # shared linking only: private requirements (gnutls-dev, ...) need not be there
        sed -i -e "s|^prefix=/usr\$|prefix=$prefix/usr|" -e "s|=/usr/|=$prefix/usr/|g" \
            -e '/^Requires.private:/d' "$pc"
    done
    # libcurl is needed here for its header only: `cuzk` loads the system's
    # libcurl.so.4 at run time (src/cli/curl_dl.h). Another release's
    # runtime left in the prefix would be found first by the loader and fail
    # on its own dependencies (Debian's needs libssh2.so.1, which Ubuntu
    # 24.04 does not have), so it is not kept.
    rm -f "$prefix"/usr/lib/*/libcurl.so*
    say "unpacked $(ls "$cache"/debs/*.deb | wc -l) .deb files from $cache/debs into $prefix"
}

daemon_debs() {
    local pkgs
    mapfile -t pkgs < <(daemon_missing)
    [ ${#pkgs[@]} -eq 0 ] && return 0
    if ls "$cache"/debs/*.deb >/dev/null 2>&1; then
        unpack_debs || true
        mapfile -t pkgs < <(CUZK_DEPS_FORCE_DEBS=0 daemon_missing)
        [ ${#pkgs[@]} -eq 0 ] && return 0
    fi
    if [ "${CUZK_NO_APT:-0}" != 1 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing missing Debian packages for cuzkd: ${pkgs[*]}"
        if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}"; then
            return 0
        fi
    fi
    say "warning: cuzkd and the client commands will not be built: missing ${pkgs[*]}"
    say "  (install them, or run scripts/fetch-debs.sh where there is network and copy .deps/debs here)"
}

# ---- cuzkd's gRPC door (optional): gRPC's C core, protobuf-c, the test client
# (libgrpc-dev: pkg-config grpc; libprotobuf-c-dev + protoc-c generate the
# cuzk.v1 messages at build time; python3-grpcio is the tests' real client).
# Without them cuzkd builds without gRPC and says so.
grpc_missing() {
    command -v pkg-config >/dev/null 2>&1 || echo pkg-config
    [ "${CUZK_DEPS_FORCE_DEBS:-0}" != 1 ] && have_pc grpc || echo libgrpc-dev
    [ "${CUZK_DEPS_FORCE_DEBS:-0}" != 1 ] && have_pc libprotobuf-c || echo libprotobuf-c-dev
    command -v protoc-c >/dev/null 2>&1 || [ -x "$prefix/usr/bin/protoc-c" ] || echo protobuf-c-compiler
    /usr/bin/python3 -c 'import grpc, google.protobuf' >/dev/null 2>&1 || echo python3-grpcio
}

grpc_debs() {
    local pkgs
    mapfile -t pkgs < <(grpc_missing)
    [ ${#pkgs[@]} -eq 0 ] && return 0
    if [ "${CUZK_NO_APT:-0}" != 1 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing missing Debian packages for cuzkd's gRPC: ${pkgs[*]}"
        if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}"; then
            return 0
        fi
    fi
    say "warning: cuzkd will be built without gRPC (Curio's cuzk.v1), or its tests skipped:"
    say "  missing ${pkgs[*]} (install them; scripts/fetch-debs.sh also fetches them for offline machines)"
}

# ---- blst -----------------------------------------------------------------
integrity_of() {
    printf 'sha512-%s' "$(openssl dgst -sha512 -binary "$1" | base64 -w0)"
}

fetch_blst() {
    mkdir -p "$cache"
    local tgz="$cache/$BLST_TGZ"
    if [ -f "$tgz" ] && [ "$(integrity_of "$tgz")" = "$BLST_INTEGRITY" ]; then
        return 0
    fi
    rm -f "$tgz"
    command -v npm >/dev/null 2>&1 \
        || die "npm not found and $tgz is not cached: install npm or copy the checked tarball there"
    say "fetching $BLST_PKG with npm pack"
    (cd "$cache" && npm pack --silent "$BLST_PKG" >/dev/null 2>"$cache/npm.log") \
        || die "npm pack $BLST_PKG failed (network?): $(tail -n 3 "$cache/npm.log")"
    [ -f "$tgz" ] || die "npm pack did not produce $tgz"
    local got
    got=$(integrity_of "$tgz")
    if [ "$got" != "$BLST_INTEGRITY" ]; then
        mv "$tgz" "$tgz.rejected"
        die "checksum mismatch for $BLST_TGZ: expected $BLST_INTEGRITY, got $got (kept as $tgz.rejected)"
    fi
}

build_blst() {
    local dst="$build/deps/blst"
    if [ -f "$dst/libblst.a" ] && [ -f "$dst/.integrity" ] \
       && [ "$(cat "$dst/.integrity")" = "$BLST_INTEGRITY" ]; then
        return 0
    fi
    fetch_blst
    rm -rf "$dst" "$build/deps/blst-src"
    mkdir -p "$build/deps/blst-src" "$dst"
    tar -xzf "$cache/$BLST_TGZ" -C "$build/deps/blst-src" \
        || die "cannot unpack $cache/$BLST_TGZ"
    local src="$build/deps/blst-src/package/blst"
    [ -x "$src/build.sh" ] || chmod +x "$src/build.sh"
    say "building blst 0.3.10"
    (cd "$dst" && "$src/build.sh" >build.log 2>&1) \
        || die "blst build.sh failed, see $dst/build.log"
    mkdir -p "$dst/include"
    cp "$src/bindings/blst.h" "$src/bindings/blst_aux.h" "$dst/include/"
    printf '%s' "$BLST_INTEGRITY" >"$dst/.integrity"
}

daemon_debs
grpc_debs
install_debs
if [ -n "${BLST_DIR:-}" ]; then
    [ -f "$BLST_DIR/libblst.a" ] || die "BLST_DIR=$BLST_DIR has no libblst.a"
    say "using blst from BLST_DIR=$BLST_DIR"
else
    build_blst
    say "blst ready in $build/deps/blst"
fi
