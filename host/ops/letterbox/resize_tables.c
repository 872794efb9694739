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
 * Built with -ffp-contract=off (cmake/Sources.cmake): every double
 * operation is Pillow's, one by one. */
#include "letterbox.h"

#include "coords.h"

#include <math.h>
#include <stdlib.h>

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
           interp == CLPAD_INTERP_PIL_LANCZOS;
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

clpad_status clpad__lb_taps_range(clpad_interp interp, int64_t src, int64_t dst, int64_t d0,
                                  int64_t d1, int64_t unit, lb_entry *e, lb_plan *p,
                                  size_t *cap)
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
