"""Arrays from other libraries: what every array-taking function accepts.

Inputs: a NumPy array as it is; an object with ``__dlpack__`` (a torch CPU
tensor, a JAX CPU array, CuPy's host arrays, ...) through ``numpy.from_dlpack``
(no copy: clpad reads its memory, and never writes it); anything else that
``numpy.asarray`` takes (``__array_interface__``, ``__array__``, nested
lists). A DLPack array on another device (a CUDA tensor) is refused with its
device named, as is a Dask array outside :func:`clpad.pad` (which stays lazy:
:mod:`clpad.dask`), rather than computed silently.

``out=``: a NumPy array, or any writable C-contiguous DLPack producer in CPU
memory (a torch tensor): the result is written into its memory, in place, and
the function returns that same object. A read-only export (DLPack's read-only
flag) or a non-contiguous one is refused with a ClpadValueError naming out.

Dtypes: where a dtype is taken (``letterbox(dtype=...)``), a ``torch.dtype``
is accepted as the NumPy dtype of the same name (``torch.bfloat16`` as
ml_dtypes' bfloat16, when installed).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar, cast

import numpy as np

from . import _pyopencl
from ._errors import UNSUPPORTED, value_error

_F = TypeVar("_F", bound=Callable[..., Any])

# DLPack's device types (dlpack.h, DLDeviceType): kDLCPU. The others name
# memory clpad cannot read from the host.
_DL_CPU = 1
_DL_NAMES = {2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI",
             10: "ROCm", 11: "ROCm host", 13: "CUDA managed", 14: "oneAPI"}


def is_dask(x: Any) -> bool:
    """Whether x is a Dask collection (without importing dask)."""
    return hasattr(x, "__dask_graph__") and type(x).__module__.split(".")[0] == "dask"


def _dlpack_device(x: Any, name: str) -> None:
    """ClpadValueError unless x's DLPack memory is CPU memory."""
    get = getattr(x, "__dlpack_device__", None)
    if get is None:
        return
    dev = get()
    kind = int(dev[0])
    if kind != _DL_CPU:
        raise value_error("%s is a %s on a %s device (DLPack device %s): clpad reads and "
                          "writes CPU memory (or pyopencl arrays); move it to the CPU first"
                          % (name, type(x).__name__, _DL_NAMES.get(kind, "non-CPU"),
                             tuple(int(d) for d in dev)), UNSUPPORTED)


def _from_dlpack(x: Any, name: str) -> "np.ndarray[Any, Any]":
    _dlpack_device(x, name)
    try:
        return np.from_dlpack(x)
    except (BufferError, TypeError, RuntimeError, ValueError) as e:
        raise value_error("%s: numpy.from_dlpack cannot take this %s: %s"
                          % (name, type(x).__name__, e), UNSUPPORTED) from None


def as_array(x: Any, name: str = "x") -> "np.ndarray[Any, Any]":
    """x as a NumPy array without copying where it can (module documentation)."""
    if isinstance(x, np.ndarray):
        return x
    if is_dask(x):
        raise TypeError("%s is a Dask array: clpad computes only clpad.pad lazily "
                        "(clpad.dask.pad); call .compute() first, or run this function "
                        "per block with dask.array.map_blocks" % name)
    if hasattr(x, "__dlpack__") and not isinstance(x, (bytes, str)):
        return _from_dlpack(x, name)
    return np.asarray(x)


def out_array(out: Any) -> Any:
    """`out` as an ndarray over the same memory when it is a DLPack producer
    (checked: CPU, writable, C-contiguous); anything else unchanged (the
    caller's checks say what is wrong with it)."""
    if (out is None or isinstance(out, np.ndarray) or _pyopencl.is_device_array(out)
            or not hasattr(out, "__dlpack__")):
        return out
    view = _from_dlpack(out, "out")
    if not view.flags.writeable:
        raise value_error("out (a %s) is read-only: its DLPack export is marked read-only, "
                          "so clpad cannot write the result into it" % type(out).__name__)
    if not view.flags.c_contiguous:
        raise value_error("out (a %s) must be C-contiguous: clpad writes the result in "
                          "row-major order into its memory (strides %s bytes)"
                          % (type(out).__name__, view.strides))
    return view


def keeps_out(fn: _F) -> _F:
    """Decorate a function taking ``out=``: a DLPack ``out`` is written through
    its ndarray view, and the function returns the object itself (in place of
    the view, alone or as the first element of a returned tuple)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        out = kwargs.get("out")
        view = out_array(out)
        if view is out:
            return fn(*args, **kwargs)
        kwargs["out"] = view
        result = fn(*args, **kwargs)
        if result is view:
            return out
        if isinstance(result, tuple) and result and result[0] is view:
            return (out,) + result[1:]
        return result
    return cast(_F, wrapper)


def dtype(d: Any) -> "np.dtype[Any]":
    """numpy.dtype(d), with a torch.dtype taken as the NumPy dtype of its name."""
    t = type(d)
    if t.__module__ == "torch" and t.__name__ == "dtype":
        name = str(d).rsplit(".", 1)[-1]
        if name == "bfloat16":
            from . import _args
            if _args._BFLOAT16 is None:
                raise value_error("dtype torch.bfloat16 needs ml_dtypes installed (NumPy "
                                  "has no bfloat16)", UNSUPPORTED)
            return _args._BFLOAT16
        try:
            return np.dtype(name)
        except TypeError:
            raise value_error("dtype %s has no NumPy equivalent" % d, UNSUPPORTED) from None
    got: "np.dtype[Any]" = np.dtype(d)
    return got

