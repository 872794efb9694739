"""PyOpenCL arrays in and out: results equal NumPy's, the work stays on the
device, runs after the input's events, and honours out=, offsets and queues."""

import numpy as np
import pytest

import clpad
from test_pad import same_bits, sample
from test_space_batch import ref_space_to_batch


@pytest.fixture
def cla(cl_queue):
    import pyopencl.array

    return pyopencl.array


MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64, np.int64])
def test_pad_equals_numpy(cl_queue, cla, mode, dtype):
    x = sample(np.random.default_rng(1), (3, 5, 7), dtype)
    width = ((1, 2), (0, 3), (2, 2))
    d = cla.to_device(cl_queue, x)
    y = clpad.pad(d, width, mode)
    assert isinstance(y, cla.Array)
    assert y.queue is cl_queue and y.dtype == x.dtype and y.shape == (6, 8, 11)
    assert same_bits(y.get(), np.pad(x, width, mode))
    # OpenVINO's form, crops included
    y = clpad.pad(d, pads_begin=[1, -1, 2], pads_end=[-2, 1, 0], mode=mode)
    host = clpad.pad(x, pads_begin=[1, -1, 2], pads_end=[-2, 1, 0], mode=mode)
    assert same_bits(y.get(), host)
    assert same_bits(d.get(), x)  # the input is untouched


def test_constant_value_and_empty_input(cl_queue, cla):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = clpad.pad(cla.to_device(cl_queue, x), 1, constant_values=-0.0)
    assert same_bits(y.get(), np.pad(x, 1, constant_values=-0.0))
    e = cla.empty(cl_queue, (0, 3), np.float32)
    y = clpad.pad(e, ((1, 1), (0, 0)), constant_values=2.5)
    assert same_bits(y.get(), np.full((2, 3), 2.5, np.float32))
    z = clpad.pad(e, ((0, 0), (1, 1)))
    assert z.shape == (0, 5)


def test_space_and_batch_round_trip(cl_queue, cla):
    x = sample(np.random.default_rng(2), (2, 6, 4, 3), np.float32)
    d = cla.to_device(cl_queue, x)
    b = clpad.space_to_batch(d, [1, 2, 2, 1], [0, 1, 0, 0], [0, 1, 0, 0])
    assert isinstance(b, cla.Array) and b.shape == (8, 4, 2, 3)
    assert same_bits(b.get(), ref_space_to_batch(x, [1, 2, 2, 1], [0, 1, 0, 0], [0, 1, 0, 0]))
    back = clpad.batch_to_space(b, [1, 2, 2, 1], [0, 1, 0, 0], [0, 1, 0, 0])
    assert same_bits(back.get(), x)


def test_out_and_offsets(cl_queue, cla):
    x = sample(np.random.default_rng(3), (4, 4), np.int32)
    big = cla.to_device(cl_queue, np.arange(40, dtype=np.int32))
    view = big[8:24].reshape(4, 4)          # an input at a byte offset in its buffer
    cl_queue.finish()
    view.set(x)
    assert view.offset == 32
    outbuf = cla.zeros(cl_queue, 100, np.int32)
    out = outbuf[10:46].reshape(6, 6)       # an output at an offset
    got = clpad.pad(view, 1, "reflect", out=out)
    assert got is out
    whole = outbuf.get()
    assert same_bits(whole[10:46].reshape(6, 6), np.pad(x, 1, "reflect"))
    assert not whole[:10].any() and not whole[46:].any()   # nothing written outside out


def test_ordered_after_the_inputs_events(cl_queue, cla):
    """A pad enqueued right after PyOpenCL kernels that write its input sees
    their results: clpad waits for the input's events."""
    import pyopencl as cl

    ooo = cl.CommandQueue(cl_queue.context,
                          properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
    x = np.arange(1 << 20, dtype=np.float32).reshape(1024, 1024)
    for q in (cl_queue, ooo):
        d = cla.to_device(q, x)
        for _ in range(4):
            d = d * 2 + 1                         # PyOpenCL kernels; events on d
        y = clpad.pad(d, ((1, 1), (2, 2)), "edge")
        want = np.pad(x * 16 + 15, ((1, 1), (2, 2)), "edge")
        assert same_bits(y.get(), want)
        assert y.events, "the result carries clpad's event"
        z = y + 1                                 # PyOpenCL after clpad: waits for it
        assert same_bits(z.get(), want + 1)


def test_queue_argument_and_errors(cl_queue, cla):
    import pyopencl as cl

    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = cla.to_device(cl_queue, x)
    q2 = cl.CommandQueue(cl_queue.context)
    y = clpad.pad(d, 1, queue=q2)
    assert y.queue is q2 and same_bits(y.get(), np.pad(x, 1))
    with pytest.raises(TypeError, match="device="):
        clpad.pad(d, 1, device="0:0")
    with pytest.raises(TypeError, match="queue="):
        clpad.pad(x, 1, queue=q2)
    with pytest.raises(TypeError, match="pyopencl"):
        clpad.pad(d, 1, out=np.empty((5, 6), np.float32))
    with pytest.raises(TypeError, match="pyopencl array but the input is not"):
        clpad.pad(x, 1, out=cla.empty(cl_queue, (5, 6), np.float32))
    with pytest.raises(clpad.ClpadValueError, match="shape"):
        clpad.pad(d, 1, out=cla.empty(cl_queue, (5, 5), np.float32))
    with pytest.raises(clpad.ClpadValueError, match="dtype"):
        clpad.pad(d, 1, out=cla.empty(cl_queue, (5, 6), np.float64))
    with pytest.raises(clpad.ClpadValueError, match="contiguous"):
        clpad.pad(cla.to_device(cl_queue, np.zeros((4, 6), np.float32))[:, ::2], 1)
    with pytest.raises(clpad.ClpadValueError, match="reflect limit"):
        clpad.pad(d, 3, "reflect")
    other = cl.CommandQueue(cl.Context([cl_queue.device]))
    with pytest.raises(clpad.ClpadValueError, match="another OpenCL context"):
        clpad.pad(d, 1, out=cla.empty(other, (5, 6), np.float32))
    with pytest.raises(clpad.ClpadValueError, match="another OpenCL context"):
        clpad.pad(d, 1, queue=other)
    nq = cla.to_device(cl_queue, x).with_queue(None)
    with pytest.raises(clpad.ClpadValueError, match="no queue"):
        clpad.pad(nq, 1)
    same = cla.empty(cl_queue, 64, np.float32)
    with pytest.raises(clpad.ClpadValueError, match="shares memory"):
        clpad.pad(same[:12].reshape(3, 4), ((0, 0), (0, 0)), out=same[4:16].reshape(3, 4))


def test_one_clpad_context_per_opencl_context(cl_queue, cla):
    import pyopencl as cl

    x = cla.to_device(cl_queue, np.zeros(4, np.uint8))
    clpad.pad(x, 1)
    n = len(clpad._context._wrapped)
    q2 = cl.CommandQueue(cl_queue.context)
    clpad.pad(x, 1, queue=q2)                    # another queue, same context: reused
    assert len(clpad._context._wrapped) == n
    ctx2 = cl.Context([cl_queue.device])
    clpad.pad(cla.to_device(cl.CommandQueue(ctx2), np.zeros(4, np.uint8)), 1)
    assert len(clpad._context._wrapped) == n + 1


def test_huge_output_is_a_clpad_runtime_error(cl_queue, cla):
    d = cla.to_device(cl_queue, np.zeros((1, 1), np.float32))
    with pytest.raises(clpad.ClpadRuntimeError, match="cannot allocate the output on") as e:
        clpad.pad(d, ((0, 2**40), (0, 0)))
    assert e.value.status_name == "CLPAD_ERR_OUT_OF_MEMORY"
