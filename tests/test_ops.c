/* The operation registry (host/ops/op.h, host/ops/registry.c) and each
 * operation's runs against its plain reference (ref.c):
 *  - the registry: its names are clpad_operation_name()'s, every entry's
 *    kernel family is a file kernels/<family>.cl, and every .cl file of
 *    kernels/ is some entry's family;
 *  - every entry with a reference: random validated calls through the fast
 *    host path (cpu.c) equal the reference byte for byte;
 *  - with the argument "device": the same calls through the device run
 *    (cl.c, by the host-pointer path) equal the reference (Skipped without
 *    an OpenCL device).
 * Links the static library, to reach the internal descriptors. */
#include "test_util.h"

#include "device/context.h"
#include "ops/op.h"
#include "ops/pad/pad.h"
#include "ops/pad_numpy/pad_numpy.h"
#include "ops/space_batch/space_batch.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static clpad_context *g_ctx; /* the device runs' context; NULL: host runs only */

/* ---- the registry ----------------------------------------------------------------- */

static void test_registry(void **state)
{
    (void)state;
    const char *src = getenv("CLPAD_SOURCE_DIR");
    if (!src)
        fail_msg("CLPAD_SOURCE_DIR is not set (the test's environment names the source tree)");
    size_t n = 0;
    for (; clpad__op_at(n); n++) {
        const clpad_op_desc *op = clpad__op_at(n);
        if (!clpad_operation_name(n) || strcmp(clpad_operation_name(n), op->name))
            fail_msg("clpad_operation_name(%zu) is not the registry's '%s'", n, op->name);
        if (clpad__op_find(op->name) != op)
            fail_msg("clpad__op_find('%s') does not find registry entry %zu", op->name, n);
        if (!op->variant)
            fail_msg("operation '%s' has no warm-up variants", op->name);
        if ((op->ref == NULL) != (op->cpu == NULL) || (op->ref == NULL) != (op->sizes == NULL) ||
            (op->ref == NULL) != (op->enqueue == NULL))
            fail_msg("operation '%s' has some of ref, cpu, sizes, enqueue but not all", op->name);
        char path[4096];
        snprintf(path, sizeof path, "%s/kernels/%s.cl", src, op->family);
        FILE *f = fopen(path, "r");
        if (!f)
            fail_msg("operation '%s': its kernel family file %s does not exist", op->name, path);
        fclose(f);
    }
    if (clpad_operation_name(n))
        fail_msg("clpad_operation_name(%zu) = '%s' past the registry's last entry", n,
                 clpad_operation_name(n));
    /* every kernels/<family>.cl but common.cl (included by all) is registered */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/kernels", src);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot list %s", dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".cl") || !strcmp(e->d_name, "common.cl"))
            continue;
        files++;
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = strlen(clpad__op_at(i)->family) == len - 3 &&
                    !strncmp(clpad__op_at(i)->family, e->d_name, len - 3);
        if (!found) {
            closedir(d);
            fail_msg("kernels/%s belongs to no registered operation (host/ops/registry.c)",
                     e->d_name);
        }
    }
    closedir(d);
    printf("%zu operations registered, %d kernel families\n", n, files);
}

/* ---- random validated calls --------------------------------------------------------- */

/* One validated call of any operation, with its description for messages. */
typedef struct any_call {
    const clpad_op_desc *op;
    union {
        clpad_pad_call pad;
        sb_call sb;
        clpad_np_call np;
    } u;
    char what[256];
} any_call;

static void random_pad(uint64_t *rng, int k, any_call *a)
{
    static const int ranks[] = {0, 1, 2, 3, 4};
    static const clpad_dtype row_dtypes[] = {CLPAD_U8, CLPAD_F16, CLPAD_F32, CLPAD_F64};
    tu_pad_case c;
    /* plain cases, mixed modes with numpy's large pads, and the rows of the
     * fast path's fixed-size moves (interiors of 32..512 bytes; a row case
     * whose pads break the mode's limits is drawn again) */
    int kind = k % 3;
    for (int tries = 0;; tries++) {
        if (tries == 1000)
            fail_msg("no valid pad case of kind %d in 1000 draws", kind);
        if (kind == 0) {
            tu_random_pad_case(rng, ranks, 5, 4000, &c);
        } else if (kind == 1) {
            tu_random_mixed_case(rng, ranks + 1, 4, 4000, (int)tu_range(rng, 0, 1), &c);
        } else {
            clpad_pad_mode m = (clpad_pad_mode)tu_range(rng, 0, CLPAD_PAD_MODE_COUNT - 1);
            if (!tu_row_case(&c, row_dtypes[tu_range(rng, 0, 3)], m, tu_range(rng, 24, 520),
                             tu_range(rng, 1, 5), tu_range(rng, -2, 6), tu_range(rng, -2, 6),
                             rng))
                continue;
        }
        clpad_pad_options o;
        tu_pad_options(&c, &o);
        /* per-side constants: half the all-constant calls, and every fifth
         * plain or mixed case made constant on every axis (corners of
         * several padded axes: the last axis' value) */
        unsigned char sides[2 * CLPAD_MAX_RANK * 8];
        bool force = kind != 2 && k % 5 == 4, constant = c.rank > 0;
        for (int i = 0; i < c.rank; i++) {
            if (force)
                o.modes[i] = CLPAD_PAD_CONSTANT;
            constant &= o.modes[i] == CLPAD_PAD_CONSTANT;
        }
        if (constant && (force || tu_range(rng, 0, 1))) {
            tu_fill(sides, sizeof sides, rng);
            o.side_values = sides;
        }
        clpad_status st = clpad__pad_validate(c.dtype, c.rank, c.shape, c.pads_begin,
                                              c.pads_end, &o, c.value, &a->u.pad);
        if (!st)
            break;
        if (kind != 2)
            fail_msg("a generated pad case is invalid: %s", clpad_last_error());
    }
    a->op = clpad__op_find("pad");
    tu_pad_case_str(&c, a->what, sizeof a->what);
    if (a->u.pad.per_side)
        strncat(a->what, " side_values (every axis constant)",
                sizeof a->what - strlen(a->what) - 1);
}

static void random_sb(uint64_t *rng, enum sb_op op, any_call *a)
{
    for (;;) {
        int rank = (int)tu_range(rng, 2, 5);
        int64_t shape[CLPAD_MAX_RANK], block[CLPAD_MAX_RANK], begin[CLPAD_MAX_RANK],
            end[CLPAD_MAX_RANK];
        clpad_dtype dt = (clpad_dtype[]){CLPAD_U8, CLPAD_I16, CLPAD_F32, CLPAD_I64}[tu_range(rng, 0, 3)];
        shape[0] = tu_range(rng, 0, 9) ? tu_range(rng, 1, 3) : 0;
        block[0] = 1;
        begin[0] = end[0] = 0;
        /* half the calls: a long innermost axis with a block of 2, the rows
         * the device table's vector variant (sb_vector) moves V at a time */
        bool long_rows = tu_range(rng, 0, 1);
        for (int i = 1; i < rank; i++) {
            int64_t D = tu_range(rng, 0, 12) ? tu_range(rng, 1, 9) : 0;
            int kind = (int)tu_range(rng, 0, 3); /* plain, padded, blocked, both */
            int64_t B = kind >= 2 ? tu_range(rng, 2, 4) : 1;
            if (long_rows && i == rank - 1) {
                D = tu_range(rng, 16, 70);
                B = 2;
                kind = (int)tu_range(rng, 2, 3);
            }
            int64_t pb = kind == 1 || kind == 3 ? tu_range(rng, 0, 3) : 0;
            int64_t pe = kind == 1 || kind == 3 ? tu_range(rng, 0, 3) : 0;
            pe += (B - (D + pb + pe) % B) % B;
            shape[i] = D;
            block[i] = B;
            begin[i] = pb;
            end[i] = pe;
        }
        if (op == SB_B2S) { /* the output of that space_to_batch, cropped at random */
            int64_t os[CLPAD_MAX_RANK];
            if (clpad_space_to_batch_output_shape(rank, shape, block, begin, end, os))
                continue;
            memcpy(shape, os, sizeof os);
            for (int i = 1; i < rank; i++) {
                int64_t full = shape[i] * block[i];
                begin[i] = tu_range(rng, 0, full < 3 ? full : 3);
                end[i] = tu_range(rng, 0, full - begin[i] < 3 ? full - begin[i] : 3);
            }
        }
        if (clpad__sb_validate(op, dt, rank, shape, block, begin, end, &a->u.sb))
            continue;
        if (a->u.sb.g.out_bytes > 64 * 1024 || a->u.sb.g.in_bytes > 64 * 1024)
            continue;
        a->op = clpad__op_find(op == SB_S2B ? "space_to_batch" : "batch_to_space");
        char s[96], b[96], p[96], e[96];
        snprintf(a->what, sizeof a->what, "%s %s shape=%s block=%s begin=%s end=%s", a->op->name,
                 clpad_dtype_name(dt), tu_shape_str(rank, shape, s, sizeof s),
                 tu_shape_str(rank, block, b, sizeof b), tu_shape_str(rank, begin, p, sizeof p),
                 tu_shape_str(rank, end, e, sizeof e));
        return;
    }
}

/* clpad_pad_numpy's modes (the statistics, odd reflect and symmetric):
 * ranks 1-3, every dtype they take, pads 0-4 (past the period of short
 * axes: numpy's chunk-by-chunk mirroring),
 * stat lengths whole (-1) or 1..shape+1 (beyond the axis: the whole axis);
 * one call in four has a long innermost axis (pairwise sums past 128). */
static void random_np(uint64_t *rng, any_call *a)
{
    static const clpad_dtype dts[] = {CLPAD_I8,  CLPAD_U8,  CLPAD_I16, CLPAD_U16, CLPAD_I32,
                                      CLPAD_U32, CLPAD_I64, CLPAD_U64, CLPAD_F32, CLPAD_F64};
    static const char *modes[] = {"maximum", "minimum", "mean", "median", "reflect-odd",
                                  "symmetric-odd", "linear-ramp"};
    _Static_assert(sizeof modes / sizeof *modes == CLPAD_NUMPY_MODE_COUNT,
                   "a name for every clpad_numpy_mode");
    for (;;) {
        int rank = (int)tu_range(rng, 1, 3);
        int64_t shape[3], pb[3], pe[3], sb[3], se[3];
        bool long_row = tu_range(rng, 0, 3) == 0;
        for (int i = 0; i < rank; i++) {
            shape[i] = long_row && i == rank - 1 ? tu_range(rng, 100, 700) : tu_range(rng, 1, 7);
            pb[i] = tu_range(rng, 0, 4);
            pe[i] = tu_range(rng, 0, 4);
            sb[i] = tu_range(rng, 0, 2) ? tu_range(rng, 1, shape[i] + 1) : -1;
            se[i] = tu_range(rng, 0, 2) ? tu_range(rng, 1, shape[i] + 1) : -1;
        }
        clpad_dtype dt = dts[tu_range(rng, 0, 9)];
        clpad_numpy_mode mode = (clpad_numpy_mode)tu_range(rng, 0, CLPAD_NUMPY_MODE_COUNT - 1);
        if (clpad__np_validate(dt, rank, shape, pb, pe, mode, sb, se, &a->u.np))
            fail_msg("a generated pad_numpy case is invalid: %s", clpad_last_error());
        /* linear_ramp: end values 0 (numpy's default) or small halves, in
         * float32 for some f32 calls */
        double eb[3] = {0}, ee[3] = {0};
        bool f32 = dt == CLPAD_F32 && tu_range(rng, 0, 1);
        if (mode == CLPAD_NUMPY_LINEAR_RAMP && tu_range(rng, 0, 1))
            for (int i = 0; i < rank; i++) {
                eb[i] = (double)tu_range(rng, 0, 200) / 2 - 50;
                ee[i] = (double)tu_range(rng, 0, 200) / 2 - 50;
            }
        if (mode == CLPAD_NUMPY_LINEAR_RAMP && clpad__np_set_ramp(&a->u.np, eb, ee, f32))
            fail_msg("a generated linear_ramp case is invalid: %s", clpad_last_error());
        a->op = clpad__op_find("pad_numpy");
        char s[64], b[64], e[64], l[64], r[64];
        snprintf(a->what, sizeof a->what,
                 "pad_numpy %s %s shape=%s begin=%s end=%s stat_begin=%s stat_end=%s",
                 clpad_dtype_name(dt), modes[mode], tu_shape_str(rank, shape, s, sizeof s),
                 tu_shape_str(rank, pb, b, sizeof b), tu_shape_str(rank, pe, e, sizeof e),
                 tu_shape_str(rank, sb, l, sizeof l), tu_shape_str(rank, se, r, sizeof r));
        return;
    }
}

/* A random call of operation `op` (one with a reference); false when the
 * test has no generator for it (a failure: every such operation needs one). */
static bool random_call(const clpad_op_desc *op, uint64_t *rng, int k, any_call *a)
{
    if (!strcmp(op->name, "pad"))
        random_pad(rng, k, a);
    else if (!strcmp(op->name, "space_to_batch"))
        random_sb(rng, SB_S2B, a);
    else if (!strcmp(op->name, "batch_to_space"))
        random_sb(rng, SB_B2S, a);
    else if (!strcmp(op->name, "pad_numpy"))
        random_np(rng, a);
    else
        return false;
    return true;
}

/* Whether name is one of the comma-separated names of list. */
static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && !strncmp(p, name, n))
            return true;
        p += k + (p[k] == ',');
    }
    return false;
}

/* Run `cases` random calls of every operation with a reference through
 * the fast host path, or through the device (g_ctx), against ref. */
static void runs_vs_ref(int cases)
{
    uint64_t rng = tu_seed();
    int checked = 0;
    /* CLPAD_TEST_OPS=name[,name]: run only these operations (a replay's aid) */
    const char *only = getenv("CLPAD_TEST_OPS");
    for (size_t i = 0; clpad__op_at(i); i++) {
        const clpad_op_desc *op = clpad__op_at(i);
        if (!op->ref)
            continue;
        for (int k = 0; k < cases; k++) {
            any_call a;
            if (!random_call(op, &rng, k, &a))
                fail_msg("operation '%s' has a reference but this test has no generator for it",
                         op->name);
            size_t in_bytes, out_bytes;
            op->sizes(&a.u, &in_bytes, &out_bytes);
            unsigned char *in = malloc(in_bytes + 1), *want = malloc(out_bytes + 1),
                          *got = malloc(out_bytes + 1);
            tu_fill(in, in_bytes, &rng);
            if (only && !listed(only, op->name)) { /* drawn, so that a seed replays */
                free(in);
                free(want);
                free(got);
                continue;
            }
            memset(want, 0x5a, out_bytes + 1);
            memset(got, 0xa5, out_bytes + 1);
            op->ref(&a.u, in_bytes ? in : NULL, want);
            const char *path = g_ctx ? "device run" : "fast host path";
            if (g_ctx) {
                clpad_status st = clpad__run_host(g_ctx, in, in_bytes, got, out_bytes,
                                                  in_bytes + out_bytes, op->enqueue, &a.u, NULL);
                if (st)
                    fail_msg("%s: %s failed: %s", a.what, path, clpad_last_error());
            } else {
                op->cpu(&a.u, in_bytes ? in : NULL, got);
            }
            if (memcmp(got, want, out_bytes)) {
                size_t at = 0;
                while (got[at] == want[at])
                    at++;
                fail_msg("%s: the %s differs from the reference at byte %zu of %zu "
                         "(0x%02x, want 0x%02x)",
                         a.what, path, at, out_bytes, got[at], want[at]);
            }
            if (got[out_bytes] != 0xa5)
                fail_msg("%s: the %s wrote past the output", a.what, path);
            free(in);
            free(want);
            free(got);
            checked++;
        }
    }
    printf("%d random calls: the %s equals the reference\n", checked,
           g_ctx ? "device run" : "fast host path");
}

static void test_cpu_vs_ref(void **state)
{
    (void)state;
    runs_vs_ref(600);
}

static void test_device_vs_ref(void **state)
{
    (void)state;
    runs_vs_ref(150);
}

/* pad_numpy's call `a` on input `in`: the device run (its launch geometry as
 * set) equals the reference byte for byte and writes nothing past the
 * output (fails naming `what` where not). False: the device has no doubles
 * and refused a call that needs them (the call's error says so). */
static bool np_check(any_call *a, const unsigned char *in, const char *what)
{
    size_t in_bytes, out_bytes;
    a->op->sizes(&a->u, &in_bytes, &out_bytes);
    unsigned char *ref = malloc(out_bytes + 1), *got = malloc(out_bytes + 1);
    memset(ref, 0x5a, out_bytes + 1);
    memset(got, 0xa5, out_bytes + 1);
    a->op->ref(&a->u, in, ref);
    clpad_status st = clpad__run_host(g_ctx, in, in_bytes, got, out_bytes, in_bytes + out_bytes,
                                      a->op->enqueue, &a->u, NULL);
    clpad_dtype dt = a->u.np.dtype;
    bool doubles = dt == CLPAD_F64 || (dt != CLPAD_F32 && a->u.np.mode >= CLPAD_NUMPY_MEAN);
    bool ok = !(st == CLPAD_ERR_UNSUPPORTED && doubles &&
                strstr(clpad_last_error(), "cl_khr_fp64"));
    if (ok && st)
        fail_msg("%s: %s", what, clpad_last_error());
    if (ok && (memcmp(got, ref, out_bytes) || got[out_bytes] != 0xa5)) {
        size_t at = 0;
        while (at < out_bytes && got[at] == ref[at])
            at++;
        fail_msg("%s: the device run differs from the reference at byte %zu of %zu", what, at,
                 out_bytes);
    }
    free(ref);
    free(got);
    return ok;
}

/* pad_numpy's fused kernel (fuse2d, clpad__np_fused) on the shapes it
 * takes and on those it leaves to the per-axis launches, device against
 * the reference, under the CPU launch geometry (where it runs): every
 * statistic mode (median always falls back), stat lengths whole, short
 * and overlapping, the dtypes in turn (random bytes: NaNs and -0 among
 * the floats). */
static void test_np_fused(void **state)
{
    (void)state;
    static const struct {
        int rank;
        int64_t shape[4], pb[4], pe[4];
        bool fused;
    } cases[] = {
        {4, {2, 3, 9, 11}, {0, 0, 1, 2}, {0, 0, 3, 1}, true},   /* the bench's case, small */
        {2, {9, 11}, {2, 0}, {1, 3}, true},                     /* one plane */
        {1, {20}, {3}, {2}, true},                              /* one row */
        {3, {4, 7, 300}, {0, 2, 1}, {0, 1, 0}, true},           /* pairwise W sums past 128 */
        {3, {4, 1, 5}, {0, 2, 2}, {0, 1, 1}, true},             /* H of one row */
        {3, {4, 6, 9}, {0, 3, 0}, {0, 0, 0}, true},             /* H alone */
        {3, {4, 6, 1}, {0, 0, 1}, {0, 0, 2}, true},             /* W of one element */
        {3, {4, 6, 1}, {0, 1, 0}, {0, 1, 0}, false},            /* H's sums pairwise */
        {4, {2, 3, 9, 11}, {0, 1, 1, 2}, {0, 0, 3, 1}, false},  /* an outer axis padded */
        {3, {2, 3, 600}, {0, 1, 1}, {0, 2, 2}, false},          /* W past the kernel's */
    };
    static const clpad_dtype dts[] = {CLPAD_F32, CLPAD_U8,  CLPAD_I16, CLPAD_F64, CLPAD_I64,
                                      CLPAD_U32, CLPAD_I8,  CLPAD_U16, CLPAD_I32, CLPAD_U64};
    static const int64_t stats[][2] = {{-1, -1}, {1, 2}, {3, 5}};
    int saved = g_ctx->row_geometry, k = 0, fused = 0, refused = 0;
    g_ctx->row_geometry = 1;
    uint64_t rng = tu_seed();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int m = CLPAD_NUMPY_MAXIMUM; m <= CLPAD_NUMPY_MEDIAN; m++)
            for (size_t s = 0; s < sizeof stats / sizeof *stats; s++, k++) {
                int rank = cases[i].rank;
                int64_t sb[4], se[4];
                for (int a = 0; a < rank; a++) {
                    sb[a] = stats[s][0];
                    se[a] = stats[s][1];
                }
                any_call a = {.op = clpad__op_find("pad_numpy")};
                clpad_dtype dt = dts[k % 10];
                if (clpad__np_validate(dt, rank, cases[i].shape, cases[i].pb, cases[i].pe,
                                       (clpad_numpy_mode)m, sb, se, &a.u.np))
                    fail_msg("case %zu: %s", i, clpad_last_error());
                bool want = cases[i].fused && m != CLPAD_NUMPY_MEDIAN &&
                            !(m == CLPAD_NUMPY_MEAN && (dt == CLPAD_I64 || dt == CLPAD_U64));
                if (clpad__np_fused(g_ctx, &a.u.np) != want)
                    fail_msg("case %zu mode %d: the fused path %s", i, m,
                             want ? "does not apply" : "applies");
                fused += want;
                size_t in_bytes, out_bytes;
                a.op->sizes(&a.u, &in_bytes, &out_bytes);
                unsigned char *in = malloc(in_bytes);
                tu_fill(in, in_bytes, &rng);
                char what[96];
                snprintf(what, sizeof what, "case %zu %s mode %d stat %lld/%lld (%s)", i,
                         clpad_dtype_name(dt), m, (long long)stats[s][0],
                         (long long)stats[s][1], want ? "fused" : "per axis");
                if (!np_check(&a, in, what)) {
                    refused++;
                    fused -= want;
                }
                free(in);
            }
    g_ctx->row_geometry = saved;
    printf("%d calls (%d fused): the device run equals the reference; %d refused (no "
           "doubles on the device)\n",
           k - refused, fused, refused);
}

/* fuse2d's one pass over whole rows (maximum / minimum with W's slab the
 * whole row: the plain extreme folded into H's columns, the slab folded
 * again where a row holds a NaN) on the inputs where the plain extreme and
 * numpy's differ: NaNs of different payloads in one column (the first
 * wins), at a row's last element, outside the slab; columns and a row of
 * zeros of both signs (the first extreme's sign); ties. f32 and f64, H's
 * slab whole and 3 / 5 rows, W's whole (37 elements: a tail past the
 * eight-lane chunks). */
static void test_np_fused_nan(void **state)
{
    (void)state;
    int64_t shape[3] = {2, 12, 37}, pb[3] = {0, 2, 1}, pe[3] = {0, 1, 2};
    static const int64_t hstats[][2] = {{-1, -1}, {3, 5}};
    static const clpad_dtype dts[] = {CLPAD_F32, CLPAD_F64};
    int saved = g_ctx->row_geometry, calls = 0;
    g_ctx->row_geometry = 1;
    for (size_t d = 0; d < 2; d++)
        for (int m = CLPAD_NUMPY_MAXIMUM; m <= CLPAD_NUMPY_MEAN; m++)
            for (size_t s = 0; s < 2; s++) {
                int64_t sb[3] = {-1, hstats[s][0], -1}, se[3] = {-1, hstats[s][1], -1};
                any_call a = {.op = clpad__op_find("pad_numpy")};
                if (clpad__np_validate(dts[d], 3, shape, pb, pe, (clpad_numpy_mode)m, sb, se,
                                       &a.u.np))
                    fail_msg("%s", clpad_last_error());
                assert_true(clpad__np_fused(g_ctx, &a.u.np));
                size_t n = 2 * 12 * 37, es = d ? 8 : 4;
                unsigned char *in = malloc(n * es);
                for (size_t i = 0; i < n; i++) {
                    size_t h = i / 37 % 12, w = i % 37;
                    double v = w == 3 || h == 7 ? ((h + w) % 3 ? 0.0 : -0.0)
                                                : (double)(i * 7919 % 13) - 6.0;
                    uint64_t nan = 0; /* a quiet NaN's payload and sign */
                    if (i == 1 * 37 + 5)
                        nan = 1;
                    else if (i == 4 * 37 + 5)
                        nan = 2;
                    else if (i == 10 * 37 + 20)
                        nan = 3;
                    else if (i == n - 1)
                        nan = 4 | (uint64_t)1 << 63;
                    if (d) {
                        uint64_t b;
                        memcpy(&b, &v, 8);
                        if (nan)
                            b = 0x7ff8000000000000u | nan;
                        memcpy(in + i * 8, &b, 8);
                    } else {
                        float f = (float)v;
                        uint32_t b;
                        memcpy(&b, &f, 4);
                        if (nan)
                            b = 0x7fc00000u | (uint32_t)(nan >> 32) | (uint32_t)(nan & 0xff);
                        memcpy(in + i * 4, &b, 4);
                    }
                }
                char what[64];
                snprintf(what, sizeof what, "%s mode %d H stat %lld/%lld",
                         clpad_dtype_name(dts[d]), m, (long long)sb[1], (long long)se[1]);
                calls += np_check(&a, in, what);
                free(in);
            }
    g_ctx->row_geometry = saved;
    printf("%d calls: the device run equals the reference\n", calls);
}

/* A build log from a driver that ignores #line (NVIDIA's, as seen on an
 * H200 with driver 580: "<kernel>:11:39: error" for line 1 of pad.cl) names
 * each file and its own line; other positions and logs stay as they were. */
static void test_build_log_lines(void **state)
{
    (void)state;
    const char *src = "#line 1 \"kernels/coords.h\"\n/* a */\n/* b */\n\n"
                      "#line 1 \"kernels/common.cl\"\n/* c */\n/* d */\n/* e */\n\n"
                      "#line 1 \"kernels/pad.cl\"\n__kernel void pad() { this is not C; }\n";
    char *got = clpad__build_log_lines(
        src, "build log:\n<kernel>:11:39: error: use of undeclared identifier 'this'\n"
             "<kernel>:7:2: note: here\n<kernel>:x: odd\n<kernel>:2:1: warning: w\n");
    assert_non_null(got);
    assert_string_equal(got, "build log:\n"
                             "kernels/pad.cl:1:39: error: use of undeclared identifier 'this'\n"
                             "kernels/common.cl:2:2: note: here\n<kernel>:x: odd\n"
                             "kernels/coords.h:1:1: warning: w\n");
    free(got);
    assert_null(clpad__build_log_lines(src, "kernels/pad.cl:1:39: error: x\n"));
    /* before the first marker: nothing to name it by */
    got = clpad__build_log_lines(src, "<kernel>:1:1: error\n");
    assert_string_equal(got, "<kernel>:1:1: error\n");
    free(got);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "device")) {
        g_ctx = tu_device_context(); /* exits 77 (Skipped) without a device */
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_device_vs_ref),
                                           cmocka_unit_test(test_np_fused),
                                           cmocka_unit_test(test_np_fused_nan)};
        int rc = cmocka_run_group_tests(tests, NULL, NULL);
        clpad_context_destroy(g_ctx);
        return rc;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_build_log_lines),
        cmocka_unit_test(test_cpu_vs_ref),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
