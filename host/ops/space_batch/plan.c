/* SpaceToBatch / BatchToSpace (docs/spec.md, "SpaceToBatch" and
 * "BatchToSpace"): validation, output shapes and the collapsed plan shared
 * by the CPU reference and the kernels (host/ops/space_batch/space_batch.h). */
#include "ops/space_batch/space_batch.h"

#include <string.h>

clpad_status clpad__sb_check(enum sb_op op, size_t esize, int rank, const int64_t *shape,
                             const int64_t *block, const int64_t *begin, const int64_t *end,
                             sb_geom *g)
{
    const char *on = clpad__sb_op_name(op);
    const char *bn = op == SB_S2B ? "pads_begin" : "crops_begin";
    const char *en = op == SB_S2B ? "pads_end" : "crops_end";
    const char *verb = op == SB_S2B ? "padded" : "cropped";
    clpad_status st = clpad__check_rank_shape(on, rank, 2, shape);
    if (st)
        return st;
    if (!block || !begin || !end)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s is NULL", on,
                           !block ? "block_shape" : !begin ? bn : en);
    for (int i = 0; i < rank; i++) {
        if (i == 0 && block[0] != 1)
            return clpad__fail_at(CLPAD_ERR_INVALID_PADS, "block_shape", 0,
                               "%s: block_shape[0] = %lld must be 1 (the batch axis is not "
                               "blocked)",
                               on, (long long)block[0]);
        if (block[i] < 1)
            return clpad__fail_at(CLPAD_ERR_INVALID_PADS, "block_shape", i,
                                  "%s: block_shape[%d] = %lld must be >= 1",
                               on, i, (long long)block[i]);
        const int64_t *arr[2] = {begin, end};
        const char *names[2] = {bn, en};
        for (int s = 0; s < 2; s++) {
            if (arr[s][i] < 0)
                return clpad__fail_at(CLPAD_ERR_INVALID_PADS, names[s], i,
                                      "%s: %s[%d] = %lld is negative", on,
                                   names[s], i, (long long)arr[s][i]);
            if (i == 0 && arr[s][0] != 0)
                return clpad__fail_at(CLPAD_ERR_INVALID_PADS, names[s], 0,
                                   "%s: %s[0] = %lld must be 0 (the batch axis is not %s)", on,
                                   names[s], (long long)arr[s][0], verb);
        }
    }
    int64_t prod_b = 1;
    for (int i = 1; i < rank; i++)
        if (!clpad__mul_i64(prod_b, block[i], &prod_b))
            return clpad__fail(CLPAD_ERR_OVERFLOW, "%s: prod(block_shape) overflows int64", on);

    g->rank = rank;
    g->prod_b = prod_b;
    g->S[0] = g->O[0] = 0;
    g->B[0] = 1;
    g->off[0] = 0;
    if (op == SB_S2B) {
        g->N = shape[0];
        if (!clpad__mul_i64(shape[0], prod_b, &g->out_shape[0]))
            return clpad__fail(CLPAD_ERR_OVERFLOW,
                               "%s: the output batch shape[0] * prod(block_shape) = %lld * %lld "
                               "overflows int64",
                               on, (long long)shape[0], (long long)prod_b);
        for (int i = 1; i < rank; i++) {
            int64_t P;
            if (!clpad__add_i64(shape[i], begin[i], &P) || !clpad__add_i64(P, end[i], &P))
                return clpad__fail(CLPAD_ERR_OVERFLOW,
                                   "%s: shape[%d] + pads_begin[%d] + pads_end[%d] = %lld + %lld + "
                                   "%lld overflows int64",
                                   on, i, i, i, (long long)shape[i], (long long)begin[i],
                                   (long long)end[i]);
            if (P % block[i])
                return clpad__fail_at(CLPAD_ERR_INVALID_PADS, "block_shape", i,
                                   "%s: block_shape[%d] = %lld does not divide shape[%d] + "
                                   "pads_begin[%d] + pads_end[%d] = %lld + %lld + %lld = %lld",
                                   on, i, (long long)block[i], i, i, i, (long long)shape[i],
                                   (long long)begin[i], (long long)end[i], (long long)P);
            g->S[i] = shape[i];
            g->O[i] = P / block[i];
            g->B[i] = block[i];
            g->off[i] = begin[i];
            g->out_shape[i] = g->O[i];
        }
    } else {
        if (shape[0] % prod_b)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                               "%s: shape[0] = %lld is not divisible by prod(block_shape) = %lld",
                               on, (long long)shape[0], (long long)prod_b);
        g->N = g->out_shape[0] = shape[0] / prod_b;
        for (int i = 1; i < rank; i++) {
            int64_t full;
            if (!clpad__mul_i64(shape[i], block[i], &full))
                return clpad__fail(CLPAD_ERR_OVERFLOW,
                                   "%s: shape[%d] * block_shape[%d] = %lld * %lld overflows int64",
                                   on, i, i, (long long)shape[i], (long long)block[i]);
            if (begin[i] > full || end[i] > full - begin[i])
                return clpad__fail_at(CLPAD_ERR_INVALID_PADS, "crops_begin", i,
                                   "%s: crops_begin[%d] + crops_end[%d] = %lld + %lld exceeds "
                                   "shape[%d] * block_shape[%d] = %lld * %lld = %lld",
                                   on, i, i, (long long)begin[i], (long long)end[i], i, i,
                                   (long long)shape[i], (long long)block[i], (long long)full);
            g->O[i] = shape[i];
            g->S[i] = g->out_shape[i] = full - begin[i] - end[i];
            g->B[i] = block[i];
            g->off[i] = begin[i];
        }
    }
    g->S[0] = g->O[0] = g->N;
    if (!clpad__count(rank, shape, esize, NULL, &g->in_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "%s: the input %s overflows", on,
                           esize > 1 ? "byte size" : "element count");
    if (!clpad__count(rank, g->out_shape, esize, NULL, &g->out_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "%s: the output %s overflows", on,
                           esize > 1 ? "byte size" : "element count");
    return CLPAD_OK;
}

static clpad_status sb_output_shape(enum sb_op op, int rank, const int64_t *shape,
                                    const int64_t *block, const int64_t *begin,
                                    const int64_t *end, int64_t *out_shape)
{
    clpad__clear_error();
    if (!out_shape)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: out_shape is NULL", clpad__sb_op_name(op));
    sb_geom g;
    clpad_status st = clpad__sb_check(op, 1, rank, shape, block, begin, end, &g);
    if (st)
        return st;
    memcpy(out_shape, g.out_shape, (size_t)rank * sizeof *out_shape);
    return CLPAD_OK;
}

clpad_status clpad_space_to_batch_output_shape(int rank, const int64_t *shape,
                                               const int64_t *block_shape,
                                               const int64_t *pads_begin, const int64_t *pads_end,
                                               int64_t *out_shape)
{
    return sb_output_shape(SB_S2B, rank, shape, block_shape, pads_begin, pads_end, out_shape);
}

clpad_status clpad_batch_to_space_output_shape(int rank, const int64_t *shape,
                                               const int64_t *block_shape,
                                               const int64_t *crops_begin,
                                               const int64_t *crops_end, int64_t *out_shape)
{
    return sb_output_shape(SB_B2S, rank, shape, block_shape, crops_begin, crops_end, out_shape);
}

clpad_status clpad__sb_validate(enum sb_op op, clpad_dtype dtype, int rank, const int64_t *shape,
                                const int64_t *block, const int64_t *begin, const int64_t *end,
                                sb_call *c)
{
    c->op = op;
    c->esize = clpad_dtype_size(dtype);
    if (!c->esize)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: invalid dtype %d", clpad__sb_op_name(op),
                           (int)dtype);
    return clpad__sb_check(op, c->esize, rank, shape, block, begin, end, &c->g);
}

static bool plain(const sb_plan *p, int j)
{
    return p->B[j] == 1 && p->off[j] == 0 && p->O[j] == p->S[j];
}

static void remove_axis(sb_plan *p, int j)
{
    for (int t = j; t < p->m - 1; t++) {
        p->S[t] = p->S[t + 1];
        p->O[t] = p->O[t + 1];
        p->B[t] = p->B[t + 1];
        p->off[t] = p->off[t + 1];
    }
    p->m--;
}

void clpad__sb_plan_build(const sb_geom *g, size_t esize, sb_plan *p)
{
    p->m = 0;
    p->N = g->N;
    p->elem = esize;
    p->prod_b = g->prod_b;
    for (int i = 1; i < g->rank; i++) {
        int j = p->m++;
        p->S[j] = g->S[i];
        p->O[j] = g->O[i];
        p->B[j] = g->B[i];
        p->off[j] = g->off[i];
        if (plain(p, j) && p->S[j] == 1)
            p->m--;
    }
    for (int j = p->m - 2; j >= 0; j--) {
        if (p->B[j] != 1 || !plain(p, j + 1))
            continue;
        int64_t S, O, off, inner = p->S[j + 1];
        if (!clpad__mul_i64(p->S[j], inner, &S) || !clpad__mul_i64(p->O[j], inner, &O) ||
            !clpad__mul_i64(p->off[j], inner, &off))
            continue;
        p->S[j] = S;
        p->O[j] = O;
        p->off[j] = off;
        remove_axis(p, j + 1);
    }
    while (p->m > 0 && plain(p, 0)) {
        int64_t N;
        if (!clpad__mul_i64(p->N, p->S[0], &N))
            break;
        p->N = N;
        remove_axis(p, 0);
    }
    if (p->m > 1 && plain(p, p->m - 1)) { /* part of the element from now on */
        size_t w;
        if (!__builtin_mul_overflow(esize, (size_t)p->S[p->m - 1], &w)) {
            p->elem = w;
            p->m--;
        }
    }
    /* Counts: the validated element counts, regrouped, so they cannot overflow
     * unless they are 0 (then every product below is 0 or skipped). */
    int64_t s = p->N, o = p->N;
    for (int j = 0; j < p->m; j++) {
        s = p->S[j] && s ? s * p->S[j] : 0;
        o = p->O[j] && o ? o * p->O[j] : 0;
    }
    p->space_elems = s;
    p->batch_elems = o && p->prod_b ? o * p->prod_b : 0;
}
