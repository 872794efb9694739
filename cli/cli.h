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
/* The usage error of getopt's answer `c` for subcommand `cmd`: ':' (option
 * `arg` needs a value) or anything else (an unknown option `arg`). */
int cli_bad_option(const char *cmd, int c, const char *arg);
/* The usage error of a named option whose lookup failed: "--NAME: <the
 * library's message>", NAME the long name of `c` in `opts`. */
struct option;
int cli_name_error(const struct option *opts, int c);
/* The long name of getopt code `c` in `opts` ("?" if none). */
const char *cli_long_name(const struct option *opts, int c);
/* Print "clpad: <message>" on stderr unless quiet. */
void cli_note(bool quiet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse a comma-separated list of int64 ("1,-2,3") for option `opt` (named in
 * errors). Spaces and tabs around a value are allowed (" 1 , 2 "), before and
 * after alike. At most `cap` values; "" (or only spaces) is the empty list
 * (rank 0). Empty items ("1,,2"), junk, overflow: error message printed,
 * returns false. */
bool cli_parse_i64_list(const char *text, const char *opt, int64_t *out, int cap, int *count);

/* One integer from `lo` to `hi` for option `opt` (hi INT64_MAX: no upper
 * bound); else the message printed ("is not a number from LO to HI", or
 * ">= LO") and false. */
bool cli_parse_int(const char *text, const char *opt, int64_t lo, int64_t hi, int64_t *v);
/* For option `opt`: `text` is one of the NULL-ended `names` (compared
 * exactly), names[k] meaning values[k], into *out; else the message printed
 * ("is not A, B or C") and false. */
bool cli_pick(const char *text, const char *opt, const char *const *names, const int *values,
              int *out);

/* Whether --value's text is a value of some dtype (an integer, a number,
 * nan, inf, true, false): if not, the command line alone is wrong (exit 2);
 * if it is but does not fit the input's dtype, the input decides (exit 1). */
bool cli_value_text_valid(const char *text);

/* --value of subcommand `cmd`, before the dtype is known: one value of any
 * dtype, or a list per axis (comma-separated), each V or BEFORE:AFTER
 * (numpy.pad's per-side constant_values). *per_side: the list form.
 * `constant`: some axis pads with constants (else a --value is refused,
 * naming `mode`). CLI_USAGE (message printed) for a malformed text or a
 * --value without constants; text may be NULL. */
int cli_value_form(const char *cmd, const char *text, bool constant, clpad_pad_mode mode,
                   bool *per_side);
/* A --value list's sides for a tensor of `dtype` and `rank` (`two_axes`:
 * also two entries, an image's H,W; the rest stay as they are): 2 * rank
 * values of the dtype [before axis 0, after axis 0, ...], the
 * clpad_pad_options.side_values table. CLI_FAIL (message printed, naming
 * `what`) for a value out of the dtype or a count that does not fit. */
int cli_value_sides(const char *text, clpad_dtype dtype, int rank, bool two_axes,
                    const char *what, unsigned char *sides);

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
    bool parsing; /* cli_getopt has begun */
    /* filled by cli_run_op */
    clpad_context *ctx;
    clpad_run_info info;   /* the timed call */
    uint64_t first_ns;     /* the first call, program build included (0 on the CPU path) */
    uint64_t cpu_ns;       /* the CPU reference, with --verify */
} cli_run;

/* A subcommand's option that takes an int64 list (cli_parse_i64_list): its
 * getopt code, its name, where its values (at most `cap`) and their count go. */
typedef struct cli_list_opt {
    int c;
    const char *name;
    int64_t *values;
    int cap;
    int *count;
} cli_list_opt;

/* getopt_long over a data-movement subcommand's options, taking in the ones
 * it shares, by their getopt codes: 'd' --device, 'C' --cpu, 'Y' --verify,
 * 'q' --quiet into r, 'Q' --quality into *quality (NULL: not taken), and
 * the subcommand's int64 lists, `lists` (ended by c == 0). Returns the next
 * option that is the caller's, -1 at the end, or CLI_OPT_BAD after a bad
 * --quality or list (the message printed). The first call for `r` starts
 * from argv[1] (optind = 1), with getopt's own messages off (opterr = 0). */
enum { CLI_OPT_BAD = -2 };
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *opts,
               cli_run *r, int *quality, const cli_list_opt *lists);
/* After the options of subcommand `cmd`: CLI_USAGE (message printed) when
 * --cpu and --device are both given, else CLI_OK. */
int cli_run_check(const char *cmd, const cli_run *r);
/* Their help lines (and --help's), the descriptions at column `col`. */
void cli_run_usage(FILE *f, int col);
/* Run `fn` into `out`. CLI_OK, or CLI_FAIL with the error printed (a failed
 * verification included: OUTPUT must then not be written). */
int cli_run_op(cli_run *r, cli_op_fn fn, const void *op, void *out, size_t out_bytes);
/* The steps from a computed output shape to its data: check that `saved`
 * (dtype, rank, shape; NULL: `out`) can be written to `path`, allocate `out`
 * (cli_alloc_output) and run `fn` into it (cli_run_op). CLI_OK, or CLI_FAIL
 * with the error printed. */
int cli_run_into(cli_run *r, const char *path, const struct tio_tensor *saved,
                 struct tio_tensor *out, cli_op_fn fn, const void *op);
/* Save `t` to `path` with --quality `quality` (0: the default). CLI_OK, or
 * CLI_FAIL with the error printed. */
int cli_save(const char *path, const struct tio_tensor *t, int quality);
/* Report lines (unless quiet): the device first, then the caller's lines,
 * then cli_report_timing for the kernel / CPU times and the verification. */
void cli_report_device(const cli_run *r);
/* cli_report_device, then the line of the input tensor `in` read from `path`. */
void cli_report_input(const cli_run *r, const struct tio_tensor *in, const char *path);
/* The line of the output `out` written to `path` ("output: SHAPE DTYPE, <fmt
 * ...> (path)"; fmt NULL: no ", ..."), then cli_report_timing. CLI_OK. */
int cli_report_output(const cli_run *r, const struct tio_tensor *out, const char *path,
                      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
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
