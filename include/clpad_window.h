/*
 * Window geometry (docs/spec.md, "Window geometry"): output size and begin/end padding of a
 * convolution, deconvolution (transposed convolution) or pooling window, per
 * spatial axis, in the conventions of TensorRT, TensorFlow (and Keras), ONNX,
 * OpenVINO and PyTorch. Included by clpad.h; the conventions of clpad.h apply: every call
 * returns a clpad_status, outputs are written only on success, and a failed
 * call leaves a one-line message naming the argument and axis in
 * clpad_last_error().
 *
 * Pure host code: no OpenCL call, thread-safe, integer arithmetic only (no
 * floating-point ceilings); every sum and product is checked for int64
 * overflow.
 *
 * Notation (docs/spec.md, "Window geometry"; TensorRT's PaddingMode documentation):
 *   I  input size along the axis (elements, >= 1)
 *   F  kernel (filter) size (>= 1)
 *   S  stride (>= 1)
 *   d  dilation (>= 1)
 *   DK effective kernel extent, 1 + d*(F-1)  (the "extent" field below)
 *   B, A  padding before / after the data (pads_begin / pads_end)
 *   M  = I + B + A, the padded input
 *   O  output size
 *
 * Arrays are `naxes` int64 values, one per spatial axis (outermost first, e.g.
 * [H, W]); naxes is 1..CLPAD_MAX_RANK. `stride` and `dilation` may be NULL,
 * meaning 1 on every axis (PyTorch pooling: a NULL stride means the kernel
 * size, as torch.nn.MaxPool2d's default).
 *
 * Meaning of the result's pads:
 *  - conv and pool: elements added to the input before / after the data. The
 *    first window starts at input position -pads_begin[i]; window o covers
 *    positions o*S - pads_begin + k*d for k in 0..F-1.
 *  - deconv: elements cropped from the full transposed-convolution output
 *    of length (I-1)*S + DK (+ output_padding at the end), as ONNX
 *    ConvTranspose's "pads": O = (I-1)*S + DK + output_padding - B - A.
 *    A negative value extends the output with zeros on that side.
 *    (OpenVINO never reports a negative pad: see clpad_window_openvino.)
 * clpad_window_tensor_pads() turns a result into the pads to give clpad_pad /
 * clpad_pad_cpu so that an unpadded (VALID, floor) window over the padded
 * tensor equals the framework's window (or, for deconv, so that padding the
 * full output crops it to the framework's output).
 *
 * Error statuses used throughout:
 *   CLPAD_ERR_INVALID_ARGUMENT  NULL required array, naxes out of range, a
 *                               bad enum, kernel/stride/dilation < 1, an
 *                               option the convention does not have;
 *   CLPAD_ERR_INVALID_SHAPE     input < 1, an output size < 1 (kernel extent
 *                               larger than the padded input), an
 *                               inconsistent output_shape;
 *   CLPAD_ERR_INVALID_PADS      negative explicit pads where the convention
 *                               forbids them, PyTorch pooling pads above
 *                               half the kernel extent, output_padding out
 *                               of range;
 *   CLPAD_ERR_OVERFLOW          a value of the computation overflows int64;
 *   CLPAD_ERR_PARSE             (name parsers) unknown name.
 */
#ifndef CLPAD_WINDOW_H
#define CLPAD_WINDOW_H

/* clpad_status, CLPAD_API and CLPAD_MAX_RANK (clpad.h includes this header at
 * its end, so either may be included first). */
#include "clpad.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* Enumerations                                                              */
/* ------------------------------------------------------------------------- */

/** The kind of window. */
typedef enum clpad_window_op {
    CLPAD_WINDOW_CONV = 0, /* convolution: DK = 1 + d*(F-1) */
    CLPAD_WINDOW_DECONV,   /* transposed convolution (ConvTranspose, Deconvolution) */
    CLPAD_WINDOW_POOL,     /* max / average pooling; DK = 1 + d*(F-1) where dilation exists */
    CLPAD_WINDOW_OP_COUNT
} clpad_window_op;

/** TensorRT nvinfer1::PaddingMode, with TensorRT's numeric values. */
typedef enum clpad_trt_padding {
    CLPAD_TRT_EXPLICIT_ROUND_DOWN = 0, /* given pads, O = floor((M - DK)/S) + 1 */
    CLPAD_TRT_EXPLICIT_ROUND_UP = 1,   /* given pads, O = ceil((M - DK)/S) + 1 */
    CLPAD_TRT_SAME_UPPER = 2,          /* O = ceil(I/S), B = floor(P/2), A = P - B */
    CLPAD_TRT_SAME_LOWER = 3,          /* O = ceil(I/S), A = floor(P/2), B = P - A */
    CLPAD_TRT_PADDING_COUNT
} clpad_trt_padding;

/** TensorFlow `padding` argument (tf.nn.conv2d, tf.nn.max_pool, ...). */
typedef enum clpad_tf_padding {
    CLPAD_TF_VALID = 0, /* no padding, round down */
    CLPAD_TF_SAME,      /* O = ceil(I/S), total pad clamped at 0, extra at the end */
    CLPAD_TF_EXPLICIT,  /* a per-axis list [[0,0],[top,bottom],[left,right],[0,0]] */
    CLPAD_TF_PADDING_COUNT
} clpad_tf_padding;

/** TensorFlow data_format, for the per-axis padding lists. */
typedef enum clpad_tf_layout {
    CLPAD_TF_CHANNELS_LAST = 0, /* NHWC, NWC, NDHWC: batch first, channels last */
    CLPAD_TF_CHANNELS_FIRST,    /* NCHW, NCW, NCDHW: batch, channels, then spatial */
    CLPAD_TF_LAYOUT_COUNT
} clpad_tf_layout;

/** ONNX `auto_pad` attribute (Conv, ConvTranspose, MaxPool, AveragePool, LpPool). */
typedef enum clpad_onnx_auto_pad {
    CLPAD_ONNX_NOTSET = 0, /* explicit `pads` */
    CLPAD_ONNX_VALID,      /* no padding */
    CLPAD_ONNX_SAME_UPPER, /* extra padding at the end */
    CLPAD_ONNX_SAME_LOWER, /* extra padding at the beginning */
    CLPAD_ONNX_AUTO_PAD_COUNT
} clpad_onnx_auto_pad;

/** OpenVINO `auto_pad` attribute (Convolution-1, ConvolutionBackpropData-1,
 *  MaxPool-1/8/14, AvgPool-1/14). */
typedef enum clpad_ov_auto_pad {
    CLPAD_OV_EXPLICIT = 0, /* pads_begin / pads_end as given */
    CLPAD_OV_SAME_UPPER,   /* extra padding at the end */
    CLPAD_OV_SAME_LOWER,   /* extra padding at the beginning */
    CLPAD_OV_VALID,        /* no padding */
    CLPAD_OV_AUTO_PAD_COUNT
} clpad_ov_auto_pad;

/** OpenVINO pooling `rounding_type`. */
typedef enum clpad_ov_rounding {
    CLPAD_OV_FLOOR = 0,  /* MaxPool-1/8/14, AvgPool-1/14 */
    CLPAD_OV_CEIL,       /* round up; a last window may start in the end padding */
    CLPAD_OV_CEIL_TORCH, /* MaxPool-14/AvgPool-14 only: round up, but a last window
                            that would start in the end padding is dropped */
    CLPAD_OV_ROUNDING_COUNT
} clpad_ov_rounding;

/** PyTorch `padding` argument (torch.nn.Conv*d, ConvTranspose*d, MaxPool*d, AvgPool*d). */
typedef enum clpad_torch_padding {
    CLPAD_TORCH_EXPLICIT = 0, /* integers: the same padding on both sides of an axis */
    CLPAD_TORCH_SAME,         /* padding='same' (convolution, stride 1 only) */
    CLPAD_TORCH_VALID,        /* padding='valid' (convolution): no padding */
    CLPAD_TORCH_PADDING_COUNT
} clpad_torch_padding;

/* ------------------------------------------------------------------------- */
/* Result                                                                    */
/* ------------------------------------------------------------------------- */

/**
 * Per-axis geometry computed by every clpad_window_* front end. The first
 * `naxes` entries of each array are meaningful; the rest are zero.
 * input, extent and stride echo the call (after defaults), so that the result
 * alone is enough for clpad_window_tensor_pads().
 * The caller sets `size` (clpad_window_result_init): a front end refuses a
 * size below this version's struct and writes only the first `size` bytes
 * (keeping `size`), so that later versions can add fields at the end.
 */
typedef struct clpad_window_result {
    size_t size;                        /* sizeof(clpad_window_result) (set by init) */
    clpad_window_op op;
    int naxes;
    int64_t input[CLPAD_MAX_RANK];      /* I */
    int64_t extent[CLPAD_MAX_RANK];     /* DK = 1 + d*(F-1) */
    int64_t stride[CLPAD_MAX_RANK];     /* S */
    int64_t output[CLPAD_MAX_RANK];     /* O */
    int64_t pads_begin[CLPAD_MAX_RANK]; /* B (deconv: cropped at the start) */
    int64_t pads_end[CLPAD_MAX_RANK];   /* A (deconv: cropped at the end) */
} clpad_window_result;

/** Zero *result and set its size; NULL is a no-op. */
CLPAD_API void clpad_window_result_init(clpad_window_result *result);

/* ------------------------------------------------------------------------- */
/* Front ends, one per convention                                            */
/* ------------------------------------------------------------------------- */

/**
 * TensorRT PaddingMode formulas, exactly as TensorRT's nvinfer1::PaddingMode
 * documentation states them (docs/spec.md, "Window geometry").
 *
 * conv / pool:
 *   EXPLICIT_ROUND_DOWN  O = floor((M - DK)/S) + 1, pads as given
 *   EXPLICIT_ROUND_UP    O = ceil((M - DK)/S) + 1,  pads as given
 *   SAME_UPPER           O = ceil(I/S), P = floor((I-1)/S)*S + DK - I,
 *                        B = floor(P/2), A = P - B
 *   SAME_LOWER           same O and P, A = floor(P/2), B = P - A
 * deconv:
 *   EXPLICIT_*           O = (I-1)*S + DK - (B + A)
 *   SAME_*               O = min(I*S, (I-1)*S + DK), P = max(DK - S, 0),
 *                        split as for conv
 * Clamping and rounding: P is NOT clamped for conv and pool: when DK < S it
 * can be negative (e.g. I=6, S=4, F=1: P = -1, SAME_UPPER B = -1, A = 0, so the
 * first window starts at input position 1); floor(P/2) rounds toward -inf.
 * Pooling has no dilation in TensorRT (DK = F): `dilation` must be NULL or 1.
 * Explicit pads may have any sign (negative values crop, as TensorRT's
 * formula M = I + B + A reads), but M must be >= DK for conv and pool, which
 * also keeps ROUND_UP from producing a window outside the padded input.
 * In SAME modes pads_begin / pads_end are ignored (TensorRT: "padding mode
 * takes precedence") and may be NULL; in explicit modes NULL means 0.
 *
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (naxes, NULL input/kernel/result,
 * result->size below this version's struct, bad
 * op or mode, kernel/stride/dilation < 1, dilation != 1 for pooling),
 * CLPAD_ERR_INVALID_SHAPE (input < 1, M < DK, deconv output < 1),
 * CLPAD_ERR_OVERFLOW.
 */
CLPAD_API clpad_status clpad_window_tensorrt(clpad_window_op op, clpad_trt_padding mode,
                                             int naxes, const int64_t *input,
                                             const int64_t *kernel, const int64_t *stride,
                                             const int64_t *dilation,
                                             const int64_t *pads_begin,
                                             const int64_t *pads_end,
                                             clpad_window_result *result);

/**
 * TensorFlow padding (tf.nn.convolution / conv2d / max_pool / avg_pool /
 * conv2d_transpose; docs/spec.md, "Window geometry").
 *
 * conv / pool:
 *   VALID     pads 0, O = floor((I - DK)/S) + 1 (= ceil((I - DK + 1)/S))
 *   SAME      O = ceil(I/S), total = max((O-1)*S + DK - I, 0),
 *             B = floor(total/2), A = total - B (the odd one at the end)
 *   EXPLICIT  pads as given (both >= 0), O = floor((M - DK)/S) + 1
 * Clamping: the SAME total is clamped at 0 (unlike TensorRT), so when DK < S
 * the windows start at 0 and the unused tail is simply not covered.
 * Example (docs/spec.md): I = 7x8, F = 4, S = 3, SAME -> O = 3x3, pads H [1, 2],
 * W [1, 1].
 * Note for average pooling: TF's SAME average divides by the number of
 * in-range elements (padding excluded); padding with zeros and averaging the
 * full window (count_include_pad) gives a different value at the borders.
 *
 * deconv (tf.nn.conv2d_transpose): the transposed convolution whose forward
 * convolution, with the same padding, maps an input of size `output_shape[i]`
 * to I. `output_shape` (spatial sizes only; NULL = Keras Conv2DTranspose's
 * default: SAME O = I*S, VALID O = I*S + max(DK - S, 0), EXPLICIT
 * O = (I-1)*S + DK - B - A) must be consistent: the forward convolution of
 * O must give I. The result's pads crop the full output (see the top of this
 * file): B = the forward convolution's pad_begin on O, A = (I-1)*S + DK - O - B;
 * A is negative when O exceeds the full output (the extra elements are zeros).
 *
 * TensorFlow itself has no output_padding: Keras' Conv*DTranspose(
 * output_padding=...) is clpad_window_keras(). Dilation enters only through
 * DK (tf.nn.conv2d_transpose accepts dilations > 1 only with strides 1 on
 * some devices; the geometry is the same).
 *
 * `pads_begin` / `pads_end` are required by EXPLICIT (TensorFlow's
 * explicit_paddings; NULL is CLPAD_ERR_INVALID_ARGUMENT) and must be NULL
 * otherwise (TensorFlow has one padding argument).
 * Errors: as clpad_window_tensorrt; CLPAD_ERR_INVALID_PADS (a negative
 * explicit pad); CLPAD_ERR_INVALID_SHAPE (I < DK for VALID, M < DK,
 * inconsistent output_shape).
 */
CLPAD_API clpad_status clpad_window_tf(clpad_window_op op, clpad_tf_padding padding,
                                       int naxes, const int64_t *input,
                                       const int64_t *kernel, const int64_t *stride,
                                       const int64_t *dilation, const int64_t *pads_begin,
                                       const int64_t *pads_end, const int64_t *output_shape,
                                       clpad_window_result *result);

/**
 * Keras (keras.layers.Conv*D, Conv*DTranspose, MaxPooling*D, AveragePooling*D
 * and keras.ops.conv / conv_transpose / max_pool / average_pool, any
 * backend). `padding` is CLPAD_TF_VALID ("valid") or CLPAD_TF_SAME ("same").
 *
 * conv / pool: as clpad_window_tf (Keras' "same" is O = floor((I-1)/S) + 1 =
 *   ceil(I/S), TensorFlow's SAME). Pooling: a NULL stride means the pool
 *   size (Keras' strides=None).
 * deconv: Keras' deconv_output_length, with K' = DK the dilated kernel and
 *   pad = K' // 2 for "same", 0 for "valid":
 *   output_padding given (0 <= output_padding < S, as the layers require):
 *     O = (I-1)*S + DK - 2*pad + output_padding, i.e. "valid"
 *     (I-1)*S + DK + output_padding, "same" (I-1)*S + DK%2 + output_padding;
 *   output_padding NULL (Keras' None): "valid" O = (I-1)*S + max(DK, S),
 *     "same" O = I*S.
 *   The result's pads are the crops of the full output (I-1)*S + DK that
 *   Keras' conv_transpose applies (its backend-neutral form, which the JAX
 *   backend runs and TensorFlow's conv2d_transpose agrees with wherever it
 *   accepts the shape): total = full - O; "valid": B = 0, A = total (<= 0:
 *   output_padding zeros at the end); "same": B = max(floor(total/2), 0),
 *   A = total - B. Example: I = 3, F = 3, S = 2, "same", output_padding 1:
 *   O = 4 + 1 + 1 = 6, full 7, B = 0, A = 1.
 *   The TensorFlow backend refuses the one case "same" with DK even and
 *   output_padding 0 (then ceil(O/S) = I - 1; TF's size check fails); the
 *   PyTorch backend clamps an output_padding it cannot express and warns.
 * Keras' layers also refuse strides > 1 together with dilation_rate > 1;
 * keras.ops does not, and neither does this function.
 *
 * Errors: as clpad_window_tensorrt; CLPAD_ERR_INVALID_ARGUMENT (EXPLICIT
 * padding, output_padding for conv or pool); CLPAD_ERR_INVALID_PADS
 * (output_padding < 0 or >= stride); CLPAD_ERR_INVALID_SHAPE (I < DK for
 * "valid" conv / pool, a deconv output < 1).
 */
CLPAD_API clpad_status clpad_window_keras(clpad_window_op op, clpad_tf_padding padding,
                                          int naxes, const int64_t *input,
                                          const int64_t *kernel, const int64_t *stride,
                                          const int64_t *dilation,
                                          const int64_t *output_padding,
                                          clpad_window_result *result);

/**
 * ONNX auto_pad / pads (operators Conv, ConvTranspose, MaxPool, AveragePool;
 * onnx.ai operator docs; docs/spec.md, "Window geometry"). `pads` is in ONNX's flat layout
 * [x1_begin, x2_begin, ..., x1_end, x2_end] (2*naxes values, each >= 0),
 * used only when auto_pad is NOTSET (NULL means zeros) and required to be
 * NULL otherwise ("cannot be used simultaneously with auto_pad").
 *
 * conv / pool:
 *   NOTSET      O = floor((M - DK)/S) + 1; pooling with ceil_mode:
 *               O = ceil((M - DK)/S) + 1, and a last window that would start
 *               in the end padding is dropped: if (O-1)*S >= I + B then O -= 1
 *               (MaxPool: "Sliding windows that would start in the right
 *               padded region are ignored"; PyTorch's rule and the ONNX
 *               reference implementation). It is one decrement: with end
 *               pads of a kernel or more, ceil_mode can give fewer windows
 *               than floor (I=3, F=1, S=1, pads [0, 3]: floor 6, ceil 5).
 *   VALID       pads 0, O = floor((I - DK)/S) + 1; with ceil_mode as NOTSET
 *               with zero pads: O = ceil((I - DK)/S) + 1, with the drop rule
 *               (what ONNX Runtime and onnx.shape_inference compute: input 7,
 *               kernel 3, stride 3 gives 3; the operator text's VALID formula
 *               gives 2 and is not what runtimes do)
 *   SAME_UPPER  O = ceil(I/S) (with or without ceil_mode),
 *               total = max((O-1)*S + DK - I, 0), B = floor(total/2), A = total - B
 *   SAME_LOWER  same O and total, A = floor(total/2), B = total - A
 * Clamping: the SAME total is clamped at 0. ceil_mode must be 0 unless op is
 * CLPAD_WINDOW_POOL. Dilation applies to pooling too (MaxPool dilations).
 *
 * deconv (ConvTranspose): full = S*(I-1) + output_padding + DK.
 *   output_shape given (spatial sizes; `pads` is then ignored and may be
 *   non-NULL): total = full - output_shape[i], of any sign, and, per the
 *   ONNX ConvTranspose text, SAME_UPPER: B = floor(total/2), A = total - B;
 *   any other auto_pad: A = floor(total/2), B = total - A. O = output_shape[i].
 *   An output_shape larger than the full output gives a negative total,
 *   split the same way with floor division, so negative pads: zeros added
 *   on that side (total -1: NOTSET B = 0, A = -1, one zero at the end;
 *   SAME_UPPER B = -1, A = 0; total -3: NOTSET B = -1, A = -2). ONNX's
 *   reference implementation (onnx.reference) computes exactly this split
 *   for SAME_UPPER and SAME_LOWER; for NOTSET and VALID it keeps the given
 *   pads (zeros when absent) instead, which agrees with the split whenever
 *   total is 0 or -1 (the cases of ONNX's backend tests). ONNX Runtime
 *   clamps a negative total at 0, i.e. B = 0 and A = total, which differs
 *   from the split for SAME_UPPER and for totals below -1.
 *   otherwise NOTSET: O = full - B - A (must be >= 1); VALID: pads 0, O = full;
 *   SAME_UPPER / SAME_LOWER: O = I*S where reachable: total =
 *   max(full - I*S, 0), split as Conv's (SAME_UPPER: the odd one at the end),
 *   O = full - total = min(I*S, full).
 *   Why this split: the ONNX ConvTranspose text before onnx/onnx#3019 put
 *   SAME_UPPER's extra pad at the beginning, contradicting auto_pad's own
 *   description; the text was corrected, and ONNX Runtime switched to the
 *   corrected rule in 1.13 (microsoft/onnxruntime#12537). Runtimes older than
 *   that give the opposite split for odd totals.
 *   output_padding (NULL = 0) must satisfy 0 <= output_padding < max(S, d)
 *   ("must be less than the corresponding stride/dilation dimension"); it
 *   lengthens `full` at the end, also when output_shape is given.
 * output_padding and output_shape must be NULL unless op is deconv.
 *
 * Errors: as clpad_window_tensorrt; CLPAD_ERR_INVALID_PADS (negative pads,
 * output_padding out of range); CLPAD_ERR_INVALID_SHAPE (M < DK, deconv
 * output < 1, output_shape < 1).
 */
CLPAD_API clpad_status clpad_window_onnx(clpad_window_op op, clpad_onnx_auto_pad auto_pad,
                                         int naxes, const int64_t *input,
                                         const int64_t *kernel, const int64_t *stride,
                                         const int64_t *dilation, const int64_t *pads,
                                         int ceil_mode, const int64_t *output_padding,
                                         const int64_t *output_shape,
                                         clpad_window_result *result);

/**
 * OpenVINO operation specs (Convolution-1, ConvolutionBackpropData-1,
 * MaxPool-1/8/14 and AvgPool-1/14, "Shape Calculation Rules for Pooling
 * Operators"), and OpenVINO's pooling shape inference.
 *
 * Pads: EXPLICIT uses pads_begin / pads_end (each >= 0; NULL means 0); VALID
 * uses 0; SAME_UPPER / SAME_LOWER use total = max((ceil(I/S) - 1)*S + DK - I, 0)
 * with the odd one at the end (upper) or the beginning (lower). Given pads
 * are ignored by the non-explicit modes, as OpenVINO ignores them.
 *
 * conv: O = floor((M - DK)/S) + 1 (= ceil(I/S) for SAME_*); rounding must be
 *   CLPAD_OV_FLOOR.
 * pool: O = floor((M - DK)/S) + 1, or with CEIL and CEIL_TORCH
 *   O = ceil((M - DK)/S) + 1; CEIL_TORCH (MaxPool-14/AvgPool-14 only) then
 *   drops a last window that would start in the padding area:
 *   if (O-1)*S >= I + B then O -= 1. Plain CEIL (MaxPool-1/8, AvgPool-1)
 *   does not drop it: with I=6, S=4, F=1, SAME_UPPER, CEIL gives O = 3 (a
 *   window at 8, past the data) where CEIL_TORCH gives 2. The rounding also
 *   applies to SAME_* pads, as OpenVINO's shape inference does. M >= DK is
 *   required ("Kernel after dilation has size larger than the data shape
 *   after padding").
 * deconv (ConvolutionBackpropData-1): full = S*(I-1) + DK + output_padding
 *   (output_padding >= 0, NULL = 0; OpenVINO sets no upper bound).
 *   output_shape NULL: EXPLICIT O = full - B - A; any other auto_pad: pads 0,
 *     O = full.
 *   output_shape given, O = output_shape[i], as OpenVINO's shape inference
 *   (convolution_backprop_shape_inference_util.hpp, apply_padding) computes
 *   the pads: SAME_UPPER / SAME_LOWER: t = max(full - O, 0), the total
 *     clamped at 0; SAME_UPPER: floor(t/2) at the end, B = t - floor(t/2)
 *     (the odd one at the BEGINNING, as the OpenVINO spec writes it, the
 *     pre-2021 ONNX wording); SAME_LOWER: B = floor(t/2).
 *     EXPLICIT: B = pads_begin[i] as given (pads_end is not used);
 *     VALID: B = 0.
 *     In every case the output starts B elements into the full output and
 *     A = max(full - O - B, 0), clamped at 0 as OpenVINO clamps the total:
 *     when O exceeds what is left (full - B), the last O - (full - B)
 *     elements are zeros at the end and no pad counts them, so that
 *     O = full - B - A no longer holds. An output_shape beyond the full
 *     output gives B = 0 and A = 0 with SAME_* and VALID, as OpenVINO's
 *     shape inference reports (input 37, stride 2, kernel 1, output_shape 74,
 *     SAME_UPPER: full 73, pads 0 / 0); clpad_window_tensor_pads still
 *     appends those zeros. (The operator document says that pads_begin /
 *     pads_end are ignored with output_shape and that every auto_pad splits
 *     the total; the shape inference that OpenVINO's plugins use keeps
 *     pads_begin for EXPLICIT and pads 0 for VALID, and clpad follows it for
 *     pads_begin; its pads_end is the crop at the end, where OpenVINO
 *     reports the VALID and EXPLICIT attributes unchanged.)
 * output_padding and output_shape must be NULL unless op is deconv.
 *
 * Errors: as clpad_window_onnx; CLPAD_ERR_INVALID_ARGUMENT (rounding other
 * than FLOOR for conv/deconv, CEIL_TORCH is accepted for pooling only).
 */
CLPAD_API clpad_status clpad_window_openvino(clpad_window_op op, clpad_ov_auto_pad auto_pad,
                                             clpad_ov_rounding rounding, int naxes,
                                             const int64_t *input, const int64_t *kernel,
                                             const int64_t *stride, const int64_t *dilation,
                                             const int64_t *pads_begin,
                                             const int64_t *pads_end,
                                             const int64_t *output_padding,
                                             const int64_t *output_shape,
                                             clpad_window_result *result);

/**
 * PyTorch (torch.nn.Conv*d, ConvTranspose*d, MaxPool*d, AvgPool*d and their
 * functional forms; ATen's pooling_output_shape and _convolution_mode).
 *
 * `padding` (EXPLICIT only; NULL means 0) is one value per axis applied to
 * both sides, each >= 0.
 * conv:
 *   EXPLICIT  O = floor((I + 2p - DK)/S) + 1
 *   VALID     pads 0
 *   SAME      every stride must be 1 ("padding='same' is not supported for
 *             strided convolutions"); total = d*(F-1), B = floor(total/2),
 *             A = total - B (the odd one at the end); O = I
 * pool (EXPLICIT only): p <= floor(DK/2) ("pad should be at most half of
 *   effective kernel size"); O = floor((I + 2p - DK)/S) + 1, or with
 *   ceil_mode O = ceil((I + 2p - DK)/S) + 1 and the last window is dropped if
 *   it would start in the end padding: if (O-1)*S >= I + p then O -= 1.
 *   A NULL stride means the kernel size (PyTorch's default for pooling).
 * deconv (EXPLICIT only): O = (I-1)*S - 2p + DK + output_padding, with
 *   0 <= output_padding < max(S, d) ("output padding must be smaller than
 *   either stride or dilation"); NULL output_padding means 0. (A module's
 *   forward(x, output_size=...) chooses output_padding = output_size -
 *   ((I-1)*S - 2p + DK), which must lie in [0, S - 1]: pass that value.)
 * ceil_mode must be 0 unless op is pool; output_padding must be NULL unless
 * op is deconv.
 *
 * Errors: as clpad_window_onnx; CLPAD_ERR_INVALID_ARGUMENT (SAME/VALID for
 * pool or deconv, SAME with a stride other than 1).
 */
CLPAD_API clpad_status clpad_window_torch(clpad_window_op op, clpad_torch_padding padding_mode,
                                          int naxes, const int64_t *input,
                                          const int64_t *kernel, const int64_t *stride,
                                          const int64_t *dilation, const int64_t *padding,
                                          int ceil_mode, const int64_t *output_padding,
                                          clpad_window_result *result);

/* ------------------------------------------------------------------------- */
/* Pad layouts                                                               */
/* ------------------------------------------------------------------------- */

/**
 * ONNX flat pads [x1_begin, ..., xn_begin, x1_end, ..., xn_end] (2*naxes
 * values) -> pads_begin[naxes], pads_end[naxes]. Values are copied as they
 * are (any sign). The arrays may overlap.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (naxes not in 1..CLPAD_MAX_RANK, NULL).
 */
CLPAD_API clpad_status clpad_window_pads_from_onnx(int naxes, const int64_t *onnx_pads,
                                                   int64_t *pads_begin, int64_t *pads_end);

/** pads_begin / pads_end -> ONNX flat pads (2*naxes values). The arrays may
 *  overlap. Errors: as clpad_window_pads_from_onnx. */
CLPAD_API clpad_status clpad_window_pads_to_onnx(int naxes, const int64_t *pads_begin,
                                                 const int64_t *pads_end, int64_t *onnx_pads);

/**
 * TensorFlow per-axis padding list of a rank-`rank` tensor, flattened row by
 * row: tf_paddings[2*k] / [2*k+1] are the before / after padding of tensor
 * axis k (for NHWC: [[0,0],[top,bottom],[left,right],[0,0]] is
 * {0,0, top,bottom, left,right, 0,0}). Writes the rank-2 spatial axes to
 * pads_begin / pads_end (in the tensor's spatial order: H, W). TF requires the
 * batch and channel entries to be zero.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (rank not in 3..CLPAD_MAX_RANK, NULL,
 * bad layout), CLPAD_ERR_INVALID_PADS (a non-zero batch or channel entry).
 */
CLPAD_API clpad_status clpad_window_pads_from_tf(int rank, clpad_tf_layout layout,
                                                 const int64_t *tf_paddings,
                                                 int64_t *pads_begin, int64_t *pads_end);

/**
 * pads_begin / pads_end of `naxes` spatial axes -> TensorFlow per-axis list of
 * the rank naxes+2 tensor, flattened as in clpad_window_pads_from_tf
 * (2*(naxes+2) values; zeros for batch and channels).
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (naxes not in 1..CLPAD_MAX_RANK-2, NULL,
 * bad layout).
 */
CLPAD_API clpad_status clpad_window_pads_to_tf(int naxes, clpad_tf_layout layout,
                                               const int64_t *pads_begin,
                                               const int64_t *pads_end,
                                               int64_t *tf_paddings);

/**
 * The pads to give clpad_pad / clpad_pad_cpu (any mode; constant 0 for the
 * convolution equivalence) for a rank-`rank` tensor whose spatial axes are
 * first_axis .. first_axis+naxes-1 (e.g. NCHW: first_axis 2; NHWC: 1); other
 * axes get 0.
 *  - conv / pool: pads_begin = B and pads_end = A clamped to
 *    [e0, e0 + S - 1], e0 = (O-1)*S + DK - I - B, so that a VALID window (no
 *    padding, floor) over the padded tensor yields exactly the O windows of the
 *    result, at the same positions. The end differs from A only in ceil modes:
 *    it grows when the last window runs past the padded input, and shrinks
 *    when end padding of a kernel or more would hold windows that the
 *    single-drop rule does not remove (ONNX pads >= kernel). Negative values
 *    (TensorRT SAME with DK < S) crop.
 *  - deconv: pads for the FULL transposed-convolution output (length
 *    (I-1)*S + DK): pads_begin = -B, pads_end = O - ((I-1)*S + DK) + B, which
 *    crop it to the framework's output (positive values append the zeros of
 *    output_padding).
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL, result->size below this
 * version's struct, result->naxes or op invalid, an
 * axis whose input, stride, extent or output is < 1 -- a result no
 * clpad_window_* call made --, first_axis < 0 or first_axis + naxes > rank,
 * rank > CLPAD_MAX_RANK), CLPAD_ERR_OVERFLOW.
 */
CLPAD_API clpad_status clpad_window_tensor_pads(const clpad_window_result *result, int rank,
                                                int first_axis, int64_t *pads_begin,
                                                int64_t *pads_end);

/* ------------------------------------------------------------------------- */
/* Names                                                                     */
/* ------------------------------------------------------------------------- */

/*
 * Every *_name() returns the canonical spelling (NULL for an invalid value);
 * every *_from_name() accepts it case-insensitively, with '-' and '_'
 * interchangeable, plus the aliases listed.
 * Errors of *_from_name: CLPAD_ERR_INVALID_ARGUMENT (NULL), CLPAD_ERR_PARSE
 * (unknown name; the message lists the accepted ones).
 */

/** "conv", "deconv", "pool". Aliases: convolution; deconvolution,
 *  convtranspose, conv_transpose; pooling, maxpool, avgpool. */
CLPAD_API const char *clpad_window_op_name(clpad_window_op op);
CLPAD_API clpad_status clpad_window_op_from_name(const char *name, clpad_window_op *op);

/** "explicit_round_down", "explicit_round_up", "same_upper", "same_lower";
 *  TensorRT's own spellings with a leading k (kSAME_UPPER) are accepted. */
CLPAD_API const char *clpad_trt_padding_name(clpad_trt_padding mode);
CLPAD_API clpad_status clpad_trt_padding_from_name(const char *name, clpad_trt_padding *mode);

/** "VALID", "SAME", "EXPLICIT". */
CLPAD_API const char *clpad_tf_padding_name(clpad_tf_padding padding);
CLPAD_API clpad_status clpad_tf_padding_from_name(const char *name, clpad_tf_padding *padding);

/** "NHWC" (channels last), "NCHW" (channels first). Aliases: NWC, NDHWC,
 *  channels_last; NCW, NCDHW, channels_first. */
CLPAD_API const char *clpad_tf_layout_name(clpad_tf_layout layout);
CLPAD_API clpad_status clpad_tf_layout_from_name(const char *name, clpad_tf_layout *layout);

/** "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER". */
CLPAD_API const char *clpad_onnx_auto_pad_name(clpad_onnx_auto_pad auto_pad);
CLPAD_API clpad_status clpad_onnx_auto_pad_from_name(const char *name,
                                                     clpad_onnx_auto_pad *auto_pad);

/** "explicit", "same_upper", "same_lower", "valid". Alias: notset (= explicit). */
CLPAD_API const char *clpad_ov_auto_pad_name(clpad_ov_auto_pad auto_pad);
CLPAD_API clpad_status clpad_ov_auto_pad_from_name(const char *name,
                                                   clpad_ov_auto_pad *auto_pad);

/** "floor", "ceil", "ceil_torch". */
CLPAD_API const char *clpad_ov_rounding_name(clpad_ov_rounding rounding);
CLPAD_API clpad_status clpad_ov_rounding_from_name(const char *name,
                                                   clpad_ov_rounding *rounding);

/** "explicit", "same", "valid". */
CLPAD_API const char *clpad_torch_padding_name(clpad_torch_padding padding);
CLPAD_API clpad_status clpad_torch_padding_from_name(const char *name,
                                                     clpad_torch_padding *padding);

#ifdef __cplusplus
}
#endif

#endif /* CLPAD_WINDOW_H */
