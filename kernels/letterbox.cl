/* Letterbox (docs/letterbox.md): a batch of u8 images resized, placed in
 * their slots with a border, normalised and written as one tensor.
 *
 * Build options (an unknown or missing value is a build error):
 *  - CLPAD_LB_VALUES_TABLE or CLPAD_LB_VALUES_COMPUTE: how a sample v of
 *    output channel c becomes an output value. TABLE looks up
 *    lut[c][v], the bits the host computed (host/ops/letterbox/plan.c); COMPUTE
 *    evaluates ((v * scale) / divisor - mean[c]) / std[c] here for f32
 *    outputs, in the same order (the argument `scale` is {scale, divisor}).
 *    The host picks COMPUTE only for devices whose single precision rounds
 *    to nearest, keeps denormals and divides correctly rounded (built with
 *    -cl-fp32-correctly-rounded-divide-sqrt), where both give the same bits;
 *    the tests run both against the CPU reference. f16 and u8 outputs look
 *    their values up in both (the conversion after the arithmetic cost PoCL
 *    more than the lookup: bench/README.md), but for a u8 output with no
 *    normalisation (v * 1), which is the sample itself.
 *  - CLPAD_LB_MUL_EXACT (with TABLE): the device's single precision rounds
 *    to nearest and keeps denormals, so one multiplication gives the host's
 *    bits: f32 outputs whose normalisation is v * scale alone (mean +0, std
 *    1, divisor 1: lb_norm_kind) compute it instead of the lookup.
 *  - CLPAD_LB_CHUNK: pixels whose samples a work-item computes before it
 *    writes them out (64 on CPUs, 4 on GPUs: private arrays).
 *  - CLPAD_LB_BAND_CHUNK: 0, or (CPUs) the pixels per chunk of the band
 *    form (lb_band), which the kernel runs when the host gives it
 *    rows_per_item > 1: several consecutive output rows per work-item, each
 *    source row's horizontal pass made once and kept while the rows below
 *    read it.
 *  - CLPAD_LB_COL_PLANES: the planes of W ints of an image's column table
 *    (below; 8).
 *  - CLPAD_STREAM_STORES (kernels/common.cl; with CLPAD_NT): the band form
 *    writes f32 NCHW rows with streaming stores (lb_stream).
 *
 * The resize is table-driven: the host computes each image's coefficients
 * (OpenCV's INTER_LINEAR / INTER_NEAREST set-up, with the border modes of
 * kernels/coords.h folded in); the kernel combines samples with the integer
 * functions of kernels/coords.h, so that its output equals the CPU
 * reference (host/ops/letterbox/cpu.c) bit for bit.
 *
 * The tables arrive in one buffer `tab` of int4: the images' descriptors
 * (long4 {row 0 offset in src, row stride, x_begin | x_end << 32,
 * wide_rows}: the columns [x_begin, x_end) of the slot that are not
 * constant border, and the rows that may be read 4 bytes per pixel), then
 * rows[n * H + y] = {sy0, sy1, beta0, beta1} (sy0 < 0: a border row), then
 * each image's column table as CLPAD_LB_COL_PLANES (8) planes of W ints (a
 * build option: host/ops/letterbox/cl.c's LB_COL_PLANES), x0[W], x1[W],
 * alpha0[W], alpha1[W] (byte offsets in a source row; columns outside
 * [x_begin, x_end) are border; planes, so that a vectorised loop loads the
 * weights of neighbouring pixels with one load), then the weights, bases
 * and masks of lb_hpass_perm and a plane whose first int allows
 * lb_vpass16 (the band form only), then the value table. The
 * NDRange is 2-D (host/ops/letterbox/cl.c, one local size per device style):
 * dimension 1 walks the output rows of the whole batch (image-major),
 * dimension 0 walks a row in vectors of LB_VEC pixels, each work-item
 * handling `items` of them (on CPUs, lx == 1: one contiguous stretch; or,
 * rows_per_item > 1, whole rows, that many per work-item).
 * Channels (1, 3, 4), the layout and the output's element size (1: u8, 2:
 * f16 bits, 4: f32 bits) arrive as arguments; each selects inlined copies
 * of the loops in which it is a constant (one program serves them all, so
 * that a device compiles it once).
 *
 * A stretch is computed in two loops per chunk, so that compilers vectorise
 * both: the first reads each source pixel's channels as one 32-bit word
 * (four words per output pixel: two pixels of two rows) and keeps each
 * channel's sample in a private array; the second writes one output channel
 * at a time (one store stream per loop).
 */

#pragma OPENCL FP_CONTRACT OFF

#if defined(CLPAD_LB_VALUES_TABLE) == defined(CLPAD_LB_VALUES_COMPUTE)
#error "letterbox.cl needs one of -DCLPAD_LB_VALUES_TABLE, -DCLPAD_LB_VALUES_COMPUTE"
#endif
#if !defined(CLPAD_LB_CHUNK) || CLPAD_LB_CHUNK < 1
#error "letterbox.cl needs -DCLPAD_LB_CHUNK=N (N >= 1)"
#endif
#if !defined(CLPAD_LB_BAND_CHUNK) || CLPAD_LB_BAND_CHUNK < 0
#error "letterbox.cl needs -DCLPAD_LB_BAND_CHUNK=N (N >= 0)"
#endif
#if !defined(CLPAD_LB_COL_PLANES) || CLPAD_LB_COL_PLANES < 8 || CLPAD_LB_COL_PLANES % 4
#error "letterbox.cl needs -DCLPAD_LB_COL_PLANES=N (N >= 8, a multiple of 4)"
#endif
/* An image's column table in tab, in int4 units (CLPAD_LB_COL_PLANES planes of W ints). */
#define LB_COLS(n, W) ((n) * (CLPAD_LB_COL_PLANES / 4) * (W))

/* Output pixels per "vector" of the launch geometry. */
#define LB_VEC 4

/* ---- Values ------------------------------------------------------------------ */

/* How much of lb_norm a launch needs (lb_norm_kind): the whole of it, or
 * (mean +0, std 1 on every channel) only (v * scale) / divisor, or (divisor
 * 1 as well) only v * scale. The steps left out are exact there in IEEE
 * single precision (x - (+0) is x, also for x = -0; x / 1 is x), so each
 * shorter form gives lb_norm's bits; they save the f32 output loops two
 * divisions per sample. */
#define LB_NORM_FULL 0
#define LB_NORM_SCALE_DIV 1
#define LB_NORM_SCALE 2
CLPAD_INLINE int lb_norm_kind(float2 scale, float4 mean4, float4 std4)
{
    /* (the host sets channels past C to mean +0, std 1) */
    bool plain = all(as_uint4(mean4) == (uint4)0) && all(std4 == (float4)1.0f);
    return !plain ? LB_NORM_FULL : scale.y == 1.0f ? LB_NORM_SCALE : LB_NORM_SCALE_DIV;
}
#ifdef CLPAD_LB_VALUES_COMPUTE
/* ((v * scale) / divisor - mean) / std in single precision, in that order
 * (scale = {scale, divisor}). */
CLPAD_INLINE float lb_norm(int v, float2 scale, float mean, float std_)
{
    return ((float)v * scale.x / scale.y - mean) / std_;
}
/* lb_norm of kind K (a constant at every call site). */
CLPAD_INLINE float lb_norm_k(const int K, int v, float2 scale, float mean, float std_)
{
    return K == LB_NORM_SCALE       ? (float)v * scale.x
           : K == LB_NORM_SCALE_DIV ? (float)v * scale.x / scale.y
                                    : lb_norm(v, scale, mean, std_);
}
#endif

/* ---- Samples ---------------------------------------------------------------- */

/* Four bytes from any address, byte k in bits 8k..8k+7. With clang on a
 * little-endian device one unaligned 32-bit load (which a vectorised loop
 * turns into one gather for all of a pixel's channels); else byte by byte. */
#if defined(__clang__) && defined(__ENDIAN_LITTLE__)
typedef uint lb_u32u __attribute__((aligned(1)));
CLPAD_INLINE uint lb_load4(__global const uchar *p) { return *(__global const lb_u32u *)p; }
#else
CLPAD_INLINE uint lb_load4(__global const uchar *p)
{
    return (uint)p[0] | (uint)p[1] << 8 | (uint)p[2] << 16 | (uint)p[3] << 24;
}
#endif

/* Byte k of the words of the four source pixels, through the resize. */
CLPAD_INLINE int lb_combine(uint p00, uint p01, uint p10, uint p11, const int k, int a0, int a1,
                            int b0, int b1)
{
    int h0 = clpad_lb_hpass((p00 >> (8 * k)) & 255, (p01 >> (8 * k)) & 255, a0, a1);
    int h1 = clpad_lb_hpass((p10 >> (8 * k)) & 255, (p11 >> (8 * k)) & 255, a0, a1);
    return clpad_lb_vpass(h0, h1, b0, b1);
}

/* The samples of source channel c of pixels [x, x + n) into t[c][0..n).
 * wide: the words read lie inside the input (rows below wide_rows; one
 * channel: the word at the left pixel holds the right one, which is 1 byte
 * further or has weight 0); else a byte at a time. */
CLPAD_INLINE void lb_samples(const int C, bool wide, __global const uchar *restrict r0,
                             __global const uchar *restrict r1, int b0, int b1,
                             __global const int *restrict cs, long cw, long x, long n,
                             int t[4][CLPAD_LB_CHUNK])
{
    if (wide) {
        for (long k = 0; k < n; k++) {
            long e = x + k;
            int x0 = cs[e], x1 = cs[cw + e], a0 = cs[2 * cw + e], a1 = cs[3 * cw + e];
            uint p00 = lb_load4(r0 + x0), p10 = lb_load4(r1 + x0);
            uint p01 = C == 1 ? p00 >> 8 : lb_load4(r0 + x1);
            uint p11 = C == 1 ? p10 >> 8 : lb_load4(r1 + x1);
            t[0][k] = lb_combine(p00, p01, p10, p11, 0, a0, a1, b0, b1);
            if (C >= 3) {
                t[1][k] = lb_combine(p00, p01, p10, p11, 1, a0, a1, b0, b1);
                t[2][k] = lb_combine(p00, p01, p10, p11, 2, a0, a1, b0, b1);
            }
            if (C == 4)
                t[3][k] = lb_combine(p00, p01, p10, p11, 3, a0, a1, b0, b1);
        }
    } else {
        for (int c = 0; c < C; c++) {
            for (long k = 0; k < n; k++) {
                long e = x + k;
                int x0 = cs[e] + c, x1 = cs[cw + e] + c, a0 = cs[2 * cw + e], a1 = cs[3 * cw + e];
                int h0 = clpad_lb_hpass(r0[x0], r0[x1], a0, a1);
                int h1 = clpad_lb_hpass(r1[x0], r1[x1], a0, a1);
                t[c][k] = clpad_lb_vpass(h0, h1, b0, b1);
            }
        }
    }
}

/* The horizontal pass of one source row r for pixels [x + k0, x + k1) of
 * the slot: h[c][k] for source channel c of pixel x + k (wide: as
 * lb_samples). */
CLPAD_INLINE void lb_hpass_gather(const int C, bool wide, __global const uchar *restrict r,
                                  __global const int *restrict cs, long cw, long x, long k0,
                                  long k1, int h[4][CLPAD_LB_BAND_CHUNK])
{
    if (wide) {
        for (long k = k0; k < k1; k++) {
            long e = x + k;
            int x0 = cs[e], x1 = cs[cw + e], a0 = cs[2 * cw + e], a1 = cs[3 * cw + e];
            uint p0 = lb_load4(r + x0);
            uint p1 = C == 1 ? p0 >> 8 : lb_load4(r + x1);
            h[0][k] = clpad_lb_hpass(p0 & 255, p1 & 255, a0, a1);
            if (C >= 3) {
                h[1][k] = clpad_lb_hpass((p0 >> 8) & 255, (p1 >> 8) & 255, a0, a1);
                h[2][k] = clpad_lb_hpass((p0 >> 16) & 255, (p1 >> 16) & 255, a0, a1);
            }
            if (C == 4)
                h[3][k] = clpad_lb_hpass(p0 >> 24, p1 >> 24, a0, a1);
        }
    } else {
        for (int c = 0; c < C; c++) {
            for (long k = k0; k < k1; k++) {
                long e = x + k;
                h[c][k] = clpad_lb_hpass(r[cs[e] + c], r[cs[cw + e] + c], cs[2 * cw + e],
                                         cs[3 * cw + e]);
            }
        }
    }
}

/* The permuted horizontal pass (x86 with AVX2, where the compiler has the
 * byte permute and the multiply-add as builtins; bench/README.md, "Design
 * measurements"): a group of 8 pixels (slot columns 8g .. 8g + 7) is two
 * halves of 4, each reading its samples from 16 contiguous bytes of the
 * source row at base[2g + i] (plane 5 of the column table, -1 where a half's
 * samples do not lie in such a span), one load per half. The half's mask
 * (plane 6, 16 bytes) puts source channel 0 of pixel j's two columns in
 * bytes 4j and 4j + 2 (mask + c: channel c) and zeros in bytes 4j + 1, 4j +
 * 3 (mask bytes >= 0x80); one multiply-add of 16-bit pairs with the weights
 * a0 | a1 << 16 (plane 4) then gives clpad_lb_hpass's s0 * a0 + s1 * a1 for
 * 8 pixels, exactly (the host puts only weights in [0, 32767] there). */
#if CLPAD_LB_BAND_CHUNK > 0 && defined(__clang__) && defined(__AVX2__) && defined(__ENDIAN_LITTLE__)
#define LB_PERM 1
typedef char lb_char32 __attribute__((ext_vector_type(32)));
typedef short lb_short16 __attribute__((ext_vector_type(16)));
CLPAD_INLINE bool lb_hpass_perm(const int C, bool wide, __global const uchar *restrict r,
                                __global const int *restrict cs, long cw, long x, long n,
                                int h[4][CLPAD_LB_BAND_CHUNK])
{
    long g0 = (x + 7) >> 3, g1 = (x + n) >> 3; /* the groups inside [x, x + n) */
    __global const int *restrict base = cs + 5 * cw;
    int fit = g0 < g1;
    for (long g = g0; g < g1; g++)
        fit &= (base[2 * g] | base[2 * g + 1]) >= 0;
    if (!fit)
        return false;
    lb_hpass_gather(C, wide, r, cs, cw, x, 0, 8 * g0 - x, h);
    __global const char *restrict rc = (__global const char *)r;
    for (long g = g0; g < g1; g++) {
        char16 lo = vload16(0, rc + base[2 * g]), hi = vload16(0, rc + base[2 * g + 1]);
        lb_char32 span = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                                                 25, 26, 27, 28, 29, 30, 31);
        lb_char32 m = __builtin_astype(vload8(g, cs + 6 * cw), lb_char32);
        lb_short16 w = __builtin_astype(vload8(g, cs + 4 * cw), lb_short16);
        /* (each channel written out: the compiler keeps a loop over C) */
#define LB_PERM_CHANNEL(c)                                                                    \
    vstore8(__builtin_ia32_pmaddwd256(                                                        \
                __builtin_astype(__builtin_ia32_pshufb256(span, m + (char)(c)), lb_short16), w), \
            0, &h[c][8 * g - x])
        LB_PERM_CHANNEL(0);
        if (C >= 3) {
            LB_PERM_CHANNEL(1);
            LB_PERM_CHANNEL(2);
        }
        if (C == 4)
            LB_PERM_CHANNEL(3);
#undef LB_PERM_CHANNEL
    }
    lb_hpass_gather(C, wide, r, cs, cw, x, 8 * g1 - x, n, h);
    return true;
}
#else
#define LB_PERM 0
#endif

/* The horizontal pass of one source row r for pixels [x, x + n) of the
 * slot: h[c][k] for source channel c of pixel x + k; permuted where it can
 * be, else gathered. */
CLPAD_INLINE void lb_hpass_row(const int C, bool wide, __global const uchar *restrict r,
                               __global const int *restrict cs, long cw, long x, long n,
                               int h[4][CLPAD_LB_BAND_CHUNK])
{
#if LB_PERM
    if (lb_hpass_perm(C, wide, r, cs, cw, x, n, h))
        return;
#endif
    lb_hpass_gather(C, wide, r, cs, cw, x, 0, n, h);
}

/* ---- A work-item ------------------------------------------------------------ */

/* Elements of type T at o8, every step-th: n samples SAMPLE (an expression
 * in k: s[k], or the vertical pass of two horizontal passes) looked up in the
 * value table l8 or computed (CONV of the normalised value, by the
 * normalisation kind NK; with the table, only f32's v * scale, the bits as
 * T = uint, where CLPAD_LB_MUL_EXACT allows it). LB_WRITE_AS serves f32
 * outputs; f16 and u8 take LB_WRITE_LOOKUP, the table's loop, alone. */
#define LB_WRITE_LOOKUP(T, SAMPLE)                                            \
    do {                                                                      \
        __global T *restrict o = (__global T *)o8;                            \
        __global const T *restrict l = (__global const T *)l8;                \
        for (long k = 0; k < n; k++)                                          \
            o[k * step] = l[SAMPLE];                                          \
    } while (0)
#ifdef CLPAD_LB_VALUES_TABLE
#ifdef CLPAD_LB_MUL_EXACT
#define LB_MUL_EXACT 1
#else
#define LB_MUL_EXACT 0
#endif
#define LB_WRITE_AS(T, CONV, NK, SAMPLE)                                      \
    do {                                                                      \
        if (LB_MUL_EXACT && (NK) == LB_NORM_SCALE) {                          \
            __global T *restrict o = (__global T *)o8;                        \
            for (long k = 0; k < n; k++)                                      \
                o[k * step] = (T)as_uint((float)(SAMPLE) * sc.x);             \
        } else {                                                              \
            LB_WRITE_LOOKUP(T, SAMPLE);                                       \
        }                                                                     \
    } while (0)
#else
#define LB_WRITE_LOOP(CONV, K, SAMPLE)                                        \
    for (long k = 0; k < n; k++)                                              \
        o[k * step] = CONV(lb_norm_k(K, SAMPLE, sc, mn, sd))
#define LB_WRITE_AS(T, CONV, NK, SAMPLE)                                      \
    do {                                                                      \
        __global T *restrict o = (__global T *)o8;                            \
        if ((NK) == LB_NORM_SCALE)                                            \
            LB_WRITE_LOOP(CONV, LB_NORM_SCALE, SAMPLE);                       \
        else if ((NK) == LB_NORM_SCALE_DIV)                                   \
            LB_WRITE_LOOP(CONV, LB_NORM_SCALE_DIV, SAMPLE);                   \
        else                                                                  \
            LB_WRITE_LOOP(CONV, LB_NORM_FULL, SAMPLE);                        \
    } while (0)
#endif
/* By the element size ob: f32 outputs by the launch's lb_norm_kind nk; f16
 * and u8 outputs by the table (a conversion per sample cost PoCL more than
 * the lookup), but a u8 output of v * 1 (mean +0, std 1, divisor 1, scale
 * 1: rounded and saturated, the sample is itself) stores the sample. */
#define LB_WRITE_BY_SIZE(SAMPLE)                                              \
    do {                                                                      \
        if (ob == 4) {                                                        \
            LB_WRITE_AS(uint, as_uint, nk, SAMPLE);                           \
        } else if (ob == 2) {                                                 \
            LB_WRITE_LOOKUP(ushort, SAMPLE);                                  \
        } else if (nk == LB_NORM_SCALE && sc.x == 1.0f) {                     \
            __global uchar *restrict o = o8;                                  \
            for (long k = 0; k < n; k++)                                      \
                o[k * step] = (uchar)(SAMPLE);                                \
        } else {                                                              \
            LB_WRITE_LOOKUP(uchar, SAMPLE);                                   \
        }                                                                     \
    } while (0)
#define LB_FILL_AS(T)                                                         \
    do {                                                                      \
        __global T *restrict o = (__global T *)o8;                            \
        for (long k = 0; k < n; k++)                                          \
            o[k * step] = (T)v;                                               \
    } while (0)

/* n samples s[] of one output channel to o, every step-th, as elements of
 * ob bytes: looked up in the channel's value table l, or computed, as
 * LB_WRITE_BY_SIZE chooses. ob and step are constants at every call site. */
CLPAD_INLINE void lb_write(const int ob, const long step, __global uchar *restrict o8,
                           const int *restrict s, long n, __global const uchar *restrict l8,
                           float2 sc, float mn, float sd, int nk)
{
    LB_WRITE_BY_SIZE(s[k]);
}

/* The same from the horizontal passes h0, h1 of two source rows (weights b0, b1). */
CLPAD_INLINE void lb_write_v(const int ob, const long step, __global uchar *restrict o8,
                             const int *restrict h0, const int *restrict h1, int b0, int b1,
                             long n, __global const uchar *restrict l8, float2 sc, float mn,
                             float sd, int nk)
{
    LB_WRITE_BY_SIZE(clpad_lb_vpass(h0[k], h1[k], b0, b1));
}

/* The band form's f32 rows of an NCHW output with streaming stores
 * (host/ops/letterbox/cl.c builds this variant, -DCLPAD_STREAM_STORES, for
 * outputs large enough: kernels/common.cl, "Stores"): lb_write_v with
 * ob 4 and step 1, its values 8 at a time in vectors (the vectoriser
 * keeps no streaming hint on a scalar store: it needs the aligned vector),
 * stored with __builtin_nontemporal_store, where the row is whole cache
 * lines of 64 bytes (16 values); any other row by lb_write_v alone. Rows
 * that start inside a line, their partial lines written with plain stores
 * and the rest streamed, made the kernel slower than plain stores
 * throughout (bench/README.md, "Design measurements"). Each vector's lanes
 * are the scalar loop's operations, in the same order. */
#if CLPAD_LB_BAND_CHUNK > 0 && CLPAD_HAVE_NT && defined(CLPAD_STREAM_STORES)
#define LB_STREAM 1
typedef int8 lb_int8u __attribute__((aligned(4)));
CLPAD_INLINE int8 lb_vpass8(const int *h0, const int *h1, int b0, int b1)
{
    int8 v0 = *(const lb_int8u *)h0, v1 = *(const lb_int8u *)h1;
    return (((b0 * (v0 >> 4)) >> 16) + ((b1 * (v1 >> 4)) >> 16) + 2) >> 2;
}
#if LB_PERM
/* The vertical pass of 16 samples in 16 bits (x86 AVX2 builtins, as
 * lb_hpass_perm): h >> 4 packed to 16 bits, `vpmulhw` by the weight gives
 * (b * (h >> 4)) >> 16 exactly where both fit in 16 bits, and the sum and
 * rounding stay below 2^15. The host allows it per image (v16, plane 7 of
 * the column table: lb_band) only where every column weight and row weight
 * is in [0, 2048] and each pair sums to at most 2048, so that h >> 4 <=
 * 255 * 2048 / 16 = 32640 and each product's high half <= 1020. The pack
 * and the unpack work within 128-bit lanes: *lo gets samples 0..7, *hi
 * 8..15, in order. */
CLPAD_INLINE void lb_vpass16(const int *h0, const int *h1, int b0, int b1, int8 *lo, int8 *hi)
{
    int8 p0 = *(const lb_int8u *)h0 >> 4, p1 = *(const lb_int8u *)(h0 + 8) >> 4;
    int8 q0 = *(const lb_int8u *)h1 >> 4, q1 = *(const lb_int8u *)(h1 + 8) >> 4;
    lb_short16 p = __builtin_ia32_packssdw256(p0, p1), q = __builtin_ia32_packssdw256(q0, q1);
    lb_short16 v = __builtin_ia32_pmulhw256(p, (lb_short16)(short)b0) +
                   __builtin_ia32_pmulhw256(q, (lb_short16)(short)b1);
    v = (v + (lb_short16)2) >> (lb_short16)2;
    lb_short16 z = (lb_short16)0;
    *lo = __builtin_astype(__builtin_shufflevector(v, z, 0, 16, 1, 17, 2, 18, 3, 19, 8, 24, 9, 25,
                                                   10, 26, 11, 27),
                           int8);
    *hi = __builtin_astype(__builtin_shufflevector(v, z, 4, 20, 5, 21, 6, 22, 7, 23, 12, 28, 13,
                                                   29, 14, 30, 15, 31),
                           int8);
}
#define LB_STREAM_LOOP(VALUE8)                                                \
    if (v16) {                                                                \
        for (; k + 16 <= n; k += 16) {                                        \
            int8 v, v_hi;                                                     \
            lb_vpass16(h0 + k, h1 + k, b0, b1, &v, &v_hi);                    \
            __builtin_nontemporal_store(VALUE8, (__global uint8 *)(o + k));   \
            v = v_hi;                                                         \
            __builtin_nontemporal_store(VALUE8, (__global uint8 *)(o + k + 8)); \
        }                                                                     \
    } else {                                                                  \
        LB_STREAM_LOOP32(VALUE8)                                              \
    }
#else
#define LB_STREAM_LOOP(VALUE8) LB_STREAM_LOOP32(VALUE8)
#endif
#define LB_STREAM_LOOP32(VALUE8)                                              \
    for (; k + 16 <= n; k += 16) {                                            \
        int8 v = lb_vpass8(h0 + k, h1 + k, b0, b1);                           \
        __builtin_nontemporal_store(VALUE8, (__global uint8 *)(o + k));       \
        v = lb_vpass8(h0 + k + 8, h1 + k + 8, b0, b1);                        \
        __builtin_nontemporal_store(VALUE8, (__global uint8 *)(o + k + 8));   \
    }
CLPAD_INLINE void lb_stream(__global uchar *restrict o8, const int *restrict h0,
                            const int *restrict h1, int b0, int b1, bool v16, long n,
                            __global const uchar *restrict l8, float2 sc, float mn, float sd,
                            int nk)
{
    if (((ulong)o8 & 63) != 0 || (n & 15) != 0) { /* not whole lines of 16 values */
        lb_write_v(4, 1, o8, h0, h1, b0, b1, n, l8, sc, mn, sd, nk);
        return;
    }
    __global uint *restrict o = (__global uint *)o8;
    long k = 0;
#ifdef CLPAD_LB_VALUES_TABLE
    __global const uint *restrict l = (__global const uint *)l8;
    if (LB_MUL_EXACT && nk == LB_NORM_SCALE)
        LB_STREAM_LOOP(as_uint8(convert_float8(v) * sc.x))
    else
        LB_STREAM_LOOP(((uint8)(l[v.s0], l[v.s1], l[v.s2], l[v.s3], l[v.s4], l[v.s5], l[v.s6],
                                l[v.s7])))
#else
    if (nk == LB_NORM_SCALE)
        LB_STREAM_LOOP(as_uint8(convert_float8(v) * sc.x))
    else if (nk == LB_NORM_SCALE_DIV)
        LB_STREAM_LOOP(as_uint8(convert_float8(v) * sc.x / sc.y))
    else
        LB_STREAM_LOOP(as_uint8((convert_float8(v) * sc.x / sc.y - mn) / sd))
#endif
}
#undef LB_STREAM_LOOP
#undef LB_STREAM_LOOP32
#else
#define LB_STREAM 0
#endif

/* Fill n elements of ob bytes, every step-th, with the bits v. */
CLPAD_INLINE void lb_fill_run(const int ob, const long step, __global uchar *restrict o8, long n,
                              uint v)
{
    if (ob == 4)
        LB_FILL_AS(uint);
    else if (ob == 2)
        LB_FILL_AS(ushort);
    else
        LB_FILL_AS(uchar);
}

/* Where channel c of pixel x of the row at d lies, in bytes: NCHW planes of
 * `plane` elements, or NHWC pixels of C elements. */
#define LB_AT(c, x) ((nhwc ? (x) * C + (c) : (c) * plane + (x)) * ob)

/* Border pixels [x0, x1) of a row. */
CLPAD_INLINE void lb_fill(const int C, bool nhwc, int ob, __global uchar *restrict d, long plane,
                          long x0, long x1, const uint *fill)
{
    for (int c = 0; c < C && x1 > x0; c++) {
        if (nhwc)
            lb_fill_run(ob, C, d + LB_AT(c, x0), x1 - x0, fill[c]);
        else
            lb_fill_run(ob, 1, d + LB_AT(c, x0), x1 - x0, fill[c]);
    }
}

#if CLPAD_LB_BAND_CHUNK > 0
/* One work-item of the CPU style's band form: output rows [row0, row1) of
 * the batch, whole rows, in chunks of CLPAD_LB_BAND_CHUNK pixels. Neighbouring output rows
 * of an image read the same source rows (an upscale reads each about twice):
 * each chunk keeps the horizontal pass of the last two source rows it made
 * (hb, tagged with image and row) and makes a row only when it is missing;
 * the vertical pass then runs over contiguous arrays. */
CLPAD_INLINE void lb_band(const int C, bool nhwc, int ob, __global const uchar *restrict src,
                          __global const int4 *restrict tab, long rows_at, long cols_at,
                          long lut_at, __global uchar *restrict dst, long H, long W, int4 chan4,
                          uint4 fill4, float2 scale, float4 mean4, float4 std4, long row0,
                          long row1)
{
    __global const uchar *restrict lut = (__global const uchar *)(tab + lut_at);
    int chan[4] = {chan4.x, chan4.y, chan4.z, chan4.w};
    uint fill[4] = {fill4.x, fill4.y, fill4.z, fill4.w};
    float mean[4] = {mean4.x, mean4.y, mean4.z, mean4.w},
          std_[4] = {std4.x, std4.y, std4.z, std4.w};
    long plane = H * W;
    int nk = lb_norm_kind(scale, mean4, std4);
    int hb[2][4][CLPAD_LB_BAND_CHUNK];
    for (long x = 0; x < W; x += CLPAD_LB_BAND_CHUNK) {
        long xe = min(x + (long)CLPAD_LB_BAND_CHUNK, W);
        long tag[2] = {-1, -1}; /* image * 2^32 + source row of hb[i] */
        for (long row = row0; row < row1; row++) {
            long n = row / H, y = row - n * H;
            long4 desc = ((__global const long4 *)tab)[n];
            int4 ry = tab[rows_at + row];
            __global uchar *restrict d =
                dst + (nhwc ? (n * H + y) * W * C : (n * C * H + y) * W) * ob;
            if (ry.x < 0) {
                lb_fill(C, nhwc, ob, d, plane, x, xe, fill);
                continue;
            }
            long x_begin = desc.z & 0x7fffffff, x_end = desc.z >> 32;
            long a = clamp(x_begin, x, xe), b = clamp(x_end, a, xe);
            lb_fill(C, nhwc, ob, d, plane, x, a, fill);
            lb_fill(C, nhwc, ob, d, plane, b, xe, fill);
            if (a >= b)
                continue;
            __global const int *restrict cs =
                (__global const int *)(tab + cols_at + LB_COLS(n, W));
            bool wide = max(ry.x, ry.y) < desc.w;
            bool v16 = cs[7 * W] != 0; /* lb_vpass16 is exact on this image */
            long want0 = (n << 32) | ry.x, want1 = (n << 32) | ry.y;
            /* the slots of the two source rows, making those missing */
            int i0 = tag[0] == want0 ? 0 : tag[1] == want0 ? 1 : -1;
            if (i0 < 0) {
                i0 = tag[0] == want1 ? 1 : 0; /* keep the other row if cached */
                lb_hpass_row(C, wide, src + desc.x + (long)ry.x * desc.y, cs, W, a, b - a, hb[i0]);
                tag[i0] = want0;
            }
            int i1 = tag[i0] == want1 ? i0 : tag[i0 ^ 1] == want1 ? (i0 ^ 1) : -1;
            if (i1 < 0) {
                i1 = i0 ^ 1;
                lb_hpass_row(C, wide, src + desc.x + (long)ry.y * desc.y, cs, W, a, b - a, hb[i1]);
                tag[i1] = want1;
            }
            for (int c = 0; c < C; c++) { /* output channel c shows source channel chan[c] */
                int sc = chan[c];
                __global uchar *restrict o = d + LB_AT(c, a);
                __global const uchar *restrict l = lut + c * 256 * ob;
                if (nhwc)
                    lb_write_v(ob, C, o, hb[i0][sc], hb[i1][sc], ry.z, ry.w, b - a, l, scale,
                               mean[c], std_[c], nk);
#if LB_STREAM
                else if (ob == 4)
                    lb_stream(o, hb[i0][sc], hb[i1][sc], ry.z, ry.w, v16, b - a, l, scale,
                              mean[c], std_[c], nk);
#endif
                else
                    lb_write_v(ob, 1, o, hb[i0][sc], hb[i1][sc], ry.z, ry.w, b - a, l, scale,
                               mean[c], std_[c], nk);
            }
        }
    }
}
#endif

/* ---- Variable taps: Pillow's resample ------------------------------------------ */

/* The samples of source channels [0, C) of pixels [x, x + n) into t[c][0..n)
 * through a variable-tap resize (host/ops/letterbox/resize_tables.c): the ny source rows
 * from `rows` (stride apart) with vertical coefficients ky; each pixel's
 * columns (cs: byte offset of its first source pixel, taps, index of its
 * coefficients in `coef`) weighed into a u8 per row, those weighed by ky
 * (kernels/coords.h, clpad_pil_clip8); with vfirst the other way round
 * (each column's rows weighed by ky into a u8, those by the pixel's kx). */
CLPAD_INLINE void lb_taps_samples(const int C, __global const uchar *restrict rows, long stride,
                                  int ny, __global const int *restrict ky,
                                  __global const int *restrict cs, long cw,
                                  __global const int *restrict coef, long x, long n,
                                  bool vfirst, int t[4][CLPAD_LB_CHUNK])
{
    for (long k = 0; k < n; k++) {
        long e = x + k;
        int x0 = cs[e], nx = cs[cw + e];
        __global const int *restrict kx = coef + cs[2 * cw + e];
        if (vfirst) { /* Pillow's very tall images: each column's taps vertically first */
            int a[4] = {CLPAD_PIL_HALF, CLPAD_PIL_HALF, CLPAD_PIL_HALF, CLPAD_PIL_HALF};
            for (int i = 0; i < nx; i++) {
                __global const uchar *restrict r = rows + x0 + i * C;
                int v[4] = {CLPAD_PIL_HALF, CLPAD_PIL_HALF, CLPAD_PIL_HALF, CLPAD_PIL_HALF};
                for (int j = 0; j < ny; j++, r += stride)
                    for (int c = 0; c < C; c++)
                        v[c] += (int)r[c] * ky[j];
                for (int c = 0; c < C; c++)
                    a[c] += clpad_pil_clip8(v[c]) * kx[i];
            }
            for (int c = 0; c < C; c++)
                t[c][k] = clpad_pil_clip8(a[c]);
            continue;
        }
        /* every channel at once: each tap's coefficient loaded once */
        int a0 = CLPAD_PIL_HALF, a1 = CLPAD_PIL_HALF, a2 = CLPAD_PIL_HALF, a3 = CLPAD_PIL_HALF;
        for (int j = 0; j < ny; j++) {
            __global const uchar *restrict r = rows + j * stride + x0;
            int h0 = CLPAD_PIL_HALF, h1 = CLPAD_PIL_HALF, h2 = CLPAD_PIL_HALF,
                h3 = CLPAD_PIL_HALF;
            for (int i = 0; i < nx; i++, r += C) {
                int kk = kx[i];
                h0 += (int)r[0] * kk;
                if (C >= 3) {
                    h1 += (int)r[1] * kk;
                    h2 += (int)r[2] * kk;
                }
                if (C == 4)
                    h3 += (int)r[3] * kk;
            }
            int kj = ky[j];
            a0 += clpad_pil_clip8(h0) * kj;
            if (C >= 3) {
                a1 += clpad_pil_clip8(h1) * kj;
                a2 += clpad_pil_clip8(h2) * kj;
            }
            if (C == 4)
                a3 += clpad_pil_clip8(h3) * kj;
        }
        t[0][k] = clpad_pil_clip8(a0);
        if (C >= 3) {
            t[1][k] = clpad_pil_clip8(a1);
            t[2][k] = clpad_pil_clip8(a2);
        }
        if (C == 4)
            t[3][k] = clpad_pil_clip8(a3);
    }
}

/* ---- Variable taps: OpenCV's area and cubic ---------------------------------------- */

/* The samples of source channels [0, C) of pixels [x, x + n) into t[c][0..n)
 * through OpenCV's INTER_AREA or INTER_CUBIC set up as tap tables
 * (host/ops/letterbox/resize_tables.c), by the image's rule (kernels/coords.h,
 * CLPAD_TAPS_AREA_FAST, _AREA, _LINEAR, _CUBIC): the arithmetic of
 * host/ops/letterbox/cpu.c's lb_cv_sample, step
 * for step (float coefficients arrive as their bits). */
CLPAD_INLINE void lb_cv_samples(const int C, __global const uchar *restrict rows, long stride,
                                int ny, __global const int *restrict ky, int rule,
                                __global const int *restrict cs, long cw,
                                __global const int *restrict coef, long x, long n,
                                int t[4][CLPAD_LB_CHUNK])
{
    for (long k = 0; k < n; k++) {
        long e = x + k;
        int x0 = cs[e], nx = cs[cw + e];
        __global const int *restrict kx = coef + cs[2 * cw + e];
        if (rule == CLPAD_TAPS_AREA_FAST) {
            long sum[4] = {0, 0, 0, 0};
            for (int j = 0; j < ny; j++) {
                __global const uchar *restrict r = rows + j * stride + x0;
                for (int i = 0; i < nx; i++, r += C)
                    for (int c = 0; c < C; c++)
                        sum[c] += r[c];
            }
            float inv = as_float(ky[ny]);
            for (int c = 0; c < C; c++)
                t[c][k] = ny == 2 && nx == 2 ? (int)((sum[c] + 2) >> 2)
                                             : clpad_cv_u8((float)sum[c] * inv);
        } else if (rule == CLPAD_TAPS_AREA) {
            float a[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int j = 0; j < ny; j++) {
                __global const uchar *restrict r = rows + j * stride + x0;
                float h[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                for (int i = 0; i < nx; i++, r += C) {
                    float kk = as_float(kx[i]);
                    for (int c = 0; c < C; c++)
                        h[c] = clpad_cv_mac(h[c], r[c], kk);
                }
                float kj = as_float(ky[j]);
                for (int c = 0; c < C; c++) {
                    float p = h[c] * kj;
                    a[c] = a[c] + p;
                }
            }
            for (int c = 0; c < C; c++)
                t[c][k] = clpad_cv_u8(a[c]);
        } else if (rule == CLPAD_TAPS_CUBIC) {
            /* four rows (ky[4 + j]: offsets from the first), each summed;
             * the pixel's first cs[3 * cw + e] channels as OpenCV's vector
             * loop computes them, the rest as its scalar loop */
            int h[4][4];
            for (int j = 0; j < 4; j++) {
                __global const uchar *restrict r = rows + ky[4 + j] * stride + x0;
                for (int c = 0; c < C; c++)
                    h[j][c] = 0;
                for (int i = 0; i < nx; i++, r += C)
                    for (int c = 0; c < C; c++)
                        h[j][c] += (int)r[c] * kx[i];
            }
            int nvec = cs[3 * cw + e];
            for (int c = 0; c < C; c++)
                t[c][k] = c < nvec ? clpad_cubic_vec(h[0][c], h[1][c], h[2][c], h[3][c], ky[0],
                                                     ky[1], ky[2], ky[3])
                                   : clpad_cubic_int(h[0][c], h[1][c], h[2][c], h[3][c], ky[0],
                                                     ky[1], ky[2], ky[3]);
        } else { /* CLPAD_TAPS_LINEAR */
            int a[4] = {0, 0, 0, 0};
            for (int j = 0; j < ny; j++) {
                __global const uchar *restrict r = rows + j * stride + x0;
                int h[4] = {0, 0, 0, 0};
                for (int i = 0; i < nx; i++, r += C)
                    for (int c = 0; c < C; c++)
                        h[c] += (int)r[c] * kx[i];
                for (int c = 0; c < C; c++)
                    a[c] += (ky[j] * (h[c] >> 4)) >> 16;
            }
            for (int c = 0; c < C; c++)
                t[c][k] = (a[c] + 2) >> 2;
        }
    }
}

/* ---- YUV 4:2:0 frames ------------------------------------------------------------ */

/* Two bytes from any address, byte k in bits 8k..8k+7 (as lb_load4). */
#if defined(__clang__) && defined(__ENDIAN_LITTLE__)
typedef ushort lb_u16u __attribute__((aligned(1)));
CLPAD_INLINE uint lb_load2(__global const uchar *p) { return *(__global const lb_u16u *)p; }
#else
CLPAD_INLINE uint lb_load2(__global const uchar *p) { return (uint)p[0] | (uint)p[1] << 8; }
#endif

/* The chroma terms {crv v, cgu u + cgv v, cbu u} (kernels/coords.h,
 * clpad_yuv_rgb) of samples U, V (u = U - 128, v = V - 128) plus the part
 * of the luma term that does not depend on Y: {crv V, cgu U + cgv V, cbu U}
 * + off (lb_yuv_samples); k as lb_yuv_samples. */
CLPAD_INLINE int3 lb_yuv_terms(int U, int V, int8 k, int3 off)
{
    /* (each lane's sum as a scalar: a vector operation here would keep the
     * compiler from vectorising the pixel loop) */
    return (int3)(k.s3 * V + off.x, k.s4 * U + k.s5 * V + off.y, k.s6 * U + off.z);
}

/* The chroma terms of the interleaved pairs p0, p1 (U in bits 0..7 and V
 * in bits 8..15, the other way round where swap) into *t0, *t1. */
CLPAD_INLINE void lb_yuv_pairs(bool swap, uint p0, uint p1, int8 k, int3 off, int3 *t0,
                               int3 *t1)
{
    int a0 = p0 & 255, b0 = (p0 >> 8) & 255, a1 = p1 & 255, b1 = (p1 >> 8) & 255;
    *t0 = lb_yuv_terms(swap ? b0 : a0, swap ? a0 : b0, k, off);
    *t1 = lb_yuv_terms(swap ? b1 : a1, swap ? a1 : b1, k, off);
}

/* The chroma terms of columns cx0 and cx1 (cx0 or cx0 + 1, at most the
 * last) of a chroma row into *t0, *t1. `step` 1 (I420, YV12): the bytes
 * u[cx], v[cx]; 2 (NV12, NV21: U and V interleaved from c, V first where
 * swap): a 16-bit word at c + 2 cx each. */
CLPAD_INLINE void lb_yuv_chroma(const int step, bool swap, __global const uchar *restrict c,
                                __global const uchar *restrict u,
                                __global const uchar *restrict v, int cx0, int cx1, int8 k,
                                int3 off, int3 *t0, int3 *t1)
{
    if (step == 1) {
        *t0 = lb_yuv_terms(u[cx0], v[cx0], k, off);
        *t1 = lb_yuv_terms(u[cx1], v[cx1], k, off);
    } else {
        lb_yuv_pairs(swap, lb_load2(c + 2 * cx0), lb_load2(c + 2 * cx1), k, off, t0, t1);
    }
}

/* Channel c of the resize of the four converted source pixels: luma terms
 * l00, l01 (row 0, columns x0 and x1), l10, l11 (row 1) with their chroma
 * terms t00 .. t11 (kernels/coords.h: y + term, saturated; here the luma
 * term's constant part rides in the chroma terms, lb_yuv_samples). */
#define LB_YUV_CHANNEL(c)                                                                     \
    clpad_lb_vpass(clpad_lb_hpass((int)clpad_yuv_sat(l00 + t00.c),                            \
                                  (int)clpad_yuv_sat(l01 + t01.c), a0, a1),                    \
                   clpad_lb_hpass((int)clpad_yuv_sat(l10 + t10.c),                            \
                                  (int)clpad_yuv_sat(l11 + t11.c), a0, a1),                    \
                   b0, b1)
/* The same where every weight is 1024 (box): h = 1024 (s0 + s1), so
 * (1024 (h >> 4)) >> 16 is s0 + s1 and the channel (s00 + s01 + s10 + s11
 * + 2) >> 2, the same integers. */
#define LB_YUV_BOX(c)                                                                         \
    (((int)clpad_yuv_sat(l00 + t00.c) + (int)clpad_yuv_sat(l01 + t01.c) +                     \
      (int)clpad_yuv_sat(l10 + t10.c) + (int)clpad_yuv_sat(l11 + t11.c) + 2) >> 2)

/* The parameters lb_yuv_samples and lb_yuv_chunk share (b1: the second row
 * weight's name). */
#define LB_YUV_PARAMS(b1)                                                                     \
    __global const uchar *restrict y0, __global const uchar *restrict y1,                     \
        __global const uchar *restrict u0, __global const uchar *restrict u1,                 \
        __global const uchar *restrict v0, __global const uchar *restrict v1, long sw, int b0, \
        int b1, int8 k, __global const int *restrict cs, long cw, long x, long n,            \
        int t[4][CLPAD_LB_CHUNK]

/* The samples of RGB channels 0..2 of pixels [x, x + n) of a YUV frame into
 * t[c][0..n), as lb_samples resizes a packed image's: each of the four
 * source pixels converted (kernels/coords.h, clpad_yuv_rgb, whose integers
 * k = {cy, y0, ymin, crv, cgu, cgv, cbu, step} are), then resized. Y rows
 * y0, y1 (source rows s0, s1), chroma rows u0, v0 and u1, v1 (s0 / 2,
 * s1 / 2), the
 * frame sw pixels wide (even). A pixel's columns are x0 and x1 = x0 + 1, or
 * x1 = x0 with weight a1 = 0 (the host's tables, host/ops/letterbox/plan.c):
 * so the right sample is needed only where it is x0 + 1 (a weight 0 takes
 * any value, read inside the planes). step 4 (NV12 and NV21 frames at least
 * 4 pixels wide): the 32-bit words at one even byte o = clamp(x0 - 1, 0,
 * sw - 4) rounded down, one index for the three loads: Y bytes x0 - o
 * (0..3) and the next, chroma columns o / 2 and o / 2 + 1, which hold those
 * of x0 and x0 + 1; else (steps 1, 2) the Y samples are one 16-bit word at
 * x0 (at sw - 2 where x0 is the last column) and the chroma samples those
 * of columns x0 / 2 and (x0 + 1) / 2 (clamped). `rows`: 2 (two source rows,
 * each with its chroma row), 1 (two source rows sharing one chroma row, its
 * terms serve both) or 0 (the row weight b1 is 0: row 0 alone, the same
 * integers since b1 (h1 >> 4) is 0 whatever h1); `one_col` (every pixel's
 * a1 is 0: its left sample alone, as exact); `pairs` (pixel j's x0 is
 * x0 of pixel 0 plus 2 j, x0 even, the last x0 + 1 inside the row: both
 * columns of a pixel share one chroma sample, and the loads of successive
 * pixels are adjacent words, vector loads instead of gathers); `box` (every
 * weight a0, a1, b0, b1 is 1024: OpenCV's 2:1 downscale, LB_YUV_BOX). */
CLPAD_INLINE void lb_yuv_samples(const int step, const int rows, const bool one_col,
                                 const bool pairs, const bool box,
                                 LB_YUV_PARAMS(b1_))
{
    bool swap = v0 < u0; /* NV21: V first in the interleaved plane */
    __global const uchar *c0 = swap ? v0 : u0, *c1 = swap ? v1 : u1;
    int last = (int)(sw / 2) - 1, bmax = (int)sw - 2; /* the last chroma column, Y word */
    /* kernels/coords.h's y = max(Y - y0, ymin) cy + 2^19 is max(Y, y0 + ymin) cy
     * + (2^19 - y0 cy): the first part per sample, the second (a constant) with
     * the chroma offsets -128 crv, ... in off, the same integer sums */
    int ylo = k.s1 + k.s2;
    int c = (1 << (CLPAD_YUV_SHIFT - 1)) - k.s1 * k.s0;
    int3 off = (int3)(c - 128 * k.s3, c - 128 * (k.s4 + k.s5), c - 128 * k.s6);
    for (long j = 0; j < n; j++) {
        long e = x + j;
        /* (a zero weight as a constant: the compiler drops its samples) */
        int x0 = cs[e], a0 = cs[2 * cw + e], a1 = one_col ? 0 : cs[3 * cw + e];
        int b1 = rows == 0 ? 0 : b1_;
        uint q0, q1 = 0; /* the Y samples of x0 and x0 + 1 in bits 0..7 and 8..15 */
        int3 t00, t01, t10, t11; /* (t01: t00's sample where x0 is even) */
        if (pairs) { /* (x0 as pixel 0's plus 2 j: adjacent words) */
            long o = cs[x] + 2 * j;
            q0 = lb_load2(y0 + o);
            if (rows != 0)
                q1 = lb_load2(y1 + o);
            if (step == 1)
                t00 = lb_yuv_terms(u0[o >> 1], v0[o >> 1], k, off);
            else
                lb_yuv_pairs(swap, lb_load2(c0 + o), 0, k, off, &t00, &t01);
            t01 = t00;
            if (rows != 2) {
                t10 = t00;
            } else if (step == 1) {
                t10 = lb_yuv_terms(u1[o >> 1], v1[o >> 1], k, off);
            } else {
                lb_yuv_pairs(swap, lb_load2(c1 + o), 0, k, off, &t10, &t11);
            }
            t11 = t10;
        } else if (step == 4) { /* (int: the lanes' arithmetic in 32 bits) */
            int o = clamp((x0 - 1) & ~1, 0, (int)sw - 4), d = x0 - o;
            q0 = lb_load4(y0 + o) >> (8 * d);
            if (rows != 0)
                q1 = lb_load4(y1 + o) >> (8 * d);
            uint w = lb_load4(c0 + o); /* x0's pair: the second from d = 2 */
            lb_yuv_pairs(swap, d >= 2 ? w >> 16 : w, d != 0 ? w >> 16 : w, k, off, &t00, &t01);
            if (rows != 2) {
                t10 = t00, t11 = t01;
            } else {
                w = lb_load4(c1 + o);
                lb_yuv_pairs(swap, d >= 2 ? w >> 16 : w, d != 0 ? w >> 16 : w, k, off, &t10, &t11);
            }
        } else {
            int b = min(x0, bmax);
            q0 = lb_load2(y0 + b);
            if (rows != 0)
                q1 = lb_load2(y1 + b);
            if (x0 != b) /* the last column: the word's second byte */
                q0 >>= 8, q1 >>= 8;
            int cx0 = x0 >> 1, cx1 = min((x0 + 1) >> 1, last);
            lb_yuv_chroma(step, swap, c0, u0, v0, cx0, cx1, k, off, &t00, &t01);
            if (rows != 2)
                t10 = t00, t11 = t01;
            else
                lb_yuv_chroma(step, swap, c1, u1, v1, cx0, cx1, k, off, &t10, &t11);
        }
        int l00 = max((int)(q0 & 255), ylo) * k.s0, l01 = max((int)((q0 >> 8) & 255), ylo) * k.s0;
        int l10 = max((int)(q1 & 255), ylo) * k.s0, l11 = max((int)((q1 >> 8) & 255), ylo) * k.s0;
        if (box) {
            t[0][j] = LB_YUV_BOX(x);
            t[1][j] = LB_YUV_BOX(y);
            t[2][j] = LB_YUV_BOX(z);
        } else {
            t[0][j] = LB_YUV_CHANNEL(x);
            t[1][j] = LB_YUV_CHANNEL(y);
            t[2][j] = LB_YUV_CHANNEL(z);
        }
    }
}
#undef LB_YUV_CHANNEL
#undef LB_YUV_BOX

/* lb_yuv_samples for one chunk, its constants chosen: step 4 for NV12 and
 * NV21 frames at least 4 pixels wide (else k.s7: 2 for those, 1 for I420
 * and YV12); rows 0 where the row weight b1 is 0 (OpenCV's odd integer
 * ratios, nearest; not for the rare step 2), 1 where both source rows
 * share a chroma row, else 2; one_col where, with rows 0, every pixel's a1
 * in the chunk is 0. One copy of the loop per combination. */
CLPAD_INLINE void lb_yuv_chunk(LB_YUV_PARAMS(b1))
{
    int step = k.s7 == 2 && sw >= 4 ? 4 : k.s7;
    int rows = b1 == 0 && step != 2 ? 0 : u0 == u1 ? 1 : 2;
    /* (ORs over the chunk, vector loops, only where they can matter) the a1
     * weights of a rows 0 chunk, and the columns that are not pixel 0's plus
     * 2 j (all where x0 is odd or the last is not xs + 2 (n - 1); an even x0
     * is at most sw - 2, so x0 + 1 is inside the row) */
    long xs = cs[x];
    int any = 0, stray = (xs & 1) != 0 || cs[x + n - 1] != xs + 2 * (n - 1) || rows == 0;
    if (rows == 0)
        for (long j = 0; j < n; j++)
            any |= cs[3 * cw + x + j];
    if (!stray)
        for (long j = 0; j < n; j++)
            stray |= cs[x + j] ^ (int)(xs + 2 * j);
    int unbox = rows != 1 || stray || b0 != 1024 || b1 != 1024; /* (the 2:1 pairs only) */
    if (!unbox)
        for (long j = 0; j < n; j++)
            unbox |= (cs[2 * cw + x + j] ^ 1024) | (cs[3 * cw + x + j] ^ 1024);
#define LB_YUV_CALL(st, r, oc, pr, bx)                                                         \
    lb_yuv_samples(st, r, oc, pr, bx, y0, y1, u0, u1, v0, v1, sw, b0, b1, k, cs, cw, x, n, t)
    if (step == 4 && rows == 0 && !any)
        LB_YUV_CALL(4, 0, true, false, false);
    else if (step == 4 && rows == 0)
        LB_YUV_CALL(4, 0, false, false, false);
    else if (step == 4 && rows == 1 && !unbox)
        LB_YUV_CALL(4, 1, false, true, true);
    else if (step == 4 && rows == 1 && !stray)
        LB_YUV_CALL(4, 1, false, true, false);
    else if (step == 4 && rows == 1)
        LB_YUV_CALL(4, 1, false, false, false);
    else if (step == 4 && !stray)
        LB_YUV_CALL(4, 2, false, true, false);
    else if (step == 4)
        LB_YUV_CALL(4, 2, false, false, false);
    else if (step == 2 && rows == 1)
        LB_YUV_CALL(2, 1, false, false, false);
    else if (step == 2)
        LB_YUV_CALL(2, 2, false, false, false);
    else if (rows == 0 && !any)
        LB_YUV_CALL(1, 0, true, false, false);
    else if (rows == 0)
        LB_YUV_CALL(1, 0, false, false, false);
    else if (rows == 1 && !unbox)
        LB_YUV_CALL(1, 1, false, true, true);
    else if (rows == 1 && !stray)
        LB_YUV_CALL(1, 1, false, true, false);
    else if (rows == 1)
        LB_YUV_CALL(1, 1, false, false, false);
    else if (!stray)
        LB_YUV_CALL(1, 2, false, true, false);
    else
        LB_YUV_CALL(1, 2, false, false, false);
#undef LB_YUV_CALL
}
#undef LB_YUV_PARAMS

/* What a work-item's chunks read (lb_item's `kind`): two source rows
 * (lb_samples), a variable-tap resize (lb_taps_samples) or a YUV frame's
 * planes (lb_yuv_samples). */
#define LB_BILINEAR 0
#define LB_TAPS 1
#define LB_YUV 2

/* One work-item: its stretches of output row `row` of the batch, each
 * chunk's samples made by `kind` (a constant at every call, so each kernel
 * keeps only its own). rows[row] = {source row 0, source row 1, weight 0,
 * weight 1} (LB_BILINEAR, LB_YUV) or {first source row, taps, coefficient
 * index} (LB_TAPS, coefficients in coef); chroma[n] = {U row 0, U stride, V
 * row 0, V stride} of frame n and k the conversion's integers (LB_YUV).
 * A border row (row numbers -1) reads nothing. */
CLPAD_INLINE void lb_item(const int C, const int kind, bool nhwc, int ob,
                          __global const uchar *restrict src, __global const int4 *restrict tab,
                          long rows_at, long cols_at, long lut_at,
                          __global const int *restrict coef,
                          __global const long4 *restrict chroma, int8 k,
                          __global uchar *restrict dst, long H, long W, int4 chan4, uint4 fill4,
                          float2 scale, float4 mean4, float4 std4, long row, long items)
{
    long n = row / H, y = row - n * H;
    long4 desc = ((__global const long4 *)tab)[n];
    int4 ry = tab[rows_at + row];
    __global const int *restrict cs = (__global const int *)(tab + cols_at + LB_COLS(n, W));
    __global const uchar *restrict lut = (__global const uchar *)(tab + lut_at);
    __global uchar *restrict d =
        dst + (nhwc ? (n * H + y) * W * C : (n * C * H + y) * W) * ob;
    long plane = H * W;
    long x_begin = desc.z & 0x7fffffff, x_end = desc.z >> 32;
    int chan[4] = {chan4.x, chan4.y, chan4.z, chan4.w};
    uint fill[4] = {fill4.x, fill4.y, fill4.z, fill4.w};
    float mean[4] = {mean4.x, mean4.y, mean4.z, mean4.w},
          std_[4] = {std4.x, std4.y, std4.z, std4.w};
    long s0 = max(ry.x, 0), s1 = max(ry.y, 0);
    __global const uchar *r0 = src + desc.x + s0 * desc.y, *r1 = src + desc.x + s1 * desc.y;
    bool wide = max(ry.x, ry.y) < desc.w;
    bool vfirst = (desc.z & 0x80000000L) != 0; /* LB_VFIRST */
    __global const int *restrict ky = coef + max(ry.z, 0);
    __global const uchar *u0 = r0, *u1 = r0, *v0 = r0, *v1 = r0;
    if (kind == LB_YUV) {
        long4 cd = chroma[n];
        u0 = src + cd.x + (s0 >> 1) * cd.y;
        u1 = src + cd.x + (s1 >> 1) * cd.y;
        v0 = src + cd.z + (s0 >> 1) * cd.w;
        v1 = src + cd.z + (s1 >> 1) * cd.w;
    }
    long lx = get_local_size(0), lid = get_local_id(0);
    long first = get_group_id(0) * lx * items;
    /* CPUs (lx == 1): one stretch of items * LB_VEC pixels; else `items`
     * vectors strided by the local size. */
    long n_str = lx == 1 ? 1 : items, len = lx == 1 ? items * LB_VEC : LB_VEC;
    int nk = lb_norm_kind(scale, mean4, std4);
    int t[4][CLPAD_LB_CHUNK];
    for (long s = 0; s < n_str; s++) {
        long x0 = (lx == 1 ? first : first + s * lx + lid) * LB_VEC;
        long x1 = min(x0 + len, W);
        if (x0 >= x1)
            break;
        if (ry.x < 0) {
            lb_fill(C, nhwc, ob, d, plane, x0, x1, fill);
            continue;
        }
        long a = clamp(x_begin, x0, x1), b = clamp(x_end, a, x1);
        lb_fill(C, nhwc, ob, d, plane, x0, a, fill);
        for (long x = a; x < b; x += CLPAD_LB_CHUNK) {
            long m = min(b - x, (long)CLPAD_LB_CHUNK);
            if (kind == LB_TAPS && ry.w != CLPAD_TAPS_PIL) /* OpenCV's area, cubic */
                lb_cv_samples(C, r0, desc.y, ry.y, ky, ry.w, cs, W, coef, x, m, t);
            else if (kind == LB_TAPS)
                lb_taps_samples(C, r0, desc.y, ry.y, ky, cs, W, coef, x, m, vfirst, t);
            else if (kind == LB_YUV)
                lb_yuv_chunk(r0, r1, u0, u1, v0, v1, desc.w, ry.z, ry.w, k, cs, W, x, m, t);
            else
                lb_samples(C, wide, r0, r1, ry.z, ry.w, cs, W, x, m, t);
            for (int c = 0; c < C; c++) { /* output channel c shows source channel chan[c] */
                __global uchar *restrict o = d + LB_AT(c, x);
                __global const uchar *restrict l = lut + c * 256 * ob;
                if (nhwc)
                    lb_write(ob, C, o, t[chan[c]], m, l, scale, mean[c], std_[c], nk);
                else
                    lb_write(ob, 1, o, t[chan[c]], m, l, scale, mean[c], std_[c], nk);
            }
        }
        lb_fill(C, nhwc, ob, d, plane, b, x1, fill);
    }
}

/* The arguments every letterbox kernel starts with (the host binds them in
 * one place: host/ops/letterbox/cl.c). */
#define LB_KERNEL_ARGS                                                                         \
    __global const uchar *restrict src, __global const int4 *restrict tab, long rows_at,      \
        long cols_at, long lut_at, __global uchar *restrict dst, ulong dst_off, int out_bytes, \
        long H, long W, int C, int nhwc, int4 chan, uint4 fill, float2 scale, float4 mean,     \
        float4 std_, long n_rows, long items, long rows_per_item

__kernel void letterbox(LB_KERNEL_ARGS)
{
    long row = get_global_id(1) * rows_per_item;
    if (row >= n_rows)
        return;
    __global uchar *restrict d = dst + dst_off; /* bytes, a multiple of out_bytes */
#define LB_ITEM(c)                                                                            \
    lb_item(c, LB_BILINEAR, nhwc != 0, out_bytes, src, tab, rows_at, cols_at, lut_at,         \
            (__global const int *)tab, (__global const long4 *)tab, (int8)0, d, H, W, chan, fill, \
            scale, mean, std_, row, items)
#if CLPAD_LB_BAND_CHUNK > 0
    long row1 = min(row + rows_per_item, n_rows);
#define LB_CASE(c)                                                                            \
    if (rows_per_item > 1)                                                                    \
        lb_band(c, nhwc != 0, out_bytes, src, tab, rows_at, cols_at, lut_at, d, H, W, chan,    \
                fill, scale, mean, std_, row, row1);                                          \
    else                                                                                      \
        LB_ITEM(c)
#else
#define LB_CASE(c) LB_ITEM(c)
#endif
    switch (C) {
    case 1: LB_CASE(1); break;
    case 3: LB_CASE(3); break;
    case 4: LB_CASE(4); break;
    default: break;
    }
    clpad_store_fence(); /* (the streaming variant's stores) */
#undef LB_CASE
#undef LB_ITEM
}

/* The variable-tap letterbox: the arguments of `letterbox`, then where the
 * coefficients start in tab (int4 units). */
__kernel void letterbox_taps(LB_KERNEL_ARGS, long coef_at)
{
    long row0 = get_global_id(1) * rows_per_item, row1 = min(row0 + rows_per_item, n_rows);
    __global uchar *restrict d = dst + dst_off;
    __global const int *restrict coef = (__global const int *)(tab + coef_at);
    for (long row = row0; row < row1; row++) {
#define LB_TAPS_CASE(c)                                                                       \
    lb_item(c, LB_TAPS, nhwc != 0, out_bytes, src, tab, rows_at, cols_at, lut_at, coef,        \
            (__global const long4 *)tab, (int8)0, d, H, W, chan, fill, scale, mean, std_, row, \
            items)
        switch (C) {
        case 1: LB_TAPS_CASE(1); break;
        case 3: LB_TAPS_CASE(3); break;
        case 4: LB_TAPS_CASE(4); break;
        default: break;
        }
#undef LB_TAPS_CASE
    }
}

/* The YUV letterbox: the arguments of `letterbox`, then where the frames'
 * chroma descriptors start in tab (int4 units), the conversion's integers
 * (lb_yuv_samples) and the frames read in place: frame n < direct lies in
 * buffer f<n> (its descriptors count from that buffer's start), the others
 * in src (host calls on a CPU device wrap the caller's first LB_DIRECT frames
 * as they are, host/ops/letterbox/cl.c, and gather the rest). The channels
 * are 3. */
#define LB_DIRECT 8
__kernel void letterbox_yuv(LB_KERNEL_ARGS, long chroma_at, int8 yuv, int direct,
                            __global const uchar *f0, __global const uchar *f1,
                            __global const uchar *f2, __global const uchar *f3,
                            __global const uchar *f4, __global const uchar *f5,
                            __global const uchar *f6, __global const uchar *f7)
{
    long row0 = get_global_id(1) * rows_per_item, row1 = min(row0 + rows_per_item, n_rows);
    __global uchar *restrict d = dst + dst_off;
    __global const long4 *restrict chroma = (__global const long4 *)(tab + chroma_at);
    for (long row = row0; row < row1; row++) {
        long n = row / H;
        __global const uchar *s = n >= direct ? src
                                  : n < 4     ? (n < 2 ? (n == 0 ? f0 : f1) : (n == 2 ? f2 : f3))
                                              : (n < 6 ? (n == 4 ? f4 : f5) : (n == 6 ? f6 : f7));
        lb_item(3, LB_YUV, nhwc != 0, out_bytes, s, tab, rows_at, cols_at, lut_at,
                (__global const int *)tab, chroma, yuv, d, H, W, chan, fill, scale, mean, std_,
                row, items);
    }
}
