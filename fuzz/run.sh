#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan; fuzz/CMakeLists.txt) and run
# each for SECONDS (default 60) on a scratch copy of its seed corpus and its
# saved regressions, so that the corpora in the repository stay as they are.
# Prints the executions of each target; exits non-zero if any target finds a
# crash, a broken check, a leak, a timeout (-timeout=10) or runs out of
# memory (-rss_limit_mb=2048).
#
#   bash fuzz/run.sh [SECONDS] [TARGET...]      targets: npy image pad space_batch window letterbox
#
# Environment:
#   CLPAD_FUZZ_BUILD_DIR   build directory (default: build-fuzz in the repository)
#   CLPAD_FUZZ_JOBS        targets fuzzed at the same time (default 1)
#   CLPAD_FUZZ_ARTIFACTS   where crash inputs and logs of failed targets are kept
#                          (default: $CLPAD_FUZZ_BUILD_DIR/artifacts)
# A crash input reproduces with: $CLPAD_FUZZ_BUILD_DIR/fuzz_<target> <file>.
# Once fixed, copy it to fuzz/regressions/<target>/ (tests/test_hostile.c replays it).
set -euo pipefail

secs="${1:-60}"
shift || true
case "$secs" in
  '' | *[!0-9]*) echo "usage: bash fuzz/run.sh [SECONDS] [TARGET...]" >&2; exit 2 ;;
esac
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
build="${CLPAD_FUZZ_BUILD_DIR:-$root/build-fuzz}"
artifacts="${CLPAD_FUZZ_ARTIFACTS:-$build/artifacts}"
jobs="${CLPAD_FUZZ_JOBS:-1}"
all_targets=(npy image pad space_batch window letterbox)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi

# clang with libFuzzer (Debian: clang and libclang-rt-dev), if missing.
if ! command -v clang >/dev/null 2>&1 || ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
    clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
  echo "fuzz: installing clang and libFuzzer (clang, libclang-rt-dev)" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends clang libclang-rt-dev >/dev/null
fi

echo "== fuzz: building the targets in $build =="
cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER=clang >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null

work="$(mktemp -d "${TMPDIR:-/tmp}/clpad-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts"

# One target: corpus copy, run, summary line in $work/<t>.result.
fuzz_one() {
  local t="$1" dir="$work/$t"
  mkdir -p "$dir/corpus"
  cp "$here/corpus/$t/"* "$dir/corpus/" 2>/dev/null || true
  if [ -d "$here/regressions/$t" ]; then
    for f in "$here/regressions/$t/"*; do
      [ -f "$f" ] && cp "$f" "$dir/corpus/regression-$(basename "$f")"
    done
  fi
  local seeds rc=0
  seeds="$(find "$dir/corpus" -type f | wc -l)"
  (cd "$dir" && UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$build/fuzz_$t" corpus -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts/$t-") >"$dir/log" 2>&1 || rc=$?
  local execs
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)"
  local after
  after="$(find "$dir/corpus" -type f | wc -l)"
  if [ "$rc" -eq 0 ]; then
    printf 'fuzz_%-12s %10s executions in %ss, corpus %s -> %s: OK\n' "$t" "${execs:-?}" \
      "$secs" "$seeds" "$after" >"$dir/result"
  else
    cp "$dir/log" "$artifacts/$t.log"
    {
      printf 'fuzz_%-12s %10s executions in %ss: FAILED (exit %s)\n' "$t" "${execs:-?}" \
        "$secs" "$rc"
      grep -E 'CHECK FAILED|ERROR: |runtime error|SUMMARY|Test unit written' "$dir/log" |
        head -n 8 | sed 's/^/    /'
      echo "    log: $artifacts/$t.log"
    } >"$dir/result"
    return 1
  fi
}

echo "== fuzz: ${#targets[@]} target(s), ${secs}s each, $jobs at a time =="
failed=0
for t in "${targets[@]}"; do
  if [ ! -x "$build/fuzz_$t" ]; then
    echo "fuzz: no target '$t' (known: ${all_targets[*]})" >&2
    exit 2
  fi
done
for t in "${targets[@]}"; do
  fuzz_one "$t" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
wait || true
for t in "${targets[@]}"; do
  if [ -f "$work/$t/result" ]; then cat "$work/$t/result"; else echo "fuzz_$t: no result"; fi
  if [ ! -f "$work/$t/result" ] || grep -q FAILED "$work/$t/result"; then failed=1; fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: FAILED; crash inputs and logs are in $artifacts" >&2
  exit 1
fi
echo "fuzz: all targets OK"
