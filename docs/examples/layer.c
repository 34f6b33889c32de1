/* layer.c -- one quantized dense layer, y = requant(x w^T + b), written as a
 * plain loop nest with the pragma: the file every example project builds.
 * The same nest without the pragma (reference) checks the result. */
#include <stdio.h>
#include <stdint.h>
#include <mixprec.h>

enum { M = 64, N = 96, K = 200 };

static void layer(const uint8_t *x, const int8_t *w, const int32_t *b, int8_t *y, float scale)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = b[j];
			for (int k = 0; k < K; k++)
				s += (x[i * K + k] - 128) * w[j * K + k];
			y[i * N + j] = (int8_t)mp_requant_fp32(s, scale, 3, -128, 127);
		}
}

static void reference(const uint8_t *x, const int8_t *w, const int32_t *b, int8_t *y, float scale)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = b[j];
			for (int k = 0; k < K; k++)
				s += (x[i * K + k] - 128) * w[j * K + k];
			y[i * N + j] = (int8_t)mp_requant_fp32(s, scale, 3, -128, 127);
		}
}

int main(void)
{
	static uint8_t x[M * K];
	static int8_t w[N * K], y[M * N], r[M * N];
	static int32_t b[N];
	uint32_t s = 12345;
	for (int i = 0; i < M * K; i++)
		x[i] = (uint8_t)((s = s * 1103515245u + 12345u) >> 24);
	for (int i = 0; i < N * K; i++)
		w[i] = (int8_t)((s = s * 1103515245u + 12345u) >> 24);
	for (int j = 0; j < N; j++)
		b[j] = (int32_t)((s = s * 1103515245u + 12345u) >> 20) - 2048;
	layer(x, w, b, y, 0.0007f);
	reference(x, w, b, r, 0.0007f);
	int bad = 0;
	for (int i = 0; i < M * N; i++)
		bad += y[i] != r[i];
#ifdef __MIXPREC__
	printf("plugin %d\n", __MIXPREC__);
#else
	printf("plugin none\n");
#endif
	mp_stats st;
	mp_stats_get(&st);
	printf("kernels %ld fallback %ld mismatches %d\n", st.fast, st.fallback, bad);
	return bad != 0;
}
