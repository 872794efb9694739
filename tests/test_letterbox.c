/* Letterbox on the CPU reference path: the test suite's own oracle, written
 * from docs/letterbox.md with no shared code (OpenCV's two-pass resize into
 * whole buffers, the border by each mode's formula, the normalisation and
 * the compiler's own float -> _Float16 conversion), against
 * clpad_letterbox_cpu on random batches and edge cases; the transforms;
 * and the errors, which name the image and write nothing. No device. */
#include "letterbox_cases.h"

#include <float.h>
#include <math.h>

/* ---- The oracle ------------------------------------------------------------ */

typedef struct oracle_geom {
    double r, ry, rx;
    int64_t nh, nw, top, left;
} oracle_geom;

/* Python's round: half to even */
static double py_round(double f)
{
    double r = floor(f);
    if (f - r > 0.5 || (f - r == 0.5 && fmod(r, 2.0) != 0.0))
        r += 1.0;
    return r;
}

/* docs/letterbox.md, "Size and placement" (Ultralytics' LetterBox) and
 * "Fit" (torchvision's Resize and CenterCrop, Ultralytics' scaleFill), in
 * a slot of H x W. */
static oracle_geom oracle_geometry(int64_t h, int64_t w, const clpad_letterbox_options *o,
                                   int64_t H, int64_t W)
{
    oracle_geom g;
    double a = (double)o->out_height / (double)h, b = (double)o->out_width / (double)w;
    if (o->resize_shorter) {
        int64_t S = o->resize_shorter, sh = h < w ? h : w, lg = h < w ? w : h;
        int64_t nl = S * lg / sh; /* exact in integers at these sizes */
        g.r = (double)S / (double)sh;
        g.nh = w <= h ? nl : S;
        g.nw = w <= h ? S : nl;
        g.ry = (double)g.nh / (double)h;
        g.rx = (double)g.nw / (double)w;
    } else if (o->fit == CLPAD_FIT_STRETCH) {
        g.r = fmin(a, b);
        g.nh = o->out_height;
        g.nw = o->out_width;
        g.ry = a;
        g.rx = b;
    } else {
        g.r = o->fit == CLPAD_FIT_COVER ? fmax(a, b) : fmin(a, b);
        if (!o->scaleup)
            g.r = fmin(g.r, 1.0);
        double rh = py_round((double)h * g.r), rw = py_round((double)w * g.r);
        g.nh = rh < 1 ? 1 : (int64_t)rh;
        g.nw = rw < 1 ? 1 : (int64_t)rw;
        g.ry = g.rx = g.r;
    }
    if (o->placement == CLPAD_PLACE_CENTER) {
        /* Ultralytics: round(dh / 2 - 0.1); torchvision's crop:
         * int(round((h - H) / 2.0)) */
        double dh = (double)(H - g.nh) / 2, dw = (double)(W - g.nw) / 2;
        g.top = g.nh <= H ? (int64_t)nearbyint(dh - 0.1)
                          : -(int64_t)py_round((double)(g.nh - H) / 2.0);
        g.left = g.nw <= W ? (int64_t)nearbyint(dw - 0.1)
                           : -(int64_t)py_round((double)(g.nw - W) / 2.0);
    } else {
        g.top = g.left = 0;
    }
    return g;
}

/* The batch's slot: with a stride, each image's padding reduced modulo the
 * stride (Ultralytics' auto), the largest over the batch. */
static void oracle_slot(const lb_case *c, int64_t *H, int64_t *W)
{
    const clpad_letterbox_options *o = &c->o;
    *H = o->out_height;
    *W = o->out_width;
    if (!o->stride || !c->n)
        return;
    *H = *W = 1;
    for (size_t i = 0; i < c->n; i++) {
        const clpad_image *im = &c->im[i];
        oracle_geom g = oracle_geometry(im->geometry_height ? im->geometry_height : im->height,
                                        im->geometry_width ? im->geometry_width : im->width, o,
                                        o->out_height, o->out_width);
        int64_t sh = g.nh + (o->out_height - g.nh) % o->stride;
        int64_t sw = g.nw + (o->out_width - g.nw) % o->stride;
        *H = sh > *H ? sh : *H;
        *W = sw > *W ? sw : *W;
    }
}

/* cv::resize, 8-bit, INTER_LINEAR or INTER_NEAREST, into a dense nh x nw x C;
 * nearest 2: the linear resize with INTER_AREA's coefficients (OpenCV's
 * area_mode where an axis is enlarged). */
static void oracle_resize(const clpad_image *im, int64_t nh, int64_t nw, int nearest,
                          unsigned char *dst)
{
    bool area = nearest == 2;
    if (area)
        nearest = 0;
    const unsigned char *src = im->data;
    int64_t h = im->height, w = im->width, C = im->channels;
    int64_t stride = im->row_stride ? im->row_stride : w * C;
    double sx_scale = 1.0 / ((double)nw / (double)w), sy_scale = 1.0 / ((double)nh / (double)h);
    if (nearest) {
        for (int64_t y = 0; y < nh; y++) {
            int64_t sy = (int64_t)floor((double)y * sy_scale);
            if (sy > h - 1)
                sy = h - 1;
            for (int64_t x = 0; x < nw; x++) {
                int64_t sx = (int64_t)floor((double)x * sx_scale);
                if (sx > w - 1)
                    sx = w - 1;
                memcpy(dst + (y * nw + x) * C, src + sy * stride + sx * C, (size_t)C);
            }
        }
        return;
    }
    int64_t *xofs = malloc((size_t)nw * sizeof *xofs);
    short *alpha = malloc((size_t)nw * 2 * sizeof *alpha);
    int64_t xmax = nw;
    for (int64_t dx = 0; dx < nw; dx++) {
        float fx = (float)((dx + 0.5) * sx_scale - 0.5);
        int64_t sx = (int64_t)floorf(fx);
        fx -= (float)sx;
        if (area) {
            sx = (int64_t)floor((double)dx * sx_scale);
            fx = (float)((double)(dx + 1) - (double)(sx + 1) * ((double)nw / (double)w));
            fx = fx <= 0 ? 0.0f : fx - floorf(fx);
        }
        if (sx < 0)
            fx = 0, sx = 0;
        if (sx + 1 >= w) {
            if (dx < xmax)
                xmax = dx;
            if (sx >= w - 1)
                fx = 0, sx = w - 1;
        }
        xofs[dx] = sx;
        alpha[2 * dx] = (short)lrintf((1.f - fx) * 2048);
        alpha[2 * dx + 1] = (short)lrintf(fx * 2048);
    }
    int *h0 = malloc((size_t)(nw * C) * sizeof *h0), *h1 = malloc((size_t)(nw * C) * sizeof *h1);
    for (int64_t dy = 0; dy < nh; dy++) {
        float fy = (float)((dy + 0.5) * sy_scale - 0.5);
        int64_t sy = (int64_t)floorf(fy);
        fy -= (float)sy;
        if (area) {
            sy = (int64_t)floor((double)dy * sy_scale);
            fy = (float)((double)(dy + 1) - (double)(sy + 1) * ((double)nh / (double)h));
            fy = fy <= 0 ? 0.0f : fy - floorf(fy);
        }
        int b0 = (short)lrintf((1.f - fy) * 2048), b1 = (short)lrintf(fy * 2048);
        int64_t y0 = sy < 0 ? 0 : sy >= h ? h - 1 : sy;
        int64_t y1 = sy + 1 < 0 ? 0 : sy + 1 >= h ? h - 1 : sy + 1;
        const unsigned char *S[2] = {src + y0 * stride, src + y1 * stride};
        int *D[2] = {h0, h1};
        for (int k = 0; k < 2; k++) {
            for (int64_t dx = 0; dx < nw; dx++) {
                for (int64_t c = 0; c < C; c++) {
                    int64_t sx = xofs[dx] * C + c;
                    D[k][dx * C + c] = dx < xmax ? S[k][sx] * alpha[2 * dx] +
                                                       S[k][sx + C] * alpha[2 * dx + 1]
                                                 : S[k][sx] * 2048;
                }
            }
        }
        for (int64_t x = 0; x < nw * C; x++)
            dst[dy * nw * C + x] = (unsigned char)((((b0 * (h0[x] >> 4)) >> 16) +
                                                    ((b1 * (h1[x] >> 4)) >> 16) + 2) >>
                                                   2);
    }
    free(xofs);
    free(alpha);
    free(h0);
    free(h1);
}

/* OpenCV's saturate_cast<uchar>(float). */
static unsigned char oracle_cv_u8(float f)
{
    float r = nearbyintf(f);
    return !(r > 0) ? 0 : r >= 255 ? 255 : (unsigned char)r;
}

/* OpenCV's computeResizeAreaTab: entries {output sample, source sample,
 * weight} in order; returns their count. */
typedef struct oracle_area_tap {
    int64_t di, si;
    float alpha;
} oracle_area_tap;

static int64_t oracle_area_tab(int64_t ssize, int64_t dsize, double scale, oracle_area_tap *tab)
{
    int64_t k = 0;
    for (int64_t dx = 0; dx < dsize; dx++) {
        double fsx1 = (double)dx * scale, fsx2 = fsx1 + scale;
        double cell = fmin(scale, (double)ssize - fsx1);
        int64_t sx1 = (int64_t)ceil(fsx1), sx2 = (int64_t)floor(fsx2);
        sx2 = sx2 < ssize - 1 ? sx2 : ssize - 1;
        sx1 = sx1 < sx2 ? sx1 : sx2;
        if ((double)sx1 - fsx1 > 1e-3)
            tab[k++] = (oracle_area_tap){dx, sx1 - 1, (float)(((double)sx1 - fsx1) / cell)};
        for (int64_t sx = sx1; sx < sx2; sx++)
            tab[k++] = (oracle_area_tap){dx, sx, (float)(1.0 / cell)};
        if (fsx2 - (double)sx2 > 1e-3)
            tab[k++] = (oracle_area_tap){dx, sx2,
                                         (float)(fmin(fmin(fsx2 - (double)sx2, 1.0), cell) / cell)};
    }
    return k;
}

/* cv::resize, 8-bit, INTER_AREA, into a dense nh x nw x C, the way OpenCV
 * runs it on a whole image: resizeAreaFast (integer ratios), or
 * ResizeArea_Invoker (each source row's horizontal sums into buf, the rows
 * accumulated into sum, written when the output row changes), or the linear
 * resize with area coefficients where an axis is enlarged. */
static void oracle_area(const clpad_image *im, int64_t nh, int64_t nw, unsigned char *dst)
{
    const unsigned char *src = im->data;
    int64_t h = im->height, w = im->width, C = im->channels;
    int64_t stride = im->row_stride ? im->row_stride : w * C;
    double sx = 1.0 / ((double)nw / (double)w), sy = 1.0 / ((double)nh / (double)h);
    if (sx < 1 || sy < 1) {
        oracle_resize(im, nh, nw, 2, dst);
        return;
    }
    double ix = nearbyint(sx), iy = nearbyint(sy);
    if (fabs(sx - ix) < DBL_EPSILON && fabs(sy - iy) < DBL_EPSILON) {
        int64_t bx = (int64_t)ix, by = (int64_t)iy;
        float inv = 1.f / (float)(bx * by);
        for (int64_t y = 0; y < nh; y++)
            for (int64_t x = 0; x < nw * C; x++) {
                int64_t sum = 0;
                for (int64_t j = 0; j < by; j++)
                    for (int64_t i = 0; i < bx; i++)
                        sum += src[(y * by + j) * stride + (x / C * bx + i) * C + x % C];
                dst[y * nw * C + x] = bx == 2 && by == 2 ? (unsigned char)((sum + 2) >> 2)
                                                         : oracle_cv_u8((float)sum * inv);
            }
        return;
    }
    oracle_area_tap *xt = malloc((size_t)(2 * w) * sizeof *xt),
                    *yt = malloc((size_t)(2 * h) * sizeof *yt);
    int64_t nx = oracle_area_tab(w, nw, sx, xt), ny = oracle_area_tab(h, nh, sy, yt);
    float *buf = malloc((size_t)(nw * C) * sizeof *buf);
    float *sum = calloc((size_t)(nw * C), sizeof *sum);
    int64_t prev = yt[0].di;
    for (int64_t j = 0; j < ny; j++) {
        const unsigned char *S = src + yt[j].si * stride;
        float beta = yt[j].alpha;
        for (int64_t x = 0; x < nw * C; x++)
            buf[x] = 0;
        for (int64_t k = 0; k < nx; k++)
            for (int64_t c = 0; c < C; c++)
                buf[xt[k].di * C + c] += S[xt[k].si * C + c] * xt[k].alpha;
        if (yt[j].di != prev) {
            for (int64_t x = 0; x < nw * C; x++) {
                dst[prev * nw * C + x] = oracle_cv_u8(sum[x]);
                sum[x] = beta * buf[x];
            }
            prev = yt[j].di;
        } else {
            for (int64_t x = 0; x < nw * C; x++)
                sum[x] += beta * buf[x];
        }
    }
    for (int64_t x = 0; x < nw * C; x++)
        dst[prev * nw * C + x] = oracle_cv_u8(sum[x]);
    free(xt);
    free(yt);
    free(buf);
    free(sum);
}

/* cv::resize, 8-bit, INTER_CUBIC, into a dense nh x nw x C, as OpenCV's
 * resizeGeneric_ runs it without IPP: each output row's four source rows
 * (clamped) through HResizeCubic into int rows, then VResizeCubic: the
 * first (nw * C / 8) * 8 samples of the row by its float vector loop
 * (VResizeCubicVec_32s8u on 128-bit SIMD), the rest by FixedPtCast. */
static void oracle_cubic(const clpad_image *im, int64_t nh, int64_t nw, unsigned char *dst)
{
    const unsigned char *src = im->data;
    int64_t h = im->height, w = im->width, C = im->channels;
    int64_t stride = im->row_stride ? im->row_stride : w * C;
    double sx_scale = 1.0 / ((double)nw / (double)w), sy_scale = 1.0 / ((double)nh / (double)h);
    int64_t *xofs = malloc((size_t)nw * sizeof *xofs);
    short *alpha = malloc((size_t)nw * 4 * sizeof *alpha);
    const float A = -0.75f;
    for (int64_t dx = 0; dx < nw; dx++) {
        float fx = (float)((dx + 0.5) * sx_scale - 0.5);
        int64_t sx = (int64_t)floorf(fx);
        fx -= (float)sx;
        float c0 = ((A * (fx + 1) - 5 * A) * (fx + 1) + 8 * A) * (fx + 1) - 4 * A;
        float c1 = ((A + 2) * fx - (A + 3)) * fx * fx + 1;
        float c2 = ((A + 2) * (1 - fx) - (A + 3)) * (1 - fx) * (1 - fx) + 1;
        float c3 = 1.f - c0 - c1 - c2;
        xofs[dx] = sx;
        alpha[4 * dx] = (short)lrintf(c0 * 2048);
        alpha[4 * dx + 1] = (short)lrintf(c1 * 2048);
        alpha[4 * dx + 2] = (short)lrintf(c2 * 2048);
        alpha[4 * dx + 3] = (short)lrintf(c3 * 2048);
    }
    int *rows[4];
    for (int k = 0; k < 4; k++)
        rows[k] = malloc((size_t)(nw * C) * sizeof(int));
    int64_t width = nw * C, vec = 0;
    while (vec <= width - 8)
        vec += 8;
    for (int64_t dy = 0; dy < nh; dy++) {
        float fy = (float)((dy + 0.5) * sy_scale - 0.5);
        int64_t sy = (int64_t)floorf(fy);
        fy -= (float)sy;
        float b[4];
        b[0] = ((A * (fy + 1) - 5 * A) * (fy + 1) + 8 * A) * (fy + 1) - 4 * A;
        b[1] = ((A + 2) * fy - (A + 3)) * fy * fy + 1;
        b[2] = ((A + 2) * (1 - fy) - (A + 3)) * (1 - fy) * (1 - fy) + 1;
        b[3] = 1.f - b[0] - b[1] - b[2];
        short beta[4];
        for (int k = 0; k < 4; k++) {
            beta[k] = (short)lrintf(b[k] * 2048);
            int64_t r = sy - 1 + k;
            r = r < 0 ? 0 : r >= h ? h - 1 : r;
            const unsigned char *S = src + r * stride;
            for (int64_t dx = 0; dx < nw; dx++)
                for (int64_t c = 0; c < C; c++) {
                    int v = 0;
                    for (int j = 0; j < 4; j++) {
                        int64_t x = xofs[dx] - 1 + j;
                        x = x < 0 ? 0 : x >= w ? w - 1 : x;
                        v += S[x * C + c] * alpha[4 * dx + j];
                    }
                    rows[k][dx * C + c] = v;
                }
        }
        float scale = 1.f / (2048 * 2048);
        for (int64_t x = 0; x < width; x++) {
            int v;
            if (x < vec) {
                float t = (float)rows[3][x] * (beta[3] * scale);
                t = (float)rows[2][x] * (beta[2] * scale) + t;
                t = (float)rows[1][x] * (beta[1] * scale) + t;
                t = (float)rows[0][x] * (beta[0] * scale) + t;
                v = (int)nearbyintf(t);
            } else {
                v = (rows[0][x] * beta[0] + rows[1][x] * beta[1] + rows[2][x] * beta[2] +
                     rows[3][x] * beta[3] + (1 << 21)) >> 22;
            }
            dst[dy * width + x] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    }
    for (int k = 0; k < 4; k++)
        free(rows[k]);
    free(xofs);
    free(alpha);
}

/* Pillow's filters (its src/libImaging/Resample.c): support 1, 2 and 3. */
static double oracle_pil_filter(clpad_interp interp, double x)
{
    double ax = fabs(x);
    if (interp == CLPAD_INTERP_PIL_BILINEAR)
        return ax < 1.0 ? 1.0 - ax : 0.0;
    if (interp == CLPAD_INTERP_PIL_BICUBIC) {
        if (ax < 1.0)
            return ((-0.5 + 2.0) * ax - (-0.5 + 3.0)) * ax * ax + 1;
        if (ax < 2.0)
            return (((ax - 5) * ax + 8) * ax - 4) * -0.5;
        return 0.0;
    }
    if (!(-3.0 <= x && x < 3.0))
        return 0.0;
    double a = x == 0.0 ? 1.0 : sin(x * 3.14159265358979323846) / (x * 3.14159265358979323846);
    double b = x / 3 == 0.0 ? 1.0
                            : sin(x / 3 * 3.14159265358979323846) / (x / 3 * 3.14159265358979323846);
    return a * b;
}

/* Pillow's coefficients of one axis in -> out: bounds[2 * d] = first tap,
 * bounds[2 * d + 1] = taps, k[d * ksize ..] the 22-bit integers. */
static int64_t oracle_pil_coeffs(clpad_interp interp, int64_t in, int64_t out, int64_t **bounds,
                                 int32_t **k)
{
    double support0 = interp == CLPAD_INTERP_PIL_BILINEAR  ? 1.0
                      : interp == CLPAD_INTERP_PIL_BICUBIC ? 2.0
                                                           : 3.0;
    double scale = (double)in / (double)out, fs = scale < 1.0 ? 1.0 : scale;
    double support = support0 * fs;
    int64_t ksize = (int64_t)ceil(support) * 2 + 1;
    *bounds = malloc((size_t)out * 2 * sizeof **bounds);
    *k = calloc((size_t)(out * ksize), sizeof **k);
    double *w = malloc((size_t)ksize * sizeof *w);
    for (int64_t d = 0; d < out; d++) {
        double center = (d + 0.5) * scale;
        int64_t lo = (int64_t)(center - support + 0.5), hi = (int64_t)(center + support + 0.5);
        lo = lo < 0 ? 0 : lo;
        hi = (hi > in ? in : hi) - lo;
        double sum = 0.0;
        for (int64_t x = 0; x < hi; x++)
            sum += (w[x] = oracle_pil_filter(interp, (x + lo - center + 0.5) * (1.0 / fs)));
        for (int64_t x = 0; x < hi; x++) {
            double v = sum != 0.0 ? w[x] / sum : w[x];
            (*k)[d * ksize + x] = (int32_t)(v < 0 ? -0.5 + v * 4194304.0 : 0.5 + v * 4194304.0);
        }
        (*bounds)[2 * d] = lo;
        (*bounds)[2 * d + 1] = hi;
    }
    free(w);
    return ksize;
}

static unsigned char oracle_clip8(int64_t v)
{
    return v <= 0 ? 0 : v >= (int64_t)256 << 22 ? 255 : (unsigned char)(v >> 22);
}

/* Pillow's Image.resize of an 8-bit image into a dense nh x nw x C:
 * ImagingResampleInner's two passes into whole images, the horizontal pass
 * over every source row first (its u8 results kept), then the vertical; or
 * (Pillow's vertical-first order, docs/letterbox.md 1.2) the vertical pass
 * over every source column first, then the horizontal. */
static void oracle_pil_resize(const clpad_image *im, int64_t nh, int64_t nw, clpad_interp interp,
                              int pil_version, unsigned char *dst)
{
    const unsigned char *src = im->data;
    int64_t h = im->height, w = im->width, C = im->channels;
    int64_t stride = im->row_stride ? im->row_stride : w * C;
    int64_t *bx, *by;
    int32_t *kx, *ky;
    int64_t ksx = oracle_pil_coeffs(interp, w, nw, &bx, &kx);
    int64_t ksy = oracle_pil_coeffs(interp, h, nh, &by, &ky);
    bool vfirst = nh < h && (pil_version == 12 ? h > 100 * w : 2 * (nw - w) > nh - h);
    if (vfirst) {
        unsigned char *tv = malloc((size_t)(nh * w * C));
        for (int64_t y = 0; y < nh; y++)
            for (int64_t x = 0; x < w * C; x++) {
                int64_t acc = 1 << 21;
                for (int64_t t = 0; t < by[2 * y + 1]; t++)
                    acc += src[(by[2 * y] + t) * stride + x] * (int64_t)ky[y * ksy + t];
                tv[y * w * C + x] = oracle_clip8(acc);
            }
        for (int64_t y = 0; y < nh; y++)
            for (int64_t x = 0; x < nw; x++)
                for (int64_t c = 0; c < C; c++) {
                    int64_t acc = 1 << 21;
                    for (int64_t t = 0; t < bx[2 * x + 1]; t++)
                        acc += tv[(y * w + bx[2 * x] + t) * C + c] * (int64_t)kx[x * ksx + t];
                    dst[(y * nw + x) * C + c] = oracle_clip8(acc);
                }
        free(tv);
        free(bx);
        free(by);
        free(kx);
        free(ky);
        return;
    }
    unsigned char *tmp = malloc((size_t)(h * nw * C));
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < nw; x++)
            for (int64_t c = 0; c < C; c++) {
                int64_t acc = 1 << 21;
                for (int64_t t = 0; t < bx[2 * x + 1]; t++)
                    acc += src[y * stride + (bx[2 * x] + t) * C + c] * (int64_t)kx[x * ksx + t];
                tmp[(y * nw + x) * C + c] = oracle_clip8(acc);
            }
    for (int64_t y = 0; y < nh; y++)
        for (int64_t x = 0; x < nw * C; x++) {
            int64_t acc = 1 << 21;
            for (int64_t t = 0; t < by[2 * y + 1]; t++)
                acc += tmp[(by[2 * y] + t) * nw * C + x] * (int64_t)ky[y * ksy + t];
            dst[y * nw * C + x] = oracle_clip8(acc);
        }
    free(tmp);
    free(bx);
    free(by);
    free(kx);
    free(ky);
}

/* The source index of padded coordinate c on an axis of size D; -1: constant. */
static int64_t oracle_map(clpad_pad_mode mode, int64_t c, int64_t D)
{
    if (c >= 0 && c < D)
        return c;
    switch (mode) {
    case CLPAD_PAD_EDGE: return c < 0 ? 0 : D - 1;
    case CLPAD_PAD_REFLECT: return c < 0 ? -c : 2 * (D - 1) - c;
    case CLPAD_PAD_SYMMETRIC: return c < 0 ? -c - 1 : 2 * D - 1 - c;
    case CLPAD_PAD_WRAP: return ((c % D) + D) % D;
    default: return -1;
    }
}

/* One value of the output dtype, from sample v of output channel c. */
static void oracle_value(const clpad_letterbox_options *o, int c, unsigned v, unsigned char *out)
{
    float f = ((float)v * o->scale / o->divisor - o->mean[c]) / o->std[c];
    if (o->dtype == CLPAD_F32) {
        memcpy(out, &f, 4);
    } else if (o->dtype == CLPAD_F16) {
        _Float16 h = (_Float16)f;
        memcpy(out, &h, 2);
    } else {
        *out = isnan(f) || f <= 0 ? 0 : f >= 255 ? 255 : (unsigned char)nearbyintf(f);
    }
}

static void oracle(const lb_case *c, unsigned char *out, clpad_letterbox_transform *t)
{
    const clpad_letterbox_options *o = &c->o;
    int64_t H, W;
    oracle_slot(c, &H, &W);
    size_t es = clpad_dtype_size(o->dtype);
    for (size_t i = 0; i < c->n; i++) {
        const clpad_image *im = &c->im[i];
        int64_t C = im->channels;
        /* the geometry of the source a decode-scaled image stands for */
        oracle_geom g = oracle_geometry(im->geometry_height ? im->geometry_height : im->height,
                                        im->geometry_width ? im->geometry_width : im->width, o,
                                        H, W);
        t[i] = (clpad_letterbox_transform){sizeof t[i], g.r, g.top, g.left, g.nh, g.nw, g.ry, g.rx};
        unsigned char *rs = malloc((size_t)(g.nh * g.nw * C));
        if (o->interp == CLPAD_INTERP_AREA)
            oracle_area(im, g.nh, g.nw, rs);
        else if (o->interp == CLPAD_INTERP_BICUBIC)
            oracle_cubic(im, g.nh, g.nw, rs);
        else if (o->interp >= CLPAD_INTERP_PIL_BILINEAR)
            oracle_pil_resize(im, g.nh, g.nw, o->interp, o->pil_version, rs);
        else
            oracle_resize(im, g.nh, g.nw, o->interp == CLPAD_INTERP_NEAREST, rs);
        for (int64_t y = 0; y < H; y++) {
            for (int64_t x = 0; x < W; x++) {
                int64_t my = oracle_map(o->pad_mode, y - g.top, g.nh);
                int64_t mx = oracle_map(o->pad_mode, x - g.left, g.nw);
                for (int64_t ch = 0; ch < C; ch++) {
                    int64_t sc = o->swap_rb && C >= 3 && ch != 1 && ch != 3 ? 2 - ch : ch;
                    unsigned v = my < 0 || mx < 0 ? o->pad_value[sc] /* the image's order */
                                                  : rs[(my * g.nw + mx) * C + sc];
                    size_t at = o->layout == CLPAD_LAYOUT_NCHW
                                    ? (size_t)(((int64_t)i * C + ch) * H * W + y * W + x)
                                    : (size_t)((((int64_t)i * H + y) * W + x) * C + ch);
                    oracle_value(o, (int)ch, v, out + at * es);
                }
            }
        }
        free(rs);
    }
}

/* ---- Comparing ----------------------------------------------------------------- */

/* Run a case through clpad_letterbox_cpu and the oracle; 1 if it ran. */
static int check_case(const lb_case *c, int index)
{
    char buf[1024];
    size_t bytes = lb_case_out_bytes(c);
    int64_t shape[4];
    clpad_status st = clpad_letterbox_plan(c->im, c->n, &c->o, shape, NULL);
    if (st == CLPAD_ERR_INVALID_PADS) {
        /* reflect / symmetric beyond its limit: the oracle must agree */
        bool broken = false;
        int64_t H, W;
        oracle_slot(c, &H, &W);
        for (size_t i = 0; i < c->n; i++) {
            const clpad_image *im = &c->im[i];
            oracle_geom g =
                oracle_geometry(im->geometry_height ? im->geometry_height : im->height,
                                im->geometry_width ? im->geometry_width : im->width, &c->o, H,
                                W);
            int64_t lim = c->o.pad_mode == CLPAD_PAD_REFLECT ? 1 : 0;
            int64_t pads[4] = {g.top, H - g.nh - g.top, g.left, W - g.nw - g.left};
            int64_t dims[4] = {g.nh, g.nh, g.nw, g.nw};
            for (int k = 0; k < 4; k++)
                broken |= pads[k] > dims[k] - lim;
        }
        if (!broken)
            fail_msg("case %d: refused as INVALID_PADS but no pad breaks the limit (%s): %s",
                     index, clpad_last_error(), lb_case_str(c, buf, sizeof buf));
        return 0;
    }
    TU_ASSERT_OK(st);
    unsigned char *want = malloc(bytes + 1), *got = malloc(bytes + 1);
    clpad_letterbox_transform tw[LB_MAX_IMAGES], tg[LB_MAX_IMAGES];
    clpad_letterbox_transform_init(&tw[0]);
    clpad_letterbox_transform_init(&tg[0]);
    oracle(c, want, tw);
    memset(got, 0xA5, bytes + 1);
    TU_ASSERT_OK(clpad_letterbox_cpu(c->im, c->n, &c->o, got, bytes, tg));
    if (memcmp(got, want, bytes)) {
        size_t k = 0;
        while (got[k] == want[k])
            k++;
        fail_msg("case %d: byte %zu = %u, the oracle says %u: %s", index, k, got[k], want[k],
                 lb_case_str(c, buf, sizeof buf));
    }
    if (got[bytes] != 0xA5)
        fail_msg("case %d: written past the output", index);
    for (size_t i = 0; i < c->n; i++)
        if (memcmp(&tw[i], &tg[i], sizeof tw[i]))
            fail_msg("case %d: images[%zu] transform {%g, %lld, %lld, %lld, %lld}, the oracle "
                     "says {%g, %lld, %lld, %lld, %lld}",
                     index, i, tg[i].scale, (long long)tg[i].pad_top, (long long)tg[i].pad_left,
                     (long long)tg[i].resized_height, (long long)tg[i].resized_width, tw[i].scale,
                     (long long)tw[i].pad_top, (long long)tw[i].pad_left,
                     (long long)tw[i].resized_height, (long long)tw[i].resized_width);
    free(want);
    free(got);
    return 1;
}

static void test_random_batches(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x1E77E8B0;
    int ran = 0, refused = 0;
    enum { CASES = 300 };
    for (int i = 0; i < CASES; i++) {
        lb_case c;
        lb_random_case(&c, &rng, 5, i % 10 == 0 ? 400 : 60, i % 10 == 1 ? 300 : 48);
        if (check_case(&c, i))
            ran++;
        else
            refused++;
        lb_case_free(&c);
    }
    printf("%d random batches equal the oracle (%d refused by reflect/symmetric limits, "
           "checked)\n",
           ran, refused);
    assert_true(ran > CASES / 2);
}

/* OpenCV's INTER_AREA (docs/letterbox.md, "Resize"): batches whose images
 * take each of its paths (integer-ratio boxes, 2 x 2 among them; other
 * reductions; an enlarged axis; the same size) against the oracle's whole-
 * image INTER_AREA. */
static void test_area_rules(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xA4EA;
    for (int i = 0; i < 40; i++) {
        lb_case c;
        lb_rules_case(&c, &rng, CLPAD_INTERP_AREA, i % 4 ? 24 : 90);
        assert_int_equal(check_case(&c, i), 1);
        lb_case_free(&c);
    }
    printf("40 area batches of every INTER_AREA path equal the oracle\n");
}

/* OpenCV's INTER_CUBIC: batches of every kind of ratio (stretch; the rows'
 * vector and scalar parts of OpenCV's vertical pass at every width) against
 * the oracle's whole-image INTER_CUBIC. */
static void test_cubic_rules(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xC0B1C;
    for (int i = 0; i < 40; i++) {
        lb_case c;
        lb_rules_case(&c, &rng, CLPAD_INTERP_BICUBIC, i % 4 ? 24 : 90);
        assert_int_equal(check_case(&c, i), 1);
        lb_case_free(&c);
    }
    printf("40 bicubic batches equal the oracle\n");
}

/* Images already the slot's size, one pixel wide, one pixel tall, enlarged
 * and shrunk, exactly halved (OpenCV switches to INTER_AREA there, which is
 * the same sum), every interpolation and layout. */
static void test_edge_cases(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xED6E;
    static const int64_t sizes[][2] = {{64, 48}, {1, 1}, {1, 37}, {37, 1}, {7, 5},  {200, 90},
                                       {640, 480}, {128, 96}, {33, 300}, {2, 2}};
    int n = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        for (int interp = 0; interp < 2; interp++) {
            for (int layout = 0; layout < 2; layout++, n++) {
                lb_case c;
                memset(&c, 0, sizeof c);
                c.n = 1;
                lb_case_image(&c, 0, sizes[s][0], sizes[s][1], 3, layout, &rng);
                clpad_letterbox_options_init(&c.o, 64, 48);
                c.o.interp = (clpad_interp)interp;
                c.o.layout = (clpad_layout)layout;
                c.o.dtype = CLPAD_U8;
                assert_int_equal(check_case(&c, n), 1);
                lb_case_free(&c);
            }
        }
    }
    /* an image of the slot's size comes back unchanged (u8, NHWC) */
    lb_case c;
    memset(&c, 0, sizeof c);
    c.n = 1;
    lb_case_image(&c, 0, 30, 40, 3, 0, &rng);
    clpad_letterbox_options_init(&c.o, 30, 40);
    c.o.dtype = CLPAD_U8;
    c.o.layout = CLPAD_LAYOUT_NHWC;
    unsigned char out[30 * 40 * 3];
    clpad_letterbox_transform t;
    clpad_letterbox_transform_init(&t);
    TU_ASSERT_OK(clpad_letterbox_cpu(c.im, 1, &c.o, out, sizeof out, &t));
    assert_memory_equal(out, c.pixels[0], sizeof out);
    assert_true(t.scale == 1.0 && t.pad_top == 0 && t.pad_left == 0 && t.resized_height == 30);
    lb_case_free(&c);
    printf("%d edge cases equal the oracle; an image of the slot's size is unchanged\n", n);
}

/* Normalisations at the edges of the dtypes against the oracle (the
 * compiler's float -> _Float16): f32 denormals, f16 subnormals, ties and
 * overflow, u8 ties and saturation; every sample value 0..255 occurs. */
static void test_value_edges(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xF16;
    static const struct {
        clpad_dtype dtype;
        float scale, mean, std_;
    } sets[] = {
        {CLPAD_F32, 1e-38f, 0.0f, 1.0f},   {CLPAD_F32, 1.0f, 127.5f, 3e37f},
        {CLPAD_F16, 1e-6f, 0.0f, 1.0f},    {CLPAD_F16, 0x1p-25f, 0.0f, 1.0f},
        {CLPAD_F16, 1.0f, -2048.0f, 1.0f}, {CLPAD_F16, 1.0f, 0.0f, 0.0039f},
        {CLPAD_F16, 257.0f, -65000.0f, 1.0f}, {CLPAD_F16, 1.0f, 0.5f, 4096.0f},
        {CLPAD_U8, 0.5f, 0.0f, 1.0f},      {CLPAD_U8, 3.0f, 200.0f, -1.0f},
        {CLPAD_U8, 1.0f, -0.5f, 1.0f},
    };
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        lb_case c;
        memset(&c, 0, sizeof c);
        c.n = 1;
        lb_case_image(&c, 0, 16, 16, 1, 0, &rng);
        for (int v = 0; v < 256; v++)
            c.pixels[0][v] = (unsigned char)v;
        clpad_letterbox_options_init(&c.o, 16, 16);
        c.o.dtype = sets[k].dtype;
        c.o.scale = sets[k].scale;
        c.o.mean[0] = sets[k].mean;
        c.o.std[0] = sets[k].std_;
        assert_int_equal(check_case(&c, (int)k), 1);
        lb_case_free(&c);
    }
}

/* Ultralytics' numbers: 1080x1920 into 640x640 is r = 1/3, 360x640, pad_top
 * 140; an odd total puts the extra pixel at the bottom / right; scale-up
 * off keeps a small image at its size; a 1 x 10000 image keeps one row. */
static void test_transforms(void **state)
{
    (void)state;
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 640, 640);
    clpad_image im[4] = {{.height = 1080, .width = 1920, .channels = 3},
                         {.height = 481, .width = 640, .channels = 3},
                         {.height = 100, .width = 50, .channels = 3},
                         {.height = 1, .width = 10000, .channels = 3}};
    clpad_letterbox_transform t[4];
    clpad_letterbox_transform_init(&t[0]);
    int64_t shape[4];
    TU_ASSERT_OK(clpad_letterbox_plan(im, 4, &o, shape, t));
    assert_int_equal(shape[0], 4);
    assert_int_equal(shape[1], 3);
    assert_int_equal(shape[2], 640);
    assert_int_equal(shape[3], 640);
    assert_true(t[0].scale == 640.0 / 1920.0);
    assert_int_equal(t[0].resized_height, 360);
    assert_int_equal(t[0].resized_width, 640);
    assert_int_equal(t[0].pad_top, 140);
    assert_int_equal(t[0].pad_left, 0);
    assert_int_equal(t[1].resized_height, 481); /* r = 1 */
    assert_int_equal(t[1].pad_top, 79);         /* 159 = 79 top + 80 bottom */
    assert_int_equal(t[2].resized_height, 640);
    assert_int_equal(t[2].resized_width, 320);
    assert_int_equal(t[2].pad_left, 160);
    assert_int_equal(t[3].resized_height, 1); /* round(0.064) = 0, kept at 1 */
    assert_int_equal(t[3].resized_width, 640);
    o.scaleup = 0;
    o.placement = CLPAD_PLACE_TOP_LEFT;
    o.layout = CLPAD_LAYOUT_NHWC;
    TU_ASSERT_OK(clpad_letterbox_plan(im, 4, &o, shape, t));
    assert_int_equal(shape[3], 3);
    assert_int_equal(t[2].resized_height, 100);
    assert_true(t[2].scale == 1.0);
    assert_int_equal(t[2].pad_top, 0);
    assert_int_equal(t[2].pad_left, 0);
    /* round half to even: 5 x 0.5 = 2.5 -> 2, 7 x 0.5 = 3.5 -> 4 */
    clpad_letterbox_options_init(&o, 5, 10);
    clpad_image h[2] = {{.height = 10, .width = 5, .channels = 1},
                        {.height = 10, .width = 7, .channels = 1}};
    TU_ASSERT_OK(clpad_letterbox_plan(h, 2, &o, shape, t));
    assert_int_equal(t[0].resized_width, 2);
    assert_int_equal(t[1].resized_width, 4);
}

/* A bad image anywhere in a batch fails the whole call, names the image,
 * and writes nothing. */
static void test_errors(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xBAD;
    unsigned char px[64 * 64 * 4];
    tu_fill(px, sizeof px, &rng);
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 16, 16);
    unsigned char out[4 * 3 * 16 * 16 * 4];
    struct {
        clpad_image bad;
        clpad_status want;
        const char *says;
    } cases[] = {
        {{.data = px, .height = 0, .width = 4, .channels = 3}, CLPAD_ERR_INVALID_SHAPE, "images[2]"},
        {{.data = px, .height = 4, .width = -1, .channels = 3}, CLPAD_ERR_INVALID_SHAPE, "images[2]"},
        {{.data = px, .height = 4, .width = 4, .channels = 4}, CLPAD_ERR_INVALID_SHAPE, "images[2]: 4 channels"},
        {{.data = px, .height = 4, .width = 4, .channels = 2}, CLPAD_ERR_INVALID_SHAPE, "images[2]: 2 channels"},
        {{.data = px, .height = 4, .width = 4, .channels = 3, .row_stride = 11},
         CLPAD_ERR_INVALID_SHAPE, "images[2]: row_stride 11"},
        {{.data = NULL, .height = 4, .width = 4, .channels = 3}, CLPAD_ERR_INVALID_ARGUMENT,
         "images[2]: data is NULL"},
        {{.data = px, .height = 4, .width = 4, .channels = 3, .geometry_height = 8},
         CLPAD_ERR_INVALID_SHAPE, "images[2]: geometry 8 x 0"},
        {{.data = px, .height = 4, .width = 4, .channels = 3, .geometry_height = -8,
          .geometry_width = 8},
         CLPAD_ERR_INVALID_SHAPE, "images[2]: geometry -8 x 8"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        clpad_image im[4] = {{.data = px, .height = 8, .width = 8, .channels = 3},
                             {.data = px, .height = 3, .width = 9, .channels = 3},
                             cases[k].bad,
                             {.data = px, .height = 5, .width = 5, .channels = 3}};
        memset(out, 0x5A, sizeof out);
        clpad_letterbox_transform t[4];
        clpad_letterbox_transform_init(&t[0]);
        memset(t, 0x5A, sizeof t);
        TU_ASSERT_STATUS(clpad_letterbox_cpu(im, 4, &o, out, sizeof out, t), cases[k].want);
        if (!strstr(clpad_last_error(), cases[k].says))
            fail_msg("case %zu: message '%s' does not say '%s'", k, clpad_last_error(),
                     cases[k].says);
        for (size_t i = 0; i < sizeof out; i++)
            if (out[i] != 0x5A)
                fail_msg("case %zu: output byte %zu written by a failed call", k, i);
        for (size_t i = 0; i < sizeof t; i++)
            if (((unsigned char *)t)[i] != 0x5A)
                fail_msg("case %zu: transforms written by a failed call", k);
    }
    /* reflect beyond the resized image: a 1 x 64 image into 16 x 16 */
    clpad_image thin[2] = {{.data = px, .height = 8, .width = 8, .channels = 3},
                           {.data = px, .height = 1, .width = 64, .channels = 3}};
    o.pad_mode = CLPAD_PAD_REFLECT;
    TU_ASSERT_STATUS(clpad_letterbox_cpu(thin, 2, &o, out, sizeof out, NULL),
                     CLPAD_ERR_INVALID_PADS);
    assert_non_null(strstr(clpad_last_error(), "images[1]: pad_top"));
    o.pad_mode = CLPAD_PAD_EDGE; /* edge has no limit */
    TU_ASSERT_OK(clpad_letterbox_cpu(thin, 2, &o, out, sizeof out, NULL));
    /* options */
    clpad_letterbox_options_init(&o, 16, 16);
    o.std[1] = 0;
    TU_ASSERT_STATUS(clpad_letterbox_cpu(thin, 2, &o, out, sizeof out, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "std[1]"));
    clpad_letterbox_options_init(&o, 16, 16);
    o.dtype = CLPAD_I32;
    TU_ASSERT_STATUS(clpad_letterbox_cpu(thin, 2, &o, out, sizeof out, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    clpad_letterbox_options_init(&o, 0, 16);
    TU_ASSERT_STATUS(clpad_letterbox_cpu(thin, 2, &o, out, sizeof out, NULL),
                     CLPAD_ERR_INVALID_SHAPE);
    clpad_letterbox_options_init(&o, 16, 16);
    TU_ASSERT_STATUS(clpad_letterbox_cpu(thin, 2, &o, out, 2 * 3 * 16 * 16 * 4 - 1, NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    TU_ASSERT_STATUS(clpad_letterbox_cpu(thin, 2, NULL, out, sizeof out, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    /* sizes at the edges of the types: refused by name, before any read */
    clpad_letterbox_options_init(&o, 16, 16);
    clpad_image huge[3] = {{.data = px, .height = 4, .width = 4, .channels = 3},
                           {.data = px, .height = (int64_t)1 << 40, .width = 4, .channels = 3},
                           {.data = px, .height = 4, .width = (int64_t)1 << 40, .channels = 3}};
    int64_t shp[4];
    TU_ASSERT_STATUS(clpad_letterbox_plan(huge, 2, &o, shp, NULL), CLPAD_ERR_UNSUPPORTED);
    assert_non_null(strstr(clpad_last_error(), "images[1]"));
    clpad_image h3[2] = {huge[0], huge[2]};
    TU_ASSERT_STATUS(clpad_letterbox_plan(h3, 2, &o, shp, NULL), CLPAD_ERR_UNSUPPORTED);
    clpad_image stride[2] = {huge[0], {.data = px, .height = (int64_t)1 << 30, .width = 4,
                                       .channels = 3, .row_stride = INT64_MAX / 2}};
    TU_ASSERT_STATUS(clpad_letterbox_plan(stride, 2, &o, shp, NULL), CLPAD_ERR_OVERFLOW);
    assert_non_null(strstr(clpad_last_error(), "images[1]"));
    clpad_letterbox_options_init(&o, (int64_t)1 << 31, 16);
    TU_ASSERT_STATUS(clpad_letterbox_plan(huge, 1, &o, shp, NULL), CLPAD_ERR_UNSUPPORTED);
    clpad_letterbox_options_init(&o, INT32_MAX, INT32_MAX); /* 4 * 3 * (2^31)^2 bytes */
    TU_ASSERT_STATUS(clpad_letterbox_plan(huge, 1, &o, shp, NULL), CLPAD_ERR_OVERFLOW);
    clpad_letterbox_options_init(&o, 16, 16);
    o.scale = NAN;
    TU_ASSERT_STATUS(clpad_letterbox_plan(huge, 1, &o, shp, NULL), CLPAD_ERR_INVALID_ARGUMENT);
    clpad_letterbox_options_init(&o, 16, 16);
    o.interp = CLPAD_INTERP_COUNT;
    TU_ASSERT_STATUS(clpad_letterbox_plan(huge, 1, &o, shp, NULL), CLPAD_ERR_INVALID_ARGUMENT);
    clpad_letterbox_options_init(&o, 16, 16);
    /* an empty batch is an empty tensor */
    int64_t shape[4];
    TU_ASSERT_OK(clpad_letterbox_plan(NULL, 0, &o, shape, NULL));
    assert_int_equal(shape[0], 0);
    TU_ASSERT_OK(clpad_letterbox_cpu(NULL, 0, &o, NULL, 0, NULL));
}

/* Names of the options round-trip. */
/* The fits' numbers, worked by hand from their sources: torchvision's
 * Resize(256) of a 375 x 500 image is 256 x 341 (int(256 * 500 / 375)),
 * CenterCrop(224) then starts at top int(round(16.0)) = 16 and left
 * int(round(58.5)) = 58 (half to even); cover of 1080 x 1920 into 640 x 640
 * is r = 640 / 1080, 640 x 1138, left round(249.0); stretch keeps the slot
 * and each axis's ratio; Ultralytics' auto with stride 32 shrinks 1280 x 720
 * into 640 to 384 x 640 (360 + 280 mod 32), top 12; the batch takes its
 * largest slot. The options' errors name the option. */
static void test_fits(void **state)
{
    (void)state;
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 224, 224);
    o.fit = CLPAD_FIT_COVER;
    o.resize_shorter = 256;
    clpad_image im[2] = {{.height = 375, .width = 500, .channels = 3},
                         {.height = 500, .width = 375, .channels = 3}};
    clpad_letterbox_transform t[2];
    clpad_letterbox_transform_init(&t[0]);
    int64_t shape[4];
    TU_ASSERT_OK(clpad_letterbox_plan(im, 2, &o, shape, t));
    assert_int_equal(shape[2], 224);
    assert_int_equal(shape[3], 224);
    assert_int_equal(t[0].resized_height, 256);
    assert_int_equal(t[0].resized_width, 341);
    assert_int_equal(t[0].pad_top, -16);
    assert_int_equal(t[0].pad_left, -58);
    assert_int_equal(t[1].resized_height, 341);
    assert_int_equal(t[1].resized_width, 256);
    assert_int_equal(t[1].pad_top, -58);
    assert_true(t[0].scale_x == 341.0 / 500.0 && t[0].scale_y == 256.0 / 375.0);
    clpad_letterbox_options_init(&o, 640, 640);
    o.fit = CLPAD_FIT_COVER;
    clpad_image big = {.height = 1080, .width = 1920, .channels = 3};
    TU_ASSERT_OK(clpad_letterbox_plan(&big, 1, &o, shape, t));
    assert_int_equal(t[0].resized_height, 640);
    assert_int_equal(t[0].resized_width, 1138);
    assert_int_equal(t[0].pad_left, -249);
    assert_true(t[0].scale == 640.0 / 1080.0 && t[0].scale_x == t[0].scale);
    o.fit = CLPAD_FIT_STRETCH;
    o.scaleup = 0; /* scaleFill ignores it */
    TU_ASSERT_OK(clpad_letterbox_plan(&big, 1, &o, shape, t));
    assert_int_equal(t[0].resized_height, 640);
    assert_int_equal(t[0].resized_width, 640);
    assert_int_equal(t[0].pad_top, 0);
    assert_true(t[0].scale_y == 640.0 / 1080.0 && t[0].scale_x == 640.0 / 1920.0);
    clpad_letterbox_options_init(&o, 640, 640);
    o.stride = 32;
    clpad_image two[2] = {{.height = 720, .width = 1280, .channels = 3},
                          {.height = 640, .width = 1000, .channels = 3}};
    TU_ASSERT_OK(clpad_letterbox_plan(two, 1, &o, shape, t));
    assert_int_equal(shape[2], 384);
    assert_int_equal(shape[3], 640);
    assert_int_equal(t[0].pad_top, 12);
    /* 640 x 1000 -> 410 x 640, slot 410 + 230 mod 32 = 416: the batch's */
    TU_ASSERT_OK(clpad_letterbox_plan(two, 2, &o, shape, t));
    assert_int_equal(shape[2], 416);
    assert_int_equal(t[0].pad_top, 28); /* centred in the batch's slot */
    assert_int_equal(t[1].pad_top, 3);
    struct {
        int fit;
        int64_t shorter, stride;
        float divisor;
        const char *says;
    } bad[] = {
        {CLPAD_FIT_CONTAIN, 256, 0, 1.0f, "resize_shorter = 256 needs fit cover"},
        {CLPAD_FIT_COVER, -1, 0, 1.0f, "resize_shorter = -1"},
        {CLPAD_FIT_COVER, 0, 32, 1.0f, "stride = 32 is the contain fit's"},
        {CLPAD_FIT_CONTAIN, 0, -2, 1.0f, "stride = -2"},
        {CLPAD_FIT_CONTAIN, 0, 0, 0.0f, "divisor = 0"},
        {CLPAD_FIT_CONTAIN, 0, 0, INFINITY, "divisor = inf"},
        {CLPAD_FIT_COUNT, 0, 0, 1.0f, "invalid fit 3"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        clpad_letterbox_options_init(&o, 64, 64);
        o.fit = (clpad_fit)bad[k].fit;
        o.resize_shorter = bad[k].shorter;
        o.stride = bad[k].stride;
        o.divisor = bad[k].divisor;
        TU_ASSERT_STATUS(clpad_letterbox_plan(im, 1, &o, shape, NULL),
                         CLPAD_ERR_INVALID_ARGUMENT);
        if (!strstr(clpad_last_error(), bad[k].says))
            fail_msg("case %zu: '%s' does not say '%s'", k, clpad_last_error(), bad[k].says);
    }
    /* pil_version: 13 by default, 12 allowed, nothing else */
    clpad_letterbox_options_init(&o, 64, 64);
    assert_int_equal(o.pil_version, 13);
    o.pil_version = 12;
    TU_ASSERT_OK(clpad_letterbox_plan(im, 1, &o, shape, NULL));
    o.pil_version = 11;
    TU_ASSERT_STATUS(clpad_letterbox_plan(im, 1, &o, shape, NULL), CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "pil_version = 11: 12 or 13"));
}

static void test_names(void **state)
{
    (void)state;
    for (int i = 0; i < CLPAD_FIT_COUNT; i++) {
        clpad_fit v;
        TU_ASSERT_OK(clpad_fit_from_name(clpad_fit_name((clpad_fit)i), &v));
        assert_int_equal(v, i);
    }
    for (int i = 0; i < CLPAD_INTERP_COUNT; i++) {
        clpad_interp v;
        TU_ASSERT_OK(clpad_interp_from_name(clpad_interp_name((clpad_interp)i), &v));
        assert_int_equal(v, i);
    }
    for (int i = 0; i < CLPAD_PLACEMENT_COUNT; i++) {
        clpad_placement v;
        TU_ASSERT_OK(clpad_placement_from_name(clpad_placement_name((clpad_placement)i), &v));
        assert_int_equal(v, i);
    }
    for (int i = 0; i < CLPAD_LAYOUT_COUNT; i++) {
        clpad_layout v;
        TU_ASSERT_OK(clpad_layout_from_name(clpad_layout_name((clpad_layout)i), &v));
        assert_int_equal(v, i);
    }
    clpad_layout l;
    TU_ASSERT_STATUS(clpad_layout_from_name("CHW", &l), CLPAD_ERR_PARSE);
    assert_null(clpad_interp_name(CLPAD_INTERP_COUNT));
}

/* The versioned structs: options->size below this version's struct is
 * refused naming `options`, a larger one with a zero tail accepted and one
 * with a non-zero byte past the known fields refused; transforms[0].size
 * below the struct is refused naming `transforms` (nothing written), and a
 * larger one spaces the entries that far apart, each written up to this
 * version's fields only. */
static void test_struct_sizes(void **state)
{
    (void)state;
    unsigned char px[8 * 8 * 3] = {0}, out[2 * 3 * 4 * 4];
    clpad_image im[2] = {{.data = px, .height = 8, .width = 8, .channels = 3},
                         {.data = px, .height = 4, .width = 8, .channels = 3}};
    union {
        clpad_letterbox_options o;
        unsigned char b[sizeof(clpad_letterbox_options) + 16];
    } u;
    memset(u.b, 0, sizeof u.b);
    clpad_letterbox_options_init(&u.o, 4, 4);
    assert_int_equal(u.o.size, sizeof u.o);
    u.o.dtype = CLPAD_U8;
    int64_t shape[4];
    clpad_error_info e = {.size = sizeof e};
    u.o.size = sizeof u.o - 4;
    TU_ASSERT_STATUS(clpad_letterbox_plan(im, 2, &u.o, shape, NULL), CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "options");
    assert_non_null(strstr(e.message, "size"));
    memset(out, 0x5A, sizeof out);
    TU_ASSERT_STATUS(clpad_letterbox_cpu(im, 2, &u.o, out, sizeof out, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(out[0], 0x5A);
    u.o.size = sizeof u.b; /* a newer caller's options: zeros past ours */
    TU_ASSERT_OK(clpad_letterbox_plan(im, 2, &u.o, shape, NULL));
    TU_ASSERT_OK(clpad_letterbox_cpu(im, 2, &u.o, out, sizeof out, NULL));
    u.b[sizeof u.o + 3] = 1; /* a field this version does not know, set */
    TU_ASSERT_STATUS(clpad_letterbox_plan(im, 2, &u.o, shape, NULL), CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "options");
    u.b[sizeof u.o + 3] = 0;

    /* transforms: entries of a newer, larger struct */
    enum { BIG = sizeof(clpad_letterbox_transform) + 24 };
    union {
        clpad_letterbox_transform t;
        unsigned char b[2 * BIG];
    } v;
    memset(v.b, 0x5A, sizeof v.b);
    v.t.size = sizeof v.t - 8;
    TU_ASSERT_STATUS(clpad_letterbox_plan(im, 2, &u.o, shape, &v.t), CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "transforms");
    assert_non_null(strstr(e.message, "transforms[0].size"));
    TU_ASSERT_STATUS(clpad_letterbox_cpu(im, 2, &u.o, out, sizeof out, &v.t),
                     CLPAD_ERR_INVALID_ARGUMENT);
    for (size_t k = sizeof v.t.size; k < sizeof v.b; k++)
        if (v.b[k] != 0x5A)
            fail_msg("byte %zu of a refused transforms array written", k);
    v.t.size = BIG;
    TU_ASSERT_OK(clpad_letterbox_cpu(im, 2, &u.o, out, sizeof out, &v.t));
    clpad_letterbox_transform want[2];
    clpad_letterbox_transform_init(&want[0]);
    TU_ASSERT_OK(clpad_letterbox_plan(im, 2, &u.o, shape, want));
    for (size_t i = 0; i < 2; i++) {
        clpad_letterbox_transform got;
        memcpy(&got, v.b + i * BIG, sizeof got);
        assert_int_equal(got.size, BIG);
        got.size = sizeof got;
        assert_memory_equal(&got, &want[i], sizeof got);
        for (size_t k = sizeof got; k < BIG; k++)
            if (v.b[i * BIG + k] != 0x5A)
                fail_msg("transforms[%zu]: byte %zu, past this version's struct, written", i, k);
    }
    assert_int_equal(want[1].resized_height, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_batches), cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_value_edges),
        cmocka_unit_test(test_transforms),     cmocka_unit_test(test_errors),
        cmocka_unit_test(test_names),          cmocka_unit_test(test_fits),
        cmocka_unit_test(test_struct_sizes),
        cmocka_unit_test(test_area_rules),
        cmocka_unit_test(test_cubic_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
