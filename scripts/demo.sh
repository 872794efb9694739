#!/usr/bin/env bash
# The main job, end to end on a fresh machine: install what is missing, build,
# then pad a real photograph (data/astronaut.png, NASA, public domain) on the
# default OpenCL device (PoCL when there is no GPU), verify the result byte
# for byte against the CPU reference, and print the device, shapes and
# throughput. The padded image is written to build/astronaut-padded.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
build="${CLPAD_BUILD_DIR:-build}"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$PWD/$build/pocl-cache}"
mkdir -p "$POCL_CACHE_DIR"
"$build/clpad" devices
# Reflect-pad 64 pixels on every side (channels untouched), verify, report.
"$build/clpad" pad --mode reflect --pads-begin 64,64 --pads-end 64,64 --verify \
  data/astronaut.png "$build/astronaut-padded.png"
echo "wrote $build/astronaut-padded.png"
