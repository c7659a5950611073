# Google Benchmark microbenchmarks of the hot pieces (DESIGN §6). Run them
# with `./build.sh bench`; results are recorded in docs/benchmarks.md.

function(strata_add_benchmark name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE strata_internal strata_benchmark_main)
  strata_warnings(${name})
endfunction()

strata_add_benchmark(coding_bench test/bench/coding_bench.cc)
strata_add_benchmark(crc32c_bench test/bench/crc32c_bench.cc)
strata_add_benchmark(write_batch_bench test/bench/write_batch_bench.cc)
strata_add_benchmark(log_bench test/bench/log_bench.cc)
strata_add_benchmark(skiplist_bench test/bench/skiplist_bench.cc)
strata_add_benchmark(write_thread_bench test/bench/write_thread_bench.cc)
strata_add_benchmark(block_bench test/bench/block_bench.cc)
strata_add_benchmark(table_bench test/bench/table_bench.cc
                     test/table/table_test_util.cc)
strata_add_benchmark(bloom_bench test/bench/bloom_bench.cc)
strata_add_benchmark(cache_bench test/bench/cache_bench.cc)
strata_add_benchmark(compaction_picker_bench test/bench/compaction_picker_bench.cc)
strata_add_benchmark(range_del_bench test/bench/range_del_bench.cc)
