/*
 * The `clpad` program against hostile use (label hostile): stopped by a
 * signal while it writes, outputs it must not replace, inputs that never
 * end, and command lines that contradict themselves or their input. Runs
 * the built binary ($CLPAD_CLI) in a ch_path directory, without a shell
 * where the signal matters.
 */
#include "cli_harness.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (n)
        assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* A .npy of u8 with the given shape (rank <= 3), values 0, 1, 2, ... */
static void write_npy_u8(const char *name, int rank, const int64_t *shape)
{
    char hdr[128], dims[64] = "";
    size_t count = 1;
    for (int i = 0; i < rank; i++) {
        size_t used = strlen(dims);
        snprintf(dims + used, sizeof dims - used, "%s%lld", i ? ", " : "", (long long)shape[i]);
        count *= (size_t)shape[i];
    }
    int n = snprintf(hdr, sizeof hdr, "{'descr': '|u1', 'fortran_order': False, 'shape': (%s%s), }",
                     dims, rank == 1 ? "," : "");
    unsigned char *b = malloc(10 + (size_t)n + count);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)n;
    b[9] = 0;
    memcpy(b + 10, hdr, (size_t)n);
    for (size_t i = 0; i < count; i++)
        b[10 + n + i] = (unsigned char)i;
    write_file(ch_path(name), b, 10 + (size_t)n + count);
    free(b);
}

static int hidden_files(void)
{
    DIR *d = opendir(ch_dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* ------------------------------------------------------------------------- */
/* Signals while the output is written                                        */
/* ------------------------------------------------------------------------- */

/* Start clpad padding a 1x1 input to a `mib` MiB output (CPU path), wait
 * for its temporary file to appear (inotify), wait `delay_ms` more (0: the
 * signal comes as the file is being created; later: while it is written),
 * send `sig`, and return the
 * child's wait status; *caught tells whether the signal came while the
 * temporary existed. */
static int kill_while_saving(int sig, int mib, int delay_ms, bool *caught)
{
    int in = inotify_init1(IN_CLOEXEC);
    assert_true(in >= 0);
    assert_true(inotify_add_watch(in, ch_dir, IN_CREATE) >= 0);
    char end[64];
    snprintf(end, sizeof end, "%d,%d", mib * 16 - 1, 65535);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* The signals' default actions, whatever the test runner set. */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        if (chdir(ch_dir) != 0)
            _exit(120);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execl(ch_cli, "clpad", "pad", "-q", "--cpu", "-b", "0,0", "-e", end, "one.npy",
              "big.npy", (char *)NULL);
        _exit(121);
    }
    *caught = false;
    char buf[4096] __attribute__((aligned(8)));
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf); /* blocks until a file is created */
        if (n <= 0)
            break;
        bool tmp = false;
        for (char *p = buf; p < buf + n;) {
            struct inotify_event *e = (struct inotify_event *)p;
            tmp |= e->len && !strncmp(e->name, ".big.npy.", 9);
            p += sizeof *e + e->len;
        }
        if (tmp) {
            struct timespec ts = {0, delay_ms * 1000000L};
            nanosleep(&ts, NULL);
            kill(pid, sig);
            *caught = true;
            break;
        }
    }
    close(in);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (*caught && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        *caught = false; /* the save finished before the signal arrived */
    return status;
}

static void test_signal_removes_temporary(void **state)
{
    (void)state;
    write_npy_u8("one.npy", 2, (const int64_t[]){1, 1});
    const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGTERM};
    const int delays[] = {0, 0, 0, 20};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        bool caught = false;
        int status = 0;
        /* 64 MiB, and 256 MiB if the save outran the signal. */
        for (int mib = 64; !caught && mib <= 256; mib *= 4) {
            unlink(ch_path("big.npy"));
            status = kill_while_saving(sigs[k], mib, delays[k], &caught);
        }
        if (!caught)
            fail_msg("signal %d: the save always finished first; cannot test", sigs[k]);
        /* Killed by that signal (the handler re-raised it with the default
         * action), no output, no hidden temporary left behind. */
        if (!WIFSIGNALED(status) || WTERMSIG(status) != sigs[k])
            fail_msg("signal %d: clpad ended with status 0x%x, not by the signal", sigs[k],
                     status);
        assert_int_equal(access(ch_path("big.npy"), F_OK), -1);
        if (hidden_files())
            fail_msg("signal %d left a temporary file in %s", sigs[k], ch_dir);
    }
    unlink(ch_path("one.npy"));
}

/* ------------------------------------------------------------------------- */
/* Outputs and inputs                                                         */
/* ------------------------------------------------------------------------- */

/* OUTPUT is checked before INPUT is read: INPUT here is a FIFO nobody
 * writes (reading it would block until `timeout` kills clpad). */
static void test_output_checked_first(void **state)
{
    (void)state;
    assert_int_equal(mkfifo(ch_path("never.npy"), 0644), 0);
    ch_expect_error(ch_run(NULL, "pad -b 1 -e 1 never.npy no/such/dir/o.npy"), 1, "'no/such/dir'");
    assert_int_equal(mkfifo(ch_path("fifo_out.npy"), 0644), 0);
    ch_expect_error(ch_run(NULL, "pad -b 1 -e 1 never.npy fifo_out.npy"), 1, "is a FIFO");
    assert_int_equal(symlink("missing.npy", ch_path("dangling.npy")), 0);
    ch_expect_error(ch_run(NULL, "space-to-batch -B 1,1 never.npy dangling.npy"), 1, "does not exist");
    unlink(ch_path("never.npy"));
    unlink(ch_path("fifo_out.npy"));
    unlink(ch_path("dangling.npy"));
}

/* /dev/zero named as an input fails at once, by its first bytes. */
static void test_endless_input(void **state)
{
    (void)state;
    assert_int_equal(symlink("/dev/zero", ch_path("z.npy")), 0);
    assert_int_equal(symlink("/dev/zero", ch_path("z.png")), 0);
    ch_expect_error(ch_run(NULL, "pad -b 1 -e 1 z.npy o.npy"), 1, "bad magic");
    ch_expect_error(ch_run(NULL, "pad -b 1,1 -e 1,1 z.png o.png"), 1, "unrecognized signature");
    unlink(ch_path("z.npy"));
    unlink(ch_path("z.png"));
}

/* ------------------------------------------------------------------------- */
/* Command lines that contradict themselves or their input                    */
/* ------------------------------------------------------------------------- */

/* A tiny binary PGM of H x W x 1 (an image: HWC). */
static void write_pgm(const char *name, int h, int w)
{
    char hdr[64];
    int n = snprintf(hdr, sizeof hdr, "P5\n%d %d\n255\n", w, h);
    unsigned char b[256];
    memcpy(b, hdr, (size_t)n);
    for (int i = 0; i < h * w; i++)
        b[n + i] = (unsigned char)(i + 1);
    write_file(ch_path(name), b, (size_t)n + (size_t)(h * w));
}

/* Read back the shape of a .npy the CLI wrote (its header's shape tuple). */
static void npy_shape(const char *name, char *out, size_t len)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", ch_dir, name);
    char buf[256];
    ch_slurp(p, buf, sizeof buf);
    /* (the header text starts at byte 10, after the magic's NUL byte) */
    const char *a = strlen(buf) == 7 ? strstr(buf + 10, "'shape': (") : NULL;
    const char *b = a ? strchr(a, ')') : NULL;
    snprintf(out, len, "%.*s", a && b ? (int)(b - a - 10) : 0, a ? a + 10 : "");
}

/* --same-as on an image: an image is HWC. --layout NHWC names its H and W
 * (as a batch of one); NCHW contradicts it (it padded the wrong axes:
 * NHWC took H as the batch, NCHW padded the channels). */
static void test_same_as_image_layout(void **state)
{
    (void)state;
    write_pgm("img.pgm", 5, 7);
    char shape[64];
    const char *win = "--same-as conv --kernel 3 --stride 1 --tf SAME";
    assert_int_equal(ch_run(NULL, "pad -q %s img.pgm plain.npy", win), 0);
    npy_shape("plain.npy", shape, sizeof shape);
    assert_string_equal(shape, "7, 9, 1");
    assert_int_equal(ch_run(NULL, "pad -q %s --layout NHWC img.pgm nhwc.npy", win), 0);
    npy_shape("nhwc.npy", shape, sizeof shape);
    assert_string_equal(shape, "7, 9, 1");
    ch_expect_error(ch_run(NULL, "pad %s --layout NCHW img.pgm o.npy", win), 2, "HWC (channels last)");
    assert_int_equal(access(ch_path("o.npy"), F_OK), -1);
}

/* Exit status 2 only for what the command line alone shows; what depends
 * on the input is 1. */
static void test_exit_status(void **state)
{
    (void)state;
    write_npy_u8("u8.npy", 2, (const int64_t[]){2, 3});
    write_npy_u8("u8_3d.npy", 3, (const int64_t[]){1, 2, 3});
    ch_expect_error(ch_run(NULL, "pad -b 1,1,1 -e 1,1,1 u8.npy o.npy"), 1, "has rank 2");
    ch_expect_error(ch_run(NULL, "pad --value 300 -b 1,1 -e 1,1 u8.npy o.npy"), 1, "out of range for u8");
    ch_expect_error(ch_run(NULL, "pad --value 3oo -b 1,1 -e 1,1 u8.npy o.npy"), 2, "not a value of any dtype");
    ch_expect_error(ch_run(NULL, "space-to-batch -B 1,1,1 u8.npy o.npy"), 1, "has rank 2");
    ch_expect_error(ch_run(NULL, "pad --same-as conv --kernel 3 --tf SAME u8.npy o.npy"), 1, "rank >= 3");
    /* the window's lists against the input's spatial axes */
    ch_expect_error(ch_run(NULL, "pad --same-as conv --kernel 3,3,3 --tf SAME u8_3d.npy o.npy"), 1,
                 "INPUT has 1 spatial axes");
    ch_expect_error(ch_run(NULL, "shape conv --input 5,5 --kernel 3,3,3 --tf SAME"), 2, "--input has 2 axes");
    ch_expect_error(ch_run(NULL, "pad -b 1,1 u8.npy o.npy"), 2, "--pads-end are required");
    ch_expect_error(ch_run(NULL, "pad -b 1,1 -e 1,1 u8.npy o.bmp"), 2, "o.bmp");
    /* `clpad devices` errors in clpad's form (it printed getopt's) */
    ch_expect_error(ch_run(NULL, "devices --json"), 2, "devices: unknown option '--json'");
    assert_int_equal(access(ch_path("o.npy"), F_OK), -1);
}

/* Spaces around list values: accepted before and after alike (" 1,2" was
 * accepted, "1,2 " refused). */
static void test_list_spaces(void **state)
{
    (void)state;
    write_npy_u8("u8.npy", 2, (const int64_t[]){2, 3});
    char shape[64];
    const char *lists[] = {"' 1,2'", "'1,2 '", "' 1 , 2 '", "'1,\t2'"};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        int rc = ch_run(NULL, "pad -q -b %s -e 0,0 u8.npy s.npy", lists[i]);
        if (rc)
            fail_msg("-b %s: exit %d: %s", lists[i], rc, ch_err);
        npy_shape("s.npy", shape, sizeof shape);
        assert_string_equal(shape, "3, 5");
    }
    ch_expect_error(ch_run(NULL, "pad -b '1,,2' -e 0,0 u8.npy s.npy"), 2, "not a comma-separated list");
    ch_expect_error(ch_run(NULL, "pad -b '1 2' -e 0,0 u8.npy s.npy"), 2, "not a comma-separated list");
    ch_expect_error(ch_run(NULL, "pad -b '1, ' -e 0,0 u8.npy s.npy"), 2, "not a comma-separated list");
}

int main(void)
{
    if (ch_init("cli-hostile"))
        return 1;
    ch_timeout_s = 20; /* a hang fails */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_removes_temporary),
        cmocka_unit_test(test_output_checked_first),
        cmocka_unit_test(test_endless_input),
        cmocka_unit_test(test_same_as_image_layout),
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_list_spaces),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    if (ch_cleanup())
        fprintf(stderr, "could not remove %s\n", ch_dir);
    return rc;
}
