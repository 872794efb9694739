/* Pad on OpenCL (docs/spec.md, "Pad"): the enqueue and host-pointer paths. */
#include "device/launch.h"
#include "ops/pad/pad.h"
#include "ops/pad_numpy/pad_numpy.h" /* (its inline program options) */

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
    CLPAD_ARGS(&kc, CLPAD_ARG(o_dims), CLPAD_ARG(i_dims), CLPAD_ARG(o_pb), CLPAD_ARG(i_strides),
               CLPAD_ARG(n_outer), CLPAD_ARG(row_out), CLPAD_ARG(row_in), CLPAD_ARG(row_pb),
               CLPAD_ARG(K));
    clpad__arg_rows(&kc, n_rows, &g);
    cl_long rows_per_item = g.rows_per_item;
    CLPAD_ARGS(&kc, CLPAD_ARG(rows_per_item), CLPAD_ARG(nt_min), CLPAD_ARG(o_modes));
    return clpad__kernel_launch(&kc, queue, &g, num_events, wait_list, event);
}

clpad_status clpad__pad_enqueue(clpad_context *ctx, const clpad_pad_call *c, cl_mem input,
                                size_t input_offset, cl_mem output, size_t output_offset,
                                cl_command_queue queue, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event)
{
    clpad_pad_plan plan;
    clpad__pad_plan(c->rank, c->shape, c->pads_begin, c->pads_end, c->rules, c->esize, true,
                    &plan);
    clpad_status st = plan.out_elems > 0 ? clpad__pad_plan_check(&plan) : CLPAD_OK;
    if (st)
        return st;
    bool sides = c->per_side && plan.out_elems > 0;
    st = enqueue_plan(ctx, &plan, c->value, c->esize, input, input_offset, output, output_offset,
                      queue, num_events, wait_list, sides ? NULL : event);
    if (!st && sides) /* per-side constants over the padding (in-order queue) */
        st = clpad__pad_sides_enqueue(ctx, c, output, output_offset, queue, event);
    return st;
}

/* ulong bits of a value of esize bytes (little-endian: its low bytes). */
static cl_ulong side_bits(const unsigned char *v, size_t esize)
{
    cl_ulong x = 0;
    for (size_t i = 0; i < esize; i++)
        x |= (cl_ulong)v[i] << (8 * i);
    return x;
}

clpad_status clpad__pad_sides_enqueue(clpad_context *ctx, const clpad_pad_call *c, cl_mem out,
                                      size_t out_off, cl_command_queue q, cl_event *event)
{
    static const clpad_dtype by_size[9] = {CLPAD_U8, CLPAD_U8, CLPAD_U16, CLPAD_U8, CLPAD_U32,
                                           CLPAD_U8, CLPAD_U8, CLPAD_U8, CLPAD_U64};
    int r = c->rank, last = r - 1;
    /* the output's extents from the pads (a piece of a larger output, as
     * clpad_pad splits one, shifts its pads but keeps c->out_shape) */
    int64_t O[CLPAD_MAX_RANK];
    for (int a = 0; a < r; a++)
        O[a] = c->pads_begin[a] + c->shape[a] + c->pads_end[a];
    cl_long8 o_dims = {{0}}, o_pb = {{0}}, i_dims = {{0}};
    cl_ulong8 vb = {{0}}, va = {{0}};
    cl_long n_rows = 1;
    cl_int n_outer = 0;
    for (int a = last - 1; a >= 0; a--, n_outer++) {
        o_dims.s[n_outer] = O[a];
        o_pb.s[n_outer] = c->pads_begin[a];
        i_dims.s[n_outer] = c->shape[a];
        vb.s[n_outer] = side_bits(c->sides[a][0], c->esize);
        va.s[n_outer] = side_bits(c->sides[a][1], c->esize);
        n_rows *= O[a];
    }
    cl_long OL = O[last], lo = c->pads_begin[last], hi;
    lo = lo < 0 ? 0 : lo > OL ? OL : lo;
    hi = c->pads_begin[last] + c->shape[last];
    hi = hi < lo ? lo : hi > OL ? OL : hi;
    cl_ulong vlb = side_bits(c->sides[last][0], c->esize),
             vla = side_bits(c->sides[last][1], c->esize), dst_off = out_off / c->esize;
    char options[CLPAD_OPTIONS_MAX];
    clpad__np_options(by_size[c->esize], options, sizeof options);
    clpad_kernel_call kc;
    clpad_status st = clpad__kernel_begin(ctx, "pad_numpy", options, "sides", NULL, &kc);
    if (st)
        return st;
    clpad__arg_mem(&kc, "dst", out);
    CLPAD_ARGS(&kc, CLPAD_ARG(dst_off), CLPAD_ARG(n_rows), CLPAD_ARG(n_outer), CLPAD_ARG(o_dims),
               CLPAD_ARG(o_pb), CLPAD_ARG(i_dims), CLPAD_ARG(OL), CLPAD_ARG(lo), CLPAD_ARG(hi),
               CLPAD_ARG(vb), CLPAD_ARG(va), CLPAD_ARG(vlb), CLPAD_ARG(vla));
    size_t local = 64;
    clpad_row_geometry geo = {.global = {1, ((size_t)n_rows + local - 1) / local * local},
                              .local = {1, local},
                              .items = 1,
                              .rows_per_item = 1};
    return clpad__kernel_launch(&kc, q, &geo, 0, NULL, event);
}

clpad_status clpad_enqueue_pad(clpad_context *ctx, clpad_dtype dtype, int rank,
                               const int64_t *shape, cl_mem input, size_t input_offset,
                               const int64_t *pads_begin, const int64_t *pads_end,
                               const clpad_pad_options *options, const void *pad_value,
                               cl_mem output, size_t output_offset, cl_command_queue queue,
                               cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    clpad_status st = clpad__enqueue_enter(ctx, "enqueue_pad");
    if (st)
        return st;
    clpad_pad_call c;
    if ((st = clpad__pad_validate(dtype, rank, shape, pads_begin, pads_end, options, pad_value,
                                  &c)))
        return st;
    if ((st = clpad__check_enqueue("enqueue_pad", num_events, wait_list, input, input_offset,
                                   c.in_bytes, output, output_offset, c.out_bytes, c.esize)))
        return st;
    return clpad__pad_enqueue(ctx, &c, input, input_offset, output, output_offset,
                              queue ? queue : ctx->queue, num_events, wait_list, event);
}

clpad_status clpad__pad_host_enqueue(clpad_context *ctx, cl_mem in, size_t in_off, cl_mem out,
                                     size_t out_off, cl_command_queue q, cl_event *event,
                                     const void *closure)
{
    return clpad__pad_enqueue(ctx, closure, in, in_off, out, out_off, q, 0, NULL, event);
}

/* Pad host memory in pieces whose outputs each fit in one device buffer of
 * `limit` bytes: the output is split along `axis` (the axes before it fixed
 * at one index each, through c's pads), and each piece is a Pad of the whole
 * input whose pads on that axis are shifted so that its output is exactly
 * those indices (the coordinate rule depends only on o - pads_begin, so the
 * piece is the same data, and its pads stay within the mode's limits). An
 * axis whose single index is still too large is split one index at a time,
 * and the next axis in pieces. The pieces' run info accumulates in acc. */
static clpad_status pad_in_pieces(clpad_context *ctx, clpad_pad_call *c, int axis,
                                  const void *in, unsigned char *out, size_t limit,
                                  clpad_run_info *acc)
{
    size_t block = c->esize; /* output bytes of one index of `axis` */
    for (int a = axis + 1; a < c->rank; a++)
        block *= (size_t)c->out_shape[a];
    int64_t O = c->out_shape[axis], b0 = c->pads_begin[axis], e0 = c->pads_end[axis];
    int64_t per = block > limit ? 1 : (int64_t)(limit / block);
    clpad_status st = CLPAD_OK;
    for (int64_t o = 0; o < O && !st; o += per) {
        int64_t n = per < O - o ? per : O - o;
        c->pads_begin[axis] = b0 - o;           /* the piece's first output index is o */
        c->pads_end[axis] = e0 - (O - o - n); /* and its last o + n - 1 */
        if (block > limit) {
            st = pad_in_pieces(ctx, c, axis + 1, in, out + (size_t)o * block, limit, acc);
        } else {
            clpad_run_info ri;
            size_t bytes = (size_t)n * block;
            st = clpad__run_host(ctx, in, c->in_bytes, out + (size_t)o * block, bytes,
                                 c->in_bytes + bytes, clpad__pad_host_enqueue, c, &ri);
            acc->kernel_ns += ri.kernel_ns;
            acc->zero_copy &= ri.zero_copy;
        }
    }
    c->pads_begin[axis] = b0;
    c->pads_end[axis] = e0;
    return st;
}

clpad_status clpad_pad(clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape,
                       const void *input, const int64_t *pads_begin, const int64_t *pads_end,
                       const clpad_pad_options *options, const void *pad_value, void *output,
                       size_t output_bytes, clpad_run_info *info)
{
    uint64_t t0 = clpad__now_ns();
    clpad_pad_call c;
    clpad_status st = clpad__host_enter(ctx, info, "pad");
    if (st)
        return st;
    st = clpad__pad_validate(dtype, rank, shape, pads_begin, pads_end, options, pad_value, &c);
    if (st || (st = clpad__check_host_buffers("pad", input, c.in_bytes, output, c.out_bytes,
                                              output_bytes)))
        return st;
    size_t in_bytes = c.in_bytes, out_bytes = c.out_bytes;
    if (clpad__host_call_on_cpu(ctx, (uint64_t)in_bytes + out_bytes)) {
        if (out_bytes > 0)
            clpad__pad_cpu_threads(&c, input, output);
        clpad__run_info_put(info, (clpad_run_info){.total_ns = clpad__now_ns() - t0,
                                                   .bytes_moved = in_bytes + out_bytes});
        return CLPAD_OK;
    }
    if (in_bytes > ctx->max_alloc)
        return clpad__fail(CLPAD_ERR_DEVICE_OUT_OF_RESOURCES,
                           "pad: the input (%zu bytes) is larger than the largest buffer %s can "
                           "allocate (CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes); pad it on the "
                           "CPU path (clpad_pad_cpu, or `clpad pad --cpu`)",
                           in_bytes, ctx->device_name, (unsigned long long)ctx->max_alloc);
    clpad_run_info acc = {.used_opencl = 1, .zero_copy = 1};
    if (out_bytes <= ctx->max_alloc) {
        st = clpad__run_host(ctx, input, in_bytes, output, out_bytes, in_bytes + out_bytes,
                             clpad__pad_host_enqueue, &c, &acc);
    } else { /* an output larger than one device buffer: in pieces that fit */
        st = pad_in_pieces(ctx, &c, 0, input, output, (size_t)ctx->max_alloc, &acc);
        acc.total_ns = clpad__now_ns() - t0;
        acc.bytes_moved = in_bytes + out_bytes;
    }
    if (!st)
        clpad__run_info_put(info, acc);
    return st;
}
