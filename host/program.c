/* Kernel sources (embedded or from $CLPAD_KERNEL_DIR), program build, the
 * per-context cache of programs and kernels, and warm-up. */
#include "context.h"
#include "pad_plan.h"
#include "space_batch.h"

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
 * base name) or from $CLPAD_KERNEL_DIR. */
static clpad_status read_kernel_file(const char *file, const char **source, size_t *length,
                                     char **owned)
{
    *owned = NULL;
    const char *dir = getenv("CLPAD_KERNEL_DIR");
    if (dir && *dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, file);
        FILE *f = fopen(path, "rb");
        if (!f)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                               "CLPAD_KERNEL_DIR: cannot open %s", path);
        char *buf = NULL;
        long n = -1;
        if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
            buf = malloc((size_t)n + 1);
        if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            fclose(f);
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "CLPAD_KERNEL_DIR: cannot read %s",
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

clpad_status clpad__kernel_source(const char *family, const char **source, size_t *length,
                                  char **owned)
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
        st = read_kernel_file(files[i], &text[i], &len[i], &own[i]);
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

static void keep_build_log(clpad_context *ctx, cl_program prog, const char *options)
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
    free(ctx->build_log);
    ctx->build_log = log;
}

clpad_status clpad__program(clpad_context *ctx, const char *family, const char *options,
                            cl_program *program)
{
    for (int i = 0; i < ctx->nprograms; i++) {
        if (!strcmp(ctx->programs[i].family, family) && !strcmp(ctx->programs[i].options, options)) {
            *program = ctx->programs[i].program;
            return CLPAD_OK;
        }
    }
    if (ctx->nprograms == CLPAD_MAX_PROGRAMS)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED, "program cache full (%d variants)",
                           CLPAD_MAX_PROGRAMS);
    const char *src;
    size_t len;
    char *owned;
    clpad_status st = clpad__kernel_source(family, &src, &len, &owned);
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
            free(owned);
            keep_build_log(ctx, prog, full);
            clReleaseProgram(prog);
            return clpad__fail(clpad_status_from_cl(err),
                               "building kernels/%s.cl with '%s' on %s failed: %s (%d); see "
                               "clpad_context_build_log()",
                               family, full, ctx->device_name, clpad_cl_error_name(err), (int)err);
        }
        clpad__disk_cache_store(ctx, prog, src, len, full);
    }
    free(owned);
    struct clpad_program_entry *e = &ctx->programs[ctx->nprograms++];
    snprintf(e->family, sizeof e->family, "%s", family);
    snprintf(e->options, sizeof e->options, "%s", options);
    e->program = prog;
    *program = prog;
    return CLPAD_OK;
}

clpad_status clpad__kernel(clpad_context *ctx, const char *family, const char *options,
                           const char *name, struct clpad_kernel_entry **kernel)
{
    cl_program prog;
    clpad_status st = clpad__program(ctx, family, options, &prog);
    if (st)
        return st;
    for (int i = 0; i < ctx->nkernels; i++) {
        if (ctx->kernels[i].program == prog && !strcmp(ctx->kernels[i].name, name)) {
            *kernel = &ctx->kernels[i];
            return CLPAD_OK;
        }
    }
    if (ctx->nkernels == CLPAD_MAX_KERNELS)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED, "kernel cache full (%d kernels)",
                           CLPAD_MAX_KERNELS);
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    if (!k)
        return clpad__fail_cl(err, "clCreateKernel");
    struct clpad_kernel_entry *e = &ctx->kernels[ctx->nkernels++];
    e->program = prog;
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
    *kernel = e;
    return CLPAD_OK;
}

/* Every program variant of the one-mode calls (clpad_pad, clpad_enqueue_pad);
 * the variants of mixed modes and of large pads build on first use. */
clpad_status clpad_context_warmup(clpad_context *ctx)
{
    clpad__clear_error();
    if (!ctx)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "warmup: context is NULL");
    if (ctx->fallback)
        return CLPAD_OK;
    static const size_t units[] = {1, 2, 4, 8};
    clpad_status st = CLPAD_OK;
    pthread_mutex_lock(&ctx->lock);
    for (size_t u = 0; u < sizeof units / sizeof *units && !st; u++) {
        char opt[CLPAD_OPTIONS_MAX];
        cl_program p;
        for (int m = 0; m < CLPAD_PAD_MODE_COUNT && !st; m++) {
            clpad__pad_options(m, false, units[u], opt, sizeof opt);
            st = clpad__program(ctx, "pad", opt, &p);
        }
        /* space/batch, and its streaming variant where the device has one */
        for (int stream = 0; stream <= (ctx->policy.nt_output_bytes != 0) && !st; stream++) {
            clpad__sb_options(units[u], stream, opt, sizeof opt);
            st = clpad__program(ctx, "space_batch", opt, &p);
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
