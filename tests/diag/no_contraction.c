/* no_contraction.c -- well-formed pragmas above loops that hold no
 * contraction: a copy loop and an elementwise product.  The loops stay and
 * the plugin says why, at the for line. */
#include <mixprec.h>

void nc_copy(int M, int N, const int8_t *A, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		for (int j = 0; j < N; j++)
			C[i * N + j] = A[i * N + j];
}

void nc_elementwise(int M, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		C[i] = A[i] * B[i];
}
