/* Device discovery and choice, context creation, wrapping and teardown, and
 * the launch policy of each device. */
#include "device/launch.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

/* Platforms, or 0 of them when the ICD loader finds none (-1001). */
static cl_int get_platforms(cl_platform_id *ids, cl_uint *n)
{
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(MAX_PLATFORMS, ids, &count);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && count == 0)) {
        *n = 0;
        return CL_SUCCESS;
    }
    *n = count < MAX_PLATFORMS ? count : MAX_PLATFORMS;
    return err;
}

static cl_uint get_devices(cl_platform_id platform, cl_device_id *ids)
{
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, MAX_DEVICES, ids, &count) != CL_SUCCESS)
        return 0; /* CL_DEVICE_NOT_FOUND: a platform without devices */
    return count < MAX_DEVICES ? count : MAX_DEVICES;
}

void clpad_device_info_init(clpad_device_info *info)
{
    clpad__sized_init(info, sizeof *info);
}

/* One device's info into `dst`, `size` bytes of it (its size field set). */
static void fill_info(cl_platform_id platform, cl_device_id dev, unsigned pi, unsigned di,
                      void *dst, size_t size)
{
    clpad_device_info full, *info = &full;
    clpad_device_info_init(info);
    info->platform_index = pi;
    info->device_index = di;
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof info->platform_name - 1,
                      info->platform_name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof info->device_name - 1, info->device_name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof info->device_version - 1,
                    info->device_version, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL);
    cl_bool unified = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    info->host_unified_memory = unified == CL_TRUE;
    cl_uint cu = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    info->compute_units = cu;
    cl_ulong mem = 0;
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
    info->global_mem_bytes = mem;
    clpad__sized_put(dst, size, &full, sizeof full);
}

clpad_status clpad_devices(clpad_device_info *infos, size_t capacity, size_t *count)
{
    clpad__clear_error();
    if (!count || (capacity && !infos))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "devices: count/infos is NULL");
    size_t first = offsetof(clpad_device_info, global_mem_bytes) + sizeof infos->global_mem_bytes;
    size_t stride = capacity ? infos[0].size : 0;
    clpad_status st;
    if (capacity && (st = clpad__sized_check(stride, first, "devices", "infos[0].size", "infos",
                                             0, "fill it with clpad_device_info_init()")))
        return st;
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np;
    cl_int err = get_platforms(plats, &np);
    if (err != CL_SUCCESS)
        return clpad__fail_cl(err, "clGetPlatformIDs");
    size_t total = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = get_devices(plats[p], devs);
        for (cl_uint d = 0; d < nd; d++, total++)
            if (total < capacity)
                fill_info(plats[p], devs[d], p, d, (unsigned char *)infos + total * stride, stride);
    }
    *count = total;
    return CLPAD_OK;
}

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

/* Choose a device by spec ("P:D" or a name substring) or by type preference. */
static clpad_status choose_device(const char *spec, cl_platform_id *platform, cl_device_id *device)
{
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np;
    cl_int err = get_platforms(plats, &np);
    if (err != CL_SUCCESS)
        return clpad__fail_cl(err, "clGetPlatformIDs");
    unsigned want_p = 0, want_d = 0;
    int consumed = 0;
    bool by_index = spec && sscanf(spec, "%u:%u%n", &want_p, &want_d, &consumed) == 2 &&
                    spec[consumed] == '\0';
    static const cl_device_type prefs[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR,
                                           CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_ALL};
    bool any = false;
    for (size_t pref = 0; pref < (spec ? 1 : sizeof prefs / sizeof *prefs); pref++) {
        for (cl_uint p = 0; p < np; p++) {
            cl_device_id devs[MAX_DEVICES];
            cl_uint nd = get_devices(plats[p], devs);
            for (cl_uint d = 0; d < nd; d++) {
                any = true;
                clpad_device_info info;
                fill_info(plats[p], devs[d], p, d, &info, sizeof info);
                bool ok;
                if (by_index)
                    ok = p == want_p && d == want_d;
                else if (spec)
                    ok = contains_nocase(info.device_name, spec) ||
                         contains_nocase(info.platform_name, spec);
                else
                    ok = (info.type & prefs[pref]) != 0;
                if (ok) {
                    *platform = plats[p];
                    *device = devs[d];
                    return CLPAD_OK;
                }
            }
        }
    }
    if (!any)
        return clpad__fail(CLPAD_ERR_NO_DEVICE,
                           "no OpenCL platform or device found (is an ICD such as "
                           "pocl-opencl-icd installed?)");
    return clpad__fail(CLPAD_ERR_DEVICE_NOT_FOUND,
                       "no OpenCL device matches '%s' (list them with `clpad devices`)", spec);
}

/* A new context with its configuration resolved from `config` (NULL: the
 * defaults) and the environment; nothing of OpenCL yet. */
static clpad_status alloc_context(const clpad_context_config *config, clpad_context **out)
{
    clpad_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "context: out of host memory");
    if (pthread_mutex_init(&ctx->lock, NULL) != 0) {
        free(ctx);
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "context: cannot create a mutex");
    }
    clpad_status st = clpad__config_resolve(ctx, config);
    if (st) {
        clpad_context_destroy(ctx);
        return st;
    }
    *out = ctx;
    return CLPAD_OK;
}

/* The launch policy of this device: the device table's row (table.c), then
 * the context's configuration, and the device's float facts. */
static void set_policy(clpad_context *ctx)
{
    clpad__device_tuning(ctx);
    const clpad_context_config *c = &ctx->config;
    if (c->nontemporal == CLPAD_NONTEMPORAL_OFF)
        ctx->policy.nt_output_bytes = 0;
    else if (c->nontemporal == CLPAD_NONTEMPORAL_ALWAYS)
        ctx->policy.nt_output_bytes = 1;
    if (ctx->device_only)
        ctx->policy.small_call_bytes = 0;
    else if (ctx->policy.small_call_bytes && c->small_call_bytes != CLPAD_CONFIG_DEFAULT)
        ctx->policy.small_call_bytes = (uint64_t)c->small_call_bytes;
    /* exact_fp32 = 0 treats the device as inexact (the tests run the table
     * variants of letterbox this way). */
    cl_device_fp_config fp = 0;
    const cl_device_fp_config exact =
        CL_FP_DENORM | CL_FP_ROUND_TO_NEAREST | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    clGetDeviceInfo(ctx->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL);
    ctx->policy.exact_fp32 = (fp & exact) == exact && c->exact_fp32 != 0;
    const cl_device_fp_config mul = CL_FP_DENORM | CL_FP_ROUND_TO_NEAREST;
    ctx->policy.exact_mul_fp32 = (fp & mul) == mul && c->exact_fp32 != 0;
}

/* The build options every program of the device gets, from its policy. */
static void set_device_options(clpad_context *ctx)
{
    snprintf(ctx->device_options, sizeof ctx->device_options, "-cl-std=CL1.2%s%s",
             ctx->policy.nt_output_bytes ? " -DCLPAD_NT=1" : "", clpad__quirk_options(ctx));
}

/* Read the device facts the launch code uses. */
static void read_device(clpad_context *ctx)
{
    clGetDeviceInfo(ctx->device, CL_DEVICE_NAME, sizeof ctx->device_name - 1, ctx->device_name,
                    NULL);
    if (ctx->platform)
        clGetPlatformInfo(ctx->platform, CL_PLATFORM_NAME, sizeof ctx->platform_name - 1,
                          ctx->platform_name, NULL);
    cl_bool unified = CL_FALSE;
    clGetDeviceInfo(ctx->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    ctx->unified_memory = unified == CL_TRUE;
    if (ctx->config.zero_copy == 0) /* always copy (debugging, tests) */
        ctx->unified_memory = 0;
    clGetDeviceInfo(ctx->device, CL_DEVICE_TYPE, sizeof ctx->device_type, &ctx->device_type, NULL);
    /* Launch geometry of one style whatever the device (tests run the
     * GPU-style work distribution on PoCL this way). */
    ctx->row_geometry = ctx->config.geometry == CLPAD_GEOMETRY_CPU   ? 1
                        : ctx->config.geometry == CLPAD_GEOMETRY_GPU ? 2
                                                                     : 0;
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof ctx->compute_units,
                    &ctx->compute_units, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof ctx->max_wg,
                    &ctx->max_wg, NULL);
    cl_uint bits = 0;
    clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    ctx->mem_base_align = bits / 8 ? bits / 8 : 1;
    if (!ctx->max_wg)
        ctx->max_wg = 1;
    /* Work-items per group along each dimension: a limit of its own (64
     * along y on some GPUs); the work-group limit where the query fails. */
    size_t items[16] = {0};
    cl_uint dims = 0;
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL);
    if (dims < 2 || dims > 16 ||
        clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof *items, items,
                        NULL) != CL_SUCCESS)
        items[0] = items[1] = 0;
    for (int d = 0; d < 2; d++)
        ctx->max_item[d] = items[d] ? items[d] : ctx->max_wg;
    clGetDeviceInfo(ctx->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ctx->max_alloc,
                    &ctx->max_alloc, NULL);
    /* config.max_alloc (bytes) lowers that limit: the tests run the pieces
     * that outputs beyond it take on small tensors. */
    uint64_t lim = ctx->config.max_alloc;
    if (lim > 0 && (!ctx->max_alloc || lim < ctx->max_alloc))
        ctx->max_alloc = lim;
    if (!ctx->max_alloc)
        ctx->max_alloc = (cl_ulong)1 << 27; /* the minimum OpenCL 1.2 guarantees */
    set_policy(ctx);
    clpad__apply_quirks(ctx); /* after the policy: a quirk overrides it */
    set_device_options(ctx);
}

clpad_status clpad_context_create(const clpad_context_config *config, clpad_context **out)
{
    clpad__clear_error();
    if (!out)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "context: result pointer is NULL");
    clpad_context *ctx = NULL;
    clpad_status st = alloc_context(config, &ctx);
    if (st)
        return st;
    unsigned flags = ctx->config.flags;
    ctx->device_only = (flags & CLPAD_CONTEXT_DEVICE_ONLY) != 0;
    ctx->verbose = (flags & CLPAD_CONTEXT_VERBOSE) != 0;
    if (flags & CLPAD_CONTEXT_CPU_ONLY) {
        ctx->fallback = 1;
        *out = ctx;
        return CLPAD_OK;
    }
    const char *spec = ctx->config.device;
    st = choose_device(spec, &ctx->platform, &ctx->device);
    if (st == CLPAD_ERR_NO_DEVICE && !spec && !(flags & CLPAD_CONTEXT_NO_FALLBACK)) {
        if (flags & CLPAD_CONTEXT_VERBOSE)
            fprintf(stderr, "clpad: %s; using the CPU path\n", clpad_last_error());
        ctx->fallback = 1;
        *out = ctx;
        clpad__clear_error();
        return CLPAD_OK;
    }
    if (st) {
        clpad_context_destroy(ctx);
        return st;
    }
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx->platform,
                                     0};
    ctx->cl_ctx = clCreateContext(props, 1, &ctx->device, NULL, NULL, &err);
    if (!ctx->cl_ctx) {
        st = clpad__fail_cl(err, "clCreateContext");
        clpad_context_destroy(ctx);
        return st;
    }
    ctx->queue = clCreateCommandQueue(ctx->cl_ctx, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!ctx->queue) {
        st = clpad__fail_cl(err, "clCreateCommandQueue");
        clpad_context_destroy(ctx);
        return st;
    }
    ctx->queue_profiling = 1;
    read_device(ctx);
    *out = ctx;
    return CLPAD_OK;
}

clpad_status clpad_context_wrap(cl_context cl_ctx, cl_command_queue queue, clpad_context **out)
{
    clpad__clear_error();
    if (!cl_ctx || !queue || !out)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "context_wrap: cl_context, queue and result must not be NULL");
    cl_device_id dev;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    if (err != CL_SUCCESS)
        return clpad__fail_cl(err, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)");
    cl_command_queue_properties qp = 0;
    clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL);
    clpad_context *ctx = NULL;
    clpad_status st = alloc_context(NULL, &ctx);
    if (st)
        return st;
    ctx->device = dev;
    clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof ctx->platform, &ctx->platform, NULL);
    if ((err = clRetainContext(cl_ctx)) != CL_SUCCESS) {
        clpad_context_destroy(ctx);
        return clpad__fail_cl(err, "clRetainContext");
    }
    ctx->cl_ctx = cl_ctx;
    if ((err = clRetainCommandQueue(queue)) != CL_SUCCESS) {
        clpad_context_destroy(ctx);
        return clpad__fail_cl(err, "clRetainCommandQueue");
    }
    ctx->queue = queue;
    ctx->queue_profiling = (qp & CL_QUEUE_PROFILING_ENABLE) != 0;
    read_device(ctx);
    *out = ctx;
    return CLPAD_OK;
}

void clpad_context_destroy(clpad_context *ctx)
{
    if (!ctx)
        return;
    clpad__program_cache_free(ctx);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->cl_ctx)
        clReleaseContext(ctx->cl_ctx);
    free(ctx->build_log);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

int clpad_context_is_fallback(const clpad_context *ctx) { return ctx ? ctx->fallback : 0; }

const char *clpad_context_device_name(const clpad_context *ctx)
{
    if (!ctx)
        return "";
    return ctx->fallback ? "CPU reference (no OpenCL)" : ctx->device_name;
}

const char *clpad_context_tuning(const clpad_context *ctx)
{
    return ctx && !ctx->fallback && ctx->tuning_name ? ctx->tuning_name : "";
}

const char *clpad_context_platform_name(const clpad_context *ctx)
{
    return ctx ? ctx->platform_name : "";
}

cl_context clpad_context_cl_context(const clpad_context *ctx) { return ctx ? ctx->cl_ctx : NULL; }
cl_command_queue clpad_context_queue(const clpad_context *ctx) { return ctx ? ctx->queue : NULL; }
cl_device_id clpad_context_device(const clpad_context *ctx) { return ctx ? ctx->device : NULL; }

/* clpad_context_build_log's copies: one per thread, freed at the thread's
 * exit or at its next call, so that a failed build on another thread (which
 * replaces the context's log) never frees what a caller is reading. */
static pthread_key_t build_log_key;
static pthread_once_t build_log_once = PTHREAD_ONCE_INIT;
static void build_log_key_init(void) { pthread_key_create(&build_log_key, free); }

const char *clpad_context_build_log(const clpad_context *ctx)
{
    if (!ctx || ctx->fallback)
        return "";
    pthread_once(&build_log_once, build_log_key_init);
    clpad_context *c = (clpad_context *)ctx; /* the log is read under the lock */
    pthread_mutex_lock(&c->lock);
    char *copy = c->build_log ? strdup(c->build_log) : NULL;
    pthread_mutex_unlock(&c->lock);
    free(pthread_getspecific(build_log_key));
    pthread_setspecific(build_log_key, copy);
    return copy ? copy : "";
}

uint64_t clpad_context_launches(const clpad_context *ctx)
{
    if (!ctx)
        return 0;
    clpad_context *c = (clpad_context *)ctx; /* the counter is read under the lock */
    pthread_mutex_lock(&c->lock);
    uint64_t n = c->launches;
    pthread_mutex_unlock(&c->lock);
    return n;
}

clpad_status clpad__enqueue_enter(const clpad_context *ctx, const char *op)
{
    clpad__clear_error();
    if (!ctx)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: context is NULL", op);
    if (ctx->fallback)
        return clpad__fail(CLPAD_ERR_NO_DEVICE,
                           "%s: the context has no OpenCL device (CPU fallback); use the "
                           "host-pointer API",
                           op);
    return CLPAD_OK;
}

bool clpad__host_call_on_cpu(const clpad_context *ctx, uint64_t bytes)
{
    return ctx->fallback || bytes <= ctx->policy.small_call_bytes;
}
