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
 * compiler vectorises (on CPUs a work-item owns a contiguous stretch); on
 * CPUs, rows that lie inside the input on the outer axes run back to back,
 * and short ones go through a lean loop (borders from a per-work-item map,
 * the interior in overlapping 32/64-byte moves). Global sizes are rounded up
 * to the work-group size, so every work-item checks its bounds first. All
 * index math is 64-bit.
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
    return c < 0 ? -c : (D - 1) - (c - (D - 1)); /* 2(D-1) - c without overflow */
#elif PAD_MODE == 3
    return c < 0 ? -c - 1 : (D - 1) - (c - D); /* 2D - 1 - c */
#elif PAD_MODE == 4
    if (c < 0 && c >= -D) /* one period away, the common case: no division */
        return c + D;
    if (c >= D && c - D < D)
        return c - D;
    long m = c % D;
    return m < 0 ? m + D : m;
#else
    return -1;
#endif
}

/* Decode outer axis K (component COMP of the long8s) from r, the row index
 * divided by the innermost outer axis. */
#define CLPAD_OUTER_AXIS(K, COMP)                                   \
    if (K < n_outer) {                                              \
        long od_ = o_dims.COMP;                                     \
        long o_ = r % od_;                                          \
        r /= od_;                                                   \
        long m_ = clpad_map(o_ - o_pb.COMP, i_dims.COMP);           \
        valid_hi &= (m_ >= 0);                                      \
        src_hi += m_ * i_strides.COMP;                              \
    }


/* The step of the source element as the padded coordinate grows by one,
 * inside one border (SPEC §1's table): the mirrors walk back, edge stays,
 * wrap walks forward and starts over at D. The host's limits keep a mirror
 * border within one reflection. */
#define CLPAD_STEP (PAD_MODE == 1 ? 0 : PAD_MODE == 4 ? 1 : -1)

/* Padding units [u, lim) of the current row, every lx-th: constant fills;
 * the other modes map the element o = u / K. On CPU devices (lx == 1) the
 * border is one stretch: single-unit elements map the first and then step
 * (CLPAD_STEP), wider ones map each element as the stretch reaches it (a
 * stepped form of that loop measured 0.58-0.78x); with lx > 1 each unit's
 * element is mapped, dividing only when u crosses into the next element. */
#define CLPAD_BORDER_LOOP(lim)                                                               \
    if (PAD_MODE == 0) {                                                                     \
        for (; u < (lim); u += lx)                                                           \
            d[u] = value;                                                                    \
    } else if (lx == 1 && K == 1 && u < (lim)) {                                             \
        long m = clpad_map(u - row_pb, row_in);                                              \
        for (; u < (lim); u++) {                                                             \
            d[u] = s[m];                                                                     \
            m += CLPAD_STEP;                                                                 \
            if (PAD_MODE == 4 && m == row_in)                                                \
                m = 0;                                                                       \
        }                                                                                    \
    } else if (lx == 1 && u < (lim)) {                                                       \
        long o = u / K, j = u - o * K;                                                       \
        long m = clpad_map(o - row_pb, row_in) * K;                                          \
        for (; u < (lim); u++) {                                                             \
            d[u] = s[m + j];                                                                 \
            if (++j == K) {                                                                  \
                j = 0;                                                                       \
                m = clpad_map(++o - row_pb, row_in) * K;                                     \
            }                                                                                \
        }                                                                                    \
    } else if (K == 1) {                                                                     \
        CLPAD_SHORT_LOOP                                                                     \
        for (; u < (lim); u += lx)                                                           \
            d[u] = s[clpad_map(u - row_pb, row_in)];                                         \
    } else if (u < (lim)) {                                                                  \
        long o = u / K, j = u - o * K;                                                       \
        long m = clpad_map(o - row_pb, row_in);                                              \
        for (; u < (lim); u += lx) {                                                         \
            d[u] = s[m * K + j];                                                             \
            j += lx;                                                                         \
            if (j >= K) {                                                                    \
                o += j / K;                                                                  \
                j %= K;                                                                      \
                m = clpad_map(o - row_pb, row_in);                                           \
            }                                                                                \
        }                                                                                    \
    }

/* Non-temporal stores, on CPU devices (the host builds with -DCLPAD_NT=1):
 * a long interior stretch of a large output is written in whole 64-byte
 * lines without the cache first reading them in (read-for-ownership), as
 * memcpy does for large copies. The host passes nt_min, the shortest
 * stretch (in units of T) worth it, or 0 for plain stores. */
#if defined(CLPAD_NT) && defined(__clang__)
#define CLPAD_NT_COPY(T, NV, N)                                                              \
    if (lx == 1 && nt_min > 0 && lim - u >= nt_min) {                                        \
        for (; u < lim && ((ulong)(d + u) & 63); u++) /* up to a line boundary */            \
            d[u] = si[u];                                                                    \
        long n_ = (lim - u) / N;                                                             \
        __global NV *dv_ = (__global NV *)(d + u);                                           \
        __global const T *sv_ = si + u;                                                      \
        for (long i_ = 0; i_ < n_; i_++)                                                     \
            __builtin_nontemporal_store(vload##N(i_, sv_), dv_ + i_);                        \
        CLPAD_NT_FENCE;                                                                      \
        u += n_ * N;                                                                         \
    }
#else
#define CLPAD_NT_COPY(T, NV, N)
#endif

/* Border units per side that CPU devices map once per work-item. */
#define CLPAD_BMAP_SIDE 8

/* The lean loop's rows: `run` rows, each an interior of ibytes bytes from
 * sp to dp, then the statements in `...` (the borders, which step their own
 * pointers). The interior's copy is chosen once per work-item: two
 * overlapping moves of 32 or 64 bytes (the 1-byte-aligned vector types of
 * CLPAD_BMOVE) for the size classes (32, 64] and (64, 128], else
 * CLPAD_BYTES_COPY's loop. */
#define CLPAD_LEAN_HALVES(B)                                                                 \
    CLPAD_BMOVE(B, dp, sp);                                                                  \
    CLPAD_BMOVE(B, dp + (ibytes - B), sp + (ibytes - B));
#define CLPAD_LEAN_ROWS(...)                                                                 \
    if (ibytes <= 64) {                                                                      \
        for (; run > 0; run--, dp += db, sp += sb) {                                         \
            CLPAD_LEAN_HALVES(32) __VA_ARGS__                                                \
        }                                                                                    \
    } else if (ibytes <= 128) {                                                              \
        for (; run > 0; run--, dp += db, sp += sb) {                                         \
            CLPAD_LEAN_HALVES(64) __VA_ARGS__                                                \
        }                                                                                    \
    } else {                                                                                 \
        for (; run > 0; run--, dp += db, sp += sb) {                                         \
            CLPAD_BYTES_COPY(dp, sp, ibytes) __VA_ARGS__                                     \
        }                                                                                    \
    }

/* The rows of one work-item (CLPAD_DEFINE_PAD's body; K: units per element). */
#define CLPAD_PAD_BODY(T, VEC, NV, N)                                                        \
    long lx = (long)get_local_size(0);                                                       \
    long base = (long)get_group_id(0) * lx * items * VEC;                                    \
    long u_first = base + (long)get_local_id(0);                                             \
    long row_units = row_out * K;                                                            \
    long row0 = (long)get_global_id(1) * rows_per_item;                                      \
    if (row0 >= n_rows || u_first >= row_units)                                              \
        return;                                                                              \
    long row_end = min(row0 + rows_per_item, n_rows);                                        \
    long end = min(base + lx * items * VEC, row_units);                                      \
    long in_lo = row_pb * K, in_hi = in_lo + row_in * K; /* the interior, in units */        \
    /* CPU devices (lx == 1), modes that read the input: short borders read it \
     * through a map made once per work-item (unit offsets from the row's      \
     * source), not through clpad_map per unit. */                             \
    long bmap[2 * CLPAD_BMAP_SIDE];                                                          \
    int short_b = PAD_MODE != 0 && lx == 1 && in_lo <= CLPAD_BMAP_SIDE &&                    \
                  row_units - in_hi <= CLPAD_BMAP_SIDE;                                      \
    if (short_b) {                                                                           \
        for (long v = 0; v < min(in_lo, row_units); v++)                                     \
            bmap[v] = clpad_map(v / K - row_pb, row_in) * K + v % K;                         \
        for (long v = max(in_hi, 0L); v < row_units; v++)                                    \
            bmap[CLPAD_BMAP_SIDE + v - in_hi] = clpad_map(v / K - row_pb, row_in) * K + v % K; \
    }                                                                                        \
    /* The lean row loop: whole rows on a CPU device, borders of at most        \
     * CLPAD_BMAP_SIDE units (mapped above, or the pad value), [ilo, ihi) read  \
     * from the input (32 to 512 bytes), no non-temporal stores. Short rows     \
     * (56 f16 elements) are common, and per-row bookkeeping is what limits     \
     * them. */                                                                 \
    long ilo = max(in_lo, 0L), ihi = min(in_hi, row_units);                                  \
    long ibytes = (ihi - ilo) * (long)sizeof(T);                                             \
    int lean = (PAD_MODE == 0 || short_b) && lx == 1 && u_first == 0 && end == row_units &&  \
               ilo <= CLPAD_BMAP_SIDE && row_units - ihi <= CLPAD_BMAP_SIDE &&               \
               ibytes >= 32 && ibytes <= 512 && (nt_min == 0 || ihi - ilo < nt_min);         \
    long hi_prev = -1, src_hi = 0;                                                           \
    int valid_hi = 1;                                                                        \
    long od = o_dims.s0, hi = row0 / od, o0 = row0 - hi * od;                                \
    /* wrap: the first rows of a plane (innermost outer axis) read its last   \
     * input rows, a jump ahead that breaks the hardware's prefetch stream;   \
     * they go after the plane's other rows, when those input rows were just  \
     * read. Rows [0, d_lo) of each plane are deferred. */                    \
    long d_lo = (PAD_MODE == 4 && n_outer > 0 && o_pb.s0 > 0) ? o_pb.s0 : 0;                \
    for (long row_p = row0; row_p < row_end; hi++, o0 = 0) { /* one plane's part */          \
        long o_end = min(od, o0 + (row_end - row_p)), plane_row = row_p - o0;                \
        row_p += o_end - o0;                                                                 \
        for (int part = 0; part < 2; part++) {                                               \
        long o_a = part ? o0 : max(o0, d_lo), o_b = part ? min(o_end, d_lo) : o_end;         \
        for (long o = o_a; o < o_b;) {                                                       \
        long src_row = 0, run = 1;                                                           \
        int valid = 1;                                                                       \
        if (n_outer > 0) {                                                                   \
            if (hi != hi_prev) { /* the outer axes above the innermost one */                \
                long r = hi;                                                                 \
                src_hi = 0;                                                                  \
                valid_hi = 1;                                                                \
                CLPAD_OUTER_AXIS(1, s1)                                                      \
                CLPAD_OUTER_AXIS(2, s2)                                                      \
                CLPAD_OUTER_AXIS(3, s3)                                                      \
                CLPAD_OUTER_AXIS(4, s4)                                                      \
                CLPAD_OUTER_AXIS(5, s5)                                                      \
                CLPAD_OUTER_AXIS(6, s6)                                                      \
                hi_prev = hi;                                                                \
            }                                                                                \
            long c = o - o_pb.s0, m = clpad_map(c, i_dims.s0);                               \
            valid = valid_hi & (m >= 0);                                                     \
            src_row = src_hi + m * i_strides.s0;                                             \
            if (valid && m == c) /* rows inside the input: one source row after another */   \
                run = min(o_b, o_pb.s0 + i_dims.s0) - o;                                     \
        }                                                                                    \
        __global T *restrict d = dst + dst_off + (plane_row + o) * row_units;                \
        __global const T *restrict s = src + src_off + src_row;                              \
        o += run;                                                                            \
        if (!valid) {                                                                        \
            for (long u = u_first; u < end; u += lx)                                         \
                d[u] = value;                                                                \
            continue;                                                                        \
        }                                                                                    \
        if (lean) { /* CPU, whole short rows: borders through bmap, interior by vectors */  \
            __global uchar *dp = (__global uchar *)(d + ilo);                                \
            __global const uchar *sp = (__global const uchar *)(s + (ilo - in_lo));          \
            long db = row_units * (long)sizeof(T), sb = i_strides.s0 * (long)sizeof(T);      \
            if (ilo == 1 && row_units - ihi == 1) { /* one unit each side, kept in registers \
                                                      (then in_lo == 1, in_hi == ihi) */     \
                long b0 = bmap[0], b1 = bmap[CLPAD_BMAP_SIDE];                               \
                CLPAD_LEAN_ROWS(d[0] = PAD_MODE == 0 ? value : s[b0];                        \
                                d[ihi] = PAD_MODE == 0 ? value : s[b1];                      \
                                d += row_units; s += i_strides.s0;)                          \
            } else {                                                                         \
                CLPAD_LEAN_ROWS(                                                             \
                    CLPAD_SHORT_LOOP                                                         \
                    for (long v = 0; v < ilo; v++)                                           \
                        d[v] = PAD_MODE == 0 ? value : s[bmap[v]];                           \
                    CLPAD_SHORT_LOOP                                                         \
                    for (long v = ihi; v < row_units; v++)                                   \
                        d[v] = PAD_MODE == 0 ? value : s[bmap[CLPAD_BMAP_SIDE + v - in_hi]]; \
                    d += row_units; s += i_strides.s0;)                                      \
            }                                                                                \
            continue;                                                                        \
        }                                                                                    \
        for (; run > 0; run--, d += row_units, s += i_strides.s0) {                          \
        long u = u_first;                                                                    \
        if (short_b) {                                                                       \
            for (; u < min(end, in_lo); u++)                                                 \
                d[u] = s[bmap[u]];                                                           \
        } else {                                                                             \
            CLPAD_BORDER_LOOP(min(end, in_lo))                                               \
        }                                                                                    \
        long lim = min(end, in_hi);                                                          \
        __global const T *restrict si = s - in_lo;                                           \
        CLPAD_NT_COPY(T, NV, N)                                                              \
        for (; u < lim; u += lx)                                                             \
            d[u] = si[u];                                                                    \
        if (short_b) {                                                                       \
            for (; u < end; u++)                                                             \
                d[u] = s[bmap[CLPAD_BMAP_SIDE + u - in_hi]];                                 \
        } else {                                                                             \
            CLPAD_BORDER_LOOP(end)                                                           \
        }                                                                                    \
        }                                                                                    \
        }                                                                                    \
        }                                                                                    \
    }

/* A row holds row_out elements of the innermost padded axis; each element is
 * K consecutive units of T (trailing unpadded axes collapsed into it, e.g.
 * the channels of an NHWC image). A work-group covers lx * items * VEC units
 * of a row, and a work-item rows_per_item consecutive rows; work-item lid
 * takes every lx-th unit (lx == 1 on CPUs: one contiguous stretch per row).
 * Each stretch splits into the padding before the input, the input's
 * interior (a plain copy) and the padding after it. Consecutive rows share
 * their outer coordinates but the innermost outer one, which is all that is
 * decoded again per row. */
#define CLPAD_DEFINE_PAD(NAME, T, VEC, NV, N)                                            \
    __kernel void NAME(__global const T *restrict src, ulong src_off,                        \
                       __global T *restrict dst, ulong dst_off, T value, long8 o_dims,       \
                       long8 i_dims, long8 o_pb, long8 i_strides, int n_outer, long row_out, \
                       long row_in, long row_pb, long K, long n_rows, long items,            \
                       long rows_per_item, long nt_min)                                      \
    {                                                                                        \
        if (K == 1) { /* the common case, specialised: one unit per element */               \
            const long K = 1;                                                                \
            CLPAD_PAD_BODY(T, VEC, NV, N)                                            \
        } else {                                                                             \
            CLPAD_PAD_BODY(T, VEC, NV, N)                                            \
        }                                                                                    \
    }

CLPAD_DEFINE_PAD(pad_1, uchar, 16, uchar16, 16)
CLPAD_DEFINE_PAD(pad_2, ushort, 8, ushort16, 16)
CLPAD_DEFINE_PAD(pad_4, uint, 4, uint16, 16)
CLPAD_DEFINE_PAD(pad_8, ulong, 2, ulong8, 8)
