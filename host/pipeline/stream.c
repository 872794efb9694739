/* The letterbox stream (include/clpad_stream.h): decoder threads read the
 * files in input order into a ring of 2 x batch slots, the caller's
 * clpad_letterbox_stream_next takes them in order into its batch, and the
 * batch is letterboxed: by the decoder threads image by image straight into
 * the caller's output (CPU devices and fallback contexts), or in one launch
 * (other devices).
 *
 * Everything shared is guarded by one mutex; pixels are decoded and
 * letterboxed outside it. Input i lives in ring slot i % ring_n from the
 * moment a worker claims it until the caller's cursor passes it (the image
 * then moves into the batch, or is reported and dropped). A worker claims
 * input i only while i < cursor + ring_n and fewer than 2 x batch decoded
 * images are alive (`held`: being decoded, waiting in the ring, or in the
 * batch until it is letterboxed, or with keep_pixels until the next call):
 * memory is bounded whatever the number of files. The cursor moves in
 * input order, so the batches, the skipped files and the first error are
 * the same whatever the threads' timing. With the library's reader and a
 * device that reads host memory in place, each batch's images are decoded
 * one after another into a batch arena (below), which the launch reads in
 * place instead of gathering their rows. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT, MAP_NORESERVE */
#include "device/context.h"
#include "device/launch.h"
#include "../../io/image_internal.h" /* clpad__image_read_alloc */

#include "clpad_stream.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* How much of a file is read to probe its header for decode scaling. */
#define STREAM_PROBE_BYTES ((size_t)256 << 10)
#define STREAM_MAX_WORKERS 64
/* The address space a batch arena reserves (pages are used only as images
 * fill them); an image that does not fit gets memory of its own. */
#define STREAM_ARENA_MAX ((size_t)8 << 30)

enum { R_EMPTY, R_DECODING, R_READY, R_FAILED };
enum { B_WAIT, B_RUNNING, B_DONE };

typedef struct ring_slot {
    int state;
    clpad_decoded_image img;
    clpad_status st;
    char *msg; /* R_FAILED: malloc'd */
} ring_slot;

typedef struct batch_entry {
    int state;
    clpad_decoded_image img;
    clpad_image im;          /* the pixels, with the source's geometry */
    clpad_stream_image info;
    clpad_status st;         /* letterbox's */
    char *msg;
} batch_entry;

/* A batch arena: the decoded images of one batch one after another, each
 * dense, so that clpad_letterbox reads them in place on a device that reads
 * host memory (docs/letterbox.md, 1.5) instead of gathering their rows.
 * Images claim space in input order as their decoders learn their sizes;
 * batch j's go to arena j % 2, reused once every image in it is released. */
typedef struct arena {
    unsigned char *base; /* NULL: none (the images get memory of their own) */
    size_t cap, used, resident;
    size_t live;         /* images in it not yet released */
    size_t batch;        /* the batch it holds (of the reservation count) */
    bool any;            /* it has held a batch */
} arena;

struct clpad_letterbox_stream {
    clpad_context *ctx;
    pid_t pid; /* the process that opened it: its threads are there only */
    clpad_letterbox_options lb;
    clpad_stream_options so;
    char **paths;
    size_t n, B, ring_n;
    int C;          /* channels of the batch; 0 until known (CLPAD_CHANNELS_KEEP) */
    bool per_image; /* letterbox image by image on the decoder threads */
    size_t slot_bytes;

    pthread_mutex_t mu;
    pthread_cond_t work; /* workers wait for a slot or a letterbox */
    pthread_cond_t done; /* the caller waits for an image */
    pthread_mutex_t call; /* serialises next() */
    pthread_t *threads;
    int nthreads;
    bool closing;

    ring_slot *ring;
    size_t next_decode, cursor, held;
    batch_entry *batch;
    size_t pos;     /* entries of the batch being made */
    size_t kept;    /* entries of the previous batch kept (keep_pixels) */
    bool assigning; /* a next() is making a batch */
    unsigned char *out;

    clpad_status failed;
    char *fail_msg;

    clpad_stream_skip *skips; /* files skipped since the previous call, and the
                                 `reported` ones that call returned */
    size_t nskip, skip_cap, reported;
    clpad_stream_image *infos;
    clpad_image *pixels;

    /* The arenas, under `amu` (taken after `mu`, never before it). */
    pthread_mutex_t amu;
    pthread_cond_t aturn; /* an input's turn to reserve */
    bool use_arenas;
    arena arenas[2];
    bool *settled;        /* ring slot's input has reserved or needs no space */
    size_t rnext;         /* the first input not settled */
    size_t claimed;       /* inputs claimed (= next_decode, copied under amu) */
    size_t rcount;        /* images reserved, less those that failed since */
};

/* ---- Options ------------------------------------------------------------------ */

void clpad_stream_options_init(clpad_stream_options *o)
{
    if (!clpad__sized_init(o, sizeof *o))
        return;
    o->batch = 32;
    o->workers = 0;
    clpad_read_options_init(&o->read);
    o->decode_scale = CLPAD_DECODE_SCALE_OFF;
    o->on_error = CLPAD_ON_ERROR_FAIL;
}

static int default_workers(void)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
    if (n < 1) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c > 0 ? (int)c : 1;
    }
    return n > STREAM_MAX_WORKERS ? STREAM_MAX_WORKERS : n;
}

/* ---- Reading one file ----------------------------------------------------------- */

/* ---- Batch arenas ---------------------------------------------------------------- */

/* Give back image memory from arena_get (either arena's, or its own);
 * `failed`: the image will not reach a batch. */
static void arena_put(clpad_letterbox_stream *s, void *p, bool failed)
{
    pthread_mutex_lock(&s->amu);
    bool found = false;
    for (int k = 0; k < 2; k++) {
        arena *a = &s->arenas[k];
        if (a->base && (unsigned char *)p >= a->base && (unsigned char *)p < a->base + a->cap) {
            a->live--;
            found = true;
        }
    }
    if (failed && s->rcount)
        s->rcount--; /* the batches after it start one image earlier */
    pthread_mutex_unlock(&s->amu);
    if (!found)
        free(p);
}

/* Input `index` needs no more space (amu held): the next input's turn. */
static void arena_settle(clpad_letterbox_stream *s, size_t index)
{
    s->settled[index % s->ring_n] = true;
    while (s->rnext < s->claimed && s->settled[s->rnext % s->ring_n])
        s->rnext++;
    pthread_cond_broadcast(&s->aturn);
}

/* A decoder thread's scratch memory (clpad__img_alloc's scratch): the
 * decode of a rotated photo, before its orientation, kept from image to
 * image up to STREAM_SCRATCH_KEEP, so that each one does not map (and
 * fault in) its pixels afresh. While a rotated photo is decoded the thread
 * holds what malloc would have given it; between them, at most
 * STREAM_SCRATCH_KEEP (a larger buffer is freed after its image). */
#define STREAM_SCRATCH_KEEP ((size_t)64 << 20)
typedef struct scratch {
    unsigned char *p;
    size_t cap;
} scratch;

typedef struct arena_call {
    clpad_letterbox_stream *s;
    size_t index;
    bool reserved; /* arena_get ran for it */
    scratch *sc;   /* the decoding thread's */
} arena_call;

/* The decoder's clpad__img_alloc.get: space for input index's final pixels,
 * after every earlier input's, in the arena of the batch it will be in;
 * memory of its own when that arena is still in use or full. */
static void *arena_get(void *user, size_t bytes)
{
    arena_call *c = user;
    clpad_letterbox_stream *s = c->s;
    if (c->reserved) /* a second buffer for one image: not in order */
        return malloc(bytes ? bytes : 1);
    unsigned char *p = NULL;
    pthread_mutex_lock(&s->amu);
    while (s->rnext != c->index)
        pthread_cond_wait(&s->aturn, &s->amu);
    size_t j = s->rcount / s->B;
    arena *a = &s->arenas[j % 2];
    if (a->base && (!a->any || a->batch != j) && a->live == 0) {
        /* a new batch: the pages beyond what the last one used go back */
        size_t page = 4096, keep = (a->used + page - 1) / page * page;
        if (a->resident > keep)
            madvise(a->base + keep, a->resident - keep, MADV_DONTNEED);
        a->resident = keep < a->resident ? keep : a->resident;
        a->batch = j;
        a->any = true;
        a->used = 0;
    }
    if (a->base && a->any && a->batch == j && bytes <= a->cap - a->used) {
        p = a->base + a->used;
        a->used += bytes;
        a->live++;
        if (a->used > a->resident)
            a->resident = a->used;
    }
    s->rcount++;
    c->reserved = true;
    arena_settle(s, c->index);
    pthread_mutex_unlock(&s->amu);
    return p ? p : malloc(bytes ? bytes : 1);
}

static void arena_give_back(void *user, void *p)
{
    arena_call *c = user; /* (a failed decode's, or pixels replaced: read_one counts
                             the failure) */
    if (p != c->sc->p) /* (scratch memory stays the thread's) */
        arena_put(c->s, p, false);
}

static void *scratch_get(void *user, size_t bytes)
{
    scratch *sc = ((arena_call *)user)->sc;
    if (bytes > sc->cap || !sc->p) {
        free(sc->p);
        sc->p = malloc(bytes ? bytes : 1);
        sc->cap = sc->p ? bytes : 0;
    }
    return sc->p;
}

static bool scratch_is(void *user, const void *p)
{
    return p && p == ((arena_call *)user)->sc->p;
}

static void release_img(clpad_letterbox_stream *s, clpad_decoded_image *img)
{
    if (!img->data)
        return;
    if (s->so.release_fn)
        s->so.release_fn(s->so.user, img);
    else if (s->use_arenas)
        arena_put(s, img->data, false);
    else
        clpad_decoded_image_free(img);
    memset(img, 0, sizeof *img);
    img->size = sizeof *img;
}

/* decode_scale auto: the size letterbox will resize the image to, from its
 * header (the first STREAM_PROBE_BYTES of the file); 0 x 0 when the header
 * cannot be read there (the decode then runs at full size and reports what
 * is wrong). */
static void scaled_minimum(const clpad_letterbox_stream *s, const char *path,
                           clpad_read_options *ro)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return;
    unsigned char *buf = malloc(STREAM_PROBE_BYTES);
    size_t len = 0;
    while (buf && len < STREAM_PROBE_BYTES) {
        ssize_t r = pread(fd, buf + len, STREAM_PROBE_BYTES - len, (off_t)len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    clpad_image_info info = {.size = sizeof info};
    if (buf && len && clpad_image_probe(buf, len, path, &info) == CLPAD_OK &&
        info.height > 0 && info.width > 0) {
        clpad_image im = {.height = info.height, .width = info.width, .channels = 3};
        clpad_letterbox_transform t;
        clpad_letterbox_transform_init(&t);
        /* the transform alone: the plan checks the options too, which
         * open checked */
        if (clpad_letterbox_plan(&im, 1, &s->lb, (int64_t[4]){0}, &t) == CLPAD_OK) {
            ro->min_height = t.resized_height;
            ro->min_width = t.resized_width;
        }
    }
    free(buf);
}

/* Read input i (outside the lock). 0, or the status with *msg malloc'd. */
static clpad_status read_one(clpad_letterbox_stream *s, size_t i, scratch *sc,
                             clpad_decoded_image *img, char **msg)
{
    const char *path = s->paths[i];
    clpad_read_options ro = s->so.read;
    ro.min_height = ro.min_width = 0;
    if (s->so.decode_scale == CLPAD_DECODE_SCALE_AUTO)
        scaled_minimum(s, path, &ro);
    memset(img, 0, sizeof *img);
    img->size = sizeof *img;
    clpad__clear_error();
    char given[1024] = "";
    clpad_status st;
    if (s->so.read_fn) {
        st = s->so.read_fn(s->so.user, path, i, &ro, img, given, sizeof given);
    } else if (s->use_arenas) {
        arena_call c = {s, i, false, sc};
        clpad__img_alloc alloc = {arena_get, arena_give_back, &c, scratch_get, scratch_is};
        st = clpad__image_read_alloc(path, &ro, &alloc, img);
        if (sc->cap > STREAM_SCRATCH_KEEP) {
            free(sc->p);
            *sc = (scratch){NULL, 0};
        }
        pthread_mutex_lock(&s->amu);
        if (!c.reserved) /* failed before its pixels: the next input's turn */
            arena_settle(s, i);
        else if (st && s->rcount)
            s->rcount--; /* it will not reach a batch */
        pthread_mutex_unlock(&s->amu);
    } else {
        st = clpad_image_read(path, &ro, img);
    }
    if (st) {
        /* the message names the file (the library's reader's do) */
        given[sizeof given - 1] = '\0';
        const char *e = *given ? given : clpad_last_error();
        if (!*e)
            e = clpad_status_string(st);
        if (strstr(e, path)) {
            *msg = strdup(e);
        } else {
            size_t len = strlen(path) + strlen(e) + 3;
            if ((*msg = malloc(len)))
                snprintf(*msg, len, "%s: %s", path, e);
        }
        return st;
    }
    if (img->dtype != CLPAD_U8 || !img->data || img->height < 1 || img->width < 1) {
        char text[1024];
        snprintf(text, sizeof text, "%s: %s", path,
                 img->dtype != CLPAD_U8 ? "16-bit samples: letterbox takes 8-bit images"
                                        : "the reader returned no pixels");
        release_img(s, img);
        *msg = strdup(text);
        return CLPAD_ERR_UNSUPPORTED;
    }
    if (img->source_height < 1 || img->source_width < 1) {
        img->source_height = img->height;
        img->source_width = img->width;
    }
    return CLPAD_OK;
}

/* ---- The cursor ----------------------------------------------------------------- */

static void record_skip(clpad_letterbox_stream *s, size_t index, clpad_status st, char *msg)
{
    if (s->nskip == s->skip_cap) {
        size_t cap = s->skip_cap ? 2 * s->skip_cap : 16;
        clpad_stream_skip *p = realloc(s->skips, cap * sizeof *p);
        if (!p) { /* out of memory for the report: the stream fails instead */
            if (!s->failed) {
                s->failed = CLPAD_ERR_OUT_OF_MEMORY;
                s->fail_msg = msg;
            } else {
                free(msg);
            }
            return;
        }
        s->skips = p;
        s->skip_cap = cap;
    }
    s->skips[s->nskip++] = (clpad_stream_skip){index, st, msg ? msg : strdup("")};
}

/* Input `index` failed with st and msg (taken): the stream's error, or a
 * skipped file. */
static void file_failed(clpad_letterbox_stream *s, size_t index, clpad_status st, char *msg)
{
    if (s->so.on_error == CLPAD_ON_ERROR_SKIP) {
        record_skip(s, index, st, msg);
    } else if (!s->failed) {
        s->failed = st;
        s->fail_msg = msg;
    } else {
        free(msg);
    }
}

/* Check a decoded image against the batch (channels, the letterbox plan);
 * 0, or the status with *msg malloc'd naming the file. */
static clpad_status check_image(clpad_letterbox_stream *s, size_t index, const clpad_image *im,
                                clpad_letterbox_transform *t, char **msg)
{
    char text[1200];
    if (im->channels != s->C) {
        snprintf(text, sizeof text,
                 "%s: %lld channels, but the batch has %d (those of the first image; read the "
                 "files with channels 1, 3 or 4 to convert them)",
                 s->paths[index], (long long)im->channels, s->C);
        *msg = strdup(text);
        return CLPAD_ERR_INVALID_SHAPE;
    }
    int64_t shape[4];
    clpad_status st = clpad_letterbox_plan(im, 1, &s->lb, shape, t);
    if (st) {
        const char *e = clpad_last_error();
        if (!strncmp(e, "images[0]: ", 11))
            e += 11;
        snprintf(text, sizeof text, "%s: %s", s->paths[index], e);
        *msg = strdup(text);
    }
    return st;
}

/* Move the cursor over every input that is resolved, in order (lock held):
 * failed files are reported (or end the stream), readable ones go into the
 * batch while a next() is making one and it has room. */
static void advance(clpad_letterbox_stream *s)
{
    bool moved = false;
    while (!s->failed && s->cursor < s->n) {
        ring_slot *r = &s->ring[s->cursor % s->ring_n];
        if (r->state == R_FAILED) {
            file_failed(s, s->cursor, r->st, r->msg);
            r->msg = NULL;
            r->state = R_EMPTY;
            s->cursor++;
            moved = true;
            continue;
        }
        if (r->state != R_READY)
            break;
        if (s->C == 0)
            s->C = (int)r->img.channels;
        if (!s->assigning || s->pos == s->B)
            break;
        clpad_decoded_image *img = &r->img;
        clpad_image im = {.data = img->data, .height = img->height, .width = img->width,
                          .channels = img->channels};
        if (img->height != img->source_height || img->width != img->source_width) {
            im.geometry_height = img->source_height;
            im.geometry_width = img->source_width;
        }
        clpad_letterbox_transform t;
        clpad_letterbox_transform_init(&t);
        char *msg = NULL;
        clpad_status st = check_image(s, s->cursor, &im, &t, &msg);
        if (st) {
            if (s->use_arenas && img->data) { /* it will not reach a batch */
                arena_put(s, img->data, true);
                img->data = NULL;
            }
            release_img(s, img);
            s->held--;
            r->state = R_FAILED;
            r->st = st;
            r->msg = msg;
            continue; /* reported by the next turn */
        }
        batch_entry *e = &s->batch[s->pos++];
        *e = (batch_entry){.state = B_WAIT, .img = *img, .im = im};
        e->info = (clpad_stream_image){.index = s->cursor,
                                       .source_height = img->source_height,
                                       .source_width = img->source_width,
                                       .decoded_height = img->height,
                                       .decoded_width = img->width,
                                       .scale_num = img->scale_num ? img->scale_num : 8,
                                       .transform = t};
        memset(img, 0, sizeof *img);
        img->size = sizeof *img;
        r->state = R_EMPTY;
        s->cursor++;
        moved = true;
    }
    if (moved)
        pthread_cond_broadcast(&s->work); /* ring slots are free, letterboxes wait */
}

/* ---- Letterbox of one image (per_image) ----------------------------------------- */

static clpad_status letterbox_one(clpad_letterbox_stream *s, batch_entry *e, unsigned char *dst)
{
    uint64_t moved = (uint64_t)(e->im.height * e->im.width * e->im.channels) + s->slot_bytes;
    /* clpad_letterbox's policy for this one image: small calls run the CPU
     * path (here on this thread alone: the other threads decode), larger
     * ones a launch */
    if (clpad__host_call_on_cpu(s->ctx, moved))
        return clpad_letterbox_cpu(&e->im, 1, &s->lb, dst, s->slot_bytes, NULL);
    return clpad_letterbox(s->ctx, &e->im, 1, &s->lb, dst, s->slot_bytes, NULL, NULL);
}

/* Take a waiting letterbox and run it (lock held on entry and exit);
 * false when there is none. */
static bool run_one_letterbox(clpad_letterbox_stream *s)
{
    if (!s->per_image || !s->out)
        return false;
    for (size_t k = 0; k < s->pos; k++) {
        batch_entry *e = &s->batch[k];
        if (e->state != B_WAIT)
            continue;
        e->state = B_RUNNING;
        unsigned char *dst = s->out + k * s->slot_bytes;
        pthread_mutex_unlock(&s->mu);
        clpad_status st = letterbox_one(s, e, dst);
        char *msg = NULL;
        if (st) {
            char text[1200];
            snprintf(text, sizeof text, "%s: %s", s->paths[e->info.index], clpad_last_error());
            msg = strdup(text);
        }
        pthread_mutex_lock(&s->mu);
        e->st = st;
        e->msg = msg;
        e->state = B_DONE;
        pthread_cond_broadcast(&s->done);
        return true;
    }
    return false;
}

/* ---- Worker threads ------------------------------------------------------------- */

static void *worker(void *arg)
{
    clpad_letterbox_stream *s = arg;
    scratch sc = {NULL, 0};
    pthread_mutex_lock(&s->mu);
    while (!s->closing) {
        if (run_one_letterbox(s))
            continue;
        if (!s->failed && s->next_decode < s->n && s->next_decode < s->cursor + s->ring_n &&
            s->held < 2 * s->B) {
            size_t i = s->next_decode++;
            ring_slot *r = &s->ring[i % s->ring_n];
            r->state = R_DECODING;
            if (s->use_arenas) {
                pthread_mutex_lock(&s->amu);
                s->settled[i % s->ring_n] = false;
                s->claimed = s->next_decode;
                pthread_mutex_unlock(&s->amu);
            }
            s->held++;
            pthread_mutex_unlock(&s->mu);
            clpad_decoded_image img;
            char *msg = NULL;
            clpad_status st = read_one(s, i, &sc, &img, &msg);
            pthread_mutex_lock(&s->mu);
            if (st) {
                r->state = R_FAILED;
                r->st = st;
                r->msg = msg;
                s->held--;
            } else {
                r->img = img;
                r->state = R_READY;
            }
            /* in order: this image may join the batch now, and be
             * letterboxed by this thread while its pixels are in cache */
            advance(s);
            pthread_cond_broadcast(&s->done);
            continue;
        }
        pthread_cond_wait(&s->work, &s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    free(sc.p);
    return NULL;
}

/* ---- Open and close --------------------------------------------------------------- */

static void free_entry(clpad_letterbox_stream *s, batch_entry *e)
{
    release_img(s, &e->img);
    free(e->msg);
    e->msg = NULL;
}

/* A child made by fork() has a copy of the stream but not its decoder
 * threads (nor, if one was held, a usable lock): waiting on them would
 * wait forever. The stream is refused there, and closing it leaves the
 * copy alone. */
static clpad_status forked_child(const clpad_letterbox_stream *s, const char *fn)
{
    return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                       "%s: the stream was opened in process %ld, and this is process %ld, a "
                       "child made by fork(): its decoder threads stayed in the parent; open "
                       "a stream in this process",
                       fn, (long)s->pid, (long)getpid());
}

void clpad_letterbox_stream_close(clpad_letterbox_stream *s)
{
    if (!s || s->pid != getpid())
        return;
    pthread_mutex_lock(&s->mu);
    s->closing = true;
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->mu);
    for (int t = 0; t < s->nthreads; t++)
        pthread_join(s->threads[t], NULL);
    for (size_t k = 0; s->ring && k < s->ring_n; k++) {
        release_img(s, &s->ring[k].img);
        free(s->ring[k].msg);
    }
    for (size_t k = 0; s->batch && k < s->B; k++)
        free_entry(s, &s->batch[k]);
    for (size_t k = 0; k < s->nskip; k++)
        free((void *)s->skips[k].message);
    for (size_t k = 0; s->paths && k < s->n; k++)
        free(s->paths[k]);
    free(s->paths);
    free(s->ring);
    free(s->batch);
    free(s->skips);
    free(s->infos);
    free(s->pixels);
    free(s->threads);
    free(s->fail_msg);
    for (int k = 0; k < 2; k++)
        if (s->arenas[k].base)
            munmap(s->arenas[k].base, s->arenas[k].cap);
    free(s->settled);
    pthread_mutex_destroy(&s->amu);
    pthread_cond_destroy(&s->aturn);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->call);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->done);
    free(s);
}

clpad_status clpad_letterbox_stream_open(clpad_context *ctx, const char *const *paths, size_t n,
                                         const clpad_letterbox_options *lb,
                                         const clpad_stream_options *options,
                                         clpad_letterbox_stream **out)
{
    clpad__clear_error();
    if (!out)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox_stream_open: out is NULL");
    *out = NULL;
    if (!ctx || !lb || (n && !paths))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox_stream_open: %s is NULL",
                           !ctx ? "the context" : !lb ? "the letterbox options" : "paths");
    clpad_stream_options so;
    clpad_stream_options_init(&so);
    clpad_status st;
    if (options && (st = clpad__versioned_in(&so, sizeof so, options, sizeof so, NULL, 0,
                                             "letterbox_stream_open: options", "options",
                                             "fill it with clpad_stream_options_init()")))
        return st;
    so.size = sizeof so;
    if (so.batch < 1 || so.batch > ((size_t)1 << 24))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox_stream_open: batch = %zu: "
                                                       "1 .. 2^24 images",
                           so.batch);
    if (so.workers < 0)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox_stream_open: workers = %d: 0 (one per core) or more",
                           so.workers);
    if (so.read.keep_depth)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox_stream_open: read.keep_depth: letterbox takes 8-bit "
                           "images");
    if (so.read.channels != CLPAD_CHANNELS_KEEP && so.read.channels != 1 &&
        so.read.channels != 3 && so.read.channels != 4)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox_stream_open: read.channels = %d: 1, 3, 4 or keep",
                           so.read.channels);
    if (so.decode_scale != CLPAD_DECODE_SCALE_OFF && so.decode_scale != CLPAD_DECODE_SCALE_AUTO)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox_stream_open: decode_scale = %d: off (0) or auto (1)",
                           so.decode_scale);
    if (so.on_error != CLPAD_ON_ERROR_FAIL && so.on_error != CLPAD_ON_ERROR_SKIP)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox_stream_open: on_error = %d: fail (0) or skip (1)",
                           so.on_error);
    if (!!so.read_fn != !!so.release_fn)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox_stream_open: read_fn and release_fn go together");
    for (size_t i = 0; i < n; i++)
        if (!paths[i])
            return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox_stream_open: paths[%zu] "
                                                           "is NULL",
                               i);
    /* the options, checked once: a plan of no image */
    int64_t shape[4];
    if ((st = clpad_letterbox_plan(NULL, 0, lb, shape, NULL)))
        return st;
    if (lb->input_format != CLPAD_INPUT_PACKED)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "letterbox_stream_open: input_format %s: the stream decodes image "
                           "files into packed images (letterbox YUV frames with "
                           "clpad_letterbox)",
                           clpad_input_format_name(lb->input_format));
    if (lb->stride)
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "letterbox_stream_open: stride = %lld: a stream's batches have one "
                           "slot, which the stride's auto mode would make each batch's own",
                           (long long)lb->stride);
    int C = so.read.channels == CLPAD_CHANNELS_KEEP ? 0 : so.read.channels;
    if (C) { /* mean and std of the channels the images will have */
        clpad_image probe = {.height = 1, .width = 1, .channels = C};
        if ((st = clpad_letterbox_plan(&probe, 1, lb, shape, NULL)))
            return st;
    }

    clpad_letterbox_stream *s = calloc(1, sizeof *s);
    if (!s)
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox stream: out of memory");
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->amu, NULL);
    pthread_cond_init(&s->aturn, NULL);
    pthread_mutex_init(&s->call, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->done, NULL);
    s->ctx = ctx;
    s->pid = getpid();
    s->lb = *lb;
    s->lb.size = sizeof s->lb; /* (the caller's may be a newer, larger one) */
    s->so = so;
    s->n = n;
    s->B = so.batch;
    s->ring_n = 2 * so.batch;
    s->C = C;
    /* Without a device each image is letterboxed by the thread that decoded
     * it (the CPU reference, on every core); a device gets one launch per
     * batch, CPU devices included: there the kernel took less CPU time than
     * the CPU reference image by image (bench/README.md). */
    s->per_image = ctx->fallback;
    clpad_environment env; /* $CLPAD_STREAM_LETTERBOX, read per stream */
    clpad__read_environment(&env);
    if (env.stream_letterbox == 1)
        s->per_image = true;
    else if (env.stream_letterbox == 2 && !ctx->fallback)
        s->per_image = false;
    /* Batch arenas where one launch reads the batch in place: a device
     * context reading host memory, the library's reader (a caller's
     * read_fn returns memory of its own). */
    s->use_arenas = !s->per_image && !so.read_fn;
    if (s->use_arenas) {
        uint64_t px = so.read.max_pixels ? so.read.max_pixels : CLPAD_IMAGE_DEFAULT_MAX_PIXELS;
        size_t cap = px < STREAM_ARENA_MAX / 4 / so.batch ? (size_t)px * 4 * so.batch
                                                           : STREAM_ARENA_MAX;
        for (int k = 0; k < 2; k++) {
            void *m = mmap(NULL, cap, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m != MAP_FAILED && !clpad__host_in_place(ctx, m))
                munmap(m, cap);
            else if (m != MAP_FAILED)
                s->arenas[k] = (arena){.base = m, .cap = cap};
        }
        s->use_arenas = s->arenas[0].base && s->arenas[1].base;
        s->settled = calloc(s->ring_n, sizeof *s->settled);
        if (!s->settled)
            s->use_arenas = false;
    }
    s->paths = calloc(n ? n : 1, sizeof *s->paths);
    s->ring = calloc(s->ring_n, sizeof *s->ring);
    s->batch = calloc(s->B, sizeof *s->batch);
    s->infos = calloc(s->B, sizeof *s->infos);
    s->pixels = calloc(s->B, sizeof *s->pixels);
    int workers = so.workers ? so.workers : default_workers();
    if (workers > STREAM_MAX_WORKERS)
        workers = STREAM_MAX_WORKERS;
    if ((size_t)workers > n)
        workers = n ? (int)n : 1;
    s->threads = calloc((size_t)workers, sizeof *s->threads);
    bool ok = s->paths && s->ring && s->batch && s->infos && s->pixels && s->threads;
    for (size_t i = 0; ok && i < n; i++)
        ok = (s->paths[i] = strdup(paths[i])) != NULL;
    if (!ok) {
        clpad_letterbox_stream_close(s);
        return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY, "letterbox stream: out of memory for %zu "
                                                    "paths",
                           n);
    }
    for (size_t k = 0; k < s->ring_n; k++)
        s->ring[k].img.size = sizeof s->ring[k].img;
    for (size_t k = 0; k < s->B; k++)
        s->batch[k].img.size = sizeof s->batch[k].img;
    for (int t = 0; t < workers; t++) {
        int e = pthread_create(&s->threads[t], NULL, worker, s);
        if (e) {
            clpad_letterbox_stream_close(s);
            return clpad__fail(CLPAD_ERR_OUT_OF_MEMORY,
                               "letterbox stream: cannot start decoder thread %d: %s", t,
                               strerror(e));
        }
        s->nthreads = t + 1;
    }
    *out = s;
    return CLPAD_OK;
}

/* ---- Batches --------------------------------------------------------------------- */

static size_t batch_bytes(const clpad_letterbox_stream *s)
{
    return s->B * s->slot_bytes;
}

static void set_slot_bytes(clpad_letterbox_stream *s)
{
    s->slot_bytes = (size_t)s->C * (size_t)s->lb.out_height * (size_t)s->lb.out_width *
                    clpad_dtype_size(s->lb.dtype);
}

/* The stream's error as this call's (lock held). */
static clpad_status stream_error(const clpad_letterbox_stream *s)
{
    return clpad__fail(s->failed, "%s", s->fail_msg ? s->fail_msg : clpad_status_string(s->failed));
}

/* Wait until the channel count is known (lock held); 0, or the error. */
static clpad_status wait_channels(clpad_letterbox_stream *s)
{
    while (!s->C && !s->failed && s->cursor < s->n) {
        advance(s);
        if (s->C || s->failed || s->cursor == s->n)
            break;
        pthread_cond_wait(&s->done, &s->mu);
    }
    if (s->failed)
        return stream_error(s);
    if (!s->C)
        return clpad__fail(CLPAD_ERR_IO, "letterbox stream: none of the %zu files could be read",
                           s->n);
    return CLPAD_OK;
}

clpad_status clpad_letterbox_stream_batch_shape(clpad_letterbox_stream *s, int64_t shape[4],
                                                size_t *bytes)
{
    clpad__clear_error();
    if (!s || !shape)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox_stream_batch_shape: NULL "
                                                       "argument");
    if (s->pid != getpid())
        return forked_child(s, "letterbox_stream_batch_shape");
    pthread_mutex_lock(&s->mu);
    clpad_status st = wait_channels(s);
    if (!st) {
        set_slot_bytes(s);
        int64_t N = (int64_t)s->B, C = s->C, H = s->lb.out_height, W = s->lb.out_width;
        if (s->lb.layout == CLPAD_LAYOUT_NCHW)
            shape[0] = N, shape[1] = C, shape[2] = H, shape[3] = W;
        else
            shape[0] = N, shape[1] = H, shape[2] = W, shape[3] = C;
        if (bytes)
            *bytes = batch_bytes(s);
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}

/* Release the batch's entries (lock held). */
static void release_batch(clpad_letterbox_stream *s, size_t count)
{
    for (size_t k = 0; k < count; k++)
        free_entry(s, &s->batch[k]);
    s->held -= count;
    pthread_cond_broadcast(&s->work);
}

clpad_status clpad_letterbox_stream_next(clpad_letterbox_stream *s, void *output,
                                         size_t output_bytes, clpad_stream_batch *b)
{
    clpad__clear_error();
    if (!s || !b)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox_stream_next: NULL argument");
    if (s->pid != getpid())
        return forked_child(s, "letterbox_stream_next");
    /* (a larger size, a newer caller's: its fields past ours stay) */
    clpad_status st = clpad__sized_check(b->size, sizeof *b, "letterbox_stream_next",
                                         "batch->size", "batch", -1,
                                         "set it to sizeof(clpad_stream_batch)");
    if (st)
        return st;
    pthread_mutex_lock(&s->call);
    pthread_mutex_lock(&s->mu);
    /* what the previous call left: its kept pixels, its report */
    if (s->kept) {
        release_batch(s, s->kept);
        s->kept = 0;
    }
    /* the skipped files the previous call returned go; those the threads
     * met since (advance runs on them too) stay for this call */
    if (s->reported) {
        for (size_t k = 0; k < s->reported; k++)
            free((void *)s->skips[k].message);
        memmove(s->skips, s->skips + s->reported, (s->nskip - s->reported) * sizeof *s->skips);
        s->nskip -= s->reported;
        s->reported = 0;
    }
    if (s->failed) {
        st = stream_error(s);
        goto out;
    }
    if (s->cursor < s->n) {
        if ((st = wait_channels(s)))
            goto out;
        set_slot_bytes(s);
        if (!output || output_bytes < batch_bytes(s)) {
            st = clpad__fail(output ? CLPAD_ERR_BUFFER_TOO_SMALL : CLPAD_ERR_INVALID_ARGUMENT,
                             "letterbox_stream_next: output_bytes = %zu, but a batch needs %zu",
                             output ? output_bytes : 0, batch_bytes(s));
            goto out;
        }
    }
    s->pos = 0;
    s->out = s->per_image ? output : NULL;
    s->assigning = true;
    for (;;) {
        advance(s);
        if (s->failed || s->pos == s->B || s->cursor == s->n)
            break;
        if (run_one_letterbox(s))
            continue;
        pthread_cond_wait(&s->done, &s->mu);
    }
    s->assigning = false;
    /* every letterbox of the batch finishes before the output goes back */
    for (;;) {
        bool busy = false;
        for (size_t k = 0; k < s->pos && s->per_image; k++)
            busy |= s->batch[k].state != B_DONE;
        if (!busy)
            break;
        if (!run_one_letterbox(s))
            pthread_cond_wait(&s->done, &s->mu);
    }
    s->out = NULL;
    size_t count = s->pos;
    for (size_t k = 0; k < count && !s->failed; k++)
        if (s->batch[k].st) {
            s->failed = s->batch[k].st;
            s->fail_msg = s->batch[k].msg;
            s->batch[k].msg = NULL;
        }
    if (!s->failed && !s->per_image && count) {
        for (size_t k = 0; k < count; k++)
            s->pixels[k] = s->batch[k].im;
        pthread_mutex_unlock(&s->mu);
        clpad_status lst = clpad_letterbox(s->ctx, s->pixels, count, &s->lb, output,
                                           output_bytes, NULL, NULL);
        char *msg = lst ? strdup(clpad_last_error()) : NULL;
        pthread_mutex_lock(&s->mu);
        if (lst && !s->failed) {
            s->failed = lst;
            s->fail_msg = msg;
        } else {
            free(msg);
        }
    }
    if (s->failed) {
        release_batch(s, count);
        s->pos = 0;
        st = stream_error(s);
        goto out;
    }
    for (size_t k = 0; k < count; k++) {
        s->infos[k] = s->batch[k].info;
        s->pixels[k] = s->batch[k].im;
    }
    if (s->so.keep_pixels)
        s->kept = count;
    else
        release_batch(s, count);
    s->pos = 0;
    b->count = count;
    b->images = s->infos;
    b->skipped_count = s->nskip;
    b->skipped = s->skips;
    s->reported = s->nskip;
    b->pixels = s->so.keep_pixels ? s->pixels : NULL;
    b->inputs_done = s->cursor;
    b->end = s->cursor == s->n;
out:
    pthread_mutex_unlock(&s->mu);
    pthread_mutex_unlock(&s->call);
    return st;
}
