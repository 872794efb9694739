/* SpaceToBatch / BatchToSpace (SPEC §2, §3): validation and output shapes,
 * the collapsed plan shared by the CPU reference and the kernels, the CPU
 * reference, and the OpenCL enqueue and host-pointer paths.
 *
 * Both operations move elements between a "space" tensor [N, S1, ..., Sm]
 * and a "batch" tensor [B1*...*Bm*N, O1, ..., Om], where on every spatial axis
 * O*B = off + S + end with off, end >= 0. The batch element with block offsets
 * k = (k1, ..., km), original batch n and spatial index o, stored at batch
 * index ((k1*B2 + k2)*B3 + ... + km) * N + n (block offset outer, original
 * batch inner), corresponds to the space coordinate c = o*B + k - off on each
 * axis.
 *  - space_to_batch: space is the input (S = D, off = pads_begin); every batch
 *    element is written, from the input or as zero where c is outside [0, S).
 *  - batch_to_space: batch is the input (O = D, off = crops_begin); every
 *    space element (S = D*B - crops_begin - crops_end) is written from the
 *    batch element it corresponds to; the others are cropped.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

enum sb_op { SB_S2B, SB_B2S };

static const char *op_name(enum sb_op op)
{
    return op == SB_S2B ? "space_to_batch" : "batch_to_space";
}

/* ---- Validation ------------------------------------------------------------ */

/* A validated call, in the terms above. Index 0 of the per-axis arrays is the
 * batch axis (S[0] = O[0] = N, B[0] = 1, off[0] = 0). */
typedef struct sb_geom {
    int rank;
    int64_t S[CLPAD_MAX_RANK], O[CLPAD_MAX_RANK], B[CLPAD_MAX_RANK], off[CLPAD_MAX_RANK];
    int64_t N, prod_b;
    int64_t out_shape[CLPAD_MAX_RANK];
    size_t in_bytes, out_bytes; /* with the element size given to sb_check */
} sb_geom;

static clpad_status sb_check(enum sb_op op, size_t esize, int rank, const int64_t *shape,
                             const int64_t *block, const int64_t *begin, const int64_t *end,
                             sb_geom *g)
{
    const char *on = op_name(op);
    const char *bn = op == SB_S2B ? "pads_begin" : "crops_begin";
    const char *en = op == SB_S2B ? "pads_end" : "crops_end";
    const char *verb = op == SB_S2B ? "padded" : "cropped";
    clpad_status st = clpad__check_rank_shape(on, rank, 2, shape);
    if (st)
        return st;
    if (!block || !begin || !end)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: %s is NULL", on,
                           !block ? "block_shape" : !begin ? bn : en);
    for (int i = 0; i < rank; i++) {
        if (i == 0 && block[0] != 1)
            return clpad__fail(CLPAD_ERR_INVALID_PADS,
                               "%s: block_shape[0] = %lld must be 1 (the batch axis is not "
                               "blocked)",
                               on, (long long)block[0]);
        if (block[i] < 1)
            return clpad__fail(CLPAD_ERR_INVALID_PADS, "%s: block_shape[%d] = %lld must be >= 1",
                               on, i, (long long)block[i]);
        const int64_t *arr[2] = {begin, end};
        const char *names[2] = {bn, en};
        for (int s = 0; s < 2; s++) {
            if (arr[s][i] < 0)
                return clpad__fail(CLPAD_ERR_INVALID_PADS, "%s: %s[%d] = %lld is negative", on,
                                   names[s], i, (long long)arr[s][i]);
            if (i == 0 && arr[s][0] != 0)
                return clpad__fail(CLPAD_ERR_INVALID_PADS,
                                   "%s: %s[0] = %lld must be 0 (the batch axis is not %s)", on,
                                   names[s], (long long)arr[s][0], verb);
        }
    }
    int64_t prod_b = 1;
    for (int i = 1; i < rank; i++)
        if (!clpad__mul_i64(prod_b, block[i], &prod_b))
            return clpad__fail(CLPAD_ERR_OVERFLOW, "%s: prod(block_shape) overflows int64", on);

    g->rank = rank;
    g->prod_b = prod_b;
    g->S[0] = g->O[0] = 0;
    g->B[0] = 1;
    g->off[0] = 0;
    if (op == SB_S2B) {
        g->N = shape[0];
        if (!clpad__mul_i64(shape[0], prod_b, &g->out_shape[0]))
            return clpad__fail(CLPAD_ERR_OVERFLOW,
                               "%s: the output batch shape[0] * prod(block_shape) = %lld * %lld "
                               "overflows int64",
                               on, (long long)shape[0], (long long)prod_b);
        for (int i = 1; i < rank; i++) {
            int64_t P;
            if (!clpad__add_i64(shape[i], begin[i], &P) || !clpad__add_i64(P, end[i], &P))
                return clpad__fail(CLPAD_ERR_OVERFLOW,
                                   "%s: shape[%d] + pads_begin[%d] + pads_end[%d] = %lld + %lld + "
                                   "%lld overflows int64",
                                   on, i, i, i, (long long)shape[i], (long long)begin[i],
                                   (long long)end[i]);
            if (P % block[i])
                return clpad__fail(CLPAD_ERR_INVALID_PADS,
                                   "%s: block_shape[%d] = %lld does not divide shape[%d] + "
                                   "pads_begin[%d] + pads_end[%d] = %lld + %lld + %lld = %lld",
                                   on, i, (long long)block[i], i, i, i, (long long)shape[i],
                                   (long long)begin[i], (long long)end[i], (long long)P);
            g->S[i] = shape[i];
            g->O[i] = P / block[i];
            g->B[i] = block[i];
            g->off[i] = begin[i];
            g->out_shape[i] = g->O[i];
        }
    } else {
        if (shape[0] % prod_b)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE,
                               "%s: shape[0] = %lld is not divisible by prod(block_shape) = %lld",
                               on, (long long)shape[0], (long long)prod_b);
        g->N = g->out_shape[0] = shape[0] / prod_b;
        for (int i = 1; i < rank; i++) {
            int64_t full;
            if (!clpad__mul_i64(shape[i], block[i], &full))
                return clpad__fail(CLPAD_ERR_OVERFLOW,
                                   "%s: shape[%d] * block_shape[%d] = %lld * %lld overflows int64",
                                   on, i, i, (long long)shape[i], (long long)block[i]);
            if (begin[i] > full || end[i] > full - begin[i])
                return clpad__fail(CLPAD_ERR_INVALID_PADS,
                                   "%s: crops_begin[%d] + crops_end[%d] = %lld + %lld exceeds "
                                   "shape[%d] * block_shape[%d] = %lld * %lld = %lld",
                                   on, i, i, (long long)begin[i], (long long)end[i], i, i,
                                   (long long)shape[i], (long long)block[i], (long long)full);
            g->O[i] = shape[i];
            g->S[i] = g->out_shape[i] = full - begin[i] - end[i];
            g->B[i] = block[i];
            g->off[i] = begin[i];
        }
    }
    g->S[0] = g->O[0] = g->N;
    if (!clpad__count(rank, shape, esize, NULL, &g->in_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "%s: the input %s overflows", on,
                           esize > 1 ? "byte size" : "element count");
    if (!clpad__count(rank, g->out_shape, esize, NULL, &g->out_bytes))
        return clpad__fail(CLPAD_ERR_OVERFLOW, "%s: the output %s overflows", on,
                           esize > 1 ? "byte size" : "element count");
    return CLPAD_OK;
}

static clpad_status sb_output_shape(enum sb_op op, int rank, const int64_t *shape,
                                    const int64_t *block, const int64_t *begin,
                                    const int64_t *end, int64_t *out_shape)
{
    clpad__clear_error();
    if (!out_shape)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: out_shape is NULL", op_name(op));
    sb_geom g;
    clpad_status st = sb_check(op, 1, rank, shape, block, begin, end, &g);
    if (st)
        return st;
    memcpy(out_shape, g.out_shape, (size_t)rank * sizeof *out_shape);
    return CLPAD_OK;
}

clpad_status clpad_space_to_batch_output_shape(int rank, const int64_t *shape,
                                               const int64_t *block_shape,
                                               const int64_t *pads_begin, const int64_t *pads_end,
                                               int64_t *out_shape)
{
    return sb_output_shape(SB_S2B, rank, shape, block_shape, pads_begin, pads_end, out_shape);
}

clpad_status clpad_batch_to_space_output_shape(int rank, const int64_t *shape,
                                               const int64_t *block_shape,
                                               const int64_t *crops_begin,
                                               const int64_t *crops_end, int64_t *out_shape)
{
    return sb_output_shape(SB_B2S, rank, shape, block_shape, crops_begin, crops_end, out_shape);
}

/* Validate a data call: dtype, geometry, and the host buffers (NULL output or
 * input with a non-empty tensor, output_bytes too small). */
static clpad_status sb_check_call(enum sb_op op, clpad_dtype dtype, int rank,
                                  const int64_t *shape, const int64_t *block,
                                  const int64_t *begin, const int64_t *end, sb_geom *g)
{
    size_t esize = clpad_dtype_size(dtype);
    if (!esize)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: invalid dtype %d", op_name(op),
                           (int)dtype);
    return sb_check(op, esize, rank, shape, block, begin, end, g);
}

static clpad_status sb_check_host_buffers(enum sb_op op, const sb_geom *g, const void *input,
                                          const void *output, size_t output_bytes)
{
    if (output_bytes < g->out_bytes)
        return clpad__fail(CLPAD_ERR_BUFFER_TOO_SMALL,
                           "%s: output_bytes = %zu, but the output needs %zu bytes", op_name(op),
                           output_bytes, g->out_bytes);
    if (g->out_bytes == 0)
        return CLPAD_OK;
    if (!output)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: output is NULL", op_name(op));
    if (g->in_bytes > 0 && !input)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: input is NULL", op_name(op));
    return CLPAD_OK;
}

/* ---- The collapsed plan ---------------------------------------------------- */

/* Spatial axes after collapsing, outermost first, and the batch. An axis is
 * "plain" when it moves unchanged (B = 1, off = 0, O = S). Collapsing:
 *  - plain axes of size 1 vanish;
 *  - an axis with B = 1 merges with a plain inner neighbour (whole inner rows
 *    are then zero or copied, as in constant Pad);
 *  - the batch merges with a plain first spatial axis: (n, o1) is adjacent on
 *    both sides, after the block offsets in the batch tensor;
 *  - a plain innermost axis becomes part of the element (elem bytes; the
 *    kernels move it as K units of 1, 2, 4 or 8 bytes).
 * m == 0 means every axis is plain: the operation is a plain copy. */
typedef struct sb_plan {
    int m;
    int64_t N;
    int64_t S[CLPAD_MAX_RANK - 1], O[CLPAD_MAX_RANK - 1], B[CLPAD_MAX_RANK - 1],
        off[CLPAD_MAX_RANK - 1];
    size_t elem;                       /* bytes per (possibly widened) element */
    int64_t prod_b;
    int64_t space_elems, batch_elems; /* in units of elem */
} sb_plan;

static bool plain(const sb_plan *p, int j)
{
    return p->B[j] == 1 && p->off[j] == 0 && p->O[j] == p->S[j];
}

static void remove_axis(sb_plan *p, int j)
{
    for (int t = j; t < p->m - 1; t++) {
        p->S[t] = p->S[t + 1];
        p->O[t] = p->O[t + 1];
        p->B[t] = p->B[t + 1];
        p->off[t] = p->off[t + 1];
    }
    p->m--;
}

static void sb_plan_build(const sb_geom *g, size_t esize, sb_plan *p)
{
    p->m = 0;
    p->N = g->N;
    p->elem = esize;
    p->prod_b = g->prod_b;
    for (int i = 1; i < g->rank; i++) {
        int j = p->m++;
        p->S[j] = g->S[i];
        p->O[j] = g->O[i];
        p->B[j] = g->B[i];
        p->off[j] = g->off[i];
        if (plain(p, j) && p->S[j] == 1)
            p->m--;
    }
    for (int j = p->m - 2; j >= 0; j--) {
        if (p->B[j] != 1 || !plain(p, j + 1))
            continue;
        int64_t S, O, off, inner = p->S[j + 1];
        if (!clpad__mul_i64(p->S[j], inner, &S) || !clpad__mul_i64(p->O[j], inner, &O) ||
            !clpad__mul_i64(p->off[j], inner, &off))
            continue;
        p->S[j] = S;
        p->O[j] = O;
        p->off[j] = off;
        remove_axis(p, j + 1);
    }
    while (p->m > 0 && plain(p, 0)) {
        int64_t N;
        if (!clpad__mul_i64(p->N, p->S[0], &N))
            break;
        p->N = N;
        remove_axis(p, 0);
    }
    if (p->m > 1 && plain(p, p->m - 1)) { /* part of the element from now on */
        size_t w;
        if (!__builtin_mul_overflow(esize, (size_t)p->S[p->m - 1], &w)) {
            p->elem = w;
            p->m--;
        }
    }
    /* Counts: the validated element counts, regrouped, so they cannot overflow
     * unless they are 0 (then every product below is 0 or skipped). */
    int64_t s = p->N, o = p->N;
    for (int j = 0; j < p->m; j++) {
        s = p->S[j] && s ? s * p->S[j] : 0;
        o = p->O[j] && o ? o * p->O[j] : 0;
    }
    p->space_elems = s;
    p->batch_elems = o && p->prod_b ? o * p->prod_b : 0;
}

/* ---- CPU reference --------------------------------------------------------- */

typedef struct sb_job {
    const sb_plan *p;
    const unsigned char *in;
    unsigned char *out;
    size_t es;
    size_t s_block[CLPAD_MAX_RANK - 1]; /* bytes of one index on each space axis */
    size_t o_block[CLPAD_MAX_RANK - 1]; /* bytes of one index on each batch axis */
    size_t k_block[CLPAD_MAX_RANK - 1]; /* bytes of one block offset step (batch side) */
} sb_job;

static inline void copy_elem(unsigned char *dst, const unsigned char *src, size_t es)
{
    switch (es) { /* constant sizes let the compiler inline the copy */
    case 1: memcpy(dst, src, 1); break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    default: clpad__copy(dst, src, es); break;
    }
}

/* Typed element moves for the strided loops below, T one of the unsigned
 * types of 1, 2, 4 or 8 bytes (memcpy: no alignment or aliasing assumed). */
#define CLPAD_MOVE(T, d, s)                   \
    do {                                      \
        T v_;                                 \
        memcpy(&v_, (s), sizeof(T));          \
        memcpy((d), &v_, sizeof(T));          \
    } while (0)

/* Calls BODY(T, B) with T the unsigned type of es bytes and B the block,
 * a constant for the common blocks 2, 3 and 4 (so that the compiler
 * vectorises the strided loop); returns. Other element sizes fall through. */
#define CLPAD_BY_SIZE_AND_BLOCK(BODY, es, B)                                  \
    switch (es) {                                                             \
    case 1: CLPAD_BY_BLOCK(BODY, uint8_t, B)                                  \
    case 2: CLPAD_BY_BLOCK(BODY, uint16_t, B)                                 \
    case 4: CLPAD_BY_BLOCK(BODY, uint32_t, B)                                 \
    case 8: CLPAD_BY_BLOCK(BODY, uint64_t, B)                                 \
    }
#define CLPAD_BY_BLOCK(BODY, T, B)                                            \
    switch (B) {                                                              \
    case 2: BODY(T, 2) return;                                                \
    case 3: BODY(T, 3) return;                                                \
    case 4: BODY(T, 4) return;                                                \
    default: BODY(T, B) return;                                               \
    }

/* d[i] = s[i * B] for i < n, elements of es bytes (space_to_batch's rows). */
static void gather_strided(unsigned char *restrict d, const unsigned char *restrict s, int64_t n,
                           int64_t B, size_t es)
{
#define CLPAD_GATHER(T, BB)                                                   \
    for (int64_t i = 0; i < n; i++)                                           \
        CLPAD_MOVE(T, d + (size_t)i * sizeof(T), s + (size_t)(i * (BB)) * sizeof(T));
    CLPAD_BY_SIZE_AND_BLOCK(CLPAD_GATHER, es, B)
#undef CLPAD_GATHER
    for (int64_t i = 0; i < n; i++)
        copy_elem(d + (size_t)i * es, s + (size_t)(i * B) * es, es);
}

/* d[g * B + k] = (s + k * kb)[g] for g < groups, k < B: B rows interleaved,
 * elements of es bytes (batch_to_space's rows). */
static void interleave(unsigned char *restrict d, const unsigned char *restrict s, size_t kb,
                       int64_t groups, int64_t B, size_t es)
{
#define CLPAD_INTERLEAVE(T, BB)                                               \
    for (int64_t g = 0; g < groups; g++)                                      \
        for (int64_t k = 0; k < (BB); k++)                                    \
            CLPAD_MOVE(T, d + (size_t)(g * (BB) + k) * sizeof(T),             \
                       s + (size_t)k * kb + (size_t)g * sizeof(T));
    CLPAD_BY_SIZE_AND_BLOCK(CLPAD_INTERLEAVE, es, B)
#undef CLPAD_INTERLEAVE
    for (int64_t g = 0; g < groups; g++)
        for (int64_t k = 0; k < B; k++)
            copy_elem(d + (size_t)(g * B + k) * es, s + (size_t)k * kb + (size_t)g * es, es);
}

/* The batch indices o in [0, O) whose space coordinate o*B + k - off lies in
 * [0, S): [*lo, *hi). */
static void inside_range(int64_t S, int64_t O, int64_t B, int64_t k, int64_t off, int64_t *lo,
                         int64_t *hi)
{
    int64_t a = off - k, b = S + off - k; /* need a <= o*B < b */
    int64_t l = a <= 0 ? 0 : (a + B - 1) / B;
    int64_t h = b <= 0 ? 0 : (b + B - 1) / B;
    if (h > O)
        h = O;
    if (l > h)
        l = h;
    *lo = l;
    *hi = h;
}

/* space_to_batch, the innermost axis: one input row (src, its byte offset)
 * goes to B output rows, one per block offset k of this axis (dst + k
 * k_block bytes), while it is in the cache: the input is read from memory
 * once, in order. */
static void s2b_row(const sb_job *J, size_t src, size_t dst)
{
    const sb_plan *p = J->p;
    int j = p->m - 1;
    int64_t S = p->S[j], O = p->O[j], B = p->B[j], off = p->off[j];
    size_t ob = J->o_block[j], sb = J->s_block[j], kb = J->k_block[j];
    for (int64_t k = 0; k < B; k++) {
        int64_t lo, hi;
        inside_range(S, O, B, k, off, &lo, &hi);
        unsigned char *d = J->out + dst + (size_t)k * kb;
        memset(d, 0, (size_t)lo * ob); /* padding before */
        if (hi > lo) { /* the input may be NULL when nothing is inside */
            const unsigned char *s = J->in + src;
            if (B == 1) /* a contiguous run (k = 0) */
                clpad__copy(d + (size_t)lo * ob, s + (size_t)(lo - off) * sb,
                            (size_t)(hi - lo) * ob);
            else /* every B-th element of the input row */
                gather_strided(d + (size_t)lo * ob, s + (size_t)(lo * B + k - off) * sb, hi - lo,
                               B, J->es);
        }
        memset(d + (size_t)hi * ob, 0, (size_t)(O - hi) * ob); /* padding after */
    }
}

/* space_to_batch, outer axis j (j < m - 1): the input indices c of axis j in
 * order, each to its batch index o and block offset k (o * B + k = c + off),
 * so that the input is read once, front to back (taking the block offsets
 * outermost, as the output is laid out, reads it in B passes of every B-th
 * slab: measured 18 against 28 GB/s on a 33 MB tensor); then the padding:
 * for each k, the batch indices outside the input, in every one of the
 * output tensors of the inner axes' block offsets. src is the byte offset of
 * the space slab of the outer axes, dst that of the outer axes' (o, k). */
static void s2b_axis(const sb_job *J, int j, size_t src, size_t dst)
{
    const sb_plan *p = J->p;
    int64_t S = p->S[j], O = p->O[j], B = p->B[j], off = p->off[j];
    size_t ob = J->o_block[j], sb = J->s_block[j], kb = J->k_block[j];
    int64_t o = off / B, k = off % B; /* of c + off, stepped along */
    for (int64_t c = 0; c < S; c++) {
        size_t to = dst + (size_t)o * ob + (size_t)k * kb;
        if (j + 1 == p->m - 1)
            s2b_row(J, src + (size_t)c * sb, to);
        else
            s2b_axis(J, j + 1, src + (size_t)c * sb, to);
        if (++k == B) {
            k = 0;
            o++;
        }
    }
    int64_t inner = 1; /* output tensors of the inner axes' block offsets */
    for (int i = j + 1; i < p->m; i++)
        inner *= p->B[i];
    for (int64_t kk = 0; kk < B; kk++) {
        int64_t lo, hi;
        inside_range(S, O, B, kk, off, &lo, &hi);
        if (lo == 0 && hi == O)
            continue;
        for (int64_t t = 0; t < inner; t++) {
            size_t at = dst + (size_t)kk * kb;
            for (int64_t r = t, i = p->m - 1; i > j; i--) {
                at += (size_t)(r % p->B[i]) * J->k_block[i];
                r /= p->B[i];
            }
            unsigned char *d = J->out + at;
            memset(d, 0, (size_t)lo * ob);                          /* before */
            memset(d + (size_t)hi * ob, 0, (size_t)(O - hi) * ob); /* after */
        }
    }
}

/* batch_to_space: write space axis j (all S indices); src is the byte offset
 * in the batch tensor for the outer axes (block offsets included). */
static void b2s_axis(const sb_job *J, int j, size_t src, size_t dst)
{
    const sb_plan *p = J->p;
    int64_t S = p->S[j], B = p->B[j], off = p->off[j];
    size_t ob = J->o_block[j], kb = J->k_block[j], sb = J->s_block[j];
    if (j == p->m - 1 && B == 1) { /* a contiguous run: o = s + off */
        clpad__copy(J->out + dst, J->in + src + (size_t)off * ob, (size_t)S * sb);
        return;
    }
    int64_t o = off / B, k = off % B; /* of c = s + off, stepped along */
    if (j == p->m - 1) { /* a row: a partial group, whole groups of B, a partial group */
        unsigned char *d = J->out + dst;
        const unsigned char *from = J->in + src;
        int64_t s = 0;
        for (; k != 0 && s < S; s++) {
            copy_elem(d + (size_t)s * sb, from + (size_t)o * ob + (size_t)k * kb, J->es);
            if (++k == B) {
                k = 0;
                o++;
            }
        }
        int64_t groups = (S - s) / B;
        interleave(d + (size_t)s * sb, from + (size_t)o * ob, kb, groups, B, J->es);
        s += groups * B;
        o += groups;
        for (k = 0; s < S; s++, k++)
            copy_elem(d + (size_t)s * sb, from + (size_t)o * ob + (size_t)k * kb, J->es);
        return;
    }
    for (int64_t s = 0; s < S; s++) {
        b2s_axis(J, j + 1, src + (size_t)o * ob + (size_t)k * kb, dst + (size_t)s * sb);
        if (++k == B) {
            k = 0;
            o++;
        }
    }
}

static void sb_run_cpu(enum sb_op op, const sb_plan *p, const void *input, void *output)
{
    size_t es = p->elem;
    sb_job J = {.p = p, .in = input, .out = output, .es = es};
    size_t sbytes = es, obytes = es, kbytes;
    for (int j = p->m - 1; j >= 0; j--) {
        J.s_block[j] = sbytes;
        J.o_block[j] = obytes;
        sbytes *= (size_t)p->S[j];
        obytes *= (size_t)p->O[j];
    }
    /* sbytes, obytes: one batch index of the space and of the batch tensor */
    kbytes = obytes * (size_t)p->N; /* one step of the flat block offset */
    for (int j = p->m - 1; j >= 0; j--) {
        J.k_block[j] = kbytes;
        kbytes *= (size_t)p->B[j];
    }
    if (op == SB_S2B) {
        for (int64_t n = 0; n < p->N; n++) {
            if (p->m == 1)
                s2b_row(&J, (size_t)n * sbytes, (size_t)n * obytes);
            else
                s2b_axis(&J, 0, (size_t)n * sbytes, (size_t)n * obytes);
        }
    } else {
        for (int64_t n = 0; n < p->N; n++)
            b2s_axis(&J, 0, (size_t)n * obytes, (size_t)n * sbytes);
    }
}

static clpad_status sb_cpu(enum sb_op op, clpad_dtype dtype, int rank, const int64_t *shape,
                           const void *input, const int64_t *block, const int64_t *begin,
                           const int64_t *end, void *output, size_t output_bytes)
{
    clpad__clear_error();
    sb_geom g;
    clpad_status st = sb_check_call(op, dtype, rank, shape, block, begin, end, &g);
    if (st || (st = sb_check_host_buffers(op, &g, input, output, output_bytes)))
        return st;
    if (g.out_bytes == 0)
        return CLPAD_OK;
    sb_plan p;
    sb_plan_build(&g, clpad_dtype_size(dtype), &p);
    if (p.m == 0) {
        memcpy(output, input, g.out_bytes);
        return CLPAD_OK;
    }
    sb_run_cpu(op, &p, input, output);
    return CLPAD_OK;
}

clpad_status clpad_space_to_batch_cpu(clpad_dtype dtype, int rank, const int64_t *shape,
                                      const void *input, const int64_t *block_shape,
                                      const int64_t *pads_begin, const int64_t *pads_end,
                                      void *output, size_t output_bytes)
{
    return sb_cpu(SB_S2B, dtype, rank, shape, input, block_shape, pads_begin, pads_end, output,
                  output_bytes);
}

clpad_status clpad_batch_to_space_cpu(clpad_dtype dtype, int rank, const int64_t *shape,
                                      const void *input, const int64_t *block_shape,
                                      const int64_t *crops_begin, const int64_t *crops_end,
                                      void *output, size_t output_bytes)
{
    return sb_cpu(SB_B2S, dtype, rank, shape, input, block_shape, crops_begin, crops_end, output,
                  output_bytes);
}

/* ---- OpenCL ---------------------------------------------------------------- */

const char *clpad__sb_options(const clpad_context *ctx)
{
    return ctx->nt_output_bytes ? "-DCLPAD_NT=1" : "";
}

/* Launch the kernel of a plan with m >= 1 and a non-empty output. Elements
 * of the plan are moved as K units of eb bytes, eb the largest of 8, 4, 2, 1
 * that divides the element and both buffer offsets. The long8 arguments hold
 * the spatial axes innermost first (component t is axis m-1-t), strides in
 * units, as kernels/space_batch.cl expects. */
static clpad_status launch_plan(clpad_context *ctx, enum sb_op op, const sb_plan *p,
                                cl_mem input, size_t input_offset, cl_mem output,
                                size_t output_offset, cl_command_queue queue, cl_uint num_events,
                                const cl_event *wait_list, cl_event *event)
{
    size_t eb = 8;
    while (eb > 1 && (p->elem % eb || input_offset % eb || output_offset % eb))
        eb >>= 1;
    cl_long K = (cl_long)(p->elem / eb);
    char name[16];
    snprintf(name, sizeof name, "%s_%zu", op == SB_S2B ? "s2b" : "b2s", eb);
    cl_long8 S = {{0}}, O = {{0}}, B = {{0}}, off = {{0}}, s_strides = {{0}}, o_strides = {{0}},
             k_strides = {{0}};
    int m = p->m;
    cl_long ss = K, os = K; /* units of one index on the current axis */
    for (int t = 0; t < m; t++) {
        int j = m - 1 - t;
        S.s[t] = p->S[j];
        O.s[t] = p->O[j];
        B.s[t] = p->B[j];
        off.s[t] = p->off[j];
        s_strides.s[t] = ss;
        o_strides.s[t] = os;
        ss *= p->S[j];
        os *= p->O[j];
    }
    for (int t = m; t < 8; t++)
        S.s[t] = O.s[t] = B.s[t] = 1;
    /* ss, os: units of one batch index of the space and of the batch tensor;
     * a step of the flat block offset is N batch indices of the batch tensor. */
    cl_long ks = os * p->N;
    for (int t = 0; t < m; t++) {
        k_strides.s[t] = ks;
        ks *= p->B[m - 1 - t];
    }
    cl_ulong src_off = input_offset / eb, dst_off = output_offset / eb;
    cl_int cm = m;
    cl_long n_batch = p->N, n_rows, batch_stride;
    size_t row_units;
    if (op == SB_S2B) {
        n_rows = p->batch_elems / p->O[m - 1];
        row_units = (size_t)(p->O[m - 1] * K);
        batch_stride = ss;
    } else {
        n_rows = p->space_elems / p->S[m - 1];
        row_units = (size_t)(p->S[m - 1] * K);
        batch_stride = os;
    }
    size_t vec = 16 / eb, vectors = (row_units + vec - 1) / vec;
    /* space_to_batch on a CPU device: a work-item writes the B0 batch rows of
     * one input row (every block offset of the innermost axis), reading the
     * row once, in order. */
    cl_long fuse = op == SB_S2B && clpad__cpu_geometry(ctx) ? p->B[m - 1] : 1;
    n_rows /= fuse;

    pthread_mutex_lock(&ctx->lock);
    struct clpad_kernel_entry *k;
    clpad_status st = clpad__kernel(ctx, "space_batch", clpad__sb_options(ctx), name, &k);
    if (!st) {
        clpad_row_geometry geo;
        clpad__row_geometry(ctx, k, vectors, (size_t)n_rows, 16, false, &geo);
        cl_kernel kr = k->kernel;
        cl_uint i = 0;
        cl_int err = clSetKernelArg(kr, i++, sizeof(cl_mem), &input);
        err |= clSetKernelArg(kr, i++, sizeof src_off, &src_off);
        err |= clSetKernelArg(kr, i++, sizeof(cl_mem), &output);
        err |= clSetKernelArg(kr, i++, sizeof dst_off, &dst_off);
        if (op == SB_S2B) {
            err |= clSetKernelArg(kr, i++, sizeof O, &O);
            err |= clSetKernelArg(kr, i++, sizeof B, &B);
            err |= clSetKernelArg(kr, i++, sizeof off, &off);
            err |= clSetKernelArg(kr, i++, sizeof S, &S);
            err |= clSetKernelArg(kr, i++, sizeof s_strides, &s_strides);
            err |= clSetKernelArg(kr, i++, sizeof cm, &cm);
            err |= clSetKernelArg(kr, i++, sizeof n_batch, &n_batch);
        } else {
            err |= clSetKernelArg(kr, i++, sizeof S, &S);
            err |= clSetKernelArg(kr, i++, sizeof B, &B);
            err |= clSetKernelArg(kr, i++, sizeof off, &off);
            err |= clSetKernelArg(kr, i++, sizeof o_strides, &o_strides);
            err |= clSetKernelArg(kr, i++, sizeof k_strides, &k_strides);
            err |= clSetKernelArg(kr, i++, sizeof cm, &cm);
        }
        err |= clSetKernelArg(kr, i++, sizeof batch_stride, &batch_stride);
        err |= clSetKernelArg(kr, i++, sizeof K, &K);
        err |= clSetKernelArg(kr, i++, sizeof n_rows, &n_rows);
        err |= clSetKernelArg(kr, i++, sizeof geo.items, &geo.items);
        size_t out_bytes = (size_t)(op == SB_S2B ? p->batch_elems : p->space_elems) * p->elem;
        /* Streaming stores are scalar (kernels/common.cl): they pay off on
         * elements of several units, but would keep the strided loops of
         * single-unit elements from vectorising (measured 0.55-0.64x). */
        cl_int nt = K > 1 && clpad__nt_output(ctx, out_bytes);
        err |= clSetKernelArg(kr, i++, sizeof nt, &nt);
        if (op == SB_S2B)
            err |= clSetKernelArg(kr, i++, sizeof fuse, &fuse);
        if (err != CL_SUCCESS)
            st = clpad__fail(CLPAD_ERR_OPENCL, "clSetKernelArg failed for %s", name);
        else
            st = clpad__launch_rows(ctx, k, queue, &geo, num_events, wait_list, event);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* A validated call, for the enqueue and host-pointer paths. */
typedef struct sb_call {
    enum sb_op op;
    sb_geom g;
    size_t esize;
} sb_call;

static clpad_status enqueue_call(clpad_context *ctx, const sb_call *c, cl_mem input,
                                 size_t input_offset, cl_mem output, size_t output_offset,
                                 cl_command_queue queue, cl_uint num_events,
                                 const cl_event *wait_list, cl_event *event)
{
    cl_int err;
    if (c->g.out_bytes == 0) { /* nothing to write, but honour the event contract */
        if (!event)
            return CLPAD_OK;
        err = clEnqueueMarkerWithWaitList(queue, num_events, num_events ? wait_list : NULL, event);
        return err == CL_SUCCESS ? CLPAD_OK : clpad__fail_cl(err, "clEnqueueMarkerWithWaitList");
    }
    sb_plan p;
    sb_plan_build(&c->g, c->esize, &p);
    if (p.m == 0) { /* every axis plain: a buffer copy */
        err = clEnqueueCopyBuffer(queue, input, output, input_offset, output_offset,
                                  c->g.out_bytes, num_events, num_events ? wait_list : NULL, event);
        return err == CL_SUCCESS ? CLPAD_OK : clpad__fail_cl(err, "clEnqueueCopyBuffer");
    }
    return launch_plan(ctx, c->op, &p, input, input_offset, output, output_offset, queue,
                       num_events, wait_list, event);
}

static clpad_status sb_enqueue(enum sb_op op, clpad_context *ctx, clpad_dtype dtype, int rank,
                               const int64_t *shape, cl_mem input, size_t input_offset,
                               const int64_t *block, const int64_t *begin, const int64_t *end,
                               cl_mem output, size_t output_offset, cl_command_queue queue,
                               cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    clpad__clear_error();
    const char *what = op == SB_S2B ? "enqueue_space_to_batch" : "enqueue_batch_to_space";
    clpad_status st = clpad__require_device(ctx, what);
    if (st)
        return st;
    sb_call c = {.op = op, .esize = clpad_dtype_size(dtype)};
    if ((st = sb_check_call(op, dtype, rank, shape, block, begin, end, &c.g)))
        return st;
    if (num_events && !wait_list)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "%s: num_events = %u but wait_list is NULL", what, (unsigned)num_events);
    if (c.g.out_bytes > 0) {
        if ((st = clpad__check_buffer(output, output_offset, c.g.out_bytes, c.esize, "output")))
            return st;
        if (!input)
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "input buffer is NULL");
        if (c.g.in_bytes > 0 &&
            (st = clpad__check_buffer(input, input_offset, c.g.in_bytes, c.esize, "input")))
            return st;
    }
    return enqueue_call(ctx, &c, input, input_offset, output, output_offset,
                        queue ? queue : ctx->queue, num_events, wait_list, event);
}

clpad_status clpad_enqueue_space_to_batch(clpad_context *ctx, clpad_dtype dtype, int rank,
                                          const int64_t *shape, cl_mem input,
                                          size_t input_offset, const int64_t *block_shape,
                                          const int64_t *pads_begin, const int64_t *pads_end,
                                          cl_mem output, size_t output_offset,
                                          cl_command_queue queue, cl_uint num_events,
                                          const cl_event *wait_list, cl_event *event)
{
    return sb_enqueue(SB_S2B, ctx, dtype, rank, shape, input, input_offset, block_shape,
                      pads_begin, pads_end, output, output_offset, queue, num_events, wait_list,
                      event);
}

clpad_status clpad_enqueue_batch_to_space(clpad_context *ctx, clpad_dtype dtype, int rank,
                                          const int64_t *shape, cl_mem input,
                                          size_t input_offset, const int64_t *block_shape,
                                          const int64_t *crops_begin, const int64_t *crops_end,
                                          cl_mem output, size_t output_offset,
                                          cl_command_queue queue, cl_uint num_events,
                                          const cl_event *wait_list, cl_event *event)
{
    return sb_enqueue(SB_B2S, ctx, dtype, rank, shape, input, input_offset, block_shape,
                      crops_begin, crops_end, output, output_offset, queue, num_events, wait_list,
                      event);
}

static clpad_status host_enqueue(clpad_context *ctx, cl_mem in, cl_mem out, cl_command_queue q,
                                 cl_event *event, const void *closure)
{
    return enqueue_call(ctx, closure, in, 0, out, 0, q, 0, NULL, event);
}

static clpad_status sb_host(enum sb_op op, clpad_context *ctx, clpad_dtype dtype, int rank,
                            const int64_t *shape, const void *input, const int64_t *block,
                            const int64_t *begin, const int64_t *end, void *output,
                            size_t output_bytes, clpad_run_info *info)
{
    clpad__clear_error();
    if (!ctx)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "%s: context is NULL", op_name(op));
    sb_call c = {.op = op, .esize = clpad_dtype_size(dtype)};
    clpad_status st = sb_check_call(op, dtype, rank, shape, block, begin, end, &c.g);
    if (st || (st = sb_check_host_buffers(op, &c.g, input, output, output_bytes)))
        return st;
    /* Bytes read + written: space_to_batch reads every input element once;
     * batch_to_space reads only the elements that are not cropped. */
    uint64_t moved = (op == SB_S2B ? c.g.in_bytes : c.g.out_bytes) + (uint64_t)c.g.out_bytes;
    if (ctx->fallback) {
        uint64_t t0 = clpad__now_ns();
        st = sb_cpu(op, dtype, rank, shape, input, block, begin, end, output, output_bytes);
        if (!st && info)
            *info = (clpad_run_info){.total_ns = clpad__now_ns() - t0, .bytes_moved = moved};
        return st;
    }
    return clpad__run_host(ctx, input, c.g.in_bytes, output, c.g.out_bytes, moved, host_enqueue,
                           &c, info);
}

clpad_status clpad_space_to_batch(clpad_context *ctx, clpad_dtype dtype, int rank,
                                  const int64_t *shape, const void *input,
                                  const int64_t *block_shape, const int64_t *pads_begin,
                                  const int64_t *pads_end, void *output, size_t output_bytes,
                                  clpad_run_info *info)
{
    return sb_host(SB_S2B, ctx, dtype, rank, shape, input, block_shape, pads_begin, pads_end,
                   output, output_bytes, info);
}

clpad_status clpad_batch_to_space(clpad_context *ctx, clpad_dtype dtype, int rank,
                                  const int64_t *shape, const void *input,
                                  const int64_t *block_shape, const int64_t *crops_begin,
                                  const int64_t *crops_end, void *output, size_t output_bytes,
                                  clpad_run_info *info)
{
    return sb_host(SB_B2S, ctx, dtype, rank, shape, input, block_shape, crops_begin, crops_end,
                   output, output_bytes, info);
}
