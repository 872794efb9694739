/* Window geometry, PyTorch (include/clpad_window.h states the rules). */
#include "window/window.h"

#include <stdio.h>
#include <string.h>

CLPAD_API clpad_status clpad_window_torch(clpad_window_op op, clpad_torch_padding padding_mode,
                                          int naxes, const int64_t *input,
                                          const int64_t *kernel, const int64_t *stride,
                                          const int64_t *dilation, const int64_t *padding,
                                          int ceil_mode, const int64_t *output_padding,
                                          clpad_window_result *result)
{
    CLPAD__W_OPEN(CLPAD__W_TORCH, padding_mode);
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
                           clpad__w_op_names[op]);
    if (output_padding && op != CLPAD_WINDOW_DECONV)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: output_padding applies to deconv (ConvTranspose) only (op = %s)",
                           who, clpad__w_op_names[op]);
    TRY(clpad__w_check_nonneg(who, "padding", naxes, padding));
    TRY(clpad__w_check_output_padding(who, naxes, output_padding, r.stride, dilation, true));
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
            clpad__w_split(DK - 1, true, &r.pads_begin[i], &r.pads_end[i]);
            TRY(clpad__w_window_count(who, i, I, r.pads_begin[i], r.pads_end[i], DK, S, ROUND_FLOOR,
                             &r.output[i]));
            continue;
        }
        int64_t full = 0;
        if (op == CLPAD_WINDOW_DECONV)
            TRY(clpad__w_deconv_full(i, I, S, DK, output_padding ? output_padding[i] : 0, &full));
        else if (op == CLPAD_WINDOW_POOL && p > DK / 2)
            return clpad__fail(CLPAD_ERR_INVALID_PADS,
                               "%s: padding[%d] = %lld: pad should be at most half of "
                               "the effective kernel size %lld (<= %lld)",
                               who, i, (long long)p, (long long)DK, (long long)(DK / 2));
        TRY(clpad__w_explicit_axis(who, &r, i, p, p, ceil_mode ? ROUND_CEIL_DROP : ROUND_FLOOR,
                                   full));
    }
    return clpad__w_store(result, r);
}
