// MIXPREC-TRANSFORMED: 6
/* loop_orders.c -- one s8 x s8 -> int32 product C = A * B (A: M x K, B: K x N,
 * row-major, contiguous) in all six loop orders.  ijk / jik accumulate in a
 * scalar; ikj / jki zero the output inside the nest and accumulate into it;
 * kij / kji accumulate into the caller's (random) C. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void mm_ijk(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void mm_ikj(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++)
			C[i * N + j] = 0;
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
	}
}

__attribute__((noinline)) void mm_jik(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++)
		for (int i = 0; i < M; i++) {
			int s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void mm_jki(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) {
		for (int i = 0; i < M; i++)
			C[i * N + j] = 0;
		for (int k = 0; k < K; k++)
			for (int i = 0; i < M; i++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
	}
}

__attribute__((noinline)) void mm_kij(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

__attribute__((noinline)) void mm_kji(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int j = 0; j < N; j++)
			for (int i = 0; i < M; i++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

typedef void mm_fn(int, int, int, const int8_t *, const int8_t *, int32_t *);
static const struct {
	const char *name;
	mm_fn *fn;
} kernels[] = {
	{ "ijk", mm_ijk }, { "ikj", mm_ikj }, { "jik", mm_jik },
	{ "jki", mm_jki }, { "kij", mm_kij }, { "kji", mm_kji },
};

void corpus_main(void)
{
	for (int s = 0; s < harness_nshapes(); s++) {
		int M, N, K;
		harness_shape(s, 1, &M, &N, &K);
		for (size_t f = 0; f < sizeof kernels / sizeof kernels[0]; f++) {
			int8_t *A = harness_rand_s8((size_t)M * K);
			int8_t *B = harness_rand_s8((size_t)K * N);
			int32_t *C = harness_rand_s32((size_t)M * N, -(1 << 24), 1 << 24);
			kernels[f].fn(M, N, K, A, B, C);
			harness_out_array(harness_name("%s %dx%dx%d", kernels[f].name, M, N, K), C,
					  (size_t)M * N);
			harness_free(A);
			harness_free(B);
			harness_free(C);
		}
	}
}
