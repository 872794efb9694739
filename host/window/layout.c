/* Window geometry, pad layouts: ONNX and TensorFlow lists, whole-tensor pads (include/clpad_window.h states the rules). */
#include "window/window.h"

#include <stdio.h>
#include <string.h>

CLPAD_API clpad_status clpad_window_pads_from_onnx(int naxes, const int64_t *onnx_pads,
                                                   int64_t *pads_begin, int64_t *pads_end)
{
    static const char who[] = "clpad_window_pads_from_onnx";
    clpad__clear_error();
    TRY(clpad__w_check_range(who, "naxes", naxes, 1, CLPAD_MAX_RANK));
    TRY(clpad__w_check_lists(who, "onnx_pads", onnx_pads, pads_begin, pads_end));
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
    TRY(clpad__w_check_range(who, "naxes", naxes, 1, CLPAD_MAX_RANK));
    TRY(clpad__w_check_lists(who, "onnx_pads", onnx_pads, pads_begin, pads_end));
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
    TRY(clpad__w_check_range(who, "rank", rank, 3, CLPAD_MAX_RANK));
    TRY(clpad__w_check_enum(who, "layout", (int)layout, CLPAD_TF_LAYOUT_COUNT, "clpad_tf_layout"));
    TRY(clpad__w_check_lists(who, "tf_paddings", tf_paddings, pads_begin, pads_end));
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
    TRY(clpad__w_check_range(who, "naxes", naxes, 1, CLPAD_MAX_RANK - 2));
    TRY(clpad__w_check_enum(who, "layout", (int)layout, CLPAD_TF_LAYOUT_COUNT, "clpad_tf_layout"));
    TRY(clpad__w_check_lists(who, "tf_paddings", tf_paddings, pads_begin, pads_end));
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
    TRY(clpad__w_check_lists(who, "result", result, pads_begin, pads_end));
    TRY(clpad__w_check_result(who, result));
    const clpad_window_result *r = result;
    if (r->naxes < 1 || r->naxes > CLPAD_MAX_RANK || (int)r->op < 0 ||
        r->op >= CLPAD_WINDOW_OP_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: result is not a clpad_window_* result (naxes = %d, op = %d)",
                           who, r->naxes, (int)r->op);
    TRY(clpad__w_check_range(who, "rank", rank, 1, CLPAD_MAX_RANK));
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
            TRY(clpad__w_deconv_full(i, I, S, DK, 0, &full));
            if (B == INT64_MIN)
                return clpad__fail(CLPAD_ERR_OVERFLOW, "%s: axis %d: -pads_begin overflows",
                                   who, i);
            b[first_axis + i] = -B;
            TRY(clpad__w_ck_sub(i, "output - full output", O, full, &v));
            TRY(clpad__w_ck_add(i, "output - full output + pads_begin", v, B, &e[first_axis + i]));
        } else {
            /* A VALID (floor) pass over I + B + end elements yields exactly O windows
             * iff end lies in [e0, e0 + S - 1], e0 = (O-1)*S + DK - I - B: keep A
             * when it does, else the nearest end of that range. */
            TRY(clpad__w_ck_mul(i, "(output-1)*stride", O - 1, S, &v));
            TRY(clpad__w_ck_add(i, "(output-1)*stride + extent", v, DK, &v));
            TRY(clpad__w_ck_sub(i, "last window end - input", v, I, &v));
            TRY(clpad__w_ck_sub(i, "last window end - input - pads_begin", v, B, &v));
            int64_t hi;
            TRY(clpad__w_ck_add(i, "end padding + stride - 1", v, S - 1, &hi));
            b[first_axis + i] = B;
            e[first_axis + i] = A < v ? v : A > hi ? hi : A;
        }
    }
    memcpy(pads_begin, b, sizeof(int64_t) * (size_t)rank);
    memcpy(pads_end, e, sizeof(int64_t) * (size_t)rank);
    return CLPAD_OK;
}
