# The api_compat programs and their tests, included from StrataTests.cmake.
#
# api_compat: RocksDB programs (test/api_compat/rocksdb_*.cc), with
# "rocksdb" replaced by "strata", must compile against strata's public
# headers alone and run (DESIGN §2). Natively, where RocksDB 7.8 is
# installed (librocksdb-dev), each is also built as is against RocksDB and
# <name>_vs_rocksdb checks that both builds print the same, byte for byte;
# without it those tests are not registered (a configure message says so).
set(_api_compat_rocksdb OFF)
if(NOT CMAKE_CROSSCOMPILING)
  find_path(STRATA_ROCKSDB_INCLUDE_DIR rocksdb/db.h)
  find_library(STRATA_ROCKSDB_LIBRARY rocksdb)
  if(STRATA_ROCKSDB_INCLUDE_DIR AND STRATA_ROCKSDB_LIBRARY)
    file(STRINGS ${STRATA_ROCKSDB_INCLUDE_DIR}/rocksdb/version.h _rocksdb_ver
         REGEX "^#define ROCKSDB_(MAJOR|MINOR) ")
    string(REGEX REPLACE ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*" "\\1.\\2"
           _rocksdb_ver "${_rocksdb_ver}")
    if(_rocksdb_ver STREQUAL "7.8")
      set(_api_compat_rocksdb ON)
      message(STATUS "strata: api_compat also against RocksDB "
                     "${_rocksdb_ver} (${STRATA_ROCKSDB_LIBRARY})")
    else()
      message(STATUS "strata: RocksDB ${_rocksdb_ver} is not 7.8: the "
                     "api_compat *_vs_rocksdb tests are not registered")
    endif()
  else()
    message(STATUS "strata: no RocksDB (librocksdb-dev): the api_compat "
                   "*_vs_rocksdb tests are not registered")
  endif()
endif()

# strata_api_compat(<target> <source> [<dir>]): <dir>/<source>.cc (<dir>
# is test/api_compat unless given) as <target> against strata and, with
# RocksDB, as <target>_rocksdb. A C program (<source>.c, for rocksdb/c.h)
# is built as C.
function(strata_api_compat target source)
  set(_dir ${CMAKE_CURRENT_SOURCE_DIR}/test/api_compat)
  if(ARGC GREATER 2)
    set(_dir ${CMAKE_CURRENT_SOURCE_DIR}/${ARGV2})
  endif()
  set(_ext .cc)
  if(NOT EXISTS ${_dir}/${source}.cc)
    set(_ext .c)
  endif()
  set(_rocksdb_source ${_dir}/${source}${_ext})
  file(READ ${_rocksdb_source} _text)
  string(REPLACE "rocksdb" "strata" _text "${_text}")
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/api_compat_src/${target}${_ext}
       CONTENT "${_text}" @ONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${_rocksdb_source})
  add_executable(${target} ${CMAKE_BINARY_DIR}/api_compat_src/${target}${_ext})
  target_link_libraries(${target} PRIVATE strata)
  if(_api_compat_rocksdb)
    add_executable(${target}_rocksdb ${_rocksdb_source})
    target_include_directories(${target}_rocksdb SYSTEM PRIVATE
                               ${STRATA_ROCKSDB_INCLUDE_DIR})
    target_link_libraries(${target}_rocksdb PRIVATE ${STRATA_ROCKSDB_LIBRARY}
                          Threads::Threads)
    # A static librocksdb needs the C++ runtime even under a C main.
    set_target_properties(${target}_rocksdb PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()

# strata_api_compat_compare(<test> <programs> [EXPECTED file]): runs the
# programs (targets) and compares their outputs (cmake/ApiCompatCompare.cmake).
function(strata_api_compat_compare name)
  cmake_parse_arguments(ARG "" "EXPECTED" "PROGRAMS" ${ARGN})
  set(_files)
  foreach(_target ${ARG_PROGRAMS})
    list(APPEND _files "$<TARGET_FILE:${_target}>")
  endforeach()
  string(REPLACE ";" "$<SEMICOLON>" _files "${_files}")
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND}
      "-DPROGRAMS=${_files}" -DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}
      -DEXPECTED=${ARG_EXPECTED} -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}
      -DNAME=${name}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/ApiCompatCompare.cmake)
  set(_env "WINEDEBUG=-all")
  if("thread" IN_LIST STRATA_SANITIZE)
    # The RocksDB builds call Debian's librocksdb, which is not built with
    # ThreadSanitizer: accesses its own threads make (BackupEngine's
    # copiers) go unseen, and TSan reports races inside it.
    list(APPEND _env "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:\
suppressions=${CMAKE_CURRENT_SOURCE_DIR}/test/api_compat/tsan_librocksdb.supp")
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "unit" TIMEOUT 300
                       ENVIRONMENT "${_env}")
endfunction()

# strata_api_compat_recorded(<target> <source>): the program of
# strata_api_compat, its output compared with RocksDB 7.8.3's recorded in
# test/api_compat/<source>.expected (so also under Wine and where RocksDB
# is missing), and with RocksDB's build of it where RocksDB is installed.
function(strata_api_compat_recorded target source)
  strata_api_compat(${target} ${source})
  set(_expected
      ${CMAKE_CURRENT_SOURCE_DIR}/test/api_compat/${source}.expected)
  strata_api_compat_compare(${target}
    PROGRAMS ${target} EXPECTED ${_expected})
  if(_api_compat_rocksdb)
    strata_api_compat_compare(${target}_vs_rocksdb
      PROGRAMS ${target} ${target}_rocksdb EXPECTED ${_expected})
  endif()
endfunction()

# The core API, self-checking.
strata_api_compat(api_compat rocksdb_program)
add_test(NAME api_compat COMMAND api_compat api_compat_db)
set_tests_properties(api_compat PROPERTIES LABELS "unit" TIMEOUT 300
                     ENVIRONMENT "WINEDEBUG=-all")
if(_api_compat_rocksdb)
  strata_api_compat_compare(api_compat_vs_rocksdb
    PROGRAMS api_compat api_compat_rocksdb)
endif()
# Column families; operating a DB (checkpoints, live files); listeners,
# CompactFiles and kCompactionStyleNone; the OPTIONS file written and read
# back; WriteBatchWithIndex; compaction filters and DBWithTTL; optimistic
# and pessimistic transactions; the C API.
strata_api_compat_recorded(api_compat_column_families rocksdb_column_families)
strata_api_compat_recorded(api_compat_operations rocksdb_operations)
strata_api_compat_recorded(api_compat_listeners rocksdb_listeners)
strata_api_compat_recorded(api_compat_options_file rocksdb_options_file)
strata_api_compat_recorded(api_compat_write_batch_with_index
  rocksdb_write_batch_with_index)
strata_api_compat_recorded(api_compat_compaction_filter
  rocksdb_compaction_filter)
strata_api_compat_recorded(api_compat_optimistic_transaction
  rocksdb_optimistic_transaction)
strata_api_compat_recorded(api_compat_transaction rocksdb_transaction)
strata_api_compat_recorded(api_compat_c rocksdb_c_program)
if(_api_compat_rocksdb)
  # Each engine reads the OPTIONS file of a DB the other made.
  foreach(_pair "strata;api_compat_options_file;api_compat_options_file_rocksdb"
                "rocksdb;api_compat_options_file_rocksdb;api_compat_options_file")
    list(GET _pair 0 _writer_name)
    list(GET _pair 1 _writer)
    list(GET _pair 2 _reader)
    set(_test api_compat_options_file_written_by_${_writer_name})
    add_test(NAME ${_test}
      COMMAND ${CMAKE_COMMAND}
        -DWRITER=$<TARGET_FILE:${_writer}> -DREADER=$<TARGET_FILE:${_reader}>
        -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/test/api_compat/rocksdb_options_file.expected
        -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR} -DNAME=${_test}
        -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/OptionsFileCross.cmake)
    set_tests_properties(${_test} PROPERTIES LABELS "unit" TIMEOUT 300)
  endforeach()
elseif(STRATA_ROCKSDB_INCLUDE_DIR)
  # Headers of another RocksDB (or no library): the programs at least
  # still compile against them as they are.
  foreach(_source rocksdb_program rocksdb_column_families rocksdb_operations
          rocksdb_listeners rocksdb_options_file
          rocksdb_write_batch_with_index rocksdb_compaction_filter
          rocksdb_optimistic_transaction rocksdb_transaction)
    add_test(NAME api_compat_${_source}_headers
             COMMAND ${CMAKE_CXX_COMPILER} -std=c++17 -fsyntax-only
                     -I${STRATA_ROCKSDB_INCLUDE_DIR}
                     ${CMAKE_CURRENT_SOURCE_DIR}/test/api_compat/${_source}.cc)
    set_tests_properties(api_compat_${_source}_headers PROPERTIES
                         LABELS "unit")
  endforeach()
endif()

# The titles ingest (tools/titles_ingest), a benchmark program written
# against RocksDB's API: built against strata so that it keeps compiling,
# and run on 20,000 titles in each order. It reads the DB back and fails
# unless it holds exactly the titles written.
strata_api_compat(titles_ingest titles_ingest tools/titles_ingest)
foreach(_order random sorted)
  add_test(NAME titles_ingest_${_order}
           COMMAND titles_ingest titles_ingest_${_order}_db ${_order} 20000 100)
  set_tests_properties(titles_ingest_${_order} PROPERTIES LABELS "unit"
                       TIMEOUT 300 ENVIRONMENT "WINEDEBUG=-all")
endforeach()
