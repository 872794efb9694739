/* Window geometry, TensorFlow / Keras (include/clpad_window.h states the rules). */
#include "window/window.h"

#include <stdio.h>
#include <string.h>

/* Forward conv / pool of one axis in TF's rules. */
static clpad_status tf_forward(const char *who, int axis, clpad_tf_padding padding, int64_t I,
                               int64_t DK, int64_t S, int64_t pb, int64_t pe, int64_t *O,
                               int64_t *B, int64_t *A)
{
    switch (padding) {
    case CLPAD_TF_SAME:
        return clpad__w_same_pads(axis, I, DK, S, true, true, O, B, A);
    case CLPAD_TF_VALID:
        *B = *A = 0;
        return clpad__w_window_count(who, axis, I, 0, 0, DK, S, ROUND_FLOOR, O);
    default:
        *B = pb;
        *A = pe;
        return clpad__w_window_count(who, axis, I, pb, pe, DK, S, ROUND_FLOOR, O);
    }
}

CLPAD_API clpad_status clpad_window_tf(clpad_window_op op, clpad_tf_padding padding,
                                       int naxes, const int64_t *input,
                                       const int64_t *kernel, const int64_t *stride,
                                       const int64_t *dilation, const int64_t *pads_begin,
                                       const int64_t *pads_end, const int64_t *output_shape,
                                       clpad_window_result *result)
{
    CLPAD__W_OPEN(CLPAD__W_TF, padding);
    if (padding != CLPAD_TF_EXPLICIT && (pads_begin || pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: pads_begin / pads_end must be NULL unless padding is "
                           "EXPLICIT (padding = %s)",
                           who, clpad_tf_padding_name(padding));
    if (output_shape && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: output_shape applies to deconv only (op = %s)", who,
                           clpad__w_op_names[op]);
    TRY(clpad__w_check_nonneg(who, "pads_begin", naxes, pads_begin));
    TRY(clpad__w_check_nonneg(who, "pads_end", naxes, pads_end));
    /* TensorFlow's EXPLICIT padding takes its explicit_paddings, both sides. */
    if (padding == CLPAD_TF_EXPLICIT && (!pads_begin || !pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: padding EXPLICIT needs pads_begin and pads_end (%s is NULL)", who,
                           !pads_begin ? "pads_begin" : "pads_end");
    if (output_shape)
        TRY(clpad__w_check_output_shape(who, naxes, output_shape));

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
        TRY(clpad__w_deconv_full(i, I, S, DK, 0, &full));
        if (output_shape) {
            O = output_shape[i];
        } else if (padding == CLPAD_TF_SAME) {
            TRY(clpad__w_ck_mul(i, "input*stride", I, S, &O));
        } else if (padding == CLPAD_TF_VALID) {
            TRY(clpad__w_ck_mul(i, "input*stride", I, S, &O));
            if (DK > S)
                TRY(clpad__w_ck_add(i, "input*stride + (extent - stride)", O, DK - S, &O));
        } else {
            TRY(clpad__w_deconv_explicit(who, i, full, pb, pe, &O));
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
        TRY(clpad__w_ck_sub(i, "full output - output", full, O, &r.pads_end[i]));
        TRY(clpad__w_ck_sub(i, "full output - output - pads_begin", r.pads_end[i], fb, &r.pads_end[i]));
    }
    return clpad__w_store(result, r);
}

/* Keras (include/clpad_window.h states the rules). Convolution and pooling
 * are TensorFlow's SAME / VALID; the transposed convolution follows Keras'
 * own geometry (deconv_output_length, and the backend-neutral crops its
 * conv_transpose computes), which tf.nn.conv2d_transpose cannot express
 * when output_padding is given. */
CLPAD_API clpad_status clpad_window_keras(clpad_window_op op, clpad_tf_padding padding,
                                          int naxes, const int64_t *input,
                                          const int64_t *kernel, const int64_t *stride,
                                          const int64_t *dilation,
                                          const int64_t *output_padding,
                                          clpad_window_result *result)
{
    static const char who[] = "clpad_window_keras";
    clpad__clear_error();
    TRY(clpad__w_check_result(who, result));
    if (padding != CLPAD_TF_VALID && padding != CLPAD_TF_SAME)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: padding = %d: Keras has \"valid\" and \"same\" only "
                           "(CLPAD_TF_VALID, CLPAD_TF_SAME)",
                           who, (int)padding);
    clpad_window_result r;
    TRY(clpad__w_load_geometry(who, op, naxes, input, kernel, stride, dilation, true,
                               op == CLPAD_WINDOW_POOL, &r));
    if (output_padding && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: output_padding applies to deconv (Conv*DTranspose) only "
                           "(op = %s)",
                           who, clpad__w_op_names[op]);
    if (output_padding) {
        for (int i = 0; i < naxes; i++) {
            int64_t v = output_padding[i];
            if (v < 0 || v >= r.stride[i])
                return clpad__fail(CLPAD_ERR_INVALID_PADS,
                                   "%s: output_padding[%d] = %lld must be >= 0 and smaller "
                                   "than stride[%d] = %lld",
                                   who, i, (long long)v, i, (long long)r.stride[i]);
        }
    }
    bool same = padding == CLPAD_TF_SAME;
    for (int i = 0; i < naxes; i++) {
        int64_t I = r.input[i], S = r.stride[i], DK = r.extent[i];
        if (op != CLPAD_WINDOW_DECONV) {
            TRY(tf_forward(who, i, padding, I, DK, S, 0, 0, &r.output[i], &r.pads_begin[i],
                           &r.pads_end[i]));
            continue;
        }
        /* Elements cropped from the full output (I-1)*S + DK, begin and end;
         * negative: zeros appended. With output_padding op:
         *   valid: crops 0 and -op, O = (I-1)*S + DK + op;
         *   same:  total = DK - DK%2 - op, O = (I-1)*S + DK%2 + op,
         *          begin = max(floor(total/2), 0);
         * without: valid op = max(S - DK, 0), O = (I-1)*S + max(DK, S);
         *          same total = DK - S, O = I*S, begin = max(floor(total/2), 0). */
        int64_t full, total, B;
        TRY(clpad__w_deconv_full(i, I, S, DK, 0, &full));
        if (!same) {
            total = -(output_padding ? output_padding[i] : (S > DK ? S - DK : 0));
            B = 0;
        } else {
            total = output_padding ? DK - DK % 2 - output_padding[i] : DK - S;
            B = clpad__w_floor_div(total, 2);
            if (B < 0)
                B = 0;
        }
        r.pads_begin[i] = B;
        r.pads_end[i] = total - B;
        TRY(clpad__w_ck_sub(i, "full output - total crop", full, total, &r.output[i]));
        if (r.output[i] < 1)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE, "%s: axis %d: output size %lld is < 1",
                               who, i, (long long)r.output[i]);
    }
    return clpad__w_store(result, r);
}
