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
		if (mp_kernel_available(MP_KERNEL_DOTPROD))
			want = MP_KERNEL_DOTPROD;
		if (mp_kernel_available(MP_KERNEL_I8MM))
			want = MP_KERNEL_I8MM;
	} else {
		static const char *const names[] = {"scalar", "avx2", "avx512vnni", "dotprod",
						    "i8mm"};
		for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++)
			if (!strcmp(env, names[k]))
				want = mp_kernel_available((mp_kernel)k) ? (mp_kernel)k
									 : MP_KERNEL_NONE;
	}
	/* each family runs on its own architecture only */
#if defined(__x86_64__)
	int foreign = mp_kernel_available(MP_KERNEL_DOTPROD) || mp_kernel_available(MP_KERNEL_I8MM);
#elif defined(__aarch64__)
	int foreign = mp_kernel_available(MP_KERNEL_AVX2) ||
		      mp_kernel_available(MP_KERNEL_AVX512VNNI);
#else
	int foreign = 0;
#endif
	mp_kernel got = mp_kernel_select();
	printf("MIXPREC_TARGET=%s: selected %s, expected %s\n", env ? env : "(unset)",
	       mp_kernel_name(got), mp_kernel_name(want));
	int fail = got != want || mp_kernel_select() != got;
	fail |= strcmp(mp_kernel_name(MP_KERNEL_NONE), "none") != 0;
	fail |= mp_kernel_available(MP_KERNEL_NONE) || mp_kernel_available(MP_KERNEL_COUNT);
	fail |= !mp_kernel_available(MP_KERNEL_SCALAR) || foreign;
	return fail;
}
