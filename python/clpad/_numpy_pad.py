"""numpy.pad's options beyond clpad's kernel modes, in clpad.pad's numpy form
(and numpy.pad's other modes in OpenVINO's form too, with pads >= 0).

Where each runs:

- ``constant_values`` per axis and per side (``((b0, a0), (b1, a1))``,
  ``(b, a)``, ...): on the device, in one call (the C option
  ``clpad_pad_options.side_values``: Pad's launch, then one that writes each
  padded element the value of the last axis padding it); for a pyopencl
  array, as a composition of clpad's constant pad launches in numpy's
  order. numpy pads axis 0, then axis 1 on the result, and
  so on, so a corner takes the value of the last axis whose pad covers it.
  The sides (axis 0 before, axis 0 after, axis 1 before, ...) with a pad run
  in that order, consecutive sides with the same value in one launch (all the
  sides in one launch when every value is the same); each launch pads the
  previous result, so the result is numpy's exactly (and each launch copies
  the array: k runs cost about k single pads). The values are numpy's:
  each side's value is what ``numpy.pad`` writes there for the array's dtype
  (its broadcasting and its casting: 300 on uint8 is 44, 1.7 on int8 is 1).
- ``maximum``, ``minimum``, ``mean``, ``median`` (``stat_length``): on the
  device (the C function ``clpad_pad_numpy``), numpy's algorithm and results
  bit for bit: integer means and medians in float64 rounded half to even,
  float sums in the array's type in numpy's order (pairwise along the
  innermost axis, one element after the other along the others); a NaN
  result is the type's quiet NaN. bool, float16 and bfloat16 arrays, a
  stat_length of 0 and empty arrays go to ``numpy.pad`` on the host.
- ``empty``: on the device, as a constant pad of 0 (numpy leaves the pads
  uninitialised; zeros are one such result).
- ``reflect_type="odd"`` (reflect and symmetric): on the device (the C
  function ``clpad_pad_numpy``, modes ``CLPAD_NUMPY_REFLECT_ODD`` and
  ``CLPAD_NUMPY_SYMMETRIC_ODD``), numpy's chunk-by-chunk mirroring, each
  value ``2 * edge - mirror`` in the array's dtype (integers wrap, as
  numpy's); bool, float16, bfloat16 and empty arrays: ``numpy.pad``.
- ``linear_ramp`` (``end_values``): on the device (the C function
  ``clpad_pad_linear_ramp``), numpy's ``np.linspace`` arithmetic bit for
  bit, in numpy's computation type (float64, or float32 for a float32 array
  with a per-axis table of Python numbers), including its rule for a zero
  step; end values outside an integer dtype's range (or not exact in the
  computation type), 64-bit integers beyond +-2^53, non-finite floats and
  bool/float16/bfloat16 arrays go to ``numpy.pad`` (numpy's own conversion
  is platform-defined there).
- a callable mode (with its keyword arguments): on the host, by
  ``numpy.pad`` itself, so that the result is numpy's bit for bit.

On a device without doubles (cl_khr_fp64), the calls computed in float64
(float64 arrays, integer means and medians, float64 ramps) run ``numpy.pad``
on the host instead.

The input of all of these is read as clpad reads it (NumPy, DLPack,
``__array_interface__``); ``out=`` is written; a pyopencl array is refused
(the statistics run through the host-pointer call, the rest on the host).
"""

from __future__ import annotations

import ctypes
import warnings
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _args, _pyopencl
from ._errors import UNSUPPORTED, ClpadValueError, value_error

#: numpy.pad's modes that clpad.pad computes with numpy.pad on the host.
HOST_MODES = ("linear_ramp", "maximum", "mean", "median", "minimum", "empty")
_STAT = ("maximum", "mean", "median", "minimum")
_MIRRORS = ("reflect", "symmetric")


def _name(mode: Any) -> Optional[str]:
    """numpy's name of a mode string ("np:" prefix and case dropped), else None."""
    if not isinstance(mode, str):
        return None
    m = mode.lower()
    return m[3:] if m.startswith("np:") else m


def wants(pad_width: Any, args: Tuple[Any, ...], mode: Any, value: Any, reflect_type: Any,
          stat_length: Any, end_values: Any, kwargs: Dict[str, Any], other: bool) -> bool:
    """Whether a clpad.pad call is one this module computes: numpy's form
    (pad_width, one mode), with a numpy-only mode or option or a pad value.
    other: whether an option of OpenVINO's form or of clpad's own was given
    (pads_begin, axes, to_multiple, ...): then clpad.pad's checks say what is
    wrong, here nothing is taken."""
    if pad_width is None or other or len(args) > 1:
        return False
    if args:
        if mode is not None:
            return False
        mode = args[0]
    if callable(mode):
        return True
    if stat_length is not None or end_values is not None or kwargs:
        return True  # (mode and option checked, as numpy does, in run())
    name = _name("constant" if mode is None else mode)
    if name in HOST_MODES:
        return True
    if reflect_type is not None and reflect_type != "even" and name in _MIRRORS:
        return True
    if name == "constant" and value is not None and not isinstance(value, (str, bytes)):
        return True
    return False


def host_mode(mode: Any) -> bool:
    """Whether mode is one numpy.pad computes here (a numpy-only name or a function)."""
    return callable(mode) or _name(mode) in HOST_MODES


def openvino_pad_width(array: Any, pads_begin: Any, pads_end: Any,
                       mode: Any) -> List[Tuple[int, int]]:
    """OpenVINO's pads_begin / pads_end as numpy's pad_width, for a mode
    numpy.pad computes: pads >= 0 only (cropping is for the kernel modes)."""
    shape = getattr(array, "shape", None)
    rank = len(shape) if shape is not None else int(np.ndim(array))
    pb = _args.axes("pads_begin", pads_begin, rank, default=0)
    pe = _args.axes("pads_end", pads_end, rank, default=0)
    for name, pads in (("pads_begin", pb), ("pads_end", pe)):
        for i, v in enumerate(pads):
            if v < 0:
                raise value_error("%s[%d] = %d: mode=%r (numpy.pad's) takes pads >= 0; "
                                  "negative pads crop in the modes 'constant', 'edge', "
                                  "'reflect', 'symmetric' and 'wrap' only"
                                  % (name, i, v, getattr(mode, "__name__", mode)))
    return list(zip(pb, pe))


def _host_input(array: Any, what: str) -> "np.ndarray[Any, Any]":
    if _pyopencl.is_device_array(array):
        raise value_error("%s runs on the host (numpy.pad's algorithm), not on a device "
                          "array: pass x.get(), or a mode clpad's kernels have ('constant', "
                          "'edge', 'reflect', 'symmetric', 'wrap')" % what, UNSUPPORTED)
    x, _ = _args.prepare(array)
    return x


def _numpy_error(e: Exception, what: str, kw: Dict[str, Any]) -> Exception:
    """numpy.pad's ValueError as a ClpadValueError naming the mode and the
    options given (other errors unchanged)."""
    if isinstance(e, ValueError) and not isinstance(e, ClpadValueError):
        given = "".join(", %s=%r" % (k, v) for k, v in sorted(kw.items()))
        return value_error("%s%s: numpy.pad: %s" % (what, given, e))
    return e


def run(pad_fn: Any, array: Any, pad_width: Any, args: Tuple[Any, ...], mode: Any, value: Any,
        reflect_type: Any, stat_length: Any, end_values: Any, kwargs: Dict[str, Any],
        device: Any, queue: Any, out: Any) -> Any:
    """clpad.pad of a call `wants` took; pad_fn: clpad.pad itself (for the
    device launches)."""
    from ._pad import host_output, pad_width_pairs
    if args:
        mode = args[0]
    if mode is None:
        mode = "constant"
    name = None if callable(mode) else _name(mode)
    if not callable(mode) and not isinstance(mode, str):
        raise TypeError("mode must be a string or a function, not %r" % (mode,))
    if kwargs and not callable(mode):
        raise TypeError("pad() got an unexpected keyword argument %r (keyword arguments "
                        "beyond clpad.pad's go to a callable mode)" % sorted(kwargs)[0])
    if stat_length is not None and name not in _STAT:
        raise value_error("stat_length applies to mode 'maximum', 'minimum', 'mean' and "
                          "'median' (as numpy.pad), not %r" % (mode,))
    if end_values is not None and name != "linear_ramp":
        raise value_error("end_values applies to mode 'linear_ramp' (as numpy.pad), not %r"
                          % (mode,))
    if reflect_type is not None and name not in _MIRRORS:
        raise value_error("reflect_type applies to mode='reflect' and 'symmetric' only")
    if reflect_type not in (None, "even", "odd"):
        raise value_error("reflect_type=%r: give 'even' or 'odd'" % (reflect_type,))
    if value is not None and name != "constant":
        return None  # (clpad.pad says that the mode takes no value)

    if name == "constant":
        return _constant(pad_fn, array, pad_width, value, device, queue, out)
    if name == "empty" and not _pyopencl.is_device_array(array):
        # numpy leaves the pads uninitialised; zeros are one such result
        x, _ = _args.prepare(array)
        if x.ndim > 0:
            pairs = pad_width_pairs(pad_width, x.ndim)
            where: Dict[str, Any] = {"queue": queue} if queue is not None else {"device": device}
            return pad_fn(x, pads_begin=[b for b, _ in pairs], pads_end=[a for _, a in pairs],
                          out=out, **where)

    what = "mode=%r" % (name if name is not None else getattr(mode, "__name__", "function"))
    if reflect_type == "odd":
        what += " with reflect_type='odd'"
    x = _host_input(array, what)
    pairs = pad_width_pairs(pad_width, x.ndim)
    kw: Dict[str, Any] = dict(kwargs)
    if stat_length is not None:
        kw["stat_length"] = stat_length
    if end_values is not None:
        kw["end_values"] = end_values
    if reflect_type is not None:
        kw["reflect_type"] = reflect_type
    if name in _STAT and queue is None and not kwargs:
        got = _stat_on_device(x, pairs, name, stat_length, device, out)
        if got is not None:
            return got
    if name == "linear_ramp" and queue is None and not kwargs:
        got = _ramp_on_device(x, pairs, end_values, device, out)
        if got is not None:
            return got
    if name in _MIRRORS and reflect_type == "odd" and queue is None and not kwargs:
        got = _numpy_on_device(x, pairs, name.upper() + "_ODD", None, device, out)
        if got is not None:
            return got
    try:
        np_pad: Any = np.pad  # (numpy's stubs type one mode per call)
        got = np_pad(x, pairs, mode if callable(mode) else name, **kw)
    except (ValueError, TypeError) as e:
        raise _numpy_error(e, what, kw) from None
    if out is None:
        return got
    result = host_output(out, got.shape, got.dtype, x)
    np.copyto(result, got)
    return result


#: the dtypes the device's statistic modes take (numpy kind, itemsize)
_STAT_DTYPES = {("i", 1), ("i", 2), ("i", 4), ("i", 8), ("u", 1), ("u", 2), ("u", 4), ("u", 8),
                ("f", 4), ("f", 8)}


def _stat_lengths(stat_length: Any, rank: int) -> Optional[List[Tuple[int, int]]]:
    """numpy.pad's stat_length as (before, after) per axis, -1 for the whole
    axis (None); None where numpy would refuse it or give no number (0, a
    negative length, a shape that does not broadcast), for numpy.pad to say
    so."""
    if stat_length is None:
        return [(-1, -1)] * rank
    try:
        x = np.round(np.array(stat_length)).astype(np.intp)
    except (TypeError, ValueError):
        return None
    if x.size == 0 or (x < 1).any():
        return None
    if x.size == 1:
        v = int(x.ravel()[0])
        return [(v, v)] * rank
    if x.size == 2 and x.shape != (2, 1):
        b, a = (int(v) for v in x.ravel())
        return [(b, a)] * rank
    try:
        pairs = np.broadcast_to(x, (rank, 2)).tolist()
    except ValueError:
        return None
    return [(int(b), int(a)) for b, a in pairs]


def _stat_on_device(x: "np.ndarray[Any, Any]", pairs: List[Tuple[int, int]], name: str,
                    stat_length: Any, device: Any, out: Any) -> Any:
    """numpy.pad's statistic mode `name` by clpad_pad_numpy (on the device),
    or None where numpy.pad is to run (a dtype the kernels lack, a 0-d or
    empty array, a stat_length numpy refuses or that selects nothing)."""
    lengths = _stat_lengths(stat_length, x.ndim)
    if lengths is None:
        return None
    return _numpy_on_device(x, pairs, name.upper(), lengths, device, out)


def _numpy_on_device(x: "np.ndarray[Any, Any]", pairs: List[Tuple[int, int]], mode_name: str,
                     lengths: Optional[List[Tuple[int, int]]], device: Any, out: Any) -> Any:
    """clpad_pad_numpy's mode CLPAD_NUMPY_<mode_name> (on the device), or
    None where numpy.pad is to run (a dtype the kernels lack, a 0-d or empty
    array, a negative pad)."""
    from . import _context, _lib
    from ._pad import host_output
    rank = x.ndim
    if (x.dtype.kind, x.dtype.itemsize) not in _STAT_DTYPES or rank == 0 or x.size == 0:
        return None
    if any(b < 0 or a < 0 for b, a in pairs):
        return None
    if lengths is None:
        lengths = [(-1, -1)] * rank
    out_shape = tuple(d + b + a for d, (b, a) in zip(x.shape, pairs))
    result = host_output(out, out_shape, x.dtype, x)
    c = _args.i64
    mode = _lib.constant("CLPAD_NUMPY_" + mode_name)
    if not _device_ran(lambda: _lib.lib().clpad_pad_numpy(
            _context.context(device), _args.dtype_code(x.dtype), rank, c(list(x.shape)),
            x.ctypes.data, c([b for b, _ in pairs]), c([a for _, a in pairs]), mode,
            c([b for b, _ in lengths]), c([a for _, a in lengths]), result.ctypes.data,
            result.nbytes, None)):
        return None
    return result


def _device_ran(call: Any) -> bool:
    """Run a clpad_pad_numpy-family call; False where the device cannot
    (CLPAD_ERR_UNSUPPORTED: no doubles for a call computed in float64), for
    numpy.pad to run on the host; other errors raise."""
    from ._errors import ClpadError, check
    try:
        check(call())
    except ClpadError as e:
        if e.status_name == "CLPAD_ERR_UNSUPPORTED":
            return False
        raise
    return True


def _ramp_on_device(x: "np.ndarray[Any, Any]", pairs: List[Tuple[int, int]], end_values: Any,
                    device: Any, out: Any) -> Any:
    """numpy.pad's linear_ramp by clpad_pad_linear_ramp (on the device), or
    None where numpy.pad is to run. The end values are numpy.pad's own
    (_as_pairs in numpy's lib/_arraypad_impl.py broadcasts them: one or two
    values stay NumPy scalars, a per-axis table becomes Python numbers), and
    so is the computation type: np.linspace's, read from np.linspace itself
    on a one-element edge (float64; float32 for a float32 array with Python
    numbers). The device takes the calls whose result numpy defines: end
    values exact in that type, within an integer dtype's range (64-bit
    integers: values within +-2^53), finite values of float arrays."""
    from . import _context, _lib
    from ._pad import host_output
    rank = x.ndim
    if (x.dtype.kind, x.dtype.itemsize) not in _STAT_DTYPES or rank == 0 or x.size == 0:
        return None
    if any(b < 0 or a < 0 for b, a in pairs):
        return None
    try:
        from numpy.lib._arraypad_impl import _as_pairs  # type: ignore[attr-defined]  # numpy 2
    except ImportError:  # pragma: no cover (numpy 1.x)
        try:
            from numpy.lib.arraypad import _as_pairs  # type: ignore
        except ImportError:
            return None
    try:
        ev = _as_pairs(0 if end_values is None else end_values, rank)
    except (ValueError, TypeError):
        return None  # (numpy.pad says what is wrong)
    edge = np.zeros((1,), x.dtype)
    types, values = set(), []
    for b, a in ev:
        side = []
        for v in (b, a):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    dt = np.linspace(v, edge, 1, endpoint=False, axis=0).dtype
                    sv = np.array(v).astype(dt)
            except (ValueError, TypeError, OverflowError):
                return None
            if dt not in (np.dtype(np.float64), np.dtype(np.float32)) or np.array(v).ndim:
                return None
            f = float(sv)
            if not np.isfinite(f) or f != v:
                return None  # (numpy's rounding of the value itself: left to numpy)
            types.add(dt)
            side.append(f)
        values.append(side)
    if len(types) != 1:
        return None
    f32 = types.pop() == np.dtype(np.float32)
    if x.dtype.kind == "f":
        if not np.isfinite(x).all():
            return None
    else:
        info = np.iinfo(x.dtype)
        lo, hi = float(info.min), float(info.max)
        if x.dtype.itemsize == 8:
            lo, hi = max(lo, -2.0**53), min(hi, 2.0**53)
            if int(x.min()) < lo or int(x.max()) > hi:
                return None
        if any(not lo <= v <= hi for side in values for v in side):
            return None
    out_shape = tuple(d + b + a for d, (b, a) in zip(x.shape, pairs))
    result = host_output(out, out_shape, x.dtype, x)
    c = _args.i64
    dbl = ctypes.c_double * rank
    if not _device_ran(lambda: _lib.lib().clpad_pad_linear_ramp(
            _context.context(device), _args.dtype_code(x.dtype), rank, c(list(x.shape)),
            x.ctypes.data, c([b for b, _ in pairs]), c([a for _, a in pairs]),
            dbl(*[s[0] for s in values]), dbl(*[s[1] for s in values]), int(f32),
            result.ctypes.data, result.nbytes, None)):
        return None
    return result


def side_values(dt: "np.dtype[Any]", rank: int, value: Any) -> List[List[Any]]:
    """numpy.pad's value of each side, [axis][0 before, 1 after], as NumPy
    scalars of dt: read from numpy.pad's own result on a one-element array of
    dt (every side's value is where numpy writes it, cast as numpy casts)."""
    probe = np.zeros((1,) * rank, dtype=dt)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (numpy's casting warnings: its result is kept)
            p = np.pad(probe, 1, mode="constant", constant_values=value)
    except (ValueError, TypeError, OverflowError) as e:
        raise value_error("constant_values=%r for %s: numpy.pad: %s" % (value, dt, e)) from None
    out = []
    for i in range(rank):
        idx = [1] * rank
        sides = []
        for s in (0, 2):
            idx[i] = s
            sides.append(p[tuple(idx)])
        out.append(sides)
    return out


def _py(v: Any) -> Any:
    """A NumPy scalar as the Python number clpad.pad takes exactly."""
    kind = np.dtype(type(v)).kind if not isinstance(v, np.generic) else v.dtype.kind
    if kind == "b":
        return bool(v)
    if kind in "iu":
        return int(v)
    return float(v)  # float16/32/64 and bfloat16: exact in a Python float


def _constant(pad_fn: Any, array: Any, pad_width: Any, value: Any, device: Any, queue: Any,
              out: Any) -> Any:
    from ._pad import pad_width_pairs
    if _pyopencl.is_device_array(array):
        x = array
        dt, rank = np.dtype(array.dtype), len(array.shape)
    else:
        x, _ = _args.prepare(array)
        dt, rank = x.dtype, x.ndim
    _args.dtype_code(dt)
    _args.check_rank(rank)
    if rank == 0:
        return None  # (numpy.pad returns a 0-d array as it is: clpad.pad's general path)
    pairs = pad_width_pairs(pad_width, rank)
    values = side_values(dt, rank, value)
    where: Dict[str, Any] = {"queue": queue} if queue is not None else {"device": device}
    # the sides numpy pads, in its order, with their values' bytes
    sides = [(i, s, values[i][s]) for i in range(rank) for s in (0, 1) if pairs[i][s] > 0]
    if not sides:
        return pad_fn(x, pads_begin=[0] * rank, pads_end=[0] * rank, out=out, **where)
    if len(set(v.tobytes() for _, _, v in sides)) > 1 and not _pyopencl.is_device_array(x):
        # one launch: clpad_pad_options.side_values (the last axis padding an
        # element gives its value, numpy's order)
        from . import _context, _lib
        from ._errors import check
        from ._pad import host_output
        lib = _lib.lib()
        opts = _lib.PadOptions()
        lib.clpad_pad_options_init(ctypes.byref(opts), _lib.constant("CLPAD_PAD_CONSTANT"))
        table = ctypes.create_string_buffer(
            b"".join(values[i][s].tobytes() for i in range(rank) for s in (0, 1)))
        opts.side_values = ctypes.cast(table, ctypes.c_void_p)
        out_shape = tuple(d + b + a for d, (b, a) in zip(x.shape, pairs))
        result = host_output(out, out_shape, dt, x)
        c = _args.i64
        check(lib.clpad_pad(_context.context(device), _args.dtype_code(dt), rank,
                            c(list(x.shape)), x.ctypes.data, c([b for b, _ in pairs]),
                            c([a for _, a in pairs]), ctypes.byref(opts), None,
                            result.ctypes.data, result.nbytes, None))
        return result
    runs: List[List[Tuple[int, int, Any]]] = []
    for side in sides:
        if runs and runs[-1][0][2].tobytes() == side[2].tobytes():
            runs[-1].append(side)
        else:
            runs.append([side])
    y = x
    for k, run_ in enumerate(runs):
        pb, pe = [0] * rank, [0] * rank
        for i, s, _ in run_:
            (pb if s == 0 else pe)[i] = pairs[i][s]
        y = pad_fn(y, pads_begin=pb, pads_end=pe, mode="constant", value=_py(run_[0][2]),
                   out=out if k == len(runs) - 1 else None, **where)
    return y
