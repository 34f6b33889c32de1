/* bench_threads.c -- thread scaling (not a test): each case timed on 1 and
 * on T threads (omp_set_num_threads: the program's OpenMP runtime, which
 * libmixprec and oneDNN both follow; openblas_set_num_threads for
 * OpenBLAS), runs of the thread counts interleaved so that the machine's
 * noise falls on both alike; medians.  Prints one flushed line per case as
 * it goes, and the same numbers as CSV into the file given (default
 * bench_threads.csv).
 *   int8 1024^3          mp_gemm_x8 s8 x s8 -> s32 and oneDNN's
 *                        dnnl_gemm_s8s8s32
 *   dense 128x1024x1024  y = relu(x w^T + b) from float sources:
 *                        mp_gemm_lp_ex int8 (dynamic scales, and with
 *                        constant w), bf16, then bias + relu (on the
 *                        OpenMP team; serial after OpenBLAS); OpenBLAS
 *                        cblas_sgemm + bias + relu
 *   float 1024^3         mp_gemm_lp_ex int8 and bf16 against cblas_sgemm
 * Usage: bench_threads [threads [seconds_per_case [csv]]] */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include <dnnl.h>
#include "mixprec.h"
#include "bench_util.h"

void openblas_set_num_threads(int num_threads);

typedef struct bcase {
	const char *name, *method;
	long M, N, K;
	int kind;   /* 0 mp int8, 1 oneDNN, 2 lp int8, 3 lp int8 constant w, 4 lp bf16, 5 sgemm */
	int dense;  /* bias + relu after the product */
} bcase;

static int8_t *A8, *B8;
static int32_t *C32;
static float *X, *W, *Bias, *Y;

static void run(const bcase *c)
{
	long M = c->M, N = c->N, K = c->K;
	mp_kernel kern = mp_kernel_select();
	switch (c->kind) {
	case 0:
		mp_gemm_x8(kern, M, N, K, A8, MP_DT_S8, K, 1, 0, B8, MP_DT_S8, N, 1, 0, C32, N, 1, 0);
		return;
	case 1: {
		int32_t co = 0;
		dnnl_gemm_s8s8s32('N', 'N', 'F', M, N, K, 1.0f, A8, K, 0, B8, N, 0, 0.0f, C32, N,
				  &co);
		return;
	}
	case 5:
		/* y = x w^T: w is N x K, row-major */
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)N, (int)K, 1.0f, X,
			    (int)K, W, (int)K, 0.0f, Y, (int)N);
		break;
	default: {
		mp_lp_opts opt = {.alpha = 1.0, .flags = c->kind == 3 ? MP_LP_CONST_B : 0};
		mp_lp lp = c->kind == 4 ? MP_LP_BF16 : MP_LP_INT8;
		if (mp_gemm_lp_ex(kern, lp, 0, M, N, K, X, K, 1, W, 1, K, Y, N, 1, 0, NULL, &opt)) {
			fprintf(stderr, "mp_gemm_lp_ex refused %s\n", c->name);
			exit(1);
		}
	}
	}
	/* bias + relu: mixprec's (OpenMP) on the same threads as the product,
	   as the plugin's kernels fuse it into each thread's tiles; OpenBLAS's
	   on the calling thread (its own pthreads, still spinning after the
	   call, would compete with an OpenMP team: 0.87x with one) */
	if (c->dense)
#pragma omp parallel for schedule(static) if (c->kind != 5)
		for (long i = 0; i < M; i++)
			for (long j = 0; j < N; j++) {
				float s = Y[i * N + j] + Bias[j];
				Y[i * N + j] = s > 0 ? s : 0;
			}
}

static void set_threads(int t)
{
	omp_set_num_threads(t);
	openblas_set_num_threads(t);
}

int main(int argc, char **argv)
{
	int T = argc > 1 ? atoi(argv[1]) : 2;
	double budget = argc > 2 ? atof(argv[2]) : 1.5;
	const char *csv_name = argc > 3 ? argv[3] : "bench_threads.csv";
	const long S = 1024;
	static const bcase cases[] = {
		{"int8 1024^3", "mixprec mp_gemm_x8", 1024, 1024, 1024, 0, 0},
		{"int8 1024^3", "oneDNN dnnl_gemm_s8s8s32", 1024, 1024, 1024, 1, 0},
		{"dense 128x1024x1024", "mixprec int8", 128, 1024, 1024, 2, 1},
		{"dense 128x1024x1024", "mixprec int8 constant=w", 128, 1024, 1024, 3, 1},
		{"dense 128x1024x1024", "mixprec bf16", 128, 1024, 1024, 4, 1},
		{"dense 128x1024x1024", "OpenBLAS sgemm", 128, 1024, 1024, 5, 1},
		{"float 1024^3", "mixprec int8", 1024, 1024, 1024, 2, 0},
		{"float 1024^3", "mixprec bf16", 1024, 1024, 1024, 4, 0},
		{"float 1024^3", "OpenBLAS sgemm", 1024, 1024, 1024, 5, 0},
	};
	if (T < 2)
		T = 2;
	A8 = malloc(S * S);
	B8 = malloc(S * S);
	C32 = malloc(sizeof(int32_t) * S * S);
	X = malloc(sizeof(float) * S * S);
	W = malloc(sizeof(float) * S * S);
	Y = malloc(sizeof(float) * S * S);
	Bias = malloc(sizeof(float) * S);
	for (long i = 0; i < S * S; i++) {
		A8[i] = (int8_t)(mp_frand() * 127);
		B8[i] = (int8_t)(mp_frand() * 127);
		X[i] = mp_frand();
		W[i] = mp_frand();
	}
	for (long j = 0; j < S; j++)
		Bias[j] = mp_frand();
	FILE *csv = fopen(csv_name, "w");
	if (!csv) {
		perror(csv_name);
		return 1;
	}
	fprintf(csv, "case,method,M,N,K,threads,median_ms,gops,speedup_vs_1\n");
	printf("thread scaling, %d vs 1 thread; medians of interleaved runs (the machine may be "
	       "shared: expect noise); kernel %s\n", T, mp_kernel_name(mp_kernel_select()));
	printf("%-22s %-28s %10s %10s %8s %9s\n", "case", "method", "1 thr ms", "T thr ms",
	       "speedup", "T GOP/s");
	fflush(stdout);
	for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
		const bcase *c = &cases[ci];
		double t[2][512];
		int n = 0;
		for (int w = 0; w < 2; w++) {   /* warm-up (and the constant operand's miss) */
			set_threads(w ? T : 1);
			run(c);
		}
		double t0 = mp_now();
		while (n < 512 && (n < 5 || mp_now() - t0 < budget)) {
			for (int w = 0; w < 2; w++) {
				set_threads(w ? T : 1);
				double s = mp_now();
				run(c);
				t[w][n] = mp_now() - s;
			}
			n++;
		}
		double m1 = mp_median(t[0], n), mT = mp_median(t[1], n);
		double ops = 2.0 * c->M * c->N * c->K;
		printf("%-22s %-28s %10.3f %10.3f %7.2fx %9.1f   (%d runs each)\n", c->name, c->method,
		       m1 * 1e3, mT * 1e3, m1 / mT, ops / mT / 1e9, n);
		fflush(stdout);
		fprintf(csv, "%s,%s,%ld,%ld,%ld,1,%.4f,%.2f,1.00\n", c->name, c->method, c->M, c->N,
			c->K, m1 * 1e3, ops / m1 / 1e9);
		fprintf(csv, "%s,%s,%ld,%ld,%ld,%d,%.4f,%.2f,%.3f\n", c->name, c->method, c->M, c->N,
			c->K, T, mT * 1e3, ops / mT / 1e9, m1 / mT);
	}
	fclose(csv);
	printf("CSV: %s\n", csv_name);
	return 0;
}
