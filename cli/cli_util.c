/* Helpers shared by the subcommands: messages and list parsing. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("clpad: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

void cli_note(bool quiet, const char *fmt, ...)
{
    if (quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("clpad: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

bool cli_parse_i64_list(const char *text, const char *opt, int64_t *out, int cap, int *count)
{
    int n = 0;
    const char *p = text;
    if (!*p) { /* "" is the empty list: the pads of a rank-0 tensor */
        *count = 0;
        return true;
    }
    for (;;) {
        if (n == cap) {
            cli_error(CLI_USAGE, "%s: more than %d values", opt, cap);
            return false;
        }
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || (*end && *end != ',')) {
            cli_error(CLI_USAGE, "%s: '%s' is not a comma-separated list of integers", opt, text);
            return false;
        }
        if (errno == ERANGE) {
            cli_error(CLI_USAGE, "%s: value %.*s overflows int64", opt, (int)(end - p), p);
            return false;
        }
        out[n++] = v;
        if (!*end)
            break;
        p = end + 1;
    }
    *count = n;
    return true;
}

const char *cli_shape_str(int rank, const int64_t *shape, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "[");
    for (int i = 0; i < rank && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? ", " : "",
                                 (long long)shape[i]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}

bool cli_parse_quality(const char *text, int *quality)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < 1 || v > 100) {
        cli_error(CLI_USAGE, "--quality: '%s' is not a JPEG quality from 1 to 100", text);
        return false;
    }
    *quality = (int)v;
    return true;
}
