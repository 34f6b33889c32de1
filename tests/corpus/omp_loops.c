// MIXPREC-TRANSFORMED: 18
// MIXPREC-CFLAGS: -fopenmp -L/usr/lib/llvm-14/lib
/* omp_loops.c -- `#pragma mixprec` on a loop that carries an OpenMP loop
 * directive (issue 10, item 2), as LLM runners and C DNN frameworks write
 * them: llama2.c's matmul (`int i;` before the function's loop, `#pragma
 * omp parallel for private(i)`), darknet's gemm_nt (`int i, j, k;` at the
 * top; private(j, k) added here, darknet's own shares them: a race),
 * collapse(2), num_threads and if clauses, `parallel for simd`, `simd`
 * (schedule(dynamic) is accepted too; clang 19 then needs libomp 19, which
 * Debian 12 does not ship beside libomp 14).
 * Whole-nest plans: the construct is replaced by one call whose kernels run
 * on the directive's threads; the construct as written is the fallback.
 * Tile-mode plans (runq.c's group sums, an epilogue kept): the call before
 * the construct, whose loops read its results on the calling thread.  Here
 * the OpenMP directive comes after `#pragma mixprec`;
 * tests/corpus/pragma_order.c has the other order. */
#include "harness.h"
#include <mixprec.h>

/* llama2.c's runq.c matmul as published, OpenMP pragma included: the group
   sums come from the kernels (one call before the construct); the loops
   run on the calling thread reading them (tile mode) */
#define GS 32
typedef struct {
	int8_t *q;  /* quantized values */
	float *s;   /* scaling factors */
} QuantizedTensor;

__attribute__((noinline)) void ol_runq(float *xout, QuantizedTensor *x, QuantizedTensor *w,
				       int n, int d)
{
	int i;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for private(i)
	for (i = 0; i < d; i++) {

		float val = 0.0f;
		int32_t ival = 0;
		int in = i * n;

		// do the matmul in groups of GS
		int j;
		for (j = 0; j <= n - GS; j += GS) {
			for (int k = 0; k < GS; k++) {
				ival += ((int32_t)x->q[j + k]) * ((int32_t)w->q[in + j + k]);
			}
			val += ((float)ival) * w->s[(in + j) / GS] * x->s[j / GS];
			ival = 0;
		}

		xout[i] = val;
	}
}

/* operands reached through struct members (the call's arguments are
   rebuilt outside the construct) */
typedef struct {
	const int8_t *w;
	int rows, cols;
} Layer;

__attribute__((noinline)) void ol_layer(const Layer *l, const QuantizedTensor *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int i = 0; i < l->rows; i++) {
		int32_t s = 0;
		for (int k = 0; k < l->cols; k++)
			s += l->w[i * l->cols + k] * x->q[k];
		y[i] = s;
	}
}

/* an epilogue the kernels do not fuse (a ReLU by hand): tile mode */
__attribute__((noinline)) void ol_relu(int M, int N, int K, const int8_t *A, const int8_t *B,
				       int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for schedule(static)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s > 0 ? s : 0;
		}
}

/* llama2.c run.c matmul, integer operands */
__attribute__((noinline)) void ol_matmul(int32_t *xout, const int8_t *x, const int8_t *w, int n,
					 int d)
{
	int i;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for private(i)
	for (i = 0; i < d; i++) {
		int32_t val = 0;
		for (int j = 0; j < n; j++) {
			val += w[i * n + j] * x[j];
		}
		xout[i] = val;
	}
}

/* darknet gemm_nt, integer operands, C += A * B^T */
__attribute__((noinline)) void ol_gemm_nt(int M, int N, int K, const int8_t *A, int lda,
					  const int8_t *B, int ldb, int32_t *C, int ldc)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for private(j, k)
	for (i = 0; i < M; ++i) {
		for (j = 0; j < N; ++j) {
			int32_t sum = 0;
			for (k = 0; k < K; ++k) {
				sum += A[i * lda + k] * B[j * ldb + k];
			}
			C[i * ldc + j] += sum;
		}
	}
}

__attribute__((noinline)) void ol_collapse(int M, int N, int K, const uint8_t *A,
					   const int8_t *B, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
#pragma omp parallel for collapse(2) schedule(static)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ol_threads(int nt, int M, int N, int K, const int8_t *A,
					  const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for num_threads(nt) if (M * N > 64) schedule(static, 4)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = C[i * N + j];
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ol_for_simd(int M, int K, const int8_t *A, const uint8_t *x,
					   int32_t *y, int zx)
{
#pragma mixprec(uint8, acc=int32)
#pragma omp parallel for simd firstprivate(zx)
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * (x[k] - zx);
		y[i] = s;
	}
}

__attribute__((noinline)) void ol_simd(int M, int K, const int8_t *A, const int8_t *x,
				       int32_t *y)
{
#pragma mixprec(int8, acc=int32)
#pragma omp simd
	for (int i = 0; i < M; i++) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

/* the directive's loop counting down, and stepping by 2 */
__attribute__((noinline)) void ol_down(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int i = M - 1; i >= 0; i--) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

__attribute__((noinline)) void ol_step2(int M, int K, const int8_t *A, const int8_t *x, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int i = 0; i < M; i += 2) {
		int32_t s = 0;
		for (int k = 0; k < K; k++)
			s += A[i * K + k] * x[k];
		y[i] = s;
	}
}

/* a batch loop under the directive, the weights shared: the batch's rows
   join the call's rows (a second row loop), one call on the directive's
   threads */
__attribute__((noinline)) void ol_batch_rows(int nb, int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int b = 0; b < nb; b++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += A[(b * M + i) * K + k] * B[k * N + j];
				C[(b * M + i) * N + j] = s;
			}
}

/* the same with an epilogue the kernels do not fuse: tile mode, the
   tile's rows (b, i); the directive's loop reads the tile */
__attribute__((noinline)) void ol_batch_tile(int nb, int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int b = 0; b < nb; b++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += A[(b * M + i) * K + k] * B[k * N + j];
				C[(b * M + i) * N + j] = s / 3;
			}
}

/* two such nests in one function: the first's rewrite leaves blocks no
   path reaches, which the GCC glue deletes before the second (an ICE in
   calc_dfs_tree before, found by a review helper) */
__attribute__((noinline)) void ol_two(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C, int32_t *D)
{
#pragma mixprec(int8)
#pragma omp parallel for
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			C[i * N + j] += s;
		}
#pragma mixprec(int8)
#pragma omp parallel for
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[j * K + k];
			D[i * N + j] = s - C[i * N + j];
		}
}

/* a reduction bound chosen by a conditional expression of parameters
 * (GCC reads it before the nest, in the construct's copy: hoist.cc) */
__attribute__((noinline)) void ol_select_bound(int M, int N, int K, int full, const int8_t *A,
					       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < (full ? K : K / 2); k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* ikj order in tile mode under the directive (an integer factor, or the
 * sum subtracted): the tile is added into C inside the construct.  The
 * clang glues read it there through the region's own local: they crashed
 * clang's code generation (the call named the tile's local from outside
 * the captured region) */
__attribute__((noinline)) void ol_ikj_alpha(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] += 3 * A[i * K + k] * B[k * N + j];
}

__attribute__((noinline)) void ol_ikj_sub(int M, int N, int K, const int8_t *A,
					  const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++)
			for (int j = 0; j < N; j++)
				C[i * N + j] -= A[i * K + k] * B[k * N + j];
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int8_t *A = harness_rand_s8((size_t)M * K + 1);
		int8_t *B = harness_rand_s8((size_t)K * N + 1);
		int8_t *x = harness_rand_s8((size_t)K + 1);
		int32_t *C = harness_rand_s32((size_t)M * N + 1, -100000, 100000);

		ol_matmul(C, x, A, K, M);
		harness_out_array(harness_name("matmul %dx%d", M, K), C, (size_t)M);
		int full = harness_randint(0, 1);
		ol_select_bound(M, N, K, full, A, B, C);
		harness_out_array(harness_name("select_bound %dx%dx%d/%d", M, N, K, full), C,
				  (size_t)M * N);
		{
			int32_t *C2 = harness_rand_s32((size_t)M * N + 1, -100000, 100000);
			int32_t *D2 = harness_rand_s32((size_t)M * N + 1, -100000, 100000);
			ol_two(M, N, K, A, B, C2, D2);
			harness_out_array(harness_name("two C %dx%dx%d", M, N, K), C2, (size_t)M * N);
			harness_out_array(harness_name("two D %dx%dx%d", M, N, K), D2, (size_t)M * N);
			harness_free(C2);
			harness_free(D2);
		}
		ol_ikj_alpha(M, N, K, A, B, C);
		harness_out_array(harness_name("ikj_alpha %dx%dx%d", M, N, K), C, (size_t)M * N);
		ol_ikj_sub(M, N, K, A, B, C);
		harness_out_array(harness_name("ikj_sub %dx%dx%d", M, N, K), C, (size_t)M * N);
		ol_gemm_nt(M, N, K, A, K, B, K, C, N);
		harness_out_array(harness_name("gemm_nt %dx%dx%d", M, N, K), C, (size_t)M * N);
		ol_collapse(M, N, K, (const uint8_t *)A, B, C);
		harness_out_array(harness_name("collapse %dx%dx%d", M, N, K), C, (size_t)M * N);
		ol_threads(1 + sh % 3, M, N, K, A, B, C);
		harness_out_array(harness_name("threads %dx%dx%d", M, N, K), C, (size_t)M * N);
		ol_for_simd(M, K, A, (const uint8_t *)x, C, harness_randint(0, 255));
		harness_out_array(harness_name("for simd %dx%d", M, K), C, (size_t)M);
		ol_simd(M, K, A, x, C);
		harness_out_array(harness_name("simd %dx%d", M, K), C, (size_t)M);
		ol_down(M, K, A, x, C);
		harness_out_array(harness_name("down %dx%d", M, K), C, (size_t)M);
		ol_step2(M, K, A, x, C);
		harness_out_array(harness_name("step2 %dx%d", M, K), C, (size_t)M);
		{
			int nb = 1 + sh % 3;
			int8_t *Ab = harness_rand_s8((size_t)nb * M * K + 1);
			int32_t *Cb = harness_rand_s32((size_t)nb * M * N + 1, -100, 100);
			ol_batch_rows(nb, M, N, K, Ab, B, Cb);
			harness_out_array(harness_name("batch_rows %dx%dx%dx%d", nb, M, N, K), Cb,
					  (size_t)nb * M * N);
			ol_batch_tile(nb, M, N, K, Ab, B, Cb);
			harness_out_array(harness_name("batch_tile %dx%dx%dx%d", nb, M, N, K), Cb,
					  (size_t)nb * M * N);
			harness_free(Ab);
			harness_free(Cb);
		}
		ol_relu(M, N, K, A, B, C);
		harness_out_array(harness_name("relu %dx%dx%d", M, N, K), C, (size_t)M * N);
		Layer l = { A, M, K };
		QuantizedTensor xq = { x, NULL };
		ol_layer(&l, &xq, C);
		harness_out_array(harness_name("layer %dx%d", M, K), C, (size_t)M);
		/* runq: n a multiple of GS */
		int n = GS * (1 + K % 5), dd = M;
		QuantizedTensor wq = { harness_rand_s8((size_t)dd * n + 1), NULL };
		QuantizedTensor xr = { harness_rand_s8((size_t)n + 1), NULL };
		wq.s = harness_rand_f32((size_t)dd * n / GS + 1, -0.05f, 0.05f);
		xr.s = harness_rand_f32((size_t)n / GS + 1, -0.05f, 0.05f);
		float *out = harness_rand_f32((size_t)dd + 1, -1.0f, 1.0f);
		ol_runq(out, &xr, &wq, n, dd);
		harness_out_array(harness_name("runq %dx%d", dd, n), out, (size_t)dd);
		harness_free(wq.q);
		harness_free(wq.s);
		harness_free(xr.q);
		harness_free(xr.s);
		harness_free(out);
		harness_free(A);
		harness_free(B);
		harness_free(x);
		harness_free(C);
	}
}
