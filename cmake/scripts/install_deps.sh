#!/usr/bin/env bash
# Installs the Debian packages strata's build and tests need, only those that
# are missing, and makes sure a deb-src entry exists so that third-party
# sources for the Windows cross build can be fetched with `apt-get source`.
#
# Usage: install_deps.sh [native|windows|all]
set -euo pipefail

what=${1:-all}

native_pkgs=(cmake ninja-build g++ ccache pkg-config googletest libgtest-dev
             libbenchmark-dev libsnappy-dev zlib1g-dev libjemalloc-dev
             liburing-dev  # the batched MultiGet's reads (io_uring)
             clang clang-format librocksdb-dev
             rocksdb-tools  # RocksDB's ldb and sst_dump, to compare outputs
             lld  # links the native test builds in a third of ld's time
             libclang-rt-14-dev)  # libFuzzer and the sanitizers of clang 14
windows_pkgs=(cmake ninja-build ccache dpkg-dev g++-mingw-w64-x86-64
              libz-mingw-w64-dev wine64 googletest autoconf make)

case "$what" in
  native) pkgs=("${native_pkgs[@]}") ;;
  windows) pkgs=("${windows_pkgs[@]}") ;;
  all) pkgs=("${native_pkgs[@]}" "${windows_pkgs[@]}") ;;
  *) echo "install_deps.sh: unknown set '$what' (native|windows|all)" >&2; exit 2 ;;
esac

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "install_deps.sh: need root (or sudo) to run: $*" >&2; exit 1
  fi
}

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    case " ${missing[*]-} " in *" $p "*) ;; *) missing+=("$p") ;; esac
  fi
done

need_src=0
if [ "$what" != native ] &&
   ! grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  need_src=1
fi

if [ "$need_src" -eq 1 ]; then
  echo "install_deps.sh: adding a deb-src entry for Debian $(. /etc/os-release; echo "$VERSION_CODENAME")"
  codename=$(. /etc/os-release; echo "$VERSION_CODENAME")
  as_root tee /etc/apt/sources.list.d/strata-deb-src.sources >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

if [ "${#missing[@]}" -gt 0 ] || [ "$need_src" -eq 1 ]; then
  echo "install_deps.sh: installing ${missing[*]-(source index only)}"
  as_root apt-get update -q
  if [ "${#missing[@]}" -gt 0 ]; then
    as_root env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
fi
