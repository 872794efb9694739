/*
 * A consumer of the installed clpad: built against the installed headers and
 * library only (find_package or pkg-config), never the source tree.
 *
 * Pads the Pad-12 seed's mixed example (reflect, pads_begin [2,-1],
 * pads_end [-1,3] on the 3x4 input 1..12) with the CPU reference and on the
 * default OpenCL device, and checks the exact output. Also computes one window
 * geometry (clpad_window.h, included by clpad.h) and reads a tiny image
 * (clpad_image.h: the image decoders linked, statically too).
 *
 * Exit status: 0 pass, 1 fail, 77 no OpenCL device (the device part skipped).
 */
#include <clpad.h>
#include <clpad_image.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const int32_t expected[4][6] = {{10, 11, 12, 11, 10, 9},
                                       {6, 7, 8, 7, 6, 5},
                                       {2, 3, 4, 3, 2, 1},
                                       {6, 7, 8, 7, 6, 5}};

static int check(const char *what, const int32_t out[4][6])
{
    if (memcmp(out, expected, sizeof expected) == 0) {
        printf("consumer: %s: ok\n", what);
        return 0;
    }
    fprintf(stderr, "consumer: %s: wrong output:\n", what);
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 6; c++)
            fprintf(stderr, " %3d", (int)out[r][c]);
        fprintf(stderr, "\n");
    }
    return 1;
}

int main(void)
{
    printf("consumer: header %s, library %s\n", CLPAD_VERSION_STRING, clpad_version_string());
    if (clpad_version() / 10000 != CLPAD_VERSION_MAJOR) {
        fprintf(stderr, "consumer: library major version differs from the header's\n");
        return 1;
    }

    int32_t in[3][4];
    for (int i = 0; i < 12; i++)
        in[i / 4][i % 4] = i + 1;
    const int64_t shape[2] = {3, 4}, pads_begin[2] = {2, -1}, pads_end[2] = {-1, 3};
    int64_t out_shape[2];
    clpad_status st = clpad_pad_output_shape(2, shape, pads_begin, pads_end,
                                             CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), out_shape);
    if (st != CLPAD_OK || out_shape[0] != 4 || out_shape[1] != 6) {
        fprintf(stderr, "consumer: output shape: %s %s\n", clpad_status_name(st),
                clpad_last_error());
        return 1;
    }

    int32_t out[4][6];
    memset(out, 0, sizeof out);
    st = clpad_pad_cpu(CLPAD_I32, 2, shape, in, pads_begin, pads_end,
                       CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), NULL, out, sizeof out);
    if (st != CLPAD_OK) {
        fprintf(stderr, "consumer: clpad_pad_cpu: %s\n", clpad_last_error());
        return 1;
    }
    if (check("CPU reference", out))
        return 1;

    /* An error names its argument. */
    const int64_t too_far[2] = {0, 4};
    st = clpad_pad_output_shape(2, shape, too_far, too_far, CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT),
                                out_shape);
    if (st != CLPAD_ERR_INVALID_PADS || clpad_last_error()[0] == '\0') {
        fprintf(stderr, "consumer: reflect limit not reported (%s)\n", clpad_status_name(st));
        return 1;
    }

    /* Window geometry, the TF SAME article's example: TF SAME, I = 7x8, F = 4, S = 3 -> O = 3x3,
     * pads H [1, 2], W [1, 1]. */
    const int64_t win_in[2] = {7, 8}, kernel[2] = {4, 4}, stride[2] = {3, 3};
    clpad_window_result win;
    clpad_window_result_init(&win);
    st = clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 2, win_in, kernel, stride, NULL, NULL,
                         NULL, NULL, &win);
    if (st != CLPAD_OK || win.output[0] != 3 || win.output[1] != 3 || win.pads_begin[0] != 1 ||
        win.pads_end[0] != 2 || win.pads_begin[1] != 1 || win.pads_end[1] != 1) {
        fprintf(stderr, "consumer: clpad_window_tf: %s %s\n", clpad_status_name(st),
                clpad_last_error());
        return 1;
    }
    printf("consumer: window geometry: ok\n");

    /* A 2x1 binary PGM from memory, read as RGB (grey replicated). */
    static const char pgm[] = "P5\n2 1\n255\n\x10\x20";
    clpad_decoded_image img = {.size = sizeof img};
    st = clpad_image_decode(pgm, sizeof pgm - 1, "tiny.pgm", NULL, &img);
    if (st != CLPAD_OK || img.height != 1 || img.width != 2 || img.channels != 3 ||
        memcmp(img.data, "\x10\x10\x10\x20\x20\x20", 6) != 0) {
        fprintf(stderr, "consumer: clpad_image_decode: %s %s\n", clpad_status_name(st),
                clpad_last_error());
        return 1;
    }
    clpad_decoded_image_free(&img);
    printf("consumer: image reading: ok\n");

    /* The default OpenCL device. */
    clpad_context *ctx = NULL;
    /* DEVICE_ONLY: this tiny call would otherwise take the CPU path on a CPU device */
    clpad_context_config config;
    clpad_context_config_init(&config);
    config.flags = CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY;
    st = clpad_context_create(&config, &ctx);
    if (st == CLPAD_ERR_NO_DEVICE) {
        printf("consumer: SKIP device part: %s\n", clpad_last_error());
        return 77;
    }
    if (st != CLPAD_OK) {
        fprintf(stderr, "consumer: clpad_context_create: %s: %s\n", clpad_status_name(st),
                clpad_last_error());
        return 1;
    }
    printf("consumer: device: %s (%s)\n", clpad_context_device_name(ctx),
           clpad_context_platform_name(ctx));
    memset(out, 0, sizeof out);
    clpad_run_info info;
    clpad_run_info_init(&info);
    st = clpad_pad(ctx, CLPAD_I32, 2, shape, in, pads_begin, pads_end,
                   CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), NULL, out, sizeof out, &info);
    if (st != CLPAD_OK) {
        fprintf(stderr, "consumer: clpad_pad: %s: %s\n", clpad_status_name(st),
                clpad_last_error());
        clpad_context_destroy(ctx);
        return 1;
    }
    int rc = check("OpenCL device", out);
    if (!rc && !info.used_opencl) {
        fprintf(stderr, "consumer: clpad_pad did not run on the OpenCL device\n");
        rc = 1;
    }
    clpad_context_destroy(ctx);
    return rc;
}
