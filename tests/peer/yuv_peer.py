#!/usr/bin/env python3
"""clpad.letterbox of decoded video frames (input_format nv12, nv21, i420,
yv12) against OpenCV, on real photographs through a real codec.

Inputs: the photographs of tests/peer/fetch_photos.py, resized to three
frame sizes (landscape, portrait, small) and encoded as three short H.264
streams with FFmpeg's libx264 (through PyAV, whose wheel bundles FFmpeg),
then decoded by FFmpeg's H.264 decoder into yuv420p frames: I420 arrays
(``to_ndarray()``), NV12 arrays (``to_ndarray(format="nv12")``), NV21 and
YV12 made from them by swapping the chroma, and the decoder's own padded
planes (line sizes larger than the width) read in place as (Y, U, V).

Checked:
  bt601 limited   the batch of every frame (mixed sizes, one call) letterboxed
        to 320 x 320, uint8 NHWC, against cv2.cvtColor(COLOR_YUV2RGB_NV12 /
        _NV21 / _I420 / _YV12) + Ultralytics' letterbox (cv2.resize +
        copyMakeBorder, tests/peer/letterbox_peer.py): 0 differing bytes, on
        the default device and on the CPU reference path; the same with the
        planes tuple and with BGR output (COLOR_YUV2BGR_*);
  other matrices and ranges  the conversion alone (a slot of the frame's own
        size, nearest: the identity) against the real-number conversion
        from the standard's Kr, Kb: every sample within 1;
  the CLI   `clpad letterbox --input-format nv12 --frame-size W,H` of a raw
        file of one stream's frames equals clpad.letterbox's batch.

Exit status: 0 no failure, 1 failures, 77 nothing could run.
"""

import argparse
import glob
import io
import os
import subprocess
import sys
import tempfile
import time

try:
    import av
    import cv2
    import numpy as np
except ImportError as e:  # pragma: no cover
    print("SKIP: yuv peer: %s (run tests/peer/with_photos.sh yuv_peer.py)" % e)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)
import clpad  # noqa: E402
from letterbox_peer import ultralytics_letterbox  # noqa: E402

SIZES = [(480, 640), (640, 360), (136, 184)]  # (H, W) of the three streams
KRKB = {"bt601": (0.299, 0.114), "bt709": (0.2126, 0.0722), "bt2020": (0.2627, 0.0593)}
CODES = {"nv12": "NV12", "nv21": "NV21", "i420": "I420", "yv12": "YV12"}


def photos(folder, n):
    paths = sorted(p for p in glob.glob(os.path.join(folder, "*"))
                   if p.lower().endswith((".jpg", ".png")))
    out = []
    for p in paths:
        img = cv2.imread(p, cv2.IMREAD_COLOR)
        if img is not None and img.shape[0] >= 64 and img.shape[1] >= 64:
            out.append(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
        if len(out) == n:
            break
    return out


def encode_decode(imgs, h, w):
    """The images resized to w x h, through libx264 and back: the decoded
    yuv420p frames."""
    buf = io.BytesIO()
    out = av.open(buf, mode="w", format="mp4")
    s = out.add_stream("libx264", rate=25)
    s.width, s.height, s.pix_fmt = w, h, "yuv420p"
    s.options = {"crf": "20", "preset": "ultrafast"}
    for img in imgs:
        fr = av.VideoFrame.from_ndarray(cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA),
                                        format="rgb24")
        for p in s.encode(fr):
            out.mux(p)
    for p in s.encode():
        out.mux(p)
    out.close()
    buf.seek(0)
    return list(av.open(buf).decode(video=0))


def planes_of(fr):
    """The decoder's planes (Y, U, V) read in place: views of its padded
    buffers, rows line_size apart."""
    out = []
    for p in fr.planes:
        a = np.frombuffer(p, np.uint8).reshape(p.height, p.line_size)[:, :p.width]
        out.append(a)
    return tuple(out)


def swap_nv(nv12):
    h = nv12.shape[0] * 2 // 3
    out = nv12.copy()
    out[h:, 0::2], out[h:, 1::2] = nv12[h:, 1::2], nv12[h:, 0::2]
    return out


def swap_planar(i420):
    rows, w = i420.shape
    h = rows * 2 // 3
    flat = i420.reshape(-1).copy()
    q = h // 2 * (w // 2)
    y = h * w
    flat[y:y + q], flat[y + q:] = i420.reshape(-1)[y + q:], i420.reshape(-1)[y:y + q]
    return flat.reshape(rows, w)


def real_rgb(frame_i420, matrix, rng):
    rows, w = frame_i420.shape
    h = rows * 2 // 3
    flat = frame_i420.reshape(-1)
    q = h // 2 * (w // 2)
    Y = frame_i420[:h].astype(np.float64)
    up = lambda p: np.repeat(np.repeat(p.reshape(h // 2, w // 2), 2, 0), 2, 1)  # noqa: E731
    U = up(flat[h * w:h * w + q]).astype(np.float64)
    V = up(flat[h * w + q:]).astype(np.float64)
    kr, kb = KRKB[matrix]
    kg = 1 - kr - kb
    if rng == "limited":
        Y, s = (Y - 16) * 255 / 219, 255 / 224
    else:
        s = 1.0
    U, V = (U - 128) * s, (V - 128) * s
    return np.stack([Y + 2 * (1 - kr) * V,
                     Y - 2 * kb * (1 - kb) / kg * U - 2 * kr * (1 - kr) / kg * V,
                     Y + 2 * (1 - kb) * U], -1).clip(0, 255)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", required=True)
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    t0 = time.time()
    imgs = photos(args.photos, 4)
    if len(imgs) < 2:
        print("SKIP: yuv peer: fewer than 2 colour photographs in %s" % args.photos)
        return 77
    frames = []
    for h, w in SIZES:
        frames += encode_decode(imgs, h, w)
    i420 = [f.to_ndarray() for f in frames]
    nv12 = [f.to_ndarray(format="nv12") for f in frames]
    forms = {"i420": i420, "nv12": nv12, "nv21": [swap_nv(a) for a in nv12],
             "yv12": [swap_planar(a) for a in i420]}
    print("%d frames decoded by FFmpeg's %s from libx264 streams of %s (%.1f s)"
          % (len(frames), frames[0].format.name, SIZES, time.time() - t0))
    failures = 0
    S = (320, 320)
    for fmt, batch in forms.items():
        for bgr in (False, True):
            code = getattr(cv2, "COLOR_YUV2%s_%s" % ("BGR" if bgr else "RGB", CODES[fmt]))
            want = np.stack([ultralytics_letterbox(cv2.cvtColor(a, code), S)[0] for a in batch])
            for device in (None, "reference"):
                got, _ = clpad.letterbox(batch, S, input_format=fmt, swap_rb=bgr,
                                         dtype=np.uint8, layout="NHWC", device=device)
                d = int(np.count_nonzero(got != want))
                print("%s%s %s: %d differing bytes of %d against cv2.cvtColor + letterbox"
                      % (fmt, " bgr" if bgr else "", device or "device", d, want.size))
                failures += d != 0
    # the decoder's padded planes, read in place
    want, _ = clpad.letterbox(i420, S, input_format="i420", dtype=np.uint8, layout="NHWC")
    tup = [planes_of(f) for f in frames]
    assert any(p[0].strides[0] > p[0].shape[1] for p in tup), "no padded plane to test"
    got, _ = clpad.letterbox(tup, S, input_format="i420", dtype=np.uint8, layout="NHWC")
    d = int(np.count_nonzero(got != want))
    print("i420 decoder planes (line sizes %s): %d differing bytes"
          % (sorted({p[0].strides[0] for p in tup}), d))
    failures += d != 0
    # the other matrices and ranges: the conversion alone, against real math
    for matrix in ("bt601", "bt709", "bt2020"):
        for rng in ("limited", "full"):
            worst = 0.0
            for a in i420[::3]:
                h, w = a.shape[0] * 2 // 3, a.shape[1]
                got, _ = clpad.letterbox([a], (h, w), input_format="i420", color_matrix=matrix,
                                         color_range=rng, interp="nearest", dtype=np.uint8,
                                         layout="NHWC")
                worst = max(worst, float(np.abs(got[0] - real_rgb(a, matrix, rng)).max()))
            ok = worst < 1.0 or (matrix, rng) == ("bt601", "limited")
            print("%s %s: largest distance to the real-number conversion %.4f%s"
                  % (matrix, rng, worst,
                     "" if (matrix, rng) != ("bt601", "limited") else " (OpenCV's rule)"))
            failures += not ok
    # the CLI on a raw file of the first stream's NV12 frames
    cli = os.environ.get("CLPAD_CLI")
    if cli:
        k = len(imgs)
        h, w = SIZES[0]
        with tempfile.TemporaryDirectory() as tmp:
            raw = os.path.join(tmp, "frames.yuv")
            with open(raw, "wb") as f:
                for a in nv12[:k]:
                    f.write(a.tobytes())
            out = os.path.join(tmp, "out.npy")
            r = subprocess.run([cli, "letterbox", "-q", "--input-format", "nv12",
                                "--frame-size", "%d,%d" % (w, h), "--size", "320,320", raw, out],
                               capture_output=True, text=True)
            want, _ = clpad.letterbox(nv12[:k], S, input_format="nv12")
            if r.returncode:
                print("CLI failed: %s" % r.stderr.strip())
                failures += 1
            else:
                got = np.load(out)
                d = int(np.count_nonzero(got != want))
                print("CLI raw file of %d frames: %d differing samples" % (k, d))
                failures += d != 0
    print("%s (%.1f s)" % ("FAIL: %d checks" % failures if failures else "all passed",
                           time.time() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
