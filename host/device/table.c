/* The device table: every launch number of the data-movement kernels, per
 * device class and vendor, each with the measurement that chose it (in the
 * manner of CLBlast's database, src/database/kernels/). clpad__device_tuning
 * is the one place that reads it: it fills the context's launch policy
 * (context.h), which the launch geometry (launch.c) and the operations'
 * build options read; nothing else holds a launch number. The device's
 * bugs are another table (quirks.c), applied after this one.
 *
 * "bench" below is `clpad bench` (bench/README.md): the recorded runs are in
 * bench/results/, and the rows the values come from are named there. */
#include "device/context.h"

#include <string.h>

/* One row: which devices it is for, and its numbers. */
struct clpad_tuning_row {
    const char *name;          /* for clpad_context_tuning_name */
    const char *platform;      /* substring of CL_PLATFORM_NAME; NULL: any */
    cl_device_type type;       /* CL_DEVICE_TYPE_CPU or _GPU (accelerators: as GPUs) */
    /* The policy's numbers (context.h names them), but the two the device
     * decides: small_call_bytes and nt_output_bytes, 0 here, come from the
     * next two. */
    clpad_launch_policy policy;
    unsigned nt_cache_divisor; /* streaming stores from cache / this many bytes of output
                                  (CPU devices); 0: never */
    uint64_t small_call_bytes_1cu; /* small-call threshold of one compute unit (divided by
                                      the compute units; CPU devices with unified memory) */
};

/* Numbers shared by the rows, named once. */
enum {
    /* 256 work-items: within every device's limit that matters here; 8
     * groups per compute unit keep each busy; 1, 4, 16 or 64 rows per group:
     * few local sizes for drivers that compile one kernel per local size
     * (PoCL); 8 vectors (128 bytes) per GPU work-item. From the first
     * design round (bench/README.md, "Launch geometry"); on GPUs from the
     * GPU review (docs/devices.md, "GPU readiness": every local size within
     * CL_DEVICE_MAX_WORK_ITEM_SIZES, global sizes multiples of it), not
     * measured on a GPU. */
    MAX_LOCAL = 256,
    GROUPS_PER_CU = 8,
    MAX_LOCAL_Y = 64,
    GPU_ITEMS = 8,
    /* Short rows per CPU work-item: about 16 KiB (bench: f16-4x256x56x56,
     * PoCL), at least 4 items per wanted group. */
    CPU_ITEM_BYTES = 16384,
    CPU_MIN_ITEMS = 4,
    /* Streaming stores for interior stretches of 64 KiB and more, in
     * outputs of a quarter of the cache and more (bench: nchw-f32 and 1d
     * cases, PoCL and Intel, bench/README.md "Streaming stores"). */
    NT_STRETCH = 65536,
    NT_CACHE_DIVISOR = 4,
};
/* The small-call threshold: 16 MiB moved on one compute unit (8 MiB on
 * two): below the crossover where the kernel's fixed cost per call (20-100
 * us on PoCL and Intel's runtime) outweighs its parallelism (bench/README.md,
 * "Small host-pointer calls on a CPU device": small-f32-1x3x224x224, 0.77-1.21
 * x the device copy on the CPU path). */
#define SMALL_CALL_1CU ((uint64_t)16 << 20)

/* A row's policy, space/batch's vector width `sb` its one number that
 * differs between rows. */
#define POLICY(sb)                                                                      \
    {.max_local = MAX_LOCAL, .groups_per_cu = GROUPS_PER_CU, .max_local_y = MAX_LOCAL_Y, \
     .gpu_items = GPU_ITEMS, .cpu_item_bytes = CPU_ITEM_BYTES,                           \
     .cpu_min_items_per_group = CPU_MIN_ITEMS, .nt_stretch_bytes = NT_STRETCH,          \
     .sb_vector = (sb)}
#define CPU_COMMON(sb) POLICY(sb), NT_CACHE_DIVISOR, SMALL_CALL_1CU
#define GPU_COMMON POLICY(0), 0, 0

/* The first row that matches the device applies. */
static const struct clpad_tuning_row rows[] = {
    /* PoCL's pthread CPU device: clang vectorises the kernels' strided loops
     * itself; split vectors measured no faster on space/batch NCHW
     * (bench/README.md, "Device table": sb_vector 0 / 4 / 8). */
    {"pocl-cpu", "Portable Computing Language", CL_DEVICE_TYPE_CPU, CPU_COMMON(0)},
    /* Intel's CPU runtime vectorises across work-items, not the loops of one:
     * with the CPU geometry's one work-item per row, a block-2 row moved one
     * unit at a time ran space_to_batch NCHW at 0.35-0.82 x the device copy;
     * in vectors of 8, 0.74-1.02 (bench/README.md, "Device table"). */
    {"intel-cpu", "Intel(R) OpenCL", CL_DEVICE_TYPE_CPU, CPU_COMMON(8)},
    /* Mesa rusticl on llvmpipe and Oclgrind: correctness targets of the
     * implementation matrix, not timed; the CPU numbers. */
    {"rusticl-cpu", "rusticl", CL_DEVICE_TYPE_CPU, CPU_COMMON(0)},
    {"oclgrind", "Oclgrind", 0, CPU_COMMON(0)},
    /* Any other CPU device. */
    {"cpu", NULL, CL_DEVICE_TYPE_CPU, CPU_COMMON(0)},
    /* GPUs: no GPU is available to measure on (docs/devices.md, "GPU
     * readiness"); every vendor gets the generic GPU numbers, each vendor's
     * row the place for its measured ones. Local sizes 1-256 are multiples
     * of NVIDIA's warp (32) and AMD's wavefront (64) from 64 on. */
    {"nvidia-gpu", "NVIDIA", CL_DEVICE_TYPE_GPU, GPU_COMMON},
    {"amd-gpu", "AMD", CL_DEVICE_TYPE_GPU, GPU_COMMON},
    {"intel-gpu", "Intel", CL_DEVICE_TYPE_GPU, GPU_COMMON},
    {"gpu", NULL, 0, GPU_COMMON},
};

void clpad__device_tuning(clpad_context *ctx)
{
    const struct clpad_tuning_row *r = rows;
    bool cpu = (ctx->device_type & CL_DEVICE_TYPE_CPU) != 0;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        r = &rows[i];
        bool type_ok = !r->type || (r->type == CL_DEVICE_TYPE_CPU) == cpu;
        if (type_ok && (!r->platform || strstr(ctx->platform_name, r->platform)))
            break;
    }
    ctx->tuning_name = r->name;
    ctx->policy = r->policy;
    /* Streaming stores pay off once the output would not stay in the cache
     * anyway (64 MiB when the device reports no cache size). */
    if (cpu && r->nt_cache_divisor) {
        cl_ulong cache = 0;
        clGetDeviceInfo(ctx->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
        ctx->policy.nt_output_bytes = cache ? cache / r->nt_cache_divisor : (uint64_t)64 << 20;
    }
    /* Small host-pointer calls run the CPU path: CPU devices with host-unified
     * memory only, the threshold shrinking as compute units add parallelism. */
    if (cpu && ctx->unified_memory && r->small_call_bytes_1cu) {
        cl_uint cus = ctx->compute_units ? ctx->compute_units : 1;
        ctx->policy.small_call_bytes = r->small_call_bytes_1cu / cus;
    }
}
