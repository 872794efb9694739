#!/usr/bin/env bash
# The main job, end to end on a fresh machine: install what is missing, build,
# then pad a real photograph (data/astronaut.png, NASA, public domain) with the
# OpenCL kernel on the default OpenCL device (PoCL when there is no GPU), verify
# the kernel's result byte for byte against the CPU reference, and print the
# device, shapes and throughput. (`--verify` runs the kernel even where a call
# this small would take clpad's faster CPU path on a CPU device; without it
# the CLI keeps that policy.) The padded image is written to
# build/astronaut-padded.png. CLPAD_DEMO_BUILT=1 skips the install and the
# build (the build directory, CLPAD_BUILD_DIR or build/, is built already).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${CLPAD_DEMO_BUILT:-0}" != 1 ]; then
  bash scripts/bootstrap.sh
  bash scripts/build.sh
fi
build="${CLPAD_BUILD_DIR:-build}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac  # absolute: relative to the repository
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}"
mkdir -p "$POCL_CACHE_DIR"
"$build/clpad" devices
# Reflect-pad 64 pixels on every side (channels untouched) with the kernel,
# verify against the CPU reference, report the device and the kernel's time.
"$build/clpad" pad --mode reflect --pads-begin 64,64 --pads-end 64,64 --verify \
  data/astronaut.png "$build/astronaut-padded.png"
echo "wrote $build/astronaut-padded.png"
