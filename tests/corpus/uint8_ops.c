// MIXPREC-TRANSFORMED: 4
/* uint8_ops.c -- unsigned and mixed-sign operands: u8 x s8 (the VNNI shape),
 * u8 x u8, s8 x u8, and u8 x s8 with the left operand transposed. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void mm_u8s8(int M, int N, int K, const uint8_t *A, const int8_t *B,
				       int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void mm_u8u8(int M, int N, int K, const uint8_t *A, const uint8_t *B,
				       int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void mm_s8u8(int M, int N, int K, const int8_t *A, const uint8_t *B,
				       int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

__attribute__((noinline)) void mm_u8s8_at(int M, int N, int K, const unsigned char *At,
					  const signed char *B, int *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int s = 0;
			for (int k = 0; k < K; k++)
				s += At[k * M + i] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int s = 0; s < harness_nshapes(); s++) {
		int M, N, K;
		harness_shape(s, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		uint8_t *Au = harness_rand_u8(mk), *Bu = harness_rand_u8(kn);
		int8_t *As = harness_rand_s8(mk), *Bs = harness_rand_s8(kn);
		int32_t *C = harness_rand_s32(mn, -(1 << 20), 1 << 20);

		mm_u8s8(M, N, K, Au, Bs, C);
		harness_out_array(harness_name("u8s8 %dx%dx%d", M, N, K), C, mn);
		mm_u8u8(M, N, K, Au, Bu, C);
		harness_out_array(harness_name("u8u8 %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, -(1 << 20), 1 << 20);
		mm_s8u8(M, N, K, As, Bu, C);
		harness_out_array(harness_name("s8u8 %dx%dx%d", M, N, K), C, mn);
		mm_u8s8_at(M, N, K, Au, (const signed char *)Bs, C);
		harness_out_array(harness_name("u8s8_at %dx%dx%d", M, N, K), C, mn);

		harness_free(Au);
		harness_free(Bu);
		harness_free(As);
		harness_free(Bs);
		harness_free(C);
	}
}
