/*
 * NumPy .npy files: versions 1.0/2.0/3.0 read, 1.0 written (2.0 when the
 * header would not fit in 65535 bytes), byte-compatible with numpy.save. The
 * header is parsed strictly and checked against the real size before
 * anything sized by the declared shape is trusted.
 */
#include "io_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_SUPPORTED "|b1, |i1, |u1, <i2, <u2, <i4, <u4, <i8, <u8, <f2, <f4, <f8"

/* The descr numpy writes for a dtype; NULL when numpy has none (bf16). */
const char *tio__npy_descr_of(clpad_dtype dtype)
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
    return tio__fail(p->err, p->errlen, "%s: malformed .npy header: %s at header byte %zu", p->path,
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
        return tio__fail(p->err, p->errlen, "%s: bad .npy header: 'shape' must be a tuple, not a list",
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
            return tio__fail(p->err, p->errlen, "%s: bad .npy header: shape entry %s is negative",
                        p->path, tok);
        if (digits == 0 || (digits != len && !python2_long))
            return tio__fail(p->err, p->errlen,
                        "%s: bad .npy header: shape entry '%s' is not a non-negative integer",
                        p->path, tok);
        int64_t v = 0;
        for (size_t k = 0; k < digits; k++) {
            int d = p->s[start + k] - '0';
            if (v > (INT64_MAX - d) / 10)
                return tio__fail(p->err, p->errlen, "%s: bad .npy header: shape entry %s is too large",
                            p->path, tok);
            v = v * 10 + d;
        }
        if (n >= CLPAD_MAX_RANK)
            return tio__fail(p->err, p->errlen,
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
        return tio__fail(p->err, p->errlen,
                    "%s: bad .npy header: 'shape' is (%lld), an integer, not a tuple (numpy "
                    "writes (%lld,))",
                    p->path, (long long)shape[0], (long long)shape[0]);
    *rank = n;
    return 0;
}

/* Parse the whole header text; fills dtype, rank and shape of t. */
static int npy_parse_header(const char *path, const char *text, size_t len, tio_tensor *t,
                            char *err, size_t errlen)
{
    hparser p = {text, len, 0, path, err, errlen};
    char descr[64] = "";
    bool have_descr = false, have_fortran = false, have_shape = false, fortran = false;

    if (memchr(text, '\0', len))
        return tio__fail(err, errlen, "%s: malformed .npy header: it contains a NUL byte", path);
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
                return tio__fail(err, errlen, "%s: bad .npy header: duplicate key 'descr'", path);
            have_descr = true;
            if (hp_peek(&p) == '[')
                return tio__fail(err, errlen,
                            "%s: unsupported .npy dtype: structured arrays (a list 'descr') are "
                            "not supported",
                            path);
            if (hp_string(&p, descr, sizeof descr, "'descr'"))
                return 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (have_fortran)
                return tio__fail(err, errlen, "%s: bad .npy header: duplicate key 'fortran_order'",
                            path);
            have_fortran = true;
            char word[16];
            hp_word(&p, word, sizeof word);
            if (strcmp(word, "True") == 0)
                fortran = true;
            else if (strcmp(word, "False") == 0)
                fortran = false;
            else
                return tio__fail(err, errlen,
                            "%s: bad .npy header: 'fortran_order' must be True or False", path);
        } else if (strcmp(key, "shape") == 0) {
            if (have_shape)
                return tio__fail(err, errlen, "%s: bad .npy header: duplicate key 'shape'", path);
            have_shape = true;
            if (hp_shape(&p, &t->rank, t->shape))
                return 1;
        } else {
            return tio__fail(err, errlen,
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
        return tio__fail(err, errlen, "%s: bad .npy header: missing key '%s'", path, missing);

    const char *why;
    if (!npy_descr_to_dtype(descr, &t->dtype, &why))
        return tio__fail(err, errlen, "%s: unsupported .npy dtype '%s' (%s); supported: " NPY_SUPPORTED,
                    path, descr, why);
    if (fortran)
        return tio__fail(err, errlen,
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

const unsigned char tio__npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

int tio__load_npy(tio__reader *r, tio_tensor *t, char *err, size_t errlen)
{
    const char *path = r->name;
    /* The magic, the version and the header length: nothing else is read
     * before they check out (/dev/zero named .npy fails after 10 bytes). */
    unsigned char pre[12];
    size_t got = tio__read(r, pre, 10, err, errlen);
    if (got == TIO__READ_ERROR)
        return 1;
    size_t m = got < sizeof tio__npy_magic ? got : sizeof tio__npy_magic;
    if (memcmp(pre, tio__npy_magic, m) != 0)
        return tio__fail(err, errlen, "%s: not a .npy file (bad magic)", path);
    if (got < 8)
        return tio__fail(err, errlen, "%s: truncated .npy file (%zu bytes)", path, got);
    unsigned major = pre[6], minor = pre[7];
    if (major < 1 || major > 3 || minor != 0)
        return tio__fail(err, errlen,
                         "%s: unsupported .npy format version %u.%u (supported: 1.0, 2.0, 3.0)",
                         path, major, minor);
    size_t prefix = major == 1 ? 10 : 12;
    if (got == 10 && prefix == 12) {
        size_t more = tio__read(r, pre + 10, 2, err, errlen);
        if (more == TIO__READ_ERROR)
            return 1;
        got += more;
    }
    if (got < prefix)
        return tio__fail(err, errlen, "%s: truncated .npy header (%zu bytes)", path, got);
    size_t hlen = major == 1 ? le16(pre + 8) : le32(pre + 8);
    if (r->sized && (r->size < prefix || hlen > r->size - prefix))
        return tio__fail(err, errlen,
                         "%s: .npy header length %zu goes beyond the end of the file (%llu bytes)",
                         path, hlen, (unsigned long long)r->size);
    if (hlen > TIO__NPY_MAX_HEADER)
        return tio__fail(err, errlen,
                         "%s: .npy header length %zu is larger than %zu bytes (numpy writes a "
                         "few hundred); not read",
                         path, hlen, TIO__NPY_MAX_HEADER);
    tio__buf h = {0};
    if (tio__buf_fill(&h, r, hlen, err, errlen)) {
        tio__buf_free(&h);
        return 1;
    }
    if (h.len < hlen) {
        size_t total = prefix + h.len;
        tio__buf_free(&h);
        return tio__fail(err, errlen,
                         "%s: .npy header length %zu goes beyond the end of the file (%zu bytes)",
                         path, hlen, total);
    }
    int rc = npy_parse_header(path, h.data ? (const char *)h.data : "", hlen, t, err, errlen);
    tio__buf_free(&h);
    if (rc)
        return 1;

    /* The data: exactly the bytes the header promises. A file's size is
     * checked before anything is allocated; a stream's buffer grows only
     * with the bytes that arrive. */
    char sbuf[256];
    size_t need;
    if (!tio__shape_bytes(t->rank, t->shape, clpad_dtype_size(t->dtype), &need))
        return tio__fail(err, errlen, "%s: .npy shape %s of %s is too large (size overflows)",
                         path, tio__shape_str(t->rank, t->shape, sbuf, sizeof sbuf),
                         tio__dtype_name(t->dtype));
    if (r->sized) {
        uint64_t have = r->size - prefix - hlen; /* (hlen <= size - prefix, above) */
        if (have < need)
            return tio__fail(err, errlen,
                             "%s: .npy data is truncated: shape %s of %s needs %zu bytes, the "
                             "file holds %llu",
                             path, tio__shape_str(t->rank, t->shape, sbuf, sizeof sbuf),
                             tio__dtype_name(t->dtype), need, (unsigned long long)have);
        if (have > need)
            return tio__fail(err, errlen,
                             "%s: .npy file has %llu trailing bytes after the data (shape %s of "
                             "%s needs %zu bytes)",
                             path, (unsigned long long)(have - need),
                             tio__shape_str(t->rank, t->shape, sbuf, sizeof sbuf),
                             tio__dtype_name(t->dtype), need);
    }
    uint64_t ram = tio__memory_bytes();
    if (!r->sized && ram && need > ram)
        return tio__fail(err, errlen,
                         "%s: the .npy header promises %zu bytes of data (shape %s of %s), more "
                         "than this machine's %llu bytes of memory; not read",
                         path, need, tio__shape_str(t->rank, t->shape, sbuf, sizeof sbuf),
                         tio__dtype_name(t->dtype), (unsigned long long)ram);
    tio__buf d = {0};
    if (tio__buf_fill(&d, r, need, err, errlen)) {
        tio__buf_free(&d);
        return 1;
    }
    if (d.len < need) {
        size_t have = d.len;
        tio__buf_free(&d);
        return tio__fail(err, errlen,
                         "%s: .npy data is truncated: shape %s of %s needs %zu bytes, the file "
                         "holds %zu",
                         path, tio__shape_str(t->rank, t->shape, sbuf, sizeof sbuf),
                         tio__dtype_name(t->dtype), need, have);
    }
    /* A file must end with the data (its size was checked above; this sees
     * one that grew). A stream is left where the data ends, as numpy.load
     * leaves a file object: the writer need not close it, and what follows
     * is not read. */
    unsigned char extra;
    got = r->sized ? tio__read(r, &extra, 1, err, errlen) : 0;
    if (got == TIO__READ_ERROR || got == 1) {
        tio__buf_free(&d);
        if (got == 1)
            tio__fail(err, errlen,
                      "%s: .npy file has trailing bytes after the data (shape %s of %s needs "
                      "%zu bytes)",
                      path, tio__shape_str(t->rank, t->shape, sbuf, sizeof sbuf),
                      tio__dtype_name(t->dtype), need);
        return 1;
    }
    t->data = d.data ? d.data : malloc(1);
    t->nbytes = need;
    if (!t->data)
        return tio__fail(err, errlen, "%s: out of memory", path);
    return 0;
}

#define NPY_ALIGN 64
#define NPY_GROWTH_AXIS_MAX_DIGITS 21

/* Build the .npy prefix + header exactly as numpy.save does (numpy >= 1.23:
 * sorted keys, room for the growth axis, spaces and '\n' up to a multiple of
 * 64 bytes). Returns the length written to out (cap must be >= 512). */
size_t tio__npy_header(const tio_tensor *t, unsigned char *out, size_t cap)
{
    char dict[384];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     tio__npy_descr_of(t->dtype));
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
    memcpy(out, tio__npy_magic, 6);
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

int tio_load_npy_mem(const void *data, size_t len, const char *name, tio_tensor *t, char *err,
                     size_t errlen)
{
    if (tio__mem_args(data, len, &name, t, err, errlen))
        return 1;
    tio__reader r;
    tio__reader_mem(&r, name, data, len, true);
    if (tio__load_npy(&r, t, err, errlen)) {
        free(t->data);
        memset(t, 0, sizeof *t);
        return 1;
    }
    return 0;
}

int tio_save_npy_mem(const tio_tensor *t, unsigned char **out, size_t *len, char *err,
                     size_t errlen)
{
    static const char name[] = "<memory>.npy";
    if (out)
        *out = NULL;
    if (len)
        *len = 0;
    if (!t || !out || !len)
        return tio__fail(err, errlen, "tio_save_npy_mem: %s is NULL",
                    !t ? "the tensor" : !out ? "out" : "len");
    size_t need;
    if (tio__check_saveable(name, t, &need, err, errlen))
        return 1;
    unsigned char hdr[512];
    size_t hn = tio__npy_header(t, hdr, sizeof hdr);
    if (hn == 0)
        return tio__fail(err, errlen, "%s: internal error: .npy header too long", name);
    if (need > SIZE_MAX - hn)
        return tio__fail(err, errlen, "%s: tensor too large", name);
    unsigned char *b = malloc(hn + need);
    if (!b)
        return tio__fail(err, errlen, "%s: out of memory (%zu bytes)", name, hn + need);
    memcpy(b, hdr, hn);
    if (need)
        memcpy(b + hn, t->data, need);
    *out = b;
    *len = hn + need;
    return 0;
}
