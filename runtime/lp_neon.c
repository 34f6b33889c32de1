/* lp_neon.c -- the BF16 / FP8 paths of mp_gemm_lp on aarch64: the same
 * operation sequence as the scalar reference of lp.c (vdpbf16ps's: per
 * output one fp32 chain, for each pair of k the odd element first, then
 * the even one, results tiny after rounding flushed to zero), the same
 * bits, in two forms of one tile:
 *   - "bfmlal" (FEAT_BF16, HWCAP2_BF16): BFMLALT then BFMLALB by element.
 *     They widen the bf16 operands and do one IEEE fused multiply-add in
 *     fp32 under FPCR, the reference's step.  (BFDOT and BFMMLA are not
 *     used: they sum two products before adding, with their own rounding
 *     (round to odd, or FPCR.EBF's), which is not the sequence the bound
 *     and the other kernels are built on.)
 *   - "neon" (any aarch64; CPUs with the dotprod or i8mm family but no
 *     BF16, e.g. Neoverse N1): the operands widened by a shift and a mask,
 *     FMLA by element: the same fused steps.
 * The flush.  x86 flushes a result that is tiny after rounding with an
 * unbounded exponent (mp_bf16_fma_ftz); FPCR.FZ flushes one tiny before
 * rounding, and the two differ just below 2^-126.  Neither is needed
 * where no step can be tiny: every bf16 value v is a multiple of its last
 * place 2^(e(v) - 134) (e: the biased exponent), so when the smallest
 * exponents of the nonzero values of the A block and of the B panel have
 * ea + eb >= 142, every product, every exact sum and every rounded
 * accumulator is a multiple of 2^-126: zero or normal.  The tiles then run
 * with FZ off and nothing to flush.  A block pair that fails the test
 * (values near 2^-63 and below: MP_LP's denormal and flush patterns) runs
 * the reference's own step, mp_bf16_fma_ftz, on the packed operands.
 * The tiles run with FPCR = 0 (round to nearest, no flush, traps off);
 * the caller's FPCR and FPSR (its flags) are restored before the
 * epilogue, which runs under them like the reference's.
 * Packed layouts (bf16 bits, kp = K rounded up to 2, zeros beyond K and
 * beyond the last row / column), pair p holding k = 2p and 2p + 1:
 *   A block: sliver s (rows s*MR ...) at s*kp*MR, inside it [p][MR][2];
 *   B panel: sliver s (cols s*NR ...) at s*kp*NR, inside it [p][NR][2].
 * So one 8-lane load holds 4 rows (or columns) x one pair: the bottom
 * halves of its 32-bit lanes are k = 2p, the top halves 2p + 1.
 * Blocking as lp_avx2.c: NC columns of B and MC rows of A packed over all
 * of K, tiles in K-slices of KC with the accumulators kept exactly in a
 * buffer between slices.  Every tile is a full MR x NR one (the buffer
 * and the packed operands are padded to whole slivers); the epilogue reads
 * the block's mc x nc.
 * Built with -march=armv8.2-a+bf16 -ffp-contract=off; only the bfmlal
 * tile uses BF16 instructions, and it runs only after
 * mp_lp_have_arm_bf16(). */
#include <arm_neon.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lp.h"
#include "mp_runtime.h"
#include "mp_par.h"

#define MP_LN_MR 8  /* two vectors of 4 rows */
#define MP_LN_NRV 3
#define MP_LN_NR (4 * MP_LN_NRV)
#ifndef MP_LN_MC
#define MP_LN_MC 64
#endif
#ifndef MP_LN_NC
#define MP_LN_NC 1020
#endif
#ifndef MP_LN_KC
#define MP_LN_KC 256 /* even: a slice never splits a pair */
#endif

static long mp_ln_min(long p, long q)
{
	return p < q ? p : q;
}

/* ---------------------------------------------------------- packing */

/* The bf16 bits of the value mp_lp_qbf gives (exactly a bf16 value). */
static inline uint16_t mp_ln_q(const mp_lp_ctx *x, int qmul, const char *p, ptrdiff_t off,
			       double z, float ff, double fd)
{
	return (uint16_t)(mp_f32_bits(mp_lp_qbf(x, qmul, p, off, z, ff, fd)) >> 16);
}

/* n0 .. n0+w-1 (rows of A: side 0, columns of B: side 1) into slivers of
 * r (MP_LN_MR / MP_LN_NR) lines, [p][r][2] each. */
static void mp_ln_pack(const mp_lp_ctx *x, int side, long n0, long w, long kp, uint16_t *dst,
		       const int r)
{
	const long K = x->K;
	const size_t es = x->dbl ? sizeof(double) : sizeof(float);
	const char *base = side ? x->b : x->a;
	const ptrdiff_t s_n = side ? x->b_sj : x->a_si, s_k = side ? x->b_sk : x->a_sk;
	const float *fvf = side ? x->fb_f : x->fa_f;
	const double *fvd = side ? x->fb_d : x->fa_d;
	const int qmul = side ? x->qmul_b : x->qmul_a;
	const double z = side ? x->ob : x->oa;
	long nsl = (w + r - 1) / r;
	for (long s = 0; s < nsl; s++) {
		uint16_t *d = dst + s * kp * r;
		int nl = (int)mp_ln_min(r, w - s * r);
		memset(d, 0, sizeof(uint16_t) * (size_t)(kp * r));
		for (int l = 0; l < nl; l++) {
			long n = n0 + s * r + l;
			const char *line = base + n * s_n * (ptrdiff_t)es;
			float ff = fvf ? fvf[n] : 0;
			double fd = fvd ? fvd[n] : 0;
			for (long k = 0; k < K; k++)
				d[(k >> 1) * 2 * r + 2 * l + (k & 1)] =
					mp_ln_q(x, qmul, line, k * s_k, z, ff, fd);
		}
	}
}

static void mp_ln_fill_blk_a(const mp_lp_ctx *x, long n0, long w, long kp, void *dst)
{
	mp_ln_pack(x, 0, n0, w, kp, (uint16_t *)dst, MP_LN_MR);
}

static void mp_ln_fill_blk_b(const mp_lp_ctx *x, long n0, long w, long kp, void *dst)
{
	mp_ln_pack(x, 1, n0, w, kp, (uint16_t *)dst, MP_LN_NR);
}

/* The smallest biased exponent of the nonzero values among n bf16 bits (n
 * a multiple of 8); 255 when all are zero. */
static int mp_ln_emin(const uint16_t *p, long n)
{
	uint16x8_t m = vdupq_n_u16(255);
	for (long i = 0; i < n; i += 8) {
		uint16x8_t e = vandq_u16(vshrq_n_u16(vld1q_u16(p + i), 7), vdupq_n_u16(255));
		/* zeros (e == 0) count as 255 */
		e = vorrq_u16(e, vandq_u16(vceqzq_u16(e), vdupq_n_u16(255)));
		m = vminq_u16(m, e);
	}
	return vminvq_u16(m);
}

/* ------------------------------------------------------ micro-kernels */

/* One MR x NR tile over np pairs: a, b the slivers at the slice's first
 * pair, t (row stride ldt) the accumulators between slices; first: start
 * from +0 like the chain. */
typedef void (*mp_ln_tile_fn)(long np, const uint16_t *a, const uint16_t *b, float *t, long ldt,
			      int first);

/* (unrolled: the 24 accumulators live in registers) */
#define MP_LN_LOAD_ACC()                                                              \
	float32x4_t acc[MP_LN_MR][MP_LN_NRV];                                         \
	_Pragma("GCC unroll 8") for (int r = 0; r < MP_LN_MR; r++)                    \
		_Pragma("GCC unroll 3") for (int v = 0; v < MP_LN_NRV; v++)           \
			acc[r][v] = first ? vdupq_n_f32(0.0f) : vld1q_f32(t + r * ldt + 4 * v)
#define MP_LN_STORE_ACC()                                                             \
	_Pragma("GCC unroll 8") for (int r = 0; r < MP_LN_MR; r++)                    \
		_Pragma("GCC unroll 3") for (int v = 0; v < MP_LN_NRV; v++)           \
			vst1q_f32(t + r * ldt + 4 * v, acc[r][v])

/* FEAT_BF16: row r of the vector av (lane pair l) times the 3 column
 * vectors, the odd k first. */
#define MP_LN_BF_ROW(r, av, l)                                                         \
	do {                                                                          \
		acc[r][0] = vbfmlaltq_laneq_f32(acc[r][0], b0, av, 2 * (l) + 1);      \
		acc[r][1] = vbfmlaltq_laneq_f32(acc[r][1], b1, av, 2 * (l) + 1);      \
		acc[r][2] = vbfmlaltq_laneq_f32(acc[r][2], b2, av, 2 * (l) + 1);      \
		acc[r][0] = vbfmlalbq_laneq_f32(acc[r][0], b0, av, 2 * (l));          \
		acc[r][1] = vbfmlalbq_laneq_f32(acc[r][1], b1, av, 2 * (l));          \
		acc[r][2] = vbfmlalbq_laneq_f32(acc[r][2], b2, av, 2 * (l));          \
	} while (0)

static void mp_ln_tile_bfmlal(long np, const uint16_t *a, const uint16_t *b, float *t, long ldt,
			      int first)
{
	MP_LN_LOAD_ACC();
	for (long p = 0; p < np; p++) {
		bfloat16x8_t a0 = vreinterpretq_bf16_u16(vld1q_u16(a));
		bfloat16x8_t a1 = vreinterpretq_bf16_u16(vld1q_u16(a + 8));
		bfloat16x8_t b0 = vreinterpretq_bf16_u16(vld1q_u16(b));
		bfloat16x8_t b1 = vreinterpretq_bf16_u16(vld1q_u16(b + 8));
		bfloat16x8_t b2 = vreinterpretq_bf16_u16(vld1q_u16(b + 16));
		MP_LN_BF_ROW(0, a0, 0);
		MP_LN_BF_ROW(1, a0, 1);
		MP_LN_BF_ROW(2, a0, 2);
		MP_LN_BF_ROW(3, a0, 3);
		MP_LN_BF_ROW(4, a1, 0);
		MP_LN_BF_ROW(5, a1, 1);
		MP_LN_BF_ROW(6, a1, 2);
		MP_LN_BF_ROW(7, a1, 3);
		a += 2 * MP_LN_MR;
		b += 2 * MP_LN_NR;
	}
	MP_LN_STORE_ACC();
}

/* Any aarch64: the bottom (k = 2p) and top (2p + 1) halves widened to
 * fp32 exactly, FMLA by element. */
static inline float32x4_t mp_ln_bot(uint16x8_t v)
{
	return vreinterpretq_f32_u32(vshlq_n_u32(vreinterpretq_u32_u16(v), 16));
}
static inline float32x4_t mp_ln_top(uint16x8_t v)
{
	return vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_u16(v), vdupq_n_u32(0xffff0000u)));
}

#define MP_LN_FM_ROW(r, at, ab, l)                                                     \
	do {                                                                          \
		acc[r][0] = vfmaq_laneq_f32(acc[r][0], t0, at, l);                    \
		acc[r][1] = vfmaq_laneq_f32(acc[r][1], t1, at, l);                    \
		acc[r][2] = vfmaq_laneq_f32(acc[r][2], t2, at, l);                    \
		acc[r][0] = vfmaq_laneq_f32(acc[r][0], u0, ab, l);                    \
		acc[r][1] = vfmaq_laneq_f32(acc[r][1], u1, ab, l);                    \
		acc[r][2] = vfmaq_laneq_f32(acc[r][2], u2, ab, l);                    \
	} while (0)

static void mp_ln_tile_neon(long np, const uint16_t *a, const uint16_t *b, float *t, long ldt,
			    int first)
{
	MP_LN_LOAD_ACC();
	for (long p = 0; p < np; p++) {
		uint16x8_t a0 = vld1q_u16(a), a1 = vld1q_u16(a + 8);
		uint16x8_t b0 = vld1q_u16(b), b1 = vld1q_u16(b + 8), b2 = vld1q_u16(b + 16);
		float32x4_t at0 = mp_ln_top(a0), ab0 = mp_ln_bot(a0);
		float32x4_t at1 = mp_ln_top(a1), ab1 = mp_ln_bot(a1);
		float32x4_t t0 = mp_ln_top(b0), t1 = mp_ln_top(b1), t2 = mp_ln_top(b2);
		float32x4_t u0 = mp_ln_bot(b0), u1 = mp_ln_bot(b1), u2 = mp_ln_bot(b2);
		MP_LN_FM_ROW(0, at0, ab0, 0);
		MP_LN_FM_ROW(1, at0, ab0, 1);
		MP_LN_FM_ROW(2, at0, ab0, 2);
		MP_LN_FM_ROW(3, at0, ab0, 3);
		MP_LN_FM_ROW(4, at1, ab1, 0);
		MP_LN_FM_ROW(5, at1, ab1, 1);
		MP_LN_FM_ROW(6, at1, ab1, 2);
		MP_LN_FM_ROW(7, at1, ab1, 3);
		a += 2 * MP_LN_MR;
		b += 2 * MP_LN_NR;
	}
	MP_LN_STORE_ACC();
}

/* A block pair with tiny values: the reference's step on the packed
 * operands, in its order. */
static void mp_ln_tile_exact(long np, const uint16_t *a, const uint16_t *b, float *t, long ldt,
			     int first)
{
	for (int r = 0; r < MP_LN_MR; r++)
		for (int c = 0; c < MP_LN_NR; c++) {
			float acc = first ? 0.0f : t[r * ldt + c];
			for (long p = 0; p < np; p++) {
				const uint16_t *ap = a + p * 2 * MP_LN_MR + 2 * r;
				const uint16_t *bp = b + p * 2 * MP_LN_NR + 2 * c;
				acc = mp_bf16_fma_ftz(mp_bf16_to_f32(ap[1]), mp_bf16_to_f32(bp[1]), acc);
				acc = mp_bf16_fma_ftz(mp_bf16_to_f32(ap[0]), mp_bf16_to_f32(bp[0]), acc);
			}
			t[r * ldt + c] = acc;
		}
}

static inline uint64_t mp_ln_get_fpcr(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, fpcr" : "=r"(v) : : "memory");
	return v;
}
static inline uint64_t mp_ln_get_fpsr(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, fpsr" : "=r"(v) : : "memory");
	return v;
}
static inline void mp_ln_set_fpcr(uint64_t v)
{
	__asm__ volatile("msr fpcr, %0" : : "r"(v) : "memory");
}
static inline void mp_ln_set_fpsr(uint64_t v)
{
	__asm__ volatile("msr fpsr, %0" : : "r"(v) : "memory");
}

/* The accumulators of one block (mc rows from ap, nc columns from bp, both
 * padded to whole slivers) into t (row stride ldt).  Not inlined, and
 * everything it computes is stored to memory that the epilogue reads: no
 * fp operation of the tiles can move across the FPCR writes. */
static __attribute__((noinline)) void mp_ln_block(mp_ln_tile_fn tile, const uint16_t *ap,
						  const uint16_t *bp, long kp, long mc, long nc,
						  float *t, long ldt)
{
	const long mcr = (mc + MP_LN_MR - 1) / MP_LN_MR * MP_LN_MR;
	const long ncr = (nc + MP_LN_NR - 1) / MP_LN_NR * MP_LN_NR;
	if (mp_ln_emin(ap, mcr * kp) + mp_ln_emin(bp, ncr * kp) < 142)
		tile = mp_ln_tile_exact;
	uint64_t cr = mp_ln_get_fpcr(), sr = mp_ln_get_fpsr();
	mp_ln_set_fpcr(0);
	for (long pc = 0; pc < kp; pc += MP_LN_KC) {
		long kc = mp_ln_min(MP_LN_KC, kp - pc);
		for (long jr = 0; jr < nc; jr += MP_LN_NR) {
			const uint16_t *bs = bp + jr * kp + pc * MP_LN_NR;
			for (long ir = 0; ir < mc; ir += MP_LN_MR)
				tile(kc / 2, ap + ir * kp + pc * MP_LN_MR, bs, t + ir * ldt + jr,
				     ldt, pc == 0);
		}
	}
	mp_ln_set_fpcr(cr);
	mp_ln_set_fpsr(sr);
}

/* ----------------------------------------------------------- driver */

/* The part [i0, i1) x [j0, j1) of the call, as lp_avx2.c's mp_lf_range:
 * per NC panel of B (packed, or the cached one), per MC block of A, the
 * block's accumulators, then the shared epilogue. */
typedef struct mp_ln_job {
	const mp_lp_ctx *x;
	const mp_lp_packed *pka, *pkb;
	mp_ln_tile_fn tile;
	long kp, mcb, ncb;
} mp_ln_job;

static void mp_ln_range(const mp_ln_job *job, long i0, long i1, long j0, long j1)
{
	const mp_lp_ctx *x = job->x;
	const mp_lp_packed *pka = job->pka, *pkb = job->pkb;
	const long kp = job->kp, mcb = job->mcb, ncb = job->ncb;
	const long nib = (x->M + mcb - 1) / mcb, njb = (x->N + ncb - 1) / ncb;
	const long mcp = mp_ln_min(mcb, (i1 - i0 + MP_LN_MR - 1) / MP_LN_MR * MP_LN_MR);
	const long ncp = mp_ln_min(ncb, (j1 - j0 + MP_LN_NR - 1) / MP_LN_NR * MP_LN_NR);
	uint16_t *ap = pka ? NULL : mp_scratch(MP_SCR_A, sizeof(uint16_t) * (size_t)(mcp * kp));
	uint16_t *bp = pkb ? NULL : mp_scratch(MP_SCR_B, sizeof(uint16_t) * (size_t)(ncp * kp));
	float *t = mp_scratch(MP_SCR_T, sizeof(float) * (size_t)(mcp * ncp));
	for (long jb = j0 / ncb; jb < njb && jb * ncb < j1; jb++) {
		long jc = jb * ncb > j0 ? jb * ncb : j0;
		long nc = mp_ln_min(mp_ln_min((jb + 1) * ncb, x->N), j1) - jc;
		const uint16_t *bpan = bp;
		if (pkb)
			bpan = (const uint16_t *)mp_lp_packed_blk(pkb, jb) + (jc - jb * ncb) * kp;
		else
			mp_ln_pack(x, 1, jc, nc, kp, bp, MP_LN_NR);
		for (long ib = i0 / mcb; ib < nib && ib * mcb < i1; ib++) {
			long ic = ib * mcb > i0 ? ib * mcb : i0;
			long mc = mp_ln_min(mp_ln_min((ib + 1) * mcb, x->M), i1) - ic;
			const uint16_t *ablk = ap;
			if (pka)
				ablk = (const uint16_t *)mp_lp_packed_blk(pka, ib) + (ic - ib * mcb) * kp;
			else
				mp_ln_pack(x, 0, ic, mc, kp, ap, MP_LN_MR);
			mp_ln_block(job->tile, ablk, bpan, kp, mc, nc, t, ncp);
			mp_lp_epilogue_generic(x, t, 0, ncp, ic, jc, (int)mc, (int)nc);
		}
	}
}

static void mp_ln_part(void *p, int t, int n)
{
	const mp_ln_job *job = p;
	long i0, i1, j0, j1;
	mp_lp_par_part(job->x, MP_LN_MR, MP_LN_NR, 4.0, 4.0, t, n, &i0, &i1, &j0, &j1);
	if (i0 < i1 && j0 < j1)
		mp_ln_range(job, i0, i1, j0, j1);
}

/* See lp.h. */
void mp_lp_bf16_run__neon(const mp_lp_ctx *x, int bfmlal)
{
	const long kp = (x->K + 1) & ~1L;
	long mcb = mp_ln_min(MP_LN_MC, (x->M + MP_LN_MR - 1) / MP_LN_MR * MP_LN_MR);
	long ncb = mp_ln_min(MP_LN_NC, (x->N + MP_LN_NR - 1) / MP_LN_NR * MP_LN_NR);
	mcb = (mcb + MP_LN_MR - 1) / MP_LN_MR * MP_LN_MR;
	ncb = (ncb + MP_LN_NR - 1) / MP_LN_NR * MP_LN_NR;
	mp_ln_job job = {x, NULL, NULL, bfmlal ? mp_ln_tile_bfmlal : mp_ln_tile_neon, kp, mcb, ncb};
	job.pka = mp_lp_fill_blocks(x, x->pk_a, 0, kp, mcb, MP_LN_MR, sizeof(uint16_t),
				    mp_ln_fill_blk_a);
	job.pkb = mp_lp_fill_blocks(x, x->pk_b, 1, kp, ncb, MP_LN_NR, sizeof(uint16_t),
				    mp_ln_fill_blk_b);
	mp_par_run(mp_lp_par_threads(x), mp_ln_part, &job);
}
