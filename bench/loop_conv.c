/* loop_conv.c -- a direct int8 convolution as C inference code writes it:
 * NHWC input already padded by the caller ((H + KH - 1) x (W + KW - 1) x C),
 * OHWI weights (TFLite's layout), int32 output, stride 1.  The pragma sits
 * on the image loops; the reduction runs over the window and the input
 * channels (kh, kw, ic).  Built twice: without the plugin (suffix plain)
 * and with it (suffix mixprec), both -O3 -march=native. */
#include <stdint.h>

#ifndef MP_SUFFIX
#error "define MP_SUFFIX (plain or mixprec)"
#endif
#define MP_CAT2(a, b) a##b
#define MP_CAT(a, b) MP_CAT2(a, b)
#define F(name) MP_CAT(name, MP_SUFFIX)

void F(conv_nhwc_)(int OH, int OW, int C, int OC, int KH, int KW, const int8_t *in,
		   const int8_t *w, int32_t *out)
{
	int IW = OW + KW - 1;
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < OH; oh++)
		for (int ow = 0; ow < OW; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < KH; kh++)
					for (int kw = 0; kw < KW; kw++)
						for (int ic = 0; ic < C; ic++)
							acc += in[((oh + kh) * IW + ow + kw) * C + ic] *
							       w[((oc * KH + kh) * KW + kw) * C + ic];
				out[(oh * OW + ow) * OC + oc] = acc;
			}
}
