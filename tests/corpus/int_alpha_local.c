// MIXPREC-TRANSFORMED: 5
/* int_alpha_local.c -- an integer factor applied to an 8-bit operand in a
 * local before the update loop, as GSL's C BLAS (gsl/cblas/source_gemm_r.h)
 * and netlib translations write GEMM for any element type:
 * `temp = alpha * A[i][k]; for (j ...) C[i][j] += temp * B[k][j];`.  The
 * float form was matched; the integer one was refused by GCC, clang 14 and
 * clang 19 ("no contraction found").  The kernels compute the exact int32
 * sum and the runtime multiplies the tile by alpha (the source's int32
 * arithmetic, mod 2^32; the factors here keep the source's sums inside
 * int32, where GCC and clang agree).  Near miss: a local narrower than the product
 * wraps it, refused as the same narrowing in the statement is. */
#include "harness.h"
#include <mixprec.h>

/* GSL's NoTrans x NoTrans with its zero-skip guard, an int alpha */
__attribute__((noinline)) void il_gsl(int M, int N, int K, int alpha, const int8_t *A,
				      int lda, const int8_t *B, int ldb, int32_t *C, int ldc)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++) {
		for (k = 0; k < K; k++) {
			const int temp = alpha * A[lda * i + k];
			if (temp != 0) {
				for (j = 0; j < N; j++) {
					C[ldc * i + j] += temp * B[ldb * k + j];
				}
			}
		}
	}
}

/* kij order, a constant factor, the sum subtracted */
__attribute__((noinline)) void il_kij_sub(int M, int N, int K, const int8_t *A,
					  const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++) {
			int a = 3 * A[i * K + k];
			for (int j = 0; j < N; j++)
				C[i * N + j] -= a * B[k * N + j];
		}
}

/* the factor on the second operand, in jki order (netlib's column-major
 * loops: temp = alpha * B(l, j); C(i, j) += temp * A(i, l)) */
__attribute__((noinline)) void il_netlib(int M, int N, int K, short alpha, const int8_t *A,
					 int lda, const uint8_t *B, int ldb, int32_t *C, int ldc)
{
#pragma mixprec(uint8, acc=int32)
	for (int j = 0; j < N; j++)
		for (int l = 0; l < K; l++) {
			int temp = alpha * B[l + j * ldb];
			for (int i = 0; i < M; i++)
				C[i + j * ldc] = C[i + j * ldc] + temp * A[i + l * lda];
		}
}

/* a scalar accumulator (ijk), the operand with a zero point scaled */
__attribute__((noinline)) void il_ijk_zp(int M, int N, int K, int alpha, const uint8_t *A,
					 int za, const int8_t *B, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++) {
				int t = alpha * (A[i * K + k] - za);
				s += t * B[k * N + j];
			}
			C[i * N + j] = s;
		}
}

/* a 16-bit local that holds every product (3 * 127 fits) */
__attribute__((noinline)) void il_short(int M, int N, int K, const int8_t *A,
					const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++) {
			short t = (short)(A[i * K + k] * 3);
			for (int j = 0; j < N; j++)
				C[i * N + j] += t * B[k * N + j];
		}
}

/* an 8-bit local that wraps the product (2 * -128 is 0 in int8_t) */
__attribute__((noinline)) void il_wrap(int M, int N, int K, const int8_t *A,
				       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{is scaled and then converted to a narrower type}}
		for (int k = 0; k < K; k++) {
			int8_t t = (int8_t)(A[i * K + k] * 2);
			for (int j = 0; j < N; j++)
				C[i * N + j] += t * B[k * N + j];
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
		uint8_t *X = harness_rand_u8((size_t)M * K + (size_t)K * N + 1);
		int32_t *C = harness_rand_s32(mn + 1, -100000, 100000);

		for (size_t q = 0; q < (size_t)M * K; q += 5)
			A[q] = 0;   /* the guard skips */
		il_gsl(M, N, K, harness_randint(-20, 20), A, K, B, N, C, N);
		harness_out_array(harness_name("gsl %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn + 1, -100000, 100000);
		il_kij_sub(M, N, K, A, B, C);
		harness_out_array(harness_name("kij_sub %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn + 1, -100000, 100000);
		il_netlib(M, N, K, (short)harness_randint(-20, 20), A, M, X, K, C, M);
		harness_out_array(harness_name("netlib %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn + 1, -100000, 100000);
		int al = harness_randint(-20, 20), za = harness_randint(0, 255);
		il_ijk_zp(M, N, K, al, X, za, B, C);
		harness_out_array(harness_name("ijk_zp %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn + 1, -100000, 100000);
		il_short(M, N, K, A, B, C);
		harness_out_array(harness_name("short %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn + 1, -100000, 100000);
		il_wrap(M, N, K, A, B, C);
		harness_out_array(harness_name("wrap %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(X);
		harness_free(C);
	}
}
