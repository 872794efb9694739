/* Pad validation, output shape (docs/spec.md, "Pad") and the collapsed plan the CPU path
 * and the kernels share. */
#include "ops/pad/pad.h"

#include "coords.h"

#include <string.h>

/* kernels/coords.h numbers the modes as clpad_pad_mode does. */
_Static_assert(CLPAD_PAD_CONSTANT == CLPAD_COORD_CONSTANT && CLPAD_PAD_EDGE == CLPAD_COORD_EDGE &&
                   CLPAD_PAD_REFLECT == CLPAD_COORD_REFLECT &&
                   CLPAD_PAD_SYMMETRIC == CLPAD_COORD_SYMMETRIC &&
                   CLPAD_PAD_WRAP == CLPAD_COORD_WRAP,
               "pad mode numbering differs between clpad.h and kernels/coords.h");

/* `stack`: the caller is pad-and-stack, which has no large pads: the
 * messages offer what it has instead. */
static clpad_status check_limit(clpad_pad_mode mode, bool large, bool stack, int axis,
                                const char *which, int64_t pad, int64_t D, int8_t *rule)
{
    if (pad <= 0)
        return CLPAD_OK; /* limits apply to positive pads only; negative pads crop */
    switch (mode) {
    case CLPAD_PAD_CONSTANT:
        return CLPAD_OK;
    case CLPAD_PAD_EDGE:
    case CLPAD_PAD_WRAP:
        break;
    case CLPAD_PAD_REFLECT:
        if (pad > D - 1 && D >= 1 && large) {
            *rule = CLPAD_COORD_REFLECT_NUMPY;
            return CLPAD_OK;
        }
        if (pad > D - 1 && D >= 1)
            return clpad__fail_at(CLPAD_ERR_INVALID_PADS, which, axis,
                               "%s[%d] = %lld exceeds the reflect limit shape[%d] - 1 = %lld "
                               "(%s)",
                               which, axis, (long long)pad, axis, (long long)(D - 1),
                               stack ? "pad-and-stack mirrors once: give a smaller shape, or "
                                       "the mode symmetric, edge or wrap"
                                     : "numpy.pad's repeated reflection is opt-in: large pads "
                                       "'numpy'");
        break;
    case CLPAD_PAD_SYMMETRIC:
        if (pad > D && D >= 1 && large) {
            *rule = CLPAD_COORD_SYMMETRIC_NUMPY;
            return CLPAD_OK;
        }
        if (pad > D && D >= 1)
            return clpad__fail_at(CLPAD_ERR_INVALID_PADS, which, axis,
                               "%s[%d] = %lld exceeds the symmetric limit shape[%d] = %lld (%s)",
                               which, axis, (long long)pad, axis, (long long)D,
                               stack ? "pad-and-stack mirrors once: give a smaller shape, or "
                                       "the mode edge or wrap"
                                     : "numpy.pad's repeated mirror is opt-in: large pads "
                                       "'numpy'");
        break;
    default:
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "invalid pad_mode %d", (int)mode);
    }
    if (D < 1)
        return clpad__fail_at(CLPAD_ERR_INVALID_PADS, which, axis,
                           "%s[%d] = %lld: %s mode needs a non-empty axis, but shape[%d] = 0",
                           which, axis, (long long)pad, clpad_pad_mode_name(mode), axis);
    return CLPAD_OK;
}

clpad_status clpad__pad_options_load(const clpad_pad_options *o, int rank, const char *op,
                                     clpad_pad_options *out)
{
    if (!o)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: options is NULL", op);
    size_t min = offsetof(clpad_pad_options, flags) + sizeof o->flags;
    if (o->size < min)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: options->size = %zu is smaller than the first version's %zu "
                           "bytes (fill it with clpad_pad_options_init)",
                           op, o->size, min);
    size_t known = o->size < sizeof *o ? o->size : sizeof *o;
    memset(out, 0, sizeof *out);
    memcpy(out, o, known);
    for (size_t k = sizeof *o; k < o->size; k++)
        if (((const unsigned char *)o)[k])
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "%s: options has a non-zero byte at offset %zu, past the "
                               "fields this library version knows (%zu bytes)",
                               op, k, sizeof *o);
    for (int k = 0; k < 3; k++)
        if (out->reserved[k])
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "%s: options->reserved[%d] must be 0", op, k);
    if (out->flags & ~(unsigned)CLPAD_PAD_LARGE_NUMPY)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: options->flags = 0x%x has unknown bits 0x%x", op, out->flags,
                           out->flags & ~(unsigned)CLPAD_PAD_LARGE_NUMPY);
    for (int i = 0; i < rank && i < CLPAD_MAX_RANK; i++)
        if ((unsigned)out->modes[i] >= CLPAD_PAD_MODE_COUNT)
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "options->modes", i,
                               "%s: options->modes[%d] = %d is not a clpad_pad_mode", op, i,
                               (int)out->modes[i]);
    return CLPAD_OK;
}

clpad_pad_options *clpad_pad_options_init(clpad_pad_options *options, clpad_pad_mode mode)
{
    if (!clpad__sized_init(options, sizeof *options))
        return NULL;
    for (int i = 0; i < CLPAD_MAX_RANK; i++)
        options->modes[i] = mode;
    return options;
}

void clpad__pad_uniform_rules(int rank, clpad_pad_mode mode, int8_t *rules)
{
    for (int i = 0; i < rank && i < CLPAD_MAX_RANK; i++)
        rules[i] = (int8_t)mode;
}

static clpad_status pad_shape(int rank, const int64_t *shape, const int64_t *pads_begin,
                              const int64_t *pads_end, const clpad_pad_options *options,
                              bool stack, int64_t *out, int8_t *rules_out)
{
    clpad_status st = clpad__check_rank_shape("pad", rank, 0, shape);
    if (st)
        return st;
    clpad_pad_options o;
    if ((st = clpad__pad_options_load(options, rank, "pad", &o)))
        return st;
    if (rank > 0 && (!pads_begin || !pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad: %s is NULL",
                           pads_begin ? "pads_end" : "pads_begin");
    bool large = o.flags & CLPAD_PAD_LARGE_NUMPY;
    int8_t rules[CLPAD_MAX_RANK];
    for (int i = 0; i < rank; i++) {
        rules[i] = (int8_t)o.modes[i];
        if ((st = check_limit(o.modes[i], large, stack, i, "pads_begin", pads_begin[i],
                              shape[i], &rules[i])) ||
            (st = check_limit(o.modes[i], large, stack, i, "pads_end", pads_end[i], shape[i],
                              &rules[i])))
            return st;
        int64_t sum, last;
        /* The input coordinates c = o - pads_begin of the output run from
         * -pads_begin to shape + pads_end - 1: they must fit in int64 too. */
        if (pads_begin[i] == INT64_MIN || !clpad__add_i64(shape[i], pads_end[i], &last))
            return clpad__fail_at(CLPAD_ERR_OVERFLOW, "pads_begin", i,
                               "pads_begin[%d] = %lld, pads_end[%d] = %lld: the input "
                               "coordinates -pads_begin .. shape[%d] + pads_end - 1 overflow "
                               "int64",
                               i, (long long)pads_begin[i], i, (long long)pads_end[i], i);
        if (!clpad__add_i64(pads_begin[i], shape[i], &sum) ||
            !clpad__add_i64(sum, pads_end[i], &sum))
            return clpad__fail_at(CLPAD_ERR_OVERFLOW, "pads_begin", i,
                               "pads_begin[%d] + shape[%d] + pads_end[%d] = %lld + %lld + %lld "
                               "overflows int64",
                               i, i, i, (long long)pads_begin[i], (long long)shape[i],
                               (long long)pads_end[i]);
        out[i] = sum > 0 ? sum : 0;
    }
    /* per-side constants are values of mode constant: every axis says so
     * (the output shape's check too, so that a shape is never given for a
     * call that the pad functions refuse) */
    if (o.side_values)
        for (int a = 0; a < rank; a++)
            if (rules[a] != CLPAD_COORD_CONSTANT)
                return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "options->side_values", a,
                                      "pad: options->side_values needs mode constant on every "
                                      "axis (axis %d is %s)", a,
                                      clpad_pad_mode_name(o.modes[a]));
    if (rules_out && rank > 0)
        memcpy(rules_out, rules, (size_t)rank);
    return CLPAD_OK;
}

static clpad_status output_shape(int rank, const int64_t *shape, const int64_t *pads_begin,
                                 const int64_t *pads_end, const clpad_pad_options *options,
                                 bool stack, int64_t *out_shape)
{
    clpad__clear_error();
    if (rank > 0 && !out_shape)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad: out_shape is NULL");
    int64_t out[CLPAD_MAX_RANK];
    clpad_status st = pad_shape(rank, shape, pads_begin, pads_end, options, stack, out, NULL);
    if (st)
        return st;
    if (!clpad__count(rank, out, 1, NULL, NULL))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "pad: the output element count overflows");
    if (rank > 0)
        memcpy(out_shape, out, (size_t)rank * sizeof *out);
    return CLPAD_OK;
}

clpad_status clpad_pad_output_shape(int rank, const int64_t *shape, const int64_t *pads_begin,
                                    const int64_t *pads_end, const clpad_pad_options *options,
                                    int64_t *out_shape)
{
    return output_shape(rank, shape, pads_begin, pads_end, options, false, out_shape);
}

clpad_status clpad__pad_output_shape_stack(int rank, const int64_t *shape,
                                           const int64_t *pads_begin, const int64_t *pads_end,
                                           clpad_pad_mode mode, int64_t *out_shape)
{
    clpad__clear_error();
    if ((unsigned)mode >= CLPAD_PAD_MODE_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "invalid pad_mode %d", (int)mode);
    clpad_pad_options o;
    clpad_pad_options_init(&o, mode);
    return output_shape(rank, shape, pads_begin, pads_end, &o, true, out_shape);
}

clpad_status clpad__pad_check(clpad_dtype dtype, int rank, const int64_t *shape,
                              const int64_t *pads_begin, const int64_t *pads_end,
                              const clpad_pad_options *options, int8_t *rules,
                              int64_t *out_shape, size_t *in_bytes, size_t *out_bytes)
{
    size_t esize = clpad_dtype_size(dtype);
    if (!esize)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad: invalid dtype %d", (int)dtype);
    int64_t out[CLPAD_MAX_RANK];
    clpad_status st = pad_shape(rank, shape, pads_begin, pads_end, options, false, out, rules);
    if (st)
        return st;
    if (!clpad__count(rank, shape, esize, NULL, in_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "pad: the input byte size overflows");
    if (!clpad__count(rank, out, esize, NULL, out_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "pad: the output byte size overflows");
    if (out_shape && rank > 0)
        memcpy(out_shape, out, (size_t)rank * sizeof *out);
    return CLPAD_OK;
}

clpad_status clpad__pad_validate(clpad_dtype dtype, int rank, const int64_t *shape,
                                 const int64_t *pads_begin, const int64_t *pads_end,
                                 const clpad_pad_options *options, const void *pad_value,
                                 clpad_pad_call *c)
{
    clpad_status st = clpad__pad_check(dtype, rank, shape, pads_begin, pads_end, options,
                                       c->rules, c->out_shape, &c->in_bytes, &c->out_bytes);
    if (st)
        return st;
    c->dtype = dtype;
    c->esize = clpad_dtype_size(dtype);
    c->rank = rank;
    if (rank > 0) {
        memcpy(c->shape, shape, (size_t)rank * sizeof *shape);
        memcpy(c->pads_begin, pads_begin, (size_t)rank * sizeof *pads_begin);
        memcpy(c->pads_end, pads_end, (size_t)rank * sizeof *pads_end);
    }
    memset(c->value, 0, sizeof c->value);
    if (pad_value)
        memcpy(c->value, pad_value, c->esize);
    c->per_side = false;
    memset(c->sides, 0, sizeof c->sides);
    /* (options is not NULL here: clpad__pad_check refuses NULL) */
    if (options->size >= offsetof(clpad_pad_options, side_values) + sizeof options->side_values &&
        options->side_values) { /* (every axis constant: pad_shape checked) */
        const unsigned char *v = options->side_values;
        c->per_side = rank > 0;
        for (int a = 0; a < rank; a++)
            for (int s = 0; s < 2; s++)
                memcpy(c->sides[a][s], v + (size_t)(2 * a + s) * c->esize, c->esize);
    }
    return CLPAD_OK;
}

/* An axis's pads_begin replaced by one that maps every output index to the
 * same source (or to padding), and lies in [-D, D + O] (O = the axis's
 * output size, D >= 0). A huge pads_begin cancelled by a huge negative
 * pads_end (both about 2^62, O small) is valid, but products such as
 * pads_begin * (units per element) that the kernels form would overflow.
 * The output covers the input coordinates c in [-b, -b + O):
 *  - wrap reads c mod D everywhere: any b' = b (mod D) does; a b outside
 *    [-D, D + O] becomes b' in [0, D); likewise the _numpy mirrors with
 *    their periods 2(D-1) and 2D. A b in range stays: a crop (b < 0) must
 *    stay a crop, or every row of a cropped wrap would be mapped padding
 *    (b = -2 would read as b' = D - 2 pads), several times slower;
 *  - constant and edge only tell "before", "inside" and "after" apart: a
 *    window wholly before the input (-b + O <= 0) moves to [-O, 0), one
 *    wholly after it (-b >= D) to [D, D + O);
 *  - reflect and symmetric: positive pads are at most D, and a pads_begin
 *    below -(D + pads_end) leaves nothing to output, so b is in range already. */
static int64_t canonical_begin(int rule, int64_t D, int64_t b, int64_t O)
{
    if (O == 0)
        return 0;
    /* the periodic rules read c mod their period everywhere */
    int64_t period = rule == CLPAD_COORD_WRAP              ? D
                     : rule == CLPAD_COORD_REFLECT_NUMPY   ? (D > 1 ? 2 * (D - 1) : 1)
                     : rule == CLPAD_COORD_SYMMETRIC_NUMPY ? 2 * D
                                                           : 0;
    if (period > 0 && D > 0 && (b < -D || (b > D && b - D > O))) {
        int64_t m = b % period;
        return m < 0 ? m + period : m;
    }
    if (rule == CLPAD_COORD_CONSTANT || rule == CLPAD_COORD_EDGE) {
        if (b >= O) /* -b + O <= 0 */
            return O;
        if (b <= -D)
            return -D;
    }
    return b;
}

void clpad__pad_plan(int rank, const int64_t *shape, const int64_t *pads_begin,
                     const int64_t *pads_end, const int8_t *rules, size_t elem_size,
                     bool widen, clpad_pad_plan *plan)
{
    /* Working copy, innermost last; axes of size 1 without pads vanish. The
     * pads become canonical (canonical_begin), so that every coordinate of
     * the plan is bounded by the axis's input and output sizes:
     * |b| <= D + O. An empty input (only constant padding can then have an
     * output) becomes an input of size 0 on every axis, the output all
     * padding: no size of an axis that is never read enters the plan. */
    int64_t D[CLPAD_MAX_RANK], b[CLPAD_MAX_RANK], e[CLPAD_MAX_RANK];
    int8_t R[CLPAD_MAX_RANK];
    int n = 0;
    bool no_pads = true, empty_in = false;
    for (int i = 0; i < rank; i++)
        empty_in |= shape[i] == 0;
    for (int i = 0; i < rank; i++) {
        if (pads_begin[i] || pads_end[i])
            no_pads = false;
        if (shape[i] == 1 && !pads_begin[i] && !pads_end[i])
            continue;
        int64_t o = pads_begin[i] + shape[i] + pads_end[i]; /* validated: no overflow */
        o = o > 0 ? o : 0;
        D[n] = empty_in ? 0 : shape[i];
        R[n] = empty_in ? CLPAD_COORD_CONSTANT : rules[i];
        b[n] = empty_in ? o : canonical_begin(R[n], shape[i], pads_begin[i], o);
        e[n] = o - D[n] - b[n];
        n++;
    }
    /* Merge an outer axis into its unpadded inner neighbour. An outer axis
     * in constant mode may be padded: whole inner rows are then pad or copy.
     * The merged axis keeps the outer axis's rule. */
    for (int i = n - 2; i >= 0; i--) {
        bool inner_plain = !b[i + 1] && !e[i + 1];
        bool outer_plain = !b[i] && !e[i];
        int64_t nd, nb, ne, sum;
        if (!inner_plain || !(outer_plain || R[i] == CLPAD_COORD_CONSTANT))
            continue;
        int64_t last;
        if (!clpad__mul_i64(D[i], D[i + 1], &nd) || !clpad__mul_i64(b[i], D[i + 1], &nb) ||
            !clpad__mul_i64(e[i], D[i + 1], &ne) || !clpad__add_i64(nb, nd, &sum) ||
            !clpad__add_i64(sum, ne, &sum) || nb == INT64_MIN || !clpad__add_i64(nd, ne, &last))
            continue; /* the merged axis's coordinates must fit too (see pad_shape) */
        D[i] = nd;
        b[i] = nb;
        e[i] = ne;
        for (int j = i + 1; j < n - 1; j++) {
            D[j] = D[j + 1];
            b[j] = b[j + 1];
            e[j] = e[j + 1];
            R[j] = R[j + 1];
        }
        n--;
    }
    /* Trailing unpadded axes (one after the merge) are copied whole: they
     * become one wider element. */
    size_t elem = elem_size;
    while (widen && n > 1 && !b[n - 1] && !e[n - 1] && D[n - 1] > 0) {
        size_t w;
        if (__builtin_mul_overflow(elem, (size_t)D[n - 1], &w))
            break;
        elem = w;
        n--;
    }
    if (n == 0) { /* a scalar, or only unit axes: one element */
        D[0] = 1;
        b[0] = e[0] = 0;
        R[0] = rank > 0 ? rules[0] : CLPAD_COORD_CONSTANT;
        n = 1;
    }
    /* Unpadded axes read no rule: they take the padded axes' one where
     * those agree, so that such a call runs a single-rule kernel. */
    int shared = -1;
    bool mixed = false;
    for (int i = 0; i < n; i++) {
        if (!b[i] && !e[i])
            continue;
        if (shared < 0)
            shared = R[i];
        else if (R[i] != shared)
            mixed = true;
    }
    if (shared < 0)
        shared = R[n - 1];
    plan->any_constant = false;
    for (int i = 0; i < n; i++) {
        if (!b[i] && !e[i] && !mixed)
            R[i] = (int8_t)shared;
        plan->rules[i] = R[i];
        plan->any_constant |= R[i] == CLPAD_COORD_CONSTANT && (b[i] || e[i]);
    }
    plan->uniform = mixed ? -1 : shared;
    plan->rank = n;
    plan->elem_bytes = elem;
    plan->no_pads = no_pads;
    plan->in_elems = plan->out_elems = 1;
    for (int i = 0; i < n; i++) {
        int64_t o = b[i] + D[i] + e[i]; /* cannot overflow: validated, and merges checked */
        plan->in_dims[i] = D[i];
        plan->out_dims[i] = o > 0 ? o : 0;
        plan->pads_begin[i] = b[i];
        plan->in_elems *= D[i];
        plan->out_elems *= plan->out_dims[i];
    }
}

clpad_status clpad__pad_plan_check(const clpad_pad_plan *p)
{
    /* What the kernels form from a plan: coordinates c = o - b on every axis
     * (|b| + D + O bounds them), and on the innermost axis the same in units
     * of the element's K units (K <= elem_bytes); offsets m * stride and
     * row * row_units, bounded by the input and output sizes, which the
     * validation already keeps within size_t bytes. Each term must stay far
     * inside int64 (the kernels add a few of them). */
    const int64_t lim = INT64_MAX / 8;
    for (int i = 0; i < p->rank; i++) {
        int64_t b = p->pads_begin[i], span;
        if (b == INT64_MIN || !clpad__add_i64(b < 0 ? -b : b, p->in_dims[i], &span) ||
            !clpad__add_i64(span, p->out_dims[i], &span) || span > lim)
            goto overflow;
        if (i == p->rank - 1 &&
            (p->elem_bytes > (size_t)lim || !clpad__mul_i64(span, (int64_t)p->elem_bytes, &span) ||
             span > lim))
            goto overflow;
    }
    if ((uint64_t)p->in_elems > (uint64_t)lim / p->elem_bytes ||
        (uint64_t)p->out_elems > (uint64_t)lim / p->elem_bytes)
        goto overflow;
    return CLPAD_OK;
overflow:
    return clpad__fail(CLPAD_ERR_OVERFLOW,
                       "pad: the collapsed pads or sizes are too large for 64-bit index math "
                       "on the device");
}
