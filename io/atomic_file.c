/*
 * Outputs: where a path really leads, whether it may be written, which
 * paths name one file, and the atomic write itself: a set of outputs, each
 * written to a temporary file in its destination's directory and fsync'ed,
 * then all renamed over their destinations in one step (tio_save is a set
 * of one). SIGINT, SIGTERM and SIGHUP remove the temporaries while they are
 * written, and wait for the end of the rename step while it runs.
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
#include <sched.h>
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
/* Which paths name one file                                                  */
/* ------------------------------------------------------------------------- */

int tio_file_id_of(const char *path, tio_file_id *id, char *err, size_t errlen)
{
    memset(id, 0, sizeof id[0]);
    struct stat st;
    if (stat(path, &st) == 0) {
        id->exists = true;
        id->dev = (unsigned long long)st.st_dev;
        id->ino = (unsigned long long)st.st_ino;
        return 0;
    }
    /* A new name: its directory resolved (symbolic links, "." and ".." as
     * the kernel follows them), then the last component. */
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = dir_of(path);
    char *real = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    if (real) {
        size_t n = strlen(real) + 1 + strlen(base) + 1;
        id->path = malloc(n);
        if (id->path)
            snprintf(id->path, n, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
        free(real);
    } else { /* no such directory: the name as given (it is refused later) */
        id->path = strdup(path);
    }
    if (!id->path)
        return tio__fail(err, errlen, "%s: out of memory", path);
    return 0;
}

bool tio_file_id_equal(const tio_file_id *a, const tio_file_id *b)
{
    if (a->exists || b->exists)
        return a->exists && b->exists && a->dev == b->dev && a->ino == b->ino;
    return a->path && b->path && strcmp(a->path, b->path) == 0;
}

void tio_file_id_free(tio_file_id *id)
{
    free(id->path);
    memset(id, 0, sizeof id[0]);
}

/* ------------------------------------------------------------------------- */
/* The set of outputs, and the signals that stop the process                  */
/* ------------------------------------------------------------------------- */

/* One output of the set: its temporary, fsync'ed and closed once added. */
typedef struct tio__entry {
    char *path;     /* as the caller named it, for messages (malloc'd) */
    tio__output o;  /* where it goes */
    tio_file_id id; /* what it names, against two names for one file */
    char *tmp;      /* the temporary (malloc'd); the handler unlinks it */
} tio__entry;

struct tio_output_set {
    tio__entry *e;
    size_t n, cap;
};

/* The signal handler and the thread that writes the set share:
 *
 * g_phase: ARMED while the set's temporaries only get written (a signal
 * removes them all, at once, in the handler); BUSY while the set itself
 * changes (a temporary is being created or removed, the array grows, the
 * outputs are renamed): a signal is then only noted in g_pending, and the
 * writing thread acts on it when it leaves BUSY; IDLE when no set is open.
 * The handler stores g_pending before it reads g_phase, and the writer
 * stores g_phase before it takes g_pending (sequentially consistent
 * atomics), so one of them always sees the other; atomic_exchange on
 * g_pending makes exactly one of them act. g_inside counts the handlers
 * running on any thread: the writer, once it set BUSY, waits for it to be
 * zero before it changes the set, so that no handler reads a set that
 * changes under it.
 *
 * Acting on a signal: remove every temporary (when ARMED), mark the set
 * interrupted (g_interrupted), put back the actions the signals had before
 * the set took them over, and raise the signal again: it then does what it
 * would have done without clpad (the default action ends the process and
 * says so in its exit status; an OpenCL driver's handler does what that
 * driver does, usually the same). In the handler the raised signal is
 * blocked until the handler returns.
 *
 * Everything the handler calls is async-signal-safe (unlink, sigaction,
 * raise, lock-free atomics); the temporaries' names are formatted before
 * the handler can need them. One set at a time per process (g_open). */
enum { IDLE, ARMED, BUSY };
static atomic_int g_phase, g_pending, g_inside, g_interrupted;
static atomic_flag g_open = ATOMIC_FLAG_INIT;
static tio_output_set *g_set; /* the open set; read by the handler when ARMED */
static const int g_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_SIGNALS (sizeof g_signals / sizeof g_signals[0])
static struct sigaction g_previous[N_SIGNALS];
static atomic_bool g_replaced[N_SIGNALS]; /* g_previous[i] is to be put back */
static bool g_ignored_at_start[N_SIGNALS];
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_BOOL_LOCK_FREE == 2,
               "the signal handler needs lock-free atomics");

void tio_signals_init(void)
{
    for (size_t i = 0; i < N_SIGNALS; i++) {
        struct sigaction now;
        g_ignored_at_start[i] = sigaction(g_signals[i], NULL, &now) == 0 &&
                                !(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_IGN;
    }
}

static void put_back_actions(void)
{
    for (size_t i = 0; i < N_SIGNALS; i++)
        if (atomic_exchange(&g_replaced[i], false))
            sigaction(g_signals[i], &g_previous[i], NULL);
}

/* Act on `sig` (see above); `armed`: the temporaries are to be removed. */
static void interrupt(int sig, bool armed)
{
    if (armed) {
        for (size_t i = 0; i < g_set->n; i++)
            unlink(g_set->e[i].tmp);
        atomic_store(&g_interrupted, sig);
    }
    put_back_actions();
    raise(sig);
}

static void on_signal(int sig)
{
    int saved_errno = errno;
    atomic_fetch_add(&g_inside, 1);
    atomic_store(&g_pending, sig);
    int phase = atomic_load(&g_phase);
    if (phase != BUSY) {
        int s = atomic_exchange(&g_pending, 0);
        if (s)
            interrupt(s, phase == ARMED);
    }
    atomic_fetch_sub(&g_inside, 1);
    errno = saved_errno;
}

static void enter_busy(void)
{
    atomic_store(&g_phase, BUSY);
    while (atomic_load(&g_inside) != 0)
        sched_yield(); /* a handler on another thread, a few unlinks long */
}

/* Leave BUSY for `phase`, acting on a signal that came meanwhile. */
static void leave_busy(int phase)
{
    atomic_store(&g_phase, phase);
    int s = atomic_exchange(&g_pending, 0);
    if (s)
        interrupt(s, phase == ARMED);
}

/* Take over SIGINT, SIGTERM and SIGHUP for the set (in BUSY). Whatever
 * their action is now (the default, or a handler an OpenCL driver installed
 * when the device was opened), a signal then removes the temporaries first
 * and is raised again with that action put back. A signal that is ignored
 * now stays ignored, and so does one that was ignored when the program
 * started (tio_signals_init) and has a handler now (a driver's: LLVM's
 * handler puts SIG_IGN back and raises the signal again, so the process
 * went on ignoring it; set back to the default, it is the program's
 * choice). */
static void take_over_signals(void)
{
    for (size_t i = 0; i < N_SIGNALS; i++) {
        struct sigaction now, sa;
        if (sigaction(g_signals[i], NULL, &now) != 0 ||
            (!(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_IGN))
            continue;
        memset(&sa, 0, sizeof sa);
        sigemptyset(&sa.sa_mask);
        if (g_ignored_at_start[i] && ((now.sa_flags & SA_SIGINFO) || now.sa_handler != SIG_DFL)) {
            sa.sa_handler = SIG_IGN;
        } else {
            sa.sa_handler = on_signal;
            for (size_t k = 0; k < N_SIGNALS; k++)
                sigaddset(&sa.sa_mask, g_signals[k]);
            sa.sa_flags = SA_RESTART;
        }
        if (sigaction(g_signals[i], &sa, &g_previous[i]) == 0)
            atomic_store(&g_replaced[i], true);
    }
}

static int interrupted_error(char *err, size_t errlen)
{
    int sig = atomic_load(&g_interrupted);
    return tio__fail(err, errlen, "interrupted by %s; no output written",
                     sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP");
}

int tio_output_set_open(tio_output_set **set, char *err, size_t errlen)
{
    *set = NULL;
    if (atomic_flag_test_and_set(&g_open))
        return tio__fail(err, errlen,
                         "another set of outputs is being written (one at a time per process)");
    tio_output_set *s = calloc(1, sizeof *s);
    if (!s) {
        atomic_flag_clear(&g_open);
        return tio__fail(err, errlen, "out of memory");
    }
    atomic_store(&g_interrupted, 0);
    atomic_store(&g_pending, 0);
    g_set = s;
    enter_busy();
    take_over_signals();
    leave_busy(ARMED);
    *set = s;
    return 0;
}

/* Remove the last entry (BUSY). */
static void drop_last(tio_output_set *s)
{
    tio__entry *e = &s->e[--s->n];
    unlink(e->tmp);
    free(e->tmp);
    free(e->path);
    tio__output_free(&e->o);
    tio_file_id_free(&e->id);
}

/* Close the set (BUSY): put the signals' actions back, then act on a
 * signal held meanwhile; free it. */
static void close_set(tio_output_set *s)
{
    put_back_actions();
    /* (a handler that started before the actions went back notes its
     * signal, and leave_busy acts on it) */
    while (atomic_load(&g_inside) != 0)
        sched_yield();
    leave_busy(IDLE);
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].tmp);
        free(s->e[i].path);
        tio__output_free(&s->e[i].o);
        tio_file_id_free(&s->e[i].id);
    }
    free(s->e);
    free(s);
    g_set = NULL;
    atomic_flag_clear(&g_open);
}

void tio_output_set_abort(tio_output_set *s)
{
    if (!s)
        return;
    enter_busy();
    while (s->n > 0)
        drop_last(s);
    close_set(s);
}

/* Add an entry for `path` (o and id taken over) with its temporary,
 * "<dir>/.<base>.XXXXXX" beside o->target, created (in BUSY: a signal
 * during mkstemp waits, then removes the new temporary with the others).
 * 0 with af->fd and af->index set, or 1 with err set (o and id freed). */
static int create_temporary(tio_output_set *s, const char *path, tio__output *o,
                            tio_file_id *id, tio__atomic_file *af, char *err, size_t errlen)
{
    const char *target = o->target;
    const char *slash = strrchr(target, '/');
    size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dirlen;
    size_t baselen = strlen(base);
    if (baselen > 100) /* keep the temporary name within NAME_MAX */
        baselen = 100;
    size_t cap = dirlen + 1 + baselen + 8 + 1;
    char *tmp = malloc(cap), *name = strdup(path);
    int rc = 0;
    if (!tmp || !name)
        rc = tio__fail(err, errlen, "%s: out of memory", path);
    else
        snprintf(tmp, cap, "%.*s.%.*s.XXXXXX", (int)dirlen, target, (int)baselen, base);
    enter_busy();
    if (!rc && atomic_load(&g_interrupted))
        rc = interrupted_error(err, errlen);
    if (!rc && s->n == s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 4;
        tio__entry *grown = realloc(s->e, ncap * sizeof *grown);
        if (grown)
            s->e = grown, s->cap = ncap;
        else
            rc = tio__fail(err, errlen, "%s: out of memory", path);
    }
    if (!rc) {
        af->fd = mkstemp(tmp);
        if (af->fd >= 0) {
            af->index = s->n;
            s->e[s->n++] = (tio__entry){.path = name, .o = *o, .id = *id, .tmp = tmp};
        } else if (dirlen) {
            rc = tio__fail(err, errlen, "%s: cannot create a file in directory '%.*s': %s", path,
                           (int)dirlen, target, strerror(errno));
        } else {
            rc = tio__fail(err, errlen, "%s: cannot create a file in the current directory: %s",
                           path, strerror(errno));
        }
    }
    leave_busy(ARMED);
    if (rc) {
        free(tmp);
        free(name);
        tio__output_free(o);
        tio_file_id_free(id);
    }
    return rc;
}

int tio__set_begin(tio_output_set *s, const char *path, tio__atomic_file *af, char *err,
                   size_t errlen)
{
    af->fd = -1;
    af->werr = 0;
    if (!s)
        return tio__fail(err, errlen, "%s: no set of outputs given", path ? path : "(null)");
    tio__output o;
    if (tio__resolve_output(path, &o, err, errlen))
        return 1;
    tio_file_id id;
    if (tio_file_id_of(path, &id, err, errlen)) {
        tio__output_free(&o);
        return 1;
    }
    for (size_t i = 0; i < s->n; i++)
        if (tio_file_id_equal(&id, &s->e[i].id)) {
            tio__output_free(&o);
            tio_file_id_free(&id);
            return tio__fail(err, errlen, "%s: the same file as %s, already an output of this set",
                             path, s->e[i].path);
        }
    if (create_temporary(s, path, &o, &id, af, err, errlen))
        return 1;
    /* A replaced file keeps its permission bits and (as far as the caller
     * may give them) its owner and group; a new one gets what open(2)
     * would give it. */
    const tio__output *out = &s->e[af->index].o;
    mode_t mode = out->exists ? out->mode & 0777 : 0666 & ~current_umask();
    if (out->exists && fchown(af->fd, (uid_t)out->uid, (gid_t)out->gid) != 0) {
        /* Not ours to give (only root may): keep the group if we may, else
         * the file is the caller's, as sed -i leaves it. */
        if (fchown(af->fd, (uid_t)-1, (gid_t)out->gid) != 0) {
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

int tio__set_end(tio_output_set *s, tio__atomic_file *af, bool ok, char *err, size_t errlen)
{
    const char *path = s->e[af->index].path;
    int rc = 0;
    if (!ok)
        rc = 1; /* the caller's error, already in err */
    else if (af->werr)
        rc = tio__fail(err, errlen, "%s: write error: %s", path, strerror(af->werr));
    else if (fsync(af->fd) != 0)
        rc = tio__fail(err, errlen, "%s: fsync failed: %s", path, strerror(errno));
    int fd = af->fd;
    af->fd = -1;
    if (close(fd) != 0 && !rc)
        rc = tio__fail(err, errlen, "%s: close failed: %s", path, strerror(errno));
    if (!rc && atomic_load(&g_interrupted))
        rc = interrupted_error(err, errlen);
    if (rc) { /* this output's temporary goes; the set's others stay */
        enter_busy();
        if (af->index == s->n - 1)
            drop_last(s);
        leave_busy(ARMED);
    }
    return rc;
}

int tio_output_set_commit(tio_output_set *s, char *err, size_t errlen)
{
    if (!s)
        return tio__fail(err, errlen, "no set of outputs given");
    enter_busy(); /* from here, a signal waits for the end of the renames */
    int rc = 0;
    size_t done = 0;
    if (atomic_load(&g_interrupted))
        rc = interrupted_error(err, errlen);
    for (; !rc && done < s->n; done++) {
        tio__entry *e = &s->e[done];
        if (rename(e->tmp, e->o.target) != 0) {
            int en = errno;
            char before[512] = "";
            for (size_t i = 0; i < done; i++) {
                size_t used = strlen(before);
                snprintf(before + used, sizeof before - used, "%s%s", i ? ", " : "", s->e[i].path);
            }
            rc = tio__fail(err, errlen, "%s: cannot replace the file: %s%s%s%s", e->path,
                           strerror(en), done ? " (already replaced: " : "", before,
                           done ? ")" : "");
            break;
        }
    }
    for (size_t i = done; i < s->n; i++) /* what a failed rename left */
        unlink(s->e[i].tmp);
    /* Make the renames themselves durable (best effort). */
    for (size_t i = 0; i < done; i++) {
        char *dir = dir_of(s->e[i].o.target);
        int dfd = dir ? open(dir, O_RDONLY) : -1;
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    close_set(s);
    return rc;
}
