"""Devices, contexts, library lookup, dtypes."""

import os
import subprocess
import sys

import numpy as np
import pytest

import clpad
from conftest import required


def test_devices():
    devs = clpad.devices()
    assert isinstance(devs, list)
    for d in devs:
        assert d.spec == "%d:%d" % (d.platform_index, d.device_index)
        assert d.name and d.type
    if devs:
        out = clpad.pad(np.arange(4, dtype=np.int32), 1, 1, mode="edge", device=devs[0])
        assert out.tolist() == [0, 0, 1, 2, 3, 3]
        out = clpad.pad(np.arange(4, dtype=np.int32), 1, 1, mode="edge", device=devs[0].spec)
        assert out.tolist() == [0, 0, 1, 2, 3, 3]


def test_context_is_created_once_and_reused():
    clpad.pad(np.zeros(2), 1, 1)
    first = clpad._context.context(None)
    clpad.pad(np.zeros(3), 1, 1)
    assert clpad._context.context(None) is first
    assert clpad._context.context("") is first
    ref = clpad._context.context(clpad.REFERENCE)
    assert ref is clpad._context.context("Reference") and ref is not first
    assert clpad.context_info(clpad.REFERENCE)["fallback"] is True


def test_default_device_is_opencl_when_there_is_one():
    info = clpad.context_info()
    if not clpad.devices():
        assert info["fallback"]
        pytest.skip("no OpenCL device: the default context is the CPU reference path")
    assert not info["fallback"] and info["device"]
    clpad.warmup()


def test_library_version():
    assert clpad.library_version().split(".")[0] == clpad.__version__.split(".")[0]
    assert os.path.exists(clpad.library_path()) or "/" not in clpad.library_path()


def run_python(code, **env_changes):
    env = dict(os.environ)
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=60)


def other_library():
    """A library file other than the one loaded (CTest: the build tree's), for
    the CLPAD_LIBRARY override tests."""
    return os.environ.get("CLPAD_TEST_LIBRARY") or os.environ.get("CLPAD_LIBRARY")


def test_library_inside_the_installed_package():
    """Installed by pip: the package loads the library it carries, with no
    environment variable."""
    here = os.path.dirname(os.path.abspath(clpad.__file__))
    bundled = [f for f in os.listdir(here) if f.startswith("libclpad")]
    if not bundled:
        if required("bundled"):
            pytest.fail("no libclpad inside the installed package %s" % here)
        pytest.skip("clpad runs from a source tree (no library inside the package)")
    r = run_python("import clpad; print(clpad.library_path())", CLPAD_LIBRARY=None,
                   LD_LIBRARY_PATH=None)
    assert r.returncode == 0, r.stdout
    assert os.path.dirname(r.stdout.strip()) == here


def test_library_lookup_by_env_var():
    lib = other_library()
    if not lib:
        pytest.skip("no CLPAD_TEST_LIBRARY / CLPAD_LIBRARY to load instead")
    code = "import clpad; print(clpad.library_path())"
    r = run_python(code, CLPAD_LIBRARY=os.path.dirname(os.path.abspath(lib)))
    assert r.returncode == 0, r.stdout
    assert os.path.dirname(r.stdout.strip()) == os.path.dirname(os.path.abspath(lib))
    r = run_python("import clpad\ntry:\n  clpad.devices()\nexcept OSError as e:\n"
                   "  print('OSError', e)\n", CLPAD_LIBRARY="/nonexistent/libclpad.so.0")
    assert "OSError" in r.stdout and "CLPAD_LIBRARY" in r.stdout


def test_import_needs_no_library():
    r = run_python("import clpad; print(clpad.__version__)", CLPAD_LIBRARY="/nonexistent/x.so")
    assert r.returncode == 0 and r.stdout.strip() == clpad.__version__


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
                                   "int64", "uint64", "float16", "float32", "float64"])
def test_every_dtype_round_trips(dtype):
    x = np.arange(6).reshape(2, 3).astype(dtype)
    out = clpad.pad(x, 0, 0)
    assert out.dtype == x.dtype and np.array_equal(out, x) and out is not x


def test_library_next_to_the_package(tmp_path):
    lib = other_library()
    if not lib or not os.path.isfile(lib):
        pytest.skip("no CLPAD_TEST_LIBRARY / CLPAD_LIBRARY set to a library file")
    import shutil

    pkg = tmp_path / "clpad"
    shutil.copytree(os.path.dirname(clpad.__file__), pkg,
                    ignore=shutil.ignore_patterns("__pycache__", "libclpad*"))
    shutil.copy2(lib, pkg / "libclpad.so.0")
    r = run_python("import sys; sys.path.insert(0, %r); import clpad; "
                   "print(clpad.__file__); print(clpad.library_path())" % str(tmp_path),
                   CLPAD_LIBRARY=None, LD_LIBRARY_PATH=None)
    assert r.returncode == 0, r.stdout
    mod, path = r.stdout.split()
    assert mod.startswith(str(tmp_path)) and path == str(pkg / "libclpad.so.0")


def test_output_blocks_are_reused_only_once_free():
    """Outputs of 1 MiB and more come from a cache of mapped blocks: a freed
    output's block serves the next call of the same size, a live one never."""
    import gc

    x = np.arange(512 * 1024, dtype=np.float32).reshape(512, 1024)   # 2 MiB
    y = clpad.pad(x, 1, "edge")
    want = np.pad(x, 1, "edge")
    addr = y.ctypes.data
    z = clpad.pad(x * 2, 1, "edge")               # y is alive: another block
    assert z.ctypes.data != addr
    assert np.array_equal(y, want) and np.array_equal(z, np.pad(x * 2, 1, "edge"))
    view = y[1:3]
    del y
    gc.collect()
    w = clpad.pad(x, 1, "edge")                    # a view keeps the block in use
    w_addr = w.ctypes.data
    assert w_addr != addr and np.array_equal(view, want[1:3])
    del view, w
    gc.collect()
    v = clpad.pad(x, 1, "edge")                    # both free now: one of them again
    assert v.ctypes.data in (addr, w_addr) and v.ctypes.data != z.ctypes.data
    assert np.array_equal(v, want) and np.array_equal(z, np.pad(x * 2, 1, "edge"))


def test_output_cache_can_be_turned_off():
    r = run_python("import gc, numpy as np, clpad\n"
                   "x = np.zeros((512, 1024), np.float32)\n"
                   "y = clpad.pad(x, 1); base = y.base; del y; gc.collect()\n"
                   "print(type(base).__name__, len(clpad._memory._returned))\n",
                   CLPAD_OUTPUT_CACHE_MB="0")
    assert r.returncode == 0, r.stdout
    assert r.stdout.split() == ["NoneType", "0"], r.stdout
