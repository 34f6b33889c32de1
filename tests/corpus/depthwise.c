// MIXPREC-TRANSFORMED: 4
/* depthwise.c -- depthwise convolutions as public C code writes them
 * (issue 9): the channel loop indexes the input, the weights and the
 * output (a batch loop inside the contraction), the sum runs over the
 * window.  The kernels compute one int32 sum per (pixel, channel,
 * multiplier) into a tile, vectors across the channels; the code around
 * the sums (bias, requantization, stores) runs as written.  Forms:
 * TensorFlow Lite's reference DepthwiseConvPerChannel as C (batches,
 * channel multiplier, stride, dilation, padding through its
 * `is_point_inside_image` flag with the operands read into locals inside
 * the `if`, an input offset, a per-channel requantization helper of the
 * user's own); a plain NHWC 3x3 with iterators declared at the top and
 * multiplier 1; KissDL's `continue` on a uint8 input with its zero point;
 * a 1-D depthwise (a single window loop).  An NCHW depthwise (the channel
 * loop around both image loops, each channel a matrix-vector product over
 * 9 taps with the pixels one byte apart) is refused: the compiler
 * vectorises the loop as written across the pixels, which the kernels did
 * not beat (3.5-4.6x slower). */
#include "harness.h"
#include <mixprec.h>

static inline int32_t mbqm(int32_t x, int32_t qm, int shift)
{
	int64_t p = (int64_t)x * qm;
	int s = 31 - shift;
	return (int32_t)((p + ((int64_t)1 << (s - 1))) >> s);
}

/* TensorFlow Lite reference_integer_ops::DepthwiseConvPerChannel, as C */
__attribute__((noinline)) void dw_tflite(int batches, int input_height, int input_width,
					 int input_depth, int filter_height, int filter_width,
					 int output_height, int output_width, int depth_multiplier,
					 int stride_width, int stride_height,
					 int dilation_width_factor, int dilation_height_factor,
					 int pad_width, int pad_height, int32_t input_offset,
					 int32_t output_offset, const int32_t *output_multiplier,
					 const int32_t *output_shift, int32_t output_activation_min,
					 int32_t output_activation_max, const int8_t *input_data,
					 const int8_t *filter_data, const int32_t *bias_data,
					 int8_t *output_data)
{
	const int output_depth = input_depth * depth_multiplier;
#pragma mixprec(int8, acc=int32)
	for (int batch = 0; batch < batches; ++batch) {
		for (int out_y = 0; out_y < output_height; ++out_y) {
			for (int out_x = 0; out_x < output_width; ++out_x) {
				for (int in_channel = 0; in_channel < input_depth; ++in_channel) {
					for (int m = 0; m < depth_multiplier; ++m) {
						const int output_channel = m + in_channel * depth_multiplier;
						const int in_x_origin = (out_x * stride_width) - pad_width;
						const int in_y_origin = (out_y * stride_height) - pad_height;
						int32_t acc = 0;
						for (int filter_y = 0; filter_y < filter_height; ++filter_y) {
							for (int filter_x = 0; filter_x < filter_width; ++filter_x) {
								const int in_x = in_x_origin + dilation_width_factor * filter_x;
								const int in_y = in_y_origin + dilation_height_factor * filter_y;
								const int is_point_inside_image =
									(in_x >= 0) && (in_x < input_width) &&
									(in_y >= 0) && (in_y < input_height);
								if (is_point_inside_image) {
									int32_t input_val = input_data[((batch * input_height + in_y) * input_width + in_x) * input_depth + in_channel];
									int32_t filter_val = filter_data[(filter_y * filter_width + filter_x) * output_depth + output_channel];
									acc += filter_val * (input_val + input_offset);
								}
							}
						}
						if (bias_data) {
							acc += bias_data[output_channel];
						}
						acc = mbqm(acc, output_multiplier[output_channel],
							   output_shift[output_channel]);
						acc += output_offset;
						acc = acc > output_activation_min ? acc : output_activation_min;
						acc = acc < output_activation_max ? acc : output_activation_max;
						output_data[((batch * output_height + out_y) * output_width + out_x) * output_depth + output_channel] = (int8_t)acc;
					}
				}
			}
		}
	}
}

/* NHWC 3x3, no padding, multiplier 1, C89 iterators */
__attribute__((noinline)) void dw_plain(int H, int W, int C, const int8_t *in, const int8_t *k,
					const int32_t *bias, int32_t *out)
{
	int y, x, c, ky, kx;
	int OH = H - 2, OW = W - 2;
#pragma mixprec(int8, acc=int32)
	for (y = 0; y < OH; y++)
		for (x = 0; x < OW; x++)
			for (c = 0; c < C; c++) {
				int32_t sum = bias[c];
				for (ky = 0; ky < 3; ky++)
					for (kx = 0; kx < 3; kx++)
						sum += in[((y + ky) * W + x + kx) * C + c] *
						       k[(ky * 3 + kx) * C + c];
				out[(y * OW + x) * C + c] = sum;
			}
}

/* KissDL-style window test, uint8 input with its zero point, stride S */
__attribute__((noinline)) void dw_u8(int H, int W, int C, int OH, int OW, int S, int P,
				     const uint8_t *in, int32_t zx, const int8_t *k, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int oy = 0; oy < OH; oy++)
		for (int ox = 0; ox < OW; ox++) {
			for (int c = 0; c < C; c++) {
				int32_t acc = 0;
				for (int ky = 0; ky < 3; ky++) {
					int iy = oy * S + ky - P;
					if (iy < 0 || iy >= H)
						continue;
					for (int kx = 0; kx < 3; kx++) {
						int ix = ox * S + kx - P;
						if (ix < 0 || ix >= W)
							continue;
						acc += (in[(iy * W + ix) * C + c] - zx) * k[(ky * 3 + kx) * C + c];
					}
				}
				out[(oy * OW + ox) * C + c] = acc;
			}
		}
}

/* NCHW: the channel loop outermost (refused) */
__attribute__((noinline)) void dw_nchw(int C, int H, int W, const int8_t *in, const int8_t *k,
				       int32_t *out)
{
	int OH = H - 2, OW = W - 2;
#pragma mixprec(int8, acc=int32)
	for (int c = 0; c < C; c++) // expected-warning {{a matrix-vector product over a window of 9 terms with the rows of 'in' one element apart}}
		for (int y = 0; y < OH; y++)
			for (int x = 0; x < OW; x++) {
				int32_t s = 0;
				for (int ky = 0; ky < 3; ky++)
					for (int kx = 0; kx < 3; kx++)
						s += in[(c * H + y + ky) * W + x + kx] * k[c * 9 + ky * 3 + kx];
				out[(c * OH + y) * OW + x] = s;
			}
}

/* 1-D depthwise over time (a causal conv layer of a speech model) */
__attribute__((noinline)) void dw_1d(int T, int C, int KT, const int8_t *x, const int8_t *w,
				     int32_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int t = 0; t < T - KT + 1; t++)
		for (int c = 0; c < C; c++) {
			int32_t s = 0;
			for (int j = 0; j < KT; j++)
				s += x[(t + j) * C + c] * w[j * C + c];
			y[t * C + c] = s;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		int H = 1 + M % 13, W = 1 + (M + K) % 14, C = 1 + (K + N) % 70;
		int DM = 1 + (sh % 4 == 3) + (sh % 8 == 7), B = 1 + sh % 2;
		int FH = 1 + sh % 3, FW = 1 + (sh / 3) % 4;
		size_t margin = (size_t)(W + 4) * C * DM * 4 + 64;
		size_t nin = (size_t)B * H * W * C;
		int8_t *inb = harness_rand_s8(nin + 2 * margin), *in = inb + margin;
		uint8_t *xub = harness_rand_u8(nin + 2 * margin), *xu = xub + margin;
		int8_t *k = harness_rand_s8((size_t)(FH + 3) * (FW + 3) * C * DM + 1);
		int32_t *bias = harness_rand_s32((size_t)C * DM + 1, -5000, 5000);
		int32_t *qm = harness_rand_s32((size_t)C * DM + 1, 1 << 30, 0x7fffffff);
		int32_t *qs = harness_rand_s32((size_t)C * DM + 1, -6, 0);
		size_t nout = (size_t)B * (H + 4) * (W + 4) * C * DM + 1;
		int32_t *out = harness_rand_s32(nout, -1000, 1000);
		int8_t *y8 = harness_rand_s8(nout);

		for (int S = 1; S <= 2; S++)
			for (int D = 1; D <= 2; D++) {
				int P = (sh + S + D) % 3;
				int eh = (FH - 1) * D + 1, ew = (FW - 1) * D + 1;
				int oh = H + 2 * P >= eh ? (H + 2 * P - eh) / S + 1 : 0;
				int ow = W + 2 * P >= ew ? (W + 2 * P - ew) / S + 1 : 0;
				int32_t io = sh % 3 ? harness_randint(-128, 127) : 128;
				dw_tflite(B, H, W, C, FH, FW, oh, ow, DM, S, S, D, D, P, P, io,
					  harness_randint(-10, 10), qm, qs, -128, 127, in, k,
					  (sh + S) % 2 ? bias : NULL, y8);
				harness_out_array(harness_name("tflite %dx%dx%dx%d f%dx%d m%d s%d d%d p%d",
							       B, H, W, C, FH, FW, DM, S, D, P),
						  y8, nout);
			}
		if (H >= 3 && W >= 3) {
			dw_plain(H, W, C, in, k, bias, out);
			harness_out_array(harness_name("plain %dx%dx%d", H, W, C), out, nout);
			dw_nchw(C, H, W, in, k, out);
			harness_out_array(harness_name("nchw %dx%dx%d", C, H, W), out, nout);
		}
		for (int S = 1; S <= 2; S++) {
			int P = (sh + S) % 2;
			int oh = H + 2 * P >= 3 ? (H + 2 * P - 3) / S + 1 : 0;
			int ow = W + 2 * P >= 3 ? (W + 2 * P - 3) / S + 1 : 0;
			int32_t zx = sh % 2 ? 128 : harness_randint(0, 255);
			dw_u8(H, W, C, oh, ow, S, P, xu, zx, k, out);
			harness_out_array(harness_name("u8 %dx%dx%d s%d p%d zx%d", H, W, C, S, P, zx),
					  out, nout);
		}
		dw_1d(H * W, C, FH + FW, in, k, out);
		harness_out_array(harness_name("1d %dx%d k%d", H * W, C, FH + FW), out, nout);
		harness_free(inb);
		harness_free(xub);
		harness_free(k);
		harness_free(bias);
		harness_free(qm);
		harness_free(qs);
		harness_free(out);
		harness_free(y8);
	}
}
