# The `docs` tests, included from tests/CMakeLists.txt: the README files' code
# blocks run as written, in a directory that looks like a clone of this
# repository with this build tree as its `build/` (tests/docs/run_readme.py).
#
#   docs_readme         `sh` blocks, and the C program, CMake project and
#                       pkg-config builds they write and compile
#   docs_readme_python  `python` blocks, in the virtual environment that
#                       test_python makes (Skipped with the reason without it)
#   docs_script_paths   bench/peers.sh and bench/letterbox_peers.sh with an
#                       absolute CLPAD_BUILD_DIR (tests/docs/run_scripts.sh)
#   docs_demo           scripts/demo.sh on this build tree: the pad runs the
#                       OpenCL kernel and is verified (Skipped without a device)
find_package(Python3 COMPONENTS Interpreter QUIET)
# Not in a sanitizer build: the README compiles programs with a plain `cc`
# against this build's libclpad, which then needs the sanitizer's runtime
# first in the link (and the Release suite runs these same blocks anyway).
if(NOT Python3_Interpreter_FOUND OR NOT CLPAD_BUILD_CLI OR CLPAD_SANITIZE)
  return()
endif()
set(_clpad_docs_files README.md python/README.md)
add_test(NAME docs_readme
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/run_readme.py
          --source ${PROJECT_SOURCE_DIR} --build ${CMAKE_BINARY_DIR}
          --work ${CMAKE_CURRENT_BINARY_DIR}/docs --group shell
          ${_clpad_docs_files})
set_tests_properties(docs_readme PROPERTIES
  ENVIRONMENT "${CLPAD_TEST_ENV}"
  SKIP_RETURN_CODE 77
  LABELS "docs"
  TIMEOUT 600)
add_test(NAME docs_readme_python
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/run_readme.py
          --source ${PROJECT_SOURCE_DIR} --build ${CMAKE_BINARY_DIR}
          --work ${CMAKE_CURRENT_BINARY_DIR}/docs --group python
          --python ${CMAKE_CURRENT_BINARY_DIR}/python/venv/bin/python
          ${_clpad_docs_files})
# After test_python, which makes (or remakes) the venv with this tree's wheel.
set_tests_properties(docs_readme_python PROPERTIES
  ENVIRONMENT "${CLPAD_TEST_ENV}"
  SKIP_RETURN_CODE 77
  DEPENDS test_python
  LABELS "docs"
  TIMEOUT 600)
# The scripts a reader runs first (tests/docs/run_scripts.sh): the bench
# scripts with an absolute CLPAD_BUILD_DIR, and the README's demo on this
# build tree, whose pad must run on the OpenCL device and be verified.
add_test(NAME docs_script_paths
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/docs/run_scripts.sh paths ${PROJECT_SOURCE_DIR})
set_tests_properties(docs_script_paths PROPERTIES LABELS "docs" TIMEOUT 60)
add_test(NAME docs_demo
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/docs/run_scripts.sh demo ${PROJECT_SOURCE_DIR}
          ${CMAKE_BINARY_DIR})
set_tests_properties(docs_demo PROPERTIES
  ENVIRONMENT "${CLPAD_TEST_ENV}"
  SKIP_RETURN_CODE 77
  LABELS "docs"
  TIMEOUT 600)
