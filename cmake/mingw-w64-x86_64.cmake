# CMake toolchain file: cross-compile for 64-bit Windows with MinGW-w64 on a
# Debian host, using the `-posix` thread model (std::thread, std::mutex).
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake ...
#
# The C++ runtime (libgcc, libstdc++, winpthread) is linked statically, so a
# test binary needs no MinGW DLL next to it. CMAKE_CROSSCOMPILING_EMULATOR is
# wine64, which makes `ctest` run the Windows test binaries under Wine.

set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(STRATA_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${STRATA_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${STRATA_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${STRATA_MINGW_TRIPLE}-windres)

# Libraries, headers and packages are searched for under the MinGW root
# and under any root the project adds, as on Linux: appended, so a
# -DCMAKE_FIND_ROOT_PATH=<prefix> on the command line is kept. Packages
# (find_package) are searched for in the roots and also in the host paths
# as given (BOTH), so -DCMAKE_PREFIX_PATH=<prefix> finds an installed
# strata — or any cross-built package — without naming its <pkg>_DIR.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/${STRATA_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-static")

# Debian installs wine64 outside PATH, in /usr/lib/wine.
find_program(STRATA_WINE64 NAMES wine64 wine
             HINTS /usr/lib/wine /usr/lib64/wine /opt/wine-stable/bin)
if(STRATA_WINE64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${STRATA_WINE64})
endif()
