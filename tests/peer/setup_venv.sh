#!/usr/bin/env bash
# Create (or reuse) the virtual environment the peer harness runs in:
#   bash tests/peer/setup_venv.sh VENV_DIR
# Installs tests/peer/requirements.txt from PyPI. Exit 0 when VENV_DIR/bin/python
# is ready; exit 77 (CTest: Skipped) with the reason on stderr when it cannot be
# set up here (no python3, no venv module, no network for pip, ...).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:?usage: setup_venv.sh VENV_DIR}"
req="$here/requirements.txt"
stamp="$venv/.clpad-peer-requirements"
py="${CLPAD_PEER_PYTHON:-python3}"

skip() { echo "SKIP: peer harness: $*" >&2; exit 77; }

if [[ -x "$venv/bin/python" && -f "$stamp" ]] && cmp -s "$stamp" "$req"; then
    exit 0  # ready, same pins as last time
fi
command -v "$py" >/dev/null 2>&1 || skip "no '$py' on PATH (install python3 and python3-venv)"
"$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
    skip "$("$py" --version 2>&1) is too old (need 3.10+ for the pinned wheels)"

rm -rf "$venv"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "peer: creating $venv" >&2
if ! "$py" -m venv "$venv" >"$log" 2>&1; then
    # Debian without python3-venv has venv but not ensurepip: make the venv
    # without pip and let the system pip (23+, --python) install into it.
    rm -rf "$venv"
    if "$py" -m venv --without-pip "$venv" >>"$log" 2>&1 &&
        "$py" -m pip --python "$venv/bin/python" --version >>"$log" 2>&1; then
        pip=("$py" -m pip --python "$venv/bin/python")
    else
        rm -rf "$venv"
        tail -n 3 "$log" >&2
        skip "cannot create a virtual environment with '$py -m venv' (on Debian/Ubuntu: apt-get install python3-venv)"
    fi
else
    pip=("$venv/bin/python" -m pip)
fi
echo "peer: pip install -r $req (first run downloads about 100 MB of wheels)" >&2
if ! "${pip[@]}" install --disable-pip-version-check -q -r "$req" >"$log" 2>&1; then
    tail -n 5 "$log" >&2
    rm -rf "$venv"
    skip "pip could not install $(grep -v '^#' "$req" | tr '\n' ' ')(no network or no wheel for this Python/platform)"
fi
cp "$req" "$stamp"
