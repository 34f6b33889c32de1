// MIXPREC-TRANSFORMED: 16
/* zero_guard.c -- an update loop under a zero-skip guard, as the C BLAS of
 * GSL (gsl/cblas/source_gemm_r.h) and C translations of netlib's reference
 * BLAS write GEMM: `temp = alpha * A[i][k]; if (temp != 0.0) for (j ...)
 * C[i][j] += temp * B[k][j];`.  What the guard skips adds temp * b = 0, so
 * the guard is dropped (the remark says so) where the guarded loop holds
 * the contraction alone and the guard's variable is a factor of its
 * product; the nest as written stays the fallback.  Near misses are
 * refused at the guarded loop. */
#include "harness.h"
#include <mixprec.h>
#include <string.h>

/* GSL's NoTrans x NoTrans, row-major (ikj), the operand in temp (GSL's
 * temp is alpha * A[i][k]: int_alpha_local.c has that form) */
__attribute__((noinline)) void zg_gsl_nn(int M, int N, int K, const int8_t *A,
					 int lda, const int8_t *B, int ldb, int32_t *C, int ldc)
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++) {
		for (k = 0; k < K; k++) {
			const int temp = A[lda * i + k];
			if (temp != 0) {
				for (j = 0; j < N; j++) {
					C[ldc * i + j] += temp * B[ldb * k + j];
				}
			}
		}
	}
}

/* netlib's column-major loop order (j, l, i), the guard written `0 != t` */
__attribute__((noinline)) void zg_netlib(int M, int N, int K, const int8_t *A, int lda,
					 const uint8_t *B, int ldb, int32_t *C, int ldc)
{
#pragma mixprec(uint8, acc=int32)
	for (int j = 0; j < N; j++)
		for (int l = 0; l < K; l++) {
			int t = B[l + j * ldb];
			if (0 != t)
				for (int i = 0; i < M; i++)
					C[i + j * ldc] = C[i + j * ldc] + t * A[i + l * lda];
		}
}

/* a truth test of an 8-bit local, the sum subtracted */
__attribute__((noinline)) void zg_truth_sub(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++) {
			int8_t a = A[i * K + k];
			if (a)
				for (int j = 0; j < N; j++)
					C[i * N + j] -= a * B[k * N + j];
		}
}

/* kij order, the guard's variable a parameter-scaled zero-point term */
__attribute__((noinline)) void zg_kij_zp(int M, int N, int K, const uint8_t *A, int za,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++) {
			int d = A[i * K + k] - za;
			if (d != 0)
				for (int j = 0; j < N; j++)
					C[i * N + j] += d * B[k * N + j];
		}
}

/* the guard around an inner sum loop of a matrix-vector product */
__attribute__((noinline)) void zg_gemv_t(int M, int K, const int8_t *A, const int8_t *x,
					 int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++) {
		int xk = x[k];
		if (xk != 0)
			for (int i = 0; i < M; i++)
				y[i] += A[k * M + i] * xk;
	}
}

/* GLPK's form: `if (t == 0.0) continue;` before the update loop, the
 * rest of the body (sparse there; dense here) */
__attribute__((noinline)) void zg_continue(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
	int i, j, k, a;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < M; i++)
		for (k = 0; k < K; k++) {
			a = A[i * K + k];
			if (a == 0)
				continue;
			for (j = 0; j < N; j++)
				C[i * N + j] += a * B[k * N + j];
		}
}

/* the same with braces around the continue and around the loop */
__attribute__((noinline)) void zg_continue_braces(int M, int N, int K, const int8_t *A,
						  const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++) {
			int a = A[i * K + k];
			if (a == 0) {
				continue;
			}
			{
				for (int j = 0; j < N; j++)
					C[i * N + j] += a * B[k * N + j];
			}
		}
}

/* the loop in the else branch of a negated test */
__attribute__((noinline)) void zg_else(int M, int N, int K, const int8_t *A,
				       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++) {
			int a = A[i * K + k];
			if (!a) {
				/* nothing to add */
			} else {
				for (int j = 0; j < N; j++)
					C[i * N + j] += a * B[k * N + j];
			}
		}
}

/* a doubly negated test */
__attribute__((noinline)) void zg_not_eq(int M, int N, int K, const int8_t *A,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++) {
			int a = A[i * K + k];
			if (!(a == 0))
				for (int j = 0; j < N; j++)
					C[i * N + j] -= a * B[k * N + j];
		}
}

/* the update written with a double negation (clang keeps it; the core
 * read it as 1 * (a * b) and then refused the guard, fuzz seed 1202347) */
__attribute__((noinline)) void zg_negneg(int M, int N, int K, const int8_t *A,
					 const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++) {
			int a = A[i * K + k];
			if (a != 0)
				for (int j = 0; j < N; j++)
					C[i * N + j] = C[i * N + j] + -(-(a * B[k * N + j]));
		}
}

/* near miss: the loop runs where the variable is zero */
__attribute__((noinline)) void zg_wrong_way(int M, int N, int K, const int8_t *A,
					    const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{runs under a condition}}
		for (int k = 0; k < K; k++) {
			int a = A[i * K + k];
			if (a != 0)
				continue;
			for (int j = 0; j < N; j++)
				C[i * N + j] += (a + 1) * B[k * N + j];
		}
}

/* near misses: the guard's variable is not a factor of the product */
__attribute__((noinline)) void zg_other_var(int M, int N, int K, const int8_t *A,
					    const int8_t *B, const int8_t *m, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{runs under 'if (on != 0)'}}
		for (int k = 0; k < K; k++) {
			int on = m[k];
			if (on != 0)
				for (int j = 0; j < N; j++)
					C[i * N + j] += A[i * K + k] * B[k * N + j];
		}
}

/* ... and a test that is not against zero */
__attribute__((noinline)) void zg_positive(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) // expected-warning {{runs under a condition}}
		for (int k = 0; k < K; k++) {
			int a = A[i * K + k];
			if (a > 0)
				for (int j = 0; j < N; j++)
					C[i * N + j] += a * B[k * N + j];
		}
}

/* ... and the guarded loop's iterator read after the nest: where every
   t was 0 the loop never ran and 'i' keeps its value from before the nest
   (fuzz seed 1202593: the guard dropped, 'i' came out as M).  A row
   that is all zeros in B makes the guard skip every time. */
__attribute__((noinline)) long zg_live_iter(int M, int N, int K, const int8_t *A,
					    const uint8_t *B, int32_t *C)
{
	int i = -1, j = -2, k = -3;
#pragma mixprec(int8, acc=int32)
	for (k = 0; k < K; k++) // expected-warning {{the iterator 'i' is used after the nest}}
		for (j = 0; j < N; j++) {
			int t = B[k * N + j];
			if (t)
				for (i = 0; i < M; i++)
					C[i * N + j] += A[i * K + k] * t;
		}
	return (long)i * 1000000 + (long)j * 1000 + k;
}

/* ... and a pointer stepped under the guard: it moves only where t != 0
   (refused; GCC and clang transformed it: a review helper) */
__attribute__((noinline)) void zg_ptr(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++) { // expected-warning {{steps a variable ('pb'), which the guard skips too}}
		const int8_t *pb = B;
		for (int k = 0; k < K; k++) {
			int8_t t = A[i * K + k];
			if (t != 0)
				for (int j = 0; j < N; j++)
					C[i * N + j] += t * *pb++;
		}
	}
}

/* the guard's variable a factor of a longer product, `b * 3 * t` (GCC's
   front end folds it into `b * (t * 3)`, which the GCC glue refused: fuzz
   seed 1206077); t a zero-pointed operand, skipped where it is 0 */
__attribute__((noinline)) void zg_factor3(int M, int N, int K, const int8_t *A,
					  const uint8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++) {
			int t = A[i * K + k] - 7;
			if (t)
				for (int j = 0; j < N; j++)
					C[i * N + j] += B[k * N + j] * 3 * t;
		}
}

/* f2c's translation of netlib's SGEMM (CLAPACK), int8: 1-based, the
   pointers shifted, and the loop's bound set inside the guard (`i__3 =
   *m;`).  Refused: the loop as written reads *m only where a guard
   passes, the rewrite on every call (m may be null where every temp is
   0: crashed, found by a review helper); zg_f2c_local reads it first */
typedef long int zg_integer;
__attribute__((noinline)) void zg_f2c(zg_integer *m, zg_integer *n, zg_integer *k,
				      const int8_t *a, zg_integer *lda, const int8_t *b,
				      zg_integer *ldb, int32_t *c__, zg_integer *ldc, int32_t *alpha)
{
	zg_integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2, i__3;
	zg_integer i__, j, l;
	int32_t temp;
	a_dim1 = *lda;
	a_offset = 1 + a_dim1;
	a -= a_offset;
	b_dim1 = *ldb;
	b_offset = 1 + b_dim1;
	b -= b_offset;
	c_dim1 = *ldc;
	c_offset = 1 + c_dim1;
	c__ -= c_offset;
	i__1 = *n;
#pragma mixprec(int8, acc=int32)
	for (j = 1; j <= i__1; ++j) { // expected-warning {{runs under 'if (temp != 0)' and reads memory under that guard}}
		i__2 = *k;
		for (l = 1; l <= i__2; ++l) {
			temp = *alpha * b[l + j * b_dim1];
			if (temp != 0) {
				i__3 = *m;
				for (i__ = 1; i__ <= i__3; ++i__) {
					c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
				}
			}
		}
	}
}

/* ... with *m read into a local before the nest, as the message says:
   transformed */
__attribute__((noinline)) void zg_f2c_local(zg_integer *m, zg_integer *n, zg_integer *k,
					    const int8_t *a, zg_integer *lda, const int8_t *b,
					    zg_integer *ldb, int32_t *c__, zg_integer *ldc,
					    int32_t *alpha)
{
	zg_integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2, i__3;
	zg_integer i__, j, l;
	int32_t temp;
	zg_integer m_ = *m;
	a_dim1 = *lda;
	a_offset = 1 + a_dim1;
	a -= a_offset;
	b_dim1 = *ldb;
	b_offset = 1 + b_dim1;
	b -= b_offset;
	c_dim1 = *ldc;
	c_offset = 1 + c_dim1;
	c__ -= c_offset;
	i__1 = *n;
#pragma mixprec(int8, acc=int32)
	for (j = 1; j <= i__1; ++j) {
		i__2 = *k;
		for (l = 1; l <= i__2; ++l) {
			temp = *alpha * b[l + j * b_dim1];
			if (temp != 0) {
				i__3 = m_;
				for (i__ = 1; i__ <= i__3; ++i__) {
					c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
				}
			}
		}
	}
}

/* ... the bound's variable read after the nest: set only where a guard
   passed (all zeros in B: never, it keeps its value from before):
   refused under the three compilers, the bound read after the nest */
__attribute__((noinline)) long zg_f2c_live(int M, int N, int K, const int8_t *A,
					   const int8_t *B, int32_t *C)
{
	long i3 = -5, i;
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) // expected-warning {{reduction loop 'l' also contains an assignment to 'i3'}}
		for (int l = 0; l < K; l++) {
			int temp = B[l + j * K];
			if (temp != 0) {
				i3 = M;
				for (i = 0; i < i3; i++)
					C[i + j * M] += temp * A[i + l * M];
			}
		}
	return i3;
}

/* two assignments in the guard before the loop, the second reading the
   first (`n3 = N; off = i * n3;`): GCC's SSA reads off as i*N; clang
   refused it as "no contraction found" (C's subscript was not affine) */
__attribute__((noinline)) void zg_two_assign(int M, int N, int K, const int8_t *A,
					     const int8_t *B, int32_t *C)
{
	int n3, off;
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int k = 0; k < K; k++) {
			int t = A[i * K + k];
			if (t != 0) {
				n3 = N;
				off = i * n3;
				for (int j = 0; j < N; j++)
					C[off + j] += t * B[k * N + j];
			}
		}
}

/* the guard on the operand element itself, as netlib's f2c-translated
 * BLAS (CLAPACK's BLAS/SRC/sgemm.c, NoTrans x NoTrans) writes it: `if
 * (b[l + j * b_dim1] != 0.f) { temp = *alpha * b[l + j * b_dim1]; ... }`;
 * what the guard skips adds temp * a with temp = alpha * 0.  As written,
 * refused: the loop reads *alpha only where an element is nonzero (alpha
 * may be null where all are 0), mixprec would read it on every call (a
 * review helper's crash) */
__attribute__((noinline)) int zg_elem_gemm(zg_integer *m, zg_integer *n, zg_integer *k,
					   int32_t *alpha, const int8_t *a, zg_integer *lda,
					   const int8_t *b, zg_integer *ldb, int32_t *c__,
					   zg_integer *ldc)
{
	zg_integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2, i__3;
	zg_integer i__, j, l;
	int32_t temp;

	a_dim1 = *lda;
	a_offset = 1 + a_dim1;
	a -= a_offset;
	b_dim1 = *ldb;
	b_offset = 1 + b_dim1;
	b -= b_offset;
	c_dim1 = *ldc;
	c_offset = 1 + c_dim1;
	c__ -= c_offset;
	i__1 = *n;
#pragma mixprec(int8, acc=int32)
	for (j = 1; j <= i__1; ++j) { // expected-warning {{runs under 'if (b[l + j * b_dim1] != 0)' and reads memory under that guard}}
		i__2 = *k;
		for (l = 1; l <= i__2; ++l) {
			if (b[l + j * b_dim1] != 0) {
				temp = *alpha * b[l + j * b_dim1];
				i__3 = *m;
				for (i__ = 1; i__ <= i__3; ++i__) {
					c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
/* L70: */
				}
			}
/* L80: */
		}
/* L90: */
	}
	return 0;
}

/* ... *alpha and *m copied to locals before the nest, as the message
   says */
__attribute__((noinline)) int zg_elem_gemm_local(zg_integer *m, zg_integer *n, zg_integer *k,
						 int32_t *alpha, const int8_t *a, zg_integer *lda,
					   const int8_t *b, zg_integer *ldb, int32_t *c__,
					   zg_integer *ldc)
{
	zg_integer a_dim1, a_offset, b_dim1, b_offset, c_dim1, c_offset, i__1, i__2, i__3;
	zg_integer i__, j, l;
	int32_t temp, alpha_ = *alpha;
	zg_integer m_ = *m;

	a_dim1 = *lda;
	a_offset = 1 + a_dim1;
	a -= a_offset;
	b_dim1 = *ldb;
	b_offset = 1 + b_dim1;
	b -= b_offset;
	c_dim1 = *ldc;
	c_offset = 1 + c_dim1;
	c__ -= c_offset;
	i__1 = *n;
#pragma mixprec(int8, acc=int32)
	for (j = 1; j <= i__1; ++j) {
		i__2 = *k;
		for (l = 1; l <= i__2; ++l) {
			if (b[l + j * b_dim1] != 0) {
				temp = alpha_ * b[l + j * b_dim1];
				i__3 = m_;
				for (i__ = 1; i__ <= i__3; ++i__) {
					c__[i__ + j * c_dim1] += temp * a[i__ + l * a_dim1];
/* L70: */
				}
			}
/* L80: */
		}
/* L90: */
	}
	return 0;
}

/* CLAPACK's sgemv.c, y := alpha*A*x + y with incy == 1: the guard on x's
 * element, x walked by *incx (kx its first element); *alpha and *m
 * copied to locals before the nest (zg_elem_gemm) */
__attribute__((noinline)) int zg_elem_gemv(zg_integer *m, zg_integer *n, int32_t *alpha,
					   const int8_t *a, zg_integer *lda, const int8_t *x,
					   zg_integer *incx, int32_t *y)
{
	zg_integer a_dim1, a_offset, i__1, i__2, i__, j, jx, kx;
	int32_t temp, alpha_ = *alpha;
	zg_integer m_ = *m;

	a_dim1 = *lda;
	a_offset = 1 + a_dim1;
	a -= a_offset;
	--x;
	--y;
	if (*incx > 0)
		kx = 1;
	else
		kx = 1 - (*n - 1) * *incx;
	jx = kx;
	i__1 = *n;
#pragma mixprec(int8, acc=int32)
	for (j = 1; j <= i__1; ++j) {
		if (x[jx] != 0) {
			temp = alpha_ * x[jx];
			i__2 = m_;
			for (i__ = 1; i__ <= i__2; ++i__) {
				y[i__] += temp * a[i__ + j * a_dim1];
/* L50: */
			}
		}
		jx += *incx;
/* L60: */
	}
	return 0;
}

/* the element's copy declared under its guard */
__attribute__((noinline)) void zg_elem_decl(int M, int N, const int8_t *a, const int8_t *x,
					    int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++)
		if (x[j] != 0) {
			int t = x[j];
			for (int i = 0; i < M; i++)
				y[i] += t * a[i + j * M];
		}
}

/* near misses: the element's copy read after the nest (where the last
   elements are 0 it keeps an older value; the product does not read it
   through then) ... */
__attribute__((noinline)) int zg_elem_live(int M, int N, const int8_t *a, const int8_t *x,
					   int32_t *y)
{
	int t = -1;
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) // expected-warning {{reads local 't', which the nest assigns and the code after the nest reads}}
		if (x[j] != 0) {
			t = 2 * x[j];
			for (int i = 0; i < M; i++)
				y[i] += t * a[i + j * M];
		}
	return t;
}

/* ... a factor that is another element than the guard's ... */
__attribute__((noinline)) void zg_elem_other(int M, int N, const int8_t *a, const int8_t *x,
					     int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) // expected-warning {{runs under a condition}}
		if (x[j + 1] != 0) {
			int t = x[j];
			for (int i = 0; i < M; i++)
				y[i] += t * a[i + j * M];
		}
}

/* ... the element's copy not the first assignment under the guard, or
   a product reading the copy's old value (the guard kept it) ... */
__attribute__((noinline)) void zg_elem_second(int M, int N, const int8_t *a, const int8_t *x,
					      int32_t *y)
{
	int n2, t;
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) // expected-warning {{runs under a condition}}
		if (x[j] != 0) {
			n2 = M;
			t = x[j];
			for (int i = 0; i < n2; i++)
				y[i] += t * a[i + j * M];
		}
}

__attribute__((noinline)) void zg_elem_prod(int M, int N, const int8_t *a, const int8_t *x,
					    int32_t *y)
{
	int t = 1;
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) // expected-warning {{no contraction found in the nest}}
		if (x[j] != 0) {
			t = x[j] * t;
			for (int i = 0; i < M; i++)
				y[i] += t * a[i + j * M];
		}
}

/* ... and the copy read after the guarded loop, in the same iteration */
__attribute__((noinline)) void zg_elem_after(int M, int N, const int8_t *a, const int8_t *x,
					     int32_t *y, int32_t *last)
{
	int t = 0;
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++) { // expected-warning {{reads local 't', which a store to 'last' reads too}}
		if (x[j] != 0) {
			t = x[j];
			for (int i = 0; i < M; i++)
				y[i] += t * a[i + j * M];
		}
		last[j] = t;
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
		int8_t *A = harness_rand_s8(mk + 1), *B = harness_rand_s8(kn + 1);
		uint8_t *U = harness_rand_u8(kn + mk + 1);
		int8_t *msk = harness_rand_s8((size_t)K + 1);
		int32_t *C = harness_rand_s32(mn + 1, INT32_MIN, INT32_MAX);
		int32_t *y = harness_rand_s32((size_t)M + 1, -1000, 1000);

		/* zeros in the operands, so that the guards skip */
		for (size_t q = 0; q < mk; q += 3)
			A[q] = 0;
		for (size_t q = 0; q < kn + mk; q += 4)
			U[q] = (uint8_t)(q & 8 ? 0 : 7);
		for (int q = 0; q < K; q += 2)
			msk[q] = 0;
		for (size_t q = 1; q < kn; q += 5)
			B[q] = 0;
		zg_gsl_nn(M, N, K, A, K, B, N, C, N);
		harness_out_array(harness_name("gsl_nn %dx%dx%d", M, N, K), C, mn);
		zg_netlib(M, N, K, A, M, U, K, C, M);
		harness_out_array(harness_name("netlib %dx%dx%d", M, N, K), C, mn);
		zg_truth_sub(M, N, K, A, B, C);
		harness_out_array(harness_name("truth_sub %dx%dx%d", M, N, K), C, mn);
		zg_kij_zp(M, N, K, U, 7, B, C);
		harness_out_array(harness_name("kij_zp %dx%dx%d", M, N, K), C, mn);
		zg_gemv_t(M, K, A, B, y);
		harness_out_array(harness_name("gemv_t %dx%d", M, K), y, (size_t)M);
		zg_continue(M, N, K, A, B, C);
		harness_out_array(harness_name("continue %dx%dx%d", M, N, K), C, mn);
		zg_continue_braces(M, N, K, A, B, C);
		harness_out_array(harness_name("continue_braces %dx%dx%d", M, N, K), C, mn);
		zg_else(M, N, K, A, B, C);
		harness_out_array(harness_name("else %dx%dx%d", M, N, K), C, mn);
		zg_not_eq(M, N, K, A, B, C);
		harness_out_array(harness_name("not_eq %dx%dx%d", M, N, K), C, mn);
		zg_negneg(M, N, K, A, B, C);
		harness_out_array(harness_name("negneg %dx%dx%d", M, N, K), C, mn);
		zg_wrong_way(M, N, K, A, B, C);
		harness_out_array(harness_name("wrong_way %dx%dx%d", M, N, K), C, mn);
		zg_other_var(M, N, K, A, B, msk, C);
		harness_out_array(harness_name("other_var %dx%dx%d", M, N, K), C, mn);
		zg_positive(M, N, K, A, B, C);
		harness_out_array(harness_name("positive %dx%dx%d", M, N, K), C, mn);
		{
			int8_t *A7 = harness_alloc(mk + 1);
			for (size_t q = 0; q <= mk; q++)
				A7[q] = q % 3 ? A[q] : 7;
			zg_factor3(M, N, K, A7, U, C);
			harness_out_array(harness_name("factor3 %dx%dx%d", M, N, K), C, mn);
			harness_free(A7);
		}
		{
			zg_integer m = M, n = N, k = K, lda = M, ldb = K, ldc = M;
			int32_t alpha = sh % 3 - 1;
			zg_f2c(&m, &n, &k, A, &lda, B, &ldb, C, &ldc, &alpha);
			harness_out_array(harness_name("f2c as published %dx%dx%d", M, N, K), C, mn);
			zg_f2c_local(&m, &n, &k, A, &lda, B, &ldb, C, &ldc, &alpha);
			harness_out_array(harness_name("f2c %dx%dx%d", M, N, K), C, mn);
			harness_out_long(harness_name("f2c live %dx%dx%d", M, N, K),
					 zg_f2c_live(M, N, K, A, B, C));
			harness_out_array(harness_name("f2c live C %dx%dx%d", M, N, K), C, mn);
			int8_t *Z = harness_alloc(kn + 1);
			memset(Z, 0, kn + 1);
			harness_out_long(harness_name("f2c live zeros %dx%dx%d", M, N, K),
					 zg_f2c_live(M, N, K, A, Z, C));
			harness_free(Z);
		}
		{
			zg_integer m = M, n = N, k = K, lda = M, ldb = K, ldc = M;
			int32_t alpha = sh % 5 - 2;
			zg_elem_gemm(&m, &n, &k, &alpha, A, &lda, B, &ldb, C, &ldc);
			harness_out_array(harness_name("elem_gemm %dx%dx%d", M, N, K), C, mn);
			zg_elem_gemm_local(&m, &n, &k, &alpha, A, &lda, B, &ldb, C, &ldc);
			harness_out_array(harness_name("elem_gemm_local %dx%dx%d", M, N, K), C, mn);
			{
				/* every element 0 and alpha null: the loop as written
				   never reads *alpha */
				int8_t *Z = harness_alloc(kn + 1);
				memset(Z, 0, kn + 1);
				zg_elem_gemm(&m, &n, &k, NULL, A, &lda, Z, &ldb, C, &ldc);
				harness_out_array(harness_name("elem_gemm null alpha %dx%dx%d", M, N, K),
						  C, mn);
				/* the same for m: every temp 0 */
				zg_f2c(NULL, &n, &k, A, &lda, Z, &ldb, C, &ldc, &alpha);
				harness_out_array(harness_name("f2c null m %dx%dx%d", M, N, K), C, mn);
				harness_free(Z);
			}
			/* x: B's first K*N, strided by -2..2 (0 too) */
			zg_integer inc = sh % 5 - 2, nn = N / 2 + 1, lda2 = M;
			if (inc != 0 && (nn - 1) * (inc < 0 ? -inc : inc) >= (zg_integer)kn)
				nn = 1;
			if (M >= 1 && (zg_integer)mk >= nn * M) {
				zg_elem_gemv(&m, &nn, &alpha, A, &lda2, B, &inc, y);
				harness_out_array(harness_name("elem_gemv %dx%ld %ld", M, (long)nn,
							       (long)inc), y, (size_t)M);
			}
			if (mk >= (size_t)M * (size_t)(N < K ? N : K)) {
				int n2 = N < K ? N : K;
				zg_elem_decl(M, n2, A, B, y);
				harness_out_array(harness_name("elem_decl %dx%d", M, n2), y, (size_t)M);
				harness_out_long(harness_name("elem_live %dx%d", M, n2),
						 zg_elem_live(M, n2, A, B, y));
				harness_out_array(harness_name("elem_live y %dx%d", M, n2), y,
						  (size_t)M);
				zg_elem_second(M, n2, A, B, y);
				harness_out_array(harness_name("elem_second %dx%d", M, n2), y, (size_t)M);
				zg_elem_prod(M, n2, A, B, y);
				harness_out_array(harness_name("elem_prod %dx%d", M, n2), y, (size_t)M);
				if (n2 < K) {
					zg_elem_other(M, n2, A, B, y);
					harness_out_array(harness_name("elem_other %dx%d", M, n2), y,
							  (size_t)M);
				}
				int32_t *last = harness_alloc(((size_t)n2 + 1) * sizeof *last);
				zg_elem_after(M, n2, A, B, y, last);
				harness_out_array(harness_name("elem_after %dx%d", M, n2), y, (size_t)M);
				harness_out_array(harness_name("elem_after last %dx%d", M, n2), last,
						  (size_t)n2);
				harness_free(last);
			}
		}
		zg_two_assign(M, N, K, A, B, C);
		harness_out_array(harness_name("two_assign %dx%dx%d", M, N, K), C, mn);
		zg_ptr(M, N, K, A, B, C);   /* (reads at most K*N of B) */
		harness_out_array(harness_name("ptr %dx%dx%d", M, N, K), C, mn);
		{
			uint8_t *Z = harness_alloc(kn + 1);
			memset(Z, 0, kn + 1);
			harness_out_long(harness_name("live_iter zeros %dx%dx%d", M, N, K),
					 zg_live_iter(M, N, K, A, Z, C));
			harness_out_long(harness_name("live_iter %dx%dx%d", M, N, K),
					 zg_live_iter(M, N, K, A, U, C));
			harness_out_array(harness_name("live_iter %dx%dx%d", M, N, K), C, mn);
			harness_free(Z);
		}
		harness_free(A);
		harness_free(B);
		harness_free(U);
		harness_free(msk);
		harness_free(C);
		harness_free(y);
	}
}
