/* `clpad shape`: output size and padding of a convolution, deconvolution or
 * pooling window in the TensorRT, TensorFlow, ONNX, OpenVINO or PyTorch
 * convention (SPEC §4, include/clpad_window.h). Also the window options shared
 * with other subcommands (cli/window_opts.h). */
#include "cli.h"
#include "window_opts.h"

#include <cjson/cJSON.h>
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
}

static const char *option_name(int opt)
{
    switch (opt) {
    case CLI_WOPT_INPUT: return "--input";
    case CLI_WOPT_KERNEL: return "--kernel";
    case CLI_WOPT_STRIDE: return "--stride";
    case CLI_WOPT_DILATION: return "--dilation";
    case CLI_WOPT_TRT: return "--mode";
    case CLI_WOPT_TF: return "--tf";
    case CLI_WOPT_ONNX: return "--onnx";
    case CLI_WOPT_OPENVINO: return "--openvino";
    case CLI_WOPT_TORCH: return "--torch";
    case CLI_WOPT_PADS_BEGIN: return "--pads-begin";
    case CLI_WOPT_PADS_END: return "--pads-end";
    case CLI_WOPT_ONNX_PADS: return "--pads";
    case CLI_WOPT_CEIL_MODE: return "--ceil-mode";
    case CLI_WOPT_ROUNDING: return "--rounding";
    case CLI_WOPT_OUTPUT_PADDING: return "--output-padding";
    case CLI_WOPT_OUTPUT_SHAPE: return "--output-shape";
    default: return "?";
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

int cli_window_parse_opt(int opt, const char *arg, struct cli_window_opts *w)
{
    switch (opt) {
    case CLI_WOPT_INPUT:
        return parse_list(arg, opt, &w->input, CLPAD_MAX_RANK);
    case CLI_WOPT_KERNEL:
        return parse_list(arg, opt, &w->kernel, CLPAD_MAX_RANK);
    case CLI_WOPT_STRIDE:
        return parse_list(arg, opt, &w->stride, CLPAD_MAX_RANK);
    case CLI_WOPT_DILATION:
        return parse_list(arg, opt, &w->dilation, CLPAD_MAX_RANK);
    case CLI_WOPT_PADS_BEGIN:
        return parse_list(arg, opt, &w->pads_begin, CLPAD_MAX_RANK);
    case CLI_WOPT_PADS_END:
        return parse_list(arg, opt, &w->pads_end, CLPAD_MAX_RANK);
    case CLI_WOPT_ONNX_PADS:
        return parse_list(arg, opt, &w->onnx_pads, 2 * CLPAD_MAX_RANK);
    case CLI_WOPT_OUTPUT_PADDING:
        return parse_list(arg, opt, &w->output_padding, CLPAD_MAX_RANK);
    case CLI_WOPT_OUTPUT_SHAPE:
        return parse_list(arg, opt, &w->output_shape, CLPAD_MAX_RANK);
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
    case CLI_WOPT_TRT: {
        clpad_trt_padding m;
        if (clpad_trt_padding_from_name(arg, &m) != CLPAD_OK)
            return cli_error(CLI_USAGE, "--mode: unknown TensorRT padding mode '%s' (expected "
                                        "explicit-round-down, explicit-round-up, same-upper "
                                        "or same-lower)",
                             arg);
        return set_convention(w, CLI_WIN_TRT, "--mode", (int)m);
    }
    case CLI_WOPT_TF: {
        clpad_tf_padding m;
        if (clpad_tf_padding_from_name(arg, &m) != CLPAD_OK)
            return cli_error(CLI_USAGE, "--tf: unknown padding '%s' (expected SAME, VALID or "
                                        "EXPLICIT)",
                             arg);
        return set_convention(w, CLI_WIN_TF, "--tf", (int)m);
    }
    case CLI_WOPT_ONNX: {
        clpad_onnx_auto_pad m;
        if (clpad_onnx_auto_pad_from_name(arg, &m) != CLPAD_OK)
            return cli_error(CLI_USAGE, "--onnx: unknown auto_pad '%s' (expected NOTSET, VALID, "
                                        "SAME_UPPER or SAME_LOWER)",
                             arg);
        return set_convention(w, CLI_WIN_ONNX, "--onnx", (int)m);
    }
    case CLI_WOPT_OPENVINO: {
        clpad_ov_auto_pad m;
        if (clpad_ov_auto_pad_from_name(arg, &m) != CLPAD_OK)
            return cli_error(CLI_USAGE, "--openvino: unknown auto_pad '%s' (expected explicit, "
                                        "same_upper, same_lower or valid)",
                             arg);
        return set_convention(w, CLI_WIN_OPENVINO, "--openvino", (int)m);
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

/* Expand a list to naxes values: n == naxes as is, n == 1 broadcast. */
static int expand(const char *name, const struct cli_window_list *l, int naxes, int64_t *out)
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
    return cli_error(CLI_USAGE, "%s has %d value%s; --input has %d axes (give %d values, or 1 "
                                "for all)",
                     name, l->n, l->n == 1 ? "" : "s", naxes, naxes);
}

/* Expand an optional list: NULL when not given. */
static int expand_opt(const char *name, const struct cli_window_list *l, int naxes,
                      int64_t *buf, const int64_t **out)
{
    *out = NULL;
    if (l->n == 0)
        return CLI_OK;
    int rc = expand(name, l, naxes, buf);
    if (rc == CLI_OK)
        *out = buf;
    return rc;
}

static int not_with(const char *option, const struct cli_window_opts *w, const char *why)
{
    return cli_error(CLI_USAGE, "%s does not apply to %s%s%s", option, w->conv_option,
                     why ? " " : "", why ? why : "");
}

int cli_window_compute(const struct cli_window_opts *w, clpad_window_result *r)
{
    int naxes = w->input.n;
    if (naxes == 0)
        return cli_error(CLI_USAGE, "--input I1,I2,... (the spatial input sizes) is required");
    if (w->kernel.n == 0)
        return cli_error(CLI_USAGE, "--kernel K1,K2,... is required");
    if (w->conv == CLI_WIN_NONE)
        return cli_error(CLI_USAGE, "give a convention: --mode (TensorRT), --tf, --onnx, "
                                    "--openvino or --torch");

    bool deconv = w->op == CLPAD_WINDOW_DECONV, pool = w->op == CLPAD_WINDOW_POOL;
    bool has_pads = w->pads_begin.n || w->pads_end.n;
    /* options that the convention or the op does not have */
    if (w->ceil_mode && w->conv != CLI_WIN_ONNX && w->conv != CLI_WIN_TORCH)
        return not_with("--ceil-mode", w, "(ONNX and PyTorch only; OpenVINO has --rounding)");
    if (w->ceil_mode && !pool)
        return cli_error(CLI_USAGE, "--ceil-mode applies to pool only");
    if (w->have_rounding && w->conv != CLI_WIN_OPENVINO)
        return not_with("--rounding", w, NULL);
    if (w->have_rounding && !pool && w->rounding != CLPAD_OV_FLOOR)
        return cli_error(CLI_USAGE, "--rounding %s applies to pool only",
                         clpad_ov_rounding_name(w->rounding));
    if (w->output_padding.n && !deconv)
        return cli_error(CLI_USAGE, "--output-padding applies to deconv only");
    if (w->output_shape.n && !deconv)
        return cli_error(CLI_USAGE, "--output-shape applies to deconv only");
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
        return not_with("--pads (ONNX flat layout)", w, "(use --pads-begin / --pads-end)");
    if (w->onnx_pads.n && has_pads)
        return cli_error(CLI_USAGE, "--pads conflicts with --pads-begin / --pads-end");
    if (has_pads || w->onnx_pads.n) {
        bool explicit_mode =
            (w->conv == CLI_WIN_TRT && (w->mode == CLPAD_TRT_EXPLICIT_ROUND_DOWN ||
                                        w->mode == CLPAD_TRT_EXPLICIT_ROUND_UP)) ||
            (w->conv == CLI_WIN_TF && w->mode == CLPAD_TF_EXPLICIT) ||
            (w->conv == CLI_WIN_ONNX && w->mode == CLPAD_ONNX_NOTSET) ||
            (w->conv == CLI_WIN_OPENVINO && w->mode == CLPAD_OV_EXPLICIT);
        if (w->conv == CLI_WIN_TORCH)
            return not_with("--pads-begin / --pads-end", w,
                            "(PyTorch pads both sides: --torch P1,P2,...)");
        if (!explicit_mode)
            return cli_error(CLI_USAGE, "explicit pads need an explicit mode (%s %s pads "
                                        "itself)",
                             w->conv_option,
                             w->conv == CLI_WIN_TRT        ? clpad_trt_padding_name(w->mode)
                             : w->conv == CLI_WIN_TF       ? clpad_tf_padding_name(w->mode)
                             : w->conv == CLI_WIN_ONNX     ? clpad_onnx_auto_pad_name(w->mode)
                                                           : clpad_ov_auto_pad_name(w->mode));
    }

    int64_t kernel[CLPAD_MAX_RANK], sbuf[CLPAD_MAX_RANK], dbuf[CLPAD_MAX_RANK];
    int64_t bbuf[CLPAD_MAX_RANK], ebuf[CLPAD_MAX_RANK], tbuf[CLPAD_MAX_RANK];
    int64_t opbuf[CLPAD_MAX_RANK], osbuf[CLPAD_MAX_RANK], onnx[2 * CLPAD_MAX_RANK];
    const int64_t *stride, *dilation, *pb, *pe, *tp, *outpad, *outshape, *onnx_pads = NULL;
    int rc;
    if ((rc = expand("--kernel", &w->kernel, naxes, kernel)) != CLI_OK ||
        (rc = expand_opt("--stride", &w->stride, naxes, sbuf, &stride)) != CLI_OK ||
        (rc = expand_opt("--dilation", &w->dilation, naxes, dbuf, &dilation)) != CLI_OK ||
        (rc = expand_opt("--pads-begin", &w->pads_begin, naxes, bbuf, &pb)) != CLI_OK ||
        (rc = expand_opt("--pads-end", &w->pads_end, naxes, ebuf, &pe)) != CLI_OK ||
        (rc = expand_opt("--torch", &w->torch_pads, naxes, tbuf, &tp)) != CLI_OK ||
        (rc = expand_opt("--output-padding", &w->output_padding, naxes, opbuf, &outpad)) !=
            CLI_OK ||
        (rc = expand_opt("--output-shape", &w->output_shape, naxes, osbuf, &outshape)) !=
            CLI_OK)
        return rc;
    if (w->onnx_pads.n) {
        if (w->onnx_pads.n != 2 * naxes)
            return cli_error(CLI_USAGE, "--pads has %d values; ONNX pads need 2 x %d "
                                        "(x1_begin, x2_begin, ..., x1_end, x2_end)",
                             w->onnx_pads.n, naxes);
        onnx_pads = w->onnx_pads.v;
    } else if (w->conv == CLI_WIN_ONNX && (pb || pe)) {
        for (int i = 0; i < naxes; i++) {
            onnx[i] = pb ? pb[i] : 0;
            onnx[naxes + i] = pe ? pe[i] : 0;
        }
        onnx_pads = onnx;
    }

    clpad_status st = CLPAD_OK;
    switch (w->conv) {
    case CLI_WIN_TRT:
        st = clpad_window_tensorrt(w->op, (clpad_trt_padding)w->mode, naxes, w->input.v, kernel,
                                   stride, dilation, pb, pe, r);
        break;
    case CLI_WIN_TF:
        if (w->mode == CLPAD_TF_EXPLICIT && !pb && !pe)
            return cli_error(CLI_USAGE, "--tf EXPLICIT needs --pads-begin and --pads-end");
        if (outpad)
            st = clpad_window_keras(w->op, (clpad_tf_padding)w->mode, naxes, w->input.v, kernel,
                                    stride, dilation, outpad, r);
        else
            st = clpad_window_tf(w->op, (clpad_tf_padding)w->mode, naxes, w->input.v, kernel,
                                 stride, dilation, pb, pe, outshape, r);
        break;
    case CLI_WIN_ONNX:
        st = clpad_window_onnx(w->op, (clpad_onnx_auto_pad)w->mode, naxes, w->input.v, kernel,
                               stride, dilation, onnx_pads, w->ceil_mode, outpad, outshape, r);
        break;
    case CLI_WIN_OPENVINO:
        st = clpad_window_openvino(w->op, (clpad_ov_auto_pad)w->mode, w->rounding, naxes,
                                   w->input.v, kernel, stride, dilation, pb, pe, outpad,
                                   outshape, r);
        break;
    case CLI_WIN_TORCH:
        st = clpad_window_torch(w->op, (clpad_torch_padding)w->mode, naxes, w->input.v, kernel,
                                stride, dilation, tp, w->ceil_mode, outpad, r);
        break;
    default:
        break;
    }
    if (st != CLPAD_OK)
        return cli_error(CLI_FAIL, "%s", clpad_last_error());
    return CLI_OK;
}

const char *cli_window_describe(const struct cli_window_opts *w, char *buf, size_t len)
{
    const char *conv = "?", *mode = "?";
    switch (w->conv) {
    case CLI_WIN_TRT:
        conv = "tensorrt";
        mode = clpad_trt_padding_name((clpad_trt_padding)w->mode);
        break;
    case CLI_WIN_TF:
        conv = w->output_padding.n ? "keras" : "tf";
        mode = clpad_tf_padding_name((clpad_tf_padding)w->mode);
        break;
    case CLI_WIN_ONNX:
        conv = "onnx";
        mode = clpad_onnx_auto_pad_name((clpad_onnx_auto_pad)w->mode);
        break;
    case CLI_WIN_OPENVINO:
        conv = "openvino";
        mode = clpad_ov_auto_pad_name((clpad_ov_auto_pad)w->mode);
        break;
    case CLI_WIN_TORCH:
        conv = "torch";
        mode = clpad_torch_padding_name((clpad_torch_padding)w->mode);
        break;
    default:
        break;
    }
    snprintf(buf, len, "%s, %s %s%s%s%s", clpad_window_op_name(w->op), conv, mode ? mode : "?",
             w->ceil_mode ? " ceil_mode" : "", w->have_rounding ? " rounding=" : "",
             w->have_rounding ? clpad_ov_rounding_name(w->rounding) : "");
    return buf;
}

static void opt_line(FILE *f, const char *opt, const char *text)
{
    fprintf(f, "  %-26s %s\n", opt, text);
}

void cli_window_usage(FILE *f, bool shape)
{
    if (shape)
        opt_line(f, "--input I1,I2,...", "spatial input sizes (e.g. H,W)");
    opt_line(f, "--kernel K1,K2,...", "kernel (filter) size per axis");
    opt_line(f, "--stride S1,S2,...", "stride (default 1; PyTorch pooling: the kernel)");
    opt_line(f, "--dilation D1,D2,...", "dilation (default 1)");
    opt_line(f, shape ? "--mode MODE" : "--trt MODE",
             "TensorRT PaddingMode: explicit-round-down,");
    opt_line(f, "", "explicit-round-up, same-upper, same-lower");
    opt_line(f, "--tf SAME|VALID|EXPLICIT", "TensorFlow padding");
    opt_line(f, "--onnx AUTO_PAD", "ONNX auto_pad: NOTSET, VALID, SAME_UPPER, SAME_LOWER");
    opt_line(f, "--openvino AUTO_PAD", "OpenVINO auto_pad: explicit, same_upper, same_lower,");
    opt_line(f, "", "valid");
    opt_line(f, "--torch same|valid|P1,...", "PyTorch padding (P: both sides of each axis)");
    opt_line(f, shape ? "--pads-begin B1,B2,..." : "--window-pads-begin LIST",
             "explicit pads before each axis (explicit modes)");
    opt_line(f, shape ? "--pads-end E1,E2,..." : "--window-pads-end LIST",
             "explicit pads after each axis");
    opt_line(f, shape ? "--pads B1,...,E1,..." : "--onnx-pads LIST",
             "ONNX flat pads x1_begin,x2_begin,...,x1_end,x2_end");
    opt_line(f, "--ceil-mode", "round up (ONNX, PyTorch pooling); a last window");
    opt_line(f, "", "starting in the end padding is dropped");
    opt_line(f, "--rounding floor|ceil|...", "OpenVINO pooling rounding_type: floor, ceil,");
    opt_line(f, "", "ceil_torch (ceil, dropping a last window in the padding)");
    opt_line(f, "--output-padding LIST", "deconv: extra output at the end (ONNX, OpenVINO,");
    opt_line(f, "", "PyTorch; with --tf: Keras' Conv*DTranspose)");
    opt_line(f, "--output-shape LIST", "deconv: requested output size (TF, ONNX, OpenVINO)");
    if (!shape)
        fprintf(f, "A list of one value applies to every axis.\n");
}

/* ------------------------------------------------------------------------- */
/* clpad shape                                                               */
/* ------------------------------------------------------------------------- */

static void shape_usage(FILE *f)
{
    fprintf(f, "usage: clpad shape conv|deconv|pool --input I1,I2,... --kernel K1,K2,...\n"
               "                   [--stride ...] [--dilation ...]\n"
               "                   (--mode explicit-round-down|explicit-round-up|same-upper|"
               "same-lower\n"
               "                        [--pads-begin ... --pads-end ...]\n"
               "                    | --tf SAME|VALID|EXPLICIT [--pads-begin ... --pads-end ...]\n"
               "                    | --onnx NOTSET|VALID|SAME_UPPER|SAME_LOWER\n"
               "                        [--pads-begin ... --pads-end ... | --pads ...] "
               "[--ceil-mode]\n"
               "                    | --openvino explicit|same_upper|same_lower|valid\n"
               "                        [--pads-begin ... --pads-end ...] "
               "[--rounding floor|ceil|ceil_torch]\n"
               "                    | --torch same|valid|P1,P2,... [--ceil-mode])\n"
               "                   [--output-padding ...] [--output-shape ...]   (deconv)\n"
               "                   [--json]\n"
               "\n"
               "Output size and begin/end padding of each spatial axis of a convolution,\n"
               "deconvolution or pooling window, in one framework's convention (its own\n"
               "clamping and rounding rules; see clpad_window.h). For deconv the pads are\n"
               "what is cropped from the full (I-1)*S + DK output.\n"
               "\n");
    cli_window_usage(f, true);
    opt_line(f, "--json", "print one JSON object {\"output\": [...],");
    opt_line(f, "", "\"pads_begin\": [...], \"pads_end\": [...]}");
    opt_line(f, "-h, --help", "show this help");
    fprintf(f, "A list of one value applies to every axis.\n"
               "\n"
               "Example (TF SAME, seed 004): clpad shape conv --input 7,8 --kernel 4 "
               "--stride 3 --tf SAME\n"
               "Exit status: 0 success, 1 the window is invalid, 2 usage error.\n");
}

static int digits(int64_t v)
{
    char tmp[32];
    return snprintf(tmp, sizeof tmp, "%lld", (long long)v);
}

static void print_table(const clpad_window_result *r, const int64_t *kernel,
                        const int64_t *dilation)
{
    bool deconv = r->op == CLPAD_WINDOW_DECONV;
    const char *head[8] = {"axis",   "input",  "kernel", "dilation", "extent",
                           "stride", "output", deconv ? "crop_begin" : "pad_begin"};
    const char *last = deconv ? "crop_end" : "pad_end";
    int64_t cols[9][CLPAD_MAX_RANK];
    for (int i = 0; i < r->naxes; i++) {
        cols[0][i] = i;
        cols[1][i] = r->input[i];
        cols[2][i] = kernel[i];
        cols[3][i] = dilation ? dilation[i] : 1;
        cols[4][i] = r->extent[i];
        cols[5][i] = r->stride[i];
        cols[6][i] = r->output[i];
        cols[7][i] = r->pads_begin[i];
        cols[8][i] = r->pads_end[i];
    }
    int width[9];
    for (int c = 0; c < 9; c++) {
        width[c] = (int)strlen(c < 8 ? head[c] : last);
        for (int i = 0; i < r->naxes; i++)
            if (digits(cols[c][i]) > width[c])
                width[c] = digits(cols[c][i]);
    }
    for (int c = 0; c < 9; c++)
        printf("%s%*s", c ? "  " : "", width[c], c < 8 ? head[c] : last);
    putchar('\n');
    for (int i = 0; i < r->naxes; i++) {
        for (int c = 0; c < 9; c++)
            printf("%s%*lld", c ? "  " : "", width[c], (long long)cols[c][i]);
        putchar('\n');
    }
}

/* {"output": [...], "pads_begin": [...], "pads_end": [...]}; numbers are written
 * as raw decimal text so that int64 values stay exact (cJSON numbers are doubles). */
static int print_json(const clpad_window_result *r)
{
    static const char *const keys[3] = {"output", "pads_begin", "pads_end"};
    const int64_t *vals[3] = {r->output, r->pads_begin, r->pads_end};
    cJSON *obj = cJSON_CreateObject();
    if (!obj)
        return cli_error(CLI_FAIL, "out of memory");
    for (int k = 0; k < 3; k++) {
        cJSON *arr = cJSON_CreateArray();
        if (!arr || !cJSON_AddItemToObject(obj, keys[k], arr)) {
            cJSON_Delete(arr);
            cJSON_Delete(obj);
            return cli_error(CLI_FAIL, "out of memory");
        }
        for (int i = 0; i < r->naxes; i++) {
            char num[32];
            snprintf(num, sizeof num, "%lld", (long long)vals[k][i]);
            cJSON *item = cJSON_CreateRaw(num);
            if (!item || !cJSON_AddItemToArray(arr, item)) {
                cJSON_Delete(item);
                cJSON_Delete(obj);
                return cli_error(CLI_FAIL, "out of memory");
            }
        }
    }
    char *text = cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    if (!text)
        return cli_error(CLI_FAIL, "out of memory");
    puts(text);
    cJSON_free(text);
    return CLI_OK;
}

int cmd_shape(int argc, char **argv)
{
    enum { OPT_JSON = CLI_WOPT_END + 1 };
    static const struct option opts[] = {CLI_WINDOW_OPTIONS,
                                         CLI_WINDOW_SHAPE_OPTIONS,
                                         {"json", no_argument, NULL, OPT_JSON},
                                         {"help", no_argument, NULL, 'h'},
                                         {0, 0, 0, 0}};
    struct cli_window_opts w;
    cli_window_init(&w);
    bool json = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON:
            json = true;
            break;
        case 'h':
            shape_usage(stdout);
            return CLI_OK;
        case ':':
            return cli_error(CLI_USAGE, "shape: option '%s' needs a value", argv[optind - 1]);
        case '?':
            return cli_error(CLI_USAGE, "shape: unknown option '%s' (try `clpad shape --help`)",
                             argv[optind - 1]);
        default: {
            int rc = cli_window_parse_opt(c, optarg, &w);
            if (rc != CLI_OK)
                return rc == CLI_WINDOW_NOT_MINE ? CLI_USAGE : rc;
        }
        }
    }
    if (argc - optind != 1)
        return cli_error(CLI_USAGE, "shape: expected one of conv, deconv, pool%s (try `clpad "
                                    "shape --help`)",
                         argc - optind > 1 ? ", and nothing else" : "");
    int rc = cli_window_set_op(&w, argv[optind]);
    if (rc != CLI_OK)
        return rc;

    clpad_window_result r;
    rc = cli_window_compute(&w, &r);
    if (rc != CLI_OK)
        return rc;
    if (json)
        return print_json(&r);

    char desc[128], b1[256], b2[256], b3[256];
    int64_t kernel[CLPAD_MAX_RANK], dil[CLPAD_MAX_RANK], onnx[2 * CLPAD_MAX_RANK];
    /* the lists were validated by cli_window_compute */
    for (int i = 0; i < r.naxes; i++) {
        kernel[i] = w.kernel.n == 1 ? w.kernel.v[0] : w.kernel.v[i];
        dil[i] = w.dilation.n == 0 ? 1 : w.dilation.n == 1 ? w.dilation.v[0] : w.dilation.v[i];
    }
    printf("%s\n", cli_window_describe(&w, desc, sizeof desc));
    print_table(&r, kernel, dil);
    printf("output:     %s\n", cli_shape_str(r.naxes, r.output, b1, sizeof b1));
    printf("pads_begin: %s\n", cli_shape_str(r.naxes, r.pads_begin, b2, sizeof b2));
    printf("pads_end:   %s\n", cli_shape_str(r.naxes, r.pads_end, b3, sizeof b3));
    if (clpad_window_pads_to_onnx(r.naxes, r.pads_begin, r.pads_end, onnx) == CLPAD_OK)
        printf("onnx pads:  %s\n", cli_shape_str(2 * r.naxes, onnx, b1, sizeof b1));
    return CLI_OK;
}
