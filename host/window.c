/*
 * Window geometry (SPEC §4): output sizes and pads of convolution,
 * deconvolution and pooling windows in the conventions of TensorRT,
 * TensorFlow, ONNX, OpenVINO and PyTorch. The rules of each front end, and
 * where they come from, are in include/clpad_window.h.
 *
 * Integer arithmetic only; every operation that can overflow int64 goes
 * through the checked helpers below and fails with CLPAD_ERR_OVERFLOW.
 */
#include "core.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------- */
/* Checked arithmetic                                                        */
/* ------------------------------------------------------------------------- */

#define TRY(expr)                                                                     \
    do {                                                                              \
        clpad_status try_st_ = (expr);                                                \
        if (try_st_ != CLPAD_OK)                                                      \
            return try_st_;                                                           \
    } while (0)

static clpad_status ck_add(int axis, const char *what, int64_t a, int64_t b, int64_t *r)
{
    if (!clpad__add_i64(a, b, r))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "axis %d: %s (%lld + %lld) overflows int64",
                           axis, what, (long long)a, (long long)b);
    return CLPAD_OK;
}

static clpad_status ck_sub(int axis, const char *what, int64_t a, int64_t b, int64_t *r)
{
    if (__builtin_sub_overflow(a, b, r))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "axis %d: %s (%lld - %lld) overflows int64",
                           axis, what, (long long)a, (long long)b);
    return CLPAD_OK;
}

static clpad_status ck_mul(int axis, const char *what, int64_t a, int64_t b, int64_t *r)
{
    if (!clpad__mul_i64(a, b, r))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "axis %d: %s (%lld * %lld) overflows int64",
                           axis, what, (long long)a, (long long)b);
    return CLPAD_OK;
}

/* floor(a / b) and ceil(a / b) for b > 0, exact for negative a (C's `/`
 * truncates toward zero). b > 0 rules out INT64_MIN / -1. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && a < 0)
        q--;
    return q;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if (a % b != 0 && a > 0)
        q++;
    return q;
}

/* ------------------------------------------------------------------------- */
/* Common argument handling                                                  */
/* ------------------------------------------------------------------------- */

static const char *const op_names[CLPAD_WINDOW_OP_COUNT] = {"conv", "deconv", "pool"};

/* Validate the arguments every front end shares and fill r->op, naxes, input,
 * extent and stride. `pool_dilation`: whether pooling accepts a dilation.
 * `stride_defaults_to_kernel`: a NULL stride means the kernel (PyTorch pools). */
static clpad_status load_geometry(const char *who, clpad_window_op op, int naxes,
                                  const int64_t *input, const int64_t *kernel,
                                  const int64_t *stride, const int64_t *dilation,
                                  bool pool_dilation, bool stride_defaults_to_kernel,
                                  clpad_window_result *r)
{
    if ((int)op < 0 || op >= CLPAD_WINDOW_OP_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: op = %d is not a clpad_window_op",
                           who, (int)op);
    if (naxes < 1 || naxes > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: naxes = %d must be in 1..%d", who,
                           naxes, CLPAD_MAX_RANK);
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
        TRY(ck_mul(i, "dilation*(kernel-1)", d, kernel[i] - 1, &span));
        TRY(ck_add(i, "kernel extent 1 + dilation*(kernel-1)", span, 1, &r->extent[i]));
        r->input[i] = input[i];
        r->stride[i] = s;
    }
    return CLPAD_OK;
}

/* Non-negative pads, as most conventions require. `name` is the argument. */
static clpad_status check_nonneg(const char *who, const char *name, int naxes,
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

enum rounding { ROUND_FLOOR, ROUND_CEIL, ROUND_CEIL_DROP };

/* Explicit conv / pool: O from I, B, A, DK, S. Requires M >= DK. With
 * ROUND_CEIL_DROP, a last window starting at or past I + B (in the end
 * padding) is dropped. */
static clpad_status window_count(const char *who, int axis, int64_t I, int64_t B, int64_t A,
                                 int64_t DK, int64_t S, enum rounding rounding, int64_t *out)
{
    int64_t ib, m;
    TRY(ck_add(axis, "input + pads_begin", I, B, &ib));
    TRY(ck_add(axis, "padded input I + pads_begin + pads_end", ib, A, &m));
    if (m < DK)
        return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                           "%s: axis %d: padded input %lld (input %lld + pads %lld + %lld) is "
                           "smaller than the kernel extent %lld, so the output size would be "
                           "< 1",
                           who, axis, (long long)m, (long long)I, (long long)B, (long long)A,
                           (long long)DK);
    int64_t n = m - DK; /* >= 0, and <= INT64_MAX - 1 since DK >= 1 */
    int64_t o = (rounding == ROUND_FLOOR ? floor_div(n, S) : ceil_div(n, S)) + 1;
    if (rounding == ROUND_CEIL_DROP) {
        int64_t last_start;
        TRY(ck_mul(axis, "start of the last window", o - 1, S, &last_start));
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
static clpad_status same_pads(int axis, int64_t I, int64_t DK, int64_t S, bool clamp,
                              bool upper, int64_t *O, int64_t *B, int64_t *A)
{
    int64_t o = ceil_div(I, S), p;
    TRY(ck_mul(axis, "(output-1)*stride", o - 1, S, &p));
    TRY(ck_add(axis, "(output-1)*stride + kernel extent", p, DK, &p));
    p -= I; /* p >= 0 - I here, no overflow */
    if (clamp && p < 0)
        p = 0;
    int64_t small = floor_div(p, 2);
    *O = o;
    *B = upper ? small : p - small;
    *A = upper ? p - small : small;
    return CLPAD_OK;
}

/* Full transposed-convolution length (I-1)*S + DK + output_padding. */
static clpad_status deconv_full(int axis, int64_t I, int64_t S, int64_t DK, int64_t op,
                                int64_t *full)
{
    int64_t f;
    TRY(ck_mul(axis, "(input-1)*stride", I - 1, S, &f));
    TRY(ck_add(axis, "(input-1)*stride + kernel extent", f, DK, &f));
    TRY(ck_add(axis, "full output + output_padding", f, op, &f));
    *full = f;
    return CLPAD_OK;
}

/* Deconv with explicit crops: O = full - B - A, must be >= 1. */
static clpad_status deconv_explicit(const char *who, int axis, int64_t full, int64_t B,
                                    int64_t A, int64_t *O)
{
    int64_t o;
    TRY(ck_sub(axis, "full output - pads_begin", full, B, &o));
    TRY(ck_sub(axis, "full output - pads_begin - pads_end", o, A, &o));
    if (o < 1)
        return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                           "%s: axis %d: output size %lld is < 1 (full output %lld minus "
                           "pads %lld + %lld)",
                           who, axis, (long long)o, (long long)full, (long long)B,
                           (long long)A);
    *O = o;
    return CLPAD_OK;
}

/* output_padding range of ONNX and PyTorch: 0 <= op < max(S, d). */
static clpad_status check_output_padding(const char *who, int naxes,
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

static clpad_status check_output_shape(const char *who, int naxes, const int64_t *output_shape)
{
    for (int i = 0; i < naxes; i++)
        if (output_shape[i] < 1)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                               "%s: output_shape[%d] = %lld must be >= 1", who, i,
                               (long long)output_shape[i]);
    return CLPAD_OK;
}

/* Deconv with a requested output size: total = full - O (>= 0), split with
 * the odd element at the end (`extra_at_end`) or the beginning. */
static clpad_status deconv_split_to(const char *who, int axis, int64_t full, int64_t O,
                                    bool extra_at_end, int64_t *B, int64_t *A)
{
    int64_t total = full - O; /* full >= 1, O >= 1: no overflow */
    if (total < 0)
        return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                           "%s: output_shape[%d] = %lld exceeds the full transposed-"
                           "convolution output %lld (pads would be negative)",
                           who, axis, (long long)O, (long long)full);
    int64_t small = total / 2;
    *B = extra_at_end ? small : total - small;
    *A = extra_at_end ? total - small : small;
    return CLPAD_OK;
}

static clpad_status check_result(const char *who, clpad_window_result *result)
{
    if (!result)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: result must not be NULL", who);
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* TensorRT                                                                  */
/* ------------------------------------------------------------------------- */

CLPAD_API clpad_status clpad_window_tensorrt(clpad_window_op op, clpad_trt_padding mode,
                                             int naxes, const int64_t *input,
                                             const int64_t *kernel, const int64_t *stride,
                                             const int64_t *dilation,
                                             const int64_t *pads_begin,
                                             const int64_t *pads_end,
                                             clpad_window_result *result)
{
    static const char who[] = "clpad_window_tensorrt";
    clpad__clear_error();
    TRY(check_result(who, result));
    if ((int)mode < 0 || mode >= CLPAD_TRT_PADDING_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: mode = %d is not a clpad_trt_padding", who, (int)mode);
    clpad_window_result r;
    TRY(load_geometry(who, op, naxes, input, kernel, stride, dilation, false, false, &r));
    bool explicit_mode =
        mode == CLPAD_TRT_EXPLICIT_ROUND_DOWN || mode == CLPAD_TRT_EXPLICIT_ROUND_UP;
    bool upper = mode == CLPAD_TRT_SAME_UPPER;

    for (int i = 0; i < naxes; i++) {
        int64_t I = r.input[i], S = r.stride[i], DK = r.extent[i];
        if (explicit_mode) {
            int64_t B = pads_begin ? pads_begin[i] : 0, A = pads_end ? pads_end[i] : 0;
            r.pads_begin[i] = B;
            r.pads_end[i] = A;
            if (op == CLPAD_WINDOW_DECONV) {
                int64_t full;
                TRY(deconv_full(i, I, S, DK, 0, &full));
                TRY(deconv_explicit(who, i, full, B, A, &r.output[i]));
            } else {
                TRY(window_count(who, i, I, B, A, DK, S,
                                 mode == CLPAD_TRT_EXPLICIT_ROUND_DOWN ? ROUND_FLOOR
                                                                       : ROUND_CEIL,
                                 &r.output[i]));
            }
        } else if (op == CLPAD_WINDOW_DECONV) {
            /* O = min(I*S, (I-1)*S + DK), P = max(DK - S, 0) */
            int64_t is, full;
            TRY(ck_mul(i, "input*stride", I, S, &is));
            TRY(deconv_full(i, I, S, DK, 0, &full));
            r.output[i] = is < full ? is : full;
            int64_t p = DK - S > 0 ? DK - S : 0;
            int64_t small = floor_div(p, 2);
            r.pads_begin[i] = upper ? small : p - small;
            r.pads_end[i] = upper ? p - small : small;
        } else {
            TRY(same_pads(i, I, DK, S, false, upper, &r.output[i], &r.pads_begin[i],
                          &r.pads_end[i]));
        }
    }
    *result = r;
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* TensorFlow                                                                */
/* ------------------------------------------------------------------------- */

/* Forward conv / pool of one axis in TF's rules. */
static clpad_status tf_forward(const char *who, int axis, clpad_tf_padding padding, int64_t I,
                               int64_t DK, int64_t S, int64_t pb, int64_t pe, int64_t *O,
                               int64_t *B, int64_t *A)
{
    switch (padding) {
    case CLPAD_TF_SAME:
        return same_pads(axis, I, DK, S, true, true, O, B, A);
    case CLPAD_TF_VALID:
        *B = *A = 0;
        return window_count(who, axis, I, 0, 0, DK, S, ROUND_FLOOR, O);
    default:
        *B = pb;
        *A = pe;
        return window_count(who, axis, I, pb, pe, DK, S, ROUND_FLOOR, O);
    }
}

CLPAD_API clpad_status clpad_window_tf(clpad_window_op op, clpad_tf_padding padding,
                                       int naxes, const int64_t *input,
                                       const int64_t *kernel, const int64_t *stride,
                                       const int64_t *dilation, const int64_t *pads_begin,
                                       const int64_t *pads_end, const int64_t *output_shape,
                                       clpad_window_result *result)
{
    static const char who[] = "clpad_window_tf";
    clpad__clear_error();
    TRY(check_result(who, result));
    if ((int)padding < 0 || padding >= CLPAD_TF_PADDING_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: padding = %d is not a clpad_tf_padding", who, (int)padding);
    clpad_window_result r;
    TRY(load_geometry(who, op, naxes, input, kernel, stride, dilation, true, false, &r));
    if (padding != CLPAD_TF_EXPLICIT && (pads_begin || pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: pads_begin / pads_end must be NULL unless padding is "
                           "EXPLICIT (padding = %s)",
                           who, clpad_tf_padding_name(padding));
    if (output_shape && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: output_shape applies to deconv only (op = %s)", who,
                           op_names[op]);
    TRY(check_nonneg(who, "pads_begin", naxes, pads_begin));
    TRY(check_nonneg(who, "pads_end", naxes, pads_end));
    if (output_shape)
        TRY(check_output_shape(who, naxes, output_shape));

    for (int i = 0; i < naxes; i++) {
        int64_t I = r.input[i], S = r.stride[i], DK = r.extent[i];
        int64_t pb = pads_begin ? pads_begin[i] : 0, pe = pads_end ? pads_end[i] : 0;
        if (op != CLPAD_WINDOW_DECONV) {
            TRY(tf_forward(who, i, padding, I, DK, S, pb, pe, &r.output[i], &r.pads_begin[i],
                           &r.pads_end[i]));
            continue;
        }
        /* Deconv: the output O is the forward convolution's input. */
        int64_t full, O = 0;
        TRY(deconv_full(i, I, S, DK, 0, &full));
        if (output_shape) {
            O = output_shape[i];
        } else if (padding == CLPAD_TF_SAME) {
            TRY(ck_mul(i, "input*stride", I, S, &O));
        } else if (padding == CLPAD_TF_VALID) {
            TRY(ck_mul(i, "input*stride", I, S, &O));
            if (DK > S)
                TRY(ck_add(i, "input*stride + (extent - stride)", O, DK - S, &O));
        } else {
            TRY(deconv_explicit(who, i, full, pb, pe, &O));
        }
        int64_t fo, fb, fa;
        clpad_status st = tf_forward(who, i, padding, O, DK, S, pb, pe, &fo, &fb, &fa);
        if (st == CLPAD_ERR_INVALID_SHAPE)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                               "%s: output_shape[%d] = %lld is inconsistent with input[%d] = "
                               "%lld: the forward %s convolution of %lld has no output",
                               who, i, (long long)O, i, (long long)I,
                               clpad_tf_padding_name(padding), (long long)O);
        TRY(st);
        if (fo != I)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                               "%s: output_shape[%d] = %lld is inconsistent with input[%d] = "
                               "%lld: the forward %s convolution of %lld gives %lld",
                               who, i, (long long)O, i, (long long)I,
                               clpad_tf_padding_name(padding), (long long)O, (long long)fo);
        r.output[i] = O;
        r.pads_begin[i] = fb;
        /* A = full - O - B; full, O >= 1 and 0 <= fb <= O + ... : checked anyway */
        TRY(ck_sub(i, "full output - output", full, O, &r.pads_end[i]));
        TRY(ck_sub(i, "full output - output - pads_begin", r.pads_end[i], fb, &r.pads_end[i]));
    }
    *result = r;
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* ONNX                                                                      */
/* ------------------------------------------------------------------------- */

CLPAD_API clpad_status clpad_window_onnx(clpad_window_op op, clpad_onnx_auto_pad auto_pad,
                                         int naxes, const int64_t *input,
                                         const int64_t *kernel, const int64_t *stride,
                                         const int64_t *dilation, const int64_t *pads,
                                         int ceil_mode, const int64_t *output_padding,
                                         const int64_t *output_shape,
                                         clpad_window_result *result)
{
    static const char who[] = "clpad_window_onnx";
    clpad__clear_error();
    TRY(check_result(who, result));
    if ((int)auto_pad < 0 || auto_pad >= CLPAD_ONNX_AUTO_PAD_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: auto_pad = %d is not a clpad_onnx_auto_pad", who,
                           (int)auto_pad);
    clpad_window_result r;
    TRY(load_geometry(who, op, naxes, input, kernel, stride, dilation, true, false, &r));
    if (ceil_mode && op != CLPAD_WINDOW_POOL)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: ceil_mode applies to pooling only (op = %s)", who,
                           op_names[op]);
    if ((output_padding || output_shape) && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: %s applies to deconv (ConvTranspose) only (op = %s)", who,
                           output_padding ? "output_padding" : "output_shape", op_names[op]);
    if (pads && auto_pad != CLPAD_ONNX_NOTSET && !output_shape)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: pads must be NULL unless auto_pad is NOTSET (auto_pad = %s); "
                           "ONNX forbids both",
                           who, clpad_onnx_auto_pad_name(auto_pad));
    if (pads && !output_shape) {
        for (int k = 0; k < 2 * naxes; k++)
            if (pads[k] < 0)
                return clpad__fail(CLPAD_ERR_INVALID_PADS,
                                   "%s: pads[%d] = %lld (%s of axis %d) must be >= 0", who, k,
                                   (long long)pads[k], k < naxes ? "begin" : "end",
                                   k % naxes);
    }
    TRY(check_output_padding(who, naxes, output_padding, r.stride, dilation, true));
    if (output_shape)
        TRY(check_output_shape(who, naxes, output_shape));

    bool upper = auto_pad == CLPAD_ONNX_SAME_UPPER;
    bool same = upper || auto_pad == CLPAD_ONNX_SAME_LOWER;
    for (int i = 0; i < naxes; i++) {
        int64_t I = r.input[i], S = r.stride[i], DK = r.extent[i];
        int64_t pb = 0, pe = 0;
        if (auto_pad == CLPAD_ONNX_NOTSET && pads) {
            pb = pads[i];
            pe = pads[naxes + i];
        }
        if (op != CLPAD_WINDOW_DECONV) {
            if (same) {
                /* O = ceil(I/S) with or without ceil_mode; total clamped at 0 */
                TRY(same_pads(i, I, DK, S, true, upper, &r.output[i], &r.pads_begin[i],
                              &r.pads_end[i]));
            } else {
                /* NOTSET and VALID (pads 0) alike: ceil_mode rounds up, with
                 * the last-window drop (ONNX Runtime and onnx shape inference) */
                enum rounding rd = ceil_mode ? ROUND_CEIL_DROP : ROUND_FLOOR;
                r.pads_begin[i] = pb;
                r.pads_end[i] = pe;
                TRY(window_count(who, i, I, pb, pe, DK, S, rd, &r.output[i]));
            }
            continue;
        }
        /* ConvTranspose */
        int64_t full;
        TRY(deconv_full(i, I, S, DK, output_padding ? output_padding[i] : 0, &full));
        if (output_shape) {
            r.output[i] = output_shape[i];
            TRY(deconv_split_to(who, i, full, output_shape[i], upper, &r.pads_begin[i],
                                &r.pads_end[i]));
        } else if (same) {
            int64_t target, total;
            TRY(ck_mul(i, "input*stride", I, S, &target));
            total = full - target; /* both >= 1 */
            if (total < 0)
                total = 0;
            int64_t small = total / 2;
            r.pads_begin[i] = upper ? small : total - small;
            r.pads_end[i] = upper ? total - small : small;
            r.output[i] = full - total;
        } else {
            r.pads_begin[i] = pb;
            r.pads_end[i] = pe;
            TRY(deconv_explicit(who, i, full, pb, pe, &r.output[i]));
        }
    }
    *result = r;
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* OpenVINO                                                                  */
/* ------------------------------------------------------------------------- */

CLPAD_API clpad_status clpad_window_openvino(clpad_window_op op, clpad_ov_auto_pad auto_pad,
                                             clpad_ov_rounding rounding, int naxes,
                                             const int64_t *input, const int64_t *kernel,
                                             const int64_t *stride, const int64_t *dilation,
                                             const int64_t *pads_begin,
                                             const int64_t *pads_end,
                                             const int64_t *output_padding,
                                             const int64_t *output_shape,
                                             clpad_window_result *result)
{
    static const char who[] = "clpad_window_openvino";
    clpad__clear_error();
    TRY(check_result(who, result));
    if ((int)auto_pad < 0 || auto_pad >= CLPAD_OV_AUTO_PAD_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: auto_pad = %d is not a clpad_ov_auto_pad", who, (int)auto_pad);
    if ((int)rounding < 0 || rounding >= CLPAD_OV_ROUNDING_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: rounding = %d is not a clpad_ov_rounding", who, (int)rounding);
    clpad_window_result r;
    TRY(load_geometry(who, op, naxes, input, kernel, stride, dilation, true, false, &r));
    if (rounding != CLPAD_OV_FLOOR && op != CLPAD_WINDOW_POOL)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: rounding = %s applies to pooling only (op = %s)", who,
                           clpad_ov_rounding_name(rounding), op_names[op]);
    if ((output_padding || output_shape) && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: %s applies to deconv (ConvolutionBackpropData) only (op = %s)",
                           who, output_padding ? "output_padding" : "output_shape",
                           op_names[op]);
    bool use_pads = auto_pad == CLPAD_OV_EXPLICIT && !output_shape;
    if (use_pads) {
        TRY(check_nonneg(who, "pads_begin", naxes, pads_begin));
        TRY(check_nonneg(who, "pads_end", naxes, pads_end));
    }
    TRY(check_output_padding(who, naxes, output_padding, r.stride, dilation, false));
    if (output_shape)
        TRY(check_output_shape(who, naxes, output_shape));

    bool upper = auto_pad == CLPAD_OV_SAME_UPPER;
    bool same = upper || auto_pad == CLPAD_OV_SAME_LOWER;
    enum rounding rd = rounding == CLPAD_OV_FLOOR  ? ROUND_FLOOR
                       : rounding == CLPAD_OV_CEIL ? ROUND_CEIL
                                                   : ROUND_CEIL_DROP;
    for (int i = 0; i < naxes; i++) {
        int64_t I = r.input[i], S = r.stride[i], DK = r.extent[i];
        int64_t pb = 0, pe = 0;
        if (use_pads) {
            pb = pads_begin ? pads_begin[i] : 0;
            pe = pads_end ? pads_end[i] : 0;
        }
        if (op != CLPAD_WINDOW_DECONV) {
            if (same) {
                int64_t o_same;
                TRY(same_pads(i, I, DK, S, true, upper, &o_same, &pb, &pe));
            }
            r.pads_begin[i] = pb;
            r.pads_end[i] = pe;
            TRY(window_count(who, i, I, pb, pe, DK, S, rd, &r.output[i]));
            continue;
        }
        int64_t full;
        TRY(deconv_full(i, I, S, DK, output_padding ? output_padding[i] : 0, &full));
        if (output_shape) {
            /* spec: auto_pad != SAME_UPPER -> begin = total // 2; else end = total // 2 */
            r.output[i] = output_shape[i];
            TRY(deconv_split_to(who, i, full, output_shape[i], !upper, &r.pads_begin[i],
                                &r.pads_end[i]));
        } else {
            r.pads_begin[i] = pb;
            r.pads_end[i] = pe;
            TRY(deconv_explicit(who, i, full, pb, pe, &r.output[i]));
        }
    }
    *result = r;
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* PyTorch                                                                   */
/* ------------------------------------------------------------------------- */

CLPAD_API clpad_status clpad_window_torch(clpad_window_op op, clpad_torch_padding padding_mode,
                                          int naxes, const int64_t *input,
                                          const int64_t *kernel, const int64_t *stride,
                                          const int64_t *dilation, const int64_t *padding,
                                          int ceil_mode, const int64_t *output_padding,
                                          clpad_window_result *result)
{
    static const char who[] = "clpad_window_torch";
    clpad__clear_error();
    TRY(check_result(who, result));
    if ((int)padding_mode < 0 || padding_mode >= CLPAD_TORCH_PADDING_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: padding_mode = %d is not a clpad_torch_padding", who,
                           (int)padding_mode);
    clpad_window_result r;
    TRY(load_geometry(who, op, naxes, input, kernel, stride, dilation, true,
                      op == CLPAD_WINDOW_POOL, &r));
    if (padding_mode != CLPAD_TORCH_EXPLICIT && op != CLPAD_WINDOW_CONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: padding='%s' exists for convolution only; PyTorch %s takes "
                           "integer padding",
                           who, clpad_torch_padding_name(padding_mode),
                           op == CLPAD_WINDOW_POOL ? "pooling" : "ConvTranspose");
    if (padding_mode != CLPAD_TORCH_EXPLICIT && padding)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: padding must be NULL with padding_mode '%s'", who,
                           clpad_torch_padding_name(padding_mode));
    if (ceil_mode && op != CLPAD_WINDOW_POOL)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: ceil_mode applies to pooling only (op = %s)", who,
                           op_names[op]);
    if (output_padding && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: output_padding applies to deconv (ConvTranspose) only (op = %s)",
                           who, op_names[op]);
    TRY(check_nonneg(who, "padding", naxes, padding));
    TRY(check_output_padding(who, naxes, output_padding, r.stride, dilation, true));
    if (padding_mode == CLPAD_TORCH_SAME) {
        for (int i = 0; i < naxes; i++)
            if (r.stride[i] != 1)
                return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                                   "%s: stride[%d] = %lld: padding='same' is not supported "
                                   "for strided convolutions (stride must be 1)",
                                   who, i, (long long)r.stride[i]);
    }

    for (int i = 0; i < naxes; i++) {
        int64_t I = r.input[i], S = r.stride[i], DK = r.extent[i];
        int64_t p = padding ? padding[i] : 0;
        if (padding_mode == CLPAD_TORCH_SAME) {
            /* total = d*(k-1) = DK - 1; the odd one at the end */
            int64_t total = DK - 1;
            r.pads_begin[i] = total / 2;
            r.pads_end[i] = total - total / 2;
            TRY(window_count(who, i, I, r.pads_begin[i], r.pads_end[i], DK, S, ROUND_FLOOR,
                             &r.output[i]));
            continue;
        }
        r.pads_begin[i] = p;
        r.pads_end[i] = p;
        if (op == CLPAD_WINDOW_DECONV) {
            int64_t full;
            TRY(deconv_full(i, I, S, DK, output_padding ? output_padding[i] : 0, &full));
            TRY(deconv_explicit(who, i, full, p, p, &r.output[i]));
        } else {
            if (op == CLPAD_WINDOW_POOL && p > DK / 2)
                return clpad__fail(CLPAD_ERR_INVALID_PADS,
                                   "%s: padding[%d] = %lld: pad should be at most half of "
                                   "the effective kernel size %lld (<= %lld)",
                                   who, i, (long long)p, (long long)DK, (long long)(DK / 2));
            TRY(window_count(who, i, I, p, p, DK, S, ceil_mode ? ROUND_CEIL_DROP : ROUND_FLOOR,
                             &r.output[i]));
        }
    }
    *result = r;
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* Layout conversions                                                        */
/* ------------------------------------------------------------------------- */

CLPAD_API clpad_status clpad_window_pads_from_onnx(int naxes, const int64_t *onnx_pads,
                                                   int64_t *pads_begin, int64_t *pads_end)
{
    static const char who[] = "clpad_window_pads_from_onnx";
    clpad__clear_error();
    if (naxes < 1 || naxes > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: naxes = %d must be in 1..%d", who,
                           naxes, CLPAD_MAX_RANK);
    if (!onnx_pads || !pads_begin || !pads_end)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", who,
                           !onnx_pads ? "onnx_pads" : !pads_begin ? "pads_begin" : "pads_end");
    int64_t tmp[2 * CLPAD_MAX_RANK];
    memcpy(tmp, onnx_pads, sizeof(int64_t) * 2 * (size_t)naxes);
    for (int i = 0; i < naxes; i++) {
        pads_begin[i] = tmp[i];
        pads_end[i] = tmp[naxes + i];
    }
    return CLPAD_OK;
}

CLPAD_API clpad_status clpad_window_pads_to_onnx(int naxes, const int64_t *pads_begin,
                                                 const int64_t *pads_end, int64_t *onnx_pads)
{
    static const char who[] = "clpad_window_pads_to_onnx";
    clpad__clear_error();
    if (naxes < 1 || naxes > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: naxes = %d must be in 1..%d", who,
                           naxes, CLPAD_MAX_RANK);
    if (!onnx_pads || !pads_begin || !pads_end)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", who,
                           !onnx_pads ? "onnx_pads" : !pads_begin ? "pads_begin" : "pads_end");
    int64_t tmp[2 * CLPAD_MAX_RANK];
    for (int i = 0; i < naxes; i++) {
        tmp[i] = pads_begin[i];
        tmp[naxes + i] = pads_end[i];
    }
    memcpy(onnx_pads, tmp, sizeof(int64_t) * 2 * (size_t)naxes);
    return CLPAD_OK;
}

/* Index of the first spatial axis in a TF tensor of the given layout. */
static int tf_first_spatial(clpad_tf_layout layout)
{
    return layout == CLPAD_TF_CHANNELS_LAST ? 1 : 2;
}

CLPAD_API clpad_status clpad_window_pads_from_tf(int rank, clpad_tf_layout layout,
                                                 const int64_t *tf_paddings,
                                                 int64_t *pads_begin, int64_t *pads_end)
{
    static const char who[] = "clpad_window_pads_from_tf";
    clpad__clear_error();
    if (rank < 3 || rank > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: rank = %d must be in 3..%d", who,
                           rank, CLPAD_MAX_RANK);
    if ((int)layout < 0 || layout >= CLPAD_TF_LAYOUT_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: layout = %d is not a clpad_tf_layout", who, (int)layout);
    if (!tf_paddings || !pads_begin || !pads_end)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", who,
                           !tf_paddings ? "tf_paddings"
                           : !pads_begin ? "pads_begin"
                                         : "pads_end");
    int first = tf_first_spatial(layout), naxes = rank - 2;
    int channel = layout == CLPAD_TF_CHANNELS_LAST ? rank - 1 : 1;
    for (int k = 0; k < rank; k++) {
        if (k != 0 && k != channel)
            continue;
        for (int side = 0; side < 2; side++)
            if (tf_paddings[2 * k + side] != 0)
                return clpad__fail(CLPAD_ERR_INVALID_PADS,
                                   "%s: tf_paddings[%d][%d] = %lld: the %s axis (%d) of a %s "
                                   "tensor cannot be padded",
                                   who, k, side, (long long)tf_paddings[2 * k + side],
                                   k == 0 ? "batch" : "channel", k,
                                   clpad_tf_layout_name(layout));
    }
    int64_t b[CLPAD_MAX_RANK], e[CLPAD_MAX_RANK];
    for (int i = 0; i < naxes; i++) {
        b[i] = tf_paddings[2 * (first + i)];
        e[i] = tf_paddings[2 * (first + i) + 1];
    }
    memcpy(pads_begin, b, sizeof(int64_t) * (size_t)naxes);
    memcpy(pads_end, e, sizeof(int64_t) * (size_t)naxes);
    return CLPAD_OK;
}

CLPAD_API clpad_status clpad_window_pads_to_tf(int naxes, clpad_tf_layout layout,
                                               const int64_t *pads_begin,
                                               const int64_t *pads_end,
                                               int64_t *tf_paddings)
{
    static const char who[] = "clpad_window_pads_to_tf";
    clpad__clear_error();
    if (naxes < 1 || naxes > CLPAD_MAX_RANK - 2)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: naxes = %d must be in 1..%d", who,
                           naxes, CLPAD_MAX_RANK - 2);
    if ((int)layout < 0 || layout >= CLPAD_TF_LAYOUT_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: layout = %d is not a clpad_tf_layout", who, (int)layout);
    if (!tf_paddings || !pads_begin || !pads_end)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", who,
                           !tf_paddings ? "tf_paddings"
                           : !pads_begin ? "pads_begin"
                                         : "pads_end");
    int64_t tmp[2 * CLPAD_MAX_RANK] = {0};
    int first = tf_first_spatial(layout);
    for (int i = 0; i < naxes; i++) {
        tmp[2 * (first + i)] = pads_begin[i];
        tmp[2 * (first + i) + 1] = pads_end[i];
    }
    memcpy(tf_paddings, tmp, sizeof(int64_t) * 2 * (size_t)(naxes + 2));
    return CLPAD_OK;
}

CLPAD_API clpad_status clpad_window_tensor_pads(const clpad_window_result *result, int rank,
                                                int first_axis, int64_t *pads_begin,
                                                int64_t *pads_end)
{
    static const char who[] = "clpad_window_tensor_pads";
    clpad__clear_error();
    if (!result || !pads_begin || !pads_end)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", who,
                           !result ? "result" : !pads_begin ? "pads_begin" : "pads_end");
    const clpad_window_result *r = result;
    if (r->naxes < 1 || r->naxes > CLPAD_MAX_RANK || (int)r->op < 0 ||
        r->op >= CLPAD_WINDOW_OP_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: result is not a clpad_window_* result (naxes = %d, op = %d)",
                           who, r->naxes, (int)r->op);
    if (rank < 1 || rank > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: rank = %d must be in 1..%d", who,
                           rank, CLPAD_MAX_RANK);
    if (first_axis < 0 || first_axis > rank - r->naxes)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: first_axis = %d: spatial axes %d..%lld do not fit in rank %d",
                           who, first_axis, first_axis, (long long)first_axis + r->naxes - 1,
                           rank);
    int64_t b[CLPAD_MAX_RANK] = {0}, e[CLPAD_MAX_RANK] = {0};
    for (int i = 0; i < r->naxes; i++)
        if (r->input[i] < 1 || r->stride[i] < 1 || r->extent[i] < 1 || r->output[i] < 1)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "%s: result is not a clpad_window_* result (axis %d: input %lld, "
                               "stride %lld, extent %lld, output %lld; each must be >= 1)",
                               who, i, (long long)r->input[i], (long long)r->stride[i],
                               (long long)r->extent[i], (long long)r->output[i]);
    for (int i = 0; i < r->naxes; i++) {
        int64_t I = r->input[i], S = r->stride[i], DK = r->extent[i], O = r->output[i];
        int64_t B = r->pads_begin[i], A = r->pads_end[i], v;
        if (r->op == CLPAD_WINDOW_DECONV) {
            /* crop the full (I-1)*S + DK output: begin -B, end O - full + B */
            int64_t full;
            TRY(deconv_full(i, I, S, DK, 0, &full));
            if (B == INT64_MIN)
                return clpad__fail(CLPAD_ERR_OVERFLOW, "%s: axis %d: -pads_begin overflows",
                                   who, i);
            b[first_axis + i] = -B;
            TRY(ck_sub(i, "output - full output", O, full, &v));
            TRY(ck_add(i, "output - full output + pads_begin", v, B, &e[first_axis + i]));
        } else {
            /* A VALID (floor) pass over I + B + end elements yields exactly O windows
             * iff end lies in [e0, e0 + S - 1], e0 = (O-1)*S + DK - I - B: keep A
             * when it does, else the nearest end of that range. */
            TRY(ck_mul(i, "(output-1)*stride", O - 1, S, &v));
            TRY(ck_add(i, "(output-1)*stride + extent", v, DK, &v));
            TRY(ck_sub(i, "last window end - input", v, I, &v));
            TRY(ck_sub(i, "last window end - input - pads_begin", v, B, &v));
            int64_t hi;
            TRY(ck_add(i, "end padding + stride - 1", v, S - 1, &hi));
            b[first_axis + i] = B;
            e[first_axis + i] = A < v ? v : A > hi ? hi : A;
        }
    }
    memcpy(pads_begin, b, sizeof(int64_t) * (size_t)rank);
    memcpy(pads_end, e, sizeof(int64_t) * (size_t)rank);
    return CLPAD_OK;
}

/* ------------------------------------------------------------------------- */
/* Names                                                                     */
/* ------------------------------------------------------------------------- */

struct name_entry {
    const char *name;
    int value;
};

/* Case-insensitive comparison with '-' and '_' interchangeable. */
static bool name_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca == '-')
            ca = '_';
        if (cb == '-')
            cb = '_';
        if (tolower(ca) != tolower(cb))
            return false;
        if (ca == 0)
            return true;
    }
}

/* Look `name` up in `table` (canonical names first, `ncanon` of them, then
 * aliases). `strip_k`: also accept a leading 'k' (TensorRT's kSAME_UPPER). */
static clpad_status lookup_name(const char *who, const char *what, const char *name,
                                const struct name_entry *table, size_t n, size_t ncanon,
                                bool strip_k, int *value)
{
    if (!name)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: name must not be NULL", who);
    for (int pass = 0; pass < (strip_k ? 2 : 1); pass++) {
        const char *s = name;
        if (pass == 1) {
            if (s[0] != 'k' && s[0] != 'K')
                break;
            s++;
        }
        for (size_t i = 0; i < n; i++)
            if (name_eq(s, table[i].name)) {
                *value = table[i].value;
                return CLPAD_OK;
            }
    }
    char list[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < ncanon && len < sizeof list; i++) {
        int w = snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", table[i].name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return clpad__fail(CLPAD_ERR_PARSE, "%s: unknown %s '%s' (expected one of: %s)", who, what,
                       name, list);
}

#define NAME_FUNCS(prefix, type, what, count, strip_k, ...)                              \
    static const struct name_entry prefix##_table[] = {__VA_ARGS__};                     \
    CLPAD_API const char *prefix##_name(type v)                                          \
    {                                                                                    \
        if ((int)v < 0 || (int)v >= (int)(count))                                        \
            return NULL;                                                                 \
        return prefix##_table[(int)v].name;                                              \
    }                                                                                    \
    CLPAD_API clpad_status prefix##_from_name(const char *name, type *out)               \
    {                                                                                    \
        clpad__clear_error();                                                            \
        if (!out)                                                                        \
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,                               \
                               #prefix "_from_name: output pointer must not be NULL");   \
        int v = 0;                                                                       \
        TRY(lookup_name(#prefix "_from_name", what, name, prefix##_table,                \
                        sizeof prefix##_table / sizeof prefix##_table[0], (size_t)(count), \
                        strip_k, &v));                                                   \
        *out = (type)v;                                                                  \
        return CLPAD_OK;                                                                 \
    }

/* Each table lists the canonical names in enum order, then the aliases. */
NAME_FUNCS(clpad_window_op, clpad_window_op, "window op", CLPAD_WINDOW_OP_COUNT, false,
           {"conv", CLPAD_WINDOW_CONV}, {"deconv", CLPAD_WINDOW_DECONV},
           {"pool", CLPAD_WINDOW_POOL}, {"convolution", CLPAD_WINDOW_CONV},
           {"deconvolution", CLPAD_WINDOW_DECONV}, {"convtranspose", CLPAD_WINDOW_DECONV},
           {"conv_transpose", CLPAD_WINDOW_DECONV}, {"pooling", CLPAD_WINDOW_POOL},
           {"maxpool", CLPAD_WINDOW_POOL}, {"avgpool", CLPAD_WINDOW_POOL})

NAME_FUNCS(clpad_trt_padding, clpad_trt_padding, "TensorRT padding mode",
           CLPAD_TRT_PADDING_COUNT, true,
           {"explicit_round_down", CLPAD_TRT_EXPLICIT_ROUND_DOWN},
           {"explicit_round_up", CLPAD_TRT_EXPLICIT_ROUND_UP},
           {"same_upper", CLPAD_TRT_SAME_UPPER}, {"same_lower", CLPAD_TRT_SAME_LOWER})

NAME_FUNCS(clpad_tf_padding, clpad_tf_padding, "TensorFlow padding", CLPAD_TF_PADDING_COUNT,
           false, {"VALID", CLPAD_TF_VALID}, {"SAME", CLPAD_TF_SAME},
           {"EXPLICIT", CLPAD_TF_EXPLICIT})

NAME_FUNCS(clpad_tf_layout, clpad_tf_layout, "TensorFlow data_format", CLPAD_TF_LAYOUT_COUNT,
           false, {"NHWC", CLPAD_TF_CHANNELS_LAST}, {"NCHW", CLPAD_TF_CHANNELS_FIRST},
           {"NWC", CLPAD_TF_CHANNELS_LAST}, {"NDHWC", CLPAD_TF_CHANNELS_LAST},
           {"channels_last", CLPAD_TF_CHANNELS_LAST}, {"NCW", CLPAD_TF_CHANNELS_FIRST},
           {"NCDHW", CLPAD_TF_CHANNELS_FIRST}, {"channels_first", CLPAD_TF_CHANNELS_FIRST})

NAME_FUNCS(clpad_onnx_auto_pad, clpad_onnx_auto_pad, "ONNX auto_pad",
           CLPAD_ONNX_AUTO_PAD_COUNT, false, {"NOTSET", CLPAD_ONNX_NOTSET},
           {"VALID", CLPAD_ONNX_VALID}, {"SAME_UPPER", CLPAD_ONNX_SAME_UPPER},
           {"SAME_LOWER", CLPAD_ONNX_SAME_LOWER})

NAME_FUNCS(clpad_ov_auto_pad, clpad_ov_auto_pad, "OpenVINO auto_pad", CLPAD_OV_AUTO_PAD_COUNT,
           false, {"explicit", CLPAD_OV_EXPLICIT}, {"same_upper", CLPAD_OV_SAME_UPPER},
           {"same_lower", CLPAD_OV_SAME_LOWER}, {"valid", CLPAD_OV_VALID},
           {"notset", CLPAD_OV_EXPLICIT})

NAME_FUNCS(clpad_ov_rounding, clpad_ov_rounding, "OpenVINO rounding_type",
           CLPAD_OV_ROUNDING_COUNT, false, {"floor", CLPAD_OV_FLOOR}, {"ceil", CLPAD_OV_CEIL},
           {"ceil_torch", CLPAD_OV_CEIL_TORCH})

NAME_FUNCS(clpad_torch_padding, clpad_torch_padding, "PyTorch padding",
           CLPAD_TORCH_PADDING_COUNT, false, {"explicit", CLPAD_TORCH_EXPLICIT},
           {"same", CLPAD_TORCH_SAME}, {"valid", CLPAD_TORCH_VALID})
