/* Pad on the host: the CPU reference path (SPEC §1), also the fallback when
 * there is no OpenCL device. Works on the collapsed plan, copies contiguous
 * runs with memcpy, and copies a padded row from the output row it mirrors
 * when that row has already been written. */
#include "internal.h"

#include <string.h>

typedef struct pad_job {
    const clpad_pad_plan *p;
    clpad_pad_mode mode;
    const unsigned char *value; /* one element of the original dtype */
    size_t value_bytes;
    size_t out_block[CLPAD_MAX_RANK]; /* bytes of one output index on each axis */
    size_t in_block[CLPAD_MAX_RANK];  /* bytes of one input index on each axis */
} pad_job;

/* Source coordinate of padded coordinate c on an axis of size D, SPEC §1's
 * table; -1 for constant padding. Limits were validated, so one reflection
 * suffices. */
static int64_t map_coord(clpad_pad_mode mode, int64_t c, int64_t D)
{
    if (c >= 0 && c < D)
        return c;
    switch (mode) {
    case CLPAD_PAD_EDGE:
        return c < 0 ? 0 : D - 1;
    case CLPAD_PAD_REFLECT: /* 2(D-1) - c, without forming 2(D-1) */
        return c < 0 ? -c : (D - 1) - (c - (D - 1));
    case CLPAD_PAD_SYMMETRIC: /* 2D - 1 - c */
        return c < 0 ? -c - 1 : (D - 1) - (c - D);
    case CLPAD_PAD_WRAP: {
        int64_t m = c % D;
        return m < 0 ? m + D : m;
    }
    default:
        return -1;
    }
}

/* Fill n bytes with the repeated pad value (n is a multiple of its size). */
static void fill(unsigned char *dst, size_t n, const unsigned char *value, size_t vbytes)
{
    if (n == 0)
        return;
    size_t done = vbytes < n ? vbytes : n;
    memcpy(dst, value, done);
    while (done < n) { /* doubling copies */
        size_t k = done < n - done ? done : n - done;
        memcpy(dst + done, dst, k);
        done += k;
    }
}

/* dst[o] = src[map(o - b)] for o in [r0, r1), elements of `eb` bytes: typed
 * moves for the common sizes (a memcpy call per 4-byte element costs more
 * than the copy). */
static void copy_mapped(clpad_pad_mode mode, unsigned char *dst, const unsigned char *src,
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

static void pad_axis(const pad_job *j, int axis, const unsigned char *src, unsigned char *dst)
{
    const clpad_pad_plan *p = j->p;
    int64_t D = p->in_dims[axis], O = p->out_dims[axis], b = p->pads_begin[axis];
    size_t ob = j->out_block[axis], ib = j->in_block[axis];
    /* Output indices whose coordinate lies inside the input: [lo, hi). */
    int64_t lo = b > 0 ? b : 0, hi = b + D < O ? b + D : O;
    if (hi < lo)
        hi = lo;
    if (axis == p->rank - 1) {
        if (hi > lo)
            memcpy(dst + (size_t)lo * ob, src + (size_t)(lo - b) * ib, (size_t)(hi - lo) * ob);
        /* The padding before [lo, hi) and after it: constant and edge are one
         * repeated pattern each, the mirrors and wrap go element by element. */
        int64_t runs[2][2] = {{0, lo}, {hi, O}};
        if (hi == lo) { /* nothing of the input is kept on this axis */
            runs[0][1] = O;
            runs[1][0] = runs[1][1] = O;
        }
        for (int k = 0; k < 2; k++) {
            int64_t r0 = runs[k][0], r1 = runs[k][1];
            if (r1 <= r0)
                continue;
            if (j->mode == CLPAD_PAD_CONSTANT) {
                fill(dst + (size_t)r0 * ob, (size_t)(r1 - r0) * ob, j->value, j->value_bytes);
                continue;
            }
            if (j->mode == CLPAD_PAD_EDGE && hi > lo) {
                int64_t m = map_coord(j->mode, r0 - b, D);
                fill(dst + (size_t)r0 * ob, (size_t)(r1 - r0) * ob, src + (size_t)m * ib, ob);
                continue;
            }
            copy_mapped(j->mode, dst, src, r0, r1, b, D, ob);
        }
        return;
    }
    for (int64_t o = lo; o < hi; o++)
        pad_axis(j, axis + 1, src + (size_t)(o - b) * ib, dst + (size_t)o * ob);
    for (int64_t o = 0; o < O; o++) {
        if (o == lo && hi > lo)
            o = hi;
        if (o >= O)
            break;
        int64_t m = map_coord(j->mode, o - b, D);
        if (m < 0)
            fill(dst + (size_t)o * ob, ob, j->value, j->value_bytes);
        else if (m + b >= lo && m + b < hi) /* that source row is already in the output */
            memcpy(dst + (size_t)o * ob, dst + (size_t)(m + b) * ob, ob);
        else
            pad_axis(j, axis + 1, src + (size_t)m * ib, dst + (size_t)o * ob);
    }
}

clpad_status clpad_pad_cpu(clpad_dtype dtype, int rank, const int64_t *shape, const void *input,
                           const int64_t *pads_begin, const int64_t *pads_end,
                           clpad_pad_mode mode, const void *pad_value, void *output,
                           size_t output_bytes)
{
    clpad__clear_error();
    size_t in_bytes, out_bytes;
    clpad_status st = clpad__pad_check(dtype, rank, shape, pads_begin, pads_end, mode, NULL,
                                       &in_bytes, &out_bytes);
    if (st)
        return st;
    if (output_bytes < out_bytes)
        return clpad__fail(CLPAD_ERR_BUFFER_TOO_SMALL,
                           "pad: output_bytes = %zu, but the output needs %zu bytes",
                           output_bytes, out_bytes);
    if (out_bytes == 0)
        return CLPAD_OK;
    if (!output)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad: output is NULL");
    if (in_bytes > 0 && !input)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad: input is NULL");
    static const unsigned char no_input[1];
    if (!input) /* an empty input is never read, but NULL + 0 is still UB */
        input = no_input;

    size_t esize = clpad_dtype_size(dtype);
    unsigned char zero[8] = {0};
    clpad_pad_plan plan;
    clpad__pad_plan(rank, shape, pads_begin, pads_end, mode, esize, true, &plan);
    if (plan.no_pads) {
        memcpy(output, input, out_bytes);
        return CLPAD_OK;
    }
    pad_job j = {.p = &plan,
                 .mode = mode,
                 .value = mode == CLPAD_PAD_CONSTANT && pad_value ? pad_value : zero,
                 .value_bytes = esize};
    size_t ob = plan.elem_bytes, ib = plan.elem_bytes;
    for (int a = plan.rank - 1; a >= 0; a--) {
        j.out_block[a] = ob;
        j.in_block[a] = ib;
        ob *= (size_t)plan.out_dims[a];
        ib *= (size_t)plan.in_dims[a];
    }
    pad_axis(&j, 0, input, output);
    return CLPAD_OK;
}
