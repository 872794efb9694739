/* Short copies and fills of the CPU paths (host/core/copy.c), and the AVX2
 * dispatch of their hot loops. Not installed. */
#ifndef CLPAD_COPY_H
#define CLPAD_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* CLPAD_CPU_CLONES before a hot CPU-path function: on x86-64 ELF with GCC or
 * clang, an AVX2 build of it beside the portable one, picked when the
 * library loads (target_clones; glibc's memcpy, the bench's reference, picks
 * its AVX2 build the same way). The function is then never inlined (clang
 * refuses noinline beside target_clones), so elsewhere it is noinline too.
 * CLPAD_NO_CPU_DISPATCH (CMake: CLPAD_CPU_DISPATCH=OFF) keeps the portable
 * build only. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) &&                           \
    (defined(__clang__) || __GNUC__ >= 6) && !defined(CLPAD_NO_CPU_DISPATCH)
#define CLPAD_CPU_CLONES __attribute__((target_clones("avx2", "default")))
#elif defined(__GNUC__)
#define CLPAD_CPU_CLONES __attribute__((noinline))
#else
#define CLPAD_CPU_CLONES
#endif

/* 32 bytes as one vector value, at any alignment, aliasing anything: a move
 * through it is one AVX2 move or two SSE2 ones (a fixed-size memcpy is
 * expanded in 16-byte moves even for AVX2). */
#if defined(__GNUC__)
typedef unsigned char clpad__v32 __attribute__((vector_size(32), aligned(1), may_alias));
#define CLPAD_HAVE_V32 1
#endif

/* clpad__copy's copies of more than 256 bytes (host/core/copy.c). */
void clpad__copy_long(unsigned char *restrict d, const unsigned char *restrict s, size_t n);
/* Fill n > 256 bytes with a value of vbytes bytes repeated: vbytes 1, 2, 4
 * or 8, or 64 for a pattern whose period divides 32 (host/core/copy.c). */
void clpad__fill_long(unsigned char *restrict d, size_t n, const unsigned char *restrict value,
                      size_t vbytes);

/* Copy n bytes between buffers that do not overlap. The CPU paths copy many
 * short runs (a 56-element f16 row, a 256-byte element of a space/batch
 * move), where a call into the C library's memcpy costs as much as the copy.
 * Up to 256 bytes move here as two fixed-size copies that overlap in the
 * middle, which compilers inline as vector moves: straight-line code, since
 * a copy loop would be turned back into a memcpy call. Longer ones go to
 * clpad__copy_long. */
static inline void clpad__copy(unsigned char *restrict d, const unsigned char *restrict s,
                               size_t n)
{
#define CLPAD_COPY_HALVES(K)               \
    do {                                   \
        memcpy(d, s, K);                   \
        memcpy(d + n - K, s + n - K, K);   \
    } while (0)
    if (n > 256)
        clpad__copy_long(d, s, n);
    else if (n > 128)
        CLPAD_COPY_HALVES(128);
    else if (n > 64)
        CLPAD_COPY_HALVES(64);
    else if (n > 32)
        CLPAD_COPY_HALVES(32);
    else if (n >= 16)
        CLPAD_COPY_HALVES(16);
    else if (n >= 8)
        CLPAD_COPY_HALVES(8);
    else if (n >= 4)
        CLPAD_COPY_HALVES(4);
    else if (n >= 2)
        CLPAD_COPY_HALVES(2);
    else if (n == 1)
        d[0] = s[0];
#undef CLPAD_COPY_HALVES
}

#endif /* CLPAD_COPY_H */
