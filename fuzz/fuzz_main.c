/*
 * One libFuzzer target: FZ_CHECK (a function of fuzz_checks.h) on every input;
 * a broken promise aborts with its message, so that libFuzzer saves the input.
 * Built once per target by fuzz/CMakeLists.txt.
 */
#include "fuzz_checks.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef FZ_CHECK
#error "define FZ_CHECK to the check function of the target"
#endif
#define FZ_STR2(x) #x
#define FZ_STR(x) FZ_STR2(x)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *msg = FZ_CHECK(data, size);
    if (msg) {
        fprintf(stderr, "\nCHECK FAILED (%s): %s\n", FZ_STR(FZ_CHECK), msg);
        abort();
    }
    return 0;
}
