/* Pad on OpenCL: the seed examples through both APIs, randomized differential
 * cases against the CPU reference with guard bands, the copy and empty paths,
 * events, buffer checks and build failures. Skips (exit 77) with no device. */
#include "test_util.h"
#include "pad_seed_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static clpad_context *g_ctx;

enum { GUARD = 64 };
static const unsigned char CANARY = 0xA5;

/* Run one case through clpad_enqueue_pad with guard bands around the output
 * and an offset on the input; return the output bytes in `got`. */
static void enqueue_with_guards(const tu_pad_case *c, const void *in, size_t nin, void *got,
                                size_t nout)
{
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_command_queue q = clpad_context_queue(g_ctx);
    size_t es = clpad_dtype_size(c->dtype);
    size_t in_off = 8 * es; /* an element-aligned, non-zero offset */
    cl_int err;
    unsigned char *staging = malloc(in_off + nin + GUARD * 2 + nout + 8);
    memset(staging, 0x11, in_off);
    memcpy(staging + in_off, in, nin);
    cl_mem bin = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in_off + nin + 8,
                                staging, &err);
    assert_int_equal(err, CL_SUCCESS);
    memset(staging, CANARY, GUARD * 2 + nout);
    cl_mem bout = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, GUARD * 2 + nout,
                                 staging, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event ev = NULL;
    if (c->per_axis || c->flags) { /* per-axis modes, large pads */
        clpad_pad_options o;
        tu_pad_options(c, &o);
        TU_ASSERT_OK(clpad_enqueue_pad(g_ctx, c->dtype, c->rank, c->shape, bin, in_off,
                                       c->pads_begin, c->pads_end, &o, c->value, bout, GUARD, NULL,
                                       0, NULL, &ev));
    } else {
        TU_ASSERT_OK(clpad_enqueue_pad(g_ctx, c->dtype, c->rank, c->shape, bin, in_off,
                                       c->pads_begin, c->pads_end, CLPAD_PAD_OPTIONS(c->mode),
                                       c->value, bout, GUARD, NULL, 0, NULL, &ev));
    }
    assert_non_null(ev);
    assert_int_equal(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, GUARD * 2 + nout, staging, 1, &ev,
                                         NULL),
                     CL_SUCCESS);
    char buf[512];
    for (size_t k = 0; k < GUARD; k++)
        if (staging[k] != CANARY || staging[GUARD + nout + k] != CANARY)
            fail_msg("guard band overwritten: %s", tu_pad_case_str(c, buf, sizeof buf));
    memcpy(got, staging + GUARD, nout);
    clReleaseEvent(ev);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(staging);
}

static void test_seed_examples(void **state)
{
    (void)state;
    for (size_t i = 0; i < SEED_CASE_COUNT; i++) {
        const seed_case *s = &seed_cases[i];
        size_t n = (size_t)(s->out_shape[0] * s->out_shape[1]);
        int32_t out[40];
        memset(out, 0, sizeof out);
        clpad_run_info info;
        clpad_run_info_init(&info);
        TU_ASSERT_OK(clpad_pad(g_ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin,
                               s->pads_end, CLPAD_PAD_OPTIONS(s->mode), NULL, out, n * 4, &info));
        assert_int_equal(info.used_opencl, 1);
        for (size_t k = 0; k < n; k++)
            if (out[k] != s->expect[k])
                fail_msg("host API, %s: element %zu = %d, want %d", s->name, k, out[k],
                         s->expect[k]);
        tu_pad_case c = {.dtype = CLPAD_I32, .mode = s->mode, .rank = 2};
        memcpy(c.shape, seed_shape, sizeof seed_shape);
        memcpy(c.pads_begin, s->pads_begin, sizeof s->pads_begin);
        memcpy(c.pads_end, s->pads_end, sizeof s->pads_end);
        memset(out, 0, sizeof out);
        enqueue_with_guards(&c, seed_input, sizeof seed_input, out, n * 4);
        for (size_t k = 0; k < n; k++)
            if (out[k] != s->expect[k])
                fail_msg("enqueue API, %s: element %zu = %d, want %d", s->name, k, out[k],
                         s->expect[k]);
    }
}

/* One randomized case through both device APIs, compared with the CPU path. */
static void diff_case(const tu_pad_case *c, uint64_t *rng, int index)
{
    size_t es = clpad_dtype_size(c->dtype);
    int64_t os[CLPAD_MAX_RANK];
    clpad_pad_options o;
    tu_pad_options(c, &o);
    TU_ASSERT_OK(clpad_pad_output_shape(c->rank, c->shape, c->pads_begin, c->pads_end, &o, os));
    size_t nin = (size_t)tu_elems(c->rank, c->shape) * es;
    size_t nout = (size_t)tu_elems(c->rank, os) * es;
    unsigned char *in = malloc(nin + 1), *copy = malloc(nin + 1);
    unsigned char *want = malloc(nout + 1), *got = malloc(nout + 1);
    tu_fill(in, nin, rng);
    memcpy(copy, in, nin);
    TU_ASSERT_OK(clpad_pad_cpu(c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end, &o,
                               c->value, want, nout));
    char buf[600];
    enqueue_with_guards(c, in, nin, got, nout);
    if (memcmp(got, want, nout))
        fail_msg("case %d: enqueue API differs from the CPU path: %s", index,
                 tu_pad_case_str(c, buf, sizeof buf));
    memset(got, 0, nout);
    if (c->per_axis || c->flags)
        TU_ASSERT_OK(clpad_pad(g_ctx, c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                               &o, c->value, got, nout, NULL));
    else
        TU_ASSERT_OK(clpad_pad(g_ctx, c->dtype, c->rank, c->shape, in, c->pads_begin, c->pads_end,
                               CLPAD_PAD_OPTIONS(c->mode), c->value, got, nout, NULL));
    if (memcmp(got, want, nout))
        fail_msg("case %d: host API differs from the CPU path: %s", index,
                 tu_pad_case_str(c, buf, sizeof buf));
    if (memcmp(in, copy, nin))
        fail_msg("case %d: the input was modified", index);
    free(in);
    free(copy);
    free(want);
    free(got);
}

static void test_random_small(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x5EED;
    static const int ranks[] = {1, 2, 3, 4, 5, 6, 8};
    enum { CASES = 600 };
    for (int i = 0; i < CASES; i++) {
        tu_pad_case c;
        tu_random_pad_case(&rng, ranks, 7, 4096, &c);
        diff_case(&c, &rng, i);
    }
    printf("%d random small cases equal the CPU path\n", CASES);
}

/* A random mixed-mode case whose program is one of a few: f32 with the
 * innermost axis padded (units of 4 bytes), its mode constant or wrap, or
 * with `large` reflect / symmetric beyond their limits (the _numpy rules).
 * Program builds dominate this test's time (seconds each on PoCL); the
 * row logic of each mode is the uniform programs' own, tested above, so
 * the variety goes into the outer axes' modes, which the mixed variant
 * reads at run time. false when the adjusted case is invalid. */
static bool device_mixed_case(uint64_t *rng, int large, tu_pad_case *c)
{
    static const int ranks[] = {2, 3, 4, 5, 8};
    tu_random_mixed_case(rng, ranks, large ? 3 : 5, 4096, large, c);
    c->dtype = CLPAD_F32;
    int last = c->rank - 1;
    int64_t D = c->shape[last];
    if (large) {
        c->modes[last] = tu_range(rng, 0, 1) ? CLPAD_PAD_REFLECT : CLPAD_PAD_SYMMETRIC;
        c->pads_end[last] = D + tu_range(rng, 1, 2 * D + 2);
    } else {
        c->modes[last] = tu_range(rng, 0, 1) ? CLPAD_PAD_CONSTANT : CLPAD_PAD_WRAP;
        if (!c->pads_begin[last] && !c->pads_end[last])
            c->pads_begin[last] = 1;
    }
    c->mode = c->modes[0];
    clpad_pad_options o;
    tu_pad_options(c, &o);
    int64_t os[CLPAD_MAX_RANK];
    return clpad_pad_output_shape(c->rank, c->shape, c->pads_begin, c->pads_end, &o, os) ==
               CLPAD_OK &&
           tu_elems(c->rank, os) > 0 && tu_elems(c->rank, os) <= 8192;
}

/* Per-axis modes (the mixed variant: the row's mode built in, the outer
 * axes' read at run time) and numpy.pad's large pads (the _numpy mirror
 * variants), equal to the CPU path byte for byte: small random cases, rows
 * long enough for the vector paths, and wide elements. */
static void test_mixed_modes_and_large_pads(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x18A;
    enum { CASES = 120 };
    int n = 0;
    for (int large = 0; large <= 1; large++)
        for (int i = 0; i < CASES;) {
            tu_pad_case c;
            if (!device_mixed_case(&rng, large, &c))
                continue;
            diff_case(&c, &rng, n++);
            i++;
        }
    /* one mode on every axis, beyond the limits: the uniform _numpy programs */
    for (int sym = 0; sym <= 1; sym++, n++) {
        tu_pad_case c = {.dtype = CLPAD_F32, .rank = 3, .flags = CLPAD_PAD_LARGE_NUMPY,
                         .mode = sym ? CLPAD_PAD_SYMMETRIC : CLPAD_PAD_REFLECT,
                         .shape = {3, 4, 5}, .pads_begin = {7, -1, 13}, .pads_end = {2, 9, 11}};
        diff_case(&c, &rng, n);
    }
    /* long rows (the vector paths), and wide elements (an unpadded trailing
     * axis of 20 f32: whole elements mapped per border element) */
    for (int wide = 0; wide <= 1; wide++, n++) {
        tu_pad_case c = {.dtype = CLPAD_F32, .rank = 4, .per_axis = 1,
                         .flags = CLPAD_PAD_LARGE_NUMPY,
                         .modes = {CLPAD_PAD_CONSTANT, CLPAD_PAD_WRAP, CLPAD_PAD_REFLECT,
                                   CLPAD_PAD_EDGE},
                         .shape = {2, 5, wide ? 30 : 300, wide ? 20 : 1},
                         .pads_begin = {1, 12, 3, 0}, .pads_end = {0, -1, wide ? 70 : 700, 0}};
        tu_fill(c.value, sizeof c.value, &rng);
        diff_case(&c, &rng, n);
    }
    printf("%d mixed-mode and large-pad cases equal the CPU path\n", n);
}

/* Long rows exercise the vector path and its tails (row lengths not a
 * multiple of the vector width, widths 1-3 of tail, unaligned pads). */
static void test_random_rows(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xB16;
    static const clpad_dtype dts[] = {CLPAD_U8, CLPAD_F16, CLPAD_F32, CLPAD_F64};
    int n = 0;
    for (int d = 0; d < 4; d++) {
        for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++) {
            for (int rep = 0; rep < 6; rep++, n++) {
                tu_pad_case c = {.dtype = dts[d], .mode = (clpad_pad_mode)m, .rank = 3};
                c.shape[0] = tu_range(&rng, 1, 3);
                c.shape[1] = tu_range(&rng, 1, 20);
                c.shape[2] = tu_range(&rng, 17, 300);
                for (int a = 0; a < 3; a++) {
                    int64_t hi = m == CLPAD_PAD_REFLECT ? c.shape[a] - 1 : c.shape[a];
                    if (hi > 19)
                        hi = 19;
                    c.pads_begin[a] = tu_range(&rng, -2, hi);
                    c.pads_end[a] = tu_range(&rng, -2, hi);
                }
                tu_fill(c.value, 8, &rng);
                diff_case(&c, &rng, n);
            }
        }
    }
    printf("%d long-row cases equal the CPU path\n", n);
}

/* Many short rows: work-items take several consecutive rows on CPU devices,
 * crossing outer-axis boundaries (and mirrored / padded outer coordinates)
 * inside one work-item. */
static void test_many_short_rows(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x5407;
    static const clpad_dtype dts[] = {CLPAD_U8, CLPAD_I16, CLPAD_F32, CLPAD_F64};
    int n = 0;
    for (int d = 0; d < 4; d++) {
        for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++) {
            for (int rep = 0; rep < 3; rep++, n++) {
                tu_pad_case c = {.dtype = dts[d], .mode = (clpad_pad_mode)m};
                c.rank = rep == 2 ? 5 : 3;
                int64_t dims5[5] = {tu_range(&rng, 2, 5), tu_range(&rng, 2, 6),
                                    tu_range(&rng, 3, 9), tu_range(&rng, 3, 11),
                                    tu_range(&rng, 1, 9)};
                int64_t dims3[3] = {tu_range(&rng, 40, 90), tu_range(&rng, 3, 13),
                                    tu_range(&rng, 1, 9)};
                for (int a = 0; a < c.rank; a++) {
                    c.shape[a] = c.rank == 5 ? dims5[a] : dims3[a];
                    int64_t hi = m == CLPAD_PAD_REFLECT ? c.shape[a] - 1 : c.shape[a];
                    if (hi > 3)
                        hi = 3;
                    c.pads_begin[a] = a == 0 ? 0 : tu_range(&rng, -1, hi);
                    c.pads_end[a] = a == 0 ? 0 : tu_range(&rng, -1, hi);
                }
                tu_fill(c.value, 8, &rng);
                diff_case(&c, &rng, n);
            }
        }
    }
    printf("%d many-short-row cases equal the CPU path\n", n);
}

/* Short rows of whole work-items on CPU devices (the kernel's lean loop):
 * interiors on both sides of its size classes' bounds (32, 64, 128 bytes,
 * up to 512), one border unit on each side (kept in registers) and the other
 * border shapes, crops, every mode and element size, with padded rows
 * around them. */
static void test_short_rows(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x1EA7;
    static const clpad_dtype dts[] = {CLPAD_U8, CLPAD_F16, CLPAD_F32, CLPAD_F64};
    static const int bytes[] = {33, 64, 65, 100, 128, 129, 300, 512};
    static const int64_t pads[][2] = {{1, 1}, {2, 3}, {0, 1}, {1, 0}, {8, 8}, {-1, 1}, {1, -1}};
    int n = 0;
    for (size_t d = 0; d < sizeof dts / sizeof *dts; d++)
        for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++)
            for (size_t b = 0; b < sizeof bytes / sizeof *bytes; b++)
                for (size_t p = 0; p < sizeof pads / sizeof *pads; p++) {
                    tu_pad_case c;
                    if (!tu_row_case(&c, dts[d], (clpad_pad_mode)m, bytes[b], 5, pads[p][0],
                                     pads[p][1], &rng))
                        continue;
                    diff_case(&c, &rng, n++);
                }
    printf("%d short-row cases equal the CPU path\n", n);
}

/* NHWC images: the channel axis is unpadded (widened elements and merges). */
static void test_image_like(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x1A6E;
    int n = 0;
    for (int ch = 1; ch <= 4; ch++) {
        for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++, n++) {
            tu_pad_case c = {.dtype = CLPAD_U8, .mode = (clpad_pad_mode)m, .rank = 3};
            c.shape[0] = 37;
            c.shape[1] = 53;
            c.shape[2] = ch;
            c.pads_begin[0] = 5;
            c.pads_end[0] = 7;
            c.pads_begin[1] = 11;
            c.pads_end[1] = -3;
            c.value[0] = 114;
            diff_case(&c, &rng, n);
        }
    }
}

/* Wide elements: pads only on outer axes, so that each padded element is a
 * whole inner block (16 B to 8 KiB) copied as one loop; borders of many
 * elements on both sides, crops, every mode and unit size. */
static void test_wide_elements(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x3D1E;
    static const clpad_dtype dtypes[] = {CLPAD_U8, CLPAD_F16, CLPAD_F32, CLPAD_F64};
    int n = 0;
    for (int m = 0; m < CLPAD_PAD_MODE_COUNT; m++) {
        for (size_t t = 0; t < sizeof dtypes / sizeof *dtypes; t++, n++) {
            tu_pad_case c = {.dtype = dtypes[t], .mode = (clpad_pad_mode)m, .rank = 3};
            c.shape[0] = tu_range(&rng, 6, 12);
            c.shape[1] = tu_range(&rng, 1, 16);
            c.shape[2] = tu_range(&rng, 1, 130);
            int64_t lim = m == CLPAD_PAD_REFLECT ? c.shape[0] - 1 : c.shape[0];
            c.pads_begin[0] = tu_range(&rng, -2, lim);
            c.pads_end[0] = tu_range(&rng, -2, lim);
            tu_fill(c.value, sizeof c.value, &rng);
            diff_case(&c, &rng, n);
        }
    }
}

/* Every pad 0 becomes a buffer copy; an empty output launches nothing but
 * still returns an event that honours the wait list. */
static void test_copy_and_empty(void **state)
{
    (void)state;
    uint64_t rng = tu_seed();
    tu_pad_case c = {.dtype = CLPAD_F32, .mode = CLPAD_PAD_REFLECT, .rank = 3,
                     .shape = {2, 3, 5}};
    diff_case(&c, &rng, 0);

    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_int err;
    cl_mem buf = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event user = clCreateUserEvent(cl, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event ev = NULL;
    int64_t shape[2] = {3, 4};
    TU_ASSERT_OK(clpad_enqueue_pad(g_ctx, CLPAD_I32, 2, shape, buf, 0, (int64_t[]){-3, 0},
                                   (int64_t[]){0, 0}, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, buf,
                                   0, NULL, 1, &user, &ev));
    assert_non_null(ev);
    cl_int status = 0;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    assert_true(status != CL_COMPLETE); /* it waits for the user event */
    clSetUserEventStatus(user, CL_COMPLETE);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
    clReleaseEvent(user);
    clReleaseMemObject(buf);
}

/* The enqueue waits on the caller's events: a write gated by a user event. */
static void test_wait_list(void **state)
{
    (void)state;
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_command_queue q = clpad_context_queue(g_ctx);
    cl_int err;
    cl_mem bin = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof seed_input, NULL, &err);
    cl_mem bout = clCreateBuffer(cl, CL_MEM_READ_WRITE, 40 * 4, NULL, &err);
    cl_event user = clCreateUserEvent(cl, &err), wrote, padded;
    assert_int_equal(clEnqueueWriteBuffer(q, bin, CL_FALSE, 0, sizeof seed_input, seed_input, 1,
                                          &user, &wrote),
                     CL_SUCCESS);
    const seed_case *s = &seed_cases[2]; /* positive reflect */
    TU_ASSERT_OK(clpad_enqueue_pad(g_ctx, CLPAD_I32, 2, seed_shape, bin, 0, s->pads_begin,
                                   s->pads_end, CLPAD_PAD_OPTIONS(s->mode), NULL, bout, 0, NULL, 1,
                                   &wrote, &padded));
    clSetUserEventStatus(user, CL_COMPLETE);
    int32_t out[40];
    assert_int_equal(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof out, out, 1, &padded, NULL),
                     CL_SUCCESS);
    assert_memory_equal(out, s->expect, sizeof out);
    clReleaseEvent(user);
    clReleaseEvent(wrote);
    clReleaseEvent(padded);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
}

static void test_buffer_checks(void **state)
{
    (void)state;
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_int err;
    cl_mem small = clCreateBuffer(cl, CL_MEM_READ_WRITE, 40, NULL, &err);
    cl_mem big = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4096, NULL, &err);
    int64_t pb[2] = {0, 1}, pe[2] = {2, 3};
    TU_ASSERT_STATUS(clpad_enqueue_pad(g_ctx, CLPAD_I32, 2, seed_shape, small, 0, pb, pe,
                                       CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, big, 0, NULL, 0,
                                       NULL, NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(clpad_last_error(), "input"));
    TU_ASSERT_STATUS(clpad_enqueue_pad(g_ctx, CLPAD_I32, 2, seed_shape, big, 0, pb, pe,
                                       CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, small, 0, NULL, 0,
                                       NULL, NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(clpad_last_error(), "output"));
    TU_ASSERT_STATUS(clpad_enqueue_pad(g_ctx, CLPAD_I32, 2, seed_shape, big, 0, pb, pe,
                                       CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, big, 4096 - 100,
                                       NULL, 0, NULL, NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    TU_ASSERT_STATUS(clpad_enqueue_pad(g_ctx, CLPAD_I32, 2, seed_shape, big, 2, pb, pe,
                                       CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, big, 0, NULL, 0,
                                       NULL, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "multiple of the element size"));
    TU_ASSERT_STATUS(clpad_enqueue_pad(g_ctx, CLPAD_I32, 2, seed_shape, NULL, 0, pb, pe,
                                       CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, big, 0, NULL, 0,
                                       NULL, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_STATUS(clpad_enqueue_pad(NULL, CLPAD_I32, 2, seed_shape, big, 0, pb, pe,
                                       CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, big, 0, NULL, 0,
                                       NULL, NULL),
                     CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_STATUS(clpad_enqueue_pad(g_ctx, CLPAD_I32, 2, seed_shape, big, 0, (int64_t[]){0, 4},
                                       pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), NULL, big, 0, NULL,
                                       0, NULL, NULL),
                     CLPAD_ERR_INVALID_PADS);
    int32_t out[40];
    TU_ASSERT_STATUS(clpad_pad(g_ctx, CLPAD_I32, 2, seed_shape, seed_input, pb, pe,
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, out, sizeof out - 1, NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    clReleaseMemObject(small);
    clReleaseMemObject(big);
}

/* A context wrapping the caller's own context and queue gives the same bytes. */
static void test_wrap_and_warmup(void **state)
{
    (void)state;
    TU_ASSERT_OK(clpad_context_warmup(g_ctx));
    assert_string_equal(clpad_context_build_log(g_ctx), "");
    cl_device_id dev = clpad_context_device(g_ctx);
    cl_int err;
    cl_context cl = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(cl, dev, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    clpad_context *w = NULL;
    TU_ASSERT_OK(clpad_context_wrap(cl, q, &w));
    clReleaseCommandQueue(q); /* the wrapper holds its own references */
    clReleaseContext(cl);
    const seed_case *s = &seed_cases[11]; /* mixed symmetric */
    int32_t out[24];
    TU_ASSERT_OK(clpad_pad(w, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin, s->pads_end,
                           CLPAD_PAD_OPTIONS(s->mode), NULL, out, sizeof out, NULL));
    assert_memory_equal(out, s->expect, sizeof out);
    clpad_context_destroy(w);
    TU_ASSERT_STATUS(clpad_context_wrap(NULL, q, &w), CLPAD_ERR_INVALID_ARGUMENT);
}

/* A kernel that does not compile: a status, and a build log with the options
 * and the device name. Uses CLPAD_KERNEL_DIR, the kernel-development switch
 * (the context's kernel_dir). */
static void test_build_failure(void **state)
{
    (void)state;
    char dir[] = "/tmp/clpad-kernels-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], common[256], coords[256];
    /* coords.h and common.cl go in front of every family */
    snprintf(common, sizeof common, "%s/common.cl", dir);
    snprintf(coords, sizeof coords, "%s/coords.h", dir);
    FILE *f = fopen(common, "w");
    assert_non_null(f);
    fputs("/* shared helpers */\n/* (three lines, so that */\n/* line numbers move) */\n", f);
    fclose(f);
    f = fopen(coords, "w");
    assert_non_null(f);
    fputs("/* the coordinate rules */\n/* (two lines) */\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/pad.cl", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("__kernel void pad(__global uint *p) { this is not C; }\n", f);
    fclose(f);
    setenv("CLPAD_KERNEL_DIR", dir, 1);
    clpad_context *ctx = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, &ctx));
    /* The context read the directory when it was made: unset at once, so
     * that a failure below leaves the later tests the repository's kernels. */
    unsetenv("CLPAD_KERNEL_DIR");
    const seed_case *s = &seed_cases[1];
    int32_t out[40];
    TU_ASSERT_STATUS(clpad_pad(ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin,
                               s->pads_end, CLPAD_PAD_OPTIONS(s->mode), NULL, out, sizeof out,
                               NULL),
                     CLPAD_ERR_BUILD_FAILED);
    assert_non_null(strstr(clpad_last_error(), "-DCLPAD_PAD_EDGE"));
    const char *log = clpad_context_build_log(ctx);
    assert_non_null(strstr(log, "build options: -cl-std=CL1.2"));
    assert_non_null(strstr(log, "-DCLPAD_PAD_EDGE -DCLPAD_UNIT_BYTES="));
    assert_non_null(strstr(log, clpad_context_device_name(ctx)));
    /* The error is reported on line 1, pad.cl's own numbering: the #line in
     * front of each file names it, and where a driver ignores #line
     * (NVIDIA's prints "<kernel>:11:39") clpad names the file and line. */
    if (!strstr(log, "pad.cl:1:"))
        fail_msg("the build log does not report line 1 of pad.cl:\n%s", log);
    /* The context stays usable once the kernels are fixed: its kernel
     * directory (the context's, read when it was made) now holds the
     * repository's files. */
    const char *root = getenv("CLPAD_SOURCE_DIR");
    if (!root)
        fail_msg("CLPAD_SOURCE_DIR is not set (CTest sets it)");
    static const char *const fixed[] = {"coords.h", "common.cl", "pad.cl"};
    for (int i = 0; i < 3; i++) {
        char from[1024], to[256], buf[4096];
        snprintf(from, sizeof from, "%s/kernels/%s", root, fixed[i]);
        snprintf(to, sizeof to, "%s/%s", dir, fixed[i]);
        FILE *in = fopen(from, "rb"), *o = fopen(to, "wb");
        assert_non_null(in);
        assert_non_null(o);
        for (size_t k; (k = fread(buf, 1, sizeof buf, in)) > 0;)
            assert_int_equal(fwrite(buf, 1, k, o), k);
        fclose(in);
        fclose(o);
    }
    TU_ASSERT_OK(clpad_pad(ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin, s->pads_end,
                           CLPAD_PAD_OPTIONS(s->mode), NULL, out, sizeof out, NULL));
    assert_memory_equal(out, s->expect, sizeof out);
    clpad_context_destroy(ctx);
    unlink(path);
    unlink(common);
    unlink(coords);
    rmdir(dir);
}

/* The kernels name their variants: a program built without a pad mode, or
 * with an unknown unit size, is a build error that says so (#error), never
 * a silent default. Built here from the repository's kernel files. */
static void test_unknown_variant_is_build_error(void **state)
{
    (void)state;
    const char *root = getenv("CLPAD_SOURCE_DIR");
    if (!root)
        fail_msg("CLPAD_SOURCE_DIR is not set (CTest sets it)");
    static const char *const files[] = {"coords.h", "common.cl", "pad.cl"};
    char *text[3];
    for (int i = 0; i < 3; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/kernels/%s", root, files[i]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        text[i] = calloc((size_t)n + 1, 1);
        assert_int_equal(fread(text[i], 1, (size_t)n, f), (size_t)n);
        fclose(f);
    }
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_device_id dev = clpad_context_device(g_ctx);
    static const char *const options[] = {"-DCLPAD_UNIT_BYTES=4", /* no mode */
                                          "-DCLPAD_PAD_EDGE -DCLPAD_UNIT_BYTES=3",
                                          "-DCLPAD_PAD_EDGE" /* no unit */};
    static const char *const want[] = {"Unsupported pad mode", "Unsupported CLPAD_UNIT_BYTES",
                                       "needs -DCLPAD_UNIT_BYTES"};
    for (int i = 0; i < 3; i++) {
        cl_int err;
        cl_program p = clCreateProgramWithSource(cl, 3, (const char **)text, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        err = clBuildProgram(p, 1, &dev, options[i], NULL, NULL);
        assert_int_not_equal(err, CL_SUCCESS);
        size_t n = 0;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
        char *log = calloc(n + 1, 1);
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
        if (!strstr(log, want[i]))
            fail_msg("options '%s': the build log does not say '%s':\n%s", options[i], want[i],
                     log);
        free(log);
        clReleaseProgram(p);
    }
    for (int i = 0; i < 3; i++)
        free(text[i]);
}

/* The small-call policy: on a CPU device a small host-pointer call runs the
 * CPU path (info.used_opencl = 0, the same bytes), a large one the kernel;
 * CLPAD_CONTEXT_DEVICE_ONLY and $CLPAD_SMALL_CALL_BYTES=0 always run the
 * kernel; a GPU or accelerator always runs the kernel. */
static void test_small_call_policy(void **state)
{
    (void)state;
    cl_device_type type = 0;
    clGetDeviceInfo(clpad_context_device(g_ctx), CL_DEVICE_TYPE, sizeof type, &type, NULL);
    cl_bool unified = CL_FALSE;
    clGetDeviceInfo(clpad_context_device(g_ctx), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified,
                    &unified, NULL);
    const char *zc = getenv("CLPAD_ZERO_COPY");
    bool cpu_device = (type & CL_DEVICE_TYPE_CPU) && unified && !(zc && !strcmp(zc, "0"));
    const seed_case *s = &seed_cases[2];
    int32_t out[40], want[40];
    size_t n = (size_t)(s->out_shape[0] * s->out_shape[1]);
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin, s->pads_end,
                               CLPAD_PAD_OPTIONS(s->mode), NULL, want, n * 4));
    unsetenv("CLPAD_SMALL_CALL_BYTES");
    clpad_context *def = NULL, *dev = NULL, *off = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK, &def));
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY,
                                      &dev));
    setenv("CLPAD_SMALL_CALL_BYTES", "0", 1);
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK, &off));
    unsetenv("CLPAD_SMALL_CALL_BYTES");
    clpad_context *ctxs[3] = {def, dev, off};
    int want_opencl[3] = {!cpu_device, 1, 1};
    for (int k = 0; k < 3; k++) {
        clpad_run_info info;
        clpad_run_info_init(&info);
        memset(out, 0, sizeof out);
        TU_ASSERT_OK(clpad_pad(ctxs[k], CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin,
                               s->pads_end, CLPAD_PAD_OPTIONS(s->mode), NULL, out, n * 4, &info));
        assert_memory_equal(out, want, n * 4);
        if (info.used_opencl != want_opencl[k])
            fail_msg("context %d: used_opencl = %d, want %d (CPU device: %d)", k,
                     info.used_opencl, want_opencl[k], cpu_device);
    }
    /* A call beyond the threshold runs the kernel on the default context. */
    int64_t shape[1] = {(int64_t)16 << 20}, pb[1] = {1}, pe[1] = {1};
    unsigned char *big = calloc((size_t)shape[0] + 2, 1), *bout = malloc((size_t)shape[0] + 2);
    clpad_run_info info;
    clpad_run_info_init(&info);
    TU_ASSERT_OK(clpad_pad(def, CLPAD_U8, 1, shape, big, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                           NULL, bout, (size_t)shape[0] + 2, &info));
    assert_int_equal(info.used_opencl, 1);
    free(big);
    free(bout);
    for (int k = 0; k < 3; k++)
        clpad_context_destroy(ctxs[k]);
}

/* clpad_context_config against the environment: a field left at its
 * default takes the variable, a field the caller sets wins over it. */
static void test_config_over_environment(void **state)
{
    (void)state;
    const seed_case *s = &seed_cases[2];
    int32_t out[40];
    size_t n = (size_t)(s->out_shape[0] * s->out_shape[1]);
    clpad_context_config cfg;
    clpad_context *ctx = NULL;
    /* small_call_bytes: env 0 (never) against an explicit 1 MiB */
    setenv("CLPAD_SMALL_CALL_BYTES", "0", 1);
    for (int explicit_field = 0; explicit_field < 2; explicit_field++) {
        clpad_context_config_init(&cfg);
        cfg.flags = CLPAD_CONTEXT_NO_FALLBACK;
        if (explicit_field)
            cfg.small_call_bytes = 1 << 20;
        TU_ASSERT_OK(clpad_context_create(&cfg, &ctx));
        clpad_run_info info;
        clpad_run_info_init(&info);
        TU_ASSERT_OK(clpad_pad(ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin,
                               s->pads_end, CLPAD_PAD_OPTIONS(s->mode), NULL, out, n * 4, &info));
        clpad_context_destroy(ctx);
        /* the CPU path only where the device is a CPU with unified memory */
        if (explicit_field ? info.used_opencl && !strstr(clpad_context_tuning(g_ctx), "gpu") &&
                                 strcmp(clpad_context_tuning(g_ctx), "oclgrind")
                           : !info.used_opencl)
            fail_msg("small_call_bytes %s: used_opencl = %d", explicit_field ? "1 MiB" : "env 0",
                     info.used_opencl);
    }
    unsetenv("CLPAD_SMALL_CALL_BYTES");
    /* device: a name in the environment that matches nothing, against the
     * device the default context has */
    setenv("CLPAD_DEVICE", "no device has this name", 1);
    clpad_context_config_init(&cfg);
    cfg.flags = CLPAD_CONTEXT_NO_FALLBACK;
    TU_ASSERT_STATUS(clpad_context_create(&cfg, &ctx), CLPAD_ERR_DEVICE_NOT_FOUND);
    assert_non_null(strstr(clpad_last_error(), "no device has this name"));
    cfg.device = clpad_context_device_name(g_ctx);
    TU_ASSERT_OK(clpad_context_create(&cfg, &ctx));
    clpad_context_destroy(ctx);
    unsetenv("CLPAD_DEVICE");
}

int main(void)
{
    g_ctx = tu_device_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_examples),  cmocka_unit_test(test_random_small),
        cmocka_unit_test(test_random_rows),    cmocka_unit_test(test_many_short_rows),
        cmocka_unit_test(test_image_like),     cmocka_unit_test(test_short_rows),
        cmocka_unit_test(test_wide_elements),  cmocka_unit_test(test_mixed_modes_and_large_pads),
        cmocka_unit_test(test_copy_and_empty), cmocka_unit_test(test_wait_list),
        cmocka_unit_test(test_buffer_checks),  cmocka_unit_test(test_wrap_and_warmup),
        cmocka_unit_test(test_build_failure),  cmocka_unit_test(test_unknown_variant_is_build_error),
        cmocka_unit_test(test_small_call_policy), cmocka_unit_test(test_config_over_environment),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clpad_context_destroy(g_ctx);
    return rc;
}
