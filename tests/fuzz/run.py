#!/usr/bin/env python3
"""run.py -- random differential testing of the mixprec plugins (issue 14, item 2).

For each seed: tests/fuzz/gen.py writes a program; it is built without the
plugin (the reference: plain GCC at -O0) and, with the plugin, under GCC
(-fplugin=mixprec.so), clang 14 (-fplugin=mixprec-clang.so) and clang 19
(-fplugin=mixprec-clang19.so), each at a random level of -O0 -O1 -O2 -O3 -Os
plus random extra flags (-g, -march=native; -flto under GCC).  Every plugin
build runs four times: default, MIXPREC_TARGET=scalar,
MIXPREC_TARGET=avx2 (these three with MIXPREC_SMALL=0: the kernels on every
shape) and with the cost model and its inline guard on (MIXPREC_SMALL=1),
and its stdout must equal the reference's byte for byte.  When it does not (or the
run crashes), the plain build with the same compiler and flags is built and
run too, and the plugin build is compared with that one: a difference there
is a finding.  (With --full, or at random one time in eight, the plain build
with the same flags is built anyway; plain builds that disagree with the
reference are counted as 'plain-differs': a generator or compiler problem,
not a plugin one; so is a plugin build that prints the reference where the
plain build with its flags does not.)

Programs holding OpenMP constructs (gen.OMP_MARK) are built with -fopenmp
(under clang also -L/usr/lib/llvm-14/lib: Debian 12 has only libomp 14) and
run with OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive; the others without.
--xforms-only makes programs of the newer forms only (gen.gen_xfunc).
--arch aarch64 builds them with the cross GCC and its plugin
(plugin-gcc/mixprec-aarch64.so) and clang --target=aarch64-linux-gnu, links
the cross-built runtime (BUILD/tests/arm/build: ctest -R arm.build makes
it) and runs them under qemu-aarch64 -cpu max, the reruns on the scalar and
dotprod families (the default is i8mm); OpenMP directives are ignored under
clang there (no aarch64 libomp in Debian 12).

Findings:
  ice            the plugin build crashed the compiler (ICE, signal);
  compile-error  the plugin build failed where the plain build compiles;
  compile-hang   the plugin build ran past --compile-timeout;
  mismatch       the plugin build prints other bytes than the plain build;
  run-crash      the plugin build crashes (or hangs) where the plain runs.
A refused nest (warning 'loop nest not transformed') is not a finding.

Each finding is minimised (a greedy delta reducer over the program's
description: functions, calls, sibling nests, features of each nest, shapes;
see gen.simplify) and kept under --findings DIR/<kind>-<compiler>-seed<S>/:
repro.c (minimised), repro.json, original.c, cmd.sh (builds both and shows
the difference), report.txt (what differs, flags, remarks, reduction log).

Counts printed at the end: programs, plugin builds, nests annotated,
transformed (GCC 'optimized: mixprec' / clang 'remark: mixprec' lines),
refused, kernel calls and fallbacks (MIXPREC_STATS), findings.

Sanitizer builds (-DMIXPREC_SANITIZE=ON): --cc-env NAME=VALUE (repeatable)
adds to the environment of every compiler command (libasan preloaded into
cc1 / clang), --run-env NAME=VALUE to that of every program run; a
sanitizer report counts as a crash.

Exit status: 0 no finding, 1 findings (or a generator problem), 77 skipped
(with --require-all: a compiler or plugin is missing).
Python 3 standard library only.
"""

import argparse
import json
import multiprocessing
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

EXIT_PASS, EXIT_FAIL, EXIT_SKIP = 0, 1, 77
REMARK_RE = re.compile(r"(?:optimized|remark): mixprec:(?! loop nest not transformed)")
REFUSAL_RE = re.compile(r"mixprec: loop nest not transformed")
STATS_RE = re.compile(r"mixprec: fast=(\d+) fallback=(\d+)")
ICE_MARKERS = ("internal compiler error", "Please submit a full bug report",
               "Segmentation fault", "PLEASE submit a bug report", "Stack dump:",
               "Assertion", "terminate called", "Aborted",
               # sanitizer builds of the plugins (--cc-env)
               "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", ": runtime error: ",
               "SUMMARY: UndefinedBehaviorSanitizer")
OPT_LEVELS = ["-O0", "-O1", "-O2", "-O3", "-Os"]
EXTRA_FLAGS = ["-g", "-march=native"]
ENVS = [("default", {}), ("scalar", {"MIXPREC_TARGET": "scalar"}),
        ("avx2", {"MIXPREC_TARGET": "avx2"}),
        # the cost model and the inline guard before the call (the others
        # run MIXPREC_SMALL=0: the kernels on every shape)
        ("model", {"MIXPREC_SMALL": "1"})]
# --arch aarch64: the programs built by the cross compilers and run under
# qemu-aarch64 (-cpu max: both aarch64 families), each plugin build rerun
# on each family.  No -march=native there (the host's CPU).
RUNNER = []
ARCH_AARCH64 = {
    "extra_flags": ["-g"],
    "envs": [("default", {}), ("scalar", {"MIXPREC_TARGET": "scalar"}),
             ("dotprod", {"MIXPREC_TARGET": "dotprod"}),
             ("model", {"MIXPREC_SMALL": "1"})],
    "runner": ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
}


def set_arch(arch):
    """The module's tables for ARCH (None: the host), in every process."""
    global EXTRA_FLAGS, ENVS, RUNNER
    if arch == "aarch64":
        EXTRA_FLAGS = list(ARCH_AARCH64["extra_flags"])
        ENVS = list(ARCH_AARCH64["envs"])
        RUNNER = list(ARCH_AARCH64["runner"])


# ---------------------------------------------------------------- set-up

class Compiler:
    def __init__(self, name, cc, plugin, clang):
        self.name, self.cc, self.plugin, self.clang = name, cc, plugin, clang

    def available(self):
        return (shutil.which(shlex.split(self.cc)[0]) is not None and self.plugin is not None
                and os.path.isfile(self.plugin))

    def plugin_flags(self):
        return ["-fplugin=" + self.plugin,
                "-Rpass=mixprec" if self.clang else "-fopt-info-loop-optimized"]

    def diag_flags(self):
        return (["-fdiagnostics-color=never", "-fno-caret-diagnostics"] if self.clang
                else ["-fdiagnostics-color=never", "-fno-diagnostics-show-caret"])


def compilers_from_args(args):
    build = os.path.abspath(args.build)
    out = []
    table = [
        ("gcc", args.gcc, args.gcc_plugin or os.path.join(build, "plugin-gcc", "mixprec.so"),
         False),
        ("clang14", args.clang, args.clang_plugin
         or os.path.join(build, "plugin-clang", "mixprec-clang.so"), True),
        ("clang19", args.clang19, args.clang19_plugin
         or os.path.join(build, "plugin-clang", "mixprec-clang19.so"), True),
    ]
    wanted = args.compilers.split(",")
    for name, cc, plugin, clang in table:
        if name in wanted:
            out.append(Compiler(name, cc, plugin, clang))
    return out


class Config:
    """Everything a worker needs (picklable)."""

    def __init__(self, args):
        self.compilers = [c for c in compilers_from_args(args) if c.available()]
        self.arch = getattr(args, "arch", None)
        self.ref_cc = args.gcc if shutil.which(args.gcc) else (
            self.compilers[0].cc if self.compilers else "cc")
        self.include = os.path.abspath(args.include or os.path.join(ROOT, "include"))
        self.lib = os.path.abspath(args.lib or os.path.join(args.build, "runtime"))
        self.work = os.path.abspath(args.work)
        self.findings = os.path.abspath(args.findings)
        self.full = args.full
        self.xforms_only = getattr(args, "xforms_only", False)
        self.reduce = not args.no_reduce
        self.reduce_budget = args.reduce_budget
        self.max_reduce = args.max_reduce
        self.compile_timeout = args.compile_timeout
        self.run_timeout = args.run_timeout
        self.keep = args.keep
        self.verbose = args.verbose
        self.cc_env = env_pairs(args.cc_env)
        self.run_env = env_pairs(args.run_env)


def env_pairs(items):
    """['NAME=VALUE', ...] (--cc-env, --run-env) -> dict."""
    out = {}
    for kv in items or []:
        if "=" not in kv:
            raise SystemExit("run.py: --cc-env / --run-env want NAME=VALUE, got %r" % kv)
        name, value = kv.split("=", 1)
        out[name] = value
    return out


# ------------------------------------------------------------ processes

def run_cmd(cmd, env=None, timeout=60, cwd=None):
    """-> (rc, stdout bytes, stderr str, seconds); rc 'timeout' on timeout."""
    full = dict(os.environ)
    full["LC_ALL"] = "C"
    for k in ("MIXPREC_TARGET", "MIXPREC_DISABLE", "MIXPREC_STATS"):
        full.pop(k, None)
    # differential: the kernels on every shape, however small (no cost model)
    full["MIXPREC_SMALL"] = "0"
    if env:
        full.update(env)
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full,
                           timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        return "timeout", e.stdout or b"", (e.stderr or b"").decode("utf-8", "replace"), \
            time.time() - t0
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"), time.time() - t0


OMP_LIBDIR = "/usr/lib/llvm-14/lib"


def omp_flags(cc, src):
    """-fopenmp for programs holding OpenMP constructs (gen.OMP_MARK), and
    under clang the folder of libomp 14 (Debian 12 installs only that one;
    clang 19 does not find it by itself).  Nothing for the other programs."""
    try:
        with open(src) as f:
            if gen.OMP_MARK not in f.read():
                return []
    except OSError:
        return []
    if "clang" in cc and "--target=aarch64" in cc:
        # no libomp for the target in Debian 12: clang then ignores the
        # directives and links the target's libgomp for the omp_* calls
        return ["-fopenmp=libgomp"]
    out = ["-fopenmp"]
    if "clang" in os.path.basename(cc) and os.path.isdir(OMP_LIBDIR):
        out.append("-L" + OMP_LIBDIR)
    return out


def build_cmd(cfg, cc, src, exe, flags, plugin=None):
    cmd = shlex.split(cc) + list(flags) + omp_flags(cc, src) + ["-std=gnu11", "-I",
                                                                 cfg.include]
    if plugin is not None:
        cmd += plugin.plugin_flags() + plugin.diag_flags()
    else:
        cmd += ["-Wno-unknown-pragmas", "-fdiagnostics-color=never"]
    cmd += [src, "-o", exe, "-L", cfg.lib, "-Wl,-rpath," + cfg.lib, "-lmixprec", "-lm"]
    return cmd


def is_crash(rc, err):
    if rc == "timeout":
        return False
    if rc < 0 or rc > 1:
        return True
    return any(m in err for m in ICE_MARKERS)


ERROR_RE = re.compile(r"(?:fatal )?error: (.*)$")


def first_error(err):
    """The text of the first error of a compiler's stderr (no file, no line)."""
    for line in err.splitlines():
        m = ERROR_RE.search(line)
        if m:
            return m.group(1).strip()
        if any(x in line for x in ICE_MARKERS):
            return line.strip()
    return ""


def tail(text, n=30):
    lines = text.rstrip("\n").split("\n")
    return "\n".join(lines[-n:])


def first_diffs(a, b, n=8):
    la = a.decode("utf-8", "replace").split("\n")
    lb = b.decode("utf-8", "replace").split("\n")
    out = []
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<missing>"
        y = lb[i] if i < len(lb) else "<missing>"
        if x != y:
            out.append("line %d\n  plain:  %s\n  plugin: %s" % (i + 1, x, y))
            if len(out) >= n:
                break
    return "\n".join(out)


# ----------------------------------------------------------- one program

class Probe:
    """Builds and runs one program description under one compiler set-up."""

    def __init__(self, cfg, wdir):
        self.cfg = cfg
        self.wdir = wdir
        self.n = 0
        self.error = None    # compile-error findings: the first error to keep

    def write(self, prog, name):
        src, meta = gen.emit(prog)
        path = os.path.join(self.wdir, name + ".c")
        with open(path, "w") as f:
            f.write(src)
        return path, meta

    def build(self, comp_or_cc, src, flags, plugin):
        self.n += 1
        exe = os.path.join(self.wdir, "b%d.exe" % self.n)
        cc = comp_or_cc.cc if isinstance(comp_or_cc, Compiler) else comp_or_cc
        cmd = build_cmd(self.cfg, cc, src, exe, flags, comp_or_cc if plugin else None)
        rc, _, err, secs = run_cmd(cmd, env=self.cfg.cc_env or None,
                                   timeout=self.cfg.compile_timeout)
        return rc, exe, err, cmd

    def run(self, exe, env):
        # OpenMP programs: two threads that sleep at once when idle (libomp
        # spins 200 ms after each region by default: a loaded machine)
        e = {"OMP_NUM_THREADS": "2", "OMP_WAIT_POLICY": "passive"}
        e.update(self.cfg.run_env)
        e.update(env)
        e["MIXPREC_STATS"] = "1"
        return run_cmd(RUNNER + [exe], env=e, timeout=self.cfg.run_timeout)

    def outcome(self, prog, comp, flags, env, kind):
        """Does prog still show `kind` under comp / flags / env?"""
        src, _ = self.write(prog, "cand")
        rc, exe, err, _ = self.build(comp, src, flags, True)
        if kind in ("ice", "compile-error", "compile-hang"):
            if kind == "ice" and not is_crash(rc, err):
                return False
            if kind == "compile-hang" and rc != "timeout":
                return False
            if kind == "compile-error" and (rc == 0 or rc == "timeout" or is_crash(rc, err)
                                            or first_error(err) != self.error):
                return False
            prc, _, _, _ = self.build(comp.cc, src, flags, False)
            return prc == 0
        if rc != 0:
            return False
        prc, pexe, _, _ = self.build(comp.cc, src, flags, False)
        if prc != 0:
            return False
        r1 = self.run(pexe, {})
        if r1[0] != 0:
            return False
        r2 = self.run(exe, env)
        if kind == "run-crash":
            return r2[0] != 0
        return r2[0] == 0 and r2[1] != r1[1]


def flags_for(seed, comp_name):
    r = random.Random("%d/%s" % (seed, comp_name))
    flags = [r.choice(OPT_LEVELS)]
    for x in EXTRA_FLAGS:
        if r.random() < 0.3:
            flags.append(x)
    # GCC: link-time optimisation now and then (the plugin is on the one
    # command line that compiles and links, so lto1 loads it too)
    if comp_name == "gcc" and r.random() < 0.1:
        flags.append("-flto")
    return flags


def process_seed(job):
    cfg, seed = job
    set_arch(cfg.arch)
    res = {"seed": seed, "builds": 0, "nests": 0, "pragmas": 0, "transformed": 0,
           "refused": 0, "fast": 0, "fallback": 0, "findings": [], "plain_differs": [],
           "gen_error": None, "per_comp": {}, "secs": 0.0}
    t0 = time.time()
    wdir = os.path.join(cfg.work, "seed%d" % seed)
    os.makedirs(wdir, exist_ok=True)
    probe = Probe(cfg, wdir)
    prog = gen.make_program(seed, only_xforms=cfg.xforms_only)
    src, meta = probe.write(prog, "prog")
    with open(os.path.join(wdir, "prog.json"), "w") as f:
        json.dump(prog, f, indent=1, sort_keys=True)
    res["nests"], res["pragmas"] = meta["nests"], meta["pragmas"]

    # the reference: plain GCC at -O0
    rc, ref_exe, err, cmd = probe.build(cfg.ref_cc, src, ["-O0"], False)
    if rc != 0:
        res["gen_error"] = "reference build failed:\n  %s\n%s" % (
            " ".join(map(shlex.quote, cmd)), tail(err))
        res["secs"] = time.time() - t0
        return res
    rrc, ref_out, rerr, _ = probe.run(ref_exe, {})
    if rrc != 0:
        res["gen_error"] = "reference run failed (%s):\n%s" % (rrc, tail(rerr))
        res["secs"] = time.time() - t0
        return res

    for comp in cfg.compilers:
        flags = flags_for(seed, comp.name)
        pc = {"flags": " ".join(flags)}
        res["per_comp"][comp.name] = pc
        rc, exe, err, cmd = probe.build(comp, src, flags, True)
        res["builds"] += 1
        pc["transformed"] = len([l for l in err.splitlines() if REMARK_RE.search(l)])
        pc["refused"] = len([l for l in err.splitlines() if REFUSAL_RE.search(l)])
        res["transformed"] += pc["transformed"]
        res["refused"] += pc["refused"]
        kind = None
        detail = ""
        envname = "default"
        if rc == "timeout":
            kind, detail = "compile-hang", "plugin build ran past %ds" % cfg.compile_timeout
        elif rc != 0:
            kind = "ice" if is_crash(rc, err) else "compile-error"
            detail = "plugin build exited with %s: %s\n%s" % (rc, first_error(err), tail(err))
        if kind:
            prc, _, perr, _ = probe.build(comp.cc, src, flags, False)
            if prc != 0:
                res["gen_error"] = "plain build (%s %s) failed too:\n%s" % (
                    comp.cc, " ".join(flags), tail(perr))
                continue
            res["findings"].append(report_finding(cfg, probe, prog, seed, comp, flags, {},
                                                  "default", kind, detail, err))
            continue
        plain = None        # (rc, out) of the plain build with the same flags
        if cfg.full or random.Random("%d/%s/plain" % (seed, comp.name)).random() < 0.125:
            plain = plain_run(probe, comp, src, flags)
            if plain[0] == 0 and plain[1] != ref_out:
                res["plain_differs"].append("%s %s" % (comp.name, " ".join(flags)))
        for envname, env in ENVS:
            r = probe.run(exe, env)
            if envname == "default":
                m = STATS_RE.search(r[2])
                if m:
                    res["fast"] += int(m.group(1))
                    res["fallback"] += int(m.group(2))
            if r[0] == 0 and r[1] == ref_out and (plain is None or plain[1] == ref_out):
                continue
            if plain is None:
                plain = plain_run(probe, comp, src, flags)
                if plain[0] == 0 and plain[1] != ref_out:
                    res["plain_differs"].append("%s %s" % (comp.name, " ".join(flags)))
            if plain[0] != 0:
                res["gen_error"] = "plain build (%s %s) does not run: %s" % (
                    comp.cc, " ".join(flags), plain[2])
                break
            if r[0] != 0:
                kind = "run-crash"
                detail = "plugin build (%s) exited with %s, plain with 0:\n%s" % (
                    envname, r[0], tail(r[2]))
            elif r[1] != plain[1] and r[1] != ref_out:
                # (the plugin build printing the reference while the plain
                # build with its flags does not is that build's problem,
                # counted in plain_differs: GCC 12.2 at -O3 -march=native
                # vectorizes `s += a[k] * (b[k] - 128)`, int8 a and uint8
                # b, into a wrong dot product)
                kind = "mismatch"
                detail = "plugin build (%s) and plain build differ:\n%s" % (
                    envname, first_diffs(plain[1], r[1]))
            else:
                continue
            res["findings"].append(report_finding(cfg, probe, prog, seed, comp, flags, env,
                                                  envname, kind, detail, err))
            break
    res["secs"] = time.time() - t0
    counts = {v.get("transformed") for v in res["per_comp"].values()}
    res["diverge"] = len(counts) > 1
    if not cfg.keep and not res["findings"] and not res["gen_error"]:
        shutil.rmtree(wdir, ignore_errors=True)
    return res


def plain_run(probe, comp, src, flags):
    rc, exe, err, _ = probe.build(comp.cc, src, flags, False)
    if rc != 0:
        return (rc, b"", "plain build failed: " + tail(err))
    r = probe.run(exe, {})
    return (r[0], r[1], r[2])


# ------------------------------------------------------------ reduction

def reduce_program(cfg, probe, prog, comp, flags, env, kind, log):
    """Greedy: apply the first simplification that keeps the finding, repeat."""
    t0 = time.time()
    cur = prog
    progress = True
    while progress and time.time() - t0 < cfg.reduce_budget:
        progress = False
        for what, cand in gen.simplify(cur):
            if time.time() - t0 > cfg.reduce_budget:
                log.append("(reduction budget of %ds spent)" % cfg.reduce_budget)
                break
            if probe.outcome(cand, comp, flags, env, kind):
                log.append(what)
                cur = cand
                progress = True
                break
    # extra flags that are not needed
    for x in list(flags[1:]):
        fl = [f for f in flags if f != x]
        if time.time() - t0 < cfg.reduce_budget and probe.outcome(cur, comp, fl, env, kind):
            log.append("flag %s not needed" % x)
            flags = fl
    return cur, flags


def may_reduce(cfg, kind, comp, error):
    """None, or why this finding is kept unreduced: reduction is off, the run
    reduced --max-reduce findings already, or one with the same compiler error
    (or crash kind) was reduced before.  The marks live in the work folder
    (emptied when a run starts), so that parallel workers share them."""
    if not cfg.reduce:
        return "reduction is off (--no-reduce)"
    marks = os.path.join(cfg.work, ".reduced")
    os.makedirs(marks, exist_ok=True)
    if kind in ("ice", "compile-error", "compile-hang", "run-crash"):
        sig = "%s %s %s" % (kind, "clang" if comp.clang else "gcc",
                            re.sub(r"[0-9]+", "N", re.sub(r"'[^']*'", "X", error or "")))
        path = os.path.join(marks, "sig-%08x" % (zlib.crc32(sig.encode()) & 0xffffffff))
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return "a finding with the same signature was reduced already (%s)" % sig
    for n in range(cfg.max_reduce):
        try:
            os.close(os.open(os.path.join(marks, "slot-%d" % n),
                             os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            return None
        except FileExistsError:
            continue
    return "%d findings were reduced already (--max-reduce)" % cfg.max_reduce


def report_finding(cfg, probe, prog, seed, comp, flags, env, envname, kind, detail, err):
    log = []
    probe.error = first_error(err)
    red, rflags = prog, list(flags)
    why = may_reduce(cfg, kind, comp, probe.error)
    if why:
        log.append("not reduced: " + why)
    else:
        red, rflags = reduce_program(cfg, probe, prog, comp, list(flags), env, kind, log)
    name = "%s-%s-seed%d" % (kind, comp.name, seed)
    d = os.path.join(cfg.findings, name)
    n = 1
    while os.path.exists(d):
        n += 1
        d = os.path.join(cfg.findings, "%s-%d" % (name, n))
    os.makedirs(d)
    src, _ = gen.emit(red)
    with open(os.path.join(d, "repro.c"), "w") as f:
        f.write(src)
    with open(os.path.join(d, "repro.json"), "w") as f:
        json.dump(red, f, indent=1, sort_keys=True)
    osrc, _ = gen.emit(prog)
    with open(os.path.join(d, "original.c"), "w") as f:
        f.write(osrc)
    # what the reduced program shows
    rsrc = os.path.join(d, "repro.c")
    prc, pexe, perr, pcmd = probe.build(comp, rsrc, rflags, True)
    lrc, lexe, lerr, lcmd = probe.build(comp.cc, rsrc, rflags, False)
    shown = ""
    if prc == 0 and lrc == 0:
        a = probe.run(lexe, {})
        b = probe.run(pexe, env)
        if kind == "mismatch":
            shown = first_diffs(a[1], b[1], 20)
        else:
            shown = "plain exit %s, plugin exit %s\n%s" % (a[0], b[0], tail(b[2]))
    else:
        shown = "plugin build exit %s:\n%s" % (prc, tail(perr, 40))
    envs = " ".join("%s=%s" % kv for kv in env.items())
    # sanitizer builds: the compiler's and the programs' environment
    cc_pre = "".join("%s=%s " % (k, shlex.quote(v)) for k, v in cfg.cc_env.items())
    run_pre = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in cfg.run_env.items())
    plug = " ".join(shlex.quote(x) for x in comp.plugin_flags())
    fl = " ".join(rflags + omp_flags(comp.cc, os.path.join(d, "repro.c")))
    lib, inc = cfg.lib, cfg.include
    sh = ["#!/bin/sh",
          "# mixprec fuzz finding: %s under %s %s%s (seed %d), reduced." % (
              kind, comp.name, fl, (" with " + envs) if envs else "", seed),
          "# Builds repro.c without and with the plugin, runs both, shows the difference.",
          "cd \"$(dirname \"$0\")\"",
          ("CC=%s" % shlex.quote("env %s%s" % (cc_pre, comp.cc))) if cc_pre
          else "CC=%s" % shlex.quote(comp.cc),
          "INC=%s" % shlex.quote(inc),
          "LIB=%s" % shlex.quote(lib),
          "$CC %s -std=gnu11 -I\"$INC\" -Wno-unknown-pragmas repro.c -o plain.exe "
          "-L\"$LIB\" -Wl,-rpath,\"$LIB\" -lmixprec -lm || exit 1" % fl,
          "$CC %s -std=gnu11 -I\"$INC\" %s repro.c -o plugin.exe "
          "-L\"$LIB\" -Wl,-rpath,\"$LIB\" -lmixprec -lm || exit 1" % (fl, plug),
          "RUN=%s" % shlex.quote(" ".join(RUNNER)),
          ("env %s $RUN ./plain.exe > plain.out" % run_pre) if run_pre
          else "$RUN ./plain.exe > plain.out",
          # the differential runs set MIXPREC_SMALL=0 (run_cmd): the kernels
          # however small the shape, as the finding was made
          "env %s $RUN ./plugin.exe > plugin.out" % " ".join(
              x for x in (run_pre, "MIXPREC_SMALL=0", envs) if x),
          "echo \"plain exit 0, plugin exit $?\"",
          "diff plain.out plugin.out && echo 'no difference'"]
    with open(os.path.join(d, "cmd.sh"), "w") as f:
        f.write("\n".join(sh) + "\n")
    os.chmod(os.path.join(d, "cmd.sh"), 0o755)
    rep = ["kind: %s" % kind, "compiler: %s (%s)" % (comp.name, comp.cc),
           "flags: %s (found with %s)" % (fl, " ".join(flags)),
           "environment: %s" % (envs or "(none)"), "seed: %d" % seed,
           "reproduce: sh cmd.sh", "",
           "found:", detail, "", "reduced program shows:", shown, "",
           "plugin build diagnostics (reduced program):", tail(perr, 40), "",
           "reduction steps:"] + ["  " + x for x in log]
    with open(os.path.join(d, "report.txt"), "w") as f:
        f.write("\n".join(rep) + "\n")
    return {"kind": kind, "compiler": comp.name, "flags": fl, "env": envname, "dir": d,
            "detail": detail.split("\n")[0]}


# ------------------------------------------------------------- self-test

def self_test(args):
    """A stand-in plugin with a known miscompile (fault_cc.py) must give one
    'mismatch' finding, minimised to one function holding one nest with the
    faulty form, and a cmd.sh that shows the difference."""
    lib = os.path.abspath(args.lib or os.path.join(args.build, "runtime"))
    if not os.path.isfile(os.path.join(lib, "libmixprec.so")) or not shutil.which(args.gcc):
        print("SKIP: runtime library or C compiler missing")
        return EXIT_SKIP
    seed = None
    for sd in range(1, 10000):
        prog = gen.make_program(sd)
        if any(n["k1"] and n["form"] == "scalar" and n["update"] == "pluseq"
               and n.get("share") is None for fn in prog["funcs"] for n in fn.get("nests", [])):
            seed = sd
            break
    fault = os.path.join(HERE, "fault_cc.py")
    os.environ["FZ_REAL_CC"] = args.gcc
    args.work = args.work or tempfile.mkdtemp(prefix="mixprec-fuzz-selftest-")
    args.findings = os.path.join(args.work, "findings")
    shutil.rmtree(args.findings, ignore_errors=True)
    cfg = Config(args)
    shutil.rmtree(os.path.join(cfg.work, ".reduced"), ignore_errors=True)
    cfg.compilers = [Compiler("fault", fault, fault, False)]
    cfg.reduce, cfg.reduce_budget = True, args.reduce_budget
    print("self-test: seed %d through %s (%s)" % (seed, fault, cfg.work))
    res = process_seed((cfg, seed))
    problems = []
    if res["gen_error"]:
        problems.append("generator problem: " + res["gen_error"])
    f = [x for x in res["findings"] if x["kind"] == "mismatch"]
    if len(res["findings"]) != 1 or not f:
        problems.append("expected one mismatch finding, got %r" % res["findings"])
    else:
        d = f[0]["dir"]
        with open(os.path.join(d, "repro.json")) as fh:
            red = json.load(fh)
        nests = [n for fn in red["funcs"] for n in fn.get("nests", [])]
        if len(red["funcs"]) != 1 or len(nests) != 1 or not nests[0]["k1"]:
            problems.append("not minimised to one nest with a 1-based k: %d function(s), "
                            "%d nest(s)" % (len(red["funcs"]), len(nests)))
        if any(len(fn["calls"]) != 1 for fn in red["funcs"]):
            problems.append("not minimised to one call")
        rc, out, err, _ = run_cmd(["sh", os.path.join(d, "cmd.sh")], timeout=300)
        if b"no difference" in out or b"< " not in out:
            problems.append("cmd.sh does not show the difference:\n%s%s"
                            % (out.decode("utf-8", "replace"), err))
        print("self-test: reproducer %s" % d)
    for p in problems:
        print("FAIL: " + p)
    if not problems:
        print("self-test: PASS (the fault was found and minimised)")
    return EXIT_FAIL if problems else EXIT_PASS


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, help="one seed")
    ap.add_argument("--seed-base", type=int, default=None, help="first seed (default: random)")
    ap.add_argument("--seeds", type=int, default=10, help="number of seeds")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build folder holding the plugins and the runtime")
    ap.add_argument("--compilers", default="gcc,clang14,clang19")
    ap.add_argument("--arch", choices=("aarch64",),
                    help="aarch64: the cross compilers (GCC: aarch64-linux-gnu-gcc with "
                    "BUILD/plugin-gcc/mixprec-aarch64.so; clang --target=aarch64-linux-gnu), "
                    "the runtime of BUILD/tests/arm/build, programs run under qemu-aarch64")
    ap.add_argument("--gcc", default="gcc")
    ap.add_argument("--clang", default="clang-14" if shutil.which("clang-14") else "clang")
    ap.add_argument("--clang19", default="clang-19")
    ap.add_argument("--gcc-plugin")
    ap.add_argument("--clang-plugin")
    ap.add_argument("--clang19-plugin")
    ap.add_argument("--include", help="mixprec.h folder (default: the source tree's)")
    ap.add_argument("--lib", help="libmixprec folder (default: BUILD/runtime)")
    ap.add_argument("--work", default=None, help="scratch folder (default: a temporary one)")
    ap.add_argument("--findings", default=os.path.join(HERE, "findings"))
    ap.add_argument("--full", action="store_true",
                    help="always build the plain program with each compiler's flags too")
    ap.add_argument("--xforms-only", action="store_true",
                    help="programs made only of the newer forms (gen.py 'xform' functions: "
                         "steps, unrolled rows, batch loops, regions, OpenMP)")
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--reduce-budget", type=int, default=600, help="seconds per finding")
    ap.add_argument("--max-reduce", type=int, default=20,
                    help="findings reduced per run (the others are kept as found)")
    ap.add_argument("--compile-timeout", type=int, default=180)
    ap.add_argument("--run-timeout", type=int, default=60)
    ap.add_argument("--require-all", action="store_true",
                    help="exit 77 when a compiler or plugin is missing")
    ap.add_argument("--keep", action="store_true", help="keep every work folder")
    ap.add_argument("--summary", help="write the counts as JSON here")
    ap.add_argument("--cc-env", action="append", default=[], metavar="NAME=VALUE",
                    help="environment of the compiler commands (repeatable)")
    ap.add_argument("--run-env", action="append", default=[], metavar="NAME=VALUE",
                    help="environment of the programs (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per program")
    ap.add_argument("--self-test", action="store_true",
                    help="prove that a miscompile is found and minimised (fault_cc.py)")
    args = ap.parse_args()
    if args.arch == "aarch64":
        build = os.path.abspath(args.build)
        if args.gcc == "gcc":
            args.gcc = "aarch64-linux-gnu-gcc"
        args.gcc_plugin = args.gcc_plugin or os.path.join(build, "plugin-gcc",
                                                          "mixprec-aarch64.so")
        args.clang += " --target=aarch64-linux-gnu"
        args.clang19 += " --target=aarch64-linux-gnu"
        args.lib = args.lib or os.path.join(build, "tests", "arm", "build", "runtime")
        set_arch("aarch64")
    if args.self_test:
        return self_test(args)

    wanted = compilers_from_args(args)
    missing = [c for c in wanted if not c.available()]
    for c in missing:
        print("fuzz: %s not available (compiler %r, plugin %r)" % (c.name, c.cc, c.plugin))
    libfile = os.path.join(os.path.abspath(args.lib or os.path.join(args.build, "runtime")),
                           "libmixprec.so")
    if not os.path.isfile(libfile):
        print("fuzz: runtime library not found: %s" % libfile)
        return EXIT_SKIP
    if missing and args.require_all:
        print("SKIP: a compiler or plugin is missing")
        return EXIT_SKIP
    if len(missing) == len(wanted):
        print("SKIP: no compiler with its plugin")
        return EXIT_SKIP
    tmp = None
    if args.work is None:
        tmp = tempfile.mkdtemp(prefix="mixprec-fuzz-")
        args.work = tmp
    cfg = Config(args)
    shutil.rmtree(os.path.join(cfg.work, ".reduced"), ignore_errors=True)
    if args.seed is not None:
        seeds = [args.seed]
    else:
        base = args.seed_base if args.seed_base is not None else \
            random.SystemRandom().randrange(1, 2**40)
        seeds = list(range(base, base + args.seeds))
    print("fuzz: %d program(s), seeds %d..%d, compilers %s, %d job(s), work %s"
          % (len(seeds), seeds[0], seeds[-1], ",".join(c.name for c in cfg.compilers),
             args.jobs, cfg.work))
    sys.stdout.flush()
    t0 = time.time()
    tot = {"programs": 0, "builds": 0, "nests": 0, "pragmas": 0, "transformed": 0,
           "refused": 0, "fast": 0, "fallback": 0, "findings": [], "plain_differs": [],
           "gen_errors": [], "diverge": 0, "diverge_seeds": []}
    jobs = [(cfg, s) for s in seeds]
    if args.jobs > 1:
        pool = multiprocessing.Pool(args.jobs)
        results = pool.imap_unordered(process_seed, jobs)
    else:
        pool = None
        results = map(process_seed, jobs)
    interrupted = False
    # SIGTERM as Ctrl-C: a campaign stopped early still prints (and writes)
    # the counts of the programs it finished
    def on_term(signum, frame):
        # once: a second TERM (`timeout`'s and then the user's) arriving
        # during the clean-up below left no counts and a traceback
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, on_term)
    try:
        for res in results:
            tot["programs"] += 1
            for k in ("builds", "nests", "pragmas", "transformed", "refused", "fast",
                      "fallback"):
                tot[k] += res[k]
            tot["findings"] += res["findings"]
            if res.get("diverge"):
                tot["diverge"] += 1
                tot["diverge_seeds"].append("seed %d: %s" % (res["seed"], ", ".join(
                    "%s %s" % (c, v.get("transformed")) for c, v in
                    sorted(res["per_comp"].items()))))
            tot["plain_differs"] += ["seed %d: %s" % (res["seed"], x)
                                     for x in res["plain_differs"]]
            if res["gen_error"]:
                tot["gen_errors"].append("seed %d: %s" % (res["seed"], res["gen_error"]))
                print("GENERATOR seed %d: %s" % (res["seed"], res["gen_error"]))
            for fd in res["findings"]:
                print("FINDING seed %d: %s under %s %s (%s): %s\n  reproducer: %s"
                      % (res["seed"], fd["kind"], fd["compiler"], fd["flags"], fd["env"],
                         fd["detail"], fd["dir"]))
            if args.verbose:
                print("seed %d: %d nests, %s; %.1fs" % (
                    res["seed"], res["nests"], ", ".join(
                        "%s %s: %d transformed %d refused" % (
                            k, v["flags"], v.get("transformed", 0), v.get("refused", 0))
                        for k, v in res["per_comp"].items()), res["secs"]))
            sys.stdout.flush()
    except KeyboardInterrupt:
        interrupted = True
        if pool:
            pool.terminate()
    finally:
        if pool:
            pool.close()
            pool.join()
    secs = time.time() - t0
    if interrupted:
        print("fuzz: interrupted after %d of %d program(s)" % (tot["programs"], len(seeds)))
        tot["interrupted"] = True
    print("fuzz: %d programs (%d nests, %d pragmas), %d plugin builds in %.0fs: "
          "%d nest builds transformed, %d refused; kernel calls %d, fallbacks %d; "
          "%d finding(s), %d plain-build disagreement(s), %d generator problem(s)"
          % (tot["programs"], tot["nests"], tot["pragmas"], tot["builds"], secs,
             tot["transformed"], tot["refused"], tot["fast"], tot["fallback"],
             len(tot["findings"]), len(tot["plain_differs"]), len(tot["gen_errors"])))
    print("fuzz: %d program(s) where the compilers transform different numbers of nests "
          "(not a finding: one plugin refuses what another transforms)" % tot["diverge"])
    for x in tot["diverge_seeds"]:
        print("  transformed nests per compiler differ: " + x)
    for x in tot["plain_differs"]:
        print("  plain builds disagree: " + x)
    if args.summary:
        tot["seconds"] = secs
        with open(args.summary, "w") as f:
            json.dump(tot, f, indent=1)
    if tmp and not args.keep and not tot["findings"] and not tot["gen_errors"]:
        shutil.rmtree(tmp, ignore_errors=True)
    if tot["findings"] or tot["gen_errors"]:
        return EXIT_FAIL
    return 130 if interrupted else EXIT_PASS


if __name__ == "__main__":
    sys.exit(main())
