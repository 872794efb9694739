/* The letterbox's resize alone, for any pair of sizes (the peer harness
 * compares it with cv2.resize: tests/peer/letterbox_peer.py, "--resize"):
 *
 *   lb_resize bilinear|nearest|area|bicubic|pil-* H W C NH NW < image.raw > resized.raw
 *
 * reads an H x W image of C u8 samples per pixel (HWC, rows packed) and
 * writes it resized to NH x NW. Letterbox keeps the aspect, so its own size
 * pairs are tied to each other; this tool runs the same rule on any pair:
 * the plan of a one-image letterbox (host/ops/letterbox/plan.c) whose row and
 * column tables are replaced by the axis tables of H -> NH and W -> NW,
 * computed by the CPU reference's own row loop (host/ops/letterbox/cpu.c) with
 * the shared arithmetic of kernels/coords.h. The variable-tap kinds (area,
 * whose set-up depends on both axes, bicubic, pil-*) run as the CPU path's stretch
 * fit to NH x NW, which is the same resize. Exit 0, or 2 with a message. */
#include "ops/letterbox/letterbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(const char *why)
{
    fprintf(stderr,
            "lb_resize: %s\nusage: lb_resize bilinear|nearest|area|bicubic|pil-* H W C NH NW "
            "< in > out\n",
            why);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 7)
        return usage("6 arguments");
    clpad_interp interp;
    if (clpad_interp_from_name(argv[1], &interp))
        return usage(clpad_last_error());
    int64_t v[5];
    for (int i = 0; i < 5; i++) {
        char *end;
        v[i] = strtoll(argv[2 + i], &end, 10);
        if (*end || v[i] < 1 || v[i] > 1 << 16)
            return usage("sizes are integers in 1..65536");
    }
    int64_t H = v[0], W = v[1], C = v[2], NH = v[3], NW = v[4];
    size_t in_bytes = (size_t)(H * W * C), out_bytes = (size_t)(NH * NW * C);
    unsigned char *in = malloc(in_bytes), *out = malloc(out_bytes);
    lb_entry *axis = malloc((size_t)(NH > NW ? NH : NW) * sizeof *axis);
    const char *why = NULL;
    lb_plan p = {0};
    if (!in || !out || !axis) {
        why = "out of memory";
        goto done;
    }
    if (fread(in, 1, in_bytes, stdin) != in_bytes) {
        why = "short input";
        goto done;
    }
    clpad_image im = {.data = in, .height = H, .width = W, .channels = C};
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, NH, NW);
    o.interp = interp;
    o.dtype = CLPAD_U8; /* scale 1, mean 0, std 1: the value table is the identity */
    o.layout = CLPAD_LAYOUT_NHWC;
    if (clpad__lb_is_taps(interp)) {
        /* the variable-tap kinds' rule depends on both axes: the library's
         * own stretch fit (each axis resized to the slot), CPU path */
        o.fit = CLPAD_FIT_STRETCH;
        if (clpad_letterbox_cpu(&im, 1, &o, out, out_bytes, NULL))
            why = clpad_last_error();
        else if (fwrite(out, 1, out_bytes, stdout) != out_bytes)
            why = "cannot write the output";
        goto done;
    }
    if (clpad__lb_plan_host(&im, 1, &o, out, out_bytes, NULL, &p)) {
        why = clpad_last_error();
        goto done;
    }
    clpad__lb_axis_table(interp, H, NH, false, axis);
    memcpy(p.rows, axis, (size_t)NH * sizeof *axis);
    clpad__lb_axis_table(interp, W, NW, true, axis);
    for (int64_t x = 0; x < NW; x++)
        p.cols[x] = (lb_entry){(int32_t)(axis[x].a * C), (int32_t)(axis[x].b * C), axis[x].w0,
                               axis[x].w1};
    p.desc[0] = (lb_desc){0, W * C, (int64_t)0 | NW << 32, 0};
    const unsigned char *src[1] = {in};
    clpad__lb_run_rows(&p, src, out, 0, NH);
    if (fwrite(out, 1, out_bytes, stdout) != out_bytes)
        why = "cannot write the output";
done:
    clpad__lb_free(&p);
    free(in);
    free(out);
    free(axis);
    return why ? usage(why) : 0;
}
