/* numpy.pad's statistic modes (include/clpad.h, clpad_pad_numpy; the host
 * side is host/ops/pad_numpy/cl.c): the fill of one axis. The host has
 * placed the input in the middle of the output (Pad's constant kernel) and
 * launches `fill` once per padded axis, in order, as numpy.pad pads.
 *
 * Built with -DNP_T=<element type> -DNP_KIND=0 (signed), 1 (unsigned) or
 * 2 (float), -DNP_MODE=0..3 (clpad_numpy_mode: maximum, minimum, mean,
 * median) and, for the types whose statistic is computed in double (f64,
 * and the integers' mean and median), -DNP_DOUBLE.
 *
 * A work-item takes one row along the axis (dimension 1 of the NDRange,
 * rounded up: it checks its bound first): its offset is the outer index
 * times outer_stride plus, for each later axis (innermost first in the
 * long8 arguments), (index + offset) * stride, all in elements. It computes
 * the statistic of the first Lb and the last Le data elements of the row
 * (data at [pb, pb + n)), in numpy's order (the reference, ref.c, states
 * it), and writes them to [0, pb) and [pb + n, N). Median: the k-th
 * smallest by counting (L^2 comparisons per row, no scratch memory). */

#ifdef NP_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#pragma OPENCL FP_CONTRACT OFF

#if NP_KIND == 2
#define NP_ISNAN(v) isnan(v)
#else
#define NP_ISNAN(v) false
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

static NP_T statistic(global const NP_T *p, long n, long s, int pw)
{
#if NP_KIND == 2
    for (long i = 0; i < n; i++)
        if (isnan(p[i * s]))
#if NP_MODE <= 1
            return p[i * s];
#else
            return NP_QNAN;
#endif
#endif
#if NP_MODE <= 1
    NP_T best = p[0];
    for (long i = 1; i < n; i++) {
        NP_T v = p[i * s];
#if NP_MODE == 0
        if (best < v)
#else
        if (v < best)
#endif
            best = v;
    }
    return best;
#elif NP_MODE == 2
    acc_t sum = 0;
    if (pw) {
        sum += pairwise(p, n, s);
    } else {
        for (long i = 0; i < n; i++)
            sum += (acc_t)p[i * s];
    }
    acc_t m = sum / (acc_t)n;
    return NP_FROM_ACC(m);
#else
    acc_t sum = 0;
    sum += (acc_t)kth(p, n, s, (n - 1) / 2);
    if (n % 2 == 0)
        sum += (acc_t)kth(p, n, s, n / 2);
    acc_t m = sum / (acc_t)(n % 2 ? 1 : 2);
    return NP_FROM_ACC(m);
#endif
}

kernel void fill(global NP_T *restrict dst, ulong dst_off, long n_rows, long outer_stride,
                 int n_inner, long8 i_dims, long8 i_offs, long8 i_strides, long sa, long pb,
                 long n, long N, long Lb, long Le, int pw)
{
    long r = get_global_id(1);
    if (r >= n_rows)
        return;
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
    off += rest * outer_stride;
    global NP_T *row = dst + dst_off + off;
    NP_T left = statistic(row + pb * sa, Lb, sa, pw);
    /* both sides over the whole axis: one slab, one statistic (as numpy) */
    NP_T right = Lb == n && Le == n ? left : statistic(row + (pb + n - Le) * sa, Le, sa, pw);
    for (long i = 0; i < pb; i++)
        row[i * sa] = left;
    for (long i = pb + n; i < N; i++)
        row[i * sa] = right;
}
