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

/* The same convolution with its padding written in the loop, as KissDL
 * and TensorFlow Lite's reference kernels do: the input is the image
 * itself (H x W x C, no margin); a window position outside it is left out
 * (`continue`).  Padding P on each side, output (H + 2P - KH + 1) x ... */
void F(conv_pad_)(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *input,
		  const int8_t *filter, int32_t *output)
{
	int OH = H + 2 * P - KH + 1, OW = W + 2 * P - KW + 1;
	int out_y, out_x, out_d, f_y, f_x, in_d;
#pragma mixprec(int8, acc=int32)
	for (out_y = 0; out_y < OH; out_y++) {
		const int in_y_origin = out_y - P;
		for (out_x = 0; out_x < OW; out_x++) {
			const int in_x_origin = out_x - P;
			for (out_d = 0; out_d < OC; out_d++) {
				int32_t total = 0;
				for (f_y = 0; f_y < KH; f_y++) {
					const int in_y = in_y_origin + f_y;
					if ((in_y < 0) || (in_y >= H))
						continue;
					for (f_x = 0; f_x < KW; f_x++) {
						const int in_x = in_x_origin + f_x;
						if ((in_x < 0) || (in_x >= W))
							continue;
						for (in_d = 0; in_d < C; in_d++)
							total += input[(in_y * W + in_x) * C + in_d] *
								 filter[((out_d * KH + f_y) * KW + f_x) * C + in_d];
					}
				}
				output[(out_y * OW + out_x) * OC + out_d] = total;
			}
		}
	}
}

/* The same convolution with the window clipped by its loop bounds, as
 * CMSIS-NN's reference convolution writes it (arm_convolve_s8's portable
 * path, its Cortex-M0 form: output channel outermost, the window's start
 * and end computed with MAX/MIN per pixel), on the image itself, stride 1
 * and padding P, OHWI weights, NHWC output.  The loops visit only the
 * window's part inside the image. */
#define CLIP_MAX(A, B) ((A) > (B) ? (A) : (B))
#define CLIP_MIN(A, B) ((A) < (B) ? (A) : (B))
void F(conv_clip_)(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *input,
		   const int8_t *filter, int32_t *output)
{
	const int32_t output_y = H + 2 * P - KH + 1, output_x = W + 2 * P - KW + 1;
	int32_t i_out_ch, i_out_y, i_out_x, i_input_ch, i_ker_y, i_ker_x;
	int32_t conv_out;
#pragma mixprec(int8, acc=int32)
	for (i_out_ch = 0; i_out_ch < OC; i_out_ch++) {
		for (i_out_y = 0; i_out_y < output_y; i_out_y++) {
			for (i_out_x = 0; i_out_x < output_x; i_out_x++) {
				conv_out = 0;
				const int32_t base_idx_y = i_out_y - P;
				const int32_t base_idx_x = i_out_x - P;
				const int32_t ker_y_start = CLIP_MAX(0, -base_idx_y);
				const int32_t ker_x_start = CLIP_MAX(0, -base_idx_x);
				const int32_t ker_y_end = CLIP_MIN(KH, H - base_idx_y);
				const int32_t ker_x_end = CLIP_MIN(KW, W - base_idx_x);
				for (i_ker_y = ker_y_start; i_ker_y < ker_y_end; i_ker_y++) {
					for (i_ker_x = ker_x_start; i_ker_x < ker_x_end; i_ker_x++) {
						const int32_t in_row = base_idx_y + i_ker_y;
						const int32_t in_col = base_idx_x + i_ker_x;
						for (i_input_ch = 0; i_input_ch < C; i_input_ch++)
							conv_out += input[(in_row * W + in_col) * C + i_input_ch] *
								    filter[i_out_ch * C * KH * KW +
									   (i_ker_y * KW + i_ker_x) * C + i_input_ch];
					}
				}
				output[i_out_ch + (i_out_y * output_x + i_out_x) * OC] = conv_out;
			}
		}
	}
}

/* The clipped form with CMSIS-NN's requantization after each sum (a
 * doubling high multiply and a rounding shift per output channel, output
 * offset, clamp, int8 store), as arm_convolve_s8's portable path writes
 * it: the epilogue runs as written on the int32 tile (tile mode), the two
 * image loops the call's rows. */
static inline int32_t clip_requantize(int32_t val, int32_t mult, int32_t shift)
{
	int32_t right = shift > 0 ? 0 : -shift;
	int64_t prod = (int64_t)(val * (1 << (shift > 0 ? shift : 0))) * mult;
	int32_t hi = (int32_t)((prod + ((int64_t)1 << 30)) >> 31);
	int32_t mask = (int32_t)(((int64_t)1 << right) - 1);
	int32_t rem = hi & mask, thr = (mask >> 1) + (hi < 0);
	return (hi >> right) + (rem > thr);
}

void F(conv_clipq_)(int H, int W, int C, int OC, int KH, int KW, int P, const int8_t *input,
		    const int8_t *filter, const int32_t *bias, const int32_t *mult,
		    const int32_t *shift, int8_t *output)
{
	const int32_t output_y = H + 2 * P - KH + 1, output_x = W + 2 * P - KW + 1;
	int32_t i_out_ch, i_out_y, i_out_x, i_input_ch, i_ker_y, i_ker_x;
	int32_t conv_out;
#pragma mixprec(int8, acc=int32)
	for (i_out_ch = 0; i_out_ch < OC; i_out_ch++) {
		for (i_out_y = 0; i_out_y < output_y; i_out_y++) {
			for (i_out_x = 0; i_out_x < output_x; i_out_x++) {
				conv_out = 0;
				const int32_t base_idx_y = i_out_y - P;
				const int32_t base_idx_x = i_out_x - P;
				const int32_t ker_y_start = CLIP_MAX(0, -base_idx_y);
				const int32_t ker_x_start = CLIP_MAX(0, -base_idx_x);
				const int32_t ker_y_end = CLIP_MIN(KH, H - base_idx_y);
				const int32_t ker_x_end = CLIP_MIN(KW, W - base_idx_x);
				for (i_ker_y = ker_y_start; i_ker_y < ker_y_end; i_ker_y++) {
					for (i_ker_x = ker_x_start; i_ker_x < ker_x_end; i_ker_x++) {
						const int32_t in_row = base_idx_y + i_ker_y;
						const int32_t in_col = base_idx_x + i_ker_x;
						for (i_input_ch = 0; i_input_ch < C; i_input_ch++)
							conv_out += input[(in_row * W + in_col) * C + i_input_ch] *
								    filter[i_out_ch * C * KH * KW +
									   (i_ker_y * KW + i_ker_x) * C + i_input_ch];
					}
				}
				if (bias)
					conv_out += bias[i_out_ch];
				conv_out = clip_requantize(conv_out, mult[i_out_ch], shift[i_out_ch]);
				conv_out += -3;
				conv_out = CLIP_MAX(conv_out, -128);
				conv_out = CLIP_MIN(conv_out, 127);
				output[i_out_ch + (i_out_y * output_x + i_out_x) * OC] = (int8_t)conv_out;
			}
		}
	}
}
