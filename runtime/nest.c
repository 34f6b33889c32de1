/* nest.c -- the entry points of plugin-generated code.
 *
 * For every transformed nest the plugin emits, on the nest's entry edge,
 *
 *   tile = __mixprec_i8_nest(MP_NEST_ABI, nargs,
 *            mode,                        0: TILE, 1: DIRECT, 2: FUSED
 *            target,                      the pragma's target= (0 auto, 1 scalar,
 *                                         2 avx2, 3 avx512vnni, 4 dotprod, 5 i8mm)
 *            M, N, K,                     extents of loops i, j, k (>= 0)
 *            a, a_si, a_sk, a_dt, za,     A(i,k) = a[i*a_si + k*a_sk]  (8-bit, bytes)
 *            b, b_sk, b_sj, b_dt, zb,     B(k,j) = b[k*b_sk + j*b_sj]
 *            c, c_si, c_sj,               DIRECT: C(i,j) at c + i*c_si + j*c_sj
 *                                         (BYTES, int32 elements); FUSED: the
 *                                         output out(i,j); TILE: NULL, 0, 0
 *            epi, out_dt, init,           FUSED: mp_epi kind, MP_DT_* of out,
 *            bias, bias_si, bias_sj,      constant and bias(i,j) (int32, BYTES)
 *            scale_bits, qm, shift,       the helper's arguments (the float
 *            zp, qmin, qmax,              scale as its 32 bits); else zeros
 *            loc,                         pointer: "FILE:LINE" or NULL
 *            alpha,                       integer factor of every product
 *                                         (alpha*a*b; 1 without): TILE only,
 *                                         T = alpha*sum mod 2^32, as the
 *                                         source's int32 arithmetic wraps
 *            cflags,                      the pragma's constant=: 1 A, 2 B;
 *                                         bits 8-15 / 16-23: overlap checks
 *                                         (0-7) not compared with B's / A's
 *                                         read range (an operand the nest
 *                                         writes after reading it: TRMM in
 *                                         place, mp_plan.check_skip)
 *                                         (MP_X8_CONST_A / _B of mp_gemm.h):
 *                                         that operand, when the kernels
 *                                         pack it, is packed once and kept
 *                                         (mp_gemm_x8_const)
 *            G, a_sg, b_sg,               groups (TILE only; 1, 0, 0 without):
 *                                         a second reduction loop around k
 *                                         (G < 0: its step, a variable, is
 *                                         not positive: the loop runs),
 *                                         one sum per group g < G, A and B
 *                                         advancing a_sg / b_sg bytes per
 *                                         group; T[(i*G + g)*N + j]
 *            L, {n, a_s, b_s} x L,        summed reduction loops around k
 *                                         (0 <= L <= 2, outermost first; not
 *                                         with groups): the sum runs over k
 *                                         and each such loop's n iterations,
 *                                         A and B advancing a_s / b_s bytes
 *                                         per iteration (stage.c)
 *            M2, a_s2, c_s2, bias_s2,     a second row loop outside i (DIRECT,
 *                                         FUSED, TILE: its rows (i2, i), c_s2
 *                                         0; -1, 0, 0, 0 without): M2
 *                                         blocks of M rows, A, the output and
 *                                         the bias advancing a_s2 / c_s2 /
 *                                         bias_s2 bytes per block; the output
 *                                         elements must then be disjoint by
 *                                         their strides (disjoint_rows)
 *            P, pv_kind, pv,              padding (0 <= P <= MP_MAX_PAD): a
 *            {c0, ci, ci2, ck,            term is added only where every
 *                                         c0 + ci*i + ci2*i2 + ck*k + sum
 *                                         cs*d >= 0 (i2: the second row loop's
 *                                         iteration, d: the summed loops',
 *                cs x L} x P              outermost first); A is copied with
 *                                         za (pv_kind 0) or pv (1: a select's
 *                                         other value) in place of the
 *                                         others, never read there (stage.c)
 *            ncheck, {lo, hi} x ncheck,   byte ranges written by the nest
 *            nprot, {lo, hi} x nprot)     other bytes the nest reads as
 *                                         loop-invariant values (globals)
 *
 * a, b, c are pointers; every other argument is a long.  It returns NULL
 * when the original loop must run (a run-time check failed), otherwise
 *   TILE:   an int32 tile T with T[i*N + j] = sum_k (A(i,k)-za)*(B(k,j)-zb),
 *           read by the nest in place of loop k, freed by __mixprec_release;
 *   DIRECT: a non-NULL token after C(i,j) += sum_k ... was done.
 *
 * Run-time checks (each failure means: original loop, counted in mp_stats):
 *   - MIXPREC_DISABLE set to anything but "0" or "";
 *   - no usable kernel (MIXPREC_TARGET or the pragma's target= names one
 *     the CPU lacks; the environment wins over the pragma);
 *   - |sum| <= K * max|a-za| * max|b-zb| does not fit int32;
 *   - a written range (or C) overlaps the bytes A or B reads, or a global
 *     the nest reads as an invariant (a zero point, a bound);
 *   - the tile cannot be allocated.
 *
 * For a floating-point source (plan->src_float, issue "Floating-point loops
 * at lower precision") the plugin emits instead
 *
 *   tile = __mixprec_lp_nest(MP_NEST_ABI, nargs,
 *            mode,                        0: TILE, 1: DIRECT
 *            target,                      as above
 *            lp,                          mp_lp: 0 int8, 1 uint8, 2 bf16,
 *                                         3 fp8_e4m3, 4 fp8_e5m2
 *            is_double,                   0: float A, B (and C / tile),
 *                                         1: double
 *            M, N, K,                     extents of loops i, j, k (>= 0)
 *            a, a_si, a_sk,               A(i,k) at a + i*a_si + k*a_sk (BYTES)
 *            b, b_sk, b_sj,               B(k,j) at b + k*b_sk + j*b_sj (BYTES)
 *            c, c_si, c_sj,               DIRECT: C(i,j) at c + i*c_si + j*c_sj
 *                                         (BYTES); TILE: NULL, 0, 0
 *            alpha,                       the 64 bits of a double: the result
 *                                         is alpha * S (a scalar factor of the
 *                                         product, alpha*a*b; else 1.0)
 *            za, za_sign, zb, zb_sign,    zero points: a double's bits and the
 *                                         sign of the body's operand -/+ z (1 /
 *                                         -1): A' = A - za_sign*za (likewise
 *                                         B), subtracted in the source type
 *            sa_mode, sa_bits, sa, sa_dt, A's scale: mode 0 dynamic, 1 one
 *                                         value (sa_bits: a double's bits),
 *                                         2 per row (sa: pointer to M float
 *                                         (sa_dt 0) or double (1) scales)
 *            sb_mode, sb_bits, sb, sb_dt, B's, per column (N scales)
 *            flags,                       1: verify (the pragma's clause),
 *                                         2 / 4: A / B constant across calls,
 *                                         bits 16-23 / 24-31: overlap checks
 *                                         not compared with B's / A's read
 *                                         range (as cflags' bits 8-23)
 *                                         (constant=: MP_LP_CONST_A / _B),
 *                                         8: an auto nest (mp_auto.c), its
 *                                         candidates 1 << mp_prec in bits
 *                                         8-15, its nest hash in bits 32-63
 *                                         (MIXPREC_PROFILE: profile.c)
 *            loc,                         pointer: "FILE:LINE" or NULL
 *            L, {n, a_s, b_s} x L,        summed reduction loops, as above
 *            M2, a_s2, c_s2,              a second row loop outside i, as
 *                                         above (-1, 0, 0 without; no bias):
 *                                         M2 blocks of M rows, the output's
 *                                         blocks chaining (c_s2 == M*c_si;
 *                                         TILE: 0, T[(i2*M + i)*N + j]) or
 *                                         the call runs the loop
 *            P, pv_kind, pv, {...} x P    padding, as above, in the source
 *                                         type
 *            ncheck, {lo, hi} x ncheck,   as above (the scale arrays count
 *            nprot, {lo, hi} x nprot)     as read ranges)
 *
 * It returns NULL when the original loop must run, otherwise
 *   TILE:   a float (double) tile T[i*N + j] = S(i,j), mp_gemm_lp's
 *           contraction at precision lp, freed by __mixprec_release;
 *   DIRECT: a non-NULL token after C(i,j) += S(i,j) was done.
 * Run-time checks: MIXPREC_DISABLE, the kernel (MIXPREC_TARGET / target=),
 * the overlap checks, strides that are not multiples of the element size,
 * the allocation, as above (no int32 bound), and mp_gemm_lp_ex returning
 * -1 (a NaN or infinite input, an unusable scale, a result that could
 * overflow): the original loop runs then, with the exact IEEE semantics of
 * the source.
 *
 * Verify mode (the pragma's verify clause: the first call of that nest;
 * MIXPREC_VERIFY=1: the first call of every floating-point nest; =all:
 * every call; =0: never): after the kernel, every element is compared with
 * the exact value (long double) and its documented bound
 * (mp_lp_error_bound_ex); one line goes to stderr; an element beyond its
 * bound makes the call run the original loop (C restored first).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"
#include "mp_runtime.h"
#include "lp.h"
#include "mp_gemm.h"
#include "mp_par.h"

static char mp_direct_token;

#define MP_MAX_CHECKS 128   /* more than the core's MP_MAX_ACCESSES */

typedef struct mp_range { intptr_t lo, hi; } mp_range;   /* inclusive bytes */

/* Bytes touched by base + i*si + j*sj (+ elem-1) for i < m, j < n. */
static mp_range span(const void *base, long m, long si, long n, long sj, long elem)
{
	intptr_t b = (intptr_t)base;
	intptr_t x1 = 0, x2 = (intptr_t)(m - 1) * si, y1 = 0, y2 = (intptr_t)(n - 1) * sj;
	mp_range r;
	r.lo = b + (x1 < x2 ? x1 : x2) + (y1 < y2 ? y1 : y2);
	r.hi = b + (x1 < x2 ? x2 : x1) + (y1 < y2 ? y2 : y1) + elem - 1;
	return r;
}

/* Bytes read by an operand: V vectors (extent nv, stride sv) in nv2 blocks
 * (stride sv2), G groups,
 * and the reduction's dims kd[0..nd-1] with stride .a (which == 0) or .b.
 * Empty when any extent is 0. */
static mp_range spank(const void *base, long nv, long sv, long nv2, long sv2, long G,
		      long sg, const mp_kdim *kd, int nd, int which)
{
	intptr_t lo = (intptr_t)base, hi = (intptr_t)base;
	long ext[3 + MP_MAX_KDIMS];
	long str[3 + MP_MAX_KDIMS];
	int m = 0;

	ext[m] = nv, str[m++] = sv;
	ext[m] = nv2, str[m++] = sv2;
	ext[m] = G, str[m++] = sg;
	for (int i = 0; i < nd; i++)
		ext[m] = kd[i].n, str[m++] = which ? kd[i].b : kd[i].a;
	for (int i = 0; i < m; i++) {
		if (ext[i] <= 0) {
			mp_range r = { 1, 0 };
			return r;
		}
		intptr_t d = (intptr_t)(ext[i] - 1) * str[i];
		if (d < 0)
			lo += d;
		else
			hi += d;
	}
	mp_range r = { lo, hi };
	return r;
}

/* The output elements base + b*s2 + i*si + j*sj (b < M2, i < M, j < N,
 * elements of esz bytes) are pairwise disjoint: sorted by |stride|, each
 * stride spans at least what the smaller ones cover (a sufficient test).
 * The core's proof that the output is injective over (i, j) reads a
 * subscript i*ld + j as a 2-D array's (rows of ld elements) and a second
 * row loop's blocks multiply sizes ISL cannot relate: both hold only when
 * this does, checked before every DIRECT or FUSED call. */
static int disjoint_rows(long M, long si, long N, long sj, long M2, long s2, long esz)
{
	long e[3] = { M, N, M2 }, st[3] = { labs(si), labs(sj), labs(s2) };
	for (int x = 0; x < 3; x++)
		for (int y = x + 1; y < 3; y++)
			if (st[y] < st[x]) {
				long t = st[x]; st[x] = st[y]; st[y] = t;
				t = e[x]; e[x] = e[y]; e[y] = t;
			}
	long span = esz;
	for (int x = 0; x < 3; x++) {
		if (e[x] <= 1)
			continue;
		if (st[x] < span || __builtin_mul_overflow(st[x], e[x] - 1, &st[x]) ||
		    __builtin_add_overflow(span, st[x], &span))
			return 0;
	}
	return 1;
}

/* Does the float (double) C(i,j) at c + i*si + j*sj bytes hold a finite
 * value of magnitude 2^127 (2^1023) or more? */
static int c_near_max(const void *c, long M, long si, long N, long sj, int dbl)
{
	for (long i = 0; i < M; i++) {
		const char *row = (const char *)c + i * si;
		for (long j = 0; j < N; j++) {
			double v = dbl ? fabs(*(const double *)(row + j * sj))
				       : fabs((double)*(const float *)(row + j * sj));
			if (v >= (dbl ? 0x1p1023 : 0x1p127) && v <= (dbl ? DBL_MAX : FLT_MAX))
				return 1;
		}
	}
	return 0;
}

static int overlap(mp_range a, mp_range b)
{
	return a.lo <= b.hi && b.lo <= a.hi;
}

static int64_t max_abs_minus(int dt, long z)
{
	int64_t lo = dt == MP_DT_U8 ? 0 : -128, hi = dt == MP_DT_U8 ? 255 : 127;
	int64_t x = lo - z, y = hi - z;
	x = x < 0 ? -x : x;
	y = y < 0 ? -y : y;
	return x > y ? x : y;
}

/* The MIXPREC_* variables the entry points read, read once per process
 * (mp_env_reload reads them again): no getenv on the path of a call.
 * verify: 0 unset or empty, 1 "0", 2 "all", 3 anything else. */
static struct {
	int loaded, disable, target_set, verify, small, stats;
} mp_env;

static void small_guard_set(int small, int stats, int env);

/* MIXPREC_SMALL=0: no cost model, the kernels whenever they can (*small
 * 0).  The per-nest counters (stats.c) are printed only under
 * MIXPREC_STATS (*stats 1): without it a call spends no time on them (two
 * clock reads and a lock, about 60 ns, the plain loop's whole time on the
 * smallest nests). */
static void env_small_stats(int *small, int *stats)
{
	const char *sm = getenv("MIXPREC_SMALL"), *st = getenv("MIXPREC_STATS");
	*small = !(sm && !strcmp(sm, "0"));
	*stats = st && *st && strcmp(st, "0") != 0;
}

static void mp_env_load(void)
{
	const char *d = getenv("MIXPREC_DISABLE"), *t = getenv("MIXPREC_TARGET");
	const char *v = getenv("MIXPREC_VERIFY");
	mp_env.disable = d && *d && strcmp(d, "0") != 0;
	env_small_stats(&mp_env.small, &mp_env.stats);
	mp_env.target_set = t != NULL;
	mp_env.verify = !v || !*v ? 0 : !strcmp(v, "0") ? 1 : !strcmp(v, "all") ? 2 : 3;
	small_guard_set(mp_env.small, mp_env.stats, 1);
	__atomic_store_n(&mp_env.loaded, 1, __ATOMIC_RELEASE);
}

static inline void mp_env_get(void)
{
	if (!__atomic_load_n(&mp_env.loaded, __ATOMIC_ACQUIRE))
		mp_env_load();
}

/* See mixprec.h. */
void mp_env_reload(void)
{
	mp_env_load();
	mp_kernel_select_reload();
	mp_par_reload();
}

static int disabled(void)
{
	mp_env_get();
	return mp_env.disable;
}

/* When a call began, for the per-nest time: read only under MIXPREC_STATS. */
static double call_start(void)
{
	mp_env_get();
	return mp_env.stats ? mp_stats_now() : 0;
}

/* The original loop runs (NULL), for WHY; counted in total and, under
 * MIXPREC_STATS, for the nest at LOC (T0: when the call began). */
static void *fallback(const char *loc, mp_fallback why, double t0)
{
	mp_stats_note(0, -1);
	if (mp_env.stats)
		mp_stats_nest(loc, why, -1, mp_stats_now() - t0);
	return NULL;
}

/* The kernels ran the call. */
static void ran(const char *loc, mp_kernel kern, double t0)
{
	mp_stats_note(1, kern);
	if (mp_env.stats)
		mp_stats_nest(loc, MP_FB_NONE, kern, mp_stats_now() - t0);
}

/* The overlap checks that end both argument lists: ncheck written ranges
 * (each must miss the nrd ranges rd the contraction reads), then nprot
 * protected ranges (each must miss every written range).  FIXED is the
 * number of arguments besides the 2*ncheck + 2*nprot range bounds.
 * Returns -1 when the list is malformed, 0 when a check fails, 1. */
static int range_checks(va_list *ap, long nargs, long fixed, const mp_range *rd, int nrd,
			unsigned skip_a, unsigned skip_b)
{
	mp_range w[MP_MAX_CHECKS];
	long ncheck = va_arg(*ap, long), i;
	int ok = 1;

	if (ncheck < 0 || ncheck > MP_MAX_CHECKS || nargs < fixed + 2 * ncheck)
		return -1;
	for (i = 0; i < ncheck; i++) {
		w[i].lo = (intptr_t)va_arg(*ap, long);
		w[i].hi = (intptr_t)va_arg(*ap, long);
		for (int r = 0; r < nrd; r++)
			if (w[i].lo <= w[i].hi && overlap(w[i], rd[r]) &&
			    !(r == 0 && i < 8 && (skip_a >> i & 1)) &&
			    !(r == 1 && i < 8 && (skip_b >> i & 1)))
				ok = 0;
	}
	long nprot = va_arg(*ap, long);
	if (nprot < 0 || nargs != fixed + 2 * ncheck + 2 * nprot)
		return -1;
	for (long p = 0; p < nprot; p++) {
		mp_range r;
		r.lo = (intptr_t)va_arg(*ap, long);
		r.hi = (intptr_t)va_arg(*ap, long);
		for (i = 0; i < ncheck; i++)
			if (w[i].lo <= w[i].hi && overlap(w[i], r))
				ok = 0;
	}
	return ok;
}

/* The kernel family for the pragma's target= (0 auto, 1 scalar, 2 avx2,
 * 3 avx512vnni, 4 dotprod, 5 i8mm); MIXPREC_TARGET wins.  MP_KERNEL_NONE:
 * none usable. */
static mp_kernel pick_kernel(long target)
{
	mp_kernel kern = mp_kernel_select();
	mp_env_get();
	if (!mp_env.target_set && target != 0) {
		kern = target == 1 ? MP_KERNEL_SCALAR : target == 2 ? MP_KERNEL_AVX2
		     : target == 3 ? MP_KERNEL_AVX512VNNI : target == 4 ? MP_KERNEL_DOTPROD
		     : target == 5 ? MP_KERNEL_I8MM : MP_KERNEL_NONE;
		if (kern != MP_KERNEL_NONE && !mp_kernel_available(kern))
			kern = MP_KERNEL_NONE;
	}
	return kern;
}

/* ------------------------------------------------ small shapes: the cost model
 *
 * A call pays a fixed price (argument checks, packing, dispatch: about
 * 0.1 us for an int8 nest, 0.3 us for a float one) that the loop as written
 * does not, so on tiny extents (M = N = 2, K = 8; a depthwise K = 9; a
 * matrix-vector product called from an outer loop) the kernels lose to the
 * plain loop compiled at -O3.  The contract (never slower than the loop as
 * written) wants the original loop then: the call returns NULL, counted as
 * fallback reason `small`.  MIXPREC_SMALL=0 turns the model off (the
 * kernels whenever they can: tests that want them exercised on awkward
 * small shapes, and bench/bench_small's "kern" column).
 *
 * Two estimates in nanoseconds, both linear in a few shape terms:
 *   loop:   M*N * (L_out + L_mac*K)
 *           (per output element: its init, store, epilogue; per multiply-add)
 *   kernel: c0 + k*K + pack*(M+N)*K + mac*M*N*K + out*M*N
 *           + the path's own terms: the blocked driver (M > 1, N > 1)
 *             row*M + tilek*ceil(M/8)*ceil(N/32)*ceil(K/4) (8x32 register
 *             tiles, K in groups of 4: the padding of thin shapes);
 *             the vector path for M == 1: vcol*N, + vk*K when B is not
 *             contiguous in k (its rows are gathered); for N == 1
 *             (transposed): vrow*M
 * and the loop runs when the loop's estimate is below the kernel's (the
 * loop's constants weigh the shapes near the crossover most).  What
 * both paths pay (the call itself, the epilogue of a TILE nest, which runs
 * either way) is in both estimates or in neither.
 *
 * The constants are least-squares fits (relative error) to bench/
 * bench_small (MIXPREC_SMALL=0 for the kernels, MIXPREC_DISABLE=1 for the
 * loop as the plugin build compiles it) on the development machine: AMD
 * Zen 4, AVX512-VNNI and AVX512-BF16, gcc 12 -O3 -march=native, one
 * thread, the grid M, N in {1..64}, K in {4..256} of its eight nests.  The
 * loop's cost depends on its layout: an int8 dot product whose operands
 * are both contiguous in k is vectorised by the compiler (cheap per
 * multiply-add, dear per output element), a strided one is scalar; float
 * loops are scalar either way (a float sum is not reassociated without
 * -ffast-math), the dot-product form a little slower per multiply-add.  The kernel's side was measured for the avx512vnni family
 * (int8, and for int8 on an AVX2-only CPU: mp_small_k_i8_avx2) and
 * avx512bf16 (bf16, fp8), and for float sources on the avx2 family on an
 * AVX2-only CPU (mp_small_k_lp8_avx2_*, mp_small_k_lp16_avx2_*, with its
 * own loop constants); on the scalar family the kernels are slower still
 * and the model errs towards them, as the runtime did before it.  Shapes beyond the grid (M*N*K > 2^20) always take the
 * kernels. */
typedef struct mp_small_kern {
	double c0, k, pack, mac, out, row, tilek, vrow, vcol, vk;
} mp_small_kern;
/* The loop's estimate per output element: out + mac*K, or where TAB is
 * set the least of that and TAB's values at K = 4, 9, 16, 32, 64, 256
 * (mp_small_knot) joined by straight lines, proportional to K beyond
 * 256.  The table is for the float loops on AVX-512 CPUs, which the line
 * does not fit: a short float sum costs about the same per element for K
 * from 4 to 9 (the out-of-order core overlaps the sums of neighbouring
 * outputs), a long one about 0.44 ns per term (each sum's chain of
 * dependent adds); the line over-estimated K = 9 2.3 times, and the
 * kernels were picked at 2.6x the loop's time (dense_f32 2x64x9).  The
 * line stays an upper bound of the table: the inline guard reads it. */
typedef struct mp_small_loop {
	double out, mac;
	const double *tab;
} mp_small_loop;
#define MP_SMALL_KNOTS 6
static const double mp_small_knot[MP_SMALL_KNOTS] = {4, 9, 16, 32, 64, 256};

static double loop_per_out(const mp_small_loop *lc, double k)
{
	double line = lc->out + lc->mac * k, t;
	const double *v = lc->tab;
	if (!v)
		return line;
	if (k <= mp_small_knot[0])
		t = v[0];
	else if (k >= mp_small_knot[MP_SMALL_KNOTS - 1])
		t = v[MP_SMALL_KNOTS - 1] * k / mp_small_knot[MP_SMALL_KNOTS - 1];
	else {
		int x = 1;
		while (k > mp_small_knot[x])
			x++;
		double f = (k - mp_small_knot[x - 1]) / (mp_small_knot[x] - mp_small_knot[x - 1]);
		t = v[x - 1] + f * (v[x] - v[x - 1]);
	}
	return fmin(line, t);
}

/* int8 sources (__mixprec_i8_nest), mp_gemm_x8 on avx512vnni */
static const mp_small_kern mp_small_k_i8 = {
	75, 0.63, 0.0096, 0.0023, 0.166, 10.5, 5.6, 4.3, 2.44, 3.0};
/* the same on the avx2 family (and scalar, slower still), fitted to
   bench_small on an AVX2-only machine (AMD EPYC without AVX-512, gcc 12
   -O3 -march=native); the loop's constants below too, as the loop on such
   a CPU runs on 256-bit vectors at best.  With the avx512vnni constants
   there, the worst choice was 26.7x the better path (tile_i8 32x1x256: the
   kernels chosen at 40 us against the loop's 1.5 us) and 442 of 1176
   shapes were above 1.2x; with these, 2.16x and 43.  Refitted (c0 to
   tilek) after the avx2 packers were vectorised, on the 216 shapes of the
   grid that take the blocked driver (non-negative least squares,
   weights 1/the faster path; bench_small --csv 7 gemm_i8 acc_i8 dense_i8 tile_i8): the
   decision alone at worst 1.18x the better path, geometric mean 1.004
   (with the constants before: 3.34x, tile_i8 32x64x256 on the loop) */
static const mp_small_kern mp_small_k_i8_avx2 = {
	335.1, 8.299, 0.0418, 0.0271, 0.3263, 5.094, 2.963, 25, 2.457, 0};
/* The matrix-vector paths of the avx2 family (gemv_avx2.c: up to 8 rows of
   A, or 8 columns of B transposed, with the other operand contiguous in k
   or in j; nothing packed but those few vectors), their own estimate
   (mp_x8_few_form gives the form, mr the vectors, nv the other extent):
     c0 + k*mr*K + out*M*N + col*nv
        + mac*M*N*K + ktail*(K % 16)*M*N          (columns form: the terms
                                                   past the last 16 scalar)
        + mac_rows*M*N*K + ntail*(nv % 16)*K*mr   (rows form: the columns
                                                   past the last 16 scalar)
   Fitted as mp_small_k_i8_avx2 to the 960 shapes of bench_small's grid
   that take these paths: relative error median 0.14, the decision alone
   at worst 1.8x the better path, geometric mean 1.02x, 48 shapes above
   1.2x (with the blocked driver's constants: 19x, the loop chosen for
   64x2x256 at 13 us against the kernels' 0.7 us) */
typedef struct mp_small_vec {
	double c0, k, out, col, mac, ktail, mac_rows, ntail;
} mp_small_vec;
static const mp_small_vec mp_small_v_i8_avx2 = {160.1, 0.1364, 2.536, 1.358,
						 0.0427, 0.8113, 0.0059, 0.8615};
/* float sources at int8 / uint8 (mp_gemm_lp: scan, quantization, kernel),
   refitted with the float loops' table (loop_per_out) after the vector
   packers (the matrix-vector paths cost less than they did) to the 588
   shapes of each precision's two nests in bench_small --csv (non-negative
   least squares, weights 1/the faster path): the decision alone over each
   nest's 294 shapes at worst 1.25x-1.64x the better path (a 4x64x9 dense
   layer: the kernels at 0.96 us, the loop 0.61 us), geometric mean
   1.003-1.010, 2-5 shapes above 1.2x; with the line and the constants
   before, 1.46x-2.60x, geometric mean 1.008-1.032, 5-18 shapes above
   1.2x */
static const mp_small_kern mp_small_k_lp8 = {
	284, 3.44, 0.0264, 0.0, 0.96, 10.59, 3.99, 14.55, 8.73, 0};
/* float sources at bf16 / fp8 (avx512bf16), the same fit */
static const mp_small_kern mp_small_k_lp16 = {
	248, 5.23, 0.0603, 0.0022, 0.659, 7.79, 0, 6.19, 3.24, 0};
/* float sources on the avx2 family (lp_avx2.c's 6x16 fp32 tiles for bf16
   and fp8; the avx2 int8 packers and kernels for int8 / uint8), one set
   per layout (A and B contiguous in k, or not: the packers differ most),
   fitted to bench_small --csv 9 (dense_f32_* contiguous, gemm_f32_*
   strided; M, N > 1; non-negative least squares, weights 1/the faster
   path) on an AMD EPYC without AVX-512, gcc 12 -O3 -march=native; with
   the loop's constants below.  The decision alone, over the 294 shapes
   of each nest: at worst 1.34x the better path for bf16 (geometric mean
   1.003), 1.93x for int8 (1.01); with the avx512 constants there, 7.3x
   to 12x (gemm_f32_int8 2x64x256: the kernels at 405 us against the
   loop's 34 us), and a geometric mean of 1.33 to 1.73 */
static const mp_small_kern mp_small_k_lp8_avx2_kc = {
	648.2, 0, 1.465, 0, 10.6, 49.58, 7.638, 0, 0, 0};
static const mp_small_kern mp_small_k_lp8_avx2_st = {
	1166, 46.11, 6.614, 0, 10.03, 3.931, 0, 0, 0, 0};
static const mp_small_kern mp_small_k_lp16_avx2_kc = {
	741.9, 9.659, 5.723, 0.03474, 8.04, 23.7, 42.27, 0, 0, 0};
static const mp_small_kern mp_small_k_lp16_avx2_st = {
	826.7, 11.73, 5.602, 0.05902, 6.117, 28.51, 29.88, 0, 0, 0};
static const mp_small_loop mp_small_l_i8_kcontig = {5.54, 0.044, NULL};
static const mp_small_loop mp_small_l_i8_strided = {1.19, 0.678, NULL};
static const mp_small_loop mp_small_l_i8_kcontig_avx2 = {5.46, 0.103, NULL};
static const mp_small_loop mp_small_l_i8_strided_avx2 = {0.986, 0.983, NULL};
/* the float loops on AVX-512 (Zen 4): the table (loop_per_out), per K of
   bench_small's grid the 25th percentile of the ns per output element
   over the shapes with M*N >= 8 (bench_small --csv 3 dense_f32_int8
   gemm_f32_int8 dense_f32_bf16 gemm_f32_bf16, the fb column: the loop as
   the plugin build runs it), and the least line above it (its slope that
   of the table beyond 256; the fit before, 1.19 + 0.538 K and 1.19 +
   0.475 K, was above it too, further) */
static const double mp_small_t_f_kcontig[MP_SMALL_KNOTS] = {2.65, 2.62, 3.59, 7.74, 18.21, 114.1};
static const double mp_small_t_f_strided[MP_SMALL_KNOTS] = {1.52, 2.70, 4.83, 9.77, 18.87, 111.68};
static const mp_small_loop mp_small_l_f_kcontig = {0.87, 0.446, mp_small_t_f_kcontig};
static const mp_small_loop mp_small_l_f_strided = {0.0, 0.437, mp_small_t_f_strided};
/* the float loops on that AVX2 machine (the same fit) */
static const mp_small_loop mp_small_l_f_kcontig_avx2 = {1.949, 0.5691, NULL};
static const mp_small_loop mp_small_l_f_strided_avx2 = {0.9854, 0.8001, NULL};

/* A padded operand's copy (stage.c's gather_pad, after the lazy span of
 * pad_read): ns per call and per row copied, over the kernels' cost of
 * the same contraction without padding.  Fitted to bench_conv's padded
 * forms against its unpadded one (MIXPREC_SMALL=0, H x H images of 1-16
 * channels to 1-16 outputs, H = 2..16: 120-340 ns at 4 rows, 410-630 at
 * 16, 1000-1200 at 64, 2250-3030 at 256); the tiny images' rows cost most
 * (AMD EPYC Zen 4, gcc 12 -O2). */
#define MP_PAD_C0 300.0
#define MP_PAD_ROW 11.0

/* ------------------------------------------------ the inline guard
 *
 * On the smallest nests the call itself (about 50-80 ns: the argument
 * list, the checks, the model) costs several times the loop as written
 * (a 1x1x4 int8 product: 6 ns).  So the plugin's code decides before
 * calling, from the call's own arguments (polyhedral/mp_nest.h,
 * mp_plan_work): out = the outputs, work = the multiply-adds, kc = the
 * operands contiguous in k (k_contiguous); it calls only when, for
 * g = &__mixprec_small[slot],
 *     (kc ? out*g[1] + work*g[2] : out*g[3] + work*g[4]) >= g[0]
 * in 1/64 ns (out*max(g[1], g[3]) + work*max(g[2], g[4]) when the operands
 * may be copied before the model sees them).  g[0] is the least the model ever
 * estimates for the kernels (the smallest c0 of the tables the slot's calls
 * may use, rounded down), g[1..4] the model's loop constants (rounded up).
 * So the code skips a call only where too_small would return the loop: the
 * same choice, without the call.  The slots (mp_plan_work; named in
 * polyhedral/mp_guard.h): 0 integer
 * sources; 5 floating-point sources with a target= (any family); 10 and 15
 * floating-point sources at int8/uint8 and at bf16/fp8, target auto; 20
 * integer sources with padding (slot 0's, g[0] raised by the least cost
 * of the padded copy, MP_PAD_C0); 25 and 30 are slots 0 and 20 for the
 * nests whose pragma names a target= (any family); entry 35 the padded
 * copy's cost per row of A (MP_PAD_ROW, rounded down), which the code adds
 * to g[0] times the rows (polyhedral/mp_nest.h, rows_entry) where work is
 * below MP_SMALL_CAP (too_small's own cut: beyond it never the loop).
 * Before the environment is read (the constructor: the program may still
 * set MIXPREC_TARGET) slots 0 and 20 are 25 and 30, slots 10 and 15 are slot 5, whose constants hold for
 * every family; once it is read (the first call that reaches the runtime,
 * mp_env_reload) they are those of the family auto picks on this CPU (on
 * an AVX2 CPU the float kernels cost at least 648 ns where the AVX-512
 * tables start at 248: calls in between no longer pay the call to come
 * back to the loop).  Under MIXPREC_SMALL=0 or MIXPREC_STATS, every g[0] =
 * 0: every call is made (and counted).  The static values, for calls made
 * before the constructor runs, hold for every family (the least c0, the
 * largest loop constants). */
long __mixprec_small[MP_SMALL_GUARD_LEN] = {4800, 355, 7, 77, 63, 15872, 77, 35, 77, 31,
					    15872, 77, 35, 77, 31, 15872, 77, 35, 77, 31,
					    24000, 355, 7, 77, 63, 4800, 355, 7, 77, 63,
					    24000, 355, 7, 77, 63, 704};

/* A(i,k) and B(k,j) both contiguous in k (element strides ESZ), as in
 * x[i*K + k] * w[j*K + k]: the dot-product form.  The other stride is
 * checked too: with N == 1, B[k*N + j] has a k stride of one element
 * although the loop was compiled for any N. */
static int k_contiguous(long a_si, long a_sk, long b_sk, long b_sj, long esz)
{
	return a_sk == esz && b_sk == esz && a_si != esz && b_sj != esz;
}

static long floor64(double ns) { return (long)(ns * 64.0); }
static long ceil64(double ns) { return (long)(ns * 64.0) + 1; }

/* The cost model's constants for a float nest at precision LP on family
 * KERN, operands contiguous in k (KC) or not: by the implementation
 * mp_gemm_lp runs (the avx2 family's own fit, per layout; the avx512 fit
 * elsewhere, the scalar tiles included, which it favours).  too_small_lp
 * and the inline guard's float rows (small_guard_lp) read them here. */
static void lp_tables(mp_kernel kern, mp_lp lp, int kc, const mp_small_kern **kk,
		      const mp_small_loop **lc)
{
	mp_lp_impl im = mp_lp_impl_of(kern, lp);
	int avx2 = im == MP_LPI_I8_AVX2 || im == MP_LPI_BF16_AVX2;
	int i8 = lp == MP_LP_INT8 || lp == MP_LP_UINT8;
	if (avx2) {
		*kk = i8 ? (kc ? &mp_small_k_lp8_avx2_kc : &mp_small_k_lp8_avx2_st)
			 : (kc ? &mp_small_k_lp16_avx2_kc : &mp_small_k_lp16_avx2_st);
		*lc = kc ? &mp_small_l_f_kcontig_avx2 : &mp_small_l_f_strided_avx2;
	} else {
		*kk = i8 ? &mp_small_k_lp8 : &mp_small_k_lp16;
		*lc = kc ? &mp_small_l_f_kcontig : &mp_small_l_f_strided;
	}
}

/* A float row of __mixprec_small (G[0..4]) for the calls at LP on family
 * KERN: lp_tables' constants, the least c0 of both layouts. */
static void small_guard_lp(long *g, mp_kernel kern, mp_lp lp)
{
	const mp_small_kern *kc, *ks;
	const mp_small_loop *fk, *fs;
	lp_tables(kern, lp, 1, &kc, &fk);
	lp_tables(kern, lp, 0, &ks, &fs);
	g[0] = floor64(fmin(kc->c0, ks->c0));
	g[1] = ceil64(fk->out), g[2] = ceil64(fk->mac);
	g[3] = ceil64(fs->out), g[4] = ceil64(fs->mac);
}

/* __mixprec_small for MIXPREC_SMALL and MIXPREC_STATS as read
 * (env_small_stats) and this CPU: the avx2 family's constants, or where
 * AVX512-VNNI is available (MIXPREC_TARGET or target= may still pick avx2
 * or scalar) the least c0 and the largest loop constants of both.  Set
 * before main (ENV 0: without fixing the other variables or
 * MIXPREC_TARGET) and by mp_env_load (ENV 1: the family auto picks is
 * known): at the first call that reaches the runtime and at
 * mp_env_reload. */
static void small_guard_set(int small, int stats, int env)
{
	int off = !small || stats;
	int v512 = mp_kernel_available(MP_KERNEL_AVX512VNNI);
	const mp_small_loop *lk = &mp_small_l_i8_kcontig_avx2, *ls = &mp_small_l_i8_strided_avx2;
	double c0 = fmin(mp_small_k_i8_avx2.c0, mp_small_v_i8_avx2.c0);
	double ko = lk->out, km = lk->mac, so = ls->out, sm_ = ls->mac;
	if (v512) {
		c0 = fmin(c0, mp_small_k_i8.c0);
		ko = fmax(ko, mp_small_l_i8_kcontig.out), km = fmax(km, mp_small_l_i8_kcontig.mac);
		so = fmax(so, mp_small_l_i8_strided.out), sm_ = fmax(sm_, mp_small_l_i8_strided.mac);
	}
	/* the least over every family a float nest may run on here
	   (MIXPREC_TARGET may pick avx2 on an AVX-512 CPU) */
	double f0 = fmin(fmin(mp_small_k_lp8.c0, mp_small_k_lp16.c0),
			 fmin(fmin(mp_small_k_lp8_avx2_kc.c0, mp_small_k_lp8_avx2_st.c0),
			      fmin(mp_small_k_lp16_avx2_kc.c0, mp_small_k_lp16_avx2_st.c0)));
	const mp_small_loop *fk = &mp_small_l_f_kcontig, *fs = &mp_small_l_f_strided;
	const mp_small_loop *fk2 = &mp_small_l_f_kcontig_avx2, *fs2 = &mp_small_l_f_strided_avx2;
	long g[MP_SMALL_GUARD_LEN] = {
		floor64(c0), ceil64(ko), ceil64(km), ceil64(so), ceil64(sm_),
		floor64(f0), ceil64(fmax(fk->out, fk2->out)), ceil64(fmax(fk->mac, fk2->mac)),
		ceil64(fmax(fs->out, fs2->out)), ceil64(fmax(fs->mac, fs2->mac))};
	/* padded: MP_GUARD_I8's, after the copy */
	memcpy(&g[MP_GUARD_I8_PAD], &g[MP_GUARD_I8], MP_GUARD_SLOT * sizeof g[0]);
	g[MP_GUARD_I8_PAD] = floor64(c0 + MP_PAD_C0);
	/* target=: any family (both integer slots, as they stand here) */
	memcpy(&g[MP_GUARD_I8_TARGET], &g[MP_GUARD_I8], MP_GUARD_SLOT * sizeof g[0]);
	memcpy(&g[MP_GUARD_I8_PAD_TARGET], &g[MP_GUARD_I8_PAD], MP_GUARD_SLOT * sizeof g[0]);
	g[MP_GUARD_PAD_ROW] = floor64(MP_PAD_ROW);
	mp_kernel kern = env ? mp_kernel_select() : MP_KERNEL_NONE;
	if (kern != MP_KERNEL_NONE) {
		/* auto: the family's own constants (too_small_i8's), both
		   layouts; the least c0 of its tables and the few-rows form */
		int v = kern == MP_KERNEL_AVX512VNNI;
		const mp_small_loop *k1 = v ? &mp_small_l_i8_kcontig : &mp_small_l_i8_kcontig_avx2;
		const mp_small_loop *s1 = v ? &mp_small_l_i8_strided : &mp_small_l_i8_strided_avx2;
		double c1 = fmin(v ? mp_small_k_i8.c0 : mp_small_k_i8_avx2.c0, mp_small_v_i8_avx2.c0);
		long a[5] = {floor64(c1), ceil64(k1->out), ceil64(k1->mac), ceil64(s1->out),
			     ceil64(s1->mac)};
		memcpy(&g[MP_GUARD_I8], a, sizeof a);
		memcpy(&g[MP_GUARD_I8_PAD], a, sizeof a);
		g[MP_GUARD_I8_PAD] = floor64(c1 + MP_PAD_C0);
	}
	for (int s = MP_GUARD_LP8; s <= MP_GUARD_LP16; s += MP_GUARD_SLOT) {
		if (kern == MP_KERNEL_NONE)
			memcpy(&g[s], &g[MP_GUARD_LP_TARGET], MP_GUARD_SLOT * sizeof g[0]);
		else
			small_guard_lp(&g[s], kern, s == MP_GUARD_LP8 ? MP_LP_INT8 : MP_LP_BF16);
	}
	if (off) {   /* every call is made: each slot's g[0] and the per-row cost */
		for (int s = 0; s < MP_GUARD_PAD_ROW; s += MP_GUARD_SLOT)
			g[s] = 0;
		g[MP_GUARD_PAD_ROW] = 0;
	}
	for (int i = 0; i < MP_SMALL_GUARD_LEN; i++)
		__atomic_store_n(&__mixprec_small[i], g[i], __ATOMIC_RELAXED);
}

__attribute__((constructor)) static void small_guard_init(void)
{
	int small, stats;
	env_small_stats(&small, &stats);
	small_guard_set(small, stats, 0);
}

/* 1 when the loop as written is estimated faster than the kernels for an
 * M x N x K contraction: kernel costs KC, loop costs LC; PACK_A / PACK_B 0
 * when that operand is not packed on this call (constant=, cached);
 * B_KCONTIG: B contiguous in k; PAD_ROWS the rows of a padded A copied
 * first (0: none). */
static int too_small(const mp_small_kern *kc, const mp_small_loop *lc, long M, long N,
		     long K, int pack_a, int pack_b, int b_kcontig, const mp_small_vec *vc,
		     int form, long mr, long nv, long pad_rows, double stage_ns)
{
	double m = (double)M, n = (double)N, k = (double)K;
	if (m * n * k > 1048576.0)
		return 0;
	double loop = m * n * loop_per_out(lc, k);
	double extra = stage_ns + (pad_rows > 0 ? MP_PAD_C0 + MP_PAD_ROW * (double)pad_rows : 0);
	if (vc && form) {
		double kern = extra + vc->c0 + vc->k * (double)mr * k + vc->out * m * n + vc->col * (double)nv;
		if (form == 1)
			kern += vc->mac * m * n * k + vc->ktail * (double)(K % 16) * m * n;
		else
			kern += vc->mac_rows * m * n * k + vc->ntail * (double)(nv % 16) * k * (double)mr;
		return loop < kern;
	}
	double kern = extra + kc->c0 + kc->k * k + kc->pack * (m * pack_a + n * pack_b) * k +
		      kc->mac * m * n * k + kc->out * m * n;
	if (M == 1)
		kern += kc->vcol * n + (b_kcontig ? 0 : kc->vk * k);
	else if (N == 1)
		kern += kc->vrow * m;
	else
		kern += kc->row * m +
			kc->tilek * (double)((M + 7) / 8) * (double)((N + 31) / 32) *
				(double)((K + 3) / 4);
	return loop < kern;
}

/* too_small for a float nest at precision LP on family KERN (strides in
 * bytes, ESZ the element size; PACK_A / PACK_B as too_small's): lp_tables'
 * constants for the layout, as too_small_i8 picks them for int8. */
static int too_small_lp(mp_kernel kern, mp_lp lp, long M, long N, long K, long a_si,
			long a_sk, long b_sk, long b_sj, long esz, int pack_a, int pack_b,
			long pad_rows, double stage_ns)
{
	const mp_small_kern *kk;
	const mp_small_loop *lc;
	lp_tables(kern, lp, k_contiguous(a_si, a_sk, b_sk, b_sj, esz), &kk, &lc);
	return too_small(kk, lc, M, N, K, pack_a, pack_b, 1, NULL, 0, 0, 0, pad_rows, stage_ns);
}

/* The copies of a float nest's operands whose sum runs over several loops
 * or whose rows come in blocks (stage.c, in the source type, before the
 * kernels' own scan and packing): RUNS contiguous runs, ELEMS elements,
 * in ns.  Fitted to 3x3 convolutions of 1-32 channels over 4x4 to 18x18
 * images to 1-32 outputs, NCHW (runs of 3 elements) and NHWC (runs of 3
 * channels' rows), 300 shapes per precision: MIXPREC_SMALL=0 against the
 * kernels' estimate without the copies (least squares, weights 1/the
 * time; AMD EPYC Zen 4, gcc 12 -O3 -march=native, the machine otherwise
 * idle).  Relative error median 0.06 (bf16) and 0.07 (int8), 90th
 * percentile 0.16 and 0.18, where it was 0.38 and 0.30, 0.62 and 0.47
 * without them; the loop as written was chosen on 2 in 3 of the NCHW
 * shapes at bf16 although it ran up to 6x faster. */
static double stage_cost(mp_lp lp, long runs, double elems)
{
	int i8 = lp == MP_LP_INT8 || lp == MP_LP_UINT8;
	if (runs <= 0)
		return 0;
	return i8 ? 204.0 + 1.14 * (double)runs + 0.067 * elems
		  : 178.0 + 1.07 * (double)runs + 0.21 * elems;
}

/* too_small for an int8 nest on family KERN: NBLK blocks of M rows, G
 * groups of K terms (strides in bytes); the avx2 family's matrix-vector
 * paths (one block, no groups) by their own estimate.  PADDED: A is
 * copied with its padding first.  RUN: the innermost loop's extent when
 * the sum runs over several loops (a convolution's channels), else 0.  A
 * run shorter than 16 is not the long contiguous dot product the loop
 * constants for operands contiguous in k were fitted to: the loop as
 * written is a nest of short loops (bench_conv's padded loop, 3 channels:
 * 24 ns per output of 27 terms, where those constants say 7), estimated
 * with the strided constants (20 ns). */
static int too_small_i8(mp_kernel kern, long M, long N, long K, long G, long nblk, long a_si,
			long a_sk, int32_t za, long b_sk, long b_sj, int32_t zb, int padded,
			long run)
{
	int v512 = kern == MP_KERNEL_AVX512VNNI;
	long mr = 0, nv = 0;
	int few = G <= 1 && nblk == 1 ?
		mp_x8_few_form(kern, M, N, K, a_si, a_sk, za, b_sk, b_sj, zb, &mr, &nv) : 0;
	return too_small(v512 ? &mp_small_k_i8 : &mp_small_k_i8_avx2,
			 k_contiguous(a_si, a_sk, b_sk, b_sj, 1) && (run <= 0 || run >= 16)
				 ? (v512 ? &mp_small_l_i8_kcontig : &mp_small_l_i8_kcontig_avx2)
				 : (v512 ? &mp_small_l_i8_strided : &mp_small_l_i8_strided_avx2),
			 M * nblk, N, K * (G > 1 ? G : 1), 1, 1, b_sk == 1, &mp_small_v_i8_avx2, few,
			 mr, nv, padded ? M * nblk : 0, 0);
}

/* The summed reduction loops' dims after k's (kd[0] set by the caller):
 * L triples, outermost first, so kd[L] is the outermost. */
static void read_levels(va_list *ap, long L, mp_kdim *kd)
{
	for (long l = L; l >= 1; l--) {
		long e = va_arg(*ap, long);
		kd[l].n = e < 0 ? 0 : e;
		kd[l].a = va_arg(*ap, long);
		kd[l].b = va_arg(*ap, long);
	}
}

/* The range A's padded rows read, as the call's arguments give them
 * (before any copy): BOX while the range still holds the whole box
 * (spank); TAIL the bytes after an element's first (the range's hi counts
 * them). */
typedef struct mp_pad_read {
	int box;
	const void *a;
	long M;
	long a_si, M2, a_s2;
	const mp_kdim *kd;
	int nd;
	const mp_pad *pad;
	long tail;
} mp_pad_read;

/* R narrowed from the box to the bytes the padded copy reads (mp_pad_span,
 * a scan of the rows: about as long as the copy; they lie in the box, so
 * the callers ask only where the box meets a range written): nothing when
 * every term is padding. */
static void pad_read(mp_pad_read *pr, mp_range *r)
{
	intptr_t plo, phi;
	int f = mp_pad_span(pr->a, pr->M, pr->a_si, pr->M2, pr->a_s2, pr->kd, pr->nd, pr->pad,
			    &plo, &phi);
	if (f == 0)
		r->lo = 1, r->hi = 0;
	else if (f > 0)
		r->lo = plo, r->hi = phi + pr->tail;
	pr->box = 0;
}

/* range_checks (A's range rd[0]) with a padded A's box narrowed by
 * pad_read when the box fails a check, and the checks run again. */
static int range_checks_pad(va_list *ap, long nargs, long fixed, mp_range *rd, int nrd,
			    unsigned skip_a, unsigned skip_b, mp_pad_read *pr)
{
	va_list aq;
	va_copy(aq, *ap);
	int ok = range_checks(ap, nargs, fixed, rd, nrd, skip_a, skip_b);
	if (ok == 0 && pr->box && nrd > 0) {
		pad_read(pr, &rd[0]);
		ok = range_checks(&aq, nargs, fixed, rd, nrd, skip_a, skip_b);
	}
	va_end(aq);
	return ok;
}

/* P padding conditions over L summed loops (mp_pad; pad->pad set by the
 * caller). */
static void read_pad(va_list *ap, long P, long L, mp_pad *pad)
{
	pad->n = (int)P;
	for (long c = 0; c < P; c++) {
		memset(pad->ck[c], 0, sizeof pad->ck[c]);   /* the levels past L */
		pad->c0[c] = va_arg(*ap, long);
		pad->ci[c] = va_arg(*ap, long);
		pad->ci2[c] = va_arg(*ap, long);
		pad->ck[c][0] = va_arg(*ap, long);
		for (long l = L; l >= 1; l--)
			pad->ck[c][l] = va_arg(*ap, long);
	}
}

/* Padding conditions cut the ranges of the summed loops: `for (k = 0; k <
 * K; k++) if (k < K2) ...`, `if (kh < KH2 && kw < KW2)` around a window's
 * sum, a loop around the call folded into c0, and conditions that name a
 * row too (`if (k < i)`: the lower triangle written as a test; a band
 * `k + i < m`).  The terms outside are left out of A's copy, but B's rows
 * there would still be read, where the loop as written may read nothing
 * (a B of exactly the rows read).  With terms that are left out (not a
 * select's value, which the source multiplies by B), narrow each summed
 * loop's dimension to the projection of each condition onto it over the
 * others' ranges and the rows' (i in 0 .. M-1, i2 in 0 .. M2-1: no row
 * adds a term outside it): advance A and B, shorten the dimensions, shift
 * the conditions.  Returns 0 when a condition on several summed loops and
 * no row (`kh + kw < S`) still fails somewhere in the narrowed box: the
 * kernels would read B where the loop does not, so the caller falls back;
 * 1 otherwise.  (Several conditions naming a row are projected one at a
 * time: the range is exact for each, and for their conjunction where each
 * bound is reached by a row every condition admits.) */
static int clip_k(mp_pad *pad, long L, long pv_kind, mp_kdim *kd, long M, long M2,
		  const void **a, const void **b)
{
	long lo[MP_MAX_KDIMS], hi[MP_MAX_KDIMS];
	int moved = 1;

	if (pv_kind || M <= 0 || M2 <= 0)
		return 1;   /* (no rows: nothing is read) */
	for (long l = 0; l <= L; l++) {
		if (kd[l].n <= 0)
			return 1;   /* nothing is read */
		lo[l] = 0, hi[l] = kd[l].n - 1;
	}
	/* each pass narrows or stops; a few suffice (each condition's
	   projection onto a loop given the others' ranges) */
	for (int pass = 0; moved && pass < 4; pass++) {
		moved = 0;
		for (int c = 0; c < pad->n; c++) {
			/* the rows' largest part of the condition */
			__int128 rows = (pad->ci[c] > 0 ? (__int128)pad->ci[c] * (M - 1) : 0) +
					(pad->ci2[c] > 0 ? (__int128)pad->ci2[c] * (M2 - 1) : 0);
			for (long l = 0; l <= L; l++) {
				__int128 ck = pad->ck[c][l], rest = pad->c0[c] + rows;

				for (long m = 0; m <= L; m++) {   /* the others' largest */
					__int128 km = pad->ck[c][m];
					if (m != l)
						rest += km * (km > 0 ? hi[m] : lo[m]);
				}
				if (ck == 0) {
					if (rest < 0)
						goto empty;   /* fails everywhere */
					continue;
				}
				if (ck > 0) {   /* rest + ck*t >= 0: t >= ceil(-rest / ck) */
					if (rest < 0 && (-rest + ck - 1) / ck > lo[l]) {
						__int128 t = (-rest + ck - 1) / ck;
						if (t > hi[l])
							goto empty;
						lo[l] = (long)t, moved = 1;
					}
				} else {        /* t <= floor(rest / -ck) */
					if (rest < 0)
						goto empty;
					if (rest / -ck < hi[l])
						hi[l] = (long)(rest / -ck), moved = 1;
				}
				if (hi[l] < lo[l])
					goto empty;
			}
		}
	}
	for (long l = 0; l <= L; l++) {
		if (lo[l] == 0 && hi[l] == kd[l].n - 1)
			continue;
		*a = (const char *)*a + lo[l] * kd[l].a;
		*b = (const char *)*b + lo[l] * kd[l].b;
		kd[l].n = hi[l] - lo[l] + 1;
		for (int c = 0; c < pad->n; c++)
			pad->c0[c] += pad->ck[c][l] * lo[l];
		hi[l] -= lo[l], lo[l] = 0;
	}
	for (int c = 0; c < pad->n; c++) {   /* holds on the whole box? */
		__int128 least = pad->c0[c];
		if (pad->ci[c] || pad->ci2[c])
			continue;
		for (long l = 0; l <= L; l++)
			least += pad->ck[c][l] < 0 ? (__int128)pad->ck[c][l] * hi[l] : 0;
		if (least < 0)
			return 0;
	}
	return 1;
empty:   /* no term anywhere: no reduction */
	for (long l = 0; l <= L; l++)
		kd[l].n = 0;
	return 1;
}

void *__mixprec_i8_nest(long abi, long nargs, ...)
{
	va_list ap;
	int ok;
	double t0 = call_start();

	if (abi != MP_NEST_ABI || nargs < 45)
		return fallback(NULL, MP_FB_ABI, t0);
	va_start(ap, nargs);
	long mode = va_arg(ap, long), target = va_arg(ap, long);
	long M = va_arg(ap, long), N = va_arg(ap, long), K = va_arg(ap, long);
	const void *a = va_arg(ap, const void *);
	long a_si = va_arg(ap, long), a_sk = va_arg(ap, long);
	long a_dt = va_arg(ap, long), za = va_arg(ap, long);
	const void *b = va_arg(ap, const void *);
	long b_sk = va_arg(ap, long), b_sj = va_arg(ap, long);
	long b_dt = va_arg(ap, long), zb = va_arg(ap, long);
	void *c = va_arg(ap, void *);
	long c_si = va_arg(ap, long), c_sj = va_arg(ap, long);
	static const mp_epilogue ep0;   /* a copy, not a memset: rep stos costs
					   ~40 cycles on each call */
	mp_epilogue ep = ep0;
	ep.kind = (mp_epi)va_arg(ap, long);
	ep.out_dt = (int)va_arg(ap, long);
	ep.init = (int32_t)va_arg(ap, long);
	ep.bias = va_arg(ap, const int32_t *);
	long bias_si = va_arg(ap, long), bias_sj = va_arg(ap, long);
	uint32_t scale_bits = (uint32_t)va_arg(ap, long);
	memcpy(&ep.scale, &scale_bits, sizeof ep.scale);
	ep.qm = (int32_t)va_arg(ap, long);
	ep.shift = (int)va_arg(ap, long);
	ep.zp = (int32_t)va_arg(ap, long);
	ep.qmin = (int32_t)va_arg(ap, long);
	ep.qmax = (int32_t)va_arg(ap, long);
	const char *loc = va_arg(ap, const char *);
	uint32_t alpha = (uint32_t)va_arg(ap, long);
	long cfl = va_arg(ap, long);
	int cflags = (int)(cfl & (MP_X8_CONST_A | MP_X8_CONST_B));
	long G = va_arg(ap, long), a_sg = va_arg(ap, long), b_sg = va_arg(ap, long);
	long L = va_arg(ap, long);
	mp_kdim kd[MP_MAX_KDIMS];
	if (L < 0 || L > MP_MAX_KDIMS - 1 || nargs < 46 + 3 * L) {
		va_end(ap);
		return fallback(NULL, MP_FB_ABI, t0);
	}
	M = M < 0 ? 0 : M;
	N = N < 0 ? 0 : N;
	K = K < 0 ? 0 : K;
	int bad_step = G < 0;   /* a group loop stepping by a variable <= 0 */
	G = G < 0 ? 0 : G;
	/* the reduction's dimensions, innermost (k) first */
	kd[0].n = K, kd[0].a = a_sk, kd[0].b = b_sk;
	read_levels(&ap, L, kd);
	long M2 = va_arg(ap, long), a_s2 = va_arg(ap, long);
	long c_s2 = va_arg(ap, long), bias_s2 = va_arg(ap, long);
	/* padding: the conditions under which a term is added (mp_pad) */
	mp_pad pad;
	long P = va_arg(ap, long), pv_kind = va_arg(ap, long), pv = va_arg(ap, long);
	if (P < 0 || P > MP_MAX_PAD || nargs < 46 + 3 * L + P * (4 + L)) {
		va_end(ap);
		return fallback(NULL, MP_FB_ABI, t0);
	}
	/* a batch loop inside the rows with too little work (a depthwise
	   convolution's image row of a few pixels and channels: the batched
	   check below), decided before the padding is read and clipped, which
	   cost about half of such a call: clipping only shortens the sum, and
	   the rows counted here (M times M2) are at least those below */
	mp_env_get();
	if (mp_env.small && G > 1 && (L > 0 || P > 0 || (a_sg == 1 && b_sg == 1))) {
		double work = (double)M * (double)(M2 > 1 ? M2 : 1) * (double)G * (double)N;
		for (long l = 0; l <= L; l++)
			work *= (double)kd[l].n;
		if (work < 4096.0) {
			va_end(ap);
			return fallback(loc, MP_FB_SMALL, t0);
		}
	}
	if (!pv_kind)
		pv = za;   /* A's zero point: a term of 0 */
	memset(pad.pad, 0, sizeof pad.pad);   /* the rest: read_pad, per condition */
	pad.pad[0] = (unsigned char)pv;
	read_pad(&ap, P, L, &pad);
	int boxed = clip_k(&pad, L, pv_kind, kd, M, M2 >= 0 ? M2 : 1, &a, &b);
	K = kd[0].n;
	int has_rows2 = M2 >= 0;
	M2 = has_rows2 ? M2 : 1;
	if (M2 == 0)   /* the second row loop does not run: no rows */
		M = 0;
	int reads = M > 0 && M2 > 0 && N > 0 && G > 0;
	for (long l = 0; l <= L; l++)
		reads &= kd[l].n > 0;

	/* the terms of the contraction sum (over every summed loop) */
	__int128 terms = K;
	for (long l = 1; l <= L; l++)
		terms = terms * kd[l].n > (__int128)INT64_MAX ? (__int128)INT64_MAX
							       : terms * kd[l].n;
	/* padded and too little work: the loop as written, decided before
	   the padded copy's span below (which costs about as much as such a
	   loop); the model of the check further down, on M2 blocks of M rows
	   and the whole sum.  Any fallback runs the same loop */
	if (mp_env.small && P > 0 && G == 1 && reads && za == (int32_t)za && zb == (int32_t)zb &&
	    terms < INT32_MAX) {
		mp_kernel k0 = pick_kernel(target);
		if (k0 != MP_KERNEL_NONE &&
		    too_small_i8(k0, M, N, (long)terms, 1, M2, a_si, a_sk, (int32_t)za, b_sk, b_sj,
				 (int32_t)zb, 1, L > 0 ? kd[0].n : 0)) {
			va_end(ap);
			return fallback(loc, MP_FB_SMALL, t0);
		}
	}
	mp_range rd[2];
	rd[0] = spank(a, M, a_si, M2, a_s2, G, a_sg, kd, (int)L + 1, 0);
	rd[1] = spank(b, N, b_sj, 1, 0, G, b_sg, kd, (int)L + 1, 1);
	/* padded: the box reaches before the image (a neighbouring output
	   would seem to overlap); the bytes the copy read only where it
	   meets a range written (pad_read) */
	mp_pad_read pr = { P > 0 && G == 1 && rd[0].lo <= rd[0].hi, a, M, a_si, M2, a_s2,
			   kd, (int)L + 1, &pad, 0 };
	ok = range_checks_pad(&ap, nargs, 46 + 3 * L + P * (4 + L), rd, reads ? 2 : 0,
			      (unsigned)(cfl >> 16) & 0xff, (unsigned)(cfl >> 8) & 0xff, &pr);
	mp_range ra = rd[0], rb = rd[1];
	const void *const a_user = a, *const b_user = b;   /* before any copy */
	va_end(ap);
	/* a batch loop inside the rows (a depthwise convolution's channels:
	   A and B advance by a_sg / b_sg bytes per g, the sum over the
	   window's loops): batched.c, never the copies below.  Quantization
	   groups (a_sg a group's length) take mp_gemm_x8_groups */
	int batched = G > 1 && (L > 0 || P > 0 || (a_sg == 1 && b_sg == 1));
	if (ok < 0 || ((alpha != 1 || G != 1) && mode != 0))
		return fallback(NULL, MP_FB_ABI, t0);
	if (bad_step || !boxed)   /* !boxed: clip_k */
		return fallback(loc, MP_FB_LAYOUT, t0);

	if (!ok)
		return fallback(loc, MP_FB_OVERLAP, t0);
	if (disabled())
		return fallback(loc, MP_FB_DISABLED, t0);
	if (mp_par_tail_too_wide())
		return fallback(loc, MP_FB_OMP, t0);
	if (za != (int32_t)za || zb != (int32_t)zb)
		return fallback(loc, MP_FB_LAYOUT, t0);
	/* padding puts A's zero point (or a select's other value) in A's
	   place: it must be one of A's values */
	if (P > 0 && (a_dt == MP_DT_U8 ? (pv < 0 || pv > 255) : (pv < -128 || pv > 127)))
		return fallback(loc, MP_FB_LAYOUT, t0);
	mp_kernel kern = pick_kernel(target);
	if (kern == MP_KERNEL_NONE)
		return fallback(loc, MP_FB_NO_KERNEL, t0);
	/* the int32 bound of the contraction sum */
	__int128 bound = terms * max_abs_minus((int)a_dt, za) * max_abs_minus((int)b_dt, zb);
	if (bound > INT32_MAX)
		return fallback(loc, MP_FB_INT32_BOUND, t0);
	/* a second row loop (DIRECT, FUSED): when the output (and the bias)
	   chain, its M2 blocks of M rows are one block of M*M2 rows, A's rows
	   read in place if they chain too, else copied (stage.c); otherwise
	   one contraction per block */
	long nblk = M2 > 0 && M > 0 ? M2 : 1, Mblk = M;
	int rows2 = 0, merged = 0;
	/* DIRECT and FUSED write the outputs in their own order (and over
	   threads): the elements must be disjoint.  The core proves the
	   output injective over (i, j) with a leading dimension read as
	   the row length of a 2-D array (y[i*ldc + j] as y[i][j]), which
	   holds only when ldc covers the row: rows that overlap (ldc < N)
	   leave the loop's last write on an element, which the kernels do
	   not reproduce.  A second row loop's blocks are checked here too. */
	if (mode != 0 && M > 0 && M2 > 0 && N > 0 &&
	    !disjoint_rows(M, c_si, N, c_sj, has_rows2 ? M2 : 1, has_rows2 ? c_s2 : 0,
			   mode == 2 && ep.out_dt != MP_DT_S32 ? 1 : 4))
		return fallback(loc, MP_FB_LAYOUT, t0);
	if (nblk > 1 && c_s2 == M * c_si && (!ep.bias || bias_s2 == M * bias_si) &&
	    M <= LONG_MAX / nblk) {
		if (a_s2 != M * a_si)
			rows2 = 1;
		M *= nblk;
		nblk = 1;
		merged = 1;
	}
	/* TILE with a second row loop (a convolution's image rows, its
	   epilogue run as written): the merge above (the tile's c_s2 and c_si
	   are 0) made the M2 blocks one block of M*M2 rows, T[(i2*M + i)*N +
	   j]; A's rows copied when they do not chain.  Not with groups */
	if (mode == 0 && has_rows2 && (G != 1 || nblk > 1))
		return fallback(loc, MP_FB_LAYOUT, t0);
	/* the operands copied for one strided k (stage.c): at once in tile
	   mode; in pieces of rows below, so that a piece stays in cache.
	   Padding copies A always (the conditions need each row's i, i2:
	   m1 says how the rows of a merged block split) */
	int stage = (L > 0 || rows2 || P > 0) && !batched;
	long Kin = K;   /* k's own extent (kd[0]) */
	/* the sum's length (for the cost model and the kernels when nothing
	   is copied): below 2^31 by the bound check */
	K = (long)terms;
	/* too little work for the kernels: the loop as written (see above);
	 * A(i,k), B(k,j) contiguous in k: the compiler vectorises the loop.
	 * Groups: G sums of K each, estimated as one reduction over G*K */
	if (mp_env.small && batched) {
		/* the vector form pays from a few vectors of work on (a
		   call's cost, about 0.2 us, against a scalar loop); the
		   scalar form never does: 0.07x-0.4x of the loop as written
		   at -O3 (channel multipliers above 1, other layouts) */
		if (!mp_batched_vec(kern, N, a_sg, b_sg, (double)terms))
			return fallback(loc, MP_FB_SLOW, t0);
		if ((double)M * (double)G * (double)N * (double)terms < 4096.0)
			return fallback(loc, MP_FB_SMALL, t0);
	} else if (mp_env.small && G > 1 && N == 1 &&
		   !mp_x8_groups_vec(kern, N, K, a_sk, b_sk, za, zb, (int)a_dt, (int)b_dt)) {
		return fallback(loc, MP_FB_SLOW, t0);
	} else if (mp_env.small && too_small_i8(kern, M, N, K, G, nblk, a_si, a_sk, (int32_t)za,
						b_sk, b_sj, (int32_t)zb, P > 0 && G == 1,
						L > 0 ? Kin : 0)) {
		return fallback(loc, MP_FB_SMALL, t0);
	}

	/* tile mode: the operands copied at once, after the cost model (a
	   call that runs the loop as written copies nothing); nothing to copy
	   without rows or columns (the loop would not read A) */
	if (mode == 0 && stage && M > 0 && N > 0) {
		mp_operands o = { a, b, a_si, a_sk, b_sk, b_sj, Kin,
				  rows2 || (P > 0 && merged) ? Mblk : 0, a_s2, 0, 0,
				  P > 0 ? &pad : NULL, 0, 0, 0, 0 };
		if (mp_stage_levels(M, N, kd, (int)L + 1, 1, &o) < 0)
			return fallback(loc, MP_FB_ALLOC, t0);
		a = o.a, b = o.b, K = o.K;
		a_si = o.a_si, a_sk = o.a_sk, b_sk = o.b_sk, b_sj = o.b_sj;
		stage = 0;
	}

	if (mode == 1 || mode == 2) {
		int esz = mode == 1 || ep.out_dt == MP_DT_S32 ? 4 : 1;
		if (c_si % esz || c_sj % esz || c_s2 % esz ||
		    (mode == 2 && (bias_si % 4 || bias_sj % 4 || bias_s2 % 4)))
			return fallback(loc, MP_FB_LAYOUT, t0);
		if (M > 0 && N > 0) {
			mp_range ro = spank(c, M, c_si, nblk, c_s2, N, c_sj, NULL, 0, 0);
			ro.hi += esz - 1;
			if (K > 0 && pr.box && overlap(ro, ra))
				pad_read(&pr, &ra);
			if (K > 0 && (overlap(ro, ra) || overlap(ro, rb)))
				return fallback(loc, MP_FB_OVERLAP, t0);
			if (mode == 2 && ep.bias) {
				mp_range rbias = spank(ep.bias, M, bias_si, nblk, bias_s2, N, bias_sj,
						       NULL, 0, 0);
				rbias.hi += 3;
				if (overlap(ro, rbias))
					return fallback(loc, MP_FB_OVERLAP, t0);
			}
		}
		const int32_t *bias0 = ep.bias;
		/* rows per piece when copying: about 256 KiB of A (it stays in
		   cache for the packer), at least 4N rows (B is packed once per
		   piece: its packing is then at most a fourth of A's) */
		long piece = M;
		if (stage && K > 0) {
			piece = (256L << 10) / K;
			piece = piece < 4 * N ? 4 * N : piece;
			piece = (piece + 95) / 96 * 96;
		}
		/* B (copied by the first piece when its loops do not chain) is the
		   same for every piece and block */
		const void *bb = b;
		ptrdiff_t bsk = b_sk, bsj = b_sj;
		int b_ready = 0;
		for (long blk = 0; blk < nblk && M > 0 && N > 0; blk++)
			for (long r0 = 0; r0 < M; r0 += piece) {
				long rows = M - r0 < piece ? M - r0 : piece, Kb = K;
				const void *ab = (const int8_t *)a + blk * a_s2 + r0 * a_si;
				ptrdiff_t asi = a_si, ask = a_sk;
				char *cb = (char *)c + blk * c_s2 + r0 * c_si;
				if (stage) {   /* these rows' operands, copied */
					mp_operands o = { (const int8_t *)a + blk * a_s2, bb, asi, ask,
							  bsk, bsj, Kin,
							  rows2 || (P > 0 && merged) ? Mblk : 0,
							  a_s2, r0, b_ready, P > 0 ? &pad : NULL,
							  blk, 0, 0, 0 };
					if (mp_stage_levels(rows, N, kd, (int)L + 1, 1, &o) < 0)
						return fallback(loc, MP_FB_ALLOC, t0);
					ab = o.a, bb = o.b, Kb = o.K;
					asi = o.a_si, ask = o.a_sk, bsk = o.b_sk, bsj = o.b_sj;
					b_ready = 1;
				}
				if (mode == 2) {
					ep.out = cb;
					ep.out_si = c_si / esz;
					ep.out_sj = c_sj / esz;
					ep.bias = bias0 ? (const int32_t *)((const char *)bias0 +
									    blk * bias_s2 +
									    r0 * bias_si)
							: NULL;
					ep.bias_si = bias_si / 4;
					ep.bias_sj = bias_sj / 4;
				}
				/* constant= operands as the user's arrays (not
				   copies, A whole) are packed once */
				int cf = (cflags & MP_X8_CONST_B) && bb == b_user ? MP_X8_CONST_B : 0;
				if ((cflags & MP_X8_CONST_A) && !stage && nblk == 1 && rows == M)
					cf |= MP_X8_CONST_A;
				mp_gemm_args ga = {rows, N, Kb, ab, (int)a_dt, asi, ask, (int32_t)za,
						   bb, (int)b_dt, bsk, bsj, (int32_t)zb,
						   mode == 2 ? NULL : (int32_t *)cb, c_si / 4, c_sj / 4,
						   1, mode == 2 ? &ep : NULL, NULL, NULL};
				if (cf)
					mp_gemm_x8_const(kern, cf, &ga);
				else if (mode == 2)
					mp_gemm_x8_epi(kern, rows, N, Kb, ab, (int)a_dt, asi, ask,
						       (int32_t)za, bb, (int)b_dt, bsk, bsj, (int32_t)zb,
						       &ep);
				else
					mp_gemm_x8(kern, rows, N, Kb, ab, (int)a_dt, asi, ask,
						   (int32_t)za, bb, (int)b_dt, bsk, bsj, (int32_t)zb,
						   (int32_t *)cb, c_si / 4, c_sj / 4, 1);
			}
		ran(loc, kern, t0);
		return &mp_direct_token;
	}

	/* T[(i*G + g)*N + j]: G * N cells per row */
	size_t gn = (size_t)(G > 0 ? G : 1) * (size_t)(N > 0 ? N : 1);
	size_t cells = (size_t)(M > 0 ? M : 1) * gn;
	if ((G > 0 && N > 0 && gn / (size_t)G != (size_t)N) ||
	    (M > 0 && cells / (size_t)M != gn) || cells > SIZE_MAX / 8)
		return fallback(loc, MP_FB_ALLOC, t0);
	size_t bytes = (cells * 4 + 63) & ~(size_t)63;
	int32_t *t = mp_tile_take(bytes);
	if (!t)
		return fallback(loc, MP_FB_ALLOC, t0);
	int cf = ((cflags & MP_X8_CONST_A) && a == a_user ? MP_X8_CONST_A : 0) |
		 ((cflags & MP_X8_CONST_B) && b == b_user ? MP_X8_CONST_B : 0);
	if (M > 0 && N > 0 && G == 1 && cf) {
		mp_gemm_args ga = {M, N, K, a, (int)a_dt, a_si, a_sk, (int32_t)za,
				   b, (int)b_dt, b_sk, b_sj, (int32_t)zb, t, N, 1, 0, NULL, NULL, NULL};
		mp_gemm_x8_const(kern, cf, &ga);
	} else if (M > 0 && N > 0 && G == 1)
		mp_gemm_x8(kern, M, N, K, a, (int)a_dt, a_si, a_sk, (int32_t)za,
			   b, (int)b_dt, b_sk, b_sj, (int32_t)zb, t, N, 1, 0);
	else if (M > 0 && N > 0 && G > 1 && batched) {
		mp_batched_args x = {M, N, G, (int)L + 1, {{0, 0, 0}}, a, (int)a_dt, a_si, a_sg,
				     (int32_t)za, b, (int)b_dt, b_sj, b_sg, (int32_t)zb,
				     P > 0 ? &pad : NULL, t, 0};
		memcpy(x.kd, kd, sizeof(mp_kdim) * (size_t)(L + 1));
		mp_gemm_x8_batched(kern, &x);
	} else if (M > 0 && N > 0 && G > 1)
		mp_gemm_x8_groups(kern, M, N, K, G, a, (int)a_dt, a_si, a_sk, a_sg, (int32_t)za,
				  b, (int)b_dt, b_sk, b_sj, b_sg, (int32_t)zb, t);
	if (alpha != 1)   /* sum of alpha*a*b in int32 = alpha*sum, mod 2^32 */
		for (size_t e = 0; M > 0 && N > 0 && e < cells; e++)
			t[e] = (int32_t)((uint32_t)t[e] * alpha);
	ran(loc, kern, t0);
	return t;
}

/* ------------------------------------------------- verify mode */

/* Which calls are verified: the pragma's verify clause (flag 1) verifies
 * the first call of its nest; MIXPREC_VERIFY=1 the first call of every
 * floating-point nest, =all every call, =0 none (even with the clause). */
static int verify_wanted(long flags, const char *loc)
{
	static const char *seen[1024];
	static int nseen;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	int want = 0;

	mp_env_get();
	if (mp_env.verify == 1)
		return 0;
	if (mp_env.verify == 2)
		return 1;
	if (!(flags & 1) && mp_env.verify == 0)
		return 0;
	pthread_mutex_lock(&lock);
	want = 1;
	for (int i = 0; i < nseen; i++)
		if (seen[i] == loc)
			want = 0;
	if (want && nseen < (int)(sizeof seen / sizeof seen[0]))
		seen[nseen++] = loc;
	pthread_mutex_unlock(&lock);
	return want;
}

static const char *lp_name(long lp)
{
	static const char *const names[] = { "int8", "uint8", "bf16", "fp8_e4m3", "fp8_e5m2" };
	return lp >= 0 && lp < 5 ? names[lp] : "?";
}

/* Compare out(i,j) (o_si, o_sj elements) with the exact value
 * (accumulate ? old(i,j) : 0) + alpha sum_k A B (long double) and the
 * documented bound, report on stderr.  Returns 1 when every element is
 * within its bound. */
static int lp_verify1(const char *loc, long lp, int dbl, long M, long N, long K,
		      const void *a, long a_si, long a_sk, const void *b, long b_sk, long b_sj,
		      const void *out, long o_si, long o_sj, const void *old, int accumulate,
		      const mp_lp_scales *sc, double alpha);

/* The operand minus its zero point, as the source computes it (one
 * subtraction in the source type), into a new contiguous rows x cols
 * array; NULL when out of memory. */
static void *offset_copy(int dbl, const void *p, long rows, long cols, long s_r, long s_c,
			 double z)
{
	size_t es = dbl ? 8 : 4;
	void *q = malloc(es * (size_t)(rows * cols + 1));
	if (!q)
		return NULL;
	for (long r = 0; r < rows; r++)
		for (long c = 0; c < cols; c++) {
			long o = r * s_r + c * s_c;
			if (dbl)
				((double *)q)[r * cols + c] = ((const double *)p)[o] - z;
			else
				((float *)q)[r * cols + c] = ((const float *)p)[o] - (float)z;
		}
	return q;
}

/* With zero points the contraction is over A' = A - za and B' = B - zb
 * (error-bounds.md): the comparison runs on copies of A' and B'. */
static int lp_verify(const char *loc, long lp, int dbl, long M, long N, long K,
		     const void *a, long a_si, long a_sk, const void *b, long b_sk, long b_sj,
		     const void *out, long o_si, long o_sj, const void *old, int accumulate,
		     const mp_lp_scales *sc, double alpha, double za, double zb)
{
	if (za == 0 && zb == 0)
		return lp_verify1(loc, lp, dbl, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, out, o_si,
				  o_sj, old, accumulate, sc, alpha);
	void *a2 = offset_copy(dbl, a, M, K, a_si, a_sk, za);
	void *b2 = offset_copy(dbl, b, K, N, b_sk, b_sj, zb);
	int r = 1;
	if (a2 && b2)
		r = lp_verify1(loc, lp, dbl, M, N, K, a2, K, 1, b2, N, 1, out, o_si, o_sj, old,
			       accumulate, sc, alpha);
	free(a2);
	free(b2);
	return r;
}

static int lp_verify1(const char *loc, long lp, int dbl, long M, long N, long K,
		      const void *a, long a_si, long a_sk, const void *b, long b_sk, long b_sj,
		      const void *out, long o_si, long o_sj, const void *old, int accumulate,
		      const mp_lp_scales *sc, double alpha)
{
	double *sa = malloc(sizeof(double) * (size_t)(M + 1));
	double *za = malloc(sizeof(double) * (size_t)(M + 1));
	double *sb = malloc(sizeof(double) * (size_t)(N + 1));
	double worst = 0, maxerr = 0, maxref = 0;
	long bad = 0, wi = 0, wj = 0;
	size_t es = dbl ? 8 : 4;

	if (!sa || !za || !sb ||
	    mp_lp_steps_ex((mp_lp)lp, dbl, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, sc,
			   sa, za, sb) != 0) {
		free(sa), free(za), free(sb);
		return 1;   /* nothing to compare: the call itself refused */
	}
#define EL(p, o) (dbl ? (long double)((const double *)(p))[o] : (long double)((const float *)(p))[o])
	for (long i = 0; i < M; i++)
		for (long j = 0; j < N; j++) {
			long double acc = 0;
			for (long k = 0; k < K; k++)
				acc += EL(a, i * a_si + k * a_sk) * EL(b, k * b_sk + j * b_sj);
			double c_old = accumulate ? (double)EL(old, i * o_si + j * o_sj) : 0.0;
			long double exact = (long double)c_old + (long double)alpha * acc;
			double got = (double)EL(out, i * o_si + j * o_sj);
			double err = (double)fabsl((long double)got - exact);
			double bound = mp_lp_error_bound_ex((mp_lp)lp, dbl, K,
					(const char *)a + (size_t)(i * a_si) * es, a_sk,
					(const char *)b + (size_t)(j * b_sj) * es, b_sk,
					sa[i], za[i], sb[j], c_old, accumulate, alpha);
			double r = err == 0 ? 0 : bound > 0 ? err / bound : INFINITY;
			if (!(err <= bound)) {
				bad++;
				r = isnan(err) ? INFINITY : r;
			}
			if (r > worst || (bad == 1 && !(err <= bound))) {
				worst = r;
				wi = i;
				wj = j;
			}
			maxerr = err > maxerr ? err : maxerr;
			maxref = fabsl(exact) > maxref ? (double)fabsl(exact) : maxref;
		}
#undef EL
	free(sa), free(za), free(sb);
	fprintf(stderr,
		"mixprec: verify %s: %s, %ldx%ldx%ld: max |err| %.3g (max |exact| %.3g), "
		"worst |err|/bound %.3g at (%ld, %ld): %s\n",
		loc ? loc : "(nest)", lp_name(lp), M, N, K, maxerr, maxref, worst, wi, wj,
		bad ? "EXCEEDS the documented bound; the original loop runs instead"
		    : "within the documented bound");
	mp_stats_note_verify(worst, bad != 0);
	return bad == 0;
}

/* One operand's explicit scale from the argument list: mode 1 (one value)
 * or 2 (per channel, float or double array of n) into a float array of
 * the runtime (*s, stride *ss).  Returns 0, or -1 (unusable: the original
 * loop runs). */
static int lp_scale(long mode, long bits, const void *ptr, long dt, long n, float *one,
		    float **conv, const float **s, ptrdiff_t *ss)
{
	*conv = NULL;
	if (mode == 0) {
		*s = NULL;
		*ss = 0;
		return 0;
	}
	if (mode == 1) {
		double v;
		uint64_t u = (uint64_t)bits;
		memcpy(&v, &u, sizeof v);
		*one = (float)v;
		*s = one;
		*ss = 0;
		return 0;
	}
	if (mode != 2 || !ptr)
		return -1;
	if (dt == 0) {
		*s = ptr;
		*ss = 1;
		return 0;
	}
	*conv = malloc(sizeof(float) * (size_t)(n + 1));
	if (!*conv)
		return -1;
	for (long r = 0; r < n; r++)
		(*conv)[r] = (float)((const double *)ptr)[r];
	*s = *conv;
	*ss = 1;
	return 0;
}

void *__mixprec_lp_nest(long abi, long nargs, ...)
{
	va_list ap;
	int ok;
	double t0 = call_start();
	const double tp = mp_stats_now();   /* (cheap: the profile's time) */

	if (abi != MP_NEST_ABI || nargs < 40)
		return fallback(NULL, MP_FB_ABI, t0);
	va_start(ap, nargs);
	long mode = va_arg(ap, long), target = va_arg(ap, long);
	long lp = va_arg(ap, long), is_double = va_arg(ap, long);
	long M = va_arg(ap, long), N = va_arg(ap, long), K = va_arg(ap, long);
	const void *a = va_arg(ap, const void *);
	long a_si = va_arg(ap, long), a_sk = va_arg(ap, long);
	const void *b = va_arg(ap, const void *);
	long b_sk = va_arg(ap, long), b_sj = va_arg(ap, long);
	void *c = va_arg(ap, void *);
	long c_si = va_arg(ap, long), c_sj = va_arg(ap, long);
	uint64_t alpha_bits = (uint64_t)va_arg(ap, long);
	uint64_t za_bits = (uint64_t)va_arg(ap, long);
	long za_sign = va_arg(ap, long);
	uint64_t zb_bits = (uint64_t)va_arg(ap, long);
	long zb_sign = va_arg(ap, long);
	long sa_mode = va_arg(ap, long), sa_bits = va_arg(ap, long);
	const void *sa_ptr = va_arg(ap, const void *);
	long sa_dt = va_arg(ap, long);
	long sb_mode = va_arg(ap, long), sb_bits = va_arg(ap, long);
	const void *sb_ptr = va_arg(ap, const void *);
	long sb_dt = va_arg(ap, long);
	long flags = va_arg(ap, long);
	const char *loc = va_arg(ap, const char *);
	long esz = is_double ? 8 : 4;
	double alpha, za, zb;
	memcpy(&alpha, &alpha_bits, sizeof alpha);
	memcpy(&za, &za_bits, sizeof za);
	memcpy(&zb, &zb_bits, sizeof zb);
	za = za_sign < 0 ? -za : za;   /* operand + z is operand - (-z) */
	zb = zb_sign < 0 ? -zb : zb;
	M = M < 0 ? 0 : M;
	N = N < 0 ? 0 : N;
	K = K < 0 ? 0 : K;
	/* summed reduction loops and padding, as __mixprec_i8_nest's */
	long L = va_arg(ap, long);
	mp_kdim kd[MP_MAX_KDIMS];
	if (L < 0 || L > MP_MAX_KDIMS - 1 || nargs < 40 + 3 * L) {
		va_end(ap);
		return fallback(NULL, MP_FB_ABI, t0);
	}
	kd[0].n = K, kd[0].a = a_sk, kd[0].b = b_sk;
	read_levels(&ap, L, kd);
	/* a second row loop (a convolution's image rows): M2 blocks of M rows */
	long M2 = va_arg(ap, long), a_s2 = va_arg(ap, long), c_s2 = va_arg(ap, long);
	long P = va_arg(ap, long), pv_kind = va_arg(ap, long), pv = va_arg(ap, long);
	mp_pad pad;
	if (P < 0 || P > MP_MAX_PAD || nargs < 40 + 3 * L + P * (4 + L)) {
		va_end(ap);
		return fallback(NULL, MP_FB_ABI, t0);
	}
	memset(pad.pad, 0, sizeof pad.pad);   /* the rest: read_pad, per condition */
	{   /* A's zero point (a term of 0), or a select's other value */
		double pd = pv_kind ? (double)pv : za;
		if (is_double)
			memcpy(pad.pad, &pd, sizeof pd);
		else {
			float zf = (float)pd;
			memcpy(pad.pad, &zf, sizeof zf);
		}
	}
	read_pad(&ap, P, L, &pad);
	int boxed = clip_k(&pad, L, pv_kind, kd, M, M2 >= 0 ? M2 : 1, &a, &b);
	K = kd[0].n;
	int has_rows2 = M2 >= 0;
	M2 = has_rows2 ? M2 : 1;
	if (M2 == 0)   /* the second row loop does not run: no rows */
		M = 0;

	mp_range rd[4];
	int nrd = 2;
	rd[0] = spank(a, M, a_si, M2, a_s2, 1, 0, kd, (int)L + 1, 0);
	/* padded: the box first, the bytes read where it meets a range
	   written (as __mixprec_i8_nest's) */
	mp_pad_read pr = { P > 0 && rd[0].lo <= rd[0].hi, a, M, a_si, M2, a_s2, kd, (int)L + 1,
			   &pad, esz - 1 };
	rd[1] = spank(b, N, b_sj, 1, 0, 1, 0, kd, (int)L + 1, 1);
	for (int r = 0; r < 2; r++)
		if (rd[r].lo <= rd[r].hi)
			rd[r].hi += esz - 1;
	if (sa_mode == 2 && sa_ptr && M > 0)   /* (per row of i: no second row loop) */
		rd[nrd++] = span(sa_ptr, M, sa_dt ? 8 : 4, 1, 0, sa_dt ? 8 : 4);
	if (sb_mode == 2 && sb_ptr && N > 0)
		rd[nrd++] = span(sb_ptr, N, sb_dt ? 8 : 4, 1, 0, sb_dt ? 8 : 4);
	int reads = M > 0 && N > 0 && K > 0;
	for (long l = 1; l <= L; l++)
		reads &= kd[l].n > 0;
	ok = range_checks_pad(&ap, nargs, 40 + 3 * L + P * (4 + L), rd, reads ? nrd : 0,
			      (unsigned)(flags >> 24) & 0xff, (unsigned)(flags >> 16) & 0xff, &pr);
	va_end(ap);
	if (ok < 0 || (mode != 0 && mode != 1))
		return fallback(ok < 0 ? NULL : loc, MP_FB_ABI, t0);
	if (!boxed)   /* clip_k */
		return fallback(loc, MP_FB_LAYOUT, t0);
	if (!ok)
		return fallback(loc, MP_FB_OVERLAP, t0);
	if (disabled())
		return fallback(loc, MP_FB_DISABLED, t0);
	if (flags & 8) {   /* an auto nest: MIXPREC_AUTO_FORCE (profile.c) */
		int f = mp_auto_forced(loc, flags);
		if (f == -1)
			return fallback(loc, MP_FB_AUTO_SOURCE, t0);
		if (f >= 0)
			lp = f;
	}
	if (mp_par_tail_too_wide())
		return fallback(loc, MP_FB_OMP, t0);
	if (a_si % esz || a_sk % esz || b_sk % esz || b_sj % esz ||
	    c_si % esz || c_sj % esz || a_s2 % esz || c_s2 % esz)
		return fallback(loc, MP_FB_LAYOUT, t0);
	/* DIRECT adds into C in the kernels' order, over threads: C's
	   elements disjoint (the leading dimension covers the row, as the
	   integer entry point checks; a second row loop's blocks too) */
	if (mode == 1 && M > 0 && N > 0 &&
	    !disjoint_rows(M, c_si, N, c_sj, M2, has_rows2 ? c_s2 : 0, esz))
		return fallback(loc, MP_FB_LAYOUT, t0);
	/* a second row loop: its M2 blocks of M rows are one block of M*M2
	   rows, the output's rows chaining (TILE: T[(i2*M + i)*N + j]; DIRECT:
	   c_s2 == M*c_si, else the loop as written); A's rows read in place
	   when they chain too, else copied below (stage.c) */
	long Mblk = M;
	int rows2 = 0;
	if (has_rows2 && M2 > 1 && M > 0) {
		if ((mode == 1 && c_s2 != M * c_si) || M > LONG_MAX / M2 ||
		    sa_mode == 2)   /* (A's scales per row of i) */
			return fallback(loc, MP_FB_LAYOUT, t0);
		rows2 = a_s2 != M * a_si;
		M *= M2;
	}
	mp_kernel kern = pick_kernel(target);
	if (kern == MP_KERNEL_NONE)
		return fallback(loc, MP_FB_NO_KERNEL, t0);
	/* summed reduction loops or padding: the operands as one strided k,
	   copied where they do not chain or are padded (stage.c, in the
	   source type: a padded element is A's zero point, its term 0) */
	int stage = L > 0 || P > 0 || rows2;
	mp_operands o = { a, b, a_si, a_sk, b_sk, b_sj, K,
			  rows2 || (P > 0 && has_rows2 && M2 > 1) ? Mblk : 0, a_s2, 0, 0,
			  P > 0 ? &pad : NULL, 0, 0, 0, 0 };
	/* the cost model sees the operands as the copies below will leave
	   them (a dry run: nothing is copied for a call that runs the loop),
	   and the copies' cost */
	mp_operands d = o;   /* (without stage: the operands as they are) */
	d.dry = 1;
	if (stage && mp_stage_levels(M, N, kd, (int)L + 1, (size_t)esz, &d) < 0)
		return fallback(loc, MP_FB_ALLOC, t0);
	long dK = d.K, d_asi = d.a_si, d_ask = d.a_sk, d_bsk = d.b_sk, d_bsj = d.b_sj;
	/* a copy is not the user's constant array (a padded A is copied) */
	long dflags = flags & ~(d.runs_a > 0 || P > 0 ? 2L : 0) & ~(d.runs_b > 0 ? 4L : 0);
	double stage_ns = stage_cost(lp, d.runs_a + d.runs_b,
				     (double)(d.runs_a ? M : 0) * (double)dK +
					     (double)(d.runs_b ? N : 0) * (double)dK);
	/* too little work for the kernels (the cost model above); an operand
	 * declared constant= is not quantized again.  A matrix-vector product
	 * whose matrix is not constant= does not pay where the packers convert
	 * element by element: the loop reads each element once for one
	 * multiply-add, the kernels read it, convert it and read it again
	 * (measured: a 128 x 128 double matrix-vector product at bf16,
	 * PolyBench's doitgen per (r, q), 74 us per call against the loop's
	 * 6.4 us; float at int8 over a 512 x 512 matrix's columns before
	 * that layout's vector packer, 5.2 ms against 0.35 ms); the loop runs,
	 * whatever the size.  Where both operands are packed with vector
	 * loads (mp_lp_vector_packs: float on the AVX-512 families, at int8,
	 * uint8, bf16, fp8) the cost model decides: the loop as
	 * written is a float sum the compiler does not vectorize (its order
	 * is kept), and the kernels win from a few thousand terms (PolyBench's
	 * mvt 0.9x -> 2.4x, doitgen 1.1x -> 2.7x, gesummv 1.0x -> 3.9x in
	 * bench_polybench) */
	int mv_b = M == 1 && N > 1 && !(dflags & 4), mv_a = N == 1 && M > 1 && !(dflags & 2);
	/* the matrix's bytes, and whether the loop as written reads it along
	   its rows (the sum's loop over contiguous elements): beyond the
	   cache the loop then streams it once, the kernels read, write and
	   read it again (float at bf16, one thread, on a machine running
	   other work: 4096 x 4096 13.6 ms on the kernels, 9.6 ms as written;
	   2048 x 2048 2.3-3.1 ms, 2.4-2.5 ms; 1024 x 1024 0.31 ms, 0.57 ms) */
	double mv_bytes = (double)(mv_b ? N : M) * (double)dK * (double)esz;
	int mv_stream = mv_b ? d_bsk == esz : d_ask == esz;
	if (mp_env.small &&
	    (((mv_a || mv_b) &&
	      (!mp_lp_vector_packs(kern, lp, is_double, d_asi / esz, d_ask / esz, d_bsk / esz,
				   d_bsj / esz) ||
	       (mv_stream && mv_bytes > 8.0 * 1024 * 1024))) ||
	     too_small_lp(kern, lp, M, N, dK, d_asi, d_ask, d_bsk, d_bsj, esz, !(dflags & 2),
			  !(dflags & 4), P > 0 ? M : 0, stage_ns)))
		return fallback(loc, MP_FB_SMALL, t0);
	if (stage) {
		if (mp_stage_levels(M, N, kd, (int)L + 1, (size_t)esz, &o) < 0)
			return fallback(loc, MP_FB_ALLOC, t0);
		if (o.a != a)   /* a copy is not the user's constant array */
			flags &= ~2L;
		if (o.b != b)
			flags &= ~4L;
		a = o.a, b = o.b, K = o.K;
		a_si = o.a_si, a_sk = o.a_sk, b_sk = o.b_sk, b_sj = o.b_sj;
	}

	/* the scales: dynamic, or the pragma's explicit ones */
	mp_lp_scales sc;
	float one_a, one_b, *conv_a = NULL, *conv_b = NULL;
	memset(&sc, 0, sizeof sc);
	sc.dynamic = sa_mode == 0 && sb_mode == 0;
	if (lp_scale(sa_mode, sa_bits, sa_ptr, sa_dt, M, &one_a, &conv_a, &sc.a_scale,
		     &sc.a_scale_s) ||
	    lp_scale(sb_mode, sb_bits, sb_ptr, sb_dt, N, &one_b, &conv_b, &sc.b_scale,
		     &sc.b_scale_s)) {
		free(conv_a), free(conv_b);
		return fallback(loc, MP_FB_VALUES, t0);
	}
	mp_lp_opts opt;
	memset(&opt, 0, sizeof opt);
	opt.alpha = alpha;
	opt.a_zero = za;
	opt.b_zero = zb;
	/* the pragma's constant=: A / B packed once (lp_cache.c) */
	opt.flags = (flags & 2 ? MP_LP_CONST_A : 0) | (flags & 4 ? MP_LP_CONST_B : 0);
	a_si /= esz, a_sk /= esz, b_sk /= esz, b_sj /= esz;
	int verify = M > 0 && N > 0 && verify_wanted(flags, loc);
	void *ret = NULL;
	mp_fallback why = MP_FB_VALUES;   /* of a NULL ret */

	if (mode == 1) {
		ret = &mp_direct_token;
		if (M > 0 && N > 0) {
			mp_range rc = span(c, M, c_si, N, c_sj, esz);
			void *old = NULL;
			ret = NULL;
			if (K > 0 && pr.box && overlap(rc, rd[0]))   /* as __mixprec_i8_nest's */
				pad_read(&pr, &rd[0]);
			for (int r = 0; K > 0 && r < nrd; r++)
				if (overlap(rc, rd[r])) {
					why = MP_FB_OVERLAP;
					goto out;
				}
			/* C's old value within a factor 2 of the type's largest:
			   the loop's partial sums C + a*b + ... can overflow to
			   infinity where one addition of the sum (below 2^126,
			   mp_lp_prepare's range check) would not */
			if (K > 0 && c_near_max(c, M, c_si, N, c_sj, is_double != 0))
				goto out;   /* why: MP_FB_VALUES */
			if (verify) {
				/* keep C as it was: the exact value and the fallback need it */
				old = malloc((size_t)(rc.hi - rc.lo + 1));
				if (!old) {
					why = MP_FB_ALLOC;
					goto out;
				}
				memcpy(old, (void *)rc.lo, (size_t)(rc.hi - rc.lo + 1));
			}
			if (mp_gemm_lp_ex(kern, (mp_lp)lp, is_double != 0, M, N, K,
					  a, a_si, a_sk, b, b_sk, b_sj,
					  c, c_si / esz, c_sj / esz, 1, &sc, &opt) == 0) {
				ret = &mp_direct_token;
				if (verify) {
					const char *o = (const char *)old + ((intptr_t)c - rc.lo);
					if (!lp_verify(loc, lp, is_double != 0, M, N, K, a, a_si, a_sk,
						       b, b_sk, b_sj, c, c_si / esz, c_sj / esz, o, 1,
						       &sc, alpha, za, zb)) {
						memcpy((void *)rc.lo, old, (size_t)(rc.hi - rc.lo + 1));
						ret = NULL;
						why = MP_FB_VERIFY;
					}
				}
			}
			free(old);
		}
		goto out;
	}

	size_t cells = (size_t)(M > 0 ? M : 1) * (size_t)(N > 0 ? N : 1);
	why = MP_FB_ALLOC;
	if ((M > 0 && N > 0 && cells / (size_t)M != (size_t)N) || cells > SIZE_MAX / 8 - 64)
		goto out;
	size_t bytes = (cells * (size_t)esz + 63) & ~(size_t)63;
	void *t = mp_tile_take(bytes);
	if (!t)
		goto out;
	why = MP_FB_VALUES;
	if (M > 0 && N > 0 &&
	    (mp_gemm_lp_ex(kern, (mp_lp)lp, is_double != 0, M, N, K, a, a_si, a_sk,
			   b, b_sk, b_sj, t, N, 1, 0, &sc, &opt) != 0 ||
	     (verify && (why = MP_FB_VERIFY) &&
	      !lp_verify(loc, lp, is_double != 0, M, N, K, a, a_si, a_sk, b, b_sk,
			 b_sj, t, N, 1, NULL, 0, &sc, alpha, za, zb)))) {
		mp_tile_give(t);
		goto out;
	}
	ret = t;
out:
	free(conv_a);
	free(conv_b);
	if (!ret)
		return fallback(loc, why, t0);
	ran(loc, kern, t0);
	/* MIXPREC_PROFILE: an auto nest's call, and on sampled calls every
	   candidate on these operands (profile.c) */
	if ((flags & 8) && mp_profile_on())
		mp_profile_call(loc, flags, mp_stats_now() - tp, (int)kern, is_double != 0, M, N, K,
				a, a_si, a_sk, b, b_sk, b_sj, &opt);
	return ret;
}

void __mixprec_release(void *tile)
{
	if (tile && tile != (void *)&mp_direct_token)
		mp_tile_give(tile);
}

/* Called in place of a reduction loop k that encloses the rest of the
 * nest (ikj order): C(a,b) += T[t_off + a*t_si + b*t_sj] for a < ni, b < nj,
 * C(a,b) at c + a*c_si + b*c_sj bytes.  Arguments after (abi, nargs):
 * tile, t_off, t_si, t_sj, c, c_si, c_sj, ni, nj, dt, where dt & 3 is the
 * element type of the tile and of C: 0 int32 (wrapping, as the integer
 * source), 1 float, 2 double (one IEEE addition per element, as the
 * source's "C += T"); dt & 4: the source subtracts ("C -= a*b"), and C
 * gets C - T (wrapping; for floats one IEEE subtraction, which is the
 * addition of -T exactly). */
void *__mixprec_tile_add(long abi, long nargs, ...)
{
	va_list ap;
	if (abi != MP_NEST_ABI || nargs != 10)
		abort();   /* generated code and runtime disagree: never guess */
	va_start(ap, nargs);
	const char *t = va_arg(ap, const char *);
	long t_off = va_arg(ap, long), t_si = va_arg(ap, long), t_sj = va_arg(ap, long);
	char *c = va_arg(ap, char *);
	long c_si = va_arg(ap, long), c_sj = va_arg(ap, long);
	long ni = va_arg(ap, long), nj = va_arg(ap, long), dt = va_arg(ap, long);
	va_end(ap);
	int sub = (dt & 4) != 0;
	dt &= 3;
	for (long a = 0; a < ni; a++)
		for (long b = 0; b < nj; b++) {
			long ti = t_off + a * t_si + b * t_sj;
			char *p = c + a * c_si + b * c_sj;
			if (dt == 1)
				*(float *)p = sub ? *(float *)p - ((const float *)t)[ti]
						  : *(float *)p + ((const float *)t)[ti];
			else if (dt == 2)
				*(double *)p = sub ? *(double *)p - ((const double *)t)[ti]
						   : *(double *)p + ((const double *)t)[ti];
			else if (sub)
				*(uint32_t *)p -= (uint32_t)((const int32_t *)t)[ti];
			else
				*(uint32_t *)p += (uint32_t)((const int32_t *)t)[ti];
		}
	return NULL;
}
