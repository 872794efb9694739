/* SpaceToBatch / BatchToSpace (docs/spec.md, "SpaceToBatch" and
 * "BatchToSpace": OpenVINO SpaceToBatch-2 and BatchToSpace-2).
 *
 * One program per unit size, built with -DCLPAD_UNIT_BYTES=1|2|4|8 and
 * optionally -DCLPAD_STREAM_STORES (kernels/common.cl); kernels `s2b` and `b2s` move units of that size: both
 * operations are pure copies, so the dtype only matters through its size.
 *
 * The host (host/ops/space_batch/cl.c) collapses the tensors to a batch N and m
 * spatial axes (1 <= m <= 7) of elements of K units each (a trailing axis
 * that moves unchanged becomes part of the element). Per spatial axis: S the
 * space size, O the batch tensor's size, B the block, off the offset
 * (pads_begin or crops_begin), with O*B = off + S + end. The batch element
 * (k, n, o), stored at batch index kflat*N + n with kflat = (k1*B2 + k2)*B3
 * + ... (block offsets outer, original batch inner), corresponds to the
 * space coordinate c = o*B + k - off on every axis (kernels/coords.h).
 * Per-axis values arrive in long8 arguments, innermost axis first (component
 * s0 is the innermost axis); OpenCL C has no dynamic vector indexing, so
 * every axis is decoded with a constant component. Strides are in units.
 *
 * The NDRange is 2-D: dimension 1 walks the output rows (all axes but the
 * innermost; for space_to_batch on CPU devices, where the host passes
 * fuse = B0, the groups of B0 rows that one input row feeds, one work-item
 * each), dimension 0 walks a row in vectors of CLPAD_UNITS_PER_16B units,
 * each work-item handling `items` vectors strided by the local size (the
 * host's launch geometry, host/device/launch.c), so the row's index decoding is
 * paid once per work-item. Global sizes are rounded up, so every work-item
 * checks its bounds first. The copies are plain loops over restrict
 * pointers, which compilers vectorise: where the innermost block is 1 a row
 * is zeros, one contiguous run of the input and zeros; on CPUs (local x size
 * 1) a work-item owns a contiguous stretch and copies it element by element,
 * K units at a time. Built with -DCLPAD_STREAM_STORES (the host's choice for
 * large outputs of multi-unit elements on CPU devices), every store is a
 * streaming one, which skips the cache's read of each line before writing
 * it. All index math is 64-bit.
 */

#ifndef CLPAD_UNIT_BYTES
#error "space_batch.cl needs -DCLPAD_UNIT_BYTES=1, 2, 4 or 8"
#endif

/* -DCLPAD_SB_VEC=V (the device table's sb_vector: 4 or 8; absent: none):
 * a block of 2 on the innermost axis with one unit per element moves V
 * elements of each of the two rows at a time, as one load of 2V units split
 * into its even and odd units (space_to_batch) or two loads of V
 * interleaved into one store (batch_to_space). A compiler that vectorises
 * across work-items rather than loops (Intel's CPU runtime, with the CPU
 * geometry's one work-item per row) otherwise moves them one unit at a
 * time. Unaligned vectors through types aligned to 1 byte, as in
 * kernels/common.cl (clang only). */
#if defined(CLPAD_SB_VEC) && defined(__clang__)
#define SB_CAT_(a, b) a##b
#define SB_CAT(a, b) SB_CAT_(a, b)
#if CLPAD_UNIT_BYTES == 1
#define SB_UNIT uchar
#elif CLPAD_UNIT_BYTES == 2
#define SB_UNIT ushort
#elif CLPAD_UNIT_BYTES == 4
#define SB_UNIT uint
#else
#define SB_UNIT ulong
#endif
#if CLPAD_SB_VEC == 4
typedef SB_CAT(SB_UNIT, 4) sb_vec_t __attribute__((aligned(1)));
typedef SB_CAT(SB_UNIT, 8) sb_vec2_t __attribute__((aligned(1)));
#define SB_INTERLEAVE(a, b) ((sb_vec2_t)(a.s0, b.s0, a.s1, b.s1, a.s2, b.s2, a.s3, b.s3))
#elif CLPAD_SB_VEC == 8
typedef SB_CAT(SB_UNIT, 8) sb_vec_t __attribute__((aligned(1)));
typedef SB_CAT(SB_UNIT, 16) sb_vec2_t __attribute__((aligned(1)));
#define SB_INTERLEAVE(a, b)                                                                      \
    ((sb_vec2_t)(a.s0, b.s0, a.s1, b.s1, a.s2, b.s2, a.s3, b.s3, a.s4, b.s4, a.s5, b.s5, a.s6,  \
                 b.s6, a.s7, b.s7))
#else
#error "space_batch.cl: CLPAD_SB_VEC must be 4 or 8"
#endif
#define SB_SPLIT 1
#else
#define SB_SPLIT 0
#endif

/* ---- space_to_batch: a work-item writes `items` vectors of a batch row ---- */

/* Decode outer spatial axis's padded coordinate p = o * B + k (the space
 * coordinate plus off) from the row index r, and add the axis to the source
 * row, the batch tensor's row (o) and the flat block offset (k). */
CLPAD_INLINE void s2b_axis(long o_dim, long block, long off, long s_dim, long s_stride, long *r,
                           int *valid, long *src_row, long *row_o, long *o_mul, long *kflat,
                           long *k_mul)
{
    long P = o_dim * block;
    long p = *r % P;
    *r /= P;
    long o = p / block, c = p - off;
    *valid &= (c >= 0 && c < s_dim);
    *src_row += c * s_stride;
    *row_o += o * *o_mul;
    *o_mul *= o_dim;
    *kflat += (p - o * block) * *k_mul;
    *k_mul *= block;
}

/* Units [u, hi) of batch row d from every B-th unit of the input row (B a
 * constant at the call sites that vectorise). */
CLPAD_INLINE void s2b_strided(__global unit_t *restrict d, __global const unit_t *restrict sb,
                              long u, long hi, long B, long shift)
{
    for (; u < hi; u++)
        clpad_store(sb[u * B + shift], d + u);
}

/* Units [u, end) of batch row d, every step-th (1: a contiguous stretch).
 * The row reads input row sb at c = o*B0 + shift; valid: the row's outer
 * coordinates are inside the input. `step` is a constant at the call sites
 * where it matters (the CPU's contiguous stretches). */
CLPAD_INLINE void s2b_stretch(__global unit_t *restrict d, __global const unit_t *restrict sb,
                              long u, long end, int valid, long B0, long S0, long shift, long K,
                              const long step)
{
    if (!valid) {
        for (; u < end; u += step)
            clpad_store((unit_t)0, d + u);
    } else if (B0 == 1) { /* zeros, a contiguous run of the input, zeros */
        long in_lo = -shift * K, in_hi = in_lo + S0 * K;
        for (long lim = min(end, in_lo); u < lim; u += step)
            clpad_store((unit_t)0, d + u);
        __global const unit_t *restrict si = sb - in_lo;
        for (long lim = min(end, in_hi); u < lim; u += step)
            clpad_store(si[u], d + u);
        for (; u < end; u += step)
            clpad_store((unit_t)0, d + u);
    } else if (step == 1 && K == 1) { /* one unit per element: zeros, a strided run, zeros */
        long lo = clamp(clpad_block_first(shift, B0), u, end);
        long hi = clamp(clpad_block_end(S0, shift, B0), lo, end);
        for (; u < lo; u++)
            clpad_store((unit_t)0, d + u);
        switch (B0) { /* common blocks as constant strides, which vectorise */
        case 2: s2b_strided(d, sb, u, hi, 2, shift); break;
        case 3: s2b_strided(d, sb, u, hi, 3, shift); break;
        case 4: s2b_strided(d, sb, u, hi, 4, shift); break;
        default: s2b_strided(d, sb, u, hi, B0, shift); break;
        }
        for (u = hi; u < end; u++)
            clpad_store((unit_t)0, d + u);
    } else if (step == 1) { /* element by element, K units each */
        for (long o = u / K, c = o * B0 + shift; u < end; o++, c += B0) {
            long run_end = min(end, (o + 1) * K);
            if (c >= 0 && c < S0) {
                __global const unit_t *restrict se = sb + (c - o) * K;
                for (; u < run_end; u++)
                    clpad_store(se[u], d + u);
            } else {
                for (; u < run_end; u++)
                    clpad_store((unit_t)0, d + u);
            }
        }
    } else { /* strided: unit j of element o */
        long o = u / K, c = o * B0 + shift;
        for (long j = u - o * K; u < end; u += step) {
            clpad_store((c >= 0 && c < S0) ? sb[c * K + j] : (unit_t)0, d + u);
            j += step;
            if (j >= K) {
                o += j / K;
                j %= K;
                c = o * B0 + shift;
            }
        }
    }
}

#if SB_SPLIT
/* Block 2, one unit per element (CLPAD_SB_VEC): units [u, end) of the two
 * batch rows d0 (k0 = 0) and d1 (k0 = 1) of one valid input row sb, element
 * o of row k0 being input element 2o + k0 - off0. Where both rows read the
 * input, V elements of each come from one load of 2V units; the ends go
 * unit by unit. */
CLPAD_INLINE void s2b_split2(__global unit_t *restrict d0, __global unit_t *restrict d1,
                             __global const unit_t *restrict sb, long u, long end, long S0,
                             long off0)
{
    long lo = clamp((off0 + 1) / 2, u, end); /* the first o with 2o - off0 >= 0 */
    long hi = clamp((S0 + off0) / 2, lo, end); /* o < hi: 2o + 1 - off0 < S0 */
    s2b_stretch(d0, sb, u, lo, 1, 2, S0, -off0, 1, 1);
    s2b_stretch(d1, sb, u, lo, 1, 2, S0, 1 - off0, 1, 1);
    long o = lo;
    for (; o + CLPAD_SB_VEC <= hi; o += CLPAD_SB_VEC) {
        sb_vec2_t v = *(__global const sb_vec2_t *)(sb + (2 * o - off0));
        *(__global sb_vec_t *)(d0 + o) = v.even;
        *(__global sb_vec_t *)(d1 + o) = v.odd;
    }
    s2b_stretch(d0, sb, o, end, 1, 2, S0, -off0, 1, 1);
    s2b_stretch(d1, sb, o, end, 1, 2, S0, 1 - off0, 1, 1);
}
#endif

/* Units [u, end) of the B0 batch rows d + k0 * kstep (k0 = 0 .. B0-1) that
 * one input row feeds. Element o of row k0 reads input element o*B0 + k0 -
 * off0: for elements of 8 units or more, walking o and, inside it, k0 reads
 * the input row once, in order; shorter elements go row by row (the input
 * row stays in the cache), where the per-element bookkeeping is lighter. */
CLPAD_INLINE void s2b_fused(__global unit_t *restrict d, __global const unit_t *restrict sb,
                            long u, long end, int valid, long B0, long S0, long off0, long K,
                            long kstep)
{
    if (valid && K >= 8) {
        for (long o = u / K, c0 = o * B0 - off0; u < end; o++, c0 += B0) {
            long run_end = min(end, (o + 1) * K);
            for (long k = 0; k < B0; k++) {
                long c = c0 + k;
                __global unit_t *restrict dk = d + k * kstep;
                if (c >= 0 && c < S0) {
                    __global const unit_t *restrict se = sb + (c - o) * K;
                    for (long v = u; v < run_end; v++)
                        clpad_store(se[v], dk + v);
                } else {
                    for (long v = u; v < run_end; v++)
                        clpad_store((unit_t)0, dk + v);
                }
            }
            u = run_end;
        }
    } else {
#if SB_SPLIT
        if (valid && B0 == 2 && K == 1) {
            s2b_split2(d, d + kstep, sb, u, end, S0, off0);
            return;
        }
#endif
        for (long k = 0; k < B0; k++)
            s2b_stretch(d + k * kstep, sb, u, end, valid, B0, S0, k - off0, K, 1);
    }
}

/* Outer axis i (components si of the long8 arguments) in s2b. */
#define S2B_AXIS(i, si)                                                                         \
    s2b_axis(o_dims.si, blocks.si, offs.si, s_dims.si, s_strides.si, &r, &valid, &src_row, &row_o, \
             &o_mul, &kflat, &k_mul)

__kernel void s2b(__global const unit_t *restrict src, ulong src_off,
                  __global unit_t *restrict dst, ulong dst_off, long8 o_dims, long8 blocks,
                  long8 offs, long8 s_dims, long8 s_strides, int m, long n_batch,
                  long batch_stride, long K, long n_rows, long items, long fuse)
{
    long lx = (long)get_local_size(0), row_units = o_dims.s0 * K, g = (long)get_global_id(1);
    long u, end;
    if (!clpad_row_start(items, row_units, g, n_rows, &u, &end))
        return;
    /* Rows in the input's order: g = (n, p(m-1), ..., p1, k0), p the padded
     * coordinate of an outer axis and k0 the innermost block offset: the B0
     * rows that read one input row (each every B0-th element of it) run one
     * after the other, and the input is read front to back (block offsets
     * outermost, as the output is laid out, would read it in passes of every
     * B-th row). */
    long r = g, k0 = 0;
    if (fuse == 1) { /* else a work-item writes the rows of every k0 */
        k0 = r % blocks.s0;
        r /= blocks.s0;
    }
    long src_row = 0, row_o = 0, o_mul = 1, kflat = k0, k_mul = blocks.s0;
    int valid = 1;
    CLPAD_OUTER_AXES(m, S2B_AXIS);
    long n = r; /* what is left of the row index */
    src_row += n * batch_stride;
    long row = (kflat * n_batch + n) * o_mul + row_o;
    __global unit_t *restrict d = dst + dst_off + row * row_units;
    __global const unit_t *restrict sb = src + src_off + src_row; /* read only where valid */
    long B0 = blocks.s0, S0 = s_dims.s0, off0 = offs.s0;
    if (lx == 1 && fuse > 1) { /* CPU: the B0 rows of one input row, read once */
        long kstep = n_batch * o_mul * row_units; /* units from one k0's row to the next */
        s2b_fused(d, sb, u, end, valid, B0, S0, off0, K, kstep);
    } else if (lx == 1) { /* CPU: one contiguous stretch */
        s2b_stretch(d, sb, u, end, valid, B0, S0, k0 - off0, K, 1);
    } else {
        s2b_stretch(d, sb, u, end, valid, B0, S0, k0 - off0, K, lx);
    }
    clpad_store_fence();
}

/* ---- batch_to_space: a work-item writes `items` vectors of a space row ---- */

/* Decode the space index of an outer axis from the row index r and add the
 * batch element it comes from: c = s + off, o = c / B, k = c % B. */
CLPAD_INLINE void b2s_axis(long s_dim, long block, long off, long o_stride, long k_stride,
                           long *r, long *src_row)
{
    long s = *r % s_dim;
    *r /= s_dim;
    long c = s + off;
    long o = c / block;
    *src_row += o * o_stride + (c - o * block) * k_stride;
}

/* `groups` whole groups of B space elements from u: element k of group g is
 * batch row k's element o + g. Blocks up to 4 are straight-line code, which
 * vectorises where B is a constant (the call sites for 2, 3 and 4): a loop
 * over k would stay a loop, since the compiler decides on unrolling it
 * before this function is inlined, and run slower (bench/README.md, design
 * measurements). */
CLPAD_INLINE void b2s_groups(__global unit_t *restrict d, __global const unit_t *restrict sb,
                             long u, long o, long groups, long B, long ks)
{
    for (long g = 0; g < groups; g++) {
        __global unit_t *restrict dg = d + u + g * B;
        __global const unit_t *restrict sg = sb + o + g;
        if (B <= 4) {
            clpad_store(sg[0], dg);
            if (B > 1)
                clpad_store(sg[ks], dg + 1);
            if (B > 2)
                clpad_store(sg[2 * ks], dg + 2);
            if (B > 3)
                clpad_store(sg[3 * ks], dg + 3);
        } else {
            for (long k = 0; k < B; k++)
                clpad_store(sg[k * ks], dg + k);
        }
    }
}

#if SB_SPLIT
/* b2s_groups for a block of 2 (CLPAD_SB_VEC): V groups at a time, one load
 * of V units from each of the two batch rows and one interleaved store. */
CLPAD_INLINE void b2s_join2(__global unit_t *restrict d, __global const unit_t *restrict sb,
                            long u, long o, long groups, long ks)
{
    long g = 0;
    for (; g + CLPAD_SB_VEC <= groups; g += CLPAD_SB_VEC) {
        sb_vec_t a = *(__global const sb_vec_t *)(sb + o + g);
        sb_vec_t b = *(__global const sb_vec_t *)(sb + o + g + ks);
        *(__global sb_vec2_t *)(d + u + 2 * g) = SB_INTERLEAVE(a, b);
    }
    b2s_groups(d, sb, u + 2 * g, o + g, groups - g, 2, ks);
}
#endif

/* Units [u, end) of space row d, every step-th (1: a contiguous stretch). */
CLPAD_INLINE void b2s_stretch(__global unit_t *restrict d, __global const unit_t *restrict sb,
                              long u, long end, long B0, long off0, long K, long ks,
                              const long step)
{
    if (B0 == 1) { /* o = s + off, k = 0: unit u reads off*K + u */
        __global const unit_t *restrict si = sb + off0 * K;
        for (; u < end; u += step)
            clpad_store(si[u], d + u);
    } else if (step == 1 && K == 1) { /* one unit per element: groups of B0, one per row */
        long c = u + off0, o = c / B0, k = c - o * B0;
        for (; k > 0 && k < B0 && u < end; k++, u++) /* up to a group's start */
            clpad_store(sb[o + k * ks], d + u);
        if (k == B0) {
            k = 0;
            o++;
        }
        long groups = (end - u) / B0;
        switch (B0) { /* common blocks as constants: the group unrolls and vectorises */
#if SB_SPLIT
        case 2: b2s_join2(d, sb, u, o, groups, ks); break;
#else
        case 2: b2s_groups(d, sb, u, o, groups, 2, ks); break;
#endif
        case 3: b2s_groups(d, sb, u, o, groups, 3, ks); break;
        case 4: b2s_groups(d, sb, u, o, groups, 4, ks); break;
        default: b2s_groups(d, sb, u, o, groups, B0, ks); break;
        }
        u += groups * B0;
        o += groups;
        for (; u < end; k++, u++) /* the last, partial group */
            clpad_store(sb[o + k * ks], d + u);
    } else if (step == 1) { /* element by element, K units each */
        long sp = u / K, c = sp + off0, o = c / B0, k = c - o * B0;
        for (; u < end; sp++) {
            long run_end = min(end, (sp + 1) * K);
            __global const unit_t *restrict se = sb + o * K + k * ks - sp * K;
            for (; u < run_end; u++)
                clpad_store(se[u], d + u);
            if (++k == B0) {
                k = 0;
                o++;
            }
        }
    } else { /* strided: unit j of space element sp */
        long sp = u / K, c = sp + off0, o = c / B0, k = c - o * B0;
        for (long j = u - sp * K; u < end; u += step) {
            clpad_store(sb[o * K + j + k * ks], d + u);
            j += step;
            if (j >= K) {
                sp += j / K;
                j %= K;
                c = sp + off0;
                o = c / B0;
                k = c - o * B0;
            }
        }
    }
}

/* Outer axis i (components si of the long8 arguments) in b2s. */
#define B2S_AXIS(i, si) \
    b2s_axis(s_dims.si, blocks.si, offs.si, o_strides.si, k_strides.si, &r, &src_row)

__kernel void b2s(__global const unit_t *restrict src, ulong src_off,
                  __global unit_t *restrict dst, ulong dst_off, long8 s_dims, long8 blocks,
                  long8 offs, long8 o_strides, long8 k_strides, int m, long n_stride, long K,
                  long n_rows, long items)
{
    long lx = (long)get_local_size(0), row_units = s_dims.s0 * K, row = (long)get_global_id(1);
    long u, end;
    if (!clpad_row_start(items, row_units, row, n_rows, &u, &end))
        return;
    long r = row, src_row = 0;
    CLPAD_OUTER_AXES(m, B2S_AXIS);
    src_row += r * n_stride; /* what is left of the row index is n */
    __global unit_t *restrict d = dst + dst_off + row * row_units;
    __global const unit_t *restrict sb = src + src_off + src_row;
    long B0 = blocks.s0, off0 = offs.s0, ks = k_strides.s0;
    if (lx == 1) /* CPU: one contiguous stretch */
        b2s_stretch(d, sb, u, end, B0, off0, K, ks, 1);
    else
        b2s_stretch(d, sb, u, end, B0, off0, K, ks, lx);
    clpad_store_fence();
}
