# Packaging tests, included from tests/CMakeLists.txt:
#
#   test_consumer  (label consumer): install this build to a temporary prefix
#                  and build tests/consumer against it with find_package(clpad)
#                  and with pkg-config (C, static, and C++), run on the
#                  default OpenCL device. tests/consumer/run_consumer.cmake.
#   test_python    (label python): `pip wheel` of the repository (the library
#                  built inside the wheel), installed in a fresh venv in the
#                  build tree, and the pytest suite. python/tests/run_ctest.py.
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
# The wheel that `pip wheel .` builds at the repository root (scikit-build-core,
# the library compiled by this project's CMake inside it), installed in a fresh
# venv under the build tree, and the pytest suite run against it: see
# python/tests/run_ctest.py. The wheelhouse it downloads once (PyPI) and the
# wheel's CMake build directory stay under the build tree between runs.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME test_python
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/python/tests/run_ctest.py
            --work ${CMAKE_CURRENT_BINARY_DIR}/python
            --source ${PROJECT_SOURCE_DIR}
            --sanitize=${_clpad_sanitize})
  # CLPAD_TEST_ENV sets CLPAD_CLI ($<TARGET_FILE:clpad_cli>) for the CLI cross-checks;
  # CLPAD_LIBRARY (this tree's library) is for the override test only: run_ctest.py
  # unsets it, so that the installed package loads its own.
  set(_clpad_python_env ${CLPAD_TEST_ENV} "CLPAD_LIBRARY=$<TARGET_FILE:clpad>")
  set_tests_properties(test_python PROPERTIES
    ENVIRONMENT "${_clpad_python_env}"
    SKIP_RETURN_CODE 77
    LABELS "python"
    TIMEOUT 900)
else()
  add_test(NAME test_python
    COMMAND ${CMAKE_COMMAND} -E echo "SKIP: no python3 interpreter found")
  set_tests_properties(test_python PROPERTIES
    SKIP_REGULAR_EXPRESSION "SKIP:"
    LABELS "python")
endif()
