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
 * NDRange is 2-D: dimension 0 walks a row in vectors of 16 bytes, each
 * work-item copying `items` vectors strided by the local size (host's
 * clpad__row_geometry), dimension 1 walks the rows. Global sizes are rounded up to the work-group size, so every work-item
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

/* Copy N consecutive elements. A plain loop: drivers turn it into wide
 * unaligned moves (PoCL runs vload16 of uchar element by element). */
#define CLPAD_COPY_RUN(TT, D, S, N)                  \
    {                                                \
        __global TT *dd_ = (D);                      \
        __global const TT *ss_ = (S);                \
        for (int j_ = 0; j_ < (N); j_++)             \
            dd_[j_] = ss_[j_];                       \
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
 * the channels of an NHWC image). Interior chunks are one vector copy;
 * chunks that touch the padding map unit by unit. */
#define CLPAD_DEFINE_PAD(NAME, T, VT, VEC)                                                  \
    __kernel void NAME(__global const T *src, ulong src_off, __global T *dst, ulong dst_off, \
                       T value, long8 o_dims, long8 i_dims, long8 o_pb, long8 i_strides,     \
                       int n_outer, long row_out, long row_in, long row_pb, long K,          \
                       long n_rows, long items)                                              \
    {                                                                                        \
        long lx = (long)get_local_size(0);                                                   \
        long v0 = (long)get_group_id(0) * lx * items + (long)get_local_id(0);                \
        long row = (long)get_global_id(1);                                                   \
        long row_units = row_out * K;                                                        \
        if (row >= n_rows || v0 * VEC >= row_units)                                          \
            return;                                                                          \
        long r = row, src_row = 0;                                                           \
        int valid = 1;                                                                       \
        CLPAD_OUTER_AXIS(0, s0)                                                              \
        CLPAD_OUTER_AXIS(1, s1)                                                              \
        CLPAD_OUTER_AXIS(2, s2)                                                              \
        CLPAD_OUTER_AXIS(3, s3)                                                              \
        CLPAD_OUTER_AXIS(4, s4)                                                              \
        CLPAD_OUTER_AXIS(5, s5)                                                              \
        CLPAD_OUTER_AXIS(6, s6)                                                              \
        __global T *d = dst + dst_off + row * row_units;                                     \
        __global const T *s = src + src_off + src_row;                                       \
        long in_lo = row_pb * K, in_hi = in_lo + row_in * K; /* interior, in units */         \
        for (long k = 0; k < items; k++) {                                                   \
            long u0 = (v0 + k * lx) * VEC;                                                   \
            if (u0 >= row_units)                                                             \
                break;                                                                       \
            if (u0 + VEC <= row_units) {                                                     \
                if (valid && u0 >= in_lo && u0 + VEC <= in_hi) {                             \
                    CLPAD_COPY_RUN(T, d + u0, s + (u0 - in_lo), VEC);                        \
                    continue;                                                                \
                }                                                                            \
                bool outside = u0 + VEC <= in_lo || u0 >= in_hi;                             \
                if (!valid || (PAD_MODE == 0 && outside)) {                                  \
                    vstore##VEC((VT)(value), 0, d + u0);                                     \
                    continue;                                                                \
                }                                                                            \
                if (PAD_MODE == 1 && K == 1 && outside) { /* edge: one element repeated */   \
                    vstore##VEC((VT)(s[u0 < in_lo ? 0 : row_in - 1]), 0, d + u0);            \
                    continue;                                                                \
                }                                                                            \
            }                                                                                \
            long end = min(u0 + VEC, row_units);                                             \
            for (long u = u0; u < end; u++) {                                                \
                long o = u / K;                                                              \
                long m = clpad_map(o - row_pb, row_in);                                      \
                d[u] = (valid && m >= 0) ? s[m * K + (u - o * K)] : value;                   \
            }                                                                                \
        }                                                                                    \
    }

CLPAD_DEFINE_PAD(pad_1, uchar, uchar16, 16)
CLPAD_DEFINE_PAD(pad_2, ushort, ushort8, 8)
CLPAD_DEFINE_PAD(pad_4, uint, uint4, 4)
CLPAD_DEFINE_PAD(pad_8, ulong, ulong2, 2)
