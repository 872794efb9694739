"""All of numpy.pad through clpad.pad's numpy form: the examples of
numpy.pad's own docstring (of the numpy installed, parsed here, not copied),
and random cases of every mode and option, six dtypes, ranks 1-3, compared
with numpy.pad byte for byte."""

import doctest
import platform
import warnings

import numpy as np
import pytest

import clpad


def same(got, want):
    return (type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
            and got.tobytes() == want.tobytes())


def test_numpy_pad_docstring_examples():
    examples = doctest.DocTestParser().get_examples(np.pad.__doc__)
    ns = {"np": np, "clpad": clpad}
    calls = 0
    for e in examples:
        src = e.source
        if "np.pad(" not in src:
            exec(src, ns)
            continue
        calls += 1
        want = eval(src, ns)
        got = eval(src.replace("np.pad(", "clpad.pad("), ns)
        if "'empty'" in src:  # uninitialised pads: the shape, the dtype and the data
            assert got.shape == want.shape and got.dtype == want.dtype, src
            continue
        assert same(got, want), "%s\nnumpy: %r\nclpad: %r" % (src.strip(), want, got)
    assert calls == 18, "numpy.pad's docstring has %d examples, this test expects 18" % calls


DTYPES = [np.uint8, np.int16, np.int32, np.int64, np.float32, np.float64]
MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum",
         "minimum", "mean", "median", "empty", "function"]


def pad_with(vector, pad_width, iaxis, kwargs):
    vector[:pad_width[0]] = kwargs.get("padder", 10) + iaxis
    vector[len(vector) - pad_width[1]:] = 2 * kwargs.get("padder", 10)


def random_case(rng, mode, dtype, rank):
    shape = tuple(int(rng.integers(1, 6)) for _ in range(rank))
    if np.dtype(dtype).kind == "f":
        x = (rng.standard_normal(shape) * 50).astype(dtype)
    else:
        info = np.iinfo(dtype)
        x = rng.integers(max(info.min, -1000), min(info.max, 1000), shape,
                         endpoint=True).astype(dtype)
    pairs = [(int(rng.integers(0, 5)), int(rng.integers(0, 5))) for _ in range(rank)]
    form = rng.integers(0, 3)
    pw = pairs if form == 0 else (pairs[0] if form == 1 else pairs[0][0])
    kw = {}
    m = mode
    if mode == "constant":
        kind = rng.integers(0, 4)
        if kind == 0:
            kw["constant_values"] = int(rng.integers(-400, 400))  # numpy's casting
        elif kind == 1:
            kw["constant_values"] = tuple(float(rng.integers(-9, 9)) / 2 for _ in range(2))
        else:
            kw["constant_values"] = [(int(rng.integers(0, 100)), int(rng.integers(0, 100)))
                                     for _ in range(rank)]
    elif mode in ("reflect", "symmetric"):
        kw["reflect_type"] = ["even", "odd"][int(rng.integers(0, 2))]
    elif mode == "linear_ramp":
        if rng.integers(0, 2):
            kw["end_values"] = [(int(rng.integers(0, 50)), int(rng.integers(0, 50)))
                                for _ in range(rank)]
    elif mode in ("maximum", "minimum", "mean", "median"):
        s = rng.integers(0, 3)
        if s == 1:
            kw["stat_length"] = int(rng.integers(1, 4))
        elif s == 2:
            kw["stat_length"] = [(int(rng.integers(1, 4)), int(rng.integers(1, 4)))
                                 for _ in range(rank)]
    elif mode == "function":
        m = pad_with
        if rng.integers(0, 2):
            kw["padder"] = int(rng.integers(0, 100))
    return x, pw, m, kw


def test_random_cases_equal_numpy():
    rng = np.random.default_rng(29)
    n = 0
    for mode in MODES:
        for dtype in DTYPES:
            for rank in (1, 2, 3):
                for _ in range(2):
                    x, pw, m, kw = random_case(rng, mode, dtype, rank)
                    if m in ("reflect", "symmetric") and kw["reflect_type"] == "even":
                        kw["large_pads"] = "numpy"  # numpy's repeated mirror
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        np_kw = {k: v for k, v in kw.items() if k != "large_pads"}
                        want = np.pad(x, pw, m, **np_kw)
                        got = clpad.pad(x, pw, m, **kw)
                    what = (mode, np.dtype(dtype).name, x.shape, pw, kw)
                    if mode == "empty":
                        assert got.shape == want.shape and got.dtype == want.dtype, what
                        full = np.broadcast_to(np.asarray(pw), (x.ndim, 2))
                        inner = tuple(slice(b, b + d) for b, d in zip(full[:, 0], x.shape))
                        assert np.array_equal(got[inner], x), what
                    else:
                        assert same(got, want), what
                    n += 1
    assert n >= 300


def test_per_side_constants_run_on_the_device_as_numpy_orders_them():
    """The corner rule (the last axis whose pad covers a corner gives its
    value) on the default device and on the reference path, every dtype."""
    for dt in DTYPES + [np.int8, np.uint64, np.float16, np.bool_]:
        x = np.ones((2, 3, 2), dtype=dt)
        cv = ((0, 1), (1, 0), (0, 1)) if dt == np.bool_ else ((1, 2), (3, 4), (5, 6))
        want = np.pad(x, ((1, 2), (2, 1), (1, 1)), constant_values=cv)
        assert same(clpad.pad(x, ((1, 2), (2, 1), (1, 1)), constant_values=cv), want), dt
        assert same(clpad.pad(x, ((1, 2), (2, 1), (1, 1)), constant_values=cv,
                              device="reference"), want), dt


def test_numpy_value_rules():
    u = np.arange(6, dtype=np.uint8).reshape(2, 3)
    for cv in (300, -1, (300, 2), 1.7, ((256, 257), (258, -2)), np.float64(3.9)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = np.pad(u, 1, constant_values=cv)
            except OverflowError:  # numpy refuses it: so does clpad, saying why
                with pytest.raises(clpad.ClpadValueError, match="out of bounds"):
                    clpad.pad(u, 1, constant_values=cv)
                continue
        assert same(clpad.pad(u, 1, constant_values=cv), want), cv
    f = np.zeros(2, np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert same(clpad.pad(f, 1, constant_values=1e6), np.pad(f, 1, constant_values=1e6))
    with pytest.raises(clpad.ClpadValueError, match="constant_values"):
        clpad.pad(u, 1, constant_values=[1, 2, 3])  # numpy cannot broadcast it either


def test_integer_mean_and_median_round_as_numpy():
    x = np.array([[1, 2], [2, 2], [3, 4]], dtype=np.int32)  # means 1.5, 2, 3.5 -> 2, 2, 4
    for mode in ("mean", "median"):
        for sl in (None, 1, 2, (1, 2)):
            got = clpad.pad(x, 3, mode, stat_length=sl)
            assert same(got, np.pad(x, 3, mode, stat_length=sl)), (mode, sl)


def test_out_and_errors_of_the_numpy_modes():
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    out = np.zeros((4, 5), np.int64)
    assert clpad.pad(x, 1, "mean", out=out) is out
    assert np.array_equal(out, np.pad(x, 1, "mean"))
    with pytest.raises(clpad.ClpadValueError, match="stat_length"):
        clpad.pad(x, 1, "edge", stat_length=2)
    with pytest.raises(clpad.ClpadValueError, match="end_values"):
        clpad.pad(x, 1, "mean", end_values=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'padder'"):
        clpad.pad(x, 1, "edge", padder=2)
    with pytest.raises(clpad.ClpadValueError, match="numpy.pad: "):
        clpad.pad(np.zeros((0, 3)), 1, "maximum")  # numpy: cannot extend an empty axis
    with pytest.raises(clpad.ClpadValueError, match="reflect_type"):
        clpad.pad(x, 1, "reflect", reflect_type="sideways")
    assert np.array_equal(x, np.arange(6).reshape(2, 3))


def test_pyopencl_arrays(cl_queue):
    """Per-side constants run on a pyopencl array's queue (a pyopencl array
    out); the host modes refuse it."""
    import pyopencl.array as cla
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = cla.to_device(cl_queue, x)
    cv = ((1, 2), (3, 4))
    y = clpad.pad(d, ((1, 2), (2, 1)), constant_values=cv)
    assert isinstance(y, cla.Array)
    assert same(y.get(), np.pad(x, ((1, 2), (2, 1)), constant_values=cv))
    with pytest.raises(clpad.ClpadValueError, match="runs on the host"):
        clpad.pad(d, 1, "mean")


def _no_host_numpy_pad(monkeypatch):
    """numpy.pad inside clpad made to fail: what passes ran on the device."""
    from clpad import _numpy_pad

    class NoPad:
        def __getattr__(self, name):
            if name == "pad":
                raise AssertionError("numpy.pad called on the host")
            return getattr(np, name)
    monkeypatch.setattr(_numpy_pad, "np", NoPad())


STAT_DTYPES = DTYPES + [np.int8, np.uint16, np.uint32, np.uint64]


def _assert_statistics_equal_numpy(monkeypatch, cases, reference=False):
    """Each (x, pad_width, mode, stat_length) through clpad.pad, numpy.pad
    itself unreachable, equals numpy.pad's result byte for byte (and through
    the library's reference path, the C tests' oracle, when `reference`)."""
    wants = [np.pad(x, pw, m, stat_length=sl) for x, pw, m, sl in cases]
    _no_host_numpy_pad(monkeypatch)
    for (x, pw, m, sl), want in zip(cases, wants):
        got = clpad.pad(x, pw, m, stat_length=sl)
        assert same(got, want), (m, x.dtype.name, x.shape, pw, sl)
        if reference:
            got = clpad.pad(x, pw, m, stat_length=sl, device="reference")
            assert same(got, want), ("reference", m, x.dtype.name, x.shape, pw, sl)


def test_statistic_modes_run_on_the_device_and_equal_numpy(monkeypatch):
    """maximum, minimum, mean, median (stat_length whole, one int, per
    axis and side, beyond the axis) through clpad_pad_numpy, never
    numpy.pad, equal to numpy.pad byte for byte: ranks 1-3, ten dtypes,
    long innermost rows (numpy's pairwise float sums past 128 elements) and
    long outer axes (its sums in order), integer means and medians that
    need numpy's rounding."""
    rng = np.random.default_rng(2929)
    cases = []
    for mode in ("maximum", "minimum", "mean", "median"):
        for dtype in STAT_DTYPES:
            for rank in (1, 2, 3):
                for k in range(3):
                    shape = [int(rng.integers(1, 6)) for _ in range(rank)]
                    if k == 1:
                        shape[-1] = int(rng.integers(129, 600))
                    elif k == 2:
                        shape[0] = int(rng.integers(129, 400))
                    if np.dtype(dtype).kind == "f":
                        x = (rng.standard_normal(shape) * 1e3).astype(dtype)
                    else:
                        info = np.iinfo(dtype)
                        x = rng.integers(max(info.min, -10**6), min(info.max, 10**6), shape,
                                         endpoint=True).astype(dtype)
                    pw = [(int(rng.integers(0, 4)), int(rng.integers(0, 4))) for _ in shape]
                    s = int(rng.integers(0, 4))
                    sl = (None, int(rng.integers(1, 9)),
                          [(int(rng.integers(1, 700)), int(rng.integers(1, 700)))
                           for _ in shape], (2, 3))[s]
                    cases.append((x, pw, mode, sl))
    _assert_statistics_equal_numpy(monkeypatch, cases, reference=True)
    assert len(cases) >= 300


def test_statistic_modes_of_images_equal_numpy(monkeypatch):
    """maximum, minimum, mean (and median) padding only the two innermost
    axes of NCHW-like arrays (the shapes of the one-pass kernel on CPU
    devices), and with an outer axis padded too, through clpad_pad_numpy,
    never numpy.pad: ten dtypes, floats with (positive) NaNs, infinities and
    signed zeros, stat_length whole, short, per side and beyond the axis; equal to
    numpy.pad byte for byte."""
    rng = np.random.default_rng(2931)
    cases = []
    for mode in ("maximum", "minimum", "mean", "median"):
        for dtype in STAT_DTYPES:
            for k in range(4):
                shape = [int(rng.integers(1, 4)), int(rng.integers(1, 4)),
                         int(rng.integers(1, 12)), int(rng.integers(1, 40))]
                if np.dtype(dtype).kind == "f":
                    x = (rng.standard_normal(shape) * 1e3).astype(dtype)
                    # (not both infinities in a mean: inf - inf's NaN is the
                    # library's quiet NaN, where x86 numpy gives its sign bit)
                    special = [np.nan, np.inf, 0.0, -0.0]
                    if mode in ("maximum", "minimum"):
                        special.append(-np.inf)
                    x.flat[rng.integers(0, x.size, 3)] = rng.choice(special, 3)
                else:
                    info = np.iinfo(dtype)
                    x = rng.integers(max(info.min, -10**6), min(info.max, 10**6), shape,
                                     endpoint=True).astype(dtype)
                pw = [(0, 0), (0, 0)] + [(int(rng.integers(0, 4)), int(rng.integers(0, 4)))
                                         for _ in range(2)]
                if k == 3:
                    pw[1] = (1, 0)
                sl = (None, int(rng.integers(1, 9)),
                      [(int(rng.integers(1, 15)), int(rng.integers(1, 15))) for _ in shape])[k % 3]
                cases.append((x, pw, mode, sl))
    _assert_statistics_equal_numpy(monkeypatch, cases)


def test_odd_reflection_runs_on_the_device_and_equals_numpy(monkeypatch):
    """reflect and symmetric with reflect_type="odd" through clpad_pad_numpy,
    never numpy.pad, equal to numpy.pad byte for byte: ten dtypes, ranks
    1-3, pads up to three times the axis (numpy's chunk-by-chunk loop),
    axes of one element (its legacy rule), integers at their range's ends
    (numpy's wrapping 2 * edge - v), floats with inf and NaN."""
    rng = np.random.default_rng(2930)
    cases = []
    for mode in ("reflect", "symmetric"):
        for dtype in STAT_DTYPES:
            for rank in (1, 2, 3):
                for k in range(3):
                    shape = [int(rng.integers(1, 6)) for _ in range(rank)]
                    if np.dtype(dtype).kind == "f":
                        x = (rng.standard_normal(shape) * 1e3).astype(dtype)
                        if k == 2:
                            x.flat[0], x.flat[-1] = np.inf, np.nan
                    else:
                        info = np.iinfo(dtype)
                        lo, hi = (info.min, info.max) if k == 2 else (-1000, 1000)
                        x = rng.integers(max(info.min, lo), min(info.max, hi), shape,
                                         dtype=dtype, endpoint=True)
                    pw = [(int(rng.integers(0, 3 * d + 2)), int(rng.integers(0, 3 * d + 2)))
                          for d in shape]
                    cases.append((x, pw, mode))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wants = [np.pad(x, pw, m, reflect_type="odd") for x, pw, m in cases]
    _no_host_numpy_pad(monkeypatch)
    for (x, pw, m), want in zip(cases, wants):
        for device in (None, "reference"):
            got = clpad.pad(x, pw, m, reflect_type="odd", device=device)
            assert same(got, want), (device, m, x.dtype.name, x.shape, pw)
    assert len(cases) >= 180


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                    reason="numpy's NaN bits are x86-64's there, which clpad states; "
                           "this host's arithmetic gives its own")
def test_odd_reflection_nan_bits_are_numpys(monkeypatch):
    """A NaN result of 2 * edge - v has x86-64's bits on every device (NVIDIA's
    GPUs compute 0x7fffffff for every NaN): the first NaN operand quieted,
    payload and sign kept (signalling NaNs among them), or the default NaN,
    sign set, from inf - inf (an edge of inf or one that doubles past the
    largest float)."""
    f32 = np.array([0x7F800001, 0x3F800000, 0xFFC12345, 0x7F800000, 0x7F7FFFFF,
                    0x7FA00005, 0xFF800000, 0x40000000], np.uint32).view(np.float32)
    f64 = np.array([0x7FF0000000000001, 0x3FF0000000000000, 0xFFF0000000012345,
                    0x7FF0000000000000, 0x7FEFFFFFFFFFFFFF, 0xFFF8000000000007,
                    0xFFF0000000000000, 0x4000000000000000], np.uint64).view(np.float64)
    cases = []
    for x in (f32, f64):
        for mode in ("reflect", "symmetric"):
            cases += [(x, [(7, 7)], mode), (x[[3, 3, 4, 3]], [(3, 3)], mode),
                      (x.reshape(2, 4), [(1, 2), (3, 4)], mode),
                      (x.reshape(4, 2), [(4, 4), (0, 3)], mode)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wants = [np.pad(x, pw, m, reflect_type="odd") for x, pw, m in cases]
    assert any(np.isnan(w).any() for w in wants)
    _no_host_numpy_pad(monkeypatch)
    for (x, pw, m), want in zip(cases, wants):
        for device in (None, "reference"):
            got = clpad.pad(x, pw, m, reflect_type="odd", device=device)
            assert got.tobytes() == want.tobytes(), (device, m, x.dtype.name, pw,
                                                     got.view(f"u{x.itemsize}"),
                                                     want.view(f"u{x.itemsize}"))


def test_linear_ramp_runs_on_the_device_and_equals_numpy(monkeypatch):
    """linear_ramp through clpad_pad_linear_ramp, never numpy.pad, equal to
    numpy.pad byte for byte: ten dtypes, ranks 1-3, end_values absent, one
    number, a pair (NumPy scalars: float64 ramps) and per axis (Python
    numbers: float32 ramps on float32 arrays), edges equal to the end value
    on some rows (numpy's (i / num) * delta form for the whole side), a
    float64 step that underflows to 0."""
    rng = np.random.default_rng(2931)
    cases = []
    for dtype in STAT_DTYPES:
        for rank in (1, 2, 3):
            for k in range(4):
                shape = [int(rng.integers(1, 6)) for _ in range(rank)]
                if np.dtype(dtype).kind == "f":
                    x = (rng.standard_normal(shape) * 1e3).astype(dtype)
                else:
                    x = rng.integers(0, 120, shape, dtype=dtype, endpoint=True)
                if k == 3:
                    x.flat[0] = 0  # (an edge equal to the end value 0)
                pw = [(int(rng.integers(0, 6)), int(rng.integers(0, 6))) for _ in shape]
                ev = (None, int(rng.integers(0, 100)),
                      (float(rng.integers(0, 200)) / 2, int(rng.integers(0, 100))),
                      [(int(rng.integers(0, 100)), float(rng.integers(0, 80)) / 4)
                       for _ in shape])[k]
                cases.append((x, pw, {} if ev is None else {"end_values": ev}))
    cases.append((np.array([5e-324, 1.0]), [(3, 2)], {}))
    wants = [np.pad(x, pw, "linear_ramp", **kw) for x, pw, kw in cases]
    _no_host_numpy_pad(monkeypatch)
    for (x, pw, kw), want in zip(cases, wants):
        for device in (None, "reference"):
            got = clpad.pad(x, pw, "linear_ramp", device=device, **kw)
            assert same(got, want), (device, x.dtype.name, x.shape, pw, kw, got, want)
    assert len(cases) >= 120


def test_linear_ramp_left_to_numpy_where_its_result_is_platform_defined():
    """End values past an integer dtype's range, non-finite values, a
    callable's keywords: numpy.pad's own result (on the host)."""
    x = np.array([[1, 200], [3, 4]], np.uint8)
    for kw in ({"end_values": 300}, {"end_values": -1}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert same(clpad.pad(x, 2, "linear_ramp", **kw), np.pad(x, 2, "linear_ramp", **kw))
    y = np.array([1.0, np.inf, np.nan], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.pad(y, 3, "linear_ramp", end_values=2)
        got = clpad.pad(y, 3, "linear_ramp", end_values=2)
    assert got.tobytes() == want.tobytes()


def test_statistic_modes_nan_and_empty_on_the_device(monkeypatch):
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], np.float32)
    wants = {m: np.pad(x, 2, m) for m in ("maximum", "minimum", "mean", "median")}
    y = np.arange(12, dtype=np.int16).reshape(3, 4)
    _no_host_numpy_pad(monkeypatch)
    for m, want in wants.items():
        got = clpad.pad(x, 2, m)
        assert got.shape == want.shape and np.array_equal(got, want, equal_nan=True), m
    got = clpad.pad(y, ((1, 2), (3, 0)), "empty")
    assert got.shape == (6, 7) and got.dtype == y.dtype
    assert np.array_equal(got[1:4, 3:], y)


def test_statistic_outer_axis_keeps_the_first_nan():
    """maximum/minimum along an outer axis (the kernel's runs of rows, on a
    tensor past the small-call threshold) give a slab's first NaN, bits and
    all, where a later NaN has other bits: the library's reference's rule."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((300, 48, 300)).astype(np.float32)
    bits = x.view(np.uint32)
    bits[5, :, ::3] = 0x7fc00001  # the first NaN of those columns
    bits[100, :, ::3] = 0xffc12345  # a later one, other bits
    bits[200, :, 1::3] = 0x7f800001  # other columns: one NaN, signalling bits
    for mode in ("maximum", "minimum"):
        got = clpad.pad(x, ((2, 3), (0, 0), (0, 0)), mode)
        want = clpad.pad(x, ((2, 3), (0, 0), (0, 0)), mode, device="reference")
        assert got.tobytes() == want.tobytes(), mode
        assert (got[0, :, ::3].view(np.uint32) == 0x7fc00001).all(), mode


def test_pad_numpy_c_errors_name_the_argument():
    """clpad_pad_numpy's refusals: one line naming the argument, nothing
    written."""
    import ctypes
    from clpad import _args, _context, _lib
    lib = _lib.lib()
    c = _args.i64
    x = np.arange(6, dtype=np.int32)
    out = np.full(16, 7, np.int32)

    def call(dtype=np.int32, shape=(6,), pb=(1,), pe=(1,), mode=2, sb=(-1,), se=(-1,),
             nbytes=out.nbytes):
        st = lib.clpad_pad_numpy(_context.context(None), _args.dtype_code(dtype), len(shape),
                                 c(list(shape)), x.ctypes.data, c(list(pb)), c(list(pe)), mode,
                                 c(list(sb)), c(list(se)), out.ctypes.data, nbytes, None)
        return st, lib.clpad_last_error().decode()

    for kw, status, words in [
            ({"sb": (0,)}, "CLPAD_ERR_INVALID_ARGUMENT", "stat_begin[0] = 0"),
            ({"se": (0,)}, "CLPAD_ERR_INVALID_ARGUMENT", "stat_end[0] = 0"),
            ({"pb": (-1,)}, "CLPAD_ERR_INVALID_PADS", "pads_begin[0] = -1"),
            ({"shape": (0,)}, "CLPAD_ERR_INVALID_PADS", "can't extend empty axis"),
            ({"dtype": np.float16}, "CLPAD_ERR_UNSUPPORTED", "f32 and f64"),
            ({"mode": 7}, "CLPAD_ERR_INVALID_ARGUMENT", "mode 7"),
            ({"nbytes": 4}, "CLPAD_ERR_BUFFER_TOO_SMALL", "output_bytes = 4")]:
        st, msg = call(**kw)
        assert lib.clpad_status_name(st).decode() == status and words in msg, (kw, st, msg)
        assert "\n" not in msg and (out == 7).all(), kw
    st, msg = call()
    assert st == 0, msg
    assert (out[:8] == np.pad(x, 1, "mean")).all()


def test_c_api_per_side_constants_equal_numpy():
    """clpad_pad / clpad_pad_cpu with clpad_pad_options.side_values (one
    constant per side of each axis) equal numpy.pad's constant_values
    ((b0, a0), (b1, a1), ...) byte for byte: the corner rule (the last axis
    padding an element gives its value), six dtypes, ranks 1-3, on the
    default device and on the host path; a mode other than constant is
    refused, naming the argument and the axis."""
    import ctypes
    from clpad import _args, _context, _lib
    lib = _lib.lib()
    c = _args.i64
    rng = np.random.default_rng(2932)
    n = 0
    for dtype in (np.uint8, np.int16, np.int64, np.float16, np.float32, np.float64):
        for rank in (1, 2, 3):
            for _ in range(3):
                shape = [int(rng.integers(1, 5)) for _ in range(rank)]
                x = rng.integers(0, 100, shape).astype(dtype)
                pw = [(int(rng.integers(0, 4)), int(rng.integers(0, 4))) for _ in shape]
                vals = rng.integers(100, 120, (rank, 2)).astype(dtype)
                want = np.pad(x, pw, constant_values=vals)
                opts = _lib.PadOptions()
                lib.clpad_pad_options_init(ctypes.byref(opts), _lib.constant("CLPAD_PAD_CONSTANT"))
                sides = np.ascontiguousarray(vals).ravel()
                opts.side_values = sides.ctypes.data
                for cpu in (False, True):
                    out = np.full(want.shape, 7, dtype)
                    # (clpad_pad_cpu has no ctypes prototype: pointers and sizes typed here)
                    args = [_args.dtype_code(x.dtype), rank, c(shape),
                            ctypes.c_void_p(x.ctypes.data), c([b for b, _ in pw]),
                            c([a for _, a in pw]), ctypes.byref(opts), None,
                            ctypes.c_void_p(out.ctypes.data), ctypes.c_size_t(out.nbytes)]
                    st = (lib.clpad_pad_cpu(*args) if cpu else
                          lib.clpad_pad(_context.context(None), *args, None))
                    assert st == 0, lib.clpad_last_error().decode()
                    assert out.tobytes() == want.tobytes(), (cpu, x.dtype.name, shape, pw, vals)
                    n += 1
    assert n == 108
    opts.modes[1] = _lib.constant("CLPAD_PAD_EDGE")
    x = np.zeros((2, 2), np.uint8)
    out = np.zeros((4, 4), np.uint8)
    st = lib.clpad_pad_cpu(_args.dtype_code(x.dtype), 2, c([2, 2]), ctypes.c_void_p(x.ctypes.data),
                           c([1, 1]), c([1, 1]), ctypes.byref(opts), None,
                           ctypes.c_void_p(out.ctypes.data), ctypes.c_size_t(out.nbytes))
    msg = lib.clpad_last_error().decode()
    assert lib.clpad_status_name(st).decode() == "CLPAD_ERR_INVALID_ARGUMENT", msg
    assert "side_values" in msg and "axis 1 is edge" in msg, msg
