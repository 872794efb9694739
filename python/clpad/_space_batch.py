"""clpad.space_to_batch and clpad.batch_to_space (OpenVINO SpaceToBatch-2 /
BatchToSpace-2)."""

from __future__ import annotations

from typing import Any, Optional, overload

import numpy as np
import numpy.typing as npt

from . import _args, _context, _interop, _lib, _pyopencl
from ._context import DeviceLike
from ._errors import check, value_error
from ._pad import host_output
from ._types import DeviceArrayT, Ints


def _run(fn_shape: str, fn_host: str, fn_enqueue: str, x: Any, block_shape: Any,
         begin: Any, end: Any, names: "tuple[str, str]", device: DeviceLike, queue: Any,
         out: Any) -> Any:
    device_array, x, code, shape, dt = _pyopencl.operand(x, device, queue)
    rank = len(shape)
    if rank < 2:
        raise value_error("x must have at least 2 axes [N, D1, ...], not %d" % rank)
    block = _args.axes("block_shape", block_shape, rank)
    b = _args.axes(names[0], begin, rank, default=0)
    e = _args.axes(names[1], end, rank, default=0)
    lib = _lib.lib()
    c_shape, c_block, c_b, c_e = _args.i64(shape), _args.i64(block), _args.i64(b), _args.i64(e)
    c_out = _args.i64([0] * rank)
    check(getattr(lib, fn_shape)(rank, c_shape, c_block, c_b, c_e, c_out))
    out_shape = _args.shape_tuple(c_out, rank)
    if device_array:
        enqueue_fn = getattr(lib, fn_enqueue)

        def enqueue(ctx: Any, src: Any, src_off: int, dst: Any, dst_off: int, q: Any,
                    n: int, waits: Any, evt: Any) -> int:
            return int(enqueue_fn(ctx, code, rank, c_shape, src, src_off, c_block, c_b, c_e,
                                  dst, dst_off, q, n, waits, evt))
        return _pyopencl.run(x, out_shape, out, queue, enqueue)
    result = host_output(out, out_shape, dt, x)
    ctx = _context.context(device)
    check(getattr(lib, fn_host)(ctx, code, rank, c_shape, x.ctypes.data, c_block, c_b, c_e,
                                result.ctypes.data, result.nbytes, None))
    return result


@overload
def space_to_batch(x: DeviceArrayT, block_shape: Ints, pads_begin: Optional[Ints] = ...,
                   pads_end: Optional[Ints] = ..., *, queue: Any = ...,
                   out: Optional[DeviceArrayT] = ...) -> DeviceArrayT: ...
@overload
def space_to_batch(x: npt.ArrayLike, block_shape: Ints, pads_begin: Optional[Ints] = ...,
                   pads_end: Optional[Ints] = ..., device: DeviceLike = ...,
                   out: Optional["np.ndarray[Any, Any]"] = ...) -> "np.ndarray[Any, Any]": ...


@_interop.keeps_out
def space_to_batch(x: Any, block_shape: Any, pads_begin: Any = None, pads_end: Any = None,
                   device: DeviceLike = None, out: Any = None, *, queue: Any = None) -> Any:
    """OpenVINO SpaceToBatch-2: zero-pad `x` [N, D1, ...] and move blocks of
    the spatial axes into the batch axis.

    block_shape: one int per axis, block_shape[0] == 1, each >= 1, and B_i
        divides D_i + pads_begin[i] + pads_end[i].
    pads_begin, pads_end (default 0): >= 0, 0 on axis 0.
    Output: [N * prod(block_shape), (D1+P1+E1)/B1, ...], the block offsets
        outer and the original batch inner: output batch index
        ((k1*B2 + k2)*B3 + ...) * N + n.
    device, out: as for :func:`clpad.pad`. `x` may be a ``pyopencl.array.Array``:
        the move runs on its queue (or ``queue=``) after its events and returns
        a pyopencl Array; ``out=`` may then be one.

    Raises ClpadValueError naming the axis whose rule is broken (e.g.
    "block_shape[2] = 4 does not divide shape[2] + pads_begin[2] + pads_end[2]
    = 10 + 0 + 0 = 10"), ClpadRuntimeError for device failures.
    Semantics: OpenVINO's SpaceToBatch-2 operation, bit-exact on every device.
    """
    return _run("clpad_space_to_batch_output_shape", "clpad_space_to_batch",
                "clpad_enqueue_space_to_batch", x, block_shape, pads_begin, pads_end,
                ("pads_begin", "pads_end"), device, queue, out)


@overload
def batch_to_space(x: DeviceArrayT, block_shape: Ints, crops_begin: Optional[Ints] = ...,
                   crops_end: Optional[Ints] = ..., *, queue: Any = ...,
                   out: Optional[DeviceArrayT] = ...) -> DeviceArrayT: ...
@overload
def batch_to_space(x: npt.ArrayLike, block_shape: Ints, crops_begin: Optional[Ints] = ...,
                   crops_end: Optional[Ints] = ..., device: DeviceLike = ...,
                   out: Optional["np.ndarray[Any, Any]"] = ...) -> "np.ndarray[Any, Any]": ...


@_interop.keeps_out
def batch_to_space(x: Any, block_shape: Any, crops_begin: Any = None, crops_end: Any = None,
                   device: DeviceLike = None, out: Any = None, *, queue: Any = None) -> Any:
    """OpenVINO BatchToSpace-2, the inverse of :func:`space_to_batch`: move the
    block offsets of the batch axis of `x` [N', D1, ...] back into the spatial
    axes, then crop.

    block_shape: as for space_to_batch; prod(block_shape) divides N'.
    crops_begin, crops_end (default 0): >= 0, 0 on axis 0, and
        crops_begin[i] + crops_end[i] <= D_i * B_i.
    Output: [N' / prod(block_shape), D1*B1 - C1 - E1, ...]. With the same
        block shape and crops = pads, it returns the input of space_to_batch.
    device, out, pyopencl arrays and errors: as for :func:`space_to_batch`.
    Semantics: OpenVINO's BatchToSpace-2 operation, bit-exact on every device.
    """
    return _run("clpad_batch_to_space_output_shape", "clpad_batch_to_space",
                "clpad_enqueue_batch_to_space", x, block_shape, crops_begin, crops_end,
                ("crops_begin", "crops_end"), device, queue, out)
