"""Type hints and documentation: mypy --strict on the examples and on the
package, and help() text that gives shapes, modes, errors and the semantics."""

import inspect
import os
import subprocess
import sys

import pytest

import clpad
from conftest import need

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.normpath(os.path.join(HERE, "..", "examples"))


def test_py_typed_is_shipped():
    assert os.path.exists(os.path.join(os.path.dirname(clpad.__file__), "py.typed"))


def test_mypy_strict_on_the_examples_and_the_package(tmp_path):
    need("mypy", "mypy")
    files = sorted(os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES) if f.endswith(".py"))
    assert len(files) >= 3
    env = dict(os.environ)
    cache = env.get("MYPY_CACHE_DIR", str(tmp_path / "mypy-cache"))
    for target in (files, ["-p", "clpad"]):
        r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", cache,
                            "--no-error-summary"] + target,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           cwd=str(tmp_path), env=env, timeout=600)
        assert r.returncode == 0, r.stdout


def test_mypy_catches_a_wrong_call(tmp_path):
    """The hints mean something: a wrong mode and a wrong return type fail."""
    need("mypy", "mypy")
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\nimport clpad\n"
                   "y: str = clpad.pad(np.zeros(3), 1)\n"
                   "clpad.pad(np.zeros(3), 1, mode='mirror')\n")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                        "--cache-dir", os.environ.get("MYPY_CACHE_DIR", str(tmp_path / "c")),
                        str(bad)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, cwd=str(tmp_path), timeout=600)
    assert r.returncode != 0
    assert "bad.py:3" in r.stdout and "bad.py:4" in r.stdout, r.stdout


def doc(obj):
    return inspect.getdoc(obj) or ""


def test_help_pad_gives_shapes_modes_errors_and_source():
    text = doc(clpad.pad)
    for needle in ("pad_width", "pads_begin", "pads_end", "constant_values", "max(before + D "
                   "+ after, 0)", "constant", "edge", "reflect", "symmetric", "wrap",
                   "D-1", "ClpadValueError", "ClpadRuntimeError", "TypeError",
                   "OpenVINO's Pad-12", "numpy.pad", "pyopencl"):
        assert needle in text, needle


PUBLIC = [clpad, clpad.pad, clpad.space_to_batch, clpad.batch_to_space, clpad.window_geometry,
          clpad.WindowGeometry, clpad.devices, clpad.Device, clpad.context_info, clpad.warmup,
          clpad.library_path, clpad.library_version, clpad.ClpadError, clpad.ClpadValueError,
          clpad.ClpadRuntimeError, clpad.letterbox, clpad.LetterboxTransform,
          clpad.LetterboxTransform.to_source, clpad.pad_stack,
          clpad.LetterboxTransform.to_slot, clpad.letterbox_files, clpad.LetterboxFiles,
          clpad.expand_paths, clpad.boxes_to_source, clpad.boxes_to_slot]


@pytest.mark.parametrize("obj", PUBLIC, ids=lambda o: getattr(o, "__name__", str(o)))
def test_every_public_object_is_documented_in_the_projects_own_words(obj):
    text = doc(obj)
    assert len(text) > 20, obj
    for banned in ("SPEC", "shared/", "issue ", "seed 0"):
        assert banned not in text, (obj, banned)
