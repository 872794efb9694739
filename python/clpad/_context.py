"""Devices and contexts: one clpad context per device (and one per OpenCL
context adopted from PyOpenCL), created on first use, shared by threads, and
never carried across fork().

OpenCL drivers cannot be used in a child made by fork() once the parent has
initialised them: PoCL's worker threads, for one, exist only in the parent, and
the child's first kernel would wait for them forever. So each process keeps its
own contexts (a pid change empties the cache, and the parent's contexts are
neither used nor released in the child), and a forked child of a process that
has used OpenCL through clpad runs clpad's CPU reference path for the default
device (with a RuntimeWarning), and refuses an explicit device with an error
that names the cause. Processes started with the "spawn" or "forkserver"
methods, Dask and Ray workers among them, initialise OpenCL themselves and use
the device.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import threading
import warnings
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

from . import _args, _lib
from ._errors import NO_DEVICE, ClpadRuntimeError, check

#: ``device=REFERENCE`` runs the CPU reference path, without OpenCL.
REFERENCE = "reference"

_CONTEXT_CPU_ONLY = _lib.constant("CLPAD_CONTEXT_CPU_ONLY")

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
    def spec(self) -> str:
        """The ``"P:D"`` device spec that selects this device."""
        return "%d:%d" % (self.platform_index, self.device_index)


#: What ``device=`` takes: None (the default device), a spec string or a Device.
DeviceLike = Union[None, str, Device]

# --- per-process state ---------------------------------------------------------
# Guarded by _lock; _pid is the process the caches belong to.
_lock = threading.Lock()
_pid = os.getpid()
_contexts: Dict[Optional[str], ctypes.c_void_p] = {}
_wrapped: Dict[Tuple[int, int], ctypes.c_void_p] = {}
# The first process that used OpenCL through clpad; inherited by forked children.
_opencl_pid: Optional[int] = None
_warned_fork = False


def _after_fork_in_child() -> None:
    # A lock held by another thread of the parent at fork() stays held forever
    # in the child: start with fresh ones.
    global _lock
    _lock = threading.Lock()
    _lib.reset_lock_after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _this_process() -> None:
    """Under _lock: forget the contexts of a parent process (not released)."""
    global _pid
    pid = os.getpid()
    if pid != _pid:
        _contexts.clear()
        _wrapped.clear()
        _pid = pid


def opencl_unusable_after_fork() -> Optional[str]:
    """Why OpenCL cannot be used in this process, or None when it can."""
    if _opencl_pid is None or _opencl_pid == os.getpid():
        return None
    return ("this process was forked from process %d after that process had used OpenCL, "
            "and OpenCL drivers cannot be used again in a forked child; start worker "
            "processes with the 'spawn' or 'forkserver' method (multiprocessing."
            "get_context('spawn')) to use the device in them" % _opencl_pid)


def _use_opencl() -> None:
    """Before any OpenCL call: refuse a forked child, and mark this process."""
    global _opencl_pid
    why = opencl_unusable_after_fork()
    if why is not None:
        raise ClpadRuntimeError("clpad: cannot use an OpenCL device here: " + why,
                                NO_DEVICE, "CLPAD_ERR_NO_DEVICE")
    if _opencl_pid is None:
        _opencl_pid = os.getpid()


def devices() -> List[Device]:
    """The OpenCL devices of every platform, as a list of :class:`Device`
    (empty when there is no OpenCL platform). Raises ClpadRuntimeError in a
    forked child of a process that has used OpenCL (see :mod:`clpad`)."""
    lib = _lib.lib()
    with _lock:
        _use_opencl()
    count = ctypes.c_size_t()
    check(lib.clpad_devices(None, 0, ctypes.byref(count)))
    if count.value == 0:
        return []
    infos = (_lib.DeviceInfo * count.value)()
    lib.clpad_device_info_init(infos)  # infos[0].size: the size of every entry
    check(lib.clpad_devices(infos, count.value, ctypes.byref(count)))
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


def device_key(device: Any) -> Optional[str]:
    if device is None:
        return None
    if isinstance(device, Device):
        return device.spec
    if isinstance(device, str):
        _args.c_string("device", device)  # (a NUL would cut the spec short in C)
        spec = device.strip()
        if not spec:
            return None
        return REFERENCE if spec.lower() == REFERENCE else spec
    raise TypeError("device must be None, a string spec or a clpad.Device, not %r" % (device,))


def _config(device: Optional[bytes], flags: int) -> Any:
    """A clpad_context_config: the library's defaults, then `device` and `flags`."""
    config = _lib.ContextConfig()
    _lib.lib().clpad_context_config_init(ctypes.byref(config))
    config.device = device
    config.flags = flags
    return config


def _create(key: Optional[str]) -> ctypes.c_void_p:
    global _warned_fork
    lib = _lib.lib()
    handle = ctypes.c_void_p()
    if key == REFERENCE or (key is None and opencl_unusable_after_fork() is not None):
        if key is None and not _warned_fork:
            _warned_fork = True
            warnings.warn("clpad: running the CPU reference path: %s"
                          % opencl_unusable_after_fork(), RuntimeWarning, stacklevel=4)
        check(lib.clpad_context_create(ctypes.byref(_config(None, _CONTEXT_CPU_ONLY)),
                                       ctypes.byref(handle)))
        return handle
    _use_opencl()
    spec = None if key is None else key.encode()
    check(lib.clpad_context_create(ctypes.byref(_config(spec, 0)), ctypes.byref(handle)))
    if key is None and lib.clpad_context_is_fallback(handle):
        warnings.warn("clpad: no OpenCL device; running the CPU reference path",
                      RuntimeWarning, stacklevel=4)
    return handle


def context(device: DeviceLike = None) -> ctypes.c_void_p:
    """The context for `device` in this process, created on first use."""
    if device is None:  # the common case, without the lock once created
        ctx = _contexts.get(None)
        if ctx is not None and _pid == os.getpid():
            return ctx
    key = device_key(device)
    with _lock:
        _this_process()
        ctx = _contexts.get(key)
        if ctx is None:
            ctx = _create(key)
            _contexts[key] = ctx
        return ctx


def wrapped_context(cl_context: int, queue: int, device: int) -> ctypes.c_void_p:
    """The clpad context adopted from an OpenCL context the caller owns (one
    per OpenCL context and device; `queue` is the first queue seen, and every
    call names its own queue). clpad retains the OpenCL context until exit."""
    key = (cl_context, device)
    with _lock:
        _this_process()
        ctx = _wrapped.get(key)
        if ctx is None:
            _use_opencl()
            ctx = ctypes.c_void_p()
            check(_lib.lib().clpad_context_wrap(ctypes.c_void_p(cl_context),
                                                ctypes.c_void_p(queue), ctypes.byref(ctx)))
            _wrapped[key] = ctx
        return ctx


@atexit.register
def _destroy_contexts() -> None:
    with _lock:
        # Only this process's own contexts: a forked child must not touch its
        # parent's OpenCL objects.
        if _lib.loaded() is not None and _pid == os.getpid():
            for handle in list(_contexts.values()) + list(_wrapped.values()):
                _lib.lib().clpad_context_destroy(handle)
        _contexts.clear()
        _wrapped.clear()


def context_info(device: DeviceLike = None) -> Dict[str, Any]:
    """What `device` resolves to in this process: ``{"device": name,
    "platform": name, "fallback": bool}`` (fallback: the CPU reference path,
    without OpenCL)."""
    lib = _lib.lib()
    ctx = context(device)
    return {
        "device": (lib.clpad_context_device_name(ctx) or b"").decode("utf-8", "replace"),
        "platform": (lib.clpad_context_platform_name(ctx) or b"").decode("utf-8", "replace"),
        "fallback": bool(lib.clpad_context_is_fallback(ctx)),
    }


def warmup(device: DeviceLike = None) -> None:
    """Compile every OpenCL program clpad may need on `device` now (a no-op for
    the CPU reference path), so that the first call does not pay for it."""
    ctx = context(device)
    if not _lib.lib().clpad_context_is_fallback(ctx):
        check(_lib.lib().clpad_context_warmup(ctx))


def library_path() -> str:
    """The path of the loaded libclpad."""
    return _lib.path()


def library_version() -> str:
    """The loaded library's version, "MAJOR.MINOR.PATCH"."""
    return str(_lib.lib().clpad_version_string().decode())
