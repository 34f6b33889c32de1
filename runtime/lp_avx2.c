/* lp_avx2.c -- the BF16 / FP8 paths of mp_gemm_lp for CPUs without
 * AVX512-BF16: vdpbf16ps's operation sequence emulated in fp32 with AVX2 +
 * FMA, giving the same bits as the scalar reference of lp.c (and as the
 * AVX512-BF16 kernel).
 *   - Operands are quantized while packing by mp_lp_qbf (lp.h), the
 *     reference's own per-element conversion (offsets included); the bf16
 *     values are stored as floats (exact), so the tile needs no
 *     conversion.
 *   - Per output, one fp32 chain of vfmadd231ps in the instruction's order:
 *     for each pair of k, the odd element first, then the even one.  The
 *     packed layouts hold k in that order (q = k ^ 1), so the tile walks q
 *     linearly.  Vectorized across columns (8 per ymm) and rows (one
 *     broadcast per row), never across k.
 *   - vdpbf16ps flushes denormal results to zero; MXCSR.FTZ does the same
 *     with the same tininess rule (after rounding, unbounded exponent: see
 *     mp_bf16_fma_ftz), so the tiles run with FTZ (and DAZ), round to
 *     nearest and all exceptions masked, whatever the caller's MXCSR; the
 *     caller's MXCSR (flags included, as vdpbf16ps raises none) is
 *     restored before the epilogue, which runs under it like the
 *     reference's.
 * Packed layouts (floats, kp = K rounded up to 2, zeros beyond K and
 * beyond the last row / column):
 *   A block: sliver s (rows s*MR ...) at s*kp*MR, inside it [q][MR];
 *   B panel: sliver s (cols s*NR ...) at s*kp*NR, inside it [q][NR];
 *   element k at q = k ^ 1.
 * Blocking: NC columns of B and MC rows of A are packed over all of K (B
 * once per panel, A once per block and panel); the tiles then run in
 * K-slices of KC, the accumulators of the MC x NC block living in a buffer
 * between slices (stored and reloaded exactly: the chain is unchanged), so
 * a KC x NR sliver of B stays in L1 and the KC x MC slice of A in L2.
 * Compiled with -mavx2 -mfma -ffp-contract=off (no contraction may change
 * the conversions shared with lp.c): call only after
 * mp_kernel_available(MP_KERNEL_AVX2). */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>
#include "lp.h"
#include "mp_runtime.h"
#include "mp_par.h"

#define MP_LF_MR 6
#define MP_LF_NRV 2
#define MP_LF_NR (8 * MP_LF_NRV)
#ifndef MP_LF_MC
#define MP_LF_MC 72
#endif
#ifndef MP_LF_NC
#define MP_LF_NC 1024
#endif
#ifndef MP_LF_KC
#define MP_LF_KC 256 /* even: a slice never splits a pair */
#endif

/* MXCSR inside the tiles: all exceptions masked (an unmasked underflow
 * would make FTZ inactive), round to nearest, FTZ (bit 15), DAZ (bit 6;
 * no input is denormal anyway: bf16 / FP8 values and flushed sums). */
#define MP_LF_MXCSR 0x9fc0u

static long mp_lf_min(long p, long q)
{
	return p < q ? p : q;
}

/* ---------------------------------------------------------- packing */

/* Rows [i0, i0+mc) of A into the block layout above. */
static void mp_lf_pack_a(const mp_lp_ctx *x, long i0, long mc, long kp, float *ap)
{
	const long K = x->K;
	const size_t es = x->dbl ? sizeof(double) : sizeof(float);
	long nsl = (mc + MP_LF_MR - 1) / MP_LF_MR;
	for (long s = 0; s < nsl; s++) {
		float *dst = ap + s * kp * MP_LF_MR;
		const char *row[MP_LF_MR];
		float ff[MP_LF_MR];
		double fd[MP_LF_MR];
		int nr = (int)mp_lf_min(MP_LF_MR, mc - s * MP_LF_MR);
		for (int r = 0; r < nr; r++) {
			long i = i0 + s * MP_LF_MR + r;
			row[r] = (const char *)x->a + i * x->a_si * (ptrdiff_t)es;
			ff[r] = x->fa_f ? x->fa_f[i] : 0;
			fd[r] = x->fa_d ? x->fa_d[i] : 0;
		}
		for (long k = 0; k < kp; k++) {
			float *d = dst + (k ^ 1) * MP_LF_MR;
			int r = 0;
			if (k < K)
				for (; r < nr; r++)
					d[r] = mp_lp_qbf(x, x->qmul_a, row[r], k * x->a_sk, x->oa, ff[r],
							 fd[r]);
			for (; r < MP_LF_MR; r++)
				d[r] = 0.0f;
		}
	}
}

/* Columns [j0, j0+nc) of B into the panel layout above. */
static void mp_lf_pack_b(const mp_lp_ctx *x, long j0, long nc, long kp, float *bp)
{
	const long K = x->K;
	const size_t es = x->dbl ? sizeof(double) : sizeof(float);
	long nsl = (nc + MP_LF_NR - 1) / MP_LF_NR;
	for (long s = 0; s < nsl; s++) {
		float *dst = bp + s * kp * MP_LF_NR;
		const char *col[MP_LF_NR];
		float ff[MP_LF_NR];
		double fd[MP_LF_NR];
		int ncl = (int)mp_lf_min(MP_LF_NR, nc - s * MP_LF_NR);
		for (int c = 0; c < ncl; c++) {
			long j = j0 + s * MP_LF_NR + c;
			col[c] = (const char *)x->b + j * x->b_sj * (ptrdiff_t)es;
			ff[c] = x->fb_f ? x->fb_f[j] : 0;
			fd[c] = x->fb_d ? x->fb_d[j] : 0;
		}
		/* k outer: a row-major B is read along its rows */
		for (long k = 0; k < kp; k++) {
			float *d = dst + (k ^ 1) * MP_LF_NR;
			int c = 0;
			if (k < K)
				for (; c < ncl; c++)
					d[c] = mp_lp_qbf(x, x->qmul_b, col[c], k * x->b_sk, x->ob, ff[c],
							 fd[c]);
			for (; c < MP_LF_NR; c++)
				d[c] = 0.0f;
		}
	}
}

/* ------------------------------------------------------ micro-kernel */

/* mr x 8*nv outputs over nq packed steps: t (row stride ldt) holds the
 * accumulators between K-slices; first: start from +0 like the chain. */
static inline __attribute__((always_inline)) void
mp_lf_tile(long nq, const float *a, const float *b, float *t, long ldt, int first, const int mr,
	   const int nv)
{
	__m256 acc[MP_LF_MR][MP_LF_NRV];
#pragma GCC unroll 6
	for (int r = 0; r < mr; r++)
#pragma GCC unroll 2
		for (int v = 0; v < nv; v++)
			acc[r][v] = first ? _mm256_setzero_ps() : _mm256_loadu_ps(t + r * ldt + 8 * v);
	for (long q = 0; q < nq; q++) {
		__m256 bv[MP_LF_NRV];
#pragma GCC unroll 2
		for (int v = 0; v < nv; v++)
			bv[v] = _mm256_load_ps(b + 8 * v);
#pragma GCC unroll 6
		for (int r = 0; r < mr; r++) {
			__m256 av = _mm256_broadcast_ss(a + r);
#pragma GCC unroll 2
			for (int v = 0; v < nv; v++)
				acc[r][v] = _mm256_fmadd_ps(av, bv[v], acc[r][v]);
		}
		a += MP_LF_MR;
		b += MP_LF_NR;
	}
#pragma GCC unroll 6
	for (int r = 0; r < mr; r++)
#pragma GCC unroll 2
		for (int v = 0; v < nv; v++)
			_mm256_storeu_ps(t + r * ldt + 8 * v, acc[r][v]);
}

#define MP_LF_TILE_NV(MR)                                                     \
	do {                                                                  \
		if (nv == 2)                                                  \
			mp_lf_tile(nq, a, b, t, ldt, first, MR, 2);           \
		else                                                          \
			mp_lf_tile(nq, a, b, t, ldt, first, MR, 1);           \
	} while (0)

static void mp_lf_ukernel(long nq, const float *a, const float *b, float *t, long ldt,
			  int first, int mr, int nv)
{
	switch (mr) {
	case 6: MP_LF_TILE_NV(6); break;
	case 5: MP_LF_TILE_NV(5); break;
	case 4: MP_LF_TILE_NV(4); break;
	case 3: MP_LF_TILE_NV(3); break;
	case 2: MP_LF_TILE_NV(2); break;
	default: MP_LF_TILE_NV(1); break;
	}
}

/* The accumulators of one mc x nc block into t (row stride ldt), under the
 * kernel's MXCSR.  Not inlined, and everything it computes is stored to
 * memory that the epilogue reads: no fp operation of the tiles can be
 * moved across the MXCSR writes. */
static __attribute__((noinline)) void mp_lf_block(const float *ap, const float *bp, long kp,
						  long mc, long nc, float *t, long ldt)
{
	unsigned int csr = _mm_getcsr();
	_mm_setcsr(MP_LF_MXCSR);
	for (long pc = 0; pc < kp; pc += MP_LF_KC) {
		long kc = mp_lf_min(MP_LF_KC, kp - pc);
		for (long jr = 0; jr < nc; jr += MP_LF_NR) {
			int nv = (int)(mp_lf_min(MP_LF_NR, nc - jr) + 7) / 8;
			const float *bs = bp + jr * kp + pc * MP_LF_NR;
			for (long ir = 0; ir < mc; ir += MP_LF_MR)
				mp_lf_ukernel(kc, ap + ir * kp + pc * MP_LF_MR, bs, t + ir * ldt + jr,
					      ldt, pc == 0, (int)mp_lf_min(MP_LF_MR, mc - ir), nv);
		}
	}
	_mm_setcsr(csr);
}

/* ----------------------------------------------------------- driver */


/* The packers as mp_lp_block_pack_fn (constant operands, lp.c). */
static void mp_lf_fill_blk_a(const mp_lp_ctx *x, long n0, long w, long kp, void *dst)
{
	mp_lf_pack_a(x, n0, w, kp, (float *)dst);
}

static void mp_lf_fill_blk_b(const mp_lp_ctx *x, long n0, long w, long kp, void *dst)
{
	mp_lf_pack_b(x, n0, w, kp, (float *)dst);
}

/* The part [i0, i1) x [j0, j1) of the call (bounds multiples of MP_LF_MR /
 * MP_LF_NR, or M / N): for each NC panel of B meeting it (packed), each
 * MC block of A (packed): the block's accumulators (K-sliced tiles), then
 * the shared epilogue.  A constant operand runs from its cached blocks
 * (the same packers made them), from the part's first sliver in the
 * block. */
typedef struct mp_lf_job {
	const mp_lp_ctx *x;
	const mp_lp_packed *pka, *pkb;
	long kp, mcb, ncb;
} mp_lf_job;

static void mp_lf_range(const mp_lf_job *job, long i0, long i1, long j0, long j1)
{
	const mp_lp_ctx *x = job->x;
	const mp_lp_packed *pka = job->pka, *pkb = job->pkb;
	const long kp = job->kp, mcb = job->mcb, ncb = job->ncb;
	const long nib = (x->M + mcb - 1) / mcb, njb = (x->N + ncb - 1) / ncb;
	const long mcp = mp_lf_min(mcb, (i1 - i0 + MP_LF_MR - 1) / MP_LF_MR * MP_LF_MR);
	const long ncp = mp_lf_min(ncb, (j1 - j0 + MP_LF_NR - 1) / MP_LF_NR * MP_LF_NR);
	float *ap = pka ? NULL : mp_scratch(MP_SCR_A, sizeof(float) * (size_t)(mcp * kp));
	float *bp = pkb ? NULL : mp_scratch(MP_SCR_B, sizeof(float) * (size_t)(ncp * kp));
	float *t = mp_scratch(MP_SCR_T, sizeof(float) * (size_t)(mcp * ncp));
	for (long jb = j0 / ncb; jb < njb && jb * ncb < j1; jb++) {
		long jc = jb * ncb > j0 ? jb * ncb : j0;
		long nc = mp_lf_min(mp_lf_min((jb + 1) * ncb, x->N), j1) - jc;
		const float *bpan = bp;
		if (pkb)
			bpan = (const float *)mp_lp_packed_blk(pkb, jb) + (jc - jb * ncb) * kp;
		else
			mp_lf_pack_b(x, jc, nc, kp, bp);
		for (long ib = i0 / mcb; ib < nib && ib * mcb < i1; ib++) {
			long ic = ib * mcb > i0 ? ib * mcb : i0;
			long mc = mp_lf_min(mp_lf_min((ib + 1) * mcb, x->M), i1) - ic;
			const float *ablk = ap;
			if (pka)
				ablk = (const float *)mp_lp_packed_blk(pka, ib) + (ic - ib * mcb) * kp;
			else
				mp_lf_pack_a(x, ic, mc, kp, ap);
			mp_lf_block(ablk, bpan, kp, mc, nc, t, ncp);
			mp_lp_epilogue_generic(x, t, 0, ncp, ic, jc, (int)mc, (int)nc);
		}
	}
}

static void mp_lf_part(void *p, int t, int n)
{
	const mp_lf_job *job = p;
	long i0, i1, j0, j1;
	mp_lp_par_part(job->x, MP_LF_MR, MP_LF_NR, 4.0, 4.0, t, n, &i0, &i1, &j0, &j1);
	if (i0 < i1 && j0 < j1)
		mp_lf_range(job, i0, i1, j0, j1);
}

/* See lp.h.  Constant operands missing from the cache are packed whole
 * first (calling thread), then the output is split over the team. */
void mp_lp_bf16_run__avx2(const mp_lp_ctx *x)
{
	const long kp = (x->K + 1) & ~1L;
	long mcb = mp_lf_min(MP_LF_MC, (x->M + MP_LF_MR - 1) / MP_LF_MR * MP_LF_MR);
	long ncb = mp_lf_min(MP_LF_NC, (x->N + MP_LF_NR - 1) / MP_LF_NR * MP_LF_NR);
	mcb = (mcb + MP_LF_MR - 1) / MP_LF_MR * MP_LF_MR;
	ncb = (ncb + MP_LF_NR - 1) / MP_LF_NR * MP_LF_NR;
	mp_lf_job job = {x, NULL, NULL, kp, mcb, ncb};
	job.pka = mp_lp_fill_blocks(x, x->pk_a, 0, kp, mcb, MP_LF_MR, sizeof(float),
				    mp_lf_fill_blk_a);
	job.pkb = mp_lp_fill_blocks(x, x->pk_b, 1, kp, ncb, MP_LF_NR, sizeof(float),
				    mp_lf_fill_blk_b);
	mp_par_run(mp_lp_par_threads(x), mp_lf_part, &job);
}
