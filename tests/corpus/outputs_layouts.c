// MIXPREC-TRANSFORMED: 12
/* outputs_layouts.c -- where operands, outputs and bounds live: a pointer to
 * rows int32_t (*C)[16], bounds read from globals (not written in the nest),
 * arrays of structs (operand and output are fields), VLA parameters, VLA
 * pointers cast from flat buffers, a local VLA copy of an operand, an output
 * written as *(C + off), a const local bound, two annotated nests in a row
 * in one function, a global struct holding all three matrices, and an
 * epilogue that also counts into a global. */
#include "harness.h"
#include <mixprec.h>

#define NEST(AEXP, BEXP, OUT, MM, NN, KK)                           \
	for (int i = 0; i < (MM); i++)                              \
		for (int j = 0; j < (NN); j++) {                    \
			int32_t s = 0;                              \
			for (int k = 0; k < (KK); k++)              \
				s += (AEXP) * (BEXP);               \
			OUT = s;                                    \
		}

__attribute__((noinline)) void ol_row_ptr(int M, int K, const int8_t *A, const int8_t *B,
					  int32_t (*C)[16])
{
#pragma mixprec(int8, acc=int32)
	NEST(A[i * K + k], B[k * 16 + j], C[i][j], M, 16, K)
}

int gM, gN, gK;
__attribute__((noinline)) void ol_global_bounds(const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	NEST(A[i * gK + k], B[k * gN + j], C[i * gN + j], gM, gN, gK)
}

struct px {
	int8_t v;
	int8_t pad[3];
	int32_t acc;
};
__attribute__((noinline)) void ol_struct_array(int M, int N, int K, const struct px *X,
					       const int8_t *B, struct px *Y)
{
#pragma mixprec(int8, acc=int32)
	NEST(X[i * K + k].v, B[k * N + j], Y[i * N + j].acc, M, N, K)
}

__attribute__((noinline)) void ol_vla_params(int M, int N, int K, const int8_t A[M][K],
					     const int8_t B[K][N], int32_t C[M][N])
{
#pragma mixprec(int8, acc=int32)
	NEST(A[i][k], B[k][j], C[i][j], M, N, K)
}

__attribute__((noinline)) void ol_vla_casts(int M, int N, int K, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
	const int8_t(*a)[K] = (const int8_t(*)[K])A;
	const int8_t(*b)[N] = (const int8_t(*)[N])B;
	int32_t(*c)[N] = (int32_t(*)[N])C;
#pragma mixprec(int8, acc=int32)
	NEST(a[i][k], b[k][j], c[i][j], M, N, K)
}

__attribute__((noinline)) void ol_local_vla(int M, int N, int K, const int8_t *A, const int8_t *B,
					    int32_t *C)
{
	int8_t la[M][K];
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			la[i][k] = A[i * K + k];
#pragma mixprec(int8, acc=int32)
	NEST(la[i][k], B[k * N + j], C[i * N + j], M, N, K)
}

__attribute__((noinline)) void ol_deref_store(int M, int N, int K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	NEST(*(A + i * K + k), *(B + k * N + j), *(C + i * N + j), M, N, K)
}

__attribute__((noinline)) void ol_const_local(int M, int N, int K, const int8_t *A,
					      const int8_t *B, int32_t *C)
{
	const int rows = M, cols = N, depth = K;
#pragma mixprec(int8, acc=int32)
	NEST(A[i * depth + k], B[k * cols + j], C[i * cols + j], rows, cols, depth)
}

/* Two nests in a row: the second reads the first's output as its bias. */
__attribute__((noinline)) void ol_two_in_a_row(int M, int N, int K, const int8_t *A,
					       const int8_t *B, int32_t *C, int32_t *D)
{
#pragma mixprec(int8, acc=int32)
	NEST(A[i * K + k], B[k * N + j], C[i * N + j], M, N, K)
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j] >> 3;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			D[i * N + j] = s;
		}
}

struct gmats {
	int8_t a[9][13];
	int8_t b[13][11];
	int32_t c[9][11];
} gs;
/* noipa: GCC 12.2 at -O1+ drops the call from the caller of a noinline
 * function writing only this global (ipa-modref / pure-const), even without
 * the plugin. */
__attribute__((noipa)) void ol_global_struct(void)
{
#pragma mixprec(int8, acc=int32)
	NEST(gs.a[i][k], gs.b[k][j], gs.c[i][j], 9, 11, 13)
}

long g_count;
__attribute__((noinline)) void ol_count_epilogue(int M, int N, int K, const int8_t *A,
						 const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
			g_count += s & 7;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 0, &M, &N, &K);
		size_t mn = (size_t)M * N, mk = (size_t)M * K;
		int8_t *A = harness_rand_s8(mk), *B = harness_rand_s8((size_t)K * (N > 16 ? N : 16));
		int32_t *C = harness_rand_s32((size_t)M * (N > 16 ? N : 16), INT32_MIN, INT32_MAX);
		int32_t *D = harness_rand_s32(mn, INT32_MIN, INT32_MAX);

		ol_row_ptr(M, K, A, B, (int32_t(*)[16])C);
		harness_out_array(harness_name("row_ptr %dx16x%d", M, K), C, (size_t)M * 16);
		gM = M, gN = N, gK = K;
		ol_global_bounds(A, B, C);
		harness_out_array(harness_name("global_bounds %dx%dx%d", M, N, K), C, mn);

		struct px *X = harness_alloc(mk * sizeof *X), *Y = harness_alloc(mn * sizeof *Y);
		for (size_t t = 0; t < mk; t++)
			X[t].v = A[t];
		ol_struct_array(M, N, K, X, B, Y);
		harness_out_array(harness_name("struct_array %dx%dx%d", M, N, K), Y, mn);
		harness_free(X);
		harness_free(Y);

		ol_vla_params(M, N, K, (const int8_t(*)[K])A, (const int8_t(*)[N])B,
			      (int32_t(*)[N])C);
		harness_out_array(harness_name("vla_params %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		ol_vla_casts(M, N, K, A, B, C);
		harness_out_array(harness_name("vla_casts %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		ol_local_vla(M, N, K, A, B, C);
		harness_out_array(harness_name("local_vla %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		ol_deref_store(M, N, K, A, B, C);
		harness_out_array(harness_name("deref_store %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		ol_const_local(M, N, K, A, B, C);
		harness_out_array(harness_name("const_local %dx%dx%d", M, N, K), C, mn);
		ol_two_in_a_row(M, N, K, A, B, C, D);
		harness_out_array(harness_name("two_in_a_row.C %dx%dx%d", M, N, K), C, mn);
		harness_out_array(harness_name("two_in_a_row.D %dx%dx%d", M, N, K), D, mn);
		g_count = 0;
		ol_count_epilogue(M, N, K, A, B, C);
		harness_out_array(harness_name("count_epilogue %dx%dx%d", M, N, K), C, mn);
		harness_out_long("count_epilogue.count", g_count);

		harness_free(A);
		harness_free(B);
		harness_free(C);
		harness_free(D);
	}
	harness_fill_s8(&gs.a[0][0], sizeof gs.a);
	harness_fill_s8(&gs.b[0][0], sizeof gs.b);
	ol_global_struct();
	harness_out("global_struct", &gs, sizeof gs);
}
