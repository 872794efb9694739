/* Kernel sources (embedded or from $CLPAD_KERNEL_DIR), program build, and
 * the per-context cache of programs and kernels. (The warm-up, which goes
 * through every operation's variants, is the registry's:
 * host/ops/registry.c.) */
#include "device/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clpad_embedded_kernel {
    const char *name;
    const char *source;
    size_t length;
};
extern const struct clpad_embedded_kernel clpad__embedded_kernels[];

/* One file of kernels/ ("pad.cl", "coords.h"), embedded (looked up by its
 * base name) or from the directory `dir` (the context's kernel_dir). */
static clpad_status read_kernel_file(const char *dir, const char *file, const char **source,
                                     size_t *length, char **owned)
{
    *owned = NULL;
    if (dir && *dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        FILE *f = fopen(path, "rb");
        if (!f)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "kernel_dir (CLPAD_KERNEL_DIR): cannot open %s", path);
        char *buf = NULL;
        long n = -1;
        if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
            buf = malloc((size_t)n + 1);
        if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            fclose(f);
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "kernel_dir (CLPAD_KERNEL_DIR): cannot read %s",
                               path);
        }
        fclose(f);
        buf[n] = '\0';
        *source = *owned = buf;
        *length = (size_t)n;
        return CLPAD_OK;
    }
    size_t base = strcspn(file, ".");
    for (const struct clpad_embedded_kernel *k = clpad__embedded_kernels; k->name; k++) {
        if (strlen(k->name) == base && !strncmp(k->name, file, base)) {
            *source = k->source;
            *length = k->length;
            return CLPAD_OK;
        }
    }
    return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "no embedded kernel file '%s'", file);
}

clpad_status clpad__kernel_source(const char *kernel_dir, const char *family,
                                  const char **source, size_t *length, char **owned)
{
    /* kernels/coords.h and kernels/common.cl, then the family's file, each
     * after a #line that names it, so that a build log's line numbers are
     * each file's own. */
    char family_file[64];
    snprintf(family_file, sizeof family_file, "%s.cl", family);
    const char *files[3] = {"coords.h", "common.cl", family_file};
    const char *text[3];
    size_t len[3];
    char *own[3] = {NULL, NULL, NULL};
    char line[3][96];
    size_t n = 0;
    clpad_status st = CLPAD_OK;
    *owned = NULL;
    for (int i = 0; i < 3 && !st; i++) {
        st = read_kernel_file(kernel_dir, files[i], &text[i], &len[i], &own[i]);
        snprintf(line[i], sizeof line[i], "#line 1 \"kernels/%s\"\n", files[i]);
        if (!st)
            n += strlen(line[i]) + len[i] + 1;
    }
    char *buf = st ? NULL : malloc(n + 1);
    if (buf) {
        size_t at = 0;
        for (int i = 0; i < 3; i++) {
            size_t l = strlen(line[i]);
            memcpy(buf + at, line[i], l);
            memcpy(buf + at + l, text[i], len[i]);
            at += l + len[i];
            buf[at++] = '\n';
        }
        buf[at] = '\0';
    }
    for (int i = 0; i < 3; i++)
        free(own[i]);
    if (st)
        return st;
    if (!buf)
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "kernel source of '%s': out of host memory",
                           family);
    *source = *owned = buf;
    *length = n;
    return CLPAD_OK;
}

char *clpad__build_log_lines(const char *source, const char *log)
{
    static const char tag[] = "<kernel>:";
    size_t count = 0;
    for (const char *p = strstr(log, tag); p; p = strstr(p + 1, tag))
        count++;
    if (!count)
        return NULL;
    /* a tag's replacement: a name of < 64 bytes, ':' and a line number */
    size_t cap = strlen(log) + count * 96 + 1, at = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    for (const char *p = log;;) {
        const char *hit = strstr(p, tag);
        size_t lit = hit ? (size_t)(hit - p) : strlen(p);
        memcpy(out + at, p, lit);
        at += lit;
        if (!hit)
            break;
        p = hit + sizeof tag - 1;
        char *end;
        long line = strtol(p, &end, 10);
        /* the last `#line 1 "name"` before that line (lines from 1) */
        char name[64] = "";
        long marker = 0, l = 1;
        for (const char *q = source; *q && l < line; l++) {
            if (!strncmp(q, "#line 1 \"", 9)) {
                size_t k = strcspn(q + 9, "\"\n");
                if (k < sizeof name) {
                    memcpy(name, q + 9, k);
                    name[k] = '\0';
                    marker = l;
                }
            }
            const char *nl = strchr(q, '\n');
            if (!nl)
                break;
            q = nl + 1;
        }
        if (end == p || *end != ':' || !name[0]) { /* left as it was */
            memcpy(out + at, tag, sizeof tag - 1);
            at += sizeof tag - 1;
            continue;
        }
        at += (size_t)snprintf(out + at, cap - at, "%s:%ld", name, line - marker);
        p = end;
    }
    out[at] = '\0';
    return out;
}

static void keep_build_log(clpad_context *ctx, cl_program prog, const char *options,
                           const char *source)
{
    size_t n = 0;
    clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    const char *fmt = "device: %s\nbuild options: %s\nbuild log:\n";
    size_t head = strlen(fmt) + strlen(ctx->device_name) + strlen(options) + 1;
    char *log = malloc(head + n + 1);
    if (!log)
        return;
    int used = snprintf(log, head, fmt, ctx->device_name, options);
    log[used] = '\0';
    if (n > 0 && clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, n, log + used,
                                       NULL) == CL_SUCCESS)
        log[used + n] = '\0';
    /* A driver that ignores #line (NVIDIA's names the source "<kernel>" and
     * counts the concatenation's lines): each file's own name and line. */
    char *named = clpad__build_log_lines(source, log);
    if (named) {
        free(log);
        log = named;
    }
    free(ctx->build_log);
    ctx->build_log = log;
}

/* ---- The cache: programs by (family, options), each with its kernels ---- */

/* Slots of a new program table (it doubles from there). */
#define PROGRAM_SLOTS_MIN 16

static uint64_t entry_hash(const char *family, const char *options)
{
    uint64_t h = 0xCBF29CE484222325ull; /* FNV-1a; the NUL separates the two */
    for (const char *p = family;; p++) {
        h = (h ^ (unsigned char)*p) * 0x100000001B3ull;
        if (!*p)
            break;
    }
    for (const char *p = options; *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001B3ull;
    return h;
}

/* The slot holding (family, options), or the empty slot where it belongs.
 * The table has at least one empty slot (it is never more than half full). */
static size_t find_slot(const clpad_context *ctx, uint64_t h, const char *family,
                        const char *options)
{
    size_t mask = ctx->program_slots - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        const struct clpad_program_entry *e = ctx->programs[i];
        if (!e || (e->hash == h && !strcmp(e->family, family) && !strcmp(e->options, options)))
            return i;
    }
}

/* Room for one more program: the table doubled when it would be more than
 * half full. */
static clpad_status reserve_slot(clpad_context *ctx)
{
    if (2 * (ctx->nprograms + 1) <= ctx->program_slots)
        return CLPAD_OK;
    size_t n = ctx->program_slots ? 2 * ctx->program_slots : PROGRAM_SLOTS_MIN;
    struct clpad_program_entry **t = calloc(n, sizeof *t);
    if (!t)
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY,
                           "program cache: out of host memory (%zu programs)", ctx->nprograms);
    for (size_t i = 0; i < ctx->program_slots; i++) {
        struct clpad_program_entry *e = ctx->programs[i];
        if (!e)
            continue;
        size_t j = (size_t)e->hash & (n - 1);
        while (t[j])
            j = (j + 1) & (n - 1);
        t[j] = e;
    }
    free(ctx->programs);
    ctx->programs = t;
    ctx->program_slots = n;
    return CLPAD_OK;
}

/* Compile kernels/<family>.cl with `options` (after the context's device
 * options), from the disk cache's binary where it has one. */
static clpad_status build_program(clpad_context *ctx, const char *family, const char *options,
                                  cl_program *program)
{
    const char *src;
    size_t len;
    char *owned;
    clpad_status st = clpad__kernel_source(ctx->config.kernel_dir, family, &src, &len, &owned);
    if (st)
        return st;
    char full[2 * CLPAD_OPTIONS_MAX + 2];
    snprintf(full, sizeof full, "%s %s", ctx->device_options, options);
    cl_program prog = clpad__disk_cache_load(ctx, src, len, full);
    if (!prog) {
        cl_int err;
        prog = clCreateProgramWithSource(ctx->cl_ctx, 1, &src, &len, &err);
        if (!prog) {
            free(owned);
            return clpad__fail_cl(err, "clCreateProgramWithSource");
        }
        err = clBuildProgram(prog, 1, &ctx->device, full, NULL, NULL);
        if (err != CL_SUCCESS) {
            keep_build_log(ctx, prog, full, src);
            free(owned);
            clReleaseProgram(prog);
            return clpad__fail(clpad_status_from_cl(err),
                               "building kernels/%s.cl with '%s' on %s failed: %s (%d); see "
                               "clpad_context_build_log()",
                               family, full, ctx->device_name, clpad_cl_error_name(err), (int)err);
        }
        clpad__disk_cache_store(ctx, prog, src, len, full);
    }
    free(owned);
    *program = prog;
    return CLPAD_OK;
}

/* The cache entry of (family, options), built now if the cache lacks it. */
static clpad_status program_entry(clpad_context *ctx, const char *family, const char *options,
                                  struct clpad_program_entry **entry)
{
    if (strlen(family) >= sizeof (*entry)->family || strlen(options) >= CLPAD_OPTIONS_MAX)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "program '%s' with options '%s': names too long for the cache",
                           family, options);
    uint64_t h = entry_hash(family, options);
    if (ctx->nprograms > 0) {
        struct clpad_program_entry *e = ctx->programs[find_slot(ctx, h, family, options)];
        if (e) {
            *entry = e;
            return CLPAD_OK;
        }
    }
    clpad_status st = reserve_slot(ctx);
    cl_program prog = NULL;
    if (!st)
        st = build_program(ctx, family, options, &prog);
    if (st)
        return st;
    struct clpad_program_entry *e = calloc(1, sizeof *e);
    if (!e) {
        clReleaseProgram(prog);
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "program cache: out of host memory");
    }
    e->hash = h;
    snprintf(e->family, sizeof e->family, "%s", family);
    snprintf(e->options, sizeof e->options, "%s", options);
    e->program = prog;
    ctx->programs[find_slot(ctx, h, family, options)] = e;
    ctx->nprograms++;
    *entry = e;
    return CLPAD_OK;
}

clpad_status clpad__program(clpad_context *ctx, const char *family, const char *options,
                            cl_program *program)
{
    struct clpad_program_entry *e;
    clpad_status st = program_entry(ctx, family, options, &e);
    if (!st)
        *program = e->program;
    return st;
}

clpad_status clpad__kernel(clpad_context *ctx, const char *family, const char *options,
                           const char *name, struct clpad_kernel_entry **kernel)
{
    struct clpad_program_entry *pe;
    clpad_status st = program_entry(ctx, family, options, &pe);
    if (st)
        return st;
    for (struct clpad_kernel_entry *k = pe->kernels; k; k = k->next) {
        if (!strcmp(k->name, name)) {
            *kernel = k;
            return CLPAD_OK;
        }
    }
    if (strlen(name) >= sizeof pe->kernels->name)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "kernel name '%s' too long for the cache",
                           name);
    cl_int err;
    cl_kernel k = clCreateKernel(pe->program, name, &err);
    if (!k)
        return clpad__fail_cl(err, "clCreateKernel");
    struct clpad_kernel_entry *e = calloc(1, sizeof *e);
    if (!e) {
        clReleaseKernel(k);
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "kernel cache: out of host memory");
    }
    e->program = pe->program;
    snprintf(e->name, sizeof e->name, "%s", name);
    e->kernel = k;
    e->max_wg = 0;
    e->wg_multiple = 1;
    clGetKernelWorkGroupInfo(k, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof e->max_wg,
                             &e->max_wg, NULL);
    clGetKernelWorkGroupInfo(k, ctx->device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                             sizeof e->wg_multiple, &e->wg_multiple, NULL);
    if (!e->max_wg)
        e->max_wg = 1;
    if (!e->wg_multiple)
        e->wg_multiple = 1;
    e->next = pe->kernels;
    pe->kernels = e;
    *kernel = e;
    return CLPAD_OK;
}

void clpad__program_cache_free(clpad_context *ctx)
{
    for (size_t i = 0; i < ctx->program_slots; i++) {
        struct clpad_program_entry *e = ctx->programs[i];
        if (!e)
            continue;
        for (struct clpad_kernel_entry *k = e->kernels, *next; k; k = next) {
            next = k->next;
            clReleaseKernel(k->kernel);
            free(k);
        }
        clReleaseProgram(e->program);
        free(e);
    }
    free(ctx->programs);
    ctx->programs = NULL;
    ctx->program_slots = ctx->nprograms = 0;
}
