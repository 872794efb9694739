/* libjpeg's error manager the way both of clpad's JPEG paths use it: the
 * library's decoder (image_jpeg.c) and the CLI's encoder (image_write.c).
 * A fatal error formats its message and jumps back to the caller's setjmp;
 * nothing calls exit(). Include after <jpeglib.h>. */
#ifndef CLPAD_IO_JPEG_ERROR_H
#define CLPAD_IO_JPEG_ERROR_H

#include <setjmp.h>

struct jpeg_failure {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

/* error_exit: keep the message, jump to jpeg_failure.jump. */
static inline void jpeg_fail_exit(j_common_ptr c)
{
    struct jpeg_failure *f = (struct jpeg_failure *)c->err;
    f->mgr.format_message(c, f->message);
    longjmp(f->jump, 1);
}

#endif /* CLPAD_IO_JPEG_ERROR_H */
