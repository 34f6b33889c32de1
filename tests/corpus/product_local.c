// MIXPREC-TRANSFORMED: 3
/* product_local.c -- the product kept in a local before it is summed, as
 * gemmlowp's reference GEMM (test/test.cc, ReferenceEightBitIntGemm)
 * writes it: every value in a named const local, strides chosen at run
 * time, `const int32_t mult_as_int = a_as_int * b_as_int; total +=
 * mult_as_int;`.  The local is the product's own type, defined once and
 * read once: it is forwarded into the sum.  Near misses stay as written and
 * compute the same: a product narrowed into an int16_t local (its value is
 * not the product's), a product local also read after the sum. */
#include "harness.h"
#include <mixprec.h>

/* gemmlowp's reference, C (static_cast -> casts, bool -> int) */
__attribute__((noinline)) void pl_gemmlowp(int transpose_a, int transpose_b, int transpose_c,
					   int m, int n, int k, const uint8_t *a, int32_t a_offset,
					   int lda, const uint8_t *b, int32_t b_offset, int ldb,
					   uint8_t *c, int32_t c_offset, int32_t c_mult_int,
					   int32_t c_shift, int ldc)
{
	int a_i_stride;
	int a_l_stride;
	if (transpose_a == transpose_c) {
		a_i_stride = 1;
		a_l_stride = lda;
	} else {
		a_i_stride = lda;
		a_l_stride = 1;
	}
	int b_j_stride;
	int b_l_stride;
	if (transpose_b == transpose_c) {
		b_j_stride = ldb;
		b_l_stride = 1;
	} else {
		b_j_stride = 1;
		b_l_stride = ldb;
	}
	int c_i_stride;
	int c_j_stride;
	if (transpose_c) {
		c_i_stride = ldc;
		c_j_stride = 1;
	} else {
		c_i_stride = 1;
		c_j_stride = ldc;
	}
	int i, j, l;

#pragma mixprec(uint8, acc=int32)
	for (j = 0; j < n; j++) {
		for (i = 0; i < m; i++) {
			int32_t total = 0;
			for (l = 0; l < k; l++) {
				const int a_index = i * a_i_stride + l * a_l_stride;
				const uint8_t a_as_byte = a[a_index];
				const int32_t a_as_int = (int32_t)(a_as_byte) + a_offset;
				const int b_index = j * b_j_stride + l * b_l_stride;
				const uint8_t b_as_byte = b[b_index];
				const int32_t b_as_int = (int32_t)(b_as_byte) + b_offset;
				const int32_t mult_as_int = a_as_int * b_as_int;
				total += mult_as_int;
			}
			int32_t output =
				(((total + c_offset) * c_mult_int) + (1 << (c_shift - 1))) >> c_shift;
			if (output > 255) {
				output = 255;
			}
			if (output < 0) {
				output = 0;
			}
			const int c_index = i * c_i_stride + j * c_j_stride;
			c[c_index] = (uint8_t)(output);
		}
	}
}

/* a plain int8 product through a local, into an int32 output */
__attribute__((noinline)) void pl_simple(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int32_t p = A[i * K + k] * B[k * N + j];
				s += p;
			}
			C[i * N + j] = s;
		}
}

/* near miss: the product narrowed into an int16_t local (not the product) */
__attribute__((noinline)) void pl_narrow(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int16_t p = (int16_t)((A[i * K + k] * B[k * N + j]) | 1);
				s += p;
			}
			C[i * N + j] = s;
		}
}

/* near miss: the product local read again after the loop */
__attribute__((noinline)) void pl_read_after(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C, int32_t *last)
{
	int32_t p = 0;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				p = A[i * K + k] * B[k * N + j];
				s += p;
			}
			C[i * N + j] = s;
		}
	*last = p;
}

/* the product in a local, then scaled by a factor in the sum */
__attribute__((noinline)) void pl_alpha(int M, int N, int K, int32_t alpha, const int8_t *A,
					const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				const int32_t prod = A[k * M + i] * B[j * K + k];
				s += prod;
			}
			C[i * N + j] += alpha * s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int ld = (M > N ? M : N) + (K > 0 ? K : 1) + 3;
		uint8_t *a = harness_rand_u8((size_t)ld * ld + 1), *b = harness_rand_u8((size_t)ld * ld + 1);
		uint8_t *c = harness_rand_u8((size_t)ld * ld + 1);
		int8_t *A = harness_rand_s8((size_t)M * K + 1), *B = harness_rand_s8((size_t)K * N + 1);
		int32_t *C = harness_rand_s32(mn + 1, -1000, 1000);
		int32_t last = 0;
		int ta = sh & 1, tb = (sh >> 1) & 1, tc = (sh >> 2) & 1;
		pl_gemmlowp(ta, tb, tc, M, N, K, a, -harness_randint(0, 255), ld, b,
			    -harness_randint(0, 255), ld, c, harness_randint(-1000, 1000),
			    harness_randint(1, 8), harness_randint(1, 20), ld);
		harness_out_array(harness_name("gemmlowp %d%d%d %dx%dx%d", ta, tb, tc, M, N, K), c,
				  (size_t)ld * ld);
		pl_simple(M, N, K, A, B, C);
		harness_out_array(harness_name("simple %dx%dx%d", M, N, K), C, mn);
		pl_narrow(M, N, K, A, B, C);
		harness_out_array(harness_name("narrow %dx%dx%d", M, N, K), C, mn);
		pl_read_after(M, N, K, A, B, C, &last);
		harness_out_array(harness_name("read_after %dx%dx%d", M, N, K), C, mn);
		harness_out(harness_name("read_after last %dx%dx%d", M, N, K), &last, sizeof last);
		pl_alpha(M, N, K, harness_randint(-3, 3), A, B, C);
		harness_out_array(harness_name("alpha %dx%dx%d", M, N, K), C, mn);
		harness_free(a);
		harness_free(b);
		harness_free(c);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
