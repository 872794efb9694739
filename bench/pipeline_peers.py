#!/usr/bin/env python3
"""From a folder of photographs to [N, 3, 640, 640] float32 batches: clpad
against the pipelines people use today, in the same run.

    python3 bench/pipeline_peers.py --photos PHOTOS --folder FOLDER [--runs 3]

PHOTOS: the sample photographs of tests/peer/fetch_photos.py (shipped in the
scikit-image, scikit-learn, matplotlib and Ultralytics wheels). FOLDER (made
once from them, --make-folder) holds 232 files: the 33 photographs as
shipped, and variants of them: JPEG re-encodes (quality 90), halved (quality
80) and centre crops (70 %, quality 95), grey JPEGs, JPEGs with an EXIF
orientation of 3, 6 or 8 (the pixels as stored, the tag added), RGBA PNGs,
16-bit PNGs, doubled JPEGs of the eight JPEG photographs, and two 4000 x 3000
(12 MP) JPEGs made by upscaling the largest photographs (no 12 MP photograph
is shipped in those wheels: these two are upscaled, not real).

Contenders, each turning the folder into batches of --batch images
[n, 3, 640, 640] float32 (every batch made, none kept), timed in a fresh
process per run (median and range of --runs, peak RSS of that process):
  ultralytics      Ultralytics' predictor step: cv2.imread, LetterBox
                   (auto=False: r, round, copyMakeBorder 114), np.stack,
                   BGR -> RGB, HWC -> CHW, float32, / 255
  ultralytics-thr  the same per image (imread + LetterBox) in a ThreadPool of
                   one thread per core
  blob             cv2.imread, then cv2.dnn.blobFromImagesWithParams
                   (letterbox padding mode, 1/255, swapRB, 114)
  pillow           Image.open, exif_transpose, convert RGB, resize BILINEAR
                   to the letterbox size, paste on a 114 canvas, NumPy / 255
  pillow-draft     the same with Image.draft (JPEG DCT scaling to at least the
                   letterbox size): the peer of --decode-scale auto
  clpad            clpad.letterbox_files(folder, 640, preset="ultralytics")
  clpad-scaled     the same with decode_scale="auto"
  clpad-out        clpad with out=: one batch array written at every step
                   (no allocation per batch; a consumer that uses each batch
                   at once)
  clpad-save       clpad, each batch written into one OUT.npy where the CLI
                   writes its own (--cli-out): the .npy header
                   (np.lib.format), then every batch's bytes as it comes
                   (file.write), closed in the timed window; the CLI's job
                   done from Python (faster here than open_memmap with a
                   slice assigned per batch: 1.99-2.24 s against 1.27-1.49 s)
  clpad-cli        clpad letterbox --preset ultralytics --size 640,640 FOLDER
                   OUT.npy (--cli-out; on tmpfs by default: /dev/shm)
  write-only       not a contender: the time this machine takes to write the
                   CLI's output file alone (the same bytes to the same folder,
                   batch by batch from one reused buffer, no decoding): the
                   floor under clpad-cli's time
Then every contender's batches are compared with ultralytics', sample by
sample: the count of differing float32 samples and the largest difference
(in 1/255 units). Prints one table.

bench/pipeline_peers.sh makes the venv, fetches the photographs and runs this.
"""

import argparse
import json
import os
import resource
import statistics
import struct
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 640
CONTENDERS = ["ultralytics", "ultralytics-thr", "blob", "pillow", "pillow-draft", "clpad",
              "clpad-scaled", "clpad-out", "clpad-save", "clpad-cli", "write-only"]

# ---------------------------------------------------------------------------
# The folder
# ---------------------------------------------------------------------------


def with_orientation(jpg, orientation):
    """A JPEG with an EXIF APP1 segment (Orientation) right after SOI."""
    tiff = b"MM" + struct.pack(">HI", 42, 8) + struct.pack(">H", 1) + \
        struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    payload = b"Exif\0\0" + tiff
    return jpg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpg[2:]


def make_folder(photos, folder):
    import cv2
    os.makedirs(folder, exist_ok=True)
    names = sorted(f for f in os.listdir(photos) if f.lower().endswith((".png", ".jpg")))
    made = 0

    def put(name, data):
        nonlocal made
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        made += 1

    def jpeg(a, q):
        return cv2.imencode(".jpg", a, [cv2.IMWRITE_JPEG_QUALITY, q])[1].tobytes()

    colour = []
    for i, n in enumerate(names):
        src = os.path.join(photos, n)
        with open(src, "rb") as f:
            put("orig_" + n, f.read())
        a = cv2.imread(src, cv2.IMREAD_COLOR)
        colour.append((n, a))
        stem = os.path.splitext(n)[0]
        h, w = a.shape[:2]
        put("q90_%s.jpg" % stem, jpeg(a, 90))
        put("half_%s.jpg" % stem,
            jpeg(cv2.resize(a, (max(w // 2, 1), max(h // 2, 1)), interpolation=cv2.INTER_AREA),
                 80))
        ch, cw = int(h * 0.7), int(w * 0.7)
        put("crop_%s.jpg" % stem, jpeg(a[(h - ch) // 2:(h - ch) // 2 + ch,
                                         (w - cw) // 2:(w - cw) // 2 + cw], 95))
        put("grey_%s.jpg" % stem, jpeg(cv2.cvtColor(a, cv2.COLOR_BGR2GRAY), 90))
        put("exif%d_%s.jpg" % ((3, 6, 8)[i % 3], stem), with_orientation(jpeg(a, 92),
                                                                      (3, 6, 8)[i % 3]))
    for n, a in colour[:12]:
        stem = os.path.splitext(n)[0]
        h, w = a.shape[:2]
        alpha = np.linspace(60, 255, w, dtype=np.uint8)[None, :].repeat(h, 0)
        put("rgba_%s.png" % stem, cv2.imencode(".png", np.dstack([a, alpha]))[1].tobytes())
    for n, a in colour[12:24]:
        stem = os.path.splitext(n)[0]
        put("deep_%s.png" % stem,
            cv2.imencode(".png", a.astype(np.uint16) * 257 + 3)[1].tobytes())
    jpgs = [(n, a) for n, a in colour if n.lower().endswith(".jpg")]
    for n, a in jpgs:
        h, w = a.shape[:2]
        put("double_%s" % n, jpeg(cv2.resize(a, (2 * w, 2 * h), interpolation=cv2.INTER_CUBIC),
                                  85))
    big = sorted(colour, key=lambda t: -t[1].shape[0] * t[1].shape[1])[:2]
    for n, a in big:
        put("12mp_upscaled_%s.jpg" % os.path.splitext(n)[0],
            jpeg(cv2.resize(a, (4000, 3000), interpolation=cv2.INTER_CUBIC), 90))
    return made


def folder_files(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if not f.startswith("."))


# ---------------------------------------------------------------------------
# Contenders: each yields batches [n, 3, SIZE, SIZE] float32
# ---------------------------------------------------------------------------


def ul_letterbox(im, new_shape=(SIZE, SIZE)):
    """Ultralytics' LetterBox (auto=False, scaleup=True, center=True)."""
    import cv2
    shape = im.shape[:2]
    r = min(new_shape[0] / shape[0], new_shape[1] / shape[1])
    new_unpad = int(round(shape[1] * r)), int(round(shape[0] * r))
    dw, dh = (new_shape[1] - new_unpad[0]) / 2, (new_shape[0] - new_unpad[1]) / 2
    if shape[::-1] != new_unpad:
        im = cv2.resize(im, new_unpad, interpolation=cv2.INTER_LINEAR)
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    return cv2.copyMakeBorder(im, top, bottom, left, right, cv2.BORDER_CONSTANT,
                              value=(114, 114, 114))


def ul_batch(ims):
    """Ultralytics' predictor preprocess of letterboxed BGR images."""
    x = np.stack(ims)[..., ::-1].transpose((0, 3, 1, 2))
    return np.ascontiguousarray(x).astype(np.float32) / 255


def chunks(files, batch):
    for i in range(0, len(files), batch):
        yield files[i:i + batch]


def run_ultralytics(files, batch, threads=False):
    import cv2
    if threads:
        pool = ThreadPoolExecutor(os.cpu_count())
        one = lambda f: ul_letterbox(cv2.imread(f))  # noqa: E731
        for part in chunks(files, batch):
            yield ul_batch(list(pool.map(one, part)))
        pool.shutdown()
    else:
        for part in chunks(files, batch):
            yield ul_batch([ul_letterbox(cv2.imread(f)) for f in part])


def run_blob(files, batch):
    import cv2
    p = cv2.dnn.Image2BlobParams()
    p.scalefactor = (1 / 255, 1 / 255, 1 / 255, 1 / 255)
    p.size = (SIZE, SIZE)
    p.mean = (0, 0, 0, 0)
    p.swapRB = True
    p.ddepth = cv2.CV_32F
    p.datalayout = cv2.dnn.DNN_LAYOUT_NCHW
    p.paddingmode = cv2.dnn.DNN_PMODE_LETTERBOX
    p.borderValue = (114, 114, 114, 0)
    for part in chunks(files, batch):
        yield cv2.dnn.blobFromImagesWithParams([cv2.imread(f) for f in part], p)


def run_pillow(files, batch, draft=False):
    from PIL import Image, ImageOps
    Image.MAX_IMAGE_PIXELS = None
    for part in chunks(files, batch):
        out = np.empty((len(part), SIZE, SIZE, 3), np.uint8)
        for k, f in enumerate(part):
            with Image.open(f) as im:
                w, h = im.size
                o = (im.getexif() or {}).get(0x0112, 1)
                if o in (5, 6, 7, 8):
                    w, h = h, w
                r = min(SIZE / h, SIZE / w)
                nw, nh = int(round(w * r)), int(round(h * r))
                if draft and im.format == "JPEG":
                    im.draft("RGB", (nw, nh) if o not in (5, 6, 7, 8) else (nh, nw))
                im = ImageOps.exif_transpose(im).convert("RGB")
                if im.size != (nw, nh):
                    im = im.resize((nw, nh), Image.BILINEAR)
                canvas = Image.new("RGB", (SIZE, SIZE), (114, 114, 114))
                canvas.paste(im, ((SIZE - nw) // 2, (SIZE - nh) // 2))
                out[k] = np.asarray(canvas)
        yield np.ascontiguousarray(out.transpose(0, 3, 1, 2)).astype(np.float32) / 255


def run_clpad(folder, batch, scaled=False, reuse=False):
    import clpad
    out = np.empty((batch, 3, SIZE, SIZE), np.float32) if reuse else None
    for b, _, _ in clpad.letterbox_files(folder, SIZE, batch=batch, preset="ultralytics",
                                         decode_scale="auto" if scaled else None, out=out):
        yield b


def run_clpad_save(folder, batch, n, out):
    """clpad's batches written into one .npy as they come; yields them."""
    import clpad
    with open(out, "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<f4", "fortran_order": False, "shape": (n, 3, SIZE, SIZE)})
        for b, _, _ in clpad.letterbox_files(folder, SIZE, batch=batch, preset="ultralytics"):
            f.write(memoryview(b).cast("B"))
            yield b


def contender(name, files, folder, batch):
    if name == "ultralytics":
        return run_ultralytics(files, batch)
    if name == "ultralytics-thr":
        return run_ultralytics(files, batch, threads=True)
    if name == "blob":
        return run_blob(files, batch)
    if name == "pillow":
        return run_pillow(files, batch)
    if name == "pillow-draft":
        return run_pillow(files, batch, draft=True)
    if name == "clpad":
        return run_clpad(folder, batch)
    if name == "clpad-scaled":
        return run_clpad(folder, batch, scaled=True)
    if name == "clpad-out":
        return run_clpad(folder, batch, reuse=True)
    raise ValueError(name)


def cli_command(args, folder, out):
    return [args.cli, "letterbox", "-q", "--preset", "ultralytics", "--size",
            "%d,%d" % (SIZE, SIZE), "--batch", str(args.batch), folder, out] \
        if args.cli_files else \
        [args.cli, "letterbox", "-q", "--preset", "ultralytics", "--size",
         "%d,%d" % (SIZE, SIZE), folder, out]


def one_run(args):
    """In a fresh process: time one contender, print JSON."""
    files = folder_files(args.folder)
    if args.one == "write-only":
        batch_bytes = args.batch * 3 * SIZE * SIZE * 4
        buf = np.full(batch_bytes // 4, 0.5, np.float32)  # touched before the clock starts
        out = os.path.join(args.cli_out, "pipeline_peers_out.npy")
        t = time.perf_counter()
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, b"\x93NUMPY" + bytes(121))  # a header's 128 bytes
        left = len(files) * 3 * SIZE * SIZE * 4
        view = memoryview(buf).cast("B")
        while left:
            left -= os.write(fd, view[:min(left, batch_bytes)])
        os.close(fd)
        dt = time.perf_counter() - t
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        os.remove(out)
    elif args.one == "clpad-save":
        out = os.path.join(args.cli_out, "pipeline_peers_out.npy")
        t = time.perf_counter()
        n = sum(len(b) for b in run_clpad_save(args.folder, args.batch, len(files), out))
        dt = time.perf_counter() - t
        assert n == len(files), (n, len(files))
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        os.remove(out)
    elif args.one == "clpad-cli":
        out = os.path.join(args.cli_out, "pipeline_peers_out.npy")
        t = time.perf_counter()
        subprocess.run(cli_command(args, args.folder, out), check=True)
        dt = time.perf_counter() - t
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        for f in os.listdir(args.cli_out):
            if f.startswith("pipeline_peers_out"):
                os.remove(os.path.join(args.cli_out, f))
    else:
        t = time.perf_counter()
        n = 0
        for b in contender(args.one, files, args.folder, args.batch):
            n += len(b)
        dt = time.perf_counter() - t
        assert n == len(files), (n, len(files))
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": dt, "images": len(files), "maxrss_kb": rss}))


def exactness(args, files):
    """Differing samples of each contender against ultralytics, batch by batch."""
    import clpad
    result = {}
    ref = list(run_ultralytics(files, args.batch))
    for name in CONTENDERS[1:]:
        if name not in args.only or name == "write-only":
            continue
        whole = None
        if name == "clpad-cli":
            out = os.path.join(args.cli_out, "pipeline_peers_exact.npy")
            subprocess.run(cli_command(args, args.folder, out), check=True)
            if args.cli_files:
                parts = sorted(f for f in os.listdir(args.cli_out)
                               if f.startswith("pipeline_peers_exact-"))
                got = [np.load(os.path.join(args.cli_out, f)) for f in parts]
                for f in parts:
                    os.remove(os.path.join(args.cli_out, f))
            else:
                whole = np.load(out, mmap_mode="r")
                got = [whole[i:i + args.batch] for i in range(0, len(whole), args.batch)]
        elif name == "clpad-save":  # the file written, read back
            out = os.path.join(args.cli_out, "pipeline_peers_exact.npy")
            for _ in run_clpad_save(args.folder, args.batch, len(files), out):
                pass
            whole = np.load(out, mmap_mode="r")
            got = [whole[i:i + args.batch] for i in range(0, len(whole), args.batch)]
        else:
            got = contender(name, files, args.folder, args.batch)
        diff, worst = 0, 0.0
        for r, g in zip(ref, got):
            g = np.asarray(g)
            if g.shape != r.shape:
                diff = -1
                break
            ne = r != g
            diff += int(ne.sum())
            if ne.any():
                worst = max(worst, float(np.abs(r - g).max()) * 255)
        if whole is not None:
            del whole, got
            os.remove(out)
        result[name] = (diff, worst)
    del clpad
    return result, int(sum(r.size for r in ref))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", help="the fetched sample photographs (fetch_photos.py DEST/photos)")
    ap.add_argument("--folder", required=True, help="the bench folder (made from --photos)")
    ap.add_argument("--make-folder", action="store_true", help="(re)make FOLDER and exit")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--only", default=",".join(CONTENDERS))
    ap.add_argument("--cli", default=os.path.join(HERE, "..", "build", "clpad"))
    ap.add_argument("--cli-out", default="/dev/shm" if os.path.isdir("/dev/shm") else "/tmp",
                    help="where the CLI writes its output (tmpfs by default)")
    ap.add_argument("--cli-files", action="store_true", help="the CLI writes --batch files")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--no-exact", action="store_true", help="skip the exactness pass")
    args = ap.parse_args()
    args.only = args.only.split(",")
    if args.one:
        return one_run(args)
    if args.make_folder or not os.path.isdir(args.folder):
        if not args.photos:
            ap.error("--photos is needed to make the folder")
        print("made %d files in %s" % (make_folder(args.photos, args.folder), args.folder))
        if args.make_folder:
            return 0
    files = folder_files(args.folder)
    if "blob" in args.only:
        import cv2
        if not hasattr(cv2.dnn, "DNN_LAYOUT_NCHW"):
            print("blob left out: OpenCV %s has no cv2.dnn.DNN_LAYOUT_NCHW (the layout constants "
                  "of blobFromImagesWithParams are OpenCV 4's; bench/pipeline_peers.sh installs "
                  "opencv-python-headless<5)" % cv2.__version__)
            args.only.remove("blob")
    print("folder: %s, %d files (%.0f MB); batches of %d -> [n, 3, %d, %d] float32; %d runs "
          "each, a fresh process per run; %d CPUs; load average %.1f at the start"
          % (args.folder, len(files), sum(os.path.getsize(f) for f in files) / 1e6, args.batch,
             SIZE, SIZE, args.runs, os.cpu_count(), os.getloadavg()[0]))
    times = {n: [] for n in CONTENDERS if n in args.only}
    rss = {n: 0 for n in times}
    for r in range(args.runs):  # interleaved: a disturbance spreads over all
        for name in times:
            cmd = [sys.executable, os.path.abspath(__file__), "--folder", args.folder, "--one",
                   name, "--batch", str(args.batch), "--cli", args.cli, "--cli-out",
                   args.cli_out] + (["--cli-files"] if args.cli_files else [])
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                print("%s failed:\n%s" % (name, p.stderr[-2000:]))
                return 1
            res = json.loads(p.stdout.strip().splitlines()[-1])
            times[name].append(res["seconds"])
            rss[name] = max(rss[name], res["maxrss_kb"])
    exact, total = ({}, 0) if args.no_exact else exactness(args, files)
    fastest_peer = max((len(files) / statistics.median(t) for n, t in times.items()
                        if not n.startswith(("clpad", "write"))), default=0.0)
    print("load average %.1f at the end" % os.getloadavg()[0])
    print("%-16s %10s %17s %9s %12s %18s" % ("", "images/s", "range", "x peer", "peak RSS",
                                             "differing samples"))
    for name, t in times.items():
        ips = [len(files) / s for s in t]
        med = len(files) / statistics.median(t)
        d = exact.get(name, (0, 0.0)) if name != "ultralytics" else (0, 0.0)
        dtext = "-" if args.no_exact or name == "write-only" else \
            "%d (max %.0f)" % d if d[0] else "0"
        xpeer = "%8.2fx" % (med / fastest_peer) if fastest_peer else "%9s" % "-"
        print("%-16s %10.1f %8.1f-%-8.1f %s %9.0f MB %18s"
              % (name, med, min(ips), max(ips), xpeer, rss[name] / 1024, dtext))
    med = {n: statistics.median(t) for n, t in times.items()}
    if "clpad-cli" in med and "clpad" in med:
        print("clpad-cli: %.2f of the iterator's images/s" % (med["clpad"] / med["clpad-cli"]))
    if "clpad-cli" in med and "clpad-save" in med:
        print("clpad-cli: %.2f of clpad-save's images/s (the same .npy written from Python)"
              % (med["clpad-save"] / med["clpad-cli"]))
    if "clpad-cli" in med and "write-only" in med:
        print("clpad-cli: its time is %.2f x the time to write its output alone (write-only)"
              % (med["clpad-cli"] / med["write-only"]))
    if total:
        print("(differing samples: of %d float32 samples, against ultralytics; max: the "
              "largest difference in 1/255 units)" % total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
