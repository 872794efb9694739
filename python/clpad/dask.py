"""clpad on Dask arrays, lazily: :func:`pad` builds a task graph and computes nothing.

    import dask.array as da, clpad.dask
    x = da.random.random((64, 480, 640), chunks=(8, 480, 640))
    y = clpad.dask.pad(x, ((0, 0), (16, 16), (0, 0)), mode="reflect")   # a Dask array
    y.compute()                                     # each block padded by clpad.pad

``clpad.pad(x)`` of a Dask array returns the same lazy array (it never computes
one silently). Each output block is one :func:`clpad.pad` call on one input
block, run where Dask runs its tasks (threads, or the worker processes of
dask.distributed, each with its own clpad context), on ``device``.

The block rule: mode "constant" with pads >= 0 pads only the blocks at the
ends of each padded axis (the first gets the pads before, the last those
after; chunking unchanged, the end chunks grow). Every other mode (edge,
mirrors, wrap, the statistics modes, a callable) and negative pads need a
whole axis: each padded axis is first rechunked to one chunk (``rechunk``),
the unpadded axes keep their chunks, and each block is padded whole along the
padded axes. Mode names and pad values are checked when the graph is
built; pads beyond a mode's limits raise when the blocks are computed.
Either way every element equals ``clpad.pad`` of the whole array
(and so numpy.pad's result in numpy.pad's form): numpy's axis-by-axis rule
reads, for axis i, only the rows along axis i, which one block holds whole.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

from . import _args, _interop

__all__ = ["pad"]


def _import_dask() -> Any:
    try:
        import dask.array as da
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("clpad.dask needs Dask (pip install 'dask[array]'): %s" % e) from None
    return da


def pad(array: Any, pad_width: Any = None, mode: Any = None, *, pads_begin: Any = None,
        pads_end: Any = None, **kwargs: Any) -> Any:
    """Pad a Dask array lazily with :func:`clpad.pad`; returns a Dask array.

    Takes clpad.pad's two forms: numpy.pad's ``pad(x, pad_width, mode,
    **numpy_options)`` (constant_values, reflect_type, stat_length,
    end_values, a callable mode and its keywords) and OpenVINO's
    ``pad(x, pads_begin=..., pads_end=..., mode=..., value=...)`` (negative
    pads crop), and ``device=``; the other keywords go to each block's
    clpad.pad call. Nothing is computed here: the result's blocks are
    computed when the graph is (``.compute()``), each by one clpad.pad call.
    The block rule is in the module documentation. ``out=``, ``axes=``,
    ``to_multiple=`` and ``placement=`` are not taken (TypeError): they
    depend on the whole array's memory or shape; pad_width's and pads'
    errors are raised here, before any computation (ClpadValueError).
    """
    da = _import_dask()
    for name in ("out", "axes", "to_multiple", "placement", "queue"):
        if kwargs.get(name) is not None:
            raise TypeError("clpad.dask.pad does not take %s= (a Dask array is padded block "
                            "by block)" % name)
        kwargs.pop(name, None)
    if not isinstance(array, da.Array):
        raise TypeError("clpad.dask.pad pads a dask.array.Array, not %s; use clpad.pad"
                        % type(array).__name__)
    rank = array.ndim
    _args.check_rank(rank)
    if pad_width is not None:
        if pads_begin is not None or pads_end is not None:
            raise TypeError("give pad_width (numpy.pad's form) or pads_begin/pads_end "
                            "(OpenVINO's), not both")
        from ._pad import pad_width_pairs
        pairs = pad_width_pairs(pad_width, rank)
        numpy_form = True
    elif pads_begin is None and pads_end is None:
        raise TypeError("clpad.dask.pad needs the pads: pad_width, or pads_begin/pads_end")
    else:
        pb = _args.axes("pads_begin", pads_begin, rank, default=0)
        pe = _args.axes("pads_end", pads_end, rank, default=0)
        pairs = list(zip(pb, pe))
        numpy_form = False
    if mode is None:
        mode = "constant"
    constant = isinstance(mode, str) and mode.lower() in ("constant", "np:constant",
                                                          "ov:constant")
    edge_rule = constant and all(b >= 0 and a >= 0 for b, a in pairs)
    padded = [i for i, (b, a) in enumerate(pairs) if b != 0 or a != 0]
    x = array
    if not edge_rule and padded:
        x = x.rechunk({i: -1 for i in padded})
    _check_now(x, pairs, numpy_form, mode, kwargs)
    chunks: List[Tuple[int, ...]] = []
    for i, c in enumerate(x.chunks):
        b, a = pairs[i]
        c = tuple(int(v) for v in c)
        if b == 0 and a == 0:
            chunks.append(c)
        elif len(c) == 1:
            chunks.append((max(c[0] + b + a, 0),))
        else:
            chunks.append((c[0] + b,) + c[1:-1] + (c[-1] + a,))
    nblocks = [len(c) for c in x.chunks]

    def block(b: Any, block_info: Any = None) -> Any:
        import clpad
        loc = block_info[0]["chunk-location"] if block_info else (0,) * rank
        mine = [((bb if loc[i] == 0 else 0), (aa if loc[i] == nblocks[i] - 1 else 0))
                for i, (bb, aa) in enumerate(pairs)]
        if numpy_form:
            return clpad.pad(b, mine, mode, **kwargs)
        return clpad.pad(b, pads_begin=[p for p, _ in mine], pads_end=[q for _, q in mine],
                         mode=mode, **kwargs)

    return x.map_blocks(block, dtype=x.dtype, chunks=tuple(chunks),
                        meta=np.empty((0,) * rank, dtype=x.dtype))


def _check_now(x: Any, pairs: List[Tuple[int, int]], numpy_form: bool, mode: Any,
               kwargs: Dict[str, Any]) -> None:
    """The argument errors that do not depend on the data or the sizes (the
    mode, the pad value, the options), raised at graph-building time: one
    clpad.pad call with no pads on one element of the same rank and dtype, on
    the reference path. (A callable mode is not called here.) Pads beyond the
    mirror limits raise when the blocks are computed."""
    if callable(mode):
        return
    import clpad
    one = np.zeros((1,) * x.ndim, dtype=x.dtype)
    kw = dict(kwargs)
    kw["device"] = "reference"
    if numpy_form:
        clpad.pad(one, 0, mode, **kw)
    else:
        clpad.pad(one, pads_begin=0, pads_end=0, mode=mode, **kw)


def is_dask(x: Any) -> bool:
    """Whether x is a Dask collection."""
    return _interop.is_dask(x)

