#!/usr/bin/env python3
"""clpad.imread (libclpad's image reading) against cv2.imread, byte for byte.

Inputs: real photographs (tests/peer/fetch_photos.py: scikit-image,
scikit-learn, matplotlib and Ultralytics sample photos), and files derived
from them here with Pillow, OpenCV and by hand: grayscale, progressive,
optimised and 4:4:4 / 4:2:2 / 4:2:0 JPEGs, CMYK JPEG, EXIF orientations 1..8
(and out-of-range values) in JPEG APP1 and PNG eXIf (before and after the
image data), an XMP segment before the EXIF one; RGBA, grey + alpha, 16-bit
(grey, RGB, RGBA), palette with and without tRNS, 1/2/4-bit palette and grey,
tRNS colour keys, Adam7-interlaced PNGs, gAMA and sRGB chunks; 24-bit,
32-bit (BI_RGB, and BI_BITFIELDS with alpha), 8-bit (grey and colour
palettes) and 1-bit BMP; 8- and 16-bit PGM/PPM.

Modes, each compared on every file (OpenCV's BGR(A) turned into RGB(A)):
  color      clpad.imread(f)                      == cv2.imread(f, IMREAD_COLOR)
  gray       clpad.imread(f, 1)[..., 0]           == cv2.imread(f, IMREAD_GRAYSCALE)
  anydepth   clpad.imread(f, keep_depth=True)     == cv2.imread(f, IMREAD_COLOR | IMREAD_ANYDEPTH)
  unchanged  clpad.imread(f, 4 if OpenCV gives 4 channels else "keep",
                          keep_depth=True, ignore_orientation=True)
                                                  == cv2.imread(f, IMREAD_UNCHANGED)
  reduced    clpad.imread(f, min_size=...) at M/8 == cv2.imread(f, IMREAD_REDUCED_COLOR_{8/M})
             (JPEG only; M = 4, 2, 1)
Any differing byte (or shape) is a failure, except the documented
divergences below, whose cause is checked on the spot:
  - unchanged, a grey PNG with a tRNS colour key: OpenCV ignores the key (1
    channel), clpad's "keep" turns it into an alpha channel (2 channels): the
    grey channel must equal OpenCV's and the alpha must be 0 exactly where the
    grey equals the key.

Also: every one of N random single-bit flips of a real PNG is refused by
clpad (and by Pillow), where cv2 decodes some (reported, not a failure).

Exit status: 0 no failure, 1 failures, 2 usage error, 77 nothing could run.
"""

import argparse
import io
import os
import random
import struct
import sys
import tempfile
import zlib

try:
    import numpy as np
    import cv2
    from PIL import Image
except ImportError as e:  # pragma: no cover
    print("SKIP: imread peer: %s (run tests/peer/with_photos.sh imread_peer.py)" % e)
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "python")))
import clpad  # noqa: E402

# ---------------------------------------------------------------------------
# Writing derived files
# ---------------------------------------------------------------------------


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)


def png_chunks(b):
    i = 8
    while i < len(b):
        n = struct.unpack(">I", b[i:i + 4])[0]
        yield b[i + 4:i + 8], b[i + 8:i + 8 + n]
        i += 12 + n


def png_from_chunks(chunks):
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunk(k, d) for k, d in chunks)


def exif_tiff(orientation, big_endian=True):
    """A TIFF header and IFD0 with one Orientation entry (SHORT)."""
    e = ">" if big_endian else "<"
    head = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    ifd = struct.pack(e + "H", 1) + struct.pack(e + "HHIHH", 0x0112, 3, 1, orientation, 0) + \
        struct.pack(e + "I", 0)
    return head + ifd


def with_png_exif(png, orientation, after_idat=False):
    """A PNG with an eXIf chunk before its first IDAT, or before IEND."""
    out, done = [], False
    for k, d in png_chunks(png):
        if not done and ((k == b"IDAT" and not after_idat) or (k == b"IEND" and after_idat)):
            out.append((b"eXIf", exif_tiff(orientation)))
            done = True
        out.append((k, d))
    return png_from_chunks(out)


def with_jpeg_app1(jpg, orientation, xmp_first=False, little_endian=False):
    """A JPEG with an EXIF APP1 segment right after SOI (and an XMP APP1
    segment before it)."""
    def seg(marker, payload):
        return b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload
    exif = seg(0xE1, b"Exif\0\0" + exif_tiff(orientation, not little_endian))
    xmp = seg(0xE1, b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>") if xmp_first else b""
    return jpg[:2] + xmp + exif + jpg[2:]


def adam7_png(a, bit_depth=8):
    """An Adam7-interlaced PNG of a (H x W x C uint8 or uint16), by hand."""
    h, w = a.shape[:2]
    c = 1 if a.ndim == 2 else a.shape[2]
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    a = a.reshape(h, w, c)
    raw = b""
    for y0, x0, dy, dx in ((0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4),
                           (2, 0, 4, 2), (0, 1, 2, 2), (1, 0, 2, 1)):
        sub = a[y0::dy, x0::dx]
        if sub.size == 0:
            continue
        if bit_depth == 16:
            sub = sub.astype(">u2")
        for row in sub:
            raw += b"\0" + row.tobytes()
    ihdr = struct.pack(">IIBBBBB", w, h, bit_depth, ctype, 0, 0, 1)
    return png_from_chunks([(b"IHDR", ihdr), (b"IDAT", zlib.compress(raw, 9)),
                            (b"IEND", b"")])


def bmp_v4_rgba(a):
    """A 32-bit BI_BITFIELDS BMP with a BITMAPV4HEADER and an alpha mask (what
    OpenCV reads as 4 channels), top-down, of a (H x W x 4 uint8, RGBA)."""
    h, w = a.shape[:2]
    px = a[..., [2, 1, 0, 3]].tobytes()
    info = struct.pack("<IiiHHIIiiII", 108, w, -h, 1, 32, 3, len(px), 2835, 2835, 0, 0) + \
        struct.pack("<IIII", 0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000) + b"BGRs" + \
        bytes(48)
    off = 14 + len(info)
    return b"BM" + struct.pack("<IHHI", off + len(px), 0, 0, off) + info + px


def pil_bytes(im, fmt, **kw):
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


def derive(photos, work):
    """The derived files: name -> path."""
    out = {}

    def put(name, data):
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(data)
        out[name] = path

    rgb = Image.open(os.path.join(photos, "chelsea.png")).convert("RGB")
    a = np.asarray(rgb)
    big = Image.open(os.path.join(photos, "bus.jpg")).convert("RGB")
    grey = rgb.convert("L")
    rng = np.random.default_rng(5)
    # JPEG variants
    put("grey.jpg", pil_bytes(grey, "JPEG", quality=90))
    put("progressive.jpg", pil_bytes(big, "JPEG", quality=90, progressive=True))
    put("optimized.jpg", pil_bytes(big, "JPEG", quality=75, optimize=True))
    for sub, name in ((0, "444"), (1, "422"), (2, "420")):
        put("sub%s.jpg" % name, pil_bytes(rgb, "JPEG", quality=92, subsampling=sub))
    put("cmyk.jpg", pil_bytes(rgb.convert("CMYK"), "JPEG", quality=92))
    put("grey_progressive.jpg", pil_bytes(grey, "JPEG", quality=80, progressive=True))
    base_jpg = pil_bytes(rgb, "JPEG", quality=90)
    for o in range(1, 9):
        put("orient%d.jpg" % o, with_jpeg_app1(base_jpg, o))
    put("orient6_le.jpg", with_jpeg_app1(base_jpg, 6, little_endian=True))
    put("orient0.jpg", with_jpeg_app1(base_jpg, 0))
    put("orient9.jpg", with_jpeg_app1(base_jpg, 9))
    put("orient6_xmp_first.jpg", with_jpeg_app1(base_jpg, 6, xmp_first=True))
    put("orient6_grey.jpg", with_jpeg_app1(pil_bytes(grey, "JPEG", quality=90), 6))
    put("orient8_progressive.jpg",
        with_jpeg_app1(pil_bytes(big, "JPEG", quality=90, progressive=True), 8))
    put("orient5_cmyk.jpg", with_jpeg_app1(pil_bytes(rgb.convert("CMYK"), "JPEG"), 5))
    # PNG variants
    alpha = np.linspace(0, 255, a.shape[1], dtype=np.uint8)[None, :].repeat(a.shape[0], 0)
    rgba = np.dstack([a, alpha])
    put("rgba.png", pil_bytes(Image.fromarray(rgba, "RGBA"), "PNG"))
    put("grey_alpha.png", pil_bytes(Image.fromarray(np.dstack([np.asarray(grey), alpha]),
                                                    "LA"), "PNG"))
    a16 = a.astype(np.uint16) * 257 + rng.integers(0, 257, a.shape, dtype=np.uint16)
    ok, enc = cv2.imencode(".png", a16[..., ::-1].copy())
    put("rgb16.png", enc.tobytes())
    ok, enc = cv2.imencode(".png", a16[..., 0].copy())
    put("grey16.png", enc.tobytes())
    rgba16 = np.dstack([a16, alpha.astype(np.uint16) * 257])
    ok, enc = cv2.imencode(".png", rgba16[..., [2, 1, 0, 3]].copy())
    put("rgba16.png", enc.tobytes())
    pal = rgb.quantize(256)
    put("palette.png", pil_bytes(pal, "PNG"))
    trns = bytes(range(0, 256))
    put("palette_trns.png", pil_bytes(pal, "PNG", transparency=trns))
    put("palette4.png", pil_bytes(rgb.quantize(16), "PNG", bits=4))
    put("palette2.png", pil_bytes(rgb.quantize(4), "PNG", bits=2))
    put("palette1.png", pil_bytes(rgb.quantize(2), "PNG", bits=1))
    put("grey1.png", pil_bytes(grey.convert("1"), "PNG"))
    put("grey_trns.png", pil_bytes(grey, "PNG", transparency=int(np.asarray(grey)[0, 0])))
    put("rgb_trns.png", pil_bytes(rgb, "PNG", transparency=tuple(int(v) for v in a[0, 0])))
    put("interlaced.png", adam7_png(a))
    put("interlaced16.png", adam7_png(a16, 16))
    put("interlaced_grey.png", adam7_png(np.asarray(grey)))
    base_png = pil_bytes(rgb, "PNG")
    for o in (3, 6, 8):
        put("exif%d.png" % o, with_png_exif(base_png, o))
    put("exif6_after.png", with_png_exif(base_png, 6, after_idat=True))
    put("exif5_rgba.png", with_png_exif(pil_bytes(Image.fromarray(rgba, "RGBA"), "PNG"), 5))
    # gAMA and sRGB chunks (they steer libpng's RGB-to-grey)
    chunks = list(png_chunks(base_png))
    put("gama.png", png_from_chunks(chunks[:1] + [(b"gAMA", struct.pack(">I", 45455))] +
                                    chunks[1:]))
    put("srgb.png", png_from_chunks(chunks[:1] + [(b"sRGB", b"\0")] + chunks[1:]))
    # BMP and PNM
    put("rgb.bmp", pil_bytes(rgb, "BMP"))
    put("palette.bmp", pil_bytes(rgb.quantize(256), "BMP"))
    put("grey.bmp", pil_bytes(grey, "BMP"))
    put("mono.bmp", pil_bytes(grey.convert("1"), "BMP"))
    put("rgba.bmp", pil_bytes(Image.fromarray(rgba, "RGBA"), "BMP"))
    put("rgba_v4.bmp", bmp_v4_rgba(rgba))
    h, w = a.shape[:2]
    put("grey.pgm", b"P5\n%d %d\n255\n" % (w, h) + np.asarray(grey).tobytes())
    put("rgb.ppm", b"P6\n%d %d\n255\n" % (w, h) + a.tobytes())
    put("grey16.pgm", b"P5\n%d %d\n65535\n" % (w, h) + a16[..., 0].astype(">u2").tobytes())
    put("rgb16.ppm", b"P6\n%d %d\n65535\n" % (w, h) + a16.astype(">u2").tobytes())
    put("rgb1000.ppm", b"P6\n%d %d\n1000\n" % (w, h) +
        (a.astype(np.uint16) * 3).astype(">u2").tobytes())
    return out


# ---------------------------------------------------------------------------
# Comparing
# ---------------------------------------------------------------------------

def rgb_of(x):
    """OpenCV's BGR(A) as RGB(A); grey stays; 2-D becomes HxWx1."""
    if x.ndim == 2:
        return x[..., None]
    if x.shape[2] >= 3:
        x = x[..., [2, 1, 0] + list(range(3, x.shape[2]))]
    return x


def differ(a, b):
    """None when equal, else a description."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return "shape/dtype %s %s vs OpenCV %s %s" % (a.shape, a.dtype, b.shape, b.dtype)
    d = np.abs(a.astype(np.int64) - b.astype(np.int64))
    n = int((d > 0).sum())
    return None if n == 0 else "%d of %d samples differ (max |diff| %d)" % (n, d.size, d.max())


def grey_trns_divergence(f, ours, theirs):
    """The documented 'unchanged' divergence of a grey PNG with a tRNS key."""
    b = open(f, "rb").read()
    if not b.startswith(b"\x89PNG"):
        return False
    keys = [d for k, d in png_chunks(b) if k == b"tRNS"]
    ihdr = next(d for k, d in png_chunks(b) if k == b"IHDR")
    if not keys or ihdr[9] != 0 or ours.shape[2] != 2 or theirs.ndim != 2:
        return False
    key = struct.unpack(">H", keys[0][:2])[0]
    g = ours[..., 0]
    return np.array_equal(g, theirs) and np.array_equal(ours[..., 1] == 0, g == key)


def compare(path, modes, tally, failures, verbose):
    name = os.path.basename(path)
    is_jpeg = open(path, "rb").read(3) == b"\xff\xd8\xff"

    def record(mode, what):
        key = (mode, "fail" if what else "equal")
        tally[key] = tally.get(key, 0) + 1
        if what:
            failures.append("%s [%s]: %s" % (name, mode, what))
        elif verbose:
            print("ok   %-28s %s" % (name, mode))

    for mode in modes:
        if mode == "color":
            c = cv2.imread(path, cv2.IMREAD_COLOR)
            record(mode, "OpenCV could not read it" if c is None else
                   differ(clpad.imread(path), rgb_of(c)))
        elif mode == "gray":
            c = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
            record(mode, "OpenCV could not read it" if c is None else
                   differ(clpad.imread(path, 1), rgb_of(c)))
        elif mode == "anydepth":
            c = cv2.imread(path, cv2.IMREAD_COLOR | cv2.IMREAD_ANYDEPTH)
            record(mode, "OpenCV could not read it" if c is None else
                   differ(clpad.imread(path, keep_depth=True), rgb_of(c)))
        elif mode == "unchanged":
            c = cv2.imread(path, cv2.IMREAD_UNCHANGED)
            if c is None:
                record(mode, "OpenCV could not read it")
                continue
            ch = 4 if c.ndim == 3 and c.shape[2] == 4 else "keep"
            ours = clpad.imread(path, ch, keep_depth=True, ignore_orientation=True)
            what = differ(ours, rgb_of(c))
            if what and grey_trns_divergence(path, ours, c):
                tally[(mode, "documented")] = tally.get((mode, "documented"), 0) + 1
                if verbose:
                    print("doc  %-28s %s: grey tRNS key as alpha" % (name, mode))
                continue
            record(mode, what)
        elif mode == "reduced" and is_jpeg:
            for m, flag in ((4, cv2.IMREAD_REDUCED_COLOR_2), (2, cv2.IMREAD_REDUCED_COLOR_4),
                            (1, cv2.IMREAD_REDUCED_COLOR_8)):
                c = cv2.imread(path, flag)
                full = clpad.imread(path)
                h, w = full.shape[:2]
                ours = clpad.imread(path, min_size=((h * m + 7) // 8, (w * m + 7) // 8))
                record("reduced/%d" % (8 // m), "OpenCV could not read it" if c is None else
                       differ(ours, rgb_of(c)))


def bit_flips(photo, n, seed):
    """N random single-bit flips of a real PNG: (clpad refused, Pillow refused,
    cv2 decoded). OpenCV's libpng prints its errors: silenced."""
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        return bit_flips_quiet(photo, n, seed)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def bit_flips_quiet(photo, n, seed):
    b = open(photo, "rb").read()
    rng = random.Random(seed)
    refused = pil_refused = cv_decoded = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "flipped.png")
        for _ in range(n):
            d = bytearray(b)
            d[rng.randrange(len(d))] ^= 1 << rng.randrange(8)
            with open(path, "wb") as f:
                f.write(d)
            try:
                clpad.imread(path)
            except clpad.ClpadValueError:
                refused += 1
            try:
                im = Image.open(io.BytesIO(bytes(d)))
                im.load()
            except Exception:
                pil_refused += 1
            if cv2.imdecode(np.frombuffer(bytes(d), np.uint8), cv2.IMREAD_COLOR) is not None:
                cv_decoded += 1
    return refused, pil_refused, cv_decoded


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", required=True, help="directory of sample photos")
    ap.add_argument("--flips", type=int, default=100, help="random bit flips of a PNG")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("CLPAD_TEST_SEED", "7")))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not os.environ.get("CLPAD_LIBRARY"):
        print("imread peer: set CLPAD_LIBRARY to the libclpad.so under test", file=sys.stderr)
        return 2
    photos = sorted(os.path.join(args.photos, f) for f in os.listdir(args.photos)
                    if f.lower().endswith((".png", ".jpg", ".jpeg")))
    if not photos:
        print("SKIP: imread peer: no photos in %s" % args.photos)
        return 77
    modes = ["color", "gray", "anydepth", "unchanged", "reduced"]
    tally, failures = {}, []
    with tempfile.TemporaryDirectory() as work:
        derived = derive(args.photos, work)
        files = photos + [derived[k] for k in sorted(derived)]
        for f in files:
            compare(f, modes, tally, failures, args.verbose)
        print("imread peer: OpenCV %s, %d photos + %d derived files"
              % (cv2.__version__, len(photos), len(derived)))
    for key in sorted(tally):
        print("  %-12s %-10s %4d" % (key[0], key[1], tally[key]))
    refused, pil_refused, cv_decoded = bit_flips(
        os.path.join(args.photos, "astronaut.png"), args.flips, args.seed)
    print("  bit flips of astronaut.png (seed %d): clpad refused %d of %d, Pillow refused %d, "
          "cv2 decoded %d" % (args.seed, refused, args.flips, pil_refused, cv_decoded))
    if refused != args.flips:
        failures.append("bit flips: clpad decoded %d corrupt PNGs" % (args.flips - refused))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
