/* Pad on the CPU reference path: every worked example, docs/spec.md's Pad edge cases, every
 * validation rule, and randomized cases against the test suite's own
 * element-by-element oracle. Needs no OpenCL. */
#include "test_util.h"
#include "pad_seed_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_seed_examples(void **state)
{
    (void)state;
    for (size_t i = 0; i < SEED_CASE_COUNT; i++) {
        const seed_case *c = &seed_cases[i];
        int64_t out_shape[2];
        TU_ASSERT_OK(clpad_pad_output_shape(2, seed_shape, c->pads_begin, c->pads_end,
                                            CLPAD_PAD_OPTIONS(c->mode), out_shape));
        assert_int_equal(out_shape[0], c->out_shape[0]);
        assert_int_equal(out_shape[1], c->out_shape[1]);
        int32_t out[40];
        memset(out, 0xAB, sizeof out);
        size_t n = (size_t)(out_shape[0] * out_shape[1]);
        TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 2, seed_shape, seed_input, c->pads_begin, c->pads_end,
                                   CLPAD_PAD_OPTIONS(c->mode), NULL, out, n * 4));
        for (size_t k = 0; k < n; k++)
            if (out[k] != c->expect[k])
                fail_msg("%s: element %zu = %d, want %d", c->name, k, out[k], c->expect[k]);
    }
}

/* The IR examples: output shapes, and with pad_value 15.0 every new element is
 * 15.0 while kept elements come from the input. */
static void test_seed_ir_examples(void **state)
{
    (void)state;
    for (size_t i = 0; i < SEED_IR_CASE_COUNT; i++) {
        const seed_ir_case *c = &seed_ir_cases[i];
        int64_t out_shape[4];
        TU_ASSERT_OK(clpad_pad_output_shape(4, c->shape, c->pads_begin, c->pads_end,
                                            CLPAD_PAD_OPTIONS(c->mode), out_shape));
        for (int a = 0; a < 4; a++)
            assert_int_equal(out_shape[a], c->out_shape[a]);
        int64_t nin = tu_elems(4, c->shape), nout = tu_elems(4, out_shape);
        float *in = malloc((size_t)nin * 4), *out = malloc((size_t)nout * 4);
        for (int64_t k = 0; k < nin; k++)
            in[k] = (float)(k % 1000) + 0.5f; /* never 15.0 */
        float value = 15.0f;
        TU_ASSERT_OK(clpad_pad_cpu(CLPAD_F32, 4, c->shape, in, c->pads_begin, c->pads_end,
                                   CLPAD_PAD_OPTIONS(c->mode), &value, out, (size_t)nout * 4));
        for (int64_t k = 0; k < nout; k++) {
            int64_t rem = k, src = 0, stride = 1;
            int pad = 0;
            for (int a = 3; a >= 0; a--) {
                int64_t o = rem % out_shape[a], cc = o - c->pads_begin[a];
                rem /= out_shape[a];
                if (cc < 0 || cc >= c->shape[a]) {
                    pad = 1;
                    cc = cc < 0 ? 0 : c->shape[a] - 1; /* edge */
                }
                src += cc * stride;
                stride *= c->shape[a];
            }
            float want = (pad && c->mode == CLPAD_PAD_CONSTANT) ? 15.0f : in[src];
            if (out[k] != want)
                fail_msg("%s: element %lld = %g, want %g", c->name, (long long)k, out[k], want);
        }
        free(in);
        free(out);
    }
}

/* Pad a 1-D i32 vector 0..D-1 and compare with an expected list. */
static void check_1d(clpad_pad_mode mode, int64_t D, int64_t b, int64_t e, const int32_t *want,
                     int64_t nwant)
{
    int32_t in[16], out[64];
    for (int i = 0; i < 16; i++)
        in[i] = i;
    int64_t shape[1] = {D}, pb[1] = {b}, pe[1] = {e}, os[1];
    TU_ASSERT_OK(clpad_pad_output_shape(1, shape, pb, pe, CLPAD_PAD_OPTIONS(mode), os));
    assert_int_equal(os[0], nwant);
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 1, shape, in, pb, pe, CLPAD_PAD_OPTIONS(mode), NULL, out,
                               sizeof out));
    for (int64_t k = 0; k < nwant; k++)
        if (out[k] != want[k])
            fail_msg("%s D=%lld b=%lld e=%lld: out[%lld] = %d, want %d", clpad_pad_mode_name(mode),
                     (long long)D, (long long)b, (long long)e, (long long)k, out[k], want[k]);
}

static void test_limits(void **state)
{
    (void)state;
    int64_t shape[1] = {4}, os[1];
    /* reflect: D-1 accepted, D rejected (begin and end). */
    check_1d(CLPAD_PAD_REFLECT, 4, 3, 3, (int32_t[]){3, 2, 1, 0, 1, 2, 3, 2, 1, 0}, 10);
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, shape, (int64_t[]){4}, (int64_t[]){0},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), os),
                     CLPAD_ERR_INVALID_PADS);
    assert_non_null(strstr(clpad_last_error(), "pads_begin[0] = 4"));
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, shape, (int64_t[]){0}, (int64_t[]){4},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), os),
                     CLPAD_ERR_INVALID_PADS);
    assert_non_null(strstr(clpad_last_error(), "pads_end[0] = 4"));
    /* symmetric: D accepted, D+1 rejected. */
    check_1d(CLPAD_PAD_SYMMETRIC, 4, 4, 4, (int32_t[]){3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0}, 12);
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, shape, (int64_t[]){5}, (int64_t[]){0},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_SYMMETRIC), os),
                     CLPAD_ERR_INVALID_PADS);
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, shape, (int64_t[]){0}, (int64_t[]){5},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_SYMMETRIC), os),
                     CLPAD_ERR_INVALID_PADS);
    /* A broken limit is an error even when negative pads empty the output. */
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, shape, (int64_t[]){4}, (int64_t[]){-9},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), os),
                     CLPAD_ERR_INVALID_PADS);
    /* edge and wrap with D = 0 and a positive pad; constant fills. */
    int64_t zero[1] = {0};
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, zero, (int64_t[]){1}, (int64_t[]){0},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), os),
                     CLPAD_ERR_INVALID_PADS);
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, zero, (int64_t[]){0}, (int64_t[]){2},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_WRAP), os),
                     CLPAD_ERR_INVALID_PADS);
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, zero, (int64_t[]){1}, (int64_t[]){0},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), os),
                     CLPAD_ERR_INVALID_PADS);
    TU_ASSERT_STATUS(clpad_pad_output_shape(1, zero, (int64_t[]){1}, (int64_t[]){0},
                                            CLPAD_PAD_OPTIONS(CLPAD_PAD_SYMMETRIC), os),
                     CLPAD_ERR_INVALID_PADS);
    /* D = 0 without positive pads is fine in every mode: empty output. */
    for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++) {
        TU_ASSERT_OK(clpad_pad_output_shape(1, zero, (int64_t[]){0}, (int64_t[]){-1},
                                            CLPAD_PAD_OPTIONS((clpad_pad_mode)m), os));
        assert_int_equal(os[0], 0);
    }
    int32_t v = -7, out[3];
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 1, zero, NULL, (int64_t[]){1}, (int64_t[]){2},
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), &v, out, sizeof out));
    assert_int_equal(out[0], -7);
    assert_int_equal(out[2], -7);
}

static void test_edge_cases(void **state)
{
    (void)state;
    /* wrap repeats as often as the pads ask, like numpy. */
    check_1d(CLPAD_PAD_WRAP, 3, 7, 5,
             (int32_t[]){2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1}, 15);
    /* wrap with crops: pads_begin -1 reads from c = 1. */
    check_1d(CLPAD_PAD_WRAP, 4, -1, 2, (int32_t[]){1, 2, 3, 0, 1}, 5);
    /* Mirrors read cropped elements: reflect with begin crop, end pad. */
    check_1d(CLPAD_PAD_REFLECT, 4, -2, 3, (int32_t[]){2, 3, 2, 1, 0}, 5);
    check_1d(CLPAD_PAD_SYMMETRIC, 4, 2, -3, (int32_t[]){1, 0, 0}, 3);
    check_1d(CLPAD_PAD_EDGE, 4, 2, -4, (int32_t[]){0, 0}, 2);
    /* Crop to zero and beyond: empty output, nothing written. */
    int64_t shape[2] = {3, 4}, os[2];
    for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++) {
        TU_ASSERT_OK(clpad_pad_output_shape(2, shape, (int64_t[]){-2, 0}, (int64_t[]){-1, 0},
                                            CLPAD_PAD_OPTIONS((clpad_pad_mode)m), os));
        assert_int_equal(os[0], 0);
        assert_int_equal(os[1], 4);
        TU_ASSERT_OK(clpad_pad_output_shape(2, shape, (int64_t[]){-2, 0}, (int64_t[]){-5, 0},
                                            CLPAD_PAD_OPTIONS((clpad_pad_mode)m), os));
        assert_int_equal(os[0], 0);
        unsigned char canary = 0x5A;
        TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 2, shape, seed_input, (int64_t[]){-2, 0},
                                   (int64_t[]){-1, 0}, CLPAD_PAD_OPTIONS((clpad_pad_mode)m), NULL,
                                   &canary, 0));
        assert_int_equal(canary, 0x5A);
    }
    /* Rank 0: a scalar is copied. */
    double x = -2.5, y = 0;
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_F64, 0, NULL, &x, NULL, NULL,
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), NULL, &y, sizeof y));
    assert_true(y == -2.5);
}

/* pad_value reaches the output bit for bit, for every dtype. */
static void test_pad_value_bits(void **state)
{
    (void)state;
    static const struct {
        clpad_dtype dtype;
        const char *text;
        uint64_t bits;
    } cases[] = {
        {CLPAD_I64, "9007199254740993", 9007199254740993ull},
        {CLPAD_I64, "9223372036854775807", 0x7FFFFFFFFFFFFFFFull},
        {CLPAD_I64, "-9223372036854775808", 0x8000000000000000ull},
        {CLPAD_U64, "18446744073709551615", 0xFFFFFFFFFFFFFFFFull},
        {CLPAD_U8, "255", 0xFF},
        {CLPAD_I8, "-128", 0x80},
        {CLPAD_BOOL, "true", 1},
        {CLPAD_F16, "-0.0", 0x8000},
        {CLPAD_F16, "inf", 0x7C00},
        {CLPAD_F16, "-inf", 0xFC00},
        {CLPAD_F16, "nan", 0x7E00},
        {CLPAD_F16, "65504", 0x7BFF},
        {CLPAD_BF16, "-0.0", 0x8000},
        {CLPAD_BF16, "1.0", 0x3F80},
        {CLPAD_F32, "-0.0", 0x80000000u},
        {CLPAD_F32, "114", 0x42E40000u},
        {CLPAD_F64, "-0.0", 0x8000000000000000ull},
        {CLPAD_F64, "0.1", 0x3FB999999999999Aull},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t es = clpad_dtype_size(cases[i].dtype);
        unsigned char value[8] = {0};
        TU_ASSERT_OK(clpad_scalar_parse(cases[i].dtype, cases[i].text, value));
        uint64_t got = 0;
        memcpy(&got, value, es);
        if (got != cases[i].bits)
            fail_msg("%s '%s' parsed to 0x%llx, want 0x%llx", clpad_dtype_name(cases[i].dtype),
                     cases[i].text, (unsigned long long)got, (unsigned long long)cases[i].bits);
        unsigned char in[8 * 2] = {0}, out[8 * 5];
        memset(out, 0xEE, sizeof out);
        int64_t shape[1] = {2};
        TU_ASSERT_OK(clpad_pad_cpu(cases[i].dtype, 1, shape, in, (int64_t[]){1}, (int64_t[]){2},
                                   CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), value, out, sizeof out));
        for (int k = 0; k < 5; k++) {
            uint64_t o = 0;
            memcpy(&o, out + (size_t)k * es, es);
            uint64_t want = (k == 1 || k == 2) ? 0 : cases[i].bits;
            if (o != want)
                fail_msg("%s '%s': output element %d = 0x%llx, want 0x%llx",
                         clpad_dtype_name(cases[i].dtype), cases[i].text, k,
                         (unsigned long long)o, (unsigned long long)want);
        }
    }
}

/* Every validation rule gives its status and a message naming the argument. */
static void test_errors(void **state)
{
    (void)state;
    int64_t shape[2] = {3, 4}, pb[2] = {0, 0}, pe[2] = {0, 0}, os[2];
    int32_t out[64];
    struct {
        clpad_status st;
        const char *needle;
    } r;
#define EXPECT(call, status, text)                                                        \
    do {                                                                                  \
        r.st = (call);                                                                    \
        r.needle = (text);                                                                \
        if (r.st != (status))                                                             \
            fail_msg("%s: got %s, want %s (%s)", #call, clpad_status_name(r.st),          \
                     clpad_status_name(status), clpad_last_error());                      \
        if (!strstr(clpad_last_error(), r.needle))                                        \
            fail_msg("%s: message '%s' does not mention '%s'", #call, clpad_last_error(), \
                     r.needle);                                                           \
    } while (0)
    EXPECT(clpad_pad_output_shape(9, shape, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), os),
           CLPAD_ERR_INVALID_ARGUMENT, "rank 9");
    EXPECT(clpad_pad_output_shape(-1, shape, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), os),
           CLPAD_ERR_INVALID_ARGUMENT, "rank -1");
    EXPECT(clpad_pad_output_shape(2, NULL, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), os),
           CLPAD_ERR_INVALID_ARGUMENT, "shape");
    EXPECT(clpad_pad_output_shape(2, shape, NULL, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), os),
           CLPAD_ERR_INVALID_ARGUMENT, "pads_begin");
    EXPECT(clpad_pad_output_shape(2, shape, pb, NULL, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), os),
           CLPAD_ERR_INVALID_ARGUMENT, "pads_end");
    EXPECT(clpad_pad_output_shape(2, shape, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "out_shape");
    EXPECT(clpad_pad_output_shape(2, shape, pb, pe, CLPAD_PAD_OPTIONS((clpad_pad_mode)9), os),
           CLPAD_ERR_INVALID_ARGUMENT, "pad_mode");
    EXPECT(clpad_pad_output_shape(2, (int64_t[]){3, -1}, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                                  os),
           CLPAD_ERR_INVALID_SHAPE, "shape[1] = -1");
    EXPECT(clpad_pad_output_shape(2, shape, (int64_t[]){0, 4}, pe,
                                  CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), os),
           CLPAD_ERR_INVALID_PADS, "pads_begin[1] = 4");
    EXPECT(clpad_pad_output_shape(2, shape, pb, (int64_t[]){4, 0},
                                  CLPAD_PAD_OPTIONS(CLPAD_PAD_SYMMETRIC), os),
           CLPAD_ERR_INVALID_PADS, "pads_end[0] = 4");
    EXPECT(clpad_pad_output_shape(2, (int64_t[]){0, 4}, (int64_t[]){1, 0}, pe,
                                  CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), os),
           CLPAD_ERR_INVALID_PADS, "shape[0] = 0");
    EXPECT(clpad_pad_output_shape(2, shape, (int64_t[]){INT64_MAX, 0}, pe,
                                  CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), os),
           CLPAD_ERR_OVERFLOW, "pads_begin[0]");
    /* A huge crop is no overflow: the axis is just empty. */
    TU_ASSERT_OK(clpad_pad_output_shape(2, shape, pb, (int64_t[]){0, INT64_MIN},
                                        CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), os));
    assert_int_equal(os[1], 0);
    EXPECT(clpad_pad_output_shape(4, (int64_t[]){1 << 20, 1 << 20, 1 << 20, 1 << 20},
                                  (int64_t[]){0, 0, 0, 0}, (int64_t[]){0, 0, 0, 0},
                                  CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), (int64_t[4]){0}),
           CLPAD_ERR_OVERFLOW, "element count");
    EXPECT(clpad_pad_cpu((clpad_dtype)99, 2, shape, seed_input, pb, pe,
                         CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, out, sizeof out),
           CLPAD_ERR_INVALID_ARGUMENT, "dtype");
    EXPECT(clpad_pad_cpu(CLPAD_I32, 2, shape, seed_input, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                         NULL, out, 47),
           CLPAD_ERR_BUFFER_TOO_SMALL, "48 bytes");
    EXPECT(clpad_pad_cpu(CLPAD_I32, 2, shape, NULL, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL,
                         out, sizeof out),
           CLPAD_ERR_INVALID_ARGUMENT, "input");
    EXPECT(clpad_pad_cpu(CLPAD_I32, 2, shape, seed_input, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                         NULL, NULL, 48),
           CLPAD_ERR_INVALID_ARGUMENT, "output");
    /* pad_value parsing */
    unsigned char v[8];
    EXPECT(clpad_scalar_parse(CLPAD_U8, "256", v), CLPAD_ERR_PARSE, "out of range for u8");
    EXPECT(clpad_scalar_parse(CLPAD_U8, "-1", v), CLPAD_ERR_PARSE, "out of range for u8");
    EXPECT(clpad_scalar_parse(CLPAD_I8, "-129", v), CLPAD_ERR_PARSE, "out of range for i8");
    EXPECT(clpad_scalar_parse(CLPAD_I64, "9223372036854775808", v), CLPAD_ERR_PARSE,
           "out of range for i64");
    EXPECT(clpad_scalar_parse(CLPAD_I32, "1.5", v), CLPAD_ERR_PARSE, "not an integer");
    EXPECT(clpad_scalar_parse(CLPAD_F32, "1e39", v), CLPAD_ERR_PARSE, "out of range for f32");
    EXPECT(clpad_scalar_parse(CLPAD_F16, "65520", v), CLPAD_ERR_PARSE, "out of range for f16");
    EXPECT(clpad_scalar_parse(CLPAD_F32, "12abc", v), CLPAD_ERR_PARSE, "not a number");
    EXPECT(clpad_scalar_parse(CLPAD_BOOL, "2", v), CLPAD_ERR_PARSE, "not a bool");
    EXPECT(clpad_scalar_parse(CLPAD_F32, "", v), CLPAD_ERR_PARSE, "empty");
    EXPECT(clpad_pad_mode_from_name("mirror", &(clpad_pad_mode){0}), CLPAD_ERR_PARSE, "mirror");
#undef EXPECT
}

/* Randomized cases against the oracle; the input must stay untouched. */
static void test_random_vs_oracle(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xC0FFEE;
    static const int ranks[] = {0, 1, 2, 3, 4, 5, 6, 8};
    enum { CASES = 3000, MAXE = 4096 };
    unsigned char *in = malloc(MAXE * 8), *copy = malloc(MAXE * 8);
    unsigned char *got = malloc(MAXE * 8 + 64), *want = malloc(MAXE * 8);
    for (int i = 0; i < CASES; i++) {
        tu_pad_case c;
        tu_random_pad_case(&rng, ranks, 8, MAXE, &c);
        size_t es = clpad_dtype_size(c.dtype);
        int64_t os[CLPAD_MAX_RANK];
        TU_ASSERT_OK(clpad_pad_output_shape(c.rank, c.shape, c.pads_begin, c.pads_end,
                                            CLPAD_PAD_OPTIONS(c.mode), os));
        size_t nin = (size_t)tu_elems(c.rank, c.shape) * es;
        size_t nout = (size_t)tu_elems(c.rank, os) * es;
        tu_fill(in, nin, &rng);
        memcpy(copy, in, nin);
        memset(got, 0xCD, nout + 64);
        tu_pad_naive(&c, in, want);
        TU_ASSERT_OK(clpad_pad_cpu(c.dtype, c.rank, c.shape, in, c.pads_begin, c.pads_end,
                                   CLPAD_PAD_OPTIONS(c.mode), c.value, got, nout));
        char buf[512];
        if (memcmp(got, want, nout))
            fail_msg("case %d differs from the oracle: %s", i, tu_pad_case_str(&c, buf, sizeof buf));
        for (size_t k = nout; k < nout + 64; k++)
            if (got[k] != 0xCD)
                fail_msg("case %d wrote past the output: %s", i, tu_pad_case_str(&c, buf, sizeof buf));
        if (memcmp(in, copy, nin))
            fail_msg("case %d modified the input", i);
    }
    printf("%d random cases equal the oracle\n", CASES);
    free(in);
    free(copy);
    free(got);
    free(want);
}

/* One case on the CPU path against the oracle, with a guard band after the
 * output that must stay untouched. */
static void check_vs_oracle(const tu_pad_case *c, uint64_t *rng)
{
    size_t es = clpad_dtype_size(c->dtype);
    int64_t os[CLPAD_MAX_RANK];
    TU_ASSERT_OK(clpad_pad_output_shape(c->rank, c->shape, c->pads_begin, c->pads_end,
                                        CLPAD_PAD_OPTIONS(c->mode), os));
    size_t nin = (size_t)tu_elems(c->rank, c->shape) * es;
    size_t nout = (size_t)tu_elems(c->rank, os) * es;
    unsigned char *in = malloc(nin + 1), *got = malloc(nout + 64), *want = malloc(nout + 1);
    tu_fill(in, nin, rng);
    memset(got, 0xCD, nout + 64);
    tu_pad_naive(c, in, want);
    TU_ASSERT_OK(clpad_pad_cpu(c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                               CLPAD_PAD_OPTIONS(c->mode), c->value, got, nout));
    char buf[512];
    if (memcmp(got, want, nout))
        fail_msg("differs from the oracle: %s", tu_pad_case_str(c, buf, sizeof buf));
    for (size_t k = nout; k < nout + 64; k++)
        if (got[k] != 0xCD)
            fail_msg("wrote past the output: %s", tu_pad_case_str(c, buf, sizeof buf));
    free(in);
    free(got);
    free(want);
}

static const clpad_dtype k_row_dtypes[] = {CLPAD_U8, CLPAD_F16, CLPAD_F32, CLPAD_F64};

/* Short rows (the CPU path's row loop specialised per element size, copy
 * size class and border count): interiors on both sides of each size class's
 * bounds (32, 64, 128, 256, 512 bytes), borders of 1 to 8 elements on one or
 * both sides, cropped rows, every mode and element size, with padded rows
 * around them. */
static void test_short_rows_vs_oracle(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x5407;
    static const int bytes[] = {33, 48, 64, 65, 100, 128, 129, 200, 256, 257, 400, 512};
    static const int64_t pads[][2] = {{1, 0}, {0, 1}, {1, 1}, {2, 3}, {4, 4}, {8, 8},
                                      {-1, 2}, {3, -2}, {8, 0}, {5, 3}};
    int n = 0;
    for (size_t t = 0; t < sizeof k_row_dtypes / sizeof *k_row_dtypes; t++)
        for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++)
            for (size_t b = 0; b < sizeof bytes / sizeof *bytes; b++)
                for (size_t p = 0; p < sizeof pads / sizeof *pads; p++) {
                    tu_pad_case c;
                    if (!tu_row_case(&c, k_row_dtypes[t], (clpad_pad_mode)m, bytes[b], 6,
                                     pads[p][0], pads[p][1], &rng))
                        continue;
                    check_vs_oracle(&c, &rng);
                    n++;
                }
    printf("%d short-row cases equal the oracle\n", n);
}

/* Long runs: interior copies and fills of more than 256 bytes (the CPU
 * path's own copy loop up to 1 MiB, memcpy beyond; pattern stores, or memset
 * for a value of one repeated byte), lengths around their steps, against the
 * oracle. */
static void test_long_runs_vs_oracle(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x10C6;
    static const int64_t bytes[] = {257, 300, 383, 384, 385, 512, 1000, 4100, (1 << 20) + 8};
    static const int64_t pads[][2] = {{1, 2}, {40, 70}, {0, 0}};
    int n = 0;
    for (size_t t = 0; t < sizeof k_row_dtypes / sizeof *k_row_dtypes; t++)
        for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++)
            for (size_t b = 0; b < sizeof bytes / sizeof *bytes; b++)
                for (size_t p = 0; p < sizeof pads / sizeof *pads; p++) {
                    /* past the loop's limit: one element size */
                    if (bytes[b] > 8192 && clpad_dtype_size(k_row_dtypes[t]) != 2)
                        continue;
                    tu_pad_case c;
                    if (!tu_row_case(&c, k_row_dtypes[t], (clpad_pad_mode)m, bytes[b], 3,
                                     pads[p][0], pads[p][1], &rng))
                        continue;
                    /* a value of one repeated byte (memset) or not (pattern stores) */
                    if (n % 2)
                        memset(c.value, c.value[0], sizeof c.value);
                    check_vs_oracle(&c, &rng);
                    n++;
                }
    printf("%d long-run cases equal the oracle\n", n);
}

/* The CPU path on several threads (a context without OpenCL runs its host
 * calls there): outputs of 128 KiB to a few MiB, cut into pieces along
 * whichever axis gives enough of them, against the oracle, with a guard band. */
static void test_threaded_cpu_path_vs_oracle(void **state)
{
    (void)state;
    clpad_context *ctx = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_CPU_ONLY, &ctx));
    uint64_t rng = tu_seed() ^ 0x7EAD;
    char buf[512];
    int ranks[] = {1, 2, 3, 4, 5};
    int done = 0;
    for (int i = 0; done < 40 && i < 2000; i++) {
        tu_pad_case c;
        tu_random_pad_case(&rng, ranks, 5, 1 << 20, &c);
        /* grow one axis so that the output reaches the threaded sizes */
        int a = (int)tu_range(&rng, 0, c.rank - 1);
        c.shape[a] *= tu_range(&rng, 8, 64);
        int64_t os[CLPAD_MAX_RANK];
        if (clpad_pad_output_shape(c.rank, c.shape, c.pads_begin, c.pads_end,
                                   CLPAD_PAD_OPTIONS(c.mode), os))
            continue;
        size_t es = clpad_dtype_size(c.dtype);
        size_t nin = (size_t)tu_elems(c.rank, c.shape) * es;
        size_t nout = (size_t)tu_elems(c.rank, os) * es;
        if (nout < ((size_t)128 << 10) || nout > ((size_t)8 << 20))
            continue;
        unsigned char *in = malloc(nin + 1), *got = malloc(nout + 64), *want = malloc(nout);
        tu_fill(in, nin, &rng);
        memset(got, 0xCD, nout + 64);
        tu_pad_naive(&c, in, want);
        TU_ASSERT_OK(clpad_pad(ctx, c.dtype, c.rank, c.shape, in, c.pads_begin, c.pads_end,
                               CLPAD_PAD_OPTIONS(c.mode), c.value, got, nout, NULL));
        if (memcmp(got, want, nout))
            fail_msg("threaded CPU path differs from the oracle: %s",
                     tu_pad_case_str(&c, buf, sizeof buf));
        for (size_t k = nout; k < nout + 64; k++)
            if (got[k] != 0xCD)
                fail_msg("wrote past the output: %s", tu_pad_case_str(&c, buf, sizeof buf));
        free(in);
        free(got);
        free(want);
        done++;
    }
    printf("%d threaded CPU-path cases equal the oracle\n", done);
    assert_true(done >= 20);
    clpad_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_examples),    cmocka_unit_test(test_seed_ir_examples),
        cmocka_unit_test(test_limits),           cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_pad_value_bits),   cmocka_unit_test(test_errors),
        cmocka_unit_test(test_random_vs_oracle), cmocka_unit_test(test_short_rows_vs_oracle),
        cmocka_unit_test(test_long_runs_vs_oracle), cmocka_unit_test(test_threaded_cpu_path_vs_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
