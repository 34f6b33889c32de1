/* bench_lp_const.c -- one-thread timings of mp_gemm_lp_ex on the dense
 * layer y = x w^T (M x N x K = 128 x 1024 x 1024 by default, float, x
 * row-major M x K, w row-major N x K read as the K x N operand B with
 * b_sk = 1, b_sj = K, dynamic scales), with and without MP_LP_CONST_B
 * (the weights quantized and packed once, by the first flagged call).
 * Prints the median of REPS calls of each, the first flagged call (the
 * miss, which also fills the cache) and checks that the outputs are
 * identical.  Not a test.
 * Usage: bench_lp_const [reps [M N K]]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mixprec.h"
#include "bench_util.h"

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);   /* progress as it goes, also into a pipe */
	int reps = argc > 1 ? atoi(argv[1]) : 20;
	long M = 128, N = 1024, K = 1024;
	if (argc > 4) {
		M = atol(argv[2]);
		N = atol(argv[3]);
		K = atol(argv[4]);
	}
	reps = reps < 1 ? 1 : reps;
	float *x = malloc(sizeof(float) * (size_t)(M * K));
	float *w = malloc(sizeof(float) * (size_t)(N * K));
	float *c0 = malloc(sizeof(float) * (size_t)(M * N));
	float *c1 = malloc(sizeof(float) * (size_t)(M * N));
	double *t = malloc(sizeof(double) * (size_t)reps);
	for (long q = 0; q < M * K; q++)
		x[q] = mp_frand();
	for (long q = 0; q < N * K; q++)
		w[q] = mp_frand();
	const mp_kernel kern = mp_kernel_select();
	const mp_lp lps[] = {MP_LP_INT8, MP_LP_BF16, MP_LP_FP8_E4M3};
	const char *names[] = {"int8 dyn", "bf16", "fp8_e4m3 dyn"};
	printf("dense %ldx%ldx%ld, float, w constant (MP_LP_CONST_B); median of %d calls, ms\n", M,
	       N, K, reps);
	printf("%-14s %-11s %10s %10s %12s %8s\n", "precision", "kernel", "no flag", "CONST_B",
	       "1st (miss)", "speedup");
	for (size_t l = 0; l < sizeof(lps) / sizeof(lps[0]); l++) {
		mp_lp_scales sc = {1, NULL, 0, NULL, 0};
		double med[2], first = 0;
		for (int f = 0; f < 2; f++) {
			mp_lp_opts o = {1.0, f ? MP_LP_CONST_B : 0u};
			float *c = f ? c1 : c0;
			for (int r = -1; r < reps; r++) {
				double t0 = mp_now();
				if (mp_gemm_lp_ex(kern, lps[l], 0, M, N, K, x, K, 1, w, 1, K, c, N, 1, 0, &sc,
						  &o)) {
					fprintf(stderr, "mp_gemm_lp_ex refused\n");
					return 1;
				}
				double dt = mp_now() - t0;
				if (r < 0) /* warm-up; with the flag, the miss */
					first = f ? dt : first;
				else
					t[r] = dt;
			}
			qsort(t, (size_t)reps, sizeof(double), mp_cmp_double);
			med[f] = t[reps / 2];
		}
		printf("%-14s %-11s %10.3f %10.3f %12.3f %7.2fx%s\n", names[l],
		       mp_lp_kernel_name(kern, lps[l]), med[0] * 1e3, med[1] * 1e3, first * 1e3,
		       med[0] / med[1],
		       memcmp(c0, c1, sizeof(float) * (size_t)(M * N)) ? "  OUTPUTS DIFFER" : "");
		mp_lp_forget(w);
	}
	free(x);
	free(w);
	free(c0);
	free(c1);
	free(t);
	return 0;
}
