/* The public API's constants and struct layouts, by name, for bindings
 * that must not hard-code them (clpad_api_constant, clpad_api_layout in
 * include/clpad.h; the Python package reads them, python/clpad/_lib.py).
 * Each entry is compiled from the headers' own names, so its value cannot
 * drift from them; the tests check that every constant and struct field of
 * include/ is listed (python/tests/test_api_table.py). */
#include "core/core.h"

#include "clpad_image.h"
#include "clpad_stream.h"

#include <stddef.h>
#include <string.h>

struct constant {
    const char *name;
    int64_t value;
};

#define C(name) {#name, (int64_t)(name)},
#define STATUS(name, value, text) {#name, (int64_t)(value)},
static const struct constant constants[] = {
    CLPAD_STATUS_LIST(STATUS)
    C(CLPAD_BOOL) C(CLPAD_I8) C(CLPAD_U8) C(CLPAD_I16) C(CLPAD_U16) C(CLPAD_I32)
    C(CLPAD_U32) C(CLPAD_I64) C(CLPAD_U64) C(CLPAD_F16) C(CLPAD_BF16) C(CLPAD_F32)
    C(CLPAD_F64) C(CLPAD_DTYPE_COUNT) C(CLPAD_PAD_CONSTANT) C(CLPAD_PAD_EDGE)
    C(CLPAD_PAD_REFLECT) C(CLPAD_PAD_SYMMETRIC) C(CLPAD_PAD_WRAP) C(CLPAD_PAD_MODE_COUNT)
    C(CLPAD_NUMPY_MAXIMUM) C(CLPAD_NUMPY_MINIMUM) C(CLPAD_NUMPY_MEAN) C(CLPAD_NUMPY_MEDIAN)
    C(CLPAD_NUMPY_REFLECT_ODD) C(CLPAD_NUMPY_SYMMETRIC_ODD) C(CLPAD_NUMPY_LINEAR_RAMP)
    C(CLPAD_NUMPY_MODE_COUNT)
    C(CLPAD_PAD_LARGE_NUMPY) C(CLPAD_PLACE_END) C(CLPAD_PLACE_TOP_LEFT)
    C(CLPAD_PLACE_CENTER) C(CLPAD_PLACEMENT_COUNT) C(CLPAD_CONTEXT_DEFAULT)
    C(CLPAD_CONTEXT_NO_FALLBACK) C(CLPAD_CONTEXT_CPU_ONLY) C(CLPAD_CONTEXT_VERBOSE)
    C(CLPAD_CONTEXT_DEVICE_ONLY) C(CLPAD_NONTEMPORAL_OFF) C(CLPAD_NONTEMPORAL_ALWAYS)
    C(CLPAD_GEOMETRY_CPU) C(CLPAD_GEOMETRY_GPU) C(CLPAD_VERSION_MAJOR)
    C(CLPAD_VERSION_MINOR) C(CLPAD_VERSION_PATCH) C(CLPAD_VERSION_NUMBER) C(CLPAD_MAX_RANK)
    C(CLPAD_CONFIG_DEFAULT) C(CLPAD_WINDOW_CONV) C(CLPAD_WINDOW_DECONV) C(CLPAD_WINDOW_POOL)
    C(CLPAD_WINDOW_OP_COUNT) C(CLPAD_TRT_EXPLICIT_ROUND_DOWN) C(CLPAD_TRT_EXPLICIT_ROUND_UP)
    C(CLPAD_TRT_SAME_UPPER) C(CLPAD_TRT_SAME_LOWER) C(CLPAD_TRT_PADDING_COUNT)
    C(CLPAD_TF_VALID) C(CLPAD_TF_SAME) C(CLPAD_TF_EXPLICIT) C(CLPAD_TF_PADDING_COUNT)
    C(CLPAD_TF_CHANNELS_LAST) C(CLPAD_TF_CHANNELS_FIRST) C(CLPAD_TF_LAYOUT_COUNT)
    C(CLPAD_ONNX_NOTSET) C(CLPAD_ONNX_VALID) C(CLPAD_ONNX_SAME_UPPER)
    C(CLPAD_ONNX_SAME_LOWER) C(CLPAD_ONNX_AUTO_PAD_COUNT) C(CLPAD_OV_EXPLICIT)
    C(CLPAD_OV_SAME_UPPER) C(CLPAD_OV_SAME_LOWER) C(CLPAD_OV_VALID)
    C(CLPAD_OV_AUTO_PAD_COUNT) C(CLPAD_OV_FLOOR) C(CLPAD_OV_CEIL) C(CLPAD_OV_CEIL_TORCH)
    C(CLPAD_OV_ROUNDING_COUNT) C(CLPAD_TORCH_EXPLICIT) C(CLPAD_TORCH_SAME)
    C(CLPAD_TORCH_VALID) C(CLPAD_TORCH_PADDING_COUNT) C(CLPAD_INTERP_BILINEAR)
    C(CLPAD_INTERP_NEAREST) C(CLPAD_INTERP_PIL_BILINEAR)
    C(CLPAD_INTERP_PIL_BICUBIC) C(CLPAD_INTERP_PIL_LANCZOS) C(CLPAD_INTERP_AREA)
    C(CLPAD_INTERP_BICUBIC)
    C(CLPAD_INTERP_COUNT)
    C(CLPAD_FIT_CONTAIN) C(CLPAD_FIT_COVER) C(CLPAD_FIT_STRETCH) C(CLPAD_FIT_COUNT) C(CLPAD_LAYOUT_NCHW) C(CLPAD_LAYOUT_NHWC)
    C(CLPAD_LAYOUT_COUNT) C(CLPAD_LETTERBOX_MAX_CHANNELS) C(CLPAD_CHANNELS_COLOR)
    C(CLPAD_CHANNELS_GRAY) C(CLPAD_CHANNELS_COLOR_ALPHA) C(CLPAD_CHANNELS_KEEP)
    C(CLPAD_IMAGE_DEFAULT_MAX_PIXELS) C(CLPAD_IMAGE_MAX_SIDE)
    C(CLPAD_DECODE_SCALE_OFF) C(CLPAD_DECODE_SCALE_AUTO) C(CLPAD_ON_ERROR_FAIL)
    C(CLPAD_ON_ERROR_SKIP) C(CLPAD_PATHS_KEEP_MISSING) C(CLPAD_INPUT_PACKED) C(CLPAD_INPUT_NV12)
    C(CLPAD_INPUT_NV21)
    C(CLPAD_INPUT_I420) C(CLPAD_INPUT_YV12) C(CLPAD_INPUT_FORMAT_COUNT) C(CLPAD_COLOR_BT601)
    C(CLPAD_COLOR_BT709) C(CLPAD_COLOR_BT2020) C(CLPAD_COLOR_MATRIX_COUNT)
    C(CLPAD_RANGE_LIMITED) C(CLPAD_RANGE_FULL) C(CLPAD_COLOR_RANGE_COUNT)
};
#undef STATUS
#undef C

struct layout {
    const char *type, *field; /* field NULL: the struct itself */
    size_t offset, size;
};

#define T(type) {#type, NULL, 0, sizeof(type)},
#define F(type, field) {#type, #field, offsetof(type, field), sizeof(((type *)0)->field)},
static const struct layout layouts[] = {
    T(clpad_error_info)
    T(clpad_pad_options)
    T(clpad_pad_form)
    T(clpad_device_info)
    T(clpad_context_config)
    T(clpad_run_info)
    T(clpad_window_result)
    T(clpad_image)
    T(clpad_letterbox_options)
    T(clpad_letterbox_transform)
    T(clpad_read_options)
    T(clpad_image_info)
    T(clpad_decoded_image)
    T(clpad_stream_options)
    T(clpad_stream_image)
    T(clpad_stream_skip)
    T(clpad_stream_batch)
    F(clpad_error_info, size)
    F(clpad_error_info, status)
    F(clpad_error_info, argument)
    F(clpad_error_info, index)
    F(clpad_error_info, message)
    F(clpad_pad_form, size)
    F(clpad_pad_form, naxes)
    F(clpad_pad_form, axes)
    F(clpad_pad_form, pads_begin)
    F(clpad_pad_form, pads_end)
    F(clpad_pad_form, nmodes)
    F(clpad_pad_form, modes)
    F(clpad_pad_form, mode_flags)
    F(clpad_pad_form, large_pads)
    F(clpad_pad_form, nmultiples)
    F(clpad_pad_form, multiples)
    F(clpad_pad_form, placement)
    F(clpad_pad_form, reserved)
    F(clpad_pad_options, size)
    F(clpad_pad_options, modes)
    F(clpad_pad_options, flags)
    F(clpad_pad_options, side_values)
    F(clpad_pad_options, reserved)
    F(clpad_device_info, size)
    F(clpad_device_info, platform_index)
    F(clpad_device_info, device_index)
    F(clpad_device_info, platform_name)
    F(clpad_device_info, device_name)
    F(clpad_device_info, device_version)
    F(clpad_device_info, type)
    F(clpad_device_info, host_unified_memory)
    F(clpad_device_info, compute_units)
    F(clpad_device_info, global_mem_bytes)
    F(clpad_context_config, size)
    F(clpad_context_config, device)
    F(clpad_context_config, flags)
    F(clpad_context_config, small_call_bytes)
    F(clpad_context_config, nontemporal)
    F(clpad_context_config, exact_fp32)
    F(clpad_context_config, zero_copy)
    F(clpad_context_config, geometry)
    F(clpad_context_config, max_alloc)
    F(clpad_context_config, quirks)
    F(clpad_context_config, kernel_dir)
    F(clpad_context_config, cache_dir)
    F(clpad_context_config, reserved)
    F(clpad_run_info, size)
    F(clpad_run_info, used_opencl)
    F(clpad_run_info, zero_copy)
    F(clpad_run_info, kernel_ns)
    F(clpad_run_info, total_ns)
    F(clpad_run_info, bytes_moved)
    F(clpad_window_result, size)
    F(clpad_window_result, op)
    F(clpad_window_result, naxes)
    F(clpad_window_result, input)
    F(clpad_window_result, extent)
    F(clpad_window_result, stride)
    F(clpad_window_result, output)
    F(clpad_window_result, pads_begin)
    F(clpad_window_result, pads_end)
    F(clpad_image, data)
    F(clpad_image, offset)
    F(clpad_image, height)
    F(clpad_image, width)
    F(clpad_image, channels)
    F(clpad_image, row_stride)
    F(clpad_image, geometry_height)
    F(clpad_image, geometry_width)
    F(clpad_image, planes)
    F(clpad_image, plane_offset)
    F(clpad_image, plane_stride)
    F(clpad_image, separate_planes)
    F(clpad_letterbox_options, size)
    F(clpad_letterbox_options, out_height)
    F(clpad_letterbox_options, out_width)
    F(clpad_letterbox_options, interp)
    F(clpad_letterbox_options, placement)
    F(clpad_letterbox_options, scaleup)
    F(clpad_letterbox_options, pad_mode)
    F(clpad_letterbox_options, pad_value)
    F(clpad_letterbox_options, swap_rb)
    F(clpad_letterbox_options, scale)
    F(clpad_letterbox_options, mean)
    F(clpad_letterbox_options, std)
    F(clpad_letterbox_options, dtype)
    F(clpad_letterbox_options, layout)
    F(clpad_letterbox_options, fit)
    F(clpad_letterbox_options, resize_shorter)
    F(clpad_letterbox_options, stride)
    F(clpad_letterbox_options, divisor)
    F(clpad_letterbox_options, pil_version)
    F(clpad_letterbox_options, input_format)
    F(clpad_letterbox_options, color_matrix)
    F(clpad_letterbox_options, color_range)
    F(clpad_letterbox_transform, size)
    F(clpad_letterbox_transform, scale)
    F(clpad_letterbox_transform, pad_top)
    F(clpad_letterbox_transform, pad_left)
    F(clpad_letterbox_transform, resized_height)
    F(clpad_letterbox_transform, resized_width)
    F(clpad_letterbox_transform, scale_y)
    F(clpad_letterbox_transform, scale_x)
    F(clpad_read_options, size)
    F(clpad_read_options, channels)
    F(clpad_read_options, keep_depth)
    F(clpad_read_options, ignore_orientation)
    F(clpad_read_options, max_pixels)
    F(clpad_read_options, min_height)
    F(clpad_read_options, min_width)
    F(clpad_image_info, size)
    F(clpad_image_info, format)
    F(clpad_image_info, height)
    F(clpad_image_info, width)
    F(clpad_image_info, channels)
    F(clpad_image_info, bit_depth)
    F(clpad_image_info, orientation)
    F(clpad_decoded_image, size)
    F(clpad_decoded_image, data)
    F(clpad_decoded_image, dtype)
    F(clpad_decoded_image, height)
    F(clpad_decoded_image, width)
    F(clpad_decoded_image, channels)
    F(clpad_decoded_image, source_height)
    F(clpad_decoded_image, source_width)
    F(clpad_decoded_image, scale_num)
    F(clpad_decoded_image, orientation)
    F(clpad_decoded_image, format)
    F(clpad_stream_options, size)
    F(clpad_stream_options, batch)
    F(clpad_stream_options, workers)
    F(clpad_stream_options, read)
    F(clpad_stream_options, decode_scale)
    F(clpad_stream_options, on_error)
    F(clpad_stream_options, keep_pixels)
    F(clpad_stream_options, read_fn)
    F(clpad_stream_options, release_fn)
    F(clpad_stream_options, user)
    F(clpad_stream_image, index)
    F(clpad_stream_image, source_height)
    F(clpad_stream_image, source_width)
    F(clpad_stream_image, decoded_height)
    F(clpad_stream_image, decoded_width)
    F(clpad_stream_image, scale_num)
    F(clpad_stream_image, transform)
    F(clpad_stream_skip, index)
    F(clpad_stream_skip, status)
    F(clpad_stream_skip, message)
    F(clpad_stream_batch, size)
    F(clpad_stream_batch, count)
    F(clpad_stream_batch, images)
    F(clpad_stream_batch, skipped_count)
    F(clpad_stream_batch, skipped)
    F(clpad_stream_batch, pixels)
    F(clpad_stream_batch, inputs_done)
    F(clpad_stream_batch, end)
};
#undef T
#undef F

clpad_status clpad_api_constant(const char *name, int64_t *value)
{
    clpad__clear_error();
    if (!name || !value)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "api_constant: %s is NULL",
                           name ? "value" : "name");
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++) {
        if (!strcmp(constants[i].name, name)) {
            *value = constants[i].value;
            return CLPAD_OK;
        }
    }
    return clpad__fail(CLPAD_ERR_PARSE, "api_constant: no constant named '%s'", name);
}

clpad_status clpad_api_layout(const char *type, const char *field, size_t *offset, size_t *size)
{
    clpad__clear_error();
    if (!type || !offset || !size)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "api_layout: %s is NULL",
                           !type ? "type" : !offset ? "offset" : "size");
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        const struct layout *l = &layouts[i];
        if (strcmp(l->type, type) || (field ? !l->field || strcmp(l->field, field) : !!l->field))
            continue;
        *offset = l->offset;
        *size = l->size;
        return CLPAD_OK;
    }
    return field ? clpad__fail(CLPAD_ERR_PARSE, "api_layout: %s has no field '%s'", type, field)
                 : clpad__fail(CLPAD_ERR_PARSE, "api_layout: no struct named '%s'", type);
}
