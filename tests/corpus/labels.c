// MIXPREC-TRANSFORMED: 2
/* labels.c -- labels inside the nest that no goto names (left from removed
 * code, or naming a loop for a debugger): they only name a statement, and
 * the nest is transformed under the three compilers (clang refused them as
 * "the target of a goto" while GCC transformed them).  A label a goto does
 * name stays refused. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) static void lb_k(int M, int K, const int8_t *w, const int8_t *x,
					   int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t acc = 0;
		for (int k = 0; k < K; k++) {
here: __attribute__((unused))
			acc += w[i * K + k] * x[k];
		}
		y[i] = acc > 100 ? 100 : acc;
	}
}

__attribute__((noinline)) static void lb_loops(int M, int N, int K, const int8_t *A,
					       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
rows: __attribute__((unused))
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
inner: __attribute__((unused))
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

__attribute__((noinline)) static void lb_goto(int M, int K, const int8_t *w, const int8_t *x,
					      int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) { // expected-warning {{not transformed}}
		int32_t acc = 0;
		for (int k = 0; k < K; k++) {
again:
			acc += w[i * K + k] * x[k];
			if (acc == INT32_MIN)
				goto again;
		}
		y[i] = acc;
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, -100000, 100000);
		int32_t *y = harness_rand_s32((size_t)M, -100000, 100000);

		lb_k(M, K, A, B, y);
		harness_out_array(harness_name("k %dx%d", M, K), y, (size_t)M);
		lb_loops(M, N, K, A, B, C);
		harness_out_array(harness_name("loops %dx%dx%d", M, N, K), C, mn);
		lb_goto(M, K, A, B, y);
		harness_out_array(harness_name("goto %dx%d", M, K), y, (size_t)M);
		harness_free(A);
		harness_free(B);
		harness_free(C);
		harness_free(y);
	}
}
