/* `clpad devices`: list the OpenCL devices and the one chosen by default. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char *type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    if (t & CL_DEVICE_TYPE_CPU)
        return "CPU";
    return "other";
}

int cmd_devices(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {0, 0, 0, 0}};
    int c;
    optind = 1;
    opterr = 0; /* errors in clpad's own form, not getopt's */
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            printf("usage: clpad devices\n\nList the OpenCL devices as P:D (platform:device), "
                   "the form --device and $CLPAD_DEVICE accept.\n");
            return CLI_OK;
        }
        return cli_bad_option("devices", c, argv[optind - 1]);
    }
    if (optind < argc)
        return cli_error(CLI_USAGE, "devices: unexpected argument '%s'", argv[optind]);
    clpad_device_info infos[64];
    clpad_device_info_init(&infos[0]); /* its size: every entry's */
    size_t n = 0;
    if (clpad_devices(infos, 64, &n))
        return cli_error(CLI_FAIL, "%s", clpad_last_error());
    if (n == 0) {
        printf("no OpenCL device found; clpad will use its CPU reference path\n");
        return CLI_OK;
    }
    for (size_t i = 0; i < n && i < 64; i++)
        printf("%u:%u  %-11s %s  [%s; %s; %u compute units; %.1f GiB%s]\n",
               infos[i].platform_index, infos[i].device_index, type_name(infos[i].type),
               infos[i].device_name, infos[i].platform_name, infos[i].device_version,
               infos[i].compute_units, (double)infos[i].global_mem_bytes / (1 << 30),
               infos[i].host_unified_memory ? "; host-unified memory" : "");
    clpad_context *ctx = NULL;
    clpad_context_config config;
    clpad_context_config_init(&config);
    config.flags = CLPAD_CONTEXT_NO_FALLBACK;
    if (clpad_context_create(&config, &ctx) == CLPAD_OK) {
        const char *env = getenv("CLPAD_DEVICE");
        printf("default: %s%s%s\n", clpad_context_device_name(ctx),
               env && *env ? " (from CLPAD_DEVICE=" : "", env && *env ? env : "");
        if (env && *env)
            printf(")\n");
        clpad_context_destroy(ctx);
    } else {
        printf("default: none (%s)\n", clpad_last_error());
    }
    return CLI_OK;
}
