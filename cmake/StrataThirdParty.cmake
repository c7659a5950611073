# Finds the libraries strata links (threads, snappy, zlib, jemalloc,
# liburing) and the ones its tests and benchmarks use (GoogleTest, Google
# Benchmark).
#
# On Windows the locations come from thirdparty.inc (<LIB>_INCLUDE,
# <LIB>_LIB_DEBUG, <LIB>_LIB_RELEASE); elsewhere from find_package and
# pkg-config. Defines:
#   strata_link_thirdparty(target)   links the enabled libraries into target
#   STRATA_CONFIG_DEPENDENCIES       find_dependency() calls for the package
#   STRATA_PC_LIBS_PRIVATE           Libs.private of strata.pc
#   STRATA_PC_REQUIRES_PRIVATE       Requires.private of strata.pc
#   strata_gtest, strata_gtest_main, strata_benchmark, strata_benchmark_main
#                                    targets for tests and benchmarks

set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)

set(STRATA_CONFIG_DEPENDENCIES "find_dependency(Threads)\n")
set(STRATA_PC_LIBS_PRIVATE "")
set(STRATA_PC_REQUIRES_PRIVATE "")
if(NOT WIN32)
  set(STRATA_PC_LIBS_PRIVATE "-lpthread")
endif()

# The library of one thirdparty.inc entry, per configuration.
function(strata_windows_lib var prefix)
  set(${var}
      "$<$<CONFIG:Debug>:${${prefix}_LIB_DEBUG}>$<$<NOT:$<CONFIG:Debug>>:${${prefix}_LIB_RELEASE}>"
      PARENT_SCOPE)
endfunction()

# An imported static library from a thirdparty.inc entry.
function(strata_windows_import name prefix)
  add_library(${name} STATIC IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES
    IMPORTED_LOCATION "${${prefix}_LIB_RELEASE}"
    IMPORTED_LOCATION_DEBUG "${${prefix}_LIB_DEBUG}"
    INTERFACE_INCLUDE_DIRECTORIES "${${prefix}_INCLUDE}")
endfunction()

function(strata_require_file what path)
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR
      "strata: ${what} not found at '${path}'. Run ./build.sh deps (it "
      "cross-builds the Windows libraries) or point the variable at it; see "
      "thirdparty.inc.")
  endif()
endfunction()

set(_strata_libs Threads::Threads)
set(_strata_includes "")
set(_strata_defs "")

if(STRATA_WITH_SNAPPY)
  if(WIN32)
    strata_require_file(SNAPPY_LIB_RELEASE "${SNAPPY_LIB_RELEASE}")
    strata_windows_lib(_lib SNAPPY)
    list(APPEND _strata_libs "${_lib}")
    list(APPEND _strata_includes "${SNAPPY_INCLUDE}")
    string(APPEND STRATA_PC_LIBS_PRIVATE " ${SNAPPY_LIB_RELEASE}")
  else()
    find_package(Snappy CONFIG QUIET)
    if(NOT Snappy_FOUND)
      message(FATAL_ERROR "strata: snappy not found (apt-get install "
                          "libsnappy-dev, or -DSTRATA_WITH_SNAPPY=OFF)")
    endif()
    list(APPEND _strata_libs Snappy::snappy)
    string(APPEND STRATA_CONFIG_DEPENDENCIES "find_dependency(Snappy CONFIG)\n")
    string(APPEND STRATA_PC_LIBS_PRIVATE " -lsnappy")
  endif()
  list(APPEND _strata_defs STRATA_HAVE_SNAPPY)
endif()

if(STRATA_WITH_ZLIB)
  if(WIN32)
    strata_require_file(ZLIB_LIB_RELEASE "${ZLIB_LIB_RELEASE}")
    strata_windows_lib(_lib ZLIB)
    list(APPEND _strata_libs "${_lib}")
    list(APPEND _strata_includes "${ZLIB_INCLUDE}")
    string(APPEND STRATA_PC_LIBS_PRIVATE " ${ZLIB_LIB_RELEASE}")
  else()
    find_package(ZLIB QUIET)
    if(NOT ZLIB_FOUND)
      message(FATAL_ERROR "strata: zlib not found (apt-get install zlib1g-dev, "
                          "or -DSTRATA_WITH_ZLIB=OFF)")
    endif()
    list(APPEND _strata_libs ZLIB::ZLIB)
    string(APPEND STRATA_CONFIG_DEPENDENCIES "find_dependency(ZLIB)\n")
    string(APPEND STRATA_PC_LIBS_PRIVATE " -lz")
  endif()
  list(APPEND _strata_defs STRATA_HAVE_ZLIB)
endif()

if(STRATA_WITH_JEMALLOC)
  if(WIN32)
    strata_require_file(JEMALLOC_LIB_RELEASE "${JEMALLOC_LIB_RELEASE}")
    strata_windows_lib(_lib JEMALLOC)
    list(APPEND _strata_libs "${_lib}")
    list(APPEND _strata_includes "${JEMALLOC_INCLUDE}")
    string(APPEND STRATA_PC_LIBS_PRIVATE " ${JEMALLOC_LIB_RELEASE}")
  else()
    find_package(PkgConfig QUIET)
    if(PkgConfig_FOUND)
      pkg_check_modules(JEMALLOC QUIET jemalloc)
    endif()
    if(NOT JEMALLOC_FOUND)
      message(FATAL_ERROR "strata: jemalloc not found (apt-get install "
                          "libjemalloc-dev, or -DSTRATA_WITH_JEMALLOC=OFF)")
    endif()
    list(APPEND _strata_libs ${JEMALLOC_LINK_LIBRARIES})
    list(APPEND _strata_includes ${JEMALLOC_INCLUDE_DIRS})
    string(APPEND STRATA_PC_LIBS_PRIVATE " -ljemalloc")
  endif()
  list(APPEND _strata_defs STRATA_HAVE_JEMALLOC)
endif()

if(STRATA_WITH_LIBURING)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND AND NOT TARGET PkgConfig::LIBURING)
    pkg_check_modules(LIBURING QUIET IMPORTED_TARGET liburing)
  endif()
  if(NOT TARGET PkgConfig::LIBURING)
    message(FATAL_ERROR "strata: liburing not found (apt-get install "
                        "liburing-dev, or -DSTRATA_WITH_LIBURING=OFF)")
  endif()
  list(APPEND _strata_libs PkgConfig::LIBURING)
  # A static strata's users link liburing too: the package finds it again.
  string(APPEND STRATA_CONFIG_DEPENDENCIES
    "find_dependency(PkgConfig)\n"
    "pkg_check_modules(LIBURING REQUIRED IMPORTED_TARGET liburing)\n")
  set(STRATA_PC_REQUIRES_PRIVATE "liburing")
  list(APPEND _strata_defs STRATA_HAVE_LIBURING)
endif()

function(strata_link_thirdparty target)
  # PRIVATE: a static strata carries them as link-only dependencies.
  target_link_libraries(${target} PRIVATE ${_strata_libs})
  target_include_directories(${target} SYSTEM PRIVATE ${_strata_includes})
  target_compile_definitions(${target} PRIVATE ${_strata_defs})
  if(WIN32)
    # Wide-character file APIs only; no ANSI variants. The headers declare
    # only what Windows 8 has, strata's minimum (docs/windows.md).
    target_compile_definitions(${target} PRIVATE UNICODE _UNICODE
                               _WIN32_WINNT=0x0602 WINVER=0x0602)
  endif()
endfunction()

# ---- For tests and benchmarks -------------------------------------------------

if(STRATA_BUILD_TESTS)
  if(WIN32)
    strata_require_file(GTEST_LIB_RELEASE "${GTEST_LIB_RELEASE}")
    strata_windows_import(strata_gtest GTEST)
    strata_windows_import(strata_gtest_main GTEST_MAIN)
    set_target_properties(strata_gtest PROPERTIES
      INTERFACE_LINK_LIBRARIES Threads::Threads)
    set_target_properties(strata_gtest_main PROPERTIES
      INTERFACE_LINK_LIBRARIES strata_gtest)
  else()
    find_package(GTest REQUIRED)
    add_library(strata_gtest INTERFACE)
    target_link_libraries(strata_gtest INTERFACE GTest::gtest)
    add_library(strata_gtest_main INTERFACE)
    target_link_libraries(strata_gtest_main INTERFACE GTest::gtest_main)
  endif()
endif()

if(STRATA_BUILD_BENCHMARKS)
  if(WIN32)
    strata_require_file(BENCHMARK_LIB_RELEASE "${BENCHMARK_LIB_RELEASE}")
    strata_windows_import(strata_benchmark BENCHMARK)
    strata_windows_import(strata_benchmark_main BENCHMARK_MAIN)
    set_target_properties(strata_benchmark PROPERTIES
      INTERFACE_COMPILE_DEFINITIONS BENCHMARK_STATIC_DEFINE
      INTERFACE_LINK_LIBRARIES "shlwapi;Threads::Threads")
    set_target_properties(strata_benchmark_main PROPERTIES
      INTERFACE_LINK_LIBRARIES strata_benchmark)
  else()
    find_package(benchmark REQUIRED)
    add_library(strata_benchmark INTERFACE)
    target_link_libraries(strata_benchmark INTERFACE benchmark::benchmark)
    add_library(strata_benchmark_main INTERFACE)
    target_link_libraries(strata_benchmark_main INTERFACE
                          benchmark::benchmark_main)
  endif()
endif()
