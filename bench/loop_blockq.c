/* loop_blockq.c -- the block-quantized matrix-vector product of
 * bench_blockq as LLM runners in C write it (llama2.c's runq.c `matmul`,
 * kept as published but for the OpenMP pragma: one thread), under the
 * mixprec pragma.  Built twice: without the plugin (suffix plain) and with
 * it (suffix mixprec), both -O3 -march=native; with MP_BLOCKQ_OMP (and
 * -fopenmp) as published, its `#pragma omp parallel for private(i)`
 * included (suffixes plain_omp, mixprec_omp).  matmul_gsv_ is the same
 * with the group size a global variable, as runq.c has it (`int GS`, read
 * from the checkpoint). */
#include <stdint.h>

#ifndef MP_SUFFIX
#error "define MP_SUFFIX (plain or mixprec)"
#endif
#define MP_CAT2(a, b) a##b
#define MP_CAT(a, b) MP_CAT2(a, b)
#define F(name) MP_CAT(name, MP_SUFFIX)

#define GS 32

typedef struct {
	int8_t *q;  /* quantized values */
	float *s;   /* scaling factors */
} QuantizedTensor;

void F(matmul_)(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n, int d)
{
	int i;
#pragma mixprec(int8, acc=int32)
#ifdef MP_BLOCKQ_OMP
#pragma omp parallel for private(i)
#endif
	for (i = 0; i < d; i++) {
		float val = 0.0f;
		int32_t ival = 0;
		int in = i * n;
		int j;
		for (j = 0; j <= n - GS; j += GS) {
			for (int k = 0; k < GS; k++) {
				ival += ((int32_t)x->q[j + k]) * ((int32_t)w->q[in + j + k]);
			}
			val += ((float)ival) * w->s[(in + j) / GS] * x->s[j / GS];
			ival = 0;
		}
		xout[i] = val;
	}
}

/* runq.c's group size: a global set at run time */
int F(gsv_) = 32;
#define GSV F(gsv_)

void F(matmul_gsv_)(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n, int d)
{
	int i;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < d; i++) {
		float val = 0.0f;
		int32_t ival = 0;
		int in = i * n;
		int j;
		for (j = 0; j <= n - GSV; j += GSV) {
			for (int k = 0; k < GSV; k++) {
				ival += ((int32_t)x->q[j + k]) * ((int32_t)w->q[in + j + k]);
			}
			val += ((float)ival) * w->s[(in + j) / GSV] * x->s[j / GSV];
			ival = 0;
		}
		xout[i] = val;
	}
}
