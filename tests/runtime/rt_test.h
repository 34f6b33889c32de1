/* rt_test.h -- what the runtime tests share: one seeded random source and
 * strided 2-D operands in buffers with guard bands, in every layout the
 * kernels must handle. */
#ifndef RT_TEST_H
#define RT_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mixprec.h"

/* The kernel family NAME (mp_kernel_name's spelling: scalar, avx2,
 * avx512vnni, dotprod, i8mm), MP_KERNEL_NONE for any other. */
static inline mp_kernel rt_kernel_by_name(const char *name)
{
	for (int k = 0; k < MP_KERNEL_COUNT; k++)
		if (!strcmp(name, mp_kernel_name((mp_kernel)k)))
			return (mp_kernel)k;
	return MP_KERNEL_NONE;
}

/* The kernel family whose mp_gemm_lp implementation test_lp / test_lp_cache
 * name: a family name, or an implementation of the bf16 / fp8 paths that
 * has no family of its own: avx512bf16 (the avx512vnni family's),
 * bfmlal and neon (aarch64: the i8mm or else the dotprod family's, which
 * of the two this CPU has).  Unknown names give the scalar family (whose
 * implementation then has another name: the caller skips). */
static inline mp_kernel rt_lp_kernel_by_name(const char *name)
{
	if (!strcmp(name, "avx512bf16"))
		return MP_KERNEL_AVX512VNNI;
	if (!strcmp(name, "bfmlal") || !strcmp(name, "neon")) {
		for (int k = 0; k < MP_KERNEL_COUNT; k++)
			if (!strcmp(mp_kernel_name((mp_kernel)k), "i8mm") &&
			    mp_kernel_available((mp_kernel)k))
				return (mp_kernel)k;
		for (int k = 0; k < MP_KERNEL_COUNT; k++)
			if (!strcmp(mp_kernel_name((mp_kernel)k), "dotprod") &&
			    mp_kernel_available((mp_kernel)k))
				return (mp_kernel)k;
		return MP_KERNEL_SCALAR;
	}
	mp_kernel k = rt_kernel_by_name(name);
	return k == MP_KERNEL_NONE ? MP_KERNEL_SCALAR : k;
}

/* The kernel family named by argv[1] (scalar, avx2, avx512vnni, dotprod,
 * i8mm).  Returns 0,
 * or the exit code for the caller: 2 on a usage error, 77 (skipped) when
 * this CPU cannot run that family. */
static inline int rt_kernel_arg(int argc, char **argv, mp_kernel *kern)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s scalar|avx2|avx512vnni|dotprod|i8mm [seed]\n", argv[0]);
		return 2;
	}
	*kern = rt_kernel_by_name(argv[1]);
	if (*kern == MP_KERNEL_NONE) {
		fprintf(stderr, "unknown kernel %s\n", argv[1]);
		return 2;
	}
	if (!mp_kernel_available(*kern)) {
		printf("SKIP: this CPU cannot run the %s kernel\n", argv[1]);
		return 77;
	}
	return 0;
}

static uint64_t mp_rng_state;

/* xorshift64*: the test's only source of randomness (seeded once). */
static inline uint64_t mp_rand(void)
{
	mp_rng_state ^= mp_rng_state >> 12;
	mp_rng_state ^= mp_rng_state << 25;
	mp_rng_state ^= mp_rng_state >> 27;
	return mp_rng_state * 0x2545F4914F6CDD1DULL;
}

static inline long mp_rand_below(long n)
{
	return (long)(mp_rand() % (uint64_t)n);
}

/* A strided 2-D operand (rows x cols, elements of esz bytes) inside a buffer
 * with a guard band; base points at element (0,0). */
typedef struct mp_operand {
	unsigned char *buf;
	size_t bytes;
	char *base;
	ptrdiff_t s0, s1;
} mp_operand;

/* Layout kinds of an operand; the last two (zero strides) only for inputs. */
enum { L_ROW, L_ROW_PAD, L_COL, L_COL_PAD, L_NEG_ROW, L_NEG_COL, L_ZERO1, L_ZERO0, L_COUNT };
static const char *const lay_name[] __attribute__((unused)) = {"row", "rowpad", "col", "colpad", "negrow", "negcol",
				       "zero1", "zero0"};

/* Fills op for a rows x cols operand of layout kind lay, with GUARD spare
 * elements on each side.  The zero-stride kinds are only for inputs (an
 * output must be injective). */
static inline void mp_operand_make(mp_operand *op, long rows, long cols, int lay, size_t esz,
			    ptrdiff_t guard)
{
	long pad = 1 + mp_rand_below(5);
	ptrdiff_t s0, s1;
	switch (lay) {
	case L_ROW: s0 = cols; s1 = 1; break;
	case L_ROW_PAD: s0 = cols + pad; s1 = 1; break;
	case L_COL: s0 = 1; s1 = rows; break;
	case L_COL_PAD: s0 = 1; s1 = rows + pad; break;
	case L_NEG_ROW: s0 = -(cols + pad); s1 = -1; break;
	case L_NEG_COL: s0 = 1; s1 = -(rows + pad); break;
	case L_ZERO1: s0 = cols + pad; s1 = 0; break;
	default: s0 = 0; s1 = 1; break;
	}
	ptrdiff_t lo = 0, hi = 0; /* extent of the offsets, in elements */
	if (rows > 0 && cols > 0) {
		ptrdiff_t e0 = (rows - 1) * s0, e1 = (cols - 1) * s1;
		lo = (e0 < 0 ? e0 : 0) + (e1 < 0 ? e1 : 0);
		hi = (e0 > 0 ? e0 : 0) + (e1 > 0 ? e1 : 0);
	}
	op->bytes = (size_t)(hi - lo + 1 + 2 * guard) * esz;
	op->buf = malloc(op->bytes);
	op->base = (char *)op->buf + (size_t)(guard - lo) * esz;
	op->s0 = s0;
	op->s1 = s1;
}

#endif
