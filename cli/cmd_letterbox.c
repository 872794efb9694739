/* `clpad letterbox`: image files, folders, patterns and @lists into one
 * detector-ready tensor (docs/letterbox.md) through the library's stream
 * (clpad_stream.h: decoder threads, batches written as they complete), with
 * each image's transform as JSON and a contact sheet as PNG; optionally
 * verified against the CPU reference. Image files are read by the library
 * (cv2.imread's rules), .npy files by the CLI's loader (tensor_io.h). */
#include "cli.h"
#include "clpad_stream.h"
#include "tensor_io.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <unistr.h>

static void letterbox_usage(FILE *f)
{
    fprintf(f,
            "usage: clpad letterbox --size H,W [--preset NAME] [--interp KIND]\n"
            "                       [--fit contain|cover|stretch] [--resize-shorter S]\n"
            "                       [--placement center|top-left] [--no-scaleup] [--mode MODE]\n"
            "                       [--value V[,V,...]] [--bgr] [--scale S] [--mean M[,M,...]]\n"
            "                       [--std S[,S,...]] [--divisor D] [--dtype f32|f16|u8]\n"
            "                       [--layout nchw|nhwc]\n"
            "                       [--batch B] [--transforms OUT.json] [--preview SHEET.png]\n"
            "                       [--channels keep|1|3|4] [--max-pixels N] [--workers N]\n"
            "                       [--decode-scale off|auto] [--on-error fail|skip]\n"
            "                       [--device SPEC | --cpu] [--verify] [--quiet]\n"
            "                       IMAGE... OUTPUT.npy\n"
            "       clpad letterbox --input-format nv12|nv21|i420|yv12 [--frame-size W,H]\n"
            "                       [--color-matrix bt601|bt709|bt2020]\n"
            "                       [--color-range limited|full] --size H,W [options]\n"
            "                       FRAMES... OUTPUT.npy\n"
            "\n"
            "Letterbox every IMAGE into an H x W slot and write the batch as one tensor\n"
            "[N, C, H, W] (or [N, H, W, C]): keep-aspect resize by r = min(H/h, W/w) to\n"
            "round(w*r) x round(h*r) (OpenCV's INTER_LINEAR arithmetic), placed in the slot,\n"
            "the border filled, each sample v of channel c stored as\n"
            "((v * scale) / divisor - mean[c]) / std[c]. The defaults are Ultralytics'\n"
            "LetterBox as YOLO models take it, except the 1/255 (add --preset ultralytics,\n"
            "or --std 255). `clpad preprocess` is this command (its --fit and\n"
            "--resize-shorter make a classifier's input: --preset imagenet).\n"
            "Images are decoded on every core while the previous batch is letterboxed, and\n"
            "the output is written as batches complete. docs/letterbox.md states every\n"
            "rule exactly.\n"
            "\n"
            "  -s, --size H,W         the slot of every image (required)\n"
            "      --preset NAME      a named set of the options below; options given too\n"
            "                         override it. Presets:\n");
    const char *desc;
    for (size_t i = 0; clpad_letterbox_preset_name(i, &desc); i++)
        fprintf(f, "                           %s: %s\n", clpad_letterbox_preset_name(i, NULL),
                desc);
    fprintf(f,
            "      --interp I         bilinear (default; OpenCV INTER_LINEAR), nearest,\n"
            "                         area (OpenCV INTER_AREA: the box average that\n"
            "                         downscales without aliasing), bicubic (OpenCV\n"
            "                         INTER_CUBIC, its own arithmetic), or Pillow's\n"
            "                         antialiased Image.resize: pil-bilinear (what\n"
            "                         torchvision's Resize does to PIL images),\n"
            "                         pil-bicubic, pil-lanczos\n"
            "      --pil-version V    13 (default) or 12: the Pillow release whose resize\n"
            "                         the pil-* kinds reproduce (they differ in which\n"
            "                         pass runs first for some sizes)\n"
            "      --fit F            contain (default: the letterbox), cover (keep the\n"
            "                         aspect, cover the slot, crop the centre as\n"
            "                         torchvision's CenterCrop) or stretch (resize to the\n"
            "                         slot, each axis by its own ratio)\n"
            "      --resize-shorter S torchvision's Resize(S): the shorter side to S, the\n"
            "                         longer to int(S * long / short), then the slot\n"
            "                         cropped from the centre (implies --fit cover)\n"
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
            "      --std S[,S,..]     divisor, per output channel or one for all (default 1;\n"
            "                         --std 255 is x / 255 exactly)\n"
            "      --divisor D        every sample divided by D after --scale, before\n"
            "                         --mean (default 1; torchvision's ToTensor: 255)\n"
            "      --dtype T          f32 (default), f16 or u8 (rounded, saturated)\n"
            "      --layout L         nchw (default) or nhwc\n"
            "      --batch B          write one file per batch of B images, OUTPUT-00000.npy,\n"
            "                         OUTPUT-00001.npy, ... (the number zero-padded to 5\n"
            "                         digits, or more when needed); without it, one OUTPUT\n"
            "      --transforms FILE  write each image's file, source size, scale, pad_top,\n"
            "                         pad_left, resized_h, resized_w, scale_y, scale_x as\n"
            "                         JSON (box back to the image: x_src = (x - pad_left) /\n"
            "                         scale_x; pads are negative where cropped), and the\n"
            "                         skipped files with their reason; valid UTF-8 whatever\n"
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
            "      --workers N        decoder threads (default 0: one per core)\n"
            "      --decode-scale S   off (default: the exact result) or auto: a JPEG is\n"
            "                         decoded at 1/2, 1/4 or 1/8 of its size when that is\n"
            "                         still at least its resized size (faster; not exact)\n"
            "      --on-error E       fail (default): a file that cannot be read ends the\n"
            "                         run, naming it, and nothing is written; skip: it is\n"
            "                         left out and listed with its reason in --transforms\n"
            "                         (a file named that does not exist, too)\n"
            "  -d, --device SPEC      OpenCL device: P:D index or name substring\n"
            "      --cpu              use the CPU reference path, no OpenCL\n"
            "      --verify           run the OpenCL kernel (never the small-call CPU path),\n"
            "                         then the CPU reference, and compare byte for byte\n"
            "  -q, --quiet            print nothing but errors (and no progress line)\n"
            "  -h, --help             show this help\n"
            "\n"
            "IMAGE: a file (%s), a directory (every image file below it,\n"
            "sorted by path; names starting with '.' left out), a pattern (\"photos/*.jpg\",\n"
            "quoted: glob(3), sorted) or @LIST (a file of paths, one per line, relative to\n"
            "its directory). An image file is read by --channels, its EXIF orientation\n"
            "applied (docs/letterbox.md, \"Reading images\"); a .npy as u8 HxW or HxWxC as\n"
            "it is; every input must end up with the same channel count. OUTPUT: .npy.\n"
            "On a terminal a progress line shows images, images/s and the time left.\n"
            "The outputs are written only when the whole batch succeeded, as one set: each\n"
            "to a temporary file beside it as batches complete, then all renamed in one\n"
            "step. SIGINT, SIGTERM or SIGHUP leave the previous files or the new set,\n"
            "never a mix and no temporary (during the renames the signal waits for them).\n"
            "No output may be an IMAGE, an @LIST or another output (the same file,\n"
            "through links too): a usage error.\n"
            "\n"
            "YUV 4:2:0 video frames (docs/letterbox.md, \"YUV frames\"): with\n"
            "--input-format, each FRAMES file is a raw file of one or more frames of\n"
            "--frame-size W,H back to back (W * H * 3 / 2 bytes each; a size that is not a\n"
            "multiple of that is an error), or a .npy of u8 (H * 3 / 2, W) or\n"
            "(N, H * 3 / 2, W); every frame becomes one image of the batch, converted to\n"
            "RGB (--bgr: BGR) as it is resized, in the same launch. --color-matrix bt601\n"
            "(default; OpenCV's cvtColor bit for bit), bt709 or bt2020; --color-range\n"
            "limited (default) or full. W and H must be even; --interp bilinear or\n"
            "nearest; --batch, --transforms, --preview and the image-reading options are\n"
            "for image files.\n"
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

/* The stream's reader: a .npy by the CLI's loader (u8 HxW or HxWxC, as it
 * is), anything else by the library (clpad_image_read, cv2.imread's rules;
 * the stream has set any decode scaling in `o`). */
static clpad_status cli_read(void *user, const char *path, size_t index,
                             const clpad_read_options *o, clpad_decoded_image *out, char *msg,
                             size_t msg_size)
{
    (void)user;
    (void)index;
    const char *fmt = tio_format(path);
    if (!fmt || strcmp(fmt, "npy"))
        return clpad_image_read(path, o, out);
    tio_tensor t;
    if (tio_load(path, &t, msg, msg_size))
        return CLPAD_ERR_BAD_INPUT;
    if (t.dtype != CLPAD_U8 || t.rank < 2 || t.rank > 3 || t.shape[0] < 1 || t.shape[1] < 1 ||
        (t.rank == 3 && (t.shape[2] < 1 || t.shape[2] > 4))) {
        snprintf(msg, msg_size, "%s: a %s tensor of rank %d is not an image (u8 HxW or HxWxC)",
                 path, clpad_dtype_name(t.dtype), t.rank);
        tio_free(&t);
        return CLPAD_ERR_INVALID_SHAPE;
    }
    *out = (clpad_decoded_image){.size = sizeof *out, .data = t.data, .dtype = CLPAD_U8,
                                 .height = t.shape[0], .width = t.shape[1],
                                 .channels = t.rank == 3 ? t.shape[2] : 1,
                                 .source_height = t.shape[0], .source_width = t.shape[1],
                                 .scale_num = 8, .orientation = 1, .format = "npy"};
    return CLPAD_OK;
}

/* Frees what cli_read returned (both are malloc'd pixels). */
static void cli_release(void *user, clpad_decoded_image *img)
{
    (void)user;
    free(img->data);
    img->data = NULL;
}
/* `s` as valid UTF-8 (malloc'd): each byte that is not part of a UTF-8
 * sequence (RFC 3629: libunistring's u8_mbtoucr) replaced by U+FFFD. */
static char *utf8_text(const char *s)
{
    size_t n = strlen(s);
    const uint8_t *b = (const uint8_t *)s;
    char *text = malloc(3 * n + 1);
    if (!text)
        return NULL;
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
    return text;
}

/* A string in the JSON, which must stay valid UTF-8 whatever the bytes of
 * a file name in it (a message names its file): utf8_text. */
static bool add_text(cJSON *e, const char *key, const char *s)
{
    if (!u8_check((const uint8_t *)s, strlen(s)))
        return cJSON_AddStringToObject(e, key, s) != NULL;
    char *text = utf8_text(s);
    bool ok = text && cJSON_AddStringToObject(e, key, text);
    free(text);
    return ok;
}

/* A file name in the JSON: "file" holds the name as text (add_text); a
 * name that is not UTF-8 also gets "file_bytes", its exact bytes in
 * lower-case hex. */
static bool add_file_name(cJSON *e, const char *name)
{
    size_t n = strlen(name);
    const uint8_t *b = (const uint8_t *)name;
    if (!u8_check(b, n))
        return cJSON_AddStringToObject(e, "file", name) != NULL;
    char *hex = malloc(2 * n + 1);
    bool ok = hex && add_text(e, "file", name);
    if (ok) {
        for (size_t i = 0; i < n; i++)
            snprintf(hex + 2 * i, 3, "%02x", b[i]);
        ok = cJSON_AddStringToObject(e, "file_bytes", hex) != NULL;
    }
    free(hex);
    return ok;
}

/* The --transforms JSON (docs/letterbox.md), built as batches complete. */
typedef struct transforms_doc {
    cJSON *root, *images, *skipped;
    bool ok;
} transforms_doc;

static void doc_start(transforms_doc *d, const clpad_letterbox_options *o)
{
    d->root = cJSON_CreateObject();
    d->ok = d->root != NULL;
    cJSON *size = d->ok ? cJSON_AddArrayToObject(d->root, "size") : NULL;
    if (size) {
        cJSON_AddItemToArray(size, cJSON_CreateNumber((double)o->out_height));
        cJSON_AddItemToArray(size, cJSON_CreateNumber((double)o->out_width));
    }
    if (d->ok) {
        cJSON_AddStringToObject(d->root, "fit", clpad_fit_name(o->fit));
        cJSON_AddStringToObject(d->root, "layout", clpad_layout_name(o->layout));
        cJSON_AddStringToObject(d->root, "dtype", clpad_dtype_name(o->dtype));
    }
    d->images = d->ok ? cJSON_AddArrayToObject(d->root, "images") : NULL;
    d->skipped = d->ok ? cJSON_AddArrayToObject(d->root, "skipped") : NULL;
    d->ok = d->images && d->skipped;
}

static void doc_add(transforms_doc *d, const char *file, const clpad_stream_image *im)
{
    cJSON *e = d->ok ? cJSON_CreateObject() : NULL;
    d->ok = e && cJSON_AddItemToArray(d->images, e) && add_file_name(e, file);
    if (!d->ok)
        return;
    const clpad_letterbox_transform *t = &im->transform;
    cJSON_AddNumberToObject(e, "height", (double)im->source_height);
    cJSON_AddNumberToObject(e, "width", (double)im->source_width);
    /* 17 significant digits: the double itself (cJSON's own printing may
     * stop at 15 when they compare equal within its epsilon) */
    char num[40];
    snprintf(num, sizeof num, "%.17g", t->scale);
    cJSON_AddRawToObject(e, "scale", num);
    cJSON_AddNumberToObject(e, "pad_top", (double)t->pad_top);
    cJSON_AddNumberToObject(e, "pad_left", (double)t->pad_left);
    cJSON_AddNumberToObject(e, "resized_h", (double)t->resized_height);
    cJSON_AddNumberToObject(e, "resized_w", (double)t->resized_width);
    snprintf(num, sizeof num, "%.17g", t->scale_y);
    cJSON_AddRawToObject(e, "scale_y", num);
    snprintf(num, sizeof num, "%.17g", t->scale_x);
    cJSON_AddRawToObject(e, "scale_x", num);
    if (im->scale_num != 8)
        cJSON_AddNumberToObject(e, "decode_scale", im->scale_num / 8.0);
}

static void doc_skip(transforms_doc *d, const char *file, const clpad_stream_skip *k)
{
    cJSON *e = d->ok ? cJSON_CreateObject() : NULL;
    d->ok = e && cJSON_AddItemToArray(d->skipped, e) && add_file_name(e, file) &&
            cJSON_AddStringToObject(e, "status", clpad_status_name(k->status)) &&
            add_text(e, "error", k->message);
}

/* The document with a final newline into *json (malloc'd, *len bytes). */
static int doc_finish(transforms_doc *d, const char *path, char **json, size_t *len)
{
    *json = NULL;
    char *text = d->ok ? cJSON_Print(d->root) : NULL;
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

/* The contact sheet: the images letterboxed as u8 NHWC with the geometry and
 * border of the run (no normalisation, no channel swap), the slots in a
 * grid of about square shape (for every input: a skipped file leaves its
 * slot dark) with 4-pixel gaps, subsampled by an integer factor so that the
 * sheet stays within 4096 pixels on a side; filled batch by batch. */
typedef struct preview {
    clpad_letterbox_options o;
    tio_tensor sheet;
    int64_t cols, k, th, tw, gap;
    size_t next; /* slots filled */
    unsigned char *slot;
} preview;

static int preview_start(preview *p, const clpad_letterbox_options *run, size_t n, int64_t C)
{
    p->o = *run;
    p->o.dtype = CLPAD_U8;
    p->o.layout = CLPAD_LAYOUT_NHWC;
    p->o.swap_rb = 0;
    p->o.scale = 1.0f;
    for (int c = 0; c < CLPAD_LETTERBOX_MAX_CHANNELS; c++)
        p->o.mean[c] = 0.0f, p->o.std[c] = 1.0f;
    int64_t H = p->o.out_height, W = p->o.out_width;
    p->cols = 1;
    while (p->cols * p->cols < (int64_t)n)
        p->cols++;
    int64_t rows = ((int64_t)n + p->cols - 1) / p->cols;
    p->gap = 4;
    p->k = 1; /* subsampling */
    while ((p->cols * (W / p->k + p->gap) + p->gap > 4096 ||
            rows * (H / p->k + p->gap) + p->gap > 4096) &&
           (W / p->k > 1 || H / p->k > 1))
        p->k++;
    p->th = (H + p->k - 1) / p->k;
    p->tw = (W + p->k - 1) / p->k;
    tio_tensor *s = &p->sheet;
    *s = (tio_tensor){.dtype = CLPAD_U8, .rank = 3, .is_image = true};
    s->shape[0] = rows * (p->th + p->gap) + p->gap;
    s->shape[1] = p->cols * (p->tw + p->gap) + p->gap;
    s->shape[2] = C;
    s->nbytes = (size_t)(s->shape[0] * s->shape[1] * C);
    s->data = malloc(s->nbytes);
    p->slot = malloc((size_t)(H * W * C));
    if (!s->data || !p->slot)
        return cli_error(CLI_FAIL, "--preview: out of memory");
    memset(s->data, 40, s->nbytes); /* dark gaps */
    return CLI_OK;
}

static int preview_add(preview *p, const clpad_image *im, size_t count)
{
    tio_tensor *s = &p->sheet;
    int64_t C = s->shape[2], W = p->o.out_width;
    size_t bytes = (size_t)(p->o.out_height * W * C);
    unsigned char *d = s->data;
    for (size_t i = 0; i < count; i++, p->next++) {
        if (clpad_letterbox_cpu(&im[i], 1, &p->o, p->slot, bytes, NULL))
            return cli_error(CLI_FAIL, "--preview: %s", clpad_last_error());
        int64_t r0 = p->gap + (int64_t)p->next / p->cols * (p->th + p->gap),
                c0 = p->gap + (int64_t)p->next % p->cols * (p->tw + p->gap);
        for (int64_t y = 0; y < p->th; y++)
            for (int64_t x = 0; x < p->tw; x++)
                memcpy(d + ((r0 + y) * s->shape[1] + c0 + x) * C,
                       p->slot + ((y * p->k) * W + x * p->k) * C, (size_t)C);
    }
    return CLI_OK;
}

/* The progress line on a terminal: images, images/s, time left; at most
 * five updates a second; cleared at the end. */
typedef struct progress {
    bool on;
    uint64_t t0, last;
    size_t n;
} progress;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void progress_show(progress *p, size_t done, bool force)
{
    if (!p->on)
        return;
    uint64_t t = now_ns();
    if (!force && t - p->last < 200000000u)
        return;
    p->last = t;
    double s = (double)(t - p->t0) / 1e9, rate = s > 0 ? (double)done / s : 0;
    char eta[32] = "?";
    if (rate > 0)
        snprintf(eta, sizeof eta, "%.0f s", (double)(p->n - done) / rate);
    fprintf(stderr, "\rclpad: %zu/%zu images, %.0f images/s, %s left   ", done, p->n, rate,
            eta);
    fflush(stderr);
}

static void progress_clear(progress *p)
{
    if (p->on)
        fprintf(stderr, "\r%*s\r", 72, "");
}

/* OUTPUT-NNNNN.npy for batch b (--batch), malloc'd. */
/* The .npy output written on a thread of its own, one batch at a time,
 * while the next batch is made into the other of two buffers: the write
 * (to a disk: O_DIRECT, io/load_save.c) then overlaps the decoding and the
 * kernel instead of following them. One job at a time: a job posted waits
 * for the one before it, so a buffer is free again once the job after it is
 * posted. */
typedef struct bg_writer {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    tio_npy_writer *w;
    uint64_t reserve;          /* the first job: the output's room (0: none) */
    const unsigned char *data; /* the job, while busy */
    size_t len;
    bool busy, stop, failed;
    char err[512];
} bg_writer;

static void *bg_main(void *arg)
{
    bg_writer *b = arg;
    pthread_mutex_lock(&b->mu);
    for (;;) {
        while (!b->busy && !b->stop)
            pthread_cond_wait(&b->cv, &b->mu);
        if (!b->busy)
            break;
        uint64_t room = b->reserve;
        b->reserve = 0;
        pthread_mutex_unlock(&b->mu);
        char err[512];
        bool failed = room ? tio_npy_writer_reserve(b->w, room, err, sizeof err) != 0
                           : tio_npy_writer_write(b->w, b->data, b->len, err, sizeof err) != 0;
        pthread_mutex_lock(&b->mu);
        if (failed && !b->failed) {
            b->failed = true;
            memcpy(b->err, err, sizeof err);
        }
        b->busy = false;
        pthread_cond_broadcast(&b->cv);
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

/* Start the thread for w, its first job taking the output's room (room
 * bytes, tio_npy_writer_reserve): 0, or 1 (it could not start: reserve and
 * write in place). Taking the room costs time on tmpfs (its every page is
 * allocated: 0.4-0.5 s for the bench folder's 1.1 GB), which the thread
 * spends while the first batch is made instead of before it (the run 10 %
 * shorter: bench/README.md, "Design measurements"); a full disk still
 * stops the run before anything is written, at the first post. */
static int bg_start(bg_writer *b, tio_npy_writer *w, uint64_t room)
{
    memset(b, 0, sizeof *b);
    b->w = w;
    b->reserve = room;
    b->busy = room != 0;
    if (pthread_mutex_init(&b->mu, NULL))
        return 1;
    if (pthread_cond_init(&b->cv, NULL)) {
        pthread_mutex_destroy(&b->mu);
        return 1;
    }
    if (pthread_create(&b->thread, NULL, bg_main, b)) {
        pthread_cond_destroy(&b->cv);
        pthread_mutex_destroy(&b->mu);
        return 1;
    }
    return 0;
}

/* Wait for the job in progress; then, with data, post the next. 0, or 1
 * with the first write error in err. */
static int bg_post(bg_writer *b, const unsigned char *data, size_t len, char *err, size_t errlen)
{
    pthread_mutex_lock(&b->mu);
    while (b->busy)
        pthread_cond_wait(&b->cv, &b->mu);
    bool failed = b->failed;
    if (failed)
        snprintf(err, errlen, "%s", b->err);
    else if (data) {
        b->data = data;
        b->len = len;
        b->busy = true;
        pthread_cond_broadcast(&b->cv);
    }
    pthread_mutex_unlock(&b->mu);
    return failed;
}

/* Finish the job in progress and end the thread. */
static void bg_stop(bg_writer *b)
{
    pthread_mutex_lock(&b->mu);
    b->stop = true;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
    pthread_join(b->thread, NULL);
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
}

/* One file of --batch B through the .npy writer, as the single OUTPUT is
 * written: a batch of 64 MiB or more goes to a disk with direct writes from
 * the page-aligned buffer (io/load_save.c). 0, or 1 with err set and the
 * file's temporary removed. */
static int write_batch_file(tio_output_set *set, const char *path, clpad_dtype dtype,
                            const int64_t shape[4], const unsigned char *data, size_t len,
                            char *err, size_t errlen)
{
    tio_npy_writer *w;
    if (tio_output_set_begin_npy(set, path, dtype, 4, shape, &w, err, errlen))
        return 1;
    if (tio_npy_writer_write(w, data, len, err, errlen)) {
        char ignored[64]; /* the write's error is the one to report */
        tio_npy_writer_finish(w, 0, false, ignored, sizeof ignored);
        return 1;
    }
    return tio_npy_writer_finish(w, shape[0], true, err, errlen);
}

static char *batch_name(const char *out, size_t b, int digits)
{
    size_t len = strlen(out);
    size_t stem = len > 4 && !strcasecmp(out + len - 4, ".npy") ? len - 4 : len;
    char num[32];
    int nd = snprintf(num, sizeof num, "%zu", b);
    char *name = malloc(stem + 32 + 6);
    if (name) {
        memcpy(name, out, stem);
        size_t at = stem;
        name[at++] = '-';
        for (int k = nd; k < digits && k < 30; k++)
            name[at++] = '0';
        snprintf(name + at, 32 + 6 - (at - stem), "%s.npy", num);
    }
    return name;
}

/* The arguments that name one file (not @lists, directories or patterns),
 * for the checks made before anything is expanded. */
static size_t plain_args(char **args, size_t n, char **plain)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        bool exists = stat(args[i], &st) == 0;
        if (args[i][0] == '@' || (exists && S_ISDIR(st.st_mode)) ||
            (!exists && strpbrk(args[i], "*?[")))
            continue;
        plain[m++] = args[i];
    }
    return m;
}

/* The @LIST files are inputs too: no output may be one (it was written
 * over: `--transforms list.json @list.json`). Checked against every output
 * once the lists have been read (each then exists). CLI_OK, or the usage
 * error printed and returned. */
static int check_lists(char **args, size_t n, const cli_output *outputs, size_t n_outputs)
{
    char err[512];
    int rc = CLI_OK;
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        if (args[i][0] != '@' || !args[i][1])
            continue;
        tio_file_id list;
        if (tio_file_id_of(args[i] + 1, &list, err, sizeof err))
            return cli_error(CLI_FAIL, "%s", err);
        for (size_t k = 0; k < n_outputs && rc == CLI_OK; k++) {
            tio_file_id out;
            if (!outputs[k].path)
                continue;
            if (tio_file_id_of(outputs[k].path, &out, err, sizeof err)) {
                rc = cli_error(CLI_FAIL, "%s", err);
                break;
            }
            if (list.exists && tio_file_id_equal(&list, &out))
                rc = cli_error(CLI_USAGE,
                               "%s '%s' is the list '%s' (the same file); clpad never writes "
                               "over an input: name another output",
                               outputs[k].label, outputs[k].path, args[i]);
            tio_file_id_free(&out);
        }
        tio_file_id_free(&list);
    }
    return rc;
}

int cmd_letterbox(int argc, char **argv)
{
    enum { O_INTERP = 256, O_PLACE, O_NOUP, O_BGR, O_SCALE, O_MEAN, O_STD, O_DTYPE, O_LAYOUT,
           O_TRANSFORMS, O_PREVIEW, O_CPU, O_VERIFY, O_CHANNELS, O_MAX_PIXELS, O_PRESET,
           O_BATCH, O_WORKERS, O_DECODE_SCALE, O_ON_ERROR, O_FIT, O_SHORTER, O_DIVISOR,
           O_PIL_VERSION, O_INPUT_FORMAT, O_FRAME_SIZE, O_MATRIX, O_RANGE };
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
        {"preset", required_argument, NULL, O_PRESET},
        {"batch", required_argument, NULL, O_BATCH},
        {"workers", required_argument, NULL, O_WORKERS},
        {"decode-scale", required_argument, NULL, O_DECODE_SCALE},
        {"on-error", required_argument, NULL, O_ON_ERROR},
        {"fit", required_argument, NULL, O_FIT},
        {"resize-shorter", required_argument, NULL, O_SHORTER},
        {"divisor", required_argument, NULL, O_DIVISOR},
        {"pil-version", required_argument, NULL, O_PIL_VERSION},
        {"input-format", required_argument, NULL, O_INPUT_FORMAT},
        {"frame-size", required_argument, NULL, O_FRAME_SIZE},
        {"color-matrix", required_argument, NULL, O_MATRIX},
        {"color-range", required_argument, NULL, O_RANGE},
        {"help", no_argument, NULL, 'h'},             {0, 0, 0, 0}};
    static const char shortopts[] = ":s:m:v:d:qh";
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 0, 0);
    /* first the preset, whatever its place: the options given override it */
    const char *preset = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1)
        if (c == O_PRESET)
            preset = optarg;
    if (preset && clpad_letterbox_preset(preset, &o))
        return cli_error(CLI_USAGE, "--preset: %s", clpad_last_error());
    clpad_stream_options so;
    clpad_stream_options_init(&so);
    bool channels_given = false, fit_given = false, shorter_given = false;
    int64_t size[2];
    int nsize = 0, nvalue = 0, nmean = 0, nstd = 0;
    int64_t values[CLPAD_LETTERBOX_MAX_CHANNELS];
    float mean[CLPAD_LETTERBOX_MAX_CHANNELS], stdv[CLPAD_LETTERBOX_MAX_CHANNELS];
    const char *device = NULL, *transforms = NULL, *preview_path = NULL;
    bool cpu = false, verify = false, quiet = false;
    size_t file_batch = 0;
    int64_t frame_size[2] = {0, 0};
    /* the options YUV frames do not take, and the first of them given */
    static const int image_opts[] = {O_TRANSFORMS, O_PREVIEW,      O_CHANNELS,     O_MAX_PIXELS,
                                      O_BATCH,      O_WORKERS,      O_DECODE_SCALE, O_ON_ERROR};
    const char *image_only = NULL;
    optind = 0; /* GNU getopt: start again from scratch */
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        clpad_status bad_name = CLPAD_OK;
        bool bad = false; /* a bad value (the message printed) */
        int64_t num = 0;
        switch (c) {
        case 's':
            if (!cli_parse_i64_list(optarg, "--size", size, 2, &nsize))
                return CLI_USAGE;
            if (nsize != 2 || size[0] < 1 || size[1] < 1)
                return cli_error(CLI_USAGE, "--size: '%s' is not H,W with both >= 1", optarg);
            break;
        case O_INTERP: bad_name = clpad_interp_from_name(optarg, &o.interp); break;
        case O_INPUT_FORMAT: bad_name = clpad_input_format_from_name(optarg, &o.input_format); break;
        case O_MATRIX: bad_name = clpad_color_matrix_from_name(optarg, &o.color_matrix); break;
        case O_RANGE: bad_name = clpad_color_range_from_name(optarg, &o.color_range); break;
        case O_FRAME_SIZE: {
            int nv = 0;
            if (!cli_parse_i64_list(optarg, "--frame-size", frame_size, 2, &nv))
                return CLI_USAGE;
            if (nv != 2 || frame_size[0] < 2 || frame_size[1] < 2 ||
                frame_size[0] > INT32_MAX || frame_size[1] > INT32_MAX)
                return cli_error(CLI_USAGE, "--frame-size: '%s' is not W,H with both from 2 to "
                                            "2147483647",
                                 optarg);
            if (frame_size[0] % 2 || frame_size[1] % 2)
                return cli_error(CLI_USAGE,
                                 "--frame-size: %s %lld is odd: 4:2:0 frames have even width "
                                 "and height",
                                 frame_size[0] % 2 ? "width" : "height",
                                 (long long)(frame_size[0] % 2 ? frame_size[0] : frame_size[1]));
            break;
        }
        case O_FIT:
            bad_name = clpad_fit_from_name(optarg, &o.fit);
            fit_given = true;
            break;
        case O_SHORTER:
            bad = !cli_parse_int(optarg, "--resize-shorter", 1, INT32_MAX, &num);
            o.resize_shorter = num;
            shorter_given = true;
            break;
        case O_PIL_VERSION:
            if (strcmp(optarg, "12") && strcmp(optarg, "13"))
                return cli_error(CLI_USAGE, "--pil-version: '%s': 12 or 13", optarg);
            o.pil_version = atoi(optarg);
            break;
        case O_DIVISOR: {
            float d;
            int nd = 0;
            if (!parse_floats(optarg, "--divisor", &d, 1, &nd))
                return CLI_USAGE;
            if (nd != 1 || !isfinite(d) || d == 0.0f)
                return cli_error(CLI_USAGE, "--divisor: '%s' is not a finite non-zero number",
                                 optarg);
            o.divisor = d;
            break;
        }
        case O_PLACE: bad_name = clpad_placement_from_name(optarg, &o.placement); break;
        case O_NOUP: o.scaleup = 0; break;
        case 'm': bad_name = clpad_pad_mode_parse_within_limits(optarg, &o.pad_mode); break;
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
        case O_LAYOUT: bad_name = clpad_layout_from_name(optarg, &o.layout); break;
        case O_TRANSFORMS: transforms = optarg; break;
        case O_PREVIEW: preview_path = optarg; break;
        case 'd': device = optarg; break;
        case O_CPU: cpu = true; break;
        case O_VERIFY: verify = true; break;
        case O_CHANNELS:
            bad = !cli_pick(optarg, "--channels", (const char *const[]){"keep", "1", "3", "4", NULL},
                            (const int[]){CLPAD_CHANNELS_KEEP, 1, 3, 4}, &so.read.channels);
            channels_given = true;
            break;
        case O_MAX_PIXELS:
            bad = !cli_parse_int(optarg, "--max-pixels", 1, INT64_MAX, &num);
            so.read.max_pixels = (uint64_t)num;
            break;
        case O_PRESET: break; /* applied first */
        case O_BATCH:
            bad = !cli_parse_int(optarg, "--batch", 1, 1 << 24, &num);
            file_batch = (size_t)num;
            break;
        case O_WORKERS:
            bad = !cli_parse_int(optarg, "--workers", 0, 64, &num);
            so.workers = (int)num;
            break;
        case O_DECODE_SCALE:
            bad = !cli_pick(optarg, "--decode-scale", (const char *const[]){"off", "auto", NULL},
                            (const int[]){CLPAD_DECODE_SCALE_OFF, CLPAD_DECODE_SCALE_AUTO},
                            &so.decode_scale);
            break;
        case O_ON_ERROR:
            bad = !cli_pick(optarg, "--on-error", (const char *const[]){"fail", "skip", NULL},
                            (const int[]){CLPAD_ON_ERROR_FAIL, CLPAD_ON_ERROR_SKIP}, &so.on_error);
            break;
        case 'q': quiet = true; break;
        case 'h': letterbox_usage(stdout); return CLI_OK;
        case ':':
        default: return cli_bad_option("letterbox", c, argv[optind - 1]);
        }
        if (bad_name) /* a named option's lookup failed */
            return cli_name_error(opts, c);
        if (bad)
            return CLI_USAGE;
        for (size_t k = 0; !image_only && k < sizeof image_opts / sizeof *image_opts; k++)
            if (c == image_opts[k])
                image_only = cli_long_name(opts, c);
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
    bool yuv = o.input_format != CLPAD_INPUT_PACKED;
    if (yuv && image_only)
        return cli_error(CLI_USAGE, "letterbox: --%s is for image files, not --input-format %s",
                         image_only, clpad_input_format_name(o.input_format));
    if (!yuv && frame_size[0])
        return cli_error(CLI_USAGE, "letterbox: --frame-size goes with --input-format "
                                    "nv12|nv21|i420|yv12");
    o.out_height = size[0];
    o.out_width = size[1];
    if (o.resize_shorter && !fit_given)
        o.fit = CLPAD_FIT_COVER; /* the crop resize_shorter goes with */
    /* a preset's Resize(S) is the first step of its cover crop: another fit
     * given without --resize-shorter leaves it out (docs/letterbox.md, 5.4) */
    if (fit_given && o.fit != CLPAD_FIT_COVER && !shorter_given)
        o.resize_shorter = 0;
    size_t nargs = (size_t)(argc - optind - 1);
    char **args = argv + optind;
    const char *out_path = argv[argc - 1];
    const char *fmt = tio_format(out_path);
    if (!fmt || strcmp(fmt, "npy"))
        return cli_error(CLI_USAGE, "OUTPUT '%s': the batch is written as .npy", out_path);
    if (transforms && (strlen(transforms) < 5 ||
                       strcasecmp(transforms + strlen(transforms) - 5, ".json")))
        return cli_error(CLI_USAGE, "--transforms '%s': expected a .json file", transforms);
    if (preview_path && (!tio_format(preview_path) || strcmp(tio_format(preview_path), "png")))
        return cli_error(CLI_USAGE, "--preview '%s': expected a .png file", preview_path);
    /* one value for every channel, or one per channel */
    for (int k = 0; k < CLPAD_LETTERBOX_MAX_CHANNELS; k++) {
        if (nvalue)
            o.pad_value[k] = (uint8_t)values[nvalue == 1 ? 0 : k < nvalue ? k : 0];
        if (nmean)
            o.mean[k] = mean[nmean == 1 ? 0 : k < nmean ? k : 0];
        if (nstd)
            o.std[k] = stdv[nstd == 1 ? 0 : k < nstd ? k : 0];
    }
    /* the options as a whole (values, combinations) before anything is
     * read: what the library refuses is a usage error */
    int64_t planned[4];
    if (clpad_letterbox_plan(NULL, 0, &o, planned, NULL))
        return cli_error(CLI_USAGE, "%s", clpad_last_error());
    if (yuv) { /* frames: one batch of the raw or .npy files as named */
        if (nvalue > 3 || nmean > 3 || nstd > 3)
            return cli_error(CLI_USAGE, "--value, --mean and --std take one value or one per "
                                        "channel; %s frames give 3",
                             clpad_input_format_name(o.input_format));
        cli_run yrun = {.device = device, .cpu = cpu, .verify = verify, .quiet = quiet};
        return cli_letterbox_yuv(&o, frame_size, args, nargs, out_path, &yrun);
    }
    /* the outputs against each other and the arguments that name files,
     * before anything is expanded or read */
    char **plain = calloc(nargs, sizeof *plain);
    if (!plain)
        return cli_error(CLI_FAIL, "out of memory");
    cli_output outputs[3] = {{"OUTPUT", file_batch ? NULL : out_path},
                             {"--transforms", transforms},
                             {"--preview", preview_path}};
    size_t nplain = plain_args(args, nargs, plain);
    /* a name of nothing without an image extension (a folder's name
     * mistyped): that it does not exist, rather than that its name tells no
     * format (with --on-error skip too: no reader could take it) */
    char check_err[512];
    for (size_t i = 0; i < nplain; i++) {
        struct stat st;
        if (stat(plain[i], &st) == 0 || (errno != ENOENT && errno != ENOTDIR) ||
            !tio_check_load_path(plain[i], check_err, sizeof check_err))
            continue;
        bool dangling = lstat(plain[i], &st) == 0 && S_ISLNK(st.st_mode);
        int e = cli_error(CLI_FAIL, "%s: %s", plain[i],
                          dangling ? "a symbolic link to a file that does not exist"
                                   : "no such file, folder or pattern");
        free(plain);
        return e;
    }
    int rc = cli_check_paths(plain, nplain, outputs, 3);
    free(plain);
    if (rc != CLI_OK)
        return rc;

    clpad_path_list *list = NULL;
    /* --on-error skip: a file that is not there is one that cannot be read */
    unsigned expand_flags = so.on_error == CLPAD_ON_ERROR_SKIP ? CLPAD_PATHS_KEEP_MISSING : 0;
    if (clpad_path_list_expand((const char *const *)args, nargs, expand_flags, &list))
        return cli_error(CLI_FAIL, "%s", clpad_last_error());
    size_t n = clpad_path_list_count(list);
    char **files = (char **)clpad_path_list_paths(list);
    size_t nbatch_files = file_batch ? (n + file_batch - 1) / file_batch : 0;
    int digits = 5;
    for (size_t b = nbatch_files; b >= 100000; b /= 10)
        digits++;
    char **batch_names = calloc(nbatch_files ? nbatch_files : 1, sizeof *batch_names);
    cli_output *all_out = calloc(nbatch_files + 3, sizeof *all_out);
    clpad_letterbox_stream *stream = NULL;
    tio_output_set *set = NULL;
    tio_npy_writer *writer = NULL;
    bg_writer bg;
    bool bg_on = false;
    transforms_doc doc = {0};
    preview pv = {0};
    unsigned char *outs[2] = {NULL, NULL}, *ref = NULL;
    char *json = NULL;
    size_t json_len = 0;
    cli_run run = {.device = device, .cpu = cpu, .verify = verify, .quiet = quiet};
    progress prog = {.on = !quiet && isatty(2), .n = n};
    char err[512];
    rc = CLI_FAIL;
    if (!batch_names || !all_out) {
        cli_error(CLI_FAIL, "out of memory for %zu images", n);
        goto done;
    }
    if (n == 0) {
        cli_error(CLI_FAIL, "no image files in %s%s", args[0], nargs > 1 ? " ..." : "");
        goto done;
    }
    for (size_t b = 0; b < nbatch_files; b++) {
        if (!(batch_names[b] = batch_name(out_path, b, digits))) {
            cli_error(CLI_FAIL, "out of memory");
            goto done;
        }
        all_out[3 + b] = (cli_output){"OUTPUT", batch_names[b]};
    }
    memcpy(all_out, outputs, sizeof outputs);
    if ((rc = cli_check_paths(files, n, all_out, nbatch_files + 3)) != CLI_OK ||
        (rc = check_lists(args, nargs, all_out, nbatch_files + 3)) != CLI_OK)
        goto done;
    rc = CLI_FAIL;
    /* .npy inputs alone keep their own channels unless --channels is given */
    bool all_npy = true, any_npy = false;
    for (size_t i = 0; i < n; i++) {
        bool npy = tio_format(files[i]) && !strcmp(tio_format(files[i]), "npy");
        all_npy &= npy;
        any_npy |= npy;
    }
    if (all_npy && !channels_given)
        so.read.channels = CLPAD_CHANNELS_KEEP;

    unsigned flags = cpu ? CLPAD_CONTEXT_CPU_ONLY : (quiet ? 0 : CLPAD_CONTEXT_VERBOSE);
    /* --verify checks the device: the kernel runs even where one image
     * would take the CPU path */
    if (verify && !cpu)
        flags |= CLPAD_CONTEXT_DEVICE_ONLY;
    clpad_context_config config;
    clpad_context_config_init(&config);
    config.device = device;
    config.flags = flags;
    if (clpad_context_create(&config, &run.ctx)) {
        cli_error(CLI_FAIL, "%s", clpad_last_error());
        goto done;
    }
    /* one .npy: batches of 16 in two buffers, one written while the other
     * is made (bg_writer); the memory of one batch of 32. --batch B beyond
     * the number of files: one file of them all, so the stream's batch is
     * no larger (its memory, and the output buffer, go with its batch) */
    so.batch = file_batch ? (file_batch < n ? file_batch : n ? n : 1) : 16;
    so.keep_pixels = verify || preview_path;
    if (any_npy) { /* else the stream's own reader, which decodes each batch into
                      one block that the letterbox reads in place */
        so.read_fn = cli_read;
        so.release_fn = cli_release;
    }
    uint64_t t0 = now_ns();
    prog.t0 = t0;
    if (clpad_letterbox_stream_open(run.ctx, (const char *const *)files, n, &o, &so, &stream)) {
        cli_error(CLI_FAIL, "%s", clpad_last_error());
        goto done;
    }
    int64_t shape[4];
    size_t bytes;
    if (clpad_letterbox_stream_batch_shape(stream, shape, &bytes)) {
        cli_error(CLI_FAIL, "%s", clpad_last_error());
        goto done;
    }
    int64_t C = o.layout == CLPAD_LAYOUT_NCHW ? shape[1] : shape[3];
    if ((nvalue > 1 && nvalue != C) || (nmean > 1 && nmean != C) || (nstd > 1 && nstd != C)) {
        rc = cli_error(CLI_USAGE, "--value, --mean and --std take one value or one per channel; "
                                  "the images have %lld",
                       (long long)C);
        goto done;
    }
    /* each batch is letterboxed into a buffer, reused, then written to the
     * output (the .npy's room taken for every image before the first
     * write): with one .npy,
     * two buffers, one written by bg_writer while the next batch is made
     * into the other. Writing from memory already touched costs less than
     * letterboxing into the file mapped: a mapped file's every 4 KiB page
     * faults on first write (bench/README.md, "Folder to batches": 1.50-1.59
     * s mapped vs 1.26-1.34 s written for 1.1 GB of output on tmpfs). The
     * buffers are page-aligned, so that the .npy writer can send whole
     * batches straight to a disk (O_DIRECT, io/load_save.c). */
    for (int k = 0; k < (file_batch ? 1 : 2); k++)
        if (posix_memalign((void **)&outs[k], 4096, bytes))
            outs[k] = NULL;
    ref = verify ? malloc(bytes) : NULL;
    if (!outs[0] || (!file_batch && !outs[1]) || (verify && !ref)) {
        cli_error(CLI_FAIL, "out of memory for a batch of %zu bytes", bytes);
        goto done;
    }
    if (transforms) {
        doc_start(&doc, &o);
        if (!doc.ok) {
            cli_error(CLI_FAIL, "%s: out of memory for the JSON", transforms);
            goto done;
        }
    }
    if (preview_path && preview_start(&pv, &o, n, C))
        goto done;
    /* the outputs' set opens after the device (drivers install signal
     * handlers when it opens: tio_output_set_open) */
    if (tio_output_set_open(&set, err, sizeof err)) {
        cli_error(CLI_FAIL, "%s", err);
        goto done;
    }
    if (!file_batch) {
        int64_t full[4] = {(int64_t)n, shape[1], shape[2], shape[3]};
        uint64_t room = (uint64_t)n * (bytes / so.batch);
        if (tio_output_set_begin_npy(set, out_path, o.dtype, 4, full, &writer, err,
                                     sizeof err)) {
            cli_error(CLI_FAIL, "%s", err);
            goto done;
        }
        bg_on = !bg_start(&bg, writer, room);
        if (!bg_on && tio_npy_writer_reserve(writer, room, err, sizeof err)) {
            cli_error(CLI_FAIL, "%s", err);
            goto done;
        }
    }
    size_t total = 0, skipped = 0, nfile = 0, slot = bytes / so.batch, made = 0;
    clpad_stream_batch b = {.size = sizeof b};
    do {
        unsigned char *dst = outs[bg_on ? made % 2 : 0];
        if (clpad_letterbox_stream_next(stream, dst, bytes, &b)) {
            progress_clear(&prog);
            cli_error(CLI_FAIL, "%s", clpad_last_error());
            goto done;
        }
        for (size_t k = 0; k < b.skipped_count; k++) {
            const clpad_stream_skip *e = &b.skipped[k];
            if (!quiet) {
                progress_clear(&prog);
                fprintf(stderr, "clpad: skipped %s\n", e->message);
            }
            doc_skip(&doc, files[e->index], e);
            skipped++;
        }
        if (b.count == 0)
            continue;
        if (verify) {
            if (clpad_letterbox_cpu(b.pixels, b.count, &o, ref, bytes, NULL)) {
                cli_error(CLI_FAIL, "CPU reference failed: %s", clpad_last_error());
                goto done;
            }
            if (memcmp(ref, dst, b.count * slot)) {
                size_t first = 0, diff = 0;
                for (size_t i = 0; i < b.count * slot; i++)
                    if (ref[i] != dst[i] && !diff++)
                        first = i;
                progress_clear(&prog);
                cli_error(CLI_FAIL,
                          "verification failed: %zu of %zu bytes of images %zu..%zu differ from "
                          "the CPU reference (first at byte %zu, in %s); OUTPUT not written",
                          diff, b.count * slot, total, total + b.count - 1, first,
                          files[b.images[first / slot].index]);
                goto done;
            }
        }
        if (preview_path && preview_add(&pv, b.pixels, b.count))
            goto done;
        for (size_t k = 0; k < b.count && transforms; k++)
            doc_add(&doc, files[b.images[k].index], &b.images[k]);
        int wrc;
        if (bg_on) {
            wrc = bg_post(&bg, dst, b.count * slot, err, sizeof err);
            made++;
        } else if (writer) {
            wrc = tio_npy_writer_write(writer, dst, b.count * slot, err, sizeof err);
        } else {
            int64_t bshape[4] = {(int64_t)b.count, shape[1], shape[2], shape[3]};
            wrc = write_batch_file(set, batch_names[nfile++], o.dtype, bshape, dst,
                                   b.count * slot, err, sizeof err);
        }
        if (wrc) {
            progress_clear(&prog);
            cli_error(CLI_FAIL, "%s", err);
            goto done;
        }
        total += b.count;
        progress_show(&prog, b.inputs_done, false);
    } while (!b.end);
    if (bg_on) { /* the last batch's write */
        bg_on = false;
        int wrc = bg_post(&bg, NULL, 0, err, sizeof err);
        bg_stop(&bg);
        if (wrc) {
            progress_clear(&prog);
            cli_error(CLI_FAIL, "%s", err);
            goto done;
        }
    }
    progress_show(&prog, n, true);
    progress_clear(&prog);
    if (total == 0) {
        cli_error(CLI_FAIL, "no image could be read (%zu skipped); nothing written", skipped);
        goto done;
    }
    if (writer) {
        tio_npy_writer *w = writer;
        writer = NULL;
        if (tio_npy_writer_finish(w, (int64_t)total, true, err, sizeof err)) {
            cli_error(CLI_FAIL, "%s", err);
            goto done;
        }
    }
    if (transforms && (doc_finish(&doc, transforms, &json, &json_len) ||
                       tio_output_set_add_bytes(set, transforms, json, json_len, err,
                                                sizeof err))) {
        if (json)
            cli_error(CLI_FAIL, "%s", err);
        goto done;
    }
    if (preview_path && tio_output_set_add(set, preview_path, &pv.sheet, NULL, err, sizeof err)) {
        cli_error(CLI_FAIL, "%s", err);
        goto done;
    }
    {
        tio_output_set *s = set;
        set = NULL;
        if (tio_output_set_commit(s, err, sizeof err)) {
            cli_error(CLI_FAIL, "%s", err);
            goto done;
        }
    }
    uint64_t ns = now_ns() - t0;
    char s1[160];
    cli_report_device(&run);
    cli_note(quiet, "input:  %zu images%s, %lld channels (%s%s)", total,
             skipped ? " read" : "", (long long)C, files[0], n > 1 ? " ..." : "");
    if (skipped)
        cli_note(quiet, "skipped: %zu files that could not be read (listed%s)", skipped,
                 transforms ? " in --transforms" : " above");
    int64_t full[4] = {(int64_t)total, shape[1], shape[2], shape[3]};
    if (file_batch)
        cli_note(quiet, "output: %s %s %s, %s, %s border, in %zu files of %zu (%s ...)",
                 cli_shape_str(4, full, s1, sizeof s1), clpad_dtype_name(o.dtype),
                 clpad_layout_name(o.layout), clpad_interp_name(o.interp),
                 clpad_pad_mode_name(o.pad_mode), nfile, file_batch, batch_names[0]);
    else
        cli_note(quiet, "output: %s %s %s, %s, %s border (%s)", cli_shape_str(4, full, s1, sizeof s1),
                 clpad_dtype_name(o.dtype), clpad_layout_name(o.layout),
                 clpad_interp_name(o.interp), clpad_pad_mode_name(o.pad_mode), out_path);
    cli_note(quiet, "time: %.3f s from the first file read to the last output written, %.1f "
                    "images/s",
             (double)ns / 1e9, (double)total * 1e9 / (double)(ns ? ns : 1));
    if (verify)
        cli_note(quiet,
                 "verify: identical to the CPU reference of the same decoded images, byte for "
                 "byte%s",
                 clpad_context_is_fallback(run.ctx) || cpu
                     ? ", but no OpenCL kernel ran: the CPU path was checked against itself"
                     : "");
    rc = CLI_OK;
done:
    if (bg_on)
        bg_stop(&bg);
    if (writer)
        tio_npy_writer_finish(writer, 0, false, err, sizeof err);
    tio_output_set_abort(set);
    clpad_letterbox_stream_close(stream);
    cli_run_free(&run);
    cJSON_Delete(doc.root);
    tio_free(&pv.sheet);
    free(pv.slot);
    for (size_t k = 0; batch_names && k < nbatch_files; k++)
        free(batch_names[k]);
    free(batch_names);
    free(all_out);
    free(outs[0]);
    free(outs[1]);
    free(ref);
    free(json);
    clpad_path_list_free(list);
    return rc;
}
