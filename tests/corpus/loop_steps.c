// MIXPREC-TRANSFORMED: 15
/* loop_steps.c -- steps other than 1 and rows unrolled into accumulators,
 * as hand-optimised C writes them (issue 8, items 3 and 4): k += 2 in the
 * reduction, i += 2 over every other row, a column step of 3 with j read
 * after the nest; 2 and 4 rows per iteration with separate accumulators
 * and a remainder loop after the annotated one (`i + 1 < M`), CMSIS-NN's
 * 3-row block with pointer walks and a shared lhs value, two updates of
 * one accumulator.  Each accumulator is a contraction of its own (one
 * remark each), computed into its own tile; the reduction loop reads them
 * all; a perfect ikj nest over every other row runs in direct mode.  Near
 * misses: a step in ikj order after an init loop (tile mode: refused), a
 * count-down step of -2 (refused). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void st_k2(int M, int N, int K, const int8_t *A, const int8_t *B,
				     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k += 2)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void st_i2(int M, int N, int K, const int8_t *A, const int8_t *B,
				     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i += 2)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) long st_j3(int M, int N, int K, const int8_t *A, const int8_t *B,
				     int32_t *C)
{
	int j = -1;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (j = 1; j < N; j += 3) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
	return j;
}

/* two rows per iteration, the remainder row after the annotated loop */
__attribute__((noinline)) void st_two_rows(int M, int K, const int8_t *A, const int8_t *x,
					   int32_t *y)
{
	int i;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i + 1 < M; i += 2) {
		int32_t sum0 = 0, sum1 = 0;
		for (int k = 0; k < K; k++) {
			int32_t b = x[k];
			sum0 += A[i * K + k] * b;
			sum1 += A[(i + 1) * K + k] * b;
		}
		y[i] = sum0;
		y[i + 1] = sum1;
	}
	for (; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

/* four rows of a matrix product per iteration, zero point on x */
__attribute__((noinline)) void st_four_rows(int M, int N, int K, const uint8_t *X, const int8_t *W,
					    int32_t *Y, int32_t zx)
{
	int m = 0;
#pragma mixprec(uint8, acc=int32)
	for (m = 0; m < M - 3; m += 4)
		for (int n = 0; n < N; n++) {
			int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
			for (int k = 0; k < K; k++) {
				const int32_t w = W[n * K + k];
				a0 += (X[(m + 0) * K + k] - zx) * w;
				a1 += (X[(m + 1) * K + k] - zx) * w;
				a2 += (X[(m + 2) * K + k] - zx) * w;
				a3 += (X[(m + 3) * K + k] - zx) * w;
			}
			Y[(m + 0) * N + n] = a0;
			Y[(m + 1) * N + n] = a1;
			Y[(m + 2) * N + n] = a2;
			Y[(m + 3) * N + n] = a3;
		}
	for (; m < M; m++)
		for (int n = 0; n < N; n++) {
			int32_t a = 0;
			for (int k = 0; k < K; k++)
				a += (X[m * K + k] - zx) * W[n * K + k];
			Y[m * N + n] = a;
		}
}

/* CMSIS-NN arm_nn_vec_mat_mult_t_s8: three rows per iteration, walked */
__attribute__((noinline)) void st_cmsis_3rows(const int8_t *lhs, const int8_t *rhs, int32_t *dst,
					      const int32_t rhs_cols, const int32_t rhs_rows,
					      const int32_t lhs_offset)
{
	const int row_loop_cnt = rhs_rows / 3;
#pragma mixprec(int8, acc=int32)
	for (int i_row_loop_cnt = 0; i_row_loop_cnt < row_loop_cnt; i_row_loop_cnt++) {
		int32_t res00 = 0;
		int32_t res01 = 0;
		int32_t res02 = 0;
		const int8_t *lhs_vec = lhs;
		const int8_t *rhs_0 = rhs;
		const int8_t *rhs_1 = rhs + rhs_cols;
		const int8_t *rhs_2 = rhs + 2 * rhs_cols;
		for (int rhs_cols_idx = 0; rhs_cols_idx < rhs_cols; ++rhs_cols_idx) {
			const int32_t rhs_value0 = (int8_t)*rhs_0;
			const int32_t rhs_value1 = (int8_t)*rhs_1;
			const int32_t rhs_value2 = (int8_t)*rhs_2;
			const int32_t lhs_value = (int8_t)*lhs_vec + lhs_offset;
			res00 += lhs_value * rhs_value0;
			res01 += lhs_value * rhs_value1;
			res02 += lhs_value * rhs_value2;
			++rhs_0;
			++rhs_1;
			++rhs_2;
			++lhs_vec;
		}
		dst[0] = res00 >> 3;
		dst[1] = res01 >> 3;
		dst[2] = res02 >> 3;
		dst += 3;
		rhs += 3 * rhs_cols;
	}
}

/* two updates of one accumulator per k */
__attribute__((noinline)) void st_two_updates(int M, int N, int K, const int8_t *A, const int8_t *B,
					      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				s += A[i * K + k] * B[k * N + j];
				s += A[i * K + k] * B[j * K + k];
			}
			C[i * N + j] = s;
		}
}

/* a perfect ikj nest over every other row: direct mode */
__attribute__((noinline)) void st_ikj_direct(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i += 2)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

/* near miss: a step with the reduction loop enclosing the column loop,
   after an init loop (tile mode adds the tile by rows of step 1) */
__attribute__((noinline)) void st_ikj_step(int M, int N, int K, const int8_t *A, const int8_t *B,
					   int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i += 2) { // expected-warning {{need the reduction loop innermost}}
		for (int j = 0; j < N; j++)
			C[i * N + j] = 0;
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
	}
}

/* near miss: counting down by 2 */
__attribute__((noinline)) void st_down2(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = M - 1; i >= 0; i -= 2) // expected-warning {{step -2}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K + 1);
		int8_t *B = harness_rand_s8((size_t)K * (N + 1) + 1);
		uint8_t *X = harness_rand_u8((size_t)M * K + 1);
		int32_t *C = harness_rand_s32(mn + 3, -100000, 100000);
		st_k2(M, N, K, A, B, C);
		harness_out_array(harness_name("k2 %dx%dx%d", M, N, K), C, mn);
		st_i2(M, N, K, A, B, C);
		harness_out_array(harness_name("i2 %dx%dx%d", M, N, K), C, mn);
		harness_out_long("j3", st_j3(M, N, K, A, B, C));
		harness_out_array(harness_name("j3 %dx%dx%d", M, N, K), C, mn);
		st_two_rows(M, K, A, B, C);
		harness_out_array(harness_name("two_rows %dx%d", M, K), C, (size_t)M);
		st_four_rows(M, N, K, X, B, C, harness_randint(0, 255));
		harness_out_array(harness_name("four_rows %dx%dx%d", M, N, K), C, mn);
		st_cmsis_3rows(A, B, C, K, N, harness_randint(-128, 127));
		harness_out_array(harness_name("cmsis_3rows %dx%d", N, K), C, (size_t)N);
		st_two_updates(M, N, K, A, B, C);
		harness_out_array(harness_name("two_updates %dx%dx%d", M, N, K), C, mn);
		st_ikj_direct(M, N, K, A, B, C);
		harness_out_array(harness_name("ikj_direct %dx%dx%d", M, N, K), C, mn);
		st_ikj_step(M, N, K, A, B, C);
		harness_out_array(harness_name("ikj_step %dx%dx%d", M, N, K), C, mn);
		st_down2(M, N, K, A, B, C);
		harness_out_array(harness_name("down2 %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(X);
		harness_free(C);
	}
}
