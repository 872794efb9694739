/* Pad-and-stack on the CPU reference path: random batches against the test
 * suite's own Pad oracle (tu_pad_naive, element by element) with the pads
 * of docs/letterbox.md computed here; pad_sequence's and the centred
 * placement's worked examples; the plan; errors that name the tensor and
 * write nothing. No device. */
#include "pad_stack_cases.h"

/* The pads of docs/letterbox.md, "Pad-and-stack". */
static void oracle_pads(const ps_case *c, const int64_t *S, const int64_t *D, int64_t *b,
                        int64_t *e)
{
    for (int k = 0; k < c->rank; k++) {
        int64_t total = S[k] - D[k];
        /* floor(total / 2) for any sign */
        b[k] = c->placement == CLPAD_PLACE_CENTER
                   ? (total >= 0 ? total / 2 : -((-total + 1) / 2))
                   : 0;
        e[k] = total - b[k];
    }
}

static bool breaks_limit(clpad_pad_mode mode, int64_t pad, int64_t D)
{
    if (pad <= 0)
        return false;
    return (mode == CLPAD_PAD_REFLECT && pad > D - 1) ||
           (mode == CLPAD_PAD_SYMMETRIC && pad > D) ||
           ((mode == CLPAD_PAD_EDGE || mode == CLPAD_PAD_WRAP) && D < 1);
}

/* numpy.pad's per-side constants over a padded slice `out` of shape S of a
 * tensor of shape D with pads b: every element whose coordinate o - b is
 * outside [0, D) on some axis takes the value of the last such axis. */
static void oracle_sides(const ps_case *c, const int64_t *S, const int64_t *D, const int64_t *b,
                         unsigned char *out)
{
    size_t es = clpad_dtype_size(c->dtype);
    int64_t idx[CLPAD_MAX_RANK] = {0}, count = tu_elems(c->rank, S);
    for (int64_t k = 0; k < count; k++) {
        const unsigned char *v = NULL;
        for (int a = 0; a < c->rank; a++) {
            int64_t co = idx[a] - b[a];
            if (co < 0 || co >= D[a])
                v = c->sides + (size_t)(2 * a + (co >= 0)) * es;
        }
        if (v)
            memcpy(out + (size_t)k * es, v, es);
        for (int a = c->rank - 1; a >= 0 && ++idx[a] == S[a]; a--)
            idx[a] = 0;
    }
}

/* One case against the oracle; 1 if it ran, 0 if refused (checked). */
static int check_case(const ps_case *c, int index)
{
    char buf[1024];
    int64_t S[CLPAD_MAX_RANK];
    for (int k = 0; k < c->rank; k++) {
        S[k] = 0;
        for (size_t i = 0; i < c->n; i++)
            if (c->shapes[i * (size_t)c->rank + (size_t)k] > S[k])
                S[k] = c->shapes[i * (size_t)c->rank + (size_t)k];
        if (c->have_shape)
            S[k] = c->shape[k];
    }
    clpad_status st;
    size_t bytes = ps_case_out_bytes(c, &st);
    bool broken = false;
    for (size_t i = 0; i < c->n; i++) {
        int64_t b[CLPAD_MAX_RANK], e[CLPAD_MAX_RANK];
        const int64_t *D = c->shapes + i * (size_t)c->rank;
        oracle_pads(c, S, D, b, e);
        for (int k = 0; k < c->rank; k++)
            broken |= breaks_limit(c->mode, b[k], D[k]) || breaks_limit(c->mode, e[k], D[k]);
    }
    if (st == CLPAD_ERR_INVALID_PADS) {
        if (!broken)
            fail_msg("case %d: refused (%s) but no pad breaks a limit: %s", index,
                     clpad_last_error(), ps_case_str(c, buf, sizeof buf));
        if (strncmp(clpad_last_error(), "tensors[", 8))
            fail_msg("case %d: the message does not name the tensor: %s", index,
                     clpad_last_error());
        return 0;
    }
    TU_ASSERT_OK(st);
    if (broken)
        fail_msg("case %d: accepted but a pad breaks a limit: %s", index,
                 ps_case_str(c, buf, sizeof buf));
    size_t es = clpad_dtype_size(c->dtype);
    size_t slice = (size_t)tu_elems(c->rank, S) * es;
    assert_int_equal(bytes, slice * c->n);
    unsigned char *want = malloc(bytes + 1), *got = malloc(bytes + 1);
    for (size_t i = 0; i < c->n; i++) {
        tu_pad_case pc = {.dtype = c->dtype, .mode = c->mode, .rank = c->rank};
        memcpy(pc.shape, c->shapes + i * (size_t)c->rank, (size_t)c->rank * 8);
        oracle_pads(c, S, pc.shape, pc.pads_begin, pc.pads_end);
        memcpy(pc.value, c->value, 8);
        tu_pad_naive(&pc, c->data[i], want + i * slice);
        if (c->per_side)
            oracle_sides(c, S, pc.shape, pc.pads_begin, want + i * slice);
    }
    memset(got, 0xA5, bytes + 1);
    const void *in[PS_MAX_TENSORS];
    for (size_t i = 0; i < c->n; i++)
        in[i] = c->data[i];
    clpad_pad_options o = ps_case_options(c);
    TU_ASSERT_OK(clpad_pad_stack_cpu(c->dtype, c->rank, c->n, c->shapes, in,
                                     c->have_shape ? c->shape : NULL, &o, c->value, c->placement,
                                     got, bytes));
    if (memcmp(got, want, bytes))
        fail_msg("case %d: differs from the oracle: %s", index, ps_case_str(c, buf, sizeof buf));
    if (got[bytes] != 0xA5)
        fail_msg("case %d: written past the output", index);
    free(want);
    free(got);
    return 1;
}

static void test_random(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x57AC;
    int ran = 0;
    enum { CASES = 400 };
    for (int i = 0; i < CASES; i++) {
        ps_case c;
        ps_random_case(&c, &rng, -1, 6, 6);
        ran += check_case(&c, i);
        ps_case_free(&c);
    }
    printf("%d random batches equal the oracle (%d refused by a mode's limit, checked)\n", ran,
           CASES - ran);
    assert_true(ran > CASES / 2);
}

/* pad_sequence(batch_first=True, padding_value=-1) of [2,3], [1,3], [4,3]
 * (rows 1.., 10.., 100..): [3, 4, 3], the tensors at the top, -1 below. */
static void test_pad_sequence_example(void **state)
{
    (void)state;
    int32_t a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 11, 12};
    int32_t c[12] = {100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111};
    const void *in[3] = {a, b, c};
    int64_t shapes[6] = {2, 3, 1, 3, 4, 3}, out_shape[3], pb[6], pe[6];
    int32_t v = -1, out[36];
    TU_ASSERT_OK(clpad_pad_stack_plan(2, 3, shapes, NULL, CLPAD_PAD_CONSTANT, CLPAD_PLACE_TOP_LEFT,
                                      out_shape, pb, pe));
    assert_int_equal(out_shape[0], 3);
    assert_int_equal(out_shape[1], 4);
    assert_int_equal(out_shape[2], 3);
    assert_int_equal(pe[0], 2); /* tensor 0: 2 rows after, 0 columns */
    assert_int_equal(pe[1], 0);
    assert_int_equal(pe[2], 3); /* tensor 1: 3 rows after */
    assert_int_equal(pb[2], 0);
    TU_ASSERT_OK(clpad_pad_stack_cpu(CLPAD_I32, 2, 3, shapes, in, NULL,
                                     CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), &v,
                                     CLPAD_PLACE_TOP_LEFT, out, sizeof out));
    static const int32_t want[36] = {1,   2,   3,   4,   5,   6,   -1,  -1,  -1,  -1,  -1,  -1,
                                     10,  11,  12,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,
                                     100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111};
    assert_memory_equal(out, want, sizeof want);
    /* centred into [4, 5] with edge: 3 columns of [2,3] get 1 before, 1 after;
     * rows 1 before, 1 after */
    int64_t S[2] = {4, 5};
    int32_t o2[3 * 20];
    TU_ASSERT_OK(clpad_pad_stack_cpu(CLPAD_I32, 2, 3, shapes, in, S,
                                     CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, CLPAD_PLACE_CENTER,
                                     o2, sizeof o2));
    static const int32_t first[20] = {1, 1, 2, 3, 3, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6, 4, 4, 5, 6, 6};
    assert_memory_equal(o2, first, sizeof first);
}

/* A tensor that breaks a limit anywhere in the batch fails the call, named;
 * nothing is written. */
static void test_errors(void **state)
{
    (void)state;
    float a[4] = {1, 2, 3, 4}, b[1] = {5};
    const void *in[3] = {a, a, b};
    int64_t shapes[3] = {4, 4, 1};
    float out[12];
    memset(out, 0x5A, sizeof out);
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_F32, 1, 3, shapes, in, NULL,
                                         CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), NULL,
                                         CLPAD_PLACE_TOP_LEFT, out,
                                         sizeof out), CLPAD_ERR_INVALID_PADS);
    assert_non_null(strstr(clpad_last_error(), "tensors[2]"));
    /* the way out is one pad-and-stack has (it has no large pads) */
    assert_non_null(strstr(clpad_last_error(), "pad-and-stack mirrors once: give a smaller "
                                               "shape, or the mode symmetric, edge or wrap"));
    assert_null(strstr(clpad_last_error(), "large pads"));
    for (size_t i = 0; i < sizeof out; i++)
        assert_int_equal(((unsigned char *)out)[i], 0x5A);
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_F32, 1, 3, shapes, in, NULL,
                                         CLPAD_PAD_OPTIONS(CLPAD_PAD_SYMMETRIC), NULL,
                                         CLPAD_PLACE_TOP_LEFT, out,
                                         sizeof out), CLPAD_ERR_INVALID_PADS);
    assert_non_null(strstr(clpad_last_error(), "symmetric limit"));
    assert_non_null(strstr(clpad_last_error(), "give a smaller shape, or the mode edge or wrap"));
    assert_null(strstr(clpad_last_error(), "large pads"));
    shapes[1] = -1;
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_F32, 1, 3, shapes, in, NULL,
                                         CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL,
                                         CLPAD_PLACE_TOP_LEFT, out,
                                         sizeof out), CLPAD_ERR_INVALID_SHAPE);
    assert_non_null(strstr(clpad_last_error(), "tensors[1]"));
    shapes[1] = 4;
    in[1] = NULL;
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_F32, 1, 3, shapes, in, NULL,
                                         CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL,
                                         CLPAD_PLACE_TOP_LEFT, out,
                                         sizeof out), CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "tensors[1]"));
    in[1] = a;
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_F32, 1, 3, shapes, in, NULL,
                                         CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL,
                                         CLPAD_PLACE_TOP_LEFT, out,
                                         sizeof out - 1), CLPAD_ERR_BUFFER_TOO_SMALL);
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_F32, 8, 3, shapes, in, NULL,
                                         CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL,
                                         CLPAD_PLACE_TOP_LEFT, out,
                                         sizeof out), CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_OK(clpad_pad_stack_cpu(CLPAD_F32, 1, 3, shapes, in, NULL,
                                     CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, CLPAD_PLACE_TOP_LEFT,
                                     out, sizeof out));
    static const float want[12] = {1, 2, 3, 4, 1, 2, 3, 4, 5, 5, 5, 5};
    assert_memory_equal(out, want, sizeof want);
    /* sizes whose product overflows, in any order */
    int64_t big[4] = {(int64_t)1 << 40, (int64_t)1 << 40, 1, 1}, os2[3];
    TU_ASSERT_STATUS(clpad_pad_stack_plan(2, 2, big, NULL, CLPAD_PAD_CONSTANT,
                                          CLPAD_PLACE_TOP_LEFT, os2, NULL, NULL),
                     CLPAD_ERR_OVERFLOW);
    int64_t ones[4] = {1, 1, 1, 1}, shape2[2] = {INT64_MAX, 2};
    TU_ASSERT_STATUS(clpad_pad_stack_plan(2, 2, ones, shape2, CLPAD_PAD_CONSTANT,
                                          CLPAD_PLACE_CENTER, os2, NULL, NULL),
                     CLPAD_ERR_OVERFLOW);
    /* an empty batch, and rank 0 (a stack of scalars) */
    int64_t os[1];
    TU_ASSERT_OK(clpad_pad_stack_plan(0, 0, NULL, NULL, CLPAD_PAD_CONSTANT, CLPAD_PLACE_TOP_LEFT,
                                      os, NULL, NULL));
    assert_int_equal(os[0], 0);
    float s1 = 7, s2 = 8, pair[2];
    const void *sc[2] = {&s1, &s2};
    TU_ASSERT_OK(clpad_pad_stack_cpu(CLPAD_F32, 0, 2, NULL, sc, NULL,
                                     CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL,
                                     CLPAD_PLACE_TOP_LEFT, pair, sizeof pair));
    assert_true(pair[0] == 7 && pair[1] == 8);
}

/* numpy.pad's per-side constant_values of each tensor, stacked:
 * [[1, 2]], [[3], [4]], [[5]] into [3, 2, 2] top-left with
 * ((10, 11), (20, 21)); the corner of [[5]] is the last axis' (21), as
 * numpy.pad([[5]], ((0, 1), (0, 1)), constant_values=((10, 11), (20, 21)))
 * gives [[5, 21], [11, 21]]. Refusals of the options. */
static void test_side_values(void **state)
{
    (void)state;
    int32_t a[2] = {1, 2}, b[2] = {3, 4}, c[1] = {5}, sides[4] = {10, 11, 20, 21}, out[12];
    const void *in[3] = {a, b, c};
    int64_t shapes[6] = {1, 2, 2, 1, 1, 1};
    clpad_pad_options o;
    clpad_pad_options_init(&o, CLPAD_PAD_CONSTANT);
    o.side_values = sides;
    TU_ASSERT_OK(clpad_pad_stack_cpu(CLPAD_I32, 2, 3, shapes, in, NULL, &o, NULL,
                                        CLPAD_PLACE_TOP_LEFT, out, sizeof out));
    static const int32_t want[12] = {1, 2, 11, 11, 3, 21, 4, 21, 5, 21, 11, 21};
    assert_memory_equal(out, want, sizeof want);
    /* centred: [[5]] into 3 x 3 takes every side; corners the last axis' */
    int32_t out3[9];
    int64_t three[2] = {3, 3};
    TU_ASSERT_OK(clpad_pad_stack_cpu(CLPAD_I32, 2, 1, shapes + 4, in + 2, three, &o, NULL,
                                        CLPAD_PLACE_CENTER, out3, sizeof out3));
    static const int32_t want3[9] = {20, 10, 21, 20, 5, 21, 20, 11, 21};
    assert_memory_equal(out3, want3, sizeof want3);
    memset(out, 0x5A, sizeof out);
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_I32, 2, 3, shapes, in, NULL, NULL, NULL,
                                            CLPAD_PLACE_TOP_LEFT, out, sizeof out),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "options is NULL"));
    o.modes[1] = CLPAD_PAD_EDGE;
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_I32, 2, 3, shapes, in, NULL, &o, NULL,
                                            CLPAD_PLACE_TOP_LEFT, out, sizeof out),
                     CLPAD_ERR_UNSUPPORTED);
    assert_non_null(strstr(clpad_last_error(), "one mode"));
    clpad_pad_options_init(&o, CLPAD_PAD_EDGE);
    o.side_values = sides;
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_I32, 2, 3, shapes, in, NULL, &o, NULL,
                                            CLPAD_PLACE_TOP_LEFT, out, sizeof out),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "side_values needs mode constant"));
    o.side_values = NULL;
    o.flags = CLPAD_PAD_LARGE_NUMPY;
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_I32, 2, 3, shapes, in, NULL, &o, NULL,
                                            CLPAD_PLACE_TOP_LEFT, out, sizeof out),
                     CLPAD_ERR_UNSUPPORTED);
    o.flags = 0;
    o.reserved[0] = 1;
    TU_ASSERT_STATUS(clpad_pad_stack_cpu(CLPAD_I32, 2, 3, shapes, in, NULL, &o, NULL,
                                            CLPAD_PLACE_TOP_LEFT, out, sizeof out),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "pad_stack: options->reserved[0]"));
    for (size_t i = 0; i < sizeof out; i++)
        assert_int_equal(((unsigned char *)out)[i], 0x5A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_pad_sequence_example),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_side_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
