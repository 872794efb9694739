"""clpad.letterbox of YUV 4:2:0 frames (input_format nv12, nv21, i420, yv12):
the conversion against a NumPy statement of OpenCV's BT.601 rule and of the
other matrices' rule (clpad/docs/letterbox.md, "YUV frames") followed by the
RGB letterbox, every frame form (one array, plane tuples with strides, a
3-D array), the device against the CPU reference path, and errors."""

import numpy as np
import pytest

import clpad

# {cy, crv, cgu, cgv, cbu} in 2^20 fixed point (docs/letterbox.md)
RULE = {
    ("bt601", "limited"): (1220542, 1673527, -409993, -852492, 2116026),
    ("bt601", "full"): (1048576, 1470104, -360853, -748826, 1858077),
    ("bt709", "limited"): (1220945, 1879825, -223607, -558796, 2215014),
    ("bt709", "full"): (1048576, 1651297, -196424, -490864, 1945738),
    ("bt2020", "limited"): (1220945, 1760217, -196426, -682019, 2245811),
    ("bt2020", "full"): (1048576, 1546230, -172546, -599107, 1972791),
}
KRKB = {"bt601": (0.299, 0.114), "bt709": (0.2126, 0.0722), "bt2020": (0.2627, 0.0593)}


def planes(frame, fmt):
    """Y, U, V (full size: each chroma sample repeated over its 2 x 2 block)."""
    rows, w = frame.shape
    h = rows * 2 // 3
    y = frame[:h].astype(np.int64)
    c = frame[h:]
    if fmt in ("nv12", "nv21"):
        a, b = c[:, 0::2], c[:, 1::2]
        u, v = (a, b) if fmt == "nv12" else (b, a)
    else:
        flat = c.reshape(-1)
        q = h // 2 * w // 2
        a, b = flat[:q].reshape(h // 2, w // 2), flat[q:].reshape(h // 2, w // 2)
        u, v = (a, b) if fmt == "i420" else (b, a)
    up = lambda p: np.repeat(np.repeat(p.astype(np.int64), 2, 0), 2, 1)  # noqa: E731
    return y, up(u), up(v)


def to_rgb(frame, fmt, matrix="bt601", rng_="limited"):
    """The stated rule in NumPy."""
    y, u, v = planes(frame, fmt)
    cy, crv, cgu, cgv, cbu = RULE[(matrix, rng_)]
    d = y - (16 if rng_ == "limited" else 0)
    if (matrix, rng_) == ("bt601", "limited"):
        d = np.maximum(d, 0)  # OpenCV's rule
    yy = d * cy + (1 << 19)
    u, v = u - 128, v - 128
    out = [yy + crv * v, yy + cgu * u + cgv * v, yy + cbu * u]
    return np.stack([np.clip(np.where(s < 0, 0, s >> 20), 0, 255) for s in out],
                    -1).astype(np.uint8)


def test_rule_is_the_standards():
    """The integers follow from Kr, Kb and are within 1 of the real result."""
    for (m, r), k in RULE.items():
        if (m, r) == ("bt601", "limited"):
            continue  # OpenCV's rounded constants
        kr, kb = KRKB[m]
        kg = 1 - kr - kb
        sy, sc = (255 / 219, 255 / 224) if r == "limited" else (1.0, 1.0)
        want = [sy, sc * 2 * (1 - kr), -sc * 2 * kb * (1 - kb) / kg,
                -sc * 2 * kr * (1 - kr) / kg, sc * 2 * (1 - kb)]
        assert list(k) == [round(c * 2 ** 20) for c in want]
    # a grid of triples through the library, against the real numbers
    yv, uv, vv = np.meshgrid(np.arange(0, 256, 5), np.arange(0, 256, 3),
                             np.arange(0, 256, 3), indexing="ij")
    n = yv.size
    w = 2 * n
    frame = np.zeros((3, w), np.uint8)  # H = 2: one chroma row
    frame[0, 0::2] = frame[0, 1::2] = frame[1, 0::2] = frame[1, 1::2] = yv.ravel()
    frame[2, 0::2], frame[2, 1::2] = uv.ravel(), vv.ravel()
    for (m, r) in RULE:
        if (m, r) == ("bt601", "limited"):
            continue
        got, _ = clpad.letterbox([frame], (2, w), input_format="nv12", color_matrix=m,
                                 color_range=r, interp="nearest", dtype=np.uint8,
                                 layout="NHWC", device="reference")
        kr, kb = KRKB[m]
        kg = 1 - kr - kb
        lim = r == "limited"
        Y = (yv.ravel() - 16) * 255 / 219 if lim else yv.ravel().astype(float)
        s = 255 / 224 if lim else 1.0
        U, V = (uv.ravel() - 128) * s, (vv.ravel() - 128) * s
        real = np.stack([Y + 2 * (1 - kr) * V,
                         Y - 2 * kb * (1 - kb) / kg * U - 2 * kr * (1 - kr) / kg * V,
                         Y + 2 * (1 - kb) * U], -1).clip(0, 255)
        assert np.abs(got[0, 0, 0::2].astype(float) - real).max() < 1.0


@pytest.mark.parametrize("fmt", ["nv12", "nv21", "i420", "yv12"])
@pytest.mark.parametrize("matrix,rng_", [("bt601", "limited"), ("bt709", "limited"),
                                         ("bt2020", "full")])
def test_equals_conversion_then_letterbox(fmt, matrix, rng_):
    rng = np.random.default_rng(7)
    frames = [rng.integers(0, 256, (h * 3 // 2, w), dtype=np.uint8)
              for h, w in [(48, 64), (30, 22), (64, 40), (2, 2)]]
    for dtype, layout, swap in [(np.uint8, "NHWC", False), (np.float32, "NCHW", True)]:
        got, t = clpad.letterbox(frames, (40, 50), input_format=fmt, color_matrix=matrix,
                                 color_range=rng_, dtype=dtype, layout=layout, swap_rb=swap,
                                 scale=1 / 255 if dtype == np.float32 else None)
        want, tw = clpad.letterbox([to_rgb(f, fmt, matrix, rng_) for f in frames], (40, 50),
                                   dtype=dtype, layout=layout, swap_rb=swap,
                                   scale=1 / 255 if dtype == np.float32 else None)
        assert got.tobytes() == want.tobytes()
        assert t == tw
        ref, _ = clpad.letterbox(frames, (40, 50), input_format=fmt, color_matrix=matrix,
                                 color_range=rng_, dtype=dtype, layout=layout, swap_rb=swap,
                                 scale=1 / 255 if dtype == np.float32 else None,
                                 device="reference")
        assert got.tobytes() == ref.tobytes()


def test_frame_forms():
    rng = np.random.default_rng(3)
    h, w = 48, 64
    f = rng.integers(0, 256, (h * 3 // 2, w), dtype=np.uint8)
    f0 = f.copy()
    want, _ = clpad.letterbox([f], 32, input_format="nv12")
    y, uv = f[:h], f[h:]
    # planes, UV as (H/2, W) and as (H/2, W/2, 2), strided rows read in place
    big = np.zeros((h + h // 2, w + 16), np.uint8)
    big[:h, :w], big[h:, :w] = y, uv
    for form in [(y, uv), (y, uv.reshape(h // 2, w // 2, 2)), (big[:h, :w], big[h:, :w])]:
        got, _ = clpad.letterbox([form], 32, input_format="nv12")
        assert got.tobytes() == want.tobytes()
    got, _ = clpad.letterbox([big[:, :w]], 32, input_format="nv12")  # one strided array
    assert got.tobytes() == want.tobytes()
    # N frames of one size as a 3-D array
    got, _ = clpad.letterbox(np.stack([f, f]), 32, input_format="nv12")
    assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[0].tobytes()
    # I420 and YV12 planes
    fi = rng.integers(0, 256, (h * 3 // 2, w), dtype=np.uint8)
    want, _ = clpad.letterbox([fi], 32, input_format="i420")
    u = fi[h:h + h // 4].reshape(h // 2, w // 2)
    v = fi[h + h // 4:].reshape(h // 2, w // 2)
    got, _ = clpad.letterbox([(fi[:h], u, v)], 32, input_format="yuv420p")
    assert got.tobytes() == want.tobytes()
    got, _ = clpad.letterbox([(fi[:h], v, u)], 32, input_format="yv12")
    assert got.tobytes() == want.tobytes()
    assert np.array_equal(f, f0)  # inputs untouched


def test_errors():
    z = np.zeros((45, 31), np.uint8)
    with pytest.raises(clpad.ClpadValueError, match=r"images\[0\]: nv12 frame width = 31 is odd"):
        clpad.letterbox([z], 32, input_format="nv12")
    with pytest.raises(clpad.ClpadValueError, match="not H \\* 3 / 2"):
        clpad.letterbox([np.zeros((44, 30), np.uint8)], 32, input_format="nv12")
    with pytest.raises(clpad.ClpadValueError, match="tuple of 2 planes; this format has 3"):
        clpad.letterbox([(np.zeros((4, 4), np.uint8),) * 2], 32, input_format="i420")
    with pytest.raises(clpad.ClpadValueError, match="UV plane has shape"):
        clpad.letterbox([(np.zeros((4, 4), np.uint8), np.zeros((2, 2), np.uint8))], 32,
                        input_format="nv12")
    with pytest.raises(clpad.ClpadValueError, match="pil-bicubic"):
        clpad.letterbox([np.zeros((6, 4), np.uint8)], 32, input_format="nv12",
                        interp="pil-bicubic")
    with pytest.raises(clpad.ClpadValueError, match="unknown input format 'nv16'"):
        clpad.letterbox([np.zeros((6, 4), np.uint8)], 32, input_format="nv16")
    with pytest.raises(clpad.ClpadValueError, match="unknown color matrix"):
        clpad.letterbox([np.zeros((6, 4), np.uint8)], 32, input_format="nv12",
                        color_matrix="bt999")
    with pytest.raises(clpad.ClpadValueError, match="one frame"):
        clpad.letterbox(np.zeros((6, 4), np.uint8), 32, input_format="nv12")
