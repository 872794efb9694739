/*
 * clpad — from image files to letterboxed batches: path lists, presets and
 * the streaming pipeline (decoder threads, one letterbox per batch).
 *
 *   #include <clpad_stream.h>   (includes clpad_image.h and clpad.h)
 *
 * docs/letterbox.md of the repository ("From files to batches") states the
 * rules: how arguments expand into files, the order of the images, what
 * happens to a file that cannot be read, decode scaling, memory. The CLI's
 * `clpad letterbox` and Python's clpad.letterbox_files are clients of these
 * functions. Errors: a clpad_status and a one-line clpad_last_error() that
 * names the argument or file.
 */
#ifndef CLPAD_STREAM_H
#define CLPAD_STREAM_H

#include "clpad_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* Path lists                                                                */
/* ------------------------------------------------------------------------- */

/** An ordered list of file paths (opaque). */
typedef struct clpad_path_list clpad_path_list;

/**
 * Expand `n` arguments, in order, into a list of files:
 *  - an existing file (or a symbolic link to one): itself, whatever its
 *    name's extension;
 *  - a directory: every image file below it, recursively, sorted by path
 *    (byte order); image files are those whose name ends in .png, .jpg,
 *    .jpeg, .jpe, .bmp, .pgm, .ppm or .pnm (any case); entries whose name
 *    starts with "." are left out; symbolic links are followed, and a link
 *    back to a directory being walked is an error (a loop), as is a
 *    directory reached a second time in one walk (through a link to it:
 *    each directory is walked once, so that links cannot make the walk
 *    exponential);
 *  - "@FILE": the paths listed in FILE, one per line (blank lines and lines
 *    starting with "#" ignored; a "\r" before the newline, and a UTF-8 byte
 *    order mark before the first line, dropped); a
 *    relative path is relative to FILE's directory; each line is expanded
 *    as an argument is (a file, a directory or a pattern: the line's own
 *    *, ? and [ only, FILE's directory matched as its name), but "@" has
 *    no meaning there;
 *  - a pattern with *, ? or [ that is not an existing file: glob(3), the
 *    matches sorted by path (byte order); a matching directory is expanded
 *    as above, a matching file is kept if it is an image file; a directory
 *    the pattern has to read that cannot be read is an error naming it.
 * Duplicates are kept. `flags`: 0, or CLPAD_PATHS_KEEP_MISSING (below).
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL arguments, unknown flags),
 * CLPAD_ERR_IO (a file or directory that does not exist or cannot be read,
 * a pattern no file matches, a directory or pattern with no image file, a
 * loop, a directory reached twice; the message names the argument), CLPAD_ERR_OUT_OF_MEMORY.
 */
CLPAD_API clpad_status clpad_path_list_expand(const char *const *args, size_t n,
                                              unsigned flags, clpad_path_list **out);
/** clpad_path_list_expand flag: an argument or list line that names nothing
 *  (no such file, or a path through a file: ENOENT, ENOTDIR; a dangling
 *  symbolic link) and is not a pattern is kept as a path instead of being
 *  an error, so that reading it fails later: a letterbox stream with
 *  on_error CLPAD_ON_ERROR_SKIP then leaves it out and reports it (the
 *  CLI's and Python's `--on-error skip` / `on_error="skip"` expand so). A
 *  pattern that matches nothing, or a directory without image files, is
 *  still an error. */
#define CLPAD_PATHS_KEEP_MISSING 1u
/** Number of paths (0 for NULL). */
CLPAD_API size_t clpad_path_list_count(const clpad_path_list *list);
/** The paths, as an array of clpad_path_list_count entries, valid until the
 *  list is freed (NULL for NULL). */
CLPAD_API const char *const *clpad_path_list_paths(const clpad_path_list *list);
/** Free the list; NULL is fine. */
CLPAD_API void clpad_path_list_free(clpad_path_list *list);

/* ------------------------------------------------------------------------- */
/* Presets                                                                   */
/* ------------------------------------------------------------------------- */

/**
 * The name of preset i (0, 1, ...) and a one-line description of what it
 * sets; NULL past the last. Presets (docs/letterbox.md, "Presets"):
 *  - "ultralytics": what Ultralytics' predictor feeds a YOLO model: RGB,
 *    NCHW, f32, bilinear, centred, scale-up, constant border 114, and
 *    x / 255 as a division (std 255, scale 1, mean 0).
 *  - "imagenet": torchvision's ImageNet evaluation transforms on PIL
 *    images: fit cover with resize_shorter 256 and CLPAD_INTERP_PIL_BILINEAR
 *    (Resize(256)), the slot as CenterCrop (border 0 where it pads), divisor
 *    255 (ToTensor), mean 0.485, 0.456, 0.406 and std 0.229, 0.224, 0.225
 *    (Normalize); RGB, NCHW, f32.
 */
CLPAD_API const char *clpad_letterbox_preset_name(size_t i, const char **description);

/**
 * Set the options preset `name` names (case-insensitive) in *opts, leaving
 * the slot size (out_height, out_width) as it is; the caller then sets the
 * options given explicitly, which override the preset's.
 * opts->size (clpad_letterbox_options_init) is kept; only this version's
 * fields are written.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL, opts->size below this
 * version's struct), CLPAD_ERR_PARSE (an unknown name; the message lists
 * the presets).
 */
CLPAD_API clpad_status clpad_letterbox_preset(const char *name, clpad_letterbox_options *opts);

/* ------------------------------------------------------------------------- */
/* The stream: files in, letterboxed batches out                             */
/* ------------------------------------------------------------------------- */

/** clpad_stream_options.decode_scale */
enum { CLPAD_DECODE_SCALE_OFF = 0, CLPAD_DECODE_SCALE_AUTO = 1 };
/** clpad_stream_options.on_error */
enum { CLPAD_ON_ERROR_FAIL = 0, CLPAD_ON_ERROR_SKIP = 1 };

/** Reads the image at `path` by `options` into *out (its `size` set): a
 *  replacement of clpad_image_read (which is the default), called from the
 *  stream's threads, any number at once. It returns a clpad_status; on error
 *  the file's message is what it wrote to `message` (message_size bytes,
 *  "" on entry), or else clpad_last_error() (a clpad function that failed),
 *  prefixed with the path when it does not name it. `index` is the path's. */
typedef clpad_status (*clpad_stream_read_fn)(void *user, const char *path, size_t index,
                                             const clpad_read_options *options,
                                             clpad_decoded_image *out, char *message,
                                             size_t message_size);
/** Frees an image read_fn returned (default: clpad_decoded_image_free). */
typedef void (*clpad_stream_release_fn)(void *user, clpad_decoded_image *image);

/** How a stream reads and batches. Initialise with clpad_stream_options_init.
 *  The library reads `size`: a smaller one than this version's struct is
 *  refused, a larger one (a newer caller) accepted when the bytes past this
 *  version's fields are zero. */
typedef struct clpad_stream_options {
    size_t size;             /* sizeof(clpad_stream_options), set by _init */
    size_t batch;            /* images per batch, >= 1 (default 32) */
    int workers;             /* decoder threads, >= 0; 0 (default): one per core the
                                process may run on (at most 64) */
    clpad_read_options read; /* how files are read (default: clpad_read_options_init's,
                                3 channels; keep_depth must be 0; min_height and
                                min_width are set by decode_scale, not here) */
    int decode_scale;        /* CLPAD_DECODE_SCALE_OFF (default: full-size decode, the
                                exact result) or _AUTO: a JPEG is decoded at M/8 of its
                                size (M = 1, 2, 4, 8), the smallest that is still at
                                least its resized size; the geometry stays that of the
                                full image (clpad_image.geometry_height) */
    int on_error;            /* CLPAD_ON_ERROR_FAIL (default): the first file that cannot
                                be read or letterboxed, in input order, ends the stream
                                with its error; _SKIP: it is reported in the batch's
                                `skipped` and left out */
    int keep_pixels;         /* 1: each batch's decoded images stay available as
                                clpad_stream_batch.pixels until the next call (for a
                                check or a preview); default 0 */
    clpad_stream_read_fn read_fn;       /* NULL: clpad_image_read */
    clpad_stream_release_fn release_fn; /* NULL: clpad_decoded_image_free */
    void *user;                         /* passed to read_fn and release_fn */
} clpad_stream_options;

/** The defaults above. NULL is a no-op. */
CLPAD_API void clpad_stream_options_init(clpad_stream_options *options);

/** One image of a batch. */
typedef struct clpad_stream_image {
    size_t index;                         /* its path's index in the stream's paths */
    int64_t source_height, source_width;  /* the file's image size after orientation */
    int64_t decoded_height, decoded_width; /* the pixels letterboxed (smaller than the
                                             source only with decode scaling) */
    int scale_num;                        /* the JPEG decode's scale, scale_num / 8 */
    clpad_letterbox_transform transform;  /* from the source size: maps the slot to the
                                             source image (clpad_letterbox_transform) */
} clpad_stream_image;

/** A file left out (CLPAD_ON_ERROR_SKIP). */
typedef struct clpad_stream_skip {
    size_t index;         /* its path's index */
    clpad_status status;  /* why */
    const char *message;  /* the one-line message, naming the file */
} clpad_stream_skip;

/** What one call of clpad_letterbox_stream_next produced. The arrays are
 *  the stream's, valid until its next call or its close. The caller sets
 *  `size`: a smaller one than this version's struct is refused, and only
 *  this version's fields are written. */
typedef struct clpad_stream_batch {
    size_t size;                      /* sizeof(clpad_stream_batch): set by the caller */
    size_t count;                     /* images written to the output (<= batch) */
    const clpad_stream_image *images; /* count entries, in input order */
    size_t skipped_count;             /* files left out since the previous call */
    const clpad_stream_skip *skipped;
    const clpad_image *pixels;        /* keep_pixels: the count decoded images (with
                                         their geometry), else NULL */
    size_t inputs_done;               /* paths consumed so far (for progress) */
    int end;                          /* 1: every path has been consumed */
} clpad_stream_batch;

/** A stream (opaque). */
typedef struct clpad_letterbox_stream clpad_letterbox_stream;

/**
 * Start letterboxing the images of `paths` (n of them, copied) in batches:
 * decoder threads start reading at once, in input order, at most two
 * batches of decoded images ahead of the caller (memory stays bounded
 * whatever n is). Each batch is letterboxed by `lb` (out_height x
 * out_width; docs/letterbox.md) on the context's device, one launch per
 * batch (clpad_letterbox), while the threads decode the next batch; on a
 * fallback context (no device) each image is letterboxed by the thread that
 * decoded it, straight into its slot of the output. The result is
 * identical, byte for byte, to clpad_letterbox_cpu of the decoded images.
 * `ctx` must outlive the stream. `options` NULL: the defaults.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT (NULL ctx, lb or out; NULL paths with
 * n > 0; options->size below this version's struct or non-zero bytes past
 * it; an option out of range: batch 0, workers < 0, keep_depth, an
 * unknown decode_scale or on_error, a bad lb option, lb->input_format other
 * than CLPAD_INPUT_PACKED: the stream's images are decoded files),
 * CLPAD_ERR_INVALID_SHAPE
 * (out_height or out_width < 1), CLPAD_ERR_OUT_OF_MEMORY, and an error
 * starting a thread.
 */
CLPAD_API clpad_status clpad_letterbox_stream_open(clpad_context *ctx,
                                                   const char *const *paths, size_t n,
                                                   const clpad_letterbox_options *lb,
                                                   const clpad_stream_options *options,
                                                   clpad_letterbox_stream **out);

/**
 * The shape of a full batch, [batch, C, H_out, W_out] (NCHW) or
 * [batch, H_out, W_out, C] (NHWC), and its size in bytes (what `output` of
 * clpad_letterbox_stream_next needs). C is read.channels; with
 * CLPAD_CHANNELS_KEEP it is the channel count of the first image that can
 * be read, and this call waits for it to be decoded.
 * Errors: CLPAD_ERR_INVALID_ARGUMENT, and (CLPAD_CHANNELS_KEEP) the error
 * of the first file with on_error fail, or CLPAD_ERR_IO when no file could
 * be read.
 */
CLPAD_API clpad_status clpad_letterbox_stream_batch_shape(clpad_letterbox_stream *stream,
                                                          int64_t shape[4], size_t *bytes);

/**
 * The next batch: waits for its images (decoded ahead in the background),
 * letterboxes them into `output` (images count x C x H_out x W_out of the
 * dtype, written from its start; output_bytes at least that of a full
 * batch) and describes it in *batch. A call after the end returns
 * CLPAD_OK with count 0 and end 1. Calls are serialised (from several
 * threads, each gets the following batch).
 * With on_error fail, a file that cannot be read (or letterboxed: a
 * channel count other than the batch's, a border limit) ends the stream:
 * this call and the later ones return its status, with the message naming
 * the file; the output may then hold part of a batch.
 * Errors: the file's (CLPAD_ERR_IO, CLPAD_ERR_BAD_INPUT, CLPAD_ERR_TOO_LARGE,
 * CLPAD_ERR_INVALID_SHAPE, CLPAD_ERR_INVALID_PADS, ...), CLPAD_ERR_INVALID_ARGUMENT
 * (NULL arguments, batch->size below this version's struct),
 * CLPAD_ERR_BUFFER_TOO_SMALL, and the device's
 * (CLPAD_ERR_OPENCL, CLPAD_ERR_OUT_OF_MEMORY, ...), which end the stream
 * whatever on_error says.
 */
CLPAD_API clpad_status clpad_letterbox_stream_next(clpad_letterbox_stream *stream,
                                                   void *output, size_t output_bytes,
                                                   clpad_stream_batch *batch);

/**
 * Stop and free the stream: the decoder threads finish the image each is
 * decoding (no new one is started) and exit; every decoded image is freed.
 * Must not run at the same time as a call of clpad_letterbox_stream_next.
 * NULL is fine. A stream belongs to the process that opened it: in a child
 * made by fork() (which has a copy of it, but not its decoder threads),
 * clpad_letterbox_stream_next and _batch_shape fail with
 * CLPAD_ERR_INVALID_ARGUMENT, naming both processes, rather than wait for
 * those threads forever, and this call leaves the copy alone.
 */
CLPAD_API void clpad_letterbox_stream_close(clpad_letterbox_stream *stream);

#ifdef __cplusplus
}
#endif

#endif /* CLPAD_STREAM_H */
