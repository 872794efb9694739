/* Shared declarations of the clpad command-line program. */
#ifndef CLPAD_CLI_H
#define CLPAD_CLI_H

#include "clpad.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes: 0 success, 1 a failure while running, 2 a usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Print "clpad: error: <message>" on stderr; returns `code` for `return cli_error(...)`. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "clpad: <message>" on stderr unless quiet. */
void cli_note(bool quiet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse a comma-separated list of int64 ("1,-2,3") for option `opt` (named in
 * errors). At most `cap` values. Empty items, junk, overflow: error message
 * printed, returns false. */
bool cli_parse_i64_list(const char *text, const char *opt, int64_t *out, int cap, int *count);

/* "[1, 3, 224, 224]" into buf. */
const char *cli_shape_str(int rank, const int64_t *shape, char *buf, size_t len);

/* Subcommands: each takes argv starting at the subcommand name, returns an exit code. */
int cmd_pad(int argc, char **argv);
int cmd_space_to_batch(int argc, char **argv);
int cmd_batch_to_space(int argc, char **argv);
int cmd_shape(int argc, char **argv);
int cmd_devices(int argc, char **argv);

#endif
