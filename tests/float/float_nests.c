/* float_nests.c -- end-to-end test of floating-point sources at lower
 * precision (#pragma mixprec(bf16 | int8 | fp8_e4m3 | fp8_e5m2) on float
 * and double loop nests), compiled WITH the GCC plugin.
 *
 * Not a bit-exact differential: each kernel is stamped twice from one
 * macro, once annotated (_Pragma passed as a macro argument) and once
 * plain (the reference, IEEE float/double as written).  On random data
 * with awkward shapes every element must satisfy
 *
 *   |lp - ref| <= mp_lp_error_bound(...)            (lp vs exact, the runtime's
 *                                                     documented bound)
 *               + gamma(K + 2) * (|init| + sum_k |A(i,k) B(k,j)|)
 *                                                    (ref vs exact: the reference
 *                                                     loop's own rounding, with
 *                                                     gamma(n) = n u / (1 - n u),
 *                                                     u = 2^-24 (float) / 2^-53)
 *
 * (the epilogues below are 1-Lipschitz or scale by 2, which the check
 * applies to the tolerance).  The annotated copies must run on the kernels
 * (mp_stats fast grows), and a NaN input must fall back (fallback grows)
 * with a result equal to the reference's exactly.
 *
 * `float_nests FACTOR` divides every tolerance by FACTOR (default 1): run
 * with 1000 to see the check fail.
 */
#include <mixprec.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOPRAGMA

/* bf16, float, tile mode with a bias init and a leaky-relu epilogue */
#define K_BF16(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, const float *bias, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = bias[j]; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s > 0 ? s : 0.125f * s; \
		} \
}
K_BF16(bf16_lp, _Pragma("mixprec(bf16)"))
K_BF16(bf16_ref, NOPRAGMA)

/* int8, double, direct mode (perfect nest, C += A*B, B transposed) */
#define K_I8(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const double *A, \
		const double *Bt, double *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) \
			for (int k = 0; k < K; k++) \
				C[i * N + j] += A[i * K + k] * Bt[j * K + k]; \
}
K_I8(i8_lp, _Pragma("mixprec(int8, scale=dynamic)"))
K_I8(i8_ref, NOPRAGMA)

/* fp8_e4m3, float, tile mode, k innermost in a j-i order, scaled store */
#define K_E4M3(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int j = 0; j < N; j++) \
		for (int i = 0; i < M; i++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = 2.0f * s; \
		} \
}
K_E4M3(e4m3_lp, _Pragma("mixprec(fp8_e4m3)"))
K_E4M3(e4m3_ref, NOPRAGMA)

/* fp8_e5m2, double, tile mode */
#define K_E5M2(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const double *A, \
		const double *B, double *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			double s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s; \
		} \
}
K_E5M2(e5m2_lp, _Pragma("mixprec(fp8_e5m2)"))
K_E5M2(e5m2_ref, NOPRAGMA)

static double factor = 1;
static long failures, checked;

static double rnd(void)
{
	return (double)rand() / RAND_MAX * 2.0 - 1.0;
}

static double gamma_n(long n, int dbl)
{
	double u = dbl ? 0x1p-53 : 0x1p-24;
	return n * u / (1 - n * u);
}

/* The tolerance of element (i, j): the lp bound plus the reference's own
 * error, for A(i,k) = a[i*a_si + k*a_sk] and B(k,j) = b[k*b_sk + j*b_sj]
 * (elements of float or double). */
static double tol(mp_lp lp, int dbl, long M, long N, long K, const void *a, long a_si,
		  long a_sk, const void *b, long b_sk, long b_sj, long i, long j,
		  double init, int accumulate)
{
	static double sa[4096], sb[4096];
	mp_lp_scales sc = { .dynamic = 1 };
	size_t e = dbl ? 8 : 4;
	double abs_sum = fabs(init);

	if (mp_lp_steps(lp, dbl, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, &sc, sa, sb) != 0)
		return -1;
	for (long k = 0; k < K; k++) {
		double x = dbl ? ((const double *)a)[i * a_si + k * a_sk]
			       : ((const float *)a)[i * a_si + k * a_sk];
		double y = dbl ? ((const double *)b)[k * b_sk + j * b_sj]
			       : ((const float *)b)[k * b_sk + j * b_sj];
		abs_sum += fabs(x * y);
	}
	double lpb = mp_lp_error_bound(lp, dbl, K, (const char *)a + (size_t)(i * a_si) * e,
				       a_sk, (const char *)b + (size_t)(j * b_sj) * e, b_sk,
				       sa[i], sb[j], init, accumulate);
	/* the tile is added to init in the source precision: one more rounding */
	return lpb + gamma_n(K + 2, dbl) * abs_sum + (dbl ? 0x1p-53 : 0x1p-24) * abs_sum;
}

static void expect(const char *what, double lp, double ref, double t, long i, long j)
{
	checked++;
	if (!(t >= 0) || !(fabs(lp - ref) <= t / factor)) {
		if (failures++ < 10)
			fprintf(stderr, "FAIL %s (%ld,%ld): lp %.9g ref %.9g diff %.3g tol %.3g\n",
				what, i, j, lp, ref, fabs(lp - ref), t / factor);
	}
}

static void expect_same(const char *what, const void *x, const void *y, size_t bytes)
{
	checked++;
	if (memcmp(x, y, bytes)) {
		failures++;
		fprintf(stderr, "FAIL %s: the fallback differs from the reference\n", what);
	}
}

static long fast_count(void)
{
	mp_stats s;
	mp_stats_get(&s);
	return s.fast;
}

static long fallback_count(void)
{
	mp_stats s;
	mp_stats_get(&s);
	return s.fallback;
}

static void check_fast(const char *what, long before)
{
	checked++;
	if (fast_count() <= before) {
		failures++;
		fprintf(stderr, "FAIL %s: did not run on the kernels (mp_stats.fast unchanged)\n",
			what);
	}
}

static void check_fallback(const char *what, long before)
{
	checked++;
	if (fallback_count() <= before) {
		failures++;
		fprintf(stderr, "FAIL %s: NaN input did not fall back\n", what);
	}
}

static void run_shape(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *Af = malloc(mk * 4 + 4), *Bf = malloc(kn * 4 + 4), *bias = malloc(N * 4 + 4);
	float *Cf = malloc(mn * 4 + 4), *Rf = malloc(mn * 4 + 4);
	double *Ad = malloc(mk * 8 + 8), *Bd = malloc(kn * 8 + 8);
	double *Cd = malloc(mn * 8 + 8), *Rd = malloc(mn * 8 + 8), *C0 = malloc(mn * 8 + 8);
	long before;

	for (size_t x = 0; x < mk; x++) {
		Af[x] = (float)(rnd() * (x % 7 == 0 ? 100 : 1));
		Ad[x] = rnd() * (x % 5 == 0 ? 1e-3 : 3);
	}
	for (size_t x = 0; x < kn; x++) {
		Bf[x] = (float)rnd();
		Bd[x] = rnd() * 1e4;
	}
	for (int j = 0; j < N; j++)
		bias[j] = (float)(rnd() * 10);
	for (size_t x = 0; x < mn; x++)
		C0[x] = rnd() * 50;

	/* bf16 */
	before = fast_count();
	bf16_lp(M, N, K, Af, Bf, bias, Cf);
	check_fast("bf16", before);
	bf16_ref(M, N, K, Af, Bf, bias, Rf);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("bf16", Cf[i * N + j], Rf[i * N + j],
			       tol(MP_LP_BF16, 0, M, N, K, Af, K, 1, Bf, N, 1, i, j, bias[j], 1), i, j);

	/* int8, double, direct (B transposed: B(k,j) = Bt[j*K + k]) */
	memcpy(Cd, C0, mn * 8);
	memcpy(Rd, C0, mn * 8);
	before = fast_count();
	i8_lp(M, N, K, Ad, Bd, Cd);
	check_fast("int8", before);
	i8_ref(M, N, K, Ad, Bd, Rd);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("int8", Cd[i * N + j], Rd[i * N + j],
			       tol(MP_LP_INT8, 1, M, N, K, Ad, K, 1, Bd, 1, K, i, j,
				   C0[i * N + j], 1), i, j);

	/* fp8_e4m3, float, tile; out = 2 s */
	before = fast_count();
	e4m3_lp(M, N, K, Af, Bf, Cf);
	check_fast("fp8_e4m3", before);
	e4m3_ref(M, N, K, Af, Bf, Rf);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("fp8_e4m3", Cf[i * N + j], Rf[i * N + j],
			       2 * tol(MP_LP_FP8_E4M3, 0, M, N, K, Af, K, 1, Bf, N, 1, i, j, 0, 0),
			       i, j);

	/* fp8_e5m2, double, tile */
	before = fast_count();
	e5m2_lp(M, N, K, Ad, Bd, Cd);
	check_fast("fp8_e5m2", before);
	e5m2_ref(M, N, K, Ad, Bd, Rd);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("fp8_e5m2", Cd[i * N + j], Rd[i * N + j],
			       tol(MP_LP_FP8_E5M2, 1, M, N, K, Ad, K, 1, Bd, N, 1, i, j, 0, 0),
			       i, j);

	/* NaN in an operand: the original loop runs, bit-identical */
	if (M > 0 && N > 0 && K > 0) {
		Af[mk / 2] = NAN;
		Ad[mk / 2] = NAN;
		before = fallback_count();
		bf16_lp(M, N, K, Af, Bf, bias, Cf);
		check_fallback("bf16 NaN", before);
		bf16_ref(M, N, K, Af, Bf, bias, Rf);
		expect_same("bf16 NaN", Cf, Rf, mn * 4);

		memcpy(Cd, C0, mn * 8);
		memcpy(Rd, C0, mn * 8);
		before = fallback_count();
		i8_lp(M, N, K, Ad, Bd, Cd);
		check_fallback("int8 NaN", before);
		i8_ref(M, N, K, Ad, Bd, Rd);
		expect_same("int8 NaN", Cd, Rd, mn * 8);

		before = fallback_count();
		e5m2_lp(M, N, K, Ad, Bd, Cd);
		check_fallback("fp8_e5m2 NaN", before);
		e5m2_ref(M, N, K, Ad, Bd, Rd);
		expect_same("fp8_e5m2 NaN", Cd, Rd, mn * 8);
	}
	free(Af); free(Bf); free(bias); free(Cf); free(Rf);
	free(Ad); free(Bd); free(Cd); free(Rd); free(C0);
}

int main(int argc, char **argv)
{
	static const int shapes[][3] = {
		{ 1, 1, 1 }, { 7, 13, 33 }, { 17, 5, 100 }, { 3, 70, 257 }, { 33, 31, 2 },
		{ 16, 16, 64 }, { 5, 1, 1000 },
	};
	const char *e = getenv("MIXPREC_DISABLE");

	if (argc > 1)
		factor = atof(argv[1]);
	if (e && *e && strcmp(e, "0")) {
		printf("MIXPREC_DISABLE is set: skipped\n");
		return 77;
	}
	srand(12345);
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
		run_shape(shapes[s][0], shapes[s][1], shapes[s][2]);
	printf("float_nests: %ld checks, %ld failed\n", checked, failures);
	return failures ? 1 : 0;
}
