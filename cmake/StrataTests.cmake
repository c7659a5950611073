# GoogleTest suites, one binary per tree (test/util, test/port, test/env).
#
# Natively each test case is its own ctest entry (gtest_discover_tests).
# Cross-compiled for Windows, each binary is one entry run under Wine
# (CMAKE_CROSSCOMPILING_EMULATOR): a Wine process start costs seconds.

include(GoogleTest)

# Extra compile options of the test code alone (the library keeps the build
# type's): the Windows builds of ./build.sh test pass -O0, since the test
# binaries' optimization costs compile time and buys nothing there.
set(STRATA_TEST_COMPILE_OPTIONS "" CACHE STRING
    "Compile options added to the test binaries and their helpers")

add_library(strata_testutil STATIC
  test/util/fault_injection_env.cc
  test/util/subprocess.cc
  test/util/temp_dir.cc
  test/util/test_main.cc
)
target_link_libraries(strata_testutil PUBLIC strata_internal strata_gtest)
if(WIN32)
  target_link_libraries(strata_testutil PUBLIC shell32)  # CommandLineToArgvW
endif()
target_include_directories(strata_testutil PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(strata_testutil PRIVATE ${STRATA_TEST_COMPILE_OPTIONS})
strata_warnings(strata_testutil)

# strata_add_test(name [LABELS l] SOURCES s...): natively each case is
# labelled l or else unit; under Wine the binary is labelled windows and l.
function(strata_add_test name)
  cmake_parse_arguments(ARG "" "" "LABELS;SOURCES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE strata_testutil)
  target_compile_options(${name} PRIVATE ${STRATA_TEST_COMPILE_OPTIONS})
  if(STRATA_UNITY_TESTS)
    # The suites' files share the GoogleTest headers, whose parsing is most
    # of their compile time: batches of them compile as one. The helpers
    # of a binary's files, file-local as they are, need distinct names.
    set_target_properties(${name} PROPERTIES
      UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  strata_warnings(${name})
  if(CMAKE_CROSSCOMPILING)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES
      LABELS "windows;${ARG_LABELS}"
      TIMEOUT 600
      ENVIRONMENT "WINEDEBUG=-all")
  else()
    # One label per case: gtest_discover_tests flattens PROPERTIES, so a
    # list of labels would be read as further property names.
    set(_label unit)
    if(ARG_LABELS)
      set(_label ${ARG_LABELS})
    endif()
    gtest_discover_tests(${name}
      DISCOVERY_TIMEOUT 120
      PROPERTIES LABELS ${_label} TIMEOUT 300)
  endif()
endfunction()

strata_add_test(util_test SOURCES
  test/util/aligned_buffer_test.cc
  test/util/arena_test.cc
  test/util/coding_test.cc
  test/util/crc32c_test.cc
  test/util/hash_test.cc
  test/util/histogram_test.cc
  test/util/logging_test.cc
  test/util/pinnable_slice_test.cc
  test/util/random_test.cc
  test/util/rate_limiter_test.cc
  test/util/slice_test.cc
  test/util/statistics_test.cc
  test/util/status_test.cc
  test/util/thread_local_test.cc
  test/util/write_buffer_manager_test.cc
)

set(_port_tests test/port/port_test.cc)
if(WIN32)
  list(APPEND _port_tests test/port/thread_name_win_test.cc)
endif()
if(WIN32 AND STRATA_WITH_JEMALLOC)
  list(APPEND _port_tests test/port/jemalloc_test.cc)
endif()
strata_add_test(port_test SOURCES ${_port_tests})
if(WIN32 AND STRATA_WITH_JEMALLOC)
  target_include_directories(port_test SYSTEM PRIVATE ${JEMALLOC_INCLUDE})
  if(NOT BUILD_SHARED_LIBS)
    # Static: operator new goes to jemalloc, which the test inspects.
    target_compile_definitions(port_test PRIVATE STRATA_JEMALLOC_NEW_DELETE)
  endif()
endif()

set(_env_tests)
if(WIN32)
  list(APPEND _env_tests test/env/exit_join_win_test.cc)
endif()
strata_add_test(env_test SOURCES ${_env_tests}
  test/env/env_contract_test.cc
  test/env/env_error_test.cc
  test/env/env_logger_test.cc
  test/env/fault_injection_env_test.cc
  test/env/io_limits_test.cc
  test/env/file_reader_test.cc
  test/env/file_writer_test.cc
  test/env/lock_process_test.cc
  test/env/owned_handle_test.cc
  test/env/platform_io_test.cc
  test/env/thread_pool_test.cc
  test/env/win_dir_test.cc
)
if(WIN32)
  target_sources(env_test PRIVATE test/env/win_overlapped_read_test.cc)
endif()
target_sources(env_test PRIVATE test/env/multi_read_test.cc)
target_compile_definitions(env_test PRIVATE
  STRATA_TEST_WITH_LIBURING=$<BOOL:${STRATA_WITH_LIBURING}>)

# db_bench (cmake/StrataTools.cmake): its flag parser, key generator and
# column-family spread, then every benchmark run briefly (natively and
# under Wine), with direct I/O off and on and on four column families, and
# the errors of a bad command line.
if(STRATA_BUILD_TOOLS)
  strata_add_test(db_bench_test SOURCES
    test/tools/db_bench_families_test.cc
    test/tools/db_bench_flags_test.cc
    test/tools/db_bench_io_limits_test.cc
    test/tools/db_bench_keys_test.cc
    test/tools/db_bench_transaction_test.cc
  )
  target_link_libraries(db_bench_test PRIVATE db_bench_lib)

  set(_db_bench_work ${CMAKE_CURRENT_BINARY_DIR}/db_bench_smoke)
  file(MAKE_DIRECTORY ${_db_bench_work})
  function(strata_db_bench_test name args)
    cmake_parse_arguments(ARG "" "EXPECT;EXPECT_ERROR" "" ${ARGN})
    set(_check)
    if(DEFINED ARG_EXPECT_ERROR)
      set(_check -DEXPECT_ERROR=${ARG_EXPECT_ERROR})
    else()
      set(_check -DEXPECT=${ARG_EXPECT})
    endif()
    add_test(NAME ${name}
      COMMAND ${CMAKE_COMMAND}
        -DDB_BENCH=$<TARGET_FILE:db_bench>
        -DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}
        "-DARGS=${args}" -DDB=${name}.db -DWORK_DIR=${_db_bench_work}
        ${_check}
        -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/DbBenchSmoke.cmake)
    set_tests_properties(${name} PROPERTIES
      LABELS "db_bench;smoke" TIMEOUT 120 ENVIRONMENT "WINEDEBUG=-all")
  endfunction()

  set(_db_bench_names
    fillseq fillrandom filluniquerandom overwrite fillsync fillbatch fill100K
    readrandom readmissing readseq readreverse seekrandom multireadrandom
    readwhilewriting readrandomwriterandom deleterandom deleteseq compact
    flush stats levelstats crc32c)
  # (No ';' after "operations": add_test would split the argument there.)
  set(_result_line
    "[ ]+: +[0-9.]+ micros/op [0-9]+ ops/sec [0-9.]+ seconds [0-9]+ operations")
  # cf4: --num_column_families=4 (RocksDB's spread, workloads.h): after
  # fillseq, readrandom finds every key in the family of its number, and
  # the scans see only the default family's quarter of the keys.
  foreach(_mode buffered direct cf4)
    set(_mode_args "")
    if(_mode STREQUAL "direct")
      set(_mode_args
        "--use_direct_reads=true --use_direct_io_for_flush_and_compaction=true")
    elseif(_mode STREQUAL "cf4")
      set(_mode_args "--num_column_families=4")
    endif()
    foreach(_name ${_db_bench_names})
      if(_mode STREQUAL "cf4" AND _name STREQUAL "crc32c")
        continue()
      endif()
      set(_args "--num=1000 --seed=1 --seek_nexts=2 --histogram=1 ${_mode_args}")
      # Reads and the rest run on a filled DB.
      if(_name MATCHES "^fill|^overwrite")
        set(_benchmarks ${_name})
      else()
        set(_benchmarks fillseq,${_name})
      endif()
      set(_expect "\n${_name}${_result_line}")
      if(_name STREQUAL "flush")
        set(_expect "\nflush memtable\n")
      elseif(_name STREQUAL "levelstats")
        set(_expect "\nLevel Files Size\\(MB\\)\n")
      elseif(_name STREQUAL "stats")
        set(_expect "\nfillseq${_result_line}")
      elseif(_name STREQUAL "crc32c")
        # RocksDB checksums 5000 MiB; a second is enough here.
        string(APPEND _args " --duration=1")
      elseif(_mode STREQUAL "cf4" AND _name STREQUAL "readrandom")
        string(APPEND _expect ".*\\(1000 of 1000 found\\)")
      elseif(_mode STREQUAL "cf4" AND _name MATCHES "^read(seq|reverse)$")
        string(REPLACE "[0-9]+ operations" "250 operations" _expect
               "${_expect}")
      endif()
      strata_db_bench_test(db_bench.${_mode}.${_name}
        "--benchmarks=${_benchmarks} ${_args}" EXPECT "${_expect}")
    endforeach()
  endforeach()
  # The vector memtable and in-place updates, and RocksDB's refusal of
  # either with concurrent memtable writes (db_bench's default).
  strata_db_bench_test(db_bench.memtablerep_vector
    "--benchmarks=fillrandom,readrandom,readseq --num=1000 --seed=1 --memtablerep=vector --allow_concurrent_memtable_write=false"
    EXPECT "Memtablerep: VectorRepFactory\n.*\nreadseq${_result_line}")
  strata_db_bench_test(db_bench.inplace_update_support
    "--benchmarks=fillrandom,overwrite,readrandom --num=1000 --seed=1 --inplace_update_support --allow_concurrent_memtable_write=false"
    EXPECT "\nreadrandom${_result_line}")
  strata_db_bench_test(db_bench.memtablerep_vector_concurrent
    "--benchmarks=fillseq --num=10 --memtablerep=vector"
    EXPECT_ERROR "allow_concurrent_memtable_write")
  strata_db_bench_test(db_bench.bad_num_column_families
    "--num=10 --num_column_families=0"
    EXPECT_ERROR "--num_column_families: must be at least 1")
  # The batched MultiGet (values pinned) in batches of 8.
  strata_db_bench_test(db_bench.multireadrandom_batched
    "--benchmarks=fillseq,multireadrandom --num=1000 --seed=1 --batch_size=8 --multiread_batched=true"
    EXPECT "\nmultireadrandom${_result_line}")
  # randomtransaction on each kind of transaction DB (fillrandom first runs
  # on the base DB beneath), four threads on few keys so that transactions
  # collide, with and without snapshots; the verification must pass. Then
  # the refusals: no transaction DB (RocksDB's db_bench runs plain batches
  # instead, docs/transactions.md), or both kinds at once, as RocksDB's.
  set(_txn_args "--num=200 --reads=1000 --seed=1 --threads=4 --transaction_sets=3 --transaction_sleep=20")
  set(_txn_expect
    "\nrandomtransaction${_result_line}.*\\( transactions:[0-9]+ aborts:[0-9]+\\)\nRandomTransactionVerify Success\\.\n")
  foreach(_kind transaction_db optimistic_transaction_db)
    foreach(_snapshot 0 1)
      strata_db_bench_test(db_bench.randomtransaction.${_kind}.snapshot${_snapshot}
        "--benchmarks=fillrandom,randomtransaction --${_kind}=1 --transaction_set_snapshot=${_snapshot} ${_txn_args}"
        EXPECT "${_txn_expect}")
    endforeach()
  endforeach()
  strata_db_bench_test(db_bench.randomtransaction.no_transaction_db
    "--benchmarks=randomtransaction --num=10"
    EXPECT_ERROR "randomtransaction needs --transaction_db or --optimistic_transaction_db")
  strata_db_bench_test(db_bench.randomtransaction.both_kinds
    "--benchmarks=randomtransaction --num=10 --transaction_db=1 --optimistic_transaction_db=1"
    EXPECT_ERROR "--optimistic_transaction_db: cannot be used with --transaction_db")
  strata_db_bench_test(db_bench.unknown_flag "--num=10 --bogus_flag=1"
    EXPECT_ERROR "unknown flag --bogus_flag.*supported flags: .*readwritepercent")
  strata_db_bench_test(db_bench.bad_value "--num=10x"
    EXPECT_ERROR "bad value '10x' for flag --num")
  strata_db_bench_test(db_bench.unsupported_value "--compression_type=lz4"
    EXPECT_ERROR "--compression_type.*not supported by strata")
endif()

# db_stress (cmake/StrataTools.cmake): the expected-state rules and value
# encoding as unit tests; then tools/db_crashtest.py (label "crash"): its
# four forms natively, 20 s of cycles each, and under Wine one blackbox
# form (db_stress.exe killed and restarted by the script on the build
# machine). Not under TSan: db_stress_tsan below runs db_stress there.
# Longer runs: docs/reliability.md, "Stress and crash testing".
if(STRATA_BUILD_TOOLS)
  strata_add_test(db_stress_test SOURCES
    test/tools/db_stress_expected_state_test.cc
  )
  target_link_libraries(db_stress_test PRIVATE db_stress_lib)
  find_package(Python3 COMPONENTS Interpreter)
  set(_crashtest ${CMAKE_CURRENT_SOURCE_DIR}/tools/db_crashtest.py)
  if(NOT Python3_Interpreter_FOUND)
    # No crash test forms.
  elseif(CMAKE_CROSSCOMPILING)
    if(CMAKE_CROSSCOMPILING_EMULATOR)
      add_test(NAME db_crashtest.blackbox
        COMMAND ${Python3_EXECUTABLE} ${_crashtest} blackbox
          --db_stress=$<TARGET_FILE:db_stress>
          --emulator=${CMAKE_CROSSCOMPILING_EMULATOR} --duration=20
          --interval=4 --max_key=1000 --threads=2)
      set_tests_properties(db_crashtest.blackbox PROPERTIES
        LABELS "crash" TIMEOUT 240)
    endif()
  elseif("thread" IN_LIST STRATA_SANITIZE)
    # Every kind of operation from several threads, with reopens, under
    # ThreadSanitizer; no crashes (a kill proves nothing about races).
    add_test(NAME db_stress_tsan
      COMMAND db_stress --db=${CMAKE_CURRENT_BINARY_DIR}/db_stress_tsan
        --destroy_db_initially --threads=4 --ops_per_thread=3000
        --max_key=1000 --column_families=3 --reopen=2 --flush_one_in=300
        --compact_range_one_in=600 --clear_column_family_one_in=500
        --acquire_snapshot_one_in=20 --use_merge --use_multiget)
    set_tests_properties(db_stress_tsan PROPERTIES LABELS "crash" TIMEOUT 240)
    # Snapshot-safe unordered writes: batches over every family read
    # atomically, through snapshots too, while inserts run unordered.
    add_test(NAME db_stress_tsan_unordered_snapshot_safe
      COMMAND db_stress
        --db=${CMAKE_CURRENT_BINARY_DIR}/db_stress_tsan_unordered_safe
        --destroy_db_initially --threads=4 --ops_per_thread=1000
        --max_key=500 --column_families=3 --test_batches_snapshots=1
        --unordered_write --unordered_write_snapshot_safe --flush_one_in=300
        --acquire_snapshot_one_in=20)
    set_tests_properties(db_stress_tsan_unordered_snapshot_safe PROPERTIES
      LABELS "crash" TIMEOUT 240)
  else()
    foreach(_form blackbox whitebox)
      foreach(_power "" power_loss)
        set(_name db_crashtest.${_form})
        set(_args)
        if(_power)
          set(_name ${_name}.power_loss)
          list(APPEND _args --power_loss)
        endif()
        add_test(NAME ${_name}
          COMMAND ${Python3_EXECUTABLE} ${_crashtest} ${_form}
            --db_stress=$<TARGET_FILE:db_stress> --duration=20
            --interval=4 --max_key=2000 ${_args})
        set_tests_properties(${_name} PROPERTIES
          LABELS "crash" TIMEOUT 240)
      endforeach()
    endforeach()
  endif()
endif()

# A batch over column families and a power loss after one family's flush
# (found by tools/db_crashtest.py); its own binary, a second to build.
strata_add_test(db_power_loss_families_test LABELS crash SOURCES
  test/db/db_power_loss_families_test.cc
)
# SingleDelete of a key put again after an earlier one, across a
# compaction under a snapshot (found by tools/db_crashtest.py).
strata_add_test(db_single_delete_test SOURCES
  test/db/db_single_delete_test.cc
)

# tools/compare_rocksdb.py (strata's db_bench against RocksDB's): parsing,
# medians, the table, and its run loop over fake db_bench scripts; its
# --scale runs (tools/compare_scale.py) over a fake db_bench; and the
# pure halves of tools/compare_fillsync.py and tools/compare_wine.py. No network and no RocksDB
# needed, a second or two: they run with every native test. The script runs on the build machine, so not under Wine.
if(NOT CMAKE_CROSSCOMPILING)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME compare_rocksdb_test
      COMMAND ${Python3_EXECUTABLE}
        ${CMAKE_CURRENT_SOURCE_DIR}/tools/compare_rocksdb_test.py)
    set_tests_properties(compare_rocksdb_test PROPERTIES
      LABELS "compare" TIMEOUT 120)
    add_test(NAME compare_scale_test
      COMMAND ${Python3_EXECUTABLE}
        ${CMAKE_CURRENT_SOURCE_DIR}/tools/compare_scale_test.py)
    set_tests_properties(compare_scale_test PROPERTIES
      LABELS "compare" TIMEOUT 120)
    add_test(NAME compare_fillsync_test
      COMMAND ${Python3_EXECUTABLE}
        ${CMAKE_CURRENT_SOURCE_DIR}/tools/compare_fillsync_test.py)
    set_tests_properties(compare_fillsync_test PROPERTIES
      LABELS "compare" TIMEOUT 60)
    add_test(NAME compare_wine_test
      COMMAND ${Python3_EXECUTABLE}
        ${CMAKE_CURRENT_SOURCE_DIR}/tools/compare_wine_test.py)
    set_tests_properties(compare_wine_test PROPERTIES
      LABELS "compare" TIMEOUT 60)
  endif()
endif()

# DBOptions::rate_limiter and compaction_readahead_size: what the flushes'
# and compactions ask of the limiter, and the reads a compaction makes.
strata_add_test(db_io_limits_test SOURCES
  test/db/db_compaction_readahead_test.cc
  test/db/db_rate_limiter_test.cc
  test/db/db_test_util.cc
)

strata_add_test(compaction_test SOURCES
  test/db/compaction_iterator_test.cc
  test/db/db_iter_merge_test.cc
  test/db/merge_helper_test.cc
  test/db/merge_operator_test.cc
)

strata_add_test(compaction_picker_test SOURCES
  test/db/compaction_picker_random_test.cc
  test/db/compaction_picker_test.cc
  test/db/compaction_test.cc
  test/db/level_targets_test.cc
)

strata_add_test(range_del_test SOURCES
  test/db/range_del_aggregator_test.cc
  test/db/range_tombstone_fragmenter_test.cc
  test/memtable/range_tombstone_test.cc
  test/table/range_del_block_test.cc
  test/table/table_test_util.cc
)

strata_add_test(version_test SOURCES
  test/db/version_edit_test.cc
  test/db/version_read_test.cc
  test/db/version_set_fault_test.cc
  test/db/version_set_test.cc
  test/db/version_test.cc
  test/table/table_test_util.cc
)

strata_add_test(block_test SOURCES
  test/table/block_prefix_test.cc
  test/table/block_test.cc
  test/table/compression_test.cc
  test/table/two_level_iterator_test.cc
)

strata_add_test(table_test SOURCES
  test/table/empty_iterator_test.cc
  test/table/format_test.cc
  test/table/table_corruption_test.cc
  test/table/table_multiget_test.cc
  test/table/table_options_test.cc
  test/table/table_test.cc
  test/table/table_test_util.cc
  test/table/user_key_index_test.cc
)

strata_add_test(filter_test SOURCES
  test/table/filter_block_test.cc
  test/util/bloom_test.cc
  test/util/slice_transform_test.cc
)

strata_add_test(cache_test SOURCES
  test/db/table_cache_test.cc
  test/util/lru_cache_concurrency_test.cc
  test/util/lru_cache_test.cc
)

strata_add_test(db_iter_test SOURCES
  test/db/db_iter_table_test.cc
  test/db/db_iter_test.cc
  test/db/dbformat_test.cc
  test/db/merging_iterator_test.cc
  test/table/table_test_util.cc
)

strata_add_test(db_format_test SOURCES
  test/db/log_predecessor_test.cc
  test/db/log_test.cc
  test/db/write_batch_cf_test.cc
  test/db/write_batch_decode_test.cc
  test/db/write_batch_from_bytes_test.cc
  test/db/write_batch_test.cc
)

strata_add_test(memtable_test SOURCES
  test/memtable/concurrent_arena_test.cc
  test/memtable/inline_skiplist_test.cc
  test/memtable/inplace_update_test.cc
  test/memtable/memtable_list_test.cc
  test/memtable/memtable_staged_test.cc
  test/memtable/memtable_test.cc
  test/memtable/vector_rep_test.cc
)

strata_add_test(write_thread_test SOURCES
  test/db/fake_commit_env.cc
  test/db/write_thread_test.cc
)

# The write modes (parallel, pipelined, unordered): hooks and latches in the
# fake env force the interleavings; a stress run per mode.
strata_add_test(write_thread_modes_test SOURCES
  test/db/fake_commit_env.cc
  test/db/write_thread_gather_test.cc
  test/db/write_thread_modes_test.cc
  test/db/write_thread_runner.cc
  test/db/write_thread_stress_test.cc
  test/db/write_thread_unordered_test.cc
  test/db/write_thread_visible_test.cc
)

strata_add_test(db_test SOURCES
  test/db/builder_test.cc
  test/db/db_basic_test.cc
  test/db/db_live_files_test.cc
  test/db/db_batch_checks_test.cc
  test/db/db_close_test.cc
  test/db/db_fault_test.cc
  test/db/db_memtable_rep_test.cc
  test/db/db_model_test.cc
  test/db/db_options_test.cc
  test/db/db_options_helpers_test.cc
  test/db/db_recovery_test.cc
  test/db/db_resume_test.cc
  test/db/db_test_util.cc
  test/db/db_unordered_write_test.cc
  test/db/db_wal_damage_test.cc
  test/db/db_write_modes_test.cc
  test/db/write_controller_test.cc
)

# RepairDB: DBs damaged in their MANIFEST, CURRENT, tables and WALs,
# repaired and checked against a model.
strata_add_test(db_repair_test SOURCES
  test/db/db_repair_test.cc
  test/db/db_test_util.cc
)

# Operating a DB (docs/operations.md): checkpoints, read-only instances.
strata_add_test(db_operations_test SOURCES
  test/db/db_readonly_test.cc
  test/db/utilities/checkpoint_test.cc
  test/db/utilities/family_writers.cc
  test/db/db_test_util.cc
)

# BackupEngine (docs/operations.md, "Backups"): backups made while the
# DB is written, shared tables, maintenance, damage, the metadata format,
# and a child process killed at each of a backup's kill points.
strata_add_test(db_backup_test SOURCES
  test/db/utilities/backup_crash_test.cc
  test/db/utilities/backup_engine_test.cc
  test/db/utilities/backup_maintenance_test.cc
  test/db/utilities/backup_meta_test.cc
  test/db/utilities/backup_test_util.cc
  test/db/utilities/backup_while_writing_test.cc
  test/db/utilities/family_writers.cc
)

# WriteBatchWithIndex (docs/transactions.md): random batches over random
# DBs checked against a model, and the API's edge cases.
strata_add_test(write_batch_with_index_test SOURCES
  test/db/utilities/write_batch_with_index_api_test.cc
  test/db/utilities/write_batch_with_index_test.cc
)

# The pessimistic transactions' lock manager (docs/transactions.md,
# "Locking"): modes, waits, upgrades, the lock limit, expiration with a
# fake clock, deadlock detection and its buffer, eight threads at once.
strata_add_test(transaction_lock_test SOURCES
  test/db/utilities/transaction_deadlock_test.cc
  test/db/utilities/transaction_lock_limit_test.cc
  test/db/utilities/transaction_lock_stress_test.cc
  test/db/utilities/transaction_lock_test.cc
)

# OptimisticTransactionDB and Transaction (docs/transactions.md): own
# writes read back, the commit-time conflict check, save points, misuse;
# and the bank-transfer invariant under eight threads
# (STRATA_BANK_TEST_SECONDS=N for a long run).
strata_add_test(optimistic_transaction_test SOURCES
  test/db/utilities/optimistic_transaction_api_test.cc
  test/db/utilities/optimistic_transaction_policy_test.cc
  test/db/utilities/optimistic_transaction_test.cc
  test/db/utilities/transaction_bank_test.cc
)

# TransactionDB (docs/transactions.md, "TransactionDB"): row locks,
# timeouts, deadlocks, expiration with a skewed clock, the snapshot
# validation, writes outside transactions, the state machine's statuses,
# two-phase commit and prepared transactions recovered on reopen.
strata_add_test(pessimistic_transaction_test SOURCES
  test/db/utilities/pessimistic_transaction_2pc_test.cc
  test/db/utilities/pessimistic_transaction_test.cc
)

# The bank-transfer test under kill (docs/transactions.md): a child
# process moves money in prepared-then-committed transactions, the parent
# kills it, reopens, resolves the prepared transactions recovered, and
# checks the total and every acknowledged transfer
# (STRATA_TXN_CRASH_ROUNDS=N for a long run).
strata_add_test(transaction_crash_test LABELS crash SOURCES
  test/db/utilities/transaction_crash_child.cc
  test/db/utilities/transaction_crash_test.cc
)

# Bulk loading (docs/operations.md, "Bulk ingestion"): SstFileWriter and
# DB::IngestExternalFile(s).
strata_add_test(db_ingest_test SOURCES
  test/db/external_sst_file_fault_test.cc
  test/db/external_sst_file_test.cc
  test/db/db_test_util.cc
)

# The OPTIONS file (docs/formats/options_file.md) and options from
# strings. RocksDB's own OPTIONS file, test/data/options/, is compiled in
# (nothing to find at run time, under Wine either).
set(_options_fixture_file
    ${CMAKE_CURRENT_SOURCE_DIR}/test/data/options/rocksdb_7_8_3_OPTIONS)
file(READ ${_options_fixture_file} _options_fixture)
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/options_fixture/options_util_fixture.h
     CONTENT "// Generated from test/data/options/rocksdb_7_8_3_OPTIONS.
static const char kRocksDBOptionsFixture[] = R\"fixture(@_options_fixture@)fixture\";
" @ONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${_options_fixture_file})
strata_add_test(options_util_test SOURCES
  test/db/utilities/options_util_test.cc
)
target_include_directories(options_util_test PRIVATE
                           ${CMAKE_BINARY_DIR}/options_fixture)

# Compaction filters (docs/compaction.md, "Compaction filters") and
# DBWithTTL built on them (docs/formats/ttl.md), on a fake clock.
strata_add_test(db_compaction_filter_test SOURCES
  test/db/db_compaction_filter_model_test.cc
  test/db/db_compaction_filter_test.cc
  test/db/utilities/db_ttl_test.cc
  test/db/db_test_util.cc
)

# The DB on versions: open/recovery, flush, reads through tables.
strata_add_test(db_engine_test SOURCES
  test/db/db_compaction_test.cc
  test/db/db_flush_test.cc
  test/db/db_manifest_damage_test.cc
  test/db/db_merge_range_del_test.cc
  test/db/db_open_test.cc
  test/db/db_stall_test.cc
  test/db/db_test_util.cc
  test/db/db_wal_switch_test.cc
  test/db/db_wal_write_through_test.cc
)

# EventListener callbacks, CompactFiles and kCompactionStyleNone
# (docs/operations.md, "Listeners" and "CompactFiles").
strata_add_test(db_listener_test SOURCES
  test/db/db_compact_files_race_test.cc
  test/db/db_compact_files_test.cc
  test/db/db_listener_test.cc
  test/db/db_test_util.cc
)

# What transactions stand on: a key's newest sequence number (memtables
# and tables), writes checked inside the write path, and two-phase commit's
# markers (encoding, memtables skipping prepared sections, recovery).
strata_add_test(db_write_callback_test SOURCES
  test/db/db_write_callback_test.cc
  test/db/write_batch_markers_test.cc
)

# Point reads: values pinned in the block cache (PinnableSlice), and the
# batched MultiGet against single Gets (with async_io too).
strata_add_test(db_read_test SOURCES
  test/db/db_multiget_test.cc
  test/db/db_pinned_get_test.cc
  test/db/db_test_util.cc
)
target_compile_definitions(db_read_test PRIVATE
  STRATA_TEST_WITH_LIBURING=$<BOOL:${STRATA_WITH_LIBURING}>)

# Column families: the API, misuse, recovery with families flushed apart,
# atomic flush, the model test over several families.
strata_add_test(db_column_family_test SOURCES
  test/db/db_column_family_recovery_test.cc
  test/db/db_column_family_test.cc
  test/db/db_test_util.cc
)

# The memtable budget (WriteBufferManager, db_write_buffer_size) and
# max_total_wal_size: the charges a DB reports, DBs sharing a budget,
# stalls, and the WALs idle families keep.
strata_add_test(db_memory_budget_test SOURCES
  test/db/db_max_total_wal_size_test.cc
  test/db/db_test_util.cc
  test/db/db_write_buffer_manager_test.cc
  test/db/memtable_charges_test.cc
)

# Introspection: strata.stats (InternalStats), GetApproximateSizes, the
# read path's statistics tickers.
strata_add_test(db_stats_test SOURCES
  test/db/db_approximate_sizes_test.cc
  test/db/db_properties_test.cc
  test/db/db_statistics_test.cc
  test/db/db_test_util.cc
  test/db/internal_stats_test.cc
)

# The I/O-fault sweep: a fixed workload with each of its I/Os failing once
# in turn (IOError, then NoSpace); every acknowledged write must survive.
strata_add_test(db_io_fault_sweep_test LABELS fault SOURCES
  test/db/db_io_fault_sweep_test.cc
)

# One bit flipped at a time in every file of a closed DB (in a MemEnv):
# each open must fail naming the file, or read Corruption or exactly the
# recorded contents (docs/reliability.md, "Byte-flip sweep"). Files larger
# than STRATA_FLIP_WHOLE_FILE bytes get STRATA_FLIP_SAMPLE offsets: fewer
# under Wine, whose process costs more per flip.
strata_add_test(db_byte_flip_sweep_test LABELS byteflip SOURCES
  test/db/db_byte_flip_sweep_test.cc
)
if(CMAKE_CROSSCOMPILING)
  set(_flip_sample 60)
  set(_flip_whole_file 64)
else()
  set(_flip_sample 300)
  set(_flip_whole_file 512)
endif()
target_compile_definitions(db_byte_flip_sweep_test PRIVATE
  STRATA_FLIP_SAMPLE=${_flip_sample}
  STRATA_FLIP_WHOLE_FILE=${_flip_whole_file}
  STRATA_TEST_WITH_SNAPPY=$<BOOL:${STRATA_WITH_SNAPPY}>
  STRATA_TEST_WITH_ZLIB=$<BOOL:${STRATA_WITH_ZLIB}>)

# Child processes killed mid-write (SIGKILL / TerminateProcess).
strata_add_test(db_crash_test LABELS crash SOURCES
  test/db/db_atomic_flush_crash_test.cc
  test/db/db_crash_test.cc
)

# The C API (include/strata/c.h), tested from C against the installed
# library's target: its own main and assertions, no GoogleTest.
add_executable(c_api_test
  test/c/c_api_batch_test.c
  test/c/c_api_db_test.c
  test/c/c_api_extensions_test.c
  test/c/c_api_families_test.c
  test/c/c_api_ingest_test.c
  test/c/c_api_io_limits_test.c
  test/c/c_api_metadata_test.c
  test/c/c_api_options_util_test.c
  test/c/c_api_repair_test.c
  test/c/c_api_test.c
  test/c/c_api_utilities_test.c
)
target_link_libraries(c_api_test PRIVATE strata)
target_include_directories(c_api_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
set_target_properties(c_api_test PROPERTIES
  C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
strata_warnings(c_api_test)
if(MSVC)
  # getenv, strcat, fopen: standard C, which MSVC deprecates (C4996).
  target_compile_definitions(c_api_test PRIVATE _CRT_SECURE_NO_WARNINGS)
endif()
add_test(NAME c_api_test COMMAND c_api_test)
set_tests_properties(c_api_test PROPERTIES LABELS "unit" TIMEOUT 300
                     ENVIRONMENT "WINEDEBUG=-all")
# c.h alone in a C89 translation unit; building it is the check.
add_executable(c89_header_check test/c/c89_header_check.c)
target_link_libraries(c89_header_check PRIVATE strata)
set_target_properties(c89_header_check PROPERTIES
  C_STANDARD 90 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(c89_header_check PRIVATE -pedantic-errors)
endif()
strata_warnings(c89_header_check)
add_test(NAME c89_header_check COMMAND c89_header_check)
set_tests_properties(c89_header_check PROPERTIES LABELS "unit" TIMEOUT 300
                     ENVIRONMENT "WINEDEBUG=-all")

include(${CMAKE_CURRENT_LIST_DIR}/StrataApiCompat.cmake)


# Unloading strata.dll at run time, following the rule of docs/windows.md
# and breaking it (test/dll_unload): the program uses strata's headers but
# does not link the DLL, which it loads and frees itself.
if(WIN32 AND BUILD_SHARED_LIBS)
  add_executable(dll_unload_test test/dll_unload/main.cc)
  target_include_directories(dll_unload_test PRIVATE
    $<TARGET_PROPERTY:strata,INTERFACE_INCLUDE_DIRECTORIES>)
  add_dependencies(dll_unload_test strata)
  strata_warnings(dll_unload_test)
  add_test(NAME dll_unload_test
           COMMAND dll_unload_test $<TARGET_FILE:strata> ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(dll_unload_test PROPERTIES
    LABELS "windows" TIMEOUT 300 ENVIRONMENT "WINEDEBUG=-all")
endif()

# The installed package, consumed by a separate project through
# find_package(strata) and strata::strata, built and run.
set(_consumer_args
  -DSTRATA_BUILD_DIR=${CMAKE_BINARY_DIR}
  -DSTRATA_CONSUMER_SOURCE=${CMAKE_CURRENT_SOURCE_DIR}/test/install_consumer
  -DSTRATA_WORK_DIR=${CMAKE_BINARY_DIR}/install_check
  -DSTRATA_GENERATOR=${CMAKE_GENERATOR}
  -DSTRATA_BUILD_TYPE=${CMAKE_BUILD_TYPE})
if(CMAKE_CROSSCOMPILING)
  get_filename_component(_toolchain "${CMAKE_TOOLCHAIN_FILE}" ABSOLUTE
                         BASE_DIR "${CMAKE_SOURCE_DIR}")
  list(APPEND _consumer_args
    -DSTRATA_TOOLCHAIN_FILE=${_toolchain}
    -DSTRATA_EMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}
    -DSTRATA_OBJDUMP=${CMAKE_OBJDUMP})
endif()
if(STRATA_SANITIZE)
  string(REPLACE ";" "," _strata_san "${STRATA_SANITIZE}")
  list(APPEND _consumer_args -DSTRATA_SANITIZE_FLAGS=-fsanitize=${_strata_san})
endif()
add_test(NAME install_consumer
         COMMAND ${CMAKE_COMMAND} ${_consumer_args}
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/InstallCheck.cmake)
set_tests_properties(install_consumer PROPERTIES
  LABELS "install" TIMEOUT 600 ENVIRONMENT "WINEDEBUG=-all")

# sst_dump (cmake/StrataTools.cmake): test/tools/sst_dump_test.py runs it
# on a table written by sst_dump_fixture and compares its output with
# test/tools/golden/sst_dump/, then feeds it damaged files and bad command
# lines (sst_dump_table_test: the library under it). Relative paths from
# a working directory, so that the Windows build runs the same way under
# the emulator.
if(STRATA_BUILD_TOOLS)
  strata_add_test(sst_dump_table_test SOURCES
    test/tools/sst_dump_table_test.cc
  )
  target_link_libraries(sst_dump_table_test PRIVATE sst_dump_lib)
  find_package(Python3 COMPONENTS Interpreter)
  add_executable(sst_dump_fixture test/tools/sst_dump_fixture.cc)
  target_link_libraries(sst_dump_fixture PRIVATE strata_internal)
  strata_warnings(sst_dump_fixture)
  if(Python3_Interpreter_FOUND)
    set(_sst_dump_labels tools)
    if(CMAKE_CROSSCOMPILING)
      set(_sst_dump_labels "windows;tools")
    endif()
    string(REPLACE ";" " " _sst_dump_emulator
           "${CMAKE_CROSSCOMPILING_EMULATOR}")
    set(_sst_dump_codecs)
    if(NOT STRATA_WITH_ZLIB)
      set(_sst_dump_codecs --without_codecs)
    endif()
    add_test(NAME sst_dump_golden
      COMMAND ${Python3_EXECUTABLE}
        ${CMAKE_CURRENT_SOURCE_DIR}/test/tools/sst_dump_test.py
        --sst_dump=$<TARGET_FILE:sst_dump>
        --fixture=$<TARGET_FILE:sst_dump_fixture>
        "--emulator=${_sst_dump_emulator}"
        --golden=${CMAKE_CURRENT_SOURCE_DIR}/test/tools/golden/sst_dump
        --work_dir=sst_dump_test ${_sst_dump_codecs}
      WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    set_tests_properties(sst_dump_golden PROPERTIES
      LABELS "${_sst_dump_labels}" TIMEOUT 300 ENVIRONMENT "WINEDEBUG=-all")
  endif()
endif()

# tools/inspect: ldb's file-level commands (manifest_dump, dump_wal,
# idump) on a DB built through the API, and on damaged copies of its
# files.
if(STRATA_BUILD_TOOLS)
  strata_add_test(inspect_test SOURCES test/tools/inspect_test.cc)
  target_link_libraries(inspect_test PRIVATE strata_inspect)
endif()

# ldb (tools/ldb), through test/tools/ldb_test.py: "golden" builds a DB
# with ldb's commands and checks every command's output against a model and
# test/tools/golden/ldb/; "errors" checks bad command lines and DBs give a
# message and exit status 1. Both run natively and under Wine (DB paths
# relative to the working directory). With RocksDB's ldb installed
# (Debian's rocksdb-tools), "compare_rocksdb" requires both tools to print
# the same bytes for scan, get and dump over the same data: natively only,
# RocksDB's ldb being a Linux program.
if(STRATA_BUILD_TOOLS)
  # Its text formats and command line, no DB: compiled in rather than
  # linked through ldb_lib, which links strata itself (in a Windows shared
  # build, strata.dll beside the tests' strata_testing.dll).
  strata_add_test(ldb_format_test SOURCES
    test/tools/ldb_format_test.cc
    tools/ldb/command_line.cc
    tools/ldb/format.cc
    tools/ldb/value_size_histogram.cc
  )
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    set(_ldb_test ${CMAKE_CURRENT_SOURCE_DIR}/test/tools/ldb_test.py)
    set(_ldb_work ${CMAKE_CURRENT_BINARY_DIR}/ldb_test)
    set(_ldb_emulator)
    if(CMAKE_CROSSCOMPILING_EMULATOR)
      list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _ldb_emulator_words)
      set(_ldb_emulator "--emulator=${_ldb_emulator_words}")
    endif()
    foreach(_mode golden errors)
      add_test(NAME ldb.${_mode}
        COMMAND ${Python3_EXECUTABLE} ${_ldb_test} ${_mode}
          --ldb=$<TARGET_FILE:ldb> ${_ldb_emulator}
          --work=${_ldb_work}/${_mode})
      set_tests_properties(ldb.${_mode} PROPERTIES
        LABELS "ldb;tools" TIMEOUT 900 ENVIRONMENT "WINEDEBUG=-all")
    endforeach()
    # Both tools on a DB db_bench wrote, checked against each other
    # (test/tools/tools_on_db_bench_test.py).
    add_test(NAME tools_on_db_bench
      COMMAND ${Python3_EXECUTABLE}
        ${CMAKE_CURRENT_SOURCE_DIR}/test/tools/tools_on_db_bench_test.py
        --db_bench=$<TARGET_FILE:db_bench> --ldb=$<TARGET_FILE:ldb>
        --sst_dump=$<TARGET_FILE:sst_dump> ${_ldb_emulator}
        --work=${CMAKE_CURRENT_BINARY_DIR}/tools_on_db_bench)
    set_tests_properties(tools_on_db_bench PROPERTIES
      LABELS "tools" TIMEOUT 600 ENVIRONMENT "WINEDEBUG=-all")
    if(NOT CMAKE_CROSSCOMPILING)
      find_program(STRATA_ROCKSDB_LDB NAMES ldb rocksdb_ldb
                   DOC "RocksDB's ldb, to compare strata's ldb with")
      set(_ldb_help)
      if(STRATA_ROCKSDB_LDB)
        # Not an installed strata ldb found on the PATH instead.
        execute_process(COMMAND ${STRATA_ROCKSDB_LDB} --help
                        OUTPUT_VARIABLE _ldb_help ERROR_QUIET TIMEOUT 30)
      endif()
      if(_ldb_help MATCHES "RocksDB")
        add_test(NAME ldb.compare_rocksdb
          COMMAND ${Python3_EXECUTABLE} ${_ldb_test} compare
            --ldb=$<TARGET_FILE:ldb> --rocksdb_ldb=${STRATA_ROCKSDB_LDB}
            --work=${_ldb_work}/compare)
        set_tests_properties(ldb.compare_rocksdb PROPERTIES
          LABELS "ldb;tools;compare" TIMEOUT 600)
      endif()
    endif()
  endif()
endif()

# Secondary instances (docs/operations.md, "Secondary instances"): a
# secondary following a primary that writes, flushes and compacts, in this
# process and in a child process (STRATA_SECONDARY_FOLLOW_SECONDS sets how
# long the child writes; a few seconds by default).
strata_add_test(db_secondary_test SOURCES
  test/db/db_secondary_test.cc
  test/db/db_secondary_follow_test.cc
)
