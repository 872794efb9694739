/* Random pad-and-stack batches shared by tests/test_pad_stack.c (the CPU
 * reference against the suite's own Pad oracle) and
 * tests/test_pad_stack_cl.c (the device against the CPU reference). */
#ifndef CLPAD_TEST_PAD_STACK_CASES_H
#define CLPAD_TEST_PAD_STACK_CASES_H

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PS_MAX_TENSORS = 9 };

typedef struct ps_case {
    clpad_dtype dtype;
    int rank;
    size_t n;
    int64_t shapes[PS_MAX_TENSORS * CLPAD_MAX_RANK];
    unsigned char *data[PS_MAX_TENSORS];
    size_t bytes[PS_MAX_TENSORS];
    int have_shape;
    int64_t shape[CLPAD_MAX_RANK];
    clpad_pad_mode mode;
    clpad_placement placement;
    unsigned char value[8];
    /* per-side constants (constant mode): clpad_pad_options.side_values */
    int per_side;
    unsigned char sides[2 * CLPAD_MAX_RANK * 8];
} ps_case;

static inline void ps_case_free(ps_case *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->data[i]);
    memset(c, 0, sizeof *c);
}

/* A random batch: rank 0..4 (or `rank` if >= 0), 1..max_n tensors of axes
 * 0..max_dim (1.. for the modes that need data), every dtype, mode and
 * placement, sometimes a given output shape smaller than the largest
 * (crops), or larger. */
static inline void ps_random_case(ps_case *c, uint64_t *rng, int rank, size_t max_n,
                                  int64_t max_dim)
{
    memset(c, 0, sizeof *c);
    static const clpad_dtype dts[] = {CLPAD_U8, CLPAD_I16, CLPAD_F16, CLPAD_F32, CLPAD_I64,
                                      CLPAD_F64, CLPAD_BOOL};
    c->dtype = dts[tu_range(rng, 0, 6)];
    c->rank = rank >= 0 ? rank : (int)tu_range(rng, 0, 4);
    c->n = (size_t)tu_range(rng, 1, (int64_t)max_n);
    c->mode = (clpad_pad_mode)tu_range(rng, 0, CLPAD_PAD_MODE_COUNT - 1);
    c->placement = (clpad_placement)tu_range(rng, 0, 1);
    int64_t lo = c->mode == CLPAD_PAD_CONSTANT ? 0 : 1;
    size_t es = clpad_dtype_size(c->dtype);
    for (size_t i = 0; i < c->n; i++) {
        int64_t el = 1;
        for (int k = 0; k < c->rank; k++) {
            int64_t d = tu_range(rng, lo, max_dim);
            c->shapes[i * (size_t)c->rank + (size_t)k] = d;
            el *= d;
        }
        c->bytes[i] = (size_t)el * es;
        c->data[i] = malloc(c->bytes[i] + 1);
        tu_fill(c->data[i], c->bytes[i], rng);
        if (c->dtype == CLPAD_BOOL)
            for (size_t b = 0; b < c->bytes[i]; b++)
                c->data[i][b] &= 1;
    }
    if (tu_range(rng, 0, 3) == 0) {
        c->have_shape = 1;
        for (int k = 0; k < c->rank; k++)
            c->shape[k] = tu_range(rng, lo, max_dim + 2);
    }
    tu_fill(c->value, 8, rng);
    if (c->dtype == CLPAD_BOOL)
        c->value[0] &= 1;
    /* half the constant batches: a value per side of each axis */
    if (c->mode == CLPAD_PAD_CONSTANT && c->rank > 0 && tu_range(rng, 0, 1)) {
        c->per_side = 1;
        tu_fill(c->sides, sizeof c->sides, rng);
        if (c->dtype == CLPAD_BOOL)
            for (size_t b = 0; b < sizeof c->sides; b++)
                c->sides[b] &= 1;
    }
}

/* The options of a case: its mode, its per-side constants if any. */
static inline clpad_pad_options ps_case_options(const ps_case *c)
{
    clpad_pad_options o;
    clpad_pad_options_init(&o, c->mode);
    o.side_values = c->per_side ? c->sides : NULL;
    return o;
}

static inline const char *ps_case_str(const ps_case *c, char *buf, size_t len)
{
    size_t u = (size_t)snprintf(buf, len, "%s rank %d %s %s, shape ", clpad_dtype_name(c->dtype),
                                c->rank, clpad_pad_mode_name(c->mode),
                                clpad_placement_name(c->placement));
    char s[160];
    u += (size_t)snprintf(buf + u, len - u, "%s%s; tensors",
                          c->have_shape ? tu_shape_str(c->rank, c->shape, s, sizeof s) : "max",
                          c->per_side ? ", per-side values" : "");
    for (size_t i = 0; i < c->n && u < len; i++)
        u += (size_t)snprintf(buf + u, len - u, " %s",
                              tu_shape_str(c->rank, c->shapes + i * (size_t)c->rank, s, sizeof s));
    return buf;
}

/* The output's bytes, or 0 when the plan refuses the case (a mode's limit). */
static inline size_t ps_case_out_bytes(const ps_case *c, clpad_status *st)
{
    int64_t os[CLPAD_MAX_RANK + 1];
    *st = clpad_pad_stack_plan(c->rank, c->n, c->shapes, c->have_shape ? c->shape : NULL,
                               c->mode, c->placement, os, NULL, NULL);
    if (*st)
        return 0;
    return (size_t)tu_elems(c->rank + 1, os) * clpad_dtype_size(c->dtype);
}

#endif
