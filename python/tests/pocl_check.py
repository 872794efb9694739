"""Run by run_pocl.py with the python of a venv where `WHEEL[pocl]` is
installed: which OpenCL drivers the installed clpad uses, and that the
package and its `clpad` command run on them.

    python pocl_check.py --expect pip-pocl|user|system --data M.NPY --work DIR
                         [--build-cli CLPAD]

--expect pip-pocl: the system registers no driver (run_pocl.py hides
/etc/OpenCL/vendors): the package must point its bundled ICD loader at pip's
PoCL, list its device, and run clpad.pad's kernels on it (CLPAD_SMALL_CALL_BYTES
=0, CLPAD_CACHE_DIR=off: every call launches, every program is built by PoCL
into a fresh POCL_CACHE_DIR); the console script, `python -m clpad` and
`clpad pad --verify` must work.
--expect user: no system driver either, but OCL_ICD_VENDORS names a directory
of .icd files (the user's choice): the bundled loader reads it, clpad keeps
it, and pip's PoCL is not loaded.
--expect system: the system's drivers are used as before: no redirection,
pip's PoCL not loaded, and `clpad devices` lists what the build tree's CLI
(linked to the system's ICD loader) lists.

Prints one line per check; exit status 1 when any fails.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

import clpad
from clpad import _icd

failures = []
# The environment this check started with: the commands run with it, not with
# what clpad has set in this process (they must apply the rule themselves).
START_ENV = dict(os.environ)


def check(ok, what, detail=""):
    print("%s: %s%s" % ("ok" if ok else "FAIL", what, (" (%s)" % detail) if detail else ""),
          flush=True)
    if not ok:
        failures.append(what)


def mapped():
    """The files mapped into this process."""
    with open("/proc/self/maps") as f:
        return {line.split(None, 5)[5].strip() for line in f if len(line.split(None, 5)) == 6}


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=300, env=START_ENV, **kw)


def pads_on(device):
    """clpad.pad on `device` against numpy.pad: every mode on float32, and
    uint8 (each dtype is a program PoCL builds: seconds each)."""
    rng = np.random.default_rng(29)
    bad = []
    cases = [(np.float32, m) for m in ("constant", "edge", "reflect", "symmetric", "wrap")]
    for dt, mode in cases + [(np.uint8, "reflect")]:
        x = rng.integers(0, 100, size=(5, 7, 3)).astype(dt)
        pw = ((2, 1), (3, 4), (0, 2))
        got = clpad.pad(x, pw, mode=mode, device=device)
        if not np.array_equal(got, np.pad(x, pw, mode=mode)):
            bad.append("%s %s" % (np.dtype(dt).name, mode))
    return bad


def cli_checks(exe, data, work, expect_platform):
    """The console script and `python -m clpad`."""
    for cmd in ([exe, "--help"], [sys.executable, "-m", "clpad", "--help"]):
        r = run(cmd)
        check(r.returncode == 0 and r.stdout.startswith("usage: clpad"),
              "`%s` prints the usage" % " ".join(os.path.basename(c) for c in cmd),
              "exit %d, %r" % (r.returncode, (r.stdout + r.stderr)[:200]))
    r = run([exe, "--version"])
    check(r.returncode == 0 and r.stdout.strip() == "clpad " + clpad.__version__,
          "`clpad --version` is the package's", r.stdout.strip() or r.stderr.strip())
    r = run([exe, "devices"])
    check(r.returncode == 0 and expect_platform in r.stdout, "`clpad devices` lists %s"
          % expect_platform, (r.stdout + r.stderr).strip()[:300])
    out = os.path.join(work, "pocl-check-out.npy")
    if os.path.exists(out):
        os.remove(out)
    r = run([exe, "pad", "--mode", "reflect", "--pads-begin", "1,2", "--pads-end", "2,1",
             "--verify", data, out])
    ok = r.returncode == 0 and os.path.exists(out)
    same = ok and np.array_equal(np.load(out), np.pad(np.load(data), ((1, 2), (2, 1)),
                                                      mode="reflect"))
    check(same, "`clpad pad --mode reflect` on %s equals numpy.pad" % os.path.basename(data),
          r.stderr.strip()[-300:])
    check("verify: the OpenCL kernel's result is identical" in r.stderr
          and expect_platform in r.stderr,
          "`clpad pad --verify` ran the kernel on %s" % expect_platform, r.stderr.strip()[-400:])
    return r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect", choices=("pip-pocl", "user", "system"), required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--build-cli", default="")
    args = ap.parse_args()
    exe = os.path.join(os.path.dirname(sys.executable), "clpad")
    check(os.path.exists(exe), "the venv has the clpad console script", exe)
    pip_pocl = _icd.pip_pocl_library()
    check(pip_pocl is not None and pip_pocl.startswith(sys.prefix),
          "pocl-binary-distribution's PoCL is installed in the venv", str(pip_pocl))

    before = {v: os.environ.get(v) for v in _icd.USER_VARIABLES}
    devs = clpad.devices()  # loads the library: the rule of clpad._icd applies here
    maps = mapped()
    here = os.path.dirname(os.path.abspath(clpad.__file__))
    loaders = sorted(m for m in maps if os.path.basename(m).startswith("libOpenCL"))
    check(any(m.startswith(os.path.dirname(here) + "/clpad.libs/") for m in loaders),
          "the wheel's OpenCL ICD loader (clpad.libs/) is loaded", ", ".join(loaders))

    if args.expect == "pip-pocl":
        check(len(loaders) == 1, "no other OpenCL ICD loader is loaded", ", ".join(loaders))
        icds = [f for f in os.listdir(_icd.SYSTEM_VENDORS) if f.endswith(".icd")] \
            if os.path.isdir(_icd.SYSTEM_VENDORS) else []
        check(not icds, "the system registers no OpenCL driver here", ", ".join(icds))
        check(_icd.chosen == pip_pocl and os.environ.get("OCL_ICD_VENDORS") == pip_pocl,
              "clpad pointed the ICD loader at pip's PoCL",
              "chosen %s, OCL_ICD_VENDORS=%s" % (_icd.chosen, os.environ.get("OCL_ICD_VENDORS")))
        check(len(devs) >= 1 and all("Portable Computing Language" == d.platform for d in devs),
              "clpad.devices() lists PoCL's device", repr(devs))
        check(pip_pocl in maps, "pip's PoCL library is loaded", str(pip_pocl))
        if devs:
            info = clpad.context_info(devs[0])
            check(not info["fallback"], "a context on %s" % devs[0].name, repr(info))
            cache = os.environ.get("POCL_CACHE_DIR", "")
            bad = pads_on(devs[0])
            check(not bad, "clpad.pad equals numpy.pad on pip's PoCL (5 modes on float32, uint8)",
                  ", ".join(bad))
            built = [f for _, _, fs in os.walk(cache) for f in fs] if cache else []
            check(len(built) > 0, "PoCL built clpad's kernels (files in POCL_CACHE_DIR)",
                  "%d files in %s" % (len(built), cache))
        cli_checks(exe, args.data, args.work, "Portable Computing Language")
    elif args.expect == "user":
        after = {v: os.environ.get(v) for v in _icd.USER_VARIABLES}
        check(_icd.chosen is None and after == before,
              "clpad kept the user's OCL_ICD_VENDORS", "%s -> %s" % (before, after))
        check(pip_pocl not in maps, "pip's PoCL library is not loaded")
        check(len(devs) >= 1, "the bundled loader lists the devices of the .icd files in "
              "OCL_ICD_VENDORS=%s" % before["OCL_ICD_VENDORS"], repr(devs))
    else:
        after = {v: os.environ.get(v) for v in _icd.USER_VARIABLES}
        check(_icd.chosen is None and after == before,
              "clpad left the ICD loader's configuration alone",
              "chosen %s, %s -> %s" % (_icd.chosen, before, after))
        check(pip_pocl not in maps, "pip's PoCL library is not loaded")
        r = run([exe, "devices"])
        check(r.returncode == 0, "`clpad devices` runs", r.stderr.strip())
        if args.build_cli:
            b = run([args.build_cli, "devices"])
            check(b.returncode == 0 and b.stdout == r.stdout,
                  "the wheel's `clpad devices` lists what the build tree's (system loader) lists",
                  "wheel:\n%s\nbuild tree:\n%s" % (r.stdout, b.stdout))
        listed = ["%s: %s" % (d.platform, d.name) for d in devs]
        print("system devices: %s" % ("; ".join(listed) or "none"))
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
