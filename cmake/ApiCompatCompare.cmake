# Runs builds of one api_compat program (test/api_compat) and checks that
# their standard output is the same, byte for byte: cmake -P with
#   PROGRAMS  the executables (a ;-list), each run with a DB directory of
#             its own as its argument; each must exit with status 0
#   EMULATOR  what runs them (wine64 for the Windows build), may be empty
#   EXPECTED  optionally, a file every output must equal
#   WORK_DIR  where the DB directories go (removed before and after)
#   NAME      the test's name, in each DB directory's: two tests that run
#             the same program at once must not share a DB
# Line ends are compared as "\n": a Windows build's stdout writes "\r\n".

cmake_minimum_required(VERSION 3.16)  # the project's policies, in -P too

set(_outputs)
set(_names)
set(_i 0)
foreach(_program ${PROGRAMS})
  get_filename_component(_name "${_program}" NAME_WE)
  set(_db "${WORK_DIR}/${NAME}_${_name}_${_i}_db")
  file(REMOVE_RECURSE "${_db}")
  execute_process(
    COMMAND ${EMULATOR} "${_program}" "${_db}"
    WORKING_DIRECTORY "${WORK_DIR}"
    RESULT_VARIABLE _rc
    OUTPUT_VARIABLE _out
    ERROR_VARIABLE _err)
  file(REMOVE_RECURSE "${_db}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${_program} failed (exit status ${_rc})\n"
                        "stdout:\n${_out}\nstderr:\n${_err}")
  endif()
  string(REPLACE "\r\n" "\n" _out "${_out}")
  list(APPEND _names "${_program}")
  # Kept in a variable per program: a list would split the text at ';'.
  set(_out_${_i} "${_out}")
  math(EXPR _i "${_i} + 1")
endforeach()

if(DEFINED EXPECTED AND NOT EXPECTED STREQUAL "")
  file(READ "${EXPECTED}" _expected)
  string(REPLACE "\r\n" "\n" _expected "${_expected}")
  list(APPEND _names "${EXPECTED}")
  set(_out_${_i} "${_expected}")
  math(EXPR _i "${_i} + 1")
endif()

math(EXPR _last "${_i} - 1")
foreach(_j RANGE 1 ${_last})
  if(NOT _out_0 STREQUAL _out_${_j})
    list(GET _names 0 _a)
    list(GET _names ${_j} _b)
    # The first line that differs (walked with FIND: the texts hold
    # brackets and semicolons, which a CMake list would not keep), then
    # both texts whole.
    set(_rest_a "${_out_0}")
    set(_rest_b "${_out_${_j}}")
    set(_shown 1)
    while(TRUE)
      string(FIND "${_rest_a}" "\n" _end_a)
      string(FIND "${_rest_b}" "\n" _end_b)
      if(_end_a EQUAL -1 OR _end_b EQUAL -1)
        break()
      endif()
      string(SUBSTRING "${_rest_a}" 0 ${_end_a} _line_a)
      string(SUBSTRING "${_rest_b}" 0 ${_end_b} _line_b)
      if(NOT _line_a STREQUAL _line_b)
        break()
      endif()
      math(EXPR _end_a "${_end_a} + 1")
      math(EXPR _end_b "${_end_b} + 1")
      string(SUBSTRING "${_rest_a}" ${_end_a} -1 _rest_a)
      string(SUBSTRING "${_rest_b}" ${_end_b} -1 _rest_b)
      math(EXPR _shown "${_shown} + 1")
    endwhile()
    message(FATAL_ERROR
      "outputs differ from line ${_shown}\n"
      "==== ${_a}\n${_out_0}==== ${_b}\n${_out_${_j}}====")
  endif()
endforeach()
list(LENGTH _names _n)
message(STATUS "${_n} outputs identical")
