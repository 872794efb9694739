/* Pad's validation and its collapsed plan (host/pad_shape.c), shared by the
 * CPU path (host/pad_cpu.c) and the device path (host/pad_cl.c). Not
 * installed. */
#ifndef CLPAD_PAD_PLAN_H
#define CLPAD_PAD_PLAN_H

#include "core/core.h"

/* A validated Pad with unpadded axes collapsed. Axis 0 is outermost. */
typedef struct clpad_pad_plan {
    int rank;                         /* >= 1 */
    int64_t in_dims[CLPAD_MAX_RANK];
    int64_t out_dims[CLPAD_MAX_RANK];
    int64_t pads_begin[CLPAD_MAX_RANK];
    size_t elem_bytes;                /* bytes per (possibly widened) element */
    int64_t in_elems, out_elems;      /* in units of elem_bytes */
    bool no_pads;                     /* every pad is 0: a plain copy */
    /* The coordinate rule of each axis (kernels/coords.h, CLPAD_COORD_*);
     * unpadded axes take the padded axes' rule where those share one. */
    int8_t rules[CLPAD_MAX_RANK];
    int uniform;                      /* the rule of every axis, or -1 (mixed) */
    bool any_constant;                /* some axis pads with the pad value */
} clpad_pad_plan;

/* Collapse a validated Pad: drop unit axes without pads, merge an axis into
 * its unpadded inner neighbour (an outer axis in constant mode: also when
 * it is padded), then, if `widen`, turn trailing unpadded axes into one
 * wider element of elem_bytes. `rules`: each input axis's rule, from
 * clpad__pad_check. */
void clpad__pad_plan(int rank, const int64_t *shape, const int64_t *pads_begin,
                     const int64_t *pads_end, const int8_t *rules, size_t elem_size,
                     bool widen, clpad_pad_plan *plan);

/* The rules of a uniform-mode call without flags (the classic API). */
void clpad__pad_uniform_rules(int rank, clpad_pad_mode mode, int8_t *rules);

/* The proof the device path needs before launch: every coordinate, offset
 * and product the kernels form from the plan fits in int64 with room to
 * spare (the plan's canonical pads make this hold for every valid call;
 * CLPAD_ERR_OVERFLOW otherwise, never a launch). */
clpad_status clpad__pad_plan_check(const clpad_pad_plan *p);

/* Validate a Pad and compute sizes: out_shape (may be NULL), input and output
 * bytes, and each axis's coordinate rule (rules, may be NULL): the axis's
 * mode, or with CLPAD_PAD_LARGE_NUMPY and pads beyond reflect's or
 * symmetric's limit, CLPAD_COORD_REFLECT_NUMPY / _SYMMETRIC_NUMPY. */
clpad_status clpad__pad_check(clpad_dtype dtype, int rank, const int64_t *shape,
                              const int64_t *pads_begin, const int64_t *pads_end,
                              const clpad_pad_options *options, int8_t *rules,
                              int64_t *out_shape, size_t *in_bytes, size_t *out_bytes);

/* clpad_pad_output_shape for pad-and-stack, whose one mode has no large
 * pads: the same checks, with messages that offer what pad-and-stack has
 * (a smaller shape, another mode) rather than large pads. */
clpad_status clpad__pad_output_shape_stack(int rank, const int64_t *shape,
                                           const int64_t *pads_begin, const int64_t *pads_end,
                                           clpad_pad_mode mode, int64_t *out_shape);

/* Build options of the pad program: `row_rule` for the innermost axis (and
 * every axis unless outer_modes, which reads the outer axes' rules from a
 * kernel argument), moving units of unit_bytes (the program cache's key:
 * warmup and enqueue must agree). */
void clpad__pad_options(int row_rule, bool outer_modes, size_t unit_bytes, char *options,
                        size_t size);

/* Outputs of at least twice this many bytes run the CPU path on several
 * threads (host/pool.c), in pieces of at least this size. */
#define CLPAD_CPU_PIECE_MIN_BYTES ((size_t)64 << 10)

/* clpad_pad_cpu on the pool's threads: the output in independent pieces
 * (host/pad_cpu.c). The same arguments, results and errors. */
clpad_status clpad__pad_cpu_threads(clpad_dtype dtype, int rank, const int64_t *shape,
                                    const void *input, const int64_t *pads_begin,
                                    const int64_t *pads_end, const clpad_pad_options *options,
                                    const void *pad_value, void *output, size_t output_bytes);

#endif /* CLPAD_PAD_PLAN_H */
