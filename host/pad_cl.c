/* Pad on OpenCL (SPEC §1): validation, launch geometry and the host-pointer path. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* The pad value as one unit of `unit` bytes: the dtype's value repeated (a
 * unit never splits an element, since it is a multiple of the element size). */
static void unit_value(const void *pad_value, size_t esize, size_t unit, unsigned char out[8])
{
    memset(out, 0, 8);
    if (!pad_value)
        return;
    for (size_t i = 0; i < unit; i += esize)
        memcpy(out + i, pad_value, esize);
}

void clpad__pad_options(const clpad_context *ctx, clpad_pad_mode mode,
                        char options[CLPAD_PAD_OPTIONS_MAX])
{
    snprintf(options, CLPAD_PAD_OPTIONS_MAX, "-DPAD_MODE=%d%s", (int)mode,
             ctx->nt_output_bytes ? " -DCLPAD_NT=1" : "");
}

bool clpad__nt_output(const clpad_context *ctx, size_t out_bytes)
{
    return ctx->nt_output_bytes && out_bytes >= ctx->nt_output_bytes;
}

static clpad_status enqueue_plan(clpad_context *ctx, const clpad_pad_plan *p, clpad_pad_mode mode,
                                 const void *pad_value, size_t esize, cl_mem input, size_t input_offset,
                                 cl_mem output, size_t output_offset, cl_command_queue queue,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    cl_int err;
    if (p->out_elems == 0) { /* empty output: no launch, but honour the event contract */
        if (!event)
            return CLPAD_OK;
        err = clEnqueueMarkerWithWaitList(queue, num_events, num_events ? wait_list : NULL, event);
        return err == CL_SUCCESS ? CLPAD_OK : clpad__fail_cl(err, "clEnqueueMarkerWithWaitList");
    }
    if (p->no_pads) { /* every pad is 0: a plain buffer copy */
        err = clEnqueueCopyBuffer(queue, input, output, input_offset, output_offset,
                                  (size_t)p->out_elems * p->elem_bytes, num_events,
                                  num_events ? wait_list : NULL, event);
        return err == CL_SUCCESS ? CLPAD_OK : clpad__fail_cl(err, "clEnqueueCopyBuffer");
    }
    /* The kernel moves units of 1, 2, 4 or 8 bytes: the largest that divides
     * the (widened) element and both offsets; K units make one element. */
    size_t eb = 8;
    while (eb > esize && (p->elem_bytes % eb || input_offset % eb || output_offset % eb))
        eb >>= 1;
    cl_long K = (cl_long)(p->elem_bytes / eb);
    unsigned char value[8];
    unit_value(mode == CLPAD_PAD_CONSTANT ? pad_value : NULL, esize, eb, value);
    char options[CLPAD_PAD_OPTIONS_MAX], name[32];
    clpad__pad_options(ctx, mode, options);
    /* Shortest interior stretch, in units, written with non-temporal stores
     * (kernels/pad.cl), or 0: only in large outputs; 64 KiB stretches. */
    size_t out_bytes = (size_t)p->out_elems * p->elem_bytes;
    cl_long nt_min = 0;
    if (ctx->nt_output_bytes == 1)
        nt_min = 1;
    else if (clpad__nt_output(ctx, out_bytes))
        nt_min = (cl_long)(65536 / eb);
    snprintf(name, sizeof name, "pad_%zu", eb);

    cl_long8 o_dims = {{0}}, i_dims = {{0}}, o_pb = {{0}}, i_strides = {{0}};
    int r = p->rank;
    cl_int n_outer = r - 1;
    cl_long stride = p->in_dims[r - 1] * K;
    for (int k = 0; k < n_outer; k++) { /* innermost outer axis first */
        int a = r - 2 - k;
        o_dims.s[k] = p->out_dims[a];
        i_dims.s[k] = p->in_dims[a];
        o_pb.s[k] = p->pads_begin[a];
        i_strides.s[k] = stride;
        stride *= p->in_dims[a];
    }
    for (int k = n_outer; k < 8; k++)
        o_dims.s[k] = i_dims.s[k] = 1;
    cl_ulong src_off = input_offset / eb, dst_off = output_offset / eb;
    cl_long row_out = p->out_dims[r - 1], row_in = p->in_dims[r - 1], row_pb = p->pads_begin[r - 1];
    cl_long n_rows = p->out_elems / row_out;
    size_t vec = 16 / eb;
    size_t vectors = ((size_t)(row_out * K) + vec - 1) / vec;
    pthread_mutex_lock(&ctx->lock);
    struct clpad_kernel_entry *k;
    clpad_status st = clpad__kernel(ctx, "pad", options, name, &k);
    if (!st) {
        cl_kernel kr = k->kernel;
        cl_uint i = 0;
        err = clSetKernelArg(kr, i++, sizeof(cl_mem), &input);
        err |= clSetKernelArg(kr, i++, sizeof src_off, &src_off);
        err |= clSetKernelArg(kr, i++, sizeof(cl_mem), &output);
        err |= clSetKernelArg(kr, i++, sizeof dst_off, &dst_off);
        err |= clSetKernelArg(kr, i++, eb, value);
        err |= clSetKernelArg(kr, i++, sizeof o_dims, &o_dims);
        err |= clSetKernelArg(kr, i++, sizeof i_dims, &i_dims);
        err |= clSetKernelArg(kr, i++, sizeof o_pb, &o_pb);
        err |= clSetKernelArg(kr, i++, sizeof i_strides, &i_strides);
        err |= clSetKernelArg(kr, i++, sizeof n_outer, &n_outer);
        err |= clSetKernelArg(kr, i++, sizeof row_out, &row_out);
        err |= clSetKernelArg(kr, i++, sizeof row_in, &row_in);
        err |= clSetKernelArg(kr, i++, sizeof row_pb, &row_pb);
        err |= clSetKernelArg(kr, i++, sizeof K, &K);
        err |= clSetKernelArg(kr, i++, sizeof n_rows, &n_rows);
        clpad_row_geometry g;
        clpad__row_geometry(ctx, k, vectors, (size_t)n_rows, 16, true, &g);
        err |= clSetKernelArg(kr, i++, sizeof g.items, &g.items);
        err |= clSetKernelArg(kr, i++, sizeof g.rows_per_item, &g.rows_per_item);
        err |= clSetKernelArg(kr, i++, sizeof nt_min, &nt_min);
        if (err != CL_SUCCESS)
            st = clpad__fail(CLPAD_ERR_OPENCL, "clSetKernelArg failed for %s", name);
        else
            st = clpad__launch_rows(ctx, k, queue, &g, num_events, wait_list, event);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* Validated arguments of one Pad, for the enqueue and host-pointer paths. */
typedef struct pad_call {
    clpad_dtype dtype;
    int rank;
    const int64_t *shape, *pads_begin, *pads_end;
    clpad_pad_mode mode;
    const void *pad_value;
} pad_call;

static clpad_status enqueue_call(clpad_context *ctx, const pad_call *c, cl_mem input,
                                 size_t input_offset, cl_mem output, size_t output_offset,
                                 cl_command_queue queue, cl_uint num_events,
                                 const cl_event *wait_list, cl_event *event)
{
    clpad_pad_plan plan;
    clpad__pad_plan(c->rank, c->shape, c->pads_begin, c->pads_end, c->mode,
                    clpad_dtype_size(c->dtype), true, &plan);
    clpad_status st = plan.out_elems > 0 ? clpad__pad_plan_check(&plan) : CLPAD_OK;
    if (st)
        return st;
    return enqueue_plan(ctx, &plan, c->mode, c->pad_value, clpad_dtype_size(c->dtype), input,
                        input_offset, output, output_offset, queue, num_events, wait_list, event);
}

clpad_status clpad_enqueue_pad(clpad_context *ctx, clpad_dtype dtype, int rank,
                               const int64_t *shape, cl_mem input, size_t input_offset,
                               const int64_t *pads_begin, const int64_t *pads_end,
                               clpad_pad_mode mode, const void *pad_value, cl_mem output,
                               size_t output_offset, cl_command_queue queue, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event)
{
    clpad__clear_error();
    clpad_status st = clpad__require_device(ctx, "enqueue_pad");
    if (st)
        return st;
    size_t in_bytes, out_bytes, esize = clpad_dtype_size(dtype);
    if ((st = clpad__pad_check(dtype, rank, shape, pads_begin, pads_end, mode, NULL, &in_bytes,
                               &out_bytes)))
        return st;
    if (num_events && !wait_list)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "enqueue_pad: num_events > 0 but wait_list is NULL");
    if (out_bytes > 0) {
        if ((st = clpad__check_buffer(output, output_offset, out_bytes, esize, "output")) ||
            (in_bytes > 0 && (st = clpad__check_buffer(input, input_offset, in_bytes, esize, "input"))))
            return st;
        if (!input)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "input buffer is NULL");
    }
    pad_call c = {dtype, rank, shape, pads_begin, pads_end, mode, pad_value};
    return enqueue_call(ctx, &c, input, input_offset, output, output_offset,
                        queue ? queue : ctx->queue, num_events, wait_list, event);
}

static clpad_status host_enqueue(clpad_context *ctx, cl_mem in, cl_mem out, cl_command_queue q,
                                 cl_event *event, const void *closure)
{
    return enqueue_call(ctx, closure, in, 0, out, 0, q, 0, NULL, event);
}

clpad_status clpad_pad(clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape,
                       const void *input, const int64_t *pads_begin, const int64_t *pads_end,
                       clpad_pad_mode mode, const void *pad_value, void *output,
                       size_t output_bytes, clpad_run_info *info)
{
    clpad__clear_error();
    if (!ctx)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad: context is NULL");
    size_t in_bytes, out_bytes;
    clpad_status st = clpad__pad_check(dtype, rank, shape, pads_begin, pads_end, mode, NULL,
                                       &in_bytes, &out_bytes);
    if (st)
        return st;
    if (ctx->fallback) {
        uint64_t t0 = clpad__now_ns();
        st = clpad_pad_cpu(dtype, rank, shape, input, pads_begin, pads_end, mode, pad_value,
                           output, output_bytes);
        if (!st && info)
            *info = (clpad_run_info){.total_ns = clpad__now_ns() - t0,
                                     .bytes_moved = in_bytes + out_bytes};
        return st;
    }
    if (output_bytes < out_bytes)
        return clpad__fail(CLPAD_ERR_BUFFER_TOO_SMALL,
                           "pad: output_bytes = %zu, but the output needs %zu bytes", output_bytes,
                           out_bytes);
    if (out_bytes > 0 && (!output || (in_bytes > 0 && !input)))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad: %s is NULL",
                           output ? "input" : "output");
    pad_call c = {dtype, rank, shape, pads_begin, pads_end, mode, pad_value};
    return clpad__run_host(ctx, input, in_bytes, output, out_bytes, in_bytes + out_bytes,
                           host_enqueue, &c, info);
}
