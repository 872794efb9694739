#!/usr/bin/env python3
"""How far JPEG decode scaling (clpad.imread's min_size: libjpeg-turbo's
M/8 DCT-domain scaling) moves a letterboxed batch from the exact path, and
how much faster the decode is.

    CLPAD_LIBRARY=build/libclpad.so python3 bench/decode_scale.py PHOTO_DIR [--size 640]

For every JPEG in PHOTO_DIR (tests/peer/fetch_photos.py fetches sample
photos), plus a 12 MP JPEG made from the largest of them (4000 x 3000,
quality 90, with OpenCV when cv2 is installed):
  exact   clpad.imread(f), then clpad.letterbox to SIZE x SIZE (u8, NHWC, the
          CPU reference);
  scaled  clpad.imread(f, min_size=(round(h * r), round(w * r))): the smallest
          M/8 whose decoded size still reaches the size letterbox resizes to
          (as Pillow's Image.draft chooses), then the same letterbox.
Prints per file the scale chosen, max and mean |exact - scaled| over the
letterboxed slot (u8 units), whether the resized size is the same, and the
decode times (the fastest of --repeat runs); then the totals. Letterbox takes its
ratio from the size of the image it is given, so a scaled image can land
one pixel off (round(w' * r') != round(w * r)); the "fixed" columns (with
cv2) resize the scaled decode to the exact path's resized size instead, as
a pipeline that knows the source size would, and compare that resized image
with cv2.resize of the full decode (the same INTER_LINEAR arithmetic as
clpad letterbox).
"""

import argparse
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import clpad  # noqa: E402


def best_time(fn, repeat):
    """The fastest of `repeat` runs: on a shared machine the minimum is the
    least disturbed estimate."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("photos")
    ap.add_argument("--size", type=int, default=640)
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args()
    files = sorted(os.path.join(args.photos, f) for f in os.listdir(args.photos)
                   if f.lower().endswith((".jpg", ".jpeg")))
    tmp = tempfile.mkdtemp()
    try:
        import cv2 as cv
        big = max(files, key=lambda f: os.path.getsize(f))
        a = cv.resize(cv.imread(big), (4000, 3000), interpolation=cv.INTER_CUBIC)
        path = os.path.join(tmp, "12mp.jpg")
        cv.imwrite(path, a, [cv.IMWRITE_JPEG_QUALITY, 90])
        files.append(path)
    except ImportError:
        print("(no cv2: no 12 MP file)")
    S = args.size
    try:
        import cv2
    except ImportError:
        cv2 = None
    print("%-21s %11s %5s %7s %8s %5s %9s %9s %9s %9s %6s" % (
        "file", "size", "M/8", "max|d|", "mean|d|", "same", "fixed max", "fixed mean",
        "exact ms", "scaled ms", "x"))
    fixed_max, fixed_means = 0, []
    tot_exact = tot_scaled = 0.0
    all_max, diffs = 0, []
    for f in files:
        full = clpad.imread(f)
        h, w = full.shape[:2]
        r = min(S / h, S / w)
        rh, rw = round(h * r), round(w * r)
        scaled = clpad.imread(f, min_size=(rh, rw))
        exact_b, te = clpad.letterbox([full], S, dtype=np.uint8, layout="NHWC",
                                      device="reference")
        scaled_b, ts = clpad.letterbox([scaled], S, dtype=np.uint8, layout="NHWC",
                                       device="reference")
        d = np.abs(exact_b.astype(np.int16) - scaled_b.astype(np.int16))
        same = (te[0].resized_height, te[0].resized_width) == \
            (ts[0].resized_height, ts[0].resized_width)
        m = round(8 * scaled.shape[0] / h) if scaled.shape[0] != h else 8
        fmax, fmean = "-", "-"
        if cv2 is not None:
            a = cv2.resize(full, (rw, rh), interpolation=cv2.INTER_LINEAR).astype(np.int16)
            b = cv2.resize(scaled, (rw, rh), interpolation=cv2.INTER_LINEAR).astype(np.int16)
            fd = np.abs(a - b)
            fmax, fmean = "%d" % fd.max(), "%.3f" % fd.mean()
            fixed_max = max(fixed_max, int(fd.max()))
            fixed_means.append(float(fd.mean()))
        t_exact = best_time(lambda: clpad.imread(f), args.repeat)
        t_scaled = best_time(lambda: clpad.imread(f, min_size=(rh, rw)), args.repeat)
        tot_exact += t_exact
        tot_scaled += t_scaled
        all_max = max(all_max, int(d.max()))
        diffs.append(float(d.mean()))
        print("%-21s %5dx%-5d %3d/8 %7d %8.3f %5s %9s %9s %9.2f %9.2f %6.2f" % (
            os.path.basename(f), w, h, m, d.max(), d.mean(), "yes" if same else "NO", fmax,
            fmean, 1e3 * t_exact, 1e3 * t_scaled, t_exact / t_scaled))
    print("%d JPEGs: letterboxed as decoded: max |diff| %d, mean |diff| %.3f (mean of the "
          "files' means)" % (len(files), all_max, sum(diffs) / len(diffs)))
    if fixed_means:
        print("  resized to the exact path's size: max |diff| %d, mean |diff| %.3f"
              % (fixed_max, sum(fixed_means) / len(fixed_means)))
    print("  decode (best of %d): %.1f ms exact, %.1f ms scaled: %.2fx"
          % (args.repeat, 1e3 * tot_exact, 1e3 * tot_scaled, tot_exact / tot_scaled))


if __name__ == "__main__":
    main()
