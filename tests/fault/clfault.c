/* clfault: an OpenCL fault-injection shim for tests. Loaded with LD_PRELOAD,
 * it interposes a few OpenCL entry points, forwards them to the real ICD
 * loader (dlsym(RTLD_NEXT)), and makes the Nth call of one chosen function
 * fail with a chosen error code.
 *
 * Control, either from the environment at load time (for whole programs such
 * as the CLI): CLFAULT_FUNC=clCreateBuffer CLFAULT_N=1 CLFAULT_ERR=-4
 * or in-process through clfault_set() / clfault_count() (looked up with
 * dlsym(RTLD_DEFAULT) by the test). Counting restarts at every clfault_set().
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { F_CREATE_BUFFER, F_BUILD_PROGRAM, F_NDRANGE, F_READ_BUFFER, F_FINISH, F_MAP_BUFFER,
       F_COPY_BUFFER, F_CREATE_KERNEL, F_CREATE_CONTEXT, F_CREATE_QUEUE, F_UNMAP, F_MARKER,
       F_COUNT };
static const char *const k_names[F_COUNT] = {
    "clCreateBuffer", "clBuildProgram", "clEnqueueNDRangeKernel", "clEnqueueReadBuffer",
    "clFinish", "clEnqueueMapBuffer", "clEnqueueCopyBuffer", "clCreateKernel",
    "clCreateContext", "clCreateCommandQueue", "clEnqueueUnmapMemObject",
    "clEnqueueMarkerWithWaitList"};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_func = -1;   /* function to fail */
static long g_n;          /* fail its g_n-th call (1-based); 0: never */
static cl_int g_err;
static long g_calls[F_COUNT];

static int find(const char *name)
{
    for (int i = 0; i < F_COUNT; i++)
        if (name && !strcmp(name, k_names[i]))
            return i;
    return -1;
}

/* Set the fault (func NULL or n 0: none) and reset the call counters. */
__attribute__((visibility("default"))) int clfault_set(const char *func, long n, cl_int err)
{
    pthread_mutex_lock(&g_lock);
    g_func = find(func);
    g_n = n;
    g_err = err;
    memset(g_calls, 0, sizeof g_calls);
    pthread_mutex_unlock(&g_lock);
    return func && g_func < 0 ? -1 : 0;
}

/* Calls of `func` since the last clfault_set(). */
__attribute__((visibility("default"))) long clfault_count(const char *func)
{
    int f = find(func);
    pthread_mutex_lock(&g_lock);
    long n = f < 0 ? -1 : g_calls[f];
    pthread_mutex_unlock(&g_lock);
    return n;
}

__attribute__((constructor)) static void clfault_init(void)
{
    const char *f = getenv("CLFAULT_FUNC"), *n = getenv("CLFAULT_N"), *e = getenv("CLFAULT_ERR");
    if (f && n)
        clfault_set(f, atol(n), e ? (cl_int)atoi(e) : CL_OUT_OF_RESOURCES);
}

/* Count a call of f; true when this call must fail. */
static int hit(int f)
{
    pthread_mutex_lock(&g_lock);
    long c = ++g_calls[f];
    int fail = f == g_func && g_n > 0 && c == g_n;
    pthread_mutex_unlock(&g_lock);
    return fail;
}

static void *real(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p)
        abort();
    return p;
}

#define REAL(name) ((__typeof__(&name))real(#name))

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context c, cl_mem_flags fl, size_t sz, void *p,
                                                cl_int *err)
{
    if (hit(F_CREATE_BUFFER)) {
        if (err)
            *err = g_err;
        return NULL;
    }
    return REAL(clCreateBuffer)(c, fl, sz, p, err);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint n, const cl_device_id *d,
                                               const char *o,
                                               void(CL_CALLBACK *cb)(cl_program, void *), void *u)
{
    if (hit(F_BUILD_PROGRAM))
        return g_err;
    return REAL(clBuildProgram)(p, n, d, o, cb, u);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                                       const size_t *off, const size_t *g,
                                                       const size_t *l, cl_uint ne,
                                                       const cl_event *wl, cl_event *ev)
{
    if (hit(F_NDRANGE))
        return g_err;
    return REAL(clEnqueueNDRangeKernel)(q, k, dim, off, g, l, ne, wl, ev);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool bl,
                                                    size_t off, size_t sz, void *p, cl_uint ne,
                                                    const cl_event *wl, cl_event *ev)
{
    if (hit(F_READ_BUFFER))
        return g_err;
    return REAL(clEnqueueReadBuffer)(q, b, bl, off, sz, p, ne, wl, ev);
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    if (hit(F_FINISH)) {
        REAL(clFinish)(q); /* a real driver error still leaves the queue drained */
        return g_err;
    }
    return REAL(clFinish)(q);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem b, cl_bool bl,
                                                  cl_map_flags fl, size_t off, size_t sz,
                                                  cl_uint ne, const cl_event *wl, cl_event *ev,
                                                  cl_int *err)
{
    if (hit(F_MAP_BUFFER)) {
        if (err)
            *err = g_err;
        return NULL;
    }
    return REAL(clEnqueueMapBuffer)(q, b, bl, fl, off, sz, ne, wl, ev, err);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem s, cl_mem d,
                                                    size_t so, size_t doff, size_t sz, cl_uint ne,
                                                    const cl_event *wl, cl_event *ev)
{
    if (hit(F_COPY_BUFFER))
        return g_err;
    return REAL(clEnqueueCopyBuffer)(q, s, d, so, doff, sz, ne, wl, ev);
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name, cl_int *err)
{
    if (hit(F_CREATE_KERNEL)) {
        if (err)
            *err = g_err;
        return NULL;
    }
    return REAL(clCreateKernel)(p, name, err);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties *pr, cl_uint n,
                                                    const cl_device_id *d,
                                                    void(CL_CALLBACK *cb)(const char *,
                                                                          const void *, size_t,
                                                                          void *),
                                                    void *u, cl_int *err)
{
    if (hit(F_CREATE_CONTEXT)) {
        if (err)
            *err = g_err;
        return NULL;
    }
    return REAL(clCreateContext)(pr, n, d, cb, u, err);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context c, cl_device_id d,
                                                               cl_command_queue_properties p,
                                                               cl_int *err)
{
    if (hit(F_CREATE_QUEUE)) {
        if (err)
            *err = g_err;
        return NULL;
    }
    return REAL(clCreateCommandQueue)(c, d, p, err);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *p,
                                                        cl_uint ne, const cl_event *wl,
                                                        cl_event *ev)
{
    if (hit(F_UNMAP))
        return g_err;
    return REAL(clEnqueueUnmapMemObject)(q, m, p, ne, wl, ev);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint ne,
                                                            const cl_event *wl, cl_event *ev)
{
    if (hit(F_MARKER))
        return g_err;
    return REAL(clEnqueueMarkerWithWaitList)(q, ne, wl, ev);
}
