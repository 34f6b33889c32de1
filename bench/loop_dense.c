/* loop_dense.c -- an int8 dense layer as an inference loop calls it: y =
 * requant(bias + x w^T), x M x K (a batch of M tokens), w N x K (the
 * weights: the same on every call), k contiguous in both, with constant=w
 * (the weights packed once and kept between calls).  The same nest without
 * the clause is bench/loop_small.c's dense_i8.  Built twice, without the
 * plugin (suffix plain) and with it (suffix mixprec). */
#include <stdint.h>
#include "mixprec.h"

#ifndef MP_SUFFIX
#error "define MP_SUFFIX (plain or mixprec)"
#endif
#define MP_CAT2(a, b) a##b
#define MP_CAT(a, b) MP_CAT2(a, b)
#define F(name) MP_CAT(name, MP_SUFFIX)

void F(dense_i8_const_)(int M, int N, int K, const int8_t *x, const int8_t *w,
			const int32_t *bias, float scale, int8_t *y)
{
#pragma mixprec(int8, acc=int32, constant=w)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
			y[i * N + j] = (int8_t)mp_requant_fp32(s, scale, 0, -128, 127);
		}
}
