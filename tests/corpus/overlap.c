// MIXPREC-TRANSFORMED: 5
// MIXPREC-EXPECT-FALLBACK: 1
/* overlap.c -- aliasing known only at run time.  Both kernels take plain
 * pointers, so the plugin must transform them and check for overlap when
 * called: disjoint buffers run the kernels, overlapping ones (the output
 * written over the rows of an operand still to be read) must take the
 * original loop and give the sequential result.  Output rows that
 * overlap each other (a leading dimension below the row length: row i+1
 * overwrites the tail of row i, the loop's last write stays) must take
 * the original loop too (the core reads y[i*ld + j] as a 2-D array's rows;
 * the kernels kept row i's value once, found by a review helper). */
#include "harness.h"
#include <mixprec.h>
#include <string.h>

__attribute__((noinline)) void ov_i32(int M, int N, int K, const int8_t *A, const int8_t *B,
				      int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void ov_q8(int M, int N, int K, const int8_t *X, const int8_t *W,
				     int8_t *Y, int ldy)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[j * K + k];
			Y[i * ldy + j] = (int8_t)mp_clamp_i32(s >> 8, -128, 127);
		}
}

__attribute__((noinline)) void ov_ld32(int M, int N, int K, const int8_t *X, const int8_t *W,
				       int32_t *Y, int ldy)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += X[i * K + k] * W[j * K + k];
			Y[i * ldy + j] = s;
		}
}

/* C += A*B into rows that overlap: each element sums the products of
   every (i, j) that lands on it (direct mode over threads must not race) */
__attribute__((noinline)) void ov_acc(int M, int N, int K, const int8_t *X, const int8_t *W,
				      int32_t *Y, int ldy)
{
#pragma mixprec(int8)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < K; k++)
				Y[i * ldy + j] += X[i * K + k] * W[j * K + k];
}

/* The reduction bound read through a pointer that may point into the
 * nest's own output, a global array: no operand needs a check (declared
 * arrays never overlap), but the bound is read once before the nest and
 * its bytes must miss every written range (adversarial review, December
 * 2026: wrong results under the three compilers, the call never fell
 * back). */
#define OV_G 64
static int8_t ov_ga[OV_G * OV_G], ov_gb[OV_G * OV_G];
static int32_t ov_gc[OV_G * OV_G];
__attribute__((noinline)) void ov_bound_global(int M, int N, const int *pK)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < *pK; k++)
				s += ov_ga[i * OV_G + k] * ov_gb[j * OV_G + k];
			ov_gc[i * N + j] = s & 15;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;

		{
			int gm = M < OV_G ? M : OV_G, gn = N < OV_G ? N : OV_G;
			int gk = K < OV_G ? K : OV_G;
			harness_fill_s8(ov_ga, sizeof ov_ga);
			harness_fill_s8(ov_gb, sizeof ov_gb);
			ov_bound_global(gm, gn, &gk);   /* the bound elsewhere */
			harness_out(harness_name("bound_global %dx%dx%d", gm, gn, gk), ov_gc,
				    sizeof ov_gc);
			ov_gc[0] = gk;   /* the bound is the first output */
			ov_bound_global(gm, gn, &ov_gc[0]);
			harness_out(harness_name("bound_in_output %dx%dx%d", gm, gn, gk), ov_gc,
				    sizeof ov_gc);
		}

		/* Disjoint: the fast path. */
		int8_t *A = harness_rand_s8(mk), *B = harness_rand_s8(kn);
		int32_t *C = harness_rand_s32(mn, INT32_MIN, INT32_MAX);
		ov_i32(M, N, K, A, B, C);
		harness_out_array(harness_name("disjoint_i32 %dx%dx%d", M, N, K), C, mn);
		int8_t *Y = harness_rand_s8(mn);
		ov_q8(M, N, K, A, B, Y, N);
		harness_out_array(harness_name("disjoint_q8 %dx%dx%d", M, N, K), Y, mn);

		/* C over A: C starts 4 bytes into the buffer, A one row later, so
		 * writing row i of C overwrites rows of A read later. */
		size_t bytes = mk + kn + mn * 4 + 64;
		unsigned char *buf = harness_alloc(bytes);
		harness_fill_s8((int8_t *)buf, bytes);
		int32_t *Co = (int32_t *)(buf + 4);
		const int8_t *Ao = (const int8_t *)buf + 4 + (size_t)N;
		ov_i32(M, N, K, Ao, B, Co);
		harness_out(harness_name("c_over_a %dx%dx%d", M, N, K), buf, bytes);

		/* C over B (B behind C by one int32). */
		harness_fill_s8((int8_t *)buf, bytes);
		ov_i32(M, N, K, A, (const int8_t *)buf + 4, (int32_t *)buf);
		harness_out(harness_name("c_over_b %dx%dx%d", M, N, K), buf, bytes);

		/* Requantize in place: Y is X itself (row stride K >= N when it
		 * fits), so storing (i, j) changes X(i, j) before (i, j+1) reads it. */
		if (N <= K) {
			int8_t *X = harness_rand_s8(mk);
			ov_q8(M, N, K, X, B, X, K);
			harness_out_array(harness_name("y_is_x %dx%dx%d", M, N, K), X, mk);
			harness_free(X);
		}
		/* Y over W with an offset. */
		memcpy(buf, B, kn);
		ov_q8(M, N, K, A, (const int8_t *)buf, (int8_t *)buf + 1, N);
		harness_out(harness_name("y_over_w %dx%dx%d", M, N, K), buf, bytes);

		/* Rows that overlap: ld = N - 1, N / 2 and 0 (every row on
		   the first), and a disjoint ld = N + 3 beside them */
		if (M > 0 && N > 1) {
			int lds[4] = { N - 1, N / 2, 0, N + 3 };
			for (int l = 0; l < 4; l++) {
				size_t ny = (size_t)(M - 1) * (size_t)lds[l] + (size_t)N;
				int8_t *Yq = harness_rand_s8(ny);
				ov_q8(M, N, K, A, B, Yq, lds[l]);
				harness_out_array(harness_name("rows_q8 ld %d %dx%dx%d", lds[l], M, N, K),
						  Yq, ny);
				int32_t *Y32 = harness_rand_s32(ny, -1000, 1000);
				ov_ld32(M, N, K, A, B, Y32, lds[l]);
				harness_out_array(harness_name("rows_s32 ld %d %dx%dx%d", lds[l], M, N, K),
						  Y32, ny);
				harness_fill_s32(Y32, ny, -1000, 1000);
				ov_acc(M, N, K, A, B, Y32, lds[l]);
				harness_out_array(harness_name("rows_acc ld %d %dx%dx%d", lds[l], M, N, K),
						  Y32, ny);
				harness_free(Yq);
				harness_free(Y32);
			}
		}

		harness_free(buf);
		harness_free(A);
		harness_free(B);
		harness_free(C);
		harness_free(Y);
	}
}
