"""clpad's exceptions and the translation of a clpad_status into one."""

from __future__ import annotations

import ctypes
from typing import Optional

from . import _lib

# clpad_status values (include/clpad.h) that are the caller's fault: ValueError.
_VALUE_ERRORS = {_lib.constant(name): name for name in (
    "CLPAD_ERR_INVALID_ARGUMENT", "CLPAD_ERR_INVALID_SHAPE", "CLPAD_ERR_INVALID_PADS",
    "CLPAD_ERR_OVERFLOW", "CLPAD_ERR_BUFFER_TOO_SMALL", "CLPAD_ERR_UNSUPPORTED",
    "CLPAD_ERR_PARSE", "CLPAD_ERR_BAD_INPUT", "CLPAD_ERR_TOO_LARGE")}
# the statuses the package tells apart
INVALID_ARGUMENT, INVALID_PADS, OUT_OF_MEMORY, UNSUPPORTED, OVERFLOW, NO_DEVICE = (
    _lib.constant("CLPAD_ERR_" + name) for name in (
        "INVALID_ARGUMENT", "INVALID_PADS", "OUT_OF_MEMORY", "UNSUPPORTED", "OVERFLOW",
        "NO_DEVICE"))


class ClpadError(Exception):
    """Base of clpad's errors.

    ``status`` is the clpad_status (a negative int), or None for an error found
    on the Python side; ``status_name`` is its name (``"CLPAD_ERR_INVALID_PADS"``);
    ``argument`` the offending argument the library names (``"pads_end"``,
    ``"images"``, ``"tensors"``), or None; ``index`` the failing item of that
    argument (an axis, image or tensor index), or None.
    """

    def __init__(self, message: str, status: Optional[int] = None,
                 status_name: Optional[str] = None, argument: Optional[str] = None,
                 index: Optional[int] = None) -> None:
        super().__init__(message)
        self.status = status
        self.status_name = status_name
        self.argument = argument
        self.index = index


class ClpadValueError(ClpadError, ValueError):
    """An invalid argument, shape, pads, dtype or value (CLPAD_ERR_INVALID_*,
    OVERFLOW, PARSE, BUFFER_TOO_SMALL, UNSUPPORTED), or an input file that is
    malformed, corrupt or unsupported (BAD_INPUT) or above a limit
    (TOO_LARGE)."""


class ClpadRuntimeError(ClpadError, RuntimeError):
    """A device, OpenCL or memory failure (CLPAD_ERR_NO_DEVICE,
    DEVICE_NOT_FOUND, BUILD_FAILED, DEVICE_OUT_OF_RESOURCES, OPENCL,
    OUT_OF_MEMORY), including an output too large to allocate, or a file
    that cannot be opened or read (IO)."""


def check(status: int) -> int:
    """`status` if it is not an error, else raise the matching ClpadError with
    the library's message for this thread."""
    if status >= 0:
        return status
    lib = _lib.lib()
    info = _lib.ErrorInfo()
    info.size = ctypes.sizeof(info)
    lib.clpad_last_error_info(ctypes.byref(info))
    message = (info.message or b"").decode("utf-8", "replace")
    name = (lib.clpad_status_name(status) or b"").decode()
    if not message:
        message = (lib.clpad_status_string(status) or b"").decode()
    argument = info.argument.decode() or None
    index = info.index if argument is not None and info.index >= 0 else None
    cls = ClpadValueError if status in _VALUE_ERRORS else ClpadRuntimeError
    raise cls(message, status, name, argument, index)


def value_error(message: str, status: Optional[int] = None) -> ClpadValueError:
    """A ClpadValueError found on the Python side (status None unless given)."""
    name = None
    if status is not None:
        name = _VALUE_ERRORS.get(status)
    return ClpadValueError(message, status, name)
