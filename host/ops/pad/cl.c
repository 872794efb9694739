/* Pad on OpenCL (docs/spec.md, "Pad"): the enqueue and host-pointer paths. */
#include "device/launch.h"
#include "ops/pad/pad.h"

#include "coords.h"

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

void clpad__pad_options(int row_rule, bool outer_modes, size_t unit_bytes, char *options,
                        size_t size)
{
    static const char *const names[CLPAD_COORD_RULE_COUNT] = {
        "CONSTANT", "EDGE", "REFLECT", "SYMMETRIC", "WRAP", "REFLECT_NUMPY", "SYMMETRIC_NUMPY"};
    snprintf(options, size, "-DCLPAD_PAD_%s%s -DCLPAD_UNIT_BYTES=%zu", names[row_rule],
             outer_modes ? " -DCLPAD_PAD_OUTER_MODES" : "", unit_bytes);
}

/* Launch the pad kernel of a validated plan (kernels/pad.cl). */
static clpad_status enqueue_plan(clpad_context *ctx, const clpad_pad_plan *p,
                                 const void *pad_value, size_t esize, cl_mem input,
                                 size_t input_offset, cl_mem output, size_t output_offset,
                                 cl_command_queue queue, cl_uint num_events,
                                 const cl_event *wait_list, cl_event *event)
{
    size_t out_bytes = (size_t)p->out_elems * p->elem_bytes;
    if (out_bytes == 0)
        return clpad__enqueue_marker(queue, num_events, wait_list, event);
    if (p->no_pads) /* every pad is 0: a plain buffer copy */
        return clpad__enqueue_copy(queue, input, input_offset, output, output_offset, out_bytes,
                                   num_events, wait_list, event);
    /* The kernel moves units of eb bytes; K units make one (widened) element. */
    size_t eb = clpad__unit_bytes(p->elem_bytes, input_offset, output_offset);
    cl_long K = (cl_long)(p->elem_bytes / eb);
    unsigned char value[8];
    unit_value(p->any_constant ? pad_value : NULL, esize, eb, value);
    /* Streaming stores for the long interior stretches of a large output. */
    cl_long nt_min = clpad__nt_min(ctx, out_bytes, eb, ctx->policy.nt_stretch_bytes);

    /* The rows: the innermost axis, and up to 7 outer axes, innermost first
     * in the components of the long8 arguments, strides in units. */
    cl_long8 o_dims = {{0}}, i_dims = {{0}}, o_pb = {{0}}, i_strides = {{0}};
    int r = p->rank;
    cl_int n_outer = r - 1;
    cl_long stride = p->in_dims[r - 1] * K;
    /* mixed modes: the outer axes' rules, 4 bits each, innermost first */
    cl_uint o_modes = 0;
    for (int k = 0; k < n_outer; k++) {
        int a = r - 2 - k;
        o_dims.s[k] = p->out_dims[a];
        i_dims.s[k] = p->in_dims[a];
        o_pb.s[k] = p->pads_begin[a];
        i_strides.s[k] = stride;
        stride *= p->in_dims[a];
        o_modes |= (cl_uint)p->rules[a] << (4 * k);
    }
    for (int k = n_outer; k < 8; k++)
        o_dims.s[k] = i_dims.s[k] = 1;
    cl_ulong src_off = input_offset / eb, dst_off = output_offset / eb;
    cl_long row_out = p->out_dims[r - 1], row_in = p->in_dims[r - 1], row_pb = p->pads_begin[r - 1];
    cl_long n_rows = p->out_elems / row_out;
    size_t vec = CLPAD_GEOMETRY_VECTOR_BYTES / eb;
    size_t vectors = ((size_t)(row_out * K) + vec - 1) / vec;

    char options[CLPAD_OPTIONS_MAX];
    clpad__pad_options(p->rules[r - 1], p->uniform < 0, eb, options, sizeof options);
    clpad_kernel_call kc;
    clpad_status st = clpad__kernel_begin(ctx, "pad", options, "pad", NULL, &kc);
    if (st)
        return st;
    clpad_row_geometry g;
    clpad__row_geometry(ctx, kc.k, vectors, (size_t)n_rows, true, &g);
    clpad__arg_src_dst(&kc, input, src_off, output, dst_off);
    clpad__arg(&kc, "value", eb, value);
    clpad__arg(&kc, "o_dims", sizeof o_dims, &o_dims);
    clpad__arg(&kc, "i_dims", sizeof i_dims, &i_dims);
    clpad__arg(&kc, "o_pb", sizeof o_pb, &o_pb);
    clpad__arg(&kc, "i_strides", sizeof i_strides, &i_strides);
    clpad__arg(&kc, "n_outer", sizeof n_outer, &n_outer);
    clpad__arg(&kc, "row_out", sizeof row_out, &row_out);
    clpad__arg(&kc, "row_in", sizeof row_in, &row_in);
    clpad__arg(&kc, "row_pb", sizeof row_pb, &row_pb);
    clpad__arg(&kc, "K", sizeof K, &K);
    clpad__arg_rows(&kc, n_rows, &g);
    clpad__arg(&kc, "rows_per_item", sizeof g.rows_per_item, &g.rows_per_item);
    clpad__arg(&kc, "nt_min", sizeof nt_min, &nt_min);
    clpad__arg(&kc, "o_modes", sizeof o_modes, &o_modes);
    return clpad__kernel_launch(&kc, queue, &g, num_events, wait_list, event);
}

/* Validated arguments of one Pad, for the enqueue and host-pointer paths. */
typedef struct pad_call {
    clpad_dtype dtype;
    int rank;
    const int64_t *shape, *pads_begin, *pads_end;
    const clpad_pad_options *options;
    const void *pad_value;
    int8_t rules[CLPAD_MAX_RANK]; /* from the call's validation (clpad__pad_check); they
                                     stay valid for the pieces, whose pads only shrink */
} pad_call;

static clpad_status enqueue_call(clpad_context *ctx, const pad_call *c, cl_mem input,
                                 size_t input_offset, cl_mem output, size_t output_offset,
                                 cl_command_queue queue, cl_uint num_events,
                                 const cl_event *wait_list, cl_event *event)
{
    clpad_pad_plan plan;
    clpad__pad_plan(c->rank, c->shape, c->pads_begin, c->pads_end, c->rules,
                    clpad_dtype_size(c->dtype), true, &plan);
    clpad_status st = plan.out_elems > 0 ? clpad__pad_plan_check(&plan) : CLPAD_OK;
    if (st)
        return st;
    return enqueue_plan(ctx, &plan, c->pad_value, clpad_dtype_size(c->dtype), input,
                        input_offset, output, output_offset, queue, num_events, wait_list, event);
}

clpad_status clpad_enqueue_pad(clpad_context *ctx, clpad_dtype dtype, int rank,
                               const int64_t *shape, cl_mem input, size_t input_offset,
                               const int64_t *pads_begin, const int64_t *pads_end,
                               clpad_pad_mode mode, const void *pad_value, cl_mem output,
                               size_t output_offset, cl_command_queue queue, cl_uint num_events,
                               const cl_event *wait_list, cl_event *event)
{
    if ((unsigned)mode >= CLPAD_PAD_MODE_COUNT) {
        clpad__clear_error();
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "invalid pad_mode %d", (int)mode);
    }
    clpad_pad_options o;
    clpad_pad_options_init(&o, mode);
    return clpad_enqueue_pad_ex(ctx, dtype, rank, shape, input, input_offset, pads_begin,
                                pads_end, &o, pad_value, output, output_offset, queue,
                                num_events, wait_list, event);
}

clpad_status clpad_enqueue_pad_ex(clpad_context *ctx, clpad_dtype dtype, int rank,
                                  const int64_t *shape, cl_mem input, size_t input_offset,
                                  const int64_t *pads_begin, const int64_t *pads_end,
                                  const clpad_pad_options *options, const void *pad_value,
                                  cl_mem output, size_t output_offset, cl_command_queue queue,
                                  cl_uint num_events, const cl_event *wait_list,
                                  cl_event *event)
{
    clpad_status st = clpad__enqueue_enter(ctx, "enqueue_pad");
    if (st)
        return st;
    size_t in_bytes, out_bytes, esize = clpad_dtype_size(dtype);
    pad_call c = {dtype, rank, shape, pads_begin, pads_end, options, pad_value, {0}};
    if ((st = clpad__pad_check(dtype, rank, shape, pads_begin, pads_end, options, c.rules, NULL,
                               &in_bytes, &out_bytes)))
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
    return enqueue_call(ctx, &c, input, input_offset, output, output_offset,
                        queue ? queue : ctx->queue, num_events, wait_list, event);
}

static clpad_status host_enqueue(clpad_context *ctx, cl_mem in, size_t in_off, cl_mem out,
                                 size_t out_off, cl_command_queue q, cl_event *event,
                                 const void *closure)
{
    return enqueue_call(ctx, closure, in, in_off, out, out_off, q, 0, NULL, event);
}

/* Pad host memory in pieces whose outputs each fit in one device buffer of
 * `limit` bytes: the output is split along `axis` (the axes before it fixed
 * at one index each, through c's pads), and each piece is a Pad of the whole
 * input whose pads on that axis are shifted so that its output is exactly
 * those indices (the coordinate rule depends only on o - pads_begin, so the
 * piece is the same data, and its pads stay within the mode's limits). An
 * axis whose single index is still too large is split one index at a time,
 * and the next axis in pieces. The pieces' run info accumulates in acc. */
static clpad_status pad_in_pieces(clpad_context *ctx, pad_call *c, const int64_t *out_shape,
                                  int axis, const void *in, size_t in_bytes, unsigned char *out,
                                  size_t limit, clpad_run_info *acc)
{
    int64_t *pb = (int64_t *)c->pads_begin, *pe = (int64_t *)c->pads_end;
    size_t block = clpad_dtype_size(c->dtype); /* output bytes of one index of `axis` */
    for (int a = axis + 1; a < c->rank; a++)
        block *= (size_t)out_shape[a];
    int64_t O = out_shape[axis], b0 = pb[axis], e0 = pe[axis];
    int64_t per = block > limit ? 1 : (int64_t)(limit / block);
    clpad_status st = CLPAD_OK;
    for (int64_t o = 0; o < O && !st; o += per) {
        int64_t n = per < O - o ? per : O - o;
        pb[axis] = b0 - o;           /* the piece's first output index is o */
        pe[axis] = e0 - (O - o - n); /* and its last o + n - 1 */
        if (block > limit) {
            st = pad_in_pieces(ctx, c, out_shape, axis + 1, in, in_bytes, out + (size_t)o * block,
                               limit, acc);
        } else {
            clpad_run_info ri;
            size_t bytes = (size_t)n * block;
            st = clpad__run_host(ctx, in, in_bytes, out + (size_t)o * block, bytes, in_bytes + bytes,
                                 host_enqueue, c, &ri);
            acc->kernel_ns += ri.kernel_ns;
            acc->zero_copy &= ri.zero_copy;
        }
    }
    pb[axis] = b0;
    pe[axis] = e0;
    return st;
}

clpad_status clpad_pad(clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape,
                       const void *input, const int64_t *pads_begin, const int64_t *pads_end,
                       clpad_pad_mode mode, const void *pad_value, void *output,
                       size_t output_bytes, clpad_run_info *info)
{
    if ((unsigned)mode >= CLPAD_PAD_MODE_COUNT) {
        clpad__clear_error();
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "invalid pad_mode %d", (int)mode);
    }
    clpad_pad_options o;
    clpad_pad_options_init(&o, mode);
    return clpad_pad_ex(ctx, dtype, rank, shape, input, pads_begin, pads_end, &o, pad_value,
                        output, output_bytes, info);
}

clpad_status clpad_pad_ex(clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape,
                          const void *input, const int64_t *pads_begin, const int64_t *pads_end,
                          const clpad_pad_options *options, const void *pad_value, void *output,
                          size_t output_bytes, clpad_run_info *info)
{
    clpad__clear_error();
    if (!ctx)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad: context is NULL");
    size_t in_bytes, out_bytes;
    pad_call c = {dtype, rank, shape, pads_begin, pads_end, options, pad_value, {0}};
    clpad_status st = clpad__pad_check(dtype, rank, shape, pads_begin, pads_end, options,
                                       c.rules, NULL, &in_bytes, &out_bytes);
    if (st)
        return st;
    if (clpad__host_call_on_cpu(ctx, (uint64_t)in_bytes + out_bytes)) {
        uint64_t t0 = clpad__now_ns();
        st = clpad__pad_cpu_threads(dtype, rank, shape, input, pads_begin, pads_end, options,
                                    pad_value, output, output_bytes);
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
    if (in_bytes > ctx->max_alloc)
        return clpad__fail(CLPAD_ERR_DEVICE_OUT_OF_RESOURCES,
                           "pad: the input (%zu bytes) is larger than the largest buffer %s can "
                           "allocate (CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes); pad it on the "
                           "CPU path (clpad_pad_cpu, or `clpad pad --cpu`)",
                           in_bytes, ctx->device_name, (unsigned long long)ctx->max_alloc);
    if (out_bytes <= ctx->max_alloc)
        return clpad__run_host(ctx, input, in_bytes, output, out_bytes, in_bytes + out_bytes,
                               host_enqueue, &c, info);
    /* An output larger than one device buffer: in pieces that fit. */
    uint64_t t0 = clpad__now_ns();
    int64_t out_shape[CLPAD_MAX_RANK], pb[CLPAD_MAX_RANK], pe[CLPAD_MAX_RANK];
    clpad__pad_check(dtype, rank, shape, pads_begin, pads_end, options, NULL, out_shape, NULL,
                     NULL);
    memcpy(pb, pads_begin, (size_t)rank * sizeof *pb);
    memcpy(pe, pads_end, (size_t)rank * sizeof *pe);
    c.pads_begin = pb;
    c.pads_end = pe;
    clpad_run_info acc = {.used_opencl = 1, .zero_copy = 1};
    st = pad_in_pieces(ctx, &c, out_shape, 0, input, in_bytes, output, (size_t)ctx->max_alloc,
                       &acc);
    if (!st && info) {
        acc.total_ns = clpad__now_ns() - t0;
        acc.bytes_moved = in_bytes + out_bytes;
        *info = acc;
    }
    return st;
}
