/* The descriptors of SpaceToBatch and BatchToSpace (host/ops/op.h): two
 * operations of one kernel family. */
#include "ops/op.h"
#include "ops/space_batch/space_batch.h"

/* Warm-up: the program for every unit (1, 2, 4, 8 bytes), and its
 * streaming-store variant where the device has streaming stores. */
static bool variant(const clpad_context *ctx, int i, char *options, size_t size)
{
    int streams = ctx->policy.nt_output_bytes != 0 ? 2 : 1;
    if (i < 0 || i >= 4 * streams)
        return false;
    clpad__sb_options(ctx, (size_t)1 << (i / streams), i % streams != 0, options, size);
    return true;
}

static void ref(const void *call, const void *input, void *output)
{
    clpad__sb_ref(call, input, output);
}

static void cpu(const void *call, const void *input, void *output)
{
    clpad__sb_cpu(call, input, output);
}

static void sizes(const void *call, size_t *in_bytes, size_t *out_bytes)
{
    const sb_call *c = call;
    *in_bytes = c->g.in_bytes;
    *out_bytes = c->g.out_bytes;
}

const clpad_op_desc clpad__op_space_to_batch = {
    .name = "space_to_batch",
    .family = "space_batch",
    .variant = variant,
    .ref = ref,
    .cpu = cpu,
    .enqueue = clpad__sb_host_enqueue,
    .sizes = sizes,
};

const clpad_op_desc clpad__op_batch_to_space = {
    .name = "batch_to_space",
    .family = "space_batch",
    .variant = variant,
    .ref = ref,
    .cpu = cpu,
    .enqueue = clpad__sb_host_enqueue,
    .sizes = sizes,
};
