// MIXPREC-TRANSFORMED: 12
/* tri_reduction.c -- triangular reductions (issue 9): the range of the sum
 * depends on the output row, as TRMM, TRMV and triangular solves' products
 * write it (`for (k = i + 1; k < m; k++)`, `for (j = 0; j <= i; j++)`).
 * The plugin sums over the hull of the ranges (from ISL) and leaves out
 * the terms outside the row's bounds, as it does for a padded convolution:
 * the operand whose rows the bounds name holds its zero point (or 0)
 * there.  Outputs must be bit-identical to the loops as written, also
 * where a row's range is empty (the last row of k > i).
 * An operand the nest writes is read by the kernels before the nest runs
 * (tile mode) when ISL shows every read of the loop comes before the
 * element is written (TRMM in place, k > i).  Near misses,
 * still refused: in place over the rows already written (k < i), in place
 * with a row length given at run time (rows that may overlap),
 * bounds naming both output loops, a hull that is not one interval, the
 * reduction iterator read after its loop.  A band clipped by an `if` of
 * its own (`for (k = i - 2; k <= i + 2; k++) if (k >= 0 && k < m)`) is
 * transformed: the `if` joins the bounds, and the runtime narrows k to
 * the part on k alone (B is read only where the loop reads it). */
#include "harness.h"
#include <mixprec.h>
#include <string.h>

/* TRMM out of place: C = strict-lower(A)^T B, k from i + 1 (PolyBench's
 * trmm reads A[k][i] for k > i) */
__attribute__((noinline)) void trmm_k_gt_i(int m, int n, const int8_t A[m][m],
					   const int8_t B[m][n], int32_t C[m][n])
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			int32_t s = 0;
			for (k = i + 1; k < m; k++)
				s += A[k][i] * B[k][j];
			C[i][j] = s;
		}
}

/* k < i, linearised, accumulating into C (tile mode with the add) */
__attribute__((noinline)) void k_lt_i(int M, int N, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < i; k++)
				s += A[i * M + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* k <= i counting down, uint8 activations with a zero point */
__attribute__((noinline)) void k_le_i_down_zp(int M, int N, const uint8_t *X, int zx,
					      const int8_t *W, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = i; k >= 0; k--)
				s += (X[i * M + k] - zx) * W[k * N + j];
			C[i * N + j] = s;
		}
}

/* TRMV: y = L x on the lower triangle (matrix-vector, the reduction j) */
__attribute__((noinline)) void trmv_lower(int n, const int8_t *L, const int8_t *x, int32_t *y)
{
	int i, j;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < n; i++) {
		int32_t t = 0;
		for (j = 0; j <= i; j++)
			t += L[i * n + j] * x[j];
		y[i] = t;
	}
}

/* upper TRMV with a bias and requantization: the range ends at n */
__attribute__((noinline)) void trmv_upper_requant(int n, const int8_t *U, const int8_t *x,
						  const int32_t *bias, float sc, int8_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < n; i++) {
		int32_t t = bias[i];
		for (int j = i; j < n; j++)
			t += U[i * n + j] * x[j];
		y[i] = (int8_t)mp_requant_fp32(t, sc, 0, -128, 127);
	}
}

/* the bounds name the column loop: B's rows are cut (the operands change
 * places), k from j to K */
__attribute__((noinline)) void k_from_j(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = j; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* ikj order, k > i around the j loop: one add of a tile row per (i, k) */
__attribute__((noinline)) void ikj_k_gt_i(int m, int n, const int8_t *A, const int8_t *B,
					  int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < m; i++)
		for (int k = i + 1; k < m; k++)
			for (int j = 0; j < n; j++)
				C[i * n + j] += A[k * m + i] * B[k * n + j];
}

/* a while loop from the row to the end, the counter declared before */
__attribute__((noinline)) void while_from_i(int m, int n, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			int32_t s = 0;
			k = i;
			while (k < m) {
				s += A[i * m + k] * B[k * n + j];
				k++;
			}
			C[i * n + j] = s;
		}
}

/* in place: row i of X becomes the requantized sum over the rows below it
 * (k > i), which the loop has not rewritten yet: the kernels read X as
 * the nest found it (tile mode).  X's rows have a fixed length, so ISL
 * knows they do not overlap */
#define XW 40
__attribute__((noinline)) void inplace_below(int m, int n, const int8_t *A, int8_t X[][XW])
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			int32_t s = X[i][j];
			for (int k = i + 1; k < m; k++)
				s += A[k * m + i] * X[k][j];
			X[i][j] = (int8_t)(s >> 8);
		}
}

/* ---------------------------------------------------------- near misses */

/* a band, k from i - 2 to i + 2 (A stored by diagonals, 5 per row),
 * clipped to the matrix by a condition of its own: that condition cuts k
 * below the hull (-2 .. m + 1, to 0 .. m - 1); the runtime narrows k to it,
 * so B's rows -2, -1, m, m + 1 are not read (B ends at an unreadable page) */
__attribute__((noinline)) void band(int m, int n, const int8_t *A, const int8_t *B,
				     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			int32_t s = 0;
			for (int k = i - 2; k <= i + 2; k++)
				if (k >= 0 && k < m)
					s += A[i * 5 + (k - i + 2)] * B[k * n + j];
			C[i * n + j] = s;
		}
}

/* the same band clipped by a condition that names the row too (k + i <
 * m): the runtime narrows k to the condition's reach over the rows, so
 * B's rows m, m + 1 are not read (a fuzz-like review found SIGSEGV here
 * when the band was first transformed) */
__attribute__((noinline)) void band_row(int m, int n, const int8_t *A, const int8_t *B,
					int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			int32_t s = 0;
			for (int k = i - 2; k <= i + 2; k++)
				if (k >= 0 && k + i < m)
					s += A[i * 5 + (k - i + 2)] * B[k * n + j];
			C[i * n + j] = s;
		}
}

/* the strictly lower triangle written as a test on the row (`if (k <
 * i)` over all of k): B's last row is never read (B has m - 1 rows
 * here); before the runtime projected such conditions onto k, the
 * kernels read it (SIGSEGV, under the three compilers) */
__attribute__((noinline)) void tri_if(int m, int n, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			int32_t s = 0;
			for (int k = 0; k < m; k++)
				if (k < i)
					s += A[i * m + k] * B[k * n + j];
			C[i * n + j] = s;
		}
}

/* the range names both output loops */
__attribute__((noinline)) void near_both(int M, int N, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{triangular reduction}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < i + j; k++)
				s += A[i * M + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* the hull of k over the rows is not one affine interval (it stops at
 * 4 from m = 3 on) */
__attribute__((noinline)) void near_hull(int M, int N, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{triangular reduction}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 2 * i; k < i + 3; k++)
				s += A[i * 3 + (k - 2 * i)] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* the reduction iterator is read after its loop */
__attribute__((noinline)) void near_final_k(int M, int N, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
	int k;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{triangular reduction}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < i; k++)
				s += A[i * M + k] * B[k * N + j];
			C[i * N + j] = s + k;
		}
}

/* in place with a row length given at run time: with ld < n the rows
 * overlap and a read can come after a write of the same element (found
 * by a helper's adversarial run with ld = 1 before this was refused) */
__attribute__((noinline)) void near_inplace_ld(int m, int n, int ld, const int8_t *A, int8_t *X)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < m; i++) // expected-warning {{nest writes to it}}
		for (int j = 0; j < n; j++) {
			int32_t s = X[i * ld + j];
			for (int k = i + 1; k < m; k++)
				s += A[k * m + i] * X[k * ld + j];
			X[i * ld + j] = (int8_t)(s >> 7);
		}
}

/* in place over the rows above (k < i): those are rewritten already, as
 * a forward substitution reads them */
__attribute__((noinline)) void near_inplace_above(int m, int n, const int8_t *A, int8_t *X)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < m; i++) // expected-warning {{nest writes to it}}
		for (int j = 0; j < n; j++) {
			int32_t s = X[i * n + j];
			for (int k = 0; k < i; k++)
				s += A[i * m + k] * X[k * n + j];
			X[i * n + j] = (int8_t)(s >> 8);
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N, mm = (size_t)M * M;
		size_t bk = (size_t)(M + N + K + 3) * N;
		int8_t *A = harness_rand_s8(mm + (size_t)M * K + 5 * (size_t)M + (size_t)N + 3);
		int8_t *B = harness_rand_s8(bk), *x = harness_rand_s8((size_t)M);
		int8_t *B2 = harness_rand_s8(bk);
		uint8_t *X = harness_rand_u8(mm);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		int32_t *bias = harness_rand_s32((size_t)M, -100000, 100000);
		int8_t *y8 = harness_rand_s8((size_t)M);
		int zx = harness_randint(0, 255);

		trmm_k_gt_i(M, N, (const int8_t (*)[M])A, (const int8_t (*)[N])B,
			    (int32_t (*)[N])C);
		harness_out_array(harness_name("trmm_k_gt_i %dx%d", M, N), C, mn);
		harness_fill_s32(C, mn, -1000000, 1000000);
		k_lt_i(M, N, A, B, C);
		harness_out_array(harness_name("k_lt_i %dx%d", M, N), C, mn);
		k_le_i_down_zp(M, N, X, zx, B, C);
		harness_out_array(harness_name("k_le_i_down_zp %dx%d", M, N), C, mn);
		trmv_lower(M, A, x, C);
		harness_out_array(harness_name("trmv_lower %d", M), C, (size_t)M);
		trmv_upper_requant(M, A, x, bias, 0.0011f, y8);
		harness_out_array(harness_name("trmv_upper_requant %d", M), y8, (size_t)M);
		k_from_j(M, N, K, A, B, C);
		harness_out_array(harness_name("k_from_j %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, -1000000, 1000000);
		ikj_k_gt_i(M, N, A, B, C);
		harness_out_array(harness_name("ikj_k_gt_i %dx%d", M, N), C, mn);
		while_from_i(M, N, A, B, C);
		harness_out_array(harness_name("while_from_i %dx%d", M, N), C, mn);
		{
			int nx = N < XW ? N : XW;
			int8_t *X = harness_rand_s8((size_t)M * XW + 1);

			inplace_below(M, nx, A, (int8_t (*)[XW])X);
			harness_out_array(harness_name("inplace_below %dx%d", M, nx), X,
					  (size_t)M * XW);
			near_inplace_ld(M, nx, N % 3, A, X);
			harness_out_array(harness_name("near_inplace_ld %dx%d", M, nx), X,
					  (size_t)M * XW);
			harness_free(X);
		}
		memcpy(B2, B, bk);
		near_inplace_above(M, N, A, B2);
		harness_out_array(harness_name("near_inplace_above %dx%d", M, N), B2, mn);
		{
			int8_t *gB = harness_alloc_guarded(mn);

			memcpy(gB, B, mn);
			band(M, N, A, gB, C);
			harness_out_array(harness_name("band %dx%d", M, N), C, mn);
			band_row(M, N, A, gB, C);
			harness_out_array(harness_name("band_row %dx%d", M, N), C, mn);
			harness_free_guarded(gB, mn);
		}
		if (M > 0) {   /* B: the m - 1 rows the loop reads */
			size_t bn = (size_t)(M - 1) * N;
			int8_t *gB = harness_alloc_guarded(bn);

			memcpy(gB, B, bn);
			tri_if(M, N, A, gB, C);
			harness_out_array(harness_name("tri_if %dx%d", M, N), C, mn);
			harness_free_guarded(gB, bn);
		}
		near_both(M, N, A, B, C);
		harness_out_array(harness_name("near_both %dx%d", M, N), C, mn);
		near_hull(M, N, A, B, C);
		harness_out_array(harness_name("near_hull %dx%d", M, N), C, mn);
		near_final_k(M, N, A, B, C);
		harness_out_array(harness_name("near_final_k %dx%d", M, N), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(B2);
		harness_free(x);
		harness_free(X);
		harness_free(C);
		harness_free(bias);
		harness_free(y8);
	}
}
