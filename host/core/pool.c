/* The CPU paths' worker threads (pool.h).
 *
 * One pool per process, started on first use. A job is published under the
 * pool's mutex with a new generation number; workers and the caller take task
 * indices from an atomic counter, and the caller waits until every task has
 * finished. Workers that finish spin briefly for the next job before they
 * sleep on the condition variable: back-to-back calls (a preprocessing loop)
 * then skip the wake-up, which costs tens of microseconds in a VM, while an
 * idle process's workers sleep. After fork() the child has no workers: the
 * pool restarts there on first use.
 */
#include "core/pool.h"
#include "core/core.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define POOL_MAX_THREADS 16
/* How long a worker polls for the next job before it sleeps. */
#define POOL_SPIN_NS 200000

typedef struct pool {
    pthread_mutex_t lock; /* guards everything but the atomics */
    pthread_cond_t wake;
    int started, nworkers;
    pthread_t workers[POOL_MAX_THREADS];
    atomic_int busy;          /* a caller owns the pool */
    atomic_ulong generation;  /* bumped (under the lock) for each job */
    atomic_int active;        /* workers inside a job */
    /* the current job: written and copied under the lock */
    clpad_task_fn fn;
    void *arg;
    int n;
    atomic_int next;          /* next task index to take */
    atomic_int done;          /* tasks finished */
} pool;

static pool g_pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};
static int g_threads; /* 0: not decided yet */
static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Take and run tasks of a job until none is left. */
static void run_tasks(pool *p, clpad_task_fn fn, void *arg, int n)
{
    for (;;) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= n)
            return;
        fn(arg, i);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
    }
}

static void *worker(void *unused)
{
    (void)unused;
    pool *p = &g_pool;
    pthread_mutex_lock(&p->lock);
    unsigned long seen = atomic_load(&p->generation);
    pthread_mutex_unlock(&p->lock);
    for (;;) {
        /* Wait for a new job: poll a while, then sleep. */
        uint64_t t0 = now_ns();
        while (atomic_load_explicit(&p->generation, memory_order_acquire) == seen &&
               now_ns() - t0 < POOL_SPIN_NS)
            sched_yield();
        pthread_mutex_lock(&p->lock);
        while (atomic_load(&p->generation) == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        seen = atomic_load(&p->generation);
        clpad_task_fn fn = p->fn;
        void *arg = p->arg;
        int n = p->n;
        atomic_fetch_add(&p->active, 1); /* the next job waits for this one's workers */
        pthread_mutex_unlock(&p->lock);
        run_tasks(p, fn, arg, n);
        atomic_fetch_sub(&p->active, 1);
    }
    return NULL;
}

/* In a child after fork(): the workers did not come along. */
static void after_fork_child(void)
{
    pthread_mutex_init(&g_pool.lock, NULL);
    pthread_cond_init(&g_pool.wake, NULL);
    g_pool.started = 0;
    g_pool.nworkers = 0;
    atomic_store(&g_pool.busy, 0);
    atomic_store(&g_pool.active, 0);
}

static void register_atfork(void) { pthread_atfork(NULL, NULL, after_fork_child); }

int clpad__pool_threads(void)
{
    int t = __atomic_load_n(&g_threads, __ATOMIC_ACQUIRE);
    if (t)
        return t;
    clpad_environment env; /* $CLPAD_THREADS */
    clpad__read_environment(&env);
    long n = env.threads ? env.threads : sysconf(_SC_NPROCESSORS_ONLN);
#ifdef CPU_COUNT
    cpu_set_t set;
    if (!env.threads && sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        n = CPU_COUNT(&set);
#endif
    t = n < 1 ? 1 : n > POOL_MAX_THREADS ? POOL_MAX_THREADS : (int)n;
    __atomic_store_n(&g_threads, t, __ATOMIC_RELEASE);
    return t;
}

/* Start the workers (under the lock); 0 when none could start. */
static int start(pool *p)
{
    if (p->started)
        return p->nworkers;
    pthread_once(&g_atfork_once, register_atfork);
    int want = clpad__pool_threads() - 1;
    p->started = 1;
    for (int i = 0; i < want; i++) {
        if (pthread_create(&p->workers[p->nworkers], NULL, worker, NULL) != 0)
            break;
        pthread_detach(p->workers[p->nworkers]);
        p->nworkers++;
    }
    return p->nworkers;
}

void clpad__parallel_for(int n, clpad_task_fn fn, void *arg)
{
    pool *p = &g_pool;
    int expected = 0;
    if (n <= 1 || clpad__pool_threads() <= 1 ||
        !atomic_compare_exchange_strong(&p->busy, &expected, 1)) {
        for (int i = 0; i < n; i++) /* alone, or the pool is another caller's */
            fn(arg, i);
        return;
    }
    pthread_mutex_lock(&p->lock);
    int workers = start(p);
    if (workers > 0) {
        /* Workers still leaving the previous job (they took no task of it,
         * but hold its counters) go first. */
        while (atomic_load(&p->active) > 0) {
            pthread_mutex_unlock(&p->lock);
            sched_yield();
            pthread_mutex_lock(&p->lock);
        }
        p->fn = fn;
        p->arg = arg;
        p->n = n;
        atomic_store(&p->next, 0);
        atomic_store(&p->done, 0);
        atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
        pthread_cond_broadcast(&p->wake);
    }
    pthread_mutex_unlock(&p->lock);
    if (workers > 0) {
        run_tasks(p, fn, arg, n);
        while (atomic_load_explicit(&p->done, memory_order_acquire) < n)
            sched_yield();
    } else {
        for (int i = 0; i < n; i++)
            fn(arg, i);
    }
    atomic_store(&p->busy, 0);
}
