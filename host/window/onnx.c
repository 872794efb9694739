/* Window geometry, ONNX (include/clpad_window.h states the rules). */
#include "window/window.h"

#include <stdio.h>
#include <string.h>

CLPAD_API clpad_status clpad_window_onnx(clpad_window_op op, clpad_onnx_auto_pad auto_pad,
                                         int naxes, const int64_t *input,
                                         const int64_t *kernel, const int64_t *stride,
                                         const int64_t *dilation, const int64_t *pads,
                                         int ceil_mode, const int64_t *output_padding,
                                         const int64_t *output_shape,
                                         clpad_window_result *result)
{
    CLPAD__W_OPEN(CLPAD__W_ONNX, auto_pad);
    if (ceil_mode && op != CLPAD_WINDOW_POOL)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: ceil_mode applies to pooling only (op = %s)", who,
                           clpad__w_op_names[op]);
    if ((output_padding || output_shape) && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: %s applies to deconv (ConvTranspose) only (op = %s)", who,
                           output_padding ? "output_padding" : "output_shape", clpad__w_op_names[op]);
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
    TRY(clpad__w_check_output_padding(who, naxes, output_padding, r.stride, dilation, true));
    if (output_shape)
        TRY(clpad__w_check_output_shape(who, naxes, output_shape));

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
                TRY(clpad__w_same_pads(i, I, DK, S, true, upper, &r.output[i], &r.pads_begin[i],
                              &r.pads_end[i]));
            } else {
                /* NOTSET and VALID (pads 0) alike: ceil_mode rounds up, with
                 * the last-window drop (ONNX Runtime and onnx shape inference) */
                enum rounding rd = ceil_mode ? ROUND_CEIL_DROP : ROUND_FLOOR;
                TRY(clpad__w_explicit_axis(who, &r, i, pb, pe, rd, 0));
            }
            continue;
        }
        /* ConvTranspose */
        int64_t full;
        TRY(clpad__w_deconv_full(i, I, S, DK, output_padding ? output_padding[i] : 0, &full));
        if (output_shape) {
            /* the operator text's split, any sign: SAME_UPPER B = total // 2,
             * the others A = total // 2 (floor, as ONNX's reference code) */
            r.output[i] = output_shape[i];
            clpad__w_deconv_split_to(full, output_shape[i], upper, &r.pads_begin[i],
                                     &r.pads_end[i]);
        } else if (same) {
            int64_t target, total;
            TRY(clpad__w_ck_mul(i, "input*stride", I, S, &target));
            total = full - target; /* both >= 1 */
            if (total < 0)
                total = 0;
            clpad__w_split(total, upper, &r.pads_begin[i], &r.pads_end[i]);
            r.output[i] = full - total;
        } else {
            TRY(clpad__w_explicit_axis(who, &r, i, pb, pe, ROUND_FLOOR, full));
        }
    }
    return clpad__w_store(result, r);
}
