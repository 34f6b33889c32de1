// MIXPREC-TRANSFORMED: 8
/* local_copies.c -- operand values copied into locals before the multiply,
 * as embedded NN reference kernels, BLAS-like C GEMMs and hand-written code
 * do it (issue 8, item 1): the copy is forwarded into the operand (it is
 * dead on the fast path); one local loaded in turn with two rows, each
 * load forwarded to the products that follow it.  Near misses stay refused
 * and compute the same:
 * a copy read before it is set (the previous k's value), a copy also read
 * after the reduction, a copy into a narrower type after adding an offset,
 * a local loaded in turn whose first product reads the last row of the
 * previous k. */
#include "harness.h"
#include <mixprec.h>

/* TFLite-Micro-style fully connected: both operands copied, offsets added */
__attribute__((noinline)) void lc_fully_connected(int batches, int output_depth, int accum_depth,
						  const int8_t *input_data, const int8_t *filter_data,
						  const int32_t *bias_data, int32_t *output_data,
						  int32_t input_offset, int32_t filter_offset)
{
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < batches; ++b) {
		for (int out_c = 0; out_c < output_depth; ++out_c) {
			int32_t acc = 0;
			for (int d = 0; d < accum_depth; ++d) {
				int32_t input_val = input_data[b * accum_depth + d];
				int32_t filter_val = filter_data[out_c * accum_depth + d];
				acc += (filter_val + filter_offset) * (input_val + input_offset);
			}
			if (bias_data)
				acc += bias_data[out_c];
			output_data[out_c + output_depth * b] = acc;
		}
	}
}

/* darknet-style gemm_nn: a register copy of A(i,k) reused along j */
__attribute__((noinline)) void lc_gemm_nn(int M, int N, int K, const int8_t *A, int lda,
					  const int8_t *B, int ldb, int32_t *C, int ldc)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; ++i) {
		for (k = 0; k < K; ++k) {
			register int32_t A_PART = A[i * lda + k];
			for (j = 0; j < N; ++j) {
				C[i * ldc + j] += A_PART * B[k * ldb + j];
			}
		}
	}
}

/* a chain of copies with a widening in between, the offset subtracted in
   the copy */
__attribute__((noinline)) void lc_chain(int M, int N, int K, const uint8_t *X, const int8_t *W,
					int32_t *Y, int32_t x_zero)
{
#pragma mixprec(uint8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			int32_t sum = 0;
			for (int k = 0; k < K; k++) {
				uint8_t xb = X[m * K + k];
				int16_t xs = xb;
				int32_t x = xs - x_zero;
				int32_t w = W[n * K + k];
				sum += x * w;
			}
			Y[m * N + n] = sum;
		}
}

/* the copy made in the j loop for the whole k loop: row pointer and a
   copy of the scale-free weight column */
__attribute__((noinline)) void lc_jk_copy(int M, int N, int K, const int8_t *A, const int8_t *B,
					  int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		const int8_t *arow = A + i * K;
		for (int j = 0; j < N; j++) {
			int acc = 0;
			for (int k = 0; k < K; k++) {
				const int av = arow[k];
				acc += av * B[k * N + j];
			}
			C[i * N + j] = acc;
		}
	}
}

/* both operands copied, the product of the copies copied too */
__attribute__((noinline)) void lc_product_copy(int M, int N, int K, const int8_t *A, const int8_t *B,
					       int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t acc = 7;
			for (int k = 0; k < K; k++) {
				int32_t a = A[i * K + k], b = B[j * K + k];
				acc += a * b;
			}
			C[i * N + j] = acc;
		}
}

/* the same copies written with assignments to locals declared at the top */
__attribute__((noinline)) void lc_top_decls(int M, int N, int K, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
	int i, j, k;
	int32_t a, b, acc;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			acc = 0;
			for (k = 0; k < K; k++) {
				a = A[i * K + k];
				b = B[k * N + j];
				acc += a * b;
			}
			C[i * N + j] = acc;
		}
}

/* CMSIS-NN's arm_nn_mat_mult_nt_t_s8 (its plain C path): two rows of lhs
   at a time, one local `a` loaded with each in turn */
__attribute__((noinline)) void lc_reused(int rows2, int N, int K, const int8_t *lhs,
					 const int8_t *rhs, int32_t *dst)
{
#pragma mixprec(int8, acc=int32)
	for (int r = 0; r < rows2; r++) {
		for (int c = 0; c < N; c++) {
			int32_t s0 = 0, s1 = 0;
			for (int k = 0; k < K; k++) {
				int8_t b = rhs[c * K + k];
				int8_t a = lhs[(2 * r) * K + k];
				s0 += a * b;
				a = lhs[(2 * r + 1) * K + k];
				s1 += a * b;
			}
			dst[(2 * r) * N + c] = s0;
			dst[(2 * r + 1) * N + c] = s1;
		}
	}
}

/* near miss: the same, the second row's product first, reading the value
   `a` kept from the previous k */
__attribute__((noinline)) void lc_reused_lag(int rows2, int N, int K, const int8_t *lhs,
					     const int8_t *rhs, int32_t *dst)
{
#pragma mixprec(int8, acc=int32)
	for (int r = 0; r < rows2; r++) // expected-warning {{no contraction found}}
		for (int c = 0; c < N; c++) {
			int32_t s0 = 0, s1 = 0;
			int8_t a = 3;
			for (int k = 0; k < K; k++) {
				int8_t b = rhs[c * K + k];
				s1 += a * b;
				a = lhs[(2 * r) * K + k];
				s0 += a * b;
				a = lhs[(2 * r + 1) * K + k];
			}
			dst[(2 * r) * N + c] = s0;
			dst[(2 * r + 1) * N + c] = s1;
		}
}

/* near miss: the copy is read before it is set (a one-step lag) */
__attribute__((noinline)) void lc_lagged(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{no contraction found}}
		for (int j = 0; j < N; j++) {
			int32_t acc = 0, prev = 1;
			for (int k = 0; k < K; k++) {
				acc += prev * B[k * N + j];
				prev = A[i * K + k];
			}
			C[i * N + j] = acc;
		}
}

/* near miss: the copy is also read after the reduction (its last value) */
__attribute__((noinline)) void lc_read_after(int M, int N, int K, const int8_t *A, const int8_t *B,
					     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{no contraction found}}
		for (int j = 0; j < N; j++) {
			int32_t acc = 0, a = 0;
			for (int k = 0; k < K; k++) {
				a = A[i * K + k];
				acc += a * B[k * N + j];
			}
			C[i * N + j] = acc + a;
		}
}

/* near miss: the offset is added before the copy into a narrow type */
__attribute__((noinline)) void lc_narrow(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C, int32_t off)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{no contraction found}}
		for (int j = 0; j < N; j++) {
			int32_t acc = 0;
			for (int k = 0; k < K; k++) {
				int8_t a = (int8_t)(A[i * K + k] + off);
				acc += a * B[k * N + j];
			}
			C[i * N + j] = acc;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K + 1), *B = harness_rand_s8((size_t)K * N + 1);
		uint8_t *X = harness_rand_u8((size_t)M * K + 1);
		int32_t *bias = harness_rand_s32((size_t)N + 1, -5000, 5000);
		int32_t *C = harness_rand_s32(mn + 1, -1000, 1000);
		int32_t zo = harness_randint(-128, 127), zf = harness_randint(-3, 3);
		lc_fully_connected(M, N, K, A, B, bias, C, zo, zf);
		harness_out_array(harness_name("fully_connected %dx%dx%d", M, N, K), C, mn);
		lc_fully_connected(M, N, K, A, B, NULL, C, zo, 0);
		harness_out_array(harness_name("fully_connected nobias %dx%dx%d", M, N, K), C, mn);
		lc_gemm_nn(M, N, K, A, K, B, N, C, N);
		harness_out_array(harness_name("gemm_nn %dx%dx%d", M, N, K), C, mn);
		lc_chain(M, N, K, X, B, C, harness_randint(0, 255));
		harness_out_array(harness_name("chain %dx%dx%d", M, N, K), C, mn);
		lc_jk_copy(M, N, K, A, B, C);
		harness_out_array(harness_name("jk_copy %dx%dx%d", M, N, K), C, mn);
		lc_product_copy(M, N, K, A, B, C);
		harness_out_array(harness_name("product_copy %dx%dx%d", M, N, K), C, mn);
		lc_top_decls(M, N, K, A, B, C);
		harness_out_array(harness_name("top_decls %dx%dx%d", M, N, K), C, mn);
		lc_reused(M / 2, N, K, A, B, C);
		harness_out_array(harness_name("reused %dx%dx%d", M, N, K), C, mn);
		lc_reused_lag(M / 2, N, K, A, B, C);
		harness_out_array(harness_name("reused_lag %dx%dx%d", M, N, K), C, mn);
		lc_lagged(M, N, K, A, B, C);
		harness_out_array(harness_name("lagged %dx%dx%d", M, N, K), C, mn);
		lc_read_after(M, N, K, A, B, C);
		harness_out_array(harness_name("read_after %dx%dx%d", M, N, K), C, mn);
		lc_narrow(M, N, K, A, B, C, zo);
		harness_out_array(harness_name("narrow %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(X);
		harness_free(bias);
		harness_free(C);
	}
}
