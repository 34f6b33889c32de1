/* small.c -- the runtime's cost model for small nests (small.sh): the same
 * int8 nest (line 15) and float nest (line 25) called on a tiny shape,
 * where the loop as written wins and the runtime runs it (fallback reason
 * `small`), and on a large one, where the kernels run; the sums printed
 * must equal those of the build without the plugin. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <mixprec.h>

__attribute__((noinline)) static void gemm(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				C[i * N + j] += A[i * K + k] * B[j * K + k];
}

__attribute__((noinline)) static void fgemm(int M, int N, int K, const float *A,
					    const float *B, float *C)
{
#pragma mixprec(bf16)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

int main(int argc, char **argv)
{
	enum { D = 256 };
	static int8_t A[D * D], B[D * D];
	static int32_t C[D * D];
	static float FA[D * D], FB[D * D], FC[D * D];
	for (int i = 0; i < D * D; i++) {
		A[i] = (int8_t)(i * 7), B[i] = (int8_t)(i * 13);
		/* small integers: bf16 represents them exactly, the sums too */
		FA[i] = (float)(i % 5 - 2), FB[i] = (float)(i % 3 - 1);
	}
	int calls = argc > 1 ? atoi(argv[1]) : 1;
	for (int c = 0; c < calls; c++) {
		gemm(2, 2, 8, A, B, C);     /* tiny: the original loop */
		fgemm(2, 2, 8, FA, FB, FC);
	}
	long s = 0;
	double fs = 0;
	for (int i = 0; i < 4; i++)
		s += C[i], fs += FC[i];
	gemm(D, D, D, A, B, C);             /* large: the kernels */
	fgemm(64, 64, 64, FA, FB, FC);
	for (int i = 0; i < D * D; i++)
		s += C[i];
	for (int i = 0; i < 64 * 64; i++)
		fs += FC[i];
	printf("%ld %.1f\n", s, fs);
	return 0;
}
