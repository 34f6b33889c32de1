/* refusals_forms.c -- product and access forms the plugin refuses (the loop
 * stays, one warning at the nest's for line): the product through an int
 * temporary, s = a*b - s, a product truncated to int16_t, a product scaled by 2,
 * a*a, a (unsigned char) cast of a
 * signed operand, volatile operand / output, an output through a
 * pointer-to-pointer indexed by the row (bounds and pointers read from
 * struct fields are read before the nest: corpus struct_fields.c). */
#include <mixprec.h>

#define ARGS int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C
#define NEST(UPDATE)                                            \
	for (int j = 0; j < N; j++) {                           \
		int32_t s = 0;                                  \
		for (int k = 0; k < K; k++) {                   \
			UPDATE;                                 \
		}                                               \
		C[i * N + j] = s;                               \
	}
#define a A[i * K + k]
#define b B[k * N + j]

/* the product in an int local is forwarded into the sum (product_local.c);
   in a narrower local it is not the product (GCC's front end narrows the
   multiply itself: 'not computed in int32'; clang: 'no contraction found') */
void rf_temp(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{loop nest not transformed}}
		NEST(short p = a * b; s += p)
}

/* `s -= a * b` is a contraction (the sum subtracted: corpus init_accum);
   the accumulator subtracted from the product is not */
void rf_minus(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{no contraction found}}
		NEST(s = a * b - s)
}

void rf_trunc16(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not computed in int32 (16-bit)}}
		NEST(s += (int16_t)(a * b))
}

/* the width, not GCC's unsigned rewrite of the narrowed product */
void rf_trunc8(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not computed in int32 (8-bit)}}
		NEST(s += (int8_t)(a * b))
}

void rf_square(ARGS)
{
	(void)B;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{loop 'i' indexes both operands 'A' and 'A' and the output}}
		NEST(s += a * a)
}


void rf_uchar_cast(ARGS)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{without loss}}
		NEST(s += (unsigned char)a * b)
}

#undef a
#undef b

void rf_volatile_operand(int M, int N, int K, const volatile int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		NEST(s += A[i * K + k] * B[k * N + j])
}

void rf_volatile_output(int M, int N, int K, const int8_t *A, const int8_t *B, volatile int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		NEST(s += A[i * K + k] * B[k * N + j])
}


void rf_row_pointers(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t **rows)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not affine}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			rows[i][j] = s;
		}
}



/* the product inside a function mixprec cannot read (TinyMaix's tml_fc
   calls tm_dot_prod(x, w, n, &sum)): the refusal names the call (a note
   points at it) */
void rf_dot_helper(const int8_t *x, const int8_t *w, int n, int32_t *sum);
void rf_helper(int M, int K, const int8_t *x, const int8_t *W, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int c = 0; c < M; c++) { // expected-warning {{a product computed inside it is not seen}}
		int32_t sum = 0;
		rf_dot_helper(x, W + c * K, K, &sum);
		y[c] = sum;
	}
}

/* llm.c's matmul_backward (weight gradient): the factor d is a local the
   bias gradient reads too; the warning names that statement */
#undef a
#undef b
void rf_shared_local(int Bn, int T, int Cn, int OC, const float *dout, const float *inp,
		     float *dweight, float *dbias)
{
#pragma mixprec(bf16)
	for (int o = 0; o < OC; o++) // expected-warning {{reads local 'd', which a store to 'dbias' reads too}}
		for (int b = 0; b < Bn; b++)
			for (int t = 0; t < T; t++) {
				const float *dout_bt = dout + b * T * OC + t * OC;
				const float *inp_bt = inp + b * T * Cn + t * Cn;
				float *dwrow = dweight + o * Cn;
				float d = dout_bt[o];
				if (dbias != 0) {
					dbias[o] += d;
				}
				for (int i = 0; i < Cn; i++)
					dwrow[i] += inp_bt[i] * d;
			}
}
