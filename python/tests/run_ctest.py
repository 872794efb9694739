#!/usr/bin/env python3
"""The Python package's CTest (label `python`): build the wheel as a user's
`pip wheel .` does, install it in a fresh virtual environment, and run the
tests there.

    python3 run_ctest.py --work DIR --source REPO [--sanitize S] [-- PYTEST_ARGS...]

1. A wheelhouse under DIR (kept between runs) gets, once, from the package
   index: the build backend (scikit-build-core) and what the tests use (numpy,
   pytest, pyopencl, dask[distributed], mypy, ml_dtypes). Later runs need no
   network.
2. `pip wheel REPO` builds the wheel once per run, with build isolation from
   the wheelhouse only (no index); the CMake build directory is kept under DIR,
   so a rebuild compiles only what changed.
3. A fresh virtual environment (no system site-packages) gets the wheel and
   the test requirements from the wheelhouse.
4. With CLPAD_LIBRARY unset, `import clpad` must load the library inside the
   installed package and print numpy.pad's reflect example; then pytest runs
   REPO/python/tests against the installed package (CLPAD_TEST_LIBRARY names
   the build tree's library for the override test; CLPAD_TEST_REQUIRE makes
   the PyOpenCL, Dask and mypy tests fail rather than skip).

Exit status: pytest's; 77 (CTest SKIP) with the reason on stdout when the
environment cannot run the tests: no venv module, the package index is
unreachable and the wheelhouse is incomplete, or the library of this build
tree is built with sanitizers (the Python package is tested in the plain
build; an uninstrumented python cannot load an instrumented library).
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

SKIP = 77

# What the wheel build and the tests need, from the package index.
BUILD_REQUIREMENTS = ["scikit-build-core>=0.10"]
TEST_REQUIREMENTS = ["numpy", "pytest", "pyopencl", "dask[distributed]", "mypy", "ml_dtypes",
                     "pillow", "tqdm"]


def skip(reason):
    print("SKIP: %s" % reason, flush=True)
    sys.exit(SKIP)


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw)


def quiet(cmd, **kw):
    t0 = time.monotonic()
    r = run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    print("  (%.1f s, exit %d)" % (time.monotonic() - t0, r.returncode), flush=True)
    return r


def venv_python(venv):
    if os.name == "nt":
        return os.path.join(venv, "Scripts", "python.exe")
    return os.path.join(venv, "bin", "python")


def fill_wheelhouse(py, wheelhouse, env):
    """Download the requirements once; a stamp names what the wheelhouse holds."""
    wanted = "\n".join(BUILD_REQUIREMENTS + TEST_REQUIREMENTS)
    stamp = os.path.join(wheelhouse, "requirements.txt")
    if os.path.exists(stamp) and open(stamp).read() == wanted:
        return
    os.makedirs(wheelhouse, exist_ok=True)
    # The build backend's own requirements are resolved for any interpreter:
    # it runs in pip's isolated build environment, made with the same python.
    r = quiet([py, "-m", "pip", "download", "--disable-pip-version-check", "--quiet",
               "--timeout", "30", "--retries", "1", "--only-binary=:all:", "-d", wheelhouse]
              + BUILD_REQUIREMENTS + TEST_REQUIREMENTS, env=env)
    if r.returncode != 0:
        print(r.stdout[-3000:])
        skip("cannot download %s from the package index (unreachable?) into %s"
             % (", ".join(BUILD_REQUIREMENTS + TEST_REQUIREMENTS), wheelhouse))
    with open(stamp, "w") as f:
        f.write(wanted)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True, help="working directory (in the build tree)")
    ap.add_argument("--source", required=True, help="the repository root (has pyproject.toml)")
    ap.add_argument("--sanitize", default="", help="sanitizers this build tree uses")
    ap.add_argument("pytest_args", nargs="*")
    args = ap.parse_args()

    if args.sanitize:
        skip("this build tree is built with -fsanitize=%s; the Python package is tested in "
             "the plain build (an uninstrumented python cannot load an instrumented "
             "library)" % args.sanitize)
    work = os.path.abspath(args.work)
    source = os.path.abspath(args.source)
    os.makedirs(work, exist_ok=True)
    wheelhouse = os.path.join(work, "wheelhouse")
    dist = os.path.join(work, "dist")
    venv = os.path.join(work, "venv")
    env = dict(os.environ, PIP_CACHE_DIR=os.path.join(work, "pip-cache"),
               PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    # The installed package must find its own library.
    build_lib = env.pop("CLPAD_LIBRARY", "")

    r = quiet([sys.executable, "-c", "import venv, ensurepip"])
    if r.returncode != 0:
        skip("%s has no venv/ensurepip module (on Debian/Ubuntu: apt-get install "
             "python3-venv)" % sys.executable)

    # 1. the wheelhouse
    fill_wheelhouse(sys.executable, wheelhouse, env)
    offline = ["--no-index", "--find-links", wheelhouse]

    # 2. the wheel, once per run
    shutil.rmtree(dist, ignore_errors=True)
    r = quiet([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", dist] + offline
              + ["--config-settings=build-dir=" + os.path.join(work, "wheel-build"), source],
              cwd=work, env=env)
    if r.returncode != 0:
        print(r.stdout[-8000:])
        print("pip wheel of the repository failed")
        return 1
    wheels = glob.glob(os.path.join(dist, "clpad-*.whl"))
    if len(wheels) != 1:
        print("expected one clpad wheel in %s, found %s" % (dist, wheels))
        return 1
    print("wheel:", os.path.basename(wheels[0]))

    # 3. a fresh virtual environment with the wheel
    shutil.rmtree(venv, ignore_errors=True)
    r = quiet([sys.executable, "-m", "venv", venv])
    if r.returncode != 0:
        print(r.stdout)
        skip("cannot create a virtual environment with %s -m venv" % sys.executable)
    py = venv_python(venv)
    r = quiet([py, "-m", "pip", "install", "--quiet"] + offline + [wheels[0]]
              + TEST_REQUIREMENTS, env=env)
    if r.returncode != 0:
        print(r.stdout[-6000:])
        print("pip install of the wheel and the test requirements failed")
        return 1

    # 4. import with no environment variable, then the tests
    r = quiet([py, "-c", "import clpad, numpy as np; print(clpad.__file__); "
               "print(clpad.library_path()); "
               "print(clpad.pad(np.arange(6), 2, mode='reflect'))"], cwd=work, env=env)
    print(r.stdout, end="")
    lines = r.stdout.splitlines()
    if r.returncode != 0 or len(lines) < 3:
        return 1
    site = os.path.realpath(venv) + os.sep
    if not os.path.realpath(lines[0]).startswith(site):
        print("clpad was imported from %s, not from the fresh venv" % lines[0])
        return 1
    if not os.path.realpath(lines[1]).startswith(site):
        print("libclpad was loaded from %s, not from the installed package" % lines[1])
        return 1
    if lines[2] != "[2 1 0 1 2 3 4 5 4 3]":
        print("numpy.pad's reflect example printed %r" % lines[2])
        return 1

    if build_lib:
        env["CLPAD_TEST_LIBRARY"] = build_lib
    env["CLPAD_TEST_REQUIRE"] = "pyopencl,dask,mypy,bundled"
    env["MYPY_CACHE_DIR"] = os.path.join(work, "mypy-cache")
    t0 = time.monotonic()
    r = run([py, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs", "--durations=8",
             os.path.join(source, "python", "tests")] + args.pytest_args, cwd=work, env=env)
    print("pytest: %.1f s" % (time.monotonic() - t0))
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
