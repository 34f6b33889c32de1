/* weak_const.c -- a nest whose step and accumulator array length are a
 * weak `const int U = 4;`, replaced at link time by weak_const_def.c's
 * `const int U = 8;`: the value the program uses is 8.  The GCC glue reads
 * a const integer as its constant initializer only where no other
 * definition can replace it (not weak, not external); with U read as 4 the
 * plugin build computed another result than the plain build at -O0 (a
 * review helper).  Prints a hash of the outputs. */
#include <stdint.h>
#include <stdio.h>
#include <mixprec.h>

__attribute__((weak)) const int U = 4;

__attribute__((noinline)) void wc_block(int32_t *out, const int8_t *inp, const int8_t *weight,
					int BT, int C, int OC)
{
#pragma mixprec(int8, acc=int32)
	for (int obt = 0; obt < BT; obt += U) {
		for (int o = 0; o < OC; o++) {
			int32_t r[U];
			for (int u = 0; u < U; u++)
				r[u] = 0;
			for (int i = 0; i < C; i++)
				for (int u = 0; u < U; u++)
					r[u] += inp[(obt + u) * C + i] * weight[i + o * C];
			for (int u = 0; u < U; u++)
				out[(obt + u) * OC + o] = r[u] * (u + 1);
		}
	}
}

int main(void)
{
	static int8_t inp[64 * 40], w[9 * 40];
	static int32_t out[64 * 9 + 64];
	for (int q = 0; q < 64 * 40; q++)
		inp[q] = (int8_t)(q * 7 % 251 - 120);
	for (int q = 0; q < 9 * 40; q++)
		w[q] = (int8_t)(q * 13 % 253 - 126);
	wc_block(out, inp, w, 64, 40, 9);
	unsigned h = 0;
	for (int q = 0; q < 64 * 9 + 64; q++)
		h = h * 31 + (unsigned)out[q];
	printf("U=%d %08x\n", U, h);
	return 0;
}
