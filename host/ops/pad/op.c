/* Pad's descriptor (host/ops/op.h). */
#include "ops/op.h"
#include "ops/pad/pad.h"

/* Warm-up: every mode's program for every unit (1, 2, 4, 8 bytes), the
 * variants of the one-mode calls; mixed modes and large pads build on first
 * use. */
static bool variant(const clpad_context *ctx, int i, char *options, size_t size)
{
    if (i < 0 || i >= 4 * CLPAD_PAD_MODE_COUNT)
        return false;
    clpad__pad_options(i % CLPAD_PAD_MODE_COUNT, false, (size_t)1 << (i / CLPAD_PAD_MODE_COUNT),
                       options, size);
    return true;
}

CLPAD_OP_HOST_RUNS(clpad_pad_call, clpad__pad_ref, clpad__pad_cpu, in_bytes, out_bytes)

const clpad_op_desc clpad__op_pad = CLPAD_OP_DESC("pad", "pad", clpad__pad_host_enqueue);
