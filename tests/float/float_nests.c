/* float_nests.c -- end-to-end test of floating-point sources at lower
 * precision (#pragma mixprec(bf16 | int8 | uint8 | fp8_e4m3 | fp8_e5m2) on
 * float and double loop nests), compiled WITH the GCC plugin (and with the
 * clang plugins: tests/float/CMakeLists.txt).
 *
 * Not a bit-exact differential: each kernel is stamped twice from one
 * macro, once annotated (_Pragma passed as a macro argument) and once
 * plain (the reference, IEEE float/double as written).  On random data
 * with awkward shapes every element must satisfy
 *
 *   |lp - ref| <= mp_lp_error_bound(...)            (lp vs exact, the runtime's
 *                                                     documented bound)
 *               + gamma(K + 2) * (|init| + sum_k |A(i,k) B(k,j)|)
 *                                                    (ref vs exact: the reference
 *                                                     loop's own rounding, with
 *                                                     gamma(n) = n u / (1 - n u),
 *                                                     u = 2^-24 (float) / 2^-53)
 *
 * (the epilogues below are 1-Lipschitz or scale by 2, which the check
 * applies to the tolerance).  The annotated copies must run on the kernels
 * (mp_stats fast grows), and a NaN input must fall back (fallback grows)
 * with a result equal to the reference's exactly.
 *
 * `float_nests FACTOR [SEED]` divides every tolerance by FACTOR (default 1):
 * run with 1000 to see the check fail (FLOAT_NESTS_VERBOSE=1 prints, for
 * each check, the worst ratio of the difference to its tolerance).
 *
 * The newer kernels (run_scaled ... run_verify_env) cover a scalar factor
 * alpha*A*B, the ikj order (an init loop, then k enclosing j), explicit
 * scales scale=(SA, SB), uint8 and the verify mode (the clause and
 * MIXPREC_VERIFY); their tolerance is bnd_tol's, with the steps of
 * mp_lp_steps_ex for the same scales.  Built with
 * -DFLOAT_NESTS_VERIFY_ALL and -fplugin-arg-mixprec-verify, every nest's
 * first call must be verified as well.
 */
#include <mixprec.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOPRAGMA

/* bf16, float, tile mode with a bias init and a leaky-relu epilogue */
#define K_BF16(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, const float *bias, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = bias[j]; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s > 0 ? s : 0.125f * s; \
		} \
}
K_BF16(bf16_lp, _Pragma("mixprec(bf16)"))
K_BF16(bf16_ref, NOPRAGMA)

/* int8, double, direct mode (perfect nest, C += A*B, B transposed) */
#define K_I8(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const double *A, \
		const double *Bt, double *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) \
			for (int k = 0; k < K; k++) \
				C[i * N + j] += A[i * K + k] * Bt[j * K + k]; \
}
K_I8(i8_lp, _Pragma("mixprec(int8, scale=dynamic)"))
K_I8(i8_ref, NOPRAGMA)

/* fp8_e4m3, float, tile mode, k innermost in a j-i order, scaled store */
#define K_E4M3(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int j = 0; j < N; j++) \
		for (int i = 0; i < M; i++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = 2.0f * s; \
		} \
}
K_E4M3(e4m3_lp, _Pragma("mixprec(fp8_e4m3)"))
K_E4M3(e4m3_ref, NOPRAGMA)

/* fp8_e5m2, double, tile mode */
#define K_E5M2(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const double *A, \
		const double *B, double *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			double s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s; \
		} \
}
K_E5M2(e5m2_lp, _Pragma("mixprec(fp8_e5m2)"))
K_E5M2(e5m2_ref, NOPRAGMA)

/* ---- scalar factors, ikj order, explicit scales, uint8, verify ---- */

/* (a) float, int8: C *= beta, then C += alpha*A*B (tile mode, memory
 * accumulator, a scalar factor on the left), 2-D VLA operands */
#define K_SCALED(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, float alpha, float beta, \
		const float A[M][K], const float B[K][N], float C[M][N]) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			C[i][j] *= beta; \
			for (int k = 0; k < K; k++) \
				C[i][j] += alpha * A[i][k] * B[k][j]; \
		} \
}
K_SCALED(scaled_lp, _Pragma("mixprec(int8)"))
K_SCALED(scaled_ref, NOPRAGMA)

/* (b) double, bf16, direct mode: C += A*B*alpha (the factor on the right) */
#define K_ALPHA(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, double alpha, \
		const double *A, const double *B, double *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) \
			for (int k = 0; k < K; k++) \
				C[i * N + j] += A[i * K + k] * B[k * N + j] * alpha; \
}
K_ALPHA(alpha_lp, _Pragma("mixprec(bf16)"))
K_ALPHA(alpha_ref, NOPRAGMA)

/* (g) the netlib SGEMM form: C *= beta, then for k { temp = alpha*A(i,k);
 * for j C += temp*B(k,j) } -- the temporary is forwarded into the product
 * (its factor applied to the sum), ikj order through __mixprec_tile_add */
#define K_NETLIB(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, float alpha, float beta, \
		const float *A, const float *B, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) { \
		for (int j = 0; j < N; j++) \
			C[i * N + j] *= beta; \
		for (int k = 0; k < K; k++) { \
			float temp = alpha * A[i * K + k]; \
			for (int j = 0; j < N; j++) \
				C[i * N + j] += temp * B[k * N + j]; \
		} \
	} \
}
K_NETLIB(netlib_lp, _Pragma("mixprec(int8)"))
K_NETLIB(netlib_ref, NOPRAGMA)
/* the same with per-column scales of B: the two sibling j loops get
 * distinct internal names in the glues, the pragma's j must still match */
static const float *netlib_ws;
#define ws netlib_ws
K_NETLIB(netlib_ws_lp, _Pragma("mixprec(int8, scale=(dynamic, ws[j]))"))
#undef ws

/* (h) a dense layer whose weights are declared constant across calls:
 * packed and quantized once (constant=w) */
#define K_DENSE(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *x, \
		const float *w, const float *b, float *y) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = b[j]; \
			for (int k = 0; k < K; k++) \
				s += x[i * K + k] * w[j * K + k]; \
			y[i * N + j] = s > 0 ? s : 0; \
		} \
}
K_DENSE(dense_const_lp, _Pragma("mixprec(int8, constant=w)"))
K_DENSE(dense_const_bf16_lp, _Pragma("mixprec(bf16, constant=(w))"))
K_DENSE(dense_ref, NOPRAGMA)

/* (h2) the sum subtracted: a residual y = b - x*w^T as iterative solvers
 * write it (`s -= ...`); tile mode, the glue subtracting the sum */
#define K_RESID(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *x, \
		const float *w, const float *b, float *y) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = b[j]; \
			for (int k = 0; k < K; k++) \
				s -= x[i * K + k] * w[j * K + k]; \
			y[i * N + j] = s; \
		} \
}
K_RESID(resid_lp, _Pragma("mixprec(int8)"))
K_RESID(resid_bf16_lp, _Pragma("mixprec(bf16)"))
K_RESID(resid_ref, NOPRAGMA)

/* (i) zero points on float operands: (x - xm) * w with data centred far
 * from 0 (float, int8, tile), and A * (B + bm) (double, uint8, direct) */
#define K_ZP(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, float xm, const float *x, \
		const float *w, float *y) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += (x[i * K + k] - xm) * w[j * K + k]; \
			y[i * N + j] = s; \
		} \
}
K_ZP(zp_lp, _Pragma("mixprec(int8)"))
K_ZP(zp_ref, NOPRAGMA)
/* the same with both factors written negated, `(xm - x) * -w`: the signs
 * cancel (IEEE negation is exact) */
#define K_ZPN(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, float xm, const float *x, \
		const float *w, float *y) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += (xm - x[i * K + k]) * -w[j * K + k]; \
			y[i * N + j] = s; \
		} \
}
K_ZPN(zpn_lp, _Pragma("mixprec(int8)"))
K_ZPN(zpn_ref, NOPRAGMA)
#define K_ZPD(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, double bm, const double *A, \
		const double *B, double *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) \
			for (int k = 0; k < K; k++) \
				C[i * N + j] += A[i * K + k] * (B[k * N + j] + bm); \
}
K_ZPD(zpd_lp, _Pragma("mixprec(uint8)"))
K_ZPD(zpd_ref, NOPRAGMA)

/* (j) kij order with a forwarded temporary: k is the outermost loop, so
 * the tile is added in place of the whole nest */
#define K_KIJ(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int k = 0; k < K; k++) \
		for (int i = 0; i < M; i++) { \
			float a = 2.0f * A[i * K + k]; \
			for (int j = 0; j < N; j++) \
				C[i * N + j] += a * B[k * N + j]; \
		} \
}
K_KIJ(kij_lp, _Pragma("mixprec(bf16)"))
K_KIJ(kij_ref, NOPRAGMA)

/* (j3) GSL's C BLAS gemm (NoTrans x NoTrans, row-major): the update loop
 * under its zero-skip guard `if (temp != 0.0)`, dropped (what it skips adds
 * temp * b = 0; the runtime falls back on non-finite operands) */
#define K_GSL(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, double alpha, \
		const double *A, const double *B, double *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int k = 0; k < K; k++) { \
			const double temp = alpha * A[i * K + k]; \
			if (temp != 0.0) \
				for (int j = 0; j < N; j++) \
					C[i * N + j] += temp * B[k * N + j]; \
		} \
}
K_GSL(gsl_lp, _Pragma("mixprec(bf16)"))
K_GSL(gsl_ref, NOPRAGMA)

/* (j3b) netlib's f2c-translated BLAS (CLAPACK's dgemm.c, NoTrans x
 * NoTrans, column-major): the guard on the operand element itself, `if
 * (b[l + j * b_dim1] != 0.) { temp = alpha * b[l + j * b_dim1]; ...}` */
#define K_ELEM(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, double alpha, \
		const double *A, const double *B, double *C) \
{ \
	double temp; \
	PRAGMA \
	for (int j = 0; j < N; j++) \
		for (int l = 0; l < K; l++) \
			if (B[l + j * K] != 0.) { \
				temp = alpha * B[l + j * K]; \
				for (int i = 0; i < M; i++) \
					C[i + j * M] += temp * A[i + l * M]; \
			} \
}
K_ELEM(elem_lp, _Pragma("mixprec(bf16)"))
K_ELEM(elem_ref, NOPRAGMA)

/* (j4) the same skip written as GLPK writes it, `if (temp == 0.0)
 * continue;` before the update loop, in kij order */
#define K_SKIP(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, double alpha, \
		const double *A, const double *B, double *C) \
{ \
	int i, j, k; \
	double temp; \
	PRAGMA \
	for (k = 0; k < K; k++) \
		for (i = 0; i < M; i++) { \
			temp = alpha * A[i * K + k]; \
			if (temp == 0.0) \
				continue; \
			for (j = 0; j < N; j++) \
				C[i * N + j] += temp * B[k * N + j]; \
		} \
}
K_SKIP(skip_lp, _Pragma("mixprec(bf16)"))
K_SKIP(skip_ref, NOPRAGMA)

/* (j2) kij order, the sum subtracted: a trailing-matrix update
 * (C -= L*U, k outermost); __mixprec_tile_add subtracts the tile */
#define K_KIJ_SUB(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int k = 0; k < K; k++) \
		for (int i = 0; i < M; i++) { \
			float a = 2.0f * A[i * K + k]; \
			for (int j = 0; j < N; j++) \
				C[i * N + j] -= a * B[k * N + j]; \
		} \
}
K_KIJ_SUB(kij_sub_lp, _Pragma("mixprec(bf16)"))
K_KIJ_SUB(kij_sub_ref, NOPRAGMA)

/* (j2') the same written as the negated product added (clang keeps the
 * negation that GCC's front end folds into a subtraction) */
#define K_KIJ_NEG(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int k = 0; k < K; k++) \
		for (int i = 0; i < M; i++) { \
			float a = 2.0f * A[i * K + k]; \
			for (int j = 0; j < N; j++) \
				C[i * N + j] += -(a * B[k * N + j]); \
		} \
}
K_KIJ_NEG(kij_neg_lp, _Pragma("mixprec(bf16)"))
K_KIJ_NEG(kij_neg_ref, NOPRAGMA)

/* (j2'') a double negation, the product added (clang kept it and refused) */
#define K_KIJ_NEGNEG(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int k = 0; k < K; k++) \
		for (int i = 0; i < M; i++) { \
			float a = 2.0f * A[i * K + k]; \
			for (int j = 0; j < N; j++) \
				C[i * N + j] = -(-(a * B[k * N + j])) + C[i * N + j]; \
		} \
}
K_KIJ_NEGNEG(kij_negneg_lp, _Pragma("mixprec(bf16)"))
K_KIJ_NEGNEG(kij_negneg_ref, NOPRAGMA)

/* bf16, direct mode into C with a leading dimension: rows that overlap
   (ldc < N) must run the loop as written (direct mode adds in its own
   order, over threads) */
#define K_LDC(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, int ldc, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) \
			for (int k = 0; k < K; k++) \
				C[i * ldc + j] += A[i * K + k] * B[k * N + j]; \
}
K_LDC(ldc_lp, _Pragma("mixprec(bf16)"))
K_LDC(ldc_ref, NOPRAGMA)

/* (n) batch loop around a GEMM with linearised subscripts ((b*M + i)*K + k:
 * three factors), int8 at dynamic scales: one call per batch (issue 9) */
#define K_BATCH(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int nb, int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int b = 0; b < nb; b++) \
		for (int i = 0; i < M; i++) \
			for (int j = 0; j < N; j++) { \
				float s = 0; \
				for (int k = 0; k < K; k++) \
					s += A[(b * M + i) * K + k] * B[(b * K + k) * N + j]; \
				C[(b * M + i) * N + j] = s; \
			} \
}
K_BATCH(batch_lp, _Pragma("mixprec(int8)"))
K_BATCH(batch_ref, NOPRAGMA)

/* (l) float convolutions (issue 9): KissDL's float kernel, NHWC input,
   OHWI filter, its padding written as `continue`s in the window loops, the
   bias added after the sum (tile mode, one call per output row); and the
   same window accumulated into the output with the test around the
   update (direct mode, the image rows joining the call's rows) */
#define K_CONV(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int H, int W, int C, int OC, int KH, int KW, \
		int S, int P, int OH, int OW, const float *input, const float *filter, \
		const float *bias, float *output) \
{ \
	int in_d, out_y, out_x, out_d, f_y, f_x; \
	PRAGMA \
	for (out_y = 0; out_y < OH; out_y++) { \
		const int in_y_origin = (out_y * S) - P; \
		for (out_x = 0; out_x < OW; out_x++) { \
			const int in_x_origin = (out_x * S) - P; \
			for (out_d = 0; out_d < OC; out_d++) { \
				float total = 0.f; \
				for (f_y = 0; f_y < KH; f_y++) { \
					const int in_y = in_y_origin + f_y; \
					if ((in_y < 0) || (in_y >= H)) \
						continue; \
					for (f_x = 0; f_x < KW; f_x++) { \
						const int in_x = in_x_origin + f_x; \
						if ((in_x < 0) || (in_x >= W)) \
							continue; \
						for (in_d = 0; in_d < C; in_d++) \
							total += input[in_y * W * C + in_x * C + in_d] * \
								 filter[out_d * KH * KW * C + f_y * KW * C + \
									f_x * C + in_d]; \
					} \
				} \
				total += bias[out_d]; \
				output[(out_y * OW + out_x) * OC + out_d] = total; \
			} \
		} \
	} \
}
K_CONV(conv_lp, _Pragma("mixprec(bf16)"))
K_CONV(conv_ref, NOPRAGMA)

#define K_CONVACC(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int H, int W, int C, int OC, int P, \
		const double *in, const double *w, double *out) \
{ \
	PRAGMA \
	for (int oh = 0; oh < H; oh++) \
		for (int ow = 0; ow < W; ow++) \
			for (int oc = 0; oc < OC; oc++) \
				for (int kh = 0; kh < 2 * P + 1; kh++) \
					for (int kw = 0; kw < 2 * P + 1; kw++) \
						for (int ic = 0; ic < C; ic++) { \
							int ih = oh + kh - P, iw = ow + kw - P; \
							if (ih >= 0 && ih < H && iw >= 0 && iw < W) \
								out[(oh * W + ow) * OC + oc] += \
									in[(ih * W + iw) * C + ic] * \
									w[((oc * (2 * P + 1) + kh) * (2 * P + 1) + kw) * C + ic]; \
						} \
}
K_CONVACC(convacc_lp, _Pragma("mixprec(bf16)"))
K_CONVACC(convacc_ref, NOPRAGMA)

/* (l') a direct convolution as written in NCHW code: the output channel
   outermost, the image rows over two loops (oh, ow) that join the call's
   rows, the window read through the input's map (no padding) */
#define K_CONVNCHW(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int C, int H, int W, int OC, int KH, int KW, \
		const float *in, const float *w, float *out) \
{ \
	int OH = H - KH + 1, OW = W - KW + 1; \
	PRAGMA \
	for (int oc = 0; oc < OC; oc++) \
		for (int oh = 0; oh < OH; oh++) \
			for (int ow = 0; ow < OW; ow++) { \
				float s = 0; \
				for (int c = 0; c < C; c++) \
					for (int kh = 0; kh < KH; kh++) \
						for (int kw = 0; kw < KW; kw++) \
							s += in[(c * H + oh + kh) * W + ow + kw] * \
							     w[((oc * C + c) * KH + kh) * KW + kw]; \
				out[(oc * OH + oh) * OW + ow] = s; \
			} \
}
K_CONVNCHW(convnchw_lp, _Pragma("mixprec(bf16)"))
K_CONVNCHW(convnchw_i8, _Pragma("mixprec(int8)"))
K_CONVNCHW(convnchw_ref, NOPRAGMA)

/* (k) a division by a power of two is a scalar factor (both front ends) */
#define K_DIV(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j] / 4; \
			C[i * N + j] = s; \
		} \
}
K_DIV(div_lp, _Pragma("mixprec(fp8_e4m3)"))
K_DIV(div_ref, NOPRAGMA)

/* (c) ikj order: an init loop, then k enclosing j (tile mode, the tile's
 * row added into C by __mixprec_tile_add) */
#define K_IKJ(NAME, PRAGMA, T) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const T *A, const T *B, \
		T *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) { \
		for (int j = 0; j < N; j++) \
			C[i * N + j] = 0; \
		for (int k = 0; k < K; k++) \
			for (int j = 0; j < N; j++) \
				C[i * N + j] += A[i * K + k] * B[k * N + j]; \
	} \
}
K_IKJ(ikj_i8_lp, _Pragma("mixprec(int8)"), float)
K_IKJ(ikj_e4m3_lp, _Pragma("mixprec(fp8_e4m3)"), float)
K_IKJ(ikj_ref, NOPRAGMA, float)
K_IKJ(ikj_bf16_d_lp, _Pragma("mixprec(bf16)"), double)
K_IKJ(ikj_d_ref, NOPRAGMA, double)

/* (t) triangular nests (issue 9): the tile covers the triangle's bounding
 * box, the loops read it where they run.
 * t1: the lower triangle, j <= i, scalar accumulator (C = A A^T), float */
#define K_TRI(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int N, int K, const float *A, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < N; i++) \
		for (int j = 0; j <= i; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * A[j * K + k]; \
			C[i * N + j] = s; \
		} \
}
K_TRI(tri_i8_lp, _Pragma("mixprec(int8)"))
K_TRI(tri_bf16_lp, _Pragma("mixprec(bf16)"))
K_TRI(tri_ref, NOPRAGMA)

/* t2: PolyBench/C 4.2.1's syrk (ikj order: the beta loop, then k
 * enclosing j <= i; __mixprec_tile_add adds the row's j range), double,
 * bf16, alpha on the left, the strict lower triangle (j < i) */
#define K_SYRK(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int N, int K, double alpha, double beta, \
		double C[N][N], const double A[N][K]) \
{ \
	int i, j, k; \
	PRAGMA \
	for (i = 0; i < N; i++) { \
		for (j = 0; j < i; j++) \
			C[i][j] *= beta; \
		for (k = 0; k < K; k++) { \
			for (j = 0; j < i; j++) \
				C[i][j] += alpha * A[i][k] * A[j][k]; \
		} \
	} \
}
K_SYRK(syrk_bf16_lp, _Pragma("mixprec(bf16)"))
K_SYRK(syrk_ref, NOPRAGMA)

/* PolyBench/C 4.2.1's trmm as it writes it: a triangular reduction (k from
   i + 1), in place (B is the operand and the output: every read of B[k][j]
   comes before row k is written, so the tile reads B as the nest found it) */
#define TRN 100   /* the arrays' fixed row length (PolyBench's default: fixed sizes) */
#define K_TRMM(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int m, int n, float alpha, float A[TRN][TRN], \
		float B[TRN][TRN]) \
{ \
	int i, j, k; \
	PRAGMA \
	for (i = 0; i < m; i++) \
		for (j = 0; j < n; j++) { \
			for (k = i + 1; k < m; k++) \
				B[i][j] += A[k][i] * B[k][j]; \
			B[i][j] = alpha * B[i][j]; \
		} \
}
K_TRMM(trmm_bf16_lp, _Pragma("mixprec(bf16)"))
K_TRMM(trmm_i8_lp, _Pragma("mixprec(int8)"))
K_TRMM(trmm_ref, NOPRAGMA)

/* (d) explicit scales.
 * d1: int8, float, scale=(sx, sw[j]): one scale for A (a float parameter),
 * one per column of B (a pointer parameter); j starts at jlo (the runtime
 * reads sw from sw + jlo) */
#define K_SC1(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, int jlo, float sx, \
		const float *sw, const float *A, const float *B, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = jlo; j < N; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s; \
		} \
}
K_SC1(sc1_lp, _Pragma("mixprec(int8, scale=(sx, sw[j]))"))
K_SC1(sc1_ref, NOPRAGMA)

/* d2: int8, float, scale=(0.01f, dynamic): a number for A, B dynamic */
#define K_SC2(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s; \
		} \
}
K_SC2(sc2_lp, _Pragma("mixprec(int8, scale=(0.01f, dynamic))"))
K_SC2(sc2_ref, NOPRAGMA)

/* d3: int8, double, direct mode, scale=(dynamic, wd[j]) with wd double */
#define K_SC3(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const double *wd, \
		const double *A, const double *B, double *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) \
			for (int k = 0; k < K; k++) \
				C[i * N + j] += A[i * K + k] * B[k * N + j]; \
}
K_SC3(sc3_lp, _Pragma("mixprec(int8, scale=(dynamic, wd[j]))"))
K_SC3(sc3_ref, NOPRAGMA)

/* d4: fp8_e4m3, float, scale=(fp8_xs[i], ws[j]): per row of A from a
 * global array (i starts at ilo: the runtime reads fp8_xs + ilo), per
 * column of B from a pointer */
static float fp8_xs[4096];
#define K_SC4(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, int ilo, const float *ws, \
		const float *A, const float *B, float *C) \
{ \
	PRAGMA \
	for (int i = ilo; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s; \
		} \
}
K_SC4(sc4_lp, _Pragma("mixprec(fp8_e4m3, scale=(fp8_xs[i], ws[j]))"))
K_SC4(sc4_ref, NOPRAGMA)

/* d5: int8, float, the product written B*A: scale=(wl[j], xs[i]) (the
 * first scale belongs to the left factor, B) with wl a local VLA */
#define K_SC5(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *xs, \
		const float *ws, const float *A, const float *B, float *C) \
{ \
	float wl[N]; \
	for (int j = 0; j < N; j++) \
		wl[j] = ws[j]; \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += B[k * N + j] * A[i * K + k]; \
			C[i * N + j] = s; \
		} \
}
K_SC5(sc5_lp, _Pragma("mixprec(int8, scale=(wl[j], xs[i]))"))
K_SC5(sc5_ref, NOPRAGMA)

/* d6: scale=(sa, dynamic) where a block closing right before the pragma
 * declares another 'sa' (a tiny scale: A would saturate): the scale is the
 * 'sa' visible at the loop (clang's pragma handler used to look the name up
 * while the block was still open) */
static volatile float sc6_sink;
#define K_SC6(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, float sa_in, \
		const float *A, const float *B, float *C) \
{ \
	float sa = sa_in; \
	{ \
		float sa = 1e-6f; \
		sc6_sink = sa; \
	} \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = 0; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s; \
		} \
}
K_SC6(sc6_lp, _Pragma("mixprec(int8, scale=(sa, dynamic))"))
K_SC6(sc6_ref, NOPRAGMA)

/* (e) uint8 (A asymmetric unsigned per row, B int8 per column): float tile
 * mode, and double direct mode */
#define K_U8F(NAME, PRAGMA) \
__attribute__((noinline)) static void NAME(int M, int N, int K, const float *A, \
		const float *B, const float *bias, float *C) \
{ \
	PRAGMA \
	for (int i = 0; i < M; i++) \
		for (int j = 0; j < N; j++) { \
			float s = bias[j]; \
			for (int k = 0; k < K; k++) \
				s += A[i * K + k] * B[k * N + j]; \
			C[i * N + j] = s; \
		} \
}
K_U8F(u8f_lp, _Pragma("mixprec(uint8)"))
K_U8F(u8f_ref, NOPRAGMA)
K_I8(u8d_lp, _Pragma("mixprec(uint8, scale=dynamic)"))

/* (f) verify: the clause (int8, double tile), and a nest without it
 * (bf16, double direct) for MIXPREC_VERIFY */
K_E5M2(verify_lp, _Pragma("mixprec(int8, verify)"))
K_I8(env_lp, _Pragma("mixprec(bf16)"))

static double factor = 1;
static long failures, checked;

static double rnd(void)
{
	return (double)rand() / RAND_MAX * 2.0 - 1.0;
}

static double gamma_n(long n, int dbl)
{
	double u = dbl ? 0x1p-53 : 0x1p-24;
	return n * u / (1 - n * u);
}

/* The tolerance of element (i, j): the lp bound plus the reference's own
 * error, for A(i,k) = a[i*a_si + k*a_sk] and B(k,j) = b[k*b_sk + j*b_sj]
 * (elements of float or double). */
static double tol(mp_lp lp, int dbl, long M, long N, long K, const void *a, long a_si,
		  long a_sk, const void *b, long b_sk, long b_sj, long i, long j,
		  double init, int accumulate)
{
	static double sa[4096], sb[4096];
	mp_lp_scales sc = { .dynamic = 1 };
	size_t e = dbl ? 8 : 4;
	double abs_sum = fabs(init);

	if (mp_lp_steps(lp, dbl, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, &sc, sa, sb) != 0)
		return -1;
	for (long k = 0; k < K; k++) {
		double x = dbl ? ((const double *)a)[i * a_si + k * a_sk]
			       : ((const float *)a)[i * a_si + k * a_sk];
		double y = dbl ? ((const double *)b)[k * b_sk + j * b_sj]
			       : ((const float *)b)[k * b_sk + j * b_sj];
		abs_sum += fabs(x * y);
	}
	double lpb = mp_lp_error_bound(lp, dbl, K, (const char *)a + (size_t)(i * a_si) * e,
				       a_sk, (const char *)b + (size_t)(j * b_sj) * e, b_sk,
				       sa[i], sb[j], init, accumulate);
	/* the tile is added to init in the source precision: one more rounding */
	return lpb + gamma_n(K + 2, dbl) * abs_sum + (dbl ? 0x1p-53 : 0x1p-24) * abs_sum;
}

/* per check name: failures and the worst |lp - ref| / tolerance, printed
 * when something failed or FLOAT_NESTS_VERBOSE is set */
static struct { const char *what; long fails, n; double worst; } per[64];
static int nper;

static void note(const char *what, double lp, double ref, double t, int bad)
{
	int w;

	for (w = 0; w < nper && strcmp(per[w].what, what); w++)
		;
	if (w == nper && nper < 64)
		per[nper++].what = what;
	if (w == 64)
		return;
	per[w].n++;
	per[w].fails += bad;
	if (t > 0 && fabs(lp - ref) / t > per[w].worst)
		per[w].worst = fabs(lp - ref) / t;
}

static void print_per(void)
{
	for (int w = 0; w < nper; w++)
		fprintf(stderr, "  %-40s %7ld checks %6ld failed, worst |lp-ref|/tol %.3g\n",
			per[w].what, per[w].n, per[w].fails, per[w].worst);
}

static void expect(const char *what, double lp, double ref, double t, long i, long j)
{
	checked++;
	note(what, lp, ref, t, !(t >= 0) || !(fabs(lp - ref) <= t / factor));
	if (!(t >= 0) || !(fabs(lp - ref) <= t / factor)) {
		if (failures++ < 10)
			fprintf(stderr, "FAIL %s (%ld,%ld): lp %.9g ref %.9g diff %.3g tol %.3g\n",
				what, i, j, lp, ref, fabs(lp - ref), t / factor);
	}
}

static void expect_same(const char *what, const void *x, const void *y, size_t bytes)
{
	checked++;
	if (memcmp(x, y, bytes)) {
		failures++;
		fprintf(stderr, "FAIL %s: the fallback differs from the reference\n", what);
	}
}

static long v_snap;   /* stats.verified at the last fast_count() */

static long fast_count(void)
{
	mp_stats s;
	mp_stats_get(&s);
	v_snap = s.verified;
	return s.fast;
}

static long fallback_count(void)
{
	mp_stats s;
	mp_stats_get(&s);
	return s.fallback;
}

static void check_fast(const char *what, long before)
{
	long vs = v_snap;   /* before fast_count() below overwrites it */

	(void)vs;
	checked++;
	if (fast_count() <= before) {
		failures++;
		fprintf(stderr, "FAIL %s: did not run on the kernels (mp_stats.fast unchanged)\n",
			what);
	}
#ifdef FLOAT_NESTS_VERIFY_ALL
	/* built with -fplugin-arg-mixprec-verify: the first call of every
	   nest is verified (WHAT names one nest), the later ones are not */
	{
		static const char *seen[64];
		static int nseen;
		int first = 1;
		mp_stats s;

		for (int i = 0; i < nseen; i++)
			first &= strcmp(seen[i], what) != 0;
		if (first && nseen < 64)
			seen[nseen++] = what;
		mp_stats_get(&s);
		checked++;
		if (s.verified != vs + first) {
			failures++;
			fprintf(stderr, "FAIL %s: stats.verified grew by %ld, expected %d "
				"(-fplugin-arg-mixprec-verify)\n", what, s.verified - vs, first);
		}
	}
#endif
}

static void check_fallback(const char *what, long before)
{
	checked++;
	if (fallback_count() <= before) {
		failures++;
		fprintf(stderr, "FAIL %s: did not fall back (mp_stats.fallback unchanged)\n", what);
	}
}

/* ------------------------------------------- bounds with explicit scales */

/* The tolerance of the kernels below: the steps (and UINT8 zero points) of
 * mp_lp_steps_ex for the same scales as the pragma's (NULL: dynamic), then
 * per element
 *   mp_lp_error_bound_ex(..., alpha)                      (lp vs exact)
 *   + gamma(K + nref) * S + u * (S + that bound)           (the reference's
 *                                                           own rounding, and
 *                                                           init + tile)
 * with S = |init| + |alpha| sum_k |A(i,k) B(k,j)|; nref: 2, or 3 when the
 * reference multiplies by alpha too. */
typedef struct bnd {
	mp_lp lp;
	int dbl, nref, ok;
	long K;
	const void *a, *b;
	long a_si, a_sk, b_sk, b_sj;
	double alpha;
	double *sa, *za, *sb;
} bnd;

static void bnd_init(bnd *x, mp_lp lp, int dbl, long M, long N, long K, const void *a,
		     long a_si, long a_sk, const void *b, long b_sk, long b_sj,
		     const mp_lp_scales *sc, double alpha, int nref)
{
	mp_lp_scales dyn = { .dynamic = 1 };

	x->lp = lp, x->dbl = dbl, x->nref = nref, x->K = K;
	x->a = a, x->a_si = a_si, x->a_sk = a_sk;
	x->b = b, x->b_sk = b_sk, x->b_sj = b_sj;
	x->alpha = alpha;
	x->sa = malloc(sizeof(double) * (size_t)(M + 1));
	x->za = malloc(sizeof(double) * (size_t)(M + 1));
	x->sb = malloc(sizeof(double) * (size_t)(N + 1));
	x->ok = x->sa && x->za && x->sb &&
		mp_lp_steps_ex(lp, dbl, M, N, K, a, a_si, a_sk, b, b_sk, b_sj, sc ? sc : &dyn,
			       x->sa, x->za, x->sb) == 0;
}

static void bnd_free(bnd *x)
{
	free(x->sa), free(x->za), free(x->sb);
}

static double el(const void *p, int dbl, long o)
{
	return dbl ? ((const double *)p)[o] : ((const float *)p)[o];
}

/* element (i, j) of the block bnd_init described; -1 when its steps could
 * not be computed (the check then fails) */
static double bnd_tol(const bnd *x, long i, long j, double init, int accumulate)
{
	size_t e = x->dbl ? 8 : 4;
	double s = 0, u = x->dbl ? 0x1p-53 : 0x1p-24, lpb;

	if (!x->ok)
		return -1;
	for (long k = 0; k < x->K; k++)
		s += fabs(el(x->a, x->dbl, i * x->a_si + k * x->a_sk) *
			  el(x->b, x->dbl, k * x->b_sk + j * x->b_sj));
	s = fabs(init) + fabs(x->alpha) * s;
	lpb = mp_lp_error_bound_ex(x->lp, x->dbl, x->K,
				   (const char *)x->a + (size_t)(i * x->a_si) * e, x->a_sk,
				   (const char *)x->b + (size_t)(j * x->b_sj) * e, x->b_sk,
				   x->sa[i], x->za[i], x->sb[j], init, accumulate, x->alpha);
	return lpb + gamma_n(x->K + x->nref, x->dbl) * s + u * (s + lpb);
}

/* Fresh random data: uniform in [-mag, mag] with one element in eight
 * 30 times larger (rows and columns of different ranges); relu: negative
 * values become 0 (post-ReLU activations). */
static float *fvec(size_t n, double mag, int relu)
{
	float *p = malloc(n * 4 + 4);

	for (size_t x = 0; x < n; x++) {
		double v = rnd() * mag * (rand() % 8 == 0 ? 30 : 1);
		p[x] = (float)(relu && v < 0 ? 0 : v);
	}
	return p;
}

static double *dvec(size_t n, double mag)
{
	double *p = malloc(n * 8 + 8);

	for (size_t x = 0; x < n; x++)
		p[x] = rnd() * mag * (rand() % 8 == 0 ? 30 : 1);
	return p;
}

/* max |X(r, t)| over t for row r of X(r, t) = p[r*sr + t*st] */
static double amax_row(const void *p, int dbl, long r, long T, long sr, long st)
{
	double m = 0;

	for (long t = 0; t < T; t++)
		m = fmax(m, fabs(el(p, dbl, r * sr + t * st)));
	return m > 0 ? m : 1;
}

static long verified_count(void)
{
	mp_stats s;
	mp_stats_get(&s);
	return s.verified;
}

static void expect_count(const char *what, long got, long want)
{
	checked++;
	if (got != want) {
		failures++;
		fprintf(stderr, "FAIL %s: %ld, expected %ld\n", what, got, want);
	}
}

/* (a) C *= beta; C += alpha*A*B, float, int8 */
static void run_scaled(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *A = fvec(mk, 1, 0), *B = fvec(kn, 3, 0), *C0 = fvec(mn, 20, 0);
	float *C = fvec(mn, 0, 0), *R = fvec(mn, 0, 0);
	float alpha = (float)(0.25 + 2 * fabs(rnd())), beta = (float)rnd();
	long before;
	bnd x;

	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	scaled_lp(M, N, K, alpha, beta, (const void *)A, (const void *)B, (void *)C);
	check_fast("alpha*A*B int8", before);
	scaled_ref(M, N, K, alpha, beta, (const void *)A, (const void *)B, (void *)R);
	bnd_init(&x, MP_LP_INT8, 0, M, N, K, A, K, 1, B, N, 1, NULL, alpha, 3);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float cb = C0[i * N + j] * beta;
			expect("alpha*A*B int8", C[i * N + j], R[i * N + j],
			       bnd_tol(&x, i, j, cb, 0), i, j);
		}
	bnd_free(&x);
	if (mk > 0 && kn > 0) {
		A[mk / 2] = NAN;
		memcpy(C, C0, mn * 4);
		memcpy(R, C0, mn * 4);
		before = fallback_count();
		scaled_lp(M, N, K, alpha, beta, (const void *)A, (const void *)B, (void *)C);
		check_fallback("alpha*A*B int8 NaN", before);
		scaled_ref(M, N, K, alpha, beta, (const void *)A, (const void *)B, (void *)R);
		expect_same("alpha*A*B int8 NaN", C, R, mn * 4);
	}
	free(A), free(B), free(C0), free(C), free(R);
}

/* (b) C += A*B*alpha, alpha < 0, double, bf16, direct */
static void run_alpha(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	double *A = dvec(mk, 2), *B = dvec(kn, 1e3), *C0 = dvec(mn, 1e4);
	double *C = dvec(mn, 0), *R = dvec(mn, 0);
	double alpha = -(0.05 + 3 * fabs(rnd()));
	long before;
	bnd x;

	memcpy(C, C0, mn * 8);
	memcpy(R, C0, mn * 8);
	before = fast_count();
	alpha_lp(M, N, K, alpha, A, B, C);
	check_fast("A*B*alpha bf16", before);
	alpha_ref(M, N, K, alpha, A, B, R);
	bnd_init(&x, MP_LP_BF16, 1, M, N, K, A, K, 1, B, N, 1, NULL, alpha, 3);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("A*B*alpha bf16", C[i * N + j], R[i * N + j],
			       bnd_tol(&x, i, j, C0[i * N + j], 1), i, j);
	bnd_free(&x);
	free(A), free(B), free(C0), free(C), free(R);
}

/* (g) netlib form, float, int8 */
static void run_netlib(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *A = fvec(mk, 1, 0), *B = fvec(kn, 3, 0), *C0 = fvec(mn, 20, 0);
	float *C = fvec(mn, 0, 0), *R = fvec(mn, 0, 0);
	float alpha = (float)(-0.5 - 2 * fabs(rnd())), beta = (float)rnd();
	long before;
	bnd x;

	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	netlib_lp(M, N, K, alpha, beta, A, B, C);
	check_fast("netlib temp=alpha*A int8", before);
	netlib_ref(M, N, K, alpha, beta, A, B, R);
	/* the reference rounds temp = alpha*A too: one more rounding (4) */
	bnd_init(&x, MP_LP_INT8, 0, M, N, K, A, K, 1, B, N, 1, NULL, alpha, 4);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float cb = C0[i * N + j] * beta;
			expect("netlib int8", C[i * N + j], R[i * N + j], bnd_tol(&x, i, j, cb, 0),
			       i, j);
		}
	bnd_free(&x);
	if (mk > 0 && kn > 0) {
		B[kn / 2] = INFINITY;
		memcpy(C, C0, mn * 4);
		memcpy(R, C0, mn * 4);
		before = fallback_count();
		netlib_lp(M, N, K, alpha, beta, A, B, C);
		check_fallback("netlib int8 Inf", before);
		netlib_ref(M, N, K, alpha, beta, A, B, R);
		expect_same("netlib int8 Inf", C, R, mn * 4);
	}
	/* temp = alpha*A(i,k) overflows to infinity in the loop as written
	 * while alpha*A*B would not (B tiny): the call must fall back and
	 * give the loop's infinities and NaNs, bit for bit (issue 14) */
	if (mk > 0 && kn > 0) {
		float *Bt = fvec(kn, 0, 0);
		for (size_t q = 0; q < kn; q++)
			Bt[q] = B[q] * 1e-30f;
		Bt[kn / 2] = 1e-30f;
		A[mk / 2] = 1e30f;
		memcpy(C, C0, mn * 4);
		memcpy(R, C0, mn * 4);
		before = fallback_count();
		netlib_lp(M, N, K, 1e10f, beta, A, Bt, C);
		check_fallback("netlib temp=alpha*A overflows", before);
		netlib_ref(M, N, K, 1e10f, beta, A, Bt, R);
		expect_same("netlib temp=alpha*A overflows", C, R, mn * 4);
		A[mk / 2] = 0.25f;
		free(Bt);
	}
	/* per-column explicit scales of B (B restored: finite) */
	if (kn > 0)
		B[kn / 2] = 0.5f;
	float *ws = fvec((size_t)N, 0, 0);
	for (int j = 0; j < N; j++)
		ws[j] = (float)(0.02 + 0.05 * fabs(rnd()));
	netlib_ws = ws;
	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	netlib_ws_lp(M, N, K, alpha, beta, A, B, C);
	check_fast("netlib scale=(dynamic, ws[j])", before);
	netlib_ref(M, N, K, alpha, beta, A, B, R);
	{
		mp_lp_scales sc = { 0, NULL, 0, ws, 1 };
		bnd_init(&x, MP_LP_INT8, 0, M, N, K, A, K, 1, B, N, 1, &sc, alpha, 4);
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				expect("netlib ws[j]", C[i * N + j], R[i * N + j],
				       bnd_tol(&x, i, j, C0[i * N + j] * beta, 0), i, j);
		bnd_free(&x);
	}
	free(ws);
	free(A), free(B), free(C0), free(C), free(R);
}

/* (h) constant=w: the second call (from the packed form) gives the first
 * call's bits; new weights after mp_lp_forget, or everywhere new at the
 * same address (the fingerprint sees it), give the new weights' result */
static void check_dense(const char *what, mp_lp lp, int M, int N, int K, const float *x,
			const float *w, const float *b, const float *y, const float *r)
{
	bnd q;
	bnd_init(&q, lp, 0, M, N, K, x, K, 1, w, 1, K, NULL, 1.0, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			/* relu is 1-Lipschitz */
			expect(what, y[i * N + j], r[i * N + j], bnd_tol(&q, i, j, b[j], 0), i, j);
	bnd_free(&q);
}

static void run_dense_const(int M, int N, int K)
{
	size_t mk = (size_t)M * K, nk = (size_t)N * K, mn = (size_t)M * N;
	float *x = fvec(mk, 1, 0), *w = fvec(nk, 0.5, 0), *b = fvec((size_t)N, 2, 0);
	float *y1 = fvec(mn, 0, 0), *y2 = fvec(mn, 0, 0), *r = fvec(mn, 0, 0);
	void (*fn[2])(int, int, int, const float *, const float *, const float *, float *) = {
		dense_const_lp, dense_const_bf16_lp };
	mp_lp lps[2] = { MP_LP_INT8, MP_LP_BF16 };
	long before;

	for (int v = 0; v < 2; v++) {
		const char *what = v ? "constant=w bf16" : "constant=w int8";
		before = fast_count();
		fn[v](M, N, K, x, w, b, y1);
		fn[v](M, N, K, x, w, b, y2);
		check_fast(what, before);
		dense_ref(M, N, K, x, w, b, r);
		check_dense(what, lps[v], M, N, K, x, w, b, y1, r);
		expect_same(what, y1, y2, mn * 4);
		/* new weights, forgotten first */
		for (size_t q = 0; q < nk; q++)
			w[q] = -0.75f * w[q] + 0.125f;
		mp_lp_forget(w);
		fn[v](M, N, K, x, w, b, y1);
		dense_ref(M, N, K, x, w, b, r);
		check_dense(what, lps[v], M, N, K, x, w, b, y1, r);
		/* new weights everywhere without mp_lp_forget (a new array at the
		   same address): seen by the fingerprint */
		for (size_t q = 0; q < nk; q++)
			w[q] = 1.5f * w[q] - 0.25f;
		fn[v](M, N, K, x, w, b, y1);
		dense_ref(M, N, K, x, w, b, r);
		check_dense(what, lps[v], M, N, K, x, w, b, y1, r);
	}
	free(x), free(w), free(b), free(y1), free(y2), free(r);
}

/* (h2) `s -= a*b`: the same bound as the sum's (the tolerance is symmetric) */
static void run_resid(int M, int N, int K)
{
	size_t mk = (size_t)M * K, nk = (size_t)N * K, mn = (size_t)M * N;
	float *x = fvec(mk, 1, 0), *w = fvec(nk, 0.5, 0), *b = fvec((size_t)N, 2, 0);
	float *y = fvec(mn, 0, 0), *r = fvec(mn, 0, 0);
	void (*fn[2])(int, int, int, const float *, const float *, const float *, float *) = {
		resid_lp, resid_bf16_lp };
	mp_lp lps[2] = { MP_LP_INT8, MP_LP_BF16 };

	for (int v = 0; v < 2; v++) {
		const char *what = v ? "residual bf16" : "residual int8";
		long before = fast_count();
		fn[v](M, N, K, x, w, b, y);
		check_fast(what, before);
		resid_ref(M, N, K, x, w, b, r);
		check_dense(what, lps[v], M, N, K, x, w, b, y, r);
	}
	free(x), free(w), free(b), free(y), free(r);
}

/* (i) zero points: the bound on the differences as the loop computes them */
static void run_zp(int M, int N, int K)
{
	size_t mk = (size_t)M * K, nk = (size_t)N * K, mn = (size_t)M * N;
	float *x = fvec(mk, 1, 0), *w = fvec(nk, 0.5, 0), *y = fvec(mn, 0, 0), *r = fvec(mn, 0, 0);
	float *xd = fvec(mk, 0, 0);
	const float xm = 100.0f;
	long before;
	bnd q;

	for (size_t t = 0; t < mk; t++) {
		x[t] += xm;           /* centred at 100: quantizing x itself would lose it */
		xd[t] = x[t] - xm;    /* the differences, as the loop computes them */
	}
	before = fast_count();
	zp_lp(M, N, K, xm, x, w, y);
	check_fast("zero point (x - xm) int8", before);
	zp_ref(M, N, K, xm, x, w, r);
	bnd_init(&q, MP_LP_INT8, 0, M, N, K, xd, K, 1, w, 1, K, NULL, 1.0, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("zero point int8", y[i * N + j], r[i * N + j], bnd_tol(&q, i, j, 0, 0),
			       i, j);
	before = fast_count();
	zpn_lp(M, N, K, xm, x, w, y);
	check_fast("zero point (xm - x) * -w int8", before);
	zpn_ref(M, N, K, xm, x, w, r);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("zero point negated int8", y[i * N + j], r[i * N + j],
			       bnd_tol(&q, i, j, 0, 0), i, j);
	bnd_free(&q);

	double *A = dvec(mk, 1), *B = dvec((size_t)K * N, 1), *C0 = dvec(mn, 5);
	double *C = dvec(mn, 0), *R = dvec(mn, 0), *Bd = dvec((size_t)K * N, 0);
	const double bm = -3.25;
	for (size_t t = 0; t < mk; t++)
		A[t] = fabs(A[t]);    /* non-negative: uint8's range */
	for (size_t t = 0; t < (size_t)K * N; t++)
		Bd[t] = B[t] + bm;
	memcpy(C, C0, mn * 8);
	memcpy(R, C0, mn * 8);
	before = fast_count();
	zpd_lp(M, N, K, bm, A, B, C);
	check_fast("zero point (B + bm) uint8 double", before);
	zpd_ref(M, N, K, bm, A, B, R);
	bnd_init(&q, MP_LP_UINT8, 1, M, N, K, A, K, 1, Bd, N, 1, NULL, 1.0, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("zero point uint8 double", C[i * N + j], R[i * N + j],
			       bnd_tol(&q, i, j, C0[i * N + j], 1), i, j);
	bnd_free(&q);
	free(x), free(w), free(y), free(r), free(xd);
	free(A), free(B), free(C0), free(C), free(R), free(Bd);
}

/* (j) kij order, temporary 2*A(i,k), bf16 */
static void run_kij(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *A = fvec(mk, 1, 0), *B = fvec(kn, 2, 0), *C0 = fvec(mn, 9, 0);
	float *C = fvec(mn, 0, 0), *R = fvec(mn, 0, 0);
	long before;
	bnd q;

	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	kij_lp(M, N, K, A, B, C);
	check_fast("kij temp bf16", before);
	kij_ref(M, N, K, A, B, R);
	bnd_init(&q, MP_LP_BF16, 0, M, N, K, A, K, 1, B, N, 1, NULL, 2.0, 3);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("kij temp bf16", C[i * N + j], R[i * N + j],
			       bnd_tol(&q, i, j, C0[i * N + j], 0), i, j);
	/* GSL's guarded form, double, zeros in A (the guard skips them) */
	{
		double *Ad = dvec(mk, 1), *Bd = dvec(kn, 2), *Cd0 = dvec(mn, 9);
		double *Cd = dvec(mn, 0), *Rd = dvec(mn, 0);
		bnd qd;
		for (size_t t = 0; t < mk; t += 3)
			Ad[t] = 0;
		memcpy(Cd, Cd0, mn * 8);
		memcpy(Rd, Cd0, mn * 8);
		before = fast_count();
		gsl_lp(M, N, K, 1.5, Ad, Bd, Cd);
		check_fast("gsl guarded bf16", before);
		gsl_ref(M, N, K, 1.5, Ad, Bd, Rd);
		bnd_init(&qd, MP_LP_BF16, 1, M, N, K, Ad, K, 1, Bd, N, 1, NULL, 1.5, 3);
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				expect("gsl guarded bf16", Cd[i * N + j], Rd[i * N + j],
				       bnd_tol(&qd, i, j, Cd0[i * N + j], 1), i, j);
		/* the element's guard: zeros in B (A's zeros as B) */
		memcpy(Cd, Cd0, mn * 8);
		memcpy(Rd, Cd0, mn * 8);
		for (size_t t = 1; t < kn; t += 4)
			Bd[t] = 0;
		before = fast_count();
		elem_lp(M, N, K, 1.5, Ad, Bd, Cd);
		check_fast("f2c element guard bf16", before);
		elem_ref(M, N, K, 1.5, Ad, Bd, Rd);
		bnd qe;
		bnd_init(&qe, MP_LP_BF16, 1, M, N, K, Ad, 1, M, Bd, 1, K, NULL, 1.5, 3);
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				expect("f2c element guard bf16", Cd[i + j * M], Rd[i + j * M],
				       bnd_tol(&qe, i, j, Cd0[i + j * M], 1), i, j);
		bnd_free(&qe);
		memcpy(Cd, Cd0, mn * 8);
		memcpy(Rd, Cd0, mn * 8);
		before = fast_count();
		skip_lp(M, N, K, 1.5, Ad, Bd, Cd);
		check_fast("glpk-style skip bf16", before);
		skip_ref(M, N, K, 1.5, Ad, Bd, Rd);
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				expect("glpk-style skip bf16", Cd[i * N + j], Rd[i * N + j],
				       bnd_tol(&qd, i, j, Cd0[i * N + j], 1), i, j);
		bnd_free(&qd);
		free(Ad), free(Bd), free(Cd0), free(Cd), free(Rd);
	}
	/* the same subtracted: C0 - sum, within the same (symmetric) bound */
	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	kij_sub_lp(M, N, K, A, B, C);
	check_fast("kij sub bf16", before);
	kij_sub_ref(M, N, K, A, B, R);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("kij sub bf16", C[i * N + j], R[i * N + j],
			       bnd_tol(&q, i, j, C0[i * N + j], 0), i, j);
	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	kij_neg_lp(M, N, K, A, B, C);
	check_fast("kij negated product bf16", before);
	kij_neg_ref(M, N, K, A, B, R);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("kij negated product bf16", C[i * N + j], R[i * N + j],
			       bnd_tol(&q, i, j, C0[i * N + j], 0), i, j);
	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	kij_negneg_lp(M, N, K, A, B, C);
	check_fast("kij doubly negated product bf16", before);
	kij_negneg_ref(M, N, K, A, B, R);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("kij doubly negated product bf16", C[i * N + j], R[i * N + j],
			       bnd_tol(&q, i, j, C0[i * N + j], 0), i, j);
	bnd_free(&q);
	free(A), free(B), free(C0), free(C), free(R);
}

/* C[i*ldc + j] += ...: ldc >= N on the kernels; ldc = N - 1, N / 2 and 0
   (rows that overlap) the loop as written, bit for bit */
static void run_ldc(int M, int N, int K)
{
	if (M < 2 || N < 2)
		return;
	size_t mk = (size_t)M * K, kn = (size_t)K * N, ny = (size_t)M * (N + 3);
	float *A = fvec(mk, 1, 0), *B = fvec(kn, 2, 0), *C0 = fvec(ny, 9, 0);
	float *C = fvec(ny, 0, 0), *R = fvec(ny, 0, 0);
	int lds[4] = { N + 3, N - 1, N / 2, 0 };
	char what[64];

	for (int l = 0; l < 4; l++) {
		long before = lds[l] >= N ? fast_count() : fallback_count();
		memcpy(C, C0, ny * 4);
		memcpy(R, C0, ny * 4);
		ldc_lp(M, N, K, lds[l], A, B, C);
		ldc_ref(M, N, K, lds[l], A, B, R);
		snprintf(what, sizeof what, "ldc %d of %d rows", lds[l], N);
		if (lds[l] >= N) {
			check_fast("ldc_lp", before);   /* one name per nest (VERIFY_ALL) */
			bnd q;
			bnd_init(&q, MP_LP_BF16, 0, M, N, K, A, K, 1, B, N, 1, NULL, 1.0, 2);
			for (int i = 0; i < M; i++)
				for (int j = 0; j < N; j++)
					expect(what, C[i * lds[l] + j], R[i * lds[l] + j],
					       bnd_tol(&q, i, j, C0[i * lds[l] + j], 0), i, j);
			bnd_free(&q);
		} else {
			check_fallback(what, before);
			expect_same(what, C, R, ny * 4);
		}
	}
	free(A), free(B), free(C0), free(C), free(R);
}

/* C's old value near FLT_MAX in direct mode: FLT_MAX + 1e37 - 1e37 is
   infinity in the loop as written (its partial sum overflows) and would be
   FLT_MAX through one addition of the sum: the call must run the loop
   (found by a review helper) */
static void run_cbig(void)
{
	enum { M = 2, N = 3, K = 2 };
	float A[M * K], B[K * N], C[M * N], R[M * N];
	for (int i = 0; i < M * K; i++)
		A[i] = 1e19f;
	for (int k = 0; k < K; k++)
		for (int j = 0; j < N; j++)
			B[k * N + j] = k ? -1e18f : 1e18f;
	for (int i = 0; i < M * N; i++)
		C[i] = R[i] = i == 4 ? -3.4e38f : 3.4e38f;
	long before = fallback_count();
	ldc_lp(M, N, K, N, A, B, C);
	check_fallback("C near FLT_MAX", before);
	ldc_ref(M, N, K, N, A, B, R);
	expect_same("C near FLT_MAX", C, R, sizeof C);
	/* one addition away from it: the kernels, and the same values */
	for (int i = 0; i < M * N; i++)
		C[i] = R[i] = 1e38f;
	before = fast_count();
	ldc_lp(M, N, K, N, A, B, C);
	check_fast("ldc_lp", before);
	ldc_ref(M, N, K, N, A, B, R);
	for (int i = 0; i < M * N; i++)
		expect("C at 1e38", C[i], R[i], 1e38 * 0x1p-20, i / N, i % N);
}

/* (n) three batches of M x N x K at int8, each checked against the bound
   of its own call */
static void run_batch(int M, int N, int K)
{
	const int nb = 3;
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *A = fvec(nb * mk, 1, 0), *B = fvec(nb * kn, 2, 0);
	float *C = fvec(nb * mn, 0, 0), *R = fvec(nb * mn, 0, 0);
	long before;
	bnd q;

	before = fast_count();
	batch_lp(nb, M, N, K, A, B, C);
	if (M > 0 && N > 0)
		check_fast("batch int8", before);
	batch_ref(nb, M, N, K, A, B, R);
	for (int b = 0; b < nb; b++) {
		bnd_init(&q, MP_LP_INT8, 0, M, N, K, A + b * mk, K, 1, B + b * kn, N, 1, NULL,
			 1.0, 2);
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				expect("batch int8", C[b * mn + i * N + j], R[b * mn + i * N + j],
				       bnd_tol(&q, i, j, 0, 0), i, j);
		bnd_free(&q);
	}
	free(A), free(B), free(C), free(R);
}

/* The im2col view of an NHWC image for a KH x KW window, stride S,
   padding P: row (oy*OW + ox), column (fy*KW + fx)*C + c, 0 outside the
   image (what the padded loop leaves out); T: float or double */
#define IM2COL(T, NAME) \
static T *NAME(const T *in, int H, int W, int C, int KH, int KW, int S, int P, int OH, int OW) \
{ \
	size_t kt = (size_t)KH * KW * C; \
	T *a = calloc((size_t)OH * OW * kt + 1, sizeof(T)); \
	for (int oy = 0; oy < OH; oy++) \
		for (int ox = 0; ox < OW; ox++) \
			for (int fy = 0; fy < KH; fy++) \
				for (int fx = 0; fx < KW; fx++) { \
					int y = oy * S + fy - P, x = ox * S + fx - P; \
					if (y < 0 || y >= H || x < 0 || x >= W) \
						continue; \
					memcpy(a + ((size_t)oy * OW + ox) * kt + ((size_t)fy * KW + fx) * C, \
					       in + ((size_t)y * W + x) * C, sizeof(T) * (size_t)C); \
				} \
	return a; \
}
IM2COL(float, im2col_f)
IM2COL(double, im2col_d)

/* (l) float convolutions, padded: against the reference loop within the
   bound of the equivalent matrix product (im2col rows, the filter as
   columns) */
static void run_conv(int M, int N, int K)
{
	int H = 1 + M % 9, W = 2 + (M + K) % 8, C = 1 + K % 33, OC = 1 + N % 29;
	int KH = 1 + M % 3, KW = 1 + N % 3, S = 1 + K % 2, P = (M + N) % 3;
	int OH = (H + 2 * P - KH) / S + 1, OW = (W + 2 * P - KW) / S + 1;
	if (H + 2 * P < KH || W + 2 * P < KW)
		OH = OW = 0;
	size_t kt = (size_t)KH * KW * C, no = (size_t)OH * OW * OC;
	float *in = fvec((size_t)H * W * C, 1, 0), *w = fvec((size_t)OC * kt, 2, 0);
	float *bias = fvec((size_t)OC, 1, 0), *o = fvec(no, 0, 0), *r = fvec(no, 0, 0);
	long before = fast_count();
	bnd q;

	conv_lp(H, W, C, OC, KH, KW, S, P, OH, OW, in, w, bias, o);
	if (OH > 0 && OW > 0)
		check_fast("conv bf16", before);
	conv_ref(H, W, C, OC, KH, KW, S, P, OH, OW, in, w, bias, r);
	float *a = im2col_f(in, H, W, C, KH, KW, S, P, OH, OW);
	bnd_init(&q, MP_LP_BF16, 0, (long)OH * OW, OC, (long)kt, a, (long)kt, 1, w, 1, (long)kt,
		 NULL, 1.0, 2);
	for (long i = 0; i < (long)OH * OW; i++)
		for (int j = 0; j < OC; j++)
			expect("conv bf16", o[i * OC + j], r[i * OC + j],
			       bnd_tol(&q, i, j, bias[j], 0) + 0x1p-24 * fabs(r[i * OC + j]), i, j);
	bnd_free(&q);
	free(a), free(in), free(w), free(bias), free(o), free(r);

	/* double, accumulated into the output, stride 1, padding P on each side */
	int Pd = 1 + M % 2, KD = 2 * Pd + 1;
	size_t kd = (size_t)KD * KD * C, nd = (size_t)H * W * OC;
	double *din = dvec((size_t)H * W * C, 1), *dw = dvec((size_t)OC * kd, 1);
	double *d0 = dvec(nd, 4), *d1 = malloc(sizeof(double) * (nd + 1));
	memcpy(d1, d0, sizeof(double) * nd);
	before = fast_count();
	convacc_lp(H, W, C, OC, Pd, din, dw, d0);
	check_fast("conv += bf16", before);
	double *init = malloc(sizeof(double) * (nd + 1));
	memcpy(init, d1, sizeof(double) * nd);
	convacc_ref(H, W, C, OC, Pd, din, dw, d1);
	double *da = im2col_d(din, H, W, C, KD, KD, 1, Pd, H, W);
	bnd_init(&q, MP_LP_BF16, 1, (long)H * W, OC, (long)kd, da, (long)kd, 1, dw, 1, (long)kd,
		 NULL, 1.0, 2);
	for (long i = 0; i < (long)H * W; i++)
		for (int j = 0; j < OC; j++)
			expect("conv += bf16", d0[i * OC + j], d1[i * OC + j],
			       bnd_tol(&q, i, j, init[i * OC + j], 1), i, j);
	bnd_free(&q);
	free(da), free(din), free(dw), free(d0), free(d1), free(init);

	/* NCHW, oc outermost, rows over (oh, ow): bf16 and int8 (scales per
	   row of the im2col matrix, one row per (oh, ow)) */
	int C2 = 1 + N % 5, H2 = 1 + M % 11, W2 = 1 + (K * 7) % 13, OC2 = 1 + (M + K) % 9;
	int KH2 = 1 + K % 3, KW2 = 1 + M % 4;
	int OH2 = H2 - KH2 + 1, OW2 = W2 - KW2 + 1;
	if (OH2 < 1 || OW2 < 1)
		H2 = KH2 + 2, W2 = KW2 + 4, OH2 = 3, OW2 = 5;
	size_t kt2 = (size_t)C2 * KH2 * KW2, rows = (size_t)OH2 * OW2, no2 = rows * OC2;
	float *in2 = fvec((size_t)C2 * H2 * W2, 1, 0), *w2 = fvec((size_t)OC2 * kt2, 2, 0);
	float *o2 = fvec(no2, 0, 0), *r2 = fvec(no2, 0, 0);
	float *col = malloc(sizeof(float) * (rows * kt2 + 1));
	for (int oh = 0; oh < OH2; oh++)
		for (int ow = 0; ow < OW2; ow++)
			for (int c = 0; c < C2; c++)
				for (int kh = 0; kh < KH2; kh++)
					for (int kw = 0; kw < KW2; kw++)
						col[(size_t)(oh * OW2 + ow) * kt2 + (c * KH2 + kh) * KW2 + kw] =
							in2[(c * H2 + oh + kh) * W2 + ow + kw];
	convnchw_ref(C2, H2, W2, OC2, KH2, KW2, in2, w2, r2);
	for (int pass = 0; pass < 2; pass++) {
		const char *what = pass ? "conv nchw int8" : "conv nchw bf16";
		before = fast_count();
		if (pass)
			convnchw_i8(C2, H2, W2, OC2, KH2, KW2, in2, w2, o2);
		else
			convnchw_lp(C2, H2, W2, OC2, KH2, KW2, in2, w2, o2);
		check_fast(what, before);
		bnd_init(&q, pass ? MP_LP_INT8 : MP_LP_BF16, 0, (long)rows, OC2, (long)kt2, col,
			 (long)kt2, 1, w2, 1, (long)kt2, NULL, 1.0, 2);
		for (long i = 0; i < (long)rows; i++)
			for (int j = 0; j < OC2; j++)
				expect(what, o2[j * rows + i], r2[j * rows + i],
				       bnd_tol(&q, i, j, 0, 0), i, j);
		bnd_free(&q);
	}
	free(col), free(in2), free(w2), free(o2), free(r2);
}

/* (k) s += A*B / 4, fp8_e4m3 */
static void run_div(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *A = fvec(mk, 3, 0), *B = fvec(kn, 1, 0), *C = fvec(mn, 0, 0), *R = fvec(mn, 0, 0);
	long before = fast_count();
	bnd q;

	div_lp(M, N, K, A, B, C);
	check_fast("A*B/4 fp8_e4m3", before);
	div_ref(M, N, K, A, B, R);
	bnd_init(&q, MP_LP_FP8_E4M3, 0, M, N, K, A, K, 1, B, N, 1, NULL, 0.25, 3);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("A*B/4 fp8_e4m3", C[i * N + j], R[i * N + j], bnd_tol(&q, i, j, 0, 0), i, j);
	bnd_free(&q);
	free(A), free(B), free(C), free(R);
}

/* (c) ikj order: float int8 and fp8_e4m3, double bf16 */
static void run_ikj(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *A = fvec(mk, 1, 0), *B = fvec(kn, 0.5, 0), *C = fvec(mn, 7, 0), *R = fvec(mn, 7, 0);
	double *Ad = dvec(mk, 1e-2), *Bd = dvec(kn, 1), *Cd = dvec(mn, 7), *Rd = dvec(mn, 7);
	long before;
	bnd x;

	before = fast_count();
	ikj_i8_lp(M, N, K, A, B, C);
	check_fast("ikj int8", before);
	ikj_ref(M, N, K, A, B, R);
	bnd_init(&x, MP_LP_INT8, 0, M, N, K, A, K, 1, B, N, 1, NULL, 1, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("ikj int8", C[i * N + j], R[i * N + j], bnd_tol(&x, i, j, 0, 0), i, j);
	bnd_free(&x);

	before = fast_count();
	ikj_e4m3_lp(M, N, K, A, B, C);
	check_fast("ikj fp8_e4m3", before);
	bnd_init(&x, MP_LP_FP8_E4M3, 0, M, N, K, A, K, 1, B, N, 1, NULL, 1, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("ikj fp8_e4m3", C[i * N + j], R[i * N + j], bnd_tol(&x, i, j, 0, 0),
			       i, j);
	bnd_free(&x);

	before = fast_count();
	ikj_bf16_d_lp(M, N, K, Ad, Bd, Cd);
	check_fast("ikj bf16 double", before);
	ikj_d_ref(M, N, K, Ad, Bd, Rd);
	bnd_init(&x, MP_LP_BF16, 1, M, N, K, Ad, K, 1, Bd, N, 1, NULL, 1, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("ikj bf16 double", Cd[i * N + j], Rd[i * N + j],
			       bnd_tol(&x, i, j, 0, 0), i, j);
	bnd_free(&x);

	if (mk > 0 && kn > 0) {
		B[kn / 3] = NAN;
		before = fallback_count();
		ikj_i8_lp(M, N, K, A, B, C);
		check_fallback("ikj int8 NaN", before);
		ikj_ref(M, N, K, A, B, R);
		expect_same("ikj int8 NaN", C, R, mn * 4);
	}
	free(A), free(B), free(C), free(R), free(Ad), free(Bd), free(Cd), free(Rd);
}

/* (t) triangular nests: n = M rows; the other triangle stays as it was */
static void run_tri(int M, int K)
{
	int N = M;
	size_t nk = (size_t)N * K, nn = (size_t)N * N;
	float *A = fvec(nk, 1, 0), *C = fvec(nn, 5, 0), *R = malloc(nn * 4 + 4);
	double *Ad = dvec(nk, 3), *C0 = dvec(nn, 20), *Cd = dvec(nn, 0), *Rd = dvec(nn, 0);
	double alpha = 0.5 + fabs(rnd()), beta = rnd();
	long before;
	bnd x;

	memcpy(R, C, nn * 4);
	before = fast_count();
	tri_i8_lp(N, K, A, C);
	check_fast("triangular int8", before);
	tri_ref(N, K, A, R);
	/* B(k, j) = A[j*K + k] */
	bnd_init(&x, MP_LP_INT8, 0, N, N, K, A, K, 1, A, 1, K, NULL, 1, 2);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			expect("triangular int8", C[i * N + j], R[i * N + j],
			       j <= i ? bnd_tol(&x, i, j, 0, 0) : 0, i, j);
	bnd_free(&x);

	before = fast_count();
	tri_bf16_lp(N, K, A, C);
	check_fast("triangular bf16", before);
	bnd_init(&x, MP_LP_BF16, 0, N, N, K, A, K, 1, A, 1, K, NULL, 1, 2);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			expect("triangular bf16", C[i * N + j], R[i * N + j],
			       j <= i ? bnd_tol(&x, i, j, 0, 0) : 0, i, j);
	bnd_free(&x);

	memcpy(Cd, C0, nn * 8);
	memcpy(Rd, C0, nn * 8);
	before = fast_count();
	syrk_bf16_lp(N, K, alpha, beta, (void *)Cd, (const void *)Ad);
	if (N > 1)   /* the strict triangle of one row is empty: no call */
		check_fast("syrk bf16 double", before);
	syrk_ref(N, K, alpha, beta, (void *)Rd, (const void *)Ad);
	bnd_init(&x, MP_LP_BF16, 1, N, N, K, Ad, K, 1, Ad, 1, K, NULL, alpha, 3);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			expect("syrk bf16 double", Cd[i * N + j], Rd[i * N + j],
			       j < i ? bnd_tol(&x, i, j, C0[i * N + j] * beta, 0) : 0, i, j);
	bnd_free(&x);

	if (nk > 0) {
		A[nk / 2] = NAN;
		before = fallback_count();
		tri_i8_lp(N, K, A, C);
		check_fallback("triangular int8 NaN", before);
		tri_ref(N, K, A, R);
		expect_same("triangular int8 NaN", C, R, nn * 4);
	}
	free(A), free(C), free(R), free(Ad), free(C0), free(Cd), free(Rd);
}

/* (m) trmm in place (fixed-size arrays, as PolyBench declares them):
   against the reference within the bound of the product by A's strict
   lower triangle (A^T's terms k > i), scaled by alpha; the elements
   outside the m x n corner are the reference's exactly */
static void run_trmm(int M, int N)
{
	size_t mm = (size_t)M * M, nt = (size_t)TRN * TRN;
	float *A = fvec(nt, 1, 0), *At = malloc(mm * 4 + 4), *B0 = fvec(nt, 2, 0);
	float *B = malloc(nt * 4 + 4), *R = malloc(nt * 4 + 4);
	float alpha = (float)(0.5 + fabs(rnd()));
	static const struct { mp_lp lp; const char *name; } P[2] = {
		{ MP_LP_BF16, "trmm bf16" }, { MP_LP_INT8, "trmm int8" } };

	/* the triangle the sum reads: At(i, k) = A[k][i] for k > i, else 0 */
	if (M > TRN || N > TRN)
		return;
	for (int i = 0; i < M; i++)
		for (int k = 0; k < M; k++)
			At[i * M + k] = k > i ? A[k * TRN + i] : 0;
	memcpy(R, B0, nt * 4);
	trmm_ref(M, N, alpha, (void *)A, (void *)R);
	for (int p = 0; p < 2; p++) {
		long before = fast_count();
		bnd x;

		memcpy(B, B0, nt * 4);
		if (p == 0)
			trmm_bf16_lp(M, N, alpha, (void *)A, (void *)B);
		else
			trmm_i8_lp(M, N, alpha, (void *)A, (void *)B);
		/* M == 1: k from i + 1 to m - 1 has no iteration, nothing to
		   sum: the loop as written runs, the call is not made */
		if (M > 1 && N > 0)
			check_fast(P[p].name, before);
		bnd_init(&x, P[p].lp, 0, M, N, M, At, M, 1, B0, TRN, 1, NULL, 1.0, 3);
		for (int i = 0; i < TRN; i++)
			for (int j = 0; j < TRN; j++)
				expect(P[p].name, B[i * TRN + j], R[i * TRN + j],
				       i < M && j < N ? alpha * bnd_tol(&x, i, j, B0[i * TRN + j], 1) +
				       0x1p-23 * fabs(R[i * TRN + j]) : 0, i, j);
		bnd_free(&x);
	}
	free(A), free(At), free(B0), free(B), free(R);
}

/* (d) explicit scales */
static void run_scales(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *A = fvec(mk, 1, 0), *B = fvec(kn, 2, 0), *C0 = fvec(mn, 5, 0);
	float *C = fvec(mn, 0, 0), *R = fvec(mn, 0, 0);
	float *sw = fvec(N, 0, 0), *xs = fvec(M, 0, 0), *wdf = fvec(N, 0, 0);
	double *Ad = dvec(mk, 3), *Bd = dvec(kn, 1e-3), *Cd0 = dvec(mn, 1);
	double *Cd = dvec(mn, 0), *Rd = dvec(mn, 0), *wd = dvec(N, 0);
	int jlo = N / 3, ilo = M / 4;
	float sx = 0, one = 0.01f;
	long before;
	bnd x;

	/* d1: scale=(sx, sw[j]); scales around the dynamic ones, some
	   saturating */
	for (int i = 0; i < M; i++)
		sx = (float)fmax(sx, amax_row(A, 0, i, K, K, 1));
	sx = (float)(sx / 127 * (0.8 + 0.4 * fabs(rnd())));
	for (int j = 0; j < N; j++)
		sw[j] = (float)(amax_row(B, 0, j, K, 1, N) / 127 * (0.8 + 0.4 * fabs(rnd())));
	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	sc1_lp(M, N, K, jlo, sx, sw, A, B, C);
	check_fast("scale=(sx, sw[j]) int8", before);
	sc1_ref(M, N, K, jlo, sx, sw, A, B, R);
	{
		mp_lp_scales sc = { 0, &sx, 0, sw + jlo, 1 };
		bnd_init(&x, MP_LP_INT8, 0, M, N - jlo, K, A, K, 1, B + jlo, N, 1, &sc, 1, 2);
	}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("scale=(sx, sw[j]) int8", C[i * N + j], R[i * N + j],
			       j < jlo ? 0 : bnd_tol(&x, i, j - jlo, 0, 0), i, j);
	bnd_free(&x);
	/* unusable scales at run time: the original loop runs */
	if (mk > 0 && kn > 0) {
		memcpy(C, C0, mn * 4);
		memcpy(R, C0, mn * 4);
		before = fallback_count();
		sc1_lp(M, N, K, jlo, 0.0f, sw, A, B, C);
		check_fallback("scale=(0, sw[j])", before);
		sc1_ref(M, N, K, jlo, 0.0f, sw, A, B, R);
		expect_same("scale=(0, sw[j])", C, R, mn * 4);
		sw[N - 1] = NAN;
		before = fallback_count();
		sc1_lp(M, N, K, jlo, sx, sw, A, B, C);
		check_fallback("scale=(sx, NaN)", before);
		sc1_ref(M, N, K, jlo, sx, sw, A, B, R);
		expect_same("scale=(sx, NaN)", C, R, mn * 4);
	}

	/* d2: scale=(0.01f, dynamic) */
	before = fast_count();
	sc2_lp(M, N, K, A, B, C);
	check_fast("scale=(0.01f, dynamic) int8", before);
	sc2_ref(M, N, K, A, B, R);
	{
		mp_lp_scales sc = { 0, &one, 0, NULL, 0 };
		bnd_init(&x, MP_LP_INT8, 0, M, N, K, A, K, 1, B, N, 1, &sc, 1, 2);
	}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("scale=(0.01f, dynamic) int8", C[i * N + j], R[i * N + j],
			       bnd_tol(&x, i, j, 0, 0), i, j);
	bnd_free(&x);

	/* d3: scale=(dynamic, wd[j]), double, direct; the runtime reads the
	   double scales as floats */
	for (int j = 0; j < N; j++) {
		wd[j] = amax_row(Bd, 1, j, K, 1, N) / 127 * (0.9 + 0.2 * fabs(rnd()));
		wdf[j] = (float)wd[j];
	}
	memcpy(Cd, Cd0, mn * 8);
	memcpy(Rd, Cd0, mn * 8);
	before = fast_count();
	sc3_lp(M, N, K, wd, Ad, Bd, Cd);
	check_fast("scale=(dynamic, wd[j]) int8 double", before);
	sc3_ref(M, N, K, wd, Ad, Bd, Rd);
	{
		mp_lp_scales sc = { 0, NULL, 0, wdf, 1 };
		bnd_init(&x, MP_LP_INT8, 1, M, N, K, Ad, K, 1, Bd, N, 1, &sc, 1, 2);
	}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("scale=(dynamic, wd[j]) int8 double", Cd[i * N + j], Rd[i * N + j],
			       bnd_tol(&x, i, j, Cd0[i * N + j], 1), i, j);
	bnd_free(&x);

	/* d4: scale=(fp8_xs[i], ws[j]), fp8_e4m3, rows from ilo */
	for (int i = 0; i < M; i++)
		fp8_xs[i] = (float)(amax_row(A, 0, i, K, K, 1) / 448 * (0.7 + 0.6 * fabs(rnd())));
	for (int j = 0; j < N; j++)
		sw[j] = (float)(amax_row(B, 0, j, K, 1, N) / 448 * (0.7 + 0.6 * fabs(rnd())));
	memcpy(C, C0, mn * 4);
	memcpy(R, C0, mn * 4);
	before = fast_count();
	sc4_lp(M, N, K, ilo, sw, A, B, C);
	check_fast("scale=(xs[i], ws[j]) fp8_e4m3", before);
	sc4_ref(M, N, K, ilo, sw, A, B, R);
	{
		mp_lp_scales sc = { 0, fp8_xs + ilo, 1, sw, 1 };
		bnd_init(&x, MP_LP_FP8_E4M3, 0, M - ilo, N, K, A + (size_t)ilo * K, K, 1, B, N, 1,
			 &sc, 1, 2);
	}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("scale=(xs[i], ws[j]) fp8_e4m3", C[i * N + j], R[i * N + j],
			       i < ilo ? 0 : bnd_tol(&x, i - ilo, j, 0, 0), i, j);
	bnd_free(&x);

	/* d5: B*A with scale=(wl[j], xs[i]) */
	for (int i = 0; i < M; i++)
		xs[i] = (float)(amax_row(A, 0, i, K, K, 1) / 127 * (0.9 + 0.2 * fabs(rnd())));
	for (int j = 0; j < N; j++)
		sw[j] = (float)(amax_row(B, 0, j, K, 1, N) / 127 * (0.9 + 0.2 * fabs(rnd())));
	before = fast_count();
	sc5_lp(M, N, K, xs, sw, A, B, C);
	check_fast("B*A scale=(wl[j], xs[i]) int8", before);
	sc5_ref(M, N, K, xs, sw, A, B, R);
	{
		mp_lp_scales sc = { 0, xs, 1, sw, 1 };
		bnd_init(&x, MP_LP_INT8, 0, M, N, K, A, K, 1, B, N, 1, &sc, 1, 2);
	}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("B*A scale=(wl[j], xs[i]) int8", C[i * N + j], R[i * N + j],
			       bnd_tol(&x, i, j, 0, 0), i, j);
	bnd_free(&x);

	/* d6: the scale visible at the loop, not the closed block's */
	{
		float sa = (float)(amax_row(A, 0, 0, (long)M * K, 1, 1) / 127);
		before = fast_count();
		sc6_lp(M, N, K, sa, A, B, C);
		check_fast("scale=(sa, dynamic) shadowed int8", before);
		sc6_ref(M, N, K, sa, A, B, R);
		mp_lp_scales sc = { 0, &sa, 0, NULL, 0 };
		bnd_init(&x, MP_LP_INT8, 0, M, N, K, A, K, 1, B, N, 1, &sc, 1, 2);
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				expect("scale=(sa, dynamic) shadowed int8", C[i * N + j],
				       R[i * N + j], bnd_tol(&x, i, j, 0, 0), i, j);
		bnd_free(&x);
	}
	free(A), free(B), free(C0), free(C), free(R), free(sw), free(xs), free(wdf);
	free(Ad), free(Bd), free(Cd0), free(Cd), free(Rd), free(wd);
}

/* (e) uint8: post-ReLU and signed A (float, tile), signed data (double,
 * direct, B transposed) */
static void run_uint8(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *B = fvec(kn, 1, 0), *bias = fvec(N, 3, 0), *C = fvec(mn, 0, 0);
	float *R = fvec(mn, 0, 0);
	double *Ad = dvec(mk, 5), *Bt = dvec(kn, 0.1), *Cd0 = dvec(mn, 10);
	double *Cd = dvec(mn, 0), *Rd = dvec(mn, 0);
	long before;
	bnd x;

	for (int relu = 1; relu >= 0; relu--) {
		float *A = fvec(mk, 2, relu);
		const char *what = relu ? "uint8 post-ReLU" : "uint8 signed";
		before = fast_count();
		u8f_lp(M, N, K, A, B, bias, C);
		check_fast("uint8 float", before);   /* one nest: one name */
		u8f_ref(M, N, K, A, B, bias, R);
		bnd_init(&x, MP_LP_UINT8, 0, M, N, K, A, K, 1, B, N, 1, NULL, 1, 2);
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				expect(what, C[i * N + j], R[i * N + j],
				       bnd_tol(&x, i, j, bias[j], 0), i, j);
		bnd_free(&x);
		free(A);
	}

	memcpy(Cd, Cd0, mn * 8);
	memcpy(Rd, Cd0, mn * 8);
	before = fast_count();
	u8d_lp(M, N, K, Ad, Bt, Cd);
	check_fast("uint8 double", before);
	i8_ref(M, N, K, Ad, Bt, Rd);
	bnd_init(&x, MP_LP_UINT8, 1, M, N, K, Ad, K, 1, Bt, 1, K, NULL, 1, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("uint8 double", Cd[i * N + j], Rd[i * N + j],
			       bnd_tol(&x, i, j, Cd0[i * N + j], 1), i, j);
	bnd_free(&x);
	free(B), free(bias), free(C), free(R), free(Ad), free(Bt), free(Cd0), free(Cd), free(Rd);
}

/* (f) the verify clause: the first call of the nest is verified (once in
 * the process), within the bound; later calls are not */
static int verify_first = 1;

static void run_verify(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	double *A = dvec(mk, 1), *B = dvec(kn, 1), *C = dvec(mn, 0), *R = dvec(mn, 0);
	long before, v0 = verified_count();
	bnd x;

	before = fast_count();
	verify_lp(M, N, K, A, B, C);
	check_fast("verify int8", before);
	expect_count("verify clause: stats.verified growth", verified_count() - v0, verify_first);
	verify_first = 0;
	e5m2_ref(M, N, K, A, B, R);
	bnd_init(&x, MP_LP_INT8, 1, M, N, K, A, K, 1, B, N, 1, NULL, 1, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("verify int8", C[i * N + j], R[i * N + j], bnd_tol(&x, i, j, 0, 0), i, j);
	bnd_free(&x);
	free(A), free(B), free(C), free(R);
}

/* MIXPREC_VERIFY: 0 never (even with the clause), 1 the first call of
 * every nest, all every call */
static void run_verify_env(void)
{
	int M = 19, N = 23, K = 41;
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	double *A = dvec(mk, 1), *B = dvec(kn, 1), *C0 = dvec(mn, 1);
	double *C = dvec(mn, 0), *R = dvec(mn, 0);
	long v0, before;
	bnd x;

	setenv("MIXPREC_VERIFY", "0", 1);
	mp_env_reload();
	v0 = verified_count();
	before = fast_count();
	memcpy(C, C0, mn * 8);
	env_lp(M, N, K, A, B, C);
	verify_lp(M, N, K, A, B, C);
	expect_count("MIXPREC_VERIFY=0: stats.verified growth", verified_count() - v0, 0);
	expect_count("MIXPREC_VERIFY=0: stats.fast growth", fast_count() - before, 2);

	setenv("MIXPREC_VERIFY", "1", 1);
	mp_env_reload();
	v0 = verified_count();
	memcpy(C, C0, mn * 8);
	env_lp(M, N, K, A, B, C);
	expect_count("MIXPREC_VERIFY=1, first call: stats.verified growth",
		     verified_count() - v0, 1);
	memcpy(R, C0, mn * 8);
	i8_ref(M, N, K, A, B, R);
	bnd_init(&x, MP_LP_BF16, 1, M, N, K, A, K, 1, B, 1, K, NULL, 1, 2);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("MIXPREC_VERIFY=1 bf16", C[i * N + j], R[i * N + j],
			       bnd_tol(&x, i, j, C0[i * N + j], 1), i, j);
	bnd_free(&x);
	v0 = verified_count();
	env_lp(M, N, K, A, B, C);
	verify_lp(M, N, K, A, B, C);
	expect_count("MIXPREC_VERIFY=1, later calls: stats.verified growth",
		     verified_count() - v0, 0);

	setenv("MIXPREC_VERIFY", "all", 1);
	mp_env_reload();
	v0 = verified_count();
	before = fast_count();
	env_lp(M, N, K, A, B, C);
	verify_lp(M, N, K, A, B, C);
	verify_lp(M, N, K, A, B, C);
	expect_count("MIXPREC_VERIFY=all: stats.verified growth", verified_count() - v0, 3);
	expect_count("MIXPREC_VERIFY=all: stats.fast growth", fast_count() - before, 3);

	unsetenv("MIXPREC_VERIFY");
	mp_env_reload();
	v0 = verified_count();
	env_lp(M, N, K, A, B, C);
	verify_lp(M, N, K, A, B, C);
	expect_count("MIXPREC_VERIFY unset, later calls: stats.verified growth",
		     verified_count() - v0, 0);
	free(A), free(B), free(C0), free(C), free(R);
}

static void run_shape(int M, int N, int K)
{
	size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
	float *Af = malloc(mk * 4 + 4), *Bf = malloc(kn * 4 + 4), *bias = malloc(N * 4 + 4);
	float *Cf = malloc(mn * 4 + 4), *Rf = malloc(mn * 4 + 4);
	double *Ad = malloc(mk * 8 + 8), *Bd = malloc(kn * 8 + 8);
	double *Cd = malloc(mn * 8 + 8), *Rd = malloc(mn * 8 + 8), *C0 = malloc(mn * 8 + 8);
	long before;

	for (size_t x = 0; x < mk; x++) {
		Af[x] = (float)(rnd() * (x % 7 == 0 ? 100 : 1));
		Ad[x] = rnd() * (x % 5 == 0 ? 1e-3 : 3);
	}
	for (size_t x = 0; x < kn; x++) {
		Bf[x] = (float)rnd();
		Bd[x] = rnd() * 1e4;
	}
	for (int j = 0; j < N; j++)
		bias[j] = (float)(rnd() * 10);
	for (size_t x = 0; x < mn; x++)
		C0[x] = rnd() * 50;

	/* bf16 */
	before = fast_count();
	bf16_lp(M, N, K, Af, Bf, bias, Cf);
	check_fast("bf16", before);
	bf16_ref(M, N, K, Af, Bf, bias, Rf);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("bf16", Cf[i * N + j], Rf[i * N + j],
			       tol(MP_LP_BF16, 0, M, N, K, Af, K, 1, Bf, N, 1, i, j, bias[j], 1), i, j);

	/* int8, double, direct (B transposed: B(k,j) = Bt[j*K + k]) */
	memcpy(Cd, C0, mn * 8);
	memcpy(Rd, C0, mn * 8);
	before = fast_count();
	i8_lp(M, N, K, Ad, Bd, Cd);
	check_fast("int8", before);
	i8_ref(M, N, K, Ad, Bd, Rd);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("int8", Cd[i * N + j], Rd[i * N + j],
			       tol(MP_LP_INT8, 1, M, N, K, Ad, K, 1, Bd, 1, K, i, j,
				   C0[i * N + j], 1), i, j);

	/* fp8_e4m3, float, tile; out = 2 s */
	before = fast_count();
	e4m3_lp(M, N, K, Af, Bf, Cf);
	check_fast("fp8_e4m3", before);
	e4m3_ref(M, N, K, Af, Bf, Rf);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("fp8_e4m3", Cf[i * N + j], Rf[i * N + j],
			       2 * tol(MP_LP_FP8_E4M3, 0, M, N, K, Af, K, 1, Bf, N, 1, i, j, 0, 0),
			       i, j);

	/* fp8_e5m2, double, tile */
	before = fast_count();
	e5m2_lp(M, N, K, Ad, Bd, Cd);
	check_fast("fp8_e5m2", before);
	e5m2_ref(M, N, K, Ad, Bd, Rd);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			expect("fp8_e5m2", Cd[i * N + j], Rd[i * N + j],
			       tol(MP_LP_FP8_E5M2, 1, M, N, K, Ad, K, 1, Bd, N, 1, i, j, 0, 0),
			       i, j);

	/* NaN in an operand: the original loop runs, bit-identical */
	if (M > 0 && N > 0 && K > 0) {
		Af[mk / 2] = NAN;
		Ad[mk / 2] = NAN;
		before = fallback_count();
		bf16_lp(M, N, K, Af, Bf, bias, Cf);
		check_fallback("bf16 NaN", before);
		bf16_ref(M, N, K, Af, Bf, bias, Rf);
		expect_same("bf16 NaN", Cf, Rf, mn * 4);

		memcpy(Cd, C0, mn * 8);
		memcpy(Rd, C0, mn * 8);
		before = fallback_count();
		i8_lp(M, N, K, Ad, Bd, Cd);
		check_fallback("int8 NaN", before);
		i8_ref(M, N, K, Ad, Bd, Rd);
		expect_same("int8 NaN", Cd, Rd, mn * 8);

		before = fallback_count();
		e5m2_lp(M, N, K, Ad, Bd, Cd);
		check_fallback("fp8_e5m2 NaN", before);
		e5m2_ref(M, N, K, Ad, Bd, Rd);
		expect_same("fp8_e5m2 NaN", Cd, Rd, mn * 8);
	}
	free(Af); free(Bf); free(bias); free(Cf); free(Rf);
	free(Ad); free(Bd); free(Cd); free(Rd); free(C0);
}

int main(int argc, char **argv)
{
	static const int shapes[][3] = {
		{ 1, 1, 1 }, { 7, 13, 33 }, { 17, 5, 100 }, { 3, 70, 257 }, { 33, 31, 2 },
		{ 16, 16, 64 }, { 5, 1, 1000 },
	};
	/* for the newer kernels: also sizes around the 8/16/32/64 edges of
	   the kernels' tiles, and primes */
	static const int more[][3] = {
		{ 1, 1, 1 }, { 1, 9, 17 }, { 9, 1, 31 }, { 8, 32, 16 }, { 15, 33, 63 },
		{ 31, 17, 65 }, { 65, 64, 32 }, { 13, 7, 129 }, { 2, 97, 3 }, { 33, 31, 2 },
	};
	const char *e = getenv("MIXPREC_DISABLE");
	unsigned seed = 12345;
	mp_stats st;

	if (argc > 1)
		factor = atof(argv[1]);
	if (argc > 2)
		seed = (unsigned)strtoul(argv[2], NULL, 0);
	if (e && *e && strcmp(e, "0")) {
		printf("MIXPREC_DISABLE is set: skipped\n");
		return 77;
	}
	/* the verify checks set it themselves */
	unsetenv("MIXPREC_VERIFY");
	mp_env_reload();
	srand(seed);
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
		run_shape(shapes[s][0], shapes[s][1], shapes[s][2]);
	for (size_t s = 0; s < sizeof more / sizeof more[0]; s++) {
		int M = more[s][0], N = more[s][1], K = more[s][2];
		run_scaled(M, N, K);
		run_alpha(M, N, K);
		run_ikj(M, N, K);
		run_tri(M, K);
		run_trmm(M, N);
		run_netlib(M, N, K);
		run_dense_const(M, N, K);
		run_resid(M, N, K);
		run_zp(M, N, K);
		run_kij(M, N, K);
		run_ldc(M, N, K);
		run_batch(M, N, K);
		run_conv(M, N, K);
		run_div(M, N, K);
		run_scales(M, N, K);
		run_uint8(M, N, K);
		run_verify(M, N, K);
	}
	run_verify_env();
	run_cbig();
	mp_stats_get(&st);
	expect_count("stats.verify_failed", st.verify_failed, 0);
	checked++;
	if (!(st.verify_worst <= 1)) {
		failures++;
		fprintf(stderr, "FAIL stats.verify_worst %g > 1\n", st.verify_worst);
	}
	if (failures || getenv("FLOAT_NESTS_VERBOSE"))
		print_per();
	printf("float_nests: seed %u, %ld checks, %ld failed\n", seed, checked, failures);
	return failures ? 1 : 0;
}
