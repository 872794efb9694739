/* A measurement aid, not part of the library: preloaded into a program that
 * uses OpenCL, it logs to stderr every program build's options ("BUILD"),
 * every clSetKernelArg ("ARG kernel index size=N =hex bytes"; cl_mem
 * handles and larger arguments without their bytes) and every NDRange
 * launch ("LAUNCH kernel args=N gws=... lws=..."). Two builds of clpad that
 * log the same lines for a bench case run the same kernels the same way.
 *
 *   gcc -shared -fPIC -O2 -o /tmp/launch_trace.so bench/launch_trace.c -ldl
 *   LD_PRELOAD=/tmp/launch_trace.so build/clpad bench --runs 1 --json \
 *       2> trace.txt > /dev/null
 *   python3 bench/launch_trace_diff.py before.txt after.txt
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off,
                              const size_t *gws, const size_t *lws, cl_uint ne,
                              const cl_event *wl, cl_event *ev)
{
    static cl_int (*real)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                          const size_t *, cl_uint, const cl_event *, cl_event *);
    if (!real)
        real = dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
    char name[128] = "?";
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    cl_uint na = 0;
    clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof na, &na, NULL);
    fprintf(stderr, "LAUNCH %s args=%u gws=%zu", name, na, gws[0]);
    for (cl_uint d = 1; d < dim; d++)
        fprintf(stderr, "x%zu", gws[d]);
    fprintf(stderr, " lws=%zu", lws ? lws[0] : 0);
    for (cl_uint d = 1; lws && d < dim; d++)
        fprintf(stderr, "x%zu", lws[d]);
    fprintf(stderr, "\n");
    return real(q, k, dim, off, gws, lws, ne, wl, ev);
}

cl_int clBuildProgram(cl_program p, cl_uint nd, const cl_device_id *d, const char *opts,
                      void (*cb)(cl_program, void *), void *ud)
{
    static cl_int (*real)(cl_program, cl_uint, const cl_device_id *, const char *,
                          void (*)(cl_program, void *), void *);
    if (!real)
        real = dlsym(RTLD_NEXT, "clBuildProgram");
    fprintf(stderr, "BUILD %s\n", opts ? opts : "");
    return real(p, nd, d, opts, cb, ud);
}

cl_int clSetKernelArg(cl_kernel k, cl_uint i, size_t sz, const void *v)
{
    static cl_int (*real)(cl_kernel, cl_uint, size_t, const void *);
    if (!real)
        real = dlsym(RTLD_NEXT, "clSetKernelArg");
    char name[128] = "?";
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    fprintf(stderr, "ARG %s %u size=%zu", name, i, sz);
    if (v && sz <= 64 && sz != sizeof(cl_mem)) {
        fprintf(stderr, " =");
        for (size_t b = 0; b < sz; b++)
            fprintf(stderr, "%02x", ((const unsigned char *)v)[b]);
    }
    fprintf(stderr, "\n");
    return real(k, i, sz, v);
}
