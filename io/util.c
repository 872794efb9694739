/* Small helpers shared by the tensor I/O library: messages, shapes. */
#include "io_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int tio__fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Write the message into err (if any) and return 1. */
int tio__fail(char *err, size_t errlen, const char *fmt, ...)
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

int tio__mem_args(const void *data, size_t len, const char **name, tio_tensor *t, char *err,
                  size_t errlen)
{
    if (t)
        memset(t, 0, sizeof *t);
    if (!*name || !**name)
        *name = "<memory>";
    if (!t)
        return tio__fail(err, errlen, "%s: no tensor given", *name);
    if (!data && len)
        return tio__fail(err, errlen, "%s: no data given (NULL with %zu bytes)", *name, len);
    return 0;
}

const char *tio__dtype_name(clpad_dtype dtype)
{
    const char *name = clpad_dtype_name(dtype);
    return name ? name : "invalid-dtype";
}

/* "[2, 3]" into buf. */
const char *tio__shape_str(int rank, const int64_t *shape, char *buf, size_t len)
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
bool tio__shape_bytes(int rank, const int64_t *shape, size_t elem_size, size_t *nbytes)
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
