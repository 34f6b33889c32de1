/* loop_shapes.c -- issue 10's small constant shapes as a user writes them:
 * an int8 GEMM whose M, N and K are compile-time constants (C = A B, A M x K
 * and B K x N row-major, int32 out).  Built twice, without the plugin
 * (suffix plain) and with it (suffix mixprec); bench_shapes times both
 * against oneDNN over 2000 operand sets per shape. */
#include <stdint.h>
#include "mixprec.h"

#ifndef MP_SUFFIX
#error "define MP_SUFFIX (plain or mixprec)"
#endif
#define MP_CAT3_(a, b, c) a##b##c
#define MP_CAT3(a, b, c) MP_CAT3_(a, b, c)

#define SHAPE(M, N, K)                                                                     \
	void MP_CAT3(gemm_##M##x##N##x##K, _, MP_SUFFIX)(const int8_t *A, const int8_t *B,  \
							   int32_t *C)                     \
	{                                                                                  \
		_Pragma("mixprec(int8, acc=int32)")                                        \
		for (int i = 0; i < M; i++)                                                \
			for (int j = 0; j < N; j++) {                                      \
				int32_t s = 0;                                             \
				for (int k = 0; k < K; k++)                                \
					s += A[i * K + k] * B[k * N + j];                  \
				C[i * N + j] = s;                                          \
			}                                                                  \
	}
SHAPE(16, 16, 64)
SHAPE(32, 32, 32)
SHAPE(64, 64, 64)
