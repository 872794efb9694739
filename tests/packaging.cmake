# Packaging tests, included from tests/CMakeLists.txt:
#
#   test_consumer  (label consumer): install this build to a temporary prefix
#                  and build tests/consumer against it with find_package(clpad)
#                  and with pkg-config (C, static, and C++), run on the
#                  default OpenCL device. tests/consumer/run_consumer.cmake.
#   test_python_wheel (label python): the wheel as scripts/build_wheel.sh
#                  builds it (`pip wheel .`, auditwheel repair), and what it
#                  must hold. python/tests/run_ctest.py --stage wheel.
#   test_python    (label python): that wheel installed in a fresh venv in the
#                  build tree, and the pytest suite. run_ctest.py --stage test.
#   test_python_pocl (label python): that wheel with its pocl extra, with the
#                  system's OpenCL drivers hidden (a private mount namespace)
#                  and with them. python/tests/run_pocl.py.
#
# Both report Skipped, never Passed, when the environment cannot run them.

# --- Consumer of the installed package ---------------------------------------------
if(NOT CMAKE_NM)
  find_program(CMAKE_NM nm)
endif()
set(_clpad_sanitize "")
if(CLPAD_SANITIZE)
  set(_clpad_sanitize "${CLPAD_SANITIZE}")
endif()
add_test(NAME test_consumer
  COMMAND ${CMAKE_COMMAND}
          -DBUILD_DIR=${CMAKE_BINARY_DIR}
          -DCONSUMER_DIR=${CMAKE_CURRENT_SOURCE_DIR}/consumer
          -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/consumer
          -DCONFIG=$<CONFIG>
          -DGENERATOR=${CMAKE_GENERATOR}
          -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}
          -DC_COMPILER=${CMAKE_C_COMPILER}
          -DNM=${CMAKE_NM}
          -DPKG_CONFIG=${PKG_CONFIG_EXECUTABLE}
          -DSANITIZE=${_clpad_sanitize}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/run_consumer.cmake)
set_tests_properties(test_consumer PROPERTIES
  ENVIRONMENT "${CLPAD_TEST_ENV}"
  SKIP_REGULAR_EXPRESSION "CLPAD_CONSUMER_SKIP:"
  LABELS "consumer"
  TIMEOUT 300)

# --- Python package -------------------------------------------------------------------
# The wheel that scripts/build_wheel.sh builds from the repository root
# (scikit-build-core: the library and the CLI compiled by this project's CMake
# inside it; auditwheel repair), built once by test_python_wheel (the fixture
# the two others require), installed in a fresh venv under the build tree, and
# the pytest suite run against it: see python/tests/run_ctest.py. The
# wheelhouse it downloads once (PyPI) and the wheel's CMake build directory
# stay under the build tree between runs.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(_clpad_python_work ${CMAKE_CURRENT_BINARY_DIR}/python)
  add_test(NAME test_python_wheel
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/python/tests/run_ctest.py
            --work ${_clpad_python_work} --source ${PROJECT_SOURCE_DIR} --stage wheel
            --sanitize=${_clpad_sanitize})
  set_tests_properties(test_python_wheel PROPERTIES
    FIXTURES_SETUP clpad_wheel
    SKIP_RETURN_CODE 77
    LABELS "python"
    TIMEOUT 900)
  add_test(NAME test_python
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/python/tests/run_ctest.py
            --work ${_clpad_python_work} --source ${PROJECT_SOURCE_DIR} --stage test
            --sanitize=${_clpad_sanitize})
  # CLPAD_TEST_ENV sets CLPAD_CLI ($<TARGET_FILE:clpad_cli>) for the CLI cross-checks;
  # CLPAD_LIBRARY (this tree's library) is for the override test only: run_ctest.py
  # unsets it, so that the installed package loads its own.
  set(_clpad_python_env ${CLPAD_TEST_ENV} "CLPAD_LIBRARY=$<TARGET_FILE:clpad>")
  set_tests_properties(test_python PROPERTIES
    ENVIRONMENT "${_clpad_python_env}"
    FIXTURES_REQUIRED clpad_wheel
    SKIP_RETURN_CODE 77
    LABELS "python"
    TIMEOUT 900)
  # The wheel and its pocl extra where the system registers no OpenCL driver
  # (its /etc/OpenCL/vendors hidden in a private mount namespace: root only,
  # else Skipped), then with the system's drivers ($CLPAD_CLI: the build
  # tree's CLI, for the device list through the system's ICD loader).
  add_test(NAME test_python_pocl
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/python/tests/run_pocl.py
            --work ${_clpad_python_work} --source ${PROJECT_SOURCE_DIR}
            --sanitize=${_clpad_sanitize})
  set_tests_properties(test_python_pocl PROPERTIES
    ENVIRONMENT "${CLPAD_TEST_ENV}"
    FIXTURES_REQUIRED clpad_wheel
    SKIP_RETURN_CODE 77
    LABELS "python"
    TIMEOUT 600)
else()
  add_test(NAME test_python
    COMMAND ${CMAKE_COMMAND} -E echo "SKIP: no python3 interpreter found")
  set_tests_properties(test_python PROPERTIES
    SKIP_REGULAR_EXPRESSION "SKIP:"
    LABELS "python")
endif()
