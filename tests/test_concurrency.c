/* Threads sharing one context (include/clpad.h: the context is thread-safe),
 * each with its own command queue and buffers, running mixed Pad operations
 * through the enqueue and host-pointer APIs; every result must equal the CPU
 * reference. Run clean under ThreadSanitizer in CI (CLPAD_SANITIZE=thread). */
#include "test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = 4, OPS = 300, MAXE = 2048 };

static clpad_context *g_ctx;
static uint64_t g_seed;

typedef struct worker {
    int id;
    int done;
    char failure[512];
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    uint64_t rng = g_seed + 0x9E37u * (uint64_t)(w->id + 1);
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(clpad_context_cl_context(g_ctx),
                                              clpad_context_device(g_ctx), 0, &err);
    unsigned char *in = malloc(MAXE * 8), *got = malloc(MAXE * 8), *want = malloc(MAXE * 8);
    cl_mem bin = clCreateBuffer(clpad_context_cl_context(g_ctx), CL_MEM_READ_WRITE, MAXE * 8,
                                NULL, &err);
    cl_mem bout = clCreateBuffer(clpad_context_cl_context(g_ctx), CL_MEM_READ_WRITE, MAXE * 8,
                                 NULL, &err);
    static const int ranks[] = {1, 2, 3, 4, 5};
    for (int i = 0; i < OPS && !w->failure[0]; i++) {
        tu_pad_case c;
        tu_random_pad_case(&rng, ranks, 5, MAXE, &c);
        size_t es = clpad_dtype_size(c.dtype);
        int64_t os[CLPAD_MAX_RANK];
        clpad_pad_output_shape(c.rank, c.shape, c.pads_begin, c.pads_end, CLPAD_PAD_OPTIONS(c.mode),
                               os);
        size_t nin = (size_t)tu_elems(c.rank, c.shape) * es, nout = (size_t)tu_elems(c.rank, os) * es;
        tu_fill(in, nin, &rng);
        clpad_pad_cpu(c.dtype, c.rank, c.shape, in, c.pads_begin, c.pads_end,
                      CLPAD_PAD_OPTIONS(c.mode), c.value, want, nout);
        clpad_status st;
        if (i % 2) { /* enqueue API on this thread's own queue */
            if (nin)
                clEnqueueWriteBuffer(q, bin, CL_TRUE, 0, nin, in, 0, NULL, NULL);
            cl_event ev = NULL;
            st =
                clpad_enqueue_pad(g_ctx, c.dtype, c.rank, c.shape, bin, 0, c.pads_begin, c.pads_end,
                                  CLPAD_PAD_OPTIONS(c.mode), c.value, bout, 0, q, 0, NULL, &ev);
            if (!st && nout)
                clEnqueueReadBuffer(q, bout, CL_TRUE, 0, nout, got, 1, &ev, NULL);
            if (ev)
                clReleaseEvent(ev);
        } else { /* host-pointer API on the context's shared queue */
            st = clpad_pad(g_ctx, c.dtype, c.rank, c.shape, in, c.pads_begin, c.pads_end,
                           CLPAD_PAD_OPTIONS(c.mode), c.value, got, nout, NULL);
        }
        char buf[400];
        if (st)
            snprintf(w->failure, sizeof w->failure, "thread %d op %d: %s: %s", w->id, i,
                     clpad_status_name(st), clpad_last_error());
        else if (memcmp(got, want, nout))
            snprintf(w->failure, sizeof w->failure, "thread %d op %d differs: %s", w->id, i,
                     tu_pad_case_str(&c, buf, sizeof buf));
        w->done++;
    }
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseCommandQueue(q);
    free(in);
    free(got);
    free(want);
    return NULL;
}

static void test_threads_share_a_context(void **state)
{
    (void)state;
    pthread_t th[THREADS];
    worker ws[THREADS];
    memset(ws, 0, sizeof ws);
    for (int t = 0; t < THREADS; t++) {
        ws[t].id = t;
        assert_int_equal(pthread_create(&th[t], NULL, work, &ws[t]), 0);
    }
    int total = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        if (ws[t].failure[0])
            fail_msg("%s", ws[t].failure);
        total += ws[t].done;
    }
    printf("%d threads ran %d operations on one context, all equal to the CPU path\n", THREADS,
           total);
    assert_int_equal(total, THREADS * OPS);
}

/* Threads calling the CPU path at once: a context without OpenCL runs
 * outputs of 128 KiB and more on the shared worker pool, one caller at a
 * time (the others run theirs alone); every result equals the single-thread
 * CPU path. Run under ThreadSanitizer in CI with the rest of this file. */
typedef struct cpu_worker {
    int id, done;
    clpad_context *ctx;
    char failure[256];
} cpu_worker;

static void *cpu_work(void *arg)
{
    cpu_worker *w = arg;
    int64_t shape[3] = {3, 160 + w->id, 96}, pb[3] = {1, 2, 3}, pe[3] = {2, 1, 0};
    size_t nin = (size_t)3 * (size_t)shape[1] * 96 * 4;
    size_t nout = (size_t)6 * (size_t)(shape[1] + 3) * 99 * 4;
    unsigned char *in = malloc(nin), *got = malloc(nout), *want = malloc(nout);
    uint64_t rng = g_seed ^ (uint64_t)(w->id + 77);
    for (int i = 0; i < 40 && !w->failure[0]; i++) {
        tu_fill(in, nin, &rng);
        clpad_pad_mode mode = (clpad_pad_mode)(i % CLPAD_PAD_MODE_COUNT);
        clpad_pad_cpu(CLPAD_F32, 3, shape, in, pb, pe, CLPAD_PAD_OPTIONS(mode), NULL, want, nout);
        clpad_status st = clpad_pad(w->ctx, CLPAD_F32, 3, shape, in, pb, pe,
                                    CLPAD_PAD_OPTIONS(mode), NULL, got, nout, NULL);
        if (st || memcmp(got, want, nout))
            snprintf(w->failure, sizeof w->failure, "CPU-path thread %d op %d: %s", w->id, i,
                     st ? clpad_last_error() : "differs");
        w->done++;
    }
    free(in);
    free(got);
    free(want);
    return NULL;
}

static void test_threads_share_the_cpu_pool(void **state)
{
    (void)state;
    clpad_context *ctx = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_CPU_ONLY, &ctx));
    pthread_t th[THREADS];
    cpu_worker ws[THREADS];
    memset(ws, 0, sizeof ws);
    for (int t = 0; t < THREADS; t++) {
        ws[t].id = t;
        ws[t].ctx = ctx;
        assert_int_equal(pthread_create(&th[t], NULL, cpu_work, &ws[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        if (ws[t].failure[0])
            fail_msg("%s", ws[t].failure);
        assert_int_equal(ws[t].done, 40);
    }
    clpad_context_destroy(ctx);
}

int main(void)
{
    g_seed = tu_seed();
    g_ctx = tu_device_context();
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_threads_share_a_context),
                                       cmocka_unit_test(test_threads_share_the_cpu_pool)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clpad_context_destroy(g_ctx);
    return rc;
}
