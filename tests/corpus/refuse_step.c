// MIXPREC-TRANSFORMED: 0
/* refuse_step.c -- loops whose step is not 1: k += 2 in the reduction,
 * i += 2 in the outer loop. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void st_k2(int M, int N, int K, const int8_t *A, const int8_t *B,
				     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{step}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k += 2)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void st_i2(int M, int N, int K, const int8_t *A, const int8_t *B,
				     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i += 2) // expected-warning {{step}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		st_k2(M, N, K, A, B, C);
		harness_out_array(harness_name("k2 %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		st_i2(M, N, K, A, B, C);
		harness_out_array(harness_name("i2 %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
