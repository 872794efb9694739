/* On-disk cache of compiled program binaries.
 *
 * Key: a 128-bit hash of the cache format version, the clpad version, the
 * kernel source, the full build options, the device name and version, the
 * driver version and the platform version. File: <dir>/<key>.clbin holding a
 * small header (magic, format version, binary length, hash of the binary)
 * and the binary. Written to a temporary file and renamed, so readers never
 * see a partial file. A missing, corrupt or stale file (wrong magic, length,
 * checksum, or a binary the driver rejects) falls back to compiling from
 * source, and the fresh binary replaces it.
 *
 * Location: the context's cache_dir (clpad_context_config; config.c
 * resolves it: $CLPAD_CACHE_DIR, else $XDG_CACHE_HOME/clpad, else
 * $HOME/.cache/clpad); "off" turns the cache off.
 *
 * Trust: a cached binary is code the device runs (native code on CPU
 * drivers such as PoCL), and its name is predictable. So the directory must
 * be owned by the user (the effective uid) and writable by nobody else (no
 * group or other write bit, sticky or not), and a file is read only when it
 * is a regular file owned by the user and writable by nobody else; it is
 * opened relative to the checked directory, without following a symbolic
 * link and without blocking (a FIFO there must not hang the process). When
 * anything is off, the program is compiled from source, nothing is written
 * into a refused directory, and a context created with
 * CLPAD_CONTEXT_VERBOSE says so once per process on stderr (the library's
 * one channel for such notes). Directories the cache creates get mode 0700,
 * files 0600. Other failures (no directory, no space) are silent: the cache
 * only saves time.
 */
#include "device/context.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_FORMAT 1u
static const char k_magic[8] = {'C', 'L', 'P', 'A', 'D', 'B', 'I', 'N'};

struct cache_header {
    char magic[8];
    uint32_t format;
    uint32_t reserved;
    uint64_t length;
    uint64_t checksum;
};

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001B3ull;
    }
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
    return fnv1a(h, s, strlen(s) + 1); /* the NUL separates fields */
}

/* The cache directory (the context's cache_dir, config.c), or false when
 * the cache is off. */
static bool cache_dir(const clpad_context *ctx, char *dir, size_t len)
{
    const char *d = ctx->config.cache_dir;
    if (!d || !*d || !strcmp(d, "off"))
        return false;
    snprintf(dir, len, "%s", d);
    return true;
}

/* mkdir -p, best effort; new directories are private (0700, as the XDG
 * base directory rules ask). */
static void make_dirs(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0700);
            *p = '/';
        }
    }
    mkdir(tmp, 0700);
}

/* The one note per process about a refused cache (CLPAD_CONTEXT_VERBOSE
 * contexts only). */
static void refuse(const clpad_context *ctx, const char *fmt, ...)
{
    static int said;
    if (!ctx->verbose || __atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        return;
    char what[4400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "clpad: warning: program cache: %s; compiling from source (said once per "
                    "process)\n",
            what);
}

/* What is wrong with a cache entry's owner and mode for the user, or NULL. */
static const char *untrusted(const struct stat *st)
{
    if (st->st_uid != geteuid())
        return "owned by another user";
    if (st->st_mode & (S_IWGRP | S_IWOTH))
        return "writable by group or others";
    return NULL;
}

/* The cache directory opened (a descriptor the entries are opened
 * relative to), or -1: cache off, no directory (silent), or a directory the
 * user does not own alone (said once). `create`: make it first. */
static int open_dir(const clpad_context *ctx, const char *dir, bool create)
{
    if (create)
        make_dirs(dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st) != 0 || (why = untrusted(&st)) != NULL) {
        if (why)
            refuse(ctx, "the directory %s is %s (it must be owned by the user and writable by "
                        "no one else)",
                   dir, why);
        close(fd);
        return -1;
    }
    return fd;
}

/* Move exactly n bytes: read into `in` or, when it is NULL, write from
 * `out`; a signal's interruption is retried, a short transfer continued. */
static bool transfer_full(int fd, unsigned char *in, const unsigned char *out, size_t n)
{
    while (n > 0) {
        ssize_t k = in ? read(fd, in, n) : write(fd, out, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        if (in)
            in += k;
        else
            out += k;
        n -= (size_t)k;
    }
    return true;
}

static bool read_full(int fd, void *buf, size_t n)
{
    return transfer_full(fd, buf, NULL, n);
}

static bool write_full(int fd, const void *buf, size_t n)
{
    return transfer_full(fd, NULL, buf, n);
}

/* The cache directory and the entry's file name in it, or false when the
 * cache is off. */
static bool cache_path(const clpad_context *ctx, const char *src, size_t len,
                       const char *options, char *dir, size_t dlen, char *name, size_t nlen)
{
    if (!cache_dir(ctx, dir, dlen))
        return false;
    char driver[256] = "", dev_version[256] = "", plat_version[256] = "";
    clGetDeviceInfo(ctx->device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
    clGetDeviceInfo(ctx->device, CL_DEVICE_VERSION, sizeof dev_version - 1, dev_version, NULL);
    if (ctx->platform)
        clGetPlatformInfo(ctx->platform, CL_PLATFORM_VERSION, sizeof plat_version - 1,
                          plat_version, NULL);
    uint64_t h[2] = {0xCBF29CE484222325ull, 0x84222325CBF29CE4ull};
    for (int i = 0; i < 2; i++) {
        uint32_t format = CACHE_FORMAT;
        h[i] = fnv1a(h[i], &format, sizeof format);
        h[i] = fnv_str(h[i], CLPAD_VERSION_STRING);
        h[i] = fnv1a(h[i], src, len);
        h[i] = fnv_str(h[i], options);
        h[i] = fnv_str(h[i], ctx->device_name);
        h[i] = fnv_str(h[i], dev_version);
        h[i] = fnv_str(h[i], driver);
        h[i] = fnv_str(h[i], plat_version);
    }
    snprintf(name, nlen, "%016llx%016llx.clbin", (unsigned long long)h[0],
             (unsigned long long)h[1]);
    return true;
}

cl_program clpad__disk_cache_load(clpad_context *ctx, const char *src, size_t len,
                                  const char *options)
{
    char dir[4096], name[64];
    if (!cache_path(ctx, src, len, options, dir, sizeof dir, name, sizeof name))
        return NULL;
    int dfd = open_dir(ctx, dir, false);
    if (dfd < 0)
        return NULL;
    /* No symbolic link, and no wait: a FIFO opens at once (and is refused
     * below); a regular file ignores O_NONBLOCK. */
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    int open_errno = errno;
    close(dfd);
    if (fd < 0) {
        if (open_errno == ELOOP)
            refuse(ctx, "%s/%s is a symbolic link", dir, name);
        else if (open_errno != ENOENT)
            refuse(ctx, "%s/%s cannot be opened: %s", dir, name, strerror(open_errno));
        return NULL;
    }
    struct stat st;
    struct cache_header hd;
    unsigned char *bin = NULL;
    cl_program prog = NULL;
    if (fstat(fd, &st) != 0)
        goto out;
    const char *why = !S_ISREG(st.st_mode) ? "not a regular file" : untrusted(&st);
    if (why) {
        refuse(ctx, "%s/%s is %s", dir, name, why);
        goto out;
    }
    if (!read_full(fd, &hd, sizeof hd) || memcmp(hd.magic, k_magic, 8) ||
        hd.format != CACHE_FORMAT || hd.length == 0 || hd.length > ((uint64_t)1 << 30) ||
        (uint64_t)st.st_size != sizeof hd + hd.length)
        goto out;
    bin = malloc((size_t)hd.length);
    if (!bin || !read_full(fd, bin, (size_t)hd.length) ||
        fnv1a(0xCBF29CE484222325ull, bin, (size_t)hd.length) != hd.checksum)
        goto out;
    size_t blen = (size_t)hd.length;
    const unsigned char *bins[1] = {bin};
    cl_int status = CL_SUCCESS, err;
    prog = clCreateProgramWithBinary(ctx->cl_ctx, 1, &ctx->device, &blen, bins, &status, &err);
    if (prog && (err != CL_SUCCESS || status != CL_SUCCESS ||
                 clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL) != CL_SUCCESS)) {
        clReleaseProgram(prog);
        prog = NULL;
    }
out:
    free(bin);
    close(fd);
    return prog;
}

void clpad__disk_cache_store(clpad_context *ctx, cl_program prog, const char *src, size_t len,
                             const char *options)
{
    char dir[4096], name[64];
    if (!cache_path(ctx, src, len, options, dir, sizeof dir, name, sizeof name))
        return;
    size_t blen = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof blen, &blen, NULL) != CL_SUCCESS ||
        blen == 0)
        return;
    unsigned char *bin = malloc(blen);
    unsigned char *bins[1] = {bin};
    if (!bin || clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
        free(bin);
        return;
    }
    int dfd = open_dir(ctx, dir, true);
    if (dfd < 0) {
        free(bin);
        return;
    }
    /* A fresh private file (never an existing one, never through a link),
     * then renamed over the entry, whatever is there now. */
    static unsigned counter;
    char tmp[128];
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 16; tries++) {
        snprintf(tmp, sizeof tmp, ".tmp-%.32s-%ld-%u", name, (long)getpid(),
                 __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd >= 0) {
        struct cache_header hd = {.format = CACHE_FORMAT, .length = blen};
        memcpy(hd.magic, k_magic, 8);
        hd.checksum = fnv1a(0xCBF29CE484222325ull, bin, blen);
        bool ok = write_full(fd, &hd, sizeof hd) && write_full(fd, bin, blen);
        ok = close(fd) == 0 && ok;
        if (!ok || renameat(dfd, tmp, dfd, name) != 0)
            unlinkat(dfd, tmp, 0);
    }
    close(dfd);
    free(bin);
}
