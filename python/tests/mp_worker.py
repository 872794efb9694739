"""Work done in child processes by test_processes.py (importable by "spawn")."""

import os
import warnings

import numpy as np

import clpad

WIDTH = ((1, 2), (3, 0), (2, 2))


def chunk(seed):
    return np.random.default_rng(seed).standard_normal((4, 5, 6)).astype(np.float32)


def pad_chunk(seed, device=None):
    """Pad one chunk in this process; report what ran it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            y = clpad.pad(chunk(seed), WIDTH, "reflect", device=device)
            error = None
        except clpad.ClpadError as e:
            y, error = None, "%s: %s" % (type(e).__name__, e)
        info = clpad.context_info(device) if error is None else None
        handle = clpad._context.context(device).value if error is None else None
    return {"pid": os.getpid(), "seed": seed, "result": y, "error": error, "info": info,
            "handle": handle, "warnings": [str(w.message) for w in caught]}


def expected(seed):
    return np.pad(chunk(seed), WIDTH, "reflect")
