/* Letterbox on OpenCL (kernels/letterbox.cl): the enqueue path, the
 * host-pointer path (the rows the resize reads gathered into one buffer,
 * one launch for the batch) and its CPU path on several threads. */
#include "device/launch.h"
#include "ops/letterbox/letterbox.h"
#include "core/pool.h"
#include "device/staging.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The launch numbers of CPU devices (the measurements that chose them:
 * bench/README.md, "Design measurements"): pixels per chunk of a row, and
 * the band form's rows per work-item and pixels per chunk. */
#define LB_CPU_CHUNK 64
#define LB_CPU_BAND_ROWS 8
#define LB_CPU_BAND_CHUNK 256
/* YUV frames a host call reads in place, in buffers of their own (the
 * arguments f0 .. f7 of kernels/letterbox.cl's letterbox_yuv). */
#define LB_DIRECT 8
/* The planes of W ints of an image's column table in the kernel's table
 * buffer: x0, x1, alpha0, alpha1, and for the permuted horizontal pass
 * (perm_tables) its weights, bases and masks, and one whose first int says
 * whether the vertical pass may run in 16 bits (vpass16_exact). The kernel
 * gets the count as a build option (CLPAD_LB_COL_PLANES). */
#define LB_COL_PLANES 8

void clpad__lb_options(const clpad_context *ctx, bool stream, char *options, size_t size)
{
    /* Exact devices normalise in the kernel (correctly rounded division
     * asked for explicitly); others look values up, except that devices
     * whose multiplication is exact (round to nearest, denormals kept)
     * compute a plain v * scale to f32 (CLPAD_LB_MUL_EXACT). CPU devices compute
     * samples LB_CPU_CHUNK pixels at a time (and have the band form, in
     * chunks of LB_CPU_BAND_CHUNK), GPUs 4 (private arrays). `stream`: the
     * variant whose band form writes f32 NCHW rows with streaming stores
     * (lb_stream). */
    bool exact = ctx->policy.exact_fp32, cpu = clpad__cpu_geometry(ctx);
    const char *table = ctx->policy.exact_mul_fp32 ? "TABLE -DCLPAD_LB_MUL_EXACT" : "TABLE";
    snprintf(options, size,
             "-DCLPAD_LB_VALUES_%s -DCLPAD_LB_CHUNK=%d -DCLPAD_LB_BAND_CHUNK=%d "
             "-DCLPAD_LB_COL_PLANES=%d%s%s",
             exact ? "COMPUTE" : table, cpu ? LB_CPU_CHUNK : 4, cpu ? LB_CPU_BAND_CHUNK : 0,
             LB_COL_PLANES, exact ? " -cl-fp32-correctly-rounded-divide-sqrt" : "",
             stream ? " -DCLPAD_STREAM_STORES" : "");
}

/* Output pixels per vector of the launch geometry (kernels/letterbox.cl). */
#define LB_VEC 4
/* The launch geometry's one local size per device style: drivers that
 * compile a kernel per local size (PoCL) then compile the letterbox once.
 * CPUs: work-items of whole output rows, LB_CPU_ROWS of them per
 * work-group: one row each, or LB_CPU_BAND_ROWS consecutive rows each (the
 * band form) when `band`; GPUs: LB_GPU_LANES work-items along a row, each
 * taking vectors strided by that many. */
#define LB_CPU_ROWS 16
#define LB_GPU_LANES 64
#define LB_GPU_ITEMS 4

static void lb_geometry(const clpad_context *ctx, const struct clpad_kernel_entry *k,
                        size_t vectors, size_t n_rows, bool band, clpad_row_geometry *g)
{
    size_t max = k->max_wg < ctx->max_wg ? k->max_wg : ctx->max_wg;
    if (clpad__cpu_geometry(ctx)) {
        size_t ly = LB_CPU_ROWS <= max ? LB_CPU_ROWS : 1;
        size_t per = band ? LB_CPU_BAND_ROWS : 1, items = (n_rows + per - 1) / per;
        *g = (clpad_row_geometry){.global = {1, (items + ly - 1) / ly * ly},
                                  .local = {1, ly},
                                  .items = (cl_long)vectors,
                                  .rows_per_item = (cl_long)per};
    } else {
        size_t lx = LB_GPU_LANES <= max ? LB_GPU_LANES : 1;
        size_t per_group = lx * LB_GPU_ITEMS, groups = (vectors + per_group - 1) / per_group;
        *g = (clpad_row_geometry){.global = {groups * lx, n_rows},
                                  .local = {lx, 1},
                                  .items = LB_GPU_ITEMS,
                                  .rows_per_item = 1};
    }
}

/* Whether the band form pays on a CPU device: the horizontal passes it
 * makes (a source row that neither of the previous output row's two
 * source rows is; the first row of each band aside) are at most 3 per 2
 * output rows, against 2 per row in the row form. Upscaled images make
 * about 1, downscaled ones by 1.5 or more 2 (bench/README.md, "Design
 * measurements"). */
static bool lb_band_pays(const lb_plan *p)
{
    if (p->taps || p->yuv) /* letterbox_taps and letterbox_yuv have no band form */
        return false;
    uint64_t rows = 0, passes = 0;
    for (size_t i = 0; i < p->n; i++) {
        const lb_entry *r = p->rows + i * (size_t)p->H;
        int32_t pa = -1, pb = -1;
        for (int64_t y = 0; y < p->H; y++) {
            if (r[y].a < 0) {
                pa = pb = -1;
                continue;
            }
            rows++;
            passes += (r[y].a != pa && r[y].a != pb) +
                      (r[y].b != r[y].a && r[y].b != pa && r[y].b != pb);
            pa = r[y].a;
            pb = r[y].b;
        }
    }
    return 2 * passes <= 3 * rows;
}

/* The tables of the permuted horizontal pass of image i, planes 4 .. 6 of
 * its columns (kernels/letterbox.cl, lb_hpass_perm): each pixel's weights
 * a0 | a1 << 16; for each half-group of 4 columns 4h .. 4h + 3 the first
 * byte of the 16 bytes of a source row that hold all their samples (-1:
 * none do, the half holds border columns, or a weight lies outside
 * [0, 32767]), and its 16-byte mask: for pixel j, bytes 4j and 4j + 2 the
 * offsets of its two source pixels' channel 0 in those 16 bytes, bytes
 * 4j + 1 and 4j + 3 0x80 (zero). The 16 bytes stay inside the bytes that
 * the image's columns read, so inside its rows. */
static void perm_tables(const lb_plan *p, size_t i, int32_t *planes)
{
    int64_t W = p->W, C = p->C;
    int32_t *w01 = planes + 4 * W, *base = planes + 5 * W;
    unsigned char *mask = (unsigned char *)(planes + 6 * W);
    const lb_entry *c = p->cols + i * (size_t)W;
    int64_t xb = p->desc[i].x_range & 0x7fffffff, xe = p->desc[i].x_range >> 32, end = 0;
    for (int64_t x = xb; x < xe; x++) { /* the end of the bytes read: inside the row */
        int64_t e = (c[x].a > c[x].b ? c[x].a : c[x].b) + C;
        end = e > end ? e : end;
    }
    for (int64_t x = 0; x < W; x++)
        w01[x] = (int32_t)((uint32_t)(c[x].w0 & 0xffff) | (uint32_t)(c[x].w1 & 0xffff) << 16);
    for (int64_t h = 0; h < W / 4; h++) {
        int64_t x = 4 * h, lo = INT64_MAX, hi = 0;
        bool ok = !p->taps && !p->yuv && x >= xb && x + 4 <= xe && end >= 16;
        for (int j = 0; j < 4 && ok; j++) {
            const lb_entry *e = &c[x + j];
            ok = e->a >= 0 && e->b >= 0 && e->w0 >= 0 && e->w0 <= 32767 && e->w1 >= 0 &&
                 e->w1 <= 32767;
            lo = e->a < lo ? e->a : lo;
            lo = e->b < lo ? e->b : lo;
            hi = e->a + C > hi ? e->a + C : hi;
            hi = e->b + C > hi ? e->b + C : hi;
        }
        int64_t b = lo < end - 16 ? lo : end - 16;
        base[h] = ok && hi - b <= 16 ? (int32_t)b : -1;
        for (int j = 0; j < 4 && base[h] >= 0; j++) {
            unsigned char *m = mask + 16 * h + 4 * j;
            m[0] = (unsigned char)(c[x + j].a - b);
            m[1] = 0x80;
            m[2] = (unsigned char)(c[x + j].b - b);
            m[3] = 0x80;
        }
    }
}

/* Whether the band form's vertical pass may run in 16 bits on image i
 * (kernels/letterbox.cl, lb_vpass16; plane 7 of its columns): every column
 * weight of the slot's columns and every row weight of its rows in
 * [0, 2048], each pair summing to at most 2048, so that a horizontal pass
 * of u8 samples is at most 255 * 2048 and its h >> 4 fits 16 bits. */
static bool vpass16_exact(const lb_plan *p, size_t i)
{
    const lb_entry *c = p->cols + i * (size_t)p->W, *r = p->rows + i * (size_t)p->H;
    int64_t xb = p->desc[i].x_range & 0x7fffffff, xe = p->desc[i].x_range >> 32;
    bool ok = !p->taps && !p->yuv;
    for (int64_t x = xb; x < xe && ok; x++)
        ok = c[x].w0 >= 0 && c[x].w1 >= 0 && c[x].w0 + c[x].w1 <= 2048;
    for (int64_t y = 0; y < p->H && ok; y++)
        ok = r[y].a < 0 || (r[y].w0 >= 0 && r[y].w1 >= 0 && r[y].w0 + r[y].w1 <= 2048);
    return ok;
}

/* The kernel's table buffer: descriptors, rows, columns, value table and
 * (variable taps) the coefficients, in units of 16 bytes (int4). */
typedef struct lb_tab_layout {
    size_t rows_at, cols_at, lut_at, coef_at, chroma_at, units;
} lb_tab_layout;

static void tab_layout(const lb_plan *p, lb_tab_layout *t)
{
    t->rows_at = p->n * 2; /* lb_desc: 32 bytes */
    t->cols_at = t->rows_at + p->n * (size_t)p->H;
    t->lut_at = t->cols_at + p->n * (size_t)p->W * LB_COL_PLANES / 4;
    t->coef_at = t->lut_at + ((size_t)p->C * 256 * p->es + 15) / 16;
    t->chroma_at = t->coef_at + (p->n_coefs * sizeof(int32_t) + 15) / 16;
    t->chroma_at += t->chroma_at & 1; /* long4: 32-byte aligned */
    t->units = t->chroma_at + (p->yuv ? p->n * 2 : 0); /* lb_chroma: 32 bytes */
}

/* Launch the kernel of a plan with tables, whose desc offsets count from
 * the start of `input`; YUV frames i < n_direct from the start of
 * direct[i] instead. */
static clpad_status enqueue_plan(clpad_context *ctx, const lb_plan *p, cl_mem input,
                                 const cl_mem *direct, size_t n_direct, cl_mem output,
                                 size_t output_offset, cl_command_queue queue,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (p->out_bytes == 0)
        return clpad__enqueue_marker(queue, num_events, wait_list, event);
    /* CPU devices: the band form where it pays (or as $CLPAD_LB_BAND says),
     * and with it, for f32 NCHW outputs large enough for streaming stores
     * (clpad__nt_min), the program variant that streams its rows
     * (kernels/letterbox.cl, lb_stream). */
    bool kernel_band = !p->taps && !p->yuv && clpad__cpu_geometry(ctx);
    bool band = ctx->lb_band >= 0 ? ctx->lb_band != 0 : lb_band_pays(p);
    bool stream = kernel_band && band && p->es == 4 && p->layout == CLPAD_LAYOUT_NCHW &&
                  clpad__nt_min(ctx, (size_t)p->out_bytes, 4, 4) > 0;
    lb_tab_layout t;
    tab_layout(p, &t);
    unsigned char *host = calloc(t.units, 16);
    if (!host)
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox: out of host memory for the tables");
    memcpy(host, p->desc, p->n * sizeof *p->desc);
    memcpy(host + t.rows_at * 16, p->rows, p->n * (size_t)p->H * sizeof *p->rows);
    /* each image's columns as planes: x0[W], x1[W], alpha0[W], alpha1[W],
     * then perm_tables' where the band form runs (elsewhere its bases -1,
     * "no span", and zeros) */
    for (size_t i = 0; i < p->n; i++) {
        int32_t *planes = (int32_t *)(host + t.cols_at * 16 + i * LB_COL_PLANES * 4 * (size_t)p->W);
        const lb_entry *c = p->cols + i * (size_t)p->W;
        for (int64_t x = 0, W = p->W; x < W; x++) {
            planes[x] = c[x].a;
            planes[W + x] = c[x].b;
            planes[2 * W + x] = c[x].w0;
            planes[3 * W + x] = c[x].w1;
        }
        if (kernel_band && band) {
            perm_tables(p, i, planes);
            planes[7 * p->W] = vpass16_exact(p, i);
        } else {
            memset(planes + 5 * p->W, 0xff, (size_t)p->W * sizeof *planes);
        }
    }
    memcpy(host + t.lut_at * 16, p->lut, (size_t)p->C * 256 * p->es);
    if (p->n_coefs)
        memcpy(host + t.coef_at * 16, p->coefs, p->n_coefs * sizeof(int32_t));
    if (p->yuv)
        memcpy(host + t.chroma_at * 16, p->cdesc, p->n * sizeof *p->cdesc);
    cl_int err;
    cl_mem tab = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                t.units * 16, host, &err);
    free(host);
    if (!tab)
        return clpad__fail_cl(err, "clCreateBuffer(letterbox tables)");

    cl_long rows_at = (cl_long)t.rows_at, cols_at = (cl_long)t.cols_at,
            lut_at = (cl_long)t.lut_at;
    cl_ulong dst_off = output_offset; /* bytes: a multiple of the element size */
    cl_int out_bytes = (cl_int)p->es;
    cl_long H = p->H, W = p->W, n_rows = (cl_long)p->n * p->H;
    cl_int C = p->C, nhwc = p->layout == CLPAD_LAYOUT_NHWC;
    cl_int4 chan = {{0, 0, 0, 0}};
    cl_uint4 fill = {{0, 0, 0, 0}};
    cl_float2 scale = {{p->scale, p->divisor}};
    cl_float4 mean = {{0, 0, 0, 0}}, std_ = {{1, 1, 1, 1}};
    for (int c = 0; c < p->C; c++) {
        chan.s[c] = p->src_chan[c];
        mean.s[c] = p->mean[c];
        std_.s[c] = p->std[c];
        uint32_t f = 0;
        if (p->es == 1)
            f = p->fill[c];
        else if (p->es == 2) {
            uint16_t h;
            memcpy(&h, p->fill + 2 * c, 2);
            f = h;
        } else {
            memcpy(&f, p->fill + 4 * c, 4);
        }
        fill.s[c] = f;
    }
    char options[CLPAD_OPTIONS_MAX];
    clpad__lb_options(ctx, stream, options, sizeof options);
    clpad_kernel_call kc;
    clpad_status st = clpad__kernel_begin(
        ctx, "letterbox", options,
        p->taps ? "letterbox_taps" : p->yuv ? "letterbox_yuv" : "letterbox", tab, &kc);
    if (st)
        return st;
    clpad_row_geometry g;
    lb_geometry(ctx, kc.k, ((size_t)p->W + LB_VEC - 1) / LB_VEC, (size_t)n_rows, band, &g);
    clpad__arg_mem(&kc, "src", input);
    clpad__arg_mem(&kc, "tab", tab);
    CLPAD_ARGS(&kc, CLPAD_ARG(rows_at), CLPAD_ARG(cols_at), CLPAD_ARG(lut_at));
    clpad__arg_mem(&kc, "dst", output);
    CLPAD_ARGS(&kc, CLPAD_ARG(dst_off), CLPAD_ARG(out_bytes), CLPAD_ARG(H), CLPAD_ARG(W),
               CLPAD_ARG(C), CLPAD_ARG(nhwc), CLPAD_ARG(chan), CLPAD_ARG(fill), CLPAD_ARG(scale),
               CLPAD_ARG(mean), {"std", sizeof std_, &std_});
    clpad__arg_rows(&kc, n_rows, &g);
    clpad__arg(&kc, "rows_per_item", sizeof g.rows_per_item, &g.rows_per_item);
    cl_long coef_at = (cl_long)t.coef_at;
    if (p->taps)
        clpad__arg(&kc, "coef_at", sizeof coef_at, &coef_at);
    if (p->yuv) {
        cl_long chroma_at = (cl_long)t.chroma_at;
        cl_int8 yk = {{0}};
        for (int j = 0; j < CLPAD_YUV_K; j++)
            yk.s[j] = p->yk[j];
        yk.s[7] = p->yuv == CLPAD_INPUT_NV12 || p->yuv == CLPAD_INPUT_NV21 ? 2 : 1;
        clpad__arg(&kc, "chroma_at", sizeof chroma_at, &chroma_at);
        clpad__arg(&kc, "yuv", sizeof yk, &yk);
        cl_int nd = (cl_int)n_direct;
        clpad__arg(&kc, "direct", sizeof nd, &nd);
        for (size_t i = 0; i < LB_DIRECT; i++)
            clpad__arg_mem(&kc, "f", i < n_direct ? direct[i] : input);
    }
    return clpad__kernel_launch(&kc, queue, &g, num_events, wait_list, event); /* releases tab */
}

/* Whether YUV frame i's planes lie inside an input buffer of `size` bytes
 * (offsets as clpad_enqueue_letterbox reads them). */
static clpad_status check_yuv_buffer(const clpad_image *im, size_t i, int format, size_t size)
{
    bool semi = format == CLPAD_INPUT_NV12 || format == CLPAD_INPUT_NV21;
    int64_t ys = im->row_stride ? im->row_stride : im->width;
    int64_t u, us, v, vs;
    clpad__lb_yuv_chroma(im, format, (int64_t)im->offset, (int64_t)im->plane_offset[0],
                         (int64_t)im->plane_offset[1], &u, &us, &v, &vs);
    /* {first byte, stride, rows, bytes of a row} of Y, U, V */
    int64_t ch = im->height / 2, cb = semi ? im->width - 1 : im->width / 2;
    const int64_t planes[3][4] = {{(int64_t)im->offset, ys, im->height, im->width},
                                  {u, us, ch, cb},
                                  {v, vs, ch, cb}};
    static const char *const names[3] = {"the Y plane", "the U samples", "the V samples"};
    for (int k = 0; k < 3; k++) {
        uint64_t at = (uint64_t)planes[k][0];
        uint64_t end = (uint64_t)(planes[k][2] - 1) * (uint64_t)planes[k][1] + (uint64_t)planes[k][3];
        if (planes[k][0] < 0 || at > size || size - at < end)
            return clpad__fail_at(CLPAD_ERR_BUFFER_TOO_SMALL, "images", (int64_t)i,
                                  "images[%zu]: %s at byte %lld + %llu bytes lie outside the input "
                                  "buffer of %zu bytes",
                                  i, names[k], (long long)planes[k][0], (unsigned long long)end,
                                  size);
    }
    return CLPAD_OK;
}

clpad_status clpad_enqueue_letterbox(clpad_context *ctx, const clpad_image *images, size_t n,
                                     const clpad_letterbox_options *opts, cl_mem input,
                                     cl_mem output, size_t output_offset,
                                     clpad_letterbox_transform *transforms,
                                     cl_command_queue queue, cl_uint num_events,
                                     const cl_event *wait_list, cl_event *event)
{
    clpad_status st = clpad__enqueue_enter(ctx, "enqueue_letterbox");
    if (st)
        return st;
    lb_plan p;
    if ((st = clpad__lb_check(images, n, opts, false, &p, transforms)))
        return st;
    /* (the images' places in the input are checked below) */
    if ((st = clpad__check_enqueue("enqueue_letterbox", num_events, wait_list, input, 0, 0,
                                   output, output_offset, p.out_bytes, p.es)))
        return st;
    if (p.out_bytes > 0) {
        size_t size;
        if ((st = clpad__buffer_size(input, "input", &size)))
            return st;
        for (size_t i = 0; i < n && p.yuv; i++)
            if ((st = check_yuv_buffer(&images[i], i, p.yuv, size)))
                return st;
        for (size_t i = 0; i < n && !p.yuv; i++) {
            const clpad_image *im = &images[i];
            uint64_t row = (uint64_t)(im->width * im->channels);
            uint64_t stride = im->row_stride ? (uint64_t)im->row_stride : row;
            uint64_t end = (uint64_t)(im->height - 1) * stride + row;
            if (im->offset > size || size - im->offset < end)
                return clpad__fail_at(CLPAD_ERR_BUFFER_TOO_SMALL, "images", (int64_t)i,
                                   "images[%zu]: offset %zu + %llu bytes lies outside the input "
                                   "buffer of %zu bytes",
                                   i, im->offset, (unsigned long long)end, size);
        }
    }
    if ((st = clpad__lb_tables(images, opts, &p)))
        return st;
    if (p.taps && (ctx->quirks & CLPAD_QUIRK_LOOP_LIMIT)) {
        clpad__lb_free(&p);
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "enqueue_letterbox: interp %s on %s: this device ends long kernel "
                           "loops early (quirk loop-limit, docs/devices.md); use "
                           "clpad_letterbox, which runs it on the CPU path there",
                           clpad_interp_name(opts->interp), ctx->device_name);
    }
    size_t in_size = 0;
    if (p.out_bytes > 0)
        clGetMemObjectInfo(input, CL_MEM_SIZE, sizeof in_size, &in_size, NULL);
    for (size_t i = 0; i < n && !p.yuv; i++)
        p.desc[i].wide_rows =
            clpad__lb_wide_rows(images[i].offset, images[i].height, p.desc[i].stride,
                                images[i].width * p.C, p.C, in_size);
    st = enqueue_plan(ctx, &p, input, NULL, 0, output, output_offset, queue ? queue : ctx->queue,
                      num_events, wait_list, event);
    clpad__lb_free(&p);
    if (!st)
        clpad__lb_put_transforms(images, n, opts, p.H, p.W, transforms);
    return st;
}

/* ---- Host pointers ------------------------------------------------------------------- */

typedef struct lb_cpu_job {
    const lb_plan *p;
    const unsigned char *const *src;
    void *out;
    int64_t rows_per_task, n_rows;
} lb_cpu_job;

static void cpu_task(void *arg, int i)
{
    const lb_cpu_job *j = arg;
    int64_t r0 = (int64_t)i * j->rows_per_task, r1 = r0 + j->rows_per_task;
    clpad__lb_run_rows(j->p, j->src, j->out, r0, r1 < j->n_rows ? r1 : j->n_rows);
}

/* The CPU path of a host call: the plan on the caller's pointers, output
 * rows shared out among the pool's threads. */
static clpad_status run_cpu_parallel(lb_plan *p, const clpad_image *images, void *output)
{
    const unsigned char **src = clpad__lb_sources(p, images);
    if (!src)
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox: out of host memory");
    int64_t n_rows = (int64_t)p->n * p->H;
    int threads = clpad__pool_threads();
    int64_t tasks = threads > 1 ? (int64_t)threads * 4 : 1;
    if (tasks > n_rows)
        tasks = n_rows;
    if (tasks > 0) {
        lb_cpu_job j = {p, src, output, (n_rows + tasks - 1) / tasks, n_rows};
        clpad__parallel_for((int)((n_rows + j.rows_per_task - 1) / j.rows_per_task), cpu_task,
                            &j);
    }
    free((void *)src);
    return CLPAD_OK;
}

typedef struct lb_host_call {
    const lb_plan *p;
    const cl_mem *direct; /* YUV frames [0, n_direct) in place */
    size_t n_direct;
} lb_host_call;

/* The gathered rows start at byte in_off of `in` (the host-pointer path wraps
 * host memory from an aligned address below it): the image offsets move by
 * in_off while the tables are made (enqueue_plan copies them at once); those
 * of frames read in place are already their buffers'. */
static clpad_status host_enqueue(clpad_context *ctx, cl_mem in, size_t in_off, cl_mem out,
                                 size_t out_off, cl_command_queue q, cl_event *event,
                                 const void *closure)
{
    const lb_host_call *c = closure;
    lb_desc *desc = c->p->desc;
    lb_chroma *cd = c->p->cdesc;
    for (size_t i = c->n_direct; i < c->p->n; i++) {
        desc[i].offset += (int64_t)in_off;
        if (cd)
            cd[i].u += (int64_t)in_off, cd[i].v += (int64_t)in_off;
    }
    clpad_status st =
        enqueue_plan(ctx, c->p, in, c->direct, c->n_direct, out, out_off, q, 0, NULL, event);
    for (size_t i = c->n_direct; i < c->p->n; i++) {
        desc[i].offset -= (int64_t)in_off;
        if (cd)
            cd[i].u -= (int64_t)in_off, cd[i].v -= (int64_t)in_off;
    }
    return st;
}

/* The bytes of image i's source rows that its tables read (the rows the
 * gather copies); map: scratch of at least images[i].height entries. */
static size_t gathered_bytes(const lb_plan *p, const clpad_image *im, size_t i, int32_t *map)
{
    if (p->yuv) /* the whole frame, its planes dense */
        return (size_t)(im->height * im->width / 2 * 3);
    memset(map, 0xff, (size_t)im->height * sizeof *map);
    size_t used = 0;
    const lb_entry *rows = p->rows + i * (size_t)p->H;
    for (int64_t y = 0; y < p->H; y++) {
        if (rows[y].a < 0)
            continue;
        if (p->taps) { /* rows a .. a + b - 1 */
            for (int32_t r = rows[y].a; r < rows[y].a + rows[y].b; r++)
                if (map[r] < 0)
                    map[r] = 0, used++;
            continue;
        }
        if (map[rows[y].a] < 0)
            map[rows[y].a] = 0, used++;
        if (map[rows[y].b] < 0)
            map[rows[y].b] = 0, used++;
    }
    return used * (size_t)(im->width * p->C);
}

/* Gather the source rows the tables of images [from, p->n) read into one
 * buffer of `total` bytes (the sum of their gathered_bytes) plus LB_SLACK
 * bytes of slack (every row is "wide"), image after image, and
 * point the plan's descriptors and row entries at it. Returns the buffer
 * (clpad__staging_get), or NULL when out of memory. */
static unsigned char *gather_rows(lb_plan *p, const clpad_image *images, size_t from,
                                  size_t total, int32_t *map)
{
    unsigned char *buf = clpad__staging_get(total + LB_SLACK);
    if (!buf)
        return NULL;
    memset(buf + total, 0, LB_SLACK);
    size_t at = 0;
    for (size_t i = from; i < p->n && p->yuv; i++) {
        /* a YUV frame whole: Y, then U, then V, each dense; the chroma of
         * NV12 / NV21 as one interleaved plane */
        const clpad_image *im = &images[i];
        bool semi = p->yuv == CLPAD_INPUT_NV12 || p->yuv == CLPAD_INPUT_NV21;
        int64_t h = im->height, w = im->width, ch = h / 2, cw = semi ? w : w / 2;
        int64_t u, us, v, vs;
        clpad__lb_yuv_chroma(im, p->yuv, (int64_t)(intptr_t)im->data,
                             (int64_t)(intptr_t)im->planes[0], (int64_t)(intptr_t)im->planes[1],
                             &u, &us, &v, &vs);
        const unsigned char *y = im->data;
        for (int64_t r = 0; r < h; r++)
            memcpy(buf + at + (size_t)(r * w), y + r * p->desc[i].stride, (size_t)w);
        p->desc[i].offset = (int64_t)at;
        p->desc[i].stride = w;
        at += (size_t)(h * w);
        if (semi) {
            /* the plane starts at the smaller of u, v */
            const unsigned char *c = (const unsigned char *)(intptr_t)(u < v ? u : v);
            for (int64_t r = 0; r < ch; r++)
                memcpy(buf + at + (size_t)(r * cw), c + r * us, (size_t)cw);
            p->cdesc[i] = (lb_chroma){(int64_t)at + (u > v), cw, (int64_t)at + (v > u), cw};
            at += (size_t)(ch * cw);
        } else {
            const unsigned char *cu = (const unsigned char *)(intptr_t)u,
                                *cv = (const unsigned char *)(intptr_t)v;
            for (int64_t r = 0; r < ch; r++)
                memcpy(buf + at + (size_t)(r * cw), cu + r * us, (size_t)cw);
            for (int64_t r = 0; r < ch; r++)
                memcpy(buf + at + (size_t)((ch + r) * cw), cv + r * vs, (size_t)cw);
            p->cdesc[i] = (lb_chroma){(int64_t)at, cw, (int64_t)(at + (size_t)(ch * cw)), cw};
            at += (size_t)(2 * ch * cw);
        }
    }
    for (size_t i = from; i < p->n && !p->yuv; i++) {
        const clpad_image *im = &images[i];
        size_t row_bytes = (size_t)(im->width * p->C);
        const unsigned char *data = im->data;
        int64_t stride = p->desc[i].stride;
        memset(map, 0xff, (size_t)im->height * sizeof *map);
        lb_entry *rows = p->rows + i * (size_t)p->H;
        int32_t next = 0;
        /* rows in source order, so that the copy reads the image forwards */
        for (int64_t y = 0; y < p->H; y++)
            if (rows[y].a >= 0 && p->taps)
                for (int32_t r = rows[y].a; r < rows[y].a + rows[y].b; r++)
                    map[r] = 0;
            else if (rows[y].a >= 0)
                map[rows[y].a] = map[rows[y].b] = 0;
        for (int64_t s = 0; s < im->height; s++) {
            if (map[s] < 0)
                continue;
            map[s] = next;
            memcpy(buf + at + (size_t)next * row_bytes, data + s * stride, row_bytes);
            next++;
        }
        /* (a variable-tap row's rows stay consecutive: b is their count) */
        for (int64_t y = 0; y < p->H; y++)
            if (rows[y].a >= 0 && p->taps)
                rows[y].a = map[rows[y].a];
            else if (rows[y].a >= 0)
                rows[y].a = map[rows[y].a], rows[y].b = map[rows[y].b];
        p->desc[i].offset = (int64_t)at;
        p->desc[i].stride = (int64_t)row_bytes;
        p->desc[i].wide_rows = next;
        at += (size_t)next * row_bytes;
    }
    return buf;
}

/* Images [i0, i0 + k) of a plan as a plan of their own (the tables are
 * views into p's; the output starts at image i0's slice). */
static lb_plan sub_plan(const lb_plan *p, size_t i0, size_t k)
{
    lb_plan s = *p;
    s.n = k;
    s.out_shape[0] = (int64_t)k;
    s.out_bytes = p->n ? p->out_bytes / p->n * k : 0;
    s.desc = p->desc + i0;
    s.rows = p->rows + i0 * (size_t)p->H;
    s.cols = p->cols + i0 * (size_t)p->W;
    s.cdesc = p->cdesc ? p->cdesc + i0 : NULL;
    return s;
}

/* Wrap the first YUV frames of a plan (at most LB_DIRECT, those in one
 * buffer: separate_planes 0, none overlapping an earlier one, since OpenCL
 * leaves buffers over overlapping host memory undefined) where they are,
 * when the context uses host memory in place, each in a buffer of its own
 * (direct[i]); point their descriptors at those buffers and subtract their
 * bytes from *gathered; *nd: how many. */
static clpad_status wrap_frames(clpad_context *ctx, lb_plan *p, const clpad_image *images,
                                cl_mem direct[LB_DIRECT], size_t *nd, size_t *gathered)
{
    size_t k = 0;
    uintptr_t span[LB_DIRECT][2]; /* [first byte, end) of each frame wrapped */
    *nd = 0;
    for (; k < p->n && k < LB_DIRECT && p->yuv && !images[k].separate_planes; k++) {
        const clpad_image *im = &images[k];
        int64_t u, us, v, vs, h = im->height, ys = p->desc[k].stride;
        clpad__lb_yuv_chroma(im, p->yuv, 0, 0, 0, &u, &us, &v, &vs);
        /* the frame's bytes: Y rows, then its chroma rows (check_yuv_buffer's ends) */
        bool semi = p->yuv == CLPAD_INPUT_NV12 || p->yuv == CLPAD_INPUT_NV21;
        int64_t cb = semi ? im->width - 1 : im->width / 2;
        int64_t end = (h - 1) * ys + im->width;
        if (u + (h / 2 - 1) * us + cb > end)
            end = u + (h / 2 - 1) * us + cb;
        if (v + (h / 2 - 1) * vs + cb > end)
            end = v + (h / 2 - 1) * vs + cb;
        if ((uint64_t)end + ctx->mem_base_align > ctx->max_alloc)
            break;
        /* (from the aligned start below the frame: what the buffer covers) */
        uintptr_t lo = (uintptr_t)im->data - (uintptr_t)im->data % ctx->mem_base_align,
                  hi = (uintptr_t)im->data + (uintptr_t)end;
        bool overlap = false;
        for (size_t i = 0; i < k; i++)
            overlap |= lo < span[i][1] && span[i][0] < hi;
        if (overlap)
            break;
        span[k][0] = lo;
        span[k][1] = hi;
        size_t off = 0;
        cl_int err;
        direct[k] = clpad__host_input(ctx, im->data, (size_t)end, &off, &err);
        if (!direct[k] && err != CL_SUCCESS) {
            for (size_t i = 0; i < k; i++)
                clReleaseMemObject(direct[i]);
            return clpad__fail_cl(err, "clCreateBuffer(frame)");
        }
        if (!direct[k])
            break;
        p->desc[k].offset = (int64_t)off;
        p->cdesc[k] = (lb_chroma){(int64_t)off + u, us, (int64_t)off + v, vs};
        *gathered -= gathered_bytes(p, im, k, NULL);
    }
    *nd = k;
    return CLPAD_OK;
}

/* The bytes of a packed plan's images when they are the caller's memory one
 * after another (image i + 1 starting where image i ends, each dense: one
 * image, or a 4-D array's) and the context reads host memory there in place:
 * then the kernel reads them where they are instead of a gathered copy of
 * their rows. 0 otherwise. */
static size_t in_place_bytes(const clpad_context *ctx, const lb_plan *p,
                             const clpad_image *images)
{
    if (p->yuv || p->n == 0 || !clpad__host_in_place(ctx, images[0].data))
        return 0;
    size_t total = 0;
    for (size_t i = 0; i < p->n; i++) {
        const clpad_image *im = &images[i];
        size_t row_bytes = (size_t)(im->width * p->C);
        if (p->desc[i].stride != (int64_t)row_bytes ||
            (const unsigned char *)im->data != (const unsigned char *)images[0].data + total)
            return 0;
        total += (size_t)im->height * row_bytes;
    }
    return total + ctx->mem_base_align <= ctx->max_alloc ? total : 0;
}

/* Run images [0, p->n) of a plan (with `gathered` bytes of rows) as one
 * launch; the run info accumulates in acc. */
static clpad_status run_launch(clpad_context *ctx, lb_plan *p, const clpad_image *images,
                               size_t gathered, int32_t *map, void *output, uint64_t moved,
                               clpad_run_info *acc)
{
    cl_mem direct[LB_DIRECT];
    size_t nd, span = in_place_bytes(ctx, p, images);
    clpad_status st = wrap_frames(ctx, p, images, direct, &nd, &gathered);
    if (st)
        return st;
    const unsigned char *in = images[0].data;
    unsigned char *buf = NULL;
    if (span) { /* offsets from the first image; rows wide while inside the span */
        __atomic_add_fetch(&ctx->in_place_reads, 1, __ATOMIC_RELAXED);
        for (size_t i = 0; i < p->n; i++) {
            p->desc[i].offset = (const unsigned char *)images[i].data - in;
            p->desc[i].wide_rows =
                clpad__lb_wide_rows((uint64_t)p->desc[i].offset, images[i].height,
                                    p->desc[i].stride, p->desc[i].stride, p->C, span);
        }
    } else if ((in = buf = gather_rows(p, images, nd, gathered, map)) == NULL) {
        st = clpad__fail(CLPAD_ERR_OUT_OF_MEMORY,
                         "letterbox: out of host memory to gather the images' rows");
    }
    lb_host_call c = {p, direct, nd};
    clpad_run_info ri;
    if (!st)
        st = clpad__run_host(ctx, in, span ? span : gathered + LB_SLACK, output, p->out_bytes,
                             moved, host_enqueue, &c, &ri);
    if (buf)
        clpad__staging_put(buf);
    for (size_t i = 0; i < nd; i++) /* (the launch is over: clpad__run_host waited) */
        clReleaseMemObject(direct[i]);
    if (!st) {
        acc->kernel_ns += ri.kernel_ns;
        acc->zero_copy &= ri.zero_copy;
    }
    return st;
}

/* The device path of a host call: one launch for the batch when its
 * gathered rows, its output and its tables each fit in one device buffer
 * (CL_DEVICE_MAX_MEM_ALLOC_SIZE); else the images in order, as many per
 * launch as fit (docs/letterbox.md, "One launch per batch"). An image that
 * does not fit alone is refused, naming the CPU path. */
static clpad_status run_device(clpad_context *ctx, lb_plan *p, const clpad_image *images,
                               void *output, uint64_t moved, clpad_run_info *acc)
{
    int64_t max_h = 1;
    for (size_t i = 0; i < p->n; i++)
        if (images[i].height > max_h)
            max_h = images[i].height;
    size_t *gathered = malloc((p->n ? p->n : 1) * sizeof *gathered);
    int32_t *map = malloc((size_t)max_h * sizeof *map);
    if (!gathered || !map) {
        free(gathered);
        free(map);
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY,
                           "letterbox: out of host memory to gather the images' rows");
    }
    lb_tab_layout t;
    tab_layout(p, &t);
    const uint64_t limit = ctx->max_alloc;
    const uint64_t slice = p->n ? p->out_bytes / p->n : 0;
    const uint64_t tab_image = (2 + (uint64_t)p->H + (uint64_t)p->W) * 16; /* desc, rows, cols */
    const uint64_t tab_fixed = (t.units - t.lut_at) * 16; /* the value table, coefficients */
    clpad_status st = CLPAD_OK;
    for (size_t i = 0; i < p->n; i++) {
        gathered[i] = gathered_bytes(p, &images[i], i, map);
        const char *what = gathered[i] + LB_SLACK > limit ? "the source rows it reads"
                           : slice > limit          ? "its output slice"
                           : tab_fixed + tab_image > limit ? "its resize tables"
                                                          : NULL;
        if (what) {
            uint64_t need = gathered[i] + LB_SLACK > limit ? gathered[i] + LB_SLACK
                            : slice > limit          ? slice
                                                     : tab_fixed + tab_image;
            st = clpad__fail_at(CLPAD_ERR_DEVICE_OUT_OF_RESOURCES, "images", (int64_t)i,
                             "images[%zu] needs %llu bytes for %s, more than the largest "
                             "buffer %s can allocate (CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu "
                             "bytes), even in a launch of its own; letterbox it on the CPU path "
                             "(CLI: --cpu; Python: device=\"reference\")",
                             i, (unsigned long long)need, what, ctx->device_name,
                             (unsigned long long)limit);
            goto done;
        }
    }
    for (size_t i0 = 0; i0 < p->n && !st;) {
        /* as many images from i0 on as fit */
        uint64_t in = LB_SLACK, tab = tab_fixed, out = 0;
        size_t k = 0;
        while (i0 + k < p->n && in + gathered[i0 + k] <= limit && out + slice <= limit &&
               tab + tab_image <= limit) {
            in += gathered[i0 + k];
            out += slice;
            tab += tab_image;
            k++;
        }
        lb_plan s = sub_plan(p, i0, k);
        st = run_launch(ctx, &s, images + i0, (size_t)(in - LB_SLACK), map,
                        (unsigned char *)output + i0 * slice, moved, acc);
        i0 += k;
    }
done:
    free(gathered);
    free(map);
    return st;
}

clpad_status clpad_letterbox(clpad_context *ctx, const clpad_image *images, size_t n,
                             const clpad_letterbox_options *opts, void *output,
                             size_t output_bytes, clpad_letterbox_transform *transforms,
                             clpad_run_info *info)
{
    uint64_t t0 = clpad__now_ns();
    lb_plan p;
    clpad_status st = clpad__host_enter(ctx, info, "letterbox");
    if (st || (st = clpad__lb_plan_host(images, n, opts, output, output_bytes, transforms,
                                               &p)))
        return st;
    uint64_t moved = p.in_bytes + p.out_bytes;
    /* the variable-tap kinds where kernel loops end early: the CPU path */
    bool loops = p.taps && (ctx->quirks & CLPAD_QUIRK_LOOP_LIMIT);
    if (clpad__host_call_on_cpu(ctx, moved) || loops) {
        st = run_cpu_parallel(&p, images, output);
        if (!st)
            clpad__run_info_put(info, (clpad_run_info){.total_ns = clpad__now_ns() - t0,
                                                       .bytes_moved = moved});
    } else {
        clpad_run_info acc = {.used_opencl = 1, .zero_copy = 1, .bytes_moved = moved};
        st = run_device(ctx, &p, images, output, moved, &acc);
        acc.total_ns = clpad__now_ns() - t0;
        if (!st)
            clpad__run_info_put(info, acc);
    }
    clpad__lb_free(&p);
    if (!st)
        clpad__lb_put_transforms(images, n, opts, p.H, p.W, transforms);
    return st;
}
