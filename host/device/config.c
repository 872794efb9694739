/* A context's configuration (clpad_context_config, include/clpad.h): its
 * defaults, its checks, and its resolution: the environment variables
 * (read in one function, host/core/environment.c) stand in for the fields a
 * caller leaves alone. */
#include "device/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy a string setting into the context's own storage. */
static clpad_status keep(const char *field, const char *value, char *to, size_t size)
{
    if (!value) {
        to[0] = '\0';
        return CLPAD_OK;
    }
    if (strlen(value) >= size)
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "config", -1,
                           "context config: %s is %zu bytes long, longer than %zu", field,
                           strlen(value), size - 1);
    memcpy(to, value, strlen(value) + 1);
    return CLPAD_OK;
}

clpad_status clpad__config_resolve(clpad_context *ctx, const clpad_context_config *user)
{
    clpad_context_config c;
    clpad_context_config_init(&c);
    /* The defaults' reserved are 0: only a caller's need checking. */
    clpad_status st;
    if (user &&
        (st = clpad__versioned_in(&c, sizeof c, user,
                                  offsetof(clpad_context_config, flags) + sizeof user->flags,
                                  c.reserved, 4, "context config", "config",
                                  "clpad_context_config_init")))
        return st;
    c.size = sizeof c;
    const unsigned known_flags = CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_CPU_ONLY |
                                 CLPAD_CONTEXT_VERBOSE | CLPAD_CONTEXT_DEVICE_ONLY;
    if (c.flags & ~known_flags)
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "config", -1,
                           "context config: unknown flag bits 0x%x in flags 0x%x (known: 0x%x, "
                           "the CLPAD_CONTEXT_* values)",
                           c.flags & ~known_flags, c.flags, known_flags);
    if (c.small_call_bytes < CLPAD_CONFIG_DEFAULT)
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "config", -1,
                           "context config: small_call_bytes = %lld must be >= 0 (or "
                           "CLPAD_CONFIG_DEFAULT)",
                           (long long)c.small_call_bytes);
    struct {
        const char *name;
        int value, max;
    } ints[] = {{"nontemporal", c.nontemporal, CLPAD_NONTEMPORAL_ALWAYS},
                {"exact_fp32", c.exact_fp32, 0},
                {"zero_copy", c.zero_copy, 0},
                {"geometry", c.geometry, CLPAD_GEOMETRY_GPU}};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if (ints[i].value < CLPAD_CONFIG_DEFAULT || ints[i].value > ints[i].max ||
            (ints[i].value == 0 && !strcmp(ints[i].name, "geometry")))
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "config", -1,
                               "context config: %s = %d is not one of its values (docs: "
                               "include/clpad.h, clpad_context_config)",
                               ints[i].name, ints[i].value);
    /* The fields left alone take the environment's values. */
    clpad_environment env;
    clpad__read_environment(&env);
    const clpad_context_config *e = &env.config;
    /* "0" or "1": letterbox's band form never or always on CPU devices,
     * whatever the batch (tests run both forms on the same batches). */
    ctx->lb_band = env.lb_band;
    if (!c.device || !*c.device)
        c.device = e->device;
    if (c.small_call_bytes == CLPAD_CONFIG_DEFAULT)
        c.small_call_bytes = e->small_call_bytes;
    if (c.nontemporal == CLPAD_CONFIG_DEFAULT)
        c.nontemporal = e->nontemporal;
    if (c.exact_fp32 == CLPAD_CONFIG_DEFAULT)
        c.exact_fp32 = e->exact_fp32;
    if (c.zero_copy == CLPAD_CONFIG_DEFAULT)
        c.zero_copy = e->zero_copy;
    if (c.geometry == CLPAD_CONFIG_DEFAULT)
        c.geometry = e->geometry;
    if (!c.max_alloc)
        c.max_alloc = e->max_alloc;
    if (!c.quirks)
        c.quirks = e->quirks;
    if (!c.kernel_dir)
        c.kernel_dir = e->kernel_dir;
    char cache[sizeof ctx->cache_dir];
    const char *cache_dir = c.cache_dir ? c.cache_dir : e->cache_dir;
    if (!cache_dir && env.xdg_cache_home) {
        snprintf(cache, sizeof cache, "%s/clpad", env.xdg_cache_home);
        cache_dir = cache;
    } else if (!cache_dir && env.home) {
        snprintf(cache, sizeof cache, "%s/.cache/clpad", env.home);
        cache_dir = cache;
    } else if (cache_dir && !strcmp(cache_dir, "0")) {
        cache_dir = "off";
    }
    if ((st = keep("device", c.device, ctx->device_spec, sizeof ctx->device_spec)) ||
        (st = keep("quirks", c.quirks, ctx->quirk_spec, sizeof ctx->quirk_spec)) ||
        (st = keep("kernel_dir", c.kernel_dir, ctx->kernel_dir, sizeof ctx->kernel_dir)) ||
        (st = keep("cache_dir", cache_dir ? cache_dir : "off", ctx->cache_dir,
                   sizeof ctx->cache_dir)))
        return st;
    c.device = ctx->device_spec[0] ? ctx->device_spec : NULL;
    c.quirks = c.quirks ? ctx->quirk_spec : NULL;
    c.kernel_dir = c.kernel_dir ? ctx->kernel_dir : NULL;
    c.cache_dir = ctx->cache_dir;
    ctx->config = c;
    return CLPAD_OK;
}
