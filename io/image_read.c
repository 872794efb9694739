/*
 * Images in: through the library's image reading (include/clpad_image.h),
 * with the channels and the sample depth as stored (CLPAD_CHANNELS_KEEP,
 * keep_depth) and the EXIF orientation applied. The reading (bounded by the
 * header), the decoders and the limits are the library's.
 */
#include "io_internal.h"

#include "clpad_image.h"

#include <stdlib.h>
#include <string.h>

static clpad_read_options keep_options(uint64_t max_pixels)
{
    clpad_read_options o;
    clpad_read_options_init(&o);
    o.channels = CLPAD_CHANNELS_KEEP;
    o.keep_depth = 1;
    o.max_pixels = max_pixels;
    return o;
}

/* The decoded image as an HxWxC tensor (its pixels handed over), or err set
 * from the library's message. */
static int to_tensor(clpad_status st, clpad_decoded_image *img, tio_tensor *t, char *err,
                     size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (st)
        return tio__fail(err, errlen, "%s", clpad_last_error());
    t->dtype = img->dtype;
    t->rank = 3;
    t->shape[0] = img->height;
    t->shape[1] = img->width;
    t->shape[2] = img->channels;
    t->is_image = true;
    t->nbytes = (size_t)(img->height * img->width * img->channels) * clpad_dtype_size(img->dtype);
    t->data = img->data;
    return 0;
}

int tio__load_image_fd(int fd, const char *name, uint64_t max_pixels, tio_tensor *t, char *err,
                       size_t errlen)
{
    clpad_read_options o = keep_options(max_pixels);
    clpad_decoded_image img = {.size = sizeof img};
    return to_tensor(clpad_image_read_fd(fd, name, &o, &img), &img, t, err, errlen);
}

int tio_load_image_mem(const void *data, size_t len, const char *name, uint64_t max_pixels,
                       tio_tensor *t, char *err, size_t errlen)
{
    if (tio__mem_args(data, len, &name, t, err, errlen))
        return 1;
    clpad_read_options o = keep_options(max_pixels);
    clpad_decoded_image img = {.size = sizeof img};
    return to_tensor(clpad_image_decode(data, len, name, &o, &img), &img, t, err, errlen);
}
