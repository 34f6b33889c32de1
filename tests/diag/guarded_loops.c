/* guarded_loops.c -- a loop of the nest that runs under an if (its
 * iterations depend on a condition the nest description has no place
 * for) is refused, integer and floating-point sources alike, with the
 * note at the guarded loop; before the fix GCC transformed these forms and
 * dropped the condition. */
#include <mixprec.h>
#include <stdint.h>

void gl_int_direct(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{a loop of the nest runs under a condition}}
		for (int j = 0; j < N; j++)
			if (A[i * K] > 0)
				for (int k = 0; k < K; k++) // expected-note {{the reason is here}}
					C[i * N + j] += A[i * K + k] * B[k * N + j];
}

void gl_float_ikj(int M, int N, int K, const float *A, const float *B, float *C)
{
#pragma mixprec(bf16)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{a loop of the nest runs under a condition}}
		for (int k = 0; k < K; k++) {
			float t = A[i * K + k];
			if (t > 0)
				for (int j = 0; j < N; j++) // expected-note {{the reason is here}}
					C[i * N + j] += t * B[k * N + j];
		}
}
