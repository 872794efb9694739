/* slow_rename: an LD_PRELOAD shim for tests that slows every rename(2) down
 * by $CLPAD_TEST_RENAME_DELAY_MS milliseconds, so that a test can send a
 * signal while a program is between two renames (test_cli_hostile: a set of
 * outputs is renamed as a whole, or not at all). Without the variable it only
 * forwards the call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>

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
