# One engine reads the OPTIONS file the other wrote (test/api_compat/
# rocksdb_options_file.cc): cmake -P with
#   WRITER    the program run as "WRITER --write DB"
#   READER    the program run as "READER --read DB"
#   EXPECTED  the file READER's standard output must equal
#   WORK_DIR  where the DB directory goes (removed before and after)
#   NAME      the test's name, in the DB directory's

cmake_minimum_required(VERSION 3.16)

set(_db "${WORK_DIR}/${NAME}_db")
file(REMOVE_RECURSE "${_db}")
execute_process(COMMAND "${WRITER}" --write "${_db}"
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  file(REMOVE_RECURSE "${_db}")
  message(FATAL_ERROR "${WRITER} --write failed (exit status ${_rc})\n${_err}")
endif()
execute_process(COMMAND "${READER}" --read "${_db}"
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
file(REMOVE_RECURSE "${_db}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${READER} --read failed (exit status ${_rc})\n"
                      "stdout:\n${_out}\nstderr:\n${_err}")
endif()
file(READ "${EXPECTED}" _expected)
if(NOT _out STREQUAL _expected)
  message(FATAL_ERROR "${READER} read other than ${EXPECTED}:\n"
                      "==== read\n${_out}==== expected\n${_expected}====")
endif()
message(STATUS "${READER} read what ${WRITER} wrote")
