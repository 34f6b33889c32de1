// MIXPREC-TRANSFORMED: 0
/* bit_fields.c -- an operand that is a bit-field of a struct array
 * (`struct { int pad:3; int v:8; }`): not a whole element at its address,
 * so the nest must stay as written under GCC and clang (GCC's glue read
 * the byte around the field, (v << 3) | pad, and the kernels computed
 * with it: a wrong result, found by a review helper); the results are the
 * plain build's. */
#include "harness.h"
#include <mixprec.h>

struct bf {
	int pad : 3;
	int v : 8;
};

__attribute__((noinline)) void bf_gemm(int M, int N, int K, const struct bf *sa, const int8_t *b,
				       int32_t *c)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)   // expected-warning {{loop nest not transformed}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += sa[i * K + k].v * b[j * K + k];
			c[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		struct bf *sa = harness_alloc((mk + 1) * sizeof *sa);
		for (size_t q = 0; q < mk; q++) {
			sa[q].pad = (int)(harness_rand() % 8) - 4;
			sa[q].v = (int)(harness_rand() % 256) - 128;
		}
		int8_t *b = harness_rand_s8(kn);
		int32_t *c = harness_rand_s32(mn, -1000, 1000);
		bf_gemm(M, N, K, sa, b, c);
		harness_out_array(harness_name("bitfield %dx%dx%d", M, N, K), c, mn);
		harness_free(sa);
		harness_free(b);
		harness_free(c);
	}
}
