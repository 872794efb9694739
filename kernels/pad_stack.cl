/* Pad-and-stack (docs/letterbox.md, "Pad-and-stack"): N tensors of one rank
 * and different shapes, each Pad-ed (docs/spec.md, "Pad") into its slice
 * [S_0, ..., S_(r-1)] of one output [N, S...]. A pure data movement.
 *
 * One program per unit size, built with -DCLPAD_UNIT_BYTES=1|2|4|8
 * (kernels/common.cl; the dtype's size); the pad mode is an argument. Each
 * tensor is described by 16 longs in `desc`: its offset in `src` (units),
 * its shape D[0..6] and its pads_begin b[0..6], axes outermost first. The
 * output is walked as rows of S_(r-1) units (rank 0: rows of one unit):
 * dimension 1 of the NDRange takes the rows of the whole batch, tensor by
 * tensor; dimension 0 a row in vectors of CLPAD_UNITS_PER_16B units, each
 * work-item handling `items` of them (the host's launch geometry,
 * host/device/launch.c; on CPUs one contiguous stretch). A row either lies in the
 * padding on an outer axis (filled), or reads one source row through the
 * coordinate rule of kernels/coords.h on every axis; in constant mode the
 * inner axis is fill, a contiguous copy and fill.
 *
 * Constant mode's values come one per side of each axis (vb: before, va:
 * after, the bits of one element, axes outermost first; one pad value is
 * every side's): numpy.pad's per-side constant_values, the rule of Pad's
 * side_values (kernels/pad_numpy.cl, `sides`): an element in the padding
 * takes the value of the last axis (the innermost) whose pad holds it. A
 * row in the padding of an outer axis takes the innermost such axis' value
 * between the inner axis' pads, which take the inner axis' values.
 */

#ifndef CLPAD_UNIT_BYTES
#error "pad_stack.cl needs -DCLPAD_UNIT_BYTES=1, 2, 4 or 8"
#endif

/* Longs per tensor in desc. */
#define PS_DESC 16

CLPAD_INLINE void ps_fill(__global unit_t *restrict d, long x0, long x1, long step, unit_t v)
{
    for (long x = x0; x < x1; x += step)
        d[x] = v;
}

/* Units [x0, x1) of a row (every step-th) whose source row starts at s;
 * constant mode: vl before the data, vr after it, and vo in the data's
 * columns when an outer axis puts the row in its padding (valid 0). */
CLPAD_INLINE void ps_stretch(__global unit_t *restrict d, __global const unit_t *restrict s,
                             int valid, int mode, long b, long D, long x0, long x1, long step,
                             unit_t vo, unit_t vl, unit_t vr)
{
    if (mode == CLPAD_COORD_CONSTANT) {
        long lo = clamp(b, x0, x1), hi = clamp(b + D, lo, x1);
        if (step > 1) { /* strided: map each unit */
            for (long x = x0; x < x1; x += step)
                d[x] = x < lo ? vl : x >= hi ? vr : valid ? s[x - b] : vo;
            return;
        }
        ps_fill(d, x0, lo, 1, vl);
        if (valid) {
            __global const unit_t *restrict sb = s - b;
            for (long x = lo; x < hi; x++)
                d[x] = sb[x];
        } else {
            ps_fill(d, lo, hi, 1, vo);
        }
        ps_fill(d, hi, x1, 1, vr);
    } else {
        for (long x = x0; x < x1; x += step)
            d[x] = s[clpad_coord_map(mode, x - b, D)];
    }
}

__kernel void pad_stack(__global const unit_t *restrict src, __global const long *restrict desc,
                        __global unit_t *restrict dst, ulong dst_off, long8 S, int rank,
                        int mode, ulong8 vb, ulong8 va, long row_len, long rows_per_tensor,
                        long n_rows, long items)
{
    long row = get_global_id(1);
    if (row >= n_rows)
        return;
    long n = row / rows_per_tensor, rr = row - n * rows_per_tensor;
    __global const long *restrict t = desc + n * PS_DESC;
    long Sa[8] = {S.s0, S.s1, S.s2, S.s3, S.s4, S.s5, S.s6, S.s7};
    /* the outer axes, innermost first: source row and validity */
    int r = rank > 0 ? rank : 1;
    long D_in = rank > 0 ? t[1 + r - 1] : 1, b_in = rank > 0 ? t[8 + r - 1] : 0;
    long srow = t[0], stride = D_in;
    int valid = 1;
    ulong vo = 0; /* the value of the innermost outer axis padding the row */
    ulong Vb[8] = {vb.s0, vb.s1, vb.s2, vb.s3, vb.s4, vb.s5, vb.s6, vb.s7};
    ulong Va[8] = {va.s0, va.s1, va.s2, va.s3, va.s4, va.s5, va.s6, va.s7};
    for (int k = r - 2; k >= 0; k--) {
        long o = rr % Sa[k];
        rr /= Sa[k];
        long m = clpad_coord_map(mode, o - t[8 + k], t[1 + k]);
        if (valid && m < 0)
            vo = o - t[8 + k] < 0 ? Vb[k] : Va[k];
        valid &= m >= 0;
        srow += m * stride;
        stride *= t[1 + k];
    }
    unit_t vl = (unit_t)Vb[r - 1], vr = (unit_t)Va[r - 1];
    __global unit_t *restrict d = dst + dst_off + row * row_len;
    __global const unit_t *restrict s = src + srow;
    long lx = get_local_size(0), lid = get_local_id(0);
    long vec = CLPAD_UNITS_PER_16B;
    long first = get_group_id(0) * lx * items * vec;
    if (lx == 1) { /* CPUs: one contiguous stretch */
        long x1 = min(first + items * vec, row_len);
        if (first < x1)
            ps_stretch(d, s, valid, mode, b_in, D_in, first, x1, 1, (unit_t)vo, vl, vr);
    } else { /* `items` vectors strided by the local size, unit by unit */
        long x0 = first + lid, x1 = min(first + lx * items * vec, row_len);
        ps_stretch(d, s, valid, mode, b_in, D_in, x0, x1, lx, (unit_t)vo, vl, vr);
    }
}
