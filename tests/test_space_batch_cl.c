/* SpaceToBatch / BatchToSpace on OpenCL (docs/spec.md: SpaceToBatch, BatchToSpace): differential tests of
 * the enqueue API against the CPU reference on seeded random cases of every
 * element size, with guard bands around the device output and non-zero
 * buffer offsets; round trips on the device; the worked example; the
 * host-pointer API; event wait lists and out events; enqueue errors.
 * Exits 77 (skipped) without an OpenCL device. */
#include "test_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static clpad_context *g_ctx;
static cl_context g_cl;
static cl_command_queue g_queue;

enum { GUARD = 64, CANARY = 0xA5 };

typedef struct sb_case {
    int rank;
    size_t es;
    int64_t shape[8], block[8], begin[8], end[8];
} sb_case;

static clpad_dtype dtype_of(size_t es)
{
    return es == 1 ? CLPAD_I8 : es == 2 ? CLPAD_BF16 : es == 4 ? CLPAD_U32 : CLPAD_I64;
}

static const char *case_str(const sb_case *c, bool s2b, char *buf, size_t len)
{
    char s[96], b[96], p[96], e[96];
    const char *what = s2b ? "pads" : "crops";
    snprintf(buf, len, "%s %zu-byte shape=%s block=%s %s_begin=%s %s_end=%s",
             s2b ? "space_to_batch" : "batch_to_space", c->es,
             tu_shape_str(c->rank, c->shape, s, sizeof s),
             tu_shape_str(c->rank, c->block, b, sizeof b), what,
             tu_shape_str(c->rank, c->begin, p, sizeof p), what,
             tu_shape_str(c->rank, c->end, e, sizeof e));
    return buf;
}

/* A random valid SpaceToBatch of element size es: some axes plain (block 1,
 * no pads), some padded only, some blocked; occasionally empty axes. */
static void random_s2b(uint64_t *rng, size_t es, int64_t max_elems, sb_case *c)
{
    for (;;) {
        memset(c, 0, sizeof *c);
        c->rank = (int)tu_range(rng, 2, 8);
        c->es = es;
        bool small = c->rank > 5;
        c->shape[0] = tu_range(rng, 0, 15) ? tu_range(rng, 1, 3) : 0;
        c->block[0] = 1;
        for (int i = 1; i < c->rank; i++) {
            int64_t D = tu_range(rng, 0, 19) ? tu_range(rng, 1, small ? 3 : 9) : 0;
            int kind = (int)tu_range(rng, 0, 3);
            int64_t B = 1, pb = 0, pe = 0;
            if (kind >= 1) {
                pb = tu_range(rng, 0, 3);
                pe = tu_range(rng, 0, 3);
            }
            if (kind >= 2)
                B = tu_range(rng, 2, small ? 3 : 5);
            pe += (B - (D + pb + pe) % B) % B;
            c->shape[i] = D;
            c->block[i] = B;
            c->begin[i] = pb;
            c->end[i] = pe;
        }
        int64_t os[8];
        if (clpad_space_to_batch_output_shape(c->rank, c->shape, c->block, c->begin, c->end, os) ==
                CLPAD_OK &&
            tu_elems(c->rank, os) <= max_elems)
            return;
    }
}

/* A random valid BatchToSpace: the output of a random SpaceToBatch, random crops. */
static void random_b2s(uint64_t *rng, size_t es, int64_t max_elems, sb_case *c)
{
    sb_case s;
    random_s2b(rng, es, max_elems, &s);
    *c = s;
    clpad_space_to_batch_output_shape(s.rank, s.shape, s.block, s.begin, s.end, c->shape);
    for (int i = 1; i < c->rank; i++) {
        int64_t full = c->shape[i] * c->block[i];
        c->begin[i] = tu_range(rng, 0, full < 3 ? full : 3);
        int64_t left = full - c->begin[i];
        c->end[i] = tu_range(rng, 0, left < 3 ? left : 3);
    }
}

static void out_shape_of(const sb_case *c, bool s2b, int64_t *os)
{
    if (s2b)
        TU_ASSERT_OK(clpad_space_to_batch_output_shape(c->rank, c->shape, c->block, c->begin,
                                                       c->end, os));
    else
        TU_ASSERT_OK(clpad_batch_to_space_output_shape(c->rank, c->shape, c->block, c->begin,
                                                       c->end, os));
}

static cl_mem make_buffer(size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(g_cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)init,
                              &err);
    if (!m)
        fail_msg("clCreateBuffer(%zu) failed: %s", bytes, clpad_cl_error_name(err));
    return m;
}

static void read_buffer(cl_mem m, size_t bytes, void *host)
{
    cl_int err = clEnqueueReadBuffer(g_queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        fail_msg("clEnqueueReadBuffer failed: %s", clpad_cl_error_name(err));
}

static clpad_status enqueue(bool s2b, const sb_case *c, cl_mem in, size_t in_off, cl_mem out,
                            size_t out_off, cl_uint nev, const cl_event *wait, cl_event *ev)
{
    if (s2b)
        return clpad_enqueue_space_to_batch(g_ctx, dtype_of(c->es), c->rank, c->shape, in, in_off,
                                            c->block, c->begin, c->end, out, out_off, NULL, nev,
                                            wait, ev);
    return clpad_enqueue_batch_to_space(g_ctx, dtype_of(c->es), c->rank, c->shape, in, in_off,
                                        c->block, c->begin, c->end, out, out_off, NULL, nev, wait,
                                        ev);
}

static clpad_status cpu_ref(bool s2b, const sb_case *c, const void *in, void *out, size_t bytes)
{
    if (s2b)
        return clpad_space_to_batch_cpu(dtype_of(c->es), c->rank, c->shape, in, c->block,
                                        c->begin, c->end, out, bytes);
    return clpad_batch_to_space_cpu(dtype_of(c->es), c->rank, c->shape, in, c->block, c->begin,
                                    c->end, out, bytes);
}

/* Run one case on the device with the input at in_off and the output at
 * out_off inside larger buffers; check the bytes around the output and the
 * whole input buffer are untouched, compare with the CPU reference. When
 * round_trip (space_to_batch only), run batch_to_space on the device output,
 * in place in its buffer, and compare with the input. */
static void check_device(const sb_case *c, bool s2b, const void *in, size_t in_off,
                         size_t out_off, bool round_trip, int index)
{
    char buf[512];
    int64_t os[8];
    out_shape_of(c, s2b, os);
    size_t nin = (size_t)tu_elems(c->rank, c->shape) * c->es;
    size_t nout = (size_t)tu_elems(c->rank, os) * c->es;
    size_t in_total = in_off + nin + GUARD, out_total = out_off + nout + GUARD;
    unsigned char *in_host = malloc(in_total), *in_back = malloc(in_total);
    unsigned char *out_host = malloc(out_total), *want = malloc(nout + 1);
    uint64_t fill = 0xFEED ^ (uint64_t)index;
    tu_fill(in_host, in_total, &fill); /* junk around the input: must never be read into the output */
    memcpy(in_host + in_off, in, nin);
    memset(out_host, CANARY, out_total);
    cl_mem bin = make_buffer(in_total, in_host), bout = make_buffer(out_total, out_host);
    cl_event ev = NULL;
    clpad_status st = enqueue(s2b, c, bin, in_off, bout, out_off, 0, NULL, &ev);
    if (st != CLPAD_OK)
        fail_msg("case %d: %s: %s (%s)", index, clpad_status_name(st), clpad_last_error(),
                 case_str(c, s2b, buf, sizeof buf));
    assert_non_null(ev);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
    read_buffer(bout, out_total, out_host);
    read_buffer(bin, in_total, in_back);
    TU_ASSERT_OK(cpu_ref(s2b, c, in, want, nout));
    for (size_t k = 0; k < out_total; k++) {
        if (k >= out_off && k < out_off + nout)
            continue;
        if (out_host[k] != CANARY)
            fail_msg("case %d: byte %zu outside the output [%zu, %zu) was written: %s "
                     "(input_offset %zu, output_offset %zu)",
                     index, k, out_off, out_off + nout, case_str(c, s2b, buf, sizeof buf), in_off,
                     out_off);
    }
    if (memcmp(out_host + out_off, want, nout)) {
        size_t k = 0;
        while (out_host[out_off + k] == want[k])
            k++;
        fail_msg("case %d differs from the CPU reference at byte %zu of %zu: %s "
                 "(input_offset %zu, output_offset %zu)",
                 index, k, nout, case_str(c, s2b, buf, sizeof buf), in_off, out_off);
    }
    if (memcmp(in_back, in_host, in_total))
        fail_msg("case %d modified the input buffer: %s", index, case_str(c, s2b, buf, sizeof buf));
    if (round_trip && s2b && nout > 0) {
        sb_case back = *c;
        memcpy(back.shape, os, sizeof os);
        size_t back_off = c->es * 3, back_total = back_off + nin + GUARD;
        unsigned char *bh = malloc(back_total);
        memset(bh, CANARY, back_total);
        cl_mem bback = make_buffer(back_total, bh);
        TU_ASSERT_OK(enqueue(false, &back, bout, out_off, bback, back_off, 0, NULL, NULL));
        read_buffer(bback, back_total, bh);
        if (memcmp(bh + back_off, in, nin))
            fail_msg("case %d: the device round trip differs: %s", index,
                     case_str(c, s2b, buf, sizeof buf));
        for (size_t k = 0; k < back_off; k++)
            assert_int_equal(bh[k], CANARY);
        for (size_t k = back_off + nin; k < back_total; k++)
            assert_int_equal(bh[k], CANARY);
        clReleaseMemObject(bback);
        free(bh);
    }
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(in_host);
    free(in_back);
    free(out_host);
    free(want);
}

/* ---- Tests ---------------------------------------------------------------- */

static void test_seed_example(void **state)
{
    (void)state;
    sb_case c = {5, 4, {2, 6, 10, 3, 3}, {1, 2, 4, 3, 1}, {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0}};
    enum { NIN = 2 * 6 * 10 * 3 * 3 };
    float in[NIN];
    for (int i = 0; i < NIN; i++)
        in[i] = (float)(i + 1);
    int64_t os[5];
    out_shape_of(&c, true, os);
    int64_t want_shape[5] = {48, 3, 3, 1, 3};
    for (int i = 0; i < 5; i++)
        assert_int_equal(os[i], want_shape[i]);
    check_device(&c, true, in, 0, 0, true, -1);
    check_device(&c, true, in, 12, 40, true, -2);
}

/* Seeded random cases, every element size, non-zero offsets, round trips. */
static void test_random_differential(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xD1FF;
    enum { CASES = 480, MAXE = 3000 };
    unsigned char *in = malloc(MAXE * 8);
    int per_size[4] = {0};
    for (int i = 0; i < CASES; i++) {
        size_t es = (size_t)1 << (i % 4);
        bool s2b = (i / 4) % 2 == 0;
        sb_case c;
        if (s2b)
            random_s2b(&rng, es, MAXE, &c);
        else
            random_b2s(&rng, es, MAXE, &c);
        size_t nin = (size_t)tu_elems(c.rank, c.shape) * es;
        tu_fill(in, nin, &rng);
        /* offsets: multiples of the element size, sometimes of 8 (the widened
         * element paths), never both zero */
        size_t in_off = es * (size_t)tu_range(&rng, 0, 9);
        size_t out_off = es * (size_t)tu_range(&rng, 1, 9);
        if (tu_range(&rng, 0, 2) == 0) {
            in_off = 8 * (size_t)tu_range(&rng, 0, 3);
            out_off = 8 * (size_t)tu_range(&rng, 1, 3);
        }
        check_device(&c, s2b, in, in_off, out_off, true, i);
        per_size[i % 4]++;
    }
    printf("%d random cases (%d, %d, %d, %d of 1, 2, 4, 8 bytes) equal the CPU reference\n",
           CASES, per_size[0], per_size[1], per_size[2], per_size[3]);
    free(in);
}

/* Seven blocked spatial axes: every long8 component in use. */
static void test_rank8_all_axes(void **state)
{
    (void)state;
    sb_case c = {8, 0, {2, 2, 3, 2, 1, 2, 3, 2}, {1, 2, 2, 2, 2, 2, 2, 2},
                 {0, 0, 1, 0, 1, 0, 1, 1}, {0, 2, 0, 0, 0, 0, 0, 1}};
    unsigned char in[2 * 2 * 3 * 2 * 1 * 2 * 3 * 2 * 8];
    uint64_t rng = 99;
    for (size_t es = 1; es <= 8; es *= 2) {
        c.es = es;
        size_t nin = (size_t)tu_elems(8, c.shape) * es;
        tu_fill(in, nin, &rng);
        check_device(&c, true, in, es, 2 * es, true, 1000 + (int)es);
        sb_case b = c;
        out_shape_of(&c, true, b.shape);
        int64_t crops_b[8] = {0, 1, 0, 1, 0, 1, 0, 0}, crops_e[8] = {0, 0, 1, 0, 1, 0, 2, 1};
        memcpy(b.begin, crops_b, sizeof crops_b);
        memcpy(b.end, crops_e, sizeof crops_e);
        size_t nb = (size_t)tu_elems(8, b.shape) * es;
        unsigned char *bin = malloc(nb);
        tu_fill(bin, nb, &rng);
        check_device(&b, false, bin, 3 * es, es, false, 2000 + (int)es);
        free(bin);
    }
}

/* Larger tensors: many rows and long runs (vector paths), NHWC images with
 * 3 and 4 channels (widened and unwidened elements), and long blocked rows of
 * wide elements (16 channels: on CPU devices, the space_to_batch loop that
 * writes every block offset's row from one pass over the input row), and a
 * block of 7 on an axis of single-unit elements (the strided loop's general
 * case; 2, 3 and 4 are specialised). */
static void test_larger(void **state)
{
    (void)state;
    static const sb_case cases[] = {
        {4, 4, {2, 64, 66, 8}, {1, 4, 3, 1}, {0, 1, 2, 0}, {0, 3, 1, 0}},
        {4, 1, {1, 96, 128, 3}, {1, 2, 2, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}},
        {4, 1, {3, 40, 40, 4}, {1, 2, 4, 1}, {0, 3, 2, 0}, {0, 1, 2, 0}},
        {3, 2, {2, 300, 257}, {1, 1, 3}, {0, 5, 1}, {0, 7, 0}},
        {2, 8, {3, 4001}, {1, 1}, {0, 17}, {0, 5}},
        {4, 4, {2, 6, 130, 16}, {1, 2, 2, 1}, {0, 0, 3, 0}, {0, 0, 1, 0}},
        {4, 2, {1, 5, 301, 16}, {1, 1, 3, 1}, {0, 2, 1, 0}, {0, 2, 1, 0}},
        {3, 4, {2, 5, 40}, {1, 1, 7}, {0, 0, 1}, {0, 0, 1}},
    };
    uint64_t rng = 7;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const sb_case *c = &cases[i];
        size_t nin = (size_t)tu_elems(c->rank, c->shape) * c->es;
        unsigned char *in = malloc(nin);
        tu_fill(in, nin, &rng);
        check_device(c, true, in, 0, 0, true, 3000 + (int)i);
        check_device(c, true, in, c->es, 3 * c->es, true, 3100 + (int)i);
        free(in);
    }
}

/* The host-pointer API on the device context equals the CPU reference. */
static void test_host_api(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x4057;
    enum { CASES = 60, MAXE = 3000 };
    unsigned char *in = malloc(MAXE * 8), *got = malloc(MAXE * 8 + GUARD),
                  *want = malloc(MAXE * 8);
    char buf[512];
    for (int i = 0; i < CASES; i++) {
        size_t es = (size_t)1 << (i % 4);
        bool s2b = (i / 4) % 2 == 0;
        sb_case c;
        if (s2b)
            random_s2b(&rng, es, MAXE, &c);
        else
            random_b2s(&rng, es, MAXE, &c);
        int64_t os[8];
        out_shape_of(&c, s2b, os);
        size_t nin = (size_t)tu_elems(c.rank, c.shape) * es;
        size_t nout = (size_t)tu_elems(c.rank, os) * es;
        tu_fill(in, nin, &rng);
        memset(got, CANARY, nout + GUARD);
        clpad_run_info info;
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        clpad_status st =
            s2b ? clpad_space_to_batch(g_ctx, dtype_of(es), c.rank, c.shape, in, c.block, c.begin,
                                       c.end, got, nout, &info)
                : clpad_batch_to_space(g_ctx, dtype_of(es), c.rank, c.shape, in, c.block, c.begin,
                                       c.end, got, nout, &info);
        if (st != CLPAD_OK)
            fail_msg("host case %d: %s (%s)", i, clpad_last_error(),
                     case_str(&c, s2b, buf, sizeof buf));
        TU_ASSERT_OK(cpu_ref(s2b, &c, in, want, nout));
        if (memcmp(got, want, nout))
            fail_msg("host case %d differs from the CPU reference: %s", i,
                     case_str(&c, s2b, buf, sizeof buf));
        for (size_t k = nout; k < nout + GUARD; k++)
            if (got[k] != CANARY)
                fail_msg("host case %d wrote past the output", i);
        if (nout > 0) {
            assert_int_equal(info.used_opencl, 1);
            assert_int_equal(info.bytes_moved, (s2b ? nin : nout) + nout);
        }
    }
    free(in);
    free(got);
    free(want);
}

/* Event wait lists and out events: the operation waits for a user event,
 * and batch_to_space chained on space_to_batch's event. */
static void test_events(void **state)
{
    (void)state;
    sb_case c = {4, 4, {2, 6, 5, 3}, {1, 3, 2, 1}, {0, 1, 0, 0}, {0, 2, 1, 0}};
    int64_t os[4];
    out_shape_of(&c, true, os);
    size_t nin = 2 * 6 * 5 * 3 * 4, nout = (size_t)tu_elems(4, os) * 4;
    uint32_t in[180];
    for (int i = 0; i < 180; i++)
        in[i] = (uint32_t)i * 2654435761u;
    unsigned char *zeros = calloc(1, nout + nin);
    cl_mem bin = make_buffer(nin, in), bmid = make_buffer(nout, zeros),
           bback = make_buffer(nin, zeros);
    cl_int err;
    cl_event user = clCreateUserEvent(g_cl, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event e1 = NULL, e2 = NULL;
    TU_ASSERT_OK(clpad_enqueue_space_to_batch(g_ctx, CLPAD_U32, 4, c.shape, bin, 0, c.block,
                                              c.begin, c.end, bmid, 0, g_queue, 1, &user, &e1));
    assert_non_null(e1);
    TU_ASSERT_OK(clpad_enqueue_batch_to_space(g_ctx, CLPAD_U32, 4, os, bmid, 0, c.block, c.begin,
                                              c.end, bback, 0, g_queue, 1, &e1, &e2));
    assert_non_null(e2);
    clFlush(g_queue);
    cl_int status = CL_COMPLETE;
    assert_int_equal(clGetEventInfo(e1, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                    NULL),
                     CL_SUCCESS);
    assert_true(status > CL_COMPLETE); /* still waiting for the user event */
    assert_int_equal(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e2), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(e1, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                    NULL),
                     CL_SUCCESS);
    assert_int_equal(status, CL_COMPLETE);
    uint32_t mid[1024], back[180];
    uint32_t want[1024];
    read_buffer(bmid, nout, mid);
    read_buffer(bback, nin, back);
    TU_ASSERT_OK(clpad_space_to_batch_cpu(CLPAD_U32, 4, c.shape, in, c.block, c.begin, c.end, want,
                                          sizeof want));
    assert_memory_equal(mid, want, nout);
    assert_memory_equal(back, in, nin);
    /* An empty output still returns an event that completes (after the wait list). */
    cl_event user2 = clCreateUserEvent(g_cl, &err), e3 = NULL;
    int64_t empty[4] = {0, 6, 5, 3};
    TU_ASSERT_OK(clpad_enqueue_space_to_batch(g_ctx, CLPAD_U32, 4, empty, bin, 0, c.block, c.begin,
                                              c.end, bmid, 0, NULL, 1, &user2, &e3));
    assert_non_null(e3);
    assert_int_equal(clSetUserEventStatus(user2, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e3), CL_SUCCESS);
    /* Without an out event the call is still correct (the queue is in order). */
    TU_ASSERT_OK(clpad_enqueue_space_to_batch(g_ctx, CLPAD_U32, 4, c.shape, bin, 0, c.block,
                                              c.begin, c.end, bmid, 0, NULL, 0, NULL, NULL));
    assert_int_equal(clFinish(g_queue), CL_SUCCESS);
    read_buffer(bmid, nout, mid);
    assert_memory_equal(mid, want, nout);
    clReleaseEvent(user);
    clReleaseEvent(user2);
    clReleaseEvent(e1);
    clReleaseEvent(e2);
    clReleaseEvent(e3);
    clReleaseMemObject(bin);
    clReleaseMemObject(bmid);
    clReleaseMemObject(bback);
    free(zeros);
}

#define EXPECT(call, status, text)                                                            \
    do {                                                                                      \
        clpad_status st_ = (call);                                                            \
        if (st_ != (status))                                                                  \
            fail_msg("%s: got %s, want %s (%s)", #call, clpad_status_name(st_),               \
                     clpad_status_name(status), clpad_last_error());                          \
        if (!strstr(clpad_last_error(), (text)))                                              \
            fail_msg("%s: message '%s' does not mention '%s'", #call, clpad_last_error(),     \
                     (text));                                                                 \
    } while (0)

static void test_enqueue_errors(void **state)
{
    (void)state;
    int64_t shape[3] = {2, 4, 6}, block[3] = {1, 2, 3}, z[3] = {0, 0, 0};
    size_t nin = 48 * 4, nout = 48 * 4;
    unsigned char init[512];
    memset(init, CANARY, sizeof init);
    cl_mem bin = make_buffer(nin, init), bout = make_buffer(nout + 8, init),
           small = make_buffer(nout - 4, init);
    EXPECT(clpad_enqueue_space_to_batch(g_ctx, CLPAD_F32, 3, shape, bin, 0, block, z, z, small, 0,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_BUFFER_TOO_SMALL, "output buffer holds 188 bytes");
    EXPECT(clpad_enqueue_space_to_batch(g_ctx, CLPAD_F32, 3, shape, bin, 0, block, z, z, bout, 12,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_BUFFER_TOO_SMALL, "output buffer");
    EXPECT(clpad_enqueue_space_to_batch(g_ctx, CLPAD_F32, 3, shape, bin, 4, block, z, z, bout, 0,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_BUFFER_TOO_SMALL, "input buffer");
    EXPECT(clpad_enqueue_batch_to_space(g_ctx, CLPAD_F32, 3, (int64_t[]){12, 2, 2}, small, 0,
                                        block, z, z, bout, 0, NULL, 0, NULL, NULL),
           CLPAD_ERR_BUFFER_TOO_SMALL, "input buffer");
    EXPECT(clpad_enqueue_space_to_batch(g_ctx, CLPAD_F32, 3, shape, bin, 0, block, z, z, bout, 2,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "output offset 2 is not a multiple");
    EXPECT(clpad_enqueue_space_to_batch(g_ctx, CLPAD_F32, 3, shape, bin, 0, block, z, z, NULL, 0,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "output buffer is NULL");
    EXPECT(clpad_enqueue_batch_to_space(g_ctx, CLPAD_F32, 3, (int64_t[]){12, 2, 2}, NULL, 0,
                                        block, z, z, bout, 0, NULL, 0, NULL, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "input buffer is NULL");
    EXPECT(clpad_enqueue_space_to_batch(g_ctx, CLPAD_F32, 3, shape, bin, 0, block, z, z, bout, 0,
                                        NULL, 2, NULL, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "wait_list is NULL");
    EXPECT(clpad_enqueue_space_to_batch(NULL, CLPAD_F32, 3, shape, bin, 0, block, z, z, bout, 0,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "context is NULL");
    EXPECT(clpad_enqueue_space_to_batch(g_ctx, (clpad_dtype)-1, 3, shape, bin, 0, block, z, z,
                                        bout, 0, NULL, 0, NULL, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "dtype");
    /* The rules of the operation, through the enqueue API. */
    EXPECT(clpad_enqueue_space_to_batch(g_ctx, CLPAD_F32, 3, shape, bin, 0, block,
                                        (int64_t[]){0, 1, 0}, z, bout, 0, NULL, 0, NULL, NULL),
           CLPAD_ERR_INVALID_PADS, "block_shape[1] = 2 does not divide");
    EXPECT(clpad_enqueue_batch_to_space(g_ctx, CLPAD_F32, 3, (int64_t[]){5, 2, 2}, bin, 0, block,
                                        z, z, bout, 0, NULL, 0, NULL, NULL),
           CLPAD_ERR_INVALID_SHAPE, "shape[0] = 5 is not divisible");
    EXPECT(clpad_enqueue_batch_to_space(g_ctx, CLPAD_F32, 1, shape, bin, 0, block, z, z, bout, 0,
                                        NULL, 0, NULL, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "rank 1");
    /* Nothing was written by any failed call. */
    unsigned char back[512];
    read_buffer(bout, nout + 8, back);
    for (size_t k = 0; k < nout + 8; k++)
        assert_int_equal(back[k], CANARY);
    /* The host-pointer API checks output_bytes. */
    float hin[48] = {0}, hout[48];
    EXPECT(clpad_space_to_batch(g_ctx, CLPAD_F32, 3, shape, hin, block, z, z, hout, nout - 1, NULL),
           CLPAD_ERR_BUFFER_TOO_SMALL, "needs 192 bytes");
    EXPECT(clpad_batch_to_space(g_ctx, CLPAD_F32, 3, (int64_t[]){12, 2, 2}, NULL, block, z, z,
                                hout, nout, NULL),
           CLPAD_ERR_INVALID_ARGUMENT, "input is NULL");
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseMemObject(small);
}

int main(void)
{
    clpad_context *ctx = tu_device_context();
    g_ctx = ctx;
    g_cl = clpad_context_cl_context(ctx);
    g_queue = clpad_context_queue(ctx);
    if (clpad_context_warmup(ctx) != CLPAD_OK) {
        fprintf(stderr, "warmup failed: %s\n%s\n", clpad_last_error(),
                clpad_context_build_log(ctx));
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_example),   cmocka_unit_test(test_random_differential),
        cmocka_unit_test(test_rank8_all_axes), cmocka_unit_test(test_larger),
        cmocka_unit_test(test_host_api),       cmocka_unit_test(test_events),
        cmocka_unit_test(test_enqueue_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clpad_context_destroy(ctx);
    return rc;
}
