// MIXPREC-TRANSFORMED: 0
/* refuse_acc64.c -- 64-bit accumulators under acc=int32: a scalar int64_t
 * sum, and long long sums accumulated directly in a 64-bit output array. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void a64_scalar(int M, int N, int K, const int8_t *A, const int8_t *B,
					  int64_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{64-bit}}
		for (int j = 0; j < N; j++) {
			int64_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void a64_array(int M, int N, int K, const uint8_t *A, const int8_t *B,
					 long long *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{64-bit}}
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
		long long *D = harness_alloc(mn * sizeof *D);
		for (size_t t = 0; t < mn; t++)
			D[t] = (long long)(harness_rand() >> 2) - (1LL << 61);
		a64_array(M, N, K, Au, B, D);
		harness_out_array(harness_name("array %dx%dx%d", M, N, K), D, mn);
		harness_free(A);
		harness_free(B);
		harness_free(Au);
		harness_free(C);
		harness_free(D);
	}
}
