// MIXPREC-TRANSFORMED: 2
/* setjmp_fn.c -- nests in functions that call setjmp (error handling in
 * the style of libpng/libjpeg: setjmp at the top, longjmp from a helper).
 * GCC gives every call of such a function an abnormal edge to the setjmp
 * receiver, which hid the loop after the pragma ("no loop follows the
 * pragma here") while clang transformed the nests.  A longjmp before the
 * nest re-runs it; the outputs are compared with the plain build. */
#include <setjmp.h>
#include "harness.h"
#include <mixprec.h>

static jmp_buf sj_env;

__attribute__((noinline)) static void sj_check(int fail)
{
	if (fail)
		longjmp(sj_env, 1);
}

__attribute__((noinline)) static int sj_gemm(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
	volatile int tries = 0;
	if (setjmp(sj_env))
		tries++;
	sj_check(tries == 0 && M > 3);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			C[i * N + j] = tries;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
	sj_check(0);
	return tries;
}

/* tile mode: the requantization stays in the loop */
__attribute__((noinline)) static int sj_requant(int M, int N, int K, const int8_t *A,
						const int8_t *B, const int32_t *bias, int8_t *Y)
{
	volatile int tries = 0;
	if (setjmp(sj_env) != 0) {
		if (++tries > 1)
			return -1;
	}
	sj_check(tries == 0 && N % 2);
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			s = (s + 64) >> 7;
			Y[i * N + j] = (int8_t)(s > 127 ? 127 : s < -128 ? -128 : s);
		}
	return tries;
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		int32_t *bias = harness_rand_s32((size_t)N, -100000, 100000);
		int8_t *Y = harness_rand_s8(mn);

		harness_out_long("gemm.tries", sj_gemm(M, N, K, A, B, C));
		harness_out_array(harness_name("gemm %dx%dx%d", M, N, K), C, mn);
		harness_out_long("requant.tries", sj_requant(M, N, K, A, B, bias, Y));
		harness_out_array(harness_name("requant %dx%dx%d", M, N, K), Y, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
		harness_free(bias);
		harness_free(Y);
	}
}
