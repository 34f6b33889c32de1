/* valid_forms.c -- well-formed pragmas above transformable nests: no
 * diagnostic at all (also none with -Wall -Wextra). */
#include <mixprec.h>

#define NEST                                                  \
	for (int i = 0; i < M; i++)                           \
		for (int j = 0; j < N; j++) {                 \
			int32_t s = 0;                        \
			for (int k = 0; k < K; k++)           \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s;                     \
		}
#define MIXPREC_I8 _Pragma("mixprec(int8, acc=int32)")
#define MY_PREC int8
#define MY_TARGET avx2

void vf_plain(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	NEST
}

void vf_minimal(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	NEST
}

void vf_uint8(int M, int N, int K, const uint8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	NEST
}

void vf_spacing(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma   mixprec  (  int8 ,acc =int32 ,  target= auto  )
	NEST
}

void vf_targets(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, target=scalar)
	NEST
#pragma mixprec(int8, target=avx512vnni, acc=int32)
	NEST
}

void vf_macros(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(MY_PREC, target=MY_TARGET)
	NEST
}

void vf_underscore_pragma(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
	MIXPREC_I8
	NEST
	_Pragma("mixprec(int8)")
	NEST
}

/* tile=MxNxK is one pp-number (`64x32x4`): GCC's lexer calls it an integer
   with a bad suffix; the plugin reads it back as written, as clang does */
#define MY_TILE 16x8x4
void vf_tile(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, tile=64x32x4)
	NEST
#pragma mixprec(int8, tile=MY_TILE)
	NEST
#pragma mixprec(int8, tile = 8 x 8 x 4)
	NEST
}

/* a bound at the iterator type's maximum: GCC turns `i < INT_MAX` into
   `i != INT_MAX` before the plugin reads the loop (the loop itself is
   the `<` loop; only compiled here) */
void vf_int_max(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8)
	for (int i = 0; i < 2147483647; i++)
		for (int j = 0; j < 3; j++) {
			int32_t s = 0;
			for (int k = 0; k < 5; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
	(void)M;
}
