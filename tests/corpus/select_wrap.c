// MIXPREC-TRANSFORMED: 1
/* select_wrap.c -- padding written as a select whose other value does not
 * fit the operand's type: `int8_t v = inside ? in[...] : 300;` stores
 * (int8_t)300 = 44 at a padded pixel (C's conversion of the whole
 * conditional, modulo 2^8 on GCC and clang).  The padding value is then 44;
 * the kernels must run (some call on the fast path: a padding value
 * outside int8 would make every call take the loop), under GCC, clang 14
 * and clang 19 alike.  One nest per file, so that the harness's fast > 0
 * is about this nest. */
#include "harness.h"
#include <mixprec.h>

/* a 1-D convolution over a row of W pixels of C channels, window 3,
   padding 1 */
__attribute__((noinline)) void sw_conv1d(int W, int C, int OC, const int8_t *in, const int8_t *w,
					 int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int ow = 0; ow < W; ow++)
		for (int oc = 0; oc < OC; oc++) {
			int32_t acc = 0;
			for (int kw = 0; kw < 3; kw++)
				for (int ic = 0; ic < C; ic++) {
					int iw = ow + kw - 1;
					int8_t v = (iw >= 0 && iw < W) ? in[iw * C + ic] : 300;
					acc += v * w[(oc * 3 + kw) * C + ic];
				}
			out[ow * OC + oc] = acc;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int W = 1 + M % 23, C = 1 + K % 40, OC = N % 37;
		size_t margin = (size_t)4 * C + 64;
		int8_t *inb = harness_rand_s8((size_t)W * C + 2 * margin), *in = inb + margin;
		int8_t *w = harness_rand_s8((size_t)OC * 3 * C + 1);
		int32_t *out = harness_rand_s32((size_t)W * OC + 1, -1000, 1000);
		sw_conv1d(W, C, OC, in, w, out);
		harness_out_array(harness_name("conv1d 300 %dx%d->%d", W, C, OC), out,
				  (size_t)W * OC);
		harness_free(inb);
		harness_free(w);
		harness_free(out);
	}
}
