// MIXPREC-TRANSFORMED: 6
// MIXPREC-EXPECT-FALLBACK: 1
/* escaped_scalars.c -- scalars the nest depends on whose address is taken
 * (issue 14, class 1: the clang plugin ran the kernels with the value at
 * entry while the loop as written changed it through the pointer).  A
 * scalar whose address escapes lives in memory, like a global: it is read
 * as an invariant only when the nest never writes it directly, and its
 * bytes are protected at run time against every store of the nest (the
 * original loop runs when one may hit them).  Each kernel is called twice:
 * once where the pointer aims at the scalar (fallback), once elsewhere
 * (kernels).  An iterator in memory is refused. */
#include "harness.h"
#include <mixprec.h>

static int *esc_slot;
static int32_t esc_other;
__attribute__((noinline)) void esc_keep(int *p) { esc_slot = p; }

/* the reduction bound, bumped through a pointer in the epilogue */
__attribute__((noinline)) void esc_k(int M, int N, int K, const int8_t *A, const int8_t *B,
				     int32_t *C, int alias)
{
	int *pK = alias ? &K : &esc_other;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * 67 + k] * B[j * 67 + k];
			C[i * N + j] = s;
			(*pK)++;
			if (*pK > 60)
				*pK = 3;
		}
}

/* the same bound read only inside expressions (`K / 2 + K % 3`, a
 * conditional expression): the derived values read K's bytes, which the
 * run-time check protects as it protects K itself (both glues ran the
 * kernels with K's value at entry, and the fuzz campaign found the
 * conditional form under clang) */
__attribute__((noinline)) void esc_k_expr(int M, int N, int K, const int8_t *A, const int8_t *B,
					  int32_t *C, int alias)
{
	int other = 0;
	int *pK = alias ? &K : &other;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K / 2 + K % 3; k++)
				s += A[i * 67 + k] * B[j * 67 + k];
			C[i * N + j] = s;
			*pK ^= 1;
		}
}

/* the row count, lowered through a pointer (the loop as written stops
   early; a tile sized at entry would be read past its end) */
__attribute__((noinline)) void esc_m(int M, int N, int K, const int8_t *A, const int8_t *B,
				     int32_t *C, int alias)
{
	int *pm = alias ? &M : &esc_other;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t acc = 0;
			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
			if (j == 0)
				*pm -= 1;
		}
}

/* a zero point handed to another function first, then written through
   a pointer that function kept */
__attribute__((noinline)) void esc_zp(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C, int32_t a_offset, int alias)
{
	esc_keep(alias ? &a_offset : &esc_other);
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t acc = 0;
			for (int k = 0; k < K; k++)
				acc += (A[i * K + k] + a_offset) * B[j * K + k];
			C[i * N + j] = acc;
			*esc_slot = (int)(acc & 7);
		}
}

/* an operand's base pointer whose address is taken: an invariant in
   memory, protected like a global */
__attribute__((noinline)) void esc_base(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C, const int8_t ***out)
{
	*out = &A;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
	*out = NULL;   /* A's address does not outlive the call */
}

/* the accumulator itself, read back through its pointer */
__attribute__((noinline)) void esc_acc(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int32_t *C)
{
	int32_t sum;
	int32_t *ps = &sum;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			sum = 0;
			for (int k = 0; k < K; k++)
				sum += A[i * K + k] * B[j * K + k];
			C[i * N + j] = *ps - 1;
		}
}

/* an iterator whose address is taken: refused */
__attribute__((noinline)) void esc_iter(int M, int N, int K, const int8_t *A, const int8_t *B,
					int32_t *C)
{
	int j;
	int *pj = &j;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{lives in memory}}
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
			if (s > 1000)
				(*pj)++;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		if (K > 60)
			K = 60;
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)(M + 1) * 67), *B = harness_rand_s8((size_t)(N + 1) * 67 + (size_t)K * N);
		int32_t *C = harness_rand_s32(mn, -1000, 1000);
		const int8_t **pa = NULL;
		for (int alias = 0; alias < 2; alias++) {
			esc_other = 0;
			esc_k(M, N, K, A, B, C, alias);
			harness_out_array(harness_name("esc_k%d %dx%dx%d", alias, M, N, K), C, mn);
			esc_k_expr(M, N, K, A, B, C, alias);
			harness_out_array(harness_name("esc_k_expr%d %dx%dx%d", alias, M, N, K), C, mn);
			esc_m(M, N, K, A, B, C, alias);
			harness_out_array(harness_name("esc_m%d %dx%dx%d", alias, M, N, K), C, mn);
			esc_zp(M, N, K, A, B, C, harness_randint(-128, 127), alias);
			harness_out_array(harness_name("esc_zp%d %dx%dx%d", alias, M, N, K), C, mn);
			harness_out_long("esc_other", esc_other);
		}
		esc_base(M, N, K, A, B, C, &pa);
		harness_out_array(harness_name("esc_base %dx%dx%d", M, N, K), C, mn);
		esc_acc(M, N, K, A, B, C);
		harness_out_array(harness_name("esc_acc %dx%dx%d", M, N, K), C, mn);
		esc_iter(M, N, K, A, B, C);
		harness_out_array(harness_name("esc_iter %dx%dx%d", M, N, K), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
