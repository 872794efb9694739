/* SpaceToBatch / BatchToSpace's plain reference (docs/spec.md,
 * "SpaceToBatch" and "BatchToSpace"): every output element, one at a time,
 * through the block rule of kernels/coords.h: the batch element at block
 * offsets k = (k1, ..., km), original batch n and index o, stored at batch
 * index ((k1*B2 + k2)*B3 + ... + km) * N + n, is the space element at
 * c = o*B + k - off on each axis (zero padding where c is outside the space
 * tensor). No collapsed plan, no fast paths: the statement that the fast
 * host path (cpu.c) and the kernels are tested against. Slow. */
#include "ops/space_batch/space_batch.h"

#include "coords.h"

#include <string.h>

void clpad__sb_ref(const sb_call *c, const void *input, void *output)
{
    const sb_geom *g = &c->g;
    const unsigned char *in = input;
    unsigned char *out = output;
    size_t es = c->esize;
    int64_t idx[CLPAD_MAX_RANK] = {0}; /* the output element's index, outermost first */
    for (size_t e = 0; e * es < g->out_bytes; e++) {
        /* The batch element (bi, o[1..]) and the space element (n, s[1..])
         * that correspond: one of them is the output element. */
        int64_t n, bi, o[CLPAD_MAX_RANK], s[CLPAD_MAX_RANK], k[CLPAD_MAX_RANK];
        bool inside = true;
        if (c->op == SB_S2B) { /* the output is the batch tensor */
            bi = idx[0];
            n = bi % g->N;
            int64_t kflat = bi / g->N; /* the block offsets, innermost axis fastest */
            for (int i = g->rank - 1; i >= 1; i--) {
                k[i] = kflat % g->B[i];
                kflat /= g->B[i];
                o[i] = idx[i];
                s[i] = clpad_block_coord(o[i], g->B[i], k[i], g->off[i]);
                inside = inside && s[i] >= 0 && s[i] < g->S[i];
            }
        } else { /* the output is the space tensor */
            n = idx[0];
            int64_t kflat = 0;
            for (int i = 1; i < g->rank; i++) {
                s[i] = idx[i];
                int64_t cc = s[i] + g->off[i]; /* = o*B + k */
                o[i] = cc / g->B[i];
                k[i] = cc % g->B[i];
                kflat = kflat * g->B[i] + k[i];
            }
            bi = kflat * g->N + n;
        }
        const unsigned char *from = NULL;
        if (inside) {
            int64_t at = c->op == SB_S2B ? n : bi; /* the input element's flat index */
            for (int i = 1; i < g->rank; i++)
                at = at * (c->op == SB_S2B ? g->S[i] : g->O[i]) + (c->op == SB_S2B ? s[i] : o[i]);
            from = in + (size_t)at * es;
        }
        if (from)
            memcpy(out + e * es, from, es);
        else
            memset(out + e * es, 0, es);
        for (int a = g->rank - 1; a >= 0 && ++idx[a] == g->out_shape[a]; a--)
            idx[a] = 0;
    }
}
