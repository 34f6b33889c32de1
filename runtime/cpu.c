/* cpu.c -- CPU dispatch of the int8 kernels: which kernel families this
 * CPU can run, the MIXPREC_TARGET override, and their names.
 * Compiled for baseline x86-64 / armv8-a: nothing here may use an ISA
 * extension.  aarch64: the kernel's HWCAP bits (getauxval). */
#include <stdio.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#include <asm/hwcap.h>
#ifndef HWCAP_ASIMDDP /* kernel headers before 4.15 / 5.10 */
#define HWCAP_ASIMDDP (1 << 20)
#endif
#ifndef HWCAP2_I8MM
#define HWCAP2_I8MM (1 << 13)
#endif
#endif
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"
#include "mp_runtime.h"

/* Whether this CPU (and OS) can run kernel family k.  Unknown k gives 0. */
int mp_kernel_available(mp_kernel k)
{
	switch (k) {
	case MP_KERNEL_SCALAR:
		return 1;
#if defined(__x86_64__) || defined(__i386__)
	case MP_KERNEL_AVX2:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
	case MP_KERNEL_AVX512VNNI:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		       __builtin_cpu_supports("avx512vl") &&
		       __builtin_cpu_supports("avx512vnni");
#endif
#if defined(__aarch64__)
	case MP_KERNEL_DOTPROD:
		return (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
	case MP_KERNEL_I8MM:
		return (getauxval(AT_HWCAP2) & HWCAP2_I8MM) != 0;
#endif
	default:
		return 0;
	}
}

/* The name of k as MIXPREC_TARGET spells it ("none" for anything else). */
const char *mp_kernel_name(mp_kernel k)
{
	switch (k) {
	case MP_KERNEL_SCALAR:
		return "scalar";
	case MP_KERNEL_AVX2:
		return "avx2";
	case MP_KERNEL_AVX512VNNI:
		return "avx512vnni";
	case MP_KERNEL_DOTPROD:
		return "dotprod";
	case MP_KERNEL_I8MM:
		return "i8mm";
	default:
		return "none";
	}
}

/* Computes the selection: MIXPREC_TARGET if set (an unknown or unavailable
 * family gives MP_KERNEL_NONE), else the best available family. */
static mp_kernel mp_kernel_select_uncached(void)
{
	const char *env = getenv("MIXPREC_TARGET");
	if (env && *env) {
		for (int k = 0; k < MP_KERNEL_COUNT; k++)
			if (strcmp(env, mp_kernel_name((mp_kernel)k)) == 0)
				return mp_kernel_available((mp_kernel)k) ? (mp_kernel)k
									 : MP_KERNEL_NONE;
		/* a misspelt value would silently run every nest as written:
		   say so once (the selection is computed once per process) */
		fprintf(stderr, "mixprec: MIXPREC_TARGET=%s is not a kernel family (scalar, "
			"avx2, avx512vnni, dotprod, i8mm); the annotated loops run as written\n", env);
		return MP_KERNEL_NONE;
	}
	for (int k = MP_KERNEL_COUNT - 1; k >= 0; k--)
		if (mp_kernel_available((mp_kernel)k))
			return (mp_kernel)k;
	return MP_KERNEL_SCALAR;
}

static int cached = -2; /* -2: not computed yet */

/* See mp_runtime.h. */
void mp_kernel_select_reload(void)
{
	__atomic_store_n(&cached, -2, __ATOMIC_RELAXED);
}

/* The kernel family to use, computed once per process (a racing first call
 * computes the same value twice, which is harmless). */
mp_kernel mp_kernel_select(void)
{
	int k = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (k == -2) {
		k = (int)mp_kernel_select_uncached();
		__atomic_store_n(&cached, k, __ATOMIC_RELAXED);
	}
	return (mp_kernel)k;
}
