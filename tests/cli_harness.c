/* The CLI tests' harness (cli_harness.h). */
#include "cli_harness.h"

#include "test_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char ch_dir[64];
const char *ch_cli;
char ch_out[8192], ch_err[8192];
int ch_timeout_s = 300;

int ch_init(const char *name)
{
    ch_cli = getenv("CLPAD_CLI");
    if (!ch_cli || !*ch_cli) {
        printf("SKIP: CLPAD_CLI is not set (run through ctest)\n");
        exit(TU_SKIP_CODE);
    }
    snprintf(ch_dir, sizeof ch_dir, "/tmp/clpad-%s-XXXXXX", name);
    return mkdtemp(ch_dir) ? 0 : -1;
}

int ch_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", ch_dir);
    return system(cmd) == 0 ? 0 : -1;
}

const char *ch_path(const char *name)
{
    static char bufs[4][512];
    static int next;
    char *b = bufs[next++ % 4];
    snprintf(b, sizeof bufs[0], "%s/%s", ch_dir, name);
    return b;
}

void ch_slurp(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

int ch_run(const char *env, const char *fmt, ...)
{
    char args[4096], cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd,
             "cd %s && timeout %d env %s '%s' %s >%s/ch-stdout.txt 2>%s/ch-stderr.txt </dev/null",
             ch_dir, ch_timeout_s, env ? env : "", ch_cli, args, ch_dir, ch_dir);
    int st = system(cmd);
    ch_slurp(ch_path("ch-stdout.txt"), ch_out, sizeof ch_out);
    ch_slurp(ch_path("ch-stderr.txt"), ch_err, sizeof ch_err);
    unlink(ch_path("ch-stdout.txt"));
    unlink(ch_path("ch-stderr.txt"));
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void ch_save(const char *name, clpad_dtype dt, int rank, const int64_t *shape, const void *data)
{
    tio_tensor t = {.dtype = dt, .rank = rank};
    if (rank > 0)
        memcpy(t.shape, shape, (size_t)rank * sizeof *shape);
    t.nbytes = (size_t)tu_elems(rank, shape) * clpad_dtype_size(dt);
    t.data = (void *)data;
    char err[512];
    if (tio_save(ch_path(name), &t, err, sizeof err))
        fail_msg("%s", err);
}

void ch_load(const char *name, tio_tensor *t)
{
    char err[512];
    if (tio_load(ch_path(name), t, err, sizeof err))
        fail_msg("%s", err);
}

bool ch_exists(const char *name)
{
    struct stat st;
    return stat(ch_path(name), &st) == 0;
}

void ch_expect_error(int rc, int want_rc, const char *needle)
{
    if (rc != want_rc)
        fail_msg("exit %d, want %d; stderr: %s", rc, want_rc, ch_err);
    if (strncmp(ch_err, "clpad: error: ", 14))
        fail_msg("stderr does not start with 'clpad: error: ': %s", ch_err);
    const char *nl = strchr(ch_err, '\n');
    if (!nl || nl[1] != '\0')
        fail_msg("the error is not one line: %s", ch_err);
    if (!strstr(ch_err, needle))
        fail_msg("the error does not mention '%s': %s", needle, ch_err);
}
