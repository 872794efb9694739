#!/usr/bin/env python3
"""A NumPy model of the 8-bit INTER_CUBIC resize that opencv-python runs
through Intel IPP (cv2.resize with cv2.ipp.useIPP() true), compared with cv2.

Research script (see bench/ipp_cubic.md). Prints, per case, the number of
differing samples of the model against cv2 with IPP on, and, for scale, the
number of samples in which cv2's own non-IPP INTER_CUBIC differs from IPP.

  python bench/ipp_cubic.py [--photos DIR] [--max-photos N] [--seed N]
                            [--cases N] [--variant ipp|naive] [--threads N]

The model (variant "ipp", the best found; see the note for what it leaves):
  per axis, src = (d + 0.5) * (n_in / n_out) - 0.5 in double, s = floor(src),
  f = src - s; IPP's fraction f' = (float)(1.0f + (float)f) - 1 (two float32
  roundings: f' is a multiple of 2^-23); taps s-1 .. s+2 clamped to
  [0, n_in - 1] (replicated border); weights k(1+f'), k(f'), k(1-f'), k(2-f')
  of the cubic kernel with A = -0.75, evaluated in double, rounded to float32;
  horizontal pass first: for 1 channel t = (x0 w0 + x1 w1) + (x2 w2 + x3 w3),
  every product and sum rounded to float32 (no FMA); for 3 and 4 channels
  t = (x0 w0 + x3 w3) + fma(x1, w1, x2 w2); t is kept as float32, unrounded;
  vertical pass: fma(t0, w0, t1 w1) + fma(t2, w2, t3 w3) (float32, fused
  multiply-adds with one rounding); round to nearest, ties to even; saturate
  to [0, 255]. Variant "naive": the double f and the pairwise sum in both
  passes, no FMA.
"""
import argparse
import glob
import os
import sys

import numpy as np

try:
    import cv2
except ImportError:  # pragma: no cover
    sys.exit("ipp_cubic.py: needs opencv-python (cv2)")

F32 = np.float32
A = -0.75


def kernel(x):
    """The cubic convolution kernel with A = -0.75, in double."""
    x = np.abs(x)
    near = ((A + 2) * x - (A + 3)) * x * x + 1
    far = ((A * x - 5 * A) * x + 8 * A) * x - 4 * A
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def axis_taps(n_in, n_out, frac="ipp"):
    """Tap indices (n_out, 4), clamped (replicated border), float32 weights.

    frac="ipp": the fraction as IPP's weights see it, f' = (float)(1.0f +
    (float)f) - 1 (f rounded to float32, then 1 + f rounded to float32: a
    multiple of 2^-23); frac="exact": the double f.
    """
    d = np.arange(n_out, dtype=np.float64)
    src = (d + 0.5) * (n_in / n_out) - 0.5
    s = np.floor(src)
    f = src - s
    if frac == "ipp":
        f = (F32(1) + f.astype(F32)).astype(np.float64) - 1.0
    w = np.stack([kernel(1 + f), kernel(f), kernel(1 - f), kernel(2 - f)], 1)
    idx = np.clip(s.astype(np.int64)[:, None] + np.arange(-1, 3), 0, n_in - 1)
    return idx, w.astype(F32)


def _fma(a, b, c):
    """float32 fused multiply-add (one rounding; exact in double first)."""
    return (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(F32)


def _combine(taps, weights, how):
    """Sum of 4 float32 taps times float32 weights, float32 operations."""
    t0, t1, t2, t3 = taps
    w0, w1, w2, w3 = weights
    if how == "fma":
        # fma(t0, w0, t1 w1) + fma(t2, w2, t3 w3)
        return (_fma(t0, w0, (t1 * w1).astype(F32)) +
                _fma(t2, w2, (t3 * w3).astype(F32))).astype(F32)
    if how == "outer":
        # (t0 w0 + t3 w3) + fma(t1, w1, t2 w2): the horizontal pass of 3 and 4 channels
        return (((t0 * w0).astype(F32) + (t3 * w3).astype(F32)).astype(F32) +
                _fma(t1, w1, (t2 * w2).astype(F32))).astype(F32)
    p0, p1, p2, p3 = ((t * w).astype(F32) for t, w in zip(taps, weights))
    if how == "pair":
        return ((p0 + p1).astype(F32) + (p2 + p3).astype(F32)).astype(F32)
    return (((p0 + p1).astype(F32) + p2).astype(F32) + p3).astype(F32)


def _pass(x, idx, w, axis, how):
    """One 4-tap pass of float32 x (h, w, c) along axis (0 rows, 1 columns)."""
    if axis == 1:
        taps = [x[:, idx[:, k], :] for k in range(4)]
        weights = [w[None, :, k, None] for k in range(4)]
    else:
        taps = [x[idx[:, k], :, :] for k in range(4)]
        weights = [w[:, k, None, None] for k in range(4)]
    return _combine(taps, weights, how)


def model(img, width, height, variant="ipp"):
    """The model of IPP's 8u cubic resize; img (h, w) or (h, w, c) uint8.

    variant "ipp": IPP fraction, horizontal pass "pair" (1 channel) or
    "outer" (3 and 4 channels), vertical pass "fma" (the best model);
    "naive": exact fraction, "pair" in both passes.
    """
    x = img if img.ndim == 3 else img[:, :, None]
    if variant == "ipp":
        frac, hhow, vhow = "ipp", ("pair" if x.shape[2] == 1 else "outer"), "fma"
    else:
        frac, hhow, vhow = "exact", "pair", "pair"
    h, w, _ = x.shape
    ix, wx = axis_taps(w, width, frac)
    iy, wy = axis_taps(h, height, frac)
    t = _pass(_pass(x.astype(F32), ix, wx, 1, hhow), iy, wy, 0, vhow)
    out = np.clip(np.rint(t), 0, 255).astype(np.uint8)
    return out if img.ndim == 3 else out[:, :, 0]


def border_taps(n_in, n_out):
    """Mask of output rows (or columns) whose 4 taps reach past the image."""
    d = np.arange(n_out, dtype=np.float64)
    s = np.floor((d + 0.5) * (n_in / n_out) - 0.5)
    return (s - 1 < 0) | (s + 2 > n_in - 1)


def cv_cubic(img, width, height, ipp):
    cv2.ipp.setUseIPP(ipp)
    return cv2.resize(img, (width, height), interpolation=cv2.INTER_CUBIC)


def cases(rng, n_random, photos):
    """(name, image, width, height): random sizes, 1/3/4 channels, up and down."""
    out = []
    for i in range(n_random):
        h, w = (int(v) for v in rng.integers(8, 1001, 2))
        c = int(rng.choice([1, 3, 4]))
        img = rng.integers(0, 256, (h, w, c) if c > 1 else (h, w), dtype=np.uint8)
        if i % 2:
            img = cv2.GaussianBlur(img, (0, 0), 1.5)  # smooth, photo-like
        up = i % 3 == 0
        if up:
            H, W = (int(v * rng.uniform(1.05, 2.5)) for v in (h, w))
        else:
            H, W = (max(8, int(v * rng.uniform(0.2, 0.95))) for v in (h, w))
        out.append(("random %dx%dx%d" % (w, h, c), img, min(W, 1000), min(H, 1000)))
    for p in photos:
        img = cv2.imread(p, cv2.IMREAD_UNCHANGED)
        if img is None or img.dtype != np.uint8:
            continue
        h, w = img.shape[:2]
        if h * w > 1500 * 1500:
            continue
        for W, H in ((640, 640), (224, 224), (int(w * 1.7), int(h * 1.3))):
            out.append(("%s %dx%d" % (os.path.basename(p), w, h), img, W, H))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", default=None,
                    help="folder of photographs (e.g. build/bench-photos)")
    ap.add_argument("--max-photos", type=int, default=12)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--cases", type=int, default=24, help="random cases")
    ap.add_argument("--variant", choices=["ipp", "naive"], default="ipp")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    cv2.setNumThreads(a.threads)
    if not cv2.ipp.useIPP():
        print("cv2 %s has IPP off or absent: nothing to compare" % cv2.__version__)
        return 77
    print("cv2 %s, IPP %s, model variant=%s" % (
        cv2.__version__, cv2.ipp.getIppVersion(), a.variant))
    photos = []
    if a.photos:
        photos = sorted(glob.glob(os.path.join(a.photos, "*.jpg")) +
                        glob.glob(os.path.join(a.photos, "*.png")))[: a.max_photos]
    rng = np.random.default_rng(a.seed)
    tot = tot_in = tot_cv = tot_n = tot_nin = 0
    for name, img, W, H in cases(rng, a.cases, photos):
        ipp = cv_cubic(img, W, H, True)
        own = cv_cubic(img, W, H, False)
        m = model(img, W, H, a.variant)
        diff = (m != ipp).reshape(H, W, -1)
        edge = border_taps(img.shape[0], H)[:, None] | border_taps(img.shape[1], W)[None, :]
        n_m = int(np.count_nonzero(diff))
        n_in = int(np.count_nonzero(diff[~edge]))
        n_cv = int(np.count_nonzero(own != ipp))
        tot += n_m
        tot_in += n_in
        tot_cv += n_cv
        tot_n += ipp.size
        tot_nin += diff[~edge].size
        print("%-44s -> %4dx%-4d model!=ipp %5d (interior %5d)  "
              "cv-noipp!=ipp %7d  of %8d" % (name, W, H, n_m, n_in, n_cv, ipp.size),
              flush=True)
    cv2.ipp.setUseIPP(True)
    print("total: model differs from IPP on %d of %d samples (%.2e), on %d of the "
          "%d samples of the interior (%.2e); OpenCV's own INTER_CUBIC on %d (%.2e)" % (
              tot, tot_n, tot / max(tot_n, 1), tot_in, tot_nin, tot_in / max(tot_nin, 1),
              tot_cv, tot_cv / max(tot_n, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
