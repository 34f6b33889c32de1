// MIXPREC-TRANSFORMED: 11
/* epilogues.c -- per-output-point epilogues after the reduction: the user's
 * own __attribute__((const)) requantization function, the three mixprec.h
 * requantization helpers (per-channel and per-tensor), clamps written with
 * ?: and with if/else, shifts and casts to int8, float scaling with
 * nearbyintf (with a multiply-add the compiler may contract), and a store
 * through a macro. */
#include "harness.h"
#include <mixprec.h>

/* The user's requantization: round-to-nearest shift, then saturate. */
__attribute__((const, noinline)) int8_t user_requant(int32_t acc, int32_t mult, int shift)
{
	int64_t v = ((int64_t)acc * mult + ((int64_t)1 << (shift - 1))) >> shift;
	return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

__attribute__((noinline)) void ep_user_fn(int M, int N, int K, const int8_t *A, const int8_t *B,
					  int32_t mult, int shift, int8_t *Y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			Y[i * N + j] = user_requant(s, mult, shift);
		}
}

__attribute__((noinline)) void ep_fp32(int M, int N, int K, const uint8_t *X, int32_t zx,
				       const int8_t *W, const int32_t *bias, const float *scale,
				       int32_t zy, uint8_t *Y)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += (X[i * K + k] - zx) * W[j * K + k];
			Y[i * N + j] = (uint8_t)mp_requant_fp32(s, scale[j], zy, 0, 255);
		}
}

__attribute__((noinline)) void ep_gemmlowp(int M, int N, int K, const int8_t *X, const int8_t *W,
					   const int32_t *qm, const int *shift, int32_t zy,
					   int8_t *Y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[j * K + k];
			Y[i * N + j] = (int8_t)mp_requant_gemmlowp(s, qm[j], shift[j], zy, -128, 127);
		}
}

__attribute__((noinline)) void ep_rndnu(int M, int N, int K, const int8_t *X, const int8_t *W,
					int32_t qm, int shift, int8_t *Y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[k * N + j];
			Y[i * N + j] = (int8_t)mp_requant_rndnu(s, qm, shift, 0, -127, 127);
		}
}

__attribute__((noinline)) void ep_ternary_shift(int M, int N, int K, const int8_t *X,
						const int8_t *W, int8_t *Y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[k * N + j];
			int v = (s + (1 << 7)) >> 8;
			Y[i * N + j] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
		}
}

__attribute__((noinline)) void ep_if_else(int M, int N, int K, const int8_t *X, const int8_t *W,
					  const int32_t *bias, int8_t *Y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[j * K + k];
			int32_t v = s / 97;
			if (v < 0)
				v = 0;
			else if (v > 127)
				v = 127;
			Y[i * N + j] = (int8_t)v;
		}
}

__attribute__((noinline)) void ep_float(int M, int N, int K, const int8_t *X, const int8_t *W,
					const float *scale, const float *fbias, int8_t *Y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[k * N + j];
			float f = (float)s * scale[j] + fbias[j];
			f = f < -128.0f ? -128.0f : f;
			f = f > 127.0f ? 127.0f : f;
			Y[i * N + j] = (int8_t)nearbyintf(f);
		}
}

#define STORE_Q8(p, ld, i, j, v) ((p)[(size_t)(i) * (ld) + (j)] = (int8_t)mp_clamp_i32((v), -128, 127))
__attribute__((noinline)) void ep_macro_store(int M, int N, int K, const int8_t *X,
					      const int8_t *W, int8_t *Y, int ldy)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[j * K + k];
			STORE_Q8(Y, ldy, i, j, s >> 10);
		}
}

/* the output accumulated column by column (j outside k), then a ReLU
 * written as a select over the output in a sibling loop, `c > 0 ? c : 0`
 * reading the element the nest writes (the clang plugins refused it: the
 * select's condition, tried as a padding condition, read the output "as a
 * loop-invariant value"); and the same through a global array */
int32_t ep_gC[40][70];
__attribute__((noinline)) void ep_relu_after(int M, int N, int K, const int8_t *X,
					     const uint8_t *W, int32_t zw, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) {
		for (int k = 0; k < K; k++)
			for (int i = 0; i < M; i = i + 1)
				C[i * N + j] = C[i * N + j] + X[i * K + k] * (W[j * K + k] - zw);
		for (int i = 0; i < M; i = i + 1)
			C[i * N + j] = C[i * N + j] > 0 ? C[i * N + j] : 0;
	}
}

__attribute__((noinline)) void ep_relu_global(int M, int N, int K, const int8_t *X,
					      const uint8_t *W, int32_t zw)
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) {
		for (int k = 0; k < K; k++)
			for (int i = 0; i < M; i = i + 1)
				ep_gC[i][j] = ep_gC[i][j] + X[i * K + k] * (W[j * K + k] - zw);
		for (int i = 0; i < M; i = i + 1)
			ep_gC[i][j] = ep_gC[i][j] > 0 ? ep_gC[i][j] : 0;
	}
}

/* floating values given to the helpers' integer parameters (a float zero
   point, a double clamp bound, converted as C converts: truncated); GCC
   crashed in the rewrite (fold_convert has no float -> int conversion) */
__attribute__((noinline)) void ep_float_args(int M, int N, int K, const int8_t *X,
					     const int8_t *W, float zp, double lo, int8_t *Y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[j * K + k];
			Y[i * N + j] = (int8_t)mp_clamp_i32(mp_requant_fp32(s, 0.01f, zp, -128, 127),
							    lo, 120);
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		int ldy = N + 3;
		int8_t *X = harness_rand_s8(mk), *W = harness_rand_s8(kn);
		uint8_t *Xu = harness_rand_u8(mk);
		int32_t *bias = harness_rand_s32((size_t)N, -(1 << 18), 1 << 18);
		float *scale = harness_rand_f32((size_t)N, 1e-5f, 2e-3f);
		float *fbias = harness_rand_f32((size_t)N, -20.0f, 20.0f);
		int32_t *qm = harness_rand_s32((size_t)N, 1 << 30, INT32_MAX);
		int *shift = harness_rand_s32((size_t)N, -12, 1);
		int8_t *Y = harness_rand_s8((size_t)M * ldy);
		uint8_t *Yu = harness_rand_u8(mn);

		/* random arguments drawn one per statement: the order in which
		   compilers evaluate call arguments differs (gcc vs clang) */
		int r1 = harness_randint(1, 1 << 16);
		int r2 = harness_randint(12, 24);
		ep_user_fn(M, N, K, X, W, r1, r2, Y);
		harness_out_array(harness_name("user_fn %dx%dx%d", M, N, K), Y, mn);
		int zx = harness_randint(0, 255);
		int zy = harness_randint(0, 255);
		ep_fp32(M, N, K, Xu, zx, W, bias, scale, zy, Yu);
		harness_out_array(harness_name("fp32 %dx%dx%d", M, N, K), Yu, mn);
		ep_gemmlowp(M, N, K, X, W, qm, shift, harness_randint(-10, 10), Y);
		harness_out_array(harness_name("gemmlowp %dx%dx%d", M, N, K), Y, mn);
		int qm2 = harness_randint(1 << 30, INT32_MAX);
		int sh2 = harness_randint(-12, 0);
		ep_rndnu(M, N, K, X, W, qm2, sh2, Y);
		harness_out_array(harness_name("rndnu %dx%dx%d", M, N, K), Y, mn);
		ep_ternary_shift(M, N, K, X, W, Y);
		harness_out_array(harness_name("ternary_shift %dx%dx%d", M, N, K), Y, mn);
		ep_if_else(M, N, K, X, W, bias, Y);
		harness_out_array(harness_name("if_else %dx%dx%d", M, N, K), Y, mn);
		ep_float(M, N, K, X, W, scale, fbias, Y);
		harness_out_array(harness_name("float %dx%dx%d", M, N, K), Y, mn);
		float fzp = (float)harness_randint(-300, 300) / 7.0f;
		double flo = -(double)harness_randint(0, 1000) / 9.0;
		ep_float_args(M, N, K, X, W, fzp, flo, Y);
		harness_out_array(harness_name("float_args %dx%dx%d", M, N, K), Y, mn);
		ep_macro_store(M, N, K, X, W, Y, ldy);
		harness_out_array(harness_name("macro_store %dx%dx%d", M, N, K), Y, (size_t)M * ldy);
		{
			int32_t *C = harness_rand_s32(mn, -300000, 300000);
			uint8_t *Wu = harness_rand_u8(kn);
			int zw = harness_randint(0, 255);
			int gm = M < 40 ? M : 40, gn = N < 70 ? N : 70;

			ep_relu_after(M, N, K, X, Wu, zw, C);
			harness_out_array(harness_name("relu_after %dx%dx%d zw%d", M, N, K, zw), C, mn);
			harness_fill_s32(&ep_gC[0][0], 40 * 70, -300000, 300000);
			ep_relu_global(gm, gn, K, X, Wu, zw);
			harness_out_array(harness_name("relu_global %dx%dx%d zw%d", gm, gn, K, zw),
					  &ep_gC[0][0], 40 * 70);
			harness_free(C);
			harness_free(Wu);
		}

		harness_free(X);
		harness_free(W);
		harness_free(Xu);
		harness_free(bias);
		harness_free(scale);
		harness_free(fbias);
		harness_free(qm);
		harness_free(shift);
		harness_free(Y);
		harness_free(Yu);
	}
}
