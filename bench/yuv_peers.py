#!/usr/bin/env python3
"""Time clpad.letterbox of NV12 video frames against the CPU pipelines people
use today.

Batch: 8 NV12 frames cycling 1920x1080, 1280x720 and 720x1280 (W x H; the
(H * 3 / 2, W) uint8 arrays a decoder gives) -> [8, 3, 640, 640] float32
NCHW, RGB, scale 1/255, the Ultralytics letterbox (keep aspect, border 114).

Contenders, each timed as one call from the list of frames to the batch
(median and range of --runs after a warm-up):
  clpad          clpad.letterbox(frames, 640, input_format="nv12", scale=1/255,
                 out=batch) on the default device: conversion, resize,
                 border, normalisation and layout in one kernel launch.
  clpad-ref      the same on clpad's CPU reference path (device="reference").
  cv2            per frame cv2.cvtColor(COLOR_YUV2RGB_NV12) + cv2.resize
                 (INTER_LINEAR) + cv2.copyMakeBorder (114), then np.stack,
                 transpose to NCHW and / 255 as float32 (OpenCV with all its
                 threads).
  cv2-threads    the same per-frame step on a thread pool of cpu-count workers.
  openvino-nv12  OpenVINO's PrePostProcessor on the CPU plugin with an NV12
                 single-plane u8 input: convert_color(RGB), f32, resize
                 (linear) to 640 x 640, scale 255, NCHW; one infer per frame.
                 It cannot keep the aspect ratio: it stretches each frame to
                 the slot (a different, cheaper result; timed for reference).
A check compares clpad with the cv2 chain (0 differing bytes as uint8 NHWC).

Run:  bash bench/yuv_peers.sh [--runs N]
"""
import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import clpad

SIZES = [(1080, 1920), (720, 1280), (1280, 720)] * 3  # (H, W)
SIZES = SIZES[:8]
S = 640


def timed(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        fn()
        times.append((time.perf_counter_ns() - t0) / 1e6)
    return statistics.median(times), min(times), max(times)


def ul_letterbox(cv2, img):
    h, w = img.shape[:2]
    r = min(S / h, S / w)
    nw, nh = int(round(w * r)), int(round(h * r))
    dw, dh = (S - nw) / 2, (S - nh) / 2
    if (nw, nh) != (w, h):
        img = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    return cv2.copyMakeBorder(img, top, bottom, left, right, cv2.BORDER_CONSTANT,
                              value=(114, 114, 114))


def main():
    ap = argparse.ArgumentParser(description="clpad.letterbox of NV12 frames vs cv2, OpenVINO")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--device", default=None)
    a = ap.parse_args()
    import cv2
    threads = os.cpu_count() or 1
    cv2.setNumThreads(threads)
    rng = np.random.default_rng(0)
    # smooth content (a decoded frame is not noise): gradients plus noise
    frames = []
    for h, w in SIZES:
        f = rng.integers(0, 256, (h * 3 // 2, w), dtype=np.uint8)
        f[:h] = (np.add.outer(np.arange(h), np.arange(w)) // 8 % 220 + 16).astype(np.uint8)
        frames.append(f)
    n = len(frames)
    print("clpad %s on %s; %d CPUs; %d NV12 frames %s -> [%d, 3, %d, %d] f32"
          % (clpad.library_version(), clpad.context_info(a.device).get("device"), threads, n,
             sorted({(w, h) for h, w in SIZES}), n, S, S))
    batch = np.empty((n, 3, S, S), np.float32)
    rows = []

    def clpad_call(dev=a.device):
        clpad.letterbox(frames, S, input_format="nv12", scale=1 / 255, out=batch, device=dev)

    rows.append(("clpad", timed(clpad_call, a.runs)))
    rows.append(("clpad-ref", timed(lambda: clpad_call(clpad.REFERENCE), a.runs)))

    def one(f):
        return ul_letterbox(cv2, cv2.cvtColor(f, cv2.COLOR_YUV2RGB_NV12))

    def cv2_call():
        return (np.stack([one(f) for f in frames]).transpose(0, 3, 1, 2)
                .astype(np.float32) / np.float32(255))

    rows.append(("cv2", timed(cv2_call, a.runs)))
    pool = ThreadPoolExecutor(threads)

    def cv2_threads():
        return (np.stack(list(pool.map(one, frames))).transpose(0, 3, 1, 2)
                .astype(np.float32) / np.float32(255))

    rows.append(("cv2-threads", timed(cv2_threads, a.runs)))
    got, _ = clpad.letterbox(frames, S, input_format="nv12", dtype=np.uint8, layout="NHWC",
                             device=a.device)
    want = np.stack([one(f) for f in frames])
    print("check: clpad (u8 NHWC) vs cvtColor + letterbox: %d differing bytes of %d"
          % (int(np.count_nonzero(got != want)), want.size))
    pool.shutdown()
    try:
        import openvino as ov
        from openvino.preprocess import ColorFormat, PrePostProcessor, ResizeAlgorithm
    except ImportError:
        rows.append(("openvino-nv12", None))
    else:
        param = ov.opset13.parameter([1, 3, S, S], ov.Type.f32, name="x")
        model = ov.Model([ov.opset13.result(param)], [param], "identity")
        ppp = PrePostProcessor(model)
        ppp.input().tensor().set_element_type(ov.Type.u8) \
            .set_color_format(ColorFormat.NV12_SINGLE_PLANE).set_spatial_dynamic_shape()
        ppp.input().model().set_layout(ov.Layout("NCHW"))
        ppp.input().preprocess().convert_color(ColorFormat.RGB) \
            .convert_element_type(ov.Type.f32).resize(ResizeAlgorithm.RESIZE_LINEAR).scale(255.0)
        req = ov.Core().compile_model(ppp.build(), "CPU").create_infer_request()
        ov_frames = [f[None, :, :, None] for f in frames]  # [1, H * 3 / 2, W, 1]

        def openvino_call():
            for i, f in enumerate(ov_frames):
                out = req.infer([f])
                batch[i] = next(iter(out.values()))[0]

        rows.append(("openvino-nv12", timed(openvino_call, a.runs)))
    ref_ms = rows[0][1][0]
    print("  %-14s %10s %18s %10s %10s" % ("", "median ms", "range ms", "frames/s", "vs clpad"))
    for who, t in rows:
        if t is None:
            print("  %-14s %10s   (not installed)" % (who, "n/a"))
            continue
        med, lo, hi = t
        print("  %-14s %10.2f %8.2f - %7.2f %10.0f %9.2fx"
              % (who, med, lo, hi, n / med * 1e3, med / ref_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
