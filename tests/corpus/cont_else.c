// MIXPREC-TRANSFORMED: 8
/* cont_else.c -- padding written as `if ... continue;` with else branches:
 * `if (ii < 0) continue; else if (ii >= N) continue;`, the test written
 * the other way round (`if (inside) {} else continue;`), the update in the
 * last else of the chain, and a nested guard whose fall-through is a
 * disjunction (`if (ii < 0) { if (ii < -Q) continue; }`: the terms with
 * -Q <= ii < 0 are added, read before x; mixprec cannot read such a guard
 * and refuses the update).  GCC reads the guards from its control flow
 * graph and transformed the first five; the clang plugins refused them
 * (a guard in an else branch was an unknown condition).
 *
 * Later: a guard inside the else block before the update (`if (ii < 0)
 * continue; else { if (ii >= N) continue; s += ...; }`: clang refused
 * it); a continue guard in the then block, the update in the else block
 * (not under the then block's guard); and a statement after a `continue`
 * in a block (`if (ii < 0) { continue; s += ...; }`, never run): clang
 * 14 and 19 read it as an update where ii < 0 and computed a wrong result
 * (GCC drops the dead code). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void ce_elseif(int N, int M, int K, int P, const int8_t *x,
					 const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii < 0)
					continue;
				else if (ii >= N)
					continue;
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

__attribute__((noinline)) void ce_inside(int N, int M, int K, int P, const int8_t *x,
					 const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii >= 0 && ii < N) {
				} else {
					continue;
				}
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

__attribute__((noinline)) void ce_chain(int N, int M, int K, int P, const int8_t *x,
					const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii >= N) {
					continue;
				} else if (ii < 0) {
					continue;
				} else {
					s += x[ii] * w[m * K + k];
				}
			}
			y[m * N + o] = s;
		}
}

/* the second guard after a first with an else: both hold for what follows */
__attribute__((noinline)) void ce_two(int N, int M, int K, int P, const int8_t *x,
				      const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii < 0)
					continue;
				else {
				}
				if (ii >= N)
					continue;
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

/* `if (a) continue; else { if (b) continue; continue; ... }` forms: the
   else falls through where !b, the then never */
__attribute__((noinline)) void ce_in_else(int N, int M, int K, int P, const int8_t *x,
					  const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii < 0) {
					if (ii < -1)
						continue;
					continue;
				} else {
					if (ii >= N)
						continue;
				}
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

/* a disjunction: refused */
__attribute__((noinline)) void ce_nested(int N, int M, int K, int P, int Q, const int8_t *x,
					 const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++) // expected-warning {{the update of 's' is guarded by a condition mixprec cannot read}}
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii < 0) {
					if (ii < -Q)
						continue;
				} else if (ii >= N)
					continue;
				s += x[ii < 0 ? 0 : ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

__attribute__((noinline)) void ce_else_block(int N, int M, int K, int P, const int8_t *x,
					     const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii < 0)
					continue;
				else {
					if (ii >= N)
						continue;
					s += x[ii] * w[m * K + k];
				}
			}
			y[m * N + o] = s;
		}
}

/* the then block's guard (k >= 1) is not the else block's */
__attribute__((noinline)) void ce_then_guard(int N, int M, int K, int P, const int8_t *x,
					     const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii >= N) {
					if (k >= 1)
						continue;
				} else {
					if (ii < 0)
						continue;
					s += x[ii] * w[m * K + k];
				}
			}
			y[m * N + o] = s;
		}
}

__attribute__((noinline)) void ce_dead(int N, int M, int K, int P, const int8_t *x,
				       const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii < 0) {
					continue;
					s += x[ii + P] * w[m * K + k];
				}
				if (ii >= N)
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
		int P = K / 2 + sh % 3, Q = 1 + sh % 2;
		/* x with a margin of random bytes on both sides: a term read
		   outside [0, N) changes the sums */
		int8_t *xm = harness_rand_s8((size_t)N + 2 * (size_t)K + 2);
		const int8_t *x = xm + K + 1;
		int8_t *w = harness_rand_s8((size_t)M * K);
		int32_t *y = harness_rand_s32((size_t)M * N, -1000, 1000);

		ce_elseif(N, M, K, P, x, w, y);
		harness_out_array(harness_name("elseif %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		ce_inside(N, M, K, P, x, w, y);
		harness_out_array(harness_name("inside %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		ce_chain(N, M, K, P, x, w, y);
		harness_out_array(harness_name("chain %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		ce_two(N, M, K, P, x, w, y);
		harness_out_array(harness_name("two %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		ce_in_else(N, M, K, P, x, w, y);
		harness_out_array(harness_name("in_else %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		ce_nested(N, M, K, P, Q, x, w, y);
		harness_out_array(harness_name("nested %dx%dx%d p%d q%d", M, N, K, P, Q), y,
				  (size_t)M * N);
		ce_else_block(N, M, K, P, x, w, y);
		harness_out_array(harness_name("else_block %dx%dx%d p%d", M, N, K, P), y,
				  (size_t)M * N);
		ce_then_guard(N, M, K, P, x, w, y);
		harness_out_array(harness_name("then_guard %dx%dx%d p%d", M, N, K, P), y,
				  (size_t)M * N);
		ce_dead(N, M, K, P, x, w, y);
		harness_out_array(harness_name("dead %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		harness_free(xm);
		harness_free(w);
		harness_free(y);
	}
}
