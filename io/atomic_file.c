/*
 * Outputs: where a path really leads, whether it may be written, and the
 * atomic write itself (a temporary file in the destination's directory,
 * fsync'ed and renamed over it), with the temporary removed if the process
 * is stopped by SIGINT, SIGTERM or SIGHUP.
 *
 * The rules, those of a careful Unix tool (see tensor_io.h):
 *  - a new file gets 0666 & ~umask; a replaced file keeps its permission
 *    bits and, where the caller may give them, its owner and group;
 *  - an existing file the caller may not write is refused, as cp refuses it
 *    (the rename would replace it: the directory's permission, not the
 *    file's, governs a rename);
 *  - a symbolic link is written through, to the file it names, and stays a
 *    link; a link to nothing is refused (as GNU cp does);
 *  - only regular files are written: a directory, FIFO, device or socket
 *    at the path (or at the end of its links) is refused.
 */
/* realpath() is an X/Open (XSI) function. */
#define _XOPEN_SOURCE 700
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
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

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

/* The directory part of path ("." when there is none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(n ? n + 1 : 2);
    if (!dir)
        return NULL;
    if (n)
        memcpy(dir, path, n), dir[n] = '\0';
    else
        strcpy(dir, ".");
    return dir;
}

int tio__resolve_output(const char *path, tio__output *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof o[0]);
    if (!path || !*path)
        return tio__fail(err, errlen, "no output file name given");
    struct stat st;
    const char *target = path;
    char *resolved = NULL;
    int lr = lstat(path, &st);
    if (lr != 0 && errno != ENOENT)
        return tio__fail(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
    if (lr == 0 && S_ISLNK(st.st_mode)) {
        /* Written through: the file the link names is replaced, the link
         * stays. The temporary goes beside that file, so that the rename
         * stays within its directory and file system. */
        resolved = realpath(path, NULL);
        if (!resolved) {
            int e = errno;
            if (e == ENOENT)
                return tio__fail(err, errlen,
                                 "%s: a symbolic link to a file that does not exist; not "
                                 "writing through it (remove the link, or create its target)",
                                 path);
            return tio__fail(err, errlen, "%s: cannot follow the symbolic link: %s", path,
                             strerror(e));
        }
        target = resolved;
    }
    bool exists = lstat(target, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        int rc = tio__fail(err, errlen, "%s%s%s: is %s; clpad writes regular files only", path,
                           resolved ? " -> " : "", resolved ? resolved : "",
                           file_kind(st.st_mode));
        free(resolved);
        return rc;
    }
    if (exists && faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0) {
        int e = errno;
        int rc = tio__fail(err, errlen,
                           "%s%s%s: not replaced: %s (mode %04o); clpad does not replace a file "
                           "you may not write, as cp does not",
                           path, resolved ? " -> " : "", resolved ? resolved : "",
                           e == EACCES ? "permission denied" : strerror(e),
                           (unsigned)(st.st_mode & 07777));
        free(resolved);
        return rc;
    }
    char *dir = dir_of(target);
    if (!dir) {
        free(resolved);
        return tio__fail(err, errlen, "%s: out of memory", path);
    }
    struct stat dst;
    int rc = 0;
    if (stat(dir, &dst) != 0)
        rc = tio__fail(err, errlen, "%s: directory '%s': %s", path, dir, strerror(errno));
    else if (!S_ISDIR(dst.st_mode))
        rc = tio__fail(err, errlen, "%s: '%s' is not a directory", path, dir);
    else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0)
        rc = tio__fail(err, errlen,
                       "%s: cannot create a file in directory '%s': %s (the output is written "
                       "to a temporary file there, then renamed)",
                       path, dir, strerror(errno));
    free(dir);
    if (rc) {
        free(resolved);
        return 1;
    }
    o->target = resolved ? resolved : strdup(path);
    if (!o->target)
        return tio__fail(err, errlen, "%s: out of memory", path);
    o->exists = exists;
    if (exists) {
        o->mode = st.st_mode & 07777;
        o->uid = st.st_uid;
        o->gid = st.st_gid;
    }
    return 0;
}

void tio__output_free(tio__output *o)
{
    free(o->target);
    memset(o, 0, sizeof o[0]);
}

int tio_check_output(const char *path, char *err, size_t errlen)
{
    tio__output o;
    if (tio__resolve_output(path, &o, err, errlen))
        return 1;
    tio__output_free(&o);
    return 0;
}

/* ------------------------------------------------------------------------- */
/* The temporary file and the signals that stop the process                  */
/* ------------------------------------------------------------------------- */

/* The temporary of the save in progress, formatted before the handler may
 * need it, so that the handler only unlink()s a ready string (unlink,
 * signal and raise are async-signal-safe, and so are lock-free atomics).
 * One save at a time per process: tio_save is not for several threads at
 * once (the umask read is process-wide too).
 *
 * g_state: IDLE, CREATING (mkstemp is running: the name is not known yet)
 * or ARMED (g_tmp_path exists). A signal during CREATING is left to the
 * saving thread, which checks g_pending once the file exists; the handler
 * stores g_pending before it reads g_state and the saver stores g_state
 * before it reads g_pending, so one of them always sees the other (both
 * acting is harmless). The library's CPU path runs threads: the handler may
 * run on any of them. */
enum { IDLE, CREATING, ARMED };
static atomic_int g_state, g_pending;
static char g_tmp_path[PATH_MAX + 1];
static const int g_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_SIGNALS (sizeof g_signals / sizeof g_signals[0])
static struct sigaction g_previous[N_SIGNALS];
static bool g_installed[N_SIGNALS];

/* Die of `sig` as if no handler had been there (the exit status says
 * "killed by SIGTERM"): the default action, raised again; in a handler it
 * is delivered when the handler returns. */
static void die_of(int sig)
{
    signal(sig, SIG_DFL);
    raise(sig);
}

static void remove_temporary(int sig)
{
    atomic_store(&g_pending, sig);
    int state = atomic_load(&g_state);
    if (state == CREATING)
        return; /* the saving thread removes it and dies, once it exists */
    if (state == ARMED)
        unlink(g_tmp_path);
    die_of(sig);
}

/* Take over the signals whose action is the default (termination); leave
 * ignored ones ignored (a background job's SIGINT, nohup's SIGHUP) and a
 * program's own handlers alone. */
static void install_handlers(void)
{
    atomic_store(&g_pending, 0);
    for (size_t i = 0; i < N_SIGNALS; i++) {
        struct sigaction now;
        g_installed[i] = false;
        if (sigaction(g_signals[i], NULL, &now) != 0 || now.sa_handler != SIG_DFL ||
            (now.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_temporary;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < N_SIGNALS; k++)
            sigaddset(&sa.sa_mask, g_signals[k]);
        g_installed[i] = sigaction(g_signals[i], &sa, &g_previous[i]) == 0;
    }
}

/* The temporary exists (tmp) or could not be made (NULL). */
static void armed(const char *tmp)
{
    size_t n = tmp ? strlen(tmp) : 0;
    if (tmp && n < sizeof g_tmp_path) {
        memcpy(g_tmp_path, tmp, n + 1);
        atomic_store(&g_state, ARMED);
    } else {
        atomic_store(&g_state, IDLE);
    }
    int sig = atomic_load(&g_pending);
    if (sig) { /* a signal came while mkstemp ran */
        if (tmp)
            unlink(tmp);
        die_of(sig);
    }
}

static void disarm(void)
{
    atomic_store(&g_state, IDLE);
    for (size_t i = 0; i < N_SIGNALS; i++)
        if (g_installed[i]) {
            sigaction(g_signals[i], &g_previous[i], NULL);
            g_installed[i] = false;
        }
}

/* Create "<dir>/.<base>.XXXXXX" beside the target. */
int tio__af_open(tio__atomic_file *af, const tio__output *o, const char *path, char *err,
                 size_t errlen)
{
    af->fd = -1;
    af->werr = 0;
    const char *target = o->target;
    const char *slash = strrchr(target, '/');
    size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dirlen;
    size_t baselen = strlen(base);
    if (baselen > 100) /* keep the temporary name within NAME_MAX */
        baselen = 100;
    size_t cap = dirlen + 1 + baselen + 8 + 1;
    af->tmp = malloc(cap);
    if (!af->tmp)
        return tio__fail(err, errlen, "%s: out of memory", path);
    snprintf(af->tmp, cap, "%.*s.%.*s.XXXXXX", (int)dirlen, target, (int)baselen, base);
    /* From here on SIGINT, SIGTERM and SIGHUP remove the temporary. */
    install_handlers();
    atomic_store(&g_state, CREATING);
    af->fd = mkstemp(af->tmp);
    int e = errno;
    armed(af->fd >= 0 ? af->tmp : NULL);
    if (af->fd < 0) {
        disarm();
        free(af->tmp);
        af->tmp = NULL;
        if (dirlen)
            return tio__fail(err, errlen, "%s: cannot create a file in directory '%.*s': %s",
                             path, (int)dirlen, target, strerror(e));
        return tio__fail(err, errlen, "%s: cannot create a file in the current directory: %s",
                         path, strerror(e));
    }
    /* A replaced file keeps its permission bits and (as far as the caller
     * may give them) its owner and group; a new one gets what open(2)
     * would give it. */
    mode_t mode = o->exists ? o->mode & 0777 : 0666 & ~current_umask();
    if (o->exists && fchown(af->fd, (uid_t)o->uid, (gid_t)o->gid) != 0) {
        /* Not ours to give (only root may): keep the group if we may, else
         * the file is the caller's, as sed -i leaves it. */
        if (fchown(af->fd, (uid_t)-1, (gid_t)o->gid) != 0) {
        }
    }
    if (fchmod(af->fd, mode) != 0)
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
        disarm();
        free(af->tmp);
        af->tmp = NULL;
    }
}

/* fsync, close and rename; removes the temporary on any failure. */
int tio__af_commit(tio__atomic_file *af, const tio__output *o, const char *path, char *err,
                   size_t errlen)
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
    if (rename(af->tmp, o->target) != 0) {
        int e = errno;
        tio__af_abort(af);
        return tio__fail(err, errlen, "%s: cannot replace the file: %s", path, strerror(e));
    }
    /* (A signal between the rename and here unlinks a name that no longer
     * exists.) */
    disarm();
    free(af->tmp);
    af->tmp = NULL;

    /* Make the rename itself durable (best effort). */
    char *dir = dir_of(o->target);
    int dfd = dir ? open(dir, O_RDONLY) : -1;
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
    return 0;
}
