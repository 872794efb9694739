/* Letterbox on the host: the CPU reference path (docs/letterbox.md), also
 * the fallback when there is no OpenCL device. It reads the same tables as
 * the kernel (host/ops/letterbox/plan.c) and combines samples with the same
 * integer functions (kernels/coords.h), one output row at a time. */
#include "ops/letterbox/letterbox.h"

#include "coords.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One sample of a variable-tap resize (Pillow's, or by the row's rule
 * OpenCV's: lb_cv_sample): the rows from r (the
 * first source row's sample of the channel) stride apart, each weighed
 * horizontally into a u8, the u8s weighed vertically (kernels/coords.h). */
static float lb_bits_float(int32_t v)
{
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

/* One sample of source channel sc of OpenCV's area or cubic resize through
 * the tap tables, by the row's rule (kernels/coords.h, CLPAD_TAPS_AREA_FAST,
 * _AREA, _LINEAR, _CUBIC). */
static int lb_cv_sample(const lb_plan *p, const unsigned char *r, int64_t stride,
                        const lb_entry *ry, const lb_entry *e, int sc)
{
    const int32_t *ky = p->coefs + ry->w0, *kx = p->coefs + e->w0;
    const size_t C = (size_t)p->C;
    if (ry->w1 == CLPAD_TAPS_CUBIC) { /* four rows (ky[4 + k]: offsets), each summed */
        int h[4];
        for (int k = 0; k < 4; k++) {
            const unsigned char *s = r + ky[4 + k] * stride + e->a;
            h[k] = 0;
            for (int32_t i = 0; i < e->b; i++)
                h[k] += (int)s[(size_t)i * C] * kx[i];
        }
        /* (e->w1: the pixel's channels in OpenCV's vector loop) */
        return sc < e->w1 ? clpad_cubic_vec(h[0], h[1], h[2], h[3], ky[0], ky[1], ky[2], ky[3])
                          : clpad_cubic_int(h[0], h[1], h[2], h[3], ky[0], ky[1], ky[2], ky[3]);
    }
    if (ry->w1 == CLPAD_TAPS_AREA_FAST) {
        int64_t sum = 0;
        for (int32_t j = 0; j < ry->b; j++)
            for (int32_t i = 0; i < e->b; i++)
                sum += r[j * stride + e->a + (size_t)i * C];
        if (ry->b == 2 && e->b == 2)
            return (int)((sum + 2) >> 2);
        return clpad_cv_u8((float)sum * lb_bits_float(ky[ry->b]));
    }
    if (ry->w1 == CLPAD_TAPS_AREA) {
        float acc = 0.0f;
        for (int32_t j = 0; j < ry->b; j++) {
            const unsigned char *s = r + j * stride + e->a;
            float h = 0.0f;
            for (int32_t i = 0; i < e->b; i++)
                h = clpad_cv_mac(h, s[(size_t)i * C], lb_bits_float(kx[i]));
            float t = h * lb_bits_float(ky[j]);
            acc = acc + t;
        }
        return clpad_cv_u8(acc);
    }
    int acc = 0; /* CLPAD_TAPS_LINEAR */
    for (int32_t j = 0; j < ry->b; j++) {
        const unsigned char *s = r + j * stride + e->a;
        int h = 0;
        for (int32_t i = 0; i < e->b; i++)
            h += (int)s[(size_t)i * C] * kx[i];
        acc += (ky[j] * (h >> 4)) >> 16;
    }
    return (acc + 2) >> 2;
}

static int lb_taps_sample(const lb_plan *p, const unsigned char *r, int64_t stride,
                          const lb_entry *ry, const lb_entry *e, bool vfirst, int sc)
{
    if (ry->w1 != CLPAD_TAPS_PIL)
        return lb_cv_sample(p, r, stride, ry, e, sc);
    const int32_t *ky = p->coefs + ry->w0, *kx = p->coefs + e->w0;
    int acc = CLPAD_PIL_HALF;
    if (vfirst) { /* each column's taps weighed vertically into a u8 first */
        for (int32_t i = 0; i < e->b; i++) {
            const unsigned char *s = r + e->a + (size_t)i * (size_t)p->C;
            int v = CLPAD_PIL_HALF;
            for (int32_t j = 0; j < ry->b; j++)
                v += (int)s[j * stride] * ky[j];
            acc += clpad_pil_clip8(v) * kx[i];
        }
        return clpad_pil_clip8(acc);
    }
    for (int32_t j = 0; j < ry->b; j++) {
        const unsigned char *s = r + (int64_t)j * stride + e->a;
        int h = CLPAD_PIL_HALF;
        for (int32_t i = 0; i < e->b; i++)
            h += (int)s[(size_t)i * (size_t)p->C] * kx[i];
        acc += clpad_pil_clip8(h) * ky[j];
    }
    return clpad_pil_clip8(acc);
}

/* One output row of one image: pixels [0, W), every channel, elements of
 * es bytes (a constant where it is called, so that each copy is one store). */
static inline void lb_row_es(const lb_plan *p, const unsigned char *base, const lb_desc *d,
                             const lb_entry *ry, const lb_entry *cols, unsigned char *out,
                             size_t plane, size_t px_step, const size_t es)
{
    const int C = p->C;
    for (int c = 0; c < C; c++) {
        const unsigned char *lut = p->lut + (size_t)c * 256 * es;
        const unsigned char *fill = p->fill + (size_t)c * es;
        unsigned char *o = out + (size_t)c * plane * es;
        if (ry->a < 0) { /* a border row */
            for (int64_t x = 0; x < p->W; x++)
                memcpy(o + (size_t)x * px_step * es, fill, es);
            continue;
        }
        const unsigned char *r0 = base + d->offset + (int64_t)ry->a * d->stride + p->src_chan[c];
        /* (a variable-tap row's b is its number of taps) */
        const unsigned char *r1 =
            p->taps ? r0 : base + d->offset + (int64_t)ry->b * d->stride + p->src_chan[c];
        for (int64_t x = 0; x < p->W; x++) {
            const lb_entry *e = &cols[x];
            const unsigned char *v;
            if (x < (d->x_range & 0x7fffffff) || x >= (d->x_range >> 32)) {
                v = fill;
            } else if (p->taps) {
                bool vfirst = (d->x_range & LB_VFIRST) != 0;
                int s = lb_taps_sample(p, r0, d->stride, ry, e, vfirst, p->src_chan[c]);
                v = lut + (size_t)s * es;
            } else {
                int h0 = clpad_lb_hpass(r0[e->a], r0[e->b], e->w0, e->w1);
                int h1 = clpad_lb_hpass(r1[e->a], r1[e->b], e->w0, e->w1);
                v = lut + (size_t)clpad_lb_vpass(h0, h1, ry->w0, ry->w1) * es;
            }
            memcpy(o + (size_t)x * px_step * es, v, es);
        }
    }
}

/* One YUV pixel (Y plane row y, chroma rows u, v, pixel x) as an RGB word
 * (kernels/coords.h, clpad_yuv_rgb). */
static inline unsigned lb_yuv_px(const int32_t *k, const unsigned char *y,
                                 const unsigned char *u, const unsigned char *v, int64_t x,
                                 int64_t step)
{
    int64_t c = (x >> 1) * step;
    return clpad_yuv_rgb(y[x], u[c], v[c], k[0], k[1], k[2], k[3], k[4], k[5], k[6]);
}

/* One output row of a YUV frame (pl: its Y, U and V row 0; cd: its chroma
 * strides): each source pixel the resize reads converted to RGB, then
 * combined as lb_row_es combines a packed image's. */
static inline void lb_row_yuv_es(const lb_plan *p, const unsigned char *const *pl,
                                 const lb_desc *d, const lb_chroma *cd, const lb_entry *ry,
                                 const lb_entry *cols, unsigned char *out, size_t plane,
                                 size_t px_step, const size_t es)
{
    const int C = p->C;
    const int64_t step = p->yuv == CLPAD_INPUT_NV12 || p->yuv == CLPAD_INPUT_NV21 ? 2 : 1;
    const unsigned char *y0 = NULL, *y1 = NULL, *u0 = NULL, *u1 = NULL, *v0 = NULL, *v1 = NULL;
    if (ry->a >= 0) {
        y0 = pl[0] + (int64_t)ry->a * d->stride;
        y1 = pl[0] + (int64_t)ry->b * d->stride;
        u0 = pl[1] + (int64_t)(ry->a >> 1) * cd->u_stride;
        u1 = pl[1] + (int64_t)(ry->b >> 1) * cd->u_stride;
        v0 = pl[2] + (int64_t)(ry->a >> 1) * cd->v_stride;
        v1 = pl[2] + (int64_t)(ry->b >> 1) * cd->v_stride;
    }
    for (int64_t x = 0; x < p->W; x++) {
        const lb_entry *e = &cols[x];
        unsigned char *o = out + (size_t)x * px_step * es;
        if (ry->a < 0 || x < (d->x_range & 0x7fffffff) || x >= d->x_range >> 32) {
            for (int c = 0; c < C; c++)
                memcpy(o + (size_t)c * plane * es, p->fill + (size_t)c * es, es);
            continue;
        }
        unsigned p00 = lb_yuv_px(p->yk, y0, u0, v0, e->a, step);
        unsigned p01 = lb_yuv_px(p->yk, y0, u0, v0, e->b, step);
        unsigned p10 = lb_yuv_px(p->yk, y1, u1, v1, e->a, step);
        unsigned p11 = lb_yuv_px(p->yk, y1, u1, v1, e->b, step);
        for (int c = 0; c < C; c++) {
            int sh = 8 * p->src_chan[c];
            int h0 = clpad_lb_hpass((int)(p00 >> sh) & 255, (int)(p01 >> sh) & 255, e->w0, e->w1);
            int h1 = clpad_lb_hpass((int)(p10 >> sh) & 255, (int)(p11 >> sh) & 255, e->w0, e->w1);
            int val = clpad_lb_vpass(h0, h1, ry->w0, ry->w1);
            memcpy(o + (size_t)c * plane * es, p->lut + ((size_t)c * 256 + (size_t)val) * es, es);
        }
    }
}

static void lb_row_yuv(const lb_plan *p, const unsigned char *const *pl, const lb_desc *d,
                       const lb_chroma *cd, const lb_entry *ry, const lb_entry *cols,
                       unsigned char *out, size_t plane, size_t px_step)
{
    switch (p->es) {
    case 4: lb_row_yuv_es(p, pl, d, cd, ry, cols, out, plane, px_step, 4); break;
    case 2: lb_row_yuv_es(p, pl, d, cd, ry, cols, out, plane, px_step, 2); break;
    default: lb_row_yuv_es(p, pl, d, cd, ry, cols, out, plane, px_step, 1); break;
    }
}

static void lb_row(const lb_plan *p, const unsigned char *base, const lb_desc *d,
                   const lb_entry *ry, const lb_entry *cols, unsigned char *out, size_t plane,
                   size_t px_step)
{
    switch (p->es) {
    case 4: lb_row_es(p, base, d, ry, cols, out, plane, px_step, 4); break;
    case 2: lb_row_es(p, base, d, ry, cols, out, plane, px_step, 2); break;
    default: lb_row_es(p, base, d, ry, cols, out, plane, px_step, 1); break;
    }
}

const unsigned char **clpad__lb_sources(lb_plan *p, const clpad_image *images)
{
    size_t per = p->yuv ? 3 : 1;
    const unsigned char **src = calloc(p->n ? p->n * per : 1, sizeof *src);
    if (!src)
        return NULL;
    for (size_t i = 0; i < p->n; i++) {
        const clpad_image *im = &images[i];
        p->desc[i].offset = 0; /* the caller's pointers, not buffer offsets */
        if (!p->yuv) {
            src[i] = im->data;
            continue;
        }
        /* the chroma rows from the addresses of the planes */
        int64_t u, us, v, vs;
        clpad__lb_yuv_chroma(im, p->yuv, (int64_t)(intptr_t)im->data,
                             (int64_t)(intptr_t)im->planes[0], (int64_t)(intptr_t)im->planes[1],
                             &u, &us, &v, &vs);
        src[3 * i] = im->data;
        src[3 * i + 1] = (const unsigned char *)(intptr_t)u;
        src[3 * i + 2] = (const unsigned char *)(intptr_t)v;
        p->cdesc[i] = (lb_chroma){0, us, 0, vs};
    }
    return src;
}

void clpad__lb_run_rows(const lb_plan *p, const unsigned char *const *src, void *output,
                        int64_t r0, int64_t r1)
{
    unsigned char *out = output;
    const bool nhwc = p->layout == CLPAD_LAYOUT_NHWC;
    const size_t C = (size_t)p->C, H = (size_t)p->H, W = (size_t)p->W;
    for (int64_t r = r0; r < r1; r++) {
        size_t i = (size_t)(r / p->H), y = (size_t)(r % p->H);
        /* element offset of (i, c = 0, y, x = 0); channel c adds c * plane,
         * pixel x adds x * px_step */
        size_t at = nhwc ? (i * H + y) * W * C : i * C * H * W + y * W;
        if (p->yuv) {
            lb_row_yuv(p, src + 3 * i, &p->desc[i], &p->cdesc[i], &p->rows[r], p->cols + i * W,
                       (unsigned char *)out + at * p->es, nhwc ? 1 : H * W, nhwc ? C : 1);
            continue;
        }
        lb_row(p, src[i], &p->desc[i], &p->rows[r], p->cols + i * W, out + at * p->es,
               nhwc ? 1 : H * W, nhwc ? C : 1);
    }
}

clpad_status clpad_letterbox_cpu(const clpad_image *images, size_t n,
                                 const clpad_letterbox_options *opts, void *output,
                                 size_t output_bytes, clpad_letterbox_transform *transforms)
{
    clpad__clear_error();
    lb_plan p;
    clpad_status st = clpad__lb_plan_host(images, n, opts, output, output_bytes, transforms, &p);
    if (st)
        return st;
    const unsigned char **src = clpad__lb_sources(&p, images);
    if (!src) {
        clpad__lb_free(&p);
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox: out of host memory");
    }
    clpad__lb_run_rows(&p, src, output, 0, (int64_t)n * p.H);
    free((void *)src);
    clpad__lb_free(&p);
    clpad__lb_put_transforms(images, n, opts, p.H, p.W, transforms);
    return CLPAD_OK;
}
