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
 * Location: $CLPAD_CACHE_DIR, else $XDG_CACHE_HOME/clpad, else
 * $HOME/.cache/clpad. CLPAD_CACHE_DIR=off turns the cache off. Every failure
 * here is silent: the cache only saves time.
 */
#include "context.h"

#include <errno.h>
#include <fcntl.h>
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

/* The cache directory, or false when the cache is off. */
static bool cache_dir(char *dir, size_t len)
{
    const char *env = getenv("CLPAD_CACHE_DIR");
    if (env && (!strcmp(env, "off") || !strcmp(env, "0")))
        return false;
    if (env && *env)
        snprintf(dir, len, "%s", env);
    else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
        snprintf(dir, len, "%s/clpad", getenv("XDG_CACHE_HOME"));
    else if (getenv("HOME") && *getenv("HOME"))
        snprintf(dir, len, "%s/.cache/clpad", getenv("HOME"));
    else
        return false;
    return true;
}

/* mkdir -p, best effort. */
static void make_dirs(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    }
    mkdir(tmp, 0755);
}

static bool cache_path(const clpad_context *ctx, const char *src, size_t len,
                       const char *options, char *path, size_t plen)
{
    char dir[3800];
    if (!cache_dir(dir, sizeof dir))
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
    snprintf(path, plen, "%s/%016llx%016llx.clbin", dir, (unsigned long long)h[0],
             (unsigned long long)h[1]);
    return true;
}

cl_program clpad__disk_cache_load(clpad_context *ctx, const char *src, size_t len,
                                  const char *options)
{
    char path[4096];
    if (!cache_path(ctx, src, len, options, path, sizeof path))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct cache_header hd;
    unsigned char *bin = NULL;
    cl_program prog = NULL;
    if (fread(&hd, sizeof hd, 1, f) != 1 || memcmp(hd.magic, k_magic, 8) ||
        hd.format != CACHE_FORMAT || hd.length == 0 || hd.length > ((uint64_t)1 << 30))
        goto out;
    bin = malloc((size_t)hd.length);
    if (!bin || fread(bin, 1, (size_t)hd.length, f) != hd.length || fgetc(f) != EOF ||
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
    fclose(f);
    return prog;
}

void clpad__disk_cache_store(clpad_context *ctx, cl_program prog, const char *src, size_t len,
                             const char *options)
{
    char path[4096];
    if (!cache_path(ctx, src, len, options, path, sizeof path))
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
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    make_dirs(dir);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(bin);
        return;
    }
    struct cache_header hd = {.format = CACHE_FORMAT, .length = blen};
    memcpy(hd.magic, k_magic, 8);
    hd.checksum = fnv1a(0xCBF29CE484222325ull, bin, blen);
    bool ok = write(fd, &hd, sizeof hd) == (ssize_t)sizeof hd &&
              write(fd, bin, blen) == (ssize_t)blen;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
    free(bin);
}
