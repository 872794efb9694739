"""clpad.letterbox of images and YUV frames already on the device as
pyopencl arrays: the result (a pyopencl array) equals the NumPy frames'
result byte for byte, for frames in one buffer (read in place, strided
rows), in separate buffers (copied on the device into one) and as plane
tuples; and the errors (a mixed batch, another context, device=)."""

import numpy as np
import pytest

import clpad

SIZES = [(48, 64), (30, 22), (64, 40), (2, 2)]


def frames(seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 256, (h * 3 // 2, w), dtype=np.uint8) for h, w in SIZES]


def split(f, fmt):
    """The planes of one-array frame f: (Y, UV) or (Y, U, V) in memory order."""
    h, w = f.shape[0] * 2 // 3, f.shape[1]
    if fmt in ("nv12", "nv21"):
        return f[:h], f[h:]
    c = f[h:].reshape(-1)
    q = h // 2 * w // 2
    return f[:h], c[:q].reshape(h // 2, w // 2), c[q:].reshape(h // 2, w // 2)


def one_buffer(cla, q, arrays, pad):
    """The 2-D arrays as views of one device array, each row `pad` bytes
    wider than the array (pad 0: dense)."""
    rows = sum(a.shape[0] for a in arrays)
    width = max(a.shape[1] for a in arrays) + pad
    host = np.full((rows, width), 77, np.uint8)
    at = []
    r = 0
    for a in arrays:
        host[r:r + a.shape[0], :a.shape[1]] = a
        at.append(r)
        r += a.shape[0]
    big = cla.to_device(q, host)
    return [big[r:r + a.shape[0], :a.shape[1]] for r, a in zip(at, arrays)]


def flat_buffer(cla, q, arrays):
    """The arrays, dense, as views of one 1-D device array."""
    big = cla.to_device(q, np.concatenate([a.ravel() for a in arrays]))
    at = np.cumsum([0] + [a.size for a in arrays])
    return [big[o:o + a.size].reshape(a.shape) for o, a in zip(at, arrays)]


OPTS = [dict(dtype=np.uint8, layout="NHWC"),
        dict(dtype=np.float32, layout="NCHW", swap_rb=True, scale=1 / 255)]


@pytest.mark.parametrize("fmt", ["nv12", "nv21", "i420", "yv12"])
def test_device_frames_equal_host_frames(cl_queue, fmt):
    import pyopencl.array as cla
    q = cl_queue
    fs = frames(5)
    f0 = [f.copy() for f in fs]
    semi = fmt in ("nv12", "nv21")
    forms = {
        "separate buffers": [cla.to_device(q, f) for f in fs],
        "one buffer": flat_buffer(cla, q, fs),
        "plane tuples": [tuple(cla.to_device(q, np.ascontiguousarray(p))
                               for p in split(f, fmt)) for f in fs],
    }
    if semi:  # strided rows, in place; UV as (H/2, W/2, 2)
        forms["one buffer, strided rows"] = one_buffer(cla, q, fs, 24)
        forms["(H/2, W/2, 2) chroma"] = [
            (cla.to_device(q, np.ascontiguousarray(y)),
             cla.to_device(q, np.ascontiguousarray(uv).reshape(uv.shape[0], -1, 2)))
            for y, uv in (split(f, fmt) for f in fs)]
    planes = [p for f in fs for p in split(f, fmt)]
    views = one_buffer(cla, q, planes, 8) if semi else flat_buffer(cla, q, planes)
    k = 2 if semi else 3
    forms["plane tuples in one buffer"] = [tuple(views[i * k:(i + 1) * k])
                                           for i in range(len(fs))]
    for opts in OPTS:
        want, tw = clpad.letterbox(fs, (40, 50), input_format=fmt, **opts)
        for name, dev in forms.items():
            got, t = clpad.letterbox(dev, (40, 50), input_format=fmt, **opts)
            assert isinstance(got, cla.Array), name
            assert got.dtype == want.dtype and got.shape == want.shape, name
            assert got.get().tobytes() == want.tobytes(), name
            assert t == tw, name
    for f, g in zip(fs, f0):
        assert np.array_equal(f, g)
    # the device frames untouched
    for f, d in zip(fs, forms["separate buffers"]):
        assert np.array_equal(d.get(), f)


def test_device_images_and_out(cl_queue):
    import pyopencl.array as cla
    q = cl_queue
    rng = np.random.default_rng(9)
    imgs = [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for h, w in [(50, 70), (33, 20)]]
    want, tw = clpad.letterbox(imgs, 32, interp="nearest")
    got, t = clpad.letterbox([cla.to_device(q, a) for a in imgs], 32, interp="nearest")
    assert got.get().tobytes() == want.tobytes() and t == tw
    fs = frames(6)
    want, _ = clpad.letterbox(fs, 32, input_format="nv12")
    out = cla.empty(q, want.shape, np.float32)
    got, _ = clpad.letterbox([cla.to_device(q, f) for f in fs], 32, input_format="nv12",
                             out=out)
    assert got is out and out.get().tobytes() == want.tobytes()


def test_device_frame_errors(cl_queue):
    import pyopencl as cl
    import pyopencl.array as cla
    q = cl_queue
    f = np.zeros((6, 4), np.uint8)
    d = cla.to_device(q, f)
    with pytest.raises(TypeError, match=r"images\[1\] is not a pyopencl array, but images\[0\]"):
        clpad.letterbox([d, f], 32, input_format="nv12")
    other = cl.CommandQueue(cl.Context([q.device]))
    with pytest.raises(clpad.ClpadValueError, match=r"images\[1\] is on another OpenCL context"):
        clpad.letterbox([d, cla.to_device(other, f)], 32, input_format="nv12")
    with pytest.raises(clpad.ClpadValueError, match="out is on another OpenCL context"):
        clpad.letterbox([d], 32, input_format="nv12",
                        out=cla.empty(other, (1, 3, 32, 32), np.float32))
    with pytest.raises(TypeError, match="device= does not apply to a pyopencl array"):
        clpad.letterbox([d], 32, input_format="nv12", device="reference")
    with pytest.raises(TypeError, match="out must be a pyopencl.array.Array"):
        clpad.letterbox([d], 32, input_format="nv12", out=np.zeros((1, 3, 32, 32), np.float32))
    with pytest.raises(clpad.ClpadValueError, match="odd"):
        clpad.letterbox([cla.to_device(q, np.zeros((6, 5), np.uint8))], 32, input_format="nv12")
    big = cla.to_device(q, np.zeros((6, 8), np.uint8))
    with pytest.raises(clpad.ClpadValueError, match="strides"):
        clpad.letterbox([big[:, ::2]], 32, input_format="nv12")
    with pytest.raises(clpad.ClpadValueError, match="must be dense"):
        clpad.letterbox([big[:, :4]], 32, input_format="i420")
