#!/usr/bin/env bash
# Install what clpad needs to build, test and run on Debian/Ubuntu, if missing:
# a C compiler, CMake, the OpenCL ICD loader and headers, PoCL (the CPU OpenCL
# driver, so that OpenCL works without a GPU), clinfo, the image decoders
# (libpng, libjpeg-turbo, libexif for EXIF orientation, stb for BMP and image
# writing), cmocka (unit tests), cJSON (JSON output), libunistring (UTF-8
# checks of file names in JSON output), and Python 3 with venv, NumPy and
# pytest (the Python package's tests).
#
# Then the other OpenCL implementations of the test matrix (ctest -L impl):
# Mesa's rusticl (mesa-opencl-icd) and the Oclgrind simulator (oclgrind) from
# Debian, and Intel's OpenCL CPU runtime from PyPI (intel-opencl-rt and the
# compiler runtime it links, intel-cmplr-lib-rt) into a virtual environment in
# the build tree, $CLPAD_BUILD_DIR/impl/intel (default build/impl/intel). When
# PyPI cannot be reached, the reason is written to impl/intel.skipped and the
# Intel tests report Skipped with it. CLPAD_BOOTSTRAP_IMPLS=0 leaves the matrix's
# implementations out; sanitizer builds (CLPAD_SANITIZE set) do not run the
# matrix and get no venv.
# Idempotent; uses sudo when not root.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config ocl-icd-opencl-dev opencl-headers
          pocl-opencl-icd clinfo libstb-dev libjpeg62-turbo-dev libpng-dev libexif-dev
          libcmocka-dev libcjson-dev libunistring-dev
          python3 python3-venv python3-numpy python3-pytest python3-setuptools python3-wheel)
impls="${CLPAD_BOOTSTRAP_IMPLS:-1}"
if [ "$impls" != 0 ]; then
  packages+=(mesa-opencl-icd oclgrind)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "$impls" != 0 ] && [ -z "${CLPAD_SANITIZE:-}" ] || exit 0
# Intel's OpenCL CPU runtime (x86-64 only), in a venv of the build tree.
impl_dir="${CLPAD_BUILD_DIR:-build}/impl"
venv="$impl_dir/intel"
mkdir -p "$impl_dir"
if [ "$(uname -m)" != x86_64 ]; then
  echo "Intel's OpenCL CPU runtime is for x86-64 only" > "$impl_dir/intel.skipped"
fi
# Installed, or failed before (remove impl/intel.skipped to try again).
if [ -f "$venv/lib/libintelocl.so" ] || [ -f "$impl_dir/intel.skipped" ]; then
  exit 0
fi
echo "bootstrap: installing Intel's OpenCL CPU runtime (PyPI intel-opencl-rt) into $venv" >&2
log="$impl_dir/intel-install.log"
if python3 -m venv "$venv" > "$log" 2>&1 &&
   "$venv/bin/pip" install --disable-pip-version-check -q --retries 2 --timeout 30 \
     intel-opencl-rt intel-cmplr-lib-rt \
     >> "$log" 2>&1 &&
   [ -f "$venv/lib/libintelocl.so" ]; then
  exit 0
fi
# Not installed: say why (the last line pip printed), and let the tests skip.
why=$(grep -v '^\s*$' "$log" | tail -n 1 | cut -c1-200)
echo "pip install intel-opencl-rt intel-cmplr-lib-rt failed: ${why:-no output};" \
  "remove $impl_dir/intel.skipped to try again" > "$impl_dir/intel.skipped"
rm -rf "$venv"
echo "bootstrap: $(cat "$impl_dir/intel.skipped")" >&2
exit 0
