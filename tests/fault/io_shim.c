/* io_shim: an LD_PRELOAD shim for tests of the CLI's outputs.
 *  - $CLPAD_TEST_RENAME_DELAY_MS: every rename(2) is slowed down by that
 *    many milliseconds, so that a test can send a signal while a program is
 *    between two renames (test_cli_hostile: a set of outputs is renamed as a
 *    whole, or not at all).
 *  - $CLPAD_TEST_PWRITE_EIO_FROM: every pwrite(2) that reaches that file
 *    offset or beyond fails with EIO, as a failing disk would (a write
 *    error in the middle of a streamed output).
 * Without the variables it only forwards the calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

int rename(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "rename");
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    const char *ms = getenv("CLPAD_TEST_RENAME_DELAY_MS");
    long d = ms ? strtol(ms, NULL, 10) : 0;
    if (d > 0) {
        struct timespec ts = {d / 1000, (d % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
    }
    return real(from, to);
}

static ssize_t shim_pwrite(const char *name, int fd, const void *buf, size_t n, off_t at)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, name);
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    const char *from = getenv("CLPAD_TEST_PWRITE_EIO_FROM");
    if (from && *from && n > 0 && (long long)at + (long long)n > strtoll(from, NULL, 10)) {
        errno = EIO;
        return -1;
    }
    return real(fd, buf, n, at);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t at)
{
    return shim_pwrite("pwrite", fd, buf, n, at);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t at)
{
    return shim_pwrite("pwrite64", fd, buf, n, at);
}
