"""PyOpenCL arrays in and out: the operations enqueue on the array's queue,
on the device buffers themselves (no host round trip), after the array's
events, and return a ``pyopencl.array.Array`` whose events include clpad's.

PyOpenCL is not imported by clpad: an array is recognised only when the user's
program has imported ``pyopencl.array``. clpad adopts PyOpenCL's OpenCL context
with clpad_context_wrap (one clpad context per OpenCL context and device, kept
for the life of the process) and passes the queue of each call.
"""

from __future__ import annotations

import ctypes
import importlib
import sys
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np

from . import _args, _context
from ._errors import NO_DEVICE, OUT_OF_MEMORY, ClpadRuntimeError, check, value_error

# enqueue(ctx, in_mem, in_offset, out_mem, out_offset, queue, n_events, wait_list, event)
Enqueue = Callable[..., int]


def is_device_array(x: Any) -> bool:
    """Whether x is a pyopencl.array.Array (without importing PyOpenCL)."""
    mod = sys.modules.get("pyopencl.array")
    return mod is not None and isinstance(x, mod.Array)


def _mem(cl: Any, a: Any, what: str) -> int:
    data = a.base_data
    if data is None:
        return 0
    if not isinstance(data, cl.MemoryObjectHolder):
        raise value_error("%s is not backed by an OpenCL buffer (%s): clpad takes "
                          "buffer-backed pyopencl arrays" % (what, type(data).__name__))
    return int(data.int_ptr)


def check_input(x: Any, queue: Any) -> Any:
    """The queue to run on (queue=, else the array's), after checking x."""
    if not x.flags.c_contiguous:
        raise value_error("the pyopencl array is not C-contiguous (strides %s): clpad takes "
                          "dense arrays; make a contiguous copy first" % (x.strides,))
    if not x.dtype.isnative:
        raise value_error("the pyopencl array's dtype %s is not in native byte order" % x.dtype)
    q = queue if queue is not None else x.queue
    if q is None:
        raise value_error("the pyopencl array has no queue: pass queue= (a "
                          "pyopencl.CommandQueue on the array's context)")
    if int(q.context.int_ptr) != int(x.context.int_ptr):
        raise value_error("queue= is on another OpenCL context than the array")
    return q


def modules(what: str) -> Tuple[Any, Any]:
    """pyopencl and pyopencl.array (untyped: clpad does not depend on
    PyOpenCL); ClpadRuntimeError naming `what` where OpenCL cannot be used
    in this process (after a fork)."""
    why = _context.opencl_unusable_after_fork()
    if why is not None:
        raise ClpadRuntimeError("clpad: cannot use the %s here: %s" % (what, why),
                                NO_DEVICE, "CLPAD_ERR_NO_DEVICE")
    return importlib.import_module("pyopencl"), importlib.import_module("pyopencl.array")


def run(x: Any, out_shape: Sequence[int], out: Any, queue: Any,
        enqueue: Enqueue) -> Any:
    """Make or check the output array, then enqueue the operation with the
    events of x and out as its wait list. Returns the output array."""
    cl, cla = modules("pyopencl array")
    q = check_input(x, queue)
    shape = tuple(int(v) for v in out_shape)
    if out is None:
        try:
            out = cla.empty(q, shape, x.dtype, allocator=x.allocator)
        except (MemoryError, cl.Error, ValueError, OverflowError) as e:
            nbytes = x.dtype.itemsize
            for d in shape:
                nbytes *= d
            raise ClpadRuntimeError(
                "cannot allocate the output on %s: %d bytes (%.3g GiB) for shape %s %s "
                "(the device allocates at most %d bytes at once): %s"
                % (q.device.name.strip(), nbytes, nbytes / 2**30, shape, x.dtype,
                   q.device.max_mem_alloc_size, e), OUT_OF_MEMORY,
                "CLPAD_ERR_OUT_OF_MEMORY") from None
    else:
        if not isinstance(out, cla.Array):
            raise TypeError("out must be a pyopencl.array.Array for a pyopencl input, not %s"
                            % type(out).__name__)
        if tuple(out.shape) != shape:
            raise value_error("out has shape %s, but the result has shape %s"
                              % (tuple(out.shape), shape))
        if out.dtype != x.dtype:
            raise value_error("out has dtype %s, but the result has dtype %s"
                              % (out.dtype, x.dtype))
        if not out.flags.c_contiguous:
            raise value_error("out must be C-contiguous")
        if int(out.context.int_ptr) != int(x.context.int_ptr):
            raise value_error("out is on another OpenCL context than the input")
        if (out.base_data is not None and x.base_data is not None
                and int(out.base_data.int_ptr) == int(x.base_data.int_ptr)
                and out.offset < x.offset + x.nbytes and x.offset < out.offset + out.nbytes):
            raise value_error("out shares memory with the input")
    if out.size == 0:
        return out
    in_mem = _mem(cl, x, "the input")
    dummy = None
    if in_mem == 0:  # an empty input (constant padding only): any valid buffer
        dummy = cl.Buffer(q.context, cl.mem_flags.READ_ONLY, size=max(x.dtype.itemsize, 1))
        in_mem = int(dummy.int_ptr)
    out_mem = _mem(cl, out, "out")
    ctx = _context.wrapped_context(int(q.context.int_ptr), int(q.int_ptr),
                                   int(q.device.int_ptr))
    waits = [int(e.int_ptr) for e in list(x.events) + list(out.events)]
    wait_list = (ctypes.c_void_p * max(len(waits), 1))(*waits)
    event = ctypes.c_void_p()
    check(enqueue(ctx, ctypes.c_void_p(in_mem), x.offset, ctypes.c_void_p(out_mem),
                  out.offset, ctypes.c_void_p(int(q.int_ptr)), len(waits),
                  wait_list if waits else None, ctypes.byref(event)))
    if event.value:
        evt = cl.Event.from_int_ptr(event.value, retain=False)
        out.add_event(evt)
        # Later writers of x that wait for its events wait for this read too.
        x.add_event(evt)
    if dummy is not None:
        # clReleaseMemObject defers the release until the commands that use
        # the buffer are done, so the buffer may go now.
        del dummy
    return out


def fail_host_only(name: str, value: Any) -> None:
    if value is not None:
        raise TypeError("%s= does not apply to a pyopencl array, which runs on its own "
                        "queue's device" % name)


def fail_device_only(queue: Optional[Any]) -> None:
    if queue is not None:
        raise TypeError("queue= applies to pyopencl arrays only; a NumPy array runs on "
                        "device= (default: clpad's default device)")


def operand(x: Any, device: Any, queue: Optional[Any]
            ) -> Tuple[bool, Any, int, Tuple[int, ...], "np.dtype[Any]"]:
    """An operation's input: (whether it is a pyopencl array, the array (a
    pyopencl one as given; else C-contiguous and native-endian by
    _args.prepare), its clpad dtype code, shape and dtype). Refuses device=
    with a pyopencl array and queue= with any other."""
    if is_device_array(x):
        fail_host_only("device", device)
        return (True, x, _args.dtype_code(x.dtype), tuple(int(d) for d in x.shape),
                np.dtype(x.dtype))
    fail_device_only(queue)
    a, code = _args.prepare(x)
    return False, a, code, tuple(a.shape), a.dtype
