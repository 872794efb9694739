/* numpy.pad's statistic modes (maximum, minimum, mean, median with
 * stat_length; include/clpad.h, clpad_pad_numpy), in the operation
 * skeleton's steps: plan.c (validation), ref.c (the plain reference),
 * cpu.c (the host path), cl.c (kernels/pad_numpy.cl) and op.c (the
 * descriptor, host/ops/op.h). Not installed.
 *
 * numpy.pad's algorithm: the input is placed in the middle of the output;
 * then, for every axis a in order, every row along a (the axes before a
 * over the whole output, padded so far; the axes after a over the input's
 * part only) takes the statistic of its first Lb / last Le data elements
 * and fills its pad before / after the data with it. */
#ifndef CLPAD_PAD_NUMPY_H
#define CLPAD_PAD_NUMPY_H

#include "core/core.h"

#include <stdio.h>

/* A validated call (clpad__np_validate). stat_begin / stat_end: the
 * lengths, resolved (1..shape[a], the whole axis for numpy's None). */
typedef struct clpad_np_call {
    clpad_dtype dtype;
    size_t esize;
    clpad_numpy_mode mode;
    int rank;
    int64_t shape[CLPAD_MAX_RANK];
    int64_t pads_begin[CLPAD_MAX_RANK], pads_end[CLPAD_MAX_RANK];
    int64_t out_shape[CLPAD_MAX_RANK];
    int64_t stat_begin[CLPAD_MAX_RANK], stat_end[CLPAD_MAX_RANK];
    /* linear_ramp: the end values before / after each axis (0: numpy's
     * default), and whether the ramp is computed in float32 (else float64) */
    double ramp_begin[CLPAD_MAX_RANK], ramp_end[CLPAD_MAX_RANK];
    bool ramp_f32;
    size_t in_bytes, out_bytes;
} clpad_np_call;

clpad_status clpad__np_validate(clpad_dtype dtype, int rank, const int64_t *shape,
                                const int64_t *pads_begin, const int64_t *pads_end,
                                clpad_numpy_mode mode, const int64_t *stat_begin,
                                const int64_t *stat_end, clpad_np_call *c);

/* A validated linear_ramp call's end values (NULL: 0 on every side) and
 * computation type (float32: F32 arrays only). */
clpad_status clpad__np_set_ramp(clpad_np_call *c, const double *end_begin, const double *end_end,
                                int float32);

/* Whether numpy sums the slabs of axis a pairwise (the row's axis is the
 * innermost axis of extent > 1 of the slab: no later axis has more than one
 * element) or one element after the other (numpy's reduction then runs
 * along a later axis, adding the slab's elements in order). */
bool clpad__np_pairwise(const clpad_np_call *c, int axis);

/* The plain reference (ref.c). */
void clpad__np_ref(const clpad_np_call *c, const void *input, void *output);
/* The host path (cpu.c): the reference, on the calling thread. */
void clpad__np_cpu(const clpad_np_call *c, const void *input, void *output);
/* The device run (cl.c): one launch of fuse2d where clpad__np_fused says
 * so; else the input placed by Pad's constant kernel, then one launch of
 * kernels/pad_numpy.cl per padded axis. */
clpad_status clpad__np_host_enqueue(clpad_context *ctx, cl_mem in, size_t in_off, cl_mem out,
                                    size_t out_off, cl_command_queue q, cl_event *event,
                                    const void *closure);
/* Whether the device run takes the fused kernel (kernels/pad_numpy.cl,
 * fuse2d: the input read once, each output element written once): maximum,
 * minimum or mean (not of i64 / u64), no pads but on the two innermost axes (H, W), W at most
 * CLPAD_NP_FUSE_W_MAX (the kernel's column statistics), H's statistic in
 * order (W > 1 where H has pads), the CPU launch geometry, and planes (the
 * outer axes' product) at least the compute units unless a plane is small
 * (CLPAD_NP_FUSE_SMALL elements). Else Pad's copy and a launch per axis. */
#define CLPAD_NP_FUSE_W_MAX 512 /* (NP_FUSE_W_MAX) */
#define CLPAD_NP_FUSE_SMALL 65536
bool clpad__np_fused(const clpad_context *ctx, const clpad_np_call *c);
/* Build options of the pad_numpy program for a dtype (every mode: the mode
 * is a kernel argument; the program cache's key: warmup and enqueue must
 * agree). Inline: Pad's per-side constants (host/ops/pad/cl.c) build the
 * same programs, and Pad is below pad_numpy in the layers
 * (scripts/check_layers.py). */
static inline const char *clpad__np_type_name(clpad_dtype t)
{
    switch (t) {
    case CLPAD_I8: return "char";
    case CLPAD_U8: return "uchar";
    case CLPAD_I16: return "short";
    case CLPAD_U16: return "ushort";
    case CLPAD_I32: return "int";
    case CLPAD_U32: return "uint";
    case CLPAD_I64: return "long";
    case CLPAD_U64: return "ulong";
    case CLPAD_F32: return "float";
    default: return "double";
    }
}

static inline void clpad__np_options(clpad_dtype dtype, char *options, size_t size)
{
    static const char *const unsigned_of[] = {"", "uchar", "ushort", "", "uint", "", "", "", "ulong"};
    bool fl = dtype == CLPAD_F32 || dtype == CLPAD_F64;
    bool sgn = dtype == CLPAD_I8 || dtype == CLPAD_I16 || dtype == CLPAD_I32 || dtype == CLPAD_I64;
    /* Integers and f64 compute means and medians in double; correctly
     * rounded division for f32: the mean's sum / count as numpy's */
    snprintf(options, size, "-DNP_T=%s -DNP_UT=%s -DNP_KIND=%d%s%s", clpad__np_type_name(dtype),
             fl ? clpad__np_type_name(dtype) : unsigned_of[clpad_dtype_size(dtype)],
             fl ? 2 : sgn ? 0 : 1, dtype != CLPAD_F32 ? " -DNP_DOUBLE" : "",
             dtype == CLPAD_F32 ? " -cl-fp32-correctly-rounded-divide-sqrt" : "");
}

#endif /* CLPAD_PAD_NUMPY_H */
