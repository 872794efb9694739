/* numpy.pad's modes of clpad_pad_numpy (include/clpad.h; the host side is
 * host/ops/pad_numpy/cl.c): the fill of one axis. The host has placed the
 * input in the middle of the output (Pad's constant kernel) and launches
 * `fill` once per padded axis, in order, as numpy.pad pads (or, for the
 * shapes it takes, `fuse2d` alone: see there).
 *
 * Built once per element type: -DNP_T=<element type>, -DNP_UT=<the
 * unsigned type of its size> (integers' wrapping arithmetic), -DNP_KIND=0
 * (signed), 1 (unsigned) or 2 (float) and, for the types whose statistic
 * is computed in double (f64 and the integers), -DNP_DOUBLE. The mode
 * (clpad_numpy_mode) is an argument: one program serves every mode of a
 * type (it is the same for all of a launch's work-items, so the branch on
 * it costs nothing measurable next to a row's reads).
 *
 * A work-item takes one row along the axis (dimension 1 of the NDRange,
 * rounded up: it checks its bound first): its offset is the outer index
 * times outer_stride plus, for each later axis (innermost first in the
 * long8 arguments), (index + offset) * stride, all in elements. It computes
 * the statistic of the first Lb and the last Le data elements of the row
 * (data at [pb, pb + n)), in numpy's order (the reference, ref.c, states
 * it), and writes them to [0, pb) and [pb + n, N). Median: the k-th
 * smallest by counting (L^2 comparisons per row, no scratch memory). */

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define NP_HAVE_F64
#elif defined(NP_DOUBLE)
/* no doubles on this device: the host refuses the calls that need them
 * (integer means and medians, f64, float64 ramps); the rest builds */
#undef NP_DOUBLE
#endif
#pragma OPENCL FP_CONTRACT OFF

#if NP_KIND == 2
#define NP_ISNAN(v) isnan(v)
/* the same as a compare (one instruction in a vector loop; isnan's bit test
 * is four on x86-64) */
#define NP_UNORD(v) ((v) != (v))
#else
#define NP_ISNAN(v) false
#define NP_UNORD(v) 0
#endif

#if defined(NP_DOUBLE)
typedef double acc_t;
#else
typedef float acc_t;
#endif

/* numpy's pairwise sum, below 8 and up to 128 elements */
static acc_t leaf(global const NP_T *p, long n, long s)
{
    if (n < 8) {
        acc_t r = 0;
        for (long i = 0; i < n; i++)
            r += (acc_t)p[i * s];
        return r;
    }
    acc_t r0 = (acc_t)p[0], r1 = (acc_t)p[s], r2 = (acc_t)p[2 * s], r3 = (acc_t)p[3 * s],
          r4 = (acc_t)p[4 * s], r5 = (acc_t)p[5 * s], r6 = (acc_t)p[6 * s], r7 = (acc_t)p[7 * s];
    long i = 8;
    for (; i < n - n % 8; i += 8) {
        r0 += (acc_t)p[i * s];
        r1 += (acc_t)p[(i + 1) * s];
        r2 += (acc_t)p[(i + 2) * s];
        r3 += (acc_t)p[(i + 3) * s];
        r4 += (acc_t)p[(i + 4) * s];
        r5 += (acc_t)p[(i + 5) * s];
        r6 += (acc_t)p[(i + 6) * s];
        r7 += (acc_t)p[(i + 7) * s];
    }
    acc_t res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
    for (; i < n; i++)
        res += (acc_t)p[i * s];
    return res;
}

/* ... and beyond 128: numpy's recursion (first half a multiple of 8),
 * walked with a stack, post-order, so that each sum is left + right. */
static acc_t pairwise(global const NP_T *p, long n, long s)
{
    if (n <= 128) /* (the walk below would take this leaf alone) */
        return leaf(p, n, s);
    long h = n / 2 - n / 2 % 8;
    if (n - h <= 128) /* (the walk's two leaves, left + right) */
        return leaf(p, h, s) + leaf(p + h * s, n - h, s);
    long start[64], len[64];
    uchar stage[64];
    acc_t val[64];
    int sp = 1, vp = 0;
    start[0] = 0;
    len[0] = n;
    stage[0] = 0;
    while (sp > 0) {
        int t = sp - 1;
        long nn = len[t];
        if (nn <= 128) {
            val[vp++] = leaf(p + start[t] * s, nn, s);
            sp--;
            continue;
        }
        long n2 = nn / 2;
        n2 -= n2 % 8;
        if (stage[t] == 0) {
            stage[t] = 1;
            start[sp] = start[t];
            len[sp] = n2;
            stage[sp++] = 0;
        } else if (stage[t] == 1) {
            stage[t] = 2;
            start[sp] = start[t] + n2;
            len[sp] = nn - n2;
            stage[sp++] = 0;
        } else {
            acc_t r = val[--vp];
            acc_t l = val[--vp];
            val[vp++] = l + r;
            sp--;
        }
    }
    return val[0];
}

/* The k-th smallest of n elements (no NaNs). */
static NP_T kth(global const NP_T *p, long n, long s, long k)
{
    for (long i = 0; i < n; i++) {
        NP_T v = p[i * s];
        long lt = 0, eq = 0;
        for (long j = 0; j < n; j++) {
            NP_T w = p[j * s];
            lt += w < v;
            eq += w == v;
        }
        if (lt <= k && k < lt + eq)
            return v;
    }
    return p[0];
}

#if NP_KIND == 2
#if defined(NP_DOUBLE)
#define NP_QNAN as_double(0x7ff8000000000000UL)
#else
#define NP_QNAN as_float(0x7fc00000U)
#endif
#define NP_FROM_ACC(v) (isnan(v) ? NP_QNAN : (NP_T)(v))
#else
#define NP_CAT_(a, b, c) a##b##c
#define NP_CAT(a, b, c) NP_CAT_(a, b, c)
/* numpy's round (half to even), then the conversion, saturating */
#define NP_FROM_ACC(v) NP_CAT(convert_, NP_T, _sat_rte)(v)
#endif

/* clpad_numpy_mode's values (include/clpad.h) */
#define NP_MAXIMUM 0
#define NP_MINIMUM 1
#define NP_MEAN 2
#define NP_MEDIAN 3
#define NP_REFLECT_ODD 4
#define NP_SYMMETRIC_ODD 5
#define NP_LINEAR_RAMP 6

static NP_T statistic(global const NP_T *p, long n, long s, int pw, int mode)
{
    /* A NaN in the slab: maximum and minimum give the first (one pass: a
     * separate NaN scan made the launch 1.4x slower on PoCL), mean gives
     * NP_FROM_ACC's quiet NaN (the sum is a NaN), median checks first. */
    if (mode <= NP_MINIMUM) {
        NP_T best = p[0];
        if (NP_ISNAN(best))
            return best;
        for (long i = 1; i < n; i++) {
            NP_T v = p[i * s];
            if (NP_ISNAN(v))
                return v;
            if (mode == NP_MAXIMUM ? best < v : v < best)
                best = v;
        }
        return best;
    }
    if (mode == NP_MEAN) {
        acc_t sum = 0;
    if (pw) {
        sum += pairwise(p, n, s);
    } else {
        for (long i = 0; i < n; i++)
            sum += (acc_t)p[i * s];
    }
        acc_t m = sum / (acc_t)n;
        return NP_FROM_ACC(m);
    }
#if NP_KIND == 2
    for (long i = 0; i < n; i++)
        if (isnan(p[i * s]))
            return NP_QNAN;
#endif
    acc_t sum = 0;
    sum += (acc_t)kth(p, n, s, (n - 1) / 2);
    if (n % 2 == 0)
        sum += (acc_t)kth(p, n, s, n / 2);
    acc_t m = sum / (acc_t)(n % 2 ? 1 : 2);
    return NP_FROM_ACC(m);
}

#if NP_KIND == 2
/* NaN results as x86-64 computes them (SSE, where numpy runs in the tests;
 * the reference, ref.c, states the same rule): the first NaN operand,
 * quieted, or, from an invalid operation on numbers (inf - inf, 0 * inf),
 * the default NaN, sign set. Stated here because devices differ: NVIDIA's
 * GPUs return 0x7fffffff for every NaN result. np_nan: from the element
 * type; np_nan_f / np_nan_d: a float / double operand, stored in it. */
#if defined(NP_DOUBLE)
#define NP_BITS(v) as_ulong(v)
#define NP_FROM_BITS(b) as_double(b)
#define NP_QUIET 0x0008000000000000UL
#define NP_DEFAULT_NAN 0xfff8000000000000UL
#else
#define NP_BITS(v) as_uint(v)
#define NP_FROM_BITS(b) as_float(b)
#define NP_QUIET 0x00400000U
#define NP_DEFAULT_NAN 0xffc00000U
#endif
static NP_T np_nan(NP_T a, NP_T b)
{
    if (isnan(a))
        return NP_FROM_BITS(NP_BITS(a) | NP_QUIET);
    if (isnan(b))
        return NP_FROM_BITS(NP_BITS(b) | NP_QUIET);
    return NP_FROM_BITS(NP_DEFAULT_NAN);
}
/* a float NaN converted to the element type (cvtss2sd: the payload moves up) */
static NP_T np_nan_f(float v)
{
#if defined(NP_DOUBLE)
    ulong b = as_uint(v);
    return as_double((b >> 31) << 63 | 0x7ff8000000000000UL | (b & 0x7fffffUL) << 29);
#else
    return as_float(as_uint(v) | 0x00400000U);
#endif
}
#ifdef NP_HAVE_F64
/* a double NaN converted to the element type (cvtsd2ss: its top bits) */
static NP_T np_nan_d(double v)
{
#if defined(NP_DOUBLE)
    return as_double(as_ulong(v) | 0x0008000000000000UL);
#else
    ulong b = as_ulong(v);
    return as_float((uint)(b >> 63) << 31 | 0x7fc00000U | (uint)((b >> 29) & 0x7fffffUL));
#endif
}
#endif
#endif

/* 2 * edge - v in the element type, as numpy computes it (integers wrap:
 * the arithmetic runs in the unsigned type of the same size; a NaN result
 * by np_nan's rule). */
static NP_T odd(NP_T edge, NP_T v)
{
#if NP_KIND == 2
    NP_T r = (NP_T)2 * edge - v;
    return isnan(r) ? np_nan(edge, v) : r;
#else
    return (NP_T)((NP_UT)((NP_UT)2 * (NP_UT)edge) - (NP_UT)v);
#endif
}

/* numpy.pad's reflect (sym 0) or symmetric (sym 1) with reflect_type
 * "odd" along one row: its loop, chunk by chunk, each chunk at most the
 * period long and mirrored about the current outermost element, before,
 * then after (a row of one element repeats it, numpy's legacy rule). */
static void odd_row(global NP_T *row, long sa, long pb, long n, long N, int sym)
{
    long left = pb, right = N - pb - n;
    if (n == 1) {
        NP_T v = row[pb * sa];
        for (long i = 0; i < pb; i++)
            row[i * sa] = v;
        for (long i = pb + 1; i < N; i++)
            row[i * sa] = v;
        return;
    }
    long eo = sym ? 1 : 0;
    while (left > 0 || right > 0) {
        long old = N - right - left;
        old = sym ? old / n * n : (old - 1) / (n - 1) * (n - 1);
        if (left > 0) {
            long c = min(old, left);
            NP_T edge = row[left * sa];
            for (long j = 0; j < c; j++)
                row[(left - c + j) * sa] = odd(edge, row[(left - eo + c - j) * sa]);
            left -= c;
        }
        if (right > 0) {
            long c = min(old, right), at = N - right;
            NP_T edge = row[(at - 1) * sa];
            for (long j = 0; j < c; j++)
                row[(at + j) * sa] = odd(edge, row[(at + eo - 2 - j) * sa]);
            right -= c;
        }
    }
}

/* numpy.pad's linear_ramp: np.linspace(start, edge, num, endpoint=False)
 * in the computation type R (float64, or float32), then the element type:
 * floats rounded to nearest even, integers floor()ed and converted
 * (saturating; NaN gives 0, where numpy's conversion is undefined). Step
 * i: i * ((edge - start) / num), or, where that step is 0 on any row of the
 * axis' side (`zero`: numpy's denormal rule), (i / num) * (edge - start);
 * then + start. Written from the outer end (dir 1 from 0, or -1 from N-1). */
#if NP_KIND == 2
/* a NaN step: edge's, else start's, else the default NaN (np_nan's rule:
 * each operation takes its first NaN operand, and edge comes first) */
#define NP_RAMP_STORE(y, edge, start, nan_of)                                                  \
    (isnan(y) ? (isnan(edge) ? np_nan(edge, edge) : isnan(start) ? nan_of(start)             \
                                                                 : np_nan(0, 0))             \
              : (NP_T)(y))
#else
#define NP_RAMP_STORE(y, edge, start, nan_of) NP_CAT(convert_, NP_T, _sat_rtz)(floor(y))
#endif
#define NP_RAMP_SIDE(R, name, nan_of)                                                          \
    static void name(global NP_T *row, long sa, long first, long dir, long num, R start,     \
                     NP_T edge, int zero)                                                     \
    {                                                                                         \
        R delta = (R)edge - start, div = (R)num, step = delta / div;                          \
        for (long i = 0; i < num; i++) {                                                      \
            R y = zero ? ((R)i / div) * delta : (R)i * step;                                  \
            y = y + start;                                                                    \
            row[(first + dir * i) * sa] = NP_RAMP_STORE(y, edge, start, nan_of);              \
        }                                                                                     \
    }                                                                                         \
    static int name##_zero(long num, R start, NP_T edge)                                      \
    {                                                                                         \
        R delta = (R)edge - start;                                                            \
        return num > 0 && delta / (R)num == (R)0;                                             \
    }
NP_RAMP_SIDE(float, ramp_f, np_nan_f)
#ifdef NP_HAVE_F64
NP_RAMP_SIDE(double, ramp_d, np_nan_d)
#endif

/* The offset of row r (the fill's and the ramp pre-pass' rows). */
/* (The long8s by pointer: a vector argument of a plain function changes the
 * ABI on some CPUs, which compilers warn about.) */
static long row_offset(long r, long outer_stride, int n_inner, const long8 *dims,
                       const long8 *offs, const long8 *strides)
{
    long8 i_dims = *dims, i_offs = *offs, i_strides = *strides;
    long d[8] = {i_dims.s0, i_dims.s1, i_dims.s2, i_dims.s3,
                 i_dims.s4, i_dims.s5, i_dims.s6, i_dims.s7};
    long o[8] = {i_offs.s0, i_offs.s1, i_offs.s2, i_offs.s3,
                 i_offs.s4, i_offs.s5, i_offs.s6, i_offs.s7};
    long st[8] = {i_strides.s0, i_strides.s1, i_strides.s2, i_strides.s3,
                  i_strides.s4, i_strides.s5, i_strides.s6, i_strides.s7};
    long off = 0, rest = r;
    for (int t = 0; t < n_inner; t++) {
        off += (rest % d[t] + o[t]) * st[t];
        rest /= d[t];
    }
    return off + rest * outer_stride;
}

/* linear_ramp's pre-pass over an axis' rows: zero[0] / zero[1] set where
 * some row's step before / after is 0 (zero starts at 0). start_*: the end
 * values in float64 (their bits) and in float32; rf32: compute in float32.
 * Its arguments are fill's (Lb, Le, pw and mode unread): one binder sets
 * both (host/ops/pad_numpy/cl.c). */
kernel void ramp_zero(global const NP_T *restrict dst, ulong dst_off, long n_rows,
                      long outer_stride, int n_inner, long8 i_dims, long8 i_offs,
                      long8 i_strides, long sa, long pb, long n, long N, long Lb, long Le,
                      int pw, int mode, global int *restrict zero, ulong sb_bits,
                      ulong se_bits, float sbf, float sef, int rf32)
{
    long r = get_global_id(1);
    if (r >= n_rows)
        return;
    global const NP_T *row =
        dst + dst_off + row_offset(r, outer_stride, n_inner, &i_dims, &i_offs, &i_strides);
    NP_T el = row[pb * sa], er = row[(pb + n - 1) * sa];
    long pe = N - pb - n;
    int zb, ze;
    if (rf32) {
        zb = ramp_f_zero(pb, sbf, el);
        ze = ramp_f_zero(pe, sef, er);
    } else {
#ifdef NP_HAVE_F64
        zb = ramp_d_zero(pb, as_double(sb_bits), el);
        ze = ramp_d_zero(pe, as_double(se_bits), er);
#else
        zb = ze = 0;
#endif
    }
    if (zb)
        atomic_or(zero, 1);
    if (ze)
        atomic_or(zero + 1, 1);
}

kernel void fill(global NP_T *restrict dst, ulong dst_off, long n_rows, long outer_stride,
                 int n_inner, long8 i_dims, long8 i_offs, long8 i_strides, long sa, long pb,
                 long n, long N, long Lb, long Le, int pw, int mode,
                 global const int *restrict zero, ulong sb_bits, ulong se_bits, float sbf,
                 float sef, int rf32)
{
    long r = get_global_id(1);
    if (r >= n_rows)
        return;
    global NP_T *row =
        dst + dst_off + row_offset(r, outer_stride, n_inner, &i_dims, &i_offs, &i_strides);
    if (mode == NP_LINEAR_RAMP) { /* both edges are data: read before any write */
        NP_T el = row[pb * sa], er = row[(pb + n - 1) * sa];
        if (rf32) {
            ramp_f(row, sa, 0, 1, pb, sbf, el, zero[0]);
            ramp_f(row, sa, N - 1, -1, N - pb - n, sef, er, zero[1]);
        } else {
#ifdef NP_HAVE_F64
            ramp_d(row, sa, 0, 1, pb, as_double(sb_bits), el, zero[0]);
            ramp_d(row, sa, N - 1, -1, N - pb - n, as_double(se_bits), er, zero[1]);
#endif
        }
        return;
    }
    if (mode >= NP_REFLECT_ODD) {
        odd_row(row, sa, pb, n, N, mode == NP_SYMMETRIC_ODD);
        return;
    }
    NP_T left = statistic(row + pb * sa, Lb, sa, pw, mode);
    /* both sides over the whole axis: one slab, one statistic (as numpy) */
    NP_T right = Lb == n && Le == n ? left
                                    : statistic(row + (pb + n - Le) * sa, Le, sa, pw, mode);
    for (long i = 0; i < pb; i++)
        row[i * sa] = left;
    for (long i = pb + n; i < N; i++)
        row[i * sa] = right;
}

/* maximum, minimum and mean (summed in order, pw 0) along an axis that is
 * not the innermost: its rows r with consecutive innermost indices lie at
 * consecutive addresses, so a work-item takes `cols` of them (of one line
 * of the innermost axis' n0 data elements; n0 = i_dims.s0) and walks the
 * slab element after element, each step a contiguous run of `cols`
 * elements, keeping one statistic per row: the same operations in the
 * same order per row as `statistic` (bit for bit), read once per slab
 * row, not once per row and element of the slab (the strided walk of
 * `fill` reads a slab row's cache line per row; on CPUs that was most of
 * the whole-axis time). Fill's arguments, then cols. */
#define NP_COLS_MAX 16
/* One step of maximum (max 1) or minimum over a run: statistic's rule per
 * row, the first NaN, else the first extreme (v != v: a NaN; never for
 * integers). */
#define NP_EXT_STEP(b, v, max) (!((b) != (b)) && ((v) != (v) || ((max) ? (b) < (v) : (v) < (b))))
static void stat_cols(global const NP_T *p, long L, long sa, long cols, int mode,
                      NP_T *out)
{
    NP_T best[NP_COLS_MAX];
    acc_t sum[NP_COLS_MAX];
    if (mode <= NP_MINIMUM) {
        int max = mode == NP_MAXIMUM;
        if (cols == NP_COLS_MAX) { /* a whole run: a loop of fixed length */
            for (int j = 0; j < NP_COLS_MAX; j++)
                best[j] = p[j];
            for (long i = 1; i < L; i++) {
                global const NP_T *q = p + i * sa;
                if (max) {
                    for (int j = 0; j < NP_COLS_MAX; j++) {
                        NP_T b = best[j], v = q[j];
                        best[j] = NP_EXT_STEP(b, v, 1) ? v : b;
                    }
                } else {
                    for (int j = 0; j < NP_COLS_MAX; j++) {
                        NP_T b = best[j], v = q[j];
                        best[j] = NP_EXT_STEP(b, v, 0) ? v : b;
                    }
                }
            }
        } else {
            for (long j = 0; j < cols; j++)
                best[j] = p[j];
            for (long i = 1; i < L; i++) {
                global const NP_T *q = p + i * sa;
                for (long j = 0; j < cols; j++) {
                    NP_T b = best[j], v = q[j];
                    best[j] = NP_EXT_STEP(b, v, max) ? v : b;
                }
            }
        }
        for (long j = 0; j < cols; j++)
            out[j] = best[j];
        return;
    }
    /* the column sums over the slab's L rows; a full run of columns with
     * its compile-time width, which the compiler vectorises */
#define NP_SUM_COLS(NC)                                                       \
    do {                                                                      \
        for (long j = 0; j < (NC); j++)                                       \
            sum[j] = 0;                                                       \
        for (long i = 0; i < L; i++) {                                        \
            global const NP_T *q = p + i * sa;                                \
            for (long j = 0; j < (NC); j++)                                   \
                sum[j] += (acc_t)q[j];                                        \
        }                                                                     \
    } while (0)
    if (cols == NP_COLS_MAX)
        NP_SUM_COLS(NP_COLS_MAX);
    else
        NP_SUM_COLS(cols);
#undef NP_SUM_COLS
    for (long j = 0; j < cols; j++) {
        acc_t m = sum[j] / (acc_t)L;
        out[j] = NP_FROM_ACC(m);
    }
}

kernel void fill_cols(global NP_T *restrict dst, ulong dst_off, long n_rows, long outer_stride,
                      int n_inner, long8 i_dims, long8 i_offs, long8 i_strides, long sa,
                      long pb, long n, long N, long Lb, long Le, int pw, int mode,
                      global const int *restrict zero, ulong sb_bits, ulong se_bits, float sbf,
                      float sef, int rf32, long cols)
{
    long n0 = i_dims.s0, per_line = (n0 + cols - 1) / cols;
    long b = get_global_id(1), line = b / per_line, j0 = (b - line * per_line) * cols;
    if (line * n0 >= n_rows)
        return;
    long c = min(cols, n0 - j0);
    global NP_T *row = dst + dst_off +
                       row_offset(line * n0 + j0, outer_stride, n_inner, &i_dims, &i_offs,
                                  &i_strides);
    NP_T left[NP_COLS_MAX], right[NP_COLS_MAX];
    stat_cols(row + pb * sa, Lb, sa, c, mode, left);
    if (Lb == n && Le == n) { /* both sides over the whole axis: one slab */
        for (long j = 0; j < c; j++)
            right[j] = left[j];
    } else {
        stat_cols(row + (pb + n - Le) * sa, Le, sa, c, mode, right);
    }
    for (long i = 0; i < pb; i++)
        for (long j = 0; j < c; j++)
            row[i * sa + j] = left[j];
    for (long i = pb + n; i < N; i++)
        for (long j = 0; j < c; j++)
            row[i * sa + j] = right[j];
}

/* maximum, minimum and mean where only the two innermost axes (H, W) are
 * padded, in one pass (host/ops/pad_numpy/cl.c picks it: CPU geometry, W up
 * to NP_FUSE_W_MAX, H's statistic summed in order, i.e. W > 1 where H has
 * pads): a work-item per plane (the outer axes' index p; the input's plane
 * at src + p * H * W, the output's at dst + p * OH * OW) writes the whole
 * plane of the output without Pad's copy. Each input row is read once from
 * memory: copied to its output row, its W statistics (`statistic` on the
 * row's first Lb / last Le elements, pairwise, as `fill` on the innermost
 * axis) written to the row's pads, and folded into the column statistics of
 * H's slabs (`stat_cols`' operations in `stat_cols`' order: per column, the
 * first NaN else the first extreme; 0 plus each element in order, then
 * / L). Then the H pad rows: the column statistics, then the W statistics
 * of that row (numpy pads H first, then W over the padded array), copied to
 * every pad row of its side. The same operations as the per-axis kernels,
 * bit for bit. */
#define NP_FUSE_W_MAX 512
typedef union np_cell {
    acc_t sum;
    NP_T best;
} np_cell;

/* Fold row `r` (W elements) into the column statistics `c`; first: the
 * slab's first row. */
static void fuse_fold(np_cell *c, global const NP_T *r, long W, int first, int mode)
{
    if (mode <= NP_MINIMUM) {
        int max = mode == NP_MAXIMUM;
        if (first) {
            for (long j = 0; j < W; j++)
                c[j].best = r[j];
        } else if (max) {
            for (long j = 0; j < W; j++) {
                NP_T b = c[j].best, v = r[j];
                c[j].best = NP_EXT_STEP(b, v, 1) ? v : b;
            }
        } else {
            for (long j = 0; j < W; j++) {
                NP_T b = c[j].best, v = r[j];
                c[j].best = NP_EXT_STEP(b, v, 0) ? v : b;
            }
        }
        return;
    }
    if (first) {
        for (long j = 0; j < W; j++)
            c[j].sum = (acc_t)0 + (acc_t)r[j]; /* (0 + -0 is +0, as the in-order sum) */
    } else {
        for (long j = 0; j < W; j++)
            c[j].sum += (acc_t)r[j];
    }
}

/* a float zero (whose sign the plain extreme may take from another zero) */
static int np_zero(NP_T m)
{
#if NP_KIND == 2
    return m == (NP_T)0;
#else
    return 0;
#endif
}

/* statistic's maximum (max 1) or minimum of n contiguous elements, eight
 * lanes at a time (a chain of compares per lane, not one per element): the
 * extreme value is statistic's result unless the slab holds a NaN (then the
 * first NaN) or the extreme is a zero (then its sign is the first zero's):
 * those slabs take statistic's walk. */
static NP_T fuse_extreme(global const NP_T *p, long n, int max)
{
    if (n < 8)
        return statistic(p, n, 1, 1, max ? NP_MAXIMUM : NP_MINIMUM);
    NP_T b[8];
    int nl[8]; /* a NaN seen, per lane (one OR into the lanes an element) */
    for (int l = 0; l < 8; l++) {
        b[l] = p[l];
        nl[l] = NP_UNORD(b[l]);
    }
    long i = 8;
    if (max) {
        for (; i + 8 <= n; i += 8)
            for (int l = 0; l < 8; l++) {
                NP_T v = p[i + l];
                nl[l] |= NP_UNORD(v);
                b[l] = b[l] < v ? v : b[l];
            }
    } else {
        for (; i + 8 <= n; i += 8)
            for (int l = 0; l < 8; l++) {
                NP_T v = p[i + l];
                nl[l] |= NP_UNORD(v);
                b[l] = v < b[l] ? v : b[l];
            }
    }
    int nan = 0;
    for (int l = 0; l < 8; l++)
        nan |= nl[l];
    NP_T m = b[0];
    for (int l = 1; l < 8; l++)
        m = (max ? m < b[l] : b[l] < m) ? b[l] : m;
    for (; i < n; i++) {
        NP_T v = p[i];
        nan |= NP_ISNAN(v);
        m = (max ? m < v : v < m) ? v : m;
    }
    if (nan || np_zero(m))
        return statistic(p, n, 1, 1, max ? NP_MAXIMUM : NP_MINIMUM);
    return m;
}

/* An output row's W pads: left before its W data elements, right after. */
static void fuse_row_fill(global NP_T *row, long W, long pbw, long pew, NP_T left, NP_T right)
{
    for (long i = 0; i < pbw; i++)
        row[i] = left;
    for (long i = pbw + W; i < pbw + W + pew; i++)
        row[i] = right;
}

/* An output row's W pads from its data d (W elements: the input row, or the
 * row's own data part). */
static void fuse_row_pads(global NP_T *row, global const NP_T *d, long W, long pbw, long pew,
                          long lbw, long lew, int mode)
{
    if (pbw == 0 && pew == 0)
        return;
    NP_T left, right;
    if (mode <= NP_MINIMUM) {
        left = fuse_extreme(d, lbw, mode == NP_MAXIMUM);
        right = lbw == W && lew == W ? left : fuse_extreme(d + W - lew, lew, mode == NP_MAXIMUM);
    } else {
        left = statistic(d, lbw, 1, 1, mode);
        right = lbw == W && lew == W ? left : statistic(d + W - lew, lew, 1, 1, mode);
    }
    fuse_row_fill(row, W, pbw, pew, left, right);
}

/* One pass over an input row r of W >= 8 elements for maximum (max 1) or
 * minimum where W's slab is the whole row: copies it to o, takes its
 * extreme in eight lanes (fuse_extreme's way) and folds it into the column
 * statistics c (fold 1: the slab's first row, 2: a later one, 0: none) by
 * the plain extreme, which a NaN never enters (with no NaN, NP_EXT_STEP's
 * result: the caller folds the slab again with fuse_fold where a row held
 * one). Each element loaded once. Returns whether the row holds a NaN;
 * *ext: its extreme, statistic's unless there is a NaN or it is a zero
 * (fuse_extreme's rule). */
#define NP_EXTREME_OF(a, v, max) ((max) ? ((a) < (v) ? (v) : (a)) : ((v) < (a) ? (v) : (a)))
#define NP_ROW_EXT_STEP(k, bl, nll)                                                           \
    do {                                                                                      \
        NP_T v = r[k];                                                                        \
        o[k] = v;                                                                             \
        nll |= NP_UNORD(v);                                                                   \
        bl = NP_EXTREME_OF(bl, v, max);                                                       \
        if (fold == 1)                                                                        \
            c[k].best = v;                                                                    \
        else if (fold == 2)                                                                   \
            c[k].best = NP_EXTREME_OF(c[k].best, v, max);                                     \
    } while (0)
static inline __attribute__((always_inline)) int
fuse_row_ext_at(global NP_T *restrict o, global const NP_T *restrict r, long W,
                np_cell *restrict c, int fold, int max, NP_T *ext)
{
    NP_T b[8];
    int nl[8];
    for (int l = 0; l < 8; l++) {
        b[l] = r[l];
        nl[l] = 0;
    }
    long j = 0;
    for (; j < W - W % 8; j += 8)
        for (int l = 0; l < 8; l++)
            NP_ROW_EXT_STEP(j + l, b[l], nl[l]);
    NP_T m = b[0];
    int nan = nl[0];
    for (int l = 1; l < 8; l++) {
        m = NP_EXTREME_OF(m, b[l], max);
        nan |= nl[l];
    }
    for (; j < W; j++)
        NP_ROW_EXT_STEP(j, m, nan);
    *ext = m;
    return nan;
}
#undef NP_ROW_EXT_STEP
/* fuse_row_ext_at with fold and max as constants (each its own loop) */
static int fuse_row_ext(global NP_T *o, global const NP_T *r, long W, np_cell *c, int fold,
                        int mode, NP_T *ext)
{
    if (mode == NP_MAXIMUM)
        return fold == 0   ? fuse_row_ext_at(o, r, W, c, 0, 1, ext)
               : fold == 1 ? fuse_row_ext_at(o, r, W, c, 1, 1, ext)
                           : fuse_row_ext_at(o, r, W, c, 2, 1, ext);
    return fold == 0   ? fuse_row_ext_at(o, r, W, c, 0, 0, ext)
           : fold == 1 ? fuse_row_ext_at(o, r, W, c, 1, 0, ext)
                       : fuse_row_ext_at(o, r, W, c, 2, 0, ext);
}

/* The mean's copy of an input row r to o and its fold into the column sums
 * c (fuse_fold's operations; first: the slab's first row) in one loop. */
static inline __attribute__((always_inline)) void
fuse_copy_sum_at(global NP_T *restrict o, global const NP_T *restrict r, long W,
                 np_cell *restrict c, int first)
{
    for (long j = 0; j < W; j++) {
        NP_T v = r[j];
        o[j] = v;
        c[j].sum = first ? (acc_t)0 + (acc_t)v : c[j].sum + (acc_t)v;
    }
}
static void fuse_copy_sum(global NP_T *o, global const NP_T *r, long W, np_cell *c, int first)
{
    if (first)
        fuse_copy_sum_at(o, r, W, c, 1);
    else
        fuse_copy_sum_at(o, r, W, c, 0);
}

/* The pad rows [first, first + count) of an H side: the column statistics
 * of `c` (a slab of L rows), the row's W pads, copied to the others. */
static void fuse_pad_rows(global NP_T *plane, long first, long count, const np_cell *c, long L,
                          long W, long OW, long pbw, long pew, long lbw, long lew, int mode)
{
    if (count == 0)
        return;
    global NP_T *row = plane + first * OW;
    if (mode <= NP_MINIMUM) {
        for (long j = 0; j < W; j++)
            row[pbw + j] = c[j].best;
    } else {
        for (long j = 0; j < W; j++) {
            acc_t m = c[j].sum / (acc_t)L;
            row[pbw + j] = NP_FROM_ACC(m);
        }
    }
    fuse_row_pads(row, row + pbw, W, pbw, pew, lbw, lew, mode);
    for (long i = 1; i < count; i++)
        for (long j = 0; j < OW; j++)
            row[i * OW + j] = row[j];
}

kernel void fuse2d(global NP_T *restrict dst, ulong dst_off, global const NP_T *restrict src,
                   ulong src_off, long planes, long H, long W, long pbh, long peh, long pbw,
                   long pew, long lbh, long leh, long lbw, long lew, int mode)
{
    long p = get_global_id(1);
    if (p >= planes)
        return;
    long OW = pbw + W + pew, OH = pbh + H + peh;
    global const NP_T *in = src + src_off + p * H * W;
    global NP_T *plane = dst + dst_off + p * OH * OW;
    int hpad = pbh > 0 || peh > 0, one = lbh == H && leh == H; /* one slab for both sides */
    /* maximum / minimum over whole rows: one pass per row (fuse_row_ext) */
    int ext = mode <= NP_MINIMUM && lbw == W && lew == W && W >= 8;
    int nan_b = 0, nan_e = 0; /* a NaN in a row folded by fuse_row_ext */
    np_cell cb[NP_FUSE_W_MAX], ce[NP_FUSE_W_MAX];
    for (long h = 0; h < H; h++) {
        global const NP_T *r = in + h * W;
        global NP_T *row = plane + (pbh + h) * OW;
        int fb = hpad && h < lbh, fe = hpad && !one && h >= H - leh;
        if (ext) {
            /* a row of one slab: its fold in the same pass */
            np_cell *c = fb == fe ? NULL : fb ? cb : ce;
            int fold = c ? (fb ? h == 0 : h == H - leh) ? 1 : 2 : 0;
            NP_T m;
            int nan = fuse_row_ext(row + pbw, r, W, c, fold, mode, &m);
            if (nan || np_zero(m))
                fuse_row_pads(row, r, W, pbw, pew, lbw, lew, mode);
            else
                fuse_row_fill(row, W, pbw, pew, m, m);
            nan_b |= nan && fb;
            nan_e |= nan && fe;
            if (c)
                continue;
        } else if (mode == NP_MEAN && fb != fe) {
            fuse_copy_sum(row + pbw, r, W, fb ? cb : ce, fb ? h == 0 : h == H - leh);
            fuse_row_pads(row, r, W, pbw, pew, lbw, lew, mode);
            continue;
        } else {
            for (long j = 0; j < W; j++)
                row[pbw + j] = r[j];
            fuse_row_pads(row, r, W, pbw, pew, lbw, lew, mode);
        }
        if (fb)
            fuse_fold(cb, r, W, h == 0, mode);
        if (fe)
            fuse_fold(ce, r, W, h == H - leh, mode);
    }
    if (!hpad)
        return;
    for (long h = 0; nan_b && h < lbh; h++) /* the slabs' exact folds (NaN) */
        fuse_fold(cb, in + h * W, W, h == 0, mode);
    for (long h = H - leh; nan_e && h < H; h++)
        fuse_fold(ce, in + h * W, W, h == H - leh, mode);
    fuse_pad_rows(plane, 0, pbh, cb, lbh, W, OW, pbw, pew, lbw, lew, mode);
    fuse_pad_rows(plane, pbh + H, peh, one ? cb : ce, one ? lbh : leh, W, OW, pbw, pew, lbw,
                  lew, mode);
}

/* Pad's per-side constants (clpad_pad_options.side_values; the host side is
 * clpad__pad_sides_enqueue, host/ops/pad_numpy/cl.c), after Pad's kernel has
 * written the output: built for the unsigned type of the element's size (a
 * constant is a bit pattern). A work-item per row of the innermost axis
 * (OL elements): the outer axes, innermost first in the long8 arguments
 * (out extent, pads_begin, input extent, the sides' bits), give the row's
 * owner, the innermost outer axis whose coordinate o - pb is outside the
 * input; the row's padding [0, lo) and [hi, OL) takes the innermost axis'
 * values, its data part [lo, hi) the owner's (numpy's order: the last axis
 * padded wins). */
kernel void sides(global NP_T *restrict dst, ulong dst_off, long n_rows, int n_outer,
                  long8 o_dims, long8 o_pb, long8 i_dims, long OL, long lo, long hi,
                  ulong8 vb, ulong8 va, ulong vlb, ulong vla)
{
    long r = get_global_id(1);
    if (r >= n_rows)
        return;
    long d[8] = {o_dims.s0, o_dims.s1, o_dims.s2, o_dims.s3,
                 o_dims.s4, o_dims.s5, o_dims.s6, o_dims.s7};
    long p[8] = {o_pb.s0, o_pb.s1, o_pb.s2, o_pb.s3, o_pb.s4, o_pb.s5, o_pb.s6, o_pb.s7};
    long D[8] = {i_dims.s0, i_dims.s1, i_dims.s2, i_dims.s3,
                 i_dims.s4, i_dims.s5, i_dims.s6, i_dims.s7};
    ulong b[8] = {vb.s0, vb.s1, vb.s2, vb.s3, vb.s4, vb.s5, vb.s6, vb.s7};
    ulong a[8] = {va.s0, va.s1, va.s2, va.s3, va.s4, va.s5, va.s6, va.s7};
    int owner = -1, side = 0;
    long rest = r;
    for (int k = 0; k < n_outer; k++) {
        long co = rest % d[k] - p[k];
        rest /= d[k];
        if (owner < 0 && (co < 0 || co >= D[k])) {
            owner = k;
            side = co >= 0;
        }
    }
    global NP_T *row = dst + dst_off + r * OL;
    NP_T left = (NP_T)vlb, right = (NP_T)vla;
    for (long i = 0; i < lo; i++)
        row[i] = left;
    if (owner >= 0) {
        NP_T v = (NP_T)(side ? a[owner] : b[owner]);
        for (long i = lo; i < hi; i++)
            row[i] = v;
    }
    for (long i = hi; i < OL; i++)
        row[i] = right;
}
