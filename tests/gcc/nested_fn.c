/* nested_fn.c -- GNU C nested functions reading the nest's scalars (GCC
 * only; clang has no nested functions).  tree-nested moves such a local
 * into the function's frame, which the nested function reaches through
 * its static chain: the nest is refused ("'s' is used by a nested
 * function ..."), and the loop as written gives the result.  Found by a
 * review helper: an internal compiler error in DCE (-O1 and up) and, in an
 * OpenMP region, a wrong result (the private copy of a shared accumulator
 * hid it from the nested function).  tests/gcc/nested-fn.sh builds it with
 * and without the plugin and compares. */
#include <stdint.h>
#include <stdio.h>

static int8_t A[16 * 32], B[16 * 32];
static int32_t C[16 * 16];

static long hash(int M, int N)
{
	long h = 0;
	for (int q = 0; q < M * N; q++)
		h = (h * 31 + C[q]) % 1000000007;
	return h;
}

/* the accumulator read by a pure nested function in the epilogue */
__attribute__((noinline)) static void nf_acc(int M, int N, int K)
{
	int i = -1, j = -2, k = -3;   /* j, k stay when M is 0 */
	int32_t s = 0;
	__attribute__((pure, noinline)) int32_t look(void) { return s; }
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = look();
		}
	printf("acc %dx%dx%d: i=%d j=%d k=%d s=%d h=%ld\n", M, N, K, i, j, k, s, hash(M, N));
}

/* the same in an OpenMP region, the scalars shared (C89 style) */
__attribute__((noinline)) static void nf_omp(int M, int N, int K)
{
	int i = -1, j = -2, k = -3;   /* j, k stay when M is 0 */
	int32_t s = 0;
	__attribute__((pure, noinline)) int32_t look(void) { return s - j; }
#pragma omp parallel
#pragma omp single
	{
#pragma mixprec(int8, acc=int32)
		for (i = 0; i < M; i++)
			for (j = 0; j < N; j++) {
				s = 0;
				for (k = 0; k < K; k++)
					s += A[i * K + k] * B[j * K + k];
				C[i * N + j] = look();
			}
	}
	printf("omp %dx%dx%d: i=%d j=%d k=%d s=%d h=%ld\n", M, N, K, i, j, k, s, hash(M, N));
}

/* a nested function called in the nest that writes nothing but reads an
   iterator: the call passes the frame */
__attribute__((noinline)) static void nf_call(int M, int N, int K)
{
	int bias = 3;
	__attribute__((const, noinline)) int32_t add(int32_t v) { return v + bias; }
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = add(s);
		}
	printf("call %dx%dx%d: h=%ld\n", M, N, K, hash(M, N));
}

int main(void)
{
	for (int q = 0; q < 16 * 32; q++) {
		A[q] = (int8_t)(q * 37 % 251 - 120);
		B[q] = (int8_t)(q * 53 % 249 - 120);
	}
	static const int shapes[][3] = { { 16, 16, 32 }, { 1, 1, 1 }, { 5, 3, 7 }, { 0, 4, 4 } };
	for (int t = 0; t < 4; t++) {
		nf_acc(shapes[t][0], shapes[t][1], shapes[t][2]);
		nf_omp(shapes[t][0], shapes[t][1], shapes[t][2]);
		nf_call(shapes[t][0], shapes[t][1], shapes[t][2]);
	}
	return 0;
}
