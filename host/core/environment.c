/* The environment variables clpad reads, all in one function
 * (clpad__read_environment): those that stand in for a context's
 * configuration (clpad_context_config, resolved in host/device/config.c),
 * $CLPAD_THREADS (the CPU path's worker pool, one per process), the
 * measurement switches $CLPAD_LB_BAND and $CLPAD_STREAM_LETTERBOX, and those
 * the default program cache directory is made of. docs/devices.md,
 * "Environment", lists them. In core/, since the pool reads it too. */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

void clpad_context_config_init(clpad_context_config *config)
{
    if (!clpad__sized_init(config, sizeof *config))
        return;
    config->small_call_bytes = CLPAD_CONFIG_DEFAULT;
    config->nontemporal = CLPAD_CONFIG_DEFAULT;
    config->exact_fp32 = CLPAD_CONFIG_DEFAULT;
    config->zero_copy = CLPAD_CONFIG_DEFAULT;
    config->geometry = CLPAD_CONFIG_DEFAULT;
}

/* A number in the environment, or `unset` when the variable is unset or
 * empty. */
static long long env_number(const char *name, long long unset)
{
    const char *v = getenv(name);
    return v && *v ? strtoll(v, NULL, 10) : unset;
}

static const char *env_string(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

void clpad__read_environment(clpad_environment *e)
{
    clpad_context_config *c = &e->config;
    clpad_context_config_init(c);
    c->device = env_string("CLPAD_DEVICE");
    c->small_call_bytes = env_number("CLPAD_SMALL_CALL_BYTES", CLPAD_CONFIG_DEFAULT);
    if (c->small_call_bytes < 0)
        c->small_call_bytes = CLPAD_CONFIG_DEFAULT;
    const char *nt = env_string("CLPAD_NONTEMPORAL");
    c->nontemporal = nt && !strcmp(nt, "off")      ? CLPAD_NONTEMPORAL_OFF
                     : nt && !strcmp(nt, "always") ? CLPAD_NONTEMPORAL_ALWAYS
                                                   : CLPAD_CONFIG_DEFAULT;
    const char *ex = env_string("CLPAD_EXACT_FP32");
    c->exact_fp32 = ex && !strcmp(ex, "0") ? 0 : CLPAD_CONFIG_DEFAULT;
    const char *zc = env_string("CLPAD_ZERO_COPY");
    c->zero_copy = zc && !strcmp(zc, "0") ? 0 : CLPAD_CONFIG_DEFAULT;
    const char *geo = env_string("CLPAD_GEOMETRY");
    c->geometry = geo && !strcmp(geo, "cpu")   ? CLPAD_GEOMETRY_CPU
                  : geo && !strcmp(geo, "gpu") ? CLPAD_GEOMETRY_GPU
                                               : CLPAD_CONFIG_DEFAULT;
    long long ma = env_number("CLPAD_MAX_ALLOC", 0);
    c->max_alloc = ma > 0 ? (uint64_t)ma : 0;
    c->quirks = env_string("CLPAD_QUIRKS");
    c->kernel_dir = env_string("CLPAD_KERNEL_DIR");
    c->cache_dir = env_string("CLPAD_CACHE_DIR");
    long long t = env_number("CLPAD_THREADS", 0);
    e->threads = t > 0 ? (t > 1024 ? 1024 : (int)t) : 0;
    const char *band = env_string("CLPAD_LB_BAND");
    e->lb_band = band && !strcmp(band, "0") ? 0 : band && !strcmp(band, "1") ? 1 : -1;
    const char *sl = env_string("CLPAD_STREAM_LETTERBOX");
    e->stream_letterbox = sl && !strcmp(sl, "image") ? 1 : sl && !strcmp(sl, "batch") ? 2 : 0;
    e->xdg_cache_home = env_string("XDG_CACHE_HOME");
    e->home = env_string("HOME");
}

