/* The registry of operations (host/ops/op.h), and what iterates it inside
 * the library: the warm-up, and the public list of operation names. Adding
 * an operation adds one line here. */
#include "ops/op.h"

#include <string.h>

/* The operations, in the order clpad_operation_name lists them: one line
 * each, naming the descriptor clpad__op_<name> of host/ops/<op>/op.c. */
#define CLPAD_OPERATIONS(X) \
    X(pad)                  \
    X(space_to_batch)       \
    X(batch_to_space)       \
    X(letterbox)            \
    X(pad_stack)            \
    X(pad_numpy)

#define CLPAD_DECLARE_OP(name) extern const clpad_op_desc clpad__op_##name;
CLPAD_OPERATIONS(CLPAD_DECLARE_OP)
#undef CLPAD_DECLARE_OP

static const clpad_op_desc *const registry[] = {
#define CLPAD_REGISTER_OP(name) &clpad__op_##name,
    CLPAD_OPERATIONS(CLPAD_REGISTER_OP)
#undef CLPAD_REGISTER_OP
};

const clpad_op_desc *clpad__op_at(size_t i)
{
    return i < sizeof registry / sizeof *registry ? registry[i] : NULL;
}

const clpad_op_desc *clpad__op_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof registry / sizeof *registry; i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}

const char *clpad_operation_name(size_t index)
{
    const clpad_op_desc *op = clpad__op_at(index);
    return op ? op->name : NULL;
}

/* Every operation's warm-up variants (clpad_op_desc.variant); the variants
 * of mixed per-axis modes and of large pads build on their first use. */
clpad_status clpad_context_warmup(clpad_context *ctx)
{
    clpad__clear_error();
    if (!ctx)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "warmup: context is NULL");
    if (ctx->fallback)
        return CLPAD_OK;
    clpad_status st = CLPAD_OK;
    pthread_mutex_lock(&ctx->lock);
    for (const clpad_op_desc *const *op = registry; !st && op < registry + sizeof registry / sizeof *registry; op++) {
        char options[CLPAD_OPTIONS_MAX];
        for (int v = 0; !st && (*op)->variant(ctx, v, options, sizeof options); v++) {
            cl_program program;
            st = clpad__program(ctx, (*op)->family, options, &program);
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
