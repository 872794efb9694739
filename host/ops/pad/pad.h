/* Pad (docs/spec.md, "Pad"), in the operation skeleton's steps:
 *   plan.c  validation (clpad__pad_validate: once per call) and the
 *           collapsed plan, pure;
 *   ref.c   the plain reference, element by element through
 *           kernels/coords.h's map (the tests' oracle);
 *   cpu.c   the fast host path (clpad_pad_cpu, small calls, fallback
 *           contexts), tested equal to ref.c;
 *   cl.c    the device run (kernels/pad.cl);
 *   op.c    the descriptor the registry lists (host/ops/op.h).
 * Not installed. */
#ifndef CLPAD_PAD_PLAN_H
#define CLPAD_PAD_PLAN_H

#include "core/core.h"
#include "device/launch.h"

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

/* The fields of clpad_pad_options this library reads into *out: up to
 * `flags` at least (the first version), zeros past what it knows, valid
 * flags and modes[0..rank-1]; messages start with `op` (pad, pad_stack). */
clpad_status clpad__pad_options_load(const clpad_pad_options *o, int rank, const char *op,
                                     clpad_pad_options *out);

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

/* A validated Pad call (clpad__pad_validate): what the reference, the fast
 * host path and the device run take. A piece of a call (pads shifted so
 * that its output is a part of the whole, host/ops/pad/cpu.c and cl.c) is a
 * call too: its rules stay valid, since its pads only shrink. */
typedef struct clpad_pad_call {
    clpad_dtype dtype;
    size_t esize;
    int rank;
    int64_t shape[CLPAD_MAX_RANK];
    int64_t pads_begin[CLPAD_MAX_RANK], pads_end[CLPAD_MAX_RANK];
    int64_t out_shape[CLPAD_MAX_RANK];
    int8_t rules[CLPAD_MAX_RANK];  /* each axis's coordinate rule (kernels/coords.h) */
    unsigned char value[8];        /* the pad value (zero bytes when NULL was given) */
    /* options->side_values: one value per side of each axis, [axis][0
     * before, 1 after] (per_side false: value everywhere) */
    bool per_side;
    unsigned char sides[CLPAD_MAX_RANK][2][8];
    size_t in_bytes, out_bytes;
} clpad_pad_call;

/* The per-side constants of a call (c->per_side) written over the padding of
 * an output at `output` whose axes have pads pb / pe (a piece of the call's
 * output: its pads shifted; host/ops/pad/ref.c): an element whose coordinate
 * o - pb[a] is outside [0, shape[a]) on some axis takes the side value of
 * the last such axis. */
void clpad__pad_sides_host(const clpad_pad_call *c, const int64_t *pb, const int64_t *pe,
                           void *output);
/* The same on the device, on the output buffer at byte out_off (after the
 * pad's launch, on the same in-order queue; host/ops/pad/cl.c, kernel
 * `sides` of kernels/pad_numpy.cl). */
clpad_status clpad__pad_sides_enqueue(clpad_context *ctx, const clpad_pad_call *c, cl_mem out,
                                      size_t out_off, cl_command_queue q, cl_event *event);

/* Validate a Pad (every rule of clpad_pad_output_shape, the dtype) and
 * fill *c. The host buffers are checked by the host-pointer entry points. */
clpad_status clpad__pad_validate(clpad_dtype dtype, int rank, const int64_t *shape,
                                 const int64_t *pads_begin, const int64_t *pads_end,
                                 const clpad_pad_options *options, const void *pad_value,
                                 clpad_pad_call *c);

/* The plain reference (host/ops/pad/ref.c): every output element from the
 * input element kernels/coords.h's map names, or the pad value. */
void clpad__pad_ref(const clpad_pad_call *c, const void *input, void *output);
/* The fast host path of a validated call, on the calling thread
 * (host/ops/pad/cpu.c). input may be NULL for an empty input. */
void clpad__pad_cpu(const clpad_pad_call *c, const void *input, void *output);
/* The same on the pool's threads (host/core/pool.c): outputs of at least
 * twice CLPAD_CPU_PIECE_MIN_BYTES in independent pieces of at least that
 * size. */
void clpad__pad_cpu_threads(const clpad_pad_call *c, const void *input, void *output);
#define CLPAD_CPU_PIECE_MIN_BYTES ((size_t)64 << 10)

/* The device run of a validated call (host/ops/pad/cl.c): kernels/pad.cl on
 * `input` at byte input_offset into `output` at output_offset, the buffers
 * checked by the caller. */
clpad_status clpad__pad_enqueue(clpad_context *ctx, const clpad_pad_call *c, cl_mem input,
                                size_t input_offset, cl_mem output, size_t output_offset,
                                cl_command_queue queue, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event);
/* The same as the host-pointer path's enqueue function (host/device/launch.h;
 * the closure is the call). */
clpad__host_enqueue clpad__pad_host_enqueue;

#endif /* CLPAD_PAD_PLAN_H */
