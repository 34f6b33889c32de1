// MIXPREC-TRANSFORMED: 2
/* range_conds.c -- conditions that a narrow type's range decides: `if
 * (u8 == -1) continue;` is never true (a uint8_t promoted to int is 0 to
 * 255), nor is `s8 > 200`.  GCC's C front end folds such comparisons away
 * (shorten_compare), so its glue never sees them; the clang glues read them
 * as never true too: the same nests are transformed under GCC, clang 14
 * and clang 19 (the random generator found clang refusing the first form
 * GCC transforms).  A comparison made in unsigned int,
 * `(unsigned)s8 == 0xffffffffu`, holds for -1: not folded, refused under
 * all three. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void rc_skip(int M, int N, int K, const uint8_t *A, const int8_t *B,
				       int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				if (A[i * K + k] == -1)
					continue;
				s += A[i * K + k] * B[k * N + j];
			}
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void rc_never(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++) {
				if (B[k * N + j] > 200)
					s -= 7;
				else
					s += A[i * K + k] * B[k * N + j];
			}
			C[i * N + j] = s;
		}
}

/* near miss: -1 converted to unsigned is 0xffffffff */
__attribute__((noinline)) void rc_unsigned(int M, int N, int K, const int8_t *A, const int8_t *B,
					   int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)   // expected-warning {{guarded by a condition mixprec cannot read}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				if ((unsigned)A[i * K + k] == 0xffffffffu)
					continue;
				s += A[i * K + k] * B[k * N + j];
			}
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		uint8_t *Au = harness_rand_u8(mk);
		int8_t *A = harness_rand_s8(mk), *B = harness_rand_s8(kn);
		/* -1 entries where the near miss skips a term */
		for (size_t q = 0; q < mk; q += 5)
			A[q] = -1;
		int32_t *C = harness_rand_s32(mn, -100000, 100000);
		rc_skip(M, N, K, Au, B, C);
		harness_out_array(harness_name("skip %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, -100000, 100000);
		rc_never(M, N, K, A, B, C);
		harness_out_array(harness_name("never %dx%dx%d", M, N, K), C, mn);
		rc_unsigned(M, N, K, A, B, C);
		harness_out_array(harness_name("unsigned %dx%dx%d", M, N, K), C, mn);
		harness_free(Au);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
