#!/usr/bin/env python3
"""Check that the library, the I/O library and the CLI have no dependency
circle and that host/ keeps its layers (docs/architecture.md, "Layers").

    check_layers.py BUILD_DIR [--allow-circle-in DIR/]...

A source file depends on another when its object file uses a symbol the
other's defines (`nm`: the calls and data references the linker resolves,
whichever header declared them). Fails (exit 1) when
  - some files depend on each other in a circle (a strongly connected group),
  - a file depends on a file of a higher layer of host/:
        core  <  device  <  ops/<op>  <  ops (the registry)
    with window/ on core only, and io/'s decoders (compiled into the
    library) on core only.
A circle all of whose files lie under a DIR/ given with --allow-circle-in is
printed as "allowed circle" and does not fail the check. Prints the graph's
size and, on failure, each offence."""
import os
import subprocess
import sys

TARGETS = ["clpad_objects", "clpad_io", "clpad_cli", "clpad_bench_lib"]


def room(src):
    """The layer a source file belongs to, and its rank (None: unranked)."""
    parts = src.split("/")
    if parts[0] == "host":
        if parts[1] == "core":
            return "host/core", 0
        if parts[1] == "device":
            return "host/device", 1
        if parts[1] == "window":
            return "host/window", 1
        if parts[1] == "pipeline":  # the stream: on the public operations
            return "host/pipeline", 4
        if parts[1] == "ops":
            if len(parts) == 3:  # host/ops/registry.c
                return "host/ops", 3
            return "host/ops/" + parts[2], 2
    if parts[0] == "io" and src.startswith("io/image") and not src.startswith("io/image_read") \
            and not src.startswith("io/image_write"):
        return "io (library)", 1
    return parts[0], None


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            used.add(name)
        elif kind in "TDBRVWCG":
            defined.add(name)
    return defined, used


def main():
    args = sys.argv[1:]
    allowed = []
    while "--allow-circle-in" in args:
        i = args.index("--allow-circle-in")
        if i + 1 >= len(args):
            print(__doc__)
            return 2
        allowed.append(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__)
        return 2
    build = args[0]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = {}  # source path -> (defined, used)
    for target in TARGETS:
        top = os.path.join(build, "CMakeFiles", target + ".dir")
        for dirpath, _, names in os.walk(top):
            for n in names:
                if not n.endswith(".o"):
                    continue
                obj = os.path.join(dirpath, n)
                src = os.path.relpath(obj, top)[:-2]
                # generated files, and objects of sources that no longer exist
                if not os.path.isfile(os.path.join(root, src)):
                    continue
                files[src] = symbols(obj)
    if not any(f.startswith("host/") for f in files):
        print("check_layers: no object files of the library under %s (build first)" % build)
        return 2
    owner = {}
    for src, (defined, _) in files.items():
        for s in defined:
            owner.setdefault(s, src)
    deps = {src: sorted({owner[s] for s in used if s in owner and owner[s] != src})
            for src, (_, used) in files.items()}
    bad = []
    # circles: Tarjan's strongly connected components
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in deps[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(deps):
        if v not in index:
            strong(v)
    notes = []
    for comp in comps:
        line = " <-> ".join(comp)
        if any(all(f.startswith(a) for f in comp) for a in allowed):
            notes.append("allowed circle: " + line)
        else:
            bad.append("circle: " + line)
    # layers
    for src, ds in sorted(deps.items()):
        r, rank = room(src)
        for d in ds:
            dr, drank = room(d)
            if rank is None or drank is None or r == dr:
                continue
            ok = drank < rank or (r.startswith("host/ops/") and dr.startswith("host/ops/")
                                  and drank == rank)
            if r in ("host/window", "io (library)") and dr != "host/core":
                ok = False
            if not ok:
                bad.append("layer: %s (%s) uses %s (%s)" % (src, r, d, dr))
    edges = sum(len(d) for d in deps.values())
    print("check_layers: %d files, %d dependencies between files" % (len(deps), edges))
    for b in notes + bad:
        print(b)
    if bad:
        return 1
    print("check_layers: no circle; every host/ file uses only its own or lower layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
