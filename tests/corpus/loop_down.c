// MIXPREC-TRANSFORMED: 8
/* loop_down.c -- loops that count down, and while loops whose test steps
 * the counter, as hand-optimised C writes them (issue 8, item 3):
 * for (i = n - 1; i >= 0; i--), for (i = n; i != 0; i--) on unsigned,
 * while (cnt--), while (--cnt), while (cnt-- > 0), while (cnt) { ...;
 * cnt--; }, a for without an increment clause stepping last in its body,
 * the pragma itself on a while loop.
 * Iterators read after the nest get the values the loops leave (-1 after
 * while (cnt--), the type's maximum for an unsigned counter).  A counter
 * stepped at the top of the body stays refused (it once ran the kernels
 * with an offset of one under GCC). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) long dn_for_ge(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
	int i = -7, j = -5, k = -3;
#pragma mixprec(int8, acc=int32)
	for (i = M - 1; i >= 0; i--)
		for (j = N; j > 0; j--) {
			int32_t s = 0;
			for (k = K - 1; k >= 0; --k)
				s += A[i * K + k] * B[(j - 1) * K + k];
			C[i * N + j - 1] = s;
		}
	return (long)i * 1000000 + j * 1000 + k;
}

__attribute__((noinline)) void dn_unsigned_ne(unsigned M, unsigned N, unsigned K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (unsigned i = M; i != 0; i--)
		for (unsigned j = 0; j < N; j++) {
			int32_t s = 0;
			for (unsigned k = K; k != 0; k--)
				s += A[(i - 1) * K + k - 1] * B[j * K + k - 1];
			C[(i - 1) * N + j] = s;
		}
}

__attribute__((noinline)) long dn_while_postdec(int M, int N, int K, const int8_t *A,
						const int8_t *B, int32_t *C)
{
	int cnt = 0;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t sum = 0;
			cnt = K;
			while (cnt--)
				sum += A[i * K + cnt] * B[cnt * N + j];
			C[i * N + j] = sum;
		}
	return cnt;
}

__attribute__((noinline)) unsigned dn_while_unsigned(int M, int N, unsigned K, const int8_t *A,
						     const int8_t *B, int32_t *C)
{
	unsigned cnt = 5;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t sum = 0;
			cnt = K;
			while (cnt-- > 0)
				sum += A[i * K + cnt] * B[j * K + cnt];
			C[i * N + j] = sum;
		}
	return cnt;
}

/* --cnt: the body sees K .. 1 */
__attribute__((noinline)) void dn_while_predec(int M, int N, int K, const int8_t *A,
					       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t sum = 1;
			int cnt = K + 1;
			while (--cnt)
				sum += A[i * K + cnt - 1] * B[j * K + cnt - 1];
			C[i * N + j] = sum;
		}
}

/* CMSIS-style: while (col_count) { ...; col_count--; } */
__attribute__((noinline)) void dn_while_count(int M, int N, int K, const int8_t *A, const int8_t *B,
					      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int32_t row_count = M; row_count > 0; row_count--) {
		int32_t col = N;
		while (col) {
			int32_t sum = 0;
			int32_t col_count = K;
			while (col_count) {
				sum += A[(row_count - 1) * K + col_count - 1] *
				       B[(col - 1) * K + col_count - 1];
				col_count--;
			}
			C[(row_count - 1) * N + col - 1] = sum;
			col--;
		}
	}
}

/* the pragma on a while loop (the CMSIS-NN batch/row loops) */
__attribute__((noinline)) void dn_top_while(int M, int N, int K, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
	int32_t row_cnt = M;
#pragma mixprec(int8, acc=int32)
	while (row_cnt--) {
		const int8_t *b = B;
		int32_t col = N;
		while (col) {
			int32_t sum = 0;
			const int8_t *a = A + row_cnt * K;
			int32_t k = K;
			while (k--)
				sum += *a++ * *b++;
			C[row_cnt * N + N - col] = sum;
			col--;
		}
	}
}

/* a for loop stepping its counter as the body's last statement */
__attribute__((noinline)) void dn_for_no_inc(int M, int N, int K, const int8_t *A, const int8_t *B,
					     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t sum = 0;
			for (int k = 0; k < K;) {
				sum += A[i * K + k] * B[j * K + k];
				k++;
			}
			C[i * N + j] = sum;
		}
}

/* near miss: the counter is stepped at the top of the body */
__attribute__((noinline)) void dn_stepped_first(int M, int N, int K, const int8_t *A,
						const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{stepped before the end of the loop body}}
		for (int j = 0; j < N; j++) {
			int32_t sum = 0;
			int k = 0;
			while (k < K) {
				k++;
				sum += A[i * K + k - 1] * B[j * K + k - 1];
			}
			C[i * N + j] = sum;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K + 1), *B = harness_rand_s8((size_t)K * N + 1);
		int32_t *C = harness_rand_s32(mn + 1, -1000, 1000);
		harness_out_long("for_ge", dn_for_ge(M, N, K, A, B, C));
		harness_out_array(harness_name("for_ge %dx%dx%d", M, N, K), C, mn);
		dn_unsigned_ne((unsigned)M, (unsigned)N, (unsigned)K, A, B, C);
		harness_out_array(harness_name("unsigned_ne %dx%dx%d", M, N, K), C, mn);
		harness_out_long("while_postdec", dn_while_postdec(M, N, K, A, B, C));
		harness_out_array(harness_name("while_postdec %dx%dx%d", M, N, K), C, mn);
		harness_out_long("while_unsigned", (long)dn_while_unsigned(M, N, (unsigned)K, A, B, C));
		harness_out_array(harness_name("while_unsigned %dx%dx%d", M, N, K), C, mn);
		dn_while_predec(M, N, K, A, B, C);
		harness_out_array(harness_name("while_predec %dx%dx%d", M, N, K), C, mn);
		dn_while_count(M, N, K, A, B, C);
		harness_out_array(harness_name("while_count %dx%dx%d", M, N, K), C, mn);
		dn_top_while(M, N, K, A, B, C);
		harness_out_array(harness_name("top_while %dx%dx%d", M, N, K), C, mn);
		dn_for_no_inc(M, N, K, A, B, C);
		harness_out_array(harness_name("for_no_inc %dx%dx%d", M, N, K), C, mn);
		dn_stepped_first(M, N, K, A, B, C);
		harness_out_array(harness_name("stepped_first %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
