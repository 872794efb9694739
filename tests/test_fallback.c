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
    TU_ASSERT_OK(clpad_pad(ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin, s->pads_end,
                           s->mode, NULL, out, sizeof out, &info));
    assert_int_equal(info.used_opencl, 0);
    assert_memory_equal(out, s->expect, sizeof out);

    TU_ASSERT_STATUS(clpad_enqueue_pad(ctx, CLPAD_I32, 2, seed_shape, NULL, 0, s->pads_begin,
                                       s->pads_end, s->mode, NULL, NULL, 0, NULL, 0, NULL, NULL),
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
