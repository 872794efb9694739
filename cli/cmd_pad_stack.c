/* `clpad pad-stack`: tensors of one dtype and rank with different shapes
 * into one [N, *S] tensor, each padded as Pad does (docs/letterbox.md,
 * "Pad-and-stack"), in one kernel launch; optionally verified against the
 * CPU reference. */
#include "cli.h"
#include "tensor_io.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pad_stack_usage(FILE *f)
{
    fprintf(f,
            "usage: clpad pad-stack [--shape S0,S1,...] [--mode MODE] [--value V]\n"
            "                       [--placement top-left|center] [--shapes-out FILE.npy]\n"
            "                       [--device SPEC | --cpu] [--verify] [--quiet]\n"
            "                       INPUT... OUTPUT.npy\n"
            "\n"
            "Stack tensors of one dtype and rank but different shapes into one tensor\n"
            "[N, S0, S1, ...] in one kernel launch: each INPUT is padded (or, where S is\n"
            "smaller, cropped) as Pad does, placed at the start of every axis (top-left,\n"
            "the default: PyTorch's pad_sequence) or centred (floor of half the padding\n"
            "before). S is the largest size of each axis unless --shape gives it.\n"
            "\n"
            "  -S, --shape LIST       the size of each axis of a slice (default: the largest)\n"
            "  -m, --mode MODE        constant (default), edge, reflect, symmetric, wrap,\n"
            "                         or a framework's name with that meaning\n"
            "                         (cv:REPLICATE, torch:circular, ...; docs/modes.md);\n"
            "                         np:reflect and cv:REFLECT_101 mean mirrors this\n"
            "                         command does not have and are refused\n"
            "  -v, --value V          pad_value for constant mode, exact in the dtype\n"
            "                         (default 0); or one entry per axis of the inputs,\n"
            "                         each V or BEFORE:AFTER (e.g. 0:255,7): numpy.pad's\n"
            "                         per-side constant_values for every input (a corner\n"
            "                         takes the value of the last axis padding it)\n"
            "      --placement P      top-left (default) or center\n"
            "      --shapes-out FILE  write each input's shape as an int64 [N, rank] .npy\n"
            "  -d, --device SPEC      OpenCL device: P:D index or name substring\n"
            "      --cpu              use the CPU reference path, no OpenCL\n"
            "      --verify           run the OpenCL kernel (never the small-call CPU path),\n"
            "                         then the CPU reference, and compare byte for byte\n"
            "  -q, --quiet            print nothing but errors\n"
            "  -h, --help             show this help\n"
            "\n"
            "INPUT: %s (an image is an HxWxC u8 tensor). OUTPUT: .npy.\n"
            "OUTPUT and --shapes-out are written only when the whole batch succeeded, as\n"
            "one set: each to a temporary file beside it, then both renamed in one step.\n"
            "SIGINT, SIGTERM or SIGHUP leave the previous files or the new pair, never one\n"
            "of each and no temporary (during the renames the signal waits for them).\n"
            "No output may be an INPUT or the other output (the same file, through links\n"
            "too): a usage error.\n"
            "Exit status: 0 success, 1 failure, 2 usage error.\n",
            tio_load_extensions());
}

typedef struct ps_op {
    const tio_tensor *in;
    size_t n;
    const int64_t *shapes, *shape;
    const void *const *inputs;
    const clpad_pad_options *options; /* the mode, per-side constants */
    const void *value;
    clpad_placement placement;
} ps_op;

static clpad_status run_pad_stack(clpad_context *ctx, const void *op, void *out,
                                  size_t out_bytes, clpad_run_info *info)
{
    const ps_op *p = op;
    return clpad_pad_stack(ctx, p->in[0].dtype, p->in[0].rank, p->n, p->shapes, p->inputs,
                           p->shape, p->options, p->value, p->placement, out, out_bytes, info);
}

int cmd_pad_stack(int argc, char **argv)
{
    enum { O_PLACE = 256, O_SHAPES_OUT };
    static const struct option opts[] = {
        {"shape", required_argument, NULL, 'S'},      {"mode", required_argument, NULL, 'm'},
        {"value", required_argument, NULL, 'v'},      {"placement", required_argument, NULL, O_PLACE},
        {"shapes-out", required_argument, NULL, O_SHAPES_OUT},
        {"device", required_argument, NULL, 'd'},     {"cpu", no_argument, NULL, 'C'},
        {"verify", no_argument, NULL, 'Y'},           {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},             {0, 0, 0, 0}};
    clpad_pad_mode mode = CLPAD_PAD_CONSTANT;
    clpad_placement placement = CLPAD_PLACE_TOP_LEFT;
    int64_t shape[CLPAD_MAX_RANK];
    int nshape = -1;
    const char *value_text = NULL, *shapes_out = NULL;
    cli_run run = {0}; /* --device, --cpu, --verify, --quiet */
    const cli_list_opt lists[] = {{'S', "--shape", shape, CLPAD_MAX_RANK - 1, &nshape},
                                  {0}};
    for (int c; (c = cli_getopt(argc, argv, ":S:m:v:d:qh", opts, &run, NULL, lists)) != -1;) {
        clpad_status bad_name = CLPAD_OK;
        switch (c) {
        case CLI_OPT_BAD: return CLI_USAGE;
        case 'm': bad_name = clpad_pad_mode_parse_within_limits(optarg, &mode); break;
        case 'v': value_text = optarg; break;
        case O_PLACE: bad_name = clpad_placement_from_name(optarg, &placement); break;
        case O_SHAPES_OUT: shapes_out = optarg; break;
        case 'h': pad_stack_usage(stdout); return CLI_OK;
        case ':':
        default: return cli_bad_option("pad-stack", c, argv[optind - 1]);
        }
        if (bad_name) /* a named option's lookup failed */
            return cli_name_error(opts, c);
    }
    if (argc - optind < 2)
        return cli_error(CLI_USAGE, "pad-stack: expected INPUT... OUTPUT.npy");
    bool per_side;
    int vrc = cli_value_form("pad-stack", value_text, mode == CLPAD_PAD_CONSTANT, mode, &per_side);
    if (vrc != CLI_OK || (vrc = cli_run_check("pad-stack", &run)) != CLI_OK)
        return vrc;
    size_t n = (size_t)(argc - optind - 1);
    char **files = argv + optind;
    const char *out_path = argv[argc - 1];
    char err[512];
    if (!tio_format(out_path) || strcmp(tio_format(out_path), "npy"))
        return cli_error(CLI_USAGE, "OUTPUT '%s': the stack is written as .npy", out_path);
    if (shapes_out && (!tio_format(shapes_out) || strcmp(tio_format(shapes_out), "npy")))
        return cli_error(CLI_USAGE, "--shapes-out '%s': expected a .npy file", shapes_out);
    const cli_output outputs[] = {{"OUTPUT", out_path}, {"--shapes-out", shapes_out}};
    int prc = cli_check_paths(files, n, outputs, 2);
    if (prc != CLI_OK)
        return prc;

    tio_tensor *in = calloc(n, sizeof *in);
    int64_t *shapes = calloc(n * CLPAD_MAX_RANK + 1, sizeof *shapes);
    const void **inputs = calloc(n, sizeof *inputs);
    tio_tensor out = {0}, sh = {0};
    int rc = CLI_FAIL;
    if (!in || !shapes || !inputs) {
        cli_error(CLI_FAIL, "out of memory for %zu inputs", n);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (tio_load(files[i], &in[i], err, sizeof err)) {
            cli_error(CLI_FAIL, "%s", err);
            goto done;
        }
        if (in[i].dtype != in[0].dtype || in[i].rank != in[0].rank) {
            cli_error(CLI_FAIL, "%s is %s of rank %d but %s is %s of rank %d: the inputs share "
                                "one dtype and rank",
                      files[i], clpad_dtype_name(in[i].dtype), in[i].rank, files[0],
                      clpad_dtype_name(in[0].dtype), in[0].rank);
            goto done;
        }
        inputs[i] = in[i].data;
    }
    int rank = in[0].rank;
    if (rank > CLPAD_MAX_RANK - 1) {
        cli_error(CLI_FAIL, "%s has rank %d; stacked tensors have rank 0..%d", files[0], rank,
                  CLPAD_MAX_RANK - 1);
        goto done;
    }
    if (nshape >= 0 && nshape != rank) {
        rc = cli_error(CLI_USAGE, "--shape has %d values but the inputs have rank %d", nshape,
                       rank);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        memcpy(shapes + i * (size_t)rank, in[i].shape, (size_t)rank * sizeof *shapes);
    unsigned char value[8] = {0};
    unsigned char sides[2 * CLPAD_MAX_RANK * 8] = {0};
    clpad_pad_options popt;
    clpad_pad_options_init(&popt, mode);
    if (per_side) { /* one entry per axis, each V or B:A */
        if (cli_value_sides(value_text, in[0].dtype, rank, false, "the inputs", sides))
            goto done; /* (rc is CLI_FAIL) */
        popt.side_values = sides;
    } else if (value_text && clpad_scalar_parse(in[0].dtype, value_text, value)) {
        rc = cli_error(CLI_USAGE, "--value: %s", clpad_last_error());
        goto done;
    }
    out.dtype = in[0].dtype;
    out.rank = rank + 1;
    if (clpad_pad_stack_plan(rank, n, shapes, nshape >= 0 ? shape : NULL, mode, placement,
                             out.shape, NULL, NULL)) {
        /* name the file of tensors[i] too */
        clpad_error_info e = {.size = sizeof e};
        clpad_last_error_info(&e);
        if (!strcmp(e.argument, "tensors") && e.index >= 0 && (size_t)e.index < n)
            cli_error(CLI_FAIL, "%s (%s)", e.message, files[e.index]);
        else
            cli_error(CLI_FAIL, "%s", clpad_last_error());
        goto done;
    }
    ps_op op = {in, n, shapes, nshape >= 0 ? shape : NULL, inputs, &popt, value, placement};
    if (cli_run_into(&run, out_path, NULL, &out, run_pad_stack, &op))
        goto done;
    if (shapes_out) {
        sh = (tio_tensor){.dtype = CLPAD_I64, .rank = 2, .shape = {(int64_t)n, rank}};
        sh.nbytes = n * (size_t)rank * sizeof(int64_t);
        sh.data = malloc(sh.nbytes ? sh.nbytes : 1);
        if (!sh.data) {
            cli_error(CLI_FAIL, "out of memory");
            goto done;
        }
        if (sh.nbytes)
            memcpy(sh.data, shapes, sh.nbytes);
    }
    /* Both outputs as one set: all or nothing. */
    const cli_file written[] = {{out_path, &out, NULL, 0}, {shapes_out, &sh, NULL, 0}};
    if (cli_save_outputs(written, 2, 0))
        goto done;
    cli_report_device(&run);
    cli_note(run.quiet, "input:  %zu tensors, %s, rank %d (%s, ...)", n,
             clpad_dtype_name(out.dtype), rank, files[0]);
    rc = cli_report_output(&run, &out, out_path, "%s%s, %s", clpad_pad_mode_name(mode),
                           per_side ? " (per-side values)" : "", clpad_placement_name(placement));
done:
    cli_run_free(&run);
    for (size_t i = 0; in && i < n; i++)
        tio_free(&in[i]);
    free(in);
    free(shapes);
    free((void *)inputs);
    tio_free(&out);
    tio_free(&sh);
    return rc;
}
