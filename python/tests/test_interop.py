"""Arrays from other libraries: DLPack producers and __array_interface__
objects as inputs of every array-taking function, DLPack producers as out=
(written in place), torch dtypes, and Dask arrays kept lazy.

torch is not among the test requirements (a CPU build is hundreds of MB): the
DLPack tests use NumPy's own ``__dlpack__`` behind a wrapper that exposes
nothing else, which is exactly what clpad sees of a torch or JAX CPU tensor;
the torch test runs when torch is installed and skips (saying so) otherwise."""

import numpy as np
import pytest

import clpad
from conftest import need


class DL:
    """Only the DLPack protocol of an ndarray (as a torch CPU tensor shows it)."""

    def __init__(self, a, device=(1, 0)):
        self.a = a
        self.device = device

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.device


class AI:
    """Only __array_interface__."""

    def __init__(self, a):
        self.a = a
        self.__array_interface__ = a.__array_interface__


X = np.arange(1, 13, dtype=np.int16).reshape(3, 4)


@pytest.mark.parametrize("wrap", [DL, AI], ids=["dlpack", "array_interface"])
def test_inputs_of_every_function(wrap):
    assert np.array_equal(clpad.pad(wrap(X), 1, "reflect"), np.pad(X, 1, "reflect"))
    assert np.array_equal(clpad.pad(wrap(X), pads_begin=[1, -1], pads_end=0, mode="edge"),
                          clpad.pad(X, pads_begin=[1, -1], pads_end=0, mode="edge"))
    x4 = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    s2b = clpad.space_to_batch(wrap(x4), [1, 2, 2, 1])
    assert np.array_equal(s2b, clpad.space_to_batch(x4, [1, 2, 2, 1]))
    assert np.array_equal(clpad.batch_to_space(wrap(s2b), [1, 2, 2, 1]), x4)
    batch, shapes = clpad.pad_stack([wrap(X), X[:2]])
    assert np.array_equal(batch[0], X) and shapes.tolist() == [[3, 4], [2, 4]]
    img = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
    got, _ = clpad.letterbox([wrap(img)], 8)
    want, _ = clpad.letterbox([img], 8)
    assert np.array_equal(got, want)


def test_dlpack_input_is_read_in_place_and_never_written():
    x = X.copy()
    y = clpad.pad(DL(x), 2, "symmetric")
    assert np.array_equal(y, np.pad(X, 2, "symmetric")) and np.array_equal(x, X)
    assert not np.shares_memory(y, x)


def test_dlpack_input_on_another_device():
    with pytest.raises(clpad.ClpadValueError, match=r"x is a DL on a CUDA device"):
        clpad.pad(DL(X, device=(2, 0)), 1)
    with pytest.raises(clpad.ClpadValueError, match=r"images\[0\] .*CUDA"):
        clpad.letterbox([DL(np.zeros((4, 4, 3), np.uint8), device=(2, 0))], 8)


def test_out_is_a_dlpack_producer_written_in_place():
    mem = np.full((5, 6), -1, np.int16)
    target = DL(mem)
    got = clpad.pad(X, 1, "wrap", out=target)
    assert got is target  # the object itself, not a copy or a view
    assert np.array_equal(mem, np.pad(X, 1, "wrap"))
    # the fast path's call and the general path's, and the batch operations
    mem[...] = 0
    assert clpad.pad(X, 1, out=target) is target and np.array_equal(mem, np.pad(X, 1))
    stack = np.zeros((2, 3, 4), np.int16)
    b, shapes = clpad.pad_stack([X, X[:1]], out=DL(stack))
    assert isinstance(b, DL) and b.a is stack and np.array_equal(stack[0], X)
    x4 = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    o = np.zeros((4, 2, 2, 1), np.float32)
    assert clpad.space_to_batch(x4, [1, 2, 2, 1], out=DL(o)).a is o
    assert np.array_equal(o, clpad.space_to_batch(x4, [1, 2, 2, 1]))


def test_out_dlpack_refusals():
    ro = np.zeros((5, 6), np.int16)
    ro.flags.writeable = False
    with pytest.raises(clpad.ClpadValueError, match="out .*read-only"):
        clpad.pad(X, 1, out=DL(ro))
    wide = np.zeros((6, 5), np.int16).T
    with pytest.raises(clpad.ClpadValueError, match="out .*C-contiguous"):
        clpad.pad(X, 1, out=DL(wide))
    with pytest.raises(clpad.ClpadValueError, match="out .*CUDA"):
        clpad.pad(X, 1, out=DL(np.zeros((5, 6), np.int16), device=(2, 0)))
    with pytest.raises(clpad.ClpadValueError, match="dtype"):
        clpad.pad(X, 1, out=DL(np.zeros((5, 6), np.int32)))
    assert not ro.any()


def test_torch_dtype_names_the_numpy_dtype():
    """A torch.dtype stand-in (clpad recognises it by its type's module and
    name, without importing torch)."""
    fake = type("dtype", (), {"__module__": "torch", "__str__": lambda s: "torch.float16"})
    img = np.zeros((4, 4, 3), np.uint8)
    got, _ = clpad.letterbox([img], 8, dtype=fake())
    assert got.dtype == np.float16


def test_torch_tensors():
    torch = pytest.importorskip("torch", reason="torch is not installed: the DLPack wrapper "
                                "tests above stand in for it")
    t = torch.arange(12, dtype=torch.int32).reshape(3, 4)
    assert np.array_equal(clpad.pad(t, 1, "edge"), np.pad(t.numpy(), 1, "edge"))
    o = torch.zeros((5, 6), dtype=torch.int32)
    assert clpad.pad(t, 1, "reflect", out=o) is o
    assert np.array_equal(o.numpy(), np.pad(t.numpy(), 1, "reflect"))
    with pytest.raises(clpad.ClpadValueError, match="C-contiguous"):
        clpad.pad(t, 1, out=torch.zeros((6, 5), dtype=torch.int32).T)
    img = torch.zeros((4, 4, 3), dtype=torch.uint8)
    assert clpad.letterbox([img], 8, dtype=torch.float16)[0].dtype == np.float16


# --- Dask ---------------------------------------------------------------------


def lazy_source(shape, chunks, calls):
    """A Dask array whose blocks count how often they are computed."""
    da = need("dask.array", "dask")
    base = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)

    def make(block_info=None):
        calls.append(1)
        loc = block_info[None]["array-location"]
        return base[tuple(slice(a, b) for a, b in loc)]
    return da.map_blocks(make, dtype=np.float32, chunks=chunks, meta=np.empty((0,) * len(shape),
                                                                               np.float32)), base


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
def test_dask_pad_is_lazy_and_equals_numpy(mode):
    calls = []
    x, base = lazy_source((6, 7, 2), ((2, 4), (3, 3, 1), (2,)), calls)
    pw = ((2, 1), (0, 0), (1, 1)) if mode != "reflect" else ((2, 1), (0, 0), (1, 1))
    kw = {"constant_values": 5} if mode == "constant" else {}
    y = clpad.pad(x, pw, mode, **kw)
    assert calls == [], "clpad.pad computed the Dask array"
    assert type(y).__name__ == "Array" and type(y).__module__.startswith("dask")
    assert y.shape == np.pad(base, pw, mode, **kw).shape
    got = y.compute(scheduler="synchronous")
    assert np.array_equal(got, np.pad(base, pw, mode, **kw)), mode
    z = clpad.dask.pad(x, pads_begin=[1, -2, 0], pads_end=[-1, 1, 1], mode=mode,
                       **({"value": 5} if kw else {}))
    assert np.array_equal(z.compute(scheduler="synchronous"),
                          clpad.pad(base, pads_begin=[1, -2, 0], pads_end=[-1, 1, 1], mode=mode,
                                    **({"value": 5} if kw else {})))


def test_dask_chunks_of_the_constant_rule():
    calls = []
    x, base = lazy_source((6, 7), ((2, 4), (3, 3, 1)), calls)
    y = clpad.dask.pad(x, ((1, 2), (3, 0)))
    assert y.chunks == ((3, 6), (6, 3, 1))  # only the end blocks grow: no rechunk
    assert calls == []


def test_dask_errors_now_and_refusals():
    calls = []
    x, _ = lazy_source((4, 4), ((2, 2), (4,)), calls)
    with pytest.raises(clpad.ClpadValueError):
        clpad.pad(x, 1, "mirror")
    with pytest.raises(clpad.ClpadValueError):
        clpad.pad(x, 1, "edge", constant_values=3)
    with pytest.raises(TypeError, match="out="):
        clpad.pad(x, 1, out=np.zeros((6, 6), np.float32))
    with pytest.raises(TypeError, match="Dask"):
        clpad.pad_stack([x])
    with pytest.raises(TypeError, match="Dask"):
        clpad.space_to_batch(x, [1, 2])
    assert calls == []


def test_dask_numpy_modes_and_per_side_constants():
    """numpy.pad's other modes and per-side constants, block by block."""
    calls = []
    x, base = lazy_source((6, 10), ((2, 2, 2), (3, 3, 4)), calls)
    cases = [((2, "mean"), {"stat_length": 2}), ((1, "linear_ramp"), {"end_values": (5, -1)}),
             ((((0, 0), (2, 2)), "median"), {}), ((2, "reflect"), {"reflect_type": "odd"}),
             ((((1, 2), (0, 3)),), {"constant_values": ((1, 2), (3, 4))})]
    ys = [clpad.pad(x, *a, **kw) for a, kw in cases]
    assert calls == []
    for y, (a, kw) in zip(ys, cases):
        assert np.array_equal(y.compute(scheduler="synchronous"), np.pad(base, *a, **kw)), (a, kw)


def test_dask_mode_per_axis_and_the_positional_form():
    calls = []
    x, base = lazy_source((4, 6), ((2, 2), (3, 3)), calls)
    y = clpad.pad(x, 1, ("edge", "wrap"))
    assert np.array_equal(y.compute(scheduler="synchronous"),
                          clpad.pad(base, 1, ("edge", "wrap")))
    with pytest.raises(TypeError, match="positional form"):
        clpad.pad(x, [1, 1], [1, 1])
    assert len(calls) == 4  # the one compute above, nothing else
