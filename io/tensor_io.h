/*
 * Tensor file I/O, the clpad_io library (io/; the clpad program, the tests and
 * the fuzz targets link it): NumPy .npy files (read and write) and images
 * (read .png/.jpg/.jpeg/.bmp/.ppm/.pgm/.pnm; write .png through
 * stb_image_write and .ppm/.pgm/.pnm directly).
 *
 * Images are read by the library (include/clpad_image.h): recognized by
 * their signature; PNG decoded by libpng, JPEG by libjpeg-turbo, BMP by
 * stb_image, binary PNM by clpad (see tio_load_image_mem).
 *
 * Reads are bounded: the magic or signature first, then the header, then no
 * more than the header says the input holds; a file's size is checked
 * against it before the data is read (an endless input such as /dev/zero
 * named .npy fails after its first bytes).
 *
 * Every function reports failure as a return value of 1 and a one-line
 * message in `err` that names the file and the problem; nothing is printed.
 * Saves are atomic: a temporary file in the destination directory is written,
 * fsync'ed and renamed over the destination; several outputs are written as
 * one set, all or nothing (tio_output_set_open).
 */
#ifndef CLPAD_TENSOR_IO_H
#define CLPAD_TENSOR_IO_H

#include "clpad.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tio_tensor {
    clpad_dtype dtype;
    int rank;
    int64_t shape[CLPAD_MAX_RANK];
    void *data;    /* product(shape) * clpad_dtype_size(dtype) bytes, C order; malloc'd
                      (never NULL after a successful load, even for an empty tensor) */
    size_t nbytes;
    bool is_image; /* loaded from an image file: HWC, rank 3, u8 (u16: 16-bit PNG, PNM) */
} tio_tensor;

/* Load .npy or an image, chosen by the file extension (case-insensitive). A
 * path that is not a regular file (a FIFO, a character device) is read as a
 * stream (see tio_load_fd); a directory is an error. Returns 0 on success; on failure returns 1, leaves *t zeroed (tio_free is
 * still safe) and writes a one-line message naming the file and the problem
 * into err. */
int tio_load(const char *path, tio_tensor *t, char *err, size_t errlen);

/* tio_load from an open file descriptor (read from where it stands, not
 * closed); `name` gives the format by its extension and names the input in
 * messages. A regular file's size is checked against the header before the
 * data is read, and a .npy file must end with its data. A pipe or a
 * character device is read as a stream, as far as the header says and no
 * further: a .npy stream is left where its data ends (as numpy.load leaves a
 * file object), and one whose header promises more than the machine's
 * memory is refused; a PNG stream ends at IEND, a BMP or PNM stream at its
 * last pixel row; a JPEG stream is read to its end (at most the bound of
 * tio_load_image_mem). Returns 0, or 1 with err set and *t zeroed. */
int tio_load_fd(int fd, const char *name, tio_tensor *t, char *err, size_t errlen);

/* Save atomically: write a temporary file beside the destination (mkstemp),
 * fsync, rename over it; a set of one output (tio_output_set_open below,
 * whose rules it follows). On any failure (and when SIGINT, SIGTERM or
 * SIGHUP stops the process) the temporary is removed and an existing file is
 * untouched. The format comes from the extension; a tensor the format cannot
 * hold is refused first (tio_check_save).
 *  - A new file gets 0666 & ~umask, as open(2) gives it. A replaced file
 *    keeps its permission bits, and its owner and group where the caller
 *    may give them (root; the group if the caller is in it).
 *  - An existing file the caller may not write is refused, as cp refuses
 *    it: the rename would replace it, since a directory's permission, not
 *    the file's, governs a rename.
 *  - A symbolic link is written through: the file it names is replaced
 *    (atomically, beside itself) and the link stays a link, as cp and shell
 *    redirection write through one. A link to nothing is refused, as GNU cp
 *    refuses it. Only regular files are written: a directory, FIFO, device
 *    or socket at the path (or at the end of its links) is refused.
 * A file with other hard links is replaced by a new one: the other names
 * keep the old contents. Returns 0, or 1 with err set. */
int tio_save(const char *path, const tio_tensor *t, char *err, size_t errlen);

/* How tio_save_with encodes; zero fields mean the defaults. */
typedef struct tio_save_options {
    int jpeg_quality; /* 1..100; 0: TIO_JPEG_QUALITY_DEFAULT */
} tio_save_options;
#define TIO_JPEG_QUALITY_DEFAULT 95

/* tio_save with options (NULL: the defaults). */
int tio_save_with(const char *path, const tio_tensor *t, const tio_save_options *opts,
                  char *err, size_t errlen);

/* Save `len` bytes as they are (a JSON or text file), by tio_save's rules:
 * atomic, permissions and links as above. Returns 0, or 1 with err set. */
int tio_save_bytes(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Outputs written all or nothing: a set.
 *
 * tio_output_set_open opens it; each tio_output_set_add writes one output
 * to a temporary file beside its destination (".NAME.XXXXXX", by
 * tio_save's rules above), fsync'ed and closed, and leaves the destination
 * as it was; tio_output_set_commit then renames every temporary over its
 * destination, in the order they were added, in one short step;
 * tio_output_set_abort removes them instead. A set may hold any number of
 * outputs, added as they are ready (memory is not kept: each is on disk
 * once added). A failed add removes that output's temporary and leaves the
 * set open with the others (to commit or abort).
 *
 * Signals: from open to commit or abort, the set takes over SIGINT, SIGTERM
 * and SIGHUP, whatever their action is at open (the default, or a handler
 * an OpenCL driver installed when a device was opened: open the set after
 * the device). While outputs are being added, such a signal removes every
 * temporary of the set, puts back the actions the signals had at open and
 * raises the signal again, which then does what it would have done (the
 * default action ends the process, and its exit status says by which
 * signal). During the rename step the signal waits until the last rename
 * (and the directories' fsync) is done, then does the same. So a signal
 * leaves either the previous files or the complete new set, never a mix and
 * never a temporary. Should the process go on (a handler that returns), the
 * set is dead: add and commit fail with "interrupted by SIG...". A signal
 * that is ignored at open stays ignored, and so does one that was ignored
 * when the program started (see tio_signals_init) and has a handler at open
 * (a driver's; set back to the default, it is taken over): the set
 * completes. Not covered: SIGKILL
 * or a crash (between two renames it leaves the first outputs new, the
 * others old and their temporaries behind), and a rename that fails (the
 * file system turned read-only, a directory put at an output's name since
 * the check): the outputs renamed before it stay new, the message names
 * them, the other temporaries are removed.
 *
 * One set at a time per process (a second open fails), and its calls from
 * one thread; a driver that installs signal handlers while a set is open
 * replaces the set's. */
typedef struct tio_output_set tio_output_set;

/* Open a set (*set: NULL on failure). Returns 0, or 1 with err set (another
 * set is open; out of memory). */
int tio_output_set_open(tio_output_set **set, char *err, size_t errlen);
/* Write tensor t as the output `path` of the set (tio_save_with's formats,
 * options and checks); a path naming the same file as an output already in
 * the set (tio_file_id_equal) is refused. Returns 0, or 1 with err set. */
int tio_output_set_add(tio_output_set *set, const char *path, const tio_tensor *t,
                       const tio_save_options *opts, char *err, size_t errlen);
/* Write `len` bytes as they are (a JSON or text file) as the output `path`
 * of the set. Returns 0, or 1 with err set. */
int tio_output_set_add_bytes(tio_output_set *set, const char *path, const void *data,
                             size_t len, char *err, size_t errlen);
/* A .npy output of the set written piece by piece, for a tensor too large
 * to hold in memory: tio_output_set_begin_npy writes the header of a
 * tensor of `dtype` and `shape` (rank 1..8) to the output's temporary;
 * tio_npy_writer_write appends data (C order); tio_npy_writer_finish sets
 * the first axis to `rows` in the header (numpy's header keeps room for it
 * to grow in place), checks that exactly the data of that many rows was
 * written, and closes the output as tio_output_set_add does (ok false: the
 * caller failed, and the output's temporary is removed). Until the finish,
 * no other output may be added to the set. Each returns 0, or 1 with err set
 * (after a failed write or finish the output is gone from the set; finish
 * frees the writer in every case). */
typedef struct tio_npy_writer tio_npy_writer;
int tio_output_set_begin_npy(tio_output_set *set, const char *path, clpad_dtype dtype, int rank,
                             const int64_t *shape, tio_npy_writer **writer, char *err,
                             size_t errlen);
int tio_npy_writer_write(tio_npy_writer *writer, const void *data, size_t len, char *err,
                         size_t errlen);
int tio_npy_writer_finish(tio_npy_writer *writer, int64_t rows, bool ok, char *err,
                          size_t errlen);
/* Take the room of the next `len` bytes of data on the file system at once
 * (posix_fallocate), e.g. every batch's before the first is made: a full disk
 * is then an error before any work, and on tmpfs the pages are allocated and
 * cleared in one call instead of one batch at a time. Returns 0 (also where
 * the file system has no fallocate), or 1 with err set when the disk has no
 * room. The file keeps only the data written (tio_npy_writer_finish). */
int tio_npy_writer_reserve(tio_npy_writer *writer, uint64_t len, char *err, size_t errlen);

/* Rename every output of the set over its destination (see above) and free
 * the set. Returns 0, or 1 with err set (interrupted: nothing renamed; a
 * failed rename: the outputs before it renamed, named in err). */
int tio_output_set_commit(tio_output_set *set, char *err, size_t errlen);
/* Remove every temporary of the set and free it; NULL is fine. */
void tio_output_set_abort(tio_output_set *set);

/* Call once at the start of main, before any OpenCL device is opened:
 * notes which of SIGINT, SIGTERM and SIGHUP the program was started with
 * ignored (nohup's SIGHUP, a background job's SIGINT), since LLVM-based
 * OpenCL drivers (PoCL, Intel's CPU runtime) put their own handlers over
 * them. A set of outputs keeps those ignored while it is written. Without
 * this call, a set judges by the actions it finds at open. */
void tio_signals_init(void);

/* What a path names, to tell whether two paths are one file without
 * opening either: the device and inode where the path exists (through its
 * symbolic links: a link and its target, or two hard links, are one file);
 * for a new name, the absolute path with its directory resolved by
 * realpath (symbolic links, "." and ".." as the kernel follows them). */
typedef struct tio_file_id {
    bool exists;
    unsigned long long dev, ino; /* when it exists */
    char *path;                  /* when it does not (malloc'd) */
} tio_file_id;
/* Fill *id for `path`. Returns 0, or 1 with err set (out of memory). */
int tio_file_id_of(const char *path, tio_file_id *id, char *err, size_t errlen);
/* Whether two ids name one file. */
bool tio_file_id_equal(const tio_file_id *a, const tio_file_id *b);
void tio_file_id_free(tio_file_id *id);

/* Check, before any work, that `path` can take an output: the rules of
 * tio_save (a regular file or a new name, writable by the caller, through
 * its symbolic links; its directory exists and takes a new file). Returns
 * 0, or 1 with err set. tio_save checks again when it writes. */
int tio_check_output(const char *path, char *err, size_t errlen);

/* Parse a whole .npy file held in memory, data[0..len) (data may be NULL when
 * len is 0), exactly as tio_load parses a file. `name` stands for the file in
 * messages (NULL: "<memory>"). The tensor gets its own copy of the data.
 * Returns 0, or 1 with err set and *t zeroed. */
int tio_load_npy_mem(const void *data, size_t len, const char *name, tio_tensor *t, char *err,
                     size_t errlen);

/* Decode an image held in memory into an HxWxC tensor (is_image set), as
 * tio_load does for an image file, through the library's
 * clpad_image_decode with the channels as stored (CLPAD_CHANNELS_KEEP: grey
 * 1, grey + alpha 2, colour 3, colour + alpha 4; a palette PNG 3, or 4 with
 * tRNS; a grey or RGB PNG with a tRNS colour key gains an alpha channel), the
 * samples as stored (u8, or u16 for a 16-bit PNG and a PNM of maxval above
 * 255, not scaled) and the EXIF orientation applied. The format is
 * recognized by its signature, whatever the name says: PNG (libpng, CRCs and
 * Adler-32 checked), JPEG (libjpeg-turbo), BMP (stb_image) and binary PNM,
 * P5/P6. A top-down BMP (negative height) loads; truncated or corrupt files,
 * and a palette index beyond the palette (BMP), are errors. An image of more
 * than `max_pixels` pixels (0: the library's default,
 * CLPAD_IMAGE_DEFAULT_MAX_PIXELS, which tio_load uses), or more than 2^24 on a
 * side, is refused before its pixels are read; a PNG or JPEG is read no
 * further than twice its decoded size plus 16 MiB of metadata, a PNG no
 * further than its IEND chunk. Returns 0, or 1 with err set and *t zeroed. */
int tio_load_image_mem(const void *data, size_t len, const char *name, uint64_t max_pixels,
                       tio_tensor *t, char *err, size_t errlen);

/* The bytes tio_save writes for a .npy file, in a malloc'd buffer (*out, *len;
 * free() it). Returns 0, or 1 with err set (*out NULL). */
int tio_save_npy_mem(const tio_tensor *t, unsigned char **out, size_t *len, char *err,
                     size_t errlen);

/* Free the data and zero the struct. NULL and zeroed structs are fine. */
void tio_free(tio_tensor *t);

/* The format a path means by its extension (case-insensitive): "npy", "png",
 * "jpeg" (.jpg and .jpeg), "bmp", "ppm", "pgm", "pnm"; NULL when the
 * extension is missing or unknown. */
const char *tio_format(const char *path);
/* Whether tio_load / tio_save handle a format name returned by tio_format. */
bool tio_format_can_load(const char *format);
bool tio_format_can_save(const char *format);

/* Human-readable lists for usage messages: ".npy, .png, .jpg, ..." */
const char *tio_load_extensions(void);
const char *tio_save_extensions(void);

/* Check, before doing any work, that `path` names a format tio_load can read.
 * Returns 0, or 1 with err set (unknown or missing extension). */
int tio_check_load_path(const char *path, char *err, size_t errlen);

/* Check, before doing any work, that a tensor of this dtype and shape can be
 * saved to `path` (known writable format; npy: dtype numpy can name, rank
 * 0..8; png: u8 HxW or HxWxC with C in 1..4 (stb_image_write writes 8-bit
 * PNG only); jpeg (.jpg, .jpeg): u8 HxW, HxWx1 or HxWx3, at most 65500 on a
 * side; ppm: u8 or u16 HxWx3; pgm: u8 or u16 HxW or HxWx1; pnm: u8 or u16
 * with C 1 or 3; images non-empty). tio_save performs the same check.
 * Returns 0, or 1 with err set. */
int tio_check_save(const char *path, clpad_dtype dtype, int rank, const int64_t *shape,
                   char *err, size_t errlen);

#endif
