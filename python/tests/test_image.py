"""clpad.imread: the wrapper of libclpad's image reading. The rules
themselves are tested in C (tests/test_image.c) and against cv2.imread on
real photographs (tests/peer/imread_peer.py); here: arrays, dtypes,
channels, options, paths and errors."""

import os
import pathlib
import struct
import subprocess
import threading
import zlib

import numpy as np
import pytest

import clpad

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTO = os.path.join(HERE, "..", "..", "data", "astronaut.png")


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)


def png(a, exif_orientation=None):
    """A PNG of a (H x W, or H x W x C with C 2..4; uint8 or uint16)."""
    a = np.asarray(a)
    c = 1 if a.ndim == 2 else a.shape[2]
    depth = 16 if a.dtype == np.uint16 else 8
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    rows = a.reshape(a.shape[0], -1).astype(">u2" if depth == 16 else np.uint8)
    raw = b"".join(b"\0" + r.tobytes() for r in rows)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", a.shape[1], a.shape[0],
                                                          depth, ctype, 0, 0, 0))
    if exif_orientation is not None:
        tiff = b"MM\0\x2a\0\0\0\x08\0\x01" + struct.pack(">HHIHH", 0x0112, 3, 1,
                                                        exif_orientation, 0) + b"\0\0\0\0"
        out += chunk(b"eXIf", tiff)
    return out + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


@pytest.fixture
def write(tmp_path):
    def w(name, data):
        p = tmp_path / name
        p.write_bytes(data)
        return str(p)
    return w


def test_channels_and_dtype(write):
    g = np.arange(12, dtype=np.uint8).reshape(3, 4)
    p = write("g.png", png(g))
    a = clpad.imread(p)
    assert a.shape == (3, 4, 3) and a.dtype == np.uint8 and a.flags.c_contiguous
    assert np.array_equal(a, np.repeat(g[..., None], 3, axis=2))
    assert np.array_equal(clpad.imread(p, 1), g[..., None])
    assert np.array_equal(clpad.imread(p, "keep"), g[..., None])
    a4 = clpad.imread(p, 4)
    assert a4.shape == (3, 4, 4) and (a4[..., 3] == 255).all()
    rgba = np.random.default_rng(1).integers(0, 256, (5, 6, 4), dtype=np.uint8)
    p = write("rgba.png", png(rgba))
    assert np.array_equal(clpad.imread(p), rgba[..., :3])  # alpha dropped
    assert np.array_equal(clpad.imread(p, 4), rgba)
    assert np.array_equal(clpad.imread(p, channels="KEEP"), rgba)


def test_16bit(write):
    a = np.random.default_rng(2).integers(0, 65536, (4, 5, 3), dtype=np.uint16)
    p = write("a16.png", png(a))
    assert np.array_equal(clpad.imread(p), (a >> 8).astype(np.uint8))
    b = clpad.imread(p, keep_depth=True)
    assert b.dtype == np.uint16 and np.array_equal(b, a)


def test_orientation(write):
    a = np.random.default_rng(3).integers(0, 256, (3, 5, 3), dtype=np.uint8)
    p = write("o6.png", png(a, exif_orientation=6))
    # 6: a quarter turn clockwise
    assert np.array_equal(clpad.imread(p), np.rot90(a, k=-1))
    assert np.array_equal(clpad.imread(p, ignore_orientation=True), a)


def test_paths(write):
    p = write("g.png", png(np.zeros((2, 2), np.uint8)))
    for form in (p, pathlib.Path(p), os.fsencode(p)):
        assert clpad.imread(form).shape == (2, 2, 3)
    with pytest.raises(TypeError):
        clpad.imread(123)
    with pytest.raises(clpad.ClpadValueError, match="NUL"):
        clpad.imread(p + "\0x")


def test_errors(write, tmp_path):
    missing = str(tmp_path / "missing.png")
    with pytest.raises(clpad.ClpadRuntimeError, match="missing.png: cannot open") as e:
        clpad.imread(missing)
    assert e.value.status_name == "CLPAD_ERR_IO"
    with pytest.raises(clpad.ClpadRuntimeError, match="is a directory"):
        clpad.imread(str(tmp_path))
    data = bytearray(png(np.zeros((4, 4, 3), np.uint8)))
    data[40] ^= 1  # inside IDAT: its CRC no longer matches
    p = write("bad.png", bytes(data))
    with pytest.raises(clpad.ClpadValueError, match="bad.png: cannot decode the image") as e:
        clpad.imread(p)
    assert e.value.status_name == "CLPAD_ERR_BAD_INPUT"
    p = write("junk.png", b"not an image at all")
    with pytest.raises(clpad.ClpadValueError, match="unrecognized signature"):
        clpad.imread(p)
    p = write("ok.png", png(np.zeros((4, 5), np.uint8)))
    assert clpad.imread(p, max_pixels=20).shape == (4, 5, 3)
    assert clpad.imread(p, max_pixels=2**80, min_size=2**70).shape == (4, 5, 3)
    with pytest.raises(clpad.ClpadValueError, match="20 pixels, more than the limit of 19 pixels "
                       r"\(raise it with the max_pixels") as e:
        clpad.imread(p, max_pixels=19)
    assert e.value.status_name == "CLPAD_ERR_TOO_LARGE"
    for bad in (2, 0, 5, "rgb", 3.0, True):
        with pytest.raises(clpad.ClpadValueError, match="channels"):
            clpad.imread(p, bad)
    with pytest.raises(clpad.ClpadValueError, match="max_pixels"):
        clpad.imread(p, max_pixels=0)
    with pytest.raises(TypeError, match="max_pixels"):
        clpad.imread(p, max_pixels=1.5)
    with pytest.raises(clpad.ClpadValueError, match="min_size"):
        clpad.imread(p, min_size=(1, 2, 3))
    with pytest.raises(clpad.ClpadValueError, match="min_size"):
        clpad.imread(p, min_size=0)
    with pytest.raises(TypeError, match="min_size"):
        clpad.imread(p, min_size=object())


def test_photo_and_threads():
    if not os.path.exists(PHOTO):
        pytest.skip("needs the repository's data/astronaut.png")
    a = clpad.imread(PHOTO)
    assert a.shape == (512, 512, 3) and a.std() > 20
    results = [None] * 4

    def work(k):
        results[k] = clpad.imread(PHOTO)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, a) for r in results)


def test_jpeg_min_size(cli, tmp_path):
    """DCT-domain scaling: the JPEG written by the CLI from the photo, read at
    the smallest M/8 that keeps 128 x 128 (512 * 2 / 8)."""
    if not os.path.exists(PHOTO):
        pytest.skip("needs the repository's data/astronaut.png")
    jpg = str(tmp_path / "astro.jpg")
    r = subprocess.run([cli.path, "pad", "--quiet", "--pads-begin", "0,0,0", "--pads-end",
                        "0,0,0", PHOTO, jpg], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    full = clpad.imread(jpg)
    assert full.shape == (512, 512, 3)
    assert clpad.imread(jpg, min_size=128).shape == (128, 128, 3)
    assert clpad.imread(jpg, min_size=(129, 1)).shape == (256, 256, 3)  # 4/8, not 3/8
    assert clpad.imread(jpg, min_size=(1, 1)).shape == (64, 64, 3)
    # a PNG is never scaled
    assert clpad.imread(PHOTO, min_size=1).shape == (512, 512, 3)
