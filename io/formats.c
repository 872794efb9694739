/* The formats tensor_io knows, chosen by file extension, and the checks
 * that a path can be read or a tensor saved in its format. */
#include "io_internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct tio__format formats[] = {
    {"npy", "npy", true, true},    {"png", "png", true, true},
    {"jpg", "jpeg", true, true},   {"jpeg", "jpeg", true, true},
    {"bmp", "bmp", true, false},   {"ppm", "ppm", true, true},
    {"pgm", "pgm", true, true},    {"pnm", "pnm", true, true},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

const char *tio_load_extensions(void)
{
    return ".npy, .png, .jpg, .jpeg, .bmp, .ppm, .pgm, .pnm";
}

const char *tio_save_extensions(void)
{
    return ".npy, .png, .jpg, .jpeg, .ppm, .pgm, .pnm";
}

/* The extension of the last path component ("" when there is none). */
const char *tio__path_ext(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot ? dot + 1 : "";
}

const struct tio__format *tio__find_format(const char *path)
{
    if (!path)
        return NULL;
    const char *ext = tio__path_ext(path);
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcasecmp(ext, formats[i].ext) == 0)
            return &formats[i];
    return NULL;
}

const char *tio_format(const char *path)
{
    const struct tio__format *f = tio__find_format(path);
    return f ? f->name : NULL;
}

bool tio_format_can_load(const char *format)
{
    for (size_t i = 0; format && i < N_FORMATS; i++)
        if (strcmp(format, formats[i].name) == 0)
            return formats[i].load;
    return false;
}

bool tio_format_can_save(const char *format)
{
    for (size_t i = 0; format && i < N_FORMATS; i++)
        if (strcmp(format, formats[i].name) == 0)
            return formats[i].save;
    return false;
}

int tio__unknown_format(const char *path, const char *list, const char *verb, char *err,
                          size_t errlen)
{
    const char *ext = tio__path_ext(path);
    if (!*ext)
        return tio__fail(err, errlen, "%s: no file extension to tell the format; can %s %s", path,
                    verb, list);
    return tio__fail(err, errlen, "%s: unknown file type '.%s'; can %s %s", path, ext, verb, list);
}

int tio_check_load_path(const char *path, char *err, size_t errlen)
{
    if (!path || !*path)
        return tio__fail(err, errlen, "no input file name given");
    const struct tio__format *f = tio__find_format(path);
    if (!f || !f->load)
        return tio__unknown_format(path, tio_load_extensions(), "read", err, errlen);
    return 0;
}

/* Image geometry of a u8 tensor: rank 2 (H, W) means one channel. */
void tio__image_geometry(int rank, const int64_t *shape, int64_t *h, int64_t *w, int64_t *c)
{
    *h = shape[0];
    *w = shape[1];
    *c = rank == 3 ? shape[2] : 1;
}

int tio_check_save(const char *path, clpad_dtype dtype, int rank, const int64_t *shape,
                   char *err, size_t errlen)
{
    if (!path || !*path)
        return tio__fail(err, errlen, "no output file name given");
    const struct tio__format *fmt = tio__find_format(path);
    if (!fmt || !fmt->save) {
        if (fmt)
            return tio__fail(err, errlen, "%s: cannot write %s files; can write %s", path,
                        fmt->name, tio_save_extensions());
        return tio__unknown_format(path, tio_save_extensions(), "write", err, errlen);
    }
    if (rank < 0 || rank > CLPAD_MAX_RANK || (rank > 0 && !shape))
        return tio__fail(err, errlen, "%s: invalid tensor rank %d", path, rank);
    if (!clpad_dtype_name(dtype))
        return tio__fail(err, errlen, "%s: invalid dtype %d", path, (int)dtype);
    for (int i = 0; i < rank; i++)
        if (shape[i] < 0)
            return tio__fail(err, errlen, "%s: invalid shape: dimension %d is %lld", path, i,
                        (long long)shape[i]);

    char sbuf[256];
    if (strcmp(fmt->name, "npy") == 0) {
        if (!tio__npy_descr_of(dtype))
            return tio__fail(err, errlen, "%s: cannot write a %s tensor as .npy: numpy has no %s dtype",
                        path, tio__dtype_name(dtype), tio__dtype_name(dtype));
        return 0;
    }

    /* Image formats: HxW or HxWxC of u8 (PNM: also u16). */
    const char *up, *need;
    bool ok_c1 = false, ok_c3 = false, ok_c24 = false, ok_rank2 = true, ok_u16 = false;
    int64_t max_side = INT_MAX;
    if (strcmp(fmt->name, "png") == 0) {
        up = "PNG";
        need = "a u8 HxWxC tensor with C in 1..4 (or HxW)";
        ok_c1 = ok_c3 = ok_c24 = true;
    } else if (strcmp(fmt->name, "jpeg") == 0) {
        up = "JPEG";
        need = "a u8 HxW, HxWx1 or HxWx3 tensor (JPEG has no alpha channel: use .png)";
        ok_c1 = ok_c3 = true;
        max_side = TIO__JPEG_MAX_SIDE;
    } else if (strcmp(fmt->name, "ppm") == 0) {
        up = "PPM";
        need = "a u8 HxWx3 tensor (or u16)";
        ok_c3 = ok_u16 = true;
        ok_rank2 = false;
    } else if (strcmp(fmt->name, "pgm") == 0) {
        up = "PGM";
        need = "a u8 HxW or HxWx1 tensor (or u16)";
        ok_c1 = ok_u16 = true;
    } else {
        up = "PNM";
        need = "a u8 HxW, HxWx1 or HxWx3 tensor (or u16)";
        ok_c1 = ok_c3 = ok_u16 = true;
    }
    const char *shape_text = tio__shape_str(rank, shape, sbuf, sizeof sbuf);
    if (dtype == CLPAD_U16 && strcmp(fmt->name, "png") == 0)
        return tio__fail(err, errlen,
                         "%s: cannot write a %s u16 tensor as PNG: stb_image_write writes 8-bit "
                         "PNG only; write .npy, or .pgm/.ppm, which keep 16 bits",
                         path, shape_text);
    bool ok = (dtype == CLPAD_U8 || (dtype == CLPAD_U16 && ok_u16)) &&
              (rank == 3 || (rank == 2 && ok_rank2));
    if (ok) {
        int64_t h, w, c;
        tio__image_geometry(rank, shape, &h, &w, &c);
        ok = (c == 1 && ok_c1) || (c == 3 && ok_c3) || ((c == 2 || c == 4) && ok_c24);
        if (ok && (h == 0 || w == 0))
            return tio__fail(err, errlen,
                             "%s: cannot write a %s %s tensor as %s: the image is empty (H or W "
                             "is 0); use .npy",
                             path, shape_text, tio__dtype_name(dtype), up);
        /* stb_image_write takes int sizes and an int row stride, and the PNG
         * encoder's buffers of (W*C + 1) * H bytes are sized in int too;
         * libjpeg takes at most 65500 pixels on a side. */
        bool too_big = ok && (h > max_side || w > max_side || w > INT_MAX / c);
        if (ok && !too_big && strcmp(fmt->name, "png") == 0)
            too_big = h > 0 && (w * c + 1) > (INT_MAX / 2) / h;
        if (too_big)
            return tio__fail(err, errlen,
                             "%s: cannot write a %s %s tensor as %s: the image is too large%s; "
                             "use .npy",
                             path, shape_text, tio__dtype_name(dtype), up,
                             max_side < INT_MAX ? " (JPEG: at most 65500 pixels on a side)" : "");
    }
    if (!ok)
        return tio__fail(err, errlen,
                         "%s: cannot write a %s %s tensor as %s: %s needs %s; use .npy", path,
                         shape_text, tio__dtype_name(dtype), up, up, need);
    return 0;
}

/* What tio_save and tio_save_npy_mem check first: the format takes this
 * dtype and shape, and the data holds exactly the tensor's bytes. */
int tio__check_saveable(const char *name, const tio_tensor *t, size_t *bytes, char *err,
                          size_t errlen)
{
    if (tio_check_save(name, t->dtype, t->rank, t->shape, err, errlen))
        return 1;
    size_t need;
    char sbuf[256];
    if (!tio__shape_bytes(t->rank, t->shape, clpad_dtype_size(t->dtype), &need))
        return tio__fail(err, errlen, "%s: tensor shape %s is too large", name,
                    tio__shape_str(t->rank, t->shape, sbuf, sizeof sbuf));
    if (t->nbytes != need || (need && !t->data))
        return tio__fail(err, errlen, "%s: tensor %s of %s has %zu bytes of data, expected %zu", name,
                    tio__shape_str(t->rank, t->shape, sbuf, sizeof sbuf), tio__dtype_name(t->dtype),
                    t->data ? t->nbytes : 0, need);
    *bytes = need;
    return 0;
}
