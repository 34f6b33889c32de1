#!/usr/bin/env python3
"""gen.py -- large C files for the compile-time test of the mixprec plugins
(issue 14 item 4; driven by tests/compile_time/run.py).

Each file is plain C11 that GCC and clang compile without the plugin, with
annotated integer nests in the forms the README lists (fused requantization,
direct C += A*B, tile mode with an epilogue of the user's own, matrix-vector
through walking pointers, 2-D VLA operands) and near misses of them:

  deep8     40 nests 8 loops deep: four batch loops with constant extents
            around i, j and two reduction loops (k0, k1), affine constant
            and parametric subscripts, a 7-deep reduction into memory;
  body500   3 nests whose bodies hold 500 statements: an epilogue of 500
            chained assignments, 500 stores per output point, 500
            statements inside the reduction loop (more than the core's
            tables hold: each such nest is refused, with its reason);
  nests300  300 annotated nests in one file (30 functions of 10 nests);
  onefn300  300 annotated nests in one function;
  heavy     the nest that costs the analysis the most ISL operations found
            so far (tests/compile_time/budget.py: the ISL budget).

  gen.py KIND [--scale S] > FILE      (S multiplies the number of nests)
  gen.py --list

Every nest is preceded by '#pragma mixprec(int8, acc=int32)'; the first line
of each file is '// PRAGMAS: <n>' (their number).  Python 3 standard
library only.
"""

import argparse
import random
import sys

HEADER = """#include <stdint.h>
#include <mixprec.h>

"""


# ------------------------------------------------------------ nest forms

def nest_fused(v):
    return """#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j] + %(c)d;
			for (int k = 0; k < K; k++)
				s += (x[i * K + k] - zx) * w[j * K + k];
			y[i * N + j] = (int8_t)mp_requant_fp32(s, scale, zy, -128, 127);
		}
""" % {"c": v}


def nest_direct(v):
    return """#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				c[i * N + j] += x[i * K + k] * w[k * N + j];
"""


def nest_tile(v):
    return """#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
			s = s * %(a)d + zy;
			s = s > %(hi)d ? %(hi)d : s < -%(hi)d ? -%(hi)d : s;
			c[i * N + j] = s >> 2;
		}
""" % {"a": 1 + v % 5, "hi": 1000 + v}


def nest_matvec(v):
    return """#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		const int8_t *xp = x;
		const int8_t *wp = w + i * K;
		int32_t s = %(c)d;
		for (int k = 0; k < K; k++)
			s += *xp++ * *wp++;
		c[i] = s;
	}
""" % {"c": v}


def nest_ikj(v):
    return """#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++)
			c[i * N + j] = %(c)d;
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				c[i * N + j] += x[i * K + k] * w[k * N + j];
	}
""" % {"c": v}


def nest_near_miss(v):
    # a triangular bound: refused (the analysis still runs)
    return """#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j <= i && j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
			c[i * N + j] = s + %(c)d;
		}
""" % {"c": v}


FORMS = [nest_fused, nest_direct, nest_tile, nest_matvec, nest_ikj, nest_near_miss]

PARAMS = ("int M, int N, int K, const int8_t *restrict x, const int8_t *restrict w, "
          "const int32_t *restrict bias, int32_t *restrict c, int8_t *restrict y, "
          "float scale, int zx, int zy")


def func(name, nests):
    body = "".join(nests)
    return "void %s(%s)\n{\n%s}\n\n" % (name, PARAMS, body)


# --------------------------------------------------------------- files

def gen_nests300(scale):
    out, n = [], 0
    for f in range(30 * scale):
        nests = []
        for q in range(10):
            nests.append(FORMS[n % len(FORMS)](n))
            n += 1
        out.append(func("f%d" % f, nests))
    return n, "".join(out)


def gen_onefn300(scale):
    nests = [FORMS[n % len(FORMS)](n) for n in range(300 * scale)]
    return len(nests), func("all_nests", nests)


def deep8_const(v):
    # constant extents: every subscript affine with constant coefficients
    return """#pragma mixprec(int8, acc=int32)
	for (int b0 = 0; b0 < 2; b0++)
	for (int b1 = 0; b1 < 3; b1++)
	for (int b2 = 0; b2 < 2; b2++)
	for (int b3 = 0; b3 < 3; b3++)
	for (int i = 0; i < 16; i++)
	for (int j = 0; j < 8; j++) {
		int32_t s = %(c)d;
		for (int k0 = 0; k0 < 4; k0++)
			for (int k1 = 0; k1 < 8; k1++)
				s += x[((((b0 * 3 + b1) * 2 + b2) * 3 + b3) * 16 + i) * 32 + k0 * 8 + k1]
				     * w[(j * 4 + k0) * 8 + k1];
		c[((((b0 * 3 + b1) * 2 + b2) * 3 + b3) * 16 + i) * 8 + j] = s;
	}
""" % {"c": v}


def deep8_param(v):
    # run-time extents: linearised subscripts over the batch loops
    return """#pragma mixprec(int8, acc=int32)
	for (int b0 = 0; b0 < 2; b0++)
	for (int b1 = 0; b1 < 2; b1++)
	for (int b2 = 0; b2 < 2; b2++)
	for (int b3 = 0; b3 < 2; b3++)
	for (int i = 0; i < M; i++)
	for (int j = 0; j < N; j++) {
		int32_t s = 0;
		for (int k0 = 0; k0 < K; k0++)
			for (int k1 = 0; k1 < 4; k1++)
				s += x[(b0 * 8 + b1 * 4 + b2 * 2 + b3) * 1024 + i * K * 4 + k0 * 4 + k1]
				     * w[j * K * 4 + k0 * 4 + k1];
		c[(b0 * 8 + b1 * 4 + b2 * 2 + b3) * 4096 + i * N + j] = s + %(c)d;
	}
""" % {"c": v}


def deep8_mem(v):
    # accumulation into memory, seven loops around the update
    return """#pragma mixprec(int8, acc=int32)
	for (int b0 = 0; b0 < 2; b0++)
	for (int b1 = 0; b1 < 2; b1++)
	for (int b2 = 0; b2 < 2; b2++)
	for (int b3 = 0; b3 < 2; b3++)
	for (int i = 0; i < M; i++)
	for (int j = 0; j < N; j++)
	for (int k = 0; k < K; k++)
		c[(b0 * 8 + b1 * 4 + b2 * 2 + b3) * 4096 + i * N + j] +=
			x[(b0 * 8 + b1 * 4 + b2 * 2 + b3) * 4096 + i * K + k] * w[k * N + j + %(c)d];
""" % {"c": v}


def deep8_plain(v):
    # an ordinary ijk contraction under five outer loops that only repeat it
    return """#pragma mixprec(int8, acc=int32)
	for (int r0 = 0; r0 < 2; r0++)
	for (int r1 = 0; r1 < 2; r1++)
	for (int r2 = 0; r2 < 2; r2++)
	for (int r3 = 0; r3 < 2; r3++)
	for (int r4 = 0; r4 < 2; r4++)
	for (int i = 0; i < M; i++)
	for (int j = 0; j < N; j++) {
		int32_t s = %(c)d;
		for (int k = 0; k < K; k++)
			s += x[i * K + k] * w[j * K + k];
		c[i * N + j] = s;
	}
""" % {"c": v}


DEEP = [deep8_const, deep8_param, deep8_mem, deep8_plain]


def gen_deep8(scale):
    out, n = [], 0
    for f in range(10 * scale):
        nests = []
        for q in range(4):
            nests.append(DEEP[n % len(DEEP)](n))
            n += 1
        out.append(func("deep%d" % f, nests))
    return n, "".join(out)


def body_epilogue(v, count=500):
    lines = ["\t\t\tint32_t t0 = s;\n"]
    for q in range(1, count):
        lines.append("\t\t\tint32_t t%d = t%d * %d + (t%d >> %d);\n"
                     % (q, q - 1, 3 + q % 7, q - 1, 1 + q % 5))
    return ("""#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = %d;
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
""" % v + "".join(lines) + "\t\t\tc[i * N + j] = t%d;\n\t\t}\n" % (count - 1))


def body_stores(v, count=500):
    lines = ["\t\t\tc[(i * N + j) * %d + %d] = s + %d;\n" % (count, q, q * v)
             for q in range(count)]
    return ("""#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
""" + "".join(lines) + "\t\t}\n")


def body_reduction(v, count=500):
    lines = []
    for q in range(count - 1):
        lines.append("\t\t\t\tu%d = u%d ^ (x[i * K + k] + %d);\n" % ((q + 1) % 8, q % 8, q))
    return ("""#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0, u0 = 0, u1 = 1, u2 = 2, u3 = 3, u4 = 4, u5 = 5, u6 = 6, u7 = %d;
			for (int k = 0; k < K; k++) {
				s += x[i * K + k] * w[j * K + k];
""" % v + "".join(lines) + """			}
			c[i * N + j] = s + u0 + u1 + u2 + u3 + u4 + u5 + u6 + u7;
		}
""")


def gen_body500(scale):
    out, n = [], 0
    kinds = [body_epilogue, body_stores, body_reduction]
    for f in range(scale):
        nests = []
        for kind in kinds:
            nests.append(kind(n))
            n += 1
        out.append(func("body%d" % f, nests))
    return n, "".join(out)


def heavy_nest(v, stores=90, depth=6):
    """The most ISL work per nest found within the core's tables (about
    2 * 10^5 operations, issue 14 item 4): 90 stores into the operand x, in
    a 6-deep loop nest of the epilogue, at odd addresses with large
    coefficients while the contraction reads x at even ones; the core proves
    each store disjoint from the operand's footprint."""
    r = random.Random(v)
    names = "abdeghlo"[:depth]
    loops = "".join("\t\t\t" + "\t" * d + "for (int %s = 0; %s < %d; %s++)%s\n"
                    % (nm, nm, r.randrange(3, 30), nm, " {" if d == depth - 1 else "")
                    for d, nm in enumerate(names))
    lines = []
    for q in range(stores):
        terms = " + ".join("%s * %d" % (nm, 2 * r.randrange(1000, 90000))
                           for nm in ("i", "j") + tuple(names))
        lines.append("\t\t\t" + "\t" * depth + "x[%s + %d] = (int8_t)(s + %d);\n"
                     % (terms, 2 * r.randrange(50) + 1, q))
    return ("""#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < 64; k++)
				s += xr[2 * (i * 64 + k)] * w[j * 64 + k];
			c[i * N + j] = s;
""" + loops + "".join(lines) + "\t\t\t" + "\t" * (depth - 1) + "}\n\t\t}\n")


def gen_heavy(scale):
    nests = [heavy_nest(n) for n in range(scale)]
    params = ("int M, int N, int8_t *x, const int8_t *w, int32_t *restrict c")
    body = "".join(nests).replace("xr[", "x[")
    return len(nests), "void heavy(%s)\n{\n%s}\n\n" % (params, body)


KINDS = {"deep8": gen_deep8, "heavy": gen_heavy, "body500": gen_body500, "nests300": gen_nests300,
         "onefn300": gen_onefn300}


def generate(kind, scale=1):
    """-> (number of pragmas, C source)."""
    n, body = KINDS[kind](scale)
    return n, "// PRAGMAS: %d\n/* generated by tests/compile_time/gen.py %s */\n%s%s" % (
        n, kind, HEADER, body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", nargs="?", choices=sorted(KINDS))
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list or not args.kind:
        print("\n".join(sorted(KINDS)))
        return 0
    sys.stdout.write(generate(args.kind, args.scale)[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
