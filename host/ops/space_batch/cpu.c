/* SpaceToBatch / BatchToSpace's fast host path (docs/spec.md, "SpaceToBatch"
 * and "BatchToSpace"): the public _cpu functions, the small calls of a CPU
 * device and the fallback when there is no OpenCL device; tested equal to
 * the plain reference (ref.c) byte for byte. Works on the collapsed plan
 * (space_batch.h). */
#include "core/copy.h"
#include "ops/space_batch/space_batch.h"

#include "coords.h"

#include <string.h>

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
 * [0, S): [*lo, *hi) (kernels/coords.h's rule, clamped to [0, O)). */
static void inside_range(int64_t S, int64_t O, int64_t B, int64_t k, int64_t off, int64_t *lo,
                         int64_t *hi)
{
    int64_t l = clpad_block_first(k - off, B), h = clpad_block_end(S, k - off, B);
    h = h < 0 ? 0 : h > O ? O : h;
    l = l < 0 ? 0 : l > h ? h : l;
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
 * slab, which is slower: bench/README.md, design measurements); then the padding:
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

static void run_plan(enum sb_op op, const sb_plan *p, const void *input, void *output)
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

void clpad__sb_cpu(const sb_call *c, const void *input, void *output)
{
    if (c->g.out_bytes == 0)
        return;
    sb_plan p;
    clpad__sb_plan_build(&c->g, c->esize, &p);
    if (p.m == 0)
        memcpy(output, input, c->g.out_bytes);
    else
        run_plan(c->op, &p, input, output);
}

/* The public functions: validate, check the host buffers, run. */
static clpad_status sb_cpu(enum sb_op op, clpad_dtype dtype, int rank, const int64_t *shape,
                           const void *input, const int64_t *block, const int64_t *begin,
                           const int64_t *end, void *output, size_t output_bytes)
{
    clpad__clear_error();
    sb_call c;
    clpad_status st = clpad__sb_validate(op, dtype, rank, shape, block, begin, end, &c);
    if (st || (st = clpad__check_host_buffers(clpad__sb_op_name(op), input, c.g.in_bytes, output,
                                              c.g.out_bytes, output_bytes)))
        return st;
    clpad__sb_cpu(&c, input, output);
    return CLPAD_OK;
}

/* The public pair: one signature, the operation's name and enum apart (the
 * header calls begin and end pads or crops). */
#define SB_CPU(name, op)                                                                      \
    clpad_status name(clpad_dtype dtype, int rank, const int64_t *shape, const void *input,   \
                      const int64_t *block, const int64_t *begin, const int64_t *end,       \
                      void *output, size_t output_bytes)                                    \
    {                                                                                         \
        return sb_cpu(op, dtype, rank, shape, input, block, begin, end, output, output_bytes); \
    }
SB_CPU(clpad_space_to_batch_cpu, SB_S2B)
SB_CPU(clpad_batch_to_space_cpu, SB_B2S)
