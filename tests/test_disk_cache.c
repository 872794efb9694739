/* The on-disk program cache: binaries are written on first build, reused by
 * a new context, and a corrupt, truncated or stale file falls back to
 * compiling from source with correct results (and is replaced). */
#include "test_util.h"
#include "pad_seed_cases.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Pad the seed's positive reflect example on a fresh context and check it. */
static void pad_on_fresh_context(void)
{
    clpad_context *ctx = NULL;
    TU_ASSERT_OK(clpad_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, &ctx));
    const seed_case *s = &seed_cases[2];
    int32_t out[40];
    TU_ASSERT_OK(clpad_pad(ctx, CLPAD_I32, 2, seed_shape, seed_input, s->pads_begin, s->pads_end,
                           s->mode, NULL, out, sizeof out, NULL));
    assert_memory_equal(out, s->expect, sizeof out);
    clpad_context_destroy(ctx);
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

int main(void)
{
    clpad_context_destroy(tu_device_context()); /* SKIP without a device */
    if (!mkdtemp(g_dir))
        return 1;
    setenv("CLPAD_CACHE_DIR", g_dir, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_and_reused),
        cmocka_unit_test(test_corrupt_files_fall_back),
        cmocka_unit_test(test_off_switch),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char names[16][300];
    int n = list_cache(names, 16);
    for (int i = 0; i < n; i++)
        unlink(names[i]);
    rmdir(g_dir);
    return rc;
}
