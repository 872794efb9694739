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

static void ref(const void *call, const void *input, void *output)
{
    clpad__pad_ref(call, input, output);
}

static void cpu(const void *call, const void *input, void *output)
{
    clpad__pad_cpu(call, input, output);
}

static void sizes(const void *call, size_t *in_bytes, size_t *out_bytes)
{
    const clpad_pad_call *c = call;
    *in_bytes = c->in_bytes;
    *out_bytes = c->out_bytes;
}

const clpad_op_desc clpad__op_pad = {
    .name = "pad",
    .family = "pad",
    .variant = variant,
    .ref = ref,
    .cpu = cpu,
    .enqueue = clpad__pad_host_enqueue,
    .sizes = sizes,
};
