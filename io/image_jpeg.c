/*
 * JPEG through libjpeg-turbo's libjpeg API, set up as OpenCV's JPEG decoder
 * sets it up (modules/imgcodecs/src/grfmt_jpeg.cpp, JpegDecoder::readData),
 * so that the same library gives the same bytes:
 *  - libjpeg's defaults otherwise (JDCT_ISLOW, fancy upsampling);
 *  - colour output: a 1- or 3-component image decoded straight to RGB
 *    (libjpeg-turbo's JCS_EXT_RGB; OpenCV asks for JCS_EXT_BGR, the same
 *    samples in the other order); grey output: JCS_GRAYSCALE (the Y
 *    component of a YCbCr image);
 *  - a 4-component image (CMYK, or YCCK that libjpeg turns into CMYK) decoded
 *    as CMYK and converted by OpenCV's formulas (modules/imgcodecs/src/utils.cpp,
 *    icvCvt_CMYK2BGR_8u_C4C3R and icvCvt_CMYK2Gray_8u_C4C1R): with the
 *    samples as stored (Adobe's inverted CMYK), R = K - ((255 - C) * K >> 8),
 *    G and B likewise from M and Y; grey from those by OpenCV's BGR2Gray;
 *  - the EXIF orientation from the first APP1 segment that begins with
 *    "Exif\0\0" (an XMP segment before it does not hide it, in OpenCV 4.14 as
 *    here).
 * DCT-domain scaling (options.min_height / min_width) sets scale_num / 8.
 *
 * libjpeg's errors longjmp back here; its warnings (corrupt data it would
 * paper over: a truncated file, a bad Huffman code) are errors too, where
 * OpenCV prints them and returns the damaged image.
 */
#include "image_internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#ifndef JCS_ALPHA_EXTENSIONS
#error "libjpeg-turbo's colour space extensions (JCS_EXT_RGB, JCS_EXT_RGBA) are needed"
#endif

#include "jpeg_error.h"

static void jpeg_fail_message(j_common_ptr c, int level)
{
    if (level < 0) /* a warning: the data is corrupt */
        jpeg_fail_exit(c);
}

/* Start decompressing the n bytes at b: the decoder, its source, the APP1
 * segments kept (EXIF), the header read. libjpeg's errors jump to the
 * caller's setjmp. */
static void jpeg_open(j_decompress_ptr cinfo, const unsigned char *b, size_t n)
{
    jpeg_create_decompress(cinfo);
    jpeg_mem_src(cinfo, b, (unsigned long)n);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xffff);
    jpeg_read_header(cinfo, TRUE);
}

/* The orientation of the first APP1 segment that holds EXIF data (after its
 * "Exif\0\0" header; an XMP segment before it is passed over). */
static int jpeg_orientation(j_decompress_ptr cinfo)
{
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next)
        if (m->marker == JPEG_APP0 + 1 && m->data_length > 6 && !memcmp(m->data, "Exif\0\0", 6))
            return clpad__exif_orientation(m->data + 6, m->data_length - 6);
    return 1;
}

/* OpenCV's CMYK to BGR on one pixel (the file comment above), as r, g, b. */
static void cmyk_to_rgb(const unsigned char *k4, unsigned char *rgb)
{
    int c = k4[0], m = k4[1], y = k4[2], k = k4[3];
    rgb[0] = (unsigned char)(k - ((255 - c) * k >> 8));
    rgb[1] = (unsigned char)(k - ((255 - m) * k >> 8));
    rgb[2] = (unsigned char)(k - ((255 - y) * k >> 8));
}

/* OpenCV's BGR2Gray for 8-bit samples (modules/imgcodecs/src/utils.cpp):
 * (B * 1868 + G * 9617 + R * 4899 + 8192) >> 14. */
static unsigned char rgb_to_gray(const unsigned char *rgb)
{
    return (unsigned char)((rgb[2] * 1868 + rgb[1] * 9617 + rgb[0] * 4899 + 8192) >> 14);
}

/* The smallest M of 1, 2, 4 and 8 whose scaled size M/8 (rounded up, as
 * libjpeg rounds it) is at least min_h x min_w. libjpeg-turbo has SIMD code
 * for these scales only: 3/8, 5/8, 6/8 and 7/8 decoded a 12 MP photo no
 * faster than 8/8 (6/8 and 7/8 slower), 4/8 2.1 times and 2/8 4 times
 * faster. */
static int jpeg_scale(int64_t h, int64_t w, int64_t min_h, int64_t min_w)
{
    for (int m = 1; m < 8; m *= 2)
        if ((h * m + 7) / 8 >= min_h && (w * m + 7) / 8 >= min_w)
            return m;
    return 8;
}

typedef struct jpeg_job {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_failure jerr;
    unsigned char *volatile px;
    unsigned char *volatile row; /* one CMYK row */
    volatile bool given;         /* px from the request's alloc */
} jpeg_job;

/* A zeroed job whose decoder reports errors and corrupt data through
 * jerr (a jump to the caller's setjmp); NULL when memory runs out.
 * libjpeg's structs are large: not on the stack. */
static jpeg_job *jpeg_job_new(void)
{
    jpeg_job *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    job->cinfo.err = jpeg_std_error(&job->jerr.mgr);
    job->jerr.mgr.error_exit = jpeg_fail_exit;
    job->jerr.mgr.emit_message = jpeg_fail_message;
    return job;
}

clpad_status clpad__jpeg_decode(const clpad__img_req *r, const unsigned char *b, size_t n,
                                clpad__img *out)
{
    jpeg_job *job = jpeg_job_new();
    if (!job)
        return clpad__img_nomem(r->name, sizeof *job);
    struct jpeg_decompress_struct *cinfo = &job->cinfo;
    if (setjmp(job->jerr.jump)) {
        jpeg_destroy_decompress(cinfo);
        clpad__img_px_free(r, job->px, job->given);
        free(job->row);
        clpad_status st = clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: %s",
                                      r->name, job->jerr.message);
        free(job);
        return st;
    }
    jpeg_open(cinfo, b, n);
    int64_t h = cinfo->image_height, w = cinfo->image_width;
    clpad_status st = clpad__img_check_size(r, h, w, 4, 1);
    if (st) {
        jpeg_destroy_decompress(cinfo);
        free(job);
        return st;
    }
    int orientation = jpeg_orientation(cinfo);
    if (r->min_h > 0 || r->min_w > 0) {
        bool swap = r->orient && orientation >= 5;
        cinfo->scale_num = (unsigned)jpeg_scale(h, w, swap ? r->min_w : r->min_h,
                                                swap ? r->min_h : r->min_w);
        cinfo->scale_denom = 8;
    }
    bool cmyk = cinfo->num_components == 4;
    int c = r->channels == CLPAD_CHANNELS_KEEP ? (cinfo->num_components == 1 ? 1 : 3)
                                               : r->channels;
    if (cmyk)
        cinfo->out_color_space = JCS_CMYK;
    else
        cinfo->out_color_space = c == 1 ? JCS_GRAYSCALE : c == 3 ? JCS_EXT_RGB : JCS_EXT_RGBA;
    jpeg_start_decompress(cinfo);
    int64_t oh = cinfo->output_height, ow = cinfo->output_width;
    size_t row = (size_t)ow * (size_t)c;
    bool given = false; /* the decoded pixels are final unless an orientation follows */
    job->px = clpad__img_px_new(r, row * (size_t)oh, !r->orient || orientation == 1, &given);
    job->given = given;
    if (cmyk)
        job->row = malloc((size_t)ow * 4);
    if (!job->px || (cmyk && !job->row)) {
        jpeg_destroy_decompress(cinfo);
        clpad__img_px_free(r, job->px, given);
        free(job->row);
        free(job);
        return clpad__img_nomem(r->name, row * (size_t)oh);
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        unsigned char *dst = job->px + (size_t)cinfo->output_scanline * row;
        JSAMPROW rows[1] = {cmyk ? job->row : dst};
        if (jpeg_read_scanlines(cinfo, rows, 1) != 1)
            break; /* not reached: a short read is a warning, an error here */
        if (!cmyk)
            continue;
        for (int64_t x = 0; x < ow; x++) {
            unsigned char rgb[3];
            cmyk_to_rgb(job->row + 4 * x, rgb);
            if (c == 1) {
                dst[x] = rgb_to_gray(rgb);
            } else {
                memcpy(dst + c * x, rgb, 3);
                if (c == 4)
                    dst[4 * x + 3] = 255;
            }
        }
    }
    jpeg_finish_decompress(cinfo);
    int scale = cinfo->scale_denom == 8 ? (int)cinfo->scale_num : 8;
    jpeg_destroy_decompress(cinfo);
    *out = (clpad__img){.px = job->px, .h = oh, .w = ow, .c = c, .sample = 1, .full_h = h,
                        .full_w = w, .scale_num = scale, .orientation = orientation,
                        .given = given};
    free(job->row);
    free(job);
    return CLPAD_OK;
}

clpad_status clpad__jpeg_probe(const char *name, const unsigned char *b, size_t n,
                               clpad_image_info *info)
{
    jpeg_job *job = jpeg_job_new();
    if (!job)
        return clpad__img_nomem(name, sizeof *job);
    struct jpeg_decompress_struct *cinfo = &job->cinfo;
    if (setjmp(job->jerr.jump)) {
        jpeg_destroy_decompress(cinfo);
        clpad_status st = clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: cannot decode the image: %s",
                                      name, job->jerr.message);
        free(job);
        return st;
    }
    jpeg_open(cinfo, b, n);
    int orientation = jpeg_orientation(cinfo);
    bool swap = orientation >= 5;
    memcpy(info->format, "jpeg", 5);
    info->height = swap ? cinfo->image_width : cinfo->image_height;
    info->width = swap ? cinfo->image_height : cinfo->image_width;
    info->channels = cinfo->num_components == 1 ? 1 : 3;
    info->bit_depth = cinfo->data_precision;
    info->orientation = orientation;
    jpeg_destroy_decompress(cinfo);
    free(job);
    return CLPAD_OK;
}
