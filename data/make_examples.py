#!/usr/bin/env python3
"""Writes the small .npy files that the README's examples read (run from the
repository root with NumPy installed; the files are committed, so a user needs
neither this script nor NumPy to run the examples).

    m.npy        int32 [3, 4], 1..12: the Pad-12 specification's mixed example
    ids_i64.npy  int64 [2, 3]: values above 2^53, which a float64 cannot hold
    blocks_in.npy  float32 [2, 6, 10, 3, 3], 0..1079: the SpaceToBatch example
"""
import numpy as np

np.save("data/m.npy", np.arange(1, 13, dtype=np.int32).reshape(3, 4))
np.save("data/ids_i64.npy",
        (np.int64(2) ** 53 + np.arange(6, dtype=np.int64)).reshape(2, 3))
np.save("data/blocks_in.npy", np.arange(2 * 6 * 10 * 3 * 3, dtype=np.float32).reshape(2, 6, 10, 3, 3))
