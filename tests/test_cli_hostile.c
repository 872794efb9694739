/*
 * The `clpad` program against hostile use (label hostile): stopped by a
 * signal while it writes (one output, or a set of outputs that must stay
 * all old or all new), outputs it must not replace, two names for one file,
 * file names that are not UTF-8, inputs that never end, and command lines
 * that contradict themselves or their input. Runs the built binary
 * ($CLPAD_CLI) in a ch_path directory, without a shell where the signal
 * matters.
 *
 * The signal tests run again on the device path (no --cpu), where the
 * OpenCL driver installed its own handlers: test_cli_hostile_device on the
 * default device, test_cli_hostile_pocl and _intel through
 * tests/impl/run.sh (tests/CMakeLists.txt).
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

/* The length of the .npy header of the scratch file `name` (numpy's
 * version 1.0 header: 10 bytes and the 16-bit length at bytes 8-9). */
static size_t npy_header_len(const char *name)
{
    unsigned char h[10] = {0};
    FILE *f = fopen(ch_path(name), "rb");
    assert_non_null(f);
    assert_int_equal(fread(h, 1, sizeof h, f), sizeof h);
    fclose(f);
    assert_int_equal(h[6], 1);
    return 10 + (size_t)(h[8] | h[9] << 8);
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

/* The device runs (test_cli_hostile_device on the default device, and
 * test_cli_hostile_pocl / _intel through tests/impl/run.sh) interrupt clpad
 * on an OpenCL device, whose driver may have installed its own signal
 * handlers (LLVM-based ones do); the plain run uses --cpu. */
static bool g_device;
/* --cpu, or on the device path a second -q (which changes nothing). */
static const char *cpu_flag(void) { return g_device ? "-q" : "--cpu"; }

/* What a kill_when run does: start clpad with `argv` (argv[0] is the
 * program's name) and `env` ("NAME=value" settings, NULL-terminated, or
 * NULL), wait for inotify to report `event` (IN_CREATE, IN_MOVED_TO) on a
 * name starting with `prefix`, wait `delay_ms` more, send `sig`. With
 * `ignored`, clpad starts with `sig` ignored (as under nohup, or a
 * background job's SIGINT). */
typedef struct kill_plan {
    const char *const *argv;
    const char *const *env;
    int sig;
    uint32_t event;
    const char *prefix;
    int delay_ms;
    bool ignored;
} kill_plan;

/* Run a kill_plan; the child's wait status. *caught: the signal was sent
 * (and the run did not end with exit 0 first: then the signal came too
 * late to mean anything; never so with `ignored`). */
static int kill_when(const kill_plan *p, bool *caught)
{
    int in = inotify_init1(IN_CLOEXEC);
    assert_true(in >= 0);
    assert_true(inotify_add_watch(in, ch_dir, p->event) >= 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* The signals' default actions, whatever the test runner set. */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        if (p->ignored)
            signal(p->sig, SIG_IGN);
        for (const char *const *e = p->env; e && *e; e++) {
            char name[64];
            size_t eq = strcspn(*e, "=");
            snprintf(name, sizeof name, "%.*s", (int)eq, *e);
            setenv(name, (*e)[eq] ? *e + eq + 1 : "", 1);
        }
        if (g_device)
            setenv("CLPAD_SMALL_CALL_BYTES", "0", 1); /* the kernel, whatever the size */
        if (chdir(ch_dir) != 0)
            _exit(120);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execv(ch_cli, (char *const *)p->argv);
        _exit(121);
    }
    *caught = false;
    size_t plen = strlen(p->prefix);
    char buf[4096] __attribute__((aligned(8)));
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf); /* blocks until an event */
        if (n <= 0)
            break;
        bool hit = false;
        for (char *q = buf; q < buf + n;) {
            struct inotify_event *e = (struct inotify_event *)q;
            hit |= e->len && !strncmp(e->name, p->prefix, plen);
            q += sizeof *e + e->len;
        }
        if (hit) {
            struct timespec ts = {0, p->delay_ms * 1000000L};
            nanosleep(&ts, NULL);
            kill(pid, p->sig);
            *caught = true;
            break;
        }
    }
    close(in);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (*caught && !p->ignored && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        *caught = false; /* the save finished before the signal arrived */
    return status;
}

/* Padding a 1x1 input to a `mib` MiB output. */
static void pad_big_argv(const char **argv, char *end, size_t len, int mib)
{
    snprintf(end, len, "%d,%d", mib * 16 - 1, 65535);
    const char *a[] = {"clpad", "pad", "-q", cpu_flag(), "-b", "0,0", "-e", end, "one.npy",
                       "big.npy", NULL};
    memcpy(argv, a, sizeof a);
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
            const char *argv[11];
            char end[64];
            pad_big_argv(argv, end, sizeof end, mib);
            kill_plan p = {argv, NULL, sigs[k], IN_CREATE, ".big.npy.", delays[k], false};
            status = kill_when(&p, &caught);
        }
        if (!caught)
            fail_msg("signal %d: the save always finished first; cannot test", sigs[k]);
        /* Killed by that signal (the handler re-raised it with the action
         * it had before), no output, no hidden temporary left behind. */
        if (!WIFSIGNALED(status) || WTERMSIG(status) != sigs[k])
            fail_msg("signal %d: clpad ended with status 0x%x, not by the signal", sigs[k],
                     status);
        assert_int_equal(access(ch_path("big.npy"), F_OK), -1);
        if (hidden_files())
            fail_msg("signal %d left a temporary file in %s", sigs[k], ch_dir);
    }
    unlink(ch_path("one.npy"));
}

/* A signal the program was started with ignored (nohup's SIGHUP, a
 * background job's SIGINT) stays ignored during a save, also once a
 * driver installed its own handler over it: the save completes. */
static void test_ignored_signal_stays_ignored(void **state)
{
    (void)state;
    write_npy_u8("one.npy", 2, (const int64_t[]){1, 1});
    const int sigs[] = {SIGHUP, SIGINT};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        unlink(ch_path("big.npy"));
        const char *argv[11];
        char end[64];
        pad_big_argv(argv, end, sizeof end, 64);
        kill_plan p = {argv, NULL, sigs[k], IN_CREATE, ".big.npy.", 0, true};
        bool caught;
        int status = kill_when(&p, &caught);
        assert_true(caught);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("signal %d, ignored at start: clpad ended with status 0x%x", sigs[k],
                     status);
        struct stat st;
        assert_int_equal(stat(ch_path("big.npy"), &st), 0);
        assert_int_equal(st.st_size, 128 + 64 * 16 * 65536);
        if (hidden_files())
            fail_msg("signal %d (ignored) left a temporary file in %s", sigs[k], ch_dir);
    }
    unlink(ch_path("big.npy"));
    unlink(ch_path("one.npy"));
}

/* Whole-file comparison. */
static bool same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        if (ca != cb)
            same = false;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static void copy_file(const char *from, const char *to)
{
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, to);
    assert_int_equal(system(cmd), 0);
}

/* Run clpad to completion (exit 0 wanted). */
static void run_ok(const char *const *argv)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(ch_dir) != 0)
            _exit(120);
        execv(ch_cli, (char *const *)argv);
        _exit(121);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("%s %s: status 0x%x", argv[1], argv[2], status);
}

/* One interrupted run of a command with several outputs. `outputs` are
 * the output names; `ref` the same command's outputs from a complete run,
 * under the names ref_<output>; the previous run's outputs are in place
 * and kept as old_<output>. After the signal the outputs are all the
 * previous run's or all the new run's (`want`: 'o' old, 'n' new, 0
 * either), with no temporary left behind. */
static void interrupted_set(const char *const *argv, const char *const *outputs, size_t n,
                            const kill_plan *plan, char want)
{
    for (size_t i = 0; i < n; i++) {
        char old[256];
        snprintf(old, sizeof old, "old_%s", outputs[i]);
        copy_file(ch_path(old), ch_path(outputs[i]));
    }
    kill_plan p = *plan;
    p.argv = argv;
    bool caught;
    int status = kill_when(&p, &caught);
    if (!caught)
        fail_msg("%s: the run finished before the signal; cannot test", argv[1]);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != p.sig)
        fail_msg("%s: clpad ended with status 0x%x, not by signal %d", argv[1], status, p.sig);
    char got[16] = "";
    for (size_t i = 0; i < n; i++) {
        char old[256], ref[256];
        snprintf(old, sizeof old, "old_%s", outputs[i]);
        snprintf(ref, sizeof ref, "ref_%s", outputs[i]);
        got[i] = same_bytes(ch_path(outputs[i]), ch_path(old))   ? 'o'
                 : same_bytes(ch_path(outputs[i]), ch_path(ref)) ? 'n'
                                                                 : '?';
    }
    for (size_t i = 0; i < n; i++)
        if (got[i] != (want ? want : got[0]) || got[i] == '?')
            fail_msg("%s, signal %d on %s%s: the outputs are a mix of runs (o old, n new, "
                     "? neither): %s",
                     argv[1], p.sig, p.event == IN_CREATE ? "the creation of " : "the rename to ",
                     p.prefix, got);
    if (hidden_files())
        fail_msg("%s: signal %d left a temporary file in %s", argv[1], p.sig, ch_dir);
    printf("%s, signal %d on %s%s: outputs %s\n", argv[1], p.sig,
           p.event == IN_CREATE ? "the creation of " : "the rename to ", p.prefix, got);
}

/* The argv of a command with its outputs renamed: "X" -> "<prefix>X". */
static void renamed_argv(const char *const *argv, const char *const *outputs, size_t n,
                         const char *prefix, const char **out, char (*bufs)[256])
{
    size_t k = 0, b = 0;
    for (; argv[k]; k++) {
        out[k] = argv[k];
        for (size_t i = 0; i < n; i++)
            if (!strcmp(argv[k], outputs[i])) {
                snprintf(bufs[b], 256, "%s%s", prefix, outputs[i]);
                out[k] = bufs[b++];
            }
    }
    out[k] = NULL;
}

/* Several outputs, all or nothing: letterbox (OUTPUT, --transforms,
 * --preview) and pad-stack (OUTPUT, --shapes-out) interrupted while their
 * temporaries are written (the previous set stays) and while they are
 * renamed (every rename is slowed down by a preloaded shim: the signal is
 * held until the new set is complete, then acted on). */
static void test_signal_keeps_output_sets(void **state)
{
    (void)state;
    const char *shim = getenv("CLPAD_TEST_IO_SHIM");
    if (!shim || !*shim)
        fail_msg("CLPAD_TEST_IO_SHIM (tests/fault/io_shim.c) is not set: run through ctest");
    static char preload[1200], asan[1200];
    snprintf(preload, sizeof preload, "LD_PRELOAD=%s", shim);
    const char *asan_now = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "ASAN_OPTIONS=%s%sverify_asan_link_order=0",
             asan_now ? asan_now : "", asan_now && *asan_now ? ":" : "");
    const char *slow[] = {preload, asan, "CLPAD_TEST_RENAME_DELAY_MS=300", NULL};

    /* letterbox: four images into a 64 MiB f32 batch, with the transforms
     * and a contact sheet; the previous run had another size. */
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "i%d.npy", i);
        write_npy_u8(name, 2, (const int64_t[]){3 + i, 5});
    }
    const char *lb_out[] = {"batch.npy", "boxes.json", "sheet.png"};
    const char *lb_new[] = {"clpad", "letterbox", cpu_flag(), "-q", "--size", "2048,2048",
                            "--transforms", "boxes.json", "--preview", "sheet.png", "i0.npy",
                            "i1.npy", "i2.npy", "i3.npy", "batch.npy", NULL};
    const char *lb_old[] = {"clpad", "letterbox", cpu_flag(), "-q", "--size", "2040,2048",
                            "--transforms", "boxes.json", "--preview", "sheet.png", "i0.npy",
                            "i1.npy", "i2.npy", "i3.npy", "batch.npy", NULL};
    const char *argv[20];
    char bufs[4][256];
    renamed_argv(lb_new, lb_out, 3, "ref_", argv, bufs);
    run_ok(argv);
    renamed_argv(lb_old, lb_out, 3, "old_", argv, bufs);
    run_ok(argv);
    /* While the last temporary (the sheet's) is written: the old set. */
    kill_plan p = {NULL, NULL, SIGTERM, IN_CREATE, ".sheet.png.", 0, false};
    interrupted_set(lb_new, lb_out, 3, &p, 'o');
    /* Once the first output was renamed: the new set. */
    p = (kill_plan){NULL, slow, SIGINT, IN_MOVED_TO, "batch.npy", 0, false};
    interrupted_set(lb_new, lb_out, 3, &p, 'n');

    /* pad-stack: a 64 MiB stack and the shapes; the previous run stacked
     * another input. */
    write_npy_u8("a1.npy", 2, (const int64_t[]){1, 1});
    write_npy_u8("a2.npy", 2, (const int64_t[]){1, 2});
    const char *ps_out[] = {"stack.npy", "lengths.npy"};
    const char *ps_new[] = {"clpad", "pad-stack", cpu_flag(), "-q", "--shape", "8192,8192",
                            "--shapes-out", "lengths.npy", "a1.npy", "stack.npy", NULL};
    const char *ps_old[] = {"clpad", "pad-stack", cpu_flag(), "-q", "--shape", "8192,8192",
                            "--shapes-out", "lengths.npy", "a2.npy", "stack.npy", NULL};
    renamed_argv(ps_new, ps_out, 2, "ref_", argv, bufs);
    run_ok(argv);
    renamed_argv(ps_old, ps_out, 2, "old_", argv, bufs);
    run_ok(argv);
    /* As the last temporary appears (renames slowed down): either set. */
    p = (kill_plan){NULL, slow, SIGHUP, IN_CREATE, ".lengths.npy.", 0, false};
    interrupted_set(ps_new, ps_out, 2, &p, 0);
    p = (kill_plan){NULL, slow, SIGTERM, IN_MOVED_TO, "stack.npy", 0, false};
    interrupted_set(ps_new, ps_out, 2, &p, 'n');
}

/* A disk that fails while a streamed batch is written (io_shim: pwrite at
 * and past an offset fails with EIO): the write error is reported with the
 * output's name, the previous output stays as it was and no temporary is
 * left; whether the failing write is one of the middle batches (written on
 * the CLI's writer thread while the next is made) or the last, and whether
 * it goes through the page cache or, for a 64 MiB output on a disk, around
 * it (O_DIRECT). */
static void test_write_error_mid_output(void **state)
{
    (void)state;
    const char *shim = getenv("CLPAD_TEST_IO_SHIM");
    if (!shim || !*shim)
        fail_msg("CLPAD_TEST_IO_SHIM (tests/fault/io_shim.c) is not set: run through ctest");
    const char *asan_now = getenv("ASAN_OPTIONS");
    char names[40 * 12 + 1] = "";
    for (int i = 0; i < 40; i++) {
        char name[16];
        snprintf(name, sizeof name, "w%02d.npy", i);
        write_npy_u8(name, 2, (const int64_t[]){3 + i % 4, 5});
        strcat(names, name);
        strcat(names, " ");
    }
    write_file(ch_path("out.npy"), "previous", 8);
    const struct {
        const char *size, *inputs;
        long eio_from;
    } runs[] = {
        /* 40 x 256 x 256 f32 (10 MiB) in batches of 16: the second fails */
        {"256,256", names, 6L << 20},
        /* 4 x 2048 x 2048 f32 (64 MiB): one batch, failing half-way */
        {"2048,2048", "w00.npy w01.npy w02.npy w03.npy", 32L << 20},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        char env[2600];
        snprintf(env, sizeof env,
                 "LD_PRELOAD='%s' ASAN_OPTIONS='%s%sverify_asan_link_order=0' "
                 "CLPAD_TEST_PWRITE_EIO_FROM=%ld",
                 shim, asan_now ? asan_now : "", asan_now && *asan_now ? ":" : "",
                 runs[r].eio_from);
        int rc = ch_run(env, "letterbox %s -q --size %s %s out.npy", cpu_flag(), runs[r].size,
                        runs[r].inputs);
        ch_expect_error(rc, 1, "out.npy: write error: Input/output error");
        char got[16];
        ch_slurp(ch_path("out.npy"), got, sizeof got);
        assert_string_equal(got, "previous");
        assert_int_equal(hidden_files(), 0);
        /* without the failure, the same run writes it: the batches that
         * --batch writes one file each (no writer thread), in one */
        assert_int_equal(ch_run(NULL, "letterbox %s -q --size %s %s out.npy", cpu_flag(),
                                runs[r].size, runs[r].inputs), 0);
        assert_int_equal(ch_run(NULL, "letterbox %s -q --size %s --batch 64 %s one.npy",
                                cpu_flag(), runs[r].size, runs[r].inputs), 0);
        tio_tensor t, u;
        ch_load("out.npy", &t);
        ch_load("one-00000.npy", &u);
        /* both through the .npy writer: on a disk the 64 MiB ones with direct
         * writes and a 4096-byte header, each */
        assert_int_equal(npy_header_len("one-00000.npy"), npy_header_len("out.npy"));
        assert_int_equal(t.shape[0], r == 0 ? 40 : 4);
        assert_int_equal(t.nbytes, u.nbytes);
        assert_memory_equal(t.data, u.data, t.nbytes);
        tio_free(&t);
        tio_free(&u);
        unlink(ch_path("one-00000.npy"));
        write_file(ch_path("out.npy"), "previous", 8);
    }
    /* a --batch file failing half-way (64 MiB, direct on a disk): the error
     * names it, and neither it nor a temporary is left */
    char env[2600];
    snprintf(env, sizeof env,
             "LD_PRELOAD='%s' ASAN_OPTIONS='%s%sverify_asan_link_order=0' "
             "CLPAD_TEST_PWRITE_EIO_FROM=%ld",
             shim, asan_now ? asan_now : "", asan_now && *asan_now ? ":" : "", 32L << 20);
    ch_expect_error(ch_run(env, "letterbox %s -q --size 2048,2048 --batch 4 %s one.npy",
                           cpu_flag(), "w00.npy w01.npy w02.npy w03.npy"),
                    1, "one-00000.npy: write error: Input/output error");
    assert_int_equal(access(ch_path("one-00000.npy"), F_OK), -1);
    assert_int_equal(hidden_files(), 0);
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

/* Two outputs of one command that are one file, or an output that is one of
 * the inputs: refused as a usage error before any input is read (the first
 * input is a FIFO nobody writes: reading it would hang until the time
 * limit), nothing written, the existing file untouched. Same inode where the
 * file exists (a symbolic or a hard link); the same resolved path for a new
 * name (through "..", or a linked directory). */
static void test_outputs_name_one_file(void **state)
{
    (void)state;
    assert_int_equal(mkfifo(ch_path("never.npy"), 0644), 0);
    write_npy_u8("x.npy", 2, (const int64_t[]){2, 2});
    write_npy_u8("keep.npy", 2, (const int64_t[]){2, 2});
    write_file(ch_path("boxes.json"), "{}\n", 3);
    assert_int_equal(mkdir(ch_path("sub"), 0755), 0);
    assert_int_equal(symlink(".", ch_path("here")), 0);
    assert_int_equal(symlink("x.npy", ch_path("xl.npy")), 0);
    assert_int_equal(link(ch_path("x.npy"), ch_path("xh.npy")), 0);
    assert_int_equal(symlink("boxes.json", ch_path("sheet.png")), 0);
    assert_int_equal(symlink("x.npy", ch_path("xp.png")), 0);
    static const struct {
        const char *args, *needle;
    } cases[] = {
        /* the case: the batch silently replaced by the shapes */
        {"pad-stack --cpu --shapes-out x.npy never.npy x.npy", "--shapes-out 'x.npy' and OUTPUT"},
        {"pad-stack --cpu --shapes-out sub/../new.npy never.npy new.npy", "the same file"},
        {"pad-stack --cpu --shapes-out here/new.npy never.npy ./new.npy", "the same file"},
        {"pad-stack --cpu --shapes-out xl.npy never.npy x.npy", "the same file"},
        {"pad-stack --cpu --shapes-out xh.npy never.npy x.npy", "the same file"},
        {"letterbox --cpu --size 8,8 --transforms boxes.json --preview sheet.png never.npy "
         "new.npy",
         "--preview 'sheet.png' and --transforms 'boxes.json'"},
        /* an output that is an input */
        {"pad-stack --cpu never.npy x.npy here/x.npy", "OUTPUT 'here/x.npy' is the input 'x.npy'"},
        {"pad-stack --cpu --shapes-out xh.npy never.npy x.npy new.npy", "is the input 'x.npy'"},
        {"letterbox --cpu --size 8,8 --preview xp.png never.npy x.npy new.npy",
         "--preview 'xp.png' is the input 'x.npy'"},
        {"pad --cpu -b 1,1 -e 1,1 x.npy ./x.npy", "is the input"},
        {"pad --cpu -b 1,1 -e 1,1 x.npy xl.npy", "is the input"},
        {"space-to-batch --cpu -B 1,1 x.npy xh.npy", "is the input"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = ch_run(NULL, "%s", cases[i].args);
        if (rc != 2 || !strstr(ch_err, cases[i].needle))
            fail_msg("`clpad %s`: exit %d, want 2 and a message with \"%s\"; stderr: %s",
                     cases[i].args, rc, cases[i].needle, ch_err);
        ch_expect_error(rc, 2, cases[i].needle);
        if (!same_bytes(ch_path("x.npy"), ch_path("keep.npy")))
            fail_msg("`clpad %s` changed x.npy", cases[i].args);
        if (ch_exists("new.npy") || hidden_files())
            fail_msg("`clpad %s` wrote a file", cases[i].args);
    }
    char json[16];
    ch_slurp(ch_path("boxes.json"), json, sizeof json);
    assert_string_equal(json, "{}\n");
    /* One input named twice is fine: nothing writes it. */
    write_npy_u8("y.npy", 2, (const int64_t[]){1, 2});
    if (ch_run(NULL, "pad-stack -q --cpu y.npy ./y.npy here/y.npy st.npy"))
        fail_msg("one input named three times: %s", ch_err);
    const char *names[] = {"never.npy", "x.npy", "keep.npy", "boxes.json", "here", "xl.npy",
                           "xh.npy", "sheet.png", "xp.png", "y.npy", "st.npy"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(ch_path(names[i]));
    rmdir(ch_path("sub"));
}

/* Python's `python3 -c script args...` run in the scratch directory (args
 * NULL-terminated): fails the test unless it exits 0 (121: no python3). */
static void python_check(const char *script, const char *const *args)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(ch_dir) != 0)
            _exit(120);
        const char *py[64] = {"python3", "-c", script};
        size_t n = 3;
        for (size_t i = 0; args[i] && n < 63; i++)
            py[n++] = args[i];
        py[n] = NULL;
        execvp("python3", (char *const *)py);
        _exit(121);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the --transforms JSON failed the strict check (status 0x%x; 121: no python3)",
                 status);
}

/* --transforms with file names that are not UTF-8: the JSON is valid UTF-8
 * all the same (checked by Python's strict decoder and json module); each
 * such name is in "file" with U+FFFD for every byte that is not part of a
 * UTF-8 sequence, and exactly in "file_bytes" (hex). A name that is UTF-8
 * has no "file_bytes". */
static void test_transforms_non_utf8_names(void **state)
{
    (void)state;
    const char *names[] = {"caf\xe9.npy",      /* Latin-1 */
                           "\xff\xfe.npy",     /* never in UTF-8 */
                           "a\xe2\x82.npy",    /* a sequence cut short */
                           "\xed\xa0\x80.npy", /* a surrogate, encoded */
                           "\xc0\xae.npy",     /* overlong */
                           "caf\xc3\xa9 \xe2\x82\xac.npy", /* UTF-8: left as it is */
                           "q\"b\\s.npy"};
    enum { N = sizeof names / sizeof names[0] };
    const char *argv[N + 8] = {"clpad", "letterbox", "--cpu", "-q", "--size", "4,4",
                               "--transforms", "t.json"};
    for (size_t i = 0; i < N; i++) {
        write_npy_u8(names[i], 2, (const int64_t[]){2, 3});
        argv[8 + i] = names[i];
    }
    const char *all[N + 10];
    memcpy(all, argv, (8 + N) * sizeof *argv);
    all[8 + N] = "o.npy";
    all[9 + N] = NULL;
    run_ok(all);
    static const char check[] =
        "import json, os, re, sys\n"
        "raw = open(sys.argv[1], 'rb').read()\n"
        "doc = json.loads(raw.decode('utf-8', 'strict'))\n"
        "names = [os.fsencode(a) for a in sys.argv[2:]]\n"
        "assert len(doc['images']) == len(names), doc\n"
        "for e, name in zip(doc['images'], names):\n"
        "    e['file'].encode('utf-8', 'strict')  # no lone surrogates\n"
        "    text = name.decode('utf-8', 'surrogateescape')\n"
        "    text = re.sub('[\\udc80-\\udcff]', '\\ufffd', text)\n"
        "    assert e['file'] == text, (e, name)\n"
        "    try:\n"
        "        name.decode('utf-8', 'strict')\n"
        "        assert 'file_bytes' not in e, e\n"
        "    except UnicodeDecodeError:\n"
        "        assert bytes.fromhex(e['file_bytes']) == name, (e, name)\n";
    const char *args[N + 2] = {"t.json"};
    for (size_t i = 0; i < N; i++)
        args[1 + i] = names[i];
    args[N + 1] = NULL;
    python_check(check, args);
    for (size_t i = 0; i < N; i++)
        unlink(ch_path(names[i]));
    unlink(ch_path("t.json"));
    unlink(ch_path("o.npy"));
}

/* --on-error skip with a file whose name is not UTF-8 and cannot be read:
 * its "skipped" entry's "error" (the message, which names the file) is
 * valid UTF-8 too, U+FFFD where the name's bytes are not UTF-8; the JSON
 * passes Python's strict decoder. */
static void test_transforms_non_utf8_skipped(void **state)
{
    (void)state;
    const char *bad = "bad\xff\xfe.png";
    write_npy_u8("ok.npy", 3, (const int64_t[]){2, 3, 3});
    write_file(ch_path(bad), "not an image at all", 19);
    const char *argv[] = {"clpad", "letterbox", "--cpu", "-q", "--size", "4,4", "--on-error",
                          "skip", "--transforms", "s.json", "ok.npy", bad, "o.npy", NULL};
    run_ok(argv);
    static const char check[] =
        "import json, sys\n"
        "raw = open(sys.argv[1], 'rb').read()\n"
        "doc = json.loads(raw.decode('utf-8', 'strict'))\n"
        "(e,) = doc['skipped']\n"
        "assert bytes.fromhex(e['file_bytes']) == b'bad\\xff\\xfe.png', e\n"
        "assert e['file'] == 'bad\\ufffd\\ufffd.png', e\n"
        "assert e['error'].startswith('bad\\ufffd\\ufffd.png: cannot decode the image'), e\n";
    python_check(check, (const char *const[]){"s.json", NULL});
    unlink(ch_path(bad));
    unlink(ch_path("ok.npy"));
    unlink(ch_path("s.json"));
    unlink(ch_path("o.npy"));
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

/* An argument that names nothing and has no image extension (a folder's
 * name mistyped, a link to a folder gone): the message says it does not
 * exist (it said "no file extension to tell the format"), with --on-error
 * skip too; nothing written. */
static void test_letterbox_missing_folder(void **state)
{
    (void)state;
    write_pgm("a.pgm", 2, 3);
    assert_int_equal(symlink("gone", ch_path("link")), 0);
    static const struct {
        const char *args, *needle;
    } cases[] = {
        {"letterbox --cpu --size 4,4 photoz o.npy", "photoz: no such file, folder or pattern"},
        {"letterbox --cpu --size 4,4 --on-error skip a.pgm photoz o.npy",
         "photoz: no such file, folder or pattern"},
        {"letterbox --cpu --size 4,4 a.pgm/x o.npy", "a.pgm/x: no such file, folder or pattern"},
        {"letterbox --cpu --size 4,4 link o.npy",
         "link: a symbolic link to a file that does not exist"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = ch_run(NULL, "%s", cases[i].args);
        if (rc != 1 || !strstr(ch_err, cases[i].needle))
            fail_msg("`clpad %s`: exit %d, want 1 and \"%s\"; stderr: %s", cases[i].args, rc,
                     cases[i].needle, ch_err);
        assert_false(ch_exists("o.npy"));
    }
    /* a name of nothing with an image extension is the reader's, as before:
     * an error with fail, skipped with skip */
    ch_expect_error(ch_run(NULL, "letterbox --cpu --size 4,4 gone.png o.npy"), 1, "gone.png");
    if (ch_run(NULL, "letterbox -q --cpu --size 4,4 --on-error skip gone.png a.pgm o.npy"))
        fail_msg("--on-error skip gone.png a.pgm: %s", ch_err);
    /* an existing file of no known type: still the usage error */
    write_file(ch_path("notes.txt"), "x\n", 2);
    ch_expect_error(ch_run(NULL, "letterbox --cpu --size 4,4 notes.txt p.npy"), 2, "'.txt'");
}

/* An @LIST is an input: an output that is the list (by name, through a
 * link, or one of the --batch files) is a usage error and the list stays
 * as it was (`--transforms list.json @list.json` wrote the JSON over it). */
static void test_letterbox_output_is_list(void **state)
{
    (void)state;
    write_pgm("a.pgm", 2, 3);
    static const char list[] = "a.pgm\n";
    write_file(ch_path("list.json"), list, sizeof list - 1);
    write_file(ch_path("list.npy"), list, sizeof list - 1);
    write_file(ch_path("b-00000.npy"), list, sizeof list - 1);
    assert_int_equal(symlink("list.json", ch_path("link.txt")), 0);
    static const struct {
        const char *args, *needle;
    } cases[] = {
        {"letterbox --cpu --size 4,4 --transforms list.json @list.json o.npy",
         "--transforms 'list.json' is the list '@list.json'"},
        {"letterbox --cpu --size 4,4 --transforms list.json @link.txt o.npy",
         "is the list '@link.txt'"},
        {"letterbox --cpu --size 4,4 @list.npy list.npy", "OUTPUT 'list.npy' is the list"},
        {"letterbox --cpu --size 4,4 --batch 1 @b-00000.npy b.npy",
         "OUTPUT 'b-00000.npy' is the list '@b-00000.npy'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = ch_run(NULL, "%s", cases[i].args);
        if (rc != 2 || !strstr(ch_err, cases[i].needle))
            fail_msg("`clpad %s`: exit %d, want 2 and \"%s\"; stderr: %s", cases[i].args, rc,
                     cases[i].needle, ch_err);
        const char *names[] = {"list.json", "list.npy", "b-00000.npy"};
        for (size_t k = 0; k < 3; k++) {
            char got[64];
            ch_slurp(ch_path(names[k]), got, sizeof got);
            if (strcmp(got, list))
                fail_msg("`clpad %s` changed %s", cases[i].args, names[k]);
        }
        assert_false(ch_exists("o.npy"));
    }
    /* a list beside the outputs, none of them: fine */
    if (ch_run(NULL, "letterbox -q --cpu --size 4,4 --transforms t.json @list.json o.npy"))
        fail_msg("@list.json with other outputs: %s", ch_err);
}

/* Before each test: an empty scratch directory (a failed test leaves its
 * files behind). */
static int empty_scratch(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cd '%s' && rm -rf -- * .[!.]* ..?*", ch_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The device runs: clpad must open an OpenCL device (the one run.sh names
 * under the implementation matrix). 0, or the exit code: 77 (skip) when the
 * default device is the CPU fallback, 1 when run.sh's device did not open. */
static int device_preflight(const char *impl)
{
    write_npy_u8("probe.npy", 2, (const int64_t[]){1, 1});
    /* (the first program build: minutes under the sanitizers) */
    ch_timeout_s = 600;
    int rc = ch_run("CLPAD_SMALL_CALL_BYTES=0", "pad -b 1,1 -e 1,1 probe.npy probe_out.npy");
    ch_timeout_s = 20;
    unlink(ch_path("probe.npy"));
    unlink(ch_path("probe_out.npy"));
    const char *line = strstr(ch_err, "clpad: device: ");
    const char *want = impl ? getenv("CLPAD_DEVICE") : NULL;
    if (rc || !line) {
        printf("clpad did not run on a device (exit %d): %s\n", rc, ch_err);
        return 1;
    }
    printf("%.*s", (int)(strcspn(line, "\n") + 1), line);
    if (strstr(line, "CPU reference (no OpenCL)")) {
        if (impl) {
            printf("FAIL: %s: clpad fell back to the CPU path\n", impl);
            return 1;
        }
        printf("SKIP: no OpenCL device: the signals on the device path are not tested\n");
        return TU_SKIP_CODE;
    }
    if (want && !strstr(line, want)) {
        printf("FAIL: %s: clpad did not open \"%s\"\n", impl, want);
        return 1;
    }
    return 0;
}

int main(void)
{
    if (ch_init("cli-hostile"))
        return 1;
    ch_timeout_s = 20; /* a hang fails */
    /* The device runs: tests/impl/run.sh sets CLPAD_TEST_IMPL (PoCL, Intel's
     * runtime); test_cli_hostile_device sets CLPAD_TEST_CLI_DEVICE (the
     * default device). They run the signal tests and the failing disk only,
     * without --cpu. */
    const char *impl = getenv("CLPAD_TEST_IMPL");
    if (impl && !*impl)
        impl = NULL;
    g_device = impl || getenv("CLPAD_TEST_CLI_DEVICE");
    const struct CMUnitTest device_tests[] = {
        cmocka_unit_test_setup(test_signal_removes_temporary, empty_scratch),
        cmocka_unit_test_setup(test_ignored_signal_stays_ignored, empty_scratch),
        cmocka_unit_test_setup(test_signal_keeps_output_sets, empty_scratch),
        cmocka_unit_test_setup(test_write_error_mid_output, empty_scratch),
    };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_signal_removes_temporary, empty_scratch),
        cmocka_unit_test_setup(test_ignored_signal_stays_ignored, empty_scratch),
        cmocka_unit_test_setup(test_signal_keeps_output_sets, empty_scratch),
        cmocka_unit_test_setup(test_write_error_mid_output, empty_scratch),
        cmocka_unit_test_setup(test_outputs_name_one_file, empty_scratch),
        cmocka_unit_test_setup(test_transforms_non_utf8_names, empty_scratch),
        cmocka_unit_test_setup(test_transforms_non_utf8_skipped, empty_scratch),
        cmocka_unit_test_setup(test_output_checked_first, empty_scratch),
        cmocka_unit_test_setup(test_endless_input, empty_scratch),
        cmocka_unit_test_setup(test_same_as_image_layout, empty_scratch),
        cmocka_unit_test_setup(test_exit_status, empty_scratch),
        cmocka_unit_test_setup(test_list_spaces, empty_scratch),
        cmocka_unit_test_setup(test_letterbox_missing_folder, empty_scratch),
        cmocka_unit_test_setup(test_letterbox_output_is_list, empty_scratch),
    };
    int rc;
    if (g_device) {
        rc = device_preflight(impl);
        if (rc == 0)
            rc = cmocka_run_group_tests_name("device path", device_tests, NULL, NULL);
    } else {
        rc = cmocka_run_group_tests(tests, NULL, NULL);
    }
    if (ch_cleanup())
        fprintf(stderr, "could not remove %s\n", ch_dir);
    return rc;
}
