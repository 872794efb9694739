/*
 * The checks behind the fuzz targets and tests/test_hostile.c (see
 * fuzz_checks.h). Every oracle here is written from the headers' and
 * docs/spec.md's text, element by element or formula by formula, sharing no code
 * with the library: 128-bit integers stand in for "exact", so that an
 * overflow of int64 is seen rather than suffered.
 *
 * Status expectations are sets: a call that breaks several rules may report
 * any of them (the order of the checks is the library's business), and a call
 * that breaks none must succeed, except where some value of the computation
 * does not fit in int64 (then CLPAD_ERR_OVERFLOW is also allowed).
 */
#include "fuzz_checks.h"

#include "clpad.h"
#include "clpad_image.h"
#include "clpad_letterbox.h"
#include "tensor_io.h"
/* the stream reader (the bytes as a pipe delivers them) */
#include "io_internal.h"
#ifdef FZ_WITH_INTERNALS /* the fuzz build compiles the library's sources in */
#include "ops/pad/pad.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef __int128 i128;

/* ------------------------------------------------------------------------- */
/* Messages                                                                  */
/* ------------------------------------------------------------------------- */

static _Thread_local char fz_msg[1536];

static const char *fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *fz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fz_msg, sizeof fz_msg, fmt, ap);
    va_end(ap);
    for (char *p = fz_msg; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return fz_msg;
}

/* Fail the current check (the function has `msg` and an `out:` label). */
#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            msg = fz_fail(__VA_ARGS__);                                                  \
            goto out;                                                                    \
        }                                                                                \
    } while (0)

/* A set of statuses: bit -status (CLPAD_OK is bit 0). */
#define SB(st) (1u << (unsigned)(-(int)(st)))
#define S_OK SB(CLPAD_OK)
#define S_ARG SB(CLPAD_ERR_INVALID_ARGUMENT)
#define S_SHAPE SB(CLPAD_ERR_INVALID_SHAPE)
#define S_PADS SB(CLPAD_ERR_INVALID_PADS)
#define S_OVF SB(CLPAD_ERR_OVERFLOW)
#define S_SMALL SB(CLPAD_ERR_BUFFER_TOO_SMALL)
#define S_PARSE SB(CLPAD_ERR_PARSE)

static const char *set_str(unsigned set, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int s = 0; s <= 13 && used < len; s++)
        if (set & (1u << s)) {
            int n = snprintf(buf + used, len - used, "%s%s", used ? "|" : "",
                             clpad_status_name((clpad_status)-s));
            used += n > 0 ? (size_t)n : 0;
        }
    return buf;
}

/* NULL when `st` is in `allowed`, and a failed call left a message; else why not. */
static const char *judge(const char *what, clpad_status st, unsigned allowed)
{
    int s = -(int)st;
    if (s < 0 || s > 13 || !(allowed & (1u << s))) {
        char want[256];
        return fz_fail("%s returned %s (%s), expected %s", what, clpad_status_name(st),
                       clpad_last_error(), set_str(allowed, want, sizeof want));
    }
    if (st != CLPAD_OK && !clpad_last_error()[0])
        return fz_fail("%s returned %s with an empty clpad_last_error()", what,
                       clpad_status_name(st));
    return NULL;
}

/* ------------------------------------------------------------------------- */
/* Decoding the structured inputs (mirrored by fuzz/make_corpus.py)         */
/* ------------------------------------------------------------------------- */

typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

/* The next byte; 0 once the input is used up. */
static uint8_t rd_u8(fz_in *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

/* Values that sit on the edges of int64, size_t and the shape rules. */
static const int64_t interesting[48] = {
    INT64_MIN, INT64_MIN + 1, -(INT64_C(1) << 62), -(INT64_C(1) << 32), -(INT64_C(1) << 31),
    -65536, -4096, -257, -256, -129, -128, -9, -8, -3, -2, -1,
    0, 1, 2, 3, 7, 8, 9, 16, 64, 127, 128, 255, 256, 4096, 65535, 65536,
    INT32_MAX, INT64_C(1) << 31, UINT32_MAX, INT64_C(1) << 32, INT64_C(3037000499),
    INT64_C(3037000500), INT64_C(1) << 53, (INT64_C(1) << 53) + 1, INT64_C(1) << 61,
    (INT64_C(1) << 62) - 1, INT64_C(1) << 62, INT64_MAX / 2, INT64_MAX / 3, INT64_MAX - 1,
    INT64_MAX, (INT64_C(1) << 62) + 1};

/* An integer: byte t < 0xC0 gives lo + t % (hi - lo + 1); 0xC0..0xEF one of
 * `interesting`; 0xF0..0xFF the next 8 bytes, little-endian. */
static int64_t rd_int(fz_in *r, int64_t lo, int64_t hi)
{
    uint8_t t = rd_u8(r);
    if (t < 0xC0)
        return lo + (int64_t)((uint64_t)t % (uint64_t)(hi - lo + 1));
    if (t < 0xF0)
        return interesting[t - 0xC0];
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)rd_u8(r) << (8 * i);
    int64_t s;
    memcpy(&s, &v, sizeof s);
    return s;
}

/* An enum value: byte t < 0xF0 gives t % count; else an invalid value. */
static int rd_enum(fz_in *r, int count)
{
    uint8_t t = rd_u8(r);
    if (t < 0xF0)
        return t % count;
    const int weird[8] = {-1, count, count + 1, 100, INT_MIN, INT_MAX, -100, 255};
    return weird[t & 7];
}

/* A rank: byte t < 0xF0 gives lo + t % (hi - lo + 1); else an odd value. */
static int rd_rank(fz_in *r, int lo, int hi)
{
    uint8_t t = rd_u8(r);
    if (t < 0xF0)
        return lo + t % (hi - lo + 1);
    const int weird[8] = {-1, 0, 1, 9, INT_MIN, INT_MAX, 64, 100};
    return weird[t & 7];
}

/* An int64 as an int, saturated. */
static int to_int(int64_t v)
{
    return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : (int)v;
}

static int clamp_rank(int rank)
{
    return rank < 0 ? 0 : rank > CLPAD_MAX_RANK ? CLPAD_MAX_RANK : rank;
}

/* An array of exactly n int64 (so that ASan sees a read past the rank). */
static int64_t *arr(int n)
{
    int64_t *a = malloc(n > 0 ? (size_t)n * sizeof *a : 1);
    if (!a)
        abort();
    return a;
}

static bool fits64(i128 v)
{
    return v >= INT64_MIN && v <= INT64_MAX;
}

/* Fill n bytes with a pattern that differs between neighbouring elements. */
static void pattern(unsigned char *p, size_t n, unsigned salt)
{
    for (size_t k = 0; k < n; k++)
        p[k] = (unsigned char)((k * 0x9Eu) ^ (k >> 8) * 0x3Bu ^ (salt * 0x55u) ^ 0x11u);
}

static bool all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    for (size_t k = 0; k < n; k++)
        if (p[k] != v)
            return false;
    return true;
}

/* Element count of a shape with the rule the library applies: the product of
 * the non-zero dimensions must fit (int64 elements, size_t bytes); an
 * axis of 0 makes the tensor empty. *lenient: it has a 0 axis and its
 * non-zero product does not fit -- the library may then report OVERFLOW or
 * accept the empty tensor (see the report: clpad__count stops at the first
 * overflowing prefix, so [0, 2^40, 2^40] passes and [2^40, 2^40, 0] fails). */
typedef struct count {
    i128 elems, bytes; /* exact; elems is 0 when an axis is 0 */
    bool overflow;     /* the count or the bytes do not fit */
    bool lenient;      /* an empty tensor whose non-zero product does not fit */
} fz_count;

static fz_count fz_count_of(int rank, const i128 *dims, size_t esize)
{
    fz_count c = {1, 0, false, false};
    i128 nz = 1;
    bool zero = false, big = false;
    for (int i = 0; i < rank; i++) {
        if (dims[i] == 0) {
            zero = true;
            continue;
        }
        if (dims[i] < 0 || dims[i] > INT64_MAX || nz > INT64_MAX / dims[i])
            big = true;
        else
            nz *= dims[i];
    }
    if (!big && (nz > INT64_MAX || (uint64_t)nz > SIZE_MAX / (esize ? esize : 1)))
        big = true;
    c.elems = zero ? 0 : nz;
    c.bytes = big ? 0 : c.elems * (i128)esize;
    c.overflow = big && !zero;
    c.lenient = big && zero;
    return c;
}

/* ------------------------------------------------------------------------- */
/* .npy                                                                      */
/* ------------------------------------------------------------------------- */

static bool tensor_zeroed(const tio_tensor *t)
{
    tio_tensor z;
    memset(&z, 0, sizeof z);
    return memcmp(t, &z, sizeof z) == 0;
}

/* What a pipe's writer writes: all of it, then it closes its end. */
typedef struct pipe_writer {
    int fd;
    const uint8_t *data;
    size_t size;
} pipe_writer;

static void *write_pipe(void *arg)
{
    pipe_writer *w = arg;
    for (size_t done = 0; done < w->size;) {
        ssize_t k = write(w->fd, w->data + done, w->size - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    close(w->fd);
    return NULL;
}

/* The same bytes read as a stream: a .npy from memory read as a pipe would
 * deliver it, an image from a real pipe (the library reads images itself);
 * *consumed is how far the reader went. */
static int load_stream(bool npy, const uint8_t *data, size_t size, tio_tensor *t,
                       uint64_t *consumed, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (npy) {
        tio__reader r;
        tio__reader_mem(&r, "fuzz.npy", data, size, false);
        int rc = tio__load_npy(&r, t, err, errlen);
        if (rc) {
            free(t->data);
            memset(t, 0, sizeof *t);
        }
        *consumed = r.pos;
        return rc;
    }
    /* A writer thread fills the pipe; once the image is read, what it left
     * unread is drained, so that the writer always finishes. */
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "fuzz.img: pipe: %s", strerror(errno));
        return 2;
    }
    pipe_writer w = {fds[1], data, size};
    pthread_t th;
    if (pthread_create(&th, NULL, write_pipe, &w) != 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(err, errlen, "fuzz.img: cannot start the writer thread");
        return 2;
    }
    int rc = tio__load_image_fd(fds[0], "fuzz.img", FZ_IMAGE_MAX_PIXELS, t, err, errlen);
    uint64_t left = 0;
    char sink[4096];
    for (;;) {
        ssize_t k = read(fds[0], sink, sizeof sink);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        left += (uint64_t)k;
    }
    pthread_join(th, NULL);
    close(fds[0]);
    *consumed = size - left;
    return rc;
}

static bool same_tensor(const tio_tensor *a, const tio_tensor *b)
{
    return a->dtype == b->dtype && a->rank == b->rank && a->nbytes == b->nbytes &&
           a->is_image == b->is_image && !memcmp(a->shape, b->shape, sizeof a->shape) &&
           (!a->nbytes || !memcmp(a->data, b->data, a->nbytes));
}

static const char *check_err_text(const char *what, const char *err, const char *name)
{
    if (!err[0])
        return fz_fail("%s failed with an empty message", what);
    if (strchr(err, '\n'))
        return fz_fail("%s: message has a newline: %s", what, err);
    if (name && !strstr(err, name))
        return fz_fail("%s: message does not name '%s': %s", what, name, err);
    return NULL;
}

const char *fz_check_npy(const uint8_t *data, size_t size)
{
    const char *msg = NULL;
    char err[512] = "";
    tio_tensor t, u;
    unsigned char *saved = NULL;
    size_t saved_len = 0;
    memset(&u, 0, sizeof u);
    int rc = tio_load_npy_mem(data, size, "fuzz.npy", &t, err, sizeof err);
    CHECK(rc == 0 || rc == 1, "tio_load_npy_mem returned %d", rc);
    /* As a stream: the reader goes exactly as far as the header promises
     * (the declared sizes against what arrives), and agrees with the file
     * reader, except that a stream may go on after the data. */
    uint64_t consumed;
    char serr[512] = "";
    int src = load_stream(true, data, size, &u, &consumed, serr, sizeof serr);
    CHECK(consumed <= size, "the stream reader went %llu bytes into %zu",
          (unsigned long long)consumed, size);
    if (src) {
        CHECK(rc, "a .npy loads from a file but not as a stream: %s", serr);
        msg = check_err_text("the .npy stream reader", serr, "fuzz.npy");
        CHECK(!msg, "%s", msg);
        CHECK(tensor_zeroed(&u), "the .npy stream reader failed but left the tensor non-zero");
    } else {
        CHECK(u.data && u.nbytes <= consumed, "the stream gave %zu bytes of data from %llu",
              u.nbytes, (unsigned long long)consumed);
        CHECK(!u.nbytes || !memcmp(u.data, data + consumed - u.nbytes, u.nbytes),
              "the stream's data is not the bytes before where it stopped");
        if (rc)
            CHECK(strstr(err, "trailing bytes") && consumed < size,
                  "a .npy loads as a stream (%llu of %zu bytes) but not from a file: %s",
                  (unsigned long long)consumed, size, err);
        else
            CHECK(same_tensor(&t, &u) && consumed == size,
                  "the stream and the file give different tensors");
    }
    tio_free(&u);
    if (rc) {
        msg = check_err_text("tio_load_npy_mem", err, "fuzz.npy");
        CHECK(!msg, "%s", msg);
        CHECK(tensor_zeroed(&t), "tio_load_npy_mem failed but left the tensor non-zero");
        goto out;
    }
    /* Independent framing: magic, version, header length, then the data. */
    CHECK(size >= 10 && memcmp(data, "\x93NUMPY", 6) == 0, "accepted without the magic");
    CHECK((data[6] >= 1 && data[6] <= 3) && data[7] == 0, "accepted version %u.%u", data[6],
          data[7]);
    size_t prefix = data[6] == 1 ? 10 : 12;
    CHECK(size >= prefix, "accepted a file shorter than its prefix");
    uint64_t hlen = data[6] == 1 ? (uint64_t)data[8] | (uint64_t)data[9] << 8
                                 : (uint64_t)data[8] | (uint64_t)data[9] << 8 |
                                       (uint64_t)data[10] << 16 | (uint64_t)data[11] << 24;
    CHECK(hlen <= size - prefix, "header length %llu beyond the file", (unsigned long long)hlen);
    CHECK(t.rank >= 0 && t.rank <= CLPAD_MAX_RANK, "rank %d", t.rank);
    size_t es = clpad_dtype_size(t.dtype);
    CHECK(es && t.dtype != CLPAD_BF16, "dtype %d has no numpy descr", (int)t.dtype);
    i128 dims[CLPAD_MAX_RANK];
    for (int i = 0; i < t.rank; i++) {
        CHECK(t.shape[i] >= 0, "shape[%d] = %lld", i, (long long)t.shape[i]);
        dims[i] = t.shape[i];
    }
    for (int i = t.rank; i < CLPAD_MAX_RANK; i++)
        CHECK(t.shape[i] == 0, "shape[%d] = %lld beyond the rank", i, (long long)t.shape[i]);
    /* numpy's rule: a 0 axis makes the array empty whatever the others are. */
    i128 n = (i128)es;
    bool zero = false;
    for (int i = 0; i < t.rank; i++)
        zero |= t.shape[i] == 0;
    for (int i = 0; i < t.rank && !zero; i++) {
        n *= dims[i];
        CHECK(n <= (i128)size, "data size beyond the file accepted");
    }
    if (zero)
        n = 0;
    CHECK((i128)t.nbytes == n, "nbytes %zu, shape says %lld", t.nbytes, (long long)n);
    CHECK(prefix + hlen + t.nbytes == size, "header %zu + %llu + data %zu != file %zu", prefix,
          (unsigned long long)hlen, t.nbytes, size);
    CHECK(t.data != NULL, "data is NULL after a successful load");
    CHECK(!t.is_image, "is_image set for a .npy");
    CHECK(t.nbytes == 0 || memcmp(t.data, data + prefix + hlen, t.nbytes) == 0,
          "data differs from the file's data");

    /* Round trip through the writer: the same tensor, numpy's framing. */
    rc = tio_save_npy_mem(&t, &saved, &saved_len, err, sizeof err);
    CHECK(rc == 0, "tio_save_npy_mem failed on a loaded tensor: %s", err);
    CHECK(saved_len >= 10 + t.nbytes && memcmp(saved, "\x93NUMPY\x01\x00", 8) == 0,
          "saved .npy lacks the 1.0 prefix");
    CHECK((saved_len - t.nbytes) % 64 == 0, "saved header is not 64-byte aligned");
    rc = tio_load_npy_mem(saved, saved_len, "saved.npy", &u, err, sizeof err);
    CHECK(rc == 0, "reloading the saved .npy failed: %s", err);
    CHECK(u.dtype == t.dtype && u.rank == t.rank && u.nbytes == t.nbytes &&
              memcmp(u.shape, t.shape, sizeof t.shape) == 0,
          "round trip changed dtype, rank or shape");
    CHECK(t.nbytes == 0 || memcmp(u.data, t.data, t.nbytes) == 0, "round trip changed the data");
out:
    tio_free(&t);
    tio_free(&u);
    free(saved);
    return msg;
}

/* ------------------------------------------------------------------------- */
/* Images                                                                    */
/* ------------------------------------------------------------------------- */

static uint32_t be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint32_t le16(const uint8_t *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8; }
static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* PNG: width, height and channels from IHDR and a tRNS before the data. */
static bool png_geometry(const uint8_t *d, size_t n, long long *w, long long *h, int *c)
{
    if (n < 33 || memcmp(d + 12, "IHDR", 4) != 0)
        return false;
    *w = be32(d + 16);
    *h = be32(d + 20);
    static const int base[7] = {1, 0, 3, 3, 2, 0, 4};
    int type = d[25];
    if (type > 6 || !base[type])
        return false;
    *c = base[type];
    bool trns = false;
    for (size_t i = 8; i + 12 <= n;) {
        uint32_t len = be32(d + i);
        if (!memcmp(d + i + 4, "IDAT", 4) || !memcmp(d + i + 4, "IEND", 4))
            break;
        if (!memcmp(d + i + 4, "tRNS", 4))
            trns = true;
        if (len > n - i - 12)
            break;
        i += 12 + (size_t)len;
    }
    if (trns)
        *c = type == 3 ? 4 : type == 0 || type == 2 ? *c + 1 : *c;
    return true;
}

/* JPEG: the first frame header libjpeg-turbo decodes (SOF0/1/2, or SOF9/10
 * for arithmetic coding) reached by walking whole marker segments. */
static bool jpeg_geometry(const uint8_t *d, size_t n, long long *w, long long *h, int *c)
{
    size_t i = 2;
    while (i + 4 <= n) {
        if (d[i] != 0xff)
            return false; /* garbage between segments: stb skips it, we stop */
        uint8_t m = d[i + 1];
        if (m == 0xff) {
            i++;
            continue;
        }
        if (m == 0xd8 || m == 0x01 || (m >= 0xd0 && m <= 0xd7)) {
            i += 2;
            continue;
        }
        size_t len = (size_t)d[i + 2] << 8 | d[i + 3];
        if (m == 0xc0 || m == 0xc1 || m == 0xc2 || m == 0xc9 || m == 0xca) {
            if (i + 10 > n)
                return false;
            *h = (long long)d[i + 5] << 8 | d[i + 6];
            *w = (long long)d[i + 7] << 8 | d[i + 8];
            *c = d[i + 9] >= 3 ? 3 : 1;
            return true;
        }
        if (m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc)
            return false; /* a SOF stb does not decode */
        if (len < 2)
            return false;
        i += 2 + len;
    }
    return false;
}

/* PNM P5/P6: header fields as netpbm defines them. */
static bool pnm_geometry(const uint8_t *d, size_t n, long long *w, long long *h, int *c,
                         long long *maxval, size_t *data_off)
{
    long long v[3];
    size_t i = 2;
    for (int f = 0; f < 3; f++) {
        for (;;) {
            while (i < n && (d[i] == ' ' || (d[i] >= '\t' && d[i] <= '\r')))
                i++;
            if (i < n && d[i] == '#') {
                while (i < n && d[i] != '\n' && d[i] != '\r')
                    i++;
                continue;
            }
            break;
        }
        if (i >= n || !isdigit(d[i]))
            return false;
        v[f] = 0;
        while (i < n && isdigit(d[i])) {
            if (v[f] < (INT64_C(1) << 40))
                v[f] = v[f] * 10 + (d[i] - '0');
            i++;
        }
    }
    if (i >= n)
        return false;
    *w = v[0];
    *h = v[1];
    *maxval = v[2];
    *c = d[1] == '6' ? 3 : 1;
    *data_off = i + 1;
    return true;
}

const char *fz_check_image(const uint8_t *data, size_t size)
{
    const char *msg = NULL;
    char err[512] = "";
    tio_tensor t;
    int rc = tio_load_image_mem(data, size, "fuzz.img", FZ_IMAGE_MAX_PIXELS, &t, err, sizeof err);
    CHECK(rc == 0 || rc == 1, "tio_load_image_mem returned %d", rc);
    /* As a stream: the same answer, from no more bytes than the file. */
    {
        tio_tensor u;
        uint64_t consumed;
        char serr[512] = "";
        int src = load_stream(false, data, size, &u, &consumed, serr, sizeof serr);
        bool agree = src == rc && (rc || same_tensor(&t, &u));
        tio_free(&u);
        CHECK(consumed <= size, "the stream reader went %llu bytes into %zu",
              (unsigned long long)consumed, size);
        CHECK(agree, "the stream (%d: %s) and the file (%d: %s) disagree", src, serr, rc, err);
    }
    if (rc) {
        msg = check_err_text("tio_load_image_mem", err, "fuzz.img");
        CHECK(!msg, "%s", msg);
        CHECK(tensor_zeroed(&t), "tio_load_image_mem failed but left the tensor non-zero");
        goto out;
    }
    CHECK((t.dtype == CLPAD_U8 || t.dtype == CLPAD_U16) && t.rank == 3 && t.is_image,
          "not a u8 or u16 HxWxC image tensor");
    long long H = t.shape[0], W = t.shape[1], C = t.shape[2];
    size_t es = clpad_dtype_size(t.dtype);
    CHECK(H >= 1 && W >= 1 && H <= (1 << 24) && W <= (1 << 24), "image %lldx%lld", W, H);
    CHECK(C >= 1 && C <= 4, "%lld channels", C);
    for (int i = 3; i < CLPAD_MAX_RANK; i++)
        CHECK(t.shape[i] == 0, "shape[%d] = %lld beyond the rank", i, (long long)t.shape[i]);
    CHECK((i128)t.nbytes == (i128)H * W * C * (i128)es, "nbytes %zu for %lldx%lldx%lld of %s",
          t.nbytes, H, W, C, clpad_dtype_name(t.dtype));
    CHECK((uint64_t)H * (uint64_t)W <= FZ_IMAGE_MAX_PIXELS, "image of %lld pixels above the limit",
          H * W);
    CHECK(t.data != NULL, "data is NULL");

    /* Geometry against the file's own header, read independently, with the
     * height and width swapped by an EXIF orientation of 5..8 (the library's
     * probe says which). */
    long long w = -1, h = -1, maxval = 0;
    int c = 0;
    size_t off = 0;
    clpad_image_info info = {.size = sizeof info};
    if (clpad_image_probe(data, size, "fuzz.img", &info) == CLPAD_OK && info.orientation >= 5) {
        long long tmp = H;
        H = W;
        W = tmp;
    }
    if (size >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0) {
        if (png_geometry(data, size, &w, &h, &c)) {
            CHECK(w == W && h == H && c == C, "PNG header says %lldx%lldx%d, loaded %lldx%lldx%lld",
                  w, h, c, W, H, C);
            /* 16-bit samples stay 16-bit; every other depth comes out as u8. */
            CHECK((data[24] == 16) == (t.dtype == CLPAD_U16), "a PNG of bit depth %d loaded as %s",
                  data[24], clpad_dtype_name(t.dtype));
        }
    } else if (size >= 3 && data[0] == 0xff && data[1] == 0xd8 && data[2] == 0xff) {
        if (jpeg_geometry(data, size, &w, &h, &c))
            CHECK(w == W && h == H && c == C,
                  "JPEG header says %lldx%lldx%d, loaded %lldx%lldx%lld", w, h, c, W, H, C);
    } else if (size >= 2 && data[0] == 'B' && data[1] == 'M') {
        if (size >= 26 && le32(data + 14) >= 40) {
            int32_t bh;
            uint32_t ubh = le32(data + 22);
            memcpy(&bh, &ubh, sizeof bh);
            long long ah = bh < 0 ? -(long long)bh : bh;
            CHECK((long long)le32(data + 18) == W && ah == H,
                  "BMP header says %ux%lld, loaded %lldx%lld", le32(data + 18), ah, W, H);
            /* Uncompressed pixels must all be in the file (stb_image reads
             * missing rows as zeros). */
            unsigned bpp = le16(data + 28);
            uint32_t comp = size >= 34 ? le32(data + 30) : 0;
            if ((comp == 0 || comp == 3 || comp == 6) &&
                (bpp == 1 || bpp == 4 || bpp == 8 || bpp == 16 || bpp == 24 || bpp == 32)) {
                unsigned long long stride = ((unsigned long long)W * bpp + 31) / 32 * 4;
                CHECK((unsigned long long)le32(data + 10) + stride * (unsigned long long)H <= size,
                      "a truncated BMP (%lldx%lld, %u bits) loaded from %zu bytes", W, H, bpp,
                      size);
            }
        }
        CHECK(t.dtype == CLPAD_U8, "a BMP loaded as %s", clpad_dtype_name(t.dtype));
    } else if (size >= 2 && data[0] == 'P' && (data[1] == '5' || data[1] == '6')) {
        CHECK(pnm_geometry(data, size, &w, &h, &c, &maxval, &off), "a malformed PNM header loaded");
        CHECK(w == W && h == H && c == C, "PNM header says %lldx%lldx%d, loaded %lldx%lldx%lld", w,
              h, c, W, H, C);
        CHECK(maxval >= 1 && maxval <= 65535, "PNM maxval %lld accepted", maxval);
        size_t sample = maxval > 255 ? 2 : 1;
        CHECK(es == sample, "a PNM of maxval %lld loaded as %s", maxval,
              clpad_dtype_name(t.dtype));
        CHECK(off <= size && size - off >= t.nbytes, "a truncated PNM loaded");
        const unsigned char *px = t.data;
        for (size_t k = 0; k < t.nbytes / sample; k++) {
            unsigned v = sample == 1 ? px[k] : (unsigned)px[2 * k] | (unsigned)px[2 * k + 1] << 8;
            unsigned f = sample == 1 ? data[off + k]
                                     : (unsigned)data[off + 2 * k] << 8 | data[off + 2 * k + 1];
            CHECK(v == f, "PNM sample %zu is %u, the file has %u (big-endian)", k, v, f);
        }
    } else {
        CHECK(false, "an image without a PNG, JPEG, BMP or PNM signature loaded");
    }
out:
    tio_free(&t);
    return msg;
}

/* ------------------------------------------------------------------------- */
/* Scalars (pad_value from text)                                             */
/* ------------------------------------------------------------------------- */

static bool dtype_signed(int dtype)
{
    return dtype == CLPAD_I8 || dtype == CLPAD_I16 || dtype == CLPAD_I32 || dtype == CLPAD_I64;
}

/* [+-]? (0[xX] hex digits | decimal digits), nothing else; exact value. */
static bool int_text(const char *s, i128 *value)
{
    bool neg = *s == '-';
    if (*s == '+' || *s == '-')
        s++;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return false;
    i128 v = 0;
    for (; *s; s++) {
        int d = isdigit((unsigned char)*s)                    ? *s - '0'
                : base == 16 && isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10
                                                              : -1;
        if (d < 0)
            return false;
        if (v < ((i128)1 << 100))
            v = v * base + d;
    }
    *value = neg ? -v : v;
    return true;
}

/* After one optional sign, "inf" or "infinity" (the only spellings strtod
 * reads as infinity). */
static bool inf_text(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    return !strcasecmp(s, "inf") || !strcasecmp(s, "infinity");
}

/* Value of a finite f16 / bf16 magnitude (sign bit clear). */
static double small_value(uint32_t mag, int ebits, int mbits)
{
    int bias = (1 << (ebits - 1)) - 1;
    uint32_t e = mag >> mbits, m = mag & ((1u << mbits) - 1);
    if (e == 0)
        return ldexp((double)m, 1 - bias - mbits);
    return ldexp((double)(m | (1u << mbits)), (int)e - bias - mbits);
}

/* Whether bits h are v rounded to nearest even in a format with ebits/mbits;
 * *inf_expected: v is finite but rounds to infinity. */
static bool small_is_rounded(double v, uint32_t h, int ebits, int mbits, bool *inf_expected)
{
    uint32_t sign = h >> (ebits + mbits) & 1, mag = h & ((1u << (ebits + mbits)) - 1);
    uint32_t inf = ((1u << ebits) - 1) << mbits, maxf = inf - 1;
    double top = small_value(maxf, ebits, mbits);
    double half_ulp_top = (top - small_value(maxf - 1, ebits, mbits)) / 2;
    *inf_expected = isfinite(v) && fabs(v) >= top + half_ulp_top;
    if (isnan(v))
        return mag > inf;
    if (sign != (signbit(v) ? 1u : 0u))
        return false;
    if (isinf(v))
        return mag == inf;
    if (mag >= inf)
        return false;
    double a = fabs(v), x = small_value(mag, ebits, mbits);
    /* Midpoints of two neighbours are exact in double. */
    double lo = mag ? (x + small_value(mag - 1, ebits, mbits)) / 2 : 0;
    double hi = mag < maxf ? (x + small_value(mag + 1, ebits, mbits)) / 2 : top + half_ulp_top;
    if (a < lo || a > hi)
        return false;
    if ((a == lo && mag) || a == hi)
        return (mag & 1) == 0;
    return true;
}

/* clpad_scalar_parse(dtype, text): status and bits against the header's rules.
 * On success the value is left in out8. */
static const char *check_scalar(int dtype, const char *text, unsigned char *out8, bool *parsed)
{
    const char *msg = NULL;
    unsigned char buf[16];
    memset(buf, 0xcc, sizeof buf);
    *parsed = false;
    clpad_status st = clpad_scalar_parse((clpad_dtype)dtype, text, buf);
    size_t es = clpad_dtype_size((clpad_dtype)dtype);
    unsigned want;
    i128 iv = 0;
    double dv = 0;
    float fv = 0;
    bool inf_round = false;
    if (!es)
        want = S_ARG;
    else if (!text[0] || isspace((unsigned char)text[0]))
        want = S_PARSE;
    else if (dtype == CLPAD_BOOL)
        want = (!strcmp(text, "0") || !strcmp(text, "1") || !strcasecmp(text, "true") ||
                !strcasecmp(text, "false"))
                   ? S_OK
                   : S_PARSE;
    else if (dtype == CLPAD_F32 || dtype == CLPAD_F64 || dtype == CLPAD_F16 ||
             dtype == CLPAD_BF16) {
        char *end;
        bool full;
        if (dtype == CLPAD_F32) {
            fv = strtof(text, &end);
            full = end != text && !*end;
            want = full && (isfinite(fv) || isnan(fv) || inf_text(text)) ? S_OK : S_PARSE;
        } else {
            dv = strtod(text, &end);
            full = end != text && !*end;
            want = full && (isfinite(dv) || isnan(dv) || inf_text(text)) ? S_OK : S_PARSE;
            if (want == S_OK && (dtype == CLPAD_F16 || dtype == CLPAD_BF16)) {
                bool inf_e;
                small_is_rounded(dv, 0, dtype == CLPAD_F16 ? 5 : 8, dtype == CLPAD_F16 ? 10 : 7,
                                 &inf_e);
                inf_round = inf_e;
                if (inf_round)
                    want = S_PARSE;
            }
        }
    } else {
        bool ok = int_text(text, &iv);
        int bits = (int)es * 8;
        i128 lo = dtype_signed(dtype) ? -((i128)1 << (bits - 1)) : 0;
        i128 hi = dtype_signed(dtype) ? ((i128)1 << (bits - 1)) - 1 : ((i128)1 << bits) - 1;
        want = ok && iv >= lo && iv <= hi ? S_OK : S_PARSE;
    }
    char what[96];
    snprintf(what, sizeof what, "clpad_scalar_parse(%s, \"%.40s\")",
             clpad_dtype_name((clpad_dtype)dtype) ? clpad_dtype_name((clpad_dtype)dtype) : "?",
             text);
    msg = judge(what, st, want);
    if (msg)
        goto out;
    if (st != CLPAD_OK) {
        CHECK(all_bytes(buf, sizeof buf, 0xcc), "%s failed but wrote its output", what);
        goto out;
    }
    CHECK(all_bytes(buf + es, sizeof buf - es, 0xcc), "%s wrote past the element", what);
    switch (dtype) {
    case CLPAD_BOOL:
        CHECK(buf[0] == (!strcmp(text, "1") || !strcasecmp(text, "true")), "%s gave %u", what,
              buf[0]);
        break;
    case CLPAD_F32: {
        float got;
        memcpy(&got, buf, 4);
        CHECK(!memcmp(buf, &fv, 4) || (isnan(fv) && isnan(got)), "%s differs from strtof", what);
        break;
    }
    case CLPAD_F64: {
        double got;
        memcpy(&got, buf, 8);
        CHECK(!memcmp(buf, &dv, 8) || (isnan(dv) && isnan(got)), "%s differs from strtod", what);
        break;
    }
    case CLPAD_F16:
    case CLPAD_BF16: {
        uint16_t h;
        memcpy(&h, buf, 2);
        bool ie;
        CHECK(small_is_rounded(dv, h, dtype == CLPAD_F16 ? 5 : 8, dtype == CLPAD_F16 ? 10 : 7,
                               &ie),
              "%s gave 0x%04x, not %a rounded to nearest even", what, h, dv);
        break;
    }
    default: {
        uint64_t u = 0;
        memcpy(&u, buf, es < sizeof u ? es : sizeof u);
        uint64_t want_bits = (uint64_t)iv & (es == 8 ? UINT64_MAX : ((UINT64_C(1) << (es * 8)) - 1));
        CHECK(u == want_bits, "%s gave 0x%llx, expected 0x%llx", what, (unsigned long long)u,
              (unsigned long long)want_bits);
    }
    }
    memcpy(out8, buf, 8);
    *parsed = true;
out:
    return msg;
}

/* ------------------------------------------------------------------------- */
/* Pad                                                                       */
/* ------------------------------------------------------------------------- */

#define GUARD 64

/* The Pad table of docs/spec.md, one coordinate: the input coordinate, or -1 for the pad value. */
static i128 pad_map(int mode, i128 c, i128 D)
{
    if (c >= 0 && c < D)
        return c;
    switch (mode) {
    case CLPAD_PAD_CONSTANT: return -1;
    case CLPAD_PAD_EDGE: return c < 0 ? 0 : D - 1;
    case CLPAD_PAD_REFLECT: return c < 0 ? -c : 2 * (D - 1) - c;
    case CLPAD_PAD_SYMMETRIC: return c < 0 ? -c - 1 : 2 * D - 1 - c;
    default: { /* wrap */
        i128 m = c % D;
        return m < 0 ? m + D : m;
    }
    }
}

/* The expected output, element by element. */
static const char *pad_oracle(size_t es, int rank, const int64_t *shape, const int64_t *pb,
                              const int64_t *out_shape, int mode, const unsigned char *value,
                              const unsigned char *in, unsigned char *want, size_t out_elems)
{
    int64_t idx[CLPAD_MAX_RANK] = {0};
    for (size_t o = 0; o < out_elems; o++) {
        i128 src = 0;
        bool pad = false;
        for (int a = 0; a < rank; a++) {
            i128 m = pad_map(mode, (i128)idx[a] - pb[a], shape[a]);
            if (m < 0 && mode == CLPAD_PAD_CONSTANT) {
                pad = true;
                break;
            }
            if (m < 0 || m >= shape[a])
                return fz_fail("oracle: axis %d maps %lld to %lld outside [0, %lld): the pads "
                               "broke the mode's limit yet were accepted",
                               a, (long long)((i128)idx[a] - pb[a]), (long long)m,
                               (long long)shape[a]);
            src = src * shape[a] + m;
        }
        memcpy(want + o * es, pad ? value : in + (size_t)src * es, es);
        for (int a = rank - 1; a >= 0; a--) {
            if (++idx[a] < out_shape[a])
                break;
            idx[a] = 0;
        }
    }
    return NULL;
}

const char *fz_check_pad(const uint8_t *data, size_t size)
{
    fz_in in = {data, size}, *r = &in;
    const char *msg = NULL;
    char what[64];
    int dtype = rd_enum(r, CLPAD_DTYPE_COUNT);
    int mode = rd_enum(r, CLPAD_PAD_MODE_COUNT);
    int rank = rd_rank(r, 0, CLPAD_MAX_RANK);
    uint8_t nulls = rd_u8(r); /* >= 0xC0: bits 0..5 pass NULL for shape, pads_begin,
                                 pads_end, out_shape, input, output;
                                 0x80..0xBF: cancelling pads (below) */
    uint8_t vmode = rd_u8(r); /* % 4: 0, 3 raw pad_value; 1 NULL; 2 text */
    uint8_t osel = rd_u8(r);  /* output_bytes: % 8; bits 3-5: output misalignment,
                                 bits 6-7: input misalignment */
    int nax = clamp_rank(rank);
    int64_t *shape = arr(nax), *pb = arr(nax), *pe = arr(nax);
    int64_t *osh = arr(CLPAD_MAX_RANK + 2);
    unsigned char *in_base = NULL, *input = NULL, *in_copy = NULL, *out_base = NULL,
                  *output = NULL, *want = NULL;
    size_t out_off = (osel >> 3) & 7, in_off = (size_t)(osel >> 6) * 3;
    /* Cancelling pads: pads_end[i] = k - shape[i] - pads_begin[i] for the
     * pads_end byte's k in 0..7, so that a huge pads_begin (the edge values
     * reach +-2^62 and INT64_MAX) still gives a small output. */
    bool cancel = nulls >= 0x80 && nulls < 0xC0;
    for (int i = 0; i < nax; i++) {
        shape[i] = rd_int(r, 0, 5);
        pb[i] = rd_int(r, -3, 4);
        pe[i] = rd_int(r, -3, 4);
        if (cancel) {
            i128 e = (i128)(pe[i] & 7) - shape[i] - pb[i];
            pe[i] = fits64(e) ? (int64_t)e : pe[i];
        }
    }
    unsigned char value[8];
    for (int k = 0; k < 8; k++)
        value[k] = rd_u8(r);
    bool value_null = vmode % 4 == 1;
    if (vmode % 4 == 2) { /* pad_value from text, as the CLI gets it */
        char text[33];
        size_t len = rd_u8(r) % 33;
        for (size_t k = 0; k < len; k++)
            text[k] = (char)rd_u8(r);
        text[len] = '\0';
        bool parsed;
        msg = check_scalar(dtype, text, value, &parsed);
        if (msg)
            goto out;
    }
    bool nn = nulls >= 0xC0;
    bool n_shape = nn && (nulls & 1), n_pb = nn && (nulls & 2), n_pe = nn && (nulls & 4),
         n_out = nn && (nulls & 8), n_in = nn && (nulls & 16), n_output = nn && (nulls & 32);
    const int64_t *P_shape = n_shape ? NULL : shape, *P_pb = n_pb ? NULL : pb,
                  *P_pe = n_pe ? NULL : pe;

    /* The rules of clpad_pad_output_shape, all of them. */
    unsigned geom = 0;
    bool evaluable = true, coord_big = false;
    if ((mode < 0 || mode >= CLPAD_PAD_MODE_COUNT) && rank > 0) /* modes[0..rank-1] read */
        geom |= S_ARG;
    if (rank < 0 || rank > CLPAD_MAX_RANK) {
        geom |= S_ARG;
        evaluable = false;
    } else if (rank > 0) {
        if (n_shape || n_pb || n_pe) {
            geom |= S_ARG;
            evaluable = !n_shape && !n_pb && !n_pe;
        }
        for (int i = 0; i < rank && !n_shape; i++)
            if (shape[i] < 0)
                geom |= S_SHAPE;
    }
    i128 odim[CLPAD_MAX_RANK], idim[CLPAD_MAX_RANK];
    for (int i = 0; evaluable && i < rank; i++) {
        i128 D = shape[i];
        idim[i] = D;
        const int64_t pads[2] = {pb[i], pe[i]};
        for (int s = 0; s < 2; s++) {
            if (pads[s] <= 0 || mode < 0 || mode >= CLPAD_PAD_MODE_COUNT)
                continue;
            if ((mode == CLPAD_PAD_EDGE || mode == CLPAD_PAD_WRAP) && D < 1)
                geom |= S_PADS;
            if (mode == CLPAD_PAD_REFLECT && pads[s] > D - 1)
                geom |= S_PADS;
            if (mode == CLPAD_PAD_SYMMETRIC && pads[s] > D)
                geom |= S_PADS;
        }
        i128 sum = (i128)pb[i] + D + pe[i];
        if (!fits64((i128)pb[i] + D) || !fits64(sum))
            geom |= S_OVF;
        /* The input coordinates o - pads_begin run over [-pads_begin,
         * D + pads_end - 1]: where they leave int64, refusing (OVERFLOW) is
         * fine and a result must be right (the oracle computes them exactly). */
        if (!fits64(-(i128)pb[i]) || !fits64(D + pe[i]))
            coord_big = true;
        odim[i] = sum > 0 ? sum : 0;
    }
    fz_count oc = {0}, ic = {0};
    unsigned os_want = geom;
    if (rank > 0 && rank <= CLPAD_MAX_RANK && n_out)
        os_want |= S_ARG;
    if (!geom && evaluable) {
        oc = fz_count_of(rank, odim, 1);
        if (oc.overflow)
            os_want |= S_OVF;
        if (oc.lenient)
            os_want |= S_OVF | S_OK;
    }
    if (!os_want)
        os_want = S_OK;
    if (coord_big)
        os_want |= S_OVF;

    /* clpad_pad_output_shape */
    memset(osh, 0x7a, sizeof(int64_t) * (CLPAD_MAX_RANK + 2));
    clpad_status st = clpad_pad_output_shape(
        rank, P_shape, P_pb, P_pe, CLPAD_PAD_OPTIONS((clpad_pad_mode)mode), n_out ? NULL : osh);
    msg = judge("clpad_pad_output_shape", st, os_want);
    if (msg)
        goto out;
    if (st == CLPAD_OK) {
        for (int i = 0; i < rank && !n_out; i++)
            CHECK(osh[i] == (int64_t)odim[i], "out_shape[%d] = %lld, expected %lld", i,
                  (long long)osh[i], (long long)odim[i]);
    }
    CHECK(all_bytes((unsigned char *)osh + (st == CLPAD_OK ? (size_t)nax * 8 : 0),
                    (size_t)(CLPAD_MAX_RANK + 2 - (st == CLPAD_OK ? nax : 0)) * 8, 0x7a),
          "clpad_pad_output_shape wrote out_shape %s", st ? "on error" : "past the rank");

    /* clpad_pad_cpu */
    size_t es = clpad_dtype_size((clpad_dtype)dtype);
    unsigned want_st = 0;
    bool small = false;
    size_t in_bytes = 0, out_bytes = 0;
    if (!es)
        want_st |= S_ARG | geom;
    else if (geom || !evaluable)
        want_st |= geom | (evaluable ? 0 : S_ARG);
    else {
        ic = fz_count_of(rank, idim, es);
        oc = fz_count_of(rank, odim, es);
        if (ic.overflow || oc.overflow)
            want_st |= S_OVF;
        else if (ic.lenient || oc.lenient) /* see fz_count_of; nothing may be written */
            want_st |= S_OVF | S_OK | S_SMALL | S_ARG;
        if (!ic.overflow && !oc.overflow) {
            in_bytes = (size_t)ic.bytes;
            out_bytes = (size_t)oc.bytes;
            small = !ic.lenient && !oc.lenient && ic.elems <= FZ_MAX_ELEMS &&
                    oc.elems <= FZ_MAX_ELEMS;
        }
    }
    /* Buffers: the real sizes when small, else a guard-only output. */
    size_t out_alloc = out_off + (small ? out_bytes : 0) + GUARD;
    out_base = malloc(out_alloc);
    if (!out_base)
        abort();
    memset(out_base, 0xa5, out_alloc);
    output = out_base + out_off;
    if (small && !n_in) {
        in_base = malloc(in_off + in_bytes ? in_off + in_bytes : 1);
        in_copy = malloc(in_bytes ? in_bytes : 1);
        if (!in_base || !in_copy)
            abort();
        input = in_base + in_off;
        pattern(input, in_bytes, (unsigned)size);
        memcpy(in_copy, input, in_bytes);
    }
    const size_t choices[8] = {out_bytes, out_bytes,     out_bytes,     out_bytes,
                               out_bytes ? out_bytes - 1 : 0, out_bytes + 1, 0, SIZE_MAX};
    size_t output_bytes = choices[osel % 8];
    if (!small && !want_st && out_bytes > 0 && output_bytes >= out_bytes)
        output_bytes = out_bytes - 1; /* cannot hold it: must be refused, not written */
    if (!small && want_st & S_OK)
        output_bytes = 0; /* lenient empty tensors: nothing may be written */
    if (!want_st && !(ic.lenient || oc.lenient)) {
        if (output_bytes < out_bytes)
            want_st |= S_SMALL | (n_output ? S_ARG : 0);
        else if (out_bytes == 0)
            want_st |= S_OK | (in_bytes && (n_in || !small) ? S_ARG : 0);
        else {
            if (n_output)
                want_st |= S_ARG;
            if (in_bytes > 0 && (n_in || !input))
                want_st |= S_ARG;
            if (!want_st)
                want_st = S_OK;
        }
    }
    if (!want_st)
        want_st = S_OK;
    if (coord_big && evaluable && es)
        want_st |= S_OVF;
    const unsigned char *pv = value_null ? NULL : value;
    st = clpad_pad_cpu((clpad_dtype)dtype, rank, P_shape, input, P_pb, P_pe,
                       CLPAD_PAD_OPTIONS((clpad_pad_mode)mode), pv, n_output ? NULL : output,
                       output_bytes);
    snprintf(what, sizeof what, "clpad_pad_cpu(output_bytes=%zu)", output_bytes);
    msg = judge(what, st, want_st);
    if (msg)
        goto out;
    if (in_copy)
        CHECK(!memcmp(input, in_copy, in_bytes), "clpad_pad_cpu modified its input");
    if (st != CLPAD_OK || !small) {
        CHECK(all_bytes(out_base, out_alloc, 0xa5), "clpad_pad_cpu wrote its output when it %s",
              st ? "failed" : "had nothing to write");
        goto out;
    }
    CHECK(all_bytes(output + out_bytes, GUARD, 0xa5) && all_bytes(out_base, out_off, 0xa5),
          "clpad_pad_cpu wrote outside the %zu output bytes", out_bytes);
    want = malloc(out_bytes ? out_bytes : 1);
    if (!want)
        abort();
    unsigned char zero[8] = {0};
    int64_t od[CLPAD_MAX_RANK];
    for (int i = 0; i < rank; i++)
        od[i] = (int64_t)odim[i];
    msg = pad_oracle(es, rank, shape, pb, od, mode,
                     mode == CLPAD_PAD_CONSTANT && pv ? pv : zero, input, want,
                     (size_t)oc.elems);
    if (msg)
        goto out;
#ifdef FZ_WITH_INTERNALS
    /* The device path's proof before launch holds for every accepted call:
     * the plan's canonical pads keep the kernels' index math in int64. */
    if (oc.elems > 0) {
        clpad_pad_plan plan;
        int8_t rules[CLPAD_MAX_RANK];
        clpad__pad_uniform_rules(rank, (clpad_pad_mode)mode, rules);
        clpad__pad_plan(rank, shape, pb, pe, rules, es, true, &plan);
        CHECK(clpad__pad_plan_check(&plan) == CLPAD_OK,
              "the device plan of an accepted call fails its bounds check: %s",
              clpad_last_error());
    }
#endif
    for (size_t k = 0; k < out_bytes; k++)
        CHECK(output[k] == want[k], "clpad_pad_cpu: output byte %zu (element %zu) is 0x%02x, "
              "expected 0x%02x", k, k / es, output[k], want[k]);
out:
    free(shape);
    free(pb);
    free(pe);
    free(osh);
    free(in_base);
    free(in_copy);
    free(out_base);
    free(want);
    return msg;
}

/* ------------------------------------------------------------------------- */
/* SpaceToBatch / BatchToSpace                                               */
/* ------------------------------------------------------------------------- */

enum { SB_S2B, SB_B2S };

/* The rules of docs/spec.md (SpaceToBatch / BatchToSpace) and the header for one call; fills out[] (exact)
 * when they hold. `outbytes_es` is the element size of the byte check. */
static unsigned sb_rules(int op, int rank, const int64_t *shape, const int64_t *block,
                         const int64_t *begin, const int64_t *end, bool out_null, size_t es,
                         i128 *out, fz_count *ic, fz_count *oc)
{
    unsigned bad = 0;
    if (rank < 2 || rank > CLPAD_MAX_RANK)
        return S_ARG;
    if (!shape || !block || !begin || !end || out_null)
        bad |= S_ARG;
    if (!shape)
        return bad;
    for (int i = 0; i < rank; i++)
        if (shape[i] < 0)
            bad |= S_SHAPE;
    if (!block || !begin || !end)
        return bad;
    i128 prod = 1;
    bool sane = true;
    for (int i = 0; i < rank; i++) {
        if (block[i] < 1 || (i == 0 && block[0] != 1))
            bad |= S_PADS;
        if (begin[i] < 0 || end[i] < 0 || (i == 0 && (begin[0] || end[0])))
            bad |= S_PADS;
        if (block[i] < 1 || shape[i] < 0 || begin[i] < 0 || end[i] < 0)
            sane = false;
    }
    if (!sane)
        return bad;
    for (int i = 1; i < rank; i++) {
        prod *= block[i];
        if (prod > INT64_MAX) {
            bad |= S_OVF;
            return bad; /* every later value depends on it */
        }
    }
    if (op == SB_S2B) {
        out[0] = (i128)shape[0] * prod;
        if (!fits64(out[0]))
            bad |= S_OVF;
        for (int i = 1; i < rank; i++) {
            i128 P = (i128)shape[i] + begin[i] + end[i];
            if (!fits64((i128)shape[i] + begin[i]) || !fits64(P))
                bad |= S_OVF;
            else if (P % block[i])
                bad |= S_PADS;
            out[i] = P / block[i];
        }
    } else {
        if (shape[0] % prod)
            bad |= S_SHAPE;
        out[0] = shape[0] / prod;
        for (int i = 1; i < rank; i++) {
            i128 full = (i128)shape[i] * block[i];
            if (!fits64(full))
                bad |= S_OVF;
            else if ((i128)begin[i] + end[i] > full)
                bad |= S_PADS;
            out[i] = full - begin[i] - end[i];
        }
    }
    if (bad)
        return bad;
    i128 in_dims[CLPAD_MAX_RANK];
    for (int i = 0; i < rank; i++)
        in_dims[i] = shape[i];
    *ic = fz_count_of(rank, in_dims, es);
    *oc = fz_count_of(rank, out, es);
    if (ic->overflow || oc->overflow)
        bad |= S_OVF;
    return bad;
}

/* docs/spec.md's SpaceToBatch element form and its BatchToSpace inverse, element by element. */
static void sb_oracle(int op, size_t es, int rank, const int64_t *shape, const int64_t *block,
                      const int64_t *begin, const int64_t *out_shape, const unsigned char *in,
                      unsigned char *want, size_t out_elems)
{
    int64_t idx[CLPAD_MAX_RANK] = {0};
    int64_t N = op == SB_S2B ? shape[0] : out_shape[0];
    for (size_t o = 0; o < out_elems; o++) {
        bool zero = false;
        i128 src = 0;
        if (op == SB_S2B) {
            /* ob = flat(k) * N + n, k1 outermost */
            int64_t n = idx[0] % N, kf = idx[0] / N, k[CLPAD_MAX_RANK] = {0};
            for (int a = rank - 1; a >= 1; a--) {
                k[a] = kf % block[a];
                kf /= block[a];
            }
            src = n;
            for (int a = 1; a < rank; a++) {
                i128 c = (i128)idx[a] * block[a] + k[a] - begin[a];
                if (c < 0 || c >= shape[a])
                    zero = true;
                src = src * shape[a] + (zero ? 0 : c);
            }
        } else {
            i128 kf = 0, pos[CLPAD_MAX_RANK];
            for (int a = 1; a < rank; a++) {
                i128 c = (i128)idx[a] + begin[a];
                pos[a] = c / block[a];
                kf = kf * block[a] + c % block[a];
            }
            src = kf * N + idx[0];
            for (int a = 1; a < rank; a++)
                src = src * shape[a] + pos[a];
        }
        if (zero)
            memset(want + o * es, 0, es);
        else
            memcpy(want + o * es, in + (size_t)src * es, es);
        for (int a = rank - 1; a >= 0; a--) {
            if (++idx[a] < out_shape[a])
                break;
            idx[a] = 0;
        }
    }
}

typedef clpad_status (*sb_shape_fn)(int, const int64_t *, const int64_t *, const int64_t *,
                                    const int64_t *, int64_t *);
typedef clpad_status (*sb_cpu_fn)(clpad_dtype, int, const int64_t *, const void *,
                                  const int64_t *, const int64_t *, const int64_t *, void *,
                                  size_t);

/* One operation: its shape function and CPU path against the rules and the
 * oracle. On success with a small output, *result is the malloc'd output. */
static const char *sb_call(int op, int dtype, int rank, const int64_t *shape,
                           const int64_t *block, const int64_t *begin, const int64_t *end,
                           uint8_t nulls, uint8_t io_nulls, uint8_t osel, unsigned salt,
                           const unsigned char *given_in,
                           unsigned char **result, size_t *result_bytes, int64_t *result_shape)
{
    const char *msg = NULL;
    const char *name = op == SB_S2B ? "space_to_batch" : "batch_to_space";
    sb_shape_fn shape_fn = op == SB_S2B ? clpad_space_to_batch_output_shape
                                        : clpad_batch_to_space_output_shape;
    sb_cpu_fn cpu_fn = op == SB_S2B ? clpad_space_to_batch_cpu : clpad_batch_to_space_cpu;
    char what[96];
    int nax = clamp_rank(rank);
    bool nn = nulls >= 0xE0;
    bool n_shape = nn && (nulls & 1), n_block = nn && (nulls & 2), n_begin = nn && (nulls & 4),
         n_end = nn && (nulls & 8), n_out = nn && (nulls & 16);
    bool n_in = io_nulls & 1, n_output = io_nulls & 2;
    const int64_t *Ps = n_shape ? NULL : shape, *Pb = n_block ? NULL : block,
                  *Pbeg = n_begin ? NULL : begin, *Pend = n_end ? NULL : end;
    int64_t *osh = arr(CLPAD_MAX_RANK + 2);
    unsigned char *in_base = NULL, *input = NULL, *in_copy = NULL, *out_base = NULL,
                  *output = NULL, *want = NULL;
    size_t out_off = (osel >> 3) & 7, in_off = (size_t)(osel >> 6) * 3;
    *result = NULL;

    i128 out[CLPAD_MAX_RANK] = {0};
    fz_count ic = {0}, oc = {0};
    unsigned bad = sb_rules(op, rank, Ps, Pb, Pbeg, Pend, n_out, 1, out, &ic, &oc);
    unsigned want_st = bad ? bad : S_OK;
    if (!bad && (ic.lenient || oc.lenient))
        want_st |= S_OVF;
    memset(osh, 0x7a, sizeof(int64_t) * (CLPAD_MAX_RANK + 2));
    clpad_status st = shape_fn(rank, Ps, Pb, Pbeg, Pend, n_out ? NULL : osh);
    snprintf(what, sizeof what, "clpad_%s_output_shape", name);
    msg = judge(what, st, want_st);
    if (msg)
        goto out;
    if (st == CLPAD_OK)
        for (int i = 0; i < rank && !n_out; i++)
            CHECK(osh[i] == (int64_t)out[i], "%s: out_shape[%d] = %lld, expected %lld", what, i,
                  (long long)osh[i], (long long)out[i]);
    CHECK(all_bytes((unsigned char *)osh + (st == CLPAD_OK ? (size_t)nax * 8 : 0),
                    (size_t)(CLPAD_MAX_RANK + 2 - (st == CLPAD_OK ? nax : 0)) * 8, 0x7a),
          "%s wrote out_shape %s", what, st ? "on error" : "past the rank");

    size_t es = clpad_dtype_size((clpad_dtype)dtype);
    bad = sb_rules(op, rank, Ps, Pb, Pbeg, Pend, false, es ? es : 1, out, &ic, &oc);
    want_st = (es ? 0 : S_ARG) | bad;
    bool lenient = !want_st && (ic.lenient || oc.lenient);
    bool small = !want_st && !lenient && ic.elems <= FZ_MAX_ELEMS && oc.elems <= FZ_MAX_ELEMS;
    size_t in_bytes = small ? (size_t)ic.bytes : 0, out_bytes = small ? (size_t)oc.bytes : 0;
    size_t out_alloc = out_off + out_bytes + GUARD;
    out_base = malloc(out_alloc);
    if (!out_base)
        abort();
    memset(out_base, 0xa5, out_alloc);
    output = out_base + out_off;
    if (small && !n_in) {
        in_base = malloc(in_off + in_bytes ? in_off + in_bytes : 1);
        in_copy = malloc(in_bytes ? in_bytes : 1);
        if (!in_base || !in_copy)
            abort();
        input = in_base + in_off;
        if (given_in)
            memcpy(input, given_in, in_bytes);
        else
            pattern(input, in_bytes, salt);
        memcpy(in_copy, input, in_bytes);
    }
    size_t big_out = 0;
    if (!want_st && !lenient && !small) /* the true size, to refuse it */
        big_out = oc.overflow ? 0 : (size_t)oc.bytes;
    size_t need = small ? out_bytes : big_out;
    const size_t choices[8] = {need, need, need, need, need ? need - 1 : 0, need + 1, 0, SIZE_MAX};
    size_t output_bytes = choices[osel % 8];
    if (!small && !want_st && !lenient && need > 0 && output_bytes >= need)
        output_bytes = need - 1;
    if (lenient) {
        output_bytes = 0;
        want_st = S_OVF | S_OK | S_SMALL | S_ARG;
    } else if (!want_st) {
        if (output_bytes < need)
            want_st = S_SMALL | (n_output || n_in ? S_ARG : 0);
        else if (need == 0)
            want_st = S_OK | (ic.elems > 0 && (n_in || !small) ? S_ARG : 0);
        else if (n_output || (ic.elems > 0 && (n_in || !input)))
            want_st = S_ARG;
        else
            want_st = S_OK;
    }
    st = cpu_fn((clpad_dtype)dtype, rank, Ps, input, Pb, Pbeg, Pend, n_output ? NULL : output,
                output_bytes);
    snprintf(what, sizeof what, "clpad_%s_cpu(output_bytes=%zu)", name, output_bytes);
    msg = judge(what, st, want_st);
    if (msg)
        goto out;
    if (in_copy)
        CHECK(!memcmp(input, in_copy, in_bytes), "%s modified its input", what);
    if (st != CLPAD_OK || !small) {
        CHECK(all_bytes(out_base, out_alloc, 0xa5), "%s wrote its output when it %s", what,
              st ? "failed" : "had nothing to write");
        goto out;
    }
    CHECK(all_bytes(output + out_bytes, GUARD, 0xa5) && all_bytes(out_base, out_off, 0xa5),
          "%s wrote outside the %zu output bytes", what, out_bytes);
    want = malloc(out_bytes ? out_bytes : 1);
    if (!want)
        abort();
    int64_t od[CLPAD_MAX_RANK];
    for (int i = 0; i < rank; i++)
        od[i] = (int64_t)out[i];
    sb_oracle(op, es, rank, shape, block, begin, od, input, want, (size_t)oc.elems);
    for (size_t k = 0; k < out_bytes; k++)
        CHECK(output[k] == want[k], "%s: output byte %zu (element %zu) is 0x%02x, expected 0x%02x",
              what, k, k / es, output[k], want[k]);
    *result = malloc(out_bytes ? out_bytes : 1);
    if (!*result)
        abort();
    memcpy(*result, output, out_bytes);
    *result_bytes = out_bytes;
    memcpy(result_shape, od, sizeof(int64_t) * (size_t)rank);
out:
    free(osh);
    free(in_base);
    free(in_copy);
    free(out_base);
    free(want);
    return msg;
}

const char *fz_check_space_batch(const uint8_t *data, size_t size)
{
    fz_in in = {data, size}, *r = &in;
    const char *msg = NULL;
    uint8_t opb = rd_u8(r);
    int op = opb % 4; /* 0 s2b, 1 b2s, 2 b2s with shape[0] a multiple of prod(block),
                         3 the round trip s2b then b2s; >= 0xF0: bit 2 NULL input,
                         bit 3 NULL output */
    uint8_t io_nulls = opb >= 0xF0 ? (opb >> 2) & 3 : 0;
    int dtype = rd_enum(r, CLPAD_DTYPE_COUNT);
    int rank = rd_rank(r, 2, CLPAD_MAX_RANK);
    uint8_t nulls = rd_u8(r), osel = rd_u8(r);
    int nax = clamp_rank(rank);
    int64_t *shape = arr(nax), *block = arr(nax), *begin = arr(nax), *end = arr(nax);
    unsigned char *y = NULL, *z = NULL;
    for (int i = 0; i < nax; i++) {
        shape[i] = rd_int(r, 0, i == 0 ? 3 : 5);
        block[i] = rd_int(r, 1, i == 0 ? 1 : 3);
        begin[i] = rd_int(r, 0, i == 0 ? 0 : 2);
        end[i] = rd_int(r, 0, i == 0 ? 0 : 2);
    }
    if ((op == 2 || op == 3) && nax >= 1) {
        i128 prod = 1;
        bool sane = true;
        for (int i = 1; i < nax; i++) {
            if (block[i] < 1 || block[i] > 64 || shape[i] < 0 || begin[i] < 0 || end[i] < 0 ||
                shape[i] > 64 || begin[i] > 64 || end[i] > 64)
                sane = false;
            else
                prod *= block[i];
        }
        if (sane && op == 2 && shape[0] >= 0 && fits64((i128)shape[0] * prod))
            shape[0] = (int64_t)((i128)shape[0] * prod);
        if (sane && op == 3) /* make every padded axis divisible */
            for (int i = 1; i < nax; i++) {
                int64_t P = shape[i] + begin[i] + end[i];
                end[i] += (block[i] - P % block[i]) % block[i];
            }
    }
    size_t ybytes = 0, zbytes = 0;
    int64_t yshape[CLPAD_MAX_RANK], zshape[CLPAD_MAX_RANK];
    msg = sb_call(op == 0 || op == 3 ? SB_S2B : SB_B2S, dtype, rank, shape, block, begin, end,
                  nulls, io_nulls, osel, (unsigned)size, NULL, &y, &ybytes, yshape);
    if (msg || op != 3 || !y)
        goto out;
    /* BatchToSpace(SpaceToBatch(x, B, p), B, p) == x (docs/spec.md, BatchToSpace). */
    msg = sb_call(SB_B2S, dtype, rank, yshape, block, begin, end, 0, 0, 0, 0, y, &z, &zbytes,
                  zshape);
    if (msg)
        goto out;
    CHECK(z != NULL, "round trip: batch_to_space of a valid space_to_batch output failed");
    CHECK(!memcmp(zshape, shape, sizeof(int64_t) * (size_t)rank),
          "round trip: the shape came back different");
    {
        unsigned char *x = malloc(zbytes ? zbytes : 1);
        if (!x)
            abort();
        pattern(x, zbytes, (unsigned)size);
        bool same = !memcmp(x, z, zbytes);
        free(x);
        CHECK(same, "round trip: batch_to_space(space_to_batch(x)) != x");
    }
out:
    free(shape);
    free(block);
    free(begin);
    free(end);
    free(y);
    free(z);
    return msg;
}

/* ------------------------------------------------------------------------- */
/* Window geometry                                                           */
/* ------------------------------------------------------------------------- */

enum { W_TRT, W_TF, W_ONNX, W_OV, W_TORCH, W_OTHER, W_FN_COUNT };

typedef struct wcall {
    int fn, op, mode, rounding, ceil_mode, naxes, nax;
    int64_t *input, *kernel, *stride, *dil, *pb, *pe, *opad, *oshape, *onnx_pads;
    bool null_result;
} wcall;

/* What the documentation says a call must give. */
typedef struct wexp {
    unsigned bad; /* statuses of the broken rules */
    bool big;     /* some value of the computation does not fit in int64 */
    i128 O[CLPAD_MAX_RANK], B[CLPAD_MAX_RANK], A[CLPAD_MAX_RANK];
    i128 DK[CLPAD_MAX_RANK], S[CLPAD_MAX_RANK];
} wexp;

static i128 fdiv(i128 a, i128 b)
{
    i128 q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static i128 cdiv(i128 a, i128 b)
{
    i128 q = a / b;
    return (a % b != 0 && a > 0) ? q + 1 : q;
}

/* Record v as a value of the computation; returns it. */
static i128 wv(wexp *e, i128 v)
{
    if (!fits64(v))
        e->big = true;
    return v;
}

/* Arguments shared by every convention; false when the per-axis formulas
 * cannot be evaluated. */
static bool w_common(const wcall *c, wexp *e, int mode_count, bool pool_dilation,
                     bool stride_is_kernel)
{
    if (c->null_result)
        e->bad |= S_ARG;
    if (c->op < 0 || c->op >= CLPAD_WINDOW_OP_COUNT)
        e->bad |= S_ARG;
    if (c->mode < 0 || c->mode >= mode_count)
        e->bad |= S_ARG;
    if (c->naxes < 1 || c->naxes > CLPAD_MAX_RANK || !c->input || !c->kernel) {
        e->bad |= S_ARG;
        return false;
    }
    bool sane = true;
    for (int i = 0; i < c->naxes; i++) {
        i128 I = c->input[i], F = c->kernel[i];
        i128 S = c->stride ? c->stride[i] : stride_is_kernel ? F : 1;
        i128 d = c->dil ? c->dil[i] : 1;
        if (I < 1)
            e->bad |= S_SHAPE;
        if (F < 1 || S < 1 || d < 1)
            e->bad |= S_ARG;
        if (c->op == CLPAD_WINDOW_POOL && !pool_dilation && d != 1)
            e->bad |= S_ARG;
        if (I < 1 || F < 1 || S < 1 || d < 1) {
            sane = false;
            continue;
        }
        e->S[i] = S;
        e->DK[i] = wv(e, 1 + wv(e, d * (F - 1)));
    }
    return sane && c->op >= 0 && c->op < CLPAD_WINDOW_OP_COUNT && c->mode >= 0 &&
           c->mode < mode_count;
}

/* floor / ceil window count over a padded input M; false (INVALID_SHAPE) when
 * M < DK. `drop`: a last window starting at or past I + B is dropped. */
static void w_count(wexp *e, int i, i128 I, i128 B, i128 A, bool ceil, bool drop)
{
    i128 DK = e->DK[i], S = e->S[i];
    i128 M = wv(e, wv(e, I + B) + A);
    if (M < DK) {
        e->bad |= S_SHAPE;
        return;
    }
    i128 O = (ceil ? cdiv(M - DK, S) : fdiv(M - DK, S)) + 1;
    if (drop && wv(e, (O - 1) * S) >= I + B)
        O--;
    if (O < 1)
        e->bad |= S_SHAPE;
    e->O[i] = wv(e, O);
    e->B[i] = B;
    e->A[i] = A;
}

/* Split a total with the odd element at the end (upper) or the beginning. */
static void w_split(wexp *e, int i, i128 total, bool extra_at_end)
{
    i128 small = fdiv(total, 2);
    e->B[i] = extra_at_end ? small : total - small;
    e->A[i] = extra_at_end ? total - small : small;
}

/* SAME for conv / pool: O = ceil(I/S), P = (O-1)*S + DK - I. */
static void w_same(wexp *e, int i, i128 I, bool clamp, bool upper)
{
    i128 S = e->S[i], O = cdiv(I, S);
    i128 P = wv(e, wv(e, wv(e, (O - 1) * S) + e->DK[i]) - I);
    if (clamp && P < 0)
        P = 0;
    e->O[i] = O;
    w_split(e, i, P, upper);
}

/* (I-1)*S + DK + op, the full transposed-convolution output. */
static i128 w_full(wexp *e, int i, i128 I, i128 op)
{
    return wv(e, wv(e, wv(e, (I - 1) * e->S[i]) + e->DK[i]) + op);
}

static void w_deconv_explicit(wexp *e, int i, i128 full, i128 B, i128 A)
{
    i128 O = wv(e, wv(e, full - B) - A);
    if (O < 1)
        e->bad |= S_SHAPE;
    e->O[i] = O;
    e->B[i] = B;
    e->A[i] = A;
}

static void exp_trt(const wcall *c, wexp *e)
{
    if (!w_common(c, e, CLPAD_TRT_PADDING_COUNT, false, false))
        return;
    bool expl = c->mode == CLPAD_TRT_EXPLICIT_ROUND_DOWN || c->mode == CLPAD_TRT_EXPLICIT_ROUND_UP;
    bool upper = c->mode == CLPAD_TRT_SAME_UPPER;
    for (int i = 0; i < c->naxes; i++) {
        i128 I = c->input[i], S = e->S[i], DK = e->DK[i];
        if (expl) {
            i128 B = c->pb ? c->pb[i] : 0, A = c->pe ? c->pe[i] : 0;
            if (c->op == CLPAD_WINDOW_DECONV)
                w_deconv_explicit(e, i, w_full(e, i, I, 0), B, A);
            else
                w_count(e, i, I, B, A, c->mode == CLPAD_TRT_EXPLICIT_ROUND_UP, false);
        } else if (c->op == CLPAD_WINDOW_DECONV) {
            i128 is = wv(e, I * S), full = w_full(e, i, I, 0);
            e->O[i] = is < full ? is : full;
            w_split(e, i, DK - S > 0 ? DK - S : 0, upper);
        } else {
            w_same(e, i, I, false, upper);
        }
    }
}

/* TF's forward convolution of an axis of size I (VALID, SAME, EXPLICIT). */
static void tf_forward(const wcall *c, wexp *e, int i, i128 I, i128 pb, i128 pe)
{
    if (c->mode == CLPAD_TF_SAME)
        w_same(e, i, I, true, true);
    else if (c->mode == CLPAD_TF_VALID)
        w_count(e, i, I, 0, 0, false, false);
    else
        w_count(e, i, I, pb, pe, false, false);
}

static void exp_tf(const wcall *c, wexp *e)
{
    bool ok = w_common(c, e, CLPAD_TF_PADDING_COUNT, true, false);
    if (c->mode != CLPAD_TF_EXPLICIT && (c->pb || c->pe))
        e->bad |= S_ARG;
    if (c->mode == CLPAD_TF_EXPLICIT && (!c->pb || !c->pe)) /* explicit_paddings required */
        e->bad |= S_ARG;
    if (c->oshape && c->op != CLPAD_WINDOW_DECONV)
        e->bad |= S_ARG;
    for (int i = 0; i < c->nax && c->naxes >= 1 && c->naxes <= CLPAD_MAX_RANK; i++) {
        if ((c->pb && c->pb[i] < 0) || (c->pe && c->pe[i] < 0))
            e->bad |= S_PADS;
        if (c->oshape && c->oshape[i] < 1)
            e->bad |= S_SHAPE;
    }
    if (!ok)
        return;
    for (int i = 0; i < c->naxes; i++) {
        i128 I = c->input[i], S = e->S[i], DK = e->DK[i];
        i128 pb = c->pb ? c->pb[i] : 0, pe = c->pe ? c->pe[i] : 0;
        if (c->op != CLPAD_WINDOW_DECONV) {
            tf_forward(c, e, i, I, pb, pe);
            continue;
        }
        i128 full = w_full(e, i, I, 0), O;
        if (c->oshape)
            O = c->oshape[i];
        else if (c->mode == CLPAD_TF_SAME)
            O = wv(e, I * S);
        else if (c->mode == CLPAD_TF_VALID)
            O = wv(e, wv(e, I * S) + (DK > S ? DK - S : 0));
        else {
            O = wv(e, wv(e, full - pb) - pe);
            if (O < 1) {
                e->bad |= S_SHAPE;
                continue;
            }
        }
        if (O < 1)
            continue; /* output_shape < 1: already a rule broken */
        /* The forward convolution of O, with the same padding, must give I. */
        unsigned before = e->bad;
        tf_forward(c, e, i, O, pb, pe);
        if (e->bad != before || e->O[i] != I) {
            e->bad |= S_SHAPE;
            continue;
        }
        e->O[i] = O;
        e->A[i] = wv(e, wv(e, full - O) - e->B[i]);
    }
}

static void exp_onnx(const wcall *c, wexp *e)
{
    bool ok = w_common(c, e, CLPAD_ONNX_AUTO_PAD_COUNT, true, false);
    if (c->ceil_mode && c->op != CLPAD_WINDOW_POOL)
        e->bad |= S_ARG;
    if ((c->opad || c->oshape) && c->op != CLPAD_WINDOW_DECONV)
        e->bad |= S_ARG;
    if (c->onnx_pads && c->mode != CLPAD_ONNX_NOTSET && !c->oshape)
        e->bad |= S_ARG;
    bool valid_n = c->naxes >= 1 && c->naxes <= CLPAD_MAX_RANK;
    for (int k = 0; valid_n && k < 2 * c->naxes; k++)
        if (c->onnx_pads && !c->oshape && c->onnx_pads[k] < 0)
            e->bad |= S_PADS;
    for (int i = 0; valid_n && i < c->naxes; i++) {
        if (c->oshape && c->oshape[i] < 1)
            e->bad |= S_SHAPE;
        if (c->opad && ok) {
            i128 d = c->dil ? c->dil[i] : 1, lim = e->S[i] > d ? e->S[i] : d;
            if (c->opad[i] < 0 || c->opad[i] >= lim)
                e->bad |= S_PADS;
        } else if (c->opad && c->opad[i] < 0)
            e->bad |= S_PADS;
    }
    if (!ok)
        return;
    bool upper = c->mode == CLPAD_ONNX_SAME_UPPER;
    bool same = upper || c->mode == CLPAD_ONNX_SAME_LOWER;
    for (int i = 0; i < c->naxes; i++) {
        i128 I = c->input[i], S = e->S[i];
        i128 pb = 0, pe = 0;
        if (c->mode == CLPAD_ONNX_NOTSET && c->onnx_pads) {
            pb = c->onnx_pads[i];
            pe = c->onnx_pads[c->naxes + i];
        }
        if (c->op != CLPAD_WINDOW_DECONV) {
            if (same)
                w_same(e, i, I, true, upper);
            else if (c->mode == CLPAD_ONNX_VALID) /* ceil_mode: as NOTSET with pads 0 */
                w_count(e, i, I, 0, 0, c->ceil_mode && c->op == CLPAD_WINDOW_POOL,
                        c->ceil_mode && c->op == CLPAD_WINDOW_POOL);
            else
                w_count(e, i, I, pb, pe, c->ceil_mode && c->op == CLPAD_WINDOW_POOL,
                        c->ceil_mode && c->op == CLPAD_WINDOW_POOL);
            continue;
        }
        i128 full = w_full(e, i, I, c->opad ? c->opad[i] : 0);
        if (c->oshape) { /* any sign: a negative total adds zeros */
            e->O[i] = c->oshape[i];
            w_split(e, i, full - c->oshape[i], upper);
        } else if (same) {
            i128 total = full - wv(e, I * S);
            if (total < 0)
                total = 0;
            w_split(e, i, total, upper);
            e->O[i] = full - total;
        } else if (c->mode == CLPAD_ONNX_VALID) {
            e->O[i] = full;
            e->B[i] = e->A[i] = 0;
        } else {
            w_deconv_explicit(e, i, full, pb, pe);
        }
    }
}

static void exp_ov(const wcall *c, wexp *e)
{
    bool ok = w_common(c, e, CLPAD_OV_AUTO_PAD_COUNT, true, false);
    if (c->rounding < 0 || c->rounding >= CLPAD_OV_ROUNDING_COUNT)
        e->bad |= S_ARG;
    else if (c->rounding != CLPAD_OV_FLOOR && c->op != CLPAD_WINDOW_POOL)
        e->bad |= S_ARG;
    if ((c->opad || c->oshape) && c->op != CLPAD_WINDOW_DECONV)
        e->bad |= S_ARG;
    bool use_pads = c->mode == CLPAD_OV_EXPLICIT && !c->oshape;
    bool valid_n = c->naxes >= 1 && c->naxes <= CLPAD_MAX_RANK;
    for (int i = 0; valid_n && i < c->naxes; i++) {
        if (c->mode == CLPAD_OV_EXPLICIT && c->pb && c->pb[i] < 0)
            e->bad |= S_PADS;
        if (use_pads && c->pe && c->pe[i] < 0)
            e->bad |= S_PADS;
        if (c->opad && c->opad[i] < 0)
            e->bad |= S_PADS;
        if (c->oshape && c->oshape[i] < 1)
            e->bad |= S_SHAPE;
    }
    if (!ok || c->rounding < 0 || c->rounding >= CLPAD_OV_ROUNDING_COUNT)
        return;
    bool upper = c->mode == CLPAD_OV_SAME_UPPER;
    bool same = upper || c->mode == CLPAD_OV_SAME_LOWER;
    for (int i = 0; i < c->naxes; i++) {
        i128 I = c->input[i];
        i128 pb = use_pads && c->pb ? c->pb[i] : 0, pe = use_pads && c->pe ? c->pe[i] : 0;
        if (c->op != CLPAD_WINDOW_DECONV) {
            if (same) {
                w_same(e, i, I, true, upper);
                pb = e->B[i];
                pe = e->A[i];
            }
            w_count(e, i, I, pb, pe, c->rounding != CLPAD_OV_FLOOR,
                    c->rounding == CLPAD_OV_CEIL_TORCH);
            continue;
        }
        i128 full = w_full(e, i, I, c->opad ? c->opad[i] : 0);
        if (c->oshape) {
            /* OpenVINO's shape inference: SAME_* split the total clamped at 0
             * (SAME_UPPER: the odd one at the beginning), EXPLICIT keeps
             * pads_begin, VALID 0; the end is the rest of full - O, never
             * negative (OpenVINO clamps it: zeros at the end, no pad) */
            i128 O = c->oshape[i], B = 0;
            if (same) {
                w_split(e, i, full - O > 0 ? full - O : 0, !upper);
                B = e->B[i];
            } else if (c->mode == CLPAD_OV_EXPLICIT && c->pb) {
                B = c->pb[i];
            }
            e->O[i] = O;
            e->B[i] = B;
            e->A[i] = wv(e, full - O - B);
            if (e->A[i] < 0)
                e->A[i] = 0;
        } else {
            w_deconv_explicit(e, i, full, pb, pe);
        }
    }
}

static void exp_torch(const wcall *c, wexp *e)
{
    bool ok = w_common(c, e, CLPAD_TORCH_PADDING_COUNT, true, c->op == CLPAD_WINDOW_POOL);
    if (c->mode != CLPAD_TORCH_EXPLICIT && c->op != CLPAD_WINDOW_CONV)
        e->bad |= S_ARG;
    if (c->mode != CLPAD_TORCH_EXPLICIT && c->pb)
        e->bad |= S_ARG;
    if (c->ceil_mode && c->op != CLPAD_WINDOW_POOL)
        e->bad |= S_ARG;
    if (c->opad && c->op != CLPAD_WINDOW_DECONV)
        e->bad |= S_ARG;
    bool valid_n = c->naxes >= 1 && c->naxes <= CLPAD_MAX_RANK;
    for (int i = 0; valid_n && i < c->naxes; i++) {
        if (c->pb && c->pb[i] < 0)
            e->bad |= S_PADS;
        if (c->opad && ok) {
            i128 d = c->dil ? c->dil[i] : 1, lim = e->S[i] > d ? e->S[i] : d;
            if (c->opad[i] < 0 || c->opad[i] >= lim)
                e->bad |= S_PADS;
        } else if (c->opad && c->opad[i] < 0)
            e->bad |= S_PADS;
        if (c->mode == CLPAD_TORCH_SAME && ok && e->S[i] != 1)
            e->bad |= S_ARG;
    }
    if (!ok)
        return;
    for (int i = 0; i < c->naxes; i++) {
        i128 I = c->input[i], DK = e->DK[i];
        i128 p = c->pb ? c->pb[i] : 0;
        if (c->mode == CLPAD_TORCH_SAME) {
            w_split(e, i, DK - 1, true);
            w_count(e, i, I, e->B[i], e->A[i], false, false);
        } else if (c->mode == CLPAD_TORCH_VALID) {
            w_count(e, i, I, 0, 0, false, false);
        } else if (c->op == CLPAD_WINDOW_DECONV) {
            w_deconv_explicit(e, i, w_full(e, i, I, c->opad ? c->opad[i] : 0), p, p);
        } else {
            if (c->op == CLPAD_WINDOW_POOL && p > DK / 2)
                e->bad |= S_PADS;
            w_count(e, i, I, p, p, c->ceil_mode && c->op == CLPAD_WINDOW_POOL,
                    c->ceil_mode && c->op == CLPAD_WINDOW_POOL);
        }
    }
}

/* clpad_window_tensor_pads on a result: the rule of the header, and what the
 * rule is for (a VALID floor window over the padded axis gives exactly O
 * windows; the full deconv output padded gives exactly O). */
static const char *check_tensor_pads(const clpad_window_result *res, int rank, int first,
                                     bool trusted)
{
    const char *msg = NULL;
    int rk = clamp_rank(rank);
    int64_t *pb = arr(rk), *pe = arr(rk);
    memset(pb, 0x7a, (size_t)rk * 8);
    memset(pe, 0x7a, (size_t)rk * 8);
    unsigned bad = 0;
    bool big = false, insane = false;
    i128 b[CLPAD_MAX_RANK] = {0}, en[CLPAD_MAX_RANK] = {0};
    int n = res->naxes;
    if (n < 1 || n > CLPAD_MAX_RANK || (int)res->op < 0 || res->op >= CLPAD_WINDOW_OP_COUNT)
        bad |= S_ARG;
    if (rank < 1 || rank > CLPAD_MAX_RANK)
        bad |= S_ARG;
    if (!bad && (first < 0 || (i128)first + n > rank))
        bad |= S_ARG;
    for (int i = 0; !bad && i < n; i++) {
        i128 I = res->input[i], S = res->stride[i], DK = res->extent[i], O = res->output[i];
        i128 B = res->pads_begin[i], A = res->pads_end[i];
        if (I < 1 || S < 1 || DK < 1 || O < 1)
            insane = true; /* not a clpad_window_* result: refusing it is fine */
        i128 v;
        if (res->op == CLPAD_WINDOW_DECONV) {
            i128 full = (I - 1) * S + DK;
            big |= !fits64(I - 1) || !fits64((I - 1) * S) || !fits64(full) || !fits64(-B);
            v = O - full;
            big |= !fits64(v) || !fits64(v + B);
            b[first + i] = -B;
            en[first + i] = v + B;
        } else {
            v = (O - 1) * S;
            big |= !fits64(O - 1) || !fits64(v);
            v += DK;
            big |= !fits64(v);
            v -= I;
            big |= !fits64(v);
            v -= B;
            big |= !fits64(v);
            i128 hi = v + S - 1;
            big |= !fits64(S - 1) || !fits64(hi);
            b[first + i] = B;
            en[first + i] = A < v ? v : A > hi ? hi : A;
        }
    }
    unsigned want = bad ? bad : (S_OK | (big ? S_OVF : 0) | (insane ? S_ARG : 0));
    if (!trusted && !bad)
        want |= S_ARG | S_OVF; /* garbage in: refusing it is fine, UB is not */
    clpad_status st = clpad_window_tensor_pads(res, rank, first, pb, pe);
    msg = judge("clpad_window_tensor_pads", st, want);
    if (msg)
        goto out;
    if (st != CLPAD_OK) {
        CHECK(all_bytes((unsigned char *)pb, (size_t)rk * 8, 0x7a) &&
                  all_bytes((unsigned char *)pe, (size_t)rk * 8, 0x7a),
              "clpad_window_tensor_pads wrote its output on error");
        goto out;
    }
    for (int k = 0; k < rank; k++)
        CHECK(fits64(b[k]) && fits64(en[k]),
              "clpad_window_tensor_pads succeeded, but axis %d's pads do not fit in int64", k);
    for (int k = 0; k < rank; k++)
        CHECK(pb[k] == (int64_t)b[k] && pe[k] == (int64_t)en[k],
              "clpad_window_tensor_pads: axis %d gives [%lld, %lld], expected [%lld, %lld]", k,
              (long long)pb[k], (long long)pe[k], (long long)b[k], (long long)en[k]);
    for (int i = 0; trusted && i < n; i++) {
        i128 I = res->input[i], S = res->stride[i], DK = res->extent[i], O = res->output[i];
        i128 M = I + pb[first + i] + pe[first + i];
        if (res->op == CLPAD_WINDOW_DECONV)
            CHECK((I - 1) * S + DK + pb[first + i] + pe[first + i] == O,
                  "tensor pads of deconv axis %d do not crop the full output to %lld", i,
                  (long long)O);
        else
            CHECK(M >= DK && fdiv(M - DK, S) + 1 == O,
                  "tensor pads of axis %d: a VALID window over %lld gives %lld windows, not %lld",
                  i, (long long)M, (long long)(M >= DK ? fdiv(M - DK, S) + 1 : 0), (long long)O);
    }
out:
    free(pb);
    free(pe);
    return msg;
}

static const char *const fn_names[W_FN_COUNT] = {"tensorrt", "tf", "onnx", "openvino", "torch",
                                                 "other"};

/* One convention call against its expectation, then tensor_pads on the result. */
static const char *check_convention(const wcall *c, int rank, int first)
{
    const char *msg = NULL;
    wexp e;
    memset(&e, 0, sizeof e);
    clpad_window_result *res = malloc(sizeof *res), before;
    if (!res)
        abort();
    memset(res, 0x7a, sizeof *res);
    res->size = sizeof *res; /* (the rest poisoned: written only on success) */
    before = *res;
    clpad_window_result *R = c->null_result ? NULL : res;
    clpad_status st;
    switch (c->fn) {
    case W_TRT:
        exp_trt(c, &e);
        st = clpad_window_tensorrt((clpad_window_op)c->op, (clpad_trt_padding)c->mode, c->naxes,
                                   c->input, c->kernel, c->stride, c->dil, c->pb, c->pe, R);
        break;
    case W_TF:
        exp_tf(c, &e);
        st = clpad_window_tf((clpad_window_op)c->op, (clpad_tf_padding)c->mode, c->naxes,
                             c->input, c->kernel, c->stride, c->dil, c->pb, c->pe, c->oshape, R);
        break;
    case W_ONNX:
        exp_onnx(c, &e);
        st = clpad_window_onnx((clpad_window_op)c->op, (clpad_onnx_auto_pad)c->mode, c->naxes,
                               c->input, c->kernel, c->stride, c->dil, c->onnx_pads,
                               c->ceil_mode, c->opad, c->oshape, R);
        break;
    case W_OV:
        exp_ov(c, &e);
        st = clpad_window_openvino((clpad_window_op)c->op, (clpad_ov_auto_pad)c->mode,
                                   (clpad_ov_rounding)c->rounding, c->naxes, c->input, c->kernel,
                                   c->stride, c->dil, c->pb, c->pe, c->opad, c->oshape, R);
        break;
    default:
        exp_torch(c, &e);
        st = clpad_window_torch((clpad_window_op)c->op, (clpad_torch_padding)c->mode, c->naxes,
                                c->input, c->kernel, c->stride, c->dil, c->pb, c->ceil_mode,
                                c->opad, R);
        break;
    }
    for (int i = 0; !e.bad && i < c->naxes; i++)
        if (!fits64(e.O[i]) || !fits64(e.B[i]) || !fits64(e.A[i]))
            e.big = true;
    unsigned want = e.bad ? e.bad : S_OK;
    if (e.big)
        want |= S_OVF;
    char what[64];
    snprintf(what, sizeof what, "clpad_window_%s(op %d, mode %d)", fn_names[c->fn], c->op,
             c->mode);
    msg = judge(what, st, want);
    if (msg)
        goto out;
    if (st != CLPAD_OK) {
        CHECK(!memcmp(res, &before, sizeof *res), "%s wrote its result on error", what);
        goto out;
    }
    CHECK(res->op == (clpad_window_op)c->op && res->naxes == c->naxes, "%s: result op/naxes",
          what);
    for (int i = 0; i < c->naxes; i++)
        CHECK(fits64(e.O[i]) && fits64(e.B[i]) && fits64(e.A[i]) && fits64(e.DK[i]),
              "%s succeeded, but axis %d's exact values do not fit in int64", what, i);
    for (int i = 0; i < CLPAD_MAX_RANK; i++) {
        bool in = i < c->naxes;
        CHECK(res->input[i] == (in ? c->input[i] : 0), "%s: result input[%d]", what, i);
        CHECK(res->extent[i] == (in ? (int64_t)e.DK[i] : 0), "%s: extent[%d] = %lld, want %lld",
              what, i, (long long)res->extent[i], (long long)(in ? e.DK[i] : 0));
        CHECK(res->stride[i] == (in ? (int64_t)e.S[i] : 0), "%s: stride[%d]", what, i);
        CHECK(res->output[i] == (in ? (int64_t)e.O[i] : 0),
              "%s: output[%d] = %lld, the documented formula gives %lld", what, i,
              (long long)res->output[i], (long long)(in ? e.O[i] : 0));
        CHECK(!in || res->output[i] >= 1, "%s: output[%d] = %lld < 1", what, i,
              (long long)res->output[i]);
        CHECK(res->pads_begin[i] == (in ? (int64_t)e.B[i] : 0) &&
                  res->pads_end[i] == (in ? (int64_t)e.A[i] : 0),
              "%s: pads of axis %d = [%lld, %lld], the documented formula gives [%lld, %lld]",
              what, i, (long long)res->pads_begin[i], (long long)res->pads_end[i],
              (long long)(in ? e.B[i] : 0), (long long)(in ? e.A[i] : 0));
    }
    msg = check_tensor_pads(res, rank, first, true);
out:
    free(res);
    return msg;
}

/* Layout conversions, name functions and tensor_pads on arbitrary results. */
static const char *check_other(fz_in *r)
{
    const char *msg = NULL;
    int naxes = rd_rank(r, 1, CLPAD_MAX_RANK);
    int nax = clamp_rank(naxes);
    int64_t *onnx = arr(2 * nax), *b = arr(nax), *e = arr(nax), *tf = arr(2 * (nax + 2));
    int64_t *b2 = arr(nax), *e2 = arr(nax);
    for (int k = 0; k < 2 * nax; k++)
        onnx[k] = rd_int(r, -4, 4);
    /* ONNX flat pads: from, to, and in place. */
    clpad_status st = clpad_window_pads_from_onnx(naxes, onnx, b, e);
    msg = judge("clpad_window_pads_from_onnx", st, naxes >= 1 && naxes <= 8 ? S_OK : S_ARG);
    if (msg || st)
        goto names;
    for (int i = 0; i < naxes; i++)
        CHECK(b[i] == onnx[i] && e[i] == onnx[naxes + i], "pads_from_onnx axis %d", i);
    st = clpad_window_pads_to_onnx(naxes, b, e, tf);
    msg = judge("clpad_window_pads_to_onnx", st, S_OK);
    if (msg)
        goto out;
    CHECK(!memcmp(tf, onnx, (size_t)naxes * 16), "pads_to_onnx(pads_from_onnx(p)) != p");
    st = clpad_window_pads_from_onnx(naxes, onnx, onnx + naxes, onnx); /* overlapping */
    msg = judge("clpad_window_pads_from_onnx (overlapping)", st, S_OK);
    if (msg)
        goto out;
    CHECK(!memcmp(onnx + naxes, tf, (size_t)naxes * 8) && !memcmp(onnx, tf + naxes,
                                                                  (size_t)naxes * 8),
          "pads_from_onnx with overlapping arrays");
    /* TF per-axis lists. */
    {
        int layout = rd_enum(r, CLPAD_TF_LAYOUT_COUNT);
        bool lay_ok = layout >= 0 && layout < CLPAD_TF_LAYOUT_COUNT;
        unsigned want = naxes <= CLPAD_MAX_RANK - 2 && lay_ok ? S_OK : S_ARG;
        st = clpad_window_pads_to_tf(naxes, (clpad_tf_layout)layout, b, e, tf);
        msg = judge("clpad_window_pads_to_tf", st, want);
        if (msg || st)
            goto names;
        int first = layout == CLPAD_TF_CHANNELS_LAST ? 1 : 2, chan =
            layout == CLPAD_TF_CHANNELS_LAST ? naxes + 1 : 1;
        for (int k = 0; k < naxes + 2; k++) {
            bool spatial = k >= first && k < first + naxes;
            CHECK(tf[2 * k] == (spatial ? b[k - first] : 0) &&
                      tf[2 * k + 1] == (spatial ? e[k - first] : 0),
                  "pads_to_tf axis %d", k);
        }
        int64_t poke = rd_int(r, -1, 1); /* a batch or channel entry that may be non-zero */
        int which = rd_u8(r) % 4;
        int axis = which < 2 ? 0 : chan;
        tf[2 * axis + (which & 1)] = poke;
        st = clpad_window_pads_from_tf(naxes + 2, (clpad_tf_layout)layout, tf, b2, e2);
        msg = judge("clpad_window_pads_from_tf", st, poke ? S_PADS : S_OK);
        if (msg || st)
            goto names;
        CHECK(!memcmp(b2, b, (size_t)naxes * 8) && !memcmp(e2, e, (size_t)naxes * 8),
              "pads_from_tf(pads_to_tf(p)) != p");
    }
names:
    msg = NULL;
    {
        /* Every *_name / *_from_name pair on one value and one text. */
        int v = rd_enum(r, 4);
        char text[24];
        size_t len = rd_u8(r) % sizeof text;
        for (size_t k = 0; k < len; k++)
            text[k] = (char)rd_u8(r);
        text[len] = '\0';
#define NAME_PAIR(prefix, type, count)                                                    \
    do {                                                                                  \
        const char *nm = prefix##_name((type)v);                                         \
        CHECK((nm != NULL) == (v >= 0 && v < (count)), #prefix "_name(%d)", v);           \
        type got;                                                                         \
        if (nm) {                                                                         \
            clpad_status s2 = prefix##_from_name(nm, &got);                               \
            CHECK(s2 == CLPAD_OK && (int)got == v, #prefix "_from_name(%s)", nm);         \
        }                                                                                 \
        clpad_status s3 = prefix##_from_name(text, &got);                                 \
        msg = judge(#prefix "_from_name", s3, S_OK | S_PARSE);                           \
        if (msg)                                                                          \
            goto out;                                                                     \
        CHECK(s3 != CLPAD_OK || ((int)got >= 0 && (int)got < (count)),                   \
              #prefix "_from_name gave %d", (int)got);                                   \
        msg = judge(#prefix "_from_name(NULL)", prefix##_from_name(NULL, &got), S_ARG);   \
        if (msg)                                                                          \
            goto out;                                                                     \
        msg = judge(#prefix "_from_name(, NULL)", prefix##_from_name(text, NULL), S_ARG); \
        if (msg)                                                                          \
            goto out;                                                                     \
    } while (0)
        NAME_PAIR(clpad_window_op, clpad_window_op, CLPAD_WINDOW_OP_COUNT);
        NAME_PAIR(clpad_trt_padding, clpad_trt_padding, CLPAD_TRT_PADDING_COUNT);
        NAME_PAIR(clpad_tf_padding, clpad_tf_padding, CLPAD_TF_PADDING_COUNT);
        NAME_PAIR(clpad_tf_layout, clpad_tf_layout, CLPAD_TF_LAYOUT_COUNT);
        NAME_PAIR(clpad_onnx_auto_pad, clpad_onnx_auto_pad, CLPAD_ONNX_AUTO_PAD_COUNT);
        NAME_PAIR(clpad_ov_auto_pad, clpad_ov_auto_pad, CLPAD_OV_AUTO_PAD_COUNT);
        NAME_PAIR(clpad_ov_rounding, clpad_ov_rounding, CLPAD_OV_ROUNDING_COUNT);
        NAME_PAIR(clpad_torch_padding, clpad_torch_padding, CLPAD_TORCH_PADDING_COUNT);
        NAME_PAIR(clpad_pad_mode, clpad_pad_mode, CLPAD_PAD_MODE_COUNT);
        NAME_PAIR(clpad_dtype, clpad_dtype, CLPAD_DTYPE_COUNT);
#undef NAME_PAIR
    }
    {
        /* tensor_pads on a result that no clpad_window_* call made. */
        clpad_window_result g;
        clpad_window_result_init(&g);
        g.op = (clpad_window_op)rd_enum(r, CLPAD_WINDOW_OP_COUNT);
        g.naxes = rd_rank(r, 1, CLPAD_MAX_RANK);
        for (int i = 0; i < CLPAD_MAX_RANK; i++) {
            g.input[i] = rd_int(r, -1, 12);
            g.extent[i] = rd_int(r, -1, 9);
            g.stride[i] = rd_int(r, -1, 4);
            g.output[i] = rd_int(r, -1, 12);
            g.pads_begin[i] = rd_int(r, -4, 4);
            g.pads_end[i] = rd_int(r, -4, 4);
        }
        int rank = rd_rank(r, 1, CLPAD_MAX_RANK);
        int first = to_int(rd_int(r, 0, 3));
        msg = check_tensor_pads(&g, rank, first, false);
    }
out:
    free(onnx);
    free(b);
    free(e);
    free(tf);
    free(b2);
    free(e2);
    return msg;
}

const char *fz_check_window(const uint8_t *data, size_t size)
{
    fz_in in = {data, size}, *r = &in;
    const char *msg = NULL;
    wcall c;
    memset(&c, 0, sizeof c);
    c.fn = rd_u8(r) % W_FN_COUNT;
    if (c.fn == W_OTHER)
        return check_other(r);
    static const int mode_counts[W_FN_COUNT] = {CLPAD_TRT_PADDING_COUNT, CLPAD_TF_PADDING_COUNT,
                                                CLPAD_ONNX_AUTO_PAD_COUNT, CLPAD_OV_AUTO_PAD_COUNT,
                                                CLPAD_TORCH_PADDING_COUNT, 1};
    c.op = rd_enum(r, CLPAD_WINDOW_OP_COUNT);
    c.mode = rd_enum(r, mode_counts[c.fn]);
    c.rounding = rd_enum(r, CLPAD_OV_ROUNDING_COUNT);
    {
        uint8_t t = rd_u8(r);
        const int weird[4] = {2, -1, INT_MIN, INT_MAX};
        c.ceil_mode = t < 0xF0 ? t & 1 : weird[t & 3];
    }
    {
        uint8_t t = rd_u8(r);
        const int weird[8] = {0, -1, 9, 10, INT_MIN, INT_MAX, 16, -8};
        c.naxes = t < 0xC0 ? t % 3 + 1 : t < 0xF0 ? t % 8 + 1 : weird[t & 7];
    }
    uint8_t present = rd_u8(r); /* bits: stride, dilation, pads_begin (ONNX pads, torch
                                   padding), pads_end, output_padding, output_shape */
    uint8_t nulls = rd_u8(r);   /* >= 0xF0: bits input, kernel, result NULL */
    c.nax = clamp_rank(c.naxes);
    int n = c.nax;
    int64_t *input = arr(n), *kernel = arr(n), *stride = arr(n), *dil = arr(n), *pb = arr(n),
            *pe = arr(n), *opad = arr(n), *oshape = arr(n), *onnx_pads = arr(2 * n);
    for (int i = 0; i < n; i++) {
        input[i] = rd_int(r, 1, 12);
        kernel[i] = rd_int(r, 1, 5);
        stride[i] = rd_int(r, 1, 4);
        dil[i] = rd_int(r, 1, 3);
        pb[i] = rd_int(r, 0, 4);
        pe[i] = rd_int(r, 0, 4);
        opad[i] = rd_int(r, 0, 3);
        oshape[i] = rd_int(r, 1, 30);
        onnx_pads[i] = pb[i];
        onnx_pads[n + i] = pe[i];
    }
    int rank = to_int((int64_t)to_int(rd_int(r, 0, 3)) +
                      (c.naxes >= 1 && c.naxes <= 8 ? c.naxes : 1));
    int first = to_int(rd_int(r, 0, 3));
    bool nn = nulls >= 0xF0;
    c.input = nn && (nulls & 1) ? NULL : input;
    c.kernel = nn && (nulls & 2) ? NULL : kernel;
    c.null_result = nn && (nulls & 4);
    c.stride = present & 1 ? stride : NULL;
    c.dil = present & 2 ? dil : NULL;
    c.pb = present & 4 ? pb : NULL;
    c.pe = present & 8 ? pe : NULL;
    c.opad = present & 16 ? opad : NULL;
    c.oshape = present & 32 ? oshape : NULL;
    c.onnx_pads = present & 4 ? onnx_pads : NULL;
    msg = check_convention(&c, rank, first);
    free(input);
    free(kernel);
    free(stride);
    free(dil);
    free(pb);
    free(pe);
    free(opad);
    free(oshape);
    free(onnx_pads);
    return msg;
}

/* ------------------------------------------------------------------------- */
/* Targets                                                                   */
/* ------------------------------------------------------------------------- */

/* ------------------------------------------------------------------------- */
/* letterbox: decoded images and options -> clpad_letterbox_plan / _cpu      */
/* ------------------------------------------------------------------------- */

#define S_UNSUP SB(CLPAD_ERR_UNSUPPORTED)
/* Images and outputs beyond these are planned only (no pixels read). */
#define FZ_LB_MAX_SPAN ((int64_t)1 << 16)
#define FZ_LB_MAX_OUT ((size_t)1 << 20)

/* A float option: a few plain values, and the ones the options refuse. */
static float rd_lb_float(fz_in *r, float plain)
{
    static const float v[8] = {0.5f, 2.0f, 1.0f / 255.0f, 255.0f, 0.0f, -1.0f, 1e30f, 0.0f};
    uint8_t t = rd_u8(r);
    if (t < 0xC0)
        return plain;
    if (t < 0xF0)
        return v[t & 7];
    return (t & 1) ? INFINITY : NAN;
}

/* The bytes image i's documented reads span (docs/letterbox.md): each row
 * of each plane at its stride, the last row only as far as its samples;
 * -1 when the sizes are not small enough to read (plan only). span[k] is
 * plane k's own span for separate planes (k 1, 2), span[0] the buffer's. */
static int64_t lb_span(const clpad_image *im, int fmt, int64_t span[3])
{
    int64_t h = im->height, w = im->width;
    span[0] = span[1] = span[2] = 0;
    if (h < 1 || w < 1 || h > 256 || w > 256 || im->row_stride < 0 || im->row_stride > 4096)
        return -1;
    if (fmt == CLPAD_INPUT_PACKED) {
        int64_t c = im->channels, rs = im->row_stride ? im->row_stride : w * c;
        if (c < 1 || c > 4 || rs < w * c)
            return -1;
        return span[0] = (h - 1) * rs + w * c;
    }
    if (h % 2 || w % 2)
        return -1;
    int64_t ys = im->row_stride ? im->row_stride : w;
    bool semi = fmt == CLPAD_INPUT_NV12 || fmt == CLPAD_INPUT_NV21;
    int nplanes = semi ? 1 : 2;
    int64_t at = h * ys, row = semi ? w : w / 2;
    span[0] = (h - 1) * ys + w;
    for (int k = 0; k < nplanes; k++) {
        int64_t ps = im->plane_stride[k];
        if (!ps)
            ps = semi ? ys : ys / 2;
        if (ps < row || ps > 4096)
            return -1;
        int64_t one = (h / 2 - 1) * ps + row;
        if (im->separate_planes) {
            span[k + 1] = one;
        } else {
            span[0] = at + one;
            at += (h / 2) * ps;
        }
    }
    return span[0];
}

const char *fz_check_letterbox(const uint8_t *data, size_t size)
{
    fz_in in = {data, size}, *r = &in;
    const char *msg = NULL;
    clpad_letterbox_options o;
    int64_t oh = rd_int(r, 1, 24), ow = rd_int(r, 1, 24);
    clpad_letterbox_options_init(&o, oh, ow);
    uint8_t sel = rd_u8(r); /* which options the input sets */
    if (sel & 1)
        o.interp = (clpad_interp)rd_enum(r, CLPAD_INTERP_COUNT);
    if (sel & 2) {
        o.placement = (clpad_placement)rd_enum(r, 2);
        o.scaleup = rd_u8(r) & 1;
        o.pad_mode = (clpad_pad_mode)rd_enum(r, 5);
        for (int c = 0; c < CLPAD_LETTERBOX_MAX_CHANNELS; c++)
            o.pad_value[c] = rd_u8(r);
        o.swap_rb = rd_u8(r) & 1;
    }
    if (sel & 4) {
        o.scale = rd_lb_float(r, 1.0f / 255.0f);
        o.divisor = rd_lb_float(r, 1.0f);
        for (int c = 0; c < CLPAD_LETTERBOX_MAX_CHANNELS; c++) {
            o.mean[c] = rd_lb_float(r, 0.25f * (float)c);
            o.std[c] = rd_lb_float(r, 0.5f);
        }
    }
    if (sel & 8) {
        static const clpad_dtype dts[4] = {CLPAD_U8, CLPAD_F16, CLPAD_F32, CLPAD_I32};
        o.dtype = dts[rd_u8(r) & 3];
        o.layout = (clpad_layout)rd_enum(r, CLPAD_LAYOUT_COUNT);
    }
    if (sel & 16) {
        o.fit = (clpad_fit)rd_enum(r, CLPAD_FIT_COUNT);
        o.resize_shorter = rd_int(r, 0, 24);
        o.stride = rd_int(r, 0, 8);
        static const int pv[4] = {13, 12, 11, 0};
        o.pil_version = pv[rd_u8(r) & 3];
    }
    int fmt = CLPAD_INPUT_PACKED;
    if (sel & 32) {
        o.input_format = (clpad_input_format)rd_enum(r, CLPAD_INPUT_FORMAT_COUNT);
        o.color_matrix = (clpad_color_matrix)rd_enum(r, CLPAD_COLOR_MATRIX_COUNT);
        o.color_range = (clpad_color_range)rd_enum(r, CLPAD_COLOR_RANGE_COUNT);
        fmt = o.input_format;
    }
    size_t n = (size_t)(rd_u8(r) % 4);
    clpad_image ims[3];
    unsigned char *buf[3][3] = {{NULL}}, *copy[3][3] = {{NULL}};
    int64_t spans[3][3];
    bool readable = true;
    int chan = (int)rd_int(r, 1, 4);
    memset(ims, 0, sizeof ims);
    for (size_t i = 0; i < n; i++) {
        clpad_image *im = &ims[i];
        im->height = rd_int(r, 1, 12);
        im->width = rd_int(r, 1, 12);
        im->channels = fmt == CLPAD_INPUT_PACKED ? chan : (rd_u8(r) & 1) * 3;
        uint8_t lay = rd_u8(r);
        /* strides a few bytes past the row (of an image small enough to read) */
        int64_t w = im->width >= 1 && im->width <= 256 ? im->width : 1;
        im->row_stride = (lay & 3) == 0 ? 0 : w * (im->channels ? im->channels : 1) + (lay & 3) - 1;
        im->separate_planes = (lay >> 2) & 1;
        im->plane_stride[0] = (lay & 0x18) ? w + ((lay >> 3) & 3) : 0;
        im->plane_stride[1] = (lay & 0x60) ? w / 2 + ((lay >> 5) & 3) : 0;
        if (lay >= 0xF0) { /* a stride below the row, for the checks */
            im->row_stride = 1;
            im->plane_stride[0] = 1;
        }
        if (lb_span(im, fmt, spans[i]) < 0) {
            readable = false;
            continue;
        }
        for (int k = 0; k < 3; k++) {
            if (!spans[i][k] && k > 0)
                continue;
            buf[i][k] = malloc((size_t)spans[i][k]);
            copy[i][k] = malloc((size_t)spans[i][k]);
            if (!buf[i][k] || !copy[i][k])
                abort();
            for (int64_t b = 0; b < spans[i][k]; b++)
                buf[i][k][b] = (unsigned char)(rd_u8(r) ^ (b * 0x9Du) ^ (unsigned)(i * 31 + k));
            memcpy(copy[i][k], buf[i][k], (size_t)spans[i][k]);
        }
        im->data = buf[i][0];
        im->planes[0] = buf[i][1];
        im->planes[1] = buf[i][2];
    }
    int64_t shape[4] = {0};
    clpad_letterbox_transform tp[3], tc[3];
    clpad_letterbox_transform_init(&tp[0]);
    clpad_letterbox_transform_init(&tc[0]);
    unsigned char *out[2] = {NULL, NULL};
    clpad_status st = clpad_letterbox_plan(ims, n, &o, shape, tp);
    if ((msg = judge("clpad_letterbox_plan", st,
                     S_OK | S_ARG | S_SHAPE | S_PADS | S_OVF | S_UNSUP)))
        goto out;
    if (st != CLPAD_OK || !readable)
        goto out;
    {
        size_t es = o.dtype == CLPAD_U8 ? 1 : o.dtype == CLPAD_F16 ? 2 : 4;
        size_t bytes = es;
        for (int d = 0; d < 4; d++) {
            CHECK(shape[d] >= 0 && (d == 0 ? shape[d] == (int64_t)n : shape[d] >= 1),
                  "letterbox: out_shape[%d] = %lld", d, (long long)shape[d]);
            bytes *= (size_t)shape[d];
            if (bytes > FZ_LB_MAX_OUT)
                goto out;
        }
        /* twice, over outputs filled with 0x00 and 0xff: every byte is written
         * and the result is the same; the inputs are never modified */
        for (int run = 0; run < 2; run++) {
            out[run] = malloc(bytes + 1);
            if (!out[run])
                abort();
            memset(out[run], run ? 0xff : 0x00, bytes + 1);
            st = clpad_letterbox_cpu(ims, n, &o, out[run], bytes, tc);
            CHECK(st == CLPAD_OK, "clpad_letterbox_cpu failed after the plan succeeded: %s (%s)",
                  clpad_status_name(st), clpad_last_error());
            CHECK(out[run][bytes] == (run ? 0xff : 0x00), "letterbox wrote past output_bytes");
            CHECK(!memcmp(tp, tc, n * sizeof *tp),
                  "letterbox: the transforms differ between the plan and the call");
        }
        CHECK(!memcmp(out[0], out[1], bytes),
              "letterbox left output bytes unwritten (or is not deterministic)");
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                CHECK(!buf[i][k] || !memcmp(buf[i][k], copy[i][k], (size_t)spans[i][k]),
                      "letterbox modified image %zu's input", i);
        /* one byte short: refused, nothing written */
        if (bytes > 0) {
            memset(out[0], 0x5a, bytes + 1);
            st = clpad_letterbox_cpu(ims, n, &o, out[0], bytes - 1, NULL);
            if ((msg = judge("clpad_letterbox_cpu (output one byte short)", st, S_SMALL)))
                goto out;
            CHECK(all_bytes(out[0], bytes + 1, 0x5a),
                  "letterbox wrote into an output it refused");
        }
    }
out:
    for (size_t i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            free(buf[i][k]);
            free(copy[i][k]);
        }
    free(out[0]);
    free(out[1]);
    return msg;
}

const fz_target fz_targets[] = {
    {"npy", fz_check_npy},
    {"image", fz_check_image},
    {"pad", fz_check_pad},
    {"space_batch", fz_check_space_batch},
    {"window", fz_check_window},
    {"letterbox", fz_check_letterbox},
};

size_t fz_target_count(void)
{
    return sizeof fz_targets / sizeof fz_targets[0];
}
