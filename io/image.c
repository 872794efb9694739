/*
 * Reading images (include/clpad_image.h): the options, the limits, the
 * bounded read of a file or stream, the choice of decoder by signature, and
 * what is done after decoding (channel conversion for the formats OpenCV
 * decodes itself, the EXIF orientation).
 *
 * Two stages: read_image reads the input no further than the format's header
 * says it goes (the signature first, then the header, then at most what that
 * header can need), refusing a declared image over the limits before its
 * pixels are read; decode then checks and decodes the bytes in memory.
 */
#include "buf_grow.h"
#include "image_internal.h"
#include "open_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------------- */
/* Options, limits, messages                                                 */
/* ------------------------------------------------------------------------- */

void clpad_read_options_init(clpad_read_options *o)
{
    if (!clpad__sized_init(o, sizeof *o))
        return;
    o->channels = CLPAD_CHANNELS_COLOR;
}

static clpad_status make_request(const clpad_read_options *o, const char *name,
                                 clpad__img_req *r)
{
    clpad_read_options d;
    if (!o) {
        clpad_read_options_init(&d);
        o = &d;
    }
    if (o->size != sizeof *o)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: options.size is %zu, expected sizeof(clpad_read_options) = %zu "
                           "(initialise the options with clpad_read_options_init)",
                           name, o->size, sizeof *o);
    if (o->channels != 1 && o->channels != 3 && o->channels != 4 &&
        o->channels != CLPAD_CHANNELS_KEEP)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: channels is %d; expected 1, 3, 4 or CLPAD_CHANNELS_KEEP (-1)",
                           name, o->channels);
    if (o->min_height < 0 || o->min_width < 0)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: min_height and min_width must be >= 0 (got %lld, %lld)", name,
                           (long long)o->min_height, (long long)o->min_width);
    *r = (clpad__img_req){.name = name,
                          .channels = o->channels,
                          .keep_depth = o->keep_depth != 0,
                          .orient = o->ignore_orientation == 0,
                          .max_pixels = o->max_pixels ? o->max_pixels
                                                      : CLPAD_IMAGE_DEFAULT_MAX_PIXELS,
                          .min_h = o->min_height,
                          .min_w = o->min_width};
    return CLPAD_OK;
}

clpad_status clpad__img_bad(const clpad__img_req *r, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: %s", r->name, what);
}

clpad_status clpad__img_nomem(const char *name, uint64_t bytes)
{
    return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "%s: out of memory (%llu bytes)", name,
                       (unsigned long long)bytes);
}

clpad_status clpad__img_check_size(const clpad__img_req *r, int64_t h, int64_t w, int64_t c,
                                   int sample)
{
    if (w < 1 || h < 1)
        return clpad__img_bad(r, "it is empty (%lldx%lld)", (long long)w, (long long)h);
    if (w > CLPAD_IMAGE_MAX_SIDE || h > CLPAD_IMAGE_MAX_SIDE)
        return clpad__fail(CLPAD_ERR_TOO_LARGE,
                           "%s: cannot decode the image: %lldx%lld is larger than %d pixels on a "
                           "side",
                           r->name, (long long)w, (long long)h, CLPAD_IMAGE_MAX_SIDE);
    uint64_t pixels = (uint64_t)w * (uint64_t)h; /* <= 2^48 */
    if (pixels > r->max_pixels)
        return clpad__fail(CLPAD_ERR_TOO_LARGE,
                           "%s: the image is %lld x %lld = %llu pixels, more than the limit of "
                           "%llu pixels (raise it with the max_pixels read option; clpad "
                           "letterbox: --max-pixels)",
                           r->name, (long long)w, (long long)h, (unsigned long long)pixels,
                           (unsigned long long)r->max_pixels);
    if (pixels > SIZE_MAX / (uint64_t)(c * sample))
        return clpad__fail(CLPAD_ERR_TOO_LARGE, "%s: the image is too large for this machine",
                           r->name);
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* Channels and orientation                                                  */
/* ------------------------------------------------------------------------- */

unsigned char *clpad__img_px_new(const clpad__img_req *r, size_t bytes, bool final, bool *given)
{
    *given = r->alloc && (final || r->alloc->scratch);
    if (!*given)
        return malloc(bytes);
    return final ? r->alloc->get(r->alloc->user, bytes) : r->alloc->scratch(r->alloc->user, bytes);
}

/* Whether px is r's allocator's scratch memory (clpad__img_alloc). */
static bool is_scratch(const clpad__img_req *r, const unsigned char *px)
{
    return r->alloc && r->alloc->is_scratch && r->alloc->is_scratch(r->alloc->user, px);
}

void clpad__img_px_free(const clpad__img_req *r, unsigned char *px, bool given)
{
    if (given && px)
        r->alloc->put(r->alloc->user, px);
    else
        free(px);
}

/* OpenCV's BGR2Gray on integer samples (modules/imgcodecs/src/utils.cpp,
 * icvCvt_BGR2Gray_8u_C3C1R and _16u_): weights 0.299, 0.587, 0.114 in 14-bit
 * fixed point, rounded. */
static unsigned gray_of(unsigned r, unsigned g, unsigned b)
{
    return (b * 1868u + g * 9617u + r * 4899u + 8192u) >> 14;
}

clpad_status clpad__img_convert_channels(const clpad__img_req *r, clpad__img *in)
{
    int64_t to = r->channels == CLPAD_CHANNELS_KEEP ? in->c : r->channels, from = in->c;
    if (to == from)
        return CLPAD_OK;
    size_t count = (size_t)in->h * (size_t)in->w, s = (size_t)in->sample;
    /* final unless an orientation follows; not in scratch memory when the
     * input is there (one scratch buffer) */
    bool final = !r->orient || in->orientation == 1, given = false;
    clpad__img_req mr = *r;
    if (!final && is_scratch(r, in->px))
        mr.alloc = NULL;
    unsigned char *px = clpad__img_px_new(&mr, count * (size_t)to * s, final, &given);
    if (!px)
        return clpad__img_nomem(r->name, count * (size_t)to * s);
    unsigned maxv = s == 2 ? 65535u : 255u;
    for (size_t i = 0; i < count; i++) {
        unsigned v[4] = {0, 0, 0, maxv};
        for (int64_t k = 0; k < from; k++) {
            if (s == 2) {
                uint16_t u;
                memcpy(&u, in->px + (i * (size_t)from + (size_t)k) * 2, 2);
                v[k] = u;
            } else {
                v[k] = in->px[i * (size_t)from + (size_t)k];
            }
        }
        if (from == 1 || from == 2) { /* grey (and alpha) */
            v[3] = from == 2 ? v[1] : maxv;
            v[1] = v[2] = v[0];
        }
        unsigned o[4] = {v[0], v[1], v[2], v[3]};
        if (to == 1)
            o[0] = from <= 2 ? v[0] : gray_of(v[0], v[1], v[2]);
        for (int64_t k = 0; k < to; k++) {
            if (s == 2) {
                uint16_t u = (uint16_t)o[k];
                memcpy(px + (i * (size_t)to + (size_t)k) * 2, &u, 2);
            } else {
                px[i * (size_t)to + (size_t)k] = (unsigned char)o[k];
            }
        }
    }
    clpad__img_px_free(r, in->px, in->given);
    in->px = px;
    in->given = given;
    in->c = to;
    return CLPAD_OK;
}

/* The EXIF orientation applied as OpenCV applies it (modules/imgcodecs/src/
 * loadsave.cpp, ExifTransform): 2 flip left-right, 3 flip both, 4 flip
 * up-down, 5 transpose, 6 transpose + flip left-right (a quarter turn
 * clockwise), 7 transpose + flip both, 8 transpose + flip up-down (a quarter
 * turn counter-clockwise). Output pixel (y, x) of the oriented image reads
 * the stored pixel (sy, sx). */
static void orient_source(int o, int64_t h, int64_t w, int64_t y, int64_t x, int64_t *sy,
                          int64_t *sx)
{
    switch (o) {
    case 2: *sy = y, *sx = w - 1 - x; break;
    case 3: *sy = h - 1 - y, *sx = w - 1 - x; break;
    case 4: *sy = h - 1 - y, *sx = x; break;
    case 5: *sy = x, *sx = y; break;
    case 6: *sy = h - 1 - x, *sx = y; break;
    case 7: *sy = h - 1 - x, *sx = w - 1 - y; break;
    case 8: *sy = x, *sx = w - 1 - y; break;
    default: *sy = y, *sx = x; break;
    }
}

/* n pixels of pix bytes into d (dense) from s, stepping `step` bytes in the
 * source per pixel. pix is a constant at each call site, so that each pixel
 * is one fixed-size move rather than a call to memcpy (an EXIF-rotated 12 MP
 * photo is 12 million of them). */
static inline __attribute__((always_inline)) void orient_run(unsigned char *d,
                                                             const unsigned char *s,
                                                             ptrdiff_t step, int64_t n, size_t pix)
{
    for (int64_t i = 0; i < n; i++, d += pix, s += step)
        memcpy(d, s, pix);
}

/* Apply orientation o (2..8) to img: a second buffer while it is done (the
 * image's size again). Output row y, from column x0 on, reads stored pixels
 * a fixed step apart (orient_source is linear in x); the transposing
 * orientations go in tiles so that the rows they read stay in cache. */
static clpad_status orient(const clpad__img_req *r, clpad__img *img, int o)
{
    bool swap = o >= 5;
    int64_t oh = swap ? img->w : img->h, ow = swap ? img->h : img->w;
    size_t pix = (size_t)img->c * (size_t)img->sample, bytes = (size_t)oh * (size_t)ow * pix;
    bool given = false;
    unsigned char *px = clpad__img_px_new(r, bytes, true, &given);
    if (!px)
        return clpad__img_nomem(r->name, bytes);
    int64_t sy0, sx0, sy1, sx1; /* the sources of (0, 0) and (0, 1) */
    orient_source(o, img->h, img->w, 0, 0, &sy0, &sx0);
    orient_source(o, img->h, img->w, 0, 1, &sy1, &sx1);
    ptrdiff_t step = (ptrdiff_t)((sy1 - sy0) * img->w + (sx1 - sx0)) * (ptrdiff_t)pix;
    int64_t tile_h = swap ? 32 : oh, tile_w = swap ? 32 : ow; /* (whole rows: one tile) */
    for (int64_t ty = 0; ty < oh; ty += tile_h)
        for (int64_t tx = 0; tx < ow; tx += tile_w) {
            int64_t n = ow - tx < tile_w ? ow - tx : tile_w;
            for (int64_t y = ty; y < oh && y < ty + tile_h; y++) {
                int64_t sy, sx;
                orient_source(o, img->h, img->w, y, tx, &sy, &sx);
                unsigned char *d = px + ((size_t)y * (size_t)ow + (size_t)tx) * pix;
                const unsigned char *s = img->px + ((size_t)sy * (size_t)img->w + (size_t)sx) * pix;
                switch (pix) { /* the pixel sizes decoders give: 1-4 channels of 1 or 2 bytes */
                case 1: orient_run(d, s, step, n, 1); break;
                case 2: orient_run(d, s, step, n, 2); break;
                case 3: orient_run(d, s, step, n, 3); break;
                case 4: orient_run(d, s, step, n, 4); break;
                case 6: orient_run(d, s, step, n, 6); break;
                case 8: orient_run(d, s, step, n, 8); break;
                default: orient_run(d, s, step, n, pix); break;
                }
            }
        }
    clpad__img_px_free(r, img->px, img->given);
    img->px = px;
    img->given = given;
    img->h = oh;
    img->w = ow;
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* Formats                                                                   */
/* ------------------------------------------------------------------------- */

enum image_kind { IMG_NONE, IMG_PNG, IMG_JPEG, IMG_BMP, IMG_PNM };

/* The kind of image in b, or IMG_NONE with *why naming what it is instead. */
static enum image_kind image_kind_of(const unsigned char *b, size_t n, const char **why)
{
    static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    *why = "not a PNG, JPEG, BMP or binary PNM (P5/P6) image (unrecognized signature)";
    if (n >= 8 && memcmp(b, clpad__png_signature, 8) == 0)
        return IMG_PNG;
    if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff)
        return IMG_JPEG;
    if (n >= 2 && b[0] == 'B' && b[1] == 'M')
        return IMG_BMP;
    if (n >= 2 && b[0] == 'P' && (b[1] == '5' || b[1] == '6'))
        return IMG_PNM;
    if (n == 0)
        *why = "the file is empty";
    else if (n >= 2 && b[0] == 'P' && b[1] >= '1' && b[1] <= '7')
        *why = "only binary PNM (P5 greymap, P6 pixmap) is supported, not ASCII (P1-P3), "
               "bitmap (P4) or PAM (P7)";
    else if (n >= 4 && memcmp(b, "GIF8", 4) == 0)
        *why = "GIF images are not supported";
    else if (n >= 4 && memcmp(b, "8BPS", 4) == 0)
        *why = "PSD images are not supported";
    else if (n >= 2 && b[0] == '#' && b[1] == '?')
        *why = "Radiance HDR images are not supported";
    else if (n >= 12 && memcmp(b, "RIFF", 4) == 0 && memcmp(b + 8, "WEBP", 4) == 0)
        *why = "WebP images are not supported";
    else if (n >= 4 && (memcmp(b, "II*\0", 4) == 0 || memcmp(b, "MM\0*", 4) == 0))
        *why = "TIFF images are not supported";
    else if (n >= 6 && memcmp(b, npy_magic, 6) == 0)
        *why = "this is a .npy file; name it .npy";
    return IMG_NONE;
}

static const char *const kind_names[] = {"", "png", "jpeg", "bmp", "pnm"};

/* ------------------------------------------------------------------------- */
/* Bounded reading                                                           */
/* ------------------------------------------------------------------------- */

/* An input read front to back: a file descriptor, or bytes in memory. */
typedef struct src {
    const char *name;
    int fd;                   /* -1: memory */
    const unsigned char *mem; /* the whole input, when in memory */
    size_t mem_len;
    bool sized;               /* the size is known (a regular file, memory); else a stream */
    uint64_t size;
    uint64_t pos;             /* bytes read so far */
} src;

/* The bytes of an input read so far. */
typedef struct buf {
    const unsigned char *data; /* own, or the memory input itself */
    unsigned char *own;        /* malloc'd, for a file descriptor */
    size_t len, cap;
    bool eof;                  /* the input ended */
} buf;

/* Read until b holds `want` bytes or the input ends (then b->eof). Memory
 * grows with the bytes that arrive, not with `want`. */
static clpad_status buf_fill(buf *b, src *s, size_t want)
{
    if (s->fd < 0) { /* memory: the bytes are there already */
        if (b->len < want) {
            b->data = s->mem;
            b->len = want < s->mem_len ? want : s->mem_len;
            b->eof = b->len < want;
            s->pos = b->len;
        }
        return CLPAD_OK;
    }
    while (b->len < want && !b->eof) {
        if (b->len == b->cap) {
            size_t ncap = tio__buf_grow(b->cap, b->len, want, s->sized, s->size, s->pos);
            unsigned char *nb = realloc(b->own, ncap);
            if (!nb)
                return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "%s: out of memory reading %zu bytes",
                                   s->name, ncap);
            b->own = nb;
            b->data = nb;
            b->cap = ncap;
        }
        size_t room = b->cap - b->len, ask = want - b->len < room ? want - b->len : room;
        ssize_t k = read(s->fd, b->own + b->len, ask);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return clpad__fail(CLPAD_ERR_IO, "%s: read error: %s", s->name, strerror(errno));
        }
        b->len += (size_t)k;
        s->pos += (uint64_t)k;
        if (k == 0)
            b->eof = true;
    }
    return CLPAD_OK;
}

/* The most a PNG or JPEG of `decoded` pixel bytes can hold: twice that, plus
 * room for metadata. */
static uint64_t image_bound(uint64_t decoded) { return 2 * decoded + CLPAD__IMAGE_SLACK; }

static clpad_status too_long(const char *name, const char *format, uint64_t bound, long long w,
                             long long h)
{
    return clpad__fail(CLPAD_ERR_TOO_LARGE,
                       "%s: cannot decode the image: the %s goes on beyond %llu bytes, more than "
                       "a %lldx%lld image can need (twice its pixels plus %llu MiB of metadata)",
                       name, format, (unsigned long long)bound, w, h,
                       (unsigned long long)(CLPAD__IMAGE_SLACK >> 20));
}

/* A JPEG's frame header (SOFn): its size and components, found by walking
 * the marker segments before it. False when it is not there (libjpeg then
 * says what is wrong), or *st set when reading failed. */
static bool find_jpeg_frame(buf *b, src *s, long long *w, long long *h, int *comps,
                            clpad_status *st)
{
    size_t i = 2;
    *st = CLPAD_OK;
    while (i < CLPAD__IMAGE_SLACK) {
        if ((*st = buf_fill(b, s, i + 10)))
            return false;
        if (b->len < i + 4 || b->data[i] != 0xff)
            return false;
        int m = b->data[i + 1];
        if (m == 0xff) { /* fill bytes before a marker */
            i++;
            continue;
        }
        if (m == 0x01 || (m >= 0xd0 && m <= 0xd8)) { /* markers without a segment */
            i += 2;
            continue;
        }
        if (m == 0xda || m == 0xd9) /* a scan or the end before any frame */
            return false;
        if (m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc) {
            if (b->len < i + 10)
                return false;
            *h = (long long)(b->data[i + 5] << 8 | b->data[i + 6]);
            *w = (long long)(b->data[i + 7] << 8 | b->data[i + 8]);
            *comps = b->data[i + 9];
            return true;
        }
        i += 2 + (size_t)(b->data[i + 2] << 8 | b->data[i + 3]);
    }
    return false;
}

/* Read the image's bytes into b, no further than its header says it goes.
 * What is wrong with bytes that end early is left to the decoder to say. */
static clpad_status read_image(src *s, const clpad__img_req *r, buf *b)
{
    const char *name = s->name, *why;
    clpad_status st;
    /* The signature first: /dev/urandom named .png fails after 12 bytes. */
    if ((st = buf_fill(b, s, 12)))
        return st;
    enum image_kind kind = image_kind_of(b->data, b->len, &why);
    if (kind == IMG_NONE)
        return clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: %s", name, why);
    if (kind == IMG_PNG) {
        clpad__png_header p = {0};
        if ((st = buf_fill(b, s, 33)) || (st = clpad__png_parse_header(name, r, b->data, b->len, &p)))
            return st;
        /* Chunk by chunk up to IEND (what follows it is not read). */
        uint64_t row = ((uint64_t)p.w * (uint64_t)(p.channels * p.depth) + 7) / 8 + 1;
        uint64_t bound = image_bound(row * p.h);
        size_t i = 8;
        for (;;) {
            if ((st = buf_fill(b, s, i + 8)))
                return st;
            if (b->len < i + 8)
                return CLPAD_OK; /* the decoder says the PNG is truncated */
            uint64_t end = (uint64_t)i + 12 + clpad__be32(b->data + i);
            if (end > bound) {
                if (s->sized && end > s->size)
                    return CLPAD_OK; /* truncated, as the decoder says */
                return too_long(name, "PNG", bound, p.w, p.h);
            }
            if ((st = buf_fill(b, s, (size_t)end)))
                return st;
            if (b->len < end || !memcmp(b->data + i + 4, "IEND", 4))
                return CLPAD_OK;
            i = (size_t)end;
        }
    }
    if (kind == IMG_JPEG) {
        long long w = 0, h = 0;
        int comps = 0;
        if (find_jpeg_frame(b, s, &w, &h, &comps, &st)) {
            if ((st = clpad__img_check_size(r, h, w, 4, 1)))
                return st;
            uint64_t bound = image_bound((uint64_t)w * h * (comps > 4 ? 4 : comps < 3 ? 3 : comps));
            if (s->sized && s->size > bound)
                return too_long(name, "JPEG", bound, w, h);
            if ((st = buf_fill(b, s, bound + 1)))
                return st;
            return b->len > bound ? too_long(name, "JPEG", bound, w, h) : CLPAD_OK;
        }
        /* No frame header where one belongs: libjpeg says what is wrong with
         * the first bytes. */
        return st ? st : buf_fill(b, s, CLPAD__IMAGE_SLACK);
    }
    if (kind == IMG_BMP) {
        clpad__bmp_header p;
        if ((st = buf_fill(b, s, 18)))
            return st;
        uint32_t hsz = b->len >= 18 ? clpad__le32(b->data + 14) : 0;
        if ((st = buf_fill(b, s, 14 + (hsz <= 124 ? hsz : 0))))
            return st;
        if (!clpad__bmp_parse_header(b->data, b->len, &p) || !p.need)
            return CLPAD_OK; /* the decoder says what is wrong */
        long long h = p.h < 0 ? -p.h : p.h;
        if ((st = clpad__img_check_size(r, h, p.w, 4, 1)))
            return st;
        uint64_t bound = image_bound((uint64_t)p.w * h * 4);
        if (p.need > bound)
            return clpad__fail(CLPAD_ERR_BAD_INPUT,
                               "%s: cannot decode the image: the BMP's pixels end at byte %llu, "
                               "beyond what a %lldx%lld image can need",
                               name, (unsigned long long)p.need, p.w, h);
        return buf_fill(b, s, (size_t)p.need); /* what follows is not read */
    }
    /* PNM: the header byte by byte up to the whitespace after maxval (a
     * stream need not say more), then the pixels right after it. */
    size_t i = 2;
    for (int fields = 0, digits = 0, comment = 0; fields < 3 && i < 65536; i++) {
        if ((st = buf_fill(b, s, i + 1)))
            return st;
        if (b->len <= i)
            break;
        int ch = b->data[i];
        if (comment) {
            comment = ch != '\n' && ch != '\r';
        } else if (ch >= '0' && ch <= '9') {
            digits = 1;
        } else {
            fields += digits;
            digits = 0;
            comment = ch == '#';
        }
    }
    clpad__pnm_header p;
    if ((st = clpad__pnm_parse_header(name, r, b->data, b->len, &p)))
        return st;
    return buf_fill(b, s, p.data_off + (size_t)(p.w * p.h * p.c * (p.maxval > 255 ? 2 : 1)));
}

/* Decode the bytes read, then orient: the result into *out. */
static clpad_status decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                           clpad_decoded_image *out)
{
    const char *why;
    enum image_kind kind = image_kind_of(b, n, &why);
    clpad__img img = {0};
    clpad_status st;
    switch (kind) {
    case IMG_PNG: st = clpad__png_decode(r, b, n, &img); break;
    case IMG_JPEG: st = clpad__jpeg_decode(r, b, n, &img); break;
    case IMG_BMP: st = clpad__bmp_decode(r, b, n, &img); break;
    case IMG_PNM: st = clpad__pnm_decode(r, b, n, &img); break;
    default:
        return clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: %s", r->name, why);
    }
    if (st)
        return st;
    int o = r->orient ? img.orientation : 1;
    if (o != 1 && (st = orient(r, &img, o))) {
        clpad__img_px_free(r, img.px, img.given);
        return st;
    }
    /* final pixels in memory of their own (a decoder that does not take
     * given memory) or in scratch memory (a PNG's eXIf guessed wrong): into
     * the allocator's */
    if (r->alloc && (!img.given || is_scratch(r, img.px))) {
        size_t bytes = (size_t)img.h * (size_t)img.w * (size_t)img.c * (size_t)img.sample;
        unsigned char *px = r->alloc->get(r->alloc->user, bytes);
        if (!px) {
            clpad__img_px_free(r, img.px, img.given);
            return clpad__img_nomem(r->name, bytes);
        }
        memcpy(px, img.px, bytes);
        clpad__img_px_free(r, img.px, img.given);
        img.px = px;
        img.given = true;
    }
    size_t size = out->size;
    memset(out, 0, sizeof *out);
    out->size = size;
    out->data = img.px;
    out->dtype = img.sample == 2 ? CLPAD_U16 : CLPAD_U8;
    out->height = img.h;
    out->width = img.w;
    out->channels = img.c;
    bool swap = o >= 5;
    out->source_height = swap ? img.full_w : img.full_h;
    out->source_width = swap ? img.full_h : img.full_w;
    out->scale_num = img.scale_num;
    out->orientation = o;
    memcpy(out->format, kind_names[kind], strlen(kind_names[kind]) + 1);
    return CLPAD_OK;
}

static clpad_status load(src *s, const clpad_read_options *o, const clpad__img_alloc *alloc,
                         clpad_decoded_image *out)
{
    clpad__img_req r;
    clpad_status st = make_request(o, s->name, &r);
    if (st)
        return st;
    r.alloc = alloc;
    buf b = {0};
    st = read_image(s, &r, &b);
    if (!st)
        st = decode(&r, b.data ? b.data : (const unsigned char *)"", b.len, out);
    free(b.own);
    return st;
}

/* ------------------------------------------------------------------------- */
/* Public calls                                                              */
/* ------------------------------------------------------------------------- */

static clpad_status check_out(const char *name, clpad_decoded_image *out)
{
    if (!out)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: out is NULL", name);
    if (out->size != sizeof *out)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: out->size is %zu, expected sizeof(clpad_decoded_image) = %zu",
                           name, out->size, sizeof *out);
    return CLPAD_OK;
}

/* The start of a call that decodes into `out` from a source that may be
 * unnamed (NULL or ""; then `unnamed` in messages): the last error cleared,
 * then check_out. */
static clpad_status begin_decode(const char **name, const char *unnamed, clpad_decoded_image *out)
{
    clpad__clear_error();
    if (!*name || !**name)
        *name = unnamed;
    return check_out(*name, out);
}

clpad_status clpad_image_decode(const void *data, size_t len, const char *name,
                                const clpad_read_options *options, clpad_decoded_image *out)
{
    clpad_status st = begin_decode(&name, "<memory>", out);
    if (st)
        return st;
    if (!data && len)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: data is NULL with %zu bytes", name,
                           len);
    src s = {.name = name, .fd = -1, .mem = data ? data : (const unsigned char *)"",
             .mem_len = data ? len : 0, .sized = true, .size = len};
    return load(&s, options, NULL, out);
}

static clpad_status read_fd(int fd, const char *name, const clpad_read_options *options,
                            const clpad__img_alloc *alloc, clpad_decoded_image *out)
{
    clpad_status st = begin_decode(&name, "<file descriptor>", out);
    if (st)
        return st;
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0)
        return clpad__fail(CLPAD_ERR_IO, "%s: cannot stat: %s", name,
                           fd < 0 ? "invalid file descriptor" : strerror(errno));
    if (S_ISDIR(sb.st_mode))
        return clpad__fail(CLPAD_ERR_IO, "%s: is a directory", name);
    /* A regular file has a size to check the header against; anything else
     * (a pipe, a character device) is read as a stream, only as far as the
     * header says. */
    src s = {.name = name, .fd = fd};
    if (S_ISREG(sb.st_mode) && sb.st_size >= 0) {
        s.sized = true;
        s.size = (uint64_t)sb.st_size;
    }
    return load(&s, options, alloc, out);
}

clpad_status clpad_image_read_fd(int fd, const char *name, const clpad_read_options *options,
                                 clpad_decoded_image *out)
{
    return read_fd(fd, name, options, NULL, out);
}

static clpad_status read_path(const char *path, const clpad_read_options *options,
                              const clpad__img_alloc *alloc, clpad_decoded_image *out)
{
    clpad__clear_error();
    if (!path || !*path)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "no image path given");
    clpad_status st = check_out(path, out);
    if (st)
        return st;
    int fd = tio__open_read(path); /* (a FIFO without a writer: read as empty) */
    if (fd < 0)
        return clpad__fail(CLPAD_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    st = read_fd(fd, path, options, alloc, out);
    close(fd);
    return st;
}

clpad_status clpad_image_read(const char *path, const clpad_read_options *options,
                              clpad_decoded_image *out)
{
    return read_path(path, options, NULL, out);
}

clpad_status clpad__image_read_alloc(const char *path, const clpad_read_options *options,
                                     const clpad__img_alloc *alloc, clpad_decoded_image *out)
{
    return read_path(path, options, alloc, out);
}

clpad_status clpad_image_probe(const void *data, size_t len, const char *name,
                               clpad_image_info *info)
{
    clpad__clear_error();
    if (!name || !*name)
        name = "<memory>";
    if (!info)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: info is NULL", name);
    if (info->size != sizeof *info)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: info->size is %zu, expected sizeof(clpad_image_info) = %zu", name,
                           info->size, sizeof *info);
    if (!data && len)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: data is NULL with %zu bytes", name,
                           len);
    const unsigned char *b = data ? data : (const unsigned char *)"";
    const char *why;
    clpad_image_info i = {.size = sizeof i};
    clpad_status st;
    switch (image_kind_of(b, len, &why)) {
    case IMG_PNG: st = clpad__png_probe(name, b, len, &i); break;
    case IMG_JPEG: st = clpad__jpeg_probe(name, b, len, &i); break;
    case IMG_BMP: st = clpad__bmp_probe(name, b, len, &i); break;
    case IMG_PNM: {
        clpad__pnm_header p;
        st = clpad__pnm_parse_header(name, NULL, b, len, &p);
        if (!st) {
            memcpy(i.format, "pnm", 4);
            i.height = p.h;
            i.width = p.w;
            i.channels = (int)p.c;
            i.bit_depth = p.maxval > 255 ? 16 : 8;
            i.orientation = 1;
        }
        break;
    }
    default:
        return clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: %s", name, why);
    }
    if (!st)
        *info = i;
    return st;
}

void clpad_decoded_image_free(clpad_decoded_image *image)
{
    if (!image)
        return;
    size_t size = image->size;
    free(image->data);
    memset(image, 0, sizeof *image);
    image->size = size;
}
