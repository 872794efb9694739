#!/usr/bin/env python3
"""Conformance of `clpad letterbox` with OpenCV and Ultralytics' LetterBox.

Every case is a random batch (1x1 to 2000x1500 images, noise or smooth,
C = 1, 3, 4, and crops of the photograph in data/) run through the `clpad`
CLI on the default OpenCL device: as plain u8 NHWC (the letterboxed
pixels), as float32 / 255 (--std 255), and with random options (dtype,
layout, channel swap, scale/mean/std). Peers:

  ultralytics  a NumPy/cv2 statement of Ultralytics' LetterBox.__call__
               (new_unpad = round(w * r), top = round(dh - 0.1), ...): the
               transforms must be identical; its image (constant border)
               equal to clpad's pixels (--within, default 0); and
               (ultralytics-f32) that image as float32 / 255 equal to clpad's
               f32 run bit for bit.
  opencv       cv2.resize(img, (new_w, new_h), INTER_LINEAR or INTER_NEAREST)
               + cv2.copyMakeBorder with the matching border type (constant,
               REPLICATE, REFLECT_101, REFLECT, WRAP): equal to clpad's pixels;
               and the option run must equal NumPy's float32
               (v * scale - mean) / std of clpad's own pixels bit for bit (f16:
               NumPy's astype, u8: rint + clip), swapped and transposed.
  cv2.resize   the resize alone for random size pairs of every kind (lb_resize,
               built with the tests: --lb-resize or $CLPAD_LB_RESIZE) against
               cv2.resize, byte for byte.
  opencv-dnn   cv2.dnn.blobFromImageWithParams with DNN_PMODE_LETTERBOX
               (scale 1/255, NCHW f32): within --within/255 (+ float rounding)
               where its resized size equals clpad's; where it differs, the
               case is a documented divergence whose cause is checked: OpenCV's
               dnn takes int(h * (float)r) (truncation of a float32 product),
               Ultralytics and clpad round(h * r) in double precision.

Exit status: 0 no failure, 1 failures, 2 usage error, 77 nothing could run.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # pragma: no cover
    print("SKIP: letterbox peer: numpy is not installed (run tests/peer/letterbox.sh)")
    sys.exit(77)
try:
    import cv2
except ImportError:  # pragma: no cover
    print("SKIP: letterbox peer: opencv-python-headless is not installed "
          "(run tests/peer/letterbox.sh)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTO = os.path.normpath(os.path.join(HERE, "..", "..", "data", "astronaut.png"))

BORDERS = {"constant": cv2.BORDER_CONSTANT, "edge": cv2.BORDER_REPLICATE,
           "reflect": cv2.BORDER_REFLECT_101, "symmetric": cv2.BORDER_REFLECT,
           "wrap": cv2.BORDER_WRAP}


def ultralytics_letterbox(img, new_shape, scaleup=True, center=True, value=114):
    """Ultralytics' LetterBox.__call__ (auto=False, scaleFill=False),
    restated: its arithmetic, cv2.resize and cv2.copyMakeBorder."""
    shape = img.shape[:2]
    r = min(new_shape[0] / shape[0], new_shape[1] / shape[1])
    if not scaleup:
        r = min(r, 1.0)
    new_unpad = int(round(shape[1] * r)), int(round(shape[0] * r))
    dw, dh = new_shape[1] - new_unpad[0], new_shape[0] - new_unpad[1]
    if center:
        dw /= 2
        dh /= 2
    top, left = int(round(dh - 0.1)) if center else 0, int(round(dw - 0.1)) if center else 0
    geometry = (r, top, left, new_unpad[1], new_unpad[0])
    if 0 in new_unpad:  # cv2.resize would fail: Ultralytics has no image here
        return None, geometry
    if shape[::-1] != new_unpad:
        img = cv2.resize(img, new_unpad, interpolation=cv2.INTER_LINEAR)
    if img.ndim == 2:
        img = img[..., None]
    top, bottom = int(round(dh - 0.1)) if center else 0, int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)) if center else 0, int(round(dw + 0.1))
    img = cv2.copyMakeBorder(img, top, bottom, left, right, cv2.BORDER_CONSTANT,
                             value=(value,) * 4)
    if img.ndim == 2:
        img = img[..., None]
    return img, geometry


def opencv_letterbox(img, t, H, W, interp, mode, value):
    """cv2.resize to clpad's size, then cv2.copyMakeBorder with the mode."""
    _, top, left, nh, nw = t
    flag = cv2.INTER_NEAREST if interp == "nearest" else cv2.INTER_LINEAR
    res = cv2.resize(img, (nw, nh), interpolation=flag) if (nh, nw) != img.shape[:2] else img
    if res.ndim == 2:
        res = res[..., None]
    out = cv2.copyMakeBorder(res, top, H - nh - top, left, W - nw - left, BORDERS[mode],
                             value=tuple(value) + (0,) * (4 - len(value)))
    if out.ndim == 2:
        out = out[..., None]
    return out


def normalise(u8, scale, mean, std, swap, dtype, layout):
    """clpad's value rule on its own pixels [N, H, W, C], in NumPy float32."""
    x = u8
    c = x.shape[-1]
    if swap and c >= 3:
        x = x[..., [2, 1, 0] + ([3] if c == 4 else [])]
    f = (x.astype(np.float32) * np.float32(scale) - np.asarray(mean, np.float32)[:c]) / \
        np.asarray(std, np.float32)[:c]
    if dtype == "f16":
        with np.errstate(over="ignore"):
            f = f.astype(np.float16)
    elif dtype == "u8":
        f = np.clip(np.rint(np.nan_to_num(f, nan=0.0)), 0, 255).astype(np.uint8)
    if layout == "nchw":
        f = f.transpose(0, 3, 1, 2)
    return np.ascontiguousarray(f)


def random_image(rng, h, w, c):
    """Noise, or (one time in three) a smooth image, whose neighbouring
    samples are close (as in photographs)."""
    img = np.random.default_rng(rng.randint(0, 1 << 30)).integers(
        0, 256, (h, w, c), dtype=np.uint8)
    if rng.random() < 1 / 3 and h > 1 and w > 1:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 4)).reshape(h, w, c)
    return np.ascontiguousarray(img)


def resize_pair(rng):
    """A random (h, w) -> (nh, nw) pair: upscaling, downscaling, exact
    halving (where OpenCV switches to INTER_AREA), integer ratios per axis,
    near identity, extreme ratios, or anything."""
    kind = rng.choice(["any", "up", "down", "half", "near", "extreme", "box"])
    dim = lambda: rng.choice([rng.randint(1, 4), rng.randint(1, 400), rng.randint(400, 1600)])
    h, w = dim(), dim()
    if kind == "up":
        nh, nw = rng.randint(h, 4 * h + 3), rng.randint(w, 4 * w + 3)
    elif kind == "down":
        nh, nw = rng.randint(1, h), rng.randint(1, w)
    elif kind == "half":
        nh, nw = rng.randint(1, 500), rng.randint(1, 500)
        h, w = 2 * nh, 2 * nw
    elif kind == "box":  # integer ratios per axis (INTER_AREA's fast path)
        nh, nw = rng.randint(1, 300), rng.randint(1, 300)
        h, w = nh * rng.randint(1, 7), nw * rng.randint(1, 7)
    elif kind == "near":
        nh, nw = max(1, h + rng.randint(-2, 2)), max(1, w + rng.randint(-2, 2))
    elif kind == "extreme":
        h, w = rng.choice([(1, rng.randint(1, 2000)), (rng.randint(1, 2000), 1),
                           (2, rng.randint(100, 2000)), (rng.randint(1, 8), rng.randint(1, 8))])
        nh, nw = rng.choice([(rng.randint(1, 3), rng.randint(500, 1500)),
                             (rng.randint(500, 1500), rng.randint(1, 3)),
                             (rng.randint(1, 1000), rng.randint(1, 1000))])
    else:
        nh, nw = dim(), dim()
    return kind, h, w, nh, nw


def check_resize(tool, rng, pairs, tally, verbose):
    """clpad's resize alone (lb_resize: the letterbox's tables and
    arithmetic for any pair of sizes) against cv2.resize, byte for byte:
    INTER_LINEAR, INTER_NEAREST, INTER_AREA and INTER_CUBIC (OpenCV's own,
    IPP switched off), C = 1, 3, 4, random pairs and the photograph."""
    photo = None
    if os.path.exists(PHOTO):
        photo = cv2.cvtColor(cv2.imread(PHOTO, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    samples = differing = 0
    ipp_stats = [0, 0, 0]  # bicubic against the default (IPP) cv2.resize: differing, max, of
    for k in range(pairs):
        c = rng.choice([1, 3, 4])
        kind, h, w, nh, nw = resize_pair(rng)
        if photo is not None and k % 10 == 0:
            kind = "photo"
            img = photo[rng.randint(0, 100):, rng.randint(0, 100):]
            img = img[..., :1] if c == 1 else np.dstack([img] + [img[..., :1]] * (c - 3))
            img = np.ascontiguousarray(img)
            h, w = img.shape[:2]
        else:
            img = random_image(rng, h, w, c)
        for interp, flag in (("bilinear", cv2.INTER_LINEAR), ("nearest", cv2.INTER_NEAREST),
                             ("area", cv2.INTER_AREA), ("bicubic", cv2.INTER_CUBIC)):
            if interp == "nearest" and k % 4:
                continue
            r = subprocess.run([tool, interp] + [str(v) for v in (h, w, c, nh, nw)],
                               input=img.tobytes(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            desc = "resize %s %s %dx%dx%d -> %dx%d" % (kind, interp, h, w, c, nh, nw)
            if r.returncode != 0:
                tally.add("cv2.resize", "failed", "%s: lb_resize failed: %s"
                          % (desc, r.stderr.decode().strip()))
                continue
            ours = np.frombuffer(r.stdout, np.uint8).reshape(nh, nw, c)
            src = img[..., 0] if c == 1 else img
            if interp == "bicubic":
                # OpenCV's own INTER_CUBIC: with IPP in the build, cv2.resize
                # runs Intel's cubic instead, which clpad does not follow
                # (docs/letterbox.md); its distance is reported, not failed
                ipp = cv2.resize(src, (nw, nh), interpolation=flag).reshape(nh, nw, c)
                was = cv2.ipp.useIPP()
                cv2.ipp.setUseIPP(False)
                try:
                    ref = cv2.resize(src, (nw, nh), interpolation=flag)
                finally:
                    cv2.ipp.setUseIPP(was)
            else:
                ref = cv2.resize(src, (nw, nh), interpolation=flag)
            ref = ref.reshape(nh, nw, c)
            if interp == "bicubic":
                d_ipp = np.abs(ours.astype(int) - ipp.astype(int))
                ipp_stats[0] += int(np.count_nonzero(d_ipp))
                ipp_stats[1] = max(ipp_stats[1], int(d_ipp.max()))
                ipp_stats[2] += ours.size
            d = int(np.count_nonzero(ours != ref))
            samples += ours.size
            differing += d
            tally.add("cv2.resize", "passed" if d == 0 else "failed",
                      "%s: %d of %d samples differ (max |diff| %d)"
                      % (desc, d, ours.size, np.abs(ours.astype(int) - ref).max()))
            if verbose and d:
                print("  %s: %d samples differ" % (desc, d))
    print("cv2.resize directly: %d size pairs, %d samples compared, %d differ"
          % (pairs, samples, differing))
    if ipp_stats[2]:
        print("bicubic against cv2.resize with IPP on (not followed): %d of %d samples differ, "
              "by at most %d" % (ipp_stats[0], ipp_stats[2], ipp_stats[1]))


class Tally:
    def __init__(self):
        self.rows = {}
        self.failures = []
        self.divergences = {}
        self.exact = [0, 0]  # images identical to OpenCV's, images compared
        self.f32 = [0, 0]  # float32 samples differing from Ultralytics' / 255, compared

    def add(self, peer, outcome, why=None):
        row = self.rows.setdefault(peer, {"passed": 0, "divergence": 0, "failed": 0})
        row[outcome] += 1
        if outcome == "failed":
            self.failures.append("%s: %s" % (peer, why))
        if outcome == "divergence":
            self.divergences[why] = self.divergences.get(why, 0) + 1


def run_clpad(clpad, args):
    r = subprocess.run([clpad] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return r.returncode, r.stderr.strip()


def one_case(clpad, rng, tmp, k, tally, verbose, within):
    c = rng.choice([1, 3, 3, 4])
    n = rng.randint(1, 4)
    imgs = []
    for i in range(n):
        if k % 7 == 0 and i == 0 and os.path.exists(PHOTO):
            img = cv2.cvtColor(cv2.imread(PHOTO, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
            img = img[rng.randint(0, 100):, rng.randint(0, 100):]
            img = img[..., :1] if c == 1 else np.dstack([img] + [img[..., :1]] * (c - 3))
        else:
            h = rng.choice([1, 2, rng.randint(1, 40), rng.randint(20, 480),
                            rng.randint(480, 1500)])
            w = rng.choice([1, 3, rng.randint(1, 40), rng.randint(20, 640),
                            rng.randint(640, 2000)])
            img = random_image(rng, h, w, c)
        imgs.append(np.ascontiguousarray(img))
    H, W = rng.choice([(64, 64), (640, 640), (640, 640),
                       (rng.randint(1, 300), rng.randint(1, 300)),
                       (rng.randint(1, 300), rng.randint(1, 300)),
                       (rng.randint(1, 8), rng.randint(300, 1200)),
                       (rng.randint(300, 1200), rng.randint(1, 8))])
    interp = rng.choice(["bilinear", "bilinear", "nearest"])
    placement = rng.choice(["center", "center", "top-left"])
    scaleup = rng.random() < 0.8
    mode = rng.choice(["constant", "constant", "constant", "edge", "reflect", "symmetric",
                       "wrap"])
    value = [114] * c if rng.random() < 0.6 else [rng.randint(0, 255) for _ in range(c)]
    files = []
    for i, img in enumerate(imgs):
        p = os.path.join(tmp, "img%d.npy" % i)
        np.save(p, img)
        files.append(p)
    geo = ["--size", "%d,%d" % (H, W), "--interp", interp, "--placement", placement,
           "--mode", mode] + (["--no-scaleup"] if not scaleup else []) + \
          (["--value", ",".join(map(str, value))] if mode == "constant" else [])
    raw_path, tj = os.path.join(tmp, "raw.npy"), os.path.join(tmp, "t.json")
    rc, err = run_clpad(clpad, ["letterbox", "-q", "--dtype", "u8", "--layout", "nhwc",
                                "--transforms", tj] + geo + files + [raw_path])
    desc = "case %d: %s %dx%d %s %s scaleup=%s %s value=%s images %s" % (
        k, "C=%d" % c, H, W, interp, placement, scaleup, mode, value,
        [im.shape[:2] for im in imgs])
    if rc != 0:
        limited = mode in ("reflect", "symmetric") and "limit" in err
        if limited:  # clpad refuses borders beyond Pad's limits, as documented
            tally.add("clpad", "divergence", "reflect/symmetric border beyond Pad's limit "
                      "(refused by clpad, by design)")
            return
        tally.add("clpad", "failed", "%s: clpad failed: %s" % (desc, err))
        return
    raw = np.load(raw_path)
    with open(tj) as f:
        trans = json.load(f)["images"]
    ultra = []  # (image, Ultralytics' letterboxed u8 image) where it is defined
    for i, img in enumerate(imgs):
        t = trans[i]
        ours = (t["scale"], t["pad_top"], t["pad_left"], t["resized_h"], t["resized_w"])
        # Ultralytics
        uimg, ut = ultralytics_letterbox(img, (H, W), scaleup, placement == "center",
                                         value[0] if len(set(value)) == 1 else 114)
        if ut[3] == 0 or ut[4] == 0:
            tally.add("ultralytics", "divergence",
                      "a side rounds to 0: Ultralytics hands cv2.resize an empty size, "
                      "clpad keeps 1 (documented)")
        elif ut != ours:
            tally.add("ultralytics", "failed", "%s: image %d transform %s, Ultralytics %s"
                      % (desc, i, ours, ut))
        elif mode == "constant" and interp == "bilinear" and len(set(value)) == 1:
            d = np.abs(uimg.astype(int) - raw[i].astype(int)).max()
            tally.add("ultralytics", "passed" if d <= within else "failed",
                      "%s: image %d differs from Ultralytics by %d" % (desc, i, d))
            ultra.append((i, uimg))
        else:
            tally.add("ultralytics", "passed")
        # OpenCV resize + border
        cimg = opencv_letterbox(img, ours, H, W, interp, mode, value)
        d = np.abs(cimg.astype(int) - raw[i].astype(int)).max()
        tally.exact[0] += int(d == 0)
        tally.exact[1] += 1
        tally.add("opencv", "passed" if d <= within else "failed",
                  "%s: image %d differs from cv2.resize + copyMakeBorder by %d" % (desc, i, d))
        if verbose and d:
            print("  %s image %d: max |diff| %d, %.4f%% of bytes differ"
                  % (desc, i, d, 100 * np.mean(cimg != raw[i])))
    # Ultralytics' tensor: its letterboxed image / 255 as float32 (x / 255, a
    # division: clpad's --std 255), NCHW: every sample equal
    if ultra:
        f32_path = os.path.join(tmp, "f32.npy")
        rc, err = run_clpad(clpad, ["letterbox", "-q", "--dtype", "f32", "--layout", "nchw",
                                    "--std", ",".join(["255"] * c)] + geo + files + [f32_path])
        if rc != 0:
            tally.add("ultralytics-f32", "failed", "%s: the f32 run failed: %s" % (desc, err))
        else:
            got = np.load(f32_path)
            for i, uimg in ultra:
                want = (uimg.astype(np.float32) / np.float32(255)).transpose(2, 0, 1)
                d = int(np.count_nonzero(got[i].view(np.uint32) != want.view(np.uint32)))
                tally.f32[0] += d
                tally.f32[1] += want.size
                tally.add("ultralytics-f32", "passed" if d == 0 else "failed",
                          "%s: image %d: %d of %d float32 samples differ from Ultralytics' "
                          "image / 255" % (desc, i, d, want.size))
    # the option run: NumPy's float32 rule on clpad's own pixels
    dtype = rng.choice(["f32", "f16", "u8"])
    layout = rng.choice(["nchw", "nhwc"])
    swap = rng.random() < 0.5
    scale = rng.choice([1.0, 1 / 255, rng.uniform(-3, 3)])
    mean = [rng.uniform(-2, 2) for _ in range(c)]
    std = [rng.choice([1, -1]) * rng.uniform(0.05, 4) for _ in range(c)]
    opt_path = os.path.join(tmp, "opt.npy")
    scale32, mean32, std32 = np.float32(scale), np.float32(mean), np.float32(std)
    args = ["letterbox", "-q", "--dtype", dtype, "--layout", layout, "--scale",
            repr(float(scale32)), "--mean", ",".join(repr(float(m)) for m in mean32),
            "--std", ",".join(repr(float(s)) for s in std32)] + (["--bgr"] if swap else [])
    rc, err = run_clpad(clpad, args + geo + files + [opt_path])
    if rc != 0:
        tally.add("opencv", "failed", "%s: option run failed: %s" % (desc, err))
        return
    got = np.load(opt_path)
    want = normalise(raw, scale32, mean32, std32, swap, dtype, layout)
    if got.shape != want.shape or got.tobytes() != want.tobytes():
        if verbose:
            print("  reproduce: %s" % " ".join([clpad] + args + geo + files + [opt_path]))
        if verbose and got.shape == want.shape:
            gb = got.view(np.uint8).reshape(-1)
            wb = want.view(np.uint8).reshape(-1)
            j = int(np.argmax(gb != wb)) // got.itemsize
            print("  first difference at element %d: clpad %r, NumPy %r"
                  % (j, got.reshape(-1)[j], want.reshape(-1)[j]))
        tally.add("opencv", "failed", "%s: %s %s swap=%s scale=%r: the values are not NumPy's "
                  "float32 rule on clpad's pixels" % (desc, dtype, layout, swap, scale))
    else:
        tally.add("opencv", "passed")
    # cv2.dnn's letterbox: center, constant, scale-up, bilinear, C = 3
    if hasattr(cv2.dnn, "blobFromImageWithParams") and c == 3 and placement == "center" \
            and mode == "constant" and scaleup and interp == "bilinear":
        for i, img in enumerate(imgs):
            t = trans[i]
            f = np.float32(min(np.float32(W) / np.float32(img.shape[1]),
                               np.float32(H) / np.float32(img.shape[0])))
            rh, rw = int(np.float32(img.shape[0]) * f), int(np.float32(img.shape[1]) * f)
            if (rh, rw) != (t["resized_h"], t["resized_w"]):
                if rh == 0 or rw == 0:
                    tally.add("opencv-dnn", "divergence",
                              "dnn letterbox: a side truncates to 0 (OpenCV fails)")
                    continue
                tally.add("opencv-dnn", "divergence",
                          "dnn letterbox size int(h * (float)r) differs from round(h * r)")
                continue
            p = cv2.dnn.Image2BlobParams()
            p.scalefactor = (1 / 255,) * 3
            p.size = (W, H)
            p.mean = (0, 0, 0)
            p.swapRB = False
            p.ddepth = cv2.CV_32F
            p.datalayout = cv2.dnn.DNN_LAYOUT_NCHW
            p.paddingmode = cv2.dnn.DNN_PMODE_LETTERBOX
            p.borderValue = tuple(float(v) for v in value) + (0.0,)
            blob = cv2.dnn.blobFromImageWithParams(img, p)[0]
            ours = normalise(raw[i:i + 1], np.float32(1 / 255), np.zeros(3, np.float32),
                             np.ones(3, np.float32), False, "f32", "nchw")[0]
            d = float(np.abs(blob - ours).max())
            ok = d <= within / 255 + 1e-6
            tally.add("opencv-dnn", "passed" if ok else "failed",
                      "%s: image %d differs from blobFromImageWithParams by %g" % (desc, i, d))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clpad", default=os.environ.get("CLPAD_CLI"))
    ap.add_argument("--cases", type=int, default=int(os.environ.get("CLPAD_PEER_CASES", 60)))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("CLPAD_TEST_SEED", 7)))
    ap.add_argument("--within", type=int, default=0,
                    help="largest |difference| of a pixel from OpenCV (default 0: equal)")
    ap.add_argument("--resize-pairs", type=int,
                    default=int(os.environ.get("CLPAD_PEER_RESIZE_PAIRS", 240)),
                    help="random size pairs of the direct check against cv2.resize "
                         "(default 240)")
    ap.add_argument("--lb-resize", default=os.environ.get("CLPAD_LB_RESIZE"),
                    help="the lb_resize tool of the build (CTest sets $CLPAD_LB_RESIZE)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    if not a.clpad or not os.path.exists(a.clpad):
        print("letterbox peer: give --clpad or set CLPAD_CLI", file=sys.stderr)
        return 2
    print("letterbox peer: OpenCV %s, NumPy %s, %d cases, seed %d"
          % (cv2.__version__, np.__version__, a.cases, a.seed))
    rng = random.Random(a.seed)
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(a.cases):
            one_case(a.clpad, rng, tmp, k, tally, a.verbose, a.within)
    if a.resize_pairs > 0:
        if a.lb_resize and os.path.exists(a.lb_resize):
            check_resize(a.lb_resize, rng, a.resize_pairs, tally, a.verbose)
        else:
            tally.add("cv2.resize", "failed", "no lb_resize tool (--lb-resize or "
                      "$CLPAD_LB_RESIZE; --resize-pairs 0 leaves the check out)")
    for f in tally.failures:
        print("FAIL " + f)
    print("%-12s %8s %11s %7s" % ("peer", "passed", "divergence", "failed"))
    for peer, row in sorted(tally.rows.items()):
        print("%-12s %8d %11d %7d" % (peer, row["passed"], row["divergence"], row["failed"]))
    for why, count in sorted(tally.divergences.items()):
        print("divergence x%d: %s" % (count, why))
    print("images byte-identical to cv2.resize + copyMakeBorder: %d of %d"
          % (tally.exact[0], tally.exact[1]))
    print("float32 samples differing from Ultralytics' image / 255: %d of %d"
          % (tally.f32[0], tally.f32[1]))
    passed = sum(r["passed"] for r in tally.rows.values())
    print("%d passed, %d failed" % (passed, len(tally.failures)))
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
