"""clpad.letterbox and clpad.pad_stack: the geometry against a NumPy statement
of Ultralytics' LetterBox, the normalisation against NumPy's float32 and
float16 (bit for bit), layouts, channel swap, strided images, the device
against the CPU reference path, pad_stack against numpy.pad, and errors."""

import os

import numpy as np
import pytest

import clpad


def ultralytics_geometry(h, w, H, W, scaleup=True, center=True):
    """Ultralytics' LetterBox.__call__, the arithmetic only."""
    r = min(H / h, W / w)
    if not scaleup:
        r = min(r, 1.0)
    new_w, new_h = int(round(w * r)), int(round(h * r))
    dw, dh = W - new_w, H - new_h
    if center:
        dw /= 2
        dh /= 2
    top = int(round(dh - 0.1)) if center else 0
    left = int(round(dw - 0.1)) if center else 0
    return r, top, left, new_h, new_w


def images(rng, sizes, c=3):
    return [rng.integers(0, 256, (h, w, c), dtype=np.uint8) for h, w in sizes]


SIZES = [(37, 61), (80, 20), (48, 64), (5, 9), (64, 48), (1, 30)]


def test_geometry_is_ultralytics():
    rng = np.random.default_rng(0)
    for _ in range(200):
        h, w = (int(v) for v in rng.integers(2, 3000, 2))
        H, W = (int(v) for v in rng.integers(1, 1300, 2))
        for scaleup in (True, False):
            for center in (True, False):
                r, top, left, nh, nw = ultralytics_geometry(h, w, H, W, scaleup, center)
                if nh == 0 or nw == 0:
                    continue  # Ultralytics fails there; clpad keeps one row
                _, t = clpad.letterbox([np.zeros((h, w), np.uint8)], (H, W), scaleup=scaleup,
                                       placement="center" if center else "top-left",
                                       dtype=np.uint8, device=clpad.REFERENCE)
                assert t[0][:5] == (r, top, left, nh, nw), (h, w, H, W)
                assert t[0][5:7] == (h, w)


def test_normalisation_is_numpys_float32_and_float16():
    rng = np.random.default_rng(1)
    imgs = images(rng, SIZES)
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    u8, _ = clpad.letterbox(imgs, (64, 48), dtype=np.uint8)
    f32, _ = clpad.letterbox(imgs, (64, 48), scale=1 / 255, mean=mean, std=std)
    m = np.array(mean, np.float32)[None, :, None, None]
    s = np.array(std, np.float32)[None, :, None, None]
    want = (u8.astype(np.float32) * np.float32(1 / 255) - m) / s
    assert np.array_equal(f32.view(np.uint32), want.view(np.uint32))
    f16, _ = clpad.letterbox(imgs, (64, 48), scale=1 / 255, mean=mean, std=std,
                             dtype=np.float16)
    assert np.array_equal(f16.view(np.uint16), want.astype(np.float16).view(np.uint16))
    # values at the edges: overflow, subnormals and ties of float16
    for scale, mn, sd in ((2.0 ** -25, 0.0, 1.0), (1.0, -2048.0, 1.0), (300.0, 0.0, 1.0)):
        g, _ = clpad.letterbox(imgs, (32, 32), scale=scale, mean=mn, std=sd, dtype=np.float16)
        u, _ = clpad.letterbox(imgs, (32, 32), dtype=np.uint8)
        with np.errstate(over="ignore"):
            w = ((u.astype(np.float32) * np.float32(scale) - np.float32(mn)) / np.float32(sd))
            w16 = w.astype(np.float16)
        assert np.array_equal(g.view(np.uint16), w16.view(np.uint16)), scale


def test_device_equals_reference_every_option():
    rng = np.random.default_rng(2)
    for k in range(24):
        c = (1, 3, 4)[k % 3]
        imgs = images(rng, SIZES, c)
        kw = dict(interp=("bilinear", "nearest")[k % 2],
                  placement=("center", "top-left")[k // 2 % 2],
                  scaleup=bool(k % 5), mode=("constant", "edge", "wrap")[k % 3],
                  swap_rb=bool(k % 4 == 1), scale=1 / 255, mean=0.25, std=0.5,
                  dtype=(np.float32, np.float16, np.uint8)[k // 3 % 3],
                  layout=("NCHW", "NHWC")[k // 4 % 2])
        a, ta = clpad.letterbox(imgs, (40, 52), **kw)
        b, tb = clpad.letterbox(imgs, (40, 52), device=clpad.REFERENCE, **kw)
        assert a.tobytes() == b.tobytes(), kw
        assert ta == tb


def test_layout_swap_strides_and_identity():
    rng = np.random.default_rng(3)
    imgs = images(rng, SIZES)
    nchw, _ = clpad.letterbox(imgs, (64, 48), dtype=np.uint8)
    nhwc, _ = clpad.letterbox(imgs, (64, 48), dtype=np.uint8, layout="NHWC")
    assert np.array_equal(nchw.transpose(0, 2, 3, 1), nhwc)
    swapped, _ = clpad.letterbox(imgs, (64, 48), dtype=np.uint8, swap_rb=True)
    reversed_, _ = clpad.letterbox([i[..., ::-1] for i in imgs], (64, 48), dtype=np.uint8)
    assert np.array_equal(swapped, reversed_)
    big = rng.integers(0, 256, (100, 120, 3), dtype=np.uint8)
    crop = big[10:70, 5:90]  # strided rows, read in place
    a, _ = clpad.letterbox([crop], (64, 48), dtype=np.uint8)
    b, _ = clpad.letterbox([np.ascontiguousarray(crop)], (64, 48), dtype=np.uint8)
    assert np.array_equal(a, b)
    same, t = clpad.letterbox([big], (100, 120), dtype=np.uint8, layout="NHWC")
    assert np.array_equal(same[0], big) and t[0].scale == 1.0
    assert np.array_equal(big, big.copy())  # inputs untouched (trivially: a new array each)


def test_photo_and_transform_back():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "data", "astronaut.png")
    cli = os.environ.get("CLPAD_CLI")
    if not os.path.exists(path) or not cli:
        pytest.skip("needs the repository's data/ and the CLI (run through ctest)")
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "photo.npy")
        subprocess.run([cli, "pad", "-q", "--pads-begin", "0,0", "--pads-end", "0,0", path, out],
                       check=True)
        photo = np.load(out)
    wide = photo[100:300]  # 200 x 512
    batch, t = clpad.letterbox([photo, wide], 320, scale=1 / 255)
    ref, _ = clpad.letterbox([photo, wide], 320, scale=1 / 255, device=clpad.REFERENCE)
    assert batch.tobytes() == ref.tobytes()
    assert t[1][:5] == (0.625, 97, 0, 125, 320) and t[1][5:7] == (200, 512)
    # the slot's corners of the image map back to the source's corners
    corners = t[1].to_source([[0, 97, 320, 97 + 125]])
    assert np.allclose(corners, [[0, 0, 512, 200]])


def test_errors_name_the_image_and_write_nothing():
    rng = np.random.default_rng(4)
    imgs = images(rng, SIZES)
    out = np.full((len(SIZES), 3, 16, 16), 7, np.float32)
    bad = imgs[:2] + [np.zeros((0, 4, 3), np.uint8)] + imgs[3:]
    with pytest.raises(clpad.ClpadValueError, match=r"images\[2\]"):
        clpad.letterbox(bad, 16, out=out)
    assert (out == 7).all()
    with pytest.raises(clpad.ClpadValueError, match=r"images\[1\]"):
        clpad.letterbox([imgs[0], imgs[1][..., :2]], 16)
    with pytest.raises(clpad.ClpadValueError, match=r"images\[1\]: dtype float32"):
        clpad.letterbox([imgs[0], imgs[0].astype(np.float32)], 16)
    with pytest.raises(clpad.ClpadValueError, match=r"images\[1\]: pad_left"):
        clpad.letterbox(imgs, 16, mode="reflect", out=out)
    assert (out == 7).all()
    with pytest.raises(clpad.ClpadValueError, match="std"):
        clpad.letterbox(imgs, 16, std=[1, 0, 1])
    with pytest.raises(clpad.ClpadValueError, match="value 300"):
        clpad.letterbox(imgs, 16, value=300)
    with pytest.raises(clpad.ClpadValueError, match="dtype"):
        clpad.letterbox(imgs, 16, dtype=np.int32)
    with pytest.raises(clpad.ClpadValueError, match="layout"):
        clpad.letterbox(imgs, 16, layout="CHW")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        clpad.letterbox(imgs, 16, interp=3)  # type: ignore[arg-type]


def test_pad_stack_is_numpy_pad_of_each():
    rng = np.random.default_rng(5)
    for k in range(40):
        rank = k % 4
        dtype = (np.uint8, np.int16, np.float32, np.float64)[k % 4]
        mode = ("constant", "edge", "wrap", "symmetric")[k // 4 % 4]
        placement = ("top-left", "center")[k % 2]
        lo = {"constant": 0, "symmetric": 3}.get(mode, 1)  # symmetric: pads <= D
        ts = [rng.integers(0, 100, tuple(rng.integers(lo, 6, rank))).astype(dtype)
              for _ in range(5)]
        S = tuple(max(t.shape[a] for t in ts) for a in range(rank))
        value = 3 if mode == "constant" else None  # (another mode takes no value)
        batch, shapes = clpad.pad_stack(ts, mode=mode, value=value, placement=placement)
        assert batch.shape == (5,) + S and batch.dtype == dtype
        assert shapes.tolist() == [list(t.shape) for t in ts]
        for i, t in enumerate(ts):
            total = [S[a] - t.shape[a] for a in range(rank)]
            before = [d // 2 if placement == "center" else 0 for d in total]
            widths = [(b, d - b) for b, d in zip(before, total)]
            kw = {"constant_values": 3} if mode == "constant" else {}
            want = np.pad(t, widths, mode=mode, **kw) if rank else t
            assert batch[i].tobytes() == want.tobytes(), (k, i)
        ref, _ = clpad.pad_stack(ts, mode=mode, value=value, placement=placement,
                                 device=clpad.REFERENCE)
        assert ref.tobytes() == batch.tobytes()


def test_pad_stack_given_shape_and_errors():
    seqs = [np.arange(n * 4, dtype=np.float16).reshape(n, 4) for n in (3, 7, 1)]
    batch, _ = clpad.pad_stack(seqs, shape=(5, 4))  # 7 rows cropped to 5
    assert np.array_equal(batch[1], seqs[1][:5])
    assert np.array_equal(batch[0][3:], np.zeros((2, 4), np.float16))
    with pytest.raises(clpad.ClpadValueError, match=r"tensors\[2\]"):
        clpad.pad_stack(seqs, shape=(4, 4), mode="reflect")
    with pytest.raises(clpad.ClpadValueError, match=r"tensors\[1\]"):
        clpad.pad_stack([seqs[0], seqs[1].astype(np.float32)])
    with pytest.raises(clpad.ClpadValueError):
        clpad.pad_stack([])


def test_pad_stack_per_side_constant_values_are_numpy_pad_of_each():
    """constant_values in numpy.pad's forms (scalar, (before, after), one per
    side of each axis, cast as numpy casts): each slice equals numpy.pad of
    its tensor, corners the last axis' value, top-left and centred (pads and
    crops), on the default device, the reference path and, for the large
    batches, the kernel."""
    rng = np.random.default_rng(29)
    dtypes = (np.uint8, np.int16, np.int64, np.float16, np.float32, np.float64, np.bool_)
    for k in range(42):
        rank = 1 + k % 3
        big = k % 7 == 6  # past the small-call threshold: the kernel runs
        dtype = dtypes[k // 7 if big else k % len(dtypes)]
        hi = (0, 5000, 300, 60)[rank] if big else 6
        ts = [rng.integers(0, 100, tuple(int(d) for d in rng.integers(0, hi, rank)))
              .astype(dtype) for _ in range(4)]
        S = tuple(max(t.shape[a] for t in ts) + int(rng.integers(0, 3)) for a in range(rank))
        if k % 3 == 0 or big:
            cv = [[int(v) for v in rng.integers(0, 2 if dtype == np.bool_ else 120, 2)]
                  for _ in range(rank)]
        elif k % 3 == 1:
            cv = tuple(int(v) for v in rng.integers(0, 2 if dtype == np.bool_ else 120, 2))
        else:
            cv = int(rng.integers(0, 2 if dtype == np.bool_ else 120))
        placement = ("top-left", "center")[k % 2]
        shape = S if k % 4 else tuple(max(1, d - 2) for d in S)  # crops too
        want = []
        for t in ts:
            total = [shape[a] - t.shape[a] for a in range(rank)]
            before = [d // 2 if placement == "center" else 0 for d in total]
            # numpy.pad takes no negative widths: crop first, then pad
            src = t[tuple(slice(max(0, -b), max(0, -b) + min(t.shape[a], shape[a]))
                          for a, b in enumerate(before))]
            widths = [(max(b, 0), shape[a] - src.shape[a] - max(b, 0))
                      for a, b in enumerate(before)]
            want.append(np.pad(src, widths, constant_values=cv))
        want = np.stack(want)
        for device in (None, clpad.REFERENCE):
            batch, shapes = clpad.pad_stack(ts, shape, placement=placement,
                                            constant_values=cv, device=device)
            assert batch.dtype == want.dtype and batch.shape == want.shape, (k, device)
            assert batch.tobytes() == want.tobytes(), (k, device, cv, placement)
    # a batch of rank 3 large enough for the kernel on a CPU device (tens of
    # MB, past the small-call threshold), centred: rows padded on both outer
    # axes take the inner one's value
    ts = [rng.integers(0, 100, (150, 161, 170)).astype(np.int32),
          rng.integers(0, 100, (161, 150, 168)).astype(np.int32)]
    cv = ((1, 2), (3, 4), (5, 6))
    batch, _ = clpad.pad_stack(ts, (165, 165, 172), placement="center", constant_values=cv)
    for t, got in zip(ts, batch):
        total = [S - d for S, d in zip((165, 165, 172), t.shape)]
        want = np.pad(t, [(d // 2, d - d // 2) for d in total], constant_values=cv)
        assert got.tobytes() == want.tobytes()
    # numpy's casting (floats into uint8 as numpy.pad casts them; 300 refused
    # as numpy.pad refuses it) and the refusals
    x = [np.zeros((1, 2), np.uint8), np.zeros((2, 1), np.uint8)]
    cv = ((1.7, 250.9), (2, 3))
    want = np.stack([np.pad(x[0], ((0, 1), (0, 0)), constant_values=cv),
                     np.pad(x[1], ((0, 0), (0, 1)), constant_values=cv)])
    got, _ = clpad.pad_stack(x, constant_values=cv)
    assert got.tobytes() == want.tobytes()
    with pytest.raises(clpad.ClpadValueError, match="300"):
        clpad.pad_stack(x, constant_values=((1, 300), (2, 3)))
    with pytest.raises(TypeError, match="give one"):
        clpad.pad_stack(x, value=1, constant_values=2)
    with pytest.raises(clpad.ClpadValueError, match="constant_values"):
        clpad.pad_stack(x, mode="edge", constant_values=((1, 2), (3, 4)))


# ---- preprocess: the fits and torchvision's normalisation --------------------


def torchvision_resize_crop(h, w, S, H, W):
    """torchvision's Resize(S) size and CenterCrop(H, W) offsets, as its
    transforms/functional.py computes them."""
    short, long_ = (w, h) if w <= h else (h, w)
    new_short, new_long = S, int(S * long_ / short)
    nw, nh = (new_short, new_long) if w <= h else (new_long, new_short)
    top = int(round((nh - H) / 2.0)) if nh > H else -((H - nh) // 2)
    left = int(round((nw - W) / 2.0)) if nw > W else -((W - nw) // 2)
    return nh, nw, top, left


@pytest.mark.parametrize("fit", ["cover", "stretch", "shorter"])
def test_preprocess_fits_crop_the_resize(fit):
    """cover and resize_shorter are the resize to the resized size (fit
    "stretch" into it) cropped at torchvision's centre; stretch is the
    resize to the slot; the transforms say so and map the slot back."""
    rng = np.random.default_rng(7)
    for h, w in [(37, 61), (80, 20), (48, 64), (5, 9), (300, 200), (1, 30), (113, 112)]:
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        H, W = int(rng.integers(8, 70)), int(rng.integers(8, 70))
        kw = {"resize_shorter": int(rng.integers(4, 90))} if fit == "shorter" else {"fit": fit}
        got, t = clpad.preprocess([img], (H, W), dtype=np.uint8, layout="NHWC",
                                  device=clpad.REFERENCE, **kw)
        dev, _ = clpad.preprocess([img], (H, W), dtype=np.uint8, layout="NHWC", **kw)
        assert dev.tobytes() == got.tobytes()
        t = t[0]
        if fit == "shorter":
            nh, nw, top, left = torchvision_resize_crop(h, w, kw["resize_shorter"], H, W)
            assert (t.resized_height, t.resized_width, -t.pad_top, -t.pad_left) == \
                (nh, nw, top, left), (h, w, H, W, kw)
            assert (t.scale_y, t.scale_x) == (nh / h, nw / w)
        elif fit == "stretch":
            assert (t.resized_height, t.resized_width, t.pad_top, t.pad_left) == (H, W, 0, 0)
            assert (t.scale_y, t.scale_x) == (H / h, W / w)
        else:
            r = max(H / h, W / w)
            assert t.scale == r and t.scale_x == r and t.scale_y == r
            assert (t.resized_height, t.resized_width) == (round(h * r), round(w * r))
        full, _ = clpad.preprocess([img], (t.resized_height, t.resized_width), fit="stretch",
                                   dtype=np.uint8, layout="NHWC", device=clpad.REFERENCE)
        y0, x0 = -t.pad_top, -t.pad_left
        if y0 >= 0 and x0 >= 0:  # a crop on both axes
            assert got[0].tobytes() == full[0, y0:y0 + H, x0:x0 + W].tobytes()
        # the resized image's corners map back to the image's (cover, like
        # contain, by the one ratio r: within half a resized pixel)
        back = t.to_source([[t.pad_left, t.pad_top, t.pad_left + t.resized_width,
                             t.pad_top + t.resized_height]], clip=False)
        assert np.allclose(back, [[0, 0, w, h]], atol=0.5 / t.scale if fit == "cover" else 1e-9)


def test_preprocess_stride_is_ultralytics_auto():
    img = np.zeros((720, 1280, 3), np.uint8)
    batch, t = clpad.preprocess([img], 640, stride=32, device=clpad.REFERENCE)
    assert batch.shape == (1, 3, 384, 640)
    assert t[0][:5] == (0.5, 12, 0, 360, 640)
    with pytest.raises(clpad.ClpadValueError, match="stride = 32 is the contain fit's"):
        clpad.preprocess([img], 640, stride=32, fit="cover")
    with pytest.raises(clpad.ClpadValueError, match="resize_shorter = 64 needs fit cover"):
        clpad.preprocess([img], 640, resize_shorter=64, fit="stretch")
    with pytest.raises(clpad.ClpadValueError, match="divisor = 0"):
        clpad.preprocess([img], 640, divisor=0)
    with pytest.raises(clpad.ClpadValueError, match="pil_version = 14: 12 or 13"):
        clpad.preprocess([img], 640, pil_version=14)
    with pytest.raises(TypeError, match="pil_version must be an int"):
        clpad.preprocess([img], 640, pil_version="13")
    with pytest.raises(clpad.ClpadValueError, match="unknown fit 'squash'"):
        clpad.preprocess([img], 640, fit="squash")
    with pytest.raises(clpad.ClpadValueError, match="resize_shorter = 36893488147419103232"):
        clpad.preprocess([img], 640, resize_shorter=2**65)


def test_divisor_is_torchvision_to_tensor_and_normalize():
    """((v / 255) - mean) / std in float32, operation by operation, as
    torchvision's ToTensor (a division by 255) and Normalize compute it."""
    v = np.arange(256, dtype=np.uint8).reshape(16, 16)
    img = np.stack([v, v[::-1], v.T], axis=2)
    mean = np.array([0.485, 0.456, 0.406], np.float32)
    std = np.array([0.229, 0.224, 0.225], np.float32)
    want = ((img.astype(np.float32) / np.float32(255)) - mean) / std
    for device in (None, clpad.REFERENCE):
        got, _ = clpad.preprocess([img], 16, divisor=255, mean=mean, std=std, layout="NHWC",
                                  device=device)
        assert got[0].tobytes() == want.astype(np.float32).tobytes()
    # the multiply by the rounded reciprocal is not the same
    mul, _ = clpad.preprocess([img], 16, scale=1 / 255, mean=mean, std=std, layout="NHWC")
    assert mul[0].tobytes() != want.tobytes()


def test_cli_preprocess_is_the_same_call(tmp_path):
    """`clpad preprocess` with --resize-shorter and --divisor writes what
    clpad.preprocess returns, and its transforms JSON the same transform."""
    import json
    import subprocess
    cli = os.environ.get("CLPAD_CLI")
    if not cli:
        pytest.skip("needs the CLI (CLPAD_CLI, set by ctest)")
    img = np.random.default_rng(3).integers(0, 256, (50, 71, 3), dtype=np.uint8)
    np.save(tmp_path / "a.npy", img)
    subprocess.run([cli, "preprocess", "-q", "--size", "24,20", "--resize-shorter", "30",
                    "--divisor", "255", "--mean", "0.485,0.456,0.406", "--std",
                    "0.229,0.224,0.225", "--transforms", str(tmp_path / "t.json"),
                    str(tmp_path / "a.npy"), str(tmp_path / "out.npy")], check=True)
    want, t = clpad.preprocess([img], (24, 20), resize_shorter=30, divisor=255,
                               mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    assert np.load(tmp_path / "out.npy").tobytes() == want.tobytes()
    doc = json.load(open(tmp_path / "t.json"))
    e = doc["images"][0]
    assert doc["fit"] == "cover"
    assert (e["pad_top"], e["pad_left"], e["resized_h"], e["resized_w"]) == \
        (t[0].pad_top, t[0].pad_left, t[0].resized_height, t[0].resized_width) == (-3, -11, 30, 42)
    assert (e["scale_y"], e["scale_x"]) == (t[0].scale_y, t[0].scale_x)


def test_pil_kinds_are_pillows_resize():
    """interp "pil-*" is Pillow's resize byte for byte: two one-axis
    Image.resize calls, horizontal first, or with pil_version 13 (the
    default) vertical first where the height is reduced and 2 (W - w) >
    H - h (clpad/docs/letterbox.md); the installed Pillow's Image.resize
    itself with its release's pil_version; sizes up and down, RGB and grey.
    Preset "imagenet" is torchvision's recipe as Pillow and NumPy state it."""
    PIL = pytest.importorskip("PIL")
    Image = pytest.importorskip("PIL.Image")
    installed = min(max(int(PIL.__version__.split(".")[0]), 12), 13)
    rng = np.random.default_rng(11)
    y, x = np.mgrid[0:97, 0:131]
    smooth = ((np.sin(x / 7.0) + np.cos(y / 5.0)) * 60 + 128).astype(np.uint8)
    noise = rng.integers(0, 256, (97, 131, 3), dtype=np.uint8)
    kinds = {"pil-bilinear": Image.BILINEAR, "pil-bicubic": Image.BICUBIC,
             "pil-lanczos": Image.LANCZOS}
    vfirst_seen = 0
    for a in (smooth, noise, np.dstack([smooth, noise[:, :, 1], smooth[::-1]])):
        h, w = a.shape[:2]
        for kind, flt in kinds.items():
            for size in ((1, 1), (13, 200), (97, 131), (300, 41), (8, 9), (40, 125)):
                H, W = size
                im = Image.fromarray(a)
                hfirst = np.asarray(im.resize((W, h), flt).resize((W, H), flt))
                vfirst = np.asarray(im.resize((w, H), flt).resize((W, H), flt))
                want = {12: hfirst, 13: vfirst if H < h and 2 * (W - w) > H - h else hfirst}
                vfirst_seen += want[13] is vfirst and not np.array_equal(vfirst, hfirst)
                assert np.array_equal(want[installed], np.asarray(im.resize((W, H), flt)))
                for device in (None, clpad.REFERENCE):
                    for v in (12, 13):
                        got, _ = clpad.preprocess([a], size, fit="stretch", interp=kind,
                                                  dtype=np.uint8, layout="NHWC", device=device,
                                                  pil_version=v)
                        assert got[0].reshape(want[v].shape).tobytes() == want[v].tobytes(), \
                            (kind, a.shape, size, device, v)
    assert vfirst_seen  # the two orders differ somewhere in these cases
    pil = Image.fromarray(noise)
    r = pil.resize((int(256 * 131 / 97), 97), Image.BILINEAR).resize(
        (int(256 * 131 / 97), 256), Image.BILINEAR)
    top, left = int(round((256 - 224) / 2.0)), int(round((r.size[0] - 224) / 2.0))
    c = np.asarray(r.crop((left, top, left + 224, top + 224))).astype(np.float32)
    want = (c / np.float32(255) - np.float32([0.485, 0.456, 0.406])) / \
        np.float32([0.229, 0.224, 0.225])
    got, t = clpad.preprocess([noise], 224, preset="imagenet")
    assert got[0].tobytes() == np.ascontiguousarray(want.transpose(2, 0, 1)).tobytes()
    assert (t[0].pad_top, t[0].pad_left) == (-top, -left)


def test_preset_fit_override_leaves_resize_shorter_out():
    """A fit other than "cover" given with preset "imagenet" overrides the
    preset's Resize(256), which belongs to its cover crop: the batch is the
    preset's normalisation with that fit and no resize_shorter; with
    resize_shorter given too, the combination is refused."""
    rng = np.random.default_rng(5)
    a = rng.integers(0, 256, (37, 61, 3), dtype=np.uint8)
    own = dict(interp="pil-bilinear", mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225],
               divisor=255, value=0, dtype=np.float32)
    for fit in ("contain", "stretch"):
        got, _ = clpad.preprocess([a], 64, preset="imagenet", fit=fit)
        want, _ = clpad.preprocess([a], 64, fit=fit, **own)
        assert got.tobytes() == want.tobytes(), fit
    with pytest.raises(clpad.ClpadValueError, match="resize_shorter"):
        clpad.preprocess([a], 64, preset="imagenet", fit="contain", resize_shorter=80)


def test_opencv_kinds_are_cv2_resize():
    """interp "area" is cv2.resize(INTER_AREA) byte for byte (integer
    ratios, other reductions, enlargements, one axis up and one down), and
    "bicubic" OpenCV's own INTER_CUBIC (cv2.resize with IPP off), on the
    device and the reference path, 1, 3 and 4 channels
    (clpad/docs/letterbox.md, "Resize")."""
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(28)
    y, x = np.mgrid[0:96, 0:132]
    smooth = ((np.sin(x / 7.0) + np.cos(y / 5.0)) * 60 + 128).astype(np.uint8)
    noise = rng.integers(0, 256, (96, 132, 4), dtype=np.uint8)
    sizes = ((48, 66), (32, 33), (24, 44), (37, 61), (13, 200), (150, 41), (96, 132), (1, 1))
    was = cv2.ipp.useIPP()
    try:
        for a in (smooth, noise[:, :, :3], noise):
            for H, W in sizes:
                for kind, flag in (("area", cv2.INTER_AREA), ("bicubic", cv2.INTER_CUBIC)):
                    cv2.ipp.setUseIPP(kind != "bicubic" and was)
                    want = cv2.resize(a, (W, H), interpolation=flag).reshape(H, W, -1)
                    for device in (None, clpad.REFERENCE):
                        got, _ = clpad.preprocess([a], (H, W), fit="stretch", interp=kind,
                                                  dtype=np.uint8, layout="NHWC", device=device)
                        assert got[0].tobytes() == want.tobytes(), (kind, a.shape, (H, W), device)
    finally:
        cv2.ipp.setUseIPP(was)
    a, _ = clpad.preprocess([noise], (20, 30), interp="cubic", fit="stretch", dtype=np.uint8)
    b, _ = clpad.preprocess([noise], (20, 30), interp="bicubic", fit="stretch", dtype=np.uint8)
    assert a.tobytes() == b.tobytes()


def test_pil_version_picks_the_pass_order():
    """A 120 x 120 image to 80 x 10 (W x H): Pillow 13 runs the vertical pass
    first there (2 (80 - 120) > 10 - 120), Pillow 12 the horizontal one; the
    two orders give other bytes on noise; the default is 13."""
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (120, 120), np.uint8)
    out = {}
    for v in (12, 13):
        out[v], _ = clpad.preprocess([img], (10, 80), fit="stretch", interp="pil-bicubic",
                                     dtype=np.uint8, pil_version=v, device=clpad.REFERENCE)
    assert (out[12] != out[13]).any()
    default, _ = clpad.preprocess([img], (10, 80), fit="stretch", interp="pil-bicubic",
                                  dtype=np.uint8, device=clpad.REFERENCE)
    assert (default == out[13]).all()
