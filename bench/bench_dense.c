/* bench_dense.c -- an int8 dense layer (bench/loop_dense.c) called again
 * and again with new activations and the same weights, as an inference
 * loop calls it: batches of M = 2..128 tokens through a N x K layer
 * (default 4096 x 4096), one thread.  Times per call (median of REPS
 * calls, each on a new x):
 *   plain      the nest built without the plugin (-O3 -march=native);
 *   mixprec    the plugin build of the nest as written (bench/loop_small.c's
 *              dense_i8: the weights packed on every call when the kernels
 *              pack them);
 *   constant   the plugin build with constant=w (packed once, reused);
 *   oneDNN     dnnl_gemm_s8s8s32 on the same operands (int32 out, no
 *              requantization: a lower bound of its cost).
 * The three builds' outputs are compared byte for byte.
 * Usage: bench_dense [reps [N K]]   (default 21 4096 4096) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dnnl.h>
#include "bench_util.h"
#include "bench_dnnl.h"

typedef void (*dense_fn)(int, int, int, const int8_t *, const int8_t *, const int32_t *, float,
			 int8_t *);
void dense_i8_plain(int, int, int, const int8_t *, const int8_t *, const int32_t *, float,
		    int8_t *);
void dense_i8_mixprec(int, int, int, const int8_t *, const int8_t *, const int32_t *, float,
		      int8_t *);
void dense_i8_const_mixprec(int, int, int, const int8_t *, const int8_t *, const int32_t *,
			    float, int8_t *);

#define NX 8   /* activation sets, used in turn */

static double run(dense_fn f, int reps, int M, int N, int K, int8_t *const *x, const int8_t *w,
		  const int32_t *bias, int8_t *y)
{
	double *t = malloc(sizeof(double) * (size_t)reps);
	f(M, N, K, x[NX - 1], w, bias, 1.0f / 4096, y);   /* warm up */
	for (int r = 0; r < reps; r++) {
		double t0 = mp_now();
		f(M, N, K, x[r % NX], w, bias, 1.0f / 4096, y);
		t[r] = mp_now() - t0;
	}
	double m = mp_median(t, reps);
	free(t);
	return m;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 21;
	int N = argc > 3 ? atoi(argv[2]) : 4096, K = argc > 3 ? atoi(argv[3]) : 4096;
	static const int Ms[] = {2, 5, 8, 16, 32, 64, 128};
	const int nM = (int)(sizeof Ms / sizeof Ms[0]), maxM = 128;
	if (reps < NX || N < 1 || K < 1) {
		fprintf(stderr, "usage: %s [reps (>= %d) [N K]]\n", argv[0], NX);
		return 2;
	}
	int8_t *w = malloc((size_t)N * K), *x[NX];
	int32_t *bias = malloc(sizeof(int32_t) * (size_t)N);
	int32_t *c = malloc(sizeof(int32_t) * (size_t)maxM * N);
	int8_t *y0 = malloc((size_t)maxM * N), *y1 = malloc((size_t)maxM * N),
	       *y2 = malloc((size_t)maxM * N);
	for (size_t e = 0; e < (size_t)N * K; e++)
		w[e] = (int8_t)(int)(mp_frand() * 127.0f);
	for (int s = 0; s < NX; s++) {
		x[s] = malloc((size_t)maxM * K);
		for (size_t e = 0; e < (size_t)maxM * K; e++)
			x[s][e] = (int8_t)(int)(mp_frand() * 127.0f);
	}
	for (int j = 0; j < N; j++)
		bias[j] = (int32_t)(mp_frand() * 10000.0f);
	int bad = 0;
	printf("int8 dense layer %d x %d, one thread; ms per call (median of %d calls, new "
	       "activations each)\n", N, K, reps);
	printf("%5s %10s %10s %10s %10s  %9s %9s %9s\n", "M", "plain", "mixprec", "constant",
	       "oneDNN", "mp/plain", "const/mp", "const/dnnl");
	fflush(stdout);
	for (int q = 0; q < nM; q++) {
		int M = Ms[q];
		double tp = run(dense_i8_plain, reps, M, N, K, x, w, bias, y0);
		double tm = run(dense_i8_mixprec, reps, M, N, K, x, w, bias, y1);
		double tc = run(dense_i8_const_mixprec, reps, M, N, K, x, w, bias, y2);
		if (memcmp(y0, y1, (size_t)M * N) || memcmp(y0, y2, (size_t)M * N)) {
			printf("M %d: the plugin builds' outputs differ from the plain build's\n", M);
			bad = 1;
		}
		double *t = malloc(sizeof(double) * (size_t)reps);
		int32_t co = 0;
		for (int r = 0; r < reps; r++) {
			double t0 = mp_now();
			CHK(dnnl_gemm_s8s8s32('N', 'T', 'F', M, N, K, 1.0f, x[r % NX], K, 0, w, K, 0,
					      0.0f, c, N, &co));
			t[r] = mp_now() - t0;
		}
		double td = mp_median(t, reps);
		free(t);
		printf("%5d %10.3f %10.3f %10.3f %10.3f  %8.2fx %8.2fx %8.2fx\n", M, tp * 1e3,
		       tm * 1e3, tc * 1e3, td * 1e3, tp / tm, tm / tc, td / tc);
		fflush(stdout);
	}
	for (int s = 0; s < NX; s++)
		free(x[s]);
	free(w);
	free(bias);
	free(c);
	free(y0);
	free(y1);
	free(y2);
	if (bad)
		printf("RESULTS DIFFER\n");
	return bad;
}
