/* hard_register.c -- `register T x asm("reg")` in a nest (a loop bound, an
 * operand pointer, the accumulator): refused under GCC and clang alike,
 * at the loop (GCC cannot take such a variable's address: the rewrite
 * crashed GCC with an internal compiler error before, found by a review
 * helper). */
#include <stdint.h>

int8_t ga[13 * 33], gb[17 * 33];
int32_t gc[13 * 17];

void hr_bound(int kk)
{
	register int n asm("r12") = kk;
#pragma mixprec(int8)
	for (int i = 0; i < 13; i++)   // expected-warning {{'n' is a hardware register variable}}
		for (int j = 0; j < 17; j++) {
			int32_t s = 0;
			for (int k = 0; k < n; k++)
				s += ga[i * 33 + k] * gb[j * 33 + k];
			gc[i * 17 + j] = s;
		}
}

void hr_pointer(void)
{
	register int8_t *pa asm("r13") = ga;
#pragma mixprec(int8)
	for (int i = 0; i < 13; i++)   // expected-warning {{'pa' is a hardware register variable}}
		for (int j = 0; j < 17; j++) {
			int32_t s = 0;
			for (int k = 0; k < 33; k++)
				s += pa[i * 33 + k] * gb[j * 33 + k];
			gc[i * 17 + j] = s;
		}
}

void hr_acc(void)
{
	register int32_t s asm("ebx");
#pragma mixprec(int8)
	for (int i = 0; i < 13; i++)   // expected-warning {{'s' is a hardware register variable}}
		for (int j = 0; j < 17; j++) {
			s = 0;
			for (int k = 0; k < 33; k++)
				s += ga[i * 33 + k] * gb[j * 33 + k];
			gc[i * 17 + j] = s;
		}
}
