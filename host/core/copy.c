/* Copies of more than 256 bytes for the CPU paths (clpad__copy). */
#include "core/copy.h"

#include <string.h>

/* Up to this many bytes the loop below; beyond, the C library's memcpy,
 * which turns to non-temporal stores for copies larger than the cache. */
enum { COPY_LOOP_MAX = 1 << 20 };

#ifdef CLPAD_HAVE_V32
/* 128 bytes as four 32-byte vector moves. */
static inline void move128(unsigned char *restrict d, const unsigned char *restrict s)
{
    clpad__v32 a = *(const clpad__v32 *)s, b = *(const clpad__v32 *)(s + 32);
    clpad__v32 c = *(const clpad__v32 *)(s + 64), e = *(const clpad__v32 *)(s + 96);
    *(clpad__v32 *)d = a;
    *(clpad__v32 *)(d + 32) = b;
    *(clpad__v32 *)(d + 64) = c;
    *(clpad__v32 *)(d + 96) = e;
}
#endif

/* n > 256 bytes in 128-byte steps of 32-byte vector moves, the last step
 * ending at byte n (it may overlap the one before: the same bytes again).
 * glibc's memcpy moves these sizes with `rep movsb`, which is slower than
 * this loop on misaligned destinations, warm in the L3 and from DRAM alike
 * (bench/README.md, design measurements). */
static CLPAD_CPU_CLONES void copy_long(unsigned char *restrict d, const unsigned char *restrict s,
                                       size_t n)
{
#ifdef CLPAD_HAVE_V32
    if (n <= COPY_LOOP_MAX && n >= 128) {
        for (size_t i = 0; i + 128 < n; i += 128) {
            /* opaque to the optimiser: the loop must not become a memcpy call */
            __asm__("" : "+r"(i));
            move128(d + i, s + i);
        }
        move128(d + n - 128, s + n - 128);
        return;
    }
#endif
    memcpy(d, s, n);
}

/* n > 256 bytes of a value of vbytes bytes repeated: vbytes is 1, 2, 4 or 8,
 * or 64 for a 64-byte pattern whose period divides 32 (pad_cpu.c's). A value
 * whose bytes are all equal (zero, any u8) goes to memset; others are stored
 * from a 32-byte vector. Both are faster than the doubling copies this
 * replaces for long fills (bench/README.md, design measurements). */
static CLPAD_CPU_CLONES void fill_long(unsigned char *restrict d, size_t n,
                                       const unsigned char *restrict value, size_t vbytes)
{
    unsigned char p[32];
    bool same = true;
    for (size_t i = 0; i < 32; i++) {
        p[i] = value[vbytes == 64 ? i : i % vbytes];
        same &= p[i] == p[0];
    }
    if (same) {
        memset(d, p[0], n);
        return;
    }
#ifdef CLPAD_HAVE_V32
    clpad__v32 v;
    memcpy(&v, p, 32);
    size_t i = 0;
    for (; i + 128 < n; i += 128) {
        __asm__("" : "+r"(i)); /* not a memset call: the value is not one byte */
        *(clpad__v32 *)(d + i) = v;
        *(clpad__v32 *)(d + i + 32) = v;
        *(clpad__v32 *)(d + i + 64) = v;
        *(clpad__v32 *)(d + i + 96) = v;
    }
    for (; i + 32 < n; i += 32)
        *(clpad__v32 *)(d + i) = v;
    *(clpad__v32 *)(d + n - 32) = v; /* in phase: n and 32 are multiples of the period */
#else
    size_t done = 32;
    memcpy(d, p, 32);
    while (done < n) { /* doubling copies */
        size_t k = done < n - done ? done : n - done;
        memcpy(d + done, d, k);
        done += k;
    }
#endif
}

/* The entry points other units call: the variants stay inside this one
 * (clang mishandled multiversioned functions declared across units: a
 * clang build filled wrong bytes; the fuzz target caught it). */
void clpad__copy_long(unsigned char *restrict d, const unsigned char *restrict s, size_t n)
{
    copy_long(d, s, n);
}

void clpad__fill_long(unsigned char *restrict d, size_t n, const unsigned char *restrict value,
                      size_t vbytes)
{
    fill_long(d, n, value, vbytes);
}
