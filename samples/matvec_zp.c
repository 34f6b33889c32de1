/* matvec_zp.c -- matrix-vector product with zero points on both operands
 * and a gemmlowp fixed-point requantization, as in TFLite's fully
 * connected layer with batch 1. */
#include <mixprec.h>
#include "common.h"

__attribute__((noinline))
void matvec(int N, int K, const uint8_t *W, int zw, const uint8_t *v, int zv,
	    int32_t qm, int shift, uint8_t *out)
{
#pragma mixprec(uint8, acc=int32)
	for (int j = 0; j < N; j++) {
		int32_t acc = 0;
		for (int k = 0; k < K; k++)
			acc += (W[j * K + k] - zw) * (v[k] - zv);
		out[j] = (uint8_t)mp_requant_gemmlowp(acc, qm, shift, 128, 0, 255);
	}
}

int main(void)
{
	const int N = 4096, K = 4096;
	uint8_t *W = malloc((size_t)N * K), *v = malloc(K), *out = malloc(N);
	fill_u8(W, (size_t)N * K);
	fill_u8(v, K);
	double t = SAMPLE_TIME(51, matvec(N, K, W, 131, v, 7, 1518500250, -12, out));
	printf("matvec_zp %dx%d checksum %016llx\n", N, K,
	       (unsigned long long)checksum(out, N));
	printf("time %.6f s  %.2f GOP/s\n", t, 2.0 * N * K / t * 1e-9);
	free(W); free(v); free(out);
	return 0;
}
