/* Window geometry (docs/spec.md, "Window geometry"): checked arithmetic and
 * the argument handling every convention shares. Integer arithmetic only;
 * every operation that can overflow int64 goes through the checked helpers
 * and fails with CLPAD_ERR_OVERFLOW. */
#include "window/window.h"

#include <stdio.h>
#include <string.h>


clpad_status clpad__w_ck_add(int axis, const char *what, int64_t a, int64_t b, int64_t *r)
{
    if (!clpad__add_i64(a, b, r))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "axis %d: %s (%lld + %lld) overflows int64",
                           axis, what, (long long)a, (long long)b);
    return CLPAD_OK;
}

clpad_status clpad__w_ck_sub(int axis, const char *what, int64_t a, int64_t b, int64_t *r)
{
    if (__builtin_sub_overflow(a, b, r))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "axis %d: %s (%lld - %lld) overflows int64",
                           axis, what, (long long)a, (long long)b);
    return CLPAD_OK;
}

clpad_status clpad__w_ck_mul(int axis, const char *what, int64_t a, int64_t b, int64_t *r)
{
    if (!clpad__mul_i64(a, b, r))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "axis %d: %s (%lld * %lld) overflows int64",
                           axis, what, (long long)a, (long long)b);
    return CLPAD_OK;
}

/* floor(a / b) and ceil(a / b) for b > 0, exact for negative a (C's `/`
 * truncates toward zero). b > 0 rules out INT64_MIN / -1. */
int64_t clpad__w_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && a < 0)
        q--;
    return q;
}

int64_t clpad__w_ceil_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && a > 0)
        q++;
    return q;
}

const char *const clpad__w_op_names[CLPAD_WINDOW_OP_COUNT] = {"conv", "deconv", "pool"};

/* Validate the arguments every front end shares and fill r->op, naxes, input,
 * extent and stride. `pool_dilation`: whether pooling accepts a dilation.
 * `stride_defaults_to_kernel`: a NULL stride means the kernel (PyTorch pools). */
clpad_status clpad__w_load_geometry(const char *who, clpad_window_op op, int naxes,
                                  const int64_t *input, const int64_t *kernel,
                                  const int64_t *stride, const int64_t *dilation,
                                  bool pool_dilation, bool stride_defaults_to_kernel,
                                  clpad_window_result *r)
{
    if ((int)op < 0 || op >= CLPAD_WINDOW_OP_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: op = %d is not a clpad_window_op",
                           who, (int)op);
    TRY(clpad__w_check_range(who, "naxes", naxes, 1, CLPAD_MAX_RANK));
    if (!input)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: input must not be NULL", who);
    if (!kernel)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: kernel must not be NULL", who);

    memset(r, 0, sizeof *r);
    r->op = op;
    r->naxes = naxes;
    for (int i = 0; i < naxes; i++) {
        if (input[i] < 1)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE, "%s: input[%d] = %lld must be >= 1",
                               who, i, (long long)input[i]);
        if (kernel[i] < 1)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "%s: kernel[%d] = %lld must be >= 1", who, i,
                               (long long)kernel[i]);
        int64_t s = stride ? stride[i] : (stride_defaults_to_kernel ? kernel[i] : 1);
        if (s < 1)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "%s: stride[%d] = %lld must be >= 1", who, i, (long long)s);
        int64_t d = dilation ? dilation[i] : 1;
        if (d < 1)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "%s: dilation[%d] = %lld must be >= 1", who, i, (long long)d);
        if (op == CLPAD_WINDOW_POOL && !pool_dilation && d != 1)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "%s: dilation[%d] = %lld: pooling has no dilation in this "
                               "convention (DK = F); pass NULL or 1",
                               who, i, (long long)d);
        int64_t span;
        TRY(clpad__w_ck_mul(i, "dilation*(kernel-1)", d, kernel[i] - 1, &span));
        TRY(clpad__w_ck_add(i, "kernel extent 1 + dilation*(kernel-1)", span, 1, &r->extent[i]));
        r->input[i] = input[i];
        r->stride[i] = s;
    }
    return CLPAD_OK;
}

/* Non-negative pads, as most conventions require. `name` is the argument. */
clpad_status clpad__w_check_nonneg(const char *who, const char *name, int naxes,
                                 const int64_t *pads)
{
    if (!pads)
        return CLPAD_OK;
    for (int i = 0; i < naxes; i++)
        if (pads[i] < 0)
            return clpad__fail(CLPAD_ERR_INVALID_PADS, "%s: %s[%d] = %lld must be >= 0", who,
                               name, i, (long long)pads[i]);
    return CLPAD_OK;
}


/* Explicit conv / pool: O from I, B, A, DK, S. Requires M >= DK. With
 * ROUND_CEIL_DROP, a last window starting at or past I + B (in the end
 * padding) is dropped. */
clpad_status clpad__w_window_count(const char *who, int axis, int64_t I, int64_t B, int64_t A,
                                 int64_t DK, int64_t S, enum rounding rounding, int64_t *out)
{
    int64_t ib, m;
    TRY(clpad__w_ck_add(axis, "input + pads_begin", I, B, &ib));
    TRY(clpad__w_ck_add(axis, "padded input I + pads_begin + pads_end", ib, A, &m));
    if (m < DK)
        return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                           "%s: axis %d: padded input %lld (input %lld + pads %lld + %lld) is "
                           "smaller than the kernel extent %lld, so the output size would be "
                           "< 1",
                           who, axis, (long long)m, (long long)I, (long long)B, (long long)A,
                           (long long)DK);
    int64_t n = m - DK; /* >= 0, and <= INT64_MAX - 1 since DK >= 1 */
    int64_t o = (rounding == ROUND_FLOOR ? clpad__w_floor_div(n, S) : clpad__w_ceil_div(n, S)) + 1;
    if (rounding == ROUND_CEIL_DROP) {
        int64_t last_start;
        TRY(clpad__w_ck_mul(axis, "start of the last window", o - 1, S, &last_start));
        if (last_start >= ib)
            o--;
    }
    if (o < 1)
        return clpad__fail(CLPAD_ERR_INVALID_SHAPE, "%s: axis %d: output size %lld is < 1",
                           who, axis, (long long)o);
    *out = o;
    return CLPAD_OK;
}

/* SAME for conv / pool: O = ceil(I/S), P = (O-1)*S + DK - I (equal to
 * floor((I-1)/S)*S + DK - I for I >= 1), clamped at 0 when `clamp`, split
 * with the odd element at the end (upper) or the beginning (lower). */
clpad_status clpad__w_same_pads(int axis, int64_t I, int64_t DK, int64_t S, bool clamp,
                              bool upper, int64_t *O, int64_t *B, int64_t *A)
{
    int64_t o = clpad__w_ceil_div(I, S), p;
    TRY(clpad__w_ck_mul(axis, "(output-1)*stride", o - 1, S, &p));
    TRY(clpad__w_ck_add(axis, "(output-1)*stride + kernel extent", p, DK, &p));
    p -= I; /* p >= 0 - I here, no overflow */
    if (clamp && p < 0)
        p = 0;
    *O = o;
    clpad__w_split(p, upper, B, A);
    return CLPAD_OK;
}

/* Full transposed-convolution length (I-1)*S + DK + output_padding. */
clpad_status clpad__w_deconv_full(int axis, int64_t I, int64_t S, int64_t DK, int64_t op,
                                int64_t *full)
{
    int64_t f;
    TRY(clpad__w_ck_mul(axis, "(input-1)*stride", I - 1, S, &f));
    TRY(clpad__w_ck_add(axis, "(input-1)*stride + kernel extent", f, DK, &f));
    TRY(clpad__w_ck_add(axis, "full output + output_padding", f, op, &f));
    *full = f;
    return CLPAD_OK;
}

/* Deconv with explicit crops: O = full - B - A, must be >= 1. */
clpad_status clpad__w_deconv_explicit(const char *who, int axis, int64_t full, int64_t B,
                                    int64_t A, int64_t *O)
{
    int64_t o;
    TRY(clpad__w_ck_sub(axis, "full output - pads_begin", full, B, &o));
    TRY(clpad__w_ck_sub(axis, "full output - pads_begin - pads_end", o, A, &o));
    if (o < 1)
        return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                           "%s: axis %d: output size %lld is < 1 (full output %lld minus "
                           "pads %lld + %lld)",
                           who, axis, (long long)o, (long long)full, (long long)B,
                           (long long)A);
    *O = o;
    return CLPAD_OK;
}

clpad_status clpad__w_explicit_axis(const char *who, clpad_window_result *r, int i, int64_t B,
                                    int64_t A, enum rounding rounding, int64_t full)
{
    r->pads_begin[i] = B;
    r->pads_end[i] = A;
    if (r->op == CLPAD_WINDOW_DECONV)
        return clpad__w_deconv_explicit(who, i, full, B, A, &r->output[i]);
    return clpad__w_window_count(who, i, r->input[i], B, A, r->extent[i], r->stride[i], rounding,
                                 &r->output[i]);
}

/* output_padding range of ONNX and PyTorch: 0 <= op < max(S, d). */
clpad_status clpad__w_check_output_padding(const char *who, int naxes,
                                         const int64_t *output_padding,
                                         const int64_t *stride, const int64_t *dilation,
                                         bool upper_bound)
{
    if (!output_padding)
        return CLPAD_OK;
    for (int i = 0; i < naxes; i++) {
        int64_t v = output_padding[i];
        if (v < 0)
            return clpad__fail(CLPAD_ERR_INVALID_PADS,
                               "%s: output_padding[%d] = %lld must be >= 0", who, i,
                               (long long)v);
        if (upper_bound) {
            int64_t s = stride[i], d = dilation ? dilation[i] : 1;
            int64_t lim = s > d ? s : d;
            if (v >= lim)
                return clpad__fail(CLPAD_ERR_INVALID_PADS,
                                   "%s: output_padding[%d] = %lld must be smaller than "
                                   "stride %lld or dilation %lld",
                                   who, i, (long long)v, (long long)s, (long long)d);
        }
    }
    return CLPAD_OK;
}

clpad_status clpad__w_check_output_shape(const char *who, int naxes, const int64_t *output_shape)
{
    for (int i = 0; i < naxes; i++)
        if (output_shape[i] < 1)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                               "%s: output_shape[%d] = %lld must be >= 1", who, i,
                               (long long)output_shape[i]);
    return CLPAD_OK;
}

/* Deconv with a requested output size: total = full - O, of any sign (a
 * negative total extends the full output with zeros), split with the odd
 * element at the end (`extra_at_end`) or the beginning, floor division as
 * ONNX's reference implementation does. */
void clpad__w_deconv_split_to(int64_t full, int64_t O, bool extra_at_end, int64_t *B, int64_t *A)
{
    int64_t total = full - O; /* full >= 1, O >= 1: no overflow */
    clpad__w_split(total, extra_at_end, B, A);
}

void clpad_window_result_init(clpad_window_result *result)
{
    clpad__sized_init(result, sizeof *result);
}

clpad_status clpad__w_check_result(const char *who, const clpad_window_result *result)
{
    if (!result)
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "result", -1,
                              "%s: result must not be NULL", who);
    return clpad__sized_check(result->size, sizeof *result, who, "result->size", "result", -1,
                              "fill it with clpad_window_result_init()");
}

clpad_status clpad__w_store(clpad_window_result *result, clpad_window_result r)
{
    clpad__sized_put(result, result->size, &r, sizeof r);
    return CLPAD_OK;
}

clpad_status clpad__w_check_range(const char *who, const char *name, int value, int lo, int hi)
{
    if (value < lo || value > hi)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s = %d must be in %d..%d", who, name,
                           value, lo, hi);
    return CLPAD_OK;
}

clpad_status clpad__w_check_enum(const char *who, const char *name, int value, int count,
                                 const char *type)
{
    if (value < 0 || value >= count)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s = %d is not a %s", who, name,
                           value, type);
    return CLPAD_OK;
}

const clpad__w_convention_row clpad__w_conventions[CLPAD__W_CONVENTION_COUNT] = {
    /* who, mode argument, its enum, members, pool_dilation, pool_stride_is_kernel */
    [CLPAD__W_ONNX] = {"clpad_window_onnx", "auto_pad", "clpad_onnx_auto_pad",
                       CLPAD_ONNX_AUTO_PAD_COUNT, true, false},
    [CLPAD__W_OPENVINO] = {"clpad_window_openvino", "auto_pad", "clpad_ov_auto_pad",
                           CLPAD_OV_AUTO_PAD_COUNT, true, false},
    [CLPAD__W_TF] = {"clpad_window_tf", "padding", "clpad_tf_padding", CLPAD_TF_PADDING_COUNT,
                     true, false},
    [CLPAD__W_TORCH] = {"clpad_window_torch", "padding_mode", "clpad_torch_padding",
                        CLPAD_TORCH_PADDING_COUNT, true, true},
    [CLPAD__W_TRT] = {"clpad_window_tensorrt", "mode", "clpad_trt_padding",
                      CLPAD_TRT_PADDING_COUNT, false, false},
};

clpad_status clpad__w_begin(enum clpad__w_convention c, int mode, clpad_window_result *result,
                            clpad_window_op op, int naxes, const int64_t *input,
                            const int64_t *kernel, const int64_t *stride,
                            const int64_t *dilation, clpad_window_result *r)
{
    const clpad__w_convention_row *row = &clpad__w_conventions[c];
    clpad__clear_error();
    TRY(clpad__w_check_result(row->who, result));
    TRY(clpad__w_check_enum(row->who, row->mode, mode, row->mode_count, row->mode_type));
    return clpad__w_load_geometry(row->who, op, naxes, input, kernel, stride, dilation,
                                  row->pool_dilation,
                                  row->pool_stride_is_kernel && op == CLPAD_WINDOW_POOL, r);
}

clpad_status clpad__w_check_lists(const char *who, const char *name, const void *list,
                                  const int64_t *pads_begin, const int64_t *pads_end)
{
    if (!list || !pads_begin || !pads_end)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", who,
                           !list ? name : !pads_begin ? "pads_begin" : "pads_end");
    return CLPAD_OK;
}

void clpad__w_split(int64_t total, bool extra_at_end, int64_t *B, int64_t *A)
{
    int64_t small = clpad__w_floor_div(total, 2);
    *B = extra_at_end ? small : total - small;
    *A = extra_at_end ? total - small : small;
}
