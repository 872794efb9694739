"""The ``clpad`` command of the installed package: ``clpad ARGS`` (the console
script the wheel installs) and ``python -m clpad ARGS`` run the C command-line
program built into the package, ``clpad/_bin/clpad``, with ARGS (see
``clpad --help``; README.md's "The `clpad` command" documents it).

The program replaces this Python process (exec), after the OpenCL driver rule
of :mod:`clpad._icd` is applied (PoCL from ``pip install clpad[pocl]`` when
the system registers no OpenCL driver), and with SIGPIPE and SIGXFSZ back at
their defaults (Python ignores them; a program started from a shell has them
at the default, as ``subprocess`` also restores them).
"""

from __future__ import annotations

import os
import signal
import sys
from typing import List, Optional

from . import _icd

def program() -> str:
    """The path of the C program inside the package (it may be missing in a
    source checkout, or a build made without the CLI)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "clpad")


def main(argv: Optional[List[str]] = None) -> int:
    """Run the C ``clpad`` program with ``argv`` (default: ``sys.argv[1:]``);
    returns only when it cannot be started (an error on stderr, status 127)."""
    args = sys.argv[1:] if argv is None else list(argv)
    exe = program()
    if not os.access(exe, os.X_OK):
        sys.stderr.write("clpad: %s: no clpad program in this installation of the "
                         "package (a source checkout has it in the build tree: "
                         "build/clpad)\n" % exe)
        return 127
    _icd.configure()
    for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(exe, ["clpad"] + args)
    except OSError as e:
        sys.stderr.write("clpad: cannot run %s: %s\n" % (exe, e))
    return 127


if __name__ == "__main__":
    sys.exit(main())
