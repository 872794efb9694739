/* SpaceToBatch / BatchToSpace on OpenCL (kernels/space_batch.cl): the
 * enqueue and host-pointer paths. */
#include "device/launch.h"
#include "ops/space_batch/space_batch.h"

#include <stdio.h>
#include <string.h>

void clpad__sb_options(const clpad_context *ctx, size_t unit_bytes, bool stream, char *options,
                       size_t size)
{
    char vec[32] = "";
    if (ctx->policy.sb_vector)
        snprintf(vec, sizeof vec, " -DCLPAD_SB_VEC=%u", ctx->policy.sb_vector);
    snprintf(options, size, "-DCLPAD_UNIT_BYTES=%zu%s%s", unit_bytes,
             stream ? " -DCLPAD_STREAM_STORES" : "", vec);
}

/* Launch the kernel of a plan with m >= 1 and a non-empty output. Elements
 * of the plan are moved as K units of eb bytes (clpad__unit_bytes). The
 * long8 arguments hold the spatial axes innermost first (component t is
 * axis m-1-t), strides in units, as kernels/space_batch.cl expects. */
static clpad_status launch_plan(clpad_context *ctx, enum sb_op op, const sb_plan *p,
                                cl_mem input, size_t input_offset, cl_mem output,
                                size_t output_offset, cl_command_queue queue, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event)
{
    size_t eb = clpad__unit_bytes(p->elem, input_offset, output_offset);
    cl_long K = (cl_long)(p->elem / eb);
    /* named as the kernels' parameters (CLPAD_ARG) */
    cl_long8 s_dims = {{0}}, o_dims = {{0}}, blocks = {{0}}, offs = {{0}}, s_strides = {{0}},
             o_strides = {{0}}, k_strides = {{0}};
    cl_int m = p->m;
    cl_long ss = K, os = K; /* units of one index on the current axis */
    for (int t = 0; t < m; t++) {
        int j = m - 1 - t;
        s_dims.s[t] = p->S[j];
        o_dims.s[t] = p->O[j];
        blocks.s[t] = p->B[j];
        offs.s[t] = p->off[j];
        s_strides.s[t] = ss;
        o_strides.s[t] = os;
        ss *= p->S[j];
        os *= p->O[j];
    }
    for (int t = m; t < 8; t++)
        s_dims.s[t] = o_dims.s[t] = blocks.s[t] = 1;
    /* ss, os: units of one batch index of the space and of the batch tensor;
     * a step of the flat block offset is N batch indices of the batch tensor. */
    cl_long ks = os * p->N;
    for (int t = 0; t < m; t++) {
        k_strides.s[t] = ks;
        ks *= p->B[m - 1 - t];
    }
    cl_ulong src_off = input_offset / eb, dst_off = output_offset / eb;
    /* units of one batch index: of the space tensor (s2b's batch_stride)
     * and of the batch tensor (b2s's n_stride) */
    cl_long n_batch = p->N, n_rows, batch_stride = ss, n_stride = os;
    size_t row_units;
    if (op == SB_S2B) {
        n_rows = p->batch_elems / p->O[m - 1];
        row_units = (size_t)(p->O[m - 1] * K);
    } else {
        n_rows = p->space_elems / p->S[m - 1];
        row_units = (size_t)(p->S[m - 1] * K);
    }
    size_t vec = CLPAD_GEOMETRY_VECTOR_BYTES / eb, vectors = (row_units + vec - 1) / vec;
    /* space_to_batch on a CPU device: a work-item writes the B0 batch rows of
     * one input row (every block offset of the innermost axis), reading the
     * row once, in order. */
    cl_long fuse = op == SB_S2B && clpad__cpu_geometry(ctx) ? p->B[m - 1] : 1;
    n_rows /= fuse;
    /* Streaming stores (the program's streaming variant) are scalar: they pay
     * off on elements of several units in large outputs on CPU devices, but
     * would keep the strided loops of single-unit elements from vectorising,
     * which is slower (bench/README.md, design measurements). */
    size_t out_bytes = (size_t)(op == SB_S2B ? p->batch_elems : p->space_elems) * p->elem;
    bool stream = K > 1 && clpad__cpu_geometry(ctx) && clpad__nt_min(ctx, out_bytes, eb, eb) > 0;

    char options[CLPAD_OPTIONS_MAX];
    clpad__sb_options(ctx, eb, stream, options, sizeof options);
    clpad_kernel_call kc;
    clpad_status st =
        clpad__kernel_begin(ctx, "space_batch", options, op == SB_S2B ? "s2b" : "b2s", NULL, &kc);
    if (st)
        return st;
    clpad_row_geometry geo;
    clpad__row_geometry(ctx, kc.k, vectors, (size_t)n_rows, false, &geo);
    clpad__arg_src_dst(&kc, input, src_off, output, dst_off);
    if (op == SB_S2B)
        CLPAD_ARGS(&kc, CLPAD_ARG(o_dims), CLPAD_ARG(blocks), CLPAD_ARG(offs), CLPAD_ARG(s_dims),
                   CLPAD_ARG(s_strides), CLPAD_ARG(m), CLPAD_ARG(n_batch),
                   CLPAD_ARG(batch_stride), CLPAD_ARG(K));
    else
        CLPAD_ARGS(&kc, CLPAD_ARG(s_dims), CLPAD_ARG(blocks), CLPAD_ARG(offs),
                   CLPAD_ARG(o_strides), CLPAD_ARG(k_strides), CLPAD_ARG(m),
                   CLPAD_ARG(n_stride), CLPAD_ARG(K));
    clpad__arg_rows(&kc, n_rows, &geo);
    if (op == SB_S2B)
        CLPAD_ARGS(&kc, CLPAD_ARG(fuse));
    return clpad__kernel_launch(&kc, queue, &geo, num_events, wait_list, event);
}

clpad_status clpad__sb_enqueue(clpad_context *ctx, const sb_call *c, cl_mem input,
                               size_t input_offset, cl_mem output, size_t output_offset,
                               cl_command_queue queue, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event)
{
    if (c->g.out_bytes == 0) /* nothing to write, but honour the event contract */
        return clpad__enqueue_marker(queue, num_events, wait_list, event);
    sb_plan p;
    clpad__sb_plan_build(&c->g, c->esize, &p);
    if (p.m == 0) /* every axis plain: a buffer copy */
        return clpad__enqueue_copy(queue, input, input_offset, output, output_offset,
                                   c->g.out_bytes, num_events, wait_list, event);
    return launch_plan(ctx, c->op, &p, input, input_offset, output, output_offset, queue,
                       num_events, wait_list, event);
}

static clpad_status sb_enqueue(enum sb_op op, clpad_context *ctx, clpad_dtype dtype, int rank,
                               const int64_t *shape, cl_mem input, size_t input_offset,
                               const int64_t *block, const int64_t *begin, const int64_t *end,
                               cl_mem output, size_t output_offset, cl_command_queue queue,
                               cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    const char *what = op == SB_S2B ? "enqueue_space_to_batch" : "enqueue_batch_to_space";
    clpad_status st = clpad__enqueue_enter(ctx, what);
    if (st)
        return st;
    sb_call c;
    if ((st = clpad__sb_validate(op, dtype, rank, shape, block, begin, end, &c)))
        return st;
    if ((st = clpad__check_enqueue(what, num_events, wait_list, input, input_offset,
                                   c.g.in_bytes, output, output_offset, c.g.out_bytes, c.esize)))
        return st;
    return clpad__sb_enqueue(ctx, &c, input, input_offset, output, output_offset,
                             queue ? queue : ctx->queue, num_events, wait_list, event);
}

/* The public pair: one signature, the operation's name and enum apart (the
 * header calls begin and end pads or crops). */
#define SB_ENQUEUE(name, op)                                                                  \
    clpad_status name(clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape,  \
                      cl_mem input, size_t input_offset, const int64_t *block,              \
                      const int64_t *begin, const int64_t *end, cl_mem output,              \
                      size_t output_offset, cl_command_queue queue, cl_uint num_events,     \
                      const cl_event *wait_list, cl_event *event)                           \
    {                                                                                         \
        return sb_enqueue(op, ctx, dtype, rank, shape, input, input_offset, block, begin, end, \
                          output, output_offset, queue, num_events, wait_list, event);     \
    }
SB_ENQUEUE(clpad_enqueue_space_to_batch, SB_S2B)
SB_ENQUEUE(clpad_enqueue_batch_to_space, SB_B2S)

clpad_status clpad__sb_host_enqueue(clpad_context *ctx, cl_mem in, size_t in_off, cl_mem out,
                                    size_t out_off, cl_command_queue q, cl_event *event,
                                    const void *closure)
{
    return clpad__sb_enqueue(ctx, closure, in, in_off, out, out_off, q, 0, NULL, event);
}

static clpad_status sb_host(enum sb_op op, clpad_context *ctx, clpad_dtype dtype, int rank,
                            const int64_t *shape, const void *input, const int64_t *block,
                            const int64_t *begin, const int64_t *end, void *output,
                            size_t output_bytes, clpad_run_info *info)
{
    sb_call c;
    clpad_status st = clpad__host_enter(ctx, info, clpad__sb_op_name(op));
    if (st || (st = clpad__sb_validate(op, dtype, rank, shape, block, begin, end, &c)) ||
        (st = clpad__check_host_buffers(clpad__sb_op_name(op), input, c.g.in_bytes, output,
                                        c.g.out_bytes, output_bytes)))
        return st;
    /* Bytes read + written: space_to_batch reads every input element once;
     * batch_to_space reads only the elements that are not cropped. */
    uint64_t moved = (op == SB_S2B ? c.g.in_bytes : c.g.out_bytes) + (uint64_t)c.g.out_bytes;
    if (clpad__host_call_on_cpu(ctx, (uint64_t)c.g.in_bytes + c.g.out_bytes)) {
        uint64_t t0 = clpad__now_ns();
        clpad__sb_cpu(&c, input, output);
        clpad__run_info_put(
            info, (clpad_run_info){.total_ns = clpad__now_ns() - t0, .bytes_moved = moved});
        return st;
    }
    size_t larger = c.g.in_bytes > c.g.out_bytes ? c.g.in_bytes : c.g.out_bytes;
    if (larger > ctx->max_alloc)
        return clpad__fail(CLPAD_ERR_DEVICE_OUT_OF_RESOURCES,
                           "%s: the %s (%zu bytes) is larger than the largest buffer %s can "
                           "allocate (CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes); run it on the "
                           "CPU path (clpad_%s_cpu, or the CLI's --cpu)",
                           clpad__sb_op_name(op), larger == c.g.in_bytes ? "input" : "output",
                           larger, ctx->device_name, (unsigned long long)ctx->max_alloc,
                           clpad__sb_op_name(op));
    clpad_run_info ri;
    if (!(st = clpad__run_host(ctx, input, c.g.in_bytes, output, c.g.out_bytes, moved,
                               clpad__sb_host_enqueue, &c, &ri)))
        clpad__run_info_put(info, ri);
    return st;
}

/* The public pair, as SB_ENQUEUE. */
#define SB_HOST(name, op)                                                                     \
    clpad_status name(clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape,  \
                      const void *input, const int64_t *block, const int64_t *begin,        \
                      const int64_t *end, void *output, size_t output_bytes,                \
                      clpad_run_info *info)                                                 \
    {                                                                                         \
        return sb_host(op, ctx, dtype, rank, shape, input, block, begin, end, output,         \
                       output_bytes, info);                                                   \
    }
SB_HOST(clpad_space_to_batch, SB_S2B)
SB_HOST(clpad_batch_to_space, SB_B2S)
