/* conv_onnx2c.c -- a 3x3 convolution with padding 1, NCHW, written the way
 * onnx2c generates C for an ONNX Conv node: a batch loop of one, the input
 * position stepped beside each output position in the for header
 * (`o0++, i0 += 1`), the window's border tested with `continue`, the
 * output initialised with the bias and accumulated in place.  int8 data
 * and an int32 result (the sample's checksum is exact). */
#include <mixprec.h>
#include "common.h"

#define C_IN 64
#define C_OUT 64
#define H 28
#define W 28

__attribute__((noinline))
void node_conv(const int8_t x[1][C_IN][H][W], const int8_t w[C_OUT][C_IN][3][3],
	       const int32_t bias[C_OUT], int32_t y[1][C_OUT][H][W])
{
#pragma mixprec(int8, acc=int32)
	for (uint32_t b = 0; b < 1; b++) {
	for (uint32_t m = 0; m < C_OUT; m++) {
		for (int32_t o0 = 0, i0 = -1; o0 < H; o0++, i0 += 1) {
		for (int32_t o1 = 0, i1 = -1; o1 < W; o1++, i1 += 1) {
			y[b][m][o0][o1] = bias[m];
			for (int32_t c = 0; c < C_IN; c++) {
			for (uint32_t k0 = 0; k0 < 3; k0++) {
			for (uint32_t k1 = 0; k1 < 3; k1++) {
				int ii0 = i0 + k0 * 1;
				if (ii0 < 0) continue;
				if (ii0 >= H) continue;
				int ii1 = i1 + k1 * 1;
				if (ii1 < 0) continue;
				if (ii1 >= W) continue;
				y[b][m][o0][o1] += x[b][c][ii0][ii1] * w[m][c][k0][k1];
			}
			}
			}
		}
		}
	}
	}
}

int main(void)
{
	int8_t (*x)[C_IN][H][W] = malloc(sizeof *x);
	int8_t (*w)[C_IN][3][3] = malloc(C_OUT * sizeof *w);
	int32_t *bias = malloc(C_OUT * sizeof *bias);
	int32_t (*y)[C_OUT][H][W] = malloc(sizeof *y);
	fill_s8(&x[0][0][0][0], sizeof *x);
	fill_s8(&w[0][0][0][0], C_OUT * sizeof *w);
	fill_i32(bias, C_OUT, 100000);
	double t = SAMPLE_TIME(11, node_conv(x, w, bias, y));
	printf("conv_onnx2c %dx%dx%dx%d 3x3 checksum %016llx\n", C_OUT, C_IN, H, W,
	       (unsigned long long)checksum(y, sizeof *y));
	printf("time %.6f s  %.2f GOP/s\n", t, 2.0 * C_OUT * C_IN * 9 * H * W / t * 1e-9);
	free(x); free(w); free(bias); free(y);
	return 0;
}
