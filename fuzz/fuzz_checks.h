/*
 * The checks behind the fuzz targets (fuzz/fuzz_main.c) and their replay in
 * tests/test_hostile.c, which links them as the clpad_fuzz_checks library.
 *
 * Each check decodes one fuzz input, calls the code under test and compares
 * what it did with what include/clpad.h, include/clpad_window.h and
 * io/tensor_io.h promise. It returns NULL when everything holds, else a
 * one-line message naming the broken promise (valid until the next check on
 * the thread). Memory errors and undefined behaviour are caught by ASan and
 * UBSan, which both the fuzzers and the sanitizer build of the tests use.
 *
 * Targets (the name is the corpus directory under fuzz/corpus/ and
 * fuzz/regressions/):
 *   npy          a whole .npy file -> tio_load_npy_mem, tio_save_npy_mem
 *   image        a whole image file -> tio_load_image_mem
 *   pad          decoded Pad arguments -> clpad_pad_output_shape,
 *                clpad_pad_cpu, clpad_scalar_parse (pad_value from text)
 *   space_batch  decoded SpaceToBatch / BatchToSpace arguments -> their
 *                output-shape and CPU functions, and the round trip
 *   window       decoded window-geometry arguments -> every clpad_window_*
 *                convention, clpad_window_tensor_pads, the pad-layout
 *                conversions and the name functions
 *   letterbox    decoded images (packed or YUV 4:2:0, strides, separate
 *                planes) and options -> clpad_letterbox_plan,
 *                clpad_letterbox_cpu (every byte written, the same twice,
 *                inputs unchanged, a short output refused untouched)
 * The decoding of the structured inputs is described in fuzz/README.md and
 * mirrored by fuzz/make_corpus.py.
 */
#ifndef CLPAD_FUZZ_CHECKS_H
#define CLPAD_FUZZ_CHECKS_H

#include <stddef.h>
#include <stdint.h>

/* Images of more pixels are refused (tio_load_image_mem's max_pixels), so
 * that each fuzz execution stays fast (at most 1 MiB decoded). */
#define FZ_IMAGE_MAX_PIXELS ((uint64_t)1 << 17)
/* Tensors above this many elements get no element-by-element comparison. */
#define FZ_MAX_ELEMS 4096

typedef const char *(*fz_check_fn)(const uint8_t *data, size_t size);

const char *fz_check_npy(const uint8_t *data, size_t size);
const char *fz_check_image(const uint8_t *data, size_t size);
const char *fz_check_pad(const uint8_t *data, size_t size);
const char *fz_check_space_batch(const uint8_t *data, size_t size);
const char *fz_check_window(const uint8_t *data, size_t size);
const char *fz_check_letterbox(const uint8_t *data, size_t size);

typedef struct fz_target {
    const char *name; /* corpus directory name */
    fz_check_fn check;
} fz_target;

/* Every target, in the order above; fz_target_count() entries. */
extern const fz_target fz_targets[];
size_t fz_target_count(void);

#endif
