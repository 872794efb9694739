/* Window geometry (docs/spec.md: Window geometry; include/clpad_window.h): every worked example of
 * seeds 003 (TensorRT PaddingMode) and 004 (TF SAME / ONNX auto_pad), each
 * convention's clamping and rounding rules, edge cases, every error path, the
 * pad layout conversions, and the equivalence the TF seed article shows:
 * a SAME window computed directly equals a VALID window over the tensor padded
 * by clpad_pad_cpu with the computed pads. Pure CPU; needs no OpenCL. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define I64(...) ((const int64_t[]){__VA_ARGS__})

/* Compare a result with expected output / pads_begin / pads_end. */
static void expect_result(const char *ctx, const clpad_window_result *r, int n,
                          const int64_t *out, const int64_t *pb, const int64_t *pe)
{
    if (r->naxes != n)
        fail_msg("%s: naxes = %d, want %d", ctx, r->naxes, n);
    for (int i = 0; i < n; i++) {
        if (r->output[i] != out[i] || r->pads_begin[i] != pb[i] || r->pads_end[i] != pe[i])
            fail_msg("%s: axis %d: output %lld pads %lld + %lld, want output %lld pads "
                     "%lld + %lld",
                     ctx, i, (long long)r->output[i], (long long)r->pads_begin[i],
                     (long long)r->pads_end[i], (long long)out[i], (long long)pb[i],
                     (long long)pe[i]);
    }
}

/* The call fails with `want` and clpad_last_error() mentions `needle`. */
#define EXPECT_FAIL(call, want, needle)                                                 \
    do {                                                                                \
        TU_ASSERT_STATUS(call, want);                                                   \
        if (!strstr(clpad_last_error(), (needle)))                                      \
            fail_msg("%s: message '%s' does not mention '%s'", #call, clpad_last_error(), \
                     (needle));                                                         \
    } while (0)

/* ------------------------------------------------------------------------- */
/* Seed 003: TensorRT PaddingMode                                            */
/* ------------------------------------------------------------------------- */

/* Pooling example 1: I = {6,6}, B = {3,3}, A = {2,2}, S = {2,2}, F = {3,3}. */
static void test_trt_seed_pool_example1(void **state)
{
    (void)state;
    const int64_t *I = I64(6, 6), *F = I64(3, 3), *S = I64(2, 2);
    const int64_t *B = I64(3, 3), *A = I64(2, 2);
    clpad_window_result r;
    clpad_window_result_init(&r);

    /* M = 6+3+2 = 11; floor((11-3)/2) + 1 = floor(8/2) + 1 = 5 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 2, I,
                                       F, S, NULL, B, A, &r));
    expect_result("ex1 round down", &r, 2, I64(5, 5), I64(3, 3), I64(2, 2));
    assert_int_equal(r.extent[0], 3);
    /* ceil(8/2) + 1 = 5: the sample points are {0, 2, 4, 6, 8} */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_EXPLICIT_ROUND_UP, 2, I, F,
                                       S, NULL, B, A, &r));
    expect_result("ex1 round up", &r, 2, I64(5, 5), I64(3, 3), I64(2, 2));
    /* O = ceil(6/2) = 3; P = floor(5/2)*2 + 3 - 6 = 4 + 3 - 6 = 1; B = floor(1/2) = 0,
     * A = 1 - 0 = 1 (given pads ignored: the mode takes precedence) */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_SAME_UPPER, 2, I, F, S,
                                       NULL, B, A, &r));
    expect_result("ex1 same upper", &r, 2, I64(3, 3), I64(0, 0), I64(1, 1));
    /* A = floor(1/2) = 0, B = 1 - 0 = 1 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_SAME_LOWER, 2, I, F, S,
                                       NULL, NULL, NULL, &r));
    expect_result("ex1 same lower", &r, 2, I64(3, 3), I64(1, 1), I64(0, 0));
}

/* Pooling example 2: I = {6,6}, B = {3,3}, A = {3,3}, S = {2,2}, F = {3,3}. */
static void test_trt_seed_pool_example2(void **state)
{
    (void)state;
    const int64_t *I = I64(6, 6), *F = I64(3, 3), *S = I64(2, 2);
    const int64_t *B = I64(3, 3), *A = I64(3, 3);
    clpad_window_result r;
    clpad_window_result_init(&r);

    /* M = 6+3+3 = 12; floor((12-3)/2) + 1 = floor(4.5) + 1 = 4 + 1 = 5 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 2, I,
                                       F, S, NULL, B, A, &r));
    expect_result("ex2 round down", &r, 2, I64(5, 5), I64(3, 3), I64(3, 3));
    /* ceil(9/2) + 1 = 5 + 1 = 6 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_EXPLICIT_ROUND_UP, 2, I, F,
                                       S, NULL, B, A, &r));
    expect_result("ex2 round up", &r, 2, I64(6, 6), I64(3, 3), I64(3, 3));
    /* SAME ignores B and A: as example 1, O = 3, P = 1 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_SAME_UPPER, 2, I, F, S,
                                       NULL, B, A, &r));
    expect_result("ex2 same upper", &r, 2, I64(3, 3), I64(0, 0), I64(1, 1));
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_SAME_LOWER, 2, I, F, S,
                                       NULL, B, A, &r));
    expect_result("ex2 same lower", &r, 2, I64(3, 3), I64(1, 1), I64(0, 0));
}

/* Convolution with dilation: I = 10, F = 3, d = 2 -> DK = 1 + 2*2 = 5, S = 2. */
static void test_trt_conv_dilation(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* M = 10+1+1 = 12; floor((12-5)/2) + 1 = 3 + 1 = 4; ceil(7/2) + 1 = 5 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 1,
                                       I64(10), I64(3), I64(2), I64(2), I64(1), I64(1), &r));
    expect_result("dil down", &r, 1, I64(4), I64(1), I64(1));
    assert_int_equal(r.extent[0], 5);
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_EXPLICIT_ROUND_UP, 1,
                                       I64(10), I64(3), I64(2), I64(2), I64(1), I64(1), &r));
    expect_result("dil up", &r, 1, I64(5), I64(1), I64(1));
    /* O = ceil(10/2) = 5; P = floor(9/2)*2 + 5 - 10 = 8 + 5 - 10 = 3; B = 1, A = 2 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 1, I64(10),
                                       I64(3), I64(2), I64(2), NULL, NULL, &r));
    expect_result("dil same upper", &r, 1, I64(5), I64(1), I64(2));
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_LOWER, 1, I64(10),
                                       I64(3), I64(2), I64(2), NULL, NULL, &r));
    expect_result("dil same lower", &r, 1, I64(5), I64(2), I64(1));
    /* 3-D, per-axis different: I = {5, 9, 4}, F = {2, 3, 1}, S = {1, 2, 3}, d = {1, 3, 1}:
     * axis 0: O = 5, P = 4*1 + 2 - 5 = 1 -> 0 + 1
     * axis 1: DK = 7, O = 5, P = 4*2 + 7 - 9 = 6 -> 3 + 3
     * axis 2: O = 2, P = 1*3 + 1 - 4 = 0 -> 0 + 0 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 3,
                                       I64(5, 9, 4), I64(2, 3, 1), I64(1, 2, 3), I64(1, 3, 1),
                                       NULL, NULL, &r));
    expect_result("3d same upper", &r, 3, I64(5, 5, 2), I64(0, 3, 0), I64(1, 3, 0));
}

/* Kernel smaller than stride: TensorRT's P goes negative; TF, ONNX and
 * OpenVINO clamp the total at 0. */
static void test_kernel_smaller_than_stride(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* I = 6, S = 4, F = 1: O = ceil(6/4) = 2; P = floor(5/4)*4 + 1 - 6 = -1;
     * upper: B = floor(-1/2) = -1, A = -1 - (-1) = 0; lower: A = -1, B = 0 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 1, I64(6),
                                       I64(1), I64(4), NULL, NULL, NULL, &r));
    expect_result("trt upper P=-1", &r, 1, I64(2), I64(-1), I64(0));
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_LOWER, 1, I64(6),
                                       I64(1), I64(4), NULL, NULL, NULL, &r));
    expect_result("trt lower P=-1", &r, 1, I64(2), I64(0), I64(-1));
    /* I = 8, S = 4, F = 1: P = floor(7/4)*4 + 1 - 8 = -3; upper B = floor(-3/2) = -2,
     * A = -3 - (-2) = -1; lower A = -2, B = -1 (floor, not truncation) */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_SAME_UPPER, 1, I64(8),
                                       I64(1), I64(4), NULL, NULL, NULL, &r));
    expect_result("trt upper P=-3", &r, 1, I64(2), I64(-2), I64(-1));
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_SAME_LOWER, 1, I64(8),
                                       I64(1), I64(4), NULL, NULL, NULL, &r));
    expect_result("trt lower P=-3", &r, 1, I64(2), I64(-1), I64(-2));
    /* TF SAME: total = max((2-1)*4 + 1 - 6, 0) = 0 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, I64(6), I64(1), I64(4),
                                 NULL, NULL, NULL, NULL, &r));
    expect_result("tf clamp", &r, 1, I64(2), I64(0), I64(0));
    /* ONNX SAME_UPPER / SAME_LOWER clamp as well */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_SAME_UPPER, 1, I64(8), I64(1),
                                   I64(4), NULL, NULL, 0, NULL, NULL, &r));
    expect_result("onnx clamp", &r, 1, I64(2), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_SAME_LOWER, 1, I64(6), I64(2),
                                   I64(5), NULL, NULL, 1, NULL, NULL, &r));
    /* O = ceil(6/5) = 2; total = max(5 + 2 - 6, 0) = 1 -> lower: 1 + 0 */
    expect_result("onnx lower", &r, 1, I64(2), I64(1), I64(0));
    /* OpenVINO same_upper: clamp, and the floor formula gives ceil(I/S) */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_CONV, CLPAD_OV_SAME_UPPER, CLPAD_OV_FLOOR, 1,
                                       I64(6), I64(1), I64(4), NULL, NULL, NULL, NULL, NULL,
                                       &r));
    expect_result("ov clamp", &r, 1, I64(2), I64(0), I64(0));
}

/* Stride larger than the input. */
static void test_stride_greater_than_input(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* I = 3, S = 5, F = 2: O = 1; TF total = max(0 + 2 - 3, 0) = 0; TensorRT P = -1 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_POOL, CLPAD_TF_SAME, 1, I64(3), I64(2), I64(5),
                                 NULL, NULL, NULL, NULL, &r));
    expect_result("tf same", &r, 1, I64(1), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_SAME_UPPER, 1, I64(3),
                                       I64(2), I64(5), NULL, NULL, NULL, &r));
    expect_result("trt same", &r, 1, I64(1), I64(-1), I64(0));
    /* VALID: floor((3-2)/5) + 1 = 1 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_POOL, CLPAD_TF_VALID, 1, I64(3), I64(2), I64(5),
                                 NULL, NULL, NULL, NULL, &r));
    expect_result("tf valid", &r, 1, I64(1), I64(0), I64(0));
    /* I = 2, S = 5, F = 4: O = 1, total = 4 - 2 = 2 -> 1 + 1 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, I64(2), I64(4), I64(5),
                                 NULL, NULL, NULL, NULL, &r));
    expect_result("tf same big kernel", &r, 1, I64(1), I64(1), I64(1));
    /* TensorRT EXPLICIT_ROUND_UP: M - F = 1, ceil(1/5) + 1 = 2 (the second window
     * starts at 5, past the data: TensorRT's formula, applied as written) */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_EXPLICIT_ROUND_UP, 1,
                                       I64(3), I64(2), I64(5), NULL, NULL, NULL, &r));
    expect_result("trt round up", &r, 1, I64(2), I64(0), I64(0));
    /* ONNX ceil_mode drops that window: (2-1)*5 = 5 >= 3 + 0 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(3), I64(2),
                                   I64(5), NULL, NULL, 1, NULL, NULL, &r));
    expect_result("onnx ceil drop", &r, 1, I64(1), I64(0), I64(0));
    /* deconv with S > I: TensorRT SAME O = min(2*5, 1*5 + 2) = 7, P = max(2-5, 0) = 0 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_UPPER, 1, I64(2),
                                       I64(2), I64(5), NULL, NULL, NULL, &r));
    expect_result("trt deconv", &r, 1, I64(7), I64(0), I64(0));
}

/* Deconvolution: explicit O = (I-1)*S + DK - (B+A); SAME O = min(I*S, (I-1)*S + DK),
 * P = max(DK - S, 0). */
static void test_trt_deconv(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* I = 4, S = 2, F = 3: full = 3*2 + 3 = 9; B = A = 1 -> 7 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 1,
                                       I64(4), I64(3), I64(2), NULL, I64(1), I64(1), &r));
    expect_result("explicit", &r, 1, I64(7), I64(1), I64(1));
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_EXPLICIT_ROUND_UP, 1,
                                       I64(4), I64(3), I64(2), NULL, I64(1), I64(1), &r));
    expect_result("explicit up", &r, 1, I64(7), I64(1), I64(1));
    /* SAME: min(4*2, 3*2 + 3) = min(8, 9) = 8; P = max(3 - 2, 0) = 1 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_UPPER, 1, I64(4),
                                       I64(3), I64(2), NULL, NULL, NULL, &r));
    expect_result("same upper", &r, 1, I64(8), I64(0), I64(1));
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_LOWER, 1, I64(4),
                                       I64(3), I64(2), NULL, NULL, NULL, &r));
    expect_result("same lower", &r, 1, I64(8), I64(1), I64(0));
    /* kernel smaller than stride: I = 4, S = 3, F = 2: min(12, 9 + 2) = 11, P = 0 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_UPPER, 1, I64(4),
                                       I64(2), I64(3), NULL, NULL, NULL, &r));
    expect_result("same small kernel", &r, 1, I64(11), I64(0), I64(0));
    /* dilation: F = 3, d = 2 -> DK = 5; I = 4, S = 2: min(8, 6 + 5) = 8, P = 3 -> 1 + 2 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_UPPER, 1, I64(4),
                                       I64(3), I64(2), I64(2), NULL, NULL, &r));
    expect_result("same dilated", &r, 1, I64(8), I64(1), I64(2));
    /* SAME always satisfies O = full - P */
    for (int64_t I = 1; I <= 6; I++)
        for (int64_t S = 1; S <= 5; S++)
            for (int64_t F = 1; F <= 5; F++)
                for (int64_t d = 1; d <= 3; d++) {
                    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV,
                                                       CLPAD_TRT_SAME_LOWER, 1, &I, &F, &S, &d,
                                                       NULL, NULL, &r));
                    int64_t DK = 1 + d * (F - 1), full = (I - 1) * S + DK;
                    int64_t want = I * S < full ? I * S : full;
                    assert_int_equal(r.output[0], want);
                    assert_int_equal(r.output[0], full - r.pads_begin[0] - r.pads_end[0]);
                    assert_true(r.pads_begin[0] >= r.pads_end[0]);
                }
}

/* ------------------------------------------------------------------------- */
/* Seed 004: TF SAME / VALID, ONNX auto_pad                                   */
/* ------------------------------------------------------------------------- */

/* Input 7x8 (H, W), stride 3, filter 4. */
static void test_tf_seed_004(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    const int64_t *I = I64(7, 8), *F = I64(4, 4), *S = I64(3, 3);
    /* H: O = ceil(7/3) = 3, total = (3-1)*3 + 4 - 7 = 3 -> top 1, bottom 2
     * W: O = ceil(8/3) = 3, total = (3-1)*3 + 4 - 8 = 2 -> left 1, right 1 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 2, I, F, S, NULL, NULL, NULL,
                                 NULL, &r));
    expect_result("tf same", &r, 2, I64(3, 3), I64(1, 1), I64(2, 1));

    /* as TF's explicit list [[0,0],[1,2],[1,1],[0,0]] (NHWC) and NCHW */
    int64_t tf[8];
    TU_ASSERT_OK(clpad_window_pads_to_tf(2, CLPAD_TF_CHANNELS_LAST, r.pads_begin, r.pads_end, tf));
    assert_memory_equal(tf, I64(0, 0, 1, 2, 1, 1, 0, 0), sizeof tf);
    TU_ASSERT_OK(clpad_window_pads_to_tf(2, CLPAD_TF_CHANNELS_FIRST, r.pads_begin, r.pads_end, tf));
    assert_memory_equal(tf, I64(0, 0, 0, 0, 1, 2, 1, 1), sizeof tf);

    /* the seed's "output2": the same convolution with that explicit list: 3x3 */
    int64_t pb[2], pe[2];
    TU_ASSERT_OK(clpad_window_pads_from_tf(4, CLPAD_TF_CHANNELS_LAST,
                                           I64(0, 0, 1, 2, 1, 1, 0, 0), pb, pe));
    assert_memory_equal(pb, I64(1, 1), sizeof pb);
    assert_memory_equal(pe, I64(2, 1), sizeof pe);
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_EXPLICIT, 2, I, F, S, NULL, pb, pe,
                                 NULL, &r));
    expect_result("tf explicit", &r, 2, I64(3, 3), I64(1, 1), I64(2, 1));

    /* VALID: floor((7-4)/3) + 1 = 2, floor((8-4)/3) + 1 = 2 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_VALID, 2, I, F, S, NULL, NULL, NULL,
                                 NULL, &r));
    expect_result("tf valid", &r, 2, I64(2, 2), I64(0, 0), I64(0, 0));
}

static void test_onnx_seed_004(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    const int64_t *I = I64(7, 8), *F = I64(4, 4), *S = I64(3, 3);
    /* SAME_UPPER = TF SAME: pads H [1, 2], W [1, 1] */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_SAME_UPPER, 2, I, F, S, NULL,
                                   NULL, 0, NULL, NULL, &r));
    expect_result("onnx same upper", &r, 2, I64(3, 3), I64(1, 1), I64(2, 1));
    /* in ONNX's layout [x1_begin, x2_begin, x1_end, x2_end] */
    int64_t pads[4];
    TU_ASSERT_OK(clpad_window_pads_to_onnx(2, r.pads_begin, r.pads_end, pads));
    assert_memory_equal(pads, I64(1, 1, 2, 1), sizeof pads);
    /* SAME_LOWER puts the odd one first: H [2, 1] */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_SAME_LOWER, 2, I, F, S, NULL,
                                   NULL, 0, NULL, NULL, &r));
    expect_result("onnx same lower", &r, 2, I64(3, 3), I64(2, 1), I64(1, 1));
    /* NOTSET with those pads reproduces SAME_UPPER */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_NOTSET, 2, I, F, S, NULL,
                                   pads, 0, NULL, NULL, &r));
    expect_result("onnx notset", &r, 2, I64(3, 3), I64(1, 1), I64(2, 1));
    /* VALID */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_VALID, 2, I, F, S, NULL, NULL,
                                   0, NULL, NULL, &r));
    expect_result("onnx valid", &r, 2, I64(2, 2), I64(0, 0), I64(0, 0));
}

/* ------------------------------------------------------------------------- */
/* Ceil modes                                                                */
/* ------------------------------------------------------------------------- */

static void test_ceil_mode(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* zero begin pad: I = 4, F = 1, S = 2: floor(3/2) + 1 = 2; ceil(3/2) + 1 = 3, but
     * window 2 starts at 4 >= I + 0: dropped -> 2 */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(4), I64(1),
                                    I64(2), NULL, NULL, 1, NULL, &r));
    expect_result("torch ceil p=0 drop", &r, 1, I64(2), I64(0), I64(0));
    /* zero pad, nothing dropped: I = 5, F = 2, S = 2: floor(3/2)+1 = 2; ceil -> 3,
     * last start 4 < 5 */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(5), I64(2),
                                    I64(2), NULL, NULL, 0, NULL, &r));
    expect_result("torch floor p=0", &r, 1, I64(2), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(5), I64(2),
                                    I64(2), NULL, NULL, 1, NULL, &r));
    expect_result("torch ceil p=0", &r, 1, I64(3), I64(0), I64(0));
    /* non-zero begin pad: I = 5, F = 2, S = 2, p = 1: M = 7, floor(5/2)+1 = 3;
     * ceil(5/2)+1 = 4, last start 3*2 = 6 >= 5 + 1: dropped -> 3 */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(5), I64(2),
                                    I64(2), NULL, I64(1), 1, NULL, &r));
    expect_result("torch ceil p=1 drop", &r, 1, I64(3), I64(1), I64(1));
    /* non-zero begin pad, kept: I = 6, F = 3, S = 2, p = 1: M = 8, ceil(5/2)+1 = 4,
     * last start 6 < 6 + 1 */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(6), I64(3),
                                    I64(2), NULL, I64(1), 1, NULL, &r));
    expect_result("torch ceil p=1 kept", &r, 1, I64(4), I64(1), I64(1));

    /* the same through ONNX (NOTSET pads [1, 1]) and OpenVINO ceil_torch */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(5), I64(2),
                                   I64(2), NULL, I64(1, 1), 1, NULL, NULL, &r));
    expect_result("onnx ceil p=1 drop", &r, 1, I64(3), I64(1), I64(1));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_EXPLICIT, CLPAD_OV_CEIL_TORCH,
                                       1, I64(5), I64(2), I64(2), NULL, I64(1), I64(1), NULL,
                                       NULL, &r));
    expect_result("ov ceil_torch drop", &r, 1, I64(3), I64(1), I64(1));
    /* OpenVINO plain ceil (MaxPool-1/8) keeps the window that starts in the padding */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_EXPLICIT, CLPAD_OV_CEIL, 1,
                                       I64(5), I64(2), I64(2), NULL, I64(1), I64(1), NULL,
                                       NULL, &r));
    expect_result("ov ceil keeps", &r, 1, I64(4), I64(1), I64(1));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1,
                                       I64(5), I64(2), I64(2), NULL, I64(1), I64(1), NULL,
                                       NULL, &r));
    expect_result("ov floor", &r, 1, I64(3), I64(1), I64(1));
    /* OpenVINO rounding applies after same_upper's pads: I = 6, S = 4, F = 1: pads 0,
     * floor(5/4)+1 = 2; ceil(5/4)+1 = 3 (window at 8); ceil_torch drops it: 8 >= 6 */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_SAME_UPPER, CLPAD_OV_CEIL, 1,
                                       I64(6), I64(1), I64(4), NULL, NULL, NULL, NULL, NULL,
                                       &r));
    expect_result("ov same ceil", &r, 1, I64(3), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_SAME_UPPER,
                                       CLPAD_OV_CEIL_TORCH, 1, I64(6), I64(1), I64(4), NULL,
                                       NULL, NULL, NULL, NULL, &r));
    expect_result("ov same ceil_torch", &r, 1, I64(2), I64(0), I64(0));

    /* ONNX VALID with ceil_mode rounds up like NOTSET with zero pads, as ONNX
     * Runtime and onnx.shape_inference do (found by the peer harness):
     * I = 7, K = 3, S = 3: ceil(4/3)+1 = 3 (floor would give 2), start 6 < 7 kept;
     * I = 5, K = 1, S = 3: ceil(4/3)+1 = 3, start 6 >= 5 dropped -> 2.
     * NOTSET with zero pads and ceil_mode: ceil(3/2)+1 = 3, start 4 < 6 kept */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_VALID, 1, I64(7), I64(3),
                                   I64(3), NULL, NULL, 1, NULL, NULL, &r));
    expect_result("onnx valid ceil", &r, 1, I64(3), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_VALID, 1, I64(7), I64(3),
                                   I64(3), NULL, NULL, 0, NULL, NULL, &r));
    expect_result("onnx valid floor", &r, 1, I64(2), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_VALID, 1, I64(5), I64(1),
                                   I64(3), NULL, NULL, 1, NULL, NULL, &r));
    expect_result("onnx valid ceil drop", &r, 1, I64(2), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(6), I64(3),
                                   I64(2), NULL, NULL, 1, NULL, NULL, &r));
    expect_result("onnx notset ceil", &r, 1, I64(3), I64(0), I64(0));
    /* one drop only: end pads >= kernel leave windows in the padding, and ceil_mode
     * can then give fewer windows than floor. I = 3, F = 1, S = 1, pads [0, 3]:
     * floor (6-1)/1 + 1 = 6; ceil 6, last start 5 >= 3 + 0 -> 5 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(3), I64(1),
                                   I64(1), NULL, I64(0, 3), 0, NULL, NULL, &r));
    expect_result("onnx floor big end pad", &r, 1, I64(6), I64(0), I64(3));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(3), I64(1),
                                   I64(1), NULL, I64(0, 3), 1, NULL, NULL, &r));
    expect_result("onnx ceil big end pad", &r, 1, I64(5), I64(0), I64(3));
    /* ONNX SAME: ceil(I/S) with or without ceil_mode */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_SAME_UPPER, 1, I64(7), I64(2),
                                   I64(3), NULL, NULL, 1, NULL, NULL, &r));
    /* O = 3, total = 6 + 2 - 7 = 1 -> 0 + 1 */
    expect_result("onnx same ceil", &r, 1, I64(3), I64(0), I64(1));
    /* pooling dilation (ONNX MaxPool dilations): F = 2, d = 3 -> DK = 4, I = 9, S = 2,
     * pads 1+1: M = 11, ceil(7/2)+1 = 5, last start 8 < 9 + 1 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(9), I64(2),
                                   I64(2), I64(3), I64(1, 1), 1, NULL, NULL, &r));
    expect_result("onnx dilated ceil", &r, 1, I64(5), I64(1), I64(1));
}

/* ------------------------------------------------------------------------- */
/* ONNX ConvTranspose, OpenVINO ConvolutionBackpropData, PyTorch             */
/* ------------------------------------------------------------------------- */

static void test_onnx_conv_transpose(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* I = 3, S = 2, F = 3: full = 2*2 + 3 = 7; pads [1, 1] -> 5 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                   I64(2), NULL, I64(1, 1), 0, NULL, NULL, &r));
    expect_result("notset", &r, 1, I64(5), I64(1), I64(1));
    /* output_padding 1: full = 8 -> 6 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                   I64(2), NULL, I64(1, 1), 0, I64(1), NULL, &r));
    expect_result("notset output_padding", &r, 1, I64(6), I64(1), I64(1));
    /* SAME_UPPER: target 3*2 = 6, total = 7 - 6 = 1, the odd one at the end */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, NULL, &r));
    expect_result("same upper", &r, 1, I64(6), I64(0), I64(1));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_LOWER, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, NULL, &r));
    expect_result("same lower", &r, 1, I64(6), I64(1), I64(0));
    /* onnx/onnx#4299's case: S = 2, F = 3, I = 3, output_padding 1: full = 8,
     * total = 8 - 6 = 2 -> 1 + 1, O = 6 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, I64(1), NULL, &r));
    expect_result("same upper output_padding", &r, 1, I64(6), I64(1), I64(1));
    /* SAME with DK < S cannot reach I*S: I = 3, S = 4, F = 2: full = 10 < 12 -> O = 10 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, I64(3), I64(2),
                                   I64(4), NULL, NULL, 0, NULL, NULL, &r));
    expect_result("same unreachable", &r, 1, I64(10), I64(0), I64(0));
    /* dilation: F = 2, d = 3 -> DK = 4; I = 2, S = 1: full = 5, target 2, total 3 -> 1 + 2 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, I64(2), I64(2),
                                   I64(1), I64(3), NULL, 0, NULL, NULL, &r));
    expect_result("same dilated", &r, 1, I64(2), I64(1), I64(2));
    /* output_shape 6 (total = 7 - 6 = 1): SAME_UPPER -> 0 + 1; NOTSET and SAME_LOWER
     * (the spec's "Else") -> 1 + 0; given pads are ignored */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, I64(6), &r));
    expect_result("output_shape upper", &r, 1, I64(6), I64(0), I64(1));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                   I64(2), NULL, I64(5, 5), 0, NULL, I64(6), &r));
    expect_result("output_shape notset", &r, 1, I64(6), I64(1), I64(0));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_LOWER, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, I64(6), &r));
    expect_result("output_shape lower", &r, 1, I64(6), I64(1), I64(0));
    /* VALID: pads 0, full output */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_VALID, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, NULL, &r));
    expect_result("valid", &r, 1, I64(7), I64(0), I64(0));
    /* ONNX SAME equals TensorRT SAME's O = min(I*S, (I-1)*S + DK) */
    for (int64_t I = 1; I <= 5; I++)
        for (int64_t S = 1; S <= 4; S++)
            for (int64_t F = 1; F <= 5; F++) {
                clpad_window_result t;
                clpad_window_result_init(&t);
                TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, &I,
                                               &F, &S, NULL, NULL, 0, NULL, NULL, &r));
                TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_UPPER, 1,
                                                   &I, &F, &S, NULL, NULL, NULL, &t));
                expect_result("onnx vs trt deconv", &r, 1, t.output, t.pads_begin, t.pads_end);
            }
    /* output_shape beyond the full output (7): total 7 - 8 = -1, split with floor
     * division as ONNX's reference code: SAME_UPPER B = -1 // 2 = -1, A = 0 (one
     * zero before); NOTSET and SAME_LOWER A = -1, B = 0 (one zero after) */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, I64(8), &r));
    expect_result("output_shape 8 upper", &r, 1, I64(8), I64(-1), I64(0));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_LOWER, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, I64(8), &r));
    expect_result("output_shape 8 lower", &r, 1, I64(8), I64(0), I64(-1));
    /* total -3: NOTSET A = -3 // 2 = -2, B = -1; SAME_UPPER B = -2, A = -1 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, I64(10), &r));
    expect_result("output_shape 10 notset", &r, 1, I64(10), I64(-1), I64(-2));
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, I64(10), &r));
    expect_result("output_shape 10 upper", &r, 1, I64(10), I64(-2), I64(-1));
    /* the crops become pads of the full output: -B zeros before, O - full + B after */
    {
        int64_t tb[3], te[3];
        TU_ASSERT_OK(clpad_window_tensor_pads(&r, 3, 2, tb, te));
        assert_int_equal(tb[2], 2);
        assert_int_equal(te[2], 1);
    }
    /* errors */
    EXPECT_FAIL(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                  I64(2), NULL, NULL, 0, I64(2), NULL, &r),
                CLPAD_ERR_INVALID_PADS, "output_padding[0] = 2");
    EXPECT_FAIL(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                  I64(2), NULL, NULL, 0, I64(-1), NULL, &r),
                CLPAD_ERR_INVALID_PADS, "output_padding[0] = -1");
    /* output_padding < dilation is allowed even when >= stride */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                   I64(1), I64(3), NULL, 0, I64(2), NULL, &r));
    /* full = 2*1 + 2 + 7 = 11 */
    expect_result("output_padding < dilation", &r, 1, I64(11), I64(0), I64(0));
    EXPECT_FAIL(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                  I64(2), NULL, I64(4, 3), 0, NULL, NULL, &r),
                CLPAD_ERR_INVALID_SHAPE, "output size 0");
    EXPECT_FAIL(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                  I64(2), NULL, NULL, 0, NULL, I64(0), &r),
                CLPAD_ERR_INVALID_SHAPE, "output_shape[0] = 0");
}

static void test_openvino(void **state)
{
    (void)state;
    clpad_window_result r, o;
    clpad_window_result_init(&r);
    clpad_window_result_init(&o);
    /* convolution same_upper / same_lower agree with ONNX on a grid */
    for (int64_t I = 1; I <= 9; I++)
        for (int64_t S = 1; S <= 4; S++)
            for (int64_t F = 1; F <= 4; F++)
                for (int64_t d = 1; d <= 2; d++) {
                    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_CONV, CLPAD_OV_SAME_LOWER,
                                                       CLPAD_OV_FLOOR, 1, &I, &F, &S, &d, NULL,
                                                       NULL, NULL, NULL, &r));
                    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_SAME_LOWER, 1,
                                                   &I, &F, &S, &d, NULL, 0, NULL, NULL, &o));
                    expect_result("ov vs onnx", &r, 1, o.output, o.pads_begin, o.pads_end);
                }
    /* explicit and valid */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_CONV, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 2,
                                       I64(7, 8), I64(4, 4), I64(3, 3), NULL, I64(1, 1),
                                       I64(2, 1), NULL, NULL, &r));
    expect_result("ov explicit", &r, 2, I64(3, 3), I64(1, 1), I64(2, 1));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_CONV, CLPAD_OV_VALID, CLPAD_OV_FLOOR, 2,
                                       I64(7, 8), I64(4, 4), I64(3, 3), NULL, I64(1, 1),
                                       I64(2, 1), NULL, NULL, &r));
    expect_result("ov valid ignores pads", &r, 2, I64(2, 2), I64(0, 0), I64(0, 0));
    /* ConvolutionBackpropData: without output_shape same_* use pads 0: full = 7 */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_UPPER, CLPAD_OV_FLOOR,
                                       1, I64(3), I64(3), I64(2), NULL, NULL, NULL, NULL, NULL,
                                       &r));
    expect_result("ov deconv same", &r, 1, I64(7), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1,
                                       I64(3), I64(3), I64(2), NULL, I64(1), I64(0), I64(1),
                                       NULL, &r));
    /* full = 4 + 3 + 1 = 8, minus 1 + 0 */
    expect_result("ov deconv explicit", &r, 1, I64(7), I64(1), I64(0));
    /* with output_shape 6: total 1; same_upper puts the odd one at the BEGINNING,
     * every other auto_pad at the end (OpenVINO spec) */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_UPPER, CLPAD_OV_FLOOR,
                                       1, I64(3), I64(3), I64(2), NULL, NULL, NULL, NULL,
                                       I64(6), &r));
    expect_result("ov deconv output_shape upper", &r, 1, I64(6), I64(1), I64(0));
    /* EXPLICIT keeps the given pads_begin and ignores pads_end (OpenVINO's shape
     * inference, apply_padding): B = 1, A = 7 - 6 - 1 = 0; VALID: B = 0, A = 1 */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1,
                                       I64(3), I64(3), I64(2), NULL, I64(1), I64(9), NULL,
                                       I64(6), &r));
    expect_result("ov deconv output_shape explicit", &r, 1, I64(6), I64(1), I64(0));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_VALID, CLPAD_OV_FLOOR, 1,
                                       I64(3), I64(3), I64(2), NULL, NULL, NULL, NULL, I64(6),
                                       &r));
    expect_result("ov deconv output_shape valid", &r, 1, I64(6), I64(0), I64(1));
    /* output_shape beyond the full output: the total is clamped at 0 and so are
     * the pads (OpenVINO's rule); the output starts at the full output's start,
     * the extra elements are zeros at the end. OpenVINO's type_prop test
     * convolution_backprop_data_partial_auto_padding_upper: input 1x37, kernel
     * 1x1, strides {1, 2}, SAME_UPPER, output_shape {1, 74}: full {1, 73};
     * OpenVINO's shape inference reports pads {0, 0} / {0, 0} (checked with
     * the openvino wheel, 2026.4: SAME_UPPER and SAME_LOWER, output_shape 73,
     * 74 and 80, all pads 0; output_shape 70: upper 2 / 1, lower 1 / 2). */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_UPPER, CLPAD_OV_FLOOR,
                                       2, I64(1, 37), I64(1, 1), I64(1, 2), NULL, NULL, NULL,
                                       NULL, I64(1, 74), &r));
    expect_result("ov partial_auto_padding_upper", &r, 2, I64(1, 74), I64(0, 0), I64(0, 0));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_LOWER, CLPAD_OV_FLOOR,
                                       2, I64(1, 37), I64(1, 1), I64(1, 2), NULL, NULL, NULL,
                                       NULL, I64(1, 74), &r));
    expect_result("ov partial_auto_padding_lower", &r, 2, I64(1, 74), I64(0, 0), I64(0, 0));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_LOWER, CLPAD_OV_FLOOR,
                                       2, I64(1, 37), I64(1, 1), I64(1, 2), NULL, NULL, NULL,
                                       NULL, I64(1, 80), &r));
    expect_result("ov beyond full lower", &r, 2, I64(1, 80), I64(0, 0), I64(0, 0));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_UPPER, CLPAD_OV_FLOOR,
                                       1, I64(37), I64(1), I64(2), NULL, NULL, NULL, NULL,
                                       I64(70), &r));
    expect_result("ov below full upper", &r, 1, I64(70), I64(2), I64(1));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_LOWER, CLPAD_OV_FLOOR,
                                       1, I64(37), I64(1), I64(2), NULL, NULL, NULL, NULL,
                                       I64(70), &r));
    expect_result("ov below full lower", &r, 1, I64(70), I64(1), I64(2));
    /* VALID and EXPLICIT: never a negative pad either (full 73, pads_begin 1) */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_VALID, CLPAD_OV_FLOOR, 1,
                                       I64(37), I64(1), I64(2), NULL, NULL, NULL, NULL, I64(74),
                                       &r));
    expect_result("ov beyond full valid", &r, 1, I64(74), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1,
                                       I64(37), I64(1), I64(2), NULL, I64(1), I64(3), NULL,
                                       I64(73), &r));
    expect_result("ov beyond full explicit", &r, 1, I64(73), I64(1), I64(0));
    /* the padding that turns the full output into this one: 1 cropped at the
     * start, 1 zero appended (73 - 1 + 1 = 73) */
    {
        int64_t tb[3], te[3];
        TU_ASSERT_OK(clpad_window_tensor_pads(&r, 3, 2, tb, te));
        assert_int_equal(tb[2], -1);
        assert_int_equal(te[2], 1);
    }
    /* type_prop ..._auto_pad_same_with_output_padding_and_output_shape: input 2x2,
     * kernel 3x3, strides 2, output_padding 1, SAME_LOWER, output_shape {3, 3}:
     * full = 2 + 3 + 1 = 6, total 3, pads_begin {1, 1}, pads_end {2, 2} */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_LOWER, CLPAD_OV_FLOOR,
                                       2, I64(2, 2), I64(3, 3), I64(2, 2), NULL, I64(1, 1),
                                       I64(1, 1), I64(1, 1), I64(3, 3), &r));
    expect_result("ov same_lower output_padding output_shape", &r, 2, I64(3, 3), I64(1, 1),
                  I64(2, 2));
    /* type_prop ..._output_shape_as_const: input 5x5, kernel 3x3, SAME_UPPER,
     * output_shape {3, 3}: full 7, total 4 -> {2, 2} / {2, 2} */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_SAME_UPPER, CLPAD_OV_FLOOR,
                                       2, I64(5, 5), I64(3, 3), NULL, NULL, NULL, NULL, NULL,
                                       I64(3, 3), &r));
    expect_result("ov output_shape_as_const", &r, 2, I64(3, 3), I64(2, 2), I64(2, 2));
    /* type_prop ..._auto_pad_explicit_with_output_padding: input 2x2, kernel 3x3,
     * strides 2, pads 1/1, output_padding 1 -> 4x4 */
    TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 2,
                                       I64(2, 2), I64(3, 3), I64(2, 2), NULL, I64(1, 1),
                                       I64(1, 1), I64(1, 1), NULL, &r));
    expect_result("ov explicit output_padding", &r, 2, I64(4, 4), I64(1, 1), I64(1, 1));
    /* errors */
    EXPECT_FAIL(clpad_window_openvino(CLPAD_WINDOW_CONV, CLPAD_OV_EXPLICIT, CLPAD_OV_CEIL, 1,
                                      I64(5), I64(2), I64(1), NULL, NULL, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "rounding");
    EXPECT_FAIL(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1,
                                      I64(5), I64(2), I64(1), NULL, I64(-1), NULL, NULL, NULL,
                                      &r),
                CLPAD_ERR_INVALID_PADS, "pads_begin[0] = -1");
    EXPECT_FAIL(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_EXPLICIT, CLPAD_OV_CEIL, 1,
                                      I64(2), I64(4), I64(1), NULL, I64(0), I64(1), NULL, NULL,
                                      &r),
                CLPAD_ERR_INVALID_SHAPE, "kernel extent 4");
    EXPECT_FAIL(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1,
                                      I64(5), I64(2), I64(1), NULL, NULL, NULL, I64(1), NULL,
                                      &r),
                CLPAD_ERR_INVALID_ARGUMENT, "output_padding");
    EXPECT_FAIL(clpad_window_openvino(CLPAD_WINDOW_DECONV, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 1,
                                      I64(3), I64(3), I64(2), NULL, NULL, NULL, I64(-2), NULL,
                                      &r),
                CLPAD_ERR_INVALID_PADS, "output_padding[0] = -2");
}

static void test_torch(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* padding='same', stride 1: total = d*(k-1); F = 4 -> 3 -> 1 + 2 (extra at the end);
     * F = 3, d = 2 -> 4 -> 2 + 2; output = input */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_SAME, 2, I64(7, 8),
                                    I64(4, 3), NULL, I64(1, 2), NULL, 0, NULL, &r));
    expect_result("torch same", &r, 2, I64(7, 8), I64(1, 2), I64(2, 2));
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_VALID, 2, I64(7, 8),
                                    I64(4, 3), NULL, NULL, NULL, 0, NULL, &r));
    expect_result("torch valid", &r, 2, I64(4, 6), I64(0, 0), I64(0, 0));
    /* integer padding, both sides: floor((7 + 2 - 4)/3) + 1 = 2 */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_EXPLICIT, 1, I64(7), I64(4),
                                    I64(3), NULL, I64(1), 0, NULL, &r));
    expect_result("torch ints", &r, 1, I64(2), I64(1), I64(1));
    /* pooling: NULL stride = kernel: I = 7, F = 2 -> S = 2, floor(5/2) + 1 = 3 */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(7), I64(2),
                                    NULL, NULL, NULL, 0, NULL, &r));
    expect_result("torch pool default stride", &r, 1, I64(3), I64(0), I64(0));
    assert_int_equal(r.stride[0], 2);
    /* ceil_mode: ceil(5/2) + 1 = 4, start 6 < 7 kept */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(7), I64(2),
                                    NULL, NULL, NULL, 1, NULL, &r));
    expect_result("torch pool ceil", &r, 1, I64(4), I64(0), I64(0));
    /* ConvTranspose: (I-1)*S - 2p + d*(k-1) + output_padding + 1 = 4 - 2 + 2 + 1 + 1 = 6 */
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_DECONV, CLPAD_TORCH_EXPLICIT, 1, I64(3), I64(3),
                                    I64(2), NULL, I64(1), 0, I64(1), &r));
    expect_result("torch deconv", &r, 1, I64(6), I64(1), I64(1));
    /* errors */
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_SAME, 2, I64(7, 8), I64(3, 3),
                                   I64(1, 2), NULL, NULL, 0, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "stride[1] = 2");
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_SAME, 1, I64(7), I64(3), NULL,
                                   NULL, NULL, 0, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "padding='same'");
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_DECONV, CLPAD_TORCH_VALID, 1, I64(7), I64(3),
                                   NULL, NULL, NULL, 0, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "ConvTranspose");
    /* pad <= DK/2: F = 3 -> 1 allowed, 2 refused; F = 3, d = 2 -> DK = 5 -> 2 allowed */
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(7), I64(3),
                                   NULL, NULL, I64(2), 0, NULL, &r),
                CLPAD_ERR_INVALID_PADS, "padding[0] = 2");
    TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 1, I64(7), I64(3),
                                    I64(1), I64(2), I64(2), 0, NULL, &r));
    expect_result("torch dilated pool pad", &r, 1, I64(7), I64(2), I64(2));
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_EXPLICIT, 1, I64(7), I64(3),
                                   NULL, NULL, I64(-1), 0, NULL, &r),
                CLPAD_ERR_INVALID_PADS, "padding[0] = -1");
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_EXPLICIT, 1, I64(7), I64(3),
                                   NULL, NULL, NULL, 1, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "ceil_mode");
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_DECONV, CLPAD_TORCH_EXPLICIT, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, 0, I64(2), &r),
                CLPAD_ERR_INVALID_PADS, "output_padding[0] = 2");
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_VALID, 1, I64(7), I64(3),
                                   NULL, NULL, I64(1), 0, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "padding must be NULL");
}

static void test_tf_deconv(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* SAME, default O = I*S = 8 (I = 4, S = 2, F = 3): forward SAME of 8 -> 4 with
     * total = 3*2 + 3 - 8 = 1 -> 0 + 1; crop: B = 0, A = full - O - B = 9 - 8 - 0 = 1 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(4), I64(3), I64(2),
                                 NULL, NULL, NULL, NULL, &r));
    expect_result("tf deconv same", &r, 1, I64(8), I64(0), I64(1));
    /* SAME, output_shape 7 (ceil(7/2) = 4): forward total = 6 + 3 - 7 = 2 -> 1 + 1;
     * crop B = 1, A = 9 - 7 - 1 = 1 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(4), I64(3), I64(2),
                                 NULL, NULL, NULL, I64(7), &r));
    expect_result("tf deconv same 7", &r, 1, I64(7), I64(1), I64(1));
    /* S > DK: I = 2, S = 3, F = 1: O = 6, forward pads 0, full = 4 -> A = 4 - 6 = -2
     * (two zeros appended) */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(2), I64(1), I64(3),
                                 NULL, NULL, NULL, NULL, &r));
    expect_result("tf deconv same extend", &r, 1, I64(6), I64(0), I64(-2));
    /* VALID default: I*S + max(DK - S, 0) = 8 + 1 = 9 = full */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_VALID, 1, I64(4), I64(3), I64(2),
                                 NULL, NULL, NULL, NULL, &r));
    expect_result("tf deconv valid", &r, 1, I64(9), I64(0), I64(0));
    /* VALID, output_shape 10: floor((10-3)/2) + 1 = 4: crop A = 9 - 10 = -1 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_VALID, 1, I64(4), I64(3), I64(2),
                                 NULL, NULL, NULL, I64(10), &r));
    expect_result("tf deconv valid 10", &r, 1, I64(10), I64(0), I64(-1));
    /* inconsistent output_shape: forward SAME of 9 gives 5, not 4 */
    EXPECT_FAIL(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(4), I64(3), I64(2),
                                NULL, NULL, NULL, I64(9), &r),
                CLPAD_ERR_INVALID_SHAPE, "gives 5");
    EXPECT_FAIL(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_VALID, 1, I64(4), I64(3), I64(2),
                                NULL, NULL, NULL, I64(2), &r),
                CLPAD_ERR_INVALID_SHAPE, "output_shape[0] = 2");
    /* EXPLICIT: O = full - B - A = 9 - 1 - 2 = 6 */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_EXPLICIT, 1, I64(4), I64(3),
                                 I64(2), NULL, I64(1), I64(2), NULL, &r));
    expect_result("tf deconv explicit", &r, 1, I64(6), I64(1), I64(2));
}

/* ONNX's backend tests for ConvTranspose (onnx/backend/test/case/node/
 * convtranspose.py): X 3x3, W 3x3 unless said. */
static void test_onnx_backend_conv_transpose(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* test_convtranspose: no attributes -> 5x5 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 2, I64(3, 3),
                                   I64(3, 3), NULL, NULL, NULL, 0, NULL, NULL, &r));
    expect_result("test_convtranspose", &r, 2, I64(5, 5), I64(0, 0), I64(0, 0));
    /* test_convtranspose_output_shape: strides [3, 2], output_shape [10, 8]; full
     * is 9 x 7, so the total is -1 on both axes: the expected Y has the data at
     * the start and a last row and column of zeros (pads_end -1) */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 2, I64(3, 3),
                                   I64(3, 3), I64(3, 2), NULL, NULL, 0, NULL, I64(10, 8), &r));
    expect_result("test_convtranspose_output_shape", &r, 2, I64(10, 8), I64(0, 0),
                  I64(-1, -1));
    /* test_convtranspose_pad: strides [3, 2], output_padding [1, 1] -> 10 x 8 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 2, I64(3, 3),
                                   I64(3, 3), I64(3, 2), NULL, NULL, 0, I64(1, 1), NULL, &r));
    expect_result("test_convtranspose_pad", &r, 2, I64(10, 8), I64(0, 0), I64(0, 0));
    /* test_convtranspose_kernel_shape: the same with output_shape [10, 8] too */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 2, I64(3, 3),
                                   I64(3, 3), I64(3, 2), NULL, NULL, 0, I64(1, 1), I64(10, 8),
                                   &r));
    expect_result("test_convtranspose_kernel_shape", &r, 2, I64(10, 8), I64(0, 0), I64(0, 0));
    /* test_convtranspose_pads: strides [3, 2], pads [1, 2, 1, 2] -> 7 x 3 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 2, I64(3, 3),
                                   I64(3, 3), I64(3, 2), NULL, I64(1, 2, 1, 2), 0, NULL, NULL,
                                   &r));
    expect_result("test_convtranspose_pads", &r, 2, I64(7, 3), I64(1, 2), I64(1, 2));
    /* test_convtranspose_dilations: W 2x2, dilations [2, 2] -> DK 3, 5 x 5 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 2, I64(3, 3),
                                   I64(2, 2), NULL, I64(2, 2), NULL, 0, NULL, NULL, &r));
    expect_result("test_convtranspose_dilations", &r, 2, I64(5, 5), I64(0, 0), I64(0, 0));
    /* test_convtranspose_autopad_same: strides [2, 2], SAME_UPPER -> 6 x 6, the
     * odd pad at the end */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 2, I64(3, 3),
                                   I64(3, 3), I64(2, 2), NULL, NULL, 0, NULL, NULL, &r));
    expect_result("test_convtranspose_autopad_same", &r, 2, I64(6, 6), I64(0, 0), I64(1, 1));
}

/* An independent statement of Keras' geometry: deconv_output_length's length
 * and the JAX backend's padding of the stride-dilated input (left, right),
 * turned into crops of the full output: (DK-1) - left, (DK-1) - right. */
static void keras_oracle(int64_t I, int64_t DK, int64_t S, int same, int64_t op, int has_op,
                         int64_t *O, int64_t *B, int64_t *A)
{
    int64_t left, right;
    if (!same) {
        int64_t o = has_op ? op : (DK > S ? DK : S) - DK;
        left = DK - 1;
        right = DK - 1 + o;
        *O = (I - 1) * S + DK + o;
    } else {
        int64_t pad_len = has_op ? DK + DK % 2 - 2 + op : S + DK - 2;
        left = (pad_len / 2 + pad_len % 2) < DK - 1 ? pad_len / 2 + pad_len % 2 : DK - 1;
        right = pad_len - left;
        *O = has_op ? (I - 1) * S + DK - 2 * (DK / 2) + op : I * S;
    }
    *B = DK - 1 - left;
    *A = DK - 1 - right;
}

static void test_keras(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    /* Keras' ops tests (keras/src/ops/nn_test.py, test_conv_transpose): input 4,
     * kernel 2, strides 2 -> 8 ("valid" and "same"); strides 5, "valid",
     * output_padding 4 -> 21 */
    TU_ASSERT_OK(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_VALID, 1, I64(4), I64(2),
                                    I64(2), NULL, NULL, &r));
    expect_result("keras valid", &r, 1, I64(8), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(4), I64(2),
                                    I64(2), NULL, NULL, &r));
    expect_result("keras same", &r, 1, I64(8), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_VALID, 1, I64(4), I64(2),
                                    I64(5), NULL, I64(4), &r));
    expect_result("keras valid output_padding 4", &r, 1, I64(21), I64(0), I64(-4));
    /* layer tests (conv_transpose_test.py, test_conv1d_transpose_basic): input 8,
     * kernel 2, strides 3, "same", output_padding 2 -> 23 */
    TU_ASSERT_OK(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(8), I64(2),
                                    I64(3), NULL, I64(2), &r));
    expect_result("keras same output_padding 2", &r, 1, I64(23), I64(0), I64(0));
    /* backend_utils_test: kernel 3, stride 2, "same", None -> JAX pads (2, 1),
     * crops (0, 1); "valid", None -> (2, 2), crops (0, 0) */
    TU_ASSERT_OK(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(5), I64(3),
                                    I64(2), NULL, NULL, &r));
    expect_result("keras same k3 s2", &r, 1, I64(10), I64(0), I64(1));
    /* the header's example: I 3, F 3, S 2, "same", output_padding 1 -> 6, crops 0, 1 */
    TU_ASSERT_OK(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(3), I64(3),
                                    I64(2), NULL, I64(1), &r));
    expect_result("keras same output_padding 1", &r, 1, I64(6), I64(0), I64(1));
    /* against the oracle on a grid, and against clpad_window_tf where TF
     * computes the same shape (no output_padding) */
    for (int64_t I = 1; I <= 5; I++)
        for (int64_t S = 1; S <= 4; S++)
            for (int64_t F = 1; F <= 5; F++)
                for (int64_t d = 1; d <= 2; d++)
                    for (int same = 0; same <= 1; same++)
                        for (int64_t op = -1; op < S; op++) {
                            int64_t DK = 1 + d * (F - 1), O, B, A;
                            keras_oracle(I, DK, S, same, op, op >= 0, &O, &B, &A);
                            clpad_tf_padding pd = same ? CLPAD_TF_SAME : CLPAD_TF_VALID;
                            clpad_status st = clpad_window_keras(CLPAD_WINDOW_DECONV, pd, 1, &I,
                                                                 &F, &S, &d, op >= 0 ? &op : NULL,
                                                                 &r);
                            if (O < 1) {
                                assert_int_equal(st, CLPAD_ERR_INVALID_SHAPE);
                                continue;
                            }
                            TU_ASSERT_OK(st);
                            expect_result("keras vs oracle", &r, 1, &O, &B, &A);
                            if (op < 0) {
                                clpad_window_result t;
                                clpad_window_result_init(&t);
                                TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_DECONV, pd, 1, &I, &F,
                                                             &S, &d, NULL, NULL, NULL, &t));
                                expect_result("keras vs tf", &r, 1, t.output, t.pads_begin,
                                              t.pads_end);
                            }
                        }
    /* conv and pool are TensorFlow's; pooling's stride defaults to the pool size */
    TU_ASSERT_OK(clpad_window_keras(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 2, I64(7, 8), I64(4, 4),
                                    I64(3, 3), NULL, NULL, &r));
    expect_result("keras conv same", &r, 2, I64(3, 3), I64(1, 1), I64(2, 1));
    TU_ASSERT_OK(clpad_window_keras(CLPAD_WINDOW_POOL, CLPAD_TF_VALID, 1, I64(7), I64(2), NULL,
                                    NULL, NULL, &r));
    expect_result("keras pool default stride", &r, 1, I64(3), I64(0), I64(0));
    /* errors */
    EXPECT_FAIL(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(3), I64(3),
                                   I64(2), NULL, I64(2), &r),
                CLPAD_ERR_INVALID_PADS, "output_padding[0] = 2");
    EXPECT_FAIL(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_EXPLICIT, 1, I64(3), I64(3),
                                   I64(2), NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "\"valid\" and \"same\"");
    EXPECT_FAIL(clpad_window_keras(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, I64(3), I64(3),
                                   I64(2), NULL, I64(1), &r),
                CLPAD_ERR_INVALID_ARGUMENT, "output_padding");
    /* "same", DK even, output_padding 0, I = 1: O = 0 */
    EXPECT_FAIL(clpad_window_keras(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, I64(1), I64(2),
                                   I64(2), NULL, I64(0), &r),
                CLPAD_ERR_INVALID_SHAPE, "output size 0");
}

/* ------------------------------------------------------------------------- */
/* Layouts, tensor pads, names                                               */
/* ------------------------------------------------------------------------- */

static void test_layouts(void **state)
{
    (void)state;
    int64_t pb[8], pe[8], onnx[16], tf[16];
    /* ONNX flat <-> begin/end, 3 axes */
    TU_ASSERT_OK(clpad_window_pads_from_onnx(3, I64(1, 2, 3, 4, 5, 6), pb, pe));
    assert_memory_equal(pb, I64(1, 2, 3), 3 * sizeof(int64_t));
    assert_memory_equal(pe, I64(4, 5, 6), 3 * sizeof(int64_t));
    TU_ASSERT_OK(clpad_window_pads_to_onnx(3, pb, pe, onnx));
    assert_memory_equal(onnx, I64(1, 2, 3, 4, 5, 6), 6 * sizeof(int64_t));
    /* in place: begin overlaps the flat array */
    int64_t buf[6] = {1, 2, 3, 4, 5, 6};
    TU_ASSERT_OK(clpad_window_pads_from_onnx(3, buf, buf, pe));
    assert_memory_equal(buf, I64(1, 2, 3), 3 * sizeof(int64_t));
    assert_memory_equal(pe, I64(4, 5, 6), 3 * sizeof(int64_t));
    /* TF, 3-D spatial NDHWC and NCDHW (rank 5) */
    TU_ASSERT_OK(clpad_window_pads_to_tf(3, CLPAD_TF_CHANNELS_LAST, I64(1, 2, 3), I64(4, 5, 6),
                                         tf));
    assert_memory_equal(tf, I64(0, 0, 1, 4, 2, 5, 3, 6, 0, 0), 10 * sizeof(int64_t));
    TU_ASSERT_OK(clpad_window_pads_from_tf(5, CLPAD_TF_CHANNELS_LAST, tf, pb, pe));
    assert_memory_equal(pb, I64(1, 2, 3), 3 * sizeof(int64_t));
    assert_memory_equal(pe, I64(4, 5, 6), 3 * sizeof(int64_t));
    TU_ASSERT_OK(clpad_window_pads_to_tf(3, CLPAD_TF_CHANNELS_FIRST, pb, pe, tf));
    assert_memory_equal(tf, I64(0, 0, 0, 0, 1, 4, 2, 5, 3, 6), 10 * sizeof(int64_t));
    TU_ASSERT_OK(clpad_window_pads_from_tf(5, CLPAD_TF_CHANNELS_FIRST, tf, pb, pe));
    assert_memory_equal(pb, I64(1, 2, 3), 3 * sizeof(int64_t));
    /* errors */
    EXPECT_FAIL(clpad_window_pads_from_tf(4, CLPAD_TF_CHANNELS_LAST,
                                          I64(0, 0, 1, 2, 1, 1, 0, 1), pb, pe),
                CLPAD_ERR_INVALID_PADS, "channel");
    EXPECT_FAIL(clpad_window_pads_from_tf(4, CLPAD_TF_CHANNELS_FIRST,
                                          I64(1, 0, 0, 0, 1, 1, 0, 0), pb, pe),
                CLPAD_ERR_INVALID_PADS, "batch");
    EXPECT_FAIL(clpad_window_pads_from_tf(2, CLPAD_TF_CHANNELS_LAST, I64(0, 0, 0, 0), pb, pe),
                CLPAD_ERR_INVALID_ARGUMENT, "rank = 2");
    EXPECT_FAIL(clpad_window_pads_to_tf(7, CLPAD_TF_CHANNELS_LAST, pb, pe, tf),
                CLPAD_ERR_INVALID_ARGUMENT, "naxes = 7");
    EXPECT_FAIL(clpad_window_pads_to_tf(2, (clpad_tf_layout)5, pb, pe, tf),
                CLPAD_ERR_INVALID_ARGUMENT, "layout");
    EXPECT_FAIL(clpad_window_pads_to_onnx(0, pb, pe, onnx), CLPAD_ERR_INVALID_ARGUMENT,
                "naxes = 0");
    EXPECT_FAIL(clpad_window_pads_from_onnx(2, NULL, pb, pe), CLPAD_ERR_INVALID_ARGUMENT,
                "onnx_pads");
    EXPECT_FAIL(clpad_window_pads_to_onnx(2, pb, NULL, onnx), CLPAD_ERR_INVALID_ARGUMENT,
                "pads_end");
}

static void test_tensor_pads(void **state)
{
    (void)state;
    clpad_window_result r;
    clpad_window_result_init(&r);
    int64_t pb[4], pe[4];
    /* the TF SAME article's example into NHWC (first spatial axis 1) and NCHW (2) */
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 2, I64(7, 8), I64(4, 4),
                                 I64(3, 3), NULL, NULL, NULL, NULL, &r));
    TU_ASSERT_OK(clpad_window_tensor_pads(&r, 4, 1, pb, pe));
    assert_memory_equal(pb, I64(0, 1, 1, 0), sizeof pb);
    assert_memory_equal(pe, I64(0, 2, 1, 0), sizeof pe);
    TU_ASSERT_OK(clpad_window_tensor_pads(&r, 4, 2, pb, pe));
    assert_memory_equal(pb, I64(0, 0, 1, 1), sizeof pb);
    assert_memory_equal(pe, I64(0, 0, 2, 1), sizeof pe);
    /* ceil mode grows the end: I = 6, F = 3, S = 2, pads 0, ceil -> O = 3, the last
     * window ends at 2*2 + 3 = 7 -> end = 7 - 6 = 1 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(6), I64(3),
                                   I64(2), NULL, NULL, 1, NULL, NULL, &r));
    TU_ASSERT_OK(clpad_window_tensor_pads(&r, 1, 0, pb, pe));
    assert_int_equal(pb[0], 0);
    assert_int_equal(pe[0], 1);
    /* ... and shrinks it when the single drop leaves windows in a long end pad:
     * I = 3, F = 1, S = 1, pads [0, 3], ceil -> O = 5: e0 = 4 + 1 - 3 = 2 (range [2, 2]) */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(3), I64(1),
                                   I64(1), NULL, I64(0, 3), 1, NULL, NULL, &r));
    TU_ASSERT_OK(clpad_window_tensor_pads(&r, 1, 0, pb, pe));
    assert_int_equal(pe[0], 2);
    /* floor mode keeps the given end even when the last rows are unused */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 1,
                                       I64(6), I64(3), I64(2), NULL, I64(3), I64(3), &r));
    TU_ASSERT_OK(clpad_window_tensor_pads(&r, 1, 0, pb, pe));
    assert_int_equal(pb[0], 3);
    assert_int_equal(pe[0], 3);
    /* TensorRT negative P crops */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 1, I64(8),
                                       I64(1), I64(4), NULL, NULL, NULL, &r));
    TU_ASSERT_OK(clpad_window_tensor_pads(&r, 1, 0, pb, pe));
    assert_int_equal(pb[0], -2);
    assert_int_equal(pe[0], -1);
    /* deconv: crop the full output 9 to 8: begin -0, end 8 - 9 + 0 = -1 */
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_UPPER, 1, I64(4),
                                       I64(3), I64(2), NULL, NULL, NULL, &r));
    TU_ASSERT_OK(clpad_window_tensor_pads(&r, 3, 2, pb, pe));
    assert_memory_equal(pb, I64(0, 0, 0), 3 * sizeof(int64_t));
    assert_memory_equal(pe, I64(0, 0, -1), 3 * sizeof(int64_t));
    /* deconv with output_padding 1: O = 8 - 1 - 1 = 6 from full 7 (+1): begin -1, end 0 */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(3),
                                   I64(2), NULL, I64(1, 1), 0, I64(1), NULL, &r));
    TU_ASSERT_OK(clpad_window_tensor_pads(&r, 1, 0, pb, pe));
    assert_int_equal(pb[0], -1);
    assert_int_equal(pe[0], 0);
    /* errors */
    EXPECT_FAIL(clpad_window_tensor_pads(&r, 1, 1, pb, pe), CLPAD_ERR_INVALID_ARGUMENT,
                "first_axis = 1");
    EXPECT_FAIL(clpad_window_tensor_pads(&r, 9, 0, pb, pe), CLPAD_ERR_INVALID_ARGUMENT,
                "rank = 9");
    EXPECT_FAIL(clpad_window_tensor_pads(NULL, 1, 0, pb, pe), CLPAD_ERR_INVALID_ARGUMENT,
                "result");
    clpad_window_result bad;
    clpad_window_result_init(&bad);
    EXPECT_FAIL(clpad_window_tensor_pads(&bad, 1, 0, pb, pe), CLPAD_ERR_INVALID_ARGUMENT,
                "naxes = 0");
    r.size = sizeof r - 1; /* a valid result, but its size unset */
    EXPECT_FAIL(clpad_window_tensor_pads(&r, 1, 0, pb, pe), CLPAD_ERR_INVALID_ARGUMENT,
                "result->size");
}

/* result->size: a front end refuses a size below this version's struct,
 * naming `result` and writing nothing, and writes no byte past the
 * caller's size (a newer caller's larger struct keeps its tail). */
static void test_result_size(void **state)
{
    (void)state;
    union {
        clpad_window_result r;
        unsigned char b[sizeof(clpad_window_result) + 64];
    } u;
    const size_t n = sizeof u.r;
    memset(u.b, 0x5A, sizeof u.b);
    u.r.size = n - 8;
    EXPECT_FAIL(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 1, I64(6),
                                      I64(3), I64(2), NULL, NULL, NULL, &u.r),
                CLPAD_ERR_INVALID_ARGUMENT, "result->size is");
    clpad_error_info e = {.size = sizeof e};
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "result");
    for (size_t k = sizeof u.r.size; k < sizeof u.b; k++)
        if (u.b[k] != 0x5A)
            fail_msg("byte %zu of a refused result written", k);
    /* each front end checks it */
    u.r.size = 0;
    EXPECT_FAIL(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, I64(6), I64(3), I64(2),
                                NULL, NULL, NULL, NULL, &u.r),
                CLPAD_ERR_INVALID_ARGUMENT, "result->size is 0");
    EXPECT_FAIL(clpad_window_keras(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, I64(6), I64(3), I64(2),
                                   NULL, NULL, &u.r),
                CLPAD_ERR_INVALID_ARGUMENT, "result->size is 0");
    EXPECT_FAIL(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_SAME_UPPER, 1, I64(6), I64(3),
                                  I64(2), NULL, NULL, 0, NULL, NULL, &u.r),
                CLPAD_ERR_INVALID_ARGUMENT, "result->size is 0");
    EXPECT_FAIL(clpad_window_openvino(CLPAD_WINDOW_CONV, CLPAD_OV_SAME_UPPER, CLPAD_OV_FLOOR, 1,
                                      I64(6), I64(3), I64(2), NULL, NULL, NULL, NULL, NULL,
                                      &u.r),
                CLPAD_ERR_INVALID_ARGUMENT, "result->size is 0");
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_CONV, CLPAD_TORCH_VALID, 1, I64(6), I64(3),
                                   I64(2), NULL, NULL, 0, NULL, &u.r),
                CLPAD_ERR_INVALID_ARGUMENT, "result->size is 0");
    /* a larger size: this version's fields written, the rest kept */
    memset(u.b, 0x5A, sizeof u.b);
    u.r.size = sizeof u.b;
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 1, I64(6),
                                       I64(3), I64(2), NULL, NULL, NULL, &u.r));
    assert_int_equal(u.r.size, sizeof u.b);
    assert_int_equal(u.r.output[0], 3);
    assert_int_equal(u.r.output[1], 0);
    for (size_t k = n; k < sizeof u.b; k++)
        if (u.b[k] != 0x5A)
            fail_msg("byte %zu, past this version's struct, written", k);
}

static void test_names(void **state)
{
    (void)state;
    clpad_window_op op;
    clpad_trt_padding trt;
    clpad_tf_padding tfp;
    clpad_tf_layout lay;
    clpad_onnx_auto_pad onnx;
    clpad_ov_auto_pad ov;
    clpad_ov_rounding rnd;
    clpad_torch_padding tp;

    for (int i = 0; i < CLPAD_WINDOW_OP_COUNT; i++) {
        TU_ASSERT_OK(clpad_window_op_from_name(clpad_window_op_name((clpad_window_op)i), &op));
        assert_int_equal(op, i);
    }
    for (int i = 0; i < CLPAD_TRT_PADDING_COUNT; i++) {
        TU_ASSERT_OK(clpad_trt_padding_from_name(clpad_trt_padding_name((clpad_trt_padding)i),
                                                 &trt));
        assert_int_equal(trt, i);
    }
    for (int i = 0; i < CLPAD_TF_PADDING_COUNT; i++) {
        TU_ASSERT_OK(clpad_tf_padding_from_name(clpad_tf_padding_name((clpad_tf_padding)i), &tfp));
        assert_int_equal(tfp, i);
    }
    for (int i = 0; i < CLPAD_TF_LAYOUT_COUNT; i++) {
        TU_ASSERT_OK(clpad_tf_layout_from_name(clpad_tf_layout_name((clpad_tf_layout)i), &lay));
        assert_int_equal(lay, i);
    }
    for (int i = 0; i < CLPAD_ONNX_AUTO_PAD_COUNT; i++) {
        TU_ASSERT_OK(clpad_onnx_auto_pad_from_name(
            clpad_onnx_auto_pad_name((clpad_onnx_auto_pad)i), &onnx));
        assert_int_equal(onnx, i);
    }
    for (int i = 0; i < CLPAD_OV_AUTO_PAD_COUNT; i++) {
        TU_ASSERT_OK(clpad_ov_auto_pad_from_name(clpad_ov_auto_pad_name((clpad_ov_auto_pad)i),
                                                 &ov));
        assert_int_equal(ov, i);
    }
    for (int i = 0; i < CLPAD_OV_ROUNDING_COUNT; i++) {
        TU_ASSERT_OK(clpad_ov_rounding_from_name(clpad_ov_rounding_name((clpad_ov_rounding)i),
                                                 &rnd));
        assert_int_equal(rnd, i);
    }
    for (int i = 0; i < CLPAD_TORCH_PADDING_COUNT; i++) {
        TU_ASSERT_OK(clpad_torch_padding_from_name(
            clpad_torch_padding_name((clpad_torch_padding)i), &tp));
        assert_int_equal(tp, i);
    }
    assert_string_equal(clpad_window_op_name(CLPAD_WINDOW_DECONV), "deconv");
    assert_string_equal(clpad_onnx_auto_pad_name(CLPAD_ONNX_SAME_UPPER), "SAME_UPPER");
    assert_string_equal(clpad_ov_rounding_name(CLPAD_OV_CEIL_TORCH), "ceil_torch");
    assert_null(clpad_window_op_name((clpad_window_op)3));
    assert_null(clpad_trt_padding_name((clpad_trt_padding)-1));
    assert_null(clpad_torch_padding_name(CLPAD_TORCH_PADDING_COUNT));

    /* spellings: case, '-' for '_', TensorRT's kNAME, aliases */
    TU_ASSERT_OK(clpad_trt_padding_from_name("explicit-round-up", &trt));
    assert_int_equal(trt, CLPAD_TRT_EXPLICIT_ROUND_UP);
    TU_ASSERT_OK(clpad_trt_padding_from_name("kSAME_LOWER", &trt));
    assert_int_equal(trt, CLPAD_TRT_SAME_LOWER);
    TU_ASSERT_OK(clpad_onnx_auto_pad_from_name("same_lower", &onnx));
    assert_int_equal(onnx, CLPAD_ONNX_SAME_LOWER);
    TU_ASSERT_OK(clpad_tf_padding_from_name("same", &tfp));
    assert_int_equal(tfp, CLPAD_TF_SAME);
    TU_ASSERT_OK(clpad_tf_layout_from_name("NCDHW", &lay));
    assert_int_equal(lay, CLPAD_TF_CHANNELS_FIRST);
    TU_ASSERT_OK(clpad_ov_auto_pad_from_name("SAME-UPPER", &ov));
    assert_int_equal(ov, CLPAD_OV_SAME_UPPER);
    TU_ASSERT_OK(clpad_ov_auto_pad_from_name("notset", &ov));
    assert_int_equal(ov, CLPAD_OV_EXPLICIT);
    TU_ASSERT_OK(clpad_ov_rounding_from_name("CEIL-TORCH", &rnd));
    assert_int_equal(rnd, CLPAD_OV_CEIL_TORCH);
    TU_ASSERT_OK(clpad_window_op_from_name("ConvTranspose", &op));
    assert_int_equal(op, CLPAD_WINDOW_DECONV);
    TU_ASSERT_OK(clpad_window_op_from_name("maxpool", &op));
    assert_int_equal(op, CLPAD_WINDOW_POOL);

    /* errors; the output is left alone */
    op = CLPAD_WINDOW_POOL;
    EXPECT_FAIL(clpad_window_op_from_name("convo", &op), CLPAD_ERR_PARSE, "conv, deconv, pool");
    assert_int_equal(op, CLPAD_WINDOW_POOL);
    EXPECT_FAIL(clpad_onnx_auto_pad_from_name("SAME", &onnx), CLPAD_ERR_PARSE, "SAME_UPPER");
    EXPECT_FAIL(clpad_tf_padding_from_name("", &tfp), CLPAD_ERR_PARSE, "VALID");
    EXPECT_FAIL(clpad_trt_padding_from_name("k", &trt), CLPAD_ERR_PARSE, "same_upper");
    EXPECT_FAIL(clpad_ov_rounding_from_name(NULL, &rnd), CLPAD_ERR_INVALID_ARGUMENT, "name");
    EXPECT_FAIL(clpad_torch_padding_from_name("same", NULL), CLPAD_ERR_INVALID_ARGUMENT,
                "output");
}

/* ------------------------------------------------------------------------- */
/* Errors                                                                    */
/* ------------------------------------------------------------------------- */

static void test_errors(void **state)
{
    (void)state;
    clpad_window_result r, sentinel;
    clpad_window_result_init(&r);
    clpad_window_result_init(&sentinel);
    memset(&sentinel, 0x5A, sizeof sentinel);
    sentinel.size = sizeof sentinel;
    r = sentinel;
    const int64_t *I = I64(7, 8), *F = I64(3, 3), *S = I64(2, 2);
    const clpad_window_op C = CLPAD_WINDOW_CONV;
    const clpad_trt_padding D = CLPAD_TRT_EXPLICIT_ROUND_DOWN;

    EXPECT_FAIL(clpad_window_tensorrt(C, D, 0, I, F, S, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "naxes = 0");
    EXPECT_FAIL(clpad_window_tensorrt(C, D, 9, I, F, S, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "naxes = 9");
    EXPECT_FAIL(clpad_window_tensorrt(C, D, 2, NULL, F, S, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "input");
    EXPECT_FAIL(clpad_window_tensorrt(C, D, 2, I, NULL, S, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "kernel");
    EXPECT_FAIL(clpad_window_tensorrt(C, D, 2, I, F, S, NULL, NULL, NULL, NULL),
                CLPAD_ERR_INVALID_ARGUMENT, "result");
    EXPECT_FAIL(clpad_window_tensorrt((clpad_window_op)7, D, 2, I, F, S, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "op = 7");
    EXPECT_FAIL(clpad_window_tensorrt(C, (clpad_trt_padding)4, 2, I, F, S, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "mode = 4");
    /* non-positive kernel, stride, dilation, input */
    EXPECT_FAIL(clpad_window_tensorrt(C, D, 2, I, I64(3, 0), S, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "kernel[1] = 0");
    EXPECT_FAIL(clpad_window_tf(C, CLPAD_TF_SAME, 2, I, F, I64(0, 2), NULL, NULL, NULL, NULL,
                                &r),
                CLPAD_ERR_INVALID_ARGUMENT, "stride[0] = 0");
    EXPECT_FAIL(clpad_window_onnx(C, CLPAD_ONNX_VALID, 2, I, F, S, I64(1, -1), NULL, 0, NULL,
                                  NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "dilation[1] = -1");
    EXPECT_FAIL(clpad_window_torch(C, CLPAD_TORCH_VALID, 2, I64(0, 8), F, S, NULL, NULL, 0,
                                   NULL, &r),
                CLPAD_ERR_INVALID_SHAPE, "input[0] = 0");
    EXPECT_FAIL(clpad_window_openvino(C, CLPAD_OV_VALID, CLPAD_OV_FLOOR, 2, I, I64(-3, 3), S,
                                      NULL, NULL, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "kernel[0] = -3");
    /* TensorRT pooling has no dilation */
    EXPECT_FAIL(clpad_window_tensorrt(CLPAD_WINDOW_POOL, D, 2, I, F, S, I64(1, 2), NULL, NULL,
                                      &r),
                CLPAD_ERR_INVALID_ARGUMENT, "dilation[1] = 2");
    /* negative explicit pads where forbidden (TensorRT allows them) */
    EXPECT_FAIL(clpad_window_tf(C, CLPAD_TF_EXPLICIT, 2, I, F, S, NULL, I64(0, -1), NULL, NULL,
                                &r),
                CLPAD_ERR_INVALID_PADS, "pads_begin[1] = -1");
    EXPECT_FAIL(clpad_window_onnx(C, CLPAD_ONNX_NOTSET, 2, I, F, S, NULL, I64(0, 0, 0, -2), 0,
                                  NULL, NULL, &r),
                CLPAD_ERR_INVALID_PADS, "pads[3] = -2");
    TU_ASSERT_OK(clpad_window_tensorrt(C, D, 2, I, F, S, NULL, I64(-1, 0), I64(0, -2), &r));
    /* M = 7 - 1 = 6: floor(3/2) + 1 = 2; M = 8 - 2 = 6: 2 */
    expect_result("trt negative pads", &r, 2, I64(2, 2), I64(-1, 0), I64(0, -2));
    r = sentinel;
    /* pads where the convention has none */
    EXPECT_FAIL(clpad_window_tf(C, CLPAD_TF_SAME, 2, I, F, S, NULL, I64(1, 1), NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "pads_begin / pads_end");
    EXPECT_FAIL(clpad_window_onnx(C, CLPAD_ONNX_SAME_UPPER, 2, I, F, S, NULL, I64(0, 0, 0, 0), 0,
                                  NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "pads must be NULL");
    EXPECT_FAIL(clpad_window_onnx(C, CLPAD_ONNX_NOTSET, 2, I, F, S, NULL, NULL, 1, NULL, NULL,
                                  &r),
                CLPAD_ERR_INVALID_ARGUMENT, "ceil_mode");
    EXPECT_FAIL(clpad_window_onnx(C, CLPAD_ONNX_NOTSET, 2, I, F, S, NULL, NULL, 0, I64(0, 0),
                                  NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "output_padding");
    EXPECT_FAIL(clpad_window_tf(C, CLPAD_TF_SAME, 2, I, F, S, NULL, NULL, NULL, I64(7, 8), &r),
                CLPAD_ERR_INVALID_ARGUMENT, "output_shape");
    EXPECT_FAIL(clpad_window_tf(C, (clpad_tf_padding)3, 2, I, F, S, NULL, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "padding = 3");
    EXPECT_FAIL(clpad_window_onnx(C, (clpad_onnx_auto_pad)-1, 2, I, F, S, NULL, NULL, 0, NULL,
                                  NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "auto_pad = -1");
    EXPECT_FAIL(clpad_window_openvino(C, CLPAD_OV_VALID, (clpad_ov_rounding)9, 2, I, F, S, NULL,
                                      NULL, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "rounding = 9");
    EXPECT_FAIL(clpad_window_torch(C, (clpad_torch_padding)8, 2, I, F, S, NULL, NULL, 0, NULL,
                                   &r),
                CLPAD_ERR_INVALID_ARGUMENT, "padding_mode = 8");
    EXPECT_FAIL(clpad_window_openvino(C, (clpad_ov_auto_pad)4, CLPAD_OV_FLOOR, 2, I, F, S, NULL,
                                      NULL, NULL, NULL, NULL, &r),
                CLPAD_ERR_INVALID_ARGUMENT, "auto_pad = 4");
    EXPECT_FAIL(clpad_window_onnx(C, CLPAD_ONNX_VALID, 2, I, F, S, NULL, NULL, 0, NULL,
                                  I64(7, 8), &r),
                CLPAD_ERR_INVALID_ARGUMENT, "output_shape");
    EXPECT_FAIL(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_VALID, CLPAD_OV_FLOOR, 2, I, F,
                                      S, NULL, NULL, NULL, NULL, I64(7, 8), &r),
                CLPAD_ERR_INVALID_ARGUMENT, "output_shape");
    EXPECT_FAIL(clpad_window_torch(C, CLPAD_TORCH_EXPLICIT, 2, I, F, S, NULL, NULL, 0,
                                   I64(0, 0), &r),
                CLPAD_ERR_INVALID_ARGUMENT, "output_padding");
    EXPECT_FAIL(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 2, I, F, S, NULL, NULL, NULL,
                                I64(14, -1), &r),
                CLPAD_ERR_INVALID_SHAPE, "output_shape[1] = -1");
    EXPECT_FAIL(clpad_window_openvino(C, CLPAD_OV_EXPLICIT, CLPAD_OV_FLOOR, 2, I, F, S, NULL,
                                      NULL, I64(1, -4), NULL, NULL, &r),
                CLPAD_ERR_INVALID_PADS, "pads_end[1] = -4");
    /* output size < 1 */
    EXPECT_FAIL(clpad_window_tf(C, CLPAD_TF_VALID, 2, I64(7, 2), F, S, NULL, NULL, NULL, NULL,
                                &r),
                CLPAD_ERR_INVALID_SHAPE, "axis 1");
    EXPECT_FAIL(clpad_window_tensorrt(C, CLPAD_TRT_EXPLICIT_ROUND_UP, 1, I64(2), I64(4), I64(3),
                                      NULL, I64(1), NULL, &r),
                CLPAD_ERR_INVALID_SHAPE, "kernel extent 4");
    EXPECT_FAIL(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, D, 1, I64(2), I64(2), I64(1), NULL,
                                      I64(2), I64(1), &r),
                CLPAD_ERR_INVALID_SHAPE, "output size 0");
    EXPECT_FAIL(clpad_window_onnx(C, CLPAD_ONNX_NOTSET, 1, I64(1), I64(3), NULL, I64(2),
                                  NULL, 0, NULL, NULL, &r),
                CLPAD_ERR_INVALID_SHAPE, "kernel extent 5");
    /* nothing was written by any failed call */
    assert_memory_equal(&r, &sentinel, sizeof r);
}

static void test_overflow(void **state)
{
    (void)state;
    clpad_window_result r, sentinel;
    clpad_window_result_init(&r);
    clpad_window_result_init(&sentinel);
    memset(&sentinel, 0x33, sizeof sentinel);
    sentinel.size = sizeof sentinel;
    r = sentinel;
    const int64_t big = INT64_MAX;
    /* kernel extent 1 + d*(F-1) */
    EXPECT_FAIL(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 1, I64(5),
                                      I64(big), NULL, I64(2), NULL, NULL, &r),
                CLPAD_ERR_OVERFLOW, "axis 0");
    EXPECT_FAIL(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 1, I64(5), I64(big), NULL, NULL,
                                NULL, NULL, NULL, &r),
                CLPAD_ERR_OVERFLOW, "kernel extent");
    /* padded input I + B + A */
    EXPECT_FAIL(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_EXPLICIT_ROUND_DOWN, 2,
                                      I64(5, big), I64(1, 1), NULL, NULL, I64(0, 0), I64(0, 1),
                                      &r),
                CLPAD_ERR_OVERFLOW, "axis 1");
    EXPECT_FAIL(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 1, I64(big - 5), I64(2),
                                  NULL, NULL, I64(3, 3), 1, NULL, NULL, &r),
                CLPAD_ERR_OVERFLOW, "padded input");
    /* SAME: (O-1)*S + DK */
    EXPECT_FAIL(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_SAME_UPPER, 1, I64(big), I64(3),
                                  NULL, NULL, NULL, 0, NULL, NULL, &r),
                CLPAD_ERR_OVERFLOW, "overflows int64");
    /* deconv: (I-1)*S and I*S */
    EXPECT_FAIL(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_UPPER, 1,
                                      I64(INT64_C(1) << 40), I64(3), I64(INT64_C(1) << 30), NULL,
                                      NULL, NULL, &r),
                CLPAD_ERR_OVERFLOW, "stride");
    EXPECT_FAIL(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_NOTSET, 1, I64(3), I64(2),
                                  I64(big / 2), NULL, NULL, 0, NULL, NULL, &r),
                CLPAD_ERR_OVERFLOW, "axis 0");
    EXPECT_FAIL(clpad_window_torch(CLPAD_WINDOW_DECONV, CLPAD_TORCH_EXPLICIT, 1, I64(2),
                                   I64(big / 2 + 2), I64(big / 2), I64(1), NULL, 0, NULL, &r),
                CLPAD_ERR_OVERFLOW, "overflows");
    assert_memory_equal(&r, &sentinel, sizeof r);
    /* large values that fit are computed exactly (no float rounding):
     * I = 2^62 + 1, S = 3, F = 1: O = ceil((2^62 + 1)/3) */
    int64_t I = (INT64_C(1) << 62) + 1;
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_POOL, CLPAD_TF_SAME, 1, &I, I64(1), I64(3), NULL,
                                 NULL, NULL, NULL, &r));
    /* 2^62 = 4611686018427387904 = 3 * 1537228672809129301 + 1, so I = 3q + 2 and
     * O = q + 1 = 1537228672809129302; total = max((O-1)*3 + 1 - I, 0) = max(-1, 0) = 0 */
    expect_result("big exact", &r, 1, I64(INT64_C(1537228672809129302)), I64(0), I64(0));
    TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_POOL, CLPAD_TRT_SAME_UPPER, 1, &I, I64(1),
                                       I64(3), NULL, NULL, NULL, &r));
    expect_result("big exact trt", &r, 1, I64(INT64_C(1537228672809129302)), I64(-1), I64(0));
    /* the largest input that fits: I = INT64_MAX, F = 1, S = 1, VALID */
    TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_VALID, 1, I64(big), I64(1),
                                   NULL, NULL, NULL, 0, NULL, NULL, &r));
    expect_result("int64 max valid", &r, 1, I64(big), I64(0), I64(0));
}

/* ------------------------------------------------------------------------- */
/* Equivalence: SAME window directly == VALID window over the padded tensor   */
/* ------------------------------------------------------------------------- */

enum win_kind { WIN_CONV, WIN_MAX, WIN_AVG_INCLUDE_PAD };

/* One 2-D window pass over an NHWC tensor [1, H, W, C] (doubles): output
 * [OH, OW]; window (oh, ow) covers rows oh*SH - top + kh*DH and columns
 * ow*SW - left + kw*DW; a tap outside the tensor reads `outside`. conv sums
 * x*w over channels and taps, max takes the maximum, avg divides the sum by
 * the window size (count_include_pad). Plain loops, fixed order, so that the
 * same taps give bit-identical results. Returns the number of taps that fell
 * outside. */
static long window2d(const double *x, int64_t H, int64_t W, int64_t C, const double *w,
                     int64_t KH, int64_t KW, int64_t SH, int64_t SW, int64_t DH, int64_t DW,
                     int64_t top, int64_t left, int64_t OH, int64_t OW, enum win_kind kind,
                     double outside, double *out)
{
    long missed = 0;
    for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
            double acc = kind == WIN_MAX ? -INFINITY : 0.0;
            for (int64_t kh = 0; kh < KH; kh++)
                for (int64_t kw = 0; kw < KW; kw++)
                    for (int64_t c = 0; c < C; c++) {
                        int64_t h = oh * SH - top + kh * DH, ww = ow * SW - left + kw * DW;
                        double v;
                        if (h < 0 || h >= H || ww < 0 || ww >= W) {
                            v = outside;
                            missed++;
                        } else {
                            v = x[(h * W + ww) * C + c];
                        }
                        if (kind == WIN_CONV)
                            acc += v * w[(kh * KW + kw) * C + c];
                        else if (kind == WIN_MAX)
                            acc = v > acc ? v : acc;
                        else
                            acc += v;
                    }
            if (kind == WIN_AVG_INCLUDE_PAD)
                acc /= (double)(KH * KW * C);
            out[oh * OW + ow] = acc;
        }
    return missed;
}

/* The test's own SAME (TF/ONNX, clamped) by search: the smallest total pad P >= 0
 * with which a VALID window yields ceil(I/S) outputs; begin = P/2 (upper). */
static int64_t brute_same_total(int64_t I, int64_t DK, int64_t S)
{
    int64_t want = (I + S - 1) / S;
    for (int64_t P = 0;; P++)
        if (I + P >= DK && (I + P - DK) / S + 1 >= want)
            return P;
}

/* The test's own window count of a ceil convention by enumeration: windows
 * o >= 0 whose start o*S in the padded input satisfies o*S < M - DK + S (the
 * ceil count); with `drop`, the last of them is removed if it starts in the end
 * padding (o*S >= I + B): one window at most, as PyTorch and the ONNX
 * reference implementation do. */
static int64_t brute_ceil_count(int64_t I, int64_t B, int64_t A, int64_t DK, int64_t S,
                                int drop)
{
    int64_t n = 0, M = I + B + A;
    for (int64_t o = 0; o * S < M - DK + S; o++)
        n++;
    if (drop && n > 0 && (n - 1) * S >= I + B)
        n--;
    return n;
}

struct conv_case {
    const char *what;
    enum win_kind kind;
    double pad_value;
    int64_t H, W, C, KH, KW, SH, SW, DH, DW;
    clpad_window_result r;
    int64_t top, left, OH, OW; /* the test's own expectation */
};

/* Run the direct window with implicit pads (c->top/left, c->OH/OW, taps outside read
 * pad_value) and the VALID window over the tensor padded by clpad_pad_cpu with
 * clpad_window_tensor_pads(); require identical outputs. */
static void check_equivalence(struct conv_case *c, uint64_t *rng)
{
    const clpad_window_result *r = &c->r;
    if (r->output[0] != c->OH || r->output[1] != c->OW || r->pads_begin[0] != c->top ||
        r->pads_begin[1] != c->left)
        fail_msg("%s: H %lld W %lld K %lldx%lld S %lldx%lld d %lldx%lld: library output "
                 "%lldx%lld begin %lld,%lld; test wants %lldx%lld begin %lld,%lld",
                 c->what, (long long)c->H, (long long)c->W, (long long)c->KH, (long long)c->KW,
                 (long long)c->SH, (long long)c->SW, (long long)c->DH, (long long)c->DW,
                 (long long)r->output[0], (long long)r->output[1], (long long)r->pads_begin[0],
                 (long long)r->pads_begin[1], (long long)c->OH, (long long)c->OW,
                 (long long)c->top, (long long)c->left);
    int64_t shape[4] = {1, c->H, c->W, c->C}, pb[4], pe[4], pshape[4];
    TU_ASSERT_OK(clpad_window_tensor_pads(r, 4, 1, pb, pe));
    TU_ASSERT_OK(
        clpad_pad_output_shape(4, shape, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), pshape));
    size_t n = (size_t)(c->H * c->W * c->C), np = (size_t)(pshape[1] * pshape[2] * pshape[3]);
    size_t nw = (size_t)(c->KH * c->KW * c->C), no = (size_t)(c->OH * c->OW);
    double *x = malloc(n * sizeof *x), *xp = malloc((np ? np : 1) * sizeof *xp);
    double *w = malloc(nw * sizeof *w);
    double *y1 = malloc(no * sizeof *y1), *y2 = malloc(no * sizeof *y2);
    assert_non_null(x);
    assert_non_null(xp);
    assert_non_null(w);
    assert_non_null(y1);
    assert_non_null(y2);
    for (size_t k = 0; k < n; k++)
        x[k] = (double)tu_range(rng, -1000, 1000) / 64.0;
    for (size_t k = 0; k < nw; k++)
        w[k] = (double)tu_range(rng, -50, 50) / 16.0;
    TU_ASSERT_OK(clpad_pad_cpu(CLPAD_F64, 4, shape, x, pb, pe,
                               CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), &c->pad_value, xp,
                               np * sizeof *xp));
    /* VALID over the padded tensor: floor((HP - DK)/S) + 1 windows, none outside */
    int64_t DKH = 1 + c->DH * (c->KH - 1), DKW = 1 + c->DW * (c->KW - 1);
    assert_true(pshape[1] >= DKH && pshape[2] >= DKW);
    assert_int_equal((pshape[1] - DKH) / c->SH + 1, c->OH);
    assert_int_equal((pshape[2] - DKW) / c->SW + 1, c->OW);
    window2d(x, c->H, c->W, c->C, w, c->KH, c->KW, c->SH, c->SW, c->DH, c->DW, c->top, c->left,
             c->OH, c->OW, c->kind, c->pad_value, y1);
    long missed = window2d(xp, pshape[1], pshape[2], c->C, w, c->KH, c->KW, c->SH, c->SW, c->DH,
                           c->DW, 0, 0, c->OH, c->OW, c->kind, NAN, y2);
    assert_int_equal(missed, 0);
    for (size_t k = 0; k < no; k++)
        if (!(y1[k] == y2[k]))
            fail_msg("%s: output %zu: direct %.17g, padded VALID %.17g (H %lld W %lld K "
                     "%lldx%lld S %lldx%lld d %lldx%lld)",
                     c->what, k, y1[k], y2[k], (long long)c->H, (long long)c->W,
                     (long long)c->KH, (long long)c->KW, (long long)c->SH, (long long)c->SW,
                     (long long)c->DH, (long long)c->DW);
    free(x);
    free(xp);
    free(w);
    free(y1);
    free(y2);
}

static void random_geometry(struct conv_case *c, uint64_t *rng, int dilation)
{
    c->H = tu_range(rng, 1, 11);
    c->W = tu_range(rng, 1, 11);
    c->C = tu_range(rng, 1, 3);
    c->KH = tu_range(rng, 1, 5);
    c->KW = tu_range(rng, 1, 5);
    c->SH = tu_range(rng, 1, 4);
    c->SW = tu_range(rng, 1, 4);
    c->DH = dilation ? tu_range(rng, 1, 3) : 1;
    c->DW = dilation ? tu_range(rng, 1, 3) : 1;
}

/* The seed article's experiment, generalized: TF SAME (and ONNX SAME_LOWER,
 * TensorRT SAME_UPPER with its unclamped P) convolution computed directly with
 * zero taps outside equals VALID convolution over the zero-padded tensor. */
static void test_equivalence_conv(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x57A3E;
    /* first the seed's own case: ones input 7x8x16, 4x4 filter, stride 3 */
    struct conv_case c = {.what = "TF SAME article", .kind = WIN_CONV, .pad_value = 0.0,
                          .H = 7, .W = 8, .C = 16, .KH = 4, .KW = 4, .SH = 3, .SW = 3,
                          .DH = 1, .DW = 1, .top = 1, .left = 1, .OH = 3, .OW = 3,
                          .r = {.size = sizeof(clpad_window_result)}};
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 2, I64(7, 8), I64(4, 4),
                                 I64(3, 3), NULL, NULL, NULL, NULL, &c.r));
    check_equivalence(&c, &rng);

    for (int iter = 0; iter < 300; iter++) {
        memset(&c, 0, sizeof c);
        clpad_window_result_init(&c.r);
        c.kind = WIN_CONV;
        c.pad_value = 0.0;
        random_geometry(&c, &rng, 1);
        int64_t I[2] = {c.H, c.W}, F[2] = {c.KH, c.KW}, S[2] = {c.SH, c.SW}, d[2] = {c.DH, c.DW};
        int64_t DK[2] = {1 + c.DH * (c.KH - 1), 1 + c.DW * (c.KW - 1)}, O[2], B[2];
        switch (iter % 4) {
        case 0: /* TF SAME: brute-force minimal pads, the odd one at the end */
            c.what = "tf SAME";
            TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_SAME, 2, I, F, S, d, NULL,
                                         NULL, NULL, &c.r));
            for (int a = 0; a < 2; a++) {
                O[a] = (I[a] + S[a] - 1) / S[a];
                B[a] = brute_same_total(I[a], DK[a], S[a]) / 2;
            }
            break;
        case 1: /* ONNX SAME_LOWER: the odd one at the beginning */
            c.what = "onnx SAME_LOWER";
            TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_CONV, CLPAD_ONNX_SAME_LOWER, 2, I, F, S,
                                           d, NULL, 0, NULL, NULL, &c.r));
            for (int a = 0; a < 2; a++) {
                int64_t P = brute_same_total(I[a], DK[a], S[a]);
                O[a] = (I[a] + S[a] - 1) / S[a];
                B[a] = P - P / 2;
            }
            break;
        case 2: /* TensorRT SAME_UPPER, P unclamped (negative begin crops) */
            c.what = "tensorrt SAME_UPPER";
            TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_CONV, CLPAD_TRT_SAME_UPPER, 2, I, F,
                                               S, d, NULL, NULL, &c.r));
            for (int a = 0; a < 2; a++) {
                int64_t P = ((I[a] - 1) / S[a]) * S[a] + DK[a] - I[a];
                O[a] = (I[a] + S[a] - 1) / S[a];
                B[a] = P >= 0 ? P / 2 : -((-P + 1) / 2); /* floor(P/2) */
            }
            break;
        default: { /* TF EXPLICIT with random non-negative pads */
            c.what = "tf EXPLICIT";
            int64_t pb[2], pe[2];
            for (int a = 0; a < 2; a++) {
                pb[a] = tu_range(&rng, 0, 4);
                pe[a] = tu_range(&rng, 0, 4);
                if (I[a] + pb[a] + pe[a] < DK[a])
                    pe[a] += DK[a] - (I[a] + pb[a] + pe[a]);
                O[a] = (I[a] + pb[a] + pe[a] - DK[a]) / S[a] + 1;
                B[a] = pb[a];
            }
            TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_CONV, CLPAD_TF_EXPLICIT, 2, I, F, S, d, pb,
                                         pe, NULL, &c.r));
            break;
        }
        }
        c.OH = O[0];
        c.OW = O[1];
        c.top = B[0];
        c.left = B[1];
        check_equivalence(&c, &rng);
    }
}

/* Pooling: max pooling is equal when the padding value is -inf (TF, ONNX and
 * PyTorch ignore padded positions in max pooling; -inf never wins a max).
 * Average pooling is equal with zero padding only in count_include_pad
 * semantics (PyTorch's default, ONNX count_include_pad=1); TF's SAME average
 * excludes the padding, which zero padding cannot reproduce (checked below). */
static void test_equivalence_pool(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x9001;
    for (int iter = 0; iter < 300; iter++) {
        struct conv_case c;
        memset(&c, 0, sizeof c);
        clpad_window_result_init(&c.r);
        int use_max = iter % 2 == 0;
        c.kind = use_max ? WIN_MAX : WIN_AVG_INCLUDE_PAD;
        c.pad_value = use_max ? -INFINITY : 0.0;
        random_geometry(&c, &rng, use_max); /* dilation for max pooling only */
        int64_t I[2] = {c.H, c.W}, F[2] = {c.KH, c.KW}, S[2] = {c.SH, c.SW}, d[2] = {c.DH, c.DW};
        int64_t DK[2] = {1 + c.DH * (c.KH - 1), 1 + c.DW * (c.KW - 1)}, O[2], B[2];
        switch ((iter / 2) % 4) {
        case 0: /* TF SAME */
            c.what = use_max ? "tf SAME max" : "tf SAME avg(include pad)";
            TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_POOL, CLPAD_TF_SAME, 2, I, F, S, d, NULL,
                                         NULL, NULL, &c.r));
            for (int a = 0; a < 2; a++) {
                O[a] = (I[a] + S[a] - 1) / S[a];
                B[a] = brute_same_total(I[a], DK[a], S[a]) / 2;
            }
            break;
        case 1: { /* ONNX NOTSET + ceil_mode (the last window may run past the pads) */
            c.what = use_max ? "onnx ceil max" : "onnx ceil avg";
            int64_t pads[4];
            for (int a = 0; a < 2; a++) {
                pads[a] = tu_range(&rng, 0, 3);
                pads[2 + a] = tu_range(&rng, 0, 3);
                if (I[a] + pads[a] + pads[2 + a] < DK[a])
                    pads[2 + a] += DK[a] - (I[a] + pads[a] + pads[2 + a]);
                O[a] = brute_ceil_count(I[a], pads[a], pads[2 + a], DK[a], S[a], 1);
                B[a] = pads[a];
            }
            TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_POOL, CLPAD_ONNX_NOTSET, 2, I, F, S, d,
                                           pads, 1, NULL, NULL, &c.r));
            break;
        }
        case 2: { /* PyTorch ceil_mode, symmetric pads <= DK/2 */
            c.what = use_max ? "torch ceil max" : "torch ceil avg";
            int64_t p[2];
            for (int a = 0; a < 2; a++) {
                p[a] = tu_range(&rng, 0, DK[a] / 2);
                if (I[a] + 2 * p[a] < DK[a]) { /* too small an input for this kernel */
                    I[a] = DK[a];
                    if (a == 0)
                        c.H = I[0];
                    else
                        c.W = I[1];
                }
                O[a] = brute_ceil_count(I[a], p[a], p[a], DK[a], S[a], 1);
                B[a] = p[a];
            }
            TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_POOL, CLPAD_TORCH_EXPLICIT, 2, I, F, S,
                                            d, p, 1, NULL, &c.r));
            break;
        }
        default: { /* OpenVINO plain ceil: windows may start in (or past) the padding */
            c.what = use_max ? "openvino ceil max" : "openvino ceil avg";
            int64_t pb[2], pe[2];
            for (int a = 0; a < 2; a++) {
                pb[a] = tu_range(&rng, 0, 3);
                pe[a] = tu_range(&rng, 0, 3);
                if (I[a] + pb[a] + pe[a] < DK[a])
                    pe[a] += DK[a] - (I[a] + pb[a] + pe[a]);
                O[a] = brute_ceil_count(I[a], pb[a], pe[a], DK[a], S[a], 0);
                B[a] = pb[a];
            }
            TU_ASSERT_OK(clpad_window_openvino(CLPAD_WINDOW_POOL, CLPAD_OV_EXPLICIT, CLPAD_OV_CEIL,
                                               2, I, F, S, d, pb, pe, NULL, NULL, &c.r));
            break;
        }
        }
        c.OH = O[0];
        c.OW = O[1];
        c.top = B[0];
        c.left = B[1];
        check_equivalence(&c, &rng);
    }

    /* TF's SAME average excludes the padding: on an all-ones input it is 1
     * everywhere, while the zero-padded (include-pad) average is below 1 wherever
     * a window reaches the padding. 5x5, 3x3 window, stride 2: pads 1 + 1. */
    clpad_window_result r;
    clpad_window_result_init(&r);
    TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_POOL, CLPAD_TF_SAME, 2, I64(5, 5), I64(3, 3),
                                 I64(2, 2), NULL, NULL, NULL, NULL, &r));
    expect_result("tf avg", &r, 2, I64(3, 3), I64(1, 1), I64(1, 1));
    double ones[25], y[9];
    for (int k = 0; k < 25; k++)
        ones[k] = 1.0;
    window2d(ones, 5, 5, 1, NULL, 3, 3, 2, 2, 1, 1, 1, 1, 3, 3, WIN_AVG_INCLUDE_PAD, 0.0, y);
    assert_true(y[0] < 1.0); /* corner: 4 of 9 taps in range */
    assert_true(fabs(y[0] - 4.0 / 9.0) < 1e-15);
    assert_true(y[4] == 1.0); /* centre window: no padding */
}

/* Deconvolution: the full transposed convolution (length (I-1)*S + DK) cropped
 * by clpad_pad_cpu with clpad_window_tensor_pads() equals the framework's output
 * computed directly: y[j] = sum over x[i]*w[k] with i*S + k*d = j + B. */
static void test_equivalence_deconv(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xDECAF;
    for (int iter = 0; iter < 300; iter++) {
        int64_t I = tu_range(&rng, 1, 9), F = tu_range(&rng, 1, 5), S = tu_range(&rng, 1, 4);
        int64_t d = tu_range(&rng, 1, 3), DK = 1 + d * (F - 1);
        clpad_window_result r;
        clpad_window_result_init(&r);
        const char *what;
        int64_t op = 0;
        switch (iter % 4) {
        case 0:
            what = "tensorrt SAME_LOWER";
            TU_ASSERT_OK(clpad_window_tensorrt(CLPAD_WINDOW_DECONV, CLPAD_TRT_SAME_LOWER, 1, &I,
                                               &F, &S, &d, NULL, NULL, &r));
            break;
        case 1: {
            what = "onnx SAME_UPPER + output_padding";
            int64_t lim = S > d ? S : d;
            op = tu_range(&rng, 0, lim - 1);
            TU_ASSERT_OK(clpad_window_onnx(CLPAD_WINDOW_DECONV, CLPAD_ONNX_SAME_UPPER, 1, &I, &F,
                                           &S, &d, NULL, 0, &op, NULL, &r));
            break;
        }
        case 2: {
            what = "torch padding + output_padding";
            int64_t lim = S > d ? S : d;
            op = tu_range(&rng, 0, lim - 1);
            int64_t full = (I - 1) * S + DK + op, p = tu_range(&rng, 0, (full - 1) / 2);
            TU_ASSERT_OK(clpad_window_torch(CLPAD_WINDOW_DECONV, CLPAD_TORCH_EXPLICIT, 1, &I, &F,
                                            &S, &d, &p, 0, &op, &r));
            break;
        }
        default:
            what = "tf SAME (default output_shape)";
            TU_ASSERT_OK(clpad_window_tf(CLPAD_WINDOW_DECONV, CLPAD_TF_SAME, 1, &I, &F, &S, &d,
                                         NULL, NULL, NULL, &r));
            break;
        }
        int64_t full = (I - 1) * S + DK, O = r.output[0], B = r.pads_begin[0];
        assert_int_equal(O, full + op - B - r.pads_end[0]);
        double x[9], w[5], yfull[64], ycrop[128], ydirect[128];
        for (int64_t i = 0; i < I; i++)
            x[i] = (double)tu_range(&rng, -100, 100) / 8.0;
        for (int64_t k = 0; k < F; k++)
            w[k] = (double)tu_range(&rng, -20, 20) / 4.0;
        for (int64_t j = 0; j < full; j++)
            yfull[j] = 0.0;
        for (int64_t i = 0; i < I; i++)
            for (int64_t k = 0; k < F; k++)
                yfull[i * S + k * d] += x[i] * w[k];
        for (int64_t j = 0; j < O; j++) {
            double acc = 0.0;
            for (int64_t i = 0; i < I; i++)
                for (int64_t k = 0; k < F; k++)
                    if (i * S + k * d == j + B)
                        acc += x[i] * w[k];
            ydirect[j] = acc;
        }
        int64_t pb[1], pe[1], out_len;
        TU_ASSERT_OK(clpad_window_tensor_pads(&r, 1, 0, pb, pe));
        TU_ASSERT_OK(clpad_pad_output_shape(1, &full, pb, pe, CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT),
                                            &out_len));
        assert_int_equal(out_len, O);
        assert_true(O <= 128);
        TU_ASSERT_OK(clpad_pad_cpu(CLPAD_F64, 1, &full, yfull, pb, pe,
                                   CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT), NULL, ycrop,
                                   sizeof ycrop));
        for (int64_t j = 0; j < O; j++)
            if (!(ycrop[j] == ydirect[j]))
                fail_msg("%s: I %lld F %lld S %lld d %lld: y[%lld] cropped %.17g, direct %.17g",
                         what, (long long)I, (long long)F, (long long)S, (long long)d,
                         (long long)j, ycrop[j], ydirect[j]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trt_seed_pool_example1),
        cmocka_unit_test(test_trt_seed_pool_example2),
        cmocka_unit_test(test_trt_conv_dilation),
        cmocka_unit_test(test_kernel_smaller_than_stride),
        cmocka_unit_test(test_stride_greater_than_input),
        cmocka_unit_test(test_trt_deconv),
        cmocka_unit_test(test_tf_seed_004),
        cmocka_unit_test(test_onnx_seed_004),
        cmocka_unit_test(test_ceil_mode),
        cmocka_unit_test(test_onnx_conv_transpose),
        cmocka_unit_test(test_onnx_backend_conv_transpose),
        cmocka_unit_test(test_keras),
        cmocka_unit_test(test_openvino),
        cmocka_unit_test(test_torch),
        cmocka_unit_test(test_tf_deconv),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_tensor_pads),
        cmocka_unit_test(test_result_size),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_equivalence_conv),
        cmocka_unit_test(test_equivalence_pool),
        cmocka_unit_test(test_equivalence_deconv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
