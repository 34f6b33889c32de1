// MIXPREC-TRANSFORMED: 6
/* iterators_outside.c -- iterators read outside their own loop (issue 14,
 * class 2: the value the reduction iterator takes between outputs was lost,
 * under GCC and clang alike), and iterators declared once at the top of the
 * function and reused by sibling loops, as PolyBench and netlib code write
 * them.  The tile path gives the reduction iterator the value its loop
 * would have left; an iterator below the reduction loop that is read after
 * its loop is refused. */
#include "harness.h"
#include <mixprec.h>

/* the init of each output reads k: -7 first, then K after every k loop */
__attribute__((noinline)) void io_init_k(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
	int k = -7;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = k;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

/* the epilogue reads k after its loop (a 1-based k: K + 1) */
__attribute__((noinline)) void io_epi_k(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			int32_t s = j * 3;
			for (k = 1; k <= K; k++)
				s += A[i * K + k - 1] * B[(k - 1) * N + j];
			C[i * N + j] = s + k;
		}
}

/* j read before its loop in the i body (5 on the first row, then N) */
__attribute__((noinline)) void io_before_j(int M, int N, int K, const int8_t *A, const int8_t *B,
					   int32_t *C)
{
	int k = 0, j = 5;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		C[i * N] = j;
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] += s;
		}
	}
}

/* PolyBench gemm as written (int8 data): i, j, k declared once, j drives
   the beta loop and the update loop under k */
__attribute__((noinline)) void io_gemm(int ni, int nj, int nk, int32_t alpha, int32_t beta,
				       int32_t *C, const int8_t *A, const int8_t *B)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < ni; i++) {
		for (j = 0; j < nj; j++)
			C[i * nj + j] *= beta;
		for (k = 0; k < nk; k++) {
			for (j = 0; j < nj; j++)
				C[i * nj + j] += A[i * nk + k] * B[k * nj + j];
		}
	}
	(void)alpha;
}

/* netlib-style: a beta loop and an ijk update loop both on j, j and k
   read after the nest */
__attribute__((noinline)) long io_sibling_after(int M, int N, int K, const int8_t *A,
						const int8_t *B, int32_t *C)
{
	int i = -1, j = -1, k = -1;   /* a zero extent: a loop never runs */
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++) {
		for (j = 0; j < N; j++)
			C[i * N + j] /= 2;
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] += s;
		}
	}
	return (long)i * 1000000 + (long)j * 1000 + k;
}

/* the reduction iterator of a sibling-sharing k read between its loops */
__attribute__((noinline)) void io_two_k(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
	int k;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		for (k = 0; k < 3; k++)
			C[i * N] += k;
		for (int j = 0; j < N; j++) {
			int32_t s = k;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
	}
}

/* ikj with j read after the j loop under k: refused */
__attribute__((noinline)) void io_ikj_j_after(int M, int N, int K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
	int i, j = -1, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++) { // expected-warning {{read after its loop}}
		for (k = 0; k < K; k++)
			for (j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
		C[i * N] += j;
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, -1000, 1000);
		io_init_k(M, N, K, A, B, C);
		harness_out_array(harness_name("init_k %dx%dx%d", M, N, K), C, mn);
		io_epi_k(M, N, K, A, B, C);
		harness_out_array(harness_name("epi_k %dx%dx%d", M, N, K), C, mn);
		io_before_j(M, N, K, A, B, C);
		harness_out_array(harness_name("before_j %dx%dx%d", M, N, K), C, mn);
		io_gemm(M, N, K, 1, harness_randint(-3, 3), C, A, B);
		harness_out_array(harness_name("gemm %dx%dx%d", M, N, K), C, mn);
		harness_out_long("sibling_after", io_sibling_after(M, N, K, A, B, C));
		harness_out_array(harness_name("sibling_after %dx%dx%d", M, N, K), C, mn);
		io_two_k(M, N, K, A, B, C);
		harness_out_array(harness_name("two_k %dx%dx%d", M, N, K), C, mn);
		io_ikj_j_after(M, N, K, A, B, C);
		harness_out_array(harness_name("ikj_j_after %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
