/* Window-geometry options of the clpad command line (docs/spec.md section 4),
 * shared by `clpad shape` and any subcommand that pads "the same as" a conv /
 * pool window.
 *
 * Use:
 *     struct cli_window_opts w;
 *     cli_window_init(&w);
 *     static const struct option opts[] = {CLI_WINDOW_OPTIONS, ..., {0, 0, 0, 0}};
 *     while ((c = getopt_long(...)) != -1) {
 *         int rc = cli_window_parse_opt(c, optarg, &w);
 *         if (rc == CLI_WINDOW_NOT_MINE) { ...the subcommand's own options... }
 *         else if (rc != CLI_OK) return rc;
 *     }
 *     cli_window_set_op(&w, "conv");            (or from a positional / --same-as)
 *     cli_window_set_input(&w, naxes, sizes);   (if there is no --input)
 *     clpad_window_result r;
 *     int rc = cli_window_compute(&w, &r);      (prints its own error message)
 *
 * One spelling for each idea in every subcommand: TensorRT's mode is --trt
 * (--mode is the pad mode of `clpad pad`), explicit window pads are
 * --window-pads-begin / --window-pads-end (--pads-begin / --pads-end are the
 * Pad's own pads there), ONNX's flat pads --onnx-pads.
 * CLI_WINDOW_SHAPE_OPTIONS adds `clpad shape`'s --input, and its old
 * spellings, kept one release with a warning: --mode (= --trt),
 * --pads-begin, --pads-end, --pads (= --onnx-pads).
 * Every option value is a long-only code >= CLI_WOPT_BASE, so it cannot clash
 * with a short option character.
 */
#ifndef CLPAD_CLI_WINDOW_OPTS_H
#define CLPAD_CLI_WINDOW_OPTS_H

#include "cli.h"

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Option codes. */
enum {
    CLI_WOPT_BASE = 0x1000,
    CLI_WOPT_INPUT = CLI_WOPT_BASE,
    CLI_WOPT_KERNEL,
    CLI_WOPT_STRIDE,
    CLI_WOPT_DILATION,
    CLI_WOPT_TRT,
    CLI_WOPT_TF,
    CLI_WOPT_ONNX,
    CLI_WOPT_OPENVINO,
    CLI_WOPT_TORCH,
    CLI_WOPT_PADS_BEGIN,
    CLI_WOPT_PADS_END,
    CLI_WOPT_ONNX_PADS,
    CLI_WOPT_CEIL_MODE,
    CLI_WOPT_ROUNDING,
    CLI_WOPT_OUTPUT_PADDING,
    CLI_WOPT_OUTPUT_SHAPE,
    CLI_WOPT_END
};

/* Returned by cli_window_parse_opt() for an option code that is not one of these. */
#define CLI_WINDOW_NOT_MINE (-1)

/* getopt_long entries, for an options array (no terminator). */
#define CLI_WINDOW_OPTIONS                                                        \
    {"kernel", required_argument, NULL, CLI_WOPT_KERNEL},                         \
        {"stride", required_argument, NULL, CLI_WOPT_STRIDE},                     \
        {"dilation", required_argument, NULL, CLI_WOPT_DILATION},                 \
        {"trt", required_argument, NULL, CLI_WOPT_TRT},                           \
        {"tensorrt", required_argument, NULL, CLI_WOPT_TRT},                      \
        {"tf", required_argument, NULL, CLI_WOPT_TF},                             \
        {"onnx", required_argument, NULL, CLI_WOPT_ONNX},                         \
        {"openvino", required_argument, NULL, CLI_WOPT_OPENVINO},                 \
        {"torch", required_argument, NULL, CLI_WOPT_TORCH},                       \
        {"window-pads-begin", required_argument, NULL, CLI_WOPT_PADS_BEGIN},      \
        {"window-pads-end", required_argument, NULL, CLI_WOPT_PADS_END},          \
        {"onnx-pads", required_argument, NULL, CLI_WOPT_ONNX_PADS},               \
        {"ceil-mode", no_argument, NULL, CLI_WOPT_CEIL_MODE},                     \
        {"rounding", required_argument, NULL, CLI_WOPT_ROUNDING},                 \
        {"output-padding", required_argument, NULL, CLI_WOPT_OUTPUT_PADDING},     \
        {"output-shape", required_argument, NULL, CLI_WOPT_OUTPUT_SHAPE}

#define CLI_WINDOW_SHAPE_OPTIONS {"input", required_argument, NULL, CLI_WOPT_INPUT}

/* Which convention an option chose. */
enum cli_window_convention {
    CLI_WIN_NONE = 0,
    CLI_WIN_TRT,      /* mode: clpad_trt_padding */
    CLI_WIN_TF,       /* mode: clpad_tf_padding */
    CLI_WIN_ONNX,     /* mode: clpad_onnx_auto_pad */
    CLI_WIN_OPENVINO, /* mode: clpad_ov_auto_pad */
    CLI_WIN_TORCH     /* mode: clpad_torch_padding */
};

/* A parsed list; n = 0 when the option was not given. */
struct cli_window_list {
    int64_t v[2 * CLPAD_MAX_RANK];
    int n;
};

struct cli_window_opts {
    clpad_window_op op;
    bool have_op;
    enum cli_window_convention conv;
    const char *conv_option; /* the option that chose it, for messages ("--tf") */
    int mode;
    struct cli_window_list input, kernel, stride, dilation;
    bool input_from_tensor; /* input set by cli_window_set_input, not --input */
    struct cli_window_list pads_begin, pads_end, onnx_pads, torch_pads;
    struct cli_window_list output_padding, output_shape;
    bool ceil_mode;
    bool have_rounding;
    clpad_ov_rounding rounding;
};

/* Zero state: no op, no convention, nothing given. */
void cli_window_init(struct cli_window_opts *w);

/* Set the window kind from "conv", "deconv", "pool" (or an alias); prints a
 * usage error and returns CLI_USAGE for an unknown name. */
int cli_window_set_op(struct cli_window_opts *w, const char *name);

/* Set the spatial input sizes (when they come from a tensor, not --input):
 * then a list that does not match them is an error of the input (CLI_FAIL),
 * not of the command line. */
void cli_window_set_input(struct cli_window_opts *w, int naxes, const int64_t *sizes);

/* Handle one getopt_long code with its argument: CLI_OK when taken,
 * CLI_USAGE after printing an error, CLI_WINDOW_NOT_MINE for another option. */
int cli_window_parse_opt(int opt, const char *arg, struct cli_window_opts *w);

/* Check the combination of options and compute the geometry: CLI_OK,
 * CLI_USAGE (missing or conflicting options, message printed) or CLI_FAIL
 * (the library refused; clpad_last_error() printed). */
int cli_window_compute(const struct cli_window_opts *w, clpad_window_result *r);

/* "conv, tf SAME", "pool, onnx NOTSET ceil_mode", "pool, openvino explicit rounding=ceil"... */
const char *cli_window_describe(const struct cli_window_opts *w, char *buf, size_t len);

/* Help lines for the options in CLI_WINDOW_OPTIONS (shape: also --input). */
void cli_window_usage(FILE *f, bool shape);
/* One line of option help in the window options' layout. */
void cli_window_opt_line(FILE *f, const char *opt, const char *text);

#endif
