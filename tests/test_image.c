/*
 * libclpad's image reading (include/clpad_image.h): the options and their
 * checks, the channel and depth rules on PNGs and JPEGs written here with
 * libpng and libjpeg (every PNG colour type and depth, palette and tRNS,
 * CMYK JPEG), the EXIF orientations of JPEG APP1 and PNG eXIf, DCT scaling,
 * probe, corrupt and truncated files, the limits, file errors, and many
 * threads decoding at once. Byte-for-byte equality with cv2.imread on real
 * photographs is tests/peer/imread_peer.py's job.
 */
#include "test_util.h"

#include "clpad_image.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jpeglib.h>
#include <png.h>

/* ------------------------------------------------------------------------- */
/* Writing test files                                                        */
/* ------------------------------------------------------------------------- */

typedef struct bytes {
    unsigned char *data;
    size_t len, cap;
} bytes;

static void bytes_add(bytes *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = 2 * (b->len + n) + 64;
        b->data = realloc(b->data, b->cap);
        assert_non_null(b->data);
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void png_write_cb(png_structp png, png_bytep p, size_t n)
{
    bytes_add(png_get_io_ptr(png), p, n);
}

static void png_flush_cb(png_structp png) { (void)png; }

/* What a test PNG holds. */
typedef struct png_spec {
    int w, h, depth, colour;     /* PNG_COLOR_TYPE_* */
    const void *rows;            /* h rows of packed samples, 16-bit ones big-endian */
    const png_color *palette;    /* colour type 3 */
    int n_palette;
    const unsigned char *trns;   /* palette alpha values */
    int n_trns;
    const png_color_16 *trns_key; /* grey or RGB colour key */
    int exif_orientation;        /* > 0: an eXIf chunk */
    int exif_after;              /* the eXIf chunk after the image data */
    int interlace;
} png_spec;

/* A TIFF header with IFD0 holding one Orientation entry (big-endian). */
static size_t exif_tiff(unsigned char *out, int orientation)
{
    static const unsigned char t[] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3,
                                      0,   0,   0, 1,  0, 0, 0, 0, 0, 0, 0,    0};
    memcpy(out, t, sizeof t);
    out[18] = (unsigned char)(orientation >> 8);
    out[19] = (unsigned char)orientation;
    return sizeof t;
}

static bytes make_png(const png_spec *s)
{
    bytes b = {0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    assert_non_null(info);
    if (setjmp(png_jmpbuf(png)))
        fail_msg("libpng could not write the test PNG");
    png_set_write_fn(png, &b, png_write_cb, png_flush_cb);
    png_set_IHDR(png, info, (png_uint_32)s->w, (png_uint_32)s->h, s->depth, s->colour,
                 s->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (s->palette)
        png_set_PLTE(png, info, s->palette, s->n_palette);
    if (s->trns || s->trns_key)
        png_set_tRNS(png, info, s->trns, s->n_trns, s->trns_key);
    unsigned char tiff[32];
    if (s->exif_orientation && !s->exif_after)
        png_set_eXIf_1(png, info, (png_uint_32)exif_tiff(tiff, s->exif_orientation), tiff);
    png_write_info(png, info);
    int channels = s->colour == 0 || s->colour == 3 ? 1 : s->colour == 4 ? 2 : s->colour == 2 ? 3 : 4;
    size_t row = ((size_t)s->w * (size_t)(channels * s->depth) + 7) / 8;
    int passes = png_set_interlace_handling(png);
    for (int p = 0; p < passes; p++)
        for (int y = 0; y < s->h; y++)
            png_write_row(png, (png_const_bytep)s->rows + (size_t)y * row);
    png_infop end = png_create_info_struct(png);
    if (s->exif_orientation && s->exif_after)
        png_set_eXIf_1(png, end, (png_uint_32)exif_tiff(tiff, s->exif_orientation), tiff);
    png_write_end(png, end);
    png_destroy_info_struct(png, &end);
    png_destroy_write_struct(&png, &info);
    return b;
}

/* A JPEG of w x h pixels of `comps` components (1 grey, 3 RGB, 4 CMYK) at
 * quality 100, with an EXIF APP1 segment when orientation > 0 (after an XMP
 * APP1 segment when xmp_first), through libjpeg's memory destination. */
static bytes make_jpeg(int w, int h, int comps, const unsigned char *px, int orientation,
                       int xmp_first)
{
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    unsigned char *mem = NULL;
    unsigned long len = 0;
    jpeg_mem_dest(&c, &mem, &len);
    c.image_width = (JDIMENSION)w;
    c.image_height = (JDIMENSION)h;
    c.input_components = comps;
    c.in_color_space = comps == 1 ? JCS_GRAYSCALE : comps == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 100, TRUE);
    if (comps == 3) { /* 4:4:4, so that colours stay close */
        c.comp_info[0].h_samp_factor = c.comp_info[0].v_samp_factor = 1;
    }
    jpeg_start_compress(&c, TRUE);
    if (xmp_first) {
        static const char xmp[] = "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>";
        jpeg_write_marker(&c, JPEG_APP0 + 1, (const JOCTET *)xmp, sizeof xmp);
    }
    if (orientation > 0) {
        unsigned char app1[64] = "Exif\0\0";
        size_t n = 6 + exif_tiff(app1 + 6, orientation);
        jpeg_write_marker(&c, JPEG_APP0 + 1, app1, (unsigned)n);
    }
    for (int y = 0; y < h; y++) {
        JSAMPROW r = (JSAMPROW)(px + (size_t)y * (size_t)w * (size_t)comps);
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    bytes b = {0};
    bytes_add(&b, mem, len);
    free(mem);
    return b;
}

/* ------------------------------------------------------------------------- */
/* Decoding helpers                                                          */
/* ------------------------------------------------------------------------- */

static clpad_read_options opts(int channels)
{
    clpad_read_options o;
    clpad_read_options_init(&o);
    o.channels = channels;
    return o;
}

static clpad_decoded_image decode_ok(const bytes *b, const clpad_read_options *o)
{
    clpad_decoded_image img = {.size = sizeof img};
    clpad_status st = clpad_image_decode(b->data, b->len, "t.img", o, &img);
    if (st)
        fail_msg("decode failed: %s (%s)", clpad_status_name(st), clpad_last_error());
    return img;
}

static void decode_fails(const bytes *b, const clpad_read_options *o, clpad_status want,
                         const char *name, const char *msg)
{
    clpad_decoded_image img = {.size = sizeof img};
    memset((char *)&img + sizeof img.size, 0x5a, sizeof img - sizeof img.size);
    clpad_decoded_image before = img;
    clpad_status st = clpad_image_decode(b->data, b->len, name, o, &img);
    if (st != want)
        fail_msg("%s: got %s (%s), want %s", name, clpad_status_name(st), clpad_last_error(),
                 clpad_status_name(want));
    const char *e = clpad_last_error();
    if (!strstr(e, name) || (msg && !strstr(e, msg)) || strchr(e, '\n'))
        fail_msg("%s: message \"%s\" lacks the name or \"%s\"", name, e, msg ? msg : "");
    assert_memory_equal(&img, &before, sizeof img); /* untouched */
}

static void expect_pixels(const clpad_decoded_image *img, int64_t h, int64_t w, int64_t c,
                          const unsigned char *want)
{
    if (img->height != h || img->width != w || img->channels != c)
        fail_msg("got %lldx%lldx%lld, want %lldx%lldx%lld", (long long)img->height,
                 (long long)img->width, (long long)img->channels, (long long)h, (long long)w,
                 (long long)c);
    assert_int_equal(img->dtype, CLPAD_U8);
    assert_memory_equal(img->data, want, (size_t)(h * w * c));
}

/* ------------------------------------------------------------------------- */
/* Options                                                                   */
/* ------------------------------------------------------------------------- */

static void test_options(void **state)
{
    (void)state;
    clpad_read_options o;
    memset(&o, 0x77, sizeof o);
    clpad_read_options_init(&o);
    assert_int_equal(o.size, sizeof o);
    assert_int_equal(o.channels, CLPAD_CHANNELS_COLOR);
    assert_int_equal(o.keep_depth, 0);
    assert_int_equal(o.ignore_orientation, 0);
    assert_true(o.max_pixels == 0 && o.min_height == 0 && o.min_width == 0);
    unsigned char grey[4] = {1, 2, 3, 4};
    bytes b = make_png(&(png_spec){.w = 2, .h = 2, .depth = 8, .colour = 0, .rows = grey});
    clpad_decoded_image img = decode_ok(&b, NULL); /* NULL: the defaults */
    assert_int_equal(img.channels, 3);
    assert_string_equal(img.format, "png");
    assert_int_equal(img.scale_num, 8);
    assert_int_equal(img.orientation, 1);
    clpad_decoded_image_free(&img);
    assert_null(img.data);
    assert_int_equal(img.size, sizeof img);
    clpad_decoded_image_free(NULL);
    /* Bad options, a bad output struct: refused, named, nothing written. */
    o = opts(2);
    decode_fails(&b, &o, CLPAD_ERR_INVALID_ARGUMENT, "t.png", "channels is 2");
    o = opts(3);
    o.min_width = -1;
    decode_fails(&b, &o, CLPAD_ERR_INVALID_ARGUMENT, "t.png", "min_height and min_width");
    o = opts(3);
    o.size = 8;
    decode_fails(&b, &o, CLPAD_ERR_INVALID_ARGUMENT, "t.png", "clpad_read_options_init");
    clpad_decoded_image bad = {.size = 3};
    TU_ASSERT_STATUS(clpad_image_decode(b.data, b.len, "t.png", NULL, &bad),
                     CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_STATUS(clpad_image_decode(b.data, b.len, "t.png", NULL, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_STATUS(clpad_image_decode(NULL, 5, "t.png", NULL, &img), CLPAD_ERR_INVALID_ARGUMENT);
    free(b.data);
}

/* ------------------------------------------------------------------------- */
/* Channel and depth rules                                                   */
/* ------------------------------------------------------------------------- */

static void test_png_channels(void **state)
{
    (void)state;
    /* grey: replicated; KEEP 1; 4 adds an opaque alpha */
    const unsigned char g[3] = {10, 20, 30};
    bytes b = make_png(&(png_spec){.w = 3, .h = 1, .depth = 8, .colour = 0, .rows = g});
    clpad_read_options o = opts(3);
    clpad_decoded_image img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 3, 3, (const unsigned char[]){10, 10, 10, 20, 20, 20, 30, 30, 30});
    clpad_decoded_image_free(&img);
    o = opts(CLPAD_CHANNELS_KEEP);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 3, 1, g);
    clpad_decoded_image_free(&img);
    o = opts(4);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 3, 4,
                  (const unsigned char[]){10, 10, 10, 255, 20, 20, 20, 255, 30, 30, 30, 255});
    clpad_decoded_image_free(&img);
    o = opts(1);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 3, 1, g);
    clpad_decoded_image_free(&img);
    free(b.data);

    /* grey + alpha: alpha dropped (not composited) for 3 and 1 channels */
    const unsigned char ga[4] = {100, 0, 200, 128};
    b = make_png(&(png_spec){.w = 2, .h = 1, .depth = 8, .colour = 4, .rows = ga});
    o = opts(3);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 2, 3, (const unsigned char[]){100, 100, 100, 200, 200, 200});
    clpad_decoded_image_free(&img);
    o = opts(4);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 2, 4, (const unsigned char[]){100, 100, 100, 0, 200, 200, 200, 128});
    clpad_decoded_image_free(&img);
    o = opts(CLPAD_CHANNELS_KEEP);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 2, 2, ga);
    clpad_decoded_image_free(&img);
    free(b.data);

    /* RGBA: alpha dropped; grey of a grey colour is itself */
    const unsigned char rgba[8] = {1, 2, 3, 4, 77, 77, 77, 0};
    b = make_png(&(png_spec){.w = 2, .h = 1, .depth = 8, .colour = 6, .rows = rgba});
    o = opts(3);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 2, 3, (const unsigned char[]){1, 2, 3, 77, 77, 77});
    clpad_decoded_image_free(&img);
    o = opts(1);
    img = decode_ok(&b, &o);
    assert_int_equal(img.channels, 1);
    assert_int_equal(((unsigned char *)img.data)[1], 77);
    clpad_decoded_image_free(&img);
    free(b.data);

    /* palette with tRNS: RGB for 3, the tRNS alpha for 4 and KEEP */
    const png_color pal[3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
    const unsigned char alpha[2] = {0, 128}, idx[3] = {2, 1, 0};
    b = make_png(&(png_spec){.w = 3, .h = 1, .depth = 8, .colour = 3, .rows = idx,
                             .palette = pal, .n_palette = 3, .trns = alpha, .n_trns = 2});
    o = opts(3);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 3, 3, (const unsigned char[]){0, 0, 255, 0, 255, 0, 255, 0, 0});
    clpad_decoded_image_free(&img);
    o = opts(CLPAD_CHANNELS_KEEP);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 3, 4,
                  (const unsigned char[]){0, 0, 255, 255, 0, 255, 0, 128, 255, 0, 0, 0});
    clpad_decoded_image_free(&img);
    free(b.data);

    /* a 2-bit palette: unpacked */
    const unsigned char packed[1] = {0x1b}; /* indices 0, 1, 2, 3 */
    const png_color pal4[4] = {{1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}};
    b = make_png(&(png_spec){.w = 4, .h = 1, .depth = 2, .colour = 3, .rows = packed,
                             .palette = pal4, .n_palette = 4});
    o = opts(1);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 4, 1, (const unsigned char[]){1, 2, 3, 4});
    clpad_decoded_image_free(&img);
    free(b.data);

    /* grey with a tRNS colour key: ignored by 3 (as OpenCV), alpha for KEEP */
    const unsigned char gk[2] = {5, 6};
    png_color_16 key = {.gray = 6};
    b = make_png(&(png_spec){.w = 2, .h = 1, .depth = 8, .colour = 0, .rows = gk,
                             .trns_key = &key});
    o = opts(3);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 2, 3, (const unsigned char[]){5, 5, 5, 6, 6, 6});
    clpad_decoded_image_free(&img);
    o = opts(CLPAD_CHANNELS_KEEP);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 2, 2, (const unsigned char[]){5, 255, 6, 0});
    clpad_decoded_image_free(&img);
    free(b.data);

    /* 1-bit grey: 0 and 255 */
    const unsigned char bits[1] = {0xa0}; /* 1, 0, 1 */
    b = make_png(&(png_spec){.w = 3, .h = 1, .depth = 1, .colour = 0, .rows = bits});
    o = opts(CLPAD_CHANNELS_KEEP);
    img = decode_ok(&b, &o);
    expect_pixels(&img, 1, 3, 1, (const unsigned char[]){255, 0, 255});
    clpad_decoded_image_free(&img);
    free(b.data);
}

static void test_png_16bit(void **state)
{
    (void)state;
    /* big-endian samples 0x1234, 0xabcd, 0x00ff (R, G, B) and 0xff00 ... */
    const unsigned char rgb16[12] = {0x12, 0x34, 0xab, 0xcd, 0x00, 0xff,
                                     0xff, 0x00, 0x80, 0x7f, 0x01, 0x01};
    bytes b = make_png(&(png_spec){.w = 2, .h = 1, .depth = 16, .colour = 2, .rows = rgb16});
    clpad_read_options o = opts(3);
    clpad_decoded_image img = decode_ok(&b, &o);
    /* 8-bit: the high byte (v >> 8), as OpenCV's png_set_strip_16 */
    expect_pixels(&img, 1, 2, 3, (const unsigned char[]){0x12, 0xab, 0x00, 0xff, 0x80, 0x01});
    clpad_decoded_image_free(&img);
    o.keep_depth = 1;
    img = decode_ok(&b, &o);
    assert_int_equal(img.dtype, CLPAD_U16);
    const uint16_t want[6] = {0x1234, 0xabcd, 0x00ff, 0xff00, 0x807f, 0x0101};
    assert_memory_equal(img.data, want, sizeof want);
    clpad_decoded_image_free(&img);
    o = opts(4);
    o.keep_depth = 1;
    img = decode_ok(&b, &o);
    assert_int_equal(img.channels, 4);
    assert_int_equal(((uint16_t *)img.data)[3], 0xffff); /* opaque at 16 bits */
    clpad_decoded_image_free(&img);
    free(b.data);
    /* interlaced 16-bit grey */
    unsigned char g16[2 * 9 * 7];
    for (size_t k = 0; k < sizeof g16; k++)
        g16[k] = (unsigned char)(k * 37 + 11);
    b = make_png(&(png_spec){.w = 9, .h = 7, .depth = 16, .colour = 0, .rows = g16,
                             .interlace = 1});
    o = opts(CLPAD_CHANNELS_KEEP);
    o.keep_depth = 1;
    img = decode_ok(&b, &o);
    for (int k = 0; k < 63; k++)
        assert_int_equal(((uint16_t *)img.data)[k], g16[2 * k] << 8 | g16[2 * k + 1]);
    clpad_decoded_image_free(&img);
    o.keep_depth = 0;
    img = decode_ok(&b, &o);
    for (int k = 0; k < 63; k++)
        assert_int_equal(((uint8_t *)img.data)[k], g16[2 * k]);
    clpad_decoded_image_free(&img);
    free(b.data);
}

/* OpenCV's CMYK (inverted, as libjpeg returns it) to RGB. */
static void cmyk_rgb(const unsigned char *k4, unsigned char *rgb)
{
    for (int i = 0; i < 3; i++)
        rgb[i] = (unsigned char)(k4[3] - ((255 - k4[i]) * k4[3] >> 8));
}

/* The CMYK samples libjpeg decodes from b. */
static unsigned char *libjpeg_cmyk(const bytes *b, int w, int h)
{
    struct jpeg_decompress_struct d;
    struct jpeg_error_mgr e;
    d.err = jpeg_std_error(&e);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, b->data, (unsigned long)b->len);
    jpeg_read_header(&d, TRUE);
    d.out_color_space = JCS_CMYK;
    jpeg_start_decompress(&d);
    unsigned char *px = malloc((size_t)w * (size_t)h * 4);
    while (d.output_scanline < d.output_height) {
        JSAMPROW r = px + (size_t)d.output_scanline * (size_t)w * 4;
        jpeg_read_scanlines(&d, &r, 1);
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    return px;
}

static void test_jpeg_channels(void **state)
{
    (void)state;
    enum { W = 24, H = 16 };
    unsigned char grey[W * H], cmyk[W * H * 4];
    for (int k = 0; k < W * H; k++)
        grey[k] = (unsigned char)(k * 3);
    for (int k = 0; k < W * H * 4; k++)
        cmyk[k] = (unsigned char)(k * 7 + 30);
    /* grey: the same samples replicated into RGB, and as one channel */
    bytes b = make_jpeg(W, H, 1, grey, 0, 0);
    clpad_read_options o = opts(1);
    clpad_decoded_image g1 = decode_ok(&b, &o);
    assert_int_equal(g1.channels, 1);
    o = opts(3);
    clpad_decoded_image g3 = decode_ok(&b, &o);
    assert_string_equal(g3.format, "jpeg");
    for (int k = 0; k < W * H; k++)
        for (int c = 0; c < 3; c++)
            assert_int_equal(((unsigned char *)g3.data)[3 * k + c], ((unsigned char *)g1.data)[k]);
    o = opts(CLPAD_CHANNELS_KEEP);
    clpad_decoded_image gk = decode_ok(&b, &o);
    assert_int_equal(gk.channels, 1);
    clpad_decoded_image_free(&g1);
    clpad_decoded_image_free(&g3);
    clpad_decoded_image_free(&gk);
    free(b.data);
    /* CMYK: OpenCV's formula on the samples libjpeg gives */
    b = make_jpeg(W, H, 4, cmyk, 0, 0);
    unsigned char *raw = libjpeg_cmyk(&b, W, H);
    o = opts(4);
    clpad_decoded_image c4 = decode_ok(&b, &o);
    for (int k = 0; k < W * H; k++) {
        unsigned char rgb[3];
        cmyk_rgb(raw + 4 * k, rgb);
        assert_memory_equal((unsigned char *)c4.data + 4 * k, rgb, 3);
        assert_int_equal(((unsigned char *)c4.data)[4 * k + 3], 255);
    }
    o = opts(CLPAD_CHANNELS_KEEP);
    clpad_decoded_image ck = decode_ok(&b, &o);
    assert_int_equal(ck.channels, 3);
    /* grey: OpenCV's BGR2Gray of those */
    o = opts(1);
    clpad_decoded_image c1 = decode_ok(&b, &o);
    for (int k = 0; k < W * H; k++) {
        unsigned char rgb[3];
        cmyk_rgb(raw + 4 * k, rgb);
        int want = (rgb[2] * 1868 + rgb[1] * 9617 + rgb[0] * 4899 + 8192) >> 14;
        assert_int_equal(((unsigned char *)c1.data)[k], want);
    }
    free(raw);
    clpad_decoded_image_free(&c4);
    clpad_decoded_image_free(&ck);
    clpad_decoded_image_free(&c1);
    free(b.data);
}

/* ------------------------------------------------------------------------- */
/* Orientation and scaling                                                   */
/* ------------------------------------------------------------------------- */

/* Where oriented pixel (y, x) comes from, for a stored h x w image: OpenCV's
 * ExifTransform written as flips and a transpose, independently of the
 * library's table. */
static void source_of(int o, int h, int w, int y, int x, int *sy, int *sx)
{
    int ty = y, tx = x, oh = o >= 5 ? w : h, ow = o >= 5 ? h : w;
    /* undo the flips (applied after the transpose for 5..8) */
    bool flip_lr = o == 2 || o == 3 || o == 6 || o == 7;
    bool flip_ud = o == 3 || o == 4 || o == 7 || o == 8;
    if (flip_lr)
        tx = ow - 1 - tx;
    if (flip_ud)
        ty = oh - 1 - ty;
    if (o >= 5) {
        *sy = tx;
        *sx = ty;
    } else {
        *sy = ty;
        *sx = tx;
    }
}

static void check_oriented(const clpad_decoded_image *stored, const clpad_decoded_image *img,
                           int o)
{
    int h = (int)stored->height, w = (int)stored->width;
    size_t pix = (size_t)stored->channels * (stored->dtype == CLPAD_U16 ? 2 : 1);
    assert_int_equal(img->orientation, o);
    assert_int_equal(img->channels, stored->channels);
    assert_int_equal(img->dtype, stored->dtype);
    assert_int_equal(img->height, o >= 5 ? w : h);
    assert_int_equal(img->width, o >= 5 ? h : w);
    assert_int_equal(img->source_height, img->height);
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            int sy, sx;
            source_of(o, h, w, y, x, &sy, &sx);
            if (memcmp((unsigned char *)img->data + ((size_t)y * (size_t)img->width + x) * pix,
                       (unsigned char *)stored->data + ((size_t)sy * (size_t)w + sx) * pix, pix))
                fail_msg("orientation %d, %zu-byte pixels: pixel (%d, %d) is not stored pixel "
                         "(%d, %d)", o, pix, y, x, sy, sx);
        }
}

/* Decode b with options o, once as stored and once oriented, and check the
 * second against the first. */
static void check_orientation_of(const bytes *b, clpad_read_options o, int orientation)
{
    clpad_decoded_image img = decode_ok(b, &o);
    o.ignore_orientation = 1;
    clpad_decoded_image stored = decode_ok(b, &o);
    assert_int_equal(stored.orientation, 1);
    check_oriented(&stored, &img, orientation >= 1 && orientation <= 8 ? orientation : 1);
    clpad_decoded_image_free(&img);
    clpad_decoded_image_free(&stored);
}

static void test_orientation(void **state)
{
    (void)state;
    /* Not square, odd sizes: one inside a 32-pixel tile of the transposing
     * orientations, one across several. Pixels of 1, 3 and 4 bytes (JPEG,
     * PNG) and of 2, 6 and 8 (16-bit PNG). */
    static const int sizes[2][2] = {{37, 11}, {70, 45}};
    static unsigned char px[70 * 45 * 6];
    for (size_t k = 0; k < sizeof px; k++)
        px[k] = (unsigned char)(k * 13 + k / 7);
    for (int z = 0; z < 2; z++) {
        int W = sizes[z][0], H = sizes[z][1];
        for (int o = 0; o <= 9; o++) {
            /* JPEG APP1 */
            bytes j = make_jpeg(W, H, 3, px, o, 0);
            for (int c = 1; c <= 4; c++)
                if (c != 2)
                    check_orientation_of(&j, opts(c), o);
            clpad_decoded_image img = decode_ok(&j, NULL); /* the default: 3 channels */
            assert_int_equal(img.orientation, o >= 1 && o <= 8 ? o : 1);
            assert_int_equal(img.channels, 3);
            clpad_decoded_image_free(&img);
            clpad_image_info info = {.size = sizeof info};
            TU_ASSERT_OK(clpad_image_probe(j.data, j.len, "p.jpg", &info));
            assert_int_equal(info.orientation, o >= 1 && o <= 8 ? o : 1);
            assert_int_equal(info.width, o >= 5 && o <= 8 ? H : W);
            free(j.data);
            /* PNG eXIf, before and after the image data; 8 and 16 bits */
            for (int after = 0; after < 2; after++) {
                bytes p = make_png(&(png_spec){.w = W, .h = H, .depth = 8, .colour = 2,
                                               .rows = px, .exif_orientation = o,
                                               .exif_after = after});
                check_orientation_of(&p, opts(3), o);
                free(p.data);
                p = make_png(&(png_spec){.w = W, .h = H, .depth = 16, .colour = 2, .rows = px,
                                         .exif_orientation = o, .exif_after = after});
                for (int c = 1; c <= 4; c++) {
                    clpad_read_options deep = opts(c);
                    deep.keep_depth = 1;
                    if (c != 2)
                        check_orientation_of(&p, deep, o);
                }
                free(p.data);
            }
        }
    }
    /* An XMP segment before the EXIF one does not hide it. */
    bytes j = make_jpeg(37, 11, 3, px, 6, 1);
    clpad_decoded_image img = decode_ok(&j, NULL);
    assert_int_equal(img.orientation, 6);
    clpad_decoded_image_free(&img);
    free(j.data);
}

static void test_scaling(void **state)
{
    (void)state;
    enum { W = 203, H = 97 };
    static unsigned char rgb[W * H * 3];
    for (int k = 0; k < W * H * 3; k++)
        rgb[k] = (unsigned char)(k % 251);
    bytes j = make_jpeg(W, H, 3, rgb, 6, 0); /* rotated: displayed 97 wide, 203 high */
    for (int m = 1; m <= 8; m++) {
        /* the smallest M of 1, 2, 4, 8 whose size (ceil(side * M / 8))
         * reaches the minimum */
        clpad_read_options o = opts(3);
        o.min_height = (W * m + 7) / 8; /* displayed height is the stored width */
        o.min_width = 1;
        int want = m <= 1 ? 1 : m <= 2 ? 2 : m <= 4 ? 4 : 8;
        clpad_decoded_image img = decode_ok(&j, &o);
        assert_int_equal(img.scale_num, want);
        assert_int_equal(img.height, (W * want + 7) / 8);
        assert_int_equal(img.width, (H * want + 7) / 8);
        assert_int_equal(img.source_height, W);
        assert_int_equal(img.source_width, H);
        clpad_decoded_image_free(&img);
    }
    /* larger than the image: full size; PNG: never scaled */
    clpad_read_options o = opts(3);
    o.min_height = o.min_width = 100000;
    clpad_decoded_image img = decode_ok(&j, &o);
    assert_int_equal(img.scale_num, 8);
    clpad_decoded_image_free(&img);
    free(j.data);
    bytes p = make_png(&(png_spec){.w = W, .h = H, .depth = 8, .colour = 2, .rows = rgb});
    o.min_height = o.min_width = 1;
    img = decode_ok(&p, &o);
    assert_int_equal(img.scale_num, 8);
    assert_int_equal(img.width, W);
    clpad_decoded_image_free(&img);
    free(p.data);
}

/* ------------------------------------------------------------------------- */
/* Corrupt files, limits, probe, files                                       */
/* ------------------------------------------------------------------------- */

static void test_corrupt(void **state)
{
    (void)state;
    enum { W = 40, H = 30 };
    static unsigned char rgb[W * H * 3];
    for (int k = 0; k < W * H * 3; k++)
        rgb[k] = (unsigned char)(k * 5 % 253);
    bytes p = make_png(&(png_spec){.w = W, .h = H, .depth = 8, .colour = 2, .rows = rgb,
                                   .exif_orientation = 1});
    bytes j = make_jpeg(W, H, 3, rgb, 0, 0);
    /* cut short anywhere: refused, named */
    for (int k = 1; k < 16; k++) {
        bytes cut = {.data = p.data, .len = p.len * (size_t)k / 16};
        decode_fails(&cut, NULL, CLPAD_ERR_BAD_INPUT, "cut.png", "cannot decode the image");
        cut = (bytes){.data = j.data, .len = j.len * (size_t)k / 16};
        decode_fails(&cut, NULL, CLPAD_ERR_BAD_INPUT, "cut.jpg", "cannot decode the image");
    }
    /* a CRC error in a critical and in an ancillary chunk (eXIf) */
    p.data[29] ^= 1; /* IHDR's CRC */
    decode_fails(&p, NULL, CLPAD_ERR_BAD_INPUT, "crc.png", "CRC error");
    p.data[29] ^= 1;
    size_t i = 8;
    while (memcmp(p.data + i + 4, "eXIf", 4))
        i += 12 + ((size_t)p.data[i + 2] << 8 | p.data[i + 3]);
    p.data[i + 9] ^= 0x40; /* inside the eXIf data */
    decode_fails(&p, NULL, CLPAD_ERR_BAD_INPUT, "exif.png", "CRC error");
    p.data[i + 9] ^= 0x40;
    /* a JPEG's entropy-coded data damaged: libjpeg's warning is an error */
    bytes jj = {0};
    bytes_add(&jj, j.data, j.len - 2); /* no EOI */
    decode_fails(&jj, NULL, CLPAD_ERR_BAD_INPUT, "noeoi.jpg", "Premature end");
    free(jj.data);
    /* what is not an image */
    bytes junk = {.data = (unsigned char *)"GIF89a......", .len = 12};
    decode_fails(&junk, NULL, CLPAD_ERR_BAD_INPUT, "g.png", "GIF images are not supported");
    junk = (bytes){.data = (unsigned char *)"", .len = 0};
    decode_fails(&junk, NULL, CLPAD_ERR_BAD_INPUT, "e.png", "empty");
    /* a palette index beyond the palette */
    const png_color pal[2] = {{1, 2, 3}, {4, 5, 6}};
    const unsigned char idx[3] = {0, 1, 2};
    bytes q = make_png(&(png_spec){.w = 3, .h = 1, .depth = 8, .colour = 3, .rows = idx,
                                   .palette = pal, .n_palette = 2});
    decode_fails(&q, NULL, CLPAD_ERR_BAD_INPUT, "pal.png", "palette index 2");
    free(q.data);
    free(p.data);
    free(j.data);
}

static void test_limits(void **state)
{
    (void)state;
    unsigned char px[64 * 48 * 3] = {0};
    bytes p = make_png(&(png_spec){.w = 64, .h = 48, .depth = 8, .colour = 2, .rows = px});
    bytes j = make_jpeg(64, 48, 3, px, 0, 0);
    clpad_read_options o = opts(3);
    o.max_pixels = 64 * 48;
    clpad_decoded_image img = decode_ok(&p, &o);
    clpad_decoded_image_free(&img);
    img = decode_ok(&j, &o);
    clpad_decoded_image_free(&img);
    o.max_pixels = 64 * 48 - 1;
    decode_fails(&p, &o, CLPAD_ERR_TOO_LARGE, "lim.png",
                 "64 x 48 = 3072 pixels, more than the limit of 3071 pixels (raise it with the "
                 "max_pixels");
    decode_fails(&j, &o, CLPAD_ERR_TOO_LARGE, "lim.jpg", "--max-pixels");
    /* the default limit, from a header alone: a PNG declaring 20000 x 10000 */
    unsigned char big[64];
    memcpy(big, p.data, 33);
    big[16] = 0, big[17] = 0, big[18] = 0x4e, big[19] = 0x20; /* width 20000 */
    big[20] = 0, big[21] = 0, big[22] = 0x27, big[23] = 0x10; /* height 10000 */
    bytes hb = {.data = big, .len = 33};
    decode_fails(&hb, NULL, CLPAD_ERR_TOO_LARGE, "big.png",
                 "200000000 pixels, more than the limit of 178956970 pixels");
    /* raised, the same header is read further (and found truncated) */
    o = opts(3);
    o.max_pixels = 200000000;
    decode_fails(&hb, &o, CLPAD_ERR_BAD_INPUT, "big.png", NULL);
    /* more than 2^24 on a side, whatever the limit */
    o.max_pixels = UINT64_MAX;
    big[16] = 0x01, big[17] = 0, big[18] = 0, big[19] = 1; /* 2^24 + 1 */
    big[20] = 0, big[21] = 0, big[22] = 0, big[23] = 1;
    decode_fails(&hb, &o, CLPAD_ERR_TOO_LARGE, "wide.png", "16777216 pixels on a side");
    free(p.data);
    free(j.data);
}

static void test_probe(void **state)
{
    (void)state;
    const png_color pal[2] = {{1, 2, 3}, {4, 5, 6}};
    const unsigned char idx[3] = {0, 1, 0}, a[1] = {7};
    bytes p = make_png(&(png_spec){.w = 3, .h = 1, .depth = 8, .colour = 3, .rows = idx,
                                   .palette = pal, .n_palette = 2, .trns = a, .n_trns = 1,
                                   .exif_orientation = 8});
    clpad_image_info info = {.size = sizeof info};
    TU_ASSERT_OK(clpad_image_probe(p.data, p.len, "p.png", &info));
    assert_string_equal(info.format, "png");
    assert_int_equal(info.channels, 4); /* palette + tRNS */
    assert_int_equal(info.bit_depth, 8);
    assert_int_equal(info.orientation, 8);
    assert_int_equal(info.height, 3);
    assert_int_equal(info.width, 1);
    /* the header alone is enough */
    TU_ASSERT_OK(clpad_image_probe(p.data, 33, "p.png", &info));
    assert_int_equal(info.orientation, 1);
    TU_ASSERT_STATUS(clpad_image_probe(p.data, 20, "p.png", &info), CLPAD_ERR_BAD_INPUT);
    assert_non_null(strstr(clpad_last_error(), "p.png"));
    info.size = 1;
    TU_ASSERT_STATUS(clpad_image_probe(p.data, p.len, "p.png", &info), CLPAD_ERR_INVALID_ARGUMENT);
    info.size = sizeof info;
    const char pgm[] = "P5\n3 2\n65535\n";
    TU_ASSERT_OK(clpad_image_probe(pgm, sizeof pgm - 1, "p.pgm", &info));
    assert_string_equal(info.format, "pnm");
    assert_int_equal(info.bit_depth, 16);
    assert_int_equal(info.height, 2);
    free(p.data);
}

static void test_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/clpad-image-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    clpad_decoded_image img = {.size = sizeof img};
    snprintf(path, sizeof path, "%s/missing.png", dir);
    TU_ASSERT_STATUS(clpad_image_read(path, NULL, &img), CLPAD_ERR_IO);
    assert_non_null(strstr(clpad_last_error(), "No such file"));
    assert_non_null(strstr(clpad_last_error(), path));
    TU_ASSERT_STATUS(clpad_image_read(dir, NULL, &img), CLPAD_ERR_IO);
    assert_non_null(strstr(clpad_last_error(), "is a directory"));
    TU_ASSERT_STATUS(clpad_image_read(NULL, NULL, &img), CLPAD_ERR_INVALID_ARGUMENT);
    /* a file, and the same bytes from a pipe whose writer stays open: the
     * PNG is read to IEND and no further */
    const unsigned char g[4] = {9, 8, 7, 6};
    bytes p = make_png(&(png_spec){.w = 2, .h = 2, .depth = 8, .colour = 0, .rows = g});
    snprintf(path, sizeof path, "%s/g.png", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p.data, 1, p.len, f), p.len);
    fclose(f);
    clpad_read_options o = opts(1);
    TU_ASSERT_OK(clpad_image_read(path, &o, &img));
    assert_memory_equal(img.data, g, 4);
    clpad_decoded_image_free(&img);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], p.data, p.len), (ssize_t)p.len);
    assert_int_equal(write(fds[1], "MORE", 4), 4);
    alarm(20);
    TU_ASSERT_OK(clpad_image_read_fd(fds[0], "pipe.png", &o, &img));
    alarm(0);
    assert_memory_equal(img.data, g, 4);
    clpad_decoded_image_free(&img);
    char rest[4];
    assert_int_equal(read(fds[0], rest, 4), 4); /* left in the pipe */
    assert_memory_equal(rest, "MORE", 4);
    close(fds[0]);
    close(fds[1]);
    /* a FIFO named as a file: opening it does not wait for a writer (one
     * nobody writes is an empty input at once, an error naming it), and
     * one with a writer is read as a stream */
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s/x.png", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    alarm(20);
    TU_ASSERT_STATUS(clpad_image_read(fifo, &o, &img), CLPAD_ERR_BAD_INPUT);
    alarm(0);
    assert_non_null(strstr(clpad_last_error(), fifo));
    assert_non_null(strstr(clpad_last_error(), "empty"));
    int w = open(fifo, O_RDWR); /* a writer (Linux: O_RDWR opens a FIFO at once) */
    assert_true(w >= 0);
    assert_int_equal(write(w, p.data, p.len), (ssize_t)p.len);
    alarm(20);
    TU_ASSERT_OK(clpad_image_read(fifo, &o, &img));
    alarm(0);
    assert_memory_equal(img.data, g, 4);
    clpad_decoded_image_free(&img);
    close(w);
    unlink(fifo);
    unlink(path);
    rmdir(dir);
    free(p.data);
}

/* ------------------------------------------------------------------------- */
/* Threads                                                                   */
/* ------------------------------------------------------------------------- */

typedef struct thread_job {
    const bytes *files; /* PNG, JPEG, a corrupt PNG */
    const clpad_decoded_image *want;
    int failures;
} thread_job;

static void *decode_many(void *arg)
{
    thread_job *t = arg;
    for (int round = 0; round < 40; round++) {
        for (int k = 0; k < 2; k++) {
            clpad_decoded_image img = {.size = sizeof img};
            if (clpad_image_decode(t->files[k].data, t->files[k].len, "ok.img", NULL, &img) ||
                memcmp(img.data, t->want[k].data,
                       (size_t)(img.height * img.width * img.channels)))
                t->failures++;
            clpad_decoded_image_free(&img);
        }
        clpad_decoded_image img = {.size = sizeof img};
        if (clpad_image_decode(t->files[2].data, t->files[2].len, "bad.png", NULL, &img) !=
                CLPAD_ERR_BAD_INPUT ||
            !strstr(clpad_last_error(), "bad.png: cannot decode the image"))
            t->failures++;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    enum { W = 96, H = 64, THREADS = 6 };
    static unsigned char rgb[W * H * 3];
    for (int k = 0; k < W * H * 3; k++)
        rgb[k] = (unsigned char)(k * 11 % 255);
    bytes files[3];
    files[0] = make_png(&(png_spec){.w = W, .h = H, .depth = 8, .colour = 2, .rows = rgb,
                                    .exif_orientation = 6});
    files[1] = make_jpeg(W, H, 3, rgb, 8, 0);
    files[2] = make_png(&(png_spec){.w = W, .h = H, .depth = 8, .colour = 2, .rows = rgb});
    files[2].data[files[2].len / 2] ^= 0x10;
    clpad_decoded_image want[2] = {decode_ok(&files[0], NULL), decode_ok(&files[1], NULL)};
    pthread_t th[THREADS];
    thread_job jobs[THREADS];
    for (int k = 0; k < THREADS; k++) {
        jobs[k] = (thread_job){files, want, 0};
        assert_int_equal(pthread_create(&th[k], NULL, decode_many, &jobs[k]), 0);
    }
    for (int k = 0; k < THREADS; k++) {
        pthread_join(th[k], NULL);
        assert_int_equal(jobs[k].failures, 0);
    }
    for (int k = 0; k < 3; k++)
        free(files[k].data);
    clpad_decoded_image_free(&want[0]);
    clpad_decoded_image_free(&want[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),     cmocka_unit_test(test_png_channels),
        cmocka_unit_test(test_png_16bit),   cmocka_unit_test(test_jpeg_channels),
        cmocka_unit_test(test_orientation), cmocka_unit_test(test_scaling),
        cmocka_unit_test(test_corrupt),     cmocka_unit_test(test_limits),
        cmocka_unit_test(test_probe),       cmocka_unit_test(test_files),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
