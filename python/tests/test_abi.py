"""clpad._abi, the C API's constants and struct layouts the package reads,
against the library it loaded: every value the same, every constant and
struct field of include/ present, and the module as
scripts/gen_python_abi.py writes it from this library."""

import ctypes
import os
import subprocess
import sys

import pytest

import clpad
from clpad import _abi, _lib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GENERATOR = os.path.join(ROOT, "scripts", "gen_python_abi.py")


def test_constants_are_the_librarys():
    lib = _lib.lib()
    v = ctypes.c_int64()
    for name, value in _abi.CONSTANTS.items():
        assert lib.clpad_api_constant(name.encode(), ctypes.byref(v)) == 0, name
        assert v.value == value, name
    assert lib.clpad_api_constant(b"CLPAD_NO_SUCH_NAME", ctypes.byref(v)) == \
        _lib.constant("CLPAD_ERR_PARSE")


def test_layouts_are_the_librarys():
    lib = _lib.lib()
    off, size = ctypes.c_size_t(), ctypes.c_size_t()
    for struct, (total, fields) in _abi.STRUCTS.items():
        assert lib.clpad_api_layout(struct.encode(), None, ctypes.byref(off),
                                    ctypes.byref(size)) == 0, struct
        assert size.value == total, struct
        for field, (o, s) in fields.items():
            assert lib.clpad_api_layout(struct.encode(), field.encode(), ctypes.byref(off),
                                        ctypes.byref(size)) == 0, (struct, field)
            assert (off.value, size.value) == (o, s), (struct, field)


def test_structs_follow_the_layouts():
    for cls in (_lib.DeviceInfo, _lib.RunInfo, _lib.WindowResult, _lib.PadOptions,
                _lib.ContextConfig):
        total, fields = _abi.STRUCTS[cls.__name__]
        assert ctypes.sizeof(cls) == total, cls.__name__
        for name, _ in cls._fields_:
            if not name.startswith("_gap"):
                assert getattr(cls, name).offset == fields[name][0], (cls.__name__, name)


def test_every_struct_is_built_from_its_declarations():
    """Each struct of include/, built from its fields' C declarations alone
    (clpad._abi.FIELDS): every field, at the library's offset and size, in a
    struct of the library's size; one class per struct, nested ones too."""
    for cname, (total, layout) in _abi.STRUCTS.items():
        cls = _lib.struct(cname)
        assert cls is _lib.struct(cname), cname
        assert ctypes.sizeof(cls) == total, cname
        named = [n for n, _ in cls._fields_ if not n.startswith("_gap")]
        assert named == [f for f, _, _ in _abi.FIELDS[cname]], cname
        for name in named:
            field = getattr(cls, name)
            assert (field.offset, field.size) == layout[name], (cname, name)
    options = _lib.struct("clpad_stream_options")
    assert options.read.size == ctypes.sizeof(_lib.struct("clpad_read_options"))
    assert _lib.struct("clpad_pad_form").axes.size == ctypes.sizeof(ctypes.c_void_p)


def test_a_field_of_an_unknown_type_is_refused(monkeypatch):
    monkeypatch.setitem(_abi.FIELDS, "clpad_run_info", [("size", "long double", 0)])
    monkeypatch.setattr(_lib, "_structs", {})
    with pytest.raises(ImportError, match="clpad_run_info.size has the C type long double"):
        _lib.struct("clpad_run_info")


def test_a_field_of_another_size_is_refused():
    with pytest.raises(ImportError, match="clpad_run_info.kernel_ns is 8 bytes"):
        _lib.struct("clpad_run_info", [("kernel_ns", ctypes.c_uint32)])


@pytest.mark.skipif(not os.path.exists(GENERATOR), reason="not run from a source tree")
def test_module_is_generated_from_this_library():
    r = subprocess.run([sys.executable, GENERATOR, "--check", _lib.path(), _abi.__file__],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_errors_carry_the_argument_and_item():
    import numpy as np
    with pytest.raises(clpad.ClpadValueError) as e:
        clpad.pad_stack([np.zeros((3, 3), np.int32), np.zeros((1, 1), np.int32)],
                        mode="reflect")
    assert e.value.argument == "tensors" and e.value.index == 1, str(e.value)
    assert e.value.status_name == "CLPAD_ERR_INVALID_PADS"
    with pytest.raises(clpad.ClpadValueError) as e:
        clpad.pad(np.zeros(4, np.float32), pads_begin=[1], pads_end=[9], mode="reflect")
    assert e.value.argument == "pads_end" and e.value.index == 0, str(e.value)
