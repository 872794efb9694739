/* Opening a file to read it, shared by the library's image reader
 * (image.c), its lists of paths (host/pipeline/paths.c) and the I/O
 * library's loader (load_save.c). Not installed. */
#ifndef TIO_OPEN_READ_H
#define TIO_OPEN_READ_H

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* open(path, O_RDONLY) that does not wait on a FIFO: a FIFO nobody has open
 * for writing blocks open(2) until a writer comes, forever if none does.
 * The file is opened with O_NONBLOCK, which is then cleared, so that it is
 * read as usual: a FIFO without a writer reads as empty, one with a writer
 * as the stream it is. The descriptor, or -1 with errno set. */
static inline int tio__open_read(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return -1;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

#endif /* TIO_OPEN_READ_H */
