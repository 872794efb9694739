"""Pad a dataset of image chunks in Dask workers, each with its own clpad context.

A dask.distributed LocalCluster of worker processes (started with "spawn", so
each initialises OpenCL itself) letterboxes chunks of 480x640 RGB frames to
640x640 with clpad and checks every chunk against numpy.pad.

    pip install "dask[distributed]"
    python dask_images.py
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Tuple

import numpy as np
import numpy.typing as npt

import clpad

WIDTH = ((0, 0), (80, 80), (0, 0), (0, 0))  # NHWC: 480 -> 640 rows


def make_chunk(seed: int, frames: int, h: int, w: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, size=(frames, h, w, 3), dtype=np.uint8)


def letterbox(chunk: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Runs in a worker: clpad on the worker's own default device."""
    return clpad.pad(chunk, WIDTH, constant_values=114)


def check(seed: int, frames: int, h: int, w: int, got: npt.NDArray[np.uint8]) -> bool:
    want = np.pad(make_chunk(seed, frames, h, w), WIDTH, constant_values=114)
    return got.dtype == want.dtype and got.tobytes() == want.tobytes()


def worker_context() -> Dict[str, Any]:
    info = clpad.context_info()
    info["pid"] = os.getpid()
    return info


def run(chunks: int = 8, frames: int = 4, h: int = 480, w: int = 640,
        workers: int = 2) -> Tuple[List[Dict[str, Any]], int]:
    """Pad `chunks` chunks on `workers` worker processes; returns the workers'
    contexts and the number of chunks equal to numpy.pad's result."""
    from dask.distributed import Client, LocalCluster

    # (dask.distributed's constructors carry no type hints)
    with LocalCluster(n_workers=workers, threads_per_worker=1,  # type: ignore[no-untyped-call, unused-ignore]
                      processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:  # type: ignore[no-untyped-call, unused-ignore]
        data = [client.submit(make_chunk, s, frames, h, w, pure=False) for s in range(chunks)]
        padded = client.map(letterbox, data)
        verdicts = [client.submit(check, s, frames, h, w, p)
                    for s, p in zip(range(chunks), padded)]
        ok = sum(bool(v) for v in client.gather(verdicts))
        contexts = list(client.run(worker_context).values())
    return contexts, ok


def main() -> None:
    contexts, ok = run()
    for c in contexts:
        print("worker %(pid)d: %(device)s (%(platform)s)" % c)
    print("%d of 8 chunks equal numpy.pad" % ok)


if __name__ == "__main__":
    main()
