/* The context (host/device/context.c): the chosen device, its facts and launch
 * policy, and the cache of compiled programs and kernels (host/device/program.c).
 * Not installed. */
#ifndef CLPAD_CONTEXT_H
#define CLPAD_CONTEXT_H

#include "core/core.h"

#include <pthread.h>

/* Room for a program's build options (op-specific part, and all of them):
 * letterbox's longest, its streaming-store variant on an exact device,
 * takes 156 characters. */
#define CLPAD_OPTIONS_MAX 256

/* A cached kernel. Entries are allocated one by one and never move, so a
 * pointer to one stays valid for the context's life. */
struct clpad_kernel_entry {
    cl_program program;
    char name[48];
    cl_kernel kernel;
    size_t max_wg;      /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t wg_multiple; /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE */
    struct clpad_kernel_entry *next; /* the program's next kernel */
};

/* A cached program (kernel family + op build options) and its kernels. */
struct clpad_program_entry {
    uint64_t hash; /* of family and options (host/device/program.c) */
    char family[32];
    char options[CLPAD_OPTIONS_MAX];
    cl_program program;
    struct clpad_kernel_entry *kernels;
};

/* The launch policy: every number the launch geometry and the variant
 * choices use, named, and set per device in one place: the device table
 * (table.c, clpad__device_tuning), then the quirks (quirks.c) and the
 * context's configuration (config.c). */
typedef struct clpad_launch_policy {
    size_t max_local;          /* work-items per work-group, at most */
    size_t groups_per_cu;      /* work-groups wanted per compute unit */
    size_t max_local_y;        /* work-items per group along rows, at most */
    size_t gpu_items;          /* 16-byte vectors per work-item along a row (GPU geometry) */
    size_t cpu_item_bytes;     /* bytes of short rows one CPU work-item takes */
    size_t cpu_min_items_per_group; /* multi-row CPU items keep this many per wanted group */
    size_t nt_stretch_bytes;   /* pad: shortest interior stretch with streaming stores */
    /* Host-pointer calls moving at most this many bytes run the CPU path
     * (CPU devices with host-unified memory only; 0: never). */
    uint64_t small_call_bytes;
    /* Outputs of at least this many bytes get streaming stores (CPU
     * devices); 0: never; 1: always (tests). */
    uint64_t nt_output_bytes;
    /* space/batch's block-2 rows of one-unit elements in vectors of this
     * many elements (-DCLPAD_SB_VEC); 0: unit by unit. */
    unsigned sb_vector;
    /* Single precision rounds to nearest, keeps denormals and divides
     * correctly rounded: float work defined op by op gives the host's bits
     * (letterbox normalises on the device rather than by table). */
    bool exact_fp32;
    /* Single precision rounds to nearest and keeps denormals (division may
     * not be correctly rounded): one IEEE multiplication gives the host's
     * bits (letterbox computes v * scale on the device, the rest by table). */
    bool exact_mul_fp32;
} clpad_launch_policy;

/* Device quirks (host/device/quirks.c): what each changes. */
enum {
    /* Map the output blocking (the unmap right after a non-blocking map fails). */
    CLPAD_QUIRK_MAP_BLOCKING = 1u << 0,
    /* No mem_fence() in kernels: no streaming stores (their fence is one). */
    CLPAD_QUIRK_NO_MEM_FENCE = 1u << 1,
    /* Kernels built without restrict qualifiers (-DCLPAD_NO_RESTRICT). */
    CLPAD_QUIRK_NO_RESTRICT = 1u << 2,
    /* Per-axis pad modes decoded sign-extended (-DCLPAD_NO_NARROW_SWITCH). */
    CLPAD_QUIRK_NO_NARROW_SWITCH = 1u << 3,
    /* A work-item's loops end after a fixed number of iterations in all:
     * letterbox's variable-tap kinds (whose work-items loop over every tap)
     * run on the CPU path (host calls) or are refused (enqueue). */
    CLPAD_QUIRK_LOOP_LIMIT = 1u << 4,
};

struct clpad_context {
    /* The configuration it was made with, every field resolved (config.c:
     * the caller's, else the environment's, else the default); its strings
     * point into the buffers below. */
    clpad_context_config config;
    char device_spec[256];
    char quirk_spec[256];
    char kernel_dir[4096];
    char cache_dir[4096];      /* "off": no disk cache */
    int fallback;              /* 1: no OpenCL, CPU path only */
    int device_only;           /* CLPAD_CONTEXT_DEVICE_ONLY: no small-call CPU path */
    int verbose;               /* CLPAD_CONTEXT_VERBOSE: notes on stderr */
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl_ctx;
    cl_command_queue queue;
    char device_name[256];
    char platform_name[256];
    int unified_memory;        /* CL_DEVICE_HOST_UNIFIED_MEMORY (and zero-copy allowed) */
    /* Set when a zero-copy call failed to map its output: later host-pointer
     * calls copy (the failed call itself is finished with copies). Read and
     * written with __atomic builtins, without the lock: a stale read only
     * costs one more try. */
    int zero_copy_failed;
    cl_device_type device_type;
    int row_geometry;          /* 0: by device type; 1: CPU style; 2: GPU style ($CLPAD_GEOMETRY) */
    int lb_band;               /* letterbox's band form on CPU devices: -1 by batch, 0 never,
                                  1 always ($CLPAD_LB_BAND) */
    int queue_profiling;       /* the context's queue has CL_QUEUE_PROFILING_ENABLE */
    cl_uint compute_units;
    size_t max_wg;             /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t max_item[2];        /* CL_DEVICE_MAX_WORK_ITEM_SIZES, dimensions 0 and 1 */
    cl_uint mem_base_align;    /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes */
    cl_ulong max_alloc;        /* CL_DEVICE_MAX_MEM_ALLOC_SIZE, in bytes */
    clpad_launch_policy policy;
    const char *tuning_name;   /* the device table's row (table.c) */
    unsigned quirks;           /* CLPAD_QUIRK_* of this device */
    char quirk_names[128];     /* their names, comma-separated (clpad_context_quirks) */
    /* Build options every program of this context gets (the OpenCL C
     * version, CLPAD_NT on CPU devices): part of the device, not of the
     * cache key. */
    char device_options[CLPAD_OPTIONS_MAX];
    /* Guards the caches, the build log and clSetKernelArg +
     * clEnqueueNDRangeKernel pairs. */
    pthread_mutex_t lock;
    /* The program cache: an open-addressing hash table of `program_slots`
     * slots (0 or a power of two; NULL: empty), at most half of them used,
     * doubled as it fills: a context holds every variant it is asked for. */
    struct clpad_program_entry **programs;
    size_t program_slots;
    size_t nprograms;
    char *build_log;           /* last failed build, owned; read under the lock */
    uint64_t launches;         /* kernels enqueued (clpad_context_launches); under the lock */
    uint64_t in_place_reads;   /* letterbox launches that read the images in place
                                  (host/ops/letterbox/cl.c; atomic, for the tests) */
};

/* Check the caller's configuration (NULL: the defaults) and resolve it into
 * ctx->config, the environment standing in for the fields left alone. */
clpad_status clpad__config_resolve(clpad_context *ctx, const clpad_context_config *config);

/* The compiled program for kernel family `family` (kernels/<family>.cl) built
 * with `options` (and the context's device options), from the context's
 * cache or compiled now. Call with ctx->lock held. The program stays owned by
 * the cache. */
clpad_status clpad__program(clpad_context *ctx, const char *family, const char *options,
                            cl_program *program);
/* A cached kernel of that program. Call with ctx->lock held. */
clpad_status clpad__kernel(clpad_context *ctx, const char *family, const char *options,
                           const char *name, struct clpad_kernel_entry **kernel);
/* Release every cached program and kernel (clpad_context_destroy). */
void clpad__program_cache_free(clpad_context *ctx);
/* The source text of a kernel family as the device compiles it:
 * kernels/coords.h, kernels/common.cl and kernels/<family>.cl, each after a
 * #line naming it. From the directory kernel_dir when it is not NULL (the
 * context's kernel_dir, for kernel development), else the embedded copies.
 * *owned is set when the caller must free the returned text. */
clpad_status clpad__kernel_source(const char *kernel_dir, const char *family,
                                  const char **source, size_t *length, char **owned);
/* A build log whose "<kernel>:N:" positions (a driver that ignores #line:
 * NVIDIA's numbers the lines of the whole source) name each file and its own
 * line, from the #line markers of source; NULL when there is none to name
 * (or no memory). The caller frees it. */
char *clpad__build_log_lines(const char *source, const char *log);

/* On-disk cache of program binaries (disk_cache.c): a program built from the
 * cached binary, or NULL; and storing a freshly built one. Silent on failure. */
cl_program clpad__disk_cache_load(clpad_context *ctx, const char *src, size_t len,
                                  const char *options);
void clpad__disk_cache_store(clpad_context *ctx, cl_program prog, const char *src, size_t len,
                             const char *options);

/* Look the device up in the device table (table.c) and set the context's
 * launch policy from its row (ctx->device_type, platform_name,
 * compute_units and unified_memory read first). */
void clpad__device_tuning(clpad_context *ctx);

/* Look the device up in the quirk table and apply what matches to the
 * context's policy and quirk flags (config.quirks "off": none; "-NAME,...":
 * all but those). */
void clpad__apply_quirks(clpad_context *ctx);
/* The build options the context's quirks add (" -D..." or ""). */
const char *clpad__quirk_options(const clpad_context *ctx);

/* How every enqueue call opens: clear the thread's error, then fail for a
 * NULL context, and with CLPAD_ERR_NO_DEVICE on a fallback context. */
clpad_status clpad__enqueue_enter(const clpad_context *ctx, const char *op);

/* Whether a host-pointer call moving `bytes` (read + written) runs the CPU
 * path on this context: a fallback context, or a small call on a CPU device
 * (policy.small_call_bytes). */
bool clpad__host_call_on_cpu(const clpad_context *ctx, uint64_t bytes);

/* Whether launches on this context use the CPU style of launch geometry (a
 * work-item per contiguous stretch, local x size 1). */
bool clpad__cpu_geometry(const clpad_context *ctx);

#endif /* CLPAD_CONTEXT_H */
