/* nest.c -- the entry points of plugin-generated code.
 *
 * For every transformed nest the plugin emits, on the nest's entry edge,
 *
 *   tile = __mixprec_i8_nest(MP_NEST_ABI, nargs,
 *            mode,                        0: TILE, 1: DIRECT, 2: FUSED
 *            target,                      the pragma's target= (mp_target of
 *                                         polyhedral/mp_nest.h; 0 = auto)
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
 *            lp,                          mp_lp: 0 int8, 2 bf16, 3 fp8_e4m3,
 *                                         4 fp8_e5m2 (dynamic scales)
 *            is_double,                   0: float A, B (and C / tile),
 *                                         1: double
 *            M, N, K,                     extents of loops i, j, k (>= 0)
 *            a, a_si, a_sk,               A(i,k) at a + i*a_si + k*a_sk (BYTES)
 *            b, b_sk, b_sj,               B(k,j) at b + k*b_sk + j*b_sj (BYTES)
 *            c, c_si, c_sj,               DIRECT: C(i,j) at c + i*c_si + j*c_sj
 *                                         (BYTES); TILE: NULL, 0, 0
 *            ncheck, {lo, hi} x ncheck,   as above
 *            nprot, {lo, hi} x nprot)
 *
 * It returns NULL when the original loop must run, otherwise
 *   TILE:   a float (double) tile T[i*N + j] = S(i,j), mp_gemm_lp's
 *           contraction at precision lp, freed by __mixprec_release;
 *   DIRECT: a non-NULL token after C(i,j) += S(i,j) was done.
 * Run-time checks: MIXPREC_DISABLE, the kernel (MIXPREC_TARGET / target=),
 * the overlap checks, strides that are not multiples of the element size,
 * the allocation, as above (no int32 bound), and mp_gemm_lp returning -1
 * (a NaN or infinite input, or a result that could overflow): the
 * original loop runs then, with the exact IEEE semantics of the source.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"
#include "mp_runtime.h"

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

static int disabled(void)
{
	const char *e = getenv("MIXPREC_DISABLE");
	return e && *e && strcmp(e, "0") != 0;
}

static void *fallback(void)
{
	mp_stats_note(0, -1);
	return NULL;
}

/* The overlap checks that end both argument lists: ncheck written ranges
 * (each must miss ra and rb when the contraction reads anything), then
 * nprot protected ranges (each must miss every written range).  FIXED is
 * the number of arguments besides the 2*ncheck + 2*nprot range bounds.
 * Returns -1 when the list is malformed, 0 when a check fails, 1. */
static int range_checks(va_list *ap, long nargs, long fixed, mp_range ra, mp_range rb,
			int reads)
{
	mp_range w[MP_MAX_CHECKS];
	long ncheck = va_arg(*ap, long), i;
	int ok = 1;

	if (ncheck < 0 || ncheck > MP_MAX_CHECKS || nargs < fixed + 2 * ncheck)
		return -1;
	for (i = 0; i < ncheck; i++) {
		w[i].lo = (intptr_t)va_arg(*ap, long);
		w[i].hi = (intptr_t)va_arg(*ap, long);
		if (reads && w[i].lo <= w[i].hi && (overlap(w[i], ra) || overlap(w[i], rb)))
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
 * 3 avx512vnni); MIXPREC_TARGET wins.  MP_KERNEL_NONE: none usable. */
static mp_kernel pick_kernel(long target)
{
	mp_kernel kern = mp_kernel_select();
	if (!getenv("MIXPREC_TARGET") && target != 0) {
		kern = target == 1 ? MP_KERNEL_SCALAR : target == 2 ? MP_KERNEL_AVX2
		     : target == 3 ? MP_KERNEL_AVX512VNNI : MP_KERNEL_NONE;
		if (kern != MP_KERNEL_NONE && !mp_kernel_available(kern))
			kern = MP_KERNEL_NONE;
	}
	return kern;
}

void *__mixprec_i8_nest(long abi, long nargs, ...)
{
	va_list ap;
	int ok;

	if (abi != MP_NEST_ABI || nargs < 31)
		return fallback();
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
	mp_epilogue ep;
	memset(&ep, 0, sizeof ep);
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
	M = M < 0 ? 0 : M;
	N = N < 0 ? 0 : N;
	K = K < 0 ? 0 : K;

	mp_range ra = span(a, M, a_si, K, a_sk, 1);
	mp_range rb = span(b, K, b_sk, N, b_sj, 1);
	int reads = M > 0 && N > 0 && K > 0;
	ok = range_checks(&ap, nargs, 32, ra, rb, reads);
	va_end(ap);
	if (ok < 0)
		return fallback();

	if (!ok || disabled() || za != (int32_t)za || zb != (int32_t)zb)
		return fallback();
	mp_kernel kern = pick_kernel(target);
	if (kern == MP_KERNEL_NONE)
		return fallback();
	/* the int32 bound of the contraction sum */
	__int128 bound = (__int128)K * max_abs_minus((int)a_dt, za) * max_abs_minus((int)b_dt, zb);
	if (bound > INT32_MAX)
		return fallback();

	if (mode == 2) {
		int esz = ep.out_dt == MP_DT_S32 ? 4 : 1;
		if (c_si % esz || c_sj % esz || bias_si % 4 || bias_sj % 4)
			return fallback();
		if (M > 0 && N > 0) {
			mp_range ro = span(c, M, c_si, N, c_sj, esz);
			if (K > 0 && (overlap(ro, ra) || overlap(ro, rb)))
				return fallback();
			if (ep.bias && overlap(ro, span(ep.bias, M, bias_si, N, bias_sj, 4)))
				return fallback();
			ep.out = c;
			ep.out_si = c_si / esz;
			ep.out_sj = c_sj / esz;
			ep.bias_si = bias_si / 4;
			ep.bias_sj = bias_sj / 4;
			mp_gemm_x8_epi(kern, M, N, K, a, (int)a_dt, a_si, a_sk, (int32_t)za,
				       b, (int)b_dt, b_sk, b_sj, (int32_t)zb, &ep);
		}
		mp_stats_note(1, kern);
		return &mp_direct_token;
	}
	if (mode == 1) {
		if (c_si % 4 || c_sj % 4)
			return fallback();
		if (M > 0 && N > 0) {
			mp_range rc = span(c, M, c_si, N, c_sj, 4);
			if (K > 0 && (overlap(rc, ra) || overlap(rc, rb)))
				return fallback();
			mp_gemm_x8(kern, M, N, K, a, (int)a_dt, a_si, a_sk, (int32_t)za,
				   b, (int)b_dt, b_sk, b_sj, (int32_t)zb,
				   (int32_t *)c, c_si / 4, c_sj / 4, 1);
		}
		mp_stats_note(1, kern);
		return &mp_direct_token;
	}

	size_t cells = (size_t)(M > 0 ? M : 1) * (size_t)(N > 0 ? N : 1);
	if (M > 0 && N > 0 && cells / (size_t)M != (size_t)N)
		return fallback();
	size_t bytes = (cells * 4 + 63) & ~(size_t)63;
	int32_t *t = aligned_alloc(64, bytes);
	if (!t)
		return fallback();
	if (M > 0 && N > 0)
		mp_gemm_x8(kern, M, N, K, a, (int)a_dt, a_si, a_sk, (int32_t)za,
			   b, (int)b_dt, b_sk, b_sj, (int32_t)zb, t, N, 1, 0);
	mp_stats_note(1, kern);
	return t;
}

void *__mixprec_lp_nest(long abi, long nargs, ...)
{
	va_list ap;
	int ok;

	if (abi != MP_NEST_ABI || nargs < 18)
		return fallback();
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
	long esz = is_double ? 8 : 4;
	M = M < 0 ? 0 : M;
	N = N < 0 ? 0 : N;
	K = K < 0 ? 0 : K;

	mp_range ra = span(a, M, a_si, K, a_sk, esz);
	mp_range rb = span(b, K, b_sk, N, b_sj, esz);
	int reads = M > 0 && N > 0 && K > 0;
	ok = range_checks(&ap, nargs, 18, ra, rb, reads);
	va_end(ap);
	if (ok <= 0 || disabled() || (mode != 0 && mode != 1))
		return fallback();
	if (a_si % esz || a_sk % esz || b_sk % esz || b_sj % esz ||
	    c_si % esz || c_sj % esz)
		return fallback();
	mp_kernel kern = pick_kernel(target);
	if (kern == MP_KERNEL_NONE)
		return fallback();
	mp_lp_scales sc;
	memset(&sc, 0, sizeof sc);
	sc.dynamic = 1;

	if (mode == 1) {
		if (M > 0 && N > 0) {
			mp_range rc = span(c, M, c_si, N, c_sj, esz);
			if (K > 0 && (overlap(rc, ra) || overlap(rc, rb)))
				return fallback();
			if (mp_gemm_lp(kern, (mp_lp)lp, is_double != 0, M, N, K,
				       a, a_si / esz, a_sk / esz, b, b_sk / esz, b_sj / esz,
				       c, c_si / esz, c_sj / esz, 1, &sc) != 0)
				return fallback();
		}
		mp_stats_note(1, kern);
		return &mp_direct_token;
	}

	size_t cells = (size_t)(M > 0 ? M : 1) * (size_t)(N > 0 ? N : 1);
	if (M > 0 && N > 0 && cells / (size_t)M != (size_t)N)
		return fallback();
	if (cells > SIZE_MAX / 8 - 64)
		return fallback();
	size_t bytes = (cells * (size_t)esz + 63) & ~(size_t)63;
	void *t = aligned_alloc(64, bytes);
	if (!t)
		return fallback();
	if (M > 0 && N > 0 &&
	    mp_gemm_lp(kern, (mp_lp)lp, is_double != 0, M, N, K, a, a_si / esz, a_sk / esz,
		       b, b_sk / esz, b_sj / esz, t, N, 1, 0, &sc) != 0) {
		free(t);
		return fallback();
	}
	mp_stats_note(1, kern);
	return t;
}

void __mixprec_release(void *tile)
{
	if (tile && tile != (void *)&mp_direct_token)
		free(tile);
}

/* Called in place of a reduction loop k that encloses the rest of the
 * nest (ikj order): C(a,b) += T[t_off + a*t_si + b*t_sj] for a < ni, b < nj,
 * C(a,b) at c + a*c_si + b*c_sj bytes (int32).  Arguments after
 * (abi, nargs): tile, t_off, t_si, t_sj, c, c_si, c_sj, ni, nj. */
void *__mixprec_tile_add(long abi, long nargs, ...)
{
	va_list ap;
	if (abi != MP_NEST_ABI || nargs != 9)
		abort();   /* generated code and runtime disagree: never guess */
	va_start(ap, nargs);
	const int32_t *t = va_arg(ap, const int32_t *);
	long t_off = va_arg(ap, long), t_si = va_arg(ap, long), t_sj = va_arg(ap, long);
	char *c = va_arg(ap, char *);
	long c_si = va_arg(ap, long), c_sj = va_arg(ap, long);
	long ni = va_arg(ap, long), nj = va_arg(ap, long);
	va_end(ap);
	for (long a = 0; a < ni; a++)
		for (long b = 0; b < nj; b++) {
			uint32_t *p = (uint32_t *)(c + a * c_si + b * c_sj);
			*p += (uint32_t)t[t_off + a * t_si + b * t_sj];
		}
	return NULL;
}
