/* Every worked example of the Pad-12 seed (002_64f024ccfd05a067.txt), shared
 * by the CPU and OpenCL test programs. Input: the 3x4 matrix 1..12. */
#ifndef CLPAD_PAD_SEED_CASES_H
#define CLPAD_PAD_SEED_CASES_H

#include "clpad.h"

typedef struct seed_case {
    const char *name;
    clpad_pad_mode mode;
    int64_t pads_begin[2], pads_end[2];
    int64_t out_shape[2];
    int32_t expect[40];
} seed_case;

static const int32_t seed_input[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static const int64_t seed_shape[2] = {3, 4};

static const seed_case seed_cases[] = {
    /* Positive pads: pads_begin = [0, 1], pads_end = [2, 3]. */
    {"positive constant", CLPAD_PAD_CONSTANT, {0, 1}, {2, 3}, {5, 8},
     {0, 1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0, 9, 10, 11, 12, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"positive edge", CLPAD_PAD_EDGE, {0, 1}, {2, 3}, {5, 8},
     {1, 1, 2, 3, 4, 4, 4, 4, 5, 5, 6, 7, 8, 8, 8, 8, 9, 9, 10, 11, 12, 12, 12, 12,
      9, 9, 10, 11, 12, 12, 12, 12, 9, 9, 10, 11, 12, 12, 12, 12}},
    {"positive reflect", CLPAD_PAD_REFLECT, {0, 1}, {2, 3}, {5, 8},
     {2, 1, 2, 3, 4, 3, 2, 1, 6, 5, 6, 7, 8, 7, 6, 5, 10, 9, 10, 11, 12, 11, 10, 9,
      6, 5, 6, 7, 8, 7, 6, 5, 2, 1, 2, 3, 4, 3, 2, 1}},
    {"positive symmetric", CLPAD_PAD_SYMMETRIC, {0, 1}, {2, 3}, {5, 8},
     {1, 1, 2, 3, 4, 4, 3, 2, 5, 5, 6, 7, 8, 8, 7, 6, 9, 9, 10, 11, 12, 12, 11, 10,
      9, 9, 10, 11, 12, 12, 11, 10, 5, 5, 6, 7, 8, 8, 7, 6}},
    /* Negative pads: pads_begin = pads_end = [-1, -1], all modes give [[6, 7]]. */
    {"negative constant", CLPAD_PAD_CONSTANT, {-1, -1}, {-1, -1}, {1, 2}, {6, 7}},
    {"negative edge", CLPAD_PAD_EDGE, {-1, -1}, {-1, -1}, {1, 2}, {6, 7}},
    {"negative reflect", CLPAD_PAD_REFLECT, {-1, -1}, {-1, -1}, {1, 2}, {6, 7}},
    {"negative symmetric", CLPAD_PAD_SYMMETRIC, {-1, -1}, {-1, -1}, {1, 2}, {6, 7}},
    /* Mixed pads: pads_begin = [2, -1], pads_end = [-1, 3]. Mirrors read the
     * cropped column (the 9, 5, 1 of reflect). */
    {"mixed constant", CLPAD_PAD_CONSTANT, {2, -1}, {-1, 3}, {4, 6},
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 0, 0, 0, 6, 7, 8, 0, 0, 0}},
    {"mixed edge", CLPAD_PAD_EDGE, {2, -1}, {-1, 3}, {4, 6},
     {2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, 2, 3, 4, 4, 4, 4, 6, 7, 8, 8, 8, 8}},
    {"mixed reflect", CLPAD_PAD_REFLECT, {2, -1}, {-1, 3}, {4, 6},
     {10, 11, 12, 11, 10, 9, 6, 7, 8, 7, 6, 5, 2, 3, 4, 3, 2, 1, 6, 7, 8, 7, 6, 5}},
    {"mixed symmetric", CLPAD_PAD_SYMMETRIC, {2, -1}, {-1, 3}, {4, 6},
     {6, 7, 8, 8, 7, 6, 2, 3, 4, 4, 3, 2, 2, 3, 4, 4, 3, 2, 6, 7, 8, 8, 7, 6}},
};
#define SEED_CASE_COUNT (sizeof seed_cases / sizeof *seed_cases)

/* The IR examples: shapes (and pad_value 15.0 for constant). */
typedef struct seed_ir_case {
    const char *name;
    clpad_pad_mode mode;
    int64_t shape[4], pads_begin[4], pads_end[4], out_shape[4];
} seed_ir_case;

static const seed_ir_case seed_ir_cases[] = {
    {"IR constant positive", CLPAD_PAD_CONSTANT, {1, 3, 32, 40}, {0, 5, 2, 1}, {1, 0, 3, 7},
     {2, 8, 37, 48}},
    {"IR constant mixed", CLPAD_PAD_CONSTANT, {2, 3, 32, 40}, {0, -2, -8, 1}, {-1, 4, -6, 7},
     {1, 5, 18, 48}},
    {"IR edge", CLPAD_PAD_EDGE, {1, 3, 32, 40}, {0, 5, 2, 1}, {1, 0, 3, 7}, {2, 8, 37, 48}},
};
#define SEED_IR_CASE_COUNT (sizeof seed_ir_cases / sizeof *seed_ir_cases)

#endif
