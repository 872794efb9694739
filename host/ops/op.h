/* One operation's descriptor, and the registry that lists them
 * (host/ops/registry.c). Not installed.
 *
 * Every operation runs the same three steps, in the manner of ARM Compute
 * Library's validate / configure / run:
 *   validate  the public arguments become one validated call (the
 *             operation's own type: clpad_pad_call, sb_call, ...), once per
 *             public call, pure (host/ops/<op>/plan.c);
 *   plan      the call collapses into the plan its runs share (plan.c);
 *   run       on the host, fast (cpu.c) or plain (ref.c, the tests'
 *             oracle), or on the device (cl.c: build options, arguments,
 *             launch through host/device/launch.h).
 * The descriptor names those runs, so that the warm-up, the program cache's
 * users and the tests can go through every operation without knowing it.
 *
 * Adding an operation: a folder host/ops/<op>/ (its header, plan.c, ref.c,
 * cpu.c, cl.c, op.c defining the descriptor clpad__op_<name>), a kernel file
 * kernels/<family>.cl, one line in registry.c's list, and the public
 * function(s) in include/
 * (docs/architecture.md, "Adding an operation"). */
#ifndef CLPAD_OPS_OP_H
#define CLPAD_OPS_OP_H

#include "device/launch.h"

/* The runs of a validated call on one input and one output buffer (the
 * call is the operation's own type; input may be NULL for an empty input).
 * The batched operations (letterbox, pad-and-stack) take many inputs: their
 * descriptors leave these NULL. */
typedef void (*clpad_op_host_fn)(const void *call, const void *input, void *output);

typedef struct clpad_op_desc {
    const char *name;   /* as the API names it: "pad", "space_to_batch", ... */
    const char *family; /* its kernels: kernels/<family>.cl */
    /* The build options of program variant `i` that the operation's common
     * calls use on ctx, for clpad_context_warmup: true and the options
     * written, or false when there is no variant i. */
    bool (*variant)(const clpad_context *ctx, int i, char *options, size_t size);
    clpad_op_host_fn ref; /* the plain reference (ref.c) */
    clpad_op_host_fn cpu; /* the fast host path (cpu.c), equal to ref byte for byte */
    /* The device run of a validated call (cl.c), the closure being the call:
     * what the host-pointer path (clpad__run_host) enqueues. */
    clpad__enqueue_fn enqueue;
    /* The input and output bytes of a validated call. */
    void (*sizes)(const void *call, size_t *in_bytes, size_t *out_bytes);
} clpad_op_desc;

/* The host runs and sizes of a descriptor (.ref, .cpu, .sizes) for an
 * operation whose validated call is of type `type`, whose plain and fast
 * runs are `ref_fn` and `cpu_fn` (taking a `const type *`), and whose byte
 * counts are the call's members `in_member` and `out_member`: defines the
 * static functions ref, cpu and sizes in the file that expands it. */
#define CLPAD_OP_HOST_RUNS(type, ref_fn, cpu_fn, in_member, out_member)          \
    static void ref(const void *call, const void *input, void *output)          \
    {                                                                            \
        ref_fn((const type *)call, input, output);                               \
    }                                                                            \
    static void cpu(const void *call, const void *input, void *output)          \
    {                                                                            \
        cpu_fn((const type *)call, input, output);                               \
    }                                                                            \
    static void sizes(const void *call, size_t *in_bytes, size_t *out_bytes)    \
    {                                                                            \
        *in_bytes = ((const type *)call)->in_member;                             \
        *out_bytes = ((const type *)call)->out_member;                           \
    }

/* The descriptor of an operation with host runs, in the file that defines
 * its `variant` and expands CLPAD_OP_HOST_RUNS: its API name, kernel family
 * and device run. */
#define CLPAD_OP_DESC(op_name, op_family, enqueue_fn)                                    \
    {                                                                                    \
        .name = op_name, .family = op_family, .variant = variant, .ref = ref, .cpu = cpu, \
        .enqueue = enqueue_fn, .sizes = sizes,                                           \
    }

/* The registry: operation i (0, 1, ...), NULL past the last. */
const clpad_op_desc *clpad__op_at(size_t i);
/* The operation of that name, or NULL. */
const clpad_op_desc *clpad__op_find(const char *name);

#endif /* CLPAD_OPS_OP_H */
