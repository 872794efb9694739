/* `clpad pad`: pad or crop a .npy tensor or an image on the OpenCL device,
 * optionally verify against the CPU reference, report throughput. */
#include "cli.h"
#include "tensor_io.h"
#include "window_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void pad_usage(FILE *f)
{
    fprintf(f,
            "usage: clpad pad [--mode MODE[,MODE...]] --pads-begin B0,B1,... --pads-end E0,E1,...\n"
            "                 [--axes A0,A1,...] [--to-multiple N[,N...] [--placement end|center]]\n"
            "                 [--large-pads numpy|error] [--value V]\n"
            "                 [--device SPEC | --cpu] [--verify] [--quiet] INPUT OUTPUT\n"
            "\n"
            "Pad (positive pads) or crop (negative pads) every axis of INPUT, as OpenVINO\n"
            "Pad-12 does, and write OUTPUT atomically.\n"
            "\n"
            "  -m, --mode MODE        constant (default), edge, reflect, symmetric, wrap, or a\n"
            "                         framework's name: cv:REFLECT_101, torch:circular,\n"
            "                         tf:SYMMETRIC, onnx:edge, np:reflect, ... (docs/modes.md);\n"
            "                         a list gives each axis its own mode (one per axis, or\n"
            "                         one per --axes entry); or numpy.pad's statistics\n"
            "                         maximum, minimum, mean, median (with --stat-length;\n"
            "                         pads >= 0, no --axes, --to-multiple, --same-as, --value)\n"
            "      --mode linear-ramp numpy.pad's linear_ramp (pads >= 0; float64 steps)\n"
            "      --end-values LIST  its end_values: one V, one per axis, or B0,A0,B1,A1,...\n"
            "                         (before, after each axis); default 0\n"
            "      --reflect-type T   even (default) or odd: with --mode reflect or symmetric,\n"
            "                         numpy.pad's reflect_type (odd: 2 * edge - mirror, in\n"
            "                         the input's dtype; pads >= 0 of any size)\n"
            "      --stat-length L    the statistic's samples at each side: one L, or one per\n"
            "                         axis (-1: the whole axis, the default), as numpy.pad's\n"
            "                         stat_length\n"
            "      --large-pads P     error (default): reflect pads <= D-1, symmetric <= D;\n"
            "                         numpy: larger pads repeat the mirror as numpy.pad does\n"
            "                         (np: and cv: modes imply it)\n"
            "      --axes LIST        ONNX Pad-18's axes: the pad lists (and a --mode or\n"
            "                         --to-multiple list) name only these axes (negative:\n"
            "                         from the end); the others are not padded\n"
            "      --to-multiple LIST pad each axis (each --axes axis) at the end up to the\n"
            "                         next multiple of N (one N: every such axis; 1: leave\n"
            "                         it); added to --pads-begin/--pads-end, which default\n"
            "                         to 0 with it; on an image one N means H and W\n"
            "      --placement P      end (default) or center: where --to-multiple's\n"
            "                         elements go (center: the odd one at the end)\n"
            "  -b, --pads-begin LIST  elements added (or, if negative, removed) before each axis\n"
            "  -e, --pads-end LIST    elements added or removed after each axis\n"
            "      --value V          pad_value for constant mode, parsed exactly in the\n"
            "                         input's dtype (e.g. 114, -0.0, nan, inf); default 0;\n"
            "                         or one entry per axis, V or BEFORE:AFTER (e.g.\n"
            "                         0:255,7): numpy.pad's per-side constant_values (a\n"
            "                         corner takes the value of the last axis padding it)\n");
    cli_run_usage(f, 25);
    fprintf(f,
            "\n"
            "Padding for a window instead of --pads-begin/--pads-end (docs/spec.md, section 4):\n"
            "      --same-as conv|pool  compute the pads of that window's convention (one of\n"
            "                         --tf, --onnx, --openvino, --torch, --trt) on INPUT's\n"
            "                         spatial axes and pad with zeros (or --value), so that\n"
            "                         a VALID window on OUTPUT equals the framework's window\n"
            "      --layout L         NCHW (default for .npy) or NHWC; an image is HWC:\n"
            "                         NHWC (a batch of one) or no --layout pads its H and W,\n"
            "                         NCHW is refused\n"
            "\n"
            "INPUT (%s): .npy (any dtype numpy names; C order, little-endian)\n"
            "or an image, read as an HxWxC u8 tensor (u16: a 16-bit PNG or PNM); for an\n"
            "image, two pad values mean H,W and leave the channels alone. OUTPUT: %s.\n"
            "OUTPUT is replaced atomically: a read-only file is refused, a symbolic link is\n"
            "written through to its file, a replaced file keeps its mode; SIGINT, SIGTERM\n"
            "and SIGHUP leave no temporary file, whatever handlers an OpenCL driver\n"
            "installed. OUTPUT may not be INPUT (the same file, through links too).\n"
            "Exit status: 0 success, 1 failure (including what depends on INPUT: its rank,\n"
            "its dtype's range), 2 usage error (what the command line alone shows).\n",
            tio_load_extensions(), tio_save_extensions());
    fprintf(f, "\nWindow options (with --same-as):\n");
    cli_window_usage(f, false);
}

/* One Pad call, for cli_run_op. */
typedef struct pad_op {
    const tio_tensor *in;
    const int64_t *pads_begin, *pads_end;
    const clpad_pad_options *options;
    const void *value;
} pad_op;

static clpad_status run_pad(clpad_context *ctx, const void *op, void *out, size_t out_bytes,
                            clpad_run_info *info)
{
    const pad_op *p = op;
    return clpad_pad(ctx, p->in->dtype, p->in->rank, p->in->shape, p->in->data, p->pads_begin,
                     p->pads_end, p->options, p->value, out, out_bytes, info);
}

/* One numpy.pad statistic call (clpad_pad_numpy), for cli_run_op. */
typedef struct np_op {
    const tio_tensor *in;
    const int64_t *pads_begin, *pads_end, *stat;
    clpad_numpy_mode mode;
    const double *end_begin, *end_end; /* linear_ramp's end values */
} np_op;

static clpad_status run_np(clpad_context *ctx, const void *op, void *out, size_t out_bytes,
                           clpad_run_info *info)
{
    const np_op *p = op;
    if (p->mode == CLPAD_NUMPY_LINEAR_RAMP)
        return clpad_pad_linear_ramp(ctx, p->in->dtype, p->in->rank, p->in->shape, p->in->data,
                                     p->pads_begin, p->pads_end, p->end_begin, p->end_end, 0,
                                     out, out_bytes, info);
    return clpad_pad_numpy(ctx, p->in->dtype, p->in->rank, p->in->shape, p->in->data,
                           p->pads_begin, p->pads_end, p->mode, p->stat, p->stat, out, out_bytes,
                           info);
}

/* clpad_numpy_mode's names (the first four are --mode's statistics) */
static const char *const k_np_modes[] = {"maximum", "minimum", "mean", "median",
                                         "reflect (reflect-type odd)",
                                         "symmetric (reflect-type odd)", "linear-ramp"};
#define NP_STATS 4

/* --end-values: numbers separated by commas (strtod's forms), up to cap. */
static int parse_f64_list(const char *text, double *out, int cap, int *count)
{
    *count = 0;
    const char *p = text;
    for (;;) {
        char *end;
        if (*count == cap)
            return cli_error(CLI_USAGE, "--end-values: more than %d values", cap);
        out[*count] = strtod(p, &end);
        if (end == p || (*end && *end != ','))
            return cli_error(CLI_USAGE, "--end-values: '%s' is not a list of numbers", text);
        (*count)++;
        if (!*end)
            return CLI_OK;
        p = end + 1;
    }
}

/* --mode's list: each name through the library's parser (clpad's names and
 * the frameworks'), the flags of those frameworks' meanings together. */
static int parse_modes(const char *arg, clpad_pad_mode *modes, int *n, unsigned *flags)
{
    char buf[512];
    if (strlen(arg) >= sizeof buf)
        return cli_error(CLI_USAGE, "--mode: the list is too long");
    strcpy(buf, arg);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        unsigned f = 0;
        if (*n == CLPAD_MAX_RANK)
            return cli_error(CLI_USAGE, "--mode: more than %d modes", CLPAD_MAX_RANK);
        if (clpad_pad_mode_parse(tok, &modes[*n], &f))
            return cli_error(CLI_USAGE, "--mode: %s", clpad_last_error());
        *flags |= f;
        (*n)++;
    }
    if (*n == 0 || arg[0] == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,"))
        return cli_error(CLI_USAGE, "--mode: an empty mode in '%s'", arg);
    return CLI_OK;
}

/* Options shared by the data-movement subcommands. */
int cmd_pad(int argc, char **argv)
{
    static const struct option opts[] = {
        {"mode", required_argument, NULL, 'm'},   {"pads-begin", required_argument, NULL, 'b'},
        {"pads-end", required_argument, NULL, 'e'}, {"value", required_argument, NULL, 'V'},
        {"device", required_argument, NULL, 'd'}, {"cpu", no_argument, NULL, 'C'},
        {"verify", no_argument, NULL, 'Y'},       {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {"same-as", required_argument, NULL, 'S'},
        {"layout", required_argument, NULL, 'L'}, {"quality", required_argument, NULL, 'Q'},
        {"axes", required_argument, NULL, 'A'},   {"to-multiple", required_argument, NULL, 'T'},
        {"placement", required_argument, NULL, 'P'},
        {"large-pads", required_argument, NULL, 'G'}, {"stat-length", required_argument, NULL, 'K'},
        {"reflect-type", required_argument, NULL, 'R'},
        {"end-values", required_argument, NULL, 'E'},
        CLI_WINDOW_OPTIONS,
        {0, 0, 0, 0}};
    clpad_pad_mode mode = CLPAD_PAD_CONSTANT;
    clpad_pad_mode modes[CLPAD_MAX_RANK];
    int nmodes = 0;
    unsigned mode_flags = 0;
    int np_mode = -1; /* a numpy.pad statistic (clpad_numpy_mode), or -1 */
    int64_t stat[CLPAD_MAX_RANK];
    int nstat = -1;
    bool odd = false; /* --reflect-type odd */
    double ends[2 * CLPAD_MAX_RANK];
    int nends = -1;
    int64_t axes[CLPAD_MAX_RANK], multiples[CLPAD_MAX_RANK];
    int nax = -1, nmult = -1;
    clpad_placement placement = CLPAD_PLACE_END;
    bool have_placement = false;
    bool large = false;         /* --large-pads given */
    unsigned large_flags = 0;   /* its clpad_pad_options flags */
    int64_t pb[CLPAD_MAX_RANK], pe[CLPAD_MAX_RANK];
    int npb = -1, npe = -1;
    const char *value_text = NULL;
    cli_run run = {0}; /* --device, --cpu, --verify, --quiet */
    int quality = 0;
    const char *same_as = NULL, *layout = NULL;
    struct cli_window_opts win;
    cli_window_init(&win);
    const cli_list_opt lists[] = {{'A', "--axes", axes, CLPAD_MAX_RANK, &nax},
                                  {'K', "--stat-length", stat, CLPAD_MAX_RANK, &nstat},
                                  {'b', "--pads-begin", pb, CLPAD_MAX_RANK, &npb},
                                  {'e', "--pads-end", pe, CLPAD_MAX_RANK, &npe},
                                  {0}};
    for (int c; (c = cli_getopt(argc, argv, ":m:b:e:d:qh", opts, &run, &quality, lists)) != -1;) {
        switch (c) {
        case CLI_OPT_BAD: return CLI_USAGE;
        case 'm': {
            np_mode = -1;
            for (int k = 0; k < NP_STATS; k++)
                if (!strcasecmp(optarg, k_np_modes[k]))
                    np_mode = k;
            if (!strcasecmp(optarg, "linear-ramp") || !strcasecmp(optarg, "linear_ramp"))
                np_mode = CLPAD_NUMPY_LINEAR_RAMP;
            if (np_mode >= 0)
                break;
            int rc = parse_modes(optarg, modes, &nmodes, &mode_flags);
            if (rc != CLI_OK)
                return rc;
            mode = modes[0];
            break;
        }
        case 'T':
            if (!cli_parse_i64_list(optarg, "--to-multiple", multiples, CLPAD_MAX_RANK, &nmult))
                return CLI_USAGE;
            if (nmult == 0)
                return cli_error(CLI_USAGE, "--to-multiple: give at least one N");
            break;
        case 'P':
            if (!strcasecmp(optarg, "end"))
                placement = CLPAD_PLACE_END;
            else if (!strcasecmp(optarg, "center") || !strcasecmp(optarg, "centre"))
                placement = CLPAD_PLACE_CENTER;
            else
                return cli_error(CLI_USAGE, "--placement: '%s' is not end or center", optarg);
            have_placement = true;
            break;
        case 'G':
            if (clpad_pad_large_pads_parse(optarg, &large_flags))
                return cli_error(CLI_USAGE, "--large-pads: %s", clpad_last_error());
            large = true;
            break;
        case 'E': {
            int rc = parse_f64_list(optarg, ends, 2 * CLPAD_MAX_RANK, &nends);
            if (rc != CLI_OK)
                return rc;
            break;
        }
        case 'R':
            if (strcasecmp(optarg, "odd") && strcasecmp(optarg, "even"))
                return cli_error(CLI_USAGE, "--reflect-type: '%s': expected even or odd", optarg);
            odd = !strcasecmp(optarg, "odd");
            break;
        case 'V':
            value_text = optarg;
            break;
        case 'h':
            pad_usage(stdout);
            return CLI_OK;
        case 'S':
            same_as = optarg;
            if (strcmp(optarg, "conv") && strcmp(optarg, "pool"))
                return cli_error(CLI_USAGE, "--same-as: '%s' is not conv or pool", optarg);
            break;
        case 'L':
            layout = optarg;
            if (strcasecmp(optarg, "NCHW") && strcasecmp(optarg, "NHWC"))
                return cli_error(CLI_USAGE, "--layout: '%s' is not NCHW or NHWC", optarg);
            break;
        case ':': return cli_bad_option("pad", c, argv[optind - 1]);
        default: {
            int rc = c >= CLI_WOPT_BASE ? cli_window_parse_opt(c, optarg, &win) : CLI_WINDOW_NOT_MINE;
            if (rc == CLI_WINDOW_NOT_MINE)
                return cli_bad_option("pad", c, argv[optind - 1]);
            if (rc != CLI_OK)
                return rc;
        }
        }
    }
    if (argc - optind != 2)
        return cli_error(CLI_USAGE, "pad: expected INPUT and OUTPUT, got %d argument%s",
                         argc - optind, argc - optind == 1 ? "" : "s");
    const char *in_path = argv[optind], *out_path = argv[optind + 1];
    if (nstat >= 0 && np_mode < 0)
        return cli_error(CLI_USAGE, "--stat-length applies to --mode maximum, minimum, mean and "
                                    "median");
    if (nends >= 0 && np_mode != CLPAD_NUMPY_LINEAR_RAMP)
        return cli_error(CLI_USAGE, "--end-values applies to --mode linear-ramp");
    if (odd) { /* numpy's odd reflection: clpad_pad_numpy */
        if (np_mode >= 0 || nmodes != 1 ||
            (modes[0] != CLPAD_PAD_REFLECT && modes[0] != CLPAD_PAD_SYMMETRIC))
            return cli_error(CLI_USAGE, "--reflect-type odd applies to one --mode, reflect or "
                                        "symmetric (or their np: names)");
        np_mode = modes[0] == CLPAD_PAD_REFLECT ? CLPAD_NUMPY_REFLECT_ODD
                                                : CLPAD_NUMPY_SYMMETRIC_ODD;
        nmodes = 0;         /* (the mode is np_mode's) */
    }
    if (np_mode >= 0 && (nax >= 0 || nmult >= 0 || same_as || large || have_placement ||
                         value_text || nmodes > 0))
        return cli_error(CLI_USAGE, "--mode %s: takes --pads-begin/--pads-end (>= 0)%s; --axes, "
                                    "--to-multiple, --placement, --same-as, --large-pads, "
                                    "--value and a mode list do not apply",
                         k_np_modes[np_mode < 0 ? 0 : np_mode],
                         np_mode < NP_STATS ? " and --stat-length" : "");
    bool any_constant = nmodes == 0;
    for (int k = 0; k < nmodes; k++)
        any_constant |= modes[k] == CLPAD_PAD_CONSTANT;
    if (have_placement && nmult < 0)
        return cli_error(CLI_USAGE, "pad: --placement applies to --to-multiple");
    if (nmult >= 0 && npb < 0 && npe < 0)
        npb = npe = 0; /* --to-multiple alone: no explicit pads (filled in below) */
    if (same_as && (nax >= 0 || nmult >= 0 || nmodes > 1))
        return cli_error(CLI_USAGE, "pad: --same-as computes every pad; --axes, --to-multiple "
                                    "and a --mode list do not apply");
    if (same_as) {
        if (npb >= 0 || npe >= 0)
            return cli_error(CLI_USAGE, "pad: --same-as computes the pads; do not give "
                                        "--pads-begin/--pads-end");
        if (mode != CLPAD_PAD_CONSTANT)
            return cli_error(CLI_USAGE, "pad: --same-as pads with constant values, not %s",
                             clpad_pad_mode_name(mode));
        if (cli_window_set_op(&win, same_as) != CLI_OK)
            return CLI_USAGE;
        npb = npe = 0; /* filled once the input's shape is known */
    } else if (layout || win.conv != CLI_WIN_NONE || win.kernel.n) {
        return cli_error(CLI_USAGE, "pad: window options (--layout, --kernel, --tf, ...) need "
                                    "--same-as conv|pool");
    }
    if (npb < 0 || npe < 0)
        return cli_error(CLI_USAGE, "pad: --pads-begin and --pads-end are required");
    if (npb != npe && !(nmult >= 0 && (npb == 0 || npe == 0)))
        return cli_error(CLI_USAGE, "pad: --pads-begin has %d values but --pads-end has %d", npb,
                         npe);
    /* --value: one value, or per axis (comma-separated) V or BEFORE:AFTER */
    bool per_side;
    int vrc = cli_value_form("pad", value_text, any_constant, mode, &per_side);
    if (vrc != CLI_OK || (vrc = cli_run_check("pad", &run)) != CLI_OK)
        return vrc;
    char err[512];
    if (tio_check_load_path(in_path, err, sizeof err))
        return cli_error(CLI_USAGE, "%s", err);
    /* An image is HWC, channels last (a batch of one, as NHWC without N):
     * --layout NHWC names its H and W, NCHW contradicts it. */
    bool image_in = strcmp(tio_format(in_path), "npy") != 0;
    if (same_as && image_in && layout && strcasecmp(layout, "NHWC"))
        return cli_error(CLI_USAGE,
                         "--layout %s: INPUT '%s' is an image, HWC (channels last); use --layout "
                         "NHWC or none, or a .npy for a channels-first tensor",
                         layout, in_path);
    int prc = cli_check_output("pad", argv + optind, out_path, quality);
    if (prc != CLI_OK)
        return prc;

    tio_tensor in = {0}, out = {0};
    int rc = CLI_FAIL;
    if (tio_load(in_path, &in, err, sizeof err)) {
        cli_error(CLI_FAIL, "%s", err);
        goto done;
    }
    if (np_mode >= 0) { /* numpy.pad's statistic: clpad_pad_numpy */
        if (npb != in.rank || npe != in.rank) {
            rc = cli_error(CLI_FAIL, "--pads-begin/--pads-end have %d/%d values but %s has rank "
                           "%d", npb, npe, in_path, in.rank);
            goto done;
        }
        if (nstat > 1 && nstat != in.rank) {
            rc = cli_error(CLI_FAIL, "--stat-length has %d values but %s has rank %d (give one, "
                           "or one per axis)", nstat, in_path, in.rank);
            goto done;
        }
        int64_t sl[CLPAD_MAX_RANK];
        for (int k = 0; k < in.rank; k++)
            sl[k] = nstat <= 0 ? -1 : stat[nstat == 1 ? 0 : k];
        /* --end-values: one value, one per axis, or before,after per axis */
        double eb[CLPAD_MAX_RANK] = {0}, ee[CLPAD_MAX_RANK] = {0};
        if (nends > 1 && nends != in.rank && nends != 2 * in.rank) {
            rc = cli_error(CLI_FAIL, "--end-values has %d values but %s has rank %d (give one, "
                           "one per axis, or before,after for each axis)", nends, in_path,
                           in.rank);
            goto done;
        }
        for (int k = 0; k < in.rank && nends > 0; k++) {
            bool pairs = nends == 2 * in.rank && nends != in.rank;
            eb[k] = ends[nends == 1 ? 0 : pairs ? 2 * k : k];
            ee[k] = ends[nends == 1 ? 0 : pairs ? 2 * k + 1 : k];
        }
        out.dtype = in.dtype;
        out.rank = in.rank;
        int64_t n = 1;
        for (int k = 0; k < in.rank; k++) {
            out.shape[k] = in.shape[k] + (pb[k] > 0 ? pb[k] : 0) + (pe[k] > 0 ? pe[k] : 0);
            n *= out.shape[k];
        }
        out.nbytes = (size_t)n * clpad_dtype_size(out.dtype);
        out.data = malloc(out.nbytes ? out.nbytes : 1);
        if (!out.data) {
            cli_error(CLI_FAIL, "out of memory for a %zu-byte output", out.nbytes);
            goto done;
        }
        np_op op = {&in, pb, pe, sl, (clpad_numpy_mode)np_mode, eb, ee};
        if (cli_run_op(&run, run_np, &op, out.data, out.nbytes))
            goto done; /* (the library's message names the argument: pads, stat length) */
        if (tio_check_save(out_path, out.dtype, out.rank, out.shape, err, sizeof err) ||
            tio_save(out_path, &out, err, sizeof err)) {
            cli_error(CLI_FAIL, "%s", err);
            goto done;
        }
        cli_report_input(&run, &in, in_path);
        rc = cli_report_output(&run, &out, out_path, "mode %s", k_np_modes[np_mode]);
        goto done;
    }
    if (same_as) { /* the window's pads on the spatial axes, zeros elsewhere */
        bool nhwc = layout && !strcasecmp(layout, "NHWC");
        int first = in.is_image ? 0 : nhwc ? 1 : 2; /* an image: H, W of HWC */
        int naxes = in.is_image ? 2 : in.rank - 2;
        if (naxes < 1 || first + naxes > in.rank) {
            rc = cli_error(CLI_FAIL, "--same-as: %s has rank %d; %s needs rank >= 3", in_path,
                           in.rank, layout ? layout : "NCHW");
            goto done;
        }
        cli_window_set_input(&win, naxes, in.shape + first);
        clpad_window_result wr;
        clpad_window_result_init(&wr);
        int wrc = cli_window_compute(&win, &wr);
        if (wrc != CLI_OK) {
            rc = wrc;
            goto done;
        }
        if (clpad_window_tensor_pads(&wr, in.rank, first, pb, pe)) {
            cli_error(CLI_FAIL, "%s", clpad_last_error());
            goto done;
        }
        npb = npe = in.rank;
        if (!run.quiet) {
            char d[160], s1[160], s2[160];
            cli_note(false, "window: %s -> pads_begin %s, pads_end %s",
                     cli_window_describe(&win, d, sizeof d), cli_shape_str(in.rank, pb, s1, sizeof s1),
                     cli_shape_str(in.rank, pe, s2, sizeof s2));
        }
    }
    /* --axes: the lists name those axes only (ONNX Pad-18); else every axis. A
     * count that does not match the input's rank depends on the input (exit 1);
     * one that does not match --axes is wrong on the command line alone (2). */
    const bool user_axes = nax >= 0;
    int listed = nax >= 0 ? nax : in.rank;
    int64_t all_axes[CLPAD_MAX_RANK];
    if (nax < 0 && in.is_image && in.rank == 3 &&
        (npb == 2 || npe == 2 || nmodes == 2 || nmult == 2 ||
         (nmult == 1 && npb == 0 && npe == 0))) {
        listed = 2; /* an image's H,W: the channels unpadded */
        nax = 2;
        axes[0] = 0, axes[1] = 1;
    }
    if (nax < 0)
        for (int k = 0; k < in.rank; k++)
            all_axes[k] = k;
    const int64_t *ax = nax >= 0 ? axes : all_axes;
    if (nmult >= 0 && npb == 0 && npe == 0) {
        for (int k = 0; k < listed; k++)
            pb[k] = pe[k] = 0;
        npb = npe = listed;
    }
    if (npb != listed || npe != listed) {
        rc = cli_error(user_axes ? CLI_USAGE : CLI_FAIL, "--pads-begin/--pads-end have %d values but %s has %s %d%s",
                       npb, in_path, nax >= 0 ? "--axes with" : "rank", listed,
                       nax >= 0 ? " axes" : in.is_image ? " (an image: give 2 or 3)" : "");
        goto done;
    }
    /* The forms composed by the library (clpad_pad_form_resolve): its
     * errors name the form's field, which is an option here. A count that
     * does not match the named axes is wrong on the command line alone when
     * --axes named them (exit 2), else it depends on the input (1); a value
     * of a list is wrong on the command line alone. */
    clpad_pad_form form;
    clpad_pad_form_init(&form);
    form.naxes = nax >= 0 ? listed : -1;
    form.axes = nax >= 0 ? ax : NULL;
    form.pads_begin = pb;
    form.pads_end = pe;
    form.nmodes = nmodes;
    form.modes = modes;
    form.mode_flags = mode_flags;
    form.large_pads = large ? (int)large_flags : CLPAD_CONFIG_DEFAULT;
    form.nmultiples = nmult > 0 ? nmult : 0;
    form.multiples = multiples;
    form.placement = placement;
    clpad_pad_options popt;
    int64_t fb[CLPAD_MAX_RANK], fe[CLPAD_MAX_RANK];
    if (clpad_pad_form_resolve(in.rank, in.shape, &form, fb, fe, &popt)) {
        clpad_error_info e = {.size = sizeof e};
        clpad_last_error_info(&e);
        static const struct {
            const char *field, *option;
        } options[] = {{"modes", "--mode"},
                       {"multiples", "--to-multiple"},
                       {"axes", "--axes"},
                       {"large_pads", "--large-pads"}};
        const char *option = "pad";
        for (size_t k = 0; k < sizeof options / sizeof *options; k++)
            if (!strcmp(e.argument, options[k].field))
                option = options[k].option;
        bool usage = e.index >= 0 ? strcmp(e.argument, "axes") != 0 : user_axes;
        rc = cli_error(usage ? CLI_USAGE : CLI_FAIL, "%s: %s", option, e.message);
        goto done;
    }
    memcpy(pb, fb, sizeof fb);
    memcpy(pe, fe, sizeof fe);
    npb = npe = in.rank;
    unsigned char value[8] = {0};
    unsigned char sides[2 * CLPAD_MAX_RANK * 8] = {0};
    if (per_side) { /* one entry per axis (an image: H,W), each V or B:A */
        if (cli_value_sides(value_text, in.dtype, in.rank, in.is_image, in_path, sides))
            goto done; /* (rc is CLI_FAIL) */
        popt.side_values = sides;
    } else if (value_text && clpad_scalar_parse(in.dtype, value_text, value)) {
        rc = cli_error(CLI_FAIL, "--value: %s", clpad_last_error());
        goto done;
    }
    out.dtype = in.dtype;
    out.rank = in.rank;
    if (clpad_pad_output_shape(in.rank, in.shape, pb, pe, &popt, out.shape)) {
        cli_error(CLI_FAIL, "%s", clpad_last_error());
        goto done;
    }
    pad_op op = {&in, pb, pe, &popt, value};
    if (cli_run_into(&run, out_path, NULL, &out, run_pad, &op) || cli_save(out_path, &out, quality))
        goto done;
    cli_report_input(&run, &in, in_path);
    char mode_desc[160] = "";
    for (int i = 0; i < (nmodes > 1 ? in.rank : 1); i++)
        snprintf(mode_desc + strlen(mode_desc), sizeof mode_desc - strlen(mode_desc), "%s%s",
                 i ? "," : "", clpad_pad_mode_name(popt.modes[i]));
    rc = cli_report_output(&run, &out, out_path, "mode %s%s", mode_desc,
                           popt.flags & CLPAD_PAD_LARGE_NUMPY ? ", large pads as numpy" : "");
done:
    cli_run_free(&run);
    tio_free(&in);
    tio_free(&out);
    return rc;
}
