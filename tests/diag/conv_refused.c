/* conv_refused.c -- convolutions the recogniser refuses (issue 9, item 2),
 * each with its reason at the source: a window test that also depends on
 * the output channel (padding leaves out input pixels, whatever the
 * channel), a guard that is not a conjunction of affine comparisons (a
 * disjunction, a test of the data), a depthwise convolution (the channel
 * indexes the input, the weights and the output), and a window loop with
 * code around its inner loop (neither summed nor quantization groups).
 * The valid forms are in tests/corpus/conv.c and conv_pad.c. */
#include <mixprec.h>

void cr_cond_oc(int H, int W, int C, int OC, const int8_t *in, const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++) // expected-warning {{the condition guarding the sum into 'acc' depends on 'oc'}}
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < 3; kh++) {
					if (ow + oc > W) // expected-note {{the reason is here}}
						continue;
					for (int kw = 0; kw < 3; kw++)
						for (int ic = 0; ic < C; ic++)
							acc += in[((oh + kh) * W + ow + kw) * C + ic] *
							       w[((oc * 3 + kh) * 3 + kw) * C + ic];
				}
				out[(oh * W + ow) * OC + oc] = acc;
			}
}

void cr_guard_or(int H, int W, int C, int OC, const int8_t *in, const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++) // expected-warning {{the update of 'acc' is guarded by a condition mixprec cannot read}}
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < 3; kh++)
					for (int kw = 0; kw < 3; kw++)
						for (int ic = 0; ic < C; ic++)
							if (oh + kh < H || ow + kw < W)
								acc += in[((oh + kh) * W + ow + kw) * C + ic] * // expected-note {{the reason is here}}
								       w[((oc * 3 + kh) * 3 + kw) * C + ic];
				out[(oh * W + ow) * OC + oc] = acc;
			}
}

void cr_guard_data(int H, int W, int C, int OC, const int8_t *in, const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++) // expected-warning {{the update of 'acc' is guarded by a condition mixprec cannot read}}
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < 3; kh++)
					for (int kw = 0; kw < 3; kw++)
						for (int ic = 0; ic < C; ic++)
							if (in[((oh + kh) * W + ow + kw) * C + ic] != 0)
								acc += in[((oh + kh) * W + ow + kw) * C + ic] * // expected-note {{the reason is here}}
								       w[((oc * 3 + kh) * 3 + kw) * C + ic];
				out[(oh * W + ow) * OC + oc] = acc;
			}
}

/* float sources: depthwise (a batch loop inside the rows) is integer only */
void cr_depthwise(int H, int W, int C, const float *in, const float *w, float *out)
{
#pragma mixprec(bf16, acc=fp32)
	for (int oh = 0; oh < H - 2; oh++) // expected-warning {{loop 'c' indexes both operands 'in' and 'w' and the output 'acc' (a batch loop inside the contraction}}
		for (int ow = 0; ow < W - 2; ow++)
			for (int c = 0; c < C; c++) {
				float acc = 0;
				for (int kh = 0; kh < 3; kh++)
					for (int kw = 0; kw < 3; kw++)
						acc += in[((oh + kh) * W + ow + kw) * C + c] *
						       w[(kh * 3 + kw) * C + c];
				out[(oh * (W - 2) + ow) * C + c] = acc;
			}
}

int cr_counted(int OH, int OW, int C, int OC, int W, const int8_t *in, const int8_t *w,
	       int32_t *out)
{
	int taps = 0;
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < OH; oh++) // expected-warning {{share the iterators 'kh' and 'kw'}}
		for (int ow = 0; ow < OW; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < 3; kh++) {
					taps++;
					for (int kw = 0; kw < 3; kw++)
						for (int ic = 0; ic < C; ic++)
							acc += in[((oh + kh) * W + ow + kw) * C + ic] *
							       w[((oc * 3 + kh) * 3 + kw) * C + ic];
				}
				out[(oh * OW + ow) * OC + oc] = acc;
			}
	return taps;
}

