/*
 * Binary PNM (P5 greymap, P6 pixmap), decoded here: stb_image 2.27 accepts a
 * width or height that wraps around int ("4294967297" reads as 1), a maxval
 * of 0, reads 16-bit samples in the wrong byte order and leaves a short
 * file's missing pixels uninitialised. Samples are kept as stored, not
 * scaled by maxval (as OpenCV keeps them, modules/imgcodecs/src/grfmt_pxm.cpp):
 * maxval <= 255 gives 8-bit samples, above it 16-bit ones (stored
 * big-endian), reduced to their high byte unless keep_depth. Channels are
 * then converted by OpenCV's rules (clpad__img_convert_channels).
 */
#include "image_internal.h"

#include <stdlib.h>
#include <string.h>

/* One unsigned decimal header field after whitespace and '#' comments (a
 * comment ends at '\n' or '\r', as in stb_image). -1 when there is no number,
 * -2 when it exceeds `limit`. */
static long long pnm_field(const unsigned char *b, size_t n, size_t *i, long long limit)
{
    for (;;) {
        while (*i < n && strchr(" \t\r\n\v\f", b[*i]) && b[*i])
            (*i)++;
        if (*i < n && b[*i] == '#') {
            while (*i < n && b[*i] != '\n' && b[*i] != '\r')
                (*i)++;
            continue;
        }
        break;
    }
    long long v = 0;
    size_t start = *i;
    bool big = false;
    while (*i < n && b[*i] >= '0' && b[*i] <= '9') {
        if (!big) {
            v = v * 10 + (b[*i] - '0');
            big = v > limit;
        }
        (*i)++;
    }
    return *i == start ? -1 : big ? -2 : v;
}

clpad_status clpad__pnm_parse_header(const char *name, const clpad__img_req *limits,
                                     const unsigned char *b, size_t n, clpad__pnm_header *p)
{
    p->c = b[1] == '6' ? 3 : 1;
    size_t i = 2;
    p->w = pnm_field(b, n, &i, CLPAD_IMAGE_MAX_SIDE);
    p->h = p->w >= 0 ? pnm_field(b, n, &i, CLPAD_IMAGE_MAX_SIDE) : -1;
    p->maxval = p->h >= 0 ? pnm_field(b, n, &i, 65535) : -1;
    if (p->w == -2 || p->h == -2)
        return clpad__fail(CLPAD_ERR_TOO_LARGE,
                           "%s: cannot decode the image: PNM width or height larger than %d", name,
                           CLPAD_IMAGE_MAX_SIDE);
    if (p->maxval == -2)
        return clpad__fail(CLPAD_ERR_BAD_INPUT,
                           "%s: cannot decode the image: PNM maxval larger than 65535", name);
    if (p->w < 0 || p->h < 0 || p->maxval < 0)
        return clpad__fail(CLPAD_ERR_BAD_INPUT,
                           "%s: cannot decode the image: malformed PNM header (expected width, "
                           "height and maxval)",
                           name);
    if (p->maxval == 0)
        return clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: PNM maxval is 0",
                           name);
    if (i >= n || !strchr(" \t\r\n\v\f", b[i]) || !b[i])
        return clpad__fail(CLPAD_ERR_BAD_INPUT,
                           "%s: cannot decode the image: PNM maxval must be followed by one "
                           "whitespace byte and the pixel data",
                           name);
    p->data_off = i + 1;
    return limits ? clpad__img_check_size(limits, p->h, p->w, 4, p->maxval > 255 ? 2 : 1)
                  : CLPAD_OK;
}

clpad_status clpad__pnm_decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                               clpad__img *out)
{
    clpad__pnm_header p;
    clpad_status st = clpad__pnm_parse_header(r->name, r, b, n, &p);
    if (st)
        return st;
    int stored = p.maxval > 255 ? 2 : 1, sample = stored == 2 && r->keep_depth ? 2 : 1;
    size_t count = (size_t)p.w * (size_t)p.h * (size_t)p.c, need = count * (size_t)stored;
    size_t have = n - p.data_off;
    if (have < need)
        return clpad__fail(CLPAD_ERR_BAD_INPUT,
                           "%s: PNM data is truncated: a %lldx%lld image needs %zu bytes, the "
                           "file holds %zu",
                           r->name, p.w, p.h, need, have);
    unsigned char *px = malloc(count * (size_t)sample);
    if (!px)
        return clpad__img_nomem(r->name, count * (size_t)sample);
    const unsigned char *src = b + p.data_off;
    if (stored == 1) {
        memcpy(px, src, count);
    } else if (sample == 2) {
        for (size_t k = 0; k < count; k++) { /* big-endian to the host's order */
            uint16_t v = (uint16_t)(src[2 * k] << 8 | src[2 * k + 1]);
            memcpy(px + 2 * k, &v, 2);
        }
    } else {
        for (size_t k = 0; k < count; k++) /* the high byte */
            px[k] = src[2 * k];
    }
    *out = (clpad__img){.px = px, .h = p.h, .w = p.w, .c = p.c, .sample = sample,
                        .full_h = p.h, .full_w = p.w, .scale_num = 8, .orientation = 1};
    st = clpad__img_convert_channels(r, out);
    if (st) {
        free(out->px);
        out->px = NULL;
    }
    return st;
}
