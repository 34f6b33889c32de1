/* test_lp.c -- mp_gemm_lp (floating-point sources at lower precision)
 * against the exact result: every output element must be within
 * mp_lp_error_bound (docs/error-bounds.md) of (c_old +) sum_k A B computed
 * in long double; the gaps of the output buffer stay untouched; NaN / Inf
 * inputs return -1 and leave c untouched; the vector kernels give the same
 * bits as the scalar reference; a fault-injection step proves the bound
 * check can fail.  "conv" checks the FP8 / bf16 conversion helpers
 * exhaustively against a brute-force reference.
 *
 * Usage: test_lp PREC KERNEL [SEED]
 *   PREC: int8 | bf16 | fp8_e4m3 | fp8_e5m2 | conv
 *   KERNEL: scalar | avx2 | avx512vnni (int8), scalar | avx512bf16 (others)
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

enum { P_RANDOM, P_OUTLIER, P_TIES, P_CANCEL, P_ZERO_RC, P_DENORMAL, P_WIDE, P_COUNT };
static const char *pname[] = {"random", "outlier", "ties", "cancel", "zero-rows/cols",
			      "denormal", "wide-range"};

/* Value of A(i,k) (isb = 0) or B(k,j) (isb = 1; r = j, t = k) for pattern p. */
static double gen(int p, int isb, long r, long t, mp_lp lp)
{
	switch (p) {
	case P_OUTLIER:
		return t == (r * 7 + 3) % 64 ? urand() * 1e4 : urand();
	case P_TIES:
		if (lp == MP_LP_INT8)
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
	default:
		return urand();
	}
}

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

static mp_kernel kern_under_test, kern_ref = MP_KERNEL_SCALAR;
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
	for (long i = 0; i < M; i++)
		for (long k = 0; k < K; k++)
			mat_set(&A, dbl, i, k, gen(pat, 0, i, k, lp));
	for (long k = 0; k < K; k++)
		for (long j = 0; j < N; j++)
			mat_set(&B, dbl, k, j, gen(pat, 1, j, k, lp));
	for (long i = 0; i < M; i++)
		for (long j = 0; j < N; j++)
			mat_set(&C, dbl, i, j, urand() * 10);
	/* explicit scales: per row of A, one scalar for B (stride 0);
	 * sometimes small enough to saturate */
	float *asc = malloc(sizeof(float) * (size_t)(M + 1)), bsc;
	double bmax = 0;
	for (long k = 0; k < K; k++)
		for (long j = 0; j < N; j++)
			bmax = fmax(bmax, fabs(mat_get(&B, dbl, k, j)));
	double qm = lp == MP_LP_INT8 ? 127 : lp == MP_LP_FP8_E4M3 ? 448 : 57344;
	double sat = expl == 2 ? 0.5 : 1.3;
	for (long i = 0; i < M; i++) {
		double am = 0;
		for (long k = 0; k < K; k++)
			am = fmax(am, fabs(mat_get(&A, dbl, i, k)));
		asc[i] = (float)(am > 0 ? am * sat / qm : 1.0);
	}
	bsc = (float)(bmax > 0 ? bmax * sat / qm : 1.0);
	/* explicit scales must be normal floats (a zero one is refused) */
	for (long i = 0; i < M; i++)
		asc[i] = asc[i] < FLT_MIN ? FLT_MIN : asc[i];
	bsc = bsc < FLT_MIN ? FLT_MIN : bsc;
	mp_lp_scales sc = {expl == 0, asc, 1, &bsc, 0};

	char *c0 = malloc(C.bytes);
	memcpy(c0, C.buf, C.bytes);
	int rc = mp_gemm_lp(kern_under_test, lp, dbl, M, N, K, A.base, A.s0, A.s1, B.base, B.s0,
			    B.s1, C.base, C.s0, C.s1, accumulate, &sc);
	CHECK(rc == 0, "rc %d (%s M=%ld N=%ld K=%ld)", rc, pname[pat], M, N, K);
	double *sa = malloc(sizeof(double) * (size_t)(M + 1));
	double *sb = malloc(sizeof(double) * (size_t)(N + 1));
	CHECK(mp_lp_steps(lp, dbl, M, N, K, A.base, A.s0, A.s1, B.base, B.s0, B.s1, &sc, sa, sb) == 0,
	      "steps");
	/* every element within its bound; compute the bound for the fault
	 * injection below */
	double fb = -1;
	long fi = 0, fj = 0;
	for (long i = 0; i < M; i++)
		for (long j = 0; j < N; j++) {
			ptrdiff_t o = i * C.s0 + j * C.s1;
			double cold = dbl ? ((double *)(c0 + (C.base - C.buf)))[o]
					  : ((float *)(c0 + (C.base - C.buf)))[o];
			long double ex = accumulate ? (long double)cold : 0;
			for (long k = 0; k < K; k++)
				ex += (long double)mat_get(&A, dbl, i, k) * mat_get(&B, dbl, k, j);
			double out = mat_get(&C, dbl, i, j);
			const char *arow = A.base + i * A.s0 * (ptrdiff_t)es;
			const char *bcol = B.base + j * B.s1 * (ptrdiff_t)es;
			double bound = mp_lp_error_bound(lp, dbl, K, arow, A.s1, bcol, B.s0, sa[i], sb[j],
							 cold, accumulate);
			double err = (double)fabsl((long double)out - ex);
			CHECK(err <= bound, "%s %s M=%ld N=%ld K=%ld (%ld,%ld) la=%d lb=%d acc=%d expl=%d: "
			      "out %.9g exact %.9Lg err %.3g > bound %.3g", pname[pat],
			      dbl ? "double" : "float", M, N, K, i, j, la, lb, accumulate, expl, out, ex, err,
			      bound);
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
		long double ex = accumulate ? (long double)cold : 0;
		for (long k = 0; k < K; k++)
			ex += (long double)mat_get(&A, dbl, fi, k) * mat_get(&B, dbl, k, fj);
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
		int rc2 = mp_gemm_lp(kern_ref, lp, dbl, M, N, K, A.base, A.s0, A.s1, B.base, B.s0, B.s1,
				     rbase, C.s0, C.s1, accumulate, &sc);
		CHECK(rc2 == 0 && memcmp(cr, save, C.bytes) == 0,
		      "%s differs from scalar reference (%s M=%ld N=%ld K=%ld)",
		      mp_lp_kernel_name(kern_under_test, lp), pname[pat], M, N, K);
		C.buf = save;
		free(cr);
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
			int rc3 = mp_gemm_lp(kern_under_test, lp, dbl, M, N, K, A.base, A.s0, A.s1, B.base,
					     B.s0, B.s1, C.base, C.s0, C.s1, accumulate, &sc);
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
	free(asc);
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
				int expl = lp == MP_LP_BF16 ? 0 : (int)mp_rand_below(3);
				if (pat == P_TIES)
					expl = 0;
				run_case(lp, dbl, M, N, K, pat, (int)mp_rand_below(4), (int)mp_rand_below(4), (int)mp_rand_below(3),
					 (int)mp_rand_below(2), expl);
			}
	/* every layout pair, both output layouts, accumulate on / off */
	for (int la = 0; la < 4; la++)
		for (int lb = 0; lb < 4; lb++)
			run_case(lp, (la + lb) % 2, 1 + mp_rand_below(20), 1 + mp_rand_below(50), 1 + mp_rand_below(100),
				 P_RANDOM, la, lb, (la + lb) % 3, lb % 2, (int)(lp != MP_LP_BF16) * (la % 3));
	/* blocking edges: beyond MC rows and NC columns, single rows/columns */
	run_case(lp, 0, 100, 1100, 24, P_RANDOM, 0, 0, 0, 1, 0);
	run_case(lp, 0, 130, 70, 33, P_OUTLIER, 0, 1, 0, 0, 0);
	run_case(lp, 0, 1, 300, 257, P_RANDOM, 0, 1, 0, 0, 0);
	run_case(lp, 0, 300, 1, 129, P_RANDOM, 1, 0, 1, 1, 0);
	run_case(lp, 1, 97, 65, 65, P_WIDE, 0, 0, 0, 1, 0);
	if (lp == MP_LP_INT8) /* K-chunks (int32 exactness) */
		run_case(lp, 0, 2, 3, MP_LP_I8_KC + 999, P_RANDOM, 0, 1, 0, 1, 0);
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

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s int8|bf16|fp8_e4m3|fp8_e5m2|conv KERNEL [seed]\n", argv[0]);
		return 2;
	}
	const char *seed_env = getenv("MP_TEST_SEED");
	mp_rng_state = argc > 3 ? strtoull(argv[3], NULL, 0)
		       : seed_env ? strtoull(seed_env, NULL, 0) : (uint64_t)time(NULL);
	if (!mp_rng_state)
		mp_rng_state = 1;
	printf("seed %llu\n", (unsigned long long)mp_rng_state);
	if (!strcmp(argv[1], "conv")) {
		test_conv();
		printf("%s: %d failures\n", argv[1], failures);
		return failures ? 1 : 0;
	}
	mp_lp lp;
	if (!strcmp(argv[1], "int8"))
		lp = MP_LP_INT8;
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
	if (!strcmp(argv[2], "avx512bf16"))
		kern_under_test = MP_KERNEL_AVX512VNNI;
	else if (!strcmp(argv[2], "avx512vnni"))
		kern_under_test = MP_KERNEL_AVX512VNNI;
	else if (!strcmp(argv[2], "avx2"))
		kern_under_test = MP_KERNEL_AVX2;
	else
		kern_under_test = MP_KERNEL_SCALAR;
	if (lp == MP_LP_INT8 && !mp_kernel_available(kern_under_test))
		return 77;
	if (strcmp(mp_lp_kernel_name(kern_under_test, lp), argv[2]) != 0) {
		printf("%s: kernel %s not available here\n", argv[1], argv[2]);
		return 77;
	}
	test_prec(lp);
	printf("%s/%s: %ld cases, %ld elements, worst err/bound %.3g, %d failures\n", argv[1],
	       argv[2], ncases, nelems, worst_ratio, failures);
	return failures ? 1 : 0;
}
