/*
 * Images in: PNG and BMP through stb_image, JPEG through libjpeg-turbo,
 * binary PNM decoded here; every format recognized by its signature.
 *
 * Two stages: tio__load_image reads the input no further than the format's
 * header says it goes (the signature first, then the header, then at most
 * what that header can need), refusing a declared image over the size limit
 * before reading its pixels; decode_image then checks and decodes the bytes
 * in memory. 8-bit images come out as u8, 16-bit PNG and PNM as u16.
 */
#include "io_internal.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <stb/stb_image.h>

/* ------------------------------------------------------------------------- */
/* Images in                                                                 */
/* ------------------------------------------------------------------------- */

/* The image formats tensor_io reads, recognized by their signature. stb_image
 * also decodes GIF, PSD, TGA, HDR and PIC, and tries every decoder in turn
 * (TGA has no signature, so a corrupt file can come out as a "TGA" image);
 * only these four are ever handed to it. */
enum image_kind { IMG_NONE, IMG_PNG, IMG_JPEG, IMG_BMP, IMG_PNM };

static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/* The kind of image in buf, or IMG_NONE with *why naming what it is instead. */
static enum image_kind image_kind_of(const unsigned char *b, size_t n, const char **why)
{
    *why = "not a PNG, JPEG, BMP or binary PNM (P5/P6) image (unrecognized signature)";
    if (n >= 8 && memcmp(b, png_signature, 8) == 0)
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
    else if (n >= 6 && memcmp(b, tio__npy_magic, 6) == 0)
        *why = "this is a .npy file; name it .npy";
    return IMG_NONE;
}

/* Whether a PNG of colour type 0 (grey) or 2 (RGB) has a tRNS chunk before
 * its image data: stb_image then decodes it with an extra alpha channel that
 * stbi_info does not count, so the alpha must be asked for. */
static bool png_has_transparency_key(const unsigned char *b, size_t n)
{
    size_t i = 8;
    while (n >= 12 && i <= n - 12) {
        uint32_t len = (uint32_t)b[i] << 24 | (uint32_t)b[i + 1] << 16 |
                       (uint32_t)b[i + 2] << 8 | (uint32_t)b[i + 3];
        const unsigned char *type = b + i + 4;
        if (memcmp(type, "tRNS", 4) == 0)
            return true;
        if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0)
            return false;
        if (len > n - i - 12)
            return false;
        i += 12 + (size_t)len;
    }
    return false;
}

/* Every chunk up to IEND must fit in the file. stb_image (2.27) grows its
 * IDAT buffer to the length a chunk declares before reading it, so a 4 KiB
 * file declaring a 1 GiB chunk made it allocate 2 GiB (found by fuzz_image). */
static int png_check_chunks(const char *name, const unsigned char *b, size_t n, char *err,
                            size_t errlen)
{
    size_t i = 8;
    while (n >= 12 && i <= n - 12) {
        uint32_t len = (uint32_t)b[i] << 24 | (uint32_t)b[i + 1] << 16 |
                       (uint32_t)b[i + 2] << 8 | (uint32_t)b[i + 3];
        if (len > n - i - 12)
            return tio__fail(err, errlen,
                        "%s: cannot decode the image: truncated PNG (a chunk at byte %zu declares "
                        "%u bytes, %zu remain)",
                        name, i, (unsigned)len, n - i - 12);
        if (memcmp(b + i + 4, "IEND", 4) == 0)
            return 0;
        i += 12 + (size_t)len;
    }
    return tio__fail(err, errlen, "%s: cannot decode the image: truncated PNG (no IEND chunk)", name);
}

/* Largest width or height accepted (stb_image's own STBI_MAX_DIMENSIONS). */
#define IMAGE_MAX_DIM (1 << 24)

/* The decoded size of a w x h x c image of `sample`-byte samples, checked
 * against max_bytes. */
static int image_size(const char *name, long long w, long long h, long long c, int sample,
                      size_t max_bytes, size_t *bytes, char *err, size_t errlen)
{
    if (w < 1 || h < 1)
        return tio__fail(err, errlen, "%s: cannot decode the image: it is empty (%lldx%lld)",
                         name, w, h);
    if (w > IMAGE_MAX_DIM || h > IMAGE_MAX_DIM)
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: %lldx%lld is larger than %d pixels on a "
                         "side",
                         name, w, h, IMAGE_MAX_DIM);
    /* w, h <= 2^24, c <= 4 and sample <= 2: the product fits in 64 bits. */
    unsigned long long n = (unsigned long long)w * (unsigned long long)h *
                           (unsigned long long)c * (unsigned long long)sample;
    if (n > max_bytes || n > SIZE_MAX)
        return tio__fail(err, errlen,
                         "%s: the image is %lldx%lld with %lld channel%s%s (%llu bytes decoded), "
                         "more than the limit of %zu bytes",
                         name, w, h, c, c == 1 ? "" : "s", sample == 2 ? " of 16 bits" : "", n,
                         max_bytes);
    *bytes = (size_t)n;
    return 0;
}

/* Read one unsigned decimal PNM header field after whitespace and '#'
 * comments (a comment ends at '\n' or '\r', as in stb_image). Returns -1 when
 * there is no number, -2 when it exceeds `limit`. */
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

/* A binary PNM header (P5, P6): width, height, channels, maxval and the
 * offset of the pixel data. 0, or 1 with err set. */
typedef struct pnm_header {
    long long w, h, c, maxval;
    size_t data_off;
} pnm_header;

static int parse_pnm_header(const char *name, const unsigned char *b, size_t n, pnm_header *p,
                            char *err, size_t errlen)
{
    p->c = b[1] == '6' ? 3 : 1;
    size_t i = 2;
    p->w = pnm_field(b, n, &i, IMAGE_MAX_DIM);
    p->h = p->w >= 0 ? pnm_field(b, n, &i, IMAGE_MAX_DIM) : -1;
    p->maxval = p->h >= 0 ? pnm_field(b, n, &i, 65535) : -1;
    if (p->w == -2 || p->h == -2)
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: PNM width or height larger than %d", name,
                         IMAGE_MAX_DIM);
    if (p->maxval == -2)
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: PNM maxval larger than 65535", name);
    if (p->w < 0 || p->h < 0 || p->maxval < 0)
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: malformed PNM header (expected width, "
                         "height and maxval)",
                         name);
    if (p->maxval == 0)
        return tio__fail(err, errlen, "%s: cannot decode the image: PNM maxval is 0", name);
    if (i >= n || !strchr(" \t\r\n\v\f", b[i]) || !b[i])
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: PNM maxval must be followed by one "
                         "whitespace byte and the pixel data",
                         name);
    p->data_off = i + 1;
    return 0;
}

/* Binary PNM (P5, P6), decoded here: stb_image 2.27 accepts a width or height
 * that wraps around int ("4294967297" reads as 1), a maxval of 0, reads
 * 16-bit samples in the wrong byte order and leaves a short file's missing
 * pixels uninitialized. Samples are kept as stored (no scaling by maxval,
 * as stb_image does): maxval <= 255 gives u8, above it u16 (stored
 * big-endian, as the format says). */
static int decode_pnm(const char *name, const unsigned char *b, size_t n, size_t max_bytes,
                      tio_tensor *t, char *err, size_t errlen)
{
    pnm_header p;
    if (parse_pnm_header(name, b, n, &p, err, errlen))
        return 1;
    int sample = p.maxval > 255 ? 2 : 1;
    size_t bytes;
    if (image_size(name, p.w, p.h, p.c, sample, max_bytes, &bytes, err, errlen))
        return 1;
    size_t have = n - p.data_off;
    if (have < bytes)
        return tio__fail(err, errlen,
                         "%s: PNM data is truncated: a %lldx%lld image needs %zu bytes, the file "
                         "holds %zu",
                         name, p.w, p.h, bytes, have);
    unsigned char *px = malloc(bytes);
    if (!px)
        return tio__fail(err, errlen, "%s: out of memory (%zu bytes)", name, bytes);
    const unsigned char *src = b + p.data_off;
    if (sample == 1) {
        memcpy(px, src, bytes);
    } else {
        for (size_t k = 0; k < bytes / 2; k++) { /* big-endian to the host's order */
            uint16_t v = (uint16_t)(src[2 * k] << 8 | src[2 * k + 1]);
            memcpy(px + 2 * k, &v, 2);
        }
    }
    t->dtype = sample == 2 ? CLPAD_U16 : CLPAD_U8;
    t->rank = 3;
    t->shape[0] = p.h;
    t->shape[1] = p.w;
    t->shape[2] = p.c;
    t->is_image = true;
    t->nbytes = bytes;
    t->data = px;
    return 0;
}

/* JPEG goes to libjpeg-turbo, not stb_image: stb's JPEG decoder (Debian's
 * 2022 snapshot) reads uninitialised Huffman tables when a scan names a table
 * no DHT segment defined, and reads far out of bounds (found by fuzz_image;
 * upstream nothings/stb#1289, #1297). libjpeg's errors longjmp back here; its
 * warnings (corrupt data it would paper over) are errors too. */
struct jpeg_failure {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void jpeg_fail_exit(j_common_ptr c)
{
    struct jpeg_failure *f = (struct jpeg_failure *)c->err;
    f->mgr.format_message(c, f->message);
    longjmp(f->jump, 1);
}

static void jpeg_fail_message(j_common_ptr c, int level)
{
    if (level < 0) /* a warning: the data is corrupt */
        jpeg_fail_exit(c);
}

static int decode_jpeg(const char *name, const unsigned char *b, size_t n, size_t max_bytes,
                       tio_tensor *t, char *err, size_t errlen)
{
    struct jpeg_decompress_struct cinfo;
    struct jpeg_failure jerr;
    unsigned char *volatile px = NULL;
    cinfo.err = jpeg_std_error(&jerr.mgr);
    jerr.mgr.error_exit = jpeg_fail_exit;
    jerr.mgr.emit_message = jpeg_fail_message;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(px);
        return tio__fail(err, errlen, "%s: cannot decode the image: %s", name, jerr.message);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, b, (unsigned long)n);
    jpeg_read_header(&cinfo, TRUE);
    /* Grey stays grey; YCbCr and RGB come out as RGB; CMYK and YCCK as CMYK,
     * turned into RGB below (Adobe's inverted CMYK, as stb_image did). */
    bool cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cinfo.num_components == 1 ? JCS_GRAYSCALE : cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_calc_output_dimensions(&cinfo);
    int c = cinfo.out_color_space == JCS_GRAYSCALE ? 1 : 3;
    size_t bytes;
    if (image_size(name, (int)cinfo.output_width, (int)cinfo.output_height, c, 1, max_bytes,
                   &bytes, err, errlen)) {
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    size_t row = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    px = malloc(cmyk ? row * cinfo.output_height : bytes);
    if (!px) {
        jpeg_destroy_decompress(&cinfo);
        return tio__fail(err, errlen, "%s: out of memory (%zu bytes)", name, bytes);
    }
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW r = px + (size_t)cinfo.output_scanline * row;
        jpeg_read_scanlines(&cinfo, &r, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (cmyk) { /* inverted CMYK: R = C * K / 255, ... in place, 4 -> 3 bytes */
        size_t pixels = (size_t)cinfo.output_width * cinfo.output_height;
        for (size_t i = 0; i < pixels; i++)
            for (int k = 0; k < 3; k++)
                px[3 * i + k] = (unsigned char)((px[4 * i + k] * px[4 * i + 3] + 127) / 255);
    }
    t->data = px;
    t->dtype = CLPAD_U8;
    t->rank = 3;
    t->shape[0] = cinfo.output_height;
    t->shape[1] = cinfo.output_width;
    t->shape[2] = c;
    t->is_image = true;
    t->nbytes = bytes;
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Headers: what an image file can need                                      */
/* ------------------------------------------------------------------------- */

static uint32_t be32(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}
static uint32_t le16(const unsigned char *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8; }
static uint32_t le32(const unsigned char *b)
{
    return le16(b) | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* A BMP's geometry from its file and info headers. `need` is where its pixel
 * array ends (0 when the header is too short to tell or the encoding is one
 * stb_image refuses anyway, RLE, JPEG or PNG inside). */
typedef struct bmp_header {
    long long w, h; /* h > 0: rows bottom-up; h < 0: top-down */
    int bpp;
    uint64_t need;
} bmp_header;

static bool parse_bmp_header(const unsigned char *b, size_t n, bmp_header *p)
{
    memset(p, 0, sizeof *p);
    if (n < 18)
        return false;
    uint32_t off = le32(b + 10), hsz = le32(b + 14), comp = 0;
    if (hsz == 12 && n >= 26) { /* OS/2 BITMAPCOREHEADER: unsigned 16-bit sizes */
        p->w = le16(b + 18);
        p->h = le16(b + 20);
        p->bpp = (int)le16(b + 24);
    } else if (hsz >= 40 && n >= 34) {
        int32_t w, h;
        uint32_t uw = le32(b + 18), uh = le32(b + 22);
        memcpy(&w, &uw, sizeof w);
        memcpy(&h, &uh, sizeof h);
        p->w = w;
        p->h = h;
        p->bpp = (int)le16(b + 28);
        comp = le32(b + 30);
    } else {
        return false;
    }
    bool plain = comp == 0 || comp == 3 || comp == 6; /* RGB, BITFIELDS, ALPHABITFIELDS */
    bool depth = p->bpp == 1 || p->bpp == 4 || p->bpp == 8 || p->bpp == 16 || p->bpp == 24 ||
                 p->bpp == 32;
    if (plain && depth && p->w > 0 && p->w <= IMAGE_MAX_DIM && p->h != 0 &&
        p->h >= -IMAGE_MAX_DIM && p->h <= IMAGE_MAX_DIM) {
        uint64_t stride = ((uint64_t)p->w * (uint64_t)p->bpp + 31) / 32 * 4;
        uint64_t rows = (uint64_t)(p->h < 0 ? -p->h : p->h);
        p->need = off + stride * rows; /* < 2^32 + 2^24 * 2^29: no overflow */
    }
    return true;
}

/* stb_image reads the rows a BMP is missing as zeros: refuse a short file. */
static int bmp_check_size(const char *name, const unsigned char *b, size_t n, char *err,
                          size_t errlen)
{
    bmp_header p;
    if (!parse_bmp_header(b, n, &p) || !p.need || n >= p.need)
        return 0;
    return tio__fail(err, errlen,
                     "%s: cannot decode the image: truncated BMP (%lldx%lld at %d bits per "
                     "pixel ends at byte %llu, the file holds %zu bytes)",
                     name, p.w, p.h < 0 ? -p.h : p.h, p.bpp, (unsigned long long)p.need, n);
}

/* stb_image (2.27) keeps a BMP's palette in an uninitialised stack array
 * and reads an index beyond the colours the file holds from it: garbage,
 * different from run to run (found by fuzz_image, comparing two reads of one
 * file). Every index of an uncompressed 1-, 4- or 8-bit BMP is checked
 * against the palette stb_image reads (its size taken from the pixel
 * offset, as stb_image does). Call after bmp_check_size. */
static int bmp_check_palette(const char *name, const unsigned char *b, size_t n, char *err,
                             size_t errlen)
{
    bmp_header p;
    if (!parse_bmp_header(b, n, &p) || !p.need || p.bpp > 8 || n < p.need)
        return 0;
    uint32_t off = le32(b + 10), hsz = le32(b + 14);
    long long colours = hsz == 12 ? ((long long)off - 38) / 3 : ((long long)off - 14 - hsz) / 4;
    if (colours > 256)
        return 0; /* stb_image refuses it ("invalid") */
    if (colours < 1) /* stb_image decoded it from its uninitialised palette */
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: a %d-bit BMP without a palette (pixel "
                         "data at byte %u)",
                         name, p.bpp, (unsigned)off);
    size_t stride = ((size_t)p.w * (size_t)p.bpp + 31) / 32 * 4;
    long long rows = p.h < 0 ? -p.h : p.h;
    for (long long y = 0; y < rows; y++) {
        const unsigned char *row = b + off + (size_t)y * stride;
        for (long long x = 0; x < p.w; x++) {
            int bit = (int)(x * p.bpp % 8), index = row[x * p.bpp / 8];
            index = p.bpp == 8 ? index : index >> (8 - p.bpp - bit) & ((1 << p.bpp) - 1);
            if (index >= colours)
                return tio__fail(err, errlen,
                                 "%s: cannot decode the image: pixel %lld of stored row %lld "
                                 "has palette index %d, beyond the BMP's %lld colours",
                                 name, x, y, index, colours);
        }
    }
    return 0;
}

/* A PNG's IHDR: the first chunk, 13 bytes. Checked here, so that an image
 * stb_image cannot take is named for what is wrong with it (stb_image says
 * "unknown image type" when its PNG reader gives up). */
typedef struct png_header {
    uint32_t w, h;
    int depth, colour, channels; /* channels stored in the file */
} png_header;

static int parse_png_header(const char *name, const unsigned char *b, size_t n, png_header *p,
                            char *err, size_t errlen)
{
    if (n < 33 || be32(b + 8) != 13 || memcmp(b + 12, "IHDR", 4) != 0)
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: a PNG must begin with a 13-byte IHDR "
                         "chunk%s",
                         name, n < 33 ? " (the file ends before it)" : "");
    p->w = be32(b + 16);
    p->h = be32(b + 20);
    p->depth = b[24];
    p->colour = b[25];
    const uint32_t png_max = 0x7fffffffu; /* the PNG standard's limit on both sizes */
    if (p->w == 0 || p->h == 0 || p->w > png_max || p->h > png_max)
        return tio__fail(err, errlen,
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
            return tio__fail(err, errlen,
                             "%s: cannot decode the image: PNG bit depth %d is not valid for "
                             "colour type %d",
                             name, d, p->colour);
        p->channels = types[k].channels;
        return 0;
    }
    return tio__fail(err, errlen, "%s: cannot decode the image: PNG colour type %d is not valid",
                     name, p->colour);
}

/* A JPEG's frame header (SOFn): its size and components, found by walking
 * the marker segments before it. False when it is not there (libjpeg then
 * says what is wrong). */
static bool find_jpeg_frame(tio__buf *b, tio__reader *r, long long *w, long long *h, int *comps,
                            char *err, size_t errlen, bool *failed)
{
    size_t i = 2;
    *failed = false;
    while (i < TIO__IMAGE_SLACK) {
        if (tio__buf_fill(b, r, i + 10, err, errlen)) {
            *failed = true;
            return false;
        }
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

/* stb_image (2.27) keeps a palette PNG's palette in an uninitialised stack
 * array and reads an index beyond the PLTE chunk's entries from it: the
 * pixel is garbage, different from run to run (found by fuzz_image, comparing
 * two reads of one file). This copy of the file has every PLTE chunk filled
 * up to 256 entries with `fill`: decoded with fill 0x00 and 0xff, the two
 * images differ exactly when an index is out of range. A tRNS chunk longer
 * than the palette before it, which stb_image refuses, is refused here (the
 * filled palette would hide it). 0, or 1 with err set. */
static int png_fill_palettes(const char *name, const unsigned char *b, size_t n,
                             unsigned char fill, unsigned char **out, size_t *outlen, char *err,
                             size_t errlen)
{
    *out = NULL;
    size_t cap = n + 4 * 768, len = 8, entries = 0;
    unsigned char *o = malloc(cap);
    if (!o)
        return tio__fail(err, errlen, "%s: out of memory", name);
    memcpy(o, b, 8);
    for (size_t i = 8; n >= 12 && i <= n - 12;) {
        uint32_t clen = be32(b + i);
        if (clen > n - i - 12)
            break;
        const unsigned char *type = b + i + 4;
        size_t grow = !memcmp(type, "PLTE", 4) && clen % 3 == 0 && clen <= 768 ? 768 - clen : 0;
        if (!memcmp(type, "tRNS", 4) && entries && clen > entries) {
            free(o);
            return tio__fail(err, errlen,
                             "%s: cannot decode the image: bad tRNS len (%u alpha values for a "
                             "palette of %zu)",
                             name, (unsigned)clen, entries);
        }
        if (!memcmp(type, "PLTE", 4))
            entries = clen / 3;
        if (len + 12 + clen + grow > cap) {
            cap = 2 * (len + 12 + clen + grow);
            unsigned char *no = realloc(o, cap);
            if (!no) {
                free(o);
                return tio__fail(err, errlen, "%s: out of memory", name);
            }
            o = no;
        }
        uint32_t nlen = clen + (uint32_t)grow;
        unsigned char be[4] = {(unsigned char)(nlen >> 24), (unsigned char)(nlen >> 16),
                               (unsigned char)(nlen >> 8), (unsigned char)nlen};
        memcpy(o + len, be, 4);
        memcpy(o + len + 4, b + i + 4, 4 + (size_t)clen);
        memset(o + len + 8 + clen, fill, grow);
        memcpy(o + len + 8 + clen + grow, b + i + 8 + clen, 4); /* the CRC (stb_image skips it) */
        len += 12 + clen + grow;
        i += 12 + (size_t)clen;
        if (!memcmp(type, "IEND", 4))
            break;
    }
    *out = o;
    *outlen = len;
    return 0;
}

/* stb_image's decoder on a palette PNG, with its indices checked (see
 * png_fill_palettes): the image, or NULL with err set. */
static unsigned char *decode_palette_png(const char *name, const unsigned char *b, size_t n,
                                         int c, size_t bytes, char *err, size_t errlen)
{
    unsigned char *img[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        unsigned char *copy;
        size_t len = 0;
        if (png_fill_palettes(name, b, n, k ? 0xff : 0x00, &copy, &len, err, errlen))
            break;
        int w = 0, h = 0, fc = 0;
        img[k] = len <= INT_MAX ? stbi_load_from_memory(copy, (int)len, &w, &h, &fc, c) : NULL;
        free(copy);
        if (!img[k]) {
            const char *reason = stbi_failure_reason();
            tio__fail(err, errlen, "%s: cannot decode the image: %s", name,
                      reason ? reason : "unknown error");
            break;
        }
    }
    unsigned char *px = NULL;
    if (img[0] && img[1]) {
        if (memcmp(img[0], img[1], bytes))
            tio__fail(err, errlen,
                      "%s: cannot decode the image: a pixel's palette index is beyond the PLTE "
                      "chunk's entries",
                      name);
        else if (!(px = malloc(bytes)))
            tio__fail(err, errlen, "%s: out of memory (%zu bytes)", name, bytes);
        else
            memcpy(px, img[0], bytes);
    }
    stbi_image_free(img[0]);
    stbi_image_free(img[1]);
    return px;
}

/* Decode an image held in memory into t (zeroed by the caller). */
static int decode_image(const char *name, const unsigned char *b, size_t n, size_t max_bytes,
                        tio_tensor *t, char *err, size_t errlen)
{
    const char *why;
    enum image_kind kind = image_kind_of(b, n, &why);
    if (kind == IMG_NONE)
        return tio__fail(err, errlen, "%s: cannot decode the image: %s", name, why);
    if (kind == IMG_PNM)
        return decode_pnm(name, b, n, max_bytes, t, err, errlen);
    if (kind == IMG_JPEG)
        return decode_jpeg(name, b, n, max_bytes, t, err, errlen);
    if (kind == IMG_PNG && png_check_chunks(name, b, n, err, errlen))
        return 1;
    /* stb_image decodes a file as a BMP only when its info header has one
     * of these sizes; otherwise it tries its other decoders, down to TGA,
     * which has no signature (found by fuzz_image). */
    uint32_t hsz = kind == IMG_BMP && n >= 18 ? le32(b + 14) : 0;
    if (kind == IMG_BMP && hsz != 12 && hsz != 40 && hsz != 56 && hsz != 108 && hsz != 124)
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: %s (a BMP info header of %u bytes; "
                         "known: 12, 40, 56, 108, 124)",
                         name, n < 18 ? "truncated BMP" : "unknown BMP version", (unsigned)hsz);
    if (kind == IMG_BMP && n < 14 + hsz)
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: truncated BMP (its headers need %u bytes, "
                         "the file holds %zu)",
                         name, (unsigned)(14 + hsz), n);
    /* A pixel offset inside the headers made stb_image skip backwards, to the
     * end of the file, and read the pixels as zeros (found by fuzz_image). */
    if (kind == IMG_BMP && le32(b + 10) < 14 + hsz)
        return tio__fail(err, errlen,
                         "%s: cannot decode the image: the BMP's pixel data offset %u lies inside "
                         "its %u bytes of headers",
                         name, (unsigned)le32(b + 10), (unsigned)(14 + hsz));
    if (n > INT_MAX) /* stb_image takes an int length */
        return tio__fail(err, errlen, "%s: cannot decode the image: the file is larger than %d bytes",
                    name, INT_MAX);
    /* The geometry first, so that a small file declaring a huge image is
     * refused before anything is allocated. */
    int w = 0, h = 0, c = 0;
    if (!stbi_info_from_memory(b, (int)n, &w, &h, &c)) {
        const char *reason = stbi_failure_reason();
        return tio__fail(err, errlen, "%s: cannot decode the image: %s", name,
                    reason ? reason : "unknown error");
    }
    if (c < 1 || c > 4)
        return tio__fail(err, errlen, "%s: cannot decode the image: %d channels", name, c);
    /* stb_image's header reader gives a top-down BMP (rows stored first to
     * last) its negative height; its decoder, the height. */
    if (kind == IMG_BMP && h < 0 && h != INT_MIN)
        h = -h;
    if (kind == IMG_PNG && (c == 1 || c == 3) && png_has_transparency_key(b, n))
        c++; /* grey or RGB with a tRNS colour key: decoded with alpha */
    int sample = kind == IMG_PNG && stbi_is_16_bit_from_memory(b, (int)n) ? 2 : 1;
    if (kind == IMG_BMP && (bmp_check_size(name, b, n, err, errlen) ||
                            bmp_check_palette(name, b, n, err, errlen)))
        return 1;
    size_t bytes;
    if (image_size(name, w, h, c, sample, max_bytes, &bytes, err, errlen))
        return 1;
    if (kind == IMG_PNG && n > 25 && b[25] == 3) { /* palette */
        t->data = decode_palette_png(name, b, n, c, bytes, err, errlen);
        if (!t->data)
            return 1;
        goto done;
    }
    int w2 = 0, h2 = 0, file_c = 0;
    void *px = sample == 2 ? (void *)stbi_load_16_from_memory(b, (int)n, &w2, &h2, &file_c, c)
                           : (void *)stbi_load_from_memory(b, (int)n, &w2, &h2, &file_c, c);
    if (!px) {
        const char *reason = stbi_failure_reason();
        return tio__fail(err, errlen, "%s: cannot decode the image: %s", name,
                    reason ? reason : "unknown error");
    }
    if (w2 != w || h2 != h) {
        stbi_image_free(px);
        return tio__fail(err, errlen,
                    "%s: cannot decode the image: its header says %dx%d, the decoder %dx%d",
                    name, w, h, w2, h2);
    }
    /* Copy into our own malloc'd block so that tio_free's free() is always right. */
    t->data = malloc(bytes);
    if (!t->data) {
        stbi_image_free(px);
        return tio__fail(err, errlen, "%s: out of memory (%zu bytes)", name, bytes);
    }
    memcpy(t->data, px, bytes);
    stbi_image_free(px);
done:
    t->dtype = sample == 2 ? CLPAD_U16 : CLPAD_U8;
    t->rank = 3;
    t->shape[0] = h;
    t->shape[1] = w;
    t->shape[2] = c;
    t->is_image = true;
    t->nbytes = bytes;
    return 0;
}

/* The most a PNG or JPEG of `decoded` pixel bytes can hold: twice that,
 * plus room for metadata. */
static uint64_t image_bound(uint64_t decoded) { return 2 * decoded + TIO__IMAGE_SLACK; }

static int too_long(const char *name, const char *format, uint64_t bound, long long w,
                    long long h, char *err, size_t errlen)
{
    return tio__fail(err, errlen,
                     "%s: cannot decode the image: the %s goes on beyond %llu bytes, more than "
                     "a %lldx%lld image can need (twice its pixels plus %zu MiB of metadata)",
                     name, format, (unsigned long long)bound, w, h, TIO__IMAGE_SLACK >> 20);
}

/* Read the image's bytes into b, no further than its header says it goes. */
static int read_image(tio__reader *r, size_t max_bytes, tio__buf *b, char *err, size_t errlen)
{
    const char *name = r->name, *why;
    /* The signature first: /dev/urandom named .png fails after 12 bytes. */
    if (tio__buf_fill(b, r, 12, err, errlen))
        return 1;
    enum image_kind kind = image_kind_of(b->data, b->len, &why);
    if (kind == IMG_NONE)
        return tio__fail(err, errlen, "%s: cannot decode the image: %s", name, why);
    size_t bytes;
    if (kind == IMG_PNG) {
        png_header p = {0};
        if (tio__buf_fill(b, r, 33, err, errlen) ||
            parse_png_header(name, b->data, b->len, &p, err, errlen) ||
            image_size(name, p.w, p.h, p.colour == 3 ? 3 : p.channels, p.depth == 16 ? 2 : 1,
                       max_bytes, &bytes, err, errlen))
            return 1;
        /* Chunk by chunk up to IEND (what follows it is not read). */
        uint64_t row = ((uint64_t)p.w * (uint64_t)(p.channels * p.depth) + 7) / 8 + 1;
        uint64_t bound = image_bound(row * p.h);
        size_t i = 8;
        for (;;) {
            if (tio__buf_fill(b, r, i + 8, err, errlen))
                return 1;
            if (b->len < i + 8)
                return 0; /* decode_image says the PNG is truncated */
            uint64_t end = (uint64_t)i + 12 + be32(b->data + i);
            if (end > bound) {
                if (r->sized && end > r->size)
                    return 0; /* truncated, as decode_image says */
                return too_long(name, "PNG", bound, p.w, p.h, err, errlen);
            }
            if (tio__buf_fill(b, r, (size_t)end, err, errlen))
                return 1;
            if (b->len < end || !memcmp(b->data + i + 4, "IEND", 4))
                return 0;
            i = (size_t)end;
        }
    }
    if (kind == IMG_JPEG) {
        long long w = 0, h = 0;
        int comps = 0;
        bool failed;
        if (find_jpeg_frame(b, r, &w, &h, &comps, err, errlen, &failed)) {
            if (image_size(name, w, h, comps == 1 ? 1 : 3, 1, max_bytes, &bytes, err, errlen))
                return 1;
            uint64_t bound = image_bound((uint64_t)w * h * (comps > 4 ? 4 : comps < 3 ? 3 : comps));
            if (r->sized && r->size > bound)
                return too_long(name, "JPEG", bound, w, h, err, errlen);
            if (tio__buf_fill(b, r, bound + 1, err, errlen))
                return 1;
            return b->len > bound ? too_long(name, "JPEG", bound, w, h, err, errlen) : 0;
        }
        /* No frame header where one belongs: libjpeg says what is wrong with
         * the first bytes. */
        return failed ? 1 : tio__buf_fill(b, r, TIO__IMAGE_SLACK, err, errlen);
    }
    if (kind == IMG_BMP) {
        bmp_header p;
        if (tio__buf_fill(b, r, 18, err, errlen))
            return 1;
        uint32_t hsz = b->len >= 18 ? le32(b->data + 14) : 0;
        if (tio__buf_fill(b, r, 14 + (hsz <= 124 ? hsz : 0), err, errlen))
            return 1;
        if (!parse_bmp_header(b->data, b->len, &p) || !p.need)
            return 0; /* stb_image says what is wrong */
        long long h = p.h < 0 ? -p.h : p.h;
        if (image_size(name, p.w, h, 3, 1, max_bytes, &bytes, err, errlen))
            return 1;
        uint64_t bound = image_bound((uint64_t)p.w * h * 4);
        if (p.need > bound)
            return tio__fail(err, errlen,
                             "%s: cannot decode the image: the BMP's pixels end at byte %llu, "
                             "beyond what a %lldx%lld image can need",
                             name, (unsigned long long)p.need, p.w, h);
        return tio__buf_fill(b, r, (size_t)p.need, err, errlen); /* what follows is not read */
    }
    /* PNM: the header byte by byte up to the whitespace after maxval (a
     * stream need not say more), then the pixels right after it. */
    size_t i = 2;
    for (int fields = 0, digits = 0, comment = 0; fields < 3 && i < 65536; i++) {
        if (tio__buf_fill(b, r, i + 1, err, errlen))
            return 1;
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
    pnm_header p;
    if (parse_pnm_header(name, b->data, b->len, &p, err, errlen))
        return 1;
    if (image_size(name, p.w, p.h, p.c, p.maxval > 255 ? 2 : 1, max_bytes, &bytes, err, errlen))
        return 1;
    return tio__buf_fill(b, r, p.data_off + bytes, err, errlen);
}

int tio__load_image(tio__reader *r, size_t max_bytes, tio_tensor *t, char *err, size_t errlen)
{
    tio__buf b = {0};
    int rc = read_image(r, max_bytes, &b, err, errlen);
    if (!rc)
        rc = decode_image(r->name, b.data ? b.data : tio__empty_buffer, b.len, max_bytes, t, err,
                          errlen);
    tio__buf_free(&b);
    return rc;
}

int tio_load_image_mem(const void *data, size_t len, const char *name, size_t max_bytes,
                       tio_tensor *t, char *err, size_t errlen)
{
    if (t)
        memset(t, 0, sizeof *t);
    if (!name || !*name)
        name = "<memory>";
    if (!t)
        return tio__fail(err, errlen, "%s: no tensor given", name);
    if (!data && len)
        return tio__fail(err, errlen, "%s: no data given (NULL with %zu bytes)", name, len);
    tio__reader r;
    tio__reader_mem(&r, name, data, len, true);
    int rc = tio__load_image(&r, max_bytes, t, err, errlen);
    if (rc) {
        free(t->data);
        memset(t, 0, sizeof *t);
    }
    return rc;
}
