/* clpad letterbox --input-format nv12|nv21|i420|yv12: YUV 4:2:0 frames from
 * raw files (one or more frames of --frame-size each, back to back) or .npy
 * arrays ((H * 3 / 2, W) or (N, H * 3 / 2, W) uint8), letterboxed as one
 * batch (docs/letterbox.md, "YUV frames") and written as one .npy. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "tensor_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The bytes of the file at `path` (a regular file or a stream), malloc'd. */
static int read_all(const char *path, unsigned char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cli_error(CLI_FAIL, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return cli_error(CLI_FAIL, "%s: is a directory, not a file of frames", path);
    }
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            unsigned char *b = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf)
        return cli_error(CLI_FAIL, "%s: out of memory", path);
    if (bad) {
        free(buf);
        return cli_error(CLI_FAIL, "%s: read error", path);
    }
    *data = buf;
    *len = n;
    return CLI_OK;
}

typedef struct yuv_op {
    const clpad_image *im;
    size_t n;
    const clpad_letterbox_options *o;
} yuv_op;

static clpad_status run_yuv(clpad_context *ctx, const void *arg, void *out, size_t out_bytes,
                            clpad_run_info *info)
{
    const yuv_op *op = arg;
    return clpad_letterbox(ctx, op->im, op->n, op->o, out, out_bytes, NULL, info);
}

int cli_letterbox_yuv(const clpad_letterbox_options *o, const int64_t frame_size[2],
                      char *const *inputs, size_t n_inputs, const char *out_path, cli_run *run)
{
    const char *fmt = clpad_input_format_name(o->input_format);
    /* the output can be written and is none of the inputs */
    const cli_output outputs[1] = {{"OUTPUT", out_path}};
    int rc = cli_check_paths(NULL, 0, outputs, 1);
    if (rc != CLI_OK)
        return rc;
    char err[512];
    tio_file_id out_id;
    if (tio_file_id_of(out_path, &out_id, err, sizeof err))
        return cli_error(CLI_FAIL, "%s", err);
    for (size_t i = 0; i < n_inputs && rc == CLI_OK; i++) {
        tio_file_id id;
        if (tio_file_id_of(inputs[i], &id, err, sizeof err)) {
            rc = cli_error(CLI_FAIL, "%s", err);
            break;
        }
        if (tio_file_id_equal(&id, &out_id))
            rc = cli_error(CLI_USAGE,
                           "OUTPUT '%s' is the input '%s' (the same file); clpad never writes "
                           "over an input: name another output",
                           out_path, inputs[i]);
        tio_file_id_free(&id);
    }
    tio_file_id_free(&out_id);
    if (rc != CLI_OK)
        return rc;

    /* every input's bytes, and the frames in them */
    unsigned char **raw = calloc(n_inputs, sizeof *raw);
    tio_tensor *npy = calloc(n_inputs, sizeof *npy);
    size_t n = 0, cap = 16;
    clpad_image *im = malloc(cap * sizeof *im);
    tio_tensor out = {0};
    rc = CLI_FAIL;
    if (!raw || !npy || !im) {
        cli_error(CLI_FAIL, "out of memory for %zu inputs", n_inputs);
        goto done;
    }
    for (size_t i = 0; i < n_inputs; i++) {
        const char *path = inputs[i], *ext = tio_format(path);
        const unsigned char *base;
        int64_t frames, h, w;
        if (ext && !strcmp(ext, "npy")) {
            if (tio_load(path, &npy[i], err, sizeof err)) {
                cli_error(CLI_FAIL, "%s", err);
                goto done;
            }
            const tio_tensor *t = &npy[i];
            if (t->dtype != CLPAD_U8 || t->rank < 2 || t->rank > 3) {
                char s[160];
                cli_error(CLI_FAIL,
                          "%s: %s %s: %s frames are u8 arrays (H * 3 / 2, W) or (N, H * 3 / 2, "
                          "W)",
                          path, clpad_dtype_name(t->dtype),
                          cli_shape_str(t->rank, t->shape, s, sizeof s), fmt);
                goto done;
            }
            frames = t->rank == 3 ? t->shape[0] : 1;
            int64_t rows = t->shape[t->rank - 2];
            w = t->shape[t->rank - 1];
            if (rows % 3) {
                cli_error(CLI_FAIL, "%s: %lld rows is not H * 3 / 2 for an even H", path,
                          (long long)rows);
                goto done;
            }
            h = rows / 3 * 2;
            if (frame_size[0] && (frame_size[0] != w || frame_size[1] != h)) {
                cli_error(CLI_FAIL, "%s holds %lld x %lld frames, not the --frame-size %lld,%lld",
                          path, (long long)w, (long long)h, (long long)frame_size[0],
                          (long long)frame_size[1]);
                goto done;
            }
            base = t->data;
        } else {
            if (!frame_size[0]) {
                rc = cli_error(CLI_USAGE,
                               "%s: a raw file of frames needs --frame-size W,H (only .npy "
                               "frames carry their size)",
                               path);
                goto done;
            }
            w = frame_size[0];
            h = frame_size[1];
            size_t len = 0;
            if (read_all(path, &raw[i], &len))
                goto done;
            /* (w, h even, 2 .. 2^31 - 1: --frame-size checked them) */
            uint64_t fb = (uint64_t)w * (uint64_t)h / 2 * 3;
            if (len == 0 || len % fb) {
                cli_error(CLI_FAIL,
                          "%s: %zu bytes is not a whole number of %s frames of %lld x %lld "
                          "(%llu bytes each)",
                          path, len, fmt, (long long)w, (long long)h, (unsigned long long)fb);
                goto done;
            }
            frames = (int64_t)(len / fb);
            base = raw[i];
        }
        for (int64_t k = 0; k < frames; k++) {
            if (n == cap) {
                clpad_image *b = realloc(im, cap * 2 * sizeof *im);
                if (!b) {
                    cli_error(CLI_FAIL, "out of memory");
                    goto done;
                }
                im = b;
                cap *= 2;
            }
            im[n++] = (clpad_image){.data = base + (size_t)k * (size_t)(h * w / 2 * 3),
                                    .height = h, .width = w, .channels = 3};
        }
    }
    out.dtype = o->dtype;
    out.rank = 4;
    if (clpad_letterbox_plan(im, n, o, out.shape, NULL)) {
        cli_error(CLI_FAIL, "%s", clpad_last_error());
        goto done;
    }
    yuv_op op = {im, n, o};
    if (cli_run_into(run, out_path, NULL, &out, run_yuv, &op))
        goto done;
    const cli_file written[] = {{out_path, &out, NULL, 0}};
    if (cli_save_outputs(written, 1, 0))
        goto done;
    cli_report_device(run);
    cli_note(run->quiet, "input:  %zu %s frames (%s %s, %s, ...)", n, fmt,
             clpad_color_matrix_name(o->color_matrix), clpad_color_range_name(o->color_range),
             inputs[0]);
    rc = cli_report_output(run, &out, out_path, NULL);
done:
    cli_run_free(run);
    for (size_t i = 0; i < n_inputs; i++) {
        if (raw)
            free(raw[i]);
        if (npy)
            tio_free(&npy[i]);
    }
    free(raw);
    free(npy);
    free(im);
    tio_free(&out);
    return rc;
}
