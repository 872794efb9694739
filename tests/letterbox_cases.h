/* Random letterbox batches shared by tests/test_letterbox.c (the CPU
 * reference against the test suite's own oracle) and
 * tests/test_letterbox_cl.c (the device against the CPU reference). */
#ifndef CLPAD_TEST_LETTERBOX_CASES_H
#define CLPAD_TEST_LETTERBOX_CASES_H

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LB_MAX_IMAGES = 12 };

typedef struct lb_case {
    size_t n;
    clpad_image im[LB_MAX_IMAGES];
    unsigned char *pixels[LB_MAX_IMAGES]; /* owned: im[i].data */
    clpad_letterbox_options o;
} lb_case;

static inline void lb_case_free(lb_case *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->pixels[i]);
    memset(c, 0, sizeof *c);
}

/* Image i of h x w x C with `extra` bytes of row padding, random pixels. */
static inline void lb_case_image(lb_case *c, size_t i, int64_t h, int64_t w, int64_t C,
                                 int64_t extra, uint64_t *rng)
{
    int64_t stride = w * C + extra;
    size_t bytes = (size_t)((h - 1) * stride + w * C);
    c->pixels[i] = malloc(bytes);
    tu_fill(c->pixels[i], bytes, rng);
    c->im[i] = (clpad_image){.data = c->pixels[i], .height = h, .width = w, .channels = C,
                             .row_stride = extra ? stride : 0};
}

/* The batch's images moved into one allocation, dense, one after another
 * (as a 4-D array's, or a decoder's arena): the layout the host path reads
 * in place on a context that uses host memory in place. */
static inline void lb_case_pack(lb_case *c)
{
    size_t total = 0;
    for (size_t i = 0; i < c->n; i++)
        total += (size_t)(c->im[i].height * c->im[i].width * c->im[i].channels);
    unsigned char *block = malloc(total ? total : 1), *at = block;
    for (size_t i = 0; i < c->n; i++) {
        clpad_image *im = &c->im[i];
        size_t row = (size_t)(im->width * im->channels);
        size_t stride = im->row_stride ? (size_t)im->row_stride : row;
        for (int64_t y = 0; y < im->height; y++)
            memcpy(at + (size_t)y * row, (const unsigned char *)im->data + (size_t)y * stride, row);
        free(c->pixels[i]);
        c->pixels[i] = NULL;
        im->data = at;
        im->row_stride = 0;
        at += (size_t)im->height * row;
    }
    c->pixels[0] = block; /* (owns the whole block) */
}

/* A random batch: 1..max_n images of 1x1 up to max_side on a side (a few
 * of them very thin), every option random. */
static inline void lb_random_case(lb_case *c, uint64_t *rng, size_t max_n, int64_t max_side,
                                  int64_t max_out)
{
    memset(c, 0, sizeof *c);
    static const int64_t chans[3] = {1, 3, 4};
    int64_t C = chans[tu_range(rng, 0, 2)];
    c->n = (size_t)tu_range(rng, 1, (int64_t)max_n);
    for (size_t i = 0; i < c->n; i++) {
        int64_t h, w;
        switch (tu_range(rng, 0, 5)) {
        case 0: h = 1; w = tu_range(rng, 1, max_side); break;          /* one row */
        case 1: h = tu_range(rng, 1, max_side); w = 1; break;          /* one column */
        case 2: h = tu_range(rng, 1, 4); w = tu_range(rng, 1, 4); break; /* tiny */
        default: h = tu_range(rng, 1, max_side); w = tu_range(rng, 1, max_side); break;
        }
        lb_case_image(c, i, h, w, C, tu_range(rng, 0, 2) ? 0 : tu_range(rng, 1, 9), rng);
        if (tu_range(rng, 0, 4) == 0) {
            /* a decode-scaled image: the geometry of a source about 1, 2,
             * 4 or 8 times larger (its size rounded up, as a DCT-scaled
             * decode rounds it), the pixels those of the reduced image */
            int64_t m = (int64_t)1 << tu_range(rng, 0, 3);
            c->im[i].geometry_height = h * m - tu_range(rng, 0, m - 1);
            c->im[i].geometry_width = w * m - tu_range(rng, 0, m - 1);
        }
    }
    clpad_letterbox_options_init(&c->o, tu_range(rng, 1, max_out), tu_range(rng, 1, max_out));
    c->o.interp = (clpad_interp)tu_range(rng, 0, CLPAD_INTERP_COUNT - 1);
    c->o.placement = (clpad_placement)tu_range(rng, 0, CLPAD_PLACEMENT_COUNT - 1);
    c->o.scaleup = (int)tu_range(rng, 0, 3) != 0;
    c->o.pad_mode = (clpad_pad_mode)tu_range(rng, 0, CLPAD_PAD_MODE_COUNT - 1);
    c->o.swap_rb = (int)tu_range(rng, 0, 1);
    for (int k = 0; k < 4; k++)
        c->o.pad_value[k] = (uint8_t)tu_range(rng, 0, 255);
    static const clpad_dtype dts[3] = {CLPAD_U8, CLPAD_F16, CLPAD_F32};
    c->o.dtype = dts[tu_range(rng, 0, 2)];
    c->o.layout = (clpad_layout)tu_range(rng, 0, 1);
    /* the Pillow release of the pil-* kinds, from a value already drawn (the
     * draws of the rest stay those of every earlier seed) */
    c->o.pil_version = c->o.pad_value[3] & 1 ? 12 : 13;
    switch (tu_range(rng, 0, 7)) { /* the fit */
    case 0: c->o.fit = CLPAD_FIT_COVER; break;
    case 1: c->o.fit = CLPAD_FIT_STRETCH; break;
    case 2: /* torchvision's Resize(S) then CenterCrop */
        c->o.fit = CLPAD_FIT_COVER;
        c->o.resize_shorter = tu_range(rng, 1, max_out + 8);
        break;
    case 3: c->o.stride = tu_range(rng, 1, 40); break; /* Ultralytics' auto */
    default: break;                                    /* contain */
    }
    switch (tu_range(rng, 0, 4)) {
    case 0: break; /* the defaults: scale 1, mean 0, std 1 */
    case 1:        /* YOLO: 1/255 */
        c->o.scale = 1.0f / 255.0f;
        break;
    case 2: /* ImageNet */
        c->o.scale = 1.0f / 255.0f;
        for (int k = 0; k < 4; k++) {
            c->o.mean[k] = (float)(0.406 + 0.02 * k);
            c->o.std[k] = (float)(0.225 + 0.004 * k);
        }
        break;
    case 3: /* torchvision's ToTensor and Normalize: (v / 255 - mean) / std */
        c->o.divisor = 255.0f;
        for (int k = 0; k < 4; k++) {
            c->o.mean[k] = (float)(0.406 + 0.02 * k);
            c->o.std[k] = (float)(0.225 + 0.004 * k);
        }
        break;
    default: /* anything: overflow to inf in f16 and u8 saturation included */
        c->o.scale = (float)tu_range(rng, -4000, 4000) / 64.0f;
        for (int k = 0; k < 4; k++) {
            c->o.mean[k] = (float)tu_range(rng, -30000, 30000) / 7.0f;
            c->o.std[k] = (float)tu_range(rng, 1, 999) / (tu_range(rng, 0, 1) ? 3.0f : -1e4f);
        }
        break;
    }
}

/* A batch of `interp` (OpenCV's area, whose path depends on both axes, and
 * bicubic) that runs each of its rules in one launch: stretch to a
 * random slot H x W of images that reduce it by integer ratios (2 x 2 and
 * others), by other ratios, enlarge one axis or both, keep its size, or
 * are one pixel thin; every value option random as lb_random_case draws
 * them, border and placement irrelevant to a stretch. */
static inline void lb_rules_case(lb_case *c, uint64_t *rng, clpad_interp interp, int64_t max_out)
{
    lb_random_case(c, rng, 1, 4, max_out); /* the options; its image is replaced */
    for (size_t i = 0; i < c->n; i++)
        free(c->pixels[i]);
    c->o.interp = interp;
    c->o.fit = CLPAD_FIT_STRETCH;
    c->o.resize_shorter = 0;
    c->o.stride = 0;
    int64_t H = c->o.out_height, W = c->o.out_width;
    static const int64_t chans[3] = {1, 3, 4};
    int64_t C = chans[tu_range(rng, 0, 2)];
    c->n = 8;
    for (size_t i = 0; i < c->n; i++) {
        int64_t h, w;
        switch (i) {
        case 0: h = 2 * H; w = 2 * W; break;                                      /* 2 x 2 box */
        case 1: h = H * tu_range(rng, 1, 5); w = W * tu_range(rng, 1, 5); break; /* boxes */
        case 2: h = tu_range(rng, H, 4 * H); w = tu_range(rng, W, 4 * W); break; /* reduced */
        case 3: h = tu_range(rng, 1, H); w = tu_range(rng, W, 3 * W); break;     /* mixed */
        case 4: h = tu_range(rng, 1, H); w = tu_range(rng, 1, W); break;         /* enlarged */
        case 5: h = H; w = W; break;                                              /* same */
        case 6: h = 1; w = tu_range(rng, 1, 4 * W); break;
        default: h = tu_range(rng, H, 12 * H); w = tu_range(rng, W, 12 * W); break;
        }
        lb_case_image(c, i, h, w, C, tu_range(rng, 0, 2) ? 0 : tu_range(rng, 1, 9), rng);
    }
}

static inline const char *lb_case_str(const lb_case *c, char *buf, size_t len)
{
    size_t u = (size_t)snprintf(buf, len,
                                "out %lldx%lld fit=%s shorter=%lld stride=%lld divisor=%g pil_version=%d "
                                "%s %s scaleup=%d %s value=%u,%u,%u,%u swap_rb=%d "
                                "scale=%g %s %s; images",
                                (long long)c->o.out_height, (long long)c->o.out_width,
                                clpad_fit_name(c->o.fit), (long long)c->o.resize_shorter,
                                (long long)c->o.stride, (double)c->o.divisor, c->o.pil_version,
                                clpad_interp_name(c->o.interp), clpad_placement_name(c->o.placement),
                                c->o.scaleup, clpad_pad_mode_name(c->o.pad_mode), c->o.pad_value[0],
                                c->o.pad_value[1], c->o.pad_value[2], c->o.pad_value[3],
                                c->o.swap_rb, (double)c->o.scale, clpad_dtype_name(c->o.dtype),
                                clpad_layout_name(c->o.layout));
    for (size_t i = 0; i < c->n && u < len; i++) {
        u += (size_t)snprintf(buf + u, len - u, " %lldx%lldx%lld/%lld", (long long)c->im[i].height,
                              (long long)c->im[i].width, (long long)c->im[i].channels,
                              (long long)c->im[i].row_stride);
        if (c->im[i].geometry_height && u < len)
            u += (size_t)snprintf(buf + u, len - u, "(geometry %lldx%lld)",
                                  (long long)c->im[i].geometry_height,
                                  (long long)c->im[i].geometry_width);
    }
    return buf;
}

/* Bytes of the batch's output (0 when the plan refuses it). */
static inline size_t lb_case_out_bytes(const lb_case *c)
{
    int64_t s[4];
    if (clpad_letterbox_plan(c->im, c->n, &c->o, s, NULL))
        return 0;
    return (size_t)(s[0] * s[1] * s[2] * s[3]) * clpad_dtype_size(c->o.dtype);
}

#endif
