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

CLPAD_OP_HOST_RUNS(sb_call, clpad__sb_ref, clpad__sb_cpu, g.in_bytes, g.out_bytes)

/* The two descriptors differ in their names only: the call says which
 * direction it runs. */
const clpad_op_desc clpad__op_space_to_batch =
    CLPAD_OP_DESC("space_to_batch", "space_batch", clpad__sb_host_enqueue);
const clpad_op_desc clpad__op_batch_to_space =
    CLPAD_OP_DESC("batch_to_space", "space_batch", clpad__sb_host_enqueue);
