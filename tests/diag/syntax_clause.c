/* syntax_clause.c -- clauses: unknown, empty, duplicate, missing value. */
#include <mixprec.h>

#define NEST                                                  \
	for (int i = 0; i < M; i++)                           \
		for (int j = 0; j < N; j++) {                 \
			int32_t s = 0;                        \
			for (int k = 0; k < K; k++)           \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s;                     \
		}

void cl_unknown(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32, frobnicate=3) // expected-error {{unknown clause}}
	NEST
}

void cl_empty(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, ) // expected-error {{empty clause}}
	NEST
}

void cl_empty_middle(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, , acc=int32) // expected-error {{empty clause}}
	NEST
}

void cl_duplicate(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32, acc=int32) // expected-error {{duplicate clause}}
	NEST
}

void cl_no_value(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=) // expected-error {{expected}}
	NEST
}

/* a pp-number GCC's lexer rejects is still read back for the core's
   message (the clause's own error, not the lexer's) */
void cl_tile_bad(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, tile=64x32) // expected-error {{invalid value '64x32' for 'tile'}}
	NEST
#pragma mixprec(int8, tile=0x10x4) // expected-error {{tile size M=0}}
	NEST
}
