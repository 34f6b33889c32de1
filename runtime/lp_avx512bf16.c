/* lp_avx512bf16.c -- the BF16 / FP8 paths of mp_gemm_lp with vdpbf16ps:
 * mp_lp_bf16_ukernel_MRxNR__avx512bf16 (fp32 accumulators, bf16 pairs along
 * k), packers that convert (BF16: vcvtne2ps2bf16) or quantize to FP8 and
 * then convert (an FP8 value is exactly a bf16) while packing (after
 * subtracting the operand's offset, as lp.c does), and the
 * epilogue (FP8: times the two dequantization steps, then alpha, in
 * double).
 * Packed layouts (bf16 elements, kp = K rounded up to 2):
 *   A block: sliver s (rows s*MR ...) at s*kp*MR, inside it [k/2][MR][2];
 *   B panel: sliver s (cols s*NR ...) at s*kp*NR, inside it [k/2][NR][2].
 * Results equal the scalar reference of lp.c bit for bit (same conversions,
 * the instruction's operation sequence, same epilogue).
 * Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512bf16
 * -ffp-contract=off (the epilogue's products and sum must round like
 * lp.c's): call only after mp_lp_have_avx512bf16(). */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>
#include "lp.h"
#include "mp_runtime.h"
#include "mp_par.h"

#ifndef MP_BF_MR
#define MP_BF_MR 8
#endif
#ifndef MP_BF_NRV
#define MP_BF_NRV 2
#endif
#define MP_BF_NR (16 * MP_BF_NRV)
#ifndef MP_BF_MC
#define MP_BF_MC 96
#endif
#ifndef MP_BF_NC
#define MP_BF_NC 1024
#endif

/* ----------------------------------------------------- conversions */

/* FP8 rounding (satfinite, nearest even) of 16 floats, as
 * mp_fp8_round_f32. */
static inline __m512 mp_fp8_round_v(__m512 y, int e5m2)
{
	const mp_fp8_fmt f = mp_fp8_format(e5m2);
	const int drop = 23 - f.mbits;
	__m512 ay = _mm512_abs_ps(y);
	__m512i a = _mm512_castps_si512(ay);
	__m512i lsb = _mm512_and_si512(_mm512_srli_epi32(a, drop), _mm512_set1_epi32(1));
	a = _mm512_add_epi32(a, _mm512_add_epi32(lsb, _mm512_set1_epi32((1 << (drop - 1)) - 1)));
	a = _mm512_and_si512(a, _mm512_set1_epi32(~((1 << drop) - 1)));
	__m512 rn = _mm512_castsi512_ps(a);
	__m512 rs = _mm512_mul_ps(
		_mm512_roundscale_ps(_mm512_mul_ps(ay, _mm512_set1_ps(1.0f / f.spacing)),
				     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC),
		_mm512_set1_ps(f.spacing));
	__mmask16 sub = _mm512_cmp_ps_mask(ay, _mm512_set1_ps(f.min_normal), _CMP_LT_OQ);
	__m512 r = _mm512_mask_blend_ps(sub, rn, rs);
	r = _mm512_min_ps(r, _mm512_set1_ps(f.max));
	return _mm512_castsi512_ps(_mm512_or_si512(
		_mm512_castps_si512(r),
		_mm512_and_si512(_mm512_castps_si512(y), _mm512_set1_epi32((int)0x80000000u))));
}

/* 16 floats at p (lanes outside m: 0) minus the operand's offset o
 * (hz: the offset is not +0), as mp_lp_ldf: one float subtraction per
 * element; lanes outside m stay 0 (the padding beyond K and beyond the
 * last column must be zeros). */
static inline __m512 mp_lp_ld_v(__mmask16 m, const float *p, int hz, __m512 o)
{
	__m512 v = _mm512_maskz_loadu_ps(m, p);
	return hz ? _mm512_maskz_sub_ps(m, v, o) : v;
}

/* The values (before bf16 conversion) of 16 float elements with factor f,
 * multiplied (qmul: the operand's x->qmul_a / x->qmul_b) or divided. */
static inline __m512 mp_lp_prep_v(const mp_lp_ctx *x, int qmul, __m512 v, __m512 f)
{
	if (x->lp == MP_LP_BF16)
		return v;
	__m512 y = qmul ? _mm512_mul_ps(v, f) : _mm512_div_ps(v, f);
	return mp_fp8_round_v(y, x->lp == MP_LP_FP8_E5M2);
}

/* bf16 bits of one element (generic layouts, double sources); z: the
 * operand's offset. */
static inline uint16_t mp_lp_bf_one(const mp_lp_ctx *x, int qmul, const void *p, ptrdiff_t off,
				    double z, float ff, double fd)
{
	const int e5 = x->lp == MP_LP_FP8_E5M2;
	if (x->dbl) {
		double v = mp_lp_ldd(p, off, z);
		if (x->lp == MP_LP_BF16)
			return mp_bf16_from_f64(v);
		return (uint16_t)(mp_f32_bits((float)mp_fp8_round(qmul ? v * fd : v / fd, e5)) >> 16);
	}
	float v = mp_lp_ldf(p, off, z);
	if (x->lp == MP_LP_BF16)
		return mp_bf16_from_f32(v);
	return (uint16_t)(mp_f32_bits(mp_fp8_round_f32(qmul ? v * ff : v / ff, e5)) >> 16);
}

/* 32 consecutive elements (masked to n) minus the offset o (hz) to 16
 * bf16 pairs (dwords in k order). */
static inline __m512i mp_lp_cvt32(const mp_lp_ctx *x, int qmul, const float *p, long n,
				  int hz, __m512 o, __m512 f)
{
	__mmask16 m0 = n >= 16 ? 0xffff : n <= 0 ? 0 : (__mmask16)((1u << n) - 1);
	long n1 = n - 16;
	__mmask16 m1 = n1 >= 16 ? 0xffff : n1 <= 0 ? 0 : (__mmask16)((1u << n1) - 1);
	__m512 lo = mp_lp_prep_v(x, qmul, mp_lp_ld_v(m0, p, hz, o), f);
	__m512 hi = mp_lp_prep_v(x, qmul, mp_lp_ld_v(m1, p + 16, hz, o), f);
	return (__m512i)_mm512_cvtne2ps_pbh(hi, lo);
}

/* 16 lanes of elements k and k + 1 (at P + k*S and P + (k+1)*S floats;
 * lanes outside m and elements past K: 0, not read) as 16 bf16 pairs in k
 * order: the packed layout of a sliver read across its lanes (A contiguous
 * in i, B in j). */
static inline __m512i mp_lp_pair16(const mp_lp_ctx *x, int qmul, __mmask16 m, const float *p,
				   ptrdiff_t s, long k, long K, int hz, __m512 o, __m512 f)
{
	const __m512i idx = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10,
					     25, 9, 24, 8, 23, 7, 22, 6, 21, 5, 20, 4, 19, 3,
					     18, 2, 17, 1, 16, 0);
	__m512 r0 = k < K ? mp_lp_prep_v(x, qmul, mp_lp_ld_v(m, p + k * s, hz, o), f)
			  : _mm512_setzero_ps();
	__m512 r1 = k + 1 < K ? mp_lp_prep_v(x, qmul, mp_lp_ld_v(m, p + (k + 1) * s, hz, o), f)
			      : _mm512_setzero_ps();
	return _mm512_permutexvar_epi16(idx, (__m512i)_mm512_cvtne2ps_pbh(r1, r0));
}

/* ---------------------------------------------------------- packing */

static void mp_lp_bf_pack_a(const mp_lp_ctx *x, long i0, long mc, long kp, uint16_t *ap)
{
	const long K = x->K;
	const int hz = mp_f64_bits(x->oa) != 0;
	/* (a double source's offset need not fit a float: it is not used) */
	const __m512 ov = _mm512_set1_ps(x->dbl ? 0.0f : (float)x->oa);
	long nsl = (mc + MP_BF_MR - 1) / MP_BF_MR;
	if (!x->dbl && x->a_si == 1 && x->a_sk != 1) {
		/* rows contiguous in i (A stored by columns: `a[k*lda + i]`, a
		   matrix-vector product over a matrix's columns): the sliver's
		   MR rows at k and k + 1 are two vector loads, interleaved to
		   pairs as pack_b's rows are (element by element, each a load
		   down a column, this packer took 80% of such a call) */
		for (long s = 0; s < nsl; s++) {
			uint16_t *dst = ap + s * kp * MP_BF_MR;
			long rows = mc - s * MP_BF_MR;
			rows = rows > MP_BF_MR ? MP_BF_MR : rows;
			__mmask16 m = (__mmask16)((1u << rows) - 1);
			const float *col = (const float *)x->a + i0 + s * MP_BF_MR;
			__m512 f = x->fa_f ? _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m,
								  x->fa_f + i0 + s * MP_BF_MR)
					   : _mm512_set1_ps(1.0f);
			for (long k = 0; k < kp; k += 2)   /* MR pairs (rows past mc: 0) */
				_mm512_mask_storeu_epi32(dst + (k / 2) * 2 * MP_BF_MR,
							 (__mmask16)((1u << MP_BF_MR) - 1),
							 mp_lp_pair16(x, x->qmul_a, m, col, x->a_sk, k, K,
								      hz, ov, f));
		}
		return;
	}
	for (long s = 0; s < nsl; s++) {
		uint16_t *dst = ap + s * kp * MP_BF_MR;
		for (int r = 0; r < MP_BF_MR; r++) {
			long i = s * MP_BF_MR + r;
			uint16_t *d = dst + 2 * r;
			if (i >= mc) {
				for (long p = 0; p < kp / 2; p++)
					memset(d + p * 2 * MP_BF_MR, 0, 4);
				continue;
			}
			if (!x->dbl && x->a_sk == 1) {
				const float *row = (const float *)x->a + (i0 + i) * x->a_si;
				__m512 f = _mm512_set1_ps(x->fa_f ? x->fa_f[i0 + i] : 1.0f);
				for (long k = 0; k < kp; k += 32) {
					uint32_t w[16];
					_mm512_storeu_si512(w, mp_lp_cvt32(x, x->qmul_a, row + k, K - k, hz, ov, f));
					long np = (kp - k) / 2 < 16 ? (kp - k) / 2 : 16;
					for (long p = 0; p < np; p++)
						memcpy(d + (k / 2 + p) * 2 * MP_BF_MR, &w[p], 4);
				}
				continue;
			}
			size_t es = x->dbl ? sizeof(double) : sizeof(float);
			const char *row = (const char *)x->a + (i0 + i) * x->a_si * (ptrdiff_t)es;
			float ff = x->fa_f ? x->fa_f[i0 + i] : 0;
			double fd = x->fa_d ? x->fa_d[i0 + i] : 0;
			for (long k = 0; k < kp; k++)
				d[(k / 2) * 2 * MP_BF_MR + (k & 1)] =
					k < K ? mp_lp_bf_one(x, x->qmul_a, row, k * x->a_sk, x->oa, ff, fd) : 0;
		}
	}
}

static void mp_lp_bf_pack_b(const mp_lp_ctx *x, long j0, long nc, long kp, uint16_t *bp)
{
	const long K = x->K;
	const int hz = mp_f64_bits(x->ob) != 0;
	/* (a double source's offset need not fit a float: it is not used) */
	const __m512 ov = _mm512_set1_ps(x->dbl ? 0.0f : (float)x->ob);
	long nsl = (nc + MP_BF_NR - 1) / MP_BF_NR;
	if (!x->dbl && x->b_sj == 1) {
		/* rows k, k+1 of 16 columns -> 16 pairs */
		for (long s = 0; s < nsl; s++) {
			uint16_t *dst = bp + s * kp * MP_BF_NR;
			for (int v = 0; v < MP_BF_NRV; v++) {
				long jv = s * MP_BF_NR + 16 * v;
				long cols = nc - jv;
				cols = cols < 0 ? 0 : cols > 16 ? 16 : cols;
				__mmask16 m = (__mmask16)((1u << cols) - 1);
				__m512 f = x->fb_f ? _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, x->fb_f + j0 + jv)
						   : _mm512_set1_ps(1.0f);
				const float *col = (const float *)x->b + j0 + jv;
				for (long k = 0; k < kp; k += 2)
					_mm512_store_si512(dst + (k / 2) * 2 * MP_BF_NR + 32 * v,
							   mp_lp_pair16(x, x->qmul_b, m, col, x->b_sk, k, K,
									hz, ov, f));
			}
		}
		return;
	}
	for (long s = 0; s < nsl; s++) {
		uint16_t *dst = bp + s * kp * MP_BF_NR;
		for (int r = 0; r < MP_BF_NR; r++) {
			long j = s * MP_BF_NR + r;
			uint16_t *d = dst + 2 * r;
			if (j >= nc) {
				for (long p = 0; p < kp / 2; p++)
					memset(d + p * 2 * MP_BF_NR, 0, 4);
				continue;
			}
			if (!x->dbl && x->b_sk == 1) {
				const float *col = (const float *)x->b + (j0 + j) * x->b_sj;
				__m512 f = _mm512_set1_ps(x->fb_f ? x->fb_f[j0 + j] : 1.0f);
				for (long k = 0; k < kp; k += 32) {
					uint32_t w[16];
					_mm512_storeu_si512(w, mp_lp_cvt32(x, x->qmul_b, col + k, K - k, hz, ov, f));
					long np = (kp - k) / 2 < 16 ? (kp - k) / 2 : 16;
					for (long p = 0; p < np; p++)
						memcpy(d + (k / 2 + p) * 2 * MP_BF_NR, &w[p], 4);
				}
				continue;
			}
			size_t es = x->dbl ? sizeof(double) : sizeof(float);
			const char *col = (const char *)x->b + (j0 + j) * x->b_sj * (ptrdiff_t)es;
			float ff = x->fb_f ? x->fb_f[j0 + j] : 0;
			double fd = x->fb_d ? x->fb_d[j0 + j] : 0;
			for (long k = 0; k < kp; k++)
				d[(k / 2) * 2 * MP_BF_NR + (k & 1)] =
					k < K ? mp_lp_bf_one(x, x->qmul_b, col, k * x->b_sk, x->ob, ff, fd) : 0;
		}
	}
}

/* -------------------------------------------------------- epilogue */

/* Row r of a tile (n <= 16 lanes) at (i, j): out = acc * alpha (BF16) or
 * acc * da[i] * db[j] * alpha (FP8), + c; float output with c_sj == 1; in
 * double like mp_lp_epilogue_generic (same operations, same order). */
static inline void mp_lp_bf_out_row(const mp_lp_ctx *x, __m512 acc, long i, long j, int n)
{
	float *c = (float *)x->c + i * x->c_si + j;
	__mmask16 m = n >= 16 ? 0xffff : (__mmask16)((1u << n) - 1);
	if (!x->da && !x->accumulate && x->alpha == 1.0) { /* (double)acc * 1 is acc */
		_mm512_mask_storeu_ps(c, m, acc);
		return;
	}
	for (int h = 0; h < 2; h++) {
		__mmask8 mh = (__mmask8)(m >> (8 * h));
		if (!mh)
			break;
		__m512d v = _mm512_cvtps_pd(h ? _mm256_castsi256_ps(_mm512_extracti64x4_epi64(_mm512_castps_si512(acc), 1)) : _mm512_castps512_ps256(acc));
		if (x->da)
			v = _mm512_mul_pd(_mm512_mul_pd(v, _mm512_set1_pd(x->da[i])),
					  _mm512_maskz_loadu_pd(mh, x->db + j + 8 * h));
		v = _mm512_mul_pd(v, _mm512_set1_pd(x->alpha));
		if (x->accumulate)
			v = _mm512_add_pd(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(mh, c + 8 * h)), v);
		_mm256_mask_storeu_ps(c + 8 * h, mh, _mm512_cvtpd_ps(v));
	}
}

/* ------------------------------------------------------ micro-kernel */

static inline __attribute__((always_inline)) void
mp_lp_bf_tile(const mp_lp_ctx *x, long np, const uint16_t *a, const uint16_t *b, long i0,
	      long j0, int nc, const int mr, const int nv)
{
	__m512 acc[MP_BF_MR][MP_BF_NRV];
#pragma GCC unroll 16
	for (int r = 0; r < mr; r++)
#pragma GCC unroll 4
		for (int v = 0; v < nv; v++)
			acc[r][v] = _mm512_setzero_ps();
	for (long p = 0; p < np; p++) {
		__m512bh bv[MP_BF_NRV];
#pragma GCC unroll 4
		for (int v = 0; v < nv; v++)
			bv[v] = (__m512bh)_mm512_load_si512(b + 32 * v);
#pragma GCC unroll 16
		for (int r = 0; r < mr; r++) {
			int32_t w;
			memcpy(&w, a + 2 * r, 4);
			__m512bh av = (__m512bh)_mm512_set1_epi32(w);
#pragma GCC unroll 4
			for (int v = 0; v < nv; v++)
				acc[r][v] = _mm512_dpbf16_ps(acc[r][v], av, bv[v]);
		}
		a += 2 * MP_BF_MR;
		b += 2 * MP_BF_NR;
	}
	if (!x->dbl && x->c_sj == 1) {
#pragma GCC unroll 16
		for (int r = 0; r < mr; r++)
#pragma GCC unroll 4
			for (int v = 0; v < nv; v++)
				mp_lp_bf_out_row(x, acc[r][v], i0 + r, j0 + 16 * v, nc - 16 * v);
	} else {
		float t[MP_BF_MR * MP_BF_NR] __attribute__((aligned(64)));
#pragma GCC unroll 16
		for (int r = 0; r < mr; r++)
#pragma GCC unroll 4
			for (int v = 0; v < nv; v++)
				_mm512_store_ps(t + r * MP_BF_NR + 16 * v, acc[r][v]);
		mp_lp_epilogue_generic(x, t, 0, MP_BF_NR, i0, j0, mr, nc);
	}
}

#define MP_BF_TILE_NV(MR)                                                              \
	do {                                                                           \
		if (nv >= MP_BF_NRV)                                                   \
			mp_lp_bf_tile(x, np, a, b, i0, j0, nc, MR, MP_BF_NRV);         \
		else if (MP_BF_NRV > 2 && nv == 2)                                     \
			mp_lp_bf_tile(x, np, a, b, i0, j0, nc, MR, MP_BF_NRV > 2 ? 2 : 1); \
		else if (MP_BF_NRV > 3 && nv == 3)                                     \
			mp_lp_bf_tile(x, np, a, b, i0, j0, nc, MR, MP_BF_NRV > 3 ? 3 : 1); \
		else                                                                   \
			mp_lp_bf_tile(x, np, a, b, i0, j0, nc, MR, 1);                 \
	} while (0)

static void mp_lp_bf_ukernel(const mp_lp_ctx *x, long np, const uint16_t *a, const uint16_t *b,
			     long i0, long j0, int mr, int nc)
{
	int nv = (nc + 15) / 16;
	switch (mr) {
	case MP_BF_MR: MP_BF_TILE_NV(MP_BF_MR); break;
#if MP_BF_MR > 7
	case 7: MP_BF_TILE_NV(7); break;
#endif
#if MP_BF_MR > 6
	case 6: MP_BF_TILE_NV(6); break;
#endif
#if MP_BF_MR > 5
	case 5: MP_BF_TILE_NV(5); break;
#endif
	case 4: MP_BF_TILE_NV(4); break;
	case 3: MP_BF_TILE_NV(3); break;
	case 2: MP_BF_TILE_NV(2); break;
	default: MP_BF_TILE_NV(1); break;
	}
}

/* ----------------------------------------------------------- driver */

static long mp_bf_min(long p, long q)
{
	return p < q ? p : q;
}

/* The packers as mp_lp_block_pack_fn (constant operands, lp.c). */
static void mp_lp_bf_fill_blk_a(const mp_lp_ctx *x, long n0, long w, long kp, void *dst)
{
	mp_lp_bf_pack_a(x, n0, w, kp, (uint16_t *)dst);
}

static void mp_lp_bf_fill_blk_b(const mp_lp_ctx *x, long n0, long w, long kp, void *dst)
{
	mp_lp_bf_pack_b(x, n0, w, kp, (uint16_t *)dst);
}

/* The part [i0, i1) x [j0, j1) of the call (bounds multiples of MP_BF_MR /
 * MP_BF_NR, or M / N): for each NC panel of B meeting it (packed), each
 * MC block of A (packed), each NR sliver, each MR sliver: one tile over
 * all of K.  A constant operand runs from its cached blocks (the same
 * packers made them), from the part's first sliver in the block. */
typedef struct mp_lp_bf_job {
	const mp_lp_ctx *x;
	const mp_lp_packed *pka, *pkb;
	long kp, mcb, ncb;
} mp_lp_bf_job;

static void mp_lp_bf_range(const mp_lp_bf_job *job, long i0, long i1, long j0, long j1)
{
	const mp_lp_ctx *x = job->x;
	const mp_lp_packed *pka = job->pka, *pkb = job->pkb;
	const long kp = job->kp, mcb = job->mcb, ncb = job->ncb;
	const long nib = (x->M + mcb - 1) / mcb, njb = (x->N + ncb - 1) / ncb;
	const long mcp = mp_bf_min(mcb, (i1 - i0 + MP_BF_MR - 1) / MP_BF_MR * MP_BF_MR);
	const long ncp = mp_bf_min(ncb, (j1 - j0 + MP_BF_NR - 1) / MP_BF_NR * MP_BF_NR);
	uint16_t *ap = pka ? NULL : mp_scratch(MP_SCR_A, (size_t)(mcp * kp * 2 + 64));
	uint16_t *bp = pkb ? NULL : mp_scratch(MP_SCR_B, (size_t)(ncp * kp * 2 + 64));
	for (long jb = j0 / ncb; jb < njb && jb * ncb < j1; jb++) {
		long jc = jb * ncb > j0 ? jb * ncb : j0;
		long nc = mp_bf_min(mp_bf_min((jb + 1) * ncb, x->N), j1) - jc;
		const uint16_t *bpan = bp;
		if (pkb)
			bpan = (const uint16_t *)mp_lp_packed_blk(pkb, jb) + (jc - jb * ncb) * kp;
		else
			mp_lp_bf_pack_b(x, jc, nc, kp, bp);
		for (long ib = i0 / mcb; ib < nib && ib * mcb < i1; ib++) {
			long ic = ib * mcb > i0 ? ib * mcb : i0;
			long mc = mp_bf_min(mp_bf_min((ib + 1) * mcb, x->M), i1) - ic;
			const uint16_t *ablk = ap;
			if (pka)
				ablk = (const uint16_t *)mp_lp_packed_blk(pka, ib) + (ic - ib * mcb) * kp;
			else
				mp_lp_bf_pack_a(x, ic, mc, kp, ap);
			for (long jr = 0; jr < nc; jr += MP_BF_NR) {
				int ncols = (int)mp_bf_min(MP_BF_NR, nc - jr);
				for (long ir = 0; ir < mc; ir += MP_BF_MR)
					mp_lp_bf_ukernel(x, kp / 2, ablk + ir * kp, bpan + jr * kp, ic + ir,
							 jc + jr, (int)mp_bf_min(MP_BF_MR, mc - ir), ncols);
			}
		}
	}
}

static void mp_lp_bf_part(void *p, int t, int n)
{
	const mp_lp_bf_job *job = p;
	long i0, i1, j0, j1;
	mp_lp_par_part(job->x, MP_BF_MR, MP_BF_NR, 4.0, 4.0, t, n, &i0, &i1, &j0, &j1);
	if (i0 < i1 && j0 < j1)
		mp_lp_bf_range(job, i0, i1, j0, j1);
}

/* See lp.h.  Constant operands missing from the cache are packed whole
 * first (calling thread), then the output is split over the team. */
void mp_lp_bf16_run__avx512bf16(const mp_lp_ctx *x)
{
	const long kp = (x->K + 1) & ~1L;
	long mcb = mp_bf_min(MP_BF_MC, (x->M + MP_BF_MR - 1) / MP_BF_MR * MP_BF_MR);
	long ncb = mp_bf_min(MP_BF_NC, (x->N + MP_BF_NR - 1) / MP_BF_NR * MP_BF_NR);
	mcb = (mcb + MP_BF_MR - 1) / MP_BF_MR * MP_BF_MR;
	ncb = (ncb + MP_BF_NR - 1) / MP_BF_NR * MP_BF_NR;
	mp_lp_bf_job job = {x, NULL, NULL, kp, mcb, ncb};
	job.pka = mp_lp_fill_blocks(x, x->pk_a, 0, kp, mcb, MP_BF_MR, sizeof(uint16_t),
				    mp_lp_bf_fill_blk_a);
	job.pkb = mp_lp_fill_blocks(x, x->pk_b, 1, kp, ncb, MP_BF_NR, sizeof(uint16_t),
				    mp_lp_bf_fill_blk_b);
	mp_par_run(mp_lp_par_threads(x), mp_lp_bf_part, &job);
}
