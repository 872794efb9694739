/* Pad kernels (SPEC §1: OpenVINO Pad-12 plus wrap).
 *
 * One program per pad mode, built with -DPAD_MODE=<n> (0 constant, 1 edge,
 * 2 reflect, 3 symmetric, 4 wrap). Kernels pad_1, pad_2, pad_4, pad_8 move
 * elements of that many bytes: Pad is a pure copy, so the dtype only matters
 * through its size, and the pad value arrives as raw bytes of the element.
 *
 * The host collapses unpadded axes and passes the tensor as rows: the
 * innermost padded axis ("row") and up to 7 outer axes, given innermost-first
 * in the components s0..s6 of long8 arguments (strides in units of T). The
 * NDRange is 2-D: dimension 0 walks a row, a work-group covering
 * lx * items * VEC units of it (host's clpad__row_geometry), dimension 1 walks
 * the rows. The copies are plain loops over restrict pointers, which the
 * compiler vectorises (on CPUs a work-item owns a contiguous stretch). Global sizes are rounded up to the work-group size, so every work-item
 * checks its bounds first. All index math is 64-bit.
 */

#ifndef PAD_MODE
#define PAD_MODE 0
#endif

/* Source coordinate of padded coordinate c on an axis of size D (SPEC §1's
 * table); -1 for constant padding. The host validated the limits, so one
 * reflection suffices. */
inline long clpad_map(long c, long D)
{
    if (c >= 0 && c < D)
        return c;
#if PAD_MODE == 1
    return c < 0 ? 0 : D - 1;
#elif PAD_MODE == 2
    return c < 0 ? -c : 2 * (D - 1) - c;
#elif PAD_MODE == 3
    return c < 0 ? -c - 1 : 2 * D - 1 - c;
#elif PAD_MODE == 4
    long m = c % D;
    return m < 0 ? m + D : m;
#else
    return -1;
#endif
}

/* Decode outer axis K of the row index r (component COMP of the long8s). */
#define CLPAD_OUTER_AXIS(K, COMP)                                   \
    if (K < n_outer) {                                              \
        long od = o_dims.COMP;                                      \
        long o = r % od;                                            \
        r /= od;                                                    \
        long m = clpad_map(o - o_pb.COMP, i_dims.COMP);             \
        valid &= (m >= 0);                                          \
        src_row += m * i_strides.COMP;                              \
    }

/* A row holds row_out elements of the innermost padded axis; each element is
 * K consecutive units of T (trailing unpadded axes collapsed into it, e.g.
 * the channels of an NHWC image). A work-group covers lx * items * VEC units
 * of a row; work-item lid takes every lx-th unit of it (lx == 1 on CPUs: one
 * contiguous stretch). The stretch splits into the padding before the input,
 * the input's interior (a plain copy) and the padding after it. */
#define CLPAD_BORDER(u)                                                                     \
    (PAD_MODE == 0 ? value                                                                   \
                   : s[clpad_map((u) / K - row_pb, row_in) * K + (u) % K])

#define CLPAD_DEFINE_PAD(NAME, T, VEC)                                                      \
    __kernel void NAME(__global const T *restrict src, ulong src_off,                        \
                       __global T *restrict dst, ulong dst_off, T value, long8 o_dims,       \
                       long8 i_dims, long8 o_pb, long8 i_strides, int n_outer, long row_out, \
                       long row_in, long row_pb, long K, long n_rows, long items)            \
    {                                                                                        \
        long lx = (long)get_local_size(0);                                                   \
        long base = (long)get_group_id(0) * lx * items * VEC;                                \
        long u = base + (long)get_local_id(0);                                               \
        long row = (long)get_global_id(1);                                                   \
        long row_units = row_out * K;                                                        \
        if (row >= n_rows || u >= row_units)                                                 \
            return;                                                                          \
        long end = min(base + lx * items * VEC, row_units);                                  \
        long r = row, src_row = 0;                                                           \
        int valid = 1;                                                                       \
        CLPAD_OUTER_AXIS(0, s0)                                                              \
        CLPAD_OUTER_AXIS(1, s1)                                                              \
        CLPAD_OUTER_AXIS(2, s2)                                                              \
        CLPAD_OUTER_AXIS(3, s3)                                                              \
        CLPAD_OUTER_AXIS(4, s4)                                                              \
        CLPAD_OUTER_AXIS(5, s5)                                                              \
        CLPAD_OUTER_AXIS(6, s6)                                                              \
        __global T *restrict d = dst + dst_off + row * row_units;                            \
        __global const T *restrict s = src + src_off + src_row;                              \
        if (!valid) {                                                                        \
            for (; u < end; u += lx)                                                         \
                d[u] = value;                                                                \
            return;                                                                          \
        }                                                                                    \
        long in_lo = row_pb * K, in_hi = in_lo + row_in * K; /* the interior, in units */     \
        long lim = min(end, in_lo);                                                          \
        for (; u < lim; u += lx)                                                             \
            d[u] = CLPAD_BORDER(u);                                                          \
        lim = min(end, in_hi);                                                               \
        __global const T *restrict si = s - in_lo;                                           \
        for (; u < lim; u += lx)                                                             \
            d[u] = si[u];                                                                    \
        for (; u < end; u += lx)                                                             \
            d[u] = CLPAD_BORDER(u);                                                          \
    }

CLPAD_DEFINE_PAD(pad_1, uchar, 16)
CLPAD_DEFINE_PAD(pad_2, ushort, 8)
CLPAD_DEFINE_PAD(pad_4, uint, 4)
CLPAD_DEFINE_PAD(pad_8, ulong, 2)
