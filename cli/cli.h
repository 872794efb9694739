/* Shared declarations of the clpad command-line program. */
#ifndef CLPAD_CLI_H
#define CLPAD_CLI_H

#include "clpad.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 success; 2 a usage error, one the command line alone shows
 * (an unknown option, a malformed list, options that exclude each other, an
 * unknown file extension); 1 everything else: a failure while running, and
 * an error that depends on the input (pads that do not match its rank, a
 * --value out of its dtype's range, a missing file). */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Print "clpad: error: <message>" on stderr; returns `code` for `return cli_error(...)`. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "clpad: <message>" on stderr unless quiet. */
void cli_note(bool quiet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse a comma-separated list of int64 ("1,-2,3") for option `opt` (named in
 * errors). Spaces and tabs around a value are allowed (" 1 , 2 "), before and
 * after alike. At most `cap` values; "" (or only spaces) is the empty list
 * (rank 0). Empty items ("1,,2"), junk, overflow: error message printed,
 * returns false. */
bool cli_parse_i64_list(const char *text, const char *opt, int64_t *out, int cap, int *count);

/* Whether --value's text is a value of some dtype (an integer, a number,
 * nan, inf, true, false): if not, the command line alone is wrong (exit 2);
 * if it is but does not fit the input's dtype, the input decides (exit 1). */
bool cli_value_text_valid(const char *text);

/* --quality Q: a JPEG quality, 1..100 (error message printed, false). */
bool cli_parse_quality(const char *text, int *quality);

/* The data of a command's output tensor, whose dtype, rank and shape are
 * set (a shape the library computed, so its byte count fits): out->nbytes
 * and out->data (malloc'd). CLI_OK, or CLI_FAIL with the error printed. */
struct tio_tensor;
int cli_alloc_output(struct tio_tensor *out);

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

/* The options every data-movement subcommand takes, by their getopt codes:
 * 'd' --device, 'C' --cpu, 'Y' --verify, 'q' --quiet into r, and 'Q'
 * --quality into *quality. 1: `c` was one of them; 0: it was not; -1: a
 * bad --quality (the message printed). */
int cli_run_opt(int c, const char *arg, cli_run *r, int *quality);
/* Their help lines (and --help's), the descriptions at column `col`. */
void cli_run_usage(FILE *f, int col);
/* Run `fn` into `out`. CLI_OK, or CLI_FAIL with the error printed (a failed
 * verification included: OUTPUT must then not be written). */
int cli_run_op(cli_run *r, cli_op_fn fn, const void *op, void *out, size_t out_bytes);
/* Report lines (unless quiet): the device first, then the caller's lines,
 * then cli_report_timing for the kernel / CPU times and the verification. */
void cli_report_device(const cli_run *r);
void cli_report_timing(const cli_run *r, size_t out_bytes);
/* Release the context. */
void cli_run_free(cli_run *r);
/* An output of a command, for cli_check_paths: its path (NULL: not given)
 * and how the command line names it ("OUTPUT", "--preview"). */
typedef struct cli_output {
    const char *label, *path;
} cli_output;
/* Every command's checks before any input is read: each of the n inputs
 * has a format it can load (else CLI_USAGE); each output can be written
 * (directory, permissions, what its links name; else CLI_FAIL); no two
 * outputs are one file, and no output is one of the inputs (the same inode
 * where the file exists, through links; the same resolved path for a new
 * name: tio_file_id_of; else CLI_USAGE). CLI_OK, or the error printed and
 * its exit code returned. */
int cli_check_paths(char *const *inputs, size_t n, const cli_output *outputs, size_t n_outputs);

/* The checks of a command with one INPUT (input[0]) and one OUTPUT before
 * INPUT is read: OUTPUT's format is one tio saves, --quality (non-zero)
 * only with a JPEG OUTPUT (else CLI_USAGE), then cli_check_paths: OUTPUT
 * can be written and is not INPUT. CLI_OK, or the error printed and its
 * exit code returned. */
int cli_check_output(const char *command, char *const *input, const char *out_path, int quality);

/* An output file of a command: a tensor (t), or bytes as they are (data,
 * len); path NULL: the option was not given. */
typedef struct cli_file {
    const char *path;
    const struct tio_tensor *t;
    const void *data;
    size_t len;
} cli_file;
/* Write a command's outputs as one set, all or nothing (tensor_io.h,
 * tio_output_set_open): every temporary file first, then every rename in
 * one step, during which SIGINT, SIGTERM and SIGHUP wait. `jpeg_quality`:
 * 0 for the default. CLI_OK, or CLI_FAIL with the error printed (nothing
 * written, but for a rename that fails midway, which the message says). */
int cli_save_outputs(const cli_file *files, size_t n, int jpeg_quality);

/* Subcommands: each takes argv starting at the subcommand name, returns an exit code. */
int cmd_pad(int argc, char **argv);
int cmd_space_to_batch(int argc, char **argv);
int cmd_batch_to_space(int argc, char **argv);
int cmd_shape(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_letterbox(int argc, char **argv);
int cmd_pad_stack(int argc, char **argv);
/* clpad letterbox with --input-format other than packed (cmd_letterbox_yuv.c):
 * the frames of the inputs (raw files of frames of frame_size {W, H}, or
 * .npy) as one batch by the options into out_path; releases run. */
int cli_letterbox_yuv(const clpad_letterbox_options *o, const int64_t frame_size[2],
                      char *const *inputs, size_t n_inputs, const char *out_path, cli_run *run);

#endif
