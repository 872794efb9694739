/* SpaceToBatch / BatchToSpace kernels (SPEC §2, §3: OpenVINO SpaceToBatch-2
 * and BatchToSpace-2).
 *
 * Built with -DCLPAD_NT=1 on CPU devices (kernels/common.cl), else no options.
 * Kernels s2b_N and b2s_N move units of N = 1, 2, 4 or 8 bytes: both
 * operations are pure copies, so the dtype only matters through its size.
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
 * innermost; for space_to_batch on CPU devices, where the host passes
 * fuse = B0, the groups of B0 rows that one input row feeds, one work-item
 * each), dimension 0 walks a row in vectors of VEC units (16 bytes), each
 * work-item handling `items` vectors strided by the local size (the host's
 * clpad__row_geometry), so the row's index decoding is paid once per
 * work-item. Global sizes are rounded up, so every work-item checks its bounds
 * first. The copies are plain loops over restrict pointers, which compilers
 * vectorise: where the innermost block is 1 a row is zeros, one contiguous run
 * of the input and zeros; on CPUs (local x size 1) a work-item owns a
 * contiguous stretch and copies it element by element, K units at a time,
 * with streaming stores when the host passes nt = 1 (large outputs: the
 * stores then skip the cache's read of each line before writing it).
 * All index math is 64-bit.
 */

/* ---- space_to_batch: a work-item writes `items` vectors of a batch row ---- */

/* Decode outer spatial axis J's padded coordinate p = o * B + k (the space
 * coordinate plus off) from the row index, and add the axis to the source row,
 * the batch tensor's row (o) and the flat block offset (k). */
#define S2B_AXIS(J, C)                                                 \
    if (J < m) {                                                       \
        long P = o_dims.C * blocks.C;                                  \
        long p = r % P;                                                \
        r /= P;                                                        \
        long o = p / blocks.C, c = p - offs.C;                         \
        valid &= (c >= 0 && c < s_dims.C);                             \
        src_row += c * s_strides.C;                                    \
        row_o += o * o_mul;                                            \
        o_mul *= o_dims.C;                                             \
        kflat += (p - o * blocks.C) * k_mul;                           \
        k_mul *= blocks.C;                                             \
    }

/* ceil(a / b) for b > 0 and any a. */
#define S2B_CDIV(a, b) ((a) <= 0 ? -((-(a)) / (b)) : ((a) + (b) - 1) / (b))

/* Units [u, hi) of batch row d from every B-th unit of the input row. */
#define S2B_STRIDED(ST, B)                                                                   \
    for (; u < hi; u++)                                                                      \
        ST(sb[u * (B) + shift], d + u);

/* Units [u, end) of batch row d, every STEP-th (1: a contiguous stretch),
 * stored with ST(value, pointer). */
#define S2B_STRETCH(T, ST, STEP)                                                             \
    if (!valid) {                                                                            \
        for (; u < end; u += STEP)                                                           \
            ST((T)0, d + u);                                                                 \
    } else if (B0 == 1) { /* zeros, a contiguous run of the input, zeros */                  \
        long in_lo = -shift * K, in_hi = in_lo + S0 * K;                                     \
        for (long lim = min(end, in_lo); u < lim; u += STEP)                                 \
            ST((T)0, d + u);                                                                 \
        __global const T *restrict si = sb - in_lo;                                          \
        for (long lim = min(end, in_hi); u < lim; u += STEP)                                 \
            ST(si[u], d + u);                                                                \
        for (; u < end; u += STEP)                                                           \
            ST((T)0, d + u);                                                                 \
    } else if (STEP == 1 && K == 1) { /* one unit per element: zeros, a strided run, zeros */ \
        long lo = clamp(S2B_CDIV(-shift, B0), u, end), hi = clamp(S2B_CDIV(S0 - shift, B0), lo, end); \
        for (; u < lo; u++)                                                                  \
            ST((T)0, d + u);                                                                 \
        switch (B0) { /* common blocks as constant strides, which vectorise */              \
        case 2: S2B_STRIDED(ST, 2) break;                                                    \
        case 3: S2B_STRIDED(ST, 3) break;                                                    \
        case 4: S2B_STRIDED(ST, 4) break;                                                    \
        default: S2B_STRIDED(ST, B0) break;                                                  \
        }                                                                                    \
        for (; u < end; u++)                                                                 \
            ST((T)0, d + u);                                                                 \
    } else if (STEP == 1) { /* element by element, K units each */                           \
        for (long o = u / K, c = o * B0 + shift; u < end; o++, c += B0) {                    \
            long run_end = min(end, (o + 1) * K);                                            \
            if (c >= 0 && c < S0) {                                                          \
                __global const T *restrict se = sb + (c - o) * K;                            \
                for (; u < run_end; u++)                                                     \
                    ST(se[u], d + u);                                                        \
            } else {                                                                         \
                for (; u < run_end; u++)                                                     \
                    ST((T)0, d + u);                                                         \
            }                                                                                \
        }                                                                                    \
    } else { /* strided: unit j of element o */                                              \
        long o = u / K, c = o * B0 + shift;                                                  \
        for (long j = u - o * K; u < end; u += STEP) {                                       \
            ST((c >= 0 && c < S0) ? sb[c * K + j] : (T)0, d + u);                            \
            j += STEP;                                                                       \
            if (j >= K) {                                                                    \
                o += j / K;                                                                  \
                j %= K;                                                                      \
                c = o * B0 + shift;                                                          \
            }                                                                                \
        }                                                                                    \
    }

/* Units [u, end) of the B0 batch rows d + k0 * kstep (k0 = 0 .. B0-1) that
 * one input row feeds. Element o of row k0 reads input element o*B0 + k0 -
 * off: for elements of 8 units or more, walking o and, inside it, k0 reads
 * the input row once, in order; shorter elements go row by row (the input
 * row stays in the cache), where the per-element bookkeeping is lighter.
 * Stores with ST(value, pointer). */
#define S2B_FUSED(T, ST)                                                                     \
    if (valid && K >= 8) {                                                                   \
        for (long o = u / K, c0 = o * B0 - offs.s0; u < end; o++, c0 += B0) {                \
            long run_end = min(end, (o + 1) * K);                                            \
            for (long k = 0; k < B0; k++) {                                                  \
                long c = c0 + k;                                                             \
                __global T *restrict dk = d + k * kstep;                                     \
                if (c >= 0 && c < S0) {                                                      \
                    __global const T *restrict se = sb + (c - o) * K;                        \
                    for (long v = u; v < run_end; v++)                                       \
                        ST(se[v], dk + v);                                                   \
                } else {                                                                     \
                    for (long v = u; v < run_end; v++)                                       \
                        ST((T)0, dk + v);                                                    \
                }                                                                            \
            }                                                                                \
            u = run_end;                                                                     \
        }                                                                                    \
    } else {                                                                                 \
        __global T *restrict d0 = d;                                                         \
        for (long k = 0, u0 = u; k < B0; k++) {                                              \
            __global T *restrict d = d0 + k * kstep;                                         \
            long shift = k - offs.s0;                                                        \
            u = u0;                                                                          \
            S2B_STRETCH(T, ST, 1)                                                            \
        }                                                                                    \
    }

#define CLPAD_DEFINE_S2B(NAME, T, VEC)                                                       \
    __kernel void NAME(__global const T *restrict src, ulong src_off,                        \
                       __global T *restrict dst, ulong dst_off,                              \
                       long8 o_dims, long8 blocks, long8 offs, long8 s_dims,                 \
                       long8 s_strides, int m, long n_batch, long batch_stride, long K,      \
                       long n_rows, long items, int nt, long fuse)                           \
    {                                                                                        \
        long lx = (long)get_local_size(0);                                                   \
        long v0 = (long)get_group_id(0) * lx * items * VEC + (long)get_local_id(0); /* unit */ \
        long g = (long)get_global_id(1);                                                     \
        long row_units = o_dims.s0 * K;                                                      \
        if (g >= n_rows || v0 >= row_units)                                                  \
            return;                                                                          \
        /* Rows in the input's order: g = (n, p(m-1), ..., p1, k0), p the padded */         \
        /* coordinate of an outer axis and k0 the innermost block offset: the    */         \
        /* B0 rows that read one input row (each every B0-th element of it) run  */         \
        /* one after the other, and the input is read front to back (block       */         \
        /* offsets outermost, as the output is laid out, would read it in passes */         \
        /* of every B-th row). */                                                            \
        long r = g, k0 = 0;                                                                  \
        if (fuse == 1) { /* else a work-item writes the rows of every k0 */                 \
            k0 = r % blocks.s0;                                                              \
            r /= blocks.s0;                                                                  \
        }                                                                                    \
        long src_row = 0, row_o = 0, o_mul = 1, kflat = k0, k_mul = blocks.s0;               \
        int valid = 1;                                                                       \
        S2B_AXIS(1, s1) S2B_AXIS(2, s2) S2B_AXIS(3, s3) S2B_AXIS(4, s4) S2B_AXIS(5, s5)      \
        S2B_AXIS(6, s6)                                                                      \
        long n = r; /* what is left of the row index */                                      \
        src_row += n * batch_stride;                                                         \
        long row = (kflat * n_batch + n) * o_mul + row_o;                                    \
        __global T *restrict d = dst + dst_off + row * row_units;                            \
        __global const T *restrict sb = src + src_off + src_row; /* read only where valid */ \
        long B0 = blocks.s0, S0 = s_dims.s0, shift = k0 - offs.s0; /* c = o*B0 + shift */    \
        long u = v0, end = min(v0 - (long)get_local_id(0) + lx * items * VEC, row_units);     \
        if (lx == 1 && fuse > 1) { /* CPU: the B0 rows of one input row, read once */       \
            long kstep = n_batch * o_mul * row_units; /* units from one k0's row to the next */ \
            if (nt) {                                                                        \
                S2B_FUSED(T, CLPAD_STORE_NT)                                                 \
                CLPAD_NT_FENCE;                                                              \
            } else {                                                                         \
                S2B_FUSED(T, CLPAD_STORE)                                                    \
            }                                                                                \
        } else if (lx == 1) { /* CPU: one contiguous stretch, streaming stores when asked */ \
            if (nt) {                                                                        \
                S2B_STRETCH(T, CLPAD_STORE_NT, 1)                                            \
                CLPAD_NT_FENCE;                                                              \
            } else {                                                                         \
                S2B_STRETCH(T, CLPAD_STORE, 1)                                               \
            }                                                                                \
        } else {                                                                             \
            S2B_STRETCH(T, CLPAD_STORE, lx)                                                  \
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

/* `groups` whole groups of B space elements from u: element k of group g is
 * batch row k's element o + g. */
#define B2S_GROUPS(ST, B)                                                                    \
    for (long g_ = 0; g_ < groups; g_++)                                                     \
        for (long k_ = 0; k_ < (B); k_++)                                                    \
            ST(sb[o + g_ + k_ * ks], d + u + g_ * (B) + k_);

/* Units [u, end) of space row d, every STEP-th (1: a contiguous stretch),
 * stored with ST(value, pointer). */
#define B2S_STRETCH(T, ST, STEP)                                                             \
    if (B0 == 1) { /* o = s + off, k = 0: unit u reads off*K + u */                          \
        __global const T *restrict si = sb + off0 * K;                                       \
        for (; u < end; u += STEP)                                                           \
            ST(si[u], d + u);                                                                \
    } else if (STEP == 1 && K == 1) { /* one unit per element: groups of B0, one per row */ \
        long c = u + off0, o = c / B0, k = c - o * B0;                                       \
        for (; k > 0 && k < B0 && u < end; k++, u++) /* up to a group's start */             \
            ST(sb[o + k * ks], d + u);                                                       \
        if (k == B0) {                                                                       \
            k = 0;                                                                           \
            o++;                                                                             \
        }                                                                                    \
        long groups = (end - u) / B0;                                                        \
        switch (B0) { /* common blocks as constants: the group unrolls and vectorises */    \
        case 2: B2S_GROUPS(ST, 2) break;                                                     \
        case 3: B2S_GROUPS(ST, 3) break;                                                     \
        case 4: B2S_GROUPS(ST, 4) break;                                                     \
        default: B2S_GROUPS(ST, B0) break;                                                   \
        }                                                                                    \
        u += groups * B0;                                                                    \
        o += groups;                                                                         \
        for (; u < end; k++, u++) /* the last, partial group */                              \
            ST(sb[o + k * ks], d + u);                                                       \
    } else if (STEP == 1) { /* element by element, K units each */                           \
        long sp = u / K, c = sp + off0, o = c / B0, k = c - o * B0;                          \
        for (; u < end; sp++) {                                                              \
            long run_end = min(end, (sp + 1) * K);                                           \
            __global const T *restrict se = sb + o * K + k * ks - sp * K;                    \
            for (; u < run_end; u++)                                                         \
                ST(se[u], d + u);                                                            \
            if (++k == B0) {                                                                 \
                k = 0;                                                                       \
                o++;                                                                         \
            }                                                                                \
        }                                                                                    \
    } else { /* strided: unit j of space element sp */                                       \
        long sp = u / K, c = sp + off0, o = c / B0, k = c - o * B0;                          \
        for (long j = u - sp * K; u < end; u += STEP) {                                      \
            ST(sb[o * K + j + k * ks], d + u);                                               \
            j += STEP;                                                                       \
            if (j >= K) {                                                                    \
                sp += j / K;                                                                 \
                j %= K;                                                                      \
                c = sp + off0;                                                               \
                o = c / B0;                                                                  \
                k = c - o * B0;                                                              \
            }                                                                                \
        }                                                                                    \
    }

#define CLPAD_DEFINE_B2S(NAME, T, VEC)                                                       \
    __kernel void NAME(__global const T *restrict src, ulong src_off,                        \
                       __global T *restrict dst, ulong dst_off,                              \
                       long8 s_dims, long8 blocks, long8 offs, long8 o_strides,              \
                       long8 k_strides, int m, long n_stride, long K, long n_rows,           \
                       long items, int nt)                                                   \
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
        if (lx == 1) { /* CPU: one contiguous stretch, streaming stores when asked */       \
            if (nt) {                                                                        \
                B2S_STRETCH(T, CLPAD_STORE_NT, 1)                                            \
                CLPAD_NT_FENCE;                                                              \
            } else {                                                                         \
                B2S_STRETCH(T, CLPAD_STORE, 1)                                               \
            }                                                                                \
        } else {                                                                             \
            B2S_STRETCH(T, CLPAD_STORE, lx)                                                  \
        }                                                                                    \
    }

CLPAD_DEFINE_B2S(b2s_1, uchar, 16)
CLPAD_DEFINE_B2S(b2s_2, ushort, 8)
CLPAD_DEFINE_B2S(b2s_4, uint, 4)
CLPAD_DEFINE_B2S(b2s_8, ulong, 2)
