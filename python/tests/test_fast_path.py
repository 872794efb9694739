"""clpad.pad's fast path (the common calls, with less argument handling): it
must be taken for those calls and give exactly what the general path gives."""

import numpy as np
import pytest

import clpad
from clpad import _pad
from test_pad import DTYPES, MODES, limit, reference, sample


def test_fast_path_equals_the_general_path():
    rng = np.random.default_rng(20261124)
    taken = 0
    for i in range(300):
        mode = MODES[i % len(MODES)]
        dtype = DTYPES[i % len(DTYPES)]
        rank = int(rng.integers(1, 5))
        shape = tuple(int(d) for d in rng.integers(1, 6, size=rank))
        x = sample(rng, shape, dtype)
        lim = [limit(mode, d) for d in shape]
        numpy_form = i % 2 == 0
        if numpy_form:  # numpy.pad's form: pads >= 0, asymmetric
            pb = [int(rng.integers(0, max(m, 0) + 1)) for m in lim]
            pe = [int(rng.integers(0, max(m, 0) + 1)) for m in lim]
            args = (x, tuple((b, e) for b, e in zip(pb, pe)))
            kwargs = {"mode": mode}
        else:  # OpenVINO's form, crops included
            pb = [int(rng.integers(-d, max(m, 0) + 1)) for d, m in zip(shape, lim)]
            pe = [int(rng.integers(-d, max(m, 0) + 1)) for d, m in zip(shape, lim)]
            args = (x,)
            kwargs = {"pads_begin": pb, "pads_end": pe, "mode": mode}
        general = clpad.pad(*args, **kwargs)  # (also fills the fast path's caches)
        fast = _pad._fast_pad(args[0], args[1] if numpy_form else None, (), mode, None, None,
                              None if numpy_form else pb, None if numpy_form else pe, None,
                              None, None, None)
        assert fast is not None, "the fast path was not taken for %r %r" % (shape, kwargs)
        taken += 1
        want = reference(x, pb, pe, mode)
        assert fast.dtype == x.dtype and fast.shape == want.shape
        assert fast.tobytes() == want.tobytes(), (shape, pb, pe, mode, dtype)
        assert general.tobytes() == want.tobytes()
    assert taken == 300


@pytest.mark.parametrize("call, want", [
    (lambda x: clpad.pad(x, pads_begin=[1, 1], pads_end=[1, 1], value=3),
     lambda x: np.pad(x, 1, constant_values=3)),
    (lambda x: clpad.pad(x.T, ((1, 0), (0, 2)), "edge"),  # not C-contiguous
     lambda x: np.pad(x.T, ((1, 0), (0, 2)), "edge")),
    (lambda x: clpad.pad(x.astype(">i4"), 1, "wrap"),   # not native
     lambda x: np.pad(x.astype(">i4"), 1, "wrap")),
])
def test_calls_the_fast_path_declines_equal_numpy(call, want):
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    got, ref = call(x), want(x)
    assert got.shape == ref.shape and np.array_equal(got, ref)


def test_fast_path_declines_what_it_does_not_handle():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    clpad.pad(x, 1, mode="edge")  # caches
    # a pad value other than 0, a device, pads beyond int64, numpy pads < 0
    assert _pad._fast_pad(x, 1, (), "edge", 5, None, None, None, None, None, None, None) is None
    assert _pad._fast_pad(x, 1, (), "edge", None, None, None, None, None, "0:0", None,
                          None) is None
    assert _pad._fast_pad(x, None, (), "edge", None, None, [1 << 63, 0], [0, 0], None, None,
                          None, None) is None
    assert _pad._fast_pad(x, -1, (), "edge", None, None, None, None, None, None, None,
                          None) is None


def test_fast_path_pad_values_equal_numpy():
    """Pad values take the fast path, converted once per value and dtype;
    -0.0 and 0.0 (equal, with one hash) must not share a conversion."""
    for dtype in (np.float32, np.float16, np.float64, np.uint8, np.int64):
        x = np.arange(12).astype(dtype).reshape(3, 4)
        clpad.pad(x, 1, mode="constant")  # caches the dtype and the mode
        values = [0.0, -0.0, 114, 7.5, "9", -1] if dtype in (np.float32, np.float16,
                                                              np.float64) else [114, "9", 3.0]
        if dtype == np.int64:
            values.append(2 ** 53 + 1)
        for v in values:
            fast = _pad._fast_pad(x, 1, (), "constant", v, None, None, None, None, None, None,
                                  None)
            assert fast is not None, (dtype, v)
            want = np.pad(x, 1, constant_values=dtype(float(v)) if not isinstance(v, int)
                          or v < 2 ** 53 else np.int64(v))
            assert fast.tobytes() == want.tobytes(), (dtype, v, fast, want)
    f = np.zeros((2, 2), np.float32)
    a = _pad._fast_pad(f, 1, (), "constant", 0.0, None, None, None, None, None, None, None)
    b = _pad._fast_pad(f, 1, (), "constant", -0.0, None, None, None, None, None, None, None)
    assert a is not None and b is not None
    assert np.signbit(b[0, 0]) and not np.signbit(a[0, 0])
    # a value the dtype cannot hold: the general path casts it as numpy.pad does
    u = np.zeros((2, 2), np.uint8)
    clpad.pad(u, 1)
    assert _pad._fast_pad(u, 1, (), "constant", 300, None, None, None, None, None, None,
                          None) is None
    assert np.array_equal(clpad.pad(u, 1, constant_values=300),
                          np.pad(u, 1, constant_values=300))
    with pytest.raises(clpad.ClpadValueError):  # OpenVINO's form: the value must fit
        clpad.pad(u, pads_begin=1, pads_end=1, value=300)


def test_geometry_cache_tells_every_geometry_apart():
    """The fast path keeps each (shape, pads_begin, pads_end)'s output shape
    and arguments: calls that share all but one of them, one after another,
    each get their own result."""
    x = np.arange(30, dtype=np.uint8).reshape(5, 6)
    calls = [([1, 2], [0, 1]), ([1, 2], [0, 2]), ([1, 3], [0, 2]), ([2, 3], [0, 2]),
             ([-1, 0], [1, -2]), ([1, 2], [0, 1])]
    for pb, pe in calls:
        got = clpad.pad(x, pads_begin=pb, pads_end=pe, mode="wrap")
        assert got.tobytes() == reference(x, pb, pe, "wrap").tobytes(), (pb, pe)
    y = x.reshape(6, 5)  # the same pads on another shape
    got = clpad.pad(y, pads_begin=[1, 2], pads_end=[0, 1], mode="wrap")
    assert got.tobytes() == reference(y, [1, 2], [0, 1], "wrap").tobytes()
