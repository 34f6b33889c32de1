/* refusals.c -- every refusal of the contract, compile-only: the loop stays
 * and one warning "mixprec: loop nest not transformed: <reason>" names the
 * reason at the nest's for line.  -w silences them, -Werror makes them
 * errors (the driver checks both). */
#include <mixprec.h>

void rf_written(int M, int N, int K, int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{writes to}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
			A[i * K] = (int8_t)s;
		}
}

void rf_nonaffine(int M, int N, int K, const int8_t *A, const int *idx, const int8_t *B,
		  int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{not affine}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + idx[k]] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void rf_triangular(int M, int N, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{triangular reduction}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < i + j - N; k++)
				s += A[i * M + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void rf_overflow(int M, int N, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{overflow}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < 200000; k++)
				s += A[i * 200000 + k] * B[j * 200000 + k];
			C[i * N + j] = s;
		}
}

void rf_log(int v);

void rf_side_effects(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{side effects}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				s += A[i * K + k] * B[k * N + j];
				rf_log(k);
			}
			C[i * N + j] = s;
		}
}

/* a 64-bit sum of int32 products is transformed (corpus acc64); of 64-bit
   products it is not */
void rf_acc64(int M, int N, int K, const int8_t *A, const int8_t *B, int64_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{64-bit}}
		for (int j = 0; j < N; j++) {
			int64_t s = 0;
			for (int k = 0; k < K; k++)
				s += (int64_t)A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

void rf_step(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}} expected-warning {{step}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = K - 1; k >= 0; k -= 4)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* The warning is at the annotated nest's for line even when the offending
 * loop is deeper and the nest starts on a later line than the pragma. */
void rf_step_inner_j(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)

	for (int i = 0; // expected-warning {{not transformed}} expected-warning {{step}}
	     i < M; i++)
		for (int j = N - 1; j >= 0; j -= 3) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* PolyBench's bicg: two sums over different loops in one nest (s over i,
 * q over j); the warning says to write them as two nests */
void rf_bicg(int m, int n, const int8_t *A, int32_t *s, int32_t *q, const int8_t *p,
	     const int8_t *r)
{
	int i, j;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < n; i++) { // expected-warning {{not transformed}} expected-warning {{mixprec does not split loops}}
		q[i] = 0;
		for (j = 0; j < m; j++) {
			s[j] = s[j] + r[i] * A[i * m + j];
			q[i] = q[i] + A[i * m + j] * p[j];
		}
	}
}
