/* test_dispatch.c -- checks mp_kernel_select against MIXPREC_TARGET (set by
 * CTest per test): unset -> best available family; a known name -> that
 * family if available, else MP_KERNEL_NONE; anything else -> NONE.  Also
 * checks mp_kernel_name and that the choice is stable across calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"

int main(void)
{
	const char *env = getenv("MIXPREC_TARGET");
	mp_kernel want = MP_KERNEL_NONE;
	if (!env || !*env) {
		want = MP_KERNEL_SCALAR;
		if (mp_kernel_available(MP_KERNEL_AVX2))
			want = MP_KERNEL_AVX2;
		if (mp_kernel_available(MP_KERNEL_AVX512VNNI))
			want = MP_KERNEL_AVX512VNNI;
	} else if (!strcmp(env, "scalar")) {
		want = MP_KERNEL_SCALAR;
	} else if (!strcmp(env, "avx2")) {
		want = mp_kernel_available(MP_KERNEL_AVX2) ? MP_KERNEL_AVX2 : MP_KERNEL_NONE;
	} else if (!strcmp(env, "avx512vnni")) {
		want = mp_kernel_available(MP_KERNEL_AVX512VNNI) ? MP_KERNEL_AVX512VNNI
								 : MP_KERNEL_NONE;
	}
	mp_kernel got = mp_kernel_select();
	printf("MIXPREC_TARGET=%s: selected %s, expected %s\n", env ? env : "(unset)",
	       mp_kernel_name(got), mp_kernel_name(want));
	int fail = got != want || mp_kernel_select() != got;
	fail |= strcmp(mp_kernel_name(MP_KERNEL_NONE), "none") != 0;
	fail |= mp_kernel_available(MP_KERNEL_NONE) || mp_kernel_available(MP_KERNEL_COUNT);
	fail |= !mp_kernel_available(MP_KERNEL_SCALAR);
	return fail;
}
