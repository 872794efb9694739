/* tio_load and tio_save: a file in, a file out, by format. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* O_DIRECT (the streamed .npy writer) */
#endif
#include "io_internal.h"
#include "open_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

/* The start of a load by the call `fn`: *t zeroed; 1 with err set when
 * there is no t or `path` names no format that loads (tio_check_load_path). */
static int begin_load(const char *fn, const char *path, tio_tensor *t, char *err, size_t errlen)
{
    if (!t)
        return tio__fail(err, errlen, "%s: no tensor given", fn);
    memset(t, 0, sizeof *t);
    return tio_check_load_path(path, err, errlen) ? 1 : 0;
}

int tio_load_fd(int fd, const char *name, tio_tensor *t, char *err, size_t errlen)
{
    if (begin_load("tio_load_fd", name, t, err, errlen))
        return 1;
    struct stat st;
    if (fstat(fd, &st) != 0)
        return tio__fail(err, errlen, "%s: cannot stat: %s", name, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return tio__fail(err, errlen, "%s: is a directory", name);
    if (strcmp(tio__find_format(name)->name, "npy") != 0)
        return tio__load_image_fd(fd, name, 0, t, err, errlen);
    /* A regular file has a size to check the header against; anything else
     * (a pipe, a character device) is read as a stream, only as far as the
     * header says. */
    tio__reader r = {.name = name, .fd = fd};
    if (S_ISREG(st.st_mode) && st.st_size >= 0) {
        r.sized = true;
        r.size = (uint64_t)st.st_size;
    }
    int rc = tio__load_npy(&r, t, err, errlen);
    if (rc) {
        free(t->data);
        memset(t, 0, sizeof *t);
    }
    return rc;
}

int tio_load(const char *path, tio_tensor *t, char *err, size_t errlen)
{
    if (begin_load("tio_load", path, t, err, errlen))
        return 1;
    int fd = tio__open_read(path); /* (a FIFO without a writer: read as empty) */
    if (fd < 0)
        return tio__fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    int rc = tio_load_fd(fd, path, t, err, errlen);
    close(fd);
    return rc;
}

void tio_free(tio_tensor *t)
{
    if (!t)
        return;
    free(t->data);
    memset(t, 0, sizeof *t);
}

/* The quality a save uses, checked. */
static int save_quality(const char *path, const tio_save_options *opts, int *quality, char *err,
                        size_t errlen)
{
    *quality = opts && opts->jpeg_quality ? opts->jpeg_quality : TIO_JPEG_QUALITY_DEFAULT;
    if (*quality < 1 || *quality > 100)
        return tio__fail(err, errlen, "%s: JPEG quality %d is not in 1..100", path, *quality);
    return 0;
}

/* What is refused before anything is written: no tensor, a JPEG quality
 * out of range, a tensor the format of path cannot hold (need: the bytes
 * it takes). */
static int save_checks(const char *path, const tio_tensor *t, const tio_save_options *opts,
                       int *quality, size_t *need, char *err, size_t errlen)
{
    if (!t)
        return tio__fail(err, errlen, "tio_save: no tensor given");
    return save_quality(path, opts, quality, err, errlen) ||
           tio__check_saveable(path, t, need, err, errlen);
}

int tio_output_set_add(tio_output_set *set, const char *path, const tio_tensor *t,
                       const tio_save_options *opts, char *err, size_t errlen)
{
    int quality = 0;
    size_t need = 0;
    if (save_checks(path, t, opts, &quality, &need, err, errlen))
        return 1;
    tio__atomic_file af;
    if (tio__set_begin(set, path, &af, err, errlen))
        return 1;
    const char *format = tio_format(path);
    int rc;
    if (strcmp(format, "npy") == 0) {
        unsigned char hdr[512];
        size_t hn = tio__npy_header(t, hdr, sizeof hdr);
        rc = hn == 0 ? tio__fail(err, errlen, "%s: internal error: .npy header too long", path) : 0;
        if (!rc) {
            tio__af_write(&af, hdr, hn);
            tio__af_write(&af, t->data, t->nbytes);
        }
    } else {
        rc = tio__encode_image(path, format, t, quality, &af, err, errlen);
    }
    return tio__set_end(set, &af, rc == 0, err, errlen);
}

int tio_output_set_add_bytes(tio_output_set *set, const char *path, const void *data,
                             size_t len, char *err, size_t errlen)
{
    tio__atomic_file af;
    if (tio__set_begin(set, path, &af, err, errlen))
        return 1;
    tio__af_write(&af, data, len);
    return tio__set_end(set, &af, true, err, errlen);
}

struct tio_npy_writer {
    tio_output_set *set;
    tio__atomic_file af;
    char *path;
    tio_tensor t;       /* dtype and shape; no data */
    size_t header_len;
    uint64_t written;   /* data bytes */
    bool padded;        /* the header padded to TIO_DIRECT_ALIGN bytes */
    bool direct;        /* aligned pieces bypass the page cache (O_DIRECT) */
    bool odirect;       /* O_DIRECT is set on the descriptor now */
};

/* A streamed .npy of at least TIO_DIRECT_MIN bytes of data, on a file system
 * that keeps files on a device, is written with O_DIRECT where the pieces
 * allow it (offset, length and address multiples of TIO_DIRECT_ALIGN): the
 * data goes from the caller's memory to the device without being copied
 * into the page cache, whose allocation and write-back cost more CPU time
 * than the copy itself (bench/README.md, "Folder to batches": 1.1 GB of
 * batches). Its header is then padded to TIO_DIRECT_ALIGN bytes (the .npy
 * format allows any multiple of 64), so that the data starts aligned.
 * Pieces that are not aligned, file systems that refuse O_DIRECT and
 * memory file systems (tmpfs, where the page cache is the file) take the
 * ordinary writes. */
#define TIO_DIRECT_ALIGN 4096u
#define TIO_DIRECT_MIN ((uint64_t)64 << 20)

/* Whether fd's file system keeps its files on a device (not tmpfs/ramfs). */
static bool on_device(int fd)
{
#if defined(__linux__) && defined(O_DIRECT)
    struct statfs sf;
    if (fstatfs(fd, &sf) != 0)
        return false;
    return sf.f_type != 0x01021994 /* TMPFS_MAGIC */ && sf.f_type != (long)0x858458f6 /* RAMFS */;
#else
    (void)fd;
    return false;
#endif
}

/* The writer's .npy header into hdr (cap bytes): its length, or 0 when it
 * does not fit; padded with spaces to TIO_DIRECT_ALIGN bytes for direct writes. */
static size_t writer_header(const tio_npy_writer *w, unsigned char *hdr, size_t cap)
{
    size_t n = tio__npy_header(&w->t, hdr, cap);
    if (n == 0 || !w->padded || n >= TIO_DIRECT_ALIGN || hdr[6] != 1 || cap < TIO_DIRECT_ALIGN)
        return n;
    /* version 1.0: the 16-bit header length at bytes 8-9 counts from byte 10 */
    memset(hdr + n - 1, ' ', TIO_DIRECT_ALIGN - n);
    hdr[TIO_DIRECT_ALIGN - 1] = '\n';
    size_t hl = TIO_DIRECT_ALIGN - 10;
    hdr[8] = (unsigned char)(hl & 0xff);
    hdr[9] = (unsigned char)(hl >> 8);
    return TIO_DIRECT_ALIGN;
}

/* Turn O_DIRECT on or off on the writer's descriptor (a system call only
 * when it changes: the writer keeps the state); false (and direct writes
 * off for good) when the file system refuses it. */
static bool set_direct(tio_npy_writer *w, bool on)
{
    if (w->odirect == on)
        return true;
#ifdef O_DIRECT
    int fl = fcntl(w->af.fd, F_GETFL);
    if (fl >= 0 && fcntl(w->af.fd, F_SETFL, on ? fl | O_DIRECT : fl & ~O_DIRECT) == 0) {
        w->odirect = on;
        return true;
    }
#endif
    w->direct = false;
    return false;
}

int tio_output_set_begin_npy(tio_output_set *set, const char *path, clpad_dtype dtype, int rank,
                             const int64_t *shape, tio_npy_writer **writer, char *err,
                             size_t errlen)
{
    *writer = NULL;
    if (rank < 1 || rank > CLPAD_MAX_RANK || !shape)
        return tio__fail(err, errlen, "%s: a streamed .npy has rank 1..%d, not %d", path,
                         CLPAD_MAX_RANK, rank);
    const char *fmt = tio_format(path);
    if (!fmt || strcmp(fmt, "npy"))
        return tio__fail(err, errlen, "%s: a streamed output is a .npy file", path);
    if (!tio__npy_descr_of(dtype))
        return tio__fail(err, errlen, "%s: numpy has no dtype for %s", path,
                         tio__dtype_name(dtype));
    tio_npy_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        free(w);
        return tio__fail(err, errlen, "%s: out of memory", path);
    }
    w->set = set;
    w->t.dtype = dtype;
    w->t.rank = rank;
    memcpy(w->t.shape, shape, (size_t)rank * sizeof *shape);
    unsigned char hdr[TIO_DIRECT_ALIGN];
    size_t data_bytes = 0;
    if (tio__set_begin(set, path, &w->af, err, errlen)) {
        free(w->path);
        free(w);
        return 1;
    }
    w->direct = w->padded = tio__shape_bytes(rank, shape, clpad_dtype_size(dtype), &data_bytes) &&
                            data_bytes >= TIO_DIRECT_MIN && on_device(w->af.fd);
    w->header_len = writer_header(w, hdr, sizeof hdr);
    if (w->header_len == 0) {
        tio__fail(err, errlen, "%s: internal error: .npy header too long", path);
        tio__set_end(set, &w->af, false, err, errlen);
        free(w->path);
        free(w);
        return 1;
    }
    tio__af_write(&w->af, hdr, w->header_len);
    *writer = w;
    return 0;
}

int tio_npy_writer_write(tio_npy_writer *w, const void *data, size_t len, char *err,
                         size_t errlen)
{
    /* at the data's end (the header is rewritten at the finish) */
    const unsigned char *p = data;
    off_t at = (off_t)(w->header_len + w->written);
    while (len > 0 && !w->af.werr) {
        /* the aligned part of what is left directly, the rest through the
         * page cache (see TIO_DIRECT_MIN) */
        size_t part = w->direct && (uint64_t)at % TIO_DIRECT_ALIGN == 0 &&
                              (uintptr_t)p % TIO_DIRECT_ALIGN == 0
                          ? len / TIO_DIRECT_ALIGN * TIO_DIRECT_ALIGN
                          : 0;
        bool direct = part > 0 && set_direct(w, true);
        if (!direct && w->direct && !set_direct(w, false)) {
            w->af.werr = errno ? errno : EIO;
            continue;
        }
        ssize_t n = pwrite(w->af.fd, p, direct ? part : len, at);
        if (n < 0 && direct && errno == EINVAL) { /* the file system refuses it */
            if (!set_direct(w, false))
                w->af.werr = errno ? errno : EIO;
            w->direct = false;
            continue;
        }
        if (n < 0) {
            if (errno != EINTR)
                w->af.werr = errno;
            continue;
        }
        p += n;
        at += n;
        len -= (size_t)n;
        w->written += (uint64_t)n;
    }
    if (w->af.werr)
        return tio__fail(err, errlen, "%s: write error: %s", w->path, strerror(w->af.werr));
    return 0;
}

int tio_npy_writer_reserve(tio_npy_writer *w, uint64_t len, char *err, size_t errlen)
{
    if (w->af.werr || len == 0)
        return 0;
    int e = posix_fallocate(w->af.fd, (off_t)(w->header_len + w->written), (off_t)len);
    if (e == ENOSPC || e == EFBIG)
        return tio__fail(err, errlen, "%s: cannot allocate %llu bytes: %s", w->path,
                         (unsigned long long)len, strerror(e));
    return 0; /* no fallocate here: the room is taken as the data is written */
}

int tio_npy_writer_finish(tio_npy_writer *w, int64_t rows, bool ok, char *err, size_t errlen)
{
    int rc = ok ? 0 : 1;
    /* the file ends with the data (the reserved room may have gone further) */
    if (ok && !w->af.werr && ftruncate(w->af.fd, (off_t)(w->header_len + w->written)) != 0)
        w->af.werr = errno;
    size_t row_bytes = 0;
    w->t.shape[0] = 1;
    if (!rc && (rows < 0 || !tio__shape_bytes(w->t.rank, w->t.shape, clpad_dtype_size(w->t.dtype),
                                              &row_bytes)))
        rc = tio__fail(err, errlen, "%s: %lld rows: the size overflows", w->path,
                       (long long)rows);
    if (!rc && (uint64_t)row_bytes * (uint64_t)rows != w->written)
        rc = tio__fail(err, errlen,
                       "%s: internal error: %llu bytes of data written for %lld rows of %zu",
                       w->path, (unsigned long long)w->written, (long long)rows, row_bytes);
    if (!rc) {
        /* the header again, with the rows: the same length (numpy's room for
         * the first axis to grow in place) */
        w->t.shape[0] = rows;
        unsigned char hdr[TIO_DIRECT_ALIGN];
        size_t hn = writer_header(w, hdr, sizeof hdr);
        if (hn != w->header_len)
            rc = tio__fail(err, errlen, "%s: internal error: the header changed length", w->path);
        else if (!w->af.werr && w->direct && !set_direct(w, false))
            w->af.werr = errno ? errno : EIO;
        else if (!w->af.werr && pwrite(w->af.fd, hdr, hn, 0) != (ssize_t)hn)
            w->af.werr = errno ? errno : EIO;
    }
    rc = tio__set_end(w->set, &w->af, rc == 0, err, errlen) || rc;
    free(w->path);
    free(w);
    return rc;
}

/* One file saved atomically, as a set of one output: the tensor t (with
 * opts), or when t is NULL the bytes data[0..len). */
static int save_one(const char *path, const tio_tensor *t, const tio_save_options *opts,
                    const void *data, size_t len, char *err, size_t errlen)
{
    tio_output_set *set;
    if (tio_output_set_open(&set, err, errlen))
        return 1;
    if (t ? tio_output_set_add(set, path, t, opts, err, errlen)
          : tio_output_set_add_bytes(set, path, data, len, err, errlen)) {
        tio_output_set_abort(set);
        return 1;
    }
    return tio_output_set_commit(set, err, errlen);
}

int tio_save_with(const char *path, const tio_tensor *t, const tio_save_options *opts,
                  char *err, size_t errlen)
{
    /* Refused before the set takes over the signals. */
    int quality;
    size_t need;
    if (save_checks(path, t, opts, &quality, &need, err, errlen))
        return 1;
    return save_one(path, t, opts, NULL, 0, err, errlen);
}

int tio_save_bytes(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    return save_one(path, NULL, NULL, data, len, err, errlen);
}

int tio_save(const char *path, const tio_tensor *t, char *err, size_t errlen)
{
    return tio_save_with(path, t, NULL, err, errlen);
}
