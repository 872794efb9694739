/* Letterbox on OpenCL: random batches of mixed sizes (1x1 to 4K, C = 1, 3,
 * 4, every option) through both device APIs (the enqueue API on images
 * packed at odd offsets in one buffer, with guard bands around the output;
 * the host-pointer API), compared with the CPU reference byte for byte; the
 * photograph in data/; buffer checks; one launch per batch. Skips (exit 77)
 * with no device. */
#include "letterbox_cases.h"

#include <pthread.h>
#include <unistd.h>

static clpad_context *g_ctx;

enum { GUARD = 64 };
static const unsigned char CANARY = 0xA5;

/* The batch packed into one device buffer at unaligned offsets, through
 * clpad_enqueue_letterbox into an output with guard bands; returns the
 * output bytes in `got`. */
static void enqueue_case(const lb_case *c, unsigned char *got, size_t nout, uint64_t *rng)
{
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_command_queue q = clpad_context_queue(g_ctx);
    clpad_image im[LB_MAX_IMAGES];
    size_t total = 0;
    for (size_t i = 0; i < c->n; i++) {
        im[i] = c->im[i];
        total += (size_t)tu_range(rng, 0, 5); /* odd offsets */
        im[i].offset = total;
        im[i].data = NULL;
        int64_t stride = im[i].row_stride ? im[i].row_stride : im[i].width * im[i].channels;
        total += (size_t)((im[i].height - 1) * stride + im[i].width * im[i].channels);
    }
    unsigned char *packed = malloc(total + 1);
    memset(packed, 0x33, total + 1);
    for (size_t i = 0; i < c->n; i++) {
        int64_t stride = im[i].row_stride ? im[i].row_stride : im[i].width * im[i].channels;
        memcpy(packed + im[i].offset, c->im[i].data,
               (size_t)((im[i].height - 1) * stride + im[i].width * im[i].channels));
    }
    cl_int err;
    cl_mem bin = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, total + 1, packed,
                                &err);
    assert_int_equal(err, CL_SUCCESS);
    unsigned char *staging = malloc(GUARD * 2 + nout);
    memset(staging, CANARY, GUARD * 2 + nout);
    cl_mem bout = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, GUARD * 2 + nout,
                                 staging, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_event ev = NULL;
    clpad_letterbox_transform t[LB_MAX_IMAGES];
    clpad_letterbox_transform_init(&t[0]);
    uint64_t launches = clpad_context_launches(g_ctx);
    TU_ASSERT_OK(clpad_enqueue_letterbox(g_ctx, im, c->n, &c->o, bin, bout, GUARD, t, NULL, 0, NULL,
                                         &ev));
    assert_non_null(ev);
    assert_int_equal(clpad_context_launches(g_ctx) - launches, 1); /* one launch per batch */
    assert_int_equal(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, GUARD * 2 + nout, staging, 1, &ev,
                                         NULL),
                     CL_SUCCESS);
    char buf[1024];
    for (size_t k = 0; k < GUARD; k++)
        if (staging[k] != CANARY || staging[GUARD + nout + k] != CANARY)
            fail_msg("guard band overwritten: %s", lb_case_str(c, buf, sizeof buf));
    memcpy(got, staging + GUARD, nout);
    clReleaseEvent(ev);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    free(packed);
    free(staging);
}

/* One case through both device APIs against the CPU reference; 0 when the
 * plan refuses it (reflect / symmetric limits). */
static int diff_case(const lb_case *c, uint64_t *rng, int index)
{
    size_t nout = lb_case_out_bytes(c);
    if (!nout)
        return 0;
    unsigned char *want = malloc(nout), *got = malloc(nout);
    clpad_letterbox_transform tw[LB_MAX_IMAGES], tg[LB_MAX_IMAGES];
    clpad_letterbox_transform_init(&tw[0]);
    clpad_letterbox_transform_init(&tg[0]);
    TU_ASSERT_OK(clpad_letterbox_cpu(c->im, c->n, &c->o, want, nout, tw));
    char buf[1024];
    /* a device whose kernel loops end early (quirk loop-limit): the
     * variable-tap kinds run on the CPU path, and the enqueue API refuses
     * them (docs/devices.md) */
    bool on_cpu = c->o.interp >= CLPAD_INTERP_PIL_BILINEAR &&
                  strstr(clpad_context_quirks(g_ctx), "loop-limit");
    if (!on_cpu)
        enqueue_case(c, got, nout, rng);
    else
        memcpy(got, want, nout);
    if (memcmp(got, want, nout)) {
        size_t k = 0;
        while (got[k] == want[k])
            k++;
        fail_msg("case %d: enqueue API byte %zu = %u, the CPU reference says %u: %s", index, k,
                 got[k], want[k], lb_case_str(c, buf, sizeof buf));
    }
    memset(got, 0, nout);
    clpad_run_info info;
    clpad_run_info_init(&info);
    uint64_t launches = clpad_context_launches(g_ctx);
    TU_ASSERT_OK(clpad_letterbox(g_ctx, c->im, c->n, &c->o, got, nout, tg, &info));
    assert_int_equal(info.used_opencl, !on_cpu);
    assert_int_equal(clpad_context_launches(g_ctx) - launches, !on_cpu);
    if (memcmp(got, want, nout)) {
        size_t k = 0;
        while (got[k] == want[k])
            k++;
        fail_msg("case %d: host API byte %zu = %u, the CPU reference says %u: %s", index, k,
                 got[k], want[k], lb_case_str(c, buf, sizeof buf));
    }
    assert_memory_equal(tg, tw, c->n * sizeof *tw);
    free(want);
    free(got);
    return 1;
}

static void test_random_batches(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x1E77E8B0C1;
    int ran = 0;
    enum { CASES = 120 };
    for (int i = 0; i < CASES; i++) {
        lb_case c;
        lb_random_case(&c, &rng, 6, i % 8 == 0 ? 300 : 50, i % 8 == 1 ? 260 : 40);
        if (i % 3 == 2) /* one block: read in place where host memory is used so */
            lb_case_pack(&c);
        ran += diff_case(&c, &rng, i);
        lb_case_free(&c);
    }
    printf("%d random batches: both device APIs equal the CPU reference\n", ran);
    assert_true(ran > CASES / 2);
}

/* OpenCV's INTER_AREA: batches whose images take each of its paths (the
 * integer-ratio box, the general reduction's float sums, the linear resize
 * of an enlarged axis) in one launch, against the CPU reference. */
static void test_area_rules(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xA4EA1;
    int ran = 0;
    for (int i = 0; i < 24; i++) {
        lb_case c;
        lb_rules_case(&c, &rng, CLPAD_INTERP_AREA, i % 4 ? 24 : 90);
        ran += diff_case(&c, &rng, i);
        lb_case_free(&c);
    }
    printf("%d area batches: both device APIs equal the CPU reference\n", ran);
    assert_int_equal(ran, 24);
}

/* OpenCV's INTER_CUBIC: batches of every kind of ratio in one launch
 * (vector and scalar samples of its vertical pass), against the CPU
 * reference. */
static void test_cubic_rules(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xC0B1C1;
    int ran = 0;
    for (int i = 0; i < 24; i++) {
        lb_case c;
        lb_rules_case(&c, &rng, CLPAD_INTERP_BICUBIC, i % 4 ? 24 : 90);
        ran += diff_case(&c, &rng, i);
        lb_case_free(&c);
    }
    printf("%d bicubic batches: both device APIs equal the CPU reference\n", ran);
    assert_int_equal(ran, 24);
}

/* The sizes of real batches: 4K and phone photos with small ones, into
 * 640x640 and 224x224, every dtype and layout; an image already the target
 * size; 1-pixel-wide ones; upscale and downscale. */
static void test_real_sizes(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x4C4;
    static const int64_t sizes[][2] = {{2160, 3840}, {3024, 4032}, {480, 640}, {640, 640},
                                       {1, 1}, {700, 1}, {1, 900}, {100, 133}};
    int n = 0;
    for (int k = 0; k < 6; k++, n++) {
        lb_case c;
        memset(&c, 0, sizeof c);
        c.n = sizeof sizes / sizeof *sizes;
        static const int64_t chans[3] = {3, 1, 4};
        for (size_t i = 0; i < c.n; i++)
            lb_case_image(&c, i, sizes[i][0], sizes[i][1], chans[k % 3], k == 2 ? 7 : 0, &rng);
        int64_t side = k < 3 ? 640 : 224;
        clpad_letterbox_options_init(&c.o, side, side);
        static const clpad_dtype dts[3] = {CLPAD_F32, CLPAD_F16, CLPAD_U8};
        c.o.dtype = dts[k % 3];
        c.o.layout = (clpad_layout)(k / 2 % 2);
        c.o.scale = 1.0f / 255.0f;
        c.o.swap_rb = k == 0;
        c.o.pad_mode = k == 4 ? CLPAD_PAD_EDGE : k == 5 ? CLPAD_PAD_WRAP : CLPAD_PAD_CONSTANT;
        c.o.interp = k == 3 ? CLPAD_INTERP_NEAREST : CLPAD_INTERP_BILINEAR;
        assert_int_equal(diff_case(&c, &rng, k), 1);
        lb_case_free(&c);
    }
    printf("%d batches of 4K, phone, VGA, 1-pixel and target-size images equal the CPU "
           "reference\n",
           n);
}

/* Normalisations at the edges of the dtypes: f32 results that are
 * denormal (a device that flushed them would differ), f16 subnormals,
 * ties and overflow to infinity, u8 ties (v * 0.5) and saturation; and
 * the f32 kernel's shorter forms where mean is +0 and std 1 (v * scale,
 * (v * scale) / divisor): a negative scale (v = 0 gives -0, which a mean of
 * -0 turns into +0, so that mean -0 must take the whole formula), a
 * divisor, a quotient that rounds. */
static void test_value_edges(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xF16;
    static const struct {
        clpad_dtype dtype;
        float scale, mean, std_, divisor;
    } sets[] = {
        {CLPAD_F32, 1e-38f, 0.0f, 1.0f, 0.0f},   {CLPAD_F32, 1.0f, 127.5f, 3e37f, 0.0f},
        {CLPAD_F32, -3.0f, 0.0f, 1.0f, 0.0f},    {CLPAD_F32, -3.0f, -0.0f, 1.0f, 0.0f},
        {CLPAD_F32, 1.0f, 0.0f, 1.0f, 255.0f}, {CLPAD_F32, -0.7f, 0.0f, 1.0f, 3e-39f},
        {CLPAD_F32, 1.0f / 255.0f, 0.0f, 1.0f, 1.0f},
        {CLPAD_F16, 1e-6f, 0.0f, 1.0f, 0.0f},    {CLPAD_F16, 0x1p-25f, 0.0f, 1.0f, 0.0f}, /* odd v: ties between subnormals */
        {CLPAD_F16, 1.0f, -2048.0f, 1.0f, 0.0f}, /* odd v: ties (spacing 2 above 2048) */
        {CLPAD_F16, 1.0f, 0.0f, 0.0039f, 0.0f},  {CLPAD_F16, 257.0f, -65000.0f, 1.0f, 0.0f},
        {CLPAD_F16, 1.0f, 0.5f, 4096.0f, 0.0f},  {CLPAD_U8, 0.5f, 0.0f, 1.0f, 0.0f},
        {CLPAD_U8, 3.0f, 200.0f, -1.0f, 0.0f},   {CLPAD_U8, 1.0f, -0.5f, 1.0f, 0.0f},
    };
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        lb_case c;
        memset(&c, 0, sizeof c);
        c.n = 2;
        lb_case_image(&c, 0, 16, 16, 1, 0, &rng);
        lb_case_image(&c, 1, 9, 31, 1, 0, &rng);
        for (int v = 0; v < 256; v++) /* every sample value */
            c.pixels[0][v] = (unsigned char)v;
        clpad_letterbox_options_init(&c.o, 16, 16);
        c.o.dtype = sets[k].dtype;
        c.o.scale = sets[k].scale;
        c.o.mean[0] = sets[k].mean;
        c.o.std[0] = sets[k].std_;
        if (sets[k].divisor != 0.0f)
            c.o.divisor = sets[k].divisor;
        c.o.pad_value[0] = 7;
        assert_int_equal(diff_case(&c, &rng, (int)k), 1);
        lb_case_free(&c);
    }
    printf("%zu normalisations at the dtypes' edges equal the CPU reference\n",
           sizeof sets / sizeof *sets);
}

/* The photograph of data/, read by the CLI's image loader (built with the
 * CLI), whole and cropped, into four slots. */
#ifdef CLPAD_TEST_HAVE_TENSOR_IO
#include "tensor_io.h"
static void test_photo(void **state)
{
    (void)state;
    const char *dir = getenv("CLPAD_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/astronaut.png", dir ? dir : ".");
    tio_tensor t = {0};
    char err[512];
    if (tio_load(path, &t, err, sizeof err))
        fail_msg("%s", err);
    uint64_t rng = tu_seed() ^ 0xA57;
    int n = 0;
    for (int k = 0; k < 4; k++, n++) {
        lb_case c;
        memset(&c, 0, sizeof c);
        c.n = 3;
        for (size_t i = 0; i < c.n; i++) {
            c.pixels[i] = t.data; /* not owned: c.n is cleared before any free */
            c.im[i] = (clpad_image){.data = t.data, .height = t.shape[0], .width = t.shape[1],
                                    .channels = t.shape[2]};
        }
        /* a crop of it, with the photo's own row stride */
        c.im[2].height = t.shape[0] / 3;
        c.im[2].width = t.shape[1] / 2;
        c.im[2].row_stride = t.shape[1] * t.shape[2];
        int64_t sides[4][2] = {{640, 640}, {320, 480}, {224, 224}, {1024, 1024}};
        clpad_letterbox_options_init(&c.o, sides[k][0], sides[k][1]);
        c.o.scale = 1.0f / 255.0f;
        c.o.dtype = k == 1 ? CLPAD_F16 : CLPAD_F32;
        c.o.layout = (clpad_layout)(k % 2);
        c.o.interp = k == 2 ? CLPAD_INTERP_NEAREST : CLPAD_INTERP_BILINEAR;
        c.o.pad_mode = k == 3 ? CLPAD_PAD_REFLECT : CLPAD_PAD_CONSTANT;
        assert_int_equal(diff_case(&c, &rng, k), 1);
        c.n = 0; /* the pixels are the tensor's */
    }
    printf("%s (%lldx%lldx%lld): %d batches equal the CPU reference\n", path,
           (long long)t.shape[0], (long long)t.shape[1], (long long)t.shape[2], n);
    tio_free(&t);
}
#endif

/* Threads sharing the context, each with batches of its own (and its own
 * staging buffer): every result equals the CPU reference. */
typedef struct thread_job {
    uint64_t seed;
    int bad;
} thread_job;

static void *thread_main(void *arg)
{
    thread_job *j = arg;
    uint64_t rng = j->seed;
    for (int k = 0; k < 6; k++) {
        lb_case c;
        lb_random_case(&c, &rng, 4, 90, 70);
        size_t nout = lb_case_out_bytes(&c);
        if (nout) {
            unsigned char *want = malloc(nout), *got = malloc(nout);
            if (clpad_letterbox_cpu(c.im, c.n, &c.o, want, nout, NULL) ||
                clpad_letterbox(g_ctx, c.im, c.n, &c.o, got, nout, NULL, NULL) ||
                memcmp(got, want, nout))
                j->bad++;
            free(want);
            free(got);
        }
        lb_case_free(&c);
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    enum { T = 4 };
    pthread_t th[T];
    thread_job jobs[T];
    for (int i = 0; i < T; i++) {
        jobs[i] = (thread_job){tu_seed() ^ (0x7770 + (uint64_t)i), 0};
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &jobs[i]), 0);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(jobs[i].bad, 0);
    }
}

/* Buffer checks of the enqueue API: an image outside the input buffer is
 * named; a small output buffer is refused; nothing is launched. */
static void test_buffer_checks(void **state)
{
    (void)state;
    cl_context cl = clpad_context_cl_context(g_ctx);
    cl_int err;
    cl_mem in = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1000, NULL, &err);
    cl_mem out = clCreateBuffer(cl, CL_MEM_READ_WRITE, 3 * 8 * 8 * 4, NULL, &err);
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 8, 8);
    clpad_image im[2] = {{.offset = 0, .height = 10, .width = 10, .channels = 3},
                         {.offset = 800, .height = 10, .width = 10, .channels = 3}};
    TU_ASSERT_STATUS(clpad_enqueue_letterbox(g_ctx, im, 1, &o, in, out, 0, NULL, NULL, 0, NULL,
                                             NULL),
                     CLPAD_OK);
    TU_ASSERT_STATUS(clpad_enqueue_letterbox(g_ctx, im, 2, &o, in, out, 0, NULL, NULL, 0, NULL,
                                             NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(clpad_last_error(), "output"));
    cl_mem out2 = clCreateBuffer(cl, CL_MEM_READ_WRITE, 2 * 3 * 8 * 8 * 4, NULL, &err);
    TU_ASSERT_STATUS(clpad_enqueue_letterbox(g_ctx, im, 2, &o, in, out2, 0, NULL, NULL, 0, NULL,
                                             NULL),
                     CLPAD_ERR_BUFFER_TOO_SMALL);
    assert_non_null(strstr(clpad_last_error(), "images[1]"));
    TU_ASSERT_STATUS(clpad_enqueue_letterbox(g_ctx, im, 1, &o, in, out2, 2, NULL, NULL, 0, NULL,
                                             NULL),
                     CLPAD_ERR_INVALID_ARGUMENT); /* not a multiple of 4 bytes */
    clFinish(clpad_context_queue(g_ctx));
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(out2);
}

int main(void)
{
    g_ctx = tu_device_context();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_batches),
        cmocka_unit_test(test_real_sizes),
        cmocka_unit_test(test_area_rules),
        cmocka_unit_test(test_cubic_rules),
        cmocka_unit_test(test_value_edges),
#ifdef CLPAD_TEST_HAVE_TENSOR_IO
        cmocka_unit_test(test_photo),
#endif
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_buffer_checks),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clpad_context_destroy(g_ctx);
    return rc;
}
