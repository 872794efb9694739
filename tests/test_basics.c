/* Status codes, OpenCL error names, version, dtype and mode names. No OpenCL device needed. */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

static void test_status_names(void **state)
{
    (void)state;
#define CHECK_STATUS(name, value, text)                             \
    assert_string_equal(clpad_status_name(name), #name);            \
    assert_string_equal(clpad_status_string(name), text);           \
    assert_int_equal((int)name, value);
    CLPAD_STATUS_LIST(CHECK_STATUS)
#undef CHECK_STATUS
    assert_string_equal(clpad_status_name((clpad_status)-999), "CLPAD_UNKNOWN_STATUS");
    assert_string_equal(clpad_status_string((clpad_status)-999), "unknown status");
}

static void test_cl_errors(void **state)
{
    (void)state;
    assert_string_equal(clpad_cl_error_name(CL_INVALID_WORK_GROUP_SIZE),
                        "CL_INVALID_WORK_GROUP_SIZE");
    assert_string_equal(clpad_cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    assert_string_equal(clpad_cl_error_name(-12345), "CL_UNKNOWN_ERROR");
    assert_int_equal(clpad_status_from_cl(CL_SUCCESS), CLPAD_OK);
    assert_int_equal(clpad_status_from_cl(CL_OUT_OF_RESOURCES), CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
    assert_int_equal(clpad_status_from_cl(CL_MEM_OBJECT_ALLOCATION_FAILURE),
                     CLPAD_ERR_DEVICE_OUT_OF_RESOURCES);
    assert_int_equal(clpad_status_from_cl(CL_OUT_OF_HOST_MEMORY), CLPAD_ERR_OUT_OF_MEMORY);
    assert_int_equal(clpad_status_from_cl(CL_BUILD_PROGRAM_FAILURE), CLPAD_ERR_BUILD_FAILED);
    assert_int_equal(clpad_status_from_cl(-1001), CLPAD_ERR_NO_DEVICE);
    assert_int_equal(clpad_status_from_cl(CL_INVALID_KERNEL_ARGS), CLPAD_ERR_OPENCL);
}

static void test_version(void **state)
{
    (void)state;
    assert_string_equal(clpad_version_string(), CLPAD_VERSION_STRING);
    assert_int_equal(clpad_version(), CLPAD_VERSION_NUMBER);
    char buf[32];
    snprintf(buf, sizeof buf, "%d.%d.%d", CLPAD_VERSION_MAJOR, CLPAD_VERSION_MINOR,
             CLPAD_VERSION_PATCH);
    assert_string_equal(buf, CLPAD_VERSION_STRING);
}

static void test_dtypes_and_modes(void **state)
{
    (void)state;
    static const size_t sizes[CLPAD_DTYPE_COUNT] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 2, 4, 8};
    for (int d = 0; d < CLPAD_DTYPE_COUNT; d++) {
        assert_int_equal(clpad_dtype_size((clpad_dtype)d), sizes[d]);
        clpad_dtype back;
        TU_ASSERT_OK(clpad_dtype_from_name(clpad_dtype_name((clpad_dtype)d), &back));
        assert_int_equal(back, d);
    }
    clpad_dtype dt;
    TU_ASSERT_OK(clpad_dtype_from_name("float32", &dt));
    assert_int_equal(dt, CLPAD_F32);
    TU_ASSERT_OK(clpad_dtype_from_name("bfloat16", &dt));
    assert_int_equal(dt, CLPAD_BF16);
    TU_ASSERT_STATUS(clpad_dtype_from_name("complex64", &dt), CLPAD_ERR_PARSE);
    assert_non_null(strstr(clpad_last_error(), "complex64"));
    assert_int_equal(clpad_dtype_size(CLPAD_DTYPE_COUNT), 0);
    assert_null(clpad_dtype_name(CLPAD_DTYPE_COUNT));
    static const char *modes[] = {"constant", "edge", "reflect", "symmetric", "wrap"};
    for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++) {
        assert_string_equal(clpad_pad_mode_name((clpad_pad_mode)m), modes[m]);
        clpad_pad_mode back;
        TU_ASSERT_OK(clpad_pad_mode_from_name(modes[m], &back));
        assert_int_equal(back, m);
    }
    clpad_pad_mode mode;
    TU_ASSERT_OK(clpad_pad_mode_from_name("REFLECT", &mode));
    assert_int_equal(mode, CLPAD_PAD_REFLECT);
    assert_null(clpad_pad_mode_name(CLPAD_PAD_MODE_COUNT));
}

/* f16/bf16 rounding: nearest even, subnormals, NaN sign. */
static void test_half_rounding(void **state)
{
    (void)state;
    static const struct {
        clpad_dtype dt;
        const char *text;
        uint16_t bits;
    } cases[] = {
        {CLPAD_F16, "1", 0x3C00},         {CLPAD_F16, "1.00048828125", 0x3C00}, /* tie to even */
        {CLPAD_F16, "1.0009765625", 0x3C01}, {CLPAD_F16, "1.00146484375", 0x3C02}, /* tie up */
        {CLPAD_F16, "5.960464477539063e-08", 0x0001}, /* smallest subnormal */
        {CLPAD_F16, "2.98e-08", 0x0000},  {CLPAD_F16, "6.103515625e-05", 0x0400},
        {CLPAD_F16, "65519", 0x7BFF},     {CLPAD_F16, "-nan", 0xFE00},
        {CLPAD_BF16, "3.140625", 0x4049}, {CLPAD_BF16, "-inf", 0xFF80},
        {CLPAD_BF16, "1.00390625", 0x3F80}, /* tie to even */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint16_t got = 0;
        TU_ASSERT_OK(clpad_scalar_parse(cases[i].dt, cases[i].text, &got));
        if (got != cases[i].bits)
            fail_msg("%s '%s' -> 0x%04x, want 0x%04x", clpad_dtype_name(cases[i].dt),
                     cases[i].text, got, cases[i].bits);
    }
}

/* The constants and struct layouts the bindings read by name. */
static void test_api_table(void **state)
{
    (void)state;
    int64_t v = 99;
    TU_ASSERT_OK(clpad_api_constant("CLPAD_F32", &v));
    assert_int_equal(v, CLPAD_F32);
    TU_ASSERT_OK(clpad_api_constant("CLPAD_ERR_TOO_LARGE", &v));
    assert_int_equal(v, CLPAD_ERR_TOO_LARGE);
    TU_ASSERT_OK(clpad_api_constant("CLPAD_CONFIG_DEFAULT", &v));
    assert_int_equal(v, CLPAD_CONFIG_DEFAULT);
    TU_ASSERT_OK(clpad_api_constant("CLPAD_MAX_RANK", &v));
    assert_int_equal(v, CLPAD_MAX_RANK);
    TU_ASSERT_STATUS(clpad_api_constant("CLPAD_F33", &v), CLPAD_ERR_PARSE);
    assert_non_null(strstr(clpad_last_error(), "CLPAD_F33"));
    TU_ASSERT_STATUS(clpad_api_constant(NULL, &v), CLPAD_ERR_INVALID_ARGUMENT);
    size_t off = 1, size = 1;
    TU_ASSERT_OK(clpad_api_layout("clpad_pad_options", "flags", &off, &size));
    assert_int_equal(off, offsetof(clpad_pad_options, flags));
    assert_int_equal(size, sizeof(unsigned));
    TU_ASSERT_OK(clpad_api_layout("clpad_context_config", NULL, &off, &size));
    assert_int_equal(off, 0);
    assert_int_equal(size, sizeof(clpad_context_config));
    TU_ASSERT_OK(clpad_api_layout("clpad_window_result", "pads_end", &off, &size));
    assert_int_equal(size, sizeof(int64_t) * CLPAD_MAX_RANK);
    TU_ASSERT_STATUS(clpad_api_layout("clpad_pad_options", "mode", &off, &size),
                     CLPAD_ERR_PARSE);
    TU_ASSERT_STATUS(clpad_api_layout("clpad_nothing", NULL, &off, &size), CLPAD_ERR_PARSE);
    TU_ASSERT_STATUS(clpad_api_layout("clpad_pad_options", NULL, NULL, &size),
                     CLPAD_ERR_INVALID_ARGUMENT);
}

/* The last error's structure: status, argument, item. */
static void test_error_info(void **state)
{
    (void)state;
    clpad_error_info e = {.size = sizeof e};
    int64_t shape[2] = {3, 4}, pb[2] = {0, 1}, pe[2] = {0, 4}, out[2];
    TU_ASSERT_STATUS(
        clpad_pad_output_shape(2, shape, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), out),
        CLPAD_ERR_INVALID_PADS);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_int_equal(e.status, CLPAD_ERR_INVALID_PADS);
    assert_string_equal(e.argument, "pads_end");
    assert_int_equal(e.index, 1);
    assert_string_equal(e.message, clpad_last_error());
    /* an item of a batch */
    clpad_image im[3] = {{.height = 4, .width = 4, .channels = 3},
                         {.height = 4, .width = 4, .channels = 3},
                         {.height = 0, .width = 4, .channels = 3}};
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 8, 8);
    int64_t os[4];
    TU_ASSERT_STATUS(clpad_letterbox_plan(im, 3, &o, os, NULL), CLPAD_ERR_INVALID_SHAPE);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "images");
    assert_int_equal(e.index, 2);
    /* an error of no one argument's item */
    TU_ASSERT_STATUS(clpad_dtype_from_name("f33", &(clpad_dtype){0}), CLPAD_ERR_PARSE);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_int_equal(e.status, CLPAD_ERR_PARSE);
    assert_string_equal(e.argument, "");
    assert_int_equal(e.index, -1);
    /* a call that succeeds clears it */
    TU_ASSERT_OK(
        clpad_pad_output_shape(2, shape, pb, pb, CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), out));
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_int_equal(e.status, CLPAD_OK);
    assert_string_equal(e.message, "");
    /* a first version's size is enough; less is refused */
    clpad_error_info small = {.size = sizeof(size_t)};
    TU_ASSERT_STATUS(clpad_last_error_info(&small), CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_STATUS(clpad_last_error_info(NULL), CLPAD_ERR_INVALID_ARGUMENT);
}

/* The operations the registry lists. */
static void test_operation_names(void **state)
{
    (void)state;
    const char *want[] = {"pad",       "space_to_batch", "batch_to_space",
                          "letterbox", "pad_stack",      "pad_numpy"};
    size_t n = 0;
    for (; clpad_operation_name(n); n++) {
        assert_true(n < sizeof want / sizeof *want);
        assert_string_equal(clpad_operation_name(n), want[n]);
    }
    assert_int_equal(n, sizeof want / sizeof *want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),     cmocka_unit_test(test_cl_errors),
        cmocka_unit_test(test_version),          cmocka_unit_test(test_dtypes_and_modes),
        cmocka_unit_test(test_half_rounding),    cmocka_unit_test(test_api_table),
        cmocka_unit_test(test_operation_names), cmocka_unit_test(test_error_info),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
