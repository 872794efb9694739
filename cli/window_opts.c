/* The window-geometry options of the command line (cli/window_opts.h):
 * their parsing, the call into the library (include/clpad_window.h) and
 * their help text, for `clpad shape` and the subcommands that pad "the same
 * as" a window. */
#include "cli.h"
#include "window_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------- */
/* Shared window options                                                     */
/* ------------------------------------------------------------------------- */

void cli_window_init(struct cli_window_opts *w)
{
    memset(w, 0, sizeof *w);
    w->op = CLPAD_WINDOW_CONV;
    w->rounding = CLPAD_OV_FLOOR;
}

int cli_window_set_op(struct cli_window_opts *w, const char *name)
{
    clpad_window_op op;
    if (clpad_window_op_from_name(name, &op) != CLPAD_OK)
        return cli_error(CLI_USAGE, "unknown window '%s' (expected conv, deconv or pool)", name);
    w->op = op;
    w->have_op = true;
    return CLI_OK;
}

void cli_window_set_input(struct cli_window_opts *w, int naxes, const int64_t *sizes)
{
    if (naxes < 0)
        naxes = 0;
    if (naxes > CLPAD_MAX_RANK)
        naxes = CLPAD_MAX_RANK;
    memcpy(w->input.v, sizes, (size_t)naxes * sizeof *sizes);
    w->input.n = naxes;
    w->input_from_tensor = true;
}

static const char *option_name(int opt)
{
    switch (opt) {
    case CLI_WOPT_INPUT: return "--input";
    case CLI_WOPT_KERNEL: return "--kernel";
    case CLI_WOPT_STRIDE: return "--stride";
    case CLI_WOPT_DILATION: return "--dilation";
    case CLI_WOPT_TRT: return "--trt";
    case CLI_WOPT_TF: return "--tf";
    case CLI_WOPT_ONNX: return "--onnx";
    case CLI_WOPT_OPENVINO: return "--openvino";
    case CLI_WOPT_TORCH: return "--torch";
    case CLI_WOPT_PADS_BEGIN: return "--window-pads-begin";
    case CLI_WOPT_PADS_END: return "--window-pads-end";
    case CLI_WOPT_ONNX_PADS: return "--onnx-pads";
    case CLI_WOPT_CEIL_MODE: return "--ceil-mode";
    case CLI_WOPT_ROUNDING: return "--rounding";
    case CLI_WOPT_OUTPUT_PADDING: return "--output-padding";
    case CLI_WOPT_OUTPUT_SHAPE: return "--output-shape";
    default: return "?";
    }
}

/* The list an option sets, or NULL. */
static struct cli_window_list *list_of(struct cli_window_opts *w, int opt)
{
    switch (opt) {
    case CLI_WOPT_INPUT: return &w->input;
    case CLI_WOPT_KERNEL: return &w->kernel;
    case CLI_WOPT_STRIDE: return &w->stride;
    case CLI_WOPT_DILATION: return &w->dilation;
    case CLI_WOPT_PADS_BEGIN: return &w->pads_begin;
    case CLI_WOPT_PADS_END: return &w->pads_end;
    case CLI_WOPT_ONNX_PADS: return &w->onnx_pads;
    case CLI_WOPT_OUTPUT_PADDING: return &w->output_padding;
    case CLI_WOPT_OUTPUT_SHAPE: return &w->output_shape;
    default: return NULL;
    }
}

static int parse_list(const char *arg, int opt, struct cli_window_list *l, int cap)
{
    if (!cli_parse_i64_list(arg, option_name(opt), l->v, cap, &l->n))
        return CLI_USAGE;
    return CLI_OK;
}

static int set_convention(struct cli_window_opts *w, enum cli_window_convention conv,
                          const char *option, int mode)
{
    if (w->conv != CLI_WIN_NONE)
        return cli_error(CLI_USAGE, "%s conflicts with %s: give one convention", option,
                         w->conv_option);
    w->conv = conv;
    w->conv_option = option;
    w->mode = mode;
    return CLI_OK;
}

/* The library's name functions of a mode enum, the enum as an int. */
#define INT_PARSER(type)                                                                  \
    static clpad_status type##_parse(const char *name, int *mode)                         \
    {                                                                                     \
        type m = (type)0;                                                                 \
        clpad_status st = type##_from_name(name, &m);                                     \
        *mode = (int)m;                                                                   \
        return st;                                                                        \
    }                                                                                     \
    static const char *type##_text(int mode) { return type##_name((type)mode); }
INT_PARSER(clpad_trt_padding)
INT_PARSER(clpad_tf_padding)
INT_PARSER(clpad_onnx_auto_pad)
INT_PARSER(clpad_ov_auto_pad)
#undef INT_PARSER

/* The convention options whose argument is a mode name: an unknown one is
 * "<option>: unknown <what> '<arg>' (expected <expected>)"; `label` and
 * `text` describe the convention and its mode (cli_window_describe). */
static const struct named_convention {
    int opt;
    enum cli_window_convention conv;
    const char *option, *what, *expected, *label;
    clpad_status (*parse)(const char *name, int *mode);
    const char *(*text)(int mode);
} named_conventions[] = {
    {CLI_WOPT_TRT, CLI_WIN_TRT, "--trt", "TensorRT padding mode",
     "explicit-round-down, explicit-round-up, same-upper or same-lower", "tensorrt",
     clpad_trt_padding_parse, clpad_trt_padding_text},
    {CLI_WOPT_TF, CLI_WIN_TF, "--tf", "padding", "SAME, VALID or EXPLICIT", "tf",
     clpad_tf_padding_parse, clpad_tf_padding_text},
    {CLI_WOPT_ONNX, CLI_WIN_ONNX, "--onnx", "auto_pad", "NOTSET, VALID, SAME_UPPER or SAME_LOWER",
     "onnx", clpad_onnx_auto_pad_parse, clpad_onnx_auto_pad_text},
    {CLI_WOPT_OPENVINO, CLI_WIN_OPENVINO, "--openvino", "auto_pad",
     "explicit, same_upper, same_lower or valid", "openvino", clpad_ov_auto_pad_parse,
     clpad_ov_auto_pad_text},
};

static int named_convention(struct cli_window_opts *w, const struct named_convention *c,
                            const char *arg)
{
    int mode = 0;
    if (c->parse(arg, &mode) != CLPAD_OK)
        return cli_error(CLI_USAGE, "%s: unknown %s '%s' (expected %s)", c->option, c->what,
                         arg, c->expected);
    return set_convention(w, c->conv, c->option, mode);
}

int cli_window_parse_opt(int opt, const char *arg, struct cli_window_opts *w)
{
    for (size_t k = 0; k < sizeof named_conventions / sizeof *named_conventions; k++)
        if (named_conventions[k].opt == opt)
            return named_convention(w, &named_conventions[k], arg);
    struct cli_window_list *list = list_of(w, opt);
    if (list)
        return parse_list(arg, opt, list,
                          opt == CLI_WOPT_ONNX_PADS ? 2 * CLPAD_MAX_RANK : CLPAD_MAX_RANK);
    switch (opt) {
    case CLI_WOPT_CEIL_MODE:
        w->ceil_mode = true;
        return CLI_OK;
    case CLI_WOPT_ROUNDING: {
        clpad_ov_rounding rd;
        if (clpad_ov_rounding_from_name(arg, &rd) != CLPAD_OK)
            return cli_error(CLI_USAGE, "--rounding: unknown '%s' (expected floor, ceil or "
                                        "ceil_torch)",
                             arg);
        w->rounding = rd;
        w->have_rounding = true;
        return CLI_OK;
    }
    case CLI_WOPT_TORCH: {
        clpad_torch_padding m;
        if (clpad_torch_padding_from_name(arg, &m) == CLPAD_OK &&
            m != CLPAD_TORCH_EXPLICIT)
            return set_convention(w, CLI_WIN_TORCH, "--torch", (int)m);
        int rc = set_convention(w, CLI_WIN_TORCH, "--torch", CLPAD_TORCH_EXPLICIT);
        if (rc != CLI_OK)
            return rc;
        if (!cli_parse_i64_list(arg, "--torch (same, valid or a padding list)",
                                w->torch_pads.v, CLPAD_MAX_RANK, &w->torch_pads.n))
            return CLI_USAGE;
        return CLI_OK;
    }
    default:
        return CLI_WINDOW_NOT_MINE;
    }
}

/* A list whose length does not match the spatial axes: a usage error when
 * --input gave them, an error of the input when its tensor did. */
static int axes_mismatch(const struct cli_window_opts *w, const char *name, int n, int naxes)
{
    if (w->input_from_tensor)
        return cli_error(CLI_FAIL, "%s has %d value%s; INPUT has %d spatial axes (give %d "
                                   "values, or 1 for all)",
                         name, n, n == 1 ? "" : "s", naxes, naxes);
    return cli_error(CLI_USAGE, "%s has %d value%s; --input has %d axes (give %d values, or 1 "
                                "for all)",
                     name, n, n == 1 ? "" : "s", naxes, naxes);
}

/* Expand a list to naxes values: n == naxes as is, n == 1 broadcast. */
static int expand(const struct cli_window_opts *w, const char *name,
                  const struct cli_window_list *l, int naxes, int64_t *out)
{
    if (l->n == naxes) {
        memcpy(out, l->v, (size_t)naxes * sizeof *out);
        return CLI_OK;
    }
    if (l->n == 1) {
        for (int i = 0; i < naxes; i++)
            out[i] = l->v[0];
        return CLI_OK;
    }
    return axes_mismatch(w, name, l->n, naxes);
}

/* Expand an optional list: NULL when not given. */
static int expand_opt(const struct cli_window_opts *w, const char *name,
                      const struct cli_window_list *l, int naxes, int64_t *buf,
                      const int64_t **out)
{
    *out = NULL;
    if (l->n == 0)
        return CLI_OK;
    int rc = expand(w, name, l, naxes, buf);
    if (rc == CLI_OK)
        *out = buf;
    return rc;
}

static int not_with(const char *option, const struct cli_window_opts *w, const char *why)
{
    return cli_error(CLI_USAGE, "%s does not apply to %s%s%s", option, w->conv_option,
                     why ? " " : "", why ? why : "");
}

/* The arrays of one library call, expanded to naxes values. */
struct window_args {
    int64_t kernel[CLPAD_MAX_RANK], sbuf[CLPAD_MAX_RANK], dbuf[CLPAD_MAX_RANK];
    int64_t bbuf[CLPAD_MAX_RANK], ebuf[CLPAD_MAX_RANK], tbuf[CLPAD_MAX_RANK];
    int64_t opbuf[CLPAD_MAX_RANK], osbuf[CLPAD_MAX_RANK], onnx[2 * CLPAD_MAX_RANK];
    const int64_t *stride, *dilation, *pb, *pe, *tp, *outpad, *outshape, *onnx_pads;
};

/* The chosen convention's library function; with_pads = false leaves the
 * explicit pads out (NULL). */
static clpad_status call_library(const struct cli_window_opts *w, const struct window_args *a,
                                 bool with_pads, clpad_window_result *r)
{
    int naxes = w->input.n;
    const int64_t *pb = with_pads ? a->pb : NULL, *pe = with_pads ? a->pe : NULL;
    switch (w->conv) {
    case CLI_WIN_TRT:
        return clpad_window_tensorrt(w->op, (clpad_trt_padding)w->mode, naxes, w->input.v,
                                     a->kernel, a->stride, a->dilation, pb, pe, r);
    case CLI_WIN_TF:
        if (a->outpad) /* Keras' Conv*DTranspose(output_padding=...) */
            return clpad_window_keras(w->op, (clpad_tf_padding)w->mode, naxes, w->input.v,
                                      a->kernel, a->stride, a->dilation, a->outpad, r);
        return clpad_window_tf(w->op, (clpad_tf_padding)w->mode, naxes, w->input.v, a->kernel,
                               a->stride, a->dilation, pb, pe, a->outshape, r);
    case CLI_WIN_ONNX:
        return clpad_window_onnx(w->op, (clpad_onnx_auto_pad)w->mode, naxes, w->input.v,
                                 a->kernel, a->stride, a->dilation,
                                 with_pads ? a->onnx_pads : NULL, w->ceil_mode, a->outpad,
                                 a->outshape, r);
    case CLI_WIN_OPENVINO:
        return clpad_window_openvino(w->op, (clpad_ov_auto_pad)w->mode, w->rounding, naxes,
                                     w->input.v, a->kernel, a->stride, a->dilation, pb, pe,
                                     a->outpad, a->outshape, r);
    default:
        return clpad_window_torch(w->op, (clpad_torch_padding)w->mode, naxes, w->input.v,
                                  a->kernel, a->stride, a->dilation, a->tp, w->ceil_mode,
                                  a->outpad, r);
    }
}

int cli_window_compute(const struct cli_window_opts *w, clpad_window_result *r)
{
    int naxes = w->input.n;
    if (naxes == 0)
        return cli_error(CLI_USAGE, "--input I1,I2,... (the spatial input sizes) is required");
    if (w->kernel.n == 0)
        return cli_error(CLI_USAGE, "--kernel K1,K2,... is required");
    if (w->conv == CLI_WIN_NONE)
        return cli_error(CLI_USAGE, "give a convention: --trt (TensorRT), --tf, --onnx, "
                                    "--openvino or --torch");

    /* Options the chosen convention has no parameter for: the command line
     * is wrong. The rest is the library's to judge, by the convention's own
     * rules (ceil_mode or rounding outside pooling, output_padding or
     * output_shape outside deconv, TF or ONNX pads with a mode that computes
     * its own, the limits): it refuses with its message, exit status 1. */
    bool has_pads = w->pads_begin.n || w->pads_end.n;
    if (w->ceil_mode && w->conv != CLI_WIN_ONNX && w->conv != CLI_WIN_TORCH)
        return not_with("--ceil-mode", w, "(ONNX and PyTorch only; OpenVINO has --rounding)");
    if (w->have_rounding && w->conv != CLI_WIN_OPENVINO)
        return not_with("--rounding", w, NULL);
    if (w->output_padding.n && w->conv == CLI_WIN_TRT)
        return not_with("--output-padding", w, NULL);
    /* --tf with --output-padding: Keras' Conv*DTranspose(output_padding=...) */
    if (w->output_padding.n && w->conv == CLI_WIN_TF && w->mode == CLPAD_TF_EXPLICIT)
        return not_with("--output-padding", w, "EXPLICIT (Keras has \"same\" and \"valid\")");
    if (w->output_padding.n && w->output_shape.n && w->conv == CLI_WIN_TF)
        return cli_error(CLI_USAGE, "--output-padding (Keras) and --output-shape "
                                    "(tf.nn.conv2d_transpose) exclude each other with --tf");
    if (w->output_shape.n && (w->conv == CLI_WIN_TRT || w->conv == CLI_WIN_TORCH))
        return not_with("--output-shape", w, NULL);
    if (w->onnx_pads.n && w->conv != CLI_WIN_ONNX)
        return not_with("--onnx-pads (ONNX's flat layout)", w,
                        "(use --window-pads-begin / --window-pads-end)");
    if (w->onnx_pads.n && has_pads)
        return cli_error(CLI_USAGE,
                         "--onnx-pads conflicts with --window-pads-begin / --window-pads-end");
    if (has_pads && w->conv == CLI_WIN_TORCH)
        return not_with("--window-pads-begin / --window-pads-end", w,
                        "(PyTorch pads both sides: --torch P1,P2,...)");

    struct window_args a;
    memset(&a, 0, sizeof a);
    int rc;
    if ((rc = expand(w, "--kernel", &w->kernel, naxes, a.kernel)) != CLI_OK ||
        (rc = expand_opt(w, "--stride", &w->stride, naxes, a.sbuf, &a.stride)) != CLI_OK ||
        (rc = expand_opt(w, "--dilation", &w->dilation, naxes, a.dbuf, &a.dilation)) != CLI_OK ||
        (rc = expand_opt(w, "--window-pads-begin", &w->pads_begin, naxes, a.bbuf, &a.pb)) !=
            CLI_OK ||
        (rc = expand_opt(w, "--window-pads-end", &w->pads_end, naxes, a.ebuf, &a.pe)) !=
            CLI_OK ||
        (rc = expand_opt(w, "--torch", &w->torch_pads, naxes, a.tbuf, &a.tp)) != CLI_OK ||
        (rc = expand_opt(w, "--output-padding", &w->output_padding, naxes, a.opbuf,
                         &a.outpad)) != CLI_OK ||
        (rc = expand_opt(w, "--output-shape", &w->output_shape, naxes, a.osbuf,
                         &a.outshape)) != CLI_OK)
        return rc;
    if (w->onnx_pads.n) {
        if (w->onnx_pads.n != 2 * naxes)
            return cli_error(w->input_from_tensor ? CLI_FAIL : CLI_USAGE,
                             "--onnx-pads has %d values; ONNX pads need 2 x %d "
                             "(x1_begin, x2_begin, ..., x1_end, x2_end)",
                             w->onnx_pads.n, naxes);
        a.onnx_pads = w->onnx_pads.v;
    } else if (w->conv == CLI_WIN_ONNX && (a.pb || a.pe)) {
        for (int i = 0; i < naxes; i++) {
            a.onnx[i] = a.pb ? a.pb[i] : 0;
            a.onnx[naxes + i] = a.pe ? a.pe[i] : 0;
        }
        a.onnx_pads = a.onnx;
    }
    if (call_library(w, &a, true, r) != CLPAD_OK)
        return cli_error(CLI_FAIL, "%s", clpad_last_error());

    /* Pads the convention ignores (TensorRT's SAME modes "take precedence",
     * OpenVINO's automatic ones): the library follows the framework and
     * ignores them, a command line that gives them is surely mistaken (as
     * --value with another pad mode). The library says so itself: the window
     * is the same without them and with every one of them one larger. Both
     * are needed: OpenVINO's explicit deconv given its output shape keeps
     * pads_begin and ignores pads_end, and with pads_begin 0 the window
     * without pads is the same although the pads are not ignored. */
    bool nonzero = false;
    for (int i = 0; i < naxes; i++)
        nonzero |= (a.pb && a.pb[i]) || (a.pe && a.pe[i]) ||
                   (a.onnx_pads && (a.onnx_pads[i] || a.onnx_pads[naxes + i]));
    clpad_window_result r0, r1;
    clpad_window_result_init(&r0);
    clpad_window_result_init(&r1);
    struct window_args a1 = a;
    for (int i = 0; i < naxes; i++) {
        a1.bbuf[i] = (a.pb ? a.pb[i] : 0) + 1;
        a1.ebuf[i] = (a.pe ? a.pe[i] : 0) + 1;
    }
    for (int i = 0; a.onnx_pads && i < 2 * naxes; i++)
        a1.onnx[i] = a.onnx_pads[i] + 1;
    a1.pb = a.pb ? a1.bbuf : NULL;
    a1.pe = a.pe ? a1.ebuf : NULL;
    a1.onnx_pads = a.onnx_pads ? a1.onnx : NULL;
    if (nonzero && call_library(w, &a, false, &r0) == CLPAD_OK &&
        memcmp(&r0, r, sizeof r0) == 0 && call_library(w, &a1, true, &r1) == CLPAD_OK &&
        memcmp(&r1, r, sizeof r1) == 0) {
        char d[160];
        return cli_error(CLI_USAGE,
                         "%s ignores explicit window pads (it computes its own); give them "
                         "with an explicit mode",
                         cli_window_describe(w, d, sizeof d));
    }
    return CLI_OK;
}

const char *cli_window_describe(const struct cli_window_opts *w, char *buf, size_t len)
{
    const char *conv = "?", *mode = "?";
    for (size_t k = 0; k < sizeof named_conventions / sizeof *named_conventions; k++)
        if (named_conventions[k].conv == w->conv) {
            conv = named_conventions[k].label;
            mode = named_conventions[k].text(w->mode);
        }
    if (w->conv == CLI_WIN_TF && w->output_padding.n)
        conv = "keras"; /* (Keras' transposed convolution with output_padding) */
    if (w->conv == CLI_WIN_TORCH) {
        conv = "torch";
        mode = clpad_torch_padding_name((clpad_torch_padding)w->mode);
    }
    snprintf(buf, len, "%s, %s %s%s%s%s", clpad_window_op_name(w->op), conv, mode ? mode : "?",
             w->ceil_mode ? " ceil_mode" : "", w->have_rounding ? " rounding=" : "",
             w->have_rounding ? clpad_ov_rounding_name(w->rounding) : "");
    return buf;
}

void cli_window_opt_line(FILE *f, const char *opt, const char *text)
{
    fprintf(f, "  %-26s %s\n", opt, text);
}

void cli_window_usage(FILE *f, bool shape)
{
    if (shape)
        cli_window_opt_line(f, "--input I1,I2,...", "spatial input sizes (e.g. H,W)");
    cli_window_opt_line(f, "--kernel K1,K2,...", "kernel (filter) size per axis");
    cli_window_opt_line(f, "--stride S1,S2,...", "stride (default 1; PyTorch pooling: the kernel)");
    cli_window_opt_line(f, "--dilation D1,D2,...", "dilation (default 1)");
    cli_window_opt_line(f, "--trt MODE", "TensorRT PaddingMode: explicit-round-down,");
    cli_window_opt_line(f, "", "explicit-round-up, same-upper, same-lower");
    cli_window_opt_line(f, "--tf SAME|VALID|EXPLICIT", "TensorFlow padding");
    cli_window_opt_line(f, "--onnx AUTO_PAD", "ONNX auto_pad: NOTSET, VALID, SAME_UPPER, SAME_LOWER");
    cli_window_opt_line(f, "--openvino AUTO_PAD", "OpenVINO auto_pad: explicit, same_upper, same_lower,");
    cli_window_opt_line(f, "", "valid");
    cli_window_opt_line(f, "--torch same|valid|P1,...", "PyTorch padding (P: both sides of each axis)");
    cli_window_opt_line(f, "--window-pads-begin LIST", "explicit pads before each axis (explicit modes)");
    cli_window_opt_line(f, "--window-pads-end LIST", "explicit pads after each axis");
    cli_window_opt_line(f, "--onnx-pads LIST", "ONNX flat pads x1_begin,x2_begin,...,x1_end,x2_end");
    cli_window_opt_line(f, "--ceil-mode", "round up (ONNX, PyTorch pooling); a last window");
    cli_window_opt_line(f, "", "starting in the end padding is dropped");
    cli_window_opt_line(f, "--rounding floor|ceil|...", "OpenVINO pooling rounding_type: floor, ceil,");
    cli_window_opt_line(f, "", "ceil_torch (ceil, dropping a last window in the padding)");
    cli_window_opt_line(f, "--output-padding LIST", "deconv: extra output at the end (ONNX, OpenVINO,");
    cli_window_opt_line(f, "", "PyTorch; with --tf: Keras' Conv*DTranspose)");
    cli_window_opt_line(f, "--output-shape LIST", "deconv: requested output size (TF, ONNX, OpenVINO)");
    if (!shape)
        fprintf(f, "A list of one value applies to every axis.\n");
}
