/* Pad-and-stack (docs/letterbox.md, "Pad-and-stack"): validation, each
 * tensor's pads and the CPU reference, which is Pad (host/pad_cpu.c) of
 * every tensor into its slice of the output. */
#include "ops/pad_stack/pad_stack.h"
#include "ops/pad/pad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

clpad_status clpad__ps_check(int rank, size_t n, const int64_t *shapes, const int64_t *shape,
                             clpad_pad_mode mode, clpad_placement placement, size_t esize,
                             ps_plan *p)
{
    memset(p, 0, sizeof *p);
    if (rank < 0 || rank > CLPAD_MAX_RANK - 1)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "pad_stack: rank %d: tensors have rank 0..%d (the stack adds an axis)",
                           rank, CLPAD_MAX_RANK - 1);
    if ((unsigned)mode >= CLPAD_PAD_MODE_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_stack: invalid pad_mode %d", (int)mode);
    if ((unsigned)placement >= CLPAD_PLACEMENT_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_stack: invalid placement %d",
                           (int)placement);
    if (n > 0 && rank > 0 && !shapes)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_stack: shapes is NULL");
    if ((int64_t)n < 0)
        return clpad__fail(CLPAD_ERR_OVERFLOW, "pad_stack: n = %zu overflows", n);
    p->rank = rank;
    p->n = n;
    p->mode = mode;
    for (int k = 0; k < rank; k++) {
        if (shape) {
            if (shape[k] < 0)
                return clpad__fail(CLPAD_ERR_INVALID_SHAPE, "pad_stack: shape[%d] = %lld < 0", k,
                                   (long long)shape[k]);
            p->S[k] = shape[k];
        } else {
            p->S[k] = 0;
        }
    }
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < rank; k++) {
            int64_t d = shapes[i * (size_t)rank + (size_t)k];
            if (d < 0)
                return clpad__fail_at(CLPAD_ERR_INVALID_SHAPE, "tensors", (int64_t)i,
                                   "tensors[%zu]: shape[%d] = %lld is negative", i, k,
                                   (long long)d);
            if (!shape && d > p->S[k])
                p->S[k] = d;
        }
    p->out_shape[0] = (int64_t)n;
    memcpy(p->out_shape + 1, p->S, (size_t)rank * sizeof *p->S);
    if (!clpad__count(rank + 1, p->out_shape, esize, NULL, &p->out_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "pad_stack: the output's size overflows");
    if (!clpad__count(rank, p->S, esize, NULL, &p->slice_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "pad_stack: the output's size overflows");
    return CLPAD_OK;
}

void clpad__ps_pads(const ps_plan *p, const int64_t *D, int64_t *begin, int64_t *end)
{
    for (int k = 0; k < p->rank; k++) {
        int64_t total = p->S[k] - D[k]; /* may be negative: a crop */
        int64_t b = p->placement_center ? total / 2 - (total < 0 && total % 2 ? 1 : 0) : 0;
        begin[k] = b;
        end[k] = total - b;
    }
}

clpad_status clpad__ps_check_tensor(const ps_plan *p, size_t i, const int64_t *D, size_t esize,
                                    int64_t *begin, int64_t *end, size_t *bytes)
{
    clpad__ps_pads(p, D, begin, end);
    int64_t out[CLPAD_MAX_RANK];
    clpad_status st = clpad__pad_output_shape_stack(p->rank, D, begin, end, p->mode, out);
    if (st) {
        char msg[900];
        snprintf(msg, sizeof msg, "%s", clpad_last_error());
        return clpad__fail_at(st, "tensors", (int64_t)i, "tensors[%zu]: %s", i, msg);
    }
    if (!clpad__count(p->rank, D, esize, NULL, bytes))
        return clpad__fail_at(CLPAD_ERR_OVERFLOW, "tensors", (int64_t)i, "tensors[%zu]: its size overflows", i);
    return CLPAD_OK;
}

clpad_status clpad_pad_stack_plan(int rank, size_t n, const int64_t *shapes, const int64_t *shape,
                                  clpad_pad_mode mode, clpad_placement placement,
                                  int64_t *out_shape, int64_t *pads_begin, int64_t *pads_end)
{
    clpad__clear_error();
    if (!out_shape)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_stack_plan: out_shape is NULL");
    ps_plan p;
    clpad_status st = clpad__ps_check(rank, n, shapes, shape, mode, placement, 1, &p);
    if (st)
        return st;
    p.placement_center = placement == CLPAD_PLACE_CENTER;
    int64_t b[CLPAD_MAX_RANK], e[CLPAD_MAX_RANK];
    for (size_t i = 0; i < n; i++) {
        size_t bytes;
        if ((st = clpad__ps_check_tensor(&p, i, shapes + i * (size_t)rank, 1, b, e, &bytes)))
            return st;
    }
    memcpy(out_shape, p.out_shape, (size_t)(rank + 1) * sizeof *out_shape);
    for (size_t i = 0; i < n; i++) {
        clpad__ps_pads(&p, shapes + i * (size_t)rank, b, e);
        if (pads_begin)
            memcpy(pads_begin + i * (size_t)rank, b, (size_t)rank * sizeof *b);
        if (pads_end)
            memcpy(pads_end + i * (size_t)rank, e, (size_t)rank * sizeof *e);
    }
    return CLPAD_OK;
}

/* The mode of a call's options (one on every axis, no flags) and its
 * per-side constants. */
static clpad_status load_options(const clpad_pad_options *options, int rank, size_t esize,
                                 clpad_pad_mode *mode, ps_plan *p)
{
    clpad_pad_options o;
    clpad_status st = clpad__pad_options_load(options, rank, "pad_stack", &o);
    if (st)
        return st;
    if (o.flags & CLPAD_PAD_LARGE_NUMPY)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "pad_stack: options->flags has CLPAD_PAD_LARGE_NUMPY: pad-and-stack "
                           "pads within Pad-12's limits (reflect and symmetric mirror once)");
    for (int a = 1; a < rank; a++)
        if (o.modes[a] != o.modes[0])
            return clpad__fail_at(CLPAD_ERR_UNSUPPORTED, "options->modes", a,
                                  "pad_stack: options->modes[%d] = %s but modes[0] = %s: "
                                  "pad-and-stack pads every axis with one mode",
                                  a, clpad_pad_mode_name(o.modes[a]),
                                  clpad_pad_mode_name(o.modes[0]));
    *mode = o.modes[0];
    if (o.side_values && *mode != CLPAD_PAD_CONSTANT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "pad_stack: options->side_values needs mode constant (not %s)",
                           clpad_pad_mode_name(*mode));
    if (o.side_values && rank > 0) {
        const unsigned char *v = o.side_values;
        p->per_side = true;
        p->side_values = o.side_values;
        for (int a = 0; a < rank; a++)
            for (int s = 0; s < 2; s++)
                memcpy(p->sides[a][s], v + (size_t)(2 * a + s) * esize, esize);
    }
    return CLPAD_OK;
}

clpad_status clpad__ps_validate(clpad_dtype dtype, int rank, size_t n, const int64_t *shapes,
                                const int64_t *shape, clpad_pad_mode mode,
                                const clpad_pad_options *options, clpad_placement placement,
                                ps_plan *p, size_t *in_bytes)
{
    size_t es = clpad_dtype_size(dtype);
    if (!es)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED, "pad_stack: invalid dtype %d", (int)dtype);
    ps_plan sides = {0};
    if (options && rank >= 0 && rank < CLPAD_MAX_RANK) {
        clpad_status st = load_options(options, rank, es, &mode, &sides);
        if (st)
            return st;
    }
    clpad_status st = clpad__ps_check(rank, n, shapes, shape, mode, placement, es, p);
    if (st)
        return st;
    p->per_side = sides.per_side;
    p->side_values = sides.side_values;
    memcpy(p->sides, sides.sides, sizeof p->sides);
    p->placement_center = placement == CLPAD_PLACE_CENTER;
    p->esize = es;
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t b[CLPAD_MAX_RANK], e[CLPAD_MAX_RANK];
        size_t bytes;
        if ((st = clpad__ps_check_tensor(p, i, shapes + i * (size_t)rank, es, b, e, &bytes)))
            return st;
        if (__builtin_add_overflow(total, bytes, &total))
            return clpad__fail(CLPAD_ERR_OVERFLOW, "pad_stack: the inputs' total size overflows");
    }
    if (in_bytes)
        *in_bytes = total;
    return CLPAD_OK;
}

clpad_status clpad__ps_check_host(const ps_plan *p, const int64_t *shapes,
                                  const void *const *inputs, const void *output,
                                  size_t output_bytes)
{
    for (size_t i = 0; i < p->n; i++) {
        int64_t el;
        clpad__count(p->rank, shapes + i * (size_t)p->rank, 1, &el, NULL);
        if (el > 0 && (!inputs || !inputs[i]))
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "tensors", (int64_t)i, "tensors[%zu]: input is NULL", i);
    }
    if (p->out_bytes > 0 && !output)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_stack: output is NULL");
    if (output_bytes < p->out_bytes)
        return clpad__fail(CLPAD_ERR_BUFFER_TOO_SMALL,
                           "pad_stack: output_bytes = %zu, but the output needs %zu",
                           output_bytes, p->out_bytes);
    return CLPAD_OK;
}

clpad_status clpad__ps_cpu(clpad_dtype dtype, int rank, size_t n, const int64_t *shapes,
                           const void *const *inputs, const int64_t *shape, clpad_pad_mode mode,
                           const clpad_pad_options *options, const void *pad_value,
                           clpad_placement placement, void *output, size_t output_bytes)
{
    clpad__clear_error();
    ps_plan p;
    clpad_status st = clpad__ps_validate(dtype, rank, n, shapes, shape, mode, options, placement,
                                         &p, NULL);
    if (st || (st = clpad__ps_check_host(&p, shapes, inputs, output, output_bytes)))
        return st;
    /* every tensor is Pad's, per-side constants included (clpad_pad_options) */
    clpad_pad_options o;
    clpad_pad_options_init(&o, p.mode);
    o.side_values = p.per_side ? p.side_values : NULL;
    for (size_t i = 0; i < n && p.slice_bytes > 0; i++) {
        const int64_t *D = shapes + i * (size_t)rank;
        int64_t b[CLPAD_MAX_RANK], e[CLPAD_MAX_RANK];
        clpad__ps_pads(&p, D, b, e);
        st = clpad_pad_cpu(dtype, rank, D, inputs ? inputs[i] : NULL, b, e, &o, pad_value,
                           (unsigned char *)output + i * p.slice_bytes, p.slice_bytes);
        if (st) /* validated above: only a bug could get here */
            return st;
    }
    return CLPAD_OK;
}

clpad_status clpad_pad_stack_cpu(clpad_dtype dtype, int rank, size_t n, const int64_t *shapes,
                                 const void *const *inputs, const int64_t *shape,
                                 const clpad_pad_options *options, const void *pad_value,
                                 clpad_placement placement, void *output, size_t output_bytes)
{
    clpad__clear_error();
    if (!options)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_stack: options is NULL");
    return clpad__ps_cpu(dtype, rank, n, shapes, inputs, shape, CLPAD_PAD_CONSTANT, options,
                         pad_value, placement, output, output_bytes);
}
