/* The shared way a subcommand runs its operation: context, first call,
 * timed call, CPU verification, report. */
#include "cli.h"
#include "tensor_io.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static double gbps(uint64_t bytes, uint64_t ns) { return ns ? (double)bytes / (double)ns : 0.0; }

/* One of the shared options of cli_getopt: 1 taken, 0 not one, -1 a bad value. */
static int run_opt(int c, const char *arg, cli_run *r, int *quality, const cli_list_opt *lists)
{
    for (const cli_list_opt *l = lists; l->c; l++)
        if (l->c == c)
            return cli_parse_i64_list(arg, l->name, l->values, l->cap, l->count) ? 1 : -1;
    switch (c) {
    case 'd':
        r->device = arg;
        return 1;
    case 'C':
        r->cpu = true;
        return 1;
    case 'Y':
        r->verify = true;
        return 1;
    case 'Q':
        if (!quality)
            return 0;
        return cli_parse_quality(arg, quality) ? 1 : -1;
    case 'q':
        r->quiet = true;
        return 1;
    default:
        return 0;
    }
}

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *opts,
               cli_run *r, int *quality, const cli_list_opt *lists)
{
    if (!r->parsing) {
        r->parsing = true;
        optind = 1;
        opterr = 0;
    }
    int c, taken;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1 &&
           (taken = run_opt(c, optarg, r, quality, lists)) != 0)
        if (taken < 0)
            return CLI_OPT_BAD;
    return c;
}

int cli_run_check(const char *cmd, const cli_run *r)
{
    if (r->cpu && r->device)
        return cli_error(CLI_USAGE, "%s: --cpu and --device exclude each other", cmd);
    return CLI_OK;
}

void cli_run_usage(FILE *f, int col)
{
    static const char *const lines[][2] = {
        {"  -d, --device SPEC", "OpenCL device: P:D index or name substring"},
        {"", "(default: $CLPAD_DEVICE, else first GPU, accelerator, CPU)"},
        {"      --cpu", "use the CPU reference path, no OpenCL"},
        {"      --verify", "run the OpenCL kernel (never the small-call CPU path),"},
        {"", "then the CPU reference, and compare byte for byte"},
        {"      --quality Q", "JPEG OUTPUT quality, 1..100 (default 95)"},
        {"  -q, --quiet", "print nothing but errors"},
        {"  -h, --help", "show this help"},
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        fprintf(f, "%-*s%s\n", col, lines[i][0], lines[i][1]);
}

int cli_run_op(cli_run *r, cli_op_fn fn, const void *op, void *out, size_t out_bytes)
{
    unsigned flags = r->cpu ? CLPAD_CONTEXT_CPU_ONLY : (r->quiet ? 0 : CLPAD_CONTEXT_VERBOSE);
    /* --verify checks the device: the OpenCL kernel runs even where a small
     * call would take the CPU path (comparing that with the CPU reference
     * would check the CPU path against itself) */
    if (r->verify && !r->cpu)
        flags |= CLPAD_CONTEXT_DEVICE_ONLY;
    clpad_context_config config;
    clpad_context_config_init(&config);
    config.device = r->device;
    config.flags = flags;
    if (clpad_context_create(&config, &r->ctx))
        return cli_error(CLI_FAIL, "%s", clpad_last_error());
    /* The first call compiles the program (and drivers such as PoCL
     * specialise it for the launch size): time it apart from a second,
     * steady-state call. */
    if (!clpad_context_is_fallback(r->ctx)) {
        clpad_run_info first;
        clpad_run_info_init(&first);
        if (fn(r->ctx, op, out, out_bytes, &first))
            return cli_error(CLI_FAIL, "%s", clpad_last_error());
        r->first_ns = first.total_ns;
    }
    clpad_run_info_init(&r->info);
    if (fn(r->ctx, op, out, out_bytes, &r->info))
        return cli_error(CLI_FAIL, "%s", clpad_last_error());
    if (!r->verify)
        return CLI_OK;
    unsigned char *ref = malloc(out_bytes ? out_bytes : 1);
    if (!ref)
        return cli_error(CLI_FAIL, "out of memory for the verification copy");
    clpad_context *cpu_ctx = NULL;
    clpad_run_info cinfo;
    clpad_run_info_init(&cinfo);
    int rc = CLI_OK;
    clpad_context_config cpu_only;
    clpad_context_config_init(&cpu_only);
    cpu_only.flags = CLPAD_CONTEXT_CPU_ONLY;
    if (clpad_context_create(&cpu_only, &cpu_ctx) ||
        fn(cpu_ctx, op, ref, out_bytes, &cinfo)) {
        rc = cli_error(CLI_FAIL, "CPU reference failed: %s", clpad_last_error());
    } else if (memcmp(ref, out, out_bytes)) {
        size_t first = 0, diff = 0;
        const unsigned char *b = out;
        for (size_t i = 0; i < out_bytes; i++)
            if (ref[i] != b[i] && !diff++)
                first = i;
        rc = cli_error(CLI_FAIL,
                       "verification failed: %zu of %zu bytes differ from the CPU reference "
                       "(first at byte %zu); OUTPUT not written",
                       diff, out_bytes, first);
    }
    r->cpu_ns = cinfo.total_ns;
    clpad_context_destroy(cpu_ctx);
    free(ref);
    return rc;
}

int cli_run_into(cli_run *r, const char *path, const tio_tensor *saved, tio_tensor *out,
                 cli_op_fn fn, const void *op)
{
    char err[512];
    if (!saved)
        saved = out;
    if (tio_check_save(path, saved->dtype, saved->rank, saved->shape, err, sizeof err))
        return cli_error(CLI_FAIL, "%s", err);
    if (cli_alloc_output(out))
        return CLI_FAIL;
    return cli_run_op(r, fn, op, out->data, out->nbytes);
}

int cli_save(const char *path, const tio_tensor *t, int quality)
{
    char err[512];
    tio_save_options save_opts = {.jpeg_quality = quality};
    if (tio_save_with(path, t, &save_opts, err, sizeof err))
        return cli_error(CLI_FAIL, "%s", err);
    return CLI_OK;
}

void cli_report_device(const cli_run *r)
{
    const char *platform = clpad_context_platform_name(r->ctx);
    cli_note(r->quiet, "device: %s%s%s", clpad_context_device_name(r->ctx), *platform ? " on " : "",
             platform);
}

void cli_report_input(const cli_run *r, const tio_tensor *in, const char *path)
{
    char s[160];
    cli_report_device(r);
    cli_note(r->quiet, "input:  %s %s (%s)", cli_shape_str(in->rank, in->shape, s, sizeof s),
             clpad_dtype_name(in->dtype), path);
}

int cli_report_output(const cli_run *r, const tio_tensor *out, const char *path, const char *fmt,
                      ...)
{
    char shape[160], what[512] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        what[0] = ',';
        what[1] = ' ';
        vsnprintf(what + 2, sizeof what - 2, fmt, ap);
        va_end(ap);
    }
    cli_note(r->quiet, "output: %s %s%s (%s)",
             cli_shape_str(out->rank, out->shape, shape, sizeof shape),
             clpad_dtype_name(out->dtype), what, path);
    cli_report_timing(r, out->nbytes);
    return CLI_OK;
}

void cli_report_timing(const cli_run *r, size_t out_bytes)
{
    const clpad_run_info *i = &r->info;
    if (i->used_opencl)
        cli_note(r->quiet,
                 "kernel: %.3f ms, %.2f GB/s; end to end %.3f ms, %.2f GB/s%s; first call "
                 "%.0f ms with program build (GB/s: %llu bytes read + written)",
                 i->kernel_ns / 1e6, gbps(i->bytes_moved, i->kernel_ns), i->total_ns / 1e6,
                 gbps(i->bytes_moved, i->total_ns), i->zero_copy ? " (zero-copy)" : "",
                 r->first_ns / 1e6, (unsigned long long)i->bytes_moved);
    else
        cli_note(r->quiet, "CPU path%s: %.3f ms, %.2f GB/s (bytes read + written: %llu)",
                 clpad_context_is_fallback(r->ctx)
                     ? ""
                     : " (a small call on a CPU device, faster than a launch; "
                       "CLPAD_SMALL_CALL_BYTES=0 runs the kernel)",
                 i->total_ns / 1e6, gbps(i->bytes_moved, i->total_ns),
                 (unsigned long long)i->bytes_moved);
    if (r->verify && i->used_opencl)
        cli_note(r->quiet,
                 "verify: the OpenCL kernel's result is identical to the CPU reference, byte "
                 "for byte (%zu bytes; CPU path %.3f ms)",
                 out_bytes, r->cpu_ns / 1e6);
    else if (r->verify)
        cli_note(r->quiet,
                 "verify: identical to the CPU reference, byte for byte (%zu bytes; CPU path "
                 "%.3f ms), but no OpenCL kernel ran (%s): the CPU path was checked against "
                 "itself",
                 out_bytes, r->cpu_ns / 1e6,
                 r->cpu                               ? "--cpu"
                 : clpad_context_is_fallback(r->ctx) ? "no OpenCL device"
                                                      : "nothing to launch");
}

void cli_run_free(cli_run *r)
{
    clpad_context_destroy(r->ctx);
    r->ctx = NULL;
}
