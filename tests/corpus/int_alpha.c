// MIXPREC-TRANSFORMED: 17
/* int_alpha.c -- integer scalar factors on 8-bit operands (issue 8, item
 * 5): `s += alpha * A[i][k] * B[k][j]` with an int alpha (PolyBench's
 * integer gemm form), the factor last, a constant factor, the ikj update
 * C += alpha*A*B, uint8 with a zero point.  The kernels compute the exact
 * int32 sum and the runtime multiplies the tile by alpha (the same value as
 * the source's int32 arithmetic, mod 2^32).  Factors keep every product
 * and sum inside int32 here (an overflowing source is undefined C).  Near
 * miss: a float factor on integer operands is still refused. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void ia_scalar(int M, int N, int K, int alpha, const int8_t *A,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += alpha * A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ia_last(int M, int N, int K, short alpha, const int8_t *A,
				       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k] * alpha;
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ia_const(int M, int K, const int8_t *A, const int8_t *x,
					int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += 3 * A[i * K + k] * x[k];
		y[i] = s;
	}
}

__attribute__((noinline)) void ia_ikj(int M, int N, int K, int alpha, const int8_t *A,
				      const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += alpha * A[i * K + k] * B[k * N + j];
}

__attribute__((noinline)) void ia_zp(int M, int N, int K, int alpha, const uint8_t *X,
				     const int8_t *W, int32_t *Y, int zx)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += alpha * (X[i * K + k] - zx) * W[j * K + k];
			Y[i * N + j] = s;
		}
}

/* near miss: a float factor on integer operands */
__attribute__((noinline)) void ia_float(int M, int N, int K, float f, const int8_t *A,
					const int8_t *B, float *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{has a floating-point factor}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += f * A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* near misses: the operand scaled and then narrowed before the product
   (`(int8_t)(A * 2)` wraps to 8 bits): the clang glues took it for 2 * A
   and computed wrong sums (found by an adversarial review, December 2026) */
__attribute__((noinline)) void ia_wrap_a(int M, int N, int K, const int8_t *A,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{is scaled and then converted to a narrower type}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (int8_t)(A[i * K + k] * 2) * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ia_wrap_b(int M, int N, int K, int alpha, const uint8_t *X,
					 const int8_t *A, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{is scaled and then converted to a narrower type}}
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += (uint8_t)(alpha * X[i * K + k]) * A[k * N + j];
			C[i * N + j] = s;
		}
}

/* the scaled operand converted to a type that holds every value it takes:
   kept (`(int16_t)(A * 2)`; `(uint8_t)(X * 1)`, which GCC's front end folds
   to X) */
__attribute__((noinline)) void ia_fits(int M, int N, int K, const int8_t *A,
				       const uint8_t *X, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += (int16_t)(A[i * K + k] * 2) * X[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ia_fits1(int M, int N, int K, const int8_t *A,
					const uint8_t *X, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * (uint8_t)(X[k * N + j] * 1);
			C[i * N + j] = s;
		}
}

/* a factor of 1 is no factor (GCC's front end folds it away; clang's glue
   took it for a factor, which asks for tile mode, where the iterators'
   final values are not kept: refused under clang only, fuzz seed 810185) */
__attribute__((noinline)) long ia_unit(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int32_t *C)
{
	int i = -1, j = -2, k;
#pragma mixprec(int8, acc=int32)
	for (k = 0; k < K; k++)
		for (i = 0; i < M; i++)
			for (j = 0; j < N; j++)
				C[i * N + j] += 1 * A[i * K + k] * B[k * N + j];
	return (long)i * 1000 + j;
}

/* a factor of -1 GCC's front end folds away: `b * -1 * a` becomes `-b * a`,
 * `(b - zb) * -1 * a` becomes `(zb - b) * a` (GCC refused both, clang
 * transformed them: fuzz seed 900009), with plain `char` rows; and both
 * written so by hand */
__attribute__((noinline)) void ia_neg(int M, int N, int K, const char *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			C[i * N + j] = 0;
			for (int k = 0; k < K; k++)
				C[i * N + j] -= B[k * N + j] * -1 * A[i * K + k];
		}
}

__attribute__((noinline)) void ia_neg_zp(int M, int N, int K, const char *A, const uint8_t *X,
					 int32_t *C, uint8_t zx)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			C[i * N + j] = 0;
			for (int k = 0; k < K; k++)
				C[i * N + j] -= (X[k * N + j] - zx) * -1 * A[i * K + k];
		}
}

__attribute__((noinline)) void ia_neg_hand(int M, int N, int K, const int8_t *A,
					   const uint8_t *X, int32_t *C, int zx)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (zx - X[k * N + j]) * A[i * K + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ia_neg_hand2(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += -A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* both factors written negated: the signs cancel */
__attribute__((noinline)) void ia_neg_both(int M, int N, int K, const int8_t *A,
					   const uint8_t *X, int32_t *C, int zx)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += (zx - X[k * N + j]) * -A[i * K + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ia_neg_both2(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			C[i * N + j] = 0;
			for (int k = 0; k < K; k++)
				C[i * N + j] -= -B[k * N + j] * -A[i * K + k];
		}
}

/* a zero point written as the literal 0 under a cast, `(int16_t)(b - 0)`:
 * GCC folds it away, clang kept it and refused the nest (fuzz seed
 * 1100168) */
__attribute__((noinline)) void ia_zp_zero(int M, int N, int K, const int8_t *A,
					  const int8_t *B, int32_t *C)
{
	int32_t s = 1;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			s = 0;
			for (int k = 0; k < K; ++k)
				s += (int16_t)A[i * K + k] * (int16_t)(B[j * K + k] - 0);
			C[i * N + j] = s;
		}
}

/* ... and added, `(int16_t)(b + 0)`, `(int16_t)(0 + a)` (fuzz seed
 * 1202165: clang refused, GCC folds them) */
__attribute__((noinline)) void ia_zp_plus_zero(int M, int N, int K, const int8_t *A,
					       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; ++k)
				s += (int16_t)A[i * K + k] * (int16_t)(B[j * K + k] + 0);
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ia_zp_zero_plus(int M, int K, const int8_t *A, const int8_t *x,
					       int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; ++k)
			s += (int16_t)(0 + A[i * K + k]) * (int16_t)x[k];
		y[i] = s;
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K + 1);
		int8_t *B = harness_rand_s8((size_t)K * N + 1);
		uint8_t *X = harness_rand_u8((size_t)M * K + 1);
		int32_t *C = harness_rand_s32(mn + 1, -100000, 100000);
		float *F = (float *)harness_alloc((mn + 1) * sizeof(float));
		int alpha = harness_randint(-100, 100);

		ia_scalar(M, N, K, alpha, A, B, C);
		harness_out_array(harness_name("scalar %dx%dx%d a=%d", M, N, K, alpha), C, mn);
		ia_last(M, N, K, (short)harness_randint(-100, 100), A, B, C);
		harness_out_array(harness_name("last %dx%dx%d", M, N, K), C, mn);
		ia_const(M, K, A, B, C);
		harness_out_array(harness_name("const %dx%d", M, K), C, (size_t)M);
		ia_ikj(M, N, K, harness_randint(-50, 50), A, B, C);
		harness_out_array(harness_name("ikj %dx%dx%d", M, N, K), C, mn);
		int az = harness_randint(-30, 30), zx = harness_randint(0, 255);
		ia_zp(M, N, K, az, X, B, C, zx);
		harness_out_array(harness_name("zp %dx%dx%d", M, N, K), C, mn);
		ia_wrap_a(M, N, K, A, B, C);
		harness_out_array(harness_name("wrap_a %dx%dx%d", M, N, K), C, mn);
		ia_wrap_b(M, N, K, harness_randint(-5, 5), X, B, C);
		harness_out_array(harness_name("wrap_b %dx%dx%d", M, N, K), C, mn);
		uint8_t *XT = harness_rand_u8((size_t)K * N + 1);
		ia_fits(M, N, K, A, XT, C);
		harness_out_array(harness_name("fits %dx%dx%d", M, N, K), C, mn);
		ia_fits1(M, N, K, A, XT, C);
		harness_out_array(harness_name("fits1 %dx%dx%d", M, N, K), C, mn);
		harness_free(XT);
		harness_out_long(harness_name("unit ij %dx%dx%d", M, N, K), ia_unit(M, N, K, A, B, C));
		harness_out_array(harness_name("unit %dx%dx%d", M, N, K), C, mn);
		ia_neg(M, N, K, (const char *)A, B, C);
		harness_out_array(harness_name("neg %dx%dx%d", M, N, K), C, mn);
		uint8_t *XB = harness_rand_u8((size_t)K * N + 1);
		ia_neg_zp(M, N, K, (const char *)A, XB, C, (uint8_t)harness_randint(0, 255));
		harness_out_array(harness_name("neg_zp %dx%dx%d", M, N, K), C, mn);
		ia_neg_hand(M, N, K, A, XB, C, harness_randint(0, 255));
		harness_out_array(harness_name("neg_hand %dx%dx%d", M, N, K), C, mn);
		ia_neg_hand2(M, N, K, A, B, C);
		harness_out_array(harness_name("neg_hand2 %dx%dx%d", M, N, K), C, mn);
		ia_neg_both(M, N, K, A, XB, C, harness_randint(0, 255));
		harness_out_array(harness_name("neg_both %dx%dx%d", M, N, K), C, mn);
		harness_free(XB);
		ia_neg_both2(M, N, K, A, B, C);
		harness_out_array(harness_name("neg_both2 %dx%dx%d", M, N, K), C, mn);
		ia_zp_zero(M, N, K, A, B, C);
		harness_out_array(harness_name("zp_zero %dx%dx%d", M, N, K), C, mn);
		ia_zp_plus_zero(M, N, K, A, B, C);
		harness_out_array(harness_name("zp_plus_zero %dx%dx%d", M, N, K), C, mn);
		if (N > 0) {   /* B's first K elements the vector */
			ia_zp_zero_plus(M, K, A, B, C);
			harness_out_array(harness_name("zp_zero_plus %dx%d", M, K), C, M);
		}
		ia_float(M, N, K, 0.5f, A, B, F);
		harness_out_array(harness_name("float %dx%dx%d", M, N, K), F, mn);
		harness_free(A);
		harness_free(B);
		harness_free(X);
		harness_free(C);
		harness_free(F);
	}
}
