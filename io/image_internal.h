/*
 * Internals of the library's image reading (include/clpad_image.h): the
 * decoders (image_png.c, image_jpeg.c, image_bmp.c, image_pnm.c), EXIF
 * orientation (image_exif.c) and what they share (image.c). Compiled into
 * libclpad; nothing here is exported.
 */
#ifndef CLPAD_IMAGE_INTERNAL_H
#define CLPAD_IMAGE_INTERNAL_H

#include "clpad_image.h"
#include "core/core.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a decode puts the image's final pixels, when not in memory of its
 * own (the letterbox stream's batch arenas): get returns `bytes` for them
 * (NULL: out of memory); put takes back what get returned when the decode
 * fails after it, or when the pixels are replaced.
 * scratch (optional; NULL: malloc and free) gives memory for pixels that
 * are not final (a decode that an orientation replaces): at least `bytes`
 * (NULL: out of memory), the allocator's, kept from image to image, valid
 * until the next call; is_scratch tells it, and put ignores it. A rotated
 * 12 MP photo's decode would otherwise map 36 MB afresh for each image. */
typedef struct clpad__img_alloc {
    void *(*get)(void *user, size_t bytes);
    void (*put)(void *user, void *p);
    void *user;
    void *(*scratch)(void *user, size_t bytes);
    bool (*is_scratch)(void *user, const void *p);
} clpad__img_alloc;

/* What a decode is asked for, checked and with the defaults filled in. */
typedef struct clpad__img_req {
    const char *name;       /* the image in messages */
    int channels;           /* 1, 3, 4 or CLPAD_CHANNELS_KEEP */
    bool keep_depth;        /* 16-bit samples stay 16-bit */
    bool orient;            /* apply the EXIF orientation */
    uint64_t max_pixels;    /* > 0 */
    int64_t min_h, min_w;   /* >= 0; JPEG DCT scaling (after orientation) */
    const clpad__img_alloc *alloc; /* NULL: malloc */
} clpad__img_req;

/* A decoder's result, before the orientation is applied. */
typedef struct clpad__img {
    unsigned char *px;      /* h * w * c samples of `sample` bytes: malloc'd, or from
                               the request's alloc when `given` */
    bool given;
    int64_t h, w, c;        /* as decoded (scaled, not oriented) */
    int sample;             /* 1 or 2 bytes */
    int64_t full_h, full_w; /* the stored size (before scaling and orientation) */
    int scale_num;          /* JPEG DCT scaling: scale_num / 8 */
    int orientation;        /* the file's EXIF orientation, 1..8 (1: none) */
} clpad__img;

/* Bytes of metadata an image file may hold beyond what its pixels can need
 * (ICC profiles, EXIF, text chunks): a PNG or JPEG is read no further than
 * twice its decoded size plus this. */
#define CLPAD__IMAGE_SLACK ((uint64_t)16 << 20)

/* image.c ----------------------------------------------------------------- */

/* An image's stored size against the limits: at least 1 x 1, at most
 * CLPAD_IMAGE_MAX_SIDE on a side and r->max_pixels in all, and h * w * c
 * samples of `sample` bytes fit in memory. CLPAD_OK, or the error (named
 * after r->name). */
clpad_status clpad__img_check_size(const clpad__img_req *r, int64_t h, int64_t w, int64_t c,
                                   int sample);
/* Memory for an image's pixels: from r->alloc when there is one (*given
 * set): its get when `final` (nothing will replace them: no channel
 * conversion or orientation follows), its scratch (when it has one) when
 * not; else malloc'd. NULL when out of memory. */
unsigned char *clpad__img_px_new(const clpad__img_req *r, size_t bytes, bool final, bool *given);
/* Frees pixels clpad__img_px_new returned (`given`: its *given). */
void clpad__img_px_free(const clpad__img_req *r, unsigned char *px, bool given);
/* Message helpers: "<name>: cannot decode the image: <what>". */
clpad_status clpad__img_bad(const clpad__img_req *r, const char *fmt, ...) CLPAD_PRINTF(2, 3);
clpad_status clpad__img_nomem(const char *name, uint64_t bytes);
/* Convert in->px (c_in channels of in->sample bytes) to r->channels by the
 * rules of OpenCV's own decoders (BMP, PNM): grey replicated, alpha dropped or
 * an opaque one added, colour to grey by OpenCV's BGR2Gray integer formula;
 * CLPAD_CHANNELS_KEEP keeps them. Replaces in->px. */
clpad_status clpad__img_convert_channels(const clpad__img_req *r, clpad__img *in);
/* Big-endian 16- and 32-bit reads. */
static inline uint32_t clpad__be32(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}
static inline uint32_t clpad__le16(const unsigned char *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8; }
static inline uint32_t clpad__le32(const unsigned char *b)
{
    return clpad__le16(b) | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The PNG signature. */
extern const unsigned char clpad__png_signature[8];

/* image_png.c ------------------------------------------------------------- */

/* A PNG's IHDR, checked (sizes 1..2^31-1, a valid colour type and depth);
 * with `limits` (not NULL), the size too, against the request's limits
 * (clpad__img_check_size). */
typedef struct clpad__png_header {
    uint32_t w, h;
    int depth, colour, channels; /* channels stored in the file */
} clpad__png_header;
clpad_status clpad__png_parse_header(const char *name, const clpad__img_req *limits,
                                     const unsigned char *b, size_t n, clpad__png_header *p);
clpad_status clpad__png_decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                               clpad__img *out);
clpad_status clpad__png_probe(const char *name, const unsigned char *b, size_t n,
                              clpad_image_info *info);

/* image_jpeg.c ------------------------------------------------------------ */

clpad_status clpad__jpeg_decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                                clpad__img *out);
clpad_status clpad__jpeg_probe(const char *name, const unsigned char *b, size_t n,
                               clpad_image_info *info);

/* image_bmp.c ------------------------------------------------------------- */

/* A BMP's geometry from its file and info headers. `need` is where its pixel
 * array ends (0 when the header is too short to tell or the encoding is one
 * stb_image refuses anyway: RLE, JPEG or PNG inside). */
typedef struct clpad__bmp_header {
    long long w, h; /* h > 0: rows bottom-up; h < 0: top-down */
    int bpp;
    uint64_t need;
} clpad__bmp_header;
bool clpad__bmp_parse_header(const unsigned char *b, size_t n, clpad__bmp_header *p);
clpad_status clpad__bmp_decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                               clpad__img *out);
clpad_status clpad__bmp_probe(const char *name, const unsigned char *b, size_t n,
                              clpad_image_info *info);

/* image_pnm.c ------------------------------------------------------------- */

typedef struct clpad__pnm_header {
    long long w, h, c, maxval;
    size_t data_off;
} clpad__pnm_header;
/* A PNM header (P5, P6); `limits` as for clpad__png_parse_header. */
clpad_status clpad__pnm_parse_header(const char *name, const clpad__img_req *limits,
                                     const unsigned char *b, size_t n, clpad__pnm_header *p);
clpad_status clpad__pnm_decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                               clpad__img *out);

/* clpad_image_read with the final pixels from `alloc` (the letterbox
 * stream's batch arenas; io/image.c). The image's data then belongs to
 * alloc: give it back with alloc->put, not clpad_decoded_image_free. */
clpad_status clpad__image_read_alloc(const char *path, const clpad_read_options *options,
                                     const clpad__img_alloc *alloc, clpad_decoded_image *out);

/* image_exif.c ------------------------------------------------------------ */

/* The orientation (1..8) in IFD0 of the EXIF data `tiff` (a TIFF header and
 * its IFDs, as a JPEG's APP1 segment holds them after "Exif\0\0" and a PNG's
 * eXIf chunk holds them); 1 when there is none, it is malformed or its value
 * is out of range. */
int clpad__exif_orientation(const unsigned char *tiff, size_t len);

#endif
