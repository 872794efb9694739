#!/usr/bin/env python3
"""CTest test_python_pocl (label `python`): the repaired wheel with its pocl
extra on a machine whose system registers no OpenCL driver, and the same
install with the system's drivers.

    python3 run_pocl.py --work DIR --source REPO

1. A fresh virtual environment gets `pip install WHEEL[pocl]` (the wheel that
   test_python_wheel left in DIR/dist; numpy and pocl-binary-distribution
   from DIR/wheelhouse, no index).
2. In a private mount namespace (`unshare --mount`, as root), an empty
   directory is mounted over /etc/OpenCL/vendors and OCL_ICD_* /
   OPENCL_VENDOR_PATH are unset: pocl_check.py --expect pip-pocl checks that
   clpad.devices() lists PoCL's device from pip (its library mapped in the
   process, the system's ICD loader not), that clpad.pad runs a kernel on it
   and equals numpy.pad, and that `clpad --help`, `python -m clpad --help`,
   `clpad devices` and `clpad pad --verify` on data/m.npy work.
3. In the same namespace with OCL_ICD_VENDORS naming a directory that holds
   copies of the system's .icd files (the user's choice), pocl_check.py
   --expect user checks that the bundled loader reads them and pip's PoCL
   stays unused (skipped when the system registers no driver).
4. Outside it, with the system's /etc/OpenCL/vendors: pocl_check.py --expect
   system checks that nothing was redirected (pip's PoCL is not loaded), and
   `clpad devices` of the wheel lists what the build tree's CLI ($CLPAD_CLI,
   linked to the system's loader) lists.

Exit status: 0, 1 on a failure, 77 (CTest SKIP) with the reason when it
cannot run: no wheel (test_python_wheel skipped), not root or no unshare /
mount namespaces, no venv module.
"""

import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_ctest import (POCL_REQUIREMENTS, common_env, find_wheel, fresh_venv,  # noqa: E402
                       quiet, skip)

VENDORS = "/etc/OpenCL/vendors"
DRIVER_VARIABLES = ("OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "OPENCL_VENDOR_PATH")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True, help="working directory (in the build tree)")
    ap.add_argument("--source", required=True, help="the repository root")
    ap.add_argument("--sanitize", default="", help="sanitizers this build tree uses")
    args = ap.parse_args()
    if args.sanitize:
        skip("this build tree is built with -fsanitize=%s; the wheel is tested from the "
             "plain build" % args.sanitize)
    work = os.path.abspath(args.work)
    source = os.path.abspath(args.source)
    if os.geteuid() != 0:
        skip("not root: hiding /etc/OpenCL/vendors needs a private mount namespace "
             "(unshare --mount)")
    unshare = shutil.which("unshare")
    if unshare is None:
        skip("no unshare program (util-linux) to hide /etc/OpenCL/vendors")
    probe = quiet([unshare, "--mount", "true"])
    if probe.returncode != 0:
        print(probe.stdout)
        skip("unshare --mount does not work here (no mount namespaces in this container?)")
    wheel = find_wheel(work)
    env = common_env(work)
    env.pop("CLPAD_LIBRARY", None)
    env.pop("CLPAD_DEVICE", None)
    build_cli = env.get("CLPAD_CLI", "")

    # 1. a fresh venv with WHEEL[pocl]
    venv = os.path.join(work, "venv-pocl")
    py = fresh_venv(venv)
    wheelhouse = os.path.join(work, "wheelhouse")
    if not any(f.startswith("pocl_binary_distribution-") for f in os.listdir(wheelhouse)):
        skip("no %s in %s (the wheel stage fills it)" % (POCL_REQUIREMENTS[0], wheelhouse))
    r = quiet([py, "-m", "pip", "install", "--quiet", "--no-index", "--find-links", wheelhouse,
               wheel + "[pocl]"], env=env)
    if r.returncode != 0:
        print(r.stdout[-6000:])
        print("pip install %s[pocl] failed" % wheel)
        return 1

    check = os.path.join(source, "python", "tests", "pocl_check.py")
    data = os.path.join(source, "data", "m.npy")
    failed = 0

    # 2. no system driver: an empty /etc/OpenCL/vendors, no driver variables
    empty = os.path.join(work, "empty-vendors")
    shutil.rmtree(empty, ignore_errors=True)
    os.makedirs(empty)
    cache = os.path.join(work, "pocl-cache-pip")  # PoCL's kernels: a fresh cache
    shutil.rmtree(cache, ignore_errors=True)
    nenv = {k: v for k, v in env.items() if k not in DRIVER_VARIABLES}
    nenv.update(POCL_CACHE_DIR=cache, CLPAD_CACHE_DIR="off", CLPAD_SMALL_CALL_BYTES="0")
    hide = 'mount --bind "$1" %s && shift && exec "$@"' % VENDORS
    if not os.path.isdir(VENDORS):
        hide = 'shift && exec "$@"'  # nothing registered: nothing to hide
    r = quiet([unshare, "--mount", "--propagation", "private", "sh", "-c", hide, "sh", empty,
               py, check, "--expect", "pip-pocl", "--data", data, "--work", work],
              cwd=work, env=nenv)
    print(r.stdout, end="")
    failed |= r.returncode != 0

    # 3. the user's choice: OCL_ICD_VENDORS=DIR of copies of the system's .icd files
    registered = sorted(f for f in os.listdir(VENDORS) if f.endswith(".icd")) \
        if os.path.isdir(VENDORS) else []
    if registered:
        mine = os.path.join(work, "user-vendors")
        shutil.rmtree(mine, ignore_errors=True)
        os.makedirs(mine)
        for f in registered:
            shutil.copyfile(os.path.join(VENDORS, f), os.path.join(mine, f))
        uenv = dict(nenv, OCL_ICD_VENDORS=mine, POCL_CACHE_DIR=env.get("POCL_CACHE_DIR", cache))
        r = quiet([unshare, "--mount", "--propagation", "private", "sh", "-c", hide, "sh",
                   empty, py, check, "--expect", "user", "--data", data, "--work", work],
                  cwd=work, env=uenv)
        print(r.stdout, end="")
        failed |= r.returncode != 0

    # 4. the system's drivers, as before
    if not registered and not any(env.get(v) for v in DRIVER_VARIABLES):
        print("the system registers no OpenCL driver: there are no system drivers to "
              "keep using (part 2 covered this machine)")
        return 1 if failed else 0
    senv = dict(env, CLPAD_SMALL_CALL_BYTES="0")
    r = quiet([py, check, "--expect", "system", "--data", data, "--work", work]
              + (["--build-cli", build_cli] if build_cli else []), cwd=work, env=senv)
    print(r.stdout, end="")
    failed |= r.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
