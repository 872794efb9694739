/* Helpers every kernel family shares. The host builds each program from
 * kernels/coords.h, this file and kernels/<family>.cl, in that order
 * (host/device/program.c), with "#line" directives so that build logs name each
 * file's own lines.
 *
 * Build options this file understands (host/device/program.c and the op's host
 * file set them; an unknown value is a build error, never a silent default):
 *  - CLPAD_UNIT_BYTES=1|2|4|8: the unit the data-movement kernels move.
 *    Every operation is a pure copy, so a dtype matters only through its
 *    size; an element of several units (trailing axes that move unchanged,
 *    such as the channels of an NHWC image) is K units.
 *  - CLPAD_NT: streaming (non-temporal) stores are available (CPU devices).
 *    Whether a call uses them is the host's choice (host/device/launch.c,
 *    clpad__nt_min): pad streams the long interior stretches of large
 *    outputs in a loop of their own (an argument sets the shortest stretch);
 *    space/batch, whose stores are scattered, is built in a streaming
 *    variant, CLPAD_STREAM_STORES (clpad_store below).
 */

/* -DCLPAD_NO_RESTRICT (a device quirk, host/device/quirks.c): the kernels'
 * restrict qualifiers are dropped, for a device that cannot run the alias
 * information compilers attach to them. Results are the same either way. */
#ifdef CLPAD_NO_RESTRICT
#define restrict
#endif

#if defined(__clang__)
#define CLPAD_INLINE static inline __attribute__((always_inline))
#else
#define CLPAD_INLINE static inline
#endif

/* OpenCL C has no dynamic indexing of vector components, so the per-axis
 * long8 arguments are read with constant ones: AXIS(i, si) for the outer
 * axes i = 1 .. n-1 (n <= 7), in order, unrolled. */
#define CLPAD_OUTER_AXES(n, AXIS) \
    do {                          \
        if ((n) > 1) AXIS(1, s1); \
        if ((n) > 2) AXIS(2, s2); \
        if ((n) > 3) AXIS(3, s3); \
        if ((n) > 4) AXIS(4, s4); \
        if ((n) > 5) AXIS(5, s5); \
        if ((n) > 6) AXIS(6, s6); \
    } while (0)

/* ---- The unit ------------------------------------------------------------ */
#ifdef CLPAD_UNIT_BYTES
#if CLPAD_UNIT_BYTES == 1
typedef uchar unit_t;
typedef uchar16 unit_vec_t; /* the widest vector of units for streaming stores */
#define CLPAD_UNITS_PER_VEC 16
#elif CLPAD_UNIT_BYTES == 2
typedef ushort unit_t;
typedef ushort16 unit_vec_t;
#define CLPAD_UNITS_PER_VEC 16
#elif CLPAD_UNIT_BYTES == 4
typedef uint unit_t;
typedef uint16 unit_vec_t;
#define CLPAD_UNITS_PER_VEC 16
#elif CLPAD_UNIT_BYTES == 8
typedef ulong unit_t;
typedef ulong8 unit_vec_t;
#define CLPAD_UNITS_PER_VEC 8
#else
#error "Unsupported CLPAD_UNIT_BYTES: build with 1, 2, 4 or 8"
#endif
/* Units per 16 bytes: the "vector" of the host's launch geometry
 * (host/device/launch.c), in which a work-group's share of a row is counted. */
#define CLPAD_UNITS_PER_16B (16 / CLPAD_UNIT_BYTES)

/* Dimension 0 of the row kernels' launch: a work-group covers
 * lx * items * CLPAD_UNITS_PER_16B units of a row, each work-item `items`
 * vectors strided by the local size lx. This work-item's first unit *u, and
 * *end, the end of its work-group's part of a row of row_units units.
 * Global sizes are rounded up: false for a work-item past the end of the
 * row or of the n_rows rows (its first row `row`), which has nothing to do. */
CLPAD_INLINE bool clpad_row_start(long items, long row_units, long row, long n_rows, long *u,
                                  long *end)
{
    long lx = (long)get_local_size(0);
    long base = (long)get_group_id(0) * lx * items * CLPAD_UNITS_PER_16B;
    *u = base + (long)get_local_id(0);
    *end = min(base + lx * items * CLPAD_UNITS_PER_16B, row_units);
    return row < n_rows && *u < row_units;
}
#endif

/* ---- Stores ---------------------------------------------------------------- */

/* Non-temporal stores: a large output is written in whole cache lines without
 * the cache first reading them in (read-for-ownership), as memcpy does for
 * large copies. They are weakly ordered: clpad_nt_fence() makes them visible
 * before anything the driver does after the kernel, as memcpy fences its own.
 * Compilers emit a plain store where the type has no streaming store (1- and
 * 2-byte units on x86). */
#if defined(CLPAD_NT) && defined(__clang__)
#define CLPAD_HAVE_NT 1
#if defined(__x86_64__) || defined(__i386__)
CLPAD_INLINE void clpad_nt_fence(void) { __builtin_ia32_sfence(); }
#else
CLPAD_INLINE void clpad_nt_fence(void) { mem_fence(CLK_GLOBAL_MEM_FENCE); }
#endif
#else
#define CLPAD_HAVE_NT 0
CLPAD_INLINE void clpad_nt_fence(void) {}
#endif

#ifdef CLPAD_UNIT_BYTES
/* Store one unit: a streaming store in a program built with
 * -DCLPAD_STREAM_STORES (on a device that has them), else a plain one. The
 * choice is a program variant, not an argument: a run-time choice between two
 * loops that differ only in their stores is merged by the compiler into one
 * loop of plain stores (the streaming hint is lost). */
CLPAD_INLINE void clpad_store(unit_t v, __global unit_t *p)
{
#if CLPAD_HAVE_NT && defined(CLPAD_STREAM_STORES)
    __builtin_nontemporal_store(v, p);
#else
    *p = v;
#endif
}
#endif

/* After a work-item's clpad_store()s: the fence streaming stores need. */
CLPAD_INLINE void clpad_store_fence(void)
{
#if defined(CLPAD_STREAM_STORES)
    clpad_nt_fence();
#endif
}

/* Before a loop of a few iterations: no vectorised copy of it, whose set-up
 * and checks would cost more than the loop. */
#ifdef __clang__
#define CLPAD_SHORT_LOOP _Pragma("clang loop vectorize(disable) unroll(disable)")
#else
#define CLPAD_SHORT_LOOP
#endif

/* ---- Byte moves ------------------------------------------------------------ */

/* A move of 32 or 64 bytes between unaligned addresses. With clang (PoCL and
 * most CPU runtimes) one vector load and store through a vector type aligned
 * to 1 byte; vloadN/vstoreN would not do: PoCL moves a vector component by
 * component (16 scalar stores for a ushort16). */
#ifdef __clang__
typedef ulong8 clpad_b64 __attribute__((aligned(1)));
typedef ulong4 clpad_b32 __attribute__((aligned(1)));
CLPAD_INLINE void clpad_move64(__global uchar *d, __global const uchar *s)
{
    *(__global clpad_b64 *)d = *(__global const clpad_b64 *)s;
}
CLPAD_INLINE void clpad_move32(__global uchar *d, __global const uchar *s)
{
    *(__global clpad_b32 *)d = *(__global const clpad_b32 *)s;
}
#else
CLPAD_INLINE void clpad_move64(__global uchar *d, __global const uchar *s)
{
    for (int k = 0; k < 64; k++)
        d[k] = s[k];
}
CLPAD_INLINE void clpad_move32(__global uchar *d, __global const uchar *s)
{
    for (int k = 0; k < 32; k++)
        d[k] = s[k];
}
#endif

/* n >= 32 bytes from s to d: 64-byte moves (32 when n < 64), the last one
 * ending at byte n (it may overlap the one before: the same values again),
 * so that no byte-by-byte remainder is left. */
CLPAD_INLINE void clpad_bytes_copy(__global uchar *d, __global const uchar *s, long n)
{
    if (n >= 64) {
        for (long b = 0; b < n - 64; b += 64)
            clpad_move64(d + b, s + b);
        clpad_move64(d + n - 64, s + n - 64);
    } else {
        clpad_move32(d, s);
        clpad_move32(d + n - 32, s + n - 32);
    }
}
