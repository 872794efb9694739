"""clpad.space_to_batch / batch_to_space: a NumPy reference of OpenVINO
SpaceToBatch-2 / BatchToSpace-2, the round trip, the CLI, and errors."""

import numpy as np
import pytest

import clpad
from conftest import csv
from test_pad import DTYPES, same_bits, sample


def ref_space_to_batch(x, block, pb, pe):
    """Pad with zeros, cut each axis i >= 1 into (P_i/B_i, B_i), put the block
    offsets outermost (B_1 first), then the batch, then the spatial blocks."""
    y = np.pad(x, list(zip(pb, pe)))
    k = x.ndim - 1
    split = [y.shape[0]]
    for i in range(1, k + 1):
        split += [y.shape[i] // block[i], block[i]]
    y = y.reshape(split)
    perm = [2 * i for i in range(1, k + 1)] + [0] + [2 * i - 1 for i in range(1, k + 1)]
    y = y.transpose(perm)
    return y.reshape([int(np.prod(block)) * x.shape[0]] + list(y.shape[k + 1:]))


def ref_batch_to_space(x, block, cb, ce):
    k = x.ndim - 1
    n = x.shape[0] // int(np.prod(block))
    y = x.reshape([block[i] for i in range(1, k + 1)] + [n] + list(x.shape[1:]))
    perm = [k]
    for i in range(k):
        perm += [k + 1 + i, i]
    y = y.transpose(perm)
    y = y.reshape([n] + [x.shape[i] * block[i] for i in range(1, k + 1)])
    index = (slice(None),) + tuple(slice(cb[i], y.shape[i] - ce[i]) for i in range(1, k + 1))
    return y[index]


CASES = [
    # (shape, block, pads_begin, pads_end)
    ((1, 4, 4), [1, 2, 2], [0, 0, 0], [0, 0, 0]),
    ((2, 3, 5, 2), [1, 2, 3, 1], [0, 1, 0, 0], [0, 0, 1, 0]),
    ((3, 2, 2), [1, 4, 1], [0, 1, 0], [0, 1, 0]),
    ((1, 7), [1, 3], [0, 1], [0, 1]),
    ((2, 1, 1, 1, 2), [1, 2, 2, 2, 1], [0, 1, 0, 1, 0], [0, 0, 1, 0, 0]),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c[0])))
def test_space_to_batch_equals_reference_and_round_trips(case):
    shape, block, pb, pe = case
    rng = np.random.default_rng(1)
    for dtype in DTYPES:
        x = sample(rng, shape, dtype)
        y = clpad.space_to_batch(x, block, pb, pe)
        assert same_bits(y, ref_space_to_batch(x, block, pb, pe)), dtype
        back = clpad.batch_to_space(y, block, pb, pe)
        assert same_bits(back, x), dtype
        assert same_bits(clpad.space_to_batch(x, block, pb, pe, device=clpad.REFERENCE), y)


def test_batch_to_space_equals_reference():
    rng = np.random.default_rng(2)
    x = sample(rng, (12, 2, 3, 2), np.float32)
    block, cb, ce = [1, 2, 3, 1], [0, 1, 2, 0], [0, 2, 1, 0]
    got = clpad.batch_to_space(x, block, cb, ce)
    assert same_bits(got, ref_batch_to_space(x, block, cb, ce))
    assert got.shape == (2, 1, 6, 2)


def test_defaults_and_non_contiguous():
    x = np.arange(2 * 4 * 6, dtype=np.int16).reshape(2, 6, 4).transpose(0, 2, 1)
    before = x.copy()
    y = clpad.space_to_batch(x, [1, 2, 2])
    assert same_bits(y, ref_space_to_batch(np.ascontiguousarray(x), [1, 2, 2], [0] * 3, [0] * 3))
    assert np.array_equal(x, before)
    assert same_bits(clpad.batch_to_space(y, [1, 2, 2]), np.ascontiguousarray(x))


def test_errors():
    x = np.zeros((1, 5, 4), np.float32)
    with pytest.raises(ValueError):  # 2 does not divide 5
        clpad.space_to_batch(x, [1, 2, 2])
    with pytest.raises(ValueError):  # block_shape[0] != 1
        clpad.space_to_batch(x, [2, 1, 1])
    with pytest.raises(ValueError):  # negative pads
        clpad.space_to_batch(x, [1, 1, 1], [0, -1, 0], [0, 1, 0])
    with pytest.raises(ValueError):  # 3 does not divide the batch
        clpad.batch_to_space(np.zeros((4, 2, 2)), [1, 3, 1])
    with pytest.raises(ValueError):  # crops larger than the axis
        clpad.batch_to_space(np.zeros((4, 2, 2)), [1, 2, 2], [0, 3, 0], [0, 2, 0])
    with pytest.raises(ValueError):
        clpad.space_to_batch(np.zeros(4), [1])
    with pytest.raises(ValueError, match="block_shape"):
        clpad.space_to_batch(x, [1, 1])


@pytest.mark.parametrize("case", CASES[:3], ids=lambda c: "x".join(map(str, c[0])))
def test_equals_cli(cli, case):
    shape, block, pb, pe = case
    x = sample(np.random.default_rng(3), shape, np.int32)
    rc, want, err = cli.run(["space-to-batch", "--block-shape=" + csv(block),
                             "--pads-begin=" + csv(pb), "--pads-end=" + csv(pe)], x)
    assert rc == 0, err
    assert same_bits(clpad.space_to_batch(x, block, pb, pe), want)
    rc, back, err = cli.run(["batch-to-space", "--block-shape=" + csv(block),
                             "--crops-begin=" + csv(pb), "--crops-end=" + csv(pe)], want)
    assert rc == 0, err
    assert same_bits(clpad.batch_to_space(want, block, pb, pe), back)
    assert same_bits(back, x)


def test_out_for_space_and_batch():
    rng = np.random.default_rng(9)
    x = sample(rng, (2, 4, 6, 3), np.int16)
    s = np.empty((8, 2, 4, 3), np.int16)
    assert clpad.space_to_batch(x, [1, 2, 2, 1], [0, 0, 1, 0], [0, 0, 1, 0], out=s) is s
    assert same_bits(s, ref_space_to_batch(x, [1, 2, 2, 1], [0, 0, 1, 0], [0, 0, 1, 0]))
    back = np.empty_like(x)
    assert clpad.batch_to_space(s, [1, 2, 2, 1], [0, 0, 1, 0], [0, 0, 1, 0], out=back) is back
    assert same_bits(back, x)
    with pytest.raises(clpad.ClpadValueError, match="shape"):
        clpad.batch_to_space(s, [1, 2, 2, 1], [0, 0, 1, 0], [0, 0, 1, 0],
                             out=np.empty((2, 4, 6, 2), np.int16))
