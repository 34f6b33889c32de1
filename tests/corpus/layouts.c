// MIXPREC-TRANSFORMED: 7
/* layouts.c -- operand and output layouts: transposed operands, leading
 * dimensions larger than the extent, long / size_t iterators, VLA and fixed
 * 2-D array parameters, globals with constant sizes, column-major output and
 * a reversed (negative-stride) row walk. */
#include "harness.h"
#include <mixprec.h>

/* A stored transposed (K x M, leading dimension lda >= M). */
__attribute__((noinline)) void mm_at(long M, long N, long K, const int8_t *At, long lda,
				     const int8_t *B, long ldb, int32_t *C, long ldc)
{
#pragma mixprec(int8, acc=int32)
	for (long i = 0; i < M; i++)
		for (long j = 0; j < N; j++) {
			int32_t s = 0;
			for (long k = 0; k < K; k++)
				s += At[k * lda + i] * B[k * ldb + j];
			C[i * ldc + j] = s;
		}
}

/* B stored transposed (N x K, "weights" layout), size_t iterators. */
__attribute__((noinline)) void mm_bt(size_t M, size_t N, size_t K, const int8_t *A, size_t lda,
				     const int8_t *Bt, size_t ldb, int32_t *C, size_t ldc)
{
#pragma mixprec(int8, acc=int32)
	for (size_t i = 0; i < M; i++)
		for (size_t j = 0; j < N; j++) {
			int32_t s = 0;
			for (size_t k = 0; k < K; k++)
				s += A[i * lda + k] * Bt[j * ldb + k];
			C[i * ldc + j] = s;
		}
}

/* VLA parameters. */
__attribute__((noinline)) void mm_vla(int M, int N, int K, const int8_t A[][K],
				      const int8_t B[K][N], int32_t C[M][N])
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[i][k] * B[k][j];
			C[i][j] = s;
		}
}

/* Fixed 2-D array parameters: N and K compile-time constants, M at run time. */
#define FIX_N 19
#define FIX_K 37
__attribute__((noinline)) void mm_fixed(int M, const int8_t A[][FIX_K], const int8_t B[FIX_K][FIX_N],
					int32_t C[][FIX_N])
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < FIX_N; j++) {
			int32_t s = 0;
			for (int k = 0; k < FIX_K; k++)
				s += A[i][k] * B[k][j];
			C[i][j] = s;
		}
}

/* Globals, all sizes constant. */
#define G_M 33
#define G_N 17
#define G_K 65
int8_t gA[G_M][G_K];
int8_t gB[G_K][G_N];
int32_t gC[G_M][G_N];

__attribute__((noinline)) void mm_global(void)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < G_M; i++)
		for (int j = 0; j < G_N; j++) {
			int32_t s = 0;
			for (int k = 0; k < G_K; k++)
				s += gA[i][k] * gB[k][j];
			gC[i][j] = s;
		}
}

/* Column-major everything: A(i,k) = A[k*lda + i], B(k,j) = B[j*ldb + k],
 * C(i,j) = C[j*ldc + i]. */
__attribute__((noinline)) void mm_colmajor(int M, int N, int K, const int8_t *A, int lda,
					   const int8_t *B, int ldb, int32_t *C, int ldc)
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < N; j++)
		for (int i = 0; i < M; i++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[k * lda + i] * B[j * ldb + k];
			C[j * ldc + i] = s;
		}
}

/* Rows of A walked backwards: A(i,k) = A[(M-1-i)*K + k]. */
__attribute__((noinline)) void mm_reversed(int M, int N, int K, const int8_t *A, const int8_t *B,
					   int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += A[(M - 1 - i) * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

static void run_shape(int M, int N, int K)
{
	/* Leading dimensions larger than the extents; padding bytes are random
	 * and the output's padding must stay as it was. */
	int lda = M + 3, ldb = N + 5, ldc = N + 2, ldk = K + 7, ldm = M + 1;
	int8_t *At = harness_rand_s8((size_t)K * lda);
	int8_t *B = harness_rand_s8((size_t)K * ldb);
	int32_t *C = harness_rand_s32((size_t)M * ldc, INT32_MIN, INT32_MAX);
	mm_at(M, N, K, At, lda, B, ldb, C, ldc);
	harness_out_array(harness_name("at %dx%dx%d", M, N, K), C, (size_t)M * ldc);

	int8_t *A = harness_rand_s8((size_t)M * ldk);
	int8_t *Bt = harness_rand_s8((size_t)N * ldk);
	mm_bt((size_t)M, (size_t)N, (size_t)K, A, (size_t)ldk, Bt, (size_t)ldk, C, (size_t)ldc);
	harness_out_array(harness_name("bt %dx%dx%d", M, N, K), C, (size_t)M * ldc);

	int32_t *Ccm = harness_rand_s32((size_t)N * ldm, INT32_MIN, INT32_MAX);
	mm_colmajor(M, N, K, At, lda, Bt, ldk, Ccm, ldm);
	harness_out_array(harness_name("colmajor %dx%dx%d", M, N, K), Ccm, (size_t)N * ldm);

	int8_t *Ad = harness_rand_s8((size_t)M * K);
	int8_t *Bd = harness_rand_s8((size_t)K * N);
	int32_t *Cd = harness_rand_s32((size_t)M * N, INT32_MIN, INT32_MAX);
	mm_reversed(M, N, K, Ad, Bd, Cd);
	harness_out_array(harness_name("reversed %dx%dx%d", M, N, K), Cd, (size_t)M * N);
	if (M > 0 && N > 0 && K > 0) {
		mm_vla(M, N, K, (const int8_t(*)[K])Ad, (const int8_t(*)[N])Bd,
		       (int32_t(*)[N])Cd);
		harness_out_array(harness_name("vla %dx%dx%d", M, N, K), Cd, (size_t)M * N);
	}

	harness_free(At);
	harness_free(B);
	harness_free(C);
	harness_free(A);
	harness_free(Bt);
	harness_free(Ccm);
	harness_free(Ad);
	harness_free(Bd);
	harness_free(Cd);
}

void corpus_main(void)
{
	for (int s = 0; s < harness_nshapes(); s++) {
		int M, N, K;
		harness_shape(s, 1, &M, &N, &K);
		run_shape(M, N, K);

		int8_t(*A)[FIX_K] = harness_alloc((size_t)M * sizeof *A);
		int8_t(*B)[FIX_N] = harness_alloc(FIX_K * sizeof *B);
		int32_t(*C)[FIX_N] = harness_alloc((size_t)M * sizeof *C);
		harness_fill_s8(&A[0][0], (size_t)M * FIX_K);
		harness_fill_s8(&B[0][0], (size_t)FIX_K * FIX_N);
		mm_fixed(M, (const int8_t(*)[FIX_K])A, (const int8_t(*)[FIX_N])B, C);
		harness_out(harness_name("fixed %dx%dx%d", M, FIX_N, FIX_K), C, (size_t)M * sizeof *C);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
	for (int rep = 0; rep < 3; rep++) {
		harness_fill_s8(&gA[0][0], sizeof gA);
		harness_fill_s8(&gB[0][0], sizeof gB);
		harness_fill_s32(&gC[0][0], sizeof gC / sizeof gC[0][0], INT32_MIN, INT32_MAX);
		mm_global();
		harness_out(harness_name("global %d", rep), gC, sizeof gC);
	}
}
