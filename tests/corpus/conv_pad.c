// MIXPREC-TRANSFORMED: 20
/* conv_pad.c -- padded convolutions written with the window test the way
 * public C code writes it (issue 9, item 2): the image is not padded in
 * memory; a term whose input pixel lies outside the image is left out.
 * The runtime's copy of the input puts the input's zero point there (a
 * term of exactly 0).  Forms: KissDL's `if ((in_y < 0) || (in_y >=
 * H)) continue;` in each window loop, its iterators declared at the top
 * of the function, with a batch loop, stride and dilation; TensorFlow Lite
 * reference's `is_point_inside_image` flag and an input offset; a guard
 * around the update (Tengine's reference kernels); a guard on a window
 * loop (`if (...) for (ic ...)`); a uint8 input with its zero point, a
 * requantizing epilogue of the user's own (tile mode, one call per image
 * row); a 1-D convolution padded on both sides; accumulation into the
 * output (direct mode); padding written as a value, `v = inside ? in[...]
 * : 0`, and a select whose other value is 3 inside the product (each
 * padded term 3*w, as the loop computes it). */
#include "harness.h"
#include <mixprec.h>

/* KissDL (priv/conv_2d.c), int8: NHWC input, OHWI filter, bias */
__attribute__((noinline)) void pd_kissdl(int BATCH, int H, int W, int C, int OH, int OW,
					 int OC, int FH, int FW, int S, int D, int P,
					 const int8_t *input, const int8_t *filter,
					 const int32_t *bias, int32_t *output)
{
	int b, in_d, out_y, out_x, out_d, f_y, f_x;
#pragma mixprec(int8, acc=int32)
	for (b = 0; b < BATCH; b++) {
		for (out_y = 0; out_y < OH; out_y++) {
			const int in_y_origin = (out_y * S) - P;
			for (out_x = 0; out_x < OW; out_x++) {
				const int in_x_origin = (out_x * S) - P;
				for (out_d = 0; out_d < OC; out_d++) {
					int32_t total = 0;
					for (f_y = 0; f_y < FH; f_y++) {
						const int in_y = in_y_origin + D * f_y;
						if ((in_y < 0) || (in_y >= H))
							continue;
						for (f_x = 0; f_x < FW; f_x++) {
							const int in_x = in_x_origin + D * f_x;
							if ((in_x < 0) || (in_x >= W))
								continue;
							for (in_d = 0; in_d < C; in_d++) {
								total += input[((b * H + in_y) * W + in_x) * C + in_d] *
									 filter[((out_d * FH + f_y) * FW + f_x) * C + in_d];
							}
						}
					}
					total += bias[out_d];
					output[((b * OH + out_y) * OW + out_x) * OC + out_d] = total;
				}
			}
		}
	}
}

/* TensorFlow Lite's reference (ConvPerChannel, int8), 3x3, as C:
   input_offset added to each input value */
__attribute__((noinline)) void pd_tflite(int H, int W, int C, int OC, int OH, int OW, int S,
					 int P, const int8_t *input_data, int32_t input_offset,
					 const int8_t *filter_data, int32_t *out)
{
	for (int out_y = 0; out_y < OH; ++out_y) {
		const int in_y_origin = (out_y * S) - P;
#pragma mixprec(int8, acc=int32)
		for (int out_x = 0; out_x < OW; ++out_x) {
			const int in_x_origin = (out_x * S) - P;
			for (int out_channel = 0; out_channel < OC; ++out_channel) {
				int32_t acc = 0;
				for (int filter_y = 0; filter_y < 3; ++filter_y) {
					const int in_y = in_y_origin + filter_y;
					for (int filter_x = 0; filter_x < 3; ++filter_x) {
						const int in_x = in_x_origin + filter_x;
						// Zero padding by omitting the areas outside the image.
						const int is_point_inside_image =
							(in_x >= 0) && (in_x < W) && (in_y >= 0) &&
							(in_y < H);
						if (!is_point_inside_image)
							continue;
						for (int in_channel = 0; in_channel < C; ++in_channel) {
							int32_t input_val =
								input_data[(in_y * W + in_x) * C + in_channel];
							int32_t filter_val =
								filter_data[((out_channel * 3 + filter_y) * 3 +
									     filter_x) * C + in_channel];
							acc += filter_val * (input_val + input_offset);
						}
					}
				}
				out[(out_y * OW + out_x) * OC + out_channel] = acc;
			}
		}
	}
}

/* the guard around the update (Tengine's ref_conv), HWIO weights */
__attribute__((noinline)) void pd_guard(int H, int W, int C, int OC, int KH, int KW, int P,
					const int8_t *in, const int8_t *w, int32_t *out)
{
	int OH = H + 2 * P - KH + 1, OW = W + 2 * P - KW + 1;
#pragma mixprec(int8, acc=int32)
	for (int h = 0; h < OH; h++)
		for (int x = 0; x < OW; x++)
			for (int c = 0; c < OC; c++) {
				int32_t total = 0;
				for (int kh = 0; kh < KH; kh++)
					for (int kw = 0; kw < KW; kw++)
						for (int kc = 0; kc < C; kc++) {
							int cur_y = h - P + kh, cur_x = x - P + kw;
							if (cur_y >= 0 && cur_x >= 0 && cur_y < H && cur_x < W)
								total += in[(cur_y * W + cur_x) * C + kc] *
									 w[((kh * KW + kw) * C + kc) * OC + c];
						}
				out[(h * OW + x) * OC + c] = total;
			}
}

/* the window loop under an if; uint8 input with its zero point, weights
   int8, requantized by the user's own code (tile mode) */
static inline int8_t pd_requant(int32_t acc, int32_t m, int s, int32_t zy)
{
	int64_t v = ((int64_t)acc * m) >> s;
	v += zy;
	return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

__attribute__((noinline)) void pd_u8(int H, int W, int C, int OC, const uint8_t *x, int32_t zx,
				     const int8_t *w, int32_t m, int s, int32_t zy, int8_t *y)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++)
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < 3; kh++)
					for (int kw = 0; kw < 3; kw++) {
						int ih = oh + kh - 1, iw = ow + kw - 1;
						if (ih >= 0 && ih < H && iw >= 0 && iw < W)
							for (int ic = 0; ic < C; ic++)
								acc += (x[(ih * W + iw) * C + ic] - zx) *
								       w[((oc * 3 + kh) * 3 + kw) * C + ic];
					}
				y[(oh * W + ow) * OC + oc] = pd_requant(acc, m, s, zy);
			}
}

/* 1-D convolution over time padded on both sides: y[t] = sum over the
   window's taps inside [0, T) */
__attribute__((noinline)) void pd_1d(int T, int C, int OC, int K, int P, const int8_t *x,
				     const int8_t *w, const int32_t *bias, int32_t *y)
{
	for (int t = 0; t < T; t++)
		;
#pragma mixprec(int8, acc=int32)
	for (int t = 0; t < T; t++)
		for (int o = 0; o < OC; o++) {
			int32_t s = bias[o];
			for (int k = 0; k < K; k++)
				for (int c = 0; c < C; c++)
					if (t + k - P >= 0 && t + k - P < T)
						s += x[(t + k - P) * C + c] * w[(o * K + k) * C + c];
			y[t * OC + o] = s;
		}
}

/* accumulation into the output (direct mode), `continue` in the window */
__attribute__((noinline)) void pd_accumulate(int H, int W, int C, int OC, const int8_t *in,
					     const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++)
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++)
				for (int kh = 0; kh < 3; kh++) {
					if (oh + kh - 1 < 0 || oh + kh - 1 >= H)
						continue;
					for (int kw = 0; kw < 3; kw++) {
						if (ow + kw < 1 || ow + kw > W)
							continue;
						for (int ic = 0; ic < C; ic++)
							out[(oh * W + ow) * OC + oc] +=
								in[((oh + kh - 1) * W + ow + kw - 1) * C + ic] *
								w[((oc * 3 + kh) * 3 + kw) * C + ic];
					}
				}
}

/* padding written as a value: `v = inside ? in[...] : 0;`, and a select
   whose other value is not 0 (3: each padded term is then 3 * w, as the
   loop computes it) inside the product */
__attribute__((noinline)) void pd_select(int H, int W, int C, int OC, int P, const int8_t *in,
					 const int8_t *w, int32_t *out, int32_t *out3)
{
	int K = 2 * P + 1;
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++)
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < K; kh++)
					for (int kw = 0; kw < K; kw++)
						for (int ic = 0; ic < C; ic++) {
							int ih = oh + kh - P, iw = ow + kw - P;
							int8_t v = ih >= 0 && ih < H && iw >= 0 && iw < W ?
								   in[(ih * W + iw) * C + ic] : 0;
							acc += v * w[((oc * K + kh) * K + kw) * C + ic];
						}
				out[(oh * W + ow) * OC + oc] = acc;
			}
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++)
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < K; kh++)
					for (int kw = 0; kw < K; kw++)
						for (int ic = 0; ic < C; ic++)
							acc += (oh + kh >= P && oh + kh - P < H &&
								ow + kw >= P && ow + kw - P < W ?
								in[((oh + kh - P) * W + ow + kw - P) * C + ic] : 3) *
							       w[((oc * K + kh) * K + kw) * C + ic];
				out3[(oh * W + ow) * OC + oc] = acc;
			}
}

/* a `continue` on the rows and a select on the columns: with the select's
   other value 0 (no zero point) both leave a term of 0 (transformed); with
   3 one padding value cannot give both (refused: a fuzz-like review found
   the plugin adding 3*w for the left-out rows before the fix) */
__attribute__((noinline)) void pd_mixed(int H, int W, int C, int OC, const int8_t *in,
					const int8_t *w, int32_t *out, int32_t *out3)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++)
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < 3; kh++) {
					int ih = oh + kh - 1;
					if (ih < 0 || ih >= H)
						continue;
					for (int kw = 0; kw < 3; kw++)
						for (int ic = 0; ic < C; ic++) {
							int iw = ow + kw - 1;
							int8_t v = (iw >= 0 && iw < W) ? in[(ih * W + iw) * C + ic] : 0;
							acc += v * w[((oc * 3 + kh) * 3 + kw) * C + ic];
						}
				}
				out[(oh * W + ow) * OC + oc] = acc;
			}
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < H; oh++) // expected-warning {{one padding value cannot give both}}
		for (int ow = 0; ow < W; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < 3; kh++) {
					int ih = oh + kh - 1;
					if (ih < 0 || ih >= H)
						continue;
					for (int kw = 0; kw < 3; kw++)
						for (int ic = 0; ic < C; ic++) {
							int iw = ow + kw - 1;
							int8_t v = (iw >= 0 && iw < W) ? in[(ih * W + iw) * C + ic] : 3;
							acc += v * w[((oc * 3 + kh) * 3 + kw) * C + ic];
						}
				}
				out3[(oh * W + ow) * OC + oc] = acc;
			}
}

/* ------------------------------------------------ conditions on k alone */

/* A condition on the reduction alone cuts the range of the sum: the loop
 * never reads B's rows outside it, so the kernels must not either (B here
 * ends at a page the process may not read: before the runtime narrowed k
 * to the condition, the kernels read B's row K2 and the program died of
 * SIGSEGV under all three compilers) */
__attribute__((noinline)) void k_cut(int M, int N, int K, int K0, int K2, const int8_t *A,
				     const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++) {
				if (k < K0 || k >= K2)
					continue;
				s += A[i * K + k] * B[k * N + j];
			}
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void k_below(int M, int N, int K, int K2, const uint8_t *X, int zx,
				       const int8_t *B, int32_t *C)
{
#pragma mixprec(uint8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				if (k < K2)
					s += (X[i * K + k] - zx) * B[k * N + j];
			C[i * N + j] = s;
		}
}

/* the same over a window's two summed loops: a condition on each alone
   (the window's rows below KH2, its columns below KW2), the weights ending
   at the last one read; and one condition on both (`kh + kw < S`), which
   no box of kh and kw matches: the runtime falls back to the loop there
   (the kernels would read weights past the last one the loop reads) */
__attribute__((noinline)) void k2_cut(int M, int N, int KH, int KW, int KH2, int KW2,
				      const int8_t *A, const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int kh = 0; kh < KH; kh++)
				for (int kw = 0; kw < KW; kw++)
					if (kh < KH2 && kw < KW2)
						s += A[(i * KH + kh) * KW + kw] * B[(kh * KW + kw) * N + j];
			C[i * N + j] = s;
		}
}

__attribute__((noinline)) void k2_diag(int M, int N, int KH, int KW, int S, const int8_t *A,
				       const int8_t *B, int32_t *C)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int kh = 0; kh < KH; kh++)
				for (int kw = 0; kw < KW; kw++) {
					if (kh + kw >= S)
						continue;
					s += A[(i * KH + kh) * KW + kw] * B[(kh * KW + kw) * N + j];
				}
			C[i * N + j] = s;
		}
}

/* Windows clipped by MAX/MIN loop bounds instead of a test (CMSIS-NN's
   reference kernels and pooling, nnom): the loops run over the part of the
   window inside the image.  As CMSIS-NN's Cortex-M0 reference convolution
   writes it (output channel outermost, input offset; the requantization
   left out: with the two pixel loops as rows it would run as written) */
#define PD_MAX(A, B) ((A) > (B) ? (A) : (B))
#define PD_MIN(A, B) ((A) < (B) ? (A) : (B))
__attribute__((noinline)) void pd_clip_cmsis(int input_x, int input_y, int input_ch,
					     int output_ch, int kernel_x, int kernel_y, int pad_x,
					     int pad_y, int stride_x, int stride_y, int output_x,
					     int output_y, const int8_t *input_data,
					     int32_t input_offset, const int8_t *filter_data,
					     int32_t *out)
{
	int32_t i_out_ch, i_out_y, i_out_x, i_input_ch, i_ker_y, i_ker_x;
	int32_t conv_out;

#pragma mixprec(int8, acc=int32)
	for (i_out_ch = 0; i_out_ch < output_ch; i_out_ch++) {
		for (i_out_y = 0; i_out_y < output_y; i_out_y++) {
			for (i_out_x = 0; i_out_x < output_x; i_out_x++) {
				conv_out = 0;

				const int32_t base_idx_y = stride_y * i_out_y - pad_y;
				const int32_t base_idx_x = stride_x * i_out_x - pad_x;

				const int32_t ker_y_start = PD_MAX(0, -base_idx_y);
				const int32_t ker_x_start = PD_MAX(0, -base_idx_x);

				const int32_t ker_y_end = PD_MIN(kernel_y, input_y - base_idx_y);
				const int32_t ker_x_end = PD_MIN(kernel_x, input_x - base_idx_x);

				for (i_ker_y = ker_y_start; i_ker_y < ker_y_end; i_ker_y++) {
					for (i_ker_x = ker_x_start; i_ker_x < ker_x_end; i_ker_x++) {
						const int32_t in_row = base_idx_y + i_ker_y;
						const int32_t in_col = base_idx_x + i_ker_x;
						for (i_input_ch = 0; i_input_ch < input_ch; i_input_ch++) {
							conv_out +=
							    (input_data[(in_row * input_x + in_col) * input_ch + i_input_ch] +
							     input_offset) *
							    filter_data[i_out_ch * input_ch * kernel_y * kernel_x +
									(i_ker_y * kernel_x + i_ker_x) * input_ch +
									i_input_ch];
						}
					}
				}
				out[i_out_ch + (i_out_y * output_x + i_out_x) * output_ch] = conv_out;
			}
		}
	}
}

/* The same with its requantization, as CMSIS-NN's arm_convolve_s8 writes
   it for cores without the DSP extension: a bias when given, the user's
   requantization (a doubling high multiply and a rounding shift, as
   arm_nn_requantize), output offset, clamp, int8 store.  The two pixel
   loops are the rows (i2, i) of one call in tile mode; the epilogue runs
   as written on each sum */
static inline int32_t pd_nn_requantize(int32_t val, int32_t mult, int32_t shift)
{
	int32_t right = shift > 0 ? 0 : -shift;
	int64_t prod = (int64_t)(val * (1 << (shift > 0 ? shift : 0))) * mult;
	int32_t hi = (int32_t)((prod + ((int64_t)1 << 30)) >> 31);
	int32_t mask = (int32_t)(((int64_t)1 << right) - 1);
	int32_t rem = hi & mask, thr = (mask >> 1) + (hi < 0);
	return (hi >> right) + (rem > thr);
}

__attribute__((noinline)) void pd_clip_cmsis_q(int input_x, int input_y, int input_ch,
					       int output_ch, int kernel_x, int kernel_y, int pad_x,
					       int pad_y, int stride_x, int stride_y, int output_x,
					       int output_y, const int8_t *input_data,
					       int32_t input_offset, const int8_t *filter_data,
					       const int32_t *bias_data, const int32_t *output_mult,
					       const int32_t *output_shift, int32_t out_offset,
					       int32_t out_activation_min, int32_t out_activation_max,
					       int8_t *output_data)
{
	int32_t i_out_ch, i_out_y, i_out_x, i_input_ch, i_ker_y, i_ker_x;
	int32_t conv_out;

#pragma mixprec(int8, acc=int32)
	for (i_out_ch = 0; i_out_ch < output_ch; i_out_ch++) {
		for (i_out_y = 0; i_out_y < output_y; i_out_y++) {
			for (i_out_x = 0; i_out_x < output_x; i_out_x++) {
				conv_out = 0;

				const int32_t base_idx_y = stride_y * i_out_y - pad_y;
				const int32_t base_idx_x = stride_x * i_out_x - pad_x;

				const int32_t ker_y_start = PD_MAX(0, -base_idx_y);
				const int32_t ker_x_start = PD_MAX(0, -base_idx_x);

				const int32_t ker_y_end = PD_MIN(kernel_y, input_y - base_idx_y);
				const int32_t ker_x_end = PD_MIN(kernel_x, input_x - base_idx_x);

				for (i_ker_y = ker_y_start; i_ker_y < ker_y_end; i_ker_y++) {
					for (i_ker_x = ker_x_start; i_ker_x < ker_x_end; i_ker_x++) {
						const int32_t in_row = base_idx_y + i_ker_y;
						const int32_t in_col = base_idx_x + i_ker_x;
						for (i_input_ch = 0; i_input_ch < input_ch; i_input_ch++) {
							conv_out +=
							    (input_data[(in_row * input_x + in_col) * input_ch + i_input_ch] +
							     input_offset) *
							    filter_data[i_out_ch * input_ch * kernel_y * kernel_x +
									(i_ker_y * kernel_x + i_ker_x) * input_ch +
									i_input_ch];
						}
					}
				}
				if (bias_data) {
					conv_out += bias_data[i_out_ch];
				}
				conv_out = pd_nn_requantize(conv_out, output_mult[i_out_ch], output_shift[i_out_ch]);
				conv_out += out_offset;
				conv_out = PD_MAX(conv_out, out_activation_min);
				conv_out = PD_MIN(conv_out, out_activation_max);
				output_data[i_out_ch + (i_out_y * output_x + i_out_x) * output_ch] = (int8_t)conv_out;
			}
		}
	}
}

/* CMSIS_5's arm_convolve_HWC_q7_basic_nonsquare reference loops: the
   output channel outermost, then the image rows and columns, both of
   which index the input; the requantizing shift kept as written (tile
   mode, the two image loops the rows (i2, i) of one call) */
__attribute__((noinline)) void pd_cmsis5_shift(const int8_t *in, const int8_t *wt, int8_t *out, int out_shift, int in_x,
		    int in_y, int ch_in, int ch_out, int dk, int pad, int out_x, int out_y, int sx,
		    int sy)
{
	int i, j, k, l, m, n, in_row, in_col;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i < ch_out; i++)
		for (j = 0; j < out_y; j++)
			for (k = 0; k < out_x; k++) {
				int32_t acc = 0;
				for (m = 0; m < dk; m++)
					for (n = 0; n < dk; n++) {
						in_row = sy * j + m - pad;
						in_col = sx * k + n - pad;
						if (in_row >= 0 && in_col >= 0 && in_row < in_y && in_col < in_x)
							for (l = 0; l < ch_in; l++)
								acc += in[(in_row * in_x + in_col) * ch_in + l] *
								       wt[i * ch_in * dk * dk + (m * dk + n) * ch_in + l];
					}
				out[i + (j * out_x + k) * ch_out] = (int8_t)(acc >> out_shift);
			}
}

/* CMSIS-NN's generic depthwise convolution (arm_depthwise_conv_s8.c): the
   channel indexes input, filter and output; the window clipped per pixel.
   As published, the window's origin is narrowed to int16_t: exact while
   its values fit, which the call checks first (else the loop runs as
   written) */
__attribute__((noinline)) void pd_clip_dw(int input_x, int input_y, int input_ch, int ch_mult,
					  int kernel_x, int kernel_y, int pad_x, int pad_y,
					  int stride_x, int stride_y, int output_x, int output_y,
					  const int8_t *input, int32_t input_offset,
					  const int8_t *kernel, const int32_t *bias, int32_t *output)
{
#pragma mixprec(int8, acc=int32)
	for (int i_out_y = 0; i_out_y < output_y; i_out_y++) {
		const int16_t base_idx_y = (i_out_y * stride_y) - pad_y;
		for (int i_out_x = 0; i_out_x < output_x; i_out_x++) {
			const int16_t base_idx_x = (i_out_x * stride_x) - pad_x;
			for (int i_input_ch = 0; i_input_ch < input_ch; i_input_ch++) {
				for (int i_ch_mult = 0; i_ch_mult < ch_mult; i_ch_mult++) {
					const int idx_out_ch = i_ch_mult + i_input_ch * ch_mult;
					int32_t acc_0 = bias[idx_out_ch];
					const int ker_y_start = PD_MAX(0, -base_idx_y);
					const int ker_x_start = PD_MAX(0, -base_idx_x);
					const int ker_y_end = PD_MIN(kernel_y, input_y - base_idx_y);
					const int ker_x_end = PD_MIN(kernel_x, input_x - base_idx_x);
					for (int i_ker_y = ker_y_start; i_ker_y < ker_y_end; i_ker_y++) {
						const int32_t idx_y = base_idx_y + i_ker_y;
						for (int i_ker_x = ker_x_start; i_ker_x < ker_x_end; i_ker_x++) {
							const int32_t idx_x = base_idx_x + i_ker_x;
							int32_t idx_0 = (idx_y * input_x + idx_x) * input_ch + i_input_ch;
							int32_t ker_idx_0 = (i_ker_y * kernel_x + i_ker_x) *
									    (input_ch * ch_mult) + idx_out_ch;
							acc_0 += (input[idx_0] + input_offset) * kernel[ker_idx_0];
						}
					}
					output[(i_out_y * output_x + i_out_x) * (input_ch * ch_mult) + idx_out_ch] =
						acc_0;
				}
			}
		}
	}
}

/* The window's origin narrowed to 8 bits (as CMSIS-NN narrows it to 16):
   exact while x - pad fits in int8_t; past 127 it wraps (the window then
   lies before the signal: nothing is added) and the call must fall back */
__attribute__((noinline)) void pd_clip_w8(const int8_t *in, const int8_t *w, int32_t *out, int n,
					  int kw, int pad, int oc)
{
#pragma mixprec(int8, acc=int32)
	for (int o = 0; o < oc; o++)
		for (int x = 0; x < n; x++) {
			const int8_t base = x - pad;
			int32_t acc = 0;
			for (int k = PD_MAX(0, -base); k < PD_MIN(kw, n - base); k++)
				acc += in[base + k] * w[o * kw + k];
			out[o * n + x] = acc;
		}
}

/* A 1-D window clipped with the conditionals written out (nnom), the
   end as `b >= a ? a : b` and tested with `<=`; and its near miss, which stores where the window ended (the
   iterator's value after its loop: the rewrite would change it) */
__attribute__((noinline)) void pd_clip_1d(const int8_t *in, const int8_t *w, int32_t *out,
					  int n, int kw, int pad, int oc)
{
#pragma mixprec(int8, acc=int32)
	for (int o = 0; o < oc; o++)
		for (int x = 0; x < n; x++) {
			const int base = x - pad;
			const int k0 = -base > 0 ? -base : 0;
			const int k1 = n - base - 1 >= kw - 1 ? kw - 1 : n - base - 1;
			int32_t acc = 0;
			for (int k = k0; k <= k1; k++)
				acc += in[base + k] * w[o * kw + k];
			out[o * n + x] = acc;
		}
}

/* stride 2, padding 2, 5 taps, all constant: GCC folds the window test
   `0 > 2 - x*2` into `1 - x < 0` (the arms stay 2 - 2*x and 0) */
__attribute__((noinline)) void pd_clip_s2(const int8_t *in, const int8_t *w, int32_t *out, int n,
					  int on, int oc)
{
#pragma mixprec(int8, acc=int32)
	for (int o = 0; o < oc; o++)
		for (int x = 0; x < on; x++) {
			const int k0 = PD_MAX(0, 2 - x * 2), k1 = PD_MIN(5, n + 2 - x * 2);
			int32_t acc = 0;
			for (int k = k0; k < k1; k++)
				acc += in[x * 2 + k - 2] * w[o * 5 + k];
			out[o * on + x] = acc;
		}
}

__attribute__((noinline)) void pd_clip_end(const int8_t *in, const int8_t *w, int32_t *out,
					   int32_t *end, int n, int kw, int pad, int oc)
{
	int k;
#pragma mixprec(int8, acc=int32)
	for (int o = 0; o < oc; o++) // expected-warning {{a loop bounded by MAX/MIN is read outside its loop}}
		for (int x = 0; x < n; x++) {
			int32_t acc = 0;
			for (k = PD_MAX(0, pad - x); k < PD_MIN(kw, n + pad - x); k++)
				acc += in[x - pad + k] * w[o * kw + k];
			out[o * n + x] = acc;
			end[o * n + x] = k;
		}
}

void corpus_main(void)
{
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		/* H, W from M (1 .. 11), channels from K, out channels from N */
		int H = 1 + M % 11, W = 1 + (M + K) % 12, C = 1 + K % 40, OC = N % 37;
		int KH = 1 + sh % 4, KW = 1 + (sh / 2) % 4, B = 1 + sh % 2, P = sh % 3;
		/* the input with a margin on each side: a kernel that read a
		   padded pixel would read these (random) bytes */
		size_t margin = (size_t)(W + 4) * C * 4 + 64;
		size_t nin = (size_t)B * H * W * C;
		int8_t *inb = harness_rand_s8(nin + 2 * margin), *in = inb + margin;
		uint8_t *xub = harness_rand_u8(nin + 2 * margin), *xu = xub + margin;
		int8_t *w = harness_rand_s8((size_t)OC * (KH + 4) * (KW + 4) * C + 1);
		int32_t *bias = harness_rand_s32((size_t)OC + 1, -5000, 5000);
		/* outputs are printed whole (what the loops do not write too) */
		size_t nout = (size_t)B * (H + 4) * (W + 4) * (OC + 1) + 1;
		int32_t *out = harness_rand_s32(nout, -1000, 1000);
		int8_t *y8 = harness_rand_s8(nout);

		for (int S = 1; S <= 2; S++)
			for (int D = 1; D <= 2; D++) {
				int eh = (KH - 1) * D + 1, ew = (KW - 1) * D + 1;
				int oh = H + 2 * P >= eh ? (H + 2 * P - eh) / S + 1 : 0;
				int ow = W + 2 * P >= ew ? (W + 2 * P - ew) / S + 1 : 0;
				pd_kissdl(B, H, W, C, oh, ow, OC, KH, KW, S, D, P, in, w, bias, out);
				harness_out_array(harness_name("kissdl %dx%dx%dx%d k%dx%d s%d d%d p%d oc%d",
							       B, H, W, C, KH, KW, S, D, P, OC),
						  out, nout);
			}
		for (int S = 1; S <= 2; S++) {
			int oh = (H + 2 * P - 3) / S + 1, ow = (W + 2 * P - 3) / S + 1;
			int32_t io = harness_randint(-128, 127);
			if (H + 2 * P < 3 || W + 2 * P < 3)
				oh = ow = 0;
			pd_tflite(H, W, C, OC, oh, ow, S, P, in, io, w, out);
			harness_out_array(harness_name("tflite %dx%dx%d s%d p%d oc%d io%d", H, W, C, S,
						       P, OC, io), out, nout);
		}
		pd_guard(H, W, C, OC, KH, KW, P, in, w, out);
		harness_out_array(harness_name("guard %dx%dx%d k%dx%d p%d oc%d", H, W, C, KH, KW, P,
					       OC), out, nout);
		{
			int32_t zx = sh % 2 ? 128 : harness_randint(0, 255), m = harness_randint(1, 1 << 20);
			int s = harness_randint(10, 30), zy = harness_randint(-20, 20);
			pd_u8(H, W, C, OC, xu, zx, w, m, s, zy, y8);
			harness_out_array(harness_name("u8 %dx%dx%d oc%d zx%d", H, W, C, OC, zx), y8,
					  nout);
		}
		{
			int T = H * W, Kt = KH + KW;
			pd_1d(T, C, OC, Kt, sh % (Kt + 1), in, w, bias, out);
			harness_out_array(harness_name("1d %dx%d k%d oc%d", T, C, Kt, OC), out, nout);
		}
		pd_accumulate(H, W, C, OC, in, w, out);
		harness_out_array(harness_name("accumulate %dx%dx%d oc%d", H, W, C, OC), out, nout);
		{
			int32_t *out3 = harness_rand_s32(nout, -1000, 1000);
			pd_select(H, W, C, OC, 1 + sh % 2, in, w, out, out3);
			harness_out_array(harness_name("select %dx%dx%d oc%d", H, W, C, OC), out, nout);
			harness_out_array(harness_name("select3 %dx%dx%d oc%d", H, W, C, OC), out3, nout);
			pd_mixed(H, W, C, OC, in, w, out, out3);
			harness_out_array(harness_name("mixed %dx%dx%d oc%d", H, W, C, OC), out, nout);
			harness_out_array(harness_name("mixed3 %dx%dx%d oc%d", H, W, C, OC), out3, nout);
			harness_free(out3);
		}
		{   /* k cut by conditions on k alone; B has exactly the rows read */
			int kM = 1 + M % 23, kN = 1 + N % 37, kK = 1 + K % 90;
			int K0 = kK / 4, K2 = kK / 4 + (kK + 1) / 2;
			int8_t *kA = harness_rand_s8((size_t)kM * kK);
			uint8_t *kX = harness_rand_u8((size_t)kM * kK);
			int8_t *kB = harness_alloc_guarded((size_t)K2 * kN);
			int32_t *kC = harness_rand_s32((size_t)kM * kN, -1000, 1000);

			harness_fill_s8(kB, (size_t)K2 * kN);
			k_cut(kM, kN, kK, K0, K2, kA, kB, kC);
			harness_out_array(harness_name("k_cut %dx%dx%d %d..%d", kM, kN, kK, K0, K2),
					  kC, (size_t)kM * kN);
			k_below(kM, kN, kK, K2, kX, harness_randint(0, 255), kB, kC);
			harness_out_array(harness_name("k_below %dx%dx%d %d", kM, kN, kK, K2), kC,
					  (size_t)kM * kN);
			harness_free(kA);
			harness_free(kX);
			harness_free(kC);
			harness_free_guarded(kB, (size_t)K2 * kN);
		}
		{   /* two summed loops cut by conditions on each alone, and on both */
			int kM = 1 + M % 23, kN = 1 + N % 37, KH = 1 + K % 7, KW = 1 + M % 9;
			int KH2 = 1 + (KH - 1) / 2 + sh % 2, KW2 = (KW + 1) / 2;
			int S = KH2 + KW2 > 1 ? KH2 + KW2 - 1 : 1;
			KH2 = KH2 > KH ? KH : KH2;
			/* the last weight row read: (KH2 - 1, KW2 - 1); by k2_diag:
			   the largest kh*KW + kw with kh + kw < S */
			long last = KW2 > 0 ? (long)(KH2 - 1) * KW + KW2 - 1 : -1, dlast = -1;
			for (int kh = 0; kh < KH; kh++)
				for (int kw = 0; kw < KW; kw++)
					if (kh + kw < S && (long)kh * KW + kw > dlast)
						dlast = (long)kh * KW + kw;
			int8_t *kA = harness_rand_s8((size_t)kM * KH * KW);
			int8_t *kB = harness_alloc_guarded((size_t)(last + 1) * kN);
			int8_t *dB = harness_alloc_guarded((size_t)(dlast + 1) * kN);
			int32_t *kC = harness_rand_s32((size_t)kM * kN, -1000, 1000);

			harness_fill_s8(kB, (size_t)(last + 1) * kN);
			harness_fill_s8(dB, (size_t)(dlast + 1) * kN);
			k2_cut(kM, kN, KH, KW, KH2, KW2, kA, kB, kC);
			harness_out_array(harness_name("k2_cut %dx%d %dx%d < %dx%d", kM, kN, KH, KW,
						       KH2, KW2), kC, (size_t)kM * kN);
			k2_diag(kM, kN, KH, KW, S, kA, dB, kC);
			harness_out_array(harness_name("k2_diag %dx%d %dx%d < %d", kM, kN, KH, KW, S),
					  kC, (size_t)kM * kN);
			harness_free(kA);
			harness_free(kC);
			harness_free_guarded(kB, (size_t)(last + 1) * kN);
			harness_free_guarded(dB, (size_t)(dlast + 1) * kN);
		}
		{
			/* clipped windows: shapes from the same draw, stride 1 and 2 */
			int S = 1 + sh % 2, KH2 = 1 + (sh + 1) % 4, KW2 = 1 + sh % 3;
			int oh = (H + 2 * P - KH2) / S + 1, ow = (W + 2 * P - KW2) / S + 1;
			int32_t io = harness_randint(-128, 127);
			if (H + 2 * P < KH2 || W + 2 * P < KW2)
				oh = ow = 0;
			pd_clip_cmsis(W, H, C, OC, KW2, KH2, P, P, S, S, ow, oh, in, io, w, out);
			harness_out_array(harness_name("clip_cmsis %dx%dx%d k%dx%d s%d p%d oc%d io%d", H,
						       W, C, KH2, KW2, S, P, OC, io), out, nout);
			{
				int32_t *qm = harness_rand_s32((size_t)OC + 1, 1 << 30, INT32_MAX);
				int32_t *qs = harness_rand_s32((size_t)OC + 1, -12, 0);
				int32_t zo = harness_randint(-128, 127);
				pd_clip_cmsis_q(W, H, C, OC, KW2, KH2, P, P, S, S, ow, oh, in, io, w,
						sh % 2 ? bias : NULL, qm, qs, zo, -128, 127, y8);
				harness_out_array(harness_name("clip_cmsis_q %dx%dx%d k%dx%d s%d p%d oc%d io%d",
							       H, W, C, KH2, KW2, S, P, OC, io), y8, nout);
				harness_free(qm);
				harness_free(qs);
				int dk = KH2, sx = S, sy = S;
				int cx = (W + 2 * P - dk) / sx + 1, cy = (H + 2 * P - dk) / sy + 1;
				if (W + 2 * P < dk || H + 2 * P < dk)
					cx = cy = 0;
				pd_cmsis5_shift(in, w, y8, sh % 9, W, H, C, OC, dk, P, cx, cy, sx, sy);
				harness_out_array(harness_name("cmsis5_shift %dx%dx%d k%d s%d p%d oc%d", H, W,
							       C, dk, S, P, OC), y8, nout);
			}
			int cm = 1 + sh % 3, dc = 1 + (C - 1) % 9;
			size_t ndw = (size_t)(oh + 1) * (ow + 1) * dc * cm;
			int8_t *kdw = harness_rand_s8((size_t)KH2 * KW2 * dc * cm);
			int32_t *bdw = harness_rand_s32((size_t)dc * cm, -5000, 5000);
			int32_t *odw = harness_rand_s32(ndw, -1000, 1000);
			pd_clip_dw(W, H, dc, cm, KW2, KH2, P, P, S, S, ow, oh, in, io, kdw, bdw, odw);
			harness_out_array(harness_name("clip_dw %dx%dx%d m%d k%dx%d s%d p%d io%d", H, W,
						       dc, cm, KH2, KW2, S, P, io), odw, ndw);
			harness_free(kdw);
			harness_free(bdw);
			harness_free(odw);
			int T = H * W, Kt = KH2 + KW2, pd = sh % (Kt + 1);
			pd_clip_1d(in, w, out, T, Kt, pd, OC);
			harness_out_array(harness_name("clip_1d %d k%d p%d oc%d", T, Kt, pd, OC), out, nout);
			int on = T + 4 >= 5 ? (T + 4 - 5) / 2 + 1 : 0;
			pd_clip_s2(in, w, out, T, on, OC);
			harness_out_array(harness_name("clip_s2 %d oc%d", T, OC), out, nout);
			pd_clip_w8(in, w, out, T, Kt, pd, OC);
			harness_out_array(harness_name("clip_w8 %d k%d p%d oc%d", T, Kt, pd, OC), out, nout);
			{   /* 200 samples: x - pad wraps past 127 */
				int8_t *sig = harness_rand_s8(200);
				int8_t *wk = harness_rand_s8((size_t)(OC + 1) * Kt);
				int32_t *o8 = harness_rand_s32((size_t)(OC + 1) * 200, -1000, 1000);
				pd_clip_w8(sig, wk, o8, 200, Kt, pd, OC);
				harness_out_array(harness_name("clip_w8 wraps k%d p%d oc%d", Kt, pd, OC),
						  o8, (size_t)(OC + 1) * 200);
				harness_free(sig);
				harness_free(wk);
				harness_free(o8);
			}
			int32_t *end = harness_rand_s32(nout, -1000, 1000);
			pd_clip_end(in, w, out, end, T, Kt, pd, OC);
			harness_out_array(harness_name("clip_end %d k%d p%d oc%d", T, Kt, pd, OC), out, nout);
			harness_out_array("clip_end k", end, nout);
			harness_free(end);
		}
		{   /* a tensor arena (TensorFlow Lite Micro's): the output right
			   before the input in one buffer.  The padded window's box
			   reaches before the image, into the output; the bytes read
			   do not (the kernels run).  Then the output over the input's
			   first rows: the loop reads what it wrote (the loop as
			   written runs) */
			size_t no = (size_t)H * W * OC, ni = (size_t)H * W * C;
			size_t bytes = no * 4 + ni + 64;
			unsigned char *arena = harness_alloc(bytes);
			harness_fill_s8((int8_t *)arena, bytes);
			pd_kissdl(1, H, W, C, H, W, OC, 3, 3, 1, 1, 1, (const int8_t *)(arena + no * 4),
				  w, bias, (int32_t *)arena);
			harness_out(harness_name("arena %dx%dx%d oc%d", H, W, C, OC), arena, bytes);
			harness_fill_s8((int8_t *)arena, bytes);
			size_t shift = (no * 4 / 2) & ~(size_t)3;
			pd_kissdl(1, H, W, C, H, W, OC, 3, 3, 1, 1, 1,
				  (const int8_t *)(arena + no * 4 - shift), w, bias, (int32_t *)arena);
			harness_out(harness_name("arena overlapping %dx%dx%d oc%d", H, W, C, OC), arena,
				    bytes);
			harness_free(arena);
		}
		harness_free(inb);
		harness_free(xub);
		harness_free(w);
		harness_free(bias);
		harness_free(out);
		harness_free(y8);
	}
}
