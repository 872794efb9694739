# The `consumer` CTest: install the current build to a temporary prefix, then
# build tests/consumer against that installation only, once with
# find_package(clpad) (CMAKE_PREFIX_PATH) and once with pkg-config
# (PKG_CONFIG_PATH), and run the programs on the default OpenCL device.
#
#   cmake -DBUILD_DIR=... -DCONSUMER_DIR=... -DWORK_DIR=... [-DCONFIG=Release]
#         [-DGENERATOR=...] [-DMAKE_PROGRAM=...] [-DC_COMPILER=...] [-DNM=...]
#         [-DPKG_CONFIG=...] [-DSANITIZE=address,undefined] -P run_consumer.cmake
#
# Prints "CLPAD_CONSUMER_SKIP: ..." (CTest SKIP_REGULAR_EXPRESSION) when
# everything passed but no OpenCL device ran the device part.
cmake_minimum_required(VERSION 3.20)

foreach(var BUILD_DIR CONSUMER_DIR WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()

function(step name)
  message(STATUS "---- ${name}")
endfunction()

# run(<what> <expect: PASS|ALLOW_SKIP> COMMAND ...): runs, echoes output, fails
# on a non-zero status (77 allowed with ALLOW_SKIP: sets skipped in the parent).
macro(run what expect)
  execute_process(${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(_out)
    message("${_out}")
  endif()
  if("${expect}" STREQUAL "ALLOW_SKIP" AND "${_rc}" STREQUAL "77")
    set(skipped "${skipped} ${what}")
  elseif(NOT "${_rc}" STREQUAL "0")
    message(FATAL_ERROR "consumer: ${what} failed (exit status ${_rc})")
  endif()
endmacro()

set(skipped "")
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# --- 1. Install the current build ----------------------------------------------
step("cmake --install ${BUILD_DIR} --prefix ${prefix}")
run("cmake --install" PASS
    COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")

file(GLOB_RECURSE config_files "${prefix}/*/clpadConfig.cmake")
file(GLOB_RECURSE pc_files "${prefix}/*/clpad.pc")
file(GLOB_RECURSE shared_libs "${prefix}/*/libclpad.so")
file(GLOB_RECURSE static_libs "${prefix}/*/libclpad.a")
file(GLOB headers "${prefix}/include/clpad.h" "${prefix}/include/clpad_window.h")
foreach(list config_files pc_files shared_libs static_libs)
  list(LENGTH ${list} n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "consumer: expected one installed file for ${list}, found: '${${list}}'")
  endif()
endforeach()
list(LENGTH headers n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "consumer: include/clpad.h and include/clpad_window.h not both installed")
endif()
get_filename_component(pc_dir "${pc_files}" DIRECTORY)
message(STATUS "installed: ${shared_libs}, ${static_libs}, ${config_files}, ${pc_files}")

# --- 2. Only clpad_* symbols are exported ---------------------------------------
if(NM)
  step("nm -D --defined-only ${shared_libs}")
  execute_process(COMMAND "${NM}" -D --defined-only "${shared_libs}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE syms ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer: nm failed: ${err}")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${syms}")
  set(count 0)
  set(foreign "")
  foreach(line IN LISTS lines)
    if(line MATCHES "([^ \t]+)$")
      set(sym "${CMAKE_MATCH_1}")
      if(sym MATCHES "^clpad_")
        math(EXPR count "${count} + 1")
      else()
        list(APPEND foreign "${sym}")
      endif()
    endif()
  endforeach()
  if(foreign)
    message(FATAL_ERROR "consumer: libclpad.so exports symbols outside clpad_*: ${foreign}")
  endif()
  if(count LESS 10)
    message(FATAL_ERROR "consumer: libclpad.so exports only ${count} clpad_* symbols")
  endif()
  message(STATUS "libclpad.so exports ${count} symbols, all clpad_*")
endif()

# --- 3. find_package(clpad) ------------------------------------------------------
set(cmake_args -S "${CONSUMER_DIR}" -B "${WORK_DIR}/cmake"
               "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_BUILD_TYPE=${CONFIG}")
if(GENERATOR)
  list(APPEND cmake_args -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND cmake_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(C_COMPILER)
  list(APPEND cmake_args "-DCMAKE_C_COMPILER=${C_COMPILER}")
endif()
set(extra_flags "")
if(SANITIZE)
  # libclpad is instrumented: so must the programs be, with the runtime first.
  set(extra_flags "-fsanitize=${SANITIZE}")
  list(APPEND cmake_args "-DCMAKE_C_FLAGS=${extra_flags}" "-DCMAKE_CXX_FLAGS=${extra_flags}"
                         "-DCMAKE_EXE_LINKER_FLAGS=${extra_flags}")
endif()
step("find_package: configure ${CONSUMER_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" ${cmake_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer: configuring the find_package consumer failed")
endif()
string(FIND "${out}" "from ${prefix}/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "consumer: find_package(clpad) did not find the package in ${prefix}")
endif()
step("find_package: build")
run("find_package build" PASS
    COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}/cmake" --config "${CONFIG}")

set(programs consumer consumer_static consumer_cxx)
foreach(prog IN LISTS programs)
  set(exe "")
  foreach(candidate "${WORK_DIR}/cmake/${prog}" "${WORK_DIR}/cmake/${CONFIG}/${prog}")
    if(EXISTS "${candidate}" AND NOT IS_DIRECTORY "${candidate}")
      set(exe "${candidate}")
      break()
    endif()
  endforeach()
  if(NOT exe)
    if(prog STREQUAL "consumer_cxx")
      message(STATUS "no C++ compiler: ${prog} not built")
      continue()
    endif()
    message(FATAL_ERROR "consumer: ${prog} was not built")
  endif()
  step("find_package: run ${prog}")
  run("${prog}" ALLOW_SKIP COMMAND "${exe}")
endforeach()

# --- 4. pkg-config ----------------------------------------------------------------
if(NOT PKG_CONFIG)
  find_program(PKG_CONFIG NAMES pkg-config pkgconf)
endif()
find_program(SH sh)
if(PKG_CONFIG AND SH)
  step("pkg-config: PKG_CONFIG_PATH=${pc_dir} build and run")
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  set(ENV{PKG_CONFIG} "${PKG_CONFIG}")
  if(C_COMPILER)
    set(ENV{CC} "${C_COMPILER}")
  endif()
  set(ENV{CLPAD_CONSUMER_FLAGS} "${extra_flags}")
  run("pkg-config consumer" ALLOW_SKIP
      COMMAND "${SH}" "${CONSUMER_DIR}/build_pkgconfig.sh" "${WORK_DIR}/pkgconfig")
else()
  message(FATAL_ERROR "consumer: pkg-config or sh not found: the pkg-config variant cannot run")
endif()

if(skipped)
  message("CLPAD_CONSUMER_SKIP: no OpenCL device for the device part of:${skipped}")
else()
  message(STATUS "consumer: all passed")
endif()
