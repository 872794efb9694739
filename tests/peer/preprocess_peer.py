#!/usr/bin/env python3
"""clpad.preprocess against Pillow and torchvision's classification recipe,
byte for byte, on real photographs.

Inputs: the photographs of tests/peer/fetch_photos.py (RGB and grey), and
random crops of them, so that sizes vary (up- and downscaling, odd sizes,
extreme reductions).

Checked, each with 0 differing samples (any difference fails), on the
default OpenCL device (the kernel; calls too small for it run the CPU path)
and on the CPU reference path (device="reference"):
  pil-bilinear, pil-bicubic, pil-lanczos  clpad.preprocess(fit="stretch",
        dtype=uint8) against PIL.Image.resize((W, H), BILINEAR / BICUBIC /
        LANCZOS) (Pillow's defaults: no reducing_gap), random sizes.
  imagenet  clpad.preprocess(images, 224, preset="imagenet") against
        torchvision's ImageNet evaluation transforms stated with Pillow and
        NumPy as torchvision's transforms compute them (Resize(256):
        Image.resize(BILINEAR) to the shorter side 256, the longer
        int(256 * long / short); CenterCrop(224): top = int(round((h - 224) /
        2.0)); ToTensor: float32 / 255; Normalize: (x - mean) / std in
        float32); and against torchvision itself where it is installed.
  cover     fit="cover" (and resize_shorter) as the resize of the whole
        image then the centre crop, with PIL's resize.
  area, bicubic  clpad.preprocess(fit="stretch", interp="area" |
        "bicubic", dtype=uint8) against cv2.resize(INTER_AREA) and
        cv2.resize(INTER_CUBIC) with IPP off (OpenCV's own cubic; where cv2
        is installed): integer ratios per axis, other reductions (3 to 40
        times too), enlargements and mixes.

Exit status: 0 no failure, 1 failures, 77 nothing could run.
"""

import argparse
import glob
import os
import sys

try:
    import numpy as np
    from PIL import Image
except ImportError as e:  # pragma: no cover
    print("SKIP: preprocess peer: %s (run tests/peer/with_photos.sh preprocess_peer.py)" % e)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import clpad  # noqa: E402

PILV = 13  # set in main from the Pillow imported
FILTERS = {"pil-bilinear": Image.BILINEAR, "pil-bicubic": Image.BICUBIC,
           "pil-lanczos": Image.LANCZOS}
MEAN = np.array([0.485, 0.456, 0.406], np.float32)
STD = np.array([0.229, 0.224, 0.225], np.float32)


def torchvision_recipe(pil, resize=256, crop=224):
    """torchvision's Resize(resize) + CenterCrop(crop) + ToTensor + Normalize
    on a PIL image, with Pillow and NumPy (transforms/functional.py's rules)."""
    w, h = pil.size
    short, long_ = (w, h) if w <= h else (h, w)
    new_short, new_long = resize, int(resize * long_ / short)
    nw, nh = (new_short, new_long) if w <= h else (new_long, new_short)
    r = pil.resize((nw, nh), Image.BILINEAR)
    top, left = int(round((nh - crop) / 2.0)), int(round((nw - crop) / 2.0))
    c = np.asarray(r.crop((left, top, left + crop, top + crop)))
    x = c.astype(np.float32) / np.float32(255)
    x = (x - MEAN) / STD
    return np.ascontiguousarray(x.transpose(2, 0, 1))


def torchvision_itself(pils):
    try:
        import torch
        from torchvision import transforms as T
    except ImportError:
        return None
    t = T.Compose([T.Resize(256), T.CenterCrop(224), T.ToTensor(),
                   T.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])])
    with torch.no_grad():
        return np.stack([t(p).numpy() for p in pils])


def tv_version():
    import torch
    import torchvision
    return "%s (torch %s)" % (torchvision.__version__, torch.__version__)


def differing(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return -1
    return int(np.count_nonzero(a.view(np.uint8) != b.view(np.uint8)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", required=True)
    ap.add_argument("--cases", type=int, default=int(os.environ.get("CLPAD_PEER_CASES", "12")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("CLPAD_TEST_SEED", "1")))
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    files = sorted(f for f in glob.glob(os.path.join(args.photos, "*"))
                   if f.lower().endswith((".png", ".jpg", ".jpeg")))
    if not files:
        print("SKIP: preprocess peer: no photos in %s" % args.photos)
        return 77
    # the Pillow release whose resize clpad is to reproduce: the one imported
    # (12.x in the peer venv; 13.x where CTest's peer_preprocess_pil13 puts
    # Pillow 13 on PYTHONPATH)
    global PILV
    PILV = int(Image.__version__.split(".")[0])
    if PILV not in (12, 13):
        print("FAIL: Pillow %s: clpad's pil_version is 12 or 13" % Image.__version__)
        return 1
    rng = np.random.default_rng(args.seed)
    pils = []
    for f in files:
        im = Image.open(f)
        im.load()
        if im.mode == "L":
            pils.append(im)
        pils.append(im.convert("RGB"))
    failures = []
    checked = 0
    devices = ((None, "device"), (clpad.REFERENCE, "reference"))
    # 1. Pillow's resize, every kind, random sizes up and down, random crops
    for k in range(args.cases):
        for pil in pils:
            if k % 2:  # a random crop: odd sizes
                w, h = pil.size
                x0, y0 = int(rng.integers(0, w // 2)), int(rng.integers(0, h // 2))
                pil = pil.crop((x0, y0, x0 + int(rng.integers(1, w - x0 + 1)),
                                y0 + int(rng.integers(1, h - y0 + 1))))
            w, h = pil.size
            size = (int(rng.integers(1, 2 * h + 2)), int(rng.integers(1, 2 * w + 2)))
            if k % 3 == 0:  # a large reduction
                size = (max(1, h // int(rng.integers(3, 40))), max(1, w // int(rng.integers(3, 40))))
            kind = list(FILTERS)[k % 3]
            want = np.asarray(pil.resize((size[1], size[0]), FILTERS[kind]))
            a = np.asarray(pil)
            for dev, dname in devices:
                got, _ = clpad.preprocess([a], size, pil_version=PILV, fit="stretch", interp=kind, dtype=np.uint8,
                                          layout="NHWC", device=dev)
                got = got[0] if a.ndim == 3 else got[0, :, :, 0]
                checked += 1
                d = differing(got, want)
                if d:
                    failures.append("%s %s %s -> %s on %s: %d samples differ"
                                    % (kind, pil.mode, (h, w), size, dname, d))
                elif args.v:
                    print("ok %s %s %s -> %s on %s" % (kind, pil.mode, (h, w), size, dname))
    # 1b. strips more than 100 times taller than wide, the height reduced:
    # Pillow's Image.resize runs the vertical pass first there (and keeps
    # the horizontal-first order at h == 100 w); the width up, kept, down
    for i, pil in enumerate(pils):
        w0, h0 = pil.size
        for sw in ((1, 2, 3)[i % 3],):
            h = min(h0, 100 * sw + 1 + int(rng.integers(0, 200)))
            if h <= 100 * sw or sw > w0:
                continue
            x0 = int(rng.integers(0, w0 - sw + 1))
            for hh in (h, 100 * sw):
                strip = pil.crop((x0, 0, x0 + sw, hh))
                H = int(rng.integers(1, hh))
                W = int(rng.integers(1, 2 * sw + 2))
                kind = list(FILTERS)[int(rng.integers(0, 3))]
                want = np.asarray(strip.resize((W, H), FILTERS[kind]))
                a = np.asarray(strip)
                for dev, dname in devices:
                    got, _ = clpad.preprocess([a], (H, W), pil_version=PILV, fit="stretch", interp=kind,
                                              dtype=np.uint8, layout="NHWC", device=dev)
                    got = got[0] if a.ndim == 3 else got[0, :, :, 0]
                    checked += 1
                    d = differing(got, want)
                    if d:
                        failures.append("%s %s strip %s -> %s on %s: %d samples differ"
                                        % (kind, strip.mode, (hh, sw), (H, W), dname, d))
    # 2. the ImageNet recipe, one batch of every RGB photo
    rgb = [p for p in pils if p.mode == "RGB"]
    want = np.stack([torchvision_recipe(p) for p in rgb])
    tv = torchvision_itself(rgb)
    if tv is None:
        print("imagenet against torchvision itself: not run (torchvision is not installed)")
    for dev, dname in devices:
        got, ts = clpad.preprocess([np.asarray(p) for p in rgb], 224, preset="imagenet",
                                   pil_version=PILV,
                                   device=dev)
        checked += 1
        d = differing(got, want)
        print("imagenet (Pillow + NumPy statement) on %s: %d of %d float32 samples differ"
              % (dname, max(d, 0), want.size))
        if d:
            failures.append("imagenet on %s: %d samples differ" % (dname, d))
        if tv is not None:
            checked += 1
            d = differing(got, tv)
            print("imagenet against torchvision %s on %s: %d of %d float32 samples differ"
                  % (tv_version(), dname, max(d, 0), tv.size))
            if d:
                failures.append("imagenet against torchvision on %s: %d samples differ"
                                % (dname, d))
    # 3. cover and resize_shorter: the whole resize, then torchvision's crop
    for k, pil in enumerate(rgb):
        w, h = pil.size
        H, W = int(rng.integers(8, 300)), int(rng.integers(8, 300))
        kw = {"fit": "cover"} if k % 2 else {"resize_shorter": int(rng.integers(max(H, W), 400))}
        got, t = clpad.preprocess([np.asarray(pil)], (H, W), interp="pil-bicubic", pil_version=PILV,
                                  dtype=np.uint8, layout="NHWC", **kw)
        t = t[0]
        full = np.asarray(pil.resize((t.resized_width, t.resized_height), Image.BICUBIC))
        y0, x0 = -t.pad_top, -t.pad_left
        checked += 1
        if y0 < 0 or x0 < 0 or full[y0:y0 + H, x0:x0 + W].shape != (H, W, 3):
            failures.append("cover %s %s: no crop (%s)" % ((h, w), (H, W), t))
            continue
        d = differing(got[0], full[y0:y0 + H, x0:x0 + W])
        if d:
            failures.append("%s %s -> %s: %d samples differ" % (kw, (h, w), (H, W), d))
    # 4. OpenCV's INTER_AREA and INTER_CUBIC: integer ratios per axis (area's
    # box path, 2 x 2 among them), other reductions, enlargements and mixes,
    # on the photos and random crops of them
    try:
        import cv2
    except ImportError:
        cv2 = None
        print("area against cv2.resize(INTER_AREA): not run (cv2 is not installed)")
    opencv_cases = {"area": 0, "bicubic": 0}
    ipp_stats = [0, 0, 0]  # bicubic against the default (IPP) cv2.resize: differing, max, of
    for k in range(args.cases * 2 if cv2 is not None else 0):
        for pil in pils:
            a = np.asarray(pil)
            if k % 2:  # a random crop: odd sizes
                h, w = a.shape[:2]
                y0, x0 = int(rng.integers(0, h // 2)), int(rng.integers(0, w // 2))
                a = a[y0:y0 + int(rng.integers(1, h - y0 + 1)), x0:x0 + int(rng.integers(1, w - x0 + 1))]
            h, w = a.shape[:2]
            how = k % 5
            if how == 0:  # integer ratios: the image cut to a multiple of them
                fy, fx = int(rng.integers(1, 9)), int(rng.integers(1, 9))
                size = (max(1, h // fy), max(1, w // fx))
                a = a[:size[0] * fy, :size[1] * fx] if h >= fy and w >= fx else a
            elif how == 1:  # a large reduction
                size = (max(1, h // int(rng.integers(3, 40))), max(1, w // int(rng.integers(3, 40))))
            elif how == 2:  # a reduction
                size = (int(rng.integers(1, h + 1)), int(rng.integers(1, w + 1)))
            elif how == 3:  # an enlargement
                size = (int(rng.integers(h, 2 * h + 2)), int(rng.integers(w, 2 * w + 2)))
            else:  # one axis up, the other down, or anything
                size = (int(rng.integers(1, 2 * h + 2)), int(rng.integers(1, 2 * w + 2)))
            a = np.ascontiguousarray(a)
            h, w = a.shape[:2]
            # bicubic: OpenCV's own INTER_CUBIC (IPP off: with IPP in the
            # build cv2.resize runs Intel's cubic, which clpad does not
            # follow; its distance is reported)
            kind = "bicubic" if k % 3 == 2 else "area"
            if kind == "bicubic":
                ipp = cv2.resize(a, (size[1], size[0]), interpolation=cv2.INTER_CUBIC)
                was = cv2.ipp.useIPP()
                cv2.ipp.setUseIPP(False)
                try:
                    want = cv2.resize(a, (size[1], size[0]), interpolation=cv2.INTER_CUBIC)
                finally:
                    cv2.ipp.setUseIPP(was)
            else:
                want = cv2.resize(a, (size[1], size[0]), interpolation=cv2.INTER_AREA)
            for dev, dname in devices:
                got, _ = clpad.preprocess([a], size, fit="stretch", interp=kind,
                                          dtype=np.uint8, layout="NHWC", device=dev)
                got = got[0] if a.ndim == 3 else got[0, :, :, 0]
                checked += 1
                opencv_cases[kind] += 1
                d = differing(got, want)
                if d:
                    failures.append("%s %s %s -> %s on %s: %d samples differ"
                                    % (kind, a.shape, (h, w), size, dname, d))
                elif args.v:
                    print("ok %s %s -> %s on %s" % (kind, (h, w), size, dname))
                if kind == "bicubic" and dev is None:
                    di = np.abs(got.astype(int) - ipp.astype(int))
                    ipp_stats[0] += int(np.count_nonzero(di))
                    ipp_stats[1] = max(ipp_stats[1], int(di.max()))
                    ipp_stats[2] += di.size
    if cv2 is not None:
        print("area against cv2.resize(INTER_AREA) %s: %d comparisons; bicubic against "
              "INTER_CUBIC (IPP off): %d comparisons"
              % (cv2.__version__, opencv_cases["area"], opencv_cases["bicubic"]))
        if ipp_stats[2]:
            print("bicubic against cv2.resize with IPP on (not followed): %d of %d samples "
                  "differ, by at most %d" % (ipp_stats[0], ipp_stats[2], ipp_stats[1]))
    print("preprocess peer: %d comparisons on %d photos (Pillow %s), %d failed"
          % (checked, len(pils), Image.__version__, len(failures)))
    for f in failures[:20]:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
