// MIXPREC-TRANSFORMED: 4
/* matvec.c -- two-loop nests (N or M is 1): matrix-vector y = A x,
 * vector-matrix y = x B in both loop orders, and a gemv with bias and
 * requantization to int8. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void gemv(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

__attribute__((noinline)) void gevm(int N, int K, const uint8_t *x, const int8_t *B, int32_t *y)
{
#pragma mixprec(uint8, acc=int32)
	for (int j = 0; j < N; j++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += x[k] * B[k * N + j];
		y[j] = s;
	}
}

__attribute__((noinline)) void gevm_kj(int N, int K, const int8_t *x, const int8_t *B, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int j = 0; j < N; j++)
			y[j] += x[k] * B[k * N + j];
}

__attribute__((noinline)) void gemv_q8(int M, int K, const int8_t *A, const int8_t *x,
				       const int32_t *bias, float scale, int32_t zp, int8_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = bias[i];
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * (x[k] - 1);
		y[i] = (int8_t)mp_requant_fp32(s, scale, zp, -128, 127);
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int8_t *xs = harness_rand_s8((size_t)K);
		uint8_t *xu = harness_rand_u8((size_t)K);
		int32_t *bias = harness_rand_s32((size_t)M, -(1 << 16), 1 << 16);
		int32_t *yM = harness_rand_s32((size_t)M, -(1 << 24), 1 << 24);
		int32_t *yN = harness_rand_s32((size_t)N, -(1 << 24), 1 << 24);
		int8_t *y8 = harness_rand_s8((size_t)M);
		float scale = (float)harness_randint(1, 1 << 20) * 0x1p-30f;

		gemv(M, K, A, xs, yM);
		harness_out_array(harness_name("gemv %dx%d", M, K), yM, M);
		gevm_kj(N, K, xs, B, yN);
		harness_out_array(harness_name("gevm_kj %dx%d", N, K), yN, N);
		gevm(N, K, xu, B, yN);
		harness_out_array(harness_name("gevm %dx%d", N, K), yN, N);
		gemv_q8(M, K, A, xs, bias, scale, harness_randint(-3, 3), y8);
		harness_out_array(harness_name("gemv_q8 %dx%d", M, K), y8, M);

		harness_free(A);
		harness_free(B);
		harness_free(xs);
		harness_free(xu);
		harness_free(bias);
		harness_free(yM);
		harness_free(yN);
		harness_free(y8);
	}
}
