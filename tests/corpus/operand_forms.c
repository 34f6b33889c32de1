// MIXPREC-TRANSFORMED: 18
/* operand_forms.c -- the product and the update written in different ways:
 * y*x, casts to int16_t / short / int on one or both operands, s = s + p,
 * s = p + s, s -= -p, constant zero
 * points (a - 3) * (b + 5) and (a - (-128)), plain char / signed char /
 * unsigned char element types, restrict operands,
 * A and B the same array (a Gram matrix A * A^T), and zero points held in
 * uint8_t, int16_t, int32_t variables and in a global. */
#include "harness.h"
#include <mixprec.h>

#define ARGS int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C
#define a A[i * K + k]
#define b B[k * N + j]
#define NEST(UPDATE)                                      \
	for (int i = 0; i < M; i++)                       \
		for (int j = 0; j < N; j++) {             \
			int32_t s = 0;                    \
			for (int k = 0; k < K; k++) {     \
				UPDATE;                   \
			}                                 \
			C[i * N + j] = s;                 \
		}

__attribute__((noinline)) void of_swapped(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s += b * a)
}

__attribute__((noinline)) void of_int16_casts(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s += (int16_t)a * (int16_t)b)
}

__attribute__((noinline)) void of_short_casts(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s += (short)a * (short)b)
}

__attribute__((noinline)) void of_int_casts(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s += (int)a * (int)b)
}

__attribute__((noinline)) void of_one_cast(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s += (int16_t)a * b)
}

__attribute__((noinline)) void of_s_eq_s_plus(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s = s + a * b)
}

__attribute__((noinline)) void of_s_eq_p_plus_s(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s = a * b + s)
}

__attribute__((noinline)) void of_minus_neg(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s -= -(a * b))
}

__attribute__((noinline)) void of_const_zero_points(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s += (a - 3) * (b + 5))
}

__attribute__((noinline)) void of_const_zp_min(ARGS)
{
#pragma mixprec(int8, acc=int32)
	NEST(s += (a - (-128)) * b)
}

#undef a
#undef b

__attribute__((noinline)) void of_char_types(int M, int N, int K, const char *X,
					     const signed char *W, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void of_uchar(int M, int N, int K, const unsigned char *X,
					const signed char *W, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void of_restrict(int M, int N, int K, const int8_t *restrict X,
					   const int8_t *restrict W, int32_t *restrict C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[k * N + j];
			C[i * N + j] = s;
		}
}

/* C = A * A^T: both operands are the same array (read only). */
__attribute__((noinline)) void of_gram(int M, int K, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * A[j * K + k];
			C[i * M + j] = s;
		}
}

__attribute__((noinline)) void of_zp_u8(int M, int N, int K, const uint8_t *X, uint8_t zx,
					const int8_t *W, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (X[i * K + k] - zx) * W[j * K + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void of_zp_i16(int M, int N, int K, const uint8_t *X, int16_t zx,
					 const int8_t *W, int16_t zw, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (X[i * K + k] - zx) * (W[j * K + k] - zw);
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void of_zp_i32(int M, int N, int K, const int8_t *X, int32_t zx,
					 const int8_t *W, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (X[i * K + k] - zx) * W[j * K + k];
			C[i * N + j] = s;
		}
}

int32_t g_zx, g_zw;
__attribute__((noinline)) void of_zp_global(int M, int N, int K, const uint8_t *X,
					    const int8_t *W, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (X[i * K + k] - g_zx) * (W[j * K + k] - g_zw);
			C[i * N + j] = s;
		}
}

typedef void of_fn(int, int, int, const int8_t *, const int8_t *, int32_t *);
static const struct {
	const char *name;
	of_fn *fn;
} kernels[] = {
	{ "swapped", of_swapped },         { "int16_casts", of_int16_casts },
	{ "short_casts", of_short_casts }, { "int_casts", of_int_casts },
	{ "one_cast", of_one_cast },       { "s_eq_s_plus", of_s_eq_s_plus },
	{ "s_eq_p_plus_s", of_s_eq_p_plus_s }, { "minus_neg", of_minus_neg },
	{ "const_zero_points", of_const_zero_points },
	{ "const_zp_min", of_const_zp_min },
};

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N, mk = (size_t)M * K;
		int8_t *A = harness_rand_s8(mk), *B = harness_rand_s8((size_t)K * N);
		uint8_t *Xu = harness_rand_u8(mk);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		int32_t *G = harness_rand_s32((size_t)M * M, INT32_MIN, INT32_MAX);
		for (size_t f = 0; f < sizeof kernels / sizeof kernels[0]; f++) {
			harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
			kernels[f].fn(M, N, K, A, B, C);
			harness_out_array(harness_name("%s %dx%dx%d", kernels[f].name, M, N, K), C, mn);
		}
		of_char_types(M, N, K, (const char *)A, (const signed char *)B, C);
		harness_out_array(harness_name("char_types %dx%dx%d", M, N, K), C, mn);
		of_uchar(M, N, K, Xu, (const signed char *)B, C);
		harness_out_array(harness_name("uchar %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		of_restrict(M, N, K, A, B, C);
		harness_out_array(harness_name("restrict %dx%dx%d", M, N, K), C, mn);
		of_gram(M, K, A, G);
		harness_out_array(harness_name("gram %dx%dx%d", M, N, K), G, (size_t)M * M);
		/* W[j * K + k] reads N x K elements: use a K x N buffer. */
		of_zp_u8(M, N, K, Xu, (uint8_t)harness_randint(0, 255), B, C);
		harness_out_array(harness_name("zp_u8 %dx%dx%d", M, N, K), C, mn);
		/* one draw per statement: argument evaluation order differs
		   between compilers */
		int16_t z1 = (int16_t)harness_randint(-300, 300);
		int16_t z2 = (int16_t)harness_randint(-200, 200);
		of_zp_i16(M, N, K, Xu, z1, B, z2, C);
		harness_out_array(harness_name("zp_i16 %dx%dx%d", M, N, K), C, mn);
		of_zp_i32(M, N, K, A, harness_randint(-1000, 1000), B, C);
		harness_out_array(harness_name("zp_i32 %dx%dx%d", M, N, K), C, mn);
		g_zx = harness_randint(0, 255);
		g_zw = harness_randint(-128, 127);
		of_zp_global(M, N, K, Xu, B, C);
		harness_out_array(harness_name("zp_global %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(Xu);
		harness_free(C);
		harness_free(G);
	}
}
