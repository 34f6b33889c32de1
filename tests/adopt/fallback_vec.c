/* fallback_vec.c -- nests over fixed-size arrays, as PolyBench and small
 * C programs write them, that GCC vectorizes around the reduction loop
 * (outer-loop vectorization) at -O3.  The plugin build's fallback (the loop
 * as written, MIXPREC_DISABLE=1 or a run-time refusal) must keep that:
 * tests/adopt/fallback_vec.sh compares the compilers' vectorization
 * reports and the outputs. */
#include <stdint.h>
#include <stdio.h>
#define B 24
#define D0 40
#define D1 48
static float x[B][D0], w1[D0][D1], h[B][D1];
static int8_t qa[B][D0], qb[D0][D1];
static int32_t qc[B][D1];

__attribute__((noinline)) static void dense(void)
{
#pragma mixprec(bf16)
	for (int i = 0; i < B; i++)
		for (int j = 0; j < D1; j++) {
			float s = 0;
			for (int k = 0; k < D0; k++)
				s += x[i][k] * w1[k][j];
			h[i][j] = s;
		}
}

__attribute__((noinline)) static void qdense(void)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < B; i++)
		for (int j = 0; j < D1; j++) {
			int32_t s = 0;
			for (int k = 0; k < D0; k++)
				s += qa[i][k] * qb[k][j];
			qc[i][j] = s + 3;
		}
}

/* PolyBench/C 4.2.1 gemm, its array parameters and loop order */
__attribute__((noinline)) static void kernel_gemm(int ni, int nj, int nk, float alpha,
						  float beta, float C[B][D1], float A[B][D0],
						  float Bm[D0][D1])
{
	int i, j, k;
#pragma mixprec(bf16)
	for (i = 0; i < ni; i++) {
		for (j = 0; j < nj; j++)
			C[i][j] *= beta;
		for (k = 0; k < nk; k++) {
			for (j = 0; j < nj; j++)
				C[i][j] += alpha * A[i][k] * Bm[k][j];
		}
	}
}

static float C[B][D1];

/* no pragma: a user's pointer that happens to be called mp_tile (the
   plugin's own temporaries are anonymous "mp_tile.N"); GCC unswitches the
   loop on it and vectorizes both copies, with the plugin as without */
__attribute__((noinline)) static void user_mp_tile(int32_t *out, const int32_t *mp_tile,
						   int n, int m)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++) {
			int32_t v = out[i * m + j];
			if (mp_tile)
				v += mp_tile[i * m + j];
			out[i * m + j] = v * 3;
		}
}

int main(void)
{
	for (int i = 0; i < B; i++)
		for (int k = 0; k < D0; k++) {
			x[i][k] = (float)((i * 7 + k) % 13 - 6);
			qa[i][k] = (int8_t)((i * 31 + k * 7) % 255 - 127);
		}
	for (int k = 0; k < D0; k++)
		for (int j = 0; j < D1; j++) {
			w1[k][j] = (float)((k * 3 + j) % 11 - 5);
			qb[k][j] = (int8_t)((k * 13 + j * 5) % 256 - 128);
		}
	for (int i = 0; i < B; i++)
		for (int j = 0; j < D1; j++)
			C[i][j] = (float)((i + j) % 5);
	dense();
	qdense();
	kernel_gemm(B, D1, D0, 2.0f, 0.5f, C, x, w1);
	user_mp_tile(&qc[0][0], &qc[1][0], B - 1, D1);
	user_mp_tile(&qc[0][0], 0, 1, D1);
	double sh = 0, sc = 0;
	long long sq = 0;
	for (int i = 0; i < B; i++)
		for (int j = 0; j < D1; j++) {
			sh += h[i][j] * (1 + (i * D1 + j) % 7);
			sq += qc[i][j] * (long long)(1 + (i * D1 + j) % 7);
			sc += C[i][j] * (1 + (i * D1 + j) % 7);
		}
	printf("%.9g %lld %.9g\n", sh, sq, sc);
	return 0;
}
