"""The Dask example: image chunks padded in the worker processes of a
dask.distributed LocalCluster, each worker with its own clpad context, every
chunk checked against numpy.pad."""

import importlib.util
import os

import pytest

import clpad
from conftest import need

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                       "dask_images.py")


def load_example():
    spec = importlib.util.spec_from_file_location("dask_images", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_dask_local_cluster_of_processes():
    need("dask", "dask")
    need("dask.distributed", "dask")
    example = load_example()
    contexts, ok = example.run(chunks=6, frames=2, h=48, w=64, workers=2)
    assert ok == 6, "%d of 6 chunks equal numpy.pad" % ok
    pids = {c["pid"] for c in contexts}
    assert len(pids) == 2 and os.getpid() not in pids, contexts
    here = clpad.context_info()
    for c in contexts:
        assert c["device"] == here["device"] and c["fallback"] == here["fallback"], c


def test_the_example_pads_what_it_says():
    """The worker function itself, in this process (so that a wrong pad fails
    here even if the cluster cannot start)."""
    np = pytest.importorskip("numpy")
    example = load_example()
    chunk = example.make_chunk(0, 2, 6, 8)
    got = example.letterbox(chunk)
    assert got.shape == (2, 166, 8, 3)
    assert example.check(0, 2, 6, 8, got)
    assert not example.check(1, 2, 6, 8, got)
    assert np.all(got[:, :80] == 114)
