// MIXPREC-TRANSFORMED: 3
/* imperfect.c -- imperfect nests: row pointers computed between the loops,
 * an i loop holding an init loop, the reduction and an epilogue loop, and
 * statements beside the store that feed other outputs (row sums, a count of
 * saturated results live after the nest). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void mm_rowptr(int M, int N, int K, const int8_t *A, const int8_t *Bt,
					 int32_t *C, int ldc)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		const int8_t *arow = A + (size_t)i * K;
		int32_t *crow = C + (size_t)i * ldc;
		for (int j = 0; j < N; j++) {
			const int8_t *brow = Bt + (size_t)j * K;
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += arow[k] * brow[k];
			crow[j] = s;
		}
	}
}

__attribute__((noinline)) void mm_three_loops(int M, int N, int K, const int8_t *A,
					      const int8_t *B, const int32_t *bias, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++)
			C[i * N + j] = bias[j];
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
		for (int j = 0; j < N; j++)
			C[i * N + j] = C[i * N + j] > 0 ? C[i * N + j] : 0;
	}
}

__attribute__((noinline)) int mm_side_outputs(int M, int N, int K, const int8_t *A,
					      const int8_t *B, int8_t *Y, int32_t *rowsum)
{
	int saturated = 0;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		rowsum[i] = 0;
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			rowsum[i] += s;
			int32_t q = s >> 6;
			saturated += q < -128 || q > 127;
			Y[i * N + j] = (int8_t)mp_clamp_i32(q, -128, 127);
		}
	}
	return saturated;
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int ldc = N + 1;
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		int8_t *A = harness_rand_s8(mk), *B = harness_rand_s8(kn);
		int32_t *bias = harness_rand_s32((size_t)N, -(1 << 20), 1 << 20);
		int32_t *C = harness_rand_s32((size_t)M * ldc, INT32_MIN, INT32_MAX);
		int32_t *rowsum = harness_rand_s32((size_t)M, INT32_MIN, INT32_MAX);
		int8_t *Y = harness_rand_s8(mn);

		mm_rowptr(M, N, K, A, B, C, ldc);
		harness_out_array(harness_name("rowptr %dx%dx%d", M, N, K), C, (size_t)M * ldc);
		mm_three_loops(M, N, K, A, B, bias, C);
		harness_out_array(harness_name("three_loops %dx%dx%d", M, N, K), C, mn);
		int sat = mm_side_outputs(M, N, K, A, B, Y, rowsum);
		harness_out_array(harness_name("side_outputs.Y %dx%dx%d", M, N, K), Y, mn);
		harness_out_array(harness_name("side_outputs.rowsum %dx%dx%d", M, N, K), rowsum, M);
		harness_out_long(harness_name("side_outputs.saturated %dx%dx%d", M, N, K), sat);

		harness_free(A);
		harness_free(B);
		harness_free(bias);
		harness_free(C);
		harness_free(rowsum);
		harness_free(Y);
	}
}
