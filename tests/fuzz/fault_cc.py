#!/usr/bin/env python3
"""fault_cc.py -- a stand-in for "compiler + mixprec plugin" with a known bug,
for run.py --self-test (proves that the fuzzer reports and minimises a
wrong result).

Called like a compiler.  Without -fplugin=... it runs the real compiler
($FZ_REAL_CC, default gcc) unchanged.  With it, it drops the plugin and
remark flags and compiles a copy of the C source in which every reduction
update of a 1-based k loop (a line holding both '(k - 1)' and '+=') is
turned into '-=': the "plugin" miscompiles that form only.
Python 3 standard library only.
"""
import os
import subprocess
import sys
import tempfile


def main():
    real = os.environ.get("FZ_REAL_CC", "gcc")
    args = sys.argv[1:]
    if not any(a.startswith("-fplugin=") for a in args):
        os.execvp(real, [real] + args)
    out, tmp = [], None
    for a in args:
        if a.startswith("-fplugin") or a in ("-fopt-info-loop-optimized", "-Rpass=mixprec"):
            continue
        if a.endswith(".c") and os.path.isfile(a):
            with open(a) as f:
                text = f.read()
            lines = [l.replace("+=", "-=") if "(k - 1)" in l and "+=" in l else l
                     for l in text.split("\n")]
            fd, tmp = tempfile.mkstemp(suffix=".c")
            with os.fdopen(fd, "w") as f:
                f.write("\n".join(lines))
            a = tmp
        out.append(a)
    try:
        return subprocess.call([real] + out)
    finally:
        if tmp:
            os.unlink(tmp)


if __name__ == "__main__":
    sys.exit(main())
