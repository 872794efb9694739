"""clpad: tensor padding and data movement on OpenCL, from NumPy.

A thin, pure-Python layer (ctypes) over the clpad C library::

    import numpy as np, clpad
    x = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    clpad.pad(x, [2, -1], [-1, 3], mode="reflect")
    # array([[10, 11, 12, 11, 10,  9],
    #        [ 6,  7,  8,  7,  6,  5],
    #        [ 2,  3,  4,  3,  2,  1],
    #        [ 6,  7,  8,  7,  6,  5]], dtype=int32)

Arrays in, arrays out: the input is never modified (a non-contiguous or
byte-swapped input is copied first), the output is a new C-contiguous array of
the input's dtype. Supported dtypes: bool, int8..int64, uint8..uint64,
float16, float32, float64, and ml_dtypes.bfloat16 when ml_dtypes is installed.

Devices: ``device=None`` is clpad's default (``$CLPAD_DEVICE``, else the first
GPU, accelerator, then CPU OpenCL device; the CPU reference path, with a
RuntimeWarning, when there is no OpenCL device at all); a string is a device
spec, ``"P:D"`` or a case-insensitive substring of the device or platform name
(as ``clpad devices`` lists them); a :class:`Device` from :func:`devices`;
``"reference"`` is the CPU reference path without OpenCL (the CLI's ``--cpu``).
One context is created per device on first use and reused.

Errors raise :class:`ClpadValueError` (a ValueError: invalid arguments,
shapes, pads, overflow, unsupported dtype or feature) or
:class:`ClpadRuntimeError` (a RuntimeError: device, OpenCL, memory), with
clpad's message, which names the offending argument.

The library is found through ``$CLPAD_LIBRARY``, next to this package, or on
the system path; see :mod:`clpad._lib`.
"""

import atexit
import ctypes
import math
import numbers
import operator
import threading
import warnings
from dataclasses import dataclass, field
from typing import NamedTuple, Tuple

import numpy as np

from . import _lib
from ._lib import MAX_RANK

__version__ = "0.1.0"

__all__ = [
    "pad",
    "space_to_batch",
    "batch_to_space",
    "window_geometry",
    "WindowGeometry",
    "devices",
    "Device",
    "context_info",
    "warmup",
    "library_path",
    "library_version",
    "ClpadError",
    "ClpadValueError",
    "ClpadRuntimeError",
    "MAX_RANK",
    "REFERENCE",
]

#: ``device=REFERENCE`` runs the CPU reference path, without OpenCL.
REFERENCE = "reference"

# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

# clpad_status values that are the caller's fault: ValueError.
_VALUE_ERRORS = {
    -1: "CLPAD_ERR_INVALID_ARGUMENT",
    -2: "CLPAD_ERR_INVALID_SHAPE",
    -3: "CLPAD_ERR_INVALID_PADS",
    -4: "CLPAD_ERR_OVERFLOW",
    -5: "CLPAD_ERR_BUFFER_TOO_SMALL",
    -6: "CLPAD_ERR_UNSUPPORTED",
    -13: "CLPAD_ERR_PARSE",
}


class ClpadError(Exception):
    """Base of clpad's errors. ``status`` is the clpad_status (negative int, or
    None for an error found on the Python side), ``status_name`` its name."""

    def __init__(self, message, status=None, status_name=None):
        super().__init__(message)
        self.status = status
        self.status_name = status_name


class ClpadValueError(ClpadError, ValueError):
    """Invalid argument, shape, pads, dtype or value (CLPAD_ERR_INVALID_*,
    OVERFLOW, PARSE, BUFFER_TOO_SMALL, UNSUPPORTED)."""


class ClpadRuntimeError(ClpadError, RuntimeError):
    """A device, OpenCL or memory failure (CLPAD_ERR_NO_DEVICE,
    DEVICE_NOT_FOUND, BUILD_FAILED, DEVICE_OUT_OF_RESOURCES, OPENCL,
    OUT_OF_MEMORY)."""


def _check(status):
    if status >= 0:
        return status
    lib = _lib.lib()
    message = (lib.clpad_last_error() or b"").decode("utf-8", "replace")
    name = (lib.clpad_status_name(status) or b"").decode()
    if not message:
        message = (lib.clpad_status_string(status) or b"").decode()
    cls = ClpadValueError if status in _VALUE_ERRORS else ClpadRuntimeError
    raise cls(message, status, name)


def _value_error(message):
    return ClpadValueError(message, None, None)


# --------------------------------------------------------------------------
# dtypes, pads, scalars
# --------------------------------------------------------------------------

# clpad_dtype codes (include/clpad.h).
_BOOL, _BF16 = 0, 10
_BY_KIND = {
    ("b", 1): 0,
    ("i", 1): 1, ("u", 1): 2,
    ("i", 2): 3, ("u", 2): 4,
    ("i", 4): 5, ("u", 4): 6,
    ("i", 8): 7, ("u", 8): 8,
    ("f", 2): 9, ("f", 4): 11, ("f", 8): 12,
}

try:  # optional: bfloat16 arrays, only if the user has ml_dtypes
    import ml_dtypes as _ml_dtypes

    _BFLOAT16 = np.dtype(_ml_dtypes.bfloat16)
except Exception:  # pragma: no cover - depends on the environment
    _BFLOAT16 = None


def _dtype_code(dt):
    dt = np.dtype(dt)
    if _BFLOAT16 is not None and dt.newbyteorder("=") == _BFLOAT16:
        return _BF16
    code = _BY_KIND.get((dt.kind, dt.itemsize))
    if code is None or dt.fields is not None or dt.subdtype is not None:
        raise ClpadValueError("unsupported dtype %s: clpad supports bool, int8..int64, "
                              "uint8..uint64, float16, float32, float64%s"
                              % (dt, ", bfloat16" if _BFLOAT16 is not None else
                                 " (and bfloat16 with ml_dtypes installed)"),
                              -6, "CLPAD_ERR_UNSUPPORTED")
    if dt.kind == "f" and dt.itemsize == 8 and dt != np.dtype(np.float64):
        # a long double that is not an IEEE binary64 (never seen with itemsize 8)
        raise _value_error("unsupported dtype %s" % dt)
    return code


def _prepare(x):
    """(C-contiguous native-endian array, clpad dtype code); never modifies x."""
    x = np.asarray(x)
    code = _dtype_code(x.dtype)
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    if not x.flags.c_contiguous:
        x = x.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    return x, code


def _output(out, shape, dtype, x):
    """A new array for the result, or `out` once checked: an ndarray of exactly
    that shape and (native) dtype, C-contiguous, writeable, and not sharing
    memory with the input (which is never modified)."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError("out must be a numpy.ndarray, not %s" % type(out).__name__)
    if out.shape != shape:
        raise _value_error("out has shape %s, but the result has shape %s" % (out.shape, shape))
    if out.dtype != dtype:
        raise _value_error("out has dtype %s, but the result has dtype %s" % (out.dtype, dtype))
    if not out.flags.c_contiguous:
        raise _value_error("out must be C-contiguous")
    if not out.flags.writeable:
        raise _value_error("out is read-only")
    if np.may_share_memory(out, x):
        raise _value_error("out shares memory with the input")
    return out


def _int(name, v):
    if isinstance(v, (bool, np.bool_)):
        raise TypeError("%s must be integers, not %r" % (name, v))
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError("%s must be integers, not %r" % (name, v)) from None


def _axes(name, values, n, default=None, broadcast_one=False):
    """A list of n ints from an int (every axis), a sequence, or None (default)."""
    if values is None:
        if default is None:
            raise _value_error("%s is required" % name)
        return [default] * n
    if np.ndim(values) == 0:
        return [_int(name, values)] * n
    if isinstance(values, np.ndarray):
        values = values.tolist()
    seq = [_int(name, v) for v in values]
    if broadcast_one and len(seq) == 1:
        return seq * n
    if len(seq) != n:
        raise _value_error("%s has %d value%s but %s" % (
            name, len(seq), "" if len(seq) == 1 else "s",
            "the array has %d axes" % n if not broadcast_one else "there are %d axes" % n))
    return seq


def _i64(values, min_len=1):
    arr = (ctypes.c_int64 * max(len(values), min_len))()
    for i, v in enumerate(values):
        if not -(1 << 63) <= v < (1 << 63):
            raise ClpadValueError("%d does not fit in int64" % v, -4, "CLPAD_ERR_OVERFLOW")
        arr[i] = v
    return arr


def _opt_i64(values):
    return None if values is None else _i64(values)


def _shape_tuple(arr, n):
    return tuple(int(arr[i]) for i in range(n))


def _scalar_bytes(value, dt, code):
    """The bytes of one element of dtype dt equal to value (see pad())."""
    size = dt.itemsize
    if type(value) is int and value == 0:  # the default: all-zero bits in every dtype
        return bytes(size)
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str):
        buf = ctypes.create_string_buffer(8)
        _check(_lib.lib().clpad_scalar_parse(code, value.encode(), buf))
        return buf.raw[:size]
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise _value_error("value must be a scalar, not an array of shape %s"
                               % (value.shape,))
        value = value[()]
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        raise _value_error("value %r is complex; clpad pads real dtypes" % (value,))
    if not isinstance(value, (numbers.Real, np.bool_)):
        raise TypeError("value must be a number or a string, not %r" % (value,))

    if code == _BOOL:
        if isinstance(value, (bool, np.bool_)):
            b = bool(value)
        elif value == 0 or value == 1:
            b = bool(value)
        else:
            raise _value_error("value %r does not fit in bool (0, 1, True, False)" % (value,))
        return np.array(b, dtype=dt).tobytes()

    if dt.kind in "iu":
        if isinstance(value, (bool, np.bool_, numbers.Integral)):
            iv = int(value)
        else:
            f = float(value)
            if not math.isfinite(f) or not f.is_integer():
                raise _value_error("value %r is not an integer, as %s needs" % (value, dt))
            iv = int(f)
        info = np.iinfo(dt)
        if not info.min <= iv <= info.max:
            raise _value_error("value %d does not fit in %s (%d..%d)"
                               % (iv, dt, info.min, info.max))
        return np.array(iv, dtype=dt).tobytes()

    # floating point: numpy's rounding of the value to dt
    try:
        with np.errstate(all="ignore"):
            arr = np.array(value, dtype=dt)
    except OverflowError:
        raise _value_error("value %r overflows %s" % (value, dt)) from None
    finite_in = math.isfinite(float(value)) if not isinstance(value, numbers.Integral) \
        else True
    if finite_in and not np.isfinite(arr.astype(np.float64)):
        raise _value_error("value %r overflows %s (rounds to infinity)" % (value, dt))
    return arr.tobytes()


def _pad_mode(mode):
    if not isinstance(mode, str):
        raise TypeError("mode must be a string, not %r" % (mode,))
    out = ctypes.c_int()
    _check(_lib.lib().clpad_pad_mode_from_name(mode.encode(), ctypes.byref(out)))
    return out.value


# --------------------------------------------------------------------------
# Devices and contexts
# --------------------------------------------------------------------------

_DEVICE_TYPES = ((4, "GPU"), (8, "ACCELERATOR"), (2, "CPU"), (16, "CUSTOM"), (1, "DEFAULT"))


class Device(NamedTuple):
    """One OpenCL device, as ``clpad devices`` lists it."""

    platform_index: int
    device_index: int
    platform: str
    name: str
    version: str
    type: str
    host_unified_memory: bool
    compute_units: int
    global_mem_bytes: int

    @property
    def spec(self):
        """The ``"P:D"`` device spec that selects this device."""
        return "%d:%d" % (self.platform_index, self.device_index)


def devices():
    """The OpenCL devices of every platform, as a list of :class:`Device`
    (empty when there is no OpenCL platform)."""
    lib = _lib.lib()
    count = ctypes.c_size_t()
    _check(lib.clpad_devices(None, 0, ctypes.byref(count)))
    if count.value == 0:
        return []
    infos = (_lib.DeviceInfo * count.value)()
    _check(lib.clpad_devices(infos, count.value, ctypes.byref(count)))
    result = []
    for info in infos[: count.value]:
        kind = "+".join(n for bit, n in _DEVICE_TYPES if info.type & bit) or str(info.type)
        result.append(Device(
            int(info.platform_index), int(info.device_index),
            info.platform_name.decode("utf-8", "replace"),
            info.device_name.decode("utf-8", "replace"),
            info.device_version.decode("utf-8", "replace"),
            kind, bool(info.host_unified_memory), int(info.compute_units),
            int(info.global_mem_bytes)))
    return result


_CONTEXT_QUIET = 1 << 1
_CONTEXT_CPU_ONLY = 1 << 2

_contexts = {}
_contexts_lock = threading.Lock()


def _device_key(device):
    if device is None:
        return None
    if isinstance(device, Device):
        return device.spec
    if isinstance(device, str):
        spec = device.strip()
        if not spec:
            return None
        return REFERENCE if spec.lower() == REFERENCE else spec
    raise TypeError("device must be None, a string spec or a clpad.Device, not %r" % (device,))


def _context(device=None):
    """The context for `device`, created on first use and then reused."""
    key = _device_key(device)
    ctx = _contexts.get(key)
    if ctx is not None:
        return ctx
    with _contexts_lock:
        ctx = _contexts.get(key)
        if ctx is not None:
            return ctx
        lib = _lib.lib()
        handle = ctypes.c_void_p()
        if key == REFERENCE:
            _check(lib.clpad_context_create(None, _CONTEXT_CPU_ONLY | _CONTEXT_QUIET,
                                            ctypes.byref(handle)))
        else:
            spec = None if key is None else key.encode()
            _check(lib.clpad_context_create(spec, _CONTEXT_QUIET, ctypes.byref(handle)))
            if key is None and lib.clpad_context_is_fallback(handle):
                warnings.warn("clpad: no OpenCL device; running the CPU reference path",
                              RuntimeWarning, stacklevel=3)
        _contexts[key] = handle
        return handle


@atexit.register
def _destroy_contexts():
    with _contexts_lock:
        if _lib._loaded is not None:
            for handle in _contexts.values():
                _lib._loaded.clpad_context_destroy(handle)
        _contexts.clear()


def context_info(device=None):
    """What `device` resolves to: ``{"device": name, "platform": name,
    "fallback": bool}`` (fallback: the CPU reference path, no OpenCL)."""
    lib = _lib.lib()
    ctx = _context(device)
    return {
        "device": (lib.clpad_context_device_name(ctx) or b"").decode("utf-8", "replace"),
        "platform": (lib.clpad_context_platform_name(ctx) or b"").decode("utf-8", "replace"),
        "fallback": bool(lib.clpad_context_is_fallback(ctx)),
    }


def warmup(device=None):
    """Compile every OpenCL program clpad may need on `device` now (a no-op for
    the CPU reference path), so that the first call does not pay for it."""
    ctx = _context(device)
    if not _lib.lib().clpad_context_is_fallback(ctx):
        _check(_lib.lib().clpad_context_warmup(ctx))


def library_path():
    """The path of the loaded libclpad."""
    return _lib.lib()._clpad_path


def library_version():
    """The loaded library's version, "MAJOR.MINOR.PATCH"."""
    return _lib.lib().clpad_version_string().decode()


# --------------------------------------------------------------------------
# Operations
# --------------------------------------------------------------------------

def pad(x, pads_begin, pads_end, mode="constant", value=0, device=None, out=None):
    """Pad (or, with negative pads, crop) every axis of `x`, as OpenVINO Pad-12.

    pads_begin, pads_end: one integer per axis of `x` (or one int for every
        axis): elements added before / after the data; negative values remove
        elements. Output shape per axis: max(pads_begin + D + pads_end, 0).
    mode: "constant", "edge", "reflect" (mirror without the edge, pads <= D-1),
        "symmetric" (mirror with the edge, pads <= D) or "wrap" (periodic).
        Mirrors and edges come from the original input even where negative
        pads crop (OpenVINO and PyTorch semantics; numpy.pad has no crops).
    value: the constant for mode="constant": the exact bits of
        ``np.array(value, dtype=x.dtype)``, except that an integer dtype
        rejects values that do not fit or are not integers, bool accepts only
        0/1/True/False, and a finite value that rounds to infinity is
        rejected. A string is parsed exactly by clpad, as the CLI's --value
        ("9007199254740993", "-0.0", "nan", "0x1p-3"). Any other mode needs 0.
    device: see the module documentation.
    out: an array to write the result into instead of a new one (of the
        result's shape and x's native dtype, C-contiguous, writeable, not
        sharing memory with x): reusing it spares allocating, and first
        touching, fresh memory on every call.

    Returns a new array of x's dtype (or `out`). Raises ClpadValueError (limits broken,
    e.g. "pads_end[1] = 4 exceeds the reflect limit D-1 = 3") or
    ClpadRuntimeError (device failures).
    """
    x, code = _prepare(x)
    rank = x.ndim
    pb = _axes("pads_begin", pads_begin, rank)
    pe = _axes("pads_end", pads_end, rank)
    mode_code = _pad_mode(mode)
    value_bytes = _scalar_bytes(value, x.dtype, code)
    if mode_code != 0 and any(value_bytes):
        raise _value_error("value is only used by mode='constant', not %r; leave it 0"
                           % (mode,))
    lib = _lib.lib()
    shape, c_pb, c_pe = _i64(x.shape), _i64(pb), _i64(pe)
    out_shape = _i64([0] * rank)
    _check(lib.clpad_pad_output_shape(rank, shape, c_pb, c_pe, mode_code, out_shape))
    out = _output(out, _shape_tuple(out_shape, rank), x.dtype, x)
    value_buf = ctypes.create_string_buffer(value_bytes, 8)
    ctx = _context(device)
    _check(lib.clpad_pad(ctx, code, rank, shape, x.ctypes.data, c_pb, c_pe, mode_code,
                         value_buf, out.ctypes.data, out.nbytes, None))
    return out


def _space_batch(fn_shape, fn_run, x, block_shape, begin, end, names, device, out):
    x, code = _prepare(x)
    rank = x.ndim
    if rank < 2:
        raise _value_error("x must have at least 2 axes [N, D1, ...], not %d" % rank)
    block = _axes("block_shape", block_shape, rank)
    b = _axes(names[0], begin, rank, default=0)
    e = _axes(names[1], end, rank, default=0)
    lib = _lib.lib()
    shape, c_block, c_b, c_e = _i64(x.shape), _i64(block), _i64(b), _i64(e)
    out_shape = _i64([0] * rank)
    _check(getattr(lib, fn_shape)(rank, shape, c_block, c_b, c_e, out_shape))
    out = _output(out, _shape_tuple(out_shape, rank), x.dtype, x)
    ctx = _context(device)
    _check(getattr(lib, fn_run)(ctx, code, rank, shape, x.ctypes.data, c_block, c_b, c_e,
                                out.ctypes.data, out.nbytes, None))
    return out


def space_to_batch(x, block_shape, pads_begin=None, pads_end=None, device=None, out=None):
    """OpenVINO SpaceToBatch-2: zero-pad `x` [N, D1, ...] and move blocks of
    the spatial axes into the batch axis.

    block_shape: one int per axis, block_shape[0] == 1, each >= 1, and B_i
    divides D_i + pads_begin[i] + pads_end[i]. pads (default 0): >= 0, 0 on
    axis 0. Output: [N * prod(block_shape), (D1+P1+E1)/B1, ...], the block
    offsets outer and the original batch inner. out: as for :func:`pad`.
    """
    return _space_batch("clpad_space_to_batch_output_shape", "clpad_space_to_batch", x,
                        block_shape, pads_begin, pads_end, ("pads_begin", "pads_end"), device,
                        out)


def batch_to_space(x, block_shape, crops_begin=None, crops_end=None, device=None, out=None):
    """OpenVINO BatchToSpace-2, the inverse of :func:`space_to_batch`: move the
    block offsets of the batch axis of `x` [N', D1, ...] back into the spatial
    axes, then crop. Output: [N' / prod(block_shape), D1*B1 - C1 - E1, ...].
    With the same block shape and crops = pads, it returns the input of
    space_to_batch. out: as for :func:`pad`.
    """
    return _space_batch("clpad_batch_to_space_output_shape", "clpad_batch_to_space", x,
                        block_shape, crops_begin, crops_end, ("crops_begin", "crops_end"),
                        device, out)


# --------------------------------------------------------------------------
# Window geometry (clpad_window.h)
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class WindowGeometry:
    """Per-axis geometry of a convolution / deconvolution / pooling window.

    For conv and pool, pads_begin / pads_end are the elements added before /
    after the data; for deconv, what is cropped from the full transposed
    output of length (I-1)*S + DK (negative: zeros appended).
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
    def onnx_pads(self):
        """ONNX flat pads [x1_begin, x2_begin, ..., x1_end, x2_end, ...]."""
        return list(self.pads_begin) + list(self.pads_end)

    def tensor_pads(self, layout=None, rank=None, first_axis=None):
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
                raise _value_error("give layout or first_axis, not both")
            out = ctypes.c_int()
            _check(_lib.lib().clpad_tf_layout_from_name(str(layout).encode(),
                                                        ctypes.byref(out)))
            first_axis = 1 if out.value == 0 else 2
        if first_axis is None:
            raise _value_error("tensor_pads needs layout= or first_axis=")
        if rank is None:
            rank = naxes + 2
        rank, first_axis = _int("rank", rank), _int("first_axis", first_axis)
        n = max(rank, 1)
        pb, pe = (ctypes.c_int64 * n)(), (ctypes.c_int64 * n)()
        _check(_lib.lib().clpad_window_tensor_pads(ctypes.byref(self._raw), rank, first_axis,
                                                   pb, pe))
        return [int(v) for v in pb[:rank]], [int(v) for v in pe[:rank]]


def _enum(fn_name, text, what):
    if not isinstance(text, str):
        raise TypeError("%s must be a string, not %r" % (what, text))
    out = ctypes.c_int()
    _check(getattr(_lib.lib(), fn_name)(text.encode(), ctypes.byref(out)))
    return out.value


_CONVENTION_ARGS = {
    "tensorrt": {"pads_begin", "pads_end"},
    "tf": {"pads_begin", "pads_end", "output_shape"},
    "onnx": {"pads", "pads_begin", "pads_end", "ceil_mode", "output_padding", "output_shape"},
    "openvino": {"pads_begin", "pads_end", "rounding", "output_padding", "output_shape"},
    "torch": {"ceil_mode", "output_padding"},
}


def window_geometry(op, input, kernel, stride=None, dilation=None, *, tensorrt=None, tf=None,
                    onnx=None, openvino=None, torch=None, pads_begin=None, pads_end=None,
                    pads=None, ceil_mode=False, rounding=None, output_padding=None,
                    output_shape=None):
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
    output_padding: deconv (onnx, openvino, torch). output_shape: deconv (tf,
        onnx, openvino).

    Returns a :class:`WindowGeometry`; raises ClpadValueError with clpad's
    message when the window is invalid in that convention.
    """
    given = {k: v for k, v in (("tensorrt", tensorrt), ("tf", tf), ("onnx", onnx),
                               ("openvino", openvino), ("torch", torch)) if v is not None}
    if len(given) != 1:
        raise _value_error("give exactly one convention: tensorrt=, tf=, onnx=, openvino= "
                           "or torch= (got %s)" % (", ".join(sorted(given)) or "none"))
    (conv, mode), = given.items()
    extras = {"pads_begin": pads_begin, "pads_end": pads_end, "pads": pads,
              "ceil_mode": ceil_mode or None, "rounding": rounding,
              "output_padding": output_padding, "output_shape": output_shape}
    for name, v in extras.items():
        if v is not None and name not in _CONVENTION_ARGS[conv]:
            raise _value_error("%s= does not apply to %s=; it takes %s"
                               % (name, conv, ", ".join(sorted(_CONVENTION_ARGS[conv]))))

    op_code = _enum("clpad_window_op_from_name", op, "op")
    inp = [_int("input", v) for v in (input if np.ndim(input) else [input])]
    n = len(inp)
    if not 1 <= n <= MAX_RANK:
        raise _value_error("input has %d axes; clpad takes 1..%d" % (n, MAX_RANK))

    def axes(name, values):
        return None if values is None else _i64(_axes(name, values, n, broadcast_one=True))

    c_in, c_k = _i64(inp), axes("kernel", kernel)
    if c_k is None:
        raise _value_error("kernel is required")
    c_s, c_d = axes("stride", stride), axes("dilation", dilation)
    c_pb, c_pe = axes("pads_begin", pads_begin), axes("pads_end", pads_end)
    c_op, c_os = axes("output_padding", output_padding), axes("output_shape", output_shape)
    res = _lib.WindowResult()
    lib = _lib.lib()
    if conv == "tensorrt":
        m = _enum("clpad_trt_padding_from_name", mode, "tensorrt")
        _check(lib.clpad_window_tensorrt(op_code, m, n, c_in, c_k, c_s, c_d, c_pb, c_pe,
                                         ctypes.byref(res)))
    elif conv == "tf":
        m = _enum("clpad_tf_padding_from_name", mode, "tf")
        _check(lib.clpad_window_tf(op_code, m, n, c_in, c_k, c_s, c_d, c_pb, c_pe, c_os,
                                   ctypes.byref(res)))
    elif conv == "onnx":
        m = _enum("clpad_onnx_auto_pad_from_name", mode, "onnx")
        if pads is not None and (pads_begin is not None or pads_end is not None):
            raise _value_error("give pads= or pads_begin=/pads_end=, not both")
        c_pads = None
        if pads is not None:
            flat = [_int("pads", v) for v in (pads if np.ndim(pads) else [pads])]
            if len(flat) == 1:
                flat = flat * (2 * n)
            if len(flat) != 2 * n:
                raise _value_error("pads has %d values; ONNX needs 2 x %d" % (len(flat), n))
            c_pads = _i64(flat)
        elif c_pb is not None or c_pe is not None:
            c_pads = _i64(_axes("pads_begin", pads_begin, n, default=0, broadcast_one=True)
                          + _axes("pads_end", pads_end, n, default=0, broadcast_one=True))
        _check(lib.clpad_window_onnx(op_code, m, n, c_in, c_k, c_s, c_d, c_pads,
                                     1 if ceil_mode else 0, c_op, c_os, ctypes.byref(res)))
    elif conv == "openvino":
        m = _enum("clpad_ov_auto_pad_from_name", mode, "openvino")
        r = _enum("clpad_ov_rounding_from_name", rounding if rounding is not None else "floor",
                  "rounding")
        _check(lib.clpad_window_openvino(op_code, m, r, n, c_in, c_k, c_s, c_d, c_pb, c_pe,
                                         c_op, c_os, ctypes.byref(res)))
    else:  # torch
        c_padding = None
        if isinstance(mode, str):
            m = _enum("clpad_torch_padding_from_name", mode, "torch")
        else:
            m = 0  # CLPAD_TORCH_EXPLICIT
            c_padding = axes("torch padding", mode)
        _check(lib.clpad_window_torch(op_code, m, n, c_in, c_k, c_s, c_d, c_padding,
                                      1 if ceil_mode else 0, c_op, ctypes.byref(res)))

    def tup(arr):
        return tuple(int(v) for v in arr[:n])

    op_name = (lib.clpad_window_op_name(res.op) or b"").decode()
    return WindowGeometry(op_name, tup(res.input), tup(res.extent), tup(res.stride),
                          tup(res.output), tup(res.pads_begin), tup(res.pads_end), res)
