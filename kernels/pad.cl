/* Pad (docs/spec.md, "Pad": OpenVINO Pad-12 plus wrap).
 *
 * One program per pad mode and unit size, built with one of
 * -DCLPAD_PAD_CONSTANT, -DCLPAD_PAD_EDGE, -DCLPAD_PAD_REFLECT,
 * -DCLPAD_PAD_SYMMETRIC, -DCLPAD_PAD_WRAP, the large-pad mirrors
 * -DCLPAD_PAD_REFLECT_NUMPY and -DCLPAD_PAD_SYMMETRIC_NUMPY (numpy.pad's
 * repeated reflection), optionally -DCLPAD_PAD_OUTER_MODES (mixed modes,
 * see OUTER_MODE), and -DCLPAD_UNIT_BYTES=1|2|4|8
 * (kernels/common.cl). Its one kernel, `pad`, moves units of that size: Pad
 * is a pure copy, and the pad value arrives as the raw bytes of one unit.
 *
 * The host (host/ops/pad/cl.c) collapses unpadded axes and passes the tensor as
 * rows: the innermost padded axis ("row") and up to 7 outer axes, given
 * innermost-first in the components s0..s6 of long8 arguments (strides in
 * units). The NDRange is 2-D: dimension 0 walks a row, a work-group covering
 * lx * items * CLPAD_UNITS_PER_16B units of it (the host's launch geometry,
 * host/device/launch.c), dimension 1 walks the rows. The copies are plain loops over
 * restrict pointers, which the compiler vectorises (on CPUs a work-item owns
 * a contiguous stretch); on CPUs, rows that lie inside the input on the outer
 * axes run back to back, and short ones go through a lean loop (borders from
 * a per-work-item map, the interior in overlapping 32/64-byte moves). Global
 * sizes are rounded up to the work-group size, so every work-item checks its
 * bounds first. All index math is 64-bit, on values the host has proven in
 * range (host/ops/pad/plan.c, clpad__pad_plan_check).
 */

#if defined(CLPAD_PAD_CONSTANT)
#define PAD_MODE CLPAD_COORD_CONSTANT
#elif defined(CLPAD_PAD_EDGE)
#define PAD_MODE CLPAD_COORD_EDGE
#elif defined(CLPAD_PAD_REFLECT)
#define PAD_MODE CLPAD_COORD_REFLECT
#elif defined(CLPAD_PAD_SYMMETRIC)
#define PAD_MODE CLPAD_COORD_SYMMETRIC
#elif defined(CLPAD_PAD_WRAP)
#define PAD_MODE CLPAD_COORD_WRAP
#elif defined(CLPAD_PAD_REFLECT_NUMPY)
#define PAD_MODE CLPAD_COORD_REFLECT_NUMPY
#elif defined(CLPAD_PAD_SYMMETRIC_NUMPY)
#define PAD_MODE CLPAD_COORD_SYMMETRIC_NUMPY
#else
#error "Unsupported pad mode: build with -DCLPAD_PAD_CONSTANT, _EDGE, _REFLECT, _SYMMETRIC, _WRAP, _REFLECT_NUMPY or _SYMMETRIC_NUMPY"
#endif

/* The mode of outer axis k (0: the innermost outer axis). One program per
 * mode serves the calls whose padded axes share it: every axis has
 * PAD_MODE. Calls that mix modes build with -DCLPAD_PAD_OUTER_MODES: the
 * innermost axis keeps PAD_MODE (compile time), the outer axes read theirs
 * from the kernel argument o_modes, 4 bits each. */
#if defined(CLPAD_PAD_OUTER_MODES) && defined(CLPAD_NO_NARROW_SWITCH)
/* The same field, sign-extended (modes are 0..6: bit 3 is clear), for a
 * device whose compiler output the masked form breaks (the quirk
 * no-narrow-switch, host/device/quirks.c): with the high bits known to be
 * zero the compiler narrows the switch of clpad_coord_map to a 4-bit
 * integer, which that device compares with the higher fields still in it. */
#define OUTER_MODE(k) (((int)(o_modes << (28 - 4 * (k)))) >> 28)
#elif defined(CLPAD_PAD_OUTER_MODES)
#define OUTER_MODE(k) ((int)((o_modes >> (4 * (k))) & 15u))
#else
#define OUTER_MODE(k) PAD_MODE
#endif
/* Whether the row's border can step from one source unit to the next
 * (clpad_coord_step); the _numpy mirrors turn, so they map every unit. */
#define PAD_MODE_STEPS (PAD_MODE != CLPAD_COORD_REFLECT_NUMPY && PAD_MODE != CLPAD_COORD_SYMMETRIC_NUMPY)
#ifndef CLPAD_UNIT_BYTES
#error "pad.cl needs -DCLPAD_UNIT_BYTES=1, 2, 4 or 8"
#endif

/* Border units per side that CPU devices map once per work-item. */
#define PAD_BMAP_SIDE 8
/* Border elements of at least this many bytes are copied element by element
 * in a plain loop (which vectorises) rather than unit by unit. */
#define PAD_WIDE_ELEMENT_BYTES 64

/* Source coordinate of padded coordinate c on an axis of size D
 * (kernels/coords.h); -1 for constant padding. */
CLPAD_INLINE long pad_map(long c, long D) { return clpad_coord_map(PAD_MODE, c, D); }

/* Decode one outer axis from r (the row index divided by the axes inside
 * it): its padded index, then its source row offset and validity. `mode`
 * is a constant unless the program mixes modes. */
CLPAD_INLINE void pad_outer_axis(int mode, long o_dim, long i_dim, long o_pb, long i_stride,
                                 long *r, long *src, int *valid)
{
    long o = *r % o_dim;
    *r /= o_dim;
    long m = clpad_coord_map(mode, o - o_pb, i_dim);
    *valid &= (m >= 0);
    *src += m * i_stride;
}

/* Units [u, lim), every lx-th, set to value / copied from si (indexed like
 * d); return where they stopped (lim, or u when the stretch is empty). The
 * CPU geometry's lx == 1 gets a loop of its own that steps by a constant 1:
 * it vectorises also where the driver does not compile the kernel for each
 * local size (Intel's CPU runtime; PoCL does, and folds the branch). */
CLPAD_INLINE long pad_fill(__global unit_t *restrict d, long u, long lim, long lx, unit_t value)
{
    if (lx == 1) {
        for (; u < lim; u++)
            d[u] = value;
    } else {
        for (; u < lim; u += lx)
            d[u] = value;
    }
    return u;
}
CLPAD_INLINE long pad_copy(__global unit_t *restrict d, __global const unit_t *restrict si,
                           long u, long lim, long lx)
{
    if (lx == 1) {
        for (; u < lim; u++)
            d[u] = si[u];
    } else {
        for (; u < lim; u += lx)
            d[u] = si[u];
    }
    return u;
}

/* Padding units [u, lim) of the current row, every lx-th; returns lim (or u
 * when the stretch is empty). Constant mode fills; the others map the
 * element o = u / K. On CPU devices (lx == 1) the border is one stretch:
 * single-unit elements map the first and then step (clpad_coord_step),
 * wider ones map each element as the stretch reaches it (a stepped form of
 * that loop is slower: bench/README.md, design measurements), elements of
 * PAD_WIDE_ELEMENT_BYTES or more
 * as one copy loop each; with lx > 1 each unit's element is mapped, dividing
 * only when u crosses into the next element. */
CLPAD_INLINE long pad_border(__global unit_t *restrict d, __global const unit_t *restrict s,
                             long u, long lim, long lx, long K, long row_pb, long row_in,
                             unit_t value)
{
    if (PAD_MODE == CLPAD_COORD_CONSTANT) {
        u = pad_fill(d, u, lim, lx, value);
    } else if (PAD_MODE_STEPS && lx == 1 && K == 1 && u < lim) {
        long m = pad_map(u - row_pb, row_in);
        for (; u < lim; u++) {
            d[u] = s[m];
            m += clpad_coord_step(PAD_MODE);
            if (PAD_MODE == CLPAD_COORD_WRAP && m == row_in)
                m = 0;
        }
    } else if (lx == 1 && u < lim && K * (long)sizeof(unit_t) >= PAD_WIDE_ELEMENT_BYTES) {
        /* Wide elements (e.g. whole rows of an NCHW plane padded on an
         * outer axis): each element's units as one plain copy loop. */
        for (long o = u / K; u < lim; o++) {
            long e = min(lim, (o + 1) * K);
            __global const unit_t *restrict se = s + (pad_map(o - row_pb, row_in) - o) * K;
            for (; u < e; u++)
                d[u] = se[u];
        }
    } else if (lx == 1 && u < lim) {
        long o = u / K, j = u - o * K;
        long m = pad_map(o - row_pb, row_in) * K;
        for (; u < lim; u++) {
            d[u] = s[m + j];
            if (++j == K) {
                j = 0;
                m = pad_map(++o - row_pb, row_in) * K;
            }
        }
    } else if (K == 1) {
        CLPAD_SHORT_LOOP
        for (; u < lim; u += lx)
            d[u] = s[pad_map(u - row_pb, row_in)];
    } else if (u < lim) {
        long o = u / K, j = u - o * K;
        long m = pad_map(o - row_pb, row_in);
        for (; u < lim; u += lx) {
            d[u] = s[m * K + j];
            j += lx;
            if (j >= K) {
                o += j / K;
                j %= K;
                m = pad_map(o - row_pb, row_in);
            }
        }
    }
    return u;
}

/* Interior units [u, lim) from si (the source, indexed like d) with
 * streaming stores on CPU devices, when the host asked for them (nt_min > 0:
 * the shortest stretch, in units, worth it) and the stretch is that long;
 * returns where it stopped (the caller copies the rest). */
CLPAD_INLINE long pad_interior_nt(__global unit_t *restrict d, __global const unit_t *restrict si,
                                  long u, long lim, long lx, long nt_min)
{
#if CLPAD_HAVE_NT
    if (lx == 1 && nt_min > 0 && lim - u >= nt_min) {
        for (; u < lim && ((ulong)(d + u) & 63); u++) /* up to a cache line's start */
            d[u] = si[u];
        /* The source at any alignment: a vector type aligned to 1 byte (a
         * vloadN call returns its vector by value, which x86 compilers warn
         * about on every build). */
        typedef unit_vec_t unaligned_vec_t __attribute__((aligned(1)));
        long n = (lim - u) / CLPAD_UNITS_PER_VEC;
        __global unit_vec_t *dv = (__global unit_vec_t *)(d + u);
        __global const unaligned_vec_t *sv = (__global const unaligned_vec_t *)(si + u);
        for (long i = 0; i < n; i++) {
            unit_vec_t v = sv[i]; /* the aligned type: the store's alignment is the value's */
            __builtin_nontemporal_store(v, dv + i);
        }
        clpad_nt_fence();
        u += n * CLPAD_UNITS_PER_VEC;
    }
#endif
    return u;
}

/* The interior of a lean row, ibytes bytes: two overlapping moves of
 * `half` bytes (32 or 64) for the size classes (32, 64] and (64, 128], else
 * clpad_bytes_copy's loop. `half` is a constant at every call site. */
CLPAD_INLINE void pad_lean_interior(__global uchar *dp, __global const uchar *sp, long ibytes,
                                    const int half_bytes)
{
    if (half_bytes == 32) {
        clpad_move32(dp, sp);
        clpad_move32(dp + (ibytes - 32), sp + (ibytes - 32));
    } else if (half_bytes == 64) {
        clpad_move64(dp, sp);
        clpad_move64(dp + (ibytes - 64), sp + (ibytes - 64));
    } else {
        clpad_bytes_copy(dp, sp, ibytes);
    }
}

/* `run` whole rows on a CPU device, rows d and s stepping by row_units and
 * i_stride: the interior [ilo, ihi) as pad_lean_interior, then the borders
 * (at most PAD_BMAP_SIDE units each side, read through bmap or the pad
 * value). one_each: exactly one unit each side, kept in registers. The
 * choices are made once per work-item (`half` and `one_each` are constants
 * at each call site), since per-row bookkeeping is what limits short rows
 * (56 f16 elements are common). */
CLPAD_INLINE void pad_lean_rows(__global unit_t *d, __global const unit_t *s, long run,
                                long ilo, long ihi, long in_lo, long in_hi, long row_units,
                                long i_stride, long ibytes, const long *bmap, unit_t value,
                                const int half_bytes, const int one_each)
{
    const int const_mode = PAD_MODE == CLPAD_COORD_CONSTANT;
    long soff = ilo - in_lo; /* the interior's first source unit, from s */
    if (one_each) { /* then in_lo == 1 and in_hi == ihi */
        long b0 = const_mode ? 0 : bmap[0], b1 = const_mode ? 0 : bmap[PAD_BMAP_SIDE];
        for (; run > 0; run--, d += row_units, s += i_stride) {
            pad_lean_interior((__global uchar *)(d + ilo), (__global const uchar *)(s + soff),
                              ibytes, half_bytes);
            d[0] = const_mode ? value : s[b0];
            d[ihi] = const_mode ? value : s[b1];
        }
    } else {
        for (; run > 0; run--, d += row_units, s += i_stride) {
            pad_lean_interior((__global uchar *)(d + ilo), (__global const uchar *)(s + soff),
                              ibytes, half_bytes);
            CLPAD_SHORT_LOOP
            for (long v = 0; v < ilo; v++)
                d[v] = const_mode ? value : s[bmap[v]];
            CLPAD_SHORT_LOOP
            for (long v = ihi; v < row_units; v++)
                d[v] = const_mode ? value : s[bmap[PAD_BMAP_SIDE + v - in_hi]];
        }
    }
}

/* pad_lean_rows with its size class chosen; one_each a constant. */
CLPAD_INLINE void pad_lean_sized(__global unit_t *d, __global const unit_t *s, long run, long ilo,
                                 long ihi, long in_lo, long in_hi, long row_units, long i_stride,
                                 long ibytes, const long *bmap, unit_t value, const int one_each)
{
    if (ibytes <= 64)
        pad_lean_rows(d, s, run, ilo, ihi, in_lo, in_hi, row_units, i_stride, ibytes, bmap,
                      value, 32, one_each);
    else if (ibytes <= 128)
        pad_lean_rows(d, s, run, ilo, ihi, in_lo, in_hi, row_units, i_stride, ibytes, bmap,
                      value, 64, one_each);
    else
        pad_lean_rows(d, s, run, ilo, ihi, in_lo, in_hi, row_units, i_stride, ibytes, bmap,
                      value, 0, one_each);
}

/* pad_lean_rows with its size class and border shape chosen once. */
CLPAD_INLINE void pad_lean(__global unit_t *d, __global const unit_t *s, long run, long ilo,
                           long ihi, long in_lo, long in_hi, long row_units, long i_stride,
                           long ibytes, const long *bmap, unit_t value)
{
    if (ilo == 1 && row_units - ihi == 1)
        pad_lean_sized(d, s, run, ilo, ihi, in_lo, in_hi, row_units, i_stride, ibytes, bmap,
                       value, 1);
    else
        pad_lean_sized(d, s, run, ilo, ihi, in_lo, in_hi, row_units, i_stride, ibytes, bmap,
                       value, 0);
}

/* The rows of one work-item. A row holds row_out elements of the innermost
 * padded axis; each element is K consecutive units (trailing unpadded axes
 * collapsed into it, e.g. the channels of an NHWC image). A work-group
 * covers lx * items * CLPAD_UNITS_PER_16B units of a row, and a work-item
 * rows_per_item consecutive rows; work-item lid takes every lx-th unit
 * (lx == 1 on CPUs: one contiguous stretch per row). Each stretch splits
 * into the padding before the input, the input's interior (a plain copy)
 * and the padding after it. Consecutive rows share their outer coordinates
 * but the innermost outer one, which is all that is decoded again per row.
 * Inlined twice by the kernel: with K == 1 (a constant) and with any K. The
 * long8 arguments come by pointer: by value, x86 compilers warn that such
 * vectors change the ABI of a call (which inlining removes anyway). */
/* Outer axis i (components si of the long8 arguments) in pad_rows. */
#define PAD_OUTER_AXIS(i, si)                                                                 \
    pad_outer_axis(OUTER_MODE(i), o_dims->si, i_dims->si, o_pb->si, i_strides->si, &r, &src_hi, \
                   &valid_hi)

CLPAD_INLINE void pad_rows(__global const unit_t *restrict src, ulong src_off,
                           __global unit_t *restrict dst, ulong dst_off, unit_t value,
                           const long8 *o_dims, const long8 *i_dims, const long8 *o_pb,
                           const long8 *i_strides, int n_outer,
                           long row_out, long row_in, long row_pb, long K, long n_rows,
                           long items, long rows_per_item, long nt_min, uint o_modes)
{
    long lx = (long)get_local_size(0), row_units = row_out * K, u_first, end;
    long row0 = (long)get_global_id(1) * rows_per_item;
    if (!clpad_row_start(items, row_units, row0, n_rows, &u_first, &end))
        return;
    long row_end = min(row0 + rows_per_item, n_rows);
    long in_lo = row_pb * K, in_hi = in_lo + row_in * K; /* the interior, in units */
    /* CPU devices (lx == 1), modes that read the input: short borders read
     * it through a map made once per work-item (unit offsets from the row's
     * source), not through pad_map per unit. */
    long bmap[2 * PAD_BMAP_SIDE];
    int short_b = PAD_MODE != CLPAD_COORD_CONSTANT && lx == 1 && in_lo <= PAD_BMAP_SIDE &&
                  row_units - in_hi <= PAD_BMAP_SIDE;
    if (short_b) {
        for (long v = 0; v < min(in_lo, row_units); v++)
            bmap[v] = pad_map(v / K - row_pb, row_in) * K + v % K;
        for (long v = max(in_hi, 0L); v < row_units; v++)
            bmap[PAD_BMAP_SIDE + v - in_hi] = pad_map(v / K - row_pb, row_in) * K + v % K;
    }
    /* The lean row loop: whole rows on a CPU device, borders of at most
     * PAD_BMAP_SIDE units (mapped above, or the pad value), [ilo, ihi) read
     * from the input (32 to 512 bytes), no streaming stores. */
    long ilo = max(in_lo, 0L), ihi = min(in_hi, row_units);
    long ibytes = (ihi - ilo) * (long)sizeof(unit_t);
    int lean = (PAD_MODE == CLPAD_COORD_CONSTANT || short_b) && lx == 1 && u_first == 0 &&
               end == row_units && ilo <= PAD_BMAP_SIDE && row_units - ihi <= PAD_BMAP_SIDE &&
               ibytes >= 32 && ibytes <= 512 && (nt_min == 0 || ihi - ilo < nt_min);
    long hi_prev = -1, src_hi = 0;
    int valid_hi = 1;
    long od = o_dims->s0, hi = row0 / od, o0 = row0 - hi * od;
    /* wrap: the first rows of a plane (innermost outer axis) read its last
     * input rows, a jump ahead that breaks the hardware's prefetch stream;
     * they go after the plane's other rows, when those input rows were just
     * read. Rows [0, d_lo) of each plane are deferred. */
    long d_lo = (OUTER_MODE(0) == CLPAD_COORD_WRAP && n_outer > 0 && o_pb->s0 > 0) ? o_pb->s0 : 0;
    for (long row_p = row0; row_p < row_end; hi++, o0 = 0) { /* one plane's part */
        long o_end = min(od, o0 + (row_end - row_p)), plane_row = row_p - o0;
        row_p += o_end - o0;
        for (int part = 0; part < 2; part++) {
            long o_a = part ? o0 : max(o0, d_lo), o_b = part ? min(o_end, d_lo) : o_end;
            for (long o = o_a; o < o_b;) {
                long src_row = 0, run = 1;
                int valid = 1;
                if (n_outer > 0) {
                    if (hi != hi_prev) { /* the outer axes above the innermost one */
                        long r = hi;
                        src_hi = 0;
                        valid_hi = 1;
                        CLPAD_OUTER_AXES(n_outer, PAD_OUTER_AXIS);
                        hi_prev = hi;
                    }
                    long c = o - o_pb->s0, m = clpad_coord_map(OUTER_MODE(0), c, i_dims->s0);
                    valid = valid_hi & (m >= 0);
                    src_row = src_hi + m * i_strides->s0;
                    if (valid && m == c) /* rows inside the input: one source row after another */
                        run = min(o_b, o_pb->s0 + i_dims->s0) - o;
                }
                __global unit_t *restrict d = dst + dst_off + (plane_row + o) * row_units;
                __global const unit_t *restrict s = src + src_off + src_row;
                o += run;
                if (!valid) {
                    pad_fill(d, u_first, end, lx, value);
                    continue;
                }
                if (lean) { /* CPU, whole short rows */
                    pad_lean(d, s, run, ilo, ihi, in_lo, in_hi, row_units, i_strides->s0, ibytes,
                             bmap, value);
                    continue;
                }
                for (; run > 0; run--, d += row_units, s += i_strides->s0) {
                    long u = u_first;
                    if (short_b) {
                        for (; u < min(end, in_lo); u++)
                            d[u] = s[bmap[u]];
                    } else {
                        u = pad_border(d, s, u, min(end, in_lo), lx, K, row_pb, row_in, value);
                    }
                    long lim = min(end, in_hi);
                    __global const unit_t *restrict si = s - in_lo;
                    u = pad_interior_nt(d, si, u, lim, lx, nt_min);
                    u = pad_copy(d, si, u, lim, lx);
                    if (short_b) {
                        for (; u < end; u++)
                            d[u] = s[bmap[PAD_BMAP_SIDE + u - in_hi]];
                    } else {
                        pad_border(d, s, u, end, lx, K, row_pb, row_in, value);
                    }
                }
            }
        }
    }
}

__kernel void pad(__global const unit_t *restrict src, ulong src_off,
                  __global unit_t *restrict dst, ulong dst_off, unit_t value, long8 o_dims,
                  long8 i_dims, long8 o_pb, long8 i_strides, int n_outer, long row_out,
                  long row_in, long row_pb, long K, long n_rows, long items,
                  long rows_per_item, long nt_min, uint o_modes)
{
    if (K == 1) /* the common case, specialised: one unit per element */
        pad_rows(src, src_off, dst, dst_off, value, &o_dims, &i_dims, &o_pb, &i_strides, n_outer,
                 row_out, row_in, row_pb, 1, n_rows, items, rows_per_item, nt_min, o_modes);
    else
        pad_rows(src, src_off, dst, dst_off, value, &o_dims, &i_dims, &o_pb, &i_strides, n_outer,
                 row_out, row_in, row_pb, K, n_rows, items, rows_per_item, nt_min, o_modes);
}
