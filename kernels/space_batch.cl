/* SpaceToBatch / BatchToSpace kernels (SPEC §2, §3: OpenVINO SpaceToBatch-2
 * and BatchToSpace-2).
 *
 * Built with no options. Kernels s2b_N and b2s_N move units of N = 1, 2, 4 or
 * 8 bytes: both operations are pure copies, so the dtype only matters through
 * its size.
 *
 * The host (host/space_batch.c) collapses the tensors to a batch N and m
 * spatial axes (1 <= m <= 7) of elements of K units each (a trailing axis that
 * moves unchanged becomes part of the element). Per spatial axis: S the space
 * size, O the batch tensor's size, B the block, off the offset (pads_begin or
 * crops_begin), with O*B = off + S + end. The batch element (k, n, o), stored
 * at batch index kflat*N + n with kflat = (k1*B2 + k2)*B3 + ... (block offsets
 * outer, original batch inner), corresponds to the space coordinate
 * c = o*B + k - off on every axis. Per-axis values arrive in long8 arguments,
 * innermost axis first (component s0 is the innermost axis); OpenCL C has no
 * dynamic vector indexing, so every axis is unrolled with a constant
 * component. Strides are in units.
 *
 * The NDRange is 2-D: dimension 1 walks the output rows (all axes but the
 * innermost), dimension 0 walks a row in vectors of VEC units (16 bytes), each
 * work-item handling `items` vectors strided by the local size (the host's
 * clpad__row_geometry), so the row's index decoding is paid once per
 * work-item. Global sizes are rounded up, so every work-item checks its bounds
 * first. The copies are plain loops over restrict pointers, which compilers
 * vectorise: where the innermost block is 1 a row is zeros, one contiguous run
 * of the input and zeros; on CPUs (local x size 1) a work-item owns a
 * contiguous stretch and copies it element by element, K units at a time.
 * All index math is 64-bit.
 */

/* ---- space_to_batch: a work-item writes `items` vectors of a batch row ---- */

/* Decode the batch index o of outer spatial axis J from the row index. */
#define S2B_O(J, C)          \
    if (J < m) {             \
        o##J = r % o_dims.C; \
        r /= o_dims.C;       \
    }
/* Decode the block offset of axis J (after the batch, innermost first). */
#define S2B_K(J, C)          \
    if (J < m) {             \
        k##J = r % blocks.C; \
        r /= blocks.C;       \
    }
/* Add the space coordinate of outer axis J to the source row. */
#define S2B_C(J, C)                                   \
    if (J < m) {                                      \
        long c = o##J * blocks.C + k##J - offs.C;     \
        valid &= (c >= 0 && c < s_dims.C);            \
        src_row += c * s_strides.C;                   \
    }

#define CLPAD_DEFINE_S2B(NAME, T, VEC)                                                       \
    __kernel void NAME(__global const T *restrict src, ulong src_off,                        \
                       __global T *restrict dst, ulong dst_off,                              \
                       long8 o_dims, long8 blocks, long8 offs, long8 s_dims,                 \
                       long8 s_strides, int m, long n_batch, long batch_stride, long K,      \
                       long n_rows, long items, long k0_rows)                                \
    {                                                                                        \
        long lx = (long)get_local_size(0);                                                   \
        long v0 = (long)get_group_id(0) * lx * items * VEC + (long)get_local_id(0); /* unit */ \
        long g = (long)get_global_id(1);                                                     \
        long row_units = o_dims.s0 * K;                                                      \
        if (g >= n_rows || v0 >= row_units)                                                  \
            return;                                                                          \
        /* Rows in the order g = (rest, k0), the innermost block offset fastest: */         \
        /* the B0 rows that read one input row (each every B0-th element of it) */          \
        /* run one after the other, the input row still in the cache. k0_rows is */         \
        /* the row distance between consecutive k0. */                                       \
        long g0 = g % blocks.s0, gr = g / blocks.s0;                                         \
        long row = ((gr / k0_rows) * blocks.s0 + g0) * k0_rows + gr % k0_rows;               \
        long r = row;                                                                        \
        long o1 = 0, o2 = 0, o3 = 0, o4 = 0, o5 = 0, o6 = 0;                                 \
        long k0 = 0, k1 = 0, k2 = 0, k3 = 0, k4 = 0, k5 = 0, k6 = 0;                         \
        S2B_O(1, s1) S2B_O(2, s2) S2B_O(3, s3) S2B_O(4, s4) S2B_O(5, s5) S2B_O(6, s6)        \
        long n = r % n_batch;                                                                \
        r /= n_batch;                                                                        \
        S2B_K(0, s0) S2B_K(1, s1) S2B_K(2, s2) S2B_K(3, s3) S2B_K(4, s4) S2B_K(5, s5)        \
        S2B_K(6, s6)                                                                         \
        long src_row = n * batch_stride;                                                     \
        int valid = 1;                                                                       \
        S2B_C(1, s1) S2B_C(2, s2) S2B_C(3, s3) S2B_C(4, s4) S2B_C(5, s5) S2B_C(6, s6)        \
        __global T *restrict d = dst + dst_off + row * row_units;                            \
        __global const T *restrict sb = src + src_off + src_row; /* read only where valid */ \
        long B0 = blocks.s0, S0 = s_dims.s0, shift = k0 - offs.s0; /* c = o*B0 + shift */    \
        long u = v0, end = min(v0 - (long)get_local_id(0) + lx * items * VEC, row_units);     \
        if (!valid) {                                                                        \
            for (; u < end; u += lx)                                                         \
                d[u] = (T)0;                                                                 \
            return;                                                                          \
        }                                                                                    \
        if (B0 == 1) { /* zeros, a contiguous run of the input, zeros */                     \
            long in_lo = -shift * K, in_hi = in_lo + S0 * K;                                 \
            for (long lim = min(end, in_lo); u < lim; u += lx)                               \
                d[u] = (T)0;                                                                 \
            __global const T *restrict si = sb - in_lo;                                      \
            for (long lim = min(end, in_hi); u < lim; u += lx)                               \
                d[u] = si[u];                                                                \
            for (; u < end; u += lx)                                                         \
                d[u] = (T)0;                                                                 \
            return;                                                                          \
        }                                                                                    \
        long o = u / K, c = o * B0 + shift;                                                  \
        if (lx == 1) { /* one contiguous stretch: element by element, K units each */        \
            for (; u < end; o++, c += B0) {                                                  \
                long run_end = min(end, (o + 1) * K);                                        \
                if (c >= 0 && c < S0) {                                                      \
                    __global const T *restrict se = sb + (c - o) * K;                        \
                    for (; u < run_end; u++)                                                 \
                        d[u] = se[u];                                                        \
                } else {                                                                     \
                    for (; u < run_end; u++)                                                 \
                        d[u] = (T)0;                                                         \
                }                                                                            \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        for (long j = u - o * K; u < end; u += lx) {                                         \
            d[u] = (c >= 0 && c < S0) ? sb[c * K + j] : (T)0;                                \
            j += lx;                                                                         \
            if (j >= K) {                                                                    \
                o += j / K;                                                                  \
                j %= K;                                                                      \
                c = o * B0 + shift;                                                          \
            }                                                                                \
        }                                                                                    \
    }

CLPAD_DEFINE_S2B(s2b_1, uchar, 16)
CLPAD_DEFINE_S2B(s2b_2, ushort, 8)
CLPAD_DEFINE_S2B(s2b_4, uint, 4)
CLPAD_DEFINE_S2B(s2b_8, ulong, 2)

/* ---- batch_to_space: a work-item writes `items` vectors of a space row ---- */

/* Decode the space index of outer axis J from the row index and add the
 * batch element it comes from: c = s + off, o = c / B, k = c % B. */
#define B2S_AXIS(J, C)                                                  \
    if (J < m) {                                                        \
        long s = r % s_dims.C;                                          \
        r /= s_dims.C;                                                  \
        long c = s + offs.C;                                            \
        long o = c / blocks.C;                                          \
        src_row += o * o_strides.C + (c - o * blocks.C) * k_strides.C;  \
    }

#define CLPAD_DEFINE_B2S(NAME, T, VEC)                                                       \
    __kernel void NAME(__global const T *restrict src, ulong src_off,                        \
                       __global T *restrict dst, ulong dst_off,                              \
                       long8 s_dims, long8 blocks, long8 offs, long8 o_strides,              \
                       long8 k_strides, int m, long n_stride, long K, long n_rows,           \
                       long items)                                                           \
    {                                                                                        \
        long lx = (long)get_local_size(0);                                                   \
        long v0 = (long)get_group_id(0) * lx * items * VEC + (long)get_local_id(0); /* unit */ \
        long row = (long)get_global_id(1);                                                   \
        long row_units = s_dims.s0 * K;                                                      \
        if (row >= n_rows || v0 >= row_units)                                                \
            return;                                                                          \
        long r = row, src_row = 0;                                                           \
        B2S_AXIS(1, s1) B2S_AXIS(2, s2) B2S_AXIS(3, s3) B2S_AXIS(4, s4) B2S_AXIS(5, s5)      \
        B2S_AXIS(6, s6)                                                                      \
        src_row += r * n_stride; /* what is left of the row index is n */                   \
        __global T *restrict d = dst + dst_off + row * row_units;                            \
        __global const T *restrict sb = src + src_off + src_row;                             \
        long B0 = blocks.s0, off0 = offs.s0, ks = k_strides.s0;                              \
        long u = v0, end = min(v0 - (long)get_local_id(0) + lx * items * VEC, row_units);     \
        if (B0 == 1) { /* o = s + off, k = 0: unit u reads off*K + u */                      \
            __global const T *restrict si = sb + off0 * K;                                   \
            for (; u < end; u += lx)                                                         \
                d[u] = si[u];                                                                \
            return;                                                                          \
        }                                                                                    \
        long sp = u / K, c = sp + off0, o = c / B0, k = c - o * B0;                          \
        if (lx == 1) { /* one contiguous stretch: element by element, K units each */        \
            for (; u < end; sp++) {                                                          \
                long run_end = min(end, (sp + 1) * K);                                       \
                __global const T *restrict se = sb + o * K + k * ks - sp * K;                \
                for (; u < run_end; u++)                                                     \
                    d[u] = se[u];                                                            \
                if (++k == B0) {                                                             \
                    k = 0;                                                                   \
                    o++;                                                                     \
                }                                                                            \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        for (long j = u - sp * K; u < end; u += lx) {                                        \
            d[u] = sb[o * K + j + k * ks];                                                   \
            j += lx;                                                                         \
            if (j >= K) {                                                                    \
                sp += j / K;                                                                 \
                j %= K;                                                                      \
                c = sp + off0;                                                               \
                o = c / B0;                                                                  \
                k = c - o * B0;                                                              \
            }                                                                                \
        }                                                                                    \
    }

CLPAD_DEFINE_B2S(b2s_1, uchar, 16)
CLPAD_DEFINE_B2S(b2s_2, ushort, 8)
CLPAD_DEFINE_B2S(b2s_4, uint, 4)
CLPAD_DEFINE_B2S(b2s_8, ulong, 2)
