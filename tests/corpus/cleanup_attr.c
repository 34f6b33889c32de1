// MIXPREC-TRANSFORMED: 0
/* cleanup_attr.c -- a local of the nest with __attribute__((cleanup(fn)))
 * (GNU C, both compilers): fn runs at the end of every iteration's scope,
 * a call with side effects, so the nest stays as written under GCC and
 * clang (the clang glues dropped the calls: a wrong result, found by a
 * review helper). */
#include "harness.h"
#include <mixprec.h>

static long long cl_total;
static void cl_done(int32_t *p)
{
	cl_total += *p;
}

__attribute__((noinline)) void cl_gemm(int M, int N, int K, const int8_t *a, const int8_t *b,
				       int32_t *c)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)   // expected-warning {{call to 'cl_done' may have side effects}}
		for (int j = 0; j < N; j++) {
			int32_t q __attribute__((cleanup(cl_done))) = i - j;
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += a[i * K + k] * b[j * K + k];
			c[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		int8_t *a = harness_rand_s8(mk), *b = harness_rand_s8(kn);
		int32_t *c = harness_rand_s32(mn, -1000, 1000);
		cl_total = 0;
		cl_gemm(M, N, K, a, b, c);
		harness_out_array(harness_name("cleanup %dx%dx%d", M, N, K), c, mn);
		harness_out_long(harness_name("cleanup total %dx%dx%d", M, N, K), (long)cl_total);
		harness_free(a);
		harness_free(b);
		harness_free(c);
	}
}
