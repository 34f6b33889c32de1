/* loop_polybench.c -- PolyBench/C 4.2.1 linear-algebra kernels as
 * PolyBench writes them (float data, fixed sizes), the pragma in place of
 * `#pragma scop`.  Built twice (MP_SUFFIX plain / mixprec). */
#ifndef MP_SUFFIX
#error "define MP_SUFFIX"
#endif
#define MP_CAT2(a, b) a##b
#define MP_CAT(a, b) MP_CAT2(a, b)
#define F(name) MP_CAT(name, MP_SUFFIX)
#define N1 512
#define N2 544
#define N3 576

void F(pb_gemm_)(float alpha, float beta, float C[N1][N2], float A[N1][N3], float B[N3][N2])
{
	int i, j, k;
#pragma mixprec(bf16)
	for (i = 0; i < N1; i++) {
		for (j = 0; j < N2; j++)
			C[i][j] *= beta;
		for (k = 0; k < N3; k++) {
			for (j = 0; j < N2; j++)
				C[i][j] += alpha * A[i][k] * B[k][j];
		}
	}
}

void F(pb_2mm_)(float alpha, float beta, float tmp[N1][N2], float A[N1][N3], float B[N3][N2],
		float C[N2][N2], float D[N1][N2])
{
	int i, j, k;
#pragma mixprec(bf16)
	{
		for (i = 0; i < N1; i++)
			for (j = 0; j < N2; j++) {
				tmp[i][j] = 0.0f;
				for (k = 0; k < N3; ++k)
					tmp[i][j] += alpha * A[i][k] * B[k][j];
			}
		for (i = 0; i < N1; i++)
			for (j = 0; j < N2; j++) {
				D[i][j] *= beta;
				for (k = 0; k < N2; ++k)
					D[i][j] += tmp[i][k] * C[k][j];
			}
	}
}

void F(pb_syrk_)(float alpha, float beta, float C[N1][N1], float A[N1][N3])
{
	int i, j, k;
#pragma mixprec(bf16)
	for (i = 0; i < N1; i++) {
		for (j = 0; j <= i; j++)
			C[i][j] *= beta;
		for (k = 0; k < N3; k++) {
			for (j = 0; j <= i; j++)
				C[i][j] += alpha * A[i][k] * A[j][k];
		}
	}
}

void F(pb_gesummv_)(float alpha, float beta, float A[N1][N1], float B[N1][N1], float tmp[N1],
		    float x[N1], float y[N1])
{
	int i, j;
#pragma mixprec(bf16)
	for (i = 0; i < N1; i++) {
		tmp[i] = 0.0f;
		y[i] = 0.0f;
		for (j = 0; j < N1; j++) {
			tmp[i] = A[i][j] * x[j] + tmp[i];
			y[i] = B[i][j] * x[j] + y[i];
		}
		y[i] = alpha * tmp[i] + beta * y[i];
	}
}

void F(pb_mvt_)(float x1[N1], float x2[N1], float y_1[N1], float y_2[N1], float A[N1][N1])
{
	int i, j;
#pragma mixprec(bf16)
	{
		for (i = 0; i < N1; i++)
			for (j = 0; j < N1; j++)
				x1[i] = x1[i] + A[i][j] * y_1[j];
		for (i = 0; i < N1; i++)
			for (j = 0; j < N1; j++)
				x2[i] = x2[i] + A[j][i] * y_2[j];
	}
}

void F(pb_doitgen_)(float A[16][16][N1], float C4[N1][N1], float sum[N1])
{
	int r, q, p, s;
#pragma mixprec(bf16)
	for (r = 0; r < 16; r++)
		for (q = 0; q < 16; q++) {
			for (p = 0; p < N1; p++) {
				sum[p] = 0.0f;
				for (s = 0; s < N1; s++)
					sum[p] += A[r][q][s] * C4[s][p];
			}
			for (p = 0; p < N1; p++)
				A[r][q][p] = sum[p];
		}
}

/* trmm: B := alpha * B + (A's strict lower triangle)^T B, in place (the
 * sum over k > i: a triangular reduction reading rows the loop has not
 * rewritten yet) */
void F(pb_trmm_)(float alpha, float A[N1][N1], float B[N1][N2])
{
	int i, j, k;
#pragma mixprec(bf16)
	for (i = 0; i < N1; i++)
		for (j = 0; j < N2; j++) {
			for (k = i + 1; k < N1; k++)
				B[i][j] += A[k][i] * B[k][j];
			B[i][j] = alpha * B[i][j];
		}
}
