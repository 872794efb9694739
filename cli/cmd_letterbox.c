/* `clpad letterbox`: a batch of images into one detector-ready tensor
 * (docs/letterbox.md), with each image's transform as JSON and a contact
 * sheet of the batch as PNG; optionally verified against the CPU reference.
 * Image files are read by the library's image reading (clpad_image.h,
 * cv2.imread's rules), .npy files by the CLI's loader (tensor_io.h). */
#include "cli.h"
#include "clpad_image.h"
#include "tensor_io.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unistr.h>

static void letterbox_usage(FILE *f)
{
    fprintf(f,
            "usage: clpad letterbox --size H,W [--interp bilinear|nearest] [--placement\n"
            "                       center|top-left] [--no-scaleup] [--mode MODE]\n"
            "                       [--value V[,V,...]] [--bgr] [--scale S] [--mean M[,M,...]]\n"
            "                       [--std S[,S,...]] [--dtype f32|f16|u8] [--layout nchw|nhwc]\n"
            "                       [--transforms OUT.json] [--preview SHEET.png]\n"
            "                       [--channels keep|1|3|4] [--max-pixels N]\n"
            "                       [--device SPEC | --cpu] [--verify] [--quiet]\n"
            "                       IMAGE... OUTPUT.npy\n"
            "\n"
            "Letterbox every IMAGE into an H x W slot and write the batch as one tensor\n"
            "[N, C, H, W] (or [N, H, W, C]) in one kernel launch: keep-aspect resize by\n"
            "r = min(H/h, W/w) to round(w*r) x round(h*r) (OpenCV's INTER_LINEAR arithmetic),\n"
            "placed in the slot, the border filled, each sample v of channel c stored as\n"
            "(v * scale - mean[c]) / std[c]. The defaults are Ultralytics' LetterBox as YOLO\n"
            "models take it, except the 1/255 (add --scale 1/255). docs/letterbox.md states\n"
            "every rule exactly.\n"
            "\n"
            "  -s, --size H,W         the slot of every image (required)\n"
            "      --interp I         bilinear (default; OpenCV INTER_LINEAR) or nearest\n"
            "      --placement P      center (default; the odd pixel to the bottom/right)\n"
            "                         or top-left\n"
            "      --no-scaleup       never enlarge an image (r <= 1)\n"
            "  -m, --mode MODE        the border: constant (default), edge, reflect,\n"
            "                         symmetric, wrap (relative to the resized image), or\n"
            "                         a framework's name with that meaning (cv:REPLICATE,\n"
            "                         torch:circular, ...; docs/modes.md); np:reflect and\n"
            "                         cv:REFLECT_101 mean mirrors this command does not\n"
            "                         have and are refused\n"
            "  -v, --value V[,V,..]   constant border, u8 per channel of the images (as\n"
            "                         read, before --bgr) or one for all (default 114)\n"
            "      --bgr              swap channels 0 and 2 (images are read as RGB)\n"
            "      --scale S          multiplier of every sample; a number or A/B, which is\n"
            "                         A/B in double precision rounded to single (default 1)\n"
            "      --mean M[,M,..]    subtracted, per output channel (after --bgr) or one for\n"
            "                         all (default 0)\n"
            "      --std S[,S,..]     divisor, per output channel or one for all (default 1)\n"
            "      --dtype T          f32 (default), f16 or u8 (rounded, saturated)\n"
            "      --layout L         nchw (default) or nhwc\n"
            "      --transforms FILE  write each image's scale, pad_top, pad_left,\n"
            "                         resized_h, resized_w as JSON (box back to the image:\n"
            "                         x_src = (x - pad_left) / scale); valid UTF-8 whatever\n"
            "                         the file names (a name that is not UTF-8 also comes\n"
            "                         as \"file_bytes\", its bytes in hex: docs/letterbox.md)\n"
            "      --preview FILE     write a contact sheet of the batch as PNG: every image\n"
            "                         letterboxed as the model sees it (u8, before\n"
            "                         normalisation, channels as read), in a grid\n"
            "      --channels C       how image files are read: 3 (default; RGB, as\n"
            "                         cv2.imread(path, IMREAD_COLOR): grey replicated,\n"
            "                         alpha dropped, 16-bit reduced), 1 (grey, as\n"
            "                         IMREAD_GRAYSCALE), 4 (RGBA, an opaque alpha added\n"
            "                         where there is none) or keep (as stored; then the\n"
            "                         files must agree)\n"
            "      --max-pixels N     refuse an image of more than N pixels (default\n"
            "                         178956970, Pillow's decompression-bomb limit)\n"
            "  -d, --device SPEC      OpenCL device: P:D index or name substring\n"
            "      --cpu              use the CPU reference path, no OpenCL\n"
            "      --verify           run the OpenCL kernel (never the small-call CPU path),\n"
            "                         then the CPU reference, and compare byte for byte\n"
            "  -q, --quiet            print nothing but errors\n"
            "  -h, --help             show this help\n"
            "\n"
            "IMAGE: %s.\n"
            "An image file is read by --channels, its EXIF orientation applied\n"
            "(docs/letterbox.md, \"Reading images\"); a .npy as u8 HxW or HxWxC as it is;\n"
            "every input must end up with the same channel count. OUTPUT: .npy.\n"
            "OUTPUT, --transforms and --preview are written only when the whole batch\n"
            "succeeded, as one set: each to a temporary file beside it, then all renamed in\n"
            "one step. SIGINT, SIGTERM or SIGHUP leave the previous files or the new set,\n"
            "never a mix and no temporary (during the renames the signal waits for them).\n"
            "No output may be an IMAGE or another output (the same file, through links\n"
            "too): a usage error.\n"
            "Exit status: 0 success, 1 failure, 2 usage error.\n",
            tio_load_extensions());
}

/* Up to `cap` floats from "a,b,c"; one value is repeated over all. */
static bool parse_floats(const char *text, const char *opt, float *out, int cap, int *count)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        if (n == cap)
            return cli_error(CLI_USAGE, "%s: more than %d values", opt, cap), false;
        char *end;
        errno = 0;
        float v = strtof(p, &end);
        if (end == p || (*end && *end != ',') || !isfinite(v))
            return cli_error(CLI_USAGE, "%s: '%s' is not a comma-separated list of finite numbers",
                             opt, text),
                   false;
        out[n++] = v;
        if (!*end)
            break;
        p = end + 1;
    }
    *count = n;
    return true;
}

/* S or A/B. */
static bool parse_scale(const char *text, float *out)
{
    char *end;
    double a = strtod(text, &end);
    if (end != text && *end == '/') {
        const char *q = end + 1;
        double b = strtod(q, &end);
        if (end == q || *end || b == 0 || !isfinite(a / b))
            return cli_error(CLI_USAGE, "--scale: '%s' is not a number or A/B", text), false;
        *out = (float)(a / b);
        return true;
    }
    int n;
    return parse_floats(text, "--scale", out, 1, &n);
}

/* One input: a .npy by the CLI's loader, an image file by the library's
 * image reading with `ro` (u8 HxWxC). 0, or 1 with the message printed. */
static int load_input(const char *path, const clpad_read_options *ro, tio_tensor *t)
{
    char err[512];
    const char *fmt = tio_format(path);
    if (fmt && !strcmp(fmt, "npy")) {
        if (tio_load(path, t, err, sizeof err))
            return cli_error(CLI_FAIL, "%s", err), 1;
        return 0;
    }
    if (tio_check_load_path(path, err, sizeof err))
        return cli_error(CLI_FAIL, "%s", err), 1;
    clpad_decoded_image img = {.size = sizeof img};
    if (clpad_image_read(path, ro, &img))
        return cli_error(CLI_FAIL, "%s", clpad_last_error()), 1;
    *t = (tio_tensor){.dtype = img.dtype, .rank = 3, .shape = {img.height, img.width,
                                                               img.channels},
                      .data = img.data, .is_image = true,
                      .nbytes = (size_t)(img.height * img.width * img.channels)};
    return 0;
}

/* The letterbox call, for cli_run_op. */
typedef struct lb_op {
    const clpad_image *images;
    size_t n;
    const clpad_letterbox_options *o;
    clpad_letterbox_transform *t;
} lb_op;

static clpad_status run_letterbox(clpad_context *ctx, const void *op, void *out, size_t out_bytes,
                                  clpad_run_info *info)
{
    const lb_op *l = op;
    return clpad_letterbox(ctx, l->images, l->n, l->o, out, out_bytes, l->t, info);
}

/* A file name in the JSON, which must stay valid UTF-8 whatever the name's
 * bytes: "file" holds the name as text, each byte that is not part of a
 * UTF-8 sequence (RFC 3629: libunistring's u8_mbtoucr) replaced by U+FFFD;
 * a name that is not UTF-8 also gets "file_bytes", its exact bytes in
 * lower-case hex. */
static bool add_file_name(cJSON *e, const char *name)
{
    size_t n = strlen(name);
    const uint8_t *b = (const uint8_t *)name;
    if (!u8_check(b, n))
        return cJSON_AddStringToObject(e, "file", name) != NULL;
    char *text = malloc(3 * n + 1), *hex = malloc(2 * n + 1);
    bool ok = text && hex;
    if (ok) {
        size_t t = 0;
        for (size_t i = 0; i < n;) {
            ucs4_t uc;
            int k = u8_mbtoucr(&uc, b + i, n - i);
            if (k < 0) {
                memcpy(text + t, "\xef\xbf\xbd", 3); /* U+FFFD */
                t += 3;
                i++;
            } else {
                memcpy(text + t, b + i, (size_t)k);
                t += (size_t)k;
                i += (size_t)k;
            }
        }
        text[t] = '\0';
        for (size_t i = 0; i < n; i++)
            snprintf(hex + 2 * i, 3, "%02x", b[i]);
        ok = cJSON_AddStringToObject(e, "file", text) &&
             cJSON_AddStringToObject(e, "file_bytes", hex);
    }
    free(text);
    free(hex);
    return ok;
}

/* The --transforms JSON (docs/letterbox.md), with a final newline, into
 * *json (malloc'd, *len bytes). */
static int make_transforms(const char *path, char **files, const clpad_image *im, size_t n,
                           const clpad_letterbox_options *o, const clpad_letterbox_transform *t,
                           char **json, size_t *len)
{
    *json = NULL;
    cJSON *root = cJSON_CreateObject();
    bool ok = root != NULL;
    cJSON *size = ok ? cJSON_AddArrayToObject(root, "size") : NULL;
    if (size) {
        cJSON_AddItemToArray(size, cJSON_CreateNumber((double)o->out_height));
        cJSON_AddItemToArray(size, cJSON_CreateNumber((double)o->out_width));
    }
    if (root) {
        cJSON_AddStringToObject(root, "layout", clpad_layout_name(o->layout));
        cJSON_AddStringToObject(root, "dtype", clpad_dtype_name(o->dtype));
    }
    cJSON *arr = root ? cJSON_AddArrayToObject(root, "images") : NULL;
    ok = arr != NULL;
    for (size_t i = 0; i < n && ok; i++) {
        cJSON *e = cJSON_CreateObject();
        ok = e && cJSON_AddItemToArray(arr, e) && add_file_name(e, files[i]);
        if (!ok)
            break;
        cJSON_AddNumberToObject(e, "height", (double)im[i].height);
        cJSON_AddNumberToObject(e, "width", (double)im[i].width);
        /* 17 significant digits: the double itself (cJSON's own printing
         * may stop at 15 when they compare equal within its epsilon) */
        char num[40];
        snprintf(num, sizeof num, "%.17g", t[i].scale);
        cJSON_AddRawToObject(e, "scale", num);
        cJSON_AddNumberToObject(e, "pad_top", (double)t[i].pad_top);
        cJSON_AddNumberToObject(e, "pad_left", (double)t[i].pad_left);
        cJSON_AddNumberToObject(e, "resized_h", (double)t[i].resized_height);
        cJSON_AddNumberToObject(e, "resized_w", (double)t[i].resized_width);
    }
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    size_t tl = text ? strlen(text) : 0;
    *json = text ? malloc(tl + 2) : NULL;
    if (*json) {
        memcpy(*json, text, tl);
        (*json)[tl] = '\n';
        (*json)[tl + 1] = '\0';
        *len = tl + 1;
    }
    cJSON_free(text);
    if (!*json)
        return cli_error(CLI_FAIL, "%s: out of memory for the JSON", path);
    return CLI_OK;
}

/* The contact sheet: the batch letterboxed as u8 NHWC with the geometry and
 * border of the run (no normalisation, no channel swap), the slots in a
 * grid of about square shape with 4-pixel gaps, subsampled by an integer
 * factor so that the sheet stays within 4096 pixels on a side. */
static int make_preview(const clpad_image *im, size_t n, const clpad_letterbox_options *run,
                        clpad_context *ctx, tio_tensor *sheet)
{
    clpad_letterbox_options o = *run;
    o.dtype = CLPAD_U8;
    o.layout = CLPAD_LAYOUT_NHWC;
    o.swap_rb = 0;
    o.scale = 1.0f;
    for (int c = 0; c < CLPAD_LETTERBOX_MAX_CHANNELS; c++)
        o.mean[c] = 0.0f, o.std[c] = 1.0f;
    int64_t C = im[0].channels, H = o.out_height, W = o.out_width;
    size_t slot = (size_t)(H * W * C);
    unsigned char *batch = malloc(slot * n);
    if (!batch)
        return cli_error(CLI_FAIL, "--preview: out of memory");
    if (clpad_letterbox(ctx, im, n, &o, batch, slot * n, NULL, NULL)) {
        free(batch);
        return cli_error(CLI_FAIL, "--preview: %s", clpad_last_error());
    }
    int64_t cols = 1;
    while (cols * cols < (int64_t)n)
        cols++;
    int64_t rows = ((int64_t)n + cols - 1) / cols, gap = 4;
    int64_t k = 1; /* subsampling */
    while ((cols * (W / k + gap) + gap > 4096 || rows * (H / k + gap) + gap > 4096) &&
           (W / k > 1 || H / k > 1))
        k++;
    int64_t th = (H + k - 1) / k, tw = (W + k - 1) / k;
    *sheet = (tio_tensor){.dtype = CLPAD_U8, .rank = 3, .is_image = true};
    sheet->shape[0] = rows * (th + gap) + gap;
    sheet->shape[1] = cols * (tw + gap) + gap;
    sheet->shape[2] = C;
    sheet->nbytes = (size_t)(sheet->shape[0] * sheet->shape[1] * C);
    sheet->data = malloc(sheet->nbytes);
    if (!sheet->data) {
        free(batch);
        return cli_error(CLI_FAIL, "--preview: out of memory");
    }
    memset(sheet->data, 40, sheet->nbytes); /* dark gaps */
    unsigned char *s = sheet->data;
    for (size_t i = 0; i < n; i++) {
        int64_t r0 = gap + (int64_t)i / cols * (th + gap), c0 = gap + (int64_t)i % cols * (tw + gap);
        for (int64_t y = 0; y < th; y++)
            for (int64_t x = 0; x < tw; x++)
                memcpy(s + ((r0 + y) * sheet->shape[1] + c0 + x) * C,
                       batch + i * slot + ((y * k) * W + x * k) * C, (size_t)C);
    }
    free(batch);
    return CLI_OK;
}

int cmd_letterbox(int argc, char **argv)
{
    enum { O_INTERP = 256, O_PLACE, O_NOUP, O_BGR, O_SCALE, O_MEAN, O_STD, O_DTYPE, O_LAYOUT,
           O_TRANSFORMS, O_PREVIEW, O_CPU, O_VERIFY, O_CHANNELS, O_MAX_PIXELS };
    static const struct option opts[] = {
        {"size", required_argument, NULL, 's'},       {"interp", required_argument, NULL, O_INTERP},
        {"placement", required_argument, NULL, O_PLACE}, {"no-scaleup", no_argument, NULL, O_NOUP},
        {"mode", required_argument, NULL, 'm'},       {"value", required_argument, NULL, 'v'},
        {"bgr", no_argument, NULL, O_BGR},            {"scale", required_argument, NULL, O_SCALE},
        {"mean", required_argument, NULL, O_MEAN},    {"std", required_argument, NULL, O_STD},
        {"dtype", required_argument, NULL, O_DTYPE},  {"layout", required_argument, NULL, O_LAYOUT},
        {"transforms", required_argument, NULL, O_TRANSFORMS},
        {"preview", required_argument, NULL, O_PREVIEW},
        {"device", required_argument, NULL, 'd'},     {"cpu", no_argument, NULL, O_CPU},
        {"verify", no_argument, NULL, O_VERIFY},      {"quiet", no_argument, NULL, 'q'},
        {"channels", required_argument, NULL, O_CHANNELS},
        {"max-pixels", required_argument, NULL, O_MAX_PIXELS},
        {"help", no_argument, NULL, 'h'},             {0, 0, 0, 0}};
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 0, 0);
    clpad_read_options ro;
    clpad_read_options_init(&ro);
    int64_t size[2];
    int nsize = 0, nvalue = 0, nmean = 0, nstd = 0;
    int64_t values[CLPAD_LETTERBOX_MAX_CHANNELS];
    float mean[CLPAD_LETTERBOX_MAX_CHANNELS], stdv[CLPAD_LETTERBOX_MAX_CHANNELS];
    const char *device = NULL, *transforms = NULL, *preview = NULL;
    bool cpu = false, verify = false, quiet = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:m:v:d:qh", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (!cli_parse_i64_list(optarg, "--size", size, 2, &nsize))
                return CLI_USAGE;
            if (nsize != 2 || size[0] < 1 || size[1] < 1)
                return cli_error(CLI_USAGE, "--size: '%s' is not H,W with both >= 1", optarg);
            break;
        case O_INTERP:
            if (clpad_interp_from_name(optarg, &o.interp))
                return cli_error(CLI_USAGE, "--interp: %s", clpad_last_error());
            break;
        case O_PLACE:
            if (clpad_placement_from_name(optarg, &o.placement))
                return cli_error(CLI_USAGE, "--placement: %s", clpad_last_error());
            break;
        case O_NOUP: o.scaleup = 0; break;
        case 'm':
            if (clpad_pad_mode_parse_within_limits(optarg, &o.pad_mode))
                return cli_error(CLI_USAGE, "--mode: %s", clpad_last_error());
            break;
        case 'v':
            if (!cli_parse_i64_list(optarg, "--value", values, CLPAD_LETTERBOX_MAX_CHANNELS,
                                    &nvalue))
                return CLI_USAGE;
            for (int k = 0; k < nvalue; k++)
                if (values[k] < 0 || values[k] > 255)
                    return cli_error(CLI_USAGE, "--value: %lld is not a u8 (0..255)",
                                     (long long)values[k]);
            if (nvalue == 0)
                return cli_error(CLI_USAGE, "--value: no value");
            break;
        case O_BGR: o.swap_rb = 1; break;
        case O_SCALE:
            if (!parse_scale(optarg, &o.scale))
                return CLI_USAGE;
            break;
        case O_MEAN:
            if (!parse_floats(optarg, "--mean", mean, CLPAD_LETTERBOX_MAX_CHANNELS, &nmean))
                return CLI_USAGE;
            break;
        case O_STD:
            if (!parse_floats(optarg, "--std", stdv, CLPAD_LETTERBOX_MAX_CHANNELS, &nstd))
                return CLI_USAGE;
            break;
        case O_DTYPE:
            if (clpad_dtype_from_name(optarg, &o.dtype) ||
                (o.dtype != CLPAD_F32 && o.dtype != CLPAD_F16 && o.dtype != CLPAD_U8))
                return cli_error(CLI_USAGE, "--dtype: '%s' is not f32, f16 or u8", optarg);
            break;
        case O_LAYOUT:
            if (clpad_layout_from_name(optarg, &o.layout))
                return cli_error(CLI_USAGE, "--layout: %s", clpad_last_error());
            break;
        case O_TRANSFORMS: transforms = optarg; break;
        case O_PREVIEW: preview = optarg; break;
        case 'd': device = optarg; break;
        case O_CPU: cpu = true; break;
        case O_VERIFY: verify = true; break;
        case O_CHANNELS:
            if (!strcmp(optarg, "keep"))
                ro.channels = CLPAD_CHANNELS_KEEP;
            else if (!strcmp(optarg, "1") || !strcmp(optarg, "3") || !strcmp(optarg, "4"))
                ro.channels = optarg[0] - '0';
            else
                return cli_error(CLI_USAGE, "--channels: '%s' is not keep, 1, 3 or 4", optarg);
            break;
        case O_MAX_PIXELS: {
            int64_t v[1];
            int nv = 0;
            if (!cli_parse_i64_list(optarg, "--max-pixels", v, 1, &nv))
                return CLI_USAGE;
            if (nv != 1 || v[0] < 1)
                return cli_error(CLI_USAGE, "--max-pixels: '%s' is not a number >= 1", optarg);
            ro.max_pixels = (uint64_t)v[0];
            break;
        }
        case 'q': quiet = true; break;
        case 'h': letterbox_usage(stdout); return CLI_OK;
        case ':':
            return cli_error(CLI_USAGE, "letterbox: option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_error(CLI_USAGE, "letterbox: unknown option '%s' (try `clpad letterbox --help`)",
                             argv[optind - 1]);
        }
    }
    if (nsize != 2)
        return cli_error(CLI_USAGE, "letterbox: --size H,W is required");
    if (argc - optind < 2)
        return cli_error(CLI_USAGE, "letterbox: expected IMAGE... OUTPUT.npy");
    if (nvalue && o.pad_mode != CLPAD_PAD_CONSTANT)
        return cli_error(CLI_USAGE, "letterbox: --value is only meaningful with --mode constant, "
                                    "not %s",
                         clpad_pad_mode_name(o.pad_mode));
    if (cpu && device)
        return cli_error(CLI_USAGE, "letterbox: --cpu and --device exclude each other");
    o.out_height = size[0];
    o.out_width = size[1];
    size_t n = (size_t)(argc - optind - 1);
    char **files = argv + optind;
    const char *out_path = argv[argc - 1];
    const char *fmt = tio_format(out_path);
    if (!fmt || strcmp(fmt, "npy"))
        return cli_error(CLI_USAGE, "OUTPUT '%s': the batch is written as .npy", out_path);
    if (transforms && (strlen(transforms) < 5 ||
                       strcasecmp(transforms + strlen(transforms) - 5, ".json")))
        return cli_error(CLI_USAGE, "--transforms '%s': expected a .json file", transforms);
    if (preview && (!tio_format(preview) || strcmp(tio_format(preview), "png")))
        return cli_error(CLI_USAGE, "--preview '%s': expected a .png file", preview);
    const cli_output outputs[] = {
        {"OUTPUT", out_path}, {"--transforms", transforms}, {"--preview", preview}};
    int prc = cli_check_paths(files, n, outputs, 3);
    if (prc != CLI_OK)
        return prc;

    tio_tensor *in = calloc(n, sizeof *in);
    clpad_image *im = calloc(n, sizeof *im);
    clpad_letterbox_transform *t = calloc(n, sizeof *t);
    tio_tensor out = {0}, sheet = {0};
    char *json = NULL;
    size_t json_len = 0;
    cli_run run = {.device = device, .cpu = cpu, .verify = verify, .quiet = quiet};
    int rc = CLI_FAIL;
    if (!in || !im || !t) {
        cli_error(CLI_FAIL, "out of memory for %zu images", n);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (load_input(files[i], &ro, &in[i]))
            goto done;
        tio_tensor *x = &in[i];
        if (x->dtype != CLPAD_U8 || x->rank < 2 || x->rank > 3) {
            cli_error(CLI_FAIL, "%s (images[%zu]): a %s tensor of rank %d is not an image "
                                "(u8 HxW or HxWxC)",
                      files[i], i, clpad_dtype_name(x->dtype), x->rank);
            goto done;
        }
        im[i] = (clpad_image){.data = x->data, .height = x->shape[0], .width = x->shape[1],
                              .channels = x->rank == 3 ? x->shape[2] : 1};
    }
    int64_t C = im[0].channels;
    for (size_t i = 1; i < n; i++)
        if (im[i].channels != C) {
            cli_error(CLI_FAIL, "%s has %lld channels but %s has %lld: a batch has one channel "
                                "count (image files are read with --channels; a .npy as it is)",
                      files[i], (long long)im[i].channels, files[0], (long long)C);
            goto done;
        }
    /* one value for every channel, or one per channel */
    for (int k = 0; k < CLPAD_LETTERBOX_MAX_CHANNELS; k++) {
        if (nvalue)
            o.pad_value[k] = (uint8_t)values[nvalue == 1 ? 0 : k < nvalue ? k : 0];
        if (nmean)
            o.mean[k] = mean[nmean == 1 ? 0 : k < nmean ? k : 0];
        if (nstd)
            o.std[k] = stdv[nstd == 1 ? 0 : k < nstd ? k : 0];
    }
    if ((nvalue > 1 && nvalue != C) || (nmean > 1 && nmean != C) || (nstd > 1 && nstd != C)) {
        rc = cli_error(CLI_USAGE, "--value, --mean and --std take one value or one per channel; "
                                  "the images have %lld",
                       (long long)C);
        goto done;
    }
    out.dtype = o.dtype;
    out.rank = 4;
    if (clpad_letterbox_plan(im, n, &o, out.shape, NULL)) {
        /* name the file of images[i] too */
        clpad_error_info e = {.size = sizeof e};
        clpad_last_error_info(&e);
        if (!strcmp(e.argument, "images") && e.index >= 0 && (size_t)e.index < n)
            cli_error(CLI_FAIL, "%s (%s)", e.message, files[e.index]);
        else
            cli_error(CLI_FAIL, "%s", clpad_last_error());
        goto done;
    }
    out.nbytes = (size_t)(out.shape[0] * out.shape[1] * out.shape[2] * out.shape[3]) *
                 clpad_dtype_size(o.dtype);
    out.data = malloc(out.nbytes ? out.nbytes : 1);
    if (!out.data) {
        cli_error(CLI_FAIL, "out of memory for a %zu-byte output", out.nbytes);
        goto done;
    }
    lb_op op = {im, n, &o, t};
    if (cli_run_op(&run, run_letterbox, &op, out.data, out.nbytes))
        goto done;
    /* Every output in memory first, then all written as one set. */
    if (transforms && make_transforms(transforms, files, im, n, &o, t, &json, &json_len))
        goto done;
    if (preview && make_preview(im, n, &o, run.ctx, &sheet))
        goto done;
    const cli_file written[] = {{out_path, &out, NULL, 0},
                                {transforms, NULL, json, json_len},
                                {preview, &sheet, NULL, 0}};
    if (cli_save_outputs(written, 3, 0))
        goto done;
    char s1[160];
    cli_report_device(&run);
    cli_note(quiet, "input:  %zu images, %lld channels, the first %lldx%lld (%s)", n,
             (long long)C, (long long)im[0].height, (long long)im[0].width, files[0]);
    cli_note(quiet, "output: %s %s %s, %s, %s border (%s)",
             cli_shape_str(4, out.shape, s1, sizeof s1), clpad_dtype_name(o.dtype),
             clpad_layout_name(o.layout), clpad_interp_name(o.interp),
             clpad_pad_mode_name(o.pad_mode), out_path);
    cli_report_timing(&run, out.nbytes);
    rc = CLI_OK;
done:
    cli_run_free(&run);
    for (size_t i = 0; in && i < n; i++)
        tio_free(&in[i]);
    free(in);
    free(im);
    free(t);
    free(json);
    tio_free(&out);
    tio_free(&sheet);
    return rc;
}
