"""Shared fixtures: the clpad CLI (for cross-checks), .npy round trips, and
optional packages (PyOpenCL, Dask, mypy) that CTest makes required."""

import importlib
import os
import subprocess

import numpy as np
import pytest

import clpad


def pytest_report_header(config):
    try:
        info = clpad.context_info()
        where = "%s (%s)%s" % (info["device"], info["platform"],
                               ", CPU fallback" if info["fallback"] else "")
        return "clpad %s from %s on %s" % (clpad.library_version(), clpad.library_path(),
                                           where)
    except Exception as e:  # the tests themselves will fail with the details
        return "clpad: library not usable: %s" % e


class Cli:
    """Runs the `clpad` program on .npy files in a temporary directory."""

    def __init__(self, path, tmp_path):
        self.path = path
        self.tmp = tmp_path
        self.n = 0

    def run(self, args, x):
        """(exit status, output array or None, stderr) of `clpad ARGS in.npy out.npy`."""
        self.n += 1
        src = self.tmp / ("in%d.npy" % self.n)
        dst = self.tmp / ("out%d.npy" % self.n)
        np.save(src, x)
        r = subprocess.run([self.path] + list(args) + ["--quiet", str(src), str(dst)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=120)
        out = np.load(dst) if r.returncode == 0 else None
        return r.returncode, out, r.stderr

    def text(self, args):
        r = subprocess.run([self.path] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        return r.returncode, r.stdout, r.stderr


@pytest.fixture
def cli(tmp_path):
    path = os.environ.get("CLPAD_CLI", "")
    if not path or not os.path.exists(path):
        pytest.skip("CLPAD_CLI is not set to the clpad program: no CLI cross-check")
    return Cli(path, tmp_path)


def csv(values):
    return ",".join(str(int(v)) for v in values)


def required(what):
    """Whether CLPAD_TEST_REQUIRE (set by CTest, which installs these packages)
    names `what`: then a missing package fails the test instead of skipping it."""
    return what in os.environ.get("CLPAD_TEST_REQUIRE", "").split(",")


def need(module, what):
    """Import `module`, or skip (fail when `what` is required) with the reason."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if required(what):
            pytest.fail("%s is required here (CLPAD_TEST_REQUIRE) but cannot be imported: %s"
                        % (module, e))
        pytest.skip("%s is not installed: %s" % (module, e))


@pytest.fixture(scope="session")
def cl_queue():
    """A PyOpenCL command queue on the device clpad uses by default."""
    cl = need("pyopencl", "pyopencl")
    need("pyopencl.array", "pyopencl")
    info = clpad.context_info()
    if info["fallback"]:
        pytest.skip("no OpenCL device for clpad: no PyOpenCL test")
    try:
        platforms = cl.get_platforms()
    except cl.Error as e:
        pytest.fail("clpad sees %s but PyOpenCL finds no platform: %s" % (info["device"], e))
    for p in platforms:
        for d in p.get_devices():
            if d.name.strip() == info["device"].strip():
                ctx = cl.Context([d])
                return cl.CommandQueue(ctx)
    pytest.fail("PyOpenCL does not list clpad's device %r" % info["device"])
