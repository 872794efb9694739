/*
 * PNG through libpng, with the transformations OpenCV's PNG decoder asks
 * libpng for (modules/imgcodecs/src/grfmt_png.cpp, PngDecoder::readData), so
 * that the same library gives the same bytes:
 *  - 8-bit output of a 16-bit image: png_set_strip_16 (the high byte);
 *  - fewer than 4 channels: png_set_strip_alpha (alpha dropped, not
 *    composited); 4 channels: png_set_tRNS_to_alpha;
 *  - palette: png_set_palette_to_rgb; grey of 1, 2 or 4 bits:
 *    png_set_expand_gray_1_2_4_to_8;
 *  - colour output of a grey image: png_set_gray_to_rgb; grey output of a
 *    colour image: png_set_rgb_to_gray(1, 0.299, 0.587), libpng's weights
 *    (with the file's gAMA taken into account by libpng, as in OpenCV).
 * No gamma correction, no ICC profile: the samples as stored.
 *
 * Integrity: every chunk's CRC is checked, critical and ancillary alike
 * (libpng's default only warns about an ancillary chunk's CRC and drops the
 * chunk), and from the first pixel row on libpng's "benign" errors are
 * errors: the image data's Adler-32, extra or missing compressed data, and
 * malformed chunks after the image data. Before the image data they stay
 * warnings (as in OpenCV), so that a file with, say, an ICC profile libpng
 * finds questionable still loads.
 */
#include "image_internal.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const unsigned char clpad__png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

clpad_status clpad__png_parse_header(const char *name, const clpad__img_req *limits,
                                     const unsigned char *b, size_t n, clpad__png_header *p)
{
    if (n < 33 || clpad__be32(b + 8) != 13 || memcmp(b + 12, "IHDR", 4) != 0)
        return clpad__fail(CLPAD_ERR_BAD_INPUT,
                           "%s: cannot decode the image: a PNG must begin with a 13-byte IHDR "
                           "chunk%s",
                           name, n < 33 ? " (the file ends before it)" : "");
    p->w = clpad__be32(b + 16);
    p->h = clpad__be32(b + 20);
    p->depth = b[24];
    p->colour = b[25];
    const uint32_t png_max = 0x7fffffffu; /* the PNG standard's limit on both sizes */
    if (p->w == 0 || p->h == 0 || p->w > png_max || p->h > png_max)
        return clpad__fail(CLPAD_ERR_BAD_INPUT,
                           "%s: cannot decode the image: the PNG is %ux%u; PNG sizes are 1 to "
                           "2^31-1",
                           name, (unsigned)p->w, (unsigned)p->h);
    static const struct {
        int colour, channels, depths; /* bit k of depths: depth 2^k allowed */
    } types[] = {{0, 1, 0x1f}, {2, 3, 0x18}, {3, 1, 0x0f}, {4, 2, 0x18}, {6, 4, 0x18}};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        if (types[k].colour != p->colour)
            continue;
        int d = p->depth, bit = d == 1 ? 0 : d == 2 ? 1 : d == 4 ? 2 : d == 8 ? 3 : d == 16 ? 4 : -1;
        if (bit < 0 || !(types[k].depths >> bit & 1))
            return clpad__fail(CLPAD_ERR_BAD_INPUT,
                               "%s: cannot decode the image: PNG bit depth %d is not valid for "
                               "colour type %d",
                               name, d, p->colour);
        p->channels = types[k].channels;
        return limits ? clpad__img_check_size(limits, p->h, p->w, 4, p->depth == 16 ? 2 : 1)
                      : CLPAD_OK;
    }
    return clpad__fail(CLPAD_ERR_BAD_INPUT,
                       "%s: cannot decode the image: PNG colour type %d is not valid", name,
                       p->colour);
}

/* One decode's state, reached from libpng's callbacks. */
typedef struct png_ctx {
    const unsigned char *b;
    size_t n, pos;
    char message[200]; /* libpng's error */
    jmp_buf jump;
} png_ctx;

static void png_fail(png_structp png, png_const_charp msg)
{
    png_ctx *c = png_get_error_ptr(png);
    snprintf(c->message, sizeof c->message, "%s", msg ? msg : "unknown libpng error");
    longjmp(c->jump, 1);
}

static void png_warn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* OpenCV ignores libpng's warnings too */
}

static void png_read(png_structp png, png_bytep out, size_t len)
{
    png_ctx *c = png_get_io_ptr(png);
    if (len > c->n - c->pos)
        png_error(png, "truncated PNG (the file ends inside a chunk)");
    memcpy(out, c->b + c->pos, len);
    c->pos += len;
}

/* Read from ctx's bytes, a CRC error being fatal, within the image side
 * limit. */
static void png_setup(png_structp png, png_ctx *ctx)
{
    png_set_read_fn(png, ctx, png_read);
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_user_limits(png, CLPAD_IMAGE_MAX_SIDE, CLPAD_IMAGE_MAX_SIDE);
}

/* The orientation of the EXIF data of an eXIf chunk, if the info holds one. */
static int png_orientation(png_structp png, png_infop info)
{
    png_uint_32 len = 0;
    png_bytep exif = NULL;
    if (!png_get_valid(png, info, PNG_INFO_eXIf) || !png_get_eXIf_1(png, info, &len, &exif) ||
        !exif)
        return 0;
    return clpad__exif_orientation(exif, len);
}

/* The transformations for the request (the file comment above); the
 * channels they give. Call after png_read_info. */
static int png_transforms(png_structp png, png_infop info, const clpad__img_req *r)
{
    int ct = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    bool trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (depth == 16) {
        if (r->keep_depth)
            png_set_swap(png); /* to the host's byte order (little-endian) */
        else
            png_set_strip_16(png);
    }
    if (r->channels == CLPAD_CHANNELS_KEEP) {
        if (trns)
            png_set_tRNS_to_alpha(png);
    } else if (r->channels == 4) {
        png_set_tRNS_to_alpha(png);
        if (!(ct & PNG_COLOR_MASK_ALPHA) && !trns)
            png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
    } else {
        png_set_strip_alpha(png);
    }
    if (ct == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (!(ct & PNG_COLOR_MASK_COLOR) && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (r->channels == 3 || r->channels == 4) {
        if (!(ct & PNG_COLOR_MASK_COLOR))
            png_set_gray_to_rgb(png);
    } else if (r->channels == 1 && (ct & PNG_COLOR_MASK_COLOR)) {
        png_set_rgb_to_gray(png, 1, 0.299, 0.587);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    return png_get_channels(png, info);
}

/* A palette image's indices, every one checked against the PLTE chunk's
 * entries: libpng (1.6.39) decodes an index beyond them as black without a
 * word (its own check misses them), where the PNG specification makes such
 * a file invalid and Pillow refuses it. A first pass over the rows, unpacked
 * to one index per byte; the decode proper is the second. */
typedef struct png_index_job {
    png_structp png;
    png_infop info;
    unsigned char *volatile row;
} png_index_job;

static clpad_status png_check_palette(const clpad__img_req *r, const unsigned char *b, size_t n)
{
    png_ctx ctx = {.b = b, .n = n, .pos = 0};
    png_index_job job = {0};
    job.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, png_fail, png_warn);
    job.info = job.png ? png_create_info_struct(job.png) : NULL;
    if (!job.info) {
        png_destroy_read_struct(&job.png, NULL, NULL);
        return clpad__img_nomem(r->name, sizeof(png_ctx));
    }
    if (setjmp(ctx.jump)) {
        png_destroy_read_struct(&job.png, &job.info, NULL);
        free(job.row);
        return clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: %s", r->name,
                           ctx.message);
    }
    png_setup(job.png, &ctx);
    png_read_info(job.png, job.info);
    png_colorp palette = NULL;
    int entries = 0;
    png_get_PLTE(job.png, job.info, &palette, &entries);
    png_set_packing(job.png);
    int passes = png_set_interlace_handling(job.png);
    png_read_update_info(job.png, job.info);
    png_uint_32 h = png_get_image_height(job.png, job.info);
    size_t w = png_get_rowbytes(job.png, job.info);
    job.row = calloc(w ? w : 1, 1);
    if (!job.row)
        png_error(job.png, "out of memory");
    for (int pass = 0; pass < passes; pass++)
        for (png_uint_32 y = 0; y < h; y++) {
            png_read_row(job.png, job.row, NULL);
            for (size_t x = 0; x < w; x++)
                if (job.row[x] >= entries) {
                    int index = job.row[x];
                    png_destroy_read_struct(&job.png, &job.info, NULL);
                    free(job.row);
                    return clpad__img_bad(r,
                                          "a pixel of row %u has palette index %d, beyond the "
                                          "PLTE chunk's %d entries",
                                          (unsigned)y, index, entries);
                }
        }
    png_destroy_read_struct(&job.png, &job.info, NULL);
    free(job.row);
    return CLPAD_OK;
}

static int png_scan_exif(const unsigned char *b, size_t n);

/* The decode proper, between setjmp and the cleanup (volatile: what
 * longjmp may leave changed). */
typedef struct png_job {
    png_structp png;
    png_infop info, end;
    unsigned char *volatile px;
    png_bytep *volatile rows;
    volatile bool given; /* px from the request's alloc */
} png_job;

clpad_status clpad__png_decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                               clpad__img *out)
{
    clpad__png_header hdr;
    /* The limits first: a small file declaring a huge image is refused before
     * libpng allocates anything for it. */
    clpad_status st = clpad__png_parse_header(r->name, r, b, n, &hdr);
    if (!st && hdr.colour == PNG_COLOR_TYPE_PALETTE)
        st = png_check_palette(r, b, n);
    if (st)
        return st;
    png_ctx ctx = {.b = b, .n = n, .pos = 0};
    png_job job = {0};
    job.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, png_fail, png_warn);
    if (!job.png)
        return clpad__img_nomem(r->name, sizeof(png_ctx));
    job.info = png_create_info_struct(job.png);
    job.end = png_create_info_struct(job.png);
    if (!job.info || !job.end) {
        png_destroy_read_struct(&job.png, &job.info, &job.end);
        return clpad__img_nomem(r->name, sizeof(png_ctx));
    }
    if (setjmp(ctx.jump)) {
        png_destroy_read_struct(&job.png, &job.info, &job.end);
        free(job.rows);
        clpad__img_px_free(r, job.px, job.given);
        return clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: %s", r->name,
                           ctx.message);
    }
    png_setup(job.png, &ctx);
    /* An iCCP chunk holding the sRGB profile does not make this libpng
     * (1.6.39) apply the sRGB gamma in png_set_rgb_to_gray, as the libpng
     * OpenCV ships (1.6.58) does not: only gAMA and sRGB chunks count. */
    png_set_option(job.png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    png_read_info(job.png, job.info);
    int64_t h = png_get_image_height(job.png, job.info), w = png_get_image_width(job.png, job.info);
    int sample = png_get_bit_depth(job.png, job.info) == 16 && r->keep_depth ? 2 : 1;
    int c = png_transforms(job.png, job.info, r);
    size_t row = (size_t)w * (size_t)c * (size_t)sample;
    if ((size_t)png_get_rowbytes(job.png, job.info) != row)
        png_error(job.png, "internal error: unexpected row size");
    st = clpad__img_check_size(r, h, w, c, sample);
    if (st) {
        png_destroy_read_struct(&job.png, &job.info, &job.end);
        return st;
    }
    /* final unless an orientation follows (the eXIf chunk's, which libpng
     * reads below: a wrong guess costs a copy, not a wrong image) */
    int exif = r->orient ? png_scan_exif(b, n) : 0;
    bool given = false;
    job.px = clpad__img_px_new(r, row * (size_t)h, exif <= 1, &given);
    job.given = given;
    job.rows = malloc(sizeof(png_bytep) * (size_t)h);
    if (!job.px || !job.rows)
        png_error(job.png, "out of memory");
    for (int64_t y = 0; y < h; y++)
        job.rows[y] = job.px + (size_t)y * row;
    /* From here on a "benign" error is an error: see the top of the file. */
    png_set_benign_errors(job.png, 0);
    png_read_image(job.png, job.rows);
    png_read_end(job.png, job.end);
    int orientation = png_orientation(job.png, job.info);
    if (!orientation)
        orientation = png_orientation(job.png, job.end);
    png_destroy_read_struct(&job.png, &job.info, &job.end);
    free(job.rows);
    *out = (clpad__img){.px = job.px, .h = h, .w = w, .c = c, .sample = sample, .full_h = h,
                        .full_w = w, .scale_num = 8, .orientation = orientation ? orientation : 1,
                        .given = given};
    return CLPAD_OK;
}

/* The first eXIf chunk's orientation among the chunks of b[0..n), 0 if none. */
static int png_scan_exif(const unsigned char *b, size_t n)
{
    for (size_t i = 8; n >= 12 && i <= n - 12;) {
        uint32_t len = clpad__be32(b + i);
        if (len > n - i - 12)
            return 0;
        if (!memcmp(b + i + 4, "eXIf", 4))
            return clpad__exif_orientation(b + i + 8, len);
        if (!memcmp(b + i + 4, "IEND", 4))
            return 0;
        i += 12 + (size_t)len;
    }
    return 0;
}

clpad_status clpad__png_probe(const char *name, const unsigned char *b, size_t n,
                              clpad_image_info *info)
{
    clpad__png_header hdr;
    clpad_status st = clpad__png_parse_header(name, NULL, b, n, &hdr);
    if (st)
        return st;
    bool trns = false;
    for (size_t i = 8; n >= 12 && i <= n - 12;) {
        uint32_t len = clpad__be32(b + i);
        if (!memcmp(b + i + 4, "tRNS", 4))
            trns = true;
        if (!memcmp(b + i + 4, "IDAT", 4) || len > n - i - 12)
            break;
        i += 12 + (size_t)len;
    }
    int c = hdr.colour == 3 ? 3 : hdr.channels;
    if (trns && (c == 1 || c == 3))
        c++;
    int orientation = png_scan_exif(b, n);
    orientation = orientation ? orientation : 1;
    bool swap = orientation >= 5;
    memcpy(info->format, "png", 4);
    info->height = swap ? hdr.w : hdr.h;
    info->width = swap ? hdr.h : hdr.w;
    info->channels = c;
    info->bit_depth = hdr.depth;
    info->orientation = orientation;
    return CLPAD_OK;
}
