"""Argument checking shared by the operations: dtypes, per-axis integers,
int64 arrays for the C calls, and pad values as the exact bytes of one element."""

from __future__ import annotations

import ctypes
import math
import numbers
import operator
from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _interop, _lib
from ._errors import (INVALID_ARGUMENT, OVERFLOW, UNSUPPORTED, ClpadValueError, check,
                      value_error)

MAX_RANK = _lib.MAX_RANK

# clpad_dtype codes (include/clpad.h), by NumPy kind and item size.
BOOL, BF16 = _lib.constant("CLPAD_BOOL"), _lib.constant("CLPAD_BF16")
_BY_KIND = {(kind, size): _lib.constant("CLPAD_" + name) for kind, size, name in (
    ("b", 1, "BOOL"), ("i", 1, "I8"), ("u", 1, "U8"), ("i", 2, "I16"), ("u", 2, "U16"),
    ("i", 4, "I32"), ("u", 4, "U32"), ("i", 8, "I64"), ("u", 8, "U64"),
    ("f", 2, "F16"), ("f", 4, "F32"), ("f", 8, "F64"))}

_BFLOAT16: Optional[np.dtype[Any]]
try:  # optional: bfloat16 arrays, only if the user has ml_dtypes
    import ml_dtypes as _ml_dtypes  # type: ignore[import-not-found, unused-ignore]

    _BFLOAT16 = np.dtype(_ml_dtypes.bfloat16)
except Exception:  # pragma: no cover - depends on the environment
    _BFLOAT16 = None

#: What a pad, block or crop argument may be: one int for every axis, or one per axis.
Ints = Union[int, Sequence[int], "np.ndarray[Any, Any]"]


def dtype_code(dt: Any) -> int:
    """The clpad_dtype of a NumPy dtype, or ClpadValueError."""
    dt = np.dtype(dt)
    if _BFLOAT16 is not None and dt.newbyteorder("=") == _BFLOAT16:
        return BF16
    code = _BY_KIND.get((dt.kind, dt.itemsize))
    if code is None or dt.fields is not None or dt.subdtype is not None:
        raise value_error("unsupported dtype %s: clpad supports bool, int8..int64, "
                          "uint8..uint64, float16, float32, float64%s"
                          % (dt, ", bfloat16" if _BFLOAT16 is not None else
                             " (and bfloat16 with ml_dtypes installed)"), UNSUPPORTED)
    return code


def prepare(x: Any) -> Tuple["np.ndarray[Any, Any]", int]:
    """(C-contiguous native-endian array, clpad dtype code); never modifies x."""
    x = _interop.as_array(x)
    code = dtype_code(x.dtype)
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    if not x.flags.c_contiguous:
        x = x.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    return x, code


def whole(name: str, v: Any) -> int:
    """v as a Python int (an int or a NumPy integer); TypeError for anything else."""
    if isinstance(v, (bool, np.bool_)):
        raise TypeError("%s must be integers, not %r" % (name, v))
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError("%s must be integers, not %r" % (name, v)) from None


def axes(name: str, values: Any, n: int, default: Optional[int] = None,
         broadcast_one: bool = False) -> List[int]:
    """A list of n ints from an int (every axis), a sequence, or None (default)."""
    if values is None:
        if default is None:
            raise value_error("%s is required" % name)
        return [default] * n
    if np.ndim(values) == 0:
        return [whole(name, values)] * n
    if isinstance(values, np.ndarray):
        values = values.tolist()
    seq = [whole(name, v) for v in values]
    if broadcast_one and len(seq) == 1:
        return seq * n
    if len(seq) != n:
        raise value_error("%s has %d value%s but %s" % (
            name, len(seq), "" if len(seq) == 1 else "s",
            "the array has %d axes" % n if not broadcast_one else "there are %d axes" % n))
    return seq


def c_string(what: str, text: Any) -> bytes:
    """`text` (a str) as the NUL-terminated bytes a C call reads: TypeError
    for another type, ClpadValueError for a NUL inside it (C would read only
    what comes before, "edge\\0junk" as "edge") or text UTF-8 cannot carry."""
    if not isinstance(text, str):
        raise TypeError("%s must be a string, not %r" % (what, text))
    if "\0" in text:
        raise value_error("%s %r contains a NUL character" % (what, text))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise value_error("%s %r is not valid text (%s)" % (what, text, e.reason)) from None


def check_rank(rank: int) -> None:
    """ClpadValueError unless an array of `rank` axes is within clpad's 0..8."""
    if rank > MAX_RANK:
        raise value_error("the array has %d axes; clpad takes rank 0..%d" % (rank, MAX_RANK),
                          INVALID_ARGUMENT)


def unused_value(name: str, value: Any, mode: Any) -> "ClpadValueError":
    """The error for a pad value given with modes that use none: every entry
    point refuses it (a zero is accepted and ignored), rather than ignore it."""
    return value_error("%s=%r is used only by mode='constant'; mode=%r takes no value "
                       "(leave %s out)" % (name, value, mode, name))


def i64(values: Sequence[int], min_len: int = 1) -> "ctypes.Array[ctypes.c_int64]":
    """A C int64 array of `values` (at least min_len long, for rank 0)."""
    arr = (ctypes.c_int64 * max(len(values), min_len))()
    for i, v in enumerate(values):
        if not -(1 << 63) <= v < (1 << 63):
            raise value_error("%d does not fit in int64" % v, OVERFLOW)
        arr[i] = v
    return arr


def shape_tuple(arr: "ctypes.Array[ctypes.c_int64]", n: int) -> Tuple[int, ...]:
    return tuple(int(arr[i]) for i in range(n))


def scalar_bytes(value: Any, dt: "np.dtype[Any]", code: int) -> bytes:
    """The bytes of one element of dtype dt equal to value (see clpad.pad)."""
    size = dt.itemsize
    if value is None or (type(value) is int and value == 0):  # all-zero bits in every dtype
        return bytes(size)
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str):
        buf = ctypes.create_string_buffer(8)
        check(_lib.lib().clpad_scalar_parse(code, c_string("value", value), buf))
        return buf.raw[:size]
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise value_error("value must be a scalar, not an array of shape %s"
                              % (value.shape,))
        value = value[()]
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        raise value_error("value %r is complex; clpad pads real dtypes" % (value,))
    if not isinstance(value, (numbers.Real, np.bool_)):
        raise TypeError("value must be a number or a string, not %r" % (value,))

    if code == BOOL:
        if isinstance(value, (bool, np.bool_)) or value == 0 or value == 1:
            return np.array(bool(value), dtype=dt).tobytes()
        raise value_error("value %r does not fit in bool (0, 1, True, False)" % (value,))

    if dt.kind in "iu":
        if isinstance(value, (bool, np.bool_, numbers.Integral)):
            iv = int(value)
        else:
            f = float(value)
            if not math.isfinite(f) or not f.is_integer():
                raise value_error("value %r is not an integer, as %s needs" % (value, dt))
            iv = int(f)
        info = np.iinfo(dt)
        if not info.min <= iv <= info.max:
            raise value_error("value %d does not fit in %s (%d..%d)"
                              % (iv, dt, info.min, info.max))
        return np.array(iv, dtype=dt).tobytes()

    # floating point: numpy's rounding of the value to dt
    try:
        with np.errstate(all="ignore"):
            arr = np.array(value, dtype=dt)
    except OverflowError:
        raise value_error("value %r overflows %s" % (value, dt)) from None
    finite_in = True if isinstance(value, numbers.Integral) else math.isfinite(float(value))
    if finite_in and not np.isfinite(arr.astype(np.float64)):
        raise value_error("value %r overflows %s (rounds to infinity)" % (value, dt))
    return arr.tobytes()


def is_zero(value_bytes: bytes, dt: "np.dtype[Any]") -> bool:
    """Whether one element's bytes are a zero of dt: 0, False, or +-0.0."""
    return bool(np.frombuffer(value_bytes, dtype=dt, count=1)[0] == 0)


def pad_mode(mode: Any) -> int:
    """The clpad_pad_mode of a mode name (the library's parser and message)."""
    return pad_mode_flags(mode)[0]


def pad_mode_flags(mode: Any) -> Tuple[int, int]:
    """(clpad_pad_mode, clpad_pad_options flags) of a mode name: clpad's names
    or a framework's ("cv:REFLECT_101", "torch:circular", "np:reflect"), by
    the library's parser (clpad_pad_mode_parse) and with its message."""
    name = c_string("mode", mode)
    out, flags = ctypes.c_int(), ctypes.c_uint()
    check(_lib.lib().clpad_pad_mode_parse(name, ctypes.byref(out), ctypes.byref(flags)))
    return out.value, flags.value


def pad_mode_within_limits(mode: Any) -> int:
    """The clpad_pad_mode of a mode name for the operations without large
    pads (pad_stack, letterbox): the names pad takes, except those that mean
    a mirror repeated beyond Pad-12's limits ("np:reflect", "cv:REFLECT_101",
    ...), refused with the mode to give (clpad_pad_mode_parse_within_limits)."""
    out = ctypes.c_int()
    check(_lib.lib().clpad_pad_mode_parse_within_limits(c_string("mode", mode),
                                                        ctypes.byref(out)))
    return out.value


def large_pads_flags(large_pads: Any) -> int:
    """The clpad_pad_options flags of large_pads= ("numpy" or "error", any
    case: the rule of the CLI's --large-pads, clpad_pad_large_pads_parse)."""
    if not isinstance(large_pads, str):
        raise TypeError("large_pads must be 'numpy' or 'error', not %r" % (large_pads,))
    flags = ctypes.c_uint()
    st = _lib.lib().clpad_pad_large_pads_parse(c_string("large_pads", large_pads),
                                               ctypes.byref(flags))
    if st < 0:
        message = (_lib.lib().clpad_last_error() or b"").decode("utf-8", "replace")
        raise value_error("large_pads: %s" % message, st)
    return flags.value


