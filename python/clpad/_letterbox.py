"""clpad.letterbox: a batch of uint8 images of any sizes into one
detector-ready tensor, in one kernel launch."""

from __future__ import annotations

import ctypes
import numbers
import os
from collections import abc
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _args, _context, _interop, _lib, _memory, _pyopencl
from . import _image as _image_mod
from ._context import DeviceLike
from ._errors import check, value_error
from ._types import (BatchPadModeName, ColorMatrix, ColorRange, Fit, InputFormat, Interp,
                     Layout, Placement)

MAX_CHANNELS = _lib.constant("CLPAD_LETTERBOX_MAX_CHANNELS")

#: One number for every channel, or one per channel.
PerChannel = Union[float, Sequence[float]]


class LetterboxTransform(NamedTuple):
    """Where one image went in its slot (clpad/docs/letterbox.md, "Size and
    placement", "Fit").

    ``scale`` is the resize ratio r = min(H / h, W / w) (min(r, 1) without
    scale-up; fit "cover": the max; "stretch": the smaller of the two axes'
    ratios; resize_shorter S: S / the shorter side); the resized image
    occupies rows ``pad_top`` .. ``pad_top + resized_height - 1`` and
    columns ``pad_left`` .. ``pad_left + resized_width - 1`` of the slot
    (negative offsets where it is cropped). A point (x, y) of the slot maps
    back to the source image as ((x - pad_left) / scale_x, (y - pad_top) /
    scale_y), as Ultralytics' scale_boxes does: see :meth:`to_source`.
    ``scale_y`` and ``scale_x`` are ``scale`` for fits "contain" and
    "cover", each axis's own ratio for "stretch" and resize_shorter (None:
    ``scale``). ``source_height`` and ``source_width`` are the size of the
    source image (after its EXIF orientation; for a decode-scaled JPEG the
    full size, which the geometry is computed from); None where unknown.
    """

    scale: float
    pad_top: int
    pad_left: int
    resized_height: int
    resized_width: int
    source_height: Optional[int] = None
    source_width: Optional[int] = None
    scale_y: Optional[float] = None
    scale_x: Optional[float] = None

    def to_source(self, xy: npt.ArrayLike, clip: bool = True
                  ) -> "np.ndarray[Any, np.dtype[np.float64]]":
        """Map points or boxes from the slot back to the source image.

        xy: an array whose last axis holds x, y pairs ([..., 2] points, or
        [..., 4] boxes x1, y1, x2, y2; any even length). Returns float64 of
        the same shape: x -> (x - pad_left) / scale_x, y -> (y - pad_top) /
        scale_y, then, with ``clip`` (the default, as Ultralytics' scale_boxes clips)
        and a known source size, x clipped to [0, source_width] and y to
        [0, source_height]. Raises ValueError when the last axis has an odd
        length.
        """
        a = _pairs("to_source", xy)
        out = a.copy()
        out[..., 0::2] = (a[..., 0::2] - self.pad_left) / self._sx
        out[..., 1::2] = (a[..., 1::2] - self.pad_top) / self._sy
        if clip and self.source_width is not None and self.source_height is not None:
            np.clip(out[..., 0::2], 0, self.source_width, out=out[..., 0::2])
            np.clip(out[..., 1::2], 0, self.source_height, out=out[..., 1::2])
        return out

    def to_slot(self, xy: npt.ArrayLike) -> "np.ndarray[Any, np.dtype[np.float64]]":
        """Map points or boxes of the source image into the slot: the inverse
        of :meth:`to_source` without clipping, x -> x * scale_x + pad_left,
        y -> y * scale_y + pad_top (float64, the shape of ``xy``, whose last
        axis holds x, y pairs)."""
        a = _pairs("to_slot", xy)
        out = a.copy()
        out[..., 0::2] = a[..., 0::2] * self._sx + self.pad_left
        out[..., 1::2] = a[..., 1::2] * self._sy + self.pad_top
        return out

    @property
    def _sx(self) -> float:
        return self.scale if self.scale_x is None else self.scale_x

    @property
    def _sy(self) -> float:
        return self.scale if self.scale_y is None else self.scale_y


def _pairs(fn: str, xy: npt.ArrayLike) -> "np.ndarray[Any, np.dtype[np.float64]]":
    a = np.asarray(xy, dtype=np.float64)
    if a.ndim == 0 or a.shape[-1] % 2:
        raise ValueError("%s: the last axis must hold x, y pairs, not shape %s" % (fn, a.shape))
    return a


def _boxes(fn: str, boxes: Any) -> "np.ndarray[Any, np.dtype[np.float64]]":
    a = np.asarray(boxes, dtype=np.float64)
    if a.ndim == 0 or a.shape[-1] != 4:
        raise ValueError("%s: boxes are [..., 4] (x1, y1, x2, y2), not shape %s"
                         % (fn, a.shape))
    return a


def boxes_to_source(boxes: Any, transforms: Union[LetterboxTransform,
                                                   Sequence[LetterboxTransform]],
                    clip: bool = True) -> Any:
    """Boxes x1, y1, x2, y2 found in letterboxed slots, back to their source images.

    With one :class:`LetterboxTransform`, ``boxes`` is one array [..., 4]
    (e.g. [N, 4] detections of one image) and one float64 array of that
    shape is returned. With a sequence of transforms (those of a batch),
    ``boxes`` is a sequence of as many [N_i, 4] arrays (the detections of
    each image) and a list of arrays is returned. ``clip`` as in
    :meth:`LetterboxTransform.to_source`.
    """
    if isinstance(transforms, LetterboxTransform):
        return transforms.to_source(_boxes("boxes_to_source", boxes), clip)
    ts = list(transforms)
    bs = list(boxes)
    if len(ts) != len(bs):
        raise ValueError("boxes_to_source: %d arrays of boxes for %d transforms"
                         % (len(bs), len(ts)))
    return [t.to_source(_boxes("boxes_to_source", b), clip) for t, b in zip(ts, bs)]


def boxes_to_slot(boxes: Any, transforms: Union[LetterboxTransform,
                                                 Sequence[LetterboxTransform]]) -> Any:
    """Boxes x1, y1, x2, y2 of source images into their letterboxed slots: the
    inverse of :func:`boxes_to_source` (no clipping), with the same forms
    (one transform and one [..., 4] array, or a sequence of each)."""
    if isinstance(transforms, LetterboxTransform):
        return transforms.to_slot(_boxes("boxes_to_slot", boxes))
    ts = list(transforms)
    bs = list(boxes)
    if len(ts) != len(bs):
        raise ValueError("boxes_to_slot: %d arrays of boxes for %d transforms"
                         % (len(bs), len(ts)))
    return [t.to_slot(_boxes("boxes_to_slot", b)) for t, b in zip(ts, bs)]


# the structs of include/clpad_letterbox.h, every field at the library's
# offsets (clpad._abi)
_Image = _lib.struct("clpad_image")
_Options = _lib.struct("clpad_letterbox_options")
_Transform = _lib.struct("clpad_letterbox_transform")


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
        x = _image_mod.imread(x)  # cv2.imread's rules, RGB
    elif _is_pil(x):
        x = _pil_array(x)
    try:
        a = _interop.as_array(x, "images[%d]" % i)
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


def _plane(i: int, what: str, x: Any, shape: Tuple[int, ...], keep: List[Any]) -> Any:
    """Plane `what` of frame i: uint8 of `shape`, rows of unit-stride
    samples (any row stride; other layouts copied)."""
    a = _interop.as_array(x, "images[%d] %s" % (i, what))
    if a.dtype != np.uint8:
        raise value_error("images[%d]: the %s plane has dtype %s; planes are uint8"
                          % (i, what, a.dtype))
    if len(shape) == 2 and a.ndim == 3 and a.shape[2] == 2:  # NV12's UV as (H/2, W/2, 2)
        if not (a.strides[2] == 1 and a.strides[1] == 2):
            a = np.ascontiguousarray(a)
        a = np.lib.stride_tricks.as_strided(a, (a.shape[0], a.shape[1] * 2), (a.strides[0], 1))
    if a.shape != shape:
        raise value_error("images[%d]: the %s plane has shape %s, not %s"
                          % (i, what, a.shape, shape))
    if a.strides[1] != 1 or a.strides[0] < a.shape[1]:
        a = np.ascontiguousarray(a)
    keep.append(a)
    return a


def _frame(i: int, x: Any, fmt: int, keep: List[Any]) -> Any:
    """The clpad_image of YUV frame images[i]: a 2-D uint8 array (H * 3 / 2,
    W) in the format's one-buffer layout, or a (Y, UV) / (Y, U, V) tuple of
    planes (in the format's plane order) read in place."""
    semi = fmt in (_lib.constant("CLPAD_INPUT_NV12"), _lib.constant("CLPAD_INPUT_NV21"))
    if x is None:
        raise value_error("images[%d] is None" % i)
    if isinstance(x, (tuple, list)):
        want = 2 if semi else 3
        if len(x) != want:
            raise value_error("images[%d]: a tuple of %d planes; this format has %d (%s)"
                              % (i, len(x), want, "Y, UV" if semi else "Y, U, V"))
        y = _interop.as_array(x[0], "images[%d] Y" % i)
        if y.ndim != 2:
            raise value_error("images[%d]: the Y plane has %d axes, not 2" % (i, y.ndim))
        h, w = y.shape  # (odd or empty sizes: the library's message)
        y = _plane(i, "Y", y, (h, w), keep)
        c = [_plane(i, "UV" if semi else ("first chroma", "second chroma")[k - 1], x[k],
                    (h // 2, w if semi else w // 2), keep) for k in range(1, want)]
        im = _Image(data=y.ctypes.data, offset=0, height=h, width=w, channels=3,
                    row_stride=y.strides[0], separate_planes=1)
        for k, a in enumerate(c):
            im.planes[k] = a.ctypes.data
            im.plane_stride[k] = a.strides[0]
        return im
    a = _interop.as_array(x, "images[%d]" % i)
    if a.dtype != np.uint8 or a.ndim != 2:
        raise value_error("images[%d]: a frame is a 2-D uint8 array (H * 3 / 2, W) or a tuple "
                          "of planes, not %s of shape %s" % (i, a.dtype, a.shape))
    rows, w = a.shape
    if rows % 3:
        raise value_error("images[%d]: %d rows is not H * 3 / 2 for an even H (shape (H * 3 "
                          "/ 2, W))" % (i, rows))
    h = rows // 3 * 2  # (an odd width or an empty frame: the library's message)
    # NV12 / NV21 rows may have any stride; I420 / YV12's chroma rows are
    # packed half rows, so the array must be dense
    if a.strides[1] != 1 or a.strides[0] < w or (not semi and a.strides[0] != w):
        a = np.ascontiguousarray(a)
    keep.append(a)
    return _Image(data=a.ctypes.data, offset=0, height=h, width=w, channels=3,
                  row_stride=a.strides[0])


def _is_pil(x: Any) -> bool:
    """Whether x is a PIL image (without importing PIL)."""
    return any(c.__module__.startswith("PIL.") and c.__name__ == "Image"
               for c in type(x).__mro__)


def _pil_array(x: Any) -> Any:
    """A PIL image's pixels: modes "RGB", "L" and "RGBA" as they are, every
    other mode converted with .convert("RGB")."""
    if x.mode not in ("RGB", "L", "RGBA"):
        x = x.convert("RGB")
    return np.asarray(x)


def _per_channel(name: str, v: Any, cast: Any) -> List[Any]:
    if np.ndim(v) == 0:
        return [cast(v)]
    seq = [cast(e) for e in np.asarray(v).ravel().tolist()]
    if not 1 <= len(seq) <= MAX_CHANNELS:
        raise value_error("%s: one value or one per channel (at most %d), not %d"
                          % (name, MAX_CHANNELS, len(seq)))
    return seq


def _options(size: Union[int, Sequence[int]], preset: Optional[str], channels: Optional[int],
             interp: Optional[Interp], placement: Optional[Placement], scaleup: Optional[bool],
             mode: Optional[BatchPadModeName], value: Optional[Union[int, Sequence[int]]],
             swap_rb: Optional[bool], scale: Optional[float], mean: Optional[PerChannel],
             std: Optional[PerChannel], dtype: Optional[npt.DTypeLike], layout: Optional[Layout],
             fit: Optional[Fit] = None, resize_shorter: Optional[int] = None,
             stride: Optional[int] = None, divisor: Optional[float] = None,
             pil_version: Optional[int] = None,
             input_format: Optional[InputFormat] = None,
             color_matrix: Optional[ColorMatrix] = None,
             color_range: Optional[ColorRange] = None,
             ) -> Tuple[Any, "np.dtype[Any]"]:
    """The clpad_letterbox_options of a call: the defaults, or the preset's,
    with every option given (not None) over them. `channels`: the images'
    (None: unknown yet), against which per-channel lists are checked."""
    hw = _args.axes("size", size, 2)
    lib = _lib.lib()
    o = _Options()
    lib.clpad_letterbox_options_init(ctypes.byref(o), hw[0], hw[1])
    if preset is not None:
        if not isinstance(preset, str):
            raise TypeError("preset must be a str, not %s" % type(preset).__name__)
        check(lib.clpad_letterbox_preset(_args.c_string("preset", preset), ctypes.byref(o)))
    # the options that are names, each parsed by clpad_<option>_from_name
    named = {"interp": interp, "placement": placement, "layout": layout, "fit": fit,
             "input_format": input_format, "color_matrix": color_matrix,
             "color_range": color_range}
    for name, v in named.items():
        if v is not None:
            setattr(o, name, _name_code("clpad_%s_from_name" % name, name, v))
    if mode is not None:
        o.pad_mode = _args.pad_mode_within_limits(mode)
    if resize_shorter is not None:
        o.resize_shorter = _int64("resize_shorter", resize_shorter)
        if fit is None:  # the crop resize_shorter goes with
            o.fit = 1
    elif fit is not None and o.fit != 1:
        # a preset's Resize(S) is the first step of its cover crop: another
        # fit leaves it out (docs/letterbox.md, 5.4)
        o.resize_shorter = 0
    if stride is not None:
        o.stride = _int64("stride", stride)
    if divisor is not None:
        o.divisor = _number("divisor", divisor)
    if pil_version is not None:
        if isinstance(pil_version, bool) or not isinstance(pil_version, (numbers.Integral,
                                                                         np.integer)):
            raise TypeError("pil_version must be an int, not %r" % (pil_version,))
        if pil_version not in (12, 13):
            raise value_error("pil_version = %r: 12 or 13 (the Pillow release whose resize "
                              "the pil-* kinds follow)" % (pil_version,))
        o.pil_version = int(pil_version)
    if scaleup is not None:
        o.scaleup = 1 if scaleup else 0
    if swap_rb is not None:
        o.swap_rb = 1 if swap_rb else 0
    codes = {v: k for k, v in _DTYPES.items()}
    dt: "np.dtype[Any]" = codes[o.dtype] if dtype is None else _interop.dtype(dtype)
    if dt not in _DTYPES:
        raise value_error("dtype %s: the batch is float32, float16 or uint8" % dt)
    o.dtype = _DTYPES[dt]
    if scale is not None:
        o.scale = _number("scale", scale)
    per = []
    if mean is not None:
        per.append(("mean", _per_channel("mean", mean, float), o.mean))
    if std is not None:
        per.append(("std", _per_channel("std", std, float), o.std))
    if value is not None:
        values = _per_channel("value", value, lambda v: _args.whole("value", v))
        if o.pad_mode != 0 and any(values):
            raise _args.unused_value("value", value, mode)
        for v in values:
            if not 0 <= v <= 255:
                raise value_error("value %d is not a uint8 (0..255)" % v)
        per.append(("value", values, o.pad_value))
    for name, vals, field in per:
        if channels is not None and len(vals) not in (1, channels):
            raise value_error("%s has %d values but the images have %d channels"
                              % (name, len(vals), channels))
        for c in range(MAX_CHANNELS):
            field[c] = vals[c if c < len(vals) else 0]
    return o, dt


def _number(name: str, v: Any) -> float:
    """A float option: a real number (a numpy scalar too)."""
    if not isinstance(v, (numbers.Real, np.generic)):
        raise TypeError("%s must be a number, not %r" % (name, v))
    return float(v)


def _int64(name: str, v: Any) -> int:
    """An int option that the library checks, kept from wrapping on its way."""
    i = _args.whole(name, v)
    if not -2**63 <= i < 2**63:
        raise value_error("%s = %d is out of range" % (name, i))
    return i


def _transform(t: Any, h: Optional[int], w: Optional[int]) -> LetterboxTransform:
    return LetterboxTransform(float(t.scale), int(t.pad_top), int(t.pad_left),
                              int(t.resized_height), int(t.resized_width), h, w,
                              float(t.scale_y), float(t.scale_x))


# ---- pyopencl arrays: images and frames already on the device ----------------------------


def _on_device(x: Any) -> bool:
    """Whether images[i] is a pyopencl array, or a tuple of planes holding one."""
    if isinstance(x, (tuple, list)):
        return any(_pyopencl.is_device_array(p) for p in x)
    return _pyopencl.is_device_array(x)


class _DevPlane(NamedTuple):
    """A plane of a device image: the array, its row stride and the bytes
    from its first byte to the end of its last row."""

    array: Any
    stride: int
    span: int


def _dev_plane(i: int, what: str, a: Any, shape: Tuple[int, ...]) -> _DevPlane:
    """Plane `what` of device image i: a uint8 pyopencl array of `shape`
    (a 2-D chroma plane may also be (rows, cols / 2, 2)), unit-stride rows."""
    if not _pyopencl.is_device_array(a):
        raise TypeError("images[%d]: the %s plane is a %s; a frame's planes are all pyopencl "
                        "arrays or all host arrays" % (i, what, type(a).__name__))
    if a.dtype != np.uint8:
        raise value_error("images[%d]: the %s plane has dtype %s; planes are uint8"
                          % (i, what, a.dtype))
    st = tuple(int(s) for s in a.strides)
    sh = tuple(int(d) for d in a.shape)
    if len(shape) == 2 and len(sh) == 3 and sh[2] == 2 and st[1:] == (2, 1):
        sh, st = (sh[0], sh[1] * 2), (st[0], 1)  # NV12's UV as (H/2, W/2, 2)
    if sh != shape:
        raise value_error("images[%d]: the %s plane has shape %s, not %s"
                          % (i, what, sh, shape))
    row = shape[1] * (shape[2] if len(shape) == 3 else 1)
    if (st[-1] != 1 or (len(shape) == 3 and st[1] != shape[2])
            or (shape[0] > 1 and st[0] < row)):
        raise value_error("images[%d]: the %s plane's strides %s: on the device clpad reads "
                          "rows of adjacent samples in place (any row stride); make a "
                          "contiguous copy first" % (i, what, st))
    stride = st[0] if shape[0] > 1 else row
    return _DevPlane(a, stride, (shape[0] - 1) * stride + row)


def _dev_image(i: int, x: Any, fmt: int) -> Tuple[Any, List[_DevPlane]]:
    """The clpad_image of device image i (offsets relative to each plane's own
    buffer, set by _device_batch) and its planes (Y first)."""
    if not fmt:
        if isinstance(x, (tuple, list)):
            raise TypeError("images[%d] is a tuple; packed images are arrays (tuples of "
                            "planes are YUV frames: input_format=)" % i)
        if x.ndim not in (2, 3):
            raise value_error("images[%d]: %d axes; images are uint8 HxW or HxWxC"
                              % (i, x.ndim))
        h, w = int(x.shape[0]), int(x.shape[1])
        c = int(x.shape[2]) if x.ndim == 3 else 1
        if h == 0 or w == 0:
            raise value_error("images[%d]: an image of %d x %d pixels" % (i, h, w))
        p = _dev_plane(i, "image", x, (h, w, c) if x.ndim == 3 else (h, w))
        return _Image(height=h, width=w, channels=c, row_stride=p.stride), [p]
    semi = fmt in (_lib.constant("CLPAD_INPUT_NV12"), _lib.constant("CLPAD_INPUT_NV21"))
    if isinstance(x, (tuple, list)):
        want = 2 if semi else 3
        if len(x) != want:
            raise value_error("images[%d]: a tuple of %d planes; this format has %d (%s)"
                              % (i, len(x), want, "Y, UV" if semi else "Y, U, V"))
        if not _pyopencl.is_device_array(x[0]) or x[0].ndim != 2:
            raise value_error("images[%d]: the Y plane is a 2-D uint8 pyopencl array" % i)
        h, w = int(x[0].shape[0]), int(x[0].shape[1])
        ps = [_dev_plane(i, "Y", x[0], (h, w))]
        ps += [_dev_plane(i, "UV" if semi else ("first chroma", "second chroma")[k - 1], x[k],
                          (h // 2, w if semi else w // 2)) for k in range(1, want)]
        im = _Image(height=h, width=w, channels=3, row_stride=ps[0].stride, separate_planes=1)
        for k, p in enumerate(ps[1:]):
            im.plane_stride[k] = p.stride
        return im, ps
    if x.dtype != np.uint8 or x.ndim != 2:
        raise value_error("images[%d]: a frame is a 2-D uint8 array (H * 3 / 2, W) or a tuple "
                          "of planes, not %s of shape %s" % (i, x.dtype, tuple(x.shape)))
    rows, w = int(x.shape[0]), int(x.shape[1])
    if rows % 3:
        raise value_error("images[%d]: %d rows is not H * 3 / 2 for an even H (shape (H * 3 "
                          "/ 2, W))" % (i, rows))
    p = _dev_plane(i, "frame", x, (rows, w))
    if not semi and rows > 1 and p.stride != w:
        raise value_error("images[%d]: an I420 / YV12 frame array must be dense (row stride "
                          "%d, width %d): its chroma rows are packed half rows; pass a tuple "
                          "of planes, or a contiguous copy" % (i, p.stride, w))
    return _Image(height=rows // 3 * 2, width=w, channels=3, row_stride=p.stride), [p]


def _device_batch(seq: List[Any], fmt: int, out: Any, options: Any) -> Tuple[Any, List[Any]]:
    """letterbox / preprocess of pyopencl images or frames: one launch
    (clpad_enqueue_letterbox) on the first image's queue, into a pyopencl
    array (or ``out``, one), after every input's events. Planes in one buffer
    are read in place; planes in several buffers are first copied, on the
    device, into one (the kernel reads one buffer)."""
    cl, cla = _pyopencl.modules("pyopencl arrays")
    n = len(seq)
    arr = (_Image * n)()
    planes: List[List[_DevPlane]] = []
    for i, x in enumerate(seq):
        if not _on_device(x) or (isinstance(x, (tuple, list))
                                 and not all(_pyopencl.is_device_array(p) for p in x)):
            raise TypeError("images[%d] is not a pyopencl array, but images[%d] is: a batch "
                            "is all pyopencl arrays (on one context) or all host arrays"
                            % (i, next(k for k, y in enumerate(seq) if _on_device(y))))
        arr[i], ps = _dev_image(i, x, fmt)
        planes.append(ps)
    first = planes[0][0].array
    ctx_ptr = int(first.context.int_ptr)
    for i, ps in enumerate(planes):
        for p in ps:
            if int(p.array.context.int_ptr) != ctx_ptr:
                raise value_error("images[%d] is on another OpenCL context than images[0]: "
                                  "one launch reads one context's buffers; copy it to "
                                  "images[0]'s context first" % i)
    q = first.queue
    if q is None:
        raise value_error("images[0] has no queue: clpad runs on the first image's queue "
                          "(set its .queue, e.g. with .with_queue(queue))")
    o, dt = options(int(arr[0].channels))
    lib = _lib.lib()
    shape = (ctypes.c_int64 * 4)()
    check(lib.clpad_letterbox_plan(arr, n, ctypes.byref(o), shape, None))
    out_shape = tuple(int(s) for s in shape)
    if out is None:
        out = cla.empty(q, out_shape, dt, allocator=first.allocator)
    else:
        if not isinstance(out, cla.Array):
            raise TypeError("out must be a pyopencl.array.Array for pyopencl images, not %s"
                            % type(out).__name__)
        if tuple(out.shape) != out_shape or out.dtype != dt:
            raise value_error("out is %s %s, but the batch is %s %s"
                              % (tuple(out.shape), out.dtype, out_shape, dt))
        if not out.flags.c_contiguous:
            raise value_error("out must be C-contiguous")
        if int(out.context.int_ptr) != ctx_ptr:
            raise value_error("out is on another OpenCL context than the images")
    out_mem = _pyopencl._mem(cl, out, "out")
    # the buffers, each with the span [lo, hi) of its bytes that the planes use
    bufs: Dict[int, List[Any]] = {}
    for i, ps in enumerate(planes):
        for p in ps:
            m = _pyopencl._mem(cl, p.array, "images[%d]" % i)
            if (m == int(out_mem) and p.array.offset < out.offset + out.nbytes
                    and out.offset < p.array.offset + p.span):
                raise value_error("out shares memory with images[%d]" % i)
            b = bufs.setdefault(m, [p.array.base_data, p.array.offset, 0, []])
            b[1] = min(b[1], p.array.offset)
            b[2] = max(b[2], p.array.offset + p.span)
            b[3].extend(p.array.events)
    waits = list(out.events)
    where = {m: 0 for m in bufs}  # where a buffer's byte 0 lies in the input
    if len(bufs) == 1:
        src = next(iter(bufs.values()))[0]
        waits += next(iter(bufs.values()))[3]
    else:
        src = cl.Buffer(q.context, cl.mem_flags.READ_WRITE, size=sum(b[2] - b[1]
                                                                     for b in bufs.values()))
        at = 0
        for m, (buf, lo, hi, evs) in bufs.items():
            waits.append(cl.enqueue_copy(q, src, buf, byte_count=hi - lo, src_offset=lo,
                                         dst_offset=at, wait_for=evs or None))
            where[m] = at - lo
            at += hi - lo
    for i, ps in enumerate(planes):
        offs = [where[_pyopencl._mem(cl, p.array, "")] + p.array.offset for p in ps]
        arr[i].offset = offs[0]
        for k, off in enumerate(offs[1:]):
            arr[i].plane_offset[k] = off
    t = (_Transform * n)()
    lib.clpad_letterbox_transform_init(t)  # t[0].size: the size of every entry
    ctx = _context.wrapped_context(ctx_ptr, int(q.int_ptr), int(q.device.int_ptr))
    wait_list = (ctypes.c_void_p * max(len(waits), 1))(*[int(e.int_ptr) for e in waits])
    event = ctypes.c_void_p()
    check(lib.clpad_enqueue_letterbox(ctx, arr, n, ctypes.byref(o),
                                      ctypes.c_void_p(int(src.int_ptr)),
                                      ctypes.c_void_p(out_mem), out.offset, t,
                                      ctypes.c_void_p(int(q.int_ptr)), len(waits),
                                      wait_list if waits else None, ctypes.byref(event)))
    if event.value:
        evt = cl.Event.from_int_ptr(event.value, retain=False)
        out.add_event(evt)
        for ps in planes:  # later writers of the images wait for this read
            for p in ps:
                p.array.add_event(evt)
    del src  # (released once the launch that reads it is done)
    return out, [_transform(t[i], int(arr[i].height), int(arr[i].width)) for i in range(n)]


@_interop.keeps_out
def letterbox(images: Iterable[Any], size: Union[int, Sequence[int]], *,
              preset: Optional[str] = None,
              interp: Optional[Interp] = None, placement: Optional[Placement] = None,
              scaleup: Optional[bool] = None, mode: Optional[BatchPadModeName] = None,
              value: Optional[Union[int, Sequence[int]]] = None,
              swap_rb: Optional[bool] = None, scale: Optional[float] = None,
              mean: Optional[PerChannel] = None, std: Optional[PerChannel] = None,
              dtype: Optional[npt.DTypeLike] = None, layout: Optional[Layout] = None,
              stride: Optional[int] = None, divisor: Optional[float] = None,
              pil_version: Optional[int] = None,
              input_format: Optional[InputFormat] = None,
              color_matrix: Optional[ColorMatrix] = None,
              color_range: Optional[ColorRange] = None,
              device: DeviceLike = None,
              out: Optional["np.ndarray[Any, Any]"] = None,
              ) -> Tuple["np.ndarray[Any, Any]", List[LetterboxTransform]]:
    """Letterbox a batch of uint8 images into one tensor, in one kernel launch.

    images: a sequence of images, each a uint8 array HxWxC (or HxW: one
        channel), a file name (str, bytes or os.PathLike: read as
        :func:`clpad.imread` reads it, by cv2.imread's rules, RGB) or a PIL
        image (modes "RGB", "L" and "RGBA" as they are, others converted
        with ``.convert("RGB")``); each of its own size, C = 1, 3 or 4 and
        the same for all; or a 4-D array (N images of one size). One image
        alone is a ClpadValueError (a 3-D array would otherwise be read as H
        images): pass ``[image]``. An element that is None (what cv2.imread
        returns for a file it cannot read) or not an image is a
        ClpadValueError naming it (``images[2] is None``). Rows may be
        strided (a crop is read in place); the images are never modified.
        For folders of files, :func:`clpad.letterbox_files` decodes on every
        core and streams the batches.
    size: the slot (H, W) of every image, or one int for a square slot.
    preset: None, or a named set of the options below (``"ultralytics"``:
        what Ultralytics' predictor feeds a YOLO model: RGB, NCHW, float32,
        border 114, centred, x / 255 as a division, i.e. std=255). Options
        given (not None) override the preset's; for BGR arrays from
        cv2.imread add ``swap_rb=True`` (files clpad reads are RGB).
    Each image is resized keeping its aspect by r = min(H / h, W / w) to
    round(w * r) x round(h * r) (Python's round; scaleup=False: never
    enlarge), with OpenCV's INTER_LINEAR arithmetic for 8-bit images
    (``interp="bilinear"``, the default; cv2.resize byte for byte),
    INTER_NEAREST (``"nearest"``), INTER_AREA (``"area"``: cv2.resize
    with INTER_AREA byte for byte, reductions and enlargements),
    INTER_CUBIC (``"bicubic"``: OpenCV's own arithmetic, byte for byte; an
    OpenCV built with Intel IPP, as the PyPI wheels are, runs IPP's cubic
    by default, within 1 of it) or Pillow's antialiased Image.resize
    (``"pil-bilinear"``, ``"pil-bicubic"``, ``"pil-lanczos"``: PIL's
    BILINEAR, BICUBIC and LANCZOS byte for byte, 1- and 3-channel images;
    4 channels are resized each on its own, where Pillow premultiplies
    RGBA by its alpha); placed in its slot (``placement="center"``, the default:
    the odd pixel to the bottom/right, as Ultralytics' LetterBox; or
    ``"top-left"``); the border filled by ``mode`` relative to the resized
    image (constant, the default, with ``value``, u8 per channel, default
    114; edge, reflect, symmetric, wrap; or a framework's name as
    :func:`clpad.pad` takes it, where it means one of these: "cv:REPLICATE",
    "torch:circular"; "np:reflect", "np:symmetric", "cv:REFLECT" and
    "cv:REFLECT_101" mean a mirror repeated beyond the limits, which
    letterbox does not have, and raise ClpadValueError naming the mode to
    give). A value other than 0 with a mode other than constant raises
    ClpadValueError, as in :func:`clpad.pad`. Every sample v of output
    channel c stored as ((v * scale) / divisor - mean[c]) / std[c] in
    float32 (defaults scale 1, divisor 1, mean 0, std 1), then as ``dtype`` (float32, the default;
    float16 rounded to nearest even; uint8 rounded and saturated).
    ``swap_rb`` swaps channels 0 and 2 (RGB <-> BGR; default False).
    ``value`` is per channel of the images (before the swap), ``mean`` and
    ``std`` per output channel (after it); each is one number for all
    channels or one per channel. scale, mean and std are rounded to float32.

    ``stride`` (None, or s >= 1): Ultralytics' auto (rect) mode, as
    :func:`preprocess` says.

    input_format: None or "packed" (the images above), or "nv12", "nv21",
        "i420" (also "yuv420p") or "yv12": YUV 4:2:0 video frames, each a
        2-D uint8 array (H * 3 / 2, W) in the format's one-buffer layout
        (what cv2.cvtColor takes and PyAV's ``frame.to_ndarray()`` gives
        for nv12 and yuv420p), or a tuple of its planes read in place:
        ``(Y, UV)`` for nv12 / nv21 (Y of (H, W), UV of (H / 2, W) or
        (H / 2, W / 2, 2)), ``(Y, U, V)`` for i420 (``(Y, V, U)`` order for
        yv12: the planes in memory order), each with any row stride; or a
        3-D array of N frames of one size. H and W must be even. Each
        source pixel is converted to RGB (``swap_rb``: BGR) as the resize
        reads it, in the same launch; the batch has 3 channels and
        ``value`` is an RGB colour. color_matrix "bt601" (the default),
        "bt709" or "bt2020" and color_range "limited" (the default) or
        "full" choose the conversion: bt601 limited is OpenCV's
        ``cvtColor(COLOR_YUV2RGB_NV12 / _NV21 / _I420 / _YV12)`` byte for
        byte; the others are within 1 of the exact result
        (clpad/docs/letterbox.md, "YUV frames", states each rule). interp
        "bilinear" or "nearest" (the pil-* kinds raise ClpadValueError).

    Images and frames may also be ``pyopencl.array.Array`` (all of them, on
    one OpenCL context; uint8, rows of adjacent samples, any row stride):
    the call then runs on the first image's queue, after the inputs'
    events, and returns a pyopencl array (``out`` may be one); planes in one
    buffer are read in place, planes in several buffers are first copied
    on the device into one (clpad/docs/letterbox.md, "YUV frames"). An
    input or ``out`` on another context is a ClpadValueError; ``device``
    is a TypeError with pyopencl arrays.

    Returns (batch, transforms): batch is [N, C, H, W] (layout "NCHW", the
    default) or [N, H, W, C] ("NHWC") of dtype, or ``out`` (a C-contiguous
    array of that shape and dtype); transforms holds one
    :class:`LetterboxTransform` per image (its scale, pad_top, pad_left,
    resized_height, resized_width and the source size; its ``to_source``
    maps boxes back).

    device: as for :func:`clpad.pad` (None: the default device; ``"reference"``:
    the CPU reference path). The result is identical, byte for byte, on
    every device and on the CPU reference path. A batch larger than the
    device's largest buffer runs as several kernel launches; one image too
    large for it alone raises ClpadRuntimeError, which names
    ``device="reference"``.

    Raises ClpadValueError for an invalid option or image, naming the image
    ("images[3]: row_stride ...", "images[1]: pad_top = 319 exceeds the
    reflect limit ...") or the file, TypeError for arguments of the wrong
    type, ClpadRuntimeError for device failures and files that cannot be read.
    Semantics: docs/letterbox.md, installed with the package as
    clpad/docs/letterbox.md (Ultralytics' LetterBox, OpenCV's resize, clpad's
    Pad modes), exact on every device.
    """
    return preprocess(images, size, preset=preset, interp=interp, placement=placement,
                      scaleup=scaleup, mode=mode, value=value, swap_rb=swap_rb, scale=scale,
                      mean=mean, std=std, dtype=dtype, layout=layout, stride=stride,
                      divisor=divisor, pil_version=pil_version, input_format=input_format,
                      color_matrix=color_matrix, color_range=color_range, device=device, out=out)


def preprocess(images: Iterable[Any], size: Union[int, Sequence[int]], *,
               fit: Optional[Fit] = None, resize_shorter: Optional[int] = None,
               stride: Optional[int] = None, preset: Optional[str] = None,
               interp: Optional[Interp] = None, placement: Optional[Placement] = None,
               scaleup: Optional[bool] = None, mode: Optional[BatchPadModeName] = None,
               value: Optional[Union[int, Sequence[int]]] = None,
               swap_rb: Optional[bool] = None, scale: Optional[float] = None,
               divisor: Optional[float] = None,
               mean: Optional[PerChannel] = None, std: Optional[PerChannel] = None,
               dtype: Optional[npt.DTypeLike] = None, layout: Optional[Layout] = None,
               pil_version: Optional[int] = None,
               input_format: Optional[InputFormat] = None,
               color_matrix: Optional[ColorMatrix] = None,
               color_range: Optional[ColorRange] = None,
               device: DeviceLike = None,
               out: Optional["np.ndarray[Any, Any]"] = None,
               ) -> Tuple["np.ndarray[Any, Any]", List[LetterboxTransform]]:
    """Preprocess a batch of uint8 images into one tensor, in one kernel launch:
    the letterbox, or a classifier's resize and centre crop.

    :func:`letterbox` is this call with fit "contain" (its default); every
    argument of :func:`letterbox` means the same here. The others:

    fit: how each image fills its slot (clpad/docs/letterbox.md, "Fit"):
        "contain" (the default; keep the aspect, the whole image in the
        slot, the rest border), "cover" (keep the aspect by r = max(H / h,
        W / w), resized to round(w * r) x round(h * r), the slot cropped
        from the centre: top = int(round((h' - H) / 2)) as torchvision's
        CenterCrop) or "stretch" (resized to the slot exactly, each axis by
        its own ratio: Ultralytics' scaleFill; ``scaleup`` is not used).
    resize_shorter: None, or S: torchvision's Resize(S) (the shorter side to
        S, the longer to int(S * long / short)) then CenterCrop(size); needs
        fit "cover", which it implies when fit is None.
    stride: None, or s >= 1 with fit "contain": Ultralytics' auto (rect)
        mode, each axis's border reduced to its remainder modulo s; the
        batch's slot is the largest of its images' (the output's H, W may
        be smaller than ``size``).
    divisor: every sample v becomes ((v * scale) / divisor - mean[c]) /
        std[c] in float32, operation by operation (default 1).
        torchvision's ToTensor + Normalize is scale 1, divisor 255.
    preset: also "imagenet": torchvision's ImageNet evaluation recipe
        (Resize(256), CenterCrop(size), ToTensor, Normalize with the ImageNet
        mean and std; RGB, NCHW, float32; clpad/docs/letterbox.md says which
        resize), e.g. ``preprocess(images, 224, preset="imagenet")``.
    pil_version: 13 (the default) or 12: the Pillow release whose
        ``Image.resize`` the "pil-*" kinds reproduce byte for byte. The two
        differ in which pass runs first for some sizes: Pillow 13 runs the
        vertical pass first where the height is reduced and 2 (W - w) >
        H - h, Pillow 12 only for an image more than 100 times taller than
        wide whose height is reduced (clpad/docs/letterbox.md, "Resize").

    Returns (batch, transforms) as :func:`letterbox`; each transform's
    pad_top / pad_left are negative where the image is cropped, and its
    ``to_source`` maps boxes back with each axis's ratio.
    Raises as :func:`letterbox`; an option out of range (resize_shorter
    with another fit, stride with a fit other than "contain", divisor 0,
    pil_version not 12 or 13)
    is a ClpadValueError naming it.
    """
    fmt = 0
    if input_format is not None:
        fmt = _name_code("clpad_input_format_from_name", "input_format", input_format)
    if fmt and isinstance(images, np.ndarray) and images.ndim == 3:
        seq = list(images)  # N frames of one size
    elif fmt and isinstance(images, np.ndarray) and images.ndim == 2:
        raise value_error("images is one frame of shape %s, not a batch: pass [frame]"
                          % (images.shape,))
    else:
        seq = _batch(images)
    if any(_on_device(x) for x in seq):
        _pyopencl.fail_host_only("device", device)
        return _device_batch(seq, fmt, out, lambda channels: _options(
            size, preset, channels, interp, placement, scaleup, mode, value, swap_rb, scale,
            mean, std, dtype, layout, fit, resize_shorter, stride, divisor, pil_version,
            input_format, color_matrix, color_range))
    keep: List[Any] = []
    n = len(seq)
    arr = (_Image * max(n, 1))()
    for i, x in enumerate(seq):
        arr[i] = _frame(i, x, fmt, keep) if fmt else _image(i, x, keep)
    channels = int(arr[0].channels) if n else 3
    o, dt = _options(size, preset, channels, interp, placement, scaleup, mode, value, swap_rb,
                     scale, mean, std, dtype, layout, fit, resize_shorter, stride, divisor,
                     pil_version, input_format, color_matrix, color_range)
    lib = _lib.lib()
    shape = (ctypes.c_int64 * 4)()
    check(lib.clpad_letterbox_plan(arr, n, ctypes.byref(o), shape, None))
    out_shape = tuple(int(s) for s in shape)
    result = _memory.batch_output(out, out_shape, dt, keep, "an image")
    t = (_Transform * max(n, 1))()
    lib.clpad_letterbox_transform_init(t)  # t[0].size: the size of every entry
    ctx = _context.context(device)
    check(lib.clpad_letterbox(ctx, arr, n, ctypes.byref(o), result.ctypes.data, result.nbytes,
                              t, None))
    del keep
    return result, [_transform(t[i], int(arr[i].height), int(arr[i].width)) for i in range(n)]
