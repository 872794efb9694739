/* The letterbox stream and path lists (include/clpad_stream.h): paths
 * expanded as documented; batches in input order equal to
 * clpad_letterbox_cpu of the images read one by one, whatever the workers'
 * timing; skipped files reported in order and the first bad file's error
 * with on_error fail (also when a later file fails first); at most two
 * batches of decoded images alive (counted by a reader that tracks them);
 * decode-scaled images letterboxed with the source's geometry; closing
 * early stops the threads and frees every image; several streams at once
 * (ThreadSanitizer runs this test: label concurrency); the device path
 * against the CPU reference. Images are binary PNM files written here. */
#define _GNU_SOURCE /* unshare */
#include "test_util.h"

#include "clpad_stream.h"
#include "device/context.h" /* in_place_reads */

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char g_dir[64];

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", g_dir, name);
}

/* A P6 (C 3) or P5 (C 1) file of h x w random pixels; the pixels (malloc'd)
 * in *px when px is not NULL. */
static void write_pnm(const char *name, int h, int w, int C, uint64_t *rng, unsigned char **px)
{
    char p[512];
    path_of(p, sizeof p, name);
    size_t n = (size_t)h * (size_t)w * (size_t)C;
    unsigned char *d = malloc(n);
    tu_fill(d, n, rng);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fprintf(f, "P%d\n%d %d\n255\n", C == 3 ? 6 : 5, w, h);
    fwrite(d, 1, n, f);
    fclose(f);
    if (px)
        *px = d;
    else
        free(d);
}

static void write_bytes(const char *name, const char *bytes)
{
    char p[512];
    path_of(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(bytes, f);
    fclose(f);
}

static void make_dir(const char *name)
{
    char p[512];
    path_of(p, sizeof p, name);
    assert_int_equal(mkdir(p, 0755), 0);
}

static clpad_context *cpu_context(void)
{
    clpad_context *ctx = NULL;
    TU_ASSERT_OK(tu_context_create(NULL, CLPAD_CONTEXT_CPU_ONLY, &ctx));
    return ctx;
}

/* ---- Path lists ------------------------------------------------------------------ */

static void expect_paths_flags(const char *const *args, size_t n, unsigned flags,
                               const char *const *want, size_t m)
{
    clpad_path_list *l = NULL;
    TU_ASSERT_OK(clpad_path_list_expand(args, n, flags, &l));
    size_t got = clpad_path_list_count(l);
    const char *const *p = clpad_path_list_paths(l);
    for (size_t i = 0; i < got && i < m; i++) {
        char w[512];
        path_of(w, sizeof w, want[i]);
        if (strcmp(p[i], w))
            fail_msg("path %zu: '%s', want '%s'", i, p[i], w);
    }
    if (got != m)
        fail_msg("%zu paths, want %zu", got, m);
    clpad_path_list_free(l);
}

static void expect_paths(const char *const *args, size_t n, const char *const *want, size_t m)
{
    expect_paths_flags(args, n, 0, want, m);
}

static void expect_path_error_flags(const char *arg, unsigned flags, const char *says)
{
    clpad_path_list *l = (clpad_path_list *)&l;
    const char *args[1] = {arg};
    TU_ASSERT_STATUS(clpad_path_list_expand(args, 1, flags, &l), CLPAD_ERR_IO);
    assert_null(l);
    if (!strstr(clpad_last_error(), says))
        fail_msg("'%s': message '%s' does not say '%s'", arg, clpad_last_error(), says);
}

static void expect_path_error(const char *arg, const char *says)
{
    expect_path_error_flags(arg, 0, says);
}

static void test_paths(void **state)
{
    (void)state;
    uint64_t rng = 1;
    make_dir("tree");
    make_dir("tree/b");
    make_dir("tree/a");
    make_dir("tree/.hidden");
    write_pnm("tree/b/2.PNM", 2, 2, 3, &rng, NULL);
    write_pnm("tree/a/1.ppm", 2, 2, 3, &rng, NULL);
    write_pnm("tree/z.pgm", 2, 2, 1, &rng, NULL);
    write_pnm("tree/.hidden/x.ppm", 2, 2, 3, &rng, NULL);
    write_pnm("tree/._z.ppm", 2, 2, 3, &rng, NULL);
    write_bytes("tree/notes.txt", "not an image\n");
    char tree[512], pat[512], list[512], file[512], loop[512], target[512];
    path_of(tree, sizeof tree, "tree");
    /* a directory: recursive, sorted by path bytes, images only, no hidden */
    const char *a1[] = {tree};
    const char *w1[] = {"tree/a/1.ppm", "tree/b/2.PNM", "tree/z.pgm"};
    expect_paths(a1, 1, w1, 3);
    /* a file is kept whatever its extension; duplicates are kept */
    path_of(file, sizeof file, "tree/notes.txt");
    const char *a2[] = {file, tree, file};
    const char *w2[] = {"tree/notes.txt", "tree/a/1.ppm", "tree/b/2.PNM", "tree/z.pgm",
                        "tree/notes.txt"};
    expect_paths(a2, 3, w2, 5);
    /* a pattern: sorted; directories expanded; non-images dropped */
    path_of(pat, sizeof pat, "tree/*");
    expect_paths((const char *[]){pat}, 1, w1, 3);
    /* @list: relative to the list's directory, blank and # lines ignored */
    write_bytes("tree/list.txt", "# photos\nz.pgm\r\n\na\n");
    path_of(list, sizeof list, "tree/list.txt");
    char at[520];
    snprintf(at, sizeof at, "@%s", list);
    const char *w3[] = {"tree/z.pgm", "tree/a/1.ppm"};
    expect_paths((const char *[]){at}, 1, w3, 2);
    /* a UTF-8 byte order mark before the first line is dropped (it was
     * taken as the start of its path: "\xEF\xBB\xBFz.pgm: No such file") */
    write_bytes("tree/bom.txt", "\xEF\xBB\xBFz.pgm\r\na\r\n");
    write_bytes("tree/bom2.txt", "\xEF\xBB\xBF# photos\r\nz.pgm\r\na\r\n");
    path_of(list, sizeof list, "tree/bom.txt");
    snprintf(at, sizeof at, "@%s", list);
    expect_paths((const char *[]){at}, 1, w3, 2);
    path_of(list, sizeof list, "tree/bom2.txt");
    snprintf(at, sizeof at, "@%s", list);
    expect_paths((const char *[]){at}, 1, w3, 2);
    /* errors name the argument */
    path_of(file, sizeof file, "tree/missing.png");
    expect_path_error(file, "missing.png");
    path_of(pat, sizeof pat, "tree/*.jpg");
    expect_path_error(pat, "no file matches");
    write_bytes("tree/bad.txt", "missing.ppm\n");
    path_of(list, sizeof list, "tree/bad.txt");
    snprintf(at, sizeof at, "@%s", list);
    expect_path_error(at, "line 1");
    make_dir("empty");
    path_of(file, sizeof file, "empty");
    expect_path_error(file, "no image file");
    /* a link back to a directory being walked is a loop */
    make_dir("loop");
    path_of(loop, sizeof loop, "loop/back");
    path_of(target, sizeof target, "loop");
    assert_int_equal(symlink(target, loop), 0);
    write_pnm("loop/i.ppm", 2, 2, 3, &rng, NULL);
    expect_path_error(target, "loop");
    /* a list in a directory whose name has glob's special characters: its
     * pattern lines match in that directory, and a name of nothing there is
     * missing (kept with CLPAD_PATHS_KEEP_MISSING), not a pattern matching
     * nothing (the directory's "[1]" was taken as part of the pattern) */
    make_dir("set[1]");
    write_pnm("set[1]/i.ppm", 2, 2, 3, &rng, NULL);
    write_bytes("set[1]/pat.txt", "*.ppm\n");
    write_bytes("set[1]/miss.txt", "i.ppm\nmissing.png\n");
    path_of(list, sizeof list, "set[1]/pat.txt");
    snprintf(at, sizeof at, "@%s", list);
    expect_paths((const char *[]){at}, 1, (const char *[]){"set[1]/i.ppm"}, 1);
    path_of(list, sizeof list, "set[1]/miss.txt");
    snprintf(at, sizeof at, "@%s", list);
    expect_paths_flags((const char *[]){at}, 1, CLPAD_PATHS_KEEP_MISSING,
                       (const char *[]){"set[1]/i.ppm", "set[1]/missing.png"}, 2);
    expect_path_error(at, "missing.png (@");
    expect_path_error(at, "line 2): No such file or directory");
    /* dangling links are no image files, wherever readdir lists them: here
     * last in a folder of nothing else (the ENOENT of their stat was taken
     * for a readdir error at the folder's end: "cannot read the directory") */
    make_dir("dangle");
    make_dir("dangle/sub");
    write_pnm("dangle/i.ppm", 2, 2, 3, &rng, NULL);
    path_of(loop, sizeof loop, "dangle/sub/x.png");
    assert_int_equal(symlink("nowhere.png", loop), 0);
    path_of(loop, sizeof loop, "dangle/sub/y");
    assert_int_equal(symlink("nowhere", loop), 0);
    path_of(target, sizeof target, "dangle");
    expect_paths((const char *[]){target}, 1, (const char *[]){"dangle/i.ppm"}, 1);
    /* a directory reached twice through links (no loop) is an error naming
     * both paths: walked once, not listed twice. A chain of 40 directories
     * each holding two links to the next is 2^40 paths to its one image:
     * refused at once, not walked until the time limit (alarm) */
    make_dir("twice");
    make_dir("twice/all");
    write_pnm("twice/all/i.ppm", 2, 2, 3, &rng, NULL);
    path_of(loop, sizeof loop, "twice/link");
    assert_int_equal(symlink("all", loop), 0);
    path_of(target, sizeof target, "twice");
    expect_path_error(target, "the same directory as");
    char pattern_twice[520];
    snprintf(pattern_twice, sizeof pattern_twice, "%s/*", target);
    /* two arguments (two matches of a pattern) naming one directory: kept */
    const char *wt[] = {"twice/all/i.ppm", "twice/link/i.ppm"};
    expect_paths((const char *[]){pattern_twice}, 1, wt, 2);
    make_dir("chain");
    for (int i = 0; i <= 40; i++) {
        char name[64];
        snprintf(name, sizeof name, "chain/d%d", i);
        make_dir(name);
        for (int k = 0; i < 40 && k < 2; k++) {
            char link[64], to[32];
            snprintf(link, sizeof link, "chain/d%d/%c", i, "ab"[k]);
            snprintf(to, sizeof to, "../d%d", i + 1);
            path_of(loop, sizeof loop, link);
            assert_int_equal(symlink(to, loop), 0);
        }
    }
    write_pnm("chain/d40/i.ppm", 2, 2, 3, &rng, NULL);
    path_of(target, sizeof target, "chain/d0");
    alarm(20);
    expect_path_error(target, "reached again through a symbolic link below");
    alarm(0);
    TU_ASSERT_STATUS(clpad_path_list_expand((const char *[]){tree}, 1, 2, &(clpad_path_list *){0}),
                     CLPAD_ERR_INVALID_ARGUMENT);
    /* CLPAD_PATHS_KEEP_MISSING: names of nothing kept, in place (an
     * argument, a list line, a path through a file, a dangling link);
     * patterns matching nothing and directories without images still fail */
    char missing[512], through[512], dangling[512];
    path_of(missing, sizeof missing, "tree/missing.png");
    path_of(through, sizeof through, "tree/z.pgm/x.png");
    path_of(dangling, sizeof dangling, "tree/dangling.png");
    assert_int_equal(symlink(missing, dangling), 0);
    write_bytes("tree/some.txt", "z.pgm\nmissing.png\n");
    path_of(list, sizeof list, "tree/some.txt");
    snprintf(at, sizeof at, "@%s", list);
    const char *a4[] = {missing, at, through, dangling};
    const char *w4[] = {"tree/missing.png", "tree/z.pgm", "tree/missing.png",
                        "tree/z.pgm/x.png", "tree/dangling.png"};
    expect_paths_flags(a4, 4, CLPAD_PATHS_KEEP_MISSING, w4, 5);
    expect_path_error(dangling, "does not exist");
    path_of(pat, sizeof pat, "tree/*.jpg");
    expect_path_error_flags(pat, CLPAD_PATHS_KEEP_MISSING, "no file matches");
    path_of(file, sizeof file, "empty");
    expect_path_error_flags(file, CLPAD_PATHS_KEEP_MISSING, "no image file");
    unlink(dangling);
    /* a list that is a FIFO nobody writes: read at once as empty, not
     * waited on for a writer */
    char fifo[520];
    path_of(list, sizeof list, "tree/fifo.txt");
    assert_int_equal(mkfifo(list, 0600), 0);
    snprintf(fifo, sizeof fifo, "@%s", list);
    clpad_path_list *fl = NULL;
    alarm(20);
    TU_ASSERT_OK(clpad_path_list_expand((const char *[]){fifo}, 1, 0, &fl));
    alarm(0);
    assert_int_equal(clpad_path_list_count(fl), 0);
    clpad_path_list_free(fl);
    unlink(list);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    /* a list with no line end (/dev/zero) is refused at the list limit
     * (256 MiB), not read as one line without end: here within 1 GiB more
     * address space (a sanitizer's shadow memory does not fit there) */
    unsigned long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    assert_non_null(statm);
    assert_int_equal(fscanf(statm, "%lu", &pages), 1);
    fclose(statm);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
    assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
    clpad_path_list *zl = NULL;
    clpad_status zst = clpad_path_list_expand((const char *[]){"@/dev/zero"}, 1, 0, &zl);
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    TU_ASSERT_STATUS(zst, CLPAD_ERR_TOO_LARGE);
    assert_null(zl);
    assert_non_null(strstr(clpad_last_error(), "@/dev/zero: a list longer than 256 MiB"));
#endif
}

/* In a child: clpad_path_list_expand of `arg` must fail naming `says`.
 * Exit 0 when it does, 1 when not, 77 when the child cannot drop root's
 * right to read every directory (no user namespace). */
static int unreadable_child(const char *arg, const char *says)
{
    if (geteuid() == 0 && unshare(CLONE_NEWUSER) != 0)
        return 77; /* (as root, a directory of mode 000 reads as any other) */
    clpad_path_list *l = NULL;
    clpad_status st = clpad_path_list_expand((const char *[]){arg}, 1, 0, &l);
    clpad_path_list_free(l);
    if (st != CLPAD_ERR_IO || !strstr(clpad_last_error(), says)) {
        printf("'%s': status %d, message '%s', want one saying '%s'\n", arg, (int)st,
               clpad_last_error(), says);
        return 1;
    }
    return 0;
}

/* A directory that cannot be read (EACCES), below a directory or a
 * pattern: an error naming it, not its files left out without a word
 * (glob(3) skips such a directory unless told). Run as another user than
 * root in a user namespace when the test runs as root. */
static void test_unreadable_dirs(void **state)
{
    (void)state;
    uint64_t rng = 3;
    make_dir("eacc");
    make_dir("eacc/ok");
    make_dir("eacc/locked");
    write_pnm("eacc/ok/i.ppm", 2, 2, 3, &rng, NULL);
    write_pnm("eacc/locked/j.ppm", 2, 2, 3, &rng, NULL);
    char dir[512], pat[520], locked[512];
    path_of(dir, sizeof dir, "eacc");
    path_of(locked, sizeof locked, "eacc/locked");
    snprintf(pat, sizeof pat, "%s/*/*.ppm", dir);
    assert_int_equal(chmod(locked, 0), 0);
    /* (the user of a user namespace searches the scratch directory as
     * anyone may: mkdtemp made it 0700) */
    assert_int_equal(chmod(g_dir, 0755), 0);
    const char *args[2][2] = {{dir, "eacc/locked: cannot read the directory"},
                              {pat, "cannot read the directory"}};
    int skipped = 0;
    for (int k = 0; k < 2; k++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            alarm(20);
            _exit(unreadable_child(args[k][0], args[k][1]));
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
            skipped++;
            continue;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("'%s': the child's status 0x%x", args[k][0], status);
    }
    assert_int_equal(chmod(locked, 0755), 0);
    assert_int_equal(chmod(g_dir, 0700), 0);
    if (skipped)
        printf("SKIP (part): no user namespace to read as another user than root\n");
    /* readable again: both list both images */
    const char *want[] = {"eacc/locked/j.ppm", "eacc/ok/i.ppm"};
    expect_paths((const char *[]){dir}, 1, want, 2);
    expect_paths((const char *[]){pat}, 1, want, 2);
}

/* ---- A reader that counts and delays ----------------------------------------------- */

typedef struct counting {
    atomic_int alive, peak, reads;
    int delay_index;       /* this index sleeps 30 ms first (-1: none) */
    int half_index;        /* this index is returned at half size with its source size */
} counting;

static clpad_status count_read(void *user, const char *path, size_t index,
                               const clpad_read_options *o, clpad_decoded_image *out,
                               char *message, size_t message_size)
{
    counting *c = user;
    (void)message;
    (void)message_size;
    if ((int)index == c->delay_index)
        nanosleep(&(struct timespec){0, 30 * 1000 * 1000}, NULL);
    clpad_status st = clpad_image_read(path, o, out);
    if (st)
        return st;
    atomic_fetch_add(&c->reads, 1);
    int now = atomic_fetch_add(&c->alive, 1) + 1;
    int p = atomic_load(&c->peak);
    while (now > p && !atomic_compare_exchange_weak(&c->peak, &p, now)) {
    }
    if ((int)index == c->half_index) { /* as a 1/2 DCT-scaled decode would give */
        int64_t h = (out->height + 1) / 2, w = (out->width + 1) / 2, C = out->channels;
        unsigned char *src = out->data, *dst = malloc((size_t)(h * w * C));
        for (int64_t y = 0; y < h; y++)
            for (int64_t x = 0; x < w; x++)
                memcpy(dst + (y * w + x) * C, src + (2 * y * out->width + 2 * x) * C, (size_t)C);
        out->source_height = out->height;
        out->source_width = out->width;
        out->height = h;
        out->width = w;
        out->scale_num = 4;
        free(src);
        out->data = dst;
    }
    return CLPAD_OK;
}

static void count_release(void *user, clpad_decoded_image *img)
{
    counting *c = user;
    atomic_fetch_sub(&c->alive, 1);
    clpad_decoded_image_free(img);
}

/* ---- Batches ---------------------------------------------------------------------- */

typedef struct folder {
    size_t n;
    char **paths;
    unsigned char **px;
    int64_t (*hw)[2];
} folder;

/* n images of random sizes, 3 channels (or 1 where gray), named 000.ppm ... */
static void make_folder(folder *f, const char *sub, size_t n, uint64_t *rng, bool gray)
{
    make_dir(sub);
    f->n = n;
    f->paths = calloc(n, sizeof *f->paths);
    f->px = calloc(n, sizeof *f->px);
    f->hw = calloc(n, sizeof *f->hw);
    for (size_t i = 0; i < n; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s/%03zu.%s", sub, i, gray ? "pgm" : "ppm");
        int h = (int)tu_range(rng, 1, 90), w = (int)tu_range(rng, 1, 90);
        write_pnm(name, h, w, gray ? 1 : 3, rng, &f->px[i]);
        f->hw[i][0] = h;
        f->hw[i][1] = w;
        f->paths[i] = malloc(512);
        path_of(f->paths[i], 512, name);
    }
}

static void free_folder(folder *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->paths[i]);
        free(f->px[i]);
    }
    free(f->paths);
    free(f->px);
    free(f->hw);
}

/* Run a stream over `paths` and compare every batch with
 * clpad_letterbox_cpu of the listed images (`want_index`: the indices
 * expected, in order, m of them; NULL: all). Returns the skipped count. */
static size_t run_and_compare(clpad_context *ctx, const folder *f, const char *const *paths,
                              size_t n, const clpad_letterbox_options *lb,
                              const clpad_stream_options *so, const size_t *want_index,
                              size_t m)
{
    clpad_letterbox_stream *s = NULL;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, paths, n, lb, so, &s));
    int64_t shape[4];
    size_t bytes = 0;
    TU_ASSERT_OK(clpad_letterbox_stream_batch_shape(s, shape, &bytes));
    size_t slot = bytes / so->batch;
    unsigned char *out = malloc(bytes), *want = malloc(slot);
    size_t seen = 0, skipped = 0;
    clpad_stream_batch b = {.size = sizeof b};
    do {
        memset(out, 0xA5, bytes);
        TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, bytes, &b));
        assert_true(b.count <= so->batch);
        skipped += b.skipped_count;
        for (size_t k = 0; k < b.count; k++, seen++) {
            size_t idx = b.images[k].index;
            size_t expect = want_index ? want_index[seen] : seen;
            if (seen >= m || idx != expect)
                fail_msg("image %zu of the stream is paths[%zu], want paths[%zu]", seen, idx,
                         expect);
            size_t fi = idx % f->n; /* paths may list the folder several times */
            clpad_image im = {.data = f->px[fi], .height = f->hw[fi][0],
                              .width = f->hw[fi][1],
                              .channels = lb->layout == CLPAD_LAYOUT_NHWC ? shape[3] : shape[1]};
            clpad_letterbox_transform t;
            clpad_letterbox_transform_init(&t);
            TU_ASSERT_OK(clpad_letterbox_cpu(&im, 1, lb, want, slot, &t));
            if (memcmp(out + k * slot, want, slot))
                fail_msg("image %zu (%s) differs from clpad_letterbox_cpu", seen, paths[idx]);
            if (memcmp(&t, &b.images[k].transform, sizeof t))
                fail_msg("image %zu: transform differs", seen);
            assert_int_equal(b.images[k].source_height, f->hw[fi][0]);
        }
    } while (!b.end);
    assert_int_equal(seen, m);
    /* after the end: nothing more */
    TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, bytes, &b));
    assert_int_equal(b.count, 0);
    assert_true(b.end);
    clpad_letterbox_stream_close(s);
    free(out);
    free(want);
    return skipped;
}

static void test_order(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x57EA;
    folder f;
    make_folder(&f, "order", 50, &rng, false);
    clpad_context *ctx = cpu_context();
    static const struct { size_t batch; int workers; clpad_dtype dt; clpad_layout lay; } runs[] = {
        {7, 3, CLPAD_F32, CLPAD_LAYOUT_NCHW}, {1, 1, CLPAD_U8, CLPAD_LAYOUT_NHWC},
        {64, 2, CLPAD_F16, CLPAD_LAYOUT_NCHW}, {16, 8, CLPAD_F32, CLPAD_LAYOUT_NHWC}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        clpad_letterbox_options lb;
        clpad_letterbox_options_init(&lb, 40, 56);
        lb.dtype = runs[r].dt;
        lb.layout = runs[r].lay;
        lb.std[0] = lb.std[1] = lb.std[2] = 255.0f;
        clpad_stream_options so;
        clpad_stream_options_init(&so);
        so.batch = runs[r].batch;
        so.workers = runs[r].workers;
        run_and_compare(ctx, &f, (const char *const *)f.paths, f.n, &lb, &so, NULL, f.n);
    }
    /* an empty list: one call, nothing, the end */
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 8, 8);
    clpad_letterbox_stream *s;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, NULL, 0, &lb, NULL, &s));
    clpad_stream_batch b = {.size = sizeof b};
    TU_ASSERT_OK(clpad_letterbox_stream_next(s, NULL, 0, &b));
    assert_int_equal(b.count, 0);
    assert_true(b.end);
    clpad_letterbox_stream_close(s);
    clpad_context_destroy(ctx);
    free_folder(&f);
}

static void test_preset_and_options(void **state)
{
    (void)state;
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 64, 32);
    o.swap_rb = 1;
    o.dtype = CLPAD_U8;
    TU_ASSERT_OK(clpad_letterbox_preset("Ultralytics", &o));
    assert_int_equal(o.out_height, 64);
    assert_int_equal(o.out_width, 32);
    assert_int_equal(o.swap_rb, 0);
    assert_int_equal(o.dtype, CLPAD_F32);
    assert_true(o.std[0] == 255.0f && o.std[2] == 255.0f && o.scale == 1.0f);
    assert_int_equal(o.pad_value[1], 114);
    TU_ASSERT_STATUS(clpad_letterbox_preset("yolo9000", &o), CLPAD_ERR_PARSE);
    assert_non_null(strstr(clpad_last_error(), "ultralytics"));
    /* opts->size: one below the struct refused (nothing written), a larger
     * one kept with the bytes past this version's fields */
    union {
        clpad_letterbox_options o;
        unsigned char b[sizeof(clpad_letterbox_options) + 16];
    } v;
    memset(v.b, 0x5A, sizeof v.b);
    v.o.size = sizeof v.o - 4;
    TU_ASSERT_STATUS(clpad_letterbox_preset("imagenet", &v.o), CLPAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(clpad_last_error(), "opts->size"));
    for (size_t k = sizeof v.o.size; k < sizeof v.b; k++)
        if (v.b[k] != 0x5A)
            fail_msg("byte %zu of refused options written", k);
    clpad_letterbox_options_init(&v.o, 64, 32);
    v.o.size = sizeof v.b;
    TU_ASSERT_OK(clpad_letterbox_preset("imagenet", &v.o));
    assert_int_equal(v.o.size, sizeof v.b);
    assert_int_equal(v.o.resize_shorter, 256);
    for (size_t k = sizeof v.o; k < sizeof v.b; k++)
        if (v.b[k] != 0x5A)
            fail_msg("byte %zu, past this version's options, written", k);
    const char *d = NULL;
    assert_string_equal(clpad_letterbox_preset_name(0, &d), "ultralytics");
    assert_non_null(d);
    assert_string_equal(clpad_letterbox_preset_name(1, &d), "imagenet");
    assert_null(clpad_letterbox_preset_name(2, &d));
    /* torchvision's ImageNet recipe: Resize(256) with Pillow's bilinear, the
     * slot as CenterCrop, ToTensor's / 255, Normalize */
    TU_ASSERT_OK(clpad_letterbox_preset("imagenet", &o));
    assert_int_equal(o.out_height, 64);
    assert_int_equal(o.fit, CLPAD_FIT_COVER);
    assert_int_equal(o.resize_shorter, 256);
    assert_int_equal(o.interp, CLPAD_INTERP_PIL_BILINEAR);
    assert_true(o.divisor == 255.0f && o.scale == 1.0f && o.mean[0] == 0.485f &&
                o.std[2] == 0.225f);
    assert_int_equal(o.stride, 0);
    /* a stride: one slot per stream, refused at open (below) */
    clpad_letterbox_options strided;
    clpad_letterbox_options_init(&strided, 64, 64);
    strided.stride = 32;
    /* options refused at open */
    clpad_context *ctx = cpu_context();
    clpad_letterbox_stream *s = NULL;
    clpad_stream_options so;
    const char *p[1] = {"x.png"};
    clpad_stream_options_init(&so);
    so.batch = 0;
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &o, &so, &s),
                     CLPAD_ERR_INVALID_ARGUMENT);
    clpad_stream_options_init(&so);
    so.read.keep_depth = 1;
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &o, &so, &s),
                     CLPAD_ERR_INVALID_ARGUMENT);
    clpad_stream_options_init(&so);
    so.on_error = 7;
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &o, &so, &s),
                     CLPAD_ERR_INVALID_ARGUMENT);
    clpad_stream_options_init(&so);
    so.size = 3;
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &o, &so, &s),
                     CLPAD_ERR_INVALID_ARGUMENT);
    /* the versioned structs: a size below this version's refused, naming
     * the argument; a newer caller's larger options (zeros past ours)
     * accepted, a set byte past them refused; a batch below the struct */
    clpad_error_info e = {.size = sizeof e};
    clpad_letterbox_options small_lb = o;
    small_lb.size = sizeof small_lb - 4;
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &small_lb, NULL, &s),
                     CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "options");
    assert_non_null(strstr(e.message, "letterbox: options: size"));
    union {
        clpad_stream_options so;
        unsigned char b[sizeof(clpad_stream_options) + 16];
    } big;
    memset(big.b, 0, sizeof big.b);
    clpad_stream_options_init(&big.so);
    big.so.size = sizeof big.b;
    big.b[sizeof big.so + 5] = 1;
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &o, &big.so, &s),
                     CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "options");
    assert_non_null(strstr(e.message, "stream_open: options: a non-zero byte"));
    big.b[sizeof big.so + 5] = 0;
    big.so.size = sizeof big.so - sizeof(void *); /* one field short */
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &o, &big.so, &s),
                     CLPAD_ERR_INVALID_ARGUMENT);
    big.so.size = sizeof big.b;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, p, 1, &o, &big.so, &s));
    clpad_stream_batch b = {.size = sizeof b - 8};
    unsigned char one[4];
    TU_ASSERT_STATUS(clpad_letterbox_stream_next(s, one, sizeof one, &b),
                     CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_OK(clpad_last_error_info(&e));
    assert_string_equal(e.argument, "batch");
    assert_int_equal(b.count, 0);
    clpad_letterbox_stream_close(s);
    s = NULL;
    clpad_letterbox_options bad_lb = o;
    bad_lb.std[1] = 0.0f;
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &bad_lb, NULL, &s),
                     CLPAD_ERR_INVALID_ARGUMENT);
    TU_ASSERT_STATUS(clpad_letterbox_stream_open(ctx, p, 1, &strided, NULL, &s),
                     CLPAD_ERR_UNSUPPORTED);
    assert_non_null(strstr(clpad_last_error(), "stride = 32"));
    assert_null(s);
    clpad_context_destroy(ctx);
}

/* Bad files: skipped in order with their reasons, or the first in input
 * order ends the stream, even when a later one fails first. */
static void test_errors_and_skip(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xE770;
    folder f;
    make_folder(&f, "bad", 20, &rng, false);
    /* 3: truncated, 9: not an image, 14: a grey image in a colour batch
     * read with channels keep, 17: missing */
    char p[512];
    path_of(p, sizeof p, "bad/003.ppm");
    assert_int_equal(truncate(p, 20), 0);
    path_of(p, sizeof p, "bad/009.ppm");
    write_bytes("bad/009.ppm", "hello, not an image");
    write_pnm("bad/014.ppm", 5, 5, 1, &rng, NULL);
    path_of(p, sizeof p, "bad/017.ppm");
    assert_int_equal(unlink(p), 0);
    clpad_context *ctx = cpu_context();
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 24, 24);
    clpad_stream_options so;
    clpad_stream_options_init(&so);
    so.batch = 4;
    so.workers = 3;
    so.read.channels = CLPAD_CHANNELS_KEEP;
    so.on_error = CLPAD_ON_ERROR_SKIP;
    size_t want[16], m = 0;
    for (size_t i = 0; i < 20; i++)
        if (i != 3 && i != 9 && i != 14 && i != 17)
            want[m++] = i;
    /* 14 was rewritten: its pixels are not the folder's, but it is skipped */
    size_t skipped =
        run_and_compare(ctx, &f, (const char *const *)f.paths, f.n, &lb, &so, want, m);
    assert_int_equal(skipped, 4);
    /* the skipped files' reports, in order */
    clpad_letterbox_stream *s;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, (const char *const *)f.paths, f.n, &lb, &so, &s));
    size_t bytes;
    int64_t shape[4];
    TU_ASSERT_OK(clpad_letterbox_stream_batch_shape(s, shape, &bytes));
    unsigned char *out = malloc(bytes);
    clpad_stream_batch b = {.size = sizeof b};
    size_t reported[8], nr = 0;
    do {
        TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, bytes, &b));
        for (size_t k = 0; k < b.skipped_count; k++) {
            reported[nr++] = b.skipped[k].index;
            if (!strstr(b.skipped[k].message, f.paths[b.skipped[k].index]))
                fail_msg("skip message '%s' does not name %s", b.skipped[k].message,
                         f.paths[b.skipped[k].index]);
        }
    } while (!b.end);
    clpad_letterbox_stream_close(s);
    assert_int_equal(nr, 4);
    assert_int_equal(reported[0], 3);
    assert_int_equal(reported[1], 9);
    assert_int_equal(reported[2], 14);
    assert_int_equal(reported[3], 17);
    /* a bad file the threads meet before the first call (they move the
     * cursor over it): reported by that call, not lost */
    const char *one[2] = {f.paths[3], f.paths[9]};
    so.read.channels = 3;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, one, 2, &lb, &so, &s));
    nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, bytes, &b));
    assert_int_equal(b.count, 0);
    assert_int_equal(b.skipped_count, 2);
    assert_true(b.end);
    clpad_letterbox_stream_close(s);
    so.read.channels = CLPAD_CHANNELS_KEEP;
    /* on_error fail: the first bad file in input order, although file 3 is
     * slow to be read and file 9 fails first */
    counting c = {.delay_index = 3, .half_index = -1};
    so.on_error = CLPAD_ON_ERROR_FAIL;
    so.read_fn = count_read;
    so.release_fn = count_release;
    so.user = &c;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, (const char *const *)f.paths, f.n, &lb, &so, &s));
    clpad_status st;
    size_t images = 0;
    while ((st = clpad_letterbox_stream_next(s, out, bytes, &b)) == CLPAD_OK && !b.end)
        images += b.count;
    assert_int_equal(st, CLPAD_ERR_BAD_INPUT);
    assert_non_null(strstr(clpad_last_error(), "003.ppm"));
    assert_true(images <= 3);
    /* and again: the stream stays ended */
    TU_ASSERT_STATUS(clpad_letterbox_stream_next(s, out, bytes, &b), CLPAD_ERR_BAD_INPUT);
    assert_non_null(strstr(clpad_last_error(), "003.ppm"));
    clpad_letterbox_stream_close(s);
    assert_int_equal(atomic_load(&c.alive), 0);
    free(out);
    clpad_context_destroy(ctx);
    free_folder(&f);
}

/* At most two batches of decoded images alive, with a slow caller. */
static void test_memory_bound(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x3E3;
    folder f;
    make_folder(&f, "mem", 60, &rng, false);
    clpad_context *ctx = cpu_context();
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 16, 16);
    for (int keep = 0; keep < 2; keep++) {
        counting c = {.delay_index = -1, .half_index = -1};
        clpad_stream_options so;
        clpad_stream_options_init(&so);
        so.batch = 5;
        so.workers = 4;
        so.keep_pixels = keep;
        so.read_fn = count_read;
        so.release_fn = count_release;
        so.user = &c;
        /* the folder three times: 180 images */
        const char *paths[180];
        for (size_t i = 0; i < 180; i++)
            paths[i] = f.paths[i % f.n];
        clpad_letterbox_stream *s;
        TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, paths, 180, &lb, &so, &s));
        size_t bytes;
        int64_t shape[4];
        TU_ASSERT_OK(clpad_letterbox_stream_batch_shape(s, shape, &bytes));
        unsigned char *out = malloc(bytes);
        clpad_stream_batch b = {.size = sizeof b};
        size_t total = 0;
        do {
            nanosleep(&(struct timespec){0, 2 * 1000 * 1000}, NULL); /* the decoders run ahead */
            TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, bytes, &b));
            total += b.count;
            if (keep && b.count)
                assert_non_null(b.pixels);
        } while (!b.end);
        assert_int_equal(total, 180);
        clpad_letterbox_stream_close(s);
        printf("keep_pixels %d: at most %d decoded images alive (bound %zu)\n", keep,
               atomic_load(&c.peak), 2 * so.batch);
        assert_true(atomic_load(&c.peak) <= (int)(2 * so.batch));
        assert_true(atomic_load(&c.peak) >= 2); /* the decoders did run ahead */
        assert_int_equal(atomic_load(&c.alive), 0);
        assert_int_equal(atomic_load(&c.reads), 180);
        free(out);
    }
    clpad_context_destroy(ctx);
    free_folder(&f);
}

/* A decode-scaled image: the geometry of its source, the pixels its own. */
static void test_scaled_geometry(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0x5CA1E;
    folder f;
    make_folder(&f, "scaled", 6, &rng, false);
    clpad_context *ctx = cpu_context();
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 32, 32);
    lb.dtype = CLPAD_U8;
    counting c = {.delay_index = -1, .half_index = 2};
    clpad_stream_options so;
    clpad_stream_options_init(&so);
    so.batch = 6;
    so.read_fn = count_read;
    so.release_fn = count_release;
    so.user = &c;
    so.keep_pixels = 1;
    clpad_letterbox_stream *s;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, (const char *const *)f.paths, f.n, &lb, &so, &s));
    unsigned char out[6 * 3 * 32 * 32], want[3 * 32 * 32];
    clpad_stream_batch b = {.size = sizeof b};
    TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, sizeof out, &b));
    assert_int_equal(b.count, 6);
    const clpad_stream_image *e = &b.images[2];
    assert_int_equal(e->source_height, f.hw[2][0]);
    assert_int_equal(e->decoded_height, (f.hw[2][0] + 1) / 2);
    assert_int_equal(e->scale_num, 4);
    clpad_letterbox_transform full;
    clpad_letterbox_transform_init(&full);
    clpad_image src = {.data = f.px[2], .height = f.hw[2][0], .width = f.hw[2][1], .channels = 3};
    int64_t shape[4];
    TU_ASSERT_OK(clpad_letterbox_plan(&src, 1, &lb, shape, &full));
    assert_memory_equal(&full, &e->transform, sizeof full);
    /* the pixels given back carry the geometry; letterboxing them again
     * gives the slot the stream wrote */
    assert_int_equal(b.pixels[2].geometry_height, f.hw[2][0]);
    TU_ASSERT_OK(clpad_letterbox_cpu(&b.pixels[2], 1, &lb, want, sizeof want, NULL));
    assert_memory_equal(out + 2 * sizeof want, want, sizeof want);
    clpad_letterbox_stream_close(s);
    assert_int_equal(atomic_load(&c.alive), 0);
    clpad_context_destroy(ctx);
    free_folder(&f);
}

/* Closing before the end: the threads stop, every image is freed. */
static void test_close_early(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xC105E;
    folder f;
    make_folder(&f, "close", 40, &rng, false);
    clpad_context *ctx = cpu_context();
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 16, 16);
    for (int calls = 0; calls < 3; calls++) {
        counting c = {.delay_index = -1, .half_index = -1};
        clpad_stream_options so;
        clpad_stream_options_init(&so);
        so.batch = 4;
        so.workers = 3;
        so.read_fn = count_read;
        so.release_fn = count_release;
        so.user = &c;
        so.keep_pixels = calls == 2;
        clpad_letterbox_stream *s;
        TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, (const char *const *)f.paths, f.n, &lb, &so, &s));
        unsigned char out[4 * 3 * 16 * 16 * 4];
        clpad_stream_batch b = {.size = sizeof b};
        for (int k = 0; k < calls; k++)
            TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, sizeof out, &b));
        clpad_letterbox_stream_close(s);
        assert_int_equal(atomic_load(&c.alive), 0);
        assert_true(atomic_load(&c.reads) < 40);
    }
    clpad_context_destroy(ctx);
    free_folder(&f);
}

/* A child made by fork() has a copy of the stream but not its decoder
 * threads: next and batch_shape fail there, naming the processes, and
 * close leaves the copy (they waited for the threads forever: the child
 * hung). The parent's stream goes on, whole. */
static void test_forked_child(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xF0CC;
    folder f;
    make_folder(&f, "fork", 12, &rng, false);
    clpad_context *ctx = cpu_context();
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 8, 8);
    clpad_stream_options so;
    clpad_stream_options_init(&so);
    so.batch = 2;
    so.workers = 2;
    clpad_letterbox_stream *s;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, (const char *const *)f.paths, f.n, &lb, &so, &s));
    unsigned char out[2 * 3 * 8 * 8 * 4];
    clpad_stream_batch b = {.size = sizeof b};
    TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, sizeof out, &b));
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20); /* a hang: killed, and failed below */
        int64_t shape[4];
        clpad_stream_batch cb = {.size = sizeof cb};
        int code = 0;
        if (clpad_letterbox_stream_next(s, out, sizeof out, &cb) != CLPAD_ERR_INVALID_ARGUMENT ||
            !strstr(clpad_last_error(), "a child made by fork()"))
            code = 2;
        if (clpad_letterbox_stream_batch_shape(s, shape, NULL) != CLPAD_ERR_INVALID_ARGUMENT)
            code = 3;
        clpad_letterbox_stream_close(s);
        _exit(code);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the forked child: status 0x%x (exit 2: next, 3: batch_shape not refused; "
                 "SIGALRM: it hung)",
                 status);
    size_t got = b.count;
    do {
        TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, sizeof out, &b));
        got += b.count;
    } while (!b.end);
    assert_int_equal(got, 12);
    clpad_letterbox_stream_close(s);
    clpad_context_destroy(ctx);
    free_folder(&f);
}

/* Several streams on one context at once, from several threads. */
typedef struct par_arg {
    clpad_context *ctx;
    folder *f;
    int seed;
} par_arg;

static void *par_stream(void *arg)
{
    par_arg *a = arg;
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 20 + a->seed, 30);
    clpad_stream_options so;
    clpad_stream_options_init(&so);
    so.batch = 3 + (size_t)a->seed;
    so.workers = 2;
    run_and_compare(a->ctx, a->f, (const char *const *)a->f->paths, a->f->n, &lb, &so, NULL,
                    a->f->n);
    return NULL;
}

static void test_concurrent_streams(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xC0C0;
    folder f;
    make_folder(&f, "par", 24, &rng, false);
    clpad_context *ctx = cpu_context();
    pthread_t t[3];
    par_arg a[3];
    for (int i = 0; i < 3; i++) {
        a[i] = (par_arg){ctx, &f, i};
        assert_int_equal(pthread_create(&t[i], NULL, par_stream, &a[i]), 0);
    }
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    clpad_context_destroy(ctx);
    free_folder(&f);
}

/* A context on a device (no fallback); the test is skipped without one. */
static clpad_context *device_context(void)
{
    clpad_context *ctx = NULL;
    clpad_status st =
        tu_context_create(NULL, CLPAD_CONTEXT_NO_FALLBACK | CLPAD_CONTEXT_DEVICE_ONLY, &ctx);
    if (st == CLPAD_ERR_NO_DEVICE) {
        printf("SKIP: no OpenCL device (%s)\n", clpad_last_error());
        skip();
    }
    TU_ASSERT_OK(st);
    return ctx;
}

/* The device, image by image and in one launch per batch, against the CPU
 * reference. */
static void test_device(void **state)
{
    (void)state;
    clpad_context *ctx = device_context();
    uint64_t rng = tu_seed() ^ 0xDE71CE;
    folder f;
    make_folder(&f, "dev", 12, &rng, true);
    for (int mode = 0; mode < 2; mode++) {
        setenv("CLPAD_STREAM_LETTERBOX", mode ? "batch" : "image", 1);
        clpad_letterbox_options lb;
        clpad_letterbox_options_init(&lb, 48, 40);
        lb.pad_mode = CLPAD_PAD_EDGE;
        clpad_stream_options so;
        clpad_stream_options_init(&so);
        so.read.channels = 1;
        so.batch = 5;
        run_and_compare(ctx, &f, (const char *const *)f.paths, f.n, &lb, &so, NULL, f.n);
    }
    unsetenv("CLPAD_STREAM_LETTERBOX");
    clpad_context_destroy(ctx);
    free_folder(&f);
}

/* The device context, where it reads host memory in place (else skip). */
static clpad_context *in_place_context(void)
{
    clpad_context *ctx = device_context();
    if (!ctx->unified_memory) {
        printf("SKIP: %s does not read host memory in place\n", ctx->device_name);
        clpad_context_destroy(ctx);
        skip();
    }
    return ctx;
}

/* On a device that reads host memory in place, the stream decodes each
 * batch's images one after another into one block and the batch's launch
 * reads them there, with no gathered copy: every launch reads in place, the
 * images a batch returns lie one after another, and the batches equal the
 * CPU reference. */
static void test_in_place(void **state)
{
    (void)state;
    clpad_context *ctx = in_place_context();
    uint64_t rng = tu_seed() ^ 0x1A9ACE;
    folder f;
    make_folder(&f, "inplace", 14, &rng, false);
    setenv("CLPAD_STREAM_LETTERBOX", "batch", 1);
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 40, 48);
    clpad_stream_options so;
    clpad_stream_options_init(&so);
    so.batch = 4;
    uint64_t launches = clpad_context_launches(ctx);
    uint64_t in_place = __atomic_load_n(&ctx->in_place_reads, __ATOMIC_RELAXED);
    run_and_compare(ctx, &f, (const char *const *)f.paths, f.n, &lb, &so, NULL, f.n);
    launches = clpad_context_launches(ctx) - launches;
    in_place = __atomic_load_n(&ctx->in_place_reads, __ATOMIC_RELAXED) - in_place;
    assert_int_equal(launches, 4); /* 14 images, batches of 4 */
    if (in_place != launches)
        fail_msg("%llu of the %llu launches read the batch in place",
                 (unsigned long long)in_place, (unsigned long long)launches);
    /* the pixels a batch returns: one after another, each dense */
    so.keep_pixels = 1;
    clpad_letterbox_stream *s = NULL;
    TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, (const char *const *)f.paths, f.n, &lb, &so,
                                             &s));
    size_t bytes = 0;
    int64_t shape[4];
    TU_ASSERT_OK(clpad_letterbox_stream_batch_shape(s, shape, &bytes));
    unsigned char *out = malloc(bytes);
    clpad_stream_batch b = {.size = sizeof b};
    do {
        TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, bytes, &b));
        for (size_t k = 1; k < b.count; k++) {
            const clpad_image *p = &b.pixels[k - 1];
            if ((const unsigned char *)b.pixels[k].data !=
                (const unsigned char *)p->data + p->height * p->width * p->channels)
                fail_msg("image %zu of a batch does not follow image %zu in memory",
                         b.images[k].index, b.images[k - 1].index);
        }
    } while (!b.end);
    clpad_letterbox_stream_close(s);
    /* closed early, decoders still writing into the blocks (the sanitizer
     * builds see any use of a block after it is gone) */
    so.keep_pixels = 0;
    so.workers = 3;
    for (int calls = 0; calls < 3; calls++) {
        TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, (const char *const *)f.paths, f.n, &lb,
                                                 &so, &s));
        for (int k = 0; k < calls; k++)
            TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, bytes, &b));
        clpad_letterbox_stream_close(s);
    }
    free(out);
    unsetenv("CLPAD_STREAM_LETTERBOX");
    clpad_context_destroy(ctx);
    free_folder(&f);
}

/* EXIF-rotated images on a device that reads host memory in place: a
 * decoder thread decodes each first into scratch memory it keeps from image
 * to image (growing with the sizes), then turns it into the batch's block.
 * PNGs (written byte by byte, with an eXIf chunk of orientation 1..8) of
 * random sizes; the batches equal the CPU reference of clpad_image_read's
 * images, which are turned (tests/test_image.c checks the turns). */
static void test_in_place_rotated(void **state)
{
    (void)state;
    clpad_context *ctx = in_place_context();
    uint64_t rng = tu_seed() ^ 0x0E1F;
    make_dir("rotated");
    folder f = {.n = 17};
    f.paths = calloc(f.n, sizeof *f.paths);
    f.px = calloc(f.n, sizeof *f.px);
    f.hw = calloc(f.n, sizeof *f.hw);
    static unsigned char raw[40 * (1 + 3 * 40)], png[sizeof raw + 128];
    for (size_t i = 0; i < f.n; i++) {
        int h = (int)tu_range(&rng, 1, 40), w = (int)tu_range(&rng, 1, 40), o = 1 + (int)(i % 8);
        size_t rawlen = (size_t)h * (1 + 3 * (size_t)w);
        tu_fill(raw, rawlen, &rng);
        for (int y = 0; y < h; y++)
            raw[(size_t)y * (1 + 3 * (size_t)w)] = 0; /* filter: none */
        /* TIFF header, one IFD entry: Orientation (0x0112), SHORT, 1, o */
        const unsigned char tiff[26] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3,
                                        0,   0,   0, 1,  0, (unsigned char)o, 0, 0, 0, 0, 0, 0};
        size_t n = tu_png_stored(png, (uint32_t)w, (uint32_t)h, 8, 2, raw, rawlen, "eXIf", tiff,
                                 sizeof tiff);
        char name[64];
        snprintf(name, sizeof name, "rotated/%02zu.png", i);
        f.paths[i] = malloc(512);
        path_of(f.paths[i], 512, name);
        FILE *fp = fopen(f.paths[i], "wb");
        assert_non_null(fp);
        assert_int_equal(fwrite(png, 1, n, fp), n);
        fclose(fp);
        clpad_decoded_image img = {.size = sizeof img};
        TU_ASSERT_OK(clpad_image_read(f.paths[i], NULL, &img));
        assert_int_equal(img.orientation, o);
        f.px[i] = img.data;
        f.hw[i][0] = img.height;
        f.hw[i][1] = img.width;
    }
    setenv("CLPAD_STREAM_LETTERBOX", "batch", 1);
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 36, 28);
    lb.dtype = CLPAD_U8;
    lb.layout = CLPAD_LAYOUT_NHWC;
    clpad_stream_options so;
    clpad_stream_options_init(&so);
    so.batch = 3;
    for (int workers = 1; workers <= 3; workers += 2) {
        so.workers = workers;
        run_and_compare(ctx, &f, (const char *const *)f.paths, f.n, &lb, &so, NULL, f.n);
    }
    unsetenv("CLPAD_STREAM_LETTERBOX");
    clpad_context_destroy(ctx);
    free_folder(&f);
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
/* A line "KEY: N kB" of /proc/self/status, in bytes; 0 if absent. */
static size_t status_bytes(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t v = 0, klen = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, klen) && line[klen] == ':')
            v = (size_t)strtoull(line + klen + 1, NULL, 10) * 1024;
    if (f)
        fclose(f);
    return v;
}
#endif

/* The library's own reader on a device that reads host memory in place
 * (the batch blocks): while 120 images of 1.08 MB each stream through in
 * batches of 5, the process's peak memory grows by about two batches of
 * decoded images (10.8 MB), not by the folder's 130 MB: each batch's block
 * is reused once its images are released. (Not under the sanitizers, whose
 * allocators keep freed memory.) */
static void test_memory_bound_blocks(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    printf("SKIP: the sanitizers' allocators keep freed memory\n");
    skip();
#else
    clpad_context *ctx = in_place_context();
    uint64_t rng = tu_seed() ^ 0xB10C;
    make_dir("blocks");
    char *files[30];
    const char *paths[120];
    for (int i = 0; i < 30; i++) {
        char name[64];
        snprintf(name, sizeof name, "blocks/%02d.ppm", i);
        write_pnm(name, 600, 600, 3, &rng, NULL);
        files[i] = malloc(512);
        assert_non_null(files[i]);
        path_of(files[i], 512, name);
    }
    for (int i = 0; i < 120; i++)
        paths[i] = files[i % 30];
    clpad_stream_options so; /* batches of 5 into 16 x 16 slots, 2 decoders */
    clpad_stream_options_init(&so);
    so.batch = 5;
    so.workers = 2;
    clpad_letterbox_options lb;
    clpad_letterbox_options_init(&lb, 16, 16);
    unsigned char out[5 * 3 * 16 * 16 * 4];
    size_t growth = 0;
    uint64_t in_place = 0;
    for (int pass = 0; pass < 2; pass++) { /* the first builds the kernel */
        FILE *f = fopen("/proc/self/clear_refs", "w");
        if (!f || fputs("5", f) < 0 || fclose(f) != 0) { /* the peak starts again */
            printf("SKIP: /proc/self/clear_refs cannot reset the peak memory\n");
            skip();
        }
        size_t before = status_bytes("VmRSS");
        in_place = __atomic_load_n(&ctx->in_place_reads, __ATOMIC_RELAXED);
        clpad_letterbox_stream *s = NULL;
        TU_ASSERT_OK(clpad_letterbox_stream_open(ctx, paths, pass ? 120 : 10, &lb, &so, &s));
        clpad_stream_batch b = {.size = sizeof b};
        size_t total = 0;
        do {
            TU_ASSERT_OK(clpad_letterbox_stream_next(s, out, sizeof out, &b));
            total += b.count;
        } while (!b.end);
        clpad_letterbox_stream_close(s);
        assert_int_equal(total, pass ? 120 : 10);
        size_t peak = status_bytes("VmHWM");
        growth = peak > before ? peak - before : 0;
        in_place = __atomic_load_n(&ctx->in_place_reads, __ATOMIC_RELAXED) - in_place;
    }
    printf("120 images of 1.08 MB in batches of 5: peak memory grew by %.1f MB, %llu of 24 "
           "launches read in place\n",
           (double)growth / 1e6, (unsigned long long)in_place);
    assert_true(in_place >= 12); /* the blocks were used */
    assert_true(growth < (size_t)40 << 20);
    for (int i = 0; i < 30; i++)
        free(files[i]);
    clpad_context_destroy(ctx);
#endif
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/clpad-stream-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    printf("seed %llu\n", (unsigned long long)tu_seed());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths),          cmocka_unit_test(test_order),
        cmocka_unit_test(test_preset_and_options), cmocka_unit_test(test_errors_and_skip),
        cmocka_unit_test(test_memory_bound),   cmocka_unit_test(test_memory_bound_blocks),
        cmocka_unit_test(test_scaled_geometry),
        cmocka_unit_test(test_close_early),    cmocka_unit_test(test_forked_child),
        cmocka_unit_test(test_unreadable_dirs),
        cmocka_unit_test(test_concurrent_streams),
        cmocka_unit_test(test_device),         cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_in_place_rotated),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
