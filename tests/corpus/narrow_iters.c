// MIXPREC-TRANSFORMED: 5
// MIXPREC-CFLAGS: -g3
/* narrow_iters.c -- iterators and bounds narrower than int, as embedded
 * code writes them: short / int16_t iterators (whose ++ the C front end
 * computes in the unsigned twin: v = (short)((unsigned short)v + 1)), a
 * signed char reduction iterator, a short loop counting down, uint16_t
 * iterators and the uint16_t parameters of TobudOS's onnx dense()
 * (components/ai/onnx/operator_int/dense.c, int operands there, int8 here).
 * GCC refused the signed ones ("cannot find the induction variable") while
 * clang transformed them.  Built with -g3 (macro definitions in the debug
 * information): GCC with the plugin crashed on every file under -g3. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) static void ni_short(short M, short N, short K, const int8_t *A,
					       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (short i = 0; i < M; i++)
		for (short j = 0; j < N; j++) {
			int32_t s = 0;
			for (short k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) static void ni_int16_down(int M, int N, int K, const int8_t *A,
						    const int8_t *B, int32_t *C)
{
	int16_t i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = (int16_t)(M - 1); i >= 0; i--)
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = (int16_t)(K - 1); k >= 0; k--)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* K below 128 here (the caller clips it) */
__attribute__((noinline)) static void ni_schar(int M, int N, signed char K, const int8_t *A,
					       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (signed char k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) static void ni_u16(uint16_t M, uint16_t N, uint16_t K,
					     const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (uint16_t i = 0; i < M; i++)
		for (uint16_t j = 0; j < N; j++) {
			int32_t s = 0;
			for (uint16_t k = 0; k < K; ++k)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* TobudOS onnx dense(), int8 operands */
__attribute__((noinline)) static void dense(const int8_t *input, const int8_t *weight,
					    const uint16_t dim_vec, const uint16_t num_of_rows,
					    const int *bias, int *output)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < num_of_rows; i++)
	{
		int ip_out = bias[i];
		for (int j = 0; j < dim_vec; j++)
		{
			ip_out += input[j] * weight[i * dim_vec + j];
		}
		output[i] = ip_out;
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int Ks = K % 128;
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		int32_t *bias = harness_rand_s32((size_t)M, -100000, 100000);

		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		ni_short((short)M, (short)N, (short)K, A, B, C);
		harness_out_array(harness_name("short %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		ni_int16_down(M, N, K, A, B, C);
		harness_out_array(harness_name("int16_down %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		ni_schar(M, N, (signed char)Ks, A, B, C);
		harness_out_array(harness_name("schar %dx%dx%d", M, N, Ks), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		ni_u16((uint16_t)M, (uint16_t)N, (uint16_t)K, A, B, C);
		harness_out_array(harness_name("u16 %dx%dx%d", M, N, K), C, mn);
		harness_fill_s32(C, mn, INT32_MIN, INT32_MAX);
		dense(B, A, (uint16_t)K, (uint16_t)M, bias, C);
		harness_out_array(harness_name("dense %dx%d", M, K), C, (size_t)M);
		harness_free(A);
		harness_free(B);
		harness_free(C);
		harness_free(bias);
	}
}
