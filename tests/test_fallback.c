/* No OpenCL platform at all: the ICD loader is pointed at an empty vendor
 * directory, so clGetPlatformIDs returns CL_PLATFORM_NOT_FOUND_KHR (-1001).
 * The host-pointer API falls back to the CPU path and says so; the enqueue
 * API returns CLPAD_ERR_NO_DEVICE. */
#include "test_util.h"
#include "pad_seed_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_dir[] = "/tmp/clpad-no-icd-XXXXXX";

static void test_no_platform(void **state)
{
    (void)state;
    size_t n = 99;
    TU_ASSERT_OK(clpad_devices(NULL, 0, &n));
    assert_int_equal(n, 0);

    clpad_context *ctx = NULL;
    TU_ASSERT_STATUS(tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK, &ctx),
                     CLPAD_ERR_NO_DEVICE);
    assert_null(ctx);
    /* A spec that names a device is an error, not a silent fallback. */
    TU_ASSERT_STATUS(tu_context_create("0:0", 0, &ctx), CLPAD_ERR_NO_DEVICE);

    TU_ASSERT_OK(tu_context_create(NULL, 0, &ctx));
    assert_int_equal(clpad_context_is_fallback(ctx), 1);
    assert_string_equal(clpad_context_device_name(ctx), "CPU reference (no OpenCL)");
    assert_null(clpad_context_cl_context(ctx));

    const seed_case *s = &seed_cases[10]; /* mixed reflect */
    int32_t out[24];
    clpad_run_info info;
    clpad_run_info_init(&info);
    TU_ASSERT_OK(clpad_pad(ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin, s->pads_end,
                           CLPAD_PAD_OPTIONS(s->mode), NULL, out, sizeof out, &info));
    assert_int_equal(info.used_opencl, 0);
    assert_int_equal(info.size, sizeof info);
    assert_memory_equal(out, s->expect, sizeof out);

    /* A run info without its size (not filled by clpad_run_info_init) is
     * refused before anything runs, naming the argument. */
    clpad_run_info bare;
    memset(&bare, 0, sizeof bare);
    memset(out, 0x5a, sizeof out);
    TU_ASSERT_STATUS(clpad_pad(ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin,
                               s->pads_end, CLPAD_PAD_OPTIONS(s->mode), NULL, out, sizeof out,
                               &bare),
                     CLPAD_ERR_INVALID_ARGUMENT);
    clpad_error_info e = {.size = sizeof e};
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "info");
    assert_int_equal(bare.size, 0);
    assert_int_equal(out[0], 0x5a5a5a5a);
    int64_t s2b_shape[2] = {2, 2}, block[2] = {1, 1}, zero[2] = {0, 0};
    TU_ASSERT_STATUS(clpad_space_to_batch(ctx, CLPAD_I32, 2, s2b_shape, seed_input, block, zero,
                                          zero, out, sizeof out, &bare),
                     CLPAD_ERR_INVALID_ARGUMENT);
    /* numpy.pad's forms: the same check, and a run info keeps its size
     * (only the fields its size holds are written) */
    int64_t np_shape[1] = {3}, np_pb[1] = {1}, np_pe[1] = {2};
    TU_ASSERT_STATUS(clpad_pad_numpy(ctx, CLPAD_I32, 1, np_shape, seed_input, np_pb, np_pe,
                                     CLPAD_NUMPY_MAXIMUM, NULL, NULL, out, sizeof out, &bare),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "info"));
    TU_ASSERT_STATUS(clpad_pad_linear_ramp(ctx, CLPAD_I32, 1, np_shape, seed_input, np_pb, np_pe,
                                           NULL, NULL, 0, out, sizeof out, &bare),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "info"));
    clpad_run_info_init(&info);
    TU_ASSERT_OK(clpad_pad_numpy(ctx, CLPAD_I32, 1, np_shape, seed_input, np_pb, np_pe,
                                 CLPAD_NUMPY_MAXIMUM, NULL, NULL, out, sizeof out, &info));
    assert_int_equal(info.size, sizeof info);
    assert_int_equal(info.bytes_moved, 3 * 4 + 6 * 4);
    clpad_run_info_init(&info);
    TU_ASSERT_OK(clpad_pad_linear_ramp(ctx, CLPAD_I32, 1, np_shape, seed_input, np_pb, np_pe,
                                       NULL, NULL, 0, out, sizeof out, &info));
    assert_int_equal(info.size, sizeof info);
    /* The same for the devices' array: infos[0].size is every entry's. */
    clpad_device_info infos[2];
    memset(infos, 0, sizeof infos);
    TU_ASSERT_STATUS(clpad_devices(infos, 2, &n), CLPAD_ERR_INVALID_ARGUMENT);
    clpad_device_info_init(&infos[0]);
    TU_ASSERT_OK(clpad_devices(infos, 2, &n));
    assert_int_equal(n, 0);

    TU_ASSERT_STATUS(clpad_enqueue_pad(ctx, CLPAD_I32, 2, seed_shape, NULL, 0, s->pads_begin,
                                       s->pads_end, CLPAD_PAD_OPTIONS(s->mode), NULL, NULL, 0, NULL,
                                       0, NULL, NULL),
                     CLPAD_ERR_NO_DEVICE);
    assert_non_null(strstr(clpad_last_error(), "no OpenCL device"));
    TU_ASSERT_OK(clpad_context_warmup(ctx));
    clpad_context_destroy(ctx);
}

int main(void)
{
    /* Before the first OpenCL call: the loader reads this once. */
    if (!mkdtemp(g_dir))
        return 1;
    setenv("OCL_ICD_VENDORS", g_dir, 1);
    unsetenv("OPENCL_VENDOR_PATH");
    unsetenv("CLPAD_DEVICE");
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_no_platform)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(g_dir);
    return rc;
}
