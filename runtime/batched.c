/* batched.c -- int8 contractions with a batch loop inside the rows (issue
 * 9): a depthwise convolution's channel loop indexes the input, the
 * weights and the output, so each channel is a contraction of its own
 * over the window (K = 9 for 3x3), one output column per channel
 * multiplier:
 *
 *   T[(i*G + g)*N + j] = sum over the reduction's points d of
 *                        (A(i,g,d) - za) * (B(g,d,j) - zb)
 *   A(i,g,d) = a[i*a_si + g*a_sg + sum_l d_l*kd[l].a]
 *   B(g,d,j) = b[g*b_sg + j*b_sj + sum_l d_l*kd[l].b]
 *
 * with d = (d_0 .. d_{nk-1}), d_l < kd[l].n (kd[0] innermost), and, when
 * PAD is given, A's element replaced by pad->pad[0] wherever a condition
 * c0 + ci*i + sum_l ck[l]*d_l >= 0 fails (the element is not read there).
 * Int32 sums, modulo 2^32 (the caller bounds them).
 *
 * Such products are too thin for the GEMM kernels (a column of N = 1 per
 * channel, a reduction of 9 terms); the vector form runs across the
 * channels instead: with A and B contiguous in g and N == 1 (channel
 * multiplier 1, the common case), 32 channels per step on AVX512-VNNI
 * (batched_avx512.c), 16 on AVX2 (batched_avx2.c) and on aarch64's
 * dotprod and i8mm families (batched_neon.c: plain NEON); any other
 * problem runs the scalar form below.  Rows
 * are split over the runtime's threads; each output cell is one thread's
 * sum in a fixed order, so the result does not depend on the team. */
#include <stdint.h>
#include <string.h>
#include "mp_gemm.h"
#include "mp_par.h"
#include "mp_runtime.h"

/* Rows lo..hi-1, any layout. */
static void mp_batched_rows_ref(const mp_batched_args *x, long lo, long hi)
{
	long d[MP_MAX_KDIMS];
	const int nk = x->nk;
	int32_t padv = mp_batched_padv(x);

	for (long i = lo; i < hi; i++) {
		int32_t *row = x->t + (size_t)i * (size_t)x->G * (size_t)x->N;
		memset(row, 0, sizeof(int32_t) * (size_t)x->G * (size_t)x->N);
		memset(d, 0, sizeof d);
		for (;;) {   /* every point d of the reduction */
			ptrdiff_t oa = i * x->a_si, ob = 0;
			for (int l = 0; l < nk; l++)
				oa += d[l] * x->kd[l].a, ob += d[l] * x->kd[l].b;
			int in = mp_batched_inside(x->pad, i, d, nk);
			for (long g = 0; g < x->G; g++) {
				uint32_t av = (uint32_t)((in ? mp_x8_ld((const char *)x->a + oa +
								      g * x->a_sg, x->a_dt)
							     : padv) - x->za);
				const char *bg = (const char *)x->b + ob + g * x->b_sg;
				for (long j = 0; j < x->N; j++) {
					uint32_t bv = (uint32_t)(mp_x8_ld(bg + j * x->b_sj, x->b_dt) -
								 x->zb);
					row[g * x->N + j] = (int32_t)((uint32_t)row[g * x->N + j] +
								      av * bv);
				}
			}
			int l = 0;
			while (l < nk && ++d[l] >= x->kd[l].n)
				d[l++] = 0;
			if (l == nk)
				break;
		}
	}
}

/* See mp_gemm.h. */
long mp_batched_taps(const mp_batched_args *x, ptrdiff_t *oa, ptrdiff_t *ob,
		     long (*dd)[MP_MAX_KDIMS], long *least)
{
	long d[MP_MAX_KDIMS], T = 1;
	const int nk = x->nk;

	for (int l = 0; l < nk; l++) {
		if (x->kd[l].n > MP_BATCHED_MAX_TAPS)
			return 0;
		T *= x->kd[l].n;
		if (T > MP_BATCHED_MAX_TAPS)
			return 0;
	}
	memset(d, 0, sizeof d);
	for (long t = 0; t < T; t++) {
		oa[t] = ob[t] = 0;
		for (int l = 0; l < nk; l++) {
			oa[t] += d[l] * x->kd[l].a;
			ob[t] += d[l] * x->kd[l].b;
			dd[t][l] = d[l];
		}
		for (int l = 0; l < nk && ++d[l] >= x->kd[l].n; l++)
			d[l] = 0;
	}
	/* per condition, its least value over the taps at i = 0: a row
	   where every condition holds at its least is inside at every tap
	   (the image's interior), tested once per condition */
	for (int c = 0; x->pad && c < x->pad->n; c++)
		for (long t = 0; t < T; t++) {
			long v = x->pad->c0[c];
			for (int l = 0; l < nk; l++)
				v += x->pad->ck[c][l] * dd[t][l];
			least[c] = t == 0 || v < least[c] ? v : least[c];
		}
	return T;
}

/* See mp_gemm.h. */
uint64_t mp_batched_row_in(const mp_batched_args *x, long i, long T,
			   const long (*dd)[MP_MAX_KDIMS], const long *least)
{
	int all = 1;
	for (int c = 0; x->pad && c < x->pad->n && all; c++)
		all = least[c] + x->pad->ci[c] * i >= 0;
	if (all)
		return ~(uint64_t)0;
	uint64_t in = 0;
	for (long t = 0; t < T; t++)
		in |= (uint64_t)mp_batched_inside(x->pad, i, dd[t], x->nk) << t;
	return in;
}

static void mp_batched_part(void *arg, int t, int n)
{
	const mp_batched_args *x = arg;
	long lo, hi;

	mp_par_part(x->M, 1, t, n, &lo, &hi);
	if (hi <= lo)
		return;
#if defined(__x86_64__)
	if (x->vec == 1 && mp_batched_rows__avx512(x, lo, hi))
		return;
	if (x->vec == 2 && mp_batched_rows__avx2(x, lo, hi))
		return;
#endif
#if defined(__aarch64__)
	if (x->vec == 3 && mp_batched_rows__neon(x, lo, hi))
		return;
#endif
	mp_batched_rows_ref(x, lo, hi);
}

/* See mp_gemm.h. */
int mp_batched_vec(mp_kernel kern, long N, ptrdiff_t a_sg, ptrdiff_t b_sg, double taps)
{
#if defined(__x86_64__)
	if (N != 1 || a_sg != 1 || b_sg != 1 || taps > MP_BATCHED_MAX_TAPS ||
	    (kern != MP_KERNEL_AVX512VNNI && kern != MP_KERNEL_AVX2) || !mp_kernel_available(kern))
		return 0;
	return kern == MP_KERNEL_AVX512VNNI ? 1 : 2;
#elif defined(__aarch64__)
	if (N != 1 || a_sg != 1 || b_sg != 1 || taps > MP_BATCHED_MAX_TAPS ||
	    (kern != MP_KERNEL_DOTPROD && kern != MP_KERNEL_I8MM) || !mp_kernel_available(kern))
		return 0;
	return 3;
#else
	(void)kern, (void)N, (void)a_sg, (void)b_sg, (void)taps;
	return 0;
#endif
}

/* See mp_gemm.h. */
void mp_gemm_x8_batched(mp_kernel kern, mp_batched_args *x)
{
	double work = (double)x->M * (double)x->G * (double)x->N;

	if (x->M <= 0 || x->N <= 0 || x->G <= 0)
		return;
	for (int l = 0; l < x->nk; l++) {
		if (x->kd[l].n <= 0) {   /* an empty sum: zeros */
			memset(x->t, 0, sizeof(int32_t) * (size_t)x->M * (size_t)x->G *
					     (size_t)x->N);
			return;
		}
		work *= (double)x->kd[l].n;
	}
	x->vec = mp_batched_vec(kern, x->N, x->a_sg, x->b_sg, work / ((double)x->M * (double)x->G *
								   (double)x->N));
	int nt = mp_par_threads(work);
	if (nt > 1)
		mp_par_run(nt, mp_batched_part, x);
	else
		mp_batched_part(x, 0, 1);
}
