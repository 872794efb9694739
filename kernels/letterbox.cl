/* Letterbox (docs/letterbox.md): a batch of u8 images resized, placed in
 * their slots with a border, normalised and written as one tensor.
 *
 * One program per output element size, built with -DCLPAD_LB_OUT_BYTES=1
 * (u8), 2 (f16 bits) or 4 (f32 bits). The kernel does no floating-point
 * arithmetic at all: the host (host/letterbox_plan.c) computes the resize
 * coefficients of every image (OpenCV's INTER_LINEAR / INTER_NEAREST set-up,
 * with the border modes of kernels/coords.h folded in) and the value table
 * lut[c][v] = the dtype's bits of (v * scale - mean[c]) / std[c]; the kernel
 * looks them up and combines samples with the integer functions of
 * kernels/coords.h, so that its output equals the CPU reference
 * (host/letterbox_cpu.c) bit for bit on any device, with or without fp16.
 *
 * The tables arrive in one buffer `tab` of int4: the images' descriptors
 * (long4 {row 0 offset in src, row stride, x_begin, x_end}), then
 * rows[n * H + y] = {sy0, sy1, beta0, beta1} (sy0 < 0: a border row), then
 * cols[n * W + x] = {x0, x1, alpha0, alpha1} (byte offsets in a source row;
 * columns outside [x_begin, x_end) are border), then the value table. The
 * NDRange is 2-D (the host's launch geometry, host/launch.c): dimension 1
 * walks the output rows of the whole batch (image-major), dimension 0 walks
 * a row in vectors of LB_VEC pixels, each work-item handling `items` of
 * them (on CPUs, lx == 1: one contiguous stretch). Channels (1, 3, 4) and
 * the layout arrive as arguments and select one of six inlined copies of
 * the loop, in which they are constants.
 */

#pragma OPENCL FP_CONTRACT OFF

#if !defined(CLPAD_LB_OUT_BYTES)
#error "letterbox.cl needs -DCLPAD_LB_OUT_BYTES=1, 2 or 4"
#elif CLPAD_LB_OUT_BYTES == 1
typedef uchar lb_out_t;
#elif CLPAD_LB_OUT_BYTES == 2
typedef ushort lb_out_t;
#elif CLPAD_LB_OUT_BYTES == 4
typedef uint lb_out_t;
#else
#error "Unsupported CLPAD_LB_OUT_BYTES: build with 1, 2 or 4"
#endif

/* Output pixels per "vector" of the launch geometry. */
#define LB_VEC 4

/* One channel's sample at column entry e of rows r0, r1 (kernels/coords.h). */
CLPAD_INLINE int lb_sample(__global const uchar *r0, __global const uchar *r1, int4 e, int b0,
                           int b1)
{
    int h0 = clpad_lb_hpass(r0[e.x], r0[e.y], e.z, e.w);
    int h1 = clpad_lb_hpass(r1[e.x], r1[e.y], e.z, e.w);
    return clpad_lb_vpass(h0, h1, b0, b1);
}

/* Pixels [x0, x1) of one output row, every channel. d: the element of
 * (channel 0, pixel 0) of the row; channel c is c * plane further (NCHW) or
 * c (NHWC); pixel x is x (NCHW) or x * C (NHWC) further. C and nhwc are
 * constants at every call site. */
CLPAD_INLINE void lb_fill(const int C, const int nhwc, __global lb_out_t *restrict d, long plane,
                          long x0, long x1, const lb_out_t *fill)
{
    for (int c = 0; c < C; c++) {
        __global lb_out_t *restrict o = d + (nhwc ? c : c * plane);
        for (long x = x0; x < x1; x++)
            o[nhwc ? x * C : x] = fill[c];
    }
}

CLPAD_INLINE void lb_pixels(const int C, const int nhwc, __global const uchar *restrict r0,
                            __global const uchar *restrict r1, int b0, int b1,
                            __global const int4 *restrict cols,
                            __global const lb_out_t *restrict lut, const int *chan,
                            __global lb_out_t *restrict d, long plane, long x0, long x1)
{
    if (nhwc) {
        for (long x = x0; x < x1; x++) {
            int4 e = cols[x];
            for (int c = 0; c < C; c++)
                d[x * C + c] = lut[c * 256 + lb_sample(r0 + chan[c], r1 + chan[c], e, b0, b1)];
        }
    } else {
        for (int c = 0; c < C; c++) {
            __global const uchar *restrict s0 = r0 + chan[c], *restrict s1 = r1 + chan[c];
            __global const lb_out_t *restrict l = lut + c * 256;
            __global lb_out_t *restrict o = d + c * plane;
            for (long x = x0; x < x1; x++)
                o[x] = l[lb_sample(s0, s1, cols[x], b0, b1)];
        }
    }
}

/* One work-item: its stretches of output row `row` of the batch. */
CLPAD_INLINE void lb_item(const int C, const int nhwc, __global const uchar *restrict src,
                          __global const int4 *restrict tab, long rows_at, long cols_at,
                          long lut_at, __global lb_out_t *restrict dst, long H, long W,
                          int4 chan4, uint4 fill4, long row, long items)
{
    long n = row / H, y = row - n * H;
    long4 desc = ((__global const long4 *)tab)[n];
    int4 ry = tab[rows_at + row];
    __global const int4 *restrict cols = tab + cols_at + n * W;
    __global const lb_out_t *restrict lut = (__global const lb_out_t *)(tab + lut_at);
    __global lb_out_t *restrict d =
        dst + (nhwc ? (n * H + y) * W * C : (n * C * H + y) * W);
    long plane = H * W;
    int chan[4] = {chan4.x, chan4.y, chan4.z, chan4.w};
    lb_out_t fill[4] = {(lb_out_t)fill4.x, (lb_out_t)fill4.y, (lb_out_t)fill4.z,
                        (lb_out_t)fill4.w};
    /* (a border row reads nothing: its row numbers are -1) */
    __global const uchar *r0 = src + desc.x + (long)max(ry.x, 0) * desc.y;
    __global const uchar *r1 = src + desc.x + (long)max(ry.y, 0) * desc.y;
    long lx = get_local_size(0), lid = get_local_id(0);
    long first = get_group_id(0) * lx * items;
    /* CPUs (lx == 1): one stretch of items * LB_VEC pixels; else `items`
     * vectors strided by the local size. */
    long n_str = lx == 1 ? 1 : items, len = lx == 1 ? items * LB_VEC : LB_VEC;
    for (long k = 0; k < n_str; k++) {
        long x0 = (lx == 1 ? first : first + k * lx + lid) * LB_VEC;
        long x1 = min(x0 + len, W);
        if (x0 >= x1)
            break;
        if (ry.x < 0) {
            lb_fill(C, nhwc, d, plane, x0, x1, fill);
            continue;
        }
        long a = clamp(desc.z, x0, x1), b = clamp(desc.w, a, x1);
        lb_fill(C, nhwc, d, plane, x0, a, fill);
        lb_pixels(C, nhwc, r0, r1, ry.z, ry.w, cols, lut, chan, d, plane, a, b);
        lb_fill(C, nhwc, d, plane, b, x1, fill);
    }
}

__kernel void letterbox(__global const uchar *restrict src, __global const int4 *restrict tab,
                        long rows_at, long cols_at, long lut_at, __global lb_out_t *restrict dst,
                        ulong dst_off, long H, long W, int C, int nhwc, int4 chan, uint4 fill,
                        long n_rows, long items)
{
    long row = get_global_id(1);
    if (row >= n_rows)
        return;
    __global lb_out_t *restrict d = dst + dst_off;
    switch (C * 2 + (nhwc != 0)) {
    case 2: lb_item(1, 0, src, tab, rows_at, cols_at, lut_at, d, H, W, chan, fill, row, items); break;
    case 3: lb_item(1, 1, src, tab, rows_at, cols_at, lut_at, d, H, W, chan, fill, row, items); break;
    case 6: lb_item(3, 0, src, tab, rows_at, cols_at, lut_at, d, H, W, chan, fill, row, items); break;
    case 7: lb_item(3, 1, src, tab, rows_at, cols_at, lut_at, d, H, W, chan, fill, row, items); break;
    case 8: lb_item(4, 0, src, tab, rows_at, cols_at, lut_at, d, H, W, chan, fill, row, items); break;
    case 9: lb_item(4, 1, src, tab, rows_at, cols_at, lut_at, d, H, W, chan, fill, row, items); break;
    default: break;
    }
}
