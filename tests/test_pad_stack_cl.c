/* Pad-and-stack on OpenCL: random batches of every rank, dtype, mode and
 * placement through both device APIs (the enqueue API on tensors packed at
 * offsets in one buffer, with guard bands around the output; the
 * host-pointer API), compared with the CPU reference byte for byte, one
 * launch per batch; token batches ([L_i, 768] f16); buffer checks. Skips
 * (exit 77) with no device. */
#include "pad_stack_cases.h"

static clpad_context *g_ctx;

enum { GUARD = 64 };
static const unsigned char CANARY = 0xA5;

static int diff_case(const ps_case *c, int index)
{
    clpad_status st;
    size_t nout = ps_case_out_bytes(c, &st);
    if (st == CLPAD_ERR_INVALID_PADS)
        return 0;
    TU_ASSERT_OK(st);
    const int64_t *shape = c->have_shape ? c->shape : NULL;
    const void *in[PS_MAX_TENSORS];
    for (size_t i = 0; i < c->n; i++)
        in[i] = c->data[i];
    unsigned char *want = malloc(nout + 1), *got = malloc(nout + 1);
    clpad_pad_options o = ps_case_options(c);
    TU_ASSERT_OK(clpad_pad_stack_cpu(c->dtype, c->rank, c->n, c->shapes, in, shape, &o,
                                     c->value, c->placement, want, nout));
    char buf[1024];
    /* the enqueue API: tensors packed at element-aligned offsets */
    size_t es = clpad_dtype_size(c->dtype), offsets[PS_MAX_TENSORS], total = es;
    for (size_t i = 0; i < c->n; i++) {
        offsets[i] = total;
        total += c->bytes[i] + es;
    }
    unsigned char *packed = calloc(total, 1);
    for (size_t i = 0; i < c->n; i++)
        memcpy(packed + offsets[i], c->data[i], c->bytes[i]);
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_int err;
    cl_mem bin = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, total, packed, &err);
    assert_int_equal(err, CL_SUCCESS);
    unsigned char *staging = malloc(2 * GUARD + nout);
    memset(staging, CANARY, 2 * GUARD + nout);
    cl_mem bout = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 2 * GUARD + nout,
                                 staging, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event ev = NULL;
    uint64_t launches = clpad_context_launches(g_ctx);
    TU_ASSERT_OK(clpad_enqueue_pad_stack(g_ctx, c->dtype, c->rank, c->n, c->shapes, bin, offsets,
                                         shape, &o, c->value, c->placement, bout, GUARD, NULL, 0,
                                         NULL, &ev));
    assert_non_null(ev);
    assert_int_equal(clpad_context_launches(g_ctx) - launches, nout ? 1 : 0);
    assert_int_equal(clEnqueueReadBuffer(clpad_context_queue(g_ctx), bout, CL_TRUE, 0,
                                         2 * GUARD + nout, staging, 1, &ev, NULL),
                     CL_SUCCESS);
    for (size_t k = 0; k < GUARD; k++)
        if (staging[k] != CANARY || staging[GUARD + nout + k] != CANARY)
            fail_msg("case %d: guard band overwritten: %s", index, ps_case_str(c, buf, sizeof buf));
    if (memcmp(staging + GUARD, want, nout))
        fail_msg("case %d: enqueue API differs from the CPU reference: %s", index,
                 ps_case_str(c, buf, sizeof buf));
    clReleaseEvent(ev);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(packed);
    free(staging);
    /* the host-pointer API */
    memset(got, 0, nout);
    launches = clpad_context_launches(g_ctx);
    TU_ASSERT_OK(clpad_pad_stack(g_ctx, c->dtype, c->rank, c->n, c->shapes, in, shape, &o,
                                 c->value, c->placement, got, nout, NULL));
    assert_int_equal(clpad_context_launches(g_ctx) - launches, nout ? 1 : 0);
    if (memcmp(got, want, nout))
        fail_msg("case %d: host API differs from the CPU reference: %s", index,
                 ps_case_str(c, buf, sizeof buf));
    free(want);
    free(got);
    return 1;
}

static void test_random(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x57AC1;
    int ran = 0, sides = 0;
    enum { CASES = 150 };
    for (int i = 0; i < CASES; i++) {
        ps_case c;
        ps_random_case(&c, &rng, i % 10 == 0 ? 7 : -1, 6, i % 10 == 0 ? 3 : 9);
        int ok = diff_case(&c, i);
        ran += ok;
        sides += ok && c.per_side;
        ps_case_free(&c);
    }
    printf("%d random batches (%d with per-side constants): both device APIs equal the CPU "
           "reference\n", ran, sides);
    assert_true(ran > CASES / 2);
    assert_true(sides > 0);
}

/* Token batches: [L_i, 768] f16, L_i in 1..300, into [N, max L, 768]
 * (pad_sequence), and centred into a given length with crops. */
static void test_token_batches(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x7031;
    for (int k = 0; k < 4; k++) {
        ps_case c;
        memset(&c, 0, sizeof c);
        c.dtype = CLPAD_F16;
        c.rank = 2;
        c.n = PS_MAX_TENSORS;
        c.mode = k == 3 ? CLPAD_PAD_WRAP : CLPAD_PAD_CONSTANT;
        c.placement = k >= 2 ? CLPAD_PLACE_CENTER : CLPAD_PLACE_TOP_LEFT;
        for (size_t i = 0; i < c.n; i++) {
            c.shapes[2 * i] = tu_range(&rng, 1, 300);
            c.shapes[2 * i + 1] = 768;
            c.bytes[i] = (size_t)c.shapes[2 * i] * 768 * 2;
            c.data[i] = malloc(c.bytes[i]);
            tu_fill(c.data[i], c.bytes[i], &rng);
        }
        if (k == 2) { /* numpy's per-side constants, over pads and crops */
            c.per_side = 1;
            tu_fill(c.sides, sizeof c.sides, &rng);
        }
        if (k >= 1) {
            c.have_shape = 1;
            c.shape[0] = 256;
            c.shape[1] = 768;
        }
        assert_int_equal(diff_case(&c, k), 1);
        ps_case_free(&c);
    }
}

static void test_buffer_checks(void **state)
{
    (void)state;
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_int err;
    cl_mem in = clCreateBuffer(cl, CL_MEM_READ_WRITE, 100, NULL, &err);
    cl_mem out = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    int64_t shapes[2] = {10, 20};
    size_t off[2] = {0, 40};
    TU_ASSERT_STATUS(clpad_enqueue_pad_stack(g_ctx, CLPAD_F32, 1, 2, shapes, in, off, NULL,
                                             CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL,
                                             CLPAD_PLACE_TOP_LEFT, out,
                                             0, NULL, 0, NULL, NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(clpad_last_error(), "tensors[1]"));
    off[1] = 2;
    TU_ASSERT_STATUS(clpad_enqueue_pad_stack(g_ctx, CLPAD_F32, 1, 2, shapes, in, off, NULL,
                                             CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL,
                                             CLPAD_PLACE_TOP_LEFT, out,
                                             0, NULL, 0, NULL, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    off[1] = 0;
    TU_ASSERT_STATUS(clpad_enqueue_pad_stack(g_ctx, CLPAD_F32, 1, 2, shapes, in, off, NULL,
                                             CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL,
                                             CLPAD_PLACE_TOP_LEFT, out,
                                             4096 - 100, NULL, 0, NULL, NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
}

int main(void)
{
    g_ctx = tu_device_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_token_batches),
        cmocka_unit_test(test_buffer_checks),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clpad_context_destroy(g_ctx);
    return rc;
}
