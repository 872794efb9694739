/*
 * clpad — tensor padding and data movement on OpenCL.
 *
 * This header is the whole public API. The semantics of every operation are
 * stated in docs/spec.md of the repository (cited below by section, e.g.
 * "docs/spec.md, Pad"): OpenVINO Pad-12 (plus wrap), SpaceToBatch-2 and
 * BatchToSpace-2; where those are silent the library follows OpenVINO's
 * reference implementation, and docs/spec.md says so.
 *
 * Conventions used by every function:
 *  - Every call returns a clpad_status; CLPAD_OK is 0, errors are negative.
 *    On error, clpad_last_error() returns a one-line message for the calling
 *    thread that names the offending argument (for example
 *    "pads_end[1] = 4 exceeds the reflect limit D-1 = 3").
 *  - Output shapes and handles are written only on success. Validation comes
 *    before any write, so an invalid call leaves the output buffer untouched;
 *    a device failure after launch may leave it partly written, never
 *    anything outside it. The input is never modified.
 *  - Shapes, pads and blocks are arrays of `rank` signed 64-bit integers, in
 *    elements, outermost axis first (C order). rank is 0..CLPAD_MAX_RANK.
 *  - Tensors are dense and C-contiguous; byte sizes are
 *    product(shape) * clpad_dtype_size(dtype).
 *  - OpenCL arguments (queues, wait lists, events) come last, so calls compose
 *    with the caller's own OpenCL pipeline.
 *
 * Thread safety: pure functions (shapes, the CPU functions, scalar parsing, names)
 * are thread-safe. A clpad_context may be shared by threads: its program cache
 * is guarded by a mutex, and enqueue calls on distinct queues may run
 * concurrently. clpad_context_destroy must not race with other uses.
 */
#ifndef CLPAD_H
#define CLPAD_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CLPAD_STATIC_DEFINE)
#define CLPAD_API
#elif defined(_WIN32)
#ifdef CLPAD_BUILDING
#define CLPAD_API __declspec(dllexport)
#else
#define CLPAD_API __declspec(dllimport)
#endif
#else
#define CLPAD_API __attribute__((visibility("default")))
#endif

/* The version, written here once (the build and the Python package read it
 * from these three lines). */
#define CLPAD_VERSION_MAJOR 0
#define CLPAD_VERSION_MINOR 1
#define CLPAD_VERSION_PATCH 0
#define CLPAD_STRINGIFY_(x) #x
#define CLPAD_STRINGIFY(x) CLPAD_STRINGIFY_(x)
/** "MAJOR.MINOR.PATCH" */
#define CLPAD_VERSION_STRING                                                        \
    CLPAD_STRINGIFY(CLPAD_VERSION_MAJOR)                                            \
    "." CLPAD_STRINGIFY(CLPAD_VERSION_MINOR) "." CLPAD_STRINGIFY(CLPAD_VERSION_PATCH)
/** Encoded as MAJOR*10000 + MINOR*100 + PATCH, comparable with clpad_version(). */
#define CLPAD_VERSION_NUMBER \
    (CLPAD_VERSION_MAJOR * 10000 + CLPAD_VERSION_MINOR * 100 + CLPAD_VERSION_PATCH)

/** Largest tensor rank accepted by every operation. */
#define CLPAD_MAX_RANK 8

/* ------------------------------------------------------------------------- */
/* Status codes                                                              */
/* ------------------------------------------------------------------------- */

/* X(name, value, description) */
#define CLPAD_STATUS_LIST(X)                                                          \
    X(CLPAD_OK, 0, "success")                                                         \
    X(CLPAD_ERR_INVALID_ARGUMENT, -1, "invalid argument")                             \
    X(CLPAD_ERR_INVALID_SHAPE, -2, "invalid shape")                                   \
    X(CLPAD_ERR_INVALID_PADS, -3, "pads, crops or block break a rule of the operation") \
    X(CLPAD_ERR_OVERFLOW, -4, "size arithmetic overflows")                            \
    X(CLPAD_ERR_BUFFER_TOO_SMALL, -5, "buffer too small for the tensor")              \
    X(CLPAD_ERR_UNSUPPORTED, -6, "unsupported dtype or feature")                      \
    X(CLPAD_ERR_OUT_OF_MEMORY, -7, "out of host memory")                              \
    X(CLPAD_ERR_NO_DEVICE, -8, "no OpenCL platform or device available")              \
    X(CLPAD_ERR_DEVICE_NOT_FOUND, -9, "no OpenCL device matches the request")         \
    X(CLPAD_ERR_BUILD_FAILED, -10, "OpenCL program build failed")                     \
    X(CLPAD_ERR_DEVICE_OUT_OF_RESOURCES, -11, "OpenCL device out of resources or memory") \
    X(CLPAD_ERR_OPENCL, -12, "OpenCL call failed")                                    \
    X(CLPAD_ERR_PARSE, -13, "cannot parse value")                                     \
    X(CLPAD_ERR_IO, -14, "cannot read the input file")                                \
    X(CLPAD_ERR_BAD_INPUT, -15, "malformed, corrupt or unsupported input file")       \
    X(CLPAD_ERR_TOO_LARGE, -16, "input larger than the allowed limit")

typedef enum clpad_status {
#define CLPAD_X_ENUM(name, value, text) name = value,
    CLPAD_STATUS_LIST(CLPAD_X_ENUM)
#undef CLPAD_X_ENUM
} clpad_status;

/** "CLPAD_ERR_INVALID_PADS" for CLPAD_ERR_INVALID_PADS; "CLPAD_UNKNOWN_STATUS" otherwise. */
CLPAD_API const char *clpad_status_name(clpad_status status);
/** A short English description of a status ("invalid shape"). Never NULL. */
CLPAD_API const char *clpad_status_string(clpad_status status);
/**
 * The message of the last failed clpad call on the calling thread, naming the
 * offending argument, or "" if none failed yet. Valid until the next clpad call
 * on this thread.
 */
CLPAD_API const char *clpad_last_error(void);
/** The last failed clpad call of the calling thread, with its structure. */
typedef struct clpad_error_info {
    size_t size;          /* sizeof(clpad_error_info): set by the caller */
    clpad_status status;  /* its status; CLPAD_OK when none failed yet */
    /** The argument it names as the offending one ("pads_end", "images",
     *  "tensors", "options->modes", "block_shape", "config"), or "" when
     *  the error is not one argument's (a device failure). */
    char argument[32];
    /** The failing item of that argument: the image, tensor or axis index
     *  (images[3]: 3); -1 when the argument as a whole is at fault. */
    int64_t index;
    const char *message;  /* clpad_last_error() */
} clpad_error_info;

/**
 * Fill *info (its `size` set by the caller; fields past it are left out)
 * with the calling thread's last error, as clpad_last_error() says it, so
 * that a caller can name the file of images[3] without reading the
 * message. Valid until the next clpad call on this thread.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (info NULL, size smaller than the
 * first version's); the thread's last error is left as it was.
 */
CLPAD_API clpad_status clpad_last_error_info(clpad_error_info *info);
/** Name of an OpenCL error code, e.g. "CL_INVALID_WORK_GROUP_SIZE" for -54. */
CLPAD_API const char *clpad_cl_error_name(cl_int err);
/**
 * The clpad status an OpenCL error maps to: CL_SUCCESS -> CLPAD_OK;
 * CL_OUT_OF_RESOURCES and CL_MEM_OBJECT_ALLOCATION_FAILURE ->
 * CLPAD_ERR_DEVICE_OUT_OF_RESOURCES; CL_OUT_OF_HOST_MEMORY -> OUT_OF_MEMORY;
 * CL_BUILD_PROGRAM_FAILURE -> BUILD_FAILED; CL_DEVICE_NOT_FOUND and
 * CL_PLATFORM_NOT_FOUND_KHR (-1001) -> NO_DEVICE; anything else -> CLPAD_ERR_OPENCL.
 */
CLPAD_API clpad_status clpad_status_from_cl(cl_int err);

/** The library's version as "MAJOR.MINOR.PATCH" (may differ from the header's). */
CLPAD_API const char *clpad_version_string(void);
/** The library's version as MAJOR*10000 + MINOR*100 + PATCH. */
CLPAD_API unsigned clpad_version(void);

/**
 * The value of a constant of this API by its C name: an enumerator
 * ("CLPAD_F32", "CLPAD_PAD_REFLECT", "CLPAD_ERR_IO", "CLPAD_CONTEXT_CPU_ONLY")
 * or a numeric macro ("CLPAD_MAX_RANK", "CLPAD_CONFIG_DEFAULT"), for
 * bindings that must not hard-code them (the Python package reads every
 * value it uses this way). Every constant of include/ is listed.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL), CLPAD_ERR_PARSE (no such name).
 */
CLPAD_API clpad_status clpad_api_constant(const char *name, int64_t *value);

/**
 * The layout of a struct of this API by C names: with `field` NULL, *size
 * is sizeof(type) (*offset 0); else the field's offsetof and sizeof (an
 * array's whole size), e.g. ("clpad_pad_options", "flags"). Every struct
 * and field of include/ is listed.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL type, offset or size),
 * CLPAD_ERR_PARSE (no such struct or field).
 */
CLPAD_API clpad_status clpad_api_layout(const char *type, const char *field, size_t *offset,
                                        size_t *size);

/* ------------------------------------------------------------------------- */
/* Element types and pad modes                                               */
/* ------------------------------------------------------------------------- */

/** Element types. Every operation is a pure copy, so only the size matters to
 *  the kernels (1, 2, 4 or 8 bytes); the type matters for parsing pad_value. */
typedef enum clpad_dtype {
    CLPAD_BOOL = 0, /* 1 byte, 0 or 1 */
    CLPAD_I8,
    CLPAD_U8,
    CLPAD_I16,
    CLPAD_U16,
    CLPAD_I32,
    CLPAD_U32,
    CLPAD_I64,
    CLPAD_U64,
    CLPAD_F16,  /* IEEE 754 binary16 */
    CLPAD_BF16, /* bfloat16: the top 16 bits of a binary32 */
    CLPAD_F32,
    CLPAD_F64,
    CLPAD_DTYPE_COUNT
} clpad_dtype;

/** Size of one element in bytes (1, 2, 4 or 8); 0 for an invalid dtype. */
CLPAD_API size_t clpad_dtype_size(clpad_dtype dtype);
/** Lower-case name: "bool", "i8", ..., "f64"; NULL for an invalid dtype. */
CLPAD_API const char *clpad_dtype_name(clpad_dtype dtype);
/** Parse a dtype name ("f32", also numpy-style "float32", "uint8", "bfloat16").
 *  Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL), CLPAD_ERR_PARSE (unknown name). */
CLPAD_API clpad_status clpad_dtype_from_name(const char *name, clpad_dtype *dtype);

/** Pad modes, docs/spec.md, "Pad" (OpenVINO Pad-12 plus wrap). */
typedef enum clpad_pad_mode {
    CLPAD_PAD_CONSTANT = 0, /* pad_value outside the input */
    CLPAD_PAD_EDGE,         /* repeat the edge element */
    CLPAD_PAD_REFLECT,      /* mirror without repeating the edge; pads <= D-1 */
    CLPAD_PAD_SYMMETRIC,    /* mirror repeating the edge; pads <= D */
    CLPAD_PAD_WRAP,         /* periodic (ONNX wrap, numpy wrap, torch circular) */
    CLPAD_PAD_MODE_COUNT
} clpad_pad_mode;

/** "constant", "edge", "reflect", "symmetric", "wrap"; NULL for an invalid mode. */
CLPAD_API const char *clpad_pad_mode_name(clpad_pad_mode mode);
/** Parse a mode name (case-insensitive).
 *  Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL), CLPAD_ERR_PARSE (unknown name). */
CLPAD_API clpad_status clpad_pad_mode_from_name(const char *name, clpad_pad_mode *mode);

/**
 * Parse a scalar in `dtype` exactly and store its bit pattern (little-endian
 * host layout, clpad_dtype_size(dtype) bytes) at `out`.
 * Integers are parsed exactly in their own range (decimal, or 0x hex), so an i64
 * 9007199254740993 stays exact; out-of-range values are an error, not a wrap.
 * Floats accept decimal and hex floats, "inf", "-inf", "nan", "-0.0"; f32 and
 * f64 are correctly rounded from the text (strtof/strtod); f16 and bf16 are
 * rounded to nearest even from the correctly rounded f64. A finite value that
 * rounds to infinity is an error.
 * bool accepts 0, 1, true, false.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL, bad dtype), CLPAD_ERR_PARSE
 * (not a number, trailing characters, out of range for the dtype).
 */
CLPAD_API clpad_status clpad_scalar_parse(clpad_dtype dtype, const char *text, void *out);

/* ------------------------------------------------------------------------- */
/* Pad (docs/spec.md, "Pad": OpenVINO Pad-12 + wrap)                          */
/* ------------------------------------------------------------------------- */

/** Flags of clpad_pad_options. */
enum {
    /** reflect and symmetric take pads beyond D - 1 / D and repeat the
     *  mirror periodically, as numpy.pad does (reflect: period 2(D-1), an
     *  axis of 1 element repeats it; symmetric: period 2D); without it such
     *  pads are CLPAD_ERR_INVALID_PADS (Pad-12's limits). */
    CLPAD_PAD_LARGE_NUMPY = 1u << 0,
};

/**
 * How the Pad functions pad: the mode of each axis and flags. Fill it with
 * clpad_pad_options_init(), then change fields (or, in C, pass
 * CLPAD_PAD_OPTIONS(mode) for one mode on every axis): the library reads
 * `size` first, so that later versions can add fields after `reserved`
 * without breaking callers built against this header.
 */
typedef struct clpad_pad_options {
    size_t size;                          /* sizeof(clpad_pad_options) (set by init) */
    clpad_pad_mode modes[CLPAD_MAX_RANK]; /* pad_mode of each axis, outermost first;
                                             the first `rank` entries are read */
    unsigned flags;                       /* CLPAD_PAD_LARGE_NUMPY, or 0 */
    /* NULL, or one constant per side of each axis (every axis constant):
     * 2 * rank values of the dtype, [before axis 0, after axis 0, before
     * axis 1, ...]. numpy.pad's constant_values=((b0, a0), (b1, a1), ...):
     * an output element in the padding takes the value of the last axis
     * (the innermost) whose pad holds it, as numpy pads axis after axis;
     * pad_value is then not read. */
    const void *side_values;
    uint64_t reserved[3];                 /* must be 0 */
} clpad_pad_options;

/** Every axis `mode`, no flags, size set; returns `options`, which must not
 *  be NULL. */
CLPAD_API clpad_pad_options *clpad_pad_options_init(clpad_pad_options *options,
                                                    clpad_pad_mode mode);

/** Options with every axis `mode` and no flags, for a call's argument:
 *  clpad_pad_cpu(..., CLPAD_PAD_OPTIONS(CLPAD_PAD_REFLECT), ...). C only (a
 *  compound literal); it lives until the end of the enclosing block. */
#define CLPAD_PAD_OPTIONS(mode) clpad_pad_options_init(&(clpad_pad_options){0}, (mode))

/**
 * Output shape of Pad: out[i] = max(pads_begin[i] + shape[i] + pads_end[i], 0).
 * Pure; needs no OpenCL. Validates every rule of docs/spec.md, "Pad", axis i
 * by the mode options->modes[i]:
 *  - rank in 0..8, shape[i] >= 0, non-NULL arrays (may be NULL when rank is 0);
 *  - edge and wrap: shape[i] >= 1 where a pad on that axis is positive;
 *  - reflect: pads_begin[i], pads_end[i] <= shape[i] - 1 (for positive pads);
 *  - symmetric: pads_begin[i], pads_end[i] <= shape[i];
 *  - with CLPAD_PAD_LARGE_NUMPY, no upper limit for reflect and symmetric
 *    (an axis of 0 elements still takes no positive pad in any mode but
 *    constant);
 *  - a broken limit is an error even when negative pads make the output empty;
 *  - the sum and the element count must fit in int64, and so must
 *    shape[i] + pads_end[i] and -pads_begin[i] (the input coordinates of the
 *    output run from -pads_begin[i] to shape[i] + pads_end[i] - 1); with an
 *    axis of 0, the product of the other axes must fit too (in any order).
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (also: options NULL, its size smaller
 * than this version's first fields or non-zero bytes past the fields this
 * library knows, an invalid mode in modes[0..rank-1], an unknown flag,
 * reserved not 0), CLPAD_ERR_INVALID_SHAPE, CLPAD_ERR_INVALID_PADS,
 * CLPAD_ERR_OVERFLOW.
 */
CLPAD_API clpad_status clpad_pad_output_shape(int rank, const int64_t *shape,
                                              const int64_t *pads_begin,
                                              const int64_t *pads_end,
                                              const clpad_pad_options *options,
                                              int64_t *out_shape);

/**
 * Pad on the host (docs/spec.md, "Pad"), in the calling thread: the fast
 * host path, which the test suite holds equal, byte for byte, to the
 * library's plain element-by-element reference. `input` holds
 * product(shape) elements of `dtype`; `output` has room for `output_bytes`
 * bytes and receives product(out_shape) elements. `pad_value` points to one
 * element of `dtype` (see clpad_scalar_parse) and fills the axes whose
 * mode is CLPAD_PAD_CONSTANT; NULL means zero. The input is never modified; input and
 * output must not overlap.
 * Errors: those of clpad_pad_output_shape, CLPAD_ERR_BUFFER_TOO_SMALL,
 * CLPAD_ERR_INVALID_ARGUMENT (NULL input/output with a non-empty tensor).
 */
CLPAD_API clpad_status clpad_pad_cpu(clpad_dtype dtype, int rank, const int64_t *shape,
                                     const void *input, const int64_t *pads_begin,
                                     const int64_t *pads_end, const clpad_pad_options *options,
                                     const void *pad_value, void *output,
                                     size_t output_bytes);

/* ------------------------------------------------------------------------- */
/* Pad: per-axis modes, large pads, framework names, axes, multiples          */
/* (docs/modes.md)                                                          */
/* ------------------------------------------------------------------------- */

/**
 * Parse a pad mode: clpad's names ("constant", "edge", "reflect",
 * "symmetric", "wrap"; case-insensitive) or a framework's name with its
 * prefix, which says whose meaning is meant (docs/modes.md):
 *   cv:CONSTANT cv:REPLICATE cv:REFLECT (= symmetric) cv:REFLECT_101
 *     (= reflect; also cv:REFLECT101, cv:DEFAULT) cv:WRAP  (OpenCV BORDER_*)
 *   torch:constant torch:replicate torch:reflect torch:circular
 *   tf:CONSTANT tf:REFLECT tf:SYMMETRIC   (tf.pad / MirrorPad)
 *   onnx:constant onnx:edge onnx:reflect onnx:wrap   (ONNX Pad-19)
 *   ov:constant ov:edge ov:reflect ov:symmetric      (OpenVINO Pad-12)
 *   np:constant np:edge np:reflect np:symmetric np:wrap   (numpy.pad)
 * Prefixes and names are case-insensitive. `*flags` (may be NULL) receives
 * the clpad_pad_options flags of that framework's meaning:
 * CLPAD_PAD_LARGE_NUMPY for np: and cv: (numpy.pad and copyMakeBorder
 * repeat the mirror for any pad), else 0.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL name or mode), CLPAD_ERR_PARSE
 * (unknown prefix, or a name the framework does not have; the message lists
 * what it has, e.g. "torch has constant, replicate, reflect, circular").
 */
CLPAD_API clpad_status clpad_pad_mode_parse(const char *name, clpad_pad_mode *mode,
                                            unsigned *flags);

/**
 * Parse a pad mode for an operation that pads within Pad-12's limits only
 * (clpad_pad_stack, clpad_letterbox: one mode on every axis), so
 * that every entry point takes the same names with the same meaning. The
 * names of clpad_pad_mode_parse are accepted where their meaning is what
 * the operation does (clpad's names; cv:CONSTANT, cv:REPLICATE, cv:WRAP,
 * np:constant, np:edge, np:wrap, and every torch:, tf:, onnx: and ov:
 * name). A name whose framework mirrors again beyond the limits
 * (np:reflect, np:symmetric, cv:REFLECT, cv:REFLECT_101, cv:REFLECT101,
 * cv:DEFAULT) is refused rather than padded with another meaning; the
 * message names clpad's mode that gives the same result within the limits,
 * e.g. "pad_mode 'np:reflect' is reflect as NumPy (numpy.pad) means it,
 * which mirrors again beyond the limit shape - 1; this operation mirrors
 * once (Pad-12's limits): give 'reflect', the same result within them".
 * Errors: those of clpad_pad_mode_parse; CLPAD_ERR_UNSUPPORTED (such a name).
 */
CLPAD_API clpad_status clpad_pad_mode_parse_within_limits(const char *name,
                                                          clpad_pad_mode *mode);

/**
 * Parse a large-pads policy, the one rule of the CLI's --large-pads and
 * Python's large_pads=: "numpy" (reflect and symmetric take any pad and
 * repeat the mirror: *flags = CLPAD_PAD_LARGE_NUMPY) or "error" (Pad-12's
 * limits, also for np: and cv: mode names: *flags = 0). Case-insensitive,
 * as every clpad name.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL name or flags), CLPAD_ERR_PARSE
 * (another name: "large pads 'x': expected numpy or error").
 */
CLPAD_API clpad_status clpad_pad_large_pads_parse(const char *name, unsigned *flags);

/**
 * ONNX Pad-18's `axes` form: pads given for `naxes` listed axes only, the
 * other axes unpadded. axes[k] is in [-rank, rank) (negative counts from
 * the end, as ONNX); axes_pads_begin[k] / axes_pads_end[k] are that axis's
 * pads (any sign). Writes pads_begin[rank] / pads_end[rank], zeros on the
 * unlisted axes. naxes may be 0 (all zeros).
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (rank not in 0..CLPAD_MAX_RANK, naxes
 * not in 0..rank, NULL arrays, an axis out of range: "axes[1] = 3 is out of
 * range for rank 3 (-3..2)", an axis listed twice: "axes[2] = -1 repeats
 * axis 2 (axes[0])").
 */
CLPAD_API clpad_status clpad_pad_axes_expand(int rank, int naxes, const int64_t *axes,
                                             const int64_t *axes_pads_begin,
                                             const int64_t *axes_pads_end,
                                             int64_t *pads_begin, int64_t *pads_end);

/** Where added elements go around the data: clpad_pad_to_multiple(), and
 *  letterbox and pad-and-stack slots (clpad_letterbox.h). */
typedef enum clpad_placement {
    CLPAD_PLACE_END = 0,      /* the data first (top-left), every added element after it */
    CLPAD_PLACE_TOP_LEFT = 0, /* the same, as images say it */
    CLPAD_PLACE_CENTER = 1,   /* half before, half after; the odd one after (bottom/right) */
    CLPAD_PLACEMENT_COUNT = 2
} clpad_placement;

/**
 * Pad to a multiple: grow pads_begin / pads_end (in and out, `rank` values
 * each, the pads already asked for) so that each axis's output size
 * max(b + D + e, 0) becomes the next multiple of multiples[i] (itself if it
 * is one; 0 stays 0). multiples[i] = 1 leaves the axis alone. The added
 * elements go after the data (CLPAD_PLACE_END) or are split, the odd one
 * after (CLPAD_PLACE_CENTER: floor(extra/2) before). Explicit pads and a
 * multiple add up: the multiple applies to the size after the given pads.
 * The pads are written only on success; the mode's limits are checked by
 * the pad call itself.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (rank, NULL, bad placement, a multiple
 * < 1: "multiples[1] = 0 must be >= 1"), CLPAD_ERR_INVALID_SHAPE
 * (shape[i] < 0), CLPAD_ERR_OVERFLOW.
 */
CLPAD_API clpad_status clpad_pad_to_multiple(int rank, const int64_t *shape,
                                             const int64_t *multiples,
                                             clpad_placement placement, int64_t *pads_begin,
                                             int64_t *pads_end);

/**
 * A Pad in the forms the command line and the Python package take
 * (docs/modes.md): pads for some axes or every axis, one mode or one per
 * axis (clpad_pad_mode_parse's, with their flags), a large-pads policy, and
 * sizes rounded up to multiples. clpad_pad_form_resolve composes it into
 * the pads and options of a Pad call, so that every front end composes the
 * forms the same way. Fill it with clpad_pad_form_init(), then set fields.
 */
typedef struct clpad_pad_form {
    size_t size;                  /* sizeof(clpad_pad_form) (set by init) */
    int naxes;                    /* -1 (init): every axis is named, in order; else
                                     the number of axes `axes` names */
    const int64_t *axes;          /* ONNX Pad-18's axes: naxes entries in -rank..rank-1 */
    const int64_t *pads_begin;    /* one per named axis (any sign); NULL: 0 */
    const int64_t *pads_end;      /* the same after the data */
    int nmodes;                   /* 0: constant; 1: that mode on every axis; else one
                                     per named axis (the others take modes[0]) */
    const clpad_pad_mode *modes;
    unsigned mode_flags;          /* the OR of clpad_pad_mode_parse's flags of the modes */
    int large_pads;               /* CLPAD_CONFIG_DEFAULT (init): as mode_flags say; else
                                     the flags of clpad_pad_large_pads_parse, which
                                     replace their CLPAD_PAD_LARGE_NUMPY */
    int nmultiples;               /* 0: none; 1: every named axis; else one per named axis */
    const int64_t *multiples;     /* each >= 1; applied after the pads */
    clpad_placement placement;    /* of the multiples' added elements (init: END) */
    uint64_t reserved[4];         /* must be 0 */
} clpad_pad_form;

/** No axes listed (every axis), no pads, constant mode, no multiples, size
 *  set. `form` must not be NULL. */
CLPAD_API void clpad_pad_form_init(clpad_pad_form *form);

/**
 * Compose a form for a tensor of `rank` axes and `shape`: pads_begin[rank]
 * and pads_end[rank] (the named axes' pads in place, 0 elsewhere, then grown
 * to the multiples: clpad_pad_axes_expand, clpad_pad_to_multiple) and
 * *options (every axis modes[0], the named axes their own mode, the flags).
 * The Pad's own rules are checked by the pad call. Written only on success.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT, each naming the form's field in
 * clpad_last_error_info's argument ("modes": a count other than 0, 1 or
 * the named axes'; "multiples": likewise, or a value < 1, its index given;
 * "axes": out of range or repeated, its index given; "large_pads", "form"),
 * CLPAD_ERR_INVALID_SHAPE, CLPAD_ERR_OVERFLOW.
 */
CLPAD_API clpad_status clpad_pad_form_resolve(int rank, const int64_t *shape,
                                              const clpad_pad_form *form,
                                              int64_t *pads_begin, int64_t *pads_end,
                                              clpad_pad_options *options);

/* ------------------------------------------------------------------------- */
/* SpaceToBatch / BatchToSpace (docs/spec.md)                               */
/* ------------------------------------------------------------------------- */

/**
 * Output shape of SpaceToBatch-2 (docs/spec.md, "SpaceToBatch"): data [N, D1, ..., D(r-1)], r >= 2;
 * out = [N * prod(block_shape), P1/B1, ..., P(r-1)/B(r-1)] where
 * Pi = Di + pads_begin[i] + pads_end[i]. Rules: block_shape[i] >= 1,
 * block_shape[0] == 1, pads >= 0, pads on axis 0 are 0, Bi divides Pi.
 * Pure; needs no OpenCL.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT, CLPAD_ERR_INVALID_SHAPE,
 * CLPAD_ERR_INVALID_PADS, CLPAD_ERR_OVERFLOW.
 */
CLPAD_API clpad_status clpad_space_to_batch_output_shape(int rank, const int64_t *shape,
                                                         const int64_t *block_shape,
                                                         const int64_t *pads_begin,
                                                         const int64_t *pads_end,
                                                         int64_t *out_shape);

/**
 * Output shape of BatchToSpace-2 (docs/spec.md, "BatchToSpace"): data [N', D1, ...], r >= 2;
 * out = [N' / prod(block_shape), D1*B1 - crops_begin[1] - crops_end[1], ...].
 * Rules: block_shape[i] >= 1, block_shape[0] == 1, crops >= 0, crops on axis 0
 * are 0, N' divisible by prod(block_shape), crops_begin + crops_end <= Di*Bi.
 * Errors: as clpad_space_to_batch_output_shape.
 */
CLPAD_API clpad_status clpad_batch_to_space_output_shape(int rank, const int64_t *shape,
                                                         const int64_t *block_shape,
                                                         const int64_t *crops_begin,
                                                         const int64_t *crops_end,
                                                         int64_t *out_shape);

/** SpaceToBatch on the host (docs/spec.md, "SpaceToBatch"), in the calling
 *  thread: the fast host path, held equal to the plain reference as
 *  clpad_pad_cpu is. Buffers as clpad_pad_cpu; padding elements are zero
 *  bytes. */
CLPAD_API clpad_status clpad_space_to_batch_cpu(clpad_dtype dtype, int rank,
                                                const int64_t *shape, const void *input,
                                                const int64_t *block_shape,
                                                const int64_t *pads_begin,
                                                const int64_t *pads_end, void *output,
                                                size_t output_bytes);

/** BatchToSpace on the host (docs/spec.md, "BatchToSpace"), as
 *  clpad_space_to_batch_cpu. Buffers as clpad_pad_cpu. */
CLPAD_API clpad_status clpad_batch_to_space_cpu(clpad_dtype dtype, int rank,
                                                const int64_t *shape, const void *input,
                                                const int64_t *block_shape,
                                                const int64_t *crops_begin,
                                                const int64_t *crops_end, void *output,
                                                size_t output_bytes);

/* ------------------------------------------------------------------------- */
/* Devices and contexts                                                      */
/* ------------------------------------------------------------------------- */

/** One OpenCL device as seen by clpad_devices(). The caller sets `size`
 *  (clpad_device_info_init), so that later versions can add fields at the
 *  end without breaking callers built against this header. */
typedef struct clpad_device_info {
    size_t size;               /* sizeof(clpad_device_info) (set by init) */
    unsigned platform_index;   /* index among clGetPlatformIDs */
    unsigned device_index;     /* index among that platform's devices */
    char platform_name[128];
    char device_name[128];
    char device_version[128];  /* CL_DEVICE_VERSION */
    cl_device_type type;       /* CL_DEVICE_TYPE_GPU, _ACCELERATOR, _CPU, ... */
    int host_unified_memory;   /* CL_DEVICE_HOST_UNIFIED_MEMORY */
    unsigned compute_units;
    uint64_t global_mem_bytes;
} clpad_device_info;

/** Zero *info and set its size. `info` must not be NULL. */
CLPAD_API void clpad_device_info_init(clpad_device_info *info);

/**
 * List the OpenCL devices of every platform. Writes at most `capacity` entries
 * to `infos` (may be NULL when capacity is 0) and the total number to `*count`.
 * infos[0].size (clpad_device_info_init) is the size of every entry: the
 * entries lie that many bytes apart, and each receives the fields that fit
 * in it, with its size set. No platform at all is not an error: *count is 0.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (count NULL; infos NULL with a capacity;
 * infos[0].size smaller than this version's first fields), CLPAD_ERR_OPENCL.
 */
CLPAD_API clpad_status clpad_devices(clpad_device_info *infos, size_t capacity,
                                     size_t *count);

/** Opaque context: one OpenCL device, its context and an in-order queue, and
 *  a cache of compiled programs. */
typedef struct clpad_context clpad_context;

/** Flags of clpad_context_config (the library prints nothing unless asked:
 *  CLPAD_CONTEXT_VERBOSE). Bit 1 is unused. */
enum {
    CLPAD_CONTEXT_DEFAULT = 0,
    /** Fail with CLPAD_ERR_NO_DEVICE instead of falling back to the CPU path. */
    CLPAD_CONTEXT_NO_FALLBACK = 1u << 0,
    /** Do not touch OpenCL at all: a context that runs the CPU path. */
    CLPAD_CONTEXT_CPU_ONLY = 1u << 2,
    /** Say on stderr when the context falls back to the CPU path
     *  (a library prints nothing by default; clpad_context_is_fallback()
     *  tells the caller either way), and, once per process, when the
     *  on-disk program cache is not used because its directory or an entry
     *  is not the user's alone (README, "Program cache on disk"). */
    CLPAD_CONTEXT_VERBOSE = 1u << 3,
    /** Host-pointer calls always run the OpenCL kernel: no small-call CPU
     *  path (see clpad_pad()). */
    CLPAD_CONTEXT_DEVICE_ONLY = 1u << 4,
};

/** A setting of clpad_context_config left to the environment, then to the
 *  device (clpad_context_config_init sets every such field to it). */
#define CLPAD_CONFIG_DEFAULT (-1)

/** clpad_context_config.nontemporal: streaming stores of large outputs
 *  (pad's interior stretches, space/batch's multi-unit elements, and the
 *  whole-cache-line f32 NCHW rows of letterbox's band form on CPU devices). */
enum {
    CLPAD_NONTEMPORAL_OFF = 0,    /**< never */
    CLPAD_NONTEMPORAL_ALWAYS = 1, /**< every output that can take them, any size (tests) */
};
/** clpad_context_config.geometry: the style of launch geometry. */
enum {
    CLPAD_GEOMETRY_CPU = 1, /**< a work-item per contiguous stretch of a row */
    CLPAD_GEOMETRY_GPU = 2, /**< wide work-groups along a row */
};

/**
 * How clpad_context_create makes a context. Fill it with
 * clpad_context_config_init(), then change fields: the library reads `size`
 * first, so that later versions can add fields after `reserved`.
 *
 * Every field left at its init value (NULL, 0 or CLPAD_CONFIG_DEFAULT) takes
 * its environment variable when that is set (in parentheses; the table in
 * docs/devices.md, "Environment"), else the default; a field the caller sets
 * wins over the environment.
 */
typedef struct clpad_context_config {
    size_t size;             /* sizeof(clpad_context_config) (set by init) */
    /** "P:D" (platform and device index, as clpad_devices lists them) or a
     *  case-insensitive substring of the device or platform name ($CLPAD_DEVICE);
     *  NULL or "": the first GPU, else accelerator, else CPU device. */
    const char *device;
    unsigned flags;          /* CLPAD_CONTEXT_* */
    /** Host-pointer calls moving at most this many bytes (read + written) run
     *  the CPU path, on CPU devices with host-unified memory
     *  ($CLPAD_SMALL_CALL_BYTES); 0: never; CLPAD_CONFIG_DEFAULT: the
     *  device table's (16 MiB / compute units). */
    int64_t small_call_bytes;
    /** CLPAD_NONTEMPORAL_OFF or _ALWAYS ($CLPAD_NONTEMPORAL=off|always);
     *  CLPAD_CONFIG_DEFAULT: outputs of a quarter of the cache and more, on
     *  CPU devices. */
    int nontemporal;
    /** 0: treat the device's single precision as inexact, so that letterbox
     *  normalises by table ($CLPAD_EXACT_FP32=0); CLPAD_CONFIG_DEFAULT: as
     *  the device reports it. */
    int exact_fp32;
    /** 0: host-pointer calls always copy ($CLPAD_ZERO_COPY=0);
     *  CLPAD_CONFIG_DEFAULT: in place on host-unified memory. */
    int zero_copy;
    /** CLPAD_GEOMETRY_CPU or _GPU ($CLPAD_GEOMETRY=cpu|gpu);
     *  CLPAD_CONFIG_DEFAULT: by device type. */
    int geometry;
    /** A lower limit in bytes on the device's largest buffer, so that the
     *  paths that split large outputs run on small tensors ($CLPAD_MAX_ALLOC);
     *  0: the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE. */
    uint64_t max_alloc;
    /** "off" (no quirk) or "-NAME[,-NAME...]" (every matching quirk but
     *  those; clpad_context_quirks) ($CLPAD_QUIRKS); NULL: every quirk that
     *  matches the device. */
    const char *quirks;
    /** A directory whose coords.h, common.cl and <family>.cl replace the
     *  embedded kernels, for kernel development ($CLPAD_KERNEL_DIR); NULL:
     *  the embedded ones. */
    const char *kernel_dir;
    /** The on-disk program cache's directory, or "off" ($CLPAD_CACHE_DIR);
     *  NULL: $XDG_CACHE_HOME/clpad, else $HOME/.cache/clpad (README,
     *  "Program cache on disk"). */
    const char *cache_dir;
    uint64_t reserved[4];    /* must be 0 */
} clpad_context_config;

/** The defaults: every field left to the environment and the device, no
 *  flags, size set. `config` must not be NULL. */
CLPAD_API void clpad_context_config_init(clpad_context_config *config);

/**
 * Create a context as `config` says (NULL: clpad_context_config_init's
 * defaults). The device: config->device, else $CLPAD_DEVICE, else the first
 * GPU, else the first accelerator, else the first CPU device. The queue is
 * in-order with profiling enabled.
 * With no OpenCL platform or device at all (CL_PLATFORM_NOT_FOUND_KHR
 * included) and no device named, the context falls back to the CPU path
 * (clpad_context_is_fallback() returns 1; with CLPAD_CONTEXT_VERBOSE it also
 * says so on stderr), unless the flags have CLPAD_CONTEXT_NO_FALLBACK (then
 * CLPAD_ERR_NO_DEVICE).
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (ctx NULL; config's size smaller than
 * the first version's, a non-zero byte past the fields this library knows,
 * reserved not 0, a flag bit that is not a CLPAD_CONTEXT_* value, a field
 * out of its range: each named in the message), CLPAD_ERR_NO_DEVICE,
 * CLPAD_ERR_DEVICE_NOT_FOUND (a device that matches nothing),
 * CLPAD_ERR_OPENCL, CLPAD_ERR_OUT_OF_MEMORY.
 */
CLPAD_API clpad_status clpad_context_create(const clpad_context_config *config,
                                            clpad_context **ctx);

/**
 * Wrap an OpenCL context and queue the caller owns (both are retained, and
 * released by clpad_context_destroy). The device is the queue's device.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT, CLPAD_ERR_OPENCL, CLPAD_ERR_OUT_OF_MEMORY.
 */
CLPAD_API clpad_status clpad_context_wrap(cl_context cl_ctx, cl_command_queue queue,
                                          clpad_context **ctx);

/** Release a context, its programs and its references. NULL is a no-op. */
CLPAD_API void clpad_context_destroy(clpad_context *ctx);

/** 1 when the context runs the CPU path (no OpenCL device), else 0. */
CLPAD_API int clpad_context_is_fallback(const clpad_context *ctx);
/** The chosen device's name, or "CPU reference (no OpenCL)" for a fallback. */
CLPAD_API const char *clpad_context_device_name(const clpad_context *ctx);
/** The chosen device's platform name ("" for a fallback). */
CLPAD_API const char *clpad_context_platform_name(const clpad_context *ctx);
/**
 * The device quirks clpad works around on this context's device, as a
 * comma-separated list of short names ("" when none, and for a fallback), for
 * example "map-blocking,no-mem-fence" on Mesa rusticl. Each is a known bug of
 * one OpenCL implementation (platform, device and driver version), turned into
 * a launch setting or build option; docs/devices.md lists them. Setting
 * CLPAD_QUIRKS=off in the environment before creating the context applies
 * none, CLPAD_QUIRKS=-NAME[,-NAME...] all but those named (for tests). The string lives as long as the context.
 */
CLPAD_API const char *clpad_context_quirks(const clpad_context *ctx);
/**
 * The row of clpad's device table that sets this context's launch numbers
 * (docs/devices.md, "Device table"): "pocl-cpu", "intel-cpu", "rusticl-cpu",
 * "oclgrind", "cpu", "nvidia-gpu", "amd-gpu", "intel-gpu" or "gpu"; "" for a
 * fallback context or NULL. The string is static.
 */
CLPAD_API const char *clpad_context_tuning(const clpad_context *ctx);
/** The OpenCL objects behind the context (NULL for a fallback); not retained. */
CLPAD_API cl_context clpad_context_cl_context(const clpad_context *ctx);
CLPAD_API cl_command_queue clpad_context_queue(const clpad_context *ctx);
CLPAD_API cl_device_id clpad_context_device(const clpad_context *ctx);

/**
 * Compile every program clpad may need on this context now, so that the first
 * operation does not pay for compilation: every operation's common variants
 * (clpad_operation_name lists the operations; the pad programs of one mode,
 * space/batch, pad-and-stack and letterbox for every element size); the
 * programs of mixed per-axis modes and of numpy's large pads build on their
 * first use. Programs are cached per context, kernel family and build
 * options. On PoCL each kernel is also compiled for every local size it is
 * launched with, at the first such launch (and kept in PoCL's own cache,
 * $POCL_CACHE_DIR), so there the first operations still compile.
 * Errors: CLPAD_ERR_BUILD_FAILED (see clpad_context_build_log), CLPAD_ERR_OPENCL.
 */
CLPAD_API clpad_status clpad_context_warmup(clpad_context *ctx);

/**
 * The operations this library has, by index (0, 1, ...): "pad",
 * "space_to_batch", "batch_to_space", "letterbox", "pad_stack"; NULL past
 * the last. Tools that cover every operation (the bench, the tests) iterate
 * it, so that a new operation cannot be left out silently
 * (docs/architecture.md). The strings are static.
 */
CLPAD_API const char *clpad_operation_name(size_t index);

/** The log of the last failed program build on this context, with the build
 *  options and the device name; "" if no build failed. The text is the
 *  calling thread's own copy, valid until its next call of this function. */
CLPAD_API const char *clpad_context_build_log(const clpad_context *ctx);

/** Kernel launches (clEnqueueNDRangeKernel calls) clpad has made on this
 *  context so far, by every operation and thread; 0 for a fallback context
 *  or NULL. The difference across a call is that call's launch count: one
 *  for a whole letterbox or pad-and-stack batch. */
CLPAD_API uint64_t clpad_context_launches(const clpad_context *ctx);

/** What a host-pointer call did, for reporting. The caller sets `size`
 *  (clpad_run_info_init); the library writes the fields that fit in it, so
 *  that later versions can add fields at the end without breaking callers
 *  built against this header. */
typedef struct clpad_run_info {
    size_t size;           /* sizeof(clpad_run_info) (set by init) */
    int used_opencl;       /* 1: ran the OpenCL kernel; 0: the CPU path (a fallback
                              context, or a small call on a CPU device) */
    int zero_copy;         /* 1: input and output were used in place (unified memory) */
    uint64_t kernel_ns;    /* device time of the operation's commands (profiling events) */
    uint64_t total_ns;     /* wall time of the whole call, host side */
    uint64_t bytes_moved;  /* bytes read + bytes written by the operation */
} clpad_run_info;

/** Zero *info and set its size. `info` must not be NULL. A function that
 *  takes a run info refuses one whose size is smaller than this version's
 *  first fields (CLPAD_ERR_INVALID_ARGUMENT, argument "info"). */
CLPAD_API void clpad_run_info_init(clpad_run_info *info);

/* ------------------------------------------------------------------------- */
/* Pad on OpenCL                                                             */
/* ------------------------------------------------------------------------- */

/**
 * Enqueue Pad (docs/spec.md, "Pad") on `queue` (NULL: the context's queue). `input` holds
 * product(shape) elements of `dtype` starting at byte `input_offset`; `output`
 * receives product(out_shape) elements at byte `output_offset`; both buffers'
 * CL_MEM_SIZE are checked first. Asynchronous: waits on `wait_list`, and
 * returns in `*event` (if not NULL) an event that completes when the output
 * is written. Nothing outside the output range is written. A call whose
 * padded axes share one mode runs that mode's kernel; mixed modes run a
 * variant that reads the outer axes' modes at run time.
 * Errors: those of clpad_pad_output_shape, CLPAD_ERR_BUFFER_TOO_SMALL,
 * CLPAD_ERR_NO_DEVICE (fallback context), CLPAD_ERR_BUILD_FAILED,
 * CLPAD_ERR_DEVICE_OUT_OF_RESOURCES, CLPAD_ERR_OPENCL.
 */
CLPAD_API clpad_status clpad_enqueue_pad(clpad_context *ctx, clpad_dtype dtype, int rank,
                                         const int64_t *shape, cl_mem input,
                                         size_t input_offset, const int64_t *pads_begin,
                                         const int64_t *pads_end,
                                         const clpad_pad_options *options,
                                         const void *pad_value, cl_mem output,
                                         size_t output_offset, cl_command_queue queue,
                                         cl_uint num_events, const cl_event *wait_list,
                                         cl_event *event);

/**
 * Pad host memory on the context's device and wait for the result. Arguments
 * as clpad_pad_cpu. On a device with host-unified memory (PoCL, integrated
 * GPUs) the host buffers are used in place (CL_MEM_USE_HOST_PTR), else copied.
 * On a fallback context it runs the CPU path. `info` may be NULL.
 *
 * Small calls on a CPU device: an OpenCL device that is the host's own CPU
 * (CL_DEVICE_TYPE_CPU with host-unified memory: PoCL, Intel's CPU runtime)
 * pays a fixed cost per call (buffer wrapping, the driver's thread wake-ups:
 * 20-100 us) that is larger than the whole copy of a small tensor. There, a
 * call that moves at most the context's small-call threshold (bytes read +
 * written; by default 8 MiB x 2 / compute units, below the crossover that
 * bench/README.md's design measurements record; $CLPAD_SMALL_CALL_BYTES
 * sets it, 0 turns it off) runs
 * the CPU path instead, with the same result byte for byte; info->used_opencl
 * then reads 0. A GPU or accelerator never does, nor a context created with
 * CLPAD_CONTEXT_DEVICE_ONLY.
 *
 * The CPU path of this function (small calls, fallback contexts) splits
 * outputs of 128 KiB or more into pieces that clpad's worker threads and the
 * calling thread pad at once ($CLPAD_THREADS: how many threads, 1 for none;
 * by default the CPUs the process may use, at most 16). The workers are
 * started on first use and shared by the process; a call made while the
 * workers serve another thread's call runs alone. clpad_pad_cpu() always
 * runs in the calling thread only.
 *
 * Outputs larger than the device's largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)
 * are written in pieces (the input must fit in one buffer).
 * Errors: those of clpad_enqueue_pad and clpad_pad_cpu;
 * CLPAD_ERR_DEVICE_OUT_OF_RESOURCES for an input beyond the largest buffer.
 */
CLPAD_API clpad_status clpad_pad(clpad_context *ctx, clpad_dtype dtype, int rank,
                                 const int64_t *shape, const void *input,
                                 const int64_t *pads_begin, const int64_t *pads_end,
                                 const clpad_pad_options *options, const void *pad_value,
                                 void *output, size_t output_bytes, clpad_run_info *info);

/** The modes of clpad_pad_numpy: numpy.pad's edge statistics "maximum",
 *  "minimum", "mean" and "median", its "reflect" and "symmetric" with
 *  reflect_type="odd", and "linear_ramp". */
typedef enum clpad_numpy_mode {
    CLPAD_NUMPY_MAXIMUM = 0,
    CLPAD_NUMPY_MINIMUM,
    CLPAD_NUMPY_MEAN,
    CLPAD_NUMPY_MEDIAN,
    CLPAD_NUMPY_REFLECT_ODD,   /* numpy.pad(x, w, "reflect", reflect_type="odd") */
    CLPAD_NUMPY_SYMMETRIC_ODD, /* numpy.pad(x, w, "symmetric", reflect_type="odd") */
    CLPAD_NUMPY_LINEAR_RAMP,   /* numpy.pad(x, w, "linear_ramp"): end values 0
                                  (clpad_pad_linear_ramp takes others) */
    CLPAD_NUMPY_MODE_COUNT
} clpad_numpy_mode;

/**
 * Pad with a statistic of the edge, as numpy.pad(x, pad_width, mode,
 * stat_length=...) does (the semantics are numpy.pad's): axis by axis,
 * outermost first, every pad of an axis is filled, row by row along that
 * axis, with the maximum, minimum, mean or median of the first
 * stat_begin[a] (before the data) or last stat_end[a] (after it) elements
 * of the row's data; a row of axis a spans the axes before a as padded so
 * far and the axes after a unpadded, so corners take the statistic of
 * padded values, as in numpy.
 *
 * shape, pads_begin, pads_end: `rank` (0..CLPAD_MAX_RANK) entries, pads
 * >= 0; out_shape = shape + pads_begin + pads_end. stat_begin / stat_end:
 * `rank` entries each, a length >= 1, or < 0 for the whole axis (numpy's
 * None); a length beyond the axis is the whole axis; NULL: every axis
 * whole. dtype: the integer types (I8..U64), F32 or F64.
 *
 * Results equal numpy's (numpy 1.x and 2.x): integer means and medians are
 * computed in float64 and rounded half to even, then converted (saturating
 * on the one value past the type's range, where numpy's conversion is
 * undefined); float means sum in the array's type in numpy's order
 * (pairwise, 8 accumulators, blocks of 128, when the row's axis is the
 * innermost axis of extent > 1 of the slab, else one element after the
 * other), then divide by the count; a median is the middle element, or the
 * mean of the two middle elements computed the same way. A NaN in a row's
 * slab gives a NaN (max/min: that NaN; mean/median: the quiet NaN of the
 * type). Device kernels compute in the same order, with float64 for the
 * integer types' means and medians (the device must support doubles).
 *
 * CLPAD_NUMPY_REFLECT_ODD / CLPAD_NUMPY_SYMMETRIC_ODD: numpy.pad(x,
 * pad_width, "reflect" / "symmetric", reflect_type="odd"), pads of any
 * size, on the same rows: numpy's loop of chunks (before, then after; each
 * at most the data's period long) mirrored about the current outermost
 * element e as 2 * e - v in the dtype (integers wrap modulo 2^bits, as
 * numpy's arithmetic; floats in their own precision); an axis of one
 * element repeats it (docs/spec.md states the loop). A NaN result has
 * x86-64's bits on every device (NVIDIA's GPUs would give 0x7fffffff): the
 * first NaN operand with its quiet bit set, else (inf - inf) the default
 * NaN, sign set. stat_begin / stat_end are not read.
 *
 * CLPAD_NUMPY_LINEAR_RAMP: numpy.pad(x, pad_width, "linear_ramp") with
 * end_values 0; clpad_pad_linear_ramp states the arithmetic.
 *
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL context, arrays, buffers; a
 * stat length of 0; mode out of range), CLPAD_ERR_INVALID_SHAPE,
 * CLPAD_ERR_INVALID_PADS (negative pads; pads on an axis of 0 elements,
 * numpy's "can't extend empty axis"), CLPAD_ERR_UNSUPPORTED (bool, f16,
 * bf16), CLPAD_ERR_OVERFLOW, CLPAD_ERR_BUFFER_TOO_SMALL, and the device's
 * errors (those of clpad_pad).
 */
CLPAD_API clpad_status clpad_pad_numpy(clpad_context *ctx, clpad_dtype dtype, int rank,
                                       const int64_t *shape, const void *input,
                                       const int64_t *pads_begin, const int64_t *pads_end,
                                       clpad_numpy_mode mode, const int64_t *stat_begin,
                                       const int64_t *stat_end, void *output,
                                       size_t output_bytes, clpad_run_info *info);

/**
 * numpy.pad(x, pad_width, "linear_ramp", end_values=...) (the semantics are
 * numpy.pad's and np.linspace's): clpad_pad_numpy's mode
 * CLPAD_NUMPY_LINEAR_RAMP with end values end_begin[a] / end_end[a] before
 * / after axis a (`rank` entries each; NULL: 0 on every side, numpy's
 * default). Axis by axis, on clpad_pad_numpy's rows, each side of width w
 * is np.linspace(end, edge, w, endpoint=False), from the outer end to the
 * element next to the data, where edge is the row's outermost data element:
 * in the computation type R (float64; float32 when `float32` is nonzero,
 * for F32 arrays only: numpy's type for a float32 array whose end values
 * are Python numbers given per axis), step i is R(i) * ((edge - end) / w),
 * or (R(i) / w) * (edge - end) on a side where that step is 0 on any row of
 * the axis (numpy's rule for denormal steps); plus end (all in R, end and
 * edge converted to R first). Then the dtype: floats rounded to nearest
 * even (a NaN: edge's, else end's, quiet bit set, else the default NaN,
 * sign set, as x86-64 computes them, on every device); integers floor()ed,
 * then converted saturating (NaN: 0), which is
 * numpy's result wherever numpy's own conversion is defined (end values
 * within the dtype's range; 64-bit integers within +-2^53).
 * Errors: those of clpad_pad_numpy; CLPAD_ERR_INVALID_ARGUMENT for float32
 * with a dtype other than F32; CLPAD_ERR_UNSUPPORTED for a float64 ramp on
 * a device without doubles.
 */
CLPAD_API clpad_status clpad_pad_linear_ramp(clpad_context *ctx, clpad_dtype dtype, int rank,
                                             const int64_t *shape, const void *input,
                                             const int64_t *pads_begin, const int64_t *pads_end,
                                             const double *end_begin, const double *end_end,
                                             int float32, void *output, size_t output_bytes,
                                             clpad_run_info *info);

/** clpad_pad_linear_ramp on the host, in the calling thread (the plain
 *  reference). Errors: those of clpad_pad_linear_ramp but the device's. */
CLPAD_API clpad_status clpad_pad_linear_ramp_cpu(clpad_dtype dtype, int rank,
                                                 const int64_t *shape, const void *input,
                                                 const int64_t *pads_begin,
                                                 const int64_t *pads_end,
                                                 const double *end_begin, const double *end_end,
                                                 int float32, void *output,
                                                 size_t output_bytes);

/**
 * clpad_pad_numpy on the host, in the calling thread (the library's plain
 * reference, the oracle its kernels are tested against; slow). Errors:
 * those of clpad_pad_numpy but the device's.
 */
CLPAD_API clpad_status clpad_pad_numpy_cpu(clpad_dtype dtype, int rank, const int64_t *shape,
                                           const void *input, const int64_t *pads_begin,
                                           const int64_t *pads_end, clpad_numpy_mode mode,
                                           const int64_t *stat_begin, const int64_t *stat_end,
                                           void *output, size_t output_bytes);

/**
 * clpad_pad_numpy on device buffers: `input` at byte input_offset, `output`
 * at output_offset (both multiples of the element size), enqueued on
 * `queue` (NULL: the context's) after wait_list; *event (if not NULL)
 * completes when the output is written. Runs Pad's constant kernel to place
 * the input, then one launch per padded axis, in order.
 * Errors: those of clpad_pad_numpy and of clpad_enqueue_pad
 * (CLPAD_ERR_NO_DEVICE on a context without OpenCL).
 */
CLPAD_API clpad_status clpad_enqueue_pad_numpy(
    clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape, cl_mem input,
    size_t input_offset, const int64_t *pads_begin, const int64_t *pads_end,
    clpad_numpy_mode mode, const int64_t *stat_begin, const int64_t *stat_end, cl_mem output,
    size_t output_offset, cl_command_queue queue, cl_uint num_events, const cl_event *wait_list,
    cl_event *event);

/* ------------------------------------------------------------------------- */
/* SpaceToBatch / BatchToSpace on OpenCL                                     */
/* ------------------------------------------------------------------------- */

/** Enqueue SpaceToBatch (docs/spec.md, "SpaceToBatch"). Buffers, offsets and events as
 *  clpad_enqueue_pad; the padding zeros are written by the same pass. */
CLPAD_API clpad_status clpad_enqueue_space_to_batch(
    clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape, cl_mem input,
    size_t input_offset, const int64_t *block_shape, const int64_t *pads_begin,
    const int64_t *pads_end, cl_mem output, size_t output_offset, cl_command_queue queue,
    cl_uint num_events, const cl_event *wait_list, cl_event *event);

/** Enqueue BatchToSpace (docs/spec.md, "BatchToSpace"). As clpad_enqueue_space_to_batch. */
CLPAD_API clpad_status clpad_enqueue_batch_to_space(
    clpad_context *ctx, clpad_dtype dtype, int rank, const int64_t *shape, cl_mem input,
    size_t input_offset, const int64_t *block_shape, const int64_t *crops_begin,
    const int64_t *crops_end, cl_mem output, size_t output_offset, cl_command_queue queue,
    cl_uint num_events, const cl_event *wait_list, cl_event *event);

/** SpaceToBatch on host memory via the context's device (or the CPU path on a
 *  fallback context, and for small calls on a CPU device). As clpad_pad, but
 *  an input or output beyond the device's largest buffer is refused
 *  (CLPAD_ERR_DEVICE_OUT_OF_RESOURCES; use the CPU function). */
CLPAD_API clpad_status clpad_space_to_batch(clpad_context *ctx, clpad_dtype dtype, int rank,
                                            const int64_t *shape, const void *input,
                                            const int64_t *block_shape,
                                            const int64_t *pads_begin,
                                            const int64_t *pads_end, void *output,
                                            size_t output_bytes, clpad_run_info *info);

/** BatchToSpace on host memory via the context's device. As clpad_pad. */
CLPAD_API clpad_status clpad_batch_to_space(clpad_context *ctx, clpad_dtype dtype, int rank,
                                            const int64_t *shape, const void *input,
                                            const int64_t *block_shape,
                                            const int64_t *crops_begin,
                                            const int64_t *crops_end, void *output,
                                            size_t output_bytes, clpad_run_info *info);

#ifdef __cplusplus
}
#endif

/* Window geometry (docs/spec.md, "Window geometry"): convolution, deconvolution
 * and pooling padding formulas. */
#include "clpad_window.h"
/* Batched preprocessing (docs/letterbox.md): letterbox and pad-and-stack. */
#include "clpad_letterbox.h"

#endif /* CLPAD_H */
