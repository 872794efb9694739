"""One set of rules at every entry point: what letterbox and pad_stack take
as their inputs (one image alone, None from cv2.imread), the mode names and
pad values every function takes alike, the strings that cross into C (no
NUL), large_pads' spelling as the CLI's, the rank limit in both forms of
clpad.pad, and a positional mode sequence."""

import numpy as np
import pytest

import clpad

IMG = np.arange(10 * 20 * 3, dtype=np.uint8).reshape(10, 20, 3)


# ---- letterbox's and pad_stack's inputs -------------------------------------

@pytest.mark.parametrize("one", [IMG, IMG[..., 0]])
def test_letterbox_refuses_one_image_alone(one):
    # a 3-D array used to be read as H one-channel images: (10, 1, 32, 32)
    with pytest.raises(clpad.ClpadValueError, match=r"pass \[image\] for one image"):
        clpad.letterbox(one, 32)
    batch, t = clpad.letterbox([one], 32)
    assert batch.shape == (1, one.shape[2] if one.ndim == 3 else 1, 32, 32) and len(t) == 1
    four = np.stack([IMG, IMG])
    assert clpad.letterbox(four, 32)[0].shape == (2, 3, 32, 32)
    with pytest.raises(clpad.ClpadValueError, match="5 axes"):
        clpad.letterbox(four[None], 32)


def test_letterbox_names_a_missing_image():
    with pytest.raises(clpad.ClpadValueError,
                       match=r"^images\[1\] is None \(cv2.imread returns None"):
        clpad.letterbox([IMG, None], 32)
    # a file name is read (clpad.imread): a missing one is named
    with pytest.raises(clpad.ClpadRuntimeError, match=r"^photo.jpg: cannot open"):
        clpad.letterbox(["photo.jpg"], 32)
    with pytest.raises(clpad.ClpadValueError, match=r"images\[0\] is a dict"):
        clpad.letterbox([{}], 32)
    with pytest.raises(clpad.ClpadValueError, match=r"images\[0\] is not an image array"):
        clpad.letterbox([[[1, 2], [3]]], 32)
    with pytest.raises(TypeError):
        clpad.letterbox("photo.jpg", 32)


def test_pad_stack_names_its_inputs():
    with pytest.raises(clpad.ClpadValueError, match=r"^tensors\[1\] is None"):
        clpad.pad_stack([np.arange(3), None])
    with pytest.raises(clpad.ClpadValueError, match=r"^tensors\[1\]: unsupported dtype"):
        clpad.pad_stack([np.arange(3), np.array([{}])])
    with pytest.raises(clpad.ClpadValueError, match=r"^tensors\[0\]"):
        clpad.pad_stack([[[1, 2], [3]]])


# ---- mode names and pad values: the same at every entry point ---------------

REPEATED = [("np:reflect", "reflect"), ("np:symmetric", "symmetric"),
            ("cv:REFLECT", "symmetric"), ("cv:REFLECT_101", "reflect"),
            ("cv:DEFAULT", "reflect")]


@pytest.mark.parametrize("name,instead", REPEATED)
def test_batch_functions_refuse_a_meaning_they_lack(name, instead):
    # numpy's and OpenCV's mirrors repeat beyond the limits; the batch
    # functions mirror once, so these names are refused with the mode they
    # have (which gives the same result within the limits), never dropped
    want = "give '%s', the same result within them" % instead
    with pytest.raises(clpad.ClpadValueError, match=want) as e:
        clpad.pad_stack([np.arange(3), np.arange(5)], mode=name)
    assert "large" not in str(e.value)
    with pytest.raises(clpad.ClpadValueError, match=want):
        clpad.letterbox([IMG], 32, mode=name)
    # clpad.pad has large pads: the name keeps its meaning there
    assert clpad.pad(np.arange(3), 4, name).shape == (11,)


@pytest.mark.parametrize("name,mode", [("cv:REPLICATE", "edge"), ("torch:circular", "wrap"),
                                       ("np:edge", "edge"), ("tf:REFLECT", "reflect"),
                                       ("ov:symmetric", "symmetric"), ("np:wrap", "wrap")])
def test_batch_functions_take_names_with_their_meaning(name, mode):
    ts = [np.arange(3, dtype=np.int16), np.arange(5, dtype=np.int16)]
    assert (clpad.pad_stack(ts, mode=name)[0].tobytes()
            == clpad.pad_stack(ts, mode=mode)[0].tobytes())
    assert (clpad.letterbox([IMG], (16, 32), mode=name)[0].tobytes()
            == clpad.letterbox([IMG], (16, 32), mode=mode)[0].tobytes())


def test_pad_stack_reflect_limit_offers_what_it_has():
    with pytest.raises(clpad.ClpadValueError, match="pad-and-stack mirrors once") as e:
        clpad.pad_stack([np.arange(3), np.arange(9)], mode="reflect")
    assert "large" not in str(e.value)


def test_a_value_with_another_mode_is_refused_everywhere():
    x = np.arange(3)
    for call in (lambda: clpad.pad(x, 1, "edge", constant_values=5),
                 lambda: clpad.pad_stack([x, np.arange(5)], mode="edge", value=5),
                 lambda: clpad.letterbox([IMG], 32, mode="edge", value=5),
                 lambda: clpad.letterbox([IMG], 32, mode="wrap", value=[0, 9, 0])):
        with pytest.raises(clpad.ClpadValueError, match="used only by mode='constant'"):
            call()
    # a zero is accepted and ignored, as clpad.pad has always done
    assert clpad.pad_stack([x, np.arange(5)], mode="edge", value=0)[0].shape == (2, 5)
    assert clpad.letterbox([IMG], 32, mode="edge", value=0)[0].shape == (1, 3, 32, 32)
    # letterbox's default (114) belongs to constant and is no given value
    assert clpad.letterbox([IMG], 32, mode="edge")[0].shape == (1, 3, 32, 32)
    lb, _ = clpad.letterbox([IMG], (10, 40), dtype=np.uint8)
    assert lb[0, :, :, 0].tolist() == [[114] * 10] * 3  # the default pad value


# ---- strings that cross into C ----------------------------------------------

@pytest.mark.parametrize("call,what", [
    (lambda: clpad.pad(np.arange(3), 1, "edge\0junk"), "mode"),
    (lambda: clpad.pad(np.arange(3), pads_begin=1, mode="wrap\0"), "mode"),
    (lambda: clpad.pad(np.arange(3), 1, value="5\0junk"), "value"),
    (lambda: clpad.pad(np.arange(3), 1, device="pthread\0junk"), "device"),
    (lambda: clpad.pad(np.arange(3), 1, large_pads="numpy\0"), "large_pads"),
    (lambda: clpad.pad_stack([np.arange(3)], mode="edge\0"), "mode"),
    (lambda: clpad.pad_stack([np.arange(3)], placement="center\0"), "placement"),
    (lambda: clpad.letterbox([IMG], 8, interp="nearest\0x"), "interp"),
    (lambda: clpad.letterbox([IMG], 8, layout="NHWC\0"), "layout"),
    (lambda: clpad.window_geometry("conv", [5], 3, 1, onnx="SAME_UPPER\0"), "onnx"),
])
def test_a_nul_in_a_name_is_refused(call, what):
    # C would read only what comes before the NUL ("edge\0junk" as "edge")
    with pytest.raises(clpad.ClpadValueError, match="^%s .* contains a NUL character" % what):
        call()


def test_large_pads_spelling_is_the_clis():
    x = np.arange(3)
    want = np.pad(x, 4, "reflect")
    for spelling in ("numpy", "NUMPY", "NumPy"):
        assert clpad.pad(x, 4, "reflect", large_pads=spelling).tobytes() == want.tobytes()
    with pytest.raises(clpad.ClpadValueError, match="exceeds the reflect limit"):
        clpad.pad(x, 4, "np:reflect", large_pads="ERROR")
    with pytest.raises(clpad.ClpadValueError, match="large pads 'yes': expected numpy"):
        clpad.pad(x, 4, "reflect", large_pads="yes")
    with pytest.raises(TypeError):
        clpad.pad(x, 4, "reflect", large_pads=True)


# ---- clpad.pad's forms ------------------------------------------------------

def test_rank_9_is_a_value_error_in_both_forms():
    x = np.zeros([1] * 9, np.uint8)
    for call in (lambda: clpad.pad(x, 1), lambda: clpad.pad(x, 1, "edge"),
                 lambda: clpad.pad(x, [(0, 0)] * 9),
                 lambda: clpad.pad(x, pads_begin=[0] * 9, pads_end=[0] * 9),
                 lambda: clpad.pad(x, [0] * 9, [0] * 9)):
        with pytest.raises(clpad.ClpadValueError, match="9 axes; clpad takes rank 0..8"):
            call()


def test_positional_mode_sequence_is_the_mode():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    got = clpad.pad(x, 1, ("edge", "wrap"))
    want = clpad.pad(x, 1, mode=("edge", "wrap"))
    assert got.tobytes() == want.tobytes()
    assert clpad.pad(x, 1, ["reflect"]).tobytes() == np.pad(x, 1, "reflect").tobytes()
    # integers are still the OpenVINO positional form's pads_end
    assert clpad.pad(x, [0, 1], [0, 1]).shape == (2, 5)
    with pytest.raises(TypeError, match="mixes mode names and numbers"):
        clpad.pad(x, 1, ("edge", 1))
