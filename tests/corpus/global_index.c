// MIXPREC-TRANSFORMED: 3
/* global_index.c -- locals read from a global or local array: an index
 * table (`r = gidx[k]`, an indirect row) is data the nest reads at each
 * iteration, never a parameter.  GCC's glue took any load from an array
 * declared in memory for a value invariant across the nest whatever its
 * subscript, so `B[(k + gidx[k]) * N + j]` was transformed with gidx[k]
 * read once before the nest (a wrong result), and a zero-skip guard over a
 * global operand (`t = gA[i*K + k]; if (t != 0) ...`) crashed GCC (found
 * by the fuzzer).  Now: refused as clang refuses it, the guarded form
 * transformed, and a load at an invariant subscript (`gdims[q]`) still a
 * parameter. */
#include "harness.h"
#include <mixprec.h>

#define KMAX 256
int gidx[KMAX + 1];
int8_t gA[64 * KMAX + 1];
int gdims[4];

/* an indirect row: refused (its subscript reads the data) */
__attribute__((noinline)) void gi_indirect(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{subscript of 'B' is not affine}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int r = gidx[k];
				s += A[i * K + k] * B[(k + r) * N + j];
			}
			C[i * N + j] = s;
		}
}

/* the same table local to the function */
__attribute__((noinline)) void gi_local_table(int M, int N, int K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
	int idx[KMAX + 1];
	for (int k = 0; k <= KMAX; k++)
		idx[k] = gidx[k];
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{subscript of 'B' is not affine}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int r = idx[k];
				s += A[i * K + k] * B[(k + r) * N + j];
			}
			C[i * N + j] = s;
		}
}

/* a zero-skip guard over a global operand (GCC crashed) */
__attribute__((noinline)) void gi_guard(int M, int N, int K, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++) {
			int t = gA[i * K + k];
			if (t != 0)
				for (int j = 0; j < N; j++)
					C[i * N + j] += t * B[k * N + j];
		}
}

/* the same in kij order, the guard written as a continue */
__attribute__((noinline)) void gi_guard_kij(int M, int N, int K, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++) {
			int t = gA[i * K + k];
			if (t == 0)
				continue;
			for (int j = 0; j < N; j++)
				C[i * N + j] -= t * B[k * N + j];
		}
}

/* a bound read from a global table at an invariant subscript */
__attribute__((noinline)) void gi_dims(int q, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < gdims[q]; i++)
		for (int j = 0; j < gdims[q + 1]; j++) {
			int32_t s = 0;
			for (int k = 0; k < gdims[q + 2]; k++)
				s += A[i * gdims[q + 2] + k] * B[k * gdims[q + 1] + j];
			C[i * gdims[q + 1] + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		if (M > 64 || K > KMAX)
			continue;
		size_t mk = (size_t)M * K, kn = (size_t)(K + 1) * N, mn = (size_t)M * N;
		int8_t *A = harness_rand_s8(mk + 1), *B = harness_rand_s8(kn + 1);
		int32_t *C = harness_rand_s32(mn + 1, INT32_MIN, INT32_MAX);

		for (int k = 0; k <= KMAX; k++)
			gidx[k] = harness_randint(0, 1);
		harness_fill_s8(gA, sizeof gA);
		for (size_t q = 0; q < sizeof gA; q += 3)
			gA[q] = 0;   /* the guards skip */
		gi_indirect(M, N, K, A, B, C);
		harness_out_array(harness_name("indirect %dx%dx%d", M, N, K), C, mn);
		gi_local_table(M, N, K, A, B, C);
		harness_out_array(harness_name("local_table %dx%dx%d", M, N, K), C, mn);
		gi_guard(M, N, K, B, C);
		harness_out_array(harness_name("guard %dx%dx%d", M, N, K), C, mn);
		gi_guard_kij(M, N, K, B, C);
		harness_out_array(harness_name("guard_kij %dx%dx%d", M, N, K), C, mn);
		gdims[1] = M, gdims[2] = N, gdims[3] = K;
		gi_dims(1, A, B, C);
		harness_out_array(harness_name("dims %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
