/* `clpad shape`: output size and padding of a convolution, deconvolution or
 * pooling window in the TensorRT, TensorFlow, ONNX, OpenVINO or PyTorch
 * convention (docs/spec.md section 4, include/clpad_window.h); its window
 * options are cli/window_opts.c's. */
#include "cli.h"
#include "window_opts.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------- */
/* clpad shape                                                               */
/* ------------------------------------------------------------------------- */

static void shape_usage(FILE *f)
{
    fprintf(f, "usage: clpad shape conv|deconv|pool --input I1,I2,... --kernel K1,K2,...\n"
               "                   [--stride ...] [--dilation ...]\n"
               "                   (--trt explicit-round-down|explicit-round-up|same-upper|"
               "same-lower\n"
               "                        [--window-pads-begin ... --window-pads-end ...]\n"
               "                    | --tf SAME|VALID|EXPLICIT\n"
               "                        [--window-pads-begin ... --window-pads-end ...]\n"
               "                    | --onnx NOTSET|VALID|SAME_UPPER|SAME_LOWER\n"
               "                        [--window-pads-begin ... --window-pads-end ... |\n"
               "                         --onnx-pads ...] [--ceil-mode]\n"
               "                    | --openvino explicit|same_upper|same_lower|valid\n"
               "                        [--window-pads-begin ... --window-pads-end ...]\n"
               "                        [--rounding floor|ceil|ceil_torch]\n"
               "                    | --torch same|valid|P1,P2,... [--ceil-mode])\n"
               "                   [--output-padding ...] [--output-shape ...]   (deconv)\n"
               "                   [--json]\n"
               "\n"
               "Output size and begin/end padding of each spatial axis of a convolution,\n"
               "deconvolution or pooling window, in one framework's convention (its own\n"
               "clamping and rounding rules; see clpad_window.h). For deconv the pads are\n"
               "what is cropped from the full (I-1)*S + DK output. The options are spelled\n"
               "as in `clpad pad --same-as`.\n"
               "\n");
    cli_window_usage(f, true);
    cli_window_opt_line(f, "--json", "print one JSON object {\"output\": [...],");
    cli_window_opt_line(f, "", "\"pads_begin\": [...], \"pads_end\": [...]}");
    cli_window_opt_line(f, "-h, --help", "show this help");
    fprintf(f, "A list of one value applies to every axis.\n"
               "\n"
               "Example (TF SAME): clpad shape conv --input 7,8 --kernel 4 --stride 3 --tf SAME\n"
               "Exit status: 0 success; 1 the convention's rules refuse the window; 2 the\n"
               "command line is malformed, or names an option the convention does not have.\n");
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
        case '?': return cli_bad_option("shape", c, argv[optind - 1]);
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
    clpad_window_result_init(&r);
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
