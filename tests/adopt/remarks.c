/* remarks.c -- one nest the plugins transform (line 13) and one they
 * refuse (line 22, a reduction whose bounds name both output loops), for
 * the remark, record, dump and statistics tests (remarks.sh). */
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

__attribute__((noinline)) static void tri(int N, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < i + j - N; k++)
				C[i * N + j] += A[i * N + k] * B[j * N + k];
}

int main(int argc, char **argv)
{
	enum { N = 24 };
	static int8_t A[N * N], B[N * N];
	static int32_t C[N * N];
	for (int i = 0; i < N * N; i++)
		A[i] = (int8_t)(i * 7), B[i] = (int8_t)(i * 13);
	int calls = argc > 1 ? atoi(argv[1]) : 1;
	for (int c = 0; c < calls; c++)
		gemm(N, N, N, A, B, C);
	gemm(N, N, N, (const int8_t *)C, B, C);   /* C overlaps A: the original loop */
	tri(N, A, B, C);
	long s = 0;
	for (int i = 0; i < N * N; i++)
		s += C[i];
	printf("%ld\n", s);
	return 0;
}
