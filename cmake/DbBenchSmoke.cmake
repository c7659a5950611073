# One db_bench run for ctest: cmake -P with
#   DB_BENCH   the db_bench binary
#   EMULATOR   what runs it (wine64 for the Windows build), may be empty
#   ARGS       its flags, separated by spaces (--db is added)
#   DB         the DB directory (relative to WORK_DIR), removed before and
#              after
#   WORK_DIR   the working directory
#   EXPECT     a regular expression stdout must match, with exit status 0;
#   or EXPECT_ERROR  one stderr must match, with a non-zero exit status.

separate_arguments(_args UNIX_COMMAND "${ARGS}")
file(REMOVE_RECURSE "${WORK_DIR}/${DB}")
execute_process(
  COMMAND ${EMULATOR} "${DB_BENCH}" ${_args} "--db=${DB}"
  WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE _rc
  OUTPUT_VARIABLE _out
  ERROR_VARIABLE _err)
file(REMOVE_RECURSE "${WORK_DIR}/${DB}")

# Progress lines end in carriage returns; show them as lines.
string(REPLACE "\r" "\n" _err_lines "${_err}")
set(_report "db_bench ${ARGS}\nexit status: ${_rc}\nstdout:\n${_out}\nstderr:\n${_err_lines}")
if(DEFINED EXPECT_ERROR)
  if(_rc EQUAL 0)
    message(FATAL_ERROR "db_bench should have failed\n${_report}")
  endif()
  if(NOT _err MATCHES "${EXPECT_ERROR}")
    message(FATAL_ERROR "stderr does not match '${EXPECT_ERROR}'\n${_report}")
  endif()
else()
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "db_bench failed\n${_report}")
  endif()
  if(NOT _out MATCHES "${EXPECT}")
    message(FATAL_ERROR "stdout does not match '${EXPECT}'\n${_report}")
  endif()
endif()
