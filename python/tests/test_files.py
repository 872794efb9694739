"""clpad.letterbox_files (the library's stream) and clpad.letterbox given
files and PIL images: path expansion, batches equal to clpad.letterbox of
the images read one by one, the Ultralytics preset against its arithmetic,
skipped and failing files, decode scaling's geometry, the transforms'
source size and box helpers."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import clpad

PIL = pytest.importorskip("PIL.Image", reason="Pillow writes the test's JPEG and PNG files")


def write_images(d, n, seed=0, size=(20, 70)):
    """n PNG, JPEG and PNM files of random sizes under d (and d/sub)."""
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(d, "sub"), exist_ok=True)
    names = []
    for i in range(n):
        h, w = (int(v) for v in rng.integers(size[0], size[1], 2))
        a = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        kind = i % 4
        if kind == 0:
            name = os.path.join(d, "%03d.png" % i)
            PIL.fromarray(a).save(name)
        elif kind == 1:
            name = os.path.join(d, "sub", "%03d.jpg" % i)
            PIL.fromarray(a).save(name, quality=90)
        elif kind == 2:
            name = os.path.join(d, "%03d.png" % i)
            PIL.fromarray(a[..., 0]).save(name)  # grey
        else:
            name = os.path.join(d, "%03d.ppm" % i)
            with open(name, "wb") as f:
                f.write(b"P6\n%d %d\n255\n" % (w, h) + a.tobytes())
        names.append(name)
    return sorted(names)


def collect(it):
    batches, ts, ps = [], [], []
    for b, t, p in it:
        batches.append(b)
        ts += t
        ps += p
    return (np.concatenate(batches) if batches else None), ts, ps


def test_expand_paths(tmp_path):
    d = str(tmp_path)
    names = write_images(d, 8)
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / ".hidden.png").write_bytes(b"")
    assert clpad.expand_paths(d) == names
    assert clpad.expand_paths(tmp_path) == names
    assert clpad.expand_paths(os.path.join(d, "*.png")) == [n for n in names
                                                            if n.endswith(".png")
                                                            and "/sub/" not in n]
    lst = tmp_path / "list.txt"
    lst.write_text("sub\n# a comment\n\n000.png\n")
    assert clpad.expand_paths("@" + str(lst)) == \
        [n for n in names if "/sub/" in n] + [os.path.join(d, "000.png")]
    assert clpad.expand_paths([names[0], names[0]]) == [names[0]] * 2
    with pytest.raises(clpad.ClpadRuntimeError, match="missing.png"):
        clpad.expand_paths(os.path.join(d, "missing.png"))
    with pytest.raises(clpad.ClpadRuntimeError, match="no file matches"):
        clpad.expand_paths(os.path.join(d, "*.bmp"))
    with pytest.raises(TypeError):
        clpad.expand_paths(3)


@pytest.mark.parametrize("batch,workers", [(5, None), (1, 1), (64, 3)])
def test_batches_equal_letterbox(tmp_path, batch, workers):
    names = write_images(str(tmp_path), 13, seed=batch)
    it = clpad.letterbox_files(str(tmp_path), (48, 40), batch=batch, workers=workers,
                               std=255, device="reference")
    assert len(it) == 13 and it.paths == names
    got, ts, ps = collect(it)
    assert ps == names
    want, wt = clpad.letterbox([clpad.imread(n) for n in names], (48, 40), std=255,
                               device="reference")
    assert got.dtype == np.float32 and got.shape == (13, 3, 48, 40)
    assert np.array_equal(got, want)
    assert ts == wt
    # on the default device too (one launch per batch)
    got2, _, _ = collect(clpad.letterbox_files(names, (48, 40), batch=batch, std=255))
    assert np.array_equal(got2, want)


def test_rotated_files_equal_letterbox(tmp_path):
    """EXIF-rotated JPEGs and PNGs (orientations 2..8) among plain ones, of
    sizes that grow and shrink: a decoder thread decodes a rotated one into
    memory it keeps from image to image (the stream's scratch), then turns
    it into the batch's memory. The batches equal clpad.letterbox of
    clpad.imread's arrays."""
    rng = np.random.default_rng(7)
    names = []
    for i, (h, w) in enumerate([(30, 50), (90, 120), (20, 35), (150, 60), (40, 40),
                                (70, 110), (25, 90), (120, 130), (33, 21)]):
        a = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        im = PIL.fromarray(a)
        exif = PIL.Exif()
        exif[0x0112] = 2 + i % 7
        name = str(tmp_path / ("%02d.%s" % (i, "jpg" if i % 3 else "png")))
        im.save(name, exif=exif.tobytes(), **({"quality": 95} if i % 3 else {}))
        names.append(name)
        plain = str(tmp_path / ("%02d_plain.jpg" % i))
        im.save(plain, quality=95)
        names.append(plain)
    names.sort()
    arrays = [clpad.imread(n) for n in names]
    assert any(a.shape[0] == 60 and a.shape[1] == 150 for a in arrays)  # turned
    want, wt = clpad.letterbox(arrays, (64, 48), std=255, device="reference")
    for workers in (1, 2):
        got, ts, ps = collect(clpad.letterbox_files(names, (64, 48), batch=3, workers=workers,
                                                    std=255))
        assert ps == names and ts == wt
        assert np.array_equal(got, want)


def ultralytics_batch(paths, size):
    """Ultralytics' predictor: cv2.imread, LetterBox (auto=False), BGR->RGB,
    HWC->CHW, stack, float32 / 255 -- written with NumPy, OpenCV-free: the
    images come from clpad.imread (RGB), which equals cv2.imread (the imread
    peer test), and the resize is clpad's, which equals cv2.resize (the
    letterbox peer test); what this checks is the preset's normalisation."""
    out = []
    for p in paths:
        a, _ = clpad.letterbox([clpad.imread(p)], size, dtype=np.uint8, device="reference")
        out.append(a[0])
    return np.stack(out).astype(np.float32) / 255


def test_preset_ultralytics(tmp_path):
    names = write_images(str(tmp_path), 6, seed=3)
    got, _, _ = collect(clpad.letterbox_files(str(tmp_path), 64, preset="ultralytics"))
    want = ultralytics_batch(names, 64)
    assert np.array_equal(got, want)  # x / 255 as a division, sample for sample
    # scale=1/255 multiplies by the rounded reciprocal: not the same bits
    mul, _, _ = collect(clpad.letterbox_files(str(tmp_path), 64, scale=1 / 255))
    assert not np.array_equal(mul, want)
    # an option given overrides the preset's
    bgr, _, _ = collect(clpad.letterbox_files(str(tmp_path), 64, preset="ultralytics",
                                              swap_rb=True))
    assert np.array_equal(bgr, want[:, ::-1])
    b, _ = clpad.letterbox(names, 64, preset="Ultralytics")
    assert np.array_equal(b, want)
    with pytest.raises(clpad.ClpadValueError, match="unknown preset 'yolo'.*ultralytics"):
        clpad.letterbox_files(str(tmp_path), 64, preset="yolo")


def test_skip_and_fail(tmp_path):
    names = write_images(str(tmp_path), 9, seed=4)
    bad = names[4]
    with open(bad, "r+b") as f:
        f.truncate(30)
    it = clpad.letterbox_files(str(tmp_path), 32, batch=3, on_error="skip")
    got, ts, ps = collect(it)
    assert ps == [n for n in names if n != bad]
    assert len(it.skipped) == 1 and it.skipped[0][0] == bad and bad in it.skipped[0][1]
    want, _ = clpad.letterbox([clpad.imread(n) for n in ps], 32)
    assert np.array_equal(got, want)
    it = clpad.letterbox_files(str(tmp_path), 32, batch=3)
    seen = []
    with pytest.raises(clpad.ClpadValueError, match=os.path.basename(bad)):
        for _, _, p in it:
            seen += p
    assert seen == names[:3]
    with pytest.raises(StopIteration):  # closed
        next(it)
    with pytest.raises(clpad.ClpadValueError, match="on_error"):
        clpad.letterbox_files(str(tmp_path), 32, on_error="ignore")
    # a file named that does not exist: raised at once, or skipped in its place
    gone = str(tmp_path / "gone.png")
    good = [n for n in names if n != bad]
    with pytest.raises(clpad.ClpadRuntimeError, match="gone.png: No such file"):
        clpad.letterbox_files([good[0], gone], 32)
    lst = tmp_path / "list.txt"
    lst.write_text("gone.png\n")
    it = clpad.letterbox_files([good[0], gone, "@" + str(lst), good[1]], 32, batch=3,
                               on_error="skip")
    assert it.paths == [good[0], gone, gone, good[1]]
    got, _, ps = collect(it)
    assert ps == good[:2]
    assert [p for p, _ in it.skipped] == [gone, gone]
    assert all("No such file or directory" in m for _, m in it.skipped)
    assert np.array_equal(got, clpad.letterbox([clpad.imread(n) for n in good[:2]], 32)[0])


def test_skip_all_raises(tmp_path):
    # on_error="skip" where not one file can be read: an error at the end
    # (as the CLI's "no image could be read", and as channels="keep" says it
    # at once), not an iteration that yields nothing
    (tmp_path / "bad.png").write_bytes(b"not an image")
    bad, gone = str(tmp_path / "bad.png"), str(tmp_path / "gone.png")
    for channels in (3, 1, "keep"):
        it = None
        with pytest.raises(clpad.ClpadRuntimeError, match="none of the 2 files could be read"):
            it = clpad.letterbox_files([gone, bad], 16, batch=1, on_error="skip",
                                       channels=channels)
            for _ in it:
                pytest.fail("a step with no image")
        if it is not None:
            assert [p for p, _ in it.skipped] == [gone, bad]
            with pytest.raises(StopIteration):  # closed
                next(it)
    # one file that can be read among them: its step, no error
    names = write_images(str(tmp_path), 1, seed=2)
    it = clpad.letterbox_files([gone, names[0], bad], 16, batch=1, on_error="skip")
    assert [p for _, _, ps in it for p in ps] == names
    assert [p for p, _ in it.skipped] == [gone, bad]


def test_out_is_reused(tmp_path):
    names = write_images(str(tmp_path), 7, seed=9)
    want, _, _ = collect(clpad.letterbox_files(names, 24, batch=3))
    out = np.empty((3, 3, 24, 24), np.float32)
    got = []
    for b, _, _ in clpad.letterbox_files(names, 24, batch=3, out=out):
        assert b.base is out or b is out
        got.append(b.copy())
    assert np.array_equal(np.concatenate(got), want)
    with pytest.raises(clpad.ClpadValueError, match="out: "):
        clpad.letterbox_files(names, 24, batch=3, out=np.empty((3, 3, 24, 24), np.float16))


def test_arrays_are_recycled_only_when_unreferenced(tmp_path):
    names = write_images(str(tmp_path), 10, seed=10)
    want, _, _ = collect(clpad.letterbox_files(names, 24, batch=2))
    # a plain loop: the array of two steps ago is free again, and reused
    ids, got = set(), []
    for b, _, _ in clpad.letterbox_files(names, 24, batch=2):
        ids.add(id(b))
        got.append(b.copy())
    assert len(ids) <= 3
    assert np.array_equal(np.concatenate(got), want)
    # kept batches (and views of them) are never written again
    kept = [b[:1] for b, _, _ in clpad.letterbox_files(names, 24, batch=2)]
    assert np.array_equal(np.concatenate(kept), want[::2])


def test_close_early_and_context(tmp_path):
    write_images(str(tmp_path), 12, seed=5)
    with clpad.letterbox_files(str(tmp_path), 16, batch=2) as it:
        b, t, p = next(it)
        assert b.shape == (2, 3, 16, 16)
    with pytest.raises(StopIteration):
        next(it)


def test_iterator_from_several_threads(tmp_path):
    # next() from several threads at once: each step goes to one of them,
    # whole (its batch, transforms and paths belong together), every file
    # once; close() from another thread waits for a step under way
    import threading
    names = write_images(str(tmp_path), 24, seed=11)
    want, wt, _ = collect(clpad.letterbox_files(names, 16, batch=1))
    row = {n: k for k, n in enumerate(names)}
    for _ in range(15):
        it = clpad.letterbox_files(names, 16, batch=1, workers=2)
        seen, errors = [], []

        def run():
            try:
                for b, t, p in it:
                    seen.append((b.copy(), t, p))
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)
        threads = [threading.Thread(target=run, daemon=True) for _ in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        assert not any(th.is_alive() for th in threads), "a thread hangs"
        assert errors == []
        assert sorted(p for _, _, ps in seen for p in ps) == names
        for b, t, ps in seen:
            assert np.array_equal(b[0], want[row[ps[0]]]) and t[0] == wt[row[ps[0]]]
    it = clpad.letterbox_files(names, 16, batch=1, workers=2)
    th = threading.Thread(target=lambda: [None for _ in it], daemon=True)
    th.start()
    it.close()
    th.join(60)
    assert not th.is_alive()


def test_batch_beyond_files(tmp_path):
    # batch larger than the number of files: one step of them all, with the
    # memory of those files (here under a 4 GiB address-space limit), not of
    # `batch` images (2**24 of them took 9 GB and then a 48 GiB array)
    import subprocess
    import sys
    names = write_images(str(tmp_path), 3, seed=12)
    code = ("import resource, clpad, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.RLIM_INFINITY))\n"
            "steps = [(b.shape, p) for b, _, p in clpad.letterbox_files(\n"
            "    sys.argv[1:], 8, batch=2**24, device=clpad.REFERENCE)]\n"
            "assert steps == [((3, 3, 8, 8), sys.argv[1:])], steps\n")
    r = subprocess.run([sys.executable, "-c", code] + names, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]


def test_decode_scale_keeps_the_geometry(tmp_path):
    y, x = np.mgrid[0:400, 0:600]
    smooth = [127 + 100 * np.sin(x / 53.0 + k) * np.cos(y / 71.0 - k) for k in range(3)]
    a = np.stack(smooth, -1).astype(np.uint8)  # smooth: scaling barely moves it
    p = str(tmp_path / "big.jpg")
    PIL.fromarray(a).save(p, quality=95)
    exact, te, _ = collect(clpad.letterbox_files(p, 64, dtype=np.uint8))
    scaled, ts, _ = collect(clpad.letterbox_files(p, 64, dtype=np.uint8, decode_scale="auto"))
    assert ts == te  # the geometry of the full image: boxes map to it
    assert ts[0].source_height == 400 and ts[0].source_width == 600
    diff = np.abs(exact.astype(int) - scaled.astype(int))
    assert diff.max() > 0 and diff.mean() < 2  # scaled, and close


def test_letterbox_takes_paths_and_pil(tmp_path):
    names = write_images(str(tmp_path), 4, seed=7)
    arrays = [clpad.imread(n) for n in names]
    want, wt = clpad.letterbox(arrays, 40)
    got, gt = clpad.letterbox(names, 40)
    assert np.array_equal(got, want) and gt == wt
    import pathlib
    got, _ = clpad.letterbox([pathlib.Path(n) for n in names], 40)
    assert np.array_equal(got, want)
    pil = [PIL.open(n) for n in names]
    # every image as RGB: a grey PNG's mode "L" stays one channel, so convert
    got, _ = clpad.letterbox([im.convert("RGB") for im in pil], 40)
    assert np.array_equal(got, want)
    grey = PIL.fromarray(arrays[0][..., 0])
    g, _ = clpad.letterbox([grey], 40)
    assert g.shape == (1, 1, 40, 40)
    pal = PIL.fromarray(arrays[0]).convert("P")
    p, _ = clpad.letterbox([pal], 40)  # other modes: converted to RGB
    assert p.shape == (1, 3, 40, 40)


def test_transform_helpers():
    t = clpad.LetterboxTransform(0.5, 10, 20, 50, 100, 100, 200)
    boxes = np.array([[20, 10, 120, 60], [0, 0, 640, 640]], float)
    src = t.to_source(boxes)
    assert np.array_equal(src[0], [0, 0, 200, 100])
    assert np.array_equal(src[1], [0, 0, 200, 100])  # clipped to the source
    assert np.array_equal(t.to_source(boxes, clip=False)[1], [-40, -20, 1240, 1260])
    assert np.array_equal(t.to_slot(src[:1]), boxes[:1])
    assert np.array_equal(clpad.boxes_to_source(boxes, t), src)
    out = clpad.boxes_to_source([boxes, boxes[:1]], [t, t])
    assert len(out) == 2 and np.array_equal(out[1], src[:1])
    back = clpad.boxes_to_slot(out, [t, t])
    assert np.array_equal(back[1], boxes[:1])
    with pytest.raises(ValueError, match=r"\[\.\.\., 4\]"):
        clpad.boxes_to_source(np.zeros((3, 2)), t)
    with pytest.raises(ValueError, match="2 arrays of boxes for 1"):
        clpad.boxes_to_source([boxes, boxes], [t])
    # without a known source size nothing is clipped
    u = clpad.LetterboxTransform(0.5, 10, 20, 50, 100)
    assert np.array_equal(u.to_source(boxes)[1], [-40, -20, 1240, 1260])


def test_progress_bar(tmp_path, capsys):
    pytest.importorskip("tqdm")
    write_images(str(tmp_path), 5, seed=8)
    collect(clpad.letterbox_files(str(tmp_path), 16, batch=2, progress=True))
    assert "5/5" in capsys.readouterr().err


def test_files_preprocess_imagenet(tmp_path):
    """letterbox_files serves preprocess: preset "imagenet" (and fit,
    resize_shorter, divisor) over files equals clpad.preprocess of the
    images read; a stride is refused (one slot per stream)."""
    d = str(tmp_path)
    names = write_images(d, 6, seed=4, size=(40, 120))
    got, ts, ps = collect(clpad.letterbox_files(d, 32, preset="imagenet", batch=4,
                                                resize_shorter=48))
    want, wt = clpad.preprocess([clpad.imread(p) for p in ps], 32, preset="imagenet",
                                resize_shorter=48)
    assert ps == names
    assert got.tobytes() == want.tobytes()
    assert [t[:5] for t in ts] == [t[:5] for t in wt]
    assert all(t.pad_top <= 0 and t.pad_left <= 0 for t in ts)
    got2, _, _ = collect(clpad.letterbox_files(d, (30, 20), fit="stretch", divisor=255))
    want2, _ = clpad.preprocess([clpad.imread(p) for p in ps], (30, 20), fit="stretch",
                                divisor=255)
    assert got2.tobytes() == want2.tobytes()
    with pytest.raises(TypeError):
        clpad.letterbox_files(d, 32, stride=32)


def test_files_take_pil_version(tmp_path):
    """letterbox_files takes pil_version as clpad.preprocess does: 120 x 120
    files to 80 x 10 (W x H) with pil-bicubic run the vertical pass first
    with 13 (the default) and the horizontal one with 12, each equal to
    preprocess of the images read; a value other than 12 or 13 is refused."""
    d = str(tmp_path)
    rng = np.random.default_rng(5)
    for i in range(3):
        PIL.fromarray(rng.integers(0, 256, (120, 120, 3), dtype=np.uint8)).save(
            os.path.join(d, "%d.png" % i))
    got = {}
    for v in (12, 13, None):
        got[v], _, ps = collect(clpad.letterbox_files(d, (10, 80), fit="stretch",
                                                      interp="pil-bicubic", dtype=np.uint8,
                                                      pil_version=v))
        want, _ = clpad.preprocess([clpad.imread(p) for p in ps], (10, 80), fit="stretch",
                                   interp="pil-bicubic", dtype=np.uint8, pil_version=v)
        assert got[v].tobytes() == want.tobytes(), v
    assert got[12].tobytes() != got[13].tobytes()
    assert got[None].tobytes() == got[13].tobytes()
    with pytest.raises(clpad.ClpadValueError, match="pil_version"):
        clpad.letterbox_files(d, 32, pil_version=11)


def wait_child(pid, seconds, hung):
    """The wait status of child `pid`; killed, and the test failed with
    `hung`, when it has not exited within `seconds`."""
    for _ in range(int(seconds / 0.05)):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    pytest.fail(hung)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_iterator_in_forked_child(tmp_path):
    # A child made by fork() has a copy of the iterator but not its decoder
    # threads: next() raises there, naming the cause, and close() (or the
    # child's exit) returns; both waited forever for those threads. The
    # parent's iterator goes on, whole.
    names = write_images(str(tmp_path), 6, seed=11)
    it = clpad.letterbox_files(names, 16, batch=2)
    first = next(it)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            try:
                next(it)
            except clpad.ClpadValueError as e:
                code = 0 if "a child made by fork()" in str(e) else 2
            it.close()
        finally:
            os._exit(code)
    status = wait_child(pid, 20, "the forked child hung in the iterator")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    rest = [p for _, _, ps in it for p in ps]
    assert first[2] + rest == names


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
def test_iterator_forked_while_in_use(tmp_path):
    # fork() while another thread holds the iterator's lock (a step under
    # way): the child's copy of the lock stays held by a thread it does not
    # have, so next(), close() and the child's exit must not take it
    names = write_images(str(tmp_path), 4, seed=12)
    it = clpad.letterbox_files(names, 16, batch=2)
    held, release = threading.Event(), threading.Event()

    def hold():
        with it._lock:
            held.set()
            release.wait(30)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(30)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            signal.alarm(20)
            try:
                next(it)
            except clpad.ClpadValueError as e:
                code = 0 if "a child made by fork()" in str(e) else 2
            it.close()
            del it
        finally:
            os._exit(code)
    release.set()
    t.join()
    status = wait_child(pid, 25, "the forked child hung on the iterator's lock")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    assert [p for _, _, ps in it for p in ps] == names

