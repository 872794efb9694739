/* Saves through a temporary file in the destination directory (mkstemp)
 * that is fsync'ed and renamed over the destination. */
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static mode_t current_umask(void)
{
    /* POSIX has no way to read the umask without setting it. */
    mode_t m = umask(0);
    umask(m);
    return m;
}

/* Create "<dir>/.<base>.XXXXXX" next to path. */
int tio__af_open(tio__atomic_file *af, const char *path, char *err, size_t errlen)
{
    af->fd = -1;
    af->werr = 0;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    size_t baselen = strlen(base);
    if (baselen > 100) /* keep the temporary name within NAME_MAX */
        baselen = 100;
    size_t cap = dirlen + 1 + baselen + 8 + 1;
    af->tmp = malloc(cap);
    if (!af->tmp)
        return tio__fail(err, errlen, "%s: out of memory", path);
    snprintf(af->tmp, cap, "%.*s.%.*s.XXXXXX", (int)dirlen, path, (int)baselen, base);
    af->fd = mkstemp(af->tmp);
    if (af->fd < 0) {
        int e = errno;
        free(af->tmp);
        af->tmp = NULL;
        if (dirlen)
            return tio__fail(err, errlen, "%s: cannot create a file in directory '%.*s': %s", path,
                        (int)dirlen, path, strerror(e));
        return tio__fail(err, errlen, "%s: cannot create a file in the current directory: %s", path,
                    strerror(e));
    }
    if (fchmod(af->fd, 0666 & ~current_umask()) != 0)
        af->werr = errno;
    return 0;
}

void tio__af_write(tio__atomic_file *af, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n > 0 && af->werr == 0) {
        ssize_t w = write(af->fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            af->werr = errno;
            break;
        }
        p += w;
        n -= (size_t)w;
    }
}

void tio__af_abort(tio__atomic_file *af)
{
    if (af->fd >= 0)
        close(af->fd);
    af->fd = -1;
    if (af->tmp) {
        unlink(af->tmp);
        free(af->tmp);
        af->tmp = NULL;
    }
}

/* fsync, close and rename; removes the temporary on any failure. */
int tio__af_commit(tio__atomic_file *af, const char *path, char *err, size_t errlen)
{
    if (af->werr) {
        int e = af->werr;
        tio__af_abort(af);
        return tio__fail(err, errlen, "%s: write error: %s", path, strerror(e));
    }
    if (fsync(af->fd) != 0) {
        int e = errno;
        tio__af_abort(af);
        return tio__fail(err, errlen, "%s: fsync failed: %s", path, strerror(e));
    }
    int fd = af->fd;
    af->fd = -1;
    if (close(fd) != 0) {
        int e = errno;
        tio__af_abort(af);
        return tio__fail(err, errlen, "%s: close failed: %s", path, strerror(e));
    }
    if (rename(af->tmp, path) != 0) {
        int e = errno;
        tio__af_abort(af);
        return tio__fail(err, errlen, "%s: cannot replace the file: %s", path, strerror(e));
    }
    free(af->tmp);
    af->tmp = NULL;

    /* Make the rename itself durable (best effort). */
    const char *slash = strrchr(path, '/');
    char *dir = NULL;
    if (slash) {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        dir = malloc(n + 1);
        if (dir) {
            memcpy(dir, path, n);
            dir[n] = '\0';
        }
    }
    int dfd = open(dir ? dir : ".", O_RDONLY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
    return 0;
}
