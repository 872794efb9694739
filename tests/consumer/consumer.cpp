// A C++ consumer of the installed clpad: proves that <clpad.h> (and the
// clpad_window.h it includes) compile as C++ and that its declarations have C
// linkage (extern "C"): with C++ linkage the names would be mangled and this
// program would not link.
#include <clpad.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
    std::printf("consumer_cxx: clpad %s\n", clpad_version_string());

    std::vector<std::int32_t> in(12);
    for (int i = 0; i < 12; i++)
        in[i] = i + 1;
    const std::int64_t shape[2] = {3, 4}, pads_begin[2] = {2, -1}, pads_end[2] = {-1, 3};
    const std::int32_t expected[24] = {10, 11, 12, 11, 10, 9, 6, 7, 8, 7, 6, 5,
                                       2,  3,  4,  3,  2,  1, 6, 7, 8, 7, 6, 5};
    std::vector<std::int32_t> out(24, 0);
    clpad_pad_options options; // (CLPAD_PAD_OPTIONS is C only: a compound literal)
    clpad_pad_options_init(&options, CLPAD_PAD_REFLECT);
    clpad_status st = clpad_pad_cpu(CLPAD_I32, 2, shape, in.data(), pads_begin, pads_end,
                                    &options, nullptr, out.data(),
                                    out.size() * sizeof(std::int32_t));
    if (st != CLPAD_OK) {
        std::fprintf(stderr, "consumer_cxx: %s: %s\n", clpad_status_name(st), clpad_last_error());
        return 1;
    }
    if (std::memcmp(out.data(), expected, sizeof expected) != 0) {
        std::fprintf(stderr, "consumer_cxx: wrong output\n");
        return 1;
    }

    clpad_window_op op;
    if (clpad_window_op_from_name("ConvTranspose", &op) != CLPAD_OK || op != CLPAD_WINDOW_DECONV) {
        std::fprintf(stderr, "consumer_cxx: clpad_window_op_from_name: %s\n", clpad_last_error());
        return 1;
    }
    std::printf("consumer_cxx: ok\n");
    return 0;
}
