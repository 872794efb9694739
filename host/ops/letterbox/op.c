/* Letterbox's descriptor (host/ops/op.h). A batch of images in, one tensor
 * out: the single-buffer runs stay NULL; plan.c, cpu.c and cl.c hold its
 * steps. */
#include "ops/letterbox/letterbox.h"
#include "ops/op.h"

/* Warm-up: the program of this device (its build options depend on the
 * device only), and its streaming-store variant where the device has
 * streaming stores (CPU devices; host/ops/letterbox/cl.c). */
static bool variant(const clpad_context *ctx, int i, char *options, size_t size)
{
    int streams = ctx->policy.nt_output_bytes != 0 && clpad__cpu_geometry(ctx) ? 2 : 1;
    if (i < 0 || i >= streams)
        return false;
    clpad__lb_options(ctx, i == 1, options, size);
    return true;
}

const clpad_op_desc clpad__op_letterbox = {
    .name = "letterbox",
    .family = "letterbox",
    .variant = variant,
};
