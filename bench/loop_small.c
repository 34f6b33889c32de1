/* loop_small.c -- the small nests of bench_small as a user writes them,
 * under the mixprec pragma.  Built twice: without the plugin (suffix
 * plain) and with it (suffix mixprec).  One nest per output mode of the
 * runtime (docs/design.md section 3) and both operand layouts:
 *   gemm_i8:   C = A B, B(k,j) = B[k*N + j] (k strided), int32 out;
 *   acc_i8:    C += A B in place (DIRECT), B(k,j) = B[k*N + j];
 *   dense_i8:  y = requant(bias + x w^T), w N x K (k contiguous in both
 *              operands, the dot-product form gcc vectorises), int8 out
 *              through mp_requant_fp32 (FUSED);
 *   tile_i8:   as dense_i8 with an epilogue the plugin does not fuse (the
 *              tile is read back, TILE);
 *   dense_f32 / gemm_f32: the float loops of bench/loop_f32.c at int8
 *              and bf16 (_i8 / _bf16 suffix). */
#include <stdint.h>
#include "mixprec.h"

#ifndef MP_SUFFIX
#error "define MP_SUFFIX (plain or mixprec)"
#endif
#define MP_CAT2(a, b) a##b
#define MP_CAT(a, b) MP_CAT2(a, b)
#define F(name) MP_CAT(name, MP_SUFFIX)

void F(gemm_i8_)(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
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

void F(acc_i8_)(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

void F(dense_i8_)(int M, int N, int K, const int8_t *x, const int8_t *w, const int32_t *bias,
		  float scale, int8_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
			y[i * N + j] = (int8_t)mp_requant_fp32(s, scale, 0, -128, 127);
		}
}

void F(tile_i8_)(int M, int N, int K, const int8_t *x, const int8_t *w, const int32_t *bias,
		 float scale, int8_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
			y[i * N + j] = (int8_t)((s >> 6) ^ (s & 7));
		}
}

#define DENSE_F32(prec)                                                                   \
	void F(dense_f32_##prec##_)(int M, int N, int K, const float *x, const float *w,     \
				    const float *b, float *y)                               \
	{                                                                                 \
		_Pragma(MP_STR(mixprec(prec)))                                            \
		for (int i = 0; i < M; i++)                                               \
			for (int j = 0; j < N; j++) {                                     \
				float s = b[j];                                           \
				for (int k = 0; k < K; k++)                               \
					s += x[i * K + k] * w[j * K + k];                 \
				y[i * N + j] = s > 0 ? s : 0;                             \
			}                                                                 \
	}                                                                                 \
	void F(gemm_f32_##prec##_)(int M, int N, int K, const float *A, const float *B,      \
				   float *C)                                                \
	{                                                                                 \
		_Pragma(MP_STR(mixprec(prec)))                                            \
		for (int i = 0; i < M; i++)                                               \
			for (int j = 0; j < N; j++) {                                     \
				float s = 0;                                              \
				for (int k = 0; k < K; k++)                               \
					s += A[i * K + k] * B[k * N + j];                 \
				C[i * N + j] = s;                                         \
			}                                                                 \
	}                                                                                 \
	/* an NCHW 3x3 convolution, OH x OH outputs of OC channels from C             \
	   channels: A's rows are copied before the kernels (stage.c) */              \
	void F(conv_f32_##prec##_)(int OH, int OC, int C, const float *in, const float *w,   \
				   float *out)                                              \
	{                                                                                 \
		int H = OH + 2;                                                           \
		_Pragma(MP_STR(mixprec(prec)))                                            \
		for (int oc = 0; oc < OC; oc++)                                           \
			for (int oh = 0; oh < OH; oh++)                                   \
				for (int ow = 0; ow < OH; ow++) {                         \
					float s = 0;                                      \
					for (int c = 0; c < C; c++)                       \
						for (int kh = 0; kh < 3; kh++)            \
							for (int kw = 0; kw < 3; kw++)    \
								s += in[(c * H + oh + kh) * H + ow + kw] * \
								     w[((oc * C + c) * 3 + kh) * 3 + kw]; \
					out[(oc * OH + oh) * OH + ow] = s;                \
				}                                                         \
	}
#define MP_STR(x) #x
DENSE_F32(int8)
DENSE_F32(bf16)
