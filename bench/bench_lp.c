/* bench_lp.c -- one-thread timings of mp_gemm_lp (int8 with dynamic
 * per-row / per-column scales, bf16, fp8 E4M3 with dynamic per-tensor
 * scales) against OpenBLAS cblas_sgemm (openblas_set_num_threads(1)), with
 * the measured error against a double reference (cblas_dgemm).  Not a
 * test.  Shapes: the dense layer y = relu(x w^T + b) at M x N x K =
 * 128 x 1024 x 1024 (x row-major, w N x K row-major), and a row-major
 * SGEMM C = A B at 1024^3.  Quantization / conversion of both operands is
 * inside the timed call (dynamic scales).  The same shapes also run as the
 * plain float loop a user writes (bench/loop_f32.c) built without the
 * plugin and with it under #pragma mixprec(int8 | uint8 | bf16 | fp8_e4m3),
 * and int8 with constant=w on the dense layer (the weights quantized and
 * packed by the warm-up call, reused by the timed ones).  Times are the
 * median of REPS runs (one run for the plain loop).  Last, a direct 3x3
 * convolution written in NCHW (loop_f32.c's conv_loop: the image rows over
 * two loops), plain and through the plugin, against OpenBLAS on im2col
 * (the copy timed with the sgemm).
 * Usage: bench_lp [reps]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cblas.h>
#include "mixprec.h"
#include "bench_util.h"

void openblas_set_num_threads(int);

typedef struct shape {
	const char *name;
	long M, N, K;
	int dense; /* B(k,j) = w[j*K + k], bias + relu epilogue */
} shape;

#define MP_LOOPS(v)                                                                   \
	void dense_loop_##v(int, int, int, const float *, const float *, const float *, \
			    float *);                                                  \
	void gemm_loop_##v(int, int, int, const float *, const float *, float *);       \
	void conv_loop_##v(int, int, int, int, int, int, const float *, const float *,  \
			   float *);
MP_LOOPS(plain)
MP_LOOPS(int8)
MP_LOOPS(bf16)
MP_LOOPS(fp8_e4m3)
MP_LOOPS(uint8)
MP_LOOPS(int8c)

enum { LOOP_PLAIN = 100, LOOP_INT8, LOOP_BF16, LOOP_FP8, LOOP_UINT8, LOOP_INT8C };

/* out = op(x, w) by method m (-1: OpenBLAS sgemm, LOOP_*: the loops of
 * loop_f32.c, else an mp_lp called directly). */
static void run(const shape *s, int m, const float *a, const float *b, const float *bias,
		float *c)
{
	long M = s->M, N = s->N, K = s->K;
	if (m >= LOOP_PLAIN) {
		static void (*const dense[])(int, int, int, const float *, const float *,
					     const float *, float *) = {
			dense_loop_plain, dense_loop_int8, dense_loop_bf16, dense_loop_fp8_e4m3,
			dense_loop_uint8, dense_loop_int8c};
		static void (*const gemm[])(int, int, int, const float *, const float *,
					    float *) = {
			gemm_loop_plain, gemm_loop_int8, gemm_loop_bf16, gemm_loop_fp8_e4m3,
			gemm_loop_uint8, gemm_loop_int8c};
		if (s->dense)
			dense[m - LOOP_PLAIN]((int)M, (int)N, (int)K, a, b, bias, c);
		else
			gemm[m - LOOP_PLAIN]((int)M, (int)N, (int)K, a, b, c);
		return;
	}
	if (s->dense)
		for (long i = 0; i < M; i++)
			memcpy(c + i * N, bias, sizeof(float) * (size_t)N);
	if (m < 0) {
		if (s->dense)
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)N, (int)K, 1.0f,
				    a, (int)K, b, (int)K, 1.0f, c, (int)N);
		else
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)N, (int)K,
				    1.0f, a, (int)K, b, (int)N, 0.0f, c, (int)N);
	} else {
		mp_lp_scales sc = {1, NULL, 0, NULL, 0};
		int rc = s->dense
			? mp_gemm_lp(mp_kernel_select(), (mp_lp)m, 0, M, N, K, a, K, 1, b, 1, K, c, N, 1, 1, &sc)
			: mp_gemm_lp(mp_kernel_select(), (mp_lp)m, 0, M, N, K, a, K, 1, b, N, 1, c, N, 1, 0, &sc);
		if (rc) {
			fprintf(stderr, "mp_gemm_lp refused\n");
			exit(1);
		}
	}
	if (s->dense)
		for (long q = 0; q < M * N; q++)
			c[q] = c[q] > 0 ? c[q] : 0;
}

/* The NCHW convolution: OpenBLAS on im2col, the loop plain and through the
 * plugin; error against a double reference. */
static void bench_conv(int reps, int C, int H, int OC)
{
	int W = H, KH = 3, KW = 3, OH = H - KH + 1, OW = W - KW + 1;
	long kt = (long)C * KH * KW, rows = (long)OH * OW, no = rows * OC;
	float *in = malloc(sizeof(float) * (size_t)C * H * W);
	float *w = malloc(sizeof(float) * (size_t)(OC * kt));
	float *out = malloc(sizeof(float) * (size_t)no);
	float *col = malloc(sizeof(float) * (size_t)(kt * rows));
	double *ref = calloc((size_t)no, sizeof(double));
	for (long q = 0; q < (long)C * H * W; q++)
		in[q] = mp_frand();
	for (long q = 0; q < OC * kt; q++)
		w[q] = mp_frand();
	for (int oc = 0; oc < OC; oc++)
		for (int c = 0; c < C; c++)
			for (int kh = 0; kh < KH; kh++)
				for (int kw = 0; kw < KW; kw++) {
					double wv = w[((oc * C + c) * KH + kh) * KW + kw];
					for (int oh = 0; oh < OH; oh++)
						for (int ow = 0; ow < OW; ow++)
							ref[(oc * OH + oh) * OW + ow] +=
								wv * in[(c * H + oh + kh) * W + ow + kw];
				}
	double rmax = 0;
	for (long q = 0; q < no; q++)
		rmax = fmax(rmax, fabs(ref[q]));
	static void (*const loops[])(int, int, int, int, int, int, const float *, const float *,
				     float *) = {
		conv_loop_plain, conv_loop_int8, conv_loop_bf16, conv_loop_fp8_e4m3, conv_loop_uint8};
	const char *names[] = { "openblas im2col", "loop, no plugin", "loop+plugin int8",
				"loop+plugin bf16", "loop+plugin fp8e4m3", "loop+plugin uint8" };
	printf("\nconv NCHW %dx%dx%d -> %dx%dx%d, 3x3 (GEMM %ldx%dx%ld)\n%-20s %10s %10s %8s %12s\n",
	       C, H, W, OC, OH, OW, rows, OC, kt, "method", "ms", "GFLOP/s", "vs BLAS",
	       "max|err|/max|ref|");
	double tblas = 0;
	for (int m = 0; m < 6; m++) {
		int nrep = m == 1 ? 1 : reps;
		double ts[256];
		nrep = nrep > 256 ? 256 : nrep < 1 ? 1 : nrep;
		for (int r = -(m != 1); r < nrep; r++) {   /* a warm-up run but for the plain loop */
			double t0 = mp_now();
			if (m == 0) {
				for (int c = 0; c < C; c++)
					for (int kh = 0; kh < KH; kh++)
						for (int kw = 0; kw < KW; kw++)
							for (int oh = 0; oh < OH; oh++)
								memcpy(col + ((c * KH + kh) * KW + kw) * rows + oh * OW,
								       in + (c * H + oh + kh) * W + kw,
								       sizeof(float) * (size_t)OW);
				cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, OC, (int)rows,
					    (int)kt, 1.0f, w, (int)kt, col, (int)rows, 0.0f, out, (int)rows);
			} else {
				loops[m - 1](C, H, W, OC, KH, KW, in, w, out);
			}
			if (r >= 0)
				ts[r] = mp_now() - t0;
		}
		double best = mp_median(ts, nrep);
		if (m == 0)
			tblas = best;
		double emax = 0;
		for (long q = 0; q < no; q++)
			emax = fmax(emax, fabs((double)out[q] - ref[q]));
		printf("%-20s %10.3f %10.1f %8.2fx %12.3g\n", names[m], best * 1e3,
		       2.0 * rows * OC * kt / best * 1e-9, tblas / best, emax / rmax);
	}
	free(in), free(w), free(out), free(col), free(ref);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);   /* progress as it goes, also into a pipe */
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	openblas_set_num_threads(1);
	shape shapes[] = {{"dense 128x1024x1024 relu(x w^T + b)", 128, 1024, 1024, 1},
			  {"sgemm 1024x1024x1024", 1024, 1024, 1024, 0}};
	const struct { int m; const char *name; } meth[] = {
		{-1, "openblas sgemm"}, {MP_LP_INT8, "mp int8 dyn"}, {MP_LP_BF16, "mp bf16"},
		{MP_LP_FP8_E4M3, "mp fp8_e4m3 dyn"}, {MP_LP_FP8_E5M2, "mp fp8_e5m2 dyn"},
		{LOOP_PLAIN, "loop, no plugin"}, {LOOP_INT8, "loop+plugin int8"},
		{LOOP_BF16, "loop+plugin bf16"}, {LOOP_FP8, "loop+plugin fp8e4m3"},
		{LOOP_UINT8, "loop+plugin uint8"}, {LOOP_INT8C, "loop+plugin int8 cw"}};
	printf("kernels: int8 %s, bf16/fp8 %s; %d reps, median time; \"cw\": constant=w "
	       "(dense layer; the weights packed once)\n",
	       mp_lp_kernel_name(mp_kernel_select(), MP_LP_INT8),
	       mp_lp_kernel_name(mp_kernel_select(), MP_LP_BF16), reps);
	for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		const shape *s = &shapes[si];
		long M = s->M, N = s->N, K = s->K;
		float *a = malloc(sizeof(float) * (size_t)(M * K));
		float *b = malloc(sizeof(float) * (size_t)(K * N));
		float *bias = malloc(sizeof(float) * (size_t)N);
		float *c = malloc(sizeof(float) * (size_t)(M * N));
		double *ad = malloc(sizeof(double) * (size_t)(M * K));
		double *bd = malloc(sizeof(double) * (size_t)(K * N));
		double *ref = malloc(sizeof(double) * (size_t)(M * N));
		for (long q = 0; q < M * K; q++)
			ad[q] = a[q] = mp_frand();
		for (long q = 0; q < K * N; q++)
			bd[q] = b[q] = mp_frand();
		for (long j = 0; j < N; j++)
			bias[j] = mp_frand();
		/* double reference */
		if (s->dense) {
			for (long i = 0; i < M; i++)
				for (long j = 0; j < N; j++)
					ref[i * N + j] = bias[j];
			cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)N, (int)K, 1.0,
				    ad, (int)K, bd, (int)K, 1.0, ref, (int)N);
			for (long q = 0; q < M * N; q++)
				ref[q] = ref[q] > 0 ? ref[q] : 0;
		} else {
			cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)N, (int)K, 1.0,
				    ad, (int)K, bd, (int)N, 0.0, ref, (int)N);
		}
		double rmax = 0;
		for (long q = 0; q < M * N; q++)
			rmax = fmax(rmax, fabs(ref[q]));
		printf("\n%s\n%-18s %10s %10s %8s %12s %12s\n", s->name, "method", "ms", "GFLOP/s",
		       "vs BLAS", "max|err|/max|ref|", "max rel(|ref|>0.1max)");
		double tblas = 0;
		for (size_t mi = 0; mi < sizeof(meth) / sizeof(meth[0]); mi++) {
			/* the plain loop is slow (about 1 GFLOP/s): one timed run */
			int nrep = meth[mi].m == LOOP_PLAIN ? 1 : reps;
			double ts[256];
			nrep = nrep > 256 ? 256 : nrep < 1 ? 1 : nrep;
			if (meth[mi].m != LOOP_PLAIN)
				run(s, meth[mi].m, a, b, bias, c); /* warm-up */
			for (int r = 0; r < nrep; r++) {
				double t0 = mp_now();
				run(s, meth[mi].m, a, b, bias, c);
				ts[r] = mp_now() - t0;
			}
			double best = mp_median(ts, nrep);
			if (meth[mi].m < 0)
				tblas = best;
			double emax = 0, erel = 0;
			for (long q = 0; q < M * N; q++) {
				double e = fabs((double)c[q] - ref[q]);
				emax = fmax(emax, e);
				if (fabs(ref[q]) > 0.1 * rmax)
					erel = fmax(erel, e / fabs(ref[q]));
			}
			printf("%-18s %10.3f %10.1f %8.2fx %12.3g %12.3g\n", meth[mi].name, best * 1e3,
			       2.0 * M * N * K / best * 1e-9, tblas / best, emax / rmax, erel);
		}
		free(a);
		free(b);
		free(bias);
		free(c);
		free(ad);
		free(bd);
		free(ref);
	}
	bench_conv(reps, 64, 30, 64);
	bench_conv(reps, 128, 16, 128);
	return 0;
}
