// MIXPREC-TRANSFORMED: 0
/* refuse_overflow.c -- constant reduction lengths for which the int32
 * accumulator can overflow on some input: s8 x s8 with K = 200000,
 * u8 x u8 with K = 40000 (> 2^31 / 255^2), and constant zero points that
 * widen the products (|x - 100| * |w + 100| <= 228 * 227, K = 50000).
 * The run-time data is chosen so that the reference never overflows. */
#include "harness.h"
#include <mixprec.h>

#define K_S8 200000
#define K_U8 40000
#define K_ZP 50000

__attribute__((noinline)) void of_s8(int M, int N, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{overflow}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K_S8; k++)
				s += A[i * K_S8 + k] * B[j * K_S8 + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void of_u8(int M, int N, const uint8_t *A, const uint8_t *B, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{overflow}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K_U8; k++)
				s += A[i * K_U8 + k] * B[j * K_U8 + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void of_zp(int M, int N, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{overflow}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K_ZP; k++)
				s += (A[i * K_ZP + k] - 100) * (B[j * K_ZP + k] + 100);
			C[i * N + j] = s;
		}
}

/* Values in {-1, 0, 1} (or {0, 1}): sums stay far from the int32 limits. */
static void fill_small(int8_t *p, size_t n, int lo)
{
	for (size_t t = 0; t < n; t++)
		p[t] = (int8_t)harness_randint(lo, 1);
}

void corpus_main(void)
{
	static const int shapes[][2] = { { 1, 1 }, { 2, 3 }, { 3, 1 } };
	for (int sh = 0; sh < 3; sh++) {
		int M = shapes[sh][0], N = shapes[sh][1];
		size_t mn = (size_t)M * N;
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);

		int8_t *A = harness_rand_s8((size_t)M * K_S8), *B = harness_alloc((size_t)N * K_S8);
		fill_small(B, (size_t)N * K_S8, -1);
		of_s8(M, N, A, B, C);
		harness_out_array(harness_name("s8 %dx%d", M, N), C, mn);
		harness_free(A);
		harness_free(B);

		uint8_t *Au = harness_rand_u8((size_t)M * K_U8), *Bu = harness_alloc((size_t)N * K_U8);
		fill_small((int8_t *)Bu, (size_t)N * K_U8, 0);
		of_u8(M, N, Au, Bu, C);
		harness_out_array(harness_name("u8 %dx%d", M, N), C, mn);
		harness_free(Au);
		harness_free(Bu);

		A = harness_alloc((size_t)M * K_ZP);
		B = harness_alloc((size_t)N * K_ZP);
		fill_small(A, (size_t)M * K_ZP, -1);
		fill_small(B, (size_t)N * K_ZP, -1);
		of_zp(M, N, A, B, C);
		harness_out_array(harness_name("zp %dx%d", M, N), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
