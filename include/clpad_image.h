/*
 * clpad — reading images (PNG, JPEG, BMP, binary PNM) into HWC arrays.
 *
 *   #include <clpad_image.h>   (includes clpad.h)
 *
 * The reading rules are those of OpenCV's cv2.imread(path, IMREAD_COLOR) by
 * default: every image becomes 3 channels of 8-bit samples (grey replicated,
 * alpha dropped, palette expanded, 16-bit samples reduced to their high byte,
 * CMYK and YCCK JPEG converted as OpenCV converts them) with its EXIF
 * orientation applied, except that the channel order is RGB (clpad's
 * convention), not OpenCV's BGR. Other channel counts and 16-bit samples are
 * options. docs/letterbox.md of the repository ("Reading images") states
 * every rule with the OpenCV source file it comes from, and what differs.
 *
 * Decoders: PNG through libpng with every chunk's CRC and the image data's
 * Adler-32 checked (a corrupt file is refused, as Pillow refuses it); JPEG
 * through libjpeg-turbo (its warnings about corrupt data are errors); BMP
 * through stb_image; binary PNM (P5, P6) by clpad itself. Formats are
 * recognised by their signature, never by the file name.
 *
 * Limits, checked from the header before any pixel is decoded: at most
 * max_pixels pixels (default CLPAD_IMAGE_DEFAULT_MAX_PIXELS, Pillow's
 * decompression-bomb limit), at most CLPAD_IMAGE_MAX_SIDE pixels on a side.
 * Peak memory of a decode is the file's bytes plus twice the decoded image
 * (the second copy only while an EXIF rotation is applied).
 *
 * Errors: a clpad_status and a one-line clpad_last_error() that names the
 * file ("photos/a.png: cannot decode the image: IDAT: CRC error"):
 *  - CLPAD_ERR_INVALID_ARGUMENT: NULL pointers, options out of range;
 *  - CLPAD_ERR_IO: the file cannot be opened or read, or is a directory;
 *  - CLPAD_ERR_BAD_INPUT: not an image of a known format, truncated, corrupt,
 *    or a variant the decoder does not take;
 *  - CLPAD_ERR_TOO_LARGE: above max_pixels or CLPAD_IMAGE_MAX_SIDE, or a
 *    file longer than its header allows (see clpad_image_read_fd);
 *  - CLPAD_ERR_OUT_OF_MEMORY.
 * Outputs are written only on success.
 *
 * Thread safety: every function is thread-safe; any number of threads may
 * decode at once (no global state: libjpeg and libpng errors are caught per
 * decode, stb_image's failure reason is per thread).
 */
#ifndef CLPAD_IMAGE_H
#define CLPAD_IMAGE_H

#include "clpad.h"

#ifdef __cplusplus
extern "C" {
#endif

/** clpad_read_options.channels: IMREAD_COLOR's rules, 3 channels (RGB). */
#define CLPAD_CHANNELS_COLOR 3
/** IMREAD_GRAYSCALE's rules: 1 channel (colour converted as OpenCV does). */
#define CLPAD_CHANNELS_GRAY 1
/** 4 channels, RGBA: the image's alpha (or tRNS transparency) kept, or an
 *  opaque alpha (255, or 65535 with keep_depth) added. */
#define CLPAD_CHANNELS_COLOR_ALPHA 4
/** The channels as the file stores them: grey 1, grey + alpha 2, colour 3,
 *  colour + alpha 4 (a PNG palette gives 3, or 4 with a tRNS chunk; a grey or
 *  RGB PNG with a tRNS colour key gains an alpha channel; a CMYK JPEG gives 3). */
#define CLPAD_CHANNELS_KEEP (-1)

/** Pillow's decompression-bomb limit (2 * Image.MAX_IMAGE_PIXELS): the default
 *  of clpad_read_options.max_pixels. */
#define CLPAD_IMAGE_DEFAULT_MAX_PIXELS UINT64_C(178956970)
/** The largest width or height read, whatever max_pixels says. */
#define CLPAD_IMAGE_MAX_SIDE 16777216

/** How to read an image. Initialise with clpad_read_options_init, then set
 *  fields; a NULL options pointer means the defaults. */
typedef struct clpad_read_options {
    size_t size;            /* sizeof(clpad_read_options), set by clpad_read_options_init */
    int channels;           /* CLPAD_CHANNELS_COLOR (default), _GRAY, _COLOR_ALPHA or _KEEP */
    int keep_depth;         /* 0 (default): 8-bit samples, 16-bit ones reduced to their
                               high byte (v >> 8, as OpenCV does); 1: a 16-bit PNG or PNM
                               gives u16 samples (host byte order) */
    int ignore_orientation; /* 0 (default): the EXIF orientation (JPEG APP1, PNG eXIf) is
                               applied, as cv2.imread does; 1: pixels as stored */
    uint64_t max_pixels;    /* refuse an image of more pixels (width * height as stored);
                               0: CLPAD_IMAGE_DEFAULT_MAX_PIXELS */
    int64_t min_height, min_width; /* > 0: a JPEG is decoded scaled by M/8 in the DCT
                               domain (libjpeg-turbo; M = 1, 2, 4 or 8, the scales it runs
                               with SIMD, as OpenCV's IMREAD_REDUCED_* and Pillow's draft
                               use them), the smallest M whose decoded size, after
                               orientation, is still at least min_height x min_width;
                               other formats are not scaled. 0 (default): full size,
                               exact */
} clpad_read_options;

/** The defaults: channels CLPAD_CHANNELS_COLOR, keep_depth 0,
 *  ignore_orientation 0, max_pixels 0 (the default limit), no scaling. */
CLPAD_API void clpad_read_options_init(clpad_read_options *options);

/** What an image's header says, without decoding its pixels. */
typedef struct clpad_image_info {
    size_t size;           /* sizeof(clpad_image_info): set by the caller */
    char format[8];        /* "png", "jpeg", "bmp" or "pnm" */
    int64_t height, width; /* as displayed: after the EXIF orientation (swapped for 5..8) */
    int channels;          /* as stored: what CLPAD_CHANNELS_KEEP decodes to (1..4) */
    int bit_depth;         /* bits per stored sample: 1, 2, 4, 8 or 16 (a palette PNG:
                              its index depth; PNM: 8, or 16 when maxval > 255) */
    int orientation;       /* EXIF orientation 1..8 (1 when there is none, or its value
                              is out of range); a PNG's eXIf chunk after the image data
                              counts only if those bytes are given */
} clpad_image_info;

/**
 * Read the header of the image held in data[0..len) (the whole file, or at
 * least its header and, for a JPEG, its EXIF segment) and fill *info.
 * `name` names the image in messages (NULL: "<memory>"). The limits are not
 * applied. Errors: CLPAD_ERR_INVALID_ARGUMENT, CLPAD_ERR_BAD_INPUT (not an
 * image, or its header is malformed or cut short).
 */
CLPAD_API clpad_status clpad_image_probe(const void *data, size_t len, const char *name,
                                         clpad_image_info *info);

/** A decoded image: HWC, dense (rows of width * channels samples). */
typedef struct clpad_decoded_image {
    size_t size;            /* sizeof(clpad_decoded_image): set by the caller */
    void *data;             /* height * width * channels samples; free with
                               clpad_decoded_image_free */
    clpad_dtype dtype;      /* CLPAD_U8, or CLPAD_U16 (keep_depth and a 16-bit file) */
    int64_t height, width, channels;
    int64_t source_height, source_width; /* full size after orientation: differs from
                               height, width only when a JPEG was scaled */
    int scale_num;          /* the JPEG's DCT scaling, scale_num / 8 (8: none) */
    int orientation;        /* the EXIF orientation applied (1: none) */
    char format[8];         /* "png", "jpeg", "bmp" or "pnm" */
} clpad_decoded_image;

/**
 * Decode the image held in data[0..len) by the options (NULL: the defaults)
 * into *out (its `size` set by the caller; overwritten on success, untouched
 * on error). The bytes are used as a file of that length would be (a PNG up
 * to its IEND chunk, a JPEG to its end, at most twice the decoded size plus
 * 16 MiB of metadata). `name` names the image in messages (NULL:
 * "<memory>"). Errors: see the top of this header.
 */
CLPAD_API clpad_status clpad_image_decode(const void *data, size_t len, const char *name,
                                          const clpad_read_options *options,
                                          clpad_decoded_image *out);

/**
 * Read the image file at `path` and decode it as clpad_image_decode does.
 * The read is bounded: see clpad_image_read_fd (a FIFO or character device
 * at `path` is read as a stream). Errors: see the top of this header.
 */
CLPAD_API clpad_status clpad_image_read(const char *path, const clpad_read_options *options,
                                        clpad_decoded_image *out);

/**
 * clpad_image_read from an open file descriptor, from where it stands (not
 * closed); `name` names it in messages. The signature is read first, then
 * the header, then no more than the header says the file can need: a
 * regular file's size is checked against that before its data is read; a
 * pipe or character device is read as a stream and left where the image
 * ends (a PNG after its IEND chunk, a BMP or PNM after its last pixel row; a
 * JPEG is read to the end of the stream). A PNG or JPEG that goes on beyond
 * twice its decoded size plus 16 MiB is refused (CLPAD_ERR_TOO_LARGE), as is
 * an image over the limits, before its pixels are read.
 */
CLPAD_API clpad_status clpad_image_read_fd(int fd, const char *name,
                                           const clpad_read_options *options,
                                           clpad_decoded_image *out);

/** Free the pixels of a decoded image and zero it (keeping its size field).
 *  NULL and zeroed images are fine. */
CLPAD_API void clpad_decoded_image_free(clpad_decoded_image *image);

#ifdef __cplusplus
}
#endif

#endif /* CLPAD_IMAGE_H */
