#!/usr/bin/env python3
"""Compare two launch traces of `clpad bench` (bench/launch_trace.c): for
each bench case, whether the two runs set the same kernel arguments and
launched the same NDRanges (as multisets; BUILD lines are not compared here:
diff `grep ^BUILD` of the two files for the build options).

Usage: launch_trace_diff.py BEFORE.txt AFTER.txt
"""
import collections
import re
import sys

ROW = re.compile(r"^(\S+)\s+(u8|i8|u16|i16|f16|bf16|u32|i32|f32|u64|i64|f64)\s")


def cases(path):
    """case label -> the ARG and LAUNCH lines logged before its table row."""
    out, lines = collections.OrderedDict(), []
    with open(path) as f:
        for line in f:
            if line.startswith(("ARG ", "LAUNCH ")):
                lines.append(line.strip())
            else:
                m = ROW.match(line)
                if m:
                    out[m.group(1)], lines = lines, []
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = cases(sys.argv[1]), cases(sys.argv[2])
    same = 0
    for k, v in a.items():
        if k not in b:
            print("only in %s: %s" % (sys.argv[1], k))
        elif collections.Counter(v) == collections.Counter(b[k]):
            same += 1
        else:
            print("differs: %s (%d and %d lines)" % (k, len(v), len(b[k])))
    for k in b:
        if k not in a:
            print("only in %s: %s" % (sys.argv[2], k))
    print("%d cases launched identically" % same)


if __name__ == "__main__":
    main()
