// MIXPREC-TRANSFORMED: 12
/* stepped_iv.c -- a second variable stepped beside a loop's iterator in
 * the for header: onnx2c's convolutions (`for (int32_t o0 = 0, i0 = -1;
 * o0 < H; o0++, i0 += 1)`, the window's input row `ii0 = i0 + k0`, padding
 * written as `if (ii0 < 0) continue;` guards; the batch, channel and
 * window loops uint32_t).  Inside the body such a variable is i0's initial
 * value plus its step times the iterations so far: the nest is an ordinary
 * padded convolution.  All three compilers refused it (the guard read a
 * variable with two assignments).  Forms: onnx2c's 2-D form; a strided
 * 1-D convolution (`i += S`); the variable declared before the nest and
 * set in the header; its value read by the sum's initial value and by the
 * store (the rest of the nest kept as written around the kernels).  Near misses: the variable read after the nest
 * (its final value is part of the result), set once before an outer loop
 * (not reset per row), and assigned in the body as well. */
#include "harness.h"
#include <mixprec.h>

#define SV_C 3
#define SV_H 7
#define SV_W 9
#define SV_M 4
/* onnx2c (its Conv node, 3x3, pads 1), int8 data */
__attribute__((noinline)) void sv_onnx2c(const int8_t x[1][SV_C][SV_H][SV_W],
					 const int8_t w[SV_M][SV_C][3][3], const int32_t bias[SV_M],
					 int32_t y[1][SV_M][SV_H][SV_W])
{
#pragma mixprec(int8, acc=int32)
	for( uint32_t b=0; b<1; b++ ) {
	for( uint32_t m=0; m<SV_M; m++) {
		for( int32_t o0=0, i0=-1; o0<SV_H; o0++, i0+=1) {
		for( int32_t o1=0, i1=-1; o1<SV_W; o1++, i1+=1) {
			y[b][m][o0][o1] = bias[m];
			for( int32_t c=0; c<SV_C; c++ ) {
			for( uint32_t k0=0; k0<3; k0++ ) {
			for( uint32_t k1=0; k1<3; k1++ ) {
				int ii0 = i0+k0 * 1;
				if( ii0<0) continue;
				if( ii0>=SV_H) continue;
				int ii1 = i1+k1 * 1;
				if( ii1<0) continue;
				if( ii1>=SV_W) continue;
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
			} /* k */
			} /* k */
			} /* c */
		} /* o */
		} /* o */
	} /* m */
	} /* b */
}

/* strided: the input position steps by S per output */
__attribute__((noinline)) void sv_strided(int N, int OW, int M, int K, int S, int P,
					  const int8_t *x, const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0, i = -P; o < OW; o++, i += 2) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = i + k;
				if (ii < 0 || ii >= N)
					continue;
				s += x[ii] * w[m * K + k];
			}
			y[m * OW + o] = s;
		}
	(void)S;
}

/* declared before the nest, set in the header */
__attribute__((noinline)) void sv_assign(int N, int M, int K, int P, const int8_t *x,
					 const int8_t *w, int32_t *y)
{
	int o, i;
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (o = 0, i = -P; o < N; o++, i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				if (i + k >= 0 && i + k < N)
					s += x[i + k] * w[m * K + k];
			y[m * N + o] = s;
		}
}

/* the second variable's step in the body's last statement instead: the
   same value (the loop's own form) */
__attribute__((noinline)) void sv_last(int N, int M, int K, int P, const int8_t *x,
				       const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0, i = -P; o < N; o++, i += 1) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				const int ii = i + k;
				if (ii >= 0 && ii < N)
					s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

/* the stepped value read by the init and the store, step 3 */
__attribute__((noinline)) void sv_epi(int N, int M, int K, int P, const int8_t *x,
				      const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0, i = -P; o < N; o++, i += 3) {
			int32_t s = i * 2;
			for (int k = 0; k < K; k++)
				if (i + k >= 0 && i + k < N)
					s += x[i + k] * w[m * K + k];
			y[m * N + o] = s * 3 + i;
		}
}

/* near miss: read after the nest */
__attribute__((noinline)) int sv_live(int N, int M, int K, int P, const int8_t *x,
				      const int8_t *w, int32_t *y)
{
	int o, i = 0;
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++) // expected-warning {{'i' is stepped beside a loop of the nest and read after the nest}}
		for (o = 0, i = -P; o < N; o++, i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				if (i + k >= 0 && i + k < N)
					s += x[i + k] * w[m * K + k];
			y[m * N + o] = s;
		}
	return i;
}

/* near miss: set once, before the outer loop: not reset per row */
__attribute__((noinline)) void sv_once(int N, int M, int K, int P, const int8_t *x,
				       const int8_t *w, int32_t *y)
{
	int i = -P;
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++) // expected-warning {{the update of 's' is guarded by a condition mixprec cannot read}}
		for (int o = 0; o < N; o++, i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				if (i + k >= 0 && i + k < N)
					s += x[i + k] * w[m * K + k];
			y[m * N + o] = s;
			if (i > N)
				i = -P;
		}
}

/* near miss: also assigned in the body */
__attribute__((noinline)) void sv_body(int N, int M, int K, int P, const int8_t *x,
				       const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++) // expected-warning {{the update of 's' is guarded by a condition mixprec cannot read}}
		for (int o = 0, i = -P; o < N; o++, i++) {
			int32_t s = 0;
			if (o == 2)
				i++;
			for (int k = 0; k < K; k++)
				if (i + k >= 0 && i + k < N)
					s += x[i + k] * w[m * K + k];
			y[m * N + o] = s;
		}
}

/* near miss: the initial value reads the loop's own iterator, whose value
   there is its start (the plugins took it for the running iterator: a
   review found it); refused under all three */
__attribute__((noinline)) void sv_init_iter(int N, int M, int K, int P, const int8_t *x,
					    const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++) // expected-warning {{the initial value of 'i', stepped beside loop 'o', reads 'o'}}
		for (int o = 1, i = o - P; o < N; o++, i += 1) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				if (i + k >= 0 && i + k < N)
					s += x[i + k] * w[m * K + k];
			y[m * N + o] = s;
		}
}

/* OpenBLAS kernel/arm/gemv_n.c (int8): y += alpha * A * x, strides inc_x, inc_y */
typedef long sv_blaslong;
__attribute__((noinline)) int sv_gemv_n(sv_blaslong m, sv_blaslong n, int32_t alpha,
					const int8_t *a, sv_blaslong lda, const int8_t *x,
					sv_blaslong inc_x, int32_t *y, sv_blaslong inc_y)
{
	sv_blaslong i, ix, iy, j;
	const int8_t *a_ptr;
	int32_t temp;
	ix = 0;
	a_ptr = a;
#pragma mixprec(int8, acc=int32)
	for (j = 0; j < n; j++) {
		temp = alpha * x[ix];
		iy = 0;
		for (i = 0; i < m; i++) {
			y[iy] += temp * a_ptr[i];
			iy += inc_y;
		}
		a_ptr += lda;
		ix += inc_x;
	}
	return 0;
}

/* OpenBLAS kernel/arm/gemv_t.c (int8): the step followed by the row pointer's */
__attribute__((noinline)) int sv_gemv_t(sv_blaslong m, sv_blaslong n, int32_t alpha,
					const int8_t *a, sv_blaslong lda, const int8_t *x,
					sv_blaslong inc_x, int32_t *y, sv_blaslong inc_y)
{
	sv_blaslong i, ix, iy, j;
	const int8_t *a_ptr;
	int32_t temp;
	iy = 0;
	a_ptr = a;
#pragma mixprec(int8, acc=int32)
	for (j = 0; j < n; j++) {
		temp = 0;
		ix = 0;
		for (i = 0; i < m; i++) {
			temp += a_ptr[i] * x[ix];
			ix += inc_x;
		}
		y[iy] += alpha * temp;
		iy += inc_y;
		a_ptr += lda;
	}
	return 0;
}

/* the same in the while idiom of OpenBLAS's other generic C kernels
 * (kernel/arm/dot.c, swap.c: `while(i < n) { ...; ix += inc_x; iy +=
 * inc_y; i++; }`), both loops (clang refused it where GCC took it) */
__attribute__((noinline)) int sv_while_gemv_t(sv_blaslong m, sv_blaslong n, int32_t alpha,
					      const int8_t *a, sv_blaslong lda, const int8_t *x,
					      sv_blaslong inc_x, int32_t *y, sv_blaslong inc_y)
{
	sv_blaslong i, ix, iy = 0, j = 0;
	const int8_t *a_ptr = a;
	int32_t temp;
#pragma mixprec(int8, acc=int32)
	while (j < n) {
		temp = 0;
		ix = 0;
		i = 0;
		while (i < m) {
			temp += a_ptr[i] * x[ix];
			ix += inc_x;
			i++;
		}
		y[iy] += alpha * temp;
		iy += inc_y;
		a_ptr += lda;
		j++;
	}
	return 0;
}

/* the same with int steps declared in the loops, by constants */
__attribute__((noinline)) void sv_gemv_decl(int m, int n, const int8_t *a, int lda,
					    const int8_t *x, int32_t *y)
{
	int iy = 0;
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < n; j++) {
		int32_t temp = 0;
		int ix = 1;
		for (int i = 0; i < m; i++) {
			temp += a[j * lda + i] * x[ix];
			ix += 2;
		}
		y[iy] += temp;
		iy++;
	}
}

/* GSL cblas source_gemv_r.h, Trans == NoTrans (int8) */
#define SV_OFFSET(N, incX) ((incX) > 0 ? 0 : ((N) - 1) * (-(incX)))
__attribute__((noinline)) void sv_gsl_gemv(int lenY, int lenX, int32_t alpha, const int8_t *A,
					   int lda, const int8_t *X, int incX, int32_t *Y, int incY)
{
	int i, j;
	int iy = SV_OFFSET(lenY, incY);
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < lenY; i++) {
		int32_t temp = 0;
		int ix = SV_OFFSET(lenX, incX);
		for (j = 0; j < lenX; j++) {
			temp += X[ix] * A[lda * i + j];
			ix += incX;
		}
		Y[iy] += alpha * temp;
		iy += incY;
	}
}

/* f2c's SGEMV, no transpose (int8): 1-based, the stride read through a pointer */
__attribute__((noinline)) void sv_f2c_gemv(sv_blaslong *m, sv_blaslong *n, int32_t *alpha,
					   const int8_t *a, sv_blaslong *lda, const int8_t *x,
					   sv_blaslong *incx, int32_t *y)
{
	sv_blaslong a_dim1, a_offset, i__1, i__2, i__, j, jx, kx;
	int32_t temp;
	a_dim1 = *lda;
	a_offset = 1 + a_dim1;
	a -= a_offset;
	--x;
	--y;
	kx = *incx > 0 ? 1 : 1 - (*n - 1) * *incx;
	jx = kx;
	i__1 = *n;
#pragma mixprec(int8, acc=int32)
	for (j = 1; j <= i__1; ++j) {
		temp = *alpha * x[jx];
		i__2 = *m;
		for (i__ = 1; i__ <= i__2; ++i__) {
			y[i__] += temp * a[i__ + j * a_dim1];
		}
		jx += *incx;
	}
}

/* the step read through a pointer that may point into the output */
__attribute__((noinline)) void sv_step_alias(int m, int n, const int8_t *a, int lda,
					     const int8_t *x, int32_t *y, const int32_t *incy)
{
	int i, j, iy;
	int32_t temp;
#pragma mixprec(int8, acc=int32)
	for (j = 0; j < n; j++) {
		temp = x[j];
		iy = 0;
		for (i = 0; i < m; i++) {
			y[iy] += temp * a[i + j * lda];
			iy += *incy;
		}
	}
}

/* near miss: a continue skips the step on some iterations */
__attribute__((noinline)) void sv_gemv_cont(sv_blaslong m, sv_blaslong n, const int8_t *a,
					    sv_blaslong lda, const int8_t *x, sv_blaslong inc_x,
					    int32_t *y)
{
	sv_blaslong i, ix, j;
#pragma mixprec(int8, acc=int32)
	for (j = 0; j < n; j++) { // expected-warning {{subscript of 'x' is not affine}}
		int32_t temp = 0;
		ix = 0;
		for (i = 0; i < m; i++) {
			if (i < 2)
				continue;
			temp += a[j * lda + i] * x[ix];
			ix += inc_x;
		}
		y[j] += temp;
	}
}

/* near miss: the step's amount changes in the nest */
__attribute__((noinline)) void sv_gemv_amount(sv_blaslong m, sv_blaslong n, const int8_t *a,
					      sv_blaslong lda, const int8_t *x, int32_t *y)
{
	sv_blaslong i, ix, j, inc = 1;
#pragma mixprec(int8, acc=int32)
	for (j = 0; j < n; j++) { // expected-warning {{subscript of 'x' is not affine}}
		int32_t temp = 0;
		ix = 0;
		for (i = 0; i < m; i++) {
			temp += a[j * lda + i] * x[ix];
			ix += inc;
		}
		y[j] += temp;
		inc = j % 2;
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 0, &M, &N, &K);
		int P = K / 2 + sh % 3;
		/* x with a margin of random bytes on both sides: a term read
		   outside [0, N) changes the sums */
		int8_t *xm = harness_rand_s8(4 * (size_t)N + 2 * (size_t)K + 8);
		const int8_t *x = xm + K + 4;
		int8_t *w = harness_rand_s8((size_t)M * K);
		int32_t *y = harness_rand_s32((size_t)M * N, -1000, 1000);
		int OW = N / 2 + 1;

		sv_strided(N, OW, M, K, 2, P, x, w, y);
		harness_out_array(harness_name("strided %dx%dx%d p%d", M, N, K, P), y,
				  (size_t)M * OW);
		sv_assign(N, M, K, P, x, w, y);
		harness_out_array(harness_name("assign %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		sv_last(N, M, K, P, x, w, y);
		harness_out_array(harness_name("last %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		sv_epi(N, M, K, P, x, w, y);
		harness_out_array(harness_name("epi %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		int iv = sv_live(N, M, K, P, x, w, y);
		harness_out_array(harness_name("live %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		harness_out_array(harness_name("live i %dx%dx%d p%d", M, N, K, P), &iv, 1);
		sv_init_iter(N, M, K, P, x, w, y);
		harness_out_array(harness_name("init_iter %dx%dx%d p%d", M, N, K, P), y,
				  (size_t)M * N);
		sv_once(N, M, K, P, x, w, y);
		harness_out_array(harness_name("once %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		sv_body(N, M, K, P, x, w, y);
		harness_out_array(harness_name("body %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		harness_free(xm);
		harness_free(w);
		harness_free(y);

		/* BLAS-2 with strides from -2 to 2 (0 too): the vectors in the
		   middle of blocks of random values */
		{
			sv_blaslong incx = sh % 5 - 2, incy = (sh / 5 + sh) % 5 - 2;
			size_t mx = 2 * (size_t)(M > N ? M : N) + 4;
			int8_t *a = harness_rand_s8((size_t)M * N + 1);
			int8_t *xv = harness_rand_s8(2 * mx + 1);
			int32_t *yv = harness_rand_s32(2 * mx + 1, -100000, 100000);
			int32_t alpha = sh % 7 - 3;
			sv_gemv_n(M, N, alpha, a, M, xv + mx, incx, yv + mx, incy);
			harness_out_array(harness_name("gemv_n %dx%d %ld %ld", M, N, (long)incx,
						       (long)incy), yv, 2 * mx + 1);
			sv_gemv_t(M, N, alpha, a, M, xv + mx, incx, yv + mx, incy);
			harness_out_array(harness_name("gemv_t %dx%d %ld %ld", M, N, (long)incx,
						       (long)incy), yv, 2 * mx + 1);
			sv_while_gemv_t(M, N, alpha, a, M, xv + mx, incx, yv + mx, incy);
			harness_out_array(harness_name("while_gemv_t %dx%d %ld %ld", M, N,
						       (long)incx, (long)incy), yv, 2 * mx + 1);
			if (M >= 1) {
				sv_gemv_decl((M - 1) / 2, N, a, M, xv, yv);
				harness_out_array(harness_name("gemv_decl %dx%d", M, N), yv,
						  2 * mx + 1);
			}
			sv_gsl_gemv(N, M, alpha, a, M, xv + mx, (int)incx, yv + mx, (int)incy);
			harness_out_array(harness_name("gsl_gemv %dx%d %ld %ld", M, N, (long)incx,
						       (long)incy), yv, 2 * mx + 1);
			if (M >= 1 && N >= 1) {
				sv_blaslong mm = M, nn = N, ld = M, ix1 = incx ? incx : 1;
				/* (x from its first element: kx as SGEMV sets it) */
				sv_f2c_gemv(&mm, &nn, &alpha, a, &ld, xv + mx - (ix1 < 0 ? (N - 1) * -ix1 : 0),
					    &ix1, yv);
				harness_out_array(harness_name("f2c_gemv %dx%d %ld", M, N, (long)ix1),
						  yv, 2 * mx + 1);
			}
			{
				/* two rows, the step y[1] itself, which the first
				   column's second row changes (operands of 0 and 1:
				   the rows stay inside y) */
				int8_t *a01 = harness_alloc(2 * (size_t)N + 1);
				int8_t *x01 = harness_alloc((size_t)N + 1);
				int32_t *ys = harness_alloc(((size_t)N + 4) * sizeof *ys);
				for (int q = 0; q < 2 * N; q++)
					a01[q] = (int8_t)harness_randint(0, 1);
				for (int q = 0; q < N; q++)
					x01[q] = (int8_t)harness_randint(0, 1);
				for (int q = 0; q < N + 4; q++)
					ys[q] = q == 1 || q == N + 3;
				sv_step_alias(2, N, a01, 2, x01, ys, sh % 2 ? &ys[1] : &ys[N + 3]);
				harness_out_array(harness_name("step_alias %d", N), ys, (size_t)N + 4);
				harness_free(a01);
				harness_free(x01);
				harness_free(ys);
			}
			sv_gemv_cont(M, N, a, M, xv + mx, incx, yv);
			harness_out_array(harness_name("gemv_cont %dx%d", M, N), yv, 2 * mx + 1);
			sv_gemv_amount(M, N, a, M, xv, yv);
			harness_out_array(harness_name("gemv_amount %dx%d", M, N), yv, 2 * mx + 1);
			harness_free(a);
			harness_free(xv);
			harness_free(yv);
		}
	}
	for (int r = 0; r < 3; r++) {
		/* the image inside a larger block of random bytes */
		int8_t *xb = harness_rand_s8(3 * SV_C * SV_H * SV_W);
		int8_t *w = harness_rand_s8(SV_M * SV_C * 9);
		int32_t *bias = harness_rand_s32(SV_M, -100000, 100000);
		int32_t *y = harness_rand_s32(SV_M * SV_H * SV_W, -1000, 1000);
		sv_onnx2c((const int8_t(*)[SV_C][SV_H][SV_W])(xb + SV_C * SV_H * SV_W),
			  (const int8_t(*)[SV_C][3][3])w, bias, (int32_t(*)[SV_M][SV_H][SV_W])y);
		harness_out_array(harness_name("onnx2c %d", r), y, SV_M * SV_H * SV_W);
		harness_free(xb);
		harness_free(w);
		harness_free(bias);
		harness_free(y);
	}
}
