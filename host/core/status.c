/* Status codes, error messages, OpenCL error names, version, dtype and mode names. */
#include "core/core.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* The last error of the calling thread: its message (clpad_last_error) and
 * its structure (clpad_last_error_info). */
static _Thread_local char g_last_error[1024];
static _Thread_local clpad_status g_status;
static _Thread_local char g_argument[32];
static _Thread_local int64_t g_index = -1;

const char *clpad_status_name(clpad_status status)
{
    switch (status) {
#define CLPAD_X_NAME(name, value, text) \
    case name:                          \
        return #name;
        CLPAD_STATUS_LIST(CLPAD_X_NAME)
#undef CLPAD_X_NAME
    }
    return "CLPAD_UNKNOWN_STATUS";
}

const char *clpad_status_string(clpad_status status)
{
    switch (status) {
#define CLPAD_X_TEXT(name, value, text) \
    case name:                          \
        return text;
        CLPAD_STATUS_LIST(CLPAD_X_TEXT)
#undef CLPAD_X_TEXT
    }
    return "unknown status";
}

const char *clpad_last_error(void) { return g_last_error; }

void clpad__clear_error(void)
{
    g_last_error[0] = '\0';
    g_status = CLPAD_OK;
    g_argument[0] = '\0';
    g_index = -1;
}

/* Record a failure: its message from fmt, and its structure. */
static clpad_status record(clpad_status status, const char *argument, int64_t index,
                           const char *fmt, va_list ap) CLPAD_PRINTF(4, 0);
static clpad_status record(clpad_status status, const char *argument, int64_t index,
                           const char *fmt, va_list ap)
{
    char msg[sizeof g_last_error];
    vsnprintf(msg, sizeof msg, fmt, ap); /* (fmt's arguments may be the last message) */
    memcpy(g_last_error, msg, sizeof msg);
    g_status = status;
    snprintf(g_argument, sizeof g_argument, "%s", argument ? argument : "");
    g_index = argument ? index : -1;
    return status;
}

clpad_status clpad__fail(clpad_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(status, NULL, -1, fmt, ap);
    va_end(ap);
    return status;
}

clpad_status clpad__fail_at(clpad_status status, const char *argument, int64_t index,
                            const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(status, argument, index, fmt, ap);
    va_end(ap);
    return status;
}

clpad_status clpad_last_error_info(clpad_error_info *info)
{
    if (!info)
        return CLPAD_ERR_INVALID_ARGUMENT; /* (the thread's error stays as it was) */
    size_t min = offsetof(clpad_error_info, message) + sizeof info->message;
    if (info->size < min)
        return CLPAD_ERR_INVALID_ARGUMENT;
    clpad_error_info e = {.size = sizeof e, .status = g_status, .index = g_index,
                          .message = g_last_error};
    memcpy(e.argument, g_argument, sizeof e.argument);
    size_t n = info->size < sizeof e ? info->size : sizeof e;
    memcpy(info, &e, n);
    info->size = n;
    return CLPAD_OK;
}

clpad_status clpad__versioned_in(void *out, size_t out_size, const void *user, size_t min,
                                 const uint64_t *reserved, int nreserved, const char *what,
                                 const char *arg, const char *init)
{
    size_t size;
    memcpy(&size, user, sizeof size);
    if (size < min)
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, arg, -1,
                              "%s: size = %zu is smaller than the first version's %zu bytes "
                              "(fill it with %s)",
                              what, size, min, init);
    memcpy(out, user, size < out_size ? size : out_size);
    for (size_t k = out_size; k < size; k++)
        if (((const unsigned char *)user)[k])
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, arg, -1,
                                  "%s: a non-zero byte at offset %zu, past the fields this "
                                  "library version knows (%zu bytes)",
                                  what, k, out_size);
    for (int k = 0; k < nreserved; k++)
        if (reserved[k])
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, arg, -1,
                                  "%s: reserved[%d] must be 0", what, k);
    return CLPAD_OK;
}

bool clpad__sized_init(void *p, size_t n)
{
    if (!p)
        return false;
    memset(p, 0, n);
    memcpy(p, &n, sizeof n);
    return true;
}

clpad_status clpad__sized_check(size_t size, size_t min, const char *fn, const char *field,
                                const char *arg, int64_t index, const char *hint)
{
    if (size >= min)
        return CLPAD_OK;
    return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, arg, index,
                          "%s: %s is %zu, not at least %zu: %s", fn, field, size, min, hint);
}

void clpad__sized_put(void *dst, size_t dst_size, void *value, size_t n)
{
    memcpy(value, &dst_size, sizeof dst_size);
    memcpy(dst, value, dst_size < n ? dst_size : n);
}

clpad_status clpad__fail_cl(cl_int err, const char *what)
{
    return clpad__fail(clpad_status_from_cl(err), "%s failed: %s (%d)", what,
                       clpad_cl_error_name(err), (int)err);
}

#define CLPAD_CL_ERRORS(X)                                                              \
    X(CL_SUCCESS, 0) X(CL_DEVICE_NOT_FOUND, -1) X(CL_DEVICE_NOT_AVAILABLE, -2)          \
    X(CL_COMPILER_NOT_AVAILABLE, -3) X(CL_MEM_OBJECT_ALLOCATION_FAILURE, -4)            \
    X(CL_OUT_OF_RESOURCES, -5) X(CL_OUT_OF_HOST_MEMORY, -6)                             \
    X(CL_PROFILING_INFO_NOT_AVAILABLE, -7) X(CL_MEM_COPY_OVERLAP, -8)                   \
    X(CL_IMAGE_FORMAT_MISMATCH, -9) X(CL_IMAGE_FORMAT_NOT_SUPPORTED, -10)               \
    X(CL_BUILD_PROGRAM_FAILURE, -11) X(CL_MAP_FAILURE, -12)                             \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET, -13)                                             \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, -14)                                \
    X(CL_COMPILE_PROGRAM_FAILURE, -15) X(CL_LINKER_NOT_AVAILABLE, -16)                  \
    X(CL_LINK_PROGRAM_FAILURE, -17) X(CL_DEVICE_PARTITION_FAILED, -18)                  \
    X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, -19) X(CL_INVALID_VALUE, -30)                   \
    X(CL_INVALID_DEVICE_TYPE, -31) X(CL_INVALID_PLATFORM, -32) X(CL_INVALID_DEVICE, -33) \
    X(CL_INVALID_CONTEXT, -34) X(CL_INVALID_QUEUE_PROPERTIES, -35)                      \
    X(CL_INVALID_COMMAND_QUEUE, -36) X(CL_INVALID_HOST_PTR, -37)                        \
    X(CL_INVALID_MEM_OBJECT, -38) X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, -39)            \
    X(CL_INVALID_IMAGE_SIZE, -40) X(CL_INVALID_SAMPLER, -41) X(CL_INVALID_BINARY, -42)  \
    X(CL_INVALID_BUILD_OPTIONS, -43) X(CL_INVALID_PROGRAM, -44)                         \
    X(CL_INVALID_PROGRAM_EXECUTABLE, -45) X(CL_INVALID_KERNEL_NAME, -46)                \
    X(CL_INVALID_KERNEL_DEFINITION, -47) X(CL_INVALID_KERNEL, -48)                      \
    X(CL_INVALID_ARG_INDEX, -49) X(CL_INVALID_ARG_VALUE, -50) X(CL_INVALID_ARG_SIZE, -51) \
    X(CL_INVALID_KERNEL_ARGS, -52) X(CL_INVALID_WORK_DIMENSION, -53)                    \
    X(CL_INVALID_WORK_GROUP_SIZE, -54) X(CL_INVALID_WORK_ITEM_SIZE, -55)                \
    X(CL_INVALID_GLOBAL_OFFSET, -56) X(CL_INVALID_EVENT_WAIT_LIST, -57)                 \
    X(CL_INVALID_EVENT, -58) X(CL_INVALID_OPERATION, -59) X(CL_INVALID_GL_OBJECT, -60)  \
    X(CL_INVALID_BUFFER_SIZE, -61) X(CL_INVALID_MIP_LEVEL, -62)                         \
    X(CL_INVALID_GLOBAL_WORK_SIZE, -63) X(CL_INVALID_PROPERTY, -64)                     \
    X(CL_INVALID_IMAGE_DESCRIPTOR, -65) X(CL_INVALID_COMPILER_OPTIONS, -66)             \
    X(CL_INVALID_LINKER_OPTIONS, -67) X(CL_INVALID_DEVICE_PARTITION_COUNT, -68)         \
    X(CL_PLATFORM_NOT_FOUND_KHR, -1001)

const char *clpad_cl_error_name(cl_int err)
{
    switch (err) {
#define CLPAD_X_CL(name, value) \
    case value:                 \
        return #name;
        CLPAD_CL_ERRORS(CLPAD_X_CL)
#undef CLPAD_X_CL
    }
    return "CL_UNKNOWN_ERROR";
}

clpad_status clpad_status_from_cl(cl_int err)
{
    switch (err) {
    case CL_SUCCESS:
        return CLPAD_OK;
    case CL_OUT_OF_RESOURCES:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
        return CLPAD_ERR_DEVICE_OUT_OF_RESOURCES;
    case CL_OUT_OF_HOST_MEMORY:
        return CLPAD_ERR_OUT_OF_MEMORY;
    case CL_BUILD_PROGRAM_FAILURE:
    case CL_COMPILE_PROGRAM_FAILURE:
    case CL_LINK_PROGRAM_FAILURE:
    case CL_COMPILER_NOT_AVAILABLE:
        return CLPAD_ERR_BUILD_FAILED;
    case CL_DEVICE_NOT_FOUND:
    case -1001: /* CL_PLATFORM_NOT_FOUND_KHR */
        return CLPAD_ERR_NO_DEVICE;
    default:
        return CLPAD_ERR_OPENCL;
    }
}

const char *clpad_version_string(void) { return CLPAD_VERSION_STRING; }
unsigned clpad_version(void) { return CLPAD_VERSION_NUMBER; }

/* ---- dtypes and modes ---------------------------------------------------- */

static const struct {
    const char *name;
    const char *numpy_name;
    size_t size;
} k_dtypes[CLPAD_DTYPE_COUNT] = {
    [CLPAD_BOOL] = {"bool", "bool_", 1}, [CLPAD_I8] = {"i8", "int8", 1},
    [CLPAD_U8] = {"u8", "uint8", 1},     [CLPAD_I16] = {"i16", "int16", 2},
    [CLPAD_U16] = {"u16", "uint16", 2},  [CLPAD_I32] = {"i32", "int32", 4},
    [CLPAD_U32] = {"u32", "uint32", 4},  [CLPAD_I64] = {"i64", "int64", 8},
    [CLPAD_U64] = {"u64", "uint64", 8},  [CLPAD_F16] = {"f16", "float16", 2},
    [CLPAD_BF16] = {"bf16", "bfloat16", 2}, [CLPAD_F32] = {"f32", "float32", 4},
    [CLPAD_F64] = {"f64", "float64", 8},
};

size_t clpad_dtype_size(clpad_dtype dtype)
{
    return (unsigned)dtype < CLPAD_DTYPE_COUNT ? k_dtypes[dtype].size : 0;
}

const char *clpad_dtype_name(clpad_dtype dtype)
{
    return (unsigned)dtype < CLPAD_DTYPE_COUNT ? k_dtypes[dtype].name : NULL;
}

clpad_status clpad_dtype_from_name(const char *name, clpad_dtype *dtype)
{
    clpad__clear_error();
    if (!name || !dtype)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "dtype name and result must not be NULL");
    for (int i = 0; i < CLPAD_DTYPE_COUNT; i++) {
        if (!strcasecmp(name, k_dtypes[i].name) || !strcasecmp(name, k_dtypes[i].numpy_name) ||
            (i == CLPAD_BOOL && !strcasecmp(name, "bool"))) {
            *dtype = (clpad_dtype)i;
            return CLPAD_OK;
        }
    }
    return clpad__fail(CLPAD_ERR_PARSE,
                       "unknown dtype '%s' (expected bool, i8, u8, i16, u16, i32, u32, i64, "
                       "u64, f16, bf16, f32 or f64)",
                       name);
}

static const char *const k_modes[CLPAD_PAD_MODE_COUNT] = {"constant", "edge", "reflect",
                                                          "symmetric", "wrap"};

const char *clpad_pad_mode_name(clpad_pad_mode mode)
{
    return (unsigned)mode < CLPAD_PAD_MODE_COUNT ? k_modes[mode] : NULL;
}

clpad_status clpad_pad_mode_from_name(const char *name, clpad_pad_mode *mode)
{
    clpad__clear_error();
    if (!name || !mode)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad_mode name and result must not be NULL");
    for (int i = 0; i < CLPAD_PAD_MODE_COUNT; i++) {
        if (!strcasecmp(name, k_modes[i])) {
            *mode = (clpad_pad_mode)i;
            return CLPAD_OK;
        }
    }
    return clpad__fail(CLPAD_ERR_PARSE,
                       "unknown pad_mode '%s' (expected constant, edge, reflect, symmetric or wrap)",
                       name);
}

/* ---- shared checks -------------------------------------------------------- */

bool clpad__count(int rank, const int64_t *shape, size_t elem_size, int64_t *elems,
                  size_t *bytes)
{
    /* The product of the non-zero dimensions must fit, in any order: an axis
     * of 0 makes the tensor empty, but [2^40, 2^40, 0] and [0, 2^40, 2^40]
     * are refused alike, and every partial product of an accepted shape
     * fits (the plans multiply dimensions freely). */
    int64_t n = 1;
    bool empty = false;
    for (int i = 0; i < rank; i++) {
        if (shape[i] == 0) {
            empty = true;
            continue;
        }
        if (!clpad__mul_i64(n, shape[i], &n))
            return false;
    }
    size_t b;
    if ((uint64_t)n > SIZE_MAX || __builtin_mul_overflow((size_t)n, elem_size, &b))
        return false;
    if (empty)
        n = 0, b = 0;
    if (elems)
        *elems = n;
    if (bytes)
        *bytes = b;
    return true;
}

clpad_status clpad__check_rank_shape(const char *op, int rank, int min_rank,
                                     const int64_t *shape)
{
    if (rank < min_rank || rank > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: rank %d is outside %d..%d", op, rank,
                           min_rank, CLPAD_MAX_RANK);
    if (rank > 0 && !shape)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: shape is NULL", op);
    for (int i = 0; i < rank; i++)
        if (shape[i] < 0)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE, "%s: shape[%d] = %lld is negative", op, i,
                               (long long)shape[i]);
    return CLPAD_OK;
}

clpad_status clpad__check_host_buffers(const char *op, const void *input, size_t in_bytes,
                                       const void *output, size_t out_bytes,
                                       size_t output_bytes)
{
    if (output_bytes < out_bytes)
        return clpad__fail(CLPAD_ERR_BUFFER_TOO_SMALL,
                           "%s: output_bytes = %zu, but the output needs %zu bytes", op,
                           output_bytes, out_bytes);
    if (out_bytes == 0)
        return CLPAD_OK;
    if (!output)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: output is NULL", op);
    if (in_bytes > 0 && !input)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: input is NULL", op);
    return CLPAD_OK;
}

uint64_t clpad__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
