// MIXPREC-TRANSFORMED: 11
/* triangular.c -- triangular nests (issue 9): the loop over one index of
 * the output runs to (or from) the other's iterator, as symmetric
 * rank-k updates are written (SYRK: C = A A^T on one triangle; BLAS-like
 * C code, PolyBench/C 4.2.1's syrk in ikj order with its beta loop).
 * The plugin computes the tile over the triangle's bounding box and the
 * loops, kept as written, read it only where they run: the other triangle
 * of C (random values) must come out untouched.  A triangular reduction
 * range (TRMM's k <= i) is transformed as well.  Near misses: SYR2K's two
 * products in one statement, a box that is not one interval, k around
 * both loops. */
#include "harness.h"
#include <mixprec.h>

/* lower triangle, j <= i, scalar accumulator (C = A A^T) */
__attribute__((noinline)) void syrk_lower(int n, int m, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < n; i++)
		for (int j = 0; j <= i; j++) {
			int32_t sum = 0;
			for (int k = 0; k < m; k++)
				sum += A[i * m + k] * A[j * m + k];
			C[i * n + j] = sum;
		}
}

/* upper triangle, j from i to n, bias and requantization to int8, 2-D
 * VLAs, two different operands (A B^T restricted to the upper half) */
__attribute__((noinline)) void upper_requant(int n, int m, const int8_t A[n][m],
					     const int8_t B[n][m], const int32_t *bias,
					     float scale, int8_t Y[n][n])
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++) {
			int32_t acc = bias[j];
			for (int k = 0; k < m; k++)
				acc += (int32_t)A[i][k] * (int32_t)B[j][k];
			Y[i][j] = (int8_t)mp_requant_fp32(acc, scale, 3, -128, 127);
		}
}

/* strictly lower, j < i, accumulating into C (the DIRECT form C += A*B:
 * it must stay in tile mode, the kernels may not write the box) */
__attribute__((noinline)) void strict_lower_acc(int n, int m, const int8_t *A,
						const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			for (int k = 0; k < m; k++)
				C[i * n + j] += A[i * m + k] * B[j * m + k];
}

/* strictly upper, j > i, zero points subtracted (uint8 activations) */
__attribute__((noinline)) void strict_upper_zp(int n, int m, const uint8_t *X, int zx,
					       const int8_t *W, int32_t *C)
{
#pragma mixprec(uint8)
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			int32_t s = 0;
			for (int k = 0; k < m; k++)
				s += (X[i * m + k] - zx) * W[j * m + k];
			C[i * n + j] = s;
		}
}

/* column by column as BLAS (column-major) writes the lower triangle: j
 * outside, i from j to n */
__attribute__((noinline)) void lower_by_columns(int n, int m, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8)
	for (int j = 0; j < n; j++)
		for (int i = j; i < n; i++) {
			int32_t t = 0;
			for (int l = 0; l < m; l++)
				t += A[i * m + l] * A[j * m + l];
			C[j * n + i] = t;
		}
}

/* counting down: rows from the last, j <= i */
__attribute__((noinline)) void lower_down(int n, int m, const int8_t *A, const int8_t *B,
					  int32_t *C)
{
#pragma mixprec(int8)
	for (int i = n - 1; i >= 0; i--)
		for (int j = 0; j <= i; j++) {
			int32_t s = 0;
			for (int k = 0; k < m; k++)
				s += A[i * m + k] * B[k * n + j];
			C[i * n + j] = s;
		}
}

/* PolyBench/C 4.2.1 syrk (lower, ikj order, beta loop, iterators shared
 * by the sibling loops), integer data: int32 C, int8 A, int alpha, beta */
__attribute__((noinline)) void kernel_syrk(int n, int m, int alpha, int beta,
					   int32_t C[n][n], int8_t A[n][m])
{
	int i, j, k;
#pragma mixprec(int8)
	for (i = 0; i < n; i++) {
		for (j = 0; j <= i; j++)
			C[i][j] *= beta;
		for (k = 0; k < m; k++) {
			for (j = 0; j <= i; j++)
				C[i][j] += alpha * A[i][k] * A[j][k];
		}
	}
}

/* the same order by columns: j outside, k, then i from j (column-major
 * BLAS's loop order, without its zero test) */
__attribute__((noinline)) void syrk_columns_kij(int n, int m, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8)
	for (int j = 0; j < n; j++)
		for (int l = 0; l < m; l++)
			for (int i = j; i < n; i++)
				C[j * n + i] += A[i * m + l] * A[j * m + l];
}

/* a Gram matrix's upper half with i's range offset (i from 1, j <= n) */
__attribute__((noinline)) void gram_offset(int n, int m, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 1; i <= n; i++)
		for (int j = i; j <= n; j++) {
			int32_t s = 0;
			for (int k = 0; k < m; k++)
				s += A[(i - 1) * m + k] * A[(j - 1) * m + k];
			C[(i - 1) * n + (j - 1)] = s;
		}
}

/* ikj order on a strict lower triangle, integer factor: j < i below k */
__attribute__((noinline)) void strict_lower_ikj(int n, int m, const int8_t *A,
						const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < n; i++)
		for (int k = 0; k < m; k++)
			for (int j = 0; j < i; j++)
				C[i * n + j] += 3 * A[i * m + k] * B[j * m + k];
}

/* ---------------------------------------------------------- near misses */

/* TRMM's triangular reduction: the sum's range depends on the row
 * (transformed since the reduction's bounds may name a row loop:
 * tri_reduction.c) */
__attribute__((noinline)) void near_trmm(int n, int m, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++) {
			int32_t s = 0;
			for (int k = 0; k <= i; k++)
				s += A[i * n + k] * B[k * m + j];
			C[i * m + j] = s;
		}
}

/* PolyBench/C 4.2.1 syr2k: two products in one statement */
__attribute__((noinline)) void near_syr2k(int n, int m, int32_t C[n][n], int8_t A[n][m],
					  int8_t B[n][m])
{
	int i, j, k;
#pragma mixprec(int8)
	for (i = 0; i < n; i++) { // expected-warning {{not transformed}}
		for (j = 0; j <= i; j++)
			C[i][j] *= 2;
		for (k = 0; k < m; k++)
			for (j = 0; j <= i; j++)
				C[i][j] += A[j][k] * 3 * B[i][k] + B[j][k] * 3 * A[i][k];
	}
}

/* the rows stop at the other size: the range of i over the nest is
 * min(m, n) - 1, not one affine bound */
__attribute__((noinline)) void near_piecewise(int n, int m, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < m; i++) // expected-warning {{not one interval}}
		for (int j = i; j < n; j++) {
			int32_t s = 0;
			for (int k = 0; k < m; k++)
				s += A[i * m + k] * A[j * m + k];
			C[i * n + j] = s;
		}
}

/* k around both triangular loops */
__attribute__((noinline)) void near_kij(int n, int m, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8)
	for (int k = 0; k < m; k++) // expected-warning {{encloses both loops}}
		for (int i = 0; i < n; i++)
			for (int j = 0; j <= i; j++)
				C[i * n + j] += A[i * m + k] * A[j * m + k];
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int n, m, K;
		harness_shape(sh, 0, &n, &K, &m);
		(void)K;
		size_t nn = (size_t)n * n, nm = (size_t)n * m;
		int8_t *A = harness_rand_s8(nm), *B = harness_rand_s8(nm);
		int8_t *Bt = harness_rand_s8((size_t)m * n);
		uint8_t *X = harness_rand_u8(nm);
		int32_t *bias = harness_rand_s32((size_t)n, -100000, 100000);
		int32_t *C = harness_rand_s32(nn, INT32_MIN, INT32_MAX);
		int8_t *Y = harness_rand_s8(nn);
		int zx = harness_randint(0, 255);

		syrk_lower(n, m, A, C);
		harness_out_array(harness_name("syrk_lower %dx%d", n, m), C, nn);
		upper_requant(n, m, (const int8_t (*)[m])A, (const int8_t (*)[m])B, bias,
			      0.0007f, (int8_t (*)[n])Y);
		harness_out_array(harness_name("upper_requant %dx%d", n, m), Y, nn);
		harness_fill_s32(C, nn, -1000000, 1000000);
		strict_lower_acc(n, m, A, B, C);
		harness_out_array(harness_name("strict_lower_acc %dx%d", n, m), C, nn);
		strict_upper_zp(n, m, X, zx, A, C);
		harness_out_array(harness_name("strict_upper_zp %dx%d", n, m), C, nn);
		lower_by_columns(n, m, B, C);
		harness_out_array(harness_name("lower_by_columns %dx%d", n, m), C, nn);
		lower_down(n, m, A, Bt, C);
		harness_out_array(harness_name("lower_down %dx%d", n, m), C, nn);
		harness_fill_s32(C, nn, -1000, 1000);
		int alpha = harness_randint(-3, 3);
		int beta = harness_randint(-2, 2);
		kernel_syrk(n, m, alpha, beta, (int32_t (*)[n])C, (int8_t (*)[m])A);
		harness_out_array(harness_name("kernel_syrk %dx%d", n, m), C, nn);
		syrk_columns_kij(n, m, B, C);
		harness_out_array(harness_name("syrk_columns_kij %dx%d", n, m), C, nn);
		gram_offset(n, m, A, C);
		harness_out_array(harness_name("gram_offset %dx%d", n, m), C, nn);
		strict_lower_ikj(n, m, A, B, C);
		harness_out_array(harness_name("strict_lower_ikj %dx%d", n, m), C, nn);

		/* near misses: the loops as written */
		int8_t *Tn = harness_rand_s8(nn);
		int32_t *Cm = harness_rand_s32(nm, INT32_MIN, INT32_MAX);
		near_trmm(n, m, Tn, Bt, Cm);
		harness_out_array(harness_name("near_trmm %dx%d", n, m), Cm, nm);
		harness_free(Cm);
		near_syr2k(n, m, (int32_t (*)[n])C, (int8_t (*)[m])A, (int8_t (*)[m])B);
		harness_out_array(harness_name("near_syr2k %dx%d", n, m), C, nn);
		near_piecewise(n, m, A, C);
		harness_out_array(harness_name("near_piecewise %dx%d", n, m), C, nn);
		near_kij(n, m, A, C);
		harness_out_array(harness_name("near_kij %dx%d", n, m), C, nn);
		harness_free(Tn);
		harness_free(A);
		harness_free(B);
		harness_free(Bt);
		harness_free(X);
		harness_free(bias);
		harness_free(C);
		harness_free(Y);
	}
}
