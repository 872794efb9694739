#!/usr/bin/env bash
# Time clpad.letterbox of NV12 frames against the cv2 chain and OpenVINO's
# PrePostProcessor NV12 path (bench/yuv_peers.py). Uses the virtual
# environment of bench/peers.sh (build/bench-venv), adding
# opencv-python-headless and openvino to it once. Arguments go to
# yuv_peers.py (--runs N, --device SPEC).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${CLPAD_BUILD_DIR:-build}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac  # absolute: relative to the repository
venv="$build/bench-venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q numpy openvino
fi
"$venv/bin/python" -c "import cv2" 2>/dev/null || "$venv/bin/pip" install -q opencv-python-headless
"$venv/bin/python" -c "import openvino" 2>/dev/null || "$venv/bin/pip" install -q openvino
[ -f "$build/libclpad.so" ] || bash scripts/build.sh
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}"
export CLPAD_LIBRARY="${CLPAD_LIBRARY:-$build/libclpad.so}"
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
export POCL_AFFINITY="${POCL_AFFINITY:-1}"
exec "$venv/bin/python" bench/yuv_peers.py "$@"
