/* Letterbox of YUV 4:2:0 frames (NV12, NV21, I420, YV12; docs/letterbox.md,
 * "YUV frames"):
 *  - the conversion of every (Y, U, V) triple on the CPU reference, against
 *    the test's own statement of OpenCV's BT.601 rule (exact) and against
 *    double-precision math for the other matrices and ranges (within 1);
 *  - random batches of frames of mixed sizes, strides and plane layouts:
 *    the YUV letterbox equals the test's own conversion followed by the
 *    letterbox of the RGB image (byte for byte, every option);
 *  - the errors (odd sizes, strides, NULL planes, pil-* kinds), which name
 *    the argument;
 *  - with an OpenCL device (CLPAD_DEVICE; the impl label runs it on each
 *    implementation): the device (host-pointer API and the enqueue API with
 *    the planes at odd offsets of one buffer) against the CPU reference.
 * Seed: CLPAD_TEST_SEED. */
#include "test_util.h"

#include <clpad_stream.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The test's own conversion -------------------------------------------------- */

/* OpenCV's YUV420 -> RGB for BT.601 limited, as its documentation and
 * source state it: 2^20 fixed point, coefficients 1.164, 1.596, -0.813,
 * -0.391, 2.018, Y clamped below at 16. */
static void opencv_rgb(int Y, int U, int V, int rgb[3])
{
    int y = (Y - 16 < 0 ? 0 : Y - 16) * 1220542 + (1 << 19), u = U - 128, v = V - 128;
    int s[3] = {y + 1673527 * v, y - 852492 * v - 409993 * u, y + 2116026 * u};
    for (int c = 0; c < 3; c++)
        rgb[c] = s[c] < 0 ? 0 : (s[c] >> 20) > 255 ? 255 : s[c] >> 20;
}

/* The exact real-number conversion, clamped to [0, 255]. */
static void exact_rgb(int matrix, int range, int Y, int U, int V, double rgb[3])
{
    static const double K[3][2] = {{0.299, 0.114}, {0.2126, 0.0722}, {0.2627, 0.0593}};
    double kr = K[matrix][0], kb = K[matrix][1], kg = 1 - kr - kb;
    bool lim = range == CLPAD_RANGE_LIMITED;
    double y = lim ? (Y - 16) * 255.0 / 219.0 : Y;
    double s = lim ? 255.0 / 224.0 : 1.0, u = (U - 128) * s, v = (V - 128) * s;
    double r = y + 2 * (1 - kr) * v, b = y + 2 * (1 - kb) * u;
    double g = y - 2 * kb * (1 - kb) / kg * u - 2 * kr * (1 - kr) / kg * v;
    double o[3] = {r, g, b};
    for (int c = 0; c < 3; c++)
        rgb[c] = o[c] < 0 ? 0 : o[c] > 255 ? 255 : o[c];
}

/* The stated rule of every matrix and range (docs/letterbox.md, "YUV
 * frames": {cy, crv, cgu, cgv, cbu} in 2^20 fixed point; test_every_triple
 * checks it against exact_rgb). */
static const int k_rule[3][2][5] = {
    {{1220542, 1673527, -409993, -852492, 2116026}, {1048576, 1470104, -360853, -748826, 1858077}},
    {{1220945, 1879825, -223607, -558796, 2215014}, {1048576, 1651297, -196424, -490864, 1945738}},
    {{1220945, 1760217, -196426, -682019, 2245811}, {1048576, 1546230, -172546, -599107, 1972791}},
};

static void rgb_of(int matrix, int range, int Y, int U, int V, unsigned char out[3])
{
    if (matrix == CLPAD_COLOR_BT601 && range == CLPAD_RANGE_LIMITED) {
        int c[3];
        opencv_rgb(Y, U, V, c);
        for (int k = 0; k < 3; k++)
            out[k] = (unsigned char)c[k];
        return;
    }
    const int *k = k_rule[matrix][range];
    int y = (Y - (range == CLPAD_RANGE_LIMITED ? 16 : 0)) * k[0] + (1 << 19), u = U - 128,
        v = V - 128;
    int s[3] = {y + k[1] * v, y + k[2] * u + k[3] * v, y + k[4] * u};
    for (int c = 0; c < 3; c++)
        out[c] = (unsigned char)(s[c] < 0 ? 0 : (s[c] >> 20) > 255 ? 255 : s[c] >> 20);
}

/* ---- Every triple ------------------------------------------------------------- */

/* Y of pixel k (0..3) of block b of the triple frame of side S. */
static int triple_y(int64_t b, int k, int S)
{
    int q = (int)(b >> 16), nq = S / 2 * (S / 2) >> 16; /* q in 0 .. nq - 1 */
    return S == 4096 ? 4 * q + k : (4 * q + k) * (256 / (4 * nq)) + (q & 3);
}

/* Under the sanitizers (the CI's second run of the suite) the sizes shrink:
 * the checks are the same, on fewer samples. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define YUV_SANITIZED 1
#else
#define YUV_SANITIZED 0
#endif

/* An NV12 frame of side S holds (Y, U, V) triples: block b = by * S/2 + bx
 * of 2 x 2 pixels has U = b mod 256, V = (b / 256) mod 256 and its k-th
 * pixel Y = triple_y(b, k): every triple at S = 4096 (BT.601 limited,
 * OpenCV's rule), a grid of every U, V and 64 Y values spread over 0..255
 * at S = 2048 (the other matrices and ranges, against the real-number
 * result); under the sanitizers every U, V and 16 values of Y (S = 1024). Letterboxed to its own size with nearest (the identity), u8
 * NHWC: each pixel's RGB. */
static void test_every_triple(void **state)
{
    (void)state;
    for (int m = 0; m < CLPAD_COLOR_MATRIX_COUNT; m++) {
        for (int r = 0; r < CLPAD_COLOR_RANGE_COUNT; r++) {
            int S = YUV_SANITIZED ? 1024
                    : m == CLPAD_COLOR_BT601 && r == CLPAD_RANGE_LIMITED ? 4096
                                                                          : 2048,
                B = S / 2;
            unsigned char *frame = malloc((size_t)S * S * 3 / 2), *out = malloc((size_t)S * S * 3);
            assert_non_null(frame);
            assert_non_null(out);
            for (int64_t b = 0; b < (int64_t)B * B; b++) {
                int64_t by = b / B, bx = b % B;
                for (int k = 0; k < 4; k++)
                    frame[(by * 2 + k / 2) * S + bx * 2 + k % 2] = (unsigned char)triple_y(b, k, S);
                frame[(int64_t)S * S + by * S + bx * 2] = (unsigned char)(b & 255);
                frame[(int64_t)S * S + by * S + bx * 2 + 1] = (unsigned char)((b >> 8) & 255);
            }
            clpad_image im = {.data = frame, .height = S, .width = S};
            clpad_letterbox_options o;
            clpad_letterbox_options_init(&o, S, S);
            o.interp = CLPAD_INTERP_NEAREST;
            o.dtype = CLPAD_U8;
            o.layout = CLPAD_LAYOUT_NHWC;
            o.input_format = CLPAD_INPUT_NV12;
            o.color_matrix = (clpad_color_matrix)m;
            o.color_range = (clpad_color_range)r;
            TU_ASSERT_OK(clpad_letterbox_cpu(&im, 1, &o, out, (size_t)S * S * 3, NULL));
            bool opencv = m == CLPAD_COLOR_BT601 && r == CLPAD_RANGE_LIMITED;
            double worst = 0;
            int64_t bad = 0;
            for (int64_t b = 0; b < (int64_t)B * B; b++) {
                int64_t by = b / B, bx = b % B;
                int U = (int)(b & 255), V = (int)((b >> 8) & 255);
                for (int k = 0; k < 4; k++) {
                    int64_t px = (by * 2 + k / 2) * S + bx * 2 + k % 2;
                    int Y = triple_y(b, k, S);
                    const unsigned char *got = out + px * 3;
                    if (opencv) {
                        int want[3];
                        opencv_rgb(Y, U, V, want);
                        for (int c = 0; c < 3; c++)
                            bad += got[c] != want[c];
                    } else {
                        double want[3];
                        exact_rgb(m, r, Y, U, V, want);
                        for (int c = 0; c < 3; c++)
                            worst = fmax(worst, fabs(got[c] - want[c]));
                    }
                }
            }
            printf("%s %s: %s\n", clpad_color_matrix_name((clpad_color_matrix)m),
                   clpad_color_range_name((clpad_color_range)r),
                   opencv ? "OpenCV's rule" : "largest distance to the real result");
            if (opencv) {
                printf("  %lld samples differ\n", (long long)bad);
                assert_int_equal(bad, 0);
            } else {
                printf("  %.4f\n", worst);
                assert_true(worst < 1.0);
            }
            free(frame);
            free(out);
        }
    }
}

/* ---- Random batches ------------------------------------------------------------- */

/* (more than the 8 frames a host call on a CPU device reads in place, so
 * that batches mix frames read in place with gathered ones) */
enum { MAX_FRAMES = 11 };

typedef struct yuv_case {
    size_t n;
    clpad_image im[MAX_FRAMES];
    unsigned char *buf[MAX_FRAMES][3]; /* owned: Y (or the whole frame), plane 1, plane 2 */
    unsigned char *rgb[MAX_FRAMES];    /* the test's conversion, h x w x 3 */
    clpad_letterbox_options o;
} yuv_case;

static void yuv_case_free(yuv_case *c)
{
    for (size_t i = 0; i < c->n; i++) {
        for (int k = 0; k < 3; k++)
            free(c->buf[i][k]);
        free(c->rgb[i]);
    }
    memset(c, 0, sizeof *c);
}

/* Frames of given sizes in a given format (yuv_random_case's `fixed`). */
typedef struct {
    int fmt;                     /* clpad_input_format */
    size_t n;                    /* frames */
    int64_t size[MAX_FRAMES][2]; /* height, width */
} yuv_fixed;

/* A random case: frames of even sizes up to max_side, their layout (one
 * buffer or separate planes), strides with padding, and letterbox options.
 * full: MAX_FRAMES frames, all in one buffer but the last (the host path's
 * frames read in place, then gathered ones). fixed (or NULL): the format
 * and the frames' sizes. */
static void yuv_random_case(yuv_case *c, uint64_t *rng, int64_t max_side, int64_t max_out,
                            bool full, const yuv_fixed *fixed)
{
    memset(c, 0, sizeof *c);
    clpad_letterbox_options_init(&c->o, tu_range(rng, 1, max_out), tu_range(rng, 1, max_out));
    int fmt = (int)tu_range(rng, CLPAD_INPUT_NV12, CLPAD_INPUT_YV12);
    if (fixed)
        fmt = fixed->fmt;
    bool semi = fmt == CLPAD_INPUT_NV12 || fmt == CLPAD_INPUT_NV21;
    c->o.input_format = (clpad_input_format)fmt;
    c->o.color_matrix = (clpad_color_matrix)tu_range(rng, 0, CLPAD_COLOR_MATRIX_COUNT - 1);
    c->o.color_range = (clpad_color_range)tu_range(rng, 0, CLPAD_COLOR_RANGE_COUNT - 1);
    c->o.interp = (clpad_interp)tu_range(rng, 0, 1); /* bilinear, nearest */
    c->o.placement = (clpad_placement)tu_range(rng, 0, CLPAD_PLACEMENT_COUNT - 1);
    c->o.scaleup = tu_range(rng, 0, 3) != 0;
    c->o.pad_mode = (clpad_pad_mode)tu_range(rng, 0, CLPAD_PAD_MODE_COUNT - 1);
    c->o.swap_rb = (int)tu_range(rng, 0, 1);
    for (int k = 0; k < 3; k++)
        c->o.pad_value[k] = (uint8_t)tu_range(rng, 0, 255);
    static const clpad_dtype dts[3] = {CLPAD_U8, CLPAD_F16, CLPAD_F32};
    c->o.dtype = dts[tu_range(rng, 0, 2)];
    c->o.layout = (clpad_layout)tu_range(rng, 0, 1);
    c->o.fit = (clpad_fit)tu_range(rng, 0, CLPAD_FIT_COUNT - 1);
    if (tu_range(rng, 0, 1))
        c->o.scale = 1.0f / 255.0f;
    c->n = full ? MAX_FRAMES : (size_t)tu_range(rng, 1, tu_range(rng, 0, 3) ? 6 : MAX_FRAMES);
    if (fixed)
        c->n = fixed->n;
    for (size_t i = 0; i < c->n; i++) {
        int64_t h = 2 * tu_range(rng, 1, max_side / 2), w = 2 * tu_range(rng, 1, max_side / 2);
        if (fixed)
            h = fixed->size[i][0], w = fixed->size[i][1];
        int64_t ys = w + (tu_range(rng, 0, 1) ? 0 : 2 * tu_range(rng, 1, 9));
        int64_t cw = semi ? w : w / 2, ch = h / 2;
        int64_t s1 = tu_range(rng, 0, 1) ? 0 : cw + tu_range(rng, 1, 13);
        int64_t s2 = semi ? 0 : tu_range(rng, 0, 1) ? 0 : cw + tu_range(rng, 1, 13);
        int64_t e1 = s1 ? s1 : semi ? ys : ys / 2, e2 = s2 ? s2 : semi ? ys : ys / 2;
        bool sep = full ? i == c->n - 1 : tu_range(rng, 0, 1);
        clpad_image *im = &c->im[i];
        *im = (clpad_image){.height = h, .width = w, .row_stride = ys == w ? 0 : ys,
                            .channels = tu_range(rng, 0, 1) ? 3 : 0, .separate_planes = sep};
        im->plane_stride[0] = s1;
        im->plane_stride[1] = s2;
        size_t ybytes = (size_t)(h * ys), b1 = (size_t)(ch * e1), b2 = semi ? 0 : (size_t)(ch * e2);
        const unsigned char *Yp, *P1, *P2;
        if (sep) {
            for (int k = 0; k < 3; k++) {
                size_t sz = k == 0 ? ybytes : k == 1 ? b1 : b2;
                c->buf[i][k] = malloc(sz ? sz : 1);
                tu_fill(c->buf[i][k], sz, rng);
            }
            im->data = Yp = c->buf[i][0];
            im->planes[0] = P1 = c->buf[i][1];
            im->planes[1] = P2 = semi ? NULL : c->buf[i][2];
        } else {
            c->buf[i][0] = malloc(ybytes + b1 + b2);
            tu_fill(c->buf[i][0], ybytes + b1 + b2, rng);
            im->data = Yp = c->buf[i][0];
            P1 = Yp + ybytes;
            P2 = P1 + b1;
        }
        /* the test's conversion of the frame */
        c->rgb[i] = malloc((size_t)(h * w * 3));
        for (int64_t y = 0; y < h; y++)
            for (int64_t x = 0; x < w; x++) {
                int Y = Yp[y * ys + x], U, V;
                int64_t cy = y / 2, cx = x / 2;
                if (semi) {
                    int a = P1[cy * e1 + 2 * cx], b = P1[cy * e1 + 2 * cx + 1];
                    U = fmt == CLPAD_INPUT_NV12 ? a : b;
                    V = fmt == CLPAD_INPUT_NV12 ? b : a;
                } else {
                    int a = P1[cy * e1 + cx], b = P2[cy * e2 + cx];
                    U = fmt == CLPAD_INPUT_I420 ? a : b;
                    V = fmt == CLPAD_INPUT_I420 ? b : a;
                }
                rgb_of(c->o.color_matrix, c->o.color_range, Y, U, V,
                       c->rgb[i] + (y * w + x) * 3);
            }
    }
}

static size_t yuv_out_bytes(const yuv_case *c)
{
    int64_t s[4];
    if (clpad_letterbox_plan(c->im, c->n, &c->o, s, NULL))
        return 0;
    return (size_t)(s[0] * s[1] * s[2] * s[3]) * clpad_dtype_size(c->o.dtype);
}

static const char *yuv_case_str(const yuv_case *c, char *buf, size_t len)
{
    size_t u = (size_t)snprintf(buf, len, "%s %s %s out %lldx%lld %s %s %s %s %s swap=%d:",
                                clpad_input_format_name(c->o.input_format),
                                clpad_color_matrix_name(c->o.color_matrix),
                                clpad_color_range_name(c->o.color_range),
                                (long long)c->o.out_height, (long long)c->o.out_width,
                                clpad_interp_name(c->o.interp), clpad_fit_name(c->o.fit),
                                clpad_pad_mode_name(c->o.pad_mode), clpad_dtype_name(c->o.dtype),
                                clpad_layout_name(c->o.layout), c->o.swap_rb);
    for (size_t i = 0; i < c->n && u < len; i++)
        u += (size_t)snprintf(buf + u, len - u, " %lldx%lld/%lld,%lld,%lld%s",
                              (long long)c->im[i].height, (long long)c->im[i].width,
                              (long long)c->im[i].row_stride, (long long)c->im[i].plane_stride[0],
                              (long long)c->im[i].plane_stride[1],
                              c->im[i].separate_planes ? " sep" : "");
    return buf;
}

/* The YUV letterbox against the test's conversion + the RGB letterbox. */
static void test_random_against_rgb(void **state)
{
    (void)state;
    uint64_t seed = tu_seed(), rng = seed;
    int checked = 0;
    int cases = YUV_SANITIZED ? 40 : 150;
    for (int k = 0; k < cases; k++) {
        yuv_case c;
        yuv_random_case(&c, &rng, 64, 48, false, NULL);
        size_t nout = yuv_out_bytes(&c);
        if (nout) {
            clpad_image rgb[MAX_FRAMES];
            clpad_letterbox_options ro = c.o;
            ro.input_format = CLPAD_INPUT_PACKED;
            for (size_t i = 0; i < c.n; i++)
                rgb[i] = (clpad_image){.data = c.rgb[i], .height = c.im[i].height,
                                       .width = c.im[i].width, .channels = 3};
            unsigned char *want = malloc(nout), *got = malloc(nout);
            TU_ASSERT_OK(clpad_letterbox_cpu(rgb, c.n, &ro, want, nout, NULL));
            memset(got, 0xA5, nout);
            TU_ASSERT_OK(clpad_letterbox_cpu(c.im, c.n, &c.o, got, nout, NULL));
            if (memcmp(want, got, nout)) {
                char buf[1024];
                fail_msg("seed %llu case %d differs: %s", (unsigned long long)seed, k,
                         yuv_case_str(&c, buf, sizeof buf));
            }
            free(want);
            free(got);
            checked++;
        }
        yuv_case_free(&c);
    }
    printf("%d random batches equal the conversion + the RGB letterbox (seed %llu)\n", checked,
           (unsigned long long)seed);
    assert_true(checked > cases * 2 / 3);
}

/* ---- Errors ------------------------------------------------------------------ */

static void expect_error(const clpad_image *im, const clpad_letterbox_options *o,
                         clpad_status want, const char *needle)
{
    unsigned char out[64];
    memset(out, 0x5A, sizeof out);
    clpad_status st = clpad_letterbox_cpu(im, 1, o, out, sizeof out, NULL);
    assert_int_equal(st, want);
    const char *msg = clpad_last_error();
    if (!strstr(msg, needle))
        fail_msg("message '%s' lacks '%s'", msg, needle);
    for (size_t i = 0; i < sizeof out; i++)
        assert_int_equal(out[i], 0x5A); /* nothing written */
}

static void test_errors(void **state)
{
    (void)state;
    static unsigned char px[64 * 64 * 2];
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 2, 2);
    o.dtype = CLPAD_U8;
    o.input_format = CLPAD_INPUT_NV12;
    clpad_image im = {.data = px, .height = 4, .width = 5};
    expect_error(&im, &o, CLPAD_ERR_INVALID_SHAPE, "width = 5 is odd");
    im = (clpad_image){.data = px, .height = 7, .width = 4};
    expect_error(&im, &o, CLPAD_ERR_INVALID_SHAPE, "height = 7 is odd");
    im = (clpad_image){.data = px, .height = 4, .width = 4, .channels = 1};
    expect_error(&im, &o, CLPAD_ERR_INVALID_SHAPE, "channels = 1");
    im = (clpad_image){.data = px, .height = 4, .width = 4, .row_stride = 3};
    expect_error(&im, &o, CLPAD_ERR_INVALID_SHAPE, "row_stride 3");
    im = (clpad_image){.data = px, .height = 4, .width = 4, .plane_stride = {2, 0}};
    expect_error(&im, &o, CLPAD_ERR_INVALID_SHAPE, "plane_stride[0] = 2");
    im = (clpad_image){.data = px, .height = 4, .width = 4, .separate_planes = 1};
    expect_error(&im, &o, CLPAD_ERR_INVALID_ARGUMENT, "planes[0] is NULL");
    o.input_format = CLPAD_INPUT_I420;
    im = (clpad_image){.data = px, .height = 4, .width = 4, .row_stride = 5};
    expect_error(&im, &o, CLPAD_ERR_INVALID_SHAPE, "plane_stride[0] = 0 means half");
    im = (clpad_image){.data = px, .height = 4, .width = 4, .separate_planes = 1,
                       .planes = {px, NULL}};
    expect_error(&im, &o, CLPAD_ERR_INVALID_ARGUMENT, "planes[1] is NULL");
    im = (clpad_image){.data = px, .height = 4, .width = 4};
    o.interp = CLPAD_INTERP_PIL_BICUBIC;
    expect_error(&im, &o, CLPAD_ERR_UNSUPPORTED, "input_format i420");
    o.interp = CLPAD_INTERP_BILINEAR;
    o.input_format = (clpad_input_format)9;
    expect_error(&im, &o, CLPAD_ERR_INVALID_ARGUMENT, "input_format");
    o.input_format = CLPAD_INPUT_NV12;
    o.color_matrix = (clpad_color_matrix)3;
    expect_error(&im, &o, CLPAD_ERR_INVALID_ARGUMENT, "color_matrix");
    /* the stream decodes files into packed images: YUV frames refused */
    clpad_context *cpu = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_CPU_ONLY, &cpu));
    clpad_letterbox_stream *stream = NULL;
    const char *paths[1] = {"none.png"};
    clpad_letterbox_options_init(&o, 8, 8);
    o.input_format = CLPAD_INPUT_NV12;
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(cpu, paths, 1, &o, NULL, &stream),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "input_format nv12"));
    assert_null(stream);
    clpad_context_destroy(cpu);
    /* names */
    clpad_input_format f;
    TU_ASSERT_OK(clpad_input_format_from_name("NV21", &f));
    assert_int_equal(f, CLPAD_INPUT_NV21);
    TU_ASSERT_OK(clpad_input_format_from_name("yuv420p", &f));
    assert_int_equal(f, CLPAD_INPUT_I420);
    TU_ASSERT_STATUS(clpad_input_format_from_name("nv16", &f), CLPAD_ERR_PARSE);
    clpad_color_matrix m;
    TU_ASSERT_OK(clpad_color_matrix_from_name("BT.709", &m));
    assert_int_equal(m, CLPAD_COLOR_BT709);
    clpad_color_range r;
    TU_ASSERT_OK(clpad_color_range_from_name("full", &r));
    assert_int_equal(r, CLPAD_RANGE_FULL);
    assert_string_equal(clpad_input_format_name(CLPAD_INPUT_YV12), "yv12");
}

/* ---- The device ----------------------------------------------------------------- */

static clpad_context *g_ctx;

/* The case's frames packed at odd offsets of one device buffer, every plane
 * separate (plane_offset), through clpad_enqueue_letterbox. */
static void enqueue_case(const yuv_case *c, unsigned char *got, size_t nout, uint64_t *rng)
{
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_command_queue q = clpad_context_queue(g_ctx);
    bool semi = c->o.input_format == CLPAD_INPUT_NV12 || c->o.input_format == CLPAD_INPUT_NV21;
    clpad_image im[MAX_FRAMES];
    size_t total = 0, at[MAX_FRAMES][3], len[MAX_FRAMES][3];
    const unsigned char *from[MAX_FRAMES][3];
    for (size_t i = 0; i < c->n; i++) {
        im[i] = c->im[i];
        int64_t ys = im[i].row_stride ? im[i].row_stride : im[i].width;
        int64_t e1 = im[i].plane_stride[0] ? im[i].plane_stride[0] : semi ? ys : ys / 2;
        int64_t e2 = im[i].plane_stride[1] ? im[i].plane_stride[1] : semi ? ys : ys / 2;
        const unsigned char *Y = c->im[i].data;
        from[i][0] = Y;
        from[i][1] = c->im[i].separate_planes ? c->im[i].planes[0] : Y + im[i].height * ys;
        from[i][2] = c->im[i].separate_planes ? c->im[i].planes[1]
                                              : from[i][1] + im[i].height / 2 * e1;
        len[i][0] = (size_t)(im[i].height * ys);
        len[i][1] = (size_t)(im[i].height / 2 * e1);
        len[i][2] = semi ? 0 : (size_t)(im[i].height / 2 * e2);
        for (int k = 0; k < 3; k++) {
            total += (size_t)tu_range(rng, 0, 5);
            at[i][k] = total;
            total += len[i][k];
        }
        im[i].data = NULL;
        im[i].planes[0] = im[i].planes[1] = NULL;
        im[i].offset = at[i][0];
        im[i].plane_offset[0] = at[i][1];
        im[i].plane_offset[1] = at[i][2];
        im[i].separate_planes = 1;
    }
    unsigned char *packed = malloc(total + 1);
    memset(packed, 0x33, total + 1);
    for (size_t i = 0; i < c->n; i++)
        for (int k = 0; k < 3; k++)
            if (len[i][k])
                memcpy(packed + at[i][k], from[i][k], len[i][k]);
    cl_int err;
    cl_mem bin = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, total + 1, packed,
                                &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem bout = clCreateBuffer(cl, CL_MEM_READ_WRITE, nout, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event ev = NULL;
    uint64_t launches = clpad_context_launches(g_ctx);
    TU_ASSERT_OK(clpad_enqueue_letterbox(g_ctx, im, c->n, &c->o, bin, bout, 0, NULL, NULL, 0, NULL,
                                         &ev));
    assert_int_equal(clpad_context_launches(g_ctx) - launches, 1); /* one launch per batch */
    assert_int_equal(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, nout, got, 1, &ev, NULL),
                     CL_SUCCESS);
    clReleaseEvent(ev);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(packed);
}

/* The case on the device, through the host-pointer and the enqueue paths,
 * against the CPU reference (k: the case's number in the messages). */
static void device_case(const yuv_case *c, uint64_t *rng, uint64_t seed, int k)
{
    size_t nout = yuv_out_bytes(c);
    unsigned char *want = malloc(nout), *got = malloc(nout);
    TU_ASSERT_OK(clpad_letterbox_cpu(c->im, c->n, &c->o, want, nout, NULL));
    char buf[1024];
    memset(got, 0xA5, nout);
    TU_ASSERT_OK(clpad_letterbox(g_ctx, c->im, c->n, &c->o, got, nout, NULL, NULL));
    if (memcmp(want, got, nout))
        fail_msg("host-pointer device path differs (seed %llu case %d): %s",
                 (unsigned long long)seed, k, yuv_case_str(c, buf, sizeof buf));
    memset(got, 0xA5, nout);
    enqueue_case(c, got, nout, rng);
    if (memcmp(want, got, nout))
        fail_msg("enqueue path differs (seed %llu case %d): %s", (unsigned long long)seed, k,
                 yuv_case_str(c, buf, sizeof buf));
    free(want);
    free(got);
}

/* Frames stretched by ratios whose column tables have runs of x0 stepping
 * by 2 (kernels/letterbox.cl, lb_yuv_chunk: both columns of a pixel in one
 * chroma sample, x0 even, weights 1024 at 2:1; x0 odd where the frame is
 * 2 W - 2 wide) or whose second weights are 0 (3 W wide, nearest): the
 * kernel's forms for those, against the CPU reference, every format (case
 * numbers from 1000). */
static void device_ratio_cases(uint64_t *rng, uint64_t seed, bool sim)
{
    /* chunks of 64 pixels and a short one; 2 W + 2 wide: x0 = 2 d for d below
     * W / 4 with weights other than 1024 */
    int64_t W = sim ? 264 : 520, H = 6;
    for (int fmt = CLPAD_INPUT_NV12; fmt <= CLPAD_INPUT_YV12; fmt++)
        for (int interp = 0; interp < 2; interp++) {
            yuv_fixed fx = {.fmt = fmt, .n = 4,
                            .size = {{2 * H, 2 * W}, {2 * H - 2, 2 * W - 2}, {3 * H, 3 * W},
                                     {2 * H, 2 * W + 2}}};
            yuv_case c;
            yuv_random_case(&c, rng, 2, 1, false, &fx); /* (random options, then) */
            c.o.out_height = H, c.o.out_width = W;
            c.o.interp = interp ? CLPAD_INTERP_NEAREST : CLPAD_INTERP_BILINEAR;
            c.o.fit = CLPAD_FIT_STRETCH;
            assert_true(yuv_out_bytes(&c) > 0);
            device_case(&c, rng, seed, 1000 + fmt * 2 + interp);
            yuv_case_free(&c);
        }
}

static void test_device(void **state)
{
    (void)state;
    if (!g_ctx)
        skip();
    uint64_t seed = tu_seed() ^ 0xD5, rng = seed;
    /* Oclgrind simulates every work-item: fewer and smaller batches */
    bool sim = strstr(clpad_context_platform_name(g_ctx), "Oclgrind") != NULL;
    int cases = sim ? 12 : YUV_SANITIZED ? 10 : 40, checked = 0;
    for (int k = 0; k < cases; k++) {
        yuv_case c;
        yuv_random_case(&c, &rng, k % 4 == 3 && !sim ? 300 : 40, k % 4 == 3 && !sim ? 160 : 40,
                        k % 6 == 5, NULL);
        if (yuv_out_bytes(&c)) {
            device_case(&c, &rng, seed, k);
            checked++;
        }
        yuv_case_free(&c);
    }
    device_ratio_cases(&rng, seed, sim);
    /* one frame twice and again further on (the host path wraps a frame's
     * memory once: the repeats are gathered) */
    yuv_case c;
    yuv_random_case(&c, &rng, 40, 40, true, NULL);
    c.o.pad_mode = CLPAD_PAD_CONSTANT; /* any border fits the frames' sizes */
    c.im[1] = c.im[0];
    c.im[4] = c.im[0];
    size_t nout = yuv_out_bytes(&c);
    unsigned char *want = malloc(nout ? nout : 1), *got = malloc(nout ? nout : 1);
    TU_ASSERT_OK(clpad_letterbox_cpu(c.im, c.n, &c.o, want, nout, NULL));
    memset(got, 0xA5, nout);
    TU_ASSERT_OK(clpad_letterbox(g_ctx, c.im, c.n, &c.o, got, nout, NULL, NULL));
    assert_memory_equal(want, got, nout);
    free(want);
    free(got);
    yuv_case_free(&c);
    printf("%d batches on %s equal the CPU reference (seed %llu)\n", checked + 1,
           clpad_context_device_name(g_ctx), (unsigned long long)seed);
}

int main(void)
{
    /* the device part only where a device is named or found; the CPU parts
     * always (CLPAD_TEST_DEVICE_ONLY=1: the impl runs, only the device) */
    bool device_only = getenv("CLPAD_TEST_DEVICE_ONLY") != NULL;
    clpad_context *ctx = NULL;
    if (device_only)
        ctx = tu_device_context(); /* exits 77 without a device */
    else if (tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY,
                               &ctx))
        ctx = NULL;
    g_ctx = ctx;
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_every_triple),
        cmocka_unit_test(test_random_against_rgb),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_device),
    };
    const struct CMUnitTest dev[] = {cmocka_unit_test(test_device)};
    int rc = device_only ? cmocka_run_group_tests(dev, NULL, NULL)
                         : cmocka_run_group_tests(all, NULL, NULL);
    clpad_context_destroy(ctx);
    return rc;
}
