"""clpad: tensor padding and data movement on OpenCL, from NumPy and PyOpenCL.

A thin Python layer (ctypes) over the clpad C library, which ``pip install``
builds and puts inside this package::

    import numpy as np, clpad
    clpad.pad(np.arange(6), 2, mode="reflect")          # numpy.pad's form
    # array([2, 1, 0, 1, 2, 3, 4, 5, 4, 3])
    x = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    clpad.pad(x, pads_begin=[2, -1], pads_end=[-1, 3], mode="reflect")   # OpenVINO's
    # array([[10, 11, 12, 11, 10,  9],
    #        [ 6,  7,  8,  7,  6,  5],
    #        [ 2,  3,  4,  3,  2,  1],
    #        [ 6,  7,  8,  7,  6,  5]], dtype=int32)

Operations: :func:`pad` (numpy.pad's and OpenVINO Pad-12's signatures),
:func:`space_to_batch`, :func:`batch_to_space`, :func:`window_geometry`
(the padding of convolution and pooling windows per framework), and the
batch operations :func:`letterbox` (uint8 images of any sizes into one
detector-ready tensor), :func:`preprocess` (the same with a classifier's
fits: resize the shorter side and crop the centre, stretch) and :func:`pad_stack` (tensors of different shapes
into one padded batch), one kernel launch per batch; :func:`imread` reads an
image file by cv2.imread's rules (RGB); :func:`letterbox_files` turns
folders of image files into letterboxed batches, decoding on every core.

Arrays in, arrays out: the input is never modified (a non-contiguous or
byte-swapped input is copied first), the output is a new C-contiguous array of
the input's dtype, or ``out=``. Supported dtypes: bool, int8..int64,
uint8..uint64, float16, float32, float64, and ml_dtypes.bfloat16 when ml_dtypes
is installed. A ``pyopencl.array.Array`` in gives one out, computed on its
device and queue with no copy through the host.

Devices: ``device=None`` is clpad's default (``$CLPAD_DEVICE``, else the first
GPU, accelerator, then CPU OpenCL device; the CPU reference path, with a
RuntimeWarning, when there is no OpenCL device at all); a string is a device
spec, ``"P:D"`` or a case-insensitive substring of the device or platform name
(as ``clpad devices`` lists them); a :class:`Device` from :func:`devices`;
``"reference"`` is the CPU reference path without OpenCL (the CLI's ``--cpu``).

Threads and processes: one context per device is created on first use and
shared by every thread (calls may run at once). Each process has its own
contexts: a child made by fork() never uses its parent's. OpenCL drivers
cannot be used again in a forked child once the parent has used them, so such
a child runs the CPU reference path for ``device=None`` (with a
RuntimeWarning) and raises ClpadRuntimeError for an explicit device; worker
processes started with "spawn" or "forkserver" (as Dask's and Ray's are) use
the device.

Errors raise :class:`ClpadValueError` (a ValueError: invalid arguments,
shapes, pads, overflow, unsupported dtype, mode or feature) or
:class:`ClpadRuntimeError` (a RuntimeError: device, OpenCL, memory), with
clpad's message, which names the offending argument.

The library is the one inside this package, or ``$CLPAD_LIBRARY`` (a file or
a directory) when set, or one on the system path; see :mod:`clpad._lib`.
Without a system OpenCL driver, ``pip install clpad[pocl]`` gives PoCL, a CPU
driver, which the package then uses (the rule: :mod:`clpad._icd`).

Documents: the docs/*.md files the docstrings cite (docs/modes.md,
docs/letterbox.md, ...) are installed with the package, in clpad/docs/
(``os.path.join(os.path.dirname(clpad.__file__), "docs")``). The wheel also
installs the ``clpad`` command (``python -m clpad`` runs it too).
"""

from __future__ import annotations

from ._about import VERSION
from ._args import MAX_RANK
from ._context import (
    REFERENCE,
    Device,
    context_info,
    devices,
    library_path,
    library_version,
    warmup,
)
from ._errors import ClpadError, ClpadRuntimeError, ClpadValueError
from ._image import imread
from ._letterbox import (LetterboxTransform, boxes_to_slot, boxes_to_source, letterbox,
                         preprocess)
from ._pad import pad
from . import dask  # clpad.dask: lazy pads of Dask arrays (imports Dask only when used)
from ._pad_stack import pad_stack
from ._space_batch import batch_to_space, space_to_batch
from ._stream import LetterboxFiles, expand_paths, letterbox_files
from ._types import (BatchPadModeName, DeviceArray, Fit, Interp, Layout, PadMode, PadModeName,
                     PadWidth, Placement)
from ._window import WindowGeometry, window_geometry


__version__ = VERSION

__all__ = [
    "pad",
    "space_to_batch",
    "batch_to_space",
    "window_geometry",
    "WindowGeometry",
    "letterbox",
    "preprocess",
    "LetterboxTransform",
    "letterbox_files",
    "LetterboxFiles",
    "expand_paths",
    "boxes_to_source",
    "boxes_to_slot",
    "pad_stack",
    "imread",
    "devices",
    "Device",
    "context_info",
    "warmup",
    "library_path",
    "library_version",
    "ClpadError",
    "ClpadValueError",
    "ClpadRuntimeError",
    "MAX_RANK",
    "REFERENCE",
    "PadMode",
    "PadModeName",
    "BatchPadModeName",
    "PadWidth",
    "Interp",
    "Fit",
    "Placement",
    "Layout",
    "DeviceArray",
]
