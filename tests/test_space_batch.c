/* SpaceToBatch / BatchToSpace on the CPU reference path (docs/spec.md: SpaceToBatch, BatchToSpace): the seed
 * example against the definition (zero-pad, reshape, transpose, reshape)
 * written here as plain loops, hand-checked small cases, every validation
 * rule, empty tensors, the host-pointer API on a CPU-only context, and
 * randomized cases against the same oracles plus round trips. Needs no
 * OpenCL. */
#include "test_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The oracles: docs/spec.md's SpaceToBatch definition, step by step ------------------------ */

/* out = transpose(in, perm): out dims[j] = in dims[perm[j]]. */
static void transpose(const unsigned char *in, int nd, const int64_t *dims, const int *perm,
                      unsigned char *out, size_t es)
{
    int64_t stride[2 * CLPAD_MAX_RANK], odims[2 * CLPAD_MAX_RANK], total = 1;
    for (int a = nd - 1; a >= 0; a--) {
        stride[a] = total;
        total *= dims[a];
    }
    for (int j = 0; j < nd; j++)
        odims[j] = dims[perm[j]];
    for (int64_t idx = 0; idx < total; idx++) {
        int64_t rem = idx, src = 0;
        for (int j = nd - 1; j >= 0; j--) {
            src += rem % odims[j] * stride[perm[j]];
            rem /= odims[j];
        }
        memcpy(out + (size_t)idx * es, in + (size_t)src * es, es);
    }
}

/* SpaceToBatch: zero-pad, reshape to [N, P1/B1, B1, ...], transpose to
 * [B1, ..., B(r-1), N, P1/B1, ...], reshape (a no-op in memory). */
static void oracle_s2b(size_t es, int r, const int64_t *shape, const int64_t *block,
                       const int64_t *pb, const int64_t *pe, const void *in, void *out)
{
    int64_t P[CLPAD_MAX_RANK];
    for (int i = 0; i < r; i++)
        P[i] = shape[i] + pb[i] + pe[i];
    int64_t np = tu_elems(r, P), nin = tu_elems(r, shape);
    unsigned char *padded = calloc((size_t)(np ? np : 1), es);
    for (int64_t idx = 0; idx < nin; idx++) {
        int64_t rem = idx, dst = 0, stride = 1;
        for (int a = r - 1; a >= 0; a--) {
            dst += (rem % shape[a] + pb[a]) * stride;
            rem /= shape[a];
            stride *= P[a];
        }
        memcpy(padded + (size_t)dst * es, (const unsigned char *)in + (size_t)idx * es, es);
    }
    int64_t dims[2 * CLPAD_MAX_RANK];
    int perm[2 * CLPAD_MAX_RANK];
    dims[0] = shape[0];
    for (int i = 1; i < r; i++) {
        dims[2 * i - 1] = P[i] / block[i];
        dims[2 * i] = block[i];
        perm[i - 1] = 2 * i;         /* [2, 4, ..., 2(r-1), */
        perm[r - 1 + i] = 2 * i - 1; /*  0, 1, 3, ..., 2r-3] */
    }
    perm[r - 1] = 0;
    transpose(padded, 2 * r - 1, dims, perm, out, es);
    free(padded);
}

/* BatchToSpace: reshape to [B1, ..., B(r-1), N, D1, ...], transpose to
 * [N, D1, B1, D2, B2, ...], reshape to [N, D1*B1, ...], crop. */
static void oracle_b2s(size_t es, int r, const int64_t *shape, const int64_t *block,
                       const int64_t *cb, const int64_t *ce, const void *in, void *out)
{
    int64_t prod = 1, dims[2 * CLPAD_MAX_RANK], full[CLPAD_MAX_RANK], os[CLPAD_MAX_RANK];
    int perm[2 * CLPAD_MAX_RANK];
    for (int i = 1; i < r; i++)
        prod *= block[i];
    for (int i = 1; i < r; i++) {
        dims[i - 1] = block[i];
        dims[r - 1 + i] = shape[i];
        perm[2 * i - 1] = r - 1 + i;
        perm[2 * i] = i - 1;
        full[i] = shape[i] * block[i];
        os[i] = full[i] - cb[i] - ce[i];
    }
    dims[r - 1] = full[0] = os[0] = shape[0] / prod;
    perm[0] = r - 1;
    int64_t nfull = tu_elems(r, full), nout = tu_elems(r, os);
    unsigned char *t = malloc((size_t)(nfull ? nfull : 1) * es);
    transpose(in, 2 * r - 1, dims, perm, t, es);
    for (int64_t idx = 0; idx < nout; idx++) {
        int64_t rem = idx, src = 0, stride = 1;
        for (int a = r - 1; a >= 0; a--) {
            src += (rem % os[a] + (a ? cb[a] : 0)) * stride;
            rem /= os[a];
            stride *= full[a];
        }
        memcpy((unsigned char *)out + (size_t)idx * es, t + (size_t)src * es, es);
    }
    free(t);
}

/* ---- The worked example -------------------------------------------------------- */

static void test_seed_example(void **state)
{
    (void)state;
    int64_t shape[5] = {2, 6, 10, 3, 3}, block[5] = {1, 2, 4, 3, 1};
    int64_t pb[5] = {0, 0, 1, 0, 0}, pe[5] = {0, 0, 1, 0, 0}, os[5];
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(5, shape, block, pb, pe, os));
    int64_t want_shape[5] = {48, 3, 3, 1, 3};
    for (int i = 0; i < 5; i++)
        assert_int_equal(os[i], want_shape[i]);
    enum { NIN = 2 * 6 * 10 * 3 * 3, NOUT = 48 * 3 * 3 * 1 * 3 };
    float in[NIN], got[NOUT + 4], want[NOUT], back[NIN];
    for (int i = 0; i < NIN; i++)
        in[i] = (float)(i + 1); /* never 0: padding is recognisable */
    memset(got, 0xCD, sizeof got);
    TU_ASSERT_OK(
        clpad_space_to_batch_cpu(CLPAD_F32, 5, shape, in, block, pb, pe, got, NOUT * sizeof(float)));
    oracle_s2b(4, 5, shape, block, pb, pe, in, want);
    for (int i = 0; i < NOUT; i++)
        if (got[i] != want[i])
            fail_msg("worked example: element %d = %g, want %g", i, got[i], want[i]);
    const unsigned char *tail = (const unsigned char *)(got + NOUT);
    for (size_t i = 0; i < 4 * sizeof(float); i++)
        assert_int_equal(tail[i], 0xCD);
    /* Spot checks straight from the element form: y[ob, o1, o2, o3, o4] with
     * ob = ((k1*4 + k2)*3 + k3)*2 + n reads x[n, 2*o1 + k1, 4*o2 + k2 - 1, 3*o3 + k3, o4]. */
    /* ob = 0: k = 0, n = 0; o2 = 0 reads w = -1: padding */
    assert_true(got[0] == 0.0f);
    /* ob = 1 (n = 1), o = (0, 1, 0, 2): x[1, 0, 3, 0, 2] */
    int64_t ob = 1, o1 = 0, o2 = 1, o3 = 0, o4 = 2;
    size_t yi = (size_t)((((ob * 3 + o1) * 3 + o2) * 1 + o3) * 3 + o4);
    size_t xi = (size_t)((((1 * 6 + 0) * 10 + 3) * 3 + 0) * 3 + 2);
    assert_true(got[yi] == in[xi]);
    /* ob = 47: k = (1, 3, 2), n = 1; o = (2, 2, 0, 1): x[1, 5, 10, 2, 1] -> padding
     * (w = 4*2 + 3 - 1 = 10 = D2), o2 = 1: x[1, 5, 6, 2, 1] */
    ob = 47;
    o1 = 2;
    o2 = 2;
    o4 = 1;
    yi = (size_t)((((ob * 3 + o1) * 3 + o2) * 1 + o3) * 3 + o4);
    assert_true(got[yi] == 0.0f);
    o2 = 1;
    yi = (size_t)((((ob * 3 + o1) * 3 + o2) * 1 + o3) * 3 + o4);
    xi = (size_t)((((1 * 6 + 5) * 10 + 6) * 3 + 2) * 3 + 1);
    assert_true(got[yi] == in[xi]);
    /* BatchToSpace with crops = pads gives the input back. */
    int64_t bs[5];
    TU_ASSERT_OK(clpad_batch_to_space_output_shape(5, want_shape, block, pb, pe, bs));
    for (int i = 0; i < 5; i++)
        assert_int_equal(bs[i], shape[i]);
    TU_ASSERT_OK(clpad_batch_to_space_cpu(CLPAD_F32, 5, want_shape, got, block, pb, pe, back,
                                          sizeof back));
    assert_memory_equal(back, in, sizeof in);
}

/* ---- Hand-checked small cases ------------------------------------------------ */

typedef struct lit_case {
    const char *name;
    int rank;
    int64_t shape[8], block[8], begin[8], end[8], out_shape[8];
    int32_t want[64];
} lit_case;

/* Input values are 1..n in C order (never 0, so padding shows as 0). */
static const lit_case s2b_cases[] = {
    {"rank 2, batch 2: block offset outer, original batch inner", 2, {2, 4}, {1, 2}, {0, 1},
     {0, 1}, {4, 3}, {0, 2, 4, 0, 6, 8, 1, 3, 0, 5, 7, 0}},
    {"rank 2, unequal pads", 2, {1, 5}, {1, 3}, {0, 3}, {0, 1}, {3, 3},
     {0, 1, 4, 0, 2, 5, 0, 3, 0}},
    {"rank 3, non-square block 2x3", 3, {1, 2, 6}, {1, 2, 3}, {0, 0, 0}, {0, 0, 0}, {6, 1, 2},
     {1, 4, 2, 5, 3, 6, 7, 10, 8, 11, 9, 12}},
    {"rank 3, pad begin only", 3, {1, 2, 3}, {1, 2, 2}, {0, 0, 1}, {0, 0, 0}, {4, 1, 2},
     {0, 2, 1, 3, 0, 5, 4, 6}},
    {"rank 4, NHWC, block 1 on H and C, unequal pads on W, batch 2", 4, {2, 2, 3, 2},
     {1, 1, 3, 1}, {0, 0, 2, 0}, {0, 0, 1, 0}, {6, 2, 2, 2},
     {0, 0, 3, 4, 0, 0, 9, 10, 0, 0, 15, 16, 0, 0, 21, 22,   /* k = 0, n = 0 and 1 */
      0, 0, 5, 6, 0, 0, 11, 12, 0, 0, 17, 18, 0, 0, 23, 24,  /* k = 1 */
      1, 2, 0, 0, 7, 8, 0, 0, 13, 14, 0, 0, 19, 20, 0, 0}}, /* k = 2 */
    {"rank 5, blocks on the first and last spatial axes", 5, {2, 2, 1, 1, 2}, {1, 2, 1, 1, 2},
     {0}, {0}, {8, 1, 1, 1, 1}, {1, 5, 2, 6, 3, 7, 4, 8}},
    {"rank 8", 8, {1, 2, 1, 1, 1, 1, 1, 2}, {1, 2, 1, 1, 1, 1, 1, 2}, {0, 0, 0, 1},
     {0}, {4, 1, 1, 2, 1, 1, 1, 1}, {0, 1, 0, 2, 0, 3, 0, 4}},
};

static const lit_case b2s_cases[] = {
    {"rank 3, crops on the last axis", 3, {4, 1, 3}, {1, 1, 2}, {0, 0, 1}, {0, 0, 2}, {2, 1, 3},
     {7, 2, 8, 10, 5, 11}},
    {"rank 4, block 2x2, batch 2", 4, {8, 1, 1, 1}, {1, 2, 2, 1}, {0}, {0}, {2, 2, 2, 1},
     {1, 3, 5, 7, 2, 4, 6, 8}},
    {"rank 2, crops everything", 2, {2, 2}, {1, 2}, {0, 3}, {0, 1}, {1, 0}, {0}},
};

static void check_literal(const lit_case *c, bool s2b)
{
    int64_t os[8];
    int32_t in[64], got[64 + 4], back[64];
    int64_t nin = tu_elems(c->rank, c->shape);
    for (int64_t i = 0; i < nin; i++)
        in[i] = (int32_t)(i + 1);
    if (s2b)
        TU_ASSERT_OK(
            clpad_space_to_batch_output_shape(c->rank, c->shape, c->block, c->begin, c->end, os));
    else
        TU_ASSERT_OK(
            clpad_batch_to_space_output_shape(c->rank, c->shape, c->block, c->begin, c->end, os));
    for (int i = 0; i < c->rank; i++)
        if (os[i] != c->out_shape[i])
            fail_msg("%s: out_shape[%d] = %lld, want %lld", c->name, i, (long long)os[i],
                     (long long)c->out_shape[i]);
    int64_t nout = tu_elems(c->rank, os);
    memset(got, 0xCD, sizeof got);
    size_t out_bytes = (size_t)nout * 4;
    if (s2b)
        TU_ASSERT_OK(clpad_space_to_batch_cpu(CLPAD_I32, c->rank, c->shape, in, c->block, c->begin,
                                              c->end, got, out_bytes));
    else
        TU_ASSERT_OK(clpad_batch_to_space_cpu(CLPAD_I32, c->rank, c->shape, in, c->block, c->begin,
                                              c->end, got, out_bytes));
    for (int64_t i = 0; i < nout; i++)
        if (got[i] != c->want[i])
            fail_msg("%s: element %lld = %d, want %d", c->name, (long long)i, got[i], c->want[i]);
    assert_int_equal(got[nout], (int32_t)0xCDCDCDCD);
    /* The oracle agrees with the hand-written values. */
    int32_t oracle[64];
    if (s2b)
        oracle_s2b(4, c->rank, c->shape, c->block, c->begin, c->end, in, oracle);
    else
        oracle_b2s(4, c->rank, c->shape, c->block, c->begin, c->end, in, oracle);
    if (nout)
        assert_memory_equal(oracle, c->want, out_bytes);
    if (s2b) { /* and BatchToSpace undoes it */
        TU_ASSERT_OK(clpad_batch_to_space_cpu(CLPAD_I32, c->rank, os, got, c->block, c->begin,
                                              c->end, back, sizeof back));
        assert_memory_equal(back, in, (size_t)nin * 4);
    }
}

static void test_literal_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof s2b_cases / sizeof *s2b_cases; i++)
        check_literal(&s2b_cases[i], true);
    for (size_t i = 0; i < sizeof b2s_cases / sizeof *b2s_cases; i++)
        check_literal(&b2s_cases[i], false);
}

/* Every element size moves bit patterns, including all-ones and NaN-like bytes. */
static void test_element_sizes(void **state)
{
    (void)state;
    static const clpad_dtype dtypes[] = {CLPAD_BOOL, CLPAD_U8,  CLPAD_I16, CLPAD_F16, CLPAD_BF16,
                                         CLPAD_F32,  CLPAD_I32, CLPAD_F64, CLPAD_U64};
    int64_t shape[3] = {2, 3, 4}, block[3] = {1, 1, 2}, pb[3] = {0, 1, 1}, pe[3] = {0, 0, 1};
    int64_t os[3];
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(3, shape, block, pb, pe, os));
    size_t nin = 24, nout = (size_t)tu_elems(3, os);
    uint64_t rng = 12345;
    for (size_t d = 0; d < sizeof dtypes / sizeof *dtypes; d++) {
        size_t es = clpad_dtype_size(dtypes[d]);
        unsigned char in[24 * 8], got[64 * 8], want[64 * 8];
        tu_fill(in, nin * es, &rng);
        memset(in, 0xFF, es); /* all ones */
        TU_ASSERT_OK(clpad_space_to_batch_cpu(dtypes[d], 3, shape, in, block, pb, pe, got,
                                              nout * es));
        oracle_s2b(es, 3, shape, block, pb, pe, in, want);
        assert_memory_equal(got, want, nout * es);
    }
}

/* ---- Empty tensors and trivial blocks --------------------------------------- */

static void test_empty_and_trivial(void **state)
{
    (void)state;
    unsigned char canary[8];
    memset(canary, 0x5A, sizeof canary);
    int64_t os[3];
    /* N = 0: empty output, nothing written, input may be NULL. */
    int64_t s0[3] = {0, 4, 4}, b[3] = {1, 2, 2}, z[3] = {0, 0, 0};
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(3, s0, b, z, z, os));
    assert_int_equal(os[0], 0);
    assert_int_equal(os[1], 2);
    TU_ASSERT_OK(clpad_space_to_batch_cpu(CLPAD_F32, 3, s0, NULL, b, z, z, canary, 0));
    TU_ASSERT_OK(clpad_batch_to_space_cpu(CLPAD_F32, 3, s0, NULL, b, z, z, canary, 0));
    for (int i = 0; i < 8; i++)
        assert_int_equal(canary[i], 0x5A);
    /* An empty spatial axis with pads: the output is all padding (zeros),
     * written over whatever was there; the input is empty and may be NULL. */
    int64_t s1[3] = {1, 0, 2}, pb[3] = {0, 1, 0}, pe[3] = {0, 1, 0};
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(3, s1, b, pb, pe, os));
    assert_int_equal(os[0], 4);
    assert_int_equal(os[1], 1);
    assert_int_equal(os[2], 1);
    int16_t out[5];
    memset(out, 0x77, sizeof out);
    TU_ASSERT_OK(clpad_space_to_batch_cpu(CLPAD_I16, 3, s1, NULL, b, pb, pe, out, 8));
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], 0);
    assert_int_equal(out[4], 0x7777);
    /* BatchToSpace cropping an axis to 0. */
    int64_t s2[3] = {4, 1, 1}, cb[3] = {0, 2, 0}, ce[3] = {0, 0, 0};
    TU_ASSERT_OK(clpad_batch_to_space_output_shape(3, s2, b, cb, ce, os));
    assert_int_equal(os[0], 1);
    assert_int_equal(os[1], 0);
    assert_int_equal(os[2], 2);
    int16_t in4[4] = {1, 2, 3, 4};
    TU_ASSERT_OK(clpad_batch_to_space_cpu(CLPAD_I16, 3, s2, in4, b, cb, ce, canary, 0));
    assert_int_equal(canary[0], 0x5A);
    /* All blocks 1 and no pads: a plain copy. */
    int64_t s3[4] = {2, 3, 1, 5}, b1[4] = {1, 1, 1, 1}, z4[4] = {0};
    uint8_t x[30], y[30];
    for (int i = 0; i < 30; i++)
        x[i] = (uint8_t)(i * 7 + 1);
    TU_ASSERT_OK(clpad_space_to_batch_cpu(CLPAD_U8, 4, s3, x, b1, z4, z4, y, sizeof y));
    assert_memory_equal(x, y, sizeof x);
    memset(y, 0, sizeof y);
    TU_ASSERT_OK(clpad_batch_to_space_cpu(CLPAD_U8, 4, s3, x, b1, z4, z4, y, sizeof y));
    assert_memory_equal(x, y, sizeof x);
    /* Blocks of 1 with pads: Pad with zeros (batch unchanged). */
    int64_t pb4[4] = {0, 1, 0, 2}, pe4[4] = {0, 0, 1, 0}, os4[4];
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(4, s3, b1, pb4, pe4, os4));
    int64_t n4 = tu_elems(4, os4);
    uint8_t got[256], want[256];
    TU_ASSERT_OK(clpad_space_to_batch_cpu(CLPAD_U8, 4, s3, x, b1, pb4, pe4, got, sizeof got));
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_U8, 4, s3, x, pb4, pe4, CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT),
                               NULL, want, sizeof want));
    assert_memory_equal(got, want, (size_t)n4);
}

/* ---- Validation --------------------------------------------------------------- */

#define EXPECT(call, status, text)                                                            \
    do {                                                                                      \
        clpad_status st_ = (call);                                                            \
        if (st_ != (status))                                                                  \
            fail_msg("%s: got %s, want %s (%s)", #call, clpad_status_name(st_),               \
                     clpad_status_name(status), clpad_last_error());                          \
        if (!strstr(clpad_last_error(), (text)))                                              \
            fail_msg("%s: message '%s' does not mention '%s'", #call, clpad_last_error(),     \
                     (text));                                                                 \
    } while (0)

static void test_errors(void **state)
{
    (void)state;
    int64_t shape[3] = {2, 4, 6}, block[3] = {1, 2, 3}, z[3] = {0, 0, 0}, os[3];
    int64_t big = INT64_C(1) << 40;
    float in[48] = {0}, out[64];
    /* rank, NULL arrays, shape */
    EXPECT(clpad_space_to_batch_output_shape(1, shape, block, z, z, os),
           CLPAD_ERR_INVALID_ARGUMENT, "rank 1");
    EXPECT(clpad_space_to_batch_output_shape(0, shape, block, z, z, os),
           CLPAD_ERR_INVALID_ARGUMENT, "rank 0");
    EXPECT(clpad_batch_to_space_output_shape(9, shape, block, z, z, os),
           CLPAD_ERR_INVALID_ARGUMENT, "rank 9");
    EXPECT(clpad_space_to_batch_output_shape(3, NULL, block, z, z, os),
           CLPAD_ERR_INVALID_ARGUMENT, "shape is NULL");
    EXPECT(clpad_space_to_batch_output_shape(3, shape, NULL, z, z, os),
           CLPAD_ERR_INVALID_ARGUMENT, "block_shape is NULL");
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, NULL, z, os),
           CLPAD_ERR_INVALID_ARGUMENT, "pads_begin is NULL");
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, z, NULL, os),
           CLPAD_ERR_INVALID_ARGUMENT, "pads_end is NULL");
    EXPECT(clpad_batch_to_space_output_shape(3, shape, block, NULL, z, os),
           CLPAD_ERR_INVALID_ARGUMENT, "crops_begin is NULL");
    EXPECT(clpad_batch_to_space_output_shape(3, shape, block, z, NULL, os),
           CLPAD_ERR_INVALID_ARGUMENT, "crops_end is NULL");
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, z, z, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "out_shape is NULL");
    EXPECT(clpad_space_to_batch_output_shape(3, (int64_t[]){2, -1, 6}, block, z, z, os),
           CLPAD_ERR_INVALID_SHAPE, "shape[1] = -1");
    /* blocks */
    EXPECT(clpad_space_to_batch_output_shape(3, shape, (int64_t[]){1, 2, 0}, z, z, os),
           CLPAD_ERR_INVALID_PADS, "block_shape[2] = 0 must be >= 1");
    EXPECT(clpad_batch_to_space_output_shape(3, shape, (int64_t[]){1, -2, 1}, z, z, os),
           CLPAD_ERR_INVALID_PADS, "block_shape[1] = -2 must be >= 1");
    EXPECT(clpad_space_to_batch_output_shape(3, shape, (int64_t[]){2, 2, 3}, z, z, os),
           CLPAD_ERR_INVALID_PADS, "block_shape[0] = 2 must be 1");
    EXPECT(clpad_batch_to_space_output_shape(3, (int64_t[]){12, 1, 1}, (int64_t[]){2, 2, 3}, z,
                                             z, os),
           CLPAD_ERR_INVALID_PADS, "block_shape[0] = 2 must be 1");
    /* negative pads and crops, pads and crops on axis 0 */
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, (int64_t[]){0, -2, 2}, z, os),
           CLPAD_ERR_INVALID_PADS, "pads_begin[1] = -2 is negative");
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, z, (int64_t[]){0, 2, -3}, os),
           CLPAD_ERR_INVALID_PADS, "pads_end[2] = -3 is negative");
    EXPECT(clpad_batch_to_space_output_shape(3, shape, block, (int64_t[]){0, -1, 0}, z, os),
           CLPAD_ERR_INVALID_PADS, "crops_begin[1] = -1 is negative");
    EXPECT(clpad_batch_to_space_output_shape(3, shape, block, z, (int64_t[]){0, 0, -1}, os),
           CLPAD_ERR_INVALID_PADS, "crops_end[2] = -1 is negative");
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, (int64_t[]){1, 0, 0}, z, os),
           CLPAD_ERR_INVALID_PADS, "pads_begin[0] = 1 must be 0");
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, z, (int64_t[]){2, 0, 0}, os),
           CLPAD_ERR_INVALID_PADS, "pads_end[0] = 2 must be 0");
    EXPECT(clpad_batch_to_space_output_shape(3, (int64_t[]){12, 1, 1}, block,
                                             (int64_t[]){1, 0, 0}, z, os),
           CLPAD_ERR_INVALID_PADS, "crops_begin[0] = 1 must be 0");
    EXPECT(clpad_batch_to_space_output_shape(3, (int64_t[]){12, 1, 1}, block, z,
                                             (int64_t[]){1, 0, 0}, os),
           CLPAD_ERR_INVALID_PADS, "crops_end[0] = 1 must be 0");
    /* a block that does not divide D + pads */
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, (int64_t[]){0, 1, 0}, z, os),
           CLPAD_ERR_INVALID_PADS, "block_shape[1] = 2 does not divide shape[1] + pads_begin[1] "
                                   "+ pads_end[1] = 4 + 1 + 0 = 5");
    EXPECT(clpad_space_to_batch_output_shape(3, (int64_t[]){2, 4, 7}, block, z, z, os),
           CLPAD_ERR_INVALID_PADS, "block_shape[2] = 3 does not divide");
    /* a batch not divisible by prod(block_shape) */
    EXPECT(clpad_batch_to_space_output_shape(3, (int64_t[]){9, 1, 1}, block, z, z, os),
           CLPAD_ERR_INVALID_SHAPE, "shape[0] = 9 is not divisible by prod(block_shape) = 6");
    /* crops larger than D*B */
    EXPECT(clpad_batch_to_space_output_shape(3, (int64_t[]){6, 2, 1}, block,
                                             (int64_t[]){0, 3, 0}, (int64_t[]){0, 2, 0}, os),
           CLPAD_ERR_INVALID_PADS,
           "crops_begin[1] + crops_end[1] = 3 + 2 exceeds shape[1] * block_shape[1] = 2 * 2 = 4");
    EXPECT(clpad_batch_to_space_output_shape(3, (int64_t[]){6, 2, 1}, block,
                                             (int64_t[]){0, 0, INT64_MAX},
                                             (int64_t[]){0, 0, INT64_MAX}, os),
           CLPAD_ERR_INVALID_PADS, "crops_begin[2] + crops_end[2]");
    /* crops equal to D*B are fine: an empty axis */
    TU_ASSERT_OK(clpad_batch_to_space_output_shape(3, (int64_t[]){6, 2, 1}, block,
                                                   (int64_t[]){0, 1, 2}, (int64_t[]){0, 3, 1},
                                                   os));
    assert_int_equal(os[1], 0);
    assert_int_equal(os[2], 0);
    /* overflow */
    EXPECT(clpad_space_to_batch_output_shape(3, shape, block, (int64_t[]){0, INT64_MAX, 0}, z,
                                             os),
           CLPAD_ERR_OVERFLOW, "shape[1] + pads_begin[1] + pads_end[1]");
    EXPECT(clpad_space_to_batch_output_shape(3, (int64_t[]){1, 0, 0}, (int64_t[]){1, big, big}, z,
                                             z, os),
           CLPAD_ERR_OVERFLOW, "prod(block_shape) overflows");
    EXPECT(clpad_space_to_batch_output_shape(2, (int64_t[]){INT64_C(1) << 62, 4},
                                             (int64_t[]){1, 4}, z, z, os),
           CLPAD_ERR_OVERFLOW, "shape[0] * prod(block_shape)");
    EXPECT(clpad_batch_to_space_output_shape(2, (int64_t[]){4, INT64_C(1) << 62},
                                             (int64_t[]){1, 4}, z, z, os),
           CLPAD_ERR_OVERFLOW, "shape[1] * block_shape[1]");
    EXPECT(clpad_space_to_batch_output_shape(3, (int64_t[]){big, big, 1}, (int64_t[]){1, 1, 1}, z,
                                             z, os),
           CLPAD_ERR_OVERFLOW, "element count");
    EXPECT(clpad_space_to_batch_cpu(CLPAD_F64, 2, (int64_t[]){INT64_C(1) << 61, 1},
                                    in, (int64_t[]){1, 1}, z, z, out, sizeof out),
           CLPAD_ERR_OVERFLOW, "byte size");
    /* the data functions */
    EXPECT(clpad_space_to_batch_cpu((clpad_dtype)77, 3, shape, in, block, z, z, out, sizeof out),
           CLPAD_ERR_INVALID_ARGUMENT, "dtype");
    EXPECT(clpad_space_to_batch_cpu(CLPAD_F32, 3, shape, in, block, z, z, out, 191),
           CLPAD_ERR_BUFFER_TOO_SMALL, "needs 192 bytes");
    EXPECT(clpad_batch_to_space_cpu(CLPAD_F32, 3, (int64_t[]){12, 2, 2}, in, block, z, z, out, 4),
           CLPAD_ERR_BUFFER_TOO_SMALL, "output_bytes = 4");
    EXPECT(clpad_space_to_batch_cpu(CLPAD_F32, 3, shape, NULL, block, z, z, out, sizeof out),
           CLPAD_ERR_INVALID_ARGUMENT, "input is NULL");
    EXPECT(clpad_batch_to_space_cpu(CLPAD_F32, 3, (int64_t[]){12, 2, 2}, in, block, z, z, NULL,
                                    192),
           CLPAD_ERR_INVALID_ARGUMENT, "output is NULL");
    /* Validation comes before any write. */
    memset(out, 0x3C, sizeof out);
    EXPECT(clpad_space_to_batch_cpu(CLPAD_F32, 3, shape, in, block, (int64_t[]){0, 1, 0}, z, out,
                                    sizeof out),
           CLPAD_ERR_INVALID_PADS, "does not divide");
    for (size_t i = 0; i < sizeof out; i++)
        assert_int_equal(((unsigned char *)out)[i], 0x3C);
    /* Success clears the message. */
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(3, shape, block, z, z, os));
    assert_string_equal(clpad_last_error(), "");
}

/* ---- Randomized cases ------------------------------------------------------- */

typedef struct sb_case {
    int rank;
    size_t es;
    int64_t shape[8], block[8], begin[8], end[8];
} sb_case;

static const char *case_str(const sb_case *c, const char *what, char *buf, size_t len)
{
    char s[96], b[96], p[96], e[96];
    snprintf(buf, len, "%zu-byte shape=%s block=%s %s_begin=%s %s_end=%s", c->es,
             tu_shape_str(c->rank, c->shape, s, sizeof s),
             tu_shape_str(c->rank, c->block, b, sizeof b), what,
             tu_shape_str(c->rank, c->begin, p, sizeof p), what,
             tu_shape_str(c->rank, c->end, e, sizeof e));
    return buf;
}

/* A random valid SpaceToBatch: some axes plain (block 1, no pads), some
 * padded only, some blocked; occasionally empty axes. */
static void random_s2b(uint64_t *rng, int64_t max_elems, sb_case *c)
{
    for (;;) {
        memset(c, 0, sizeof *c);
        c->rank = (int)tu_range(rng, 2, 8);
        c->es = (size_t)1 << tu_range(rng, 0, 3);
        bool small = c->rank > 5;
        c->shape[0] = tu_range(rng, 0, 15) ? tu_range(rng, 1, 3) : 0;
        c->block[0] = 1;
        for (int i = 1; i < c->rank; i++) {
            int64_t D = tu_range(rng, 0, 19) ? tu_range(rng, 1, small ? 3 : 7) : 0;
            int kind = (int)tu_range(rng, 0, 3);
            int64_t B = 1, pb = 0, pe = 0;
            if (kind >= 1) { /* padded */
                pb = tu_range(rng, 0, 3);
                pe = tu_range(rng, 0, 3);
            }
            if (kind >= 2) /* blocked */
                B = tu_range(rng, 2, small ? 3 : 5);
            pe += (B - (D + pb + pe) % B) % B;
            c->shape[i] = D;
            c->block[i] = B;
            c->begin[i] = pb;
            c->end[i] = pe;
        }
        int64_t os[8];
        if (clpad_space_to_batch_output_shape(c->rank, c->shape, c->block, c->begin, c->end, os) ==
                CLPAD_OK &&
            tu_elems(c->rank, os) <= max_elems)
            return;
    }
}

/* A random valid BatchToSpace on the output shape of a random SpaceToBatch,
 * with random crops (not necessarily the pads). */
static void random_b2s(uint64_t *rng, int64_t max_elems, sb_case *c)
{
    sb_case s;
    random_s2b(rng, max_elems, &s);
    *c = s;
    clpad_space_to_batch_output_shape(s.rank, s.shape, s.block, s.begin, s.end, c->shape);
    for (int i = 1; i < c->rank; i++) {
        int64_t full = c->shape[i] * c->block[i];
        c->begin[i] = tu_range(rng, 0, full < 3 ? full : 3);
        int64_t left = full - c->begin[i];
        c->end[i] = tu_range(rng, 0, left < 3 ? left : 3);
    }
}

static clpad_dtype dtype_of(size_t es)
{
    return es == 1 ? CLPAD_U8 : es == 2 ? CLPAD_F16 : es == 4 ? CLPAD_F32 : CLPAD_F64;
}

static void test_random_vs_oracle(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x5B2B;
    enum { CASES = 1500, MAXE = 2048, GUARD = 64 };
    unsigned char *in = malloc(MAXE * 8), *copy = malloc(MAXE * 8);
    unsigned char *got = malloc(MAXE * 8 + GUARD), *want = malloc(MAXE * 8);
    unsigned char *back = malloc(MAXE * 8);
    char buf[512];
    for (int i = 0; i < CASES; i++) {
        bool s2b = i % 2 == 0;
        sb_case c;
        if (s2b)
            random_s2b(&rng, MAXE, &c);
        else
            random_b2s(&rng, MAXE, &c);
        int64_t os[8];
        if (s2b)
            TU_ASSERT_OK(
                clpad_space_to_batch_output_shape(c.rank, c.shape, c.block, c.begin, c.end, os));
        else
            TU_ASSERT_OK(
                clpad_batch_to_space_output_shape(c.rank, c.shape, c.block, c.begin, c.end, os));
        size_t nin = (size_t)tu_elems(c.rank, c.shape) * c.es;
        size_t nout = (size_t)tu_elems(c.rank, os) * c.es;
        tu_fill(in, nin, &rng);
        memcpy(copy, in, nin);
        memset(got, 0xCD, nout + GUARD);
        clpad_status st;
        if (s2b) {
            oracle_s2b(c.es, c.rank, c.shape, c.block, c.begin, c.end, in, want);
            st = clpad_space_to_batch_cpu(dtype_of(c.es), c.rank, c.shape, in, c.block, c.begin,
                                          c.end, got, nout);
        } else {
            oracle_b2s(c.es, c.rank, c.shape, c.block, c.begin, c.end, in, want);
            st = clpad_batch_to_space_cpu(dtype_of(c.es), c.rank, c.shape, in, c.block, c.begin,
                                          c.end, got, nout);
        }
        const char *what = s2b ? "pads" : "crops";
        if (st != CLPAD_OK)
            fail_msg("case %d failed (%s): %s", i, clpad_last_error(),
                     case_str(&c, what, buf, sizeof buf));
        if (memcmp(got, want, nout))
            fail_msg("case %d differs from the oracle: %s %s", i, s2b ? "space_to_batch" :
                     "batch_to_space", case_str(&c, what, buf, sizeof buf));
        for (size_t k = nout; k < nout + GUARD; k++)
            if (got[k] != 0xCD)
                fail_msg("case %d wrote past the output: %s", i, case_str(&c, what, buf, sizeof buf));
        if (memcmp(in, copy, nin))
            fail_msg("case %d modified the input", i);
        if (s2b) { /* round trip: batch_to_space(space_to_batch(x), crops = pads) == x */
            TU_ASSERT_OK(clpad_batch_to_space_cpu(dtype_of(c.es), c.rank, os, got, c.block,
                                                  c.begin, c.end, back, nin));
            if (memcmp(back, in, nin))
                fail_msg("case %d: the round trip differs: %s", i,
                         case_str(&c, what, buf, sizeof buf));
        }
    }
    printf("%d random cases equal the oracles (and %d round trips)\n", CASES, CASES / 2);
    free(in);
    free(copy);
    free(got);
    free(want);
    free(back);
}

/* The host-pointer API on a CPU-only context runs the reference path. */
static void test_host_api_fallback(void **state)
{
    (void)state;
    clpad_context *ctx = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_CPU_ONLY, &ctx));
    int64_t shape[4] = {2, 4, 5, 3}, block[4] = {1, 2, 3, 1}, pb[4] = {0, 1, 0, 0},
            pe[4] = {0, 1, 1, 0}, os[4];
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(4, shape, block, pb, pe, os));
    size_t nin = 120, nout = (size_t)tu_elems(4, os);
    int32_t in[120], got[256], want[256], back[120];
    for (size_t i = 0; i < nin; i++)
        in[i] = (int32_t)(i * 31 + 7);
    clpad_run_info info;
    memset(&info, 0xFF, sizeof info); /* every field poisoned but the size */
    info.size = sizeof info;
    TU_ASSERT_OK(clpad_space_to_batch(ctx, CLPAD_I32, 4, shape, in, block, pb, pe, got,
                                      nout * 4, &info));
    TU_ASSERT_OK(clpad_space_to_batch_cpu(CLPAD_I32, 4, shape, in, block, pb, pe, want, nout * 4));
    assert_memory_equal(got, want, nout * 4);
    assert_int_equal(info.used_opencl, 0);
    assert_int_equal(info.bytes_moved, (nin + nout) * 4);
    TU_ASSERT_OK(clpad_batch_to_space(ctx, CLPAD_I32, 4, os, got, block, pb, pe, back, sizeof back,
                                      &info));
    assert_memory_equal(back, in, sizeof in);
    assert_int_equal(info.bytes_moved, 2 * nin * 4);
    EXPECT(clpad_space_to_batch(NULL, CLPAD_I32, 4, shape, in, block, pb, pe, got, nout * 4, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "context is NULL");
    EXPECT(clpad_space_to_batch(ctx, CLPAD_I32, 4, shape, in, block, pb, pe, got, nout * 4 - 1,
                                NULL),
           CLPAD_ERR_BUFFER_TOO_SMALL, "output_bytes");
    /* The enqueue API needs a device. */
    EXPECT(clpad_enqueue_space_to_batch(ctx, CLPAD_I32, 4, shape, NULL, 0, block, pb, pe, NULL, 0,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_NO_DEVICE, "enqueue_space_to_batch");
    EXPECT(clpad_enqueue_batch_to_space(ctx, CLPAD_I32, 4, os, NULL, 0, block, pb, pe, NULL, 0,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_NO_DEVICE, "enqueue_batch_to_space");
    clpad_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_example),      cmocka_unit_test(test_literal_cases),
        cmocka_unit_test(test_element_sizes),     cmocka_unit_test(test_empty_and_trivial),
        cmocka_unit_test(test_errors),            cmocka_unit_test(test_random_vs_oracle),
        cmocka_unit_test(test_host_api_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
