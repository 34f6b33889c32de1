/* gemm.c -- mp_gemm_x8: argument checks, kernel choice and the blocked
 * driver shared by all kernel families (pack B panel, pack A block, run
 * tiles; see mp_gemm.h for the algebra and the layouts).
 * Workload: one thread, from single rows (M = 1) to large square GEMMs. */
#include <stdlib.h>
#include <string.h>
#include "mp_gemm.h"

/* Allocates n bytes aligned to 64 (n may be 0); never returns NULL. */
static void *mp_alloc64(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) / 64 * 64 + 64);
	if (!p)
		abort();
	return p;
}

static long mp_round_up(long x, long m)
{
	return (x + m - 1) / m * m;
}

static long mp_min(long a, long b)
{
	return a < b ? a : b;
}

/* See mp_gemm.h.  Loop order: for each NC panel of B (packed once), for
 * each MC block of A (packed), for each NR sliver, for each MR sliver: one
 * tile over all of K.  Buffers are allocated per call and freed. */
void mp_gemm_x8_blocked(const mp_gemm_kernel *k, const mp_gemm_args *g)
{
	if (k->direct && k->direct(g))
		return;
	long kp = mp_round_up(g->K, k->kg);
	long mcb = mp_min(mp_round_up(k->mc, k->mr), mp_round_up(g->M, k->mr));
	long ncb = mp_min(mp_round_up(k->nc, k->nr), mp_round_up(g->N, k->nr));
	char *ap = mp_alloc64((size_t)(mcb * kp * k->esz));
	char *bp = mp_alloc64((size_t)(ncb * kp * k->esz));
	int32_t *rcorr = mp_alloc64(sizeof(int32_t) * (size_t)mcb);
	int32_t *ccorr = mp_alloc64(sizeof(int32_t) * (size_t)ncb);

	for (long jc = 0; jc < g->N; jc += ncb) {
		long nc = mp_min(ncb, g->N - jc);
		k->pack_b(g, jc, nc, kp, bp, ccorr);
		for (long ic = 0; ic < g->M; ic += mcb) {
			long mc = mp_min(mcb, g->M - ic);
			k->pack_a(g, ic, mc, kp, ap, rcorr);
			for (long jr = 0; jr < nc; jr += k->nr) {
				const char *bs = bp + jr * kp * k->esz;
				int ncols = (int)mp_min(k->nr, nc - jr);
				for (long ir = 0; ir < mc; ir += k->mr) {
					int32_t *c = g->c + (ic + ir) * g->c_si + (jc + jr) * g->c_sj;
					k->tile(g, kp / k->kg, ap + ir * kp * k->esz, bs, rcorr + ir,
						ccorr + jr, c, (int)mp_min(k->mr, mc - ir), ncols);
				}
			}
		}
	}
	free(ap);
	free(bp);
	free(rcorr);
	free(ccorr);
}

/* See mixprec.h.  A kernel family this CPU cannot run (or MP_KERNEL_NONE)
 * runs the scalar family instead: kernels never fail. */
void mp_gemm_x8(mp_kernel kern, long M, long N, long K,
		const void *a, int a_dt, ptrdiff_t a_si, ptrdiff_t a_sk, int32_t za,
		const void *b, int b_dt, ptrdiff_t b_sk, ptrdiff_t b_sj, int32_t zb,
		int32_t *c, ptrdiff_t c_si, ptrdiff_t c_sj, int accumulate)
{
	mp_gemm_args g = {M, N, K, a, a_dt, a_si, a_sk, za, b, b_dt, b_sk, b_sj, zb,
			  c, c_si, c_sj, accumulate};
	if (M <= 0 || N <= 0)
		return;
	if (!mp_kernel_available(kern))
		kern = MP_KERNEL_SCALAR;
	switch (kern) {
#if defined(__x86_64__)
	case MP_KERNEL_AVX512VNNI:
		mp_gemm_x8_blocked(&mp_x8_gemm_kernel__avx512vnni, &g);
		break;
	case MP_KERNEL_AVX2:
		mp_gemm_x8_blocked(&mp_x8_gemm_kernel__avx2, &g);
		break;
#endif
	default:
		mp_gemm_x8_blocked(&mp_x8_gemm_kernel__scalar, &g);
		break;
	}
}
