/* Standalone `clpad-bench`: the same harness as `clpad bench`. */
#include "bench.h"

int main(int argc, char **argv) { return clpad_bench_main(argc, argv); }
