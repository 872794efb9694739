/* The CLI tests' harness (test_cli, test_cli_batch, test_cli_hostile): a
 * scratch directory, the clpad binary run through the shell in it with its
 * exit code, stdout and stderr kept, tensors saved and loaded there, and
 * the check of a one-line error. */
#ifndef CLPAD_TESTS_CLI_HARNESS_H
#define CLPAD_TESTS_CLI_HARNESS_H

#include "tensor_io.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern char ch_dir[];      /* the scratch directory, after ch_init */
extern const char *ch_cli; /* $CLPAD_CLI: the clpad binary */
extern char ch_out[8192], ch_err[8192];
/* ch_run's limit in seconds: a run past it (a hang) ends with an exit code
 * of 124 from timeout(1). */
extern int ch_timeout_s;

/* $CLPAD_CLI and a fresh scratch directory /tmp/clpad-NAME-XXXXXX; exits
 * with the skip code (77) when $CLPAD_CLI is not set. 0, or -1 when the
 * directory cannot be made. */
int ch_init(const char *name);
/* Remove the scratch directory; 0 on success. */
int ch_cleanup(void);
/* NAME in the scratch directory (one of four rotating buffers). */
const char *ch_path(const char *name);
/* Run `env ENV clpad ARGS` (ENV may be NULL) through the shell in the
 * scratch directory; the exit code (-1: killed), stdout in ch_out and
 * stderr in ch_err. */
int ch_run(const char *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text of the file at path into buf (empty if it cannot be read). */
void ch_slurp(const char *path, char *buf, size_t len);
/* Save / load a tensor NAME in the scratch directory (a failure fails the test). */
void ch_save(const char *name, clpad_dtype dt, int rank, const int64_t *shape, const void *data);
void ch_load(const char *name, tio_tensor *t);
bool ch_exists(const char *name);
/* The exit code is want_rc and stderr is exactly one line, "clpad: error:
 * ...", mentioning `needle`. */
void ch_expect_error(int rc, int want_rc, const char *needle);

#endif
