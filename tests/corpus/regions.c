// MIXPREC-TRANSFORMED: 17
/* regions.c -- one pragma on a block of several loops (issue 9, item 5),
 * as PolyBench marks its kernels with `#pragma scop`: 2mm (tmp = A*B, then
 * D = beta*D + tmp*C), gemver (its rank-2 update left as written without a
 * warning), mvt (two matrix-vector products, one through the
 * transposed matrix), an init loop, a scaling loop and a GEMM in one
 * block, a block with declarations (the C front end keeps its scope), a
 * block inside a function-level loop.  Every contraction of the block is
 * transformed (one remark each), the other loops run as written without a
 * warning; a near miss in a region (16-bit operands) is still reported.
 * Integer data: exact. */
#include "harness.h"
#include <mixprec.h>

/* PolyBench 2mm's two products (the second reads an int8 copy E of tmp,
   as a quantized pipeline would) */
__attribute__((noinline)) void rg_2mm(int ni, int nj, int nk, int nl, int32_t alpha,
				      int32_t beta, int32_t *tmp, const int8_t *A,
				      const int8_t *B, const int8_t *C, int32_t *D, const int8_t *E)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	{
		for (i = 0; i < ni; i++)
			for (j = 0; j < nj; j++) {
				tmp[i * nj + j] = 0;
				for (k = 0; k < nk; ++k)
					tmp[i * nj + j] += A[i * nk + k] * B[k * nj + j];
			}
		for (i = 0; i < ni; i++)
			for (j = 0; j < nl; j++) {
				D[i * nl + j] *= beta;
				for (k = 0; k < nj; ++k)
					D[i * nl + j] += E[i * nj + k] * C[k * nl + j];
			}
	}
	(void)alpha;
}

/* PolyBench mvt */
__attribute__((noinline)) void rg_mvt(int n, int32_t *x1, int32_t *x2, const int8_t *y1,
				      const int8_t *y2, const int8_t *A)
{
	int i, j;
#pragma mixprec(int8, acc=int32)
	{
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				x1[i] = x1[i] + A[i * n + j] * y1[j];
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				x2[i] = x2[i] + A[j * n + i] * y2[j];
	}
}

/* mvt with the operator form and the block's '{' on the pragma's line (a
 * region macro: `#define SCOP _Pragma("mixprec(...)")` then `SCOP {`); GCC
 * read it as before the block's first loop only (found in review,
 * December 2026) */
#define RG_SCOP _Pragma("mixprec(int8, acc=int32)")
__attribute__((noinline)) void rg_mvt_op(int n, int32_t *x1, int32_t *x2, const int8_t *y1,
					 const int8_t *y2, const int8_t *A)
{
	int i, j;
	RG_SCOP {
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				x1[i] = x1[i] + A[i * n + j] * y1[j];
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				x2[i] = x2[i] + A[j * n + i] * y2[j];
	}
	_Pragma("mixprec(int8, acc=int32)") {
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				x1[i] = x1[i] - A[i * n + j] * y2[j];
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				x2[i] = x2[i] - A[j * n + i] * y1[j];
	}
}

/* an init loop, a scaling loop, a GEMM: only the GEMM is a contraction */
__attribute__((noinline)) void rg_init_scale_gemm(int M, int N, int K, const int8_t *A,
						  const int8_t *B, int32_t *C, int32_t *y,
						  int32_t f)
{
#pragma mixprec(int8, acc=int32)
	{
		for (int i = 0; i < M; i++)
			y[i] = 0;
		for (int x = 0; x < M * N; x++)
			C[x] *= f;
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				for (int k = 0; k < K; k++)
					C[i * N + j] += A[i * K + k] * B[k * N + j];
	}
}

/* a block with declarations: two GEMVs into local accumulators */
__attribute__((noinline)) void rg_decls(int M, int K, const int8_t *A, const int8_t *x,
					const int8_t *z, int32_t *y, int32_t *w)
{
#pragma mixprec(int8, acc=int32)
	{
		int32_t s;
		int i, k;
		for (i = 0; i < M; i++) {
			s = 0;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] = s;
		}
		for (i = 0; i < M; i++) {
			s = 7;
			for (k = 0; k < K; k++)
				s += A[i * K + k] * z[k];
			w[i] = s;
		}
	}
}

/* a region inside an outer loop of the function (each time step) */
__attribute__((noinline)) void rg_steps(int T, int M, int K, const int8_t *A,
					const int8_t *x, int32_t *y, int32_t *acc)
{
	for (int t = 0; t < T; t++) {
#pragma mixprec(int8, acc=int32)
		{
			for (int i = 0; i < M; i++) {
				int32_t s = t;
				for (int k = 0; k < K; k++)
					s += A[i * K + k] * x[k];
				y[i] = s;
			}
			for (int i = 0; i < M; i++)
				acc[i] += y[i];
		}
	}
}

/* PolyBench/C 4.2.1's gemver, on 8-bit data: a rank-2 update (outer
 * products stored element-wise: no sum, so no contraction and no warning),
 * two matrix-vector products with an integer factor, a vector add */
__attribute__((noinline)) void rg_gemver(int n, int32_t alpha, int32_t beta, int8_t *A,
					 const int8_t *u1, const int8_t *v1, const int8_t *u2,
					 const int8_t *v2, int32_t *w, int32_t *x, const int8_t *y,
					 const int32_t *z)
{
	int i, j;
#pragma mixprec(int8, acc=int32)
	{
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				A[i * n + j] = (int8_t)(A[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j]);
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				x[i] = x[i] + beta * A[j * n + i] * y[j];
		for (i = 0; i < n; i++)
			x[i] = x[i] + z[i];
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				w[i] = w[i] + alpha * A[i * n + j] * y[j];
	}
}

/* near miss inside a region: 16-bit operands */
__attribute__((noinline)) void rg_near_miss(int M, int K, const int16_t *A, const int8_t *x,
					    int32_t *y, int32_t *w, const int8_t *A8)
{
#pragma mixprec(int8, acc=int32)
	{
		for (int i = 0; i < M; i++) { // expected-warning {{operand 'A' is s16}}
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * x[k];
			y[i] = s;
		}
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A8[i * K + k] * x[k];
			w[i] = s;
		}
	}
}

/* the first loop's counter set before the block (`int i = lo;` then the
 * pragma on `{ for (; i < M; i++) ... }`): the init is found outside the
 * block under the three compilers (clang looked only inside it) */
__attribute__((noinline)) long rg_init_outside(int lo, int M, int N, int K, const int8_t *A,
					       const int8_t *B, int32_t *D)
{
	int i = lo, j = 0, k;
#pragma mixprec(int8, acc=int32)
	{
		for (; i < M; i++)
			for (j = 0; j < N; j++) {
				int32_t s = 0;
				for (k = 0; k < K; k++)
					s += A[i * K + k] * B[j * K + k];
				D[i * N + j] = s;
			}
		for (i = 0; i < M; i++)
			for (j = 0; j < N; j++) {
				int32_t s = D[i * N + j];
				for (k = 0; k < K; k++)
					s += A[i * K + k] * B[j * K + k];
				D[i * N + j] = s;
			}
	}
	return i + j;
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int L = N + 1;
		int8_t *A = harness_rand_s8((size_t)M * K + (size_t)M * M + 1);
		int8_t *B = harness_rand_s8((size_t)K * N + (size_t)M * N + (size_t)K + 1);
		int8_t *Cm = harness_rand_s8((size_t)N * L + 1);
		int32_t *tmp = harness_rand_s32((size_t)M * N + 1, -1000, 1000);
		int32_t *D = harness_rand_s32((size_t)M * L + (size_t)M * N + 1, -1000, 1000);
		int32_t *y = harness_rand_s32((size_t)M + 1, -1000, 1000);
		int32_t *w = harness_rand_s32((size_t)M + 1, -1000, 1000);
		int16_t *A16 = (int16_t *)harness_alloc(((size_t)M * K + 1) * sizeof(int16_t));
		for (size_t q = 0; q < (size_t)M * K + 1; q++)
			A16[q] = (int16_t)harness_randint(-128, 127);

		rg_2mm(M, N, K, L, 3, harness_randint(-3, 3), tmp, A, B, Cm, D, B);
		harness_out_array(harness_name("2mm tmp %dx%dx%d", M, N, K), tmp, (size_t)M * N);
		harness_out_array(harness_name("2mm D %dx%dx%d", M, N, L), D, (size_t)M * L);
		rg_mvt(M, y, w, B, B + 1, A);
		harness_out_array(harness_name("mvt x1 %d", M), y, (size_t)M);
		harness_out_array(harness_name("mvt x2 %d", M), w, (size_t)M);
		rg_mvt_op(M, y, w, B + 2, B + 3, A);
		harness_out_array(harness_name("mvt_op x1 %d", M), y, (size_t)M);
		harness_out_array(harness_name("mvt_op x2 %d", M), w, (size_t)M);
		rg_init_scale_gemm(M, N, K, A, B, D, y, harness_randint(-5, 5));
		harness_out_array(harness_name("init_scale_gemm %dx%dx%d", M, N, K), D, (size_t)M * N);
		harness_out_array(harness_name("init_scale_gemm y %d", M), y, (size_t)M);
		harness_out_long(harness_name("init_outside ij %dx%dx%d", M, N, K),
				 rg_init_outside(M / 2, M, N, K, A, B, D));
		harness_out_array(harness_name("init_outside %dx%dx%d", M, N, K), D, (size_t)M * N);
		rg_decls(M, K, A, B, B + 1, y, w);
		harness_out_array(harness_name("decls y %dx%d", M, K), y, (size_t)M);
		harness_out_array(harness_name("decls w %dx%d", M, K), w, (size_t)M);
		rg_steps(3, M, K, A, B, y, w);
		harness_out_array(harness_name("steps y %dx%d", M, K), y, (size_t)M);
		harness_out_array(harness_name("steps acc %dx%d", M, K), w, (size_t)M);
		{
			int8_t *uv = harness_rand_s8((size_t)M + 4);
			int32_t *z = harness_rand_s32((size_t)M + 1, -1000, 1000);

			int32_t ga = harness_randint(-3, 3);
			int32_t gb = harness_randint(-3, 3);   /* (in this order) */

			rg_gemver(M, ga, gb, A, uv, uv + 1, uv + 2, uv + 3, w, y, uv + 1, z);
			harness_out_array(harness_name("gemver A %d", M), A, (size_t)M * M);
			harness_out_array(harness_name("gemver x %d", M), y, (size_t)M);
			harness_out_array(harness_name("gemver w %d", M), w, (size_t)M);
			harness_free(uv);
			harness_free(z);
		}
		rg_near_miss(M, K, A16, B, y, w, A);
		harness_out_array(harness_name("near_miss y %dx%d", M, K), y, (size_t)M);
		harness_out_array(harness_name("near_miss w %dx%d", M, K), w, (size_t)M);
		harness_free(A);
		harness_free(B);
		harness_free(Cm);
		harness_free(tmp);
		harness_free(D);
		harness_free(y);
		harness_free(w);
		harness_free(A16);
	}
}
