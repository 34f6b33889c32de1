// MIXPREC-TRANSFORMED: 15
// MIXPREC-CFLAGS: -fopenmp -L/usr/lib/llvm-14/lib
/* pragma_order.c -- where `#pragma mixprec` stands (issue 10, item 2).
 * Code that already carries an OpenMP loop directive gets the new line
 * right above its `for`, after the directive: GCC's parser refused that
 * ("for statement expected before '#pragma'"; any pragma between
 * `#pragma omp ... for` and its loop) while clang accepted it.  The pragma
 * is now read when GCC's lexer reaches it, so the nest is transformed under
 * the three compilers in both orders (also after `#pragma GCC unroll` and
 * `#pragma GCC ivdep`).  A pragma after statements whose end the parser
 * looks past (an if statement without else, a loop body, for `else` and
 * -Wmisleading-indentation) annotates the loop after it, and the pragma as
 * the body of `else`, `do` or a loop, after a label or from a macro
 * annotates its own loop, as before. */
#include "harness.h"
#include <mixprec.h>

/* llama2.c's matmul as published (`int i;` then `#pragma omp parallel for
   private(i)`), int8 operands, the pragma added right above the loop */
__attribute__((noinline)) static void po_llama(int32_t *xout, const int8_t *x, const int8_t *w,
					       int n, int d)
{
	int i;
#pragma omp parallel for private(i)
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < d; i++) {
		int32_t val = 0;
		for (int j = 0; j < n; j++) {
			val += w[i * n + j] * x[j];
		}
		xout[i] = val;
	}
}

/* collapse(2) num_threads(2) schedule(static) over a GEMM */
__attribute__((noinline)) static void po_collapse(int M, int N, int K, const int8_t *A,
						  const int8_t *B, int32_t *C)
{
#pragma omp parallel for collapse(2) num_threads(2) schedule(static)
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* parallel for simd, and simd alone */
__attribute__((noinline)) static void po_for_simd(int M, int K, const int8_t *A, const int8_t *x,
						  int32_t *y)
{
#pragma omp parallel for simd
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

__attribute__((noinline)) static void po_simd(int M, int K, const int8_t *A, const int8_t *x,
					      int32_t *y)
{
#pragma omp simd
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

/* GCC's own loop pragmas first */
__attribute__((noinline)) static void po_unroll(int M, int K, const int8_t *A, const int8_t *x,
						int32_t *y)
{
#pragma GCC unroll 2
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

/* statements the parser looks past before it adds them: an early return,
   an if nested in an if, an if as a loop's body, a loop body, an if with
   else, a braced if; the pragma annotates the loop after each */
__attribute__((noinline)) static void po_after_if(int M, int N, int K, const int8_t *A,
						  const int8_t *B, int32_t *C, int32_t *y, int a)
{
	if (M <= 0)
		return;
	if (a > 0)
		if (a > 1)
			y[0] = 1;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
	for (int t = 0; t < a; t++)
		if (t & 1)
			if (t & 2)
				y[0]++;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * B[k];
		y[i] += s;
	}
	for (int t = 0; t < M; t++)
		y[t] -= 3;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * B[K + k];
		y[i] ^= s;
	}
	if (a > 2)
		y[0] = 2;
	else if (a < 0)
		y[0] = 3;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * B[k];
		y[i] -= s;
	}
	if (a) {
		y[0] += 5;
	}
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * B[K + k];
		y[i] += 2 * s;
	}
}

/* the pragma as the body of `else`, of `do`, of a loop without braces, after
   a label on its line, and from a macro whose loop is a loop's body */
#define PO_MP _Pragma("mixprec(int8, acc=int32)")
#define PO_GEMV(out, off)                                                       \
	PO_MP for (int i = 0; i < M; i++) {                                    \
		int32_t s = 0;                                                 \
		for (int k = 0; k < K; k++)                                    \
			s += A[i * K + k] * x[k];                              \
		out[i] += s + (off);                                           \
	}
__attribute__((noinline)) static void po_bodies(int M, int K, const int8_t *A, const int8_t *x,
						int32_t *y, int a)
{
	if (a > 1)
		y[0] = 7;
	else
#pragma mixprec(int8, acc=int32)
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] += s;
		}
	int t = a > 0 ? 2 : 1;
	do
#pragma mixprec(int8, acc=int32)
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] -= s;
		}
	while (--t > 0);
	for (int r = 0; r < 2; r++)
#pragma mixprec(int8, acc=int32)
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] ^= s + r;
		}
	if (a < 0)
		goto done;
again: _Pragma("mixprec(int8, acc=int32)") for (int i = 0; i < M; i++) { int32_t s = 0; for (int k = 0; k < K; k++) s += A[i * K + k] * x[k]; y[i] += s; }
	if (a-- > 2)
		goto again;
	for (int r = 0; r < 2; r++)
		PO_GEMV(y, r)
done:
	return;
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mn = (size_t)M * N;
		int8_t *A = harness_rand_s8((size_t)M * K), *B = harness_rand_s8((size_t)K * N + 2 * K);
		int32_t *C = harness_rand_s32(mn, -100000, 100000);
		int32_t *y = harness_rand_s32((size_t)M + 1, -100000, 100000);

		po_llama(y, B, A, K, M);
		harness_out_array(harness_name("llama %dx%d", M, K), y, (size_t)M);
		po_collapse(M, N, K, A, B, C);
		harness_out_array(harness_name("collapse %dx%dx%d", M, N, K), C, mn);
		po_for_simd(M, K, A, B, y);
		harness_out_array(harness_name("for simd %dx%d", M, K), y, (size_t)M);
		po_simd(M, K, A, B, y);
		harness_out_array(harness_name("simd %dx%d", M, K), y, (size_t)M);
		po_unroll(M, K, A, B, y);
		harness_out_array(harness_name("unroll %dx%d", M, K), y, (size_t)M);
		for (int a = -1; a <= 3; a++) {
			po_bodies(M, K, A, B, y, a);
			harness_out_array(harness_name("bodies %d %dx%d", a, M, K), y, (size_t)M + 1);
			po_after_if(M, N, K, A, B, C, y, a);
			harness_out_array(harness_name("after if %d C %dx%dx%d", a, M, N, K), C, mn);
			harness_out_array(harness_name("after if %d y %dx%d", a, M, K), y, (size_t)M + 1);
		}
		harness_free(A);
		harness_free(B);
		harness_free(C);
		harness_free(y);
	}
}
