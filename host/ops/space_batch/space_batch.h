/* SpaceToBatch / BatchToSpace, in the operation skeleton's steps:
 * plan.c (validation, output shapes, the collapsed plan), ref.c (the plain
 * reference), cpu.c (the fast host path), cl.c (kernels/space_batch.cl) and
 * op.c (the two descriptors, host/ops/op.h). Not installed.
 *
 * Both operations move elements between a "space" tensor [N, S1, ..., Sm]
 * and a "batch" tensor [B1*...*Bm*N, O1, ..., Om], where on every spatial axis
 * O*B = off + S + end with off, end >= 0. The batch element with block offsets
 * k = (k1, ..., km), original batch n and spatial index o, stored at batch
 * index ((k1*B2 + k2)*B3 + ... + km) * N + n (block offset outer, original
 * batch inner), corresponds to the space coordinate c = o*B + k - off on each
 * axis (kernels/coords.h).
 *  - space_to_batch: space is the input (S = D, off = pads_begin); every batch
 *    element is written, from the input or as zero where c is outside [0, S).
 *  - batch_to_space: batch is the input (O = D, off = crops_begin); every
 *    space element (S = D*B - crops_begin - crops_end) is written from the
 *    batch element it corresponds to; the others are cropped.
 */
#ifndef CLPAD_SPACE_BATCH_H
#define CLPAD_SPACE_BATCH_H

#include "core/core.h"
#include "device/launch.h"

enum sb_op { SB_S2B, SB_B2S };

static inline const char *clpad__sb_op_name(enum sb_op op)
{
    return op == SB_S2B ? "space_to_batch" : "batch_to_space";
}

/* A validated call, in the terms above. Index 0 of the per-axis arrays is the
 * batch axis (S[0] = O[0] = N, B[0] = 1, off[0] = 0). */
typedef struct sb_geom {
    int rank;
    int64_t S[CLPAD_MAX_RANK], O[CLPAD_MAX_RANK], B[CLPAD_MAX_RANK], off[CLPAD_MAX_RANK];
    int64_t N, prod_b;
    int64_t out_shape[CLPAD_MAX_RANK];
    size_t in_bytes, out_bytes; /* with the element size given to sb_check */
} sb_geom;

/* Validate the geometry of a call (element size esize, 1 for shapes only). */
clpad_status clpad__sb_check(enum sb_op op, size_t esize, int rank, const int64_t *shape,
                             const int64_t *block, const int64_t *begin, const int64_t *end,
                             sb_geom *g);
/* Validate a data call: dtype and geometry. */
clpad_status clpad__sb_check_call(enum sb_op op, clpad_dtype dtype, int rank,
                                  const int64_t *shape, const int64_t *block,
                                  const int64_t *begin, const int64_t *end, sb_geom *g);
/* A validated data call (clpad__sb_validate): what the reference, the fast
 * host path and the device run take. */
typedef struct sb_call {
    enum sb_op op;
    sb_geom g;
    size_t esize;
} sb_call;
clpad_status clpad__sb_validate(enum sb_op op, clpad_dtype dtype, int rank, const int64_t *shape,
                                const int64_t *block, const int64_t *begin, const int64_t *end,
                                sb_call *c);

/* Spatial axes after collapsing, outermost first, and the batch. An axis is
 * "plain" when it moves unchanged (B = 1, off = 0, O = S). Collapsing:
 *  - plain axes of size 1 vanish;
 *  - an axis with B = 1 merges with a plain inner neighbour (whole inner rows
 *    are then zero or copied, as in constant Pad);
 *  - the batch merges with a plain first spatial axis: (n, o1) is adjacent on
 *    both sides, after the block offsets in the batch tensor;
 *  - a plain innermost axis becomes part of the element (elem bytes; the
 *    kernels move it as K units of 1, 2, 4 or 8 bytes).
 * m == 0 means every axis is plain: the operation is a plain copy. */
typedef struct sb_plan {
    int m;
    int64_t N;
    int64_t S[CLPAD_MAX_RANK - 1], O[CLPAD_MAX_RANK - 1], B[CLPAD_MAX_RANK - 1],
        off[CLPAD_MAX_RANK - 1];
    size_t elem;                       /* bytes per (possibly widened) element */
    int64_t prod_b;
    int64_t space_elems, batch_elems; /* in units of elem */
} sb_plan;

/* Collapse a validated call into its plan. */
void clpad__sb_plan_build(const sb_geom *g, size_t esize, sb_plan *p);

/* The plain reference of a validated call (ref.c): every output element
 * from the input element kernels/coords.h's block rule names, or zero. */
void clpad__sb_ref(const sb_call *c, const void *input, void *output);
/* The fast host path of a validated call (cpu.c), on the calling thread;
 * input may be NULL for an empty input. */
void clpad__sb_cpu(const sb_call *c, const void *input, void *output);
/* The device run of a validated call (cl.c), the buffers checked by the
 * caller; and the same as the host-pointer path's enqueue function
 * (clpad__enqueue_fn, the closure being the call). */
clpad_status clpad__sb_enqueue(clpad_context *ctx, const sb_call *c, cl_mem input,
                               size_t input_offset, cl_mem output, size_t output_offset,
                               cl_command_queue queue, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event);
clpad__host_enqueue clpad__sb_host_enqueue;

/* Build options of the space_batch program on ctx moving units of
 * unit_bytes, with streaming stores or not, and the device's sb_vector (the
 * program cache's key: warmup and enqueue must agree). */
void clpad__sb_options(const clpad_context *ctx, size_t unit_bytes, bool stream, char *options,
                       size_t size);

#endif /* CLPAD_SPACE_BATCH_H */
