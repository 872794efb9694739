#!/usr/bin/env bash
# Entry point of the peer CTests that need the sample photographs and load the
# library into python (peer_imread, peer_pipeline, peer_preprocess):
#   bash with_photos.sh SCRIPT.py [ARGS...]
# makes the peer venv (setup_venv.sh, shared with `peer`), fetches the sample
# photos once into $CLPAD_PEER_PHOTOS (fetch_photos.py), then runs
# tests/peer/SCRIPT.py in the venv with --photos DIR and ARGS (e.g. --seed S
# -v; see each script's --help). SCRIPT `--setup` stops after the venv, the
# photos and the overlay (the CTest peer_setup, which every peer test
# requires, so that they can run at once without two of them making the
# same venv).
#   CLPAD_PEER_VENV    where the venv lives (CTest sets <build>/peer-venv)
#   CLPAD_PEER_PHOTOS  where the photos are kept (CTest sets <build>/peer-data)
#   CLPAD_LIBRARY      the libclpad.so under test (CTest sets it)
#   CLPAD_CLI          the clpad program under test (CTest sets it)
#   CLPAD_PEER_PRELOAD sanitizer runtimes to preload (CTest sets it in a
#                      sanitizer build)
#   CLPAD_PEER_OVERLAY a requirements file (e.g. requirements-pillow13.txt)
#                      installed once with pip --target into a folder beside
#                      the venv and put first on PYTHONPATH: another version
#                      of a package the venv pins (peer_preprocess_pil13)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
script="${1:?usage: with_photos.sh SCRIPT.py [ARGS...]}"
shift
venv="${CLPAD_PEER_VENV:?set CLPAD_PEER_VENV}"
photos="${CLPAD_PEER_PHOTOS:?set CLPAD_PEER_PHOTOS}"
[[ -n "${CLPAD_LIBRARY:-}" ]] || { echo "with_photos.sh: set CLPAD_LIBRARY" >&2; exit 2; }
bash "$here/setup_venv.sh" "$venv" || exit $?
# pip download needs a pip: the venv's, or the system's (a venv made
# --without-pip has none).
fetch_python="$venv/bin/python"
"$fetch_python" -m pip --version >/dev/null 2>&1 || fetch_python=python3
"$fetch_python" "$here/fetch_photos.py" "$photos" || exit $?
if [[ -n "${CLPAD_PEER_OVERLAY:-}" ]]; then
  req="$here/$CLPAD_PEER_OVERLAY"
  overlay="$venv.$(basename "$CLPAD_PEER_OVERLAY" .txt)"
  if ! cmp -s "$req" "$overlay/.clpad-requirements" 2>/dev/null; then
    rm -rf "$overlay"
    if ! "$fetch_python" -m pip install --disable-pip-version-check -q --no-deps \
        --target "$overlay" -r "$req" >&2; then
      rm -rf "$overlay"
      echo "SKIP: pip could not install $(grep -v '^#' "$req" | tr '\n' ' ')(no network?)"
      exit 77
    fi
    cp "$req" "$overlay/.clpad-requirements"
  fi
  export PYTHONPATH="$overlay${PYTHONPATH:+:$PYTHONPATH}"
fi
[[ "$script" == --setup ]] && exit 0
# A sanitizer build: the runtimes first, as an uninstrumented python cannot
# load the instrumented library otherwise (leak checking off: it would report
# Python's own allocations).
if [[ -n "${CLPAD_PEER_PRELOAD:-}" ]]; then
  export LD_PRELOAD="$CLPAD_PEER_PRELOAD${LD_PRELOAD:+:$LD_PRELOAD}"
  export ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
exec "$venv/bin/python" "$here/$script" --photos "$photos/photos" "$@"
