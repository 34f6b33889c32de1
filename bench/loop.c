/* loop.c -- the int8 matrix product as a user writes it (ijk order, int32
 * accumulator), under the mixprec pragma.  Compiled twice by the bench:
 * once plain (-DMP_LOOP_NAME=loop_plain) and once with the plugin flags
 * (-DMP_LOOP_NAME=loop_mixprec). */
#include <stdint.h>
#include "mixprec.h"

#ifndef MP_LOOP_NAME
#error "define MP_LOOP_NAME"
#endif

/* C (M x N, row-major) = A (M x K, row-major) * B (K x N, row-major). */
void MP_LOOP_NAME(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}
