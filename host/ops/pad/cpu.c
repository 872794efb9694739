/* Pad's fast host path (docs/spec.md, "Pad"): clpad_pad_cpu, the small calls
 * of a CPU device and the fallback when there is no OpenCL device; tested
 * equal to the plain reference (ref.c) byte for byte. Works on the collapsed
 * plan, copies contiguous runs with memcpy, and copies a padded row from the
 * output row it mirrors when that row has already been written. */
#include "core/copy.h"
#include "ops/pad/pad.h"
#include "core/pool.h"

#include "coords.h"

#include <string.h>

/* The innermost axis, derived once per call. Rows are often short (56 f16
 * elements), so the row loop keeps this in a local copy: stores through the
 * output's unsigned char pointers could alias anything in memory, and would
 * make the compiler re-read every field for every row. */
enum { ROW_MAP_MAX = 16 };
typedef struct row_plan {
    int mode;                      /* the innermost axis's rule (kernels/coords.h) */
    int64_t D, O, b;
    int64_t lo, hi;                /* output elements copied from the input row */
    size_t eb;                     /* bytes per element of the plan */
    const unsigned char *pattern; /* 64 bytes: the pad value, repeated */
    /* Short borders (at most ROW_MAP_MAX elements of 1, 2, 4 or 8 bytes,
     * some input kept): their count, n_map, else 0. For the modes that read
     * the input, pad_job's row_map holds the source element of each, for the
     * output elements [0, lo) then [hi, O). */
    int n_map;
} row_plan;

typedef struct pad_job {
    const clpad_pad_plan *p;
    const unsigned char *value; /* one element of the original dtype */
    size_t out_block[CLPAD_MAX_RANK]; /* bytes of one output index on each axis */
    size_t in_block[CLPAD_MAX_RANK];  /* bytes of one input index on each axis */
    row_plan row;
    int64_t row_map[ROW_MAP_MAX];
} pad_job;

/* Source coordinate of padded coordinate c on an axis of size D
 * (kernels/coords.h, shared with the kernels); -1 for constant padding. */
static inline int64_t map_coord(int mode, int64_t c, int64_t D)
{
    return clpad_coord_map(mode, c, D);
}

/* Fill n bytes with the repeated value of vbytes bytes (n is a multiple of
 * the element size; the value is one element, or the 64-byte pattern). */
static inline void fill(unsigned char *dst, size_t n, const unsigned char *value, size_t vbytes)
{
    if (n == 0)
        return;
    if (n > 256 && (vbytes == 64 || vbytes == 1 || vbytes == 2 || vbytes == 4 || vbytes == 8)) {
        clpad__fill_long(dst, n, value, vbytes);
        return;
    }
    size_t done = vbytes < n ? vbytes : n;
    clpad__copy(dst, value, done);
    if (vbytes == 64) /* the pattern: short fills copy from it, not from what was just stored */
        for (; done < n && done < 256; done += 64)
            clpad__copy(dst + done, value, n - done < 64 ? n - done : 64);
    while (done < n) { /* doubling copies */
        size_t k = done < n - done ? done : n - done;
        clpad__copy(dst + done, dst, k);
        done += k;
    }
}

/* dst[o] = src[map(o - b)] for o in [r0, r1), elements of `eb` bytes: typed
 * moves for the common sizes (a memcpy call per 4-byte element costs more
 * than the copy). */
static inline void copy_mapped(int mode, unsigned char *dst, const unsigned char *src,
                        int64_t r0, int64_t r1, int64_t b, int64_t D, size_t eb)
{
#define CLPAD_COPY_MAPPED(T)                                                          \
    for (int64_t o = r0; o < r1; o++) {                                               \
        T v;                                                                          \
        memcpy(&v, src + (size_t)map_coord(mode, o - b, D) * sizeof(T), sizeof(T));  \
        memcpy(dst + (size_t)o * sizeof(T), &v, sizeof(T));                          \
    }
    switch (eb) {
    case 1: CLPAD_COPY_MAPPED(uint8_t) break;
    case 2: CLPAD_COPY_MAPPED(uint16_t) break;
    case 4: CLPAD_COPY_MAPPED(uint32_t) break;
    case 8: CLPAD_COPY_MAPPED(uint64_t) break;
    default:
        for (int64_t o = r0; o < r1; o++)
            memcpy(dst + (size_t)o * eb, src + (size_t)map_coord(mode, o - b, D) * eb, eb);
    }
#undef CLPAD_COPY_MAPPED
}

/* One output row of the innermost axis from one input row. */
static inline __attribute__((always_inline)) void pad_row(row_plan r, const int64_t *map,
                                                       const unsigned char *src,
                                                       unsigned char *dst)
{
    size_t eb = r.eb;
    if (r.hi > r.lo)
        clpad__copy(dst + (size_t)r.lo * eb, src + (size_t)(r.lo - r.b) * eb,
                    (size_t)(r.hi - r.lo) * eb);
    if (r.n_map) { /* short borders: the pad value, or each element's precomputed source */
#define CLPAD_ROW_BORDERS(T)                                                             \
    if (r.mode == CLPAD_COORD_CONSTANT) {                                                  \
        T v;                                                                             \
        memcpy(&v, r.pattern, sizeof(T));                                                \
        for (int64_t i = 0; i < r.n_map; i++) {                                          \
            int64_t o = i < r.lo ? i : r.hi + (i - r.lo);                                \
            memcpy(dst + (size_t)o * sizeof(T), &v, sizeof(T));                          \
        }                                                                                \
    } else {                                                                             \
        for (int64_t i = 0; i < r.n_map; i++) {                                          \
            T v;                                                                         \
            int64_t o = i < r.lo ? i : r.hi + (i - r.lo);                                \
            memcpy(&v, src + (size_t)map[i] * sizeof(T), sizeof(T));                     \
            memcpy(dst + (size_t)o * sizeof(T), &v, sizeof(T));                          \
        }                                                                                \
    }
        switch (eb) {
        case 1: CLPAD_ROW_BORDERS(uint8_t) break;
        case 2: CLPAD_ROW_BORDERS(uint16_t) break;
        case 4: CLPAD_ROW_BORDERS(uint32_t) break;
        default: CLPAD_ROW_BORDERS(uint64_t) break;
        }
#undef CLPAD_ROW_BORDERS
        return;
    }
    /* The padding before [lo, hi) and after it: constant and edge are one
     * repeated pattern each, the mirrors and wrap go element by element. */
    int64_t runs[2][2] = {{0, r.lo}, {r.hi, r.O}};
    if (r.hi == r.lo) { /* nothing of the input is kept on this axis */
        runs[0][1] = r.O;
        runs[1][0] = runs[1][1] = r.O;
    }
    for (int k = 0; k < 2; k++) {
        int64_t r0 = runs[k][0], r1 = runs[k][1];
        if (r1 <= r0)
            continue;
        if (r.mode == CLPAD_COORD_CONSTANT) {
            fill(dst + (size_t)r0 * eb, (size_t)(r1 - r0) * eb, r.pattern, 64);
        } else if (r.mode == CLPAD_COORD_EDGE && r.hi > r.lo && r1 - r0 > 16) { /* long runs */
            const unsigned char *e = src + (size_t)map_coord(r.mode, r0 - r.b, r.D) * eb;
            fill(dst + (size_t)r0 * eb, (size_t)(r1 - r0) * eb, e, eb);
        } else {
            copy_mapped(r.mode, dst, src, r0, r1, r.b, r.D, eb);
        }
    }
}

/* n bytes, a multiple of 32 known at the call site, in 32-byte vector
 * moves. */
static inline __attribute__((always_inline)) void copy_fixed(unsigned char *d,
                                                             const unsigned char *s, size_t n)
{
#ifdef CLPAD_HAVE_V32
    for (size_t k = 0; k < n; k += 32)
        *(clpad__v32 *)(d + k) = *(const clpad__v32 *)(s + k);
#else
    memcpy(d, s, n);
#endif
}

/* n consecutive rows in the common short shape: borders of at most
 * ROW_MAP_MAX elements (r.n_map), an interior of nb bytes in (H, 2H] for
 * H = 32, 64, 128 or 256, copied as two overlapping halves of H bytes,
 * elements of eb bytes. H and eb are constants at each call site, so that
 * the moves are fixed-size: the choices pad_row makes per row are made once
 * per call here, since short rows (56 f16 elements) are bounded by that
 * bookkeeping rather than by the copy. */
static inline __attribute__((always_inline)) void pad_rows_short(
    const row_plan *rp, const int64_t *map, const unsigned char *src, size_t ib,
    unsigned char *dst, size_t ob, int64_t n, size_t eb, size_t H)
{
    const size_t lo_b = (size_t)rp->lo * eb, hi_b = (size_t)rp->hi * eb;
    const size_t tail = hi_b - lo_b - H, from = (size_t)(rp->lo - rp->b) * eb;
    /* The loop walks the interior's first byte in each row (d, s); the
     * border elements, both sides in one loop, are at byte offsets from it
     * (signed); the pad value is loaded once. */
    ptrdiff_t doff[ROW_MAP_MAX], soff[ROW_MAP_MAX];
    const int nm = rp->n_map;
    for (int k = 0; k < nm; k++) {
        doff[k] = (ptrdiff_t)(k < rp->lo ? (size_t)k * eb : hi_b + (size_t)(k - rp->lo) * eb) -
                  (ptrdiff_t)lo_b;
        soff[k] = rp->mode == CLPAD_COORD_CONSTANT ? 0 : (ptrdiff_t)((size_t)map[k] * eb) - (ptrdiff_t)from;
    }
    unsigned char *d = dst + lo_b;
    const unsigned char *s = src + from;
    /* The row loop, for NM border elements (a constant in the common cases,
     * so that their offsets stay in registers). */
#define CLPAD_SHORT_ROWS(NM, BORDER)                                                     \
    for (int64_t i = 0; i < n; i++, s += ib, d += ob) {                                  \
        copy_fixed(d, s, H);                                                             \
        copy_fixed(d + tail, s + tail, H);                                               \
        for (int k = 0; k < (NM); k++)                                                   \
            memcpy(d + doff[k], BORDER, eb);                                             \
    }
    if (rp->mode == CLPAD_COORD_CONSTANT) {
        uint64_t v;
        memcpy(&v, rp->pattern, sizeof v);
        switch (nm) {
        case 1: CLPAD_SHORT_ROWS(1, &v) return;
        case 2: CLPAD_SHORT_ROWS(2, &v) return;
        default: CLPAD_SHORT_ROWS(nm, &v) return;
        }
    }
    switch (nm) {
    case 1: CLPAD_SHORT_ROWS(1, s + soff[k]) return;
    case 2: CLPAD_SHORT_ROWS(2, s + soff[k]) return;
    default: CLPAD_SHORT_ROWS(nm, s + soff[k]) return;
    }
#undef CLPAD_SHORT_ROWS
}

/* pad_rows_short for each element size and copy size class, each a function
 * of its own (with an AVX2 build: CLPAD_CPU_CLONES): inlined into one, the
 * sixteen loops left the compiler short of registers (their counters and
 * strides were reloaded from the stack per row). */
#define CLPAD_DEFINE_ROWS_SHORT(EB, H)                                                       \
    static CLPAD_CPU_CLONES void pad_rows_short_##EB##_##H(                                 \
        const row_plan *rp, const int64_t *map, const unsigned char *src, size_t ib,       \
        unsigned char *dst, size_t ob, int64_t n)                                          \
    {                                                                                      \
        pad_rows_short(rp, map, src, ib, dst, ob, n, EB, H);                               \
    }
#define CLPAD_DEFINE_ROWS_SHORT_H(EB)                                                        \
    CLPAD_DEFINE_ROWS_SHORT(EB, 32)                                                        \
    CLPAD_DEFINE_ROWS_SHORT(EB, 64)                                                        \
    CLPAD_DEFINE_ROWS_SHORT(EB, 128)                                                       \
    CLPAD_DEFINE_ROWS_SHORT(EB, 256)
CLPAD_DEFINE_ROWS_SHORT_H(1)
CLPAD_DEFINE_ROWS_SHORT_H(2)
CLPAD_DEFINE_ROWS_SHORT_H(4)
CLPAD_DEFINE_ROWS_SHORT_H(8)
#undef CLPAD_DEFINE_ROWS_SHORT_H
#undef CLPAD_DEFINE_ROWS_SHORT

/* Rows [lo, hi) of the innermost axis's parent, read from src + (o - b) * ib:
 * the hot loop. */
static void pad_rows(const pad_job *j, const unsigned char *src, size_t ib, unsigned char *dst,
                     size_t ob, int64_t n)
{
    const row_plan r = j->row;
    size_t nb = (size_t)(r.hi - r.lo) * r.eb;
    if (r.n_map && nb > 32 && nb <= 512) {
        size_t H = nb > 256 ? 256 : nb > 128 ? 128 : nb > 64 ? 64 : 32;
#define CLPAD_ROWS_SHORT(EB)                                                            \
    switch (H) {                                                                        \
    case 32: pad_rows_short_##EB##_32(&r, j->row_map, src, ib, dst, ob, n); return;     \
    case 64: pad_rows_short_##EB##_64(&r, j->row_map, src, ib, dst, ob, n); return;     \
    case 128: pad_rows_short_##EB##_128(&r, j->row_map, src, ib, dst, ob, n); return;   \
    default: pad_rows_short_##EB##_256(&r, j->row_map, src, ib, dst, ob, n); return;    \
    }
        switch (r.eb) {
        case 1: CLPAD_ROWS_SHORT(1)
        case 2: CLPAD_ROWS_SHORT(2)
        case 4: CLPAD_ROWS_SHORT(4)
        case 8: CLPAD_ROWS_SHORT(8)
        }
#undef CLPAD_ROWS_SHORT
    }
    for (int64_t i = 0; i < n; i++, src += ib, dst += ob)
        pad_row(r, j->row_map, src, dst);
}

/* The same, out of line: for the rows off the hot loop. */
static __attribute__((noinline)) void pad_row_outlined(const pad_job *j,
                                                        const unsigned char *src,
                                                        unsigned char *dst)
{
    pad_row(j->row, j->row_map, src, dst);
}

static void pad_axis(const pad_job *j, int axis, const unsigned char *src, unsigned char *dst);

/* Axis `axis + 1` of one output index of `axis`, for the padded indices. */
static inline void pad_inner(const pad_job *j, int axis, const unsigned char *src,
                             unsigned char *dst)
{
    if (axis + 1 == j->p->rank - 1)
        pad_row_outlined(j, src, dst);
    else
        pad_axis(j, axis + 1, src, dst);
}

static void pad_axis(const pad_job *j, int axis, const unsigned char *src, unsigned char *dst)
{
    const clpad_pad_plan *p = j->p;
    if (axis == p->rank - 1) {
        pad_row_outlined(j, src, dst);
        return;
    }
    int64_t D = p->in_dims[axis], O = p->out_dims[axis], b = p->pads_begin[axis];
    size_t ob = j->out_block[axis], ib = j->in_block[axis];
    /* Output indices whose coordinate lies inside the input: [lo, hi). */
    int64_t lo = b > 0 ? b : 0, hi = b + D < O ? b + D : O;
    if (hi < lo)
        hi = lo;
    if (axis + 1 == p->rank - 1) { /* the hot loop: rows of the innermost axis */
        if (hi > lo)
            pad_rows(j, src + (size_t)(lo - b) * ib, ib, dst + (size_t)lo * ob, ob, hi - lo);
    } else {
        for (int64_t o = lo; o < hi; o++)
            pad_axis(j, axis + 1, src + (size_t)(o - b) * ib, dst + (size_t)o * ob);
    }
    for (int64_t o = 0; o < O; o++) {
        if (o == lo && hi > lo)
            o = hi;
        if (o >= O)
            break;
        int64_t m = map_coord(p->rules[axis], o - b, D);
        if (m < 0)
            fill(dst + (size_t)o * ob, ob, j->row.pattern, 64);
        else if (m + b >= lo && m + b < hi) /* that source row is already in the output */
            clpad__copy(dst + (size_t)o * ob, dst + (size_t)(m + b) * ob, ob);
        else
            pad_inner(j, axis, src + (size_t)m * ib, dst + (size_t)o * ob);
    }
}

/* Pad rows of a validated call with these pads (the call's own, or a
 * piece's), on the calling thread. */
static void pad_with(const clpad_pad_call *c, const int64_t *pads_begin, const int64_t *pads_end,
                     const void *input, void *output)
{
    static const unsigned char no_input[1];
    if (!input) /* an empty input is never read, but NULL + 0 is still UB */
        input = no_input;
    size_t esize = c->esize;
    clpad_pad_plan plan;
    clpad__pad_plan(c->rank, c->shape, pads_begin, pads_end, c->rules, esize, true, &plan);
    size_t out_bytes = (size_t)plan.out_elems * plan.elem_bytes;
    if (out_bytes == 0)
        return;
    if (plan.no_pads) {
        memcpy(output, input, out_bytes);
        return;
    }
    static const unsigned char zero[8];
    pad_job j = {.p = &plan, .value = plan.any_constant ? c->value : zero};
    size_t ob = plan.elem_bytes, ib = plan.elem_bytes;
    for (int a = plan.rank - 1; a >= 0; a--) {
        j.out_block[a] = ob;
        j.in_block[a] = ib;
        ob *= (size_t)plan.out_dims[a];
        ib *= (size_t)plan.in_dims[a];
    }
    unsigned char pattern[64];
    for (size_t i = 0; i < sizeof pattern; i += esize) /* esize (1..8) divides 64 */
        memcpy(pattern + i, j.value, esize);
    int last = plan.rank - 1;
    int mode = plan.rules[last];
    int64_t D = plan.in_dims[last], O = plan.out_dims[last], b = plan.pads_begin[last];
    int64_t lo = b > 0 ? b : 0, hi = b + D < O ? b + D : O;
    j.row = (row_plan){.mode = mode, .D = D, .O = O, .b = b, .lo = lo, .hi = hi < lo ? lo : hi,
                       .eb = plan.elem_bytes, .pattern = pattern};
    row_plan *r = &j.row;
    size_t eb = r->eb;
    int64_t n_border = r->lo + (O - r->hi);
    if (r->hi > r->lo && n_border <= ROW_MAP_MAX && (eb == 1 || eb == 2 || eb == 4 || eb == 8)) {
        r->n_map = (int)n_border;
        for (int64_t i = 0; mode != CLPAD_COORD_CONSTANT && i < n_border; i++)
            j.row_map[i] = map_coord(mode, (i < r->lo ? i : r->hi + (i - r->lo)) - b, D);
    }
    pad_axis(&j, 0, input, output);
}

void clpad__pad_cpu(const clpad_pad_call *c, const void *input, void *output)
{
    pad_with(c, c->pads_begin, c->pads_end, input, output);
    clpad__pad_sides_host(c, c->pads_begin, c->pads_end, output);
}

clpad_status clpad_pad_cpu(clpad_dtype dtype, int rank, const int64_t *shape, const void *input,
                           const int64_t *pads_begin, const int64_t *pads_end,
                           const clpad_pad_options *options, const void *pad_value, void *output,
                           size_t output_bytes)
{
    clpad__clear_error();
    clpad_pad_call c;
    clpad_status st = clpad__pad_validate(dtype, rank, shape, pads_begin, pads_end, options,
                                          pad_value, &c);
    if (st || (st = clpad__check_host_buffers("pad", input, c.in_bytes, output, c.out_bytes,
                                              output_bytes)))
        return st;
    if (c.out_bytes > 0)
        clpad__pad_cpu(&c, input, output);
    return CLPAD_OK;
}

/* ---- The CPU path on several threads ------------------------------------- */

/* One output split into independent pieces: the axes before `axis` fixed at
 * one index each, `axis` cut into `per` ranges. A piece is a Pad of the whole
 * input whose pads are shifted so that its output is exactly its part (the
 * coordinate rule depends only on o - pads_begin), written at its offset. */
typedef struct pieces {
    const clpad_pad_call *c;
    int axis;
    const void *in;
    unsigned char *out;
    int64_t per;
    size_t block[CLPAD_MAX_RANK]; /* output bytes of one index of each axis */
} pieces;

static void run_piece(void *arg, int i)
{
    pieces *P = arg;
    const clpad_pad_call *c = P->c;
    int64_t pb[CLPAD_MAX_RANK], pe[CLPAD_MAX_RANK];
    memcpy(pb, c->pads_begin, (size_t)c->rank * sizeof *pb);
    memcpy(pe, c->pads_end, (size_t)c->rank * sizeof *pe);
    size_t off = 0;
    int64_t combo = i / P->per, k = i % P->per;
    for (int a = P->axis - 1; a >= 0; a--) { /* the fixed index of each outer axis */
        int64_t O = c->out_shape[a], o = combo % O;
        combo /= O;
        pb[a] -= o;
        pe[a] -= O - o - 1;
        off += (size_t)o * P->block[a];
    }
    int64_t O = c->out_shape[P->axis];
    int64_t lo = O * k / P->per, hi = O * (k + 1) / P->per;
    pb[P->axis] -= lo;
    pe[P->axis] -= O - hi;
    off += (size_t)lo * P->block[P->axis];
    if (hi > lo) {
        pad_with(c, pb, pe, P->in, P->out + off);
        clpad__pad_sides_host(c, pb, pe, P->out + off);
    }
}

void clpad__pad_cpu_threads(const clpad_pad_call *c, const void *input, void *output)
{
    int threads = clpad__pool_threads();
    if (threads <= 1 || c->rank == 0 || c->out_bytes < CLPAD_CPU_PIECE_MIN_BYTES * 2) {
        clpad__pad_cpu(c, input, output);
        return;
    }
    pieces P = {.c = c, .in = input, .out = output};
    /* A few pieces per thread (for balance), none below the minimum size: the
     * first axis whose leading indices give that many, cut as needed. */
    int64_t want = 4 * (int64_t)threads;
    if ((int64_t)(c->out_bytes / CLPAD_CPU_PIECE_MIN_BYTES) < want)
        want = (int64_t)(c->out_bytes / CLPAD_CPU_PIECE_MIN_BYTES);
    size_t block = c->esize;
    for (int a = c->rank - 1; a >= 0; a--) {
        P.block[a] = block;
        block *= (size_t)c->out_shape[a];
    }
    int64_t lead = 1;
    int a = 0;
    while (a < c->rank - 1 && lead * c->out_shape[a] < want)
        lead *= c->out_shape[a++];
    P.axis = a;
    P.per = (want + lead - 1) / lead;
    if (P.per > c->out_shape[a])
        P.per = c->out_shape[a];
    if (P.per < 1 || lead * P.per > INT32_MAX) {
        clpad__pad_cpu(c, input, output);
        return;
    }
    clpad__parallel_for((int)(lead * P.per), run_piece, &P);
}
