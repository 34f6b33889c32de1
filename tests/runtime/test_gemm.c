/* test_gemm.c -- checks one kernel family of mp_gemm_x8 against the plain
 * loop (mp_gemm_x8_ref) on awkward shapes, all four operand type pairs,
 * random and extreme zero points and data, padded / transposed / negative /
 * zero strides, accumulate on and off; the whole output buffer (including
 * the gaps between elements) must match, so stray writes are caught.
 * A fault-injection step proves the checker can fail.
 *
 * Usage: test_gemm KERNEL [SEED]   (KERNEL: scalar|avx2|avx512vnni; SEED
 * also from MP_TEST_SEED).  Exits 77 when the CPU lacks the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "mp_gemm.h"

#include "rt_test.h"

/* Fills an input buffer: mode 0 random bytes, 1 all 0x80, 2 all 0xff,
 * 3 all 0x7f, 4 all 0x00. */
static void mp_fill(mp_operand *op, int mode)
{
	static const unsigned char v[] = {0, 0x80, 0xff, 0x7f, 0x00};
	for (size_t i = 0; i < op->bytes; i++)
		op->buf[i] = mode ? v[mode] : (unsigned char)mp_rand();
}

/* A zero point: 0, small, byte-range or any int32. */
static int32_t mp_rand_zp(void)
{
	switch (mp_rand_below(5)) {
	case 0: return 0;
	case 1: return (int32_t)mp_rand_below(7) - 3;
	case 2: return (int32_t)mp_rand_below(256) - 128;
	case 3: return (int32_t)mp_rand_below(256);
	default: return (int32_t)(uint32_t)mp_rand();
	}
}

static int mp_failures, mp_cases;

/* Compares two whole output buffers; returns the number of differing
 * int32 words and prints the first one (when verbose). */
static long mp_compare(const int32_t *want, const int32_t *got, size_t n, int verbose)
{
	long bad = 0;
	for (size_t i = 0; i < n; i++)
		if (want[i] != got[i]) {
			if (!bad && verbose)
				printf("    first difference at word %zu: want %d got %d\n", i,
				       want[i], got[i]);
			bad++;
		}
	return bad;
}

/* Runs one case; returns 0 when the kernel matches the reference.  With
 * inject != 0, additionally perturbs the kernel's output and requires the
 * checker to notice (returns 1 if it did not). */
static int mp_check(mp_kernel kern, long M, long N, long K, int a_dt, int b_dt, int32_t za,
		    int32_t zb, int la, int lb, int lc, int acc, int fill_a, int fill_b,
		    int inject)
{
	mp_operand A, B, C;
	mp_operand_make(&A, M, K, la, 1, 16);
	mp_operand_make(&B, K, N, lb, 1, 16);
	mp_operand_make(&C, M, N, lc, 4, 16);
	mp_fill(&A, fill_a);
	mp_fill(&B, fill_b);
	int32_t *cref = (int32_t *)C.buf;
	size_t nw = C.bytes / 4;
	for (size_t i = 0; i < nw; i++)
		cref[i] = (int32_t)(uint32_t)mp_rand();
	int32_t *ctest = malloc(C.bytes);
	memcpy(ctest, cref, C.bytes);
	char *ctest_base = (char *)ctest + (C.base - (char *)C.buf);

	mp_gemm_args g = {M, N, K, A.base, a_dt, A.s0, A.s1, za, B.base, b_dt, B.s0, B.s1, zb,
			  (int32_t *)C.base, C.s0, C.s1, acc, NULL, NULL, NULL};
	mp_gemm_x8_ref(&g);
	mp_gemm_x8(kern, M, N, K, A.base, a_dt, A.s0, A.s1, za, B.base, b_dt, B.s0, B.s1, zb,
		   (int32_t *)ctest_base, C.s0, C.s1, acc);
	long bad = mp_compare(cref, ctest, nw, 1);
	int fail = bad != 0;
	if (fail)
		printf("FAIL %s M=%ld N=%ld K=%ld a=%s b=%s za=%d zb=%d A=%s B=%s C=%s acc=%d "
		       "fill=%d/%d: %ld words differ\n",
		       mp_kernel_name(kern), M, N, K, a_dt ? "u8" : "s8", b_dt ? "u8" : "s8", za,
		       zb, lay_name[la], lay_name[lb], lay_name[lc], acc, fill_a, fill_b,
		       bad);
	if (inject && !fail) {
		/* an output element, then a guard word: both must be reported */
		if (M > 0 && N > 0) {
			int32_t *e = (int32_t *)ctest_base + mp_rand_below(M) * C.s0 +
				     mp_rand_below(N) * C.s1;
			*e ^= 1 << mp_rand_below(32);
			if (mp_compare(cref, ctest, nw, 0) != 1) {
				printf("FAIL fault injection: a flipped output bit went unnoticed\n");
				fail = 1;
			}
			memcpy(ctest, cref, C.bytes); /* undo the flip */
		}
		ctest[0] += 1; /* guard band in front of the output */
		if (mp_compare(cref, ctest, nw, 0) != 1) {
			printf("FAIL fault injection: a stray write went unnoticed\n");
			fail = 1;
		}
	}
	free(A.buf);
	free(B.buf);
	free(C.buf);
	free(ctest);
	mp_cases++;
	mp_failures += fail;
	return fail;
}

/* A random case of shape M x N x K: random types, zero points, layouts,
 * accumulate flag, mostly random data with some extreme fills. */
static void mp_check_random(mp_kernel kern, long M, long N, long K)
{
	int fa = mp_rand_below(8) == 0 ? 1 + (int)mp_rand_below(4) : 0;
	int fb = mp_rand_below(8) == 0 ? 1 + (int)mp_rand_below(4) : 0;
	mp_check(kern, M, N, K, (int)mp_rand_below(2), (int)mp_rand_below(2), mp_rand_zp(),
		 mp_rand_zp(), (int)mp_rand_below(L_COUNT), (int)mp_rand_below(L_COUNT),
		 (int)mp_rand_below(L_ZERO1), (int)mp_rand_below(2), fa, fb, 0);
}

/* Groups (mp_gemm_x8_groups): G contractions of A and B advanced by a_sg /
 * b_sg bytes, into t[(i*G + g)*N + j], against mp_gemm_x8_ref per group.
 * Row-major A with a row of G groups (a_si >= G*K, padded or not), b the
 * vector of G groups (N == 1: the VNNI dot-product path when both are
 * contiguous and there is no zero point) or a K x N block per group;
 * extreme fills (all -128 / 255) and wrapping sums. */
static void mp_check_groups(mp_kernel kern, long M, long N, long K, long G, int a_dt, int b_dt,
			    int32_t za, int32_t zb, int pad, int fill)
{
	long a_sg = K + (pad ? 3 : 0), a_si = G * a_sg + (pad ? 5 : 0);
	long b_sg = K * N + (pad ? 7 : 0);
	size_t abytes = (size_t)(M * a_si + 64), bbytes = (size_t)(G * b_sg + 64);
	unsigned char *a = malloc(abytes), *b = malloc(bbytes);
	size_t cells = (size_t)(M * G * N) + 1;
	int32_t *want = calloc(cells + 2, 4), *got = calloc(cells + 2, 4);
	for (size_t i = 0; i < abytes; i++)
		a[i] = fill == 1 ? 0x80 : fill == 2 ? 0xff : (unsigned char)mp_rand();
	for (size_t i = 0; i < bbytes; i++)
		b[i] = fill == 1 ? 0x80 : fill == 2 ? 0xff : (unsigned char)mp_rand();
	for (size_t i = 0; i < cells + 2; i++)
		want[i] = got[i] = (int32_t)(uint32_t)mp_rand();
	for (long g = 0; g < G; g++) {
		/* b per group: K x N, row-major (k stride N, j stride 1) */
		mp_gemm_args ga = {M, N, K, a + g * a_sg, a_dt, a_si, 1, za, b + g * b_sg, b_dt,
				   N, 1, zb, want + 1 + g * N, G * N, 1, 0, NULL, NULL, NULL};
		if (M > 0 && N > 0)
			mp_gemm_x8_ref(&ga);
	}
	mp_gemm_x8_groups(kern, M, N, K, G, a, a_dt, a_si, 1, a_sg, za, b, b_dt, N, 1, b_sg, zb,
			  got + 1);
	long bad = mp_compare(want, got, cells + 2, 1);
	if (bad)
		printf("FAIL groups %s M=%ld N=%ld K=%ld G=%ld a=%s b=%s za=%d zb=%d pad=%d "
		       "fill=%d: %ld words differ\n", mp_kernel_name(kern), M, N, K, G,
		       a_dt ? "u8" : "s8", b_dt ? "u8" : "s8", za, zb, pad, fill, bad);
	mp_cases++;
	mp_failures += bad != 0;
	free(a), free(b), free(want), free(got);
}

int main(int argc, char **argv)
{
	mp_kernel kern;
	int rc = rt_kernel_arg(argc, argv, &kern);
	if (rc)
		return rc;
	uint64_t seed;
	const char *s = argc > 2 ? argv[2] : getenv("MP_TEST_SEED");
	if (s)
		seed = strtoull(s, NULL, 0);
	else
		seed = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid();
	if (!seed)
		seed = 1;
	mp_rng_state = seed;
	printf("kernel %s, seed %llu (reproduce: %s %s %llu)\n", argv[1],
	       (unsigned long long)seed, argv[0], argv[1], (unsigned long long)seed);

	static const long dims[] = {0, 1, 2, 3, 5, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129};
	const int nd = (int)(sizeof dims / sizeof dims[0]);

	/* 1. every shape of the awkward list, one random configuration each */
	for (int i = 0; i < nd; i++)
		for (int j = 0; j < nd; j++)
			for (int k = 0; k < nd; k++)
				mp_check_random(kern, dims[i], dims[j], dims[k]);

	/* 2. every type pair x every input layout on larger shapes (beyond the
	 * blocking: M > MC, N > NC) */
	static const long big[][3] = {{257, 131, 515}, {100, 67, 1029}, {3, 1100, 9}, {1, 300, 777},
				      {4, 70, 33}};
	for (int t = 0; t < 4; t++)
		for (int l = 0; l < L_COUNT; l++) {
			const long *d = big[(t * L_COUNT + l) % 5];
			mp_check(kern, d[0], d[1], d[2], t & 1, t >> 1, mp_rand_zp(), mp_rand_zp(),
				 l, (l + 3) % L_COUNT, (int)mp_rand_below(L_ZERO1), l & 1, 0, 0, 0);
		}

	/* 3. extreme data and zero points, large K (wrapping sums) */
	static const int32_t zps[] = {0, 127, -128, 255, INT32_MIN, INT32_MAX, -1};
	for (int t = 0; t < 4; t++)
		for (int f = 1; f <= 4; f++)
			for (int z = 0; z < 7; z++)
				mp_check(kern, 9, 37, 1031 + z, t & 1, t >> 1, zps[z], zps[(z + f) % 7],
					 L_ROW, L_ROW, L_ROW, z & 1, f, 1 + (f + t) % 4, 0);

	/* 4. groups: every type pair, matrix-vector (the dot-product path) and
	   a few columns, awkward K and G, padded strides, extreme data */
	static const long gk[] = {1, 3, 4, 16, 31, 32, 33, 63, 64, 65, 100, 128, 130};
	for (int t = 0; t < 4; t++)
		for (int q = 0; q < (int)(sizeof gk / sizeof gk[0]); q++) {
			long M = (long)mp_rand_below(11), G = 1 + (long)mp_rand_below(6);
			mp_check_groups(kern, M, 1, gk[q], G, t & 1, t >> 1, 0, 0, q & 1,
					q % 5 == 4 ? 1 + (int)mp_rand_below(2) : 0);
			mp_check_groups(kern, M, 1 + (long)mp_rand_below(4), gk[q], G, t & 1, t >> 1,
					q & 2 ? mp_rand_zp() : 0, q & 4 ? mp_rand_zp() : 0, q & 1, 0);
		}
	for (int t = 0; t < 4; t++)   /* groups of 32 back to back: two per load */
		for (int f = 0; f < 3; f++)
			mp_check_groups(kern, 4 * t + 5 + f, 1, 32, 2 * t + f + 1, t & 1, t >> 1, 0, 0,
					0, f);
	mp_check_groups(kern, 4096 / 64, 1, 32, 128, MP_DT_S8, MP_DT_S8, 0, 0, 0, 1);
	mp_check_groups(kern, 37, 1, 1031, 3, MP_DT_S8, MP_DT_S8, 0, 0, 1, 1);

	/* 5. few rows or few columns (the avx2 family's paths for up to 8 rows,
	   and their transpositions): every count 1..9, every layout */
	static const long fk[] = {1, 15, 16, 17, 100};
	for (long m = 1; m <= 9; m++)
		for (int q = 0; q < (int)(sizeof fk / sizeof fk[0]); q++) {
			long n = 1 + (long)mp_rand_below(70);
			mp_check_random(kern, m, n, fk[q]);
			mp_check_random(kern, n, m, fk[q]);
			mp_check(kern, m, n, fk[q] + 64, (int)mp_rand_below(2), (int)mp_rand_below(2),
				 mp_rand_zp(), mp_rand_zp(), L_ROW, q % 2 ? L_COL : L_COL_PAD,
				 L_ROW, q & 1, 0, 0, 0);
		}

	/* 6. the checker can fail */
	int inj_fail = mp_failures;
	mp_check(kern, 17, 33, 65, MP_DT_S8, MP_DT_S8, 3, -5, L_ROW, L_ROW, L_ROW_PAD, 0, 0, 0, 1);
	if (mp_failures != inj_fail)
		printf("FAIL: fault injection\n");

	printf("%d cases, %d failures\n", mp_cases, mp_failures);
	return mp_failures ? 1 : 0;
}
