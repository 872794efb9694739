/* Path lists (include/clpad_stream.h): files, directories walked
 * recursively, @lists and glob patterns into one ordered list of files. */
#define _XOPEN_SOURCE 700
#include "core/core.h"
#include "../../io/open_read.h"

#include "clpad_stream.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct clpad_path_list {
    char **paths;
    size_t n, cap;
};

/* The longest @list read (a list of a million paths fits). */
#define PATHS_MAX_LIST_BYTES ((size_t)256 << 20)

static const char *const image_ext[] = {".png", ".jpg", ".jpeg", ".jpe",
                                        ".bmp", ".pgm", ".ppm", ".pnm"};

static bool is_image_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot)
        return false;
    for (size_t i = 0; i < sizeof image_ext / sizeof *image_ext; i++)
        if (!strcasecmp(dot, image_ext[i]))
            return true;
    return false;
}

static clpad_status oom(void)
{
    return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "paths: out of memory");
}

/* Append a copy of `path` (or take `owned`). */
static clpad_status push(clpad_path_list *l, const char *path, char *owned)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **p = realloc(l->paths, cap * sizeof *p);
        if (!p) {
            free(owned);
            return oom();
        }
        l->paths = p;
        l->cap = cap;
    }
    char *s = owned ? owned : strdup(path);
    if (!s)
        return oom();
    l->paths[l->n++] = s;
    return CLPAD_OK;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    bool slash = a > 0 && dir[a - 1] != '/';
    char *s = malloc(a + slash + b + 1);
    if (s) {
        memcpy(s, dir, a);
        if (slash)
            s[a] = '/';
        memcpy(s + a + slash, name, b + 1);
    }
    return s;
}

/* The directories being walked (device and inode), against loops; and
 * every directory walked so far below the argument, with the path it was
 * first reached by (an open-addressed table), so that none is walked
 * twice: links to directories can otherwise make a walk exponential (a
 * chain of directories each holding two links to the next: 2^depth paths
 * to one image, a hang from a few bytes of links). */
typedef struct walk_seen {
    dev_t dev;
    ino_t ino;
    char *path; /* NULL: a free slot */
} walk_seen;

typedef struct walk_stack {
    dev_t dev[64];
    ino_t ino[64];
    int depth;
    walk_seen *seen;
    size_t nseen, cap; /* cap: 0 or a power of two */
} walk_stack;

static void walk_free(walk_stack *ws)
{
    for (size_t i = 0; i < ws->cap; i++)
        free(ws->seen[i].path);
    free(ws->seen);
    ws->seen = NULL;
    ws->nseen = ws->cap = 0;
}

static size_t seen_slot(const walk_seen *t, size_t cap, dev_t dev, ino_t ino)
{
    size_t h = ((size_t)ino * 0x9E3779B97F4A7C15u) ^ (size_t)dev;
    size_t i = h & (cap - 1);
    while (t[i].path && !(t[i].dev == dev && t[i].ino == ino))
        i = (i + 1) & (cap - 1);
    return i;
}

/* The path `dir` (dev, ino) was first walked by, or NULL after recording it
 * (*failed set when out of memory). */
static const char *seen_before(walk_stack *ws, dev_t dev, ino_t ino, const char *dir,
                               bool *failed)
{
    *failed = false;
    if (ws->cap) {
        size_t i = seen_slot(ws->seen, ws->cap, dev, ino);
        if (ws->seen[i].path)
            return ws->seen[i].path;
    }
    if (2 * (ws->nseen + 1) > ws->cap) {
        size_t cap = ws->cap ? 2 * ws->cap : 64;
        walk_seen *t = calloc(cap, sizeof *t);
        if (!t) {
            *failed = true;
            return NULL;
        }
        for (size_t k = 0; k < ws->cap; k++)
            if (ws->seen[k].path)
                t[seen_slot(t, cap, ws->seen[k].dev, ws->seen[k].ino)] = ws->seen[k];
        free(ws->seen);
        ws->seen = t;
        ws->cap = cap;
    }
    char *copy = strdup(dir);
    if (!copy) {
        *failed = true;
        return NULL;
    }
    ws->seen[seen_slot(ws->seen, ws->cap, dev, ino)] = (walk_seen){dev, ino, copy};
    ws->nseen++;
    return NULL;
}

/* Every image file below `dir` (appended to l unsorted; the caller sorts
 * the files of one argument). `arg` names the argument in messages. */
static clpad_status walk(clpad_path_list *l, const char *dir, const char *arg, walk_stack *ws)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return clpad__fail(CLPAD_ERR_IO, "%s: %s", dir, strerror(errno));
    for (int i = 0; i < ws->depth; i++)
        if (ws->dev[i] == st.st_dev && ws->ino[i] == st.st_ino)
            return clpad__fail(CLPAD_ERR_IO,
                               "%s: a symbolic link loop (it leads back to a directory being "
                               "walked) below %s",
                               dir, arg);
    if (ws->depth == (int)(sizeof ws->dev / sizeof *ws->dev))
        return clpad__fail(CLPAD_ERR_IO, "%s: directories nested more than %d deep below %s",
                           dir, ws->depth, arg);
    bool failed;
    const char *first = seen_before(ws, st.st_dev, st.st_ino, dir, &failed);
    if (failed)
        return oom();
    if (first)
        return clpad__fail(CLPAD_ERR_IO,
                           "%s: the same directory as %s, reached again through a symbolic "
                           "link below %s; each directory is walked once (its files would be "
                           "listed twice, and links to directories can make a walk endless)",
                           dir, first, arg);
    DIR *d = opendir(dir);
    if (!d)
        return clpad__fail(CLPAD_ERR_IO, "%s: cannot read the directory: %s", dir,
                           strerror(errno));
    ws->dev[ws->depth] = st.st_dev;
    ws->ino[ws->depth] = st.st_ino;
    ws->depth++;
    clpad_status rc = CLPAD_OK;
    for (;;) {
        /* errno cleared before each readdir: NULL with errno set is a read
         * error, and what the entry before left in errno (a dangling link's
         * ENOENT) is not one */
        errno = 0;
        struct dirent *e = readdir(d);
        if (!e) {
            if (errno)
                rc = clpad__fail(CLPAD_ERR_IO, "%s: cannot read the directory: %s", dir,
                                 strerror(errno));
            break;
        }
        if (e->d_name[0] == '.')
            continue; /* ".", "..", and hidden files (e.g. macOS' "._x.jpg") */
        char *p = join(dir, e->d_name);
        if (!p) {
            rc = oom();
            break;
        }
        struct stat es;
        if (stat(p, &es) != 0) {
            /* a dangling link is no image file; anything else is an error */
            if (errno == ENOENT && lstat(p, &es) == 0 && S_ISLNK(es.st_mode)) {
                free(p);
                continue;
            }
            rc = clpad__fail(CLPAD_ERR_IO, "%s: %s", p, strerror(errno));
            free(p);
            break;
        }
        if (S_ISDIR(es.st_mode)) {
            rc = walk(l, p, arg, ws);
            free(p);
        } else if (S_ISREG(es.st_mode) && is_image_name(p)) {
            rc = push(l, NULL, p);
        } else {
            free(p);
        }
        if (rc)
            break;
    }
    closedir(d);
    ws->depth--;
    return rc;
}

/* Sort the paths l->paths[from..n) by bytes. */
static void sort_from(clpad_path_list *l, size_t from)
{
    if (l->n > from + 1)
        qsort(l->paths + from, l->n - from, sizeof *l->paths, cmp_path);
}

static clpad_status expand_dir(clpad_path_list *l, const char *dir, const char *arg)
{
    size_t from = l->n;
    walk_stack ws = {.depth = 0};
    clpad_status rc = walk(l, dir, arg, &ws);
    walk_free(&ws);
    if (rc)
        return rc;
    if (l->n == from)
        return clpad__fail(CLPAD_ERR_IO,
                           "%s: no image file in this directory or below it (.png, .jpg, .jpeg, "
                           ".jpe, .bmp, .pgm, .ppm, .pnm)",
                           arg);
    sort_from(l, from);
    return CLPAD_OK;
}

static bool has_pattern(const char *s) { return strpbrk(s, "*?[") != NULL; }

/* `s` with glob(3)'s special characters escaped (matched as themselves),
 * malloc'd. */
static char *glob_escape(const char *s)
{
    char *e = malloc(2 * strlen(s) + 1), *o = e;
    if (!e)
        return NULL;
    for (; *s; s++) {
        if (strchr("*?[]\\", *s))
            *o++ = '\\';
        *o++ = *s;
    }
    *o = '\0';
    return e;
}

/* The directory glob(3) could not read (glob_error), for the message: per
 * thread, as glob's error callback takes no argument of the caller's. */
static _Thread_local char glob_err_dir[4096];
static _Thread_local int glob_err_errno;

/* A directory of the pattern that cannot be read (EACCES, EIO) ends the
 * expansion, as it ends a directory's walk: glob(3) without it leaves the
 * directory's files out without a word. One that is not there (ENOENT) only
 * matches nothing. */
static int glob_error(const char *dir, int err)
{
    if (err == ENOENT || err == ENOTDIR)
        return 0;
    snprintf(glob_err_dir, sizeof glob_err_dir, "%s", dir);
    glob_err_errno = err;
    return 1;
}

static clpad_status expand_pattern(clpad_path_list *l, const char *pattern, const char *arg)
{
    glob_t g;
    glob_err_errno = 0;
    int r = glob(pattern, 0, glob_error, &g);
    if (r == GLOB_NOMATCH) {
        globfree(&g);
        return clpad__fail(CLPAD_ERR_IO, "%s: no file matches this pattern", arg);
    }
    if (r != 0) {
        globfree(&g);
        if (r == GLOB_NOSPACE)
            return oom();
        if (glob_err_errno)
            return clpad__fail(CLPAD_ERR_IO, "%s: cannot read the directory %s: %s", arg,
                               glob_err_dir, strerror(glob_err_errno));
        return clpad__fail(CLPAD_ERR_IO, "%s: cannot read a directory of the pattern", arg);
    }
    qsort(g.gl_pathv, g.gl_pathc, sizeof *g.gl_pathv, cmp_path);
    size_t from = l->n;
    clpad_status rc = CLPAD_OK;
    for (size_t i = 0; !rc && i < g.gl_pathc; i++) {
        struct stat st;
        const char *p = g.gl_pathv[i];
        if (stat(p, &st) != 0)
            continue; /* a dangling link */
        if (S_ISDIR(st.st_mode)) {
            size_t at = l->n;
            walk_stack ws = {.depth = 0};
            rc = walk(l, p, arg, &ws);
            walk_free(&ws);
            if (!rc)
                sort_from(l, at);
        } else if (S_ISREG(st.st_mode) && is_image_name(p)) {
            rc = push(l, p, NULL);
        }
    }
    globfree(&g);
    if (!rc && l->n == from)
        rc = clpad__fail(CLPAD_ERR_IO, "%s: the pattern matches no image file", arg);
    return rc;
}

/* One argument: a file, a directory or a pattern (in a list: relative to
 * its directory already). `pattern`: the glob(3) pattern to expand when
 * `path` names nothing (NULL: it is no pattern). keep_missing:
 * CLPAD_PATHS_KEEP_MISSING. */
static clpad_status expand_one(clpad_path_list *l, const char *path, const char *pattern,
                               const char *arg, bool keep_missing)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return expand_dir(l, path, arg);
        return push(l, path, NULL); /* the reader says what it is */
    }
    int e = errno;
    if (e == ENOENT && pattern)
        return expand_pattern(l, pattern, arg);
    if (keep_missing && (e == ENOENT || e == ENOTDIR))
        return push(l, path, NULL); /* its reader fails on it */
    struct stat ls;
    if (e == ENOENT && lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode))
        return clpad__fail(CLPAD_ERR_IO, "%s: a symbolic link to a file that does not exist",
                           arg);
    return clpad__fail(CLPAD_ERR_IO, "%s: %s", arg, strerror(e));
}

/* "@FILE": its lines. */
static clpad_status expand_list(clpad_path_list *l, const char *arg, bool keep_missing)
{
    const char *file = arg + 1;
    int fd = tio__open_read(file); /* (a FIFO without a writer: read as empty) */
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return clpad__fail(CLPAD_ERR_IO, "%s: cannot open the list: %s", arg, strerror(e));
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return clpad__fail(CLPAD_ERR_IO, "%s: is a directory, not a list of paths", arg);
    }
    /* the list's directory, for its relative paths */
    const char *slash = strrchr(file, '/');
    char *dir = NULL;
    if (slash) {
        size_t dn = slash == file ? 1 : (size_t)(slash - file);
        dir = malloc(dn + 1);
        if (!dir) {
            fclose(f);
            return oom();
        }
        memcpy(dir, file, dn);
        dir[dn] = '\0';
    }
    /* The whole list first, no more than PATHS_MAX_LIST_BYTES of it: a file
     * with no line end (/dev/zero) is refused there, not read into one line
     * without end. */
    clpad_status rc = CLPAD_OK;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? 2 * cap : 65536;
            if (ncap > PATHS_MAX_LIST_BYTES + 1)
                ncap = PATHS_MAX_LIST_BYTES + 1;
            char *t = realloc(text, ncap + 1); /* + 1: the last line's '\0' */
            if (!t) {
                rc = oom();
                break;
            }
            text = t;
            cap = ncap;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (len > PATHS_MAX_LIST_BYTES) {
            rc = clpad__fail(CLPAD_ERR_TOO_LARGE, "%s: a list longer than %zu MiB", arg,
                             PATHS_MAX_LIST_BYTES >> 20);
            break;
        }
        if (got == 0) {
            if (ferror(f))
                rc = clpad__fail(CLPAD_ERR_IO, "%s: cannot read the list", arg);
            break;
        }
    }
    fclose(f);
    size_t lineno = 0;
    /* a UTF-8 byte order mark before the first line (Windows' Notepad
     * writes one, as it writes "\r\n") is no part of its path */
    size_t start = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    for (size_t pos = start; !rc && pos < len;) {
        char *line = text + pos, *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        pos += n + (nl != NULL);
        lineno++;
        if (memchr(line, '\0', n)) {
            rc = clpad__fail(CLPAD_ERR_BAD_INPUT, "%s: line %zu holds a NUL byte (not a list of "
                                                  "paths)",
                             arg, lineno);
            break;
        }
        line[n] = '\0';
        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        if (n == 0 || line[0] == '#')
            continue;
        char *path = line[0] != '/' && dir ? join(dir, line) : strdup(line);
        /* a pattern line: the list's directory is a name, not a pattern
         * (a list in "set[1]/" with the line "*.png") */
        char *pattern = NULL;
        if (path && has_pattern(line)) {
            if (line[0] != '/' && dir) {
                char *edir = glob_escape(dir);
                pattern = edir ? join(edir, line) : NULL;
                free(edir);
            } else {
                pattern = strdup(path);
            }
            if (!pattern) {
                free(path);
                path = NULL;
            }
        }
        if (!path) {
            rc = oom();
            break;
        }
        char *where = malloc(strlen(arg) + 32 + strlen(path));
        if (!where) {
            free(path);
            rc = oom();
            break;
        }
        sprintf(where, "%s (%s, line %zu)", path, arg, lineno);
        rc = expand_one(l, path, pattern, where, keep_missing);
        free(where);
        free(pattern);
        free(path);
    }
    free(text);
    free(dir);
    return rc;
}

void clpad_path_list_free(clpad_path_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
    free(l);
}

clpad_status clpad_path_list_expand(const char *const *args, size_t n, unsigned flags,
                                    clpad_path_list **out)
{
    clpad__clear_error();
    if (!out)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "path_list_expand: out is NULL");
    *out = NULL;
    if (n && !args)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "path_list_expand: args is NULL");
    if (flags & ~CLPAD_PATHS_KEEP_MISSING)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "path_list_expand: flags 0x%x: unknown bits 0x%x", flags,
                           flags & ~CLPAD_PATHS_KEEP_MISSING);
    bool keep_missing = flags & CLPAD_PATHS_KEEP_MISSING;
    clpad_path_list *l = calloc(1, sizeof *l);
    if (!l)
        return oom();
    clpad_status rc = CLPAD_OK;
    for (size_t i = 0; !rc && i < n; i++) {
        if (!args[i] || !*args[i])
            rc = clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "path_list_expand: args[%zu] is %s", i,
                             args[i] ? "empty" : "NULL");
        else if (args[i][0] == '@' && args[i][1])
            rc = expand_list(l, args[i], keep_missing);
        else
            rc = expand_one(l, args[i], has_pattern(args[i]) ? args[i] : NULL, args[i],
                            keep_missing);
    }
    if (rc) {
        clpad_path_list_free(l);
        return rc;
    }
    *out = l;
    return CLPAD_OK;
}

size_t clpad_path_list_count(const clpad_path_list *l) { return l ? l->n : 0; }

const char *const *clpad_path_list_paths(const clpad_path_list *l)
{
    return l ? (const char *const *)l->paths : NULL;
}
