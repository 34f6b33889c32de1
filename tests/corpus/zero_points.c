// MIXPREC-TRANSFORMED: 5
/* zero_points.c -- zero points subtracted in the body: both as function
 * parameters, the u8 "- 128" constant, macro constants, only the right
 * operand's as a parameter, and a local computed before the nest. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void mm_zp_params(int M, int N, int K, const int8_t *x, int32_t zx,
					    const int8_t *w, int32_t zw, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (x[i * K + k] - zx) * (w[j * K + k] - zw);
			y[i * N + j] = s;
		}
}

__attribute__((noinline)) void mm_zp_u8_128(int M, int N, int K, const uint8_t *x,
					    const int8_t *w, int32_t *y)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (x[i * K + k] - 128) * w[k * N + j];
			y[i * N + j] = s;
		}
}

#define ZX 3
#define ZW (-5)
__attribute__((noinline)) void mm_zp_macros(int M, int N, int K, const int8_t *x,
					    const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				y[i * N + j] += (x[i * K + k] - ZX) * (w[k * N + j] - ZW);
}

__attribute__((noinline)) void mm_zp_right(int M, int N, int K, const uint8_t *x,
					   const uint8_t *w, int zw, int32_t *y)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * (w[j * K + k] - zw);
			y[i * N + j] = s;
		}
}

__attribute__((noinline)) void mm_zp_local(int M, int N, int K, const uint8_t *x,
					   const uint8_t *w, const int32_t *qparams, int32_t *y)
{
	const int32_t zx = qparams[0], zw = qparams[1];
#pragma mixprec(uint8, acc=int32)
	for (int j = 0; j < N; j++)
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (x[i * K + k] - zx) * (w[k * N + j] - zw);
			y[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		int8_t *xs = harness_rand_s8(mk), *ws = harness_rand_s8(kn);
		uint8_t *xu = harness_rand_u8(mk), *wu = harness_rand_u8(kn);
		int32_t *y = harness_rand_s32(mn, -(1 << 24), 1 << 24);
		int32_t qp[2];
		harness_fill_s32(qp, 2, 0, 255);
		int32_t zx = harness_randint(-128, 127), zw = harness_randint(-128, 127);

		mm_zp_params(M, N, K, xs, zx, ws, zw, y);
		harness_out_array(harness_name("zp_params %dx%dx%d", M, N, K), y, mn);
		mm_zp_u8_128(M, N, K, xu, ws, y);
		harness_out_array(harness_name("zp_u8_128 %dx%dx%d", M, N, K), y, mn);
		mm_zp_macros(M, N, K, xs, ws, y);
		harness_out_array(harness_name("zp_macros %dx%dx%d", M, N, K), y, mn);
		mm_zp_right(M, N, K, xu, wu, qp[1], y);
		harness_out_array(harness_name("zp_right %dx%dx%d", M, N, K), y, mn);
		mm_zp_local(M, N, K, xu, wu, qp, y);
		harness_out_array(harness_name("zp_local %dx%dx%d", M, N, K), y, mn);

		harness_free(xs);
		harness_free(ws);
		harness_free(xu);
		harness_free(wu);
		harness_free(y);
	}
}
