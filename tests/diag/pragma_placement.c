/* pragma_placement.c -- where the pragma may stand: before a block holding
 * the nest (accepted), twice before one loop (error on the first, the second
 * annotates the loop), on the outer loop and again on an inner one (the
 * outer nest is refused, the inner one is analysed on its own), before a
 * declaration, an if statement or a label (errors), and inside dead code
 * (silently dropped with the code). */
#include <mixprec.h>

#define ARGS int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C

void pp_block(ARGS)
{
#pragma mixprec(int8, acc=int32)
	{
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += A[i * K + k] * B[k * N + j];
				C[i * N + j] = s;
			}
	}
}

void pp_twice(ARGS)
{
#pragma mixprec(int8, acc=int32) // expected-error {{appears twice before the same loop}}
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* twice, with a block in between: the same error, at the outer pragma, or
 * at the inner one where the outer marks a region of several loops (also
 * with an OpenMP directive in between: omp_loops.c) (the clang glues transformed the loop and then warned
 * "internal error: the nest has no parent statement"; found in review,
 * December 2026) */
#define PP_GEMM(out)                                                           \
	for (int i = 0; i < M; i++)                                            \
		for (int j = 0; j < N; j++) {                                  \
			int32_t s = 0;                                         \
			for (int k = 0; k < K; k++)                            \
				s += A[i * K + k] * B[k * N + j];              \
			out[i * N + j] = s;                                    \
		}

void pp_twice_block(ARGS)
{
#pragma mixprec(int8, acc=int32) // expected-error {{appears twice before the same loop}}
	{
#pragma mixprec(int8, acc=int32)
		PP_GEMM(C)
	}
}

void pp_twice_region(ARGS, int32_t *D)
{
#pragma mixprec(int8, acc=int32)
	{
		int t = 1;
#pragma mixprec(int8, acc=int32) // expected-error {{appears twice before the same loop}}
		PP_GEMM(C)
		PP_GEMM(D)
		D[0] += t;
	}
}

void pp_nested_on_j(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{another '#pragma mixprec' nest}}
#pragma mixprec(int8, acc=int32)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void pp_nested_on_k(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{another '#pragma mixprec' nest}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
#pragma mixprec(int8, acc=int32)
			for (int k = 0; k < K; k++) // expected-warning {{dot product}}
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void pp_declaration(ARGS)
{
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	int i;
	for (i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* an empty statement between the pragma and the loop */
void pp_empty_statement(ARGS)
{
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void pp_if(ARGS)
{
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
	if (N > 0 && K > 0)
		for (int i = 0; i < M; i++)
			C[i] = A[i] * B[i];
}

void pp_label(ARGS)
{
#pragma mixprec(int8, acc=int32) // expected-error {{must be followed by a 'for' or 'while' loop}}
again:
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	if (M < 0) {
		M = 0;
		goto again;
	}
}

void pp_dead_code(ARGS)
{
	if (0) {
#pragma mixprec(int8, acc=int32)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += A[i * K + k] * B[k * N + j];
				C[i * N + j] = s;
			}
	}
}
