// MIXPREC-TRANSFORMED: 0
/* refuse_triangular.c -- a reduction whose extent depends on an outer
 * iterator (k < i, as TRMM writes it): the range of the sum changes from
 * one output element to the next, which stays refused.  (Triangular
 * output loops, j <= i with a rectangular k, are transformed:
 * triangular.c.) */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void tri_k_lt_i(int M, int N, const int8_t *A, const int8_t *B,
					  int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{triangular reduction}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < i; k++)
				s += A[i * M + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * M), *B = harness_rand_s8((size_t)M * N);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		tri_k_lt_i(M, N, A, B, C);
		harness_out_array(harness_name("k_lt_i %dx%d", M, N), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
