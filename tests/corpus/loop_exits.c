// MIXPREC-TRANSFORMED: 6
/* loop_exits.c -- exit tests as other people write them: `!=` on int and
 * size_t iterators (C++-influenced code, iterator loops ported to C), and
 * `i < INT_MAX`-style bounds that GCC itself turns into `!=` before the
 * plugin sees them. */
#include "harness.h"
#include <stddef.h>
#include <mixprec.h>

__attribute__((noinline)) void ex_ne_int(int M, int N, int K, const int8_t *A, const int8_t *B,
					 int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i != M; ++i)
		for (int j = 0; j != N; ++j) {
			int32_t acc = 0;
			for (int k = 0; k != K; ++k)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
}

__attribute__((noinline)) void ex_ne_size_t(size_t M, size_t N, size_t K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (size_t i = 0; i != M; i++)
		for (size_t j = 0; j != N; j++) {
			int32_t acc = 0;
			for (size_t k = 0; k != K; k++)
				acc += A[i * K + k] * B[j * K + k];
			C[i * N + j] = acc;
		}
}

/* unsigned from 0 up to an unsigned bound with != */
__attribute__((noinline)) void ex_ne_unsigned(unsigned M, unsigned N, unsigned K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (unsigned i = 0; i != M; i++)
		for (unsigned j = 0; j < N; j++) {
			int32_t acc = 0;
			for (unsigned k = 0; k != K; k++)
				acc += A[i * K + k] * B[j * K + k];
			C[i * N + j] = acc;
		}
}

/* one column: GCC turns `j < 1` on an unsigned j into `j == 0` */
__attribute__((noinline)) void ex_one_column(int M, int K, const int8_t *A, const int8_t *B,
					     int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (unsigned j = 0; j < 1; j++) {
			int32_t acc = 0;
			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * B[j * K + k];
			C[i + j] = acc;
		}
}

/* ... and one step of a reduction stepping by 2, `k < 1; k += 2` on an
   unsigned k (`k == 0`: GCC refused it, clang transformed it; fuzz seed
   1205752), the iterators read after the nest */
__attribute__((noinline)) long ex_one_step(unsigned M, unsigned N, const int8_t *A,
					   const uint8_t *B, int32_t *C)
{
	unsigned i = (unsigned)-1, j = (unsigned)-2, k = (unsigned)-3;
#pragma mixprec(uint8, acc=int32)
	for (k = 0; k < 1; k += 2)
		for (j = 0; j != N; j++)
			for (i = 0; i != M; i += 1)
				C[i * N + j] += (A[i * 2 + k] - 3) * (B[j * 2 + k] + 1);
	return (long)i * 1000000 + (long)j * 1000 + k;
}

/* ... and `k == 2` from k = 2 as written, step 5: one iteration (GCC's
   glue read it so, clang's refused it: a review helper) */
__attribute__((noinline)) long ex_eq_once(int M, int N, const int8_t *A, const uint8_t *B,
					  int32_t *C)
{
	int i = 7, j = 7, k = 7;
#pragma mixprec(uint8, acc=int32)
	for (k = 2; k == 2; k += 5)
		for (j = 0; j < N; j++)
			for (i = 0; i < M; i++)
				C[i * N + j] += (A[i * 4 + k] - 3) * (B[j * 4 + k] + 1);
	return (long)i * 1000000 + (long)j * 1000 + k;
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K + 1);
		int8_t *B = harness_rand_s8((size_t)N * K + 1);
		int32_t *C = harness_rand_s32(mn + 1, -1000, 1000);
		ex_ne_int(M, N, K, A, B, C);
		harness_out_array(harness_name("ne_int %dx%dx%d", M, N, K), C, mn);
		ex_ne_size_t((size_t)M, (size_t)N, (size_t)K, A, B, C);
		harness_out_array(harness_name("ne_size_t %dx%dx%d", M, N, K), C, mn);
		ex_one_column(M, K, A, B, C);
		harness_out_array(harness_name("one_column %dx%d", M, K), C, (size_t)M);
		{
			uint8_t *U = harness_rand_u8((size_t)N * 4 + 1);
			int8_t *A2 = harness_rand_s8((size_t)M * 4 + 1);
			harness_out_long(harness_name("eq_once %dx%d", M, N),
					 ex_eq_once(M, N, A2, U, C));
			harness_out_array(harness_name("eq_once C %dx%d", M, N), C, mn);
			harness_out_long(harness_name("one_step %dx%d", M, N),
					 ex_one_step((unsigned)M, (unsigned)N, A2, U, C));
			harness_out_array(harness_name("one_step C %dx%d", M, N), C, mn);
			harness_free(U);
			harness_free(A2);
		}
		ex_ne_unsigned((unsigned)M, (unsigned)N, (unsigned)K, A, B, C);
		harness_out_array(harness_name("ne_unsigned %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
