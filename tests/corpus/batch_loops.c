// MIXPREC-TRANSFORMED: 9
/* batch_loops.c -- contractions inside batch loops, as inference code
 * writes them (issue 9, item 1): attention scores per head with
 * linearised subscripts ((h*N + i)*D + k: a product of three factors),
 * llm.c's matmul_forward with `int bt = b * T + t;` (b, t both row loops
 * of the output: four loops deep), a batch loop holding an init loop
 * before its GEMM, a matrix product per batch in ikj order, a batch index
 * passed as a parameter (b*T*C + t*C + i with b fixed), a VLA-typed batch
 * of matrices, and float data at int8.  Each batch loop runs as written
 * around one call per iteration; so does a loop around the contraction
 * that does not index the output (a reduction over b: one call per b
 * accumulating into C), or PolyBench's doitgen whose r and q loops
 * index only a temporary (one call per (r, q)). */
#include "harness.h"
#include <mixprec.h>

/* S[h][i][j] = sum_k Q[h][i][k] * Kt[h][j][k] */
__attribute__((noinline)) void bl_attention(int H, int N, int D, const int8_t *q,
					    const int8_t *kk, int32_t *S)
{
#pragma mixprec(int8, acc=int32)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < D; k++)
					s += q[(h * N + i) * D + k] * kk[(h * N + j) * D + k];
				S[(h * N + i) * N + j] = s;
			}
}

/* llm.c matmul_forward_naive, int8 */
__attribute__((noinline)) void bl_matmul_forward(int32_t *out, const int8_t *inp,
						 const int8_t *weight, const int32_t *bias,
						 int B, int T, int C, int OC)
{
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < B; b++) {
		for (int t = 0; t < T; t++) {
			int bt = b * T + t;
			for (int o = 0; o < OC; o++) {
				int32_t val = bias[o];
				for (int i = 0; i < C; i++)
					val += inp[bt * C + i] * weight[o * C + i];
				out[bt * OC + o] = val;
			}
		}
	}
}

/* a batch loop with an init loop before its GEMM */
__attribute__((noinline)) void bl_init_then_gemm(int B, int M, int N, int K,
						 const int8_t *A, const int8_t *W, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < B; b++) {
		for (int x = 0; x < M * N; x++)
			C[b * M * N + x] = b;
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				for (int k = 0; k < K; k++)
					C[b * M * N + i * N + j] += A[b * M * K + i * K + k] * W[k * N + j];
	}
}

/* ikj order in each batch */
__attribute__((noinline)) void bl_ikj(int B, int M, int N, int K, const int8_t *A,
				      const int8_t *W, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < M; i++)
			for (int k = 0; k < K; k++)
				for (int j = 0; j < N; j++)
					C[(b * M + i) * N + j] += A[(b * M + i) * K + k] * W[(b * K + k) * N + j];
}

/* one batch, chosen by a parameter: b*T*C is a product of parameters */
__attribute__((noinline)) void bl_one_batch(int b, int T, int C, int OC, const int8_t *inp,
					    const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int t = 0; t < T; t++)
		for (int o = 0; o < OC; o++) {
			int32_t s = 0;
			for (int i = 0; i < C; i++)
				s += inp[b * T * C + t * C + i] * w[o * C + i];
			out[b * T * OC + t * OC + o] = s;
		}
}

/* VLA-typed batches of matrices */
__attribute__((noinline)) void bl_vla(int B, int M, int N, int K, const int8_t (*A)[M][K],
				      const int8_t (*W)[N][K], int32_t (*C)[M][N])
{
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += A[b][i][k] * W[b][j][k];
				C[b][i][j] = s;
			}
}

/* float data at int8 precision is checked in tests/float; here the
   integer source: uint8 activations with a zero point per batch */
__attribute__((noinline)) void bl_zp(int B, int M, int N, int K, const uint8_t *X,
				     const int8_t *W, int32_t *Y, int zx)
{
#pragma mixprec(uint8, acc=int32)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++) {
				int32_t s = 0;
				for (int k = 0; k < K; k++)
					s += (X[b * M * K + i * K + k] - zx) * W[j * K + k];
				Y[b * M * N + i * N + j] = s;
			}
}

/* the reduction over the loop b (outside the innermost three, not
   indexing the output): one call per b accumulating into C */
__attribute__((noinline)) void bl_reduce_outer(int B, int M, int N, int K, const int8_t *A,
					       const int8_t *W, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < M; i++)
			for (int j = 0; j < N; j++)
				for (int k = 0; k < K; k++)
					C[i * N + j] += A[(b * M + i) * K + k] * W[(b * K + k) * N + j];
}

/* PolyBench's doitgen as written but out of place (int8 data): r and q
   index neither the temporary sum[p] nor anything the contraction writes;
   the contraction is the innermost two loops, one call per (r, q) */
__attribute__((noinline)) void bl_doitgen(int nr, int nq, int np, const int8_t *A,
					  const int8_t *C4, int32_t *sum, int32_t *O)
{
	int r, q, p, s;
#pragma mixprec(int8, acc=int32)
	for (r = 0; r < nr; r++)
		for (q = 0; q < nq; q++) {
			for (p = 0; p < np; p++) {
				sum[p] = 0;
				for (s = 0; s < np; s++)
					sum[p] += A[(r * nq + q) * np + s] * C4[s * np + p];
			}
			for (p = 0; p < np; p++)
				O[(r * nq + q) * np + p] = sum[p];
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int B = 1 + sh % 3;
		size_t mk = (size_t)B * M * K, nk = (size_t)B * N * K, mn = (size_t)B * M * N;
		int8_t *A = harness_rand_s8(mk + 1);
		int8_t *W = harness_rand_s8(nk + (size_t)K * N + 1);
		uint8_t *X = harness_rand_u8(mk + 1);
		int32_t *C = harness_rand_s32(mn + (size_t)B * M * M + 3, -100000, 100000);
		int32_t *bias = harness_rand_s32((size_t)N + 1, -1000, 1000);

		/* H = B heads of M x M scores over K */
		bl_attention(B, M, K, A, A, C);
		harness_out_array(harness_name("attention %dx%dx%dx%d", B, M, M, K), C,
				  (size_t)B * M * M);
		bl_matmul_forward(C, A, W, bias, B, M, K, N);
		harness_out_array(harness_name("matmul_forward %dx%dx%dx%d", B, M, N, K), C, mn);
		bl_init_then_gemm(B, M, N, K, A, W, C);
		harness_out_array(harness_name("init_then_gemm %dx%dx%dx%d", B, M, N, K), C, mn);
		bl_ikj(B, M, N, K, A, W, C);
		harness_out_array(harness_name("ikj %dx%dx%dx%d", B, M, N, K), C, mn);
		bl_one_batch(B - 1, M, K, N, A, W, C);
		harness_out_array(harness_name("one_batch %dx%dx%d", M, N, K), C, mn);
		if (M > 0 && N > 0 && K > 0) {
			bl_vla(B, M, N, K, (const int8_t (*)[M][K])A, (const int8_t (*)[N][K])W,
			       (int32_t (*)[M][N])C);
			harness_out_array(harness_name("vla %dx%dx%dx%d", B, M, N, K), C, mn);
		}
		bl_zp(B, M, N, K, X, W, C, harness_randint(0, 255));
		harness_out_array(harness_name("zp %dx%dx%dx%d", B, M, N, K), C, mn);
		bl_reduce_outer(B, M, N, K, A, W, C);
		harness_out_array(harness_name("reduce_outer %dx%dx%dx%d", B, M, N, K), C, mn);
		{
			int np = K < 40 ? K : 40, nq = M < 5 ? M : 5;
			int8_t *Ad = harness_rand_s8((size_t)B * nq * np + 1);
			int8_t *C4 = harness_rand_s8((size_t)np * np + 1);
			int32_t *sum = harness_rand_s32((size_t)np + 1, -100, 100);
			int32_t *O = harness_rand_s32((size_t)B * nq * np + 1, -100, 100);
			bl_doitgen(B, nq, np, Ad, C4, sum, O);
			harness_out_array(harness_name("doitgen %dx%dx%d", B, nq, np), O,
					  (size_t)B * nq * np);
			harness_free(Ad);
			harness_free(C4);
			harness_free(sum);
			harness_free(O);
		}
		harness_free(A);
		harness_free(W);
		harness_free(X);
		harness_free(C);
		harness_free(bias);
	}
}
