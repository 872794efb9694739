/*
 * Tests of the CLI's tensor file I/O (io/, the clpad_io library): .npy round trips and
 * byte-exact headers, hand-written version 2.0 / 3.0 files, strict rejection
 * of malformed .npy files, image round trips (PNG, PPM, PGM, PNM, BMP/JPEG in),
 * the real photo data/astronaut.png, and the atomicity of saves.
 * Scratch files live in a mkdtemp directory under /tmp that is removed at the end.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* mincore, fstatfs */
#endif
#include "test_util.h"

#include "tensor_io.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#endif

#include <jpeglib.h>
#include <stb/stb_image_write.h>

/* ------------------------------------------------------------------------- */
/* Scratch directory and file helpers                                        */
/* ------------------------------------------------------------------------- */

static char g_dir[64];
static uint64_t g_rng;

/* Remove a directory and everything in it. */
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[512];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
                remove_tree(p);
            else
                unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/clpad-tio-XXXXXX");
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return -1;
    }
    g_rng = tu_seed();
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    remove_tree(g_dir);
    return 0;
}

/* A path in the scratch directory; rotates among a few static buffers. */
static const char *scratch(const char *name)
{
    static char bufs[4][512];
    static int next;
    char *b = bufs[next++ % 4];
    snprintf(b, sizeof bufs[0], "%s/%s", g_dir, name);
    return b;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (n)
        assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* Write a string literal's bytes (without the terminating NUL). */
#define WRITE_LIT(path, lit) write_bytes((path), (lit), sizeof(lit) - 1)

static unsigned char *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    *n = len;
    return buf;
}

/* Number of entries in a directory, "." and ".." excluded. */
static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void make_tensor(tio_tensor *t, clpad_dtype dtype, int rank, const int64_t *shape)
{
    memset(t, 0, sizeof *t);
    t->dtype = dtype;
    t->rank = rank;
    size_t count = 1;
    for (int i = 0; i < rank; i++) {
        t->shape[i] = shape[i];
        count *= (size_t)shape[i];
    }
    t->nbytes = count * clpad_dtype_size(dtype);
    t->data = malloc(t->nbytes ? t->nbytes : 1);
    assert_non_null(t->data);
    tu_fill(t->data, t->nbytes, &g_rng);
    if (dtype == CLPAD_BOOL)
        for (size_t i = 0; i < t->nbytes; i++)
            ((unsigned char *)t->data)[i] &= 1;
}

static void assert_same_tensor(const tio_tensor *a, const tio_tensor *b)
{
    assert_int_equal(a->dtype, b->dtype);
    assert_int_equal(a->rank, b->rank);
    for (int i = 0; i < a->rank; i++)
        assert_int_equal(a->shape[i], b->shape[i]);
    assert_int_equal(a->nbytes, b->nbytes);
    assert_non_null(b->data);
    if (a->nbytes)
        assert_memory_equal(a->data, b->data, a->nbytes);
}

/* Assert that loading `path` fails with a message naming the file and holding `want`. */
static void expect_load_error(const char *path, const char *want)
{
    tio_tensor t;
    memset(&t, 0x5a, sizeof t);
    char err[512] = "";
    int rc = tio_load(path, &t, err, sizeof err);
    if (rc != 1)
        fail_msg("loading %s: expected an error containing \"%s\", got success", path, want);
    if (!strstr(err, path) || !strstr(err, want))
        fail_msg("loading %s: message \"%s\" lacks the path or \"%s\"", path, err, want);
    assert_null(strchr(err, '\n'));
    assert_null(t.data);
    assert_int_equal(t.rank, 0);
    assert_int_equal(t.nbytes, 0);
    tio_free(&t);
}

/* Assert that saving fails with a message holding `want`. */
static void expect_save_error(const char *path, const tio_tensor *t, const char *want)
{
    char err[512] = "";
    if (tio_save(path, t, err, sizeof err) != 1)
        fail_msg("saving %s: expected an error containing \"%s\", got success", path, want);
    if (!strstr(err, want))
        fail_msg("saving %s: message \"%s\" lacks \"%s\"", path, err, want);
    assert_null(strchr(err, '\n'));
}

/* Build a .npy file: magic, version major.0, header length (u16 for 1.x,
 * u32 otherwise) of `header` as given, then `data`. */
static unsigned char *build_npy(int major, const char *header, size_t hlen, const void *data,
                                size_t ndata, size_t *len)
{
    size_t prefix = major == 1 ? 10 : 12;
    *len = prefix + hlen + ndata;
    unsigned char *b = malloc(*len);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)major;
    b[7] = 0;
    for (size_t i = 0; i < prefix - 8; i++)
        b[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(b + prefix, header, hlen);
    if (ndata)
        memcpy(b + prefix + hlen, data, ndata);
    return b;
}

static void write_npy(const char *path, int major, const char *header, const void *data,
                      size_t ndata)
{
    size_t len;
    unsigned char *b = build_npy(major, header, strlen(header), data, ndata, &len);
    write_bytes(path, b, len);
    free(b);
}

/* ------------------------------------------------------------------------- */
/* Formats                                                                   */
/* ------------------------------------------------------------------------- */

static void test_formats(void **state)
{
    (void)state;
    assert_string_equal(tio_format("a.npy"), "npy");
    assert_string_equal(tio_format("dir.d/A.NPY"), "npy");
    assert_string_equal(tio_format("x.Png"), "png");
    assert_string_equal(tio_format("x.jpg"), "jpeg");
    assert_string_equal(tio_format("x.JPEG"), "jpeg");
    assert_string_equal(tio_format("x.bmp"), "bmp");
    assert_string_equal(tio_format("x.ppm"), "ppm");
    assert_string_equal(tio_format("x.pgm"), "pgm");
    assert_string_equal(tio_format("x.pnm"), "pnm");
    assert_null(tio_format("x.tiff"));
    assert_null(tio_format("noext"));
    assert_null(tio_format("dir.npy/noext"));
    assert_null(tio_format(NULL));
    assert_true(tio_format_can_load("jpeg"));
    assert_true(tio_format_can_save("jpeg")); /* through libjpeg-turbo */
    assert_false(tio_format_can_save("bmp"));
    assert_true(tio_format_can_save("png"));
    assert_true(tio_format_can_save("npy"));
    assert_false(tio_format_can_load("tiff"));

    char err[256];
    assert_int_equal(tio_check_load_path("a.png", err, sizeof err), 0);
    assert_int_equal(tio_check_load_path("a.tiff", err, sizeof err), 1);
    assert_non_null(strstr(err, "'.tiff'"));
    assert_non_null(strstr(err, ".npy"));
    int64_t shape[3] = {4, 5, 3};
    assert_int_equal(tio_check_save("o.png", CLPAD_U8, 3, shape, err, sizeof err), 0);
    assert_int_equal(tio_check_save("o.ppm", CLPAD_U8, 3, shape, err, sizeof err), 0);
    assert_int_equal(tio_check_save("o.jpg", CLPAD_U8, 3, shape, err, sizeof err), 0);
    assert_int_equal(tio_check_save("o.jpg", CLPAD_U8, 3, (const int64_t[]){4, 5, 4}, err,
                                    sizeof err),
                     1);
    assert_non_null(strstr(err, "JPEG has no alpha channel"));
    assert_int_equal(tio_check_save("o.bmp", CLPAD_U8, 3, shape, err, sizeof err), 1);
    assert_non_null(strstr(err, "cannot write bmp"));
    assert_int_equal(tio_check_save("o.npy", CLPAD_BF16, 3, shape, err, sizeof err), 1);
}

/* ------------------------------------------------------------------------- */
/* .npy                                                                      */
/* ------------------------------------------------------------------------- */

static const clpad_dtype npy_dtypes[] = {CLPAD_BOOL, CLPAD_I8,  CLPAD_U8,  CLPAD_I16,
                                         CLPAD_U16,  CLPAD_I32, CLPAD_U32, CLPAD_I64,
                                         CLPAD_U64,  CLPAD_F16, CLPAD_F32, CLPAD_F64};

static void test_npy_roundtrip_all_dtypes(void **state)
{
    (void)state;
    const int ranks[] = {0, 1, 3, 8};
    for (size_t d = 0; d < sizeof npy_dtypes / sizeof npy_dtypes[0]; d++) {
        for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; r++) {
            int rank = ranks[r];
            int64_t shape[CLPAD_MAX_RANK];
            for (int i = 0; i < rank; i++)
                shape[i] = rank == 8 ? tu_range(&g_rng, 1, 3) : tu_range(&g_rng, 1, 7);
            tio_tensor a, b;
            make_tensor(&a, npy_dtypes[d], rank, shape);
            const char *path = scratch("rt.npy");
            char err[512] = "";
            if (tio_save(path, &a, err, sizeof err))
                fail_msg("save %s rank %d: %s", clpad_dtype_name(npy_dtypes[d]), rank, err);
            if (tio_load(path, &b, err, sizeof err))
                fail_msg("load %s rank %d: %s", clpad_dtype_name(npy_dtypes[d]), rank, err);
            assert_same_tensor(&a, &b);
            assert_false(b.is_image);

            /* numpy's layout: the data starts at a multiple of 64 bytes. */
            size_t n;
            unsigned char *raw = read_bytes(path, &n);
            assert_int_equal((n - a.nbytes) % 64, 0);
            assert_int_equal(raw[n - a.nbytes - 1], '\n');
            free(raw);
            tio_free(&a);
            tio_free(&b);
        }
    }
    /* Empty tensors are fine for .npy. */
    int64_t empty[2] = {0, 5};
    tio_tensor a, b;
    make_tensor(&a, CLPAD_F32, 2, empty);
    char err[512];
    assert_int_equal(tio_save(scratch("empty.npy"), &a, err, sizeof err), 0);
    assert_int_equal(tio_load(scratch("empty.npy"), &b, err, sizeof err), 0);
    assert_same_tensor(&a, &b);
    tio_free(&a);
    tio_free(&b);
    assert_int_equal(dir_entries(g_dir), 2); /* no temporaries left behind */
}

/* Headers exactly as numpy.save writes them (checked with numpy 2.4). */
static void check_header(clpad_dtype dtype, int rank, const int64_t *shape, const char *want,
                         size_t want_len)
{
    tio_tensor a;
    make_tensor(&a, dtype, rank, shape);
    char err[512];
    const char *path = scratch("hdr.npy");
    if (tio_save(path, &a, err, sizeof err))
        fail_msg("%s", err);
    size_t n;
    unsigned char *raw = read_bytes(path, &n);
    assert_int_equal(n, want_len + a.nbytes);
    assert_memory_equal(raw, want, want_len);
    if (a.nbytes)
        assert_memory_equal(raw + want_len, a.data, a.nbytes);
    free(raw);
    tio_free(&a);
}

/* Runs of spaces: numpy pads the header dict with spaces and a final '\n' so
 * that the data starts at byte 128 (58, 60, 62, 40, 47 and 60 spaces below,
 * byte for byte as numpy 2.4 np.save writes them). */
#define SP10 "          "
#define SP50 SP10 SP10 SP10 SP10 SP10

static void test_npy_header_matches_numpy(void **state)
{
    (void)state;
    static const char f4_2x3[] = "\x93NUMPY\x01\x00v\x00"
                                 "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
                                 SP50 "        \n";
    assert_int_equal(sizeof f4_2x3 - 1, 128);
    check_header(CLPAD_F32, 2, (const int64_t[]){2, 3}, f4_2x3, 128);

    static const char u1_3[] = "\x93NUMPY\x01\x00v\x00"
                               "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }"
                               SP50 "          \n";
    assert_int_equal(sizeof u1_3 - 1, 128);
    check_header(CLPAD_U8, 1, (const int64_t[]){3}, u1_3, 128);

    static const char f8_scalar[] = "\x93NUMPY\x01\x00v\x00"
                                    "{'descr': '<f8', 'fortran_order': False, 'shape': (), }"
                                    SP50 "            \n";
    assert_int_equal(sizeof f8_scalar - 1, 128);
    check_header(CLPAD_F64, 0, NULL, f8_scalar, 128);

    static const char i8_rank8[] =
        "\x93NUMPY\x01\x00v\x00"
        "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 2, 1, 2, 1, 2, 1, 2), }" SP10
        SP10 SP10 SP10 "\n";
    assert_int_equal(sizeof i8_rank8 - 1, 128);
    check_header(CLPAD_I64, 8, (const int64_t[]){1, 2, 1, 2, 1, 2, 1, 2}, i8_rank8, 128);

    static const char i2_big[] =
        "\x93NUMPY\x01\x00v\x00"
        "{'descr': '<i2', 'fortran_order': False, 'shape': (123456789012, 0), }" SP10 SP10
        SP10 SP10 "       \n";
    assert_int_equal(sizeof i2_big - 1, 128);
    check_header(CLPAD_I16, 2, (const int64_t[]){123456789012, 0}, i2_big, 128);

    static const char b1_0[] = "\x93NUMPY\x01\x00v\x00"
                               "{'descr': '|b1', 'fortran_order': False, 'shape': (0,), }"
                               SP50 "          \n";
    assert_int_equal(sizeof b1_0 - 1, 128);
    check_header(CLPAD_BOOL, 1, (const int64_t[]){0}, b1_0, 128);

    /* The descr of every other dtype. */
    static const struct {
        clpad_dtype dtype;
        const char *descr;
    } descrs[] = {{CLPAD_I8, "'|i1'"},  {CLPAD_I16, "'<i2'"}, {CLPAD_U16, "'<u2'"},
                  {CLPAD_I32, "'<i4'"}, {CLPAD_U32, "'<u4'"}, {CLPAD_U64, "'<u8'"},
                  {CLPAD_F16, "'<f2'"}};
    for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++) {
        tio_tensor a;
        make_tensor(&a, descrs[i].dtype, 1, (const int64_t[]){2});
        char err[256];
        assert_int_equal(tio_save(scratch("d.npy"), &a, err, sizeof err), 0);
        size_t n;
        unsigned char *raw = read_bytes(scratch("d.npy"), &n);
        char want[64];
        snprintf(want, sizeof want, "{'descr': %s, ", descrs[i].descr);
        assert_memory_equal(raw + 10, want, strlen(want));
        free(raw);
        tio_free(&a);
    }
}

static void test_npy_versions_by_hand(void **state)
{
    (void)state;
    const float data[6] = {1.0f, -2.5f, 3.0f, 0.0f, 1e30f, -0.0f};
    tio_tensor t;
    char err[512];

    /* Version 2.0: 4-byte header length. */
    write_npy(scratch("v2.npy"), 2,
              "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }      \n", data,
              sizeof data);
    if (tio_load(scratch("v2.npy"), &t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t.dtype, CLPAD_F32);
    assert_int_equal(t.rank, 2);
    assert_int_equal(t.shape[0], 2);
    assert_int_equal(t.shape[1], 3);
    assert_memory_equal(t.data, data, sizeof data);
    tio_free(&t);

    /* Version 3.0 (utf-8 header), keys reordered, double quotes, trailing commas. */
    write_npy(scratch("v3.npy"), 3,
              "{\"shape\": (6,), \"descr\": \"<f4\", \"fortran_order\": False,}\n", data,
              sizeof data);
    if (tio_load(scratch("v3.npy"), &t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t.rank, 1);
    assert_int_equal(t.shape[0], 6);
    assert_memory_equal(t.data, data, sizeof data);
    tio_free(&t);

    /* Version 1.0 without alignment padding, a trailing comma in the shape,
     * no final newline, native '=' byte order. */
    const int32_t ints[6] = {1, -2, 3, 2147483647, -2147483647 - 1, 0};
    write_npy(scratch("v1.npy"), 1, "{'descr':'=i4','fortran_order':False,'shape':(3,2,)}",
              ints, sizeof ints);
    if (tio_load(scratch("v1.npy"), &t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t.dtype, CLPAD_I32);
    assert_int_equal(t.rank, 2);
    assert_int_equal(t.shape[0], 3);
    assert_int_equal(t.shape[1], 2);
    assert_memory_equal(t.data, ints, sizeof ints);
    tio_free(&t);

    /* 1-byte types with any byte-order mark; a Python 2 long in the shape. */
    const unsigned char bytes[3] = {0, 1, 255};
    static const struct {
        const char *header;
        clpad_dtype dtype;
    } one_byte[] = {
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (3L,), }\n", CLPAD_U8},
        {"{'descr': '=u1', 'fortran_order': False, 'shape': (3,), }\n", CLPAD_U8},
        {"{'descr': '<i1', 'fortran_order': False, 'shape': (3,), }\n", CLPAD_I8},
        {"{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n", CLPAD_BOOL},
    };
    for (size_t i = 0; i < sizeof one_byte / sizeof one_byte[0]; i++) {
        write_npy(scratch("b.npy"), 1, one_byte[i].header, bytes, sizeof bytes);
        if (tio_load(scratch("b.npy"), &t, err, sizeof err))
            fail_msg("%s: %s", one_byte[i].header, err);
        assert_int_equal(t.dtype, one_byte[i].dtype);
        assert_int_equal(t.shape[0], 3);
        assert_memory_equal(t.data, bytes, 3);
        tio_free(&t);
    }

    /* A scalar written by hand in version 3.0, and an empty array. */
    const double pi = 3.14159;
    write_npy(scratch("s.npy"), 3, "{'descr': '<f8', 'fortran_order': False, 'shape': ()}",
              &pi, sizeof pi);
    assert_int_equal(tio_load(scratch("s.npy"), &t, err, sizeof err), 0);
    assert_int_equal(t.rank, 0);
    assert_int_equal(t.nbytes, 8);
    assert_memory_equal(t.data, &pi, 8);
    tio_free(&t);
    write_npy(scratch("e.npy"), 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (4, 0, 9)}",
              NULL, 0);
    assert_int_equal(tio_load(scratch("e.npy"), &t, err, sizeof err), 0);
    assert_int_equal(t.rank, 3);
    assert_int_equal(t.nbytes, 0);
    assert_non_null(t.data);
    tio_free(&t);
}

static void test_npy_malformed(void **state)
{
    (void)state;
    const char *path = scratch("bad.npy");
    const unsigned char four[4] = {1, 2, 3, 4};
    unsigned char big[64] = {0};

    /* Framing. */
    write_bytes(path, "", 0);
    expect_load_error(path, "truncated");
    WRITE_LIT(path, "\x93NUMPX\x01\x00\x10\x00{}");
    expect_load_error(path, "bad magic");
    WRITE_LIT(path, "PK\x03\x04 an npz archive");
    expect_load_error(path, "not a .npy file");
    WRITE_LIT(path, "\x93NUMPY\x01");
    expect_load_error(path, "truncated");
    WRITE_LIT(path, "\x93NUMPY\x01\x00\x76");
    expect_load_error(path, "truncated .npy header");
    WRITE_LIT(path, "\x93NUMPY\x02\x00\x10\x00\x00");
    expect_load_error(path, "truncated .npy header");
    WRITE_LIT(path, "\x93NUMPY\x04\x00\x10\x00{}");
    expect_load_error(path, "version 4.0");
    WRITE_LIT(path, "\x93NUMPY\x01\x01\x02\x00{}");
    expect_load_error(path, "version 1.1");
    {
        /* Declared header length 0x76 = 118 but only 20 header bytes present. */
        WRITE_LIT(path, "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'for");
        expect_load_error(path, "beyond the end of the file");
        /* Version 2.0 with a 4 GiB header length. */
        WRITE_LIT(path, "\x93NUMPY\x02\x00\xff\xff\xff\xff{}");
        expect_load_error(path, "beyond the end of the file");
    }

    static const struct {
        const char *header;
        const char *want;
    } cases[] = {
        {"[1, 2]\n", "expected '{'"},
        {"", "expected '{'"},
        {"{'descr': '<f4', ", "malformed"},
        {"{'descr': '<f4' 'shape': (1,)}", "malformed"},
        {"{'descr' '<f4'}", "expected ':'"},
        {"{descr: '<f4'}", "malformed"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}", "malformed"},
        {"{'descr': 'f\\x34', 'fortran_order': False, 'shape': (1,)}", "escape"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x\n", "unexpected text"},
        {"{'descr': '<f4', 'fortran_order': False}\n", "missing key 'shape'"},
        {"{'fortran_order': False, 'shape': (1,)}\n", "missing key 'descr'"},
        {"{'descr': '<f4', 'shape': (1,)}\n", "missing key 'fortran_order'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}", "unexpected key 'extra'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", "duplicate key 'descr'"},
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (1,)}", "'>f4' (big-endian"},
        {"{'descr': '>i2', 'fortran_order': False, 'shape': (2,)}", "'>i2'"},
        {"{'descr': '|i4', 'fortran_order': False, 'shape': (1,)}", "'|i4'"},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (1,)}", "'<c8' (complex"},
        {"{'descr': '|V2', 'fortran_order': False, 'shape': (2,)}", "'|V2'"},
        {"{'descr': '|O', 'fortran_order': False, 'shape': (1,)}", "'|O' (Python object"},
        {"{'descr': '<U1', 'fortran_order': False, 'shape': (1,)}", "'<U1' (string"},
        {"{'descr': '<M8[s]', 'fortran_order': False, 'shape': (1,)}", "'<M8[s]'"},
        {"{'descr': '<f16', 'fortran_order': False, 'shape': (1,)}", "'<f16'"},
        {"{'descr': 'f4', 'fortran_order': False, 'shape': (1,)}", "'f4'"},
        {"{'descr': 'float32', 'fortran_order': False, 'shape': (1,)}", "'float32'"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", "structured"},
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (1,)}", "Fortran"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", "True or False"},
        {"{'descr': '<f4', 'fortran_order': false, 'shape': (1,)}", "True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 1)}", "-1 is negative"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,)}", "'2.5' is not a non-negative integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (x,)}", "'x' is not"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1e3,)}", "'1e3' is not"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4)}", "not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [4]}", "not a list"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': 4}", "expected a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1, , 2)}", "expected an integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1 2)}", "expected ',' or ')'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1)}", "more than 8 dimensions"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", "too large"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904)}", "too large (size overflows)"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,)}", "too large (size overflows)"},
        /* The declared shape needs 4 TiB; the file holds 4 bytes: an error, no allocation. */
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,)}", "data is truncated"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", "data is truncated"},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (3,)}", "1 trailing bytes"},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': ()}", "3 trailing bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_npy(path, 1, cases[i].header, four, sizeof four);
        expect_load_error(path, cases[i].want);
        write_npy(path, 3, cases[i].header, four, sizeof four);
        expect_load_error(path, cases[i].want);
    }

    /* A NUL byte inside the header. */
    size_t len;
    unsigned char *b = build_npy(1, "{'descr':\0'<f4'}", 16, NULL, 0, &len);
    write_bytes(path, b, len);
    free(b);
    expect_load_error(path, "NUL");

    /* Data shorter than the shape by one byte. */
    write_npy(path, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 4), }\n", big, 63);
    expect_load_error(path, "needs 64 bytes, the file holds 63");
}

/* The in-memory loaders and writer are the file ones without the file: for
 * every dtype numpy can name, tio_save_npy_mem gives tio_save's bytes, and
 * tio_load_npy_mem / tio_load_image_mem give tio_load's tensor. */
static void test_memory_io_matches_files(void **state)
{
    (void)state;
    char err[512];
    for (size_t k = 0; k < sizeof npy_dtypes / sizeof npy_dtypes[0]; k++) {
        tio_tensor t, a, b;
        make_tensor(&t, npy_dtypes[k], 3, (const int64_t[]){2, 1, 3});
        const char *path = scratch("mem.npy");
        assert_int_equal(tio_save(path, &t, err, sizeof err), 0);
        size_t n, m;
        unsigned char *file = read_bytes(path, &n), *mem = NULL;
        assert_int_equal(tio_save_npy_mem(&t, &mem, &m, err, sizeof err), 0);
        assert_int_equal(m, n);
        assert_memory_equal(mem, file, n);
        assert_int_equal(tio_load(path, &a, err, sizeof err), 0);
        assert_int_equal(tio_load_npy_mem(mem, m, "mem.npy", &b, err, sizeof err), 0);
        assert_same_tensor(&a, &b);
        assert_same_tensor(&t, &b);
        free(file);
        free(mem);
        tio_free(&t);
        tio_free(&a);
        tio_free(&b);
        unlink(path);
    }
    /* Errors name the given name, and leave the tensor zeroed. */
    tio_tensor t;
    memset(&t, 0x5a, sizeof t);
    assert_int_equal(tio_load_npy_mem("\x93NUMPY", 6, "buf.npy", &t, err, sizeof err), 1);
    assert_non_null(strstr(err, "buf.npy: truncated"));
    assert_null(t.data);
    assert_int_equal(tio_load_image_mem("GIF89a", 6, "buf.png", 1 << 20, &t, err, sizeof err), 1);
    assert_non_null(strstr(err, "buf.png: cannot decode the image: GIF"));
    assert_null(t.data);
    /* A PNG in memory and from its file. */
    tio_tensor img, a;
    make_tensor(&img, CLPAD_U8, 3, (const int64_t[]){5, 7, 3});
    const char *png = scratch("mem.png");
    assert_int_equal(tio_save(png, &img, err, sizeof err), 0);
    size_t n;
    unsigned char *bytes = read_bytes(png, &n);
    assert_int_equal(tio_load_image_mem(bytes, n, "mem.png", 5 * 7, &t, err, sizeof err), 0);
    assert_int_equal(tio_load(png, &a, err, sizeof err), 0);
    assert_same_tensor(&img, &t);
    assert_same_tensor(&a, &t);
    assert_true(t.is_image);
    tio_free(&t);
    assert_int_equal(tio_load_image_mem(bytes, n, "mem.png", 5 * 7 - 1, &t, err, sizeof err),
                     1);
    assert_non_null(strstr(err, "more than the limit"));
    free(bytes);
    tio_free(&img);
    tio_free(&a);
    unlink(png);
}

static void test_npy_bf16_save_error(void **state)
{
    (void)state;
    tio_tensor t;
    make_tensor(&t, CLPAD_BF16, 2, (const int64_t[]){2, 2});
    int before = dir_entries(g_dir);
    const char *path = scratch("bf16.npy");
    expect_save_error(path, &t, "numpy has no bf16 dtype");
    expect_save_error(path, &t, path);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(dir_entries(g_dir), before);
    tio_free(&t);
}

/* ------------------------------------------------------------------------- */
/* Images                                                                    */
/* ------------------------------------------------------------------------- */

static void test_png_roundtrip(void **state)
{
    (void)state;
    for (int c = 1; c <= 4; c++) {
        tio_tensor a, b, d;
        make_tensor(&a, CLPAD_U8, 3, (const int64_t[]){7, 13, c});
        char err[512];
        if (tio_save(scratch("a.png"), &a, err, sizeof err))
            fail_msg("%s", err);
        if (tio_load(scratch("a.PNG"), &b, err, sizeof err) == 0)
            fail_msg("a.PNG should not exist");
        if (tio_load(scratch("a.png"), &b, err, sizeof err))
            fail_msg("%s", err);
        assert_true(b.is_image);
        assert_same_tensor(&a, &b);
        /* tensor -> PNG -> tensor again gives the same tensor */
        if (tio_save(scratch("b.png"), &b, err, sizeof err))
            fail_msg("%s", err);
        if (tio_load(scratch("b.png"), &d, err, sizeof err))
            fail_msg("%s", err);
        assert_same_tensor(&b, &d);
        tio_free(&a);
        tio_free(&b);
        tio_free(&d);
    }
    /* Rank 2 is a grayscale image; it loads back as HxWx1. */
    tio_tensor g, h;
    make_tensor(&g, CLPAD_U8, 2, (const int64_t[]){5, 3});
    char err[512];
    assert_int_equal(tio_save(scratch("g.png"), &g, err, sizeof err), 0);
    assert_int_equal(tio_load(scratch("g.png"), &h, err, sizeof err), 0);
    assert_int_equal(h.rank, 3);
    assert_int_equal(h.shape[0], 5);
    assert_int_equal(h.shape[1], 3);
    assert_int_equal(h.shape[2], 1);
    assert_memory_equal(g.data, h.data, 15);
    tio_free(&g);
    tio_free(&h);
}

static void test_ppm_pgm_roundtrip(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int rank, c;
        const char *magic;
    } cases[] = {
        {"a.ppm", 3, 3, "P6\n6 4\n255\n"}, {"a.pgm", 3, 1, "P5\n6 4\n255\n"},
        {"b.pgm", 2, 1, "P5\n6 4\n255\n"}, {"a.pnm", 3, 3, "P6\n6 4\n255\n"},
        {"b.pnm", 3, 1, "P5\n6 4\n255\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tio_tensor a, b;
        make_tensor(&a, CLPAD_U8, cases[i].rank, (const int64_t[]){4, 6, cases[i].c});
        char err[512];
        const char *path = scratch(cases[i].name);
        if (tio_save(path, &a, err, sizeof err))
            fail_msg("%s", err);
        size_t n;
        unsigned char *raw = read_bytes(path, &n);
        size_t hn = strlen(cases[i].magic);
        assert_int_equal(n, hn + a.nbytes);
        assert_memory_equal(raw, cases[i].magic, hn);
        free(raw);
        if (tio_load(path, &b, err, sizeof err))
            fail_msg("%s", err);
        assert_true(b.is_image);
        assert_int_equal(b.rank, 3);
        assert_int_equal(b.shape[0], 4);
        assert_int_equal(b.shape[1], 6);
        assert_int_equal(b.shape[2], cases[i].c);
        assert_memory_equal(a.data, b.data, a.nbytes);
        /* and back out as PNG, and in again */
        tio_tensor d;
        assert_int_equal(tio_save(scratch("c.png"), &b, err, sizeof err), 0);
        assert_int_equal(tio_load(scratch("c.png"), &d, err, sizeof err), 0);
        assert_same_tensor(&b, &d);
        tio_free(&a);
        tio_free(&b);
        tio_free(&d);
    }
}

/* 16-bit images: PGM/PPM keep 16 bits both ways (maxval 65535, big-endian
 * samples); PNG is refused with a pointer to what keeps them. */
static void test_16bit_images(void **state)
{
    (void)state;
    char err[512];
    for (int c = 1; c <= 3; c += 2) {
        tio_tensor a, b;
        make_tensor(&a, CLPAD_U16, 3, (const int64_t[]){3, 5, c});
        const char *path = scratch(c == 1 ? "w.pgm" : "w.ppm");
        if (tio_save(path, &a, err, sizeof err))
            fail_msg("%s", err);
        size_t n;
        unsigned char *raw = read_bytes(path, &n);
        const char *magic = c == 1 ? "P5\n5 3\n65535\n" : "P6\n5 3\n65535\n";
        assert_int_equal(n, strlen(magic) + a.nbytes);
        assert_memory_equal(raw, magic, strlen(magic));
        uint16_t first;
        memcpy(&first, a.data, 2);
        assert_int_equal(raw[strlen(magic)], first >> 8); /* big-endian */
        assert_int_equal(raw[strlen(magic) + 1], first & 0xff);
        free(raw);
        if (tio_load(path, &b, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(b.dtype, CLPAD_U16);
        assert_same_tensor(&a, &b);
        expect_save_error(scratch("w.png"), &a, "writes 8-bit PNG only; write .npy, or .pgm/.ppm");
        tio_free(&a);
        tio_free(&b);
        unlink(path);
    }
}

/* JPEG output through libjpeg-turbo: grey and RGB, read back within the
 * quality's error; the quality is used (a lower one gives a smaller file);
 * no alpha channel. */
static void test_jpeg_save(void **state)
{
    (void)state;
    char err[512];
    for (int c = 1; c <= 3; c += 2) {
        tio_tensor a, b;
        make_tensor(&a, CLPAD_U8, 3, (const int64_t[]){16, 24, c});
        unsigned char *px = a.data;
        for (size_t i = 0; i < a.nbytes; i++) /* smooth, so that JPEG keeps it closely */
            px[i] = (unsigned char)(40 + (i / (size_t)c) % 24 * 4 + (i % (size_t)c) * 30);
        if (tio_save(scratch("o.jpg"), &a, err, sizeof err))
            fail_msg("%s", err);
        size_t n95, n20;
        free(read_bytes(scratch("o.jpg"), &n95));
        if (tio_load(scratch("o.jpg"), &b, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(b.dtype, CLPAD_U8);
        assert_int_equal(b.shape[0], 16);
        assert_int_equal(b.shape[1], 24);
        assert_int_equal(b.shape[2], c);
        int worst = 0;
        for (size_t i = 0; i < a.nbytes; i++) {
            int d = abs((int)((unsigned char *)b.data)[i] - (int)px[i]);
            worst = d > worst ? d : worst;
        }
        if (worst > 12)
            fail_msg("%d-channel JPEG at the default quality: a sample is off by %d", c, worst);
        tio_free(&b);
        tio_save_options low = {.jpeg_quality = 20};
        assert_int_equal(tio_save_with(scratch("o.JPEG"), &a, &low, err, sizeof err), 0);
        free(read_bytes(scratch("o.JPEG"), &n20));
        assert_true(n20 < n95);
        tio_save_options bad = {.jpeg_quality = 101};
        assert_int_equal(tio_save_with(scratch("x.jpg"), &a, &bad, err, sizeof err), 1);
        assert_non_null(strstr(err, "quality 101"));
        tio_free(&a);
        unlink(scratch("o.jpg"));
        unlink(scratch("o.JPEG"));
    }
    tio_tensor a;
    make_tensor(&a, CLPAD_U8, 3, (const int64_t[]){4, 4, 4});
    expect_save_error(scratch("x.jpg"), &a, "JPEG has no alpha channel");
    tio_free(&a);
    assert_int_equal(access(scratch("x.jpg"), F_OK), -1);
}

/* BMP is a read-only format here; write it (and a reference JPEG) with stb directly. */
static void test_bmp_jpeg_load(void **state)
{
    (void)state;
    unsigned char px[8 * 6 * 3];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (unsigned char)(i % 3 == 0 ? 200 : i % 3 == 1 ? 100 : 50);
    assert_true(stbi_write_bmp(scratch("a.bmp"), 8, 6, 3, px));
    assert_true(stbi_write_jpg(scratch("a.JPG"), 8, 6, 3, px, 95));
    tio_tensor t;
    char err[512];
    if (tio_load(scratch("a.bmp"), &t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t.shape[0], 6);
    assert_int_equal(t.shape[1], 8);
    assert_int_equal(t.shape[2], 3);
    assert_memory_equal(t.data, px, sizeof px);
    tio_free(&t);
    if (tio_load(scratch("a.JPG"), &t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t.dtype, CLPAD_U8);
    assert_int_equal(t.shape[0], 6);
    assert_int_equal(t.shape[1], 8);
    assert_int_equal(t.shape[2], 3);
    for (size_t i = 0; i < sizeof px; i++) {
        int d = (int)((unsigned char *)t.data)[i] - (int)px[i];
        if (d < -8 || d > 8)
            fail_msg("jpeg pixel byte %zu: %d vs %d", i, ((unsigned char *)t.data)[i], px[i]);
    }
    tio_free(&t);
    unlink(scratch("a.bmp"));
    unlink(scratch("a.JPG"));
}

/* Write a JPEG with libjpeg (stb_image_write only writes YCbCr): grey, or CMYK
 * stored in Adobe's inverted convention, as Photoshop writes it. */
static void write_jpeg(const char *path, int w, int h, int comps, J_COLOR_SPACE space,
                       const unsigned char *px)
{
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    jpeg_stdio_dest(&c, f);
    c.image_width = (JDIMENSION)w;
    c.image_height = (JDIMENSION)h;
    c.input_components = comps;
    c.in_color_space = space;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 100, TRUE);
    jpeg_start_compress(&c, TRUE);
    for (int y = 0; y < h; y++) {
        JSAMPROW r = (JSAMPROW)(px + (size_t)y * w * comps);
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    fclose(f);
}

/* JPEG through libjpeg-turbo: grey stays one channel, CMYK becomes RGB. */
static void test_jpeg_grey_and_cmyk(void **state)
{
    (void)state;
    unsigned char grey[5 * 3];
    for (size_t i = 0; i < sizeof grey; i++)
        grey[i] = (unsigned char)(40 + 10 * i);
    write_jpeg(scratch("g.jpg"), 5, 3, 1, JCS_GRAYSCALE, grey);
    tio_tensor t;
    char err[512];
    if (tio_load(scratch("g.jpg"), &t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t.rank, 3);
    assert_int_equal(t.shape[0], 3);
    assert_int_equal(t.shape[1], 5);
    assert_int_equal(t.shape[2], 1);
    for (size_t i = 0; i < sizeof grey; i++) {
        int d = (int)((unsigned char *)t.data)[i] - (int)grey[i];
        if (d < -6 || d > 6)
            fail_msg("grey jpeg byte %zu: %d vs %d", i, ((unsigned char *)t.data)[i], grey[i]);
    }
    tio_free(&t);
    unsigned char cmyk[2 * 4 * 4]; /* left half K = 255, right half K = 128 */
    for (int i = 0; i < 8; i++) {
        cmyk[4 * i] = 200, cmyk[4 * i + 1] = 100, cmyk[4 * i + 2] = 50;
        cmyk[4 * i + 3] = i % 4 < 2 ? 255 : 128;
    }
    write_jpeg(scratch("k.jpg"), 4, 2, 4, JCS_CMYK, cmyk);
    if (tio_load(scratch("k.jpg"), &t, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(t.shape[0], 2);
    assert_int_equal(t.shape[1], 4);
    assert_int_equal(t.shape[2], 3);
    assert_int_equal(t.nbytes, 2 * 4 * 3);
    static const int want[2][3] = {{200, 100, 50}, {100, 50, 25}}; /* C*K/255 */
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++)
            for (int k = 0; k < 3; k++) {
                int got = ((unsigned char *)t.data)[(y * 4 + x) * 3 + k];
                int w = want[x >= 2][k];
                if (got < w - 6 || got > w + 6)
                    fail_msg("cmyk jpeg (%d,%d) channel %d: %d, want about %d", x, y, k, got, w);
            }
    tio_free(&t);
    unlink(scratch("g.jpg"));
    unlink(scratch("k.jpg"));
}

static void test_astronaut(void **state)
{
    (void)state;
    const char *src = getenv("CLPAD_SOURCE_DIR");
    if (!src || !*src) {
        printf("CLPAD_SOURCE_DIR not set; skipping the astronaut photo\n");
        skip();
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/data/astronaut.png", src);
    tio_tensor t;
    char err[512];
    if (tio_load(path, &t, err, sizeof err))
        fail_msg("%s", err);
    assert_true(t.is_image);
    assert_int_equal(t.dtype, CLPAD_U8);
    assert_int_equal(t.rank, 3);
    assert_int_equal(t.shape[0], 512);
    assert_int_equal(t.shape[1], 512);
    assert_int_equal(t.shape[2], 3);
    assert_int_equal(t.nbytes, 512 * 512 * 3);
    /* A photo, not a flat image. */
    unsigned char lo = 255, hi = 0;
    for (size_t i = 0; i < t.nbytes; i++) {
        unsigned char v = ((unsigned char *)t.data)[i];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    assert_true(hi - lo > 128);
    /* PNG -> tensor -> PNG -> tensor is lossless. */
    tio_tensor b;
    assert_int_equal(tio_save(scratch("astro.png"), &t, err, sizeof err), 0);
    assert_int_equal(tio_load(scratch("astro.png"), &b, err, sizeof err), 0);
    assert_same_tensor(&t, &b);
    tio_free(&b);
    assert_int_equal(tio_save(scratch("astro.npy"), &t, err, sizeof err), 0);
    assert_int_equal(tio_load(scratch("astro.npy"), &b, err, sizeof err), 0);
    assert_same_tensor(&t, &b);
    assert_false(b.is_image);
    tio_free(&b);
    tio_free(&t);
    unlink(scratch("astro.png"));
    unlink(scratch("astro.npy"));
}

static void test_image_save_errors(void **state)
{
    (void)state;
    int before = dir_entries(g_dir);
    tio_tensor t;
    make_tensor(&t, CLPAD_F32, 4, (const int64_t[]){1, 3, 5, 5});
    expect_save_error(scratch("x.png"), &t,
                      "cannot write a [1, 3, 5, 5] f32 tensor as PNG: PNG needs a u8 HxWxC "
                      "tensor with C in 1..4");
    expect_save_error(scratch("x.png"), &t, "use .npy");
    tio_free(&t);

    make_tensor(&t, CLPAD_U8, 3, (const int64_t[]){4, 4, 5});
    expect_save_error(scratch("x.png"), &t, "C in 1..4");
    tio_free(&t);
    make_tensor(&t, CLPAD_U8, 3, (const int64_t[]){4, 4, 0});
    expect_save_error(scratch("x.png"), &t, "C in 1..4");
    tio_free(&t);
    make_tensor(&t, CLPAD_I8, 3, (const int64_t[]){4, 4, 3});
    expect_save_error(scratch("x.png"), &t, "i8 tensor as PNG");
    tio_free(&t);
    make_tensor(&t, CLPAD_BOOL, 2, (const int64_t[]){4, 4});
    expect_save_error(scratch("x.png"), &t, "bool tensor as PNG");
    tio_free(&t);
    make_tensor(&t, CLPAD_U8, 1, (const int64_t[]){4});
    expect_save_error(scratch("x.png"), &t, "[4] u8 tensor as PNG");
    tio_free(&t);

    make_tensor(&t, CLPAD_U8, 3, (const int64_t[]){4, 4, 1});
    expect_save_error(scratch("x.ppm"), &t, "PPM needs a u8 HxWx3 tensor");
    tio_free(&t);
    make_tensor(&t, CLPAD_U8, 2, (const int64_t[]){4, 4});
    expect_save_error(scratch("x.ppm"), &t, "PPM needs");
    tio_free(&t);
    make_tensor(&t, CLPAD_U8, 3, (const int64_t[]){4, 4, 3});
    expect_save_error(scratch("x.pgm"), &t, "PGM needs a u8 HxW or HxWx1 tensor");
    expect_save_error(scratch("x.bmp"), &t, "cannot write bmp");
    expect_save_error(scratch("x.tiff"), &t, "unknown file type '.tiff'");
    expect_save_error(scratch("x"), &t, "no file extension");
    tio_free(&t);
    make_tensor(&t, CLPAD_U8, 3, (const int64_t[]){4, 4, 4});
    expect_save_error(scratch("x.pnm"), &t, "PNM needs");
    tio_free(&t);

    /* Zero-size images: an error for image formats, fine for .npy. */
    make_tensor(&t, CLPAD_U8, 3, (const int64_t[]){0, 4, 3});
    expect_save_error(scratch("x.png"), &t, "the image is empty");
    expect_save_error(scratch("x.ppm"), &t, "the image is empty");
    tio_free(&t);
    make_tensor(&t, CLPAD_U8, 2, (const int64_t[]){4, 0});
    expect_save_error(scratch("x.pgm"), &t, "the image is empty");
    char err[256];
    assert_int_equal(tio_save(scratch("x.npy"), &t, err, sizeof err), 0);
    unlink(scratch("x.npy"));
    tio_free(&t);

    /* Too large for stb_image_write's int sizes (checked before any data is needed). */
    char big_err[256];
    assert_int_equal(tio_check_save("big.png", CLPAD_U8, 3, (const int64_t[]){70000, 70000, 1},
                                    big_err, sizeof big_err),
                     1);
    assert_non_null(strstr(big_err, "too large"));
    assert_int_equal(tio_check_save("big.ppm", CLPAD_U8, 3, (const int64_t[]){70000, 70000, 3},
                                    big_err, sizeof big_err),
                     0);

    /* A tensor whose byte count does not match its shape. */
    make_tensor(&t, CLPAD_U8, 2, (const int64_t[]){4, 4});
    t.nbytes = 15;
    expect_save_error(scratch("x.npy"), &t, "expected 16");
    t.nbytes = 16;
    tio_free(&t);

    /* None of the failed saves left a file behind. */
    assert_int_equal(dir_entries(g_dir), before);
    assert_int_equal(access(scratch("x.png"), F_OK), -1);
    assert_int_equal(access(scratch("x.ppm"), F_OK), -1);
    assert_int_equal(access(scratch("x.pgm"), F_OK), -1);
}

/* ------------------------------------------------------------------------- */
/* Load errors, atomic saves                                                 */
/* ------------------------------------------------------------------------- */

static void test_load_file_errors(void **state)
{
    (void)state;
    expect_load_error(scratch("missing.npy"), "No such file");
    expect_load_error(scratch("missing.png"), "No such file");
    assert_int_equal(mkdir(scratch("dir.npy"), 0777), 0);
    expect_load_error(scratch("dir.npy"), "is a directory");
    rmdir(scratch("dir.npy"));
    WRITE_LIT(scratch("x.tiff"), "II*\0");
    expect_load_error(scratch("x.tiff"), "unknown file type '.tiff'");
    expect_load_error(scratch("x.tiff"), ".npy, .png");
    unlink(scratch("x.tiff"));
    expect_load_error(scratch("noext"), "no file extension");
    /* A FIFO nobody writes: the open does not wait for a writer (it would
     * forever); it reads as an empty file at once. */
    assert_int_equal(mkfifo(scratch("fifo.npy"), 0600), 0);
    assert_int_equal(mkfifo(scratch("fifo.png"), 0600), 0);
    alarm(20);
    expect_load_error(scratch("fifo.npy"), "fifo.npy");
    expect_load_error(scratch("fifo.png"), "the file is empty");
    alarm(0);
    unlink(scratch("fifo.npy"));
    unlink(scratch("fifo.png"));

    /* Corrupt or mislabelled images: stb_image's reason is in the message. */
    WRITE_LIT(scratch("junk.png"), "this is not a png at all");
    expect_load_error(scratch("junk.png"), "cannot decode the image");
    write_bytes(scratch("empty.jpg"), "", 0);
    expect_load_error(scratch("empty.jpg"), "cannot decode the image");
    /* stb_image zero-fills a short PNM; tensor_io checks the size itself. */
    WRITE_LIT(scratch("trunc.ppm"), "P6\n100 100\n255\n\x01\x02");
    expect_load_error(scratch("trunc.ppm"), "PNM data is truncated");
    WRITE_LIT(scratch("trunc.ppm"), "P5 # c\n3 2\n# comment\n255\n\x01\x02\x03\x04\x05");
    expect_load_error(scratch("trunc.ppm"), "needs 6 bytes, the file holds 5");
    /* The same with all its bytes (and comments in the header) loads. */
    WRITE_LIT(scratch("ok.pgm"), "P5 # c\n3 2\n# comment\n255\n\x01\x02\x03\x04\x05\x06");
    tio_tensor g;
    char gerr[256];
    if (tio_load(scratch("ok.pgm"), &g, gerr, sizeof gerr))
        fail_msg("%s", gerr);
    assert_int_equal(g.shape[0], 2);
    assert_int_equal(g.shape[1], 3);
    assert_int_equal(g.shape[2], 1);
    assert_memory_equal(g.data, "\x01\x02\x03\x04\x05\x06", 6);
    tio_free(&g);
    unlink(scratch("ok.pgm"));
    /* A PNG cut short. */
    tio_tensor a;
    make_tensor(&a, CLPAD_U8, 3, (const int64_t[]){16, 16, 3});
    char err[256];
    assert_int_equal(tio_save(scratch("cut.png"), &a, err, sizeof err), 0);
    size_t n;
    unsigned char *raw = read_bytes(scratch("cut.png"), &n);
    write_bytes(scratch("cut.png"), raw, n / 2);
    free(raw);
    tio_free(&a);
    expect_load_error(scratch("cut.png"), "cannot decode the image");
    unlink(scratch("junk.png"));
    unlink(scratch("empty.jpg"));
    unlink(scratch("trunc.ppm"));
    unlink(scratch("cut.png"));
}

static void test_atomic_failed_save_keeps_file(void **state)
{
    (void)state;
    char sub[512];
    snprintf(sub, sizeof sub, "%s/atomic", g_dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/out.png", sub);
    const char old[] = "previous contents, not even a PNG";
    write_bytes(path, old, sizeof old);

    tio_tensor t;
    make_tensor(&t, CLPAD_F32, 4, (const int64_t[]){1, 3, 5, 5});
    expect_save_error(path, &t, "PNG needs");
    tio_free(&t);
    size_t n;
    unsigned char *raw = read_bytes(path, &n);
    assert_int_equal(n, sizeof old);
    assert_memory_equal(raw, old, n);
    free(raw);
    assert_int_equal(dir_entries(sub), 1);

    /* A successful save replaces the file and leaves no temporary. */
    make_tensor(&t, CLPAD_U8, 3, (const int64_t[]){3, 3, 3});
    char err[256];
    assert_int_equal(tio_save(path, &t, err, sizeof err), 0);
    assert_int_equal(dir_entries(sub), 1);
    tio_tensor b;
    assert_int_equal(tio_load(path, &b, err, sizeof err), 0);
    assert_same_tensor(&t, &b);
    tio_free(&b);

    /* Saving over a directory fails in the rename: the temporary is removed. */
    char dpath[600];
    snprintf(dpath, sizeof dpath, "%s/taken.png", sub);
    assert_int_equal(mkdir(dpath, 0777), 0);
    expect_save_error(dpath, &t, dpath);
    struct stat st;
    assert_int_equal(stat(dpath, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(dir_entries(sub), 2);
    assert_int_equal(dir_entries(dpath), 0);
    rmdir(dpath);

    /* A read-only directory: mkstemp fails, the old file is untouched. */
    if (geteuid() != 0) {
        assert_int_equal(chmod(sub, 0555), 0);
        expect_save_error(path, &t, "cannot create a file in directory");
        assert_int_equal(chmod(sub, 0755), 0);
        assert_int_equal(dir_entries(sub), 1);
    }
    tio_free(&t);
    unlink(path);
    rmdir(sub);
}

static void test_save_nonexistent_dir(void **state)
{
    (void)state;
    tio_tensor t;
    make_tensor(&t, CLPAD_F32, 1, (const int64_t[]){3});
    const char *path = scratch("no/such/dir/out.npy");
    expect_save_error(path, &t, path);
    expect_save_error(path, &t, "No such file or directory");
    assert_int_equal(access(scratch("no"), F_OK), -1);
    /* The same for an image. */
    tio_free(&t);
    make_tensor(&t, CLPAD_U8, 3, (const int64_t[]){2, 2, 3});
    expect_save_error(scratch("nodir/out.png"), &t, "No such file or directory");
    tio_free(&t);
}

static void test_save_file_mode(void **state)
{
    (void)state;
    tio_tensor t;
    make_tensor(&t, CLPAD_U8, 1, (const int64_t[]){8});
    char err[256];
    const mode_t masks[] = {022, 077, 002, 0};
    mode_t old = umask(022);
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        umask(masks[i]);
        const char *path = scratch("mode.npy");
        assert_int_equal(tio_save(path, &t, err, sizeof err), 0);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_mode & 07777, 0666 & ~masks[i]);
        unlink(path);
    }
    umask(old);
    /* A relative path in the current directory works too. */
    char cwd[1024];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(g_dir), 0);
    int before = dir_entries(".");
    assert_int_equal(tio_save("rel.npy", &t, err, sizeof err), 0);
    tio_tensor b;
    assert_int_equal(tio_load("rel.npy", &b, err, sizeof err), 0);
    assert_same_tensor(&t, &b);
    tio_free(&b);
    assert_int_equal(dir_entries("."), before + 1);
    unlink("rel.npy");
    assert_int_equal(chdir(cwd), 0);
    tio_free(&t);
}


/* A .npy written piece by piece: reserved room and writes, the rows set at
 * the finish, the room beyond the data dropped; nothing left when the
 * caller fails. */
static void test_npy_writer(void **state)
{
    (void)state;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/streamed.npy", g_dir);
    int64_t shape[3] = {99, 5, 7}; /* the rows are set at the finish */
    float rows[6][35];
    for (int r = 0; r < 6; r++)
        for (int k = 0; k < 35; k++)
            rows[r][k] = (float)(r * 100 + k);
    tio_output_set *set;
    assert_int_equal(tio_output_set_open(&set, err, sizeof err), 0);
    tio_npy_writer *w;
    assert_int_equal(tio_output_set_begin_npy(set, path, CLPAD_F32, 3, shape, &w, err,
                                              sizeof err), 0);
    assert_int_equal(tio_npy_writer_write(w, rows[0], sizeof rows[0], err, sizeof err), 0);
    /* room for more than is written: the file keeps only the data */
    assert_int_equal(tio_npy_writer_reserve(w, 9 * sizeof rows[0], err, sizeof err), 0);
    assert_int_equal(tio_npy_writer_write(w, rows[1], 3 * sizeof rows[0], err, sizeof err), 0);
    assert_int_equal(tio_npy_writer_write(w, rows[4], 2 * sizeof rows[0], err, sizeof err), 0);
    assert_int_equal(tio_npy_writer_finish(w, 6, true, err, sizeof err), 0);
    assert_int_equal(tio_output_set_commit(set, err, sizeof err), 0);
    tio_tensor t = {0};
    assert_int_equal(tio_load(path, &t, err, sizeof err), 0);
    assert_int_equal(t.shape[0], 6);
    assert_int_equal(t.nbytes, sizeof rows);
    assert_memory_equal(t.data, rows, sizeof rows);
    tio_free(&t);
    /* a wrong row count, and a caller that failed: no output, no temporary */
    char path2[128];
    snprintf(path2, sizeof path2, "%s/never.npy", g_dir);
    assert_int_equal(tio_output_set_open(&set, err, sizeof err), 0);
    assert_int_equal(tio_output_set_begin_npy(set, path2, CLPAD_F32, 3, shape, &w, err,
                                              sizeof err), 0);
    assert_int_equal(tio_npy_writer_write(w, rows[0], sizeof rows[0], err, sizeof err), 0);
    assert_int_equal(tio_npy_writer_finish(w, 2, true, err, sizeof err), 1);
    assert_non_null(strstr(err, "rows"));
    assert_int_equal(tio_output_set_begin_npy(set, path2, CLPAD_F32, 3, shape, &w, err,
                                              sizeof err), 0);
    assert_int_equal(tio_npy_writer_reserve(w, sizeof rows[0], err, sizeof err), 0);
    assert_int_equal(tio_npy_writer_finish(w, 1, false, err, sizeof err), 1);
    tio_output_set_abort(set);
    struct stat st;
    assert_int_not_equal(stat(path2, &st), 0);
    DIR *d = opendir(g_dir);
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            fail_msg("a temporary is left: %s", e->d_name);
    closedir(d);
}

/* A streamed .npy of 72 MiB on a disk: its header padded to 4096 bytes and
 * its aligned pieces written with O_DIRECT (turned off for the others and
 * on again) (io/load_save.c), so that they
 * are not in the page cache afterwards, the others through it; the data
 * exactly what was written, whatever the alignment of each piece. On tmpfs
 * (no direct writes): numpy's 128-byte header, the same data. */
static void test_npy_writer_direct(void **state)
{
    (void)state;
#ifdef __linux__
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/direct.npy", g_dir);
    const size_t row = (size_t)1 << 20, nrows = 72, total = nrows * row;
    int64_t shape[2] = {(int64_t)nrows, (int64_t)(row / 4)};
    unsigned char *data = NULL;
    assert_int_equal(posix_memalign((void **)&data, 4096, total), 0);
    for (size_t i = 0; i < total / 4; i++)
        ((uint32_t *)data)[i] = (uint32_t)(i * 2654435761u);
    tio_output_set *set;
    assert_int_equal(tio_output_set_open(&set, err, sizeof err), 0);
    tio_npy_writer *w;
    assert_int_equal(tio_output_set_begin_npy(set, path, CLPAD_F32, 2, shape, &w, err,
                                              sizeof err), 0);
    assert_int_equal(tio_npy_writer_reserve(w, total, err, sizeof err), 0);
    /* aligned; aligned but of a length no multiple of 4096; at an unaligned
     * offset; aligned again */
    const size_t cut[] = {0, 32 * row, 32 * row + 1000, 40 * row, total};
    for (int k = 0; k < 4; k++)
        assert_int_equal(tio_npy_writer_write(w, data + cut[k], cut[k + 1] - cut[k], err,
                                              sizeof err), 0);
    assert_int_equal(tio_npy_writer_finish(w, (int64_t)nrows, true, err, sizeof err), 0);
    assert_int_equal(tio_output_set_commit(set, err, sizeof err), 0);

    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    struct statfs sf;
    assert_int_equal(fstatfs(fd, &sf), 0);
    bool on_disk = sf.f_type != 0x01021994 && sf.f_type != (long)0x858458f6;
    unsigned char h[10];
    assert_int_equal(read(fd, h, sizeof h), (ssize_t)sizeof h);
    size_t header = 10 + (size_t)(h[8] | h[9] << 8);
    assert_int_equal(header, on_disk ? 4096 : 128);
    if (on_disk) {
        /* the first 32 MiB went around the page cache, the unaligned piece
         * through it */
        size_t len = header + total, pages = (len + 4095) / 4096;
        unsigned char *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
        assert_true(m != MAP_FAILED);
        unsigned char *vec = malloc(pages);
        assert_non_null(vec);
        assert_int_equal(mincore(m, len, vec), 0);
        size_t resident = 0;
        for (size_t p = 1; p < 1 + 32 * row / 4096; p++)
            resident += vec[p] & 1;
        assert_true(resident < 32 * row / 4096 / 10);
        assert_true(vec[(header + 32 * row + 1000) / 4096] & 1);
        /* and the last, aligned again, around it too (direct writes turned
         * back on after the unaligned pieces) */
        resident = 0;
        for (size_t p = (header + 40 * row) / 4096; p < pages; p++)
            resident += vec[p] & 1;
        assert_true(resident < 32 * row / 4096 / 10);
        free(vec);
        munmap(m, len);
    }
    close(fd);
    tio_tensor t = {0};
    assert_int_equal(tio_load(path, &t, err, sizeof err), 0);
    assert_int_equal(t.shape[0], (int64_t)nrows);
    assert_int_equal(t.nbytes, total);
    assert_memory_equal(t.data, data, total);
    tio_free(&t);
    unlink(path);
    free(data);
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_npy_roundtrip_all_dtypes),
        cmocka_unit_test(test_npy_header_matches_numpy),
        cmocka_unit_test(test_npy_versions_by_hand),
        cmocka_unit_test(test_npy_malformed),
        cmocka_unit_test(test_npy_bf16_save_error),
        cmocka_unit_test(test_memory_io_matches_files),
        cmocka_unit_test(test_png_roundtrip),
        cmocka_unit_test(test_ppm_pgm_roundtrip),
        cmocka_unit_test(test_bmp_jpeg_load),
        cmocka_unit_test(test_jpeg_grey_and_cmyk),
        cmocka_unit_test(test_astronaut),
        cmocka_unit_test(test_image_save_errors),
        cmocka_unit_test(test_load_file_errors),
        cmocka_unit_test(test_atomic_failed_save_keeps_file),
        cmocka_unit_test(test_save_nonexistent_dir),
        cmocka_unit_test(test_save_file_mode),
        cmocka_unit_test(test_16bit_images),
        cmocka_unit_test(test_jpeg_save),
        cmocka_unit_test(test_npy_writer),
        cmocka_unit_test(test_npy_writer_direct),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
