/* The implementation matrix (CTest label `impl`; tests/impl/run.sh selects
 * the OpenCL implementation): a lean differential set of Pad and
 * SpaceToBatch / BatchToSpace cases against the CPU reference, in both launch
 * geometries (CLPAD_GEOMETRY=cpu, =gpu) and on both host-pointer paths
 * (zero-copy and copies), through the host-pointer API and the enqueue API
 * (guard bands, non-zero offsets); pad-and-stack (per-side constants) and
 * numpy.pad's statistic, odd-reflection and ramp modes on both geometries;
 * then each device quirk's proof: a
 * stand-alone kernel that reproduces the implementation's bug, and, where it
 * shows, clpad right with the quirk and wrong (or failing) without it
 * (CLPAD_QUIRKS=off, or =-NAME). A quirk that applies where its bug does not show fails
 * too: the table must match the devices.
 *
 * The cases are few but cover every pad mode, every unit size (1, 2, 4, 8
 * bytes), elements of several units, crops, 6-D tensors with every outer
 * axis padded, per-axis modes on ranks 3 and 4, and work-items past the end
 * of a work-group's rows; each implementation compiles 9 pad and 4
 * space/batch programs. Exits 77
 * (skipped) without an OpenCL device. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { GUARD = 64, CANARY = 0xA5 };

static bool g_reduced; /* Oclgrind: the simulator is slow; large cases left out */

/* ---- contexts: geometry x host path ------------------------------------------ */

/* A device context with the launch geometry `geo` ("cpu"/"gpu") and the
 * host-pointer path zero-copy (zc) or copying; quirks on or "off". */
static clpad_context *make_ctx(const char *geo, bool zc, const char *quirks)
{
    setenv("CLPAD_GEOMETRY", geo, 1);
    if (zc)
        unsetenv("CLPAD_ZERO_COPY");
    else
        setenv("CLPAD_ZERO_COPY", "0", 1);
    if (quirks)
        setenv("CLPAD_QUIRKS", quirks, 1);
    clpad_context *ctx = NULL;
    clpad_status st =
        tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, &ctx);
    unsetenv("CLPAD_GEOMETRY");
    unsetenv("CLPAD_ZERO_COPY");
    unsetenv("CLPAD_QUIRKS");
    if (st)
        fail_msg("context (%s geometry, %s): %s: %s", geo, zc ? "zero-copy" : "copies",
                 clpad_status_name(st), clpad_last_error());
    return ctx;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Whether the device has host-unified memory (zero-copy is possible). */
static bool device_unified(clpad_context *ctx)
{
    cl_bool u = CL_FALSE;
    clGetDeviceInfo(clpad_context_device(ctx), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof u, &u,
                    NULL);
    return u == CL_TRUE;
}

/* Copy `n` bytes into a fresh device buffer at byte `off`, the rest CANARY. */
static cl_mem guarded_buffer(clpad_context *ctx, const void *data, size_t n, size_t off,
                             size_t total)
{
    unsigned char *h = malloc(total);
    memset(h, CANARY, total);
    if (data)
        memcpy(h + off, data, n);
    cl_int err;
    cl_mem m = clCreateBuffer(clpad_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total, h, &err);
    assert_int_equal(err, CL_SUCCESS);
    free(h);
    return m;
}

/* Read back a guarded output: the bytes [off, off + n) into got, and check
 * the guard bands around them. */
static void read_guarded(clpad_context *ctx, cl_mem m, size_t off, size_t n, size_t total,
                         cl_event ev, void *got, const char *what)
{
    unsigned char *h = malloc(total);
    assert_int_equal(clEnqueueReadBuffer(clpad_context_queue(ctx), m, CL_TRUE, 0, total, h,
                                         ev ? 1 : 0, ev ? &ev : NULL, NULL),
                     CL_SUCCESS);
    for (size_t k = 0; k < total; k++)
        if ((k < off || k >= off + n) && h[k] != CANARY)
            fail_msg("%s: byte %zu outside the output was written", what, k);
    memcpy(got, h + off, n);
    free(h);
}

/* ---- Pad --------------------------------------------------------------------- */

typedef struct pad_case {
    const char *what;
    clpad_dtype dtype;
    clpad_pad_mode mode;
    int rank;
    int64_t shape[8], pb[8], pe[8];
    bool large;        /* left out on Oclgrind */
    const char *modes; /* per-axis modes, outermost first (clpad_pad); NULL: `mode` */
} pad_case;

/* Every mode, every unit size (u8 x3 channels: 1-byte units, 3 per element;
 * f16: 2; f32: 4; i64: 8), crops, 6-D with every outer axis padded, short
 * and long rows, and rows that leave work-items of the last work-group
 * without a row (CPU geometry). */
static const pad_case k_pad_cases[] = {
    {"NHWC image, 3 channels", CLPAD_U8, CLPAD_PAD_CONSTANT, 4, {1, 19, 23, 3},
     {0, 2, 3, 0}, {0, 5, -1, 0}, false, NULL},
    {"6-D, every axis padded, crops", CLPAD_I8, CLPAD_PAD_SYMMETRIC, 6, {4, 4, 5, 3, 2, 4},
     {1, 1, 1, -1, 1, 2}, {1, -1, 1, 1, 1, -1}, false, NULL},
    {"6-D, pads 1", CLPAD_I8, CLPAD_PAD_SYMMETRIC, 6, {4, 4, 5, 3, 2, 4},
     {1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}, false, NULL},
    {"3-D short rows, a partial last work-group", CLPAD_I8, CLPAD_PAD_SYMMETRIC, 3,
     {40, 30, 4}, {1, 1, 1}, {1, 1, 1}, false, NULL},
    {"long rows", CLPAD_F16, CLPAD_PAD_EDGE, 3, {2, 7, 301}, {0, 2, 9}, {1, 1, -3}, false,
     NULL},
    {"short rows (lean loop)", CLPAD_F16, CLPAD_PAD_EDGE, 3, {3, 9, 40}, {0, 1, 1},
     {0, 2, 1}, false, NULL},
    {"4-D crops", CLPAD_F32, CLPAD_PAD_REFLECT, 4, {2, 3, 5, 19}, {0, 2, -1, 4},
     {1, -1, 3, 18}, false, NULL},
    {"wraps more than once", CLPAD_I64, CLPAD_PAD_WRAP, 3, {2, 3, 5}, {1, 7, 11}, {0, 4, 12},
     false, NULL},
    {"larger NCHW plane", CLPAD_F32, CLPAD_PAD_REFLECT, 4, {1, 3, 130, 150}, {0, 0, 7, 9},
     {0, 0, 8, 6}, true, NULL},
    /* Per-axis modes (the kernel reads the outer axes' modes at run time):
     * rank 3 and 4 with every outer axis padded in a mode that reads the
     * input, and an NHWC image whose channels ride along. */
    {"3-D, per-axis modes", CLPAD_I32, CLPAD_PAD_WRAP, 3, {3, 4, 5}, {1, 2, 3}, {2, 1, 2},
     false, "edge,edge,wrap"},
    {"4-D, per-axis modes", CLPAD_F32, CLPAD_PAD_SYMMETRIC, 4, {2, 3, 4, 5}, {1, 2, 1, 2},
     {1, 1, 2, 3}, false, "reflect,wrap,edge,symmetric"},
    {"NHWC, per-axis modes, 3 channels", CLPAD_U8, CLPAD_PAD_WRAP, 4, {2, 6, 7, 3},
     {1, 2, 3, 0}, {1, 1, 2, 0}, false, "edge,symmetric,wrap,constant"},
};

/* The case's pad options: `modes` parsed, or `mode` on every axis. */
static void case_options(const pad_case *c, clpad_pad_options *o)
{
    clpad_pad_options_init(o, c->mode);
    if (!c->modes)
        return;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", c->modes);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        TU_ASSERT_OK(clpad_pad_mode_parse(t, &o->modes[n++], NULL));
    assert_int_equal(n, c->rank);
}

static size_t pad_bytes(const pad_case *c, int64_t *out_shape, size_t *nin)
{
    clpad_pad_options o;
    case_options(c, &o);
    TU_ASSERT_OK(clpad_pad_output_shape(c->rank, c->shape, c->pb, c->pe, &o, out_shape));
    size_t es = clpad_dtype_size(c->dtype);
    *nin = (size_t)tu_elems(c->rank, c->shape) * es;
    return (size_t)tu_elems(c->rank, out_shape) * es;
}

/* One case on ctx: the host-pointer API, and (enqueue) the enqueue API with
 * guard bands and offsets; both equal the CPU reference. Returns 0, or the
 * number of differing bytes (the caller decides whether that is a failure). */
static size_t pad_check(clpad_context *ctx, const pad_case *c, bool enqueue,
                        const char *where, bool must_pass, clpad_run_info *info)
{
    int64_t os[8];
    size_t nin, nout = pad_bytes(c, os, &nin);
    size_t es = clpad_dtype_size(c->dtype);
    unsigned char *in = malloc(nin + 1), *want = malloc(nout + 1), *got = malloc(nout + 1);
    uint64_t rng = 0x1234 + nin;
    tu_fill(in, nin, &rng);
    unsigned char value[8];
    tu_fill(value, sizeof value, &rng);
    clpad_pad_options o;
    case_options(c, &o);
    TU_ASSERT_OK(
        clpad_pad_cpu(c->dtype, c->rank, c->shape, in, c->pb, c->pe, &o, value, want, nout));
    memset(got, 0x5A, nout);
    clpad_run_info ri;
    clpad_run_info_init(&ri);
    if (c->modes)
        TU_ASSERT_OK(clpad_pad(ctx, c->dtype, c->rank, c->shape, in, c->pb, c->pe, &o, value, got,
                               nout, &ri));
    else
        TU_ASSERT_OK(clpad_pad(ctx, c->dtype, c->rank, c->shape, in, c->pb, c->pe,
                               CLPAD_PAD_OPTIONS(c->mode), value, got, nout, &ri));
    assert_int_equal(ri.used_opencl, 1);
    if (info)
        *info = ri;
    size_t bad = 0;
    for (size_t k = 0; k < nout; k++)
        bad += got[k] != want[k];
    if (bad && must_pass)
        fail_msg("%s: pad %s (%s %s): host API: %zu of %zu bytes differ", where, c->what,
                 c->modes ? c->modes : clpad_pad_mode_name(c->mode), clpad_dtype_name(c->dtype),
                 bad, nout);
    if (enqueue) {
        size_t in_off = 8 * es, out_off = GUARD;
        cl_mem bin = guarded_buffer(ctx, in, nin, in_off, in_off + nin + GUARD);
        cl_mem bout = guarded_buffer(ctx, NULL, 0, 0, out_off + nout + GUARD);
        cl_event ev = NULL;
        if (c->modes)
            TU_ASSERT_OK(clpad_enqueue_pad(ctx, c->dtype, c->rank, c->shape, bin, in_off, c->pb,
                                           c->pe, &o, value, bout, out_off, NULL, 0, NULL, &ev));
        else
            TU_ASSERT_OK(clpad_enqueue_pad(ctx, c->dtype, c->rank, c->shape, bin, in_off, c->pb,
                                           c->pe, CLPAD_PAD_OPTIONS(c->mode), value, bout, out_off,
                                           NULL, 0, NULL, &ev));
        char what[256];
        snprintf(what, sizeof what, "%s: pad %s, enqueue API", where, c->what);
        read_guarded(ctx, bout, out_off, nout, out_off + nout + GUARD, ev, got, what);
        clReleaseEvent(ev);
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
        size_t bad_e = 0;
        for (size_t k = 0; k < nout; k++)
            bad_e += got[k] != want[k];
        if (bad_e && must_pass)
            fail_msg("%s: %zu of %zu bytes differ", what, bad_e, nout);
        bad += bad_e;
    }
    free(in);
    free(want);
    free(got);
    return bad;
}

/* ---- SpaceToBatch / BatchToSpace ------------------------------------------------ */

typedef struct sb_case {
    const char *what;
    clpad_dtype dtype;
    int rank;
    int64_t shape[8], block[8], begin[8], end[8];
    bool large;
} sb_case;

/* Every unit size; the seed example's shape; channels as multi-unit elements;
 * blocks of 2, 3, 4 and 5. */
static const sb_case k_sb_cases[] = {
    {"5-D, blocks 2, 4, 3", CLPAD_I8, 5, {2, 6, 10, 3, 3}, {1, 2, 4, 3, 1}, {0, 0, 1, 0, 0},
     {0, 0, 1, 0, 0}, false},
    {"NHWC, 3 channels", CLPAD_BF16, 4, {2, 10, 13, 3}, {1, 2, 3, 1}, {0, 1, 1, 0},
     {0, 1, 1, 0}, false},
    {"4-D, block 5", CLPAD_U32, 4, {1, 3, 9, 17}, {1, 1, 2, 5}, {0, 0, 0, 2}, {0, 0, 1, 1},
     false},
    {"3-D", CLPAD_I64, 3, {3, 7, 6}, {1, 3, 2}, {0, 1, 0}, {0, 1, 2}, false},
    {"larger NCHW", CLPAD_F32, 4, {2, 3, 66, 70}, {1, 1, 2, 2}, {0, 0, 1, 1}, {0, 0, 1, 1},
     true},
};

/* SpaceToBatch of a case, then BatchToSpace of its result with the same
 * blocks and crops = pads (which must give the input back): both on the
 * host-pointer API and (enqueue) the enqueue API, against the CPU reference. */
static void sb_check(clpad_context *ctx, const sb_case *c, bool enqueue, const char *where)
{
    int64_t os[8];
    TU_ASSERT_OK(
        clpad_space_to_batch_output_shape(c->rank, c->shape, c->block, c->begin, c->end, os));
    size_t es = clpad_dtype_size(c->dtype);
    size_t nin = (size_t)tu_elems(c->rank, c->shape) * es;
    size_t nout = (size_t)tu_elems(c->rank, os) * es;
    unsigned char *in = malloc(nin), *want = malloc(nout), *got = malloc(nout),
                  *back = malloc(nin);
    uint64_t rng = 0x5B + nin;
    tu_fill(in, nin, &rng);
    TU_ASSERT_OK(clpad_space_to_batch_cpu(c->dtype, c->rank, c->shape, in, c->block, c->begin,
                                          c->end, want, nout));
    memset(got, 0x5A, nout);
    TU_ASSERT_OK(clpad_space_to_batch(ctx, c->dtype, c->rank, c->shape, in, c->block, c->begin,
                                      c->end, got, nout, NULL));
    if (memcmp(got, want, nout))
        fail_msg("%s: space_to_batch %s: host API differs from the CPU reference", where,
                 c->what);
    memset(back, 0x5A, nin);
    TU_ASSERT_OK(clpad_batch_to_space(ctx, c->dtype, c->rank, os, want, c->block, c->begin,
                                      c->end, back, nin, NULL));
    if (memcmp(back, in, nin))
        fail_msg("%s: batch_to_space %s: host API round trip differs", where, c->what);
    if (enqueue) {
        size_t in_off = 3 * es, out_off = GUARD;
        cl_mem bin = guarded_buffer(ctx, in, nin, in_off, in_off + nin + GUARD);
        cl_mem bout = guarded_buffer(ctx, NULL, 0, 0, out_off + nout + GUARD);
        cl_mem bback = guarded_buffer(ctx, NULL, 0, 0, GUARD + nin + GUARD);
        cl_event e1 = NULL, e2 = NULL;
        TU_ASSERT_OK(clpad_enqueue_space_to_batch(ctx, c->dtype, c->rank, c->shape, bin, in_off,
                                                  c->block, c->begin, c->end, bout, out_off,
                                                  NULL, 0, NULL, &e1));
        TU_ASSERT_OK(clpad_enqueue_batch_to_space(ctx, c->dtype, c->rank, os, bout, out_off,
                                                  c->block, c->begin, c->end, bback, GUARD,
                                                  NULL, 1, &e1, &e2));
        char what[256];
        snprintf(what, sizeof what, "%s: space_to_batch %s, enqueue API", where, c->what);
        read_guarded(ctx, bout, out_off, nout, out_off + nout + GUARD, e2, got, what);
        if (memcmp(got, want, nout))
            fail_msg("%s: differs from the CPU reference", what);
        snprintf(what, sizeof what, "%s: batch_to_space %s, enqueue API", where, c->what);
        read_guarded(ctx, bback, GUARD, nin, GUARD + nin + GUARD, NULL, back, what);
        if (memcmp(back, in, nin))
            fail_msg("%s: the round trip differs", what);
        clReleaseEvent(e1);
        clReleaseEvent(e2);
        clReleaseMemObject(bin);
        clReleaseMemObject(bout);
        clReleaseMemObject(bback);
    }
    free(in);
    free(want);
    free(got);
    free(back);
}

/* ---- The matrix ------------------------------------------------------------------ */

/* Every case on every context: geometry cpu and gpu x zero-copy and copies
 * (zero-copy only where the device has host-unified memory); the enqueue API
 * once per geometry. */
static void test_matrix(void **state)
{
    (void)state;
    static const char *const geos[] = {"cpu", "gpu"};
    int runs = 0;
    double t0 = now_s();
    for (int g = 0; g < 2; g++) {
        for (int zc = 1; zc >= 0; zc--) {
            clpad_context *ctx = make_ctx(geos[g], zc, NULL);
            if (zc && !device_unified(ctx)) { /* the same as copies here */
                clpad_context_destroy(ctx);
                continue;
            }
            char where[128];
            snprintf(where, sizeof where, "%s geometry, %s", geos[g], zc ? "zero-copy" : "copies");
            for (size_t i = 0; i < sizeof k_pad_cases / sizeof *k_pad_cases; i++) {
                if (g_reduced && k_pad_cases[i].large)
                    continue;
                clpad_run_info ri;
                clpad_run_info_init(&ri);
                pad_check(ctx, &k_pad_cases[i], zc || !device_unified(ctx), where, true, &ri);
                if (zc && !ri.zero_copy)
                    fail_msg("%s: pad %s did not run zero-copy", where, k_pad_cases[i].what);
                runs++;
            }
            for (size_t i = 0; i < sizeof k_sb_cases / sizeof *k_sb_cases; i++) {
                if (g_reduced && k_sb_cases[i].large)
                    continue;
                sb_check(ctx, &k_sb_cases[i], zc || !device_unified(ctx), where);
                runs++;
            }
            clpad_context_destroy(ctx);
            printf("%s: every case equals the CPU reference (%.1f s so far)\n", where,
                   now_s() - t0);
        }
    }
    printf("%d case runs on %s\n", runs, getenv("CLPAD_TEST_IMPL") ? getenv("CLPAD_TEST_IMPL")
                                                                   : "the default device");
    assert_true(runs >= 20);
}

/* ---- Pad-and-stack and numpy.pad's modes ---------------------------------------------- */

/* Pad-and-stack (a mode and per-side constants) and clpad_pad_numpy's modes
 * (statistics over part of an axis and the whole axis, odd reflections, the
 * ramp) on each geometry: the device equals the CPU reference byte for byte,
 * and the device ran (run info). */
static void test_stack_and_numpy(void **state)
{
    (void)state;
    static const char *const geos[] = {"cpu", "gpu"};
    int runs = 0;
    for (int g = 0; g < 2; g++) {
        clpad_context *ctx = make_ctx(geos[g], true, NULL);
        /* pad-and-stack: 5 u8 tensors [L, 7, 3] into [5, max L + 1, 9, 3] */
        enum { N = 5 };
        int64_t shapes[N * 3] = {4, 7, 3, 9, 7, 3, 1, 7, 3, 6, 7, 3, 0, 7, 3};
        const int64_t shape[3] = {10, 9, 3};
        unsigned char bufs[N][9 * 7 * 3];
        const void *ins[N];
        uint64_t rng = 0x51AC + (uint64_t)g;
        for (int i = 0; i < N; i++) {
            tu_fill(bufs[i], sizeof bufs[i], &rng);
            ins[i] = bufs[i];
        }
        const size_t nout = (size_t)N * 10 * 9 * 3;
        unsigned char want[N * 10 * 9 * 3], got[N * 10 * 9 * 3];
        const unsigned char sides[6] = {7, 200, 11, 13, 0, 0};
        for (int v = 0; v < 3; v++) {
            clpad_pad_options o;
            clpad_pad_options_init(&o, v == 2 ? CLPAD_PAD_EDGE : CLPAD_PAD_CONSTANT);
            if (v == 1)
                o.side_values = sides;
            shapes[12] = v == 2 ? 2 : 0; /* an empty tensor, where the mode allows it */
            const unsigned char value = 114;
            clpad_placement pl = v ? CLPAD_PLACE_CENTER : CLPAD_PLACE_END;
            TU_ASSERT_OK(clpad_pad_stack_cpu(CLPAD_U8, 3, N, shapes, ins, shape, &o, &value, pl,
                                             want, nout));
            memset(got, 0x5A, nout);
            clpad_run_info ri;
            clpad_run_info_init(&ri);
            TU_ASSERT_OK(clpad_pad_stack(ctx, CLPAD_U8, 3, N, shapes, ins, shape, &o, &value, pl,
                                         got, nout, &ri));
            assert_int_equal(ri.used_opencl, 1);
            if (memcmp(got, want, nout))
                fail_msg("%s geometry: pad_stack variant %d differs from the CPU reference",
                         geos[g], v);
            runs++;
        }
        /* numpy.pad's modes on [3, 17, 19] i32 and f32 */
        const int64_t nshape[3] = {3, 17, 19}, pb[3] = {1, 2, 3}, pe[3] = {2, 1, 4};
        const int64_t sb[3] = {1, -1, 2}, se[3] = {2, 5, -1};
        const size_t nin = 3 * 17 * 19, nel = 6 * 20 * 26;
        for (int d = 0; d < 2; d++) {
            clpad_dtype dt = d ? CLPAD_F32 : CLPAD_I32;
            int32_t in[3 * 17 * 19];
            for (size_t k = 0; k < nin; k++) {
                int32_t r = (int32_t)(tu_rand(&rng) % 2001) - 1000;
                if (d) {
                    float f = (float)r / 7.0f;
                    memcpy(&in[k], &f, 4);
                } else {
                    in[k] = r;
                }
            }
            int32_t *w = malloc(nel * 4), *o = malloc(nel * 4);
            for (int m = 0; m < CLPAD_NUMPY_MODE_COUNT; m++) {
                TU_ASSERT_OK(clpad_pad_numpy_cpu(dt, 3, nshape, in, pb, pe, (clpad_numpy_mode)m,
                                                 sb, se, w, nel * 4));
                memset(o, 0x5A, nel * 4);
                clpad_run_info ri;
                clpad_run_info_init(&ri);
                clpad_status st = clpad_pad_numpy(ctx, dt, 3, nshape, in, pb, pe,
                                                  (clpad_numpy_mode)m, sb, se, o, nel * 4, &ri);
                if (st == CLPAD_ERR_UNSUPPORTED) { /* no doubles: integer means */
                    printf("%s geometry: numpy mode %d on %s: %s\n", geos[g], m,
                           clpad_dtype_name(dt), clpad_last_error());
                    continue;
                }
                TU_ASSERT_OK(st);
                assert_int_equal(ri.used_opencl, 1);
                if (memcmp(o, w, nel * 4))
                    fail_msg("%s geometry: pad_numpy mode %d on %s differs from the CPU "
                             "reference",
                             geos[g], m, clpad_dtype_name(dt));
                runs++;
            }
            free(w);
            free(o);
        }
        clpad_context_destroy(ctx);
    }
    printf("%d pad_stack / pad_numpy runs on %s\n", runs,
           getenv("CLPAD_TEST_IMPL") ? getenv("CLPAD_TEST_IMPL") : "the default device");
    assert_true(runs >= 6);
}

/* ---- Quirk proofs: stand-alone reproducers ------------------------------------------- */

static cl_program build(clpad_context *ctx, const char *src, cl_int *build_err)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(clpad_context_cl_context(ctx), 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_device_id dev = clpad_context_device(ctx);
    *build_err = clBuildProgram(p, 1, &dev, "", NULL, NULL);
    return p;
}

static bool has_quirk(clpad_context *ctx, const char *name)
{
    const char *q = clpad_context_quirks(ctx);
    size_t n = strlen(name);
    for (const char *s = q; (s = strstr(s, name)) != NULL; s += n)
        if ((s == q || s[-1] == ',') && (s[n] == '\0' || s[n] == ','))
            return true;
    return false;
}

/* The table must match the device: the quirk applies exactly where the bug
 * shows. */
static void check_table(clpad_context *ctx, const char *quirk, bool bug, const char *bug_text)
{
    printf("%s: %s on %s (driver quirks applied: \"%s\")\n", quirk,
           bug ? "the bug shows" : "no bug", clpad_context_platform_name(ctx),
           clpad_context_quirks(ctx));
    if (bug && !has_quirk(ctx, quirk))
        fail_msg("%s shows (%s) but the quirk table does not apply '%s' to this device", bug_text,
                 clpad_context_device_name(ctx), quirk);
    if (!bug && has_quirk(ctx, quirk))
        fail_msg("quirk '%s' applies to %s, but its reproducer shows no bug: bound the "
                 "table entry's driver versions (host/device/quirks.c)",
                 quirk, clpad_context_device_name(ctx));
}

/* map-blocking: unmapping the pointer a non-blocking map returned, before the
 * map has run. */
static void test_quirk_map_blocking(void **state)
{
    (void)state;
    clpad_context *ctx = make_ctx("cpu", true, NULL);
    if (!device_unified(ctx)) {
        clpad_context_destroy(ctx);
        printf("skipped: no host-unified memory, so clpad never maps in place here\n");
        skip();
    }
    cl_int err;
    enum { N = 4096 };
    unsigned char *host = aligned_alloc(4096, N);
    cl_mem b = clCreateBuffer(clpad_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                              N, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = clpad_context_queue(ctx);
    cl_uint pattern = 0x01020304;
    cl_event fill;
    assert_int_equal(clEnqueueFillBuffer(q, b, &pattern, 4, 0, N, 0, NULL, &fill), CL_SUCCESS);
    void *p = clEnqueueMapBuffer(q, b, CL_FALSE, CL_MAP_READ, 0, N, 1, &fill, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_int unmap = clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    if (unmap != CL_SUCCESS) { /* the mapping is registered by now */
        assert_int_equal(clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clFinish(q), CL_SUCCESS);
    }
    clReleaseEvent(fill);
    clReleaseMemObject(b);
    free(host);
    bool bug = unmap == CL_INVALID_VALUE;
    check_table(ctx, "map-blocking", bug, "unmap after a non-blocking map fails");
    /* With the quirk: zero-copy works. Without: the call still succeeds (the
     * map failure falls back to copies) and the context remembers. */
    const pad_case *c = &k_pad_cases[0];
    clpad_run_info ri;
    clpad_run_info_init(&ri);
    pad_check(ctx, c, false, "map-blocking, quirks on", true, &ri);
    assert_int_equal(ri.zero_copy, 1);
    clpad_context_destroy(ctx);
    setenv("CLPAD_NONTEMPORAL", "off", 1); /* no other quirk's bug in the way */
    ctx = make_ctx("cpu", true, "off");
    unsetenv("CLPAD_NONTEMPORAL");
    pad_check(ctx, c, false, "map-blocking, quirks off", true, &ri);
    assert_int_equal(ri.zero_copy, !bug);
    pad_check(ctx, c, false, "map-blocking, quirks off, again", true, &ri);
    assert_int_equal(ri.zero_copy, !bug);
    clpad_context_destroy(ctx);
}

/* no-mem-fence: a 2-D range of work-groups 1 x 4 whose work-items pass a
 * mem_fence() a different number of times (rows of work per item, some
 * items past the end). Every row must be written. */
static const char k_fence_src[] =
    "__kernel void k(__global int *out, long n, long per)\n"
    "{\n"
    "    long i0 = (long)get_global_id(1) * per;\n"
    "    if (i0 >= n)\n"
    "        return;\n"
    "    for (long i = i0; i < min(i0 + per, n); i++) {\n"
    "        out[i] = (int)i;\n"
    "        mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
    "    }\n"
    "}\n";

static void test_quirk_no_mem_fence(void **state)
{
    (void)state;
    clpad_context *ctx = make_ctx("cpu", false, NULL);
    cl_int berr, err;
    cl_program p = build(ctx, k_fence_src, &berr);
    assert_int_equal(berr, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    enum { ROWS = 27 };
    cl_long n = ROWS, per = 5;
    int init[ROWS];
    memset(init, 0xFF, sizeof init);
    cl_mem b = clCreateBuffer(clpad_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              sizeof init, init, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof per, &per), CL_SUCCESS);
    size_t global[2] = {1, 8}, local[2] = {1, 4};
    cl_command_queue q = clpad_context_queue(ctx);
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL),
                     CL_SUCCESS);
    int out[ROWS];
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    int unwritten = 0;
    for (int i = 0; i < ROWS; i++)
        unwritten += out[i] != i;
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    bool bug = unwritten > 0;
    if (bug)
        printf("reproducer: %d of %d rows unwritten\n", unwritten, ROWS);
    check_table(ctx, "no-mem-fence", bug, "mem_fence() stops work-items");
    /* The case that met it: short rows, the last work-group partly past the
     * end (CPU geometry), with streaming stores built in (CPU devices). */
    const pad_case *c = &k_pad_cases[3];
    pad_check(ctx, c, false, "no-mem-fence, quirks on", true, NULL);
    clpad_context_destroy(ctx);
    if (bug) {
        ctx = make_ctx("cpu", false, "off");
        size_t bad = pad_check(ctx, c, false, "no-mem-fence, quirks off", false, NULL);
        clpad_context_destroy(ctx);
        printf("without the quirk: %zu bytes wrong\n", bad);
        if (!bad)
            fail_msg("the bug shows, but pad '%s' is right without the quirk: the test no longer "
                     "proves the workaround",
                     c->what);
    }
}

/* loop-limit: one work-item running a loop of 200000 iterations whose
 * result depends on every one (no closed form for the compiler). */
static const char k_loop_src[] =
    "__kernel void k(__global uint *out, int n)\n"
    "{\n"
    "    uint c = 1u;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c = c * 1103515245u + (uint)i;\n"
    "    out[0] = c;\n"
    "}\n";

/* A letterbox whose work-items loop over many taps: pil-lanczos of a
 * 400 x 320 image to 64 x 48 (41 x 41 taps a sample), on the device path
 * (DEVICE_ONLY), against the CPU reference; the bytes that differ. */
static size_t lanczos_check(clpad_context *ctx)
{
    enum { H = 400, W = 320, C = 3 };
    static unsigned char px[H * W * C];
    uint64_t rng = 0x10051;
    tu_fill(px, sizeof px, &rng);
    clpad_image im = {.data = px, .height = H, .width = W, .channels = C};
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 64, 48);
    o.interp = CLPAD_INTERP_PIL_LANCZOS;
    o.dtype = CLPAD_U8;
    unsigned char want[64 * 48 * C], got[64 * 48 * C];
    TU_ASSERT_OK(clpad_letterbox_cpu(&im, 1, &o, want, sizeof want, NULL));
    memset(got, 0xA5, sizeof got);
    TU_ASSERT_OK(clpad_letterbox(ctx, &im, 1, &o, got, sizeof got, NULL, NULL));
    size_t bad = 0;
    for (size_t i = 0; i < sizeof got; i++)
        bad += got[i] != want[i];
    return bad;
}

static void test_quirk_loop_limit(void **state)
{
    (void)state;
    clpad_context *ctx = make_ctx("cpu", false, NULL);
    cl_int berr, err;
    cl_program p = build(ctx, k_loop_src, &berr);
    assert_int_equal(berr, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_int n = 200000;
    cl_uint init = 0, want = 1u, out = 0;
    for (cl_int i = 0; i < n; i++)
        want = want * 1103515245u + (cl_uint)i;
    cl_mem b = clCreateBuffer(clpad_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              sizeof init, &init, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    size_t global = 1;
    cl_command_queue q = clpad_context_queue(ctx);
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &global, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                     CL_SUCCESS);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    bool bug = out != want;
    if (bug)
        printf("reproducer: a loop of %d iterations gave %u, not %u\n", (int)n, out, want);
    check_table(ctx, "loop-limit", bug, "long loops end early");
    /* the case that met it (too slow for the simulator) */
    if (!g_reduced) {
        size_t bad = lanczos_check(ctx);
        if (bad)
            fail_msg("pil-lanczos with the quirks on: %zu bytes differ from the CPU reference", bad);
    }
    clpad_context_destroy(ctx);
    if (bug) {
        ctx = make_ctx("cpu", false, "off");
        size_t bad = lanczos_check(ctx);
        clpad_context_destroy(ctx);
        printf("without the quirk: %zu bytes wrong\n", bad);
        if (!bad)
            fail_msg("the bug shows, but pil-lanczos is right without the quirk: the test no "
                     "longer proves the workaround");
    }
}

/* The letterbox kernel's OpenCV kinds (docs/letterbox.md, "Resize"): one
 * batch whose images take each path of area (a 2 x 2 box, a 3 x 2 box, the
 * general reduction's float sums, one axis enlarged and one reduced), or
 * the same sizes through bicubic (float and integer samples of its vertical
 * pass), on the device path, against the CPU reference; the bytes that
 * differ. */
static size_t cv_kind_check(clpad_context *ctx, clpad_interp interp)
{
    enum { N = 4, H = 10, W = 14, C = 3 };
    static const int64_t sizes[N][2] = {{20, 28}, {30, 28}, {37, 61}, {7, 50}};
    static unsigned char px[N][37 * 61 * C];
    clpad_image im[N];
    uint64_t rng = 0xA4EA;
    for (int i = 0; i < N; i++) {
        tu_fill(px[i], sizeof px[i], &rng);
        im[i] = (clpad_image){.data = px[i], .height = sizes[i][0], .width = sizes[i][1],
                              .channels = C};
    }
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, H, W);
    o.interp = interp;
    o.fit = CLPAD_FIT_STRETCH;
    o.dtype = CLPAD_U8;
    static unsigned char want[N * H * W * C], got[N * H * W * C];
    TU_ASSERT_OK(clpad_letterbox_cpu(im, N, &o, want, sizeof want, NULL));
    memset(got, 0xA5, sizeof got);
    clpad_run_info ri;
    clpad_run_info_init(&ri);
    TU_ASSERT_OK(clpad_letterbox(ctx, im, N, &o, got, sizeof got, NULL, &ri));
    if (!ri.used_opencl && !has_quirk(ctx, "loop-limit"))
        fail_msg("%s did not run on the device", clpad_interp_name(interp));
    size_t bad = 0;
    for (size_t i = 0; i < sizeof got; i++)
        bad += got[i] != want[i];
    return bad;
}

static void test_letterbox_opencv_kinds(void **state)
{
    (void)state;
    static const clpad_interp kinds[2] = {CLPAD_INTERP_AREA, CLPAD_INTERP_BICUBIC};
    for (int i = 0; i < 2; i++) {
        const char *name = clpad_interp_name(kinds[i]);
        clpad_context *ctx = make_ctx("cpu", false, NULL);
        bool loops = has_quirk(ctx, "loop-limit");
        size_t bad = cv_kind_check(ctx, kinds[i]);
        clpad_context_destroy(ctx);
        if (bad)
            fail_msg("%s: %zu bytes differ from the CPU reference", name, bad);
        if (loops) { /* the kernel itself, its loops being short here */
            ctx = make_ctx("cpu", false, "-loop-limit");
            bad = cv_kind_check(ctx, kinds[i]);
            clpad_context_destroy(ctx);
            if (bad)
                fail_msg("%s on the kernel (quirk loop-limit off): %zu bytes differ", name, bad);
        }
        printf("%s: the kernel equals the CPU reference\n", name);
    }
}

/* no-restrict: a kernel calling an inline function that takes restrict
 * pointers. */
static const char k_restrict_src[] =
    "static inline __attribute__((always_inline)) void\n"
    "copy(__global int *restrict d, __global const int *restrict s, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        d[i] = s[i];\n"
    "}\n"
    "__kernel void k(__global int *restrict d, __global const int *restrict s, int n)\n"
    "{\n"
    "    copy(d, s, n);\n"
    "}\n";

static void test_quirk_no_restrict(void **state)
{
    (void)state;
    clpad_context *ctx = make_ctx("cpu", false, NULL);
    cl_int berr, err = CL_SUCCESS;
    cl_program p = build(ctx, k_restrict_src, &berr);
    if (berr == CL_SUCCESS) {
        cl_kernel k = clCreateKernel(p, "k", &err);
        if (k)
            clReleaseKernel(k);
    }
    clReleaseProgram(p);
    bool bug = berr != CL_SUCCESS || err != CL_SUCCESS;
    check_table(ctx, "no-restrict", bug, "a kernel with restrict arguments cannot be created");
    const pad_case *c = &k_pad_cases[7];
    pad_check(ctx, c, false, "no-restrict, quirks on", true, NULL);
    clpad_context_destroy(ctx);
    if (bug) {
        ctx = make_ctx("cpu", false, "off");
        int64_t os[8];
        size_t nin, nout = pad_bytes(c, os, &nin);
        unsigned char *in = calloc(1, nin), *out = malloc(nout);
        clpad_status st = clpad_pad(ctx, c->dtype, c->rank, c->shape, in, c->pb, c->pe,
                                    CLPAD_PAD_OPTIONS(c->mode), NULL, out, nout, NULL);
        printf("without the quirk: %s (%s)\n", clpad_status_name(st), clpad_last_error());
        assert_int_not_equal(st, CLPAD_OK);
        free(in);
        free(out);
        clpad_context_destroy(ctx);
    }
}

/* no-narrow-switch: a switch on the low 4-bit field of an argument whose
 * higher bits are set. The optimizer narrows it to a switch on a 4-bit
 * integer (`trunc i32 to i4`), which must still match case 1. */
static const char k_narrow_src[] =
    "__kernel void k(__global int *out, uint fields)\n"
    "{\n"
    "    switch (fields & 15u) {\n"
    "    case 1: out[0] = 10; break;\n"
    "    case 2: out[0] = 20; break;\n"
    "    case 3: out[0] = 30; break;\n"
    "    }\n"
    "}\n";

static void test_quirk_no_narrow_switch(void **state)
{
    (void)state;
    clpad_context *ctx = make_ctx("cpu", false, NULL);
    cl_int berr, err;
    cl_program p = build(ctx, k_narrow_src, &berr);
    assert_int_equal(berr, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_int out = -1;
    cl_uint fields = 0x21; /* field 0: 1, field 1: 2 */
    cl_mem b = clCreateBuffer(clpad_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              sizeof out, &out, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof fields, &fields), CL_SUCCESS);
    size_t global = 1;
    cl_command_queue q = clpad_context_queue(ctx);
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                     CL_SUCCESS);
    clReleaseMemObject(b);
    clReleaseKernel(k);
    clReleaseProgram(p);
    bool bug = out != 10;
    if (bug)
        printf("reproducer: switch (0x21 & 15) took %s\n", out == -1 ? "no case" : "a wrong case");
    check_table(ctx, "no-narrow-switch", bug, "a switch on a 4-bit field matches no case");
    /* The case that met it: per-axis modes on rank 3, the outer axes'
     * modes packed 4 bits each into one argument. */
    const pad_case *c = &k_pad_cases[9];
    assert_non_null(c->modes);
    pad_check(ctx, c, true, "no-narrow-switch, quirks on", true, NULL);
    clpad_context_destroy(ctx);
    if (bug) {
        /* Every quirk but this one: Oclgrind runs none of clpad's kernels
         * without no-restrict. */
        ctx = make_ctx("cpu", false, "-no-narrow-switch");
        if (strstr(clpad_context_quirks(ctx), "no-narrow-switch"))
            fail_msg("CLPAD_QUIRKS=-no-narrow-switch left the quirk on: \"%s\"",
                     clpad_context_quirks(ctx));
        size_t bad = pad_check(ctx, c, false, "no-narrow-switch, quirk off", false, NULL);
        clpad_context_destroy(ctx);
        printf("without the quirk: %zu bytes wrong\n", bad);
        if (!bad)
            fail_msg("the bug shows, but pad '%s' is right without the quirk: the test no longer "
                     "proves the workaround",
                     c->what);
    }
}

int main(void)
{
    /* Run by tests/impl/run.sh (CLPAD_TEST_IMPL set), which has checked that
     * the implementation is installed: no device is then a failure. Run by
     * hand on the default device: skipped without one. */
    const char *impl = getenv("CLPAD_TEST_IMPL");
    if (impl) {
        clpad_context *probe = NULL;
        clpad_status st = tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK, &probe);
        if (st) {
            fprintf(stderr, "%s is installed, but no device: %s: %s\n", impl,
                    clpad_status_name(st), clpad_last_error());
            return 1;
        }
        clpad_context_destroy(probe);
    }
    clpad_context *ctx = tu_device_context(); /* SKIP without a device */
    const char *want = getenv("CLPAD_DEVICE");
    printf("implementation: %s; quirks: \"%s\"\n", impl ? impl : "(default)",
           clpad_context_quirks(ctx));
    if (want && !strstr(clpad_context_platform_name(ctx), want) &&
        !strstr(clpad_context_device_name(ctx), want)) {
        fprintf(stderr, "asked for '%s', got %s (%s)\n", want, clpad_context_device_name(ctx),
                clpad_context_platform_name(ctx));
        return 1;
    }
    g_reduced = strstr(clpad_context_platform_name(ctx), "Oclgrind") != NULL;
    clpad_context_destroy(ctx);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),
        cmocka_unit_test(test_quirk_map_blocking),
        cmocka_unit_test(test_quirk_no_mem_fence),
        cmocka_unit_test(test_quirk_no_restrict),
        cmocka_unit_test(test_quirk_no_narrow_switch),
        cmocka_unit_test(test_quirk_loop_limit),
        cmocka_unit_test(test_letterbox_opencv_kinds),
        cmocka_unit_test(test_stack_and_numpy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
