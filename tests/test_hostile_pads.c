/* Hostile pads on the device path: a huge pads_begin cancelled by a huge
 * negative pads_end (about +-2^62, the output small), which the kernels once
 * turned into an overflowing product (a hang on PoCL, or rows copied from the
 * input where the answer is padding). Each case runs through clpad_pad and
 * clpad_enqueue_pad and must equal the test suite's own oracle and the CPU
 * path byte for byte. Skips (exit 77) with no device. */
#include "test_util.h"

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
    TU_ASSERT_OK(clpad_pad_output_shape(c->rank, c->shape, c->pads_begin, c->pads_end, c->mode,
                                        os));
    size_t nin = (size_t)tu_elems(c->rank, c->shape) * es;
    size_t nout = (size_t)tu_elems(c->rank, os) * es;
    unsigned char *in = malloc(nin + 1), *want = malloc(nout + 1), *got = malloc(nout + 1);
    tu_fill(in, nin, rng);
    tu_pad_naive(c, in, want);

    memset(got, 0x5A, nout);
    TU_ASSERT_OK(clpad_pad_cpu(c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                               c->mode, c->value, got, nout));
    if (memcmp(got, want, nout))
        fail_msg("CPU path differs from the oracle: %s", tu_pad_case_str(c, buf, sizeof buf));

    memset(got, 0x5A, nout);
    TU_ASSERT_OK(clpad_pad(g_ctx, c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                           c->mode, c->value, got, nout, NULL));
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
                                   c->pads_end, c->mode, c->value, bout, off, NULL, 0, NULL,
                                   &ev));
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
        TU_ASSERT_OK(clpad_pad_output_shape(c.rank, c.shape, c.pads_begin, c.pads_end, c.mode,
                                            os));
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
                               c.mode, c.value, got, nout, NULL));
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
    TU_ASSERT_OK(clpad_pad(small, row.dtype, row.rank, row.shape, in, row.pads_begin,
                           row.pads_end, row.mode, NULL, got, nout, NULL));
    assert_memory_equal(got, want, nout);
    free(want);
    free(got);
    /* An input beyond the limit, and space/batch beyond it: refused, named. */
    int64_t big[2] = {64, 128}, zero[2] = {0, 0}, one[2] = {1, 1};
    unsigned char *a = calloc(64 * 128 * 4, 1), *b = calloc(65 * 130 * 4, 1);
    TU_ASSERT_STATUS(clpad_pad(small, CLPAD_F32, 2, big, a, zero, one, CLPAD_PAD_EDGE, NULL,
                               b, 65 * 130 * 4, NULL),
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

int main(void)
{
    g_ctx = tu_device_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reported_cases),
        cmocka_unit_test(test_random_cancelling),
        cmocka_unit_test(test_outputs_beyond_max_alloc),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clpad_context_destroy(g_ctx);
    return rc;
}
