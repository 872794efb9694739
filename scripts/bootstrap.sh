#!/usr/bin/env bash
# Install what clpad needs to build, test and run on Debian/Ubuntu, if missing:
# a C compiler, CMake, the OpenCL ICD loader and headers, PoCL (the CPU OpenCL
# driver, so that OpenCL works without a GPU), clinfo, stb (PNG, BMP; image
# writing), libjpeg-turbo (JPEG), cmocka (unit tests), cJSON (JSON output), and
# Python 3 with venv, NumPy and pytest (the Python package's tests).
# Idempotent; uses sudo when not root.
set -euo pipefail

packages=(build-essential cmake pkg-config ocl-icd-opencl-dev opencl-headers
          pocl-opencl-icd clinfo libstb-dev libjpeg62-turbo-dev libcmocka-dev libcjson-dev
          python3 python3-venv python3-numpy python3-pytest python3-setuptools python3-wheel)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "bootstrap: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
