#!/usr/bin/env bash
# strata's build entry point. The README's two commands:
#
#   ./build.sh bench   the main job: a release build, then db_bench on its
#                      default workload (fillseq, fillrandom, readrandom,
#                      readseq, seekrandom on 1 M keys in a temp directory);
#                      arguments go to db_bench (e.g. --num=100000)
#   ./build.sh test    every test: native (ASan + UBSan, then TSan), a clang
#                      build that checks the locking annotations and the
#                      shared library, every fuzz target for 30 s (fuzz
#                      below), the Windows cross builds (static and
#                      strata.dll) with every suite under Wine, and
#                      strata.dll built by clang in MinGW mode
#
# Both install what is missing first (Debian packages with apt-get; the
# Windows third-party libraries cross-built from Debian sources, cached in
# ~/.cache/strata). Other commands:
#
#   ./build.sh microbench     a release build, then the Google Benchmark
#                             microbenchmarks
#   ./build.sh deps           install and cross-build dependencies only
#   ./build.sh format-check   clang-format conformance of the sources
#   ./build.sh fuzz [seconds] [target...]
#                             a clang build of the libFuzzer targets in
#                             fuzz/ (build/fuzz), seed corpora written from
#                             a real DB, then each target (or those named)
#                             for that many seconds (default 60), JOBS at
#                             a time; fails if any finds a crash, leak or
#                             UB.
#                             `test` runs it for 60 s after the clang
#                             checks. Corpora grow in build/fuzz/fuzz/corpus.
#
# Environment: BUILD_ROOT (default ./build), JOBS (default: all cores),
# STRATA_THIRDPARTY_DIR, STRATA_WINEPREFIX.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_root=${BUILD_ROOT:-$root/build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/strata
scripts=$root/cmake/scripts

export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
# Paths under the checkout are hashed relative to it, so a fresh clone in
# another directory still hits the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
# Nor is the build directory hashed (ccache does by default when compiling
# with -g), and six configurations need more than the default 5 GB.
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-12G}
export STRATA_THIRDPARTY_DIR=${STRATA_THIRDPARTY_DIR:-$cache/mingw-w64}

# Each step line says how far into the run it starts (minutes:seconds), so
# a CI log shows where the time goes.
step() { printf '\n==== [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

# The native test builds link with lld: ~60 test and tool binaries, each
# linked in a third of the time GNU ld takes with the sanitizers' runtimes.
native_linker=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld
               -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld)

configure() {  # configure <build-dir> <cmake args...>
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
}

run_ctest() {  # run_ctest <build-dir> [ctest args...]
  local dir=$1
  shift
  (cd "$dir" && ctest --output-on-failure -j "$jobs" "$@")
}

deps() {
  step "dependencies"
  "$scripts/install_deps.sh" "${1:-all}"
  if [ "${1:-all}" != native ]; then
    "$scripts/build_mingw_thirdparty.sh"
  fi
}

# The sanitizer builds keep line tables only (-g1): their reports name
# file and line, and the compile is about a tenth shorter than with -g.
sanitizer_debug=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1
                 -DCMAKE_C_FLAGS_DEBUG=-g1)

native_tests() {
  step "native build (ASan + UBSan)"
  local dir=$build_root/asan
  mkdir -p "$build_root"
  configure "$dir" "${sanitizer_debug[@]}" "-DSTRATA_SANITIZE=address;undefined" \
    -DSTRATA_BUILD_BENCHMARKS=OFF -DSTRATA_WITH_LIBURING=ON "${native_linker[@]}"
  cmake --build "$dir" -j "$jobs"
  step "native tests"
  # Where the kernel lets everyone have an io_uring, the batched-read
  # tests must find one (test/util/read_ring.h).
  if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null)" = 0 ]; then
    export STRATA_TEST_REQUIRE_RING=1
  fi
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 run_ctest "$dir"
}

tsan_tests() {
  step "native build (ThreadSanitizer)"
  local dir=$build_root/tsan
  mkdir -p "$build_root"
  # Also the build without codecs: its tests check that asking for snappy
  # or zlib says NotSupported and that everything else still works. And
  # without liburing: a batch's reads then go one by one, alike.
  configure "$dir" "${sanitizer_debug[@]}" -DSTRATA_SANITIZE=thread \
    -DSTRATA_BUILD_BENCHMARKS=OFF -DSTRATA_WITH_SNAPPY=OFF -DSTRATA_WITH_ZLIB=OFF \
    -DSTRATA_WITH_LIBURING=OFF "${native_linker[@]}"
  cmake --build "$dir" -j "$jobs"
  step "native tests under ThreadSanitizer"
  # Left to the ASan run: the byte-flip and I/O-fault sweeps (one
  # single-writer workload under hundreds of faults), the crash-test
  # scripts (db_stress killed at random points; db_stress_tsan runs it
  # here without kills) and the tools' golden-output and RocksDB-comparison
  # scripts. Under TSan they would add minutes for little: the other suites
  # run the same background threads. So are the slowest single-threaded
  # cases (a table's every bit flipped, MultiGet against Get over a random
  # DB, a cache of 2^19 shards), and half the configurations of the
  # randomized model tests, whose only threads are the background ones
  # every configuration has.
  local single='TableCorruptionTest[.]|DBMultiGetTest[.]MatchesSingleGets'
  single+='|NewLRUCacheTest[.]PicksShardBitsFromCapacity'
  single+='|DBModelTest[.]RandomOperations/(DynamicLevels|DirectReadsOptions|NoAdaptiveYield|MemEnv)'
  single+='|DBMemTableRepModelTest[.]RandomOperations/(VectorReserved|InplaceVector|VectorTinyMemtables)'
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    run_ctest "$dir" -LE "install|byteflip|fault|tools|compare" \
    -E "^db_crashtest[.]|$single"
}

clang_checks() {
  # clang's -Wthread-safety checks every GUARDED_BY / EXCLUSIVE_LOCKS_REQUIRED
  # (STYLE §3); this configuration also builds strata as a shared library
  # and has an outside project link it through find_package and pkg-config.
  # The Google Benchmark microbenchmarks are compiled here too (they run
  # no test; `./build.sh microbench` runs them).
  step "clang build: thread-safety analysis, shared library, microbenchmarks"
  local dir=$build_root/clang-shared
  mkdir -p "$build_root"
  # -O1: nothing built here is timed, and the analysis and the exports do
  # not depend on the optimization level.
  CC=clang CXX=clang++ configure "$dir" -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG" \
    -DBUILD_SHARED_LIBS=ON \
    -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCHMARKS=ON "${native_linker[@]}"
  cmake --build "$dir" -j "$jobs"
  CXX=clang++ cmake -DSTRATA_BUILD_DIR="$dir" \
    -DSTRATA_CONSUMER_SOURCE="$root/test/install_consumer" \
    -DSTRATA_WORK_DIR="$dir/install_check" -DSTRATA_GENERATOR=Ninja \
    -DSTRATA_BUILD_TYPE=Release -P "$root/cmake/InstallCheck.cmake"
}

# fuzz_run <build-dir> <target> <seconds>: one target, on its seeds and
# the corpus earlier runs grew; prints one line of results, and on a
# finding the end of libFuzzer's report and the input that made it.
fuzz_run() {
  local dir=$1/fuzz fuzzer=$2 seconds=$3
  local corpus=$dir/corpus/$fuzzer log=$dir/logs/$fuzzer.log
  local artifacts=$dir/artifacts/$fuzzer/
  mkdir -p "$corpus" "$artifacts" "$dir/logs"
  local rc=0
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$dir/$fuzzer" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
    -print_final_stats=1 -dict="$dir/$fuzzer.dict" \
    -artifact_prefix="$artifacts" "$corpus" "$dir/seeds/$fuzzer" \
    >"$log" 2>&1 || rc=$?
  local last runs
  last=$(grep -E '^#[0-9]+.*cov:' "$log" | tail -1 |
    sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/cov \1, ft \2, corpus \3/')
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
  printf '%-22s %4ss  %10s runs  %s' "$fuzzer" "$seconds" "${runs:-?}" "$last"
  if [ "$rc" -eq 0 ]; then
    echo "  ok"
    return 0
  fi
  echo "  FAILED (exit $rc; log $log)"
  grep -E -A40 '^==[0-9]+==ERROR|runtime error|^fuzz harness|deadly signal' \
    "$log" | head -60
  ls "$artifacts"
  return 1
}

fuzz() {
  local seconds=${1:-60}
  shift || true
  local dir=$build_root/fuzz
  step "fuzz build (clang: libFuzzer, ASan + UBSan)"
  mkdir -p "$build_root"
  CC=clang CXX=clang++ configure "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
    -DSTRATA_BUILD_FUZZERS=ON -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCHMARKS=OFF \
    -DSTRATA_BUILD_TOOLS=OFF "${native_linker[@]}"
  cmake --build "$dir" -j "$jobs"
  step "fuzz seeds"
  "$dir/fuzz/make_seeds" "$dir/fuzz/seeds"
  # The targets run $jobs at a time (each is one process); their summary
  # lines are printed in order when all are done.
  local fuzzer failed=0 running=0
  local summaries=$dir/fuzz/summaries
  local targets
  targets=$(cat "$dir/fuzz/fuzzers.txt")
  if [ $# -gt 0 ]; then
    for fuzzer in "$@"; do
      grep -qx "$fuzzer" "$dir/fuzz/fuzzers.txt" ||
        { echo "no fuzz target $fuzzer (fuzz/): $targets" >&2; return 2; }
    done
    targets="$*"
  fi
  mkdir -p "$summaries"
  step "fuzzing, ${seconds}s per target, $jobs at a time"
  for fuzzer in $targets; do
    if [ "$running" -ge "$jobs" ]; then
      wait -n || true
      running=$((running - 1))
    fi
    rm -f "$summaries/$fuzzer.failed"
    { fuzz_run "$dir" "$fuzzer" "$seconds" >"$summaries/$fuzzer" 2>&1 ||
      touch "$summaries/$fuzzer.failed"; } &
    running=$((running + 1))
  done
  wait
  for fuzzer in $targets; do
    cat "$summaries/$fuzzer"
    [ ! -e "$summaries/$fuzzer.failed" ] || failed=1
  done
  return "$failed"
}

wine_setup() {
  export WINEPREFIX=${STRATA_WINEPREFIX:-$cache/wine}
  export WINEDEBUG=-all
  # No Mono or Gecko: nothing here needs them, and there is no network to
  # fetch them.
  export WINEDLLOVERRIDES="mscoree=d;mshtml=d"
  local wine=/usr/lib/wine/wine64
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    "$wine" wineboot -i >/dev/null 2>&1 || true
  fi
  # One wineserver for the whole run, started here with its output
  # elsewhere: one started by a test would hold that test's output pipe
  # open, and ctest would charge the test until the server exits.
  /usr/lib/wine/wineserver -p >/dev/null 2>&1 </dev/null || true
  "$wine" cmd /c exit >/dev/null 2>&1 || true
}

# windows_tests <build-dir> <what> [--only <ctest-regex> <target>...] --
#   <cmake args...>: a MinGW-w64 cross build whose suites run under Wine;
# with --only, just the named targets are built and the tests matching the
# regex run.
windows_tests() {
  local dir=$build_root/$1 what=$2
  shift 2
  local only="" targets=()
  if [ "${1:-}" = --only ]; then
    only=$2
    shift 2
    while [ "$1" != -- ]; do
      targets+=(--target "$1")
      shift
    done
  fi
  [ "${1:-}" != -- ] || shift
  step "Windows cross build, $what (MinGW-w64)"
  mkdir -p "$build_root"
  # The library is built as released (-O3); the test code at -O0, which
  # halves its compile time (cmake/StrataTests.cmake).
  configure "$dir" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DSTRATA_WITH_JEMALLOC=ON \
    -DSTRATA_TEST_COMPILE_OPTIONS=-O0 "$@"
  cmake --build "$dir" -j "$jobs" "${targets[@]}"
  step "Windows tests under Wine, $what"
  wine_setup
  local select=()
  [ -z "$only" ] || select=(-R "$only")
  run_ctest "$dir" "${select[@]}" && return 0
  # Wine now and then fails to start a process: exit status 1, no output,
  # within milliseconds (docs/windows.md). The failed tests run once more;
  # one that fails again fails the build.
  step "Windows tests under Wine, $what: the failed tests once more"
  run_ctest "$dir" --rerun-failed
}

wine_stop() { /usr/lib/wine/wineserver -k >/dev/null 2>&1 || true; }

# A second Windows compiler: strata.dll built by clang in MinGW mode under
# strata's warnings and -Werror, which stand in for part of what an MSVC
# build would check (docs/windows.md, "MSVC readiness"). The library only:
# the test programs built by clang were run by hand (recorded there). -O1:
# the warnings do not depend on the optimization level.
windows_clang_check() {
  step "Windows cross build with clang (MinGW mode): strata.dll, -Werror"
  local dir=$build_root/windows-clang
  mkdir -p "$build_root"
  configure "$dir" \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/clang-mingw-w64-x86_64.cmake" \
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG" -DBUILD_SHARED_LIBS=ON \
    -DSTRATA_BUILD_TESTS=OFF -DSTRATA_BUILD_BENCHMARKS=OFF
  cmake --build "$dir" -j "$jobs" --target strata
}

release_build() {
  step "release build"
  local dir=$build_root/release
  mkdir -p "$build_root"
  configure "$dir" -DCMAKE_BUILD_TYPE=Release -DSTRATA_BUILD_TESTS=OFF
  cmake --build "$dir" -j "$jobs"
}

db_bench() {
  release_build
  step "db_bench"
  "$build_root/release/db_bench" "$@"
}

microbenchmarks() {
  release_build
  local dir=$build_root/release
  step "microbenchmarks"
  for bench in crc32c_bench coding_bench skiplist_bench write_batch_bench \
      log_bench write_thread_bench block_bench bloom_bench cache_bench \
      table_bench; do
    "$dir/$bench" --benchmark_min_time=0.2 "$@"
  done
}

format_check() {
  step "clang-format"
  local files
  files=$(cd "$root" && { git ls-files '*.h' '*.cc' '*.c' 2>/dev/null ||
    find include util port env test -name '*.h' -o -name '*.cc' -o -name '*.c'; })
  (cd "$root" && clang-format --dry-run -Werror $files)
  echo "all $(echo "$files" | wc -l) files formatted"
}

cmd=${1:-}
shift || true
case "$cmd" in
  test)
    deps all
    format_check
    native_tests
    tsan_tests
    clang_checks
    # 30 s a target keeps the whole run inside CI's time; the long runs
    # are recorded in docs/reliability.md.
    fuzz 30
    # Every suite runs against strata.dll (the tests link a DLL of the same
    # objects that exports everything, CMakeLists.txt). The static build
    # runs what linking differs in: jemalloc replacing operator new
    # (port_test), thread-local cleanup without DllMain (util_test), the
    # Env, one whole-DB suite, the rate limiter and compaction readahead
    # through a DB, the C API, a RocksDB-shaped program and the installed
    # package (with the tools it installs).
    windows_tests windows-dll "strata.dll" -- -DBUILD_SHARED_LIBS=ON \
      -DSTRATA_BUILD_BENCHMARKS=OFF
    windows_tests windows "static library, smoke suites" \
      --only '^(port_test|util_test|env_test|db_engine_test|db_io_limits_test|c_api_test|api_compat_operations|install_consumer)$' \
      strata db_bench ldb sst_dump port_test util_test env_test \
      db_engine_test db_io_limits_test c_api_test api_compat_operations \
      -- -DSTRATA_BUILD_BENCHMARKS=OFF
    wine_stop
    windows_clang_check
    step "all tests passed"
    ;;
  bench)
    deps native
    db_bench "$@"
    ;;
  microbench)
    deps native
    microbenchmarks "$@"
    ;;
  deps)
    deps "${1:-all}"
    ;;
  format-check)
    format_check
    ;;
  fuzz)
    deps native
    fuzz "$@"
    ;;
  *)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 2
    ;;
esac
