"""clpad.pad: the seed example, numpy.pad where the semantics agree, the CLI
everywhere, exact pad values, and errors."""

import zlib

import numpy as np
import pytest

import clpad
from conftest import csv

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
NP_MODE = {"constant": "constant", "edge": "edge", "reflect": "reflect",
           "symmetric": "symmetric", "wrap": "wrap"}
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64]
SEED_X = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
SEED_OUT = [[10, 11, 12, 11, 10, 9], [6, 7, 8, 7, 6, 5], [2, 3, 4, 3, 2, 1],
            [6, 7, 8, 7, 6, 5]]


def sample(rng, shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    return (rng.standard_normal(shape) * 100).astype(dt)


def limit(mode, d):
    """Largest positive pad the mode allows on an axis of size d."""
    return {"constant": 3, "edge": 3, "wrap": 2 * d + 1, "reflect": d - 1, "symmetric": d}[mode]


def reference(x, pb, pe, mode, value=0):
    """numpy.pad of the positive pads, then the crops of the negative ones:
    clpad's semantics (mirrors come from the original input)."""
    pos = [(max(b, 0), max(e, 0)) for b, e in zip(pb, pe)]
    if mode == "constant":
        y = np.pad(x, pos, mode="constant", constant_values=np.array(value, dtype=x.dtype))
    else:
        y = np.pad(x, pos, mode=NP_MODE[mode])
    index = tuple(slice(max(-b, 0), y.shape[i] - max(-e, 0) if y.shape[i] - max(-e, 0) > 0
                        else 0)
                  for i, (b, e) in enumerate(zip(pb, pe)))
    return y[index]


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_seed_mixed_example():
    out = clpad.pad(SEED_X, [2, -1], [-1, 3], mode="reflect")
    assert out.dtype == np.int32 and out.shape == (4, 6)
    assert out.tolist() == SEED_OUT
    assert SEED_X.tolist() == np.arange(1, 13).reshape(3, 4).tolist()


def test_seed_mixed_example_reference_path():
    out = clpad.pad(SEED_X, [2, -1], [-1, 3], mode="reflect", device=clpad.REFERENCE)
    assert out.tolist() == SEED_OUT


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_equals_numpy_pad(mode, dtype):
    """Non-negative pads within the limits: numpy.pad's semantics are clpad's."""
    rng = np.random.default_rng(zlib.crc32(("%s-%s" % (mode, np.dtype(dtype).name)).encode()))
    for rank in (1, 2, 3):
        shape = tuple(int(v) for v in rng.integers(1, 5, size=rank))
        x = sample(rng, shape, dtype)
        pb = [int(rng.integers(0, limit(mode, d) + 1)) for d in shape]
        pe = [int(rng.integers(0, limit(mode, d) + 1)) for d in shape]
        value = 0
        if mode == "constant" and np.dtype(dtype).kind != "b":
            value = 7
        got = clpad.pad(x, pb, pe, mode=mode, value=value)
        want = np.pad(x, list(zip(pb, pe)), mode=NP_MODE[mode],
                      **({"constant_values": np.array(value, dtype=x.dtype)}
                         if mode == "constant" else {}))
        assert same_bits(got, want), (mode, shape, pb, pe)


@pytest.mark.parametrize("mode", MODES)
def test_negative_pads_crop_after_padding(mode):
    rng = np.random.default_rng(42)
    for _ in range(12):
        shape = tuple(int(v) for v in rng.integers(1, 6, size=2))
        x = sample(rng, shape, np.float32)
        pb = [int(rng.integers(-d, limit(mode, d) + 1)) for d in shape]
        pe = [int(rng.integers(-d - 2, limit(mode, d) + 1)) for d in shape]
        got = clpad.pad(x, pb, pe, mode=mode)
        assert same_bits(got, reference(x, pb, pe, mode)), (shape, pb, pe)


def test_int_pads_apply_to_every_axis():
    x = np.ones((2, 3), np.uint8)
    assert clpad.pad(x, 1, 2).shape == (5, 6)


def test_rank0_and_empty():
    x = np.array(5, dtype=np.int16)
    out = clpad.pad(x, [], [])
    assert out.shape == () and out == 5
    out = clpad.pad(np.zeros((0, 3), np.float32), [1, 0], [1, 0], value=2.5)
    assert out.shape == (2, 3) and (out == 2.5).all()
    out = clpad.pad(np.ones((3, 3)), [-2, 0], [-2, 0])
    assert out.shape == (0, 3)


def test_non_contiguous_and_byteswapped_inputs_unchanged():
    base = np.arange(60, dtype=np.int32).reshape(5, 12)
    for x in (base.T, base[::2, 1::3], base[:, ::-1]):
        before = x.copy()
        got = clpad.pad(x, [1, 2], [2, 1], mode="symmetric")
        assert same_bits(got, np.pad(np.ascontiguousarray(x), [(1, 2), (2, 1)], "symmetric"))
        assert got.flags.c_contiguous
        assert np.array_equal(x, before)
    be = base.astype(">i4")
    got = clpad.pad(be, 1, 1, mode="edge")
    assert got.dtype == np.dtype("=i4")
    assert np.array_equal(got, np.pad(base, 1, "edge"))
    assert be.dtype == np.dtype(">i4")


def test_list_input():
    assert clpad.pad([[1, 2], [3, 4]], 1, 0, mode="wrap").tolist() == \
        [[4, 3, 4], [2, 1, 2], [4, 3, 4]]


def test_exact_values():
    x = np.zeros((1,), np.int64)
    assert clpad.pad(x, 1, 0, value=2**53 + 1)[0] == 2**53 + 1
    assert clpad.pad(x, 1, 0, value="9007199254740993")[0] == 9007199254740993
    u = np.zeros((1,), np.uint64)
    assert clpad.pad(u, 1, 0, value=2**64 - 1)[0] == 2**64 - 1
    f = np.zeros((1,), np.float32)
    neg0 = clpad.pad(f, 1, 0, value=-0.0)[0]
    assert neg0 == 0 and np.signbit(neg0)
    assert np.isnan(clpad.pad(f, 1, 0, value=float("nan"))[0])
    assert clpad.pad(f, 1, 0, value="-inf")[0] == -np.inf
    h = np.zeros((1,), np.float16)
    for v in (0.1, 65504.0, 1e-8, 3.14159, 2049.0, np.float32(0.1), np.float64(1 / 3)):
        assert same_bits(clpad.pad(h, 1, 0, value=v)[:1], np.array([v], np.float16)), v
    for v in (0.1, 1e-40, 16777217, 3.4e38, np.float64(2 / 3)):
        assert same_bits(clpad.pad(f, 1, 0, value=v)[:1], np.array([v], np.float32)), v
    b = np.zeros((1,), np.bool_)
    assert clpad.pad(b, 1, 0, value=True)[0]
    assert clpad.pad(b, 1, 0, value=1)[0]
    assert clpad.pad(np.zeros(1, np.int8), 1, 0, value=-128.0)[0] == -128
    assert clpad.pad(np.zeros(1, np.uint8), 1, 0, value=np.uint8(200))[0] == 200


@pytest.mark.parametrize("dtype,value", [
    (np.uint8, 256), (np.uint8, -1), (np.int8, 128), (np.int16, -32769),
    (np.int64, 2**63), (np.uint64, -1), (np.int32, 1.5), (np.int32, float("nan")),
    (np.bool_, 2), (np.float16, 1e5), (np.float32, 1e39), (np.float64, 10**400),
    (np.uint8, "256"), (np.float32, "abc"), (np.float32, 1 + 2j),
])
def test_values_that_do_not_fit_raise(dtype, value):
    with pytest.raises(ValueError):
        clpad.pad(np.zeros(2, dtype), 1, 1, value=value)


def test_value_with_another_mode_raises():
    with pytest.raises(ValueError, match="constant"):
        clpad.pad(SEED_X, 1, 1, mode="edge", value=3)
    clpad.pad(SEED_X, 1, 1, mode="edge", value=0)  # the default is fine


def test_errors_carry_clpads_message():
    with pytest.raises(clpad.ClpadValueError, match="reflect limit") as e:
        clpad.pad(SEED_X, [0, 4], [0, 0], mode="reflect")
    assert e.value.status == -3 and e.value.status_name == "CLPAD_ERR_INVALID_PADS"
    assert isinstance(e.value, ValueError)
    with pytest.raises(ValueError):
        clpad.pad(SEED_X, [0, 0], [0, 5], mode="symmetric")
    with pytest.raises(ValueError):
        clpad.pad(np.zeros((0, 2)), [1, 0], [0, 0], mode="edge")
    with pytest.raises(ValueError) as e:
        clpad.pad(SEED_X, 1, 1, mode="mirror")
    assert e.value.status_name == "CLPAD_ERR_PARSE"
    with pytest.raises(ValueError, match="pads_begin"):
        clpad.pad(SEED_X, [1, 2, 3], [1, 2])
    with pytest.raises(ValueError):
        clpad.pad(np.zeros((2,), np.int64), [2**62], [2**62])  # overflows int64
    with pytest.raises(ValueError, match="dtype"):
        clpad.pad(np.zeros(3, np.complex64), 1, 1)
    with pytest.raises(ValueError, match="dtype"):
        clpad.pad(np.array(["a"]), 1, 1)
    with pytest.raises(TypeError):
        clpad.pad(SEED_X, [1.5, 0], [0, 0])


def test_device_errors_are_runtime_errors():
    with pytest.raises(clpad.ClpadRuntimeError) as e:
        clpad.pad(SEED_X, 1, 1, device="no such device, surely")
    assert isinstance(e.value, RuntimeError)
    assert e.value.status_name == "CLPAD_ERR_DEVICE_NOT_FOUND"
    assert "no such device" in str(e.value)


def test_bfloat16_if_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.arange(6, dtype=np.float32).reshape(2, 3).astype(ml_dtypes.bfloat16)
    got = clpad.pad(x, 1, 1, mode="reflect", device=clpad.REFERENCE)
    assert got.dtype == x.dtype
    assert np.array_equal(got.astype(np.float32), np.pad(x.astype(np.float32), 1, "reflect"))
    got = clpad.pad(x, 1, 0, value=0.1)
    assert got[0, 0].tobytes() == np.array(0.1, dtype=ml_dtypes.bfloat16).tobytes()


# --- the CLI everywhere ----------------------------------------------------------

CLI_CASES = [
    # (dtype, shape, pads_begin, pads_end, mode, value)
    (np.int32, (3, 4), [2, -1], [-1, 3], "reflect", None),
    (np.uint8, (4, 5, 3), [2, 1, 0], [1, 2, 0], "constant", "114"),
    (np.float32, (2, 3, 4), [0, -1, 3], [1, 2, -2], "symmetric", None),
    (np.float16, (5,), [3], [-2], "edge", None),
    (np.int64, (2, 3), [4, 7], [5, 0], "wrap", None),
    (np.int64, (2, 2), [1, 1], [1, 1], "constant", "9007199254740993"),
    (np.uint64, (3,), [2], [2], "constant", "18446744073709551615"),
    (np.float64, (2, 2), [1, 0], [0, 1], "constant", "-0.0"),
    (np.float32, (2, 2), [1, 1], [1, 1], "constant", "nan"),
    (np.float16, (1, 3), [0, 2], [1, 1], "constant", "0.1"),
    (np.bool_, (3, 3), [1, 0], [0, 1], "constant", "true"),
    (np.int8, (4, 4), [-3, -1], [-1, -3], "constant", "-7"),
    (np.uint16, (1, 2, 3, 2), [0, 1, 2, 1], [1, 1, 0, 1], "edge", None),
    (np.float64, (3, 3), [-5, 0], [1, 0], "reflect", None),
]


@pytest.mark.parametrize("case", CLI_CASES, ids=lambda c: "%s-%s" % (np.dtype(c[0]).name, c[4]))
def test_equals_cli(cli, case):
    dtype, shape, pb, pe, mode, value = case
    x = sample(np.random.default_rng(7), shape, dtype)
    args = ["pad", "--mode", mode, "--pads-begin=" + csv(pb), "--pads-end=" + csv(pe)]
    if value is not None:
        args.append("--value=" + value)
    rc, want, err = cli.run(args, x)
    assert rc == 0, err
    got = clpad.pad(x, pb, pe, mode=mode, value=value if value is not None else 0)
    assert same_bits(got, want)
    assert same_bits(clpad.pad(x, pb, pe, mode=mode, value=value if value is not None else 0,
                               device=clpad.REFERENCE), want)


@pytest.mark.parametrize("pb,pe,mode,value", [
    ([0, 4], [0, 0], "reflect", None),
    ([0, 0], [0, 5], "symmetric", None),
    ([1, 1], [1, 1], "constant", "300"),
    ([1, 1], [1, 1], "constant", "1.5"),
])
def test_cli_and_python_reject_the_same(cli, pb, pe, mode, value):
    x = SEED_X.astype(np.uint8)
    args = ["pad", "--mode", mode, "--pads-begin=" + csv(pb), "--pads-end=" + csv(pe)]
    if value is not None:
        args.append("--value=" + value)
    rc, _, err = cli.run(args, x)
    assert rc != 0 and "error" in err
    with pytest.raises(ValueError):
        clpad.pad(x, pb, pe, mode=mode, value=value if value is not None else 0)


def test_out_receives_the_result():
    rng = np.random.default_rng(5)
    x = sample(rng, (3, 5, 7), np.float32)
    out = np.full((5, 9, 10), 7, dtype=np.float32)
    got = clpad.pad(x, [1, 2, 0], [1, 2, 3], "reflect", out=out)
    assert got is out
    assert same_bits(out, reference(x, [1, 2, 0], [1, 2, 3], "reflect"))
    # reused: a second call overwrites every element
    x2 = sample(rng, (3, 5, 7), np.float32)
    clpad.pad(x2, [1, 2, 0], [1, 2, 3], "reflect", out=out)
    assert same_bits(out, reference(x2, [1, 2, 0], [1, 2, 3], "reflect"))


@pytest.mark.parametrize("make, message", [
    (lambda: np.zeros((4, 6), np.float32), "shape"),
    (lambda: np.zeros((5, 7), np.float64), "dtype"),
    (lambda: np.zeros((5, 7), np.dtype(">f4")), "dtype"),
    (lambda: np.zeros((7, 5), np.float32).T, "C-contiguous"),
    (lambda: np.zeros((5, 7), np.float32).copy().view(), None),
])
def test_out_is_checked(make, message):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = make()
    if message is None:  # a plain view of fresh memory is accepted
        clpad.pad(x, [1, 1], [1, 2], out=out)
        assert same_bits(out, reference(x, [1, 1], [1, 2], "constant"))
        return
    before = out.copy()
    with pytest.raises(clpad.ClpadValueError, match=message):
        clpad.pad(x, [1, 1], [1, 2], out=out)
    assert same_bits(out, before)


def test_out_read_only_overlapping_or_not_an_array():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    ro = np.zeros((3, 4), np.float32)
    ro.flags.writeable = False
    with pytest.raises(clpad.ClpadValueError, match="read-only"):
        clpad.pad(x, 0, 0, out=ro)
    with pytest.raises(clpad.ClpadValueError, match="shares memory"):
        clpad.pad(x, 0, 0, out=x)
    with pytest.raises(TypeError, match="ndarray"):
        clpad.pad(x, 0, 0, out=[[0] * 4] * 3)
    assert same_bits(x, np.arange(12, dtype=np.float32).reshape(3, 4))
