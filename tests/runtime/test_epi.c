/* test_epi.c -- checks mp_gemm_x8_epi (fused epilogues) of one kernel
 * family, bit for bit, against mp_gemm_x8_epi_ref (the plain loop, then the
 * header's helpers called per element):
 *   every epilogue kind x every output type (s8, u8, s32) x every bias
 *   layout (none, per column bias[j], per row bias[i], full 2-D, padded or
 *   transposed) on awkward shapes, including the vector paths (M == 1,
 *   N == 1 with every operand layout) and shapes beyond the blocking;
 *   adversarial parameters: accumulators near the int32 limits (init, bias),
 *   scales giving exact .5 ties, huge / tiny / negative / zero scales,
 *   gemmlowp shifts -31..30 and rndnu shifts -32..30, qm = INT32_MIN and
 *   other extremes, zero points that wrap, clamps inside / beyond the 8-bit
 *   range and inverted (qmin > qmax); fp32 cases also under all four
 *   rounding modes.  The whole output buffer (gaps, guard bands) must
 *   match.  Fault injection proves the comparison can fail.
 *
 * Usage: test_epi KERNEL [SEED]   (SEED also from MP_TEST_SEED).
 * Exits 77 when the CPU lacks the kernel. */
#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "mp_gemm.h"

#include "rt_test.h"

/* An operand with a wide guard band, all of it random bytes. */
static void arr_make(mp_operand *x, long rows, long cols, int lay, size_t esz)
{
	mp_operand_make(x, rows, cols, lay, esz, 64);
	for (size_t i = 0; i < x->bytes; i++)
		x->buf[i] = (unsigned char)mp_rand();
}

static int32_t pick(const int32_t *v, int n)
{
	return v[mp_rand_below(n)];
}

static int32_t rand_zp_in(void)
{
	switch (mp_rand_below(5)) {
	case 0: return 0;
	case 1: return (int32_t)mp_rand_below(7) - 3;
	case 2: return (int32_t)mp_rand_below(256) - 128;
	case 3: return (int32_t)mp_rand_below(256);
	default: return (int32_t)(uint32_t)mp_rand();
	}
}

/* An int32 near a limit, small, or anything. */
static int32_t rand_edge(void)
{
	switch (mp_rand_below(6)) {
	case 0: return 0;
	case 1: return (int32_t)mp_rand_below(2001) - 1000;
	case 2: return INT32_MAX - (int32_t)mp_rand_below(100000);
	case 3: return INT32_MIN + (int32_t)mp_rand_below(100000);
	case 4: return (int32_t)mp_rand_below(1 << 20) - (1 << 19);
	default: return (int32_t)(uint32_t)mp_rand();
	}
}

static float rand_scale(void)
{
	static const float s[] = {0.5f, 0.25f, 1.0f, 0.125f, 1.0f / 4096, 0.75f, -0.5f, 2.0f,
				  1e-6f, 3.0e5f, 1e30f, 1e-40f /* subnormal */, 0.0f,
				  0.0009765625f, 1.5f, -1e-3f};
	if (mp_rand_below(4) == 0)
		return (float)(mp_rand() % 100000) / 1e7f * (mp_rand_below(2) ? 1 : -1);
	return s[mp_rand_below(sizeof s / sizeof s[0])];
}

static void rand_clamp(int32_t *lo, int32_t *hi)
{
	static const int32_t p[][2] = {{-128, 127}, {0, 255}, {-100, 50}, {INT32_MIN, INT32_MAX},
				       {-100000, 70000}, {5, -5}, {-127, 127}, {0, 0},
				       {INT32_MIN, 0}, {-300, 300}};
	if (mp_rand_below(6) == 0) {
		*lo = (int32_t)(uint32_t)mp_rand();
		*hi = (int32_t)(uint32_t)mp_rand();
		return;
	}
	int k = (int)mp_rand_below(sizeof p / sizeof p[0]);
	*lo = p[k][0];
	*hi = p[k][1];
}

static void rand_epi_params(mp_epilogue *e)
{
	static const int32_t qms[] = {INT32_MIN, INT32_MAX, 1 << 30, 1518500250, -1, 0, -1518500250,
				      INT32_MIN + 1, 1 << 30 | 1};
	static const int32_t zps[] = {0, 3, -128, 127, 255, -1, INT32_MAX, INT32_MIN, 128};
	e->init = rand_edge();
	e->scale = rand_scale();
	e->qm = mp_rand_below(2) ? pick(qms, sizeof qms / sizeof qms[0])
			 : (mp_rand_below(2) ? (int32_t)(0x40000000u + (uint32_t)(mp_rand() & 0x3fffffff))
				     : (int32_t)(uint32_t)mp_rand());
	if (e->kind == MP_EPI_GEMMLOWP)
		e->shift = mp_rand_below(4) == 0 ? (mp_rand_below(2) ? -31 : 30) : (int)mp_rand_below(62) - 31;
	else
		e->shift = mp_rand_below(4) == 0 ? (mp_rand_below(2) ? -32 : 30) : (int)mp_rand_below(63) - 32;
	e->zp = mp_rand_below(3) ? pick(zps, sizeof zps / sizeof zps[0]) : (int32_t)(uint32_t)mp_rand();
	rand_clamp(&e->qmin, &e->qmax);
}

static int failures, cases;
static const char *kind_name[] = {"store", "fp32", "gemmlowp", "rndnu", "clamp"};
static const char *dt_name[] = {"s8", "u8", "s32"};
static const char *bias_name[] = {"none", "col", "row", "2d"};
static const int rmodes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};

/* One case.  inject: also perturb the output (and the reference's
 * parameters) and require the comparison to notice. */
static int check(mp_kernel kern, long M, long N, long K, int kind, int out_dt, int bias_kind,
		 int la, int lb, int lo, int rmode, int inject)
{
	int a_dt = (int)mp_rand_below(2), b_dt = (int)mp_rand_below(2);
	int32_t za = rand_zp_in(), zb = rand_zp_in();
	mp_operand A, B, O, Bi;
	arr_make(&A, M, K, la, 1);
	arr_make(&B, K, N, lb, 1);
	size_t esz = out_dt == MP_DT_S32 ? 4 : 1;
	arr_make(&O, M, N, lo, esz);
	mp_epilogue e;
	memset(&e, 0, sizeof e);
	e.kind = (mp_epi)kind;
	rand_epi_params(&e);
	if (inject) { /* parameters under which a wrong shift must show */
		e.qm = 1 << 30;
		e.shift = -2;
		e.zp = 0;
		e.qmin = INT32_MIN;
		e.qmax = INT32_MAX;
	}
	e.out_dt = out_dt;
	/* bias: per column (bias_si 0), per row (bias_sj 0), 2-D (any layout) */
	int bl = bias_kind == 3 ? (int)mp_rand_below(L_ZERO1) : L_ROW;
	arr_make(&Bi, bias_kind == 1 ? 1 : M, bias_kind == 2 ? 1 : N, bl, 4);
	if (mp_rand_below(3) == 0) /* small biases sometimes, else full-range words */
		for (size_t i = 0; i < Bi.bytes / 4; i++)
			((int32_t *)Bi.buf)[i] = (int32_t)mp_rand_below(20001) - 10000;
	e.bias = bias_kind ? (const int32_t *)Bi.base : NULL;
	e.bias_si = bias_kind == 1 ? 0 : Bi.s0;
	e.bias_sj = bias_kind == 2 ? 0 : Bi.s1;
	if (bias_kind == 2)
		e.bias_si = Bi.s0;
	unsigned char *got = malloc(O.bytes);
	memcpy(got, O.buf, O.bytes);
	mp_epilogue eg = e;
	e.out = O.base;
	e.out_si = O.s0;
	e.out_sj = O.s1;
	eg.out = (char *)got + (O.base - (char *)O.buf);
	eg.out_si = O.s0;
	eg.out_sj = O.s1;

	int old = fegetround();
	fesetround(rmodes[rmode]);
	mp_gemm_args g = {M, N, K, A.base, a_dt, A.s0, A.s1, za, B.base, b_dt, B.s0, B.s1, zb,
			  NULL, 0, 0, 0, &e, NULL, NULL};
	mp_gemm_x8_epi_ref(&g);
	mp_gemm_x8_epi(kern, M, N, K, A.base, a_dt, A.s0, A.s1, za, B.base, b_dt, B.s0, B.s1, zb,
		       &eg);
	fesetround(old);

	long bad = 0, first = -1;
	for (size_t i = 0; i < O.bytes; i++)
		if (O.buf[i] != got[i]) {
			if (first < 0)
				first = (long)i;
			bad++;
		}
	int fail = bad != 0;
	if (fail) {
		printf("FAIL %s M=%ld N=%ld K=%ld %s out=%s bias=%s(%s) a=%s b=%s za=%d zb=%d A=%s "
		       "B=%s O=%s round=%d: init=%d scale=%a qm=%d shift=%d zp=%d q=[%d,%d]: "
		       "%ld bytes differ, first at %ld\n",
		       mp_kernel_name(kern), M, N, K, kind_name[kind], dt_name[out_dt],
		       bias_name[bias_kind], lay_name[bl], dt_name[a_dt], dt_name[b_dt], za, zb,
		       lay_name[la], lay_name[lb], lay_name[lo], rmode, e.init, (double)e.scale,
		       e.qm, e.shift, e.zp, e.qmin, e.qmax, bad, first);
	}
	if (inject && !fail && M > 0 && N > 0) {
		/* 1. one flipped bit in an output element */
		long i = mp_rand_below(M), j = mp_rand_below(N);
		size_t off = (size_t)(((char *)eg.out - (char *)got) +
				      (i * O.s0 + j * O.s1) * (ptrdiff_t)esz + (ptrdiff_t)mp_rand_below((long)esz));
		got[off] ^= (unsigned char)(1u << mp_rand_below(8));
		if (!memcmp(O.buf, got, O.bytes)) {
			printf("FAIL fault injection: a flipped output bit went unnoticed\n");
			fail = 1;
		}
		memcpy(got, O.buf, O.bytes);
		/* 2. a stray write into the guard band */
		got[0] ^= 1;
		if (!memcmp(O.buf, got, O.bytes)) {
			printf("FAIL fault injection: a stray write went unnoticed\n");
			fail = 1;
		}
		/* 3. a reference with a wrong parameter (shift off by one) */
		memcpy(got, O.buf, O.bytes);
		e.shift -= 1;
		mp_gemm_x8_epi_ref(&g);
		if (!memcmp(O.buf, got, O.bytes)) {
			printf("FAIL fault injection: a wrong shift went unnoticed\n");
			fail = 1;
		}
	}
	free(A.buf);
	free(B.buf);
	free(O.buf);
	free(Bi.buf);
	free(got);
	cases++;
	failures += fail;
	return fail;
}

int main(int argc, char **argv)
{
	mp_kernel kern;
	int rc = rt_kernel_arg(argc, argv, &kern);
	if (rc)
		return rc;
	const char *s = argc > 2 ? argv[2] : getenv("MP_TEST_SEED");
	uint64_t seed = s ? strtoull(s, NULL, 0)
			  : (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid();
	mp_rng_state = seed ? seed : 1;
	printf("kernel %s, seed %llu (reproduce: %s %s %llu)\n", argv[1],
	       (unsigned long long)seed, argv[0], argv[1], (unsigned long long)seed);

	/* 1. every kind x output type x bias layout on awkward shapes, random
	 * operand / output layouts */
	static const long shapes[][3] = {
		{1, 1, 1},   {1, 1, 70},   {1, 17, 33},	 {17, 1, 65},  {1, 100, 300}, {100, 1, 300},
		{9, 37, 129}, {33, 65, 17}, {8, 32, 64},  {7, 31, 5},   {4, 70, 33},   {3, 33, 1029},
		{2, 5, 0},   {130, 70, 260}, {1, 1100, 9}, {1100, 1, 9}, {16, 16, 4},  {5, 129, 64}};
	const int ns = (int)(sizeof shapes / sizeof shapes[0]);
	for (int kind = 0; kind <= MP_EPI_CLAMP; kind++)
		for (int dt = 0; dt < 3; dt++)
			for (int bk = 0; bk < 4; bk++)
				for (int si = 0; si < ns; si++) {
					const long *d = shapes[si];
					int rm = kind == MP_EPI_FP32 ? (int)mp_rand_below(4) : 0;
					check(kern, d[0], d[1], d[2], kind, dt, bk, (int)mp_rand_below(L_COUNT),
					      (int)mp_rand_below(L_COUNT), (int)mp_rand_below(L_ZERO1), rm, 0);
				}

	/* 2. the vector paths: M == 1 and N == 1 with every operand layout */
	for (int la = 0; la < L_COUNT; la++)
		for (int lb = 0; lb < L_COUNT; lb++) {
			long K = 1 + mp_rand_below(200);
			check(kern, 1, 1 + mp_rand_below(80), K, (int)mp_rand_below(5), (int)mp_rand_below(3), (int)mp_rand_below(4), la,
			      lb, (int)mp_rand_below(L_ZERO1), (int)mp_rand_below(4), 0);
			check(kern, 1 + mp_rand_below(80), 1, K, (int)mp_rand_below(5), (int)mp_rand_below(3), (int)mp_rand_below(4), la,
			      lb, (int)mp_rand_below(L_ZERO1), (int)mp_rand_below(4), 0);
		}

	/* 3. many random fp32 / gemmlowp / rndnu cases on a mid-size shape,
	 * under every rounding mode */
	for (int r = 0; r < 4; r++)
		for (int t = 0; t < 40; t++)
			check(kern, 1 + mp_rand_below(40), 1 + mp_rand_below(70), mp_rand_below(100), 1 + (int)mp_rand_below(3),
			      (int)mp_rand_below(3), (int)mp_rand_below(4), (int)mp_rand_below(L_COUNT), (int)mp_rand_below(L_COUNT),
			      (int)mp_rand_below(L_ZERO1), r, 0);

	/* 4. the comparison can fail */
	int before = failures;
	check(kern, 17, 33, 65, MP_EPI_GEMMLOWP, MP_DT_S32, 3, L_ROW, L_ROW, L_ROW_PAD, 0, 1);
	if (failures != before)
		printf("FAIL: fault injection\n");

	printf("%d cases, %d failures\n", cases, failures);
	return failures ? 1 : 0;
}
