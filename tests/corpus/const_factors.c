// MIXPREC-TRANSFORMED: 5
/* const_factors.c -- an int32 product of two 8-bit operands with several
 * constant factors: `2 * a * b * 3`, `-a * 3 * b`, `2 * a * b * -1`, and a
 * zero point written the other way round under a factor (`3 * a * (zb -
 * b)`, which GCC makes of `-= 3 * a * (b - zb)` under -fwrapv).  GCC's
 * front end folds the constants into one factor and transformed the first
 * three; clang 14 and clang 19 kept them where they stand and refused them
 * ("no contraction found"), and the three refused the last.  The core now
 * multiplies the constants into one factor (exact: int32 arithmetic wraps,
 * and its multiplication is commutative mod 2^32). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void cf_two(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += 2 * A[i * K + k] * B[k * N + j] * 3;
}

__attribute__((noinline)) void cf_neg(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += -A[i * K + k] * 3 * B[k * N + j];
}

__attribute__((noinline)) void cf_minus_one(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				C[i * N + j] -= 2 * A[i * K + k] * B[k * N + j] * -1;
}

__attribute__((noinline)) void cf_zp(int M, int N, int K, const int8_t *A, const uint8_t *B,
				     int zb, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += 3 * A[i * K + k] * (zb - B[k * N + j]);
}

/* a scalar accumulator, the constants on both sides */
__attribute__((noinline)) void cf_acc(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s = s + 5 * (A[i * K + k] * -7) * B[k * N + j];
			C[i * N + j] = s;
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
		uint8_t *U = harness_rand_u8((size_t)K * N + 1);
		int32_t *C = harness_rand_s32(mn + 1, -100000, 100000);

		cf_two(M, N, K, A, B, C);
		harness_out_array(harness_name("two %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn + 1, -100000, 100000);
		cf_neg(M, N, K, A, B, C);
		harness_out_array(harness_name("neg %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn + 1, -100000, 100000);
		cf_minus_one(M, N, K, A, B, C);
		harness_out_array(harness_name("minus_one %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn + 1, -100000, 100000);
		int zb = harness_randint(0, 255);
		cf_zp(M, N, K, A, U, zb, C);
		harness_out_array(harness_name("zp %dx%dx%d", M, N, K), C, mn);
		cf_acc(M, N, K, A, B, C);
		harness_out_array(harness_name("acc %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(U);
		harness_free(C);
	}
}
