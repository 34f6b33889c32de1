/* volatile_atomic.c -- volatile and _Atomic objects in a nest: every
 * access is one the program makes, so the nest stays as written under GCC
 * and clang (GCC read a volatile bound once; the clang glues dropped a
 * volatile iterator's accesses and made an _Atomic output's stores plain
 * ones; found by a review helper). */
#include <stdint.h>

int8_t va[64 * 64], vb[64 * 64];
int32_t vc[64 * 64];
volatile int vK = 64;
_Atomic int32_t vac[64 * 64];

void vol_bound(void)
{
#pragma mixprec(int8)
	for (int i = 0; i < 64; i++)   // expected-warning {{loop nest not transformed}}
		for (int j = 0; j < 64; j++) {
			int32_t s = 0;
			for (int k = 0; k < vK; k++)
				s += va[i * 64 + k] * vb[j * 64 + k];
			vc[i * 64 + j] = s;
		}
}

void vol_iter(void)
{
#pragma mixprec(int8)
	for (int i = 0; i < 64; i++)   // expected-warning {{loop nest not transformed}}
		for (int j = 0; j < 64; j++) {
			int32_t s = 0;
			for (volatile int k = 0; k < 64; k++)
				s += va[i * 64 + k] * vb[j * 64 + k];
			vc[i * 64 + j] = s;
		}
}

void atomic_out(void)
{
#pragma mixprec(int8)
	for (int i = 0; i < 64; i++)   // expected-warning {{loop nest not transformed}}
		for (int j = 0; j < 64; j++) {
			int32_t s = 0;
			for (int k = 0; k < 64; k++)
				s += va[i * 64 + k] * vb[j * 64 + k];
			vac[i * 64 + j] = s;
		}
}
