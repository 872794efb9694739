/* Letterbox's descriptor (host/ops/op.h). A batch of images in, one tensor
 * out: the single-buffer runs stay NULL; plan.c, cpu.c and cl.c hold its
 * steps. */
#include "ops/letterbox/letterbox.h"
#include "ops/op.h"

/* Warm-up: the one program of this device (its build options depend on
 * the device only). */
static bool variant(const clpad_context *ctx, int i, char *options, size_t size)
{
    if (i != 0)
        return false;
    clpad__lb_options(ctx, options, size);
    return true;
}

const clpad_op_desc clpad__op_letterbox = {
    .name = "letterbox",
    .family = "letterbox",
    .variant = variant,
};
