/* syntax_paren.c -- parentheses of the pragma: missing '(', missing ')'. */
#include <mixprec.h>

void sp_missing_open(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec int8, acc=int32 // expected-error {{expected '('}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void sp_missing_close(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32 // expected-error {{missing ')'}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void sp_bare(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec // expected-error {{expected '('}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}
