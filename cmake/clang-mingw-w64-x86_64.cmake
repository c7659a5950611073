# CMake toolchain file: cross-compile for 64-bit Windows with clang in
# MinGW mode (target x86_64-w64-mingw32) on a Debian host: a second Windows
# compiler beside GCC (cmake/mingw-w64-x86_64.cmake), for warnings and
# portability findings GCC does not give (docs/windows.md, "MSVC readiness").
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/clang-mingw-w64-x86_64.cmake ...
#
# Debian's clang does not find Debian's MinGW-w64 GCC on its own (its driver
# looks for libstdc++ under /usr/x86_64-w64-mingw32/include/c++, where Debian
# does not put it, and falls back to the host's /usr/include). So this file
# names the pieces: the MinGW-w64 headers and import libraries as the
# sysroot, and the C++ runtime (libstdc++, libgcc, winpthread) of
# g++-mingw-w64-x86-64-posix, the `-posix` thread model, the same runtime
# the GCC build links. lld links (clang's MinGW driver speaks its i386pep
# mode). As in the GCC build the runtime is linked statically and wine64 is
# the emulator, so `ctest` runs the test binaries under Wine.

# The GCC file's settings — system, find roots, wine64 as the emulator —
# with the compilers and flags replaced below.
include(${CMAKE_CURRENT_LIST_DIR}/mingw-w64-x86_64.cmake)

set(STRATA_MINGW_ROOT /usr/${STRATA_MINGW_TRIPLE})
set(CMAKE_C_COMPILER clang)
set(CMAKE_CXX_COMPILER clang++)
set(CMAKE_C_COMPILER_TARGET ${STRATA_MINGW_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${STRATA_MINGW_TRIPLE})
# The export check (cmake/scripts/check_exports.sh) reads GNU objdump's
# format; CMake would otherwise pick llvm-objdump beside clang.
set(CMAKE_OBJDUMP ${STRATA_MINGW_TRIPLE}-objdump)

# The posix thread model's GCC directory, e.g. .../x86_64-w64-mingw32/12-posix:
# its include/c++ holds libstdc++'s headers, and the directory itself
# libstdc++.a and libgcc.a.
file(GLOB _strata_gcc_dirs LIST_DIRECTORIES true
     /usr/lib/gcc/${STRATA_MINGW_TRIPLE}/*-posix)
list(SORT _strata_gcc_dirs COMPARE NATURAL ORDER DESCENDING)
list(GET _strata_gcc_dirs 0 STRATA_MINGW_GCC_DIR)
if(NOT IS_DIRECTORY "${STRATA_MINGW_GCC_DIR}/include/c++")
  message(FATAL_ERROR "no MinGW-w64 libstdc++ (posix threads) under "
                      "/usr/lib/gcc/${STRATA_MINGW_TRIPLE}: install "
                      "g++-mingw-w64-x86-64-posix")
endif()
set(_strata_cxx ${STRATA_MINGW_GCC_DIR}/include/c++)

# --sysroot as a flag, not CMAKE_SYSROOT: CMAKE_SYSROOT would also re-root
# every find_* call, and the third-party libraries live outside it.
# -femulated-tls: MinGW GCC implements thread_local through emutls, and
# libstdc++'s own thread-local variables (std::call_once's __once_callable)
# exist only in that form; clang's default, native TLS, names symbols the
# library does not have.
set(CMAKE_C_FLAGS_INIT "--sysroot=${STRATA_MINGW_ROOT} -pthread -femulated-tls")
set(CMAKE_CXX_FLAGS_INIT
    "--sysroot=${STRATA_MINGW_ROOT} -pthread -femulated-tls -nostdinc++ \
-isystem ${_strata_cxx} -isystem ${_strata_cxx}/${STRATA_MINGW_TRIPLE} \
-isystem ${_strata_cxx}/backward")

# -pthread links winpthread, which GCC's -posix driver adds by itself. A
# link also sees the compile flags above, -nostdinc++ among them, which
# clang would call unused there.
set(_strata_link "-fuse-ld=lld -static -pthread -L${STRATA_MINGW_GCC_DIR} \
-Wno-unused-command-line-argument")
# A program compiled by clang and linked with the static libstdc++ of GCC
# 12 defines std::type_info::operator== twice: clang emits the header's
# inline definition (when not inlined, as in the -O0 test code) and
# libstdc++.a's tinfo.o has it too, which lld calls a duplicate symbol. A
# clash of the two runtimes' conventions, not of strata's code, so the
# programs (not the DLLs) allow it; the GCC build links them strictly.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "${_strata_link} -Wl,--allow-multiple-definition")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${_strata_link}")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "${_strata_link}")
