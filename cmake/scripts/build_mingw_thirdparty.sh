#!/usr/bin/env bash
# Cross-builds the third-party libraries of strata's Windows build with
# MinGW-w64, from Debian's sources:
#   snappy     apt-get source snappy      (CMake)
#   jemalloc   apt-get source jemalloc    (configure --host=x86_64-w64-mingw32
#                                          --with-jemalloc-prefix=je_)
#   googletest /usr/src/googletest        (package googletest)
#   benchmark  apt-get source benchmark   (CMake)
# zlib needs no build: Debian's libz-mingw-w64-dev provides it.
#
# Each library is installed into $STRATA_THIRDPARTY_DIR/<lib>/<version>, and
# <lib>/current points at it; thirdparty.inc's defaults read `current`. A
# version already built is not built again, so the cache survives between
# runs and build trees.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
toolchain=$root/cmake/mingw-w64-x86_64.cmake
dir=${STRATA_THIRDPARTY_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/strata/mingw-w64}
jobs=$(nproc 2>/dev/null || echo 2)
triple=x86_64-w64-mingw32

mkdir -p "$dir"

log() { echo "build_mingw_thirdparty: $*"; }

# The version `apt-get source` would fetch: the highest one listed.
source_version() {
  apt-cache showsrc "$1" 2>/dev/null | awk '/^Version:/ {print $2}' |
    sort -V | tail -n 1
}

# Runs "build_<lib> <src> <prefix>" unless <lib>/<version> is complete.
# $3, if given, is a source directory to use instead of `apt-get source`.
ensure() {
  local lib=$1 version=$2 local_src=${3:-}
  local prefix=$dir/$lib/$version
  if [ -f "$prefix/.complete" ]; then
    ln -sfn "$version" "$dir/$lib/current"
    log "$lib $version: cached"
    return
  fi
  log "$lib $version: building"
  local work
  work=$(mktemp -d "$dir/.work-$lib-XXXXXX")
  local src=$local_src
  if [ -z "$src" ]; then
    (cd "$work" && apt-get source -q "$lib=$version" >/dev/null 2>"$work/source.log") || {
      cat "$work/source.log" >&2
      log "apt-get source $lib=$version failed (is there a deb-src entry?)"
      exit 1
    }
    src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  fi
  rm -rf "$prefix.tmp"
  "build_$lib" "$src" "$prefix.tmp" "$work"
  touch "$prefix.tmp/.complete"
  rm -rf "$prefix"
  mv "$prefix.tmp" "$prefix"
  ln -sfn "$version" "$dir/$lib/current"
  rm -rf "$work"
  log "$lib $version: installed in $prefix"
}

cmake_build() {
  local src=$1 prefix=$2 work=$3
  shift 3
  cmake -S "$src" -B "$work/build" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" "$@" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log" >&2; exit 1; }
  cmake --build "$work/build" -j "$jobs" >"$work/build.log" 2>&1 ||
    { tail -n 50 "$work/build.log" >&2; exit 1; }
  cmake --install "$work/build" >/dev/null
}

build_snappy() {
  # Debian's patches add a static target next to the shared one, so build
  # "shared": that yields libsnappy.a as well, which is what strata links.
  cmake_build "$1" "$2" "$3" -DBUILD_SHARED_LIBS=ON \
    -DSNAPPY_BUILD_TESTS=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF
}

build_googletest() {
  cmake_build "$1" "$2" "$3" -DBUILD_GMOCK=ON -DBUILD_SHARED_LIBS=OFF
}

build_benchmark() {
  # The version normally comes from git tags, which a source package lacks.
  cmake_build "$1" "$2" "$3" -DBUILD_SHARED_LIBS=OFF \
    -DGIT_VERSION="$benchmark_upstream" -DBENCHMARK_ENABLE_TESTING=OFF \
    -DBENCHMARK_ENABLE_GTEST_TESTS=OFF -DBENCHMARK_ENABLE_WERROR=OFF \
    -DBENCHMARK_ENABLE_LTO=OFF
}

build_jemalloc() {
  local src=$1 prefix=$2 work=$3
  (
    cd "$src"
    ./configure --host=$triple --prefix="$prefix" \
      CC=$triple-gcc-posix CXX=$triple-g++-posix \
      --with-jemalloc-prefix=je_ --disable-cxx --disable-shared \
      EXTRA_CFLAGS="-g0" >"$work/configure.log" 2>&1 ||
      { tail -n 50 "$work/configure.log" >&2; exit 1; }
    make -j "$jobs" build_lib_static >"$work/build.log" 2>&1 ||
      { tail -n 50 "$work/build.log" >&2; exit 1; }
    make install_include install_lib_static >/dev/null 2>&1
  )
}

for tool in "$triple-g++-posix" cmake ninja apt-get; do
  command -v "$tool" >/dev/null || { log "missing $tool (run install_deps.sh)"; exit 1; }
done

ensure snappy "$(source_version snappy)"
ensure jemalloc "$(source_version jemalloc)"
gtest_version=$(dpkg-query -W -f='${Version}' googletest)
ensure googletest "$gtest_version" /usr/src/googletest
benchmark_version=$(source_version benchmark)
benchmark_upstream=${benchmark_version%%-*}
benchmark_upstream=${benchmark_upstream#*:}
ensure benchmark "$benchmark_version"
