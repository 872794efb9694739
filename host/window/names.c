/* Window geometry: names of the conventions' enums, and parsing them. */
#include "window/window.h"

#include <stdio.h>
#include <string.h>
#include <ctype.h>

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
