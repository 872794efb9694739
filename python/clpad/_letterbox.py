"""clpad.letterbox: a batch of uint8 images of any sizes into one
detector-ready tensor, in one kernel launch."""

from __future__ import annotations

import ctypes
import numbers
import os
from collections import abc
from typing import Any, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _args, _context, _lib, _memory
from ._context import DeviceLike
from ._errors import check, value_error
from ._types import BatchPadModeName, Interp, Layout, Placement

MAX_CHANNELS = _lib.constant("CLPAD_LETTERBOX_MAX_CHANNELS")

#: One number for every channel, or one per channel.
PerChannel = Union[float, Sequence[float]]


class LetterboxTransform(NamedTuple):
    """Where one image went in its slot (docs/letterbox.md, "Size and placement").

    ``scale`` is the resize ratio r = min(H / h, W / w) (min(r, 1) without
    scale-up); the image occupies rows ``pad_top`` .. ``pad_top +
    resized_height - 1`` and columns ``pad_left`` .. ``pad_left +
    resized_width - 1`` of the slot. A point (x, y) of the slot maps back to
    the source image as ((x - pad_left) / scale, (y - pad_top) / scale), as
    Ultralytics' scale_boxes does: see :meth:`to_source`.
    """

    scale: float
    pad_top: int
    pad_left: int
    resized_height: int
    resized_width: int

    def to_source(self, xy: npt.ArrayLike) -> "np.ndarray[Any, np.dtype[np.float64]]":
        """Map points or boxes from the slot back to the source image.

        xy: an array whose last axis holds x, y pairs ([..., 2] points, or
        [..., 4] boxes x1, y1, x2, y2; any even length). Returns float64 of
        the same shape: x -> (x - pad_left) / scale, y -> (y - pad_top) / scale.
        Raises ValueError when the last axis has an odd length.
        """
        a = np.asarray(xy, dtype=np.float64)
        if a.ndim == 0 or a.shape[-1] % 2:
            raise ValueError("to_source: the last axis must hold x, y pairs, not shape %s"
                             % (a.shape,))
        out = a.copy()
        out[..., 0::2] = (a[..., 0::2] - self.pad_left) / self.scale
        out[..., 1::2] = (a[..., 1::2] - self.pad_top) / self.scale
        return out


_Image = _lib.struct("clpad_image", [
    ("data", ctypes.c_void_p),
    ("offset", ctypes.c_size_t),
    ("height", ctypes.c_int64),
    ("width", ctypes.c_int64),
    ("channels", ctypes.c_int64),
    ("row_stride", ctypes.c_int64),
], "clpad_image.")

_Options = _lib.struct("clpad_letterbox_options", [
    ("out_height", ctypes.c_int64),
    ("out_width", ctypes.c_int64),
    ("interp", ctypes.c_int),
    ("placement", ctypes.c_int),
    ("scaleup", ctypes.c_int),
    ("pad_mode", ctypes.c_int),
    ("pad_value", ctypes.c_uint8 * MAX_CHANNELS),
    ("swap_rb", ctypes.c_int),
    ("scale", ctypes.c_float),
    ("mean", ctypes.c_float * MAX_CHANNELS),
    ("std", ctypes.c_float * MAX_CHANNELS),
    ("dtype", ctypes.c_int),
    ("layout", ctypes.c_int),
], "clpad_letterbox_options.")

_Transform = _lib.struct("clpad_letterbox_transform", [
    ("scale", ctypes.c_double),
    ("pad_top", ctypes.c_int64),
    ("pad_left", ctypes.c_int64),
    ("resized_height", ctypes.c_int64),
    ("resized_width", ctypes.c_int64),
], "clpad_letterbox_transform.")


_DTYPES = {np.dtype(t): _lib.constant(c) for t, c in (
    (np.uint8, "CLPAD_U8"), (np.float16, "CLPAD_F16"), (np.float32, "CLPAD_F32"))}


def _name_code(fn: str, what: str, name: Any) -> int:
    """An option name through the library's parser (and its message)."""
    out = ctypes.c_int()
    check(getattr(_lib.lib(), fn)(_args.c_string(what, name), ctypes.byref(out)))
    return out.value


def _batch(images: Any) -> List[Any]:
    """The images of `images` as a list: a sequence, or a 4-D array of N
    images. One image alone (a 2-D or 3-D array) is refused, since iterating
    it would make each row an image."""
    if isinstance(images, np.ndarray):
        if images.ndim == 4 or (images.ndim == 1 and images.dtype == object):
            return list(images)
        if images.ndim in (2, 3):
            raise value_error(
                "images is one array of shape %s, not a batch: pass [image] for one image, "
                "or a 4-D array (N, H, W, C) for N images of one size" % (images.shape,))
        raise value_error("images is an array of %d axes: pass a sequence of HxW or HxWxC "
                          "images, or a 4-D array (N, H, W, C)" % images.ndim)
    if isinstance(images, (str, bytes)) or not isinstance(images, abc.Iterable):
        raise TypeError("images must be a sequence of image arrays or a 4-D array, not %r"
                        % (images,))
    return list(images)


def _image(i: int, x: Any, keep: List[Any]) -> Any:
    """The clpad_image of images[i]: rows may be any stride (a crop of a
    larger array is read in place); other layouts are copied first."""
    if x is None:
        raise value_error("images[%d] is None (cv2.imread returns None for a file it cannot "
                          "read)" % i)
    if isinstance(x, (str, bytes, os.PathLike)):
        raise value_error("images[%d] is a file name (%r): letterbox takes decoded images, "
                          "uint8 arrays (e.g. cv2.imread(path))" % (i, x))
    try:
        a = np.asarray(x)
    except ValueError as e:  # a ragged nested list
        raise value_error("images[%d] is not an image array: %s" % (i, e)) from None
    if a.dtype == object:
        raise value_error("images[%d] is a %s, not an image array (uint8 HxW or HxWxC)"
                          % (i, type(x).__name__))
    if a.dtype != np.uint8:
        raise value_error("images[%d]: dtype %s; images are uint8 HxW or HxWxC" % (i, a.dtype))
    if a.ndim == 2:
        a = a[:, :, None]
    if a.ndim != 3:
        raise value_error("images[%d]: %d axes; images are uint8 HxW or HxWxC" % (i, a.ndim))
    h, w, c = a.shape
    if h == 0 or w == 0:
        raise value_error("images[%d]: an image of %d x %d pixels" % (i, h, w))
    if not (a.strides[2] == 1 and a.strides[1] == c and a.strides[0] >= w * c):
        a = np.ascontiguousarray(a)
    keep.append(a)
    return _Image(data=a.ctypes.data, offset=0, height=h, width=w, channels=c,
                  row_stride=a.strides[0])


def _per_channel(name: str, v: Any, cast: Any) -> List[Any]:
    if np.ndim(v) == 0:
        return [cast(v)]
    seq = [cast(e) for e in np.asarray(v).ravel().tolist()]
    if not 1 <= len(seq) <= MAX_CHANNELS:
        raise value_error("%s: one value or one per channel (at most %d), not %d"
                          % (name, MAX_CHANNELS, len(seq)))
    return seq


def letterbox(images: Iterable[npt.ArrayLike], size: Union[int, Sequence[int]], *,
              interp: Interp = "bilinear", placement: Placement = "center",
              scaleup: bool = True, mode: BatchPadModeName = "constant",
              value: Optional[Union[int, Sequence[int]]] = None, swap_rb: bool = False,
              scale: float = 1.0, mean: PerChannel = 0.0, std: PerChannel = 1.0,
              dtype: npt.DTypeLike = np.float32, layout: Layout = "NCHW",
              device: DeviceLike = None,
              out: Optional["np.ndarray[Any, Any]"] = None,
              ) -> Tuple["np.ndarray[Any, Any]", List[LetterboxTransform]]:
    """Letterbox a batch of uint8 images into one tensor, in one kernel launch.

    images: a sequence of uint8 arrays HxWxC (or HxW: one channel), each of
        its own size, C = 1, 3 or 4 and the same for all, or a 4-D array
        (N images of one size). One image alone is a ClpadValueError (a 3-D
        array would otherwise be read as H images): pass ``[image]``. An
        element that is None (what cv2.imread returns for a file it cannot
        read), a file name or not an array is a ClpadValueError naming it
        (``images[2] is None``). Rows may be strided (a crop is read in
        place); the images are never modified.
    size: the slot (H, W) of every image, or one int for a square slot.
    Each image is resized keeping its aspect by r = min(H / h, W / w) to
    round(w * r) x round(h * r) (Python's round; scaleup=False: never
    enlarge), with OpenCV's INTER_LINEAR arithmetic for 8-bit images
    (``interp="bilinear"``, cv2.resize within 1) or INTER_NEAREST; placed in
    its slot (``placement="center"``: the odd pixel to the bottom/right, as
    Ultralytics' LetterBox; or ``"top-left"``); the border filled by ``mode``
    relative to the resized image (constant with ``value``, u8 per channel,
    default (None) 114; edge, reflect, symmetric, wrap; or a framework's
    name as :func:`clpad.pad` takes it, where it means one of these:
    "cv:REPLICATE", "torch:circular"; "np:reflect", "np:symmetric",
    "cv:REFLECT" and "cv:REFLECT_101" mean a mirror repeated beyond the
    limits, which letterbox does not have, and raise ClpadValueError naming
    the mode to give). A value other than 0 with a mode other than constant
    raises ClpadValueError, as in :func:`clpad.pad`. Every sample v of output
    channel c stored as (v * scale - mean[c]) / std[c] in float32, then as
    ``dtype`` (float32; float16 rounded to nearest even; uint8 rounded and
    saturated). ``swap_rb`` swaps channels 0 and 2 (RGB <-> BGR).
    ``value`` is per channel of the images (before the swap), ``mean`` and
    ``std`` per output channel (after it); each is one number for all
    channels or one per channel. scale, mean and std are rounded to float32.

    Returns (batch, transforms): batch is [N, C, H, W] (layout "NCHW") or
    [N, H, W, C] ("NHWC") of dtype, or ``out`` (a C-contiguous array of that
    shape and dtype); transforms holds one :class:`LetterboxTransform` per
    image (its scale, pad_top, pad_left, resized_height, resized_width; its
    ``to_source`` maps boxes back).

    device: as for :func:`clpad.pad` (None: the default device; ``"reference"``:
    the CPU reference path). The result is identical, byte for byte, on
    every device and on the CPU reference path.

    Raises ClpadValueError for an invalid option or image, naming the image
    ("images[3]: row_stride ...", "images[1]: pad_top = 319 exceeds the
    reflect limit ..."), TypeError for arguments of the wrong type,
    ClpadRuntimeError for device failures.
    Semantics: docs/letterbox.md of the clpad repository (Ultralytics'
    LetterBox, OpenCV's resize, clpad's Pad modes), exact on every device.
    """
    seq = _batch(images)
    keep: List[Any] = []
    n = len(seq)
    arr = (_Image * max(n, 1))()
    for i, x in enumerate(seq):
        arr[i] = _image(i, x, keep)
    hw = _args.axes("size", size, 2)
    lib = _lib.lib()
    o = _Options()
    lib.clpad_letterbox_options_init(ctypes.byref(o), hw[0], hw[1])
    o.interp = _name_code("clpad_interp_from_name", "interp", interp)
    o.placement = _name_code("clpad_placement_from_name", "placement", placement)
    o.pad_mode = _args.pad_mode_within_limits(mode)
    o.layout = _name_code("clpad_layout_from_name", "layout", layout)
    o.scaleup = 1 if scaleup else 0
    o.swap_rb = 1 if swap_rb else 0
    dt = np.dtype(dtype)
    if dt not in _DTYPES:
        raise value_error("dtype %s: the batch is float32, float16 or uint8" % dt)
    o.dtype = _DTYPES[dt]
    if not isinstance(scale, (numbers.Real, np.generic)):
        raise TypeError("scale must be a number, not %r" % (scale,))
    o.scale = float(scale)
    means = _per_channel("mean", mean, float)
    stds = _per_channel("std", std, float)
    values = _per_channel("value", 114 if value is None else value,
                          lambda v: _args.whole("value", v))
    if value is not None and o.pad_mode != 0 and any(values):
        raise _args.unused_value("value", value, mode)
    channels = int(arr[0].channels) if n else 3
    for name, vals in (("mean", means), ("std", stds), ("value", values)):
        if len(vals) not in (1, channels):
            raise value_error("%s has %d values but the images have %d channels"
                              % (name, len(vals), channels))
    for c in range(MAX_CHANNELS):
        v = values[c if c < len(values) else 0]
        if not 0 <= v <= 255:
            raise value_error("value %d is not a uint8 (0..255)" % v)
        o.pad_value[c] = v
        o.mean[c] = means[c if c < len(means) else 0]
        o.std[c] = stds[c if c < len(stds) else 0]
    shape = (ctypes.c_int64 * 4)()
    check(lib.clpad_letterbox_plan(arr, n, ctypes.byref(o), shape, None))
    out_shape = tuple(int(s) for s in shape)
    result = _memory.batch_output(out, out_shape, dt, keep, "an image")
    t = (_Transform * max(n, 1))()
    ctx = _context.context(device)
    check(lib.clpad_letterbox(ctx, arr, n, ctypes.byref(o), result.ctypes.data, result.nbytes,
                              t, None))
    del keep
    return result, [LetterboxTransform(float(t[i].scale), int(t[i].pad_top), int(t[i].pad_left),
                                       int(t[i].resized_height), int(t[i].resized_width))
                    for i in range(n)]
