// MIXPREC-TRANSFORMED: 4
/* guard_forms.c -- padding tests written with the conditional operator
 * and windows whose clipped end is moved by a constant.  A flag `int ok =
 * (ii >= 0) ? (ii < N) : 0;` is ii >= 0 && ii < N, `int out = ii < 0 ? 1 :
 * ii >= N;` is ii < 0 || ii >= N (a guard of the `continue`), as is `int
 * out = ii < 0 || ii >= N;` (tested as `!out`); a window end
 * `k <= MIN(K, N - base) - 1` is MIN(K - 1, N - base - 1).  GCC reads them
 * from its control flow graph and transformed the nests; the clang plugins
 * refused them ("a condition mixprec cannot read", "the bound of loop 'k'
 * is not affine"; found by a helper).  A flag whose value is a
 * disjunction where the update runs is refused under all three.  GCC at
 * -O0 refused the two flags that are disjunctions (its flag blocks were
 * read only where they set 1). */
#include "harness.h"
#include <mixprec.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

__attribute__((noinline)) void gf_flag(int N, int M, int K, int P, const int8_t *x,
				       const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o + k - P;
				int ok = (ii >= 0) ? (ii < N) : 0;
				if (ok)
					s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

__attribute__((noinline)) void gf_out(int N, int M, int K, int P, const int8_t *x,
				      const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o + k - P;
				int out = ii < 0 ? 1 : ii >= N;
				if (out)
					continue;
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

/* the flag a disjunction, tested negated */
__attribute__((noinline)) void gf_not_or(int N, int M, int K, int P, const int8_t *x,
					 const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o + k - P;
				int out = ii < 0 || ii >= N;
				if (!out)
					s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

__attribute__((noinline)) void gf_minmax(int N, int M, int K, int P, const int8_t *x,
					 const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			int base = o - P;
			for (int k = MAX(0, -base); k <= MIN(K, N - base) - 1; k++)
				s += x[base + k] * w[m * K + k];
			y[m * N + o] = s;
		}
}

/* near miss: ii < 0 || ii < N where the update runs (a disjunction) */
__attribute__((noinline)) void gf_or(int N, int M, int K, int P, const int8_t *x,
				     const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++) // expected-warning {{the update of 's' is guarded by a condition mixprec cannot read}}
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o + k - P;
				int ok = ii < 0 ? 1 : ii < N;
				if (ok)
					s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

/* near miss: a flag narrowed to int8_t, whose constant arm 256 is 0 there
   (the clang plugins read it as true and dropped the terms with ii < 0: a
   review found it); refused under all three */
__attribute__((noinline)) void gf_trunc(int N, int M, int K, int P, const int8_t *x,
					const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++) // expected-warning {{the update of 's' is guarded by a condition mixprec cannot read}}
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o + k - P;
				int8_t skip = (ii >= 0) ? (ii < N) : 256;
				if (skip)
					continue;
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 0, &M, &N, &K);
		int P = K / 2 + sh % 3;
		/* x with a margin of random bytes on both sides: a term read
		   outside [0, N) changes the sums */
		int8_t *xm = harness_rand_s8((size_t)N + 2 * (size_t)K + 2);
		const int8_t *x = xm + K + 1;
		int8_t *w = harness_rand_s8((size_t)M * K);
		int32_t *y = harness_rand_s32((size_t)M * N, -1000, 1000);

		gf_flag(N, M, K, P, x, w, y);
		harness_out_array(harness_name("flag %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		gf_out(N, M, K, P, x, w, y);
		harness_out_array(harness_name("out %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		gf_not_or(N, M, K, P, x, w, y);
		harness_out_array(harness_name("not_or %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		gf_minmax(N, M, K, P, x, w, y);
		harness_out_array(harness_name("minmax %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		gf_trunc(N, M, K, P, x, w, y);
		harness_out_array(harness_name("trunc %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		gf_or(N, M, K, P, x, w, y);
		harness_out_array(harness_name("or %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		harness_free(xm);
		harness_free(w);
		harness_free(y);
	}
}
