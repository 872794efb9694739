/*
 * clpad — batched preprocessing: letterbox and pad-and-stack.
 *
 * Included by clpad.h; not meant to be included on its own. The semantics
 * are stated exactly in docs/letterbox.md of the repository ("Letterbox",
 * "Pad-and-stack"); every path (OpenCL kernel, CPU reference) follows them
 * bit for bit. Conventions are those of clpad.h: a clpad_status per call, a
 * message naming the offending argument (here also the offending image or
 * tensor by its index, "images[3]: ..."), outputs written only on success,
 * inputs never modified, OpenCL arguments last.
 */
#ifndef CLPAD_LETTERBOX_H
#define CLPAD_LETTERBOX_H

#ifndef CLPAD_H
#error "include clpad.h, which includes clpad_letterbox.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* Names of the options                                                      */
/* ------------------------------------------------------------------------- */

/** Interpolation of the resize (docs/letterbox.md, "Resize"). */
typedef enum clpad_interp {
    CLPAD_INTERP_BILINEAR = 0, /* OpenCV INTER_LINEAR for 8-bit images, bit for bit */
    CLPAD_INTERP_NEAREST,      /* OpenCV INTER_NEAREST: floor(x * src/dst) */
    CLPAD_INTERP_PIL_BILINEAR, /* Pillow's Image.resize(BILINEAR), antialiased, bit for bit
                                  (torchvision's Resize on PIL images) */
    CLPAD_INTERP_PIL_BICUBIC,  /* Pillow's Image.resize(BICUBIC), bit for bit */
    CLPAD_INTERP_PIL_LANCZOS,  /* Pillow's Image.resize(LANCZOS) */
    CLPAD_INTERP_AREA,         /* OpenCV INTER_AREA for 8-bit images, bit for bit (its
                                  integer-ratio and general reductions; enlarging: its
                                  linear form with INTER_AREA's coefficients) */
    CLPAD_INTERP_BICUBIC,      /* OpenCV INTER_CUBIC for 8-bit images: its own arithmetic
                                  (not Intel IPP's, which wheels built with IPP run by
                                  default: within 1 of it) */
    CLPAD_INTERP_COUNT
} clpad_interp;

/* Where an image goes in its output slot (docs/letterbox.md, "Placement"):
 * clpad_placement of clpad.h, CLPAD_PLACE_CENTER (the odd pixel of padding to
 * the bottom/right) or CLPAD_PLACE_TOP_LEFT. */

/** How an image fills its slot (docs/letterbox.md, "Fit"). */
typedef enum clpad_fit {
    CLPAD_FIT_CONTAIN = 0, /* keep the aspect, the whole image in the slot, the rest border:
                              the letterbox (Ultralytics' LetterBox) */
    CLPAD_FIT_COVER,       /* keep the aspect, cover the slot, crop the centre (torchvision's
                              CenterCrop rounding); with resize_shorter: torchvision's
                              Resize(S) then CenterCrop */
    CLPAD_FIT_STRETCH,     /* resize to the slot exactly, each axis by its own ratio
                              (Ultralytics' scaleFill, cv2.dnn's DNN_PMODE_NULL) */
    CLPAD_FIT_COUNT
} clpad_fit;

/** "contain", "cover", "stretch"; NULL for an invalid value. */
CLPAD_API const char *clpad_fit_name(clpad_fit fit);
/** Parse "contain" (also "letterbox"), "cover" (also "crop") or "stretch"
 *  (also "fill"), case-insensitive. Errors: as clpad_interp_from_name. */
CLPAD_API clpad_status clpad_fit_from_name(const char *name, clpad_fit *fit);

/** Layout of a batch of images. */
typedef enum clpad_layout {
    CLPAD_LAYOUT_NCHW = 0, /* [N, C, H, W]: channels first */
    CLPAD_LAYOUT_NHWC,     /* [N, H, W, C]: channels last */
    CLPAD_LAYOUT_COUNT
} clpad_layout;

/** The pixel format of a letterbox's images (docs/letterbox.md, "YUV frames"). */
typedef enum clpad_input_format {
    CLPAD_INPUT_PACKED = 0, /* HWC u8 samples, `channels` of them (1, 3 or 4) */
    CLPAD_INPUT_NV12,       /* Y plane, then one plane of interleaved U, V at half the size */
    CLPAD_INPUT_NV21,       /* as NV12 with V before U */
    CLPAD_INPUT_I420,       /* Y plane, U plane, V plane (the chroma ones at half the size) */
    CLPAD_INPUT_YV12,       /* as I420 with the V plane before the U plane */
    CLPAD_INPUT_FORMAT_COUNT
} clpad_input_format;

/** The YCbCr matrix of YUV frames: BT.601 (OpenCV's, SD video, JPEG), BT.709
 *  (HD video), BT.2020 (UHD video). */
typedef enum clpad_color_matrix {
    CLPAD_COLOR_BT601 = 0,
    CLPAD_COLOR_BT709,
    CLPAD_COLOR_BT2020,
    CLPAD_COLOR_MATRIX_COUNT
} clpad_color_matrix;

/** The sample range of YUV frames: limited (Y 16..235, U and V 16..240:
 *  video) or full (0..255: JPEG). */
typedef enum clpad_color_range {
    CLPAD_RANGE_LIMITED = 0,
    CLPAD_RANGE_FULL,
    CLPAD_COLOR_RANGE_COUNT
} clpad_color_range;

/** "packed", "nv12", "nv21", "i420", "yv12"; NULL for an invalid value. */
CLPAD_API const char *clpad_input_format_name(clpad_input_format format);
/** Parse "packed" (also "rgb"), "nv12", "nv21", "i420" (also "yuv420p") or
 *  "yv12", case-insensitive. Errors: as clpad_interp_from_name. */
CLPAD_API clpad_status clpad_input_format_from_name(const char *name,
                                                    clpad_input_format *format);
/** "bt601", "bt709", "bt2020"; NULL for an invalid value. */
CLPAD_API const char *clpad_color_matrix_name(clpad_color_matrix matrix);
/** Parse "bt601" (also "bt.601"), "bt709" (also "bt.709") or "bt2020" (also
 *  "bt.2020"), case-insensitive. Errors: as clpad_interp_from_name. */
CLPAD_API clpad_status clpad_color_matrix_from_name(const char *name,
                                                    clpad_color_matrix *matrix);
/** "limited", "full"; NULL for an invalid value. */
CLPAD_API const char *clpad_color_range_name(clpad_color_range range);
/** Parse "limited" (also "tv", "mpeg") or "full" (also "pc", "jpeg"),
 *  case-insensitive. Errors: as clpad_interp_from_name. */
CLPAD_API clpad_status clpad_color_range_from_name(const char *name, clpad_color_range *range);

/** "bilinear", "nearest", "pil-bilinear", "pil-bicubic", "pil-lanczos",
 *  "area", "bicubic"; NULL for an invalid value. */
CLPAD_API const char *clpad_interp_name(clpad_interp interp);
/** Parse "bilinear" (also "linear"), "nearest", "pil-bilinear",
 *  "pil-bicubic" or "pil-lanczos" (also with "_"), "area" or "bicubic"
 *  (also "cubic"), case-insensitive.
 *  Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL), CLPAD_ERR_PARSE (unknown name). */
CLPAD_API clpad_status clpad_interp_from_name(const char *name, clpad_interp *interp);
/** "center", "top-left"; NULL for an invalid value. */
CLPAD_API const char *clpad_placement_name(clpad_placement placement);
/** Parse "center" (also "centre") or "top-left" (also "top_left" and "end"),
 *  case-insensitive. Errors: as clpad_interp_from_name. */
CLPAD_API clpad_status clpad_placement_from_name(const char *name, clpad_placement *placement);
/** "NCHW", "NHWC"; NULL for an invalid value. */
CLPAD_API const char *clpad_layout_name(clpad_layout layout);
/** Parse "NCHW" or "NHWC", case-insensitive. Errors: as clpad_interp_from_name. */
CLPAD_API clpad_status clpad_layout_from_name(const char *name, clpad_layout *layout);

/* ------------------------------------------------------------------------- */
/* Letterbox (docs/letterbox.md, "Letterbox")                                */
/* ------------------------------------------------------------------------- */

/** Largest number of channels of an image. */
#define CLPAD_LETTERBOX_MAX_CHANNELS 4

/**
 * One input image: `height` rows of `width` pixels of `channels` u8 samples
 * (HWC, interleaved), rows `row_stride` bytes apart (0 means
 * width * channels, a dense image). channels is 1, 3 or 4, the same for every
 * image of a batch. Host-pointer calls read the image at `data` (and ignore
 * `offset`); clpad_enqueue_letterbox reads it at byte `offset` of its input
 * buffer (and ignores `data`).
 *
 * `geometry_height` x `geometry_width` (0 x 0: the pixel size, the usual
 * case) is the size the letterbox geometry is computed from when it differs
 * from the pixel size: an image decoded at a reduced scale (a JPEG's DCT
 * scaling, clpad_read_options.min_height) stands for its full-size source.
 * The ratio r, the resized size, the placement and the transform are then
 * those of a geometry_height x geometry_width image (docs/letterbox.md, "Size
 * and placement"), and the resize maps the height x width pixels onto that
 * resized size (the resize's arithmetic with the pixel size as its source).
 * Both are 0, or both >= 1.
 */
typedef struct clpad_image {
    const void *data;
    size_t offset;
    int64_t height, width, channels;
    int64_t row_stride;
    int64_t geometry_height, geometry_width;
    /* YUV 4:2:0 frames (clpad_letterbox_options.input_format other than
     * CLPAD_INPUT_PACKED; docs/letterbox.md, "YUV frames"): data / offset and
     * row_stride (0: width) are the Y plane's, channels is 0 or 3, height and
     * width even. Plane 1 is the chroma plane of NV12 (UV) and NV21 (VU), the
     * first of the two planar ones (I420: U, YV12: V); plane 2 the second
     * (I420: V, YV12: U; unused by NV12 and NV21). separate_planes 0: one
     * buffer, plane 1 right after the Y plane's `height` rows, plane 2 right
     * after plane 1's height / 2 rows (the (H * 3 / 2, W) layout); 1: plane k
     * at planes[k - 1] (host calls) or at byte plane_offset[k - 1] of the
     * input buffer (clpad_enqueue_letterbox), where a decoder's surfaces lie.
     * plane_stride[k - 1]: its row stride in bytes (0: NV12 / NV21 the Y
     * plane's row stride, I420 / YV12 half of it). */
    const void *planes[2];
    size_t plane_offset[2];
    int64_t plane_stride[2];
    int separate_planes;
} clpad_image;

/**
 * Options of a letterbox call. Fill them with clpad_letterbox_options_init()
 * and change what differs: a zeroed struct is not a valid set of options.
 * The library reads `size` (set by init): a smaller one than this version's
 * struct is refused, a larger one (a newer caller) accepted when the bytes
 * past this version's fields are zero, so that later versions can add
 * fields at the end.
 * Arrays indexed by channel use their first `channels` entries: pad_value in
 * the images' channel order (the border is part of the image, as
 * cv2.copyMakeBorder before any swap), mean and std in OUTPUT channel order
 * (after swap_rb, as cv2.dnn.blobFromImage's mean with swapRB).
 */
typedef struct clpad_letterbox_options {
    size_t size;                   /* sizeof(clpad_letterbox_options) (set by init) */
    int64_t out_height, out_width; /* H_out, W_out of every image's slot, >= 1 */
    clpad_interp interp;           /* default CLPAD_INTERP_BILINEAR */
    clpad_placement placement;     /* default CLPAD_PLACE_CENTER */
    int scaleup;                   /* 1 (default): enlarge small images; 0: never (r <= 1) */
    clpad_pad_mode pad_mode;       /* the border, relative to the resized image;
                                      default CLPAD_PAD_CONSTANT */
    uint8_t pad_value[CLPAD_LETTERBOX_MAX_CHANNELS]; /* constant border, u8 per
                                      image channel, normalised like the pixels;
                                      default 114 */
    int swap_rb;                   /* 1: swap channels 0 and 2 (RGB <-> BGR, RGBA <->
                                      BGRA); no effect on one channel; default 0 */
    float scale;                   /* default 1 */
    float mean[CLPAD_LETTERBOX_MAX_CHANNELS]; /* default 0 */
    float std[CLPAD_LETTERBOX_MAX_CHANNELS];  /* default 1; finite and non-zero */
    clpad_dtype dtype;             /* CLPAD_U8, CLPAD_F16 or CLPAD_F32 (default) */
    clpad_layout layout;           /* default CLPAD_LAYOUT_NCHW */
    /* The preprocess settings (docs/letterbox.md, "Fit" and "Values"); the
     * defaults keep the letterbox as it is. */
    clpad_fit fit;                 /* default CLPAD_FIT_CONTAIN */
    int64_t resize_shorter;        /* 0 (default), or S in 1 .. 2^31 - 1 with CLPAD_FIT_COVER:
                                      the shorter side resized to S, the longer to
                                      int(S * long / short) (torchvision's Resize(S)), then
                                      the slot cropped from the centre (CenterCrop) */
    int64_t stride;                /* 0 (default), or s >= 1 with CLPAD_FIT_CONTAIN:
                                      Ultralytics' auto (rect) mode, the slot shrunk to
                                      resized + (out - resized) mod s per axis, the
                                      largest over the batch */
    float divisor;                 /* default 1; finite and non-zero: a sample v becomes
                                      ((v * scale) / divisor - mean[c]) / std[c]
                                      (torchvision's ToTensor + Normalize: scale 1,
                                      divisor 255) */
    int pil_version;               /* 13 (default) or 12: the Pillow release whose
                                      Image.resize the pil-* kinds reproduce; they
                                      differ in which of the two passes runs first
                                      for some sizes (docs/letterbox.md, 1.2) */
    /* The images' pixel format (docs/letterbox.md, "YUV frames"): each YUV
     * source pixel is converted to RGB (u8) as the resize reads it, in the
     * same launch; the batch then has 3 channels (BGR with swap_rb). */
    clpad_input_format input_format; /* default CLPAD_INPUT_PACKED (HWC u8 samples) */
    clpad_color_matrix color_matrix; /* default CLPAD_COLOR_BT601 */
    clpad_color_range color_range;   /* default CLPAD_RANGE_LIMITED */
} clpad_letterbox_options;

/**
 * Where one image went: its resize ratio `scale` (r of docs/letterbox.md),
 * its placement and its size in the slot. pad_top and pad_left are negative
 * where the fit crops (cover: the resized image starts above or left of the
 * slot). scale_y and scale_x are the per-axis ratios a point maps back by:
 * x_src = (x - pad_left) / scale_x, y_src = (y - pad_top) / scale_y. For
 * contain and cover both are `scale` (Ultralytics' scale_boxes); for
 * stretch H_out / h and W_out / w; with resize_shorter resized_height / h
 * and resized_width / w (h x w: the image's geometry size).
 * Calls that write transforms take an array whose transforms[0].size
 * (clpad_letterbox_transform_init) is the size of every entry: the entries
 * lie that many bytes apart and each receives the fields that fit in it,
 * with its size set (as clpad_devices writes device infos).
 */
typedef struct clpad_letterbox_transform {
    size_t size;   /* sizeof(clpad_letterbox_transform) (set by init) */
    double scale;
    int64_t pad_top, pad_left;
    int64_t resized_height, resized_width;
    double scale_y, scale_x;
} clpad_letterbox_transform;

/**
 * The defaults, which are those of Ultralytics' LetterBox followed by the
 * usual YOLO input step (u8 -> f32, NCHW) with scale 1: a slot of
 * out_height x out_width, bilinear, centred, scale-up on, constant border
 * 114 on every channel, no channel swap, scale 1, mean 0, std 1, f32, NCHW,
 * fit contain, no resize_shorter, no stride, divisor 1; `size` is
 * sizeof(clpad_letterbox_options). `opts` NULL is a no-op.
 */
CLPAD_API void clpad_letterbox_options_init(clpad_letterbox_options *opts, int64_t out_height,
                                            int64_t out_width);

/** Zero *transform and set its size; NULL is a no-op. For an array, filling
 *  its first entry is enough (its size is every entry's). */
CLPAD_API void clpad_letterbox_transform_init(clpad_letterbox_transform *transform);

/**
 * Validate a letterbox call and compute its output shape and transforms.
 * Pure; needs no OpenCL; reads no pixel. `images` (n of them; may be NULL
 * when n is 0) as for clpad_letterbox_cpu; their `data` is not looked at.
 * out_shape receives [N, C, H_out, W_out] (NCHW) or [N, H_out, W_out, C]
 * (NHWC), with C the images' channels (or 3 when n is 0) and H_out x W_out
 * the slot (with a stride: the batch's shrunk slot); `transforms` (may be
 * NULL) receives one entry per image.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL opts or out_shape, opts->size
 * below this version's struct or non-zero bytes past it, transforms[0].size
 * below this version's struct (n >= 1), an option out
 * of range: dtype not u8/f16/f32, std[c] or divisor zero or not finite,
 * scale or mean not finite, an unknown enum value, resize_shorter without
 * fit cover or out of range, stride without fit contain or negative), CLPAD_ERR_INVALID_SHAPE (an image of
 * zero or negative size, channels not 1, 3 or 4 or not those of images[0],
 * row_stride < width * channels; out_height or out_width < 1),
 * CLPAD_ERR_INVALID_PADS (reflect or symmetric borders beyond their limit
 * for an image: reflect needs each pad <= resized size - 1, symmetric
 * <= resized size, as Pad does), CLPAD_ERR_OVERFLOW (sizes beyond int64 or
 * size_t), CLPAD_ERR_UNSUPPORTED (an image with more than 2^31 - 1 rows or
 * bytes per row). YUV frames (input_format other than CLPAD_INPUT_PACKED):
 * CLPAD_ERR_INVALID_SHAPE for an odd or smaller than 2 width or height,
 * channels other than 0 or 3, a row or plane stride below its row's bytes
 * (or a default plane stride of half an odd row_stride),
 * CLPAD_ERR_INVALID_ARGUMENT for a NULL plane of a host call with
 * separate_planes, CLPAD_ERR_UNSUPPORTED for a pil-*, area or bicubic interpolation. The
 * message names the image by its index.
 */
CLPAD_API clpad_status clpad_letterbox_plan(const clpad_image *images, size_t n,
                                            const clpad_letterbox_options *opts,
                                            int64_t out_shape[4],
                                            clpad_letterbox_transform *transforms);

/**
 * Letterbox a batch of u8 images on the host: the CPU reference path
 * (docs/letterbox.md). For every image i: keep-aspect resize to
 * round(w * r) x round(h * r), r = min(H_out / h, W_out / w) (min(r, 1)
 * without scale-up), OpenCV's INTER_LINEAR fixed-point arithmetic (or
 * the options' interp: INTER_NEAREST, INTER_AREA, INTER_CUBIC, Pillow's
 * resize; docs/letterbox.md, "Resize"); placement in its H_out x W_out
 * slot; the border filled by
 * `pad_mode` relative to the resized image; each sample v of output channel
 * c becomes (v * scale - mean[c]) / std[c] in single precision, stored as
 * the dtype (f16: round to nearest even; u8: round to nearest even,
 * saturated, NaN as 0); the batch is written as one tensor of the layout.
 * `output` has room for `output_bytes` bytes (product(out_shape) elements
 * of the dtype); `transforms` (may be NULL) receives each image's. Nothing
 * is written unless the call succeeds.
 * Errors: those of clpad_letterbox_plan, CLPAD_ERR_INVALID_ARGUMENT (an
 * image's data NULL, output NULL for a non-empty batch),
 * CLPAD_ERR_BUFFER_TOO_SMALL, CLPAD_ERR_OUT_OF_MEMORY.
 */
CLPAD_API clpad_status clpad_letterbox_cpu(const clpad_image *images, size_t n,
                                           const clpad_letterbox_options *opts, void *output,
                                           size_t output_bytes,
                                           clpad_letterbox_transform *transforms);

/**
 * Letterbox a batch of host images on the context's device, one kernel
 * launch for the whole batch, and wait for the result: identical, byte for
 * byte, to clpad_letterbox_cpu. A batch whose output, gathered rows or
 * tables exceed the device's largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)
 * runs as several launches, the images in order, as many per launch as fit
 * (docs/letterbox.md, "One launch per batch"; clpad_context_launches()
 * counts them). The rows of the images that the resize reads
 * are gathered into one buffer (zero-copy where the device shares host
 * memory), which the calling thread keeps for its next call (up to 256 MiB;
 * freed when the thread exits). On a fallback context, and for small calls
 * on a CPU device (see clpad_pad), it runs the CPU path on clpad's worker
 * threads. `info` may be NULL; info->bytes_moved counts every image's bytes
 * and the output's.
 * Errors: those of clpad_letterbox_cpu, CLPAD_ERR_BUILD_FAILED,
 * CLPAD_ERR_DEVICE_OUT_OF_RESOURCES (also for one image that does not fit
 * in the device's largest buffer by itself: use clpad_letterbox_cpu),
 * CLPAD_ERR_OPENCL.
 */
CLPAD_API clpad_status clpad_letterbox(clpad_context *ctx, const clpad_image *images, size_t n,
                                       const clpad_letterbox_options *opts, void *output,
                                       size_t output_bytes,
                                       clpad_letterbox_transform *transforms,
                                       clpad_run_info *info);

/**
 * Enqueue a letterbox of images that lie in one device buffer: image i at
 * byte images[i].offset of `input` (each must lie inside it; a YUV frame's
 * chroma right after its Y plane, or at plane_offset with separate_planes); the output
 * tensor at byte `output_offset` of `output` (a multiple of the dtype's
 * size). One kernel launch on `queue` (NULL: the context's queue) after
 * `wait_list`; `*event` (if not NULL) completes when the output is written.
 * The per-image tables the kernel reads are uploaded by the same call.
 * `transforms` (may be NULL) is filled on the host before the call returns.
 * Errors: those of clpad_letterbox_plan, CLPAD_ERR_BUFFER_TOO_SMALL (an image
 * or the output outside its buffer, named), CLPAD_ERR_NO_DEVICE (fallback
 * context), CLPAD_ERR_UNSUPPORTED (a pil-*, area or bicubic interpolation on a device whose
 * kernel loops end early: docs/devices.md, quirk loop-limit),
 * CLPAD_ERR_BUILD_FAILED, CLPAD_ERR_DEVICE_OUT_OF_RESOURCES, CLPAD_ERR_OPENCL.
 */
CLPAD_API clpad_status clpad_enqueue_letterbox(clpad_context *ctx, const clpad_image *images,
                                               size_t n, const clpad_letterbox_options *opts,
                                               cl_mem input, cl_mem output, size_t output_offset,
                                               clpad_letterbox_transform *transforms,
                                               cl_command_queue queue, cl_uint num_events,
                                               const cl_event *wait_list, cl_event *event);

/* ------------------------------------------------------------------------- */
/* Pad-and-stack (docs/letterbox.md, "Pad-and-stack")                        */
/* ------------------------------------------------------------------------- */

/**
 * Plan of pad-and-stack: N tensors of one rank (0..7) whose shapes are the
 * rows of `shapes` (n x rank, C order: shapes[i * rank + k]) go into one
 * output [N, S_0, ..., S_(rank-1)], where S is `shape` or, when `shape` is
 * NULL, the largest size of each axis over the tensors. Tensor i is Pad-ed
 * (docs/spec.md, "Pad": pad_mode, negative pads crop) to S with
 *  - CLPAD_PLACE_TOP_LEFT: pads_begin 0, pads_end S_k - D_k;
 *  - CLPAD_PLACE_CENTER: pads_begin floor((S_k - D_k) / 2), pads_end the rest.
 * out_shape receives rank + 1 sizes; pads_begin and pads_end (each may be
 * NULL) receive n x rank pads. Pure; needs no OpenCL.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL arrays, rank out of 0..7, unknown
 * enum), CLPAD_ERR_INVALID_SHAPE (a negative size), CLPAD_ERR_INVALID_PADS
 * (a pad beyond the mode's limit for a tensor, as Pad), CLPAD_ERR_OVERFLOW.
 * The message names the tensor by its index.
 */
CLPAD_API clpad_status clpad_pad_stack_plan(int rank, size_t n, const int64_t *shapes,
                                            const int64_t *shape, clpad_pad_mode mode,
                                            clpad_placement placement, int64_t *out_shape,
                                            int64_t *pads_begin, int64_t *pads_end);

/**
 * Pad-and-stack on the host (the CPU reference path): inputs[i] holds the
 * product(shapes[i]) elements of `dtype` of tensor i (dense, C order; may be
 * NULL for an empty tensor). `options` (clpad_pad_options, as Pad's, e.g.
 * CLPAD_PAD_OPTIONS(CLPAD_PAD_CONSTANT)): options->modes[0] is the mode, and
 * every axis's must be the same (pad-and-stack pads every axis with one
 * mode); flags must be 0 (its mirrors stay within Pad-12's limits).
 * `pad_value` (one element of dtype, NULL: zero) is used by
 * CLPAD_PAD_CONSTANT on every side, unless options->side_values (mode
 * constant) holds 2 * rank values of the dtype, [before axis 0, after axis 0,
 * before axis 1, ...]: numpy.pad's constant_values=((b0, a0), (b1, a1), ...)
 * for each tensor, as clpad_pad_options documents it: an element in a
 * tensor's padding takes the value of the last (innermost) axis whose pad
 * holds it; pad_value is then not read. Output: the tensor of
 * clpad_pad_stack_plan, slice i equal to clpad_pad_cpu of tensor i with its
 * pads and these options, bit for bit.
 * Errors: those of clpad_pad_stack_plan, CLPAD_ERR_INVALID_ARGUMENT (NULL
 * input of a non-empty tensor, NULL output; options NULL, its size, reserved
 * words or modes as clpad_pad_options requires, side_values with a mode
 * other than constant), CLPAD_ERR_BUFFER_TOO_SMALL, CLPAD_ERR_UNSUPPORTED
 * (dtype, modes that differ between axes, CLPAD_PAD_LARGE_NUMPY).
 */
CLPAD_API clpad_status clpad_pad_stack_cpu(clpad_dtype dtype, int rank, size_t n,
                                           const int64_t *shapes, const void *const *inputs,
                                           const int64_t *shape,
                                           const clpad_pad_options *options,
                                           const void *pad_value, clpad_placement placement,
                                           void *output, size_t output_bytes);

/**
 * Pad-and-stack host tensors on the context's device: the tensors are
 * gathered into one buffer (kept by the calling thread for its next call, up
 * to 256 MiB) and moved by one kernel launch; the result is identical to
 * clpad_pad_stack_cpu. A batch whose inputs, output or descriptors exceed
 * the device's largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) runs as several
 * launches, the tensors in order, as many per launch as fit. On a fallback
 * context, and for small calls on a CPU device (see clpad_pad), it runs the
 * CPU path. `info` may be NULL.
 * Errors: those of clpad_pad_stack_cpu, CLPAD_ERR_BUILD_FAILED,
 * CLPAD_ERR_DEVICE_OUT_OF_RESOURCES (also for one tensor that does not fit
 * in the device's largest buffer by itself: use clpad_pad_stack_cpu),
 * CLPAD_ERR_OPENCL.
 */
CLPAD_API clpad_status clpad_pad_stack(clpad_context *ctx, clpad_dtype dtype, int rank, size_t n,
                                       const int64_t *shapes, const void *const *inputs,
                                       const int64_t *shape,
                                       const clpad_pad_options *options,
                                       const void *pad_value, clpad_placement placement,
                                       void *output, size_t output_bytes, clpad_run_info *info);

/**
 * Enqueue pad-and-stack of tensors that lie in one device buffer: tensor i
 * at byte input_offsets[i] of `input` (a multiple of the element size; each
 * must lie inside the buffer). Output at byte `output_offset` of `output`.
 * `options` and `pad_value` as clpad_pad_stack_cpu (per-side constants
 * included). One kernel launch (none for an empty output); queue, wait list
 * and event as clpad_enqueue_pad.
 * Errors: those of clpad_pad_stack_plan and clpad_pad_stack_cpu's options,
 * CLPAD_ERR_BUFFER_TOO_SMALL,
 * CLPAD_ERR_NO_DEVICE, CLPAD_ERR_BUILD_FAILED,
 * CLPAD_ERR_DEVICE_OUT_OF_RESOURCES, CLPAD_ERR_OPENCL.
 */
CLPAD_API clpad_status clpad_enqueue_pad_stack(
    clpad_context *ctx, clpad_dtype dtype, int rank, size_t n, const int64_t *shapes,
    cl_mem input, const size_t *input_offsets, const int64_t *shape,
    const clpad_pad_options *options, const void *pad_value, clpad_placement placement,
    cl_mem output, size_t output_offset, cl_command_queue queue, cl_uint num_events,
    const cl_event *wait_list, cl_event *event);

#ifdef __cplusplus
}
#endif

#endif /* CLPAD_LETTERBOX_H */
