#!/usr/bin/env bash
# The scripts a reader runs first, checked as they run (label docs):
#
#   run_scripts.sh paths SOURCE  bench/peers.sh, letterbox_peers.sh, yuv_peers.sh and pipeline_peers.sh with
#       CLPAD_BUILD_DIR an absolute path, run from another directory, on a stub
#       build tree (a stub venv python that prints what it was given): the
#       library, kernel cache and CLI they pass on must lie in that build tree.
#   run_scripts.sh demo SOURCE BUILD  scripts/demo.sh on this build tree
#       (CLPAD_DEMO_BUILT=1: no bootstrap, no build): its pad must run the
#       OpenCL kernel on a device, say which, and verify it against the CPU
#       reference. Exit 77 (Skipped) when the machine has no OpenCL device.
set -euo pipefail
what="$1" src="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$what" = paths ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  b="$tmp/build"
  mkdir -p "$b/bench-venv/bin"
  cat >"$b/bench-venv/bin/python" <<'EOF'
#!/bin/sh
# `python -c "import ..."`: the package is there; otherwise say what we got.
[ "$1" = -c ] && exit 0
printf 'CLPAD_LIBRARY=%s\nPOCL_CACHE_DIR=%s\nARGS=%s\n' "$CLPAD_LIBRARY" "$POCL_CACHE_DIR" "$*"
EOF
  printf '#!/bin/sh\nexit 0\n' >"$b/clpad"
  chmod +x "$b/bench-venv/bin/python" "$b/clpad"
  : >"$b/libclpad.so"
  for script in bench/peers.sh bench/letterbox_peers.sh bench/yuv_peers.sh bench/pipeline_peers.sh; do
    out="$(cd "$tmp" && env -u POCL_CACHE_DIR -u CLPAD_LIBRARY CLPAD_BUILD_DIR="$b" \
      bash "$src/$script" --quick)" || fail "$script exited $?"
    grep -qx "CLPAD_LIBRARY=$b/libclpad.so" <<<"$out" ||
      fail "$script with CLPAD_BUILD_DIR=$b: $(grep CLPAD_LIBRARY <<<"$out")"
    grep -qx "POCL_CACHE_DIR=$b/pocl-cache" <<<"$out" ||
      fail "$script with CLPAD_BUILD_DIR=$b: $(grep POCL_CACHE_DIR <<<"$out")"
    echo "ok: $script with an absolute CLPAD_BUILD_DIR"
  done
  grep -qF -- "--clpad $b/clpad" <<<"$(cd "$tmp" && env -u POCL_CACHE_DIR -u CLPAD_LIBRARY \
    CLPAD_BUILD_DIR="$b" bash "$src/bench/peers.sh")" || fail "peers.sh: --clpad not $b/clpad"
  exit 0
fi

if [ "$what" = demo ]; then
  build="$3"
  if "$build/clpad" devices | grep -q '^no OpenCL device'; then
    echo "SKIP: no OpenCL device: the demo runs the CPU reference path"
    exit 77
  fi
  log="$(mktemp)"
  trap 'rm -f "$log"' EXIT
  (cd /tmp && CLPAD_DEMO_BUILT=1 CLPAD_BUILD_DIR="$build" bash "$src/scripts/demo.sh") >"$log" 2>&1 ||
    { cat "$log"; fail "scripts/demo.sh exited with an error"; }
  cat "$log"
  grep -q '^clpad: device: ' "$log" || fail "the demo does not say which device ran"
  grep -q '^clpad: kernel: ' "$log" || fail "the demo's pad did not run the OpenCL kernel"
  grep -q 'CPU path (' "$log" && fail "the demo's pad ran the small-call CPU path, not the device"
  grep -q '^clpad: verify: the OpenCL kernel.s result is identical to the CPU reference' "$log" ||
    fail "the demo did not verify the device's result against the CPU reference"
  [ -s "$build/astronaut-padded.png" ] || fail "no $build/astronaut-padded.png"
  echo "ok: the demo ran the kernel and verified it"
  exit 0
fi
fail "usage: run_scripts.sh paths SOURCE | demo SOURCE BUILD"
