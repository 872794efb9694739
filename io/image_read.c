/* Images in: PNG and BMP through stb_image, JPEG through libjpeg-turbo,
 * binary PNM decoded here; every format recognized by its signature. */
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

/* The decoded size of a w x h x c u8 image, checked against max_bytes. */
static int image_size(const char *name, long long w, long long h, long long c, size_t max_bytes,
                      size_t *bytes, char *err, size_t errlen)
{
    if (w < 1 || h < 1)
        return tio__fail(err, errlen, "%s: cannot decode the image: it is empty (%lldx%lld)", name, w,
                    h);
    if (w > IMAGE_MAX_DIM || h > IMAGE_MAX_DIM)
        return tio__fail(err, errlen,
                    "%s: cannot decode the image: %lldx%lld is larger than %d pixels on a side",
                    name, w, h, IMAGE_MAX_DIM);
    /* w, h <= 2^24 and c <= 4: the product fits in 64 bits. */
    unsigned long long n = (unsigned long long)w * (unsigned long long)h * (unsigned long long)c;
    if (n > max_bytes || n > SIZE_MAX)
        return tio__fail(err, errlen,
                    "%s: the image is %lldx%lld with %lld channel%s (%llu bytes decoded), more "
                    "than the limit of %zu bytes",
                    name, w, h, c, c == 1 ? "" : "s", n, max_bytes);
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

/* Binary PNM (P5, P6), decoded here: stb_image 2.27 accepts a width or height
 * that wraps around int ("4294967297" reads as 1), a maxval of 0, reads
 * 16-bit samples in the wrong byte order and leaves a short file's missing
 * pixels uninitialized. Samples are kept as stored (no scaling by maxval,
 * as stb_image does); 16-bit samples keep their high byte. */
static int decode_pnm(const char *name, const unsigned char *b, size_t n, size_t max_bytes,
                      tio_tensor *t, char *err, size_t errlen)
{
    long long c = b[1] == '6' ? 3 : 1;
    size_t i = 2;
    long long w = pnm_field(b, n, &i, IMAGE_MAX_DIM);
    long long h = w >= 0 ? pnm_field(b, n, &i, IMAGE_MAX_DIM) : -1;
    long long maxval = h >= 0 ? pnm_field(b, n, &i, 65535) : -1;
    if (w == -2 || h == -2)
        return tio__fail(err, errlen,
                    "%s: cannot decode the image: PNM width or height larger than %d", name,
                    IMAGE_MAX_DIM);
    if (maxval == -2)
        return tio__fail(err, errlen, "%s: cannot decode the image: PNM maxval larger than 65535",
                    name);
    if (w < 0 || h < 0 || maxval < 0)
        return tio__fail(err, errlen,
                    "%s: cannot decode the image: malformed PNM header (expected width, height "
                    "and maxval)",
                    name);
    if (maxval == 0)
        return tio__fail(err, errlen, "%s: cannot decode the image: PNM maxval is 0", name);
    if (i >= n || !strchr(" \t\r\n\v\f", b[i]) || !b[i])
        return tio__fail(err, errlen,
                    "%s: cannot decode the image: PNM maxval must be followed by one "
                    "whitespace byte and the pixel data",
                    name);
    size_t header = i + 1, bytes;
    if (image_size(name, w, h, c, max_bytes, &bytes, err, errlen))
        return 1;
    size_t sample = maxval > 255 ? 2 : 1, need = bytes * sample, have = n - header;
    if (have < need)
        return tio__fail(err, errlen,
                    "%s: PNM data is truncated: a %lldx%lld image needs %zu bytes, the file "
                    "holds %zu",
                    name, w, h, need, have);
    unsigned char *px = malloc(bytes);
    if (!px)
        return tio__fail(err, errlen, "%s: out of memory (%zu bytes)", name, bytes);
    if (sample == 1)
        memcpy(px, b + header, bytes);
    else
        for (size_t k = 0; k < bytes; k++)
            px[k] = b[header + 2 * k]; /* big-endian: the high byte */
    t->dtype = CLPAD_U8;
    t->rank = 3;
    t->shape[0] = h;
    t->shape[1] = w;
    t->shape[2] = c;
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
    if (image_size(name, (int)cinfo.output_width, (int)cinfo.output_height, c, max_bytes, &bytes,
                   err, errlen)) {
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

/* Decode an image held in memory into t (zeroed by the caller). */
int tio__decode_image(const char *name, const unsigned char *b, size_t n, size_t max_bytes,
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
    if (kind == IMG_PNG && (c == 1 || c == 3) && png_has_transparency_key(b, n))
        c++; /* grey or RGB with a tRNS colour key: decoded with alpha */
    size_t bytes;
    if (image_size(name, w, h, c, max_bytes, &bytes, err, errlen))
        return 1;
    int w2 = 0, h2 = 0, file_c = 0;
    unsigned char *px = stbi_load_from_memory(b, (int)n, &w2, &h2, &file_c, c);
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
    t->dtype = CLPAD_U8;
    t->rank = 3;
    t->shape[0] = h;
    t->shape[1] = w;
    t->shape[2] = c;
    t->is_image = true;
    t->nbytes = bytes;
    return 0;
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
    int rc = tio__decode_image(name, data ? data : tio__empty_buffer, len, max_bytes, t, err, errlen);
    if (rc) {
        free(t->data);
        memset(t, 0, sizeof *t);
    }
    return rc;
}
