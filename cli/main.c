/* clpad: command-line front end of the library. Dispatches to subcommands. */
#include "cli.h"
#include "tensor_io.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clpad <command> [options]\n"
            "\n"
            "Tensor padding and data movement on OpenCL (OpenVINO Pad-12, SpaceToBatch-2,\n"
            "BatchToSpace-2) with a byte-exact CPU reference path.\n"
            "\n"
            "commands:\n"
            "  pad             pad or crop a .npy tensor or an image\n"
            "  space-to-batch  move spatial blocks into the batch axis\n"
            "  batch-to-space  the inverse move, with crops\n"
            "  shape           output size and padding of conv/deconv/pool windows\n"
            "  letterbox       a batch of images into one detector-ready tensor\n"
            "  preprocess      the same with a classifier's fits (resize, centre crop)\n"
            "  pad-stack       tensors of different shapes into one padded batch\n"
            "  devices         list the OpenCL devices\n"
            "  bench           throughput against the device's copy bandwidth and the CPU\n"
            "\n"
            "options:\n"
            "  -h, --help      show this help (or `clpad <command> --help`)\n"
            "  -V, --version   print the version\n"
            "\n"
            "The device is chosen with --device P:D|NAME or $CLPAD_DEVICE; without an\n"
            "OpenCL device clpad runs the CPU path and says so.\n");
}

/* `clpad bench`: the throughput harness is a program of its own,
 * clpad-bench, installed beside clpad; this runs it with the same
 * arguments (the CLI does not link the harness). */
static int cmd_bench(int argc, char **argv)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return cli_error(CLI_FAIL, "bench: cannot tell where clpad is (/proc/self/exe): %s",
                         strerror(errno));
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%.*s/clpad-bench", slash ? (int)(slash - self) : 1,
             slash ? self : ".");
    argv[0] = "clpad-bench";
    execv(path, argv);
    return cli_error(CLI_FAIL, "bench: cannot run %s: %s (the benchmark program is built and "
                               "installed with the CLI)",
                     path, strerror(errno));
}

int main(int argc, char **argv)
{
    /* Which signals clpad was started with ignored, before an OpenCL driver
     * puts its handlers over them: an output keeps them ignored. */
    tio_signals_init();
    /* A file size limit (ulimit -f) reached while an output is written:
     * SIGXFSZ's default action would end clpad there, leaving the output's
     * temporary file behind; ignored, the write fails with EFBIG and the
     * error path removes the temporaries and names the output. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
        printf("clpad %s\n", clpad_version_string());
        return CLI_OK;
    }
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"pad", cmd_pad},
                {"space-to-batch", cmd_space_to_batch},
                {"batch-to-space", cmd_batch_to_space},
                {"shape", cmd_shape},
                {"devices", cmd_devices},
                {"letterbox", cmd_letterbox},
                {"preprocess", cmd_letterbox},
                {"pad-stack", cmd_pad_stack},
                {"bench", cmd_bench}};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        if (!strcmp(cmd, cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    return cli_error(CLI_USAGE, "unknown command '%s' (try `clpad --help`)", cmd);
}
