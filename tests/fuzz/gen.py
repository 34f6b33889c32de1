#!/usr/bin/env python3
"""gen.py -- random differential program generator for mixprec (issue 14, item 2).

Given a seed, writes one self-contained C program (its own main, PRNG and
FNV-1a hashing; it includes <mixprec.h> for the requantization helpers) with
several functions, each holding one or two `#pragma mixprec` integer nests
(int8 / uint8 operands, int32 accumulator) in random forms, and a driver that
calls each function on a few shapes and prints, on stdout, a hash of every
output array (padding included) and every scalar live after the nests.  The
output depends on the seed only, so the program built with and without a
mixprec plugin must print the same bytes (tests/fuzz/run.py checks that).

What varies (see gen_nest / gen_func):
  - the six loop orders: ijk / jik with the sum in a scalar or in the output
    array, ikj / jki (init loop, k loop around the column loop, epilogue
    loop), kij / kji (perfect nests accumulating into the caller's C); the
    matrix-vector forms (the i or the j loop absent); `while` loops in place
    of the k or the middle `for`;
  - operand types int8_t, uint8_t, signed char, unsigned char, char;
  - layouts: linearised `i*ld + k` (row-major, transposed, rows walked
    backwards `(M-1-i)*ld`, `*(A + i*ld + k)`), VLA parameters (`A[][ld]`,
    `A[][LD]`, also transposed), 2-D and flat globals, row pointers computed
    in the outer loop; the output row-major, transposed, reversed, VLA or
    global; leading dimensions equal to the extent, larger (strides larger
    than extents), as parameters or as constants; restrict parameters;
  - extents as parameters or constants, 0 / 1 / odd / primes / tile edges,
    and (rarely) a reduction length at the int32 bound (+-2) with data that
    reaches it; the bound of k read through a local copy, as a
    conditional expression of itself (`k < (K > 3 ? K - 1 : K)`), or
    through a pointer that is NULL when a loop around the k loop has no
    iteration (`k < *kp`: the loop as written never reads it then);
  - zero points added or subtracted: literals, macros, parameters (int32_t,
    int, int16_t, uint8_t), globals, locals read from an array;
  - iterator types int / long / size_t / unsigned, exit tests < != <= >,
    increments i++ ++i i+=1 i=i+1, a 1-based k, iterators declared at the
    function top and shared by sibling loops and sibling nests, read outside
    their loop (`s = k` before the k loop, `C = s + k` after it, the middle
    iterator read before its loop) and live after the nest;
  - init (= 0, = bias[j], bias[i], bias[2*j], bias[i*N+j], = constant,
    = C[i][j], = k, none, once per row: a running sum), update spellings and
    casts, epilogues (plain store, +=, relu, shift, clamps, casts to int8,
    mp_requant_fp32 / _gemmlowp / _rndnu, mp_clamp_i32, float scaling, a user
    `static` helper function, s + 3i - j, a read of another output point),
    a `continue` before the store;
  - side statements: counters and hashes live after the nest, stores to a
    global, and scalars the nest depends on (K, M, N, a zero point, a leading
    dimension, an operand base pointer, the accumulator, the epilogue's
    scale / zero point / multiplier / shift / factor) whose address is taken
    and which the epilogue writes through the pointer when the driver asks
    for it (`int *pK = alias ? &K : &dummy; (*pK)++`), the pointer in a local
    or kept in a global by a call;
  - run-time aliasing: the output placed over an operand, the bias or the
    per-channel multipliers in one buffer; both operands in one buffer;
  - pragma spellings and clauses, _Pragma, macros inside it, compiler loop
    pragmas between, a second pragma on the middle loop (nested) or only
    there, sibling nests (also on the same arrays: C = A*B, then C += A*B in
    another loop order);
  - near misses the plugin must refuse or get right: triangular bounds, step
    2, a downward k loop, writes to an operand, break, a `continue` guarding
    the update, non-affine subscripts, a pointer walk `*p++`, calls with side
    effects, 64-bit / 16-bit / unsigned / volatile accumulators, a guarded
    reduction loop, an iterator whose address is taken, an operand scaled
    by an integer and narrowed back to its type (`(int8_t)(a * 2)`; the
    unnarrowed `2 * a` is transformed, exact mod 2^32);
  - floating-point functions (float / double sources at int8, uint8, bf16,
    fp8_e4m3, fp8_e5m2), each checked against its plain copy within a loose
    bound (see gen_ffunc); a quarter of them direct convolutions over a float
    image (KH x KW window, stride, dilation, padding written as `continue`s,
    a test around the update, a select with 0 (or 0.5: refused), or a window
    clipped by MAX/MIN bounds; bias and ReLU; OHWI / HWIO weights).
  - the newer forms ("xform" functions, see gen_xfunc): steps > 1 on i, j,
    k; 2-4 rows per iteration into separate accumulators with a remainder
    loop (`i + 1 < M`, `i < M - 3`); batch loops around a contraction
    ((b*M + i)*K + k, b*M*K + i*K + k, `int bt = b*T + t;`) and the near
    miss of an outer loop that does not index the output; regions (the
    pragma on a { } block of init, element-wise, GEMM and GEMV loops, an
    int8 copy of one product feeding the next, with or without
    declarations); direct convolutions (a KH x KW window with stride and
    dilation over NHWC input, OHWI / HWIO / OIHW weights, the reduction loops
    in several orders, kh counting down, an image loop around, padding with
    the window test written around the update, as `continue`s (one per
    window loop, one per side, or all four in the kw body), as a flag,
    around the channel loop or as a select `v = inside ? A[..] : K`; depthwise
    convolutions (the output channel indexes the input, the weights and the
    output: a batch loop inside the pixel loop), padded around the update or
    by a select; near misses: a guard that is not padding, a statement in a
    window loop); nests inside OpenMP constructs (per-thread row ranges,
    the body of `parallel for schedule(static)`, a task) and the pragma
    followed by `#pragma omp parallel for` (a warning).  Programs holding
    OpenMP carry the line OMP_MARK; run.py then builds them with -fopenmp.
No generated program has undefined behaviour: sums stay far inside int32
(except the int32-bound nests, whose worst-case data is used only where it
does not overflow), every access is inside its allocation.

The program is described by a JSON-able dict (make_program(seed)); emit()
turns such a dict into C.  run.py's reducer edits the dict (simplify())
and emits again, so every reduced program is also a valid one.

Usage: gen.py SEED [-o FILE] [--config-out FILE] | gen.py --from-config FILE [-o FILE]
Python 3 standard library only.
"""

import argparse
import copy
import json
import os
import random
import re
import sys

INT32_MAX = 2**31 - 1
INT32_MIN = -2**31
SLACK = 256          # elements after every operand / output allocation
MAX_WORK = 60000     # M*N*K per call (the int32-bound nests excepted)

ETYPES = {"int8_t": True, "uint8_t": False, "signed char": True,
          "unsigned char": False, "char": True}          # -> signed?
ITYPES = ("int", "long", "size_t", "unsigned")
SIGNED_ITYPES = ("int", "long")
ORDERS = ("ijk", "jik", "ikj", "jki", "kij", "kji")
PTR_LAYOUTS = ("lin", "linP", "linT", "linR", "vla", "vlaT", "rowptr")   # pointer parameters
BIAS_INITS = ("bias_j", "bias_i", "bias_j2", "bias2d")
SHAPES = [0, 1, 1, 2, 3, 4, 5, 7, 8, 11, 13, 15, 16, 17, 19, 23, 31, 32, 33, 37,
          47, 48, 49, 63, 64, 65]
ZP_VALS = [-128, 127, 255, 0, 1, -1, 128, -255, 3, -5, -127]
# Each call's operands are new arrays (or new contents at the same place):
# a constant= operand is no longer what earlier calls saw, so the program
# keeps the clause's promise as a user must (docs/pragma.md).
FORGET = "\t\tmp_lp_forget(0);\t/* new operands: constant= entries are stale */"
PRAGMA_TEXTS = [
    ("#pragma mixprec({p}, acc=int32)", 50),
    ("#pragma mixprec({p})", 12),
    ("#pragma mixprec({p}, acc=int32, target=auto)", 6),
    ('_Pragma("mixprec({p}, acc=int32)")', 8),
    ("#pragma mixprec({p}, acc=int32, tile=64x32x4)", 5),
    ("#pragma mixprec({p}, target=avx2)", 5),
    ("#pragma mixprec({p}, acc=int32, target=scalar)", 4),
    ("#pragma mixprec({p}, target=avx512vnni, acc=int32)", 5),
    ("#pragma mixprec({p}, constant={A})", 5),
    ("#pragma mixprec(FZ_{P}, acc=FZ_ACC)", 4),     # macros inside the pragma
]
SCALAR_EPIS = [("store", 24), ("addinto", 8), ("plus_k", 7), ("relu", 5), ("shift", 5),
               ("clamp32", 6), ("requant8", 10), ("requantu8", 5), ("gemmlowp", 5),
               ("rndnu", 4), ("clamp8_tern", 5), ("clamp8_mp", 5), ("cast8", 4),
               ("ifelse8", 4), ("user", 9), ("float8", 4), ("chain", 4), ("plus_ij", 3)]
EPI_TC = {"store": "int32_t", "addinto": "int32_t", "plus_k": "int32_t", "relu": "int32_t",
          "shift": "int32_t", "clamp32": "int32_t", "requant8": "int8_t",
          "requantu8": "uint8_t", "gemmlowp": "int8_t", "rndnu": "int8_t",
          "clamp8_tern": "int8_t", "clamp8_mp": "int8_t", "cast8": "int8_t",
          "ifelse8": "int8_t", "float8": "int8_t", "chain": "int32_t", "plus_ij": "int32_t"}
NEAR = {
    "scalar": ["triangular", "step2", "down_k", "write_operand", "break", "continue_k",
               "nonaffine", "sidecall", "acc64", "volatile", "guard", "addr_iter", "acc16",
               "uacc", "ptrwalk"],
    "memory": ["triangular", "step2", "write_operand", "break", "nonaffine", "sidecall",
               "guard"],
    "split": ["step2", "nonaffine", "guard"],
    "perfect": ["step2", "nonaffine"],
}


def wchoice(r, pairs):
    """Weighted choice from [(value, weight)]."""
    tot = sum(w for _, w in pairs)
    x = r.random() * tot
    for v, w in pairs:
        x -= w
        if x < 0 and w > 0:
            return v
    return [v for v, w in pairs if w > 0][-1]


def is_signed(t):
    return ETYPES[t]


def form_of(order):
    return {"ijk": "scalar", "jik": "scalar", "ikj": "split", "jki": "split",
            "kij": "perfect", "kji": "perfect"}[order]


def tc_of(n):
    """The output's element type of nest n."""
    if n["form"] == "scalar":
        if n["epi"] == "user":
            return n["user"]["ret"]
        return EPI_TC[n["epi"]]
    return "int32_t"


SHARED_FIELDS = ("ta", "tb", "alay", "blay", "clay", "ld", "pad", "dims", "za", "zb", "vec",
                 "bigk")


def bigk_pair(ta, tb):
    """(value of A, value of B) with the largest |product|: the worst case."""
    va = -128 if is_signed(ta) else 255
    vb = -128 if is_signed(tb) else 255
    return va, vb


def bigk_limit(ta, tb):
    va, vb = bigk_pair(ta, tb)
    return INT32_MAX // abs(va * vb)


# ------------------------------------------------------------ generation

def pick_shape(r, allow_zero=True):
    def one(hi):
        if r.random() < 0.75:
            v = r.choice(SHAPES)
        else:
            v = r.randint(1, hi)
        if v == 0 and not allow_zero:
            v = 1
        return v
    M, N, K = one(70), one(70), one(130)
    while M * N * K > MAX_WORK:
        big = max(M, N, K)
        if M == big:
            M //= 2
        elif N == big:
            N //= 2
        else:
            K //= 2
    return M, N, K


def zp_value(r, ptype):
    if ptype == "uint8_t":
        return r.choice([0, 255, 1, 128, 127, r.randint(0, 255)])
    if r.random() < 0.75:
        return r.choice(ZP_VALS)
    return r.randint(-255, 255)


def gen_nest(r, fn, q):
    n = {}
    n["order"] = wchoice(r, [("ijk", 30), ("jik", 14), ("ikj", 16), ("jki", 10),
                             ("kij", 15), ("kji", 15)])
    form = form_of(n["order"])
    if form == "scalar" and r.random() < 0.22:
        form = "memory"
    n["form"] = form
    ew = [("int8_t", 45), ("uint8_t", 33), ("signed char", 7), ("unsigned char", 8), ("char", 7)]
    n["ta"] = wchoice(r, ew)
    n["tb"] = wchoice(r, ew)
    consistent = "int8" if is_signed(n["ta"]) else "uint8"
    n["prec"] = consistent if r.random() < 0.8 else ("uint8" if consistent == "int8" else "int8")
    n["pragma"] = wchoice(r, [("outer", 86), ("both", 7), ("middle", 7)])
    n["ptext"] = wchoice(r, [(i, w) for i, (_, w) in enumerate(PRAGMA_TEXTS)])
    n["lpragma"] = wchoice(r, [(None, 90), ("unroll", 5), ("ivdep", 5)])
    signed = fn["itype"] in SIGNED_ITYPES
    n["exit"] = {v: wchoice(r, [("<", 70), ("!=", 12), ("<=", 9 if signed else 0), (">", 9)])
                 for v in "ijk"}
    n["inc"] = {v: wchoice(r, [("++", 60), ("pre", 15), ("+=", 15), ("=+", 10)]) for v in "ijk"}
    n["k1"] = r.random() < 0.08
    n["dims"] = {d: ("const" if r.random() < 0.2 else "param") for d in "MNK"}
    n["alay"] = wchoice(r, [("lin", 33), ("linP", 4), ("linT", 14), ("linR", 4), ("vla", 10), ("vlaT", 5), ("glob", 8),
                            ("globT", 4), ("gflat", 5),
                            ("rowptr", 8 if n["order"] in ("ijk", "jik", "ikj") else 0)])
    n["blay"] = wchoice(r, [("lin", 29), ("linP", 4), ("linT", 30), ("linR", 4), ("vla", 10), ("vlaT", 6), ("glob", 8),
                            ("globT", 5), ("gflat", 6)])
    n["clay"] = wchoice(r, [("lin", 52), ("linP", 4), ("linT", 15), ("linR", 4), ("vla", 12),
                            ("glob", 13)])
    n["ld"], n["pad"] = {}, {}
    for x, lay in (("a", n["alay"]), ("b", n["blay"]), ("c", n["clay"])):
        if lay in ("vla", "vlaT"):
            # A[][ld] with ld a parameter, or a constant: T (*A)[LD]
            kind = wchoice(r, [("param", 70), ("const", 30)])
        elif lay in ("glob", "globT"):
            kind = "const"
        else:
            kind = wchoice(r, [("dim", 45), ("param", 35), ("const", 20)])
        n["ld"][x] = kind
        n["pad"][x] = 0 if kind == "dim" else wchoice(
            r, [(0, 35), (r.randint(1, 5), 40), (r.randint(16, 70), 25)])
    # the output's leading dimension a parameter below the row length: rows
    # that overlap (the loop leaves its last write on the shared elements; a
    # wrong result once, the kernels kept the first); its own Random, so
    # that the draws above and below stay those of each seed
    rl = random.Random(repr(r.getstate()[1][:8]) + "ldshort")
    if n["ld"]["c"] == "param" and n["clay"] in ("lin", "linP", "linT", "linR") and \
            rl.random() < 0.12:
        n["pad"]["c"] = rl.choice([-1, -1, -2, -5])
    # a constant leading dimension of the output with a variable extent along
    # it cannot be proven injective (refused): mostly make that extent constant
    if n["ld"]["c"] == "const" and r.random() < 0.7:
        n["dims"][ld_dim(n["clay"], "c")] = "const"
    for z in ("za", "zb"):
        # mem: read from memory in the body, `zq[0]` (onnx2c's zero points)
        kind = wchoice(r, [(None, 55), ("const", 14), ("param", 15), ("global", 7),
                           ("local", 5), ("macro", 4), ("mem", 5)])
        if kind is None:
            n[z] = None
        else:
            ptype = (wchoice(r, [("int32_t", 70), ("int", 15), ("int16_t", 8), ("uint8_t", 7)])
                     if kind == "param" else "int32_t")
            n[z] = {"kind": kind, "sign": "-" if r.random() < 0.8 else "+", "ptype": ptype,
                    "val": zp_value(r, ptype)}
    n["acc_type"] = wchoice(r, [("int32_t", 80), ("int", 20)])
    n["acc_top"] = form == "scalar" and r.random() < 0.15
    if form == "scalar":
        n["init"] = wchoice(r, [("zero", 45), ("bias_j", 14), ("bias_i", 5), ("bias_j2", 3),
                                ("bias2d", 4), ("const", 8), ("C", 12),
                                ("k", 10 if fn["iter_top"] else 0)])
    elif form in ("memory", "split"):
        n["init"] = wchoice(r, [("zero", 38), ("bias_j", 15), ("bias_i", 5), ("bias_j2", 2),
                                ("bias2d", 3), ("const", 10), ("none", 32)])
    else:
        n["init"] = "none"
    n["init_const"] = r.choice([-77, 1, -1, 1000, -(1 << 20), 12345])
    n["update"] = wchoice(r, [("pluseq", 55), ("s_eq_s_plus", 10), ("s_eq_p_plus_s", 8),
                              ("swapped", 10), ("cast16", 7), ("castint", 5), ("minus_neg", 5)])
    if n["update"] in ("cast16", "castint") and (n["za"] or n["zb"]) and r.random() < 0.7:
        n["update"] = "pluseq"      # (int16_t)(a - z): not recognised, keep it rare
    if form == "scalar":
        n["epi"] = wchoice(r, [(e, w if (e != "plus_k" or fn["iter_top"]) else 0)
                               for e, w in SCALAR_EPIS])
        if n["epi"] == "plus_k" and not fn["iter_top"]:
            n["epi"] = "store"
    elif form in ("memory", "split"):
        n["epi"] = wchoice(r, [("none", 55), ("relu", 15), ("clamp32", 15), ("shift", 15)])
    else:
        n["epi"] = "none"
    n["ep"] = {"sh": r.randint(0, 12), "lo": r.choice([-1000, -128, 0, INT32_MIN]),
               "hi": r.choice([1000, 127, 255, INT32_MAX]),
               "scale": wchoice(r, [("param", 50), ("array", 30), ("lit", 20)]),
               "lit": r.choice(["0.00390625f", "1e-3f", "0.0123f", "1.0f", "2e-5f"]),
               "qmode": wchoice(r, [("scalar", 50), ("array", 50)]),
               "qidx": r.choice("ij")}
    if form == "scalar" and n["init"] in BIAS_INITS and r.random() < 0.25:
        # a narrow clamp: the output may then be placed over the bias
        n["epi"] = "clamp32"
        n["ep"]["lo"], n["ep"]["hi"] = r.choice([(-1000, 1000), (-128, 127), (0, 255)])
    if n["epi"] == "user":
        n["user"] = {"attr": wchoice(r, [("static", 30), ("static inline", 20),
                                         ("static __attribute__((noinline))", 20),
                                         ("static __attribute__((const))", 15),
                                         ("__attribute__((const, noinline))", 15)]),
                     "body": wchoice(r, [("shift_sat", 40), ("round_sat", 30), ("linear", 20),
                                         ("writes_global", 10)]),
                     "ret": wchoice(r, [("int8_t", 60), ("int32_t", 40)])}
    n["skip"] = form in ("scalar", "memory") and r.random() < 0.05
    # the accumulator set once per outer iteration: a running sum over the
    # middle loop (not a contraction per output point)
    n["acc_outer"] = (form == "scalar" and n["init"] in ("zero", "const")
                      and r.random() < 0.05)
    # the reduction bound read through a local copy
    n["kcopy"] = r.random() < 0.08
    # the reduction bound a conditional expression of it (`k < (K > 3 ? K -
    # 1 : K)`): read once before the nest (GCC: plugin-gcc/hoist.cc)
    n["ksel"] = r.random() < 0.06
    ex = []
    if form in ("scalar", "memory"):
        if r.random() < 0.10:
            ex.append({"kind": "count"})
        if r.random() < 0.12:
            ex.append({"kind": "hash"})
        if r.random() < 0.06:
            ex.append({"kind": "glast"})
        if r.random() < 0.20:
            targets = ptr_targets(n)
            if targets:
                ex.append({"kind": "ptr", "target": r.choice(targets),
                           "klim": r.randint(2, 64), "kbase": r.randint(0, 5),
                           # the pointer in a local, or handed to a function that
                           # keeps it in a global the epilogue writes through
                           "via": "global" if r.random() < 0.3 else "local"})
        if n["acc_top"] and r.random() < 0.3:
            ex.append({"kind": "accptr"})
    if form in ("scalar", "memory", "split") and fn["iter_top"] and r.random() < 0.12:
        ex.append({"kind": "before_mid"})
    n["extras"] = ex
    n["near"] = None
    if r.random() < 0.22:
        cands = [x for x in NEAR[form]
                 if not (x == "addr_iter" and not fn["iter_top"])
                 and not (x == "down_k" and fn["itype"] not in SIGNED_ITYPES)]
        n["near"] = r.choice(cands)
    # matrix-vector forms: one of the i / j loops absent (its extent 1, its
    # subscripts 0)
    n["vec"] = None
    if r.random() < 0.10:
        n["vec"] = r.choice("ij")
        n["pragma"] = "outer"
        n["extras"] = [e for e in n["extras"] if e["kind"] != "before_mid"]
        if n["near"] in ("triangular", "addr_iter"):
            n["near"] = None
        n["skip"] = False
    # while loops in place of for (scalar and memory forms)
    n["while"] = []
    if form in ("scalar", "memory"):
        if r.random() < 0.08 and n["near"] not in ("continue_k", "down_k"):
            n["while"].append("k")
        if r.random() < 0.06 and not n["skip"] and not n["vec"] and n["pragma"] == "outer":
            n["while"].append(n["order"][1])
    n["bigk"] = None
    if r.random() < 0.04:
        n["bigk"] = r.choice([-2, -1, 0, 0, 1, 2])
        n["za"] = n["zb"] = None
        n["init"] = "zero" if form == "scalar" else "none"
        if form == "scalar":
            n["epi"] = r.choice(["store", "relu", "clamp32"])
        else:
            n["epi"] = "none"
        n["extras"] = []
        n["near"] = None
        n["k1"] = False
        n["acc_top"] = False
        n["skip"] = False
        n["while"] = []
        n["acc_outer"] = False
    # the sum subtracted (`-=`, `s = s - a*b`; `a*b - s` a near miss): from
    # a generator of its own seeded by r's state, so that r's draws, and
    # the programs of the seeds before this form, stay as they were
    n["usub"] = random.Random(repr(r.getstate()[1][:8])).random() < 0.12
    # the reduction bound read through a pointer that is NULL when a loop
    # around the k loop has no iteration (`k < *kp`, as `k < l->n` with
    # l == NULL): the loop as written never reads it then, and neither may
    # the transformed program (its own generator, as usub's)
    rk = random.Random(repr(r.getstate()[1][8:16]))
    n["kptr"] = (form in ("scalar", "memory", "split") and not n["kcopy"] and not n["ksel"]
                 and n["near"] != "down_k" and n["bigk"] is None and rk.random() < 0.07)
    # an integer factor on the a operand (`2 * a`: exact mod 2^32), or the
    # scaled operand narrowed back to its type (`(int8_t)(a * 2)`: wraps; a
    # near miss, refused)
    rs = random.Random(repr(r.getstate()[1][16:24]))
    n["iscale"] = None
    if n["bigk"] is None and rs.random() < 0.06:
        n["iscale"] = {"f": rs.choice([2, 3, -1, 1]), "wrap": rs.random() < 0.5}
    # a constant factor on the b operand too, or on the product's right
    # (`2 * a * b * 3`, `a * -b`): GCC folds the constants, clang keeps
    # them (its own generator)
    r2 = random.Random(repr(r.getstate()[1][32:40]))
    n["bscale"] = None
    if n["bigk"] is None and r2.random() < 0.06:
        n["bscale"] = {"f": r2.choice([3, -1, -2, 5]), "where": r2.choice(["b", "right", "neg"])}
    # a zero-skip guard around the update loop (GSL's `if (temp != 0.0)`,
    # GLPK's `if (temp == 0.0) continue;`): the factor invariant in the
    # innermost loop read into a local first (its own generator, as usub's)
    rz = random.Random(repr(r.getstate()[1][24:32]))
    n["zg"] = None
    if form in ("split", "perfect") and rz.random() < 0.10:
        n["zg"] = rz.choice(["ne", "truth", "cont", "else", "noteq", "eqwrong"])
    # the update written with negations (`s += 0 - a*b`, `s -= -(-(a*b))`,
    # `s = -(a*b) + s`): GCC folds them, clang keeps them (its own generator)
    rn = random.Random(repr(r.getstate()[1][40:48]))
    if n["update"] == "pluseq" and rn.random() < 0.10:
        n["update"] = rn.choice(["zero_sub", "negneg", "neg_plus_s"])
    return n


def share_with(n, owner, o):
    """Make nest n a sibling computing on owner's arrays (C = A*B then
    C += A*B in another loop order, say): no side statements of its own."""
    n["share"] = o
    for k in SHARED_FIELDS:
        n[k] = copy.deepcopy(owner[k])
    n["extras"] = []
    n["near"] = None
    if n["form"] == "scalar" and tc_of(n) != "int32_t":
        n["epi"] = "addinto"
    if n["init"] in BIAS_INITS and owner["init"] != n["init"]:
        n["init"] = "zero"
    if n["alay"] == "rowptr" and n["order"] not in ("ijk", "jik", "ikj"):
        n["order"] = "ikj"
        n["form"] = "split"
        n["init"] = "none"
        n["epi"] = "none"
        n["acc_top"] = False
    if n["vec"]:
        n["pragma"] = "outer"
        n["skip"] = False
        n["while"] = [v for v in n["while"] if v == "k"]
    if n["bigk"] is not None:
        n["za"] = n["zb"] = None
        n["init"] = "zero" if n["form"] == "scalar" else "none"
        n["epi"] = "store" if n["form"] == "scalar" else "none"
        n["k1"] = False
        n["while"] = []
        n["acc_top"] = False
        n["skip"] = False


def cbias_ok(n):
    """The output may lie over the bias: only where what it writes stays small
    (a clamp to a narrow range), so that sums read back through the bias
    cannot overflow."""
    ep = n["ep"]
    return (n["form"] == "scalar" and n["init"] in BIAS_INITS and n["epi"] == "clamp32"
            and ep["lo"] >= -(1 << 20) and ep["hi"] <= (1 << 20) and n.get("share") is None)


def cqm_ok(n):
    """The int8 output may lie over the per-channel multipliers (any int32 is a
    valid multiplier; the shifts stay apart)."""
    return (n["form"] == "scalar" and n["epi"] in ("gemmlowp", "rndnu")
            and n["ep"]["qmode"] == "array")


def ptr_targets(n):
    t = []
    # (K - 1 - k) would go negative where K shrinks and the bound of k is
    # a copy of it (kcopy, kptr: fuzz seed 1203057, a program with
    # undefined behaviour, the plain builds disagreeing)
    if n["dims"]["K"] == "param" and not k_is_ld(n) and not (
            n["blay"] == "linR" and (n.get("kcopy") or n.get("kptr"))):
        t.append("K")
    if n["dims"]["M"] == "param" and n.get("vec") != "i" and "linR" not in (n["alay"],
                                                                           n["clay"]):
        t.append("M")      # (M - 1 - i) would go negative in the row M shrinks in
    if n["dims"]["N"] == "param" and n.get("vec") != "j":
        t.append("N")
    for z in ("za", "zb"):
        if n[z] and n[z]["kind"] in ("param", "global"):
            t.append(z)
    for x in "abc":
        if n["ld"][x] == "param":
            t.append("ld_" + x)
    if n["alay"] in ("lin", "linP", "linT", "linR", "rowptr"):
        t.append("base")
    if n["acc_top"]:
        t.append("acc")
    e, ep = n["epi"], n["ep"]
    if n["form"] == "scalar":
        if e in ("requant8", "requantu8", "gemmlowp"):
            t.append("zy")
        if e in ("requant8", "requantu8", "float8") and ep["scale"] == "param":
            t.append("scale")
        if e in ("gemmlowp", "rndnu") and ep["qmode"] == "scalar":
            t += ["qm", "qs"]
        if e == "user":
            t.append("um")
    return t


# the epilogue's scalar parameters a pointer may write: (C type, statement)
EPI_PARAM_PTRS = {"zy": ("int32_t", "*pzy%d = (int32_t)(%s & 3);"),
                  "scale": ("float", "*pscale%d = *pscale%d * 0.5f;"),
                  "qm": ("int32_t", "*pqm%d = *pqm%d / 2 + 1;"),
                  "qs": ("int", "*pqs%d = -((1 - *pqs%d) %% 13);"),
                  "um": ("int32_t", "*pum%d = *pum%d %% 1000 + 7;")}


def ld_dim(lay, x):
    """The extent a 'dim' leading dimension is (its row length)."""
    if x == "a":
        return "M" if lay in ("linT", "vlaT", "globT") else "K"
    if x == "b":
        return "K" if lay in ("linT", "vlaT", "globT") else "N"
    return "M" if lay == "linT" else "N"


def k_is_ld(n):
    return ((n["ld"]["a"] == "dim" and ld_dim(n["alay"], "a") == "K")
            or (n["ld"]["b"] == "dim" and ld_dim(n["blay"], "b") == "K"))


def problems(fn, n, nests=None):
    """Why this nest is not a valid program (empty list: valid)."""
    p = []
    sh = n.get("share")
    if sh is not None:
        owners = nests if nests is not None else fn["nests"]
        if sh >= len(owners) or owners[sh] is n or owners[sh].get("share") is not None:
            p.append("share index")
        else:
            owner = owners[sh]
            if any(n[k] != owner[k] for k in SHARED_FIELDS):
                p.append("share fields")
            if tc_of(n) != tc_of(owner):
                p.append("share output type")
            if n["extras"] or n["near"]:
                p.append("share extras")
            if owner["bigk"] is not None:
                p.append("share bigk")
            if n["init"] in BIAS_INITS and owner["init"] != n["init"]:
                p.append("share bias")
    form = n["form"]
    signed = fn["itype"] in SIGNED_ITYPES
    if form_of(n["order"]) == "scalar":
        if form not in ("scalar", "memory"):
            p.append("form")
    elif form != form_of(n["order"]):
        p.append("form")
    for v in "ijk":
        if n["exit"][v] == "<=" and not signed:
            p.append("<= unsigned")
    if n["near"] == "down_k" and not signed:
        p.append("down_k unsigned")
    if n["near"] and n["near"] not in NEAR[form]:
        p.append("near form")
    tops = n["init"] == "k" or n["epi"] == "plus_k" or n["near"] == "addr_iter" or any(
        e["kind"] == "before_mid" for e in n["extras"])
    if tops and not fn["iter_top"]:
        p.append("needs iter_top")
    if n["init"] in ("k", "C") and form != "scalar":
        p.append("init form")
    if n["acc_top"] and form != "scalar":
        p.append("acc_top")
    if form == "scalar" and n["epi"] not in EPI_TC and n["epi"] != "user":
        p.append("epi")
    if form != "scalar" and n["epi"] not in ("none", "relu", "clamp32", "shift"):
        p.append("epi")
    if form == "perfect" and (n["init"] != "none" or n["epi"] != "none"):
        p.append("perfect")
    if n["epi"] == "user" and not n.get("user"):
        p.append("user")
    if n["alay"] == "rowptr" and n["order"] not in ("ijk", "jik", "ikj"):
        p.append("rowptr")
    for x, lay in (("a", n["alay"]), ("b", n["blay"]), ("c", n["clay"])):
        if lay in ("vla", "vlaT") and n["ld"][x] == "dim":
            p.append("vla ld")
        if lay in ("glob", "globT") and n["ld"][x] != "const":
            p.append("glob ld")
        if lay not in ("vla", "vlaT", "glob", "globT") and n["ld"][x] == "dim" and n["pad"][x]:
            p.append("dim pad")
    for e in n["extras"]:
        if form not in ("scalar", "memory") and e["kind"] != "before_mid":
            p.append("extras form")
        if e["kind"] == "accptr" and not n["acc_top"]:
            p.append("accptr")
        if e["kind"] == "ptr" and e["target"] not in ptr_targets(n):
            p.append("ptr target")
        if e["kind"] == "ptr" and e["target"] in ("M", "N") and \
                n["exit"]["i" if e["target"] == "M" else "j"] == "!=":
            p.append("shrinking bound with !=")
    if n["near"] == "write_operand" and any(
            e["kind"] == "ptr" and e["target"] == "base" for e in n["extras"]):
        p.append("base const")
    vec = n.get("vec")
    if vec:
        if n["pragma"] != "outer":
            p.append("vec pragma")
        if n["near"] in ("triangular", "addr_iter") or n["skip"]:
            p.append("vec near")
        if any(e["kind"] == "before_mid" for e in n["extras"]):
            p.append("vec before_mid")
    wl = n.get("while", [])
    if wl:
        if form not in ("scalar", "memory"):
            p.append("while form")
        if "k" in wl and n["near"] in ("continue_k", "down_k", "guard"):
            p.append("while k near")
        if n["order"][1] in wl and (n["skip"] or vec == n["order"][1]
                                    or vec == n["order"][0] or n["pragma"] != "outer"):
            p.append("while mid")
        if any(v not in ("k", n["order"][1]) for v in wl):
            p.append("while var")
    if n.get("acc_outer") and (form != "scalar" or n["init"] not in ("zero", "const")
                               or n["acc_top"] or n["bigk"] is not None):
        p.append("acc_outer")
    if n["near"] == "ptrwalk" and (n["alay"] not in ("lin", "vla", "glob", "gflat") or n["k1"]
                                   or "k" in n.get("while", [])):
        p.append("ptrwalk layout")
    if n["near"] == "addr_iter" and n["exit"][n["order"][1]] == "!=":
        p.append("addr_iter with !=")
    if n["near"] == "nonaffine" and n["k1"]:
        p.append("nonaffine k1")
    if n["near"] in ("step2", "down_k") and n["k1"]:
        p.append("k loop k1")
    if n["near"] in ("acc64", "acc16", "uacc", "volatile") and any(
            e["kind"] == "ptr" and e["target"] == "acc" for e in n["extras"]):
        p.append("acc ptr type")
    if n["near"] in ("acc64", "acc16", "uacc", "volatile") and any(
            e["kind"] == "accptr" for e in n["extras"]):
        p.append("accptr type")
    if n["bigk"] is not None:
        if n["za"] or n["zb"] or n["extras"] or n["near"] or n["k1"]:
            p.append("bigk simple")
        if n["init"] not in ("zero", "none"):
            p.append("bigk init")
        if n.get("while"):
            p.append("bigk while")
        if form == "scalar" and n["epi"] not in ("store", "relu", "clamp32"):
            p.append("bigk epi")
    for z in ("za", "zb"):
        if n[z] and n[z]["kind"] not in ("param",) and n[z]["ptype"] != "int32_t":
            p.append("zp ptype")
    return p


def call_problems(n, cn):
    ov = cn.get("overlap")
    if ov == "Cbias" and not (n["clay"] in PTR_LAYOUTS and cbias_ok(n)):
        return ["overlap Cbias"]
    if ov == "Cqm" and not (n["clay"] in PTR_LAYOUTS and cqm_ok(n)):
        return ["overlap Cqm"]
    if ov in ("CA", "CB") and not (n["clay"] in PTR_LAYOUTS and
                                   n["alay" if ov == "CA" else "blay"] in PTR_LAYOUTS):
        return ["overlap " + ov]
    if ov == "AB" and not (n["alay"] in PTR_LAYOUTS and n["blay"] in PTR_LAYOUTS):
        return ["overlap AB"]
    return []


def gen_call(r, fn, call_index):
    c = {"alias": 1 if r.random() < 0.5 else 0, "nests": []}
    for n in fn["nests"]:
        cn = {}
        if n["bigk"] is not None:
            lim = bigk_limit(n["ta"], n["tb"])
            cn["M"], cn["N"] = r.randint(1, 3), r.randint(1, 3)
            cn["K"] = lim + n["bigk"]
        else:
            cn["M"], cn["N"], cn["K"] = pick_shape(r)
        cn["fill"] = {x: wchoice(r, [(0, 60), (1, 15), (2, 8), (3, 8), (4, 4), (5, 5)])
                      for x in "AB"}
        cn["cfill"] = wchoice(r, [(0, 70), (1, 15), (2, 15)])
        for z in ("za", "zb"):
            cn[z] = zp_value(r, n[z]["ptype"]) if n[z] else 0
        cn["ep"] = {"scale": r.choice([1e-5, 3e-4, 1e-3, 2e-3, 0.5, 1.0]),
                    "zy": r.choice([0, -10, 10, 3, 128, 255, r.randint(-10, 10)]),
                    "qm": r.choice([1 << 30, INT32_MAX, r.randint(1 << 30, INT32_MAX)]),
                    "qsh": r.randint(-12, 0),
                    "um": r.choice([1, 3, 255, 1 << 16, r.randint(1, 1 << 16)]),
                    "ush": r.randint(8, 24)}
        cn["overlap"] = None
        cn["ovd"] = 0
        special = n["clay"] in PTR_LAYOUTS and (cbias_ok(n) or cqm_ok(n))
        if r.random() < (0.4 if special else 0.10):
            opts = []
            if n["clay"] in PTR_LAYOUTS:
                if n["alay"] in PTR_LAYOUTS:
                    opts.append("CA")
                if n["blay"] in PTR_LAYOUTS:
                    opts.append("CB")
            if n["alay"] in PTR_LAYOUTS and n["blay"] in PTR_LAYOUTS:
                opts.append("AB")
            if n["clay"] in PTR_LAYOUTS and cbias_ok(n):
                opts += ["Cbias"] * 6
            if n["clay"] in PTR_LAYOUTS and cqm_ok(n):
                opts += ["Cqm"] * 6
            if n.get("lpragma") == "ivdep":
                # `#pragma GCC ivdep` promises no dependence between
                # iterations: an output over what the loop reads breaks it
                # (the plain -O3 builds then disagree: seed 700043)
                opts = [o for o in opts if o == "AB"]
            if opts:
                cn["overlap"] = r.choice(opts)
                cn["ovd"] = r.choice([-8, -4, -1, 0, 1, 3, 4, 8, 16, r.randint(-64, 64)])
                if cn["overlap"] == "AB":
                    cn["ovd"] = abs(cn["ovd"])
                if cn["overlap"] in ("Cbias", "Cqm"):
                    cn["ovd"] = cn["ovd"] // 4 * 4      # int32 arrays stay aligned
        c["nests"].append(cn)
    return c


def gen_func(r, f):
    fn = {"id": f,
          "itype": wchoice(r, [("int", 60), ("long", 15), ("size_t", 15), ("unsigned", 10)]),
          "iter_top": r.random() < 0.35,
          "live_iters": r.random() < 0.5,
          "attr": wchoice(r, [("noinline", 80), ("static", 12), ("static_noinline", 8)]),
          "restrict": r.random() < 0.12}
    nn = 2 if r.random() < 0.18 else 1
    fn["nests"] = []
    for q in range(nn):
        for _ in range(100):
            n = gen_nest(r, fn, q)
            if q == 1 and tc_of(fn["nests"][0]) == "int32_t" and fn["nests"][0]["bigk"] is None \
                    and r.random() < 0.5:
                share_with(n, fn["nests"][0], 0)
            if not problems(fn, n, fn["nests"]):
                break
        else:
            raise RuntimeError("gen_nest: no valid nest")
        fn["nests"].append(n)
    ncalls = wchoice(r, [(1, 30), (2, 40), (3, 30)])
    fn["calls"] = [gen_call(r, fn, c) for c in range(ncalls)]
    normalize(fn)
    if fn["restrict"] and not restrict_ok(fn):
        fn["restrict"] = False
    return fn


def restrict_ok(fn):
    """restrict-qualified array parameters: only where no call makes the
    output overlap anything and no operand pointer is reassigned."""
    for c in fn["calls"]:
        for cn in c["nests"]:
            if cn["overlap"] not in (None, "AB"):
                return False
    for n in fn["nests"]:
        if any(e["kind"] == "ptr" and e["target"] == "base" for e in n["extras"]):
            return False
        if n["near"] == "write_operand":
            return False
    return True


def normalize(fn):
    """Constant extents are the first call's in every call; a removed loop's
    extent is 1."""
    for q, n in enumerate(fn["nests"]):
        sh = n.get("share")
        if sh is not None and sh < len(fn["nests"]):
            for k in SHARED_FIELDS:
                n[k] = copy.deepcopy(fn["nests"][sh][k])
            for c in fn["calls"]:
                own, me = c["nests"][sh], c["nests"][q]
                for k in ("M", "N", "K", "za", "zb", "fill", "cfill", "overlap", "ovd"):
                    me[k] = copy.deepcopy(own[k])
    for q, n in enumerate(fn["nests"]):
        if n.get("acc_outer"):
            for c in fn["calls"]:
                cn = c["nests"][q]
                cn["N" if n["order"][1] == "j" else "M"] = min(
                    cn["N" if n["order"][1] == "j" else "M"], 8)
                cn["K"] = min(cn["K"], 64)
        if n.get("vec"):
            d = {"i": "M", "j": "N"}[n["vec"]]
            for c in fn["calls"]:
                c["nests"][q][d] = 1
        for d in "MNK":
            if n["dims"][d] == "const" and fn["calls"]:
                v = fn["calls"][0]["nests"][q][d]
                for c in fn["calls"]:
                    c["nests"][q][d] = v


def make_program(seed, floats=True, xforms=True, only_xforms=False):
    r = random.Random(seed)
    nf = wchoice(r, [(2, 15), (3, 30), (4, 30), (5, 20), (6, 5)])
    funcs = []
    only_floats = os.environ.get("FZ_ONLY") == "float"   # a campaign on float sources
    for f in range(nf):
        if only_xforms:         # run.py --xforms-only: a campaign on the newer forms
            funcs.append(gen_xfunc(r, f))
            continue
        if only_floats:
            funcs.append(gen_ffunc(r, f))
            continue
        x = r.random()
        if x < 0.16:
            fn = gen_xfunc(r, f)
            if xforms:
                funcs.append(fn)
        elif x < 0.16 + 0.12 * 0.84:
            fn = gen_ffunc(r, f)
            if floats:
                funcs.append(fn)
        else:
            funcs.append(gen_func(r, f))
    if not funcs:
        funcs.append(gen_func(r, nf))
    return {"seed": seed, "funcs": funcs}


# ------------------------------------------------------ floating point
#
# A float function holds one float/double nest annotated with a lower
# precision (int8, uint8, bf16, fp8_e4m3, fp8_e5m2) and a copy of it without
# the pragma (the reference, IEEE arithmetic as written).  The driver runs
# both on the same inputs and prints one line per call: whether every
# element is within a loose bound of the reference (about twice the bound of
# docs/error-bounds.md plus the reference's own rounding).  Built without
# the plugin both copies agree exactly, so the line reads "yes" in both.

FPRECS = [("int8", 35), ("uint8", 15), ("bf16", 25), ("fp8_e4m3", 15), ("fp8_e5m2", 10)]


def gen_ffunc(r, f):
    fl = {"t": wchoice(r, [("float", 80), ("double", 20)]),
          "prec": wchoice(r, FPRECS),
          "form": wchoice(r, [("scalar", 55), ("kij", 25), ("ikj", 20)]),
          "alay": wchoice(r, [("lin", 70), ("linT", 30)]),
          "blay": wchoice(r, [("lin", 50), ("linT", 50)])}
    fl["clause"] = wchoice(r, [("", 70), (", scale=dynamic", 10), (", constant=B0", 10),
                               (", verify", 10)])
    if fl["clause"] == ", scale=dynamic" and fl["prec"] == "bf16":
        fl["clause"] = ""
    fl["init"] = wchoice(r, [("zero", 50), ("bias", 50)]) if fl["form"] == "scalar" else "zero"
    fl["epi"] = wchoice(r, [("store", 50), ("relu", 30), ("leaky", 20)]) \
        if fl["form"] == "scalar" else "store"
    fl["zp"] = r.random() < 0.15
    fl["alpha"] = fl["form"] != "scalar" and r.random() < 0.3
    fn = {"id": f, "kind": "float", "itype": "int", "attr": "noinline", "fl": fl}
    calls = []
    for c in range(wchoice(r, [(1, 40), (2, 40), (3, 20)])):
        M, N, K = pick_shape(r, allow_zero=r.random() < 0.3)
        calls.append({"M": M, "N": N, "K": K, "range": r.choice([1.0, 100.0, 0.01]),
                      "nonneg": r.random() < 0.25, "alpha": r.choice([1.0, -0.5, 2.0, 0.001]),
                      "xm": r.choice([0.5, -1.0, 0.25])})
    fn["calls"] = calls
    # a direct convolution over a float image (issue 9, its padding written
    # in the loop: the runtime copies the image with the padding in place);
    # its own Random, so that the draws above stay those of each seed
    rc = random.Random(repr(r.getstate()[1][:8]) + "fconv%d" % f)
    if rc.random() < 0.25:
        fl["form"] = "conv"
        fl["zp"] = fl["alpha"] = False
        fl["alay"] = fl["blay"] = "lin"
        fl["clause"] = "" if fl["clause"] == ", constant=B0" else fl["clause"]
        fl["init"] = wchoice(rc, [("zero", 60), ("bias", 40)])
        fl["epi"] = wchoice(rc, [("store", 60), ("relu", 40)])
        fl["KH"], fl["KW"] = rc.choice([1, 2, 3, 3]), rc.choice([1, 2, 3, 3])
        fl["S"], fl["D"] = rc.choice([1, 1, 2]), rc.choice([1, 1, 1, 2])
        fl["P"] = rc.choice([0, 1, 1, 1, 2])
        # the window test: around the update, `continue`s (KissDL), a
        # select with 0 or another value, the window clipped by MAX/MIN
        # loop bounds (CMSIS-NN's reference kernels)
        fl["cguard"] = wchoice(rc, [("upd", 25), ("cont", 30), ("sel", 25), ("clip", 20)])
        fl["cpadv"] = rc.choice(["0", "0", "0", "0.5"])   # 0.5: refused (float selects take 0 only)
        if fl["cguard"] == "clip":
            fl["D"] = 1
        fl["wlay"] = rc.choice(["ohwi", "hwio"])
        # the output channel loop outermost (NCHW code's order): the image
        # rows (oh, ow) then join the call's rows through a second row
        # loop (its own generator, so that the draws above stay)
        fl["oc_outer"] = random.Random(repr(r.getstate()[1][:8]) + "fconvoc%d" % f).random() < 0.35
        # the `continue`s split per side or all in the kw body (as xform's)
        fl["csplit"] = wchoice(random.Random(repr(r.getstate()[1][:8]) + "fcsplit%d" % f),
                               [("one", 50), ("split", 30), ("inner", 20)])
        fl["cstyle"] = wchoice(random.Random(repr(r.getstate()[1][:8]) + "fcstyle%d" % f),
                               [("seq", 60), ("elseif", 20), ("inside", 20)])
        fl["cstep"] = random.Random(repr(r.getstate()[1][:8]) + "fcstep%d" % f).random() < 0.3
        for cl in calls:
            cl["T"] = rc.choice([1, 2, 3, 5, 6])
            cl["M"], cl["N"], cl["K"] = max(1, min(cl["M"], 9)), min(cl["N"], 24), \
                min(cl["K"], 40)
    return fn


F_EPS = {"int8": "1.0 / 127", "uint8": "1.0 / 127", "bf16": "1.0 / 128",
         "fp8_e4m3": "0.25", "fp8_e5m2": "0.5"}   # the drivers' step per precision


def f_pair(f, sig, pragma, body, voids):
    """A float function with the pragma and its reference copy without."""
    L = []
    for name, pr in (("fz_f%d" % f, [pragma]), ("fz_f%d_ref" % f, [])):
        L.append("__attribute__((noinline)) void %s%s" % (name, sig))
        L.append("{")
        L += pr + body
        L.append("\t%s" % voids)
        L.append("}")
        L.append("")
    return L


def f_operands(T, na, nb, nc, N, lo, rg):
    """A call's float operands A0, B0, bias, C and its reference copy R,
    allocated and filled (the drivers' common lines)."""
    return ["\t\t%s *A0 = fz_alloc(%d * sizeof(%s)), *B0 = fz_alloc(%d * sizeof(%s));"
            % (T, na, T, nb, T),
            "\t\t%s *bias = fz_alloc(%d * sizeof(%s));" % (T, max(N, 1), T),
            "\t\t%s *C = fz_alloc(%d * sizeof(%s)), *R = fz_alloc(%d * sizeof(%s));"
            % (T, nc, T, nc, T),
            "\t\tfor (int x = 0; x < %d; x++) A0[x] = (%s)fz_unif(%r, %r);" % (na, T, lo, rg),
            "\t\tfor (int x = 0; x < %d; x++) B0[x] = (%s)fz_unif(%r, %r);" % (nb, T, -rg, rg),
            "\t\tfor (int x = 0; x < %d; x++) bias[x] = (%s)fz_unif(%r, %r);"
            % (max(N, 1), T, -rg, rg),
            "\t\tfor (int x = 0; x < %d; x++) R[x] = C[x] = (%s)fz_unif(%r, %r);"
            % (nc, T, -rg, rg)]


def f_report(f, c, prec):
    """A call's verdict line and the frees (the drivers' common lines)."""
    return ['\t\tprintf("f%d.c%d.float %s within bound: %%s\\n", bad ? "NO" : "yes");'
            % (f, c, prec),
            "\t\tif (bad)",
            '\t\t\tprintf("  %d element(s) out of bound, worst |diff|/tol %g\\n", bad, worst);',
            "\t\tfree(A0); free(B0); free(bias); free(C); free(R);",
            "\t}"]


def window_loops(S, D, P, step):
    """A convolution window's input row and column (ih, iw as expressions)
    and the output loops' headers: ih = oh*S + kh*D - P, or with STEP the
    first input row and column stepped beside oh and ow in the headers
    (onnx2c's `for (o0 = 0, i0 = -1; ...; o0++, i0 += 1)`)."""
    if step:
        return ("ih0 + kh * %d" % D, "iw0 + kw * %d" % D,
                "for (int oh = 0, ih0 = -%d; oh < T; oh++, ih0 += %d)" % (P, S),
                "for (int ow = 0, iw0 = -%d; ow < M; ow++, iw0 += %d)" % (P, S))
    return ("oh * %d + kh * %d - %d" % (S, D, P), "ow * %d + kw * %d - %d" % (S, D, P),
            "for (int oh = 0; oh < T; oh++)", "for (int ow = 0; ow < M; ow++)")


def fconv_text(fl):
    """The nest of a float convolution (fl["form"] == "conv"): output
    C[(oh*M + ow)*N + oc] over T x M points and N channels, input
    A0[(ih*IW + iw)*K + c], weights B0 (OHWI or HWIO), padding P written as
    fl["cguard"] says; returns (lines, the padding value's text)."""
    T = fl["t"]
    KH, KW, S, D, P = fl["KH"], fl["KW"], fl["S"], fl["D"], fl["P"]
    pv = "0" if fl["cguard"] != "sel" else fl["cpadv"]
    bw = {"ohwi": "B0[((oc * %d + kh) * %d + kw) * K + c]" % (KH, KW),
          "hwio": "B0[((kh * %d + kw) * K + c) * N + oc]" % KW}[fl["wlay"]]
    ain = "A0[(ih * IW + iw) * K + c]"
    ih_e, iw_e, foh, fow = window_loops(S, D, P, bool(P and fl.get("cstep")))
    zero = "0.0f" if T == "float" else "0.0"
    init = "bias[oc]" if fl["init"] == "bias" else zero
    out = "C[(oh * M + ow) * N + oc]"
    epi = "%s = s;" % out if fl["epi"] == "store" else "%s = s > 0 ? s : 0;" % out
    g = fl["cguard"]
    if g == "clip":
        red = ["for (int kh = (%d - oh * %d > 0 ? %d - oh * %d : 0); "
               "kh < (IH + %d - oh * %d < %d ? IH + %d - oh * %d : %d); kh++) {"
               % (P, S, P, S, P, S, KH, P, S, KH),
               "\tconst int ih = oh * %d + kh - %d;" % (S, P),
               "\tfor (int kw = (%d - ow * %d > 0 ? %d - ow * %d : 0); "
               "kw < (IW + %d - ow * %d < %d ? IW + %d - ow * %d : %d); kw++) {"
               % (P, S, P, S, P, S, KW, P, S, KW),
               "\t\tconst int iw = ow * %d + kw - %d;" % (S, P),
               "\t\tfor (int c = 0; c < K; c++)",
               "\t\t\ts += %s * %s;" % (ain, bw), "\t}", "}"]
    elif g == "cont":
        cs = fl.get("csplit", "one")
        red = ["for (int kh = 0; kh < %d; kh++) {" % KH, "\tconst int ih = %s;" % ih_e]
        if cs != "inner":
            red += cont_guards("ih", "IH", "\t", cs == "split", fl.get("cstyle", "seq"))
        red += ["\tfor (int kw = 0; kw < %d; kw++) {" % KW, "\t\tconst int iw = %s;" % iw_e]
        if cs == "inner":
            red += cont_guards("ih", "IH", "\t\t", True, fl.get("cstyle", "seq"))
        red += cont_guards("iw", "IW", "\t\t", cs != "one", fl.get("cstyle", "seq"))
        red += ["\t\tfor (int c = 0; c < K; c++)", "\t\t\ts += %s * %s;" % (ain, bw),
                "\t}", "}"]
    else:
        if g == "upd":
            upd = ("{ int ih = %s, iw = %s; if (ih >= 0 && ih < IH && iw >= 0 && iw < IW) "
                   "s += %s * %s; }" % (ih_e, iw_e, ain, bw))
        else:
            upd = ("{ int ih = %s, iw = %s; %s v = ih >= 0 && ih < IH && iw >= 0 && iw < IW "
                   "? %s : (%s)%s; s += v * %s; }" % (ih_e, iw_e, T, ain, T, pv, bw))
        red = ["for (int kh = 0; kh < %d; kh++)" % KH, "\tfor (int kw = 0; kw < %d; kw++)" % KW,
               "\t\tfor (int c = 0; c < K; c++)", "\t\t\t" + upd]
    if fl.get("oc_outer"):
        L = ["\tfor (int oc = 0; oc < N; oc++)", "\t\t" + foh,
             "\t\t\t" + fow + " {", "\t\t\t\t%s s = %s;" % (T, init)]
    else:
        L = ["\t" + foh, "\t\t" + fow,
             "\t\t\tfor (int oc = 0; oc < N; oc++) {", "\t\t\t\t%s s = %s;" % (T, init)]
    L += ["\t\t\t\t" + x for x in red]
    L += ["\t\t\t\t" + epi, "\t\t\t}"]
    return L, pv


def fconv_emit(fn):
    """C text of a float convolution function (fl["form"] == "conv"), its
    reference copy and its driver: as f_emit's, the bound summed over the
    window's terms (padding terms the select's value times the weight),
    with the operands' largest magnitudes over the whole tensors."""
    f = fn["id"]
    fl = fn["fl"]
    T = fl["t"]
    KH, KW, S, D, P = fl["KH"], fl["KW"], fl["S"], fl["D"], fl["P"]
    body, pv = fconv_text(fl)
    sig = ("(int T, int M, int N, int K, int IH, int IW, const %s *A0, const %s *B0, "
           "const %s *bias, %s *C)" % (T, T, T, T))
    pragma = "#pragma mixprec(%s%s)" % (fl["prec"], fl["clause"])
    L = f_pair(f, sig, pragma, body, "(void)bias;")
    eps = F_EPS[fl["prec"]]
    bw = {"ohwi": "B0[((oc * %d + kh) * %d + kw) * K + c]" % (KH, KW),
          "hwio": "B0[((kh * %d + kw) * K + c) * N + oc]" % KW}[fl["wlay"]]
    L.append("static void run_f%d(void)" % f)
    L.append("{")
    for c, cl in enumerate(fn["calls"]):
        Tn, M, N, K = cl["T"], cl["M"], cl["N"], cl["K"]
        IH = max(1, (Tn - 1) * S + (KH - 1) * D + 1 - 2 * P)
        IW = max(1, (M - 1) * S + (KW - 1) * D + 1 - 2 * P)
        na, nb, nc = max(1, IH * IW * K), max(1, KH * KW * K * N), max(1, Tn * M * N)
        rg = cl["range"]
        lo = 0.0 if cl["nonneg"] else -rg
        L += ["\t{\t/* call %d */" % c,
              FORGET,
              "\t\tint T = %d, M = %d, N = %d, K = %d, IH = %d, IW = %d;" % (Tn, M, N, K, IH, IW),
              ] + f_operands(T, na, nb, nc, N, lo, rg) + [
              "\t\tfz_f%d(T, M, N, K, IH, IW, A0, B0, bias, C);" % f,
              "\t\tfz_f%d_ref(T, M, N, K, IH, IW, A0, B0, bias, R);" % f,
              "\t\tdouble q = fabs((double)(%s)%s), r = 0, worst = 0;" % (T, pv),
              "\t\tint bad = 0;",
              "\t\tfor (int x = 0; x < %d; x++) q = fmax(q, fabs((double)A0[x]));" % na,
              "\t\tfor (int x = 0; x < %d; x++) r = fmax(r, fabs((double)B0[x]));" % nb,
              "\t\tfor (int oh = 0; oh < T; oh++)",
              "\t\tfor (int ow = 0; ow < M; ow++)",
              "\t\tfor (int oc = 0; oc < N; oc++) {",
              "\t\t\tdouble p = 0, sa = 0, sb = 0;",
              "\t\t\tint terms = 0;",
              "\t\t\tfor (int kh = 0; kh < %d; kh++)" % KH,
              "\t\t\tfor (int kw = 0; kw < %d; kw++) {" % KW,
              "\t\t\t\tint ih = oh * %d + kh * %d - %d, iw = ow * %d + kw * %d - %d;"
              % (S, D, P, S, D, P),
              "\t\t\t\tint in = ih >= 0 && ih < IH && iw >= 0 && iw < IW;",
              "\t\t\t\tfor (int c = 0; c < K; c++) {",
              "\t\t\t\t\tdouble x = in ? fabs((double)A0[(ih * IW + iw) * K + c]) : "
              "fabs((double)(%s)%s), y = fabs((double)%s);" % (T, pv, bw),
              "\t\t\t\t\tp += x * y; sa += x; sb += y; terms++;",
              "\t\t\t\t}",
              "\t\t\t}",
              "\t\t\tdouble e = %s;" % eps,
              "\t\t\tdouble tol = 2.0 * (e * (sa * r + sb * q) + e * e * terms * q * r + "
              "1e-5 * (sa * r + sb * q))",
              "\t\t\t\t+ 4.0 * (terms + 4) * 0x1p-24 * (p + fabs((double)C[(oh * M + ow) * N + oc])"
              " + fabs((double)bias[oc]) + %r) + 1e-30;" % rg,
              "\t\t\tdouble d = fabs((double)C[(oh * M + ow) * N + oc] - "
              "(double)R[(oh * M + ow) * N + oc]);",
              "\t\t\tif (!(d <= tol))",
              "\t\t\t\tbad++;",
              "\t\t\tif (d / tol > worst)",
              "\t\t\t\tworst = d / tol;",
              "\t\t}",
              ] + f_report(f, c, fl["prec"])
    L.append("}")
    L.append("")
    return "\n".join(L) + "\n"


def fproblems(fn):
    fl = fn["fl"]
    p = []
    if fl["form"] == "conv":
        if fl["zp"] or fl["alpha"] or fl["clause"] == ", constant=B0":
            p.append("float conv form")
        return p
    if fl["form"] != "scalar" and (fl["init"] != "zero" or fl["epi"] != "store"):
        p.append("float form")
    if fl["alpha"] and fl["form"] == "scalar":
        p.append("float alpha")
    if fl["prec"] == "bf16" and "scale" in fl["clause"]:
        p.append("bf16 scale")
    return p


def f_emit(fn):
    """C text of a float function, its reference copy and its driver."""
    if fn["fl"]["form"] == "conv":
        return fconv_emit(fn)
    f = fn["id"]
    fl = fn["fl"]
    T = fl["t"]

    def A(i, k):
        return "A0[%s * lda + %s]" % (i, k) if fl["alay"] == "lin" else \
            "A0[%s * lda + %s]" % (k, i)

    def B(k, j):
        return "B0[%s * ldb + %s]" % (k, j) if fl["blay"] == "lin" else \
            "B0[%s * ldb + %s]" % (j, k)
    a = "(%s - xm)" % A("i", "k") if fl["zp"] else A("i", "k")
    prod = ("alpha * %s * %s" if fl["alpha"] else "%s * %s") % (a, B("k", "j"))
    sig = ("(int M, int N, int K, int lda, int ldb, const %s *A0, const %s *B0, "
           "const %s *bias, %s xm, %s alpha, %s *C)" % (T, T, T, T, T, T))
    zero = "0.0f" if T == "float" else "0.0"
    if fl["form"] == "scalar":
        init = "bias[j]" if fl["init"] == "bias" else zero
        out = {"store": "s", "relu": "s > 0 ? s : 0",
               "leaky": "s > 0 ? s : s * 0.125f" if T == "float" else "s > 0 ? s : s * 0.125"}[
                   fl["epi"]]
        body = ["\tfor (int i = 0; i < M; i++)", "\t\tfor (int j = 0; j < N; j++) {",
                "\t\t\t%s s = %s;" % (T, init), "\t\t\tfor (int k = 0; k < K; k++)",
                "\t\t\t\ts += %s;" % prod, "\t\t\tC[i * N + j] = %s;" % out, "\t\t}"]
    elif fl["form"] == "kij":
        body = ["\tfor (int k = 0; k < K; k++)", "\t\tfor (int i = 0; i < M; i++)",
                "\t\t\tfor (int j = 0; j < N; j++)", "\t\t\t\tC[i * N + j] += %s;" % prod]
    else:
        body = ["\tfor (int i = 0; i < M; i++)", "\t\tfor (int k = 0; k < K; k++)",
                "\t\t\tfor (int j = 0; j < N; j++)", "\t\t\t\tC[i * N + j] += %s;" % prod]
    pragma = "#pragma mixprec(%s%s)" % (fl["prec"], fl["clause"])
    L = f_pair(f, sig, pragma, body, "(void)bias; (void)xm; (void)alpha;")
    # the driver
    eps = F_EPS[fl["prec"]]
    L.append("static void run_f%d(void)" % f)
    L.append("{")
    for c, cl in enumerate(fn["calls"]):
        M, N, K = cl["M"], cl["N"], cl["K"]
        lda = (K if fl["alay"] == "lin" else M) or 1
        ldb = (N if fl["blay"] == "lin" else K) or 1
        na = max(1, M if fl["alay"] == "lin" else K) * lda
        nb = max(1, K if fl["blay"] == "lin" else N) * ldb
        nc = max(1, M * N)
        rg = cl["range"]
        lo = 0.0 if cl["nonneg"] else -rg
        L += ["\t{\t/* call %d */" % c,
              FORGET,
              "\t\tint M = %d, N = %d, K = %d, lda = %d, ldb = %d;" % (M, N, K, lda, ldb),
              ] + f_operands(T, na, nb, nc, N, lo, rg) + [
              "\t\t%s xm = (%s)%r, alpha = (%s)%r;" % (T, T, cl["xm"], T, cl["alpha"]),
              "\t\tfz_f%d(M, N, K, lda, ldb, A0, B0, bias, xm, alpha, C);" % f,
              "\t\tfz_f%d_ref(M, N, K, lda, ldb, A0, B0, bias, xm, alpha, R);" % f,
              "\t\tdouble amax_a = 0, amax_b = 0, worst = 0;",
              "\t\tint bad = 0;",
              "\t\tfor (int i = 0; i < M; i++) for (int k = 0; k < K; k++)",
              "\t\t\tamax_a = fmax(amax_a, fabs((double)%s));" % a,
              "\t\tfor (int k = 0; k < K; k++) for (int j = 0; j < N; j++)",
              "\t\t\tamax_b = fmax(amax_b, fabs((double)%s));" % B("k", "j"),
              "\t\tfor (int i = 0; i < M; i++)",
              "\t\t\tfor (int j = 0; j < N; j++) {",
              "\t\t\t\tdouble p = 0, sa = 0, sb = 0, ma = 0, mb = 0;",
              "\t\t\t\tfor (int k = 0; k < K; k++) {",
              "\t\t\t\t\tdouble x = fabs((double)%s), y = fabs((double)%s);" % (a, B("k", "j")),
              "\t\t\t\t\tp += x * y; sa += x; sb += y;",
              "\t\t\t\t\tma = fmax(ma, x); mb = fmax(mb, y);",
              "\t\t\t\t}",
              "\t\t\t\tdouble q = %s;" % ("fmax(ma, amax_a / 16) * 0 + amax_a"
                                     if fl["prec"].startswith("fp8") else "ma"),
              "\t\t\t\tdouble r = %s;" % ("amax_b" if fl["prec"].startswith("fp8") else "mb"),
              "\t\t\t\tdouble e = %s;" % eps,
              "\t\t\t\tdouble al = %s;" % ("fabs((double)alpha)" if fl["alpha"] else "1.0"),
              "\t\t\t\tdouble tol = al * 2.0 * (e * (sa * r + sb * q) + "
              "e * e * K * q * r + 1e-5 * (sa * r + sb * q))",
              "\t\t\t\t\t+ 4.0 * (K + 4) * 0x1p-24 * (al * p + fabs((double)C[i * N + j])"
              " + fabs((double)bias[j]) + %r) + 1e-30;" % rg,
              "\t\t\t\tdouble d = fabs((double)C[i * N + j] - (double)R[i * N + j]);",
              "\t\t\t\tif (!(d <= tol))",
              "\t\t\t\t\tbad++;",
              "\t\t\t\tif (d / tol > worst)",
              "\t\t\t\t\tworst = d / tol;",
              "\t\t\t}",
              ] + f_report(f, c, fl["prec"])
    L.append("}")
    L.append("")
    return "\n".join(L) + "\n"



# ------------------------------------------------------ newer forms
#
# An "xform" function holds one of the forms the recogniser learned after
# the nests above were written (README "What is recognised"):
#   kstep      steps > 1 on i, j and / or k (k += 2, i += 3, ...);
#   rows       2-4 rows per iteration into separate accumulators of one
#              reduction loop, exit test `i + R-1 < M` or `i < M - (R-1)`,
#              a plain remainder loop for the last rows (matvec or GEMM);
#   batch      a contraction three loops deep inside 1-2 batch loops that
#              index the output: (b*M + i)*K + k, b*M*K + i*K + k, a local
#              `int bt = b*T + t;`, the second operand shared or per batch;
#   batchnear  an outer loop that does not index the output (the nest
#              accumulates into C once per repetition: one call per
#              repetition since the descent takes such loops too);
#   region     the pragma on a { } block: init loops, element-wise loops and
#              two or three GEMM / GEMV nests (the second may read an int8
#              copy of the first's result), with or without declarations;
#   omp_rows   per-thread row ranges from omp_get_thread_num in
#              `#pragma omp parallel`;
#   omp_batch  a nest in the body of `#pragma omp parallel for
#              schedule(static[, 1])` over batches;
#   omp_task   a nest in a `#pragma omp task`;
#   omp_c89    the iterators and the accumulator declared at the top of the
#              function (shared variables of `#pragma omp parallel`), the
#              nest in `single`, `master`, `critical` or a task, the
#              directive right before the pragma or a block around it,
#              sometimes a comma in the outer loop's init (`i = 0, j = 0`);
#              their final values stored into y[M + N];
#   omp_warn   `#pragma mixprec` directly followed by `#pragma omp parallel
#              for`, or the other order, the OpenMP directive first
#              (schedule(static) with num_threads(2) and an if clause:
#              the construct is replaced whole by the call, its threads the
#              clause's, the construct the fallback; or schedule(static, 1)
#              and a ReLU epilogue: tile mode, the loop reading the call's
#              results on the calling thread);
#   kunroll    the reduction unrolled by 2-8 (one update of U products, or U
#              updates in shuffled order; `k + U-1 < K`, `k <= K - U`,
#              `k + U <= K`) and its remainder `for (; k < K; k++)`, a
#              scalar or memory accumulator, k declared in the body or at the
#              top; near misses: an offset missing, an unrolled loop that
#              may pass K - 1 (`k + U-2 < K`);
#   groups     block-quantized sums: a group loop (`g < NG`, or `j <= n - GS;
#              j += GS` with the sum reset after the group; GS a constant or a
#              global read at run time, as runq.c has it) around a loop of
#              GS, each group's int32 sum scaled by an integer per group into
#              an int64 accumulator (matvec or GEMM).
# The omp_* forms need -fopenmp: the program then carries the line
# `/* FZ-OPENMP */` and run.py adds -fopenmp (and, under clang 19,
# -L/usr/lib/llvm-14/lib).  Results do not depend on the thread count.

XFORMS = [("kstep", 14), ("rows", 16), ("batch", 18), ("batchnear", 6), ("region", 16),
          ("omp_rows", 8), ("omp_batch", 8), ("omp_task", 6), ("omp_warn", 6),
          ("omp_c89", 6),
          ("kunroll", 16), ("groups", 14), ("conv", 16), ("trired", 12)]
X_PRAGMAS = ["#pragma mixprec({p}, acc=int32)", "#pragma mixprec({p})",
             '_Pragma("mixprec({p}, acc=int32)")', "#pragma mixprec({p}, acc=int32, target=scalar)",
             "#pragma mixprec({p}, target=avx2)"]
X_SMALL = [0, 1, 2, 3, 5, 7]
OMP_MARK = "/* FZ-OPENMP */"


def x_is_omp(fn):
    return fn["xf"]["form"].startswith("omp_")


def gen_xfunc(r, f):
    ew = [("int8_t", 50), ("uint8_t", 40), ("signed char", 5), ("unsigned char", 5)]
    form = wchoice(r, XFORMS)
    # FZ_XFORM=NAME: every such function takes form NAME (a campaign aimed
    # at one form); the draws stay those of the seed otherwise
    form = os.environ.get("FZ_XFORM") or form
    xf = {"form": form, "ta": wchoice(r, ew), "tb": wchoice(r, ew),
          "ptext": wchoice(r, [(0, 60), (1, 15), (2, 10), (3, 8), (4, 7)])}
    xf["za"] = r.random() < 0.3
    xf["init"] = wchoice(r, [("zero", 60), ("C", 25), ("bias", 15)])
    xf["btr"] = r.random() < 0.5          # B read as B[j*K + k] (transposed)
    xf["vec"] = r.random() < 0.3          # matrix-vector (rows, omp_task)
    xf["si"] = r.choice([1, 1, 2, 3])
    xf["sj"] = r.choice([1, 2, 3])
    xf["sk"] = r.choice([1, 2, 2, 3])
    if xf["si"] == xf["sj"] == xf["sk"] == 1:
        xf["sk"] = 2
    xf["R"] = r.choice([2, 3, 4])
    xf["rexit"] = r.choice(["plus", "minus"])
    xf["bcopy"] = r.random() < 0.5       # rows: `int32_t b = x[k];`
    xf["bsub"] = wchoice(r, [("lin", 40), ("three", 35), ("bt", 25)])
    xf["bshared"] = r.random() < 0.5     # batch: one B for every batch
    xf["region"] = [wchoice(r, [("init", 20), ("scale", 20), ("gemm", 35), ("gemv", 25),
                                ("chain", 15)]) for _ in range(r.randint(2, 5))]
    if sum(1 for x in xf["region"] if x in ("gemm", "gemv", "chain")) < 2:
        xf["region"] += ["gemm", "gemv"]
    xf["rdecl"] = wchoice(r, [("none", 40), ("iters", 35), ("locals", 25)])
    xf["sched"] = r.choice(["static", "static, 1"])
    xf["c89dir"] = r.choice(["single", "master", "critical", "task"])
    xf["c89blk"] = r.random() < 0.5       # omp_c89: a block between directive and pragma
    xf["U"] = r.choice([2, 3, 4, 4, 8])
    xf["ustmts"] = r.random() < 0.5      # kunroll: U updates (else one of U products)
    xf["uorder"] = r.sample(range(xf["U"]), xf["U"])
    xf["uexit"] = r.choice(["plus", "le", "plus_le"])
    xf["unear"] = wchoice(r, [("none", 80), ("gap", 10), ("past", 10)])
    xf["umem"] = r.random() < 0.3        # kunroll: C[i*N + j] += ... in both loops
    xf["utop"] = r.random() < 0.4        # kunroll: `int k;` at the top of the function
    xf["GS"] = r.choice([4, 8, 16, 32, 32])
    xf["gstride"] = r.random() < 0.5     # groups: j <= n - GS; j += GS (else g < NG)
    xf["gsvar"] = r.random() < 0.5       # groups, gstride: GS a global read at run time
    # conv: a KH x KW window, stride S, dilation D, over T x M output
    # points (rows x columns), K input and N output channels, NB images
    xf["KH"], xf["KW"] = r.choice([1, 2, 3, 3]), r.choice([1, 2, 3, 3])
    xf["S"], xf["D"] = r.choice([1, 1, 2]), r.choice([1, 1, 2])
    xf["wlay"] = r.choice(["ohwi", "hwio", "oihw"])
    xf["corder"] = wchoice(r, [("hwc", 60), ("chw", 20), ("hcw", 10), ("wc", 10)])
    xf["cbatch"] = r.random() < 0.4      # conv: an image loop around
    xf["kdown"] = r.random() < 0.2       # conv: kh counts down
    xf["cepi"] = wchoice(r, [("store", 50), ("relu", 25), ("cast8", 10), ("addinto", 15)])
    xf["cnear"] = wchoice(r, [("none", 70), ("guard", 6), ("depthwise", 18), ("side", 6)])
    # conv: padding P (the image smaller than the window needs) and the
    # window test as written: around the update, `continue` in the window
    # loops (KissDL), a flag (TensorFlow Lite's is_point_inside_image), an
    # `if` around the channel loop
    xf["cpad"] = r.choice([0, 0, 1, 1, 2])
    xf["cpadv"] = r.choice([0, 0, 0, 1, -3, 7])   # the select's other value
    # the select stored into a local of A's type: its other value converted
    # (300 into int8_t is 44), sometimes out of the type's range
    xf["cpadt"] = r.random() < 0.3
    if xf["cpadt"] and r.random() < 0.5:
        xf["cpadv"] = r.choice([300, -200, 255, 128, -129, 511])
    xf["cguard"] = wchoice(r, [("upd", 30), ("cont", 25), ("flag", 15), ("cloop", 10),
                               ("sel", 20)])
    # trired: a triangular reduction (issue 9: TRMM, TRMV), the range of k
    # naming the row (or the column) loop; in place over the rows below
    # (transformed) or above (refused)
    xf["tkind"] = wchoice(r, [("gt", 15), ("ge", 10), ("lt", 12), ("le", 10), ("down", 8),
                              ("colj", 10), ("trmm", 12), ("vec", 10), ("inplace", 8),
                              ("inabove", 5), ("band", 8), ("bandc", 6)])
    fn = {"id": f, "kind": "xform", "xf": xf}
    calls = []
    for c in range(wchoice(r, [(1, 40), (2, 40), (3, 20)])):
        M, N, K = pick_shape(r, allow_zero=r.random() < 0.4)
        if xf["form"] in ("batch", "batchnear", "omp_batch", "region"):
            M, N, K = max(M // 2, min(M, 1)), max(N // 2, min(N, 1)), max(K // 2, min(K, 1))
        if xf["form"] == "conv":
            M, N, K = min(M, 17), min(N, 40), min(K, 70)
        cl = {"M": M, "N": N, "K": K, "B": r.choice(X_SMALL), "T": r.choice([1, 2, 3, 4]),
              "za": zp_value(r, "int32_t"),
              "fa": wchoice(r, [(0, 70), (1, 15), (2, 10), (3, 5)]),
              "fb": wchoice(r, [(0, 70), (1, 15), (2, 10), (3, 5)]), "f": r.randint(-5, 5)}
        win = xf["KH"] * xf["KW"] if xf["form"] == "conv" else 1
        while cl["M"] * cl["N"] * cl["K"] * max(cl["B"], 1) * cl["T"] * win > MAX_WORK:
            cl["K"] = max(1, cl["K"] // 2)
            if cl["M"] > 8:
                cl["M"] //= 2
            elif cl["K"] == 1:   # (conv's window multiplies the work)
                cl["N"] = max(1, cl["N"] // 2)
        if xf["form"] == "trired":   # k may run to M: A's and B's rows reach it
            cl["K"] = max(cl["K"], cl["M"])
        calls.append(cl)
    fn["calls"] = calls
    # rows: the R accumulators in a local array declared in the nest, summed
    # by a loop over them (llm.c's matmul_forward); drawn last, so that the
    # draws above stay those of each seed
    xf["rarr"] = r.random() < 0.35
    # rows: each row's value loaded in turn into one local (CMSIS-NN's
    # arm_nn_mat_mult_nt_t_s8), sometimes the first product reading the
    # value the previous k left there (a near miss)
    xf["areuse"] = wchoice(r, [("none", 60), ("turn", 32), ("lag", 8)])
    # conv with padding: the window clipped by MAX/MIN loop bounds instead
    # of a test (CMSIS-NN's reference kernels), through locals or inline
    xf["cclip"] = wchoice(r, [("none", 65), ("local", 20), ("inline", 15)])
    # a clipped window's origin narrowed to a smaller signed type (CMSIS-NN's
    # `const int16_t base_idx_y = ...`): int8_t wraps on larger shapes (the
    # call must fall back); its own Random, so that the draws above stay
    rn = random.Random(repr(r.getstate()[1][:8]) + "narrow")
    xf["cnarrow"] = wchoice(rn, [("none", 60), ("s16", 25), ("s8", 15)])
    # A's column offset in arithmetic narrower than int (a miscompile once:
    # GCC computes (uint8_t)(u0 - u1) in unsigned char): a loop-invariant
    # difference that wraps, a narrowed parameter, a wrapping product, an
    # unsigned short that wraps to 65535, or the iterator itself inside the
    # narrow arithmetic (wraps past 255: refused, or exact)
    ra = random.Random(repr(r.getstate()[1][:8]) + "anarrow%d" % f)
    xf["anarrow"] = wchoice(ra, [("none", 70), ("u8", 8), ("s16", 6), ("wrap8", 6),
                                 ("u16", 4), ("iter", 6)])
    xf["au1"] = ra.randint(0, 12)
    # omp_c89: a comma in the outer loop's init (`for (i = 0, j = 0; ...)`,
    # `i = 0, k = 0` over a vector); its own Random, as above
    rc = random.Random(repr(r.getstate()[1][:8]) + "c89comma%d" % f)
    xf["c89comma"] = rc.random() < 0.35
    # omp_c89 with a block: `i = i0;` before `for (; i < M; i++)`, i0
    # sometimes changed in between (the call must not start at its new
    # value: refused; a miscompile of both glues once)
    xf["c89pre"] = wchoice(rc, [("none", 60), ("set", 25), ("clobber", 15)])
    # omp_warn: the OpenMP directive first, `#pragma mixprec` right above
    # the loop (GCC's parser refused a pragma there once); its own Random
    ro = random.Random(repr(r.getstate()[1][:8]) + "ompfirst%d" % f)
    xf["ompfirst"] = ro.random() < 0.5
    # the `continue` window test split into one guard per side
    # (`if (ih < 0) continue; if (ih >= IH) continue;`), or all four in
    # the innermost window loop's body (onnx2c's convolutions; the clang
    # plugins honoured only the first guard of a body once); its own Random
    rg = random.Random(repr(r.getstate()[1][:8]) + "csplit%d" % f)
    xf["csplit"] = wchoice(rg, [("one", 50), ("split", 30), ("inner", 20)])
    xf["cstyle"] = wchoice(random.Random(repr(r.getstate()[1][:8]) + "cstyle%d" % f),
                           [("seq", 60), ("elseif", 20), ("inside", 20)])
    # the window's first input row and column stepped beside oh and ow in
    # the for headers (onnx2c's `for (o0 = 0, i0 = -1; ...; o0++, i0 += 1)`)
    xf["cstep"] = random.Random(repr(r.getstate()[1][:8]) + "cstep%d" % f).random() < 0.3
    gen_stepiv(random.Random(repr(r.getstate()[1][:8]) + "stepiv%d" % f), fn)
    return fn


# stepiv: BLAS-2 with strided vectors, an integer index stepped at the end
# of a loop's body (OpenBLAS's generic C gemv_n / gemv_t, GSL's OFFSET
# initial values, f2c's `jx += *incx`), for or while loops, constant or
# run-time strides (0 and negative too: the vectors sit in the middle of
# their buffers), and near misses: a `continue` before the step, a stride
# the nest changes, the index read after the nest, the index assigned
# elsewhere too, the stride read through a pointer into y.  Its draws come
# from a Random of its own (the other forms' draws stay each seed's); an
# xform function of a seed takes this form now and then (SV_RATE) or
# whenever FZ_XFORM=stepiv.
SV_RATE = 0.06
SV_STRIDES = [-2, -1, 0, 1, 2, 3]


def gen_stepiv(rs, fn):
    xf = fn["xf"]
    if os.environ.get("FZ_XFORM") is None and rs.random() < SV_RATE:
        xf["form"] = "stepiv"
    if xf["form"] != "stepiv":
        return
    sv = {}
    sv["kind"] = rs.choice(["n", "t"])                 # gemv_n / gemv_t
    sv["it"] = rs.choice(["int", "long"])              # the indices' type
    sv["loops"] = wchoice(rs, [("for", 40), ("while", 25), ("wfor", 15), ("fwhile", 20)])
    sv["itdecl"] = rs.random() < 0.3                   # for (IT j = 0; ...)
    sv["decl"] = rs.choice(["top", "loop"])            # the inner-stepped index
    sv["oinit"] = rs.choice(["assign", "declinit"])    # the outer-stepped index
    sv["stride"] = wchoice(rs, [("param", 45), ("const", 30), ("ptr", 25)])
    sv["cx"], sv["cy"] = rs.choice([1, 2, -1]), rs.choice([1, 2, -1])
    sv["init"] = wchoice(rs, [("zero", 55), ("offset", 45)])
    sv["style"] = wchoice(rs, [("pluseq", 60), ("assign", 20), ("incdec", 20)])
    sv["aptr"] = rs.random() < 0.6                     # a_ptr += lda, else A[j * lda + i]
    sv["late"] = rs.random() < 0.5                     # a_ptr's step after the index's
    sv["alpha"] = rs.random() < 0.7
    sv["near"] = wchoice(rs, [("none", 55), ("cont", 9), ("chg", 9), ("live", 9),
                              ("other", 9), ("alias", 9)])
    if sv["near"] == "alias":   # only gemv_n's y: the stride read through a pointer
        sv["kind"] = "n"
        sv["alias_on"] = rs.random() < 0.6
    xf["sv"] = sv
    for cl in fn["calls"]:
        cl["sx"], cl["sy"] = rs.choice(SV_STRIDES), rs.choice(SV_STRIDES)
        cl["ldpad"] = rs.choice([0, 0, 1, 3])
        cl["alpha"] = rs.randint(-3, 3)


def cont_guards(var, lim, ind, split, style="seq"):
    """The window test of VAR against [0, LIM) as `continue`s at indent IND:
    one guard, or one per side (SPLIT), those in sequence, as an else-if
    chain, or the test written the other way round with the continue in
    its else (STYLE; the clang plugins refused the last two once)."""
    if split and style == "elseif":
        return [ind + "if (%s < 0)" % var, ind + "\tcontinue;",
                ind + "else if (%s >= %s)" % (var, lim), ind + "\tcontinue;"]
    if split and style == "inside":
        return [ind + "if (%s >= 0 && %s < %s) {" % (var, var, lim), ind + "} else {",
                ind + "\tcontinue;", ind + "}"]
    if split:
        return [ind + "if (%s < 0)" % var, ind + "\tcontinue;",
                ind + "if (%s >= %s)" % (var, lim), ind + "\tcontinue;"]
    return [ind + "if ((%s < 0) || (%s >= %s))" % (var, var, lim), ind + "\tcontinue;"]


def conv_body(xf, pragma, zA):
    """A direct convolution (issue 9): output C[n][oh][ow][oc] over T x M
    points, N channels; input A[n][IH][IW][K]; weights B in layout wlay; the
    reduction over (kh, kw, c) in the order corder (wc: kh fixed at 0, the
    window one row); a depthwise form (cnear depthwise: no channel loop, the
    output channel indexes all three) or a near miss (cnear) the plugin
    must refuse."""
    KH, KW, S, D = xf["KH"], xf["KW"], xf["S"], xf["D"]
    if xf["corder"] == "wc":
        KH = 1
    near = xf["cnear"]
    P = xf.get("cpad", 0) if near in ("none", "depthwise") else 0
    c = "oc" if near == "depthwise" else "c"
    ain = "A[((n * IH + oh * %d + kh * %d) * IW + ow * %d + kw * %d) * K + %s]" % (S, D, S, D, c)
    guard = xf.get("cguard", "upd") if P else None
    if guard in ("cont", "flag", "cloop") and (xf["corder"] not in ("hwc", "wc") or
                                              near == "depthwise"):
        guard = "upd"
    if P:
        ain = "A[((n * IH + ih) * IW + iw) * K + %s]" % c
    ih_e, iw_e, foh, fow = window_loops(S, D, P, bool(P and xf.get("cstep")))
    if xf["za"]:
        ain = "(%s%s)" % (ain, zA)
    if near == "depthwise":
        bw = "B[(kh * %d + kw) * N + oc]" % KW
    else:
        bw = {"ohwi": "B[((oc * %d + kh) * %d + kw) * K + c]" % (KH, KW),
              "hwio": "B[((kh * %d + kw) * K + c) * N + oc]" % KW,
              "oihw": "B[((oc * K + c) * %d + kh) * %d + kw]" % (KH, KW)}[xf["wlay"]]
    out = "C[((n * T + oh) * M + ow) * N + oc]"
    loops = {"kh": ("for (int kh = %d; kh >= 0; kh--)" % (KH - 1)) if xf["kdown"]
             else "for (int kh = 0; kh < %d; kh++)" % KH,
             "kw": "for (int kw = 0; kw < %d; kw++)" % KW,
             "c": "for (int c = 0; c < K; c++)"}
    order = {"hwc": ["kh", "kw", "c"], "chw": ["c", "kh", "kw"], "hcw": ["kh", "c", "kw"],
             "wc": ["kh", "kw", "c"]}[xf["corder"]]
    if near == "depthwise":
        order = ["kh", "kw"]
    upd = "s += %s * %s;" % (ain, bw)
    if near == "guard":   # a guard on the window that is not padding
        upd = "if (ow * %d + kw * %d < IW - 1) %s" % (S, D, upd)
    red = []
    if guard == "upd":
        upd = "{ int ih = %s, iw = %s; if (ih >= 0 && ih < IH && iw >= 0 && iw < IW) %s }" % (
            ih_e, iw_e, upd)
    elif guard == "sel":   # padding as a value: the select's other value (0, or not)
        pv = xf.get("cpadv", 0)
        vt = xf["ta"] if xf.get("cpadt") and not xf["za"] else "int32_t"
        upd = ("{ int ih = %s, iw = %s; %s v = ih >= 0 && ih < IH && iw >= 0 && "
               "iw < IW ? %s : %d; s += v * %s; }" % (ih_e, iw_e, vt, ain, pv, bw))
    clip = xf.get("cclip", "none")
    if P and clip != "none" and D == 1 and not xf["kdown"] and order[0] == "kh" and \
            (near == "depthwise" or xf["corder"] in ("hwc", "wc")):
        # kh from MAX(0, P - oh*S) to MIN(KH, IH + P - oh*S): ih in the image
        def mx(a, b):
            return "((%s) > (%s) ? (%s) : (%s))" % (a, b, a, b)

        def mn(a, b):
            return "((%s) < (%s) ? (%s) : (%s))" % (a, b, a, b)
        ain_c = "A[((n * IH + ih) * IW + iw) * K + %s]" % c
        if xf["za"]:
            ain_c = "(%s%s)" % (ain_c, zA)
        upd_c = "s += %s * %s;" % (ain_c, bw)
        bh = (mx("0", "%d - oh * %d" % (P, S)), mn("%d" % KH, "IH + %d - oh * %d" % (P, S)))
        bv = (mx("0", "%d - ow * %d" % (P, S)), mn("%d" % KW, "IW + %d - ow * %d" % (P, S)))
        ih_c = "oh * %d + kh - %d" % (S, P)
        iw_c = "ow * %d + kw - %d" % (S, P)
        nar = xf.get("cnarrow", "none")
        if nar != "none":
            ty = {"s16": "int16_t", "s8": "int8_t"}[nar]
            red = ["const %s oy = oh * %d - %d;" % (ty, S, P),
                   "const %s ox = ow * %d - %d;" % (ty, S, P)]
            bh = (mx("0", "-oy"), mn("%d" % KH, "IH - oy"))
            bv = (mx("0", "-ox"), mn("%d" % KW, "IW - ox"))
            ih_c, iw_c = "oy + kh", "ox + kw"
        if clip == "local":
            red += ["const int kh0 = %s, kh1 = %s;" % bh, "const int kw0 = %s, kw1 = %s;" % bv]
            bh, bv = ("kh0", "kh1"), ("kw0", "kw1")
        red += ["for (int kh = %s; kh < %s; kh++) {" % bh,
                "\tconst int ih = %s;" % ih_c,
                "\tfor (int kw = %s; kw < %s; kw++) {" % bv,
                "\t\tconst int iw = %s;" % iw_c]
        if near == "depthwise":
            red += ["\t\t" + upd_c]
        else:
            red += ["\t\t" + loops["c"], "\t\t\t" + upd_c]
        red += ["\t}", "}"]
    elif guard in ("cont", "flag", "cloop"):
        # kh { ih; [test;] kw { iw; test; c { upd } } }
        red = [loops["kh"] + " {", "\tconst int ih = %s;" % ih_e]
        cs = xf.get("csplit", "one")
        if guard == "cont" and cs != "inner":
            red += cont_guards("ih", "IH", "\t", cs == "split", xf.get("cstyle", "seq"))
        red += ["\t" + loops["kw"] + " {", "\t\tconst int iw = %s;" % iw_e]
        if guard == "cont":
            if cs == "inner":
                red += cont_guards("ih", "IH", "\t\t", True, xf.get("cstyle", "seq"))
            red += cont_guards("iw", "IW", "\t\t", cs != "one", xf.get("cstyle", "seq"))
            red += ["\t\t" + loops["c"], "\t\t\t" + upd]
        elif guard == "flag":
            red += ["\t\tconst int inside = (iw >= 0) && (iw < IW) && (ih >= 0) && (ih < IH);",
                    "\t\tif (!inside)", "\t\t\tcontinue;",
                    "\t\t" + loops["c"], "\t\t\t" + upd]
        else:
            red += ["\t\tif (ih >= 0 && ih < IH && iw >= 0 && iw < IW)",
                    "\t\t\t" + loops["c"], "\t\t\t\t" + upd]
        red += ["\t}", "}"]
    else:
        for d, name in enumerate(order):
            red.append("\t" * d + loops[name])
        red.append("\t" * len(order) + upd)
    init = {"zero": "0", "C": out, "bias": "bias[oc]"}[xf["init"]]
    epi = {"store": "%s = s;" % out, "relu": "%s = s > 0 ? s : 0;" % out,
           "cast8": "E[((n * T + oh) * M + ow) * N + oc] = (int8_t)(s >> 8);",
           "addinto": "%s += s;" % out}[xf["cepi"]]
    nest = [foh, "\t" + fow,
            "\t\tfor (int oc = 0; oc < N; oc++) {",
            "\t\t\tint32_t s = %s;" % init] + ["\t\t\t" + x for x in red]
    if near == "side":    # a statement in a window loop: neither summed nor groups
        nest[4] = nest[4] + " {"
        nest.insert(5, "\t\t\t\ty[0] += 1;")
        nest.append("\t\t\t}")
    nest += ["\t\t\t" + epi, "\t\t}"]
    L = ["\tint IH = (T - 1) * %d + %d, IW = (M - 1) * %d + %d;" % (S, (KH - 1) * D + 1 - 2 * P,
                                                                   S, (KW - 1) * D + 1 - 2 * P),
         "\tIH = IH < 1 ? 1 : IH;", "\tIW = IW < 1 ? 1 : IW;", "\t(void)IH;"]
    if xf["cbatch"]:
        L += [pragma, "\tfor (int n = 0; n < (NB > 0 ? NB : 1); n++)"] + ["\t\t" + x for x in nest]
    else:
        L += ["\tconst int n = 0;", pragma] + ["\t" + x for x in nest]
    return L


SV_MAXD = 40     # m and n at most (m * n terms on one element with stride 0)


def sv_dims(cl):
    return min(cl["M"], SV_MAXD), min(cl["N"], SV_MAXD)


def sv_emit(fn):
    """C text of a stepiv function (see gen_stepiv) and its driver."""
    f = fn["id"]
    xf, sv = fn["xf"], fn["xf"]["sv"]
    ta, tb = xf["ta"], xf["tb"]
    prec = "int8" if is_signed(ta) else "uint8"
    pragma = X_PRAGMAS[xf["ptext"]].format(p=prec)
    IT = sv["it"]
    near = sv["near"]
    gn = sv["kind"] == "n"
    # gemv_n: x stepped by the column loop j (outer), y by the row loop i
    # (inner); gemv_t: x by i (inner), y by j (outer)
    inner_v, outer_v = ("iy", "ix") if gn else ("ix", "iy")
    inner_len, outer_len = "m", "n"
    inner_s, outer_s = ("y", "x") if gn else ("x", "y")

    def stride(which):   # which: "x" / "y"
        if near == "chg" and which == inner_s:
            return "s%s" % which
        if near == "alias" and which == "y":
            return "*inc_y"
        st = sv["stride"]
        if st == "const":
            return str(sv["c" + which])
        if st == "ptr":
            return "*inc_%s" % which
        return "inc_%s" % which

    def init(which, length):
        if sv["init"] == "offset":
            return "FZ_OFFSET(%s, %s)" % (length, stride(which) if not (
                near == "chg" and which == inner_s) else "inc0")
        return "0"

    def step(var, which):
        s = stride(which)
        if sv["style"] == "incdec" and s in ("1", "-1"):
            return "%s%s;" % (var, "++" if s == "1" else "--")
        if sv["style"] == "assign":
            return "%s = %s + %s;" % (var, var, s)
        return "%s += %s;" % (var, s)

    live = near == "live"
    inner_top = sv["decl"] == "top" or live
    live_v = inner_v if inner_top and sv["decl"] == "top" else outer_v
    wo = sv["loops"] in ("while", "wfor")      # the outer loop a while
    wi = sv["loops"] in ("while", "fwhile")    # the inner loop a while
    itd = sv["itdecl"] and not wo and not wi

    def aread():
        return "a_ptr[i]" if sv["aptr"] else "A[j * lda + i]"

    if near == "alias":
        sty = "const int32_t *inc_y"
    elif sv["stride"] == "ptr":
        sty = "const %s *inc_y" % IT
    else:
        sty = "%s inc_y" % IT
    stx = ("const %s *inc_x" % IT) if sv["stride"] == "ptr" else ("%s inc_x" % IT)
    sig = ("(%s m, %s n, int32_t alpha, const %s *A, %s lda, const %s *x, %s, int32_t *y, %s)"
           % (IT, IT, ta, IT, tb, stx, sty))
    L = ["#ifndef FZ_OFFSET",
         "#define FZ_OFFSET(N, inc) ((inc) > 0 ? 0 : ((N) - 1) * (-(inc)))",
         "#endif",
         "__attribute__((noinline)) long fz_f%d%s" % (f, sig), "{"]
    tops = [] if itd else ["i", "j"]
    if inner_top:
        tops.append(inner_v)
    if sv["oinit"] == "assign":
        tops.append(outer_v)
    if live and live_v in tops:   # (read after the nest: set even where no loop runs)
        tops.remove(live_v)
        L.append("\t%s %s = 0;" % (IT, live_v))
    if tops:
        L.append("\t%s %s;" % (IT, ", ".join(tops)))
    if sv["oinit"] == "declinit":
        L.append("\t%s %s = %s;" % (IT, outer_v, init(outer_s, outer_len)))
    if sv["aptr"]:
        L.append("\tconst %s *a_ptr = A;" % ta)
    L.append("\tint32_t temp;")
    if near == "chg":
        ie = "*inc_%s" % inner_s if sv["stride"] == "ptr" else (
            "inc_%s" % inner_s if sv["stride"] == "param" else str(sv["c" + inner_s]))
        L.append("\t%s inc0 = %s, s%s = inc0;" % (IT, ie, inner_s))
    if sv["oinit"] == "assign":
        L.append("\t%s = %s;" % (outer_v, init(outer_s, outer_len)))
    if wo:
        L.append("\tj = 0;")
    L.append(pragma)
    if wo:
        L.append("\twhile (j < n) {")
    else:
        L.append("\tfor (%sj = 0; j < n; j++) {" % ((IT + " ") if itd else ""))
    B = []   # the outer body
    al = "alpha * " if sv["alpha"] else ""
    if gn:
        B.append("temp = %sx[%s];" % (al, outer_v))
    else:
        B.append("temp = 0;")
    ii = init(inner_s, inner_len)
    B.append(("%s = %s;" % (inner_v, ii)) if inner_top else ("%s %s = %s;" % (IT, inner_v, ii)))
    if wi:
        B.append("i = 0;")
        B.append("while (i < m) {")
    else:
        B.append("for (%si = 0; i < m; i++) {" % ((IT + " ") if itd else ""))
    I = []   # the inner body
    if near == "cont":
        I += ["if ((i & 3) == 1)%s" % (" {" if wi else "")]
        I += (["\ti++;", "\tcontinue;", "}"] if wi else ["\tcontinue;"])
    if near == "other":
        I += ["if (i == 2)", "\t%s = %s;" % (inner_v, ii)]
    if gn:
        I.append("y[%s] += temp * %s;" % (inner_v, aread()))
    else:
        I.append("temp += %s * x[%s];" % (aread(), inner_v))
    I.append(step(inner_v, inner_s))
    if wi:
        I.append("i++;")
    B += ["\t" + x for x in I]
    B.append("}")
    if not gn:
        B.append("y[%s] += %stemp;" % (outer_v, al))
    tail = [step(outer_v, outer_s)]
    if sv["aptr"]:
        tail = tail + ["a_ptr += lda;"] if sv["late"] else ["a_ptr += lda;"] + tail
    B += tail
    if near == "chg":
        B.append("s%s = (j & 1) ? inc0 : -inc0;" % inner_s)
    if wo:
        B.append("j++;")
    L += ["\t\t" + x for x in B]
    L.append("\t}")
    L.append("\t(void)alpha; (void)lda; (void)inc_x; (void)inc_y; (void)A;")
    L.append("\treturn %s;" % ("(long)" + live_v if live else "0"))
    L.append("}")
    L.append("")
    # the driver
    L.append("static void run_f%d(void)" % f)
    L.append("{")
    for c, cl in enumerate(fn["calls"]):
        m, n = sv_dims(cl)
        alias = near == "alias"
        if alias:
            m = min(max(m, 2), 3)
        sx = sv["cx"] if sv["stride"] == "const" else cl["sx"]
        sy = sv["cy"] if sv["stride"] == "const" else cl["sy"]
        if alias:
            sy = 1 if sv.get("alias_on") else cl["sy"]
        lda = m + cl["ldpad"]
        lx, ly = (n, m) if gn else (m, n)
        mx = 2 * (lx + 1) * max(abs(sx), 1) + 8
        my = 2 * (ly + 1) * max(abs(sy), 1) + 8
        if alias:   # y[1] grows by at most 1 per column: iy <= (m - 1) * (n + 1)
            my = max(my, (m - 1) * (n + 2) + 8)
        na = lda * n + SLACK
        L += ["\t{\t/* call %d */" % c,
              FORGET,
              "\t\t%s m = %d, n = %d, lda = %d;" % (IT, m, n, lda),
              "\t\t%s sxv = %d, syv = %d;" % (IT, sx, sy),
              "\t\t%s *A = fz_alloc(%d);" % (ta, na),
              "\t\t%s *xb = fz_alloc(%d);" % (tb, 2 * mx + 1),
              "\t\tint32_t *yb = fz_alloc(%d * sizeof(int32_t));" % (2 * my + 1),
              "\t\tint32_t *ys = fz_alloc(4 * sizeof(int32_t));"]
        if alias:
            # operands of 0 and 1, alpha 1: the stride y[1] (or a word
            # outside y) grows by at most one per column
            L += ["\t\tfor (int q = 0; q < %d; q++) A[q] = (%s)(fz_rand() & 1);" % (na, ta),
                  "\t\tfor (int q = 0; q < %d; q++) xb[q] = (%s)(fz_rand() & 1);" % (2 * mx + 1, tb),
                  "\t\tfz_fill_s32(yb, %d, 0, 3);" % (2 * my + 1),
                  "\t\tyb[%d] = 1;" % (my + 1),
                  "\t\tys[0] = syv;"]
        else:
            L += ["\t\t%s(%sA, %d, %d);" % (fill_fn(ta), cast8(ta), na, cl["fa"]),
                  "\t\t%s(%sxb, %d, %d);" % (fill_fn(tb), cast8(tb), 2 * mx + 1, cl["fb"]),
                  "\t\tfz_fill_s32(yb, %d, -100000, 100000);" % (2 * my + 1)]
        if alias:
            yarg = "&yb[%d]" % (my + 1) if sv.get("alias_on") else "&ys[0]"
        elif sv["stride"] == "ptr":
            yarg = "&syv"
        else:
            yarg = "syv"
        xarg = "&sxv" if sv["stride"] == "ptr" else "sxv"
        al = 1 if alias else cl["alpha"]
        L += ["\t\tlong r = fz_f%d(m, n, %d, A, lda, xb + %d, %s, yb + %d, %s);"
              % (f, al, mx, xarg, my, yarg),
              '\t\tfz_hash("f%d.c%d.y", yb, %d * sizeof(int32_t));' % (f, c, 2 * my + 1),
              '\t\tfz_live("f%d.c%d.r", r);' % (f, c),
              "\t\t(void)sxv; (void)syv;",
              "\t\tfree(A); free(xb); free(yb); free(ys);",
              "\t}"]
    L.append("}")
    L.append("")
    return "\n".join(L) + "\n"


def xproblems(fn):
    return [] if fn["calls"] else ["empty function"]


def x_emit(fn):
    """C text of an xform function and its driver."""
    f = fn["id"]
    xf = fn["xf"]
    form = xf["form"]
    if form == "stepiv":
        return sv_emit(fn)
    ta, tb = xf["ta"], xf["tb"]
    prec = "int8" if is_signed(ta) else "uint8"
    pragma = X_PRAGMAS[xf["ptext"]].format(p=prec)
    zA = " - za" if xf["za"] else ""

    an = xf.get("anarrow", "none")

    def a(row, k, ld="K"):
        if an == "iter":
            k = "(uint8_t)(%s + f + 5)" % k
        off = {"u8": " + (uint8_t)(u0 - u1)", "s16": " + h0", "wrap8": " + (uint8_t)(f * 61 + 300)",
               "u16": " + (unsigned short)(f + 2)"}.get(an, "")
        e = "A[(%s) * %s + %s%s]" % (row, ld, k, off)
        return "(%s%s)" % (e, zA) if xf["za"] else e

    def b(k, j, ld="N", kd="K"):
        return "B[(%s) * %s + %s]" % (j, kd, k) if xf["btr"] else "B[(%s) * %s + %s]" % (k, ld, j)

    def init(row, col):
        return {"zero": "0", "C": "C[(%s) * N + %s]" % (row, col), "bias": "bias[%s]" % col}[
            xf["init"]]

    sig = ("(int M, int N, int K, int NB, int T, const %s *A, const %s *B, int32_t *C, "
           "const int32_t *bias, int32_t za, int32_t f, int8_t *E, int32_t *y)" % (ta, tb))
    L = []
    if x_is_omp(fn):
        L.append(OMP_MARK)
        L.append("int omp_get_thread_num(void);")
        L.append("int omp_get_num_threads(void);")
    gsv = form == "groups" and xf["gstride"] and xf.get("gsvar")
    if gsv:   # runq.c's `int GS`: the group size read from memory at run time
        L.append("int fz_gs%d = %d;" % (f, xf["GS"]))
    L.append("__attribute__((noinline)) void fz_f%d%s" % (f, sig))
    L.append("{")
    body = []
    if an == "u8":
        body += ["\tconst uint8_t u0 = (uint8_t)(f + 5), u1 = %d;" % xf["au1"],
                 "\t(void)u0; (void)u1;"]
    elif an == "s16":
        body += ["\tconst int16_t h0 = (int16_t)(f * 3 + 20);", "\t(void)h0;"]
    # sizes the driver allocates: a, b, c, y, e elements (computed in Python per call)
    if form == "kstep":
        body += [pragma,
                 "\tfor (int i = 0; i < M; i += %d)" % xf["si"],
                 "\t\tfor (int j = 0; j < N; j += %d) {" % xf["sj"],
                 "\t\t\tint32_t s = %s;" % init("i", "j"),
                 "\t\t\tfor (int k = 0; k < K; k += %d)" % xf["sk"],
                 "\t\t\t\ts += %s * %s;" % (a("i", "k"), b("k", "j")),
                 "\t\t\tC[i * N + j] = s;",
                 "\t\t}"]
    elif form == "rows":
        R = xf["R"]
        ex = "i + %d < M" % (R - 1) if xf["rexit"] == "plus" else "i < M - %d" % (R - 1)
        accs = ", ".join("s%d = %s" % (u, init("i + %d" % u, "j") if not xf["vec"] else
                                       ("0" if xf["init"] != "C" else "y[i + %d]" % u))
                         for u in range(R))
        bx = "x[k]" if xf["vec"] else b("k", "j")
        bv = "bv" if xf["bcopy"] else bx
        rarr = xf.get("rarr")
        inner = ["for (int k = 0; k < K; k++) {"]
        if xf["bcopy"]:
            inner.append("\tint32_t bv = %s;" % bx)
        areuse = xf.get("areuse", "none") if not rarr else "none"
        if rarr:
            inner += ["\tfor (int u = 0; u < %d; u++)" % R,
                      "\t\ts[u] += %s * %s;" % (a("i + u", "k"), bv)]
        elif areuse == "turn":
            for u in range(R):
                inner += ["\t%sav = %s;" % ("int32_t " if u == 0 else "", a("i + %d" % u, "k")),
                          "\ts%d += av * %s;" % (u, bv)]
        elif areuse == "lag":
            # av declared before the k loop (below): s0 reads the last row's
            # value of the previous k
            inner += ["\ts0 += av * %s;" % bv]
            for u in range(1, R):
                inner += ["\tav = %s;" % a("i + %d" % u, "k"), "\ts%d += av * %s;" % (u, bv)]
            inner += ["\tav = %s;" % a("i", "k")]
        else:
            inner += ["\ts%d += %s * %s;" % (u, a("i + %d" % u, "k"), bv) for u in range(R)]
        inner.append("}")
        # the accumulators' declarations (and the lagged local's) and stores
        out = (lambda u: "y[i + %s]" % u) if xf["vec"] else (lambda u: "C[(i + %s) * N + j]" % u)
        accs_l = ["int32_t %s;" % accs]
        stores = ["%s = s%d;" % (out(u), u) for u in range(R)]
        if rarr:
            ini = ("0" if xf["init"] != "C" else "y[i + u]") if xf["vec"] else init("i + u", "j")
            accs_l = ["int32_t s[%d];" % R, "for (int u = 0; u < %d; u++)" % R,
                      "\ts[u] = %s;" % ini]
            stores = ["for (int u = 0; u < %d; u++)" % R, "\t%s = s[u];" % out("u")]
        if areuse == "lag":
            accs_l = accs_l + ["int32_t av = 1;"]
        if xf["vec"]:
            rem_init = "0" if xf["init"] != "C" else "y[i]"
            rem = ["\tfor (; i < M; i++) {", "\t\tint32_t s = %s;" % rem_init,
                   "\t\tfor (int k = 0; k < K; k++)",
                   "\t\t\ts += %s * %s;" % (a("i", "k"), bx), "\t\ty[i] = s;", "\t}"]
            body += ["\tconst %s *x = B;" % tb, "\tint i;", pragma,
                     "\tfor (i = 0; %s; i += %d) {" % (ex, R)] + \
                    ["\t\t" + x for x in accs_l] + ["\t\t" + x for x in inner] + \
                    ["\t\t" + x for x in stores] + ["\t}"] + rem
        else:
            rem = ["\tfor (; i < M; i++)", "\t\tfor (int j = 0; j < N; j++) {",
                   "\t\t\tint32_t s = %s;" % init("i", "j"),
                   "\t\t\tfor (int k = 0; k < K; k++)",
                   "\t\t\t\ts += %s * %s;" % (a("i", "k"), bx), "\t\t\tC[i * N + j] = s;",
                   "\t\t}"]
            body += ["\tint i = 0;", pragma,
                     "\tfor (i = 0; %s; i += %d)" % (ex, R),
                     "\t\tfor (int j = 0; j < N; j++) {"] + \
                    ["\t\t\t" + x for x in accs_l] + ["\t\t\t" + x for x in inner] + \
                    ["\t\t\t" + x for x in stores] + ["\t\t}"] + rem
    elif form in ("batch", "batchnear", "omp_batch"):
        sub = xf["bsub"] if form != "omp_batch" else "lin"
        near = form == "batchnear"
        if sub == "bt" and not near:
            outer = ["for (int b = 0; b < NB; b++)", "\tfor (int t = 0; t < T; t++) {",
                     "\t\tint bt = b * T + t;"]
            depth = 2
            row = "bt * M + i"
            arow = "(bt * M + i) * K + k"
            crow = "(bt * M + i) * N + j"
            bb = "bt"
        else:
            if form == "omp_batch":
                outer = ["#pragma omp parallel for schedule(%s)" % xf["sched"],
                         "for (int b = 0; b < NB; b++) {"]
            else:
                outer = ["for (int b = 0; b < NB; b++) {"]
            depth = 1
            if near:
                arow, crow, bb = "i * K + k", "i * N + j", "0"
            elif sub == "three":
                arow, crow, bb = "b * M * K + i * K + k", "b * M * N + i * N + j", "b"
            else:
                arow, crow, bb = "(b * M + i) * K + k", "(b * M + i) * N + j", "b"
        av = "A[%s]" % arow
        if xf["za"]:
            av = "(%s - za)" % av
        if xf["bshared"] or near:
            bv = "B[j * K + k]" if xf["btr"] else "B[k * N + j]"
        elif sub == "three":
            bv = ("B[%s * N * K + j * K + k]" if xf["btr"] else "B[%s * K * N + k * N + j]") % bb
        else:
            bv = ("B[(%s * N + j) * K + k]" if xf["btr"] else "B[(%s * K + k) * N + j]") % bb
        ini = {"zero": "0", "C": "C[%s]" % crow, "bias": "bias[j]"}[xf["init"]]
        if near and xf["init"] == "zero":
            ini = "C[%s]" % crow        # accumulates once per repetition
        nest = ["for (int i = 0; i < M; i++)", "\tfor (int j = 0; j < N; j++) {",
                "\t\tint32_t s = %s;" % ini, "\t\tfor (int k = 0; k < K; k++)",
                "\t\t\ts += %s * %s;" % (av, bv), "\t\tC[%s] = s;" % crow, "\t}"]
        ind = "\t" * (depth + 1)
        if form == "omp_batch":
            body += ["\t" + x for x in outer] + [ind[:-1] + "\t" + pragma] + \
                    [ind + x for x in nest] + ["\t}"]
        else:
            body += [pragma] + ["\t" + x for x in outer] + [ind + x for x in nest] + \
                    ["\t" * depth + "}"]
    elif form == "region":
        decl = []
        it = "" if xf["rdecl"] == "iters" else "int "
        if xf["rdecl"] == "iters":
            decl = ["\t\tint i, j, k, x;"]
        elif xf["rdecl"] == "locals":
            decl = ["\t\tint32_t f2 = f * 2 + 1;", "\t\tint MN = M * N;"]
        fv = "f2" if xf["rdecl"] == "locals" else "f"
        mn = "MN" if xf["rdecl"] == "locals" else "M * N"
        parts = []
        for q, p in enumerate(xf["region"]):
            if p == "init":
                parts += ["for (%sx = 0; x < %s; x++)" % (it, mn), "\tC[x] = %s;" % fv]
            elif p == "scale":
                parts += ["for (%sx = 0; x < M; x++)" % it, "\ty[x] = (y[x] >> 2) + %s;" % fv]
            elif p == "gemm":
                parts += ["for (%si = 0; i < M; i++)" % it,
                          "\tfor (%sj = 0; j < N; j++) {" % it,
                          "\t\tint32_t s = %s;" % init("i", "j"),
                          "\t\tfor (%sk = 0; k < K; k++)" % it,
                          "\t\t\ts += %s * %s;" % (a("i", "k"), b("k", "j")),
                          "\t\tC[i * N + j] = s;", "\t}"]
            elif p == "gemv":
                parts += ["for (%si = 0; i < M; i++) {" % it,
                          "\tint32_t s = y[i];",
                          "\tfor (%sk = 0; k < K; k++)" % it,
                          "\t\ts += %s * B[k];" % a("i", "k"),
                          "\ty[i] = s;", "}"]
            elif p == "chain":
                # an int8 copy of C, then E * B (E is M x N, B read as N x ...)
                parts += ["for (%sx = 0; x < %s; x++)" % (it, mn),
                          "\tE[x] = (int8_t)(C[x] >> 7);",
                          "for (%si = 0; i < M; i++) {" % it,
                          "\tint32_t s = 0;",
                          "\tfor (%sj = 0; j < N; j++)" % it,
                          "\t\ts += E[i * N + j] * B[j];",
                          "\ty[i] += s;", "}"]
        body += [pragma, "\t{"] + decl + ["\t\t" + x for x in parts] + ["\t}"]
    elif form == "omp_rows":
        body += ["#pragma omp parallel", "\t{",
                 "\t\tint t = omp_get_thread_num(), nt = omp_get_num_threads();",
                 "\t\tint lo = (int)((long)M * t / nt), hi = (int)((long)M * (t + 1) / nt);",
                 pragma,
                 "\t\tfor (int i = lo; i < hi; i++)",
                 "\t\t\tfor (int j = 0; j < N; j++) {",
                 "\t\t\t\tint32_t s = %s;" % init("i", "j"),
                 "\t\t\t\tfor (int k = 0; k < K; k++)",
                 "\t\t\t\t\ts += %s * %s;" % (a("i", "k"), b("k", "j")),
                 "\t\t\t\tC[i * N + j] = s;", "\t\t\t}", "\t}"]
    elif form == "omp_task":
        if xf["vec"]:
            nest = ["for (int i = 0; i < M; i++) {", "\tint32_t s = %s;" %
                    ("y[i]" if xf["init"] == "C" else "0"),
                    "\tfor (int k = 0; k < K; k++)",
                    "\t\ts += %s * B[k];" % a("i", "k"), "\ty[i] = s;", "}"]
        else:
            nest = ["for (int i = 0; i < M; i++)", "\tfor (int j = 0; j < N; j++) {",
                    "\t\tint32_t s = %s;" % init("i", "j"), "\t\tfor (int k = 0; k < K; k++)",
                    "\t\t\ts += %s * %s;" % (a("i", "k"), b("k", "j")),
                    "\t\tC[i * N + j] = s;", "\t}"]
        body += ["#pragma omp parallel", "#pragma omp single", "\t{", "#pragma omp task",
                 "\t\t{", pragma] + ["\t\t\t" + x for x in nest] + \
                ["\t\t}", "#pragma omp taskwait", "\t}"]
    elif form == "omp_c89":
        d, blk = xf["c89dir"], xf["c89blk"]
        ini = "0" if d == "critical" else None   # every thread runs it
        head = "for (i = 0, %s = 0; i < M; i++)" % ("k" if xf["vec"] else "j") \
            if xf["c89comma"] else "for (i = 0; i < M; i++)"
        pre = xf["c89pre"] if blk else "none"
        if pre != "none":
            head = "for (; i < M; i++)"
        if xf["vec"]:
            nest = [head + " {",
                    "	s = %s;" % (ini or ("y[i]" if xf["init"] == "C" else "0")),
                    "	for (k = 0; k < K; k++)",
                    "		s += %s * B[k];" % a("i", "k"), "	y[i] = s;", "}"]
        else:
            nest = [head, "	for (j = 0; j < N; j++) {",
                    "		s = %s;" % (ini or init("i", "j")), "		for (k = 0; k < K; k++)",
                    "			s += %s * %s;" % (a("i", "k"), b("k", "j")),
                    "		C[i * N + j] = s;", "	}"]
        nest = ["			" + x for x in nest]
        body += ["	int i = -1, j = -3, k = -5, i0 = M / 3;", "	int32_t s = 7;",
                 "#pragma omp parallel", "	{"]
        if pre != "none":
            pragma = "\t\t\ti = i0;\n" + ("\t\t\ti0 = 0;\n" if pre == "clobber" else "") + \
                pragma
        if d == "task":
            body += ["#pragma omp single", "		{", "#pragma omp task"]
            body += (["		{", pragma] + nest + ["		}"]) if blk else [pragma] + nest
            body += ["#pragma omp taskwait", "		}"]
        else:
            body += ["#pragma omp %s" % d]
            body += (["		{", pragma] + nest + ["		}"]) if blk else [pragma] + nest
        body += ["	}", "	y[M + N] = (int32_t)(((i * 1000 + j) * 1000 + k) * 7 + s);"]
    elif form == "kunroll":
        U = xf["U"]
        ex = {"plus": "k + %d < K" % (U - 1), "le": "k <= K - %d" % U,
              "plus_le": "k + %d <= K" % U}[xf["uexit"]]
        offs = list(xf["uorder"])
        if xf["unear"] == "gap":
            offs = [o for o in offs if o != U - 1]
        elif xf["unear"] == "past":
            ex = "k + %d < K" % max(U - 2, 0)
        kk = lambda o: "k" if o == 0 else "k + %d" % o
        bx = (lambda o: "B[%s]" % kk(o)) if xf["vec"] else (lambda o: b(kk(o), "j"))
        prod = lambda o: "%s * %s" % (a("i", kk(o)), bx(o))
        mem = xf["umem"] and not xf["vec"]
        tgt = "C[i * N + j]" if mem else "s"
        if xf["ustmts"]:
            upd = ["%s += %s;" % (tgt, prod(o)) for o in offs]
        else:
            upd = ["%s += %s;" % (tgt, " + ".join(prod(o) for o in offs))]
        rem = ["for (; k < K; k++)", "	%s += %s;" % (tgt, prod(0))]
        kdecl = [] if xf["utop"] else ["int k = 0;"]
        khead = "for (k = 0; %s; k += %d) {" % (ex, U) if xf["utop"] else \
            "for (; %s; k += %d) {" % (ex, U)
        inner = kdecl + [khead] + ["\t" + x for x in upd] + ["}"] + rem
        if xf["vec"]:
            ini = "y[i]" if xf["init"] == "C" else "0"
            nest = ["for (int i = 0; i < M; i++) {", "\tint32_t s = %s;" % ini] + \
                   ["\t" + x for x in inner] + ["\ty[i] = s;", "}"]
        elif mem:
            nest = ["for (int i = 0; i < M; i++)", "\tfor (int j = 0; j < N; j++) {"] + \
                   ["\t\t" + x for x in inner] + ["\t}"]
        else:
            nest = ["for (int i = 0; i < M; i++)", "\tfor (int j = 0; j < N; j++) {",
                    "\t\tint32_t s = %s;" % init("i", "j")] + ["\t\t" + x for x in inner] + \
                   ["\t\tC[i * N + j] = s;", "\t}"]
        body += (["\tint k;"] if xf["utop"] else []) + [pragma] + ["\t" + x for x in nest]
    elif form == "groups":
        GS = xf["GS"]
        kk = "g * %d + k" % GS if not xf["gstride"] else "j0 + k"
        bx = ("B[%s]" % kk) if xf["vec"] else ("B[(j) * K * %d + %s]" % (GS, kk))
        prod = "%s * %s" % (a("i", kk, ld="K * %d" % GS), bx)
        if xf["gstride"]:
            gv = ("fz_gs%d" % f) if gsv else str(GS)
            grp = ["int32_t s = 0;",
                   "for (int j0 = 0; j0 <= K * %d - %s; j0 += %s) {" % (GS, gv, gv),
                   "\tfor (int k = 0; k < %s; k++)" % gv,
                   "\t\ts += %s;" % prod,
                   "\tacc += (int64_t)s * (j0 / %s + f);" % gv,
                   "\ts = 0;", "}"]
        else:
            grp = ["for (int g = 0; g < K; g++) {", "\tint32_t s = 0;",
                   "\tfor (int k = 0; k < %d; k++)" % GS,
                   "\t\ts += %s;" % prod,
                   "\tacc += (int64_t)s * (g + f);", "}"]
        if xf["vec"]:
            nest = ["for (int i = 0; i < M; i++) {", "\tint64_t acc = y[i];"] + \
                   ["\t" + x for x in grp] + ["\ty[i] = (int32_t)acc;", "}"]
        else:
            nest = ["for (int i = 0; i < M; i++)", "\tfor (int j = 0; j < N; j++) {",
                    "\t\tint64_t acc = %s;" % init("i", "j")] + ["\t\t" + x for x in grp] + \
                   ["\t\tC[i * N + j] = (int32_t)acc;", "\t}"]
        body += [pragma] + ["\t" + x for x in nest]
    elif form == "conv":
        body += conv_body(xf, pragma, zA)
    elif form == "trired":
        tk = xf["tkind"]
        kl = {"gt": "int k = i + 1; k < K; k++", "ge": "int k = i; k < K; k++",
              "lt": "int k = 0; k < i; k++", "le": "int k = 0; k <= i; k++",
              "down": "int k = i; k >= 0; k--", "colj": "int k = j; k < K; k++",
              "trmm": "int k = i + 1; k < M; k++", "inplace": "int k = i + 1; k < M; k++",
              "inabove": "int k = 0; k < i; k++",
              # a band clipped to the matrix by a condition of its own
              "band": "int k = i - 2; k <= i + 3; k++", "bandc": "int k = i + 4; k >= i - 1; k--"}
        guard = {"band": ["if (k >= 0 && k < K)"],
                 "bandc": ["if (k < 0 || k >= K)", "\tcontinue;"]}.get(tk, [])
        if tk == "vec":
            body += [pragma,
                     "\tfor (int i = 0; i < M; i++) {",
                     "\t\tint32_t t = %s;" % ("y[i]" if xf["init"] == "C" else "0"),
                     "\t\tfor (int j = 0; j <= i; j++)",
                     "\t\t\tt += %s * B[j];" % a("i", "j"),
                     "\t\ty[i] = t;", "\t}"]
        elif tk in ("inplace", "inabove"):
            ea = "A[(k) * K + i]" + zA
            if tk == "inabove":
                ea = a("i", "k")
            # rows of a fixed length (a run-time one may overlap: refused)
            body += ["\tint8_t (*X)[64] = (int8_t (*)[64])E;",
                     "\tint nx = N < 64 ? N : 64;",
                     "\tfor (int x = 0; x < M * 64; x++)",
                     "\t\tE[x] = (int8_t)(B[x % (K * N + 1)] ^ (x * 7));",
                     pragma,
                     "\tfor (int i = 0; i < M; i++)",
                     "\t\tfor (int j = 0; j < nx; j++) {",
                     "\t\t\tint32_t s = X[i][j];",
                     "\t\t\tfor (%s)" % kl[tk],
                     "\t\t\t\ts += (%s) * X[k][j];" % ea,
                     "\t\t\tX[i][j] = (int8_t)(s >> 5);",
                     "\t\t}"]
        else:
            ea = ("(A[(k) * M + i]%s)" % zA) if tk == "trmm" else a("i", "k")
            body += [pragma,
                     "\tfor (int i = 0; i < M; i++)",
                     "\t\tfor (int j = 0; j < N; j++) {",
                     "\t\t\tint32_t s = %s;" % init("i", "j"),
                     "\t\t\tfor (%s)%s" % (kl[tk], " {" if guard else "")] + \
                    ["\t\t\t\t" + x for x in guard] + \
                    ["\t\t\t\ts += %s * %s;" % (ea, b("k", "j"))] + \
                    (["\t\t\t}"] if guard else []) + [
                     "\t\t\tC[i * N + j] = s;",
                     "\t\t}"]
    elif form == "omp_warn":
        clauses = " num_threads(2) if (M > 2)" if xf["sched"] == "static" else ""
        omp = "#pragma omp parallel for schedule(%s)%s" % (xf["sched"], clauses)
        body += ([omp, pragma] if xf.get("ompfirst") else [pragma, omp]) + [
                 "\tfor (int i = 0; i < M; i++) {",
                 "\t\tint32_t s = %s;" % ("y[i]" if xf["init"] == "C" else "0"),
                 "\t\tfor (int k = 0; k < K; k++)",
                 "\t\t\ts += %s * B[k];" % a("i", "k"),
                 # without clauses: a ReLU the kernels do not fuse (tile
                 # mode: the loop reads the call's results)
                 "\t\ty[i] = s;" if clauses else "\t\ty[i] = s > 0 ? s : 0;", "\t}"]
    L += body
    L.append("\t(void)M; (void)N; (void)K; (void)NB; (void)T; (void)A; (void)B; (void)C;")
    L.append("\t(void)bias; (void)za; (void)f; (void)E; (void)y;")
    L.append("}")
    L.append("")
    # the driver
    L.append("static void run_f%d(void)" % f)
    L.append("{")
    for c, cl in enumerate(fn["calls"]):
        M, N, K, NB, T = cl["M"], cl["N"], cl["K"], cl["B"], cl["T"]
        nb = max(NB, 1) * (T if (form == "batch" and xf["bsub"] == "bt") else 1)
        kx = K * xf["GS"] if form == "groups" else K
        na = nb * M * kx + SLACK
        na += {"u16": 65536, "none": 0}.get(xf.get("anarrow", "none"), 512)
        nbb = nb * kx * N + kx + N + SLACK
        ncc = nb * M * N + SLACK
        if form == "conv":
            nim = max(NB, 1) if xf["cbatch"] else 1
            ih = max((T - 1) * xf["S"] + (xf["KH"] - 1) * xf["D"] + 1, 1)
            iw = max((M - 1) * xf["S"] + (xf["KW"] - 1) * xf["D"] + 1, 1)
            # (the depthwise form reads A and B by the output channel,
            # whatever K)
            na = nim * ih * iw * max(K, 1) + N + SLACK
            nbb = xf["KH"] * xf["KW"] * max(K, 1) * N + SLACK
            ncc = nim * T * M * N + SLACK
        if form == "trired":   # the in-place forms' rows of 64
            ncc = max(ncc, M * 64 + SLACK)
        ny = M + N + SLACK
        L += ["\t{\t/* call %d */" % c,
              FORGET,
              "\t\tint M = %d, N = %d, K = %d, NB = %d, T = %d;" % (M, N, K, NB, T),
              "\t\t%s *A = fz_alloc(%d);" % (ta, na),
              "\t\t%s *B = fz_alloc(%d);" % (tb, nbb),
              "\t\tint32_t *C = fz_alloc(%d * sizeof(int32_t));" % ncc,
              "\t\tint32_t *y = fz_alloc(%d * sizeof(int32_t));" % ny,
              "\t\tint32_t *bias = fz_alloc(%d * sizeof(int32_t));" % (N + 1),
              "\t\tint8_t *E = fz_alloc(%d);" % ncc,
              "\t\t%s(%sA, %d, %d);" % (fill_fn(ta), cast8(ta), na, cl["fa"]),
              "\t\t%s(%sB, %d, %d);" % (fill_fn(tb), cast8(tb), nbb, cl["fb"]),
              "\t\tfz_fill_s32(C, %d, -100000, 100000);" % ncc,
              "\t\tfz_fill_s32(y, %d, -100000, 100000);" % ny,
              "\t\tfz_fill_s32(bias, %d, -100000, 100000);" % (N + 1),
              "\t\tfz_f%d(M, N, K, NB, T, A, B, C, bias, %s, %d, E, y);" % (f, lit(cl["za"]),
                                                                            cl["f"]),
              '\t\tfz_hash("f%d.c%d.C", C, %d * sizeof(int32_t));' % (f, c, ncc),
              '\t\tfz_hash("f%d.c%d.y", y, %d * sizeof(int32_t));' % (f, c, ny),
              '\t\tfz_hash("f%d.c%d.E", E, %d);' % (f, c, ncc),
              "\t\tfree(A); free(B); free(C); free(y); free(bias); free(E);",
              "\t}"]
    L.append("}")
    L.append("")
    return "\n".join(L) + "\n"


def program_problems(prog):
    p = []
    for fn in prog["funcs"]:
        if fn.get("kind") == "xform":
            p += xproblems(fn)
            continue
        if fn.get("kind") == "float":
            if not fn["calls"]:
                p.append("empty function")
            p += fproblems(fn)
            continue
        if not fn["nests"] or not fn["calls"]:
            p.append("empty function")
        for n in fn["nests"]:
            p += problems(fn, n, fn["nests"])
        if fn.get("restrict") and len(fn["calls"]) and all(
                len(c["nests"]) == len(fn["nests"]) for c in fn["calls"]) and not restrict_ok(fn):
            p.append("restrict")
        for c in fn["calls"]:
            if len(c["nests"]) != len(fn["nests"]):
                p.append("call arity")
            else:
                for n, cn in zip(fn["nests"], c["nests"]):
                    if n.get("share") is None:
                        p += call_problems(n, cn)
    return p


# --------------------------------------------------------------- emission

C_PRELUDE = r"""/* Generated by tests/fuzz/gen.py (mixprec random differential programs), seed %(seed)s.
 * Built with and without a mixprec plugin, it must print the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <mixprec.h>

#define FZ_INT8 int8
#define FZ_UINT8 uint8
#define FZ_ACC int32

static uint64_t fz_state = %(seed)sull;

static uint64_t fz_rand(void)
{
	uint64_t z = (fz_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* modes: 0 random, a quarter extremes; 1 extremes only; 2 all the largest
   magnitude (-128 / 255); 3 all 127 / 0; 4 all 0; 5 small values */
static __attribute__((unused)) void fz_fill_s8(int8_t *p, size_t n, int mode)
{
	static const int8_t edge[] = { -128, 127, 0, -1, 1, -127 };
	for (size_t i = 0; i < n; i++) {
		uint64_t r = fz_rand();
		switch (mode) {
		case 1: p[i] = (r & 1) ? -128 : 127; break;
		case 2: p[i] = -128; break;
		case 3: p[i] = 127; break;
		case 4: p[i] = 0; break;
		case 5: p[i] = (int8_t)((int)(r %% 5) - 2); break;
		default: p[i] = (r & 3) == 0 ? edge[(r >> 8) %% 6] : (int8_t)(uint8_t)(r >> 16);
		}
	}
}

static __attribute__((unused)) void fz_fill_u8(uint8_t *p, size_t n, int mode)
{
	static const uint8_t edge[] = { 0, 255, 1, 127, 128, 254 };
	for (size_t i = 0; i < n; i++) {
		uint64_t r = fz_rand();
		switch (mode) {
		case 1: p[i] = (r & 1) ? 0 : 255; break;
		case 2: p[i] = 255; break;
		case 3: p[i] = 0; break;
		case 4: p[i] = 128; break;
		case 5: p[i] = (uint8_t)(r %% 3); break;
		default: p[i] = (r & 3) == 0 ? edge[(r >> 8) %% 6] : (uint8_t)(r >> 16);
		}
	}
}

static __attribute__((unused)) void fz_fill_s32(int32_t *p, size_t n, int32_t lo, int32_t hi)
{
	uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = fz_rand();
		p[i] = (r & 7) == 0 ? ((r >> 3) & 1 ? lo : hi) : (int32_t)(lo + (int64_t)((r >> 4) %% span));
	}
}

static __attribute__((unused)) void fz_fill_f32(float *p, size_t n, float lo, float hi)
{
	for (size_t i = 0; i < n; i++) {
		double u = (double)(fz_rand() >> 11) * (1.0 / 9007199254740992.0);
		p[i] = (float)(lo + (hi - lo) * u);
	}
}

/* 64-byte aligned, junk-filled (0xA5) so that unwritten bytes are deterministic */
static __attribute__((unused)) double fz_unif(double lo, double hi)
{
	return lo + (hi - lo) * ((double)(fz_rand() >> 11) * (1.0 / 9007199254740992.0));
}

static void *fz_alloc(size_t bytes)
{
	void *p = NULL;
	if (posix_memalign(&p, 64, bytes + 64) != 0)
		abort();
	memset(p, 0xA5, bytes + 64);
	return p;
}

static void fz_hash(const char *name, const void *p, size_t bytes)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < bytes; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	printf("%%s bytes=%%zu fnv=%%016llx\n", name, bytes, (unsigned long long)h);
}

static void fz_live(const char *name, long long v)
{
	printf("%%s = %%lld\n", name, v);
}

static void *fz_slot[2];
static __attribute__((noinline, unused)) void fz_keep(int q, void *p)
{
	fz_slot[q] = p;
}

static uint32_t fz_side_sink;
static __attribute__((noinline, unused)) void fz_side(int32_t v)
{
	fz_side_sink = fz_side_sink * 3u + (uint32_t)v;
}

"""


def lit(v):
    """An int literal valid for any value of int32/uint32."""
    if v == INT32_MIN:
        return "INT32_MIN"
    if v < 0:
        return "(%d)" % v
    if v > INT32_MAX:
        return "%du" % v
    return "%d" % v


def fill_fn(t):
    return "fz_fill_s8" if is_signed(t) else "fz_fill_u8"


def cast8(t):
    return "(int8_t *)" if is_signed(t) else "(uint8_t *)"


class FuncEmitter:
    """Emits the globals, the function and the driver of one program function."""

    def __init__(self, fn):
        self.fn = fn
        self.f = fn["id"]
        self.it = fn["itype"]
        self.top = []        # lines before the function (macros, globals, helpers)
        self.live = []       # (slot expression) in order
        self.pragmas = 0

    # ---- names
    def ext(self, q, d):
        n = self.fn["nests"][q]
        o = self.own(q)
        if n["dims"][d] == "const":
            return "F%d_%s%d" % (self.f, d, o)
        return "%s%d" % (d, o)

    def ldx(self, q, x):
        n = self.fn["nests"][q]
        kind = n["ld"][x]
        lay = n[x + "lay"]
        if kind == "dim":
            return self.ext(q, ld_dim(lay, x))
        if kind == "param":
            return "ld%s%d" % (x, self.own(q))
        return "F%d_LD%s%d" % (self.f, x.upper(), self.own(q))

    def rq(self):
        return "restrict " if self.fn.get("restrict") else ""

    def own(self, q):
        """The nest whose arrays, extents and zero points nest q uses."""
        sh = self.fn["nests"][q].get("share")
        return q if sh is None else sh

    def gname(self, q, x):
        return "g%s%d_%d" % (x.upper(), self.f, self.own(q))

    def tc(self, q):
        return tc_of(self.fn["nests"][q])

    # ---- values of one call
    def call_ext(self, q, c, d):
        return self.fn["calls"][c]["nests"][q][d]

    def kmax(self, q, c):
        n = self.fn["nests"][q]
        K = self.call_ext(q, c, "K")
        for e in n["extras"]:
            if e["kind"] == "ptr" and e["target"] == "K":
                K = max(K, e["klim"])
        return K

    def call_dim(self, q, c, d):
        return self.kmax(q, c) if d == "K" else self.call_ext(q, c, d)

    def ld_value(self, q, c, x):
        """Leading dimension of operand x in call c (a const ld: max over calls)."""
        n = self.fn["nests"][q]
        lay = n[x + "lay"]
        d = ld_dim(lay, x)
        if n["ld"][x] == "const":
            v = max(self.call_dim(q, cc, d) for cc in range(len(self.fn["calls"])))
            return max(1, v + n["pad"][x])
        if n["ld"][x] == "dim":
            return self.call_ext(q, c, d)
        return max(1, self.call_dim(q, c, d) + n["pad"][x])

    def rows(self, q, c, x):
        n = self.fn["nests"][q]
        lay = n[x + "lay"]
        if x == "a":
            d = "K" if lay in ("linT", "vlaT", "globT") else "M"
        elif x == "b":
            d = "N" if lay in ("linT", "vlaT", "globT") else "K"
        else:
            d = "N" if lay == "linT" else "M"
        return self.call_dim(q, c, d)

    def nelems(self, q, c, x):
        return max(1, self.rows(q, c, x)) * max(1, self.ld_value(q, c, x)) + SLACK

    def glob_shape(self, q, x):
        calls = range(len(self.fn["calls"]))
        rows = max(max(1, self.rows(q, c, x)) for c in calls) + 2
        ld = max(self.ld_value(q, c, x) for c in calls)
        return rows, ld

    # ---- expressions inside the nest
    def lv(self, q, var):
        """The loop variable as subscripts read it ('0' for a removed loop)."""
        return "0" if self.fn["nests"][q].get("vec") == var else var

    def a_expr(self, q, kk):
        n = self.fn["nests"][q]
        lay = n["alay"]
        if lay == "rowptr":
            return "arow%d[%s]" % (q, kk)
        i = self.lv(q, "i")
        name = self.gname(q, "a") if lay in ("glob", "globT", "gflat") else "A%d" % self.own(q)
        ld = self.ldx(q, "a") if lay not in ("glob", "globT") else None
        return {"lin": "%s[%s * %s + %s]" % (name, i, ld, kk),
                "linP": "*(%s + %s * %s + %s)" % (name, i, ld, kk),
                "linR": "%s[(%s - 1 - %s) * %s + %s]" % (name, self.ext(q, "M"), i, ld, kk),
                "gflat": "%s[%s * %s + %s]" % (name, i, ld, kk),
                "linT": "%s[%s * %s + %s]" % (name, kk, ld, i),
                "vla": "%s[%s][%s]" % (name, i, kk), "glob": "%s[%s][%s]" % (name, i, kk),
                "vlaT": "%s[%s][%s]" % (name, kk, i), "globT": "%s[%s][%s]" % (name, kk, i)}[lay]

    def b_expr(self, q, kk):
        n = self.fn["nests"][q]
        lay = n["blay"]
        name = self.gname(q, "b") if lay in ("glob", "globT", "gflat") else "B%d" % self.own(q)
        ld = self.ldx(q, "b") if lay not in ("glob", "globT") else None
        j = self.lv(q, "j")
        return {"lin": "%s[%s * %s + %s]" % (name, kk, ld, j),
                "linP": "*(%s + %s * %s + %s)" % (name, kk, ld, j),
                "linR": "%s[(%s - 1 - %s) * %s + %s]" % (name, self.ext(q, "K"), kk, ld, j),
                "gflat": "%s[%s * %s + %s]" % (name, kk, ld, j),
                "linT": "%s[%s * %s + %s]" % (name, j, ld, kk),
                "vla": "%s[%s][%s]" % (name, kk, j), "glob": "%s[%s][%s]" % (name, kk, j),
                "vlaT": "%s[%s][%s]" % (name, j, kk), "globT": "%s[%s][%s]" % (name, j, kk)}[lay]

    def c_expr(self, q, j=None):
        n = self.fn["nests"][q]
        lay = n["clay"]
        i, j = self.lv(q, "i"), (j or self.lv(q, "j"))
        o = self.own(q)
        if lay == "glob":
            return "%s[%s][%s]" % (self.gname(q, "c"), i, j)
        if lay == "vla":
            return "C%d[%s][%s]" % (o, i, j)
        ld = self.ldx(q, "c")
        if lay == "linT":
            return "C%d[%s * %s + %s]" % (o, j, ld, i)
        if lay == "linR":
            return "C%d[(%s - 1 - %s) * %s + %s]" % (o, self.ext(q, "M"), i, ld, j)
        if lay == "linP":
            return "*(C%d + %s * %s + %s)" % (o, i, ld, j)
        return "C%d[%s * %s + %s]" % (o, i, ld, j)

    def zp_text(self, q, z):
        n = self.fn["nests"][q]
        zp = n[z]
        if zp["kind"] == "const":
            v = zp["val"]
            return "(%d)" % v if v < 0 else "%d" % v
        o = self.own(q)
        if zp["kind"] == "macro":
            return "F%d_%s%d" % (self.f, z.upper(), o)
        if zp["kind"] == "global":
            return "g_%s%d_%d" % (z, self.f, o)
        if zp["kind"] == "mem":
            return "zq%d[%d]" % (o, 0 if z == "za" else 1)
        return "%s%d" % (z, o)

    def operand(self, q, x, kk):
        n = self.fn["nests"][q]
        if x == "a":
            e = self.a_expr(q, kk)
        else:
            e = self.b_expr(q, kk)
        zp = n["za" if x == "a" else "zb"]
        if zp:
            e = "(%s %s %s)" % (e, zp["sign"], self.zp_text(q, "za" if x == "a" else "zb"))
        return e

    def product(self, q, held=None):
        """The product's two factors and the update's form; held = (x,
        name): operand x ("a" or "b") read from the local name instead."""
        n = self.fn["nests"][q]
        kk = "(k - 1)" if n["k1"] else "k"
        ka = "(k * k) %% %s" % self.ext(q, "K") if n["near"] == "nonaffine" else kk
        a = self.operand(q, "a", ka)
        if n["near"] == "ptrwalk":
            a = a.replace(self.a_expr(q, ka), "*pw%d++" % q)
        b = self.operand(q, "b", kk)
        sc = n.get("iscale")
        if sc:
            a = ("(%s)(%s * %d)" % (n["ta"], a, sc["f"]) if sc["wrap"]
                 else "%d * %s" % (sc["f"], a))
        bs = n.get("bscale")
        if bs and bs["where"] == "b":
            b = "%d * %s" % (bs["f"], b)
        elif bs and bs["where"] == "neg":
            b = "-%s" % b
        if held:
            self.held_text = a if held[0] == "a" else b
            if held[0] == "a":
                a = held[1]
            else:
                b = held[1]
        u = n["update"]
        if bs and bs["where"] == "right":
            b = "%s * %d" % (b, bs["f"])
        if u == "swapped":
            return b, a, "+="
        if u == "cast16":
            return "(int16_t)%s" % a, "(int16_t)%s" % b, "+="
        if u == "castint":
            return "(int)%s" % a, "(int)%s" % b, "+="
        return a, b, u

    def update_stmt(self, q, target, held=None):
        a, b, u = self.product(q, held)
        sub = self.fn["nests"][q].get("usub")
        if u == "s_eq_s_plus":
            return "%s = %s %s %s * %s;" % (target, target, "-" if sub else "+", a, b)
        if u == "s_eq_p_plus_s":
            return "%s = %s * %s %s %s;" % (target, a, b, "-" if sub else "+", target)
        if u == "minus_neg":
            return "%s -= -(%s * %s);" % (target, a, b)
        if u == "zero_sub":
            return "%s %s= 0 - %s * %s;" % (target, "+" if sub else "-", a, b)
        if u == "negneg":
            return "%s %s= -(-(%s * %s));" % (target, "-" if sub else "+", a, b)
        if u == "neg_plus_s":
            return ("%s = -(%s * %s) + %s;" % (target, a, b, target) if sub else
                    "%s = %s + -(-(%s * %s));" % (target, target, a, b))
        return "%s %s= %s * %s;" % (target, "-" if sub else "+", a, b)

    def loop_parts(self, q, var, tri=None):
        """(declaration prefix, start, test, increment) of loop var of nest q."""
        n = self.fn["nests"][q]
        ext = self.ext(q, {"i": "M", "j": "N", "k": "K"}[var])
        if var == "k" and n.get("kcopy"):
            ext = "kn%d" % q
        if var == "k" and n.get("ksel"):
            ext = "(%s > 3 ? %s - 1 : %s)" % (ext, ext, ext)
        if var == "k" and n.get("kptr") and n["form"] != "perfect":
            ext = "*kp%d" % q
        decl = "" if self.fn["iter_top"] else self.it + " "
        ex = n["exit"][var]
        inc = {"++": "%s++", "pre": "++%s", "+=": "%s += 1", "=+": "%s = %s + 1"}[n["inc"][var]]
        inc = inc.replace("%s", var)
        start = "0"
        if var == "k" and n["k1"]:
            start = "1"
            test = {"<": "k < %s + 1", "!=": "k != %s + 1", "<=": "k <= %s", ">": "%s + 1 > k"}[ex]
            test = test % ext
        else:
            test = {"<": "%s < %s" % (var, ext), "!=": "%s != %s" % (var, ext),
                    "<=": "%s <= %s - 1" % (var, ext), ">": "%s > %s" % (ext, var)}[ex]
        if tri:
            start = tri
            test = "%s < %s" % (var, ext)
        if var == "k" and n["near"] == "step2":
            test, inc = "k < %s" % ext, "k += 2"
        return decl, start, test, inc

    def head(self, q, var, tri=None):
        """for (...) header of loop var of nest q."""
        n = self.fn["nests"][q]
        decl, start, test, inc = self.loop_parts(q, var, tri)
        if var == "k" and n["near"] == "down_k":
            return "for (%sk = %s - 1; k >= 0; k--)" % (
                decl, "kn%d" % q if n.get("kcopy") else self.ext(q, "K"))
        return "for (%s%s = %s; %s; %s)" % (decl, var, start, test, inc)

    def block(self, q, var, ind, body, tri=None):
        """Loop var around body (lines, not indented): a for, a while, or
        a plain block when the loop is removed (matrix-vector forms)."""
        n = self.fn["nests"][q]
        inner = [ind + "\t" + x if not x.startswith("#") else x for x in body]
        if n.get("vec") == var:
            return [ind + "{"] + inner + [ind + "}"]
        if var in n.get("while", []):
            decl, start, test, inc = self.loop_parts(q, var, tri)
            return ([ind + "%s%s = %s;" % (decl, var, start), ind + "while (%s) {" % test]
                    + inner + [ind + "\t%s;" % inc, ind + "}"])
        if len(body) == 1 and not body[0].startswith("#"):
            return [ind + self.head(q, var, tri), ind + "\t" + body[0]]
        return [ind + self.head(q, var, tri), ind + "{"] + inner + [ind + "}"]

    def pragma_lines(self, q):
        n = self.fn["nests"][q]
        text = PRAGMA_TEXTS[n["ptext"]][0]
        aname = (self.gname(q, "a") if n["alay"] in ("glob", "globT", "gflat") else "A%d" % q)
        lines = [text.format(p=n["prec"], P=n["prec"].upper(), A=aname)]
        if n["lpragma"] == "unroll":
            lines.append("#pragma GCC unroll 2")
        elif n["lpragma"] == "ivdep":
            lines.append("#pragma GCC ivdep")
        self.pragmas += 1
        return lines

    # ---- the nest body
    def accv(self, q):
        """The sum as the epilogue reads it."""
        n = self.fn["nests"][q]
        if n["form"] == "memory":
            return self.c_expr(q)
        if any(e["kind"] == "accptr" for e in n["extras"]):
            return "(*ps%d)" % q
        return "s%d" % q

    def acc_type(self, q):
        n = self.fn["nests"][q]
        return {"acc64": "long long", "acc16": "int16_t", "uacc": "uint32_t",
                "volatile": "volatile int32_t"}.get(n["near"], n["acc_type"])

    def init_value(self, q):
        n = self.fn["nests"][q]
        o = self.own(q)
        return {"zero": "0", "bias_j": "bias%d[%s]" % (o, self.lv(q, "j")),
                "bias_i": "bias%d[%s]" % (o, self.lv(q, "i")),
                "bias_j2": "bias%d[2 * %s]" % (o, self.lv(q, "j")),
                "bias2d": "bias%d[%s * %s + %s]" % (o, self.lv(q, "i"), self.ext(q, "N"),
                                                    self.lv(q, "j")),
                "const": lit(n["init_const"]), "C": self.c_expr(q), "k": "k"}[n["init"]]

    def epilogue(self, q):
        n = self.fn["nests"][q]
        s = self.accv(q)
        C = self.c_expr(q)
        e = n["epi"]
        ep = n["ep"]
        qi = self.lv(q, ep["qidx"])
        sc = {"param": "scale%d" % q, "array": "scl%d[%s]" % (q, qi),
              "lit": ep["lit"]}[ep["scale"]]
        qm = "qm%d" % q if ep["qmode"] == "scalar" else "qmv%d[%s]" % (q, qi)
        qs = "qs%d" % q if ep["qmode"] == "scalar" else "qsv%d[%s]" % (q, qi)
        if n["form"] != "scalar":
            if e == "relu":
                return ["%s = %s > 0 ? %s : 0;" % (C, C, C)]
            if e == "clamp32":
                return ["%s = mp_clamp_i32(%s, %s, %s);" % (C, C, lit(ep["lo"]), lit(ep["hi"]))]
            if e == "shift":
                return ["%s >>= %d;" % (C, ep["sh"])]
            return []
        if e == "store":
            return ["%s = %s;" % (C, s if not s.startswith("(*ps") else "%s - 1" % s)]
        if e == "plus_ij":
            return ["%s = %s + (int32_t)%s * 3 - (int32_t)%s;" % (C, s, self.lv(q, "i"),
                                                                self.lv(q, "j"))]
        if e == "chain":
            # reads the output of another point, written earlier in the nest
            return ["%s = %s - %s / 2;" % (C, s, self.c_expr(q, j="0"))]
        if e == "addinto":
            return ["%s += %s;" % (C, s)]
        if e == "plus_k":
            return ["%s = %s + k;" % (C, s)]
        if e == "relu":
            return ["%s = %s > 0 ? %s : 0;" % (C, s, s)]
        if e == "shift":
            return ["%s = %s >> %d;" % (C, s, ep["sh"])]
        if e == "clamp32":
            return ["%s = mp_clamp_i32(%s, %s, %s);" % (C, s, lit(ep["lo"]), lit(ep["hi"]))]
        if e == "requant8":
            return ["%s = (int8_t)mp_requant_fp32(%s, %s, zy%d, -128, 127);" % (C, s, sc, q)]
        if e == "requantu8":
            return ["%s = (uint8_t)mp_requant_fp32(%s, %s, zy%d, 0, 255);" % (C, s, sc, q)]
        if e == "gemmlowp":
            return ["%s = (int8_t)mp_requant_gemmlowp(%s, %s, %s + 1, zy%d, -128, 127);"
                    % (C, s, qm, qs, q)]
        if e == "rndnu":
            return ["%s = (int8_t)mp_requant_rndnu(%s, %s, %s, 0, -127, 127);" % (C, s, qm, qs)]
        if e == "clamp8_tern":
            return ["int32_t v%d = (%s + (1 << 7)) >> 8;" % (q, s),
                    "%s = (int8_t)(v%d < -128 ? -128 : (v%d > 127 ? 127 : v%d));" % (C, q, q, q)]
        if e == "clamp8_mp":
            return ["%s = (int8_t)mp_clamp_i32(%s >> %d, -128, 127);" % (C, s, ep["sh"])]
        if e == "cast8":
            return ["%s = (int8_t)%s;" % (C, s)]
        if e == "ifelse8":
            return ["int32_t v%d = %s / 97;" % (q, s), "if (v%d < 0)" % q, "\tv%d = 0;" % q,
                    "else if (v%d > 127)" % q, "\tv%d = 127;" % q, "%s = (int8_t)v%d;" % (C, q)]
        if e == "user":
            return ["%s = fz_user%d_%d(%s, um%d, ush%d);" % (C, self.f, q, s, q, q)]
        if e == "float8":
            return ["float f%d = (float)%s * %s;" % (q, s, sc),
                    "f%d = f%d < -128.0f ? -128.0f : f%d;" % (q, q, q),
                    "f%d = f%d > 127.0f ? 127.0f : f%d;" % (q, q, q),
                    "%s = (int8_t)nearbyintf(f%d);" % (C, q)]
        raise ValueError(e)

    def extras(self, q, mid):
        n = self.fn["nests"][q]
        s = self.accv(q)
        out = []
        for e in n["extras"]:
            k = e["kind"]
            if k == "count":
                out.append("lv_cnt%d += %s > 0;" % (q, s))
            elif k == "hash":
                out.append("lv_h%d = lv_h%d * 31u + (uint32_t)%s;" % (q, q, s))
            elif k == "glast":
                out.append("g_last%d_%d = %s;" % (self.f, q, s))
            elif k == "ptr":
                start = len(out)
                t = e["target"]
                if t == "K":
                    out.append("(*pK%d)++;" % q)
                    out.append("if (*pK%d > %d)" % (q, e["klim"]))
                    out.append("\t*pK%d = %d;" % (q, e["kbase"]))
                elif t in ("M", "N"):
                    out.append("if ((%s & 1) && *p%s%d > 0)" % (s, t, q))
                    out.append("\t*p%s%d -= 1;" % (t, q))
                elif t in ("za", "zb"):
                    out.append("*p%s%d = (%s)(%s & 7);" % (t, q, n[t]["ptype"], s))
                elif t.startswith("ld_"):
                    out.append("if (*p%s%d > 1)" % (t, q))
                    out.append("\t*p%s%d -= 1;" % (t, q))
                elif t == "base":
                    out.append("if (%s == 1)" % mid)
                    out.append("\t*ppA%d = Aalt%d;" % (q, q))
                elif t == "acc":
                    out.append("*pacc%d = *pacc%d / 2;" % (q, q))
                elif t in EPI_PARAM_PTRS:
                    st = EPI_PARAM_PTRS[t][1]
                    out.append(st % ((q, s) if t == "zy" else (q, q)))
                if e.get("via") == "global":
                    name, typ = self.ptr_name(q, e)
                    out[start:] = [x.replace("*" + name, "*(%s *)fz_slot[%d]" % (typ, q))
                                   for x in out[start:]]
        if n["near"] == "write_operand":
            out.append("%s = (%s)(%s >> 9);" % (self.a_expr(q, "0"), n["ta"], s))
        elif n["near"] == "sidecall":
            out.append("fz_side(%s);" % s)
        elif n["near"] == "break":
            out.append("if (%s > 30000)" % s)
            out.append("\tbreak;")
        elif n["near"] == "addr_iter":
            out.append("if (%s > 1000)" % s)
            out.append("\t(*pit%d)++;" % q)
        return out

    def ptr_name(self, q, e):
        """(the local pointer's name, the type it points to) of ptr extra e."""
        n = self.fn["nests"][q]
        t = e["target"]
        if t in ("K", "M", "N"):
            return "p%s%d" % (t, q), self.it
        if t in ("za", "zb"):
            return "p%s%d" % (t, q), n[t]["ptype"]
        if t.startswith("ld_"):
            return "p%s%d" % (t, q), self.it
        if t == "base":
            return "ppA%d" % q, "const %s *" % n["ta"]
        if t in EPI_PARAM_PTRS:
            return "p%s%d" % (t, q), EPI_PARAM_PTRS[t][0]
        return "pacc%d" % q, "int32_t"

    def k_loop(self, q, target):
        """The reduction loop (lines, not indented), updating target."""
        n = self.fn["nests"][q]
        if n["near"] == "continue_k":
            body = ["if (%s == -1)" % self.a_expr(q, "(k - 1)" if n["k1"] else "k"),
                    "\tcontinue;", self.update_stmt(q, target)]
        else:
            body = [self.update_stmt(q, target)]
        lines = self.block(q, "k", "", body)
        if n["near"] == "guard":
            lines = ["if (alias < 5)"] + ["\t" + x for x in lines]
        if n["near"] == "ptrwalk":
            # the row of A walked through a pointer (*p++): not affine
            lines = ["const %s *pw%d = &%s;" % (n["ta"], q, self.a_expr(q, "0"))] + lines
        if n.get("kcopy"):
            lines = ["%s kn%d = %s;" % (self.it, q, self.ext(q, "K"))] + lines
        return lines

    def rowptr_line(self, q):
        n = self.fn["nests"][q]
        const = "" if n["near"] == "write_operand" else "const "
        return "%s%s *arow%d = A%d + (size_t)%s * %s;" % (const, n["ta"], q, self.own(q),
                                                          self.lv(q, "i"), self.ldx(q, "a"))

    def nest_lines(self, q):
        n = self.fn["nests"][q]
        form = n["form"]
        o = n["order"]
        vec = n.get("vec")
        outer_pragma = n["pragma"] in ("outer", "both")
        mid_pragma = n["pragma"] in ("both", "middle")
        before_mid = any(e["kind"] == "before_mid" for e in n["extras"])
        L = []
        if n.get("kptr") and form != "perfect":
            around = o[:2] if form in ("scalar", "memory") else o[:1]
            live = ["%s > 0" % self.ext(q, {"i": "M", "j": "N"}[v])
                    for v in around if v != vec and v != "k"]
            L.append("%s kv%d = %s;" % (self.it, q, self.ext(q, "K")))
            L.append("const %s *kp%d = %s ? &kv%d : (const %s *)0;"
                     % (self.it, q, " && ".join(live) or "1", q, self.it))
        if form in ("scalar", "memory"):
            ov, mv = o[0], o[1]
            # the middle loop's body
            mb = []
            if n["alay"] == "rowptr" and mv == "i":
                mb.append(self.rowptr_line(q))
            if form == "scalar":
                init = self.init_value(q)
                if n.get("acc_outer"):
                    pass
                elif n["acc_top"]:
                    mb.append("s%d = %s;" % (q, init))
                else:
                    mb.append("%s s%d = %s;" % (self.acc_type(q), q, init))
                mb += self.k_loop(q, "s%d" % q)
            else:
                if n["init"] != "none":
                    mb.append("%s = %s;" % (self.c_expr(q), self.init_value(q)))
                mb += self.k_loop(q, self.c_expr(q))
            if n["skip"]:
                mb += ["if (%s %% 3 == 2)" % mv, "\tcontinue;"]
            mb += self.epilogue(q)
            mb += self.extras(q, self.lv(q, mv))
            # the outer loop's body
            ob = []
            if n["alay"] == "rowptr" and ov == "i":
                ob.append(self.rowptr_line(q))
            if before_mid:
                ob.append("lv_mid%d += (long long)%s;" % (q, mv))
            if n.get("acc_outer"):
                ob.append("%s s%d = %s;" % (self.acc_type(q), q, self.init_value(q)))
            if mid_pragma or (outer_pragma and vec == ov):
                ob += self.pragma_lines(q)
            tri = ov if n["near"] == "triangular" else None
            ob += self.block(q, mv, "", mb, tri=tri)
            if outer_pragma and vec != ov:
                L += self.pragma_lines(q)
            L += self.block(q, ov, "", ob)
        elif form == "split":
            ov, iv = o[0], o[2]
            ob = []
            if n["alay"] == "rowptr" and ov == "i":
                ob.append(self.rowptr_line(q))
            if before_mid:
                ob.append("lv_mid%d += (long long)k;" % q)
            if n["init"] != "none":
                ob += self.block(q, iv, "", ["%s = %s;" % (self.c_expr(q), self.init_value(q))])
            kl = []
            if n.get("kcopy"):
                ob.append("%s kn%d = %s;" % (self.it, q, self.ext(q, "K")))
            if mid_pragma or (outer_pragma and vec == ov):
                kl += self.pragma_lines(q)
            kl += self.block(q, "k", "", self.update_loop(q, iv, "k"))
            if n["near"] == "guard":
                ob += ["if (alias < 5) {"] + ["\t" + x if not x.startswith("#") else x
                                              for x in kl] + ["}"]
            else:
                ob += kl
            epi = self.epilogue(q)
            if epi:
                ob += self.block(q, iv, "", epi)
            if outer_pragma and vec != ov:
                L += self.pragma_lines(q)
            L += self.block(q, ov, "", ob)
        else:   # perfect
            ov, iv = o[1], o[2]
            inner = self.update_loop(q, iv, ov)
            mid = []
            if mid_pragma:
                mid += self.pragma_lines(q)
            mid += self.block(q, ov, "", inner)
            if n.get("kcopy"):
                L.append("%s kn%d = %s;" % (self.it, q, self.ext(q, "K")))
            if outer_pragma:
                L += self.pragma_lines(q)
            L += self.block(q, "k", "", mid)
        return L

    def zg_ok(self, q, iv, ev):
        """A zero-skip guard fits: iv's loop is a for, and the loop around
        it (ev) one that a continue may end (a while's increment is the
        last statement of its body)"""
        n = self.fn["nests"][q]
        wl = n.get("while", [])
        return (n.get("zg") and n.get("vec") is None and iv not in wl
                and n["near"] not in ("ptrwalk", "nonaffine")
                and (n["zg"] not in ("cont", "eqwrong") or ev not in wl))

    def update_loop(self, q, iv, ev):
        """The innermost loop (over iv) of a split or perfect nest, with
        its zero-skip guard if the nest has one: lines for the body of the
        loop around it."""
        n = self.fn["nests"][q]
        if not self.zg_ok(q, iv, ev):
            return self.block(q, iv, "", [self.update_stmt(q, self.c_expr(q))])
        t = "zt%d" % q
        up = self.update_stmt(q, self.c_expr(q), ("a" if iv == "j" else "b", t))
        if n["zg"] == "eqwrong":   # near miss: the loop runs where t is 0
            up = self.update_stmt(q, self.c_expr(q), ("a" if iv == "j" else "b", "(%s + 1)" % t))
        loop = self.block(q, iv, "", [up])
        L = ["int %s = %s;" % (t, self.held_text)]
        g = n["zg"]
        if g in ("cont", "eqwrong"):
            L += ["if (%s %s 0)" % (t, "==" if g == "cont" else "!="), "\tcontinue;"] + loop
        elif g == "else":
            L += ["if (!%s) {" % t, "} else {"] + ["\t" + x for x in loop] + ["}"]
        else:
            L += [{"ne": "if (%s != 0)", "truth": "if (%s)", "noteq": "if (!(%s == 0))"}[g] % t]
            L += ["\t" + x for x in loop]
        return L

    # ---- parameters: (declaration, argument in the driver)
    def params(self, q):
        n = self.fn["nests"][q]
        it = self.it
        P = []
        if n.get("share") is not None:
            return self.epi_params(q)
        for d in "MNK":
            if n["dims"][d] == "param":
                P.append(("%s %s%d" % (it, d, q), "%s%d" % (d, q)))
        for x in "abc":
            if n["ld"][x] == "param":
                P.append(("%s ld%s%d" % (it, x, q), "ld%s%d" % (x, q)))
        ca = "" if n["near"] == "write_operand" else "const "
        ta, tb, tc = n["ta"], n["tb"], self.tc(q)
        if n["alay"] in ("lin", "linP", "linT", "linR", "rowptr"):
            P.append(("%s%s *%sA%d" % (ca, ta, self.rq(), q), "A%d" % q))
        elif n["alay"] in ("vla", "vlaT"):
            P.append(("%s%s A%d[][%s]" % (ca, ta, q, self.ldx(q, "a")),
                      "(%s%s (*)[%s])A%d" % (ca, ta, self.ldx(q, "a"), q)))
        if n["blay"] in ("lin", "linP", "linT", "linR"):
            P.append(("const %s *%sB%d" % (tb, self.rq(), q), "B%d" % q))
        elif n["blay"] in ("vla", "vlaT"):
            P.append(("const %s B%d[][%s]" % (tb, q, self.ldx(q, "b")),
                      "(const %s (*)[%s])B%d" % (tb, self.ldx(q, "b"), q)))
        if n["clay"] in ("lin", "linP", "linT", "linR"):
            P.append(("%s *%sC%d" % (tc, self.rq(), q), "C%d" % q))
        elif n["clay"] == "vla":
            P.append(("%s C%d[][%s]" % (tc, q, self.ldx(q, "c")),
                      "(%s (*)[%s])C%d" % (tc, self.ldx(q, "c"), q)))
        if n["init"] in BIAS_INITS:
            P.append(("const int32_t *bias%d" % q, "bias%d" % q))
        for z in ("za", "zb"):
            if n[z] and n[z]["kind"] == "param":
                P.append(("%s %s%d" % (n[z]["ptype"], z, q), "%s%d" % (z, q)))
        if (n["za"] and n["za"]["kind"] in ("local", "mem")) or \
                (n["zb"] and n["zb"]["kind"] in ("local", "mem")):
            P.append(("const int32_t *zq%d" % q, "zq%d" % q))
        P += self.epi_params(q)
        if any(x["kind"] == "ptr" and x["target"] == "base" for x in n["extras"]):
            P.append(("const %s *Aalt%d" % (ta, q), "Aalt%d" % q))
        return P

    def epi_params(self, q):
        n = self.fn["nests"][q]
        P = []
        e = n["epi"]
        ep = n["ep"]
        if n["form"] == "scalar":
            if e in ("requant8", "requantu8", "float8"):
                if ep["scale"] == "param":
                    P.append(("float scale%d" % q, "scale%d" % q))
                elif ep["scale"] == "array":
                    P.append(("const float *scl%d" % q, "scl%d" % q))
            if e in ("requant8", "requantu8", "gemmlowp"):
                P.append(("int32_t zy%d" % q, "zy%d" % q))
            if e in ("gemmlowp", "rndnu"):
                if ep["qmode"] == "scalar":
                    P.append(("int32_t qm%d" % q, "qm%d" % q))
                    P.append(("int qs%d" % q, "qs%d" % q))
                else:
                    P.append(("const int32_t *qmv%d" % q, "qmv%d" % q))
                    P.append(("const int *qsv%d" % q, "qsv%d" % q))
            if e == "user":
                P.append(("int32_t um%d" % q, "um%d" % q))
                P.append(("int ush%d" % q, "ush%d" % q))
        return P

    def user_fn(self, q):
        n = self.fn["nests"][q]
        u = n["user"]
        name = "fz_user%d_%d" % (self.f, q)
        ret = u["ret"]
        lo, hi = ("-128", "127") if ret == "int8_t" else ("-100000", "100000")
        body = {
            "shift_sat": ["int64_t v = ((int64_t)x * m) >> sh;"],
            "round_sat": ["int64_t v = ((int64_t)x * m + ((int64_t)1 << (sh - 1))) >> sh;"],
            "linear": ["int64_t v = (int64_t)x / (sh + 1) + m % 7;"],
            "writes_global": ["fz_user_calls%d_%d++;" % (self.f, q),
                              "int64_t v = ((int64_t)x * m) >> sh;"],
        }[u["body"]]
        attr = u["attr"]
        if u["body"] == "writes_global":
            attr = attr.replace("__attribute__((const))", "").replace("const, ", "")
            attr = attr.replace("__attribute__(())", "").strip() or "static"
            self.top.append("static unsigned fz_user_calls%d_%d;" % (self.f, q))
        lines = ["%s %s %s(int32_t x, int32_t m, int sh)" % (attr, ret, name), "{"]
        lines += ["\t" + b for b in body]
        lines.append("\treturn (%s)(v < %s ? %s : v > %s ? %s : v);" % (ret, lo, lo, hi, hi))
        lines.append("}")
        return lines

    def emit(self):
        fn = self.fn
        f = self.f
        it = self.it
        nests = fn["nests"]
        calls = fn["calls"]
        # macros and globals
        for q, n in enumerate(nests):
            if n.get("share") is not None:
                if n["epi"] == "user":
                    self.top += self.user_fn(q)
                continue
            for d in "MNK":
                if n["dims"][d] == "const":
                    self.top.append("#define F%d_%s%d %d" % (f, d, q, calls[0]["nests"][q][d]))
            for x in "abc":
                if n["ld"][x] == "const" and n[x + "lay"] not in ("glob", "globT"):
                    v = self.ld_value(q, 0, x)
                    self.top.append("#define F%d_LD%s%d %d" % (f, x.upper(), q, v))
            for z in ("za", "zb"):
                if n[z] and n[z]["kind"] == "macro":
                    self.top.append("#define F%d_%s%d %s" % (f, z.upper(), q, lit(n[z]["val"])))
                if n[z] and n[z]["kind"] == "global":
                    self.top.append("int32_t g_%s%d_%d;" % (z, f, q))
            for x in "abc":
                lay = n[x + "lay"]
                t = {"a": n["ta"], "b": n["tb"], "c": self.tc(q)}[x]
                if lay in ("glob", "globT"):
                    rows, ld = self.glob_shape(q, x)
                    self.top.append("%s %s[%d][%d];" % (t, self.gname(q, x), rows, ld))
                elif lay == "gflat":
                    size = max(self.nelems(q, c, x) for c in range(len(calls)))
                    self.top.append("%s %s[%d];" % (t, self.gname(q, x), size))
            if any(e["kind"] == "glast" for e in n["extras"]):
                self.top.append("int32_t g_last%d_%d;" % (f, q))
            if n["epi"] == "user":
                self.top += self.user_fn(q)
        # the function
        P = []
        for q in range(len(nests)):
            P += self.params(q)
        P.append(("int alias", "alias"))
        P.append(("long long *live", "live"))
        attr = {"noinline": "__attribute__((noinline)) void",
                "static": "static void",
                "static_noinline": "static __attribute__((noinline)) void"}[fn["attr"]]
        body = []
        if fn["iter_top"]:
            body.append("%s i = %s, j = %s, k = %s;" % (
                it, "(%s)-1" % it, "(%s)-2" % it, "(%s)-3" % it))
        for q, n in enumerate(nests):
            if n["za"] and n["za"]["kind"] == "local" and n.get("share") is None:
                body.append("const int32_t za%d = zq%d[0];" % (q, q))
            if n["zb"] and n["zb"]["kind"] == "local" and n.get("share") is None:
                body.append("const int32_t zb%d = zq%d[1];" % (q, q))
            if n["acc_top"]:
                body.append("%s s%d = 12345;" % (self.acc_type(q), q))
            for e in n["extras"]:
                k = e["kind"]
                if k == "count":
                    body.append("long long lv_cnt%d = 0;" % q)
                elif k == "hash":
                    body.append("uint32_t lv_h%d = 2166136261u;" % q)
                elif k == "before_mid":
                    body.append("long long lv_mid%d = 0;" % q)
                elif k == "accptr":
                    body.append("%s *ps%d = &s%d;" % (self.acc_type(q), q, q))
                elif k == "ptr":
                    start = len(body)
                    t = e["target"]
                    if t in ("K", "M", "N"):
                        body.append("%s d%s%d = 0;" % (it, t, q))
                        body.append("%s *p%s%d = alias ? &%s%d : &d%s%d;" % (it, t, q, t, q, t, q))
                    elif t in ("za", "zb"):
                        pt = n[t]["ptype"]
                        tgt = ("g_%s%d_%d" % (t, f, q) if n[t]["kind"] == "global"
                               else "%s%d" % (t, q))
                        body.append("%s d%s%d = 0;" % (pt, t, q))
                        body.append("%s *p%s%d = alias ? &%s : &d%s%d;" % (pt, t, q, tgt, t, q))
                    elif t.startswith("ld_"):
                        x = t[3]
                        body.append("%s d%s%d = 0;" % (it, t, q))
                        body.append("%s *p%s%d = alias ? &ld%s%d : &d%s%d;" % (it, t, q, x, q, t, q))
                    elif t == "base":
                        body.append("const %s *dA%d = 0;" % (n["ta"], q))
                        body.append("const %s **ppA%d = alias ? &A%d : &dA%d;" % (n["ta"], q, q, q))
                    elif t in EPI_PARAM_PTRS:
                        ty = EPI_PARAM_PTRS[t][0]
                        body.append("%s d%s%d = 0;" % (ty, t, q))
                        body.append("%s *p%s%d = alias ? &%s%d : &d%s%d;" % (
                            ty, t, q, {"qs": "qs", "um": "um"}.get(t, t), q, t, q))
                    elif t == "acc":
                        body.append("int32_t dacc%d = 0;" % q)
                        body.append("int32_t *pacc%d = alias ? (int32_t *)&s%d : &dacc%d;"
                                    % (q, q, q))
                    if e.get("via") == "global":
                        # "T *pX = alias ? &X : &dX;" -> fz_keep(q, ...)
                        decl = body.pop()
                        rhs = decl.split(" = ", 1)[1].rstrip(";")
                        cond, a, b = re.match(r"alias \? (.*) : (.*)$", rhs).group(0, 1, 2)
                        a = re.sub(r"^\(int32_t \*\)", "", a)
                        body.append("fz_keep(%d, alias ? (void *)%s : (void *)%s);" % (q, a, b))
            if n["near"] == "addr_iter":
                body.append("%s *pit%d = &%s;" % (it, q, n["order"][1]))
        for q in range(len(nests)):
            body += self.nest_lines(q)
        slot = 0
        for q, n in enumerate(nests):
            for e in n["extras"]:
                k = e["kind"]
                name = {"count": "lv_cnt%d", "hash": "lv_h%d", "before_mid": "lv_mid%d"}.get(k)
                if name:
                    body.append("live[%d] = (long long)%s;" % (slot, name % q))
                    slot += 1
            if n["acc_top"]:
                body.append("live[%d] = (long long)s%d;" % (slot, q))
                slot += 1
        if fn["iter_top"] and fn.get("live_iters", True):
            for v in "ijk":
                body.append("live[%d] = (long long)%s;" % (slot, v))
                slot += 1
        nlive = max(1, slot)
        out = list(self.top)
        out.append("")
        out.append("%s fz_f%d(%s)" % (attr, f, ", ".join(p[0] for p in P)))
        out.append("{")
        out += ["\t" + b if not b.startswith("#") else b for b in body]
        out.append("}")
        out.append("")
        out += self.driver(P, nlive)
        return "\n".join(out) + "\n"

    # ---- the driver
    def driver(self, P, nlive):
        fn = self.fn
        f = self.f
        it = self.it
        D = ["static void run_f%d(void)" % f, "{"]
        for c, call in enumerate(fn["calls"]):
            D.append("\t{\t/* call %d */" % c)
            D.append(FORGET)
            frees = []
            hashes = []
            for q, n in enumerate(fn["nests"]):
                cn = call["nests"][q]
                tag = "f%d.c%d.n%d" % (f, c, q)
                if n.get("share") is not None:
                    D += self.epi_values(q, cn, frees)
                    continue
                for d in "MNK":
                    if n["dims"][d] == "param":
                        D.append("\t\t%s %s%d = %d;" % (it, d, q, cn[d]))
                for x in "abc":
                    if n["ld"][x] == "param":
                        D.append("\t\t%s ld%s%d = %d;" % (it, x, q, self.ld_value(q, c, x)))
                ta, tb, tc = n["ta"], n["tb"], self.tc(q)
                ptr_lay = PTR_LAYOUTS
                sizes = {x: self.nelems(q, c, x) for x in "abc"}
                tsz = {"a": 1, "b": 1, "c": 4 if tc == "int32_t" else 1}
                ov = cn["overlap"]
                if ov == "AB":
                    # both operands in one buffer, B at an offset into A
                    tot = max(sizes["a"], sizes["b"] + cn["ovd"]) + 64
                    D.append("\t\tunsigned char *ov%d = fz_alloc(%d);" % (q, tot))
                    D.append("\t\tfz_fill_u8(ov%d, %d, %d);" % (q, tot, cn["fill"]["A"]))
                    D.append("\t\t%s *A%d = (%s *)ov%d;" % (ta, q, ta, q))
                    D.append("\t\t%s *B%d = (%s *)(ov%d + %d);" % (tb, q, tb, q, cn["ovd"]))
                    frees.append("ov%d" % q)
                    if n["near"] == "write_operand":
                        hashes.append('fz_hash("%s.ov", ov%d, %d);' % (tag, q, tot))
                elif ov in ("Cbias", "Cqm"):
                    # the output over the bias / the multipliers of the epilogue
                    xb = self.nbias(q, cn) * 4 if ov == "Cbias" else max(cn["M"], cn["N"], 1) * 4
                    cb = sizes["c"] * tsz["c"]
                    offc = (xb + 64) // 4 * 4
                    offx = max(0, offc + cn["ovd"])
                    tot = max(offc + cb, offx + xb) + 64
                    D.append("\t\tunsigned char *ov%d = fz_alloc(%d);" % (q, tot))
                    D.append("\t\tfz_fill_u8(ov%d, %d, 0);" % (q, tot))
                    D.append("\t\t%s *C%d = (%s *)(ov%d + %d);" % (tc, q, tc, q, offc))
                    D.append("\t\tint32_t *%s%d = (int32_t *)(ov%d + %d);"
                             % ("bias" if ov == "Cbias" else "qmv", q, q, offx))
                    frees.append("ov%d" % q)
                    hashes.append('fz_hash("%s.ov", ov%d, %d);' % (tag, q, tot))
                elif ov:
                    # the output and one operand in one buffer, overlapping
                    x = "a" if ov == "CA" else "b"
                    xb = sizes[x]
                    cb = sizes["c"] * tsz["c"]
                    offc = (xb + 64) // 4 * 4
                    offx = max(0, offc + cn["ovd"])
                    tot = max(offc + cb, offx + xb) + 64
                    D.append("\t\tunsigned char *ov%d = fz_alloc(%d);" % (q, tot))
                    D.append("\t\tfz_fill_u8(ov%d, %d, 0);" % (q, tot))
                    D.append("\t\t%s *C%d = (%s *)(ov%d + %d);" % (tc, q, tc, q, offc))
                    t = ta if x == "a" else tb
                    D.append("\t\t%s *%s%d = (%s *)(ov%d + %d);" % (t, x.upper(), q, t, q, offx))
                    frees.append("ov%d" % q)
                    hashes.append('fz_hash("%s.ov", ov%d, %d);' % (tag, q, tot))
                for x, t in (("a", ta), ("b", tb)):
                    lay = n[x + "lay"]
                    X = x.upper()
                    mode = cn["fill"][X]
                    if n["bigk"] is not None:
                        va, vb = bigk_pair(ta, tb)
                        safe = INT32_MIN <= va * vb * cn["K"] <= INT32_MAX
                        mode = 2 if safe else 0
                    if lay in ptr_lay:
                        if not (ov == "AB" or (ov, x) in (("CA", "a"), ("CB", "b"))):
                            D.append("\t\t%s *%s%d = fz_alloc(%d);" % (t, X, q, sizes[x]))
                            D.append("\t\t%s(%s%s%d, %d, %d);" % (fill_fn(t), cast8(t), X, q,
                                                                 sizes[x], mode))
                            frees.append("%s%d" % (X, q))
                    else:
                        g = self.gname(q, x)
                        D.append("\t\t%s(%s%s, sizeof %s, %d);" % (fill_fn(t), cast8(t), g, g, mode))
                    if x == "a" and n["near"] == "write_operand":
                        if lay in ptr_lay:
                            if ov not in ("CA", "AB"):
                                hashes.append('fz_hash("%s.A", A%d, %d);' % (tag, q, sizes[x]))
                        else:
                            g = self.gname(q, x)
                            hashes.append('fz_hash("%s.A", %s, sizeof %s);' % (tag, g, g))
                lay = n["clay"]
                if n["bigk"] is not None:
                    crange = ("0", "0")
                else:
                    crange = {0: ("-(1 << 24)", "1 << 24"), 1: ("-1000", "1000"),
                              2: ("-(1 << 20)", "0")}[cn["cfill"]]
                if tc != "int32_t":
                    crange = ("-128", "127") if tc == "int8_t" else ("0", "255")
                if lay in PTR_LAYOUTS:
                    if ov not in ("CA", "CB", "Cbias", "Cqm"):
                        D.append("\t\t%s *C%d = fz_alloc(%d * sizeof(%s));" % (tc, q, sizes["c"], tc))
                        frees.append("C%d" % q)
                        hashes.append('fz_hash("%s.C", C%d, %d * sizeof(%s));'
                                      % (tag, q, sizes["c"], tc))
                    fill_target = "C%d" % q
                    fill_n = "%d" % sizes["c"]
                else:
                    g = self.gname(q, "c")
                    hashes.append('fz_hash("%s.C", %s, sizeof %s);' % (tag, g, g))
                    fill_target = "&%s[0][0]" % g
                    fill_n = "sizeof %s / sizeof(%s)" % (g, tc)
                if tc == "int32_t":
                    D.append("\t\tfz_fill_s32(%s, %s, %s, %s);" % (fill_target, fill_n, crange[0],
                                                                 crange[1]))
                else:
                    # int8 / uint8 outputs: random bytes
                    D.append("\t\tfz_fill_u8((uint8_t *)%s, %s, 0);" % (fill_target, fill_n))
                if n["init"] in BIAS_INITS:
                    nb = self.nbias(q, cn)
                    if ov != "Cbias":
                        D.append("\t\tint32_t *bias%d = fz_alloc(%d * sizeof(int32_t));" % (q, nb))
                        frees.append("bias%d" % q)
                    D.append("\t\tfz_fill_s32(bias%d, %d, -(1 << 22), 1 << 22);" % (q, nb))
                for z in ("za", "zb"):
                    if n[z] and n[z]["kind"] == "param":
                        D.append("\t\t%s %s%d = %s;" % (n[z]["ptype"], z, q, lit(cn[z])))
                    if n[z] and n[z]["kind"] == "global":
                        D.append("\t\tg_%s%d_%d = %s;" % (z, f, q, lit(cn[z])))
                        hashes.append('fz_live("%s.g_%s", g_%s%d_%d);' % (tag, z, z, f, q))
                if (n["za"] and n["za"]["kind"] in ("local", "mem")) or \
                        (n["zb"] and n["zb"]["kind"] in ("local", "mem")):
                    D.append("\t\tint32_t zq%d[2] = { %s, %s };" % (q, lit(cn["za"]), lit(cn["zb"])))
                D += self.epi_values(q, cn, frees)
                if any(x["kind"] == "ptr" and x["target"] == "base" for x in n["extras"]):
                    D.append("\t\t%s *Aalt%d = fz_alloc(%d);" % (ta, q, sizes["a"]))
                    D.append("\t\t%s(%sAalt%d, %d, 0);" % (fill_fn(ta), cast8(ta), q, sizes["a"]))
                    frees.append("Aalt%d" % q)
                if any(x["kind"] == "glast" for x in n["extras"]):
                    D.append("\t\tg_last%d_%d = -1;" % (f, q))
                    hashes.append('fz_live("%s.g_last", g_last%d_%d);' % (tag, f, q))
                if n["near"] == "sidecall":
                    hashes.append('fz_live("%s.side", fz_side_sink);' % tag)
                if n["epi"] == "user" and n["user"]["body"] == "writes_global":
                    hashes.append('fz_live("%s.user_calls", fz_user_calls%d_%d);' % (tag, f, q))
            D.append("\t\tint alias = %d;" % call["alias"])
            D.append("\t\tlong long live[%d];" % nlive)
            D.append("\t\tmemset(live, 0, sizeof live);")
            D.append("\t\tfz_f%d(%s);" % (f, ", ".join(p[1] for p in P)))
            D += ["\t\t" + h for h in hashes]
            D.append("\t\tfor (int x = 0; x < %d; x++) {" % nlive)
            D.append("\t\t\tchar name[64];")
            D.append('\t\t\tsnprintf(name, sizeof name, "f%d.c%d.live%%d", x);' % (f, c))
            D.append("\t\t\tfz_live(name, live[x]);")
            D.append("\t\t}")
            D += ["\t\tfree(%s);" % x for x in frees]
            D.append("\t}")
        D.append("}")
        D.append("")
        return D

    def nbias(self, q, cn):
        """Elements of the bias array of nest q in a call."""
        init = self.fn["nests"][q]["init"]
        m, nn = max(cn["M"], 1), max(cn["N"], 1)
        return {"bias_j2": 2 * max(m, nn), "bias2d": m * nn}.get(init, max(m, nn))

    def epi_values(self, q, cn, frees):
        """Driver lines setting the epilogue's arguments of nest q."""
        n = self.fn["nests"][q]
        D = []
        ep = cn["ep"]
        e = n["epi"]
        if n["form"] == "scalar":
            nep = max(cn["M"], cn["N"], 1)
            if e in ("requant8", "requantu8", "float8"):
                if n["ep"]["scale"] == "param":
                    D.append("\t\tfloat scale%d = %rf;" % (q, ep["scale"]))
                elif n["ep"]["scale"] == "array":
                    D.append("\t\tfloat *scl%d = fz_alloc(%d * sizeof(float));" % (q, nep))
                    D.append("\t\tfz_fill_f32(scl%d, %d, 1e-5f, 2e-3f);" % (q, nep))
                    frees.append("scl%d" % q)
            if e in ("requant8", "requantu8", "gemmlowp"):
                zy = ep["zy"]
                if e != "requantu8":
                    zy = max(-10, min(10, zy))
                else:
                    zy = max(0, min(255, zy))
                D.append("\t\tint32_t zy%d = %d;" % (q, zy))
            if e in ("gemmlowp", "rndnu"):
                if n["ep"]["qmode"] == "scalar":
                    D.append("\t\tint32_t qm%d = %s;" % (q, lit(ep["qm"])))
                    D.append("\t\tint qs%d = %d;" % (q, ep["qsh"]))
                else:
                    if cn.get("overlap") != "Cqm":
                        D.append("\t\tint32_t *qmv%d = fz_alloc(%d * sizeof(int32_t));"
                                 % (q, nep))
                        frees.append("qmv%d" % q)
                    D.append("\t\tfz_fill_s32(qmv%d, %d, 1 << 30, INT32_MAX);" % (q, nep))
                    D.append("\t\tint *qsv%d = fz_alloc(%d * sizeof(int));" % (q, nep))
                    D.append("\t\tfz_fill_s32(qsv%d, %d, -12, 0);" % (q, nep))
                    frees.append("qsv%d" % q)
            if e == "user":
                D.append("\t\tint32_t um%d = %d;" % (q, ep["um"]))
                D.append("\t\tint ush%d = %d;" % (q, ep["ush"]))
        return D


def emit(prog):
    """prog (make_program's dict) -> (C source, meta)."""
    parts = [C_PRELUDE % {"seed": prog["seed"]}]
    pragmas = 0
    for fn in prog["funcs"]:
        if fn.get("kind") == "float":
            parts.append(f_emit(fn))
            pragmas += 1
            continue
        if fn.get("kind") == "xform":
            parts.append(x_emit(fn))
            pragmas += 1
            continue
        fe = FuncEmitter(fn)
        parts.append(fe.emit())
        pragmas += fe.pragmas
    parts.append("int main(void)\n{\n\tsetvbuf(stdout, NULL, _IOLBF, 0);")
    for fn in prog["funcs"]:
        parts.append("\trun_f%d();" % fn["id"])
    parts.append('\tfz_live("side_sink", fz_side_sink);\n\treturn 0;\n}\n')
    meta = {"seed": prog["seed"], "functions": len(prog["funcs"]),
            "nests": sum(len(fn.get("nests", [None])) for fn in prog["funcs"]),
            "pragmas": pragmas,
            "openmp": any(fn.get("kind") == "xform" and x_is_omp(fn) for fn in prog["funcs"])}
    return "\n".join(parts), meta


# ------------------------------------------------------------ reduction

SIMPLE = {
    "near": None, "skip": False, "k1": False, "acc_top": False, "acc_type": "int32_t",
    "pragma": "outer", "ptext": 0, "lpragma": None, "update": "pluseq", "za": None, "zb": None,
    "prec": None, "acc_outer": False, "kcopy": False, "ksel": False, "kptr": False,
    "iscale": None, "zg": None, "bscale": None,
}


SV_SIMPLE = (("near", "none"), ("loops", "for"), ("stride", "const"), ("init", "zero"),
             ("style", "pluseq"), ("aptr", False), ("alpha", False), ("decl", "top"),
             ("oinit", "assign"), ("itdecl", False), ("late", False), ("cx", 1), ("cy", 1),
             ("it", "int"))


def simplify(prog):
    """Candidate simplifications of prog, simplest-first: (what, new prog).
    Every candidate is a valid program (program_problems is empty)."""
    out = []

    here = json.dumps(prog, sort_keys=True)
    seen = set()

    def add(what, p):
        for fn in p["funcs"]:
            if fn.get("kind") not in ("float", "xform"):
                normalize(fn)
        key = json.dumps(p, sort_keys=True)
        if key != here and key not in seen and not program_problems(p):
            seen.add(key)
            out.append((what, p))

    funcs = prog["funcs"]
    # whole functions
    if len(funcs) > 1:
        half = len(funcs) // 2
        for lo, hi in ((0, half), (half, len(funcs))):
            p = copy.deepcopy(prog)
            p["funcs"] = funcs[:lo] + funcs[hi:]
            if p["funcs"]:
                add("drop functions %d..%d" % (lo, hi - 1), p)
        for i in range(len(funcs)):
            p = copy.deepcopy(prog)
            del p["funcs"][i]
            add("drop function %d" % funcs[i]["id"], p)
    for fi, fn in enumerate(funcs):
        if fn.get("kind") == "xform":
            if len(fn["calls"]) > 1:
                for ci in range(len(fn["calls"])):
                    p = copy.deepcopy(prog)
                    del p["funcs"][fi]["calls"][ci]
                    add("f%d: drop call %d" % (fn["id"], ci), p)
            for key, val in (("za", False), ("init", "zero"), ("ptext", 0), ("btr", False),
                             ("bcopy", False), ("bshared", True), ("ta", "int8_t"),
                             ("tb", "int8_t"), ("rdecl", "none"), ("rarr", False),
                             ("anarrow", "none")):
                if fn["xf"].get(key, val) != val:
                    p = copy.deepcopy(prog)
                    p["funcs"][fi]["xf"][key] = val
                    add("f%d: %s=%s" % (fn["id"], key, val), p)
            if fn["xf"]["form"] == "stepiv":   # every near miss, loop, stride form back to the plainest
                for key, val in SV_SIMPLE:
                    if fn["xf"]["sv"].get(key, val) != val:
                        p = copy.deepcopy(prog)
                        p["funcs"][fi]["xf"]["sv"][key] = val
                        add("f%d: sv %s=%s" % (fn["id"], key, val), p)
                for ci, c in enumerate(fn["calls"]):
                    for key, val in (("sx", 1), ("sy", 1), ("ldpad", 0), ("alpha", 1)):
                        if c.get(key, val) != val:
                            p = copy.deepcopy(prog)
                            p["funcs"][fi]["calls"][ci][key] = val
                            add("f%d c%d: %s=%d" % (fn["id"], ci, key, val), p)
            reg = fn["xf"]["region"]
            if fn["xf"]["form"] == "region" and len(reg) > 1:
                for i in range(len(reg)):
                    p = copy.deepcopy(prog)
                    del p["funcs"][fi]["xf"]["region"][i]
                    add("f%d: drop region part %d" % (fn["id"], i), p)
            for ci, c in enumerate(fn["calls"]):
                for key in ("fa", "fb"):
                    if c[key]:
                        p = copy.deepcopy(prog)
                        p["funcs"][fi]["calls"][ci][key] = 0
                        add("f%d c%d: %s=0" % (fn["id"], ci, key), p)
                for d in ("M", "N", "K", "B", "T"):
                    for nv in sorted({1, c[d] // 2, c[d] - 1}):
                        if 0 < nv < c[d]:
                            p = copy.deepcopy(prog)
                            p["funcs"][fi]["calls"][ci][d] = nv
                            add("f%d c%d: %s=%d" % (fn["id"], ci, d, nv), p)
            continue
        if fn.get("kind") == "float":
            if len(fn["calls"]) > 1:
                for ci in range(len(fn["calls"])):
                    p = copy.deepcopy(prog)
                    del p["funcs"][fi]["calls"][ci]
                    add("f%d: drop call %d" % (fn["id"], ci), p)
            for key, val in (("clause", ""), ("zp", False), ("alpha", False), ("epi", "store"),
                             ("init", "zero"), ("alay", "lin"), ("blay", "lin"),
                             ("form", "scalar"), ("t", "float")):
                if fn["fl"][key] != val:
                    p = copy.deepcopy(prog)
                    p["funcs"][fi]["fl"][key] = val
                    add("f%d: %s=%s" % (fn["id"], key, val), p)
            if fn["fl"]["form"] == "conv":
                for key, val in (("P", 0), ("cguard", "cont"), ("S", 1), ("D", 1), ("KH", 1),
                                 ("KW", 1), ("wlay", "ohwi")):
                    if fn["fl"][key] != val:
                        p = copy.deepcopy(prog)
                        p["funcs"][fi]["fl"][key] = val
                        add("f%d: %s=%s" % (fn["id"], key, val), p)
            for ci, c in enumerate(fn["calls"]):
                for d in ("MNKT" if fn["fl"]["form"] == "conv" else "MNK"):
                    for nv in sorted({1, c[d] // 2, c[d] - 1}):
                        if 0 < nv < c[d]:
                            p = copy.deepcopy(prog)
                            p["funcs"][fi]["calls"][ci][d] = nv
                            add("f%d c%d: %s=%d" % (fn["id"], ci, d, nv), p)
            continue
        # calls
        if len(fn["calls"]) > 1:
            for ci in range(len(fn["calls"])):
                p = copy.deepcopy(prog)
                del p["funcs"][fi]["calls"][ci]
                add("f%d: drop call %d" % (fn["id"], ci), p)
        # sibling nests
        if len(fn["nests"]) > 1:
            for q in range(len(fn["nests"])):
                p = copy.deepcopy(prog)
                g = p["funcs"][fi]
                del g["nests"][q]
                for c in g["calls"]:
                    del c["nests"][q]
                for m in g["nests"]:
                    if m.get("share") is not None:
                        m["share"] = None if m["share"] == q else (
                            m["share"] - 1 if m["share"] > q else m["share"])
                add("f%d: drop nest %d" % (fn["id"], q), p)
        # function-level features
        for key, val in (("attr", "noinline"), ("restrict", False), ("live_iters", False),
                         ("iter_top", False),
                         ("itype", "int")):
            if fn.get(key, True) != val:
                p = copy.deepcopy(prog)
                p["funcs"][fi][key] = val
                add("f%d: %s=%s" % (fn["id"], key, val), p)
        for ci, c in enumerate(fn["calls"]):
            if c["alias"]:
                p = copy.deepcopy(prog)
                p["funcs"][fi]["calls"][ci]["alias"] = 0
                add("f%d c%d: alias=0" % (fn["id"], ci), p)
        for q, n in enumerate(fn["nests"]):
            tag = "f%d n%d" % (fn["id"], q)

            def nest_variant(what, change):
                p = copy.deepcopy(prog)
                change(p["funcs"][fi]["nests"][q], p["funcs"][fi])
                add(tag + ": " + what, p)

            for key, val in SIMPLE.items():
                if key == "prec":
                    val = "int8" if is_signed(n["ta"]) else "uint8"
                if n.get(key, val) != val:
                    nest_variant("%s=%s" % (key, val),
                                 lambda m, g, key=key, val=val: m.__setitem__(key, val))
            for i, e in enumerate(n["extras"]):
                nest_variant("drop extra %s" % e["kind"],
                             lambda m, g, i=i: m["extras"].pop(i))
            if n["form"] == "scalar":
                if n["epi"] != "store":
                    nest_variant("epi=store", lambda m, g: m.__setitem__("epi", "store"))
                if n["init"] != "zero":
                    nest_variant("init=zero", lambda m, g: m.__setitem__("init", "zero"))
            elif n["form"] == "memory":
                nest_variant("form=scalar", lambda m, g: m.update(form="scalar", epi="store",
                                                                 init="zero"))
            if n["form"] in ("memory", "split"):
                if n["epi"] != "none":
                    nest_variant("epi=none", lambda m, g: m.__setitem__("epi", "none"))
                if n["init"] != "none":
                    nest_variant("init=none", lambda m, g: m.__setitem__("init", "none"))
            if n["order"] != "ijk":
                nest_variant("order=ijk", lambda m, g: m.update(
                    order="ijk", form="scalar", epi="store", init="zero"))
            for d in "MNK":
                if n["dims"][d] != "param":
                    nest_variant("%s param" % d, lambda m, g, d=d: m["dims"].__setitem__(d, "param"))
            for x in "abc":
                lay = n[x + "lay"]
                if lay != "lin":
                    nest_variant("%slay=lin" % x, lambda m, g, x=x: (
                        m.__setitem__(x + "lay", "lin"), m["ld"].__setitem__(x, "dim"),
                        m["pad"].__setitem__(x, 0)))
                elif n["ld"][x] != "dim":
                    nest_variant("ld%s=dim" % x, lambda m, g, x=x: (
                        m["ld"].__setitem__(x, "dim"), m["pad"].__setitem__(x, 0)))
            for x in ("ta", "tb"):
                if n[x] != "int8_t":
                    nest_variant("%s=int8_t" % x, lambda m, g, x=x: m.__setitem__(x, "int8_t"))
            for v in "ijk":
                if n["exit"][v] != "<":
                    nest_variant("exit %s <" % v, lambda m, g, v=v: m["exit"].__setitem__(v, "<"))
                if n["inc"][v] != "++":
                    nest_variant("inc %s ++" % v, lambda m, g, v=v: m["inc"].__setitem__(v, "++"))
            if n["bigk"] is not None:
                nest_variant("no bigk", lambda m, g: m.__setitem__("bigk", None))
            # shapes and call values
            for ci, c in enumerate(fn["calls"]):
                cn = c["nests"][q]
                if cn["overlap"]:
                    p = copy.deepcopy(prog)
                    p["funcs"][fi]["calls"][ci]["nests"][q]["overlap"] = None
                    add(tag + " c%d: no overlap" % ci, p)
                for key in ("fill", ):
                    for X in "AB":
                        if cn[key][X] != 0 and n["bigk"] is None:
                            p = copy.deepcopy(prog)
                            p["funcs"][fi]["calls"][ci]["nests"][q][key][X] = 0
                            add(tag + " c%d: fill %s random" % (ci, X), p)
                if n["bigk"] is None:
                    for d in "MNK":
                        v = cn[d]
                        for nv in sorted({1, v // 2, v - 1}):
                            if 0 < nv < v:
                                p = copy.deepcopy(prog)
                                for cc in (p["funcs"][fi]["calls"] if n["dims"][d] == "const"
                                           else [p["funcs"][fi]["calls"][ci]]):
                                    cc["nests"][q][d] = nv
                                add(tag + " c%d: %s=%d" % (ci, d, nv), p)
    return out


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", nargs="?", type=int)
    ap.add_argument("-o", "--output", help="C file to write (default stdout)")
    ap.add_argument("--config-out", help="write the program's description (JSON) here")
    ap.add_argument("--from-config", help="emit the program described by this JSON file")
    ap.add_argument("--meta", action="store_true", help="print the meta data on stderr")
    args = ap.parse_args()
    if args.from_config:
        with open(args.from_config) as f:
            prog = json.load(f)
    elif args.seed is not None:
        prog = make_program(args.seed)
    else:
        ap.error("a seed or --from-config is required")
    bad = program_problems(prog)
    if bad:
        sys.exit("gen.py: invalid program description: %s" % ", ".join(sorted(set(bad))))
    src, meta = emit(prog)
    if args.output:
        with open(args.output, "w") as f:
            f.write(src)
    else:
        sys.stdout.write(src)
    if args.config_out:
        with open(args.config_out, "w") as f:
            json.dump(prog, f, indent=1, sort_keys=True)
    if args.meta:
        sys.stderr.write(json.dumps(meta) + "\n")


if __name__ == "__main__":
    main()
