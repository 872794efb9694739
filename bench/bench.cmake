# The throughput harness: a library used by `clpad bench` and the standalone
# `clpad-bench` executable.
if(CLPAD_BUILD_CLI)
  add_library(clpad_bench_lib STATIC ${CMAKE_CURRENT_LIST_DIR}/bench.c)
  target_include_directories(clpad_bench_lib PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  target_compile_definitions(clpad_bench_lib PRIVATE _POSIX_C_SOURCE=200809L)
  clpad_target_options(clpad_bench_lib)
  target_link_libraries(clpad_bench_lib PUBLIC clpad PRIVATE PkgConfig::CJSON)

  add_executable(clpad_bench_exe ${CMAKE_CURRENT_LIST_DIR}/main.c)
  set_target_properties(clpad_bench_exe PROPERTIES OUTPUT_NAME clpad-bench)
  clpad_target_options(clpad_bench_exe)
  target_link_libraries(clpad_bench_exe PRIVATE clpad_bench_lib)

  target_link_libraries(clpad_cli PRIVATE clpad_bench_lib)
endif()
