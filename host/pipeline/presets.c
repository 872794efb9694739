/* Letterbox presets (include/clpad_stream.h): named sets of the existing
 * options, one table for the CLI and Python. */
#include "core/core.h"

#include "clpad_stream.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct lb_preset {
    const char *name, *description;
    void (*apply)(clpad_letterbox_options *o);
} lb_preset;

/* Ultralytics' predictor (LetterBox, then im[..., ::-1] to RGB, NCHW,
 * float32 and im / 255): files clpad reads are RGB already, so no swap;
 * x / 255 is a division, which std = 255 is (scale 1/255 would multiply by
 * the rounded reciprocal and differ in the last bit). */
static void ultralytics(clpad_letterbox_options *o)
{
    int64_t h = o->out_height, w = o->out_width;
    clpad_letterbox_options_init(o, h, w);
    for (int c = 0; c < CLPAD_LETTERBOX_MAX_CHANNELS; c++) {
        o->pad_value[c] = 114;
        o->mean[c] = 0.0f;
        o->std[c] = 255.0f;
    }
    o->scale = 1.0f;
    o->interp = CLPAD_INTERP_BILINEAR;
    o->placement = CLPAD_PLACE_CENTER;
    o->scaleup = 1;
    o->pad_mode = CLPAD_PAD_CONSTANT;
    o->swap_rb = 0;
    o->dtype = CLPAD_F32;
    o->layout = CLPAD_LAYOUT_NCHW;
}

static const lb_preset presets[] = {
    {"ultralytics",
     "what Ultralytics' predictor feeds a YOLO model: RGB, NCHW, f32, bilinear, centred, "
     "scale-up, border 114, x / 255 as a division (std 255)",
     ultralytics},
};

const char *clpad_letterbox_preset_name(size_t i, const char **description)
{
    if (i >= sizeof presets / sizeof *presets) {
        if (description)
            *description = NULL;
        return NULL;
    }
    if (description)
        *description = presets[i].description;
    return presets[i].name;
}

clpad_status clpad_letterbox_preset(const char *name, clpad_letterbox_options *opts)
{
    clpad__clear_error();
    if (!name || !opts)
        return clpad__fail(CLPAD_ERR_INVALID_ARGUMENT, "letterbox_preset: NULL argument");
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
        if (!strcasecmp(name, presets[i].name)) {
            presets[i].apply(opts);
            return CLPAD_OK;
        }
    char list[256] = "";
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++) {
        size_t u = strlen(list);
        snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "", presets[i].name);
    }
    return clpad__fail(CLPAD_ERR_PARSE, "unknown preset '%s' (presets: %s)", name, list);
}
