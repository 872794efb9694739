"""clpad.window_geometry: the padding of convolution, deconvolution and
pooling windows in each framework's convention (as ``clpad shape``)."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple, Union, cast

import numpy as np

from . import _args, _lib
from ._args import MAX_RANK
from ._errors import check, value_error
from ._types import Ints


@dataclass(frozen=True)
class WindowGeometry:
    """Per-axis geometry of a convolution / deconvolution / pooling window.

    For conv and pool, pads_begin / pads_end are the elements added before /
    after the data; for deconv, what is cropped from the full transposed
    output of length (I-1)*S + DK (negative: zeros appended; OpenVINO's
    pads are never negative, see window_geometry's output_shape).
    """

    op: str
    input: Tuple[int, ...]
    extent: Tuple[int, ...]  # DK = 1 + dilation*(kernel-1)
    stride: Tuple[int, ...]
    output: Tuple[int, ...]
    pads_begin: Tuple[int, ...]
    pads_end: Tuple[int, ...]
    _raw: object = field(default=None, repr=False, compare=False)

    @property
    def onnx_pads(self) -> List[int]:
        """ONNX flat pads [x1_begin, x2_begin, ..., x1_end, x2_end, ...]."""
        return list(self.pads_begin) + list(self.pads_end)

    def tensor_pads(self, layout: Optional[str] = None, rank: Optional[int] = None,
                    first_axis: Optional[int] = None) -> Tuple[List[int], List[int]]:
        """The pads_begin / pads_end to give :func:`pad` (constant 0 for the
        convolution equivalence) for the whole tensor, so that a VALID window
        over the padded tensor equals this window (deconv: so that padding the
        full output crops it to the framework's output).

        Either `layout` ("NCHW"/channels_first: spatial axes from 2;
        "NHWC"/channels_last: from 1; rank = spatial axes + 2) or `rank` and
        `first_axis`. Returns (pads_begin, pads_end) lists.
        """
        naxes = len(self.input)
        if layout is not None:
            if first_axis is not None:
                raise value_error("give layout or first_axis, not both")
            out = ctypes.c_int()
            check(_lib.lib().clpad_tf_layout_from_name(_args.c_string("layout", str(layout)),
                                                        ctypes.byref(out)))
            first_axis = 1 if out.value == _lib.constant("CLPAD_TF_CHANNELS_LAST") else 2
        if first_axis is None:
            raise value_error("tensor_pads needs layout= or first_axis=")
        if rank is None:
            rank = naxes + 2
        rank, first_axis = _args.whole("rank", rank), _args.whole("first_axis", first_axis)
        n = max(rank, 1)
        pb, pe = (ctypes.c_int64 * n)(), (ctypes.c_int64 * n)()
        check(_lib.lib().clpad_window_tensor_pads(ctypes.byref(cast(Any, self._raw)), rank, first_axis,
                                                   pb, pe))
        return [int(v) for v in pb[:rank]], [int(v) for v in pe[:rank]]


def _enum(fn_name: str, text: Any, what: str) -> int:
    out = ctypes.c_int()
    check(getattr(_lib.lib(), fn_name)(_args.c_string(what, text), ctypes.byref(out)))
    return out.value


_CONVENTION_ARGS: Dict[str, Set[str]] = {
    "tensorrt": {"pads_begin", "pads_end"},
    "tf": {"pads_begin", "pads_end", "output_shape", "output_padding"},
    "onnx": {"pads", "pads_begin", "pads_end", "ceil_mode", "output_padding", "output_shape"},
    "openvino": {"pads_begin", "pads_end", "rounding", "output_padding", "output_shape"},
    "torch": {"ceil_mode", "output_padding"},
}


def window_geometry(op: str, input: Ints, kernel: Ints, stride: Optional[Ints] = None,
                    dilation: Optional[Ints] = None, *, tensorrt: Optional[str] = None,
                    tf: Optional[str] = None, onnx: Optional[str] = None,
                    openvino: Optional[str] = None, torch: Union[None, str, Ints] = None,
                    pads_begin: Optional[Ints] = None, pads_end: Optional[Ints] = None,
                    pads: Optional[Ints] = None, ceil_mode: bool = False,
                    rounding: Optional[str] = None, output_padding: Optional[Ints] = None,
                    output_shape: Optional[Ints] = None) -> WindowGeometry:
    """Output size and begin/end padding of each spatial axis of a window, in
    one framework's convention (as ``clpad shape``; see clpad_window.h).

    op: "conv", "deconv" or "pool" (aliases: convolution, convtranspose,
        maxpool, avgpool, ...).
    input, kernel, stride, dilation: spatial sizes (e.g. H, W); an int or a
        one-element list applies to every axis; the number of axes is
        len(input). stride / dilation None: 1 (PyTorch pooling: the kernel).
    Exactly one convention, with its padding argument:
        tensorrt="explicit_round_down" | "explicit_round_up" | "same_upper" | "same_lower"
        tf="SAME" | "VALID" | "EXPLICIT"
        onnx="NOTSET" | "VALID" | "SAME_UPPER" | "SAME_LOWER"
        openvino="explicit" | "same_upper" | "same_lower" | "valid"
        torch="same" | "valid" | P | [P1, P2, ...]  (explicit: both sides)
    pads_begin, pads_end: explicit pads (tensorrt, tf, onnx, openvino).
    pads: ONNX flat pads [x1_begin, ..., x1_end, ...] (onnx).
    ceil_mode: round up (onnx and torch pooling).
    rounding: OpenVINO pooling rounding_type "floor" (default), "ceil", "ceil_torch".
    output_padding: deconv (onnx, openvino, torch; with tf=: Keras'
        Conv*DTranspose(output_padding=...), tf="SAME" or "VALID", each value
        in [0, stride); see clpad_window_keras in clpad_window.h).
    output_shape: deconv (tf, onnx, openvino). An output_shape beyond the
        full output adds zeros: ONNX splits the negative total as its text
        and reference code do (negative pads_begin / pads_end); OpenVINO
        clamps it at 0 and adds the zeros at the end, with pads that are
        never negative (0 / 0 for same_upper, same_lower and valid, as
        OpenVINO reports them).

    Returns a :class:`WindowGeometry`; raises ClpadValueError with clpad's
    message when the window is invalid in that convention.
    """
    given = {k: v for k, v in (("tensorrt", tensorrt), ("tf", tf), ("onnx", onnx),
                               ("openvino", openvino), ("torch", torch)) if v is not None}
    if len(given) != 1:
        raise value_error("give exactly one convention: tensorrt=, tf=, onnx=, openvino= "
                           "or torch= (got %s)" % (", ".join(sorted(given)) or "none"))
    (conv, mode), = given.items()
    extras = {"pads_begin": pads_begin, "pads_end": pads_end, "pads": pads,
              "ceil_mode": ceil_mode or None, "rounding": rounding,
              "output_padding": output_padding, "output_shape": output_shape}
    for name, v in extras.items():
        if v is not None and name not in _CONVENTION_ARGS[conv]:
            raise value_error("%s= does not apply to %s=; it takes %s"
                               % (name, conv, ", ".join(sorted(_CONVENTION_ARGS[conv]))))

    op_code = _enum("clpad_window_op_from_name", op, "op")
    inp = [_args.whole("input", v) for v in (cast(Any, input) if np.ndim(input) else [input])]
    n = len(inp)
    if not 1 <= n <= MAX_RANK:
        raise value_error("input has %d axes; clpad takes 1..%d" % (n, MAX_RANK))

    def axes(name: str, values: Any) -> Any:
        return None if values is None else _args.i64(_args.axes(name, values, n, broadcast_one=True))

    c_in, c_k = _args.i64(inp), axes("kernel", kernel)
    if c_k is None:
        raise value_error("kernel is required")
    c_s, c_d = axes("stride", stride), axes("dilation", dilation)
    c_pb, c_pe = axes("pads_begin", pads_begin), axes("pads_end", pads_end)
    c_op, c_os = axes("output_padding", output_padding), axes("output_shape", output_shape)
    res = _lib.WindowResult()
    lib = _lib.lib()
    lib.clpad_window_result_init(ctypes.byref(res))
    if conv == "tensorrt":
        m = _enum("clpad_trt_padding_from_name", mode, "tensorrt")
        check(lib.clpad_window_tensorrt(op_code, m, n, c_in, c_k, c_s, c_d, c_pb, c_pe,
                                         ctypes.byref(res)))
    elif conv == "tf":
        m = _enum("clpad_tf_padding_from_name", mode, "tf")
        if c_op is not None:  # Keras' Conv*DTranspose(output_padding=...)
            if c_os is not None:
                raise value_error("output_padding= (Keras) and output_shape= "
                                  "(tf.nn.conv2d_transpose) exclude each other with tf=")
            check(lib.clpad_window_keras(op_code, m, n, c_in, c_k, c_s, c_d, c_op,
                                         ctypes.byref(res)))
        else:
            check(lib.clpad_window_tf(op_code, m, n, c_in, c_k, c_s, c_d, c_pb, c_pe, c_os,
                                      ctypes.byref(res)))
    elif conv == "onnx":
        m = _enum("clpad_onnx_auto_pad_from_name", mode, "onnx")
        if pads is not None and (pads_begin is not None or pads_end is not None):
            raise value_error("give pads= or pads_begin=/pads_end=, not both")
        c_pads = None
        if pads is not None:
            flat = [_args.whole("pads", v) for v in (cast(Any, pads) if np.ndim(pads) else [pads])]
            if len(flat) == 1:
                flat = flat * (2 * n)
            if len(flat) != 2 * n:
                raise value_error("pads has %d values; ONNX needs 2 x %d" % (len(flat), n))
            c_pads = _args.i64(flat)
        elif c_pb is not None or c_pe is not None:
            c_pads = _args.i64(_args.axes("pads_begin", pads_begin, n, default=0, broadcast_one=True)
                          + _args.axes("pads_end", pads_end, n, default=0, broadcast_one=True))
        check(lib.clpad_window_onnx(op_code, m, n, c_in, c_k, c_s, c_d, c_pads,
                                     1 if ceil_mode else 0, c_op, c_os, ctypes.byref(res)))
    elif conv == "openvino":
        m = _enum("clpad_ov_auto_pad_from_name", mode, "openvino")
        r = _enum("clpad_ov_rounding_from_name", rounding if rounding is not None else "floor",
                  "rounding")
        check(lib.clpad_window_openvino(op_code, m, r, n, c_in, c_k, c_s, c_d, c_pb, c_pe,
                                         c_op, c_os, ctypes.byref(res)))
    else:  # torch
        c_padding = None
        if isinstance(mode, str):
            m = _enum("clpad_torch_padding_from_name", mode, "torch")
        else:
            m = 0  # CLPAD_TORCH_EXPLICIT
            c_padding = axes("torch padding", mode)
        check(lib.clpad_window_torch(op_code, m, n, c_in, c_k, c_s, c_d, c_padding,
                                      1 if ceil_mode else 0, c_op, ctypes.byref(res)))

    def tup(arr: Any) -> Tuple[int, ...]:
        return tuple(int(v) for v in arr[:n])

    op_name = (lib.clpad_window_op_name(res.op) or b"").decode()
    return WindowGeometry(op_name, tup(res.input), tup(res.extent), tup(res.stride),
                          tup(res.output), tup(res.pads_begin), tup(res.pads_end), res)
