// MIXPREC-TRANSFORMED: 8
/* conv.c -- direct convolutions as C code writes them (issue 9, item 2):
 * the reduction runs over the kernel window and the input channels
 * (kh, kw, ic), each directly inside the previous.  The loops around the
 * contraction's two output loops run as written (one call per
 * iteration); the runtime reads an operand whose loops chain (OHWI
 * weights, an NHWC row's kw x ic) in place and copies one whose loops do
 * not (a strided or dilated window, NCHW) once per call.  Forms: NHWC with
 * OHWI weights and a batch loop; HWIO weights with stride and dilation;
 * NCHW with an input offset and an output offset (Deeploy's
 * Conv2d_s8_s8_s32_NCHW, padding 0: its filter loop encloses both image
 * loops, the rows (h, w) of one call in tile mode); uint8 input with a zero point and a
 * requantizing epilogue of the user's own (tile mode); a 1-D convolution
 * over (k, ic) with a bias; accumulation into an int32 output (direct
 * mode); the window loops counting down; a constant 3x3 window. */
#include "harness.h"
#include <mixprec.h>

/* NHWC input (valid: the caller padded it), OHWI weights, batch N */
__attribute__((noinline)) void cv_nhwc(int N, int H, int W, int C, int OC, int KH, int KW,
				       const int8_t *in, const int8_t *w, int32_t *out)
{
	int OH = H - KH + 1, OW = W - KW + 1;
#pragma mixprec(int8, acc=int32)
	for (int n = 0; n < N; n++)
		for (int oh = 0; oh < OH; oh++)
			for (int ow = 0; ow < OW; ow++)
				for (int oc = 0; oc < OC; oc++) {
					int32_t acc = 0;
					for (int kh = 0; kh < KH; kh++)
						for (int kw = 0; kw < KW; kw++)
							for (int ic = 0; ic < C; ic++)
								acc += in[((n * H + oh + kh) * W + ow + kw) * C + ic] *
								       w[((oc * KH + kh) * KW + kw) * C + ic];
					out[((n * OH + oh) * OW + ow) * OC + oc] = acc;
				}
}

/* HWIO weights, stride S and dilation D */
__attribute__((noinline)) void cv_hwio(int H, int W, int C, int OC, int KH, int KW, int S,
				       int D, int OH, int OW, const int8_t *in,
				       const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < OH; oh++)
		for (int ow = 0; ow < OW; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < KH; kh++)
					for (int kw = 0; kw < KW; kw++)
						for (int ic = 0; ic < C; ic++)
							acc += in[((oh * S + kh * D) * W + ow * S + kw * D) * C + ic] *
							       w[((kh * KW + kw) * C + ic) * OC + oc];
				out[(oh * OW + ow) * OC + oc] = acc;
			}
}

/* NCHW, filters F x C x P x Q, unsigned sizes, offsets (Deeploy style): the
   filter loop outermost, the two image loops the rows (h, w) of one call
   in tile mode (the output offset added as written) */
__attribute__((noinline)) void cv_nchw(const int8_t *pSrcA, uint32_t C, uint32_t H, uint32_t W,
				       const int8_t *pSrcB, uint32_t F, uint32_t P, uint32_t Q,
				       uint32_t SP, uint32_t SQ, int32_t *pDstC,
				       int32_t input_offset, int32_t output_offset)
{
	uint32_t H_out = (H - P) / SP + 1;
	uint32_t W_out = (W - Q) / SQ + 1;
	uint32_t c, h, w, f, p, q;
#pragma mixprec(int8, acc=int32)
	for (f = 0; f < F; f++)
		for (h = 0; h < H_out; h++)
			for (w = 0; w < W_out; w++) {
				int32_t sum = 0;
				for (c = 0; c < C; c++)
					for (p = 0; p < P; p++)
						for (q = 0; q < Q; q++)
							sum += (pSrcA[c * H * W + (h * SP + p) * W + (w * SQ + q)] +
								input_offset) *
							       pSrcB[f * C * P * Q + c * P * Q + p * Q + q];
				pDstC[f * H_out * W_out + h * W_out + w] = sum + output_offset;
			}
}

/* uint8 NHWC input with a zero point, requantized by the user's code */
static int8_t cv_requant(int32_t acc, int32_t m, int sh, int32_t zp)
{
	int64_t v = ((int64_t)acc * m) >> sh;
	v += zp;
	return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

__attribute__((noinline)) void cv_u8_requant(int H, int W, int C, int OC, const uint8_t *x,
					     int32_t zx, const int8_t *w, const int32_t *bias,
					     int32_t m, int sh, int32_t zy, int8_t *y)
{
	int OH = H - 2, OW = W - 2;
#pragma mixprec(uint8, acc=int32)
	for (int oh = 0; oh < OH; oh++)
		for (int ow = 0; ow < OW; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = bias[oc];
				for (int kh = 0; kh < 3; kh++)
					for (int kw = 0; kw < 3; kw++)
						for (int ic = 0; ic < C; ic++)
							acc += (x[((oh + kh) * W + ow + kw) * C + ic] - zx) *
							       w[((oc * 3 + kh) * 3 + kw) * C + ic];
				y[(oh * OW + ow) * OC + oc] = cv_requant(acc, m, sh, zy);
			}
}

/* 1-D convolution over time: x[T][C], w[OC][K][CP] (rows padded to CP >=
   C channels: the weights' k and c loops do not chain), bias */
__attribute__((noinline)) void cv_1d(int T, int C, int CP, int OC, int K, const int8_t *x,
				     const int8_t *w, const int32_t *bias, int32_t *y)
{
	int i, o, k, c;
#pragma mixprec(int8, acc=int32)
	for (i = 0; i <= T - K; i++)
		for (o = 0; o < OC; o++) {
			int32_t s = bias[o];
			for (k = 0; k < K; k++)
				for (c = 0; c < C; c++)
					s += x[(i + k) * C + c] * w[(o * K + k) * CP + c];
			y[i * OC + o] = s;
		}
}

/* accumulation into the output (direct mode) */
__attribute__((noinline)) void cv_accumulate(int OH, int OW, int C, int OC, int KH, int KW,
					     int W, const int8_t *in, const int8_t *w,
					     int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < OH; oh++)
		for (int ow = 0; ow < OW; ow++)
			for (int oc = 0; oc < OC; oc++)
				for (int kh = 0; kh < KH; kh++)
					for (int kw = 0; kw < KW; kw++)
						for (int ic = 0; ic < C; ic++)
							out[(oh * OW + ow) * OC + oc] +=
								in[((oh + kh) * W + ow + kw) * C + ic] *
								w[((oc * KH + kh) * KW + kw) * C + ic];
}

/* the window loops counting down */
__attribute__((noinline)) void cv_down(int OH, int OW, int C, int OC, int W, const int8_t *in,
				       const int8_t *w, int32_t *out)
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < OH; oh++)
		for (int ow = 0; ow < OW; ow++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int kh = 2; kh >= 0; kh--)
					for (int kw = 2; kw >= 0; kw--)
						for (int ic = 0; ic < C; ic++)
							acc += in[((oh + kh) * W + ow + kw) * C + ic] *
							       w[((oc * 3 + kh) * 3 + kw) * C + ic];
				out[(oh * OW + ow) * OC + oc] = acc;
			}
}

/* a constant 3x3 window over 16 channels, fixed-size arrays */
__attribute__((noinline)) void cv_fixed(int OH, int OW, const int8_t in[][10][16],
					const int8_t w[8][3][3][16], int32_t out[][8][8])
{
#pragma mixprec(int8, acc=int32)
	for (int oh = 0; oh < OH; oh++)
		for (int ow = 0; ow < OW; ow++)
			for (int oc = 0; oc < 8; oc++) {
				int32_t acc = 0;
				for (int kh = 0; kh < 3; kh++)
					for (int kw = 0; kw < 3; kw++)
						for (int ic = 0; ic < 16; ic++)
							acc += in[oh + kh][ow + kw][ic] * w[oc][kh][kw][ic];
				out[oh][ow][oc] = acc;
			}
}

void corpus_main(void)
{
	{   /* a long 1-D convolution: the runtime copies A in several pieces of
	       rows and the weights (k, c not chaining: CP = C + 1) once */
		int T = 3000, C = 64, CP = 65, OC = 8, K = 3;
		int8_t *x = harness_rand_s8((size_t)T * C);
		int8_t *w = harness_rand_s8((size_t)OC * K * CP);
		int32_t *bias = harness_rand_s32(OC, -5000, 5000);
		int32_t *y = harness_rand_s32((size_t)T * OC, -10, 10);
		cv_1d(T, C, CP, OC, K, x, w, bias, y);
		harness_out_array("1d long", y, (size_t)T * OC);
		harness_free(x);
		harness_free(w);
		harness_free(bias);
		harness_free(y);
	}
	for (int sh = 0; sh < harness_nshapes(); sh++) {
		int M, N, K;
		harness_shape(sh, 1, &M, &N, &K);
		/* H, W from M (2 .. 12), channels from K, out channels from N */
		int H = 2 + M % 11, W = 3 + (M + K) % 10, C = 1 + K % 40, OC = N % 37;
		int KH = 1 + sh % 3, KW = 1 + (sh / 3) % 3, B = 1 + sh % 2;
		size_t nin = (size_t)B * H * W * C + 1, nw = (size_t)OC * KH * KW * C + 1;
		int8_t *in = harness_rand_s8(nin), *w = harness_rand_s8(nw + 9 * (size_t)C * OC);
		uint8_t *xu = harness_rand_u8(nin);
		/* outputs are printed whole (what the loops do not write too) */
		size_t nout = (size_t)B * H * W * (OC + 1) + 1;
		int32_t *out = harness_rand_s32(nout, -1000, 1000);
		int32_t *bias = harness_rand_s32((size_t)OC + 1, -5000, 5000);
		int8_t *y8 = harness_rand_s8((size_t)H * W * (OC + 1) + 1);
		int OH = H - KH + 1, OW = W - KW + 1;

		cv_nhwc(B, H, W, C, OC, KH, KW, in, w, out);
		harness_out_array(harness_name("nhwc %dx%dx%dx%d k%dx%d oc%d", B, H, W, C, KH, KW, OC),
				  out, nout);
		if (KH > 1) {   /* no output row (the image rows' loop does not run) */
			cv_nhwc(B, KH - 1, W, C, OC, KH, KW, in, w, out);
			harness_out_array(harness_name("nhwc no rows k%d", KH), out, nout);
			cv_accumulate(0, OW, C, OC, KH, KW, W, in, w, out);
			harness_out_array(harness_name("accumulate no rows k%d", KH), out, nout);
		}
		for (int S = 1; S <= 2; S++)
			for (int D = 1; D <= 2; D++) {
				int eh = (KH - 1) * D + 1, ew = (KW - 1) * D + 1;
				int oh = H >= eh ? (H - eh) / S + 1 : 0, ow = W >= ew ? (W - ew) / S + 1 : 0;
				cv_hwio(H, W, C, OC, KH, KW, S, D, oh, ow, in, w, out);
				harness_out_array(harness_name("hwio %dx%dx%d k%dx%d s%d d%d oc%d", H, W,
							       C, KH, KW, S, D, OC), out, nout);
			}
		if (H >= KH && W >= KW) {
			uint32_t P = (uint32_t)KH, Q = (uint32_t)KW, SP = 1 + sh % 2, SQ = 1 + (sh / 2) % 2;
			uint32_t ho = (H - P) / SP + 1, wo = (W - Q) / SQ + 1;
			int32_t io = harness_randint(-128, 127), oo = harness_randint(-100000, 100000);
			cv_nchw(in, (uint32_t)C, (uint32_t)H, (uint32_t)W, w, (uint32_t)OC, P, Q, SP, SQ,
				out, io, oo);
			harness_out_array(harness_name("nchw %dx%dx%d f%d k%ux%u s%ux%u", C, H, W, OC, P,
						       Q, SP, SQ), out, (size_t)OC * ho * wo);
		}
		if (H >= 3 && W >= 3) {
			int32_t zx = harness_randint(0, 255), m = harness_randint(1, 1 << 20);
			int s = harness_randint(10, 30), zy = harness_randint(-20, 20);
			cv_u8_requant(H, W, C, OC, xu, zx, w, bias, m, s, zy, y8);
			harness_out_array(harness_name("u8_requant %dx%dx%d oc%d", H, W, C, OC), y8,
					  (size_t)(H - 2) * (W - 2) * OC);
			cv_down(H - 2, W - 2, C, OC, W, in, w, out);
			harness_out_array(harness_name("down %dx%dx%d oc%d", H, W, C, OC), out,
					  (size_t)(H - 2) * (W - 2) * OC);
		}
		{
			int T = H * W, Kt = KH + KW;
			cv_1d(T, C, C + sh % 2, OC, Kt, in, w, bias, out);
			harness_out_array(harness_name("1d t%d c%d oc%d k%d", T, C, OC, Kt), out,
					  (size_t)(T >= Kt ? T - Kt + 1 : 0) * OC);
		}
		cv_accumulate(OH, OW, C, OC, KH, KW, W, in, w, out);
		harness_out_array(harness_name("accumulate %dx%dx%d k%dx%d oc%d", H, W, C, KH, KW, OC),
				  out, nout);
		{
			int oh = 1 + sh % 8, ow = 8;
			int8_t *fi = harness_rand_s8((size_t)(oh + 2) * 10 * 16);
			int8_t *fw = harness_rand_s8(8 * 3 * 3 * 16);
			int32_t *fo = harness_rand_s32((size_t)oh * 64, -10, 10);
			cv_fixed(oh, ow, (const int8_t (*)[10][16])fi, (const int8_t (*)[3][3][16])fw,
				 (int32_t (*)[8][8])fo);
			harness_out_array(harness_name("fixed %d", oh), fo, (size_t)oh * 64);
			harness_free(fi);
			harness_free(fw);
			harness_free(fo);
		}
		harness_free(in);
		harness_free(w);
		harness_free(xu);
		harness_free(out);
		harness_free(bias);
		harness_free(y8);
	}
}
