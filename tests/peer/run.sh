#!/usr/bin/env bash
# Entry point of the `peer` CTest: make sure the venv exists, then run the
# harness in it. Arguments go to run_peer.py (--cases N --seed S --only ...).
#   CLPAD_PEER_VENV  where the venv lives (CTest sets <build>/peer-venv)
#   CLPAD_CLI        the clpad binary (CTest sets it)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${CLPAD_PEER_VENV:-${CLPAD_CLI:+$(dirname "$CLPAD_CLI")/peer-venv}}"
[[ -n "$venv" ]] || { echo "run.sh: set CLPAD_PEER_VENV or CLPAD_CLI" >&2; exit 2; }
bash "$here/setup_venv.sh" "$venv" || exit $?
exec "$venv/bin/python" "$here/run_peer.py" "$@"
