// MIXPREC-TRANSFORMED: 18
/* init_accum.c -- init statements and where the sum lives: a scalar started
 * at bias[j] or at C[i][j], the output array itself started at bias[j], a
 * scalar added into the output (C += s), iterators / accumulator that
 * stay live after the nest, and the sum subtracted (`-=`). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void mm_bias(int M, int N, int K, const int8_t *A, const int8_t *B,
				       const int32_t *bias, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void mm_init_c(int M, int N, int K, const int8_t A[][K],
					 const int8_t B[][N], int32_t C[][N])
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i][j];
			for (int k = 0; k < K; k++)
				s += A[i][k] * B[k][j];
			C[i][j] = s;
		}
}

__attribute__((noinline)) void mm_inplace_bias(int M, int N, int K, const int8_t *A,
					       const int8_t *B, const int32_t *bias, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			C[i * N + j] = bias[j];
			for (int k = 0; k < K; k++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
		}
}

__attribute__((noinline)) void mm_add_into(int M, int N, int K, const int8_t *A, const int8_t *B,
					   int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] += s;
		}
}

/* The iterators and the accumulator are declared before the nest and read
 * after it: their final values must be those of the original loop. */
__attribute__((noinline)) void mm_live(int M, int N, int K, const int8_t *A, const int8_t *B,
				       const int32_t *bias, int32_t *C, long live[4])
{
	int i, j = -7, k = -9;
	int32_t s = 12345;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			s = bias[i];
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	live[0] = i;
	live[1] = j;
	live[2] = k;
	live[3] = s;
}

/* The sum subtracted (`-=`): a covariance update as Kalman filters write
   it, P -= K*H, into the output; a residual r = b - A*x as iterative
   solvers write it, the sum in a local started at b[i]; and the ikj order,
   whose subtraction inside the column loop mixprec leaves as written */
__attribute__((noinline)) void mm_sub_into(int M, int N, int K, const int8_t *Kg,
					   const int8_t *H, int32_t *P)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				P[i * N + j] -= Kg[i * K + k] * H[k * N + j];
}

__attribute__((noinline)) void mv_residual(int M, int N, const int8_t *A, const int8_t *x,
					   const int32_t *b, int32_t *r)
{
	int i, j;
	int32_t sum;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++) {
		sum = b[i];
		for (j = 0; j < N; j++)
			sum -= A[i * N + j] * x[j];
		r[i] = sum;
	}
}

/* two rows of one reduction loop, one added and one subtracted */
__attribute__((noinline)) void mm_rows_sub(int M2, int N, int K, const int8_t *A, const int8_t *B,
					   int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M2; i++)
		for (int j = 0; j < N; j++) {
			int32_t s0 = 0, s1 = C[(2 * i + 1) * N + j];
			for (int k = 0; k < K; k++) {
				s0 += A[(2 * i) * K + k] * B[k * N + j];
				s1 -= A[(2 * i + 1) * K + k] * B[k * N + j];
			}
			C[(2 * i) * N + j] = s0;
			C[(2 * i + 1) * N + j] = s1;
		}
}

__attribute__((noinline)) void mm_sub_ikj(int M, int N, int K, const int8_t *A, const int8_t *B,
					  int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] -= A[i * K + k] * B[k * N + j];
}

/* The sum subtracted in kij order, as a trailing-matrix update is written
 * (LU's Schur complement, C -= L*U, row-major and k outermost), here with
 * a factor: GCC's front end folds `C -= 3*a*b` into `C += -3*a*b`, clang
 * keeps the subtraction; both are transformed (fuzz seeds 1100435,
 * 1100609: clang refused the one, GCC the other). */
__attribute__((noinline)) void mm_sub_kij(int M, int N, int K, const int8_t (*L)[M],
					  const uint8_t *U, int32_t C[][N])
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (k = 0; k < K; k++)
		for (i = 0; i < M; i = i + 1)
			for (j = 0; N > j; j++)
				C[i][j] -= 3 * L[k][i] * (U[k * N + j] - 1);
}

/* the same without the factor, the update through a row pointer */
__attribute__((noinline)) void mm_sub_kij_row(int M, int N, int K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++) {
			int32_t *c = &C[i * N];
			for (int j = 0; j < N; j++)
				c[j] = c[j] - A[i * K + k] * B[k * N + j];
		}
}

/* the negated product added, `C += -(a*b)` (kij) and `C = -(a*b) + C`
 * (ijk): GCC's front end folds both into C - a*b; clang keeps the
 * negation, and both clangs refused them */
__attribute__((noinline)) void mm_negadd_kij(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += -(A[i * K + k] * B[k * N + j]);
}

__attribute__((noinline)) void mm_negadd_ijk(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] = -(A[i * K + k] * B[k * N + j]) + C[i * N + j];
}

/* the product subtracted as people also write it: `0 - a*b` (clang's
 * front end keeps it, GCC's folds it), a double negation, and the same
 * in a matrix-vector nest with a local accumulator */
__attribute__((noinline)) void mm_zero_sub(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += 0 - A[i * K + k] * B[k * N + j];
}

__attribute__((noinline)) void mm_negneg(int M, int N, int K, const int8_t *A,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				C[i * N + j] = -(-(A[i * K + k] * B[k * N + j])) + C[i * N + j];
}

__attribute__((noinline)) void mv_zero_sub(int M, int K, const int8_t *A, const int8_t *x,
					   int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = y[i];
		for (int k = 0; k < K; k++)
			s = s + (0 - A[i * K + k] * x[k]);
		y[i] = s;
	}
}

__attribute__((noinline)) void mv_sub_zero_sub(int M, int K, const int8_t *A,
					       const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s -= 0 - A[i * K + k] * x[k];
		y[i] = s;
	}
}

/* near misses: the product narrowed under the negation (both clangs
 * dropped the cast, a wrong result; found by an adversarial helper) */
__attribute__((noinline)) void mm_negadd_narrow(int M, int N, int K, const int8_t *A,
						const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++) // expected-warning {{not computed in int32 (8-bit)}}
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += -((int8_t)(A[i * K + k] * B[k * N + j]));
}

__attribute__((noinline)) void mm_negadd_narrow16(int M, int N, int K, const uint8_t *A,
						  const uint8_t *B, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not computed in int32 (16-bit)}}
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s = -((int16_t)(A[i * K + k] * B[k * N + j])) + s;
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		int8_t *A = harness_rand_s8(mk), *B = harness_rand_s8(kn);
		int32_t *bias = harness_rand_s32((size_t)(M > N ? M : N), -(1 << 22), 1 << 22);
		int32_t *C = harness_rand_s32(mn, -(1 << 24), 1 << 24);
		long live[4];

		mm_bias(M, N, K, A, B, bias, C);
		harness_out_array(harness_name("bias %dx%dx%d", M, N, K), C, mn);
		if (M > 0 && N > 0 && K > 0) {
			mm_init_c(M, N, K, (const int8_t(*)[K])A, (const int8_t(*)[N])B,
				  (int32_t(*)[N])C);
			harness_out_array(harness_name("init_c %dx%dx%d", M, N, K), C, mn);
		}
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		mm_inplace_bias(M, N, K, A, B, bias, C);
		harness_out_array(harness_name("inplace_bias %dx%dx%d", M, N, K), C, mn);
		mm_add_into(M, N, K, A, B, C);
		harness_out_array(harness_name("add_into %dx%dx%d", M, N, K), C, mn);
		mm_live(M, N, K, A, B, bias, C, live);
		harness_out_array(harness_name("live %dx%dx%d", M, N, K), C, mn);
		for (int v = 0; v < 4; v++)
			harness_out_long(harness_name("live[%d] %dx%dx%d", v, M, N, K), live[v]);

		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		mm_sub_into(M, N, K, A, B, C);
		harness_out_array(harness_name("sub_into %dx%dx%d", M, N, K), C, mn);
		{
			/* the matrix-vector residual: rows M, columns K */
			int32_t *r = harness_rand_s32((size_t)M + 1, -1000, 1000);
			int8_t *x = harness_rand_s8((size_t)K + 1);
			mv_residual(M, K, A, x, bias, r);
			harness_out_array(harness_name("residual %dx%d", M, K), r, (size_t)M + 1);
			harness_free(r);
			harness_free(x);
		}
		mm_rows_sub(M / 2, N, K, A, B, C);
		harness_out_array(harness_name("rows_sub %dx%dx%d", M, N, K), C, mn);
		mm_sub_ikj(M, N, K, A, B, C);
		harness_out_array(harness_name("sub_ikj %dx%dx%d", M, N, K), C, mn);
		if (M > 0 && N > 0) {
			uint8_t *U = harness_rand_u8(kn + 1);
			harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
			mm_sub_kij(M, N, K, (const int8_t(*)[M])A, U, (int32_t(*)[N])C);
			harness_out_array(harness_name("sub_kij %dx%dx%d", M, N, K), C, mn);
			harness_free(U);
		}
		mm_sub_kij_row(M, N, K, A, B, C);
		harness_out_array(harness_name("sub_kij_row %dx%dx%d", M, N, K), C, mn);
		mm_negadd_kij(M, N, K, A, B, C);
		harness_out_array(harness_name("negadd_kij %dx%dx%d", M, N, K), C, mn);
		mm_negadd_ijk(M, N, K, A, B, C);
		harness_out_array(harness_name("negadd_ijk %dx%dx%d", M, N, K), C, mn);
		mm_zero_sub(M, N, K, A, B, C);
		harness_out_array(harness_name("zero_sub %dx%dx%d", M, N, K), C, mn);
		mm_negneg(M, N, K, A, B, C);
		harness_out_array(harness_name("negneg %dx%dx%d", M, N, K), C, mn);
		if (N > 0) {   /* B's first K elements the vector, C's first M the output */
			mv_zero_sub(M, K, A, B, C);
			harness_out_array(harness_name("mv_zero_sub %dx%d", M, K), C, M);
			mv_sub_zero_sub(M, K, A, B, C);
			harness_out_array(harness_name("mv_sub_zero_sub %dx%d", M, K), C, M);
		}
		mm_negadd_narrow(M, N, K, A, B, C);
		harness_out_array(harness_name("negadd_narrow %dx%dx%d", M, N, K), C, mn);
		mm_negadd_narrow16(M, N, K, (const uint8_t *)A, (const uint8_t *)B, C);
		harness_out_array(harness_name("negadd_narrow16 %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(bias);
		harness_free(C);
	}
}
