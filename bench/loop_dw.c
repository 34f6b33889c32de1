/* loop_dw.c -- an int8 depthwise 3x3 convolution as TensorFlow Lite's
 * reference kernel writes it (DepthwiseConvPerChannel, in C): NHWC input,
 * weights [3][3][C], stride 1, padding 1 written in the loop as the
 * `is_point_inside_image` flag, the operands read into locals inside the
 * `if`, an int32 output with a bias.  Built twice: without the plugin
 * (suffix plain) and with it (suffix mixprec), both -O3 -march=native. */
#include <stdint.h>

#ifndef MP_SUFFIX
#error "define MP_SUFFIX (plain or mixprec)"
#endif
#define MP_CAT2(a, b) a##b
#define MP_CAT(a, b) MP_CAT2(a, b)
#define F(name) MP_CAT(name, MP_SUFFIX)

void F(dw_nhwc_)(int H, int W, int C, const int8_t *input_data, const int8_t *filter_data,
		 const int32_t *bias_data, int32_t *output_data)
{
#pragma mixprec(int8, acc=int32)
	for (int out_y = 0; out_y < H; ++out_y) {
		for (int out_x = 0; out_x < W; ++out_x) {
			for (int ch = 0; ch < C; ++ch) {
				const int in_x_origin = out_x - 1;
				const int in_y_origin = out_y - 1;
				int32_t acc = 0;
				for (int filter_y = 0; filter_y < 3; ++filter_y) {
					for (int filter_x = 0; filter_x < 3; ++filter_x) {
						const int in_x = in_x_origin + filter_x;
						const int in_y = in_y_origin + filter_y;
						const int is_point_inside_image =
							(in_x >= 0) && (in_x < W) && (in_y >= 0) &&
							(in_y < H);
						if (is_point_inside_image) {
							int32_t input_val = input_data[(in_y * W + in_x) * C + ch];
							int32_t filter_val = filter_data[(filter_y * 3 + filter_x) * C + ch];
							acc += filter_val * input_val;
						}
					}
				}
				acc += bias_data[ch];
				output_data[(out_y * W + out_x) * C + ch] = acc;
			}
		}
	}
}
