/* The launch path every operation shares (launch.h): shortcuts, unit and
 * streaming-store choices, launch geometry, the argument builder, buffer
 * checks and the host-pointer path. */
#include "device/launch.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static size_t pow2_at_least(size_t n)
{
    size_t p = 1;
    while (p < n && p < ((size_t)1 << 30))
        p <<= 1;
    return p;
}

bool clpad__cpu_geometry(const clpad_context *ctx)
{
    return ctx->row_geometry ? ctx->row_geometry == 1
                             : (ctx->device_type & CL_DEVICE_TYPE_CPU) != 0;
}

void clpad__row_geometry(const clpad_context *ctx, const struct clpad_kernel_entry *k,
                         size_t vectors_per_row, size_t n_rows, bool multi_row,
                         clpad_row_geometry *g)
{
    const clpad_launch_policy *pol = &ctx->policy;
    size_t target = k->max_wg < ctx->max_wg ? k->max_wg : ctx->max_wg;
    if (target > pol->max_local)
        target = pol->max_local;
    if (vectors_per_row == 0)
        vectors_per_row = 1;
    size_t cus = ctx->compute_units ? ctx->compute_units : 1;
    size_t want = pol->groups_per_cu * cus; /* work-groups enough to keep every unit busy */
    size_t lx = 1, items, rpi = 1;
    if (clpad__cpu_geometry(ctx)) {
        /* A work-item copies a whole row, or a long stretch of it when there
         * are too few rows to share out: memcpy-like loops, few work-groups.
         * Short rows are taken several at a time (cpu_item_bytes per item). */
        size_t chunks = n_rows >= want ? 1 : (want + n_rows - 1) / n_rows;
        items = (vectors_per_row + chunks - 1) / chunks;
        size_t row_bytes = vectors_per_row * CLPAD_GEOMETRY_VECTOR_BYTES;
        if (multi_row && chunks == 1 && row_bytes < pol->cpu_item_bytes) {
            rpi = pol->cpu_item_bytes / row_bytes;
            size_t max_rpi = n_rows / (pol->cpu_min_items_per_group * want);
            if (rpi > max_rpi)
                rpi = max_rpi ? max_rpi : 1;
        }
    } else {
        /* x takes one of a few sizes (1, 4, 16, 64, 256) so that drivers that
         * specialise kernels per local size (PoCL) compile few variants. */
        while (lx * 4 <= target && lx * 4 <= ctx->max_item[0] &&
               lx * 4 <= pow2_at_least(vectors_per_row))
            lx *= 4;
        size_t per = (vectors_per_row + lx - 1) / lx;
        items = per < pol->gpu_items ? per : pol->gpu_items;
    }
    size_t groups_x = (vectors_per_row + lx * items - 1) / (lx * items);
    size_t items_y = (n_rows + rpi - 1) / rpi;
    /* Work-items per group along y: 1, 4, 16 or 64 (few local sizes: PoCL
     * specialises per size), while keeping enough work-groups. */
    size_t ly = 1;
    while (ly * 4 * lx <= target && ly * 4 <= pol->max_local_y && ly * 4 <= ctx->max_item[1] &&
           ly * 4 <= items_y &&
           groups_x * ((items_y + ly * 4 - 1) / (ly * 4)) >= want)
        ly *= 4;
    g->local[0] = lx;
    g->local[1] = ly;
    g->global[0] = groups_x * lx;
    g->global[1] = (items_y + ly - 1) / ly * ly;
    g->items = (cl_long)items;
    g->rows_per_item = (cl_long)rpi;
}

clpad_status clpad__enqueue_marker(cl_command_queue queue, cl_uint num_events,
                                   const cl_event *wait_list, cl_event *event)
{
    if (!event)
        return CLPAD_OK;
    cl_int err =
        clEnqueueMarkerWithWaitList(queue, num_events, num_events ? wait_list : NULL, event);
    return err == CL_SUCCESS ? CLPAD_OK : clpad__fail_cl(err, "clEnqueueMarkerWithWaitList");
}

clpad_status clpad__enqueue_copy(cl_command_queue queue, cl_mem input, size_t input_offset,
                                 cl_mem output, size_t output_offset, size_t bytes,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    cl_int err = clEnqueueCopyBuffer(queue, input, output, input_offset, output_offset, bytes,
                                     num_events, num_events ? wait_list : NULL, event);
    return err == CL_SUCCESS ? CLPAD_OK : clpad__fail_cl(err, "clEnqueueCopyBuffer");
}

size_t clpad__unit_bytes(size_t elem_bytes, size_t input_offset, size_t output_offset)
{
    size_t eb = 8;
    while (eb > 1 && (elem_bytes % eb || input_offset % eb || output_offset % eb))
        eb >>= 1;
    return eb;
}

cl_long clpad__nt_min(const clpad_context *ctx, size_t out_bytes, size_t unit_bytes,
                      size_t stretch_bytes)
{
    uint64_t threshold = ctx->policy.nt_output_bytes;
    if (threshold == 1) /* always (tests): every stretch */
        return 1;
    if (!threshold || out_bytes < threshold)
        return 0;
    size_t units = stretch_bytes / unit_bytes;
    return (cl_long)(units ? units : 1);
}

clpad_status clpad__kernel_begin(clpad_context *ctx, const char *family, const char *options,
                                 const char *name, cl_mem owned, clpad_kernel_call *kc)
{
    *kc = (clpad_kernel_call){.ctx = ctx, .err = CL_SUCCESS, .owned = owned};
    pthread_mutex_lock(&ctx->lock);
    clpad_status st = clpad__kernel(ctx, family, options, name, &kc->k);
    if (st) {
        pthread_mutex_unlock(&ctx->lock);
        if (owned)
            clReleaseMemObject(owned);
    }
    return st;
}

void clpad__arg(clpad_kernel_call *kc, const char *name, size_t size, const void *value)
{
    cl_uint index = kc->next++;
    if (kc->err != CL_SUCCESS)
        return;
    cl_int err = clSetKernelArg(kc->k->kernel, index, size, value);
    if (err != CL_SUCCESS) {
        kc->err = err;
        kc->failed_index = index;
        kc->failed_name = name;
    }
}

void clpad__args(clpad_kernel_call *kc, const clpad_arg_ref *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        clpad__arg(kc, args[i].name, args[i].size, args[i].value);
}

void clpad__arg_src_dst(clpad_kernel_call *kc, cl_mem src, cl_ulong src_off, cl_mem dst,
                        cl_ulong dst_off)
{
    clpad__arg_mem(kc, "src", src);
    clpad__arg(kc, "src_off", sizeof src_off, &src_off);
    clpad__arg_mem(kc, "dst", dst);
    clpad__arg(kc, "dst_off", sizeof dst_off, &dst_off);
}

void clpad__arg_rows(clpad_kernel_call *kc, cl_long n_rows, const clpad_row_geometry *g)
{
    clpad__arg(kc, "n_rows", sizeof n_rows, &n_rows);
    clpad__arg(kc, "items", sizeof g->items, &g->items);
}

clpad_status clpad__kernel_launch(clpad_kernel_call *kc, cl_command_queue queue,
                                  const clpad_row_geometry *g, cl_uint num_events,
                                  const cl_event *wait_list, cl_event *event)
{
    clpad_status st = CLPAD_OK;
    if (kc->err != CL_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "clSetKernelArg(%s, argument %u '%s')", kc->k->name,
                 (unsigned)kc->failed_index, kc->failed_name);
        st = clpad__fail_cl(kc->err, what);
    } else {
        cl_int err = clEnqueueNDRangeKernel(queue, kc->k->kernel, 2, NULL, g->global, g->local,
                                            num_events, num_events ? wait_list : NULL, event);
        if (err == CL_SUCCESS) {
            kc->ctx->launches++;
        } else {
            char what[96];
            snprintf(what, sizeof what, "clEnqueueNDRangeKernel(%s)", kc->k->name);
            st = clpad__fail_cl(err, what);
        }
    }
    pthread_mutex_unlock(&kc->ctx->lock);
    if (kc->owned)
        clReleaseMemObject(kc->owned);
    return st;
}

clpad_status clpad__fail_item_too_large(const clpad_context *ctx, const char *list, size_t index,
                                        uint64_t need, const char *what, const char *verb)
{
    return clpad__fail_at(CLPAD_ERR_DEVICE_OUT_OF_RESOURCES, list, (int64_t)index,
                          "%s[%zu] needs %llu bytes for %s, more than the largest buffer %s "
                          "can allocate (CL_DEVICE_MAX_MEM_ALLOC_SIZE = %llu bytes), even in a "
                          "launch of its own; %s it on the CPU path (CLI: --cpu; Python: "
                          "device=\"reference\")",
                          list, index, (unsigned long long)need, what, ctx->device_name,
                          (unsigned long long)ctx->max_alloc, verb);
}

clpad_status clpad__buffer_size(cl_mem mem, const char *what, size_t *size)
{
    *size = 0;
    if (!mem)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s buffer is NULL", what);
    cl_int err = clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof *size, size, NULL);
    if (err != CL_SUCCESS)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s buffer is not a valid cl_mem: %s (%d)",
                           what, clpad_cl_error_name(err), (int)err);
    return CLPAD_OK;
}

clpad_status clpad__check_buffer(cl_mem mem, size_t offset, size_t need, size_t elem_size,
                                 const char *what)
{
    size_t size;
    clpad_status st = clpad__buffer_size(mem, what, &size);
    if (st)
        return st;
    if (offset % elem_size)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s offset %zu is not a multiple of the element size %zu", what, offset,
                           elem_size);
    if (offset > size || size - offset < need)
        return clpad__fail(CLPAD_ERR_BUFFER_TOO_SMALL,
                           "%s buffer holds %zu bytes; offset %zu + %zu bytes needed", what, size,
                           offset, need);
    return CLPAD_OK;
}

clpad_status clpad__check_enqueue(const char *fn, cl_uint num_events, const cl_event *wait_list,
                                  cl_mem input, size_t input_offset, size_t in_bytes,
                                  cl_mem output, size_t output_offset, size_t out_bytes,
                                  size_t elem_size)
{
    if (num_events && !wait_list)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: num_events = %u but wait_list is NULL",
                           fn, (unsigned)num_events);
    if (out_bytes == 0)
        return CLPAD_OK;
    clpad_status st = clpad__check_buffer(output, output_offset, out_bytes, elem_size, "output");
    if (st)
        return st;
    if (!input)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "input buffer is NULL");
    if (in_bytes > 0)
        return clpad__check_buffer(input, input_offset, in_bytes, elem_size, "input");
    return CLPAD_OK;
}

/* Bytes from the CL_DEVICE_MEM_BASE_ADDR_ALIGN boundary at or below p up to
 * p: a CL_MEM_USE_HOST_PTR buffer starts at that boundary (drivers copy a
 * misaligned host pointer into memory of their own, or refuse it), and the
 * operation starts that many bytes into it. The bytes before p lie in p's
 * own page; they are never written (the output's map covers the output
 * only). */
static size_t misalignment(const clpad_context *ctx, const void *p)
{
    return (size_t)((uintptr_t)p % ctx->mem_base_align);
}

/* Whether the host-pointer path uses the host memory at p in place: a device
 * with host-unified memory, zero-copy not given up on this context, and the
 * rounded-down start (misalignment) still in p's page (a device that asks
 * for more than a page's alignment gets copies of a misaligned pointer). */
static bool zero_copy_ok(const clpad_context *ctx, const void *p)
{
    static const size_t page = 4096; /* the smallest page of the systems clpad runs on */
    return ctx->unified_memory && !__atomic_load_n(&ctx->zero_copy_failed, __ATOMIC_RELAXED) &&
           (ctx->mem_base_align <= page || misalignment(ctx, p) == 0);
}

bool clpad__host_in_place(const clpad_context *ctx, const void *p) { return zero_copy_ok(ctx, p); }

cl_mem clpad__host_input(clpad_context *ctx, const void *p, size_t bytes, size_t *offset,
                         cl_int *err)
{
    *err = CL_SUCCESS;
    if (!bytes || !zero_copy_ok(ctx, p))
        return NULL;
    *offset = misalignment(ctx, p);
    return clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, *offset + bytes,
                          (void *)((const unsigned char *)p - *offset), err);
}

/* One try of clpad__run_host: the input in place when zc_in, the output when
 * zc_out (else copies). *map_failed is set when mapping the output in place
 * failed: the caller tries again with copies. */
static clpad_status run_host_once(clpad_context *ctx, const void *in, size_t in_bytes, void *out,
                                  size_t out_bytes, bool zc_in, bool zc_out, clpad__enqueue_fn fn,
                                  const void *closure, clpad_run_info *ri, bool *map_failed)
{
    clpad_status st = CLPAD_OK;
    cl_mem bin = NULL, bout = NULL;
    cl_event ev = NULL;
    void *mapped = NULL;
    cl_int err;
    size_t in_off = zc_in ? misalignment(ctx, in) : 0, out_off = zc_out ? misalignment(ctx, out) : 0;
    if (in_bytes == 0) /* constant padding of an empty input: a placeholder buffer */
        bin = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY, 16, NULL, &err);
    else if (zc_in)
        bin = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, in_off + in_bytes,
                             (void *)((const unsigned char *)in - in_off), &err);
    else
        bin = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in_bytes,
                             (void *)in, &err);
    if (!bin) {
        st = clpad__fail_cl(err, "clCreateBuffer(input)");
        goto done;
    }
    bout = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE | (zc_out ? CL_MEM_USE_HOST_PTR : 0),
                          out_off + out_bytes, zc_out ? (unsigned char *)out - out_off : NULL, &err);
    if (!bout) {
        st = clpad__fail_cl(err, "clCreateBuffer(output)");
        goto done;
    }
    if ((st = fn(ctx, bin, in_off, bout, out_off, ctx->queue, &ev, closure)))
        goto done;
    if (zc_out) {
        /* Mapping makes the device's writes visible in the host memory. The
         * map is not blocking (unless a quirk says so): when it maps `out`
         * itself (the usual case on a unified-memory device) kernel, map and
         * unmap run back to back and the host waits once, in clFinish. Each
         * wait costs a wake-up of the driver's thread and then of ours
         * (bench/README.md, design measurements). */
        cl_bool blocking = (ctx->quirks & CLPAD_QUIRK_MAP_BLOCKING) ? CL_TRUE : CL_FALSE;
        cl_event map_ev = NULL;
        mapped = clEnqueueMapBuffer(ctx->queue, bout, blocking, CL_MAP_READ, out_off, out_bytes, 1,
                                    &ev, &map_ev, &err);
        if (!mapped) {
            *map_failed = true;
            st = clpad__fail_cl(err, "clEnqueueMapBuffer(output)");
            goto done;
        }
        if (mapped != out) {
            err = clWaitForEvents(1, &map_ev);
            if (err == CL_SUCCESS)
                memcpy(out, mapped, out_bytes);
        }
        clReleaseEvent(map_ev);
        if (err != CL_SUCCESS) {
            *map_failed = true;
            st = clpad__fail_cl(err, "clEnqueueMapBuffer(output)");
            goto done;
        }
        err = clEnqueueUnmapMemObject(ctx->queue, bout, mapped, 0, NULL, NULL);
        cl_int ferr = clFinish(ctx->queue);
        if (err != CL_SUCCESS) {
            *map_failed = true;
            st = clpad__fail_cl(err, "clEnqueueUnmapMemObject(output)");
            goto done;
        }
        mapped = NULL;
        if (ferr != CL_SUCCESS) {
            st = clpad__fail_cl(ferr, "clFinish");
            goto done;
        }
    } else {
        err = clEnqueueReadBuffer(ctx->queue, bout, CL_TRUE, 0, out_bytes, out, 1, &ev, NULL);
        if (err != CL_SUCCESS) {
            st = clpad__fail_cl(err, "clEnqueueReadBuffer(output)");
            goto done;
        }
    }
    ri->zero_copy = zc_out;
    if (ctx->queue_profiling) {
        cl_ulong start = 0, end = 0;
        if (clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) ==
                CL_SUCCESS &&
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) ==
                CL_SUCCESS &&
            end >= start)
            ri->kernel_ns = end - start;
    }
done:
    if (ev) {
        /* Also on failure: the device may still write into `out` (zero-copy),
         * so the command must be over before the caller gets its memory back. */
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    if (mapped) { /* a failed unmap: once more, now that the map has run */
        clFinish(ctx->queue);
        if (clEnqueueUnmapMemObject(ctx->queue, bout, mapped, 0, NULL, NULL) == CL_SUCCESS)
            clFinish(ctx->queue);
    }
    if (bout)
        clReleaseMemObject(bout);
    if (bin)
        clReleaseMemObject(bin);
    return st;
}

void clpad_run_info_init(clpad_run_info *info)
{
    clpad__sized_init(info, sizeof *info);
}

clpad_status clpad__run_info_check(const clpad_run_info *info, const char *fn)
{
    size_t first = offsetof(clpad_run_info, bytes_moved) + sizeof info->bytes_moved;
    return info ? clpad__sized_check(info->size, first, fn, "info->size", "info", -1,
                                     "fill it with clpad_run_info_init()")
                : CLPAD_OK;
}

clpad_status clpad__host_enter(const clpad_context *ctx, const clpad_run_info *info,
                               const char *fn)
{
    clpad__clear_error();
    if (!ctx)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: context is NULL", fn);
    return clpad__run_info_check(info, fn);
}

void clpad__run_info_put(clpad_run_info *info, clpad_run_info value)
{
    if (info)
        clpad__sized_put(info, info->size, &value, sizeof value);
}

clpad_status clpad__run_host(clpad_context *ctx, const void *in, size_t in_bytes, void *out,
                             size_t out_bytes, uint64_t bytes_moved, clpad__enqueue_fn fn,
                             const void *closure, clpad_run_info *info)
{
    uint64_t t0 = clpad__now_ns();
    clpad_run_info ri = {.used_opencl = 1, .bytes_moved = bytes_moved};
    clpad_status st = CLPAD_OK;
    if (out_bytes > 0) {
        bool map_failed = false;
        st = run_host_once(ctx, in, in_bytes, out, out_bytes,
                           in_bytes > 0 && zero_copy_ok(ctx, in), zero_copy_ok(ctx, out), fn,
                           closure, &ri, &map_failed);
        if (st && map_failed) {
            /* The device could not map the output in place: the context
             * remembers, and this call ends with copies (the output is
             * written again in full). */
            __atomic_store_n(&ctx->zero_copy_failed, 1, __ATOMIC_RELAXED);
            clpad__clear_error();
            st = run_host_once(ctx, in, in_bytes, out, out_bytes, false, false, fn, closure, &ri,
                               &map_failed);
        }
    }
    ri.total_ns = clpad__now_ns() - t0;
    if (!st && info)
        *info = ri;
    return st;
}
