#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

uint64_t tu_seed(void)
{
    static int printed;
    static uint64_t seed;
    if (!printed) {
        const char *env = getenv("CLPAD_TEST_SEED");
        seed = env && *env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
        printf("seed = %llu (replay with CLPAD_TEST_SEED=%llu)\n", (unsigned long long)seed,
               (unsigned long long)seed);
        printed = 1;
    }
    return seed;
}

uint64_t tu_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t tu_range(uint64_t *state, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return lo + (int64_t)(tu_rand(state) % span);
}

void tu_fill(void *p, size_t n, uint64_t *state)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(tu_rand(state) >> 56);
}

clpad_status tu_context_create(const char *device, unsigned flags, clpad_context **ctx)
{
    clpad_context_config config;
    clpad_context_config_init(&config);
    config.device = device;
    config.flags = flags;
    return clpad_context_create(&config, ctx);
}

clpad_context *tu_device_context(void)
{
    clpad_context *ctx = NULL;
    clpad_status st =
        tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, &ctx);
    if (st == CLPAD_ERR_NO_DEVICE) {
        printf("SKIP: no OpenCL device (%s)\n", clpad_last_error());
        exit(TU_SKIP_CODE);
    }
    if (st != CLPAD_OK) {
        fprintf(stderr, "cannot create an OpenCL context: %s: %s\n", clpad_status_name(st),
                clpad_last_error());
        exit(1);
    }
    printf("device: %s (%s)\n", clpad_context_device_name(ctx),
           clpad_context_platform_name(ctx));
    return ctx;
}

const char *tu_shape_str(int rank, const int64_t *shape, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "[");
    for (int i = 0; i < rank && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? ", " : "",
                                 (long long)shape[i]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}

#include <string.h>

int64_t tu_elems(int rank, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < rank; i++)
        n *= shape[i];
    return n;
}

void tu_random_pad_case(uint64_t *state, const int *ranks, int n_ranks, int64_t max_elems,
                        tu_pad_case *c)
{
    static const clpad_dtype dtypes[] = {CLPAD_U8, CLPAD_I8, CLPAD_BOOL, CLPAD_I16, CLPAD_F16,
                                         CLPAD_BF16, CLPAD_I32, CLPAD_F32, CLPAD_U32, CLPAD_I64,
                                         CLPAD_F64, CLPAD_U64, CLPAD_U16};
    for (;;) {
        memset(c, 0, sizeof *c);
        c->dtype = dtypes[tu_rand(state) % (sizeof dtypes / sizeof *dtypes)];
        c->mode = (clpad_pad_mode)(tu_rand(state) % CLPAD_PAD_MODE_COUNT);
        c->rank = ranks[tu_rand(state) % (uint64_t)n_ranks];
        for (int i = 0; i < c->rank; i++) {
            int64_t D = tu_range(state, c->rank > 5 ? 1 : 0, c->rank > 5 ? 4 : 9);
            if (D == 0 && c->mode != CLPAD_PAD_CONSTANT && tu_range(state, 0, 1))
                D = 1;
            c->shape[i] = D;
            int64_t hi;
            switch (c->mode) {
            case CLPAD_PAD_REFLECT: hi = D - 1; break;
            case CLPAD_PAD_SYMMETRIC: hi = D; break;
            case CLPAD_PAD_EDGE: hi = D ? 3 : 0; break;
            case CLPAD_PAD_WRAP: hi = D ? 2 * D + 1 : 0; break; /* wraps more than once */
            default: hi = 4; break;
            }
            if (hi < 0)
                hi = 0;
            for (int s = 0; s < 2; s++) {
                int64_t p;
                int kind = (int)tu_range(state, 0, 3); /* zero, positive, negative, any */
                if (kind == 0)
                    p = 0;
                else if (kind == 1)
                    p = tu_range(state, 0, hi);
                else if (kind == 2)
                    p = -tu_range(state, 0, D + 1);
                else
                    p = tu_range(state, -D, hi);
                (s ? c->pads_end : c->pads_begin)[i] = p;
            }
        }
        tu_fill(c->value, sizeof c->value, state);
        if (c->dtype == CLPAD_BOOL)
            c->value[0] &= 1;
        int64_t out[CLPAD_MAX_RANK];
        if (clpad_pad_output_shape(c->rank, c->shape, c->pads_begin, c->pads_end,
                                   CLPAD_PAD_OPTIONS(c->mode), out) == CLPAD_OK &&
            tu_elems(c->rank, out) <= max_elems && tu_elems(c->rank, c->shape) <= max_elems)
            return;
    }
}

void tu_pad_options(const tu_pad_case *c, clpad_pad_options *o)
{
    clpad_pad_options_init(o, c->mode);
    if (c->per_axis)
        for (int i = 0; i < c->rank; i++)
            o->modes[i] = c->modes[i];
    o->flags = c->flags;
}

void tu_random_mixed_case(uint64_t *state, const int *ranks, int n_ranks, int64_t max_elems,
                          int large, tu_pad_case *c)
{
    static const clpad_dtype dtypes[] = {CLPAD_U8, CLPAD_I16, CLPAD_F16, CLPAD_F32, CLPAD_I64,
                                         CLPAD_F64};
    for (;;) {
        memset(c, 0, sizeof *c);
        c->dtype = dtypes[tu_rand(state) % (sizeof dtypes / sizeof *dtypes)];
        c->rank = ranks[tu_rand(state) % (uint64_t)n_ranks];
        c->per_axis = 1;
        c->flags = large ? CLPAD_PAD_LARGE_NUMPY : 0;
        for (int i = 0; i < c->rank; i++) {
            clpad_pad_mode m = (clpad_pad_mode)(tu_rand(state) % CLPAD_PAD_MODE_COUNT);
            if (large && tu_range(state, 0, 1)) /* the mirrors, more often */
                m = tu_range(state, 0, 1) ? CLPAD_PAD_REFLECT : CLPAD_PAD_SYMMETRIC;
            c->modes[i] = m;
            int64_t D = tu_range(state, 1, c->rank > 4 ? 3 : 7);
            c->shape[i] = D;
            int64_t hi;
            switch (m) {
            case CLPAD_PAD_REFLECT: hi = large ? 5 * 2 * (D > 1 ? D - 1 : 1) : D - 1; break;
            case CLPAD_PAD_SYMMETRIC: hi = large ? 5 * 2 * D : D; break;
            case CLPAD_PAD_WRAP: hi = 2 * D + 1; break;
            default: hi = 3; break;
            }
            for (int s = 0; s < 2; s++) {
                int kind = (int)tu_range(state, 0, 4);
                int64_t p = kind == 0   ? 0
                            : kind == 1 ? -tu_range(state, 0, D)
                                        : tu_range(state, 0, hi);
                (s ? c->pads_end : c->pads_begin)[i] = p;
            }
        }
        c->mode = c->modes[0];
        tu_fill(c->value, sizeof c->value, state);
        bool two = c->rank < 2;
        for (int i = 1; i < c->rank; i++)
            two |= c->modes[i] != c->modes[0];
        clpad_pad_options o;
        tu_pad_options(c, &o);
        int64_t out[CLPAD_MAX_RANK];
        if (two &&
            clpad_pad_output_shape(c->rank, c->shape, c->pads_begin, c->pads_end, &o, out) ==
                CLPAD_OK &&
            tu_elems(c->rank, out) <= max_elems && tu_elems(c->rank, out) > 0)
            return;
    }
}

const char *tu_pad_case_str(const tu_pad_case *c, char *buf, size_t len)
{
    char s[128], b[128], e[128], m[128] = "";
    if (c->per_axis)
        for (int i = 0; i < c->rank; i++)
            snprintf(m + strlen(m), sizeof m - strlen(m), "%s%s", i ? "," : "",
                     clpad_pad_mode_name(c->modes[i]));
    snprintf(buf, len, "%s%s %s shape=%s pads_begin=%s pads_end=%s",
             c->per_axis ? m : clpad_pad_mode_name(c->mode),
             c->flags & CLPAD_PAD_LARGE_NUMPY ? " large=numpy" : "", clpad_dtype_name(c->dtype),
             tu_shape_str(c->rank, c->shape, s, sizeof s),
             tu_shape_str(c->rank, c->pads_begin, b, sizeof b),
             tu_shape_str(c->rank, c->pads_end, e, sizeof e));
    return buf;
}

/* docs/spec.md's Pad table, one coordinate. Returns -1 for "pad_value". With `large`
 * (numpy.pad's large pads), reflect and symmetric mirror again and again
 * until the coordinate lands inside, as a person unfolding the paper would
 * (OpenCV's borderInterpolate states it so): no period, no modulo. */
static int64_t naive_map(clpad_pad_mode mode, int64_t c, int64_t D, int large)
{
    if (0 <= c && c < D)
        return c;
    if (large && (mode == CLPAD_PAD_REFLECT || mode == CLPAD_PAD_SYMMETRIC)) {
        if (D == 1)
            return 0;
        while (c < 0 || c >= D) {
            if (mode == CLPAD_PAD_REFLECT)
                c = c < 0 ? -c : 2 * (D - 1) - c;
            else
                c = c < 0 ? -c - 1 : 2 * D - 1 - c;
        }
        return c;
    }
    if (mode == CLPAD_PAD_CONSTANT)
        return -1;
    if (mode == CLPAD_PAD_EDGE)
        return c < 0 ? 0 : D - 1;
    if (mode == CLPAD_PAD_REFLECT)
        return c < 0 ? -c : 2 * (D - 1) - c;
    if (mode == CLPAD_PAD_SYMMETRIC)
        return c < 0 ? -c - 1 : 2 * D - 1 - c;
    int64_t m = c % D; /* wrap */
    return m < 0 ? m + D : m;
}

void tu_pad_naive(const tu_pad_case *c, const void *in, void *out)
{
    int64_t oshape[CLPAD_MAX_RANK];
    for (int i = 0; i < c->rank; i++) {
        int64_t o = c->pads_begin[i] + c->shape[i] + c->pads_end[i];
        oshape[i] = o > 0 ? o : 0;
    }
    size_t es = clpad_dtype_size(c->dtype);
    int64_t n = tu_elems(c->rank, oshape);
    for (int64_t idx = 0; idx < n; idx++) {
        int64_t rem = idx, src = 0, stride = 1;
        int pad = 0;
        for (int a = c->rank - 1; a >= 0; a--) {
            int64_t o = rem % oshape[a];
            rem /= oshape[a];
            int64_t m = naive_map(c->per_axis ? c->modes[a] : c->mode, o - c->pads_begin[a],
                                  c->shape[a], c->flags & CLPAD_PAD_LARGE_NUMPY);
            if (m < 0)
                pad = 1;
            else
                src += m * stride;
            stride *= c->shape[a];
        }
        unsigned char *d = (unsigned char *)out + (size_t)idx * es;
        if (pad) /* the value's bytes; a bool's value byte is what it is (0 or 1) */
            memcpy(d, c->value, es);
        else
            memcpy(d, (const unsigned char *)in + (size_t)src * es, es);
    }
}

bool tu_row_case(tu_pad_case *c, clpad_dtype dtype, clpad_pad_mode mode, int64_t bytes,
                 int64_t rows, int64_t pb, int64_t pe, uint64_t *rng)
{
    memset(c, 0, sizeof *c);
    c->dtype = dtype;
    c->mode = mode;
    c->rank = 3;
    int64_t es = (int64_t)clpad_dtype_size(dtype);
    int64_t W = (bytes + es - 1) / es - (pb < 0 ? pb : 0) - (pe < 0 ? pe : 0);
    int64_t lim = mode == CLPAD_PAD_REFLECT ? W - 1 : W; /* the mirrors' limit */
    if ((mode == CLPAD_PAD_REFLECT || mode == CLPAD_PAD_SYMMETRIC) && (pb > lim || pe > lim))
        return false;
    c->shape[0] = 2, c->shape[1] = rows, c->shape[2] = W;
    c->pads_begin[1] = 1, c->pads_end[1] = 2;
    c->pads_begin[2] = pb, c->pads_end[2] = pe;
    tu_fill(c->value, sizeof c->value, rng);
    return true;
}

/* ---- PNG files written byte by byte ------------------------------------------------ */

static size_t put_be32(unsigned char *out, uint32_t v)
{
    for (int j = 0; j < 4; j++)
        out[j] = (unsigned char)(v >> (24 - 8 * j));
    return 4;
}

uint32_t tu_png_crc(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

size_t tu_png_chunk(unsigned char *out, const char *type, const unsigned char *data, size_t len)
{
    put_be32(out, (uint32_t)len);
    memcpy(out + 4, type, 4);
    if (len)
        memcpy(out + 8, data, len);
    put_be32(out + 8 + len, tu_png_crc(out + 4, len + 4));
    return len + 12;
}

size_t tu_png_stored(unsigned char *out, uint32_t w, uint32_t h, int depth, int ctype,
                     const unsigned char *raw, size_t rawlen, const char *extra_type,
                     const unsigned char *extra, size_t extra_len)
{
    assert_true(rawlen <= 65535);
    size_t n = 0;
    memcpy(out, "\x89PNG\r\n\x1a\n", 8), n += 8;
    unsigned char ihdr[13];
    put_be32(ihdr, w);
    put_be32(ihdr + 4, h);
    const unsigned char rest[5] = {(unsigned char)depth, (unsigned char)ctype, 0, 0, 0};
    memcpy(ihdr + 8, rest, 5);
    n += tu_png_chunk(out + n, "IHDR", ihdr, 13);
    if (extra_type)
        n += tu_png_chunk(out + n, extra_type, extra, extra_len);
    uint32_t a = 1, b = 0;
    for (size_t k = 0; k < rawlen; k++) {
        a = (a + raw[k]) % 65521;
        b = (b + a) % 65521;
    }
    /* zlib header, one stored block, the Adler-32 */
    unsigned char *idat = malloc(rawlen + 16);
    assert_non_null(idat);
    size_t m = 0;
    memcpy(idat, "\x78\x01\x01", 3), m += 3;
    idat[m++] = (unsigned char)rawlen, idat[m++] = (unsigned char)(rawlen >> 8);
    idat[m++] = (unsigned char)~rawlen, idat[m++] = (unsigned char)(~rawlen >> 8);
    if (rawlen)
        memcpy(idat + m, raw, rawlen), m += rawlen;
    m += put_be32(idat + m, b << 16 | a);
    n += tu_png_chunk(out + n, "IDAT", idat, m);
    free(idat);
    n += tu_png_chunk(out + n, "IEND", NULL, 0);
    return n;
}
