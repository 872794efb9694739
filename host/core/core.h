/* The library's internal basics: error reporting, checked 64-bit arithmetic,
 * shape checks and the clock. Not installed. */
#ifndef CLPAD_CORE_H
#define CLPAD_CORE_H

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
/* clpad__fail for an error of one argument, and of its item `index` (an
 * image, a tensor, an axis; -1: the argument as a whole), which
 * clpad_last_error_info reports besides the message. */
clpad_status clpad__fail_at(clpad_status status, const char *argument, int64_t index,
                            const char *fmt, ...) CLPAD_PRINTF(4, 5);
/* Same for a failed OpenCL call: maps the error and names it in the message. */
clpad_status clpad__fail_cl(cl_int err, const char *what);
/* Clear the thread's message (called at the start of public calls). */
void clpad__clear_error(void);

/* Read a caller's versioned struct (include/: its first member the size_t
 * `size` the caller's _init set) into `out`, this library's version of it,
 * `out_size` bytes already holding the defaults: its first
 * min(size, out_size) bytes are copied over them. Refused, with a message
 * that starts "<what>: " and names the argument `arg`: a size below `min`
 * (the first version's; `init` is the function that fills one), a non-zero
 * byte past the fields this version knows, and a non-zero one of the
 * `nreserved` 64-bit `reserved` members (in out, after the copy). */
clpad_status clpad__versioned_in(void *out, size_t out_size, const void *user, size_t min,
                                 const uint64_t *reserved, int nreserved, const char *what,
                                 const char *arg, const char *init);

/* The start of every public _init of a versioned struct (its first member
 * the size_t `size`): zero the n bytes at p and set size to n. False (and
 * nothing done) when p is NULL. */
bool clpad__sized_init(void *p, size_t n);
/* A caller's versioned struct too small for this version: unless
 * size >= min, "<fn>: <field> is <size>, not at least <min>: <hint>" (how
 * to fill it), naming the argument `arg` (index: its item, or -1). */
clpad_status clpad__sized_check(size_t size, size_t min, const char *fn, const char *field,
                                const char *arg, int64_t index, const char *hint);
/* Write `value` (this version's struct, n bytes) to a caller's `dst` of
 * dst_size bytes (its size, checked by clpad__sized_check): the first
 * min(dst_size, n) bytes, with its size field set to dst_size. */
void clpad__sized_put(void *dst, size_t dst_size, void *value, size_t n);

/* Checked int64 arithmetic: return false on overflow (result untouched). */
static inline bool clpad__add_i64(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_add_overflow(a, b, r);
}
static inline bool clpad__mul_i64(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_mul_overflow(a, b, r);
}

/* Element count of a shape; false on overflow of int64 or size_t bytes. */
bool clpad__count(int rank, const int64_t *shape, size_t elem_size, int64_t *elems,
                  size_t *bytes);

/* Check rank and the arrays common to every op: rank in [min_rank, 8], shape
 * non-NULL with non-negative entries, each named array non-NULL. */
clpad_status clpad__check_rank_shape(const char *op, int rank, int min_rank,
                                     const int64_t *shape);

/* The host buffers of a host-pointer call of operation `op` whose input
 * has in_bytes and output out_bytes bytes, in the caller's buffers `input`
 * and `output` of output_bytes: output_bytes too small
 * (CLPAD_ERR_BUFFER_TOO_SMALL), a NULL output or input with a non-empty
 * tensor (CLPAD_ERR_INVALID_ARGUMENT). */
clpad_status clpad__check_host_buffers(const char *op, const void *input, size_t in_bytes,
                                       const void *output, size_t out_bytes,
                                       size_t output_bytes);

/* The environment variables clpad reads (docs/devices.md, "Environment"):
 * those of a context's configuration as its fields (CLPAD_CONFIG_DEFAULT,
 * NULL or 0 where unset), the process's thread count, and the variables
 * the default cache directory is made of. */
typedef struct clpad_environment {
    clpad_context_config config;
    int threads;               /* $CLPAD_THREADS; 0: unset */
    /* Measurement and test switches, not configuration: */
    int lb_band;               /* $CLPAD_LB_BAND: letterbox's band form on CPU devices,
                                  0 never, 1 always, -1 (unset) by batch */
    int stream_letterbox;      /* $CLPAD_STREAM_LETTERBOX: 1 "image" (per image on the
                                  decoder threads), 2 "batch" (one launch per batch
                                  on a device), 0 (unset) by device */
    const char *xdg_cache_home, *home;
} clpad_environment;
/* The one function that reads them (environment.c). */
void clpad__read_environment(clpad_environment *env);
/* Monotonic clock in nanoseconds. */
uint64_t clpad__now_ns(void);

#endif /* CLPAD_CORE_H */
