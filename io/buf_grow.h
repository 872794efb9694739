/* The growth of a read buffer, shared by the library's image reader
 * (image.c) and the I/O library's reader (reader.c). Not installed. */
#ifndef TIO_BUF_GROW_H
#define TIO_BUF_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The new capacity of a full read buffer of `cap` bytes (holding `len`)
 * asked for `want` bytes: a stream's buffer doubles as bytes arrive, so that
 * a header that promises gigabytes costs memory only once they come. An
 * input of known size (`sized`: `size` bytes, `pos` of them read) is read
 * into one block, as large as what is asked for but no larger than what it
 * still holds (+1: to see the end). */
static inline size_t tio__buf_grow(size_t cap, size_t len, size_t want, bool sized,
                                   uint64_t size, uint64_t pos)
{
    size_t ncap = cap < 32768 ? 65536 : cap > SIZE_MAX / 2 ? SIZE_MAX : 2 * cap;
    if (sized) {
        if (ncap < want)
            ncap = want;
        uint64_t rest = size > pos ? size - pos : 0;
        if (rest < ncap - len)
            ncap = len + (size_t)rest + 1;
    }
    return ncap;
}

#endif /* TIO_BUF_GROW_H */
