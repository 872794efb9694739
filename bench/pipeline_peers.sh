#!/usr/bin/env bash
# From a folder of photographs to float32 batches: clpad against the
# Ultralytics-style loop, a thread pool of it, OpenCV's blobFromImages and
# Pillow (bench/pipeline_peers.py). Uses the virtual environment of
# bench/peers.sh (build/bench-venv), adding opencv-python-headless and pillow
# once; fetches the sample photographs once (tests/peer/fetch_photos.py, into
# build/peer-data) and makes the bench folder from them (build/bench-photos).
# Arguments go to pipeline_peers.py (--runs N, --batch B, --only A,B, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/venv.sh
# OpenCV 4.x: blobFromImagesWithParams' layout constants (DNN_LAYOUT_NCHW)
# are not in OpenCV 5's Python module
"$venv/bin/python" -c "import cv2, sys; sys.exit(int(cv2.__version__.split('.')[0]) >= 5)" \
  2>/dev/null || "$venv/bin/pip" install -q "opencv-python-headless<5"
bench_need PIL pillow
[ -f "$build/libclpad.so" ] && [ -x "$build/clpad" ] || bash scripts/build.sh
"$venv/bin/python" tests/peer/fetch_photos.py "$build/peer-data"
bench_env
exec "$venv/bin/python" bench/pipeline_peers.py --photos "$build/peer-data/photos" \
  --folder "$build/bench-photos" --cli "$build/clpad" "$@"
