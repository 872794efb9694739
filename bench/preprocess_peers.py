#!/usr/bin/env python3
"""Time clpad.preprocess(preset="imagenet") against the same recipe on the
CPU, on a batch of real photographs.

The recipe (torchvision's ImageNet evaluation transforms on PIL images):
Resize(256) with Pillow's antialiased bilinear, CenterCrop(224), ToTensor
(/ 255 in float32), Normalize(ImageNet mean, std), NCHW float32 batch.

Batch: --batch N (default 32) photographs from the peer tests' sample photos
(tests/peer/fetch_photos.py: scikit-image, scikit-learn, matplotlib and
Ultralytics assets; cycled when fewer), decoded once to RGB arrays outside
the timing.

Contenders, each one call from the list of images to the batch (median of
--runs after a warm-up, one process):
  clpad        clpad.preprocess(arrays, 224, preset="imagenet", out=batch) on
               the default device (PoCL on a CPU machine): one kernel launch.
  clpad-ref    the same on clpad's CPU reference path (device="reference").
  pillow       per image Image.fromarray, .resize((w', h'), BILINEAR), .crop,
               np.asarray, then NumPy float32 / 255, - mean, / std, stacked and
               transposed to NCHW: the same bytes as clpad (checked).
  opencv-area  per image cv2.resize(INTER_AREA) to the shorter side 256, the
               crop, then cv2.dnn.blobFromImages-free NumPy normalisation:
               OpenCV users' antialiased alternative (not the same bytes).
Each line gives ms per batch, images/s and the ratio to clpad (> 1: clpad
faster). Also printed: the kernel time of one clpad call (clpad.last_run_info
where the package reports it).

Run:  python3 bench/preprocess_peers.py --photos DIR [--batch N] [--runs N]
with numpy, Pillow and opencv-python-headless importable (the peer venv has
them) and the package of python/ over the library just built
(CLPAD_LIBRARY=build/libclpad.so PYTHONPATH=python).
"""
import argparse
import glob
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import clpad  # noqa: E402

MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def median_ms(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def resized(h, w, S=256):
    short, long_ = (w, h) if w <= h else (h, w)
    nl = int(S * long_ / short)
    return (nl, S) if w <= h else (S, nl)  # (h', w')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", required=True)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    from PIL import Image
    import cv2
    files = sorted(f for f in glob.glob(os.path.join(a.photos, "*"))
                   if f.lower().endswith((".png", ".jpg", ".jpeg")))
    imgs = []
    for f in files:
        im = Image.open(f).convert("RGB")
        if min(im.size) >= 224:
            imgs.append(np.asarray(im))
    imgs = (imgs * (a.batch // max(len(imgs), 1) + 1))[:a.batch]
    sizes = sorted({x.shape[:2] for x in imgs})
    print("batch: %d photos, %d sizes from %s to %s; device: %s; %d cores"
          % (len(imgs), len(sizes), sizes[0], sizes[-1], clpad.context_info().get("device"),
             os.cpu_count()))
    out = np.empty((len(imgs), 3, 224, 224), np.float32)

    def clpad_call(dev=None):
        clpad.preprocess(imgs, 224, preset="imagenet", out=out, device=dev)

    def pillow_call():
        rows = []
        for x in imgs:
            h, w = x.shape[:2]
            nh, nw = resized(h, w)
            r = Image.fromarray(x).resize((nw, nh), Image.BILINEAR)
            top, left = int(round((nh - 224) / 2.0)), int(round((nw - 224) / 2.0))
            c = np.asarray(r.crop((left, top, left + 224, top + 224)))
            rows.append((c.astype(np.float32) / np.float32(255) - MEAN) / STD)
        return np.ascontiguousarray(np.stack(rows).transpose(0, 3, 1, 2))

    def opencv_call():
        rows = []
        for x in imgs:
            h, w = x.shape[:2]
            nh, nw = resized(h, w)
            r = cv2.resize(x, (nw, nh), interpolation=cv2.INTER_AREA)
            top, left = int(round((nh - 224) / 2.0)), int(round((nw - 224) / 2.0))
            c = r[top:top + 224, left:left + 224]
            rows.append((c.astype(np.float32) / np.float32(255) - MEAN) / STD)
        return np.ascontiguousarray(np.stack(rows).transpose(0, 3, 1, 2))

    clpad_call()
    same = pillow_call().tobytes() == out.tobytes()
    print("clpad == pillow + numpy, byte for byte: %s" % same)
    t = {"clpad": median_ms(clpad_call, a.runs),
         "clpad-ref": median_ms(lambda: clpad_call(clpad.REFERENCE), a.runs),
         "pillow": median_ms(pillow_call, a.runs),
         "opencv-area": median_ms(opencv_call, a.runs)}
    for name, ms in t.items():
        print("%-12s %9.1f ms  %8.1f images/s  x%.2f" % (name, ms, len(imgs) / ms * 1e3,
                                                         ms / t["clpad"]))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
