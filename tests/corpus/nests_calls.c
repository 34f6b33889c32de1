// MIXPREC-TRANSFORMED: 4
// MIXPREC-EXPECT-FALLBACK: 1
/* nests_calls.c -- annotated nests and calls: a pragma on the outer loop and
 * another on the j loop (the outer nest is refused, the inner one runs as a
 * matrix-vector product per row), a recursive function holding a nest, a
 * __attribute__((pure)) function reading a global in the epilogue, printf in
 * the epilogue (refused: side effects), and a variable K large enough for the
 * int32 bound to fail at run time (the original loop must run: fallback). */
#include "harness.h"
#include <mixprec.h>
#include <stdio.h>

#define ARGS int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C

__attribute__((noinline)) void nc_nested_pragmas(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{another '#pragma mixprec' nest}}
#pragma mixprec(int8, acc=int32)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* Halves M at each level: rows [M/2, M) here, [0, M/2) in the callee. */
__attribute__((noinline)) void nc_recursive(ARGS)
{
	if (M <= 0)
		return;
	int lo = M / 2;
#pragma mixprec(int8, acc=int32)
	for (int i = lo; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	nc_recursive(lo, N, K, A, B, C);
}

int32_t g_shift = 3;
__attribute__((pure, noinline)) int32_t nc_scale(int32_t v)
{
	return v >> g_shift;
}

__attribute__((noinline)) void nc_pure_epilogue(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = nc_scale(s);
		}
}

__attribute__((noinline)) void nc_printf_epilogue(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{side effects}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
			if (i == 0 && j == 0)
				printf("printf_epilogue first=%d\n", (int)s);
		}
}

/* K = 140000 makes the worst case
 * exceed int32, so the run-time bound check must send it to the loop. */
__attribute__((noinline)) void nc_big_k(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		nc_nested_pragmas(M, N, K, A, B, C);
		harness_out_array(harness_name("nested_pragmas %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		nc_recursive(M, N, K, A, B, C);
		harness_out_array(harness_name("recursive %dx%dx%d", M, N, K), C, mn);
		g_shift = harness_randint(0, 12);
		nc_pure_epilogue(M, N, K, A, B, C);
		harness_out_array(harness_name("pure_epilogue %dx%dx%d", M, N, K), C, mn);
		nc_printf_epilogue(M, N, K, A, B, C);
		harness_out_array(harness_name("printf_epilogue %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
	/* Small values so that the int32 sum cannot overflow in the original
	 * loop, though the static worst case (K * 128 * 128) does. */
	int M = 3, N = 2, K = 140000;
	int8_t *A = harness_alloc((size_t)M * K), *B = harness_alloc((size_t)N * K);
	for (size_t t = 0; t < (size_t)M * K; t++)
		A[t] = (int8_t)harness_randint(-3, 3);
	for (size_t t = 0; t < (size_t)N * K; t++)
		B[t] = (int8_t)harness_randint(-3, 3);
	int32_t C[6];
	nc_big_k(M, N, K, A, B, C);
	harness_out("big_k", C, sizeof C);
	harness_free(A);
	harness_free(B);
}
