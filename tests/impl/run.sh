#!/usr/bin/env bash
# Run a test program on one OpenCL implementation of the matrix (CTest label
# `impl`, tests/CMakeLists.txt):
#
#   run.sh IMPL IMPL_DIR PROGRAM [ARGS...]
#
# IMPL is one of
#   pocl       PoCL (Debian pocl-opencl-icd)
#   intel      Intel's OpenCL CPU runtime (PyPI intel-opencl-rt, installed by
#              scripts/bootstrap.sh into IMPL_DIR/intel, a venv in the build tree)
#   rusticl    Mesa rusticl on llvmpipe (Debian mesa-opencl-icd)
#   oclgrind   the Oclgrind simulator (Debian oclgrind), with its memory-access,
#              data-race and API checks: any report it logs fails the run
# The ICD loader is told to load that implementation's driver only (ocl-icd:
# OCL_ICD_VENDORS; the Khronos loader: OCL_ICD_FILENAMES), and CLPAD_DEVICE
# names its platform, so a run can never pass on another implementation. An
# implementation that is not installed exits 77 (CTest: Skipped) and says why.
set -u
impl="$1"
impl_dir="$2"
shift 2
skip() {
  echo "SKIP: $impl: $*"
  exit 77
}
# The library an ICD file of /etc/OpenCL/vendors names.
icd_lib() {
  [ -r "/etc/OpenCL/vendors/$1" ] || return 1
  tr -d '\n' < "/etc/OpenCL/vendors/$1"
}
export CLPAD_TEST_IMPL="$impl"
case "$impl" in
  pocl)
    lib=$(icd_lib pocl.icd) || skip "not installed (Debian package pocl-opencl-icd)"
    export OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd OCL_ICD_FILENAMES="$lib"
    export CLPAD_DEVICE="Portable Computing Language"
    ;;
  rusticl)
    lib=$(icd_lib rusticl.icd) || skip "not installed (Debian package mesa-opencl-icd)"
    export OCL_ICD_VENDORS=/etc/OpenCL/vendors/rusticl.icd OCL_ICD_FILENAMES="$lib"
    export RUSTICL_ENABLE=llvmpipe CLPAD_DEVICE=rusticl
    export MESA_SHADER_CACHE_DIR="$impl_dir/mesa-cache" # in the build tree, as PoCL's
    ;;
  intel)
    lib="$impl_dir/intel/lib/libintelocl.so"
    if [ ! -f "$lib" ]; then
      why=$(cat "$impl_dir/intel.skipped" 2>/dev/null)
      skip "not installed in $impl_dir/intel (${why:-run scripts/bootstrap.sh with this build directory})"
    fi
    export OCL_ICD_VENDORS="$lib" OCL_ICD_FILENAMES="$lib"
    export CLPAD_DEVICE="Intel(R) OpenCL"
    # Intel's runtime keeps no compiled programs between processes: where the
    # suite turned clpad's disk cache off (tests/CMakeLists.txt, for PoCL),
    # one beside the runtime keeps them for the next Intel test.
    [ "${CLPAD_CACHE_DIR:-}" = off ] && export CLPAD_CACHE_DIR="$impl_dir/intel-clpad-cache"
    ;;
  oclgrind)
    command -v oclgrind > /dev/null || skip "not installed (Debian package oclgrind)"
    export CLPAD_DEVICE=Oclgrind
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    oclgrind --data-races --check-api --log "$log" "$@"
    rc=$?
    if [ -s "$log" ]; then
      echo "Oclgrind reported errors:"
      head -c 20000 "$log"
      exit 1
    fi
    exit $rc
    ;;
  *)
    echo "run.sh: unknown implementation '$impl'" >&2
    exit 2
    ;;
esac
exec "$@"
