/* Device quirks: the one place that knows about an OpenCL implementation's
 * bugs (context.h, clpad__apply_quirks). Each entry names the platform,
 * device and driver versions it applies to, what it works around, how the
 * workaround is made (a launch-policy setting or a build option) and the test
 * that proves it: that test runs a stand-alone reproducer of the bug on the
 * device under test, and when the bug shows, checks that clpad's result is
 * right with the quirk and wrong without it ($CLPAD_QUIRKS=off). docs/devices.md
 * describes each one.
 *
 * Version bounds: a quirk whose bug makes a call fail is bounded by the newest
 * driver it was seen on (a newer driver that still has it is caught at run
 * time: host/device/launch.c falls back to copies). A quirk whose bug gives wrong
 * results silently stays on for every later version until one is proven
 * clean. */
#include "device/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clpad_quirk {
    const char *name;         /* short name, as clpad_context_quirks() lists it */
    const char *platform;     /* substring of CL_PLATFORM_NAME */
    const char *device;       /* substring of CL_DEVICE_NAME; NULL: every device */
    const char *driver_min;   /* CL_DRIVER_VERSION range, inclusive; NULL: open */
    const char *driver_max;
    unsigned effect;          /* CLPAD_QUIRK_* */
    const char *works_around; /* the implementation's bug */
    const char *proven_by;    /* the test that proves the workaround */
};

static const struct clpad_quirk quirks[] = {
    {"map-blocking", "rusticl", NULL, NULL, "22.3.99", CLPAD_QUIRK_MAP_BLOCKING,
     "Mesa rusticl: clEnqueueUnmapMemObject of the pointer a non-blocking "
     "clEnqueueMapBuffer returned fails with CL_INVALID_VALUE until the map has "
     "run (the map registers its pointer only when it executes)",
     "tests/test_impl.c: test_quirk_map_blocking"},
    {"no-mem-fence", "rusticl", NULL, NULL, NULL, CLPAD_QUIRK_NO_MEM_FENCE,
     "Mesa rusticl on llvmpipe: mem_fence() acts as a work-group barrier, so the "
     "work-items of a group that pass it a different number of times (rows of "
     "different lengths, items past the end) stop early and leave output unwritten",
     "tests/test_impl.c: test_quirk_no_mem_fence"},
    {"loop-limit", "rusticl", NULL, NULL, NULL, CLPAD_QUIRK_LOOP_LIMIT,
     "Mesa rusticl on llvmpipe: a work-item stops once its loops have run about 65535 "
     "iterations in all (gallivm's loop limiter), leaving the rest of its output "
     "unwritten: letterbox's pil-* kinds, whose work-items loop over every tap of "
     "every sample (a 400 x 320 image to 64 x 48 with pil-lanczos)",
     "tests/test_impl.c: test_quirk_loop_limit"},
    {"no-restrict", "Oclgrind", NULL, NULL, "21.10", CLPAD_QUIRK_NO_RESTRICT,
     "Oclgrind: a kernel whose inlined functions take restrict pointers holds "
     "llvm.experimental.noalias.scope.decl calls, which the simulator cannot run "
     "(clCreateKernel fails with CL_INVALID_KERNEL_NAME)",
     "tests/test_impl.c: test_quirk_no_restrict"},
    {"no-narrow-switch", "Oclgrind", NULL, NULL, NULL, CLPAD_QUIRK_NO_NARROW_SWITCH,
     "Oclgrind: an integer truncated to a width that is not a whole number of "
     "bytes keeps its higher bits; the optimizer makes `switch (x & 15)` a switch "
     "on `trunc x to i4`, which then matches no case when x has bits above the "
     "4 (per-axis pad modes of rank 3 and up: outer rows filled as constant)",
     "tests/test_impl.c: test_quirk_no_narrow_switch"},
};

/* Compare the dotted version numbers in two strings ("22.3.6" with "22.3.99",
 * "Oclgrind 21.10" with "21.10"), number by number from the first digit;
 * anything after the numbers is ignored. */
static int version_cmp(const char *a, const char *b)
{
    a += strcspn(a, "0123456789");
    b += strcspn(b, "0123456789");
    for (;;) {
        char *ea, *eb;
        unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
        if (x != y)
            return x < y ? -1 : 1;
        int more_a = *ea == '.' && ea[1] >= '0' && ea[1] <= '9';
        int more_b = *eb == '.' && eb[1] >= '0' && eb[1] <= '9';
        if (!more_a || !more_b)
            return more_a - more_b; /* "1.2" < "1.2.1" */
        a = ea + 1;
        b = eb + 1;
    }
}

/* Whether the comma-separated `list` holds "-" followed by `name`. */
static bool dropped(const char *list, const char *name)
{
    size_t n = strlen(name);
    while (list && *list) {
        size_t len = strcspn(list, ",");
        if (len == n + 1 && list[0] == '-' && !strncmp(list + 1, name, n))
            return true;
        list += len + (list[len] == ',');
    }
    return false;
}

void clpad__apply_quirks(clpad_context *ctx)
{
    ctx->quirks = 0;
    ctx->quirk_names[0] = '\0';
    /* config.quirks ($CLPAD_QUIRKS: the tests prove each quirk with it):
     * "off" applies none; "-NAME[,-NAME...]" every quirk but those named. */
    const char *env = ctx->config.quirks;
    if (env && !strcmp(env, "off"))
        return;
    char driver[128] = "";
    clGetDeviceInfo(ctx->device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
    size_t used = 0;
    for (size_t i = 0; i < sizeof quirks / sizeof *quirks; i++) {
        const struct clpad_quirk *q = &quirks[i];
        if (!strstr(ctx->platform_name, q->platform) ||
            (q->device && !strstr(ctx->device_name, q->device)) ||
            (q->driver_min && version_cmp(driver, q->driver_min) < 0) ||
            (q->driver_max && version_cmp(driver, q->driver_max) > 0) || dropped(env, q->name))
            continue;
        ctx->quirks |= q->effect;
        int n = snprintf(ctx->quirk_names + used, sizeof ctx->quirk_names - used, "%s%s",
                         used ? "," : "", q->name);
        if (n > 0 && (size_t)n < sizeof ctx->quirk_names - used)
            used += (size_t)n;
    }
    /* The effects: launch-policy settings and build options. */
    if (ctx->quirks & CLPAD_QUIRK_NO_MEM_FENCE)
        ctx->policy.nt_output_bytes = 0; /* no streaming stores: their fence is mem_fence */
}

const char *clpad__quirk_options(const clpad_context *ctx)
{
    static const char *const options[4] = {"", " -DCLPAD_NO_RESTRICT", " -DCLPAD_NO_NARROW_SWITCH",
                                           " -DCLPAD_NO_RESTRICT -DCLPAD_NO_NARROW_SWITCH"};
    return options[((ctx->quirks & CLPAD_QUIRK_NO_RESTRICT) ? 1 : 0) +
                   ((ctx->quirks & CLPAD_QUIRK_NO_NARROW_SWITCH) ? 2 : 0)];
}

const char *clpad_context_quirks(const clpad_context *ctx)
{
    return ctx && !ctx->fallback ? ctx->quirk_names : "";
}
