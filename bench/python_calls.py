#!/usr/bin/env python3
"""The Python call's overheads, measured in one process with the calls
interleaved run by run (so that a noisy neighbour slows them alike):

- out=:      clpad.pad(x, ..., out=out), the output array reused;
- default:   clpad.pad(x, ...), a new result array per call (the output cache
             reuses the freed block of the call before);
- no cache:  the default call with a fresh allocation per call, as NumPy's
             allocator gives (the cache emptied before each call);
- pyopencl:  the call on pyopencl arrays (output reused), from the call to the
             completion of its event, and that event's kernel time (profiling).

    PYTHONPATH=python CLPAD_LIBRARY=build/libclpad.so python bench/python_calls.py [--runs 9]

(bench/peers.sh's virtual environment has numpy and pyopencl.) Each figure is
the median of --runs runs after a warm-up, with the range [min-max].
"""

import argparse
import statistics
import time

import numpy as np

import clpad

CASES = [
    # (label, shape, dtype, pad_width, mode)
    ("nchw-f32-8x64x256x256/%s", (8, 64, 256, 256), np.float32,
     ((0, 0), (0, 0), (2, 2), (2, 2)), None),
    ("letterbox-nhwc-u8-1x2160x3840x3", (1, 2160, 3840, 3), np.uint8,
     ((0, 0), (840, 840), (0, 0), (0, 0)), "constant"),
    ("small-f32-1x3x224x224/reflect", (1, 3, 224, 224), np.float32,
     ((0, 0), (0, 0), (2, 2), (2, 2)), "reflect"),
]
MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def fmt(ms):
    return "%7.2f [%.2f-%.2f]" % (statistics.median(ms), min(ms), max(ms))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--no-pyopencl", action="store_true")
    args = ap.parse_args()

    queue = None
    if not args.no_pyopencl:
        try:
            import pyopencl as cl
            import pyopencl.array as cla
            name = clpad.context_info()["device"].strip()
            devs = [d for p in cl.get_platforms() for d in p.get_devices()
                    if d.name.strip() == name]
            queue = cl.CommandQueue(cl.Context(devs[:1]),
                                    properties=cl.command_queue_properties.PROFILING_ENABLE)
        except Exception as e:  # reported, and the host-array columns still run
            print("pyopencl: not timed (%s)" % e)
    print("device: %s; times in ms, median [min-max] of %d interleaved runs"
          % (clpad.context_info()["device"], args.runs))
    print("%-36s %22s %22s %22s %22s %22s %8s %8s" % (
        "case", "out=", "default", "no cache", "pyopencl call", "pyopencl kernel",
        "def/out", "call/kern"))
    cases = []
    for label, shape, dt, width, mode in CASES:
        for m in (MODES if mode is None else [mode]):
            cases.append((label % m if "%s" in label else label, shape, dt, width, m))
    for label, shape, dt, width, mode in cases:
        x = (np.arange(int(np.prod(shape))) % 251).astype(dt).reshape(shape)
        out = clpad.pad(x, width, mode)
        t = {k: [] for k in ("out", "new", "nocache", "cl", "kern")}
        if queue is not None:
            d = cla.to_device(queue, x)
            dout = clpad.pad(d, width, mode)
            queue.finish()
        for i in range(args.runs + 1):
            t0 = time.perf_counter()
            clpad.pad(x, width, mode, out=out)
            t1 = time.perf_counter()
            y = clpad.pad(x, width, mode)
            t2 = time.perf_counter()
            del y
            clpad._memory.trim()  # the next call maps a fresh block
            t3 = time.perf_counter()
            y = clpad.pad(x, width, mode)
            t4 = time.perf_counter()
            del y
            if i == 0:
                continue  # warm-up
            t["out"].append((t1 - t0) * 1e3)
            t["new"].append((t2 - t1) * 1e3)
            t["nocache"].append((t4 - t3) * 1e3)
            if queue is not None:
                t5 = time.perf_counter()
                clpad.pad(d, width, mode, out=dout)
                evt = dout.events[-1]
                evt.wait()
                t6 = time.perf_counter()
                t["cl"].append((t6 - t5) * 1e3)
                t["kern"].append((evt.profile.end - evt.profile.start) * 1e-6)
        ratio = statistics.median(t["new"]) / statistics.median(t["out"])
        cl_ratio = (statistics.median(t["cl"]) / statistics.median(t["kern"])
                    if t["cl"] else float("nan"))
        print("%-36s %22s %22s %22s %22s %22s %8.2f %8.2f" % (
            label, fmt(t["out"]), fmt(t["new"]), fmt(t["nocache"]),
            fmt(t["cl"]) if t["cl"] else "n/a", fmt(t["kern"]) if t["kern"] else "n/a",
            ratio, cl_ratio), flush=True)


if __name__ == "__main__":
    main()
