/* loop_f32.c -- the float loops of bench_lp as a user writes them, under
 * `#pragma mixprec(MP_LP_PREC)`.  Built six times: without the plugin
 * (suffix plain) and with it for int8, bf16, fp8_e4m3, uint8, and int8 with
 * constant=w on the dense layer (suffix int8c); the macros expand inside
 * the pragma. */
#ifndef MP_SUFFIX
#error "define MP_SUFFIX and MP_LP_PREC"
#endif
/* MP_LP_DENSE: extra clauses of the dense layer's pragma (", constant=w") */
#ifndef MP_LP_DENSE
#define MP_LP_DENSE
#endif
#define MP_CAT2(a, b) a##b
#define MP_CAT(a, b) MP_CAT2(a, b)

/* y = relu(x w^T + b): x M x K, w N x K, both row-major. */
void MP_CAT(dense_loop_, MP_SUFFIX)(int M, int N, int K, const float *x, const float *w,
				      const float *b, float *y)
{
#pragma mixprec(MP_LP_PREC MP_LP_DENSE)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = b[j];
			for (int k = 0; k < K; k++)
				s += x[i * K + k] * w[j * K + k];
			y[i * N + j] = s > 0 ? s : 0;
		}
}

/* C = A B, all row-major. */
void MP_CAT(gemm_loop_, MP_SUFFIX)(int M, int N, int K, const float *A, const float *B, float *C)
{
#pragma mixprec(MP_LP_PREC)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;
			for (int k = 0; k < K; k++)
				s += A[i * K + k] * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* A direct 3-D convolution as NCHW code writes it (no padding, stride 1):
   out[oc][oh][ow] = sum_{c,kh,kw} in[c][oh+kh][ow+kw] * w[oc][c][kh][kw]. */
void MP_CAT(conv_loop_, MP_SUFFIX)(int C, int H, int W, int OC, int KH, int KW,
				     const float *in, const float *w, float *out)
{
	int OH = H - KH + 1, OW = W - KW + 1;
#pragma mixprec(MP_LP_PREC)
	for (int oc = 0; oc < OC; oc++)
		for (int oh = 0; oh < OH; oh++)
			for (int ow = 0; ow < OW; ow++) {
				float s = 0;
				for (int c = 0; c < C; c++)
					for (int kh = 0; kh < KH; kh++)
						for (int kw = 0; kw < KW; kw++)
							s += in[(c * H + oh + kh) * W + ow + kw] *
							     w[((oc * C + c) * KH + kh) * KW + kw];
				out[(oc * OH + oh) * OW + ow] = s;
			}
}
