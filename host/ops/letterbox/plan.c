/* Letterbox: names of the options, validation, each image's transform, the
 * resize coefficient tables (OpenCV's INTER_LINEAR and INTER_NEAREST
 * arithmetic) and the value table (docs/letterbox.md).
 *
 * Built with -ffp-contract=off (cmake/Sources.cmake): the coefficients and
 * the normalisation are defined operation by operation, and a fused
 * multiply-add would round differently. */
#include "ops/letterbox/letterbox.h"

#include "coords.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Names ----------------------------------------------------------------- */

/* A name table: each value's canonical name first, then its aliases. */
typedef struct lb_name {
    const char *name;
    int value;
} lb_name;

static const char *lb_name_of(const lb_name *t, size_t n, int value)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].value == value)
            return t[i].name;
    return NULL;
}

/* `name`, case-insensitive, in t. fn names the function in the NULL-argument
 * error; `what` and `choices` word the unknown-name one. */
static clpad_status lb_from_name(const char *fn, const char *what, const char *choices,
                                 const lb_name *t, size_t n, const char *name, const void *out,
                                 int *value)
{
    clpad__clear_error();
    if (!name || !out)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(name, t[i].name)) {
            *value = t[i].value;
            return CLPAD_OK;
        }
    return clpad__fail(CLPAD_ERR_PARSE, "unknown %s '%s' (%s)", what, name, choices);
}

/* clpad_<prefix>_name and clpad_<prefix>_from_name over the table given. */
#define LB_NAME_FUNCS(prefix, type, what, choices, ...)                                         \
    static const lb_name prefix##_names[] = {__VA_ARGS__};                                    \
    const char *clpad_##prefix##_name(type v)                                                   \
    {                                                                                         \
        return lb_name_of(prefix##_names, sizeof prefix##_names / sizeof *prefix##_names,     \
                          (int)v);                                                            \
    }                                                                                         \
    clpad_status clpad_##prefix##_from_name(const char *name, type *out)                      \
    {                                                                                         \
        int v = 0;                                                                            \
        clpad_status st = lb_from_name(#prefix "_from_name", what, choices, prefix##_names,    \
                                       sizeof prefix##_names / sizeof *prefix##_names, name,  \
                                       out, &v);                                              \
        if (!st)                                                                              \
            *out = (type)v;                                                                   \
        return st;                                                                            \
    }

LB_NAME_FUNCS(interp, clpad_interp, "interpolation",
              "bilinear, nearest, pil-bilinear, pil-bicubic, pil-lanczos, area, bicubic",
              {"bilinear", CLPAD_INTERP_BILINEAR}, {"nearest", CLPAD_INTERP_NEAREST},
              {"pil-bilinear", CLPAD_INTERP_PIL_BILINEAR},
              {"pil-bicubic", CLPAD_INTERP_PIL_BICUBIC},
              {"pil-lanczos", CLPAD_INTERP_PIL_LANCZOS}, {"linear", CLPAD_INTERP_BILINEAR},
              {"pil_bilinear", CLPAD_INTERP_PIL_BILINEAR},
              {"pil_bicubic", CLPAD_INTERP_PIL_BICUBIC},
              {"pil_lanczos", CLPAD_INTERP_PIL_LANCZOS}, {"area", CLPAD_INTERP_AREA},
              {"bicubic", CLPAD_INTERP_BICUBIC}, {"cubic", CLPAD_INTERP_BICUBIC})

LB_NAME_FUNCS(placement, clpad_placement, "placement", "center, top-left or end",
              {"center", CLPAD_PLACE_CENTER}, {"top-left", CLPAD_PLACE_TOP_LEFT},
              {"centre", CLPAD_PLACE_CENTER}, {"top_left", CLPAD_PLACE_TOP_LEFT},
              {"end", CLPAD_PLACE_TOP_LEFT}) /* (= CLPAD_PLACE_END) */

LB_NAME_FUNCS(fit, clpad_fit, "fit", "contain, cover, stretch", {"contain", CLPAD_FIT_CONTAIN},
              {"cover", CLPAD_FIT_COVER}, {"stretch", CLPAD_FIT_STRETCH},
              {"letterbox", CLPAD_FIT_CONTAIN}, {"crop", CLPAD_FIT_COVER},
              {"fill", CLPAD_FIT_STRETCH})

LB_NAME_FUNCS(input_format, clpad_input_format, "input format", "packed, nv12, nv21, i420, yv12",
              {"packed", CLPAD_INPUT_PACKED}, {"nv12", CLPAD_INPUT_NV12},
              {"nv21", CLPAD_INPUT_NV21}, {"i420", CLPAD_INPUT_I420}, {"yv12", CLPAD_INPUT_YV12},
              {"rgb", CLPAD_INPUT_PACKED}, {"yuv420p", CLPAD_INPUT_I420})

LB_NAME_FUNCS(color_matrix, clpad_color_matrix, "color matrix", "bt601, bt709, bt2020",
              {"bt601", CLPAD_COLOR_BT601}, {"bt709", CLPAD_COLOR_BT709},
              {"bt2020", CLPAD_COLOR_BT2020}, {"bt.601", CLPAD_COLOR_BT601},
              {"bt.709", CLPAD_COLOR_BT709}, {"bt.2020", CLPAD_COLOR_BT2020})

LB_NAME_FUNCS(color_range, clpad_color_range, "color range", "limited, full",
              {"limited", CLPAD_RANGE_LIMITED}, {"full", CLPAD_RANGE_FULL},
              {"tv", CLPAD_RANGE_LIMITED}, {"mpeg", CLPAD_RANGE_LIMITED},
              {"pc", CLPAD_RANGE_FULL}, {"jpeg", CLPAD_RANGE_FULL})

LB_NAME_FUNCS(layout, clpad_layout, "layout", "NCHW, NHWC", {"NCHW", CLPAD_LAYOUT_NCHW},
              {"NHWC", CLPAD_LAYOUT_NHWC})

void clpad_letterbox_options_init(clpad_letterbox_options *o, int64_t out_height,
                                  int64_t out_width)
{
    _Static_assert(LB_MAXC == 4, "the per-channel defaults below list 4 channels");
    if (!clpad__sized_init(o, sizeof *o))
        return;
    *o = (clpad_letterbox_options){.size = sizeof *o,
                                   .out_height = out_height,
                                   .out_width = out_width,
                                   .interp = CLPAD_INTERP_BILINEAR,
                                   .placement = CLPAD_PLACE_CENTER,
                                   .scaleup = 1,
                                   .pad_mode = CLPAD_PAD_CONSTANT,
                                   .pad_value = {114, 114, 114, 114},
                                   .scale = 1.0f,
                                   .std = {1.0f, 1.0f, 1.0f, 1.0f},
                                   .dtype = CLPAD_F32,
                                   .layout = CLPAD_LAYOUT_NCHW,
                                   .fit = CLPAD_FIT_CONTAIN,
                                   .divisor = 1.0f,
                                   .pil_version = 13};
}

void clpad_letterbox_transform_init(clpad_letterbox_transform *t)
{
    clpad__sized_init(t, sizeof *t);
}

void clpad__lb_put_transforms(const clpad_image *images, size_t n,
                              const clpad_letterbox_options *o, int64_t H, int64_t W,
                              clpad_letterbox_transform *transforms)
{
    size_t stride = transforms && n > 0 ? transforms[0].size : 0;
    for (size_t i = 0; stride && i < n; i++) {
        clpad_letterbox_transform t;
        clpad__lb_image_transform(&images[i], o, H, W, &t);
        clpad__sized_put((unsigned char *)transforms + i * stride, stride, &t, sizeof t);
    }
}

/* ---- Size and placement ---------------------------------------------------------- */

/* The resized size and the ratios of an image of h x w (no placement). */
static void lb_size(int64_t h, int64_t w, const clpad_letterbox_options *o,
                    clpad_letterbox_transform *t)
{
    double ry = (double)o->out_height / (double)h, rx = (double)o->out_width / (double)w;
    int64_t nh, nw;
    if (o->resize_shorter > 0) {
        /* torchvision's Resize(S) (transforms/functional.py,
         * _compute_resized_output_size): the shorter side S, the longer
         * int(S * long / short), a true division truncated */
        int64_t S = o->resize_shorter, sh = h < w ? h : w, lg = h < w ? w : h;
        int64_t nl = (int64_t)((double)(S * lg) / (double)sh);
        nh = w <= h ? nl : S;
        nw = w <= h ? S : nl;
        t->scale = (double)S / (double)sh;
        t->resized_height = nh;
        t->resized_width = nw;
        t->scale_y = (double)nh / (double)h;
        t->scale_x = (double)nw / (double)w;
        return;
    }
    if (o->fit == CLPAD_FIT_STRETCH) {
        /* Ultralytics' scaleFill: the slot's size whatever scaleup says */
        t->scale = ry < rx ? ry : rx;
        t->resized_height = o->out_height;
        t->resized_width = o->out_width;
        t->scale_y = ry;
        t->scale_x = rx;
        return;
    }
    /* Ultralytics' LetterBox: r = min(H_out / h, W_out / w) in double
     * precision (cover: the max), new size round(w * r) with Python's round
     * (half to even: rint in the default rounding mode); never 0
     * (Ultralytics would hand cv2.resize an empty size there). */
    double r = o->fit == CLPAD_FIT_COVER ? (ry > rx ? ry : rx) : (ry < rx ? ry : rx);
    if (!o->scaleup && r > 1.0)
        r = 1.0;
    nh = (int64_t)rint((double)h * r);
    nw = (int64_t)rint((double)w * r);
    if (nh < 1)
        nh = 1;
    if (nw < 1)
        nw = 1;
    /* contain: w * r <= W_out * (1 + 2^-52) < W_out + 1/2: never larger
     * than the slot */
    if (o->fit == CLPAD_FIT_CONTAIN && nh > o->out_height)
        nh = o->out_height;
    if (o->fit == CLPAD_FIT_CONTAIN && nw > o->out_width)
        nw = o->out_width;
    t->scale = r;
    t->resized_height = nh;
    t->resized_width = nw;
    t->scale_y = r;
    t->scale_x = r;
}

/* The offset of a resized axis of n samples in a slot axis of S: centred,
 * the resized image smaller (a border: the odd pixel after it, as
 * Ultralytics' round(d / 2 - 0.1)) or larger (a crop: torchvision's
 * CenterCrop, top = int(round((n - S) / 2.0)), half to even); or 0. */
static int64_t lb_offset(bool center, int64_t n, int64_t S)
{
    if (!center)
        return 0;
    if (n <= S)
        return (S - n) / 2;
    return -(int64_t)rint((double)(n - S) / 2.0);
}

void clpad__lb_transform(int64_t h, int64_t w, const clpad_letterbox_options *o, int64_t H,
                         int64_t W, clpad_letterbox_transform *t)
{
    lb_size(h, w, o, t);
    bool center = o->placement == CLPAD_PLACE_CENTER;
    t->pad_top = lb_offset(center, t->resized_height, H);
    t->pad_left = lb_offset(center, t->resized_width, W);
}

static void lb_geometry_size(const clpad_image *im, int64_t *h, int64_t *w)
{
    bool own = im->geometry_height > 0 && im->geometry_width > 0;
    *h = own ? im->geometry_height : im->height;
    *w = own ? im->geometry_width : im->width;
}

void clpad__lb_image_transform(const clpad_image *im, const clpad_letterbox_options *o,
                               int64_t H, int64_t W, clpad_letterbox_transform *t)
{
    int64_t h, w;
    lb_geometry_size(im, &h, &w);
    clpad__lb_transform(h, w, o, H, W, t);
}

void clpad__lb_slot(const clpad_image *images, size_t n, const clpad_letterbox_options *o,
                    int64_t *H, int64_t *W)
{
    *H = o->out_height;
    *W = o->out_width;
    if (o->stride < 1 || o->fit != CLPAD_FIT_CONTAIN || n == 0)
        return;
    /* Ultralytics' LetterBox with auto: the padding of each axis reduced to
     * its remainder modulo the stride; a batch takes its largest slot */
    int64_t mh = 1, mw = 1;
    for (size_t i = 0; i < n; i++) {
        int64_t h, w;
        clpad_letterbox_transform t;
        lb_geometry_size(&images[i], &h, &w);
        lb_size(h, w, o, &t);
        int64_t sh = t.resized_height + (o->out_height - t.resized_height) % o->stride;
        int64_t sw = t.resized_width + (o->out_width - t.resized_width) % o->stride;
        mh = sh > mh ? sh : mh;
        mw = sw > mw ? sw : mw;
    }
    *H = mh;
    *W = mw;
}

/* ---- Validation ------------------------------------------------------------------- */

/* "letterbox: invalid <what> <value>" unless 0 <= value < count. */
static clpad_status lb_check_enum(const char *what, int value, int count)
{
    if ((unsigned)value >= (unsigned)count)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox: invalid %s %d", what, value);
    return CLPAD_OK;
}

/* An option `name` of one fit (`needs`): 0 (off) or 1 .. 2^31 - 1, and
 * non-zero only with that fit; the message for another fit reads
 * "<name> = <value> <before><fit's name><after>". */
static clpad_status check_fit_count(const char *name, int64_t value, clpad_fit fit,
                                    clpad_fit needs, const char *before, const char *after)
{
    if (value < 0 || value > INT32_MAX)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox: %s = %lld: 0 (off) or 1 .. 2^31 - 1", name,
                           (long long)value);
    if (value && fit != needs)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox: %s = %lld %s%s%s", name,
                           (long long)value, before, clpad_fit_name(fit), after);
    return CLPAD_OK;
}

static clpad_status check_options(const clpad_letterbox_options *o)
{
    if (o->out_height < 1 || o->out_width < 1)
        return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                           "letterbox: out_height and out_width must be >= 1, not %lld x %lld",
                           (long long)o->out_height, (long long)o->out_width);
    if (o->out_height > INT32_MAX || o->out_width > INT32_MAX)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "letterbox: out_height x out_width = %lld x %lld: each must be "
                           "below 2^31",
                           (long long)o->out_height, (long long)o->out_width);
    clpad_status st;
    if ((st = lb_check_enum("interp", (int)o->interp, CLPAD_INTERP_COUNT)) ||
        (st = lb_check_enum("placement", (int)o->placement, CLPAD_PLACEMENT_COUNT)) ||
        (st = lb_check_enum("layout", (int)o->layout, CLPAD_LAYOUT_COUNT)) ||
        (st = lb_check_enum("fit", (int)o->fit, CLPAD_FIT_COUNT)) ||
        (st = lb_check_enum("pad_mode", (int)o->pad_mode, CLPAD_PAD_MODE_COUNT)) ||
        (st = lb_check_enum("input_format", (int)o->input_format, CLPAD_INPUT_FORMAT_COUNT)) ||
        (st = lb_check_enum("color_matrix", (int)o->color_matrix, CLPAD_COLOR_MATRIX_COUNT)) ||
        (st = lb_check_enum("color_range", (int)o->color_range, CLPAD_COLOR_RANGE_COUNT)))
        return st;
    if (o->input_format != CLPAD_INPUT_PACKED && clpad__lb_is_taps(o->interp))
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "letterbox: interp %s with input_format %s: YUV frames are resized "
                           "with bilinear or nearest",
                           clpad_interp_name(o->interp), clpad_input_format_name(o->input_format));
    if (o->dtype != CLPAD_U8 && o->dtype != CLPAD_F16 && o->dtype != CLPAD_F32)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox: dtype %s: the output is u8, f16 or f32",
                           clpad_dtype_name(o->dtype) ? clpad_dtype_name(o->dtype) : "(invalid)");
    if (!isfinite(o->scale))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox: scale = %g is not finite",
                           (double)o->scale);
    if (!isfinite(o->divisor) || o->divisor == 0.0f)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox: divisor = %g: it must be finite and non-zero",
                           (double)o->divisor);
    if (o->pil_version != 12 && o->pil_version != 13)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox: pil_version = %d: 12 or 13 (the Pillow release whose "
                           "resize the pil-* kinds follow)",
                           o->pil_version);
    if ((st = check_fit_count("resize_shorter", o->resize_shorter, o->fit, CLPAD_FIT_COVER,
                              "needs fit cover (the centre crop), not ", "")))
        return st;
    return check_fit_count("stride", o->stride, o->fit, CLPAD_FIT_CONTAIN,
                           "is the contain fit's auto mode, not ", "'s");
}

static clpad_status check_channel_values(const clpad_letterbox_options *o, int C)
{
    for (int c = 0; c < C; c++) {
        if (!isfinite(o->mean[c]))
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox: mean[%d] = %g is not finite",
                               c, (double)o->mean[c]);
        if (!isfinite(o->std[c]) || o->std[c] == 0.0f)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "letterbox: std[%d] = %g: it must be finite and non-zero", c,
                               (double)o->std[c]);
    }
    return CLPAD_OK;
}

/* ---- YUV frames ---------------------------------------------------------------------- */

/* The conversion's integers, {cy, crv, cgu, cgv, cbu} (kernels/coords.h,
 * clpad_yuv_rgb; docs/letterbox.md, "YUV frames"), per matrix and range.
 * BT.601 limited: OpenCV's (color_yuv.simd.hpp's ITUR_BT_601_*, the
 * rounded coefficients 1.164, 1.596, -0.391, -0.813, 2.018 times 2^20).
 * The others: round(c * 2^20) of the coefficients that follow from the
 * standard's Kr and Kb (Kg = 1 - Kr - Kb): cy = 255/219 (limited) or 1,
 * crv = 2(1 - Kr) s, cgu = -2 Kb (1 - Kb) / Kg s, cgv = -2 Kr (1 - Kr) / Kg s,
 * cbu = 2(1 - Kb) s, s = 255/224 (limited) or 1; BT.601 Kr 0.299, Kb 0.114;
 * BT.709 0.2126, 0.0722; BT.2020 0.2627, 0.0593 (python/tests checks the
 * table against these formulas). */
static const int32_t lb_yuv_coefs[CLPAD_COLOR_MATRIX_COUNT][CLPAD_COLOR_RANGE_COUNT][5] = {
    {{1220542, 1673527, -409993, -852492, 2116026}, {1048576, 1470104, -360853, -748826, 1858077}},
    {{1220945, 1879825, -223607, -558796, 2215014}, {1048576, 1651297, -196424, -490864, 1945738}},
    {{1220945, 1760217, -196426, -682019, 2245811}, {1048576, 1546230, -172546, -599107, 1972791}},
};

void clpad__lb_yuv_coefs(int matrix, int range, int32_t k[CLPAD_YUV_K])
{
    const int32_t *c = lb_yuv_coefs[matrix][range];
    bool limited = range == CLPAD_RANGE_LIMITED;
    k[0] = c[0];
    k[1] = limited ? 16 : 0;
    /* OpenCV's max(0, Y - 16) for BT.601 limited; no clamp elsewhere */
    k[2] = matrix == CLPAD_COLOR_BT601 && limited ? 0 : -255;
    for (int j = 1; j < 5; j++)
        k[2 + j] = c[j];
}

/* Where image i's chroma lies: U and V as {first byte of row 0, row stride,
 * step between neighbouring samples}, relative to `y0` (the Y plane's first
 * byte) for the one-buffer layout, or to `p1` / `p2` (the planes' own) for
 * separate planes. Pure arithmetic on addresses or buffer offsets alike. */
void clpad__lb_yuv_chroma(const clpad_image *im, int format, int64_t y0, int64_t p1, int64_t p2,
                          int64_t *u, int64_t *us, int64_t *v, int64_t *vs)
{
    bool semi = format == CLPAD_INPUT_NV12 || format == CLPAD_INPUT_NV21;
    int64_t ys = im->row_stride ? im->row_stride : im->width;
    int64_t s1 = im->plane_stride[0] ? im->plane_stride[0] : semi ? ys : ys / 2;
    int64_t s2 = im->plane_stride[1] ? im->plane_stride[1] : semi ? ys : ys / 2;
    if (!im->separate_planes) {
        p1 = y0 + im->height * ys;
        p2 = p1 + im->height / 2 * s1;
    }
    if (semi) {
        bool uv = format == CLPAD_INPUT_NV12;
        *u = p1 + (uv ? 0 : 1);
        *v = p1 + (uv ? 1 : 0);
        *us = *vs = s1;
    } else {
        bool i420 = format == CLPAD_INPUT_I420;
        *u = i420 ? p1 : p2;
        *us = i420 ? s1 : s2;
        *v = i420 ? p2 : p1;
        *vs = i420 ? s2 : s1;
    }
}

/* Image i's geometry (the size its transform is computed for): both 0 (its
 * pixel size) or both >= 1. */
static clpad_status check_geometry(const clpad_image *im, size_t i)
{
    if ((im->geometry_height || im->geometry_width) &&
        (im->geometry_height < 1 || im->geometry_width < 1))
        return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                              "images[%zu]: geometry %lld x %lld: both 0 (the pixel size) or "
                              "both >= 1",
                              i, (long long)im->geometry_height, (long long)im->geometry_width);
    return CLPAD_OK;
}

/* Check YUV frame i (docs/letterbox.md, "YUV frames"); add its bytes (Y and
 * chroma samples) to *in_bytes. */
static clpad_status check_yuv_image(const clpad_image *im, size_t i, int format, bool need_data,
                                    uint64_t *in_bytes)
{
    const char *fmt = clpad_input_format_name(format);
    bool semi = format == CLPAD_INPUT_NV12 || format == CLPAD_INPUT_NV21;
    if (im->height < 2 || im->width < 2)
        return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                              "images[%zu]: a %s frame of %lld x %lld pixels: height and width "
                              "must be >= 2",
                              i, fmt, (long long)im->height, (long long)im->width);
    if (im->height % 2 || im->width % 2)
        return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                              "images[%zu]: %s frame %s = %lld is odd: 4:2:0 frames have even "
                              "width and height (one chroma sample per 2 x 2 pixels)",
                              i, fmt, im->height % 2 ? "height" : "width",
                              (long long)(im->height % 2 ? im->height : im->width));
    if (im->channels != 0 && im->channels != 3)
        return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                              "images[%zu]: channels = %lld: a %s frame gives 3 channels (set 0 "
                              "or 3)",
                              i, (long long)im->channels, fmt);
    if (im->height > INT32_MAX || im->width > INT32_MAX)
        return clpad__fail_at(CLPAD_ERR_UNSUPPORTED, "images", (int64_t)i,
                              "images[%zu]: %lld x %lld: frames need fewer than 2^31 rows and "
                              "columns",
                              i, (long long)im->height, (long long)im->width);
    if (im->separate_planes != 0 && im->separate_planes != 1)
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "images", (int64_t)i,
                              "images[%zu]: separate_planes = %d: 0 or 1", i, im->separate_planes);
    int64_t ys = im->row_stride ? im->row_stride : im->width;
    if (ys < im->width)
        return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                              "images[%zu]: row_stride %lld is less than the width %lld", i,
                              (long long)im->row_stride, (long long)im->width);
    int64_t cw = semi ? im->width : im->width / 2; /* bytes of a chroma row */
    for (int k = 0; k < (semi ? 1 : 2); k++) {
        int64_t s = im->plane_stride[k] ? im->plane_stride[k] : semi ? ys : ys / 2;
        if (!im->plane_stride[k] && !semi && ys % 2)
            return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                                  "images[%zu]: plane_stride[%d] = 0 means half the row_stride "
                                  "%lld, which is odd: give it",
                                  i, k, (long long)ys);
        if (s < cw)
            return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                                  "images[%zu]: plane_stride[%d] = %lld is less than the %s "
                                  "chroma row of %lld bytes",
                                  i, k, (long long)s, fmt, (long long)cw);
        if (s > INT32_MAX || ys > INT32_MAX)
            return clpad__fail_at(CLPAD_ERR_UNSUPPORTED, "images", (int64_t)i,
                                  "images[%zu]: row strides need to be below 2^31 bytes", i);
        if (need_data && im->separate_planes && !im->planes[k])
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "images", (int64_t)i,
                                  "images[%zu]: planes[%d] is NULL (separate_planes = 1)", i, k);
    }
    if (need_data && !im->data)
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "images", (int64_t)i,
                              "images[%zu]: data is NULL", i);
    int64_t span;
    if (!clpad__mul_i64(im->height, ys, &span) || (uint64_t)span > SIZE_MAX / 2 ||
        __builtin_add_overflow(*in_bytes, (uint64_t)(im->height * im->width / 2 * 3), in_bytes))
        return clpad__fail_at(CLPAD_ERR_OVERFLOW, "images", (int64_t)i,
                              "images[%zu]: its size overflows", i);
    return check_geometry(im, i);
}

/* The limits of a border mode on one side (as Pad's). */
static clpad_status check_border(const clpad_letterbox_options *o, size_t i, const char *side,
                                 int64_t pad, int64_t D, const char *dim)
{
    if (pad <= 0)
        return CLPAD_OK;
    if (o->pad_mode == CLPAD_PAD_REFLECT && pad > D - 1)
        return clpad__fail_at(CLPAD_ERR_INVALID_PADS, "images", (int64_t)i,
                           "images[%zu]: %s = %lld exceeds the reflect limit %s - 1 = %lld "
                           "(reflect needs borders smaller than the resized image; use "
                           "symmetric, edge or wrap)",
                           i, side, (long long)pad, dim, (long long)(D - 1));
    if (o->pad_mode == CLPAD_PAD_SYMMETRIC && pad > D)
        return clpad__fail_at(CLPAD_ERR_INVALID_PADS, "images", (int64_t)i,
                           "images[%zu]: %s = %lld exceeds the symmetric limit %s = %lld "
                           "(use edge or wrap)",
                           i, side, (long long)pad, dim, (long long)D);
    return CLPAD_OK;
}

clpad_status clpad__lb_check(const clpad_image *images, size_t n,
                             const clpad_letterbox_options *o, bool need_data, lb_plan *p,
                             clpad_letterbox_transform *transforms)
{
    memset(p, 0, sizeof *p);
    if (!o)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox: options are NULL");
    if (n > 0 && !images)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox: images is NULL but n = %zu", n);
    clpad_letterbox_options known;
    clpad_status st = clpad__versioned_in(&known, sizeof known, o, sizeof known, NULL, 0,
                                          "letterbox: options", "options",
                                          "fill it with clpad_letterbox_options_init()");
    if (st || (st = check_options(o)) ||
        (transforms && n > 0 &&
         (st = clpad__sized_check(transforms[0].size, sizeof *transforms, "letterbox",
                                  "transforms[0].size", "transforms", 0,
                                  "fill it with clpad_letterbox_transform_init()"))))
        return st;
    const bool yuv = o->input_format != CLPAD_INPUT_PACKED;
    int64_t C = n > 0 && !yuv ? images[0].channels : 3;
    uint64_t in_bytes = 0;
    for (size_t i = 0; i < n; i++) {
        const clpad_image *im = &images[i];
        if (yuv) {
            if ((st = check_yuv_image(im, i, (int)o->input_format, need_data, &in_bytes)))
                return st;
            continue;
        }
        if (im->height < 1 || im->width < 1)
            return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                               "images[%zu]: an image of %lld x %lld pixels: height and width "
                               "must be >= 1",
                               i, (long long)im->height, (long long)im->width);
        if (im->channels != 1 && im->channels != 3 && im->channels != 4)
            return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                               "images[%zu]: %lld channels; images have 1, 3 or 4", i,
                               (long long)im->channels);
        if (im->channels != C)
            return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                               "images[%zu]: %lld channels, but images[0] has %lld (a batch has "
                               "one channel count)",
                               i, (long long)im->channels, (long long)C);
        int64_t row_bytes;
        if (!clpad__mul_i64(im->width, C, &row_bytes) || row_bytes > INT32_MAX ||
            im->height > INT32_MAX)
            return clpad__fail_at(CLPAD_ERR_UNSUPPORTED, "images", (int64_t)i,
                               "images[%zu]: %lld x %lld x %lld: images need fewer than 2^31 "
                               "rows and bytes per row",
                               i, (long long)im->height, (long long)im->width, (long long)C);
        int64_t stride = im->row_stride ? im->row_stride : row_bytes;
        if (stride < row_bytes)
            return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "images", (int64_t)i,
                               "images[%zu]: row_stride %lld is less than width * channels = "
                               "%lld",
                               i, (long long)im->row_stride, (long long)row_bytes);
        int64_t span, bytes;
        if (!clpad__mul_i64(im->height - 1, stride, &span) ||
            !clpad__add_i64(span, row_bytes, &span) || (uint64_t)span > SIZE_MAX ||
            !clpad__mul_i64(im->height, row_bytes, &bytes) ||
            __builtin_add_overflow(in_bytes, (uint64_t)bytes, &in_bytes))
            return clpad__fail_at(CLPAD_ERR_OVERFLOW, "images", (int64_t)i, "images[%zu]: its size overflows", i);
        if (need_data && !im->data)
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "images", (int64_t)i, "images[%zu]: data is NULL", i);
        if ((st = check_geometry(im, i)))
            return st;
    }
    int64_t H, W;
    clpad__lb_slot(images, n, o, &H, &W);
    if (H > INT32_MAX || W > INT32_MAX)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "letterbox: the batch's slot of %lld x %lld: each must be below 2^31",
                           (long long)H, (long long)W);
    for (size_t i = 0; i < n; i++) {
        clpad_letterbox_transform t;
        clpad__lb_image_transform(&images[i], o, H, W, &t);
        if (t.resized_height > INT32_MAX || t.resized_width > INT32_MAX)
            return clpad__fail_at(CLPAD_ERR_UNSUPPORTED, "images", (int64_t)i,
                                  "images[%zu]: resized to %lld x %lld: each must be below 2^31", i,
                                  (long long)t.resized_height, (long long)t.resized_width);
        if ((st = check_border(o, i, "pad_top", t.pad_top, t.resized_height, "resized_height")) ||
            (st = check_border(o, i, "pad_bottom", H - t.resized_height - t.pad_top,
                               t.resized_height, "resized_height")) ||
            (st = check_border(o, i, "pad_left", t.pad_left, t.resized_width, "resized_width")) ||
            (st = check_border(o, i, "pad_right", W - t.resized_width - t.pad_left,
                               t.resized_width, "resized_width")))
            return st;
    }
    if ((st = check_channel_values(o, (int)C)))
        return st;
    p->n = n;
    p->C = (int)C;
    p->H = H;
    p->W = W;
    p->dtype = o->dtype;
    p->es = clpad_dtype_size(o->dtype);
    p->layout = o->layout;
    int64_t N = (int64_t)n;
    if (N < 0)
        return clpad__fail(CLPAD_ERR_OVERFLOW, "letterbox: n = %zu images overflows", n);
    if (o->layout == CLPAD_LAYOUT_NCHW) {
        int64_t s[4] = {N, C, p->H, p->W};
        memcpy(p->out_shape, s, sizeof s);
    } else {
        int64_t s[4] = {N, p->H, p->W, C};
        memcpy(p->out_shape, s, sizeof s);
    }
    if (!clpad__count(4, p->out_shape, p->es, NULL, &p->out_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "letterbox: the output of %zu x %lld x %lld x %lld "
                                               "elements overflows",
                           n, (long long)C, (long long)p->H, (long long)p->W);
    p->in_bytes = in_bytes;
    p->yuv = (int)o->input_format;
    if (yuv)
        clpad__lb_yuv_coefs((int)o->color_matrix, (int)o->color_range, p->yk);
    p->scale = o->scale;
    p->divisor = o->divisor;
    for (int c = 0; c < p->C; c++) {
        p->mean[c] = o->mean[c];
        p->std[c] = o->std[c];
    }
    for (int c = 0; c < p->C; c++)
        p->src_chan[c] = o->swap_rb && p->C >= 3 && (c == 0 || c == 2) ? 2 - c : c;
    /* The value table: every float operation of the normalisation, once. */
    for (int c = 0; c < p->C; c++) {
        for (int v = 0; v < 256; v++) {
            float f = ((float)v * o->scale / o->divisor - o->mean[c]) / o->std[c];
            unsigned char *at = p->lut + ((size_t)c * 256 + (size_t)v) * p->es;
            if (p->dtype == CLPAD_F32) {
                memcpy(at, &f, 4);
            } else if (p->dtype == CLPAD_F16) {
                uint16_t h = clpad__f32_to_f16(f);
                memcpy(at, &h, 2);
            } else { /* u8: round half to even, saturate; NaN is 0 */
                *at = !(f > 0.0f) ? 0 : f >= 255.0f ? 255 : (unsigned char)rintf(f);
            }
        }
        /* the border's colour is the image's (source channel order) */
        memcpy(p->fill + (size_t)c * p->es,
               p->lut + ((size_t)c * 256 + o->pad_value[p->src_chan[c]]) * p->es, p->es);
    }
    return CLPAD_OK;
}

clpad_status clpad_letterbox_plan(const clpad_image *images, size_t n,
                                  const clpad_letterbox_options *opts, int64_t out_shape[4],
                                  clpad_letterbox_transform *transforms)
{
    clpad__clear_error();
    if (!out_shape)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox_plan: out_shape is NULL");
    lb_plan p;
    clpad_status st = clpad__lb_check(images, n, opts, false, &p, transforms);
    if (st)
        return st;
    memcpy(out_shape, p.out_shape, sizeof p.out_shape);
    clpad__lb_put_transforms(images, n, opts, p.H, p.W, transforms);
    return CLPAD_OK;
}

/* ---- Coefficient tables ------------------------------------------------------------- */

/* OpenCV's saturate_cast<short>(float): cvRound (round half to even), then
 * clamped to the short range. */
static int32_t coef(float v)
{
    float r = rintf(v);
    return r <= -32768.0f ? -32768 : r >= 32767.0f ? 32767 : (int32_t)r;
}

/* The resize along one axis, src -> dst samples, as OpenCV's resize() sets
 * it up for 8-bit images (modules/imgproc/src/resize.cpp, cv::hal::resize):
 * scale = 1 / (dst / src) in double; bilinear: f = (float)((d + 0.5) *
 * scale - 0.5), s = floor(f), f -= s, coefficients saturate_cast<short>
 * ((1 - f) * 2048) and (f * 2048). Columns (`clamp_f`): where s < 0 or
 * s >= src - 1, OpenCV sets f = 0 and s to 0 or src - 1. Rows keep f and
 * clamp the two source rows s, s + 1 into [0, src - 1] (resizeGeneric's
 * row clip). Nearest: s = min(floor(d * scale), src - 1), coefficients
 * (2048, 0). Out: e[d] = {s0, s1, w0, w1}. */
void clpad__lb_axis_table(clpad_interp interp, int64_t src, int64_t dst, bool clamp_f,
                          lb_entry *e)
{
    clpad__lb_axis_range(interp, src, dst, clamp_f, 0, dst, e);
}

void clpad__lb_axis_range(clpad_interp interp, int64_t src, int64_t dst, bool clamp_f,
                          int64_t d0, int64_t d1, lb_entry *e)
{
    double inv = (double)dst / (double)src, scale = 1.0 / inv;
    for (int64_t d = d0; d < d1; d++) {
        int64_t s0, s1;
        int32_t w0, w1;
        if (interp == CLPAD_INTERP_NEAREST) {
            double fs = floor((double)d * scale);
            s0 = s1 = fs >= (double)(src - 1) ? src - 1 : (int64_t)fs;
            w0 = 2048;
            w1 = 0;
        } else {
            float f = (float)(((double)d + 0.5) * scale - 0.5);
            float fl = floorf(f);
            int64_t s = (int64_t)fl;
            f -= (float)s;
            if (clamp_f) {
                if (s < 0)
                    f = 0.0f, s = 0;
                if (s >= src - 1)
                    f = 0.0f, s = src - 1;
                s0 = s;
                s1 = s + 1 < src ? s + 1 : s;
            } else {
                s0 = s < 0 ? 0 : s > src - 1 ? src - 1 : s;
                s1 = s + 1 < 0 ? 0 : s + 1 > src - 1 ? src - 1 : s + 1;
            }
            w0 = coef((1.0f - f) * 2048.0f);
            w1 = coef(f * 2048.0f);
        }
        e[d - d0] = (lb_entry){(int32_t)s0, (int32_t)s1, w0, w1};
    }
}

/* One axis' entries (into `axis`) for the resized pixels a slot of `slot`
 * pixels shows, *m0 the first: all of them where they fit in the slot (a
 * border may mirror any), else (a crop) the slot's window of them. Columns
 * (cols) are offsets of pixels of C bytes, rows indexes. */
static clpad_status axis_window(clpad_interp interp, int rule, float box_inv, lb_plan *p,
                                int64_t src, int64_t resized, int64_t pad, int64_t slot,
                                bool cols, int64_t C, lb_entry *axis, size_t *coef_cap,
                                int64_t *m0)
{
    *m0 = resized <= slot ? 0 : -pad;
    int64_t m1 = resized <= slot ? resized : *m0 + slot;
    if (p->taps)
        return clpad__lb_taps_range(interp, rule, box_inv, src, resized, *m0, m1, cols ? C : 1,
                                    cols, axis, p, coef_cap);
    clpad__lb_axis_range(interp, src, resized, cols, *m0, m1, axis);
    return CLPAD_OK;
}

clpad_status clpad__lb_tables(const clpad_image *images, const clpad_letterbox_options *o,
                              lb_plan *p)
{
    clpad_status st = CLPAD_OK;
    size_t n = p->n;
    /* (an empty batch has no rows: its slot may be of any size) */
    p->desc = malloc((n ? n : 1) * sizeof *p->desc);
    p->rows = malloc((n ? n * (size_t)p->H : 1) * sizeof *p->rows);
    p->cols = malloc((n ? n * (size_t)p->W : 1) * sizeof *p->cols);
    if (p->yuv)
        p->cdesc = malloc((n ? n : 1) * sizeof *p->cdesc);
    int64_t longest = !n ? 1 : p->H > p->W ? p->H : p->W;
    lb_entry *axis = malloc((size_t)longest * sizeof *axis);
    if (!p->desc || !p->rows || !p->cols || !axis || (p->yuv && !p->cdesc)) {
        free(axis);
        clpad__lb_free(p);
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox: out of host memory for the tables "
                                                    "of %zu images",
                           n);
    }
    int mode = (int)o->pad_mode;
    p->taps = clpad__lb_is_taps(o->interp);
    size_t coef_cap = 0;
    for (size_t i = 0; i < n; i++) {
        const clpad_image *im = &images[i];
        clpad_letterbox_transform t;
        clpad__lb_image_transform(im, o, p->H, p->W, &t);
        /* (YUV frames: the columns count pixels of the Y plane) */
        int64_t C = p->yuv ? 1 : p->C, stride = im->row_stride ? im->row_stride : im->width * C;
        /* rows: the slot's row y shows resized row map(y - pad_top) */
        int64_t m0;
        float box_inv;
        int rule = clpad__lb_taps_rule(o->interp, im->height, im->width, t.resized_height,
                                       t.resized_width, &box_inv);
        if ((st = axis_window(o->interp, rule, box_inv, p, im->height, t.resized_height,
                              t.pad_top, p->H, false, C, axis, &coef_cap, &m0)))
            goto fail;
        lb_entry *rows = p->rows + i * (size_t)p->H;
        for (int64_t y = 0; y < p->H; y++) {
            int64_t m = clpad_coord_map(mode, y - t.pad_top, t.resized_height);
            rows[y] = m < 0 ? (lb_entry){-1, -1, 0, 0} : axis[m - m0];
        }
        /* columns: byte offsets of the pixels in a row */
        if ((st = axis_window(o->interp, rule, box_inv, p, im->width, t.resized_width,
                              t.pad_left, p->W, true, C, axis, &coef_cap, &m0)))
            goto fail;
        lb_entry *cols = p->cols + i * (size_t)p->W;
        int64_t x_begin = p->W, x_end = 0;
        for (int64_t x = 0; x < p->W; x++) {
            int64_t m = clpad_coord_map(mode, x - t.pad_left, t.resized_width);
            if (m < 0) {
                cols[x] = (lb_entry){-1, -1, 0, 0};
                continue;
            }
            lb_entry e = axis[m - m0];
            cols[x] = p->taps ? e /* its offset in bytes already */
                              : (lb_entry){(int32_t)(e.a * C), (int32_t)(e.b * C), e.w0, e.w1};
            if (x < x_begin)
                x_begin = x;
            x_end = x + 1;
        }
        /* Which pass Pillow's resize runs first (docs/letterbox.md, 1.2):
         * 12.x, vertical only for an image more than 100 times taller than
         * wide whose height it reduces; 13, vertical where the height is
         * reduced and 2 (W - w) > H - h */
        int64_t h = im->height, w = im->width, rh = t.resized_height, rw = t.resized_width;
        bool vfirst = p->taps && rule == CLPAD_TAPS_PIL && rh < h &&
                      (o->pil_version == 12 ? h > w * 100 : 2 * (rw - w) > rh - h);
        p->desc[i] = (lb_desc){(int64_t)im->offset, stride,
                               x_begin | x_end << 32 | (vfirst ? LB_VFIRST : 0), 0};
        if (p->yuv) {
            int64_t y0 = (int64_t)im->offset, u, us, v, vs;
            clpad__lb_yuv_chroma(im, p->yuv, y0, (int64_t)im->plane_offset[0],
                                 (int64_t)im->plane_offset[1], &u, &us, &v, &vs);
            p->cdesc[i] = (lb_chroma){u, us, v, vs};
            p->desc[i].wide_rows = im->width; /* (YUV: the frame's width, lb_desc) */
        }
    }
    free(axis);
    return CLPAD_OK;
fail:
    free(axis);
    clpad__lb_free(p);
    return st;
}

int64_t clpad__lb_wide_rows(uint64_t offset, int64_t h, int64_t stride, int64_t row_bytes,
                            int64_t C, uint64_t buffer_bytes)
{
    /* row r is wide when offset + r * stride + row_bytes - C + LB_SLACK <= buffer_bytes */
    uint64_t need = offset + (uint64_t)row_bytes + (uint64_t)(LB_SLACK - C);
    if (need > buffer_bytes)
        return 0;
    uint64_t rows = (buffer_bytes - need) / (uint64_t)stride + 1;
    return rows > (uint64_t)h ? h : (int64_t)rows;
}

void clpad__lb_free(lb_plan *p)
{
    free(p->desc);
    free(p->rows);
    free(p->cols);
    free(p->coefs);
    free(p->cdesc);
    p->cdesc = NULL;
    p->desc = NULL;
    p->rows = NULL;
    p->cols = NULL;
    p->coefs = NULL;
    p->n_coefs = 0;
}

clpad_status clpad__lb_plan_host(const clpad_image *images, size_t n,
                                 const clpad_letterbox_options *opts, const void *output,
                                 size_t output_bytes, clpad_letterbox_transform *transforms,
                                 lb_plan *p)
{
    clpad_status st = clpad__lb_check(images, n, opts, true, p, transforms);
    if (st)
        return st;
    if (p->out_bytes > 0 && !output)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox: output is NULL");
    if (output_bytes < p->out_bytes)
        return clpad__fail(CLPAD_ERR_BUFFER_TOO_SMALL,
                           "letterbox: output_bytes = %zu, but the output needs %zu", output_bytes,
                           p->out_bytes);
    return clpad__lb_tables(images, opts, p);
}

/* ---- f32 -> f16 ----------------------------------------------------------------------- */

uint16_t clpad__f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) /* NaN: quiet, the payload's top bits kept */
        return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    if (ax >= 0x477ff000u) /* 65520 and above (infinity too) round to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (ax < 0x38800000u) { /* below 2^-14: an f16 subnormal (or zero) */
        if (ax < 0x33000000u) /* below 2^-25, or exactly it (ties to even: 0) */
            return (uint16_t)sign;
        uint32_t e = ax >> 23, m = (ax & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126 - e; /* value / 2^-24 = m >> shift, shift in 14..24 */
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1u)))
            q++;
        return (uint16_t)(sign | q);
    }
    uint32_t r = ax - 0x38000000u; /* exponent bias 127 -> 15 */
    uint32_t q = r >> 13, rem = r & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1u)))
        q++; /* a carry into the exponent is the right result */
    return (uint16_t)(sign | q);
}
