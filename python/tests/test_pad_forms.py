"""clpad.pad's forms beyond numpy.pad's and OpenVINO's: per-axis modes,
framework mode names, numpy.pad's large pads (compared with numpy.pad itself
on random shapes up to 5 periods), ONNX Pad-18's axes, and to_multiple."""

import numpy as np
import pytest

import clpad

RNG = np.random.default_rng(18)


def _numpy_fixed_large_pads():
    """numpy.pad repeats the mirror periodically since NumPy 2.1 (earlier
    versions drop values for some unbalanced multi-period pads)."""
    major, minor = (int(v) for v in np.__version__.split(".")[:2])
    return (major, minor) >= (2, 1)


@pytest.mark.skipif(not _numpy_fixed_large_pads(),
                    reason="numpy < 2.1 pads reflect/symmetric beyond one period differently")
@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
def test_large_pads_equal_numpy(mode):
    for _ in range(150):
        ndim = int(RNG.integers(1, 4))
        shape = tuple(int(v) for v in RNG.integers(1, 6, ndim))
        x = RNG.integers(-100, 100, shape).astype(RNG.choice([np.int16, np.float32, np.uint8]))
        widths = []
        for d in shape:
            period = 2 * (d - 1) if mode == "reflect" and d > 1 else 2 * d
            widths.append(tuple(int(v) for v in RNG.integers(0, 5 * period + 1, 2)))
        want = np.pad(x, widths, mode)
        got = clpad.pad(x, widths, mode, large_pads="numpy")
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (shape, widths)
        assert clpad.pad(x, widths, "np:" + mode).tobytes() == want.tobytes()
        # negative pads on other axes crop; the large axis equals numpy.pad's
        if ndim > 1:
            pb = [w[0] for w in widths]
            pe = [w[1] for w in widths]
            crop = int(RNG.integers(0, ndim))
            pb[crop] = -int(RNG.integers(0, shape[crop]))
            pe[crop] = -int(RNG.integers(0, shape[crop] + pb[crop]))
            got = clpad.pad(x, pads_begin=pb, pads_end=pe, mode=mode, large_pads="numpy")
            sl = tuple(slice(max(-b, 0), max(-b, 0) + max(b + d + e, 0))
                       for b, e, d in zip(pb, pe, shape))
            full = np.pad(x, [(max(b, 0), max(e, 0)) for b, e in zip(pb, pe)], mode)
            assert got.tobytes() == np.ascontiguousarray(full[sl]).tobytes(), (shape, pb, pe)


def test_large_pads_default_is_pad12():
    x = np.arange(4, dtype=np.int32)
    with pytest.raises(clpad.ClpadValueError, match="large_pads='numpy'"):
        clpad.pad(x, 4, "reflect")
    with pytest.raises(clpad.ClpadValueError, match="exceeds the symmetric limit"):
        clpad.pad(x, pads_begin=5, mode="symmetric", large_pads="error")
    with pytest.raises(clpad.ClpadValueError, match="large_pads"):
        clpad.pad(x, 1, "reflect", large_pads="yes")
    # reflect on one element: numpy.pad repeats it
    one = np.array([7], np.int32)
    assert clpad.pad(one, (2, 3), "reflect", large_pads="numpy").tolist() == [7] * 6


def test_per_axis_modes():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = clpad.pad(x, ((1, 1), (2, 2)), mode=("edge", "wrap"))
    want = np.pad(np.pad(x, ((1, 1), (0, 0)), "edge"), ((0, 0), (2, 2)), "wrap")
    assert got.tolist() == want.tolist()
    got = clpad.pad(x, pads_begin=[2, -1], pads_end=[-1, 3], mode=["wrap", "symmetric"])
    rows = [(o - 2) % 3 for o in range(4)]
    cols = [c if c < 4 else 7 - c for c in range(1, 7)]
    assert got.tolist() == x[np.ix_(rows, cols)].tolist()
    # a constant axis pads with the value wherever it pads
    got = clpad.pad(x, pads_begin=[1, 1], pads_end=[0, 0], mode=["constant", "reflect"],
                    value=-5)
    assert got[0].tolist() == [-5] * 5 and got[1].tolist() == [1, 0, 1, 2, 3]
    with pytest.raises(clpad.ClpadValueError, match="mode: 3 modes for 2 padded axes"):
        clpad.pad(x, 1, mode=("edge", "wrap", "edge"))
    with pytest.raises(clpad.ClpadValueError, match="value"):
        clpad.pad(x, 1, mode=("edge", "wrap"), constant_values=3)


@pytest.mark.parametrize("name,clpad_mode", [
    ("cv:CONSTANT", "constant"), ("cv:REPLICATE", "edge"), ("cv:REFLECT", "symmetric"),
    ("cv:REFLECT_101", "reflect"), ("cv:WRAP", "wrap"), ("torch:constant", "constant"),
    ("torch:replicate", "edge"), ("torch:reflect", "reflect"), ("torch:circular", "wrap"),
    ("tf:CONSTANT", "constant"), ("tf:REFLECT", "reflect"), ("tf:SYMMETRIC", "symmetric"),
    ("onnx:constant", "constant"), ("onnx:edge", "edge"), ("onnx:reflect", "reflect"),
    ("onnx:wrap", "wrap"), ("np:constant", "constant"), ("np:edge", "edge"),
    ("np:reflect", "reflect"), ("np:symmetric", "symmetric"), ("np:wrap", "wrap")])
def test_framework_names(name, clpad_mode):
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    assert clpad.pad(x, 2, name).tobytes() == np.pad(x, 2, clpad_mode).tobytes()


def test_framework_name_errors():
    x = np.zeros((3, 3), np.uint8)
    with pytest.raises(clpad.ClpadValueError, match="torch has constant, replicate"):
        clpad.pad(x, 1, "torch:symmetric")
    with pytest.raises(clpad.ClpadValueError, match="unknown prefix"):
        clpad.pad(x, 1, "keras:reflect")
    # torch's meaning keeps Pad-12's limits, numpy's does not
    with pytest.raises(clpad.ClpadValueError):
        clpad.pad(x, 3, "torch:reflect")
    assert clpad.pad(x, 3, "cv:REFLECT_101").shape == (9, 9)


def test_axes():
    x = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    got = clpad.pad(x, pads_begin=[1, 2], pads_end=[0, 1], axes=[-1, 0], mode="edge")
    assert got.tolist() == np.pad(x, ((2, 1), (0, 0), (1, 0)), "edge").tolist()
    got = clpad.pad(x, pads_begin=[1, 1], pads_end=[1, 1], axes=[1, 2], mode=["wrap", "edge"])
    want = np.pad(np.pad(x, ((0, 0), (1, 1), (0, 0)), "wrap"), ((0, 0), (0, 0), (1, 1)), "edge")
    assert got.tolist() == want.tolist()
    with pytest.raises(clpad.ClpadValueError, match="repeats axis 0"):
        clpad.pad(x, pads_begin=[1, 1], pads_end=[1, 1], axes=[0, -3])
    with pytest.raises(clpad.ClpadValueError, match="out of range"):
        clpad.pad(x, pads_begin=[1], pads_end=[1], axes=[3])
    with pytest.raises(TypeError, match="axes="):
        clpad.pad(x, 1, axes=[0])


def test_to_multiple():
    x = np.ones((5, 30, 3), np.uint8)
    got = clpad.pad(x, to_multiple=32, axes=[0, 1])
    assert got.shape == (32, 32, 3) and got[:5, :30].all() and not got[5:].any()
    got = clpad.pad(x, to_multiple=[8, 8, 1], placement="center", mode="edge")
    assert got.shape == (8, 32, 3)
    assert got.tolist() == np.pad(x, ((1, 2), (1, 1), (0, 0)), "edge").tolist()
    # explicit pads and the multiple add up: 30 + 2 = 32 stays, 5 + 2 = 7 -> 8
    got = clpad.pad(x, pads_begin=[1, 1, 0], pads_end=[1, 1, 0], to_multiple=[8, 32, 1])
    assert got.shape == (8, 32, 3) and got[1:6, 1:31].all() and not got[0].any()
    with pytest.raises(clpad.ClpadValueError, match="to_multiple: value 1 is 0"):
        clpad.pad(x, to_multiple=[8, 0, 1])
    with pytest.raises(clpad.ClpadValueError, match="to_multiple: 2 values for 3 padded axes"):
        clpad.pad(x, to_multiple=[8, 8])
    with pytest.raises(TypeError, match="placement"):
        clpad.pad(x, 1, placement="center")
