/*
 * BMP through stb_image (Debian's libstb), with the checks stb_image 2.27
 * lacks: its header's geometry, a short file, a palette index beyond the
 * palette, a pixel offset inside the headers. The channels as stored are
 * OpenCV's: 1 for a grey palette, 4 for a 32-bit BI_BITFIELDS BMP with an
 * alpha mask, else 3; then converted by OpenCV's rules
 * (clpad__img_convert_channels). stb_image is used from one call at a time
 * per image: no global setting is changed, and its failure reason is per
 * thread.
 */
#include "image_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <stb/stb_image.h>

bool clpad__bmp_parse_header(const unsigned char *b, size_t n, clpad__bmp_header *p)
{
    memset(p, 0, sizeof *p);
    if (n < 18)
        return false;
    uint32_t off = clpad__le32(b + 10), hsz = clpad__le32(b + 14), comp = 0;
    if (hsz == 12 && n >= 26) { /* OS/2 BITMAPCOREHEADER: unsigned 16-bit sizes */
        p->w = clpad__le16(b + 18);
        p->h = clpad__le16(b + 20);
        p->bpp = (int)clpad__le16(b + 24);
    } else if (hsz >= 40 && n >= 34) {
        int32_t w, h;
        uint32_t uw = clpad__le32(b + 18), uh = clpad__le32(b + 22);
        memcpy(&w, &uw, sizeof w);
        memcpy(&h, &uh, sizeof h);
        p->w = w;
        p->h = h;
        p->bpp = (int)clpad__le16(b + 28);
        comp = clpad__le32(b + 30);
    } else {
        return false;
    }
    bool plain = comp == 0 || comp == 3 || comp == 6; /* RGB, BITFIELDS, ALPHABITFIELDS */
    bool depth = p->bpp == 1 || p->bpp == 4 || p->bpp == 8 || p->bpp == 16 || p->bpp == 24 ||
                 p->bpp == 32;
    if (plain && depth && p->w > 0 && p->w <= CLPAD_IMAGE_MAX_SIDE && p->h != 0 &&
        p->h >= -CLPAD_IMAGE_MAX_SIDE && p->h <= CLPAD_IMAGE_MAX_SIDE) {
        uint64_t stride = ((uint64_t)p->w * (uint64_t)p->bpp + 31) / 32 * 4;
        uint64_t rows = (uint64_t)(p->h < 0 ? -p->h : p->h);
        p->need = off + stride * rows; /* < 2^32 + 2^24 * 2^29: no overflow */
    }
    return true;
}

/* stb_image reads the rows a BMP is missing as zeros: refuse a short file. */
static clpad_status bmp_check_size(const clpad__img_req *r, const unsigned char *b, size_t n)
{
    clpad__bmp_header p;
    if (!clpad__bmp_parse_header(b, n, &p) || !p.need || n >= p.need)
        return CLPAD_OK;
    return clpad__img_bad(r,
                          "truncated BMP (%lldx%lld at %d bits per pixel ends at byte %llu, the "
                          "file holds %zu bytes)",
                          p.w, p.h < 0 ? -p.h : p.h, p.bpp, (unsigned long long)p.need, n);
}

/* stb_image (2.27) keeps a BMP's palette in an uninitialised stack array
 * and reads an index beyond the colours the file holds from it: garbage,
 * different from run to run (found by fuzz_image, comparing two reads of one
 * file). Every index of an uncompressed 1-, 4- or 8-bit BMP is checked
 * against the palette stb_image reads (its size taken from the pixel
 * offset, as stb_image does). Call after bmp_check_size. */
static clpad_status bmp_check_palette(const clpad__img_req *r, const unsigned char *b, size_t n)
{
    clpad__bmp_header p;
    if (!clpad__bmp_parse_header(b, n, &p) || !p.need || p.bpp > 8 || n < p.need)
        return CLPAD_OK;
    uint32_t off = clpad__le32(b + 10), hsz = clpad__le32(b + 14);
    long long colours = hsz == 12 ? ((long long)off - 38) / 3 : ((long long)off - 14 - hsz) / 4;
    if (colours > 256)
        return CLPAD_OK; /* stb_image refuses it ("invalid") */
    if (colours < 1) /* stb_image decoded it from its uninitialised palette */
        return clpad__img_bad(r, "a %d-bit BMP without a palette (pixel data at byte %u)",
                              p.bpp, (unsigned)off);
    size_t stride = ((size_t)p.w * (size_t)p.bpp + 31) / 32 * 4;
    long long rows = p.h < 0 ? -p.h : p.h;
    for (long long y = 0; y < rows; y++) {
        const unsigned char *row = b + off + (size_t)y * stride;
        for (long long x = 0; x < p.w; x++) {
            int bit = (int)(x * p.bpp % 8), index = row[x * p.bpp / 8];
            index = p.bpp == 8 ? index : index >> (8 - p.bpp - bit) & ((1 << p.bpp) - 1);
            if (index >= colours)
                return clpad__img_bad(r,
                                      "pixel %lld of stored row %lld has palette index %d, "
                                      "beyond the BMP's %lld colours",
                                      x, y, index, colours);
        }
    }
    return CLPAD_OK;
}

/* Whether a BMP of 1, 4 or 8 bits per pixel has a grey palette (every entry
 * it holds, up to 2^bpp, with R = G = B): OpenCV reads such a file as one
 * channel (modules/imgcodecs/src/grfmt_bmp.cpp, IsColorPalette), and so does
 * CLPAD_CHANNELS_KEEP. */
static bool bmp_grey_palette(const unsigned char *b, size_t n)
{
    clpad__bmp_header p;
    if (!clpad__bmp_parse_header(b, n, &p) || p.bpp > 8)
        return false;
    uint32_t off = clpad__le32(b + 10), hsz = clpad__le32(b + 14);
    size_t entry = hsz == 12 ? 3 : 4, start = 14 + (size_t)hsz;
    if (off < start || off > n)
        return false;
    size_t count = (off - start) / entry, max = (size_t)1 << p.bpp;
    for (size_t i = 0; i < count && i < max; i++) {
        const unsigned char *e = b + start + i * entry; /* B, G, R */
        if (e[0] != e[1] || e[0] != e[2])
            return false;
    }
    return true;
}

/* Whether a BMP has an alpha channel by OpenCV's rule (grfmt_bmp.cpp): 32
 * bits per pixel, BI_BITFIELDS, an info header of at least 56 bytes and a
 * non-zero alpha mask. (stb_image also takes the fourth byte of a plain
 * 32-bit BI_RGB BMP as alpha when it is not all zeros; OpenCV, and clpad,
 * do not.) */
static bool bmp_has_alpha(const unsigned char *b, size_t n)
{
    if (n < 70 || clpad__le16(b + 28) != 32 || clpad__le32(b + 30) != 3 ||
        clpad__le32(b + 14) < 56)
        return false;
    return clpad__le32(b + 66) != 0;
}

/* The header checks before stb_image sees the file, and its geometry: 0, or
 * the error. */
static clpad_status bmp_check_header(const clpad__img_req *r, const unsigned char *b, size_t n,
                                     int *w, int *h, int *c)
{
    /* stb_image decodes a file as a BMP only when its info header has one
     * of these sizes; otherwise it tries its other decoders, down to TGA,
     * which has no signature (found by fuzz_image). */
    uint32_t hsz = n >= 18 ? clpad__le32(b + 14) : 0;
    if (hsz != 12 && hsz != 40 && hsz != 56 && hsz != 108 && hsz != 124)
        return clpad__img_bad(r, "%s (a BMP info header of %u bytes; known: 12, 40, 56, 108, 124)",
                              n < 18 ? "truncated BMP" : "unknown BMP version", (unsigned)hsz);
    if (n < 14 + hsz)
        return clpad__img_bad(r, "truncated BMP (its headers need %u bytes, the file holds %zu)",
                              (unsigned)(14 + hsz), n);
    /* A pixel offset inside the headers made stb_image skip backwards, to the
     * end of the file, and read the pixels as zeros (found by fuzz_image). */
    if (clpad__le32(b + 10) < 14 + hsz)
        return clpad__img_bad(r,
                              "the BMP's pixel data offset %u lies inside its %u bytes of headers",
                              (unsigned)clpad__le32(b + 10), (unsigned)(14 + hsz));
    if (n > INT_MAX) /* stb_image takes an int length */
        return clpad__img_bad(r, "the file is larger than %d bytes", INT_MAX);
    if (!stbi_info_from_memory(b, (int)n, w, h, c)) {
        const char *reason = stbi_failure_reason();
        return clpad__img_bad(r, "%s", reason ? reason : "unknown error");
    }
    if (*c < 1 || *c > 4)
        return clpad__img_bad(r, "%d channels", *c);
    /* stb_image's header reader gives a top-down BMP (rows stored first to
     * last) its negative height; its decoder, the height. */
    if (*h < 0 && *h != INT_MIN)
        *h = -*h;
    return CLPAD_OK;
}

clpad_status clpad__bmp_decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                               clpad__img *out)
{
    int w = 0, h = 0, c = 0;
    /* A top-down height beyond the limits named as such: stb_image's abs()
     * leaves -2^31 negative, which read as an empty image. */
    clpad__bmp_header hd;
    if (clpad__bmp_parse_header(b, n, &hd) && hd.h < -CLPAD_IMAGE_MAX_SIDE && hd.w > 0)
        return clpad__img_check_size(r, -hd.h, hd.w, 4, 1);
    clpad_status st = bmp_check_header(r, b, n, &w, &h, &c);
    if (!st)
        st = clpad__img_check_size(r, h, w, 4, 1);
    if (!st)
        st = bmp_check_size(r, b, n);
    if (!st)
        st = bmp_check_palette(r, b, n);
    if (st)
        return st;
    /* RGB, or RGBA when the file has alpha and alpha (KEEP, 4) or grey is
     * asked for; grey and an opaque alpha are made below. */
    bool alpha = r->channels != 3 && bmp_has_alpha(b, n);
    int want = alpha ? 4 : 3;
    int w2 = 0, h2 = 0, file_c = 0;
    unsigned char *px = stbi_load_from_memory(b, (int)n, &w2, &h2, &file_c, want);
    if (!px) {
        const char *reason = stbi_failure_reason();
        return clpad__img_bad(r, "%s", reason ? reason : "unknown error");
    }
    if (w2 != w || h2 != h) {
        stbi_image_free(px);
        return clpad__img_bad(r, "its header says %dx%d, the decoder %dx%d", w, h, w2, h2);
    }
    /* Our own malloc'd block, so that clpad_decoded_image_free's free() is
     * always right. */
    size_t bytes = (size_t)w * (size_t)h * (size_t)want;
    unsigned char *own = malloc(bytes);
    if (!own) {
        stbi_image_free(px);
        return clpad__img_nomem(r->name, bytes);
    }
    memcpy(own, px, bytes);
    stbi_image_free(px);
    *out = (clpad__img){.px = own, .h = h, .w = w, .c = want, .sample = 1, .full_h = h,
                        .full_w = w, .scale_num = 8, .orientation = 1};
    if (r->channels == 1 && alpha) {
        /* OpenCV 4.14 turns a BMP with alpha into grey by another formula
         * than its BGR2Gray: (B * 7471 + G * 38470 + R * 19595) >> 16,
         * truncated (measured: equal on every pixel of random images). */
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
            const unsigned char *p = own + 4 * i;
            own[i] = (unsigned char)((p[2] * 7471u + p[1] * 38470u + p[0] * 19595u) >> 16);
        }
        out->c = 1;
    }
    if (r->channels == CLPAD_CHANNELS_KEEP && want == 3 && bmp_grey_palette(b, n)) {
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++) /* R = G = B: keep one */
            own[i] = own[3 * i];
        out->c = 1;
    }
    st = clpad__img_convert_channels(r, out);
    if (st) {
        free(out->px);
        out->px = NULL;
    }
    return st;
}

clpad_status clpad__bmp_probe(const char *name, const unsigned char *b, size_t n,
                              clpad_image_info *info)
{
    clpad__img_req r = {.name = name};
    int w = 0, h = 0, c = 0;
    clpad_status st = bmp_check_header(&r, b, n, &w, &h, &c);
    if (st)
        return st;
    memcpy(info->format, "bmp", 4);
    info->height = h;
    info->width = w;
    info->channels = bmp_has_alpha(b, n) ? 4 : bmp_grey_palette(b, n) ? 1 : 3;
    info->bit_depth = 8;
    info->orientation = 1;
    return CLPAD_OK;
}
