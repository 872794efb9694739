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
}
