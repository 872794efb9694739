/* Shared declarations of the clpad command-line program. */
#ifndef CLPAD_CLI_H
#define CLPAD_CLI_H

#include "clpad.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes: 0 success, 1 a failure while running, 2 a usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Print "clpad: error: <message>" on stderr; returns `code` for `return cli_error(...)`. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "clpad: <message>" on stderr unless quiet. */
void cli_note(bool quiet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse a comma-separated list of int64 ("1,-2,3") for option `opt` (named in
 * errors). At most `cap` values; "" is the empty list (rank 0). Empty items
 * ("1,,2"), junk, overflow: error message printed, returns false. */
bool cli_parse_i64_list(const char *text, const char *opt, int64_t *out, int cap, int *count);

/* "[1, 3, 224, 224]" into buf. */
const char *cli_shape_str(int rank, const int64_t *shape, char *buf, size_t len);

/* Running one data-movement operation the way every subcommand does
 * (cli_run.c): create the context (--device / --cpu), run a first call that
 * pays for program builds, run a timed call, optionally verify against the
 * CPU path, then report. */

/* The operation: on `ctx`, write `out_bytes` bytes of output to `out`. */
typedef clpad_status (*cli_op_fn)(clpad_context *ctx, const void *op, void *out,
                                  size_t out_bytes, clpad_run_info *info);

typedef struct cli_run {
    const char *device; /* --device, or NULL */
    bool cpu, verify, quiet;
    /* filled by cli_run_op */
    clpad_context *ctx;
    clpad_run_info info;   /* the timed call */
    uint64_t first_ns;     /* the first call, program build included (0 on the CPU path) */
    uint64_t cpu_ns;       /* the CPU reference, with --verify */
} cli_run;

/* Run `fn` into `out`. CLI_OK, or CLI_FAIL with the error printed (a failed
 * verification included: OUTPUT must then not be written). */
int cli_run_op(cli_run *r, cli_op_fn fn, const void *op, void *out, size_t out_bytes);
/* Report lines (unless quiet): the device first, then the caller's lines,
 * then cli_report_timing for the kernel / CPU times and the verification. */
void cli_report_device(const cli_run *r);
void cli_report_timing(const cli_run *r, size_t out_bytes);
/* Release the context. */
void cli_run_free(cli_run *r);

/* Subcommands: each takes argv starting at the subcommand name, returns an exit code. */
int cmd_pad(int argc, char **argv);
int cmd_space_to_batch(int argc, char **argv);
int cmd_batch_to_space(int argc, char **argv);
int cmd_shape(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_letterbox(int argc, char **argv);
int cmd_pad_stack(int argc, char **argv);

#endif
