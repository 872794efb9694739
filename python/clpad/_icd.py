"""Which OpenCL drivers the ICD loader sees: PoCL from the package index when
the system registers none.

The wheel bundles an OpenCL ICD loader (ocl-icd), which finds drivers as the
system's does: the ``*.icd`` files of ``/etc/OpenCL/vendors``, or what
``OCL_ICD_VENDORS`` names (a directory of ``.icd`` files, or one driver
library). ``pip install clpad[pocl]`` adds the ``pocl-binary-distribution``
package (the CPU driver PyOpenCL uses), whose ``.icd`` file is in
site-packages, where no loader looks. So, before the library is loaded,
:func:`configure` points the loader at that PoCL when all of these hold:

1. none of ``OCL_ICD_VENDORS``, ``OCL_ICD_FILENAMES`` and
   ``OPENCL_VENDOR_PATH`` is set (a choice of the user's is kept as it is);
2. ``/etc/OpenCL/vendors`` holds no ``*.icd`` file (absent, empty, or not
   readable): the system registers no driver;
3. ``pocl-binary-distribution`` is installed and the library its ``.icd``
   file names exists.

It then sets ``OCL_ICD_VENDORS`` (which ocl-icd reads) and
``OCL_ICD_FILENAMES`` (which the Khronos loader reads, for a libclpad linked
to that one) to the absolute path of that PoCL library, in ``os.environ``:
the ``clpad`` command and child processes see the same drivers. With a
driver registered in ``/etc/OpenCL/vendors``, nothing changes and the
system's drivers are used; to use pip's PoCL anyway, set ``OCL_ICD_VENDORS``
to the path :func:`pip_pocl_library` returns.
"""

from __future__ import annotations

import os
from typing import List, MutableMapping, Optional

#: The variables by which a user chooses the drivers; any of them set, and
#: :func:`configure` leaves the environment alone.
USER_VARIABLES = ("OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "OPENCL_VENDOR_PATH")
#: Where ocl-icd and the Khronos loader look for drivers by default.
SYSTEM_VENDORS = "/etc/OpenCL/vendors"
_DISTRIBUTION = "pocl-binary-distribution"

#: The PoCL library :func:`configure` chose in this process, else None.
chosen: Optional[str] = None


def system_icd_files(vendors: Optional[str] = None) -> List[str]:
    """The ``*.icd`` files the system registers in ``vendors`` (default
    :data:`SYSTEM_VENDORS`); [] when the directory is absent or unreadable."""
    try:
        names = os.listdir(SYSTEM_VENDORS if vendors is None else vendors)
    except OSError:
        return []
    return sorted(n for n in names if n.endswith(".icd"))


def pip_pocl_library() -> Optional[str]:
    """The absolute path of the PoCL library that ``pocl-binary-distribution``
    installs (the one its ``.icd`` file names), or None when the package is not
    installed or the library is missing."""
    from importlib import metadata

    try:
        dist = metadata.distribution(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    for f in dist.files or ():
        if not str(f).endswith(".icd"):
            continue
        icd = os.path.abspath(str(dist.locate_file(f)))
        try:
            with open(icd, encoding="utf-8") as fh:
                name = fh.read().strip()
        except (OSError, UnicodeDecodeError):
            continue
        if not name:
            continue
        lib = name if os.path.isabs(name) else os.path.join(os.path.dirname(icd), name)
        if os.path.isfile(lib):
            return lib
    return None


def configure(environ: Optional[MutableMapping[str, str]] = None) -> Optional[str]:
    """Apply the rule above to ``environ`` (default ``os.environ``) once, before
    the first OpenCL call: returns the PoCL library the loader was pointed at,
    or None when the environment was left alone."""
    global chosen
    env = os.environ if environ is None else environ
    if chosen is not None and environ is None:
        return chosen
    if any(env.get(v) for v in USER_VARIABLES):
        return None
    if system_icd_files():
        return None
    lib = pip_pocl_library()
    if lib is None:
        return None
    env["OCL_ICD_VENDORS"] = lib
    env["OCL_ICD_FILENAMES"] = lib
    if environ is None:
        chosen = lib
    return lib
