/* Window geometry, OpenVINO (include/clpad_window.h states the rules). */
#include "window/window.h"

#include <stdio.h>
#include <string.h>

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
    CLPAD__W_OPEN(CLPAD__W_OPENVINO, auto_pad);
    TRY(clpad__w_check_enum(who, "rounding", (int)rounding, CLPAD_OV_ROUNDING_COUNT,
                            "clpad_ov_rounding"));
    if (rounding != CLPAD_OV_FLOOR && op != CLPAD_WINDOW_POOL)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: rounding = %s applies to pooling only (op = %s)", who,
                           clpad_ov_rounding_name(rounding), clpad__w_op_names[op]);
    if ((output_padding || output_shape) && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: %s applies to deconv (ConvolutionBackpropData) only (op = %s)",
                           who, output_padding ? "output_padding" : "output_shape",
                           clpad__w_op_names[op]);
    bool use_pads = auto_pad == CLPAD_OV_EXPLICIT && !output_shape;
    if (auto_pad == CLPAD_OV_EXPLICIT) {
        TRY(clpad__w_check_nonneg(who, "pads_begin", naxes, pads_begin));
        if (!output_shape)
            TRY(clpad__w_check_nonneg(who, "pads_end", naxes, pads_end));
    }
    TRY(clpad__w_check_output_padding(who, naxes, output_padding, r.stride, dilation, false));
    if (output_shape)
        TRY(clpad__w_check_output_shape(who, naxes, output_shape));

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
                TRY(clpad__w_same_pads(i, I, DK, S, true, upper, &o_same, &pb, &pe));
            }
            TRY(clpad__w_explicit_axis(who, &r, i, pb, pe, rd, 0));
            continue;
        }
        int64_t full;
        TRY(clpad__w_deconv_full(i, I, S, DK, output_padding ? output_padding[i] : 0, &full));
        if (output_shape) {
            /* OpenVINO's shape inference: SAME_* split max(total, 0) (SAME_UPPER:
             * end = total // 2, the odd one at the beginning); EXPLICIT keeps the
             * given pads_begin, VALID 0; the end is what remains of full - O,
             * clamped at 0 as OpenVINO clamps the total (an output_shape beyond
             * the full output: zeros at the end, pads 0) */
            int64_t O = output_shape[i], B = 0, A;
            if (same) {
                clpad__w_deconv_split_to(full, O > full ? full : O, !upper, &B, &A);
            } else if (auto_pad == CLPAD_OV_EXPLICIT) {
                B = pads_begin ? pads_begin[i] : 0;
            }
            r.output[i] = O;
            r.pads_begin[i] = B;
            TRY(clpad__w_ck_sub(i, "full output - output_shape - pads_begin", full - O, B, &A));
            r.pads_end[i] = A > 0 ? A : 0;
        } else {
            TRY(clpad__w_explicit_axis(who, &r, i, pb, pe, rd, full));
        }
    }
    return clpad__w_store(result, r);
}
