/* small_model.c -- the small-shape cost model for floating-point sources
 * on the avx2 family (runtime/nest.c, mp_small_k_lp*_avx2_*): shapes where
 * the loop as written is several times faster than the kernels run the
 * loop, large ones the kernels.  Built with the GCC plugin; run with
 * MIXPREC_TARGET=avx2, so that the avx2 family's constants apply on any
 * CPU with AVX2 (77, skipped, without it).
 *
 * The small shapes are the worst choices bench_small measured with the
 * avx512 constants on an AVX2-only CPU (kernels / loop time): dense bf16
 * 2x32x16 (8.3x), gemm bf16 4x64x4 (4.4x), dense int8 8x16x9 (3.2x), gemm
 * int8 2x64x256 (13x).  On them no call may run on the kernels (the
 * guard before the call skips it, or the runtime returns the loop), and
 * the result is the loop's, bit for bit; 64x64x64 runs on the kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"

/* NESTS(name, pragma): the two nests, annotated with PRAGMA (or not,
 * PRAGMA empty: the reference for the loop's bits) */
#define NESTS(name, pragma)                                                                \
	static void dense_##name(int M, int N, int K, const float *x, const float *w,      \
				 const float *b, float *y)                                 \
	{                                                                                  \
		pragma                                                                     \
		for (int i = 0; i < M; i++)                                                \
			for (int j = 0; j < N; j++) {                                      \
				float s = b[j];                                            \
				for (int k = 0; k < K; k++)                                \
					s += x[i * K + k] * w[j * K + k];                  \
				y[i * N + j] = s > 0 ? s : 0;                              \
			}                                                                  \
	}                                                                                  \
	static void gemm_##name(int M, int N, int K, const float *A, const float *B,       \
				float *C)                                                  \
	{                                                                                  \
		pragma                                                                     \
		for (int i = 0; i < M; i++)                                                \
			for (int j = 0; j < N; j++) {                                      \
				float s = 0;                                               \
				for (int k = 0; k < K; k++)                                \
					s += A[i * K + k] * B[k * N + j];                  \
				C[i * N + j] = s;                                          \
			}                                                                  \
	}
NESTS(bf16, _Pragma("mixprec(bf16)"))
NESTS(int8, _Pragma("mixprec(int8)"))
NESTS(ref, )

typedef struct shape {
	const char *name;
	int dense, prec_i8, M, N, K, kernels;   /* kernels: 1 must run them, 0 must not */
} shape;

static const shape shapes[] = {
	{"dense bf16", 1, 0, 2, 32, 16, 0},   {"gemm bf16", 0, 0, 4, 64, 4, 0},
	{"dense int8", 1, 1, 8, 16, 9, 0},    {"gemm int8", 0, 1, 2, 64, 256, 0},
	{"dense bf16", 1, 0, 64, 64, 64, 1},  {"gemm bf16", 0, 0, 64, 64, 64, 1},
	{"dense int8", 1, 1, 64, 64, 64, 1},  {"gemm int8", 0, 1, 64, 64, 64, 1},
};

int main(void)
{
	if (!mp_kernel_available(MP_KERNEL_AVX2)) {
		printf("small_model: SKIP (no AVX2)\n");
		return 77;
	}
	setenv("MIXPREC_TARGET", "avx2", 1);
	unsetenv("MIXPREC_SMALL");
	unsetenv("MIXPREC_DISABLE");
	mp_env_reload();
	enum { D = 64 * 256 };
	float *a = malloc(sizeof(float) * D), *b = malloc(sizeof(float) * D);
	float *bias = malloc(sizeof(float) * 64), *y = malloc(sizeof(float) * D);
	float *r = malloc(sizeof(float) * D);
	unsigned seed = 12345;
	for (int i = 0; i < D; i++) {
		seed = seed * 1103515245u + 12345u;
		a[i] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
		seed = seed * 1103515245u + 12345u;
		b[i] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
	}
	for (int i = 0; i < 64; i++)
		bias[i] = (float)i / 64.0f - 0.5f;
	int fails = 0;
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		const shape *sh = &shapes[s];
		mp_stats st0, st1;
		memset(y, 0, sizeof(float) * D);
		mp_stats_get(&st0);
		if (sh->dense)
			(sh->prec_i8 ? dense_int8 : dense_bf16)(sh->M, sh->N, sh->K, a, b, bias, y);
		else
			(sh->prec_i8 ? gemm_int8 : gemm_bf16)(sh->M, sh->N, sh->K, a, b, y);
		mp_stats_get(&st1);
		long fast = st1.fast - st0.fast;
		int bad = sh->kernels ? fast != 1 : fast != 0;
		if (!sh->kernels) {   /* the loop ran: its bits */
			if (sh->dense)
				dense_ref(sh->M, sh->N, sh->K, a, b, bias, r);
			else
				gemm_ref(sh->M, sh->N, sh->K, a, b, r);
			if (memcmp(r, y, sizeof(float) * (size_t)(sh->M * sh->N)))
				bad = 1;
		}
		printf("%s %s %dx%dx%d: %s (%s)\n", bad ? "FAIL" : "ok", sh->name, sh->M, sh->N,
		       sh->K, fast ? "kernels" : "loop", sh->kernels ? "kernels wanted" : "loop wanted");
		fails += bad;
	}
	printf("small_model: %d failure(s)\n", fails);
	free(a), free(b), free(bias), free(y), free(r);
	return fails != 0;
}
