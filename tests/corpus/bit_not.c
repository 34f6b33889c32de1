// MIXPREC-TRANSFORMED: 3
/* bit_not.c -- an operand complemented: `a * ~b`, and what GCC's front end
 * makes of a negated operand with a zero point of -1 (`-(b + 1)` becomes
 * `~b`; found by tests/fuzz, seed 1202047).  GCC refused the folded form
 * ("no contraction found") where clang transformed the source as written;
 * clang refused `~b` written as such.  Both glues now read `~x` as
 * `-(x + 1)`, exact in wrapping integer arithmetic: the operand, a zero
 * point of -1, negated. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void bn_not(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += A[i * K + k] * ~B[k * N + j];
}

__attribute__((noinline)) void bn_neg_zp(int M, int N, int K, int ldb, const uint8_t *A,
					 const int8_t B[][ldb], const int32_t *za, const int32_t *bias,
					 int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 1; k < K + 1; k++)
				s += (A[i * K + (k - 1)] - za[0]) * -(B[k - 1][j] + 1);
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void bn_not_a(int M, int K, const uint8_t *A, const int8_t *x,
					int32_t *y)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += ~A[i * K + k] * x[k];
		y[i] = s;
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K + 1);
		int8_t *B = harness_rand_s8((size_t)K * N + 1);
		uint8_t *U = harness_rand_u8((size_t)M * K + 1);
		int32_t *bias = harness_rand_s32((size_t)N + 1, -100000, 100000);
		int32_t *C = harness_rand_s32(mn + 1, -100000, 100000);
		int32_t za = harness_randint(0, 255);

		bn_not(M, N, K, A, B, C);
		harness_out_array(harness_name("not %dx%dx%d", M, N, K), C, mn);
		if (N > 0) {
			bn_neg_zp(M, N, K, N, U, (const int8_t(*)[N])B, &za, bias, C);
			harness_out_array(harness_name("neg_zp %dx%dx%d", M, N, K), C, mn);
			bn_not_a(M, K, U, B, C);   /* B's first K elements the vector */
			harness_out_array(harness_name("not_a %dx%d", M, K), C, M);
		}
		harness_free(A);
		harness_free(B);
		harness_free(U);
		harness_free(bias);
		harness_free(C);
	}
}
