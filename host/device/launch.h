/* The one launch path every operation's device side takes (host/device/launch.c):
 * the shortcuts before a launch, the unit and streaming-store choices, the
 * launch geometry, an argument builder that names the argument that failed,
 * and the host-pointer path. Not installed.
 *
 * An operation's enqueue reads:
 *
 *   if (out_bytes == 0) return clpad__enqueue_marker(...);     // no launch
 *   if (plain copy)     return clpad__enqueue_copy(...);
 *   clpad_kernel_call kc;
 *   if ((st = clpad__kernel_begin(ctx, "family", options, "kernel", table, &kc)))
 *       return st;                        // the context's lock is held from here
 *   clpad__arg_mem(&kc, "src", input);
 *   CLPAD_ARGS(&kc, CLPAD_ARG(o_dims), CLPAD_ARG(K));  // variables named as the
 *   ...                                                 // kernel's parameters
 *   clpad__arg_rows(&kc, n_rows, &geometry);
 *   return clpad__kernel_launch(&kc, queue, &geometry, num_events, wait_list, event);
 *                                         // reports the first failed argument; unlocks
 *                                         // and releases `table` (NULL: none)
 */
#ifndef CLPAD_LAUNCH_H
#define CLPAD_LAUNCH_H

#include "device/context.h"

/* ---- Before a launch --------------------------------------------------------- */

/* An operation with an empty output: no launch, but the event contract holds
 * (a marker after the wait list when the caller asks for an event). */
clpad_status clpad__enqueue_marker(cl_command_queue queue, cl_uint num_events,
                                   const cl_event *wait_list, cl_event *event);
/* An operation that is a plain copy of `bytes` bytes. */
clpad_status clpad__enqueue_copy(cl_command_queue queue, cl_mem input, size_t input_offset,
                                 cl_mem output, size_t output_offset, size_t bytes,
                                 cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* The unit the data-movement kernels move: the largest of 8, 4, 2, 1 bytes
 * that divides the (widened) element and both buffer offsets. */
size_t clpad__unit_bytes(size_t elem_bytes, size_t input_offset, size_t output_offset);

/* Streaming stores for an output of out_bytes on this context: the shortest
 * stretch, in units of unit_bytes, worth them (stretch_bytes / unit_bytes,
 * at least 1), or 0 for plain stores: only large outputs on CPU devices
 * (ctx->policy.nt_output_bytes). */
cl_long clpad__nt_min(const clpad_context *ctx, size_t out_bytes, size_t unit_bytes,
                      size_t stretch_bytes);

/* ---- Launch geometry ------------------------------------------------------------ */

/* Bytes of one "vector" of the row kernels' geometry. */
#define CLPAD_GEOMETRY_VECTOR_BYTES 16

/* Launch geometry of a row kernel: dimension 0 walks a row in vectors of
 * CLPAD_GEOMETRY_VECTOR_BYTES, each work-item copying `items` of them
 * (strided by the local size, so that neighbouring work-items touch
 * neighbouring memory), dimension 1 walks rows. CPU devices get one
 * work-item per contiguous stretch of a row (a local x size of 1 and many
 * items), GPUs wide work-groups along the row. */
typedef struct clpad_row_geometry {
    size_t global[2], local[2];
    cl_long items;         /* vectors per work-item along a row */
    cl_long rows_per_item; /* consecutive rows per work-item (1 unless asked) */
} clpad_row_geometry;
/* multi_row: the kernel can take several rows per work-item (short rows on
 * CPUs then share the per-item cost). */
void clpad__row_geometry(const clpad_context *ctx, const struct clpad_kernel_entry *k,
                         size_t vectors_per_row, size_t n_rows, bool multi_row,
                         clpad_row_geometry *g);

/* ---- A kernel call ---------------------------------------------------------------- */

typedef struct clpad_kernel_call {
    clpad_context *ctx;
    struct clpad_kernel_entry *k;
    cl_uint next;           /* index of the next argument */
    cl_int err;             /* the first failure, CL_SUCCESS so far */
    cl_uint failed_index;
    const char *failed_name;
    cl_mem owned;           /* released by clpad__kernel_launch (NULL: none) */
} clpad_kernel_call;

/* Take the context's lock and the kernel `name` of program (family,
 * options), compiling it if needed. On failure the lock is released.
 * `owned`: a buffer the caller made for this launch alone (a table), or
 * NULL; the call releases it when it fails here or in clpad__kernel_launch,
 * and after the enqueue (OpenCL keeps it alive until the kernel has run). */
clpad_status clpad__kernel_begin(clpad_context *ctx, const char *family, const char *options,
                                 const char *name, cl_mem owned, clpad_kernel_call *kc);
/* Set the next argument (after a failure, nothing more is set). */
void clpad__arg(clpad_kernel_call *kc, const char *name, size_t size, const void *value);
/* One argument taken from a variable named as the kernel's parameter: its
 * name, size and address come from the variable itself, so they cannot
 * disagree (CLPAD_ARGS). */
typedef struct clpad_arg_ref {
    const char *name;
    size_t size;
    const void *value;
} clpad_arg_ref;
#define CLPAD_ARG(x) {#x, sizeof(x), &(x)}
/* The same for field f of the struct *s. */
#define CLPAD_ARG_OF(s, f) {#f, sizeof((s)->f), &(s)->f}
/* Set the next arguments, in order, from a list of CLPAD_ARG(variable):
 *   CLPAD_ARGS(&kc, CLPAD_ARG(o_dims), CLPAD_ARG(i_dims), CLPAD_ARG(K)); */
#define CLPAD_ARGS(kc, ...)                                                                \
    clpad__args((kc), (const clpad_arg_ref[]){__VA_ARGS__},                                 \
                sizeof((const clpad_arg_ref[]){__VA_ARGS__}) / sizeof(clpad_arg_ref))
void clpad__args(clpad_kernel_call *kc, const clpad_arg_ref *args, size_t n);
static inline void clpad__arg_mem(clpad_kernel_call *kc, const char *name, cl_mem mem)
{
    clpad__arg(kc, name, sizeof mem, &mem);
}
/* The arguments the pad and space_batch kernels open with: src, src_off
 * (in units), dst, dst_off. */
void clpad__arg_src_dst(clpad_kernel_call *kc, cl_mem src, cl_ulong src_off, cl_mem dst,
                        cl_ulong dst_off);
/* The arguments every row kernel takes next to each other: n_rows, and the
 * geometry's items. */
void clpad__arg_rows(clpad_kernel_call *kc, cl_long n_rows, const clpad_row_geometry *g);
/* Enqueue the kernel with geometry g unless an argument failed (then the
 * error names it); release the lock and the owned buffer either way. */
clpad_status clpad__kernel_launch(clpad_kernel_call *kc, cl_command_queue queue,
                                  const clpad_row_geometry *g, cl_uint num_events,
                                  const cl_event *wait_list, cl_event *event);

/* ---- Buffers and the host-pointer path -------------------------------------------- */

/* The size of the cl_mem argument `what` ("input"): CLPAD_ERR_INVALID_ARGUMENT
 * when mem is NULL or not a valid cl_mem. */
clpad_status clpad__buffer_size(cl_mem mem, const char *what, size_t *size);
/* Check a cl_mem and byte offset hold `need` bytes; `what` names the argument. */
clpad_status clpad__check_buffer(cl_mem mem, size_t offset, size_t need, size_t elem_size,
                                 const char *what);
/* What a clpad_enqueue_* function `fn` ("enqueue_pad") checks once its call
 * is valid: a wait list where num_events asks for one; and where the call
 * writes output (out_bytes > 0), the output buffer, an input buffer, and its
 * in_bytes at input_offset (where it reads any; 0: the caller checks them). */
clpad_status clpad__check_enqueue(const char *fn, cl_uint num_events, const cl_event *wait_list,
                                  cl_mem input, size_t input_offset, size_t in_bytes,
                                  cl_mem output, size_t output_offset, size_t out_bytes,
                                  size_t elem_size);

/* A batched operation's item `index` of its argument `list` ("images",
 * "tensors") needs `need` bytes for `what` ("its output slice"), more than
 * one buffer of ctx can hold (ctx->max_alloc), even in a launch of its own:
 * CLPAD_ERR_DEVICE_OUT_OF_RESOURCES, the message pointing to the CPU path
 * ("<verb> it on the CPU path"). */
clpad_status clpad__fail_item_too_large(const clpad_context *ctx, const char *list, size_t index,
                                        uint64_t need, const char *what, const char *verb);

/* Enqueue function of an operation over device buffers (host-pointer path):
 * the input at byte in_off of `in`, the output at out_off of `out`. An
 * operation declares its own with this type (`clpad__host_enqueue
 * clpad__pad_host_enqueue;`), so that the compiler holds it to it. */
typedef clpad_status clpad__host_enqueue(clpad_context *ctx, cl_mem in, size_t in_off,
                                         cl_mem out, size_t out_off, cl_command_queue queue,
                                         cl_event *event, const void *closure);
typedef clpad__host_enqueue *clpad__enqueue_fn;

/* Run an operation on host memory: wrap or copy the buffers, enqueue via
 * `fn`, wait, bring the output back and fill `info` (may be NULL). On a
 * device with host-unified memory the host memory is used in place
 * (zero-copy): each buffer starts at the host pointer rounded down to
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN, and the operation gets the rest as an
 * offset. If the output cannot be mapped back, the call ends with copies and
 * the context copies from then on. */
/* The public functions' run info: `info` NULL, or its size (set by
 * clpad_run_info_init) at least the first version's; else
 * CLPAD_ERR_INVALID_ARGUMENT naming `fn`'s argument info. */
clpad_status clpad__run_info_check(const clpad_run_info *info, const char *fn);
/* How a public host-pointer function `fn` ("pad") opens: clear the thread's
 * error, require the context, and check `info` (clpad__run_info_check). */
clpad_status clpad__host_enter(const clpad_context *ctx, const clpad_run_info *info,
                               const char *fn);
/* Give `value` to a public function's caller: the fields that *info's size
 * holds (nothing when info is NULL); info->size stays. */
void clpad__run_info_put(clpad_run_info *info, clpad_run_info value);

/* (info here is the library's own record, written whole; the public
 * functions hand it on with clpad__run_info_put.) */
clpad_status clpad__run_host(clpad_context *ctx, const void *in, size_t in_bytes, void *out,
                             size_t out_bytes, uint64_t bytes_moved, clpad__enqueue_fn fn,
                             const void *closure, clpad_run_info *info);

/* A read-only buffer over `bytes` of host memory at p used in place, as
 * clpad__run_host wraps its input (from p rounded down to
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN; *offset: where p lies in it), for an
 * operation that reads more host arrays than its one input. NULL where the
 * context does not use host memory in place (*err CL_SUCCESS: copy it
 * instead) or the driver refused (*err its code). */
cl_mem clpad__host_input(clpad_context *ctx, const void *p, size_t bytes, size_t *offset,
                         cl_int *err);
/* Whether clpad__run_host would use host memory at p in place (the
 * context's choice now; a later failure to map may still make it copy). */
bool clpad__host_in_place(const clpad_context *ctx, const void *p);

#endif /* CLPAD_LAUNCH_H */
