/* The forms of Pad beyond one mode and explicit pads (docs/spec.md, "Pad
 * forms"): per-axis modes, numpy.pad's large pads, framework mode names,
 * ONNX Pad-18's axes and pads to a multiple. The CPU path against the test
 * suite's own oracle (tests/test_util.c: per axis, the mirror unfolded step
 * by step, no period), every option and helper against an independent
 * statement of its rule, and every bad combination. Pure CPU. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define I64(...) ((const int64_t[]){__VA_ARGS__})

#define EXPECT_FAIL(call, want, needle)                                                  \
    do {                                                                                 \
        TU_ASSERT_STATUS(call, want);                                                    \
        if (!strstr(clpad_last_error(), (needle)))                                       \
            fail_msg("%s: message '%s' does not mention '%s'", #call, clpad_last_error(), \
                     (needle));                                                          \
    } while (0)

/* One case through clpad_pad_cpu (and, with ctx, clpad_pad on a CPU-only
 * context: the threaded CPU path) against the oracle, with a guard band. */
static void check_case(const tu_pad_case *c, uint64_t *rng, clpad_context *ctx)
{
    clpad_pad_options o;
    tu_pad_options(c, &o);
    size_t es = clpad_dtype_size(c->dtype);
    int64_t os[CLPAD_MAX_RANK];
    TU_ASSERT_OK(clpad_pad_output_shape(c->rank, c->shape, c->pads_begin, c->pads_end, &o, os));
    size_t nin = (size_t)tu_elems(c->rank, c->shape) * es;
    size_t nout = (size_t)tu_elems(c->rank, os) * es;
    unsigned char *in = malloc(nin + 1), *copy = malloc(nin + 1);
    unsigned char *got = malloc(nout + 64), *want = malloc(nout + 1);
    tu_fill(in, nin, rng);
    memcpy(copy, in, nin);
    tu_pad_naive(c, in, want);
    char buf[600];
    for (int path = 0; path < (ctx ? 2 : 1); path++) {
        memset(got, 0xCD, nout + 64);
        if (path == 0)
            TU_ASSERT_OK(clpad_pad_cpu(c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                                       &o, c->value, got, nout));
        else
            TU_ASSERT_OK(clpad_pad(ctx, c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                                   &o, c->value, got, nout, NULL));
        if (memcmp(got, want, nout))
            fail_msg("%s differs from the oracle: %s", path ? "clpad_pad" : "clpad_pad_cpu",
                     tu_pad_case_str(c, buf, sizeof buf));
        for (size_t k = nout; k < nout + 64; k++)
            if (got[k] != 0xCD)
                fail_msg("wrote past the output: %s", tu_pad_case_str(c, buf, sizeof buf));
    }
    if (memcmp(in, copy, nin))
        fail_msg("the input was modified: %s", tu_pad_case_str(c, buf, sizeof buf));
    free(in);
    free(copy);
    free(got);
    free(want);
}

static void test_mixed_modes_vs_oracle(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x3A1D;
    static const int ranks[] = {1, 2, 3, 4, 5};
    enum { CASES = 1500 };
    for (int i = 0; i < CASES; i++) {
        tu_pad_case c;
        tu_random_mixed_case(&rng, ranks, 5, 4096, 0, &c);
        check_case(&c, &rng, NULL);
    }
    printf("%d mixed-mode cases equal the oracle\n", CASES);
}

static void test_large_pads_vs_oracle(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x1A29E;
    static const int ranks[] = {1, 2, 3, 4};
    enum { CASES = 1500 };
    for (int i = 0; i < CASES; i++) {
        tu_pad_case c;
        tu_random_mixed_case(&rng, ranks, 4, 8192, 1, &c);
        if (i % 3 == 0) { /* one mode on every axis too: the uniform plans */
            c.per_axis = 0;
            c.mode = tu_range(&rng, 0, 1) ? CLPAD_PAD_REFLECT : CLPAD_PAD_SYMMETRIC;
            for (int a = 0; a < c.rank; a++)
                c.modes[a] = c.mode;
        }
        clpad_pad_options o;
        tu_pad_options(&c, &o);
        int64_t os[CLPAD_MAX_RANK];
        if (clpad_pad_output_shape(c.rank, c.shape, c.pads_begin, c.pads_end, &o, os))
            continue;
        check_case(&c, &rng, NULL);
    }
    /* numpy.pad's documented examples: np.pad([1, 2, 3], 5, 'reflect') and
     * 'symmetric' (pads beyond one period) */
    const int32_t x[3] = {1, 2, 3};
    int32_t got[13];
    clpad_pad_options o;
    clpad_pad_options_init(&o, CLPAD_PAD_REFLECT);
    o.flags = CLPAD_PAD_LARGE_NUMPY;
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 1, I64(3), x, I64(5), I64(5), &o, NULL, got, sizeof got));
    static const int32_t refl[13] = {2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2};
    assert_memory_equal(got, refl, sizeof refl);
    clpad_pad_options_init(&o, CLPAD_PAD_SYMMETRIC);
    o.flags = CLPAD_PAD_LARGE_NUMPY;
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 1, I64(3), x, I64(5), I64(5), &o, NULL, got, sizeof got));
    static const int32_t sym[13] = {2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2};
    assert_memory_equal(got, sym, sizeof sym);
    /* reflect on one element: numpy repeats it (its legacy rule) */
    clpad_pad_options_init(&o, CLPAD_PAD_REFLECT);
    o.flags = CLPAD_PAD_LARGE_NUMPY;
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 1, I64(1), x, I64(2), I64(3), &o, NULL, got, sizeof got));
    for (int k = 0; k < 6; k++)
        assert_int_equal(got[k], 1);
    /* without the flag these are Pad-12's errors; an empty axis never pads */
    clpad_pad_options_init(&o, CLPAD_PAD_REFLECT);
    EXPECT_FAIL(clpad_pad_cpu(CLPAD_I32, 1, I64(3), x, I64(5), I64(5), &o, NULL, got, sizeof got),
                CLPAD_ERR_INVALID_PADS, "pads_begin[0] = 5 exceeds the reflect limit");
    o.flags = CLPAD_PAD_LARGE_NUMPY;
    int64_t os[1];
    EXPECT_FAIL(clpad_pad_output_shape(1, I64(0), I64(1), I64(0), &o, os), CLPAD_ERR_INVALID_PADS,
                "non-empty axis");
    /* the threaded CPU path (a CPU-only context), on outputs large enough */
    clpad_context *ctx = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_CPU_ONLY, &ctx));
    tu_pad_case c = {.dtype = CLPAD_F32, .rank = 3, .per_axis = 1,
                     .modes = {CLPAD_PAD_WRAP, CLPAD_PAD_REFLECT, CLPAD_PAD_SYMMETRIC},
                     .flags = CLPAD_PAD_LARGE_NUMPY, .shape = {3, 5, 7},
                     .pads_begin = {40, -2, 33}, .pads_end = {41, 29, -3}};
    check_case(&c, &rng, ctx);
    c.modes[0] = CLPAD_PAD_CONSTANT;
    c.pads_begin[2] = 70;
    check_case(&c, &rng, ctx);
    clpad_context_destroy(ctx);
    printf("%d large-pad cases equal the oracle\n", CASES);
}

static void test_options_checked(void **state)
{
    (void)state;
    int64_t os[2];
    clpad_pad_options o;
    clpad_pad_options_init(&o, CLPAD_PAD_EDGE);
    assert_int_equal(o.size, sizeof o);
    for (int i = 0; i < CLPAD_MAX_RANK; i++)
        assert_int_equal(o.modes[i], CLPAD_PAD_EDGE);
    assert_int_equal(o.flags, 0);
    EXPECT_FAIL(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), NULL, os),
                CLPAD_ERR_INVALID_ARGUMENT, "options is NULL");
    o.modes[1] = (clpad_pad_mode)9;
    EXPECT_FAIL(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), &o, os),
                CLPAD_ERR_INVALID_ARGUMENT, "options->modes[1] = 9");
    /* modes past the rank are not read */
    TU_ASSERT_OK(clpad_pad_output_shape(1, I64(3), I64(1), I64(1), &o, os));
    clpad_pad_options_init(&o, CLPAD_PAD_EDGE);
    o.flags = 0x10;
    EXPECT_FAIL(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), &o, os),
                CLPAD_ERR_INVALID_ARGUMENT, "unknown bits 0x10");
    o.flags = 0;
    o.reserved[2] = 1;
    EXPECT_FAIL(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), &o, os),
                CLPAD_ERR_INVALID_ARGUMENT, "reserved[2]");
    o.reserved[2] = 0;
    o.size = 8;
    EXPECT_FAIL(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), &o, os),
                CLPAD_ERR_INVALID_ARGUMENT, "options->size = 8");
    /* a later version's larger struct: zeros past the known fields are fine,
     * anything else is refused (an option this library cannot honour) */
    struct {
        clpad_pad_options o;
        uint64_t later[2];
    } big;
    memset(&big, 0, sizeof big);
    clpad_pad_options_init(&big.o, CLPAD_PAD_REFLECT);
    big.o.size = sizeof big;
    TU_ASSERT_OK(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), &big.o, os));
    big.later[1] = 5;
    EXPECT_FAIL(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), &big.o, os),
                CLPAD_ERR_INVALID_ARGUMENT, "non-zero byte");
    /* per-axis limits: axis 1 reflect (limit 3), axis 0 wrap */
    clpad_pad_options_init(&o, CLPAD_PAD_WRAP);
    o.modes[1] = CLPAD_PAD_REFLECT;
    TU_ASSERT_OK(clpad_pad_output_shape(2, I64(3, 4), I64(9, 3), I64(9, 3), &o, os));
    assert_int_equal(os[0], 21);
    assert_int_equal(os[1], 10);
    EXPECT_FAIL(clpad_pad_output_shape(2, I64(3, 4), I64(9, 4), I64(9, 3), &o, os),
                CLPAD_ERR_INVALID_PADS, "pads_begin[1] = 4 exceeds the reflect limit");
    /* per-side constants need mode constant on every axis: the output
     * shape refuses what the pad calls refuse */
    uint8_t sides[4] = {1, 2, 3, 4};
    clpad_pad_options_init(&o, CLPAD_PAD_CONSTANT);
    o.side_values = sides;
    TU_ASSERT_OK(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), &o, os));
    o.modes[1] = CLPAD_PAD_EDGE;
    EXPECT_FAIL(clpad_pad_output_shape(2, I64(3, 4), I64(1, 1), I64(1, 1), &o, os),
                CLPAD_ERR_INVALID_ARGUMENT, "side_values needs mode constant on every axis "
                                            "(axis 1 is edge)");
    uint8_t pad_in[12] = {0}, pad_out[30];
    EXPECT_FAIL(clpad_pad_cpu(CLPAD_U8, 2, I64(3, 4), pad_in, I64(1, 1), I64(1, 1), &o, NULL,
                              pad_out, sizeof pad_out),
                CLPAD_ERR_INVALID_ARGUMENT, "(axis 1 is edge)");
    /* the classic functions are the _ex ones with one mode */
    int32_t in[12], a[60], b[60];
    for (int i = 0; i < 12; i++)
        in[i] = i + 1;
    clpad_pad_options_init(&o, CLPAD_PAD_SYMMETRIC);
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 2, I64(3, 4), in, I64(2, -1), I64(-1, 3),
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_SYMMETRIC), NULL, a, sizeof a));
    TU_ASSERT_OK(
        clpad_pad_cpu(CLPAD_I32, 2, I64(3, 4), in, I64(2, -1), I64(-1, 3), &o, NULL, b, sizeof b));
    assert_memory_equal(a, b, 24 * sizeof *a);
}

/* A panorama: wrap on W, edge on H (the example of docs/spec.md). */
static void test_panorama(void **state)
{
    (void)state;
    const uint8_t img[2][3] = {{1, 2, 3}, {4, 5, 6}};
    uint8_t out[4][7];
    clpad_pad_options o;
    clpad_pad_options_init(&o, CLPAD_PAD_EDGE);
    o.modes[1] = CLPAD_PAD_WRAP;
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_U8, 2, I64(2, 3), img, I64(1, 2), I64(1, 2), &o, NULL, out,
                               sizeof out));
    static const uint8_t want[4][7] = {{2, 3, 1, 2, 3, 1, 2},
                                       {2, 3, 1, 2, 3, 1, 2},
                                       {5, 6, 4, 5, 6, 4, 5},
                                       {5, 6, 4, 5, 6, 4, 5}};
    assert_memory_equal(out, want, sizeof want);
    /* constant on one axis, reflect on the other: the value where the
     * constant axis pads, whatever the other says */
    uint8_t v = 9;
    clpad_pad_options_init(&o, CLPAD_PAD_CONSTANT);
    o.modes[1] = CLPAD_PAD_REFLECT;
    TU_ASSERT_OK(
        clpad_pad_cpu(CLPAD_U8, 2, I64(2, 3), img, I64(1, 2), I64(1, 2), &o, &v, out, sizeof out));
    static const uint8_t want2[4][7] = {{9, 9, 9, 9, 9, 9, 9},
                                        {3, 2, 1, 2, 3, 2, 1},
                                        {6, 5, 4, 5, 6, 5, 4},
                                        {9, 9, 9, 9, 9, 9, 9}};
    assert_memory_equal(out, want2, sizeof want2);
}

static void test_mode_names(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        clpad_pad_mode mode;
        unsigned flags;
    } ok[] = {
        {"constant", CLPAD_PAD_CONSTANT, 0},
        {"WRAP", CLPAD_PAD_WRAP, 0},
        {"cv:CONSTANT", CLPAD_PAD_CONSTANT, CLPAD_PAD_LARGE_NUMPY},
        {"cv:REPLICATE", CLPAD_PAD_EDGE, CLPAD_PAD_LARGE_NUMPY},
        {"cv:REFLECT", CLPAD_PAD_SYMMETRIC, CLPAD_PAD_LARGE_NUMPY},
        {"cv:REFLECT_101", CLPAD_PAD_REFLECT, CLPAD_PAD_LARGE_NUMPY},
        {"cv:reflect101", CLPAD_PAD_REFLECT, CLPAD_PAD_LARGE_NUMPY},
        {"CV:default", CLPAD_PAD_REFLECT, CLPAD_PAD_LARGE_NUMPY},
        {"cv:WRAP", CLPAD_PAD_WRAP, CLPAD_PAD_LARGE_NUMPY},
        {"torch:constant", CLPAD_PAD_CONSTANT, 0},
        {"torch:replicate", CLPAD_PAD_EDGE, 0},
        {"torch:reflect", CLPAD_PAD_REFLECT, 0},
        {"torch:circular", CLPAD_PAD_WRAP, 0},
        {"tf:CONSTANT", CLPAD_PAD_CONSTANT, 0},
        {"tf:REFLECT", CLPAD_PAD_REFLECT, 0},
        {"tf:SYMMETRIC", CLPAD_PAD_SYMMETRIC, 0},
        {"onnx:constant", CLPAD_PAD_CONSTANT, 0},
        {"onnx:edge", CLPAD_PAD_EDGE, 0},
        {"onnx:reflect", CLPAD_PAD_REFLECT, 0},
        {"onnx:wrap", CLPAD_PAD_WRAP, 0},
        {"ov:symmetric", CLPAD_PAD_SYMMETRIC, 0},
        {"np:constant", CLPAD_PAD_CONSTANT, CLPAD_PAD_LARGE_NUMPY},
        {"np:edge", CLPAD_PAD_EDGE, CLPAD_PAD_LARGE_NUMPY},
        {"np:reflect", CLPAD_PAD_REFLECT, CLPAD_PAD_LARGE_NUMPY},
        {"np:symmetric", CLPAD_PAD_SYMMETRIC, CLPAD_PAD_LARGE_NUMPY},
        {"np:wrap", CLPAD_PAD_WRAP, CLPAD_PAD_LARGE_NUMPY},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        clpad_pad_mode m = (clpad_pad_mode)-1;
        unsigned f = 99;
        TU_ASSERT_OK(clpad_pad_mode_parse(ok[i].name, &m, &f));
        if (m != ok[i].mode || f != ok[i].flags)
            fail_msg("%s: mode %d flags %u, want %d %u", ok[i].name, (int)m, f, (int)ok[i].mode,
                     ok[i].flags);
    }
    clpad_pad_mode m;
    TU_ASSERT_OK(clpad_pad_mode_parse("tf:reflect", &m, NULL));
    EXPECT_FAIL(clpad_pad_mode_parse("torch:symmetric", &m, NULL), CLPAD_ERR_PARSE,
                "torch has constant, replicate, reflect, circular");
    EXPECT_FAIL(clpad_pad_mode_parse("cv:ISOLATED", &m, NULL), CLPAD_ERR_PARSE, "'ISOLATED'");
    EXPECT_FAIL(clpad_pad_mode_parse("jax:reflect", &m, NULL), CLPAD_ERR_PARSE,
                "unknown prefix 'jax'");
    EXPECT_FAIL(clpad_pad_mode_parse("mirror", &m, NULL), CLPAD_ERR_PARSE, "cv:REFLECT_101");
    EXPECT_FAIL(clpad_pad_mode_parse(NULL, &m, NULL), CLPAD_ERR_INVALID_ARGUMENT, "NULL");

    /* Operations without large pads (pad-and-stack, letterbox) take the same
     * names, except those whose meaning is a repeated mirror: refused, with
     * the mode they do have. Every other name means what it says there. */
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        bool repeated = (ok[i].flags & CLPAD_PAD_LARGE_NUMPY) &&
                        (ok[i].mode == CLPAD_PAD_REFLECT || ok[i].mode == CLPAD_PAD_SYMMETRIC);
        m = (clpad_pad_mode)-1;
        clpad_status st = clpad_pad_mode_parse_within_limits(ok[i].name, &m);
        if (repeated) {
            char want[64];
            snprintf(want, sizeof want, "give '%s', the same result within them",
                     clpad_pad_mode_name(ok[i].mode));
            EXPECT_FAIL(st, CLPAD_ERR_UNSUPPORTED, want);
            assert_int_equal((int)m, -1); /* nothing written on failure */
        } else {
            TU_ASSERT_OK(st);
            assert_int_equal(m, ok[i].mode);
        }
    }
    EXPECT_FAIL(clpad_pad_mode_parse_within_limits("np:reflect", &m), CLPAD_ERR_UNSUPPORTED,
                "'np:reflect' is reflect as NumPy (numpy.pad) means it, which mirrors again "
                "beyond the limit shape - 1");
    EXPECT_FAIL(clpad_pad_mode_parse_within_limits("cv:REFLECT", &m), CLPAD_ERR_UNSUPPORTED,
                "'cv:REFLECT' is symmetric as OpenCV (BORDER_*) means it");
    EXPECT_FAIL(clpad_pad_mode_parse_within_limits("torch:symmetric", &m), CLPAD_ERR_PARSE,
                "torch has");
    EXPECT_FAIL(clpad_pad_mode_parse_within_limits(NULL, &m), CLPAD_ERR_INVALID_ARGUMENT,
                "NULL");

    /* --large-pads and large_pads=: one rule, case-insensitive */
    unsigned f = 99;
    TU_ASSERT_OK(clpad_pad_large_pads_parse("numpy", &f));
    assert_int_equal(f, CLPAD_PAD_LARGE_NUMPY);
    f = 99;
    TU_ASSERT_OK(clpad_pad_large_pads_parse("NumPy", &f));
    assert_int_equal(f, CLPAD_PAD_LARGE_NUMPY);
    TU_ASSERT_OK(clpad_pad_large_pads_parse("ERROR", &f));
    assert_int_equal(f, 0);
    EXPECT_FAIL(clpad_pad_large_pads_parse("yes", &f), CLPAD_ERR_PARSE,
                "large pads 'yes': expected numpy");
    EXPECT_FAIL(clpad_pad_large_pads_parse("", &f), CLPAD_ERR_PARSE, "large pads ''");
    EXPECT_FAIL(clpad_pad_large_pads_parse(NULL, &f), CLPAD_ERR_INVALID_ARGUMENT, "NULL");
    EXPECT_FAIL(clpad_pad_large_pads_parse("numpy", NULL), CLPAD_ERR_INVALID_ARGUMENT, "NULL");
}

/* ONNX Pad-18's axes, against a restatement: the i-th listed axis (negative:
 * from the end) gets the i-th begin / end pads, the others 0. */
static void test_axes(void **state)
{
    (void)state;
    int64_t pb[4], pe[4];
    TU_ASSERT_OK(clpad_pad_axes_expand(4, 2, I64(-1, 1), I64(3, 1), I64(4, -2), pb, pe));
    assert_memory_equal(pb, I64(0, 1, 0, 3), sizeof pb);
    assert_memory_equal(pe, I64(0, -2, 0, 4), sizeof pe);
    TU_ASSERT_OK(clpad_pad_axes_expand(3, 0, NULL, NULL, NULL, pb, pe));
    assert_memory_equal(pb, I64(0, 0, 0), 3 * sizeof *pb);
    uint64_t rng = tu_seed() ^ 0xA8E5;
    for (int t = 0; t < 500; t++) {
        int rank = (int)tu_range(&rng, 1, CLPAD_MAX_RANK);
        int n = (int)tu_range(&rng, 0, rank);
        int64_t axes[CLPAD_MAX_RANK], b[CLPAD_MAX_RANK], e[CLPAD_MAX_RANK];
        int perm[CLPAD_MAX_RANK];
        for (int i = 0; i < rank; i++)
            perm[i] = i;
        for (int i = rank - 1; i > 0; i--) {
            int j = (int)tu_range(&rng, 0, i), tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        for (int k = 0; k < n; k++) {
            axes[k] = tu_range(&rng, 0, 1) ? perm[k] : perm[k] - rank;
            b[k] = tu_range(&rng, -5, 5);
            e[k] = tu_range(&rng, -5, 5);
        }
        int64_t full_b[CLPAD_MAX_RANK], full_e[CLPAD_MAX_RANK];
        TU_ASSERT_OK(clpad_pad_axes_expand(rank, n, axes, b, e, full_b, full_e));
        for (int i = 0; i < rank; i++) {
            int64_t wb = 0, we = 0;
            for (int k = 0; k < n; k++)
                if (perm[k] == i)
                    wb = b[k], we = e[k];
            if (full_b[i] != wb || full_e[i] != we)
                fail_msg("rank %d axis %d: pads %lld/%lld, want %lld/%lld", rank, i,
                         (long long)full_b[i], (long long)full_e[i], (long long)wb,
                         (long long)we);
        }
    }
    /* errors: out of range, repeated (also as a negative alias), too many */
    EXPECT_FAIL(clpad_pad_axes_expand(3, 2, I64(0, 3), I64(1, 1), I64(1, 1), pb, pe),
                CLPAD_ERR_INVALID_ARGUMENT, "axes[1] = 3 is out of range for rank 3 (-3..2)");
    EXPECT_FAIL(clpad_pad_axes_expand(3, 2, I64(-4, 0), I64(1, 1), I64(1, 1), pb, pe),
                CLPAD_ERR_INVALID_ARGUMENT, "axes[0] = -4");
    EXPECT_FAIL(clpad_pad_axes_expand(3, 3, I64(2, 0, -1), I64(1, 1, 1), I64(1, 1, 1), pb, pe),
                CLPAD_ERR_INVALID_ARGUMENT, "axes[2] = -1 repeats axis 2 (axes[0])");
    EXPECT_FAIL(clpad_pad_axes_expand(2, 3, I64(0, 1, 0), I64(1, 1, 1), I64(1, 1, 1), pb, pe),
                CLPAD_ERR_INVALID_ARGUMENT, "naxes = 3");
    /* written only on success */
    int64_t keep[2] = {7, 7};
    EXPECT_FAIL(clpad_pad_axes_expand(2, 2, I64(0, 0), I64(1, 1), I64(1, 1), keep, keep),
                CLPAD_ERR_INVALID_ARGUMENT, "repeats");
    assert_int_equal(keep[0], 7);
}

/* Pads to a multiple, against a brute-force statement: the smallest size
 * >= the padded size that the multiple divides, found by counting up. */
static void test_to_multiple(void **state)
{
    (void)state;
    int64_t pb[3] = {0, 1, 0}, pe[3] = {0, 1, 0};
    TU_ASSERT_OK(clpad_pad_to_multiple(3, I64(5, 30, 3), I64(1, 32, 4), CLPAD_PLACE_END, pb, pe));
    assert_memory_equal(pb, I64(0, 1, 0), sizeof pb);
    assert_memory_equal(pe, I64(0, 1, 1), sizeof pe); /* 32 already; 3 -> 4 */
    int64_t cb[2] = {0, 0}, ce[2] = {0, 0};
    TU_ASSERT_OK(clpad_pad_to_multiple(2, I64(13, 27), I64(8, 32), CLPAD_PLACE_CENTER, cb, ce));
    assert_memory_equal(cb, I64(1, 2), sizeof cb); /* 13 -> 16: 1 + 2; 27 -> 32: 2 + 3 */
    assert_memory_equal(ce, I64(2, 3), sizeof ce);
    uint64_t rng = tu_seed() ^ 0x3017;
    for (int t = 0; t < 2000; t++) {
        int64_t D = tu_range(&rng, 0, 40), b = tu_range(&rng, -10, 10), e = tu_range(&rng, -10, 10);
        int64_t m = tu_range(&rng, 1, 17);
        clpad_placement pl = tu_range(&rng, 0, 1) ? CLPAD_PLACE_CENTER : CLPAD_PLACE_END;
        int64_t nb = b, ne = e;
        TU_ASSERT_OK(clpad_pad_to_multiple(1, &D, &m, pl, &nb, &ne));
        int64_t size = b + D + e > 0 ? b + D + e : 0, want = size;
        while (want % m)
            want++;
        int64_t got = nb + D + ne > 0 ? nb + D + ne : 0;
        int64_t extra = want - size, before = pl == CLPAD_PLACE_CENTER ? extra / 2 : 0;
        if (got != want || nb - b != before || ne - e != extra - before)
            fail_msg("D %lld pads %lld/%lld m %lld %s: pads %lld/%lld, size %lld, want %lld",
                     (long long)D, (long long)b, (long long)e, (long long)m,
                     pl ? "center" : "end", (long long)nb, (long long)ne, (long long)got,
                     (long long)want);
    }
    int64_t keep[2] = {3, 3};
    EXPECT_FAIL(clpad_pad_to_multiple(2, I64(4, 4), I64(8, 0), CLPAD_PLACE_END, keep, keep),
                CLPAD_ERR_INVALID_ARGUMENT, "multiples[1] = 0 must be >= 1");
    assert_int_equal(keep[0], 3);
    EXPECT_FAIL(clpad_pad_to_multiple(1, I64(4), I64(8), (clpad_placement)5, keep, keep),
                CLPAD_ERR_INVALID_ARGUMENT, "placement");
    int64_t big_b = INT64_MAX - 5, big_e = 0;
    EXPECT_FAIL(clpad_pad_to_multiple(1, I64(5), I64(8), CLPAD_PLACE_END, &big_b, &big_e),
                CLPAD_ERR_OVERFLOW, "overflows");
}

/* The forms composed in one call (clpad_pad_form_resolve): the named axes'
 * pads in place, per-axis modes, the large-pads policy over the modes'
 * flags, multiples; errors name the form's field and item. */
static void test_form_resolve(void **state)
{
    (void)state;
    int64_t shape[3] = {5, 7, 3}, pb[3] = {9, 9, 9}, pe[3] = {9, 9, 9};
    int64_t axes[2] = {1, -3}, b[2] = {1, 2}, e[2] = {0, 1}, mult[2] = {4, 1};
    clpad_pad_mode modes[2] = {CLPAD_PAD_WRAP, CLPAD_PAD_REFLECT};
    clpad_pad_form f;
    clpad_pad_form_init(&f);
    f.naxes = 2;
    f.axes = axes;
    f.pads_begin = b;
    f.pads_end = e;
    f.nmodes = 2;
    f.modes = modes;
    f.mode_flags = CLPAD_PAD_LARGE_NUMPY; /* as np: names give it */
    f.large_pads = 0;                     /* "error": the policy wins */
    f.nmultiples = 2;
    f.multiples = mult;
    f.placement = CLPAD_PLACE_CENTER;
    clpad_pad_options o;
    TU_ASSERT_OK(clpad_pad_form_resolve(3, shape, &f, pb, pe, &o));
    /* axis 1: 1 + 7 + 0 = 8, a multiple of 4; axis 0: 2 + 5 + 1 = 8; axis 2 untouched */
    assert_int_equal(pb[0], 2);
    assert_int_equal(pe[0], 1);
    assert_int_equal(pb[1], 1);
    assert_int_equal(pe[1], 0);
    assert_int_equal(pb[2], 0);
    assert_int_equal(pe[2], 0);
    assert_int_equal(o.modes[1], CLPAD_PAD_WRAP);
    assert_int_equal(o.modes[0], CLPAD_PAD_REFLECT);
    assert_int_equal(o.modes[2], CLPAD_PAD_WRAP); /* the unnamed axis: modes[0] */
    assert_int_equal(o.flags, 0);
    mult[0] = 3; /* 8 -> 9 on axis 1: centred, the odd one after */
    TU_ASSERT_OK(clpad_pad_form_resolve(3, shape, &f, pb, pe, &o));
    assert_int_equal(pb[1], 1);
    assert_int_equal(pe[1], 1);
    /* errors, each naming its field and item; nothing written */
    clpad_error_info ei = {.size = sizeof ei};
    int64_t keep[3] = {7, 7, 7};
    memcpy(pb, keep, sizeof keep);
    f.nmodes = 3;
    EXPECT_FAIL(clpad_pad_form_resolve(3, shape, &f, pb, pe, &o), CLPAD_ERR_INVALID_ARGUMENT,
                "3 modes for 2 padded axes");
    clpad_last_error_info(&ei);
    assert_string_equal(ei.argument, "modes");
    f.nmodes = 1;
    mult[1] = 0;
    EXPECT_FAIL(clpad_pad_form_resolve(3, shape, &f, pb, pe, &o), CLPAD_ERR_INVALID_ARGUMENT,
                "value 1 is 0");
    clpad_last_error_info(&ei);
    assert_string_equal(ei.argument, "multiples");
    assert_int_equal(ei.index, 1);
    mult[1] = 1;
    axes[1] = 1;
    EXPECT_FAIL(clpad_pad_form_resolve(3, shape, &f, pb, pe, &o), CLPAD_ERR_INVALID_ARGUMENT,
                "repeats axis 1");
    clpad_last_error_info(&ei);
    assert_string_equal(ei.argument, "axes");
    assert_int_equal(ei.index, 1);
    assert_memory_equal(pb, keep, sizeof keep);
    f.size = 4;
    EXPECT_FAIL(clpad_pad_form_resolve(3, shape, &f, pb, pe, &o), CLPAD_ERR_INVALID_ARGUMENT,
                "size = 4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_modes_vs_oracle), cmocka_unit_test(test_large_pads_vs_oracle),
        cmocka_unit_test(test_options_checked),       cmocka_unit_test(test_panorama),
        cmocka_unit_test(test_mode_names),            cmocka_unit_test(test_axes),
        cmocka_unit_test(test_to_multiple),           cmocka_unit_test(test_form_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
