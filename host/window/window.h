/* Window geometry, internal: the checked arithmetic and the argument
 * handling every convention shares (host/window/common.c). Each convention
 * has its own file: window_trt.c (TensorRT), window_tf.c (TensorFlow and
 * Keras), window_onnx.c, window_openvino.c, window_torch.c (PyTorch); layout
 * conversions in window_layout.c, names in window_names.c. The rules are
 * stated in include/clpad_window.h. Not installed. */
#ifndef CLPAD_WINDOW_INTERNAL_H
#define CLPAD_WINDOW_INTERNAL_H

#include "core/core.h"

#include <stdbool.h>
#include <stdint.h>

#define TRY(expr)                                                                     \
    do {                                                                              \
        clpad_status try_st_ = (expr);                                                \
        if (try_st_ != CLPAD_OK)                                                      \
            return try_st_;                                                           \
    } while (0)

extern const char *const clpad__w_op_names[CLPAD_WINDOW_OP_COUNT];

enum rounding { ROUND_FLOOR, ROUND_CEIL, ROUND_CEIL_DROP };

clpad_status clpad__w_ck_add(int axis, const char *what, int64_t a, int64_t b, int64_t *r);
clpad_status clpad__w_ck_sub(int axis, const char *what, int64_t a, int64_t b, int64_t *r);
clpad_status clpad__w_ck_mul(int axis, const char *what, int64_t a, int64_t b, int64_t *r);
/* floor(a / b) and ceil(a / b) for b > 0, exact for negative a (C's `/`
 * truncates toward zero). b > 0 rules out INT64_MIN / -1. */
int64_t clpad__w_floor_div(int64_t a, int64_t b);
int64_t clpad__w_ceil_div(int64_t a, int64_t b);
/* Validate the arguments every front end shares and fill r->op, naxes, input,
 * extent and stride. `pool_dilation`: whether pooling accepts a dilation.
 * `stride_defaults_to_kernel`: a NULL stride means the kernel (PyTorch pools). */
clpad_status clpad__w_load_geometry(const char *who, clpad_window_op op, int naxes,
                                  const int64_t *input, const int64_t *kernel,
                                  const int64_t *stride, const int64_t *dilation,
                                  bool pool_dilation, bool stride_defaults_to_kernel,
                                  clpad_window_result *r);
/* Non-negative pads, as most conventions require. `name` is the argument. */
clpad_status clpad__w_check_nonneg(const char *who, const char *name, int naxes,
                                 const int64_t *pads);
/* Explicit pads B, A on axis i: record them in r and count r->output[i],
 * forward (conv, pool) with `rounding`, deconv by cropping them from `full`
 * (clpad__w_deconv_full; not read for the forward ops). */
clpad_status clpad__w_explicit_axis(const char *who, clpad_window_result *r, int i, int64_t B,
                                    int64_t A, enum rounding rounding, int64_t full);
/* Explicit conv / pool: O from I, B, A, DK, S. Requires M >= DK. With
 * ROUND_CEIL_DROP, a last window starting at or past I + B (in the end
 * padding) is dropped. */
clpad_status clpad__w_window_count(const char *who, int axis, int64_t I, int64_t B, int64_t A,
                                 int64_t DK, int64_t S, enum rounding rounding, int64_t *out);
/* SAME for conv / pool: O = ceil(I/S), P = (O-1)*S + DK - I (equal to
 * floor((I-1)/S)*S + DK - I for I >= 1), clamped at 0 when `clamp`, split
 * with the odd element at the end (upper) or the beginning (lower). */
clpad_status clpad__w_same_pads(int axis, int64_t I, int64_t DK, int64_t S, bool clamp,
                              bool upper, int64_t *O, int64_t *B, int64_t *A);
/* Full transposed-convolution length (I-1)*S + DK + output_padding. */
clpad_status clpad__w_deconv_full(int axis, int64_t I, int64_t S, int64_t DK, int64_t op,
                                int64_t *full);
/* Deconv with explicit crops: O = full - B - A, must be >= 1. */
clpad_status clpad__w_deconv_explicit(const char *who, int axis, int64_t full, int64_t B,
                                    int64_t A, int64_t *O);
/* output_padding range of ONNX and PyTorch: 0 <= op < max(S, d). */
clpad_status clpad__w_check_output_padding(const char *who, int naxes,
                                         const int64_t *output_padding,
                                         const int64_t *stride, const int64_t *dilation,
                                         bool upper_bound);
clpad_status clpad__w_check_output_shape(const char *who, int naxes, const int64_t *output_shape);
/* Deconv with a requested output size: total = full - O, of any sign (a
 * negative total extends the full output with zeros), split with the odd
 * element at the end (`extra_at_end`) or the beginning (floor halves). */
void clpad__w_deconv_split_to(int64_t full, int64_t O, bool extra_at_end, int64_t *B, int64_t *A);
/* result is non-NULL and its size at least this version's struct. */
clpad_status clpad__w_check_result(const char *who, const clpad_window_result *result);
/* Write r to the caller's result: its first result->size bytes, size kept. */
clpad_status clpad__w_store(clpad_window_result *result, clpad_window_result r);
/* "<who>: <name> = <value> must be in <lo>..<hi>" unless it is. */
clpad_status clpad__w_check_range(const char *who, const char *name, int value, int lo, int hi);
/* "<who>: <name> = <value> is not a <type>" unless 0 <= value < count. */
clpad_status clpad__w_check_enum(const char *who, const char *name, int value, int count,
                                 const char *type);
/* The conventions whose functions open alike (clpad__w_begin), one row each
 * of clpad__w_conventions. */
enum clpad__w_convention {
    CLPAD__W_ONNX,
    CLPAD__W_OPENVINO,
    CLPAD__W_TF,
    CLPAD__W_TORCH,
    CLPAD__W_TRT,
    CLPAD__W_CONVENTION_COUNT
};
typedef struct clpad__w_convention_row {
    const char *who;        /* the public function, as its messages name it */
    const char *mode;       /* its mode argument ... */
    const char *mode_type;  /* ... of this enum ... */
    int mode_count;         /* ... of this many members */
    bool pool_dilation;     /* pooling accepts a dilation (clpad__w_load_geometry) */
    bool pool_stride_is_kernel; /* a pool's NULL stride means the kernel */
} clpad__w_convention_row;
extern const clpad__w_convention_row clpad__w_conventions[CLPAD__W_CONVENTION_COUNT];
/* How every convention's function opens: clear the thread's error, require
 * the result, check its mode argument (clpad__w_check_enum), then validate
 * the shared arguments into r (clpad__w_load_geometry) by the row of `c`. */
clpad_status clpad__w_begin(enum clpad__w_convention c, int mode, clpad_window_result *result,
                            clpad_window_op op, int naxes, const int64_t *input,
                            const int64_t *kernel, const int64_t *stride,
                            const int64_t *dilation, clpad_window_result *r);
/* How every convention's public function opens, its parameters named op,
 * naxes, input, kernel, stride, dilation and result as in the public header:
 * `who` (the function's name for messages) and `r` (the validated shared
 * arguments) declared and set by clpad__w_begin, returning its error. */
#define CLPAD__W_OPEN(c, mode)                                                                   \
    const char *who = clpad__w_conventions[c].who;                                               \
    clpad_window_result r;                                                                       \
    TRY(clpad__w_begin(c, (int)(mode), result, op, naxes, input, kernel, stride, dilation, &r))
/* The layout conversions' pointers: "<who>: <name> must not be NULL" for the
 * first of `list` (called `name`), pads_begin and pads_end that is NULL. */
clpad_status clpad__w_check_lists(const char *who, const char *name, const void *list,
                                  const int64_t *pads_begin, const int64_t *pads_end);
/* Split a total pad between begin and end: the half rounded down (floor, so
 * also for a negative total) on the side without the extra element, the rest
 * on the other; `extra_at_end`: the odd element goes to the end (SAME_UPPER,
 * TensorFlow), else to the beginning. Every convention splits through this. */
void clpad__w_split(int64_t total, bool extra_at_end, int64_t *B, int64_t *A);

#endif /* CLPAD_WINDOW_INTERNAL_H */
