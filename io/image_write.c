/* Images out: PNG through stb_image_write (8-bit), JPEG through
 * libjpeg-turbo, binary PNM (8- or 16-bit) written here. The tensor was
 * checked by tio_check_save. */
#include "io_internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <stb/stb_image_write.h>

#include "jpeg_error.h"

static void png_write_cb(void *ctx, void *data, int size)
{
    if (size > 0)
        tio__af_write(ctx, data, (size_t)size);
}

/* Baseline JPEG at `quality` (libjpeg's defaults otherwise: 4:2:0 chroma
 * for RGB, optimised Huffman tables), into memory, then into the file. */
static int encode_jpeg(const char *path, const tio_tensor *t, int64_t h, int64_t w, int64_t c,
                       int quality, tio__atomic_file *af, char *err, size_t errlen)
{
    struct jpeg_compress_struct cinfo;
    struct jpeg_failure jerr;
    unsigned char *volatile out = NULL;
    unsigned long out_len = 0;
    cinfo.err = jpeg_std_error(&jerr.mgr);
    jerr.mgr.error_exit = jpeg_fail_exit;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(out);
        return tio__fail(err, errlen, "%s: JPEG encoding failed: %s", path, jerr.message);
    }
    jpeg_create_compress(&cinfo);
    unsigned char *buf = NULL;
    jpeg_mem_dest(&cinfo, &buf, &out_len);
    cinfo.image_width = (JDIMENSION)w;
    cinfo.image_height = (JDIMENSION)h;
    cinfo.input_components = (int)c;
    cinfo.in_color_space = c == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    size_t row = (size_t)w * (size_t)c;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW r = (JSAMPROW)t->data + (size_t)cinfo.next_scanline * row;
        jpeg_write_scanlines(&cinfo, &r, 1);
    }
    jpeg_finish_compress(&cinfo);
    out = buf;
    jpeg_destroy_compress(&cinfo);
    tio__af_write(af, out, out_len);
    free(out);
    return 0;
}

int tio__encode_image(const char *path, const char *format, const tio_tensor *t, int quality,
                      tio__atomic_file *af, char *err, size_t errlen)
{
    int64_t h, w, c;
    tio__image_geometry(t->rank, t->shape, &h, &w, &c);
    if (strcmp(format, "png") == 0) {
        if (!stbi_write_png_to_func(png_write_cb, af, (int)w, (int)h, (int)c, t->data,
                                    (int)(w * c)) &&
            af->werr == 0)
            return tio__fail(err, errlen, "%s: PNG encoding failed (out of memory?)", path);
        return 0;
    }
    if (strcmp(format, "jpeg") == 0)
        return encode_jpeg(path, t, h, w, c, quality, af, err, errlen);
    /* ppm/pgm/pnm: binary P6 (3 channels) or P5 (1 channel); maxval 255, or
     * 65535 with big-endian samples for u16. */
    bool wide = t->dtype == CLPAD_U16;
    char hdr[96];
    int hn = snprintf(hdr, sizeof hdr, "P%d\n%lld %lld\n%d\n", c == 3 ? 6 : 5, (long long)w,
                      (long long)h, wide ? 65535 : 255);
    tio__af_write(af, hdr, (size_t)hn);
    if (!wide) {
        tio__af_write(af, t->data, t->nbytes);
        return 0;
    }
    unsigned char chunk[8192];
    const uint16_t *v = t->data;
    size_t count = t->nbytes / 2;
    for (size_t i = 0; i < count;) {
        size_t k = 0;
        for (; k < sizeof chunk / 2 && i < count; k++, i++) {
            chunk[2 * k] = (unsigned char)(v[i] >> 8);
            chunk[2 * k + 1] = (unsigned char)v[i];
        }
        tio__af_write(af, chunk, 2 * k);
    }
    return 0;
}
