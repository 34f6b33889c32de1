/* scale_explicit.c -- explicit scales scale=(SA, SB) on floating-point
 * sources: malformed forms are errors at the offending token of the
 * pragma; scales the nest cannot use leave it as written with a warning at
 * the loop and a note at the scale. */
#include <mixprec.h>

#define NEST(T)                                                         \
	for (int i = 0; i < M; i++)                                     \
		for (int j = 0; j < N; j++) {                           \
			T s = 0;                                        \
			for (int k = 0; k < K; k++)                     \
				s += A[i * K + k] * B[k * N + j];       \
			C[i * N + j] = s;                               \
		}

void se_one_paren(int M, int N, int K, const float *A, const float *B, float *C)
{
#pragma mixprec(int8, scale=(dynamic)) // expected-error {{given per operand}}
	NEST(float)
}

void se_one(int M, int N, int K, const float *A, const float *B, float *C, float s1)
{
	(void)s1;
#pragma mixprec(int8, scale=s1) // expected-error {{given per operand: scale=(SA, SB)}}
	NEST(float)
}

void se_three(int M, int N, int K, const float *A, const float *B, float *C, float s1)
{
	(void)s1;
#pragma mixprec(int8, scale=(s1, s1, s1)) // expected-error {{too many scales}}
	NEST(float)
}

float f(float);
void se_call(int M, int N, int K, const float *A, const float *B, float *C, float s1, float x)
{
	(void)s1, (void)x;
#pragma mixprec(int8, scale=(s1, f(x))) // expected-error {{unsupported scale 'f(x)'}}
	NEST(float)
}

void se_negative(int M, int N, int K, const float *A, const float *B, float *C)
{
#pragma mixprec(int8, scale=(-0.5, dynamic)) // expected-error {{must be a finite number > 0}}
	NEST(float)
}

void se_zero(int M, int N, int K, const float *A, const float *B, float *C)
{
#pragma mixprec(fp8_e4m3, scale=(dynamic, 0)) // expected-error {{must be a finite number > 0}}
	NEST(float)
}

void se_missing(int M, int N, int K, const float *A, const float *B, float *C, float s1)
{
	(void)s1;
#pragma mixprec(int8, scale=(s1, )) // expected-error {{missing scale after ','}}
	NEST(float)
}

void se_undeclared(int M, int N, int K, const float *A, const float *B, float *C)
{
#pragma mixprec(int8, scale=(dynamic, no_such_scale[j])) // expected-error {{'no_such_scale' undeclared}}
	NEST(float)
}

void se_wrong_iter(int M, int N, int K, const float *A, const float *B, float *C,
		   const float *xs, const float *ws)
{
#pragma mixprec(int8, scale=(xs[j], ws[j])) // expected-note {{the reason is here}}
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{scale 'xs[j]' of operand 'A' must be indexed by 'i'}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void se_int_scale(int M, int N, int K, const float *A, const float *B, float *C, int is)
{
	(void)is;
#pragma mixprec(int8, scale=(is, dynamic)) // expected-note {{the reason is here}}
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{scale 'is' of operand 'A' is not a float or double variable}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void se_int_array(int M, int N, int K, const float *A, const float *B, float *C,
		  const int *ws)
{
	(void)ws;
#pragma mixprec(int8, scale=(dynamic, ws[j])) // expected-note {{the reason is here}}
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{scale 'ws' of operand 'B' is not a float or double array}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* a per-channel scale of a vector operand (matrix-vector: no loop j) */
void se_vector(int M, int K, const float *A, const float *x, float *y, const float *ws)
{
#pragma mixprec(int8, scale=(dynamic, ws[k])) // expected-note {{the reason is here}}
	for (int i = 0; i < M; i++) { // expected-warning {{not transformed}} expected-warning {{'x' is a vector}}
		float s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

/* a name scale must be a scalar variable, not an array */
void se_array_as_scalar(int M, int N, int K, const float *A, const float *B, float *C,
			const float *ws)
{
	(void)ws;
#pragma mixprec(fp8_e5m2, scale=(dynamic, ws)) // expected-note {{the reason is here}}
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{scale 'ws' of operand 'B' is not a float or double variable}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* scales follow the product as written: in B*A the first one is B's */
void se_swapped(int M, int N, int K, const float *A, const float *B, float *C,
		const float *xs, const float *ws)
{
#pragma mixprec(int8, scale=(xs[i], ws[j])) // expected-note {{the reason is here}}
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{scale 'xs[i]' of operand 'B' must be indexed by 'j'}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += B[k * N + j] * A[i * K + k];
			C[i * N + j] = s;
		}
}

void se_bf16(int M, int N, int K, const float *A, const float *B, float *C, float s1)
{
#pragma mixprec(bf16, scale=(s1, dynamic)) // expected-note {{the reason is here}}
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{bf16 has no scales}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void se_int_factor(int M, int N, int K, const int8_t *A, const int8_t *B, float *C,
		   float alpha)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{the product of 'A' and 'B' has a floating-point factor}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += alpha * A[i * K + k] * B[k * N + j]; // expected-note {{the reason is here}}
			C[i * N + j] = s;
		}
}

/* fp16 on a float source: refused at the precision, saying why */
void se_fp16(int M, int N, int K, const float *A, const float *B, float *C)
{
#pragma mixprec(fp16) // expected-note {{the reason is here}}
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{no fp16 kernels}}
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* a float operand's zero point subtracted in double (the double m
 * promotes the difference): refused by name at the operand */
void se_zp_double(int M, int N, int K, const float *A, const float *B, float *C, double m)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{the zero point of operand 'A' (f32) is subtracted in f64}}
		for (int j = 0; j < N; j++) {
			double s = 0;
			for (int k = 0; k < K; k++)
				s += (A[i * K + k] - m) * B[k * N + j]; // expected-note {{the reason is here}}
			C[i * N + j] = (float)s;
		}
}
