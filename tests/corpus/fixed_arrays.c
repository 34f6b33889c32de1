// MIXPREC-TRANSFORMED: 6
/* fixed_arrays.c -- fixed-size array parameters with run-time extents, as
 * PolyBench writes every kernel (`int32_t C[NI][NJ]` with ni <= NI; issue 8,
 * item 5), in several loop orders.  C forbids an index past an inner
 * dimension, so C[i][j] is one element per (i, j) point (mp_access.bidx):
 * the perfect nests run in direct mode, the others in tile mode. */
#include "harness.h"
#include <mixprec.h>

#define NI 40
#define NJ 44
#define NK 48

__attribute__((noinline)) void fa_ijk(int ni, int nj, int nk, int32_t C[NI][NJ],
				      const int8_t A[NI][NK], const int8_t B[NK][NJ])
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < ni; i++)
		for (j = 0; j < nj; j++)
			for (k = 0; k < nk; k++)
				C[i][j] += A[i][k] * B[k][j];
}

__attribute__((noinline)) void fa_kji(int ni, int nj, int nk, int32_t C[NI][NJ],
				      const int8_t A[NI][NK], const int8_t B[NK][NJ])
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (k = 0; k < nk; k++)
		for (j = 0; j < nj; j++)
			for (i = 0; i < ni; i++)
				C[i][j] += A[i][k] * B[k][j];
}

__attribute__((noinline)) void fa_jki(int ni, int nj, int nk, int32_t C[NI][NJ],
				      const int8_t A[NI][NK], const int8_t B[NK][NJ])
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (j = 0; j < nj; j++)
		for (k = 0; k < nk; k++)
			for (i = 0; i < ni; i++)
				C[i][j] += A[i][k] * B[k][j];
}

/* PolyBench gemm (int8 data): the beta loop, then k enclosing j */
__attribute__((noinline)) void fa_gemm(int ni, int nj, int nk, int32_t beta, int32_t C[NI][NJ],
				       const int8_t A[NI][NK], const int8_t B[NK][NJ])
{
	int i, j, k;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < ni; i++) {
		for (j = 0; j < nj; j++)
			C[i][j] *= beta;
		for (k = 0; k < nk; k++) {
			for (j = 0; j < nj; j++)
				C[i][j] += A[i][k] * B[k][j];
		}
	}
}

/* the reduction into a scalar, the store into a fixed-size output */
__attribute__((noinline)) void fa_scalar(int ni, int nj, int nk, int32_t C[NI][NJ],
					 const int8_t A[NI][NK], const int8_t B[NK][NJ])
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nj; j++) {
			int32_t s = C[i][j] >> 1;
			for (int k = 0; k < nk; k++)
				s += A[i][k] * B[k][j];
			C[i][j] = s;
		}
}

/* a global fixed-size matrix, both dimensions known */
static int32_t fa_gC[NI][NJ];
__attribute__((noinline)) void fa_global(int ni, int nj, int nk, const int8_t A[NI][NK],
					 const int8_t B[NK][NJ])
{
#pragma mixprec(int8, acc=int32)
	for (int j = 0; j < nj; j++)
		for (int i = 0; i < ni; i++)
			for (int k = 0; k < nk; k++)
				fa_gC[i][j] += A[i][k] * B[k][j];
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int ni, nj, nk;
		harness_shape(sh, 1, &ni, &nj, &nk);
		if (ni > NI) ni = NI;
		if (nj > NJ) nj = NJ;
		if (nk > NK) nk = NK;
		int8_t (*A)[NK] = (int8_t (*)[NK])harness_rand_s8((size_t)NI * NK);
		int8_t (*B)[NJ] = (int8_t (*)[NJ])harness_rand_s8((size_t)NK * NJ);
		int32_t (*C)[NJ] = (int32_t (*)[NJ])harness_rand_s32((size_t)NI * NJ, -1000, 1000);
		fa_ijk(ni, nj, nk, C, A, B);
		harness_out_array(harness_name("ijk %dx%dx%d", ni, nj, nk), &C[0][0], NI * NJ);
		fa_kji(ni, nj, nk, C, A, B);
		harness_out_array(harness_name("kji %dx%dx%d", ni, nj, nk), &C[0][0], NI * NJ);
		fa_jki(ni, nj, nk, C, A, B);
		harness_out_array(harness_name("jki %dx%dx%d", ni, nj, nk), &C[0][0], NI * NJ);
		fa_gemm(ni, nj, nk, harness_randint(-2, 2), C, A, B);
		harness_out_array(harness_name("gemm %dx%dx%d", ni, nj, nk), &C[0][0], NI * NJ);
		fa_scalar(ni, nj, nk, C, A, B);
		harness_out_array(harness_name("scalar %dx%dx%d", ni, nj, nk), &C[0][0], NI * NJ);
		fa_global(ni, nj, nk, A, B);
		harness_out_array(harness_name("global %dx%dx%d", ni, nj, nk), &fa_gC[0][0], NI * NJ);
		harness_free(A);
		harness_free(B);
		harness_free(C);
	}
}
