/* Helpers every kernel family shares: the host puts this file in front of
 * kernels/<family>.cl when it builds a program (host/program.c), followed by
 * "#line 1" so that build logs count the family file's own lines.
 *
 * CLPAD_NT (a build option the host sets on CPU devices) enables streaming
 * (non-temporal) stores where a kernel asks for them at run time.
 */

/* Non-temporal stores: a large output is written in whole cache lines without
 * the cache first reading them in (read-for-ownership), as memcpy does for
 * large copies. They are weakly ordered: CLPAD_NT_FENCE makes them visible
 * before anything the driver does after the kernel, as memcpy fences its own.
 * CLPAD_STORE_NT(v, p) stores the scalar v at p; compilers emit a plain store
 * where the type has no streaming store (1- and 2-byte units on x86). */
#if defined(CLPAD_NT) && defined(__clang__)
#if defined(__x86_64__) || defined(__i386__)
#define CLPAD_NT_FENCE __builtin_ia32_sfence()
#else
#define CLPAD_NT_FENCE mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
#define CLPAD_STORE_NT(v, p) __builtin_nontemporal_store((v), (p))
#else
#define CLPAD_NT_FENCE ((void)0)
#define CLPAD_STORE_NT(v, p) (*(p) = (v))
#endif
#define CLPAD_STORE(v, p) (*(p) = (v))

/* Before a loop of a few iterations: no vectorised copy of it, whose set-up
 * and checks would cost more than the loop. */
#ifdef __clang__
#define CLPAD_SHORT_LOOP _Pragma("clang loop vectorize(disable) unroll(disable)")
#else
#define CLPAD_SHORT_LOOP
#endif

/* A move of B bytes (32 or 64) between unaligned addresses. With clang (PoCL
 * and most CPU runtimes) one vector load and store through a vector type
 * aligned to 1 byte; vloadN/vstoreN would not do: PoCL's move a vector
 * component by component (16 scalar stores for a ushort16). */
#ifdef __clang__
typedef ulong8 clpad_b64 __attribute__((aligned(1)));
typedef ulong4 clpad_b32 __attribute__((aligned(1)));
#define CLPAD_BMOVE(B, dp, sp) (*(__global clpad_b##B *)(dp) = *(__global const clpad_b##B *)(sp))
#else
#define CLPAD_BMOVE(B, dp, sp)                  \
    for (int k_ = 0; k_ < B; k_++)              \
        (dp)[k_] = (sp)[k_];
#endif
/* n >= 32 bytes from sp to dp: 64-byte moves (32 when n < 64), the last one
 * ending at byte n (it may overlap the one before: the same values again),
 * so that no byte-by-byte remainder is left. */
#define CLPAD_BYTES_COPY(dp, sp, n)                                                          \
    {                                                                                        \
        __global uchar *dp_ = (dp);                                                          \
        __global const uchar *sp_ = (sp);                                                    \
        long n_ = (n);                                                                       \
        if (n_ >= 64) {                                                                      \
            for (long b_ = 0; b_ < n_ - 64; b_ += 64)                                        \
                CLPAD_BMOVE(64, dp_ + b_, sp_ + b_);                                         \
            CLPAD_BMOVE(64, dp_ + n_ - 64, sp_ + n_ - 64);                                   \
        } else {                                                                             \
            CLPAD_BMOVE(32, dp_, sp_);                                                       \
            CLPAD_BMOVE(32, dp_ + n_ - 32, sp_ + n_ - 32);                                   \
        }                                                                                    \
    }
