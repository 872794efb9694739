/* tio_load and tio_save: a file in, a file out, by format. */
#include "io_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb/stb_image_write.h>

static int read_all(const char *path, FILE *f, const struct stat *st, unsigned char **out,
                    size_t *outlen, char *err, size_t errlen)
{
    size_t cap = 65536;
    if (S_ISREG(st->st_mode) && st->st_size >= 0 && (uint64_t)st->st_size < SIZE_MAX - 1)
        cap = (size_t)st->st_size + 1; /* +1 to see EOF without growing */
    unsigned char *buf = malloc(cap);
    if (!buf)
        return tio__fail(err, errlen, "%s: out of memory reading %zu bytes", path, cap);
    size_t len = 0;
    for (;;) {
        if (len == cap) {
            size_t ncap;
            if (__builtin_mul_overflow(cap, (size_t)2, &ncap)) {
                free(buf);
                return tio__fail(err, errlen, "%s: file too large", path);
            }
            unsigned char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                return tio__fail(err, errlen, "%s: out of memory reading the file", path);
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                free(buf);
                return tio__fail(err, errlen, "%s: read error: %s", path, strerror(e));
            }
            break;
        }
    }
    *out = buf;
    *outlen = len;
    return 0;
}

int tio_load(const char *path, tio_tensor *t, char *err, size_t errlen)
{
    if (t)
        memset(t, 0, sizeof *t);
    if (!t)
        return tio__fail(err, errlen, "tio_load: no tensor given");
    if (tio_check_load_path(path, err, errlen))
        return 1;
    const struct tio__format *fmt = tio__find_format(path);

    FILE *f = fopen(path, "rb");
    if (!f)
        return tio__fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        int e = errno;
        fclose(f);
        return tio__fail(err, errlen, "%s: cannot stat: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        return tio__fail(err, errlen, "%s: is a directory", path);
    }
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc = read_all(path, f, &st, &buf, &len, err, errlen);
    fclose(f);
    if (rc)
        return 1;
    if (strcmp(fmt->name, "npy") == 0) {
        size_t off = 0;
        rc = tio__npy_parse(path, buf, len, t, &off, err, errlen);
        if (!rc) {
            /* Move the data to the front and shrink the buffer to it. */
            memmove(buf, buf + off, t->nbytes);
            unsigned char *data = realloc(buf, t->nbytes ? t->nbytes : 1);
            t->data = data ? data : buf;
            return 0;
        }
    } else {
        rc = tio__decode_image(path, buf, len, TIO_IMAGE_MAX_BYTES, t, err, errlen);
    }
    free(buf);
    if (rc) {
        free(t->data);
        memset(t, 0, sizeof *t);
    }
    return rc;
}

void tio_free(tio_tensor *t)
{
    if (!t)
        return;
    free(t->data);
    memset(t, 0, sizeof *t);
}

static void png_write_cb(void *ctx, void *data, int size)
{
    if (size > 0)
        tio__af_write(ctx, data, (size_t)size);
}

int tio_save(const char *path, const tio_tensor *t, char *err, size_t errlen)
{
    if (!t)
        return tio__fail(err, errlen, "tio_save: no tensor given");
    size_t need;
    if (tio__check_saveable(path, t, &need, err, errlen))
        return 1;

    const char *format = tio_format(path);
    tio__atomic_file af;
    if (tio__af_open(&af, path, err, errlen))
        return 1;

    if (strcmp(format, "npy") == 0) {
        unsigned char hdr[512];
        size_t hn = tio__npy_header(t, hdr, sizeof hdr);
        if (hn == 0) {
            tio__af_abort(&af);
            return tio__fail(err, errlen, "%s: internal error: .npy header too long", path);
        }
        tio__af_write(&af, hdr, hn);
        tio__af_write(&af, t->data, t->nbytes);
    } else {
        int64_t h, w, c;
        tio__image_geometry(t->rank, t->shape, &h, &w, &c);
        if (strcmp(format, "png") == 0) {
            if (!stbi_write_png_to_func(png_write_cb, &af, (int)w, (int)h, (int)c, t->data,
                                        (int)(w * c)) &&
                af.werr == 0) {
                tio__af_abort(&af);
                return tio__fail(err, errlen, "%s: PNG encoding failed (out of memory?)", path);
            }
        } else {
            /* ppm/pgm/pnm: binary P6 (3 channels) or P5 (1 channel), maxval 255. */
            char hdr[96];
            int hn = snprintf(hdr, sizeof hdr, "P%d\n%lld %lld\n255\n", c == 3 ? 6 : 5,
                              (long long)w, (long long)h);
            tio__af_write(&af, hdr, (size_t)hn);
            tio__af_write(&af, t->data, t->nbytes);
        }
    }
    return tio__af_commit(&af, path, err, errlen);
}
