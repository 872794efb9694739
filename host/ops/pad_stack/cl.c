/* Pad-and-stack on OpenCL (kernels/pad_stack.cl): the enqueue path and the
 * host-pointer path (the tensors gathered into one buffer, one launch). */
#include "device/launch.h"
#include "ops/pad_stack/pad_stack.h"
#include "device/staging.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clpad__ps_options(size_t unit_bytes, char *options, size_t size)
{
    snprintf(options, size, "-DCLPAD_UNIT_BYTES=%zu", unit_bytes);
}

enum { PS_DESC = 16 }; /* longs per tensor (kernels/pad_stack.cl) */

/* Launch the kernel for a validated plan; tensor i at byte base + offsets[i]
 * of `input`. */
static clpad_status enqueue_plan(clpad_context *ctx, const ps_plan *p, const int64_t *shapes,
                                 const void *pad_value, cl_mem input, size_t base,
                                 const size_t *offsets,
                                 cl_mem output, size_t output_offset, cl_command_queue queue,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (p->out_bytes == 0)
        return clpad__enqueue_marker(queue, num_events, wait_list, event);
    size_t es = p->esize;
    cl_long *desc = calloc(p->n * PS_DESC, sizeof *desc);
    if (!desc)
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "pad_stack: out of host memory");
    for (size_t i = 0; i < p->n; i++) {
        const int64_t *D = shapes + i * (size_t)p->rank;
        int64_t b[CLPAD_MAX_RANK], e[CLPAD_MAX_RANK];
        clpad__ps_pads(p, D, b, e);
        cl_long *t = desc + i * PS_DESC;
        t[0] = (cl_long)((base + offsets[i]) / es);
        for (int k = 0; k < p->rank; k++) {
            t[1 + k] = D[k];
            t[8 + k] = b[k];
        }
    }
    cl_int err;
    cl_mem bdesc = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  p->n * PS_DESC * sizeof *desc, desc, &err);
    free(desc);
    if (!bdesc)
        return clpad__fail_cl(err, "clCreateBuffer(pad_stack descriptors)");
    cl_long8 S = {{1, 1, 1, 1, 1, 1, 1, 1}};
    cl_long row_len = p->rank > 0 ? p->S[p->rank - 1] : 1, rows_per_tensor = 1;
    for (int k = 0; k < p->rank; k++) {
        S.s[k] = p->S[k];
        if (k < p->rank - 1)
            rows_per_tensor *= p->S[k];
    }
    cl_long n_rows = rows_per_tensor * (cl_long)p->n;
    cl_int rank = p->rank, mode = (cl_int)p->mode;
    cl_ulong dst_off = output_offset / es;
    /* constant mode's value of each side (the bits of one element) */
    cl_ulong8 vb = {{0}}, va = {{0}};
    for (int k = 0; k < p->rank && p->mode == CLPAD_PAD_CONSTANT; k++)
        for (size_t j = 0; j < es; j++) {
            const unsigned char *b = p->per_side ? p->sides[k][0] : pad_value;
            const unsigned char *a = p->per_side ? p->sides[k][1] : pad_value;
            vb.s[k] |= b ? (cl_ulong)b[j] << (8 * j) : 0;
            va.s[k] |= a ? (cl_ulong)a[j] << (8 * j) : 0;
        }
    char options[CLPAD_OPTIONS_MAX];
    clpad__ps_options(es, options, sizeof options);
    clpad_kernel_call kc;
    clpad_status st = clpad__kernel_begin(ctx, "pad_stack", options, "pad_stack", bdesc, &kc);
    if (st)
        return st;
    size_t vec = CLPAD_GEOMETRY_VECTOR_BYTES / es;
    clpad_row_geometry g;
    clpad__row_geometry(ctx, kc.k, ((size_t)row_len + vec - 1) / vec, (size_t)n_rows, false, &g);
    clpad__arg_mem(&kc, "src", input);
    clpad__arg_mem(&kc, "desc", bdesc);
    clpad__arg_mem(&kc, "dst", output);
    CLPAD_ARGS(&kc, CLPAD_ARG(dst_off), CLPAD_ARG(S), CLPAD_ARG(rank), CLPAD_ARG(mode),
               CLPAD_ARG(vb), CLPAD_ARG(va), CLPAD_ARG(row_len), CLPAD_ARG(rows_per_tensor));
    clpad__arg_rows(&kc, n_rows, &g);
    return clpad__kernel_launch(&kc, queue, &g, num_events, wait_list, event); /* releases bdesc */
}

static clpad_status enqueue_call(clpad_context *ctx, clpad_dtype dtype, int rank, size_t n,
                                 const int64_t *shapes, cl_mem input,
                                 const size_t *input_offsets, const int64_t *shape,
                                 clpad_pad_mode mode, const clpad_pad_options *options,
                                 const void *pad_value, clpad_placement placement, cl_mem output,
                                 size_t output_offset, cl_command_queue queue,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    clpad_status st = clpad__enqueue_enter(ctx, "enqueue_pad_stack");
    if (st)
        return st;
    ps_plan p;
    if ((st = clpad__ps_validate(dtype, rank, n, shapes, shape, mode, options, placement, &p,
                                 NULL)))
        return st;
    if (num_events && !wait_list)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "enqueue_pad_stack: num_events = %u but wait_list is NULL",
                           (unsigned)num_events);
    if (p.out_bytes == 0)
        return enqueue_plan(ctx, &p, shapes, pad_value, input, 0, input_offsets, output,
                            output_offset, queue ? queue : ctx->queue, num_events, wait_list,
                            event);
    if ((st = clpad__check_buffer(output, output_offset, p.out_bytes, p.esize, "output")))
        return st;
    if (n > 0 && !input_offsets)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "enqueue_pad_stack: input_offsets is NULL");
    size_t size;
    if ((st = clpad__buffer_size(input, "input", &size)))
        return st;
    for (size_t i = 0; i < n; i++) {
        size_t bytes;
        clpad__count(rank, shapes + i * (size_t)rank, p.esize, NULL, &bytes);
        if (input_offsets[i] % p.esize)
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "tensors", (int64_t)i,
                               "tensors[%zu]: offset %zu is not a multiple of the element size "
                               "%zu",
                               i, input_offsets[i], p.esize);
        if (bytes > 0 && (input_offsets[i] > size || size - input_offsets[i] < bytes))
            return clpad__fail_at(CLPAD_ERR_BUFFER_TOO_SMALL, "tensors", (int64_t)i,
                               "tensors[%zu]: offset %zu + %zu bytes lies outside the input "
                               "buffer of %zu bytes",
                               i, input_offsets[i], bytes, size);
    }
    return enqueue_plan(ctx, &p, shapes, pad_value, input, 0, input_offsets, output, output_offset,
                        queue ? queue : ctx->queue, num_events, wait_list, event);
}

clpad_status clpad_enqueue_pad_stack(clpad_context *ctx, clpad_dtype dtype, int rank, size_t n,
                                     const int64_t *shapes, cl_mem input,
                                     const size_t *input_offsets, const int64_t *shape,
                                     const clpad_pad_options *options, const void *pad_value,
                                     clpad_placement placement, cl_mem output,
                                     size_t output_offset, cl_command_queue queue,
                                     cl_uint num_events, const cl_event *wait_list,
                                     cl_event *event)
{
    if (!options) {
        clpad_status st = clpad__enqueue_enter(ctx, "enqueue_pad_stack");
        return st ? st : clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_stack: options is NULL");
    }
    return enqueue_call(ctx, dtype, rank, n, shapes, input, input_offsets, shape,
                        CLPAD_PAD_CONSTANT, options, pad_value, placement, output,
                        output_offset, queue, num_events, wait_list, event);
}

/* ---- Host pointers ------------------------------------------------------------------ */

typedef struct ps_host_call {
    const ps_plan *p;
    const int64_t *shapes;
    const void *pad_value;
    const size_t *offsets; /* n, from the start of the gathered buffer */
} ps_host_call;

/* The gathered tensors start at byte in_off of `in` (the host-pointer path
 * wraps host memory from an aligned address below it). */
static clpad_status host_enqueue(clpad_context *ctx, cl_mem in, size_t in_off, cl_mem out,
                                 size_t out_off, cl_command_queue q, cl_event *event,
                                 const void *closure)
{
    const ps_host_call *c = closure;
    return enqueue_plan(ctx, c->p, c->shapes, c->pad_value, in, in_off, c->offsets, out, out_off,
                        q, 0, NULL, event);
}

static clpad_status host_call(clpad_context *ctx, clpad_dtype dtype, int rank, size_t n,
                              const int64_t *shapes, const void *const *inputs,
                              const int64_t *shape, clpad_pad_mode mode,
                              const clpad_pad_options *options, const void *pad_value,
                              clpad_placement placement, void *output, size_t output_bytes,
                              clpad_run_info *info)
{
    ps_plan p;
    size_t in_bytes = 0;
    clpad_status st = clpad__host_enter(ctx, info, "pad_stack");
    if (st ||
        (st = clpad__ps_validate(dtype, rank, n, shapes, shape, mode, options, placement, &p,
                                 &in_bytes)) ||
        (st = clpad__ps_check_host(&p, shapes, inputs, output, output_bytes)))
        return st;
    uint64_t moved = (uint64_t)in_bytes + p.out_bytes;
    if (clpad__host_call_on_cpu(ctx, moved)) {
        uint64_t t0 = clpad__now_ns();
        st = clpad__ps_cpu(dtype, rank, n, shapes, inputs, shape, mode, options, pad_value,
                           placement, output, output_bytes);
        if (!st)
            clpad__run_info_put(info, (clpad_run_info){.total_ns = clpad__now_ns() - t0,
                                                       .bytes_moved = moved});
        return st;
    }
    uint64_t t0 = clpad__now_ns();
    if (p.out_bytes == 0) { /* nothing to write: no launch */
        clpad__run_info_put(info, (clpad_run_info){.used_opencl = 1,
                                                   .total_ns = clpad__now_ns() - t0});
        return CLPAD_OK;
    }
    size_t *bytes = malloc((n ? n : 1) * sizeof *bytes);
    size_t *offsets = malloc((n ? n : 1) * sizeof *offsets);
    if (!bytes || !offsets) {
        free(bytes);
        free(offsets);
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "pad_stack: out of host memory to gather "
                                                    "the tensors");
    }
    /* One launch for the batch when its inputs, output and descriptors each
     * fit in one device buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE); else the
     * tensors in order, as many per launch as fit (docs/letterbox.md,
     * "Pad-and-stack"). A tensor that does not fit alone is refused. */
    const uint64_t limit = ctx->max_alloc, desc = PS_DESC * sizeof(cl_long);
    for (size_t i = 0; i < n; i++) {
        clpad__count(rank, shapes + i * (size_t)rank, p.esize, NULL, &bytes[i]);
        const char *what = bytes[i] > limit       ? "its input"
                           : p.slice_bytes > limit ? "its output slice"
                                                   : NULL;
        if (what) {
            uint64_t need = bytes[i] > limit ? bytes[i] : p.slice_bytes;
            free(bytes);
            free(offsets);
            return clpad__fail_item_too_large(ctx, "tensors", i, need, what, "pad");
        }
    }
    clpad_run_info acc = {.used_opencl = 1, .zero_copy = 1, .bytes_moved = moved};
    for (size_t i0 = 0; i0 < n && !st;) {
        /* as many tensors from i0 on as fit */
        uint64_t in = 0, out = 0, tab = 0;
        size_t k = 0;
        while (i0 + k < n && in + bytes[i0 + k] <= limit && out + p.slice_bytes <= limit &&
               tab + desc <= limit) {
            in += bytes[i0 + k];
            out += p.slice_bytes;
            tab += desc;
            k++;
        }
        /* one buffer for the launch's tensors */
        unsigned char *buf = clpad__staging_get(in);
        if (!buf) {
            st = clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "pad_stack: out of host memory to gather "
                                                      "the tensors");
            break;
        }
        size_t at = 0;
        for (size_t i = 0; i < k; i++) {
            offsets[i] = at;
            if (bytes[i0 + i])
                memcpy(buf + at, inputs[i0 + i], bytes[i0 + i]);
            at += bytes[i0 + i];
        }
        ps_plan s = p;
        s.n = k;
        s.out_shape[0] = (int64_t)k;
        s.out_bytes = k * p.slice_bytes;
        ps_host_call c = {&s, shapes + i0 * (size_t)rank, pad_value, offsets};
        clpad_run_info ri;
        st = clpad__run_host(ctx, buf, (size_t)in, (unsigned char *)output + i0 * p.slice_bytes,
                             s.out_bytes, moved, host_enqueue, &c, &ri);
        clpad__staging_put(buf);
        if (!st) {
            acc.kernel_ns += ri.kernel_ns;
            acc.zero_copy &= ri.zero_copy;
        }
        i0 += k;
    }
    free(bytes);
    free(offsets);
    acc.total_ns = clpad__now_ns() - t0;
    if (!st)
        clpad__run_info_put(info, acc);
    return st;
}

clpad_status clpad_pad_stack(clpad_context *ctx, clpad_dtype dtype, int rank, size_t n,
                             const int64_t *shapes, const void *const *inputs,
                             const int64_t *shape, const clpad_pad_options *options,
                             const void *pad_value, clpad_placement placement, void *output,
                             size_t output_bytes, clpad_run_info *info)
{
    if (!options) {
        clpad_status st = clpad__host_enter(ctx, info, "pad_stack");
        return st ? st : clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_stack: options is NULL");
    }
    return host_call(ctx, dtype, rank, n, shapes, inputs, shape, CLPAD_PAD_CONSTANT, options,
                     pad_value, placement, output, output_bytes, info);
}
