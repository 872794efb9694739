/* The host path of numpy.pad's statistic modes: the reference itself (the
 * statistics are computed once per row, as on the device; a faster host
 * path is left for when a host caller needs it). */
#include "ops/pad_numpy/pad_numpy.h"

void clpad__np_cpu(const clpad_np_call *c, const void *input, void *output)
{
    clpad__np_ref(c, input, output);
}

clpad_status clpad_pad_numpy_cpu(clpad_dtype dtype, int rank, const int64_t *shape,
                                 const void *input, const int64_t *pads_begin,
                                 const int64_t *pads_end, clpad_numpy_mode mode,
                                 const int64_t *stat_begin, const int64_t *stat_end,
                                 void *output, size_t output_bytes)
{
    clpad__clear_error();
    clpad_np_call c;
    clpad_status st = clpad__np_validate(dtype, rank, shape, pads_begin, pads_end, mode,
                                         stat_begin, stat_end, &c);
    if (st || (st = clpad__check_host_buffers("pad_numpy", input, c.in_bytes, output,
                                              c.out_bytes, output_bytes)))
        return st;
    if (c.out_bytes > 0)
        clpad__np_cpu(&c, input, output);
    return CLPAD_OK;
}

clpad_status clpad_pad_linear_ramp_cpu(clpad_dtype dtype, int rank, const int64_t *shape,
                                       const void *input, const int64_t *pads_begin,
                                       const int64_t *pads_end, const double *end_begin,
                                       const double *end_end, int float32, void *output,
                                       size_t output_bytes)
{
    clpad__clear_error();
    clpad_np_call c;
    clpad_status st = clpad__np_validate(dtype, rank, shape, pads_begin, pads_end,
                                         CLPAD_NUMPY_LINEAR_RAMP, NULL, NULL, &c);
    if (st || (st = clpad__np_set_ramp(&c, end_begin, end_end, float32)) ||
        (st = clpad__check_host_buffers("pad_linear_ramp", input, c.in_bytes, output,
                                        c.out_bytes, output_bytes)))
        return st;
    if (c.out_bytes > 0)
        clpad__np_cpu(&c, input, output);
    return CLPAD_OK;
}
