/* A small pool of worker threads for the CPU paths (host/core/pool.c): a parallel
 * "for" over independent tasks. Not installed. */
#ifndef CLPAD_POOL_H
#define CLPAD_POOL_H

/* One task: index i of n. */
typedef void (*clpad_task_fn)(void *arg, int i);

/* Threads a parallel call uses: the caller and the pool's workers (1 when
 * the pool is off). $CLPAD_THREADS sets it (1: no worker threads); by default
 * the number of CPUs the process may run on, at most 16. */
int clpad__pool_threads(void);

/* Run fn(arg, i) for every i in [0, n), on the calling thread and the pool's
 * workers, and return when all have run. Tasks must be independent. When the
 * pool is busy with another caller's tasks, or has no workers, the calling
 * thread runs them all itself: a call never waits for another. */
void clpad__parallel_for(int n, clpad_task_fn fn, void *arg);

#endif /* CLPAD_POOL_H */
