"""clpad.pad_stack: tensors of one dtype and rank with different shapes into
one padded batch (pad_sequence, PadAndStack), in one kernel launch."""

from __future__ import annotations

import ctypes
from typing import Any, Iterable, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from . import _args, _context, _interop, _lib, _memory
from ._context import DeviceLike
from ._errors import check, value_error
from ._types import BatchPadModeName, Placement, Scalar


@_interop.keeps_out
def pad_stack(tensors: Iterable[npt.ArrayLike], shape: Optional[Sequence[int]] = None, *,
              mode: BatchPadModeName = "constant", value: Optional[Scalar] = None,
              placement: Placement = "top-left", device: DeviceLike = None,
              out: Optional["np.ndarray[Any, Any]"] = None, constant_values: Any = None,
              ) -> Tuple["np.ndarray[Any, Any]", "np.ndarray[Any, np.dtype[np.int64]]"]:
    """Stack tensors of one dtype and rank but different shapes into one
    batch, each padded as :func:`clpad.pad` pads (OpenVINO Pad-12 plus wrap),
    in one kernel launch (several for a batch larger than the device's
    largest buffer; one tensor too large for it alone raises
    ClpadRuntimeError, which names ``device="reference"``).

    tensors: N arrays of one dtype (any clpad dtype) and one rank (0..7)
        (an array is N tensors, its first axis); never modified. An element
        that is None or of another dtype is a ClpadValueError naming it
        (``tensors[2] is None``).
    shape: the shape S of every slice; default: the largest size of each axis
        over the tensors. A smaller S crops (Pad's negative pads).
    placement: "top-left" (the default: pads_begin 0, pads_end S - D, as
        PyTorch's pad_sequence(batch_first=True)) or "center" (pads_begin
        floor((S - D) / 2), the odd element at the end).
    mode, value: as for :func:`clpad.pad` (value: the pad value of constant
        mode, exact in the dtype; default 0; another value with another mode
        raises ClpadValueError). One mode for every axis; a framework's name
        is taken where it means one of clpad's modes ("cv:REPLICATE",
        "torch:circular"); "np:reflect", "np:symmetric", "cv:REFLECT" and
        "cv:REFLECT_101" mean a mirror repeated beyond the limits, which
        pad_stack does not have: ClpadValueError naming the mode to give.
    constant_values: mode "constant"'s values in numpy.pad's form, as
        :func:`clpad.pad` takes them (give it or value, not both): a scalar,
        ``(before, after)`` for every axis, ``((b0, a0), (b1, a1), ...)`` one
        per side of each axis, or an array broadcastable to (rank, 2); each
        cast to the dtype as numpy.pad casts it. Every tensor is padded as
        ``numpy.pad(t, pads, constant_values=constant_values)``: an element
        in the padding takes the value of the last axis whose pad holds it
        (numpy pads axis after axis, so a corner is the inner axis'). Still
        one launch (the C call clpad_pad_stack with
        clpad_pad_options.side_values).

    Returns (batch, shapes): batch [N, *S] of the tensors' dtype (or ``out``,
    a C-contiguous array of that shape and dtype), slice i equal to
    ``clpad.pad(tensors[i], pads_begin, pads_end, mode)`` bit for bit; shapes
    the int64 [N, rank] array of the tensors' shapes (their lengths, for a
    padding mask).

    device: as for :func:`clpad.pad`. Raises ClpadValueError naming the tensor
    ("tensors[2]: pads_end[0] = 3 exceeds the reflect limit shape[0] - 1 =
    0"), for mixed dtypes or ranks, or a rank above 7; ClpadRuntimeError for
    device failures.
    Semantics: docs/letterbox.md, "Pad-and-stack", installed with the package
    as clpad/docs/letterbox.md; exact for every dtype on every device.
    """
    arrays: List["np.ndarray[Any, Any]"] = []
    code = -1
    for i, t in enumerate(tensors):
        if t is None:
            raise value_error("tensors[%d] is None, not an array" % i)
        try:
            a, c = _args.prepare(t)
        except ValueError as e:  # an unsupported dtype, a ragged nested list
            raise value_error("tensors[%d]: %s" % (i, e), getattr(e, "status", None)) from None
        if arrays and (a.dtype != arrays[0].dtype or a.ndim != arrays[0].ndim):
            raise value_error("tensors[%d] is %s of rank %d but tensors[0] is %s of rank %d: "
                              "the tensors share one dtype and rank"
                              % (i, a.dtype, a.ndim, arrays[0].dtype, arrays[0].ndim))
        arrays.append(a)
        code = c
    if not arrays:
        raise value_error("pad_stack needs at least one tensor (the dtype and rank come "
                          "from them)")
    n, rank, dt = len(arrays), arrays[0].ndim, arrays[0].dtype
    if rank > _args.MAX_RANK - 1:
        raise value_error("tensors have rank %d; pad_stack takes rank 0..%d"
                          % (rank, _args.MAX_RANK - 1))
    shapes = np.array([a.shape for a in arrays], dtype=np.int64).reshape(n, rank)
    c_shapes = _args.i64(shapes.ravel().tolist())
    c_shape = None
    if shape is not None:
        c_shape = _args.i64(_args.axes("shape", shape, rank))
    mode_code = _args.pad_mode_within_limits(mode)
    if value is not None and constant_values is not None:
        raise TypeError("value= and constant_values= name the same thing: give one")
    sides = None  # the per-side table (clpad_pad_options.side_values), or None
    if constant_values is not None:
        if mode_code != _lib.constant("CLPAD_PAD_CONSTANT"):
            raise _args.unused_value("constant_values", constant_values, mode)
        from ._numpy_pad import side_values
        values = [v for pair in side_values(dt, rank, constant_values) for v in pair]
        if len(set(v.tobytes() for v in values)) > 1:
            sides = ctypes.create_string_buffer(b"".join(v.tobytes() for v in values))
            value_bytes = None
        else:  # one value on every side (or rank 0: none is used)
            value_bytes = values[0].tobytes() if values else None
    else:
        value_bytes = _args.scalar_bytes(value, dt, code)
        if mode_code != _lib.constant("CLPAD_PAD_CONSTANT") and \
                not _args.is_zero(value_bytes, dt):
            raise _args.unused_value("value", value, mode)
    lib = _lib.lib()
    c_out = _args.i64([0] * (rank + 1))
    check(lib.clpad_pad_stack_plan(rank, n, c_shapes, c_shape, mode_code,
                                   _placement(placement), c_out, None, None))
    out_shape = _args.shape_tuple(c_out, rank + 1)
    result = _memory.batch_output(out, out_shape, dt, arrays, "a tensor")
    inputs = (ctypes.c_void_p * n)(*[a.ctypes.data if a.size else None for a in arrays])
    ctx = _context.context(device)
    opts = _lib.PadOptions()
    lib.clpad_pad_options_init(ctypes.byref(opts), mode_code)
    if sides is not None:
        opts.side_values = ctypes.cast(sides, ctypes.c_void_p)
    check(lib.clpad_pad_stack(ctx, code, rank, n, c_shapes, inputs, c_shape, ctypes.byref(opts),
                              None if sides is not None else value_bytes, _placement(placement),
                              result.ctypes.data, result.nbytes, None))
    return result, shapes


def _placement(name: Any) -> int:
    out = ctypes.c_int()
    check(_lib.lib().clpad_placement_from_name(_args.c_string("placement", name),
                                               ctypes.byref(out)))
    return out.value
