/* gemm_ikj.c -- the textbook cache-friendly integer GEMM (i, k, j order),
 * accumulating straight into an int32 matrix: the plugin replaces the whole
 * nest by one call that accumulates into C (no temporary). */
#include <mixprec.h>
#include "common.h"

__attribute__((noinline))
void gemm(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += A[i * K + k] * B[k * N + j];
}

int main(void)
{
	const int M = 512, N = 512, K = 512;
	int8_t *A = malloc((size_t)M * K), *B = malloc((size_t)K * N);
	int32_t *C = calloc((size_t)M * N, sizeof *C);
	fill_s8(A, (size_t)M * K);
	fill_s8(B, (size_t)K * N);
	double t = SAMPLE_TIME(5, gemm(M, N, K, A, B, C));
	printf("gemm_ikj %dx%dx%d checksum %016llx\n", M, N, K,
	       (unsigned long long)checksum(C, (size_t)M * N * sizeof *C));
	printf("time %.6f s  %.2f GOP/s\n", t, 2.0 * M * N * K / t * 1e-9);
	free(A); free(B); free(C);
	return 0;
}
