/* The plain reference of numpy.pad's statistic modes (pad_numpy.h): the
 * input placed element by element, then numpy's axis-by-axis fill, each
 * statistic computed the way numpy computes it (include/clpad.h,
 * clpad_pad_numpy). Slow and plain: the oracle of the device run. */
#include "ops/pad_numpy/pad_numpy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool is_float(clpad_dtype t)
{
    return t == CLPAD_F32 || t == CLPAD_F64;
}

static bool is_signed(clpad_dtype t)
{
    return t == CLPAD_I8 || t == CLPAD_I16 || t == CLPAD_I32 || t == CLPAD_I64;
}

/* Element p of dtype t as int64 / uint64 (integers) or double (floats). */
static int64_t ld_i(clpad_dtype t, const unsigned char *p)
{
    switch (t) {
    case CLPAD_I8: { int8_t v; memcpy(&v, p, 1); return v; }
    case CLPAD_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case CLPAD_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

static uint64_t ld_u(clpad_dtype t, const unsigned char *p)
{
    switch (t) {
    case CLPAD_U8: return p[0];
    case CLPAD_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case CLPAD_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static double ld_d(clpad_dtype t, const unsigned char *p)
{
    if (t == CLPAD_F32) {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    if (t == CLPAD_F64) {
        double v;
        memcpy(&v, p, 8);
        return v;
    }
    return is_signed(t) ? (double)ld_i(t, p) : (double)ld_u(t, p);
}

static float ld_f(const unsigned char *p)
{
    float v;
    memcpy(&v, p, 4);
    return v;
}

/* a < b in dtype t (no NaNs). */
static bool less(clpad_dtype t, const unsigned char *a, const unsigned char *b)
{
    if (is_float(t))
        return ld_d(t, a) < ld_d(t, b);
    return is_signed(t) ? ld_i(t, a) < ld_i(t, b) : ld_u(t, a) < ld_u(t, b);
}

/* numpy's pairwise sum of n elements at p, `stride` bytes apart: below 8
 * one after the other from 0; up to 128 eight accumulators, combined
 * ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the rest; beyond, two halves
 * (the first a multiple of 8). In double (f64 and the integers) ... */
static double pw_d(clpad_dtype t, const unsigned char *p, int64_t n, int64_t stride)
{
    if (n < 8) {
        double r = 0.;
        for (int64_t i = 0; i < n; i++)
            r += ld_d(t, p + i * stride);
        return r;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; j++)
            r[j] = ld_d(t, p + j * stride);
        int64_t i = 8;
        for (; i < n - n % 8; i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += ld_d(t, p + (i + j) * stride);
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += ld_d(t, p + i * stride);
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return pw_d(t, p, n2, stride) + pw_d(t, p + n2 * stride, n - n2, stride);
}

/* ... and in float (f32). */
static float pw_f(const unsigned char *p, int64_t n, int64_t stride)
{
    if (n < 8) {
        float r = 0.f;
        for (int64_t i = 0; i < n; i++)
            r += ld_f(p + i * stride);
        return r;
    }
    if (n <= 128) {
        float r[8];
        for (int j = 0; j < 8; j++)
            r[j] = ld_f(p + j * stride);
        int64_t i = 8;
        for (; i < n - n % 8; i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += ld_f(p + (i + j) * stride);
        float res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += ld_f(p + i * stride);
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return pw_f(p, n2, stride) + pw_f(p + n2 * stride, n - n2, stride);
}

/* Store a float64 statistic of an integer type: rounded half to even
 * (numpy's round), then converted, saturating at the type's range. */
static void st_int(clpad_dtype t, double v, unsigned char *out)
{
    v = nearbyint(v);
    if (is_signed(t)) {
        int64_t x = v >= 9223372036854775807.0 ? INT64_MAX : v <= -9223372036854775808.0 ? INT64_MIN : (int64_t)v;
        if (t == CLPAD_I64) memcpy(out, &x, 8);
        if (t == CLPAD_I8) { int8_t y = (int8_t)x; memcpy(out, &y, 1); }
        if (t == CLPAD_I16) { int16_t y = (int16_t)x; memcpy(out, &y, 2); }
        if (t == CLPAD_I32) { int32_t y = (int32_t)x; memcpy(out, &y, 4); }
    } else {
        uint64_t x = v >= 18446744073709551615.0 ? UINT64_MAX : v <= 0 ? 0 : (uint64_t)v;
        size_t es = clpad_dtype_size(t);
        if (es == 8) memcpy(out, &x, 8);
        if (es == 4) { uint32_t y = (uint32_t)x; memcpy(out, &y, 4); }
        if (es == 2) { uint16_t y = (uint16_t)x; memcpy(out, &y, 2); }
        if (es == 1) out[0] = (unsigned char)x;
    }
}

static void st_nan(clpad_dtype t, unsigned char *out)
{
    if (t == CLPAD_F32) {
        uint32_t q = 0x7fc00000u;
        memcpy(out, &q, 4);
    } else {
        uint64_t q = 0x7ff8000000000000ull;
        memcpy(out, &q, 8);
    }
}

/* A float statistic v (double; f32 values exact in it) stored in dtype t,
 * NaN as the type's quiet NaN. */
static void st_float(clpad_dtype t, double v, unsigned char *out)
{
    if (isnan(v)) {
        st_nan(t, out);
    } else if (t == CLPAD_F32) {
        float f = (float)v;
        memcpy(out, &f, 4);
    } else {
        memcpy(out, &v, 8);
    }
}

static _Thread_local clpad_dtype sort_t; /* qsort's comparator's dtype */

static int cmp(const void *a, const void *b)
{
    return less(sort_t, a, b) ? -1 : less(sort_t, b, a) ? 1 : 0;
}

/* The statistic of the n elements at p (stride bytes apart) into out. */
static void statistic(const clpad_np_call *c, const unsigned char *p, int64_t n, int64_t stride,
                      bool pairwise, unsigned char *out)
{
    clpad_dtype t = c->dtype;
    size_t es = c->esize;
    if (is_float(t))
        for (int64_t i = 0; i < n; i++)
            if (isnan(ld_d(t, p + i * stride))) {
                if (c->mode == CLPAD_NUMPY_MAXIMUM || c->mode == CLPAD_NUMPY_MINIMUM)
                    memcpy(out, p + i * stride, es); /* the first NaN */
                else
                    st_nan(t, out);
                return;
            }
    switch (c->mode) {
    case CLPAD_NUMPY_MAXIMUM:
    case CLPAD_NUMPY_MINIMUM: {
        const unsigned char *best = p;
        for (int64_t i = 1; i < n; i++) {
            const unsigned char *q = p + i * stride;
            if (c->mode == CLPAD_NUMPY_MAXIMUM ? less(t, best, q) : less(t, q, best))
                best = q;
        }
        memcpy(out, best, es);
        return;
    }
    case CLPAD_NUMPY_MEAN:
        if (t == CLPAD_F32) {
            float s = 0.f;
            if (pairwise)
                s += pw_f(p, n, stride);
            else
                for (int64_t i = 0; i < n; i++)
                    s += ld_f(p + i * stride);
            st_float(t, s / (float)n, out);
        } else {
            double s = 0.;
            if (pairwise)
                s += pw_d(t, p, n, stride);
            else
                for (int64_t i = 0; i < n; i++)
                    s += ld_d(t, p + i * stride);
            if (is_float(t))
                st_float(t, s / (double)n, out);
            else
                st_int(t, s / (double)n, out);
        }
        return;
    default: { /* median: sort a copy, the middle element or the mean of the two */
        unsigned char *tmp = malloc((size_t)n * es);
        if (!tmp)
            abort(); /* the reference is a test oracle */
        for (int64_t i = 0; i < n; i++)
            memcpy(tmp + i * es, p + i * stride, es);
        sort_t = t;
        qsort(tmp, (size_t)n, es, cmp);
        const unsigned char *hi = tmp + (size_t)(n / 2) * es, *lo = n % 2 ? hi : hi - es;
        if (t == CLPAD_F32) {
            float s = 0.f;
            s += ld_f(lo);
            if (n % 2 == 0)
                s += ld_f(hi);
            st_float(t, s / (n % 2 ? 1.f : 2.f), out);
        } else {
            double s = 0.;
            s += ld_d(t, lo);
            if (n % 2 == 0)
                s += ld_d(t, hi);
            s /= n % 2 ? 1. : 2.;
            if (is_float(t))
                st_float(t, s, out);
            else
                st_int(t, s, out);
        }
        free(tmp);
        return;
    }
    }
}

/* An integer element's bits (of any signedness), zero-extended. */
static uint64_t ld_bits(clpad_dtype t, const unsigned char *p)
{
    switch (clpad_dtype_size(t)) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* NaN results as x86-64 computes them (SSE, where numpy runs in the tests),
 * stated bit by bit so that the reference is the same on every host and the
 * kernel (kernels/pad_numpy.cl, np_nan) can follow it on every device
 * (NVIDIA's GPUs return 0x7fffffff for every NaN result): an operation
 * returns its first NaN operand, quieted (the quiet bit set, the payload
 * kept; a float converted to double moves its payload up 29 bits, a double
 * converted to float keeps its top 23), or, from an invalid operation on
 * numbers (inf - inf, 0 * inf), the default NaN, sign set. The operands are
 * bit patterns of dtype t (F32 or F64); nan_store writes the result. */
static const uint64_t f32_quiet = 0x00400000u, f32_default = 0xffc00000u;
static const uint64_t f64_quiet = 0x0008000000000000ull, f64_default = 0xfff8000000000000ull;

static void nan_store(clpad_dtype t, uint64_t bits, unsigned char *out)
{
    if (t == CLPAD_F32) {
        uint32_t b = (uint32_t)bits;
        memcpy(out, &b, 4);
    } else {
        memcpy(out, &bits, 8);
    }
}

/* the NaN of a op b, a and b in dtype t (F32 or F64): a's if a is a NaN,
 * else b's, quieted, else the default */
static uint64_t nan_of(clpad_dtype t, const unsigned char *a, const unsigned char *b)
{
    for (int k = 0; k < 2; k++) {
        const unsigned char *p = k ? b : a;
        if (isnan(ld_d(t, p)))
            return ld_bits(t, p) | (t == CLPAD_F32 ? f32_quiet : f64_quiet);
    }
    return t == CLPAD_F32 ? f32_default : f64_default;
}

/* a double NaN's bits converted to dtype t */
static uint64_t nan_from_double(clpad_dtype t, double v)
{
    uint64_t b;
    memcpy(&b, &v, 8);
    if (t == CLPAD_F64)
        return b | f64_quiet;
    return (b >> 63) << 31 | 0x7f800000u | f32_quiet | ((b >> 29) & 0x7fffffu);
}

/* 2 * edge - v in dtype t, as numpy computes it (integers wrap; a NaN result
 * by the rule above). */
static void odd_value(clpad_dtype t, const unsigned char *edge, const unsigned char *v,
                      unsigned char *out)
{
    if (t == CLPAD_F32) {
        float e = ld_f(edge), x = ld_f(v), r = 2.f * e;
        r = r - x;
        if (isnan(r))
            nan_store(t, nan_of(t, edge, v), out);
        else
            memcpy(out, &r, 4);
    } else if (t == CLPAD_F64) {
        double e = ld_d(t, edge), x = ld_d(t, v), r = 2. * e;
        r = r - x;
        if (isnan(r))
            nan_store(t, nan_of(t, edge, v), out);
        else
            memcpy(out, &r, 8);
    } else {
        /* modulo 2^64, then the type's low bits: two's complement wrapping */
        uint64_t r = 2u * ld_bits(t, edge) - ld_bits(t, v);
        switch (clpad_dtype_size(t)) {
        case 1: { uint8_t y = (uint8_t)r; memcpy(out, &y, 1); break; }
        case 2: { uint16_t y = (uint16_t)r; memcpy(out, &y, 2); break; }
        case 4: { uint32_t y = (uint32_t)r; memcpy(out, &y, 4); break; }
        default: memcpy(out, &r, 8);
        }
    }
}

/* numpy.pad's reflect / symmetric with reflect_type "odd" along one row of
 * N elements, `sa` bytes apart, data at [pb, pb + n): numpy's loop
 * (_set_reflect_both): while pads remain, a chunk before then a chunk
 * after, each at most the period long (reflect: the data's length less
 * one, counted in whole periods; symmetric: in whole lengths), mirrored
 * about the current outermost element e as 2 * e - v; a row of one element
 * repeats it (numpy's legacy rule for a singleton axis). */
static void odd_row(clpad_dtype t, size_t es, unsigned char *row, int64_t sa, int64_t pb,
                    int64_t n, int64_t N, bool sym)
{
    int64_t left = pb, right = N - pb - n;
    if (n == 1) {
        for (int64_t i = 0; i < N; i++)
            if (i != pb)
                memcpy(row + i * sa, row + pb * sa, es);
        return;
    }
    int64_t eo = sym ? 1 : 0;
    while (left > 0 || right > 0) {
        int64_t old = N - right - left;
        old = sym ? old / n * n : (old - 1) / (n - 1) * (n - 1);
        if (left > 0) {
            int64_t k = old < left ? old : left;
            unsigned char edge[8];
            memcpy(edge, row + left * sa, es);
            for (int64_t j = 0; j < k; j++)
                odd_value(t, edge, row + (left - eo + k - j) * sa, row + (left - k + j) * sa);
            left -= k;
        }
        if (right > 0) {
            int64_t k = old < right ? old : right, at = N - right;
            unsigned char edge[8];
            memcpy(edge, row + (at - 1) * sa, es);
            for (int64_t j = 0; j < k; j++)
                odd_value(t, edge, row + (at + eo - 2 - j) * sa, row + (at + j) * sa);
            right -= k;
        }
    }
}

/* A linear_ramp value y stored in dtype t: floats rounded to nearest even,
 * integers floor()ed and converted saturating (NaN: 0), as the kernel's
 * convert_<type>_sat_rtz. */
static void st_ramp(clpad_dtype t, double y, unsigned char *out)
{
    if (t == CLPAD_F32) {
        float f = (float)y;
        memcpy(out, &f, 4);
    } else if (t == CLPAD_F64) {
        memcpy(out, &y, 8);
    } else {
        st_int(t, isnan(y) ? 0. : floor(y), out);
    }
}

/* One side of a linear_ramp row: numpy's np.linspace(start, edge, num,
 * endpoint=False) (numpy's function_base.py), in float64 or, for f32
 * arrays that ask for it, float32: i * ((edge - start) / num), or, where
 * that step is 0 on any row of this axis' side (`zero`), (i / num) *
 * (edge - start); plus start. Step i is written at first + dir * i. */
static void ramp_side(const clpad_np_call *c, unsigned char *row, int64_t sa, int64_t first,
                      int64_t dir, int64_t num, double start, const unsigned char *edge,
                      bool zero)
{
    clpad_dtype t = c->dtype;
    for (int64_t i = 0; i < num; i++) {
        unsigned char *o = row + (first + dir * i) * sa;
        if (c->ramp_f32) {
            float s = (float)start, delta = ld_f(edge) - s, div = (float)num;
            float y = zero ? ((float)i / div) * delta : (float)i * (delta / div);
            y = y + s;
            unsigned char sb[8] = {0}; /* start as an f32 operand */
            memcpy(sb, &s, 4);
            if (isnan(y)) /* edge's NaN, else start's, else the default */
                nan_store(t, nan_of(t, edge, sb), o);
            else
                memcpy(o, &y, 4);
        } else {
            double delta = ld_d(t, edge) - start, div = (double)num;
            double y = zero ? ((double)i / div) * delta : (double)i * (delta / div);
            y = y + start;
            if (isnan(y) && (t == CLPAD_F32 || t == CLPAD_F64)) {
                uint64_t b = isnan(ld_d(t, edge)) ? nan_of(t, edge, edge)
                             : isnan(start)       ? nan_from_double(t, start)
                             : t == CLPAD_F32     ? f32_default
                                                  : f64_default;
                nan_store(t, b, o);
            } else {
                st_ramp(t, y, o);
            }
        }
    }
}

/* Whether a ramp side's step is 0 (numpy's any(step == 0) over the side). */
static bool ramp_zero(const clpad_np_call *c, int64_t num, double start,
                      const unsigned char *edge)
{
    if (num <= 0)
        return false;
    if (c->ramp_f32) {
        float s = (float)start, delta = ld_f(edge) - s;
        return delta / (float)num == 0.f;
    }
    return (ld_d(c->dtype, edge) - start) / (double)num == 0.;
}

void clpad__np_ref(const clpad_np_call *c, const void *input, void *output)
{
    const unsigned char *in = input;
    unsigned char *out = output;
    size_t es = c->esize;
    int rank = c->rank;
    int64_t stride[CLPAD_MAX_RANK]; /* elements of one step of each output axis */
    for (int a = rank - 1; a >= 0; a--)
        stride[a] = a == rank - 1 ? 1 : stride[a + 1] * c->out_shape[a + 1];
    if (c->out_bytes == 0)
        return;
    /* the input in the middle */
    int64_t idx[CLPAD_MAX_RANK] = {0};
    for (size_t k = 0; k * es < c->in_bytes; k++) {
        int64_t o = 0;
        for (int a = 0; a < rank; a++)
            o += (idx[a] + c->pads_begin[a]) * stride[a];
        memcpy(out + (size_t)o * es, in + k * es, es);
        for (int a = rank - 1; a >= 0 && ++idx[a] == c->shape[a]; a--)
            idx[a] = 0;
    }
    /* numpy's fill, axis by axis */
    for (int ax = 0; ax < rank; ax++) {
        if (!c->pads_begin[ax] && !c->pads_end[ax])
            continue;
        bool pairwise = clpad__np_pairwise(c, ax);
        int64_t lo[CLPAD_MAX_RANK], hi[CLPAD_MAX_RANK]; /* each axis' range of rows */
        bool empty = false;
        for (int a = 0; a < rank; a++) {
            lo[a] = a < ax ? 0 : c->pads_begin[a];
            hi[a] = a < ax ? c->out_shape[a] : a == ax ? lo[a] + 1 : lo[a] + c->shape[a];
            empty |= lo[a] == hi[a];
        }
        if (empty)
            continue;
        int64_t n = c->shape[ax], pb = c->pads_begin[ax], sa = stride[ax] * (int64_t)es;
        int64_t pe = c->pads_end[ax], N = c->out_shape[ax];
        bool ramp = c->mode == CLPAD_NUMPY_LINEAR_RAMP, zero[2] = {false, false};
        /* linear_ramp: a first pass over the rows finds the sides whose step
         * is 0 on some row, then the second writes */
        for (int pass = ramp ? 0 : 1; pass < 2; pass++) {
        memcpy(idx, lo, sizeof lo);
        for (;;) {
            int64_t o = 0;
            for (int a = 0; a < rank; a++)
                o += (a == ax ? 0 : idx[a]) * stride[a];
            unsigned char *row = out + (size_t)o * es;
            unsigned char left[8], right[8];
            if (ramp) {
                const unsigned char *el = row + pb * sa, *er = row + (pb + n - 1) * sa;
                if (pass == 0) {
                    zero[0] |= ramp_zero(c, pb, c->ramp_begin[ax], el);
                    zero[1] |= ramp_zero(c, pe, c->ramp_end[ax], er);
                } else {
                    unsigned char eb[8], ee[8]; /* (the edges, before the writes) */
                    memcpy(eb, el, es);
                    memcpy(ee, er, es);
                    ramp_side(c, row, sa, 0, 1, pb, c->ramp_begin[ax], eb, zero[0]);
                    ramp_side(c, row, sa, N - 1, -1, pe, c->ramp_end[ax], ee, zero[1]);
                }
                goto next;
            }
            if (c->mode >= CLPAD_NUMPY_REFLECT_ODD) {
                odd_row(c->dtype, es, row, sa, pb, n, c->out_shape[ax],
                        c->mode == CLPAD_NUMPY_SYMMETRIC_ODD);
                goto next;
            }
            statistic(c, row + pb * sa, c->stat_begin[ax], sa, pairwise, left);
            statistic(c, row + (pb + n - c->stat_end[ax]) * sa, c->stat_end[ax], sa, pairwise,
                      right);
            for (int64_t i = 0; i < pb; i++)
                memcpy(row + i * sa, left, es);
            for (int64_t i = pb + n; i < c->out_shape[ax]; i++)
                memcpy(row + i * sa, right, es);
        next:;
            int a = rank - 1;
            for (; a >= 0 && ++idx[a] == hi[a]; a--)
                idx[a] = lo[a];
            if (a < 0)
                break;
        }
        }
    }
}
