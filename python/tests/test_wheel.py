"""What the wheel installs besides the library: the `clpad` command (console
script and `python -m clpad`), the documents the docstrings cite, and the
rule that picks PoCL from pip when the system registers no OpenCL driver
(clpad._icd; run_pocl.py checks it end to end with the drivers hidden)."""

import importlib
import os
import re
import signal
import subprocess
import sys

import pytest

import clpad
import clpad.__main__ as clpad_main
from clpad import _icd

from conftest import required

HERE = os.path.dirname(os.path.abspath(clpad.__file__))


def installed_program():
    """The C program inside the installed package, or skip (fail under CTest,
    which installs the wheel) in a source checkout."""
    exe = clpad_main.program()
    if not os.path.exists(exe):
        if required("bundled"):
            pytest.fail("no %s in the installed package" % exe)
        pytest.skip("clpad runs from a source tree (no CLI inside the package)")
    return exe


def console_script():
    exe = os.path.join(os.path.dirname(sys.executable), "clpad")
    if not os.path.exists(exe):
        if required("bundled"):
            pytest.fail("pip installed no clpad console script beside %s" % sys.executable)
        pytest.skip("no clpad console script beside %s" % sys.executable)
    return exe


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120, **kw)


@pytest.mark.parametrize("how", ["console script", "python -m clpad"])
def test_the_clpad_command(how):
    installed_program()
    cmd = [console_script()] if how == "console script" else [sys.executable, "-m", "clpad"]
    r = run(cmd + ["--help"])
    assert r.returncode == 0 and r.stdout.startswith("usage: clpad <command>"), r
    r = run(cmd + ["--version"])
    assert r.returncode == 0 and r.stdout.strip() == "clpad " + clpad.__version__, r
    r = run(cmd + ["no-such-command"])
    assert r.returncode == 2 and "unknown command 'no-such-command'" in r.stderr, r
    r = run(cmd)
    assert r.returncode == 2 and r.stderr.startswith("usage: clpad"), r


def test_the_program_runs_with_sigpipe_at_its_default():
    """Python ignores SIGPIPE; the program it execs must not inherit that: with
    the reader gone, `clpad --help | head -c0` ends the program by SIGPIPE, as
    a program started from a shell ends."""
    installed_program()
    rd, wr = os.pipe()
    os.close(rd)
    try:
        # restore_signals=False: the python started here keeps its own
        # (ignored) SIGPIPE, as a console script's interpreter has it.
        p = subprocess.run([sys.executable, "-m", "clpad", "--help"], stdout=wr,
                           stderr=subprocess.PIPE, timeout=60, restore_signals=False)
    finally:
        os.close(wr)
    assert p.returncode == -signal.SIGPIPE, (p.returncode, p.stderr)


def test_a_missing_program_is_named(monkeypatch, capsys):
    monkeypatch.setattr(clpad_main, "program", lambda: "/nonexistent/_bin/clpad")
    assert clpad_main.main(["--help"]) == 127
    err = capsys.readouterr().err
    assert "/nonexistent/_bin/clpad" in err and "no clpad program" in err


def test_cited_documents_are_installed():
    """Every docs/NAME.md a module of the package cites is in the installed
    package's docs/ directory (the wheel ships docs/ as clpad/docs/)."""
    cited = set()
    for f in sorted(os.listdir(HERE)):
        if f.endswith(".py"):
            with open(os.path.join(HERE, f), encoding="utf-8") as fh:
                cited |= set(re.findall(r"docs/([A-Za-z0-9_-]+\.md)", fh.read()))
    assert "letterbox.md" in cited and "modes.md" in cited
    docs = os.path.join(HERE, "docs")
    if not os.path.isdir(docs):
        if required("bundled"):
            pytest.fail("no docs/ in the installed package %s" % HERE)
        pytest.skip("clpad runs from a source tree (docs/ is beside python/)")
    missing = sorted(c for c in cited if not os.path.isfile(os.path.join(docs, c)))
    assert not missing, "cited but not installed in %s: %s" % (docs, missing)


# --- the driver rule (clpad._icd) ----------------------------------------------


@pytest.fixture
def rule(monkeypatch, tmp_path):
    """An empty system vendors directory and a fake pip PoCL library."""
    vendors = tmp_path / "vendors"
    vendors.mkdir()
    lib = tmp_path / "libpocl-fake.so"
    lib.write_bytes(b"")
    monkeypatch.setattr(_icd, "SYSTEM_VENDORS", str(vendors))
    monkeypatch.setattr(_icd, "pip_pocl_library", lambda: str(lib))
    return vendors, str(lib)


def test_rule_points_the_loader_at_pip_pocl_without_system_drivers(rule):
    vendors, lib = rule
    env = {"PATH": "/bin"}
    assert _icd.configure(env) == lib
    assert env == {"PATH": "/bin", "OCL_ICD_VENDORS": lib, "OCL_ICD_FILENAMES": lib}
    (vendors / "README").write_text("not an .icd file")
    env = {}
    assert _icd.configure(env) == lib and env["OCL_ICD_VENDORS"] == lib


def test_rule_keeps_system_drivers(rule):
    vendors, lib = rule
    (vendors / "intel.icd").write_text("/opt/intel/libintelocl.so\n")
    env = {}
    assert _icd.configure(env) is None and env == {}


def test_rule_counts_an_absent_vendors_directory_as_no_driver(rule, monkeypatch):
    vendors, lib = rule
    monkeypatch.setattr(_icd, "SYSTEM_VENDORS", str(vendors / "absent"))
    assert _icd.system_icd_files() == []
    env = {}
    assert _icd.configure(env) == lib and env["OCL_ICD_VENDORS"] == lib


@pytest.mark.parametrize("var", _icd.USER_VARIABLES)
def test_rule_keeps_the_users_choice(rule, var):
    env = {var: "/somewhere"}
    assert _icd.configure(env) is None and env == {var: "/somewhere"}
    env = {var: ""}  # set but empty: no choice
    assert _icd.configure(env) == rule[1]


def test_rule_without_the_pocl_extra(rule, monkeypatch):
    monkeypatch.setattr(_icd, "pip_pocl_library", lambda: None)
    env = {}
    assert _icd.configure(env) is None and env == {}


def test_pip_pocl_library_reads_the_distributions_icd_file(monkeypatch, tmp_path):
    """The library named by pocl-binary-distribution's .icd file, relative to
    that file's directory (as the package ships it)."""
    metadata = importlib.import_module("importlib.metadata")
    libs = tmp_path / "pyopencl" / ".libs"
    libs.mkdir(parents=True)
    (libs / "pocl.icd").write_text("libpocl-0123abcd.so\n")

    class Dist:
        files = ["pyopencl/.libs/pocl.icd", "pocl_binary_distribution/__init__.py"]

        @staticmethod
        def locate_file(f):
            return tmp_path / f

    monkeypatch.setattr(metadata, "distribution", lambda name: Dist)
    assert _icd.pip_pocl_library() is None  # the library is missing
    (libs / "libpocl-0123abcd.so").write_bytes(b"")
    assert _icd.pip_pocl_library() == str(libs / "libpocl-0123abcd.so")

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    assert _icd.pip_pocl_library() is None
