// MIXPREC-TRANSFORMED: 3
/* loop_while_forms.c -- more while loops inside the nest: the output loop
 * as a while (`j += 1`), an iterator declared before the nest and read after
 * it (`k = k + 1`), the iterator declared with the accumulator
 * (`int32_t s = 0, k = 0;`), and a `continue` that skips the increment
 * (refused: the iterator has two increments).  Same results and the same
 * diagnostics under GCC and clang. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void lwf_j(int M, int N, int K, const int8_t *A, const int8_t *B,
				     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int j = 0;
		while (j < N) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
			j += 1;
		}
	}
}

__attribute__((noinline)) int lwf_after(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
	int k = -7;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = j;
			k = 0;
			while (k < K) {
				s += A[i * K + k] * B[k * N + j];
				k = k + 1;
			}
			C[i * N + j] = s - 3;
		}
	return k;
}

__attribute__((noinline)) void lwf_decl(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0, k = 0;
			while (k < K) {
				s += A[i * K + k] * B[k * N + j];
				k++;
			}
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void lwf_continue(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{cannot find the induction variable}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			int k = 0;
			while (k < K) {
				if (A[i * K + k] == 0) {
					k++;
					continue;
				}
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
		lwf_j(M, N, K, A, B, C);
		harness_out_array(harness_name("while j %dx%dx%d", M, N, K), C, mn);
		harness_out_long(harness_name("while after k %dx%dx%d", M, N, K),
				 lwf_after(M, N, K, A, B, C));
		harness_out_array(harness_name("while after %dx%dx%d", M, N, K), C, mn);
		lwf_decl(M, N, K, A, B, C);
		harness_out_array(harness_name("while decl %dx%dx%d", M, N, K), C, mn);
		lwf_continue(M, N, K, A, B, C);
		harness_out_array(harness_name("while continue %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
