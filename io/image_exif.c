/*
 * The EXIF orientation, read with libexif from IFD0 only, as OpenCV's own
 * EXIF reader reads it (modules/imgcodecs/src/exif.cpp): the first two bytes
 * of the Orientation entry's value in the file's byte order, whatever the
 * entry's declared type; a value outside 1..8 means 1 (no change).
 */
#include "image_internal.h"

#include <stdlib.h>
#include <string.h>

#include <libexif/exif-data.h>

int clpad__exif_orientation(const unsigned char *tiff, size_t len)
{
    /* libexif takes EXIF data as a JPEG's APP1 segment holds it, after the
     * "Exif\0\0" header. */
    static const unsigned char header[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (len < 8 || len > 0xffffffu)
        return 1;
    unsigned char *buf = malloc(len + 6);
    ExifData *ed = buf ? exif_data_new() : NULL;
    int orientation = 1;
    if (ed) {
        memcpy(buf, header, 6);
        memcpy(buf + 6, tiff, len);
        /* Read as stored: no "fixing" of the data to the specification, which
         * adds missing mandatory entries. */
        exif_data_unset_option(ed, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
        exif_data_load_data(ed, buf, (unsigned int)(len + 6));
        ExifEntry *e = exif_content_get_entry(ed->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
        if (e && e->data && e->size >= 2) {
            int v = exif_get_short(e->data, exif_data_get_byte_order(ed));
            if (v >= 1 && v <= 8)
                orientation = v;
        }
    }
    if (ed)
        exif_data_unref(ed);
    free(buf);
    return orientation;
}
