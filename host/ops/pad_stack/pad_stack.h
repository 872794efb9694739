/* Pad-and-stack, shared by host/ops/pad_stack/plan.c (validation, pads, the CPU
 * reference) and host/ops/pad_stack/cl.c (OpenCL). Not installed. */
#ifndef CLPAD_PAD_STACK_H
#define CLPAD_PAD_STACK_H

#include "core/core.h"

/* A validated call: N tensors of rank `rank` into [N, S...]. */
typedef struct ps_plan {
    int rank;
    size_t n;
    clpad_pad_mode mode;
    bool placement_center;
    size_t esize;
    int64_t S[CLPAD_MAX_RANK];            /* the slice's shape */
    int64_t out_shape[CLPAD_MAX_RANK + 1];
    size_t out_bytes, slice_bytes;
    /* clpad_pad_options.side_values (constant mode): the caller's table and
     * its values, [axis][0 before, 1 after]; else the pad value everywhere */
    bool per_side;
    const void *side_values;
    unsigned char sides[CLPAD_MAX_RANK][2][8];
} ps_plan;

/* Rank, enums, sizes and S (elements of esize bytes); no per-tensor pads. */
clpad_status clpad__ps_check(int rank, size_t n, const int64_t *shapes, const int64_t *shape,
                             clpad_pad_mode mode, clpad_placement placement, size_t esize,
                             ps_plan *p);
/* The pads of a tensor of shape D (docs/letterbox.md, "Pad-and-stack"). */
void clpad__ps_pads(const ps_plan *p, const int64_t *D, int64_t *begin, int64_t *end);
/* Tensor i's pads, checked against Pad's limits (the message names the
 * tensor), and its bytes. */
clpad_status clpad__ps_check_tensor(const ps_plan *p, size_t i, const int64_t *D, size_t esize,
                                    int64_t *begin, int64_t *end, size_t *bytes);
/* A whole data call: dtype, geometry and every tensor; in_bytes (may be
 * NULL) receives the inputs' total size. `options` (may be NULL: `mode` on
 * every axis) replaces `mode`: one mode on every axis, no flags, and
 * side_values in constant mode. */
clpad_status clpad__ps_validate(clpad_dtype dtype, int rank, size_t n, const int64_t *shapes,
                                const int64_t *shape, clpad_pad_mode mode,
                                const clpad_pad_options *options, clpad_placement placement,
                                ps_plan *p, size_t *in_bytes);
/* The host buffers of a data call. */
clpad_status clpad__ps_check_host(const ps_plan *p, const int64_t *shapes,
                                  const void *const *inputs, const void *output,
                                  size_t output_bytes);

/* The CPU reference of a call (clpad_pad_stack_cpu; options as
 * clpad__ps_validate). */
clpad_status clpad__ps_cpu(clpad_dtype dtype, int rank, size_t n, const int64_t *shapes,
                           const void *const *inputs, const int64_t *shape, clpad_pad_mode mode,
                           const clpad_pad_options *options, const void *pad_value,
                           clpad_placement placement, void *output, size_t output_bytes);

/* Build options of the pad_stack program moving units of unit_bytes. */
void clpad__ps_options(size_t unit_bytes, char *options, size_t size);

#endif /* CLPAD_PAD_STACK_H */
