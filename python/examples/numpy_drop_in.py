"""clpad.pad as numpy.pad, and the same pads in OpenVINO's form.

    python numpy_drop_in.py
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import clpad


def main() -> None:
    # numpy.pad's form: the same call, the same bytes
    x = np.arange(6)
    print(clpad.pad(x, 2, mode="reflect"))                  # [2 1 0 1 2 3 4 5 4 3]

    img = np.random.default_rng(0).integers(0, 256, size=(480, 640, 3), dtype=np.uint8)
    width = ((80, 80), (0, 0), (0, 0))                       # letterbox to 640x640
    boxed: npt.NDArray[np.uint8] = clpad.pad(img, width, constant_values=114)
    assert np.array_equal(boxed, np.pad(img, width, constant_values=114))

    batch = np.random.default_rng(1).standard_normal((4, 3, 64, 64)).astype(np.float32)
    for mode in ("edge", "reflect", "symmetric", "wrap"):
        got = clpad.pad(batch, ((0, 0), (0, 0), (3, 3), (3, 3)), mode)
        assert got.tobytes() == np.pad(batch, ((0, 0), (0, 0), (3, 3), (3, 3)), mode).tobytes()

    # OpenVINO Pad-12's form: per-axis begin/end pads, negative pads crop
    m = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    print(clpad.pad(m, pads_begin=[2, -1], pads_end=[-1, 3], mode="reflect"))

    # Reuse an output array across calls
    out = np.empty((4, 3, 70, 70), np.float32)
    clpad.pad(batch, ((0, 0), (0, 0), (3, 3), (3, 3)), "reflect", out=out)

    # Beyond clpad's reflect limit (D-1), numpy.pad repeats the reflection: clpad says so
    try:
        clpad.pad(x, 6, mode="reflect")
    except clpad.ClpadValueError as e:
        print("error:", e)


if __name__ == "__main__":
    main()
