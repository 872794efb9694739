#!/usr/bin/env python3
"""clpad's folder-to-batch pipeline against Ultralytics' predictor step,
sample for sample.

Inputs: the real photographs of tests/peer/fetch_photos.py and the files
bench/pipeline_peers.py derives from them (JPEG re-encodes, halves, crops,
grey JPEGs, EXIF orientations 3/6/8, RGBA and 16-bit PNGs, doubled JPEGs and
two upscaled 12 MP JPEGs), made once into a temporary folder.

Reference: Ultralytics' predictor preprocessing as it runs on files:
cv2.imread, LetterBox (auto=False: r = min(640/h, 640/w), round, cv2.resize
INTER_LINEAR, copyMakeBorder 114), np.stack, BGR -> RGB, HWC -> CHW, float32,
/ 255 (bench/pipeline_peers.py's `ul_letterbox` / `ul_batch`).

Checked, each with 0 differing float32 samples (any difference fails):
  clpad.letterbox_files(folder, 640, preset="ultralytics")  (batches of 32)
  clpad letterbox --preset ultralytics --size 640,640 FOLDER OUT.npy (the CLI)
  clpad.letterbox(paths, 640, preset="ultralytics")          (a batch of paths)
Reported, not checked: how far decode_scale="auto" moves the batch (max and
mean absolute difference in 1/255 units).

Exit status: 0 no failure, 1 failures, 77 nothing could run.
"""

import argparse
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import cv2  # noqa: F401
except ImportError as e:  # pragma: no cover
    print("SKIP: pipeline peer: %s (run tests/peer/with_photos.sh pipeline_peer.py)" % e)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import clpad  # noqa: E402
import pipeline_peers as pp  # noqa: E402


def compare(name, ref, got, failures):
    diff = 0
    for k, (r, g) in enumerate(zip(ref, got)):
        g = np.asarray(g)
        if r.shape != g.shape:
            failures.append("%s: batch %d has shape %s, Ultralytics' %s" % (name, k, g.shape,
                                                                              r.shape))
            return
        diff += int((r != g).sum())
    print("%-34s %d differing samples" % (name, diff))
    if diff:
        failures.append("%s: %d samples differ from Ultralytics' batch" % (name, diff))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", required=True)
    ap.add_argument("--cli", default=os.environ.get("CLPAD_CLI"))
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "folder")
        n = pp.make_folder(args.photos, folder)
        files = pp.folder_files(folder)
        print("%d files made from %s" % (n, args.photos))
        ref = list(pp.run_ultralytics(files, 32))
        got = (b.copy() for b, _, _ in clpad.letterbox_files(folder, 640, batch=32,
                                                              preset="ultralytics"))
        compare("letterbox_files(preset=ultralytics)", ref, got, failures)
        if args.cli:
            out = os.path.join(tmp, "out.npy")
            r = subprocess.run([args.cli, "letterbox", "-q", "--preset", "ultralytics", "--size",
                                "640,640", folder, out], capture_output=True, text=True)
            if r.returncode:
                failures.append("the CLI failed: %s" % r.stderr.strip())
            else:
                whole = np.load(out, mmap_mode="r")
                compare("clpad letterbox --preset ultralytics", ref,
                        (whole[i:i + 32] for i in range(0, len(whole), 32)), failures)
                del whole
        else:
            print("the CLI: not checked (no --cli, no $CLPAD_CLI)")
        part = files[:32]
        b, _ = clpad.letterbox(part, 640, preset="ultralytics")
        compare("letterbox(paths, preset=ultralytics)", ref[:1], [b], failures)
        scaled = clpad.letterbox_files(folder, 640, batch=32, preset="ultralytics",
                                       decode_scale="auto")
        worst, total, count = 0.0, 0.0, 0
        for r, (g, _, _) in zip(ref, scaled):
            d = np.abs(r - g) * 255
            worst = max(worst, float(d.max()))
            total += float(d.sum())
            count += d.size
        print("decode_scale=auto (not exact): max |difference| %.0f, mean %.3f (1/255 units)"
              % (worst, total / count))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
