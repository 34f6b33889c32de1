// MIXPREC-TRANSFORMED: 0
/* long_names.c -- constant= naming an operand whose name is longer than
 * the description keeps (47 characters): it cannot be told from another
 * name that shares them (a third variable's promise must not mark an
 * operand), so it is refused saying why, under GCC and clang alike (the
 * warning said "names no operand" and showed the operand's name cut,
 * found by a review helper).  The results are the plain build's. */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void ln_gemm(
	int M, int N, int K, const int8_t *weights_of_the_first_fully_connected_layer_quantized,
	const int8_t *b, int32_t *c)
{
#pragma mixprec(int8, constant=weights_of_the_first_fully_connected_layer_quantized)
	for (int i = 0; i < M; i++)   // expected-warning {{are not supported in constant=}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += weights_of_the_first_fully_connected_layer_quantized[i * K + k] *
				     b[j * K + k];
			c[i * N + j] = s;
		}
}

__attribute__((noinline)) void ln_twins(int M, int N, int K,
					const int8_t *activations_of_the_first_fully_connected_layer_left,
					const int8_t *activations_of_the_first_fully_connected_layer_right,
					int32_t *c)
{
#pragma mixprec(int8, constant=activations_of_the_first_fully_connected_layer_right)
	for (int i = 0; i < M; i++)   // expected-warning {{are not supported in constant=}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += activations_of_the_first_fully_connected_layer_left[i * K + k] *
				     activations_of_the_first_fully_connected_layer_right[j * K + k];
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
		/* new weights (perhaps at a freed address): the clause's promise
		   is kept by saying so */
		mp_lp_forget(0);
		ln_gemm(M, N, K, a, b, c);
		harness_out_array(harness_name("long %dx%dx%d", M, N, K), c, mn);
		/* the same weights, new inputs: the packed weights reused */
		harness_fill_s8(b, kn);
		ln_gemm(M, N, K, a, b, c);
		harness_out_array(harness_name("long again %dx%dx%d", M, N, K), c, mn);
		ln_twins(M, N, K, a, b, c);
		harness_out_array(harness_name("twins %dx%dx%d", M, N, K), c, mn);
		harness_free(a);
		harness_free(b);
		harness_free(c);
	}
}
