/* The descriptor of numpy.pad's statistic modes (host/ops/op.h). */
#include "ops/op.h"
#include "ops/pad_numpy/pad_numpy.h"

/* Warm-up: u8 and f32 (every mode of each: one program per dtype), the
 * common image calls; the other dtypes build on first use. */
static bool variant(const clpad_context *ctx, int i, char *options, size_t size)
{
    (void)ctx;
    static const clpad_dtype dt[] = {CLPAD_U8, CLPAD_F32};
    if (i < 0 || i >= 2)
        return false;
    clpad__np_options(dt[i], options, size);
    return true;
}

CLPAD_OP_HOST_RUNS(clpad_np_call, clpad__np_ref, clpad__np_cpu, in_bytes, out_bytes)

const clpad_op_desc clpad__op_pad_numpy =
    CLPAD_OP_DESC("pad_numpy", "pad_numpy", clpad__np_host_enqueue);
