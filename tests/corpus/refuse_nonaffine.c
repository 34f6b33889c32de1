// MIXPREC-TRANSFORMED: 0
/* refuse_nonaffine.c -- subscripts that are not affine in the iterators:
 * a gather through an index array along k, an indirect row along j. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void na_gather_k(int M, int N, int K, const int8_t *A, const int *idx,
					   const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not affine}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + idx[k]] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void na_perm_j(int M, int N, int K, const int8_t *A, const int *perm,
					 const int8_t *Bt, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not affine}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * Bt[perm[j] * K + k];
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
		int *idx = harness_alloc((size_t)(K + N) * sizeof *idx);
		for (int t = 0; t < K; t++)
			idx[t] = harness_randint(0, K - 1);
		for (int t = 0; t < N; t++)
			idx[K + t] = harness_randint(0, N - 1);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		na_gather_k(M, N, K, A, idx, B, C);
		harness_out_array(harness_name("gather_k %dx%dx%d", M, N, K), C, mn);
		na_perm_j(M, N, K, A, idx + K, B, C);
		harness_out_array(harness_name("perm_j %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(idx);
		harness_free(C);
	}
}
