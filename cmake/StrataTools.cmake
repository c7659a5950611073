# Tools built with the library: db_bench (tools/db_bench), RocksDB's
# db_bench command line and output over strata's public API.

# Everything but main() in a library, so that the unit tests reach the flag
# parser and the key generator.
add_library(db_bench_lib STATIC
  tools/db_bench/bench_options.cc
  tools/db_bench/flags.cc
  tools/db_bench/keys.cc
  tools/db_bench/read_workloads.cc
  tools/db_bench/report.cc
  tools/db_bench/transaction_sets.cc
  tools/db_bench/transaction_workloads.cc
  tools/db_bench/workloads.cc
  tools/db_bench/write_workloads.cc
)
# strata_internal: db_bench uses util/histogram.h, util/crc32c.h,
# util/random.h and port/ besides the public API.
target_link_libraries(db_bench_lib PUBLIC strata_internal)
target_compile_definitions(db_bench_lib PRIVATE
                           STRATA_VERSION_STRING="${PROJECT_VERSION}")
strata_warnings(db_bench_lib)

add_executable(db_bench tools/db_bench/main.cc)
target_link_libraries(db_bench PRIVATE db_bench_lib)
strata_warnings(db_bench)
# Not installed where it needs strata_testing.dll (a Windows shared build):
# the installed strata.dll exports the public API only.
if(NOT TARGET strata_testing OR NOT WIN32)
  install(TARGETS db_bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# ingest_bench (tools/ingest_bench): bulk loading through SstFileWriter +
# IngestExternalFile against Put (docs/benchmarks.md, "Bulk loading").
# Public API only; not run by ctest.
add_executable(ingest_bench tools/ingest_bench/main.cc)
target_link_libraries(ingest_bench PRIVATE strata)
strata_warnings(ingest_bench)

# db_stress (tools/db_stress): random concurrent operations checked against
# an expected state that survives crashes; tools/db_crashtest.py kills and
# restarts it. The fault-injection Env (test/util) simulates power loss.
add_library(db_stress_lib STATIC
  test/util/fault_injection_env.cc
  tools/db_stress/crash.cc
  tools/db_stress/expected_state.cc
  tools/db_stress/stress_flags.cc
  tools/db_stress/stress_reads.cc
  tools/db_stress/stress_test.cc
  tools/db_stress/stress_writes.cc
  tools/db_stress/values.cc
)
target_link_libraries(db_stress_lib PUBLIC strata_internal)
strata_warnings(db_stress_lib)

add_executable(db_stress tools/db_stress/main.cc)
target_link_libraries(db_stress PRIVATE db_stress_lib)
strata_warnings(db_stress)

# sst_dump (tools/sst_dump): RocksDB's sst_dump for strata's table files.
# Everything but main() in a library, so that a unit test can reach it.
add_library(sst_dump_lib STATIC
  tools/sst_dump/properties.cc
  tools/sst_dump/raw_dump.cc
  tools/sst_dump/recompress.cc
  tools/sst_dump/run.cc
  tools/sst_dump/scan.cc
  tools/sst_dump/sst_flags.cc
  tools/sst_dump/table_file.cc
)
# strata_internal: sst_dump reads table files block by block (table/,
# env/file_reader.h, db/dbformat.h).
target_link_libraries(sst_dump_lib PUBLIC strata_internal)
strata_warnings(sst_dump_lib)

add_executable(sst_dump tools/sst_dump/main.cc)
target_link_libraries(sst_dump PRIVATE sst_dump_lib)
strata_warnings(sst_dump)
if(NOT TARGET strata_testing OR NOT WIN32)
  install(TARGETS sst_dump RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# strata_inspect (tools/inspect): what ldb's file-level commands print
# (manifest_dump, dump_wal, idump), read from the DB's files directly
# through the Env with the engine's own readers, without opening the DB.
add_library(strata_inspect STATIC
  tools/inspect/internal_dump.cc
  tools/inspect/log_file.cc
  tools/inspect/manifest_dump.cc
  tools/inspect/manifest_state.cc
  tools/inspect/print.cc
  tools/inspect/wal_dump.cc
)
target_link_libraries(strata_inspect PUBLIC strata_internal)
strata_warnings(strata_inspect)

# ldb (tools/ldb): RocksDB ldb's command line and output formats over
# strata's public API. Everything but main() in a library, for the tests.
add_library(ldb_lib STATIC
  tools/ldb/admin_commands.cc
  tools/ldb/command_line.cc
  tools/ldb/command_table.cc
  tools/ldb/data_commands.cc
  tools/ldb/dump_load.cc
  tools/ldb/family_commands.cc
  tools/ldb/file_commands.cc
  tools/ldb/format.cc
  tools/ldb/invocation.cc
  tools/ldb/ldb_tool.cc
  tools/ldb/value_size_histogram.cc
)
# The public API, and for the commands that read files themselves
# (idump, manifest_dump, dump_wal, dump --path) the inspection library and
# sst_dump's table reader, hence strata_internal.
target_link_libraries(ldb_lib PUBLIC strata_inspect sst_dump_lib
                      strata_internal)
strata_warnings(ldb_lib)

add_executable(ldb tools/ldb/main.cc)
target_link_libraries(ldb PRIVATE ldb_lib)
strata_warnings(ldb)
if(NOT TARGET strata_testing OR NOT WIN32)
  install(TARGETS ldb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
