// MIXPREC-TRANSFORMED: 5
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
