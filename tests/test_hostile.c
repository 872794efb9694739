/*
 * Hostile input: every saved fuzz input replayed through the fuzz
 * targets' own checks, and the size-arithmetic edges of every entry point
 * spelled out with their exact statuses.
 *
 *  - Replay: each file of fuzz/corpus/<target>/ and fuzz/regressions/<target>/
 *    (found through $CLPAD_SOURCE_DIR) goes through fuzz/fuzz_checks.c, the
 *    code the libFuzzer targets run, so a crash the fuzzer found stays fixed.
 *    .npy and image inputs also go through tio_load from a file, which must
 *    agree with the in-memory loaders.
 *  - Pad, SpaceToBatch, BatchToSpace and the window functions with shapes whose
 *    element or byte count overflows, pads at INT64_MIN / INT64_MAX, ranks
 *    out of range, NULL for every pointer, and empty tensors: each call must
 *    return the documented status and a message, write nothing on error, and
 *    do no undefined behaviour (the suite also runs under ASan + UBSan).
 *  - Malformed .npy files and images through tio_load beyond
 *    tests/test_tensor_io.c.
 */
#include "test_util.h"

#include "tensor_io.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The checks of the fuzz targets (the clpad_fuzz_checks library). */
#include "fuzz_checks.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Assert a status and, for an error, a non-empty message. */
#define EXPECT(call, want)                                                              \
    do {                                                                                \
        clpad_status st_ = (call);                                                      \
        if (st_ != (want))                                                              \
            fail_msg("%s:%d: %s returned %s (%s), expected %s", __FILE__, __LINE__,     \
                     #call, clpad_status_name(st_), clpad_last_error(),                 \
                     clpad_status_name(want));                                          \
        if ((want) != CLPAD_OK && !clpad_last_error()[0])                               \
            fail_msg("%s:%d: %s failed with an empty clpad_last_error()", __FILE__,     \
                     __LINE__, #call);                                                  \
    } while (0)

static const int64_t MAX = INT64_MAX, MIN = INT64_MIN;
static const int64_t P31 = INT64_C(1) << 31, P32 = INT64_C(1) << 32, P62 = INT64_C(1) << 62;

static char g_dir[64];

static int group_setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/clpad-hostile-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    DIR *d = opendir(g_dir);
    if (d) {
        struct dirent *e;
        char p[512];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", g_dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(g_dir);
    return 0;
}

static const char *scratch(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_dir, name);
    return buf[k];
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (n)
        assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static unsigned char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    unsigned char *b = malloc(cap);
    assert_non_null(b);
    size_t got;
    while ((got = fread(b + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            b = realloc(b, cap);
            assert_non_null(b);
        }
    }
    fclose(f);
    *n = len;
    return b;
}

#define WRITE_LIT(path, lit) write_file((path), (lit), sizeof(lit) - 1)

/* ------------------------------------------------------------------------- */
/* Replay of the fuzz corpora and regressions                                */
/* ------------------------------------------------------------------------- */

/* tio_load of the bytes as a file must agree with the in-memory loader. */
static void file_agrees(const char *target, const unsigned char *data, size_t n,
                        const char *origin)
{
    bool npy = !strcmp(target, "npy");
    if (!npy && strcmp(target, "image"))
        return;
    const char *path = scratch(npy ? "replay.npy" : "replay.png");
    write_file(path, data, n);
    tio_tensor a, b;
    char ea[512] = "", eb[512] = "";
    int ra = tio_load(path, &a, ea, sizeof ea);
    int rb = npy ? tio_load_npy_mem(data, n, path, &b, eb, sizeof eb)
                 : tio_load_image_mem(data, n, path, 0, &b, eb, sizeof eb);
    if (ra != rb)
        fail_msg("%s: tio_load from a file gives %d (%s), from memory %d (%s)", origin, ra, ea,
                 rb, eb);
    if (ra)
        assert_string_equal(ea, eb);
    else if (a.dtype != b.dtype || a.rank != b.rank || a.nbytes != b.nbytes ||
             memcmp(a.shape, b.shape, sizeof a.shape) || a.is_image != b.is_image ||
             (a.nbytes && memcmp(a.data, b.data, a.nbytes)))
        fail_msg("%s: tio_load from a file and from memory give different tensors", origin);
    tio_free(&a);
    tio_free(&b);
    unlink(path);
}

/* Replay every file of <source>/fuzz/<kind>/<target>/; returns the count. */
static int replay_dir(const char *src, const char *kind, const fz_target *t)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/fuzz/%s/%s", src, kind, t->name);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (e->d_name[0] == '.' || stat(path, &st) || !S_ISREG(st.st_mode))
            continue;
        size_t n;
        unsigned char *data = read_file(path, &n);
        const char *msg = t->check(data, n);
        if (msg)
            fail_msg("fuzz/%s/%s/%s: %s", kind, t->name, e->d_name, msg);
        file_agrees(t->name, data, n, path);
        free(data);
        count++;
    }
    closedir(d);
    return count;
}

static void test_replay_fuzz_inputs(void **state)
{
    (void)state;
    const char *src = getenv("CLPAD_SOURCE_DIR");
    if (!src || !*src) {
        printf("CLPAD_SOURCE_DIR not set; cannot find fuzz/\n");
        skip();
    }
    for (size_t k = 0; k < fz_target_count(); k++) {
        int seeds = replay_dir(src, "corpus", &fz_targets[k]);
        int regressions = replay_dir(src, "regressions", &fz_targets[k]);
        printf("fuzz target %-12s %3d seeds, %3d regressions: OK\n", fz_targets[k].name, seeds,
               regressions);
        if (seeds == 0)
            fail_msg("no seed corpus found in %s/fuzz/corpus/%s", src, fz_targets[k].name);
    }
}

/* The checks also hold on inputs no one chose: a few thousand random ones. */
static void test_random_fuzz_inputs(void **state)
{
    (void)state;
    uint64_t rng = tu_seed();
    unsigned char buf[96];
    for (size_t k = 0; k < fz_target_count(); k++)
        for (int i = 0; i < 2000; i++) {
            size_t n = (size_t)tu_range(&rng, 0, sizeof buf);
            tu_fill(buf, n, &rng);
            const char *msg = fz_targets[k].check(buf, n);
            if (msg)
                fail_msg("%s on random input %d: %s", fz_targets[k].name, i, msg);
        }
}

/* ------------------------------------------------------------------------- */
/* Pad                                                                       */
/* ------------------------------------------------------------------------- */

/* Output shape and CPU path of one Pad call, both expected to give `want`
 * (`want_cpu` for the CPU path); the CPU path gets a guarded output buffer
 * that must stay untouched on error. */
static void pad_case(int rank, const int64_t *shape, const int64_t *pb, const int64_t *pe,
                     clpad_pad_mode mode, clpad_status want, clpad_status want_cpu, int line)
{
    int64_t out[CLPAD_MAX_RANK + 1];
    memset(out, 0x5a, sizeof out);
    clpad_status st = clpad_pad_output_shape(rank, shape, pb, pe, CLPAD_PAD_OPTIONS(mode), out);
    if (st != want || (st && !clpad_last_error()[0]))
        fail_msg("line %d: clpad_pad_output_shape: %s (%s), expected %s", line,
                 clpad_status_name(st), clpad_last_error(), clpad_status_name(want));
    if (st) {
        unsigned char z[sizeof out];
        memset(z, 0x5a, sizeof z);
        assert_memory_equal(out, z, sizeof out);
    }
    unsigned char guard[64];
    memset(guard, 0xa5, sizeof guard);
    unsigned char in[16] = {0};
    st = clpad_pad_cpu(CLPAD_U8, rank, shape, in, pb, pe, CLPAD_PAD_OPTIONS(mode), NULL, guard, 16);
    if (st != want_cpu || (st && !clpad_last_error()[0]))
        fail_msg("line %d: clpad_pad_cpu: %s (%s), expected %s", line, clpad_status_name(st),
                 clpad_last_error(), clpad_status_name(want_cpu));
    if (st)
        for (size_t k = 0; k < sizeof guard; k++)
            if (guard[k] != 0xa5)
                fail_msg("line %d: clpad_pad_cpu wrote its output on error", line);
}

#define PAD(rank, shape, pb, pe, mode, want, want_cpu) \
    pad_case((rank), (shape), (pb), (pe), (mode), (want), (want_cpu), __LINE__)
#define A1(x) ((const int64_t[]){x})
#define A2(x, y) ((const int64_t[]){x, y})
#define A3(x, y, z) ((const int64_t[]){x, y, z})

static void test_pad_size_arithmetic(void **state)
{
    (void)state;
    const clpad_status OK = CLPAD_OK, OVF = CLPAD_ERR_OVERFLOW, PADS = CLPAD_ERR_INVALID_PADS,
                       SMALL = CLPAD_ERR_BUFFER_TOO_SMALL, ARG = CLPAD_ERR_INVALID_ARGUMENT;
    /* b + D + e overflows int64, from either side. */
    PAD(1, A1(MAX), A1(0), A1(1), CLPAD_PAD_CONSTANT, OVF, OVF);
    PAD(1, A1(1), A1(MAX), A1(1), CLPAD_PAD_CONSTANT, OVF, OVF);
    PAD(1, A1(1), A1(1), A1(MAX), CLPAD_PAD_CONSTANT, OVF, OVF);
    PAD(1, A1(0), A1(MIN), A1(MIN), CLPAD_PAD_CONSTANT, OVF, OVF);
    PAD(1, A1(1), A1(MAX), A1(0), CLPAD_PAD_WRAP, OVF, OVF); /* wrap has no upper limit */
    /* Pads at the extremes that do not overflow: cropped to nothing, or to a
     * few elements far from the data. */
    PAD(1, A1(5), A1(MIN + 1), A1(0), CLPAD_PAD_CONSTANT, OK, OK);
    PAD(1, A1(5), A1(MIN + 1), A1(MAX - 5), CLPAD_PAD_CONSTANT, OK, OK); /* out 0 */
    PAD(1, A1(5), A1(-(MAX - 8)), A1(MAX - 5), CLPAD_PAD_CONSTANT, OK, OK); /* out 8 */
    PAD(2, A2(MAX, 1), A2(-MAX, 0), A2(0, 0), CLPAD_PAD_EDGE, OK, OK);
    /* The input coordinates o - pads_begin run from -pads_begin to
     * shape + pads_end - 1: they must fit in int64 too, or edge and wrap read
     * the wrong element (INT64_MIN pads: the CPU path and the kernels gave
     * [10, 10] for edge and [20, 30] for wrap of {10, 20, 30} instead of
     * refusing). */
    PAD(1, A1(3), A1(MIN), A1(MAX), CLPAD_PAD_EDGE, OVF, OVF);
    PAD(1, A1(3), A1(MIN), A1(MAX), CLPAD_PAD_WRAP, OVF, OVF);
    PAD(1, A1(3), A1(MIN), A1(MAX), CLPAD_PAD_CONSTANT, OVF, OVF);
    PAD(1, A1(3), A1(-5), A1(MAX - 2), CLPAD_PAD_EDGE, OVF, OVF); /* 3 + pads_end */
    /* ... while one step inside the range works, and reads the right element. */
    {
        const unsigned char in3[3] = {10, 20, 30};
        unsigned char o2[2];
        EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(3), in3, A1(MIN + 1), A1(MAX - 3),
                             CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, o2, 2),
               OK); /* out = 0: empty */
        EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(3), in3, A1(MIN + 1), A1(MAX - 4),
                             CLPAD_PAD_OPTIONS(CLPAD_PAD_WRAP), NULL, o2, 2),
               OK); /* out = max(-1, 0): empty */
        EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(3), in3, A1(-(MAX - 1)), A1(MAX - 4),
                             CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, o2, 2),
               OK); /* out = -(MAX-1) + 3 + MAX - 4 = 0 */
        EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(3), in3, A1(-(MAX - 3)), A1(MAX - 4),
                             CLPAD_PAD_OPTIONS(CLPAD_PAD_WRAP), NULL, o2, 2),
               OK); /* out = 2: coordinates MAX - 3 and MAX - 2 */
        /* (2^63 - 4) mod 3 = 1, (2^63 - 3) mod 3 = 2 */
        assert_int_equal(o2[0], 20);
        assert_int_equal(o2[1], 30);
        EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(3), in3, A1(-(MAX - 3)), A1(MAX - 4),
                             CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, o2, 2),
               OK);
        assert_int_equal(o2[0], 30);
        assert_int_equal(o2[1], 30);
        /* Axes merged by the CPU plan (constant mode) must keep that rule:
         * [3, 2] with pads_begin -2^62 merges into one axis with pads_begin
         * -2^63. */
        float fin[30] = {0}, fout[24];
        const float seven = 7.0f;
        EXPECT(clpad_pad_cpu(CLPAD_F32, 3, A3(3, 2, 5), fin, A3(-P62, 0, 1), A3(P62 - 1, 0, 0),
                             CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), &seven, fout, sizeof fout),
               OK);
        for (int k = 0; k < 24; k++)
            assert_true(fout[k] == 7.0f);
    }
    /* A broken limit wins over everything, even with INT64 pads. */
    PAD(1, A1(5), A1(0), A1(MAX), CLPAD_PAD_REFLECT, PADS, PADS);
    PAD(1, A1(5), A1(MAX), A1(MIN), CLPAD_PAD_SYMMETRIC, PADS, PADS);
    PAD(1, A1(0), A1(1), A1(MIN), CLPAD_PAD_EDGE, PADS, PADS);
    /* The element count overflows int64; the byte count overflows size_t. */
    PAD(2, A2(P32, P32), A2(0, 0), A2(0, 0), CLPAD_PAD_CONSTANT, OVF, OVF);
    PAD(3, A3(P31, P31, 2), A3(0, 0, 0), A3(0, 0, 0), CLPAD_PAD_CONSTANT, OVF, OVF); /* 2^63 */
    PAD(3, A3(P31, P31, 1), A3(0, 0, 0), A3(0, 0, 0), CLPAD_PAD_CONSTANT, OK, SMALL);
    int64_t out1[1];
    EXPECT(
        clpad_pad_output_shape(1, A1(P62), A1(0), A1(0), CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), out1),
        OK);
    unsigned char o8[8];
    EXPECT(clpad_pad_cpu(CLPAD_F64, 1, A1(P62), o8, A1(0), A1(0), CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                         NULL, o8, 8),
           OVF); /* 2^62 elements fit in int64, 2^65 bytes not in size_t */
    EXPECT(clpad_pad_cpu(CLPAD_U32, 1, A1(1), o8, A1(0), A1(P62), CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                         NULL, o8, 8),
           OVF); /* the same on the output side */
    PAD(2, A2(P31, P31), A2(0, 0), A2(0, 1), CLPAD_PAD_EDGE, OK, SMALL);
    PAD(2, A2(P62, 1), A2(0, 0), A2(P62, 0), CLPAD_PAD_CONSTANT, OVF, OVF);
    /* Ranks out of range, whatever the arrays hold. */
    const int64_t one[CLPAD_MAX_RANK + 1] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const int64_t zero[CLPAD_MAX_RANK + 1] = {0};
    const int bad_ranks[] = {-1, CLPAD_MAX_RANK + 1, INT_MIN, INT_MAX, -CLPAD_MAX_RANK};
    for (size_t k = 0; k < N_OF(bad_ranks); k++)
        PAD(bad_ranks[k], one, zero, zero, CLPAD_PAD_CONSTANT, ARG, ARG);
    PAD(CLPAD_MAX_RANK, one, zero, zero, CLPAD_PAD_CONSTANT, OK, OK);
    /* Invalid mode and dtype. */
    PAD(1, A1(1), A1(0), A1(0), (clpad_pad_mode)-1, ARG, ARG);
    PAD(1, A1(1), A1(0), A1(0), CLPAD_PAD_MODE_COUNT, ARG, ARG);
    unsigned char b8[8] = {0};
    EXPECT(clpad_pad_cpu((clpad_dtype)-1, 1, A1(1), b8, A1(0), A1(0),
                         CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL, b8, 8),
           ARG);
    EXPECT(clpad_pad_cpu(CLPAD_DTYPE_COUNT, 1, A1(1), b8, A1(0), A1(0),
                         CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL, b8, 8),
           ARG);
    EXPECT(clpad_pad_cpu((clpad_dtype)INT_MAX, 0, NULL, b8, NULL, NULL,
                         CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL, b8, 8),
           ARG);
}

static void test_pad_null_and_empty(void **state)
{
    (void)state;
    const clpad_status OK = CLPAD_OK, ARG = CLPAD_ERR_INVALID_ARGUMENT,
                       SHAPE = CLPAD_ERR_INVALID_SHAPE, PADS = CLPAD_ERR_INVALID_PADS;
    int64_t out[2];
    unsigned char in[4] = {1, 2, 3, 4}, o[64];
    /* NULL for every array argument. */
    PAD(2, NULL, A2(0, 0), A2(0, 0), CLPAD_PAD_CONSTANT, ARG, ARG);
    PAD(2, A2(1, 2), NULL, A2(0, 0), CLPAD_PAD_CONSTANT, ARG, ARG);
    PAD(2, A2(1, 2), A2(0, 0), NULL, CLPAD_PAD_CONSTANT, ARG, ARG);
    EXPECT(clpad_pad_output_shape(2, A2(1, 2), A2(0, 0), A2(0, 0),
                                  CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL),
           ARG);
    /* Rank 0: every array may be NULL; the scalar is copied. */
    EXPECT(clpad_pad_output_shape(0, NULL, NULL, NULL, CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL),
           OK);
    memset(o, 0, sizeof o);
    EXPECT(clpad_pad_cpu(CLPAD_U32, 0, NULL, in, NULL, NULL, CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT),
                         NULL, o, 4),
           OK);
    assert_memory_equal(o, in, 4);
    /* NULL data pointers with a non-empty tensor. */
    EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(4), NULL, A1(1), A1(0), CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                         NULL, o, 5),
           ARG);
    EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(4), in, A1(1), A1(0), CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                         NULL, NULL, 5),
           ARG);
    /* NULL pad_value means zero. */
    memset(o, 0xa5, sizeof o);
    EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(2), in, A1(1), A1(1),
                         CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL, o, 4),
           OK);
    assert_memory_equal(o, "\0\1\2\0", 4);
    assert_int_equal(o[4], 0xa5);
    /* output_bytes far beyond the need: exactly the output is written. */
    memset(o, 0xa5, sizeof o);
    EXPECT(clpad_pad_cpu(CLPAD_U16, 1, A1(2), in, A1(1), A1(0), CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE),
                         NULL, o, SIZE_MAX),
           OK);
    assert_memory_equal(o, "\1\2\1\2\3\4", 6);
    assert_int_equal(o[6], 0xa5);
    /* Empty tensors: an empty input padded by constant, cropped to nothing. */
    EXPECT(clpad_pad_output_shape(2, A2(0, 3), A2(1, 0), A2(1, 0),
                                  CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), out),
           OK);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 3);
    const unsigned char seven = 7;
    memset(o, 0, sizeof o);
    EXPECT(clpad_pad_cpu(CLPAD_U8, 2, A2(0, 3), NULL, A2(1, 0), A2(1, 0),
                         CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), &seven, o, 6),
           OK);
    assert_memory_equal(o, "\7\7\7\7\7\7", 6);
    PAD(2, A2(0, 3), A2(1, 0), A2(0, 0), CLPAD_PAD_EDGE, PADS, PADS);
    PAD(2, A2(0, 3), A2(0, 1), A2(0, 0), CLPAD_PAD_WRAP, OK, OK); /* axis 0 empty: no output */
    PAD(2, A2(3, 3), A2(-3, 0), A2(0, 0), CLPAD_PAD_REFLECT, OK, OK);
    EXPECT(clpad_pad_cpu(CLPAD_U8, 1, A1(3), NULL, A1(-2), A1(-1),
                         CLPAD_PAD_OPTIONS(CLPAD_PAD_EDGE), NULL, NULL, 0),
           OK);
    /* Negative dimensions. */
    PAD(1, A1(-1), A1(0), A1(0), CLPAD_PAD_CONSTANT, SHAPE, SHAPE);
    PAD(2, A2(2, MIN), A2(0, 0), A2(0, 0), CLPAD_PAD_CONSTANT, SHAPE, SHAPE);
}

/* ------------------------------------------------------------------------- */
/* SpaceToBatch / BatchToSpace                                               */
/* ------------------------------------------------------------------------- */

/* Both output-shape functions' and CPU paths' statuses for one call. */
static void sb_case(bool s2b, int rank, const int64_t *shape, const int64_t *block,
                    const int64_t *begin, const int64_t *end, clpad_status want,
                    clpad_status want_cpu, int line)
{
    int64_t out[CLPAD_MAX_RANK + 1];
    memset(out, 0x5a, sizeof out);
    clpad_status st = s2b ? clpad_space_to_batch_output_shape(rank, shape, block, begin, end, out)
                          : clpad_batch_to_space_output_shape(rank, shape, block, begin, end, out);
    if (st != want || (st && !clpad_last_error()[0]))
        fail_msg("line %d: %s output shape: %s (%s), expected %s", line,
                 s2b ? "space_to_batch" : "batch_to_space", clpad_status_name(st),
                 clpad_last_error(), clpad_status_name(want));
    if (st) {
        unsigned char z[sizeof out];
        memset(z, 0x5a, sizeof z);
        assert_memory_equal(out, z, sizeof out);
    }
    unsigned char guard[64], in[16] = {0};
    memset(guard, 0xa5, sizeof guard);
    st = s2b ? clpad_space_to_batch_cpu(CLPAD_U8, rank, shape, in, block, begin, end, guard, 16)
             : clpad_batch_to_space_cpu(CLPAD_U8, rank, shape, in, block, begin, end, guard, 16);
    if (st != want_cpu || (st && !clpad_last_error()[0]))
        fail_msg("line %d: %s cpu: %s (%s), expected %s", line,
                 s2b ? "space_to_batch" : "batch_to_space", clpad_status_name(st),
                 clpad_last_error(), clpad_status_name(want_cpu));
    if (st)
        for (size_t k = 0; k < sizeof guard; k++)
            if (guard[k] != 0xa5)
                fail_msg("line %d: the CPU path wrote its output on error", line);
}

#define S2B(r, s, b, p, q, w, wc) sb_case(true, (r), (s), (b), (p), (q), (w), (wc), __LINE__)
#define B2S(r, s, b, p, q, w, wc) sb_case(false, (r), (s), (b), (p), (q), (w), (wc), __LINE__)

static void test_space_batch_size_arithmetic(void **state)
{
    (void)state;
    const clpad_status OK = CLPAD_OK, OVF = CLPAD_ERR_OVERFLOW, PADS = CLPAD_ERR_INVALID_PADS,
                       SHAPE = CLPAD_ERR_INVALID_SHAPE, ARG = CLPAD_ERR_INVALID_ARGUMENT,
                       SMALL = CLPAD_ERR_BUFFER_TOO_SMALL;
    const int64_t z2[2] = {0, 0}, z3[3] = {0, 0, 0};
    /* prod(block_shape) overflows int64. */
    S2B(3, A3(1, P32, P32), A3(1, P32, P32), z3, z3, OVF, OVF);
    B2S(3, A3(1, 1, 1), A3(1, P32, P32), z3, z3, OVF, OVF);
    /* N * prod(block_shape) overflows. */
    S2B(2, A2(P62, 4), A2(1, 4), z2, z2, OVF, OVF);
    /* D + pads overflows, from either pad. */
    S2B(2, A2(1, MAX), A2(1, 1), z2, A2(0, 1), OVF, OVF);
    S2B(2, A2(1, 1), A2(1, 1), A2(0, MAX), A2(0, 1), OVF, OVF);
    /* D * B overflows (BatchToSpace). */
    B2S(2, A2(4, P62), A2(1, 4), z2, z2, OVF, OVF);
    /* Crops at INT64_MAX: more than the axis holds, no overflow on the way. */
    B2S(2, A2(1, 4), A2(1, 1), A2(0, MAX), A2(0, MAX), PADS, PADS);
    B2S(2, A2(1, 4), A2(1, 1), A2(0, 1), A2(0, MAX), PADS, PADS);
    B2S(2, A2(1, MAX), A2(1, 1), A2(0, MAX), A2(0, 0), OK, OK); /* cropped to an empty axis */
    /* Element or byte count overflows. */
    S2B(3, A3(P31, P31, 4), A3(1, 1, 1), z3, z3, OVF, OVF);
    S2B(2, A2(P31, P31), A2(1, 1), z2, z2, OK, SMALL);
    /* Rules. */
    S2B(2, A2(2, 2), A2(2, 1), z2, z2, PADS, PADS);
    S2B(2, A2(2, 2), A2(1, 0), z2, z2, PADS, PADS);
    S2B(2, A2(2, 2), A2(1, MIN), z2, z2, PADS, PADS);
    S2B(2, A2(2, 2), A2(1, 1), A2(1, 0), A2(1, 0), PADS, PADS);
    S2B(2, A2(2, 2), A2(1, 1), A2(0, MIN), z2, PADS, PADS);
    S2B(2, A2(1, 3), A2(1, 2), z2, z2, PADS, PADS);
    B2S(2, A2(3, 2), A2(1, 2), z2, z2, SHAPE, SHAPE);
    S2B(2, A2(-1, 2), A2(1, 1), z2, z2, SHAPE, SHAPE);
    B2S(2, A2(2, MIN), A2(1, 1), z2, z2, SHAPE, SHAPE);
    /* Ranks: SpaceToBatch needs 2..8. */
    const int64_t one[CLPAD_MAX_RANK + 1] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const int64_t zero[CLPAD_MAX_RANK + 1] = {0};
    const int bad_ranks[] = {0, 1, -1, CLPAD_MAX_RANK + 1, INT_MIN, INT_MAX};
    for (size_t k = 0; k < N_OF(bad_ranks); k++) {
        S2B(bad_ranks[k], one, one, zero, zero, ARG, ARG);
        B2S(bad_ranks[k], one, one, zero, zero, ARG, ARG);
    }
    S2B(CLPAD_MAX_RANK, one, one, zero, zero, OK, OK);
}

static void test_space_batch_null_and_empty(void **state)
{
    (void)state;
    const clpad_status OK = CLPAD_OK, ARG = CLPAD_ERR_INVALID_ARGUMENT;
    const int64_t sh[2] = {1, 4}, bl[2] = {1, 2}, z[2] = {0, 0};
    int64_t out[2];
    unsigned char in[4] = {1, 2, 3, 4}, o[8];
    for (int s2b = 0; s2b < 2; s2b++) {
        sb_case(s2b, 2, NULL, bl, z, z, ARG, ARG, __LINE__);
        sb_case(s2b, 2, s2b ? sh : A2(2, 2), NULL, z, z, ARG, ARG, __LINE__);
        sb_case(s2b, 2, s2b ? sh : A2(2, 2), bl, NULL, z, ARG, ARG, __LINE__);
        sb_case(s2b, 2, s2b ? sh : A2(2, 2), bl, z, NULL, ARG, ARG, __LINE__);
    }
    EXPECT(clpad_space_to_batch_output_shape(2, sh, bl, z, z, NULL), ARG);
    EXPECT(clpad_batch_to_space_output_shape(2, A2(2, 2), bl, z, z, NULL), ARG);
    EXPECT(clpad_space_to_batch_cpu(CLPAD_U8, 2, sh, NULL, bl, z, z, o, 4), ARG);
    EXPECT(clpad_space_to_batch_cpu(CLPAD_U8, 2, sh, in, bl, z, z, NULL, 4), ARG);
    EXPECT(clpad_batch_to_space_cpu(CLPAD_U8, 2, A2(2, 2), NULL, bl, z, z, o, 4), ARG);
    EXPECT(clpad_space_to_batch_cpu((clpad_dtype)-1, 2, sh, in, bl, z, z, o, 4), ARG);
    EXPECT(clpad_batch_to_space_cpu(CLPAD_DTYPE_COUNT, 2, A2(2, 2), in, bl, z, z, o, 4), ARG);
    /* Empty: no batch, or an empty axis; NULL buffers are fine then. */
    EXPECT(clpad_space_to_batch_output_shape(2, A2(0, 4), bl, z, z, out), OK);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 2);
    EXPECT(clpad_space_to_batch_cpu(CLPAD_F64, 2, A2(0, 4), NULL, bl, z, z, NULL, 0), OK);
    EXPECT(clpad_batch_to_space_cpu(CLPAD_F64, 2, A2(0, 4), NULL, bl, z, z, NULL, 0), OK);
    EXPECT(clpad_space_to_batch_cpu(CLPAD_U8, 2, A2(1, 0), NULL, bl, z, z, NULL, 0), OK);
    /* An empty axis padded: the output is all zeros and the input is not read. */
    memset(o, 0xa5, sizeof o);
    EXPECT(clpad_space_to_batch_cpu(CLPAD_U8, 2, A2(1, 0), NULL, bl, z, A2(0, 4), o, 4), OK);
    assert_memory_equal(o, "\0\0\0\0", 4);
    assert_int_equal(o[4], 0xa5);
}

/* ------------------------------------------------------------------------- */
/* Window geometry                                                           */
/* ------------------------------------------------------------------------- */

/* Every convention with one set of arguments; each must give `want`. */
static void window_all(clpad_window_op op, int naxes, const int64_t *I, const int64_t *F,
                       const int64_t *S, const int64_t *d, clpad_status want, int line)
{
    clpad_window_result r, before;
    clpad_window_result_init(&r);
    clpad_window_result_init(&before);
    memset(&r, 0x5a, sizeof r);
    r.size = sizeof r;
    before = r;
    clpad_status st[5];
    st[0] = clpad_window_tensorrt(op, CLPAD_TRT_EXPLICIT_ROUND_DOWN, naxes, I, F, S,
                                  op == CLPAD_WINDOW_POOL ? NULL : d, NULL, NULL, &r);
    st[1] = clpad_window_tf(op, CLPAD_TF_VALID, naxes, I, F, S, d, NULL, NULL, NULL, &r);
    st[2] = clpad_window_onnx(op, CLPAD_ONNX_NOTSET, naxes, I, F, S, d, NULL, 0, NULL, NULL, &r);
    st[3] = clpad_window_openvino(op, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, naxes, I, F, S, d, NULL,
                                  NULL, NULL, NULL, &r);
    st[4] = clpad_window_torch(op, CLPAD_TORCH_EXPLICIT, naxes, I, F, S, d, NULL, 0, NULL, &r);
    static const char *const names[5] = {"tensorrt", "tf", "onnx", "openvino", "torch"};
    for (int k = 0; k < 5; k++)
        if (st[k] != want)
            fail_msg("line %d: clpad_window_%s: %s, expected %s", line, names[k],
                     clpad_status_name(st[k]), clpad_status_name(want));
    if (want != CLPAD_OK)
        assert_memory_equal(&r, &before, sizeof r);
}

static void test_window_hostile(void **state)
{
    (void)state;
    const clpad_status OK = CLPAD_OK, OVF = CLPAD_ERR_OVERFLOW, ARG = CLPAD_ERR_INVALID_ARGUMENT,
                       SHAPE = CLPAD_ERR_INVALID_SHAPE, PADS = CLPAD_ERR_INVALID_PADS;
    const int64_t one[CLPAD_MAX_RANK + 1] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* naxes out of range, with arrays long enough to be read by mistake. */
    const int bad[] = {0, -1, CLPAD_MAX_RANK + 1, INT_MIN, INT_MAX};
    for (size_t k = 0; k < N_OF(bad); k++)
        for (int op = 0; op < CLPAD_WINDOW_OP_COUNT; op++)
            window_all((clpad_window_op)op, bad[k], one, one, one, one, ARG, __LINE__);
    window_all(CLPAD_WINDOW_CONV, CLPAD_MAX_RANK, one, one, one, one, OK, __LINE__);
    /* NULL input, kernel and result. */
    window_all(CLPAD_WINDOW_CONV, 1, NULL, one, one, one, ARG, __LINE__);
    window_all(CLPAD_WINDOW_POOL, 1, one, NULL, one, one, ARG, __LINE__);
    EXPECT(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 1, one, one, NULL, NULL,
                                 NULL, NULL, NULL),
           ARG);
    EXPECT(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, one, one, NULL, NULL, NULL, NULL,
                           NULL, NULL),
           ARG);
    EXPECT(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_VALID, 1, one, one, NULL, NULL, NULL, 0,
                             NULL, NULL, NULL),
           ARG);
    EXPECT(clpad_window_openvino(CLPAD_WINDOW_CONV, CLPAD_OV_VALID, CLPAD_OV_FLOOR, 1, one, one,
                                 NULL, NULL, NULL, NULL, NULL, NULL, NULL),
           ARG);
    EXPECT(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_VALID, 1, one, one, NULL, NULL, NULL,
                              0, NULL, NULL),
           ARG);
    /* Sizes and strides at INT64_MAX: the computation overflows. */
    const int64_t big[1] = {MAX}, two[1] = {2}, three[1] = {3};
    EXPECT(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_UPPER, 1, big, two, big, NULL,
                                 NULL, NULL, &r),
           OVF);
    EXPECT(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, two, three, big, NULL,
                             NULL, 0, NULL, NULL, &r),
           OVF);
    EXPECT(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_EXPLICIT, 1, one, three, NULL, big,
                              NULL, 0, NULL, &r),
           OVF); /* dilation*(kernel-1) */
    EXPECT(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, big, three, NULL, NULL, NULL, NULL,
                           NULL, &r),
           OVF); /* (O-1)*S + DK */
    EXPECT(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, big, one, big, NULL, NULL, NULL,
                           NULL, &r),
           OK);
    assert_int_equal(r.output[0], 1);
    /* Pads at the extremes: TensorRT takes any sign, so both ends are reachable. */
    const int64_t pmax[1] = {MAX}, pmin[1] = {MIN};
    EXPECT(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 1, one, one,
                                 NULL, NULL, pmax, NULL, &r),
           OVF);
    EXPECT(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_EXPLICIT_ROUND_UP, 1, one, one, NULL,
                                 NULL, pmin, NULL, &r),
           SHAPE);
    EXPECT(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 1, one, one,
                                 NULL, NULL, pmin, pmax, &r),
           SHAPE); /* M = 1 + MIN + MAX = 0 < DK = 1 */
    EXPECT(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 1, two, one,
                                 NULL, NULL, pmin, pmax, &r),
           OK); /* M = 2 + MIN + MAX = 1 */
    assert_int_equal(r.output[0], 1);
    EXPECT(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 1, one, one,
                                 NULL, NULL, pmin, NULL, &r),
           OVF); /* full - INT64_MIN */
    EXPECT(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_NOTSET, 1, one, one, NULL, NULL,
                             (const int64_t[]){0, MIN}, 0, NULL, NULL, &r),
           PADS);
    EXPECT(clpad_window_openvino(CLPAD_WINDOW_CONV, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1, one, one,
                                 NULL, NULL, pmax, pmax, NULL, NULL, &r),
           OVF);
    EXPECT(clpad_window_torch(CLPAD_WINDOW_DECONV, CLPAD_TORCH_EXPLICIT, 1, one, one, NULL, NULL,
                              pmax, 0, NULL, &r),
           OVF); /* full - p - p */
    EXPECT(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, one, two, two, NULL, NULL,
                             0, (const int64_t[]){MAX}, NULL, &r),
           PADS); /* output_padding >= stride */
    EXPECT(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1, one,
                                 two, big, NULL, NULL, NULL, (const int64_t[]){MAX}, NULL, &r),
           OVF); /* output_padding has no upper bound in OpenVINO: full overflows */
    EXPECT(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, two, two, NULL, NULL, NULL, NULL,
                           (const int64_t[]){100}, &r),
           SHAPE); /* inconsistent output_shape */
    EXPECT(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_VALID, 1, two, two, NULL, NULL, NULL, NULL,
                           (const int64_t[]){0}, &r),
           SHAPE);
}

/* clpad_window_tensor_pads on results no clpad_window_* call made, and with
 * first_axis / rank at the edges of int. */
static void test_window_tensor_pads_hostile(void **state)
{
    (void)state;
    const clpad_status OK = CLPAD_OK, ARG = CLPAD_ERR_INVALID_ARGUMENT;
    clpad_window_result r;
    clpad_window_result_init(&r);
    const int64_t in2[2] = {6, 6}, k2[2] = {3, 3};
    EXPECT(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 2, in2, k2, NULL, NULL,
                                 NULL, NULL, &r),
           OK);
    int64_t pb[CLPAD_MAX_RANK], pe[CLPAD_MAX_RANK];
    EXPECT(clpad_window_tensor_pads(&r, 4, 2, pb, pe), OK);
    EXPECT(clpad_window_tensor_pads(NULL, 4, 2, pb, pe), ARG);
    EXPECT(clpad_window_tensor_pads(&r, 4, 2, NULL, pe), ARG);
    EXPECT(clpad_window_tensor_pads(&r, 4, 2, pb, NULL), ARG);
    const int bad_first[] = {-1, 3, INT_MIN, INT_MAX, INT_MAX - 1};
    for (size_t k = 0; k < N_OF(bad_first); k++)
        EXPECT(clpad_window_tensor_pads(&r, 4, bad_first[k], pb, pe), ARG);
    const int bad_rank[] = {0, 1, -1, CLPAD_MAX_RANK + 1, INT_MIN, INT_MAX};
    for (size_t k = 0; k < N_OF(bad_rank); k++)
        EXPECT(clpad_window_tensor_pads(&r, bad_rank[k], 0, pb, pe), ARG);
    /* Results filled by hand: naxes and op out of range, sizes at the int64 edges. */
    clpad_window_result g = r;
    g.naxes = 0;
    EXPECT(clpad_window_tensor_pads(&g, 4, 0, pb, pe), ARG);
    g.naxes = CLPAD_MAX_RANK + 1;
    EXPECT(clpad_window_tensor_pads(&g, 4, 0, pb, pe), ARG);
    g = r;
    g.op = (clpad_window_op)-1;
    EXPECT(clpad_window_tensor_pads(&g, 4, 0, pb, pe), ARG);
    const int64_t edges[] = {MIN, MIN + 1, -1, 0, MAX};
    for (int op = 0; op < CLPAD_WINDOW_OP_COUNT; op++)
        for (int field = 0; field < 6; field++)
            for (size_t k = 0; k < N_OF(edges); k++) {
                g = r;
                g.op = (clpad_window_op)op;
                int64_t *f[6] = {g.input, g.extent, g.stride, g.output, g.pads_begin,
                                 g.pads_end};
                f[field][1] = edges[k];
                clpad_status st = clpad_window_tensor_pads(&g, 2, 0, pb, pe);
                /* Refusing is fine (INVALID_ARGUMENT or OVERFLOW); UB is not. */
                if (st != OK && st != ARG && st != CLPAD_ERR_OVERFLOW)
                    fail_msg("tensor_pads with field %d = %lld: %s", field, (long long)edges[k],
                             clpad_status_name(st));
                if (st != OK && !clpad_last_error()[0])
                    fail_msg("tensor_pads failed without a message");
            }
}

static void test_window_layouts_hostile(void **state)
{
    (void)state;
    const clpad_status ARG = CLPAD_ERR_INVALID_ARGUMENT;
    int64_t a[2 * CLPAD_MAX_RANK + 4] = {0}, b[CLPAD_MAX_RANK], c[CLPAD_MAX_RANK];
    const int bad[] = {0, -1, CLPAD_MAX_RANK + 1, INT_MIN, INT_MAX};
    for (size_t k = 0; k < N_OF(bad); k++) {
        EXPECT(clpad_window_pads_from_onnx(bad[k], a, b, c), ARG);
        EXPECT(clpad_window_pads_to_onnx(bad[k], b, c, a), ARG);
        EXPECT(clpad_window_pads_to_tf(bad[k], CLPAD_TF_CHANNELS_LAST, b, c, a), ARG);
        EXPECT(clpad_window_pads_from_tf(bad[k], CLPAD_TF_CHANNELS_LAST, a, b, c), ARG);
    }
    EXPECT(clpad_window_pads_to_tf(CLPAD_MAX_RANK - 1, CLPAD_TF_CHANNELS_LAST, b, c, a), ARG);
    EXPECT(clpad_window_pads_from_tf(2, CLPAD_TF_CHANNELS_LAST, a, b, c), ARG);
    EXPECT(clpad_window_pads_from_tf(4, (clpad_tf_layout)-1, a, b, c), ARG);
    EXPECT(clpad_window_pads_to_tf(2, (clpad_tf_layout)INT_MAX, b, c, a), ARG);
    EXPECT(clpad_window_pads_from_onnx(2, NULL, b, c), ARG);
    EXPECT(clpad_window_pads_from_onnx(2, a, NULL, c), ARG);
    EXPECT(clpad_window_pads_from_onnx(2, a, b, NULL), ARG);
    EXPECT(clpad_window_pads_to_onnx(2, NULL, c, a), ARG);
    EXPECT(clpad_window_pads_to_onnx(2, b, c, NULL), ARG);
    EXPECT(clpad_window_pads_to_tf(2, CLPAD_TF_CHANNELS_FIRST, b, NULL, a), ARG);
    EXPECT(clpad_window_pads_from_tf(4, CLPAD_TF_CHANNELS_FIRST, NULL, b, c), ARG);
    /* Names: NULL, and values out of range. */
    clpad_window_op op;
    EXPECT(clpad_window_op_from_name(NULL, &op), ARG);
    EXPECT(clpad_window_op_from_name("conv", NULL), ARG);
    EXPECT(clpad_window_op_from_name("", &op), CLPAD_ERR_PARSE);
    assert_null(clpad_window_op_name((clpad_window_op)-1));
    assert_null(clpad_window_op_name((clpad_window_op)INT_MAX));
    assert_null(clpad_trt_padding_name(CLPAD_TRT_PADDING_COUNT));
    assert_null(clpad_pad_mode_name((clpad_pad_mode)INT_MIN));
    assert_null(clpad_dtype_name((clpad_dtype)-1));
    assert_int_equal(clpad_dtype_size((clpad_dtype)INT_MAX), 0);
    assert_string_equal(clpad_status_name((clpad_status)INT_MIN), "CLPAD_UNKNOWN_STATUS");
    assert_non_null(clpad_status_string((clpad_status)12345));
}

/* ------------------------------------------------------------------------- */
/* Files                                                                     */
/* ------------------------------------------------------------------------- */

static void expect_load_error(const char *path, const char *want)
{
    tio_tensor t;
    memset(&t, 0x5a, sizeof t);
    char err[512] = "";
    if (tio_load(path, &t, err, sizeof err) != 1)
        fail_msg("%s: loaded, expected an error with \"%s\"", path, want);
    if (!strstr(err, want) || !strstr(err, path) || strchr(err, '\n'))
        fail_msg("%s: message \"%s\" lacks \"%s\" or the path", path, err, want);
    assert_null(t.data);
    assert_int_equal(t.nbytes, 0);
    assert_int_equal(t.rank, 0);
}

static void load_ok(const char *path, tio_tensor *t)
{
    char err[512];
    if (tio_load(path, t, err, sizeof err))
        fail_msg("%s: %s", path, err);
}

/* A .npy file: prefix, header as given, data. */
static void write_npy(const char *path, int major, const char *header, const void *data,
                      size_t ndata)
{
    size_t hlen = strlen(header), prefix = major == 1 ? 10 : 12;
    unsigned char *b = malloc(prefix + hlen + ndata + 1);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)major;
    b[7] = 0;
    for (size_t i = 0; i < prefix - 8; i++)
        b[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(b + prefix, header, hlen);
    if (ndata)
        memcpy(b + prefix + hlen, data, ndata);
    write_file(path, b, prefix + hlen + ndata);
    free(b);
}

static void test_npy_hostile(void **state)
{
    (void)state;
    const char *p = scratch("h.npy");
    const unsigned char d8[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    /* Bad magic, truncated prefix, wrong dtype string, Fortran order. */
    WRITE_LIT(p, "\x93NUMPx\x01\x00\x02\x00{}");
    expect_load_error(p, "bad magic");
    WRITE_LIT(p, "\x93NUM");
    expect_load_error(p, "truncated");
    WRITE_LIT(p, "\x93NUMPY\x03\x00\x05\x00\x00");
    expect_load_error(p, "truncated .npy header");
    write_npy(p, 1, "{'descr': '<f3', 'fortran_order': False, 'shape': (2,)}", d8, 6);
    expect_load_error(p, "'<f3'");
    write_npy(p, 1, "{'descr': '<i9999', 'fortran_order': False, 'shape': (1,)}", d8, 8);
    expect_load_error(p, "'<i9999'");
    write_npy(p, 1, "{'descr': '', 'fortran_order': False, 'shape': (1,)}", d8, 1);
    expect_load_error(p, "unsupported .npy dtype");
    write_npy(p, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,)}", d8, 8);
    expect_load_error(p, "Fortran");
    /* Non-ASCII bytes and a header that runs into the data. */
    write_npy(p, 3, "{'descr': '<f\xc3\xa9" "4', 'fortran_order': False, 'shape': (2,)}", d8, 8);
    expect_load_error(p, "unsupported .npy dtype");
    write_npy(p, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (8,)", d8, 8);
    expect_load_error(p, "malformed");
    /* Declared shape against the real size: each way, and sizes that overflow. */
    write_npy(p, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)}", d8, 8);
    expect_load_error(p, "needs 16 bytes, the file holds 8");
    write_npy(p, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (4,)}", d8, 8);
    expect_load_error(p, "4 trailing bytes");
    write_npy(p, 1,
              "{'descr': '<u8', 'fortran_order': False, 'shape': (2305843009213693952,)}", d8,
              8);
    expect_load_error(p, "too large");
    write_npy(p, 2,
              "{'descr': '|b1', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
              d8, 8);
    expect_load_error(p, "too large");
    write_npy(p, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9223372036854775807,)}",
              d8, 8);
    expect_load_error(p, "data is truncated");
    write_npy(p, 1,
              "{'descr': '|u1', 'fortran_order': False, 'shape': (9223372036854775808,)}", d8,
              8);
    expect_load_error(p, "too large");
    write_npy(p, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1)}",
              d8, 1);
    expect_load_error(p, "more than 8 dimensions");
    /* A zero axis makes any shape empty (numpy's rule), however large the rest. */
    write_npy(p, 1,
              "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 9223372036854775807, 2)}",
              NULL, 0);
    tio_tensor t;
    load_ok(p, &t);
    assert_int_equal(t.nbytes, 0);
    assert_non_null(t.data);
    assert_int_equal(t.shape[1], MAX);
    /* ... and the library refuses to pad it rather than overflow. */
    int64_t out[3];
    clpad_status st =
        clpad_pad_output_shape(3, t.shape, (const int64_t[]){1, 0, 0}, (const int64_t[]){0, 0, 0},
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), out);
    assert_int_equal(st, CLPAD_ERR_OVERFLOW);
    tio_free(&t);
    /* The in-memory loader: NULL data, NULL tensor. */
    char err[256];
    assert_int_equal(tio_load_npy_mem(NULL, 4, "m.npy", &t, err, sizeof err), 1);
    assert_non_null(strstr(err, "m.npy"));
    assert_null(t.data);
    assert_int_equal(tio_load_npy_mem(NULL, 0, NULL, &t, err, sizeof err), 1);
    assert_non_null(strstr(err, "truncated"));
    assert_int_equal(tio_load_npy_mem(d8, 8, "m.npy", NULL, err, sizeof err), 1);
    assert_int_equal(tio_load_image_mem(NULL, 4, "m.png", 100, &t, err, sizeof err), 1);
    assert_int_equal(tio_load_image_mem(NULL, 0, "m.png", 100, &t, err, sizeof err), 1);
    assert_non_null(strstr(err, "empty"));
    unsigned char *saved;
    size_t saved_len;
    assert_int_equal(tio_save_npy_mem(NULL, &saved, &saved_len, err, sizeof err), 1);
    unlink(p);
}

static size_t put32(unsigned char *out, uint32_t v)
{
    for (int j = 0; j < 4; j++)
        out[j] = (unsigned char)(v >> (24 - 8 * j));
    return 4;
}

/* A PNG: IHDR, an optional tRNS, and one IDAT holding `raw` (filter bytes
 * included) in a stored deflate block, every chunk with its CRC (libpng
 * checks them): tu_png_stored. */
static size_t make_png_depth(unsigned char *out, uint32_t w, uint32_t h, int depth, int ctype,
                             const unsigned char *raw, size_t rawlen, const unsigned char *trns,
                             size_t trnslen)
{
    return tu_png_stored(out, w, h, depth, ctype, raw, rawlen, trns ? "tRNS" : NULL, trns,
                         trnslen);
}

static size_t make_png(unsigned char *out, uint32_t w, uint32_t h, int ctype,
                       const unsigned char *raw, size_t rawlen, const unsigned char *trns,
                       size_t trnslen)
{
    return make_png_depth(out, w, h, 8, ctype, raw, rawlen, trns, trnslen);
}

static void test_image_hostile(void **state)
{
    (void)state;
    tio_tensor t;
    char err[512];
    /* Formats stb_image knows but tensor_io does not claim: refused by signature. */
    WRITE_LIT(scratch("g.png"), "GIF89a\x01\x00\x01\x00\x00\x00\x00;");
    expect_load_error(scratch("g.png"), "GIF images are not supported");
    WRITE_LIT(scratch("t.png"), "\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00"
                                "\x01\x00\x18\x00\x01\x02\x03"); /* a 1x1 TGA */
    expect_load_error(scratch("t.png"), "unrecognized signature");
    WRITE_LIT(scratch("a.ppm"), "P3\n1 1\n255\n1 2 3\n");
    expect_load_error(scratch("a.ppm"), "only binary PNM");
    WRITE_LIT(scratch("n.jpg"), "\x93NUMPY\x01\x00");
    expect_load_error(scratch("n.jpg"), "name it .npy");
    /* PNM headers that stb_image 2.27 gets wrong. */
    WRITE_LIT(scratch("w.pgm"), "P5\n4294967297 1\n255\n\x07");
    expect_load_error(scratch("w.pgm"), "larger than 16777216");
    WRITE_LIT(scratch("m.pgm"), "P5\n1 1\n0\n\x07");
    expect_load_error(scratch("m.pgm"), "maxval is 0");
    WRITE_LIT(scratch("x.pgm"), "P5\n1 1\n65536\n\x07\x07");
    expect_load_error(scratch("x.pgm"), "maxval larger than 65535");
    WRITE_LIT(scratch("z.pgm"), "P5\n0 1\n255\n");
    expect_load_error(scratch("z.pgm"), "empty");
    WRITE_LIT(scratch("h.pgm"), "P5\n1 1\n255");
    expect_load_error(scratch("h.pgm"), "followed by one whitespace");
    WRITE_LIT(scratch("s.pgm"), "P5\n2 1\n65535\n\x12\x34\xab");
    expect_load_error(scratch("s.pgm"), "needs 4 bytes, the file holds 3");
    /* 16-bit samples are big-endian, and read as u16 (once reduced to
     * their high byte, silently). */
    WRITE_LIT(scratch("16.pgm"), "P5\n2 1\n65535\n\x12\x34\xab\xcd");
    load_ok(scratch("16.pgm"), &t);
    assert_int_equal(t.dtype, CLPAD_U16);
    assert_int_equal(t.nbytes, 4);
    assert_int_equal(((const uint16_t *)t.data)[0], 0x1234);
    assert_int_equal(((const uint16_t *)t.data)[1], 0xabcd);
    tio_free(&t);
    /* A comment ended by '\r' (stb_image's rule too). */
    WRITE_LIT(scratch("cr.pgm"), "P5\r#c\r2 1\r255\r\x05\x06");
    load_ok(scratch("cr.pgm"), &t);
    assert_memory_equal(t.data, "\x05\x06", 2);
    tio_free(&t);
    /* A small file declaring a huge image is refused before decoding: a JPEG
     * frame header of 30000x20000x3 (1.8 GB) and a scan header, no data. */
    static const unsigned char jpeg[] = {0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0x4e, 0x20, 0x75,
                                         0x30, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0,
                                         0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0,
                                         63, 0, 0xff, 0xd9};
    write_file(scratch("big.jpg"), jpeg, sizeof jpeg);
    expect_load_error(scratch("big.jpg"), "more than the limit");
    static unsigned char png[8192], raw[64 * 65];
    memset(raw, 0, sizeof raw);
    size_t n = make_png(png, 1u << 25, 1, 0, raw, 2, NULL, 0);
    write_file(scratch("wide.png"), png, n);
    expect_load_error(scratch("wide.png"), "cannot decode the image");
    n = make_png(png, 64, 64, 0, raw, sizeof raw, NULL, 0);
    assert_int_equal(tio_load_image_mem(png, n, "lim.png", 64 * 64, &t, err, sizeof err), 0);
    tio_free(&t);
    assert_int_equal(tio_load_image_mem(png, n, "lim.png", 64 * 64 - 1, &t, err, sizeof err), 1);
    assert_non_null(strstr(err, "more than the limit of 4095 pixels"));
    assert_null(t.data);
    /* An RGB PNG with a tRNS colour key gets its alpha channel. */
    n = make_png(png, 2, 1, 2, (const unsigned char *)"\0\1\2\3\4\5\6", 7,
                 (const unsigned char *)"\0\1\0\2\0\3", 6);
    write_file(scratch("trns.png"), png, n);
    load_ok(scratch("trns.png"), &t);
    assert_int_equal(t.shape[2], 4);
    assert_memory_equal(t.data, "\x01\x02\x03\x00\x04\x05\x06\xff", 8);
    tio_free(&t);
}

/* ------------------------------------------------------------------------- */
/* API arguments that were accepted                                          */
/* ------------------------------------------------------------------------- */

static void test_api_arguments(void **state)
{
    (void)state;
    const int64_t I[2] = {7, 8}, F[2] = {4, 4}, S[2] = {3, 3}, P[2] = {1, 1};
    clpad_window_result r, before;
    clpad_window_result_init(&r);
    clpad_window_result_init(&before);
    memset(&r, 0x5a, sizeof r);
    r.size = sizeof r;
    before = r;
    /* TensorFlow EXPLICIT without its explicit_paddings (NULL pads read as
     * zeros): refused, naming the NULL one, the result untouched. */
    EXPECT(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_EXPLICIT, 2, I, F, S, NULL, NULL, NULL,
                           NULL, &r),
           CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "pads_begin"));
    EXPECT(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_EXPLICIT, 2, I, F, S, NULL, P, NULL,
                           NULL, &r),
           CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "pads_end is NULL"));
    assert_memory_equal(&r, &before, sizeof r);
    EXPECT(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_EXPLICIT, 2, I, F, S, NULL, P, P, NULL,
                           &r),
           CLPAD_OK);
    assert_int_equal(r.output[0], 2);
    /* Unknown context flag bits: refused, named (they were ignored). */
    clpad_context *ctx = (clpad_context *)&r;
    EXPECT(tu_context_create(NULL, CLPAD_CONTEXT_CPU_ONLY | (1u << 7), &ctx),
           CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "0x80"));
    assert_ptr_equal(ctx, (clpad_context *)&r);
    EXPECT(tu_context_create(NULL, 0xffffffffu, &ctx), CLPAD_ERR_INVALID_ARGUMENT);
    EXPECT(tu_context_create(NULL, CLPAD_CONTEXT_CPU_ONLY |
                                          CLPAD_CONTEXT_VERBOSE | CLPAD_CONTEXT_NO_FALLBACK |
                                          CLPAD_CONTEXT_DEVICE_ONLY,
                                &ctx),
           CLPAD_OK);
    clpad_context_destroy(ctx);
    /* A malformed configuration: refused, the field named, nothing made. */
    clpad_context_config cfg;
    ctx = (clpad_context *)&r;
    clpad_context_config_init(&cfg);
    cfg.size = 8;
    EXPECT(clpad_context_create(&cfg, &ctx), CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "size = 8"));
    struct {
        clpad_context_config c;
        unsigned char later[16];
    } grown;
    memset(&grown, 0, sizeof grown);
    clpad_context_config_init(&grown.c);
    grown.c.size = sizeof grown;
    grown.c.flags = CLPAD_CONTEXT_CPU_ONLY;
    EXPECT(clpad_context_create(&grown.c, &ctx), CLPAD_OK); /* zeros past it: fine */
    clpad_context_destroy(ctx);
    ctx = (clpad_context *)&r;
    grown.later[3] = 1;
    EXPECT(clpad_context_create(&grown.c, &ctx), CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "non-zero byte"));
    clpad_context_config_init(&cfg);
    cfg.reserved[2] = 5;
    EXPECT(clpad_context_create(&cfg, &ctx), CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "reserved[2]"));
    clpad_context_config_init(&cfg);
    cfg.geometry = 7;
    EXPECT(clpad_context_create(&cfg, &ctx), CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "geometry = 7"));
    clpad_context_config_init(&cfg);
    cfg.small_call_bytes = -5;
    EXPECT(clpad_context_create(&cfg, &ctx), CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "small_call_bytes"));
    assert_ptr_equal(ctx, (clpad_context *)&r);
}

/* ------------------------------------------------------------------------- */
/* Bounded reads: an input is read only as far as its header says           */
/* ------------------------------------------------------------------------- */

/* A pipe holding `n` bytes (at most the pipe's 64 KiB) whose writer stays
 * open: a reader that wants more than that, or the end of the input, would
 * block. SIGALRM (default action: the test dies) turns such a hang into a
 * failure. */
static void load_stream(const char *name, const void *data, size_t n, bool close_writer,
                        int *rc, tio_tensor *t, char *err, size_t errlen)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    if (n)
        assert_int_equal(write(fds[1], data, n), (ssize_t)n);
    if (close_writer)
        close(fds[1]);
    alarm(20);
    *rc = tio_load_fd(fds[0], name, t, err, errlen);
    alarm(0);
    close(fds[0]);
    if (!close_writer)
        close(fds[1]);
}

static void test_bounded_reads(void **state)
{
    (void)state;
    tio_tensor t;
    char err[512];
    int rc;
    /* Endless inputs named as tensors: the magic or the signature fails at
     * once (they were read until memory ran out). */
    assert_int_equal(symlink("/dev/zero", scratch("zero.npy")), 0);
    expect_load_error(scratch("zero.npy"), "bad magic");
    assert_int_equal(symlink("/dev/zero", scratch("zero.png")), 0);
    expect_load_error(scratch("zero.png"), "unrecognized signature");
    assert_int_equal(symlink("/dev/zero", scratch("zero.pgm")), 0);
    expect_load_error(scratch("zero.pgm"), "unrecognized signature");
    unlink(scratch("zero.npy"));
    unlink(scratch("zero.png"));
    unlink(scratch("zero.pgm"));
    static const unsigned char zeros[16];
    load_stream("s.npy", zeros, sizeof zeros, false, &rc, &t, err, sizeof err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "bad magic"));
    /* A .npy stream is read to the end of the data its header promises and
     * left there, as numpy.load leaves a file object: the writer need not
     * close it, and what follows is not read. */
    static const char hdr[] = "{'descr': '|u1', 'fortran_order': False, 'shape': (8,), }";
    unsigned char npy[256];
    size_t hl = strlen(hdr);
    memcpy(npy, "\x93NUMPY\x01\x00", 8);
    npy[8] = (unsigned char)hl;
    npy[9] = 0;
    memcpy(npy + 10, hdr, hl);
    memcpy(npy + 10 + hl, "\x01\x02\x03\x04\x05\x06\x07\x08more", 12);
    load_stream("s.npy", npy, 10 + hl + 12, false, &rc, &t, err, sizeof err);
    if (rc)
        fail_msg("%s", err);
    assert_int_equal(t.nbytes, 8);
    assert_memory_equal(t.data, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    tio_free(&t);
    /* ... and a stream that ends early is truncated. */
    load_stream("s.npy", npy, 10 + hl + 5, true, &rc, &t, err, sizeof err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "needs 8 bytes, the file holds 5"));
    assert_null(t.data);
    /* A header that promises more than the machine's memory is refused
     * before its data is read. */
    static const char huge[] = "{'descr': '<f8', 'fortran_order': False, 'shape': "
                               "(1099511627776, 1024), }";
    hl = strlen(huge);
    memcpy(npy + 10, huge, hl);
    npy[8] = (unsigned char)hl;
    load_stream("s.npy", npy, 10 + hl + 64, false, &rc, &t, err, sizeof err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "of memory; not read"));
    /* Images: a stream is read to the end of the image (PNG: IEND; PNM, BMP:
     * the last pixel row) and no further. */
    static unsigned char png[512];
    size_t n = make_png(png, 2, 1, 0, (const unsigned char *)"\0\x11\x22", 3, NULL, 0);
    load_stream("s.png", png, n, false, &rc, &t, err, sizeof err);
    if (rc)
        fail_msg("%s", err);
    assert_memory_equal(t.data, "\x11\x22", 2);
    tio_free(&t);
    load_stream("s.pgm", "P5\n2 1\n255\n\x05\x06", 13, false, &rc, &t, err, sizeof err);
    if (rc)
        fail_msg("%s", err);
    assert_memory_equal(t.data, "\x05\x06", 2);
    tio_free(&t);
    /* A 2x1 PNG whose next chunk declares 2 GiB: a file that ends is
     * truncated, a stream that goes on is refused at the bound its header
     * sets, not read to the end. */
    memcpy(png + 33, "\x7f\xff\xff\xf0IDAT", 8);
    write_file(scratch("long.png"), png, 41);
    expect_load_error(scratch("long.png"), "truncated PNG");
    load_stream("s.png", png, 41, false, &rc, &t, err, sizeof err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "more than a 2x1 image can need"));
    unlink(scratch("long.png"));
}

/* Corrupt PNGs are refused, naming the file: every chunk's CRC (critical and
 * ancillary) and the image data's Adler-32 are checked. A real photo
 * (data/astronaut.png: IHDR, iCCP, pHYs, tEXt, tIME, 97 IDAT chunks) with one
 * bit flipped at random positions, then in each ancillary chunk (libpng's
 * default only warns about those and drops the chunk; OpenCV decodes such a
 * file), and a PNG whose zlib stream has a wrong Adler-32 under valid CRCs.
 * stb_image, which read PNGs before, checked none of them: 19 of 20 flipped
 * photos decoded to garbage. */
static void test_png_integrity(void **state)
{
    (void)state;
    const char *src = getenv("CLPAD_SOURCE_DIR");
    if (!src || !*src) {
        printf("CLPAD_SOURCE_DIR not set; cannot find data/astronaut.png\n");
        skip();
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/data/astronaut.png", src);
    size_t n;
    unsigned char *png = read_file(path, &n);
    tio_tensor t;
    char err[512];
    assert_int_equal(tio_load_image_mem(png, n, "photo.png", 0, &t, err, sizeof err), 0);
    tio_free(&t);
    uint64_t rng = tu_seed();
    size_t ancillary[8], n_anc = 0;
    for (size_t i = 8; i + 12 <= n && n_anc < 8;) {
        uint32_t len = (uint32_t)png[i] << 24 | (uint32_t)png[i + 1] << 16 |
                       (uint32_t)png[i + 2] << 8 | png[i + 3];
        if (png[i + 4] >= 'a' && png[i + 4] <= 'z') /* ancillary: a lower-case first letter */
            ancillary[n_anc++] = i + 8 + (size_t)tu_range(&rng, 0, len ? len - 1 : 0);
        i += 12 + (size_t)len;
    }
    assert_true(n_anc >= 4); /* iCCP, pHYs, tEXt, tIME */
    for (size_t k = 0; k < 20 + n_anc; k++) {
        size_t pos = k < 20 ? (size_t)tu_range(&rng, 0, (int64_t)n - 1) : ancillary[k - 20];
        int bit = (int)tu_range(&rng, 0, 7);
        png[pos] ^= (unsigned char)(1u << bit);
        int rc = tio_load_image_mem(png, n, "flipped.png", 0, &t, err, sizeof err);
        png[pos] ^= (unsigned char)(1u << bit);
        if (rc != 1)
            fail_msg("photo.png with bit %d of byte %zu flipped was decoded", bit, pos);
        if (!strstr(err, "flipped.png: cannot decode the image"))
            fail_msg("byte %zu flipped: message \"%s\"", pos, err);
        tio_free(&t);
    }
    free(png);
    /* A valid CRC over a zlib stream whose Adler-32 is wrong. */
    static unsigned char small[512];
    const unsigned char raw[] = {0, 0x11, 0x22};
    size_t m = make_png(small, 2, 1, 0, raw, sizeof raw, NULL, 0);
    size_t idat = 33; /* after the signature and IHDR */
    assert_memory_equal(small + idat + 4, "IDAT", 4);
    uint32_t idat_len = (uint32_t)small[idat] << 24 | (uint32_t)small[idat + 1] << 16 |
                        (uint32_t)small[idat + 2] << 8 | small[idat + 3];
    small[idat + 8 + idat_len - 1] ^= 1; /* the Adler-32's last byte */
    put32(small + idat + 8 + idat_len, tu_png_crc(small + idat + 4, idat_len + 4));
    assert_int_equal(tio_load_image_mem(small, m, "adler.png", 0, &t, err, sizeof err), 1);
    if (!strstr(err, "adler.png: cannot decode the image") || !strstr(err, "check"))
        fail_msg("wrong Adler-32: message \"%s\"", err);
}

/* A BMP of 24-bit rows (each padded to 4 bytes), top-down or bottom-up. */
static size_t make_bmp(unsigned char *out, int w, int h, bool top_down, const unsigned char *px)
{
    size_t stride = ((size_t)w * 3 + 3) & ~(size_t)3, n = 54 + stride * (size_t)h;
    memset(out, 0, n);
    memcpy(out, "BM", 2);
    uint32_t v[] = {(uint32_t)n, 0, 54, 40, (uint32_t)w, (uint32_t)(top_down ? -h : h)};
    for (int k = 0; k < 6; k++)
        for (int j = 0; j < 4; j++)
            out[2 + 4 * k + j] = (unsigned char)(v[k] >> (8 * j));
    out[26] = 1;  /* planes */
    out[28] = 24; /* bits per pixel */
    for (int y = 0; y < h; y++) {
        unsigned char *row = out + 54 + stride * (size_t)(top_down ? y : h - 1 - y);
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++) /* BGR in the file */
                row[3 * x + c] = px[(y * w + x) * 3 + (2 - c)];
    }
    return n;
}

/* Headers stb_image misreads or misreports, checked by tensor_io. */
static void test_image_headers(void **state)
{
    (void)state;
    tio_tensor t;
    unsigned char px[4 * 3 * 3], bmp[256];
    for (size_t k = 0; k < sizeof px; k++)
        px[k] = (unsigned char)(7 * k + 1);
    /* A top-down BMP (negative height) loads, rows in order, like the
     * bottom-up one (it was refused as "empty (4x-3)"). */
    for (int td = 0; td < 2; td++) {
        size_t n = make_bmp(bmp, 4, 3, td, px);
        write_file(scratch("b.bmp"), bmp, n);
        load_ok(scratch("b.bmp"), &t);
        assert_int_equal(t.shape[0], 3);
        assert_int_equal(t.shape[1], 4);
        assert_int_equal(t.shape[2], 3);
        assert_memory_equal(t.data, px, sizeof px);
        tio_free(&t);
        /* Two of its three rows cut off: an error (stb_image gave zeros). */
        write_file(scratch("b.bmp"), bmp, n - 24);
        expect_load_error(scratch("b.bmp"), "truncated BMP");
    }
    /* Top-down heights beyond the side limit, -2^31 among them (stb_image's
     * abs() leaves it negative: it was "empty (4x-2147483648)"). */
    const uint32_t tall[] = {0x80000000u, (uint32_t)-16777217}; /* (the limit: 2^24) */
    for (size_t k = 0; k < N_OF(tall); k++) {
        size_t n = make_bmp(bmp, 4, 3, false, px);
        for (int j = 0; j < 4; j++)
            bmp[22 + j] = (unsigned char)(tall[k] >> (8 * j));
        write_file(scratch("b.bmp"), bmp, n);
        expect_load_error(scratch("b.bmp"), "larger than");
        expect_load_error(scratch("b.bmp"), k ? "4x16777217" : "4x2147483648");
    }
    unlink(scratch("b.bmp"));
    /* PNG sizes outside 1..2^31-1 are named as such, not "unknown image type". */
    static unsigned char png[512];
    const uint32_t bad[] = {0, 0x80000000u, 0xffffffffu};
    for (size_t k = 0; k < N_OF(bad); k++) {
        size_t n = make_png(png, bad[k], 1, 0, (const unsigned char *)"\0\0", 2, NULL, 0);
        write_file(scratch("w.png"), png, n);
        expect_load_error(scratch("w.png"), "PNG sizes are 1 to 2^31-1");
        n = make_png(png, 1, bad[k], 0, (const unsigned char *)"\0\0", 2, NULL, 0);
        write_file(scratch("w.png"), png, n);
        expect_load_error(scratch("w.png"), "PNG sizes are 1 to 2^31-1");
    }
    size_t n = make_png_depth(png, 1, 1, 7, 0, (const unsigned char *)"\0\0", 2, NULL, 0);
    write_file(scratch("w.png"), png, n);
    expect_load_error(scratch("w.png"), "bit depth 7 is not valid for colour type 0");
    /* A 16-bit PNG is read as u16 (it was reduced to 8 bits). */
    n = make_png_depth(png, 2, 1, 16, 0, (const unsigned char *)"\0\x12\x34\xab\xcd", 5, NULL,
                       0);
    write_file(scratch("w.png"), png, n);
    load_ok(scratch("w.png"), &t);
    assert_int_equal(t.dtype, CLPAD_U16);
    assert_int_equal(t.shape[2], 1);
    assert_int_equal(((const uint16_t *)t.data)[0], 0x1234);
    assert_int_equal(((const uint16_t *)t.data)[1], 0xabcd);
    tio_free(&t);
    unlink(scratch("w.png"));
}

/* ------------------------------------------------------------------------- */
/* Outputs: what may be replaced, and how                                    */
/* ------------------------------------------------------------------------- */

static void save_u8(const char *path, int rc_want, const char *msg_want)
{
    tio_tensor t = {.dtype = CLPAD_U8, .rank = 1, .shape = {3}, .nbytes = 3};
    t.data = (void *)"\x01\x02\x03";
    char err[512] = "";
    int rc = tio_save(path, &t, err, sizeof err);
    if (rc != rc_want || (msg_want && !strstr(err, msg_want)))
        fail_msg("tio_save(%s): %d (%s), expected %d with \"%s\"", path, rc, err, rc_want,
                 msg_want ? msg_want : "");
}

static bool is_npy_u8_123(const char *path)
{
    tio_tensor t;
    char err[512];
    bool ok = tio_load(path, &t, err, sizeof err) == 0 && t.nbytes == 3 &&
              !memcmp(t.data, "\x01\x02\x03", 3);
    tio_free(&t);
    return ok;
}

static int hidden_files(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* As an unprivileged user (nobody, when the tests run as root): a file the
 * user may not write is refused, and left as it was (it was renamed over
 * and came out 0644); a writable one is replaced and keeps its mode. */
static void unprivileged_rules(const char *dir)
{
    char ro[700], rw[700];
    snprintf(ro, sizeof ro, "%s/ro.npy", dir);
    snprintf(rw, sizeof rw, "%s/rw.npy", dir);
    write_file(ro, "old", 3);
    assert_int_equal(chmod(ro, 0444), 0);
    char err[512] = "";
    tio_tensor t = {.dtype = CLPAD_U8, .rank = 1, .shape = {3}, .nbytes = 3};
    t.data = (void *)"\x01\x02\x03";
    if (tio_save(ro, &t, err, sizeof err) != 1 || !strstr(err, "permission denied"))
        _exit(10);
    if (tio_check_output(ro, err, sizeof err) != 1)
        _exit(11);
    size_t n;
    unsigned char *b = read_file(ro, &n);
    struct stat st;
    if (n != 3 || memcmp(b, "old", 3) || stat(ro, &st) || (st.st_mode & 07777) != 0444)
        _exit(12);
    free(b);
    write_file(rw, "old", 3);
    assert_int_equal(chmod(rw, 0640), 0);
    if (tio_save(rw, &t, err, sizeof err) || stat(rw, &st) || (st.st_mode & 07777) != 0640 ||
        st.st_uid != geteuid())
        _exit(13);
    if (hidden_files(dir))
        _exit(14);
    _exit(0);
}

static void test_output_rules(void **state)
{
    (void)state;
    struct stat st;
    /* A replaced file keeps its permission bits (it got 0666 & ~umask). */
    const char *p = scratch("mode.npy");
    write_file(p, "old", 3);
    assert_int_equal(chmod(p, 0600), 0);
    save_u8(p, 0, NULL);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_true(is_npy_u8_123(p));
    if (geteuid() == 0) { /* root may write a 0444 file, as cp may: it stays 0444 */
        assert_int_equal(chmod(p, 0444), 0);
        save_u8(p, 0, NULL);
        assert_int_equal(stat(p, &st), 0);
        assert_int_equal(st.st_mode & 07777, 0444);
    }
    unlink(p);

    /* Read-only files, as a user who may not write them. */
    char dir[600];
    snprintf(dir, sizeof dir, "%s/users", g_dir);
    assert_int_equal(mkdir(dir, 0777), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    assert_int_equal(chmod(g_dir, 0711), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(20);
        unprivileged_rules(dir);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the unprivileged save rules failed (child status %d: 10-12 the read-only file "
                 "was replaced or reported wrongly, 13 the mode or owner of a replaced file, "
                 "14 a temporary left)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    assert_int_equal(chmod(g_dir, 0700), 0);
    char f[700];
    snprintf(f, sizeof f, "%s/ro.npy", dir);
    unlink(f);
    snprintf(f, sizeof f, "%s/rw.npy", dir);
    unlink(f);
    rmdir(dir);

    /* A symbolic link is written through, from another directory: the
     * target is replaced (keeping its mode) and the link stays a link; no
     * temporary is left beside the link or the target. */
    char sub[600], target[700];
    snprintf(sub, sizeof sub, "%s/sub", g_dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(target, sizeof target, "%s/target.npy", sub);
    write_file(target, "old", 3);
    assert_int_equal(chmod(target, 0640), 0);
    const char *link = scratch("link.npy");
    assert_int_equal(symlink("sub/target.npy", link), 0);
    save_u8(link, 0, NULL);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_true(is_npy_u8_123(target));
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    assert_int_equal(hidden_files(g_dir), 0);
    assert_int_equal(hidden_files(sub), 0);
    unlink(link);
    unlink(target);
    rmdir(sub);
    /* A link to nothing is refused (as GNU cp refuses it) and stays. */
    assert_int_equal(symlink("nowhere.npy", link), 0);
    save_u8(link, 1, "does not exist");
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(access(scratch("nowhere.npy"), F_OK), -1);
    unlink(link);
    /* Only regular files are written: a FIFO was renamed over. */
    const char *fifo = scratch("fifo.npy");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    save_u8(fifo, 1, "is a FIFO");
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    unlink(fifo);
    const char *d = scratch("dir.npy");
    assert_int_equal(mkdir(d, 0755), 0);
    save_u8(d, 1, "is a directory");
    rmdir(d);
    /* A missing directory is found by tio_check_output, before any work. */
    char err[512];
    assert_int_equal(tio_check_output(scratch("no/such/o.npy"), err, sizeof err), 1);
    assert_non_null(strstr(err, "No such file or directory"));
    assert_int_equal(tio_check_output(scratch("fine.npy"), err, sizeof err), 0);
    assert_int_equal(access(scratch("fine.npy"), F_OK), -1);
    assert_int_equal(hidden_files(g_dir), 0);
}

/* ------------------------------------------------------------------------- */
/* Sets of outputs: all or nothing                                           */
/* ------------------------------------------------------------------------- */

static const tio_tensor k_u8_123 = {.dtype = CLPAD_U8, .rank = 1, .shape = {3}, .nbytes = 3,
                                    .data = (void *)"\x01\x02\x03"};

static bool file_is(const char *path, const char *text)
{
    size_t n;
    unsigned char *b = read_file(path, &n);
    bool same = n == strlen(text) && !memcmp(b, text, n);
    free(b);
    return same;
}

static void set_add_ok(tio_output_set *set, const char *path)
{
    char err[512];
    if (tio_output_set_add(set, path, &k_u8_123, NULL, err, sizeof err))
        fail_msg("tio_output_set_add(%s): %s", path, err);
}

static void test_output_set_files(void **state)
{
    (void)state;
    char err[512], a[300], b[300], j[300], l[300], h[300];
    snprintf(a, sizeof a, "%s", scratch("a.npy"));
    snprintf(b, sizeof b, "%s", scratch("b.npy"));
    snprintf(j, sizeof j, "%s", scratch("c.json"));
    snprintf(l, sizeof l, "%s", scratch("l.npy"));
    snprintf(h, sizeof h, "%s", scratch("h.npy"));
    write_file(a, "old", 3);
    /* Nothing changes before the commit; every temporary is on disk. */
    tio_output_set *set, *second;
    assert_int_equal(tio_output_set_open(&set, err, sizeof err), 0);
    assert_int_equal(tio_output_set_open(&second, err, sizeof err), 1);
    assert_non_null(strstr(err, "one at a time"));
    assert_null(second);
    set_add_ok(set, a);
    set_add_ok(set, b);
    assert_int_equal(tio_output_set_add_bytes(set, j, "{}\n", 3, err, sizeof err), 0);
    assert_true(file_is(a, "old"));
    assert_int_equal(access(b, F_OK), -1);
    assert_int_equal(hidden_files(g_dir), 3);
    /* Two names of one file: a link, "..", a hard link; refused, and the
     * set goes on. */
    assert_int_equal(symlink("a.npy", l), 0);
    assert_int_equal(link(a, h), 0);
    char dotdot[300];
    snprintf(dotdot, sizeof dotdot, "%s/../%s/b.npy", g_dir, strrchr(g_dir, '/') + 1);
    const char *same[] = {l, h, dotdot};
    for (size_t i = 0; i < N_OF(same); i++) {
        if (tio_output_set_add(set, same[i], &k_u8_123, NULL, err, sizeof err) != 1 ||
            !strstr(err, "the same file as"))
            fail_msg("%s was not refused as a second name of an output: %s", same[i], err);
    }
    /* A failed add leaves the others. */
    assert_int_equal(tio_output_set_add(set, scratch("bad.png"), &k_u8_123, NULL, err,
                                        sizeof err),
                     1);
    assert_int_equal(hidden_files(g_dir), 3);
    assert_int_equal(tio_output_set_commit(set, err, sizeof err), 0);
    assert_true(is_npy_u8_123(a));
    assert_true(is_npy_u8_123(b));
    assert_true(file_is(j, "{}\n"));
    assert_int_equal(hidden_files(g_dir), 0);
    unlink(l);
    unlink(h);

    /* Abort: the temporaries go, the files stay. */
    write_file(a, "old", 3);
    assert_int_equal(tio_output_set_open(&set, err, sizeof err), 0);
    set_add_ok(set, a);
    set_add_ok(set, scratch("new.npy"));
    tio_output_set_abort(set);
    assert_true(file_is(a, "old"));
    assert_int_equal(access(scratch("new.npy"), F_OK), -1);
    assert_int_equal(hidden_files(g_dir), 0);

    /* A rename that fails midway (a directory put at an output's name since
     * it was added): the message names what was already replaced, and no
     * temporary is left. */
    unlink(b);
    assert_int_equal(tio_output_set_open(&set, err, sizeof err), 0);
    set_add_ok(set, a);
    set_add_ok(set, b);
    set_add_ok(set, scratch("z.npy"));
    assert_int_equal(mkdir(b, 0755), 0);
    assert_int_equal(tio_output_set_commit(set, err, sizeof err), 1);
    if (!strstr(err, "b.npy: cannot replace the file") || !strstr(err, "already replaced: ") ||
        !strstr(err, "a.npy)"))
        fail_msg("a rename failing midway: %s", err);
    assert_true(is_npy_u8_123(a));
    assert_int_equal(access(scratch("z.npy"), F_OK), -1);
    assert_int_equal(hidden_files(g_dir), 0);
    rmdir(b);
    unlink(a);
    unlink(j);
}

static int g_handled;
static void count_signal(int sig)
{
    (void)sig;
    g_handled++;
}

/* What a driver's LLVM handler does with a signal: put the default back
 * and raise it again. */
static void die_like_llvm(int sig)
{
    signal(sig, SIG_DFL);
    raise(sig);
}

static void set_handler(int sig, void (*fn)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* In a child, in `dir` (holding a.npy "old"): a set with a.npy and b.npy,
 * `sig` raised while it is open. Exit codes: see test_output_set_signals. */
static void signal_child(const char *dir, int sig, int how)
{
    char a[600], b[600], err[512];
    snprintf(a, sizeof a, "%s/a.npy", dir);
    snprintf(b, sizeof b, "%s/b.npy", dir);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    if (how == 2) /* ignored when the program started, a driver's handler since */
        signal(sig, SIG_IGN);
    tio_signals_init();
    set_handler(sig, how == 0 ? die_like_llvm : count_signal);
    tio_output_set *set;
    if (tio_output_set_open(&set, err, sizeof err) ||
        tio_output_set_add(set, a, &k_u8_123, NULL, err, sizeof err) ||
        tio_output_set_add(set, b, &k_u8_123, NULL, err, sizeof err))
        _exit(10);
    raise(sig);
    int rc = tio_output_set_commit(set, err, sizeof err);
    struct sigaction now;
    sigaction(sig, NULL, &now);
    if (now.sa_handler != count_signal)
        _exit(11); /* the action before the set is back */
    if (how == 1) /* a handler that returns: the set is dead */
        _exit(rc == 1 && strstr(err, "interrupted by") && g_handled == 1 ? 0 : 12);
    /* ignored */
    _exit(rc == 0 && g_handled == 0 ? 0 : 13);
}

/* A signal while a set is open, whatever handler was there before it: the
 * temporaries are removed, then that handler gets the signal (an LLVM-like
 * one that ends the process; one that returns: the set fails with a
 * message); a signal ignored when the program started stays ignored though
 * a handler was installed since (tio_signals_init), and the set completes. */
static void test_output_set_signals(void **state)
{
    (void)state;
    static const struct {
        int sig, how;      /* how: 0 dies (LLVM-like), 1 returns, 2 ignored at start */
        const char *final; /* a.npy afterwards: "old" or "new" */
    } cases[] = {{SIGTERM, 0, "old"}, {SIGINT, 0, "old"}, {SIGHUP, 0, "old"},
                 {SIGINT, 1, "old"},  {SIGHUP, 2, "new"}, {SIGINT, 2, "new"}};
    char a[300];
    snprintf(a, sizeof a, "%s", scratch("a.npy"));
    for (size_t i = 0; i < N_OF(cases); i++) {
        write_file(a, "old", 3);
        unlink(scratch("b.npy"));
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
            signal_child(g_dir, cases[i].sig, cases[i].how);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        bool ok = cases[i].how == 0 ? WIFSIGNALED(status) && WTERMSIG(status) == cases[i].sig
                                    : WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (!ok)
            fail_msg("signal %d, case %d: child status 0x%x (exit 10 the set failed, 11 the "
                     "previous handler was not put back, 12 the set did not fail, 13 the "
                     "ignored signal was handled)",
                     cases[i].sig, cases[i].how, status);
        bool is_new = is_npy_u8_123(a);
        if (is_new != !strcmp(cases[i].final, "new") ||
            (!is_new && !file_is(a, "old")) ||
            (access(scratch("b.npy"), F_OK) == 0) != is_new)
            fail_msg("signal %d, case %d: the outputs are not all %s", cases[i].sig,
                     cases[i].how, cases[i].final);
        if (hidden_files(g_dir))
            fail_msg("signal %d, case %d: a temporary was left", cases[i].sig, cases[i].how);
        unlink(a);
        unlink(scratch("b.npy"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_fuzz_inputs),
        cmocka_unit_test(test_random_fuzz_inputs),
        cmocka_unit_test(test_pad_size_arithmetic),
        cmocka_unit_test(test_pad_null_and_empty),
        cmocka_unit_test(test_space_batch_size_arithmetic),
        cmocka_unit_test(test_space_batch_null_and_empty),
        cmocka_unit_test(test_window_hostile),
        cmocka_unit_test(test_window_tensor_pads_hostile),
        cmocka_unit_test(test_window_layouts_hostile),
        cmocka_unit_test(test_npy_hostile),
        cmocka_unit_test(test_image_hostile),
        cmocka_unit_test(test_bounded_reads),
        cmocka_unit_test(test_image_headers),
        cmocka_unit_test(test_png_integrity),
        cmocka_unit_test(test_output_rules),
        cmocka_unit_test(test_output_set_files),
        cmocka_unit_test(test_output_set_signals),
        cmocka_unit_test(test_api_arguments),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
