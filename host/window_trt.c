/* Window geometry, TensorRT PaddingMode (include/clpad_window.h states the rules). */
#include "window_internal.h"

#include <stdio.h>
#include <string.h>

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
    TRY(clpad__w_check_result(who, result));
    if ((int)mode < 0 || mode >= CLPAD_TRT_PADDING_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: mode = %d is not a clpad_trt_padding", who, (int)mode);
    clpad_window_result r;
    TRY(clpad__w_load_geometry(who, op, naxes, input, kernel, stride, dilation, false, false, &r));
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
                TRY(clpad__w_deconv_full(i, I, S, DK, 0, &full));
                TRY(clpad__w_deconv_explicit(who, i, full, B, A, &r.output[i]));
            } else {
                TRY(clpad__w_window_count(who, i, I, B, A, DK, S,
                                 mode == CLPAD_TRT_EXPLICIT_ROUND_DOWN ? ROUND_FLOOR
                                                                       : ROUND_CEIL,
                                 &r.output[i]));
            }
        } else if (op == CLPAD_WINDOW_DECONV) {
            /* O = min(I*S, (I-1)*S + DK), P = max(DK - S, 0) */
            int64_t is, full;
            TRY(clpad__w_ck_mul(i, "input*stride", I, S, &is));
            TRY(clpad__w_deconv_full(i, I, S, DK, 0, &full));
            r.output[i] = is < full ? is : full;
            int64_t p = DK - S > 0 ? DK - S : 0;
            clpad__w_split(p, upper, &r.pads_begin[i], &r.pads_end[i]);
        } else {
            TRY(clpad__w_same_pads(i, I, DK, S, false, upper, &r.output[i], &r.pads_begin[i],
                          &r.pads_end[i]));
        }
    }
    *result = r;
    return CLPAD_OK;
}
