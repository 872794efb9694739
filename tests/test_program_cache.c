/* One context holds every program variant it is asked for. Pad alone has 56
 * (7 row rules x uniform or mixed outer modes x 4 unit sizes); with
 * space/batch, pad-stack and letterbox (clpad_context_warmup) a context can
 * need more than the 64 a fixed table once held, after which every new
 * variant failed with "program cache full" for the context's life. Every
 * call here equals the CPU reference, again when repeated from the cache;
 * the programs are counted in the context's own cache (device/context.h:
 * this test links the static library), with the disk cache off so that
 * each is built. */
#include "test_util.h"
#include "device/context.h"
#include "ops/op.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int count_programs(const clpad_context *ctx)
{
    return (int)ctx->nprograms;
}

/* One dtype per unit size: the kernel moves units of the element's size. */
static const clpad_dtype k_dtypes[] = {CLPAD_U8, CLPAD_U16, CLPAD_U32, CLPAD_U64};

/* A 2-D pad whose row (axis 1) takes row rule `rule` (0..4: the modes;
 * 5, 6: reflect and symmetric past their limits with CLPAD_PAD_LARGE_NUMPY,
 * numpy.pad's repeated mirrors), and whose outer axis takes the same rule
 * (uniform) or another mode (mixed: the kernel reads it at run time). */
static void pad_variant(clpad_context *ctx, clpad_dtype dtype, int rule, bool mixed)
{
    static const clpad_pad_mode modes[7] = {CLPAD_PAD_CONSTANT, CLPAD_PAD_EDGE,
                                            CLPAD_PAD_REFLECT,  CLPAD_PAD_SYMMETRIC,
                                            CLPAD_PAD_WRAP,     CLPAD_PAD_REFLECT,
                                            CLPAD_PAD_SYMMETRIC};
    bool large = rule >= 5;
    clpad_pad_mode mode = modes[rule];
    clpad_pad_options o;
    clpad_pad_options_init(&o, mode);
    o.flags = large ? CLPAD_PAD_LARGE_NUMPY : 0;
    int64_t shape[2] = {3, 4};
    int64_t pb[2] = {1, large ? 5 : 2}, pe[2] = {2, large ? 7 : 1};
    if (mixed)
        o.modes[0] = mode == CLPAD_PAD_EDGE ? CLPAD_PAD_WRAP : CLPAD_PAD_EDGE;
    else if (large) /* the outer axis past the limit too: the same numpy rule */
        pb[0] = pe[0] = 4;
    int64_t os[2];
    TU_ASSERT_OK(clpad_pad_output_shape(2, shape, pb, pe, &o, os));
    size_t es = clpad_dtype_size(dtype), nin = 12 * es, nout = (size_t)(os[0] * os[1]) * es;
    /* 8-byte aligned, so that the unit is the element (host/device/launch.c) */
    uint64_t in[12], value[1], want[64 * 8], got[64 * 8];
    assert_true(nout <= sizeof got);
    uint64_t rng = 0x9E37 + (uint64_t)rule * 8 + es + (uint64_t)mixed;
    tu_fill(in, nin, &rng);
    tu_fill(value, sizeof value, &rng);
    TU_ASSERT_OK(clpad_pad_cpu(dtype, 2, shape, in, pb, pe, &o, value, want, nout));
    memset(got, 0x5A, nout);
    clpad_run_info ri;
    clpad_run_info_init(&ri);
    clpad_status st = clpad_pad(ctx, dtype, 2, shape, in, pb, pe, &o, value, got, nout, &ri);
    if (st)
        fail_msg("pad variant: rule %d, %s, %zu-byte units: %s: %s", rule,
                 mixed ? "mixed" : "uniform", es, clpad_status_name(st), clpad_last_error());
    assert_int_equal(ri.used_opencl, 1);
    if (memcmp(got, want, nout))
        fail_msg("pad variant: rule %d, %s, %zu-byte units: differs from the CPU reference", rule,
                 mixed ? "mixed" : "uniform", es);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_every_variant_in_one_context(void **state)
{
    (void)state;
    double t0 = now_s();
    clpad_context *ctx = tu_device_context();
    TU_ASSERT_OK(clpad_context_warmup(ctx));
    int warm = count_programs(ctx), built = 0;
    for (int pass = 0; pass < 2; pass++) { /* the second from the cache */
        for (size_t d = 0; d < sizeof k_dtypes / sizeof *k_dtypes; d++)
            for (int rule = 0; rule < 7; rule++)
                for (int mixed = 0; mixed < 2; mixed++)
                    pad_variant(ctx, k_dtypes[d], rule, mixed);
        int n = count_programs(ctx);
        printf("pass %d: %d programs in one context (%d from the warm-up), %.1f s\n", pass + 1, n,
               warm, now_s() - t0);
        if (pass == 0 && n <= 64)
            fail_msg("only %d program variants were built: the test no longer passes 64", n);
        if (pass == 1 && n != built)
            fail_msg("the second pass built %d programs again: the cache lost them", n - built);
        built = n;
    }
    /* The warm-up's programs still serve their calls. */
    TU_ASSERT_OK(clpad_context_warmup(ctx));
    int64_t shape[4] = {1, 2, 4, 6}, block[4] = {1, 1, 2, 3}, zero[4] = {0};
    float in[48], out[48], back[48];
    for (int i = 0; i < 48; i++)
        in[i] = (float)i;
    TU_ASSERT_OK(clpad_space_to_batch(ctx, CLPAD_F32, 4, shape, in, block, zero, zero, out,
                                      sizeof out, NULL));
    int64_t bs[4];
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(4, shape, block, zero, zero, bs));
    TU_ASSERT_OK(clpad_batch_to_space(ctx, CLPAD_F32, 4, bs, out, block, zero, zero, back,
                                      sizeof back, NULL));
    assert_memory_equal(back, in, sizeof in);
    assert_int_equal(count_programs(ctx), built); /* all from the cache */
    clpad_context_destroy(ctx);
}

/* Every program turns off multiply-add fusing before its first function:
 * kernels/coords.h comes first in every program and holds float rules
 * (clpad_cv_mac, the bicubic sums), and NVIDIA's compiler fuses a product
 * into a later addition even across statements unless the pragma is in
 * force (area and bicubic samples on an H100 and an H200 were one off the
 * CPU reference while the pragma stood only in letterbox.cl). CPU
 * compilers do not fuse there, so only the source can show the fault here.
 * Needs no device. */
static void test_fp_contract_first(void **state)
{
    (void)state;
    static const char pragma[] = "#pragma OPENCL FP_CONTRACT OFF";
    int families = 0;
    for (size_t i = 0; clpad__op_at(i); i++) {
        const char *src;
        size_t len;
        char *owned = NULL;
        TU_ASSERT_OK(clpad__kernel_source(NULL, clpad__op_at(i)->family, &src, &len, &owned));
        const char *p = strstr(src, pragma), *fn = strstr(src, "\nCLPAD_COORD_FN ");
        if (!p || !fn || p > fn)
            fail_msg("%s: \"%s\" is not in force before the first function of the program",
                     clpad__op_at(i)->family, pragma);
        free(owned);
        families++;
    }
    assert_true(families >= 5);
}

int main(void)
{
    const struct CMUnitTest source_tests[] = {
        cmocka_unit_test(test_fp_contract_first),
    };
    int failed = cmocka_run_group_tests(source_tests, NULL, NULL);
    if (failed)
        return failed;
    clpad_context_destroy(tu_device_context()); /* SKIP without a device */
    setenv("CLPAD_CACHE_DIR", "off", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_variant_in_one_context),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
