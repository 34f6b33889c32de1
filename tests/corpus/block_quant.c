// MIXPREC-TRANSFORMED: 5
/* block_quant.c -- block-quantized matrix-vector products as LLM runners in
 * C write them (issue 9 item 4): an int32 sum over each group of GS
 * elements, scaled by the group's scales into a float accumulator.
 *   - llama2.c's runq.c `matmul` as written: a struct holding the int8
 *     values and the scales, `j <= n - GS; j += GS`, the scales indexed
 *     `(in + j) / GS`, the int32 sum reset after each group;
 *   - a group loop counting groups (`g < n / gs`, any gs) with the sum
 *     declared inside it, the scales multiplied in the other order;
 *   - uint8 activations against int8 weights;
 *   - a GEMM over groups (a batch of vectors): one call per vector, the
 *     pragma on the row loop or on the batch loop.
 * The group sums come from the kernels (exact); everything around them,
 * the float scaling included, runs as written, so the float results are
 * the plain build's bit for bit.  Near misses: three reduction loops (the
 * group loop split in two), a group whose length depends on the group. */
#include "harness.h"
#include <mixprec.h>

#define GS 32

typedef struct {
	int8_t *q;  /* quantized values */
	float *s;   /* scaling factors */
} QuantizedTensor;

__attribute__((noinline)) void bq_runq(float *xout, QuantizedTensor *x, QuantizedTensor *w,
				       int n, int d)
{
	// W (d,n) @ x (n,) -> xout (d,)
	// by far the most amount of time is spent inside this little function
	// inputs to this function are both quantized

	int i;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < d; i++) {

		float val = 0.0f;
		int32_t ival = 0;
		int in = i * n;

		// do the matmul in groups of GS
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

__attribute__((noinline)) void bq_groups(float *out, const int8_t *wq, const float *ws,
					 const int8_t *xq, const float *xs, int rows, int n, int gs)
{
	int ng = n / gs;
#pragma mixprec(int8, acc=int32)
	for (int r = 0; r < rows; r++) {
		float acc = 0.0f;
		for (int g = 0; g < ng; g++) {
			int32_t sum = 0;
			for (int k = 0; k < gs; k++)
				sum += wq[r * n + g * gs + k] * xq[g * gs + k];
			acc += (float)sum * (ws[r * ng + g] * xs[g]);
		}
		out[r] = acc;
	}
}

__attribute__((noinline)) void bq_u8(float *out, const int8_t *wq, const float *ws,
				     const uint8_t *xq, float xs, int rows, int n)
{
	int ng = n / GS;
#pragma mixprec(int8, acc=int32)
	for (int r = 0; r < rows; r++) {
		float acc = 0.0f;
		for (int g = 0; g < ng; g++) {
			int32_t sum = 0;
			for (int k = 0; k < GS; k++)
				sum += xq[g * GS + k] * wq[r * n + g * GS + k];
			acc += ws[r * ng + g] * (float)sum;
		}
		out[r] = acc * xs;
	}
}

/* a batch of vectors: the pragma on the row loop of each */
__attribute__((noinline)) void bq_gemm(float *out, const int8_t *wq, const float *ws,
				       const int8_t *xq, const float *xs, int batch, int rows, int n)
{
	int ng = n / GS;
	for (int b = 0; b < batch; b++) {
#pragma mixprec(int8, acc=int32)
		for (int r = 0; r < rows; r++) {
			float acc = 0.0f;
			for (int g = 0; g < ng; g++) {
				int32_t sum = 0;
				for (int k = 0; k < GS; k++)
					sum += wq[r * n + g * GS + k] * xq[b * n + g * GS + k];
				acc += (float)sum * ws[r * ng + g] * xs[b * ng + g];
			}
			out[b * rows + r] = acc;
		}
	}
}

/* the same with the pragma on the batch loop: it runs as written around
   one call per vector */
__attribute__((noinline)) void bq_gemm_outer(float *out, const int8_t *wq, const float *ws,
					     const int8_t *xq, const float *xs, int batch, int rows,
					     int n)
{
	int ng = n / GS;
#pragma mixprec(int8, acc=int32)
	for (int b = 0; b < batch; b++)
		for (int r = 0; r < rows; r++) {
			float acc = 0.0f;
			for (int g = 0; g < ng; g++) {
				int32_t sum = 0;
				for (int k = 0; k < GS; k++)
					sum += wq[r * n + g * GS + k] * xq[b * n + g * GS + k];
				acc += (float)sum * ws[r * ng + g] * xs[b * ng + g];
			}
			out[b * rows + r] = acc;
		}
}

/* near miss: three reduction loops (the group loop split in two halves) */
__attribute__((noinline)) void bq_three(float *out, const int8_t *wq, const float *ws,
					const int8_t *xq, int rows, int n)
{
	int ng = n / (2 * GS);
#pragma mixprec(int8, acc=int32)
	for (int r = 0; r < rows; r++) { // expected-warning {{only one reduction loop is supported}}
		float acc = 0.0f;
		for (int g = 0; g < ng; g++)
			for (int h = 0; h < 2; h++) {
				int32_t sum = 0;
				for (int k = 0; k < GS; k++)
					sum += wq[r * n + (2 * g + h) * GS + k] * xq[(2 * g + h) * GS + k];
				acc += (float)sum * ws[r * ng + g];
			}
		out[r] = acc;
	}
}

/* near miss: the group's length depends on the group */
__attribute__((noinline)) void bq_tri(float *out, const int8_t *wq, const int8_t *xq, int rows,
				      int ng)
{
#pragma mixprec(int8, acc=int32)
	for (int r = 0; r < rows; r++) { // expected-warning {{bounds of loop 'k' depend on 'g'}}
		float acc = 0.0f;
		for (int g = 0; g < ng; g++) {
			int32_t sum = 0;
			for (int k = 0; k < g; k++)
				sum += wq[r * ng * ng + g * ng + k] * xq[g * ng + k];
			acc += (float)sum * 0.5f;
		}
		out[r] = acc;
	}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int groups = K % 9 + (K > 40 ? 4 : 1);   /* 1 .. 12 groups */
		int n = groups * GS, gs = (N % 5 + 1) * 4, ng = groups, n2 = ng * gs;
		int batch = N % 4 + 1;
		int8_t *wq = harness_rand_s8((size_t)M * (n > n2 ? n : n2) + 64);
		int8_t *xq = harness_rand_s8((size_t)batch * (n > n2 ? n : n2) + 64);
		uint8_t *xu = harness_rand_u8((size_t)n + 64);
		float *ws = harness_rand_f32((size_t)M * ng + 8, -2.0f, 2.0f);
		float *xs = harness_rand_f32((size_t)batch * ng + 8, 0.0f, 1.0f);
		float *out = harness_rand_f32((size_t)batch * M + 8, -1.0f, 1.0f);
		QuantizedTensor x = { xq, xs }, w = { wq, ws };

		bq_runq(out, &x, &w, n, M);
		harness_out_array(harness_name("runq %dx%d", M, n), out, (size_t)M);
		bq_groups(out, wq, ws, xq, xs, M, n2, gs);
		harness_out_array(harness_name("groups %dx%d/%d", M, n2, gs), out, (size_t)M);
		bq_u8(out, wq, ws, xu, 0.25f, M, n);
		harness_out_array(harness_name("u8 %dx%d", M, n), out, (size_t)M);
		bq_gemm(out, wq, ws, xq, xs, batch, M, n);
		harness_out_array(harness_name("gemm %dx%dx%d", batch, M, n), out,
				  (size_t)batch * M);
		bq_gemm_outer(out, wq, ws, xq, xs, batch, M, n);
		harness_out_array(harness_name("gemm_outer %dx%dx%d", batch, M, n), out,
				  (size_t)batch * M);
		bq_three(out, wq, ws, xq, M, n);
		harness_out_array(harness_name("three %dx%d", M, n), out, (size_t)M);
		bq_tri(out, wq, xq, M, ng < 8 ? ng : 8);
		harness_out_array(harness_name("tri %dx%d", M, ng), out, (size_t)M);
		harness_free(wq);
		harness_free(xq);
		harness_free(xu);
		harness_free(ws);
		harness_free(xs);
		harness_free(out);
	}
}
