/* The on-disk program cache: binaries are written on first build, reused by
 * a new context, and a corrupt, truncated or stale file falls back to
 * compiling from source with correct results (and is replaced). Entries and
 * a directory the user does not own alone (a FIFO or a symbolic link at an
 * entry's name, a file of another user or writable by others, a directory
 * writable by others or of another user) are not used: the program is
 * compiled from source, and a verbose context says so once per process.
 * Those cases run in a child process (this program, started again) whose
 * stderr is checked, and which is killed if it hangs. */
#include "test_util.h"
#include "pad_seed_cases.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* A child that has not finished in this many seconds hangs (it normally
 * takes well under one). */
enum { CHILD_LIMIT_S = 30 };

static char g_dir[] = "/tmp/clpad-cache-XXXXXX";

static int list_cache(char names[][300], int cap)
{
    DIR *d = opendir(g_dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".clbin") && n < cap)
            snprintf(names[n++], 300, "%s/%s", g_dir, e->d_name);
    if (d)
        closedir(d);
    return n;
}

/* Pad the seed's positive reflect example on a fresh context; whether it
 * is right (false with clpad_last_error() set when a call failed). */
static bool pad_seed(unsigned flags)
{
    clpad_context *ctx = NULL;
    if (tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY | flags,
                             &ctx))
        return false;
    const seed_case *s = &seed_cases[2];
    int32_t out[40];
    bool ok = clpad_pad(ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin, s->pads_end,
                        CLPAD_PAD_OPTIONS(s->mode), NULL, out, sizeof out, NULL) == CLPAD_OK &&
              !memcmp(out, s->expect, sizeof out);
    clpad_context_destroy(ctx);
    return ok;
}

static void pad_on_fresh_context(void)
{
    if (!pad_seed(0))
        fail_msg("pad on a fresh context: %s", clpad_last_error()[0] ? clpad_last_error()
                                                                      : "wrong result");
}

static void test_written_and_reused(void **state)
{
    (void)state;
    char names[16][300];
    assert_int_equal(list_cache(names, 16), 0);
    pad_on_fresh_context();
    int n = list_cache(names, 16);
    assert_int_equal(n, 1); /* one program: reflect */
    struct stat st1, st2;
    assert_int_equal(stat(names[0], &st1), 0);
    assert_true(st1.st_size > 32);
    pad_on_fresh_context(); /* from the cache: same file, untouched */
    assert_int_equal(stat(names[0], &st2), 0);
    assert_int_equal(st1.st_mtime, st2.st_mtime);
    assert_int_equal(list_cache(names, 16), 1);
}

static void corrupt(const char *path, int how)
{
    FILE *f = fopen(path, how == 2 ? "wb" : "r+b");
    assert_non_null(f);
    if (how == 0) { /* flip bytes in the middle of the binary */
        fseek(f, 100, SEEK_SET);
        fputs("garbage garbage garbage", f);
    } else if (how == 1) { /* bad magic */
        fputs("NOTCLPAD", f);
    } else { /* truncated to nothing but part of a header */
        fputs("CLPAD", f);
    }
    fclose(f);
}

static void test_corrupt_files_fall_back(void **state)
{
    (void)state;
    char names[16][300];
    for (int how = 0; how < 3; how++) {
        pad_on_fresh_context();
        assert_int_equal(list_cache(names, 16), 1);
        corrupt(names[0], how);
        pad_on_fresh_context(); /* correct result, compiled from source */
        struct stat st;
        assert_int_equal(stat(names[0], &st), 0);
        assert_true(st.st_size > 32); /* replaced by a good binary */
        pad_on_fresh_context();
    }
}

static void test_off_switch(void **state)
{
    (void)state;
    char names[16][300];
    int n = list_cache(names, 16);
    for (int i = 0; i < n; i++)
        unlink(names[i]);
    setenv("CLPAD_CACHE_DIR", "off", 1);
    pad_on_fresh_context();
    setenv("CLPAD_CACHE_DIR", g_dir, 1);
    assert_int_equal(list_cache(names, 16), 0);
}

/* ---- Entries and directories that are not the user's alone ---------------- */

/* The child: the seed's pad on two fresh contexts (verbose or not), each
 * checked; exit 0 when both are right. */
static int child_main(bool verbose)
{
    alarm(CHILD_LIMIT_S); /* a hang ends the child, and the parent fails */
    for (int i = 0; i < 2; i++) {
        if (!pad_seed(verbose ? CLPAD_CONTEXT_VERBOSE : 0)) {
            fprintf(stderr, "child: pad %d: %s\n", i,
                    clpad_last_error()[0] ? clpad_last_error() : "wrong result");
            return 1;
        }
    }
    return 0;
}

/* Run the child; its stderr into err. Fails the test when it does not exit
 * 0 within CHILD_LIMIT_S seconds. */
static void run_child(bool verbose, char *err, size_t errlen)
{
    char errpath[] = "/tmp/clpad-cache-stderr-XXXXXX";
    int efd = mkstemp(errpath);
    assert_true(efd >= 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    char *argv[] = {"/proc/self/exe", verbose ? "--child-verbose" : "--child-quiet", NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    assert_int_equal(rc, 0);
    struct timespec t0, t, nap = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, WNOHANG)) == 0) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > CHILD_LIMIT_S + 5) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        nanosleep(&nap, NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    ssize_t n = pread(efd, err, errlen - 1, 0);
    err[n > 0 ? n : 0] = '\0';
    close(efd);
    unlink(errpath);
    double secs = (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec);
    if (WIFSIGNALED(status))
        fail_msg("the child was killed by signal %d after %.1f s (%s); stderr: %s",
                 WTERMSIG(status), secs,
                 WTERMSIG(status) == SIGALRM || WTERMSIG(status) == SIGKILL
                     ? "it hung past its time limit"
                     : "it crashed",
                 err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the child failed (status %d); stderr: %s", status, err);
    printf("child (%s): %.2f s\n", verbose ? "verbose" : "quiet", secs);
}

/* `err` holds exactly one warning, and it names `reason`. */
static void expect_one_warning(const char *err, const char *reason)
{
    int n = 0;
    for (const char *s = err; (s = strstr(s, "warning")) != NULL; s++)
        n++;
    if (n != 1 || !strstr(err, reason) || !strstr(err, "compiling from source"))
        fail_msg("want one warning naming '%s', got %d: %s", reason, n, err);
}

/* An empty cache, the directory 0700 and the user's, then one good entry
 * (the reflect program): its path. */
static void fresh_entry(char *key, size_t len)
{
    assert_int_equal(chown(g_dir, geteuid(), getegid()), 0);
    assert_int_equal(chmod(g_dir, 0700), 0);
    char names[16][300];
    int n = list_cache(names, 16);
    for (int i = 0; i < n; i++)
        unlink(names[i]);
    pad_on_fresh_context();
    assert_int_equal(list_cache(names, 16), 1);
    snprintf(key, len, "%s", names[0]);
}

/* The entry is a good regular file of the user's again (the fresh build
 * replaced what was there). */
static void expect_replaced(const char *key)
{
    struct stat st;
    assert_int_equal(lstat(key, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_uid, geteuid());
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_true(st.st_size > 32);
}

static void test_fifo_at_key(void **state)
{
    (void)state;
    char key[300], err[4096];
    fresh_entry(key, sizeof key);
    assert_int_equal(unlink(key), 0);
    assert_int_equal(mkfifo(key, 0600), 0);
    run_child(false, err, sizeof err); /* quiet: nothing on stderr */
    if (err[0])
        fail_msg("a context without CLPAD_CONTEXT_VERBOSE wrote to stderr: %s", err);
    expect_replaced(key);
    assert_int_equal(unlink(key), 0);
    assert_int_equal(mkfifo(key, 0600), 0);
    run_child(true, err, sizeof err);
    expect_one_warning(err, "not a regular file");
    expect_replaced(key);
}

static void test_symlink_at_key(void **state)
{
    (void)state;
    char key[300], err[4096], target[] = "/tmp/clpad-cache-target-XXXXXX";
    fresh_entry(key, sizeof key);
    int fd = mkstemp(target); /* a good binary elsewhere, which must not be read */
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(rename(key, target), 0);
    struct stat before, after;
    assert_int_equal(stat(target, &before), 0);
    assert_int_equal(symlink(target, key), 0);
    run_child(true, err, sizeof err);
    expect_one_warning(err, "symbolic link");
    expect_replaced(key);
    assert_int_equal(stat(target, &after), 0);
    assert_int_equal(after.st_size, before.st_size); /* the link's target untouched */
    assert_int_equal(after.st_mtime, before.st_mtime);
    unlink(target);
}

static void test_entry_writable_by_others(void **state)
{
    (void)state;
    char key[300], err[4096];
    fresh_entry(key, sizeof key);
    assert_int_equal(chmod(key, 0666), 0);
    run_child(true, err, sizeof err);
    expect_one_warning(err, "writable by group or others");
    expect_replaced(key);
}

static void test_entry_of_another_user(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        printf("skipped: only root can give a file to another user\n");
        skip();
    }
    char key[300], err[4096];
    fresh_entry(key, sizeof key);
    assert_int_equal(chown(key, 65534, 65534), 0); /* nobody */
    run_child(true, err, sizeof err);
    expect_one_warning(err, "owned by another user");
    expect_replaced(key);
}

/* A refused directory: nothing read from it, nothing written into it, and
 * one warning for the two contexts of the child. */
static void test_dir_writable_by_others(void **state)
{
    (void)state;
    char key[300], err[4096], names[16][300];
    fresh_entry(key, sizeof key);
    struct stat before, after;
    assert_int_equal(stat(key, &before), 0);
    assert_int_equal(chmod(g_dir, 0777), 0);
    run_child(true, err, sizeof err);
    expect_one_warning(err, "writable by group or others");
    assert_int_equal(chmod(g_dir, 0700), 0);
    assert_int_equal(list_cache(names, 16), 1); /* nothing written */
    assert_int_equal(stat(key, &after), 0);
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_mtime, before.st_mtime);
}

static void test_dir_of_another_user(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        printf("skipped: only root can give a directory to another user\n");
        skip();
    }
    char key[300], err[4096], names[16][300];
    fresh_entry(key, sizeof key);
    struct stat before, after;
    assert_int_equal(stat(key, &before), 0);
    assert_int_equal(chown(g_dir, 65534, 65534), 0);
    run_child(true, err, sizeof err);
    expect_one_warning(err, "owned by another user");
    assert_int_equal(chown(g_dir, geteuid(), getegid()), 0);
    assert_int_equal(list_cache(names, 16), 1);
    assert_int_equal(stat(key, &after), 0);
    assert_int_equal(after.st_ino, before.st_ino);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--child-verbose"))
        return child_main(true);
    if (argc == 2 && !strcmp(argv[1], "--child-quiet"))
        return child_main(false);
    clpad_context_destroy(tu_device_context()); /* SKIP without a device */
    if (!mkdtemp(g_dir))
        return 1;
    setenv("CLPAD_CACHE_DIR", g_dir, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_and_reused),
        cmocka_unit_test(test_corrupt_files_fall_back),
        cmocka_unit_test(test_off_switch),
        cmocka_unit_test(test_fifo_at_key),
        cmocka_unit_test(test_symlink_at_key),
        cmocka_unit_test(test_entry_writable_by_others),
        cmocka_unit_test(test_entry_of_another_user),
        cmocka_unit_test(test_dir_writable_by_others),
        cmocka_unit_test(test_dir_of_another_user),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char names[16][300];
    int n = list_cache(names, 16);
    for (int i = 0; i < n; i++)
        unlink(names[i]);
    rmdir(g_dir);
    return rc;
}
