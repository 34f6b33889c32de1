#!/usr/bin/env python3
"""budget.py -- the ISL operation budget of the mixprec core (issue 14 item
4): a nest whose analysis runs past the budget is refused, quickly, with a
warning that names the budget, at the nest; under GCC, clang 14 and clang 19.

The nest is gen.py's `heavy` (the most ISL work per nest found within the
core's tables, about 2 * 10^5 operations).  For each compiler whose plugin
is given and present:
  (at -O0, where the analysis dominates the compile time)
  1. the default budget (10^6): the nest is transformed (remark at the loop),
     no budget message: the budget is not what refuses ordinary nests;
  2. MIXPREC_ISL_BUDGET=--budget (default 20000) in the compiler's
     environment: exit 0, one warning at the nest's loop line saying
     'loop nest not transformed: the analysis of this nest exceeded its
     budget (20000 ISL operations)', no other diagnostic, no crash; best of
     --repeat wall times no slower than the default build's (x1.25 + 0.2 s
     for noise): hitting the budget stops the analysis;
  3. the same with -Werror: the refusal is an error at the same line (exit 1).

  budget.py --gcc gcc --gcc-plugin build/plugin-gcc/mixprec.so \\
            [--clang clang-14 --clang-plugin P] [--clang19 clang-19 --clang19-plugin P]

Exit status: 0 pass, 1 failure, 77 skipped (no compiler with its plugin).
Python 3 standard library only.
"""

import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
from run import Compiler, CRASH_MARKERS, compile_once, EXIT_PASS, EXIT_FAIL, EXIT_SKIP  # noqa: E402

DIAG_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? "
                     r"(?P<kind>fatal error|error|warning|note|remark|optimized): (?P<msg>.*)$")
BUDGET_MSG = ("mixprec: loop nest not transformed: the analysis of this nest exceeded its "
              "budget (%d ISL operations)")


def diags(err, base):
    out = []
    for raw in err.splitlines():
        m = DIAG_RE.match(raw.strip())
        if m and os.path.basename(m.group("file")) == base:
            out.append((int(m.group("line")), m.group("kind"), m.group("msg")))
    return out


def run(comp, src, obj, include, extra, env_budget, timeout):
    env = None
    if env_budget:
        env = {"MIXPREC_ISL_BUDGET": str(env_budget)}
    cmd = [comp.cc] + comp.plugin_flags() + comp.remark_flags() + ["-O0", "-fdiagnostics-color=never"] + extra + [
        "-I", include, "-c", src, "-o", obj]
    secs, rc, err = compile_once(cmd, timeout, env)
    return cmd, secs, rc, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gcc", default="gcc")
    ap.add_argument("--gcc-plugin")
    ap.add_argument("--clang", default="clang-14")
    ap.add_argument("--clang-plugin")
    ap.add_argument("--clang19", default="clang-19")
    ap.add_argument("--clang19-plugin")
    ap.add_argument("--include", default=os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                                      "include"))
    ap.add_argument("--budget", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--work")
    args = ap.parse_args()

    comps = [Compiler("gcc", args.gcc, args.gcc_plugin, False),
             Compiler("clang14", args.clang, args.clang_plugin, True),
             Compiler("clang19", args.clang19, args.clang19_plugin, True)]
    for c in comps:
        if not c.available():
            print("budget: %s not available (compiler %r, plugin %r)" % (c.name, c.cc, c.plugin))
    comps = [c for c in comps if c.available()]
    if not comps:
        print("SKIP: no compiler with its plugin")
        return EXIT_SKIP
    work = args.work or tempfile.mkdtemp(prefix="mixprec-budget-")
    os.makedirs(work, exist_ok=True)
    _, text = gen.generate("heavy")
    src = os.path.join(work, "heavy.c")
    with open(src, "w") as f:
        f.write(text)
    lines = text.splitlines()
    pragma = next(i + 1 for i, l in enumerate(lines) if l.startswith("#pragma mixprec"))
    loop = pragma + 1
    msg = BUDGET_MSG % args.budget
    fails = []

    for comp in comps:
        obj = os.path.join(work, "heavy.%s.o" % comp.name)
        probs = []
        best = {}
        for rep in range(args.repeat):
            for side, budget in (("default", None), ("budget", args.budget)):
                cmd, secs, rc, err = run(comp, src, obj, args.include, [], budget, args.timeout)
                if secs is None:
                    probs.append("%s build ran past %ds: %s" % (side, args.timeout, " ".join(cmd)))
                    continue
                crash = [m for m in CRASH_MARKERS if m in err]
                if rc != 0 or crash:
                    probs.append("%s build failed (exit %s): %s\n%s" % (
                        side, rc, " ".join(cmd), "\n".join(err.splitlines()[-10:])))
                    continue
                best[side] = min(best.get(side, secs), secs)
                ds = [d for d in diags(err, "heavy.c") if d[1] != "note"]
                if side == "default":
                    if any("exceeded its budget" in d[2] for d in ds):
                        probs.append("the default budget refused the nest: %s" % ds)
                    if not any(d[0] == loop and d[1] in ("optimized", "remark") and
                               d[2].startswith("mixprec:") for d in ds):
                        probs.append("not transformed under the default budget: %s" % ds)
                else:
                    want = [(loop, "warning", msg)]
                    got = [(l, k, m.split(" [-W")[0]) for l, k, m in ds]
                    if got != want:
                        probs.append("MIXPREC_ISL_BUDGET=%d: diagnostics %s, want %s"
                                     % (args.budget, got, want))
        cmd, secs, rc, err = run(comp, src, obj, args.include, ["-Werror"], args.budget,
                                 args.timeout)
        ds = [(l, k) for l, k, m in diags(err, "heavy.c") if "exceeded its budget" in m]
        if rc != 1 or ds != [(loop, "error")]:
            probs.append("-Werror: exit %s, budget diagnostics %s (want exit 1, an error at "
                         "line %d)" % (rc, ds, loop))
        if "default" in best and "budget" in best:
            lim = best["default"] * 1.25 + 0.2
            if best["budget"] > lim:
                probs.append("the budget hit took %.2fs, the default build %.2fs (limit %.2fs)"
                             % (best["budget"], best["default"], lim))
            print("%s %s: default budget %.2fs (transformed), MIXPREC_ISL_BUDGET=%d %.2fs "
                  "(refused at line %d, naming the budget)" % (
                      "FAIL" if probs else "PASS", comp.name, best["default"], args.budget,
                      best["budget"], loop))
        for p in probs:
            print("  - " + p.replace("\n", "\n    "))
        if probs:
            fails.append(comp.name)
    if fails:
        print("budget: failing under %s (files in %s)" % (", ".join(fails), work))
        return EXIT_FAIL
    print("budget: all pass")
    return EXIT_PASS


if __name__ == "__main__":
    sys.exit(main())
