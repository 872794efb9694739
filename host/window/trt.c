/* Window geometry, TensorRT PaddingMode (include/clpad_window.h states the rules). */
#include "window/window.h"

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
    CLPAD__W_OPEN(CLPAD__W_TRT, mode);
    bool explicit_mode =
        mode == CLPAD_TRT_EXPLICIT_ROUND_DOWN || mode == CLPAD_TRT_EXPLICIT_ROUND_UP;
    bool upper = mode == CLPAD_TRT_SAME_UPPER;

    for (int i = 0; i < naxes; i++) {
        int64_t I = r.input[i], S = r.stride[i], DK = r.extent[i];
        if (explicit_mode) {
            int64_t B = pads_begin ? pads_begin[i] : 0, A = pads_end ? pads_end[i] : 0, full = 0;
            if (op == CLPAD_WINDOW_DECONV)
                TRY(clpad__w_deconv_full(i, I, S, DK, 0, &full));
            TRY(clpad__w_explicit_axis(
                who, &r, i, B, A,
                mode == CLPAD_TRT_EXPLICIT_ROUND_DOWN ? ROUND_FLOOR : ROUND_CEIL, full));
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
    return clpad__w_store(result, r);
}
