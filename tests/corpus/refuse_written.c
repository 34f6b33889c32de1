// MIXPREC-TRANSFORMED: 0
/* refuse_written.c -- an operand of the reduction is written inside the
 * nest (the same array, provably): the plugin must leave the loop and warn. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void wr_operand_a(int M, int N, int K, int8_t *A, const int8_t *B,
					    int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{writes to}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
			A[i * K] = (int8_t)(s >> 9);
		}
}

#define G_M 9
#define G_N 7
#define G_K 13
int8_t gX[G_M][G_K];
int8_t gW[G_N][G_K];
int32_t gY[G_M][G_N];

__attribute__((noinline)) void wr_global_w(void)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < G_M; i++) // expected-warning {{writes to}}
		for (int j = 0; j < G_N; j++) {
			int32_t s = 0;
			for (int k = 0; k < G_K; k++)
				s += gX[i][k] * gW[j][k];
			gY[i][j] = s;
			gW[j][0] ^= 1;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 0, &M, &N, &K);
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32((size_t)M * N, INT32_MIN, INT32_MAX);
		wr_operand_a(M, N, K, A, B, C);
		harness_out_array(harness_name("operand_a.C %dx%dx%d", M, N, K), C, (size_t)M * N);
		harness_out_array(harness_name("operand_a.A %dx%dx%d", M, N, K), A, (size_t)M * K);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
	harness_fill_s8(&gX[0][0], sizeof gX);
	harness_fill_s8(&gW[0][0], sizeof gW);
	wr_global_w();
	harness_out("global_w.Y", gY, sizeof gY);
	harness_out("global_w.W", gW, sizeof gW);
}
