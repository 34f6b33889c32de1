// MIXPREC-TRANSFORMED: 10
/* unrolled_k.c -- reductions unrolled along k with a remainder loop, and
 * loops stepping two variables, as hand-optimised C writes them (issue 8,
 * items 3 and 4):
 *   - one update with four products per iteration, `k + 3 < K`, the
 *     remainder `for (; k < K; k++)` (the textbook dot_unrolled4 shape);
 *   - four updates per iteration (one per offset, in shuffled order) in a
 *     matrix-vector nest, `k <= K - 4`, iterators declared at the top;
 *   - a memory accumulator unrolled by two (C[i*N+j] += ...), k read
 *     after the nest;
 *   - unsigned data with a zero point, unrolled by eight;
 *   - an epilogue the kernels do not fuse (tile mode: the remainder loop
 *     runs only when the nest falls back);
 *   - `for (k = 0, p = row; k < K; k++, p++)` and an annotated loop that
 *     sets two walking pointers in its init and steps one of them.
 * Each is computed as the one loop it is (exact: integer sums do not
 * depend on the order).  Near misses: an unrolled loop missing one offset,
 * a remainder whose unrolled loop may stop past the last k (`k + 2 < K`
 * stepping by 4), an unrolled loop that also counts its iterations. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void uk_sum4(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t sum = 0;
			int k = 0;
			/* process 4 elements per iteration */
			for (; k + 3 < K; k += 4)
				sum += A[i * K + k] * B[k * N + j] + A[i * K + k + 1] * B[(k + 1) * N + j] +
				       A[i * K + k + 2] * B[(k + 2) * N + j] +
				       A[i * K + k + 3] * B[(k + 3) * N + j];
			/* handle the tail (K % 4 elements) */
			for (; k < K; ++k)
				sum += A[i * K + k] * B[k * N + j];
			C[i * N + j] = sum;
		}
}

__attribute__((noinline)) void uk_gemv4(int M, int K, const int8_t *W, const int8_t *x, int32_t *y)
{
	int i, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++) {
		int32_t acc = 0;
		for (k = 0; k <= K - 4; k += 4) {
			acc += W[i * K + k + 2] * x[k + 2];
			acc += W[i * K + k] * x[k];
			acc += W[i * K + k + 3] * x[k + 3];
			acc += W[i * K + k + 1] * x[k + 1];
		}
		for (; k < K; k++)
			acc += W[i * K + k] * x[k];
		y[i] = acc;
	}
}

__attribute__((noinline)) int uk_mem2(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
	int i, j, k = -1;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			for (k = 0; k + 1 < K; k += 2)
				C[i * N + j] += A[i * K + k] * B[j * K + k] +
						A[i * K + k + 1] * B[j * K + k + 1];
			for (; k < K; k++)
				C[i * N + j] += A[i * K + k] * B[j * K + k];
		}
	return k;
}

__attribute__((noinline)) void uk_zp8(int M, int N, int K, const uint8_t *A, const int8_t *B,
				      int32_t *C, int32_t a_off)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			int k;
			for (k = 0; k + 8 <= K; k += 8) {
				s += (A[i * K + k] - a_off) * B[k * N + j];
				s += (A[i * K + k + 1] - a_off) * B[(k + 1) * N + j];
				s += (A[i * K + k + 2] - a_off) * B[(k + 2) * N + j];
				s += (A[i * K + k + 3] - a_off) * B[(k + 3) * N + j];
				s += (A[i * K + k + 4] - a_off) * B[(k + 4) * N + j];
				s += (A[i * K + k + 5] - a_off) * B[(k + 5) * N + j];
				s += (A[i * K + k + 6] - a_off) * B[(k + 6) * N + j];
				s += (A[i * K + k + 7] - a_off) * B[(k + 7) * N + j];
			}
			for (; k < K; k++)
				s += (A[i * K + k] - a_off) * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* tile mode: the division stays as written */
__attribute__((noinline)) void uk_tile(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t sum = C[i * N + j];
			int k = 0;
			for (; k + 3 < K; k += 4)
				sum += A[i * K + k] * B[j * K + k] + A[i * K + k + 1] * B[j * K + k + 1] +
				       A[i * K + k + 2] * B[j * K + k + 2] +
				       A[i * K + k + 3] * B[j * K + k + 3];
			for (; k < K; ++k)
				sum += A[i * K + k] * B[j * K + k];
			C[i * N + j] = sum / 3 - k;
		}
}

/* two variables stepped by the loop: the row pointer and k */
__attribute__((noinline)) void uk_two_ivs(int M, int K, const int8_t *A, const int8_t *x,
					  int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		const int8_t *p;
		int k;
		int32_t s = 0;
		for (k = 0, p = A + i * K; k < K; k++, p++)
			s += *p * x[k];
		y[i] = s;
	}
}

/* tile mode: the pointer set in the loop's init and read after the loop
   (the fast path runs the init's p = ... and advances p as the loop would) */
__attribute__((noinline)) void uk_two_ivs_after(int M, int K, const int8_t *A, const int8_t *x,
						int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		const int8_t *p;
		int k;
		int32_t s = 0;
		for (k = 1, p = A + i * K + 1; k < K; k++, p++)
			s += *p * x[k];
		y[i] = s / 3 + (int32_t)(p - A);
	}
}

/* the annotated loop sets both walking pointers and steps the output one */
__attribute__((noinline)) void uk_two_ivs_top(int M, int K, const int8_t *A, const int8_t *x,
					      int32_t *y)
{
	const int8_t *p;
	int32_t *q;
	int i;
#pragma mixprec(int8, acc=int32)
	for (i = 0, p = A, q = y; i < M; i++, q++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++, p++)
			s += *p * x[k];
		*q = s;
	}
}

/* near miss: offset 3 missing (k + 3 is never read) */
__attribute__((noinline)) void uk_gap(int M, int K, const int8_t *W, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) { // expected-warning {{continues where the loop before it}}
		int32_t acc = 0;
		int k = 0;
		for (; k + 3 < K; k += 4)
			acc += W[i * K + k] * x[k] + W[i * K + k + 1] * x[k + 1] +
			       W[i * K + k + 2] * x[k + 2];
		for (; k < K; k++)
			acc += W[i * K + k] * x[k];
		y[i] = acc;
	}
}

/* near miss: the unrolled loop may run past K - 1 (k + 2 < K, step 4) */
__attribute__((noinline)) void uk_past(int M, int K, const int8_t *W, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) { // expected-warning {{continues where the loop before it}}
		int32_t acc = 0;
		int k = 0;
		for (; k + 2 < K; k += 4)
			acc += W[i * K + k] * x[k] + W[i * K + k + 1] * x[k + 1] +
			       W[i * K + k + 2] * x[k + 2] + W[i * K + k + 3] * x[k + 3];
		for (; k < K; k++)
			acc += W[i * K + k] * x[k];
		y[i] = acc;
	}
}

/* near miss: the unrolled loop does something else too */
__attribute__((noinline)) int uk_count(int M, int K, const int8_t *W, const int8_t *x, int32_t *y)
{
	int groups = 0;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) { // expected-warning {{continues where the loop before it}}
		int32_t acc = 0;
		int k = 0;
		for (; k + 1 < K; k += 2) {
			acc += W[i * K + k] * x[k] + W[i * K + k + 1] * x[k + 1];
			groups++;
		}
		for (; k < K; k++)
			acc += W[i * K + k] * x[k];
		y[i] = acc;
	}
	return groups;
}

/* the column narrowed to int16_t in each product of the unrolled loop and
   its remainder (the remainder folded into the loop: the range check then
   covers the one loop); and an offset narrowed to uint8_t, invariant,
   which wraps when off > base (its value as written: base - off mod 256) */
__attribute__((noinline)) void uk_narrow(int M, int N, int K, int d, const int8_t *A,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			int k = 0;
			for (; k + 1 < K; k += 2)
				s += A[i * K + (int16_t)(k + d)] * B[k * N + j] +
				     A[i * K + (int16_t)(k + 1 + d)] * B[(k + 1) * N + j];
			for (; k < K; k++)
				s += A[i * K + (int16_t)(k + d)] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void uk_u8_offset(int M, int N, int K, uint8_t base, uint8_t off,
					    const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k + (uint8_t)(base - off)] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K + 4);
		int8_t *B = harness_rand_s8((size_t)K * (N + 1) + 4);
		uint8_t *U = harness_rand_u8((size_t)M * K + 1);
		int32_t *C = harness_rand_s32(mn + 3, -100000, 100000);
		uk_sum4(M, N, K, A, B, C);
		harness_out_array(harness_name("sum4 %dx%dx%d", M, N, K), C, mn);
		{
			int8_t *An = harness_rand_s8((size_t)M * K + 300);
			uk_narrow(M, N, K, sh % 3, An, B, C);
			harness_out_array(harness_name("narrow %dx%dx%d", M, N, K), C, mn);
			/* base < off: (uint8_t)(base - off) = 256 + base - off */
			uk_u8_offset(M, N, K, (uint8_t)(sh % 5), (uint8_t)(3 + sh % 7), An, B, C);
			harness_out_array(harness_name("u8 offset %dx%dx%d", M, N, K), C, mn);
			uk_u8_offset(M, N, K, 200, 7, An, B, C);
			harness_out_array(harness_name("u8 offset+ %dx%dx%d", M, N, K), C, mn);
			harness_free(An);
		}
		uk_gemv4(M, K, A, B, C);
		harness_out_array(harness_name("gemv4 %dx%d", M, K), C, (size_t)M);
		harness_out_long("mem2 k", uk_mem2(M, N, K, A, B, C));
		harness_out_array(harness_name("mem2 %dx%dx%d", M, N, K), C, mn);
		uk_zp8(M, N, K, U, B, C, harness_randint(0, 255));
		harness_out_array(harness_name("zp8 %dx%dx%d", M, N, K), C, mn);
		uk_tile(M, N, K, A, B, C);
		harness_out_array(harness_name("tile %dx%dx%d", M, N, K), C, mn);
		uk_two_ivs(M, K, A, B, C);
		harness_out_array(harness_name("two_ivs %dx%d", M, K), C, (size_t)M);
		uk_two_ivs_after(M, K, A, B, C);
		harness_out_array(harness_name("two_ivs_after %dx%d", M, K), C, (size_t)M);
		uk_two_ivs_top(M, K, A, B, C);
		harness_out_array(harness_name("two_ivs_top %dx%d", M, K), C, (size_t)M);
		uk_gap(M, K, A, B, C);
		harness_out_array(harness_name("gap %dx%d", M, K), C, (size_t)M);
		uk_past(M, K, A, B, C);
		harness_out_array(harness_name("past %dx%d", M, K), C, (size_t)M);
		harness_out_long("count", uk_count(M, K, A, B, C));
		harness_out_array(harness_name("count %dx%d", M, K), C, (size_t)M);
		harness_free(A);
		harness_free(B);
		harness_free(U);
		harness_free(C);
	}
}
