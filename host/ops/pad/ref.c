/* Pad's plain reference (docs/spec.md, "Pad"): every output element, one at
 * a time, from the input element that kernels/coords.h's map names on each
 * axis, or the pad value where an axis maps to padding. No collapsed plan,
 * no fast paths: the statement of the operation that the fast host path
 * (cpu.c) and the kernels (kernels/pad.cl) are tested against. Slow. */
#include "ops/pad/pad.h"

#include "coords.h"

#include <string.h>

void clpad__pad_ref(const clpad_pad_call *c, const void *input, void *output)
{
    const unsigned char *in = input;
    unsigned char *out = output;
    size_t es = c->esize;
    int64_t idx[CLPAD_MAX_RANK] = {0}; /* the output element's index, outermost first */
    for (size_t k = 0; k * es < c->out_bytes; k++) {
        int64_t src = 0; /* the input element's flat index */
        bool padding = false;
        for (int a = 0; a < c->rank && !padding; a++) {
            int64_t m = clpad_coord_map(c->rules[a], idx[a] - c->pads_begin[a], c->shape[a]);
            padding = m < 0;
            src = src * c->shape[a] + m;
        }
        memcpy(out + k * es, padding ? c->value : in + (size_t)src * es, es);
        for (int a = c->rank - 1; a >= 0 && ++idx[a] == c->out_shape[a]; a--)
            idx[a] = 0;
    }
    clpad__pad_sides_host(c, c->pads_begin, c->pads_end, output);
}

void clpad__pad_sides_host(const clpad_pad_call *c, const int64_t *pb, const int64_t *pe,
                           void *output)
{
    if (!c->per_side)
        return;
    int r = c->rank, last = r - 1;
    size_t es = c->esize;
    int64_t O[CLPAD_MAX_RANK], rows = 1;
    for (int a = 0; a < r; a++) {
        O[a] = pb[a] + c->shape[a] + pe[a];
        if (O[a] <= 0)
            return;
        if (a < last)
            rows *= O[a];
    }
    /* the row's data part [lo, hi): the innermost axis' coordinates in range */
    int64_t OL = O[last], lo = pb[last] < 0 ? 0 : pb[last] > OL ? OL : pb[last];
    int64_t hi = pb[last] + c->shape[last];
    hi = hi < lo ? lo : hi > OL ? OL : hi;
    unsigned char *row = output;
    int64_t idx[CLPAD_MAX_RANK] = {0};
    for (int64_t k = 0; k < rows; k++, row += (size_t)OL * es) {
        const unsigned char *owner = NULL; /* the last outer axis in its padding */
        for (int a = 0; a < last; a++) {
            int64_t co = idx[a] - pb[a];
            if (co < 0 || co >= c->shape[a])
                owner = c->sides[a][co < 0 ? 0 : 1];
        }
        for (int64_t i = 0; i < OL; i++) {
            const unsigned char *v = i < lo ? c->sides[last][0] : i >= hi ? c->sides[last][1] : owner;
            if (v)
                memcpy(row + (size_t)i * es, v, es);
        }
        for (int a = last - 1; a >= 0 && ++idx[a] == O[a]; a--)
            idx[a] = 0;
    }
}
