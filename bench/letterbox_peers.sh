#!/usr/bin/env bash
# Time clpad.letterbox against OpenCV and OpenVINO's PrePostProcessor on the
# letterbox batches of `clpad bench` (bench/letterbox_peers.py). Uses the
# virtual environment of bench/peers.sh (build/bench-venv), adding
# opencv-python-headless to it once. Arguments go to letterbox_peers.py
# (--runs N, --batch 16-mixed|64-small, --device SPEC).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/venv.sh
bench_need cv2 opencv-python-headless
bench_need openvino
[ -f "$build/libclpad.so" ] || bash scripts/build.sh
bench_env
export POCL_AFFINITY="${POCL_AFFINITY:-1}"
exec "$venv/bin/python" bench/letterbox_peers.py "$@"
