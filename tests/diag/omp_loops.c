// MIXPREC-CFLAGS: -fopenmp
/* omp_loops.c -- '#pragma mixprec' followed by an OpenMP directive on the
 * same loop (issue 10, item 2): a warning at the directive under the three
 * compilers (it was an error: "must be followed by a 'for' or 'while'
 * loop"), the OpenMP loop compiled as written.  The other order, the
 * OpenMP directive first, is a syntax error of GCC's own parser ("for
 * statement expected before '#pragma'"); clang gives the same warning. */
#include <mixprec.h>

void ol_parallel_for(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for // expected-warning {{the loop carries an OpenMP directive}}
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

void ol_for_in_region(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma omp parallel
	{
#pragma mixprec(int8, acc=int32)
#pragma omp for schedule(static) // expected-warning {{the loop carries an OpenMP directive}}
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] = s;
		}
	}
}

void ol_simd(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
#pragma omp simd // expected-warning {{the loop carries an OpenMP directive}}
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}
