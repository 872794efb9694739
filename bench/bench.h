/* The throughput harness, run by `clpad bench` and by the standalone `clpad-bench`. */
#ifndef CLPAD_BENCH_H
#define CLPAD_BENCH_H

#include "clpad.h"

#include <stdbool.h>

/* argv[0] is the command name; returns an exit status (0, 1 failure, 2 usage). */
int clpad_bench_main(int argc, char **argv);

#endif
