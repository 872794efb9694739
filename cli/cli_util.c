/* Helpers shared by the subcommands: messages, list parsing, the paths'
 * checks. */
#include "cli.h"
#include "tensor_io.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int cli_bad_option(const char *cmd, int c, const char *arg)
{
    if (c == ':')
        return cli_error(CLI_USAGE, "%s: option '%s' needs a value", cmd, arg);
    return cli_error(CLI_USAGE, "%s: unknown option '%s' (try `clpad %s --help`)", cmd, arg, cmd);
}

const char *cli_long_name(const struct option *opts, int c)
{
    for (; opts->name; opts++)
        if (opts->val == c && !opts->flag)
            return opts->name;
    return "?";
}

int cli_name_error(const struct option *opts, int c)
{
    return cli_error(CLI_USAGE, "--%s: %s", cli_long_name(opts, c), clpad_last_error());
}

bool cli_parse_int(const char *text, const char *opt, int64_t lo, int64_t hi, int64_t *v)
{
    int n = 0;
    if (!cli_parse_i64_list(text, opt, v, 1, &n))
        return false;
    if (n == 1 && *v >= lo && *v <= hi)
        return true;
    if (hi == INT64_MAX)
        return cli_error(CLI_USAGE, "%s: '%s' is not a number >= %lld", opt, text, (long long)lo),
               false;
    return cli_error(CLI_USAGE, "%s: '%s' is not a number from %lld to %lld", opt, text,
                     (long long)lo, (long long)hi),
           false;
}

bool cli_pick(const char *text, const char *opt, const char *const *names, const int *values,
              int *out)
{
    int n = 0;
    for (; names[n]; n++) {
        if (!strcmp(text, names[n])) {
            *out = values[n];
            return true;
        }
    }
    char list[256] = "";
    size_t used = 0;
    for (int k = 0; k < n && used < sizeof list; k++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 k == 0 ? "" : k == n - 1 ? " or " : ", ", names[k]);
    return cli_error(CLI_USAGE, "%s: '%s' is not %s", opt, text, list), false;
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

int cli_value_form(const char *cmd, const char *text, bool constant, clpad_pad_mode mode,
                   bool *per_side)
{
    if (text && !constant)
        return cli_error(CLI_USAGE, "%s: --value is only meaningful with --mode constant, not %s",
                         cmd, clpad_pad_mode_name(mode));
    *per_side = text && strpbrk(text, ",:");
    if (!text)
        return CLI_OK;
    if (!*per_side) {
        if (!cli_value_text_valid(text))
            return cli_error(CLI_USAGE,
                             "--value: '%s' is not a value of any dtype (an integer, a number, "
                             "nan, inf, true or false)",
                             text);
        return CLI_OK;
    }
    char list[512];
    if (strlen(text) >= sizeof list)
        return cli_error(CLI_USAGE, "--value: the list is too long");
    strcpy(list, text);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",:", &save); tok;
         tok = strtok_r(NULL, ",:", &save), n++)
        if (!cli_value_text_valid(tok))
            return cli_error(CLI_USAGE, "--value: '%s' (in '%s') is not a value of any dtype",
                             tok, text);
    if (n == 0 || strstr(text, ",,") || strstr(text, "::") || strchr(",:", text[0]) ||
        strchr(",:", text[strlen(text) - 1]))
        return cli_error(CLI_USAGE, "--value: an empty value in '%s'", text);
    return CLI_OK;
}

int cli_value_sides(const char *text, clpad_dtype dtype, int rank, bool two_axes,
                    const char *what, unsigned char *sides)
{
    size_t es = clpad_dtype_size(dtype);
    char list[512];
    snprintf(list, sizeof list, "%s", text); /* (cli_value_form checked its length) */
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save), n++) {
        char *colon = strchr(tok, ':');
        if (colon)
            *colon = '\0';
        if (n >= rank || (colon && strchr(colon + 1, ':'))) {
            n = -1;
            break;
        }
        if (clpad_scalar_parse(dtype, tok, sides + (size_t)2 * n * es) ||
            clpad_scalar_parse(dtype, colon ? colon + 1 : tok, sides + (size_t)(2 * n + 1) * es))
            return cli_error(CLI_FAIL, "--value: %s", clpad_last_error());
    }
    if (n != rank && !(two_axes && n == 2))
        return cli_error(CLI_FAIL, "--value '%s': give one value, or one entry (V or "
                         "BEFORE:AFTER) per axis of %s (rank %d)", text, what, rank);
    return CLI_OK;
}

int cli_check_output(const char *command, char *const *input, const char *out_path, int quality)
{
    const char *fmt = tio_format(out_path);
    if (!fmt || !tio_format_can_save(fmt))
        return cli_error(CLI_USAGE, "OUTPUT '%s': unknown format (supported: %s)", out_path,
                         tio_save_extensions());
    if (quality && strcmp(fmt, "jpeg"))
        return cli_error(CLI_USAGE, "%s: --quality applies to a JPEG OUTPUT (.jpg, .jpeg) only",
                         command);
    const cli_output output = {"OUTPUT", out_path};
    return cli_check_paths(input, 1, &output, 1);
}

int cli_alloc_output(tio_tensor *out)
{
    int64_t n = 1;
    for (int i = 0; i < out->rank; i++)
        n *= out->shape[i];
    out->nbytes = (size_t)n * clpad_dtype_size(out->dtype);
    out->data = malloc(out->nbytes ? out->nbytes : 1);
    if (!out->data)
        return cli_error(CLI_FAIL, "out of memory for a %zu-byte output", out->nbytes);
    return CLI_OK;
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

int cli_check_paths(char *const *inputs, size_t n, const cli_output *outputs, size_t n_outputs)
{
    char err[512];
    for (size_t i = 0; i < n; i++)
        if (tio_check_load_path(inputs[i], err, sizeof err))
            return cli_error(CLI_USAGE, "%s", err);
    for (size_t i = 0; i < n_outputs; i++)
        if (outputs[i].path && tio_check_output(outputs[i].path, err, sizeof err))
            return cli_error(CLI_FAIL, "%s", err);
    /* Two names of one file: what each output names, against the outputs
     * before it and every input. */
    tio_file_id *ids = calloc(n_outputs ? n_outputs : 1, sizeof *ids);
    /* what each input names, found once (a folder may hold thousands) */
    tio_file_id *in = calloc(n ? n : 1, sizeof *in);
    if (!ids || !in) {
        free(ids);
        free(in);
        return cli_error(CLI_FAIL, "out of memory");
    }
    int rc = CLI_OK;
    for (size_t k = 0; k < n && rc == CLI_OK; k++)
        if (tio_file_id_of(inputs[k], &in[k], err, sizeof err))
            rc = cli_error(CLI_FAIL, "%s", err);
    for (size_t i = 0; i < n_outputs && rc == CLI_OK; i++) {
        const cli_output *o = &outputs[i];
        if (!o->path)
            continue;
        if (tio_file_id_of(o->path, &ids[i], err, sizeof err)) {
            rc = cli_error(CLI_FAIL, "%s", err);
            break;
        }
        for (size_t k = 0; k < i && rc == CLI_OK; k++)
            if (outputs[k].path && tio_file_id_equal(&ids[i], &ids[k]))
                rc = cli_error(CLI_USAGE,
                               "%s '%s' and %s '%s' are the same file; each output needs a "
                               "file of its own",
                               o->label, o->path, outputs[k].label, outputs[k].path);
        for (size_t k = 0; k < n && rc == CLI_OK; k++)
            if (tio_file_id_equal(&ids[i], &in[k]))
                rc = cli_error(CLI_USAGE,
                               "%s '%s' is the input '%s' (the same file); clpad never writes "
                               "over an input: name another output",
                               o->label, o->path, inputs[k]);
    }
    for (size_t i = 0; i < n_outputs; i++)
        tio_file_id_free(&ids[i]);
    for (size_t k = 0; k < n; k++)
        tio_file_id_free(&in[k]);
    free(ids);
    free(in);
    return rc;
}

int cli_save_outputs(const cli_file *files, size_t n, int jpeg_quality)
{
    char err[512];
    tio_save_options opts = {.jpeg_quality = jpeg_quality};
    tio_output_set *set;
    if (tio_output_set_open(&set, err, sizeof err))
        return cli_error(CLI_FAIL, "%s", err);
    for (size_t i = 0; i < n; i++) {
        const cli_file *f = &files[i];
        if (!f->path)
            continue;
        if (f->t ? tio_output_set_add(set, f->path, f->t, &opts, err, sizeof err)
                 : tio_output_set_add_bytes(set, f->path, f->data, f->len, err, sizeof err)) {
            tio_output_set_abort(set);
            return cli_error(CLI_FAIL, "%s", err);
        }
    }
    if (tio_output_set_commit(set, err, sizeof err))
        return cli_error(CLI_FAIL, "%s", err);
    return CLI_OK;
}
