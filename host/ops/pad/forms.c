/* The other forms a Pad can be asked in (docs/modes.md): mode
 * names of other frameworks, ONNX Pad-18's axes, pads to a multiple. Pure
 * host code: they turn a request into clpad's own pads_begin / pads_end and
 * per-axis modes, which clpad_pad then validates. */
#include "core/core.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- Mode names ---------------------------------------------------------- */

/* One framework's names for the pad modes, and what its pads may do. */
typedef struct preset_name {
    const char *name;
    clpad_pad_mode mode;
} preset_name;

typedef struct preset {
    const char *prefix;  /* before the ':' */
    const char *whose;   /* for messages */
    unsigned flags;      /* clpad_pad_options flags of that framework's meaning */
    preset_name names[8];
} preset;

/* A framework's name and the mode it means (CLPAD_PAD_<mode>). */
#define PN(name, mode) {name, CLPAD_PAD_##mode}

/* OpenCV's copyMakeBorder and numpy.pad mirror any pad (they repeat the
 * reflection); PyTorch, TensorFlow, ONNX Runtime and OpenVINO refuse pads
 * beyond D - 1 (reflect) / D (symmetric), Pad-12's limits. */
static const preset k_presets[] = {
    /* OpenCV's REFLECT is fedcba|abcdefgh|hgfedcb: the edge repeated */
    {"cv", "OpenCV (BORDER_*)", CLPAD_PAD_LARGE_NUMPY,
     {PN("CONSTANT", CONSTANT), PN("REPLICATE", EDGE), PN("REFLECT", SYMMETRIC),
      PN("REFLECT_101", REFLECT), PN("REFLECT101", REFLECT), PN("DEFAULT", REFLECT),
      PN("WRAP", WRAP)}},
    {"torch", "PyTorch (torch.nn.functional.pad)", 0,
     {PN("constant", CONSTANT), PN("replicate", EDGE), PN("reflect", REFLECT),
      PN("circular", WRAP)}},
    {"tf", "TensorFlow (tf.pad)", 0,
     {PN("CONSTANT", CONSTANT), PN("REFLECT", REFLECT), PN("SYMMETRIC", SYMMETRIC)}},
    {"onnx", "ONNX (Pad)", 0,
     {PN("constant", CONSTANT), PN("edge", EDGE), PN("reflect", REFLECT), PN("wrap", WRAP)}},
    {"ov", "OpenVINO (Pad-12)", 0,
     {PN("constant", CONSTANT), PN("edge", EDGE), PN("reflect", REFLECT),
      PN("symmetric", SYMMETRIC)}},
    {"np", "NumPy (numpy.pad)", CLPAD_PAD_LARGE_NUMPY,
     {PN("constant", CONSTANT), PN("edge", EDGE), PN("reflect", REFLECT),
      PN("symmetric", SYMMETRIC), PN("wrap", WRAP)}},
};
#undef PN

clpad_status clpad_pad_mode_parse(const char *name, clpad_pad_mode *mode, unsigned *flags)
{
    clpad__clear_error();
    if (!name || !mode)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "pad_mode name and result must not be NULL");
    const char *colon = strchr(name, ':');
    if (!colon) {
        clpad_status st = clpad_pad_mode_from_name(name, mode);
        if (st == CLPAD_OK && flags)
            *flags = 0;
        if (st == CLPAD_ERR_PARSE)
            clpad__fail(CLPAD_ERR_PARSE,
                        "unknown pad_mode '%s' (expected constant, edge, reflect, symmetric, "
                        "wrap, or a framework's name such as cv:REFLECT_101, torch:circular, "
                        "np:reflect)",
                        name);
        return st;
    }
    size_t plen = (size_t)(colon - name);
    const char *rest = colon + 1;
    for (size_t p = 0; p < sizeof k_presets / sizeof *k_presets; p++) {
        const preset *f = &k_presets[p];
        if (strlen(f->prefix) != plen || strncasecmp(name, f->prefix, plen))
            continue;
        char list[160] = "";
        for (int k = 0; k < 8 && f->names[k].name; k++) {
            if (!strcasecmp(rest, f->names[k].name)) {
                *mode = f->names[k].mode;
                if (flags)
                    *flags = f->flags;
                return CLPAD_OK;
            }
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "",
                     f->names[k].name);
        }
        return clpad__fail(CLPAD_ERR_PARSE, "pad_mode '%s': %s has no '%s'; %s has %s", name,
                           f->whose, rest, f->prefix, list);
    }
    return clpad__fail(CLPAD_ERR_PARSE,
                       "pad_mode '%s': unknown prefix '%.*s' (expected cv, torch, tf, onnx, ov "
                       "or np)",
                       name, (int)(plen < 32 ? plen : 32), name);
}

clpad_status clpad_pad_mode_parse_within_limits(const char *name, clpad_pad_mode *mode)
{
    clpad_pad_mode m;
    unsigned flags = 0;
    clpad_status st = clpad_pad_mode_parse(name, &m, &flags);
    if (st)
        return st;
    if ((flags & CLPAD_PAD_LARGE_NUMPY) && (m == CLPAD_PAD_REFLECT || m == CLPAD_PAD_SYMMETRIC)) {
        const char *colon = strchr(name, ':');
        size_t plen = (size_t)(colon - name);
        const char *whose = "its framework";
        for (size_t p = 0; p < sizeof k_presets / sizeof *k_presets; p++)
            if (strlen(k_presets[p].prefix) == plen &&
                !strncasecmp(name, k_presets[p].prefix, plen))
                whose = k_presets[p].whose;
        return clpad__fail(CLPAD_ERR_UNSUPPORTED,
                           "pad_mode '%s' is %s as %s means it, which mirrors again beyond "
                           "the limit %s; this operation mirrors once (Pad-12's limits): give "
                           "'%s', the same result within them",
                           name, clpad_pad_mode_name(m), whose,
                           m == CLPAD_PAD_REFLECT ? "shape - 1" : "shape",
                           clpad_pad_mode_name(m));
    }
    *mode = m;
    return CLPAD_OK;
}

clpad_status clpad_pad_large_pads_parse(const char *name, unsigned *flags)
{
    clpad__clear_error();
    if (!name || !flags)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "large pads: name and result must not be NULL");
    if (!strcasecmp(name, "numpy"))
        *flags = CLPAD_PAD_LARGE_NUMPY;
    else if (!strcasecmp(name, "error"))
        *flags = 0;
    else
        return clpad__fail(CLPAD_ERR_PARSE,
                           "large pads '%s': expected numpy (numpy.pad's repeated mirror) or "
                           "error (Pad-12's limits, the default)",
                           name);
    return CLPAD_OK;
}

/* ---- ONNX Pad-18's axes -------------------------------------------------- */

clpad_status clpad_pad_axes_expand(int rank, int naxes, const int64_t *axes,
                                   const int64_t *axes_pads_begin, const int64_t *axes_pads_end,
                                   int64_t *pads_begin, int64_t *pads_end)
{
    clpad__clear_error();
    if (rank < 0 || rank > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad axes: rank = %d must be in 0..%d",
                           rank, CLPAD_MAX_RANK);
    if (naxes < 0 || naxes > rank)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "pad axes: naxes = %d must be in 0..rank = %d (each axis at most "
                           "once)",
                           naxes, rank);
    if (naxes > 0 && (!axes || !axes_pads_begin || !axes_pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad axes: %s is NULL",
                           !axes ? "axes" : !axes_pads_begin ? "axes_pads_begin"
                                                             : "axes_pads_end");
    if (rank > 0 && (!pads_begin || !pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad axes: %s is NULL",
                           pads_begin ? "pads_end" : "pads_begin");
    int64_t pb[CLPAD_MAX_RANK] = {0}, pe[CLPAD_MAX_RANK] = {0};
    int from[CLPAD_MAX_RANK];
    for (int i = 0; i < rank; i++)
        from[i] = -1;
    for (int k = 0; k < naxes; k++) {
        int64_t a = axes[k];
        if (a < -rank || a >= rank)
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "axes", k,
                               "axes[%d] = %lld is out of range for rank %d (%d..%d)", k,
                               (long long)a, rank, -rank, rank - 1);
        int i = (int)(a < 0 ? a + rank : a);
        if (from[i] >= 0)
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "axes", k,
                               "axes[%d] = %lld repeats axis %d (axes[%d])", k, (long long)a, i,
                               from[i]);
        from[i] = k;
        pb[i] = axes_pads_begin[k];
        pe[i] = axes_pads_end[k];
    }
    if (rank > 0) {
        memcpy(pads_begin, pb, (size_t)rank * sizeof *pb);
        memcpy(pads_end, pe, (size_t)rank * sizeof *pe);
    }
    return CLPAD_OK;
}

/* ---- Pad to a multiple --------------------------------------------------- */

clpad_status clpad_pad_to_multiple(int rank, const int64_t *shape, const int64_t *multiples,
                                   clpad_placement placement, int64_t *pads_begin,
                                   int64_t *pads_end)
{
    clpad__clear_error();
    if (rank < 0 || rank > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "pad to multiple: rank = %d must be in 0..%d", rank, CLPAD_MAX_RANK);
    if ((unsigned)placement >= CLPAD_PLACEMENT_COUNT)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT,
                           "pad to multiple: placement = %d is not a clpad_placement",
                           (int)placement);
    if (rank > 0 && (!shape || !multiples || !pads_begin || !pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad to multiple: %s is NULL",
                           !shape ? "shape" : !multiples ? "multiples"
                                          : !pads_begin ? "pads_begin"
                                                        : "pads_end");
    int64_t pb[CLPAD_MAX_RANK], pe[CLPAD_MAX_RANK];
    for (int i = 0; i < rank; i++) {
        int64_t m = multiples[i], size, extra;
        if (m < 1)
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "multiples", i,
                                  "multiples[%d] = %lld must be >= 1", i, (long long)m);
        if (shape[i] < 0)
            return clpad__fail(CLPAD_ERR_INVALID_SHAPE, "shape[%d] = %lld is negative", i,
                               (long long)shape[i]);
        if (!clpad__add_i64(pads_begin[i], shape[i], &size) ||
            !clpad__add_i64(size, pads_end[i], &size))
            return clpad__fail(CLPAD_ERR_OVERFLOW,
                               "pads_begin[%d] + shape[%d] + pads_end[%d] overflows int64", i, i,
                               i);
        if (size < 0)
            size = 0;
        extra = (m - size % m) % m; /* size >= 0: the C remainder is the floor one */
        int64_t before = placement == CLPAD_PLACE_CENTER ? extra / 2 : 0;
        if (!clpad__add_i64(pads_begin[i], before, &pb[i]) ||
            !clpad__add_i64(pads_end[i], extra - before, &pe[i]) ||
            !clpad__add_i64(size, extra, &size))
            return clpad__fail(CLPAD_ERR_OVERFLOW,
                               "axis %d: padding to a multiple of %lld overflows int64", i,
                               (long long)m);
    }
    if (rank > 0) {
        memcpy(pads_begin, pb, (size_t)rank * sizeof *pb);
        memcpy(pads_end, pe, (size_t)rank * sizeof *pe);
    }
    return CLPAD_OK;
}

/* ---- The forms together -------------------------------------------------- */

void clpad_pad_form_init(clpad_pad_form *form)
{
    if (!clpad__sized_init(form, sizeof *form))
        return;
    form->naxes = -1;
    form->large_pads = CLPAD_CONFIG_DEFAULT;
    form->placement = CLPAD_PLACE_END;
}

clpad_status clpad_pad_form_resolve(int rank, const int64_t *shape, const clpad_pad_form *form,
                                    int64_t *pads_begin, int64_t *pads_end,
                                    clpad_pad_options *options)
{
    clpad__clear_error();
    if (!form || !options)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad form: %s is NULL",
                           form ? "options" : "form");
    size_t min = offsetof(clpad_pad_form, placement) + sizeof form->placement;
    if (form->size < min)
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "form", -1,
                              "pad form: size = %zu is smaller than the first version's %zu "
                              "bytes (fill it with clpad_pad_form_init)",
                              form->size, min);
    clpad_pad_form f;
    memset(&f, 0, sizeof f);
    memcpy(&f, form, form->size < sizeof f ? form->size : sizeof f);
    for (size_t k = sizeof f; k < form->size; k++)
        if (((const unsigned char *)form)[k])
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "form", -1,
                                  "pad form: a non-zero byte at offset %zu, past the fields "
                                  "this library version knows (%zu bytes)",
                                  k, sizeof f);
    for (int k = 0; k < 4; k++)
        if (f.reserved[k])
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "form", -1,
                                  "pad form: reserved[%d] must be 0", k);
    if (rank < 0 || rank > CLPAD_MAX_RANK)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad form: rank = %d must be in 0..%d",
                           rank, CLPAD_MAX_RANK);
    if (rank > 0 && (!shape || !pads_begin || !pads_end))
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "pad form: %s is NULL",
                           !shape ? "shape" : !pads_begin ? "pads_begin" : "pads_end");
    /* The named axes: f.axes, or every axis. */
    int64_t every[CLPAD_MAX_RANK];
    for (int i = 0; i < rank; i++)
        every[i] = i;
    int named = f.naxes < 0 ? rank : f.naxes;
    const int64_t *axes = f.naxes < 0 ? every : f.axes;
    if (named > rank || (named > 0 && !axes))
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "axes", -1,
                              "%d axes named for rank %d (each axis at most once)", named, rank);
    if (f.nmodes < 0 || (f.nmodes > 1 && f.nmodes != named) || (f.nmodes > 0 && !f.modes))
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "modes", -1,
                              "%d modes for %d padded axes: give one mode, or one per axis",
                              f.nmodes, named);
    if (f.nmultiples < 0 || (f.nmultiples > 1 && f.nmultiples != named) ||
        (f.nmultiples > 0 && !f.multiples))
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "multiples", -1,
                              "%d values for %d padded axes: give one, or one per axis",
                              f.nmultiples, named);
    for (int k = 0; k < f.nmultiples; k++)
        if (f.multiples[k] < 1)
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "multiples", k,
                                  "value %d is %lld; each must be >= 1 (1 leaves an axis alone)",
                                  k, (long long)f.multiples[k]);
    for (int k = 0; k < f.nmodes; k++)
        if ((unsigned)f.modes[k] >= CLPAD_PAD_MODE_COUNT)
            return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "modes", k,
                                  "modes[%d] = %d is not a clpad_pad_mode", k, (int)f.modes[k]);
    if (f.large_pads != CLPAD_CONFIG_DEFAULT && (f.large_pads & ~(int)CLPAD_PAD_LARGE_NUMPY))
        return clpad__fail_at(CLPAD_ERR_INVALID_ARGUMENT, "large_pads", -1,
                              "large_pads = %d is not a flags value of "
                              "clpad_pad_large_pads_parse",
                              f.large_pads);
    /* The pads of the named axes, in place on the tensor's axes. */
    int64_t zeros[CLPAD_MAX_RANK] = {0};
    int64_t pb[CLPAD_MAX_RANK], pe[CLPAD_MAX_RANK];
    clpad_status st = clpad_pad_axes_expand(rank, named, axes,
                                            f.pads_begin ? f.pads_begin : zeros,
                                            f.pads_end ? f.pads_end : zeros, pb, pe);
    if (st)
        return st;
    /* The modes: the first for every axis, or one per named axis; the
     * framework's flags, then the large-pads policy over them. */
    clpad_pad_options o;
    clpad_pad_options_init(&o, f.nmodes > 0 ? f.modes[0] : CLPAD_PAD_CONSTANT);
    int64_t mult[CLPAD_MAX_RANK];
    for (int i = 0; i < rank; i++)
        mult[i] = 1;
    for (int k = 0; k < named; k++) {
        int i = (int)(axes[k] < 0 ? axes[k] + rank : axes[k]); /* checked by the expand */
        if (f.nmodes > 1)
            o.modes[i] = f.modes[k];
        if (f.nmultiples > 0)
            mult[i] = f.multiples[f.nmultiples == 1 ? 0 : k];
    }
    o.flags = f.mode_flags;
    if (f.large_pads != CLPAD_CONFIG_DEFAULT)
        o.flags = (o.flags & ~(unsigned)CLPAD_PAD_LARGE_NUMPY) | (unsigned)f.large_pads;
    if (f.nmultiples > 0 &&
        (st = clpad_pad_to_multiple(rank, shape, mult, f.placement, pb, pe)))
        return st;
    if (rank > 0) {
        memcpy(pads_begin, pb, (size_t)rank * sizeof *pb);
        memcpy(pads_end, pe, (size_t)rank * sizeof *pe);
    }
    *options = o;
    return CLPAD_OK;
}
