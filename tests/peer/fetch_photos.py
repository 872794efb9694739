#!/usr/bin/env python3
"""Fetch real photographs once, from packages that ship sample photos, into
a cache directory (the peer tests keep it under the build tree):

    python3 tests/peer/fetch_photos.py DEST

DEST/photos/ gets the PNG and JPEG files of scikit-image's skimage/data,
scikit-learn's sklearn/datasets/images, matplotlib's mpl-data/sample_data and
Ultralytics' assets (the wheels below, pinned, downloaded with `pip download
--no-deps` and opened as zip files; nothing is installed). A second run finds
DEST/photos/.complete (holding the pins) and does nothing.

Exit status: 0 the photos are there; 77 (CTest: Skipped) when the wheels
cannot be downloaded (no network, no pip), with the reason on stderr.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

# wheel (pip requirement) -> the members to take (prefix, extensions)
SOURCES = [
    ("scikit-image==0.26.0", "skimage/data/"),
    ("scikit-learn==1.9.1", "sklearn/datasets/images/"),
    ("matplotlib==3.11.2", "matplotlib/mpl-data/sample_data/"),
    ("ultralytics==8.4.190", "ultralytics/assets/"),
]
EXTENSIONS = (".png", ".jpg", ".jpeg")


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: fetch_photos.py DEST", file=sys.stderr)
        return 2
    dest = os.path.join(sys.argv[1], "photos")
    stamp = os.path.join(dest, ".complete")
    pins = "\n".join(req for req, _ in SOURCES) + "\n"
    if os.path.exists(stamp) and open(stamp).read() == pins:
        return 0
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    with tempfile.TemporaryDirectory() as tmp:
        for req, prefix in SOURCES:
            cmd = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check",
                   "-q", "--no-deps", "--retries", "2", "--timeout", "30", "-d", tmp, req]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                why = (r.stderr.strip().splitlines() or ["no output"])[-1][:200]
                print("SKIP: cannot download the sample photos (pip download %s: %s)"
                      % (req, why), file=sys.stderr)
                shutil.rmtree(dest, ignore_errors=True)
                return 77
        count = 0
        for wheel in sorted(os.listdir(tmp)):
            if not wheel.endswith(".whl"):
                continue
            with zipfile.ZipFile(os.path.join(tmp, wheel)) as z:
                for name in z.namelist():
                    for _, prefix in SOURCES:
                        rest = name[len(prefix):]
                        if name.startswith(prefix) and "/" not in rest and \
                                rest.lower().endswith(EXTENSIONS):
                            with z.open(name) as src, open(os.path.join(dest, rest), "wb") as out:
                                shutil.copyfileobj(src, out)
                            count += 1
    if count == 0:
        print("SKIP: the downloaded wheels hold no sample photos", file=sys.stderr)
        return 77
    with open(stamp, "w") as f:
        f.write(pins)
    return 0


if __name__ == "__main__":
    sys.exit(main())
