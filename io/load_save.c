/* tio_load and tio_save: a file in, a file out, by format. */
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tio_load_fd(int fd, const char *name, tio_tensor *t, char *err, size_t errlen)
{
    if (t)
        memset(t, 0, sizeof *t);
    if (!t)
        return tio__fail(err, errlen, "tio_load_fd: no tensor given");
    if (tio_check_load_path(name, err, errlen))
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
    if (t)
        memset(t, 0, sizeof *t);
    if (!t)
        return tio__fail(err, errlen, "tio_load: no tensor given");
    if (tio_check_load_path(path, err, errlen))
        return 1;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
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

int tio_output_set_add(tio_output_set *set, const char *path, const tio_tensor *t,
                       const tio_save_options *opts, char *err, size_t errlen)
{
    if (!t)
        return tio__fail(err, errlen, "tio_save: no tensor given");
    int quality;
    size_t need;
    if (save_quality(path, opts, &quality, err, errlen) ||
        tio__check_saveable(path, t, &need, err, errlen))
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

int tio_save_with(const char *path, const tio_tensor *t, const tio_save_options *opts,
                  char *err, size_t errlen)
{
    if (!t)
        return tio__fail(err, errlen, "tio_save: no tensor given");
    /* Refused before the set takes over the signals. */
    int quality;
    size_t need;
    if (save_quality(path, opts, &quality, err, errlen) ||
        tio__check_saveable(path, t, &need, err, errlen))
        return 1;
    tio_output_set *set;
    if (tio_output_set_open(&set, err, errlen))
        return 1;
    if (tio_output_set_add(set, path, t, opts, err, errlen)) {
        tio_output_set_abort(set);
        return 1;
    }
    return tio_output_set_commit(set, err, errlen);
}

int tio_save_bytes(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    tio_output_set *set;
    if (tio_output_set_open(&set, err, errlen))
        return 1;
    if (tio_output_set_add_bytes(set, path, data, len, err, errlen)) {
        tio_output_set_abort(set);
        return 1;
    }
    return tio_output_set_commit(set, err, errlen);
}

int tio_save(const char *path, const tio_tensor *t, char *err, size_t errlen)
{
    return tio_save_with(path, t, NULL, err, errlen);
}
