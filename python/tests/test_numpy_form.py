"""clpad.pad in numpy.pad's form: every pad_width form, numpy's mode names,
byte-for-byte equality, the limits said in numpy's terms, and the calls that
mix the two forms."""

import zlib

import numpy as np
import pytest

import clpad
from test_pad import DTYPES, same_bits, sample

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
try:
    np.pad(np.zeros(1), {0: 1})
    NUMPY_DICT_FORM = True   # numpy >= 2.3 takes {axis: width}
except Exception:
    NUMPY_DICT_FORM = False


def test_done_when_example():
    assert str(clpad.pad(np.arange(6), 2, mode="reflect")) == "[2 1 0 1 2 3 4 5 4 3]"
    assert clpad.pad(np.arange(6), 2, "reflect").tolist() == [2, 1, 0, 1, 2, 3, 4, 5, 4, 3]


def pad_width_forms(shape, rng):
    """Every pad_width form numpy.pad accepts."""
    n = len(shape)
    a, b = (int(v) for v in rng.integers(0, 3, size=2))
    pairs = [tuple(int(v) for v in rng.integers(0, 3, size=2)) for _ in range(n)]
    forms = [
        a,                                   # int: every side
        np.int64(a),                         # numpy integer
        (a,),                                # (n,)
        [a, b],                              # (before, after) for every axis
        ((a, b),),                           # ((before, after),)
        [[a]],                               # ((n,),)
        pairs,                               # one pair per axis
        tuple(tuple(p) for p in pairs),
        np.array(pairs),                     # an array of pairs
        [[p[0]] for p in pairs],             # one (n,) per axis
    ]
    if NUMPY_DICT_FORM:
        forms += [{0: pairs[0]}, {n - 1: a}, {-1: (a, b), 0: b}]
    return forms


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_pad_width_form_equals_numpy(mode, dtype):
    rng = np.random.default_rng(zlib.crc32(("np-%s-%s" % (mode, np.dtype(dtype).name)).encode()))
    for shape in [(4,), (3, 5), (3, 3, 4)]:  # pads <= 2: within every limit
        x = sample(rng, shape, dtype)
        for width in pad_width_forms(shape, rng):
            want = np.pad(x, width, mode=mode)
            got = clpad.pad(x, width, mode=mode)
            assert same_bits(got, want), (mode, shape, width)
            assert same_bits(clpad.pad(x, pad_width=width, mode=mode), want)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_constant_values_equal_numpy(dtype):
    x = sample(np.random.default_rng(3), (3, 4), dtype)
    values = [0, 1, True] if np.dtype(dtype).kind == "b" else [0, 7, 100, np.dtype(dtype).type(5)]
    if np.dtype(dtype).kind == "f":
        values += [-0.0, 0.5, float("inf"), -1e-3]
    for v in values:
        for width in (1, (1, 2), ((0, 1), (2, 0))):
            want = np.pad(x, width, constant_values=v)
            assert same_bits(clpad.pad(x, width, constant_values=v), want), (v, width)
            assert same_bits(clpad.pad(x, width, "constant", constant_values=v), want)
    # numpy's per-axis forms of constant_values, when every value is the same
    assert same_bits(clpad.pad(x, 1, constant_values=((1, 1), (1, 1))),
                     np.pad(x, 1, constant_values=((1, 1), (1, 1))))
    assert same_bits(clpad.pad(x, 1, constant_values=(1,)), np.pad(x, 1, constant_values=(1,)))


def test_dict_form():
    x = np.arange(6).reshape(2, 3)
    assert clpad.pad(x, {1: (1, 2)}).shape == (2, 6)
    assert clpad.pad(x, {-2: 1}, "edge").tolist() == [[0, 1, 2]] * 2 + [[3, 4, 5]] * 2
    with pytest.raises(clpad.ClpadValueError, match="names axis 2"):
        clpad.pad(x, {2: 1})
    with pytest.raises(clpad.ClpadValueError, match=r"pad_width\[0\] must be an int or"):
        clpad.pad(x, {0: (1, 2, 3)})
    # unsigned pads: numpy.pad wants signed integers, clpad takes both
    assert same_bits(clpad.pad(x, np.array([[1, 2], [0, 1]], np.uint8)),
                     np.pad(x, [[1, 2], [0, 1]]))


def test_rank0_and_empty_like_numpy():
    x = np.array(5, np.int16)
    assert same_bits(clpad.pad(x, 2), np.pad(x, 2))
    assert same_bits(clpad.pad(x, ((1, 2),)), np.pad(x, ((1, 2),)))
    e = np.zeros((0, 3), np.float32)
    assert same_bits(clpad.pad(e, 1, constant_values=2.5), np.pad(e, 1, constant_values=2.5))
    assert same_bits(clpad.pad(e, ((0, 0), (1, 1)), "edge"), np.pad(e, ((0, 0), (1, 1)), "edge"))


def test_non_contiguous_input_like_numpy():
    base = np.arange(60, dtype=np.int32).reshape(5, 12)
    for x in (base.T, base[::2, 1::3], base[:, ::-1]):
        before = x.copy()
        assert same_bits(clpad.pad(x, ((1, 2), (2, 1)), "symmetric"),
                         np.pad(x, ((1, 2), (2, 1)), "symmetric"))
        assert np.array_equal(x, before)


def test_reflect_type_even_and_odd():
    x = np.arange(5.0)
    assert same_bits(clpad.pad(x, 2, "reflect", reflect_type="even"),
                     np.pad(x, 2, "reflect", reflect_type="even"))
    assert same_bits(clpad.pad(x, 2, "reflect", reflect_type="odd"),
                     np.pad(x, 2, "reflect", reflect_type="odd"))
    with pytest.raises(clpad.ClpadValueError, match="reflect_type"):
        clpad.pad(x, 2, "edge", reflect_type="even")


@pytest.mark.parametrize("mode", ["linear_ramp", "maximum", "mean", "median", "minimum", "empty"])
def test_numpy_only_modes_in_openvino_form(mode):
    """numpy.pad's form takes them (test_numpy_pad.py); OpenVINO's form with
    pads >= 0 too; negative pads, axes= and a per-axis list do not."""
    x = np.arange(12.0).reshape(3, 4)
    got = clpad.pad(x, pads_begin=[1, 0], pads_end=2, mode=mode)
    if mode != "empty":
        assert same_bits(got, np.pad(x, ((1, 2), (0, 2)), mode))
    assert got.shape == (6, 6)
    with pytest.raises(clpad.ClpadValueError, match=r"pads_end\[1\] = -1"):
        clpad.pad(x, pads_begin=1, pads_end=[0, -1], mode=mode)
    for call in (lambda: clpad.pad(x, pads_begin=[1], pads_end=[1], axes=[0], mode=mode),
                 lambda: clpad.pad(x, 1, (mode, "edge"))):
        with pytest.raises(clpad.ClpadValueError, match="numpy.pad mode") as e:
            call()
        assert e.value.status_name == "CLPAD_ERR_UNSUPPORTED"
        assert "'constant', 'edge', 'reflect', 'symmetric' and 'wrap'" in str(e.value)


def test_function_as_mode():
    def ones(vector, width, iaxis, kwargs):
        vector[:width[0]] = kwargs.get("v", 1)
        vector[len(vector) - width[1]:] = kwargs.get("v", 1)
    x = np.arange(4.0)
    assert same_bits(clpad.pad(x, 1, ones), np.pad(x, 1, ones))
    assert same_bits(clpad.pad(x, 1, ones, v=7), np.pad(x, 1, ones, v=7))
    assert same_bits(clpad.pad(x, pads_begin=1, pads_end=2, mode=ones),
                     np.pad(x, (1, 2), ones))
    with pytest.raises(clpad.ClpadValueError, match="function"):
        clpad.pad(x, pads_begin=[1], pads_end=[1], axes=[0], mode=ones)


def test_unknown_mode():
    with pytest.raises(clpad.ClpadValueError) as e:
        clpad.pad(np.arange(4.0), 1, "mirror")
    assert e.value.status_name == "CLPAD_ERR_PARSE"


@pytest.mark.parametrize("width, mode, message", [
    (4, "reflect", r"pad_width\[0\] = \(4, 4\) exceeds the reflect limit shape\[0\] - 1 = 3"),
    (((0, 4), (0, 1)), "reflect", r"pad_width\[0\] = \(0, 4\) exceeds the reflect limit"),
    (5, "symmetric", r"exceeds the symmetric limit shape\[0\] = 4"),
    (((1, 0), (0, 4)), "reflect", r"pad_width\[1\] = \(0, 4\).*shape\[1\] - 1 = 3"),
])
def test_limits_said_in_numpy_terms(width, mode, message):
    x = np.arange(16.0).reshape(4, 4)
    with pytest.raises(clpad.ClpadValueError, match=message) as e:
        clpad.pad(x, width, mode)
    assert "large_pads='numpy'" in str(e.value)
    assert e.value.status_name == "CLPAD_ERR_INVALID_PADS"


def test_wrap_has_no_limit_like_numpy():
    x = np.arange(3)
    assert same_bits(clpad.pad(x, 10, "wrap"), np.pad(x, 10, "wrap"))


@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
def test_empty_axis_only_constant(mode):
    with pytest.raises(clpad.ClpadValueError, match="empty axis"):
        clpad.pad(np.zeros((0, 2)), 1, mode)


@pytest.mark.parametrize("width, message", [
    (-1, r"pad_width\[0\] = \(-1, -1\) is negative"),
    (((1, -2),), "pads_begin=/pads_end="),
    ([1, 2, 3], r"pad_width of shape \(1, 3\) does not fit an array of 2 axes"),
    ([[1, 2], [3, 4], [5, 6]], r"shape \(3, 2\) does not fit an array of 2 axes"),
    ([[1, 2], [3]], "ragged"),
    ([[[1, 2]]], "too many levels"),
    ([1, [2, 3]], "mixes numbers and pairs"),
])
def test_bad_pad_width(width, message):
    with pytest.raises(clpad.ClpadValueError, match=message):
        clpad.pad(np.zeros((2, 3)), width)


@pytest.mark.parametrize("width", [1.5, 2.0, [1, "a"], None, True])
def test_pad_width_not_integers(width):
    with pytest.raises(TypeError):
        clpad.pad(np.zeros(3), width)


def test_constant_values_that_differ_per_side():
    x = np.zeros((2, 2))
    assert same_bits(clpad.pad(x, 1, constant_values=((1, 2), (1, 1))),
                     np.pad(x, 1, constant_values=((1, 2), (1, 1))))


# --- the two forms on one function ------------------------------------------------

X = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
SEED_OUT = [[10, 11, 12, 11, 10, 9], [6, 7, 8, 7, 6, 5], [2, 3, 4, 3, 2, 1], [6, 7, 8, 7, 6, 5]]


def test_openvino_form_by_keywords():
    assert clpad.pad(X, pads_begin=[2, -1], pads_end=[-1, 3], mode="reflect").tolist() == SEED_OUT
    # the other side defaults to 0
    assert clpad.pad(X, pads_begin=[1, 0]).shape == (4, 4)
    assert clpad.pad(X, pads_end=2).shape == (5, 6)
    assert clpad.pad(X, pads_begin=1, pads_end=1, mode="constant", value=9)[0, 0] == 9


def test_positional_openvino_form_of_earlier_versions():
    assert clpad.pad(X, [2, -1], [-1, 3], mode="reflect").tolist() == SEED_OUT
    assert clpad.pad(X, [2, -1], [-1, 3], "reflect").tolist() == SEED_OUT
    assert clpad.pad(X, 1, 1, "constant", 5)[0, 0] == 5
    assert clpad.pad(X, 1, 1, "constant", 5, clpad.REFERENCE)[0, 0] == 5
    out = np.empty((5, 6), np.int32)
    assert clpad.pad(X, 1, 1, "edge", 0, None, out) is out


def test_the_same_pads_in_both_forms():
    rng = np.random.default_rng(11)
    for mode in MODES:
        x = sample(rng, (3, 4, 5), np.float32)
        pairs = [(1, 2), (0, 3), (2, 1)]
        a = clpad.pad(x, pairs, mode)
        b = clpad.pad(x, pads_begin=[p[0] for p in pairs], pads_end=[p[1] for p in pairs],
                      mode=mode)
        assert same_bits(a, b)


@pytest.mark.parametrize("call, message", [
    (lambda: clpad.pad(X, 1, pads_begin=[1, 1]), "pad_width together with pads_begin"),
    (lambda: clpad.pad(X, 1, pads_end=[1, 1]), "pad_width together with pads_begin"),
    (lambda: clpad.pad(X, [1, 1], [1, 1], pads_begin=[1, 1]), "pads_begin twice"),
    (lambda: clpad.pad(X, [1, 1], [1, 1], pads_end=[1, 1]), "pads_end twice"),
    (lambda: clpad.pad(X, 1, "edge", mode="edge"), "mode twice"),
    (lambda: clpad.pad(X, 1, 1, "edge", mode="edge"), "mode twice"),
    (lambda: clpad.pad(X, 1, "edge", 0), "at most 3 positional"),
    (lambda: clpad.pad(X), "needs the pads"),
    (lambda: clpad.pad(X, 1, value=1, constant_values=1), "name the same thing"),
    (lambda: clpad.pad(X, 1, 1, constant_values=1), "numpy.pad's form"),
])
def test_ambiguous_calls_say_how_to_write_them(call, message):
    with pytest.raises(TypeError, match=message) as e:
        call()
    if "pad_width together" in message or "needs the pads" in message:
        assert "clpad.pad(x, pad_width, mode)" in str(e.value)
        assert "pads_begin=..., pads_end=..." in str(e.value)


def test_value_and_constant_values_are_synonyms():
    assert same_bits(clpad.pad(X, 1, value=3), clpad.pad(X, 1, constant_values=3))
    assert same_bits(clpad.pad(X, pads_begin=1, pads_end=1, constant_values=3),
                     np.pad(X, 1, constant_values=3))


# --- pad values with the other modes ---------------------------------------------------

@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
def test_zero_value_with_another_mode_is_ignored(mode):
    """The default value, however written (0, 0.0, -0.0, False, "-0.0"), is
    accepted and ignored; both signs of zero alike."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    want = np.pad(x, 1, mode)
    for v in (0, 0.0, -0.0, False, np.float32(-0.0), "-0.0", "0"):
        assert same_bits(clpad.pad(x, 1, mode, constant_values=v), want), v
        assert same_bits(clpad.pad(x, pads_begin=1, pads_end=1, mode=mode, value=v), want), v
    xi = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert same_bits(clpad.pad(xi, 1, mode, constant_values=-0.0), np.pad(xi, 1, mode))


@pytest.mark.parametrize("v", [3, 0.5, -1e-30, float("nan"), "nan", "1", True])
def test_nonzero_value_with_another_mode_raises(v):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    with pytest.raises(clpad.ClpadValueError, match="used only by mode='constant'"):
        clpad.pad(x, 1, "edge", constant_values=v)
    with pytest.raises(clpad.ClpadValueError, match="value=.*used only by mode='constant'"):
        clpad.pad(x, pads_begin=1, pads_end=1, mode="edge", value=v)


# --- outputs too large to allocate --------------------------------------------------------

def test_huge_output_is_a_clpad_runtime_error():
    """An output the machine cannot allocate: clpad's error, not NumPy's MemoryError."""
    x = np.zeros((1, 1), np.float64)
    with pytest.raises(clpad.ClpadRuntimeError) as e:
        clpad.pad(x, ((0, 2**40), (0, 2**4)))       # 17 * 2^40 * 8 bytes: 136 TiB
    assert e.value.status_name == "CLPAD_ERR_OUT_OF_MEMORY"
    assert "cannot allocate the output" in str(e.value) and "float64" in str(e.value)
    assert not isinstance(e.value, MemoryError)
    with pytest.raises(clpad.ClpadRuntimeError, match="cannot allocate"):
        clpad.space_to_batch(np.zeros((1, 1), np.uint8), [1, 1], [0, 0], [0, 2**50])
