#!/usr/bin/env bash
# Install what is missing, build with warnings as errors, and run the whole
# CTest suite on the default OpenCL device (PoCL when there is no GPU).
# Extra arguments go to ctest (e.g. -L device, -R pad).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
build="${CLPAD_BUILD_DIR:-build}"
mkdir -p "${CLPAD_TEST_POCL_CACHE_DIR:-$build/pocl-cache}"
# Sanitizer builds: leaks inside OpenCL drivers are suppressed by library
# (tests/lsan.supp), which needs whole malloc stacks (fast_unwind_on_malloc=0):
# drivers have no frame pointers. intercept_tls_get_addr=0: the __tls_get_addr
# interceptor of GCC's sanitizer runtime up to GCC 13 takes a dynamic TLS
# block whose address is 16 bytes past a page boundary for a pre-2.25 glibc
# header and reads the words before it, so LeakSanitizer's tracer crashed at
# exit now and then ("Tracer caught signal 11", no leak reported) in tests
# whose driver (PoCL's LLVM) uses dynamic TLS.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0:intercept_tls_get_addr=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "$@"
