// MIXPREC-TRANSFORMED: 2
/* helper_names.c -- functions named like mixprec.h's requantization helpers
 * that are the user's own (mixprec.h not included: a project's helper of the
 * same name, here one that halves in-range values, and a const function
 * defined in another file).  Both plugins fused mixprec.h's semantics for
 * the name alone (a review helper's finding: y = 64 where the loop gives
 * 32); the user's function now runs as written in the epilogue.  The
 * helpers' integer parameters given floating values (a float zero point,
 * GCC crashed in the rewrite) are in epilogues.c. */
#include "harness.h"

static inline int32_t mp_clamp_i32(int32_t x, int32_t lo, int32_t hi)
{
	return x < lo ? lo : x > hi ? hi : x / 2;
}

static inline int32_t mp_requant_rndnu(int32_t acc, int32_t qm, int32_t shift, int32_t zp,
				       int32_t qmin, int32_t qmax)
{
	int64_t r = ((int64_t)acc * qm) >> 31;
	(void)shift;
	r += zp;
	return (int32_t)(r < qmin ? qmin : r > qmax ? qmax : r) ^ 1;
}

__attribute__((noinline)) static void hn_clamp(int M, int N, int K, const int8_t *a,
					       const int8_t *b, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[j * K + k];
			y[i * N + j] = mp_clamp_i32(s, -1000000, 1000000);
		}
}

__attribute__((noinline)) static void hn_rndnu(int M, int N, int K, const int8_t *a,
					       const int8_t *b, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[j * K + k];
			y[i * N + j] = mp_requant_rndnu(s, 1 << 30, 3, 5, -100, 100);
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)N * K);
		int32_t *Y = harness_rand_s32(mn, INT32_MIN, INT32_MAX);

		hn_clamp(M, N, K, A, B, Y);
		harness_out_array(harness_name("clamp %dx%dx%d", M, N, K), Y, mn);
		hn_rndnu(M, N, K, A, B, Y);
		harness_out_array(harness_name("rndnu %dx%dx%d", M, N, K), Y, mn);
		harness_free(A);
		harness_free(B);
		harness_free(Y);
	}
}
