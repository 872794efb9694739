"""clpad on PyOpenCL arrays: the data stays on the device.

clpad.pad, space_to_batch and batch_to_space take a pyopencl.array.Array and
return one on the same queue, enqueued after the input's events; the result's
events include clpad's, so PyOpenCL's own operations that follow wait for it.

    pip install pyopencl       # and an OpenCL driver (PoCL on a CPU-only machine)
    python pyopencl_pipeline.py
"""

from __future__ import annotations

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

import clpad


def main() -> None:
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)

    host = np.random.default_rng(0).standard_normal((2, 3, 32, 32)).astype(np.float32)
    x = cla.to_device(queue, host)
    x2 = x * 2                                   # a PyOpenCL kernel; clpad waits for it

    padded = clpad.pad(x2, ((0, 0), (0, 0), (2, 2), (2, 2)), "reflect")
    blocks = clpad.space_to_batch(padded, [1, 1, 2, 2])          # (8, 3, 18, 18)
    back = clpad.batch_to_space(blocks, [1, 1, 2, 2])

    out = cla.empty(queue, (2, 3, 36, 36), np.float32)           # reuse device memory
    clpad.pad(x2, ((0, 0), (0, 0), (2, 2), (2, 2)), "reflect", out=out)

    want = np.pad(host * 2, ((0, 0), (0, 0), (2, 2), (2, 2)), "reflect")
    assert np.array_equal(back.get(), want) and np.array_equal(out.get(), want)
    print("pyopencl:", padded.shape, blocks.shape, "on", queue.device.name)


if __name__ == "__main__":
    main()
