// MIXPREC-TRANSFORMED: 6
/* acc64.c -- 64-bit accumulators of int32 products (nnom's `long
 * conv_out`, int64_t sums): the kernels' int32 sum is exact under the
 * int32 bound (checked at compile or run time: the call falls back above
 * it), widened where the tile is added (tile mode).  A scalar int64_t sum;
 * a long sum into the output, ijk; a convolution with a long accumulator
 * started at a shifted bias (nnom's form, one row loop); a reduction long
 * enough to pass the int32 bound (the loop as written runs, exact); the
 * ikj order into a long long output, refused; the product negated twice
 * or subtracted from 0 under the widening (`s += -(-(a*(b - zb)))`: GCC
 * folds it, the clangs found no product there; fuzz seed 1202576). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void a64_scalar(int M, int N, int K, const int8_t *A, const int8_t *B,
					  int64_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int64_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void a64_negneg(int M, int N, int K, const int8_t *A, const uint8_t *B,
					  int32_t zb, long long *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			long long s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += -(-(A[i * K + k] * (B[k * N + j] - zb)));
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void a64_zero_sub(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int64_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int64_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += 0 - A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* ... and a product narrowed under the 0 - y: the wrap to int8 is part of
   the value (refused; the clangs dropped the cast once the 0 - y was read
   as a negation: a review helper) */
__attribute__((noinline)) void a64_zero_sub_narrow(int M, int N, int K, const int8_t *A,
						   const int8_t *B, int64_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{accumulator 's' is 64-bit}}
		for (int j = 0; j < N; j++) {
			int64_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += 0 - (int8_t)(A[i * K + k] * B[k * N + j]);
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void a64_ijk(int M, int N, int K, const uint8_t *A, int32_t za,
				       const int8_t *B, long *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += (A[i * K + k] - za) * B[j * K + k];
}

/* nnom's local_convolve_CHW_q7_nonsquare, one output row: CHW input, the
   window test, a long accumulator started at the shifted bias */
__attribute__((noinline)) void a64_nnom(int W, int C, int OC, int KW, int P, const int8_t *Im_in,
					const int8_t *wt, const int8_t *bias, int bias_shift,
					int out_shift, int8_t *Im_out)
{
	int i, k, l, n, in_col;
	long conv_out;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < OC; i++) {
		for (k = 0; k < W; k++) {
			conv_out = ((int32_t)(bias[i]) << bias_shift) + (1 << (out_shift - 1));
			for (n = 0; n < KW; n++) {
				in_col = k + n - P;
				if (in_col >= 0 && in_col < W) {
					for (l = 0; l < C; l++)
						conv_out += Im_in[in_col + l * W] * wt[n * C * OC + l * OC + i];
				}
			}
			conv_out >>= out_shift;
			Im_out[i * W + k] = (int8_t)(conv_out > 127 ? 127 : conv_out < -128 ? -128 : conv_out);
		}
	}
}

/* a long reduction (constant K: 140000 * 128 * 128 > 2^31): the int32 sum
   could overflow, the int64 one does not; refused at compile time */
#define A64_LONG_K 140000
__attribute__((noinline)) void a64_long_k(int M, const int8_t *A, const int8_t *B, int64_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) { // expected-warning {{int32}}
		int64_t s = 0;
		for (int k = 0; k < A64_LONG_K; k++)
			s += A[(long)i * A64_LONG_K + k] * B[k];
		C[i] = s;
	}
}

/* the same reduction with a run-time K: the call checks the bound and runs
   the loop as written above it */
__attribute__((noinline)) void a64_long_rt(int M, int K, const int8_t *A, const int8_t *B,
					   int64_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int64_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[(long)i * K + k] * B[k];
		C[i] = s;
	}
}

__attribute__((noinline)) void a64_array(int M, int N, int K, const uint8_t *A, const int8_t *B,
					 long long *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{is 64-bit inside loops nested in reduction loop 'k'}}
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		uint8_t *Au = harness_rand_u8((size_t)M * K);
		int64_t *C = harness_alloc(mn * sizeof *C);
		for (size_t t = 0; t < mn; t++)
			C[t] = (int64_t)(harness_rand() >> 2) - ((int64_t)1 << 61);
		a64_scalar(M, N, K, A, B, C);
		harness_out_array(harness_name("scalar %dx%dx%d", M, N, K), C, mn);
		a64_zero_sub(M, N, K, A, B, C);
		harness_out_array(harness_name("zero_sub %dx%dx%d", M, N, K), C, mn);
		a64_zero_sub_narrow(M, N, K, A, B, C);
		harness_out_array(harness_name("zero_sub_narrow %dx%dx%d", M, N, K), C, mn);
		long long *D = harness_alloc(mn * sizeof *D);
		for (size_t t = 0; t < mn; t++)
			D[t] = (long long)(harness_rand() >> 2) - (1LL << 61);
		a64_array(M, N, K, Au, B, D);
		harness_out_array(harness_name("array %dx%dx%d", M, N, K), D, mn);
		{
			int32_t zb = harness_randint(0, 255);
			uint8_t *Bu = harness_rand_u8((size_t)K * N);
			a64_negneg(M, N, K, A, Bu, zb, D);
			harness_out_array(harness_name("negneg %dx%dx%d zb%d", M, N, K, zb), D, mn);
			harness_free(Bu);
		}
		{
			int32_t za = sh % 3 ? harness_randint(0, 255) : 0;
			int8_t *Bt = harness_rand_s8((size_t)K * N);
			a64_ijk(M, N, K, Au, za, Bt, (long *)D);
			harness_out_array(harness_name("ijk %dx%dx%d za%d", M, N, K, za), D, mn);
			harness_free(Bt);
		}
		{
			/* a row of W pixels, C channels, OC filters of KW taps */
			int W = 1 + M % 23, Cc = 1 + K % 17, OC = 1 + N % 13, KW = 1 + sh % 5;
			int P = sh % (KW + 1) / 2 + (KW > 1), bs = sh % 3, os = 1 + sh % 9;
			int8_t *in = harness_rand_s8((size_t)W * Cc), *wt = harness_rand_s8((size_t)KW * Cc * OC);
			int8_t *bias = harness_rand_s8((size_t)OC), *out = harness_rand_s8((size_t)W * OC);
			a64_nnom(W, Cc, OC, KW, P, in, wt, bias, bs, os, out);
			harness_out_array(harness_name("nnom %dx%d oc%d k%d p%d", W, Cc, OC, KW, P), out,
					  (size_t)W * OC);
			harness_free(in), harness_free(wt), harness_free(bias), harness_free(out);
		}
		harness_free(A);
		harness_free(B);
		harness_free(Au);
		harness_free(C);
		harness_free(D);
	}
	{
		/* past the int32 bound: every product -128 * -128, and random */
		int rows = 3;
		int8_t *A = harness_rand_s8((size_t)rows * A64_LONG_K), *B = harness_rand_s8(A64_LONG_K);
		int64_t C[3];
		for (size_t t = 0; t < (size_t)A64_LONG_K; t++)
			A[t] = B[t] = -128;
		a64_long_k(rows, A, B, C);
		harness_out_array("long_k", C, sizeof C / sizeof C[0]);
		a64_long_rt(rows, A64_LONG_K, A, B, C);
		harness_out_array("long_rt", C, sizeof C / sizeof C[0]);
		a64_long_rt(rows, 1000, A, B, C);
		harness_out_array("long_rt short", C, sizeof C / sizeof C[0]);
		harness_free(A);
		harness_free(B);
	}
}
