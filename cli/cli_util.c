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

void cli_deprecated(const char *command, const char *old_spelling, const char *spelling)
{
    fprintf(stderr,
            "clpad: warning: `clpad %s %s` is deprecated and goes in the next release; use %s\n",
            command, old_spelling, spelling);
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

static bool is_space(char c) { return c == ' ' || c == '\t'; }

bool cli_parse_i64_list(const char *text, const char *opt, int64_t *out, int cap, int *count)
{
    int n = 0;
    const char *p = text;
    while (is_space(*p))
        p++;
    if (!*p) { /* "" (or spaces) is the empty list: the pads of a rank-0 tensor */
        *count = 0;
        return true;
    }
    /* Spaces around each value are allowed, before and after alike. */
    for (;;) {
        if (n == cap) {
            cli_error(CLI_USAGE, "%s: more than %d values", opt, cap);
            return false;
        }
        while (is_space(*p))
            p++;
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        const char *after = end;
        while (is_space(*after))
            after++;
        if (end == p || !(*p == '-' || *p == '+' || (*p >= '0' && *p <= '9')) ||
            (*after && *after != ',')) {
            cli_error(CLI_USAGE, "%s: '%s' is not a comma-separated list of integers", opt, text);
            return false;
        }
        if (errno == ERANGE) {
            cli_error(CLI_USAGE, "%s: value %.*s overflows int64", opt, (int)(end - p), p);
            return false;
        }
        out[n++] = v;
        if (!*after)
            break;
        p = after + 1;
    }
    *count = n;
    return true;
}

bool cli_value_text_valid(const char *text)
{
    static const clpad_dtype any[] = {CLPAD_I64, CLPAD_U64, CLPAD_F64, CLPAD_BOOL};
    unsigned char buf[8];
    for (size_t i = 0; i < sizeof any / sizeof any[0]; i++)
        if (clpad_scalar_parse(any[i], text, buf) == CLPAD_OK)
            return true;
    return false;
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
