/*
 * Internals shared by the files of the tensor I/O library (io/); nothing
 * here is part of tensor_io.h. Every name starts with tio__.
 */
#ifndef CLPAD_IO_INTERNAL_H
#define CLPAD_IO_INTERNAL_H

#include "tensor_io.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the tensor I/O library assumes a little-endian host (npy '<' data is used as is)"
#endif

/* util.c ------------------------------------------------------------------ */

/* Write the message into err (if any; one line) and return 1. */
int tio__fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The common start of the loaders from memory: clears *t, makes *name
 * "<memory>" when NULL or empty, and refuses a NULL tensor or NULL data with
 * a length (1, the message in err); 0 when the call may go on. */
int tio__mem_args(const void *data, size_t len, const char **name, tio_tensor *t, char *err,
                  size_t errlen);
/* clpad_dtype_name, or "invalid-dtype". */
const char *tio__dtype_name(clpad_dtype dtype);
/* "[2, 3]" into buf. */
const char *tio__shape_str(int rank, const int64_t *shape, char *buf, size_t len);
/* Element count times elem_size; a zero dimension makes the tensor empty
 * whatever the others are (as in numpy). False on overflow. */
bool tio__shape_bytes(int rank, const int64_t *shape, size_t elem_size, size_t *nbytes);

/* reader.c ---------------------------------------------------------------- */

/* An input read front to back: a file descriptor, or bytes in memory. */
typedef struct tio__reader {
    const char *name;          /* for messages */
    int fd;                    /* the file, or -1: read mem */
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    bool sized;                /* size is known (a regular file, memory); else a stream */
    uint64_t size;             /* bytes in the whole input, when sized */
    uint64_t pos;              /* bytes read so far */
} tio__reader;

/* Bytes in memory as an input; sized = false reads them as a stream (as a
 * pipe would deliver them: the tests and fuzz targets use that). */
void tio__reader_mem(tio__reader *r, const char *name, const void *data, size_t len, bool sized);

#define TIO__READ_ERROR ((size_t)-1)
/* Read up to n bytes; fewer only at the end of the input. Returns the count,
 * or TIO__READ_ERROR with err set. */
size_t tio__read(tio__reader *r, void *buf, size_t n, char *err, size_t errlen);

/* The bytes of an input read so far, from its start or from where the
 * reader stood when the buffer was started. */
typedef struct tio__buf {
    unsigned char *data; /* malloc'd */
    size_t len, cap;
    bool eof;            /* the input ended */
} tio__buf;

/* Read until b holds `want` bytes or the input ends (then b->eof). Memory
 * grows with the bytes that arrive, not with `want`. 0, or 1 with err set. */
int tio__buf_fill(tio__buf *b, tio__reader *r, size_t want, char *err, size_t errlen);
void tio__buf_free(tio__buf *b);

/* The machine's physical memory in bytes (0 if unknown): a stream whose
 * header promises more is refused before it is read. */
uint64_t tio__memory_bytes(void);

/* formats.c --------------------------------------------------------------- */

struct tio__format {
    const char *ext;  /* lower-case extension without the dot */
    const char *name; /* format name returned by tio_format */
    bool load, save;
};

/* The extension of the last path component ("" when there is none). */
const char *tio__path_ext(const char *path);
const struct tio__format *tio__find_format(const char *path);
int tio__unknown_format(const char *path, const char *list, const char *verb, char *err,
                        size_t errlen);
/* What tio_save and tio_save_npy_mem check first: the format of `name`
 * takes this dtype and shape, and the data holds exactly the tensor's bytes
 * (*bytes). */
int tio__check_saveable(const char *name, const tio_tensor *t, size_t *bytes, char *err,
                        size_t errlen);
/* libjpeg's JPEG_MAX_DIMENSION. */
#define TIO__JPEG_MAX_SIDE 65500
/* Image geometry of a rank-2 (H, W: one channel) or rank-3 tensor. */
void tio__image_geometry(int rank, const int64_t *shape, int64_t *h, int64_t *w, int64_t *c);

/* npy.c ------------------------------------------------------------------- */

extern const unsigned char tio__npy_magic[6];
/* A one-byte buffer that stands for a NULL pointer with no bytes. */
extern const unsigned char tio__empty_buffer[1];
/* The descr numpy writes for a dtype; NULL when numpy has none (bf16). */
const char *tio__npy_descr_of(clpad_dtype dtype);
/* Headers longer than this are refused (numpy writes a few hundred bytes). */
#define TIO__NPY_MAX_HEADER ((size_t)1 << 20)
/* Read a .npy file from r: the magic and the header first, then exactly the
 * bytes the header promises; a file must end there, a stream is left there
 * (as numpy.load leaves a file object). Fills t
 * (t->data malloc'd, never NULL). 0, or 1 with err set (t partly filled:
 * the caller frees and zeroes it). */
int tio__load_npy(tio__reader *r, tio_tensor *t, char *err, size_t errlen);
/* The .npy prefix and header numpy.save writes for t; the length written
 * to out (0 if cap, at least 512, is too small). */
size_t tio__npy_header(const tio_tensor *t, unsigned char *out, size_t cap);

/* image_read.c ------------------------------------------------------------ */

/* Read an image from fd (a file or a stream, from where it stands) through
 * the library (clpad_image_read_fd) into t: channels and depth as stored,
 * the EXIF orientation applied, at most max_pixels pixels (0: the library's
 * default). 0, or 1 with err set and t zeroed. */
int tio__load_image_fd(int fd, const char *name, uint64_t max_pixels, tio_tensor *t, char *err,
                       size_t errlen);

/* image_write.c ----------------------------------------------------------- */

struct tio__atomic_file;
/* Encode a checked image tensor in `format` ("png", "jpeg", "ppm", "pgm",
 * "pnm") into af. 0, or 1 with err set. */
int tio__encode_image(const char *path, const char *format, const tio_tensor *t, int quality,
                      struct tio__atomic_file *af, char *err, size_t errlen);

/* atomic_file.c ----------------------------------------------------------- */

/* Where an output path leads (the file itself, or what its symbolic links
 * name) and what the replaced file had. */
typedef struct tio__output {
    char *target;       /* malloc'd */
    bool exists;
    unsigned mode;      /* permission bits of the existing file */
    unsigned uid, gid;  /* its owner and group */
} tio__output;

/* Resolve and check an output path (the rules at the top of atomic_file.c).
 * 0 (free o with tio__output_free), or 1 with err set. */
int tio__resolve_output(const char *path, tio__output *o, char *err, size_t errlen);
void tio__output_free(tio__output *o);

/* One output of a set being written: its temporary file, open. */
typedef struct tio__atomic_file {
    int fd;
    int werr;     /* first write errno, 0 if none */
    size_t index; /* its entry in the set */
} tio__atomic_file;

/* Start the next output of `set`: resolve and check `path` (the rules at the
 * top of atomic_file.c), refuse a path that names the same file as an output
 * already in the set, and create "<dir>/.<base>.XXXXXX" beside the file it
 * leads to, with the mode (and owner) the output will have. From then on a
 * signal removes it with the set's other temporaries. `path` names the
 * output in messages. 0, or 1 with err set (nothing left behind). */
int tio__set_begin(tio_output_set *set, const char *path, tio__atomic_file *af, char *err,
                   size_t errlen);
/* Write (the first error is kept in werr). */
void tio__af_write(tio__atomic_file *af, const void *data, size_t n);
/* End the output begun last: with ok, fsync and close its temporary, which
 * then waits in the set for tio_output_set_commit; without ok (the caller
 * failed, its message already in err), or on a write, fsync or close error,
 * remove it. The set's other outputs stay either way. 0, or 1 with err. */
int tio__set_end(tio_output_set *set, tio__atomic_file *af, bool ok, char *err, size_t errlen);

#endif
