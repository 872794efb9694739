/* Pad-and-stack's descriptor (host/ops/op.h). Many tensors in, one tensor
 * out: the single-buffer runs stay NULL; plan.c and cl.c hold its steps. */
#include "ops/op.h"
#include "ops/pad_stack/pad_stack.h"

/* Warm-up: the program for every unit (1, 2, 4, 8 bytes). */
static bool variant(const clpad_context *ctx, int i, char *options, size_t size)
{
    if (i < 0 || i >= 4)
        return false;
    clpad__ps_options((size_t)1 << i, options, size);
    return true;
}

const clpad_op_desc clpad__op_pad_stack = {
    .name = "pad_stack",
    .family = "pad_stack",
    .variant = variant,
};
