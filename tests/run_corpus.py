#!/usr/bin/env python3
"""run_corpus.py -- end-to-end differential and diagnostics driver for mixprec.

  --mode run FILE   (tests/corpus/NAME.c)
      Builds tests/corpus/harness.c once without the plugin, then for every
      -O level (--opt) compiles FILE twice, without and with
      -fplugin=PLUGIN -fopt-info-loop-optimized (clang: -Rpass=mixprec),
      links both with harness.o
      and -lmixprec -lm, runs both on the same fresh seed and compares stdout
      byte for byte.  For the plugin build it also checks:
        * the number of "optimized: mixprec" remarks == MIXPREC-TRANSFORMED;
        * the object references __mixprec_i8_nest iff MIXPREC-TRANSFORMED > 0;
        * MIXPREC_STATS fast > 0 iff MIXPREC-TRANSFORMED > 0 (fallback > 0
          with MIXPREC-EXPECT-FALLBACK: 1);
        * every "// expected-warning {{text}}" at its line, no other mixprec
          warning, no warning the plain build does not have, no ICE.
      At -O2 the plugin build is rerun with MIXPREC_TARGET=scalar|avx2|
      avx512vnni (skipped where the CPU lacks it; --targets: another list)
      and MIXPREC_DISABLE=1 (fast must be 0).  --runner CMD runs the
      programs under CMD (a cross build under qemu-aarch64).  --extra-variants adds -g, -flto (plugin on the link
      line too; clang: also -flto=thin) and -march=native, each at -O2; an
      LTO variant the toolchain cannot link (no LLVM gold plugin) is skipped
      with the reason printed.
  --mode diag FILE  (tests/diag/NAME.c)
      Compiles FILE with the plugin (-c -o /dev/null -Wall -Wextra) and checks
      every "// expected-{error,warning,note} {{text}}" at its line, no other
      error or warning, no ICE, no remark (they are opt-in); then that -w
      removes the warnings, that the group flag (GCC -Wno-pragmas, clang
      -Wno-backend-plugin) removes mixprec's warnings and keeps its errors,
      and that -Werror turns each expected warning into an error.
  --mode compare FILE  (tests/corpus/NAME.c)
      Builds FILE with --cc/--plugin and with --other-cc/--other-plugin (GCC
      and clang) at each --opt level, runs both on the same seed: the
      outputs must be identical, and both must run their nests on the
      kernels when MIXPREC-TRANSFORMED > 0.
  --self-test
      Fault injection: a tiny corpus file built twice, once with
      -DMIXPREC_FAULT (harness.h then corrupts one output byte), must be
      reported different; plus checks of the expectation and diagnostic
      parsers.  Needs only a C compiler.

Expectation syntax (in the source file):
  // MIXPREC-TRANSFORMED: <n>        first 40 lines; nests to be transformed
  // MIXPREC-EXPECT-FALLBACK: 1      some call must take the fallback path
  // MIXPREC-CFLAGS: -fopenmp        extra flags for every build of the file
  ... // expected-warning {{text}}   at the end of the line of the diagnostic
  ... // expected-error@+1 {{text}}  for the next line (@-N, @+N)

Sanitizer builds (-DMIXPREC_SANITIZE=ON): --cc-env NAME=VALUE (repeatable)
adds to the environment of every compiler and linker command (libasan
preloaded into cc1 / clang), --run-env NAME=VALUE to that of every test
program; a sanitizer report in a compiler's output counts as a crash.

Exit status: 0 pass, 1 failure, 77 skipped (plugin file missing).
Python 3.8+ standard library only.
"""

import argparse
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

EXIT_PASS, EXIT_FAIL, EXIT_SKIP = 0, 1, 77
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS_DIR = os.path.join(HERE, "corpus")
NEST_SYMBOL = "__mixprec_i8_nest"
# GCC: "optimized: mixprec: ..." (-fopt-info); clang: "remark: mixprec: ..." (-Rpass=mixprec).
REMARK_RE = re.compile(r"(?:optimized|remark): mixprec:(?! loop nest not transformed)")
STATS_RE = re.compile(r"^MIXPREC_STATS fast=(-?\d+) fallback=(-?\d+)", re.M)
EXPECT_RE = re.compile(r"expected-(error|warning|note|remark)(?:@([+-]\d+))?\s*\{\{(.*?)\}\}")
DIAG_RE = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? "
    r"(?P<kind>fatal error|error|warning|note|optimized|missed|remark): (?P<msg>.*)$")
ICE_MARKERS = ("internal compiler error", "Please submit a full bug report",
               "Segmentation fault", "plugin ... was not compiled",
               # sanitizer builds of the plugins (--cc-env)
               "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", ": runtime error: ",
               "SUMMARY: UndefinedBehaviorSanitizer")
DIAG_FLAGS = ["-fdiagnostics-color=never", "-fno-diagnostics-show-caret"]
CLANG_DIAG_FLAGS = ["-fdiagnostics-color=never", "-fno-caret-diagnostics"]
WARN_FLAGS = ["-Wall", "-Wextra"]
# MIXPREC_TARGET value -> /proc/cpuinfo flags it needs.
TARGETS = [("scalar", []), ("avx2", ["avx2"]),
           ("avx512vnni", ["avx512f", "avx512bw", "avx512_vnni"])]
# --runner: the command that runs the test programs (qemu-aarch64 for a
# cross build), and --targets: the MIXPREC_TARGET values to rerun with
# (their CPU flags are then not checked: the runner's CPU decides, and a
# family it lacks runs the loops as written).
RUNNER = []
RUN_TARGETS = None
RUN_TIMEOUT = 300
COMPILE_TIMEOUT = 600
# --cc-env / --run-env: extra environment of the compiler and linker
# commands, and of the test programs (sanitizer builds).
CC_ENV = {}
RUN_ENV = {}


# ------------------------------------------------------------ expectations

class Expectations:
    """What a source file says about itself."""

    def __init__(self, path):
        self.path = path
        self.transformed = None
        self.expect_fallback = False
        self.cflags = []
        self.diags = []  # (line, kind, substring)
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        for no, text in enumerate(lines, 1):
            if no <= 40:
                m = re.search(r"MIXPREC-TRANSFORMED:\s*(\d+)", text)
                if m:
                    self.transformed = int(m.group(1))
                m = re.search(r"MIXPREC-EXPECT-FALLBACK:\s*(\d+)", text)
                if m:
                    self.expect_fallback = int(m.group(1)) != 0
                m = re.search(r"MIXPREC-CFLAGS:\s*(.*?)\s*(?:\*/)?$", text)
                if m:
                    self.cflags = shlex.split(m.group(1))
            for m in EXPECT_RE.finditer(text):
                line = no + int(m.group(2)) if m.group(2) else no
                self.diags.append((line, m.group(1), m.group(3)))

    def of_kind(self, *kinds):
        return [d for d in self.diags if d[1] in kinds]


class Diag:
    def __init__(self, file, line, col, kind, msg):
        self.file, self.line, self.col, self.kind, self.msg = file, line, col, kind, msg

    def __str__(self):
        return "%s:%d:%s: %s: %s" % (self.file, self.line, self.col, self.kind, self.msg)


def parse_diagnostics(text):
    """gcc stderr -> [Diag]; 'fatal error' counts as 'error'."""
    out = []
    for raw in text.splitlines():
        m = DIAG_RE.match(raw.strip())
        if m:
            kind = "error" if m.group("kind") == "fatal error" else m.group("kind")
            out.append(Diag(m.group("file"), int(m.group("line")), m.group("col") or "0",
                            kind, m.group("msg")))
    return out


def same_file(diag_file, src):
    if os.path.basename(diag_file) != os.path.basename(src):
        return False
    try:
        return os.path.samefile(diag_file, src)
    except OSError:
        return True  # relative names from another cwd: the basename must do


def check_diagnostics(expected, diags, src, kinds=("error", "warning"), only_mixprec=False,
                      promoted=False):
    """Problems (strings): expected diagnostics missing, unexpected present.

    expected: [(line, kind, substring)] from Expectations.diags.
    kinds: the diagnostic kinds that must all be expected.  only_mixprec:
    consider only diagnostics whose text mentions mixprec (run mode, where
    the compiler's own warnings are compared with the plain build instead).
    promoted: -Werror, each expected warning must appear as an error."""
    problems = []
    wanted = [(l, ("error" if promoted and k == "warning" else k), s) for l, k, s in expected]
    if promoted:
        wanted = [w for w in wanted if w[1] != "note"]
    here = [d for d in diags if same_file(d.file, src)]
    for line, kind, sub in wanted:
        if not any(d.line == line and d.kind == kind and sub in d.msg for d in here):
            got = ["  " + str(d) for d in here if d.line == line] or ["  (nothing at that line)"]
            problems.append("missing expected %s at line %d: {{%s}}; got:\n%s"
                            % (kind, line, sub, "\n".join(got)))
    for d in diags:
        if d.kind not in kinds or (only_mixprec and "mixprec" not in d.msg):
            continue
        ok = same_file(d.file, src) and any(
            line == d.line and kind == d.kind and sub in d.msg for line, kind, sub in wanted)
        if not ok:
            problems.append("unexpected %s: %s" % (d.kind, d))
    return problems


def crash_problem(what, proc_rc, text):
    for marker in ICE_MARKERS:
        if marker in text:
            return "%s: compiler crash (%s):\n%s" % (what, marker, tail(text))
    if proc_rc is not None and (proc_rc < 0 or proc_rc > 1):
        return "%s: compiler exited with status %d:\n%s" % (what, proc_rc, tail(text))
    return None


def tail(text, n=40):
    lines = text.rstrip("\n").split("\n")
    return "\n".join(("    " + l) for l in lines[-n:])


# -------------------------------------------------------------- processes

_CLANG = {}


def is_clang(cc):
    """Is the compiler command cc (a list) clang?  Asks `cc --version` once."""
    key = tuple(cc)
    if key not in _CLANG:
        try:
            out = subprocess.run(list(cc) + ["--version"], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, timeout=60).stdout.decode("utf-8", "replace")
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        _CLANG[key] = "clang" in out.split("\n", 1)[0]
    return _CLANG[key]


def diag_flags(cc):
    """Plain one-line diagnostics (the spelling differs between GCC and clang)."""
    return CLANG_DIAG_FLAGS if is_clang(cc) else DIAG_FLAGS


def remark_flag(cc):
    """The flag that makes the plugin report each transformed nest."""
    return "-Rpass=mixprec" if is_clang(cc) else "-fopt-info-loop-optimized"


_LTO = {}


def lto_unavailable(cc, cflags, work):
    """None if cc can compile and link a trivial program with cflags (an LTO
    mode), else the reason (e.g. clang without the LLVM gold plugin or lld)."""
    key = (tuple(cc), tuple(cflags))
    if key not in _LTO:
        src = os.path.join(work, "lto-probe.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        exe = os.path.join(work, "lto-probe.exe")
        rc, _, err = run_cc(list(cc) + list(cflags) + [src, "-o", exe])
        lines = [l for l in err.splitlines() if "error" in l] or err.splitlines() or ["?"]
        _LTO[key] = None if rc == 0 else lines[0].strip()
    return _LTO[key]


def warning_group_off(cc):
    """The flag that silences the plugin's refusal warnings (their group)."""
    return "-Wno-backend-plugin" if is_clang(cc) else "-Wno-pragmas"


def run_cmd(cmd, env=None, timeout=COMPILE_TIMEOUT, binary=False):
    """-> (rc, stdout, stderr); rc -999 on timeout."""
    full_env = dict(os.environ)
    full_env["LC_ALL"] = "C"  # ASCII quotes in diagnostics, as the expectations write them
    if env:
        full_env.update(env)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return -999, e.stdout or b"", (e.stderr or b"").decode("utf-8", "replace") + "\n(timeout)"
    out = p.stdout if binary else p.stdout.decode("utf-8", "replace")
    return p.returncode, out, p.stderr.decode("utf-8", "replace")


def run_cc(cmd, timeout=COMPILE_TIMEOUT):
    """A compiler or linker command (environment: --cc-env)."""
    return run_cmd(cmd, env=CC_ENV or None, timeout=timeout)


def run_prog(cmd, env=None, timeout=RUN_TIMEOUT, binary=False):
    """A test program (environment: --run-env, then env).  MIXPREC_SMALL=0
    unless they say otherwise: the corpus is differential, its nests must
    run on the kernels however small their extents (the runtime's cost
    model would run the original loop on the tiny ones)."""
    full = {"MIXPREC_SMALL": "0"}
    full.update(RUN_ENV)
    full.update(env or {})
    return run_cmd(RUNNER + list(cmd), env=full or None, timeout=timeout, binary=binary)


def cmdline(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return None


def references_symbol(path, symbol, nm="nm"):
    rc, out, err = run_cmd([nm, "-P", path])
    if rc != 0:
        raise RuntimeError("nm failed on %s: %s" % (path, err.strip()))
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0].split("@")[0] == symbol:
            return True
    return False


def parse_stats(stderr):
    m = STATS_RE.search(stderr)
    return (int(m.group(1)), int(m.group(2))) if m else None


# ------------------------------------------------------------ comparison

def first_difference(a, b):
    """a, b: stdout bytes of the two builds -> None or a short description."""
    if a == b:
        return None
    la, lb = a.decode("utf-8", "replace").split("\n"), b.decode("utf-8", "replace").split("\n")
    report = []
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<missing>"
        y = lb[i] if i < len(lb) else "<missing>"
        if x != y:
            report.append("  line %d\n    reference: %s\n    plugin:    %s" % (i + 1, x, y))
            if len(report) == 5:
                report.append("  ...")
                break
    return "outputs differ (%d vs %d bytes):\n%s" % (len(a), len(b), "\n".join(report))


def locate_byte(exe_ref, exe_test, seed, env):
    """Rerun both with MIXPREC_HARNESS_DUMP=1 and name the first differing byte."""
    dump_env = dict(env or {})
    dump_env["MIXPREC_HARNESS_DUMP"] = "1"
    outs = []
    for exe in (exe_ref, exe_test):
        rc, out, _ = run_prog([exe, str(seed)], env=dump_env)
        outs.append(out)
    blocks = [re.findall(r"  dump (.*?):\n((?:  [0-9a-f]*\n)*)", o) for o in outs]
    for (name_a, hex_a), (_, hex_b) in zip(*blocks):
        ha, hb = re.sub(r"\s", "", hex_a), re.sub(r"\s", "", hex_b)
        if ha != hb:
            for i in range(0, min(len(ha), len(hb)), 2):
                if ha[i:i + 2] != hb[i:i + 2]:
                    return "first differing byte of '%s': offset %d: reference %s, plugin %s" % (
                        name_a, i // 2, ha[i:i + 2], hb[i:i + 2])
            return "'%s' differs in length" % name_a
    return None


# --------------------------------------------------------------- builder

class Builder:
    def __init__(self, args, src):
        self.args = args
        self.src = os.path.abspath(src)
        self.name = os.path.splitext(os.path.basename(src))[0]
        self.work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="mixprec-corpus-"))
        os.makedirs(self.work, exist_ok=True)
        self.cc = shlex.split(args.cc)
        self.inc = ["-I", CORPUS_DIR] + (["-I", args.include] if args.include else [])
        # the file's own flags (// MIXPREC-CFLAGS:), on every compile and link
        self.file_cflags = (Expectations(src).cflags if os.path.exists(src) else []) + \
            shlex.split(args.cflags or "")
        self.harness_obj = None

    def libs(self):
        lib = self.args.lib
        flags = ["-L", lib, "-Wl,-rpath," + os.path.abspath(lib)] if lib else []
        return flags + ["-lmixprec", "-lm"]

    def harness(self, extra=()):
        if self.harness_obj is None:
            obj = os.path.join(self.work, "harness.o")
            cmd = self.cc + ["-O2", "-g"] + diag_flags(self.cc) + self.inc + list(extra) + [
                "-c", os.path.join(CORPUS_DIR, "harness.c"), "-o", obj]
            rc, _, err = run_cc(cmd)
            if rc != 0:
                raise BuildError("harness.c does not compile:\n  %s\n%s" % (cmdline(cmd), tail(err)))
            self.harness_obj = obj
        return self.harness_obj

    def build(self, tag, cflags, plugin, link_plugin=False, defines=(), libs=None):
        cflags = list(cflags) + self.file_cflags
        """Compile and link the corpus file -> (obj, exe, compile stderr)."""
        kind = "plugin" if plugin else "plain"
        stem = os.path.join(self.work, "%s.%s.%s" % (self.name, tag, kind))
        obj, exe = stem + ".o", stem + ".exe"
        pflags = (["-fplugin=" + os.path.abspath(plugin), remark_flag(self.cc)] if plugin else [])
        warn = WARN_FLAGS + ([] if plugin else ["-Wno-unknown-pragmas"])
        cmd = (self.cc + list(cflags) + warn + diag_flags(self.cc) + self.inc + list(defines) + pflags
               + ["-c", self.src, "-o", obj])
        rc, _, err = run_cc(cmd)
        crash = crash_problem("compile (%s, %s)" % (tag, kind), rc, err)
        if crash:
            raise BuildError(crash + "\n  " + cmdline(cmd))
        if rc != 0:
            raise BuildError("compile (%s, %s) failed:\n  %s\n%s" % (tag, kind, cmdline(cmd), tail(err)))
        # clang's plugin is a front-end plugin: nothing to load at link time.
        lflags = (["-fplugin=" + os.path.abspath(plugin)]
                  if plugin and link_plugin and not is_clang(self.cc) else [])
        link = (self.cc + list(cflags) + lflags + diag_flags(self.cc) + [obj, self.harness()]
                + (self.libs() if libs is None else list(libs)) + ["-o", exe])
        rc, _, lerr = run_cc(link)
        crash = crash_problem("link (%s, %s)" % (tag, kind), rc, lerr)
        if crash or rc != 0:
            raise BuildError((crash or "link (%s, %s) failed:" % (tag, kind))
                             + "\n  " + cmdline(link) + "\n" + tail(lerr))
        return obj, exe, err

    def run(self, exe, seed, env=None):
        rc, out, err = run_prog([exe, str(seed)], env=env, binary=True)
        return rc, out, err


class BuildError(Exception):
    pass


# -------------------------------------------------------------- run mode

def seeds_for(args):
    base = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**62)
    return base


def run_mode(args):
    if not args.plugin or not os.path.isfile(args.plugin):
        print("SKIP: plugin not found: %r" % args.plugin)
        return EXIT_SKIP
    exp = Expectations(args.file)
    if exp.transformed is None:
        print("FAIL: %s has no '// MIXPREC-TRANSFORMED: <n>' line" % args.file)
        return EXIT_FAIL
    b = Builder(args, args.file)
    base_seed = seeds_for(args)
    print("corpus %s: expect %d transformed nest(s), %d expected warning(s); seed %d "
          "(reproduce with --seed %d); work %s"
          % (b.name, exp.transformed, len(exp.of_kind("warning")), base_seed, base_seed, b.work))
    failures = []
    levels = args.opt.split()
    variants = [(o.lstrip("-"), [o], False) for o in levels]
    if args.extra_variants:
        variants += [("O2-g", ["-O2", "-g"], False), ("O2-flto", ["-O2", "-flto"], True),
                     ("O2-march-native", ["-O2", "-march=native"], False)]
        if is_clang(b.cc):
            # clang's two LTO flavours (full and ThinLTO) link differently.
            variants.insert(-1, ("O2-flto-thin", ["-O2", "-flto=thin"], True))
        kept = []
        for v in variants:
            why = lto_unavailable(b.cc, v[1], b.work) if v[2] else None
            if why:
                print("SKIP [%s]: this toolchain cannot link with it (%s)" % (" ".join(v[1]), why))
            else:
                kept.append(v)
        variants = kept
    env_level = "O2" if "-O2" in levels else (variants[0][0] if variants else None)
    n_seed = 0
    for tag, cflags, lto in variants:
        for rep in range(args.runs):
            seed = base_seed + n_seed
            n_seed += 1
            problems = check_variant(args, b, exp, tag, cflags, lto, seed,
                                     with_env=(tag == env_level and rep == 0))
            label = "%s seed %d" % (" ".join(cflags), seed)
            if problems:
                failures.append(label)
                print("FAIL [%s]" % label)
                for p in problems:
                    print("  - " + p.replace("\n", "\n    "))
            else:
                print("PASS [%s]" % label)
    if failures:
        print("corpus %s: %d failing variant(s): %s" % (b.name, len(failures), "; ".join(failures)))
        return EXIT_FAIL
    print("corpus %s: all variants pass" % b.name)
    return EXIT_PASS


def check_variant(args, b, exp, tag, cflags, lto, seed, with_env):
    """Build plain + plugin with cflags, run, compare, check expectations."""
    problems = []
    try:
        ref_obj, ref_exe, ref_err = b.build(tag, cflags, None)
        obj, exe, err = b.build(tag, cflags, args.plugin, link_plugin=lto)
    except BuildError as e:
        return [str(e)]

    # Compile-time expectations of the plugin build.
    if not args.skip_expect:
        remarks = [l for l in err.splitlines() if REMARK_RE.search(l)]
        if len(remarks) != exp.transformed:
            problems.append("expected %d 'optimized: mixprec' remark(s), got %d:\n%s"
                            % (exp.transformed, len(remarks), "\n".join(remarks) or "(none)"))
        diags = parse_diagnostics(err)
        problems += check_diagnostics(exp.diags, diags, b.src, kinds=("error", "warning"),
                                      only_mixprec=True)
        plain = {(d.line, d.msg) for d in parse_diagnostics(ref_err) if d.kind == "warning"}
        # the optimizer's own warnings about a loop it was asked to vectorise
        # (`#pragma omp simd` kept as the fallback) may move to the OpenMP
        # directive's line: as many as the plain build has, at any line or
        # none, count as its own
        novec = ref_err.count("warning: loop not vectorized")   # with or without a line
        extra = []
        for d in diags:
            if d.kind == "warning" and "mixprec" not in d.msg and (d.line, d.msg) not in plain:
                if d.msg.startswith("loop not vectorized") and novec > 0:
                    novec -= 1
                    continue
                if str(d) not in extra:
                    extra.append(str(d))
        if extra:
            problems.append("%d warning(s) in the plugin build only, e.g.:\n  %s"
                            % (len(extra), "\n  ".join(extra[:5])))
        try:
            # Slim LTO objects hold no machine code: look at the executable.
            target = exe if lto else obj
            refs = references_symbol(target, NEST_SYMBOL, args.nm)
            if refs != (exp.transformed > 0):
                problems.append("%s %s %s" % (os.path.basename(target),
                                              "references" if refs else "does not reference",
                                              NEST_SYMBOL))
            if references_symbol(ref_obj, NEST_SYMBOL, args.nm):
                problems.append("the plain build references %s" % NEST_SYMBOL)
        except RuntimeError as e:
            problems.append(str(e))

    # Run both on the same seed.
    rc, ref_out, ref_rerr = b.run(ref_exe, seed)
    if rc != 0:
        return problems + ["reference build exited with %d:\n%s" % (rc, tail(ref_rerr))]
    ref_stats = parse_stats(ref_rerr)
    if ref_stats and ref_stats[0] != 0:
        problems.append("reference build reports fast=%d" % ref_stats[0])

    runs = [("default", {})]
    if with_env:
        flags = cpu_flags()
        targets = TARGETS if RUN_TARGETS is None else [(t, []) for t in RUN_TARGETS]
        for target, need in targets:
            if flags is not None and not all(f in flags for f in need):
                print("  (skip MIXPREC_TARGET=%s: the CPU lacks %s)"
                      % (target, " ".join(f for f in need if f not in flags)))
                continue
            runs.append(("MIXPREC_TARGET=" + target, {"MIXPREC_TARGET": target}))
        runs.append(("MIXPREC_DISABLE=1", {"MIXPREC_DISABLE": "1"}))
    for what, env in runs:
        rc, out, rerr = b.run(exe, seed, env)
        if rc != 0:
            problems.append("plugin build (%s) exited with %d:\n%s" % (what, rc, tail(rerr)))
            continue
        diff = first_difference(ref_out, out)
        if diff:
            where = locate_byte(ref_exe, exe, seed, env)
            problems.append("%s: %s%s" % (what, diff, ("\n  " + where) if where else ""))
        stats = parse_stats(rerr)
        if args.skip_expect:
            continue
        if stats is None:
            problems.append("%s: no MIXPREC_STATS line on stderr" % what)
            continue
        fast, fallback = stats
        if env.get("MIXPREC_DISABLE"):
            if fast != 0:
                problems.append("%s: fast=%d, expected 0" % (what, fast))
            if exp.transformed > 0 and fallback == 0:
                problems.append("%s: fallback=0, expected the original loops to run" % what)
        elif exp.transformed > 0 and fast == 0:
            problems.append("%s: MIXPREC_STATS fast=0 fallback=%d, expected fast > 0"
                            % (what, fallback))
        elif exp.transformed == 0 and fast != 0:
            problems.append("%s: fast=%d in a file with no transformed nest" % (what, fast))
        if what == "default" and exp.expect_fallback and fallback == 0:
            problems.append("%s: fallback=0, expected the run-time checks to choose the "
                            "original loop at least once" % what)
    return problems


# ---------------------------------------------------------- compare mode

def compare_mode(args):
    """FILE built with --cc/--plugin and with --other-cc/--other-plugin (GCC
    and clang), each at the --opt levels: both programs must print the same
    bytes for the same seed, and both must run their nests on the kernels
    when the file expects transformed nests."""
    pairs = [(args.cc, args.plugin), (args.other_cc, args.other_plugin)]
    for cc, plugin in pairs:
        if not cc or not plugin or not os.path.isfile(plugin):
            print("SKIP: plugin not found: %r" % plugin)
            return EXIT_SKIP
    exp = Expectations(args.file)
    if exp.transformed is None:
        print("FAIL: %s has no '// MIXPREC-TRANSFORMED: <n>' line" % args.file)
        return EXIT_FAIL
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="mixprec-compare-"))
    builders = []
    for i, (cc, plugin) in enumerate(pairs):
        sub = argparse.Namespace(**vars(args))
        sub.cc, sub.plugin, sub.work = cc, plugin, os.path.join(work, "cc%d" % i)
        builders.append(Builder(sub, args.file))
    seed = seeds_for(args)
    print("compare %s: %s vs %s, seed %d (reproduce with --seed %d)"
          % (builders[0].name, args.cc, args.other_cc, seed, seed))
    problems = []
    skipped = []
    for level in args.opt.split():
        outs = {}
        for kind in ("plain", "plugin"):
            for i, b in enumerate(builders):
                plugin = b.args.plugin if kind == "plugin" else None
                try:
                    _, exe, _ = b.build(level.lstrip("-"), [level], plugin)
                except BuildError as e:
                    problems.append(str(e))
                    continue
                rc, out, err = b.run(exe, seed)
                if rc != 0:
                    problems.append("%s %s (%s): exited with %d:\n%s"
                                    % (b.args.cc, level, kind, rc, tail(err)))
                    continue
                stats = parse_stats(err)
                if kind == "plugin" and exp.transformed > 0 and (stats is None or stats[0] == 0):
                    problems.append("%s %s: no nest ran on the kernels (%s)"
                                    % (b.args.cc, level, stats))
                outs[kind, i] = out
        if len(outs) != 4:
            continue
        # A program whose own output depends on the compiler (unspecified
        # evaluation order of arguments, say) cannot be compared.
        plain_diff = first_difference(outs["plain", 0], outs["plain", 1])
        if plain_diff:
            skipped.append("%s: the builds without the plugin differ already, the program's "
                           "output depends on the compiler:\n%s" % (level, plain_diff))
            continue
        diff = (first_difference(outs["plugin", 0], outs["plugin", 1])
                or first_difference(outs["plain", 0], outs["plugin", 0]))
        if diff:
            problems.append("%s: %s" % (level, diff.replace("reference", "first    ")
                                        .replace("plugin:   ", "second:   ")))
        else:
            print("SAME [%s] %d bytes (all four builds: each compiler with and without its plugin)"
                  % (level, len(outs["plugin", 0])))
    if skipped and not problems:
        print("SKIP")
        for p in skipped:
            print("  - " + p.replace("\n", "\n    "))
        return EXIT_SKIP
    if problems:
        print("FAIL")
        for p in problems:
            print("  - " + p.replace("\n", "\n    "))
        return EXIT_FAIL
    print("PASS")
    return EXIT_PASS


# ------------------------------------------------------------- diag mode

def diag_mode(args):
    if not args.plugin or not os.path.isfile(args.plugin):
        print("SKIP: plugin not found: %r" % args.plugin)
        return EXIT_SKIP
    exp = Expectations(args.file)
    src = os.path.abspath(args.file)
    cc = shlex.split(args.cc)
    inc = ["-I", args.include] if args.include else []
    base = (cc + ["-fplugin=" + os.path.abspath(args.plugin)] + diag_flags(cc) + inc
            + shlex.split(args.diag_flags) + exp.cflags + ["-c", src, "-o", os.devnull])
    problems = []
    want_errors = bool(exp.of_kind("error"))
    want_warnings = bool(exp.of_kind("warning"))

    def compile_(extra, what):
        cmd = base[:len(cc)] + list(extra) + base[len(cc):]
        rc, _, err = run_cc(cmd)
        crash = crash_problem(what, rc, err)
        if crash:
            problems.append(crash + "\n  " + cmdline(cmd))
        return rc, err, cmd

    rc, err, cmd = compile_(WARN_FLAGS, "diag")
    first_err = err
    print("diag %s: %d expectation(s)\n  %s" % (os.path.basename(src), len(exp.diags), cmdline(cmd)))
    problems += check_diagnostics(exp.diags, parse_diagnostics(err), src)
    if want_errors != (rc != 0):
        problems.append("compiler exit status %d, expected %s" % (rc, "failure" if want_errors else "0"))

    # -w: no warnings at all, the errors stay.
    rc, err, _ = compile_(WARN_FLAGS + ["-w"], "diag -w")
    left = [str(d) for d in parse_diagnostics(err) if d.kind == "warning"]
    if left:
        problems.append("-w leaves warnings:\n  " + "\n  ".join(left))
    problems += ["-w: " + p for p in check_diagnostics(exp.of_kind("error"), parse_diagnostics(err),
                                                       src, kinds=("error",))]
    # The warning group alone (GCC -Wno-pragmas, clang -Wno-backend-plugin):
    # no mixprec warning, the errors stay.
    group = warning_group_off(cc)
    rc, err, _ = compile_(WARN_FLAGS + [group], "diag " + group)
    left = [str(d) for d in parse_diagnostics(err) if d.kind == "warning" and "mixprec" in d.msg]
    if left:
        problems.append("%s leaves mixprec warnings:\n  %s" % (group, "\n  ".join(left)))
    problems += [group + ": " + p for p in check_diagnostics(
        exp.of_kind("error"), parse_diagnostics(err), src, kinds=("error",))]
    # Remarks are opt-in: none without the remark flag (first compile above).
    if any(REMARK_RE.search(l) for l in first_err.splitlines()):
        problems.append("remarks printed without %s" % remark_flag(cc))
    # -Werror: the expected warnings become errors.
    if want_warnings:
        rc, err, _ = compile_(WARN_FLAGS + ["-Werror"], "diag -Werror")
        if rc == 0:
            problems.append("-Werror: compilation succeeded despite expected warnings")
        problems += ["-Werror: " + p for p in check_diagnostics(exp.diags, parse_diagnostics(err), src,
                                                                kinds=("error",), promoted=True)]
    if problems:
        print("FAIL")
        for p in problems:
            print("  - " + p.replace("\n", "\n    "))
        return EXIT_FAIL
    print("PASS")
    return EXIT_PASS


# ------------------------------------------------------------- self-test

SELFTEST_SRC = r"""// MIXPREC-TRANSFORMED: 1
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void st_gemm(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{self-test}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32((size_t)M * N, -1000, 1000);
		st_gemm(M, N, K, A, B, C);
		harness_out_array(harness_name("st %dx%dx%d", M, N, K), C, (size_t)M * N);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
"""


def self_test(args):
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="mixprec-selftest-"))
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "selftest.c")
    with open(src, "w") as f:
        f.write(SELFTEST_SRC)
    checks = []

    def check(cond, what):
        checks.append(what)
        print("%s %s" % ("ok  " if cond else "FAIL", what))
        if not cond:
            raise SystemExit(EXIT_FAIL)

    # Expectation and diagnostic parsing.
    exp = Expectations(src)
    check(exp.transformed == 1 and exp.diags == [(9, "warning", "self-test")],
          "expectations parsed (MIXPREC-TRANSFORMED, expected-warning at line 9)")
    good = src + ":9:9: warning: mixprec: self-test reason [-Wpragmas]\n"
    check(check_diagnostics(exp.diags, parse_diagnostics(good), src, only_mixprec=True) == [],
          "an expected warning at its line is accepted")
    check(any("missing" in p for p in check_diagnostics(
        exp.diags, parse_diagnostics(src + ":10:9: warning: mixprec: self-test\n"), src)),
          "a warning at the wrong line is reported missing")
    check(any("unexpected" in p for p in check_diagnostics(
        exp.diags, parse_diagnostics(good + src + ":3:1: warning: mixprec: other\n"), src)),
          "an unexpected mixprec warning is reported")
    check(check_diagnostics(exp.diags, parse_diagnostics(
        src + ":9:9: error: mixprec: self-test [-Werror=pragmas]\n"), src, kinds=("error",),
        promoted=True) == [], "-Werror promotion is matched")
    check(crash_problem("x", 4, "x.c:1:1: internal compiler error: Segmentation fault") is not None,
          "an internal compiler error is detected")
    check(REMARK_RE.search(src + ":9:9: optimized: mixprec: 1 nest, s8s8 8x32c4") is not None
          and REMARK_RE.search(src + ":9:9: remark: mixprec: 1 nest [-Rremark-backend-plugin]")
          and not REMARK_RE.search(src + ":9:9: remark: mixprec: loop nest not transformed: x"),
          "remark lines are counted (GCC and clang forms)")

    # Fault injection through the real build / run / compare path.
    args.work = work
    b = Builder(args, src)
    b.harness(extra=["-DHARNESS_NO_RUNTIME"])
    try:
        _, ref_exe, _ = b.build("selftest", ["-O2"], None, libs=["-lm"])
        _, same_exe, _ = b.build("selftest-again", ["-O1"], None, libs=["-lm"])
        _, bad_exe, _ = b.build("selftest-fault", ["-O2"], None, defines=["-DMIXPREC_FAULT"],
                                libs=["-lm"])
    except BuildError as e:
        print("FAIL self-test build: %s" % e)
        return EXIT_FAIL
    seed = args.seed if args.seed is not None else 20240611
    _, ref_out, ref_err = b.run(ref_exe, seed)
    _, same_out, _ = b.run(same_exe, seed)
    _, bad_out, _ = b.run(bad_exe, seed)
    _, other_out, _ = b.run(ref_exe, seed + 1)
    check(parse_stats(ref_err) == (0, 0), "the harness prints MIXPREC_STATS")
    check(("MIXPREC_SEED=%d" % seed) in ref_err, "the harness prints its seed")
    check(len(ref_out) > 0 and first_difference(ref_out, same_out) is None,
          "two correct builds compare equal")
    check(first_difference(ref_out, other_out) is not None, "another seed gives other data")
    diff = first_difference(ref_out, bad_out)
    check(diff is not None and "outputs differ" in diff, "the injected fault is reported")
    where = locate_byte(ref_exe, bad_exe, seed, {})
    check(where is not None and "first differing byte" in where,
          "the first differing byte is located: %s" % where)

    # The plugin missing means skipped.
    args.plugin = os.path.join(work, "no-such-plugin.so")
    args.file = src
    check(run_mode(args) == EXIT_SKIP and diag_mode(args) == EXIT_SKIP,
          "a missing plugin gives exit status 77")
    print("self-test: %d checks passed" % len(checks))
    return EXIT_PASS


# ------------------------------------------------------------------ main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", help="corpus or diag source file")
    ap.add_argument("--mode", choices=("run", "diag", "compare"))
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    ap.add_argument("--plugin", help="path of the plugin (mixprec.so, mixprec-clang.so)")
    ap.add_argument("--other-cc", help="compare mode: the second compiler")
    ap.add_argument("--other-plugin", help="compare mode: the second compiler's plugin")
    ap.add_argument("--include", default=os.path.join(ROOT, "include"),
                    help="directory of mixprec.h")
    ap.add_argument("--lib", help="directory holding libmixprec.so")
    ap.add_argument("--work", help="scratch directory (default: a new temporary one)")
    ap.add_argument("--opt", default="-O0 -O1 -O2 -O3 -Os", help="optimization levels")
    ap.add_argument("--extra-variants", action="store_true",
                    help="also -O2 with -g, -flto and -march=native")
    ap.add_argument("--seed", type=int, help="base seed (default: fresh)")
    ap.add_argument("--runs", type=int, default=1, help="seeds per variant")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--cflags", default="",
                    help="extra flags for every compile and link (after the file's own)")
    ap.add_argument("--runner", default="",
                    help="command prefix that runs the test programs (e.g. qemu-aarch64 -L DIR)")
    ap.add_argument("--targets", help="MIXPREC_TARGET values for the -O2 reruns, comma-"
                    "separated (default: scalar, avx2, avx512vnni where the CPU has them)")
    ap.add_argument("--diag-flags", default="", help="extra flags for diag mode")
    ap.add_argument("--skip-expect", action="store_true",
                    help="only compare outputs (debugging a partial plugin)")
    ap.add_argument("--cc-env", action="append", default=[], metavar="NAME=VALUE",
                    help="environment of the compiler and linker commands (repeatable)")
    ap.add_argument("--run-env", action="append", default=[], metavar="NAME=VALUE",
                    help="environment of the test programs (repeatable)")
    argv = list(sys.argv[1:] if argv is None else argv)
    i = 0
    while i < len(argv) - 1:  # "--opt -O2" would read as an option
        if argv[i] in ("--opt", "--diag-flags", "--cflags"):
            argv[i:i + 2] = [argv[i] + "=" + argv[i + 1]]
        i += 1
    args = ap.parse_args(argv)
    for opt, table in (("--cc-env", CC_ENV), ("--run-env", RUN_ENV)):
        for kv in getattr(args, opt[2:].replace("-", "_")):
            if "=" not in kv:
                ap.error("%s wants NAME=VALUE, got %r" % (opt, kv))
            name, value = kv.split("=", 1)
            table[name] = value
    global RUNNER, RUN_TARGETS
    RUNNER = shlex.split(args.runner)
    if args.targets is not None:
        RUN_TARGETS = [t for t in args.targets.split(",") if t]
    if args.self_test:
        return self_test(args)
    if not args.mode or not args.file:
        ap.error("--mode and FILE are required (or --self-test)")
    if not os.path.isfile(args.file):
        ap.error("no such file: %s" % args.file)
    if args.mode == "run":
        return run_mode(args)
    if args.mode == "compare":
        return compare_mode(args)
    return diag_mode(args)


if __name__ == "__main__":
    sys.exit(main())
