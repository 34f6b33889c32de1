/* syntax_precision.c -- the precision argument: unknown (int4), missing,
 * and unknown after macro expansion. */
#include <mixprec.h>

void pr_int4(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int4, acc=int32) // expected-error {{unknown precision}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void pr_empty(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec() // expected-error {{precision}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* GCC reports a token from a macro where it is spelled, with a note at the
 * expansion. */
#define MY_PREC int4 // expected-error {{unknown precision 'int4'}}
void pr_macro(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(MY_PREC) // expected-note {{in expansion of macro 'MY_PREC'}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}
