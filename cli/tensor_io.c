/*
 * Tensor file I/O for the clpad CLI (see tensor_io.h).
 *
 *  - .npy: versions 1.0/2.0/3.0 read, 1.0 written (2.0 when the header would
 *    not fit in 65535 bytes), byte-compatible with numpy.save. The header is
 *    parsed strictly and checked against the real file size before anything
 *    sized by the declared shape is trusted.
 *  - images: decoded by stb_image into u8 HxWxC tensors; PNG is encoded by
 *    stb_image_write, PPM/PGM/PNM are written here.
 *  - saves go through a temporary file (mkstemp) in the destination directory
 *    that is fsync'ed and renamed over the destination.
 */
#include "tensor_io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <setjmp.h>

#include <jpeglib.h>
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tensor_io.c assumes a little-endian host (npy '<' data is used as is)"
#endif

/* ------------------------------------------------------------------------- */
/* Small helpers                                                             */
/* ------------------------------------------------------------------------- */

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Write the message into err (if any) and return 1. */
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        /* Keep it one line even if a path holds a newline. */
        for (char *p = err; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
    }
    return 1;
}

static const char *dtype_name(clpad_dtype dtype)
{
    const char *name = clpad_dtype_name(dtype);
    return name ? name : "invalid-dtype";
}

/* "[2, 3]" into buf. */
static const char *shape_str(int rank, const int64_t *shape, char *buf, size_t len)
{
    size_t used = 0;
    int n = snprintf(buf, len, "[");
    used = n > 0 ? (size_t)n : 0;
    for (int i = 0; i < rank && used < len; i++) {
        n = snprintf(buf + used, len - used, "%s%lld", i ? ", " : "", (long long)shape[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}

/* Element count and byte size of a shape. A zero dimension makes the tensor
 * empty whatever the other dimensions are (as in numpy). False on overflow. */
static bool shape_bytes(int rank, const int64_t *shape, size_t elem_size, size_t *nbytes)
{
    size_t count = 1;
    for (int i = 0; i < rank; i++)
        if (shape[i] == 0) {
            *nbytes = 0;
            return true;
        }
    for (int i = 0; i < rank; i++) {
        if (shape[i] < 0 || (uint64_t)shape[i] > SIZE_MAX)
            return false;
        if (__builtin_mul_overflow(count, (size_t)shape[i], &count))
            return false;
    }
    return !__builtin_mul_overflow(count, elem_size, nbytes);
}

/* ------------------------------------------------------------------------- */
/* Formats                                                                   */
/* ------------------------------------------------------------------------- */

struct format_entry {
    const char *ext;  /* lower-case extension without the dot */
    const char *name; /* format name returned by tio_format */
    bool load, save;
};

static const struct format_entry formats[] = {
    {"npy", "npy", true, true},    {"png", "png", true, true},
    {"jpg", "jpeg", true, false},  {"jpeg", "jpeg", true, false},
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
    return ".npy, .png, .ppm, .pgm, .pnm";
}

/* The extension of the last path component ("" when there is none). */
static const char *path_ext(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot ? dot + 1 : "";
}

static const struct format_entry *find_format(const char *path)
{
    if (!path)
        return NULL;
    const char *ext = path_ext(path);
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcasecmp(ext, formats[i].ext) == 0)
            return &formats[i];
    return NULL;
}

const char *tio_format(const char *path)
{
    const struct format_entry *f = find_format(path);
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

static int unknown_format(const char *path, const char *list, const char *verb, char *err,
                          size_t errlen)
{
    const char *ext = path_ext(path);
    if (!*ext)
        return fail(err, errlen, "%s: no file extension to tell the format; can %s %s", path,
                    verb, list);
    return fail(err, errlen, "%s: unknown file type '.%s'; can %s %s", path, ext, verb, list);
}

int tio_check_load_path(const char *path, char *err, size_t errlen)
{
    if (!path || !*path)
        return fail(err, errlen, "no input file name given");
    const struct format_entry *f = find_format(path);
    if (!f || !f->load)
        return unknown_format(path, tio_load_extensions(), "read", err, errlen);
    return 0;
}

/* ------------------------------------------------------------------------- */
/* .npy: dtype descriptors                                                   */
/* ------------------------------------------------------------------------- */

#define NPY_SUPPORTED "|b1, |i1, |u1, <i2, <u2, <i4, <u4, <i8, <u8, <f2, <f4, <f8"

/* The descr numpy writes for a dtype; NULL when numpy has none (bf16). */
static const char *npy_descr_of(clpad_dtype dtype)
{
    switch (dtype) {
    case CLPAD_BOOL: return "|b1";
    case CLPAD_I8: return "|i1";
    case CLPAD_U8: return "|u1";
    case CLPAD_I16: return "<i2";
    case CLPAD_U16: return "<u2";
    case CLPAD_I32: return "<i4";
    case CLPAD_U32: return "<u4";
    case CLPAD_I64: return "<i8";
    case CLPAD_U64: return "<u8";
    case CLPAD_F16: return "<f2";
    case CLPAD_F32: return "<f4";
    case CLPAD_F64: return "<f8";
    default: return NULL;
    }
}

/* Map a descr string to a dtype. On failure returns false and sets *why to a
 * short reason. Byte order: '<' or '=' (native, little-endian here) for
 * multi-byte types; any of '<', '>', '|', '=' for 1-byte types, where it has
 * no meaning. */
static bool npy_descr_to_dtype(const char *d, clpad_dtype *out, const char **why)
{
    *why = "not a supported numpy dtype";
    size_t n = strlen(d);
    if (n < 2 || !strchr("<>|=", d[0]))
        return false;
    char order = d[0], kind = d[1];
    const char *digits = d + 2;
    int size = 0;
    if (!*digits || strspn(digits, "0123456789") != strlen(digits) || strlen(digits) > 3)
        size = -1;
    else
        size = atoi(digits);

    switch (kind) {
    case 'c': *why = "complex numbers are not supported"; return false;
    case 'V': *why = "raw void / structured dtypes are not supported"; return false;
    case 'O': *why = "Python object arrays are not supported"; return false;
    case 'U':
    case 'S':
    case 'a': *why = "string arrays are not supported"; return false;
    case 'M':
    case 'm': *why = "datetime / timedelta arrays are not supported"; return false;
    case 'b':
    case 'i':
    case 'u':
    case 'f': break;
    default: return false;
    }

    static const struct {
        char kind;
        int size;
        clpad_dtype dtype;
    } table[] = {
        {'b', 1, CLPAD_BOOL}, {'i', 1, CLPAD_I8},  {'u', 1, CLPAD_U8},
        {'i', 2, CLPAD_I16},  {'u', 2, CLPAD_U16}, {'i', 4, CLPAD_I32},
        {'u', 4, CLPAD_U32},  {'i', 8, CLPAD_I64}, {'u', 8, CLPAD_U64},
        {'f', 2, CLPAD_F16},  {'f', 4, CLPAD_F32}, {'f', 8, CLPAD_F64},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].kind != kind || table[i].size != size)
            continue;
        if (size > 1 && order == '>') {
            *why = "big-endian data is not supported";
            return false;
        }
        if (size > 1 && order == '|') {
            *why = "'|' (no byte order) is not valid for a multi-byte type";
            return false;
        }
        *out = table[i].dtype;
        return true;
    }
    *why = kind == 'f' ? "this float width is not supported" : "this element size is not supported";
    return false;
}

/* ------------------------------------------------------------------------- */
/* .npy: header parsing                                                      */
/* ------------------------------------------------------------------------- */

/* The header is a Python dict literal such as
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * followed by spaces and '\n'. We accept what Python's literal syntax allows
 * for these three keys (either quote style, any key order, optional trailing
 * commas, free whitespace) and nothing else. */
typedef struct hparser {
    const char *s;
    size_t n, i;
    const char *path;
    char *err;
    size_t errlen;
} hparser;

static void hp_ws(hparser *p)
{
    while (p->i < p->n && strchr(" \t\r\n\f\v", p->s[p->i]) && p->s[p->i] != '\0')
        p->i++;
}

static int hp_peek(const hparser *p)
{
    return p->i < p->n ? (unsigned char)p->s[p->i] : -1;
}

static int hp_malformed(hparser *p, const char *what)
{
    return fail(p->err, p->errlen, "%s: malformed .npy header: %s at header byte %zu", p->path,
                what, p->i);
}

/* A quoted string without escapes, into out (truncated to cap-1). */
static int hp_string(hparser *p, char *out, size_t cap, const char *what)
{
    int q = hp_peek(p);
    if (q != '\'' && q != '"') {
        char msg[96];
        snprintf(msg, sizeof msg, "expected a quoted string for %s", what);
        return hp_malformed(p, msg);
    }
    p->i++;
    size_t len = 0;
    for (;;) {
        int c = hp_peek(p);
        if (c < 0 || c == '\n')
            return hp_malformed(p, "unterminated string");
        if (c == '\\')
            return hp_malformed(p, "escape sequences in strings are not supported");
        p->i++;
        if (c == q)
            break;
        if (len + 1 < cap)
            out[len++] = (char)c;
    }
    out[len] = '\0';
    return 0;
}

/* A bare word (True, False, an integer token...) into out. */
static size_t hp_word(hparser *p, char *out, size_t cap)
{
    size_t len = 0;
    while (p->i < p->n) {
        char c = p->s[p->i];
        bool word = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    c == '_' || c == '.' || c == '-' || c == '+';
        if (!word)
            break;
        if (len + 1 < cap)
            out[len] = c;
        len++;
        p->i++;
    }
    out[len < cap ? len : cap - 1] = '\0';
    return len;
}

/* shape: a tuple of non-negative integers, rank <= CLPAD_MAX_RANK. */
static int hp_shape(hparser *p, int *rank, int64_t *shape)
{
    if (hp_peek(p) == '[')
        return fail(p->err, p->errlen, "%s: bad .npy header: 'shape' must be a tuple, not a list",
                    p->path);
    if (hp_peek(p) != '(')
        return hp_malformed(p, "expected a tuple for 'shape'");
    p->i++;
    hp_ws(p);
    int n = 0, commas = 0;
    if (hp_peek(p) == ')') {
        p->i++;
        *rank = 0;
        return 0;
    }
    for (;;) {
        char tok[40];
        size_t start = p->i;
        size_t len = hp_word(p, tok, sizeof tok);
        if (len == 0)
            return hp_malformed(p, "expected an integer in 'shape'");
        if (len >= sizeof tok)
            snprintf(tok + sizeof tok - 4, 4, "...");
        size_t digits = strspn(tok, "0123456789");
        bool python2_long = digits > 0 && len == digits + 1 && (tok[digits] == 'L' || tok[digits] == 'l');
        if (tok[0] == '-' && len > 1 && strspn(tok + 1, "0123456789") == len - 1)
            return fail(p->err, p->errlen, "%s: bad .npy header: shape entry %s is negative",
                        p->path, tok);
        if (digits == 0 || (digits != len && !python2_long))
            return fail(p->err, p->errlen,
                        "%s: bad .npy header: shape entry '%s' is not a non-negative integer",
                        p->path, tok);
        int64_t v = 0;
        for (size_t k = 0; k < digits; k++) {
            int d = p->s[start + k] - '0';
            if (v > (INT64_MAX - d) / 10)
                return fail(p->err, p->errlen, "%s: bad .npy header: shape entry %s is too large",
                            p->path, tok);
            v = v * 10 + d;
        }
        if (n >= CLPAD_MAX_RANK)
            return fail(p->err, p->errlen,
                        "%s: .npy shape has more than %d dimensions; clpad supports ranks 0..%d",
                        p->path, CLPAD_MAX_RANK, CLPAD_MAX_RANK);
        shape[n++] = v;
        hp_ws(p);
        int c = hp_peek(p);
        if (c == ',') {
            commas++;
            p->i++;
            hp_ws(p);
            if (hp_peek(p) == ')') {
                p->i++;
                break;
            }
            continue;
        }
        if (c == ')') {
            p->i++;
            break;
        }
        return hp_malformed(p, "expected ',' or ')' in 'shape'");
    }
    if (n == 1 && commas == 0)
        return fail(p->err, p->errlen,
                    "%s: bad .npy header: 'shape' is (%lld), an integer, not a tuple (numpy "
                    "writes (%lld,))",
                    p->path, (long long)shape[0], (long long)shape[0]);
    *rank = n;
    return 0;
}

/* Parse the whole header text; fills dtype, rank and shape of t. */
static int npy_parse_header(const char *path, const char *text, size_t len, cli_tensor *t,
                            char *err, size_t errlen)
{
    hparser p = {text, len, 0, path, err, errlen};
    char descr[64] = "";
    bool have_descr = false, have_fortran = false, have_shape = false, fortran = false;

    if (memchr(text, '\0', len))
        return fail(err, errlen, "%s: malformed .npy header: it contains a NUL byte", path);
    hp_ws(&p);
    if (hp_peek(&p) != '{')
        return hp_malformed(&p, "expected '{'");
    p.i++;
    hp_ws(&p);
    while (hp_peek(&p) != '}') {
        char key[32];
        if (hp_string(&p, key, sizeof key, "a key"))
            return 1;
        hp_ws(&p);
        if (hp_peek(&p) != ':')
            return hp_malformed(&p, "expected ':' after a key");
        p.i++;
        hp_ws(&p);
        if (strcmp(key, "descr") == 0) {
            if (have_descr)
                return fail(err, errlen, "%s: bad .npy header: duplicate key 'descr'", path);
            have_descr = true;
            if (hp_peek(&p) == '[')
                return fail(err, errlen,
                            "%s: unsupported .npy dtype: structured arrays (a list 'descr') are "
                            "not supported",
                            path);
            if (hp_string(&p, descr, sizeof descr, "'descr'"))
                return 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (have_fortran)
                return fail(err, errlen, "%s: bad .npy header: duplicate key 'fortran_order'",
                            path);
            have_fortran = true;
            char word[16];
            hp_word(&p, word, sizeof word);
            if (strcmp(word, "True") == 0)
                fortran = true;
            else if (strcmp(word, "False") == 0)
                fortran = false;
            else
                return fail(err, errlen,
                            "%s: bad .npy header: 'fortran_order' must be True or False", path);
        } else if (strcmp(key, "shape") == 0) {
            if (have_shape)
                return fail(err, errlen, "%s: bad .npy header: duplicate key 'shape'", path);
            have_shape = true;
            if (hp_shape(&p, &t->rank, t->shape))
                return 1;
        } else {
            return fail(err, errlen,
                        "%s: bad .npy header: unexpected key '%s' (expected 'descr', "
                        "'fortran_order' and 'shape')",
                        path, key);
        }
        hp_ws(&p);
        if (hp_peek(&p) == ',') {
            p.i++;
            hp_ws(&p);
        } else if (hp_peek(&p) != '}') {
            return hp_malformed(&p, "expected ',' or '}' after a value");
        }
    }
    p.i++; /* '}' */
    hp_ws(&p);
    if (p.i != p.n)
        return hp_malformed(&p, "unexpected text after the dict");

    const char *missing = !have_descr ? "descr" : !have_fortran ? "fortran_order"
                          : !have_shape ? "shape" : NULL;
    if (missing)
        return fail(err, errlen, "%s: bad .npy header: missing key '%s'", path, missing);

    const char *why;
    if (!npy_descr_to_dtype(descr, &t->dtype, &why))
        return fail(err, errlen, "%s: unsupported .npy dtype '%s' (%s); supported: " NPY_SUPPORTED,
                    path, descr, why);
    if (fortran)
        return fail(err, errlen,
                    "%s: Fortran-order .npy arrays are not supported; save a C-order array "
                    "(np.ascontiguousarray)",
                    path);
    return 0;
}

static uint32_t le16(const unsigned char *b) { return (uint32_t)b[0] | (uint32_t)b[1] << 8; }
static uint32_t le32(const unsigned char *b)
{
    return le16(b) | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* Parse a whole .npy file held in buf[0..len). On success fills t (data left
 * NULL) and *data_off. */
static int npy_parse(const char *path, const unsigned char *buf, size_t len, cli_tensor *t,
                     size_t *data_off, char *err, size_t errlen)
{
    size_t m = len < sizeof npy_magic ? len : sizeof npy_magic;
    if (memcmp(buf, npy_magic, m) != 0)
        return fail(err, errlen, "%s: not a .npy file (bad magic)", path);
    if (len < 8)
        return fail(err, errlen, "%s: truncated .npy file (%zu bytes)", path, len);
    unsigned major = buf[6], minor = buf[7];
    if (major < 1 || major > 3 || minor != 0)
        return fail(err, errlen, "%s: unsupported .npy format version %u.%u (supported: 1.0, 2.0, 3.0)",
                    path, major, minor);
    size_t prefix = major == 1 ? 10 : 12;
    if (len < prefix)
        return fail(err, errlen, "%s: truncated .npy header (%zu bytes)", path, len);
    size_t hlen = major == 1 ? le16(buf + 8) : le32(buf + 8);
    if (hlen > len - prefix)
        return fail(err, errlen,
                    "%s: .npy header length %zu goes beyond the end of the file (%zu bytes)", path,
                    hlen, len);
    if (npy_parse_header(path, (const char *)buf + prefix, hlen, t, err, errlen))
        return 1;

    char sbuf[256];
    size_t need;
    if (!shape_bytes(t->rank, t->shape, clpad_dtype_size(t->dtype), &need))
        return fail(err, errlen, "%s: .npy shape %s of %s is too large (size overflows)", path,
                    shape_str(t->rank, t->shape, sbuf, sizeof sbuf), dtype_name(t->dtype));
    size_t have = len - prefix - hlen;
    if (have < need)
        return fail(err, errlen,
                    "%s: .npy data is truncated: shape %s of %s needs %zu bytes, the file holds %zu",
                    path, shape_str(t->rank, t->shape, sbuf, sizeof sbuf), dtype_name(t->dtype),
                    need, have);
    if (have > need)
        return fail(err, errlen,
                    "%s: .npy file has %zu trailing bytes after the data (shape %s of %s needs %zu "
                    "bytes)",
                    path, have - need, shape_str(t->rank, t->shape, sbuf, sizeof sbuf),
                    dtype_name(t->dtype), need);
    t->nbytes = need;
    *data_off = prefix + hlen;
    return 0;
}

/* Read a whole stream. The buffer only ever grows with bytes actually read. */
static int read_all(const char *path, FILE *f, const struct stat *st, unsigned char **out,
                    size_t *outlen, char *err, size_t errlen)
{
    size_t cap = 65536;
    if (S_ISREG(st->st_mode) && st->st_size >= 0 && (uint64_t)st->st_size < SIZE_MAX - 1)
        cap = (size_t)st->st_size + 1; /* +1 to see EOF without growing */
    unsigned char *buf = malloc(cap);
    if (!buf)
        return fail(err, errlen, "%s: out of memory reading %zu bytes", path, cap);
    size_t len = 0;
    for (;;) {
        if (len == cap) {
            size_t ncap;
            if (__builtin_mul_overflow(cap, (size_t)2, &ncap)) {
                free(buf);
                return fail(err, errlen, "%s: file too large", path);
            }
            unsigned char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                return fail(err, errlen, "%s: out of memory reading the file", path);
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
                return fail(err, errlen, "%s: read error: %s", path, strerror(e));
            }
            break;
        }
    }
    *out = buf;
    *outlen = len;
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Images in                                                                 */
/* ------------------------------------------------------------------------- */

/* The image formats tensor_io reads, recognized by their signature. stb_image
 * also decodes GIF, PSD, TGA, HDR and PIC, and tries every decoder in turn
 * (TGA has no signature, so a corrupt file can come out as a "TGA" image);
 * only these four are ever handed to it. */
enum image_kind { IMG_NONE, IMG_PNG, IMG_JPEG, IMG_BMP, IMG_PNM };

static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/* The kind of image in buf, or IMG_NONE with *why naming what it is instead. */
static enum image_kind image_kind_of(const unsigned char *b, size_t n, const char **why)
{
    *why = "not a PNG, JPEG, BMP or binary PNM (P5/P6) image (unrecognized signature)";
    if (n >= 8 && memcmp(b, png_signature, 8) == 0)
        return IMG_PNG;
    if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff)
        return IMG_JPEG;
    if (n >= 2 && b[0] == 'B' && b[1] == 'M')
        return IMG_BMP;
    if (n >= 2 && b[0] == 'P' && (b[1] == '5' || b[1] == '6'))
        return IMG_PNM;
    if (n == 0)
        *why = "the file is empty";
    else if (n >= 2 && b[0] == 'P' && b[1] >= '1' && b[1] <= '7')
        *why = "only binary PNM (P5 greymap, P6 pixmap) is supported, not ASCII (P1-P3), "
               "bitmap (P4) or PAM (P7)";
    else if (n >= 4 && memcmp(b, "GIF8", 4) == 0)
        *why = "GIF images are not supported";
    else if (n >= 4 && memcmp(b, "8BPS", 4) == 0)
        *why = "PSD images are not supported";
    else if (n >= 2 && b[0] == '#' && b[1] == '?')
        *why = "Radiance HDR images are not supported";
    else if (n >= 12 && memcmp(b, "RIFF", 4) == 0 && memcmp(b + 8, "WEBP", 4) == 0)
        *why = "WebP images are not supported";
    else if (n >= 4 && (memcmp(b, "II*\0", 4) == 0 || memcmp(b, "MM\0*", 4) == 0))
        *why = "TIFF images are not supported";
    else if (n >= 6 && memcmp(b, npy_magic, 6) == 0)
        *why = "this is a .npy file; name it .npy";
    return IMG_NONE;
}

/* Whether a PNG of colour type 0 (grey) or 2 (RGB) has a tRNS chunk before
 * its image data: stb_image then decodes it with an extra alpha channel that
 * stbi_info does not count, so the alpha must be asked for. */
static bool png_has_transparency_key(const unsigned char *b, size_t n)
{
    size_t i = 8;
    while (n >= 12 && i <= n - 12) {
        uint32_t len = (uint32_t)b[i] << 24 | (uint32_t)b[i + 1] << 16 |
                       (uint32_t)b[i + 2] << 8 | (uint32_t)b[i + 3];
        const unsigned char *type = b + i + 4;
        if (memcmp(type, "tRNS", 4) == 0)
            return true;
        if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0)
            return false;
        if (len > n - i - 12)
            return false;
        i += 12 + (size_t)len;
    }
    return false;
}

/* Every chunk up to IEND must fit in the file. stb_image (2.27) grows its
 * IDAT buffer to the length a chunk declares before reading it, so a 4 KiB
 * file declaring a 1 GiB chunk made it allocate 2 GiB (found by fuzz_image). */
static int png_check_chunks(const char *name, const unsigned char *b, size_t n, char *err,
                            size_t errlen)
{
    size_t i = 8;
    while (n >= 12 && i <= n - 12) {
        uint32_t len = (uint32_t)b[i] << 24 | (uint32_t)b[i + 1] << 16 |
                       (uint32_t)b[i + 2] << 8 | (uint32_t)b[i + 3];
        if (len > n - i - 12)
            return fail(err, errlen,
                        "%s: cannot decode the image: truncated PNG (a chunk at byte %zu declares "
                        "%u bytes, %zu remain)",
                        name, i, (unsigned)len, n - i - 12);
        if (memcmp(b + i + 4, "IEND", 4) == 0)
            return 0;
        i += 12 + (size_t)len;
    }
    return fail(err, errlen, "%s: cannot decode the image: truncated PNG (no IEND chunk)", name);
}

/* Largest width or height accepted (stb_image's own STBI_MAX_DIMENSIONS). */
#define IMAGE_MAX_DIM (1 << 24)

/* The decoded size of a w x h x c u8 image, checked against max_bytes. */
static int image_size(const char *name, long long w, long long h, long long c, size_t max_bytes,
                      size_t *bytes, char *err, size_t errlen)
{
    if (w < 1 || h < 1)
        return fail(err, errlen, "%s: cannot decode the image: it is empty (%lldx%lld)", name, w,
                    h);
    if (w > IMAGE_MAX_DIM || h > IMAGE_MAX_DIM)
        return fail(err, errlen,
                    "%s: cannot decode the image: %lldx%lld is larger than %d pixels on a side",
                    name, w, h, IMAGE_MAX_DIM);
    /* w, h <= 2^24 and c <= 4: the product fits in 64 bits. */
    unsigned long long n = (unsigned long long)w * (unsigned long long)h * (unsigned long long)c;
    if (n > max_bytes || n > SIZE_MAX)
        return fail(err, errlen,
                    "%s: the image is %lldx%lld with %lld channel%s (%llu bytes decoded), more "
                    "than the limit of %zu bytes",
                    name, w, h, c, c == 1 ? "" : "s", n, max_bytes);
    *bytes = (size_t)n;
    return 0;
}

/* Read one unsigned decimal PNM header field after whitespace and '#'
 * comments (a comment ends at '\n' or '\r', as in stb_image). Returns -1 when
 * there is no number, -2 when it exceeds `limit`. */
static long long pnm_field(const unsigned char *b, size_t n, size_t *i, long long limit)
{
    for (;;) {
        while (*i < n && strchr(" \t\r\n\v\f", b[*i]) && b[*i])
            (*i)++;
        if (*i < n && b[*i] == '#') {
            while (*i < n && b[*i] != '\n' && b[*i] != '\r')
                (*i)++;
            continue;
        }
        break;
    }
    long long v = 0;
    size_t start = *i;
    bool big = false;
    while (*i < n && b[*i] >= '0' && b[*i] <= '9') {
        if (!big) {
            v = v * 10 + (b[*i] - '0');
            big = v > limit;
        }
        (*i)++;
    }
    return *i == start ? -1 : big ? -2 : v;
}

/* Binary PNM (P5, P6), decoded here: stb_image 2.27 accepts a width or height
 * that wraps around int ("4294967297" reads as 1), a maxval of 0, reads
 * 16-bit samples in the wrong byte order and leaves a short file's missing
 * pixels uninitialized. Samples are kept as stored (no scaling by maxval,
 * as stb_image does); 16-bit samples keep their high byte. */
static int decode_pnm(const char *name, const unsigned char *b, size_t n, size_t max_bytes,
                      cli_tensor *t, char *err, size_t errlen)
{
    long long c = b[1] == '6' ? 3 : 1;
    size_t i = 2;
    long long w = pnm_field(b, n, &i, IMAGE_MAX_DIM);
    long long h = w >= 0 ? pnm_field(b, n, &i, IMAGE_MAX_DIM) : -1;
    long long maxval = h >= 0 ? pnm_field(b, n, &i, 65535) : -1;
    if (w == -2 || h == -2)
        return fail(err, errlen,
                    "%s: cannot decode the image: PNM width or height larger than %d", name,
                    IMAGE_MAX_DIM);
    if (maxval == -2)
        return fail(err, errlen, "%s: cannot decode the image: PNM maxval larger than 65535",
                    name);
    if (w < 0 || h < 0 || maxval < 0)
        return fail(err, errlen,
                    "%s: cannot decode the image: malformed PNM header (expected width, height "
                    "and maxval)",
                    name);
    if (maxval == 0)
        return fail(err, errlen, "%s: cannot decode the image: PNM maxval is 0", name);
    if (i >= n || !strchr(" \t\r\n\v\f", b[i]) || !b[i])
        return fail(err, errlen,
                    "%s: cannot decode the image: PNM maxval must be followed by one "
                    "whitespace byte and the pixel data",
                    name);
    size_t header = i + 1, bytes;
    if (image_size(name, w, h, c, max_bytes, &bytes, err, errlen))
        return 1;
    size_t sample = maxval > 255 ? 2 : 1, need = bytes * sample, have = n - header;
    if (have < need)
        return fail(err, errlen,
                    "%s: PNM data is truncated: a %lldx%lld image needs %zu bytes, the file "
                    "holds %zu",
                    name, w, h, need, have);
    unsigned char *px = malloc(bytes);
    if (!px)
        return fail(err, errlen, "%s: out of memory (%zu bytes)", name, bytes);
    if (sample == 1)
        memcpy(px, b + header, bytes);
    else
        for (size_t k = 0; k < bytes; k++)
            px[k] = b[header + 2 * k]; /* big-endian: the high byte */
    t->dtype = CLPAD_U8;
    t->rank = 3;
    t->shape[0] = h;
    t->shape[1] = w;
    t->shape[2] = c;
    t->is_image = true;
    t->nbytes = bytes;
    t->data = px;
    return 0;
}

/* JPEG goes to libjpeg-turbo, not stb_image: stb's JPEG decoder (Debian's
 * 2022 snapshot) reads uninitialised Huffman tables when a scan names a table
 * no DHT segment defined, and reads far out of bounds (found by fuzz_image;
 * upstream nothings/stb#1289, #1297). libjpeg's errors longjmp back here; its
 * warnings (corrupt data it would paper over) are errors too. */
struct jpeg_failure {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void jpeg_fail_exit(j_common_ptr c)
{
    struct jpeg_failure *f = (struct jpeg_failure *)c->err;
    f->mgr.format_message(c, f->message);
    longjmp(f->jump, 1);
}

static void jpeg_fail_message(j_common_ptr c, int level)
{
    if (level < 0) /* a warning: the data is corrupt */
        jpeg_fail_exit(c);
}

static int decode_jpeg(const char *name, const unsigned char *b, size_t n, size_t max_bytes,
                       cli_tensor *t, char *err, size_t errlen)
{
    struct jpeg_decompress_struct cinfo;
    struct jpeg_failure jerr;
    unsigned char *volatile px = NULL;
    cinfo.err = jpeg_std_error(&jerr.mgr);
    jerr.mgr.error_exit = jpeg_fail_exit;
    jerr.mgr.emit_message = jpeg_fail_message;
    if (setjmp(jerr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(px);
        return fail(err, errlen, "%s: cannot decode the image: %s", name, jerr.message);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, b, (unsigned long)n);
    jpeg_read_header(&cinfo, TRUE);
    /* Grey stays grey; YCbCr and RGB come out as RGB; CMYK and YCCK as CMYK,
     * turned into RGB below (Adobe's inverted CMYK, as stb_image did). */
    bool cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cinfo.num_components == 1 ? JCS_GRAYSCALE : cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_calc_output_dimensions(&cinfo);
    int c = cinfo.out_color_space == JCS_GRAYSCALE ? 1 : 3;
    size_t bytes;
    if (image_size(name, (int)cinfo.output_width, (int)cinfo.output_height, c, max_bytes, &bytes,
                   err, errlen)) {
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    size_t row = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    px = malloc(cmyk ? row * cinfo.output_height : bytes);
    if (!px) {
        jpeg_destroy_decompress(&cinfo);
        return fail(err, errlen, "%s: out of memory (%zu bytes)", name, bytes);
    }
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW r = px + (size_t)cinfo.output_scanline * row;
        jpeg_read_scanlines(&cinfo, &r, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    if (cmyk) { /* inverted CMYK: R = C * K / 255, ... in place, 4 -> 3 bytes */
        size_t pixels = (size_t)cinfo.output_width * cinfo.output_height;
        for (size_t i = 0; i < pixels; i++)
            for (int k = 0; k < 3; k++)
                px[3 * i + k] = (unsigned char)((px[4 * i + k] * px[4 * i + 3] + 127) / 255);
    }
    t->data = px;
    t->dtype = CLPAD_U8;
    t->rank = 3;
    t->shape[0] = cinfo.output_height;
    t->shape[1] = cinfo.output_width;
    t->shape[2] = c;
    t->is_image = true;
    t->nbytes = bytes;
    return 0;
}

/* Decode an image held in memory into t (zeroed by the caller). */
static int decode_image(const char *name, const unsigned char *b, size_t n, size_t max_bytes,
                        cli_tensor *t, char *err, size_t errlen)
{
    const char *why;
    enum image_kind kind = image_kind_of(b, n, &why);
    if (kind == IMG_NONE)
        return fail(err, errlen, "%s: cannot decode the image: %s", name, why);
    if (kind == IMG_PNM)
        return decode_pnm(name, b, n, max_bytes, t, err, errlen);
    if (kind == IMG_JPEG)
        return decode_jpeg(name, b, n, max_bytes, t, err, errlen);
    if (kind == IMG_PNG && png_check_chunks(name, b, n, err, errlen))
        return 1;
    if (n > INT_MAX) /* stb_image takes an int length */
        return fail(err, errlen, "%s: cannot decode the image: the file is larger than %d bytes",
                    name, INT_MAX);
    /* The geometry first, so that a small file declaring a huge image is
     * refused before anything is allocated. */
    int w = 0, h = 0, c = 0;
    if (!stbi_info_from_memory(b, (int)n, &w, &h, &c)) {
        const char *reason = stbi_failure_reason();
        return fail(err, errlen, "%s: cannot decode the image: %s", name,
                    reason ? reason : "unknown error");
    }
    if (c < 1 || c > 4)
        return fail(err, errlen, "%s: cannot decode the image: %d channels", name, c);
    if (kind == IMG_PNG && (c == 1 || c == 3) && png_has_transparency_key(b, n))
        c++; /* grey or RGB with a tRNS colour key: decoded with alpha */
    size_t bytes;
    if (image_size(name, w, h, c, max_bytes, &bytes, err, errlen))
        return 1;
    int w2 = 0, h2 = 0, file_c = 0;
    unsigned char *px = stbi_load_from_memory(b, (int)n, &w2, &h2, &file_c, c);
    if (!px) {
        const char *reason = stbi_failure_reason();
        return fail(err, errlen, "%s: cannot decode the image: %s", name,
                    reason ? reason : "unknown error");
    }
    if (w2 != w || h2 != h) {
        stbi_image_free(px);
        return fail(err, errlen,
                    "%s: cannot decode the image: its header says %dx%d, the decoder %dx%d",
                    name, w, h, w2, h2);
    }
    /* Copy into our own malloc'd block so that tio_free's free() is always right. */
    t->data = malloc(bytes);
    if (!t->data) {
        stbi_image_free(px);
        return fail(err, errlen, "%s: out of memory (%zu bytes)", name, bytes);
    }
    memcpy(t->data, px, bytes);
    stbi_image_free(px);
    t->dtype = CLPAD_U8;
    t->rank = 3;
    t->shape[0] = h;
    t->shape[1] = w;
    t->shape[2] = c;
    t->is_image = true;
    t->nbytes = bytes;
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Load                                                                      */
/* ------------------------------------------------------------------------- */

static const unsigned char empty_buffer[1];

int tio_load_npy_mem(const void *data, size_t len, const char *name, cli_tensor *t, char *err,
                     size_t errlen)
{
    if (t)
        memset(t, 0, sizeof *t);
    if (!name || !*name)
        name = "<memory>";
    if (!t)
        return fail(err, errlen, "%s: no tensor given", name);
    if (!data && len)
        return fail(err, errlen, "%s: no data given (NULL with %zu bytes)", name, len);
    const unsigned char *b = data ? data : empty_buffer;
    size_t off = 0;
    if (npy_parse(name, b, len, t, &off, err, errlen)) {
        memset(t, 0, sizeof *t);
        return 1;
    }
    t->data = malloc(t->nbytes ? t->nbytes : 1);
    if (!t->data) {
        size_t nb = t->nbytes;
        memset(t, 0, sizeof *t);
        return fail(err, errlen, "%s: out of memory (%zu bytes)", name, nb);
    }
    if (t->nbytes)
        memcpy(t->data, b + off, t->nbytes);
    return 0;
}

int tio_load_image_mem(const void *data, size_t len, const char *name, size_t max_bytes,
                       cli_tensor *t, char *err, size_t errlen)
{
    if (t)
        memset(t, 0, sizeof *t);
    if (!name || !*name)
        name = "<memory>";
    if (!t)
        return fail(err, errlen, "%s: no tensor given", name);
    if (!data && len)
        return fail(err, errlen, "%s: no data given (NULL with %zu bytes)", name, len);
    int rc = decode_image(name, data ? data : empty_buffer, len, max_bytes, t, err, errlen);
    if (rc) {
        free(t->data);
        memset(t, 0, sizeof *t);
    }
    return rc;
}

int tio_load(const char *path, cli_tensor *t, char *err, size_t errlen)
{
    if (t)
        memset(t, 0, sizeof *t);
    if (!t)
        return fail(err, errlen, "tio_load: no tensor given");
    if (tio_check_load_path(path, err, errlen))
        return 1;
    const struct format_entry *fmt = find_format(path);

    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0) {
        int e = errno;
        fclose(f);
        return fail(err, errlen, "%s: cannot stat: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        return fail(err, errlen, "%s: is a directory", path);
    }
    unsigned char *buf = NULL;
    size_t len = 0;
    int rc = read_all(path, f, &st, &buf, &len, err, errlen);
    fclose(f);
    if (rc)
        return 1;
    if (strcmp(fmt->name, "npy") == 0) {
        size_t off = 0;
        rc = npy_parse(path, buf, len, t, &off, err, errlen);
        if (!rc) {
            /* Move the data to the front and shrink the buffer to it. */
            memmove(buf, buf + off, t->nbytes);
            unsigned char *data = realloc(buf, t->nbytes ? t->nbytes : 1);
            t->data = data ? data : buf;
            return 0;
        }
    } else {
        rc = decode_image(path, buf, len, TIO_IMAGE_MAX_BYTES, t, err, errlen);
    }
    free(buf);
    if (rc) {
        free(t->data);
        memset(t, 0, sizeof *t);
    }
    return rc;
}

void tio_free(cli_tensor *t)
{
    if (!t)
        return;
    free(t->data);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------------- */
/* Save: checks                                                              */
/* ------------------------------------------------------------------------- */

/* Image geometry of a u8 tensor: rank 2 (H, W) means one channel. */
static void image_geometry(int rank, const int64_t *shape, int64_t *h, int64_t *w, int64_t *c)
{
    *h = shape[0];
    *w = shape[1];
    *c = rank == 3 ? shape[2] : 1;
}

int tio_check_save(const char *path, clpad_dtype dtype, int rank, const int64_t *shape,
                   char *err, size_t errlen)
{
    if (!path || !*path)
        return fail(err, errlen, "no output file name given");
    const struct format_entry *fmt = find_format(path);
    if (!fmt || !fmt->save) {
        if (fmt)
            return fail(err, errlen, "%s: cannot write %s files; can write %s", path,
                        fmt->name, tio_save_extensions());
        return unknown_format(path, tio_save_extensions(), "write", err, errlen);
    }
    if (rank < 0 || rank > CLPAD_MAX_RANK || (rank > 0 && !shape))
        return fail(err, errlen, "%s: invalid tensor rank %d", path, rank);
    if (!clpad_dtype_name(dtype))
        return fail(err, errlen, "%s: invalid dtype %d", path, (int)dtype);
    for (int i = 0; i < rank; i++)
        if (shape[i] < 0)
            return fail(err, errlen, "%s: invalid shape: dimension %d is %lld", path, i,
                        (long long)shape[i]);

    char sbuf[256];
    if (strcmp(fmt->name, "npy") == 0) {
        if (!npy_descr_of(dtype))
            return fail(err, errlen, "%s: cannot write a %s tensor as .npy: numpy has no %s dtype",
                        path, dtype_name(dtype), dtype_name(dtype));
        return 0;
    }

    /* Image formats: u8 only, HxW or HxWxC. */
    const char *up, *need;
    bool ok_c1 = false, ok_c3 = false, ok_c24 = false, ok_rank2 = true;
    if (strcmp(fmt->name, "png") == 0) {
        up = "PNG";
        need = "a u8 HxWxC tensor with C in 1..4 (or HxW)";
        ok_c1 = ok_c3 = ok_c24 = true;
    } else if (strcmp(fmt->name, "ppm") == 0) {
        up = "PPM";
        need = "a u8 HxWx3 tensor";
        ok_c3 = true;
        ok_rank2 = false;
    } else if (strcmp(fmt->name, "pgm") == 0) {
        up = "PGM";
        need = "a u8 HxW or HxWx1 tensor";
        ok_c1 = true;
    } else {
        up = "PNM";
        need = "a u8 HxW, HxWx1 or HxWx3 tensor";
        ok_c1 = ok_c3 = true;
    }
    bool ok = dtype == CLPAD_U8 && (rank == 3 || (rank == 2 && ok_rank2));
    if (ok) {
        int64_t h, w, c;
        image_geometry(rank, shape, &h, &w, &c);
        ok = (c == 1 && ok_c1) || (c == 3 && ok_c3) || ((c == 2 || c == 4) && ok_c24);
        if (ok && (h == 0 || w == 0))
            return fail(err, errlen,
                        "%s: cannot write a %s %s tensor as %s: the image is empty (H or W is "
                        "0); use .npy",
                        path, shape_str(rank, shape, sbuf, sizeof sbuf), dtype_name(dtype), up);
        /* stb_image_write takes int sizes and an int row stride, and the PNG
         * encoder's buffers of (W*C + 1) * H bytes are sized in int too. */
        bool too_big = ok && (h > INT_MAX || w > INT_MAX / c);
        if (ok && !too_big && strcmp(fmt->name, "png") == 0)
            too_big = h > 0 && (w * c + 1) > (INT_MAX / 2) / h;
        if (too_big)
            return fail(err, errlen, "%s: cannot write a %s %s tensor as %s: the image is too "
                        "large; use .npy",
                        path, shape_str(rank, shape, sbuf, sizeof sbuf), dtype_name(dtype), up);
    }
    if (!ok)
        return fail(err, errlen, "%s: cannot write a %s %s tensor as %s: %s needs %s; use .npy",
                    path, shape_str(rank, shape, sbuf, sizeof sbuf), dtype_name(dtype), up, up,
                    need);
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Save: atomic file                                                         */
/* ------------------------------------------------------------------------- */

typedef struct atomic_file {
    char *tmp;   /* temporary path (malloc'd) */
    int fd;
    int werr;    /* first write errno, 0 if none */
} atomic_file;

static mode_t current_umask(void)
{
    /* POSIX has no way to read the umask without setting it. */
    mode_t m = umask(0);
    umask(m);
    return m;
}

/* Create "<dir>/.<base>.XXXXXX" next to path. */
static int af_open(atomic_file *af, const char *path, char *err, size_t errlen)
{
    af->fd = -1;
    af->werr = 0;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    size_t baselen = strlen(base);
    if (baselen > 100) /* keep the temporary name within NAME_MAX */
        baselen = 100;
    size_t cap = dirlen + 1 + baselen + 8 + 1;
    af->tmp = malloc(cap);
    if (!af->tmp)
        return fail(err, errlen, "%s: out of memory", path);
    snprintf(af->tmp, cap, "%.*s.%.*s.XXXXXX", (int)dirlen, path, (int)baselen, base);
    af->fd = mkstemp(af->tmp);
    if (af->fd < 0) {
        int e = errno;
        free(af->tmp);
        af->tmp = NULL;
        if (dirlen)
            return fail(err, errlen, "%s: cannot create a file in directory '%.*s': %s", path,
                        (int)dirlen, path, strerror(e));
        return fail(err, errlen, "%s: cannot create a file in the current directory: %s", path,
                    strerror(e));
    }
    if (fchmod(af->fd, 0666 & ~current_umask()) != 0)
        af->werr = errno;
    return 0;
}

static void af_write(atomic_file *af, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n > 0 && af->werr == 0) {
        ssize_t w = write(af->fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            af->werr = errno;
            break;
        }
        p += w;
        n -= (size_t)w;
    }
}

static void af_abort(atomic_file *af)
{
    if (af->fd >= 0)
        close(af->fd);
    af->fd = -1;
    if (af->tmp) {
        unlink(af->tmp);
        free(af->tmp);
        af->tmp = NULL;
    }
}

/* fsync, close and rename; removes the temporary on any failure. */
static int af_commit(atomic_file *af, const char *path, char *err, size_t errlen)
{
    if (af->werr) {
        int e = af->werr;
        af_abort(af);
        return fail(err, errlen, "%s: write error: %s", path, strerror(e));
    }
    if (fsync(af->fd) != 0) {
        int e = errno;
        af_abort(af);
        return fail(err, errlen, "%s: fsync failed: %s", path, strerror(e));
    }
    int fd = af->fd;
    af->fd = -1;
    if (close(fd) != 0) {
        int e = errno;
        af_abort(af);
        return fail(err, errlen, "%s: close failed: %s", path, strerror(e));
    }
    if (rename(af->tmp, path) != 0) {
        int e = errno;
        af_abort(af);
        return fail(err, errlen, "%s: cannot replace the file: %s", path, strerror(e));
    }
    free(af->tmp);
    af->tmp = NULL;

    /* Make the rename itself durable (best effort). */
    const char *slash = strrchr(path, '/');
    char *dir = NULL;
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        dir = malloc(n + 1);
        if (dir) {
            memcpy(dir, path, n);
            dir[n] = '\0';
        }
    }
    int dfd = open(dir ? dir : ".", O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Save: encoders                                                            */
/* ------------------------------------------------------------------------- */

#define NPY_ALIGN 64
#define NPY_GROWTH_AXIS_MAX_DIGITS 21

/* Build the .npy prefix + header exactly as numpy.save does (numpy >= 1.23:
 * sorted keys, room for the growth axis, spaces and '\n' up to a multiple of
 * 64 bytes). Returns the length written to out (cap must be >= 512). */
static size_t npy_header(const cli_tensor *t, unsigned char *out, size_t cap)
{
    char dict[384];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     npy_descr_of(t->dtype));
    for (int i = 0; i < t->rank; i++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%s%lld", i ? ", " : "",
                      (long long)t->shape[i]);
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%s), }", t->rank == 1 ? "," : "");
    if (t->rank > 0) {
        /* Spare room so the first axis can grow in place (numpy's GROWTH_AXIS_MAX_DIGITS). */
        char digits[32];
        int nd = snprintf(digits, sizeof digits, "%lld", (long long)t->shape[0]);
        for (int k = nd; k < NPY_GROWTH_AXIS_MAX_DIGITS; k++)
            dict[n++] = ' ';
        dict[n] = '\0';
    }
    size_t hlen = (size_t)n + 1; /* + '\n' */
    /* Version 1.0 unless the padded header exceeds a 16-bit length; with rank <= 8
     * it never does, but keep numpy's rule. */
    size_t prefix = 10;
    size_t pad = NPY_ALIGN - (prefix + hlen) % NPY_ALIGN;
    int major = 1;
    if (hlen + pad > 65535) {
        prefix = 12;
        pad = NPY_ALIGN - (prefix + hlen) % NPY_ALIGN;
        major = 2;
    }
    size_t total = prefix + hlen + pad;
    if (total > cap)
        return 0;
    size_t hl = hlen + pad;
    memcpy(out, npy_magic, 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    out[8] = (unsigned char)(hl & 0xff);
    out[9] = (unsigned char)(hl >> 8 & 0xff);
    if (major == 2) {
        out[10] = (unsigned char)(hl >> 16 & 0xff);
        out[11] = (unsigned char)(hl >> 24 & 0xff);
    }
    memcpy(out + prefix, dict, (size_t)n);
    memset(out + prefix + (size_t)n, ' ', pad);
    out[total - 1] = '\n';
    return total;
}

static void png_write_cb(void *ctx, void *data, int size)
{
    if (size > 0)
        af_write(ctx, data, (size_t)size);
}

/* What tio_save and tio_save_npy_mem check first: the format takes this
 * dtype and shape, and the data holds exactly the tensor's bytes. */
static int check_saveable(const char *name, const cli_tensor *t, size_t *bytes, char *err,
                          size_t errlen)
{
    if (tio_check_save(name, t->dtype, t->rank, t->shape, err, errlen))
        return 1;
    size_t need;
    char sbuf[256];
    if (!shape_bytes(t->rank, t->shape, clpad_dtype_size(t->dtype), &need))
        return fail(err, errlen, "%s: tensor shape %s is too large", name,
                    shape_str(t->rank, t->shape, sbuf, sizeof sbuf));
    if (t->nbytes != need || (need && !t->data))
        return fail(err, errlen, "%s: tensor %s of %s has %zu bytes of data, expected %zu", name,
                    shape_str(t->rank, t->shape, sbuf, sizeof sbuf), dtype_name(t->dtype),
                    t->data ? t->nbytes : 0, need);
    *bytes = need;
    return 0;
}

int tio_save(const char *path, const cli_tensor *t, char *err, size_t errlen)
{
    if (!t)
        return fail(err, errlen, "tio_save: no tensor given");
    size_t need;
    if (check_saveable(path, t, &need, err, errlen))
        return 1;

    const char *format = tio_format(path);
    atomic_file af;
    if (af_open(&af, path, err, errlen))
        return 1;

    if (strcmp(format, "npy") == 0) {
        unsigned char hdr[512];
        size_t hn = npy_header(t, hdr, sizeof hdr);
        if (hn == 0) {
            af_abort(&af);
            return fail(err, errlen, "%s: internal error: .npy header too long", path);
        }
        af_write(&af, hdr, hn);
        af_write(&af, t->data, t->nbytes);
    } else {
        int64_t h, w, c;
        image_geometry(t->rank, t->shape, &h, &w, &c);
        if (strcmp(format, "png") == 0) {
            if (!stbi_write_png_to_func(png_write_cb, &af, (int)w, (int)h, (int)c, t->data,
                                        (int)(w * c)) &&
                af.werr == 0) {
                af_abort(&af);
                return fail(err, errlen, "%s: PNG encoding failed (out of memory?)", path);
            }
        } else {
            /* ppm/pgm/pnm: binary P6 (3 channels) or P5 (1 channel), maxval 255. */
            char hdr[96];
            int hn = snprintf(hdr, sizeof hdr, "P%d\n%lld %lld\n255\n", c == 3 ? 6 : 5,
                              (long long)w, (long long)h);
            af_write(&af, hdr, (size_t)hn);
            af_write(&af, t->data, t->nbytes);
        }
    }
    return af_commit(&af, path, err, errlen);
}

int tio_save_npy_mem(const cli_tensor *t, unsigned char **out, size_t *len, char *err,
                     size_t errlen)
{
    static const char name[] = "<memory>.npy";
    if (out)
        *out = NULL;
    if (len)
        *len = 0;
    if (!t || !out || !len)
        return fail(err, errlen, "tio_save_npy_mem: %s is NULL",
                    !t ? "the tensor" : !out ? "out" : "len");
    size_t need;
    if (check_saveable(name, t, &need, err, errlen))
        return 1;
    unsigned char hdr[512];
    size_t hn = npy_header(t, hdr, sizeof hdr);
    if (hn == 0)
        return fail(err, errlen, "%s: internal error: .npy header too long", name);
    if (need > SIZE_MAX - hn)
        return fail(err, errlen, "%s: tensor too large", name);
    unsigned char *b = malloc(hn + need);
    if (!b)
        return fail(err, errlen, "%s: out of memory (%zu bytes)", name, hn + need);
    memcpy(b, hdr, hn);
    if (need)
        memcpy(b + hn, t->data, need);
    *out = b;
    *len = hn + need;
    return 0;
}
