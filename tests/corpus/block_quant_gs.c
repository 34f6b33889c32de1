// MIXPREC-TRANSFORMED: 3
// MIXPREC-CFLAGS: -fopenmp -L/usr/lib/llvm-14/lib
/* block_quant_gs.c -- block-quantized matrix-vector products whose group
 * size is known only at run time, as llama2.c's runq.c has it: `int GS =
 * 0;` a global set from the checkpoint's header, the group loop `for (j =
 * 0; j <= n - GS; j += GS)` stepping by it (issue 9 item 4).  The glues
 * describe a loop stepping by a parameter; the core plans it as the group
 * loop only, and the call passes its trip count (n - GS)/GS + 1, or -1
 * when GS is not positive (the loop as written then runs).  Forms:
 * runq.c's matmul verbatim (its OpenMP directive included), a group size
 * passed as a parameter, one call per row of a batch, and a near
 * miss: a loop stepping by a variable that is not a group loop. */
#include "harness.h"
#include <mixprec.h>

int GS = 0; // group size global for quantization of the weights

typedef struct {
	int8_t *q;  // quantized values
	float *s;   // scaling factors
} QuantizedTensor;

__attribute__((noinline)) void matmul(float *xout, QuantizedTensor *x, QuantizedTensor *w, int n,
				      int d)
{
	// W (d,n) @ x (n,) -> xout (d,)
	// by far the most amount of time is spent inside this little function
	// inputs to this function are both quantized

	int i;
#pragma mixprec(int8, acc=int32)
#pragma omp parallel for private(i)
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

/* the group size a parameter, the sum declared in the group loop */
__attribute__((noinline)) void bq_param(float *out, const int8_t *wq, const float *ws,
					const int8_t *xq, const float *xs, int rows, int n, int gs)
{
#pragma mixprec(int8, acc=int32)
	for (int r = 0; r < rows; r++) {
		float acc = 0.0f;
		for (int j = 0; j <= n - gs; j += gs) {
			int32_t sum = 0;
			for (int k = 0; k < gs; k++)
				sum += wq[r * n + j + k] * xq[j + k];
			acc += (float)sum * ws[(r * n + j) / gs] * xs[j / gs];
		}
		out[r] = acc;
	}
}

/* a GEMV whose reduction steps by a variable: not a group loop (refused) */
__attribute__((noinline)) void bq_strided(int32_t *out, const int8_t *wq, const int8_t *xq,
					  int rows, int n, int st)
{
#pragma mixprec(int8, acc=int32)
	for (int r = 0; r < rows; r++) { // expected-warning {{loop 'k' steps by 'st', a variable}}
		int32_t acc = 0;
		for (int k = 0; k < n; k += st)
			acc += wq[r * n + k] * xq[k];
		out[r] = acc;
	}
}

/* the same with one call per row of a batch: the pragma on the row loop */
__attribute__((noinline)) void bq_batch(float *out, const int8_t *wq, const float *ws,
					const int8_t *xq, const float *xs, int nb, int rows, int n)
{
	for (int b = 0; b < nb; b++) {
#pragma mixprec(int8, acc=int32)
		for (int r = 0; r < rows; r++) {
			float acc = 0.0f;
			int32_t s = 0;
			for (int j = 0; j <= n - GS; j += GS) {
				for (int k = 0; k < GS; k++)
					s += wq[r * n + j + k] * xq[b * n + j + k];
				acc += (float)s * ws[(r * n + j) / GS] * xs[(b * n + j) / GS];
				s = 0;
			}
			out[b * rows + r] = acc;
		}
	}
}

void corpus_main(void)
{
	static const int sizes[] = { 32, 64, 4, 1, 3, 7 };
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		GS = sizes[sh % 6];
		int groups = K % 9 + 1, n = groups * GS + (sh % 4 == 3 ? GS / 2 + 1 : 0);
		int batch = N % 3 + 1;
		int8_t *wq = harness_rand_s8((size_t)M * n + 64);
		int8_t *xq = harness_rand_s8((size_t)batch * n + 64);
		float *ws = harness_rand_f32((size_t)M * n + 8, -2.0f, 2.0f);
		float *xs = harness_rand_f32((size_t)batch * n + 8, 0.0f, 1.0f);
		float *out = harness_rand_f32((size_t)batch * M + 8, -1.0f, 1.0f);
		int32_t *o32 = harness_rand_s32((size_t)M + 8, -100, 100);
		QuantizedTensor x = { xq, xs }, w = { wq, ws };

		matmul(out, &x, &w, n, M);
		harness_out_array(harness_name("runq %dx%d gs %d", M, n, GS), out, (size_t)M + 8);
		bq_param(out, wq, ws, xq, xs, M, n, sizes[(sh + 1) % 6]);
		harness_out_array(harness_name("param %dx%d gs %d", M, n, sizes[(sh + 1) % 6]), out,
				  (size_t)M + 8);
		bq_batch(out, wq, ws, xq, xs, batch, M, n);
		harness_out_array(harness_name("batch %dx%dx%d gs %d", batch, M, n, GS), out,
				  (size_t)batch * M + 8);
		bq_strided(o32, wq, xq, M, n, 1 + sh % 3);
		harness_out_array(harness_name("strided %dx%d", M, n), o32, (size_t)M + 8);
		harness_free(wq);
		harness_free(xq);
		harness_free(ws);
		harness_free(xs);
		harness_free(out);
		harness_free(o32);
	}
	/* thousands of groups: the glues read group g's sum at an index they
	   compute from j without dividing by the step (a product with about
	   1/gs, rounded up: 1/gs rounded to nearest gives a wrong group for
	   gs 49, 98, 103, 107, 187, ..., from the second group on) */
	static const int many[] = { 3, 49, 7, 103, 13, 98, 107, 48, 1, 187 };
	for (int t = 0; t < 10; t++) {
		int gs = many[t], rows = 2 + t % 3, n = gs * (5003 - 211 * t) + (t % 2);
		int8_t *wq = harness_rand_s8((size_t)rows * n + 64);
		int8_t *xq = harness_rand_s8((size_t)n + 64);
		float *ws = harness_rand_f32((size_t)rows * n + 8, -2.0f, 2.0f);
		float *xs = harness_rand_f32((size_t)n + 8, 0.0f, 1.0f);
		float *out = harness_rand_f32((size_t)rows + 8, -1.0f, 1.0f);
		bq_param(out, wq, ws, xq, xs, rows, n, gs);
		harness_out_array(harness_name("many %dx%d gs %d", rows, n, gs), out, (size_t)rows + 8);
		harness_free(wq);
		harness_free(xq);
		harness_free(ws);
		harness_free(xs);
		harness_free(out);
	}
}
