/* A staging buffer per calling thread for the host-pointer calls that
 * gather their inputs into one buffer (letterbox, pad-and-stack): kept
 * between calls, so that a stream of batches does not map and fault in
 * fresh pages on every call (a 40 MB gather did: page faults and zeroing
 * were a third of the call). Not installed. */
#ifndef CLPAD_STAGING_H
#define CLPAD_STAGING_H

#include <stddef.h>

/* Buffers up to this size are kept for the thread's next call; larger
 * ones are freed when the call ends. */
#define CLPAD_STAGING_KEEP ((size_t)256 << 20)

/* A buffer of at least `bytes` bytes (contents undefined), or NULL when out
 * of memory. Give it back with clpad__staging_put. */
void *clpad__staging_get(size_t bytes);
void clpad__staging_put(void *buffer);

#endif /* CLPAD_STAGING_H */
