"""Output arrays for calls without ``out=``.

A large output comes from a small cache of page-aligned blocks: when an
output array (and every view of it) is freed, its block is kept for the next
call of the same size instead of going back to the system. A fresh block
costs the kernel a page fault and the zeroing of every page on first touch,
which for a 100 MB output takes as long as the pad itself; a cached block is
already mapped. (Deep-learning frameworks' caching allocators do the same.)

Blocks of at least 1 MiB are cached, up to ``CLPAD_OUTPUT_CACHE_MB`` MiB
(environment, default 512; 0 turns the cache off) of free blocks per process.
Smaller outputs are plain ``numpy.empty`` arrays. Failing to allocate raises
ClpadRuntimeError (CLPAD_ERR_OUT_OF_MEMORY) with the size asked for.
"""

from __future__ import annotations

import collections
import ctypes
import mmap
import os
import threading
import weakref
from typing import Any, Deque, Dict, List, Sequence, cast

import numpy as np

from ._errors import OUT_OF_MEMORY, ClpadRuntimeError, value_error

_MIN_CACHED = 1 << 20
_ROUND = 2 << 20  # sizes round up to 2 MiB: transparent huge pages, and reuse


def _limit() -> int:
    try:
        return max(int(os.environ.get("CLPAD_OUTPUT_CACHE_MB", "512")), 0) << 20
    except ValueError:
        return 512 << 20


_lock = threading.Lock()
_free: Dict[int, List[mmap.mmap]] = {}
_free_order: Deque[mmap.mmap] = collections.deque()  # oldest first, for eviction
_free_bytes = 0
# Blocks whose arrays died: appended by finalizers (any thread, any time, no
# lock taken there), moved to _free by the next allocation.
_returned: Deque[mmap.mmap] = collections.deque()


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _out_of_memory(shape: Sequence[int], dtype: "np.dtype[Any]", why: object) -> ClpadRuntimeError:
    nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
    return ClpadRuntimeError(
        "cannot allocate the output: %d bytes (%.3g GiB) for shape %s %s: %s"
        % (nbytes, nbytes / 2**30, tuple(shape), dtype, why),
        OUT_OF_MEMORY, "CLPAD_ERR_OUT_OF_MEMORY")


def _take(size: int) -> "mmap.mmap | None":
    """Under _lock: a free block of `size` bytes, after filing returned ones."""
    global _free_bytes
    while _returned:
        block = _returned.popleft()
        _free.setdefault(len(block), []).append(block)
        _free_order.append(block)
        _free_bytes += len(block)
    limit = _limit()
    while _free_bytes > limit and _free_order:
        old = _free_order.popleft()
        _free[len(old)].remove(old)
        _free_bytes -= len(old)
        old.close()
    blocks = _free.get(size)
    if not blocks:
        return None
    block = blocks.pop()
    _free_order.remove(block)
    _free_bytes -= size
    return block


def empty(shape: Sequence[int], dtype: "np.dtype[Any]") -> "np.ndarray[Any, Any]":
    """An uninitialised C-contiguous array (see the module documentation)."""
    shape = tuple(shape)
    try:
        nbytes = dtype.itemsize
        for d in shape:  # (np.prod costs several microseconds per call)
            nbytes *= int(d)
        if nbytes < _MIN_CACHED or _limit() == 0 or not hasattr(mmap, "MAP_ANONYMOUS"):
            return np.empty(shape, dtype=dtype)
        size = -(-nbytes // _ROUND) * _ROUND
        with _lock:
            block = _take(size)
        if block is None:
            block = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            if hasattr(mmap, "MADV_HUGEPAGE"):
                try:
                    block.madvise(mmap.MADV_HUGEPAGE)
                except OSError:
                    pass
    except (MemoryError, OSError, ValueError, OverflowError) as e:
        raise _out_of_memory(shape, dtype, e) from None
    # The array's memory is a ctypes view of the block; when the view dies
    # (every array over it gone), the block returns to the cache.
    view = (ctypes.c_char * nbytes).from_buffer(block)
    weakref.finalize(view, _returned.append, block)
    return np.frombuffer(cast(Any, view), dtype=dtype).reshape(shape)


def trim() -> None:
    """Release every cached free block to the system now."""
    global _free_bytes
    with _lock:
        _take(-1)  # files the returned blocks
        while _free_order:
            block = _free_order.popleft()
            _free[len(block)].remove(block)
            _free_bytes -= len(block)
            block.close()


def batch_output(out: Any, shape: Any, dtype: Any, inputs: Sequence[Any],
                 what: str) -> "np.ndarray[Any, Any]":
    """The batch operations' result array: a new one, or `out` once checked
    (an ndarray of exactly that shape and dtype, C-contiguous, writeable,
    sharing no memory with any of the inputs, each of which is `what`)."""
    if out is None:
        return empty(shape, dtype)
    from . import _interop
    out = _interop.out_array(out)  # (a DLPack producer: its memory, as an ndarray)
    if not isinstance(out, np.ndarray):
        raise TypeError("out must be a numpy.ndarray, not %s" % type(out).__name__)
    if out.shape != shape or out.dtype != dtype:
        raise value_error("out is %s %s, but the batch is %s %s"
                          % (out.shape, out.dtype, shape, dtype))
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise value_error("out must be C-contiguous and writeable")
    if any(np.may_share_memory(out, a) for a in inputs):
        raise value_error("out shares memory with %s" % what)
    return out
