#!/usr/bin/env bash
# Entry point of the `peer_letterbox` CTest: the peer venv (setup_venv.sh,
# shared with `peer`), then tests/peer/letterbox_peer.py in it. Arguments go
# to the script (--cases N --seed S -v).
#   CLPAD_PEER_VENV  where the venv lives (CTest sets <build>/peer-venv)
#   CLPAD_CLI        the clpad binary (CTest sets it)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${CLPAD_PEER_VENV:-${CLPAD_CLI:+$(dirname "$CLPAD_CLI")/peer-venv}}"
[[ -n "$venv" ]] || { echo "letterbox.sh: set CLPAD_PEER_VENV or CLPAD_CLI" >&2; exit 2; }
bash "$here/setup_venv.sh" "$venv" || exit $?
exec "$venv/bin/python" "$here/letterbox_peer.py" "$@"
