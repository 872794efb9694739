/* Helpers shared by the CTest programs (cmocka). */
#ifndef CLPAD_TEST_UTIL_H
#define CLPAD_TEST_UTIL_H

#include "clpad.h"

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* cmocka needs these before its header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* Exit code CTest maps to "Skipped" (SKIP_RETURN_CODE in tests/CMakeLists.txt). */
#define TU_SKIP_CODE 77

/* The seed of this run: $CLPAD_TEST_SEED if set, else derived from the time.
 * Printed once so that a failing run can be replayed. */
uint64_t tu_seed(void);
/* splitmix64: next pseudo-random 64-bit value. */
uint64_t tu_rand(uint64_t *state);
/* Uniform integer in [lo, hi]. */
int64_t tu_range(uint64_t *state, int64_t lo, int64_t hi);
/* Fill n bytes with pseudo-random bytes. */
void tu_fill(void *p, size_t n, uint64_t *state);

/* PNG files written byte by byte (no encoder): the chunk CRC (CRC-32 of ISO
 * 3309, as the PNG specification gives it) of p[0..n); one chunk of `type`
 * and `len` bytes of `data` at out (length, type, data, CRC), its size; and
 * a whole PNG at out, its size: IHDR (w x h, depth, colour type), an
 * optional chunk `extra_type` before the image data (tRNS, eXIf; NULL:
 * none), one IDAT holding `raw` (filter bytes included, at most 65535 bytes)
 * in a stored deflate block with its Adler-32, IEND. out needs rawlen +
 * extra_len + 96 bytes. */
uint32_t tu_png_crc(const unsigned char *p, size_t n);
size_t tu_png_chunk(unsigned char *out, const char *type, const unsigned char *data, size_t len);
size_t tu_png_stored(unsigned char *out, uint32_t w, uint32_t h, int depth, int ctype,
                     const unsigned char *raw, size_t rawlen, const char *extra_type,
                     const unsigned char *extra, size_t extra_len);

/* clpad_context_create with a configuration of that device (NULL: the
 * default) and those flags, the rest left to the environment. */
clpad_status tu_context_create(const char *device, unsigned flags, clpad_context **ctx);

/* A context on the default OpenCL device (honours CLPAD_DEVICE) whose
 * host-pointer calls always run the kernel (CLPAD_CONTEXT_DEVICE_ONLY: no
 * small-call CPU path). When there is no OpenCL device, prints "SKIP: ..."
 * and exits with TU_SKIP_CODE, so that a device test is reported as skipped,
 * never as passed. */
clpad_context *tu_device_context(void);

/* "[2, 3]" for messages; returns buf. */
const char *tu_shape_str(int rank, const int64_t *shape, char *buf, size_t len);

/* Assert that `st` equals `want`; on mismatch, fail with clpad_last_error(). */
#define TU_ASSERT_STATUS(st, want)                                                   \
    do {                                                                             \
        clpad_status tu_st_ = (st);                                                  \
        if (tu_st_ != (want))                                                        \
            fail_msg("%s: got %s, want %s (%s)", #st, clpad_status_name(tu_st_),     \
                     clpad_status_name(want), clpad_last_error());                   \
    } while (0)
#define TU_ASSERT_OK(st) TU_ASSERT_STATUS(st, CLPAD_OK)

#endif

/* A Pad case for randomized tests. */
typedef struct tu_pad_case {
    clpad_dtype dtype;
    clpad_pad_mode mode;
    int rank;
    int64_t shape[CLPAD_MAX_RANK];
    int64_t pads_begin[CLPAD_MAX_RANK];
    int64_t pads_end[CLPAD_MAX_RANK];
    unsigned char value[8];
    /* per-axis modes (per_axis != 0; else `mode` on every axis) and
     * clpad_pad_options flags (CLPAD_PAD_LARGE_NUMPY) */
    int per_axis;
    clpad_pad_mode modes[CLPAD_MAX_RANK];
    unsigned flags;
} tu_pad_case;

/* A random valid case with one mode per axis (per_axis = 1, at least two
 * distinct modes among the padded axes when rank >= 2) and, if `large`,
 * CLPAD_PAD_LARGE_NUMPY with reflect / symmetric pads up to 5 periods;
 * negative pads on any axis. */
void tu_random_mixed_case(uint64_t *state, const int *ranks, int n_ranks, int64_t max_elems,
                          int large, tu_pad_case *c);
/* The case's options for the *_ex functions. */
void tu_pad_options(const tu_pad_case *c, clpad_pad_options *o);

/* A random valid case: rank from `ranks` (n_ranks entries), small axes,
 * positive, negative and mixed pads within the mode's limits, random dtype
 * and pad_value. Total output stays below ~max_elems elements. */
void tu_random_pad_case(uint64_t *state, const int *ranks, int n_ranks, int64_t max_elems,
                        tu_pad_case *c);
/* One line describing a case, for failure messages. */
const char *tu_pad_case_str(const tu_pad_case *c, char *buf, size_t len);

/* The test suite's own Pad oracle, written from The Pad table of docs/spec.md element by
 * element with no shared code: for each output index, map every coordinate
 * and copy one element. */
void tu_pad_naive(const tu_pad_case *c, const void *in, void *out);
/* Elements of a shape. */
int64_t tu_elems(int rank, const int64_t *shape);
/* A rank-3 row case [2, rows, W] of `dtype` and `mode`: rows of an interior of
 * at least `bytes` bytes kept (W widened by any crop), innermost pads (pb, pe),
 * pads 1 and 2 on the rows' axis (whole padded rows around them), pad value
 * from rng. false when the mode's limits forbid those pads. */
bool tu_row_case(tu_pad_case *c, clpad_dtype dtype, clpad_pad_mode mode, int64_t bytes,
                 int64_t rows, int64_t pb, int64_t pe, uint64_t *rng);
