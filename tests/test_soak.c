/* Soak: thousands of mixed random operations (host-pointer, enqueue, CPU
 * path, fresh contexts now and then) in one process. Resident memory must
 * stay flat once the program caches are warm; leaks are caught by
 * LeakSanitizer in the sanitizer build. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

enum { OPS = 3000, MAXE = 2048 };

/* Resident memory in KiB. Free heap pages go back to the system first
 * (malloc_trim, glibc): without it the figure moves by megabytes with where
 * the allocator (and the driver's threads' arenas) happen to hold freed
 * memory, which is noise, not a leak. */
static long rss_kib(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* One pass of OPS mixed operations from `seed`. */
static void soak_pass(uint64_t seed, clpad_context **ctx, unsigned char *in, unsigned char *got,
                      unsigned char *want)
{
    uint64_t rng = seed;
    static const int ranks[] = {0, 1, 2, 3, 4, 6, 8};
    for (int i = 0; i < OPS; i++) {
        if (getenv("SOAK_TRACE") && i % 500 == 0)
            printf("op %d: %ld KiB\n", i, rss_kib());
        if (i % 500 == 499) { /* a fresh context now and then */
            clpad_context_destroy(*ctx);
            TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, ctx));
        }
        tu_pad_case c;
        tu_random_pad_case(&rng, ranks, 7, MAXE, &c);
        size_t es = clpad_dtype_size(c.dtype);
        int64_t os[CLPAD_MAX_RANK];
        TU_ASSERT_OK(clpad_pad_output_shape(c.rank, c.shape, c.pads_begin, c.pads_end,
                                            CLPAD_PAD_OPTIONS(c.mode), os));
        size_t nin = (size_t)tu_elems(c.rank, c.shape) * es, nout = (size_t)tu_elems(c.rank, os) * es;
        tu_fill(in, nin, &rng);
        TU_ASSERT_OK(clpad_pad_cpu(c.dtype, c.rank, c.shape, in, c.pads_begin, c.pads_end,
                                   CLPAD_PAD_OPTIONS(c.mode), c.value, want, nout));
        TU_ASSERT_OK(clpad_pad(*ctx, c.dtype, c.rank, c.shape, in, c.pads_begin, c.pads_end,
                               CLPAD_PAD_OPTIONS(c.mode), c.value, got, nout, NULL));
        char buf[400];
        if (memcmp(got, want, nout))
            fail_msg("op %d differs: %s", i, tu_pad_case_str(&c, buf, sizeof buf));
        /* and an invalid call now and then: errors must not leak either */
        if (i % 7 == 0)
            TU_ASSERT_STATUS(clpad_pad(*ctx, c.dtype, c.rank, c.shape, in, c.pads_begin, c.pads_end,
                                       CLPAD_PAD_OPTIONS(c.mode), c.value, got, nout ? nout - 1 : 0,
                                       NULL),
                             nout ? CLPAD_ERR_BUFFER_TOO_SMALL : CLPAD_OK);
    }
}

/* Identical passes: the first warms every cache (clpad's programs, the
 * driver's compiled kernels and launch-size specialisations), the next must
 * not grow resident memory. A leak grows it on every pass; a one-time step
 * (an allocator arena or a driver's thread pool settling under load, seen at
 * 1.4 MiB on a loaded machine) does not repeat, so a second step over the
 * limit is needed to fail: a pass that grows gets one more pass. */
static void test_soak(void **state)
{
    (void)state;
    uint64_t seed = tu_seed() ^ 0x50AC;
    clpad_context *ctx = tu_device_context();
    unsigned char *in = malloc(MAXE * 8), *got = malloc(MAXE * 8), *want = malloc(MAXE * 8);
    soak_pass(seed, &ctx, in, got, want);
    long rss_warm = rss_kib();
    for (int pass = 2; pass <= 3; pass++) {
        soak_pass(seed, &ctx, in, got, want);
        long rss_end = rss_kib();
        printf("pass %d of %d operations: resident memory %ld KiB before it, %ld KiB after\n",
               pass, OPS, rss_warm, rss_end);
#if defined(__SANITIZE_ADDRESS__)
        /* AddressSanitizer's quarantine holds freed memory, so resident memory
         * grows by design; LeakSanitizer checks for leaks in this build instead. */
        printf("resident-memory check skipped under AddressSanitizer\n");
        break;
#else
        /* 1 MiB over 3000 operations: a leak of about 350 bytes per call fails
         * (checked by leaking 512 bytes per operation: +2.2 MiB on each pass);
         * trimmed, an identical pass here moves by 40-270 KiB. */
        if (rss_end - rss_warm <= 1024)
            break;
        if (pass == 3)
            fail_msg("resident memory grew by %ld KiB over an identical pass, twice",
                     rss_end - rss_warm);
        rss_warm = rss_end;
#endif
    }
    clpad_context_destroy(ctx);
    free(in);
    free(got);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_soak)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
