"""clpad.window_geometry: the seed and header examples, PyTorch's formulas,
tensor_pads, the CLI's `clpad shape --json` on a grid of cases, and errors."""

import json

import numpy as np
import pytest

import clpad
from conftest import csv


def test_seed_004_tf_same():
    g = clpad.window_geometry("conv", (7, 8), kernel=4, stride=3, tf="SAME")
    assert g.op == "conv"
    assert g.output == (3, 3)
    assert g.pads_begin == (1, 1) and g.pads_end == (2, 1)
    assert g.extent == (4, 4) and g.stride == (3, 3) and g.input == (7, 8)
    assert g.onnx_pads == [1, 1, 2, 1]
    assert g.tensor_pads("NHWC") == ([0, 1, 1, 0], [0, 2, 1, 0])
    assert g.tensor_pads("NCHW") == ([0, 0, 1, 1], [0, 0, 2, 1])
    assert g.tensor_pads(rank=3, first_axis=1) == ([0, 1, 1], [0, 2, 1])


def test_tensorrt_same_is_not_clamped():
    g = clpad.window_geometry("conv", [6], kernel=1, stride=4, tensorrt="same_upper")
    assert (g.output, g.pads_begin, g.pads_end) == ((2,), (-1,), (0,))
    g = clpad.window_geometry("conv", [6], kernel=1, stride=4, tf="SAME")
    assert (g.output, g.pads_begin, g.pads_end) == ((2,), (0,), (0,))


def test_openvino_ceil_and_ceil_torch():
    kw = dict(kernel=1, stride=4, openvino="same_upper")
    assert clpad.window_geometry("pool", [6], rounding="ceil", **kw).output == (3,)
    assert clpad.window_geometry("pool", [6], rounding="ceil_torch", **kw).output == (2,)
    assert clpad.window_geometry("pool", [6], **kw).output == (2,)


def torch_out(i, k, s, d, p, ceil):
    dk = d * (k - 1) + 1
    num = i + 2 * p - dk
    o = (-(-num // s) if ceil else num // s) + 1
    if ceil and (o - 1) * s >= i + p:
        o -= 1
    return o


def test_torch_formulas():
    rng = np.random.default_rng(5)
    for _ in range(200):
        i, k = int(rng.integers(1, 20)), int(rng.integers(1, 6))
        s, d = int(rng.integers(1, 4)), int(rng.integers(1, 3))
        dk = d * (k - 1) + 1
        p = int(rng.integers(0, dk // 2 + 1))
        if i + 2 * p < dk:
            with pytest.raises(ValueError):
                clpad.window_geometry("conv", [i], k, s, d, torch=p)
            continue
        g = clpad.window_geometry("conv", [i], k, s, d, torch=p)
        assert g.output == (torch_out(i, k, s, d, p, False),)
        assert g.pads_begin == g.pads_end == (p,)
        for ceil in (False, True):
            g = clpad.window_geometry("pool", [i], k, s, d, torch=[p], ceil_mode=ceil)
            assert g.output == (torch_out(i, k, s, d, p, ceil),), (i, k, s, d, p, ceil)


def test_deconv_tensor_pads_crop_the_full_output():
    g = clpad.window_geometry("deconv", [5], kernel=3, stride=2, torch=1, output_padding=1)
    full = (5 - 1) * 2 + 3
    assert g.output == (full - 2 + 1,)
    pb, pe = g.tensor_pads(rank=3, first_axis=2)
    assert pb[:2] == [0, 0] and pe[:2] == [0, 0]
    assert full + pb[2] + pe[2] == g.output[0]


def _keras_deconv_length(i, k, s, d, padding, output_padding):
    """Keras' deconv_output_length (keras/utils/conv_utils.py), restated."""
    k = k + (k - 1) * (d - 1)
    if output_padding is None:
        return i * s + max(k - s, 0) if padding == "valid" else i * s
    pad = k // 2 if padding == "same" else 0
    return (i - 1) * s + k - 2 * pad + output_padding


def test_keras_output_padding():
    for i in range(1, 6):
        for k in range(1, 5):
            for s in range(1, 4):
                for d in (1, 2):
                    for padding in ("same", "valid"):
                        for op in [None] + list(range(s)):
                            want = _keras_deconv_length(i, k, s, d, padding, op)
                            if want < 1:
                                with pytest.raises(clpad.ClpadValueError):
                                    clpad.window_geometry("deconv", [i], k, s, d,
                                                          tf=padding.upper(), output_padding=op)
                                continue
                            g = clpad.window_geometry("deconv", [i], k, s, d,
                                                      tf=padding.upper(), output_padding=op)
                            assert g.output == (want,), (i, k, s, d, padding, op)
                            full = (i - 1) * s + g.extent[0]
                            assert full - g.pads_begin[0] - g.pads_end[0] == want
    with pytest.raises(clpad.ClpadValueError, match="output_padding"):
        clpad.window_geometry("deconv", [3], 3, 2, tf="SAME", output_padding=2)
    with pytest.raises(clpad.ClpadValueError, match="exclude"):
        clpad.window_geometry("deconv", [3], 3, 2, tf="SAME", output_padding=1,
                              output_shape=6)


def test_deconv_output_shape_beyond_full():
    # ONNX's backend test test_convtranspose_output_shape: one zero row and column at the end
    g = clpad.window_geometry("deconv", (3, 3), 3, (3, 2), onnx="NOTSET", output_shape=(10, 8))
    assert g.output == (10, 8) and g.pads_begin == (0, 0) and g.pads_end == (-1, -1)
    g = clpad.window_geometry("deconv", [3], 3, 2, onnx="SAME_UPPER", output_shape=8)
    assert g.pads_begin == (-1,) and g.pads_end == (0,)
    g = clpad.window_geometry("deconv", [3], 3, 2, openvino="same_upper", output_shape=9)
    assert g.pads_begin == (0,) and g.pads_end == (0,)  # OpenVINO: never negative


def test_tensor_pads_make_a_valid_window():
    for kw in (dict(tf="SAME"), dict(onnx="SAME_LOWER"), dict(tensorrt="explicit_round_up",
                                                              pads_begin=1, pads_end=0)):
        g = clpad.window_geometry("pool", (9, 10), kernel=(3, 2), stride=(2, 3), **kw)
        pb, pe = g.tensor_pads("NCHW")
        x = np.ones((1, 1, 9, 10), np.float32)
        padded = clpad.pad(x, pb, pe)
        for ax in range(2):
            m = padded.shape[2 + ax]
            assert (m - g.extent[ax]) // g.stride[ax] + 1 == g.output[ax], (kw, ax)


def test_errors():
    with pytest.raises(clpad.ClpadValueError) as e:  # kernel larger than the input
        clpad.window_geometry("conv", [3], 5, tf="VALID")
    assert e.value.status_name == "CLPAD_ERR_INVALID_SHAPE"
    with pytest.raises(ValueError):  # 'same' with a stride
        clpad.window_geometry("conv", [8], 3, 2, torch="same")
    with pytest.raises(ValueError) as e:
        clpad.window_geometry("conv", [8], 3, tf="SAMEISH")
    assert e.value.status_name == "CLPAD_ERR_PARSE"
    with pytest.raises(ValueError):
        clpad.window_geometry("convolve", [8], 3, tf="SAME")
    with pytest.raises(ValueError, match="exactly one"):
        clpad.window_geometry("conv", [8], 3, tf="SAME", onnx="SAME_UPPER")
    with pytest.raises(ValueError, match="exactly one"):
        clpad.window_geometry("conv", [8], 3)
    with pytest.raises(ValueError, match="pads"):
        clpad.window_geometry("conv", [8], 3, tensorrt="same_upper", pads=[1, 1])
    with pytest.raises(ValueError, match="kernel"):
        clpad.window_geometry("conv", [8, 8], [3, 3, 3], tf="SAME")
    with pytest.raises(ValueError):  # torch pooling pad above half the kernel
        clpad.window_geometry("pool", [8], 3, torch=2)


def test_pads_ignored_by_non_explicit_modes():
    """As TensorRT ("padding mode takes precedence") and OpenVINO do; the CLI
    instead refuses such a command line as a usage error."""
    for kw in (dict(tensorrt="same_upper"), dict(openvino="same_upper")):
        plain = clpad.window_geometry("conv", [9], 3, 2, **kw)
        given = clpad.window_geometry("conv", [9], 3, 2, pads_begin=[5], pads_end=[5], **kw)
        assert plain == given


# --- the CLI on a grid -----------------------------------------------------------

def cli_args(op, input, kernel, stride=None, dilation=None, **kw):
    args = ["shape", op, "--input=" + csv(input), "--kernel=" + csv(kernel), "--json"]
    if stride is not None:
        args.append("--stride=" + csv(stride))
    if dilation is not None:
        args.append("--dilation=" + csv(dilation))
    flags = {"tensorrt": "--trt", "tf": "--tf", "onnx": "--onnx", "openvino": "--openvino",
             "pads_begin": "--window-pads-begin", "pads_end": "--window-pads-end",
             "pads": "--onnx-pads"}
    for key, value in kw.items():
        if key in ("pads_begin", "pads_end", "pads"):
            args.append("%s=%s" % (flags[key], csv(value)))
        elif key in flags:
            args.append("%s=%s" % (flags[key], value))
        elif key == "torch":
            args.append("--torch=" + (value if isinstance(value, str) else csv(value)))
        elif key == "ceil_mode":
            if value:
                args.append("--ceil-mode")
        elif key == "rounding":
            args.append("--rounding=" + value)
        else:
            args.append("--%s=%s" % (key.replace("_", "-"), csv(value)))
    return args


def grid():
    rng = np.random.default_rng(11)
    cases = []
    trt = ["explicit_round_down", "explicit_round_up", "same_upper", "same_lower"]
    for _ in range(12):
        n = int(rng.integers(1, 3))
        base = dict(input=[int(v) for v in rng.integers(1, 12, n)],
                    kernel=[int(v) for v in rng.integers(1, 5, n)],
                    stride=[int(v) for v in rng.integers(1, 4, n)])
        pb = [int(v) for v in rng.integers(0, 3, n)]
        pe = [int(v) for v in rng.integers(0, 3, n)]
        op = ["conv", "pool", "deconv"][int(rng.integers(0, 3))]
        # explicit pads only with explicit modes: the CLI rejects them otherwise
        # (a usage error), the library and this package ignore them, as TensorRT
        # and OpenVINO do (test_pads_ignored_by_non_explicit_modes)
        mode = trt[int(rng.integers(0, 4))]
        trt_case = dict(base, tensorrt=mode)
        if mode.startswith("explicit"):
            trt_case.update(pads_begin=pb, pads_end=pe)
        cases.append((op, trt_case))
        cases.append((op, dict(base, tf=["SAME", "VALID"][int(rng.integers(0, 2))])))
        onnx = dict(base, onnx="NOTSET", pads=pb + pe)
        if op == "pool":
            onnx["ceil_mode"] = bool(rng.integers(0, 2))
        cases.append((op, onnx))
        mode = ["explicit", "same_upper", "same_lower", "valid"][int(rng.integers(0, 4))]
        ov = dict(base, openvino=mode)
        if mode == "explicit":
            ov.update(pads_begin=pb, pads_end=pe)
        if op == "pool":
            ov["rounding"] = ["floor", "ceil", "ceil_torch"][int(rng.integers(0, 3))]
        cases.append((op, ov))
        torch = dict(base, torch=pb)
        if op == "pool":
            torch["ceil_mode"] = bool(rng.integers(0, 2))
        cases.append((op, torch))
    return cases


def test_equals_cli(cli):
    mismatches = []
    checked = errors = 0
    for op, kw in grid():
        rc, out, err = cli.text(cli_args(op, **kw))
        try:
            g = clpad.window_geometry(op, **kw)
        except ValueError as e:
            if rc != 1:
                mismatches.append((op, kw, "python: %s; cli rc %d %s" % (e, rc, out + err)))
            errors += 1
            continue
        if rc != 0:
            mismatches.append((op, kw, "cli rc %d: %s; python %s" % (rc, err, g)))
            continue
        want = json.loads(out)
        got = {"output": list(g.output), "pads_begin": list(g.pads_begin),
               "pads_end": list(g.pads_end)}
        if got != {k: want[k] for k in got}:
            mismatches.append((op, kw, "cli %s, python %s" % (want, got)))
        checked += 1
    assert not mismatches, "\n".join(map(str, mismatches[:10]))
    assert checked >= 20
