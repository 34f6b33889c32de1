// MIXPREC-TRANSFORMED: 1
/* loop_while.c -- the reduction written as a while loop inside the nest
 * (the pragma itself stands before a for).  The GCC plugin sees the same
 * loop as for a for; the clang plugin takes the statement setting k right
 * before the while as its init and the body's last statement as its
 * increment (more forms in loop_while_forms.c). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void lw_while(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			int k = 0;
			while (k < K) {
				s += A[i * K + k] * B[k * N + j];
				k++;
			}
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
		lw_while(M, N, K, A, B, C);
		harness_out_array(harness_name("while %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
