/* The coordinate rules of clpad's operations, stated once. This header
 * compiles both as C (the CPU reference, host/) and as OpenCL C (the host
 * puts it in front of every kernel program), so that the CPU path and the
 * kernels cannot drift apart: plain 64-bit integer math, no size_t, no
 * library calls.
 *
 * Pad (docs/spec.md, "Pad"): an output index o on an axis of input size D
 * with pads_begin b reads the input at map(c), c = o - b:
 *
 *   mode       0 <= c < D    c < 0        c >= D
 *   constant   c             padding      padding
 *   edge       c             0            D - 1
 *   reflect    c             -c           2(D-1) - c
 *   symmetric  c             -c - 1       2D - 1 - c
 *   wrap       c             c mod D      c mod D     (non-negative)
 *
 * The callers keep the limits (reflect: pads <= D - 1, symmetric: <= D), so
 * one reflection suffices. Beyond them (opt-in, numpy.pad's large pads) two
 * more rules repeat the mirror, periodically:
 *
 *   reflect_numpy    c' = c mod 2(D-1); c' if c' < D, else 2(D-1) - c'
 *                    (D = 1: 0)
 *   symmetric_numpy  c' = c mod 2D;     c' if c' < D, else 2D - 1 - c'
 *
 * which agree with reflect and symmetric within the limits.
 *
 * SpaceToBatch / BatchToSpace (docs/spec.md, "SpaceToBatch"): the batch
 * element at block offset k and index o of an axis with block B corresponds
 * to the space coordinate c = o*B + k - off (off = pads_begin or
 * crops_begin), which is inside the space tensor when 0 <= c < S.
 */
#ifndef CLPAD_COORDS_H
#define CLPAD_COORDS_H

#ifdef __OPENCL_VERSION__
/* No multiply-add fusing anywhere in a program (this header comes first in
 * every one): the float rules below, such as clpad_cv_mac, are defined
 * operation by operation, and NVIDIA's compiler fuses a product into a
 * following addition even across statements unless told not to (area and
 * bicubic resizes on an H100 and an H200 differed from the CPU reference by
 * one in a resized sample while the pragma stood only in letterbox.cl). The
 * host side compiles with -ffp-contract=off. */
#pragma OPENCL FP_CONTRACT OFF
typedef long clpad_i64;
#else
#include <stdint.h>
typedef int64_t clpad_i64;
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CLPAD_COORD_FN static inline __attribute__((always_inline))
#else
#define CLPAD_COORD_FN static inline
#endif

/* Pad modes, numbered as clpad_pad_mode in include/clpad.h (host/ops/pad/plan.c
 * checks that they agree). */
#define CLPAD_COORD_CONSTANT 0
#define CLPAD_COORD_EDGE 1
#define CLPAD_COORD_REFLECT 2
#define CLPAD_COORD_SYMMETRIC 3
#define CLPAD_COORD_WRAP 4
/* Internal rules (no clpad_pad_mode of their own): reflect and symmetric
 * with pads beyond their limits, repeated as numpy.pad repeats them. */
#define CLPAD_COORD_REFLECT_NUMPY 5
#define CLPAD_COORD_SYMMETRIC_NUMPY 6
#define CLPAD_COORD_RULE_COUNT 7

/* The source coordinate of padded coordinate c on an axis of size D, or -1
 * where constant padding applies. With a constant `mode` (the kernels), the
 * compiler keeps only that mode's branch. */
CLPAD_COORD_FN clpad_i64 clpad_coord_map(int mode, clpad_i64 c, clpad_i64 D)
{
    if (c >= 0 && c < D)
        return c;
    switch (mode) {
    case CLPAD_COORD_EDGE:
        return c < 0 ? 0 : D - 1;
    case CLPAD_COORD_REFLECT: /* 2(D-1) - c, without forming 2(D-1) */
        return c < 0 ? -c : (D - 1) - (c - (D - 1));
    case CLPAD_COORD_SYMMETRIC: /* 2D - 1 - c */
        return c < 0 ? -c - 1 : (D - 1) - (c - D);
    case CLPAD_COORD_WRAP: {
        if (c < 0 && c >= -D) /* one period away, the common case: no division */
            return c + D;
        if (c >= D && c - D < D)
            return c - D;
        clpad_i64 m = c % D;
        return m < 0 ? m + D : m;
    }
    case CLPAD_COORD_REFLECT_NUMPY: {
        if (D == 1)
            return 0;
        clpad_i64 p = 2 * (D - 1), m = c % p;
        if (m < 0)
            m += p;
        return m < D ? m : p - m;
    }
    case CLPAD_COORD_SYMMETRIC_NUMPY: {
        clpad_i64 p = 2 * D, m = c % p;
        if (m < 0)
            m += p;
        return m < D ? m : p - 1 - m;
    }
    default:
        return -1;
    }
}

/* How the source coordinate moves as c grows by one inside one border: the
 * mirrors walk back, edge stays, wrap walks forward (and starts over at D,
 * which the caller handles). Within the limits a mirror border never turns;
 * the _numpy rules do turn, and have no step (callers map each element). */
CLPAD_COORD_FN clpad_i64 clpad_coord_step(int mode)
{
    return mode == CLPAD_COORD_EDGE ? 0 : mode == CLPAD_COORD_WRAP ? 1 : -1;
}

/* ceil(a / b) for b > 0 and any a. */
CLPAD_COORD_FN clpad_i64 clpad_ceil_div(clpad_i64 a, clpad_i64 b)
{
    return a <= 0 ? -((-a) / b) : (a + b - 1) / b;
}

/* SpaceToBatch / BatchToSpace on one axis: the space coordinate of batch
 * index o at block offset k (block B, offset off = pads_begin or
 * crops_begin). */
CLPAD_COORD_FN clpad_i64 clpad_block_coord(clpad_i64 o, clpad_i64 B, clpad_i64 k, clpad_i64 off)
{
    return o * B + k - off;
}

/* SpaceToBatch / BatchToSpace on one axis: the batch indices o whose space
 * coordinate o*B + shift (shift = k - off) lies in [0, S) are
 * [clpad_block_first(shift, B), clpad_block_end(S, shift, B)) before any
 * clamping to the batch tensor's extent. */
CLPAD_COORD_FN clpad_i64 clpad_block_first(clpad_i64 shift, clpad_i64 B)
{
    return clpad_ceil_div(-shift, B);
}
CLPAD_COORD_FN clpad_i64 clpad_block_end(clpad_i64 S, clpad_i64 shift, clpad_i64 B)
{
    return clpad_ceil_div(S - shift, B);
}

/* Letterbox (docs/letterbox.md, "Resize"): one output sample of the resize,
 * OpenCV's INTER_LINEAR for 8-bit images in its own fixed point
 * (INTER_RESIZE_COEF_BITS = 11: coefficients sum to about 2048). The
 * horizontal pass weighs two samples s0, s1 of a source row with alpha0,
 * alpha1 into an int; the vertical pass combines the two rows' sums h0, h1
 * with beta0, beta1 and rounds, exactly as OpenCV's VResizeLinear for uchar:
 *   (((beta0 * (h0 >> 4)) >> 16) + ((beta1 * (h1 >> 4)) >> 16) + 2) >> 2.
 * Every value stays below 2^27 (255 * 2048 * 2048 >> 4), in 32-bit ints.
 * INTER_NEAREST is the same sum with alpha = beta = (2048, 0). The
 * coefficients themselves are computed on the host (host/ops/letterbox/plan.c),
 * and the kernels read them from tables. */
CLPAD_COORD_FN int clpad_lb_hpass(int s0, int s1, int alpha0, int alpha1)
{
    return s0 * alpha0 + s1 * alpha1;
}
CLPAD_COORD_FN int clpad_lb_vpass(int h0, int h1, int beta0, int beta1)
{
    return (((beta0 * (h0 >> 4)) >> 16) + ((beta1 * (h1 >> 4)) >> 16) + 2) >> 2;
}

/* Letterbox's Pillow resize kinds (docs/letterbox.md, "Resize"): Pillow's
 * ImagingResample for 8-bit images (its src/libImaging/Resample.c), in its
 * own fixed point: coefficients of PRECISION_BITS = 32 - 8 - 2 = 22
 * fractional bits (host/ops/letterbox/resize_tables.c); each pass starts its sum at half
 * a unit, 1 << 21, adds sample * coefficient over its taps, and clips to
 * u8 (clip8): the horizontal pass first, its u8 results then summed by the
 * vertical pass. Sums stay within int32 as they do in Pillow. */
#define CLPAD_PIL_PRECISION_BITS 22
#define CLPAD_PIL_HALF (1 << (CLPAD_PIL_PRECISION_BITS - 1))
CLPAD_COORD_FN int clpad_pil_clip8(int acc)
{
    return acc <= 0 ? 0 : acc >= (256 << CLPAD_PIL_PRECISION_BITS) ? 255
                                                                   : acc >> CLPAD_PIL_PRECISION_BITS;
}

/* Letterbox's YUV frames (docs/letterbox.md, "YUV frames"): one pixel's
 * Y, U, V samples to R, G, B, in fixed point with 20 fractional bits, the
 * form of OpenCV's YUV420 -> RGB (its color_yuv.simd.hpp): with
 * y = max(Y - y0, ymin) * cy + 2^19, u = U - 128, v = V - 128,
 *   R = sat((y + crv v) >> 20), G = sat((y + cgu u + cgv v) >> 20),
 *   B = sat((y + cbu u) >> 20),
 * sat clamping to 0..255 (a negative sum is 0, never shifted). The host
 * picks the integers per matrix and range (host/ops/letterbox/plan.c,
 * clpad__lb_yuv_coefs). Sums stay below 2^30 in magnitude. Returns the
 * pixel as R | G << 8 | B << 16, the form of a source pixel's word. */
#define CLPAD_YUV_SHIFT 20
CLPAD_COORD_FN unsigned clpad_yuv_sat(int s)
{
    /* s clamped to [0, 2^28 - 1], then shifted: the same values, as a
     * max, a min and a shift where a compiler vectorises it */
    int c = s < 0 ? 0 : s;
    c = c > (256 << CLPAD_YUV_SHIFT) - 1 ? (256 << CLPAD_YUV_SHIFT) - 1 : c;
    return (unsigned)(c >> CLPAD_YUV_SHIFT);
}
/* The luma term y of the rule above (a kernel that converts several pixels
 * of one chroma sample adds the sample's terms crv v, cgu u + cgv v and
 * cbu u to each pixel's y: the same integers, sums below 2^30). */
CLPAD_COORD_FN int clpad_yuv_luma(int Y, int cy, int y0, int ymin)
{
    int d = Y - y0 < ymin ? ymin : Y - y0;
    return d * cy + (1 << (CLPAD_YUV_SHIFT - 1));
}
CLPAD_COORD_FN unsigned clpad_yuv_rgb(int Y, int U, int V, int cy, int y0, int ymin, int crv,
                                      int cgu, int cgv, int cbu)
{
    int y = clpad_yuv_luma(Y, cy, y0, ymin), u = U - 128, v = V - 128;
    return clpad_yuv_sat(y + crv * v) | clpad_yuv_sat(y + (cgu * u + cgv * v)) << 8 |
           clpad_yuv_sat(y + cbu * u) << 16;
}

/* Letterbox's OpenCV resize kinds that run through the variable-tap tables
 * (docs/letterbox.md, "Resize"; host/ops/letterbox/resize_tables.c makes
 * the tables): the rule of an image is the fourth int of its row entries.
 *   CLPAD_TAPS_PIL        Pillow's resample (above).
 *   CLPAD_TAPS_AREA_FAST  OpenCV INTER_AREA, integer ratios (its
 *                         resizeAreaFast): the box's samples summed in
 *                         integers; a 2 x 2 box (sum + 2) >> 2, any other
 *                         cvRound((float)sum * (1.f / area)), the factor's
 *                         float bits stored after the row's taps.
 *   CLPAD_TAPS_AREA       OpenCV INTER_AREA, other reductions (its
 *                         ResizeArea_Invoker): float coefficients, each row's
 *                         h = sum(S * alpha) and then sum(beta * h), each
 *                         product and sum rounded to single precision in
 *                         tap order (clpad_cv_mac), then cvRound and
 *                         saturation (clpad_cv_u8).
 *   CLPAD_TAPS_LINEAR     OpenCV's linear resize in its fixed point with
 *                         the coefficients INTER_AREA gives an enlarged
 *                         axis: h = sum(S * alpha) in integers, then
 *                         (sum((beta * (h >> 4)) >> 16) + 2) >> 2 (as
 *                         clpad_lb_vpass).
 *   CLPAD_TAPS_CUBIC      OpenCV INTER_CUBIC (its HResizeCubic and
 *                         VResizeCubic for uchar): four rows' h_k =
 *                         sum(S * alpha) in integers (the row entry's
 *                         coefficients: beta0..3, then each row's offset
 *                         from its first row), then for the samples of
 *                         OpenCV's vector loop clpad_cubic_vec, for the
 *                         rest clpad_cubic_int (the column entry's fourth
 *                         int: how many of the pixel's channels are in the
 *                         vector loop). */
#define CLPAD_TAPS_PIL 0
#define CLPAD_TAPS_AREA_FAST 1
#define CLPAD_TAPS_AREA 2
#define CLPAD_TAPS_LINEAR 3
#define CLPAD_TAPS_CUBIC 4
/* Samples per iteration of OpenCV's vertical cubic vector loop
 * (VResizeCubicVec_32s8u: two vectors of four floats, 128-bit SIMD): a row
 * of n samples (pixels x channels) has its first (n / 8) * 8 there. */
#define CLPAD_CUBIC_VEC 8

/* acc + s * w in single precision, the product and the sum each rounded
 * (the files that include this are built without contraction into fused
 * multiply-adds: -ffp-contract=off, FP_CONTRACT OFF). */
CLPAD_COORD_FN float clpad_cv_mac(float acc, int s, float w)
{
    float p = (float)s * w;
    return acc + p;
}

/* OpenCV's saturate_cast<uchar>(float): cvRound (to nearest, ties to even),
 * then clamped to 0..255, with plain arithmetic (no library call). */
CLPAD_COORD_FN int clpad_cv_u8(float f)
{
    if (!(f > 0.0f))
        return 0;
    if (f >= 255.0f)
        return 255;
    int i = (int)f; /* truncation: floor for f > 0 */
    float r = f - (float)i; /* exact */
    return r > 0.5f || (r == 0.5f && (i & 1)) ? i + 1 : i;
}

/* OpenCV's vertical cubic pass of one sample, vector loop
 * (VResizeCubicVec_32s8u): each coefficient beta * 2^-22 and each row's sum
 * as floats, h3 * b3 first, then h2 * b2 + that, h1 * b1 + that,
 * h0 * b0 + that (every product and sum rounded: v_muladd without FMA),
 * rounded half to even and saturated (clpad_cv_u8). */
CLPAD_COORD_FN int clpad_cubic_vec(int h0, int h1, int h2, int h3, int b0, int b1, int b2,
                                   int b3)
{
    const float s = 1.0f / 4194304.0f; /* 2^-22 */
    float t = (float)h3 * ((float)b3 * s);
    t = clpad_cv_mac(t, h2, (float)b2 * s);
    t = clpad_cv_mac(t, h1, (float)b1 * s);
    t = clpad_cv_mac(t, h0, (float)b0 * s);
    return clpad_cv_u8(t);
}
/* The same sample by the scalar loop (FixedPtCast): (sum + 2^21) >> 22,
 * saturated. */
CLPAD_COORD_FN int clpad_cubic_int(int h0, int h1, int h2, int h3, int b0, int b1, int b2,
                                   int b3)
{
    int v = (h0 * b0 + h1 * b1 + h2 * b2 + h3 * b3 + (1 << 21)) >> 22;
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

#endif /* CLPAD_COORDS_H */
