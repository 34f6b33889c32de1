/* test_lp.c -- mp_gemm_lp (floating-point sources at lower precision)
 * against the exact result: every output element must be within
 * mp_lp_error_bound (docs/error-bounds.md) of (c_old +) sum_k A B computed
 * in long double; the gaps of the output buffer stay untouched; NaN / Inf
 * inputs return -1 and leave c untouched; the vector kernels give the same
 * bits as the scalar reference; a fault-injection step proves the bound
 * check can fail.  Every case draws the scale mode of each operand
 * (dynamic, explicit per row / column or per tensor, explicit and too small
 * so that it saturates) and alpha (1, or random: negative, zero, tiny,
 * large).  Half of the cases also draw operand offsets (mp_lp_opts.a_zero
 * / b_zero: none, A's, B's or both; random, negative, large relative to the
 * data's spread -- "shifted" data, 100 + uniform[-1, 1], with offset 100):
 * the bound is then computed on materialised A' = A - a_zero, B' = B -
 * b_zero, and the call must give the bits of the call without offsets on
 * those arrays.  "conv" checks the FP8 / bf16 conversion helpers exhaustively
 * against a brute-force reference.  uint8 also compares its accuracy with
 * int8's on non-negative A (post-ReLU activations).
 *
 * Usage: test_lp PREC KERNEL [SEED]
 *   PREC: int8 | uint8 | bf16 | fp8_e4m3 | fp8_e5m2 | conv
 *   KERNEL: scalar | avx2 | avx512vnni | i8mm (int8, uint8), scalar | avx2 |
 *           avx512bf16 | neon | bfmlal (others)
 * Exits 77 when the CPU lacks the kernel. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mp_gemm.h"
#include "lp.h"

#include "rt_test.h"

#if defined(__x86_64__)
#include <xmmintrin.h>
/* MXCSR without its sticky flags: rounding, FTZ, DAZ, exception masks.  A
 * kernel that changes them (lp_avx2.c) must give the caller's back. */
static unsigned csr_control(void)
{
	return _mm_getcsr() & ~0x3fu;
}
#else
static unsigned csr_control(void)
{
	return 0;
}
#endif

static double urand(void) /* [-1, 1) */
{
	return (double)(mp_rand() >> 11) * 0x1p-52 - 1.0;
}

static int failures;
#define CHECK(c, ...)                                                       \
	do {                                                                \
		if (!(c)) {                                                 \
			failures++;                                         \
			if (failures < 20) {                                \
				fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
				fprintf(stderr, __VA_ARGS__);               \
				fprintf(stderr, "\n");                      \
			}                                                   \
		}                                                           \
	} while (0)

/* ------------------------------------------------------- conversions */

/* Brute force: the finite FP8 value nearest to x, ties to the even code,
 * saturating. */
static double fp8_ref(double x, int e5)
{
	double best = 0;
	int bestc = -1;
	double bd = INFINITY;
	for (int c = 0; c < 256; c++) {
		float v = mp_fp8_decode((uint8_t)c, e5);
		if (!isfinite(v))
			continue;
		double d = fabs((double)v - x);
		if (d < bd || (d == bd && (c & 1) == 0 && (bestc & 1) == 1 &&
			       !signbit(v) == !signbit(x))) {
			bd = d;
			best = v;
			bestc = c;
		}
	}
	mp_fp8_fmt f = mp_fp8_format(e5);
	if (fabs(x) >= f.max)
		return x < 0 ? -(double)f.max : f.max;
	if (best == 0)
		return signbit(x) ? -0.0 : 0.0;
	return best;
}

static void test_conv(void)
{
	for (int e5 = 0; e5 < 2; e5++) {
		int nfin = 0;
		for (int c = 0; c < 256; c++) {
			float v = mp_fp8_decode((uint8_t)c, e5);
			int exp_nan = e5 ? ((c & 0x7f) > 0x7c) : ((c & 0x7f) == 0x7f);
			int exp_inf = e5 && (c & 0x7f) == 0x7c;
			CHECK((isnan(v) != 0) == exp_nan, "e5=%d code %02x nan", e5, c);
			CHECK((isinf(v) != 0) == exp_inf, "e5=%d code %02x inf", e5, c);
			if (!isfinite(v))
				continue;
			nfin++;
			CHECK(mp_fp8_encode(v, e5) == c, "e5=%d code %02x round trip -> %02x", e5, c,
			      mp_fp8_encode(v, e5));
			CHECK(mp_fp8_round(v, e5) == v, "e5=%d code %02x round", e5, c);
			CHECK(mp_fp8_round_f32(v, e5) == v, "e5=%d code %02x round_f32", e5, c);
		}
		CHECK(nfin == (e5 ? 248 : 254), "e5=%d finite codes %d", e5, nfin);
		CHECK(mp_fp8_decode(0x7e, 0) == 448.0f && mp_fp8_decode(0x7b, 1) == 57344.0f,
		      "max values");
		/* ties: midpoints of consecutive positive values go to the even code */
		for (int c = 0; c < 0x7f; c++) {
			float v0 = mp_fp8_decode((uint8_t)c, e5), v1 = mp_fp8_decode((uint8_t)(c + 1), e5);
			if (!isfinite(v1))
				break;
			double mid = ((double)v0 + v1) / 2;
			double want = (c & 1) ? v1 : v0;
			CHECK(mp_fp8_round(mid, e5) == want, "e5=%d tie %g", e5, mid);
			CHECK(mp_fp8_round_f32((float)mid, e5) == (float)want, "e5=%d tie f32 %g", e5, mid);
			CHECK(mp_fp8_round(-mid, e5) == -want, "e5=%d -tie", e5);
			CHECK(mp_fp8_round(nextafter(mid, 0), e5) == v0, "e5=%d below tie", e5);
			CHECK(mp_fp8_round(nextafter(mid, 1e9), e5) == v1, "e5=%d above tie", e5);
		}
		/* random values over the whole range, and saturation */
		for (int t = 0; t < 200000; t++) {
			float x = (float)(urand() * ldexp(1.0, (int)mp_rand_below(40) - 24));
			if (t % 7 == 0)
				x = (float)(urand() * 1e6);
			double r = fp8_ref(x, e5);
			CHECK(mp_fp8_round(x, e5) == r, "e5=%d round(%a)=%a want %a", e5, x,
			      mp_fp8_round(x, e5), r);
			CHECK(mp_fp8_round_f32(x, e5) == (float)r, "e5=%d round_f32(%a)", e5, x);
		}
		CHECK(mp_fp8_round(INFINITY, e5) == mp_fp8_format(e5).max, "satfinite inf");
	}
	/* bf16: nearest even against a double-arithmetic reference, DAZ */
	for (int t = 0; t < 1000000; t++) {
		uint32_t u = (uint32_t)mp_rand();
		if (t % 5 == 0)
			u = (u & 0xffff0000u) | 0x8000u; /* ties */
		float x = mp_f32_from_bits(u);
		if (!isfinite(x))
			continue;
		double ax = fabs(x);
		uint16_t h = mp_bf16_from_f32(x);
		if (ax < 0x1p-126) {
			CHECK((h & 0x7fff) == 0, "daz %a", x);
			continue;
		}
		int e;
		frexp(ax, &e);
		double sp = ldexp(1.0, e - 8);
		double want = mp_rne_small(ax / sp) * sp;
		if (want >= 0x1p128)
			want = INFINITY;
		float got = fabsf(mp_bf16_to_f32(h));
		CHECK(got == (float)want, "bf16(%a) = %a want %a", x, got, want);
		CHECK(mp_bf16_from_f64(x) == h, "bf16_from_f64(%a)", x);
	}
}

/* ---------------------------------------------------------- matrices */

/* P_ONES (not in the loop over patterns): every quantized value at its
 * largest code, the largest int32 sums a K-chunk can hold. */
enum { P_RANDOM, P_OUTLIER, P_TIES, P_CANCEL, P_ZERO_RC, P_DENORMAL, P_WIDE, P_FTZ, P_RELU,
       P_SHIFTED, P_COUNT, P_ONES = P_COUNT };
static const char *pname[] = {"random", "outlier", "ties", "cancel", "zero-rows/cols",
			      "denormal", "wide-range", "ftz-edge", "relu", "shifted", "ones"};

/* Per-case salt of the patterns that need a value to be a function of its
 * position (P_FTZ). */
static uint64_t gen_salt;

static uint64_t mix64(uint64_t z) /* splitmix64's finalizer */
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Value of A(i,k) (isb = 0) or B(k,j) (isb = 1; r = j, t = k) for pattern p. */
static double gen(int p, int isb, long r, long t, mp_lp lp)
{
	switch (p) {
	case P_OUTLIER:
		return t == (r * 7 + 3) % 64 ? urand() * 1e4 : urand();
	case P_TIES:
		if (lp == MP_LP_UINT8 && !isb) {
			/* range [-z, 255 - z]: step 1, zero point z, values on
			 * half steps (z = 0: non-negative rows) */
			long z = (r * 37) % 101;
			return t == 0 ? 255.0 - (double)z : t == 1 ? -(double)z
				: (double)(mp_rand_below(255) - z) + 0.5;
		}
		if (lp == MP_LP_INT8 || lp == MP_LP_UINT8)
			/* amax 127 per row / column: scale 1, values on half steps */
			return t == 0 ? 127.0 : (double)(mp_rand_below(253) - 126) + 0.5;
		if (lp == MP_LP_BF16)
			return (1.0 + 0x1p-8 + 0x1p-7 * (double)mp_rand_below(2)) * (mp_rand_below(2) ? 1 : -1);
		/* fp8: midpoints between E4M3 / E5M2 values relative to amax */
		return t == 0 ? 448.0 : (1.0 + 0x1p-4 + 0x1p-3 * (double)mp_rand_below(8)) * (mp_rand_below(2) ? 4 : -4);
	case P_CANCEL:
		return (t % 2 ? -1.0 : 1.0) * (isb ? 1.0 + 1e-3 * urand() : 1000.0 + urand());
	case P_ZERO_RC:
		return r % 3 == 1 ? 0.0 : urand();
	case P_DENORMAL:
		return t % 3 == 0 ? urand() * 1e-39 : (r % 4 == 0 ? urand() * 1e-40 : urand());
	case P_WIDE:
		return urand() * ldexp(1.0, (int)mp_rand_below(40) - 20);
	case P_FTZ: {
		/* BF16 chains that keep passing the flush threshold 2^-126: per
		 * group of 4 k (chain order 1, 0, 3, 2), a product +-m 2^-126
		 * (k = 1 mod 4), one +-m 2^-150 (k even), then the first one's
		 * negation (k = 3 mod 4, sometimes off by 2^-7): the accumulator
		 * is often exactly +-2^-126 when a product of 2^-150 arrives,
		 * the case where flushing after rounding (the hardware's rule)
		 * differs from flushing the subnormal-rounded result, and it
		 * returns to the flushed range at the end of the group.  Short
		 * mantissas: the bf16 conversion is exact. */
		static const double man[8] = {1, 1, 1, 1, 1, 1.5, 1.25, 1.75};
		int ph = (int)(t & 3);
		uint64_t h = mix64(gen_salt ^ mix64((uint64_t)isb << 62 ^ (uint64_t)(ph & 1) << 61 ^
						     (uint64_t)r << 32 ^ (uint64_t)(t >> 2)));
		double m = man[h & 7] * ((h >> 3) & 1 ? 1 : -1);
		if (!isb || ph == 1)
			return m * 0x1p-63;
		if (ph == 3)
			return -m * 0x1p-63 * (((h >> 8) & 3) == 0 ? 1 + 0x1p-7 : 1);
		/* products of 2^-152 too: from an accumulator of 2^-126 they
		 * reach the band [2^-126 - 2^-151, 2^-126), tiny before
		 * rounding but not after (Arm's FPCR.FZ flushes it, x86 does
		 * not: lp_neon.c) */
		return m * ((h >> 10) & 1 ? 0x1p-89 : 0x1p-87);
	}
	case P_RELU: /* post-ReLU activations times signed weights */
		return isb ? urand() : fmax(0.0, urand());
	case P_SHIFTED: /* far from 0 relative to the spread: offsets 100, -50 */
		return isb ? -50.0 + urand() : 100.0 + urand();
	case P_ONES:
		return 1.0;
	default:
		return urand();
	}
}

/* Scale modes of a case (mp_lp_scales): both dynamic; both explicit
 * (generous, or too small: saturating); one explicit, the other dynamic
 * (NULL pointer); dynamic == 0 with both pointers NULL (both dynamic). */
enum { X_DYN, X_EXPL, X_SAT, X_A, X_B, X_NULL, X_COUNT };

typedef struct mat {
	char *buf;       /* with guard */
	char *base;      /* element (0,0) */
	ptrdiff_t s0, s1;
	size_t bytes;
} mat;

/* rows x cols, layout: 0 row-major, 1 column-major, 2 padded row-major,
 * 3 strided both (s1 = 2). */
static void mat_make(mat *m, long rows, long cols, int lay, size_t es)
{
	long pad = 1 + mp_rand_below(4);
	switch (lay) {
	case 0: m->s0 = cols; m->s1 = 1; break;
	case 1: m->s0 = 1; m->s1 = rows; break;
	case 2: m->s0 = cols + pad; m->s1 = 1; break;
	default: m->s0 = 2 * cols + pad; m->s1 = 2; break;
	}
	size_t n = (size_t)((rows - 1) * m->s0 + (cols - 1) * m->s1 + 1);
	if (rows == 0 || cols == 0)
		n = 1;
	m->bytes = (n + 32) * es;
	m->buf = malloc(m->bytes);
	for (size_t q = 0; q < m->bytes; q++)
		m->buf[q] = (char)0x5a;
	m->base = m->buf + 16 * es;
}

static double mat_get(const mat *m, int dbl, long r, long c)
{
	ptrdiff_t o = r * m->s0 + c * m->s1;
	return dbl ? ((double *)m->base)[o] : ((float *)m->base)[o];
}
static void mat_set(mat *m, int dbl, long r, long c, double v)
{
	ptrdiff_t o = r * m->s0 + c * m->s1;
	if (dbl)
		((double *)m->base)[o] = v;
	else
		((float *)m->base)[o] = (float)v;
}

/* x - z as the source type computes it (float: both floats, the
 * difference rounded to float, as the C expression x - z). */
static double sub_src(int dbl, double x, double z)
{
	if (dbl)
		return x - z;
	float d = (float)x - (float)z;
	return d;
}

/* Offsets of a case (mp_lp_opts.a_zero / b_zero): none, A's only, B's
 * only or both, at random; *ha / *hb: the operand has one (an offset of -0
 * is one).  Float sources get float values.  P_SHIFTED: mostly the data's
 * centre (A: 100, B: -50), where A' and B' are far better quantized than A
 * and B.  Not for P_TIES and P_FTZ, whose values are placed exactly. */
static int offsets_which = -1; /* >= 0: draw_offsets's choice, forced */

static void draw_offsets(int pat, int dbl, double *za, double *zb, int *ha, int *hb)
{
	*za = *zb = 0;
	*ha = *hb = 0;
	if (pat == P_TIES || pat == P_FTZ)
		return;
	/* both, A, B, none */
	int which = offsets_which >= 0 ? offsets_which : (int)mp_rand_below(pat == P_SHIFTED ? 4 : 6);
	if (which > 2)
		return;
	for (int side = 0; side < 2; side++) {
		if (which == 1 + !side)
			continue;
		double z;
		if (pat == P_SHIFTED)
			z = mp_rand_below(4) ? (side ? -50.0 : 100.0) : (side ? -49.75 : 100.5);
		else
			switch (mp_rand_below(5)) {
			case 0: z = urand() * 4; break;
			case 1: z = urand() * 1e3; break;
			case 2: z = -(double)(1 + mp_rand_below(8)); break;
			case 3: z = urand() * 0.01; break;
			default: z = -0.0; break;
			}
		if (!dbl)
			z = (float)z;
		if (side)
			*zb = z, *hb = 1;
		else
			*za = z, *ha = 1;
	}
}

/* dst: a copy of src (rows x cols, its own layout lay) holding src - z as
 * the source type computes it. */
static void mat_offset(mat *dst, const mat *src, long rows, long cols, int lay, int dbl, double z)
{
	mat_make(dst, rows, cols, lay, dbl ? sizeof(double) : sizeof(float));
	for (long r = 0; r < rows; r++)
		for (long c = 0; c < cols; c++)
			mat_set(dst, dbl, r, c, sub_src(dbl, mat_get(src, dbl, r, c), z));
}

static mp_kernel kern_under_test, kern_ref = MP_KERNEL_SCALAR;
static int alpha_random = 1; /* run_case draws alpha */
static long ncases, nelems;
static double worst_ratio;

/* One case: checks every element against the bound; the NaN / Inf cases;
 * bitwise agreement with the scalar reference. */
static void run_case(mp_lp lp, int dbl, long M, long N, long K, int pat, int la, int lb,
		     int lc, int accumulate, int expl)
{
	size_t es = dbl ? sizeof(double) : sizeof(float);
	mat A, B, C;
	mat_make(&A, M, K, la, es);
	mat_make(&B, K, N, lb, es);
	mat_make(&C, M, N, lc, es);
	gen_salt = mp_rand();
	for (long i = 0; i < M; i++)
		for (long k = 0; k < K; k++)
			mat_set(&A, dbl, i, k, gen(pat, 0, i, k, lp));
	for (long k = 0; k < K; k++)
		for (long j = 0; j < N; j++)
			mat_set(&B, dbl, k, j, gen(pat, 1, j, k, lp));
	for (long i = 0; i < M; i++)
		for (long j = 0; j < N; j++)
			mat_set(&C, dbl, i, j, urand() * 10);
	/* offsets: the call gets A, B and the offsets; everything it is
	 * checked against (explicit scales, steps, exact result, bound) is
	 * computed on Ap, Bp, materialised A' and B' (A and B themselves
	 * when there is no offset) */
	double oz_a, oz_b;
	int has_a, has_b;
	draw_offsets(pat, dbl, &oz_a, &oz_b, &has_a, &has_b);
	mat Ap = A, Bp = B;
	if (has_a)
		mat_offset(&Ap, &A, M, K, (int)mp_rand_below(4), dbl, oz_a);
	if (has_b)
		mat_offset(&Bp, &B, K, N, (int)mp_rand_below(4), dbl, oz_b);
	/* explicit scales (expl: X_*): per row of A / column of B (stride 1)
	 * or per tensor (stride 0), at random; X_SAT (and half of the one-sided
	 * cases) small enough to saturate.  UINT8's explicit A has zero point
	 * 0: its negative values saturate too. */
	float *asc = malloc(sizeof(float) * (size_t)(M + 1));
	float *bsc = malloc(sizeof(float) * (size_t)(N + 1));
	const double qa = lp == MP_LP_UINT8 ? 255 : lp == MP_LP_INT8 ? 127
			  : lp == MP_LP_FP8_E4M3 ? 448 : 57344;
	const double qb = lp == MP_LP_UINT8 ? 127 : qa;
	const int one_side = expl == X_A || expl == X_B;
	const double sat_a = expl == X_SAT || (one_side && mp_rand_below(2)) ? 0.5 : 1.3;
	const double sat_b = expl == X_SAT || (one_side && mp_rand_below(2)) ? 0.5 : 1.3;
	const ptrdiff_t ass = mp_rand_below(2), bss = mp_rand_below(2);
	double tam = 0, tbm = 0;
	for (long i = 0; i < M; i++) {
		double am = 0;
		for (long k = 0; k < K; k++)
			am = fmax(am, fabs(mat_get(&Ap, dbl, i, k)));
		asc[i] = (float)(am > 0 ? am * sat_a / qa : 1.0);
		tam = fmax(tam, am);
	}
	for (long j = 0; j < N; j++) {
		double bm = 0;
		for (long k = 0; k < K; k++)
			bm = fmax(bm, fabs(mat_get(&Bp, dbl, k, j)));
		bsc[j] = (float)(bm > 0 ? bm * sat_b / qb : 1.0);
		tbm = fmax(tbm, bm);
	}
	if (!ass)
		asc[0] = (float)(tam > 0 ? tam * sat_a / qa : 1.0);
	if (!bss)
		bsc[0] = (float)(tbm > 0 ? tbm * sat_b / qb : 1.0);
	/* explicit scales must be normal floats (a zero one is refused) */
	for (long i = 0; i < M; i++)
		asc[i] = asc[i] < FLT_MIN ? FLT_MIN : asc[i];
	for (long j = 0; j < N; j++)
		bsc[j] = bsc[j] < FLT_MIN ? FLT_MIN : bsc[j];
	mp_lp_scales sc = {expl == X_DYN, asc, ass, bsc, bss};
	if (expl == X_A || expl == X_NULL)
		sc.b_scale = NULL;
	if (expl == X_B || expl == X_NULL)
		sc.a_scale = NULL;
	const int dyn_a = expl == X_DYN || !sc.a_scale;
	/* alpha: 1 through mp_gemm_lp itself, or (when alpha_random) half of
	 * the time a random one through mp_gemm_lp_ex: negative, zero, tiny
	 * (subnormal outputs), large */
	mp_lp_opts opt = {.alpha = 1.0, .a_zero = oz_a, .b_zero = oz_b};
	const mp_lp_opts *op = has_a || has_b ? &opt : NULL;
	if (alpha_random && mp_rand_below(2)) {
		op = &opt;
		switch (mp_rand_below(6)) {
		case 0: opt.alpha = -1.0; break;
		case 1: opt.alpha = 0.0; break;
		case 2: opt.alpha = (dbl ? 0x1p-1040 : 0x1p-135) * (1.5 + urand()); break;
		case 3: opt.alpha = (dbl ? 1e200 : 1e15) * urand(); break;
		default: opt.alpha = 4.0 * urand(); break;
		}
	}
	const double alpha = opt.alpha;

	char *c0 = malloc(C.bytes);
	memcpy(c0, C.buf, C.bytes);
	unsigned csr0 = csr_control();
	int rc = op ? mp_gemm_lp_ex(kern_under_test, lp, dbl, M, N, K, A.base, A.s0, A.s1, B.base,
				    B.s0, B.s1, C.base, C.s0, C.s1, accumulate, &sc, op)
		    : mp_gemm_lp(kern_under_test, lp, dbl, M, N, K, A.base, A.s0, A.s1, B.base, B.s0,
				 B.s1, C.base, C.s0, C.s1, accumulate, &sc);
	CHECK(rc == 0, "rc %d (%s M=%ld N=%ld K=%ld alpha %g expl %d offsets %g %g)", rc, pname[pat],
	      M, N, K, alpha, expl, oz_a, oz_b);
	/* with offsets: the bits of the call without them on A', B' */
	if (has_a || has_b) {
		mp_lp_opts o0 = opt;
		o0.a_zero = o0.b_zero = 0;
		char *cm = malloc(C.bytes);
		memcpy(cm, c0, C.bytes);
		int rcm = mp_gemm_lp_ex(kern_under_test, lp, dbl, M, N, K, Ap.base, Ap.s0, Ap.s1,
					Bp.base, Bp.s0, Bp.s1, cm + (C.base - C.buf), C.s0, C.s1,
					accumulate, &sc, &o0);
		CHECK(rcm == 0 && memcmp(cm, C.buf, C.bytes) == 0,
		      "offsets %g %g: differs from the call on materialised A', B' (%s %s %s M=%ld "
		      "N=%ld K=%ld la=%d lb=%d expl %d alpha %g)", oz_a, oz_b,
		      mp_lp_kernel_name(kern_under_test, lp), pname[pat], dbl ? "double" : "float",
		      M, N, K, la, lb, expl, alpha);
		free(cm);
	}
	CHECK(csr_control() == csr0, "MXCSR %#x after the call, %#x before", csr_control(), csr0);
	double *sa = malloc(sizeof(double) * (size_t)(M + 1));
	double *sb = malloc(sizeof(double) * (size_t)(N + 1));
	double *za = malloc(sizeof(double) * (size_t)(M + 1));
	double *sa2 = malloc(sizeof(double) * (size_t)(M + 1));
	double *sb2 = malloc(sizeof(double) * (size_t)(N + 1));
	CHECK(mp_lp_steps_ex(lp, dbl, M, N, K, Ap.base, Ap.s0, Ap.s1, Bp.base, Bp.s0, Bp.s1, &sc, sa,
			     za, sb) == 0, "steps");
	CHECK(mp_lp_steps(lp, dbl, M, N, K, Ap.base, Ap.s0, Ap.s1, Bp.base, Bp.s0, Bp.s1, &sc, sa2,
			  sb2) == 0 &&
	      !memcmp(sa, sa2, sizeof(double) * (size_t)M) &&
	      !memcmp(sb, sb2, sizeof(double) * (size_t)N), "mp_lp_steps differs from _ex");
	/* zero points: integers in [0, 255], UINT8 dynamic only; UINT8's
	 * dynamic step and zero point are the row's range over 255 and the
	 * code of 0 */
	for (long i = 0; i < M; i++) {
		CHECK(za[i] >= 0 && za[i] <= 255 && za[i] == floor(za[i]) &&
		      (za[i] == 0 || (lp == MP_LP_UINT8 && dyn_a)), "zero point %g of row %ld", za[i], i);
		if (lp != MP_LP_UINT8 || !dyn_a)
			continue;
		double lo = 0, hi = 0;
		for (long k = 0; k < K; k++) {
			lo = fmin(lo, mat_get(&Ap, dbl, i, k));
			hi = fmax(hi, mat_get(&Ap, dbl, i, k));
		}
		if (hi - lo > 255 * (dbl ? DBL_MIN : FLT_MIN)) {
			CHECK(fabs(sa[i] * 255 - (hi - lo)) <= 1e-6 * (hi - lo), "uint8 step %g of row %ld, "
			      "range [%g, %g]", sa[i], i, lo, hi);
			CHECK(fabs(za[i] + lo / sa[i]) <= 0.5 + 1e-6, "uint8 zero point %g, lo %g step %g",
			      za[i], lo, sa[i]);
		}
		if (lo == 0)
			CHECK(za[i] == 0, "uint8: non-negative row %ld, zero point %g", i, za[i]);
	}
	/* every element within its bound; compute the bound for the fault
	 * injection below */
	double fb = -1;
	long fi = 0, fj = 0;
	for (long i = 0; i < M; i++)
		for (long j = 0; j < N; j++) {
			ptrdiff_t o = i * C.s0 + j * C.s1;
			double cold = dbl ? ((double *)(c0 + (C.base - C.buf)))[o]
					  : ((float *)(c0 + (C.base - C.buf)))[o];
			long double sum = 0;
			for (long k = 0; k < K; k++)
				sum += (long double)mat_get(&Ap, dbl, i, k) * mat_get(&Bp, dbl, k, j);
			long double ex = (accumulate ? (long double)cold : 0) + (long double)alpha * sum;
			double out = mat_get(&C, dbl, i, j);
			const char *arow = Ap.base + i * Ap.s0 * (ptrdiff_t)es;
			const char *bcol = Bp.base + j * Bp.s1 * (ptrdiff_t)es;
			double bound = mp_lp_error_bound_ex(lp, dbl, K, arow, Ap.s1, bcol, Bp.s0, sa[i],
							    za[i], sb[j], cold, accumulate, alpha);
			if (i == 0 && j == 0 && za[i] == 0 && alpha == 1)
				CHECK(mp_lp_error_bound(lp, dbl, K, arow, Ap.s1, bcol, Bp.s0, sa[i], sb[j],
							cold, accumulate) == bound,
				      "mp_lp_error_bound differs from _ex");
			double err = (double)fabsl((long double)out - ex);
			CHECK(err <= bound, "%s %s M=%ld N=%ld K=%ld (%ld,%ld) la=%d lb=%d acc=%d expl=%d "
			      "alpha=%g offsets %g %g: out %.9g exact %.9Lg err %.3g > bound %.3g",
			      pname[pat], dbl ? "double" : "float", M, N, K, i, j, la, lb, accumulate,
			      expl, alpha, oz_a, oz_b, out, ex, err, bound);
			if (bound > 0 && isfinite(bound) && err / bound > worst_ratio)
				worst_ratio = err / bound;
			if (bound > fb && isfinite(bound) && fabs((double)ex) < 1e30) {
				fb = bound;
				fi = i;
				fj = j;
			}
			nelems++;
		}
	/* gaps untouched: compare every byte outside the elements */
	{
		char *mark = calloc(C.bytes, 1);
		for (long i = 0; i < M; i++)
			for (long j = 0; j < N; j++)
				memset(mark + (C.base - C.buf) + (i * C.s0 + j * C.s1) * (ptrdiff_t)es, 1, es);
		long bad = 0;
		for (size_t q = 0; q < C.bytes; q++)
			bad += !mark[q] && C.buf[q] != c0[q];
		CHECK(bad == 0, "%ld stray bytes written", bad);
		free(mark);
	}
	/* fault injection: the check above must catch 2x the bound */
	if (fb > 0 && ncases % 17 == 0) {
		ptrdiff_t o = fi * C.s0 + fj * C.s1;
		double cold = dbl ? ((double *)(c0 + (C.base - C.buf)))[o] : ((float *)(c0 + (C.base - C.buf)))[o];
		long double sum = 0;
		for (long k = 0; k < K; k++)
			sum += (long double)mat_get(&Ap, dbl, fi, k) * mat_get(&Bp, dbl, k, fj);
		long double ex = (accumulate ? (long double)cold : 0) + (long double)alpha * sum;
		double bad = (double)ex + 2.5 * fb;
		if (!dbl)
			bad = (double)(float)bad;
		double err = (double)fabsl((long double)bad - ex);
		CHECK(err > fb, "fault injection not detected (err %g bound %g)", err, fb);
	}
	/* bitwise agreement with the scalar reference */
	if (kern_under_test != kern_ref) {
		char *cr = malloc(C.bytes);
		memcpy(cr, c0, C.bytes);
		char *save = C.buf;
		C.buf = cr;
		char *rbase = cr + (C.base - save);
		int rc2 = mp_gemm_lp_ex(kern_ref, lp, dbl, M, N, K, A.base, A.s0, A.s1, B.base, B.s0,
					B.s1, rbase, C.s0, C.s1, accumulate, &sc, op);
		CHECK(rc2 == 0 && memcmp(cr, save, C.bytes) == 0,
		      "%s differs from scalar reference (%s %s M=%ld N=%ld K=%ld la=%d lb=%d expl %d "
		      "alpha %g offsets %g %g)", mp_lp_kernel_name(kern_under_test, lp), pname[pat],
		      dbl ? "double" : "float", M, N, K, la, lb, expl, alpha, oz_a, oz_b);
		C.buf = save;
		free(cr);
	}
	/* constant operands (MP_LP_CONST_A / _B, at random): the first call
	 * (a miss: packs into the cache) and the second (a hit: runs from it)
	 * give the bits of the call without flags */
	if (M > 0 && N > 0) {
		mp_lp_opts oc = {.alpha = alpha, .flags = (unsigned)(1 + mp_rand_below(3)),
				 .a_zero = oz_a, .b_zero = oz_b};
		char *cr = malloc(C.bytes);
		for (int pass = 0; pass < 2; pass++) {
			memcpy(cr, c0, C.bytes);
			int rc2 = mp_gemm_lp_ex(kern_under_test, lp, dbl, M, N, K, A.base, A.s0, A.s1,
						B.base, B.s0, B.s1, cr + (C.base - C.buf), C.s0, C.s1,
						accumulate, &sc, &oc);
			CHECK(rc2 == 0 && memcmp(cr, C.buf, C.bytes) == 0,
			      "flags %u, call %d: differs from the call without flags (%s %s M=%ld "
			      "N=%ld K=%ld expl %d alpha %g offsets %g %g)", oc.flags, pass + 1,
			      pname[pat], dbl ? "double" : "float", M, N, K, expl, alpha, oz_a, oz_b);
		}
		free(cr);
		/* the buffers are freed below: their addresses may come back */
		mp_lp_forget(A.base);
		mp_lp_forget(B.base);
	}
	/* NaN / Inf: -1 and c untouched */
	if (M > 0 && N > 0 && K > 0 && ncases % 3 == 0) {
		double bads[3] = {NAN, INFINITY, -INFINITY};
		for (int w = 0; w < 2; w++) {
			double v = bads[mp_rand_below(3)];
			long r = mp_rand_below(w ? N : M), t = mp_rand_below(K);
			mat *X = w ? &B : &A;
			double keep = w ? mat_get(X, dbl, t, r) : mat_get(X, dbl, r, t);
			if (w)
				mat_set(X, dbl, t, r, v);
			else
				mat_set(X, dbl, r, t, v);
			char *snap = malloc(C.bytes);
			memcpy(snap, C.buf, C.bytes);
			int rc3 = mp_gemm_lp_ex(kern_under_test, lp, dbl, M, N, K, A.base, A.s0, A.s1,
						B.base, B.s0, B.s1, C.base, C.s0, C.s1, accumulate, &sc, op);
			CHECK(rc3 == -1 && memcmp(snap, C.buf, C.bytes) == 0,
			      "non-finite input: rc %d or c written", rc3);
			free(snap);
			if (w)
				mat_set(X, dbl, t, r, keep);
			else
				mat_set(X, dbl, r, t, keep);
		}
	}
	ncases++;
	free(c0);
	free(sa);
	free(sb);
	free(za);
	free(sa2);
	free(sb2);
	free(asc);
	free(bsc);
	if (has_a)
		free(Ap.buf);
	if (has_b)
		free(Bp.buf);
	free(A.buf);
	free(B.buf);
	free(C.buf);
}

static void test_prec(mp_lp lp)
{
	static const long Ks[] = {1, 2, 7, 64, 1000, 4096};
	for (int dbl = 0; dbl < 2; dbl++)
		for (int pat = 0; pat < P_COUNT; pat++)
			for (size_t ki = 0; ki < sizeof(Ks) / sizeof(Ks[0]); ki++) {
				long K = Ks[ki];
				long M = 1 + mp_rand_below(K >= 1000 ? 12 : 40), N = 1 + mp_rand_below(K >= 1000 ? 40 : 70);
				int expl = lp == MP_LP_BF16 ? X_DYN : (int)mp_rand_below(X_COUNT);
				if (pat == P_TIES)
					expl = 0;
				run_case(lp, dbl, M, N, K, pat, (int)mp_rand_below(4), (int)mp_rand_below(4), (int)mp_rand_below(3),
					 (int)mp_rand_below(2), expl);
			}
	/* every layout pair, both output layouts, accumulate on / off */
	for (int la = 0; la < 4; la++)
		for (int lb = 0; lb < 4; lb++)
			run_case(lp, (la + lb) % 2, 1 + mp_rand_below(20), 1 + mp_rand_below(50), 1 + mp_rand_below(100),
				 P_RANDOM, la, lb, (la + lb) % 3, lb % 2,
				 (int)(lp != MP_LP_BF16) * ((la + 4 * lb) % X_COUNT));
	/* blocking edges: beyond MC rows and NC columns, single rows/columns */
	run_case(lp, 0, 100, 1100, 24, P_RANDOM, 0, 0, 0, 1, 0);
	run_case(lp, 0, 130, 70, 33, P_OUTLIER, 0, 1, 0, 0, 0);
	run_case(lp, 0, 1, 300, 257, P_RANDOM, 0, 1, 0, 0, 0);
	run_case(lp, 0, 300, 1, 129, P_RANDOM, 1, 0, 1, 1, 0);
	run_case(lp, 1, 97, 65, 65, P_WIDE, 0, 0, 0, 1, 0);
	if (lp == MP_LP_INT8 || lp == MP_LP_UINT8) {
		/* K-chunks (int32 exactness); ones: every chunk's sums at the
		 * largest magnitude the chunk length allows */
		run_case(lp, 0, 2, 3, mp_lp_kc(lp) + 999, P_RANDOM, 0, 1, 0, 1, X_DYN);
		run_case(lp, 0, 2, 3, 2 * mp_lp_kc(lp) + 5, P_ONES, 0, 1, 0, 0, X_DYN);
		run_case(lp, 1, 2, 3, mp_lp_kc(lp) + 3, P_ONES, 1, 0, 0, 1, X_DYN);
	}
	/* offsets on purpose (they are drawn at random above): both, A's only,
	 * B's only, on the layouts of the vector packers (A row-major, B row-
	 * or column-major) and others, shifted data and random, float and
	 * double; one case across several MC blocks and NC panels */
	for (int w = 0; w < 3; w++) {
		offsets_which = w;
		for (int lb = 0; lb < 3; lb++) {
			int ex = lp == MP_LP_BF16 ? X_DYN : (int)mp_rand_below(X_COUNT);
			run_case(lp, 0, 1 + mp_rand_below(40), 1 + mp_rand_below(70), 1 + mp_rand_below(300),
				 P_SHIFTED, lb == 2 ? 3 : 0, lb, 0, w % 2, ex);
			run_case(lp, lb == 1, 1 + mp_rand_below(40), 1 + mp_rand_below(70),
				 1 + mp_rand_below(300), lb == 2 ? P_OUTLIER : P_RANDOM, lb == 2 ? 1 : 2, lb,
				 (int)mp_rand_below(3), (int)mp_rand_below(2), ex);
		}
		run_case(lp, 0, 100, 1100, 24, P_SHIFTED, 0, w == 2, 0, 1, 0);
	}
	offsets_which = -1;
	/* K = 0 and empty shapes */
	{
		float c[4] = {1, 2, 3, 4}, a = 1, b = 1;
		CHECK(mp_gemm_lp(kern_under_test, lp, 0, 2, 2, 0, &a, 1, 1, &b, 1, 1, c, 2, 1, 0, NULL) == 0 &&
		      c[0] == 0 && c[3] == 0, "K = 0");
		CHECK(mp_gemm_lp(kern_under_test, lp, 0, 0, 2, 3, &a, 1, 1, &b, 1, 1, c, 2, 1, 0, NULL) == 0,
		      "M = 0");
	}
	/* bad explicit scale */
	if (lp != MP_LP_BF16) {
		float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4}, c[4] = {0}, z = 0, one = 1;
		mp_lp_scales sc = {0, &z, 0, &one, 0};
		CHECK(mp_gemm_lp(kern_under_test, lp, 0, 2, 2, 2, a, 2, 1, b, 2, 1, c, 2, 1, 0, &sc) == -1,
		      "zero scale accepted");
	}
	/* out of range for the accumulator / output */
	{
		float a[2] = {3e38f, 1}, b[2] = {3e38f, 1}, c[1] = {7};
		CHECK(mp_gemm_lp(kern_under_test, lp, 0, 1, 1, 2, a, 2, 1, b, 1, 1, c, 1, 1, 0, NULL) == -1 &&
		      c[0] == 7, "overflow not refused");
	}
}

/* Offsets that mp_gemm_lp_ex refuses (-1, c untouched): not finite, or,
 * for float sources, not a float value (double sources take any finite
 * one); an offset that makes A' or B' infinite (float: 3e38 - -3e38,
 * double: 1.7e308 - -1.7e308), with or without constant flags (and then
 * not cached); an offset that brings an operand refused for its range
 * back to small differences (A = 3e38 and its neighbours, offset 3e38):
 * accepted, within the bound computed on A'. */
static void test_offsets(mp_lp lp)
{
	const double bad[] = {NAN, INFINITY, -INFINITY, 0.1, 1e39, 0x1p-150};
	for (int dbl = 0; dbl < 2; dbl++)
		for (int t = 0; t < 6; t++)
			for (int side = 0; side < 2; side++) {
				float af[4] = {1, 2, 3, 4}, bf[4] = {1, 2, 3, 4}, cf[4] = {7, 7, 7, 7};
				double ad[4] = {1, 2, 3, 4}, bd[4] = {1, 2, 3, 4}, cd[4] = {7, 7, 7, 7};
				mp_lp_opts o = {.alpha = 1.0};
				if (side)
					o.b_zero = bad[t];
				else
					o.a_zero = bad[t];
				int rc = mp_gemm_lp_ex(kern_under_test, lp, dbl, 2, 2, 2, dbl ? (void *)ad : af, 2, 1,
						       dbl ? (void *)bd : bf, 2, 1, dbl ? (void *)cd : cf, 2, 1, 0,
						       NULL, &o);
				/* double sources: only the non-finite ones are refused
				 * (and BF16's range refuses |A'| = 1e39 >= 2^127) */
				int want = dbl && t >= 3 && !(lp == MP_LP_BF16 && t == 4) ? 0 : -1;
				CHECK(rc == want, "%s offset %g of %c: rc %d, want %d", dbl ? "double" : "float",
				      bad[t], "AB"[side], rc, want);
				if (want)
					CHECK(cf[0] == 7 && cf[3] == 7 && cd[0] == 7 && cd[3] == 7,
					      "refused offset: c written");
			}
	for (int dbl = 0; dbl < 2; dbl++)
		for (int side = 0; side < 2; side++)
			for (unsigned fl = 0; fl < 4; fl += 3) {
				const double big = dbl ? 1.7e308 : 3e38;
				float af[2] = {1, 1}, bf[2] = {1, 1}, cf[1] = {7};
				double ad[2] = {1, 1}, bd[2] = {1, 1}, cd[1] = {7};
				if (side)
					bf[0] = (float)big, bd[0] = big;
				else
					af[0] = (float)big, ad[0] = big;
				mp_lp_opts o = {.alpha = 1.0, .flags = fl};
				double z = dbl ? -big : (double)-(float)big;
				if (side)
					o.b_zero = z;
				else
					o.a_zero = z;
				mp_lp_cache_stats s0, s1;
				mp_lp_cache_stats_get(&s0);
				int rc = mp_gemm_lp_ex(kern_under_test, lp, dbl, 1, 1, 2, dbl ? (void *)ad : af, 2, 1,
						       dbl ? (void *)bd : bf, 1, 1, dbl ? (void *)cd : cf, 1, 1, 1,
						       NULL, &o);
				mp_lp_cache_stats_get(&s1);
				CHECK(rc == -1 && cf[0] == 7 && cd[0] == 7,
				      "%s: %c' infinite (offset %g, flags %u): rc %d, c %g", dbl ? "double" : "float",
				      "AB"[side], z, fl, rc, dbl ? cd[0] : cf[0]);
				CHECK(s1.entries == s0.entries, "%c' infinite: cached", "AB"[side]);
				mp_lp_forget(NULL);
			}
	{
		/* float: 3e38 and the two floats below it, offset 3e38: A' = 0,
		 * -u, -2u (u = 2^104); refused without the offset */
		float a[3], ap[3], b[3] = {1, 2, 1}, c[1] = {7};
		a[0] = 3e38f;
		a[1] = nextafterf(a[0], 0);
		a[2] = nextafterf(a[1], 0);
		const float z = 3e38f;
		for (int k = 0; k < 3; k++)
			ap[k] = a[k] - z;
		CHECK(mp_gemm_lp(kern_under_test, lp, 0, 1, 1, 3, a, 3, 1, b, 1, 1, c, 1, 1, 0, NULL) == -1 &&
		      c[0] == 7, "3e38 without offset: not refused");
		mp_lp_opts o = {.alpha = 1.0, .a_zero = z};
		int rc = mp_gemm_lp_ex(kern_under_test, lp, 0, 1, 1, 3, a, 3, 1, b, 1, 1, c, 1, 1, 0, NULL, &o);
		double sa, za, sb;
		CHECK(rc == 0 && mp_lp_steps_ex(lp, 0, 1, 1, 3, ap, 3, 1, b, 1, 1, NULL, &sa, &za, &sb) == 0,
		      "3e38 with offset 3e38: rc %d", rc);
		long double ex = 0;
		for (int k = 0; k < 3; k++)
			ex += (long double)ap[k] * b[k];
		double bound = mp_lp_error_bound_ex(lp, 0, 3, ap, 1, b, 1, sa, za, sb, 0, 0, 1.0);
		CHECK(fabsl((long double)c[0] - ex) <= bound, "3e38 with offset 3e38: out %g exact %Lg "
		      "bound %g", c[0], ex, bound);
	}
}

/* What offsets are for: data far from 0 relative to its spread, A = 100 +
 * uniform[-1, 1].  sum_k (A - 100) B with a_zero = 100 quantizes A' (a step
 * set by 1); without offsets the same sum is sum_k A B (a step set by 101,
 * and B's error multiplied by |A| ~ 100) minus 100 colsum(B), the latter
 * exact at best.  Compares the two errors (each against its own exact
 * value: the error of the second is that of sum A B), checks the bound
 * and the bits of the call on materialised A'. */
static void shift_compare(mp_lp lp)
{
	enum { M = 24, N = 40, K = 256 };
	float *a = malloc(sizeof(float) * M * K), *ap = malloc(sizeof(float) * M * K);
	float *b = malloc(sizeof(float) * K * N);
	float *c0 = malloc(sizeof(float) * M * N), *c1 = malloc(sizeof(float) * M * N);
	float *cm = malloc(sizeof(float) * M * N);
	double sa[M], za[M], sb[N];
	const float z = 100.0f;
	for (int q = 0; q < M * K; q++) {
		a[q] = (float)(100.0 + urand());
		ap[q] = a[q] - z;
	}
	for (int q = 0; q < K * N; q++)
		b[q] = (float)urand();
	mp_lp_opts o = {.alpha = 1.0, .a_zero = z}, o0 = {.alpha = 1.0};
	CHECK(mp_gemm_lp(kern_under_test, lp, 0, M, N, K, a, K, 1, b, N, 1, c0, N, 1, 0, NULL) == 0 &&
	      mp_gemm_lp_ex(kern_under_test, lp, 0, M, N, K, a, K, 1, b, N, 1, c1, N, 1, 0, NULL, &o) == 0 &&
	      mp_gemm_lp_ex(kern_under_test, lp, 0, M, N, K, ap, K, 1, b, N, 1, cm, N, 1, 0, NULL, &o0) == 0 &&
	      mp_lp_steps_ex(lp, 0, M, N, K, ap, K, 1, b, N, 1, NULL, sa, za, sb) == 0, "shifted: rc");
	CHECK(!memcmp(c1, cm, sizeof(float) * M * N), "shifted: differs from the call on A'");
	double e0 = 0, e1 = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			long double x0 = 0, x1 = 0;
			for (int k = 0; k < K; k++) {
				x0 += (long double)a[i * K + k] * b[k * N + j];
				x1 += (long double)ap[i * K + k] * b[k * N + j];
			}
			double err1 = (double)fabsl((long double)c1[i * N + j] - x1);
			double bound = mp_lp_error_bound_ex(lp, 0, K, ap + i * K, 1, b + j, N, sa[i], za[i],
							    sb[j], 0, 0, 1.0);
			CHECK(err1 <= bound, "shifted (%d,%d): err %g > bound %g", i, j, err1, bound);
			e0 = fmax(e0, (double)fabsl((long double)c0[i * N + j] - x0));
			e1 = fmax(e1, err1);
		}
	printf("shifted A (100 + u, %dx%dx%d): max |err| with a_zero = 100: %.3g, of sum A B "
	       "without: %.3g (ratio %.4f)\n", M, N, K, e1, e0, e1 / e0);
	CHECK(e1 < 0.1 * e0, "offset 100 not more accurate than quantizing A (%g vs %g)", e1, e0);
	free(a);
	free(ap);
	free(b);
	free(c0);
	free(c1);
	free(cm);
}

/* mp_gemm_lp_ex's options and the per-operand scale modes, beyond the
 * random cases: the refusals (alpha not finite, flags, |alpha| that would
 * take the output out of range) leave c untouched; alpha 1 (or no options),
 * -1, 2 and 0 against mp_gemm_lp bit for bit; dynamic == 0 with both
 * pointers NULL is dynamic; INT8 / UINT8: an explicit scale equal to the
 * dynamic step, on either side, gives the dynamic result bit for bit (A
 * non-negative, where UINT8's dynamic zero point is 0 like the explicit
 * one's). */
static void test_options(mp_lp lp)
{
	enum { M = 13, N = 21, K = 37, MN = M * N };
	static float a[M * K], b[K * N], c0[MN], c1[MN], ci[MN];
	const int integer = lp == MP_LP_INT8 || lp == MP_LP_UINT8;
	for (int q = 0; q < M * K; q++)
		a[q] = (float)(integer ? fmax(0.0, urand()) * (1 + q % 3) : urand());
	for (int q = 0; q < K * N; q++)
		b[q] = (float)urand();
	for (int q = 0; q < MN; q++)
		ci[q] = (float)(urand() * 10);
#define LP_EX(out, acc, scp, optp)                                                          \
	mp_gemm_lp_ex(kern_under_test, lp, 0, M, N, K, a, K, 1, b, N, 1, out, N, 1, acc, scp, optp)
	mp_lp_scales dyn = {1, NULL, 0, NULL, 0}, nul = {0, NULL, 0, NULL, 0};
	CHECK(mp_gemm_lp(kern_under_test, lp, 0, M, N, K, a, K, 1, b, N, 1, c0, N, 1, 0, &dyn) == 0,
	      "options: reference call");
	/* refusals */
	const double bad_alpha[] = {NAN, INFINITY, -INFINITY};
	for (int t = 0; t < 4; t++) {
		/* t == 3: a flag beyond MP_LP_CONST_A | MP_LP_CONST_B */
		mp_lp_opts o = {.alpha = t < 3 ? bad_alpha[t] : 1.0, .flags = t < 3 ? 0u : 4u};
		memcpy(c1, ci, sizeof(c1));
		CHECK(LP_EX(c1, 0, &dyn, &o) == -1 && !memcmp(c1, ci, sizeof(c1)),
		      "alpha %g flags %u accepted", o.alpha, o.flags);
	}
	{
		/* 2 K max|A| max|B| |alpha| >= 2^126: refused for |alpha| 100,
		 * not for 1 or 1e-10 */
		float x = 1e18f, y = 1e18f, c = 7;
		const double al[] = {100.0, -100.0, 1.0, 1e-10};
		for (int t = 0; t < 4; t++) {
			mp_lp_opts o = {.alpha = al[t]};
			c = 7;
			int rc = mp_gemm_lp_ex(kern_under_test, lp, 0, 1, 1, 1, &x, 1, 1, &y, 1, 1, &c, 1, 1,
					       0, NULL, &o);
			if (t < 2)
				CHECK(rc == -1 && c == 7, "alpha %g: output overflow not refused", al[t]);
			else
				CHECK(rc == 0 && fabs(c / (1e36 * al[t]) - 1) < 0.1, "alpha %g: rc %d out %g",
				      al[t], rc, c);
		}
	}
	/* alpha 1, -1, 2 exactly, and no options */
	const double al[] = {1.0, -1.0, 2.0};
	for (int t = 0; t < 4; t++) {
		mp_lp_opts o = {.alpha = t < 3 ? al[t] : 0};
		CHECK(LP_EX(c1, 0, &dyn, t < 3 ? &o : NULL) == 0, "options: rc");
		long bad = 0;
		for (int q = 0; q < MN; q++) {
			float want = t == 3 ? c0[q] : (float)(al[t] * c0[q]);
			bad += memcmp(&c1[q], &want, sizeof(float)) != 0;
		}
		CHECK(bad == 0, "alpha %g: %ld outputs are not alpha * out(alpha 1)", t < 3 ? al[t] : 1.0,
		      bad);
	}
	/* alpha 0: zeros, or c unchanged when accumulating */
	{
		mp_lp_opts o = {.alpha = 0.0};
		long bad = 0;
		CHECK(LP_EX(c1, 0, &dyn, &o) == 0, "alpha 0: rc");
		for (int q = 0; q < MN; q++)
			bad += c1[q] != 0;
		memcpy(c1, ci, sizeof(c1));
		CHECK(LP_EX(c1, 1, &dyn, &o) == 0, "alpha 0: rc");
		for (int q = 0; q < MN; q++)
			bad += c1[q] != ci[q];
		CHECK(bad == 0, "alpha 0: %ld outputs changed", bad);
	}
	/* dynamic == 0, both pointers NULL: both dynamic */
	CHECK(LP_EX(c1, 0, &nul, NULL) == 0 && !memcmp(c0, c1, sizeof(c0)),
	      "dynamic 0 with NULL scales differs from dynamic");
	if (integer) {
		double sa[M], za[M], sb[N];
		float fa[M], fb[N];
		CHECK(mp_lp_steps_ex(lp, 0, M, N, K, a, K, 1, b, N, 1, &dyn, sa, za, sb) == 0, "steps");
		for (int i = 0; i < M; i++) {
			fa[i] = (float)sa[i]; /* float sources: the steps are floats */
			CHECK(za[i] == 0, "non-negative row %d: zero point %g", i, za[i]);
		}
		for (int j = 0; j < N; j++)
			fb[j] = (float)sb[j];
		mp_lp_scales ea = {0, fa, 1, NULL, 0}, eb = {0, NULL, 0, fb, 1};
		CHECK(LP_EX(c1, 0, &ea, NULL) == 0 && !memcmp(c0, c1, sizeof(c0)),
		      "A explicit (= dynamic steps), B dynamic: differs from dynamic");
		CHECK(LP_EX(c1, 0, &eb, NULL) == 0 && !memcmp(c0, c1, sizeof(c0)),
		      "A dynamic, B explicit (= dynamic steps): differs from dynamic");
	}
#undef LP_EX
}

/* uint8 against int8 (same kernel family) with A non-negative, as post-ReLU
 * activations are: uint8 spends its 256 codes on [0, max] where int8 has
 * 128, so A's representation error halves.  With B exact in int8 (integers,
 * 127 in every column: step 1, no error) only A's error is left and the
 * ratio of the errors is about 127/255; with random B, B's own error
 * (the same in both) remains.  Prints the ratios, checks them. */
static void relu_compare(void)
{
	enum { M = 96, N = 96, K = 512 };
	float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
	float *c = malloc(sizeof(float) * M * N);
	double *sa = malloc(sizeof(double) * M), *za = malloc(sizeof(double) * M);
	double *sb = malloc(sizeof(double) * N);
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			a[i * K + k] = (float)(fmax(0.0, urand()) * (1 + i % 7));
	for (int exact_b = 0; exact_b < 2; exact_b++) {
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				b[k * N + j] = exact_b ? (k == 0 ? 127.0f : (float)(mp_rand_below(255) - 127))
						       : (float)urand();
		double emax[2] = {0, 0}, e2[2] = {0, 0}, worst = 0;
		for (int u = 0; u < 2; u++) {
			mp_lp lp = u ? MP_LP_UINT8 : MP_LP_INT8;
			CHECK(mp_gemm_lp(kern_under_test, lp, 0, M, N, K, a, K, 1, b, N, 1, c, N, 1, 0, NULL) == 0 &&
			      mp_lp_steps_ex(lp, 0, M, N, K, a, K, 1, b, N, 1, NULL, sa, za, sb) == 0,
			      "relu: rc");
			for (int i = 0; i < M; i++)
				for (int j = 0; j < N; j++) {
					long double ex = 0;
					for (int k = 0; k < K; k++)
						ex += (long double)a[i * K + k] * b[k * N + j];
					double err = (double)fabsl((long double)c[i * N + j] - ex);
					double bound = mp_lp_error_bound_ex(lp, 0, K, a + i * K, 1, b + j, N, sa[i],
									    za[i], sb[j], 0, 0, 1.0);
					CHECK(err <= bound, "relu %s (%d,%d): err %g > bound %g",
					      u ? "uint8" : "int8", i, j, err, bound);
					emax[u] = fmax(emax[u], err);
					e2[u] += err * err;
					if (u)
						worst = fmax(worst, err / bound);
				}
		}
		double rmax = emax[1] / emax[0], rrms = sqrt(e2[1] / e2[0]);
		printf("relu A (%dx%dx%d), %s B: uint8 / int8 error: max %.3f, rms %.3f "
		       "(uint8 max|err| %.3g, worst err/bound %.3g)\n", M, N, K,
		       exact_b ? "int8-exact" : "random", rmax, rrms, emax[1], worst);
		CHECK(rrms < (exact_b ? 0.6 : 0.9), "uint8 not more accurate than int8 on relu data "
		      "(rms ratio %.3f)", rrms);
	}
	free(a);
	free(b);
	free(c);
	free(sa);
	free(za);
	free(sb);
}

/* --------------------------------------------------------------- scan */

#if defined(__x86_64__)
/* The AVX-512 scan of lp_avx512vnni.c (per-row max |X(r,t) - z| and the
 * NaN/Inf flag) against a plain reference of the same definition, on both
 * layouts it takes (st == 1, sr == 1), float and double, with offsets,
 * denormals, signed zeros, NaN and infinities; and through mp_lp_steps_ex
 * the scalar scan of lp.c (a layout with neither stride 1) against the
 * vector one: the same steps bit for bit. */
static void test_scan(void)
{
	static const long shapes[][2] = { {1, 1}, {1, 17}, {3, 15}, {5, 16}, {7, 33},
					  {16, 1}, {17, 64}, {33, 129}, {2, 1000} };
	for (int dbl = 0; dbl < 2; dbl++)
		for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
			for (int lay = 0; lay < 2; lay++)
				for (int rep = 0; rep < 6; rep++) {
					long R = shapes[sh][0], T = shapes[sh][1];
					ptrdiff_t sr = lay ? 1 : T, st = lay ? R : 1;
					size_t n = (size_t)(R * T), es = dbl ? 8 : 4;
					char *p = malloc(n * es + 8);
					double *got = malloc(sizeof(double) * (size_t)R);
					double z = rep % 3 == 0 ? 0.0 : rep % 3 == 1 ? 1.25 : -0.0;
					int bad_ref = 0;
					for (size_t q = 0; q < n; q++) {
						double v = urand() * (rep & 1 ? 1e3 : 1.0);
						uint64_t u = mp_rand();
						if (u % 97 == 0)
							v = (u & 1 ? -1.0 : 1.0) * 0x1p-140;   /* denormal float */
						if (u % 89 == 0)
							v = u & 2 ? -0.0 : 0.0;
						if (rep == 5 && q == n / 2)
							v = (u & 1) ? NAN : -INFINITY;
						if (dbl)
							((double *)p)[q] = v;
						else
							((float *)p)[q] = (float)v;
					}
					int rc = dbl ? mp_lp_amax_f64__avx512((const double *)p, R, T, sr, st, z,
									      mp_f64_bits(z) != 0, got)
						     : mp_lp_amax_f32__avx512((const float *)p, R, T, sr, st,
									      (float)z, mp_f32_bits((float)z) != 0, got);
					for (long r = 0; r < R; r++) {
						double m = 0;
						for (long t = 0; t < T; t++) {
							double x = dbl ? ((const double *)p)[r * sr + t * st]
								       : ((const float *)p)[r * sr + t * st];
							double y = dbl ? (z != 0 || signbit(z) ? x - z : x)
								       : (z != 0 || signbit(z) ? (double)((float)x - (float)z) : x);
							if (!isfinite(y))
								bad_ref = 1;
							else
								m = fabs(y) > m ? fabs(y) : m;
						}
						if (!bad_ref)
							CHECK(got[r] == m, "scan %s %ldx%ld lay %d z %g row %ld: %g vs %g",
							      dbl ? "f64" : "f32", R, T, lay, z, r, got[r], m);
					}
					CHECK((rc != 0) == bad_ref, "scan %s %ldx%ld: NaN/Inf flag %d vs %d",
					      dbl ? "f64" : "f32", R, T, rc, bad_ref);
					/* the scalar scan (strided copy) gives the same steps */
					if (!bad_ref) {
						char *q2 = malloc(n * 2 * es + 8);
						for (long r = 0; r < R; r++)
							for (long t = 0; t < T; t++)
								memcpy(q2 + ((size_t)(r * 2 * T + t * 2)) * es,
								       p + ((size_t)(r * sr + t * st)) * es, es);
						double *s1 = malloc(sizeof(double) * (size_t)R), *s2 = malloc(sizeof(double) * (size_t)R);
						double *z1 = malloc(sizeof(double) * (size_t)R), *z2 = malloc(sizeof(double) * (size_t)R);
						double sb1, sb2;
						mp_lp_scales dyn = {1, NULL, 0, NULL, 0};
						float one = 1.0f;
						int r1 = mp_lp_steps_ex(MP_LP_UINT8, dbl, R, 1, T, p, sr, st, &one, 0, 0, &dyn, s1, z1, &sb1);
						int r2 = mp_lp_steps_ex(MP_LP_UINT8, dbl, R, 1, T, q2, 2 * T, 2, &one, 0, 0, &dyn, s2, z2, &sb2);
						CHECK(r1 == r2, "steps rc %d vs %d", r1, r2);
						for (long r = 0; r1 == 0 && r < R; r++)
							CHECK(s1[r] == s2[r] && z1[r] == z2[r], "scalar vs vector scan: row %ld", r);
						free(q2), free(s1), free(s2), free(z1), free(z2);
					}
					free(p);
					free(got);
				}
}
#endif

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s int8|uint8|bf16|fp8_e4m3|fp8_e5m2|conv KERNEL [seed]\n",
			argv[0]);
		return 2;
	}
	const char *seed_env = getenv("MP_TEST_SEED");
	mp_rng_state = argc > 3 ? strtoull(argv[3], NULL, 0)
		       : seed_env ? strtoull(seed_env, NULL, 0) : (uint64_t)time(NULL);
	if (!mp_rng_state)
		mp_rng_state = 1;
	printf("seed %llu\n", (unsigned long long)mp_rng_state);
	if (!strcmp(argv[1], "scan")) {
#if defined(__x86_64__)
		if (!mp_kernel_available(MP_KERNEL_AVX512VNNI)) {
#endif
			printf("scan: no AVX-512 here\n");
			return 77;
#if defined(__x86_64__)
		}
		test_scan();
#endif
		printf("%s: %d failures\n", argv[1], failures);
		return failures ? 1 : 0;
	}
	if (!strcmp(argv[1], "conv")) {
		test_conv();
		printf("%s: %d failures\n", argv[1], failures);
		return failures ? 1 : 0;
	}
	mp_lp lp;
	if (!strcmp(argv[1], "int8"))
		lp = MP_LP_INT8;
	else if (!strcmp(argv[1], "uint8"))
		lp = MP_LP_UINT8;
	else if (!strcmp(argv[1], "bf16"))
		lp = MP_LP_BF16;
	else if (!strcmp(argv[1], "fp8_e4m3"))
		lp = MP_LP_FP8_E4M3;
	else if (!strcmp(argv[1], "fp8_e5m2"))
		lp = MP_LP_FP8_E5M2;
	else {
		fprintf(stderr, "unknown precision %s\n", argv[1]);
		return 2;
	}
	kern_under_test = rt_lp_kernel_by_name(argv[2]);
	if ((lp == MP_LP_INT8 || lp == MP_LP_UINT8) && !mp_kernel_available(kern_under_test))
		return 77;
	if (strcmp(mp_lp_kernel_name(kern_under_test, lp), argv[2]) != 0) {
		printf("%s: kernel %s not available here\n", argv[1], argv[2]);
		return 77;
	}
	test_prec(lp);
	test_options(lp);
	test_offsets(lp);
	shift_compare(lp);
	if (lp == MP_LP_UINT8)
		relu_compare();
	printf("%s/%s: %ld cases, %ld elements, worst err/bound %.3g, %d failures\n", argv[1],
	       argv[2], ncases, nelems, worst_ratio, failures);
	return failures ? 1 : 0;
}
