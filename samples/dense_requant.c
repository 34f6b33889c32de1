/* dense_requant.c -- a quantized dense layer as inference code writes it:
 * y = requantize(x * w^T + bias) with zero points on the activations and a
 * float output scale, rounding half to even.  The epilogue stays as written;
 * the contraction runs on the int8 kernels (an int32 temporary tile). */
#include <mixprec.h>
#include "common.h"

__attribute__((noinline))
void dense(int M, int N, int K, const uint8_t *x, int zx, const int8_t *w,
	   const int32_t *bias, float scale, int zy, int8_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = bias[j];
			for (int k = 0; k < K; k++)
				s += (x[i * K + k] - zx) * w[j * K + k];
			y[i * N + j] = (int8_t)mp_requant_fp32(s, scale, zy, -128, 127);
		}
}

int main(void)
{
	const int M = 128, N = 1024, K = 1024;
	uint8_t *x = malloc((size_t)M * K);
	int8_t *w = malloc((size_t)N * K), *y = malloc((size_t)M * N);
	int32_t *bias = malloc(N * sizeof *bias);
	fill_u8(x, (size_t)M * K);
	fill_s8(w, (size_t)N * K);
	fill_i32(bias, N, 10000);
	double t = SAMPLE_TIME(5, dense(M, N, K, x, 117, w, bias, 1.0f / 4096, 3, y));
	printf("dense_requant %dx%dx%d checksum %016llx\n", M, N, K,
	       (unsigned long long)checksum(y, (size_t)M * N));
	printf("time %.6f s  %.2f GOP/s\n", t, 2.0 * M * N * K / t * 1e-9);
	free(x); free(w); free(y); free(bias);
	return 0;
}
