/* bench_polybench.c -- PolyBench/C 4.2.1 linear-algebra kernels as
 * PolyBench writes them (bench/loop_polybench.c: gemm, 2mm, syrk, gesummv, mvt,
 * doitgen, trmm; float data, the pragma
 * `#pragma mixprec(bf16)` in place of `#pragma scop`): the plain build
 * against the plugin build, one thread, both -O3 -march=native (issue 9's
 * PolyBench benchmark).  Per kernel: median times, the ratio, and the
 * error of the plugin build's result against the plain build's, as
 * max |diff| / max |plain| over the output.  Matrix-vector kernels whose
 * matrix is not constant= run as written (the runtime's cost model: the
 * packing costs more than the product), so their ratio is about 1.
 *
 * Usage: bench_polybench [reps]   (default 5) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

#define N1 512
#define N2 544
#define N3 576

#define DECL(sfx)                                                                              \
	void pb_gemm_##sfx(float, float, float (*)[N2], float (*)[N3], float (*)[N2]);         \
	void pb_2mm_##sfx(float, float, float (*)[N2], float (*)[N3], float (*)[N2],            \
			  float (*)[N2], float (*)[N2]);                                       \
	void pb_syrk_##sfx(float, float, float (*)[N1], float (*)[N3]);                        \
	void pb_gesummv_##sfx(float, float, float (*)[N1], float (*)[N1], float *, float *,    \
			      float *);                                                        \
	void pb_mvt_##sfx(float *, float *, float *, float *, float (*)[N1]);                  \
	void pb_doitgen_##sfx(float (*)[16][N1], float (*)[N1], float *);                     \
	void pb_trmm_##sfx(float, float (*)[N1], float (*)[N2]);
DECL(plain)
DECL(mixprec)

static float *mk(size_t n, int seed)
{
	float *p = malloc(n * sizeof(float));
	for (size_t i = 0; i < n; i++)
		p[i] = (float)((i * (size_t)(seed + 7) + (size_t)seed) % 1000) / 1000.0f - 0.5f;
	return p;
}

static double err(const float *a, const float *b, size_t n)
{
	double d = 0, m = 0;
	for (size_t i = 0; i < n; i++) {
		double x = fabs((double)a[i] - (double)b[i]), y = fabs((double)b[i]);
		d = x > d ? x : d;
		m = y > m ? y : m;
	}
	return m > 0 ? d / m : d;
}

/* Runs kernel K (a statement using the arrays of slot s) REPS times on
 * fresh copies of the inputs; the median time. */
#define TIME(med, reps, reset, call)                                                           \
	do {                                                                                   \
		double t_[64];                                                                 \
		for (int r_ = 0; r_ < (reps); r_++) {                                          \
			reset;                                                                 \
			double t0_ = mp_now();                                                 \
			call;                                                                  \
			t_[r_] = mp_now() - t0_;                                               \
		}                                                                              \
		med = mp_median(t_, (reps));                                                   \
	} while (0)

static void row(const char *name, double tp, double tm, double e)
{
	printf("  %-8s plain %9.3f ms   mixprec %9.3f ms   %6.2fx   error %.1e\n", name, tp * 1e3,
	       tm * 1e3, tp / tm, e);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	if (reps < 1 || reps > 64)
		reps = 5;
	printf("PolyBench/C 4.2.1 kernels as written, float, #pragma mixprec(bf16), one thread, "
	       "median of %d (N1 %d, N2 %d, N3 %d)\n", reps, N1, N2, N3);
	double tp, tm;
	size_t c12 = (size_t)N1 * N2, c13 = (size_t)N1 * N3, c32 = (size_t)N3 * N2;
	size_t c22 = (size_t)N2 * N2, c11 = (size_t)N1 * N1;
	float *A = mk(c13, 1), *B = mk(c32, 2), *C0 = mk(c12, 3), *C1 = malloc(c12 * 4),
	      *C2 = malloc(c12 * 4);
	/* gemm */
	TIME(tp, reps, memcpy(C1, C0, c12 * 4),
	     pb_gemm_plain(1.5f, 1.2f, (float (*)[N2])C1, (float (*)[N3])A, (float (*)[N2])B));
	TIME(tm, reps, memcpy(C2, C0, c12 * 4),
	     pb_gemm_mixprec(1.5f, 1.2f, (float (*)[N2])C2, (float (*)[N3])A, (float (*)[N2])B));
	row("gemm", tp, tm, err(C2, C1, c12));
	/* 2mm */
	float *Cm = mk(c22, 4), *D0 = mk(c12, 5), *D1 = malloc(c12 * 4), *D2 = malloc(c12 * 4);
	float *tmp = malloc(c12 * 4);
	TIME(tp, reps, memcpy(D1, D0, c12 * 4),
	     pb_2mm_plain(1.5f, 1.2f, (float (*)[N2])tmp, (float (*)[N3])A, (float (*)[N2])B,
			  (float (*)[N2])Cm, (float (*)[N2])D1));
	TIME(tm, reps, memcpy(D2, D0, c12 * 4),
	     pb_2mm_mixprec(1.5f, 1.2f, (float (*)[N2])tmp, (float (*)[N3])A, (float (*)[N2])B,
			    (float (*)[N2])Cm, (float (*)[N2])D2));
	row("2mm", tp, tm, err(D2, D1, c12));
	/* syrk */
	float *S0 = mk(c11, 6), *S1 = malloc(c11 * 4), *S2 = malloc(c11 * 4);
	TIME(tp, reps, memcpy(S1, S0, c11 * 4),
	     pb_syrk_plain(1.5f, 1.2f, (float (*)[N1])S1, (float (*)[N3])A));
	TIME(tm, reps, memcpy(S2, S0, c11 * 4),
	     pb_syrk_mixprec(1.5f, 1.2f, (float (*)[N1])S2, (float (*)[N3])A));
	row("syrk", tp, tm, err(S2, S1, c11));
	/* gesummv */
	float *GA = mk(c11, 7), *GB = mk(c11, 8), *x = mk(N1, 9), *t = malloc(N1 * 4);
	float *y1 = malloc(N1 * 4), *y2 = malloc(N1 * 4);
	TIME(tp, reps, (void)0,
	     pb_gesummv_plain(1.5f, 1.2f, (float (*)[N1])GA, (float (*)[N1])GB, t, x, y1));
	TIME(tm, reps, (void)0,
	     pb_gesummv_mixprec(1.5f, 1.2f, (float (*)[N1])GA, (float (*)[N1])GB, t, x, y2));
	row("gesummv", tp, tm, err(y2, y1, N1));
	/* mvt */
	float *x10 = mk(N1, 10), *x20 = mk(N1, 11), *yy1 = mk(N1, 12), *yy2 = mk(N1, 13);
	float *a1 = malloc(N1 * 4), *a2 = malloc(N1 * 4), *b1 = malloc(N1 * 4),
	      *b2 = malloc(N1 * 4);
	TIME(tp, reps, (memcpy(a1, x10, N1 * 4), memcpy(a2, x20, N1 * 4)),
	     pb_mvt_plain(a1, a2, yy1, yy2, (float (*)[N1])GA));
	TIME(tm, reps, (memcpy(b1, x10, N1 * 4), memcpy(b2, x20, N1 * 4)),
	     pb_mvt_mixprec(b1, b2, yy1, yy2, (float (*)[N1])GA));
	row("mvt", tp, tm, fmax(err(b1, a1, N1), err(b2, a2, N1)));
	/* doitgen */
	size_t cd = (size_t)16 * 16 * N1;
	float *R0 = mk(cd, 14), *R1 = malloc(cd * 4), *R2 = malloc(cd * 4), *C4 = mk(c11, 15);
	float *sum = malloc(N1 * 4);
	TIME(tp, reps, memcpy(R1, R0, cd * 4),
	     pb_doitgen_plain((float (*)[16][N1])R1, (float (*)[N1])C4, sum));
	TIME(tm, reps, memcpy(R2, R0, cd * 4),
	     pb_doitgen_mixprec((float (*)[16][N1])R2, (float (*)[N1])C4, sum));
	row("doitgen", tp, tm, err(R2, R1, cd));
	/* trmm (in place, triangular reduction) */
	float *T0 = mk(c12, 16), *T1 = malloc(c12 * 4), *T2 = malloc(c12 * 4);
	TIME(tp, reps, memcpy(T1, T0, c12 * 4),
	     pb_trmm_plain(1.5f, (float (*)[N1])GA, (float (*)[N2])T1));
	TIME(tm, reps, memcpy(T2, T0, c12 * 4),
	     pb_trmm_mixprec(1.5f, (float (*)[N1])GA, (float (*)[N2])T2));
	row("trmm", tp, tm, err(T2, T1, c12));
	return 0;
}
