/* Validation of clpad_pad_numpy's calls (host/ops/pad_numpy/pad_numpy.h). */
#include "ops/pad_numpy/pad_numpy.h"

#include <string.h>

clpad_status clpad__np_validate(clpad_dtype dtype, int rank, const int64_t *shape,
                                const int64_t *pads_begin, const int64_t *pads_end,
                                clpad_numpy_mode mode, const int64_t *stat_begin,
                                const int64_t *stat_end, clpad_np_call *c)
{
    memset(c, 0, sizeof *c);
    clpad_status st = clpad__check_rank_shape("pad_numpy", rank, 0, shape);
    if (st)
        return st;
    if (rank > 0 && (!pads_begin || !pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_numpy: pads_begin or pads_end is NULL");
    if ((int)mode < 0 || mode >= CLPAD_NUMPY_MODE_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "pad_numpy: mode %d is not a clpad_numpy_mode", (int)mode);
    if (dtype < CLPAD_I8 || dtype == CLPAD_F16 || dtype == CLPAD_BF16 || dtype >= CLPAD_DTYPE_COUNT)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "pad_numpy: dtype %d: the statistic modes take i8..u64, f32 and f64",
                           (int)dtype);
    c->dtype = dtype;
    c->esize = clpad_dtype_size(dtype);
    c->mode = mode;
    c->rank = rank;
    for (int a = 0; a < rank; a++) {
        if (pads_begin[a] < 0 || pads_end[a] < 0)
            return clpad__fail_at(CLPAD_ERR_INVALID_PADS, pads_begin[a] < 0 ? "pads_begin" : "pads_end",
                                  a, "pad_numpy: %s[%d] = %lld is negative (numpy.pad takes pads >= 0)",
                                  pads_begin[a] < 0 ? "pads_begin" : "pads_end", a,
                                  (long long)(pads_begin[a] < 0 ? pads_begin[a] : pads_end[a]));
        if (shape[a] == 0 && (pads_begin[a] || pads_end[a]))
            return clpad__fail_at(CLPAD_ERR_INVALID_PADS, "shape", a,
                                  "pad_numpy: axis %d has 0 elements and pads: a statistic of "
                                  "nothing (numpy.pad: can't extend empty axis)", a);
        c->shape[a] = shape[a];
        c->pads_begin[a] = pads_begin[a];
        c->pads_end[a] = pads_end[a];
        if (!clpad__add_i64(shape[a], pads_begin[a], &c->out_shape[a]) ||
            !clpad__add_i64(c->out_shape[a], pads_end[a], &c->out_shape[a]))
            return clpad__fail_at(CLPAD_ERR_OVERFLOW, "pads_end", a,
                                  "pad_numpy: axis %d: shape + pads overflows", a);
        if (mode >= CLPAD_NUMPY_REFLECT_ODD) { /* no statistic: stat lengths unused */
            c->stat_begin[a] = c->stat_end[a] = shape[a];
            continue;
        }
        const int64_t *given[2] = {stat_begin, stat_end};
        int64_t *res[2] = {c->stat_begin, c->stat_end};
        for (int s = 0; s < 2; s++) {
            int64_t L = given[s] ? given[s][a] : -1;
            if (L == 0)
                return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, s ? "stat_end" : "stat_begin", a,
                                      "pad_numpy: %s[%d] = 0: a statistic of no elements (give "
                                      ">= 1, or < 0 for the whole axis)",
                                      s ? "stat_end" : "stat_begin", a);
            res[s][a] = L < 0 || L > shape[a] ? shape[a] : L;
        }
    }
    int64_t n;
    if (!clpad__count(rank, c->shape, c->esize, &n, &c->in_bytes) ||
        !clpad__count(rank, c->out_shape, c->esize, &n, &c->out_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "pad_numpy: the output's size overflows");
    return CLPAD_OK;
}

clpad_status clpad__np_set_ramp(clpad_np_call *c, const double *end_begin, const double *end_end,
                                int float32)
{
    if (float32 && c->dtype != CLPAD_F32)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "pad_linear_ramp: float32 = %d: a float32 ramp is for f32 arrays (numpy "
                           "computes the others in float64)", float32);
    c->ramp_f32 = float32 != 0;
    for (int a = 0; a < c->rank; a++) {
        c->ramp_begin[a] = end_begin ? end_begin[a] : 0.;
        c->ramp_end[a] = end_end ? end_end[a] : 0.;
    }
    return CLPAD_OK;
}

bool clpad__np_pairwise(const clpad_np_call *c, int axis)
{
    for (int b = axis + 1; b < c->rank; b++)
        if (c->shape[b] > 1)
            return false;
    return true;
}
