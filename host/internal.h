/* Internal helpers shared by the library's translation units. Not installed. */
#ifndef CLPAD_INTERNAL_H
#define CLPAD_INTERNAL_H

#include "clpad.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define CLPAD_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLPAD_PRINTF(a, b)
#endif

/* Record a one-line message for clpad_last_error() on this thread and return
 * `status`, so that error paths read `return clpad__fail(CLPAD_ERR_..., "...")`. */
clpad_status clpad__fail(clpad_status status, const char *fmt, ...) CLPAD_PRINTF(2, 3);
/* Same for a failed OpenCL call: maps the error and names it in the message. */
clpad_status clpad__fail_cl(cl_int err, const char *what);
/* Clear the thread's message (called at the start of public calls). */
void clpad__clear_error(void);

/* Checked int64 arithmetic: return false on overflow (result untouched). */
static inline bool clpad__add_i64(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_add_overflow(a, b, r);
}
static inline bool clpad__mul_i64(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}

/* CLPAD_CPU_CLONES before a hot CPU-path function: on x86-64 ELF with GCC or
 * clang, an AVX2 build of it beside the portable one, picked when the
 * library loads (target_clones; glibc's memcpy, the bench's reference, picks
 * its AVX2 build the same way). The function is then never inlined (clang
 * refuses noinline beside target_clones), so elsewhere it is noinline too.
 * CLPAD_NO_CPU_DISPATCH (CMake: CLPAD_CPU_DISPATCH=OFF) keeps the portable
 * build only. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) &&                           \
    (defined(__clang__) || __GNUC__ >= 6) && !defined(CLPAD_NO_CPU_DISPATCH)
#define CLPAD_CPU_CLONES __attribute__((target_clones("avx2", "default")))
#elif defined(__GNUC__)
#define CLPAD_CPU_CLONES __attribute__((noinline))
#else
#define CLPAD_CPU_CLONES
#endif

/* 32 bytes as one vector value, at any alignment, aliasing anything: a move
 * through it is one AVX2 move or two SSE2 ones (a fixed-size memcpy is
 * expanded in 16-byte moves even for AVX2). */
#if defined(__GNUC__)
typedef unsigned char clpad__v32 __attribute__((vector_size(32), aligned(1), may_alias));
#define CLPAD_HAVE_V32 1
#endif

/* clpad__copy's copies of more than 256 bytes (host/copy.c). */
void clpad__copy_long(unsigned char *restrict d, const unsigned char *restrict s, size_t n);
/* Fill n > 256 bytes with a value of vbytes bytes repeated: vbytes 1, 2, 4
 * or 8, or 64 for a pattern whose period divides 32 (host/copy.c). */
void clpad__fill_long(unsigned char *restrict d, size_t n, const unsigned char *restrict value,
                      size_t vbytes);

/* Copy n bytes between buffers that do not overlap. The CPU paths copy many
 * short runs (a 56-element f16 row, a 256-byte element of a space/batch
 * move), where a call into the C library's memcpy costs as much as the copy.
 * Up to 256 bytes move here as two fixed-size copies that overlap in the
 * middle, which compilers inline as vector moves: straight-line code, since
 * a copy loop would be turned back into a memcpy call. Longer ones go to
 * clpad__copy_long. */
static inline void clpad__copy(unsigned char *restrict d, const unsigned char *restrict s,
                               size_t n)
{
#define CLPAD_COPY_HALVES(K)               \
    do {                                   \
        memcpy(d, s, K);                   \
        memcpy(d + n - K, s + n - K, K);   \
    } while (0)
    if (n > 256)
        clpad__copy_long(d, s, n);
    else if (n > 128)
        CLPAD_COPY_HALVES(128);
    else if (n > 64)
        CLPAD_COPY_HALVES(64);
    else if (n > 32)
        CLPAD_COPY_HALVES(32);
    else if (n >= 16)
        CLPAD_COPY_HALVES(16);
    else if (n >= 8)
        CLPAD_COPY_HALVES(8);
    else if (n >= 4)
        CLPAD_COPY_HALVES(4);
    else if (n >= 2)
        CLPAD_COPY_HALVES(2);
    else if (n == 1)
        d[0] = s[0];
#undef CLPAD_COPY_HALVES
}

/* Element count of a shape; false on overflow of int64 or size_t bytes. */
bool clpad__count(int rank, const int64_t *shape, size_t elem_size, int64_t *elems,
                  size_t *bytes);

/* Check rank and the arrays common to every op: rank in [min_rank, 8], shape
 * non-NULL with non-negative entries, each named array non-NULL. */
clpad_status clpad__check_rank_shape(const char *op, int rank, int min_rank,
                                     const int64_t *shape);

/* Monotonic clock in nanoseconds. */
uint64_t clpad__now_ns(void);


/* ---- Contexts and programs (context.c, program.c) ------------------------ */

#include <pthread.h>

#define CLPAD_MAX_PROGRAMS 32
#define CLPAD_MAX_KERNELS 64

struct clpad_program_entry {
    char family[32];
    char options[256];
    cl_program program;
};

struct clpad_kernel_entry {
    cl_program program;
    char name[48];
    cl_kernel kernel;
    size_t max_wg;     /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t wg_multiple; /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
};

struct clpad_context {
    int fallback;              /* 1: no OpenCL, CPU reference path only */
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl_ctx;
    cl_command_queue queue;
    char device_name[256];
    char platform_name[256];
    int unified_memory;        /* CL_DEVICE_HOST_UNIFIED_MEMORY */
    cl_device_type device_type;
    int row_geometry;          /* 0: by device type; 1: CPU style; 2: GPU style ($CLPAD_GEOMETRY) */
    int queue_profiling;       /* the context's queue has CL_QUEUE_PROFILING_ENABLE */
    cl_uint compute_units;
    size_t max_wg;             /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    cl_uint mem_base_align;    /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
    /* Outputs of at least this many bytes get non-temporal stores (CPU
     * devices; pad: for long interior stretches); 0: never; 1: always. */
    cl_ulong nt_output_bytes;
    /* Guards the caches and clSetKernelArg + clEnqueueNDRangeKernel pairs. */
    pthread_mutex_t lock;
    struct clpad_program_entry programs[CLPAD_MAX_PROGRAMS];
    int nprograms;
    struct clpad_kernel_entry kernels[CLPAD_MAX_KERNELS];
    int nkernels;
    char *build_log;           /* last failed build, owned */
};

/* The compiled program for kernel family `family` (kernels/<family>.cl) built
 * with `options`, from the context's cache or compiled now. Call with
 * ctx->lock held. The program stays owned by the cache. */
clpad_status clpad__program(clpad_context *ctx, const char *family, const char *options,
                            cl_program *program);
/* A cached kernel of that program. Call with ctx->lock held. */
clpad_status clpad__kernel(clpad_context *ctx, const char *family, const char *options,
                           const char *name, struct clpad_kernel_entry **kernel);
/* The source text of a kernel family: from $CLPAD_KERNEL_DIR/<family>.cl when
 * that variable is set (for kernel development), else the embedded copy.
 * *owned is set when the caller must free the returned text. */
clpad_status clpad__kernel_source(const char *family, const char **source, size_t *length,
                                  char **owned);

/* On-disk cache of program binaries (disk_cache.c): a program built from the
 * cached binary, or NULL; and storing a freshly built one. Silent on failure. */
cl_program clpad__disk_cache_load(clpad_context *ctx, const char *src, size_t len,
                                  const char *options);
void clpad__disk_cache_store(clpad_context *ctx, cl_program prog, const char *src, size_t len,
                             const char *options);

/* Fail with CLPAD_ERR_NO_DEVICE for the enqueue API on a fallback context. */
clpad_status clpad__require_device(const clpad_context *ctx, const char *op);

/* ---- Launch helpers (launch.c) ------------------------------------------- */

/* Enqueue `kernel` over a 2-D range of at least global[0] x global[1] work-items,
 * rounded up to a multiple of a local size chosen from the kernel and device
 * (the kernel bounds-checks). Call with ctx->lock held (args already set). */
clpad_status clpad__launch_2d(clpad_context *ctx, const struct clpad_kernel_entry *k,
                              cl_command_queue queue, const size_t global[2],
                              cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* Launch geometry of a row kernel: dimension 0 walks a row in vectors, each
 * work-item copying `items` of them (strided by the local size, so that
 * neighbouring work-items touch neighbouring memory), dimension 1 walks rows.
 * CPU devices get one work-item per contiguous stretch of a row (a local x
 * size of 1 and many items), GPUs wide work-groups along the row. */
/* Build options of the pad program for `mode` on this context's device (the
 * program cache's key: warmup and enqueue must agree). */
#define CLPAD_PAD_OPTIONS_MAX 48
void clpad__pad_options(const clpad_context *ctx, clpad_pad_mode mode,
                        char options[CLPAD_PAD_OPTIONS_MAX]);

/* Build options of the space_batch program (as above, the cache's key). */
const char *clpad__sb_options(const clpad_context *ctx);

/* Whether an output of out_bytes gets non-temporal stores on this context
 * (kernels/common.cl): large outputs on CPU devices. */
bool clpad__nt_output(const clpad_context *ctx, size_t out_bytes);

/* Whether launches on this context use the CPU style of clpad__row_geometry
 * (a work-item per contiguous stretch, local x size 1). */
bool clpad__cpu_geometry(const clpad_context *ctx);

typedef struct clpad_row_geometry {
    size_t global[2], local[2];
    cl_long items;         /* vectors per work-item along a row */
    cl_long rows_per_item; /* consecutive rows per work-item (1 unless asked) */
} clpad_row_geometry;
/* vector_bytes: bytes of one vector; multi_row: the kernel can take several
 * rows per work-item (short rows on CPUs then share the per-item cost). */
void clpad__row_geometry(const clpad_context *ctx, const struct clpad_kernel_entry *k,
                         size_t vectors_per_row, size_t n_rows, size_t vector_bytes,
                         bool multi_row, clpad_row_geometry *g);
/* Enqueue a 2-D kernel with that geometry. Call with ctx->lock held. */
clpad_status clpad__launch_rows(clpad_context *ctx, const struct clpad_kernel_entry *k,
                                cl_command_queue queue, const clpad_row_geometry *g,
                                cl_uint num_events, const cl_event *wait_list, cl_event *event);

/* Check a cl_mem and byte offset hold `need` bytes; `what` names the argument. */
clpad_status clpad__check_buffer(cl_mem mem, size_t offset, size_t need, size_t elem_size,
                                 const char *what);

/* Enqueue function of an operation over device buffers (host-pointer path). */
typedef clpad_status (*clpad__enqueue_fn)(clpad_context *ctx, cl_mem in, cl_mem out,
                                          cl_command_queue queue, cl_event *event,
                                          const void *closure);

/* Run an operation on host memory: wrap or copy the buffers (zero-copy on a
 * host-unified device), enqueue via `fn`, wait, bring the output back and fill
 * `info` (may be NULL). */
clpad_status clpad__run_host(clpad_context *ctx, const void *in, size_t in_bytes, void *out,
                             size_t out_bytes, uint64_t bytes_moved, clpad__enqueue_fn fn,
                             const void *closure, clpad_run_info *info);

/* ---- Pad plan (pad_shape.c) ---------------------------------------------- */

/* A validated Pad with unpadded axes collapsed. Axis 0 is outermost. */
typedef struct clpad_pad_plan {
    int rank;                         /* >= 1 */
    int64_t in_dims[CLPAD_MAX_RANK];
    int64_t out_dims[CLPAD_MAX_RANK];
    int64_t pads_begin[CLPAD_MAX_RANK];
    size_t elem_bytes;                /* bytes per (possibly widened) element */
    int64_t in_elems, out_elems;      /* in units of elem_bytes */
    bool no_pads;                     /* every pad is 0: a plain copy */
} clpad_pad_plan;

/* Collapse a validated Pad: drop unit axes without pads, merge an axis into
 * its unpadded inner neighbour (constant mode: also when the outer one is
 * padded), then, if `widen`, turn trailing unpadded axes into one wider
 * element of elem_bytes. */
void clpad__pad_plan(int rank, const int64_t *shape, const int64_t *pads_begin,
                     const int64_t *pads_end, clpad_pad_mode mode, size_t elem_size,
                     bool widen, clpad_pad_plan *plan);

/* The proof the device path needs before launch: every coordinate, offset
 * and product the kernels form from the plan fits in int64 with room to
 * spare (the plan's canonical pads make this hold for every valid call;
 * CLPAD_ERR_OVERFLOW otherwise, never a launch). */
clpad_status clpad__pad_plan_check(const clpad_pad_plan *p);

/* Validate a Pad and compute sizes: out_shape (may be NULL), input and output
 * bytes. */
clpad_status clpad__pad_check(clpad_dtype dtype, int rank, const int64_t *shape,
                              const int64_t *pads_begin, const int64_t *pads_end,
                              clpad_pad_mode mode, int64_t *out_shape, size_t *in_bytes,
                              size_t *out_bytes);

#endif /* CLPAD_INTERNAL_H */
