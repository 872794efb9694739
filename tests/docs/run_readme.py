#!/usr/bin/env python3
"""The `docs` CTests: run the code blocks of the README files as a user would
copy them from a clone.

    run_readme.py --source REPO --build BUILD --work DIR --group shell|python
                  [--python PY] [--cflags FLAGS] FILE.md...

A fenced block's info string is its language, optionally followed by a file
name: "```c app/app.c". The blocks of each file run in order, in a fresh
working directory that looks like a clone (a symbolic link to each top-level
entry of REPO, and `build` linked to BUILD):

  group shell   a block with a file name is written to that path (never over
                an existing one); `sh` blocks run in bash with -e -u -o
                pipefail; a `c` block without a file name is compiled against
                include/ and BUILD's library and run.
  group python  the `python` blocks run one after another in one interpreter
                (PY), sharing their names, as one would paste them into a
                session.

A block right after the line `<!-- docs-test: skip: REASON -->` is not run;
the reason is printed (such blocks are named, never counted as passed).
Exit status 0 when every block ran and exited 0; 77 (CTest SKIP) with the
reason when the group cannot run here (no python given); 1 otherwise.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

SKIP = 77
FENCE = re.compile(r"^```(\S*)\s*(\S*)\s*$")
SKIP_MARK = re.compile(r"^<!--\s*docs-test:\s*skip:\s*(.+?)\s*-->\s*$")


def blocks_of(path):
    """(line number, language, file name or "", text, skip reason or None)."""
    out = []
    lines = open(path, encoding="utf-8").read().splitlines()
    i = 0
    prev = ""
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m and m.group(1):
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                raise SystemExit("%s:%d: unterminated code block" % (path, start))
            mark = SKIP_MARK.match(prev)
            out.append((start, m.group(1), m.group(2), "\n".join(lines[start:j]) + "\n",
                        mark.group(1) if mark else None))
            i = j + 1
            prev = ""
            continue
        if lines[i].strip():
            prev = lines[i]
        i += 1
    return out


def make_clone(source, build, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for name in os.listdir(source):
        if name in (".git", "build") or name.startswith("build-"):
            continue
        os.symlink(os.path.join(source, name), os.path.join(work, name))
    os.symlink(os.path.abspath(build), os.path.join(work, "build"))


def write_file(work, name, text):
    path = os.path.normpath(os.path.join(work, name))
    if not path.startswith(work + os.sep):
        raise SystemExit("block file name %r leaves the working directory" % name)
    if os.path.lexists(path):
        raise SystemExit("block file %r would replace an existing path" % name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def run(cmd, cwd, env, label):
    t0 = time.monotonic()
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=600)
    print(r.stdout, end="" if r.stdout.endswith("\n") or not r.stdout else "\n")
    print("== %s: exit %d (%.1f s)" % (label, r.returncode, time.monotonic() - t0), flush=True)
    return r.returncode


def shell_group(md, blocks, work, env, cflags):
    failed = 0
    for n, (line, lang, fname, text, skip) in enumerate(blocks):
        label = "%s:%d (%s%s)" % (md, line, lang, " " + fname if fname else "")
        if lang not in ("sh", "c", "cmake") and not fname:
            continue
        if skip:
            print("== %s: not run: %s" % (label, skip))
            continue
        if fname:
            write_file(work, fname, text)
            print("== %s: written" % label)
        elif lang == "sh":
            print("== %s\n%s" % (label, text), end="", flush=True)
            failed += run(["bash", "-euo", "pipefail", "-c", text], work, env, label) != 0
        elif lang == "c":
            src = os.path.join(work, "readme_block_%d.c" % n)
            with open(src, "w") as f:
                f.write(text)
            exe = src[:-2]
            cmd = (["cc", "-std=c11", "-Wall", "-Wextra", "-Werror"] + cflags.split()
                   + ["-Iinclude", src, "-o", exe, "-Lbuild", "-lclpad",
                      "-Wl,-rpath," + os.path.join(work, "build")])
            if run(cmd, work, env, label + " compile") != 0:
                failed += 1
                continue
            rc = run([exe], work, env, label + " run")
            failed += rc not in (0,)
        else:
            print("== %s: a %s block without a file name is not run" % (label, lang))
    return failed


DRIVER = r"""
import json, sys, traceback


def main():
    blocks = json.load(open(sys.argv[1]))
    ns = {"__name__": "__main__"}
    for label, text in blocks:
        print("== " + label, flush=True)
        try:
            exec(compile(text, label, "exec"), ns)
        except BaseException:
            traceback.print_exc()
            print("== %s: FAILED" % label, flush=True)
            sys.exit(1)
    print("== all python blocks ran", flush=True)


if __name__ == "__main__":  # a spawned worker imports this file: it must do nothing
    main()
"""


def python_group(md, blocks, work, env, python):
    todo = []
    for line, lang, fname, text, skip in blocks:
        if lang != "python":
            continue
        label = "%s:%d" % (md, line)
        if skip:
            print("== %s (python): not run: %s" % (label, skip))
            continue
        todo.append((label, text))
    if not todo:
        return 0
    spec = os.path.join(work, "readme_python_blocks.json")
    with open(spec, "w") as f:
        json.dump(todo, f)
    driver = os.path.join(work, "readme_python_driver.py")
    with open(driver, "w") as f:
        f.write(DRIVER)
    return run([python, driver, spec], work, env, "%s python blocks" % md) != 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--group", choices=("shell", "python"), required=True)
    ap.add_argument("--python", default="")
    ap.add_argument("--cflags", default="")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    source = os.path.abspath(args.source)
    if args.group == "python" and not (args.python and os.path.exists(args.python)):
        print("SKIP: no Python environment with clpad installed (%s); the python test "
              "(label python) makes it" % (args.python or "none given"))
        return SKIP
    env = dict(os.environ)
    env.pop("CLPAD_LIBRARY", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    failed = 0
    for md in args.files:
        work = os.path.join(os.path.abspath(args.work), args.group,
                            md.replace("/", "_").replace(".md", ""))
        make_clone(source, args.build, work)
        blocks = blocks_of(os.path.join(source, md))
        if args.group == "shell":
            failed += shell_group(md, blocks, work, env, args.cflags)
        else:
            failed += python_group(md, blocks, work, env, args.python)
    print("%s: %s" % (args.group, "all blocks passed" if not failed else "%d FAILED" % failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
