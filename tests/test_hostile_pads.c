/* Hostile pads on the device path: a huge pads_begin cancelled by a huge
 * negative pads_end (about +-2^62, the output small), which the kernels once
 * turned into an overflowing product (a hang on PoCL, or rows copied from the
 * input where the answer is padding). Each case runs through clpad_pad and
 * clpad_enqueue_pad and must equal the test suite's own oracle and the CPU
 * path byte for byte. Skips (exit 77) with no device. */
#include "test_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static clpad_context *g_ctx;

/* One case on every path; the oracle is tu_pad_naive. */
static void check_case(const tu_pad_case *c, uint64_t *rng)
{
    char buf[512];
    size_t es = clpad_dtype_size(c->dtype);
    int64_t os[CLPAD_MAX_RANK];
    TU_ASSERT_OK(clpad_pad_output_shape(c->rank, c->shape, c->pads_begin, c->pads_end,
                                        CLPAD_PAD_OPTIONS(c->mode), os));
    size_t nin = (size_t)tu_elems(c->rank, c->shape) * es;
    size_t nout = (size_t)tu_elems(c->rank, os) * es;
    unsigned char *in = malloc(nin + 1), *want = malloc(nout + 1), *got = malloc(nout + 1);
    tu_fill(in, nin, rng);
    tu_pad_naive(c, in, want);

    memset(got, 0x5A, nout);
    TU_ASSERT_OK(clpad_pad_cpu(c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                               CLPAD_PAD_OPTIONS(c->mode), c->value, got, nout));
    if (memcmp(got, want, nout))
        fail_msg("CPU path differs from the oracle: %s", tu_pad_case_str(c, buf, sizeof buf));

    memset(got, 0x5A, nout);
    TU_ASSERT_OK(clpad_pad(g_ctx, c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                           CLPAD_PAD_OPTIONS(c->mode), c->value, got, nout, NULL));
    if (memcmp(got, want, nout))
        fail_msg("clpad_pad differs from the oracle: %s", tu_pad_case_str(c, buf, sizeof buf));

    /* The enqueue API at a non-zero output offset. */
    cl_int err;
    size_t off = 8 * es;
    cl_mem bin = clCreateBuffer(clpad_context_cl_context(g_ctx),
                                CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nin, in, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem bout = clCreateBuffer(clpad_context_cl_context(g_ctx), CL_MEM_READ_WRITE, off + nout,
                                 NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event ev = NULL;
    TU_ASSERT_OK(clpad_enqueue_pad(g_ctx, c->dtype, c->rank, c->shape, bin, 0, c->pads_begin,
                                   c->pads_end, CLPAD_PAD_OPTIONS(c->mode), c->value, bout, off,
                                   NULL, 0, NULL, &ev));
    memset(got, 0x5A, nout);
    assert_int_equal(clEnqueueReadBuffer(clpad_context_queue(g_ctx), bout, CL_TRUE, off, nout,
                                         got, 1, &ev, NULL),
                     CL_SUCCESS);
    clReleaseEvent(ev);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    if (memcmp(got, want, nout))
        fail_msg("clpad_enqueue_pad differs from the oracle: %s",
                 tu_pad_case_str(c, buf, sizeof buf));
    free(in);
    free(want);
    free(got);
}

static const int64_t BIG = (int64_t)1 << 62; /* 4611686018427387904 */

/* The reported cases: u8 [4, 16] edge/wrap with pads_begin 2^62 and pads_end
 * -(2^62 - 5); u8 [3, 4, 16] constant/edge/wrap with 2^62 and -(2^62 - 2) on
 * the outer axis; the negative-begin variant; f32 [4, 4]. */
static void test_reported_cases(void **state)
{
    (void)state;
    uint64_t rng = tu_seed();
    static const clpad_pad_mode modes[] = {CLPAD_PAD_CONSTANT, CLPAD_PAD_EDGE, CLPAD_PAD_WRAP};
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        printf("mode %s\n", clpad_pad_mode_name(modes[m]));
        tu_pad_case c = {.dtype = CLPAD_U8, .mode = modes[m], .rank = 2,
                         .shape = {4, 16}, .pads_begin = {BIG, 0},
                         .pads_end = {-(BIG - 5), 0}};
        c.value[0] = 7;
        check_case(&c, &rng);
        tu_pad_case c3 = {.dtype = CLPAD_U8, .mode = modes[m], .rank = 3,
                          .shape = {3, 4, 16}, .pads_begin = {BIG, 0, 0},
                          .pads_end = {-(BIG - 2), 0, 0}};
        check_case(&c3, &rng);
        tu_pad_case neg = {.dtype = CLPAD_U8, .mode = modes[m], .rank = 2,
                           .shape = {4, 16}, .pads_begin = {-BIG, 0},
                           .pads_end = {BIG + 3, 0}};
        check_case(&neg, &rng);
        tu_pad_case f = {.dtype = CLPAD_F32, .mode = modes[m], .rank = 2, .shape = {4, 4},
                         .pads_begin = {0, BIG}, .pads_end = {0, -(BIG - 3)}};
        check_case(&f, &rng);
    }
}

/* Random shapes with one or more cancelling pairs up to +-2^62 on any axis
 * (inner axes too: there the product with the widened element overflowed),
 * every dtype size, and the modes without an upper limit on pads. */
static void test_random_cancelling(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x4f1bbcdcbfa53e0bull;
    static const clpad_pad_mode modes[] = {CLPAD_PAD_CONSTANT, CLPAD_PAD_EDGE, CLPAD_PAD_WRAP};
    static const clpad_dtype dtypes[] = {CLPAD_U8, CLPAD_I16, CLPAD_F32, CLPAD_F64};
    for (int i = 0; i < 400; i++) {
        tu_pad_case c = {.dtype = dtypes[tu_range(&rng, 0, 3)],
                         .mode = modes[tu_range(&rng, 0, 2)],
                         .rank = (int)tu_range(&rng, 1, 5)};
        tu_fill(c.value, sizeof c.value, &rng);
        /* Trailing axes without pads become part of a wider element on the
         * device (K units each): the product that overflowed. */
        int plain_from = c.rank - (int)tu_range(&rng, 0, c.rank > 1 ? 2 : 0);
        for (int a = 0; a < c.rank; a++) {
            c.shape[a] = tu_range(&rng, 1, a >= plain_from ? 16 : 6);
            int64_t out = tu_range(&rng, 1, 7);
            if (a >= plain_from) {
                c.pads_begin[a] = c.pads_end[a] = 0;
            } else if (tu_range(&rng, 0, 2) == 0) { /* an ordinary small pad */
                c.pads_begin[a] = tu_range(&rng, -c.shape[a], 3);
                c.pads_end[a] = out - c.shape[a] - c.pads_begin[a];
                if (c.pads_end[a] > 3)
                    c.pads_end[a] = 3;
            } else { /* a cancelling pair: begin near +-2^62, end = out - D - begin */
                /* 2^k plus a little: times a power-of-two K, the wrapped
                 * product is small and plausible, not an obvious outlier. */
                int64_t mag = ((int64_t)1 << tu_range(&rng, 59, 62)) + tu_range(&rng, -8, 8);
                c.pads_begin[a] = tu_range(&rng, 0, 1) ? mag : -mag;
                c.pads_end[a] = out - c.shape[a] - c.pads_begin[a];
            }
        }
        check_case(&c, &rng);
    }
}

/* Outputs larger than the device's largest buffer go in pieces: with the
 * limit lowered to a few KiB ($CLPAD_MAX_ALLOC), random pads whose outputs
 * span many pieces (and single output indices larger than a piece, which
 * split the next axis) must equal the oracle; an input beyond the limit,
 * and space/batch beyond it, are refused with a message naming the limit. */
static void test_outputs_beyond_max_alloc(void **state)
{
    (void)state;
    setenv("CLPAD_MAX_ALLOC", "4096", 1);
    clpad_context *small = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, &small));
    unsetenv("CLPAD_MAX_ALLOC");
    uint64_t rng = tu_seed() ^ 0x5bd1e995ull;
    char buf[512];
    for (int i = 0; i < 60; i++) {
        tu_pad_case c;
        int rank = (int)tu_range(&rng, 1, 4);
        tu_random_pad_case(&rng, &rank, 1, 6000, &c);
        int64_t os[CLPAD_MAX_RANK];
        TU_ASSERT_OK(clpad_pad_output_shape(c.rank, c.shape, c.pads_begin, c.pads_end,
                                            CLPAD_PAD_OPTIONS(c.mode), os));
        size_t es = clpad_dtype_size(c.dtype);
        size_t nin = (size_t)tu_elems(c.rank, c.shape) * es;
        size_t nout = (size_t)tu_elems(c.rank, os) * es;
        if (nin > 4096)
            continue; /* the input must fit in one buffer */
        unsigned char *in = malloc(nin + 1), *want = malloc(nout + 1), *got = malloc(nout + 1);
        tu_fill(in, nin, &rng);
        tu_pad_naive(&c, in, want);
        memset(got, 0x5A, nout);
        TU_ASSERT_OK(clpad_pad(small, c.dtype, c.rank, c.shape, in, c.pads_begin, c.pads_end,
                               CLPAD_PAD_OPTIONS(c.mode), c.value, got, nout, NULL));
        if (memcmp(got, want, nout))
            fail_msg("in pieces of 4096 bytes: differs from the oracle: %s",
                     tu_pad_case_str(&c, buf, sizeof buf));
        free(in);
        free(want);
        free(got);
    }
    /* Output rows of 6.5 KiB: split one index at a time, then the row. */
    tu_pad_case row = {.dtype = CLPAD_U8, .mode = CLPAD_PAD_WRAP, .rank = 2,
                       .shape = {3, 1000}, .pads_begin = {2, 3000}, .pads_end = {1, 2500}};
    size_t nout = (size_t)(3 + 3) * (1000 + 5500);
    unsigned char in[3000], *want = malloc(nout), *got = malloc(nout);
    tu_fill(in, sizeof in, &rng);
    tu_pad_naive(&row, in, want);
    TU_ASSERT_OK(clpad_pad(small, row.dtype, row.rank, row.shape, in, row.pads_begin, row.pads_end,
                           CLPAD_PAD_OPTIONS(row.mode), NULL, got, nout, NULL));
    assert_memory_equal(got, want, nout);
    free(want);
    free(got);
    /* Per-side constants (clpad_pad_options.side_values) in pieces: each
     * piece's padding from its own shifted pads, as the host path writes it. */
    int64_t ps_shape[3] = {3, 20, 30}, ps_pb[3] = {2, 3, 4}, ps_pe[3] = {1, 5, 2};
    uint16_t ps_sides[6] = {11, 12, 13, 14, 15, 16};
    clpad_pad_options ps_o;
    clpad_pad_options_init(&ps_o, CLPAD_PAD_CONSTANT);
    ps_o.side_values = ps_sides;
    size_t ps_in = 3 * 20 * 30 * 2, ps_out = 6 * 28 * 36 * 2;
    unsigned char *ps_x = malloc(ps_in), *ps_want = malloc(ps_out), *ps_got = malloc(ps_out + 1);
    tu_fill(ps_x, ps_in, &rng);
    ps_got[ps_out] = 0xA5;
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_U16, 3, ps_shape, ps_x, ps_pb, ps_pe, &ps_o, NULL, ps_want,
                               ps_out));
    TU_ASSERT_OK(clpad_pad(small, CLPAD_U16, 3, ps_shape, ps_x, ps_pb, ps_pe, &ps_o, NULL, ps_got,
                           ps_out, NULL));
    assert_memory_equal(ps_got, ps_want, ps_out);
    assert_int_equal(ps_got[ps_out], 0xA5);
    free(ps_x);
    free(ps_want);
    free(ps_got);
    /* An input beyond the limit, and space/batch beyond it: refused, named. */
    int64_t big[2] = {64, 128}, zero[2] = {0, 0}, one[2] = {1, 1};
    unsigned char *a = calloc(64 * 128 * 4, 1), *b = calloc(65 * 130 * 4, 1);
    TU_ASSERT_STATUS(clpad_pad(small, CLPAD_F32, 2, big, a, zero, one,
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, b, 65 * 130 * 4, NULL),
                     CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
    assert_non_null(strstr(clpad_last_error(), "CL_DEVICE_MAX_MEM_ALLOC_SIZE = 4096"));
    assert_non_null(strstr(clpad_last_error(), "input"));
    int64_t block[2] = {1, 2};
    TU_ASSERT_STATUS(clpad_space_to_batch(small, CLPAD_F32, 2, big, a, block, zero, zero, b,
                                          64 * 128 * 4, NULL),
                     CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
    assert_non_null(strstr(clpad_last_error(), "CPU path"));
    free(a);
    free(b);
    clpad_context_destroy(small);
}

/* A context whose largest buffer is `limit` bytes ($CLPAD_MAX_ALLOC), whose
 * host calls always run the kernel. */
static clpad_context *limited_context(const char *limit)
{
    setenv("CLPAD_MAX_ALLOC", limit, 1);
    clpad_context *ctx = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY,
                                      &ctx));
    unsetenv("CLPAD_MAX_ALLOC");
    return ctx;
}

enum { LB_LIMIT = 32768 };

/* Batches beyond the device's largest buffer run in pieces
 * (docs/letterbox.md, "One launch per batch"): with the limit lowered to
 * 32 KiB, random letterbox batches must equal the CPU reference byte for
 * byte, in as many launches as the documented rule says: images in order,
 * as many per launch as keep its output slices, the source rows it reads
 * (+ 4 bytes) and its tables (32 + 16 * (H + W) bytes per image, plus the
 * value table) each within the limit. The images are no larger than their
 * slot, so that the resize reads every source row. An image that does not
 * fit alone is refused with a message naming the CLI flag and the Python
 * argument. */
static void test_letterbox_beyond_max_alloc(void **state)
{
    (void)state;
    clpad_context *small = limited_context("32768");
    uint64_t rng = tu_seed() ^ 0x2545f4914f6cdd1dull;
    static const int chans[] = {1, 3, 4};
    static const clpad_dtype dtypes[] = {CLPAD_U8, CLPAD_F16, CLPAD_F32};
    static const clpad_pad_mode modes[] = {CLPAD_PAD_CONSTANT, CLPAD_PAD_EDGE, CLPAD_PAD_WRAP};
    int split = 0, refused = 0;
    for (int iter = 0; iter < 60; iter++) {
        int C = chans[tu_range(&rng, 0, 2)];
        size_t n = (size_t)tu_range(&rng, 1, 24);
        clpad_letterbox_options o;
        clpad_letterbox_options_init(&o, tu_range(&rng, 4, 48), tu_range(&rng, 4, 48));
        o.dtype = dtypes[tu_range(&rng, 0, 2)];
        o.layout = tu_range(&rng, 0, 1) ? CLPAD_LAYOUT_NHWC : CLPAD_LAYOUT_NCHW;
        o.pad_mode = modes[tu_range(&rng, 0, 2)];
        o.interp = tu_range(&rng, 0, 3) ? CLPAD_INTERP_BILINEAR : CLPAD_INTERP_NEAREST;
        o.swap_rb = (int)tu_range(&rng, 0, 1);
        clpad_image im[24];
        unsigned char *data[24];
        for (size_t i = 0; i < n; i++) {
            int64_t h = tu_range(&rng, 1, o.out_height), w = tu_range(&rng, 1, o.out_width);
            int64_t stride = w * C + tu_range(&rng, 0, 1) * tu_range(&rng, 1, 9);
            size_t bytes = (size_t)((h - 1) * stride + w * C);
            data[i] = malloc(bytes);
            tu_fill(data[i], bytes, &rng);
            im[i] = (clpad_image){.data = data[i], .height = h, .width = w, .channels = C,
                                  .row_stride = stride};
        }
        int64_t shape[4];
        TU_ASSERT_OK(clpad_letterbox_plan(im, n, &o, shape, NULL));
        size_t es = clpad_dtype_size(o.dtype);
        size_t slice = (size_t)(C * o.out_height * o.out_width) * es;
        size_t nout = n * slice;
        /* the documented rule */
        uint64_t want_launches = 0, fixed = ((uint64_t)C * 256 * es + 15) / 16 * 16,
                 per_tab = 32 + 16 * (uint64_t)(o.out_height + o.out_width);
        bool alone_too_big = false;
        for (size_t i = 0; i < n;) {
            uint64_t in = 4, out = 0, tab = fixed;
            size_t k = 0;
            while (i + k < n) {
                uint64_t g = (uint64_t)(im[i + k].height * im[i + k].width * C);
                if (in + g > LB_LIMIT || out + slice > LB_LIMIT || tab + per_tab > LB_LIMIT)
                    break;
                in += g, out += slice, tab += per_tab, k++;
            }
            if (k == 0) {
                alone_too_big = true;
                break;
            }
            want_launches++;
            i += k;
        }
        unsigned char *want = malloc(nout), *got = malloc(nout);
        TU_ASSERT_OK(clpad_letterbox_cpu(im, n, &o, want, nout, NULL));
        memset(got, 0x5A, nout);
        uint64_t before = clpad_context_launches(small);
        clpad_status st = clpad_letterbox(small, im, n, &o, got, nout, NULL, NULL);
        uint64_t launches = clpad_context_launches(small) - before;
        if (alone_too_big) {
            TU_ASSERT_STATUS(st, CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
            refused++;
        } else {
            TU_ASSERT_OK(st);
            if (memcmp(got, want, nout))
                fail_msg("letterbox in pieces of %d bytes differs from the CPU reference: %zu "
                         "images, C = %d, slot %lld x %lld, %s",
                         LB_LIMIT, n, C, (long long)o.out_height, (long long)o.out_width,
                         clpad_dtype_name(o.dtype));
            if (launches != want_launches)
                fail_msg("letterbox of %zu images (%zu output bytes) ran in %llu launches, the "
                         "rule says %llu",
                         n, nout, (unsigned long long)launches,
                         (unsigned long long)want_launches);
            split += want_launches > 1;
        }
        for (size_t i = 0; i < n; i++)
            free(data[i]);
        free(want);
        free(got);
    }
    printf("letterbox: %d of 60 batches ran in pieces, %d refused\n", split, refused);
    assert_true(split >= 5);

    /* A batch that fits is one launch. */
    unsigned char px[8 * 8 * 3];
    tu_fill(px, sizeof px, &rng);
    clpad_image two[2] = {{.data = px, .height = 8, .width = 8, .channels = 3},
                          {.data = px, .height = 4, .width = 8, .channels = 3}};
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 16, 16);
    float out[2 * 3 * 16 * 16];
    uint64_t before = clpad_context_launches(small);
    TU_ASSERT_OK(clpad_letterbox(small, two, 2, &o, out, sizeof out, NULL, NULL));
    assert_int_equal(clpad_context_launches(small) - before, 1);

    /* One image whose output alone is beyond the limit: refused, naming the
     * CLI flag and the Python argument (not a C function). */
    clpad_letterbox_options_init(&o, 64, 64); /* 3 * 64 * 64 * 4 = 49152 bytes */
    float *big = malloc(3 * 64 * 64 * 4);
    TU_ASSERT_STATUS(clpad_letterbox(small, two, 1, &o, big, 3 * 64 * 64 * 4, NULL, NULL),
                     CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
    const char *msg = clpad_last_error();
    printf("message: %s\n", msg);
    assert_non_null(strstr(msg, "images[0]"));
    assert_non_null(strstr(msg, "CL_DEVICE_MAX_MEM_ALLOC_SIZE = 32768"));
    assert_non_null(strstr(msg, "--cpu"));
    assert_non_null(strstr(msg, "device=\"reference\""));
    assert_null(strstr(msg, "clpad_letterbox_cpu"));
    clpad_error_info ei = {.size = sizeof ei}; /* the item, structured */
    clpad_last_error_info(&ei);
    assert_string_equal(ei.argument, "images");
    assert_int_equal(ei.index, 0);
    /* ... and one whose source rows are: a 200 x 60 x 3 image read whole */
    unsigned char *tall = calloc(200 * 60 * 3, 1);
    clpad_image t1 = {.data = tall, .height = 200, .width = 60, .channels = 3};
    clpad_letterbox_options_init(&o, 200, 60);
    o.dtype = CLPAD_U8;
    TU_ASSERT_STATUS(clpad_letterbox(small, &t1, 1, &o, big, 3 * 64 * 64 * 4, NULL, NULL),
                     CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
    assert_non_null(strstr(clpad_last_error(), "source rows"));
    assert_non_null(strstr(clpad_last_error(), "--cpu"));
    free(tall);
    free(big);
    clpad_context_destroy(small);
}

/* The same for pad-and-stack: tensors in order, as many per launch as keep
 * their inputs, their output slices and their descriptors (128 bytes each)
 * within the limit; a tensor beyond it alone is refused, naming --cpu and
 * device="reference". */
static void test_pad_stack_beyond_max_alloc(void **state)
{
    (void)state;
    enum { LIMIT = 4096 };
    clpad_context *small = limited_context("4096");
    uint64_t rng = tu_seed() ^ 0x9e3779b97f4a7c15ull;
    static const clpad_dtype dtypes[] = {CLPAD_U8, CLPAD_I16, CLPAD_F32, CLPAD_F64};
    static const clpad_pad_mode modes[] = {CLPAD_PAD_CONSTANT, CLPAD_PAD_EDGE, CLPAD_PAD_WRAP};
    int split = 0;
    for (int iter = 0; iter < 60; iter++) {
        clpad_dtype dt = dtypes[tu_range(&rng, 0, 3)];
        size_t es = clpad_dtype_size(dt);
        int rank = (int)tu_range(&rng, 1, 3);
        size_t n = (size_t)tu_range(&rng, 1, 40);
        clpad_pad_mode mode = modes[tu_range(&rng, 0, 2)];
        clpad_placement pl = tu_range(&rng, 0, 1) ? CLPAD_PLACE_CENTER : CLPAD_PLACE_TOP_LEFT;
        int64_t shapes[40 * 3];
        void *in[40];
        size_t bytes[40];
        for (size_t i = 0; i < n; i++) {
            int64_t el = 1;
            for (int k = 0; k < rank; k++) {
                shapes[i * (size_t)rank + (size_t)k] = tu_range(&rng, 1, rank == 1 ? 300 : 12);
                el *= shapes[i * (size_t)rank + (size_t)k];
            }
            bytes[i] = (size_t)el * es;
            in[i] = malloc(bytes[i]);
            tu_fill(in[i], bytes[i], &rng);
        }
        unsigned char value[8], sides[2 * CLPAD_MAX_RANK * 8];
        tu_fill(value, sizeof value, &rng);
        tu_fill(sides, sizeof sides, &rng);
        /* every other constant batch: per-side constants (each piece's plan keeps them) */
        clpad_pad_options o;
        clpad_pad_options_init(&o, mode);
        o.side_values = mode == CLPAD_PAD_CONSTANT && iter % 2 ? sides : NULL;
        int64_t os[CLPAD_MAX_RANK + 1];
        TU_ASSERT_OK(clpad_pad_stack_plan(rank, n, shapes, NULL, mode, pl, os, NULL, NULL));
        size_t slice = es, nout;
        for (int k = 1; k <= rank; k++)
            slice *= (size_t)os[k];
        nout = slice * n;
        uint64_t want_launches = 0;
        bool alone_too_big = false;
        for (size_t i = 0; i < n;) {
            uint64_t a = 0, out = 0, tab = 0;
            size_t k = 0;
            while (i + k < n && a + bytes[i + k] <= LIMIT && out + slice <= LIMIT &&
                   tab + 128 <= LIMIT)
                a += bytes[i + k], out += slice, tab += 128, k++;
            if (k == 0) {
                alone_too_big = true;
                break;
            }
            want_launches++;
            i += k;
        }
        unsigned char *want = malloc(nout), *got = malloc(nout);
        TU_ASSERT_OK(clpad_pad_stack_cpu(dt, rank, n, shapes, (const void *const *)in, NULL, &o,
                                         value, pl, want, nout));
        memset(got, 0x5A, nout);
        uint64_t before = clpad_context_launches(small);
        clpad_status st = clpad_pad_stack(small, dt, rank, n, shapes, (const void *const *)in, NULL,
                                          &o, value, pl, got, nout, NULL);
        uint64_t launches = clpad_context_launches(small) - before;
        if (alone_too_big) {
            TU_ASSERT_STATUS(st, CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
            assert_non_null(strstr(clpad_last_error(), "--cpu"));
        } else {
            TU_ASSERT_OK(st);
            if (memcmp(got, want, nout))
                fail_msg("pad_stack in pieces of %d bytes differs from the CPU reference: %zu "
                         "tensors of rank %d, %s",
                         LIMIT, n, rank, clpad_dtype_name(dt));
            if (launches != want_launches)
                fail_msg("pad_stack of %zu tensors (%zu output bytes) ran in %llu launches, the "
                         "rule says %llu",
                         n, nout, (unsigned long long)launches,
                         (unsigned long long)want_launches);
            split += want_launches > 1;
        }
        for (size_t i = 0; i < n; i++)
            free(in[i]);
        free(want);
        free(got);
    }
    printf("pad_stack: %d of 60 batches ran in pieces\n", split);
    assert_true(split >= 5);

    /* One tensor whose slice alone is beyond the limit. */
    int64_t shapes[2] = {40, 40};
    float *a = calloc(40 * 40, 4), *out = calloc(40 * 40, 4);
    const void *ins[1] = {a};
    TU_ASSERT_STATUS(clpad_pad_stack(small, CLPAD_F32, 2, 1, shapes, ins, NULL,
                                     CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL,
                                     CLPAD_PLACE_TOP_LEFT, out, 40 * 40 * 4,
                                     NULL), CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
    const char *msg = clpad_last_error();
    printf("message: %s\n", msg);
    assert_non_null(strstr(msg, "tensors[0]"));
    assert_non_null(strstr(msg, "CL_DEVICE_MAX_MEM_ALLOC_SIZE = 4096"));
    assert_non_null(strstr(msg, "--cpu"));
    assert_non_null(strstr(msg, "device=\"reference\""));
    assert_null(strstr(msg, "clpad_pad_stack_cpu"));
    clpad_error_info ei = {.size = sizeof ei}; /* the item, structured */
    clpad_last_error_info(&ei);
    assert_string_equal(ei.argument, "tensors");
    assert_int_equal(ei.index, 0);
    free(a);
    free(out);
    clpad_context_destroy(small);
}

int main(void)
{
    g_ctx = tu_device_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reported_cases),
        cmocka_unit_test(test_random_cancelling),
        cmocka_unit_test(test_outputs_beyond_max_alloc),
        cmocka_unit_test(test_letterbox_beyond_max_alloc),
        cmocka_unit_test(test_pad_stack_beyond_max_alloc),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clpad_context_destroy(g_ctx);
    return rc;
}
