/* odd_c.c -- unusual C around or inside a nest, refused under GCC and clang
 * alike at the loop (found by a review helper):
 *  - a case label of a switch around the nest (Duff-style entry): the switch
 *    jumps into the loops; clang transformed the nest and computed zeros or
 *    garbage;
 *  - an operand in a named address space (__seg_fs): the runtime reads
 *    generic memory; all three transformed it and the program died. */
#include <stdint.h>

void oc_case_entry(const int8_t *a, const int8_t *b, int32_t *y, int m, int n, int kk, int c)
{
	int i = 0, j = 0;
	int32_t s;
	switch (c) {
	case 0:
#pragma mixprec(int8, acc=int32)
		for (i = 0; i < m; i++) // expected-warning {{not transformed}}
			for (j = 0; j < n; j++) {
	case 1:
				s = 0;
				for (int k = 0; k < kk; k++)
					s += a[i * kk + k] * b[j * kk + k];
				y[i * n + j] = s;
			}
	}
}

void oc_seg_fs(const __seg_fs int8_t *a, const int8_t *b, int32_t *y, int m, int n, int kk)
{
#pragma mixprec(int8, acc=int32)
	for (int i = 0; i < m; i++) // expected-warning {{not transformed}}
		for (int j = 0; j < n; j++) {
			int32_t s = 0;
			for (int k = 0; k < kk; k++)
				s += a[i * kk + k] * b[j * kk + k];
			y[i * n + j] = s;
		}
}
