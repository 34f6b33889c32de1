/* target_clause.c -- target= families without 8-bit integer kernels leave
 * the loop as written, with a warning at the loop; the others are silent. */
#include <mixprec.h>

void tc_avxvnni(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, target=avxvnni)
	for (int i = 0; i < M; i++) // expected-warning {{target=avxvnni has no 8-bit integer kernels}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void tc_bf16(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, target=avx512bf16)
	for (int i = 0; i < M; i++) // expected-warning {{target=avx512bf16 has no 8-bit integer kernels}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void tc_avx2(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, target=avx2)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}
