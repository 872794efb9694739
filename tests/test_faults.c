/* Failing devices: the clfault shim (LD_PRELOAD, tests/fault/clfault.c) makes
 * the Nth call of an OpenCL function fail. For every function clpad calls and
 * every N that a scenario reaches: the clpad call returns the status the
 * error maps to, with a message; the same context then works again and gives
 * correct results; nothing leaks (LeakSanitizer in the sanitizer build); and
 * the CLI leaves no partial output file. A failed map or unmap of a
 * zero-copy output does not fail the call: it ends with copies, correct, and
 * the context copies from then on. */
#include "test_util.h"
#include "pad_seed_cases.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int (*fault_set)(const char *, long, cl_int);
static long (*fault_count)(const char *);

static const struct {
    const char *func;
    cl_int err;
    int recovers; /* the call falls back to copies and succeeds */
} k_faults[] = {
    {"clCreateContext", CL_OUT_OF_HOST_MEMORY, 0},
    {"clCreateCommandQueue", CL_OUT_OF_RESOURCES, 0},
    {"clBuildProgram", CL_BUILD_PROGRAM_FAILURE, 0},
    {"clCreateKernel", CL_OUT_OF_HOST_MEMORY, 0},
    {"clCreateBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE, 0},
    {"clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES, 0},
    {"clEnqueueCopyBuffer", CL_OUT_OF_RESOURCES, 0},
    {"clEnqueueMapBuffer", CL_MAP_FAILURE, 1},
    {"clEnqueueUnmapMemObject", CL_OUT_OF_RESOURCES, 1},
    {"clEnqueueReadBuffer", CL_OUT_OF_RESOURCES, 0},
    {"clFinish", CL_OUT_OF_RESOURCES, 0},
};
#define NFAULTS (sizeof k_faults / sizeof *k_faults)

/* ---- the scenario: contexts and operations -------------------------------- */

typedef struct scenario {
    clpad_context *zc, *copy; /* zero-copy context; copy-path context */
} scenario;

enum { OP_CREATE_ZC, OP_PAD_SEED, OP_PAD_ROWS, OP_CREATE_COPY, OP_PAD_COPY, OP_PAD_NO_PADS,
       OP_COUNT };

static clpad_status op_run(scenario *s, int op)
{
    static int32_t big_in[3 * 37 * 129], big_out[5 * 41 * 140], big_want[5 * 41 * 140];
    int64_t big_shape[3] = {3, 37, 129}, pb[3] = {1, 2, 5}, pe[3] = {1, 2, 6};
    const seed_case *sc = &seed_cases[10]; /* mixed reflect */
    int32_t out[40];
    clpad_status st;
    switch (op) {
    case OP_CREATE_ZC:
        unsetenv("CLPAD_ZERO_COPY");
        return tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, &s->zc);
    case OP_CREATE_COPY:
        setenv("CLPAD_ZERO_COPY", "0", 1);
        st = tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, &s->copy);
        unsetenv("CLPAD_ZERO_COPY");
        return st;
    case OP_PAD_SEED:
    case OP_PAD_COPY:
        st = clpad_pad(op == OP_PAD_SEED ? s->zc : s->copy, CLPAD_I32, 2, seed_shape, seed_input,
                       sc->pads_begin, sc->pads_end, CLPAD_PAD_OPTIONS(sc->mode), NULL, out, 24 * 4,
                       NULL);
        if (!st)
            assert_memory_equal(out, sc->expect, 24 * 4);
        return st;
    case OP_PAD_ROWS:
        for (size_t i = 0; i < sizeof big_in / sizeof *big_in; i++)
            big_in[i] = (int32_t)(i * 2654435761u);
        st = clpad_pad(s->zc, CLPAD_I32, 3, big_shape, big_in, pb, pe,
                       CLPAD_PAD_OPTIONS(CLPAD_PAD_SYMMETRIC), NULL, big_out, sizeof big_out, NULL);
        if (!st) {
            TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 3, big_shape, big_in, pb, pe,
                                       CLPAD_PAD_OPTIONS(CLPAD_PAD_SYMMETRIC), NULL, big_want,
                                       sizeof big_want));
            assert_memory_equal(big_out, big_want, sizeof big_out);
        }
        return st;
    case OP_PAD_NO_PADS: /* a plain buffer copy */
        st = clpad_pad(s->copy, CLPAD_I32, 2, seed_shape, seed_input, (int64_t[]){0, 0},
                       (int64_t[]){0, 0}, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, out, 12 * 4,
                       NULL);
        if (!st)
            assert_memory_equal(out, seed_input, 12 * 4);
        return st;
    }
    return CLPAD_ERR_INVALID_ARGUMENT;
}

/* Run every operation; a failing one must fail with `want` and then work on
 * a retry without faults. Returns how many operations failed. recovers: the
 * fault hit a zero-copy map or unmap, which no operation may fail on; the
 * zero-copy context must have given zero-copy up (and still be right). */
static int run_scenario(clpad_status want, const char *func, long n, int recovers)
{
    scenario s = {0};
    int failures = 0;
    for (int op = 0; op < OP_COUNT; op++) {
        clpad_status st = op_run(&s, op);
        if (st == CLPAD_OK)
            continue;
        failures++;
        if (st != want)
            fail_msg("%s call %ld failing: operation %d returned %s, want %s (%s)", func, n, op,
                     clpad_status_name(st), clpad_status_name(want), clpad_last_error());
        if (!*clpad_last_error())
            fail_msg("%s call %ld failing: no error message", func, n);
        fault_set(NULL, 0, 0); /* the device recovers; the same context must work */
        st = op_run(&s, op);
        if (st != CLPAD_OK)
            fail_msg("%s call %ld: retry of operation %d failed: %s (%s)", func, n, op,
                     clpad_status_name(st), clpad_last_error());
    }
    if (recovers) {
        fault_set(NULL, 0, 0);
        const seed_case *sc = &seed_cases[10];
        int32_t out[40];
        clpad_run_info info;
        clpad_run_info_init(&info);
        TU_ASSERT_OK(clpad_pad(s.zc, CLPAD_I32, 2, seed_shape, seed_input, sc->pads_begin,
                               sc->pads_end, CLPAD_PAD_OPTIONS(sc->mode), NULL, out, 24 * 4,
                               &info));
        assert_memory_equal(out, sc->expect, 24 * 4);
        if (info.zero_copy)
            fail_msg("%s call %ld failed, but the context still maps in place", func, n);
    }
    clpad_context_destroy(s.zc);
    clpad_context_destroy(s.copy);
    return failures;
}

static void test_every_fault_point(void **state)
{
    (void)state;
    int points = 0;
    for (size_t f = 0; f < NFAULTS; f++) {
        fault_set(k_faults[f].func, 0, 0); /* count only */
        assert_int_equal(run_scenario(CLPAD_OK, "none", 0, 0), 0);
        long calls = fault_count(k_faults[f].func);
        clpad_status want = clpad_status_from_cl(k_faults[f].err);
        int rec = k_faults[f].recovers;
        for (long n = 1; n <= calls; n++) {
            fault_set(k_faults[f].func, n, k_faults[f].err);
            int failed = run_scenario(want, k_faults[f].func, n, rec);
            if (failed != !rec)
                fail_msg("%s call %ld: %d operations failed, want exactly %d", k_faults[f].func,
                         n, failed, !rec);
            points++;
        }
        printf("%-26s %ld calls in the scenario, each failed once: %s\n", k_faults[f].func, calls,
               rec ? "recovered with copies" : clpad_status_name(want));
    }
    fault_set(NULL, 0, 0);
    printf("%d fault-injection points covered\n", points);
    assert_true(points > 20);
}

/* ---- the CLI: no partial output ------------------------------------------ */

static void test_cli_no_partial_output(void **state)
{
    (void)state;
    const char *cli = getenv("CLPAD_CLI"), *lib = getenv("CLFAULT_LIB");
    assert_non_null(cli);
    assert_non_null(lib);
    char dir[] = "/tmp/clpad-faults-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[2048], in[512], keep[512];
    snprintf(in, sizeof in, "%s/in.npy", dir);
    snprintf(keep, sizeof keep, "%s/keep.npy", dir);
    /* write a small .npy by asking the CLI itself (CPU path, no faults) */
    FILE *f = fopen(in, "wb");
    static const char hdr[] = "\x93NUMPY\x01\x00\x76\x00{'descr': '<i4', 'fortran_order': False, "
                              "'shape': (3, 4), }";
    fwrite(hdr, 1, sizeof hdr - 1, f);
    for (size_t i = sizeof hdr - 1; i < 127; i++)
        fputc(' ', f);
    fputc('\n', f);
    fwrite(seed_input, 4, 12, f);
    fclose(f);
    int checked = 0;
    for (size_t k = 0; k < NFAULTS; k++) {
        for (long n = 1; n <= 2; n++) {
            f = fopen(keep, "w");
            fputs("precious", f);
            fclose(f);
            snprintf(cmd, sizeof cmd,
                     "CLPAD_CACHE_DIR=off CLPAD_SMALL_CALL_BYTES=0 LD_PRELOAD='%s' "
                     "ASAN_OPTIONS=verify_asan_link_order=0 "
                     "CLFAULT_FUNC=%s CLFAULT_N=%ld CLFAULT_ERR=%d '%s' pad -q -m reflect "
                     "-b 2,-1 -e -1,3 '%s' '%s' 2>%s/err.txt",
                     lib, k_faults[k].func, n, (int)k_faults[k].err, cli, in, keep, dir);
            int st = system(cmd);
            int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
            char buf[64] = "";
            f = fopen(keep, "r");
            size_t got = fread(buf, 1, sizeof buf - 1, f);
            buf[got] = '\0';
            fclose(f);
            if (rc == 0) /* that call was not reached or not needed: output complete */
                continue;
            checked++;
            if (rc != 1)
                fail_msg("%s #%ld: exit %d, want 1", k_faults[k].func, n, rc);
            if (strcmp(buf, "precious"))
                fail_msg("%s #%ld: the existing OUTPUT was modified", k_faults[k].func, n);
        }
    }
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -c '^\\.' > %s/count.txt; rm -f %s/err.txt", dir,
             dir, dir);
    assert_int_not_equal(system(cmd), -1);
    snprintf(cmd, sizeof cmd, "%s/count.txt", dir);
    f = fopen(cmd, "r");
    char count[16] = "";
    assert_non_null(fgets(count, sizeof count, f));
    fclose(f);
    assert_string_equal(count, "0\n"); /* no temporary file left */
    printf("%d failing CLI runs left OUTPUT untouched\n", checked);
    assert_true(checked >= 8);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    fault_set = (int (*)(const char *, long, cl_int))dlsym(RTLD_DEFAULT, "clfault_set");
    fault_count = (long (*)(const char *))dlsym(RTLD_DEFAULT, "clfault_count");
    if (!fault_set || !fault_count) {
        fprintf(stderr, "the clfault shim is not loaded (LD_PRELOAD=libclfault.so)\n");
        return 1;
    }
    setenv("CLPAD_CACHE_DIR", "off", 1); /* every build goes through clBuildProgram */
    clpad_context_destroy(tu_device_context()); /* SKIP without a device */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_fault_point),
        cmocka_unit_test(test_cli_no_partial_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
