#!/usr/bin/env bash
# Compare clpad with numpy.pad, OpenVINO (CPU plugin) and ONNX Runtime on the
# cases of `clpad bench`. Makes a virtual environment in build/bench-venv with
# the peers from PyPI (once), then runs bench/peers.py. Arguments go to
# peers.py (--runs N, --quick, --filter RE, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${CLPAD_BUILD_DIR:-build}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac  # absolute: relative to the repository
venv="$build/bench-venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q numpy openvino onnx onnxruntime pyopencl
fi
# (a venv made before clpad's PyOpenCL path was timed)
"$venv/bin/python" -c "import pyopencl" 2>/dev/null || "$venv/bin/pip" install -q pyopencl
[ -x "$build/clpad" ] || bash scripts/build.sh
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}"
# clpad's own Python call is timed beside the peers: the package from python/
# on the library just built, PoCL's workers pinned as `clpad bench` pins them.
export CLPAD_LIBRARY="${CLPAD_LIBRARY:-$build/libclpad.so}"
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
export POCL_AFFINITY="${POCL_AFFINITY:-1}"
exec "$venv/bin/python" bench/peers.py --clpad "$build/clpad" "$@"
