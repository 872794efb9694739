/* The variable-tap resize tables (docs/letterbox.md, "Resize"): Pillow's
 * Image.resize for 8-bit images, whose coefficients the CPU reference
 * (host/ops/letterbox/cpu.c) and the kernel (kernels/letterbox.cl,
 * letterbox_taps) read.
 *
 * The facts followed are those of Pillow's src/libImaging/Resample.c
 * (ImagingResample, precompute_coeffs, normalize_coeffs_8bpc): each output
 * sample d of an axis of src -> dst samples has its centre at
 * (d + 0.5) * scale, scale = src / dst; the filter's support is widened by
 * the reduction (support * max(scale, 1): the antialias); the taps are the
 * source samples [xmin, xmax) with xmin = (int)(centre - support + 0.5)
 * and xmax = (int)(centre + support + 0.5), clamped to the axis; each
 * weight is filter((x - centre + 0.5) / max(scale, 1)) in double precision,
 * the weights divided by their sum, then stored as integers of
 * PRECISION_BITS = 22 fractional bits, rounded half away from zero.
 *
 * OpenCV's INTER_AREA and INTER_CUBIC for 8-bit images (docs/letterbox.md,
 * "Resize") use the same tables with a rule per image (kernels/coords.h,
 * CLPAD_TAPS_*): the facts followed are those of OpenCV's
 * modules/imgproc/src/resize.cpp (cv::hal::resize, computeResizeAreaTab,
 * resizeAreaFast_Invoker, ResizeArea_Invoker, interpolateCubic,
 * HResizeCubic, VResizeCubic).
 *
 * Built with -ffp-contract=off (cmake/Sources.cmake): every double
 * operation is Pillow's (or OpenCV's), one by one. */
#include "letterbox.h"

#include "coords.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Pillow's filters: bilinear (support 1), bicubic with a = -0.5 (support
 * 2), Lanczos-3 (support 3), each evaluated as Pillow writes it. */
static double pil_bilinear(double x)
{
    if (x < 0.0)
        x = -x;
    if (x < 1.0)
        return 1.0 - x;
    return 0.0;
}

static double pil_bicubic(double x)
{
    const double a = -0.5;
    if (x < 0.0)
        x = -x;
    if (x < 1.0)
        return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
    if (x < 2.0)
        return (((x - 5) * x + 8) * x - 4) * a;
    return 0.0;
}

/* M_PI of <math.h>, which strict C11 does not declare */
#define PIL_PI 3.14159265358979323846

static double pil_sinc(double x)
{
    if (x == 0.0)
        return 1.0;
    x = x * PIL_PI;
    return sin(x) / x;
}

static double pil_lanczos(double x)
{
    if (-3.0 <= x && x < 3.0)
        return pil_sinc(x) * pil_sinc(x / 3);
    return 0.0;
}

bool clpad__lb_is_taps(clpad_interp interp)
{
    return interp == CLPAD_INTERP_PIL_BILINEAR || interp == CLPAD_INTERP_PIL_BICUBIC ||
           interp == CLPAD_INTERP_PIL_LANCZOS || interp == CLPAD_INTERP_AREA ||
           interp == CLPAD_INTERP_BICUBIC;
}

int clpad__lb_taps_rule(clpad_interp interp, int64_t h, int64_t w, int64_t rh, int64_t rw,
                        float *box_inv)
{
    *box_inv = 0.0f;
    if (interp == CLPAD_INTERP_BICUBIC)
        return CLPAD_TAPS_CUBIC;
    if (interp != CLPAD_INTERP_AREA)
        return CLPAD_TAPS_PIL;
    /* cv::hal::resize: scale = 1 / inv_scale, inv_scale = new / old */
    double sx = 1.0 / ((double)rw / (double)w), sy = 1.0 / ((double)rh / (double)h);
    if (sx < 1.0 || sy < 1.0) /* an enlarged axis: the linear resize */
        return CLPAD_TAPS_LINEAR;
    /* is_area_fast: both scales integers, within DBL_EPSILON of their
     * saturate_cast<int> (cvRound) */
    double ix = rint(sx), iy = rint(sy);
    if (fabs(sx - ix) < DBL_EPSILON && fabs(sy - iy) < DBL_EPSILON) {
        *box_inv = 1.0f / (float)((int64_t)ix * (int64_t)iy);
        return CLPAD_TAPS_AREA_FAST;
    }
    return CLPAD_TAPS_AREA;
}

/* Append k coefficients to the plan's array, growing it. */
static int32_t *coef_room(lb_plan *p, size_t k, size_t *cap)
{
    if (p->n_coefs + k > *cap) {
        size_t want = *cap ? *cap * 2 : 4096;
        while (want < p->n_coefs + k)
            want *= 2;
        int32_t *v = realloc(p->coefs, want * sizeof *v);
        if (!v)
            return NULL;
        p->coefs = v;
        *cap = want;
    }
    int32_t *at = p->coefs + p->n_coefs;
    p->n_coefs += k;
    return at;
}

static clpad_status coef_fail(void)
{
    return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox: out of host memory for the "
                                                "resize coefficients");
}

/* Room for k more coefficients at *at. */
static clpad_status coefs_for(lb_plan *p, size_t k, size_t *cap, int32_t **at)
{
    if (p->n_coefs + k > (size_t)INT32_MAX)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "letterbox: more than 2^31 resize coefficients in one batch");
    *at = coef_room(p, k, cap);
    return *at ? CLPAD_OK : coef_fail();
}

static int32_t float_bits(float f)
{
    int32_t v;
    memcpy(&v, &f, sizeof v);
    return v;
}

/* INTER_AREA's integer-ratio reduction: output sample d sums the `ratio`
 * source samples from d * ratio, each with weight 1; the factor 1 / area
 * (box_inv) after them. */
static clpad_status area_fast_range(int64_t src, int64_t dst, int64_t d0, int64_t d1,
                                    int64_t unit, float box_inv, lb_entry *e, lb_plan *p,
                                    size_t *cap)
{
    int64_t ratio = (int64_t)rint(1.0 / ((double)dst / (double)src));
    for (int64_t d = d0; d < d1; d++) {
        int32_t *k;
        clpad_status st = coefs_for(p, (size_t)ratio + 1, cap, &k);
        if (st)
            return st;
        for (int64_t i = 0; i < ratio; i++)
            k[i] = 1;
        k[ratio] = float_bits(box_inv);
        e[d - d0] = (lb_entry){(int32_t)(d * ratio * unit), (int32_t)ratio,
                               (int32_t)(k - p->coefs), CLPAD_TAPS_AREA_FAST};
    }
    return CLPAD_OK;
}

/* INTER_AREA's general reduction, computeResizeAreaTab for one axis: output
 * sample d covers [d * scale, d * scale + scale) of the source; the taps
 * are the partly covered sample before ceil(d * scale) (when more than 1e-3
 * of it is covered), the whole ones, and the partly covered one at
 * floor(d * scale + scale) (clamped to the axis), each weighing the part
 * covered over the cell's width min(scale, src - d * scale), in double,
 * stored as float. The taps are consecutive source samples. */
static clpad_status area_range(int64_t src, int64_t dst, int64_t d0, int64_t d1, int64_t unit,
                               lb_entry *e, lb_plan *p, size_t *cap)
{
    double scale = 1.0 / ((double)dst / (double)src);
    for (int64_t d = d0; d < d1; d++) {
        double fsx1 = (double)d * scale, fsx2 = fsx1 + scale;
        double cell = scale < (double)src - fsx1 ? scale : (double)src - fsx1;
        int64_t sx1 = (int64_t)ceil(fsx1), sx2 = (int64_t)floor(fsx2);
        if (sx2 > src - 1)
            sx2 = src - 1;
        if (sx1 > sx2)
            sx1 = sx2;
        /* at most sx2 - sx1 + 2 taps */
        int32_t *k;
        clpad_status st = coefs_for(p, (size_t)(sx2 - sx1 + 2), cap, &k);
        if (st)
            return st;
        int64_t first = sx1, n = 0;
        if ((double)sx1 - fsx1 > 1e-3) {
            first = sx1 - 1;
            k[n++] = float_bits((float)(((double)sx1 - fsx1) / cell));
        }
        for (int64_t sx = sx1; sx < sx2; sx++)
            k[n++] = float_bits((float)(1.0 / cell));
        if (fsx2 - (double)sx2 > 1e-3) {
            double part = fsx2 - (double)sx2 < 1.0 ? fsx2 - (double)sx2 : 1.0;
            k[n++] = float_bits((float)((part < cell ? part : cell) / cell));
        }
        /* return the unused room */
        p->n_coefs -= (size_t)(sx2 - sx1 + 2 - n);
        e[d - d0] = (lb_entry){(int32_t)(first * unit), (int32_t)n, (int32_t)(k - p->coefs),
                               CLPAD_TAPS_AREA};
    }
    return CLPAD_OK;
}

/* saturate_cast<short>(v * 2048): cvRound, clamped. */
static int32_t cv_short(float v)
{
    float r = rintf(v * 2048.0f);
    return r <= -32768.0f ? -32768 : r >= 32767.0f ? 32767 : (int32_t)r;
}

/* INTER_AREA where an axis is enlarged: OpenCV's linear resize (as
 * bilinear, host/ops/letterbox/plan.c) with INTER_AREA's coefficients:
 * s = floor(d * scale), f = (float)((d + 1) - (s + 1) * (dst / src)), 0
 * where it is <= 0, else its fraction f - floor(f); columns with
 * s >= src - 1 take f = 0, s = src - 1; rows read s and s + 1 clamped into
 * the axis. Weights saturate_cast<short>((1 - f) * 2048) and (f * 2048), as
 * one or two consecutive taps (one where both samples are the last: its
 * second weight is 0 there, f being <= 0 or below 2^-12 for it). */
static clpad_status area_linear_range(int64_t src, int64_t dst, int64_t d0, int64_t d1,
                                      int64_t unit, bool cols, lb_entry *e, lb_plan *p,
                                      size_t *cap)
{
    double inv = (double)dst / (double)src, scale = 1.0 / inv;
    for (int64_t d = d0; d < d1; d++) {
        int64_t s = (int64_t)floor((double)d * scale);
        float f = (float)((double)(d + 1) - (double)(s + 1) * inv);
        f = f <= 0.0f ? 0.0f : f - floorf(f);
        if (cols && s >= src - 1)
            f = 0.0f, s = src - 1;
        int32_t w0 = cv_short(1.0f - f), w1 = cv_short(f);
        int32_t *k;
        clpad_status st = coefs_for(p, 2, cap, &k);
        if (st)
            return st;
        int32_t n = s + 1 < src ? 2 : 1;
        k[0] = n == 2 ? w0 : w0 + w1;
        k[1] = w1;
        p->n_coefs -= (size_t)(2 - n);
        e[d - d0] = (lb_entry){(int32_t)(s * unit), n, (int32_t)(k - p->coefs),
                               CLPAD_TAPS_LINEAR};
    }
    return CLPAD_OK;
}

static clpad_status pil_range(clpad_interp interp, int64_t src, int64_t dst, int64_t d0,
                              int64_t d1, int64_t unit, lb_entry *e, lb_plan *p, size_t *cap);

/* OpenCV's interpolateCubic (A = -0.75) in single precision, as written. */
static void cv_cubic(float x, float c[4])
{
    const float A = -0.75f;
    c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
    c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
    c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
    c[3] = 1.f - c[0] - c[1] - c[2];
}

/* INTER_CUBIC along one axis (cv::hal::resize's set-up for 8-bit images):
 * f = (float)((d + 0.5) * scale - 0.5), s = floor(f), f -= s; weights
 * saturate_cast<short>(c_k * 2048) of interpolateCubic(f) for the source
 * samples s - 1 .. s + 2, each clamped into the axis (OpenCV's border
 * replication). Columns: the weights of one clamped sample are added
 * (integer sums: exact), the taps are the distinct samples, and the entry's
 * fourth int is how many of the pixel's `unit` samples OpenCV's vertical
 * vector loop computes (kernels/coords.h, CLPAD_CUBIC_VEC). Rows: the
 * distinct rows as taps, the coefficients beta0..3 then each of the four
 * rows' offset from the first. */
static clpad_status cubic_range(int64_t src, int64_t dst, int64_t d0, int64_t d1, int64_t unit,
                                bool cols, lb_entry *e, lb_plan *p, size_t *cap)
{
    double scale = 1.0 / ((double)dst / (double)src);
    int64_t vec_end = dst * unit / CLPAD_CUBIC_VEC * CLPAD_CUBIC_VEC;
    for (int64_t d = d0; d < d1; d++) {
        float f = (float)(((double)d + 0.5) * scale - 0.5);
        int64_t s = (int64_t)floorf(f);
        f -= (float)s;
        float c[4];
        cv_cubic(f, c);
        int64_t idx[4];
        for (int k = 0; k < 4; k++) {
            int64_t v = s - 1 + k;
            idx[k] = v < 0 ? 0 : v > src - 1 ? src - 1 : v;
        }
        int64_t n = idx[3] - idx[0] + 1;
        int32_t *k;
        clpad_status st = coefs_for(p, cols ? (size_t)n : 8, cap, &k);
        if (st)
            return st;
        int32_t fourth = CLPAD_TAPS_CUBIC;
        if (cols) {
            for (int64_t i = 0; i < n; i++)
                k[i] = 0;
            for (int t = 0; t < 4; t++)
                k[idx[t] - idx[0]] += cv_short(c[t]);
            int64_t in_vec = vec_end - d * unit;
            fourth = (int32_t)(in_vec < 0 ? 0 : in_vec > unit ? unit : in_vec);
        } else {
            for (int t = 0; t < 4; t++) {
                k[t] = cv_short(c[t]);
                k[4 + t] = (int32_t)(idx[t] - idx[0]);
            }
        }
        e[d - d0] = (lb_entry){(int32_t)(idx[0] * unit), (int32_t)n, (int32_t)(k - p->coefs),
                               fourth};
    }
    return CLPAD_OK;
}


clpad_status clpad__lb_taps_range(clpad_interp interp, int rule, float box_inv, int64_t src,
                                  int64_t dst, int64_t d0, int64_t d1, int64_t unit, bool cols,
                                  lb_entry *e, lb_plan *p, size_t *cap)
{
    if (rule == CLPAD_TAPS_AREA_FAST)
        return area_fast_range(src, dst, d0, d1, unit, box_inv, e, p, cap);
    if (rule == CLPAD_TAPS_AREA)
        return area_range(src, dst, d0, d1, unit, e, p, cap);
    if (rule == CLPAD_TAPS_LINEAR)
        return area_linear_range(src, dst, d0, d1, unit, cols, e, p, cap);
    if (rule == CLPAD_TAPS_CUBIC)
        return cubic_range(src, dst, d0, d1, unit, cols, e, p, cap);
    return pil_range(interp, src, dst, d0, d1, unit, e, p, cap);
}

static clpad_status pil_range(clpad_interp interp, int64_t src, int64_t dst, int64_t d0,
                              int64_t d1, int64_t unit, lb_entry *e, lb_plan *p, size_t *cap)
{
    double (*filter)(double) = interp == CLPAD_INTERP_PIL_BICUBIC   ? pil_bicubic
                               : interp == CLPAD_INTERP_PIL_LANCZOS ? pil_lanczos
                                                                    : pil_bilinear;
    double fsupport = interp == CLPAD_INTERP_PIL_BICUBIC   ? 2.0
                      : interp == CLPAD_INTERP_PIL_LANCZOS ? 3.0
                                                           : 1.0;
    /* Pillow's box is (0, 0, w, h) in single precision: in1 - in0 = src */
    double scale = (double)(float)src / (double)dst, filterscale = scale;
    if (filterscale < 1.0)
        filterscale = 1.0;
    double support = fsupport * filterscale, ss = 1.0 / filterscale;
    int64_t ksize = (int64_t)ceil(support) * 2 + 1;
    double *w = malloc((size_t)ksize * sizeof *w);
    if (!w)
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox: out of host memory for the "
                                                    "resize coefficients");
    clpad_status st = CLPAD_OK;
    for (int64_t d = d0; d < d1 && !st; d++) {
        double center = 0.0 + ((double)d + 0.5) * scale;
        int64_t xmin = (int64_t)(center - support + 0.5);
        if (xmin < 0)
            xmin = 0;
        int64_t xmax = (int64_t)(center + support + 0.5);
        if (xmax > src)
            xmax = src;
        xmax -= xmin;
        double ww = 0.0;
        for (int64_t x = 0; x < xmax; x++) {
            w[x] = filter(((double)(x + xmin) - center + 0.5) * ss);
            ww += w[x];
        }
        if (p->n_coefs + (size_t)(xmax > 0 ? xmax : 0) > (size_t)INT32_MAX) {
            st = clpad__fail(CLPAD_ERR_UNSUPPORTED,
                             "letterbox: more than 2^31 resize coefficients in one batch");
            break;
        }
        int32_t *k = coef_room(p, (size_t)(xmax > 0 ? xmax : 0), cap);
        if (!k) {
            st = clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox: out of host memory for the "
                                                      "resize coefficients");
            break;
        }
        for (int64_t x = 0; x < xmax; x++) {
            double v = ww != 0.0 ? w[x] / ww : w[x];
            /* normalize_coeffs_8bpc: (int)(+-0.5 + v * (1 << PRECISION_BITS)) */
            k[x] = v < 0 ? (int32_t)(-0.5 + v * (double)(1 << CLPAD_PIL_PRECISION_BITS))
                         : (int32_t)(0.5 + v * (double)(1 << CLPAD_PIL_PRECISION_BITS));
        }
        e[d - d0] = (lb_entry){(int32_t)(xmin * unit), (int32_t)(xmax > 0 ? xmax : 0),
                               (int32_t)(k - p->coefs), 0};
    }
    free(w);
    return st;
}
