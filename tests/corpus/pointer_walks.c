// MIXPREC-TRANSFORMED: 7
/* pointer_walks.c -- operands and outputs reached through pointers the
 * nest advances itself, as embedded NN kernels and hand-written C do it
 * (issue 8, item 2): `*p++` in the product, row pointers reset per row and
 * stepped in the reduction loop, a pointer continuing across rows, a
 * parameter pointer advanced per row (`rhs += rhs_cols`), an output pointer
 * walked with `*dst++ =` / `dst += stride`.  The core gives each access its
 * closed form (mp_walk_resolve).  Near misses stay refused and compute the
 * same: a step by a data-dependent amount, a conditional step.  A pointer
 * stepped in the reduction loop and read after it is advanced on the fast
 * path as the loop would have. */
#include "harness.h"
#include <mixprec.h>

#define PW_MAX(A, B) ((A) > (B) ? (A) : (B))
#define PW_MIN(A, B) ((A) < (B) ? (A) : (B))

/* CMSIS-NN arm_nn_vec_mat_mult_t_s8, portable path (shape and names) */
__attribute__((noinline)) void pw_vec_mat_mult(const int8_t *lhs, const int8_t *rhs,
					       const int32_t *bias, int8_t *dst,
					       const int32_t lhs_offset, const int32_t dst_offset,
					       const int32_t rhs_cols, const int32_t rhs_rows,
					       const int32_t address_offset)
{
#pragma mixprec(int8, acc=int32)
	for (int i_row_loop_cnt = 0; i_row_loop_cnt < rhs_rows; i_row_loop_cnt++) {
		const int8_t *lhs_ptr = &lhs[0];
		const int8_t *rhs_ptr = &rhs[0];
		int32_t res00 = 0;
		if (bias)
			res00 = bias[i_row_loop_cnt];
		for (int32_t rhs_cols_idx = 0; rhs_cols_idx < rhs_cols; ++rhs_cols_idx) {
			int32_t rhs_value0 = rhs_ptr[0];
			int32_t lhs_value = lhs_ptr[0] + lhs_offset;
			res00 += lhs_value * rhs_value0;
			++rhs_ptr;
			++lhs_ptr;
		}
		res00 = (res00 >> 5) + dst_offset;
		res00 = PW_MAX(res00, -128);
		res00 = PW_MIN(res00, 127);
		*dst = (int8_t)res00;
		dst += address_offset;
		rhs += rhs_cols;
	}
}

/* NNoM-style q7 fully connected: `*pA++ * *pB++`, output walked */
__attribute__((noinline)) void pw_fc_q7(const int8_t *pV, const int8_t *pM, const uint16_t dim_vec,
					const uint16_t num_of_rows, const int32_t *bias, int32_t *pOut)
{
	const int8_t *pB = pM;
#pragma mixprec(int8, acc=int32)
	for (int rowCnt = num_of_rows; rowCnt > 0; rowCnt--) {
		int32_t ip_out = bias[num_of_rows - rowCnt];
		const int8_t *pA = pV;
		for (int colCnt = dim_vec; colCnt > 0; colCnt--) {
			int8_t inA = *pA++;
			int8_t inB = *pB++;
			ip_out += inA * inB;
		}
		*pOut++ = ip_out;
	}
}

/* a matrix product with every operand walked: a continues across rows */
__attribute__((noinline)) void pw_matmul(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
	const int8_t *a = A;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		const int8_t *b = B;
		for (int j = 0; j < N; j++) {
			const int8_t *ap = a;
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += *ap++ * *b++;
			*C++ = s;
		}
		a += K;
	}
}

/* row pointers advanced by a leading dimension; k counting down */
__attribute__((noinline)) void pw_strided(int M, int N, int K, const uint8_t *X, int ldx,
					  const int8_t *W, int ldw, int32_t *Y, int ldy, int32_t zx)
{
#pragma mixprec(uint8, acc=int32)
	for (int m = 0; m < M; m++) {
		const int8_t *w = W;
		for (int n = 0; n < N; n++) {
			const uint8_t *x = X + m * ldx;
			int32_t acc = 0;
			int k = K;
			while (k--) {
				acc += (*x - zx) * *w;
				x++;
				w++;
			}
			w += ldw - K;
			Y[m * ldy + n] = acc;
		}
	}
}

/* the output pointer in its own loop: C += ldc per row, C[j] per column */
__attribute__((noinline)) void pw_out_rows(int M, int N, int K, const int8_t *A, const int8_t *B,
					   int32_t *C, int ldc)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++) {
			int32_t s = C[j];
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[j] = s;
		}
		C += ldc;
	}
}

/* a pointer stepped twice per iteration (two columns at a time) */
__attribute__((noinline)) void pw_two_steps(int M, int N, int K2, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			const int8_t *a = A + i * 2 * K2;
			int32_t s = 0;
			for (int k = 0; k < K2; k++) {
				s += *a * B[j * K2 + k];
				a++;
				a++;
			}
			C[i * N + j] = s;
		}
}

/* near miss: the step is read from memory (data-dependent) */
__attribute__((noinline)) void pw_data_step(int M, int N, int K, const int8_t *A, const int8_t *B,
					    int32_t *C, const int *skip)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{which the nest changes in a way mixprec cannot follow}}
		for (int j = 0; j < N; j++) {
			const int8_t *a = A + i * K;
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				s += *a * B[k * N + j];
				a += skip[k];
			}
			C[i * N + j] = s;
		}
}

/* near miss: a conditional step */
__attribute__((noinline)) void pw_cond_step(int M, int N, int K, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{which the nest changes in a way mixprec cannot follow}}
		for (int j = 0; j < N; j++) {
			const int8_t *a = A + i * K;
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				s += *a * B[k * N + j];
				if (k & 1)
					a++;
			}
			C[i * N + j] = s;
		}
}

/* stepped in the reduction loop and read after it: the fast path advances
   the pointer as the loop would have */
__attribute__((noinline)) void pw_read_after(int M, int N, int K, const int8_t *A, const int8_t *B,
					     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			const int8_t *a = A + i * K;
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += *a++ * B[k * N + j];
			C[i * N + j] = s + (K > 0 ? a[-1] : 0);
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)(M + 1) * (2 * K + 1)), *B = harness_rand_s8((size_t)(K + 1) * (N + 1) * 2);
		uint8_t *X = harness_rand_u8((size_t)(M + 1) * (K + 3));
		int32_t *bias = harness_rand_s32((size_t)N + M + 1, -5000, 5000);
		int32_t *C = harness_rand_s32(mn + (size_t)M * 3 + 1, -1000, 1000);
		int8_t *D = harness_rand_s8((size_t)N * 3 + 1);
		int *skip = harness_alloc(sizeof(int) * (size_t)(K + 1));
		for (int k = 0; k <= K; k++)
			skip[k] = k % 3 == 0;
		int32_t zo = harness_randint(-128, 127);
		pw_vec_mat_mult(A, B, (sh & 1) ? bias : NULL, D, zo, harness_randint(-5, 5), K, N, 3);
		harness_out_array(harness_name("vec_mat_mult %dx%d", N, K), D, (size_t)N * 3);
		pw_fc_q7(A, B, (uint16_t)K, (uint16_t)N, bias, C);
		harness_out_array(harness_name("fc_q7 %dx%d", N, K), C, (size_t)N);
		pw_matmul(M, N, K, A, B, C);
		harness_out_array(harness_name("matmul %dx%dx%d", M, N, K), C, mn);
		pw_strided(M, N, K, X, K + 3, B, K + 1, C, N, harness_randint(0, 255));
		harness_out_array(harness_name("strided %dx%dx%d", M, N, K), C, mn);
		pw_out_rows(M, N, K, A, B, C, N + 3);
		harness_out_array(harness_name("out_rows %dx%dx%d", M, N, K), C, mn + (size_t)M * 3);
		pw_two_steps(M, N, K, A, B, C);
		harness_out_array(harness_name("two_steps %dx%dx%d", M, N, K), C, mn);
		pw_data_step(M, N, K, A, B, C, skip);
		harness_out_array(harness_name("data_step %dx%dx%d", M, N, K), C, mn);
		pw_cond_step(M, N, K, A, B, C);
		harness_out_array(harness_name("cond_step %dx%dx%d", M, N, K), C, mn);
		pw_read_after(M, N, K, A, B, C);
		harness_out_array(harness_name("read_after %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(X);
		harness_free(bias);
		harness_free(C);
		harness_free(D);
		harness_free(skip);
	}
}
