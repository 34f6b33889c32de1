// MIXPREC-TRANSFORMED: 5
/* cont_guards.c -- padding written as several `if (...) continue;` guards
 * in one loop body, each guard a statement of its own: onnx2c's generated
 * convolutions (`if (ii0 < 0) continue; if (ii0 >= H) continue;` for each
 * window axis, a declaration between them).  A term is added only where
 * every guard is false.  The clang plugins read the first guard of a body
 * and dropped the others: the nest was transformed and the terms the later
 * guards skip were added, read outside the image (found by a helper trying
 * onnx2c's output; GCC was right).  Forms: a 1-D convolution padded on
 * both sides; onnx2c's 2-D form with a bias; the guards in braces; the
 * second guard with an else holding the update; a continue in a switch
 * (refused: its condition is not read; the clang plugins added the terms
 * it skips, found by a review helper). */
#include "harness.h"
#include <mixprec.h>

__attribute__((noinline)) void cg_1d(int N, int M, int K, int P, const int8_t *x,
				     const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii < 0)
					continue;
				if (ii >= N)
					continue;
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

#define CG_H 7
#define CG_W 6
#define CG_C 3
#define CG_M 5
/* onnx2c (its Conv node, 3x3, pads 1): NCHW arrays of fixed sizes */
__attribute__((noinline)) void cg_onnx2c(const int8_t x[1][CG_C][CG_H][CG_W],
					 const int8_t w[CG_M][CG_C][3][3], const int32_t bias[CG_M],
					 int32_t y[1][CG_M][CG_H][CG_W])
{
#pragma mixprec(int8, acc=int32)
	for (int32_t b = 0; b < 1; b++) {
		for (int32_t m = 0; m < CG_M; m++) {
			for (int32_t o0 = 0; o0 < CG_H; o0++) {
				for (int32_t o1 = 0; o1 < CG_W; o1++) {
					y[b][m][o0][o1] = bias[m];
					for (int32_t c = 0; c < CG_C; c++) {
						for (int32_t k0 = 0; k0 < 3; k0++) {
							for (int32_t k1 = 0; k1 < 3; k1++) {
								int ii0 = (o0 - 1) + k0 * 1;
								if (ii0 < 0)
									continue;
								if (ii0 >= CG_H)
									continue;
								int ii1 = (o1 - 1) + k1 * 1;
								if (ii1 < 0)
									continue;
								if (ii1 >= CG_W)
									continue;
								y[b][m][o0][o1] += x[b][c][ii0][ii1] *
										   w[m][c][k0][k1];
							}
						}
					}
				}
			}
		}
	}
}

__attribute__((noinline)) void cg_braced(int N, int M, int K, int P, const int8_t *x,
					 const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				if (o + k < P) {
					continue;
				}
				if (o + k - P >= N) {
					continue;
				}
				s += x[o + k - P] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

__attribute__((noinline)) void cg_else(int N, int M, int K, int P, const int8_t *x,
				       const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii >= N)
					continue;
				if (ii < 0)
					continue;
				else
					s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

/* a continue in a switch: its condition is not read, so the update is
   refused (the clang plugins read no guard there and added the terms) */
__attribute__((noinline)) void cg_switch(int N, int M, int K, int P, const int8_t *x,
					 const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++) // expected-warning {{the update of 's' is guarded by a condition mixprec cannot read}}
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				if (ii < 0)
					continue;
				switch (ii >= N) {
				case 1:
					continue;
				}
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
		}
}

/* a guard inside a statement expression standing as a statement (GNU C):
   the clang plugins read its statements as GCC's GIMPLE has them (they
   dropped this guard and added its terms: a review helper) */
__attribute__((noinline)) void cg_stmt_expr(int N, int M, int K, int P, const int8_t *x,
					    const int8_t *w, int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int m = 0; m < M; m++)
		for (int o = 0; o < N; o++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				int ii = o - P + k;
				({
					if (ii < 0)
						continue;
					0;
				});
				if (ii >= N)
					continue;
				s += x[ii] * w[m * K + k];
			}
			y[m * N + o] = s;
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
		int8_t *xm = harness_rand_s8((size_t)N + 2 * (size_t)K + 2);
		const int8_t *x = xm + K + 1;
		int8_t *w = harness_rand_s8((size_t)M * K);
		int32_t *y = harness_rand_s32((size_t)M * N, -1000, 1000);

		cg_1d(N, M, K, P, x, w, y);
		harness_out_array(harness_name("1d %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		cg_braced(N, M, K, P, x, w, y);
		harness_out_array(harness_name("braced %dx%dx%d p%d", M, N, K, P), y,
				  (size_t)M * N);
		cg_else(N, M, K, P, x, w, y);
		harness_out_array(harness_name("else %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		cg_switch(N, M, K, P, x, w, y);
		harness_out_array(harness_name("switch %dx%dx%d p%d", M, N, K, P), y, (size_t)M * N);
		cg_stmt_expr(N, M, K, P, x, w, y);
		harness_out_array(harness_name("stmt_expr %dx%dx%d p%d", M, N, K, P), y,
				  (size_t)M * N);
		harness_free(xm);
		harness_free(w);
		harness_free(y);
	}
	for (int r = 0; r < 3; r++) {
		/* the image inside a larger block of random bytes */
		int8_t *xb = harness_rand_s8(3 * CG_C * CG_H * CG_W);
		int8_t *w = harness_rand_s8(CG_M * CG_C * 9);
		int32_t *bias = harness_rand_s32(CG_M, -100000, 100000);
		int32_t *y = harness_rand_s32(CG_M * CG_H * CG_W, -1000, 1000);
		cg_onnx2c((const int8_t(*)[CG_C][CG_H][CG_W])(xb + CG_C * CG_H * CG_W),
			  (const int8_t(*)[CG_C][3][3])w, bias, (int32_t(*)[CG_M][CG_H][CG_W])y);
		harness_out_array(harness_name("onnx2c %d", r), y, CG_M * CG_H * CG_W);
		harness_free(xb);
		harness_free(w);
		harness_free(bias);
		harness_free(y);
	}
}
