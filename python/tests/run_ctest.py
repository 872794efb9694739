#!/usr/bin/env python3
"""Run the Python package's tests as CTest does (label `python`).

    python3 run_ctest.py --work DIR --package PYTHON_DIR [-- PYTEST_ARGS...]

1. Create (once) a virtual environment DIR/venv with --system-site-packages.
2. Install what is missing in it with pip: numpy, pytest, and the build tools
   for an offline build (setuptools >= 61, wheel).
3. Copy the package (pyproject.toml, README.md, clpad/, tests/) to DIR/src,
   so that the source tree gets no build/ or egg-info, and
   `pip install --no-build-isolation --no-index --no-deps` it into the venv.
4. Run pytest on the copied tests, outside the source, with the installed
   package (CLPAD_LIBRARY and CLPAD_CLI come from the environment).

Exit status: pytest's; 77 (CTest SKIP) with the reason on stdout when the
environment cannot run the tests: no venv module, pip cannot install numpy or
pytest (no network), or the library is built with sanitizers.
"""

import argparse
import os
import shutil
import subprocess
import sys

SKIP = 77


def skip(reason):
    print("SKIP: %s" % reason, flush=True)
    sys.exit(SKIP)


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw)


def venv_python(venv):
    if os.name == "nt":
        return os.path.join(venv, "Scripts", "python.exe")
    return os.path.join(venv, "bin", "python")


PROBE = r"""
import importlib, sys
missing = []
for name in ("numpy", "pytest", "setuptools", "wheel"):
    try:
        mod = importlib.import_module(name)
    except Exception:
        missing.append(name)
        continue
    if name == "setuptools":
        v = tuple(int(p) for p in mod.__version__.split(".")[:2] if p.isdigit())
        if v < (61, 0):
            missing.append("setuptools>=61")
print(" ".join(missing))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True, help="working directory (in the build tree)")
    ap.add_argument("--package", required=True, help="the python/ directory of the source")
    ap.add_argument("--sanitize", default="", help="sanitizers the library is built with")
    ap.add_argument("pytest_args", nargs="*")
    args = ap.parse_args()

    if args.sanitize:
        skip("libclpad is built with -fsanitize=%s; an uninstrumented python cannot load it "
             "without preloading the sanitizer runtime" % args.sanitize)
    lib = os.environ.get("CLPAD_LIBRARY", "")
    if lib and not os.path.exists(lib):
        print("CLPAD_LIBRARY=%s does not exist" % lib)
        return 1

    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    venv = os.path.join(work, "venv")
    py = venv_python(venv)

    # 1. the virtual environment, kept between runs
    if not os.path.exists(py) or run([py, "-c", "import sys"]).returncode != 0:
        shutil.rmtree(venv, ignore_errors=True)
        r = run([sys.executable, "-m", "venv", "--system-site-packages", venv],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            print(r.stdout)
            skip("cannot create a virtual environment with %s -m venv (on Debian/Ubuntu: "
                 "apt-get install python3-venv)" % sys.executable)

    # 2. numpy, pytest and the build tools
    r = run([py, "-c", PROBE], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        return 1
    missing = r.stdout.split()
    if missing:
        r = run([py, "-m", "pip", "install", "--disable-pip-version-check", "--quiet",
                 "--timeout", "20", "--retries", "1"] + missing,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            print(r.stdout[-4000:])
            skip("pip could not install %s (no network or no package index?)"
                 % " ".join(missing))

    # 3. the package, built from a copy
    src = os.path.join(work, "src")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(os.path.join(args.package, name), src)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "*.egg-info",
                                    "build", "libclpad.so*", "libclpad*.dylib", "clpad.dll")
    shutil.copytree(os.path.join(args.package, "clpad"), os.path.join(src, "clpad"),
                    ignore=ignore)
    shutil.copytree(os.path.join(args.package, "tests"), os.path.join(src, "tests"),
                    ignore=ignore)
    r = run([py, "-m", "pip", "install", "--disable-pip-version-check", "--quiet",
             "--no-build-isolation", "--no-index", "--no-deps", "--force-reinstall", src],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout[-6000:])
        print("pip install of the clpad package failed")
        return 1

    # 4. pytest, on the installed package
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    r = run([py, "-c", "import clpad, sys; print(clpad.__file__); "
             "print('library', clpad.library_path(), clpad.library_version())"],
            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout, end="")
    if r.returncode != 0:
        return 1
    installed = os.path.realpath(r.stdout.splitlines()[0])
    if not installed.startswith(os.path.realpath(venv) + os.sep):
        print("clpad was imported from %s, not from the venv's installed copy" % installed)
        return 1
    r = run([py, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs",
             os.path.join(src, "tests")] + args.pytest_args, cwd=work, env=env)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
