#!/usr/bin/env bash
# Configure and build clpad. Environment:
#   CLPAD_BUILD_DIR  build directory (default: build)
#   CLPAD_SANITIZE   e.g. address,undefined (default: none)
#   CLPAD_WERROR     ON to treat warnings as errors (default: ON)
#   CLPAD_CPU_DISPATCH  OFF to build only the portable CPU path, not its AVX2
#                    variants picked at load time (default: ON)
#   CLPAD_TEST_POCL_CACHE_DIR  PoCL's kernel cache for the tests (default:
#                    pocl-cache in the build directory)
#   CLPAD_BUILD_TARGETS  the CMake targets to build, separated by spaces
#                    (default: all)
#   CLPAD_PEER_VENV  the peer tests' venv (default: peer-venv in the build
#                    directory; another build directory's may be shared)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${CLPAD_BUILD_DIR:-build}"
mkdir -p "$build"
pocl_cache="${CLPAD_TEST_POCL_CACHE_DIR:-$(cd "$build" && pwd)/pocl-cache}"
cmake -S . -B "$build" -DCLPAD_WERROR="${CLPAD_WERROR:-ON}" \
      -DCLPAD_SANITIZE="${CLPAD_SANITIZE:-}" -DCLPAD_CPU_DISPATCH="${CLPAD_CPU_DISPATCH:-ON}" \
      -DCLPAD_TEST_POCL_CACHE_DIR="$pocl_cache" \
      ${CLPAD_PEER_VENV:+-DCLPAD_PEER_VENV="$CLPAD_PEER_VENV"} \
      >/dev/null
targets=()
for t in ${CLPAD_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" -j"$(nproc)" "${targets[@]}"
