// MIXPREC-TRANSFORMED: 4
/* constant_int8.c -- constant= on 8-bit integer nests: the weights a
 * dense layer reads on every call are packed once (the cache of
 * runtime/lp_cache.c) and reused while the activations change from call to
 * call, as an inference loop calls a layer.  Each nest is called three
 * times with new inputs and the same weights, then once more after the
 * weights changed and the program said so with mp_lp_forget (the clause's
 * promise, docs/pragma.md).  Forms: a fused requantizing dense layer (w as
 * B, k contiguous), a GEMM into int32 with row-major weights (DIRECT), a
 * tile-mode layer with its own epilogue, and weights as the rows operand
 * (A: constant=w names the left factor). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void ci_dense(int M, int N, int K, const int8_t *x, const int8_t *w,
					const int32_t *bias, float scale, int8_t *y)
{
#pragma mixprec(int8, acc=int32, constant=w)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
			y[i * N + j] = (int8_t)mp_requant_fp32(s, scale, 3, -128, 127);
		}
}

__attribute__((noinline)) void ci_gemm(int M, int N, int K, const uint8_t *a, const int8_t *W,
				       int32_t *C, int32_t za)
{
#pragma mixprec(uint8, acc=int32, constant=W)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (a[i * K + k] - za) * W[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ci_tile(int M, int N, int K, const int8_t *x, const int8_t *w,
				       int32_t *out)
{
#pragma mixprec(int8, acc=int32, constant=w)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += w[j * K + k] * x[i * K + k];
			out[i * N + j] = s > 0 ? s / 3 : -(s & 255);
		}
}

/* the weights are the rows operand: out[o][t] = sum_i w[o][i] * x[t][i] */
__attribute__((noinline)) void ci_rows(int O, int T, int I, const int8_t *w, const int8_t *x,
				       int32_t *out)
{
#pragma mixprec(int8, acc=int32, constant=w)
	for (int o = 0; o < O; o++)
		for (int t = 0; t < T; t++) {
			int32_t s = 0;
			for (int i = 0; i < I; i++)
				s += w[o * I + i] * x[t * I + i];
			out[o * T + t] = s;
		}
}

void corpus_main(void)
{
	/* the awkward shapes, then weights of 70 x 300 bytes: the cache
	   keeps weights of 16 KiB and more (smaller ones pack faster) */
	for (int sh = 0; sh <= harness_nshapes(); sh++) {
		int M = 9, N = 70, K = 300;
		if (sh < harness_nshapes())
			harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N + 1;
		int8_t *w = harness_rand_s8((size_t)N * K + 1);
		int8_t *W = harness_rand_s8((size_t)K * N + 1);
		int32_t *bias = harness_rand_s32((size_t)N + 1, -5000, 5000);
		int8_t *y = harness_alloc(mn);
		int32_t *C = harness_alloc(4 * mn);
		float scale = 1.0f / (float)harness_randint(16, 4096);
		for (int call = 0; call < 4; call++) {
			if (call == 3) {   /* new weights, and the program says so */
				harness_fill_s8(w, (size_t)N * K + 1);
				harness_fill_s8(W, (size_t)K * N + 1);
				mp_lp_forget(w);
				mp_lp_forget(W);
			}
			int8_t *x = harness_rand_s8((size_t)M * K + 1);
			uint8_t *a = harness_rand_u8((size_t)M * K + 1);
			int32_t za = harness_randint(0, 255);
			ci_dense(M, N, K, x, w, bias, scale, y);
			harness_out_array(harness_name("dense %dx%dx%d call %d", M, N, K, call), y,
					     (size_t)M * N);
			ci_gemm(M, N, K, a, W, C, za);
			harness_out_array(harness_name("gemm %dx%dx%d call %d", M, N, K, call), C,
					  (size_t)M * N);
			ci_tile(M, N, K, x, w, C);
			harness_out_array(harness_name("tile %dx%dx%d call %d", M, N, K, call), C,
					  (size_t)M * N);
			ci_rows(N, M, K, w, x, C);
			harness_out_array(harness_name("rows %dx%dx%d call %d", N, M, K, call), C,
					  (size_t)M * N);
			harness_free(x);
			harness_free(a);
		}
		/* freed: its address may come back for other contents */
		mp_lp_forget(w);
		mp_lp_forget(W);
		harness_free(w);
		harness_free(W);
		harness_free(bias);
		harness_free(y);
		harness_free(C);
	}
}
