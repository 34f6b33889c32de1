// MIXPREC-TRANSFORMED: 0
/* refuse_control.c -- loop control the plugin does not handle: a do-while
 * reduction, an unsigned k != K + 1 from 1, steps of -2, break / return / goto out of the
 * reduction, a continue that guards the update, an iterator or a bound
 * modified in the body, and a goto into the nest.  Each nest must stay as
 * written (same results) with a warning at its for line. */
#include "harness.h"
#include <mixprec.h>

#define ARGS int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C

__attribute__((noinline)) void rc_do_while(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			int k = 0;
			if (K > 0)
				do {
					s += A[i * K + k] * B[k * N + j];
					k++;
				} while (k < K);
			C[i * N + j] = s;
		}
}

/* `!=` on an unsigned iterator that does not start at 0: it would run past
   its bound (wrapping) when it starts above it */
__attribute__((noinline)) void rc_not_equal(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{exit test of loop 'k' is '!='}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (unsigned k = 1; k != (unsigned)K + 1; k++)
				s += A[i * K + k - 1] * B[(k - 1) * N + j];
			C[i * N + j] = s;
		}
}

/* steps other than 1 and -1 (count-down loops: loop_down.c) */
__attribute__((noinline)) void rc_downward(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{step -2}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = K - 1; k >= 0; k -= 2)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void rc_downward_outer(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = M; i > 0; i -= 2) // expected-warning {{step -2}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[(i - 1) * K + k] * B[k * N + j];
			C[(i - 1) * N + j] = s;
		}
}

__attribute__((noinline)) void rc_break(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{more than one exit}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				if (A[i * K + k] == 0)
					break;
				s += A[i * K + k] * B[k * N + j];
			}
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void rc_break_j(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{more than one exit}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
			if (s == 0)
				break;
		}
}

__attribute__((noinline)) void rc_continue_k(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{guarded}}
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

__attribute__((noinline)) int rc_return(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{more than one exit}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				if (A[i * K + k] == 127 && B[k * N + j] == 127)
					return i * 1000 + j;
				s += A[i * K + k] * B[k * N + j];
			}
			C[i * N + j] = s;
		}
	return -1;
}

__attribute__((noinline)) int rc_goto_out(ARGS)
{
	int where = -1;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{more than one exit}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				s += A[i * K + k] * B[k * N + j];
				if (s > 20000) {
					where = i * 1000 + j;
					goto out;
				}
			}
			C[i * N + j] = s;
		}
out:
	return where;
}

__attribute__((noinline)) void rc_iter_modified(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{induction variable}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				s += A[i * K + k] * B[k * N + j];
				if (s > 5000)
					k++;
			}
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) int rc_bound_modified(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{bound of loop 'j'}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
			if (s > 30000)
				N--;
		}
	return N;
}

/* A goto into the body of the reduction loop makes the nest irreducible;
 * the jump is taken only when M < 0 (never here). */
__attribute__((noinline)) void rc_goto_in(ARGS)
{
	int i = 0, j = 0, k = 0;
	int32_t s = 0;
	if (M < 0)
		goto in;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++) // expected-warning {{not transformed}}
		for (j = 0; j < N; j++) {
			s = 0;
			for (k = 0; k < K; k++) {
in:
				s += A[i * K + k] * B[k * N + j];
			}
			C[i * N + j] = s;
		}
}

typedef void rc_fn(int, int, int, const int8_t *, const int8_t *, int32_t *);
static const struct {
	const char *name;
	rc_fn *fn;
} kernels[] = {
	{ "do_while", rc_do_while },   { "not_equal", rc_not_equal },
	{ "downward", rc_downward },   { "downward_outer", rc_downward_outer },
	{ "break", rc_break },         { "break_j", rc_break_j },
	{ "continue_k", rc_continue_k }, { "iter_modified", rc_iter_modified },
	{ "goto_in", rc_goto_in },
};

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		for (size_t f = 0; f < sizeof kernels / sizeof kernels[0]; f++) {
			harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
			kernels[f].fn(M, N, K, A, B, C);
			harness_out_array(harness_name("%s %dx%dx%d", kernels[f].name, M, N, K), C, mn);
		}
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		harness_out_long("return.where", rc_return(M, N, K, A, B, C));
		harness_out_array(harness_name("return %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		harness_out_long("goto_out.where", rc_goto_out(M, N, K, A, B, C));
		harness_out_array(harness_name("goto_out %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		harness_out_long("bound_modified.N", rc_bound_modified(M, N, K, A, B, C));
		harness_out_array(harness_name("bound_modified %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
