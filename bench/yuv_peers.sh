#!/usr/bin/env bash
# Time clpad.letterbox of NV12 frames against the cv2 chain and OpenVINO's
# PrePostProcessor NV12 path (bench/yuv_peers.py). Uses the virtual
# environment of bench/peers.sh (build/bench-venv), adding
# opencv-python-headless and openvino to it once. Arguments go to
# yuv_peers.py (--runs N, --device SPEC).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/venv.sh
bench_need cv2 opencv-python-headless
bench_need openvino
[ -f "$build/libclpad.so" ] || bash scripts/build.sh
bench_env
export POCL_AFFINITY="${POCL_AFFINITY:-1}"
exec "$venv/bin/python" bench/yuv_peers.py "$@"
