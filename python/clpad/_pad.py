"""clpad.pad: numpy.pad's signature and OpenVINO Pad-12's, on one function."""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

from . import _args, _context, _interop, _lib, _memory, _numpy_pad, _pyopencl
from ._errors import INVALID_PADS, UNSUPPORTED, ClpadValueError, check, value_error
from . import _types
from ._types import DeviceArrayT, Ints, PadModeName, PadWidth, Scalar
from ._context import DeviceLike

# clpad_pad_mode values and pad option flags (include/clpad.h).
_CONSTANT = _lib.constant("CLPAD_PAD_CONSTANT")
_REFLECT = _lib.constant("CLPAD_PAD_REFLECT")
_SYMMETRIC = _lib.constant("CLPAD_PAD_SYMMETRIC")
_LARGE_NUMPY = _lib.constant("CLPAD_PAD_LARGE_NUMPY")
_END = _lib.constant("CLPAD_PLACE_END")
_CENTER = _lib.constant("CLPAD_PLACE_CENTER")
# clpad_pad_form's fields as pad()'s parameters, for the library's messages.
_FORM_NAMES = {"modes": "mode", "multiples": "to_multiple", "axes": "axes",
               "large_pads": "large_pads"}

# numpy.pad's modes that clpad does not have.
_NUMPY_ONLY_MODES = ("linear_ramp", "maximum", "mean", "median", "minimum", "empty")
# The positional OpenVINO form of earlier versions: pad(x, pads_begin, pads_end,
# mode, value, device, out).
_POSITIONAL = ("pads_end", "mode", "value", "device", "out")

_HOW = ("write clpad.pad(x, pad_width, mode) as numpy.pad, or "
        "clpad.pad(x, pads_begin=..., pads_end=..., mode=...) as OpenVINO Pad")


def host_output(out: Any, shape: Tuple[int, ...], dtype: "np.dtype[Any]",
                x: "np.ndarray[Any, Any]") -> "np.ndarray[Any, Any]":
    """A new array for the result, or `out` once checked: an ndarray of exactly
    that shape and (native) dtype, C-contiguous, writeable, and not sharing
    memory with the input (which is never modified)."""
    if out is None:
        return _memory.empty(shape, dtype)
    out = _interop.out_array(out)  # (a DLPack producer: its memory, as an ndarray)
    if _pyopencl.is_device_array(out):
        raise TypeError("out is a pyopencl array but the input is not: pass a pyopencl "
                        "array as the input to run on its device")
    if not isinstance(out, np.ndarray):
        raise TypeError("out must be a numpy.ndarray, not %s" % type(out).__name__)
    if out.shape != shape:
        raise value_error("out has shape %s, but the result has shape %s" % (out.shape, shape))
    if out.dtype != dtype:
        raise value_error("out has dtype %s, but the result has dtype %s" % (out.dtype, dtype))
    if not out.flags.c_contiguous:
        raise value_error("out must be C-contiguous")
    if not out.flags.writeable:
        raise value_error("out is read-only")
    if np.may_share_memory(out, x):
        raise value_error("out shares memory with the input")
    return out


def _from_dict(pad_width: Dict[Any, Any], ndim: int) -> List[Any]:
    """numpy.pad's {axis: width} form: unnamed axes get (0, 0)."""
    seq: List[Any] = [(0, 0)] * ndim
    for axis, width in pad_width.items():
        i = _args.whole("pad_width's axis", axis)
        if not -ndim <= i < ndim:
            raise value_error("pad_width names axis %d, but the array has %d axes" % (i, ndim))
        w = _tree(width)
        if isinstance(w, list) and (len(w) != 2 or any(isinstance(e, list) for e in w)):
            raise value_error("pad_width[%d] must be an int or (before, after), not %r"
                              % (i, width))
        seq[i] = (w, w) if not isinstance(w, list) else tuple(w)
    return seq


def _tree(v: Any, depth: int = 0) -> Any:
    """pad_width as nested lists of ints (numbers checked)."""
    if isinstance(v, np.ndarray) and v.ndim == 0:
        v = v[()]
    if not isinstance(v, (list, tuple, np.ndarray)):
        return _args.whole("pad_width", v)
    if depth >= 2:
        raise value_error("pad_width has too many levels: give an int, (before, after), "
                          "or one (before, after) per axis")
    if isinstance(v, np.ndarray):
        v = v.tolist()
    return [_tree(e, depth + 1) for e in v]


def pad_width_pairs(pad_width: Any, ndim: int) -> List[Tuple[int, int]]:
    """numpy.pad's pad_width as one (before, after) per axis, broadcast as
    numpy.pad does: an int or (n,) for every side, (before, after) for every
    axis, ((before, after),) for every axis, one pair per axis, or a dict
    {axis: n or (before, after)}."""
    if isinstance(pad_width, dict):
        pad_width = _from_dict(pad_width, ndim)
    t = _tree(pad_width)
    if not isinstance(t, list):
        rows = [[t]]
    elif all(not isinstance(e, list) for e in t):
        rows = [t]
    elif all(isinstance(e, list) for e in t):
        rows = t
    else:
        raise value_error("pad_width mixes numbers and pairs: %r" % (pad_width,))
    widths = {len(r) for r in rows}
    if len(widths) > 1:
        raise value_error("pad_width is ragged: %r" % (pad_width,))
    k, m = len(rows), (widths.pop() if rows else 0)
    flat = [v for r in rows for v in r]
    if k * m == 1:
        pairs = [(flat[0], flat[0])] * ndim
    elif k * m == 2 and not (k == 2 and m == 1):
        pairs = [(flat[0], flat[1])] * ndim
    elif k in (1, ndim) and m in (1, 2):
        rows = rows * ndim if k == 1 else rows
        pairs = [(r[0], r[-1]) for r in rows]
    else:
        raise value_error(
            "pad_width of shape (%d, %d) does not fit an array of %d axes: give an int, "
            "(before, after), or one (before, after) per axis" % (k, m, ndim))
    for i, (b, a) in enumerate(pairs):
        if b < 0 or a < 0:
            raise value_error(
                "pad_width[%d] = (%d, %d) is negative: numpy.pad's form takes pads >= 0; "
                "to crop, use pads_begin=/pads_end=, where negative values remove elements"
                % (i, b, a))
    return pairs


def _numpy_limits(pairs: List[Tuple[int, int]], shape: Tuple[int, ...],
                  modes: List[int]) -> None:
    """The limits of clpad's mirror modes, said in numpy.pad's terms; modes:
    each axis's clpad_pad_mode."""
    for i, ((b, a), d, m) in enumerate(zip(pairs, shape, modes)):
        p = max(b, a)
        if p == 0:
            continue
        if d == 0 and m != _CONSTANT:
            raise value_error("pad_width[%d] = (%d, %d) pads an empty axis (shape[%d] = 0): "
                              "only mode='constant' can" % (i, b, a, i), INVALID_PADS)
        if m == _REFLECT and p > d - 1:
            raise value_error(
                "pad_width[%d] = (%d, %d) exceeds the reflect limit shape[%d] - 1 = %d: "
                "clpad reflects once (pads <= D-1) unless large_pads='numpy', which repeats "
                "the reflection as numpy.pad does" % (i, b, a, i, d - 1), INVALID_PADS)
        if m == _SYMMETRIC and p > d:
            raise value_error(
                "pad_width[%d] = (%d, %d) exceeds the symmetric limit shape[%d] = %d: "
                "clpad mirrors once (pads <= D) unless large_pads='numpy', which repeats "
                "the mirror as numpy.pad does" % (i, b, a, i, d), INVALID_PADS)


def _mode_name(mode: Any) -> str:
    if callable(mode):
        raise value_error("mode is a function: clpad.pad runs one (numpy.pad's algorithm) "
                          "with pads >= 0, without axes= or to_multiple=", UNSUPPORTED)
    if not isinstance(mode, str):
        raise TypeError("mode must be a string, not %r" % (mode,))
    if mode.lower() in _NUMPY_ONLY_MODES:
        raise value_error("mode=%r is a numpy.pad mode (computed by numpy.pad on the host): "
                          "clpad.pad takes it alone (not in a per-axis list), with pads >= 0, "
                          "without axes= or to_multiple=; with those, and in the batch "
                          "operations, the modes are 'constant', 'edge', 'reflect', "
                          "'symmetric' and 'wrap'" % (mode,), UNSUPPORTED)
    return mode


def _value_bytes(value: Any, dt: "np.dtype[Any]", code: int, name: str) -> bytes:
    """One pad value's bytes; numpy's per-axis constant_values must all be equal."""
    if value is None or isinstance(value, (str, bytes)) or np.ndim(value) == 0:
        return _args.scalar_bytes(value, dt, code)
    flat = np.asarray(value, dtype=object).ravel().tolist()
    if not flat:
        raise value_error("%s is empty" % name)
    got = [_args.scalar_bytes(v, dt, code) for v in flat]
    if any(g != got[0] for g in got):
        raise value_error("%s=%r gives different values per axis or side: clpad pads "
                          "every side with one value" % (name, value), UNSUPPORTED)
    return got[0]


# ---- the fast path ----------------------------------------------------------
# A call's fixed cost matters on small arrays (a 1x3x224x224 pad moves 1.2 MB
# in about 30 us on a CPU device), so the common calls skip the general
# argument handling below: a C-contiguous native NumPy array, int pads in
# either form, a mode seen before, a pad value given as an int, a float or a
# string (converted once per value and dtype), the default device.
# Everything else, and every error, goes the general way.
_MODE_CODES: Dict[Any, int] = {}
_DTYPE_CODES: Dict[Any, int] = {}
_ARRAY_TYPES = [ctypes.c_int64 * n for n in range(9)]
_BIG = 1 << 40  # output bytes beyond which the library validates first
_OPTIONS: Dict[int, Any] = {}  # mode code -> clpad_pad_options with that mode on every axis


def _options(mode_code: int) -> Any:
    """The clpad_pad_options of one mode on every axis (made once per mode)."""
    opts = _OPTIONS.get(mode_code)
    if opts is None:
        opts = _lib.PadOptions()
        _lib.lib().clpad_pad_options_init(ctypes.byref(opts), mode_code)
        _OPTIONS[mode_code] = opts
    return opts
_I64 = 1 << 63


def _int_pairs(pad_width: Any, rank: int) -> Optional[List[Tuple[int, int]]]:
    """numpy.pad's common pad_width forms of non-negative Python ints, else None."""
    t = type(pad_width)
    if t is int:
        return [(pad_width, pad_width)] * rank if pad_width >= 0 else None
    if t is not tuple and t is not list:
        return None
    n = len(pad_width)
    if n == 2 and type(pad_width[0]) is int and type(pad_width[1]) is int:
        b, a = pad_width
        return [(b, a)] * rank if b >= 0 and a >= 0 else None
    if n != rank:
        return None
    pairs = []
    for w in pad_width:
        if (type(w) is not tuple and type(w) is not list) or len(w) != 2:
            return None
        b, a = w
        if type(b) is not int or type(a) is not int or b < 0 or a < 0:
            return None
        pairs.append((b, a))
    return pairs


def _int_list(v: Any, rank: int) -> Optional[List[int]]:
    if (type(v) is not list and type(v) is not tuple) or len(v) != rank:
        return None
    for e in v:
        if type(e) is not int:
            return None
    return list(v)


# Pad values the fast path has converted, by (type, value, dtype): a float by
# its hex form, so that -0.0 and 0.0 (equal, with one hash) stay apart. Only
# ints, floats and strings, whose conversion depends on nothing else.
_VALUE_BYTES: Dict[Tuple[Any, Any, Any], bytes] = {}


def _fast_value(v: Any, dt: "np.dtype[Any]", code: int) -> Optional[bytes]:
    """The bytes of pad value v in dtype dt, or None to take the general path."""
    t = type(v)
    if t is float:
        key: Tuple[Any, Any, Any] = (t, v.hex(), dt)
    elif t is int or t is str:
        key = (t, v, dt)
    else:
        return None
    got = _VALUE_BYTES.get(key)
    if got is None:
        try:
            got = _args.scalar_bytes(v, dt, code)
        except (ValueError, TypeError, OverflowError):
            return None  # the general path raises, with its message
        if len(_VALUE_BYTES) < 4096:
            _VALUE_BYTES[key] = got
    return got


# The fast path's per-geometry work (the output shape and the ctypes arrays),
# by (shape, pads_begin, pads_end): a preprocessing loop pads one geometry
# again and again, and building three ctypes arrays costs more than the
# lookup. Bounded; the arrays are only read by the library.
_GEOMETRY: Dict[Tuple[Any, Any, Any], Tuple[Any, ...]] = {}


def _prod(dims: Tuple[int, ...]) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def _fast_geometry(shape: Tuple[int, ...], pb: List[int],
                   pe: List[int]) -> Optional[Tuple[Any, ...]]:
    rank = len(shape)
    if rank == 0 or rank > _args.MAX_RANK:
        return None  # (rank 9 and above: the general path says so)
    if min(pb) < -_I64 or min(pe) < -_I64 or max(pb) >= _I64 or max(pe) >= _I64:
        return None  # beyond int64 (ctypes would wrap it): the general path says so
    out_shape = tuple(max(b + d + e, 0) for b, d, e in zip(pb, shape, pe))
    arr = _ARRAY_TYPES[rank]
    geometry = (out_shape, _prod(out_shape), arr(*shape), arr(*pb), arr(*pe))
    if len(_GEOMETRY) >= 256:
        _GEOMETRY.clear()
    _GEOMETRY[(shape, tuple(pb), tuple(pe))] = geometry
    return geometry


def _fast_pad(array: Any, pad_width: Any, args: Tuple[Any, ...], mode: Any, constant_values: Any,
              reflect_type: Any, pads_begin: Any, pads_end: Any, value: Any, device: Any,
              queue: Any, out: Any) -> Any:
    """clpad.pad for the common calls, or None to take the general path."""
    if (type(array) is not np.ndarray or device is not None or queue is not None
            or reflect_type is not None or len(args) > 1
            or (mode is not None and type(mode) is not str)):
        return None
    if args:  # pad(x, pad_width, mode)
        if mode is not None or type(args[0]) is not str:
            return None
        mode = args[0]
    if value is not None and constant_values is not None:
        return None
    v = constant_values if value is None else value
    dt = array.dtype
    code = _DTYPE_CODES.get(dt)
    mode_code = _MODE_CODES.get("constant" if mode is None else mode)
    if code is None or mode_code is None or not array.flags.c_contiguous:
        return None
    value_bytes: Optional[bytes] = None
    if v is not None and not (type(v) is int and v == 0):
        if mode_code != _CONSTANT:
            return None  # a value with another mode: the general path says what it does
        value_bytes = _fast_value(v, dt, code)
        if value_bytes is None:
            return None
    shape = array.shape
    rank = len(shape)
    if pad_width is not None:
        if pads_begin is not None or pads_end is not None:
            return None
        pairs = _int_pairs(pad_width, rank)
        if pairs is None:
            return None
        if mode_code != _CONSTANT:  # numpy.pad's wording for the mirror limits
            _numpy_limits(pairs, shape, [mode_code] * rank)
        pb = [b for b, _ in pairs]
        pe = [a for _, a in pairs]
    else:
        pb_or_none = _int_list(pads_begin, rank)
        pe_or_none = _int_list(pads_end, rank)
        if pb_or_none is None or pe_or_none is None:
            return None
        pb, pe = pb_or_none, pe_or_none
    key = (shape, tuple(pb), tuple(pe))
    geometry = _GEOMETRY.get(key)
    if geometry is None:
        geometry = _fast_geometry(shape, pb, pe)
        if geometry is None:
            return None
    out_shape, n, c_shape, c_pb, c_pe = geometry
    if n * dt.itemsize > _BIG:
        return None
    result = host_output(out, out_shape, dt, array)
    check(_lib.lib().clpad_pad(_context.context(None), code, rank, c_shape,
                               array.__array_interface__["data"][0], c_pb, c_pe,
                               ctypes.byref(_options(mode_code)),
                               value_bytes, result.__array_interface__["data"][0], result.nbytes,
                               None))
    return result


# mode: a name, a framework's name ("cv:REFLECT_101"), or one per axis.
_Mode = Union[PadModeName, Sequence[PadModeName]]
# numpy.pad's form also takes numpy.pad's other modes (computed by numpy.pad).
_NumpyMode = Union[_Mode, _types.NumpyOnlyModeName]


@overload
def pad(array: DeviceArrayT, pad_width: PadWidth, mode: _Mode = ..., *,
        constant_values: Any = ..., reflect_type: Optional[str] = ..., queue: Any = ...,
        out: Optional[DeviceArrayT] = ..., to_multiple: Optional[Ints] = ...,
        placement: Optional[str] = ..., large_pads: Optional[str] = ...) -> DeviceArrayT: ...
@overload
def pad(array: npt.ArrayLike, pad_width: PadWidth, mode: _NumpyMode = ..., *,
        constant_values: Any = ..., reflect_type: Optional[str] = ...,
        device: DeviceLike = ..., out: Any = ...,
        to_multiple: Optional[Ints] = ..., placement: Optional[str] = ...,
        large_pads: Optional[str] = ..., stat_length: Any = ...,
        end_values: Any = ...) -> "np.ndarray[Any, Any]": ...
@overload
def pad(array: npt.ArrayLike, pad_width: PadWidth, mode: Callable[..., Any], *,
        out: Any = ..., **kwargs: Any) -> "np.ndarray[Any, Any]": ...
@overload
def pad(array: DeviceArrayT, *, pads_begin: Ints = ..., pads_end: Ints = ...,
        mode: _Mode = ..., value: Scalar = ..., queue: Any = ...,
        out: Optional[DeviceArrayT] = ..., axes: Optional[Ints] = ...,
        to_multiple: Optional[Ints] = ..., placement: Optional[str] = ...,
        large_pads: Optional[str] = ...) -> DeviceArrayT: ...
@overload
def pad(array: npt.ArrayLike, *, pads_begin: Ints = ..., pads_end: Ints = ...,
        mode: _Mode = ..., value: Scalar = ..., device: DeviceLike = ...,
        out: Optional["np.ndarray[Any, Any]"] = ..., axes: Optional[Ints] = ...,
        to_multiple: Optional[Ints] = ..., placement: Optional[str] = ...,
        large_pads: Optional[str] = ...) -> "np.ndarray[Any, Any]": ...
@overload
def pad(array: npt.ArrayLike, pads_begin: Ints, pads_end: Ints, /, mode: _Mode = ...,
        value: Scalar = ..., device: DeviceLike = ...,
        out: Optional["np.ndarray[Any, Any]"] = ...) -> "np.ndarray[Any, Any]": ...


@_interop.keeps_out
def pad(array: Any, pad_width: Any = None, *args: Any, mode: Any = None,
        constant_values: Any = None, reflect_type: Optional[str] = None,
        pads_begin: Any = None, pads_end: Any = None, value: Any = None,
        device: DeviceLike = None, queue: Any = None, out: Any = None,
        axes: Any = None, to_multiple: Any = None, placement: Optional[str] = None,
        large_pads: Optional[str] = None, stat_length: Any = None, end_values: Any = None,
        **kwargs: Any) -> Any:
    """Pad an array, or crop it with negative pads, on an OpenCL device.

    Two forms, one function::

        # numpy.pad's form: the same arguments, the same result, byte for byte
        clpad.pad(x, 2, mode="reflect")                 # every side of every axis
        clpad.pad(x, ((0, 0), (1, 2)), "constant", constant_values=7)

        # OpenVINO Pad-12's form: per-axis begin/end pads; negative pads crop
        clpad.pad(x, pads_begin=[0, 1], pads_end=[0, -2], mode="edge")
        clpad.pad(x, pads_begin=[2, -1], pads_end=[-1, 3], mode="reflect", value=0)

    Shapes: `x` has any rank 0..8 (a higher rank is a ClpadValueError, in
    both forms); the result has x's dtype and, per axis,
    ``max(before + D + after, 0)`` elements (D: the axis' size).

    numpy.pad's form, ``pad(array, pad_width, mode="constant", *,
    constant_values=0)``:
        pad_width: an int (every side of every axis), ``(before, after)``
            (every axis), ``((before, after),)``, one ``(before, after)`` per
            axis, as numpy.pad broadcasts them, or ``{axis: n or (before,
            after)}`` (other axes unpadded). Pads are integers >= 0.
        constant_values: the pad value of mode "constant": a scalar, or
            numpy's per-axis and per-side forms (``(before, after)``,
            ``((before, after),)``, one ``(before, after)`` per axis), each
            side's value cast to x's dtype as numpy.pad casts it (300 on
            uint8 is 44; 1.7 on int8 is 1; what numpy refuses raises
            ClpadValueError). Runs on the device: one constant-pad launch
            when every side has the same value, else one call with a value
            per side (the C option clpad_pad_options.side_values: the pad,
            then one launch over the padding), a corner taking the value of
            the last axis whose pad covers it, exactly as numpy.pad (a
            pyopencl array: a composition of constant-pad launches in
            numpy's order, each padding the previous result).
        reflect_type: "even" (numpy's default) or "odd" (``2 * edge -
            mirror`` in the array's dtype, integers wrapping, any pad size:
            numpy.pad's chunk-by-chunk mirroring, by the C function
            clpad_pad_numpy); both on the device.
        stat_length (modes "maximum", "minimum", "mean", "median") and
            end_values (mode "linear_ramp"): numpy.pad's.

    numpy.pad's other modes (in both forms; OpenVINO's with pads >= 0 and
        without axes or to_multiple): "maximum", "minimum", "mean" and
        "median" (with stat_length) run numpy.pad's algorithm on the device
        (the C function clpad_pad_numpy), equal to numpy.pad bit for bit:
        integer means and medians in float64 rounded half to even, float
        sums in the array's type in numpy's order (pairwise along the
        innermost axis, in order along the others), a NaN result as the
        type's quiet NaN; bool, float16 and bfloat16 arrays, a stat_length
        of 0 and empty arrays are left to numpy.pad on the host. "empty"
        pads with zeros on the device (numpy leaves the pads uninitialised).
        reflect_type="odd" and "linear_ramp" (end_values; numpy's
        np.linspace arithmetic in numpy's float64 or float32, its zero-step
        rule included: the C function clpad_pad_linear_ramp) run on the
        device too; bool, float16, bfloat16 and empty arrays, and ramps
        whose numpy result is platform-defined (end values outside an
        integer dtype's range, non-finite floats) run numpy.pad on the
        host. A callable mode with its keyword arguments
        (``pad(x, 2, func, padder=100)``) runs numpy.pad itself on the host,
        so the result is numpy's bit for bit. These modes take NumPy,
        DLPack and array-interface inputs and ``out=``, not a pyopencl array
        (ClpadValueError). Where each part runs: constant, edge, reflect,
        symmetric (both reflect types), wrap, linear_ramp, the statistics
        and empty on the device; callables on the host.

    OpenVINO's form, ``pad(array, *, pads_begin, pads_end, mode, value)``:
        pads_begin, pads_end: one int per axis, or one int for every axis
            (the other defaults to 0): elements added before / after the data;
            negative values remove elements. Mirrors and edges come from the
            original input even where negative pads crop (OpenVINO and
            PyTorch semantics). The positional form of earlier versions,
            ``pad(x, pads_begin, pads_end, mode, value, device, out)``, is
            still accepted.

    (The signature's ``*args`` holds numpy.pad's positional mode, or the
    positional OpenVINO form's pads_end, mode, value, device and out. A third
    argument of mode names, ``pad(x, 1, ("edge", "wrap"))``, is the mode; one
    of integers is pads_end; one that mixes both is a TypeError.)

    mode (both forms): "constant" (the pad value), "edge" (repeat the edge
        element), "reflect" (mirror without the edge; pads <= D-1),
        "symmetric" (mirror with the edge; pads <= D) or "wrap" (periodic, any
        size); or a framework's name that says whose meaning is meant:
        "cv:CONSTANT", "cv:REPLICATE", "cv:REFLECT" (= symmetric),
        "cv:REFLECT_101" (= reflect), "cv:WRAP", "torch:constant",
        "torch:replicate", "torch:reflect", "torch:circular", "tf:CONSTANT",
        "tf:REFLECT", "tf:SYMMETRIC", "onnx:constant", "onnx:edge",
        "onnx:reflect", "onnx:wrap", "ov:...", "np:constant", "np:edge",
        "np:reflect", "np:symmetric", "np:wrap" (clpad/docs/modes.md; np: and cv:
        mirror beyond the limits, as numpy.pad and cv2.copyMakeBorder do).
        A sequence of names gives each axis its own mode (one per axis, or
        one per `axes` entry), e.g. ``mode=("edge", "wrap")`` for a
        panorama. numpy.pad's "linear_ramp", "maximum", "mean", "median",
        "minimum", "empty" and a callable are taken as above (alone, pads >=
        0); in a per-axis list, with negative pads, axes or to_multiple they
        raise ClpadValueError (as does a name with a NUL character in it).
    large_pads: None or "error" (Pad-12's limits above; a larger pad raises)
        or "numpy": reflect and symmetric accept any pad and repeat the
        mirror exactly as numpy.pad does (period 2(D-1) and 2D; reflect on
        one element repeats it). Case-insensitive, as the CLI's --large-pads.
    axes (OpenVINO's form): ONNX Pad-18's axes, ints in [-ndim, ndim): the
        pads_begin / pads_end lists (and a mode or to_multiple sequence)
        name only these axes; the others are not padded. ClpadValueError for
        an axis out of range or listed twice.
    to_multiple: an int (every axis, or every `axes` axis) or one per axis:
        pad each at the end (``placement="center"``: half before, the odd
        element after) up to the next multiple; 1 leaves an axis alone. It
        adds to the pads given (which default to 0): the size after them is
        rounded up. ClpadValueError for a multiple < 1.
    value / constant_values (synonyms; give one): in numpy.pad's form,
        numpy's rules (above), except that a string is parsed exactly as
        below. In OpenVINO's form: the exact bits of
        ``np.array(value, dtype=x.dtype)``, except that an integer dtype
        rejects values that do not fit or are not integers, bool takes only
        0/1/True/False, and a finite value that rounds to infinity is
        rejected. A string is parsed exactly ("9007199254740993", "-0.0",
        "nan", "0x1p-3"). The other modes use no value: a zero (0, 0.0, -0.0,
        False) is accepted and ignored, any other value raises, since it would
        be silently ignored.
    x: a NumPy array, or anything with ``__dlpack__`` in CPU memory (a torch
        or JAX CPU tensor: read in place, never written), ``__array_interface__``
        or anything numpy.asarray takes. A Dask array gives a lazy Dask array
        (:func:`clpad.dask.pad`: each block padded by clpad.pad when
        computed); nothing is computed here.
    device: for a NumPy array (or anything numpy.asarray takes), where to
        run: None (clpad's default device), "P:D", a device-name substring,
        a :class:`clpad.Device`, or "reference" (the CPU path without OpenCL).
    x may be a ``pyopencl.array.Array``: the pad runs on its queue (or
        ``queue=``), on the device buffers, after the array's events, and
        returns a pyopencl Array on the same queue whose events include the
        pad's; ``out=`` may then be a pyopencl Array.
    out: an array to write the result into (of the result's shape and x's
        native dtype, C-contiguous, writeable, not sharing memory with x): a
        NumPy array, or any CPU DLPack producer (a torch tensor), written in
        its own memory and returned itself; a read-only or non-contiguous
        one raises ClpadValueError.

    Returns a new array of x's dtype (or `out`); the input is never modified.
    Raises ClpadValueError (a ValueError) for pads, shapes, values, dtypes
    and modes, with clpad's message naming the argument (e.g. "pads_end[1] =
    4 exceeds the reflect limit D-1 = 3"); ClpadRuntimeError (a RuntimeError)
    for device failures and outputs that cannot be allocated; TypeError for a
    call that mixes the two forms or gives an argument twice.

    Semantics: OpenVINO's Pad-12 operation (plus "wrap", as ONNX Pad-18 and
    numpy have it), computed bit-exactly on every device; for pads >= 0 within
    the limits above the result equals numpy.pad's. In numpy.pad's form, every
    numpy.pad mode and option gives numpy.pad's result, byte for byte.
    """
    if (axes is None and to_multiple is None and placement is None and large_pads is None
            and stat_length is None and end_values is None and not kwargs):
        fast = _fast_pad(array, pad_width, args, mode, constant_values, reflect_type,
                         pads_begin, pads_end, value, device, queue, out)
        if fast is not None:
            return fast
    if _interop.is_dask(array):  # stays lazy: clpad.dask.pad builds the graph
        from . import dask as _dask
        a0 = args[0] if args else None
        if args and (len(args) > 1 or mode is not None or not (
                isinstance(a0, str) or callable(a0) or (isinstance(a0, (list, tuple)) and a0
                                                        and all(isinstance(m, str) for m in a0)))):
            raise TypeError("a Dask array takes numpy.pad's form pad(x, pad_width, mode) or "
                            "the keywords pads_begin=/pads_end=, not the positional form")
        return _dask.pad(array, pad_width, a0 if args else mode,
                         constant_values=constant_values,
                         reflect_type=reflect_type, pads_begin=pads_begin, pads_end=pads_end,
                         value=value, device=device, queue=queue, out=out, axes=axes,
                         to_multiple=to_multiple, placement=placement, large_pads=large_pads,
                         stat_length=stat_length, end_values=end_values, **kwargs)
    if (pad_width is None and not args and (pads_begin is not None or pads_end is not None)
            and axes is None and to_multiple is None and placement is None
            and _numpy_pad.host_mode(mode)):  # OpenVINO's form of numpy.pad's other modes
        pad_width = _numpy_pad.openvino_pad_width(array, pads_begin, pads_end, mode)
        pads_begin = pads_end = None
    v = constant_values if value is None else value
    if _numpy_pad.wants(pad_width, args, mode, v, reflect_type, stat_length, end_values, kwargs,
                        pads_begin is not None or pads_end is not None or axes is not None
                        or to_multiple is not None or placement is not None
                        or (value is not None and constant_values is not None)):
        got = _numpy_pad.run(pad, array, pad_width, args, mode, v, reflect_type, stat_length,
                             end_values, kwargs, device, queue, out)
        if got is not None:
            return got
    if kwargs:
        raise TypeError("pad() got an unexpected keyword argument %r" % sorted(kwargs)[0])
    if stat_length is not None or end_values is not None:
        raise TypeError("stat_length= and end_values= belong to numpy.pad's form, "
                        "pad(x, pad_width, mode, ...)")
    numpy_form = False
    if args:
        # a sequence of mode names is numpy.pad's mode (one per axis), never pads_end
        names = isinstance(args[0], (list, tuple)) and any(isinstance(m, str) for m in args[0])
        if names and not all(isinstance(m, str) for m in args[0]):
            raise TypeError(
                "pad(x, %r, %r): the third argument mixes mode names and numbers; it is "
                "numpy.pad's mode (a name, or one name per axis) or, in OpenVINO's "
                "positional form pad(x, pads_begin, pads_end, ...), pads_end (integers)"
                % (pad_width, args[0]))
        if isinstance(args[0], str) or callable(args[0]) or names:
            # pad(x, pad_width, mode): a mode name, or one per axis
            if len(args) > 1:
                raise TypeError("pad() takes at most 3 positional arguments in numpy.pad's "
                                "form, pad(array, pad_width, mode); give the rest as keywords")
            if mode is not None:
                raise TypeError("pad() got mode twice (positionally and as mode=)")
            mode = args[0]
        else:  # pad(x, pads_begin, pads_end, mode, value, device, out)
            if len(args) > len(_POSITIONAL):
                raise TypeError("pad() takes at most 7 positional arguments")
            given = {"pads_end": pads_end, "mode": mode, "value": value, "device": device,
                     "out": out}
            for name, v in zip(_POSITIONAL, args):
                if given[name] is not None:
                    raise TypeError("pad() got %s twice (positionally and as %s=)"
                                    % (name, name))
                given[name] = v
            if pads_begin is not None:
                raise TypeError("pad() got pads_begin twice (positionally and as "
                                "pads_begin=)")
            if constant_values is not None or reflect_type is not None:
                raise TypeError("constant_values= and reflect_type= belong to numpy.pad's "
                                "form; %s" % _HOW)
            pads_begin, pad_width = pad_width, None
            pads_end, mode, value = given["pads_end"], given["mode"], given["value"]
            device, out = given["device"], given["out"]
    if pad_width is not None:
        if pads_begin is not None or pads_end is not None:
            raise TypeError("pad() got pad_width together with pads_begin/pads_end: give "
                            "one of them; " + _HOW)
        if axes is not None:
            raise TypeError("axes= belongs to OpenVINO's form (pads_begin=/pads_end= for "
                            "those axes); numpy's form names axes with a dict pad_width")
        numpy_form = True
    elif pads_begin is None and pads_end is None and to_multiple is None:
        raise TypeError("pad() needs the pads: " + _HOW)
    if value is not None and constant_values is not None:
        raise TypeError("value= and constant_values= name the same thing: give one")
    if constant_values is not None:
        value, value_name = constant_values, "constant_values"
    else:
        value_name = "value"
    if mode is None:
        mode = "constant"
    mode_list = None
    if not isinstance(mode, str) and not callable(mode):
        if isinstance(mode, (list, tuple)) and mode:
            mode_list = [_mode_name(m) for m in mode]
            mode = mode_list[0]
        else:
            raise TypeError("mode must be a string or a non-empty sequence of strings, not %r"
                            % (mode,))
    mode = _mode_name(mode)
    large_flags = None if large_pads is None else _args.large_pads_flags(large_pads)
    if placement not in (None, "end", "center"):
        raise value_error("placement=%r: give 'end' or 'center'" % (placement,))
    if placement is not None and to_multiple is None:
        raise TypeError("placement= applies to to_multiple=")
    if reflect_type is not None:
        if any(_args.pad_mode(m) not in (_REFLECT, _SYMMETRIC) for m in (mode_list or [mode])):
            raise value_error("reflect_type applies to mode='reflect' and 'symmetric' only")
        if reflect_type != "even":
            raise value_error("reflect_type=%r: clpad mirrors the values themselves "
                              "(numpy.pad's default 'even'); 'odd' is not supported"
                              % (reflect_type,), UNSUPPORTED)

    device_array = _pyopencl.is_device_array(array)
    if device_array:
        _pyopencl.fail_host_only("device", device)
        code = _args.dtype_code(array.dtype)
        shape = tuple(int(d) for d in array.shape)
        dt = np.dtype(array.dtype)
    else:
        _pyopencl.fail_device_only(queue)
        x, code = _args.prepare(array)
        shape, dt = x.shape, x.dtype
    rank = len(shape)
    _args.check_rank(rank)  # (both forms, before any per-axis list is built)
    lib = _lib.lib()
    # the axes the lists name: `axes` (ONNX Pad-18), else every axis
    if axes is not None:
        ax = [_args.whole("axes", a) for a in (axes if np.ndim(axes) else [axes])]
    else:
        ax = list(range(rank))
    listed = len(ax)
    codes = [_args.pad_mode_flags(m) for m in (mode_list or [mode])]
    mode_code = codes[0][0]
    if mode_list is None and codes[0][1] == 0:
        _MODE_CODES[mode] = mode_code  # (for the fast path: a name the library took)
    if not device_array and x.dtype == dt and dt.isnative:
        _DTYPE_CODES[dt] = code
    if numpy_form:
        pairs = pad_width_pairs(pad_width, rank)
        pb = [b for b, _ in pairs]
        pe = [a for _, a in pairs]
    elif pads_begin is None and pads_end is None:
        pb, pe = [0] * listed, [0] * listed
    else:
        pb = _args.axes("pads_begin", pads_begin, listed, default=0)
        pe = _args.axes("pads_end", pads_end, listed, default=0)
    mult: List[int] = []
    if to_multiple is not None:
        mult = [_args.whole("to_multiple", m)
                for m in (to_multiple if np.ndim(to_multiple) else [to_multiple])]
    # The forms composed by the library (clpad_pad_form_resolve), as the CLI
    # composes them: the named axes' pads in place, the modes, the flags and
    # the large-pads policy, the multiples.
    form = _lib.PadForm()
    lib.clpad_pad_form_init(ctypes.byref(form))
    c_ax = _args.i64(ax) if listed else None
    if axes is not None:
        form.naxes = listed
        form.axes = c_ax
    form.pads_begin = _args.i64(pb) if listed else None
    form.pads_end = _args.i64(pe) if listed else None
    c_modes = (ctypes.c_int * len(codes))(*[c for c, _ in codes])
    form.nmodes = len(codes)
    form.modes = c_modes
    for _, f in codes:
        form.mode_flags |= f
    if large_flags is not None:  # "numpy", or "error": Pad-12's limits even for np: and cv:
        form.large_pads = large_flags
    c_mult = _args.i64(mult) if mult else None
    form.nmultiples = len(mult)
    form.multiples = c_mult
    form.placement = _CENTER if placement == "center" else _END
    opts = _lib.PadOptions()
    c_shape = _args.i64(shape)
    c_pb, c_pe = _args.i64([0] * rank), _args.i64([0] * rank)
    try:
        check(lib.clpad_pad_form_resolve(rank, c_shape, ctypes.byref(form), c_pb, c_pe,
                                         ctypes.byref(opts)))
    except ClpadValueError as e:  # the form's field is a parameter here
        param = _FORM_NAMES.get(e.argument or "")
        if param is None:
            raise
        raise ClpadValueError("%s: %s" % (param, e), e.status, e.status_name, param,
                              e.index) from None
    if numpy_form and not opts.flags & _LARGE_NUMPY:  # numpy.pad's wording for the limits
        _numpy_limits(pairs, shape, [opts.modes[i] for i in range(rank)])
    value_bytes = _value_bytes(value, dt, code, value_name)
    if (_CONSTANT not in [opts.modes[i] for i in range(rank)]
            and not (rank == 0 and mode_code == _CONSTANT)
            and not _args.is_zero(value_bytes, dt)):
        raise _args.unused_value(value_name, value, mode_list or mode)
    value_buf = ctypes.create_string_buffer(value_bytes, 8)

    c_out = _args.i64([0] * rank)
    check(lib.clpad_pad_output_shape(rank, c_shape, c_pb, c_pe, ctypes.byref(opts), c_out))
    out_shape = _args.shape_tuple(c_out, rank)

    if device_array:
        def enqueue(ctx: Any, src: Any, src_off: int, dst: Any, dst_off: int, q: Any,
                    n: int, waits: Any, evt: Any) -> int:
            return int(lib.clpad_enqueue_pad(ctx, code, rank, c_shape, src, src_off, c_pb,
                                             c_pe, ctypes.byref(opts), value_buf, dst,
                                             dst_off, q, n, waits, evt))
        return _pyopencl.run(array, out_shape, out, queue, enqueue)

    result = host_output(out, out_shape, dt, x)
    ctx = _context.context(device)
    check(lib.clpad_pad(ctx, code, rank, c_shape, x.ctypes.data, c_pb, c_pe,
                        ctypes.byref(opts), value_buf, result.ctypes.data, result.nbytes, None))
    return result
