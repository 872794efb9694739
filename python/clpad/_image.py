"""clpad.imread: an image file into a NumPy array, by cv2.imread's rules
(RGB), through libclpad's decoders (include/clpad_image.h)."""

from __future__ import annotations

import ctypes
import numbers
import os
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _lib
from ._errors import check, value_error

CHANNELS_KEEP = _lib.constant("CLPAD_CHANNELS_KEEP")

_ReadOptions = _lib.struct("clpad_read_options")
_Decoded = _lib.struct("clpad_decoded_image")

_U16 = _lib.constant("CLPAD_U16")


def _channels(channels: Any) -> int:
    if isinstance(channels, str):
        if channels.lower() == "keep":
            return CHANNELS_KEEP
        raise value_error("channels: %r is not 1, 3, 4 or 'keep'" % (channels,))
    if isinstance(channels, bool) or not isinstance(channels, numbers.Integral) or \
            int(channels) not in (1, 3, 4):
        raise value_error("channels: %r is not 1, 3, 4 or 'keep'" % (channels,))
    return int(channels)


def _positive(name: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError("%s must be an int, not %s" % (name, type(v).__name__))
    if int(v) < 1:
        raise value_error("%s: %d is not >= 1" % (name, int(v)))
    return int(v)


def imread(path: Union[str, bytes, "os.PathLike[Any]"], channels: Union[int, str] = 3, *,
           keep_depth: bool = False, ignore_orientation: bool = False,
           max_pixels: Optional[int] = None,
           min_size: Optional[Union[int, Sequence[int]]] = None,
           ) -> "np.ndarray[Any, Any]":
    """Read an image file (PNG, JPEG, BMP, binary PNM) into an HxWxC array.

    The rules are OpenCV's ``cv2.imread(path, cv2.IMREAD_COLOR)`` by default,
    with the channels in RGB order (OpenCV's are BGR): the result equals
    ``cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)`` byte for byte (see
    "Reading images" in docs/letterbox.md, installed with the package as
    clpad/docs/letterbox.md, for every rule and the exceptions: corrupt files are refused here, where OpenCV
    returns what it could decode).

    path: a file name (str, bytes or os.PathLike); the format comes from the
        file's signature, not its name. A FIFO is read as a stream.
    channels: 3 (default, IMREAD_COLOR: grey replicated, alpha dropped,
        palette expanded, CMYK JPEG converted), 1 (IMREAD_GRAYSCALE: colour
        converted as OpenCV converts it), 4 (RGBA: the alpha or PNG tRNS
        transparency kept, or an opaque one added), or ``"keep"``: as stored
        (grey 1, grey + alpha 2, colour 3, colour + alpha 4).
    keep_depth: False: uint8, a 16-bit PNG or PNM reduced to its high byte
        (v >> 8, as OpenCV reduces it); True: a 16-bit file gives uint16.
    ignore_orientation: False: the EXIF orientation (JPEG, PNG eXIf) is
        applied, as cv2.imread applies it; True: the pixels as stored.
    max_pixels: refuse an image of more pixels (width * height); None: the
        default, 178,956,970 (Pillow's decompression-bomb limit). Checked
        from the header, before anything is decoded.
    min_size: None (default: full size, exact) or (min_height, min_width)
        (one int for both): a JPEG is decoded scaled by M/8 in the DCT domain
        (libjpeg-turbo; M = 1, 2, 4 or 8, as cv2's IMREAD_REDUCED_* and
        Pillow's draft), with the smallest M whose result, after orientation,
        is still at least that large; other formats are not scaled.

    Returns a C-contiguous array of shape (H, W, C), uint8 (uint16 with
    keep_depth and a 16-bit file); C is 1 for ``channels=1``.

    Raises TypeError for arguments of the wrong type; ClpadValueError for an
    invalid option, a file that is not an image of a known format, is
    truncated or corrupt (a PNG's CRC or Adler-32, a JPEG's data), or exceeds
    max_pixels (the message names the file and how to raise the limit);
    ClpadRuntimeError when the file cannot be opened or read, or memory runs
    out. The GIL is released while the file is read and decoded.
    """
    if isinstance(path, (str, bytes)) or hasattr(path, "__fspath__"):
        raw = os.fsencode(path)
    else:
        raise TypeError("path must be str, bytes or os.PathLike, not %s" % type(path).__name__)
    if b"\0" in raw:
        raise value_error("path: %r contains a NUL byte" % (path,))
    lib = _lib.lib()
    o = _ReadOptions()
    lib.clpad_read_options_init(ctypes.byref(o))
    o.channels = _channels(channels)
    o.keep_depth = 1 if keep_depth else 0
    o.ignore_orientation = 1 if ignore_orientation else 0
    if max_pixels is not None:
        o.max_pixels = min(_positive("max_pixels", max_pixels), 2**64 - 1)
    if min_size is not None:
        if isinstance(min_size, numbers.Integral) and not isinstance(min_size, bool):
            hw = [min_size, min_size]
        else:
            try:
                hw = list(min_size)  # type: ignore[arg-type]
            except TypeError:
                raise TypeError("min_size must be an int or (height, width), not %s"
                                % type(min_size).__name__) from None
            if len(hw) != 2:
                raise value_error("min_size: expected (height, width), got %d values" % len(hw))
        o.min_height = min(_positive("min_size[0]", hw[0]), 2**63 - 1)
        o.min_width = min(_positive("min_size[1]", hw[1]), 2**63 - 1)
    img = _Decoded()
    img.size = ctypes.sizeof(_Decoded)
    check(lib.clpad_image_read(raw, ctypes.byref(o), ctypes.byref(img)))
    try:
        dtype = np.uint16 if img.dtype == _U16 else np.uint8
        out = np.empty((img.height, img.width, img.channels), dtype=dtype)
        if out.nbytes:
            ctypes.memmove(out.ctypes.data, img.data, out.nbytes)
    finally:
        lib.clpad_decoded_image_free(ctypes.byref(img))
    return out
