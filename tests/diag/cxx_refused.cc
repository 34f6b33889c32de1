/* cxx_refused.cc -- '#pragma mixprec' in a C++ translation unit: both
 * plugins leave the loop as written with a warning at the pragma (C only
 * for now), in plain functions and in templates; syntax errors are still
 * reported; nothing crashes.  Compiled with g++ and clang++ (the file is
 * registered by tests/corpus/CMakeLists.txt, not by the tests/diag glob). */
#include <stdint.h>

void cx_plain(int M, int N, int K, const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32) // expected-warning {{'#pragma mixprec' is supported in C only; this loop is compiled as written}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

template <typename T> T cx_template(const T *a, const int8_t *b, int n)
{
	T s = 0;
#pragma mixprec(int8, acc=int32) // expected-warning {{is supported in C only}}
	for (int i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

int cx_use(const int8_t *a, const int8_t *b) { return cx_template<int8_t>(a, b, 3); }

struct cx_s {
	int32_t dot(const int8_t *a, const int8_t *b, int n) const
	{
		int32_t s = 0;
#pragma mixprec(int8, acc=int32) // expected-warning {{is supported in C only}}
		for (int i = 0; i < n; i++)
			s += a[i] * b[i];
		return s;
	}
};

void cx_bad(int n, int32_t *c)
{
#pragma mixprec(int4) // expected-error {{unknown precision 'int4'}}
	for (int i = 0; i < n; i++)
		c[i] = 0;
}
