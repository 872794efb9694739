/* `clpad letterbox` and `clpad pad-stack`: the batch files against the
 * library's CPU reference on the same pixels, the transforms JSON against
 * the plan, the contact sheet's geometry, device = --cpu, and errors that
 * name the file, exit with the right code and write nothing. Runs the built
 * binary ($CLPAD_CLI). */
#include "test_util.h"
#include "cli_harness.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Four images of four sizes (PNG, PPM and a u8 .npy) -> the library. */
static void test_letterbox(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xC11;
    static const int64_t sizes[4][2] = {{37, 61}, {80, 20}, {48, 64}, {5, 9}};
    static const char *names[4] = {"a.png", "b.ppm", "c.npy", "d.png"};
    tio_tensor img[4];
    clpad_image im[4];
    for (int i = 0; i < 4; i++) {
        int64_t shape[3] = {sizes[i][0], sizes[i][1], 3};
        size_t bytes = (size_t)(shape[0] * shape[1] * 3);
        unsigned char *px = malloc(bytes);
        tu_fill(px, bytes, &rng);
        ch_save(names[i], CLPAD_U8, 3, shape, px);
        free(px);
        ch_load(names[i], &img[i]); /* the pixels as the CLI reads them */
        im[i] = (clpad_image){.data = img[i].data, .height = sizes[i][0], .width = sizes[i][1],
                              .channels = 3};
    }
    assert_int_equal(ch_run(NULL, "letterbox -q --size 64,48 --scale 1/255 --mean 0.485,0.456,0.406 "
                         "--std 0.229,0.224,0.225 --bgr --value 1,2,3 --transforms t.json "
                         "--preview sheet.png a.png b.ppm c.npy d.png out.npy"),
                     0);
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 64, 48);
    o.scale = (float)(1.0 / 255.0);
    float mean[3] = {0.485f, 0.456f, 0.406f}, sd[3] = {0.229f, 0.224f, 0.225f};
    for (int c = 0; c < 3; c++) {
        o.mean[c] = mean[c];
        o.std[c] = sd[c];
        o.pad_value[c] = (uint8_t)(c + 1);
    }
    o.swap_rb = 1;
    size_t bytes = 4 * 3 * 64 * 48 * 4;
    float *want = malloc(bytes);
    clpad_letterbox_transform t[4];
    clpad_letterbox_transform_init(&t[0]);
    TU_ASSERT_OK(clpad_letterbox_cpu(im, 4, &o, want, bytes, t));
    tio_tensor out = {0};
    ch_load("out.npy", &out);
    assert_int_equal(out.dtype, CLPAD_F32);
    assert_int_equal(out.rank, 4);
    assert_int_equal(out.shape[0], 4);
    assert_int_equal(out.shape[1], 3);
    assert_int_equal(out.nbytes, bytes);
    assert_memory_equal(out.data, want, bytes);
    tio_free(&out);
    /* the transforms */
    char path[512], text[8192];
    snprintf(path, sizeof path, "%s/t.json", ch_dir);
    ch_slurp(path, text, sizeof text);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    cJSON *arr = cJSON_GetObjectItem(root, "images");
    assert_int_equal(cJSON_GetArraySize(arr), 4);
    for (int i = 0; i < 4; i++) {
        cJSON *e = cJSON_GetArrayItem(arr, i);
        assert_string_equal(cJSON_GetObjectItem(e, "file")->valuestring, names[i]);
        assert_true(cJSON_GetObjectItem(e, "scale")->valuedouble == t[i].scale);
        assert_int_equal(cJSON_GetObjectItem(e, "pad_top")->valueint, t[i].pad_top);
        assert_int_equal(cJSON_GetObjectItem(e, "pad_left")->valueint, t[i].pad_left);
        assert_int_equal(cJSON_GetObjectItem(e, "resized_h")->valueint, t[i].resized_height);
        assert_int_equal(cJSON_GetObjectItem(e, "resized_w")->valueint, t[i].resized_width);
    }
    cJSON_Delete(root);
    /* the sheet: 2 x 2 slots of 64 x 48 with 4-pixel gaps; slot 0 is the
     * first image letterboxed as u8 with the border value */
    tio_tensor sheet = {0};
    ch_load("sheet.png", &sheet);
    assert_int_equal(sheet.shape[0], 2 * (64 + 4) + 4);
    assert_int_equal(sheet.shape[1], 2 * (48 + 4) + 4);
    clpad_letterbox_options u;
    clpad_letterbox_options_init(&u, 64, 48);
    u.dtype = CLPAD_U8;
    u.layout = CLPAD_LAYOUT_NHWC;
    for (int c = 0; c < 3; c++)
        u.pad_value[c] = (uint8_t)(c + 1);
    unsigned char slot[64 * 48 * 3];
    TU_ASSERT_OK(clpad_letterbox_cpu(im, 1, &u, slot, sizeof slot, NULL));
    const unsigned char *s = sheet.data;
    for (int y = 0; y < 64; y++)
        assert_memory_equal(s + ((size_t)(4 + y) * (size_t)sheet.shape[1] + 4) * 3,
                            slot + (size_t)y * 48 * 3, 48 * 3);
    tio_free(&sheet);
    /* the CPU path writes the same bytes */
    assert_int_equal(ch_run(NULL, "letterbox -q --cpu --size 64,48 --scale 1/255 --mean "
                         "0.485,0.456,0.406 --std 0.229,0.224,0.225 --bgr --value 1,2,3 a.png "
                         "b.ppm c.npy d.png cpu.npy"),
                     0);
    ch_load("cpu.npy", &out);
    assert_memory_equal(out.data, want, bytes);
    tio_free(&out);
    /* --verify, f16 NHWC nearest */
    assert_int_equal(ch_run(NULL, "letterbox -q --verify --size 30,30 --dtype f16 --layout nhwc --interp "
                         "nearest --mode edge a.png b.ppm h.npy"),
                     0);
    free(want);
    for (int i = 0; i < 4; i++)
        tio_free(&img[i]);
}

/* A PNG written with libpng (tio_save writes no 16-bit PNG). */
static void write_png(const char *name, int w, int h, int depth, int colour, const void *rows)
{
    FILE *f = fopen(ch_path(name), "wb");
    assert_non_null(f);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png)))
        fail_msg("libpng could not write %s", name);
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, colour, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    int c = colour == PNG_COLOR_TYPE_GRAY ? 1 : colour == PNG_COLOR_TYPE_RGB ? 3 : 4;
    for (int y = 0; y < h; y++)
        png_write_row(png, (png_const_bytep)rows + (size_t)y * (size_t)(w * c * depth / 8));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    fclose(f);
}

/* A folder mixing grey, RGB, RGBA and 16-bit PNGs: read as cv2.imread reads
 * them (3 channels: grey replicated, alpha dropped, 16 bits reduced to the
 * high byte), so the batch just works (it was refused: "a batch has one
 * channel count"); --channels 4 gives RGBA. */
static void test_letterbox_mixed(void **state)
{
    (void)state;
    enum { W = 11, H = 7 };
    uint64_t rng = tu_seed() ^ 0xB47;
    unsigned char grey[H * W], rgb[H * W * 3], rgba[H * W * 4], rgb16[H * W * 6];
    tu_fill(grey, sizeof grey, &rng);
    tu_fill(rgb, sizeof rgb, &rng);
    tu_fill(rgba, sizeof rgba, &rng);
    tu_fill(rgb16, sizeof rgb16, &rng);
    write_png("m_grey.png", W, H, 8, PNG_COLOR_TYPE_GRAY, grey);
    write_png("m_rgb.png", W, H, 8, PNG_COLOR_TYPE_RGB, rgb);
    write_png("m_rgba.png", W, H, 8, PNG_COLOR_TYPE_RGBA, rgba);
    write_png("m_rgb16.png", W, H, 16, PNG_COLOR_TYPE_RGB, rgb16);
    /* the images as cv2.imread's rules make them, by hand */
    static unsigned char want_px[4][H * W * 4];
    for (int i = 0; i < H * W; i++)
        for (int c = 0; c < 4; c++) {
            want_px[0][4 * i + c] = c < 3 ? grey[i] : 255;
            want_px[1][4 * i + c] = c < 3 ? rgb[3 * i + c] : 255;
            want_px[2][4 * i + c] = rgba[4 * i + c];
            want_px[3][4 * i + c] = c < 3 ? rgb16[6 * i + 2 * c] : 255; /* big-endian: high byte */
        }
    for (int channels = 3; channels <= 4; channels++) {
        static unsigned char dense[4][H * W * 4];
        clpad_image im[4];
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < H * W; i++)
                memcpy(dense[k] + (size_t)i * (size_t)channels, want_px[k] + 4 * i,
                       (size_t)channels);
            im[k] = (clpad_image){.data = dense[k], .height = H, .width = W, .channels = channels};
        }
        clpad_letterbox_options o;
        clpad_letterbox_options_init(&o, 16, 16);
        o.dtype = CLPAD_U8;
        o.layout = CLPAD_LAYOUT_NHWC;
        size_t bytes = (size_t)4 * 16 * 16 * (size_t)channels;
        unsigned char *want = malloc(bytes);
        TU_ASSERT_OK(clpad_letterbox_cpu(im, 4, &o, want, bytes, NULL));
        int rc = ch_run(NULL, "letterbox -q --cpu --size 16,16 --dtype u8 --layout nhwc%s "
                              "m_grey.png m_rgb.png m_rgba.png m_rgb16.png mixed.npy",
                        channels == 4 ? " --channels 4" : "");
        if (rc != 0) {
            free(want);
            fail_msg("letterbox of the mixed folder: exit %d: %s", rc, ch_err);
        }
        tio_tensor out = {0};
        ch_load("mixed.npy", &out);
        assert_int_equal(out.shape[3], channels);
        assert_int_equal(out.nbytes, bytes);
        assert_memory_equal(out.data, want, bytes);
        tio_free(&out);
        free(want);
    }
}

static void test_letterbox_errors(void **state)
{
    (void)state;
    float f[6] = {0};
    int64_t fs[2] = {2, 3};
    ch_save("f.npy", CLPAD_F32, 2, fs, f);
    unsigned char g[12] = {0};
    int64_t gs[2] = {3, 4};
    ch_save("gray.png", CLPAD_U8, 2, gs, g);
    unsigned char r[36] = {0};
    int64_t rs[3] = {3, 4, 3}, thin[3] = {1, 12, 3};
    ch_save("rgb.png", CLPAD_U8, 3, rs, r);
    ch_save("thin.png", CLPAD_U8, 3, thin, r);
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 rgb.png f.npy e1.npy"), 1, "f.npy");
    assert_false(ch_exists("e1.npy"));
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --channels keep rgb.png gray.png e2.npy"),
                    1, "gray.png");
    assert_false(ch_exists("e2.npy"));
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --channels 2 rgb.png e2.npy"), 2,
                    "--channels");
    ch_expect_error(ch_run(NULL, "preprocess --size 8,8 --pil-version 11 rgb.png e2.npy"), 2,
                    "--pil-version: '11': 12 or 13");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --max-pixels 0 rgb.png e2.npy"), 2,
                    "--max-pixels");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --max-pixels 11 rgb.png e2.npy"), 1,
                    "rgb.png: the image is 4 x 3 = 12 pixels, more than the limit of 11");
    assert_false(ch_exists("e2.npy"));
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --mode reflect rgb.png thin.png e3.npy"), 1,
                 "thin.png");
    assert_false(ch_exists("e3.npy"));
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --value 300 rgb.png e4.npy"), 2, "--value");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --mode edge --value 3 rgb.png e4.npy"), 2, "--value");
    ch_expect_error(ch_run(NULL, "letterbox --size 8 rgb.png e4.npy"), 2, "--size");
    ch_expect_error(ch_run(NULL, "letterbox rgb.png e4.npy"), 2, "--size");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 rgb.png e4.png"), 2, ".npy");
    /* values and combinations the library refuses: usage errors too, found
     * before any file is read (missing.png is never opened) */
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --std 1,0,1 rgb.png e4.npy"), 2, "std[1]");
    ch_expect_error(ch_run(NULL, "letterbox --size 3000000000,1 missing.png e4.npy"), 2,
                    "below 2^31");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --fit contain --resize-shorter 9 "
                                 "missing.png e4.npy"), 2, "resize_shorter");
    /* another fit over a preset leaves its Resize(S) out (docs/letterbox.md, 5.4) */
    if (ch_run(NULL, "letterbox -q --size 8,8 --preset imagenet --fit contain rgb.png e5.npy"))
        fail_msg("--preset imagenet --fit contain: %s", ch_err);
    unlink(ch_path("e5.npy"));
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --mean 1,2 rgb.png e4.npy"), 2, "per channel");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --dtype i32 rgb.png e4.npy"), 2, "--dtype");
    /* the mode names of `clpad pad`, where they mean what letterbox does;
     * numpy's and OpenCV's repeated mirrors are refused with the mode it has */
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --mode np:reflect rgb.png e4.npy"), 2,
                 "give 'reflect'");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --mode cv:REFLECT rgb.png e4.npy"), 2,
                 "give 'symmetric'");
    assert_false(ch_exists("e4.npy"));
    assert_int_equal(ch_run(NULL, "letterbox -q --size 8,8 --mode cv:REPLICATE rgb.png e5.npy"), 0);
    assert_int_equal(ch_run(NULL, "letterbox -q --size 8,8 --mode edge rgb.png e6.npy"), 0);
    tio_tensor a = {0}, b = {0};
    ch_load("e5.npy", &a);
    ch_load("e6.npy", &b);
    assert_int_equal(a.nbytes, b.nbytes);
    assert_memory_equal(a.data, b.data, a.nbytes);
    tio_free(&a);
    tio_free(&b);
}


/* Hidden files (temporaries: ".NAME.XXXXXX") left in the scratch directory. */
static int hidden_files(void);

/* `clpad letterbox -q --size 128,128 room.png room.png room.npy` (extra
 * options `opts` first) under a file size limit of 16384 bytes, a full
 * disk's stand-in (the output: 2 x 128 x 128 x 3 float32), with SIGXFSZ's
 * action `action` meanwhile (the CLI's children inherit it): the exit
 * status. */
static int run_no_room(void (*action)(int), const char *opts)
{
    unsigned char r[36] = {0};
    int64_t rs[3] = {3, 4, 3};
    ch_save("room.png", CLPAD_U8, 3, rs, r);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "letterbox -q %s --size 128,128 room.png room.png room.npy", opts);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 16384;
    void (*was)(int) = signal(SIGXFSZ, action);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = ch_run(NULL, cmd);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    return rc;
}

/* An output the file system has no room for is refused before anything is
 * written, naming the output, and leaves nothing: the room of every batch
 * is taken at once, before the first write (SIGXFSZ ignored). */
static void test_letterbox_no_room(void **state)
{
    (void)state;
    ch_expect_error(run_no_room(SIG_IGN, ""), 1, "room.npy: cannot allocate 393216 bytes");
    assert_false(ch_exists("room.npy"));
    assert_int_equal(hidden_files(), 0);
}

/* The same with SIGXFSZ at its default action, as a shell starts clpad
 * under `ulimit -f`: the file size limit is an error naming the output
 * (clpad ignores SIGXFSZ, so the write fails with EFBIG), not a death by
 * the signal that would leave the temporary behind; the previous output
 * stays. */
static void test_letterbox_no_room_default_sigxfsz(void **state)
{
    (void)state;
    FILE *f = fopen(ch_path("room.npy"), "wb");
    assert_non_null(f);
    fputs("previous", f);
    fclose(f);
    ch_expect_error(run_no_room(SIG_DFL, "--cpu"), 1, "room.npy: cannot allocate 393216 bytes");
    char got[16];
    ch_slurp(ch_path("room.npy"), got, sizeof got);
    assert_string_equal(got, "previous");
    assert_int_equal(hidden_files(), 0);
    unlink(ch_path("room.npy"));
    unlink(ch_path("room.png"));
}

/* --batch larger than the number of files: one file of them all, with the
 * memory of those files, not of B images (the largest --batch, 2^24, with
 * two files ran under a 1 GiB address space limit; a sanitizer's shadow
 * memory does not fit there). */
static void test_letterbox_batch_beyond_files(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    skip();
#else
    unsigned char r[36] = {0};
    int64_t rs[3] = {3, 4, 3};
    ch_save("few.png", CLPAD_U8, 3, rs, r);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)1 << 30;
    assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
    int rc = ch_run(NULL, "letterbox -q --cpu --size 8,8 --batch 16777216 few.png few.png few.npy");
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    if (rc != 0)
        fail_msg("exit %d: %s", rc, ch_err);
    tio_tensor t;
    ch_load("few-00000.npy", &t);
    assert_int_equal(t.shape[0], 2);
    tio_free(&t);
    assert_false(ch_exists("few-00001.npy"));
    unlink(ch_path("few-00000.npy"));
    unlink(ch_path("few.png"));
#endif
}

/* Hidden files (temporaries: ".NAME.XXXXXX") left in the scratch directory. */
static int hidden_files(void)
{
    DIR *d = opendir(ch_dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* A PNG whose header declares w x h RGB pixels and that ends there. */
static void write_png_header_only(const char *name, uint32_t w, uint32_t h)
{
    unsigned char b[8 + 25] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
                               'I', 'H', 'D', 'R'};
    for (int k = 0; k < 4; k++) {
        b[16 + k] = (unsigned char)(w >> (24 - 8 * k));
        b[20 + k] = (unsigned char)(h >> (24 - 8 * k));
    }
    b[24] = 8; /* depth */
    b[25] = 2; /* RGB */
    uint32_t crc = tu_png_crc(b + 12, 17);
    for (int k = 0; k < 4; k++)
        b[29 + k] = (unsigned char)(crc >> (24 - 8 * k));
    FILE *f = fopen(ch_path(name), "wb");
    assert_non_null(f);
    fwrite(b, 1, sizeof b, f);
    fclose(f);
}

/* Folders, patterns, @lists, --batch files, --on-error, presets: the
 * streamed batch equals clpad_letterbox_cpu of the files in path order. */
static void test_letterbox_folders(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xF01D;
    assert_int_equal(mkdir(ch_path("photos"), 0755), 0);
    assert_int_equal(mkdir(ch_path("photos/deep"), 0755), 0);
    /* sorted by path: photos/a0.png, photos/a1.png, photos/deep/..., photos/z.png */
    static const char *names[] = {"photos/a0.png", "photos/a1.png", "photos/deep/b0.png",
                                  "photos/deep/b1.ppm", "photos/deep/b2.png", "photos/y.png",
                                  "photos/z.png"};
    enum { N = 7 };
    tio_tensor img[N];
    clpad_image im[N];
    for (int i = 0; i < N; i++) {
        int64_t shape[3] = {tu_range(&rng, 3, 40), tu_range(&rng, 3, 40), 3};
        size_t bytes = (size_t)(shape[0] * shape[1] * 3);
        unsigned char *px = malloc(bytes);
        tu_fill(px, bytes, &rng);
        ch_save(names[i], CLPAD_U8, 3, shape, px);
        free(px);
        ch_load(names[i], &img[i]);
        im[i] = (clpad_image){.data = img[i].data, .height = shape[0], .width = shape[1],
                              .channels = 3};
    }
    FILE *f = fopen(ch_path("photos/notes.txt"), "w");
    fputs("not an image\n", f);
    fclose(f);
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 24, 32);
    for (int c = 0; c < 3; c++)
        o.std[c] = 255.0f;
    size_t slot = 3 * 24 * 32 * 4, bytes = N * slot;
    unsigned char *want = malloc(bytes);
    TU_ASSERT_OK(clpad_letterbox_cpu(im, N, &o, want, bytes, NULL));
    tio_tensor out = {0};
    /* a folder, on the device and the CPU path, with the preset */
    assert_int_equal(ch_run(NULL, "letterbox -q --size 24,32 --preset ultralytics photos all.npy"), 0);
    ch_load("all.npy", &out);
    assert_int_equal(out.shape[0], N);
    assert_memory_equal(out.data, want, bytes);
    tio_free(&out);
    assert_int_equal(ch_run(NULL, "letterbox -q --cpu --workers 3 --size 24,32 --std 255 "
                                  "--transforms t.json photos/ cpu.npy"), 0);
    ch_load("cpu.npy", &out);
    assert_memory_equal(out.data, want, bytes);
    tio_free(&out);
    char text[16384], path[512];
    snprintf(path, sizeof path, "%s/t.json", ch_dir);
    ch_slurp(path, text, sizeof text);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    cJSON *arr = cJSON_GetObjectItem(root, "images");
    assert_int_equal(cJSON_GetArraySize(arr), N);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 2), "file")->valuestring,
                        "photos/deep/b0.png");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 2), "height")->valueint,
                     im[2].height);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "skipped")), 0);
    cJSON_Delete(root);
    /* a pattern (quoted: clpad expands it) and an @list, relative to its directory */
    assert_int_equal(ch_run(NULL, "letterbox -q --size 24,32 --std 255 'photos/*.png' g.npy"), 0);
    ch_load("g.npy", &out);
    assert_int_equal(out.shape[0], 4); /* a0 a1 y z */
    assert_memory_equal(out.data, want, 2 * slot);
    assert_memory_equal((unsigned char *)out.data + 2 * slot, want + 5 * slot, 2 * slot);
    tio_free(&out);
    f = fopen(ch_path("photos/list.txt"), "w");
    fputs("# two\nz.png\ndeep/b1.ppm\n", f);
    fclose(f);
    assert_int_equal(ch_run(NULL, "letterbox -q --size 24,32 --std 255 @photos/list.txt l.npy"), 0);
    ch_load("l.npy", &out);
    assert_int_equal(out.shape[0], 2);
    assert_memory_equal(out.data, want + 6 * slot, slot);
    assert_memory_equal((unsigned char *)out.data + slot, want + 3 * slot, slot);
    tio_free(&out);
    /* --batch: one file per batch, 3 + 3 + 1 */
    assert_int_equal(ch_run(NULL, "letterbox -q --batch 3 --size 24,32 --std 255 photos b.npy"), 0);
    static const char *parts[] = {"b-00000.npy", "b-00001.npy", "b-00002.npy"};
    for (int k = 0; k < 3; k++) {
        ch_load(parts[k], &out);
        assert_int_equal(out.shape[0], k < 2 ? 3 : 1);
        assert_memory_equal(out.data, want + (size_t)k * 3 * slot, out.nbytes);
        tio_free(&out);
    }
    assert_false(ch_exists("b.npy"));
    assert_false(ch_exists("b-00003.npy"));
    /* no progress line where stderr is not a terminal */
    assert_int_equal(ch_run(NULL, "letterbox --cpu --size 24,32 photos np.npy"), 0);
    assert_null(strchr(ch_err, '\r'));
    assert_non_null(strstr(ch_err, "images/s"));     /* the report line */
    assert_null(strstr(ch_err, "left"));              /* no progress */
    /* --help lists the presets */
    assert_int_equal(ch_run(NULL, "letterbox --help"), 0);
    assert_non_null(strstr(ch_out, "ultralytics: "));
    /* usage errors */
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --preset yolo photos e.npy"), 2,
                    "presets: ultralytics");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --on-error ignore photos e.npy"), 2,
                    "--on-error");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --decode-scale half photos e.npy"), 2,
                    "--decode-scale");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --workers -1 photos e.npy"), 2,
                    "--workers");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 --batch 0 photos e.npy"), 2, "--batch");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 'photos/*.gif' e.npy"), 1,
                    "no file matches");
    ch_expect_error(ch_run(NULL, "letterbox --size 8,8 @missing.txt e.npy"), 1, "missing.txt");
    assert_false(ch_exists("e.npy"));
    free(want);
    for (int i = 0; i < N; i++)
        tio_free(&img[i]);
}

/* A folder with a truncated, a corrupt and a huge-declared image: the first
 * fails the run naming it and nothing is left; --on-error skip leaves them
 * out and lists them. */
static void test_letterbox_hostile_folder(void **state)
{
    (void)state;
    uint64_t rng = tu_seed() ^ 0xBAD5;
    assert_int_equal(mkdir(ch_path("mixed"), 0755), 0);
    static const char *good[] = {"mixed/1.png", "mixed/3.png", "mixed/6.png"};
    tio_tensor img[3];
    clpad_image im[3];
    for (int i = 0; i < 3; i++) {
        int64_t shape[3] = {tu_range(&rng, 3, 30), tu_range(&rng, 3, 30), 3};
        unsigned char px[30 * 30 * 3];
        tu_fill(px, sizeof px, &rng);
        ch_save(good[i], CLPAD_U8, 3, shape, px);
        ch_load(good[i], &img[i]);
        im[i] = (clpad_image){.data = img[i].data, .height = shape[0], .width = shape[1],
                              .channels = 3};
    }
    int64_t shape[3] = {20, 20, 3};
    unsigned char px[20 * 20 * 3];
    tu_fill(px, sizeof px, &rng);
    ch_save("mixed/2.png", CLPAD_U8, 3, shape, px);
    assert_int_equal(truncate(ch_path("mixed/2.png"), 60), 0);       /* truncated */
    FILE *f = fopen(ch_path("mixed/4.jpg"), "wb");                      /* corrupt */
    fputs("\xff\xd8\xff\xe0 this is not a JPEG", f);
    fclose(f);
    write_png_header_only("mixed/5.png", 100000, 100000);               /* 10^10 pixels */
    /* an output from before: it stays as it was */
    ch_save("keep.npy", CLPAD_U8, 3, shape, px);
    assert_int_equal(rename(ch_path("keep.npy"), ch_path("out.npy")), 0);
    ch_expect_error(ch_run(NULL, "letterbox --size 16,16 --transforms h.json mixed out.npy"), 1,
                    "mixed/2.png");
    ch_expect_error(ch_run(NULL, "letterbox --size 16,16 mixed/1.png mixed/4.jpg out.npy"), 1,
                    "mixed/4.jpg");
    ch_expect_error(ch_run(NULL, "letterbox --size 16,16 mixed/5.png mixed/1.png out.npy"), 1,
                    "mixed/5.png: the image is 100000 x 100000");
    tio_tensor before = {0};
    ch_load("out.npy", &before);
    assert_int_equal(before.rank, 3); /* untouched */
    tio_free(&before);
    assert_false(ch_exists("h.json"));
    assert_int_equal(hidden_files(), 0);
    /* skip: the three good images, the three others listed with their reasons */
    assert_int_equal(ch_run(NULL, "letterbox --cpu --size 16,16 --on-error skip --transforms "
                                  "h.json mixed out.npy"),
                     0);
    assert_non_null(strstr(ch_err, "skipped mixed/2.png"));
    assert_non_null(strstr(ch_err, "skipped mixed/4.jpg"));
    assert_non_null(strstr(ch_err, "skipped mixed/5.png"));
    clpad_letterbox_options o;
    clpad_letterbox_options_init(&o, 16, 16);
    size_t bytes = 3 * 3 * 16 * 16 * 4;
    unsigned char *want = malloc(bytes);
    TU_ASSERT_OK(clpad_letterbox_cpu(im, 3, &o, want, bytes, NULL));
    tio_tensor out = {0};
    ch_load("out.npy", &out);
    assert_int_equal(out.rank, 4);
    assert_int_equal(out.shape[0], 3);
    assert_memory_equal(out.data, want, bytes);
    tio_free(&out);
    /* the same on the device when there is one (a failed file leaves a gap in
     * the batch's decoded block: that batch is gathered, still exact) */
    assert_int_equal(ch_run(NULL, "letterbox -q --size 16,16 --on-error skip mixed out2.npy"), 0);
    ch_load("out2.npy", &out);
    assert_int_equal(out.shape[0], 3);
    assert_memory_equal(out.data, want, bytes);
    tio_free(&out);
    char text[8192], path[512];
    snprintf(path, sizeof path, "%s/h.json", ch_dir);
    ch_slurp(path, text, sizeof text);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    cJSON *sk = cJSON_GetObjectItem(root, "skipped");
    assert_int_equal(cJSON_GetArraySize(sk), 3);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, 1), "file")->valuestring,
                        "mixed/4.jpg");
    assert_non_null(strstr(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, 2), "error")->valuestring,
                           "100000 x 100000"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "images")), 3);
    cJSON_Delete(root);
    /* a file named that does not exist: an error before anything is read;
     * with skip, skipped in its place like a file that cannot be read */
    ch_expect_error(ch_run(NULL, "letterbox -q --size 16,16 mixed/1.png mixed/gone.png "
                                 "gone.npy"),
                    1, "mixed/gone.png: No such file or directory");
    assert_false(ch_exists("gone.npy"));
    assert_int_equal(ch_run(NULL, "letterbox -q --size 16,16 --on-error skip --transforms "
                                  "g.json mixed/1.png mixed/gone.png mixed/3.png mixed/6.png "
                                  "gone.npy"),
                     0);
    ch_load("gone.npy", &out);
    assert_int_equal(out.shape[0], 3);
    assert_memory_equal(out.data, want, bytes);
    tio_free(&out);
    snprintf(path, sizeof path, "%s/g.json", ch_dir);
    ch_slurp(path, text, sizeof text);
    root = cJSON_Parse(text);
    assert_non_null(root);
    sk = cJSON_GetObjectItem(root, "skipped");
    assert_int_equal(cJSON_GetArraySize(sk), 1);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, 0), "file")->valuestring,
                        "mixed/gone.png");
    assert_non_null(strstr(cJSON_GetObjectItem(cJSON_GetArrayItem(sk, 0), "error")->valuestring,
                           "No such file or directory"));
    cJSON_Delete(root);
    /* nothing readable at all: an error, nothing written */
    ch_expect_error(ch_run(NULL, "letterbox -q --size 16,16 --on-error skip mixed/2.png "
                                 "mixed/4.jpg none.npy"),
                    1, "no image could be read (2 skipped)");
    assert_false(ch_exists("none.npy"));
    assert_int_equal(hidden_files(), 0);
    free(want);
    for (int i = 0; i < 3; i++)
        tio_free(&img[i]);
}

static void test_pad_stack(void **state)
{
    (void)state;
    int32_t a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {7, 8, 9};
    int64_t as[2] = {2, 3}, bs[2] = {1, 3};
    ch_save("s1.npy", CLPAD_I32, 2, as, a);
    ch_save("s2.npy", CLPAD_I32, 2, bs, b);
    assert_int_equal(ch_run(NULL, "pad-stack -q --value -1 --shapes-out shapes.npy s1.npy s2.npy "
                         "ps.npy"),
                     0);
    tio_tensor out = {0};
    ch_load("ps.npy", &out);
    static const int32_t want[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1};
    assert_int_equal(out.rank, 3);
    assert_int_equal(out.shape[0], 2);
    assert_int_equal(out.shape[1], 2);
    assert_int_equal(out.shape[2], 3);
    assert_memory_equal(out.data, want, sizeof want);
    tio_free(&out);
    ch_load("shapes.npy", &out);
    static const int64_t wshapes[4] = {2, 3, 1, 3};
    assert_int_equal(out.dtype, CLPAD_I64);
    assert_memory_equal(out.data, wshapes, sizeof wshapes);
    tio_free(&out);
    /* centred into a given shape, edge mode, verified */
    assert_int_equal(ch_run(NULL, "pad-stack -q --verify --shape 4,5 --placement center --mode edge "
                         "s1.npy s2.npy ps2.npy"),
                     0);
    ch_load("ps2.npy", &out);
    static const int32_t first[20] = {1, 1, 2, 3, 3, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6, 4, 4, 5, 6, 6};
    assert_memory_equal(out.data, first, sizeof first);
    tio_free(&out);
    /* errors */
    float f[3] = {0};
    int64_t fs[1] = {3};
    ch_save("f1.npy", CLPAD_F32, 1, fs, f);
    ch_expect_error(ch_run(NULL, "pad-stack s1.npy f1.npy e.npy"), 1, "f1.npy");
    ch_expect_error(ch_run(NULL, "pad-stack --mode reflect --shape 3,3 s1.npy s2.npy e.npy"), 1, "s2.npy");
    ch_expect_error(ch_run(NULL, "pad-stack --shape 5 s1.npy s2.npy e.npy"), 2, "--shape");
    ch_expect_error(ch_run(NULL, "pad-stack --mode wrap --value 1 s1.npy s2.npy e.npy"), 2, "--value");
    /* the mode names of `clpad pad`, where they mean what pad-stack does */
    ch_expect_error(ch_run(NULL, "pad-stack --mode np:symmetric s1.npy s2.npy e.npy"), 2,
                 "give 'symmetric'");
    ch_expect_error(ch_run(NULL, "pad-stack --mode cv:REFLECT_101 s1.npy s2.npy e.npy"), 2,
                 "give 'reflect'");
    ch_expect_error(ch_run(NULL, "pad-stack --mode torch:circular --value 1 s1.npy s2.npy e.npy"),
                 2, "--value");
    assert_false(ch_exists("e.npy"));
    assert_int_equal(ch_run(NULL, "pad-stack -q --shape 4,5 --placement center --mode np:edge "
                         "s1.npy s2.npy ps3.npy"),
                     0);
    ch_load("ps3.npy", &out);
    assert_memory_equal(out.data, first, sizeof first);
    tio_free(&out);
    /* the reflect limit: the way out names what pad-stack has, not large pads */
    ch_expect_error(ch_run(NULL, "pad-stack --mode reflect --shape 2,6 s1.npy s2.npy e.npy"), 1,
                 "pad-and-stack mirrors once");
}

/* --value per axis and side: numpy.pad's constant_values ((0, -5), (10, 20))
 * for each tensor, then stacked (as numpy 2.4 printed them: the corners
 * take the last axis' value); the device's result verified against the
 * CPU path; the refusals. */
static void test_pad_stack_side_values(void **state)
{
    (void)state;
    int32_t a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {7, 8, 9};
    int64_t as[2] = {2, 3}, bs[2] = {1, 3};
    ch_save("v1.npy", CLPAD_I32, 2, as, a);
    ch_save("v2.npy", CLPAD_I32, 2, bs, b);
    assert_int_equal(ch_run(NULL, "pad-stack -q --verify --shape 3,4 --value 0:-5,10:20 "
                                  "v1.npy v2.npy pv.npy"),
                     0);
    tio_tensor out = {0};
    ch_load("pv.npy", &out);
    static const int32_t want[24] = {1,  2,  3,  20, 4,  5,  6,  20, -5, -5, -5, 20,
                                     7,  8,  9,  20, -5, -5, -5, 20, -5, -5, -5, 20};
    assert_int_equal(out.rank, 3);
    assert_int_equal(out.shape[1], 3);
    assert_int_equal(out.shape[2], 4);
    assert_memory_equal(out.data, want, sizeof want);
    tio_free(&out);
    ch_expect_error(ch_run(NULL, "pad-stack --value 0:-5 v1.npy v2.npy e.npy"), 1,
                    "one entry (V or BEFORE:AFTER) per axis of the inputs (rank 2)");
    ch_expect_error(ch_run(NULL, "pad-stack --value 0:-5,,1 v1.npy v2.npy e.npy"), 2,
                    "an empty value");
    ch_expect_error(ch_run(NULL, "pad-stack --value 0:x,1 v1.npy v2.npy e.npy"), 2,
                    "not a value of any dtype");
    ch_expect_error(ch_run(NULL, "pad-stack --mode edge --value 0:1,1 v1.npy v2.npy e.npy"), 2,
                    "--value");
    ch_expect_error(ch_run(NULL, "pad-stack --value 0:1,1:9999999999 v1.npy v2.npy e.npy"), 1,
                    "out of range");
    assert_false(ch_exists("e.npy"));
}

static int setup(void **state)
{
    (void)state;
    return ch_init("cli-batch");
}

static int teardown(void **state)
{
    (void)state;
    return ch_cleanup();
}

/* --input-format: a raw file of two NV12 frames and a .npy (N, H * 3 / 2, W)
 * of I420 frames against clpad_letterbox_cpu of the same frames; a size
 * that is not a multiple of the frame size, odd sizes, options for image
 * files, a raw file without --frame-size: one-line errors, no output. */
static void test_letterbox_yuv(void **state)
{
    (void)state;
    enum { H = 36, W = 52, FB = H * W * 3 / 2 };
    static unsigned char frames[2 * FB];
    uint64_t rng = 0x59a;
    tu_fill(frames, sizeof frames, &rng);
    FILE *f = fopen(ch_path("two.yuv"), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(frames, 1, sizeof frames, f), sizeof frames);
    fclose(f);
    f = fopen(ch_path("short.yuv"), "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(frames, 1, FB + 7, f), FB + 7);
    fclose(f);
    int64_t shape[3] = {2, H * 3 / 2, W};
    ch_save("i420.npy", CLPAD_U8, 3, shape, frames);
    for (int k = 0; k < 2; k++) {
        const char *fmt = k ? "i420" : "nv12";
        clpad_letterbox_options o;
        clpad_letterbox_options_init(&o, 40, 30);
        o.input_format = k ? CLPAD_INPUT_I420 : CLPAD_INPUT_NV12;
        o.color_matrix = k ? CLPAD_COLOR_BT709 : CLPAD_COLOR_BT601;
        o.swap_rb = k;
        o.dtype = CLPAD_U8;
        clpad_image im[2] = {{.data = frames, .height = H, .width = W},
                             {.data = frames + FB, .height = H, .width = W}};
        unsigned char want[2 * 3 * 40 * 30];
        TU_ASSERT_OK(clpad_letterbox_cpu(im, 2, &o, want, sizeof want, NULL));
        assert_int_equal(ch_run(NULL, "letterbox -q --input-format %s %s --size 40,30 --dtype u8 "
                                      "%s %s out.npy",
                                fmt, k ? "--color-matrix bt709 --bgr" : "--frame-size 52,36",
                                k ? "" : "--verify", k ? "i420.npy" : "two.yuv"),
                         0);
        tio_tensor t;
        ch_load("out.npy", &t);
        assert_int_equal(t.rank, 4);
        assert_int_equal(t.shape[0], 2);
        assert_int_equal(t.nbytes, sizeof want);
        assert_memory_equal(t.data, want, sizeof want);
        tio_free(&t);
    }
    ch_expect_error(ch_run(NULL, "letterbox --input-format nv12 --frame-size 52,36 --size 8,8 "
                                 "short.yuv bad.npy"),
                    1, "is not a whole number of nv12 frames of 52 x 36");
    ch_expect_error(ch_run(NULL, "letterbox --input-format nv12 --frame-size 51,36 --size 8,8 "
                                 "two.yuv bad.npy"),
                    2, "width 51 is odd");
    ch_expect_error(ch_run(NULL, "letterbox --input-format nv12 --size 8,8 two.yuv bad.npy"), 2,
                    "needs --frame-size");
    ch_expect_error(ch_run(NULL, "letterbox --input-format nv12 --frame-size 52,36 --size 8,8 "
                                 "--transforms t.json two.yuv bad.npy"),
                    2, "--transforms is for image files");
    ch_expect_error(ch_run(NULL, "letterbox --frame-size 52,36 --size 8,8 two.yuv bad.npy"), 2,
                    "--frame-size goes with --input-format");
    assert_false(ch_exists("bad.npy"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_letterbox),
        cmocka_unit_test(test_letterbox_mixed),
        cmocka_unit_test(test_letterbox_errors),
        cmocka_unit_test(test_letterbox_no_room),
        cmocka_unit_test(test_letterbox_no_room_default_sigxfsz),
        cmocka_unit_test(test_letterbox_batch_beyond_files),
        cmocka_unit_test(test_letterbox_folders),
        cmocka_unit_test(test_letterbox_hostile_folder),
        cmocka_unit_test(test_letterbox_yuv),
        cmocka_unit_test(test_pad_stack),
        cmocka_unit_test(test_pad_stack_side_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
