/* numpy.pad's statistic modes on OpenCL (kernels/pad_numpy.cl): the
 * public entry point and the device run. */
#include "device/launch.h"
#include "ops/pad/pad.h"
#include "ops/pad_numpy/pad_numpy.h"

#include <stdio.h>
#include <string.h>

/* Whether the device computes in double (cl_khr_fp64). */
static bool has_doubles(const clpad_context *ctx)
{
    cl_device_fp_config cfg = 0;
    return clGetDeviceInfo(ctx->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof cfg, &cfg, NULL) ==
               CL_SUCCESS &&
           cfg != 0;
}

/* The arguments of one axis' launches (kernels/pad_numpy.cl): fill takes
 * them all, ramp_zero all but the statistic's (Lb, Le, pw, mode). */
typedef struct np_axis_args {
    cl_ulong dst_off;
    cl_long n_rows, outer_stride, sa, pb, n, N, Lb, Le, cols;
    cl_int n_inner, pw, mode, rf32;
    cl_long8 i_dims, i_offs, i_strides;
    cl_ulong sb_bits, se_bits;
    cl_float sbf, sef;
} np_axis_args;

/* Launch `kernel` ("ramp_zero", "fill" or "fill_cols", which takes cols
 * too) of the program `options` over one axis' rows. */
static clpad_status np_launch(clpad_context *ctx, const char *options, const char *kernel,
                              const np_axis_args *a, cl_mem out, cl_mem zero, cl_command_queue q,
                              const clpad_row_geometry *geo, cl_event *event)
{
    clpad_kernel_call kc;
    clpad_status st = clpad__kernel_begin(ctx, "pad_numpy", options, kernel, NULL, &kc);
    if (st)
        return st;
    clpad__arg_mem(&kc, "dst", out);
    /* (ramp_zero takes fill's arguments) */
    CLPAD_ARGS(&kc, CLPAD_ARG_OF(a, dst_off), CLPAD_ARG_OF(a, n_rows),
               CLPAD_ARG_OF(a, outer_stride), CLPAD_ARG_OF(a, n_inner), CLPAD_ARG_OF(a, i_dims),
               CLPAD_ARG_OF(a, i_offs), CLPAD_ARG_OF(a, i_strides), CLPAD_ARG_OF(a, sa),
               CLPAD_ARG_OF(a, pb), CLPAD_ARG_OF(a, n), CLPAD_ARG_OF(a, N), CLPAD_ARG_OF(a, Lb),
               CLPAD_ARG_OF(a, Le), CLPAD_ARG_OF(a, pw), CLPAD_ARG_OF(a, mode));
    clpad__arg_mem(&kc, "zero", zero);
    CLPAD_ARGS(&kc, CLPAD_ARG_OF(a, sb_bits), CLPAD_ARG_OF(a, se_bits), CLPAD_ARG_OF(a, sbf),
               CLPAD_ARG_OF(a, sef), CLPAD_ARG_OF(a, rf32));
    if (!strcmp(kernel, "fill_cols"))
        clpad__arg(&kc, "cols", sizeof a->cols, &a->cols);
    return clpad__kernel_launch(&kc, q, geo, 0, NULL, event);
}

/* One axis' launches, the flags of linear_ramp's pre-pass (*zero) created
 * here. */
static clpad_status launch_axis(clpad_context *ctx, const clpad_np_call *c, int ax, cl_mem out,
                                size_t out_off, cl_command_queue q, cl_event *event, cl_mem *zero)
{
    int rank = c->rank;
    int64_t stride[CLPAD_MAX_RANK + 1]; /* stride[a + 1]: elements of a step of axis a */
    stride[rank] = 1;
    for (int a = rank - 1; a >= 0; a--)
        stride[a] = stride[a + 1] * c->out_shape[a];
    np_axis_args a = {.n_rows = 1};
    for (int d = rank - 1; d > ax; d--, a.n_inner++) {
        a.i_dims.s[a.n_inner] = c->shape[d];
        a.i_offs.s[a.n_inner] = c->pads_begin[d];
        a.i_strides.s[a.n_inner] = stride[d + 1];
        a.n_rows *= c->shape[d];
    }
    for (int d = 0; d < ax; d++)
        a.n_rows *= c->out_shape[d];
    if (a.n_rows == 0)
        return CLPAD_OK;
    /* an axis' outer index steps over the whole axis: stride[ax] elements */
    a.outer_stride = stride[ax];
    a.sa = stride[ax + 1];
    a.pb = c->pads_begin[ax];
    a.n = c->shape[ax];
    a.N = c->out_shape[ax];
    a.Lb = c->stat_begin[ax];
    a.Le = c->stat_end[ax];
    a.dst_off = out_off / c->esize;
    a.pw = clpad__np_pairwise(c, ax);
    a.mode = (cl_int)c->mode;
    a.rf32 = c->ramp_f32;
    double sb = c->ramp_begin[ax], se = c->ramp_end[ax];
    memcpy(&a.sb_bits, &sb, 8);
    memcpy(&a.se_bits, &se, 8);
    a.sbf = (float)sb;
    a.sef = (float)se;
    char options[CLPAD_OPTIONS_MAX];
    clpad__np_options(c->dtype, options, sizeof options);
    size_t local = 64;
    clpad_row_geometry geo = {.global = {1, ((size_t)a.n_rows + local - 1) / local * local},
                              .local = {1, local},
                              .items = 1,
                              .rows_per_item = 1};
    /* maximum, minimum and an in-order mean along an axis with later axes:
     * a work-item per run of `cols` rows at consecutive addresses, the slab
     * walked a contiguous run at a time (kernels/pad_numpy.cl, fill_cols).
     * The CPU geometry takes 16 (a cache line of f32); the GPU geometry 1,
     * where consecutive work-items reading consecutive addresses is what
     * coalesces ($CLPAD_GEOMETRY picks either, for the tests). */
    if (a.n_inner > 0 && !a.pw &&
        (c->mode == CLPAD_NUMPY_MAXIMUM || c->mode == CLPAD_NUMPY_MINIMUM ||
         c->mode == CLPAD_NUMPY_MEAN)) {
        cl_long n0 = a.i_dims.s[0];
        a.cols = clpad__cpu_geometry(ctx) ? 16 : 1; /* (NP_COLS_MAX) */
        size_t blocks = (size_t)(a.n_rows / n0) * (size_t)((n0 + a.cols - 1) / a.cols);
        geo.global[1] = (blocks + local - 1) / local * local;
        return np_launch(ctx, options, "fill_cols", &a, out, NULL, q, &geo, event);
    }
    if (c->mode == CLPAD_NUMPY_LINEAR_RAMP) {
        cl_int err, nothing = 0;
        *zero = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, 2 * sizeof(cl_int), NULL, &err);
        if (!*zero)
            return clpad__fail_cl(err, "clCreateBuffer (pad_numpy's ramp flags)");
        err = clEnqueueFillBuffer(q, *zero, &nothing, sizeof nothing, 0, 2 * sizeof(cl_int), 0,
                                  NULL, NULL);
        if (err != CL_SUCCESS)
            return clpad__fail_cl(err, "clEnqueueFillBuffer (pad_numpy's ramp flags)");
        clpad_status st = np_launch(ctx, options, "ramp_zero", &a, out, *zero, q, &geo, NULL);
        if (st)
            return st;
    }
    return np_launch(ctx, options, "fill", &a, out, *zero, q, &geo, event);
}

/* One axis' launches (the axis has pads and rows): for linear_ramp, its
 * two flags cleared and its pre-pass; then the fill. */
static clpad_status fill_axis(clpad_context *ctx, const clpad_np_call *c, int ax, cl_mem out,
                              size_t out_off, cl_command_queue q, cl_event *event)
{
    cl_mem zero = NULL;
    clpad_status st = launch_axis(ctx, c, ax, out, out_off, q, event, &zero);
    if (zero) /* (the enqueued launches keep it until they complete) */
        clReleaseMemObject(zero);
    return st;
}

bool clpad__np_fused(const clpad_context *ctx, const clpad_np_call *c)
{
    if (c->rank < 1 || !clpad__cpu_geometry(ctx) || c->out_bytes == 0 ||
        (c->mode != CLPAD_NUMPY_MAXIMUM && c->mode != CLPAD_NUMPY_MINIMUM &&
         c->mode != CLPAD_NUMPY_MEAN))
        return false;
    /* 64-bit integer means: Intel's CPU runtime vectorises fuse2d's
     * contiguous (i64 / u64 -> double) conversions and rounded a sum 1 ULP
     * off the reference (u64, W 377, whole row); the per-axis path is exact */
    if (c->mode == CLPAD_NUMPY_MEAN && (c->dtype == CLPAD_I64 || c->dtype == CLPAD_U64))
        return false;
    int r = c->rank;
    for (int a = 0; a < r - 2; a++)
        if (c->pads_begin[a] || c->pads_end[a])
            return false;
    int64_t W = c->shape[r - 1], H = r > 1 ? c->shape[r - 2] : 1;
    bool hpad = r > 1 && (c->pads_begin[r - 2] || c->pads_end[r - 2]);
    if (W > CLPAD_NP_FUSE_W_MAX || (hpad && clpad__np_pairwise(c, r - 2)))
        return false;
    /* a work-item per plane: a few large planes keep today's launches,
     * whose rows spread over every compute unit */
    int64_t planes = 1;
    for (int a = 0; a < r - 2; a++)
        planes *= c->shape[a];
    return planes >= (int64_t)ctx->compute_units || H * W <= CLPAD_NP_FUSE_SMALL;
}

/* The fused run (clpad__np_fused): one launch of fuse2d. */
static clpad_status np_fused_enqueue(clpad_context *ctx, const clpad_np_call *c, cl_mem in,
                                     size_t in_off, cl_mem out, size_t out_off,
                                     cl_command_queue q, cl_uint num_events,
                                     const cl_event *wait_list, cl_event *event)
{
    int r = c->rank, h = r - 2;
    cl_long planes = 1;
    for (int a = 0; a < h; a++)
        planes *= c->shape[a];
    cl_long H = 1, pbh = 0, peh = 0, lbh = 1, leh = 1;
    if (r > 1) {
        H = c->shape[h];
        pbh = c->pads_begin[h];
        peh = c->pads_end[h];
        lbh = c->stat_begin[h];
        leh = c->stat_end[h];
    }
    cl_long W = c->shape[r - 1], pbw = c->pads_begin[r - 1], pew = c->pads_end[r - 1];
    cl_long lbw = c->stat_begin[r - 1], lew = c->stat_end[r - 1];
    cl_ulong dst_off = out_off / c->esize, src_off = in_off / c->esize;
    cl_int mode = (cl_int)c->mode;
    char options[CLPAD_OPTIONS_MAX];
    clpad__np_options(c->dtype, options, sizeof options);
    clpad_kernel_call kc;
    clpad_status st = clpad__kernel_begin(ctx, "pad_numpy", options, "fuse2d", NULL, &kc);
    if (st)
        return st;
    clpad__arg_mem(&kc, "dst", out);
    CLPAD_ARGS(&kc, CLPAD_ARG(dst_off));
    clpad__arg_mem(&kc, "src", in);
    CLPAD_ARGS(&kc, CLPAD_ARG(src_off), CLPAD_ARG(planes), CLPAD_ARG(H), CLPAD_ARG(W),
               CLPAD_ARG(pbh), CLPAD_ARG(peh), CLPAD_ARG(pbw), CLPAD_ARG(pew), CLPAD_ARG(lbh),
               CLPAD_ARG(leh), CLPAD_ARG(lbw), CLPAD_ARG(lew), CLPAD_ARG(mode));
    /* a work-group per plane: work-items of different planes share nothing */
    clpad_row_geometry geo = {.global = {1, (size_t)planes}, .local = {1, 1}, .items = 1,
                              .rows_per_item = 1};
    return clpad__kernel_launch(&kc, q, &geo, num_events, wait_list, event);
}

/* The device run of a validated call, after the wait list. */
static clpad_status np_enqueue(clpad_context *ctx, const clpad_np_call *c, cl_mem in,
                               size_t in_off, cl_mem out, size_t out_off, cl_command_queue q,
                               cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (c->out_bytes == 0)
        return clpad__enqueue_marker(q, num_events, wait_list, event);
    bool integer = c->dtype != CLPAD_F32 && c->dtype != CLPAD_F64;
    if ((c->dtype == CLPAD_F64 ||
         (integer && (c->mode == CLPAD_NUMPY_MEAN || c->mode == CLPAD_NUMPY_MEDIAN)) ||
         (c->mode == CLPAD_NUMPY_LINEAR_RAMP && !c->ramp_f32)) &&
        !has_doubles(ctx))
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "pad_numpy: %s has no doubles (cl_khr_fp64), which this call computes "
                           "in (f64 arrays, integer means and medians, float64 ramps); run it "
                           "on the host (the _cpu function)", ctx->device_name);
    if (clpad__np_fused(ctx, c))
        return np_fused_enqueue(ctx, c, in, in_off, out, out_off, q, num_events, wait_list,
                                event);
    /* the input in the middle (and zeros around it, overwritten below) */
    clpad_pad_options o;
    clpad_pad_options_init(&o, CLPAD_PAD_CONSTANT);
    clpad_pad_call pc;
    clpad_status st = clpad__pad_validate(c->dtype, c->rank, c->shape, c->pads_begin,
                                          c->pads_end, &o, NULL, &pc);
    int last = -1;
    for (int a = 0; a < c->rank; a++)
        if (c->pads_begin[a] || c->pads_end[a])
            last = a;
    if (!st)
        st = clpad__pad_enqueue(ctx, &pc, in, in_off, out, out_off, q, num_events, wait_list,
                                last < 0 ? event : NULL);
    for (int a = 0; !st && a <= last; a++)
        if (c->pads_begin[a] || c->pads_end[a])
            st = fill_axis(ctx, c, a, out, out_off, q, a == last ? event : NULL);
    return st;
}

clpad_status clpad__np_host_enqueue(clpad_context *ctx, cl_mem in, size_t in_off, cl_mem out,
                                    size_t out_off, cl_command_queue q, cl_event *event,
                                    const void *closure)
{
    return np_enqueue(ctx, closure, in, in_off, out, out_off, q, 0, NULL, event);
}

clpad_status clpad_enqueue_pad_numpy(clpad_context *ctx, clpad_dtype dtype, int rank,
                                     const int64_t *shape, cl_mem input, size_t input_offset,
                                     const int64_t *pads_begin, const int64_t *pads_end,
                                     clpad_numpy_mode mode, const int64_t *stat_begin,
                                     const int64_t *stat_end, cl_mem output,
                                     size_t output_offset, cl_command_queue queue,
                                     cl_uint num_events, const cl_event *wait_list,
                                     cl_event *event)
{
    clpad_status st = clpad__enqueue_enter(ctx, "enqueue_pad_numpy");
    if (st)
        return st;
    clpad_np_call c;
    if ((st = clpad__np_validate(dtype, rank, shape, pads_begin, pads_end, mode, stat_begin,
                                 stat_end, &c)))
        return st;
    if ((st = clpad__check_enqueue("enqueue_pad_numpy", num_events, wait_list, input,
                                   input_offset, c.in_bytes, output, output_offset, c.out_bytes,
                                   c.esize)))
        return st;
    return np_enqueue(ctx, &c, input, input_offset, output, output_offset,
                      queue ? queue : ctx->queue, num_events, wait_list, event);
}

/* The host-pointer run of a validated call. */
static clpad_status np_run(clpad_context *ctx, const clpad_np_call *cp, const void *input,
                           void *output, size_t output_bytes, clpad_run_info *info, uint64_t t0)
{
    const clpad_np_call c = *cp;
    clpad_status st = clpad__check_host_buffers("pad_numpy", input, c.in_bytes, output,
                                                c.out_bytes, output_bytes);
    if (st)
        return st;
    if (c.out_bytes == 0 || ctx->fallback) {
        if (c.out_bytes > 0)
            clpad__np_cpu(&c, input, output);
        clpad__run_info_put(info, (clpad_run_info){.total_ns = clpad__now_ns() - t0,
                                                   .bytes_moved = c.in_bytes + c.out_bytes});
        return CLPAD_OK;
    }
    if (c.out_bytes > ctx->max_alloc)
        return clpad__fail(CLPAD_ERR_DEVICE_OUT_OF_RESOURCES,
                           "pad_numpy: the output (%zu bytes) is larger than the largest buffer "
                           "%s can allocate (CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes)",
                           c.out_bytes, ctx->device_name, (unsigned long long)ctx->max_alloc);
    clpad_run_info acc = {0}; /* the library's whole record; the caller's by its size */
    st = clpad__run_host(ctx, input, c.in_bytes, output, c.out_bytes, c.in_bytes + c.out_bytes,
                         clpad__np_host_enqueue, &c, &acc);
    if (!st)
        clpad__run_info_put(info, acc);
    return st;
}

clpad_status clpad_pad_numpy(clpad_context *ctx, clpad_dtype dtype, int rank,
                             const int64_t *shape, const void *input, const int64_t *pads_begin,
                             const int64_t *pads_end, clpad_numpy_mode mode,
                             const int64_t *stat_begin, const int64_t *stat_end, void *output,
                             size_t output_bytes, clpad_run_info *info)
{
    uint64_t t0 = clpad__now_ns();
    clpad_np_call c;
    clpad_status st = clpad__host_enter(ctx, info, "pad_numpy");
    if (!st)
        st = clpad__np_validate(dtype, rank, shape, pads_begin, pads_end, mode, stat_begin,
                                stat_end, &c);
    return st ? st : np_run(ctx, &c, input, output, output_bytes, info, t0);
}

clpad_status clpad_pad_linear_ramp(clpad_context *ctx, clpad_dtype dtype, int rank,
                                   const int64_t *shape, const void *input,
                                   const int64_t *pads_begin, const int64_t *pads_end,
                                   const double *end_begin, const double *end_end, int float32,
                                   void *output, size_t output_bytes, clpad_run_info *info)
{
    uint64_t t0 = clpad__now_ns();
    clpad_np_call c;
    clpad_status st = clpad__host_enter(ctx, info, "pad_linear_ramp");
    if (!st)
        st = clpad__np_validate(dtype, rank, shape, pads_begin, pads_end,
                                CLPAD_NUMPY_LINEAR_RAMP, NULL, NULL, &c);
    if (!st)
        st = clpad__np_set_ramp(&c, end_begin, end_end, float32);
    return st ? st : np_run(ctx, &c, input, output, output_bytes, info, t0);
}
