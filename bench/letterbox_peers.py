#!/usr/bin/env python3
"""Time clpad.letterbox against the CPU pipelines people use today, on the
letterbox batches of `clpad bench`.

Batches (uint8 RGB images, output float32 NCHW, scale 1/255):
  16-mixed:  16 images cycling 1080x1920, 720x1280, 480x640, 3024x4032 -> 640x640
  64-small:  64 images 224x224 -> 256x256

Contenders, each timed as one call that turns the list of images into the
batch tensor (median of --runs after a warm-up; images and, where the API
allows, the output allocated once outside the timing):
  clpad          clpad.letterbox(images, size, scale=1/255, out=batch) on the
                 default device (PoCL on a CPU machine): one kernel launch.
  clpad-ref      the same on clpad's CPU reference path (device="reference").
  opencv         per image cv2.resize (INTER_LINEAR) + cv2.copyMakeBorder (114),
                 then cv2.dnn.blobFromImages(scalefactor=1/255): OpenCV with all
                 its threads (cv2.setNumThreads(cpu count)).
  opencv-threads the same per-image step spread over a thread pool of cpu count
                 workers (OpenCV releases the GIL), then the blob.
  openvino       OpenVINO's PrePostProcessor on the CPU plugin: the u8 NHWC image
                 padded to the slot's aspect by NumPy (the letterbox border,
                 114), then in the model: convert to f32, resize (linear) to the
                 slot, scale 255, NHWC -> NCHW; one infer per image, copied
                 into the batch.
Each line gives ms per batch, images/s and the ratio to clpad (> 1: clpad
faster). The target is clpad >= 3 x the fastest of opencv* and
openvino. A sanity check compares clpad with the opencv pipeline (within 1/255).

Run:  bash bench/letterbox_peers.sh [--runs N] [--batch 16-mixed|64-small]
(which makes build/bench-venv with numpy, opencv-python-headless and openvino,
and runs this on the Python package of python/ over the library just built).
"""
import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import clpad

BATCHES = {
    "16-mixed": ([(1080, 1920), (720, 1280), (480, 640), (3024, 4032)] * 4, (640, 640)),
    "64-small": ([(224, 224)] * 64, (256, 256)),
}


def median_ms(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1e6


def geometry(h, w, H, W):
    r = min(H / h, W / w)
    nh, nw = int(round(h * r)), int(round(w * r))
    top, left = (H - nh) // 2, (W - nw) // 2
    return nh, nw, top, left


def opencv_one(cv2, img, H, W):
    h, w = img.shape[:2]
    nh, nw, top, left = geometry(h, w, H, W)
    res = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR) if (nh, nw) != (h, w) else img
    return cv2.copyMakeBorder(res, top, H - nh - top, left, W - nw - left, cv2.BORDER_CONSTANT,
                              value=(114, 114, 114))


def main():
    ap = argparse.ArgumentParser(description="clpad.letterbox vs OpenCV and OpenVINO")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--batch", choices=sorted(BATCHES), action="append")
    ap.add_argument("--device", default=None, help="clpad device spec (default: clpad's)")
    a = ap.parse_args()
    threads = os.cpu_count() or 1
    rng = np.random.default_rng(0)
    print("clpad %s on %s; %d CPUs" % (clpad.library_version(),
                                        clpad.context_info(a.device).get("device"), threads))
    for name in a.batch or sorted(BATCHES):
        sizes, (H, W) = BATCHES[name]
        imgs = [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for h, w in sizes]
        n = len(imgs)
        batch = np.empty((n, 3, H, W), np.float32)
        rows = []

        def clpad_call(dev=a.device):
            clpad.letterbox(imgs, (H, W), scale=1 / 255, out=batch, device=dev)

        rows.append(("clpad", median_ms(clpad_call, a.runs)))
        rows.append(("clpad-ref", median_ms(lambda: clpad_call(clpad.REFERENCE), a.runs)))
        try:
            import cv2
        except ImportError:
            cv2 = None
            rows.append(("opencv", None))
        if cv2 is not None:
            cv2.setNumThreads(threads)

            def opencv_call():
                boxed = [opencv_one(cv2, im, H, W) for im in imgs]
                return cv2.dnn.blobFromImages(boxed, scalefactor=1 / 255)

            rows.append(("opencv", median_ms(opencv_call, a.runs)))
            pool = ThreadPoolExecutor(threads)

            def opencv_threads():
                boxed = list(pool.map(lambda im: opencv_one(cv2, im, H, W), imgs))
                return cv2.dnn.blobFromImages(boxed, scalefactor=1 / 255)

            rows.append(("opencv-threads", median_ms(opencv_threads, a.runs)))
            ref = opencv_call()
            clpad_call()
            diff = float(np.abs(ref - batch).max())
            print("%s: clpad vs opencv: max |diff| %.6f (1/255 = %.6f)" % (name, diff, 1 / 255))
            pool.shutdown()
        try:
            import openvino as ov
            from openvino.preprocess import PrePostProcessor, ResizeAlgorithm
        except ImportError:
            rows.append(("openvino", None))
        else:
            param = ov.opset13.parameter([1, 3, H, W], ov.Type.f32, name="x")
            model = ov.Model([ov.opset13.result(param)], [param], "identity")
            ppp = PrePostProcessor(model)
            ppp.input().tensor().set_element_type(ov.Type.u8).set_layout(ov.Layout("NHWC")) \
                .set_spatial_dynamic_shape()
            ppp.input().model().set_layout(ov.Layout("NCHW"))
            ppp.input().preprocess().convert_element_type(ov.Type.f32) \
                .resize(ResizeAlgorithm.RESIZE_LINEAR).scale(255.0)
            compiled = ov.Core().compile_model(ppp.build(), "CPU")
            req = compiled.create_infer_request()

            def pad_to_aspect(im):
                h, w = im.shape[:2]
                nh, nw, top, left = geometry(h, w, H, W)
                # the slot's aspect at the image's scale: border by NumPy
                ph, pw = int(round(H * h / nh)), int(round(W * w / nw))
                t, lft = (ph - h) // 2, (pw - w) // 2
                return np.pad(im, ((t, ph - h - t), (lft, pw - w - lft), (0, 0)),
                              constant_values=114)[None]

            def openvino_call():
                for i, im in enumerate(imgs):
                    out = req.infer([pad_to_aspect(im)])
                    batch[i] = next(iter(out.values()))[0]

            rows.append(("openvino", median_ms(openvino_call, a.runs)))
        ref_ms = rows[0][1]
        print("%s: %d images -> [%d, 3, %d, %d] f32" % (name, n, n, H, W))
        print("  %-15s %10s %10s %12s" % ("", "ms", "images/s", "vs clpad"))
        for who, ms in rows:
            if ms is None:
                print("  %-15s %10s   (not installed)" % (who, "n/a"))
                continue
            print("  %-15s %10.2f %10.0f %11.2fx" % (who, ms, n / ms * 1e3, ms / ref_ms))
        peers = [ms for who, ms in rows if who.startswith(("opencv", "openvino")) and ms]
        if peers:
            print("  clpad vs the fastest peer: %.2fx (target 3x)" % (min(peers) / ref_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
