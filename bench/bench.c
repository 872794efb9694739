/* clpad throughput harness: every case against the device's copy bandwidth
 * (the physical limit of a data-movement op), the host-pointer path end to
 * end, the CPU reference path and single-thread memcpy, all in one run.
 *
 * Timing: the device kernel and the device copy (clEnqueueCopyBuffer) are both
 * timed by OpenCL profiling events; the end-to-end, CPU and memcpy columns by
 * the host's monotonic clock. Each figure is the median of --runs runs after
 * a warm-up run that also pays for program compilation. GB/s counts bytes
 * read + bytes written (input + output bytes; the copy moves the same total).
 */
#include "bench.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <regex.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef enum { OP_PAD, OP_S2B, OP_B2S, OP_LETTERBOX, OP_PAD_STACK, OP_PAD_NUMPY } bench_op;

/* A batch of images (letterbox) or tensors (pad-and-stack), packed one
 * after the other in one input buffer: item i at offset[i]. */
enum { BENCH_MAX_ITEMS = 256 };
typedef struct bench_batch {
    int n;
    int64_t shape[BENCH_MAX_ITEMS][2]; /* letterbox: H, W (RGB); pad-stack: L, D */
    size_t offset[BENCH_MAX_ITEMS];
    size_t in_bytes;
    clpad_letterbox_options o;         /* letterbox */
} bench_batch;
static bench_batch g_batches[4];
static int g_nbatches;

typedef struct bench_case {
    char label[64];
    bench_op op;
    clpad_pad_mode mode;
    clpad_dtype dtype;
    int rank;
    int64_t shape[CLPAD_MAX_RANK];
    int64_t a[CLPAD_MAX_RANK]; /* pads_begin or block_shape */
    int64_t b[CLPAD_MAX_RANK]; /* pads_end or pads_begin / crops_begin */
    int64_t c[CLPAD_MAX_RANK]; /* - or pads_end / crops_end */
    const char *value;         /* pad_value text, or NULL */
    clpad_numpy_mode np_mode;  /* OP_PAD_NUMPY: the statistic; a: pads_begin, b: pads_end,
                                  c: the stat length of both sides (-1: whole axis) */
    int batch;                 /* OP_LETTERBOX, OP_PAD_STACK: index in g_batches */
} bench_case;

typedef struct bench_result {
    size_t in_bytes, out_bytes;
    double copy_gbps;        /* the limit: the faster of the two below */
    double copy_buffer_gbps; /* clEnqueueCopyBuffer */
    double copy_kernel_gbps; /* a plain 16-byte-per-work-item copy kernel */
    double kernel_gbps, e2e_gbps, cpu_gbps, memcpy_gbps;
    double cpu_over_memcpy; /* median of the per-run ratios */
    double kernel_over_copy; /* median of the per-run ratios */
    double e2e_over_copy;    /* the same for the host-pointer path */
    const char *skipped; /* reason, or NULL */
    uint64_t launches;   /* kernel launches of one enqueue call (clpad_context_launches) */
} bench_result;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static uint64_t median(uint64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double gbps(size_t bytes, uint64_t ns) { return ns ? (double)bytes / (double)ns : 0; }

static uint64_t event_ns(cl_event ev)
{
    cl_ulong s = 0, e = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    return e > s ? e - s : 0;
}

/* ---- cases ---------------------------------------------------------------- */

/* The case table's capacity: every add_* below refuses to write past it. */
#define BENCH_MAX_CASES 128

/* Abort on a case table that outgrew BENCH_MAX_CASES (a programming error). */
static void check_capacity(int n)
{
    if (n >= BENCH_MAX_CASES) {
        fprintf(stderr, "bench: more than %d cases: raise BENCH_MAX_CASES\n", BENCH_MAX_CASES);
        abort();
    }
}

static int add_pad(bench_case *cs, int n, const char *name, clpad_pad_mode mode, clpad_dtype dt,
                   int rank, const int64_t *shape, const int64_t *pb, const int64_t *pe,
                   const char *value)
{
    check_capacity(n);
    bench_case *c = &cs[n];
    memset(c, 0, sizeof *c);
    snprintf(c->label, sizeof c->label, "%s/%s", name, clpad_pad_mode_name(mode));
    c->op = OP_PAD;
    c->mode = mode;
    c->dtype = dt;
    c->rank = rank;
    memcpy(c->shape, shape, (size_t)rank * 8);
    memcpy(c->a, pb, (size_t)rank * 8);
    memcpy(c->b, pe, (size_t)rank * 8);
    c->value = value;
    return n + 1;
}

/* A numpy.pad statistic case (clpad_pad_numpy): pads and one stat length
 * for every axis and side. */
static int add_np(bench_case *cs, int n, const char *name, clpad_numpy_mode mode, clpad_dtype dt,
                  int rank, const int64_t *shape, const int64_t *pb, const int64_t *pe,
                  int64_t stat)
{
    static const char *names[] = {"maximum", "minimum", "mean", "median"};
    check_capacity(n);
    bench_case *c = &cs[n];
    memset(c, 0, sizeof *c);
    snprintf(c->label, sizeof c->label, "%s/%s-stat%lld", name, names[mode], (long long)stat);
    c->op = OP_PAD_NUMPY;
    c->np_mode = mode;
    c->dtype = dt;
    c->rank = rank;
    memcpy(c->shape, shape, (size_t)rank * 8);
    memcpy(c->a, pb, (size_t)rank * 8);
    memcpy(c->b, pe, (size_t)rank * 8);
    for (int i = 0; i < rank; i++)
        c->c[i] = stat;
    return n + 1;
}

/* A space-to-batch or batch-to-space case with zero pads / crops. */
static int add_sb(bench_case *cs, int n, bench_op op, const char *name, int rank,
                  const int64_t *shape, const int64_t *block)
{
    check_capacity(n);
    bench_case *c = &cs[n];
    memset(c, 0, sizeof *c);
    c->op = op;
    snprintf(c->label, sizeof c->label, "%s-%s",
             op == OP_S2B ? "space-to-batch" : "batch-to-space", name);
    c->dtype = CLPAD_F32;
    c->rank = rank;
    memcpy(c->shape, shape, (size_t)rank * 8);
    memcpy(c->a, block, (size_t)rank * 8);
    return n + 1;
}

/* A letterbox batch: `n` RGB images cycling through `sizes` (H, W) into
 * out x out, f32 NCHW, scale 1/255 (YOLO's input). */
static int add_letterbox(bench_case *cs, int n, const char *name, int count,
                         const int64_t (*sizes)[2], int n_sizes, int64_t out_h, int64_t out_w)
{
    check_capacity(n);
    if (g_nbatches == (int)(sizeof g_batches / sizeof *g_batches) || count > BENCH_MAX_ITEMS)
        abort();
    bench_batch *b = &g_batches[g_nbatches];
    memset(b, 0, sizeof *b);
    b->n = count;
    for (int i = 0; i < count; i++) {
        b->shape[i][0] = sizes[i % n_sizes][0];
        b->shape[i][1] = sizes[i % n_sizes][1];
        b->offset[i] = b->in_bytes;
        b->in_bytes += (size_t)(b->shape[i][0] * b->shape[i][1] * 3);
    }
    clpad_letterbox_options_init(&b->o, out_h, out_w);
    b->o.scale = 1.0f / 255.0f;
    bench_case *c = &cs[n];
    memset(c, 0, sizeof *c);
    snprintf(c->label, sizeof c->label, "letterbox-%s", name);
    c->op = OP_LETTERBOX;
    c->dtype = CLPAD_F32;
    c->batch = g_nbatches++;
    return n + 1;
}

/* A pad-and-stack batch: `count` f16 tensors [L_i, D], L_i in 1..max_len
 * (a fixed pseudo-random draw), into [count, max L_i, D] with zeros at the
 * end (pad_sequence). */
static int add_pad_stack(bench_case *cs, int n, const char *name, int count, int64_t max_len,
                         int64_t D)
{
    check_capacity(n);
    if (g_nbatches == (int)(sizeof g_batches / sizeof *g_batches) || count > BENCH_MAX_ITEMS)
        abort();
    bench_batch *b = &g_batches[g_nbatches];
    memset(b, 0, sizeof *b);
    b->n = count;
    uint64_t x = 0x5EED;
    for (int i = 0; i < count; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        b->shape[i][0] = 1 + (int64_t)((x >> 33) % (uint64_t)max_len);
        b->shape[i][1] = D;
        b->offset[i] = b->in_bytes;
        b->in_bytes += (size_t)(b->shape[i][0] * D * 2);
    }
    bench_case *c = &cs[n];
    memset(c, 0, sizeof *c);
    snprintf(c->label, sizeof c->label, "pad-stack-%s", name);
    c->op = OP_PAD_STACK;
    c->dtype = CLPAD_F16;
    c->batch = g_nbatches++;
    return n + 1;
}

/* The throughput cases, and NCHW space/batch moves (a blocked innermost axis:
 * single-element runs); `quick` shrinks the large ones 8-16x for a fast look. */
static int make_cases(bench_case *cs, bool quick)
{
    int n = 0;
    int64_t q = quick ? 4 : 1;
    for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++) {
        clpad_pad_mode mode = (clpad_pad_mode)m;
        n = add_pad(cs, n, "nchw-f32-8x64x256x256", mode, CLPAD_F32, 4,
                    (int64_t[]){8 / (quick ? 2 : 1), 64 / q, 256, 256}, (int64_t[]){0, 0, 1, 2},
                    (int64_t[]){0, 0, 3, 1}, NULL);
        n = add_pad(cs, n, "f16-4x256x56x56", mode, CLPAD_F16, 4, (int64_t[]){4, 256 / q, 56, 56},
                    (int64_t[]){0, 0, 1, 1}, (int64_t[]){0, 0, 1, 1}, NULL);
        n = add_pad(cs, n, "outer-only-f32-16x512x1024", mode, CLPAD_F32, 3,
                    (int64_t[]){16, 512 / q, 1024}, (int64_t[]){2, 0, 0}, (int64_t[]){3, 0, 0},
                    NULL);
        n = add_pad(cs, n, "inner-only-f32-4096x1021", mode, CLPAD_F32, 2,
                    (int64_t[]){4096 / q, 1021}, (int64_t[]){0, 3}, (int64_t[]){0, 2}, NULL);
        n = add_pad(cs, n, "crop-only-f32-8x64x256x256", mode, CLPAD_F32, 4,
                    (int64_t[]){8, 64 / q, 256, 256}, (int64_t[]){0, 0, -2, -3},
                    (int64_t[]){0, 0, -1, -2}, NULL);
        n = add_pad(cs, n, "1d-f32-64M", mode, CLPAD_F32, 1, (int64_t[]){(64 << 20) / q},
                    (int64_t[]){7}, (int64_t[]){5}, NULL);
        n = add_pad(cs, n, "1d-u8-64M", mode, CLPAD_U8, 1, (int64_t[]){(64 << 20) / q},
                    (int64_t[]){7}, (int64_t[]){5}, NULL);
        n = add_pad(cs, n, "small-f32-1x3x224x224", mode, CLPAD_F32, 4,
                    (int64_t[]){1, 3, 224, 224}, (int64_t[]){0, 0, 2, 2}, (int64_t[]){0, 0, 2, 2},
                    NULL);
    }
    n = add_pad(cs, n, "letterbox-nhwc-u8-1x2160x3840x3", CLPAD_PAD_CONSTANT, CLPAD_U8, 4,
                (int64_t[]){1, 2160 / q, 3840 / q, 3}, (int64_t[]){0, 840 / q, 0, 0},
                (int64_t[]){0, 840 / q, 0, 0}, "114");
    /* numpy.pad's statistics on the large image case: 8 of the edge, and
     * the whole axis (numpy's default: every row read once more per axis) */
    for (int m = CLPAD_NUMPY_MAXIMUM; m <= CLPAD_NUMPY_MEAN; m += 2)
        for (int64_t stat = 8; stat >= -1; stat -= 9)
            n = add_np(cs, n, "nchw-f32-8x64x256x256", (clpad_numpy_mode)m, CLPAD_F32, 4,
                       (int64_t[]){8 / (quick ? 2 : 1), 64 / q, 256, 256},
                       (int64_t[]){0, 0, 1, 2}, (int64_t[]){0, 0, 3, 1}, stat);
    /* NHWC 8x128x128x64 with block [1,2,2,1], and the inverse of its output */
    int64_t h = 128 / (quick ? 2 : 1);
    n = add_sb(cs, n, OP_S2B, "f32-8x128x128x64", 4, (int64_t[]){8, h, 128, 64},
               (int64_t[]){1, 2, 2, 1});
    n = add_sb(cs, n, OP_B2S, "f32-8x128x128x64", 4, (int64_t[]){32, h / 2, 64, 64},
               (int64_t[]){1, 2, 2, 1});
    /* NCHW 8x64x224x224 with block [1,1,2,2], and the inverse */
    n = add_sb(cs, n, OP_S2B, "nchw-f32-8x64x224x224", 4, (int64_t[]){8, 64 / q, 224, 224},
               (int64_t[]){1, 1, 2, 2});
    n = add_sb(cs, n, OP_B2S, "nchw-f32-8x64x224x224", 4, (int64_t[]){32, 64 / q, 112, 112},
               (int64_t[]){1, 1, 2, 2});
    /* Detector input: 16 photos of four common sizes into 640x640; and a
     * classifier's: 64 images 224x224 into 256x256. One launch each. */
    g_nbatches = 0;
    static const int64_t photos[4][2] = {{1080, 1920}, {720, 1280}, {480, 640}, {3024, 4032}};
    n = add_letterbox(cs, n, "16-mixed-to-640x640", quick ? 4 : 16, photos, 4, 640, 640);
    static const int64_t small[1][2] = {{224, 224}};
    n = add_letterbox(cs, n, "64x224x224-to-256x256", quick ? 16 : 64, small, 1, 256, 256);
    /* A token batch: 256 sequences of 1..512 tokens of 768 f16, pad_sequence. */
    n = add_pad_stack(cs, n, "256x[1..512,768]-f16", quick ? 64 : 256, 512, 768);
    return n;
}

/* ---- running one case ----------------------------------------------------- */

/* The images of a letterbox batch: at their offsets in the device buffer
 * (base NULL) or in the host buffer `base`. */
static void batch_images(const bench_batch *b, const unsigned char *base, clpad_image *im)
{
    for (int i = 0; i < b->n; i++)
        im[i] = (clpad_image){.data = base ? base + b->offset[i] : NULL,
                              .offset = base ? 0 : b->offset[i], .height = b->shape[i][0],
                              .width = b->shape[i][1], .channels = 3};
}

/* Input and output bytes of a case. */
/* The shapes and inputs of a pad-stack batch (base: the host buffer). */
static void batch_tensors(const bench_batch *b, const unsigned char *base, int64_t *shapes,
                          const void **inputs)
{
    for (int i = 0; i < b->n; i++) {
        shapes[2 * i] = b->shape[i][0];
        shapes[2 * i + 1] = b->shape[i][1];
        if (inputs)
            inputs[i] = base + b->offset[i];
    }
}

/* ---- one description per operation ---------------------------------------------- */

/* Input and output bytes of a batch case (the others take them from the
 * output shape). */
static clpad_status batch_bytes(const bench_case *c, size_t *in_bytes, size_t *out_bytes)
{
    const bench_batch *b = &g_batches[c->batch];
    *in_bytes = b->in_bytes;
    if (c->op == OP_PAD_STACK) {
        int64_t shapes[2 * BENCH_MAX_ITEMS], os[3];
        batch_tensors(b, NULL, shapes, NULL);
        clpad_status st = clpad_pad_stack_plan(2, (size_t)b->n, shapes, NULL, CLPAD_PAD_CONSTANT,
                                               CLPAD_PLACE_TOP_LEFT, os, NULL, NULL);
        *out_bytes = st ? 0 : (size_t)(os[0] * os[1] * os[2]) * 2;
        return st;
    }
    clpad_image im[BENCH_MAX_ITEMS];
    batch_images(b, NULL, im);
    int64_t s[4];
    clpad_status st = clpad_letterbox_plan(im, (size_t)b->n, &b->o, s, NULL);
    *out_bytes = st ? 0 : (size_t)(s[0] * s[1] * s[2] * s[3]) * clpad_dtype_size(b->o.dtype);
    return st;
}

static clpad_status pad_shape(const bench_case *c, int64_t *os)
{
    return clpad_pad_output_shape(c->rank, c->shape, c->a, c->b, CLPAD_PAD_OPTIONS(c->mode), os);
}
static clpad_status pad_enqueue(clpad_context *ctx, const bench_case *c, const void *value,
                                cl_mem in, cl_mem out, cl_event *ev)
{
    return clpad_enqueue_pad(ctx, c->dtype, c->rank, c->shape, in, 0, c->a, c->b,
                             CLPAD_PAD_OPTIONS(c->mode), value, out, 0, NULL, 0, NULL, ev);
}
static clpad_status pad_host(clpad_context *ctx, const bench_case *c, const void *value,
                             const void *in, void *out, size_t out_bytes, clpad_run_info *info)
{
    return clpad_pad(ctx, c->dtype, c->rank, c->shape, in, c->a, c->b, CLPAD_PAD_OPTIONS(c->mode),
                     value, out, out_bytes, info);
}
static clpad_status pad_cpu(const bench_case *c, const void *value, const void *in, void *out,
                            size_t out_bytes)
{
    return clpad_pad_cpu(c->dtype, c->rank, c->shape, in, c->a, c->b, CLPAD_PAD_OPTIONS(c->mode),
                         value, out, out_bytes);
}

static clpad_status s2b_shape(const bench_case *c, int64_t *os)
{
    return clpad_space_to_batch_output_shape(c->rank, c->shape, c->a, c->b, c->c, os);
}
static clpad_status s2b_enqueue(clpad_context *ctx, const bench_case *c, const void *value,
                                cl_mem in, cl_mem out, cl_event *ev)
{
    return clpad_enqueue_space_to_batch(ctx, c->dtype, c->rank, c->shape, in, 0, c->a, c->b, c->c,
                                        out, 0, NULL, 0, NULL, ev);
}
static clpad_status s2b_host(clpad_context *ctx, const bench_case *c, const void *value,
                             const void *in, void *out, size_t out_bytes, clpad_run_info *info)
{
    return clpad_space_to_batch(ctx, c->dtype, c->rank, c->shape, in, c->a, c->b, c->c, out,
                                out_bytes, info);
}
static clpad_status s2b_cpu(const bench_case *c, const void *value, const void *in, void *out,
                            size_t out_bytes)
{
    return clpad_space_to_batch_cpu(c->dtype, c->rank, c->shape, in, c->a, c->b, c->c, out,
                                    out_bytes);
}

static clpad_status b2s_shape(const bench_case *c, int64_t *os)
{
    return clpad_batch_to_space_output_shape(c->rank, c->shape, c->a, c->b, c->c, os);
}
static clpad_status b2s_enqueue(clpad_context *ctx, const bench_case *c, const void *value,
                                cl_mem in, cl_mem out, cl_event *ev)
{
    return clpad_enqueue_batch_to_space(ctx, c->dtype, c->rank, c->shape, in, 0, c->a, c->b, c->c,
                                        out, 0, NULL, 0, NULL, ev);
}
static clpad_status b2s_host(clpad_context *ctx, const bench_case *c, const void *value,
                             const void *in, void *out, size_t out_bytes, clpad_run_info *info)
{
    return clpad_batch_to_space(ctx, c->dtype, c->rank, c->shape, in, c->a, c->b, c->c, out,
                                out_bytes, info);
}
static clpad_status b2s_cpu(const bench_case *c, const void *value, const void *in, void *out,
                            size_t out_bytes)
{
    return clpad_batch_to_space_cpu(c->dtype, c->rank, c->shape, in, c->a, c->b, c->c, out,
                                    out_bytes);
}

static clpad_status lb_enqueue(clpad_context *ctx, const bench_case *c, const void *value,
                               cl_mem in, cl_mem out, cl_event *ev)
{
    const bench_batch *b = &g_batches[c->batch];
    clpad_image im[BENCH_MAX_ITEMS];
    batch_images(b, NULL, im);
    return clpad_enqueue_letterbox(ctx, im, (size_t)b->n, &b->o, in, out, 0, NULL, NULL, 0, NULL,
                                   ev);
}
static clpad_status lb_host(clpad_context *ctx, const bench_case *c, const void *value,
                            const void *in, void *out, size_t out_bytes, clpad_run_info *info)
{
    const bench_batch *b = &g_batches[c->batch];
    clpad_image im[BENCH_MAX_ITEMS];
    batch_images(b, in, im);
    return clpad_letterbox(ctx, im, (size_t)b->n, &b->o, out, out_bytes, NULL, info);
}
static clpad_status lb_cpu(const bench_case *c, const void *value, const void *in, void *out,
                           size_t out_bytes)
{
    const bench_batch *b = &g_batches[c->batch];
    clpad_image im[BENCH_MAX_ITEMS];
    batch_images(b, in, im);
    return clpad_letterbox_cpu(im, (size_t)b->n, &b->o, out, out_bytes, NULL);
}

static clpad_status ps_enqueue(clpad_context *ctx, const bench_case *c, const void *value,
                               cl_mem in, cl_mem out, cl_event *ev)
{
    const bench_batch *b = &g_batches[c->batch];
    int64_t shapes[2 * BENCH_MAX_ITEMS];
    batch_tensors(b, NULL, shapes, NULL);
    return clpad_enqueue_pad_stack(ctx, CLPAD_F16, 2, (size_t)b->n, shapes, in, b->offset, NULL,
                                   CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL,
                                   CLPAD_PLACE_TOP_LEFT, out, 0, NULL, 0, NULL, ev);
}
static clpad_status ps_host(clpad_context *ctx, const bench_case *c, const void *value,
                            const void *in, void *out, size_t out_bytes, clpad_run_info *info)
{
    const bench_batch *b = &g_batches[c->batch];
    int64_t shapes[2 * BENCH_MAX_ITEMS];
    const void *inputs[BENCH_MAX_ITEMS];
    batch_tensors(b, in, shapes, inputs);
    return clpad_pad_stack(ctx, CLPAD_F16, 2, (size_t)b->n, shapes, inputs, NULL,
                           CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL, CLPAD_PLACE_TOP_LEFT, out,
                           out_bytes, info);
}
static clpad_status ps_cpu(const bench_case *c, const void *value, const void *in, void *out,
                           size_t out_bytes)
{
    const bench_batch *b = &g_batches[c->batch];
    int64_t shapes[2 * BENCH_MAX_ITEMS];
    const void *inputs[BENCH_MAX_ITEMS];
    batch_tensors(b, in, shapes, inputs);
    return clpad_pad_stack_cpu(CLPAD_F16, 2, (size_t)b->n, shapes, inputs, NULL,
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL, CLPAD_PLACE_TOP_LEFT,
                               out, out_bytes);
}

static clpad_status np_shape(const bench_case *c, int64_t *os)
{
    for (int i = 0; i < c->rank; i++)
        os[i] = c->shape[i] + c->a[i] + c->b[i];
    return CLPAD_OK;
}
/* The start of an enqueue of several launches (a marker before the first),
 * or NULL: the kernel figure then spans from it to the end of the returned
 * event, not the last launch alone. */
static cl_event g_span_begin;

static clpad_status np_enqueue(clpad_context *ctx, const bench_case *c, const void *value,
                               cl_mem in, cl_mem out, cl_event *ev)
{
    (void)value;
    if (clEnqueueMarkerWithWaitList(clpad_context_queue(ctx), 0, NULL, &g_span_begin) !=
        CL_SUCCESS)
        g_span_begin = NULL;
    return clpad_enqueue_pad_numpy(ctx, c->dtype, c->rank, c->shape, in, 0, c->a, c->b,
                                   c->np_mode, c->c, c->c, out, 0, NULL, 0, NULL, ev);
}
static clpad_status np_host(clpad_context *ctx, const bench_case *c, const void *value,
                            const void *in, void *out, size_t out_bytes, clpad_run_info *info)
{
    (void)value;
    return clpad_pad_numpy(ctx, c->dtype, c->rank, c->shape, in, c->a, c->b, c->np_mode, c->c,
                           c->c, out, out_bytes, info);
}
static clpad_status np_cpu(const bench_case *c, const void *value, const void *in, void *out,
                          size_t out_bytes)
{
    (void)value;
    return clpad_pad_numpy_cpu(c->dtype, c->rank, c->shape, in, c->a, c->b, c->np_mode, c->c,
                               c->c, out, out_bytes);
}

/* Each operation the bench times, as the library names it
 * (clpad_operation_name), with its three paths: the device enqueue, the
 * host-pointer call and the CPU function; and the output shape of a
 * single-tensor case or the bytes of a batch case. clpad_bench_main checks
 * that every operation of the library has an entry. */
typedef struct bench_routine {
    const char *name;
    clpad_status (*shape)(const bench_case *c, int64_t *out_shape);
    clpad_status (*bytes)(const bench_case *c, size_t *in_bytes, size_t *out_bytes);
    clpad_status (*enqueue)(clpad_context *ctx, const bench_case *c, const void *value,
                            cl_mem in, cl_mem out, cl_event *ev);
    clpad_status (*host)(clpad_context *ctx, const bench_case *c, const void *value,
                         const void *in, void *out, size_t out_bytes, clpad_run_info *info);
    clpad_status (*cpu)(const bench_case *c, const void *value, const void *in, void *out,
                        size_t out_bytes);
} bench_routine;

static const bench_routine k_routines[] = {
    [OP_PAD] = {"pad", pad_shape, NULL, pad_enqueue, pad_host, pad_cpu},
    [OP_S2B] = {"space_to_batch", s2b_shape, NULL, s2b_enqueue, s2b_host, s2b_cpu},
    [OP_B2S] = {"batch_to_space", b2s_shape, NULL, b2s_enqueue, b2s_host, b2s_cpu},
    [OP_LETTERBOX] = {"letterbox", NULL, batch_bytes, lb_enqueue, lb_host, lb_cpu},
    [OP_PAD_STACK] = {"pad_stack", NULL, batch_bytes, ps_enqueue, ps_host, ps_cpu},
    [OP_PAD_NUMPY] = {"pad_numpy", np_shape, NULL, np_enqueue, np_host, np_cpu},
};

static const char *op_name(bench_op op) { return k_routines[op].name; }

/* The library's operations the bench has no routine for (first one), or
 * NULL: a new operation must come with its bench cases. */
static const char *unbenched_operation(void)
{
    for (size_t i = 0; clpad_operation_name(i); i++) {
        bool found = false;
        for (size_t k = 0; k < sizeof k_routines / sizeof *k_routines && !found; k++)
            found = !strcmp(k_routines[k].name, clpad_operation_name(i));
        if (!found)
            return clpad_operation_name(i);
    }
    return NULL;
}

#define MAX_RUNS 64

/* The plain copy kernel: one 16-byte vector per work-item, the driver's
 * choice of work-group size. */
static const char k_copy_src[] =
    "__kernel void copy16(__global const uint4 *src, __global uint4 *dst) {\n"
    "    size_t i = get_global_id(0);\n"
    "    dst[i] = src[i];\n"
    "}\n";

/* The reference copy kernel on ctx's device, built once per run by the
 * caller (bench_run), which releases it with the context. */
static cl_kernel copy_kernel_create(clpad_context *ctx)
{
    cl_int err;
    const char *src = k_copy_src;
    cl_program p = clCreateProgramWithSource(clpad_context_cl_context(ctx), 1, &src, NULL, &err);
    cl_device_id dev = clpad_context_device(ctx);
    if (!p)
        return NULL;
    cl_kernel k = NULL;
    if (clBuildProgram(p, 1, &dev, "", NULL, NULL) == CL_SUCCESS)
        k = clCreateKernel(p, "copy16", &err);
    clReleaseProgram(p);
    return k;
}

static int bench_one(clpad_context *ctx, cl_kernel ck, const bench_case *c, int runs,
                     bench_result *r)
{
    memset(r, 0, sizeof *r);
    int64_t os[CLPAD_MAX_RANK];
    if (k_routines[c->op].shape && k_routines[c->op].shape(c, os)) {
        fprintf(stderr, "clpad bench: %s: %s\n", c->label, clpad_last_error());
        return 1;
    }
    size_t es = clpad_dtype_size(c->dtype);
    int64_t ni = 1, no = 1;
    for (int i = 0; i < c->rank; i++) {
        ni *= c->shape[i];
        no *= os[i];
    }
    r->in_bytes = (size_t)ni * es;
    r->out_bytes = (size_t)no * es;
    if (k_routines[c->op].bytes && k_routines[c->op].bytes(c, &r->in_bytes, &r->out_bytes)) {
        fprintf(stderr, "clpad bench: %s: %s\n", c->label, clpad_last_error());
        return 1;
    }
    size_t total = r->in_bytes + r->out_bytes, half = total / 2;
    unsigned char value[8] = {0};
    if (c->value)
        clpad_scalar_parse(c->dtype, c->value, value);
    unsigned char *hin = malloc(r->in_bytes), *hout = malloc(r->out_bytes);
    unsigned char *m1 = malloc(half), *m2 = malloc(half);
    if (!hin || !hout || !m1 || !m2) {
        free(hin), free(hout), free(m1), free(m2);
        r->skipped = "out of host memory";
        return 0;
    }
    for (size_t i = 0; i < r->in_bytes; i++)
        hin[i] = (unsigned char)(i * 131u + 7u);
    memset(m1, 1, half);
    memset(hout, 0, r->out_bytes);
    uint64_t t[MAX_RUNS];

    /* memcpy, single thread, over half the total (it reads and writes it),
     * and the CPU reference path, interleaved run by run like the device
     * figures: a slow spell of the machine then slows both alike, and
     * cpu_over_memcpy is the median of the per-run ratios. */
    uint64_t tc[MAX_RUNS], cratio[MAX_RUNS];
    for (int i = 0; i <= runs; i++) {
        uint64_t t0 = now_ns();
        memcpy(m2, m1, half);
        uint64_t t1 = now_ns();
        if (k_routines[c->op].cpu(c, value, hin, hout, r->out_bytes)) {
            fprintf(stderr, "clpad bench: %s: CPU path: %s\n", c->label, clpad_last_error());
            free(hin), free(hout), free(m1), free(m2);
            return 1;
        }
        uint64_t t2 = now_ns();
        if (i) {
            t[i - 1] = t1 - t0;
            tc[i - 1] = t2 - t1;
            double m = gbps(2 * half, t1 - t0);
            cratio[i - 1] = m > 0 ? (uint64_t)(gbps(total, t2 - t1) / m * 1e6) : 0;
        }
    }
    r->memcpy_gbps = gbps(2 * half, median(t, runs));
    r->cpu_gbps = gbps(total, median(tc, runs));
    r->cpu_over_memcpy = median(cratio, runs) / 1e6;
    free(m1);
    free(m2);

    if (clpad_context_is_fallback(ctx)) {
        r->skipped = "no OpenCL device";
        free(hin), free(hout);
        return 0;
    }
    /* device buffers: the kernel, and the device copy over the same bytes */
    cl_context cl = clpad_context_cl_context(ctx);
    cl_command_queue q = clpad_context_queue(ctx);
    cl_int err;
    cl_mem din = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, r->in_bytes, hin, &err);
    cl_mem dout = clCreateBuffer(cl, CL_MEM_READ_WRITE, r->out_bytes, NULL, &err);
    cl_mem c1 = clCreateBuffer(cl, CL_MEM_READ_WRITE, half, NULL, &err);
    cl_mem c2 = clCreateBuffer(cl, CL_MEM_READ_WRITE, half, NULL, &err);
    /* The copy kernel has buffers of its own: every one of the three
     * measurements then finds its data as the previous round left it (two
     * other operations ago), rather than the copy kernel re-reading what
     * clEnqueueCopyBuffer has just brought into the cache. */
    cl_mem c3 = clCreateBuffer(cl, CL_MEM_READ_WRITE, half, NULL, &err);
    cl_mem c4 = clCreateBuffer(cl, CL_MEM_READ_WRITE, half, NULL, &err);
    int rc = 0;
    if (!din || !dout || !c1 || !c2 || !c3 || !c4) {
        r->skipped = "device out of memory";
        goto release;
    }
    unsigned char zero = 0;
    clEnqueueFillBuffer(q, c1, &zero, 1, 0, half, 0, NULL, NULL);
    clEnqueueFillBuffer(q, c3, &zero, 1, 0, half, 0, NULL, NULL);
    /* The copies, the kernel and the host-pointer path (on the host buffers,
     * by the host clock) interleave, run by run, so that a noisy neighbour
     * slows all of them alike and each finds its data as the previous round
     * left it; each is the median of its runs, and kernel_over_copy and
     * e2e_over_copy are the medians of the per-run ratios. */
    size_t nvec = half / 16;
    if (ck && nvec) {
        clSetKernelArg(ck, 0, sizeof c3, &c3);
        clSetKernelArg(ck, 1, sizeof c4, &c4);
    }
    uint64_t tb[MAX_RUNS], tk[MAX_RUNS], te[MAX_RUNS], ratio[MAX_RUNS], eratio[MAX_RUNS];
    for (int i = 0; i <= runs; i++) {
        cl_event e1 = NULL, e2 = NULL, e3 = NULL;
        if (clEnqueueCopyBuffer(q, c1, c2, 0, 0, half, 0, NULL, &e1) != CL_SUCCESS) {
            r->skipped = "clEnqueueCopyBuffer failed";
            goto release;
        }
        clWaitForEvents(1, &e1);
        if (ck && nvec && clEnqueueNDRangeKernel(q, ck, 1, NULL, &nvec, NULL, 0, NULL, &e2) ==
                              CL_SUCCESS)
            clWaitForEvents(1, &e2);
        uint64_t launches = clpad_context_launches(ctx);
        if (k_routines[c->op].enqueue(ctx, c, value, din, dout, &e3)) {
            fprintf(stderr, "clpad bench: %s: %s\n", c->label, clpad_last_error());
            clReleaseEvent(e1);
            if (e2)
                clReleaseEvent(e2);
            rc = 1;
            goto release;
        }
        clWaitForEvents(1, &e3);
        r->launches = clpad_context_launches(ctx) - launches;
        cl_event span = g_span_begin; /* released after the figures below */
        g_span_begin = NULL;
        clpad_run_info info;
        clpad_run_info_init(&info);
        if (k_routines[c->op].host(ctx, c, value, hin, hout, r->out_bytes, &info)) {
            fprintf(stderr, "clpad bench: %s: %s\n", c->label, clpad_last_error());
            clReleaseEvent(e1);
            if (e2)
                clReleaseEvent(e2);
            clReleaseEvent(e3);
            if (span)
                clReleaseEvent(span);
            rc = 1;
            goto release;
        }
        if (i) {
            uint64_t b = event_ns(e1), k = e2 ? event_ns(e2) : 0, x = event_ns(e3);
            if (span) { /* every launch of the enqueue, from the marker before them */
                cl_ulong s0 = 0, e = 0;
                clGetEventProfilingInfo(span, CL_PROFILING_COMMAND_START, sizeof s0, &s0,
                                        NULL);
                clGetEventProfilingInfo(e3, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
                x = e > s0 ? e - s0 : x;
            }
            tb[i - 1] = b;
            tk[i - 1] = k;
            t[i - 1] = x;
            /* copy GB/s over kernel GB/s, x 1e6: kernel_over_copy of this run */
            double copy = gbps(2 * half, b) > gbps(nvec * 32, k) ? gbps(2 * half, b)
                                                                 : gbps(nvec * 32, k);
            ratio[i - 1] = copy > 0 ? (uint64_t)(gbps(total, x) / copy * 1e6) : 0;
            te[i - 1] = info.total_ns;
            eratio[i - 1] = copy > 0 ? (uint64_t)(gbps(total, info.total_ns) / copy * 1e6) : 0;
        }
        clReleaseEvent(e1);
        if (e2)
            clReleaseEvent(e2);
        clReleaseEvent(e3);
        if (span)
            clReleaseEvent(span);
    }
    r->copy_buffer_gbps = gbps(2 * half, median(tb, runs));
    r->copy_kernel_gbps = ck && nvec ? gbps(nvec * 32, median(tk, runs)) : 0;
    r->copy_gbps = r->copy_buffer_gbps > r->copy_kernel_gbps ? r->copy_buffer_gbps
                                                              : r->copy_kernel_gbps;
    r->kernel_gbps = gbps(total, median(t, runs));
    r->kernel_over_copy = median(ratio, runs) / 1e6;
    r->e2e_gbps = gbps(total, median(te, runs));
    r->e2e_over_copy = median(eratio, runs) / 1e6;
release:
    if (din)
        clReleaseMemObject(din);
    if (dout)
        clReleaseMemObject(dout);
    if (c1)
        clReleaseMemObject(c1);
    if (c2)
        clReleaseMemObject(c2);
    if (c3)
        clReleaseMemObject(c3);
    if (c4)
        clReleaseMemObject(c4);
    free(hin);
    free(hout);
    return rc;
}

/* ---- reporting ------------------------------------------------------------ */


static cJSON *json_case(const bench_case *c, const bench_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "label", c->label);
    cJSON_AddStringToObject(o, "op", op_name(c->op));
    cJSON_AddStringToObject(o, "mode", c->op == OP_PAD ? clpad_pad_mode_name(c->mode) : "");
    cJSON *shape = cJSON_AddArrayToObject(o, "shape");
    for (int i = 0; i < c->rank; i++)
        cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)c->shape[i]));
    cJSON_AddStringToObject(o, "dtype", clpad_dtype_name(c->dtype));
    const char *names[3] = {"pads_begin", "pads_end", NULL};
    if (c->op == OP_PAD_NUMPY) {
        static const char *modes[] = {"maximum", "minimum", "mean", "median"};
        cJSON_ReplaceItemInObject(o, "mode", cJSON_CreateString(modes[c->np_mode]));
        names[2] = "stat_length"; /* both sides; -1: the whole axis */
    } else if (c->op != OP_PAD) {
        names[0] = "block_shape";
        names[1] = c->op == OP_S2B ? "pads_begin" : "crops_begin";
        names[2] = c->op == OP_S2B ? "pads_end" : "crops_end";
    }
    const int64_t *arrays[3] = {c->a, c->b, c->c};
    for (int k = 0; k < 3 && names[k]; k++) {
        cJSON *arr = cJSON_AddArrayToObject(o, names[k]);
        for (int i = 0; i < c->rank; i++)
            cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)arrays[k][i]));
    }
    if (c->value)
        cJSON_AddStringToObject(o, "pad_value", c->value);
    if (c->op == OP_LETTERBOX || c->op == OP_PAD_STACK) {
        const bench_batch *b = &g_batches[c->batch];
        cJSON *items = cJSON_AddArrayToObject(o, "items");
        for (int i = 0; i < b->n; i++) {
            cJSON *it = cJSON_CreateArray();
            cJSON_AddItemToArray(it, cJSON_CreateNumber((double)b->shape[i][0]));
            cJSON_AddItemToArray(it, cJSON_CreateNumber((double)b->shape[i][1]));
            cJSON_AddItemToArray(items, it);
        }
    }
    cJSON_AddNumberToObject(o, "launches", (double)r->launches);
    cJSON_AddNumberToObject(o, "bytes", (double)(r->in_bytes + r->out_bytes));
    cJSON_AddNumberToObject(o, "kernel_gbps", r->kernel_gbps);
    cJSON_AddNumberToObject(o, "copy_gbps", r->copy_gbps);
    cJSON_AddNumberToObject(o, "copy_buffer_gbps", r->copy_buffer_gbps);
    cJSON_AddNumberToObject(o, "copy_kernel_gbps", r->copy_kernel_gbps);
    cJSON_AddNumberToObject(o, "end_to_end_gbps", r->e2e_gbps);
    cJSON_AddNumberToObject(o, "cpu_gbps", r->cpu_gbps);
    cJSON_AddNumberToObject(o, "memcpy_gbps", r->memcpy_gbps);
    cJSON_AddNumberToObject(o, "kernel_over_copy", r->kernel_over_copy);
    cJSON_AddNumberToObject(o, "end_to_end_over_copy", r->e2e_over_copy);
    cJSON_AddNumberToObject(o, "clpad_over_cpu", r->cpu_gbps ? r->kernel_gbps / r->cpu_gbps : 0);
    cJSON_AddNumberToObject(o, "cpu_over_memcpy", r->cpu_over_memcpy);
    if (r->skipped)
        cJSON_AddStringToObject(o, "skipped", r->skipped);
    return o;
}

/* Whether an executable `name` is on $PATH. */
static bool on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/bin:/bin";
    char buf[4096];
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, ":");
        if (len > 0 && len + strlen(name) + 2 <= sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, name);
            if (access(buf, X_OK) == 0)
                return true;
        }
        p += len;
        if (*p == ':')
            p++;
    }
    return false;
}

/* s as a gnuplot single-quoted string: a quote is doubled, nothing else is
 * special inside. */
static void gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* The PNG: a data file and a gnuplot script in temporary files, gnuplot run
 * on the script directly (no shell between the output path and gnuplot). */
static int plot(const char *png, const bench_case *cs, const bench_result *rs, int n)
{
    char data[] = "/tmp/clpad-bench-data-XXXXXX", script[] = "/tmp/clpad-bench-plot-XXXXXX";
    int fd = mkstemp(data), fs = fd >= 0 ? mkstemp(script) : -1;
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL, *g = fs >= 0 ? fdopen(fs, "w") : NULL;
    int rc = 1;
    if (!f || !g) {
        fprintf(stderr, "clpad bench: --plot: cannot write a temporary file in /tmp\n");
        goto out;
    }
    for (int i = 0; i < n; i++)
        fprintf(f, "%d \"%s\" %.3f %.3f %.3f %.3f\n", i, cs[i].label, rs[i].kernel_gbps,
                rs[i].copy_gbps, rs[i].e2e_gbps, rs[i].cpu_gbps);
    fputs("set terminal pngcairo size 1600,700\nset output ", g);
    gp_string(g, png);
    fputs("\nset title 'clpad throughput (GB/s = bytes read + written; median)'\n"
          "set style data histograms\nset style fill solid 0.8 border -1\n"
          "set xtics rotate by -60 font ',8'\nset ylabel 'GB/s'\nset yrange [0:*]\n"
          "set rmargin 10\nset key outside top center horizontal\nplot ",
          g);
    gp_string(g, data);
    fputs(" using 3:xtic(2) title 'clpad kernel', '' using 5 title 'host-pointer end to end', "
          "'' using 6 title 'CPU path', '' using 4 with linespoints lw 2 title 'device copy "
          "(limit)'\n",
          g);
    if (fflush(f) || fflush(g)) {
        fprintf(stderr, "clpad bench: --plot: cannot write a temporary file in /tmp\n");
        goto out;
    }
    pid_t pid;
    char *argv[] = {"gnuplot", script, NULL};
    int status = 0;
    if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ) != 0 ||
        waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fprintf(stderr, "clpad bench: --plot: gnuplot failed to write %s\n", png);
    else
        rc = 0;
out:
    if (f)
        fclose(f);
    else if (fd >= 0)
        close(fd);
    if (g)
        fclose(g);
    else if (fs >= 0)
        close(fs);
    if (fd >= 0)
        remove(data);
    if (fs >= 0)
        remove(script);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clpad bench [--runs N] [--quick] [--filter REGEX] [--device SPEC] [--json]\n"
            "                   [--plot FILE.png]\n"
            "\n"
            "Throughput of every case against the device's copy bandwidth (the faster of\n"
            "clEnqueueCopyBuffer and a plain copy kernel over the same bytes), the host-pointer\n"
            "path end to end, the CPU path and single-thread memcpy, as GB/s (bytes read +\n"
            "written, median of N runs after a warm-up) and ratios taken in the same run.\n"
            "The three device figures interleave run by run, each on buffers of its own;\n"
            "so do the CPU path and memcpy (their ratio: the median of the per-run ratios).\n"
            "On PoCL the worker threads are pinned to cores (POCL_AFFINITY=1) unless the\n"
            "environment already sets POCL_AFFINITY.\n"
            "\n"
            "  -n, --runs N       timed runs per figure (default 11, at most %d)\n"
            "      --quick        smaller large cases (a fast look, not the reference numbers)\n"
            "  -f, --filter RE    only cases whose label matches the regular expression\n"
            "  -d, --device SPEC  OpenCL device (P:D or name substring)\n"
            "      --json         one JSON object per case, one per line, on stdout\n"
            "      --plot FILE    write a PNG plot (gnuplot)\n",
            MAX_RUNS);
}

int clpad_bench_main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"runs", required_argument, NULL, 'n'}, {"quick", no_argument, NULL, 'Q'},
        {"filter", required_argument, NULL, 'f'}, {"device", required_argument, NULL, 'd'},
        {"json", no_argument, NULL, 'J'},       {"plot", required_argument, NULL, 'P'},
        {"help", no_argument, NULL, 'h'},       {0, 0, 0, 0}};
    int runs = 11, c;
    bool quick = false, json = false;
    const char *filter = NULL, *device = NULL, *png = NULL;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:f:d:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            runs = atoi(optarg);
            if (runs < 1 || runs > MAX_RUNS) {
                fprintf(stderr, "clpad: error: --runs: %s is outside 1..%d\n", optarg, MAX_RUNS);
                return 2;
            }
            break;
        case 'Q': quick = true; break;
        case 'f': filter = optarg; break;
        case 'd': device = optarg; break;
        case 'J': json = true; break;
        case 'P': png = optarg; break;
        case 'h': usage(stdout); return 0;
        case ':':
            fprintf(stderr, "clpad: error: bench: option '%s' needs a value\n", argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "clpad: error: bench: unknown option '%s'\n", argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "clpad: error: bench: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (unbenched_operation()) {
        fprintf(stderr, "clpad: error: bench: the library's operation '%s' has no bench routine "
                        "(bench/bench.c, k_routines)\n", unbenched_operation());
        return 1;
    }
    if (png && !on_path("gnuplot")) { /* before minutes of runs, not after */
        fprintf(stderr, "clpad: error: --plot needs gnuplot (apt-get install gnuplot-nox)\n");
        return 2;
    }
    regex_t re;
    if (filter && regcomp(&re, filter, REG_EXTENDED | REG_NOSUB)) {
        fprintf(stderr, "clpad: error: --filter: '%s' is not a regular expression\n", filter);
        return 2;
    }
    /* PoCL leaves its worker threads to the OS scheduler, which here at times
     * keeps two of them on one core for many milliseconds: every figure,
     * the copy limit's included, then halves at random. Pinned (PoCL's own
     * POCL_AFFINITY), the runs stay comparable. Set before PoCL starts; a
     * value the user chose is kept. */
    bool pin = getenv("POCL_AFFINITY") == NULL;
    if (pin)
        setenv("POCL_AFFINITY", "1", 0);
    clpad_context *ctx = NULL;
    clpad_context_config config;
    clpad_context_config_init(&config);
    config.device = device;
    config.flags = CLPAD_CONTEXT_VERBOSE;
    if (clpad_context_create(&config, &ctx)) {
        fprintf(stderr, "clpad: error: %s\n", clpad_last_error());
        return 1;
    }
    FILE *tab = json ? stderr : stdout;
    fprintf(tab, "device: %s (%s)\n", clpad_context_device_name(ctx), clpad_context_platform_name(ctx));
    if (*clpad_context_tuning(ctx))
        fprintf(tab, "device table row: %s\n", clpad_context_tuning(ctx));
    if (pin && strstr(clpad_context_platform_name(ctx), "Portable Computing Language"))
        fprintf(tab, "PoCL worker threads pinned to cores (POCL_AFFINITY=1; set POCL_AFFINITY=0 "
                     "to leave them to the OS)\n");

    /* First-call program build and per-call enqueue overhead. */
    if (!clpad_context_is_fallback(ctx)) {
        clpad_context *fresh = NULL;
        config.flags = 0;
        if (!clpad_context_create(&config, &fresh)) {
            uint64_t t0 = now_ns();
            clpad_status st = clpad_context_warmup(fresh);
            uint64_t build = now_ns() - t0;
            if (!st)
                fprintf(tab, "program build, all variants (clpad_context_warmup): %.1f ms\n",
                        build / 1e6);
            cl_int err;
            cl_mem b = clCreateBuffer(clpad_context_cl_context(fresh), CL_MEM_READ_WRITE, 4096,
                                      NULL, &err);
            uint64_t t[MAX_RUNS], rt[MAX_RUNS];
            int64_t s[1] = {16}, p[1] = {2};
            for (int i = 0; i <= 32 && b && !st; i++) {
                cl_event ev;
                uint64_t t1 = now_ns();
                st = clpad_enqueue_pad(fresh, CLPAD_F32, 1, s, b, 0, p, p,
                                       CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, b, 1024, NULL, 0,
                                       NULL, &ev);
                uint64_t dt = now_ns() - t1;
                if (!st) {
                    clWaitForEvents(1, &ev);
                    clReleaseEvent(ev);
                }
                if (i) {
                    t[i - 1] = dt;
                    rt[i - 1] = now_ns() - t1;
                }
            }
            /* The round trip is the floor of any call that waits for its
             * result: the host-pointer path of a small case is this plus the
             * kernel. */
            if (!st && b)
                fprintf(tab,
                        "enqueue overhead per call (host side, median of 32): %.1f us; launch "
                        "round trip (enqueue to completion of a 20-element pad): %.1f us\n",
                        median(t, 32) / 1e3, median(rt, 32) / 1e3);
            if (b)
                clReleaseMemObject(b);
            clpad_context_destroy(fresh);
        }
    }

    bench_case cs[BENCH_MAX_CASES];
    bench_result rs[BENCH_MAX_CASES];
    int n = make_cases(cs, quick), done = 0, rc = 0;
    cl_kernel ck = copy_kernel_create(ctx);
    fprintf(tab, "%-44s %-5s %7s %7s %7s %6s %7s %6s %7s %6s %7s %6s %4s\n", "case", "dtype", "MB",
            "copy", "kernel", "k/copy", "e2e", "e/copy", "cpu", "cl/cpu", "memcpy", "cpu/mc",
            "lnch");
    for (int i = 0; i < n; i++) {
        if (filter && regexec(&re, cs[i].label, 0, NULL, 0))
            continue;
        bench_result *r = &rs[done];
        cs[done] = cs[i];
        if (bench_one(ctx, ck, &cs[done], runs, r)) {
            rc = 1;
            continue;
        }
        fprintf(tab, "%-44s %-5s %7.1f %7.2f %7.2f %6.2f %7.2f %6.2f %7.2f %6.2f %7.2f %6.2f %4llu%s%s\n",
                cs[done].label, clpad_dtype_name(cs[done].dtype),
                (r->in_bytes + r->out_bytes) / 1e6, r->copy_gbps, r->kernel_gbps,
                r->kernel_over_copy, r->e2e_gbps, r->e2e_over_copy, r->cpu_gbps,
                r->cpu_gbps ? r->kernel_gbps / r->cpu_gbps : 0, r->memcpy_gbps,
                r->cpu_over_memcpy, (unsigned long long)r->launches, r->skipped ? "  skipped: " : "",
                r->skipped ? r->skipped : "");
        fflush(tab);
        if (json) {
            cJSON *o = json_case(&cs[done], r);
            char *text = cJSON_PrintUnformatted(o);
            printf("%s\n", text);
            fflush(stdout);
            cJSON_free(text);
            cJSON_Delete(o);
        }
        done++;
    }
    fprintf(tab, "GB/s = (input + output bytes) / median time; copy and kernel timed by OpenCL "
                 "profiling events, e2e/cpu/memcpy by the host clock; lnch: kernel launches of "
                 "one enqueue call (0: a buffer copy or nothing). Batches (letterbox, pad-stack) "
                 "count every input byte, read or not.\n");
    if (png && done && plot(png, cs, rs, done))
        rc = 1;
    if (filter)
        regfree(&re);
    if (ck)
        clReleaseKernel(ck);
    clpad_context_destroy(ctx);
    return rc;
}
