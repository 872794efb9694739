/* Bounded reading: an input (a file descriptor or bytes in memory) is read
 * only as far as the format's header says it goes, never "until the end". */
#include "buf_grow.h"
#include "io_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const unsigned char tio__empty_buffer[1];

void tio__reader_mem(tio__reader *r, const char *name, const void *data, size_t len, bool sized)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    r->fd = -1;
    r->mem = data ? data : tio__empty_buffer;
    r->mem_len = data ? len : 0;
    r->sized = sized;
    r->size = r->mem_len;
}

size_t tio__read(tio__reader *r, void *buf, size_t n, char *err, size_t errlen)
{
    if (r->fd < 0) {
        size_t left = r->mem_len - r->mem_pos, k = n < left ? n : left;
        memcpy(buf, r->mem + r->mem_pos, k);
        r->mem_pos += k;
        r->pos += k;
        return k;
    }
    unsigned char *p = buf;
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(r->fd, p + got, n - got);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            tio__fail(err, errlen, "%s: read error: %s", r->name, strerror(errno));
            return TIO__READ_ERROR;
        }
        if (k == 0)
            break;
        got += (size_t)k;
    }
    r->pos += got;
    return got;
}

int tio__buf_fill(tio__buf *b, tio__reader *r, size_t want, char *err, size_t errlen)
{
    while (b->len < want && !b->eof) {
        if (b->len == b->cap) {
            size_t ncap = tio__buf_grow(b->cap, b->len, want, r->sized, r->size, r->pos);
            unsigned char *nb = realloc(b->data, ncap);
            if (!nb)
                return tio__fail(err, errlen, "%s: out of memory reading %zu bytes", r->name,
                                 ncap);
            b->data = nb;
            b->cap = ncap;
        }
        size_t room = b->cap - b->len, ask = want - b->len < room ? want - b->len : room;
        size_t got = tio__read(r, b->data + b->len, ask, err, errlen);
        if (got == TIO__READ_ERROR)
            return 1;
        b->len += got;
        if (got < ask)
            b->eof = true;
    }
    return 0;
}

void tio__buf_free(tio__buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

uint64_t tio__memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}
