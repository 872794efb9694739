/* Exact parsing of scalar values (pad_value) into the bit pattern of a dtype. */
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Round a double to a binary floating-point format with `ebits` exponent bits
 * and `mbits` fraction bits (f16: 5/10, bf16: 8/7), round to nearest even.
 * Sets *overflow when a finite input rounds to infinity. */
static uint32_t round_to_small_float(double v, int ebits, int mbits, bool *overflow)
{
    uint64_t d;
    memcpy(&d, &v, sizeof d);
    uint32_t sign = (uint32_t)(d >> 63) << (ebits + mbits);
    uint32_t exp_all = ((1u << ebits) - 1u) << mbits;
    int dexp = (int)((d >> 52) & 0x7ff);
    uint64_t frac = d & ((1ull << 52) - 1);
    *overflow = false;
    if (dexp == 0x7ff) /* inf or NaN (NaN becomes a quiet NaN of the same sign) */
        return sign | exp_all | (frac ? 1u << (mbits - 1) : 0u);
    if (dexp == 0) /* zero or double subnormal: far below every small format */
        return sign;
    int bias = (1 << (ebits - 1)) - 1;
    int e = dexp - 1023;            /* value = m * 2^(e - 52) */
    uint64_t m = frac | (1ull << 52);
    int shift = 52 - mbits;
    if (e < 1 - bias)
        shift += (1 - bias) - e;    /* subnormal in the target format */
    if (shift > 63)
        return sign;                /* below half of the smallest subnormal */
    uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    if (e < 1 - bias)               /* q == 1 << mbits lands on the smallest normal */
        return sign | (uint32_t)q;
    if (q == (1ull << (mbits + 1))) {
        q >>= 1;
        e++;
    }
    if (e + bias >= (1 << ebits) - 1) {
        *overflow = true;
        return sign | exp_all;
    }
    return sign | ((uint32_t)(e + bias) << mbits) | (uint32_t)(q & ((1ull << mbits) - 1));
}

static bool is_inf_text(const char *s)
{
    while (*s == '+' || *s == '-')
        s++;
    return !strncasecmp(s, "inf", 3);
}

static clpad_status parse_float(clpad_dtype dtype, const char *text, void *out)
{
    char *end;
    errno = 0;
    const char *name = clpad_dtype_name(dtype);
    if (dtype == CLPAD_F32) {
        float f = strtof(text, &end);
        if (end == text || *end)
            return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is not a number", text);
        if (errno == ERANGE && isinf(f) && !is_inf_text(text))
            return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is out of range for f32", text);
        memcpy(out, &f, 4);
        return CLPAD_OK;
    }
    double v = strtod(text, &end);
    if (end == text || *end)
        return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is not a number", text);
    if (errno == ERANGE && isinf(v) && !is_inf_text(text))
        return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is out of range for %s", text, name);
    if (dtype == CLPAD_F64) {
        memcpy(out, &v, 8);
        return CLPAD_OK;
    }
    bool overflow;
    uint16_t h = (uint16_t)(dtype == CLPAD_F16 ? round_to_small_float(v, 5, 10, &overflow)
                                               : round_to_small_float(v, 8, 7, &overflow));
    if (overflow)
        return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is out of range for %s", text, name);
    memcpy(out, &h, 2);
    return CLPAD_OK;
}

/* Decimal, or hexadecimal with 0x; never octal (a leading 0 stays decimal). */
static int int_base(const char *text)
{
    const char *s = text;
    if (*s == '+' || *s == '-')
        s++;
    return (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
}

static clpad_status parse_int(clpad_dtype dtype, const char *text, void *out)
{
    const char *name = clpad_dtype_name(dtype);
    char *end;
    errno = 0;
    bool is_signed = dtype == CLPAD_I8 || dtype == CLPAD_I16 || dtype == CLPAD_I32 ||
                     dtype == CLPAD_I64;
    size_t size = clpad_dtype_size(dtype);
    if (!isdigit((unsigned char)text[0]) && text[0] != '-' && text[0] != '+')
        return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is not an integer", text);
    if (is_signed) {
        long long v = strtoll(text, &end, int_base(text));
        if (end == text || *end)
            return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is not an integer", text);
        int64_t lo = size == 8 ? INT64_MIN : -(INT64_C(1) << (size * 8 - 1));
        int64_t hi = size == 8 ? INT64_MAX : (INT64_C(1) << (size * 8 - 1)) - 1;
        if (errno == ERANGE || v < lo || v > hi)
            return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is out of range for %s (%lld..%lld)",
                               text, name, (long long)lo, (long long)hi);
        int64_t x = v;
        memcpy(out, &x, size); /* little-endian: the low bytes */
        return CLPAD_OK;
    }
    const char *s = text;
    while (*s == '+')
        s++;
    bool negative = *s == '-';
    unsigned long long v = strtoull(text, &end, int_base(text));
    if (end == text || *end)
        return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is not an integer", text);
    uint64_t hi = size == 8 ? UINT64_MAX : (UINT64_C(1) << (size * 8)) - 1;
    if (negative && v != 0)
        return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is out of range for %s (0..%llu)", text,
                           name, (unsigned long long)hi);
    if (errno == ERANGE || v > hi)
        return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is out of range for %s (0..%llu)", text,
                           name, (unsigned long long)hi);
    uint64_t x = negative ? 0 : v;
    memcpy(out, &x, size);
    return CLPAD_OK;
}

clpad_status clpad_scalar_parse(clpad_dtype dtype, const char *text, void *out)
{
    clpad__clear_error();
    if (!text || !out)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_value text and result must not be NULL");
    if ((unsigned)dtype >= CLPAD_DTYPE_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "invalid dtype %d", (int)dtype);
    if (!*text || isspace((unsigned char)text[0]))
        return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is empty or starts with a space", text);
    switch (dtype) {
    case CLPAD_BOOL: {
        uint8_t b;
        if (!strcmp(text, "1") || !strcasecmp(text, "true"))
            b = 1;
        else if (!strcmp(text, "0") || !strcasecmp(text, "false"))
            b = 0;
        else
            return clpad__fail(CLPAD_ERR_PARSE, "pad_value '%s' is not a bool (0, 1, true, false)",
                               text);
        memcpy(out, &b, 1);
        return CLPAD_OK;
    }
    case CLPAD_F16:
    case CLPAD_BF16:
    case CLPAD_F32:
    case CLPAD_F64:
        return parse_float(dtype, text, out);
    default:
        return parse_int(dtype, text, out);
    }
}
