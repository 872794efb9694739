"""clpad.letterbox_files: image files (folders, patterns, lists) into
letterboxed batches, decoded on every core in the background by libclpad's
stream (include/clpad_stream.h)."""

from __future__ import annotations

import ctypes
import numbers
import os
import sys
import threading
from typing import Any, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _context, _interop, _lib
from ._context import DeviceLike
from ._errors import ClpadRuntimeError, check, value_error
from ._image import _channels, _positive
from ._letterbox import LetterboxTransform, PerChannel, _options, _transform
from ._types import BatchPadModeName, Fit, Interp, Layout, Placement

PathArg = Union[str, bytes, "os.PathLike[Any]"]

_OFF = _lib.constant("CLPAD_DECODE_SCALE_OFF")
_DECODE_SCALE = {None: _OFF, "off": _OFF, False: _OFF,
                 "auto": _lib.constant("CLPAD_DECODE_SCALE_AUTO")}
_ON_ERROR = {"fail": _lib.constant("CLPAD_ON_ERROR_FAIL"),
             "skip": _lib.constant("CLPAD_ON_ERROR_SKIP")}
_KEEP_MISSING = _lib.constant("CLPAD_PATHS_KEEP_MISSING")
_IO = _lib.constant("CLPAD_ERR_IO")

_StreamOptions = _lib.struct("clpad_stream_options")
_StreamBatch = _lib.struct("clpad_stream_batch")


def _fs(name: str, p: Any) -> bytes:
    if isinstance(p, (str, bytes)) or hasattr(p, "__fspath__"):
        raw = os.fsencode(p)
    else:
        raise TypeError("%s must be str, bytes or os.PathLike, not %s"
                        % (name, type(p).__name__))
    if not raw:
        raise value_error("%s is empty" % name)
    if b"\0" in raw:
        raise value_error("%s: %r contains a NUL byte" % (name, p))
    return raw


def expand_paths(paths: Union[PathArg, Sequence[PathArg]]) -> List[str]:
    """The files that ``paths`` names, in order, by the rules of
    :func:`letterbox_files` (and of the CLI's IMAGE arguments): files,
    directories (image files below them, sorted), glob patterns and
    "@list.txt" files. Raises ClpadRuntimeError naming an argument that does
    not exist or matches nothing."""
    return _expand(paths, 0)




def _expand(paths: Union[PathArg, Sequence[PathArg]], flags: int) -> List[str]:
    """expand_paths with clpad_path_list_expand's flags."""
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        args = [_fs("paths", paths)]
    else:
        try:
            args = [_fs("paths[%d]" % i, p) for i, p in enumerate(paths)]
        except TypeError as e:
            if "not iterable" in str(e):
                raise TypeError("paths must be a path or a sequence of paths, not %s"
                                % type(paths).__name__) from None
            raise
    lib = _lib.lib()
    arr = (ctypes.c_char_p * max(len(args), 1))(*args)
    lst = ctypes.c_void_p()
    check(lib.clpad_path_list_expand(arr, len(args), flags, ctypes.byref(lst)))
    try:
        n = lib.clpad_path_list_count(lst)
        p = lib.clpad_path_list_paths(lst)
        return [os.fsdecode(p[i]) for i in range(n)]
    finally:
        lib.clpad_path_list_free(lst)


class LetterboxFiles:
    """The iterator :func:`letterbox_files` returns: ``(batch, transforms,
    paths)`` per step; ``skipped`` lists the files left out so far
    (``on_error="skip"``) as (path, message); ``paths`` (all the files, in
    order) and ``len()`` (their number). ``close()`` (or leaving a ``with``
    block, or the end) stops the decoder threads. Steps and ``close()`` are
    serialised: from several threads, each ``next()`` gets the following
    step whole, and ``close()`` waits for a step under way (the library's
    stream must not be closed during a call, nor its batch description read
    after the next call). It belongs to the process that made it: in a
    child made by fork() (its decoder threads stay in the parent) ``next()``
    raises ClpadValueError and ``close()`` returns at once, without the lock
    (a parent's thread may have held it at the fork)."""

    def __init__(self, files: List[str], lib: Any, stream: ctypes.c_void_p,
                 shape: Tuple[int, ...], dtype: "np.dtype[Any]", bar: Any,
                 out: Optional["np.ndarray[Any, Any]"] = None) -> None:
        self.paths = files
        self.skipped: List[Tuple[str, str]] = []
        self._lib = lib
        self._stream: Optional[ctypes.c_void_p] = stream
        self._shape = shape
        self._dtype = dtype
        self._bar = bar
        self._out = out
        self._done = False
        self._yielded = 0  # images returned so far
        self._spare: List["np.ndarray[Any, Any]"] = []  # arrays yielded before
        self._lock = threading.RLock()  # a step, close(): one at a time
        self._pid = os.getpid()  # the process whose threads decode

    def __len__(self) -> int:
        return len(self.paths)

    def __iter__(self) -> "LetterboxFiles":
        return self

    def __next__(self) -> Tuple["np.ndarray[Any, Any]", List[LetterboxTransform], List[str]]:
        if self._pid != os.getpid():
            # a child made by fork(): the lock may be held by a parent's
            # thread that is not here, and the decoder threads are not here
            # either (the library refuses the stream too)
            raise value_error(
                "letterbox_files: the iterator was made in process %d, and this is process "
                "%d, a child made by fork(): its decoder threads stayed in the parent; make "
                "one in this process" % (self._pid, os.getpid()))
        with self._lock:
            return self._step()

    def _step(self) -> Tuple["np.ndarray[Any, Any]", List[LetterboxTransform], List[str]]:
        while not self._done and self._stream is not None:
            out = self._out if self._out is not None else self._fresh()
            b = _StreamBatch()
            b.size = ctypes.sizeof(_StreamBatch)
            try:
                check(self._lib.clpad_letterbox_stream_next(self._stream, out.ctypes.data,
                                                            out.nbytes, ctypes.byref(b)))
            except BaseException:
                self.close()
                raise
            for k in range(b.skipped_count):
                e = b.skipped[k]
                self.skipped.append((self.paths[e.index],
                                     (e.message or b"").decode("utf-8", "replace")))
            count = int(b.count)
            if self._bar is not None:
                self._bar.update(int(b.inputs_done) - self._bar.n)
            if b.end:
                self._done = True
            if count == 0:
                if self._done and not self._yielded and self.skipped:
                    # on_error="skip" and not one file could be read: an
                    # error, as in the CLI and as batch_shape says it with
                    # channels="keep", not an iteration without a step
                    self.close()
                    raise ClpadRuntimeError(
                        "letterbox stream: none of the %d files could be read (on_error="
                        "'skip' left out every one; .skipped lists them): %s"
                        % (len(self.paths), self.skipped[0][1]),
                        _IO, "CLPAD_ERR_IO")
                continue
            self._yielded += count
            ts = []
            names = []
            for k in range(count):
                e = b.images[k]
                ts.append(_transform(e.transform, int(e.source_height), int(e.source_width)))
                names.append(self.paths[e.index])
            return (out if count == self._shape[0] else out[:count]), ts, names
        self.close()
        raise StopIteration

    def _fresh(self) -> "np.ndarray[Any, Any]":
        """A batch array nobody else holds: one this iterator yielded two
        steps ago when no reference to it (or to a view of it) is left, as
        in a plain for loop, else a new one. An array still referenced is
        never written again."""
        for k in range(len(self._spare)):
            a = self._spare[k]
            # references: the list, `a`, getrefcount's argument
            if sys.getrefcount(a) <= 3:
                del self._spare[k]
                break
        else:
            a = np.empty(self._shape, self._dtype)
        self._spare.append(a)
        if len(self._spare) > 2:
            self._spare.pop(0)
        return a

    def close(self) -> None:
        """Stop the decoder threads and free what they decoded (idempotent)."""
        if self._pid != os.getpid():  # a forked child's copy: left as it is
            self._stream = None
            self._bar = None
            return
        with self._lock:
            s, self._stream = self._stream, None
            if s is not None:
                self._lib.clpad_letterbox_stream_close(s)
            if self._bar is not None:
                self._bar.close()
                self._bar = None

    def __enter__(self) -> "LetterboxFiles":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


def _progress(total: int) -> Any:
    """A tqdm bar when tqdm is installed, else None."""
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:
        return None
    return tqdm(total=total, unit="img", file=sys.stderr)


def letterbox_files(paths: Union[PathArg, Sequence[PathArg]],
                    size: Union[int, Sequence[int]], *, batch: int = 32,
                    workers: Optional[int] = None, decode_scale: Optional[str] = None,
                    preset: Optional[str] = None, on_error: str = "fail",
                    progress: bool = False, channels: Union[int, str] = 3,
                    max_pixels: Optional[int] = None, device: DeviceLike = None,
                    interp: Optional[Interp] = None, placement: Optional[Placement] = None,
                    scaleup: Optional[bool] = None, mode: Optional[BatchPadModeName] = None,
                    value: Optional[Union[int, Sequence[int]]] = None,
                    swap_rb: Optional[bool] = None, scale: Optional[float] = None,
                    mean: Optional[PerChannel] = None, std: Optional[PerChannel] = None,
                    dtype: Optional[npt.DTypeLike] = None, layout: Optional[Layout] = None,
                    fit: Optional[Fit] = None, resize_shorter: Optional[int] = None,
                    divisor: Optional[float] = None, pil_version: Optional[int] = None,
                    out: Optional["np.ndarray[Any, Any]"] = None,
                    ) -> LetterboxFiles:
    """Letterbox image files in batches, decoding ahead on every core.

    paths: a file, a directory (every image file below it, .png, .jpg,
        .jpeg, .jpe, .bmp, .pgm, .ppm, .pnm, sorted by path; names starting
        with "." left out), a glob pattern ("photos/*.jpg"), "@list.txt" (one
        path per line, relative to the list's directory), or a sequence of
        these; str, bytes or os.PathLike (:func:`expand_paths` shows the
        files). Files are read by cv2.imread's rules in RGB
        (:func:`clpad.imread`; ``channels`` 3 by default, 1, 4 or "keep";
        ``max_pixels`` as there).
    size: the slot (H, W), or one int for a square slot.
    batch: images per step (the last may have fewer; with ``out=None``, a
        batch beyond the number of files is that number: one step).
    workers: decoder threads (None: one per core).
    decode_scale: None or "off" (the exact result) or "auto": a JPEG is
        decoded at 1/2, 1/4 or 1/8 of its size when that is still at least
        its resized size (libjpeg-turbo's DCT scaling: faster, not exact;
        the transforms still map to the full-size source).
    preset, interp, placement, scaleup, mode, value, swap_rb, scale, mean,
        std, dtype, layout, device: as for :func:`clpad.letterbox`
        (``preset="ultralytics"`` gives exactly what Ultralytics' predictor
        feeds a YOLO model from these files); fit, resize_shorter, divisor,
        pil_version as for :func:`clpad.preprocess` (``preset="imagenet"``: a
        classifier's batches). A stream's batches have one slot, so the
        stride of :func:`clpad.preprocess` is not taken here.
    on_error: "fail" (default): a file that cannot be read (corrupt,
        truncated, above max_pixels, another channel count) raises, naming
        it, when its batch comes (the files before it were returned);
        "skip": it is left out and listed in the iterator's ``skipped``
        (so is a file named in ``paths`` that does not exist: with "fail"
        it raises ClpadRuntimeError at once); when not one file could be
        read, the end raises ClpadRuntimeError (``skipped`` lists them all).
    progress: True shows a tqdm bar on stderr when tqdm is installed
        (nothing otherwise).
    out: None (a new array per step), or a C-contiguous array of a full
        batch's shape and dtype written at every step: each step's batch is
        then ``out`` (or ``out[:n]``), valid until the next step (no memory
        is allocated per step: faster where the batch is consumed at once).

    Returns an iterator (:class:`LetterboxFiles`) of ``(batch, transforms,
    paths)``: an array [n, C, H, W] (or NHWC) per step, n <= batch (a view
    of the first n of a full batch's array for the last step), that is the
    caller's (the array of two steps before is written again only when no
    reference to it or to a view of it is left, as in a plain for loop: no
    memory to clear per step), a
    :class:`LetterboxTransform` per image (with its source size), and each
    image's file. Threads decode at most two batches ahead; the GIL is
    released while the library works. The batches equal
    :func:`clpad.letterbox` of ``[clpad.imread(p) for p in paths]``, byte
    for byte (without decode scaling).

    Raises TypeError for arguments of the wrong type; ClpadValueError for
    an invalid option; ClpadRuntimeError naming an argument that names no
    file; when iterating, the errors of :func:`clpad.imread` naming the file
    (on_error="fail").
    """
    if on_error not in _ON_ERROR:
        raise value_error("on_error: %r is not 'fail' or 'skip'" % (on_error,))
    # on_error="skip": a file that is not there is one that cannot be read
    files = _expand(paths, _KEEP_MISSING if on_error == "skip" else 0)
    lib = _lib.lib()
    so = _StreamOptions()
    lib.clpad_stream_options_init(ctypes.byref(so))
    so.batch = _positive("batch", batch)
    if out is None:
        # a batch beyond the number of files is one step of them all: the
        # stream's memory (and each step's array) goes with its batch, so
        # it is no larger (an `out=` array keeps the batch it was made for)
        so.batch = min(so.batch, max(len(files), 1))
    if workers is not None:
        if isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or \
                not 0 <= int(workers) <= 64:
            raise value_error("workers: %r is not 0 (one per core) .. 64" % (workers,))
        so.workers = int(workers)
    if decode_scale not in _DECODE_SCALE:
        raise value_error("decode_scale: %r is not None, 'off' or 'auto'" % (decode_scale,))
    so.decode_scale = _DECODE_SCALE[decode_scale]
    so.on_error = _ON_ERROR[on_error]
    so.read.channels = _channels(channels)
    if max_pixels is not None:
        so.read.max_pixels = min(_positive("max_pixels", max_pixels), 2**64 - 1)
    c = so.read.channels if so.read.channels > 0 else None
    o, dt = _options(size, preset, c, interp, placement, scaleup, mode, value, swap_rb, scale,
                     mean, std, dtype, layout, fit, resize_shorter, None, divisor, pil_version)
    ctx = _context.context(device)
    raw = [os.fsencode(f) for f in files]
    arr = (ctypes.c_char_p * max(len(raw), 1))(*raw)
    stream = ctypes.c_void_p()
    check(lib.clpad_letterbox_stream_open(ctx, arr, len(raw), ctypes.byref(o),
                                          ctypes.byref(so), ctypes.byref(stream)))
    try:
        shape = (ctypes.c_int64 * 4)()
        nbytes = ctypes.c_size_t()
        if files:
            check(lib.clpad_letterbox_stream_batch_shape(stream, shape, ctypes.byref(nbytes)))
    except BaseException:
        lib.clpad_letterbox_stream_close(stream)
        raise
    full = tuple(int(s) for s in shape)
    try:
        out = _interop.out_array(out)  # a DLPack producer: batches are views of its memory
    except ValueError:
        lib.clpad_letterbox_stream_close(stream)
        raise
    if out is not None and (not isinstance(out, np.ndarray) or out.shape != full or
                            out.dtype != dt or not out.flags.c_contiguous or
                            not out.flags.writeable):
        lib.clpad_letterbox_stream_close(stream)
        raise value_error("out: a writable C-contiguous %s array of shape %s, not %s"
                          % (dt, full, "%s %s" % (getattr(out, "dtype", type(out).__name__),
                                                  getattr(out, "shape", ""))))
    bar = _progress(len(files)) if progress else None
    return LetterboxFiles(files, lib, stream, full, dt, bar, out)
