#!/bin/sh
# Build and run the consumer with pkg-config only (no CMake), as a Makefile or
# a notebook's build cell would:
#
#   PKG_CONFIG_PATH=/opt/clpad/lib/pkgconfig sh tests/consumer/build_pkgconfig.sh OUT_DIR
#
# Builds OUT_DIR/consumer_pc from consumer.c (shared library, clpad.pc),
# OUT_DIR/consumer_static_pc (libclpad.a, clpad-static.pc) and, when a C++ compiler is found
# ($CXX, c++ or g++), OUT_DIR/consumer_cxx_pc from consumer.cpp; runs them.
# Environment: PKG_CONFIG (default pkg-config), CC (default cc), CXX,
# CLPAD_CONSUMER_FLAGS (extra compile and link flags, e.g. -fsanitize=...).
# Exit status: that of the consumers (0 pass, 77 no OpenCL device), 1 on a
# build failure.
set -eu
src=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build_pkgconfig.sh OUT_DIR}
pkgconfig=${PKG_CONFIG:-pkg-config}
cc=${CC:-cc}
extra=${CLPAD_CONSUMER_FLAGS:-}
mkdir -p "$out"

"$pkgconfig" --exists --print-errors clpad
cflags=$("$pkgconfig" --cflags clpad)
libs=$("$pkgconfig" --libs clpad)
libdir=$("$pkgconfig" --variable=libdir clpad)
echo "pkg-config: clpad $("$pkgconfig" --modversion clpad): --cflags '$cflags' --libs '$libs'"

# The library is not on the loader's path: an rpath to pkg-config's libdir.
# shellcheck disable=SC2086  # flags are word lists
(set -x; $cc -std=c11 -Wall -Wextra -Werror $extra $cflags "$src/consumer.c" \
  -o "$out/consumer_pc" $libs -Wl,-rpath,"$libdir")

# The static library through clpad-static.pc: the program must not need
# libclpad.so at run time (a plain -lclpad would have linked the shared one).
"$pkgconfig" --exists --print-errors clpad-static
scflags=$("$pkgconfig" --cflags clpad-static)
slibs=$("$pkgconfig" --libs clpad-static)
echo "pkg-config: clpad-static: --cflags '$scflags' --libs '$slibs'"
# shellcheck disable=SC2086
(set -x; $cc -std=c11 -Wall -Wextra -Werror $extra $scflags "$src/consumer.c" \
  -o "$out/consumer_static_pc" $slibs)
if command -v readelf >/dev/null 2>&1; then
  if readelf -d "$out/consumer_static_pc" | grep -q 'NEEDED.*libclpad'; then
    echo "pkg-config: consumer_static_pc links libclpad dynamically:"
    readelf -d "$out/consumer_static_pc" | grep NEEDED
    exit 1
  fi
  echo "pkg-config: consumer_static_pc does not need libclpad.so"
fi

cxx=${CXX:-}
if [ -z "$cxx" ]; then
  cxx=$(command -v c++ || command -v g++ || true)
fi
if [ -n "$cxx" ]; then
  # shellcheck disable=SC2086
  (set -x; $cxx -std=c++11 -Wall -Wextra -pedantic -Werror $extra $cflags "$src/consumer.cpp" \
    -o "$out/consumer_cxx_pc" $libs -Wl,-rpath,"$libdir")
else
  echo "pkg-config: no C++ compiler (c++, g++): consumer_cxx_pc not built"
fi

status=0
"$out/consumer_pc" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
  exit "$status"
fi
"$out/consumer_static_pc" || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
  exit "$status"
fi
if [ -x "$out/consumer_cxx_pc" ]; then
  "$out/consumer_cxx_pc"
fi
exit "$status"
