/* The `clpad` program: .npy and image round trips against the CPU reference,
 * exit codes, one-line errors, exact --value parsing, atomic output, and the
 * fallback with no OpenCL platform. Runs the built binary ($CLPAD_CLI). */
#include "test_util.h"
#include "pad_seed_cases.h"
#include "cli_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_seed_mixed_reflect_npy(void **state)
{
    (void)state;
    ch_save("seed.npy", CLPAD_I32, 2, seed_shape, seed_input);
    int rc = ch_run(NULL, "pad --mode reflect --pads-begin 2,-1 --pads-end -1,3 --verify seed.npy "
                       "out.npy");
    if (rc != 0)
        fail_msg("exit %d: %s", rc, ch_err);
    assert_non_null(strstr(ch_err, "device: "));
    assert_non_null(strstr(ch_err, "output: [4, 6] i32"));
    assert_non_null(strstr(ch_err, "GB/s"));
    if (strstr(ch_err, "CPU reference (no OpenCL)")) {
        assert_non_null(strstr(ch_err, "no OpenCL kernel ran (no OpenCL device)"));
    } else {
        /* --verify checks the device: a call this small on a CPU device would
         * take the small-call CPU path, but --verify runs the kernel */
        assert_non_null(strstr(ch_err, "clpad: kernel: "));
        assert_null(strstr(ch_err, "CPU path ("));
        assert_non_null(strstr(ch_err, "verify: the OpenCL kernel's result is identical"));
    }
    tio_tensor t = {0};
    ch_load("out.npy", &t);
    assert_int_equal(t.rank, 2);
    assert_int_equal(t.shape[0], 4);
    assert_int_equal(t.shape[1], 6);
    assert_memory_equal(t.data, seed_cases[10].expect, 24 * 4);
    tio_free(&t);
}

/* Every mode and several dtypes through the CLI equal the library's CPU path. */
static void test_npy_modes_dtypes(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xC11;
    static const clpad_dtype dts[] = {CLPAD_U8, CLPAD_I16, CLPAD_F16, CLPAD_F32, CLPAD_I64,
                                      CLPAD_F64, CLPAD_BOOL};
    int64_t shape[3] = {2, 5, 7};
    unsigned char in[2 * 5 * 7 * 8], want[8 * 11 * 13 * 8];
    for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
        for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++) {
            tu_fill(in, sizeof in, &rng);
            if (dts[d] == CLPAD_BOOL)
                for (size_t k = 0; k < sizeof in; k++)
                    in[k] &= 1;
            ch_save("in.npy", dts[d], 3, shape, in);
            int64_t pb[3] = {1, -1, 3}, pe[3] = {0, 4, 2}, os[3];
            int rc = ch_run(NULL, "pad -q --mode %s -b 1,-1,3 -e 0,4,2 in.npy out.npy",
                         clpad_pad_mode_name((clpad_pad_mode)m));
            if (rc != 0)
                fail_msg("%s %s: exit %d: %s", clpad_dtype_name(dts[d]),
                         clpad_pad_mode_name((clpad_pad_mode)m), rc, ch_err);
            assert_string_equal(ch_err, ""); /* --quiet */
            TU_ASSERT_OK(
                clpad_pad_output_shape(3, shape, pb, pe, CLPAD_PAD_OPTIONS((clpad_pad_mode)m), os));
            size_t n = (size_t)tu_elems(3, os) * clpad_dtype_size(dts[d]);
            TU_ASSERT_OK(clpad_pad_cpu(dts[d], 3, shape, in, pb, pe,
                                       CLPAD_PAD_OPTIONS((clpad_pad_mode)m), NULL, want, n));
            tio_tensor t = {0};
            ch_load("out.npy", &t);
            assert_int_equal(t.dtype, dts[d]);
            assert_int_equal(t.nbytes, n);
            assert_memory_equal(t.data, want, n);
            tio_free(&t);
        }
    }
}

/* The real photograph: 2 pad values pad H and W, channels stay; PNG and PPM out. */
static void test_image_round_trip(void **state)
{
    (void)state;
    const char *src = getenv("CLPAD_SOURCE_DIR");
    assert_non_null(src);
    char in_path[512];
    snprintf(in_path, sizeof in_path, "%s/data/astronaut.png", src);
    tio_tensor in = {0};
    char err[512];
    if (tio_load(in_path, &in, err, sizeof err))
        fail_msg("%s", err);
    int rc = ch_run(NULL, "pad --mode constant --value 114 --pads-begin 10,20 --pads-end 30,-40 "
                       "--verify '%s' out.png",
                 in_path);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, ch_err);
    assert_non_null(strstr(ch_err, "output: [552, 492, 3] u8"));
    int64_t pb[3] = {10, 20, 0}, pe[3] = {30, -40, 0};
    uint8_t v = 114;
    size_t n = 552 * 492 * 3;
    unsigned char *want = malloc(n);
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_U8, 3, in.shape, in.data, pb, pe,
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), &v, want, n));
    tio_tensor t = {0};
    ch_load("out.png", &t);
    assert_int_equal(t.nbytes, n);
    assert_memory_equal(t.data, want, n);
    tio_free(&t);
    rc = ch_run(NULL, "pad -q --mode edge -b 3,3 -e 3,3 '%s' out.ppm", in_path);
    assert_int_equal(rc, 0);
    ch_load("out.ppm", &t);
    assert_int_equal(t.shape[0], 518);
    assert_int_equal(t.shape[2], 3);
    tio_free(&t);
    free(want);
    tio_free(&in);
}

/* --value is parsed in the input's dtype exactly. */
static void test_exact_value(void **state)
{
    (void)state;
    int64_t shape[1] = {2}, data[2] = {1, 2};
    ch_save("i64.npy", CLPAD_I64, 1, shape, data);
    assert_int_equal(ch_run(NULL, "pad -q --value 9007199254740993 -b 1 -e 1 i64.npy o.npy"), 0);
    tio_tensor t = {0};
    ch_load("o.npy", &t);
    int64_t got[4];
    memcpy(got, t.data, sizeof got);
    assert_true(got[0] == 9007199254740993LL && got[3] == 9007199254740993LL);
    assert_true(got[1] == 1 && got[2] == 2);
    tio_free(&t);
    uint16_t h[2] = {0x3C00, 0x4000};
    ch_save("f16.npy", CLPAD_F16, 1, shape, h);
    assert_int_equal(ch_run(NULL, "pad -q --value -0.0 -b 1 -e 0 f16.npy o.npy"), 0);
    ch_load("o.npy", &t);
    uint16_t g16[3];
    memcpy(g16, t.data, sizeof g16);
    assert_int_equal(g16[0], 0x8000);
    tio_free(&t);
    assert_int_equal(ch_run(NULL, "pad -q --value nan -b 0 -e 1 f16.npy o.npy"), 0);
    ch_load("o.npy", &t);
    memcpy(g16, t.data, sizeof g16);
    assert_int_equal(g16[2], 0x7E00);
    tio_free(&t);
    ch_expect_error(ch_run(NULL, "pad --value 300 -b 1 -e 1 in8.npy o.npy"), 1, "in8.npy");
    uint8_t u[2] = {1, 2};
    ch_save("u8.npy", CLPAD_U8, 1, shape, u);
    /* out of range for this input's dtype: the input decides (1); not a
     * value of any dtype: the command line alone is wrong (2) */
    ch_expect_error(ch_run(NULL, "pad --value 256 -b 1 -e 1 u8.npy o.npy"), 1, "out of range for u8");
    ch_expect_error(ch_run(NULL, "pad --value 25x -b 1 -e 1 u8.npy o.npy"), 2, "not a value of any dtype");
}

/* numpy.pad's statistics (--mode mean ... --stat-length): the values of
 * numpy.pad(x, ((1, 2), (2, 1)), mode, stat_length=2) for x = [[1, 2, 4],
 * [7, 8, 13]] as numpy 2.4 printed them (integer means 1.5 -> 2, 8.5 -> 8,
 * 10.5 -> 10: half to even), and the refusals. */
static void test_numpy_statistics(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3};
    int32_t x[6] = {1, 2, 4, 7, 8, 13};
    ch_save("st.npy", CLPAD_I32, 2, shape, x);
    static const struct {
        const char *mode;
        int32_t want[5 * 6];
    } cases[] = {
        {"mean", {4, 4, 4, 5, 8, 6, 2, 2, 1, 2, 4, 3, 8, 8, 7, 8, 13, 10,
                  4, 4, 4, 5, 8, 6, 4, 4, 4, 5, 8, 6}},
        {"maximum", {8, 8, 7, 8, 13, 13, 2, 2, 1, 2, 4, 4, 8, 8, 7, 8, 13, 13,
                     8, 8, 7, 8, 13, 13, 8, 8, 7, 8, 13, 13}},
    };
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(ch_run(NULL, "pad -q --mode %s --stat-length 2 -b 1,2 -e 2,1 st.npy o.npy",
                                cases[k].mode), 0);
        tio_tensor t = {0};
        ch_load("o.npy", &t);
        assert_int_equal(t.rank, 2);
        assert_true(t.shape[0] == 5 && t.shape[1] == 6);
        if (memcmp(t.data, cases[k].want, sizeof cases[k].want))
            fail_msg("--mode %s: not numpy.pad's values", cases[k].mode);
        tio_free(&t);
    }
    ch_expect_error(ch_run(NULL, "pad --mode mean --stat-length 0 -b 1,1 -e 1,1 st.npy o.npy"), 1,
                    "stat_begin[0] = 0");
    ch_expect_error(ch_run(NULL, "pad --mode median -b 1,-1 -e 1,1 st.npy o.npy"), 1,
                    "pads_begin[1] = -1");
    ch_expect_error(ch_run(NULL, "pad --mode mean --axes 0 -b 1 -e 1 st.npy o.npy"), 2,
                    "--axes");
    ch_expect_error(ch_run(NULL, "pad --mode edge --stat-length 2 -b 1,1 -e 1,1 st.npy o.npy"),
                    2, "--stat-length applies");
}

/* numpy.pad's reflect_type="odd" (--reflect-type odd): the values of
 * numpy.pad(x, ((1, 2), (4, 1)), mode, reflect_type="odd") for the x above,
 * as numpy 2.4 printed them (pads past the axis: numpy's chunk loop), and
 * the refusals. */
static void test_numpy_odd_reflection(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3};
    int32_t x[6] = {1, 2, 4, 7, 8, 13};
    ch_save("odd.npy", CLPAD_I32, 2, shape, x);
    static const struct {
        const char *mode;
        int32_t want[5 * 8];
    } cases[] = {
        {"reflect", {-5, -4, -5, -6, -5, -4, -5, -6, -5, -4, -2, 0, 1, 2, 4, 6, -5, -4, 1, 6,
                     7, 8, 13, 18, -5, -4, 4, 12, 13, 14, 22, 30, -5, -4, 7, 18, 19, 20, 31, 42}},
        {"np:symmetric", {-2, -2, 0, 1, 1, 2, 4, 4, -2, -2, 0, 1, 1, 2, 4, 4, 1, 1, 6, 7,
                          7, 8, 13, 13, 1, 1, 6, 7, 7, 8, 13, 13, 4, 4, 12, 13, 13, 14, 22, 22}},
    };
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(ch_run(NULL, "pad -q --mode %s --reflect-type odd -b 1,4 -e 2,1 odd.npy "
                                      "o.npy", cases[k].mode), 0);
        tio_tensor t = {0};
        ch_load("o.npy", &t);
        assert_true(t.rank == 2 && t.shape[0] == 5 && t.shape[1] == 8);
        if (memcmp(t.data, cases[k].want, sizeof cases[k].want))
            fail_msg("--mode %s --reflect-type odd: not numpy.pad's values", cases[k].mode);
        tio_free(&t);
    }
    ch_expect_error(ch_run(NULL, "pad --mode edge --reflect-type odd -b 1,1 -e 1,1 odd.npy o.npy"),
                    2, "--reflect-type odd applies");
    ch_expect_error(ch_run(NULL, "pad --mode reflect --reflect-type weird -b 1,1 -e 1,1 odd.npy "
                                 "o.npy"), 2, "expected even or odd");
    ch_expect_error(ch_run(NULL, "pad --mode reflect --reflect-type odd -b 1,-1 -e 1,1 odd.npy "
                                 "o.npy"), 1, "pads_begin[1] = -1");
}

/* numpy.pad's linear_ramp (--mode linear-ramp --end-values): the values of
 * numpy.pad(x, ((1, 2), (3, 1)), "linear_ramp", end_values=((5, -2), (9,
 * 100))) for the x above, as numpy 2.4 printed them, and the refusals. */
static void test_numpy_linear_ramp(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3};
    int32_t x[6] = {1, 2, 4, 7, 8, 13};
    ch_save("ramp.npy", CLPAD_I32, 2, shape, x);
    static const int32_t want[5 * 7] = {9, 7, 6, 5, 5,  5,  100, 9, 6, 3,  1,  2,
                                        4, 100, 9, 8, 7, 7, 8, 13, 100, 9, 6, 4,
                                        2, 3, 5, 100, 9, 5, 1, -2, -2, -2, 100};
    assert_int_equal(ch_run(NULL, "pad -q --mode linear-ramp --end-values 5,-2,9,100 -b 1,3 "
                                  "-e 2,1 ramp.npy o.npy"), 0);
    tio_tensor t = {0};
    ch_load("o.npy", &t);
    assert_true(t.rank == 2 && t.shape[0] == 5 && t.shape[1] == 7);
    if (memcmp(t.data, want, sizeof want))
        fail_msg("--mode linear-ramp: not numpy.pad's values");
    tio_free(&t);
    ch_expect_error(ch_run(NULL, "pad --mode edge --end-values 1 -b 1,1 -e 1,1 ramp.npy o.npy"),
                    2, "--end-values applies");
    ch_expect_error(ch_run(NULL, "pad --mode linear-ramp --end-values 1,x -b 1,1 -e 1,1 "
                                 "ramp.npy o.npy"), 2, "not a list of numbers");
    ch_expect_error(ch_run(NULL, "pad --mode linear-ramp --end-values 1,2,3 -b 1,1 -e 1,1 "
                                 "ramp.npy o.npy"), 1, "--end-values has 3 values");
}

/* --value per axis and side (numpy.pad's constant_values ((0, 255), (7, 7))
 * for the x above, as numpy 2.4 printed them: the corners take the last
 * axis' value), and the refusals. */
static void test_per_side_values(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3};
    int32_t x[6] = {1, 2, 4, 7, 8, 13};
    ch_save("ps.npy", CLPAD_I32, 2, shape, x);
    static const int32_t want[5 * 7] = {7, 7, 7, 0,   0,   0,   7, 7, 7, 7, 1, 2,
                                        4, 7, 7, 7, 7, 7,   8,   13,  7, 7, 7, 7,
                                        255, 255, 255, 7, 7, 7, 7, 255, 255, 255, 7};
    assert_int_equal(ch_run(NULL, "pad -q --value 0:255,7 -b 1,3 -e 2,1 ps.npy o.npy"), 0);
    tio_tensor t = {0};
    ch_load("o.npy", &t);
    assert_true(t.rank == 2 && t.shape[0] == 5 && t.shape[1] == 7);
    if (memcmp(t.data, want, sizeof want))
        fail_msg("--value 0:255,7: not numpy.pad's values");
    tio_free(&t);
    ch_expect_error(ch_run(NULL, "pad --value 0:255 -b 1,3 -e 2,1 ps.npy o.npy"), 1,
                    "one entry (V or BEFORE:AFTER) per axis");
    ch_expect_error(ch_run(NULL, "pad --value 0:x,7 -b 1,3 -e 2,1 ps.npy o.npy"), 2,
                    "not a value of any dtype");
    ch_expect_error(ch_run(NULL, "pad --value 0:255,,7 -b 1,3 -e 2,1 ps.npy o.npy"), 2,
                    "an empty value");
}

static void test_usage_errors(void **state)
{
    (void)state;
    ch_save("seed.npy", CLPAD_I32, 2, seed_shape, seed_input);
    assert_int_equal(ch_run(NULL, "%s", ""), 2);
    ch_expect_error(ch_run(NULL, "frobnicate"), 2, "unknown command 'frobnicate'");
    ch_expect_error(ch_run(NULL, "pad --bogus seed.npy o.npy"), 2, "--bogus");
    ch_expect_error(ch_run(NULL, "pad seed.npy o.npy"), 2, "--pads-begin");
    ch_expect_error(ch_run(NULL, "pad -b 1,,2 -e 1,1 seed.npy o.npy"), 2, "--pads-begin");
    ch_expect_error(ch_run(NULL, "pad -b 1,99999999999999999999 -e 1,1 seed.npy o.npy"), 2,
                 "overflows");
    ch_expect_error(ch_run(NULL, "pad -b 1,1 -e 1 seed.npy o.npy"), 2, "--pads-end has 1");
    ch_expect_error(ch_run(NULL, "pad -b '' -e '' seed.npy o.npy"), 1, "have 0 values"); /* rank 2 */
    /* a rank-0 tensor takes empty pad lists */
    double scalar = 2.5;
    ch_save("scalar.npy", CLPAD_F64, 0, NULL, &scalar);
    assert_int_equal(ch_run(NULL, "pad -q -m reflect -b '' -e '' scalar.npy s_out.npy"), 0);
    tio_tensor t0 = {0};
    ch_load("s_out.npy", &t0);
    assert_int_equal(t0.rank, 0);
    assert_true(*(double *)t0.data == 2.5);
    tio_free(&t0);
    ch_expect_error(ch_run(NULL, "pad -b 1,1,1 -e 1,1,1 seed.npy o.npy"), 1, "rank 2"); /* the input's */
    ch_expect_error(ch_run(NULL, "pad -m mirror -b 1,1 -e 1,1 seed.npy o.npy"), 2, "mirror");
    ch_expect_error(ch_run(NULL, "pad -m edge --value 3 -b 1,1 -e 1,1 seed.npy o.npy"), 2, "--value");
    ch_expect_error(ch_run(NULL, "pad --cpu -d 0:0 -b 1,1 -e 1,1 seed.npy o.npy"), 2, "--cpu");
    ch_expect_error(ch_run(NULL, "pad -b 1,1 -e 1,1 seed.npy"), 2, "INPUT and OUTPUT");
    ch_expect_error(ch_run(NULL, "pad -b 1,1 -e 1,1 seed.npy o.xyz"), 2, "o.xyz");
    ch_expect_error(ch_run(NULL, "pad -b 1,1 -e 1,1 -m"), 2, "needs a value");
    /* Failures (exit 1): pads over the limit, missing file, unknown device. */
    ch_expect_error(ch_run(NULL, "pad -m reflect -b 0,4 -e 0,0 seed.npy o.npy"), 1, "pads_begin[1] = 4");
    ch_expect_error(ch_run(NULL, "pad -b 1,1 -e 1,1 missing.npy o.npy"), 1, "missing.npy");
    ch_expect_error(ch_run(NULL, "pad -d no-such-device -b 1,1 -e 1,1 seed.npy o.npy"), 1,
                 "no-such-device");
    assert_int_equal(ch_run(NULL, "--help"), 0);
    assert_non_null(strstr(ch_out, "usage: clpad"));
    assert_int_equal(ch_run(NULL, "pad --help"), 0);
    assert_non_null(strstr(ch_out, "--pads-begin"));
    assert_int_equal(ch_run(NULL, "--version"), 0);
    assert_non_null(strstr(ch_out, CLPAD_VERSION_STRING));
    assert_int_equal(ch_run(NULL, "devices"), 0);
    assert_non_null(strstr(ch_out, "default: "));
    /* bench: bad arguments are refused before any case runs */
    ch_expect_error(ch_run(NULL, "bench --runs 0"), 2, "--runs");
    ch_expect_error(ch_run(NULL, "bench --filter '('"), 2, "--filter");
    ch_expect_error(ch_run("PATH=/nonexistent", "bench --plot p.png"), 2, "gnuplot");
}

/* A failed ch_run never leaves a partial file and never clobbers an existing one. */
static void test_output_untouched_on_error(void **state)
{
    (void)state;
    ch_save("seed.npy", CLPAD_I32, 2, seed_shape, seed_input);
    char path[512];
    snprintf(path, sizeof path, "%s/keep.npy", ch_dir);
    FILE *f = fopen(path, "w");
    fputs("precious", f);
    fclose(f);
    int rcs[] = {ch_run(NULL, "pad -m reflect -b 0,9 -e 0,0 seed.npy keep.npy"),
                 ch_run(NULL, "pad -b 1,1 -e 1,1 missing.npy keep.npy"),
                 ch_run(NULL, "pad -b 1,1 -e 1 seed.npy keep.npy")};
    for (int i = 0; i < 3; i++)
        assert_true(rcs[i] != 0);
    /* an i32 tensor cannot be a PNG: refused before anything is written */
    snprintf(path, sizeof path, "%s/keep.png", ch_dir);
    f = fopen(path, "w");
    fputs("precious", f);
    fclose(f);
    ch_expect_error(ch_run(NULL, "pad -b 1,1 -e 1,1 seed.npy keep.png"), 1, "PNG");
    char buf[64];
    ch_slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "precious");
    snprintf(path, sizeof path, "%s/keep.npy", ch_dir);
    ch_slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "precious");
    /* no temporary files left behind */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -c '^\\.' > %s/count.txt", ch_dir, ch_dir);
    assert_int_not_equal(system(cmd), -1);
    snprintf(path, sizeof path, "%s/count.txt", ch_dir);
    ch_slurp(path, buf, sizeof buf);
    assert_string_equal(buf, "0\n");
}

/* No OpenCL platform: the CLI falls back to the CPU path and says so. */
static void test_no_device_fallback(void **state)
{
    (void)state;
    ch_save("seed.npy", CLPAD_I32, 2, seed_shape, seed_input);
    char env[600];
    snprintf(env, sizeof env, "OCL_ICD_VENDORS=%s/empty-vendors", ch_dir);
    char p[512];
    snprintf(p, sizeof p, "%s/empty-vendors", ch_dir);
    mkdir(p, 0700);
    int rc = ch_run(env, "pad --mode symmetric -b 2,-1 -e -1,3 --verify seed.npy fb.npy");
    if (rc != 0)
        fail_msg("exit %d: %s", rc, ch_err);
    assert_non_null(strstr(ch_err, "using the CPU path"));
    assert_non_null(strstr(ch_err, "no OpenCL kernel ran (no OpenCL device)"));
    tio_tensor t = {0};
    ch_load("fb.npy", &t);
    assert_memory_equal(t.data, seed_cases[11].expect, 24 * 4);
    tio_free(&t);
    assert_int_equal(ch_run(env, "devices"), 0);
    assert_non_null(strstr(ch_out, "no OpenCL device"));
}

/* `clpad shape`: the seed examples, --json exactly, errors. */
static void test_shape(void **state)
{
    (void)state;
    assert_int_equal(ch_run(NULL, "shape conv --input 7,8 --kernel 4 --stride 3 --tf SAME --json"), 0);
    assert_string_equal(ch_out, "{\"output\":[3,3],\"pads_begin\":[1,1],\"pads_end\":[2,1]}\n");
    assert_int_equal(ch_run(NULL, "shape conv --input 7,8 --kernel 4 --stride 3 --onnx SAME_UPPER --json"), 0);
    assert_string_equal(ch_out, "{\"output\":[3,3],\"pads_begin\":[1,1],\"pads_end\":[2,1]}\n");
    static const struct {
        const char *args, *json;
    } pool[] = {
        {"--trt explicit-round-down --window-pads-begin 3,3 --window-pads-end 2,2",
         "{\"output\":[5,5],\"pads_begin\":[3,3],\"pads_end\":[2,2]}\n"},
        {"--trt explicit-round-up --window-pads-begin 3,3 --window-pads-end 2,2",
         "{\"output\":[5,5],\"pads_begin\":[3,3],\"pads_end\":[2,2]}\n"},
        {"--trt explicit-round-down --window-pads-begin 3,3 --window-pads-end 3,3",
         "{\"output\":[5,5],\"pads_begin\":[3,3],\"pads_end\":[3,3]}\n"},
        {"--trt explicit-round-up --window-pads-begin 3,3 --window-pads-end 3,3",
         "{\"output\":[6,6],\"pads_begin\":[3,3],\"pads_end\":[3,3]}\n"},
        {"--trt same-upper", "{\"output\":[3,3],\"pads_begin\":[0,0],\"pads_end\":[1,1]}\n"},
        {"--trt same-lower", "{\"output\":[3,3],\"pads_begin\":[1,1],\"pads_end\":[0,0]}\n"},
    };
    for (size_t i = 0; i < sizeof pool / sizeof *pool; i++) {
        int rc = ch_run(NULL, "shape pool --input 6,6 --kernel 3 --stride 2 %s --json", pool[i].args);
        if (rc != 0 || strcmp(ch_out, pool[i].json))
            fail_msg("pool %s: exit %d, stdout %s, stderr %s", pool[i].args, rc, ch_out, ch_err);
    }
    assert_int_equal(ch_run(NULL, "shape conv --input 7,8 --kernel 4 --stride 3 --tf SAME"), 0);
    assert_non_null(strstr(ch_out, "pads_begin: [1, 1]"));
    ch_expect_error(ch_run(NULL, "shape conv --input 7,8 --stride 3 --tf SAME"), 2, "--kernel");
    ch_expect_error(ch_run(NULL, "shape conv --input 7,8 --kernel 4 --stride 0 --tf SAME"), 1, "stride");
    ch_expect_error(ch_run(NULL, "shape blur --input 7 --kernel 4 --stride 3 --tf SAME"), 2, "blur");
    /* The convention's rules are the library's: its message, exit status 1. */
    ch_expect_error(ch_run(NULL, "shape conv --input 9 --kernel 3 --onnx NOTSET --ceil-mode"), 1,
                 "clpad_window_onnx: ceil_mode applies to pooling only");
    ch_expect_error(ch_run(NULL, "shape conv --input 9 --kernel 3 --onnx SAME_UPPER --onnx-pads 1,1"),
                 1, "clpad_window_onnx: pads must be NULL unless auto_pad is NOTSET");
    ch_expect_error(ch_run(NULL, "shape pool --input 9 --kernel 3 --tf EXPLICIT --window-pads-begin 1"),
                 1, "clpad_window_tf: padding EXPLICIT needs pads_begin and pads_end");
    /* An option the convention has no parameter for: a usage error (2). */
    ch_expect_error(ch_run(NULL, "shape pool --input 9 --kernel 3 --tf SAME --ceil-mode"), 2,
                 "--ceil-mode does not apply to --tf");
    /* Pads the convention ignores (TensorRT SAME, OpenVINO valid): refused,
     * as the library shows them to make no difference. */
    ch_expect_error(ch_run(NULL, "shape conv --input 9 --kernel 3 --stride 2 --trt same-upper "
                           "--window-pads-begin 5 --window-pads-end 5"),
                 2, "ignores explicit window pads");
    ch_expect_error(ch_run(NULL, "shape conv --input 9 --kernel 3 --openvino valid "
                           "--window-pads-begin 1 --window-pads-end 0"),
                 2, "ignores explicit window pads");
    assert_int_equal(ch_run(NULL, "shape conv --input 9 --kernel 3 --openvino explicit "
                               "--window-pads-begin 1 --window-pads-end 0 --json"),
                     0);
    assert_string_equal(ch_out, "{\"output\":[8],\"pads_begin\":[1],\"pads_end\":[0]}\n");
    /* OpenVINO's explicit deconv given its output shape keeps pads_begin and
     * ignores pads_end: with pads_begin 0 the pads still count (the peer
     * harness drew this case; OpenVINO gives output 9). */
    assert_int_equal(ch_run(NULL, "shape deconv --input 5 --kernel 2 --openvino explicit "
                               "--window-pads-begin 0 --window-pads-end 2 --output-shape 9 "
                               "--json"),
                     0);
    assert_string_equal(ch_out, "{\"output\":[9],\"pads_begin\":[0],\"pads_end\":[0]}\n");
}

/* One spelling per idea across subcommands: the spellings of the
 * unreleased 0.1 (shape --mode/--pads-begin/--pads-end/--pads, pad -v) are
 * gone, and naming one is a usage error that names it. */
static void test_old_spellings_refused(void **state)
{
    (void)state;
    static const char *const pairs[][3] = {
        {"--mode explicit-round-up --window-pads-begin 3,3 --window-pads-end 3,3",
         "--trt explicit-round-up --window-pads-begin 3,3 --window-pads-end 3,3", "--mode"},
        {"--trt explicit-round-up --pads-begin 3,3 --window-pads-end 3,3",
         "--trt explicit-round-up --window-pads-begin 3,3 --window-pads-end 3,3", "--pads-begin"},
        {"--trt explicit-round-up --window-pads-begin 3,3 --pads-end 3,3",
         "--trt explicit-round-up --window-pads-begin 3,3 --window-pads-end 3,3", "--pads-end"},
        {"--onnx NOTSET --pads 3,3,3,3", "--onnx NOTSET --onnx-pads 3,3,3,3", "--pads"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        assert_int_equal(ch_run(NULL, "shape pool --input 6,6 --kernel 3 --stride 2 %s --json",
                             pairs[i][1]),
                         0);
        assert_string_equal(ch_err, "");
        assert_int_equal(ch_run(NULL, "shape pool --input 6,6 --kernel 3 --stride 2 %s --json",
                             pairs[i][0]),
                         2);
        assert_non_null(strstr(ch_err, pairs[i][2]));
        assert_string_equal(ch_out, "");
    }
    int64_t shape[1] = {2};
    uint8_t u[2] = {1, 2};
    ch_save("u8d.npy", CLPAD_U8, 1, shape, u);
    assert_int_equal(ch_run(NULL, "pad --value 7 -b 1 -e 0 u8d.npy d.npy"), 0);
    tio_tensor t = {0};
    ch_load("d.npy", &t);
    assert_memory_equal(t.data, "\x07\x01\x02", 3);
    tio_free(&t);
    assert_int_equal(ch_run(NULL, "pad -v 7 -b 1 -e 0 u8d.npy d2.npy"), 2);
    assert_non_null(strstr(ch_err, "-v"));
    /* the help names only the current spellings */
    assert_int_equal(ch_run(NULL, "shape --help"), 0);
    assert_non_null(strstr(ch_out, "--trt MODE"));
    assert_non_null(strstr(ch_out, "--window-pads-begin"));
    assert_null(strstr(ch_out, "Deprecated"));
    assert_int_equal(ch_run(NULL, "pad --help"), 0);
    assert_null(strstr(ch_out, "Deprecated"));
    assert_non_null(strstr(ch_out, "--value V"));
}

/* `clpad shape` for the deconvolution forms of Keras (--tf with
 * --output-padding), ONNX and OpenVINO with an output_shape beyond the full
 * output. */
static void test_shape_deconv_forms(void **state)
{
    (void)state;
    /* Keras conv_transpose_test: input 8, kernel 2, strides 3, "same",
     * output_padding 2 -> 23 */
    assert_int_equal(ch_run(NULL, "shape deconv --input 8 --kernel 2 --stride 3 --tf SAME "
                               "--output-padding 2 --json"), 0);
    assert_string_equal(ch_out, "{\"output\":[23],\"pads_begin\":[0],\"pads_end\":[0]}\n");
    assert_int_equal(ch_run(NULL, "shape deconv --input 3 --kernel 3 --stride 2 --tf SAME "
                               "--output-padding 1"), 0);
    assert_non_null(strstr(ch_out, "keras"));
    /* ONNX's test_convtranspose_output_shape: a zero row and column at the end */
    assert_int_equal(ch_run(NULL, "shape deconv --input 3,3 --kernel 3 --stride 3,2 --onnx NOTSET "
                               "--output-shape 10,8 --json"), 0);
    assert_string_equal(ch_out,
                        "{\"output\":[10,8],\"pads_begin\":[0,0],\"pads_end\":[-1,-1]}\n");
    /* OpenVINO clamps the total at 0: the extra element at the end, pads 0 (as
     * OpenVINO reports them) */
    assert_int_equal(ch_run(NULL, "shape deconv --input 1,37 --kernel 1 --stride 1,2 --openvino "
                               "same_upper --output-shape 1,74 --json"), 0);
    assert_string_equal(ch_out,
                        "{\"output\":[1,74],\"pads_begin\":[0,0],\"pads_end\":[0,0]}\n");
    ch_expect_error(ch_run(NULL, "shape deconv --input 3 --kernel 3 --stride 2 --tf EXPLICIT "
                           "--window-pads-begin 0 --window-pads-end 0 --output-padding 1"), 2,
                 "--output-padding");
    ch_expect_error(ch_run(NULL, "shape deconv --input 3 --kernel 3 --stride 2 --tf SAME "
                           "--output-padding 1 --output-shape 6"), 2, "--output-shape");
    ch_expect_error(ch_run(NULL, "shape deconv --input 3 --kernel 3 --stride 2 --tf SAME "
                           "--output-padding 2"), 1, "output_padding[0] = 2");
}

/* `clpad pad`'s forms: per-axis modes, framework names, large pads, --axes,
 * --to-multiple; each against the library's CPU path with the same pads,
 * and the bad combinations as usage errors naming the option. */
static void test_pad_forms_cli(void **state)
{
    (void)state;
    ch_save("seed.npy", CLPAD_I32, 2, seed_shape, seed_input);
    static const struct {
        const char *args;
        clpad_pad_mode m0, m1;
        unsigned flags;
        int64_t pb[2], pe[2];
    } cases[] = {
        {"-m edge,wrap -b 1,2 -e 1,5", CLPAD_PAD_EDGE, CLPAD_PAD_WRAP, 0, {1, 2}, {1, 5}},
        {"-m reflect --large-pads numpy -b 0,9 -e 4,7", CLPAD_PAD_REFLECT, CLPAD_PAD_REFLECT,
         CLPAD_PAD_LARGE_NUMPY, {0, 9}, {4, 7}},
        {"-m np:symmetric -b 9,0 -e 0,9", CLPAD_PAD_SYMMETRIC, CLPAD_PAD_SYMMETRIC,
         CLPAD_PAD_LARGE_NUMPY, {9, 0}, {0, 9}},
        {"-m cv:REFLECT_101,tf:SYMMETRIC -b 2,-1 -e -1,3", CLPAD_PAD_REFLECT,
         CLPAD_PAD_SYMMETRIC, CLPAD_PAD_LARGE_NUMPY, {2, -1}, {-1, 3}},
        {"--axes -1 -m torch:circular -b 2 -e 3", CLPAD_PAD_WRAP, CLPAD_PAD_WRAP, 0, {0, 2},
         {0, 3}},
        {"--axes 1,0 -m wrap,edge -b 2,1 -e 0,1", CLPAD_PAD_EDGE, CLPAD_PAD_WRAP, 0, {1, 2},
         {1, 0}},
        /* 3x4 -> 4x8, centred: axis 0 +1 (after), axis 1 +4 (2 and 2) */
        {"--to-multiple 4,8 --placement center", CLPAD_PAD_CONSTANT, CLPAD_PAD_CONSTANT, 0,
         {0, 2}, {1, 2}},
        /* explicit pads and the multiple add up: 4 + 1 = 5 -> 8 */
        {"--axes 1 -b 1 -e 0 --to-multiple 8 -m edge", CLPAD_PAD_EDGE, CLPAD_PAD_EDGE, 0, {0, 1},
         {0, 3}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc = ch_run(NULL, "pad -q --cpu %s seed.npy forms.npy", cases[i].args);
        if (rc != 0)
            fail_msg("%s: exit %d: %s", cases[i].args, rc, ch_err);
        clpad_pad_options o;
        clpad_pad_options_init(&o, cases[i].m0);
        o.modes[1] = cases[i].m1;
        o.flags = cases[i].flags;
        int64_t os[2];
        TU_ASSERT_OK(clpad_pad_output_shape(2, seed_shape, cases[i].pb, cases[i].pe, &o, os));
        size_t n = (size_t)(os[0] * os[1]);
        int32_t *want = malloc(n * sizeof *want);
        TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 2, seed_shape, seed_input, cases[i].pb, cases[i].pe,
                                   &o, NULL, want, n * sizeof *want));
        tio_tensor t = {0};
        ch_load("forms.npy", &t);
        if (t.shape[0] != os[0] || t.shape[1] != os[1] || memcmp(t.data, want, n * 4))
            fail_msg("%s: the output differs from clpad_pad_cpu's", cases[i].args);
        tio_free(&t);
        free(want);
    }
    /* counts that the input's rank contradicts depend on the input: exit 1 */
    ch_expect_error(ch_run(NULL, "pad -m edge,wrap,edge -b 1,1 -e 1,1 seed.npy o.npy"), 1,
                 "--mode: 3 modes for 2 padded axes");
    ch_expect_error(ch_run(NULL, "pad -m edge,,wrap -b 1,1 -e 1,1 seed.npy o.npy"), 2, "--mode");
    ch_expect_error(ch_run(NULL, "pad -m torch:symmetric -b 1,1 -e 1,1 seed.npy o.npy"), 2,
                 "torch has constant, replicate, reflect, circular");
    ch_expect_error(ch_run(NULL, "pad --axes 0,-2 -b 1,1 -e 1,1 seed.npy o.npy"), 1,
                 "axes[1] = -2 repeats axis 0");
    ch_expect_error(ch_run(NULL, "pad --axes 2 -b 1 -e 1 seed.npy o.npy"), 1, "out of range");
    ch_expect_error(ch_run(NULL, "pad --axes 1 -b 1,1 -e 1,1 seed.npy o.npy"), 2, "--axes with 1");
    ch_expect_error(ch_run(NULL, "pad --to-multiple 0 seed.npy o.npy"), 2, "--to-multiple");
    ch_expect_error(ch_run(NULL, "pad --to-multiple 2,2,2 seed.npy o.npy"), 1,
                 "--to-multiple: 3 values for 2 padded axes");
    ch_expect_error(ch_run(NULL, "pad --axes 0 -b 1 -e 1 -m edge,wrap seed.npy o.npy"), 2,
                 "--mode: 2 modes for 1 padded axes");
    ch_expect_error(ch_run(NULL, "pad --placement center -b 1,1 -e 1,1 seed.npy o.npy"), 2,
                 "--placement");
    ch_expect_error(ch_run(NULL, "pad --large-pads maybe -b 1,1 -e 1,1 seed.npy o.npy"), 2,
                 "--large-pads: large pads 'maybe': expected numpy");
    /* one rule with Python's large_pads=: case-insensitive */
    assert_int_equal(ch_run(NULL, "pad -q -m reflect --large-pads NUMPY -b 0,4 -e 0,0 seed.npy "
                               "o.npy"),
                     0);
    /* the default keeps Pad-12's limits; --large-pads error overrides np: */
    ch_expect_error(ch_run(NULL, "pad -m reflect -b 0,4 -e 0,0 seed.npy o.npy"), 1,
                 "pads_begin[1] = 4 exceeds the reflect limit");
    ch_expect_error(ch_run(NULL, "pad -m np:reflect --large-pads error -b 0,4 -e 0,0 seed.npy o.npy"),
                 1, "exceeds the reflect limit");
    ch_expect_error(ch_run(NULL, "pad -m edge,wrap --value 3 -b 1,1 -e 1,1 seed.npy o.npy"), 2,
                 "--value");
    assert_int_equal(ch_run(NULL, "pad -q -m constant,wrap --value 3 -b 1,1 -e 1,1 seed.npy o.npy"),
                     0);
}

/* `clpad pad --same-as`: TF SAME conv pads on NCHW, zeros. */
static void test_pad_same_as(void **state)
{
    (void)state;
    int64_t shape[4] = {1, 2, 7, 8};
    float x[112];
    for (int i = 0; i < 112; i++)
        x[i] = (float)i + 1;
    ch_save("nchw.npy", CLPAD_F32, 4, shape, x);
    int rc = ch_run(NULL, "pad --same-as conv --kernel 4 --stride 3 --tf SAME nchw.npy same.npy");
    if (rc != 0)
        fail_msg("exit %d: %s", rc, ch_err);
    tio_tensor t = {0};
    ch_load("same.npy", &t);
    assert_int_equal(t.shape[2], 10); /* 7 + 1 + 2 */
    assert_int_equal(t.shape[3], 10); /* 8 + 1 + 1 */
    float want[200];
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_F32, 4, shape, x, (int64_t[]){0, 0, 1, 1},
                               (int64_t[]){0, 0, 2, 1}, CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL,
                               want, sizeof want));
    assert_memory_equal(t.data, want, sizeof want);
    tio_free(&t);
    ch_expect_error(ch_run(NULL, "pad --same-as conv --kernel 4 --stride 3 --tf SAME -b 1 -e 1 nchw.npy o.npy"),
                 2, "--same-as");
    ch_expect_error(ch_run(NULL, "pad --kernel 4 -b 0,0,0,0 -e 0,0,0,0 nchw.npy o.npy"), 2, "--same-as");
}

/* space-to-batch / batch-to-space: the seed example, round trips, errors. */
static void test_space_batch_cli(void **state)
{
    (void)state;
    int64_t shape[5] = {2, 6, 10, 3, 3};
    static float x[1080];
    for (int i = 0; i < 1080; i++)
        x[i] = (float)(i + 1);
    ch_save("seed5.npy", CLPAD_F32, 5, shape, x);
    const char *s2b = "space-to-batch -B 1,2,4,3,1 -b 0,0,1,0,0 -e 0,0,1,0,0";
    const char *b2s = "batch-to-space -B 1,2,4,3,1 --crops-begin 0,0,1,0,0 --crops-end 0,0,1,0,0";
    int rc = ch_run(NULL, "%s --verify seed5.npy s.npy", s2b);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, ch_err);
    assert_non_null(strstr(ch_err, "output: [48, 3, 3, 1, 3] f32"));
    assert_non_null(strstr(ch_err, "identical to the CPU reference"));
    int64_t os[5];
    TU_ASSERT_OK(clpad_space_to_batch_output_shape(5, shape, (int64_t[]){1, 2, 4, 3, 1},
                                                   (int64_t[]){0, 0, 1, 0, 0},
                                                   (int64_t[]){0, 0, 1, 0, 0}, os));
    static float want[48 * 27];
    TU_ASSERT_OK(clpad_space_to_batch_cpu(CLPAD_F32, 5, shape, x, (int64_t[]){1, 2, 4, 3, 1},
                                          (int64_t[]){0, 0, 1, 0, 0}, (int64_t[]){0, 0, 1, 0, 0},
                                          want, sizeof want));
    tio_tensor t = {0};
    ch_load("s.npy", &t);
    assert_int_equal(t.nbytes, sizeof want);
    assert_memory_equal(t.data, want, sizeof want);
    tio_free(&t);
    assert_int_equal(ch_run(NULL, "%s --verify -q s.npy back.npy", b2s), 0);
    assert_string_equal(ch_err, "");
    ch_load("back.npy", &t);
    assert_memory_equal(t.data, x, sizeof x);
    tio_free(&t);
    assert_int_equal(ch_run(NULL, "%s --cpu -q seed5.npy s_cpu.npy", s2b), 0);
    ch_load("s_cpu.npy", &t);
    assert_memory_equal(t.data, want, sizeof want);
    tio_free(&t);
    /* an image is [1, H, W, C]; 2 values mean H,W; an image output takes a batch of 1 */
    int64_t ishape[3] = {6, 8, 3};
    unsigned char img[144];
    for (int i = 0; i < 144; i++)
        img[i] = (unsigned char)(i * 7);
    ch_save("img.ppm", CLPAD_U8, 3, ishape, img);
    assert_int_equal(ch_run(NULL, "space-to-batch -q -B 2,2 -b 1,0 -e 1,0 img.ppm blocks.npy"), 0);
    assert_int_equal(ch_run(NULL, "batch-to-space -q -B 1,2,2,1 --crops-begin 0,1,0,0 "
                               "--crops-end 0,1,0,0 blocks.npy back.ppm"), 0);
    ch_load("back.ppm", &t);
    assert_memory_equal(t.data, img, sizeof img);
    tio_free(&t);
    /* usage errors (2) and rule errors (1, OUTPUT not created) */
    ch_expect_error(ch_run(NULL, "space-to-batch seed5.npy o.npy"), 2, "--block-shape is required");
    ch_expect_error(ch_run(NULL, "space-to-batch -B 1,2 seed5.npy o.npy"), 1, "rank 5");
    ch_expect_error(ch_run(NULL, "%s --cpu --device 0:0 seed5.npy o.npy", s2b), 2, "--cpu");
    ch_expect_error(ch_run(NULL, "batch-to-space -B 1,1,1,1,1 --pads-begin 0,0,0,0,0 seed5.npy o.npy"),
                 2, "--pads-begin");
    ch_expect_error(ch_run(NULL, "space-to-batch -B 1,2,4,3,1 seed5.npy nope.npy"), 1,
                 "block_shape[2] = 4 does not divide");
    ch_expect_error(ch_run(NULL, "space-to-batch -B 2,1,1,1,1 seed5.npy nope.npy"), 1,
                 "block_shape[0] = 2 must be 1");
    ch_expect_error(ch_run(NULL, "space-to-batch -B 1,1,1,1,1 -b 0,-2,0,0,0 seed5.npy nope.npy"), 1,
                 "pads_begin[1] = -2");
    ch_expect_error(ch_run(NULL, "%s seed5.npy nope.npy", b2s), 1, "not divisible by prod(block_shape)");
    ch_expect_error(ch_run(NULL, "batch-to-space -B 1,1,1,1,1 --crops-begin 0,0,11,0,0 "
                           "--crops-end 0,0,10,0,0 seed5.npy nope.npy"),
                 1, "crops_begin[2] + crops_end[2]");
    char p[512];
    snprintf(p, sizeof p, "%s/nope.npy", ch_dir);
    assert_int_equal(access(p, F_OK), -1);
    assert_int_equal(ch_run(NULL, "space-to-batch --help"), 0);
    assert_non_null(strstr(ch_out, "usage: clpad space-to-batch"));
}

int main(void)
{
    if (ch_init("cli"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_mixed_reflect_npy),
        cmocka_unit_test(test_npy_modes_dtypes),
        cmocka_unit_test(test_image_round_trip),
        cmocka_unit_test(test_exact_value),
        cmocka_unit_test(test_numpy_statistics),
        cmocka_unit_test(test_numpy_odd_reflection),
        cmocka_unit_test(test_numpy_linear_ramp),
        cmocka_unit_test(test_per_side_values),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_output_untouched_on_error),
        cmocka_unit_test(test_no_device_fallback),
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_old_spellings_refused),
        cmocka_unit_test(test_shape_deconv_forms),
        cmocka_unit_test(test_pad_forms_cli),
        cmocka_unit_test(test_pad_same_as),
        cmocka_unit_test(test_space_batch_cli),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (ch_cleanup())
        fprintf(stderr, "could not remove %s\n", ch_dir);
    return rc;
}
