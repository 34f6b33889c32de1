// MIXPREC-TRANSFORMED: 3
// MIXPREC-CFLAGS: -fopenmp -L/usr/lib/llvm-14/lib
/* omp_clauses.c -- what an OpenMP directive on the annotated loop says about
 * the loop's variables, beyond omp_loops.c (found by a review helper; each
 * was a wrong result or a GCC crash before):
 *  - simd: the iterator is linear, its final value left after the loop (a
 *    tail loop continuing from it);
 *  - variables declared outside the construct and written by the nest are
 *    shared: with one thread (if(0)) their final values are the program's
 *    (clang left them unchanged); num_threads keeps tile mode out (refused);
 *  - refused: a threadprivate zero point (each thread its own copy), a
 *    schedule chunk with a side effect, collapse(2) over a triangle (GCC
 *    crashed). */
#include <stdio.h>
#include "harness.h"
#include <mixprec.h>

/* clang -O3 cannot vectorize the simd loop of oc_simd_tail as the
   directive asks ("loop not vectorized", -Wpass-failed): in the plugin
   build only, where that loop is the fallback (the plain build warns the
   same way on simpler simd nests) */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

__attribute__((noinline)) static void oc_simd_tail(int M, int N, int K, const int8_t *A,
						   const int8_t *B, int32_t *C)
{
	int i = 0;
#pragma mixprec(int8, acc=int32)
#pragma omp simd
	for (i = 0; i < M - M % 4; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
	for (; i < M; i++)   /* the tail rows */
		for (int j = 0; j < N; j++)
			C[i * N + j] = -1;
}

__attribute__((noinline)) static int oc_shared_if0(int M, int N, int K, const int8_t *A,
						   const int8_t *B, int32_t *C)
{
	int j = -5, k = -7;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for if(0)
	for (int i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
	return j * 1000 + k;
}

__attribute__((noinline)) static int oc_shared_nt1(int M, int N, int K, const int8_t *A,
						   const int8_t *B, int32_t *C)
{
	int j = -5, k = -7;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for num_threads(1)
	for (int i = 0; i < M; i++) // expected-warning {{tile mode}}
		for (j = 0; j < N; j++) {
			int32_t s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
	return j * 1000 + k;
}

/* the shared scalar the epilogue writes: one thread, its last value */
__attribute__((noinline)) static int oc_shared_scalar(int M, int N, int K, const int8_t *A,
						      const int8_t *B, int32_t *C)
{
	int32_t last = -9;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for if(0)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
			last = s;
		}
	return last;
}

static int oc_zp;
#pragma omp threadprivate(oc_zp)

__attribute__((noinline)) static void oc_threadprivate(int M, int N, int K, const int8_t *A,
						       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for schedule(static) // expected-warning {{threadprivate}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += (A[i * K + k] - oc_zp) * B[j * K + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) static int oc_sched_chunk(int M, int N, int K, const int8_t *A,
						    const int8_t *B, int32_t *C)
{
	int c = 1;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for num_threads(1) schedule(static, c++) // expected-warning {{has side effects}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] += s;
		}
	return c;
}

/* T is M x M: row i of A against rows j <= i of A */
__attribute__((noinline)) static void oc_tri_collapse(int M, int K, const int8_t *A, int32_t *T)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for collapse(2) // expected-warning {{collapses are not rectangular}}
	for (int i = 0; i < M; i++)
		for (int j = 0; j <= i; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * A[j * K + k];
			T[i * M + j] += s;
		}
}


/* an OpenMP directive on an inner loop of the nest: refused (GCC named a
   temporary of the expanded simd loop) */
__attribute__((noinline)) static void oc_inner_simd(int M, int N, int K, const int8_t *A,
						    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{not transformed}}
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
#pragma omp simd reduction(+:s)
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)N * K);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		const char *dims = harness_name("%dx%dx%d", M, N, K);
		char d[64];
		snprintf(d, sizeof d, "%s", dims);

		oc_simd_tail(M, N, K, A, B, C);
		harness_out_array(harness_name("simd_tail %s", d), C, mn);
		harness_out_long("shared_if0.jk", oc_shared_if0(M, N, K, A, B, C));
		harness_out_array(harness_name("shared_if0 %s", d), C, mn);
		harness_out_long("shared_nt1.jk", oc_shared_nt1(M, N, K, A, B, C));
		harness_out_array(harness_name("shared_nt1 %s", d), C, mn);
		harness_out_long("shared_scalar.last", oc_shared_scalar(M, N, K, A, B, C));
		harness_out_array(harness_name("shared_scalar %s", d), C, mn);
#pragma omp parallel
		oc_zp = 0;
		oc_zp = 3;
		oc_threadprivate(M, N, K, A, B, C);
		harness_out_array(harness_name("threadprivate %s", d), C, mn);
		harness_out_long("sched_chunk.c", oc_sched_chunk(M, N, K, A, B, C));
		harness_out_array(harness_name("sched_chunk %s", d), C, mn);
		int32_t *T = harness_rand_s32((size_t)M * M, -1000, 1000);
		oc_tri_collapse(M, K, A, T);
		harness_out_array(harness_name("tri_collapse %s", d), T, (size_t)M * M);
		harness_free(T);
		oc_inner_simd(M, N, K, A, B, C);
		harness_out_array(harness_name("inner_simd %s", d), C, mn);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
