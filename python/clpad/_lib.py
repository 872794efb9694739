"""Loading libclpad and declaring its C functions for ctypes.

Lookup order (the first that loads wins):

1. ``$CLPAD_LIBRARY``: the full path of the library (or a directory holding it).
   When set, nothing else is tried: an override of the bundled library.
2. Next to this package: ``libclpad.so.0`` / ``libclpad.so`` (``libclpad.0.dylib``,
   ``clpad.dll``) in the ``clpad/`` directory, where ``pip install`` puts the
   library it builds.
3. The system: ``ctypes.util.find_library("clpad")``, then ``libclpad.so.0``
   through the dynamic loader (``LD_LIBRARY_PATH``, rpath, ``ldconfig``).

Before loading, :func:`clpad._icd.configure` points the OpenCL ICD loader at
PoCL from ``pip install clpad[pocl]`` when the system registers no OpenCL
driver and the user has not chosen one.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import _abi, _icd
from ._about import VERSION

# The ABI this package is written for: the library's major version (the
# package's version is the library's).
ABI_MAJOR = int(VERSION.split(".")[0]) if VERSION.split(".")[0].isdigit() else 0


def constant(name: str) -> int:
    """The value of a constant of the C API by its C name ("CLPAD_F32"), as the
    library reports it (clpad._abi, generated from the library and checked
    against it by the tests)."""
    return _abi.CONSTANTS[name]


MAX_RANK = constant("CLPAD_MAX_RANK")

c_int64_p = ctypes.POINTER(ctypes.c_int64)
_status = ctypes.c_int
_str = ctypes.c_char_p
_void_p = ctypes.c_void_p
_int = ctypes.c_int
_size_t = ctypes.c_size_t


# The C types of the structs' fields (clpad._abi.FIELDS) as ctypes; the
# enums are ints, the function pointers opaque.
_SCALARS: Dict[str, Any] = {
    "size_t": ctypes.c_size_t, "int": ctypes.c_int, "unsigned": ctypes.c_uint,
    "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64, "uint8_t": ctypes.c_uint8,
    "float": ctypes.c_float, "double": ctypes.c_double, "char": ctypes.c_char,
    "cl_device_type": ctypes.c_uint64,  # cl_bitfield, cl_ulong
}
_structs: Dict[str, Any] = {}


def _ctype(cname: str, field: str, decl: str, count: int) -> Any:
    """The ctypes type of a field declared `decl` (clpad._abi.FIELDS)."""
    pointer = decl.endswith("*")
    base = decl.rstrip("* ")
    if pointer and base == "char":
        t: Any = ctypes.c_char_p
    elif pointer and base == "void" or base in _abi.FUNCTION_POINTERS:
        t = ctypes.c_void_p
    elif base in _abi.STRUCTS:
        t = struct(base)
    elif base in _abi.ENUMS:
        t = ctypes.c_int
    elif base in _SCALARS:
        t = _SCALARS[base]
    else:
        raise ImportError("clpad: %s.%s has the C type %s, which clpad._lib does not map"
                          % (cname, field, decl))
    if pointer and t not in (ctypes.c_char_p, ctypes.c_void_p):
        t = ctypes.POINTER(t)
    return t * count if count else t


def struct(cname: str, fields: Optional[List[Tuple[str, Any]]] = None, doc: str = "") -> Any:
    """A ctypes Structure for the C struct `cname`, at the offsets, and of the
    size, that the library reports (clpad._abi). Without `fields`: every
    field, typed from its C declaration, one class per struct; with `fields`
    (name, ctypes type): those, the rest padding bytes. A field whose size
    differs from the library's is an ImportError, never a silent misreading."""
    whole = fields is None
    if whole and cname in _structs:
        return _structs[cname]
    size, layout = _abi.STRUCTS[cname]
    if fields is None:
        fields = [(name, _ctype(cname, name, decl, count))
                  for name, decl, count in _abi.FIELDS[cname]]
    placed = []
    for name, ctype in fields:
        if name not in layout:
            raise ImportError("clpad: the library's %s has no field %s" % (cname, name))
        offset, fsize = layout[name]
        if ctypes.sizeof(ctype) != fsize:
            raise ImportError("clpad: %s.%s is %d bytes in the library, %d here"
                              % (cname, name, fsize, ctypes.sizeof(ctype)))
        placed.append((offset, name, ctype))
    out: List[Tuple[str, Any]] = []
    at = 0
    for offset, name, ctype in sorted(placed, key=lambda p: p[0]):
        if offset > at:
            out.append(("_gap%d" % at, ctypes.c_ubyte * (offset - at)))
        out.append((name, ctype))
        at = offset + ctypes.sizeof(ctype)
    if size > at:
        out.append(("_gap%d" % at, ctypes.c_ubyte * (size - at)))
    cls = type(cname, (ctypes.Structure,), {"_pack_": 1, "_fields_": out,
                                             "__doc__": doc or cname + "."})
    if whole:
        _structs[cname] = cls
    return cls


DeviceInfo = struct("clpad_device_info")
RunInfo = struct("clpad_run_info")
WindowResult = struct("clpad_window_result")
PadOptions = struct("clpad_pad_options",
                    doc="clpad_pad_options (filled by clpad_pad_options_init).")
PadForm = struct("clpad_pad_form", doc="clpad_pad_form (filled by clpad_pad_form_init).")
ErrorInfo = struct("clpad_error_info")
ContextConfig = struct("clpad_context_config",
                       doc="clpad_context_config (filled by clpad_context_config_init).")


_ctx = _void_p  # clpad_context *
_i64p = c_int64_p
_run_p = ctypes.POINTER(RunInfo)
_win_p = ctypes.POINTER(WindowResult)
_enum_p = ctypes.POINTER(ctypes.c_int)
_cl = ctypes.c_void_p  # cl_context, cl_command_queue, cl_mem, cl_event: opaque pointers
_cl_p = ctypes.POINTER(ctypes.c_void_p)

# name: (restype, argtypes). Functions missing from an older library are
# left out (an AttributeError names them if they are called).
_PROTOTYPES: Dict[str, Tuple[Any, List[Any]]] = {
    "clpad_status_name": (_str, [_status]),
    "clpad_status_string": (_str, [_status]),
    "clpad_last_error": (_str, []),
    "clpad_last_error_info": (_status, [ctypes.POINTER(ErrorInfo)]),
    "clpad_version_string": (_str, []),
    "clpad_version": (ctypes.c_uint, []),
    "clpad_dtype_size": (_size_t, [_int]),
    "clpad_dtype_name": (_str, [_int]),
    "clpad_pad_mode_name": (_str, [_int]),
    "clpad_scalar_parse": (_status, [_int, _str, _void_p]),
    "clpad_pad_mode_parse": (_status, [_str, _enum_p, ctypes.POINTER(ctypes.c_uint)]),
    "clpad_pad_mode_parse_within_limits": (_status, [_str, _enum_p]),
    "clpad_pad_large_pads_parse": (_status, [_str, ctypes.POINTER(ctypes.c_uint)]),
    "clpad_pad_options_init": (ctypes.POINTER(PadOptions), [ctypes.POINTER(PadOptions), _int]),
    "clpad_pad_output_shape": (
        _status, [_int, _i64p, _i64p, _i64p, ctypes.POINTER(PadOptions), _i64p]),
    "clpad_pad_axes_expand": (_status, [_int, _int, _i64p, _i64p, _i64p, _i64p, _i64p]),
    "clpad_pad_form_init": (None, [ctypes.POINTER(PadForm)]),
    "clpad_pad_form_resolve": (
        _status, [_int, _i64p, ctypes.POINTER(PadForm), _i64p, _i64p, ctypes.POINTER(PadOptions)]),
    "clpad_pad_to_multiple": (_status, [_int, _i64p, _i64p, _int, _i64p, _i64p]),
    "clpad_pad_numpy": (
        _status,
        [_ctx, _int, _int, _i64p, _void_p, _i64p, _i64p, _int, _i64p, _i64p, _void_p, _size_t,
         _run_p],
    ),
    "clpad_pad_numpy_cpu": (
        _status,
        [_int, _int, _i64p, _void_p, _i64p, _i64p, _int, _i64p, _i64p, _void_p, _size_t],
    ),
    "clpad_pad_linear_ramp": (
        _status,
        [_ctx, _int, _int, _i64p, _void_p, _i64p, _i64p, ctypes.POINTER(ctypes.c_double),
         ctypes.POINTER(ctypes.c_double), _int, _void_p, _size_t, _run_p],
    ),
    "clpad_pad_linear_ramp_cpu": (
        _status,
        [_int, _int, _i64p, _void_p, _i64p, _i64p, ctypes.POINTER(ctypes.c_double),
         ctypes.POINTER(ctypes.c_double), _int, _void_p, _size_t],
    ),
    "clpad_enqueue_pad_numpy": (
        _status,
        [_ctx, _int, _int, _i64p, _cl, _size_t, _i64p, _i64p, _int, _i64p, _i64p, _cl, _size_t,
         _cl, ctypes.c_uint, _cl_p, _cl_p],
    ),
    "clpad_space_to_batch_output_shape": (_status, [_int, _i64p, _i64p, _i64p, _i64p, _i64p]),
    "clpad_batch_to_space_output_shape": (_status, [_int, _i64p, _i64p, _i64p, _i64p, _i64p]),
    "clpad_device_info_init": (None, [ctypes.POINTER(DeviceInfo)]),
    "clpad_devices": (_status, [ctypes.POINTER(DeviceInfo), _size_t, ctypes.POINTER(_size_t)]),
    "clpad_run_info_init": (None, [_run_p]),
    "clpad_window_result_init": (None, [_win_p]),
    "clpad_context_config_init": (None, [ctypes.POINTER(ContextConfig)]),
    "clpad_context_create": (_status, [ctypes.POINTER(ContextConfig), ctypes.POINTER(_ctx)]),
    "clpad_context_tuning": (_str, [_ctx]),
    "clpad_operation_name": (_str, [_size_t]),
    "clpad_api_constant": (_status, [_str, ctypes.POINTER(ctypes.c_int64)]),
    "clpad_api_layout": (
        _status, [_str, _str, ctypes.POINTER(_size_t), ctypes.POINTER(_size_t)]),
    "clpad_context_wrap": (_status, [_cl, _cl, ctypes.POINTER(_ctx)]),
    "clpad_context_destroy": (None, [_ctx]),
    "clpad_context_is_fallback": (_int, [_ctx]),
    "clpad_context_device_name": (_str, [_ctx]),
    "clpad_context_platform_name": (_str, [_ctx]),
    "clpad_context_warmup": (_status, [_ctx]),
    "clpad_pad": (
        _status,
        [_ctx, _int, _int, _i64p, _void_p, _i64p, _i64p, ctypes.POINTER(PadOptions), _void_p,
         _void_p, _size_t, _run_p],
    ),
    "clpad_enqueue_pad": (
        _status,
        [_ctx, _int, _int, _i64p, _cl, _size_t, _i64p, _i64p, ctypes.POINTER(PadOptions),
         _void_p, _cl, _size_t, _cl, ctypes.c_uint, _cl_p, _cl_p],
    ),
    "clpad_enqueue_space_to_batch": (
        _status,
        [_ctx, _int, _int, _i64p, _cl, _size_t, _i64p, _i64p, _i64p, _cl, _size_t, _cl,
         ctypes.c_uint, _cl_p, _cl_p],
    ),
    "clpad_enqueue_batch_to_space": (
        _status,
        [_ctx, _int, _int, _i64p, _cl, _size_t, _i64p, _i64p, _i64p, _cl, _size_t, _cl,
         ctypes.c_uint, _cl_p, _cl_p],
    ),
    "clpad_space_to_batch": (
        _status,
        [_ctx, _int, _int, _i64p, _void_p, _i64p, _i64p, _i64p, _void_p, _size_t, _run_p],
    ),
    "clpad_batch_to_space": (
        _status,
        [_ctx, _int, _int, _i64p, _void_p, _i64p, _i64p, _i64p, _void_p, _size_t, _run_p],
    ),
    "clpad_context_launches": (ctypes.c_uint64, [_ctx]),
    # clpad_letterbox.h (argument structs: clpad._letterbox)
    "clpad_letterbox_options_init": (None, [_void_p, ctypes.c_int64, ctypes.c_int64]),
    "clpad_letterbox_transform_init": (None, [_void_p]),
    "clpad_letterbox_plan": (_status, [_void_p, _size_t, _void_p, _i64p, _void_p]),
    "clpad_letterbox": (
        _status, [_ctx, _void_p, _size_t, _void_p, _void_p, _size_t, _void_p, _run_p]),
    "clpad_enqueue_letterbox": (
        _status,
        [_ctx, _void_p, _size_t, _void_p, _cl, _cl, _size_t, _void_p, _cl, ctypes.c_uint, _cl_p,
         _cl_p]),
    "clpad_pad_stack_plan": (
        _status, [_int, _size_t, _i64p, _i64p, _int, _int, _i64p, _i64p, _i64p]),
    "clpad_pad_stack": (
        _status,
        [_ctx, _int, _int, _size_t, _i64p, _void_p, _i64p, ctypes.POINTER(PadOptions), _void_p,
         _int, _void_p, _size_t, _run_p]),
    # clpad_image.h (argument structs: clpad._image)
    "clpad_read_options_init": (None, [_void_p]),
    "clpad_image_read": (_status, [_str, _void_p, _void_p]),
    "clpad_decoded_image_free": (None, [_void_p]),
    # clpad_stream.h (argument structs: clpad._stream)
    "clpad_path_list_expand": (_status, [_void_p, _size_t, ctypes.c_uint, _void_p]),
    "clpad_path_list_count": (_size_t, [_void_p]),
    "clpad_path_list_paths": (ctypes.POINTER(ctypes.c_char_p), [_void_p]),
    "clpad_path_list_free": (None, [_void_p]),
    "clpad_letterbox_preset": (_status, [_str, _void_p]),
    "clpad_letterbox_preset_name": (_str, [_size_t, ctypes.POINTER(ctypes.c_char_p)]),
    "clpad_stream_options_init": (None, [_void_p]),
    "clpad_letterbox_stream_open": (
        _status, [_ctx, _void_p, _size_t, _void_p, _void_p, _void_p]),
    "clpad_letterbox_stream_batch_shape": (_status, [_void_p, _i64p, ctypes.POINTER(_size_t)]),
    "clpad_letterbox_stream_next": (_status, [_void_p, _void_p, _size_t, _void_p]),
    "clpad_letterbox_stream_close": (None, [_void_p]),
    # clpad_window.h
    "clpad_window_op_name": (_str, [_int]),
    "clpad_window_tensorrt": (
        _status, [_int, _int, _int, _i64p, _i64p, _i64p, _i64p, _i64p, _i64p, _win_p]),
    "clpad_window_tf": (
        _status, [_int, _int, _int, _i64p, _i64p, _i64p, _i64p, _i64p, _i64p, _i64p, _win_p]),
    "clpad_window_keras": (
        _status, [_int, _int, _int, _i64p, _i64p, _i64p, _i64p, _i64p, _win_p]),
    "clpad_window_onnx": (
        _status,
        [_int, _int, _int, _i64p, _i64p, _i64p, _i64p, _i64p, _int, _i64p, _i64p, _win_p]),
    "clpad_window_openvino": (
        _status,
        [_int, _int, _int, _int, _i64p, _i64p, _i64p, _i64p, _i64p, _i64p, _i64p, _i64p,
         _win_p]),
    "clpad_window_torch": (
        _status, [_int, _int, _int, _i64p, _i64p, _i64p, _i64p, _i64p, _int, _i64p, _win_p]),
    "clpad_window_tensor_pads": (_status, [_win_p, _int, _int, _i64p, _i64p]),
}
# The parsers of option names: clpad_<what>_from_name(const char *, int *).
_PROTOTYPES.update(("clpad_%s_from_name" % what, (_status, [_str, _enum_p])) for what in (
    "pad_mode", "interp", "placement", "layout", "fit", "input_format", "color_matrix",
    "color_range", "window_op", "trt_padding", "tf_padding", "tf_layout", "onnx_auto_pad",
    "ov_auto_pad", "ov_rounding", "torch_padding"))


def _candidates() -> Iterator[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.platform == "darwin":
        names = ["libclpad.0.dylib", "libclpad.dylib"]
    elif sys.platform == "win32":
        names = ["clpad.dll", "libclpad.dll"]
    else:
        names = ["libclpad.so.%d" % ABI_MAJOR, "libclpad.so"]
    yield from (os.path.join(here, n) for n in names if os.path.exists(os.path.join(here, n)))
    # (imported here: ctypes.util brings subprocess, shutil and tempfile,
    # which a package that finds its library beside it never needs)
    import ctypes.util
    found = ctypes.util.find_library("clpad")
    if found:
        yield found
    yield from names


def _load() -> Tuple[ctypes.CDLL, str]:
    # Before the first OpenCL call: PoCL from pip when the system registers no
    # OpenCL driver (clpad._icd states the rule).
    _icd.configure()
    env = os.environ.get("CLPAD_LIBRARY")
    if env:
        path = env
        if os.path.isdir(env):
            for name in ("libclpad.so.%d" % ABI_MAJOR, "libclpad.so", "libclpad.0.dylib",
                         "clpad.dll"):
                if os.path.exists(os.path.join(env, name)):
                    path = os.path.join(env, name)
                    break
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise OSError("clpad: cannot load CLPAD_LIBRARY=%s: %s" % (env, e)) from None
        return lib, path
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise OSError(
        "clpad: libclpad not found. Build or install the C library, then set "
        "CLPAD_LIBRARY=/path/to/libclpad.so.%d, add its directory to LD_LIBRARY_PATH, "
        "or copy it next to %s. Tried: %s"
        % (ABI_MAJOR, os.path.dirname(os.path.abspath(__file__)), "; ".join(errors) or "nothing"))


def _declare(lib: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in _PROTOTYPES.items():
        fn = getattr(lib, name, None)
        if fn is None:
            continue
        fn.restype = restype
        fn.argtypes = argtypes


def _resolve(path: str) -> str:
    """The file a bare soname (found by the loader) was loaded from, if known."""
    if os.path.isabs(path):
        return path
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split()
                if len(fields) >= 6 and os.path.basename(fields[-1]).startswith("libclpad."):
                    return fields[-1]
    except OSError:
        pass
    return path


_lock = threading.Lock()
_loaded: Optional[Any] = None
_path = ""


def reset_lock_after_fork() -> None:
    """In a forked child: a fresh lock (the parent's may be held forever)."""
    global _lock
    _lock = threading.Lock()


def loaded() -> Optional[Any]:
    """The library if it is loaded, else None (loads nothing)."""
    return _loaded


def lib() -> Any:
    """The loaded library (loaded and checked on first use). Its functions
    are declared with their C prototypes; typed as Any, as ctypes calls are."""
    global _loaded, _path
    if _loaded is None:
        with _lock:
            if _loaded is None:
                handle, path = _load()
                _declare(handle)
                version = handle.clpad_version()
                if version // 10000 != ABI_MAJOR:
                    raise OSError(
                        "clpad: %s is version %s; this package needs major version %d"
                        % (path, handle.clpad_version_string().decode(), ABI_MAJOR))
                _path = _resolve(path)
                _loaded = handle
    return _loaded


def path() -> str:
    """The file the library was loaded from."""
    lib()
    return _path
