#!/usr/bin/env bash
# Entry point of the `peer_preprocess` CTest: the peer venv (setup_venv.sh,
# shared with `peer`), the sample photos (fetch_photos.py, downloaded once
# into $CLPAD_PEER_PHOTOS), then tests/peer/preprocess_peer.py in the venv.
#   CLPAD_PEER_VENV    where the venv lives (CTest sets <build>/peer-venv)
#   CLPAD_PEER_PHOTOS  where the photos are kept (CTest sets <build>/peer-data)
#   CLPAD_LIBRARY      the libclpad.so under test (CTest sets it)
#   CLPAD_PEER_PRELOAD sanitizer runtimes to preload (CTest sets it in a
#                      sanitizer build)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${CLPAD_PEER_VENV:?set CLPAD_PEER_VENV}"
photos="${CLPAD_PEER_PHOTOS:?set CLPAD_PEER_PHOTOS}"
[[ -n "${CLPAD_LIBRARY:-}" ]] || { echo "preprocess.sh: set CLPAD_LIBRARY" >&2; exit 2; }
bash "$here/setup_venv.sh" "$venv" || exit $?
fetch_python="$venv/bin/python"
"$fetch_python" -m pip --version >/dev/null 2>&1 || fetch_python=python3
"$fetch_python" "$here/fetch_photos.py" "$photos" || exit $?
if [[ -n "${CLPAD_PEER_PRELOAD:-}" ]]; then
  export LD_PRELOAD="$CLPAD_PEER_PRELOAD${LD_PRELOAD:+:$LD_PRELOAD}"
  export ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
exec "$venv/bin/python" "$here/preprocess_peer.py" --photos "$photos/photos" "$@"
