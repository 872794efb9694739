"""Types of the public API, for annotations: clpad.PadMode, clpad.PadWidth,
clpad.DeviceArray (what clpad needs of a pyopencl.array.Array)."""

from __future__ import annotations

import sys
from typing import Any, Mapping, Sequence, Tuple, TypeVar, Union

import numpy as np

if sys.version_info >= (3, 8):
    from typing import Literal, Protocol
else:  # pragma: no cover
    from typing_extensions import Literal, Protocol

#: The pad modes: numpy.pad's names, which are also OpenVINO Pad-12's (plus wrap).
PadMode = Literal["constant", "edge", "reflect", "symmetric", "wrap"]

#: Other frameworks' names for the pad modes (clpad/docs/modes.md), as mode= takes them.
PadModeName = Literal[
    "constant", "edge", "reflect", "symmetric", "wrap",
    "cv:CONSTANT", "cv:REPLICATE", "cv:REFLECT", "cv:REFLECT_101", "cv:REFLECT101",
    "cv:DEFAULT", "cv:WRAP",
    "torch:constant", "torch:replicate", "torch:reflect", "torch:circular",
    "tf:CONSTANT", "tf:REFLECT", "tf:SYMMETRIC",
    "onnx:constant", "onnx:edge", "onnx:reflect", "onnx:wrap",
    "ov:constant", "ov:edge", "ov:reflect", "ov:symmetric",
    "np:constant", "np:edge", "np:reflect", "np:symmetric", "np:wrap"]

#: numpy.pad's modes that clpad.pad takes in numpy.pad's form only (numpy.pad computes them).
NumpyOnlyModeName = Literal["linear_ramp", "maximum", "mean", "median", "minimum", "empty"]

#: The names pad_stack and letterbox take: those of PadModeName whose meaning
#: they have (they mirror once, within Pad-12's limits; np:reflect,
#: np:symmetric and cv:REFLECT* mean a repeated mirror and raise).
BatchPadModeName = Literal[
    "constant", "edge", "reflect", "symmetric", "wrap",
    "cv:CONSTANT", "cv:REPLICATE", "cv:WRAP",
    "torch:constant", "torch:replicate", "torch:reflect", "torch:circular",
    "tf:CONSTANT", "tf:REFLECT", "tf:SYMMETRIC",
    "onnx:constant", "onnx:edge", "onnx:reflect", "onnx:wrap",
    "ov:constant", "ov:edge", "ov:reflect", "ov:symmetric",
    "np:constant", "np:edge", "np:wrap"]

#: Letterbox's interpolations: OpenCV's INTER_LINEAR and INTER_NEAREST for 8-bit images,
#: and Pillow's antialiased Image.resize (BILINEAR, BICUBIC, LANCZOS).
Interp = Literal["bilinear", "nearest", "pil-bilinear", "pil-bicubic", "pil-lanczos", "area",
                 "bicubic"]

#: Where an image or tensor goes in its slot: centred (the odd element at the
#: end) or at the start of every axis.
Placement = Literal["center", "top-left"]

#: The layout of a batch of images.
Layout = Literal["NCHW", "NHWC"]

#: How preprocess fits an image in its slot (clpad/docs/letterbox.md, "Fit").
Fit = Literal["contain", "cover", "stretch"]

#: numpy.pad's pad_width: an int, (before, after), one (before, after) per axis,
#: or {axis: int or (before, after)}.
PadWidth = Union[int, Sequence[int], Sequence[Sequence[int]], "np.ndarray[Any, Any]",
                 Mapping[int, Union[int, Tuple[int, int]]]]

#: pads_begin / pads_end / block_shape / crops: an int for every axis, or one per axis.
Ints = Union[int, Sequence[int], "np.ndarray[Any, Any]"]

#: A pad value: a number, a NumPy scalar, or a string parsed exactly ("-0.0", "nan").
Scalar = Union[int, float, bool, str, bytes, np.generic]


class DeviceArray(Protocol):
    """What clpad needs of a device array: the shape of ``pyopencl.array.Array``."""

    @property
    def shape(self) -> Tuple[int, ...]: ...

    @property
    def dtype(self) -> "np.dtype[Any]": ...

    @property
    def queue(self) -> Any: ...

    @property
    def context(self) -> Any: ...

    @property
    def base_data(self) -> Any: ...

    @property
    def offset(self) -> int: ...

    @property
    def events(self) -> Any: ...

    def add_event(self, evt: Any) -> None: ...


DeviceArrayT = TypeVar("DeviceArrayT", bound=DeviceArray)

#: Letterbox's pixel formats: packed HWC samples, or YUV 4:2:0 frames.
InputFormat = Literal["packed", "nv12", "nv21", "i420", "yv12", "yuv420p"]

#: The YCbCr matrix of YUV frames.
ColorMatrix = Literal["bt601", "bt709", "bt2020"]

#: The sample range of YUV frames: limited (video) or full (JPEG).
ColorRange = Literal["limited", "full"]
