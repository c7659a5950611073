# Installs the build at STRATA_BUILD_DIR into a scratch prefix, then builds
# and runs test/install_consumer against it: through find_package(strata)
# and strata::strata, and (natively) through pkg-config; a shared library
# is also loaded at run time by test/dynamic_load. Run by ctest as the
# install_consumer test.
#
# Inputs: STRATA_BUILD_DIR, STRATA_CONSUMER_SOURCE, STRATA_WORK_DIR,
# STRATA_GENERATOR, STRATA_BUILD_TYPE; for a cross build also
# STRATA_TOOLCHAIN_FILE, STRATA_EMULATOR and STRATA_OBJDUMP;
# STRATA_SANITIZE_FLAGS when the library was built with sanitizers.
#
# An installed strata.dll or libstrata.so must export the public API only:
# cmake/scripts/check_exports.sh checks that first.

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
                  WORKING_DIRECTORY ${STRATA_WORK_DIR}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(LAST_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${STRATA_WORK_DIR}/prefix)
set(build ${STRATA_WORK_DIR}/build)
file(REMOVE_RECURSE ${STRATA_WORK_DIR})
file(MAKE_DIRECTORY ${STRATA_WORK_DIR})

run("cmake --install" ${CMAKE_COMMAND} --install ${STRATA_BUILD_DIR}
    --prefix ${prefix})

file(GLOB shared_lib ${prefix}/bin/strata.dll ${prefix}/lib*/libstrata.so)
if(shared_lib)
  set(tools "")
  if(STRATA_OBJDUMP)
    list(APPEND tools OBJDUMP=${STRATA_OBJDUMP})
  endif()
  run("the export check of ${shared_lib}" ${CMAKE_COMMAND} -E env ${tools}
      bash ${CMAKE_CURRENT_LIST_DIR}/scripts/check_exports.sh
      ${shared_lib} ${prefix}/include/strata)
  message(STATUS "${LAST_OUTPUT}")
endif()

# What every project built here is configured with; -S and -B follow.
set(configure_args -G ${STRATA_GENERATOR}
    -DCMAKE_BUILD_TYPE=${STRATA_BUILD_TYPE})
# The prefix is found as a user on Linux would name it, also when
# cross-compiling: the toolchain file searches for packages in the host
# paths given as well as under its roots.
list(APPEND configure_args -DCMAKE_PREFIX_PATH=${prefix})
if(STRATA_TOOLCHAIN_FILE)
  list(APPEND configure_args -DCMAKE_TOOLCHAIN_FILE=${STRATA_TOOLCHAIN_FILE})
endif()
if(STRATA_SANITIZE_FLAGS)
  list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${STRATA_SANITIZE_FLAGS}"
       "-DCMAKE_C_FLAGS=${STRATA_SANITIZE_FLAGS}"
       "-DCMAKE_EXE_LINKER_FLAGS=${STRATA_SANITIZE_FLAGS}")
endif()

run("configure the consumer" ${CMAKE_COMMAND} -S ${STRATA_CONSUMER_SOURCE}
    -B ${build} ${configure_args})
run("build the consumer" ${CMAKE_COMMAND} --build ${build})

set(exe ${build}/strata_consumer)
set(c_exe ${build}/strata_c_consumer)
if(STRATA_TOOLCHAIN_FILE)
  set(exe ${exe}.exe)
  set(c_exe ${c_exe}.exe)
  # A DLL build installs strata.dll in bin/: Wine finds it through WINEPATH,
  # not in the build tree (the run's working directory is the scratch dir).
  set(ENV{WINEPATH} "${prefix}/bin")
endif()
run("run the consumer" ${STRATA_EMULATOR} ${exe} ${STRATA_WORK_DIR})
if(NOT LAST_OUTPUT MATCHES "strata consumer: ok")
  message(FATAL_ERROR "the consumer printed:\n${LAST_OUTPUT}")
endif()
message(STATUS "find_package(strata): ${LAST_OUTPUT}")
run("run the C consumer" ${STRATA_EMULATOR} ${c_exe} ${STRATA_WORK_DIR})
if(NOT LAST_OUTPUT MATCHES "strata C consumer: ok")
  message(FATAL_ERROR "the C consumer printed:\n${LAST_OUTPUT}")
endif()
message(STATUS "find_package(strata) from C: ${LAST_OUTPUT}")

# A shared library is also loaded at run time by a program that declares
# the C entry points itself (test/dynamic_load), as a binding does.
if(shared_lib)
  get_filename_component(tests ${STRATA_CONSUMER_SOURCE} DIRECTORY)
  run("configure the dynamic-load program" ${CMAKE_COMMAND}
      -S ${tests}/dynamic_load -B ${build}_dynamic_load ${configure_args})
  run("build the dynamic-load program" ${CMAKE_COMMAND} --build
      ${build}_dynamic_load)
  set(dl_exe ${build}_dynamic_load/strata_dynamic_load)
  if(STRATA_TOOLCHAIN_FILE)
    set(dl_exe ${dl_exe}.exe)
  endif()
  run("run the dynamic-load program" ${STRATA_EMULATOR} ${dl_exe}
      ${shared_lib} ${STRATA_WORK_DIR})
  if(NOT LAST_OUTPUT MATCHES "strata dynamic load: ok")
    message(FATAL_ERROR "the dynamic-load program printed:\n${LAST_OUTPUT}")
  endif()
  message(STATUS "loaded at run time: ${LAST_OUTPUT}")
endif()

# pkg-config, natively: compile the same program with strata.pc's flags.
if(NOT STRATA_TOOLCHAIN_FILE)
  find_program(PKG_CONFIG pkg-config)
  find_program(CXX NAMES c++ g++)
  if(PKG_CONFIG AND CXX)
    file(GLOB pc_dir ${prefix}/lib*/pkgconfig)
    set(ENV{PKG_CONFIG_PATH} ${pc_dir})
    get_filename_component(lib_dir ${pc_dir} DIRECTORY)
    set(ENV{LD_LIBRARY_PATH} ${lib_dir})  # for a shared strata
    run("pkg-config" ${PKG_CONFIG} --static --cflags --libs strata)
    string(STRIP "${LAST_OUTPUT}" pc_flags)
    separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
    separate_arguments(san UNIX_COMMAND "${STRATA_SANITIZE_FLAGS}")
    run("compile with pkg-config flags" ${CXX} -std=c++17 ${san}
        ${STRATA_CONSUMER_SOURCE}/main.cc -o ${STRATA_WORK_DIR}/pc_consumer
        ${pc_flags})
    run("run the pkg-config consumer" ${STRATA_WORK_DIR}/pc_consumer
        ${STRATA_WORK_DIR})
    if(NOT LAST_OUTPUT MATCHES "strata consumer: ok")
      message(FATAL_ERROR "the pkg-config consumer printed:\n${LAST_OUTPUT}")
    endif()
    message(STATUS "pkg-config strata: ${LAST_OUTPUT}")
  else()
    message(FATAL_ERROR "pkg-config or a C++ compiler is missing")
  endif()
endif()
