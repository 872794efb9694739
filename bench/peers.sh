#!/usr/bin/env bash
# Compare clpad with numpy.pad, OpenVINO (CPU plugin) and ONNX Runtime on the
# cases of `clpad bench`. Makes a virtual environment in build/bench-venv with
# the peers from PyPI (once), then runs bench/peers.py. Arguments go to
# peers.py (--runs N, --quick, --filter RE, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/venv.sh
for m in openvino onnx onnxruntime pyopencl; do bench_need $m; done
[ -x "$build/clpad" ] || bash scripts/build.sh
# clpad's own Python call is timed beside the peers: the package from python/
# on the library just built, PoCL's workers pinned as `clpad bench` pins them.
bench_env
export POCL_AFFINITY="${POCL_AFFINITY:-1}"
exec "$venv/bin/python" bench/peers.py --clpad "$build/clpad" "$@"
