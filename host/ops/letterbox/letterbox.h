/* Letterbox, shared by host/ops/letterbox/plan.c (validation, transforms, the
 * coefficient tables and the value table), host/ops/letterbox/cpu.c (the CPU
 * reference) and host/ops/letterbox/cl.c (OpenCL). Not installed.
 *
 * A validated call becomes a plan: for every image and every row y of its
 * output slot, the two source rows and vertical coefficients of that row
 * (or "border": the whole row is the constant border), and for every column
 * x the byte offsets in a source row of the two source pixels and the
 * horizontal coefficients (or "border"). The border modes that read the
 * image (edge, reflect, symmetric, wrap) are folded into these tables by
 * kernels/coords.h's clpad_coord_map, so the kernel and the CPU reference
 * only look them up. A sample v of output channel c becomes lut[c][v], the
 * output dtype's bits of ((v * scale) / divisor - mean[c]) / std[c]: every float
 * operation happens once, on the host, when the table is made.
 */
#ifndef CLPAD_LETTERBOX_PLAN_H
#define CLPAD_LETTERBOX_PLAN_H

#include "device/context.h"

#define LB_MAXC CLPAD_LETTERBOX_MAX_CHANNELS
/* Bytes the kernel may read from the start of a source pixel ("wide" rows:
 * all of a pixel's channels in one load); the gathered rows get as many
 * bytes of slack at their end. */
#define LB_SLACK 4
/* Integers of the YUV conversion (lb_plan.yk). */
#define CLPAD_YUV_K 7

/* One entry of the row or column table: four int32, as the kernel's int4.
 * rows: {sy0, sy1, beta0, beta1}, sy = source row (or staging row), -1 in
 * sy0 for a border row. cols: {x0, x1, alpha0, alpha1}, x = byte offset of
 * the source pixel in its row, -1 in x0 for a border column. */
typedef struct lb_entry {
    int32_t a, b, w0, w1;
} lb_entry;

/* Where an image's pixels are, for the kernel: the first byte of row 0
 * (relative to the input buffer), the row stride, the columns
 * [x_begin, x_end) of the slot that are not constant border (packed as
 * x_begin | x_end << 32, and bit 31 set where a variable-tap resize runs
 * its vertical pass first: LB_VFIRST), and wide_rows: the source rows [0, wide_rows)
 * whose pixels may be read 4 bytes at a time (the last pixel's 4 bytes lie
 * inside the input buffer; clpad__lb_wide_rows). A YUV frame's wide_rows
 * is its width (the kernel reads a pixel's two columns of a row as one
 * 16-bit word, clamped to the row). Four int64, as the kernel's long4. */
typedef struct lb_desc {
    int64_t offset, stride, x_range, wide_rows;
} lb_desc;
#define LB_VFIRST ((int64_t)1 << 31)

/* Where a YUV frame's chroma rows are: U row 0 and stride, V row 0 and
 * stride (relative to what lb_desc.offset counts from). Four int64, as the
 * kernel's long4. */
typedef struct lb_chroma {
    int64_t u, u_stride, v, v_stride;
} lb_chroma;

typedef struct lb_plan {
    size_t n;
    int C;                     /* channels */
    int64_t H, W;              /* the slot */
    clpad_dtype dtype;
    size_t es;                 /* bytes per output element: 1, 2, 4 */
    clpad_layout layout;
    int64_t out_shape[4];
    size_t out_bytes;
    uint64_t in_bytes;         /* sum of the images' pixel bytes (h * w * C) */
    int src_chan[LB_MAXC];     /* the source channel of each output channel */
    float scale, mean[LB_MAXC], std[LB_MAXC]; /* the normalisation, per output channel */
    float divisor;             /* ((v * scale) / divisor - mean) / std */
    unsigned char lut[LB_MAXC * 256 * 4]; /* lut[c][v], es bytes each */
    unsigned char fill[LB_MAXC * 4];      /* the constant border of channel c */
    /* Tables (clpad__lb_tables; freed by clpad__lb_free): */
    lb_desc *desc;             /* n */
    lb_entry *rows;            /* n * H */
    lb_entry *cols;            /* n * W */
    /* A variable-tap resize (clpad__lb_is_taps: Pillow's, OpenCV's area):
     * the entries are rows {first source row (-1: border), taps,
     * coefficient index, rule} and cols {byte offset of the first source
     * pixel (-1: border), taps, coefficient index, rule}, the coefficients
     * in coefs (Pillow's: PRECISION_BITS fixed point, kernels/coords.h's
     * clpad_pil_clip8; the other rules: kernels/coords.h, CLPAD_TAPS_*). */
    bool taps;
    int32_t *coefs;
    size_t n_coefs;
    /* YUV frames (docs/letterbox.md, "YUV frames"): yuv is the
     * clpad_input_format (0: packed samples), yk the conversion's integers
     * (clpad__lb_yuv_coefs), cdesc (n) each frame's chroma {U row 0, U row
     * stride, V row 0, V row stride}, relative to what desc.offset is. The
     * column table then holds pixel indices of the Y plane, not byte
     * offsets; C is 3. */
    int yuv;
    int32_t yk[CLPAD_YUV_K];
    lb_chroma *cdesc;
} lb_plan;

/* The YUV conversion's integers for a matrix and range: {cy, y offset,
 * lowest Y - offset, crv, cgu, cgv, cbu} (kernels/coords.h, clpad_yuv_rgb). */
void clpad__lb_yuv_coefs(int matrix, int range, int32_t k[CLPAD_YUV_K]);
/* Where a YUV frame's U and V rows start and their strides, from the Y
 * plane's start y0 and the separate planes' p1, p2 (addresses or buffer
 * offsets; p1, p2 unused in the one-buffer layout). */
void clpad__lb_yuv_chroma(const clpad_image *im, int format, int64_t y0, int64_t p1, int64_t p2,
                          int64_t *u, int64_t *us, int64_t *v, int64_t *vs);

/* The geometry of one image (docs/letterbox.md, "Size and placement",
 * "Fit") in a slot of H x W (the options' own, or the batch's shrunk slot
 * with a stride: clpad__lb_slot). */
void clpad__lb_transform(int64_t h, int64_t w, const clpad_letterbox_options *o, int64_t H,
                         int64_t W, clpad_letterbox_transform *t);
/* The geometry of an image: that of its geometry size when it has one (a
 * decode-scaled image), else of its pixel size. */
void clpad__lb_image_transform(const clpad_image *im, const clpad_letterbox_options *o,
                               int64_t H, int64_t W, clpad_letterbox_transform *t);
/* The slot of a batch of valid images: out_height x out_width, or with a
 * stride the largest shrunk slot of its images (Ultralytics' auto). */
void clpad__lb_slot(const clpad_image *images, size_t n, const clpad_letterbox_options *o,
                    int64_t *H, int64_t *W);

/* Validate a call; fill everything of the plan but the tables (no memory is
 * allocated). need_data: host calls, where every image's data must be
 * non-NULL. transforms (may be NULL) is the caller's array: its size is
 * checked, nothing written (clpad__lb_put_transforms does). */
clpad_status clpad__lb_check(const clpad_image *images, size_t n,
                             const clpad_letterbox_options *o, bool need_data, lb_plan *p,
                             clpad_letterbox_transform *transforms);
/* Each image's transform into the caller's array (NULL: none), entries
 * transforms[0].size bytes apart, each written up to that size. */
void clpad__lb_put_transforms(const clpad_image *images, size_t n,
                              const clpad_letterbox_options *o, int64_t H, int64_t W,
                              clpad_letterbox_transform *transforms);

/* The resize along one axis of src samples to dst (docs/letterbox.md,
 * "Resize"): e[d] = {s0, s1, w0, w1}, the two source samples of output
 * sample d and their weights. clamp_f: the column rule (OpenCV resets the
 * fraction at the edges), else the row rule (the two rows are clamped). */
void clpad__lb_axis_table(clpad_interp interp, int64_t src, int64_t dst, bool clamp_f,
                          lb_entry *e);
/* The same for output samples [d0, d1) only: e[d - d0]. */
void clpad__lb_axis_range(clpad_interp interp, int64_t src, int64_t dst, bool clamp_f,
                          int64_t d0, int64_t d1, lb_entry *e);

/* Whether an interpolation is a variable-tap one (Pillow's resample). */
bool clpad__lb_is_taps(clpad_interp interp);
/* The rule (kernels/coords.h, CLPAD_TAPS_*) of a variable-tap resize of an
 * h x w image to rh x rw: CLPAD_TAPS_PIL for the pil-* kinds; for area,
 * OpenCV's choice between its integer-ratio reduction (*box_inv = 1 /
 * area of the box), its general reduction and the linear resize of an
 * enlarged axis. */
int clpad__lb_taps_rule(clpad_interp interp, int64_t h, int64_t w, int64_t rh, int64_t rw,
                        float *box_inv);
/* A variable-tap resize along one axis of src -> dst samples (rows, or
 * columns: `cols`), output samples [d0, d1), by the image's `rule`:
 * e[d - d0] = {first source sample * unit, taps, index of its first
 * coefficient in p->coefs, rule}; the coefficients are appended to
 * p->coefs (capacity *cap; host/ops/letterbox/resize_tables.c).
 * Errors: CLPAD_ERR_OUT_OF_MEMORY, CLPAD_ERR_UNSUPPORTED (2^31 coefficients). */
clpad_status clpad__lb_taps_range(clpad_interp interp, int rule, float box_inv, int64_t src,
                                  int64_t dst, int64_t d0, int64_t d1, int64_t unit, bool cols,
                                  lb_entry *e, lb_plan *p, size_t *cap);

/* Allocate and fill the tables of a checked plan; desc[i].offset is
 * images[i].offset, desc[i].stride the image's row stride, wide_rows 0
 * (a YUV frame's: its width). */
clpad_status clpad__lb_tables(const clpad_image *images, const clpad_letterbox_options *o,
                              lb_plan *p);
void clpad__lb_free(lb_plan *p);
/* The host-pointer calls' plan (CPU and OpenCL alike): check the call and
 * the output buffer of output_bytes, then make the tables. */
clpad_status clpad__lb_plan_host(const clpad_image *images, size_t n,
                                 const clpad_letterbox_options *opts, const void *output,
                                 size_t output_bytes, clpad_letterbox_transform *transforms,
                                 lb_plan *p);

/* The rows of an image of h rows of row_bytes bytes, stride apart, starting
 * at byte `offset` of a buffer of buffer_bytes bytes, whose pixels can be
 * read as 32-bit words: row r's last pixel starts at offset + r * stride +
 * row_bytes - C and its word ends LB_SLACK = 4 bytes later. */
int64_t clpad__lb_wide_rows(uint64_t offset, int64_t h, int64_t stride, int64_t row_bytes,
                            int64_t C, uint64_t buffer_bytes);

/* Rows [r0, r1) of the output (r = image * H + y) on the CPU; src(i) is the
 * address desc[i].offset counts from: images[i].data minus desc[i].offset
 * for the caller's own images, the staging buffer for gathered rows. YUV
 * frames: src holds three addresses per frame, its Y, U and V row 0
 * (clpad__lb_sources). */
void clpad__lb_run_rows(const lb_plan *p, const unsigned char *const *src, void *output,
                        int64_t r0, int64_t r1);

/* The run_rows sources of the caller's own images (desc offsets set to 0;
 * YUV frames: cdesc set to their chroma strides); NULL when out of
 * memory. Free with free(). */
const unsigned char **clpad__lb_sources(lb_plan *p, const clpad_image *images);

/* Build options of the letterbox program on this context (the program
 * cache's key: warmup and enqueue agree); `stream`: its streaming-store
 * variant (CPU devices with streaming stores, large f32 NCHW outputs). */
void clpad__lb_options(const clpad_context *ctx, bool stream, char *options, size_t size);

/* f32 to IEEE binary16 bits, round to nearest even (docs/letterbox.md). */
uint16_t clpad__f32_to_f16(float f);

#endif /* CLPAD_LETTERBOX_PLAN_H */
