"""The package's version: the library's, written once in include/clpad.h.

An installed package has it in _version.py, which the build writes from the
header; a source checkout (PYTHONPATH=python) reads the header itself.
"""

from __future__ import annotations


def _read_version() -> str:
    """The version, "MAJOR.MINOR.PATCH"."""
    try:  # written into the installed package by the build
        from ._version import __version__ as v  # type: ignore[import-not-found, unused-ignore]

        return str(v)
    except ImportError:
        pass
    # A source checkout (PYTHONPATH=python): the header the version is written in.
    import os
    import re

    header = os.path.join(os.path.dirname(__file__), "..", "..", "include", "clpad.h")
    try:
        with open(header, encoding="utf-8") as f:
            text = f.read()
        parts = [re.search(r"#define CLPAD_VERSION_%s (\d+)" % p, text) for p in
                 ("MAJOR", "MINOR", "PATCH")]
        return ".".join(m.group(1) for m in parts if m is not None)
    except OSError:
        return "0+unknown"


VERSION = _read_version()
