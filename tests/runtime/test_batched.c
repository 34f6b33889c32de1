/* test_batched.c -- contractions with a batch loop inside the rows
 * (mp_gemm_x8_batched, batched.c; a depthwise convolution's channels),
 * against a reference written here from the definition in mp_gemm.h:
 *   - random M, G (tails of the 16-channel vectors: 1, 15, 16, 17, 33,
 *     64, 70), N (1: the vector form; 2, 3: the scalar form), one to
 *     three reduction dims (taps up to 64 for the vector form, more for
 *     its refusal), s8 / u8 operands with zero points (0, 128, random),
 *     channel-contiguous and strided layouts (negative strides too);
 *   - padding conditions c0 + ci*i + sum ck*d >= 0 with random
 *     coefficients, the padding value any byte: a padded element's term
 *     is (pad - za)*(b - zb);
 *   - the result bit for bit (int32 modulo 2^32), on the kernel family
 *     named by argv[1] and on MIXPREC_THREADS teams (CTest runs 1 and 2).
 * Usage: test_batched KERNEL [seed]; exits 77 when the CPU lacks it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mp_gemm.h"
#include "mp_par.h"
#include "rt_test.h"

static int failures, checked, vec_runs;

static int32_t ld(const void *p, int dt)
{
	return dt == MP_DT_U8 ? (int32_t) * (const uint8_t *)p : (int32_t) * (const int8_t *)p;
}

static void reference(const mp_batched_args *x, int32_t *t)
{
	long d[MP_MAX_KDIMS] = {0, 0, 0}, T = 1;
	for (int l = 0; l < x->nk; l++)
		T *= x->kd[l].n;
	for (long i = 0; i < x->M; i++)
		for (long g = 0; g < x->G; g++)
			for (long j = 0; j < x->N; j++) {
				uint32_t s = 0;
				for (long p = 0; p < T; p++) {
					long r = p;
					ptrdiff_t oa = i * x->a_si + g * x->a_sg,
						  ob = g * x->b_sg + j * x->b_sj;
					int in = 1;
					for (int l = 0; l < x->nk; l++) {
						d[l] = r % x->kd[l].n;
						r /= x->kd[l].n;
						oa += d[l] * x->kd[l].a;
						ob += d[l] * x->kd[l].b;
					}
					for (int c = 0; x->pad && c < x->pad->n; c++) {
						long v = x->pad->c0[c] + x->pad->ci[c] * i;
						for (int l = 0; l < x->nk; l++)
							v += x->pad->ck[c][l] * d[l];
						in &= v >= 0;
					}
					int32_t av = in ? ld((const char *)x->a + oa, x->a_dt)
						   : (x->a_dt == MP_DT_U8 ? (int32_t)x->pad->pad[0]
									  : (int32_t)(int8_t)x->pad->pad[0]);
					int32_t bv = ld((const char *)x->b + ob, x->b_dt);
					s += (uint32_t)(av - x->za) * (uint32_t)(bv - x->zb);
				}
				t[(i * x->G + g) * x->N + j] = (int32_t)s;
			}
}

/* Byte offsets of one operand: the lowest and highest over its index
 * ranges (each stride times its extent - 1, by sign). */
static void span(ptrdiff_t *lo, ptrdiff_t *hi, ptrdiff_t s, long n)
{
	ptrdiff_t e = (n - 1) * s;
	*lo += e < 0 ? e : 0;
	*hi += e > 0 ? e : 0;
}

static void one(mp_kernel kern, int round)
{
	static const long gs[] = {1, 2, 15, 16, 17, 33, 64, 70};
	mp_batched_args x;
	mp_pad pad;
	memset(&x, 0, sizeof x);
	x.M = 1 + mp_rand_below(round % 5 == 0 ? 40 : 9);
	x.G = gs[mp_rand_below(8)];
	x.N = mp_rand_below(3) ? 1 : 2 + mp_rand_below(2);
	x.nk = 1 + (int)mp_rand_below(3);
	int big = mp_rand_below(10) == 0;   /* more than 64 taps */
	for (int l = 0; l < x.nk; l++)
		x.kd[l].n = big && l == 0 ? 65 + mp_rand_below(10) : 1 + mp_rand_below(4);
	x.a_dt = mp_rand_below(2) ? MP_DT_S8 : MP_DT_U8;
	x.b_dt = mp_rand_below(4) ? MP_DT_S8 : MP_DT_U8;
	static const int32_t zs[] = {0, 0, 128, -3, 7};
	x.za = zs[mp_rand_below(5)];
	x.zb = mp_rand_below(3) ? 0 : zs[mp_rand_below(5)];
	/* layouts: channels contiguous (A(i, g, d) = a[i*si + g + ...]) as a
	   depthwise NHWC row, or strided with any signs */
	int contig = mp_rand_below(3) != 0;
	long gstride = contig ? 1 : (mp_rand_below(2) ? -1 : 1) * (2 + mp_rand_below(3));
	x.a_sg = gstride;
	x.b_sg = contig ? 1 : (mp_rand_below(2) ? 1 : -3);
	ptrdiff_t reach = x.G * (gstride < 0 ? -gstride : gstride) + 1;
	for (int l = 0; l < x.nk; l++) {
		x.kd[l].a = (mp_rand_below(4) ? 1 : -1) * reach * (1 + mp_rand_below(2));
		reach *= x.kd[l].n + 2;
		x.kd[l].b = (mp_rand_below(4) ? 1 : -1) * x.G * 2 * (l + 1) *
			    (l ? x.kd[l - 1].n : 1) * 3;
	}
	x.a_si = (mp_rand_below(4) ? 1 : -1) * (reach + mp_rand_below(7));
	x.b_sj = x.N > 1 ? (mp_rand_below(2) ? 1 : -1) * (x.G * 7 + 5) : 1;
	if (x.N == 1 && mp_rand_below(2))
		x.b_sj = 0;
	ptrdiff_t alo = 0, ahi = 0, blo = 0, bhi = 0;
	span(&alo, &ahi, x.a_si, x.M);
	span(&alo, &ahi, x.a_sg, x.G);
	span(&blo, &bhi, x.b_sg, x.G);
	span(&blo, &bhi, x.b_sj, x.N);
	for (int l = 0; l < x.nk; l++) {
		span(&alo, &ahi, x.kd[l].a, x.kd[l].n);
		span(&blo, &bhi, x.kd[l].b, x.kd[l].n);
	}
	size_t na = (size_t)(ahi - alo + 1 + 128), nb = (size_t)(bhi - blo + 1 + 128);
	unsigned char *abuf = malloc(na), *bbuf = malloc(nb);
	for (size_t e = 0; e < na; e++)
		abuf[e] = (unsigned char)(mp_rand_below(8) ? mp_rand() : (mp_rand_below(2) ? 0x80 : 0x7f));
	for (size_t e = 0; e < nb; e++)
		bbuf[e] = (unsigned char)(mp_rand_below(8) ? mp_rand() : (mp_rand_below(2) ? 0x80 : 0xff));
	x.a = abuf + 64 - alo;
	x.b = bbuf + 64 - blo;
	x.pad = NULL;
	if (mp_rand_below(2)) {   /* padding conditions */
		memset(&pad, 0, sizeof pad);
		pad.n = 1 + (int)mp_rand_below(4);
		pad.pad[0] = (unsigned char)(mp_rand_below(2) ? (uint64_t)(uint32_t)x.za : mp_rand());
		for (int c = 0; c < pad.n; c++) {
			pad.c0[c] = mp_rand_below(9) - 3;
			pad.ci[c] = mp_rand_below(5) - 2;
			pad.ci2[c] = 0;
			for (int l = 0; l < x.nk; l++)
				pad.ck[c][l] = mp_rand_below(5) - 2;
		}
		x.pad = &pad;
	}
	size_t cells = (size_t)x.M * x.G * x.N;
	int32_t *t = malloc(cells * 4 + 4), *r = malloc(cells * 4 + 4);
	memset(t, 0x5a, cells * 4 + 4);
	reference(&x, r);
	x.t = t;
	mp_gemm_x8_batched(kern, &x);
	vec_runs += x.vec != 0;
	checked++;
	if (memcmp(t, r, cells * 4) || t[cells] != 0x5a5a5a5a) {
		if (++failures < 10) {
			long e = 0;
			while (e < (long)cells && t[e] == r[e])
				e++;
			fprintf(stderr,
				"FAIL round %d: M %ld G %ld N %ld nk %d (n %ld %ld %ld) dt %d/%d z %d/%d "
				"a_sg %ld b_sg %ld pad %d vec %d: cell %ld got %d want %d\n",
				round, x.M, x.G, x.N, x.nk, x.kd[0].n, x.nk > 1 ? x.kd[1].n : 0,
				x.nk > 2 ? x.kd[2].n : 0, x.a_dt, x.b_dt, x.za, x.zb, (long)x.a_sg,
				(long)x.b_sg, x.pad ? x.pad->n : 0, x.vec, e,
				e < (long)cells ? t[e] : -1, e < (long)cells ? r[e] : -1);
		}
	}
	free(abuf);
	free(bbuf);
	free(t);
	free(r);
}

int main(int argc, char **argv)
{
	mp_kernel kern;
	int rc = rt_kernel_arg(argc, argv, &kern);
	if (rc)
		return rc;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : (uint64_t)time(NULL);
	mp_rng_state = seed * 2654435761u + 1;
	printf("test_batched %s seed %llu\n", argv[1], (unsigned long long)seed);
	/* every call splits its rows over MIXPREC_THREADS threads, whatever
	   its size */
	const char *th = getenv("MIXPREC_THREADS");
	mp_par_override(th ? atoi(th) : 0, 1.0);
	for (int round = 0; round < 3000; round++)
		one(kern, round);
	printf("%d problems checked, %d on the vector form, %d failures\n", checked, vec_runs,
	       failures);
	/* every family but scalar has a vector form (batched_avx2.c,
	   batched_avx512.c, batched_neon.c) */
	if (kern != MP_KERNEL_SCALAR && vec_runs == 0) {
		fprintf(stderr, "FAIL: the vector form never ran\n");
		return 1;
	}
	return failures ? 1 : 0;
}
