/* The per-thread staging buffer (staging.h). The thread's buffer is freed
 * at the thread's exit (a pthread key's destructor). */
#include "device/staging.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct staging {
    void *p;
    size_t cap;
    bool busy;
} staging;

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void release(void *v)
{
    staging *s = v;
    if (s) {
        free(s->p);
        free(s);
    }
}

static void make_key(void) { pthread_key_create(&key, release); }

static staging *mine(void)
{
    pthread_once(&once, make_key);
    staging *s = pthread_getspecific(key);
    if (!s && (s = calloc(1, sizeof *s)) && pthread_setspecific(key, s)) {
        free(s);
        s = NULL;
    }
    return s;
}

void *clpad__staging_get(size_t bytes)
{
    if (!bytes)
        bytes = 1;
    staging *s = mine();
    if (!s || s->busy) /* (a call inside a call, or no key): a buffer of its own */
        return malloc(bytes);
    if (s->cap < bytes) {
        free(s->p);
        s->p = malloc(bytes);
        s->cap = s->p ? bytes : 0;
        if (!s->p)
            return NULL;
    }
    s->busy = true;
    return s->p;
}

void clpad__staging_put(void *buffer)
{
    staging *s = mine();
    if (s && s->busy && buffer == s->p) {
        s->busy = false;
        if (s->cap > CLPAD_STAGING_KEEP) {
            free(s->p);
            s->p = NULL;
            s->cap = 0;
        }
        return;
    }
    free(buffer);
}
