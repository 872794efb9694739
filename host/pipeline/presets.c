/* Letterbox and preprocess presets (include/clpad_stream.h): named sets of
 * the existing options, one table for the CLI and Python. */
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

/* torchvision's ImageNet evaluation transforms on PIL images: Resize(256)
 * (Image.resize with BILINEAR: pil-bilinear), CenterCrop(H, W) (the
 * slot; a slot larger than the resized image is padded with 0 as
 * CenterCrop pads), ToTensor (v / 255 in float32: divisor 255), Normalize
 * with the ImageNet mean and std (float32, subtracted, then divided). */
static void imagenet(clpad_letterbox_options *o)
{
    int64_t h = o->out_height, w = o->out_width;
    clpad_letterbox_options_init(o, h, w);
    static const float mean[3] = {0.485f, 0.456f, 0.406f}, std_[3] = {0.229f, 0.224f, 0.225f};
    for (int c = 0; c < CLPAD_LETTERBOX_MAX_CHANNELS; c++) {
        o->pad_value[c] = 0;
        o->mean[c] = mean[c < 3 ? c : 0];
        o->std[c] = std_[c < 3 ? c : 0];
    }
    o->fit = CLPAD_FIT_COVER;
    o->resize_shorter = 256;
    o->interp = CLPAD_INTERP_PIL_BILINEAR;
    o->scale = 1.0f;
    o->divisor = 255.0f;
    o->placement = CLPAD_PLACE_CENTER;
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
    {"imagenet",
     "torchvision's ImageNet evaluation recipe on PIL images: Resize(256) with Pillow's "
     "bilinear (pil-bilinear), CenterCrop to the size, ToTensor (x / 255), Normalize "
     "(ImageNet mean and std); RGB, NCHW, f32",
     imagenet},
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
    clpad_status st;
    if ((st = clpad__sized_check(opts->size, sizeof *opts, "letterbox_preset", "opts->size",
                                 "opts", -1, "fill it with clpad_letterbox_options_init()")))
        return st;
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
        if (!strcasecmp(name, presets[i].name)) {
            /* (a newer caller's larger options: this version's fields set,
             * its size and the fields past ours kept) */
            clpad_letterbox_options o = *opts;
            presets[i].apply(&o);
            clpad__sized_put(opts, opts->size, &o, sizeof o);
            return CLPAD_OK;
        }
    char list[256] = "";
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++) {
        size_t u = strlen(list);
        snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "", presets[i].name);
    }
    return clpad__fail(CLPAD_ERR_PARSE, "unknown preset '%s' (presets: %s)", name, list);
}
