/* `clpad space-to-batch` and `clpad batch-to-space`: move spatial blocks of a
 * .npy tensor or an image into the batch axis and back (OpenVINO
 * SpaceToBatch-2 and BatchToSpace-2) on the OpenCL device, optionally verify
 * against the CPU reference, report throughput. Both subcommands share one
 * driver; options, messages, exit codes and the atomic output follow
 * `clpad pad` (cmd_pad.c). */
#include "cli.h"
#include "tensor_io.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What differs between the two subcommands. */
typedef struct space_cmd {
    const char *name;      /* "space-to-batch" */
    bool s2b;
    const char *begin_opt; /* "--pads-begin" or "--crops-begin" */
    const char *end_opt;
    const char *what;      /* "pads" or "crops" */
} space_cmd;

static const space_cmd k_s2b = {"space-to-batch", true, "--pads-begin", "--pads-end", "pads"};
static const space_cmd k_b2s = {"batch-to-space", false, "--crops-begin", "--crops-end", "crops"};

static void space_usage(const space_cmd *sc, FILE *f)
{
    if (sc->s2b)
        fprintf(f,
                "usage: clpad space-to-batch --block-shape B0,B1,... [--pads-begin P0,P1,...]\n"
                "                            [--pads-end E0,E1,...] [--device SPEC | --cpu]\n"
                "                            [--verify] [--quiet] INPUT OUTPUT\n"
                "\n"
                "Zero-pad every axis of INPUT [N, D1, ...], cut each spatial axis into blocks of\n"
                "B_i and move the block offsets into the batch axis, as OpenVINO SpaceToBatch-2\n"
                "does: OUTPUT is [N*B1*...*Bk, (D1+P1+E1)/B1, ...], the block offsets outer and\n"
                "the original batch inner. Writes OUTPUT atomically.\n"
                "\n"
                "  -B, --block-shape LIST  block size of each axis; B0 must be 1, and B_i must\n"
                "                          divide D_i + P_i + E_i\n"
                "  -b, --pads-begin LIST   zeros added before each axis (>= 0, P0 = 0; default 0)\n"
                "  -e, --pads-end LIST     zeros added after each axis (>= 0, E0 = 0; default 0)\n");
    else
        fprintf(f,
                "usage: clpad batch-to-space --block-shape B0,B1,... [--crops-begin C0,C1,...]\n"
                "                            [--crops-end E0,E1,...] [--device SPEC | --cpu]\n"
                "                            [--verify] [--quiet] INPUT OUTPUT\n"
                "\n"
                "The inverse of space-to-batch, as OpenVINO BatchToSpace-2: move the block\n"
                "offsets of the batch axis of INPUT [N', D1, ...] back into the spatial axes,\n"
                "then crop: OUTPUT is [N'/(B1*...*Bk), D1*B1 - C1 - E1, ...]. With the same\n"
                "block shape and crops = the pads, it gives back the input of space-to-batch.\n"
                "Writes OUTPUT atomically.\n"
                "\n"
                "  -B, --block-shape LIST  block size of each axis; B0 must be 1, and the\n"
                "                          product must divide N'\n"
                "  -b, --crops-begin LIST  elements removed before each axis (>= 0, C0 = 0;\n"
                "                          default 0)\n"
                "  -e, --crops-end LIST    elements removed after each axis (>= 0, E0 = 0;\n"
                "                          default 0)\n");
    cli_run_usage(f, 26);
    fprintf(f,
            "\n"
            "INPUT (%s): .npy (any dtype numpy names; C order,\n"
            "little-endian) or an image, read as a 1xHxWxC u8 tensor (u16: a 16-bit PNG or\n"
            "PNM); for an image, two values per list mean H,W and leave the batch and\n"
            "channels alone.\n"
            "OUTPUT: %s; an image takes a batch of one, [1, H, W, C].\n"
            "OUTPUT is replaced atomically, as `clpad pad --help` says, and may not be\n"
            "INPUT.\n"
            "Exit status: 0 success, 1 failure (including what depends on INPUT),\n"
            "2 usage error (what the command line alone shows).\n",
            tio_load_extensions(), tio_save_extensions());
}


/* One SpaceToBatch / BatchToSpace call, for cli_run_op. */
typedef struct space_op {
    const space_cmd *sc;
    const tio_tensor *in;
    const int64_t *block, *begin, *end;
} space_op;

static clpad_status run_space_op(clpad_context *ctx, const void *op, void *out, size_t out_bytes,
                                 clpad_run_info *info)
{
    const space_op *o = op;
    const tio_tensor *in = o->in;
    if (o->sc->s2b)
        return clpad_space_to_batch(ctx, in->dtype, in->rank, in->shape, in->data, o->block,
                                    o->begin, o->end, out, out_bytes, info);
    return clpad_batch_to_space(ctx, in->dtype, in->rank, in->shape, in->data, o->block, o->begin,
                                o->end, out, out_bytes, info);
}

/* An image is HxWxC: give it a batch axis of one. */
static void add_batch_axis(tio_tensor *t)
{
    for (int i = t->rank; i > 0; i--)
        t->shape[i] = t->shape[i - 1];
    t->shape[0] = 1;
    t->rank++;
}

/* Lists of 2 values for an image mean H,W: widen to N,H,W,C with `fill`. */
static void widen_hw(int64_t *v, int64_t fill)
{
    v[2] = v[1];
    v[1] = v[0];
    v[0] = v[3] = fill;
}

static int run_space(const space_cmd *sc, int argc, char **argv)
{
    /* The two subcommands' options differ in the names of -b and -e. */
    const struct option opts[] = {{"block-shape", required_argument, NULL, 'B'},
                                  {sc->begin_opt + 2, required_argument, NULL, 'b'},
                                  {sc->end_opt + 2, required_argument, NULL, 'e'},
                                  {"device", required_argument, NULL, 'd'},
                                  {"cpu", no_argument, NULL, 'C'},
                                  {"verify", no_argument, NULL, 'Y'},
                                  {"quiet", no_argument, NULL, 'q'},
                                  {"help", no_argument, NULL, 'h'},
                                  {"quality", required_argument, NULL, 'Q'},
                                  {0, 0, 0, 0}};
    int64_t block[CLPAD_MAX_RANK], begin[CLPAD_MAX_RANK] = {0}, end[CLPAD_MAX_RANK] = {0};
    int nblock = -1, nbegin = -1, nend = -1;
    cli_run run = {0}; /* --device, --cpu, --verify, --quiet */
    int quality = 0;
    const cli_list_opt lists[] = {{'B', "--block-shape", block, CLPAD_MAX_RANK, &nblock},
                                  {'b', sc->begin_opt, begin, CLPAD_MAX_RANK, &nbegin},
                                  {'e', sc->end_opt, end, CLPAD_MAX_RANK, &nend},
                                  {0}};
    for (int c; (c = cli_getopt(argc, argv, ":B:b:e:d:qh", opts, &run, &quality, lists)) != -1;) {
        switch (c) {
        case CLI_OPT_BAD: return CLI_USAGE;
        case 'h':
            space_usage(sc, stdout);
            return CLI_OK;
        case ':':
        default: return cli_bad_option(sc->name, c, argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return cli_error(CLI_USAGE, "%s: expected INPUT and OUTPUT, got %d argument%s", sc->name,
                         argc - optind, argc - optind == 1 ? "" : "s");
    const char *in_path = argv[optind], *out_path = argv[optind + 1];
    if (nblock < 0)
        return cli_error(CLI_USAGE, "%s: --block-shape is required", sc->name);
    if (nbegin >= 0 && nbegin != nblock)
        return cli_error(CLI_USAGE, "%s: --block-shape has %d values but %s has %d", sc->name,
                         nblock, sc->begin_opt, nbegin);
    if (nend >= 0 && nend != nblock)
        return cli_error(CLI_USAGE, "%s: --block-shape has %d values but %s has %d", sc->name,
                         nblock, sc->end_opt, nend);
    if (cli_run_check(sc->name, &run) != CLI_OK)
        return CLI_USAGE;
    char err[512];
    if (tio_check_load_path(in_path, err, sizeof err))
        return cli_error(CLI_USAGE, "%s", err);
    int prc = cli_check_output(sc->name, argv + optind, out_path, quality);
    if (prc != CLI_OK)
        return prc;
    const char *out_fmt = tio_format(out_path);

    tio_tensor in = {0}, out = {0};
    int rc = CLI_FAIL;
    if (tio_load(in_path, &in, err, sizeof err)) {
        cli_error(CLI_FAIL, "%s", err);
        goto done;
    }
    if (in.is_image && in.rank == 3) {
        add_batch_axis(&in);
        if (nblock == 2) { /* H,W: batch and channels alone */
            widen_hw(block, 1);
            widen_hw(begin, 0);
            widen_hw(end, 0);
            nblock = 4;
        }
    }
    if (nblock != in.rank) {
        rc = cli_error(CLI_FAIL, "--block-shape has %d values but %s has rank %d%s", nblock,
                       in_path, in.rank,
                       in.is_image ? " (an image, as [1, H, W, C]: give 2 or 4)" : "");
        goto done;
    }
    out.dtype = in.dtype;
    out.rank = in.rank;
    clpad_status st =
        sc->s2b ? clpad_space_to_batch_output_shape(in.rank, in.shape, block, begin, end, out.shape)
                : clpad_batch_to_space_output_shape(in.rank, in.shape, block, begin, end, out.shape);
    if (st) {
        cli_error(CLI_FAIL, "%s", clpad_last_error());
        goto done;
    }
    /* What is saved: an image output drops a batch axis of one. */
    tio_tensor saved = out;
    if (strcmp(out_fmt, "npy") != 0 && out.rank == 4 && out.shape[0] == 1) {
        saved.rank = 3;
        memmove(saved.shape, saved.shape + 1, 3 * sizeof *saved.shape);
    }
    space_op op = {sc, &in, block, begin, end};
    if (cli_run_into(&run, out_path, &saved, &out, run_space_op, &op))
        goto done;
    saved.data = out.data;
    saved.nbytes = out.nbytes;
    if (cli_save(out_path, &saved, quality))
        goto done;
    char s3[160], s4[160], s5[160];
    cli_report_input(&run, &in, in_path);
    rc = cli_report_output(&run, &out, out_path, "block %s, %s_begin %s, %s_end %s",
                           cli_shape_str(in.rank, block, s3, sizeof s3), sc->what,
                           cli_shape_str(in.rank, begin, s4, sizeof s4), sc->what,
                           cli_shape_str(in.rank, end, s5, sizeof s5));
done:
    cli_run_free(&run);
    tio_free(&in);
    tio_free(&out);
    return rc;
}

int cmd_space_to_batch(int argc, char **argv) { return run_space(&k_s2b, argc, argv); }

int cmd_batch_to_space(int argc, char **argv) { return run_space(&k_b2s, argc, argv); }
