#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets into fuzz/corpus/<target>/.

The seeds are kept in the repository; run this only to regenerate them
(python3 fuzz/make_corpus.py). It needs nothing beyond the standard library,
except the JPEG seeds, which come from Debian's libstb (stbi_write_jpg) through
ctypes and are skipped when it is missing.

The structured targets (pad, space_batch, window) decode their input as
fuzz/fuzz_checks.c does; the encoders below mirror rd_u8 / rd_int / rd_enum /
rd_rank there (see fuzz/README.md for the layouts).
"""
import ctypes
import ctypes.util
import os
import struct
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
INTERESTING = [
    INT64_MIN, INT64_MIN + 1, -(1 << 62), -(1 << 32), -(1 << 31),
    -65536, -4096, -257, -256, -129, -128, -9, -8, -3, -2, -1,
    0, 1, 2, 3, 7, 8, 9, 16, 64, 127, 128, 255, 256, 4096, 65535, 65536,
    (1 << 31) - 1, 1 << 31, (1 << 32) - 1, 1 << 32, 3037000499,
    3037000500, 1 << 53, (1 << 53) + 1, 1 << 61,
    (1 << 62) - 1, 1 << 62, INT64_MAX // 2, INT64_MAX // 3, INT64_MAX - 1,
    INT64_MAX, (1 << 62) + 1]
assert len(INTERESTING) == 48


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---------------------------------------------------------------------------
# Encoders mirroring fuzz_checks.c
# ---------------------------------------------------------------------------

def i(v, lo, hi):
    """rd_int(lo, hi) reads back v."""
    if lo <= v <= hi and v - lo < 0xC0:
        return bytes([v - lo])
    if v in INTERESTING:
        return bytes([0xC0 + INTERESTING.index(v)])
    return b"\xf0" + struct.pack("<q", v)


def e(v):
    """rd_enum / rd_rank of a valid value v (small, counted from lo = 0)."""
    assert 0 <= v < 0xF0
    return bytes([v])


def rank(v, lo):
    return bytes([v - lo])


DT = {n: k for k, n in enumerate(
    "bool i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64".split())}
MODE = {n: k for k, n in enumerate("constant edge reflect symmetric wrap".split())}


def pad_seed(dtype, mode, shape, pb, pe, value=b"\0" * 8, text=None, nulls=0, osel=0,
             rank_byte=None, vnull=False):
    out = e(DT[dtype]) + e(MODE[mode])
    out += rank_byte if rank_byte is not None else rank(len(shape), 0)
    vmode = 2 if text is not None else 1 if vnull else 0
    out += bytes([nulls, vmode, osel])
    for d, b, a in zip(shape, pb, pe):
        out += i(d, 0, 5) + i(b, -3, 4) + i(a, -3, 4)
    out += (value + b"\0" * 8)[:8]
    if text is not None:
        t = text.encode()
        out += bytes([len(t)]) + t
    return out


def sb_seed(op, dtype, shape, block, begin, end, nulls=0, osel=0, rank_byte=None):
    out = bytes([op]) + e(DT[dtype])
    out += rank_byte if rank_byte is not None else rank(len(shape), 2)
    out += bytes([nulls, osel])
    for k, (d, b, p, q) in enumerate(zip(shape, block, begin, end)):
        out += i(d, 0, 3 if k == 0 else 5) + i(b, 1, 1 if k == 0 else 3)
        out += i(p, 0, 0 if k == 0 else 2) + i(q, 0, 0 if k == 0 else 2)
    return out


FN = {"trt": 0, "tf": 1, "onnx": 2, "ov": 3, "torch": 4, "other": 5}
OP = {"conv": 0, "deconv": 1, "pool": 2}


def win_seed(fn, op, mode, axes, rounding=0, ceil=0, stride=False, dil=False, pb=False,
             pe=False, opad=False, oshape=False, extra_rank=0, first=0, nulls=0):
    """axes: list of dicts with I, F, S, d, B, A, op, os."""
    present = (stride << 0) | (dil << 1) | (pb << 2) | (pe << 3) | (opad << 4) | (oshape << 5)
    out = bytes([FN[fn], OP[op], mode, rounding, ceil, len(axes) - 1, present, nulls])
    for a in axes:
        out += i(a.get("I", 1), 1, 12) + i(a.get("F", 1), 1, 5) + i(a.get("S", 1), 1, 4)
        out += i(a.get("d", 1), 1, 3) + i(a.get("B", 0), 0, 4) + i(a.get("A", 0), 0, 4)
        out += i(a.get("op", 0), 0, 3) + i(a.get("os", 1), 1, 30)
    out += i(extra_rank, 0, 3) + i(first, 0, 3)
    return out


# ---------------------------------------------------------------------------
# pad
# ---------------------------------------------------------------------------

def pad_corpus():
    f32 = struct.pack("<f", 2.5) + b"\0" * 4
    # The Pad specification's mixed example: 3x4, pads_begin [2, -1], pads_end [-1, 3], every mode that allows it.
    for m in ("constant", "edge", "reflect", "symmetric", "wrap"):
        write("pad", f"spec_3x4_{m}", pad_seed("f32", m, [3, 4], [2, -1], [-1, 3], f32))
    for k, dt in enumerate(DT):
        write("pad", f"dtype_{dt}", pad_seed(dt, list(MODE)[k % 5], [2, 3], [1, 0], [0, 2],
                                             bytes(range(1, 9))))
    write("pad", "rank0", pad_seed("u8", "constant", [], [], [], b"\x07"))
    write("pad", "rank8", pad_seed("i16", "edge", [1, 2, 1, 2, 1, 2, 1, 2], [0, 1] * 4,
                                   [1, 0] * 4))
    write("pad", "crop_to_empty", pad_seed("u8", "reflect", [3, 3], [-2, 0], [-2, 1]))
    write("pad", "empty_axis_constant", pad_seed("f64", "constant", [0, 3], [2, 1], [1, 0]))
    write("pad", "empty_axis_edge", pad_seed("f64", "edge", [0, 3], [1, 0], [0, 0]))
    write("pad", "wrap_many_times", pad_seed("u16", "wrap", [2], [4], [9]))
    write("pad", "symmetric_limit", pad_seed("i32", "symmetric", [3, 2], [3, 2], [3, 2]))
    write("pad", "reflect_over_limit", pad_seed("i32", "reflect", [3, 2], [3, 0], [0, 0]))
    write("pad", "sum_overflow", pad_seed("u8", "constant", [5], [INT64_MAX], [1]))
    write("pad", "count_overflow", pad_seed("u8", "constant", [1, 1], [1 << 32, 1 << 32],
                                            [0, 0]))
    write("pad", "wrap_coordinates_near_int64_max",
          pad_seed("u16", "wrap", [3, 2], [INT64_MIN + 1, 1], [INT64_MAX - 3, 0]))
    write("pad", "huge_crop", pad_seed("u8", "constant", [1 << 62, 2], [-(1 << 62) + 1, 0],
                                       [0, 0]))
    # Huge pads_begin cancelled by a huge negative pads_end (the device path
    # once formed pads_begin * units-per-element and hung or copied rows).
    for m in ("constant", "edge", "wrap"):
        write("pad", f"cancelling_pads_{m}",
              pad_seed("u8", m, [4, 16], [1 << 62, 0], [-(1 << 62) + 5, 0]))
        write("pad", f"cancelling_pads_3d_{m}",
              pad_seed("u8", m, [3, 4, 5], [1 << 62, 0, 0], [-(1 << 62) + 2, 0, 0]))
    # nulls 0x80..0xBF: pads_end = (byte & 7) - shape - pads_begin on every axis.
    write("pad", "cancelling_mode_edge",
          pad_seed("f32", "edge", [3, 2], [1 << 62, -(1 << 62)], [3, 2], nulls=0x80))
    write("pad", "null_shape", pad_seed("u8", "edge", [2], [1], [1], nulls=0xC1))
    write("pad", "null_output", pad_seed("u8", "edge", [2], [1], [1], nulls=0xC0 | 32))
    write("pad", "null_input", pad_seed("u8", "edge", [2], [1], [1], nulls=0xC0 | 16))
    write("pad", "rank9", pad_seed("u8", "edge", [1] * 8, [0] * 8, [0] * 8,
                                   rank_byte=b"\xf3"))
    write("pad", "too_small_output", pad_seed("f32", "constant", [2, 2], [1, 1], [1, 1],
                                              osel=4))
    write("pad", "null_value", pad_seed("f32", "constant", [2], [1], [1], vnull=True))
    for dt, text in [("f32", "-0.0"), ("f16", "inf"), ("f16", "65520"), ("f16", "1e-7"),
                     ("bf16", "nan"), ("bf16", "3.0e38"), ("i8", "0x7f"), ("i8", "-129"),
                     ("i64", "9007199254740993"), ("u64", "18446744073709551615"),
                     ("u8", "-0"), ("bool", "true"), ("f64", "0x1p-1074"), ("i32", " 5"),
                     ("u16", "+65535")]:
        write("pad", f"text_{dt}_{text.strip().replace('-', 'm').replace('+', 'p')}",
              pad_seed(dt, "constant", [2, 2], [1, 0], [0, 1], text=text))


# ---------------------------------------------------------------------------
# space_batch
# ---------------------------------------------------------------------------

def sb_corpus():
    # The SpaceToBatch specification's example: [2, 6, 10, 3, 3], block [1, 2, 4, 3, 1], pads [0, 0, 1, 0, 0] both sides.
    spec = ([2, 6, 10, 3, 3], [1, 2, 4, 3, 1], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0])
    write("space_batch", "spec_s2b", sb_seed(0, "u8", *spec))
    write("space_batch", "spec_roundtrip", sb_seed(3, "f32", *spec))
    write("space_batch", "s2b_2d", sb_seed(0, "i32", [1, 4], [1, 2], [0, 1], [0, 1]))
    write("space_batch", "s2b_3d", sb_seed(0, "f64", [2, 3, 4], [1, 2, 2], [0, 1, 0],
                                           [0, 0, 0]))
    write("space_batch", "b2s_3d", sb_seed(2, "u16", [1, 2, 3], [1, 2, 3], [0, 1, 2],
                                           [0, 0, 1]))
    write("space_batch", "b2s_crop_all", sb_seed(2, "u8", [1, 2], [1, 2], [0, 2], [0, 2]))
    write("space_batch", "roundtrip_4d", sb_seed(3, "i16", [2, 3, 2, 2], [1, 2, 1, 3],
                                                 [0, 1, 0, 2], [0, 0, 0, 0]))
    write("space_batch", "roundtrip_rank8", sb_seed(3, "bool", [1, 1, 2, 1, 2, 1, 1, 2],
                                                    [1, 1, 2, 1, 1, 1, 1, 2], [0] * 8,
                                                    [0] * 8))
    write("space_batch", "block0_not_1", sb_seed(0, "u8", [2, 2], [2, 1], [0, 0], [0, 0]))
    write("space_batch", "not_divisible", sb_seed(0, "u8", [1, 3], [1, 2], [0, 0], [0, 0]))
    write("space_batch", "b2s_not_divisible", sb_seed(1, "u8", [3, 2], [1, 2], [0, 0],
                                                      [0, 0]))
    write("space_batch", "empty_batch", sb_seed(0, "u8", [0, 2], [1, 2], [0, 0], [0, 0]))
    write("space_batch", "prod_overflow", sb_seed(0, "u8", [1, 1, 1], [1, 1 << 32, 1 << 32],
                                                  [0, 0, 0], [0, 0, 0]))
    write("space_batch", "rank1", sb_seed(0, "u8", [2, 2], [1, 1], [0, 0], [0, 0],
                                          rank_byte=b"\xf2"))
    write("space_batch", "null_block", sb_seed(0, "u8", [1, 2], [1, 2], [0, 0], [0, 0],
                                               nulls=0xE2))
    write("space_batch", "null_input", sb_seed(0xF4, "u8", [1, 2], [1, 2], [0, 0], [0, 0]))
    write("space_batch", "null_output", sb_seed(0xF8, "u8", [1, 2], [1, 2], [0, 0], [0, 0]))


# ---------------------------------------------------------------------------
# window
# ---------------------------------------------------------------------------

def window_corpus():
    # docs/spec.md, Window geometry: TensorRT pooling I=6, B=3, A=2, S=2, F=3: O=5 explicit; SAME O=3.
    ax = dict(I=6, F=3, S=2, B=3, A=2)
    for mode in range(4):
        write("window", f"trt_pool_seed_mode{mode}",
              win_seed("trt", "pool", mode, [ax], stride=True, pb=True, pe=True, extra_rank=2,
                       first=2))
    write("window", "trt_conv_same_neg", win_seed("trt", "conv", 2, [dict(I=6, F=1, S=4)],
                                                  stride=True))
    write("window", "trt_deconv", win_seed("trt", "deconv", 3, [dict(I=5, F=3, S=2, d=2)],
                                           stride=True, dil=True))
    # TF: 7x8, stride 3, filter 4, SAME: pads [1, 2], [1, 1], output 3x3.
    axes = [dict(I=7, F=4, S=3), dict(I=8, F=4, S=3)]
    for mode in range(3):
        write("window", f"tf_conv_mode{mode}", win_seed("tf", "conv", mode, axes, stride=True,
                                                        extra_rank=2, first=1))
    write("window", "tf_deconv_same", win_seed("tf", "deconv", 1, [dict(I=4, F=3, S=2)],
                                               stride=True))
    write("window", "tf_deconv_shape", win_seed("tf", "deconv", 0, [dict(I=4, F=3, S=2, os=9)],
                                                stride=True, oshape=True))
    # ONNX: ceil_mode with end pads of a kernel or more (I=3, F=1, S=1, pads [0, 3]).
    write("window", "onnx_pool_ceil", win_seed("onnx", "pool", 0, [dict(I=3, F=1, S=1, A=3)],
                                               ceil=1, stride=True, pb=True))
    for mode in range(4):
        write("window", f"onnx_deconv_mode{mode}",
              win_seed("onnx", "deconv", mode, [dict(I=3, F=3, S=2, op=1, os=6)],
                       stride=True, opad=True, oshape=mode == 3))
    write("window", "onnx_conv_dil", win_seed("onnx", "conv", 2, [dict(I=9, F=3, S=2, d=2)] * 2,
                                              stride=True, dil=True, extra_rank=2, first=2))
    # OpenVINO: I=6, S=4, F=1, SAME_UPPER: CEIL 3 windows, CEIL_TORCH 2.
    for rnd in range(3):
        write("window", f"ov_pool_rounding{rnd}",
              win_seed("ov", "pool", 1, [dict(I=6, F=1, S=4)], rounding=rnd, stride=True))
    write("window", "ov_deconv_shape", win_seed("ov", "deconv", 1, [dict(I=3, F=3, S=2, os=5)],
                                                stride=True, oshape=True))
    write("window", "ov_conv_explicit", win_seed("ov", "conv", 0, [dict(I=5, F=3, B=1, A=2)],
                                                 pb=True, pe=True))
    for mode in range(3):
        write("window", f"torch_conv_mode{mode}",
              win_seed("torch", "conv", mode, [dict(I=10, F=3, d=2, B=1)], dil=True,
                       pb=mode == 0))
    write("window", "torch_pool_ceil", win_seed("torch", "pool", 0, [dict(I=5, F=2, B=1)],
                                                ceil=1, pb=True))
    write("window", "torch_deconv", win_seed("torch", "deconv", 0, [dict(I=4, F=3, S=2, B=1,
                                                                           op=1)],
                                             stride=True, pb=True, opad=True))
    write("window", "null_input", win_seed("trt", "conv", 0, [dict(I=4, F=2)], nulls=0xF1))
    write("window", "naxes_9", bytes([0, 0, 0, 0, 0, 0xF2, 0, 0]) + b"\x01" * 80)
    big = dict(I=INT64_MAX, F=2, S=INT64_MAX)
    write("window", "trt_deconv_overflow", win_seed("trt", "deconv", 2, [big], stride=True))
    # "other": layouts, names and tensor_pads on hand-made results.
    write("window", "other_layouts", bytes([5]) + rank(2, 1) + i(1, -4, 4) * 2 + i(-2, -4, 4)
          + i(3, -4, 4) + e(0) + i(0, -1, 1) + b"\x00" + e(1) + b"\x04conv")
    write("window", "other_garbage_result", bytes([5]) + rank(1, 1) + b"\x00" * 6 + e(0) + b"\x00"
          + e(0) + rank(1, 1) + b"\xc0" * 48)


# ---------------------------------------------------------------------------
# npy
# ---------------------------------------------------------------------------

def npy(header, data=b"", major=1):
    h = header.encode("latin-1")
    pre = b"\x93NUMPY" + bytes([major, 0])
    pre += struct.pack("<H", len(h)) if major == 1 else struct.pack("<I", len(h))
    return pre + h + data


def npy_numpy_style(descr, shape, data):
    d = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else ""))
    total = 10 + len(d) + 1
    d += " " * ((64 - total % 64) % 64) + "\n"
    return npy(d, data)


def npy_corpus():
    write("npy", "f32_2x3", npy_numpy_style("<f4", [2, 3], struct.pack("<6f", *range(6))))
    write("npy", "u8_scalar", npy_numpy_style("|u1", [], b"\x2a"))
    write("npy", "bool_empty", npy_numpy_style("|b1", [0], b""))
    write("npy", "i64_rank8", npy_numpy_style("<i8", [1, 2, 1, 1, 2, 1, 1, 1],
                                              struct.pack("<4q", -1, 0, 1, INT64_MAX)))
    write("npy", "f16_v2", npy("{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }\n",
                               b"\x00\x3c\x00\xc0\x00\x7c", major=2))
    write("npy", "u16_v3_dq", npy('{"shape": (2,), "fortran_order": False, "descr": "=u2"}\n',
                                  b"\x01\x00\xff\xff", major=3))
    write("npy", "f64_zero_axis", npy_numpy_style("<f8", [4, 0, 1 << 40], b""))
    write("npy", "i8_long", npy("{'descr': '|i1', 'fortran_order': False, 'shape': (2L, 1L)}",
                                b"\x80\x7f"))
    write("npy", "u32_1", npy_numpy_style("<u4", [1], b"\x01\x02\x03\x04"))
    write("npy", "fortran", npy_numpy_style("<i4", [1], b"\0" * 4).replace(b"False", b"True "))
    write("npy", "truncated_data", npy_numpy_style("<f4", [4], b"\0" * 7))
    write("npy", "huge_shape", npy_numpy_style("<f4", [1 << 40, 1 << 30], b"\0" * 4))
    write("npy", "big_endian", npy_numpy_style(">f4", [1], b"\0" * 4))
    write("npy", "structured", npy("{'descr': [('a', '<f4')], 'fortran_order': False, "
                                   "'shape': (1,)}", b"\0" * 4))
    write("npy", "header_past_end", b"\x93NUMPY\x01\x00\xff\x00{'descr'")
    # declared sizes against what is there: the stream reader stops where the
    # header says, the file reader also refuses what follows
    write("npy", "trailing_data", npy_numpy_style("|u1", [3], b"\1\2\3\4\5"))
    write("npy", "shape_exceeds_memory", npy_numpy_style("<f8", [1 << 40, 1 << 20], b"\0" * 8))
    write("npy", "zeros_no_magic", b"\0" * 64)
    write("npy", "header_longer_than_1mib", b"\x93NUMPY\x02\x00\x00\x00\x20\x00{}")


# ---------------------------------------------------------------------------
# images
# ---------------------------------------------------------------------------

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xffffffff)


def exif_tiff(orientation):
    """A big-endian TIFF header and IFD0 holding one Orientation entry."""
    return b"MM\0\x2a\0\0\0\x08\0\x01" + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + \
        b"\0\0\0\0"


def png(w, h, ctype, depth, pixels, plte=None, trns=None, interlace=0, exif=None,
        exif_after=False):
    """pixels: bytes of h rows of packed samples (no filter byte)."""
    row = len(pixels) // h
    raw = b""
    if not interlace:
        for y in range(h):
            raw += b"\0" + pixels[y * row:(y + 1) * row]
    else:  # Adam7, 8-bit samples only
        bpp = row // w
        for xs, ys, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
                               (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
            for y in range(ys, h, dy):
                xs_list = list(range(xs, w, dx))
                if not xs_list:
                    continue
                raw += b"\0" + b"".join(pixels[y * row + x * bpp:y * row + (x + 1) * bpp]
                                        for x in xs_list)
    out = b"\x89PNG\r\n\x1a\n"
    out += png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
    if plte:
        out += png_chunk(b"PLTE", plte)
    if trns is not None:
        out += png_chunk(b"tRNS", trns)
    if exif and not exif_after:
        out += png_chunk(b"eXIf", exif_tiff(exif))
    out += png_chunk(b"IDAT", zlib.compress(raw, 9))
    if exif and exif_after:
        out += png_chunk(b"eXIf", exif_tiff(exif))
    out += png_chunk(b"IEND", b"")
    return out


def bmp(w, h, bpp, pixels_bgr_rows, palette=b"", top_down=False):
    stride = (w * bpp // 8 + 3) & ~3
    data = b""
    rows = pixels_bgr_rows if top_down else list(reversed(pixels_bgr_rows))
    for r in rows:
        data += r + b"\0" * (stride - len(r))
    off = 14 + 40 + len(palette)
    hdr = b"BM" + struct.pack("<IHHI", off + len(data), 0, 0, off)
    hdr += struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, bpp, 0, len(data),
                       2835, 2835, len(palette) // 4, 0)
    return hdr + palette + data


def image_corpus():
    g = bytes([0, 64, 128, 255, 32, 96])
    rgb = bytes(range(0, 36 * 7, 7))[:36]
    write("image", "png_gray_3x2", png(3, 2, 0, 8, g))
    write("image", "png_rgb_4x3", png(4, 3, 2, 8, rgb))
    write("image", "png_rgba_2x2", png(2, 2, 6, 8, bytes(range(16))))
    write("image", "png_gray_alpha", png(2, 1, 4, 8, b"\x10\xff\x20\x80"))
    write("image", "png_gray16", png(2, 1, 0, 16, b"\x12\x34\xab\xcd"))
    write("image", "png_palette", png(3, 1, 3, 8, b"\x00\x01\x02",
                                      plte=b"\xff\x00\x00\x00\xff\x00\x00\x00\xff"))
    write("image", "png_palette_trns", png(3, 1, 3, 8, b"\x00\x01\x02",
                                           plte=b"\xff\x00\x00\x00\xff\x00\x00\x00\xff",
                                           trns=b"\x00\x80"))
    write("image", "png_rgb_trns", png(2, 1, 2, 8, b"\x01\x02\x03\x04\x05\x06",
                                       trns=b"\x00\x01\x00\x02\x00\x03"))
    write("image", "png_gray_trns", png(2, 2, 0, 8, b"\x00\x07\x07\x09", trns=b"\x00\x07"))
    write("image", "png_gray1bit", png(9, 1, 0, 1, b"\xa5\x80"))
    write("image", "png_interlaced", png(5, 5, 2, 8, bytes(range(75))))
    write("image", "bmp24_3x2", bmp(3, 2, 24, [bytes(range(9)), bytes(range(9, 18))]))
    write("image", "bmp32_topdown", bmp(2, 2, 32, [bytes(range(8)), bytes(range(8, 16))],
                                        top_down=True))
    write("image", "bmp8_palette", bmp(3, 1, 8, [b"\x00\x01\x00"],
                                       palette=b"\x00\x00\xff\x00\x00\xff\x00\x00"))
    write("image", "ppm_p6", b"P6\n2 2\n255\n" + bytes(range(12)))
    write("image", "pgm_p5_comment", b"P5 # a comment\n3 1\n# another\n255\n\x01\x02\x03")
    write("image", "pgm_p5_16bit", b"P5\n2 1\n65535\n\x12\x34\xab\xcd")
    write("image", "bmp24_truncated", bmp(3, 3, 24, [bytes(range(9))] * 3)[:-16])
    write("image", "png_width_0", png(1, 1, 0, 8, b"\x07").replace(
        b"IHDR\0\0\0\1", b"IHDR\0\0\0\0"))
    write("image", "png_width_2_31", png(1, 1, 0, 8, b"\x07").replace(
        b"IHDR\0\0\0\1", b"IHDR\x80\0\0\0"))
    write("image", "png_rgb16", png(2, 1, 2, 16, bytes(range(12))))
    write("image", "png_palette_index_out_of_range",
          png(3, 1, 3, 8, b"\x00\x01\x07", plte=b"\xff\x00\x00\x00\xff\x00"))
    write("image", "png_data_after_iend", png(1, 1, 0, 8, b"\x07") + b"\0" * 4096)
    write("image", "pgm_cr_comment", b"P5\r#c\r2 1\r255\r\x05\x06")
    # EXIF orientation (rotations swap height and width), and a CRC error in
    # an ancillary chunk (refused: libpng's default only warns)
    write("image", "png_exif6", png(3, 2, 2, 8, bytes(range(18)), exif=6))
    write("image", "png_exif8_after_idat", png(3, 2, 0, 8, bytes(range(6)), exif=8,
                                               exif_after=True))
    good = png(2, 1, 0, 8, b"\x01\x02")
    text = png_chunk(b"tEXt", b"Comment\0hello")
    write("image", "png_text_crc_error", good[:33] + text[:-1] + bytes([text[-1] ^ 1]) +
          good[33:])
    write("image", "ppm_truncated", b"P6\n4 4\n255\n\x01\x02\x03")
    write("image", "pgm_wrapping_width", b"P5\n4294967297 1\n255\n\x07")
    write("image", "gif_refused", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
    write("image", "tga_like", b"\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00"
          b"\x01\x00\x18\x00\x01\x02\x03")
    lib = ctypes.util.find_library("stb")
    if not lib:
        print("libstb not found: no JPEG seeds", file=sys.stderr)
        return
    stb = ctypes.CDLL(lib)
    with tempfile.TemporaryDirectory() as tmp:
        for name, w, h, c, q in [("jpeg_rgb_8x6", 8, 6, 3, 90), ("jpeg_gray_5x3", 5, 3, 1, 50),
                                 ("jpeg_rgb_17x9", 17, 9, 3, 10)]:
            px = bytes((k * 37 + 11) & 0xff for k in range(w * h * c))
            path = os.path.join(tmp, "x.jpg").encode()
            if not stb.stbi_write_jpg(path, w, h, c, px, q):
                sys.exit("stbi_write_jpg failed")
            with open(path, "rb") as f:
                data = f.read()
            write("image", name, data)
            if name == "jpeg_rgb_17x9":  # an EXIF APP1 segment after SOI: orientation 6
                app1 = b"Exif\0\0" + exif_tiff(6)
                write("image", "jpeg_exif6", data[:2] + b"\xff\xe1" +
                      struct.pack(">H", len(app1) + 2) + app1 + data[2:])


def lb_seed(oh, ow, images, interp=None, border=None, values=False, dtype=None, fit=None,
            yuv=None, chan=3):
    """fz_check_letterbox: the slot, the options (each group present or
    not), then per image height, width, (YUV: channels byte,) layout byte
    and its pixels. images: (h, w, layout byte, pixel bytes)."""
    sel = ((interp is not None) | (border is not None) << 1 | values << 2
           | (dtype is not None) << 3 | (fit is not None) << 4 | (yuv is not None) << 5)
    b = i(oh, 1, 24) + i(ow, 1, 24) + bytes([sel])
    if interp is not None:
        b += e(interp)
    if border is not None:  # (placement, scaleup, pad_mode, 4 values, swap_rb)
        pl, up, mode, vals, swap = border
        b += e(pl) + bytes([up]) + e(MODE[mode]) + bytes(vals) + bytes([swap])
    if values:  # scale, divisor, (mean, std) x 4: the plain values
        b += bytes(10)
    if dtype is not None:  # (dtype index of u8 f16 f32 i32, layout)
        b += bytes([dtype[0]]) + e(dtype[1])
    if fit is not None:  # (fit, resize_shorter, stride, pil byte)
        b += e(fit[0]) + i(fit[1], 0, 24) + i(fit[2], 0, 8) + bytes([fit[3]])
    if yuv is not None:  # (input_format, matrix, range)
        b += e(yuv[0]) + e(yuv[1]) + e(yuv[2])
    b += bytes([len(images)]) + i(chan, 1, 4)
    for h, w, lay, px in images:
        b += i(h, 1, 12) + i(w, 1, 12)
        if yuv is not None and yuv[0] != 0:
            b += b"\x01"
        b += bytes([lay]) + px
    return b


def lb_corpus():
    def px(n, salt=0):
        return bytes((k * 37 + salt) & 255 for k in range(n))
    write("letterbox", "default_1x5x7", lb_seed(8, 8, [(5, 7, 0, px(105))]))
    write("letterbox", "two_images_strided",
          lb_seed(6, 10, [(5, 7, 2, px(4 * 22 + 21)), (3, 2, 0, px(18, 5))]))
    write("letterbox", "pil_bicubic", lb_seed(9, 4, [(7, 3, 0, px(63))], interp=3))
    write("letterbox", "pil_lanczos_tall", lb_seed(3, 2, [(12, 1, 0, px(36))], interp=4))
    write("letterbox", "area_box_and_general",
          lb_seed(2, 3, [(4, 6, 0, px(72)), (7, 5, 0, px(105))], interp=5, fit=(2, 0, 0, 0)))
    write("letterbox", "bicubic_up_down", lb_seed(9, 4, [(5, 7, 0, px(105))], interp=6,
                                                 fit=(2, 0, 0, 0)))
    write("letterbox", "nearest_u8_nhwc_reflect",
          lb_seed(7, 9, [(4, 6, 0, px(72))], interp=1,
                  border=(1, 1, "reflect", [1, 2, 3, 4], 1), dtype=(0, 1)))
    write("letterbox", "f16_cover_shorter", lb_seed(6, 6, [(5, 9, 0, px(135))], dtype=(1, 0),
                                                   fit=(1, 6, 0, 0)))
    write("letterbox", "stretch_gray", lb_seed(5, 3, [(4, 4, 0, px(16))], fit=(2, 0, 0, 0),
                                               chan=1))
    write("letterbox", "contain_stride", lb_seed(16, 16, [(6, 12, 0, px(216))],
                                                 fit=(0, 0, 4, 1)))
    write("letterbox", "nv12_4x6", lb_seed(8, 8, [(4, 6, 0, px(36))], yuv=(1, 0, 0)))
    write("letterbox", "nv21_bt709_full", lb_seed(5, 7, [(6, 4, 0, px(36))], yuv=(2, 1, 1)))
    write("letterbox", "i420_separate_planes",
          lb_seed(6, 6, [(4, 6, 4, px(24) + px(6, 1) + px(6, 2))], yuv=(3, 2, 0)))
    write("letterbox", "yv12_padded_strides",
          lb_seed(6, 6, [(4, 6, 2 | 8 | 32, px(5 * 3 + 6 + 4 * 1 + 3 + 4 + 3))],
                  yuv=(4, 0, 1)))
    write("letterbox", "nv12_odd_height_refused", lb_seed(4, 4, [(5, 6, 0, b"")],
                                                          yuv=(1, 0, 0)))
    write("letterbox", "stride_below_row_refused", lb_seed(4, 4, [(3, 3, 0xF0, b"")]))
    write("letterbox", "empty_batch", lb_seed(4, 4, []))

if __name__ == "__main__":
    pad_corpus()
    sb_corpus()
    window_corpus()
    npy_corpus()
    image_corpus()
    lb_corpus()
    for t in sorted(os.listdir(CORPUS)):
        files = os.listdir(os.path.join(CORPUS, t))
        size = sum(os.path.getsize(os.path.join(CORPUS, t, f)) for f in files)
        print(f"{t}: {len(files)} files, {size} bytes")
