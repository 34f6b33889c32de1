/* gemm_avx512vnni.c -- AVX512-VNNI kernel family of mp_gemm_x8:
 * mp_x8_gemm_ukernel_MRxNRc4__avx512vnni (vpdpbusd, u8 A x s8 B in K-groups
 * of 4), its packing routines (fast paths for unit-stride rows of A and for
 * row-major or column-major B) and its epilogue (start from the corrections,
 * masked stores for c_sj == 1, a scatter otherwise).
 * Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512vnni: call only
 * after mp_kernel_available(MP_KERNEL_AVX512VNNI). */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>
#include "mp_gemm.h"
#include "mp_runtime.h"
#include "mp_avx512.h"

#ifndef MP_MR
#define MP_MR 8 /* rows of the register tile */
#endif
#ifndef MP_NRV
#define MP_NRV 2 /* zmm vectors (16 columns each) of the register tile */
#endif
#define MP_NR (16 * MP_NRV)
#define MP_KG 4
#ifndef MP_MC
#define MP_MC 96
#endif
#ifndef MP_NC
#define MP_NC 1024
#endif

/* ------------------------------------------------ the fused epilogue */

/* Whether the vector epilogue applies: unit output stride along j and a
 * bias that is absent, per-row (bias_sj == 0) or unit-stride along j. */
static inline int mp_epi_vec_ok(const mp_epilogue *ep)
{
	return ep->out_sj == 1 && (!ep->bias || ep->bias_sj == 0 || ep->bias_sj == 1);
}

/* mp_clamp_i32 on 16 lanes: x < lo ? lo : x > hi ? hi : x (also when
 * lo > hi). */
static inline __m512i mp_clamp_v(__m512i x, __m512i lo, __m512i hi)
{
	__mmask16 lt = _mm512_cmplt_epi32_mask(x, lo), gt = _mm512_cmpgt_epi32_mask(x, hi);
	x = _mm512_mask_mov_epi32(x, gt, hi);
	return _mm512_mask_mov_epi32(x, lt, lo);
}

/* The int64 products x[l] * m of the even lanes and of the odd lanes. */
static inline void mp_mul64_v(__m512i x, __m512i m, __m512i *even, __m512i *odd)
{
	*even = _mm512_mul_epi32(x, m);
	*odd = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), m);
}

/* Low 32 bits of the int64 lanes of even / odd back into 16 int32 lanes. */
static inline __m512i mp_join64_v(__m512i even, __m512i odd)
{
	return _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
}

/* out(i, j + l) = EPI(init + bias(i, j + l) + x[l]) for the lanes l of m
 * (mp_epi_vec_ok(ep)); bit-exact with the header's helpers. */
static inline __attribute__((always_inline)) void
mp_epi_vec(const mp_epilogue *ep, __m512i x, long i, long j, __mmask16 m)
{
	x = _mm512_add_epi32(x, _mm512_set1_epi32(ep->init));
	if (ep->bias) {
		const int32_t *bp = ep->bias + i * ep->bias_si + j * ep->bias_sj;
		x = _mm512_add_epi32(x, ep->bias_sj ? _mm512_maskz_loadu_epi32(m, bp)
						    : _mm512_set1_epi32(*bp));
	}
	const __m512i lo = _mm512_set1_epi32(ep->qmin), hi = _mm512_set1_epi32(ep->qmax);
	const __m512i zp = _mm512_set1_epi32(ep->zp);
	switch (ep->kind) {
	case MP_EPI_STORE:
		break;
	case MP_EPI_CLAMP:
		x = mp_clamp_v(x, lo, hi);
		break;
	case MP_EPI_FP32: {
		/* (float)acc * scale; clamp as the helper's ternaries; round by
		 * MXCSR (nearbyintf) and convert; + zp */
		__m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(x), _mm512_set1_ps(ep->scale));
		__m512 flo = _mm512_cvtepi32_ps(_mm512_sub_epi32(lo, zp));
		__m512 fhi = _mm512_cvtepi32_ps(_mm512_sub_epi32(hi, zp));
		__mmask16 lt = _mm512_cmp_ps_mask(v, flo, _CMP_LT_OQ);
		__mmask16 gt = _mm512_cmp_ps_mask(v, fhi, _CMP_GT_OQ);
		v = _mm512_mask_mov_ps(v, gt, fhi);
		v = _mm512_mask_mov_ps(v, lt, flo);
		x = _mm512_add_epi32(_mm512_cvtps_epi32(v), zp);
		break;
	}
	case MP_EPI_GEMMLOWP: {
		int left = ep->shift > 0 ? ep->shift : 0, right = ep->shift > 0 ? 0 : -ep->shift;
		x = _mm512_sll_epi32(x, _mm_cvtsi32_si128(left));
		/* SaturatingRoundingDoublingHighMul(x, qm) */
		const __m512i qm = _mm512_set1_epi32(ep->qm);
		__m512i pe, po;
		mp_mul64_v(x, qm, &pe, &po);
		const __m512i npos = _mm512_set1_epi64((int64_t)1 << 30);
		const __m512i nneg = _mm512_set1_epi64(1 - ((int64_t)1 << 30));
		const __m512i zero = _mm512_setzero_si512();
		const __m512i tmask = _mm512_set1_epi64(((int64_t)1 << 31) - 1);
		pe = _mm512_add_epi64(pe, _mm512_mask_blend_epi64(_mm512_cmplt_epi64_mask(pe, zero), npos, nneg));
		po = _mm512_add_epi64(po, _mm512_mask_blend_epi64(_mm512_cmplt_epi64_mask(po, zero), npos, nneg));
		/* C division by 2^31 (toward zero) */
		pe = _mm512_srai_epi64(_mm512_add_epi64(pe, _mm512_and_si512(_mm512_srai_epi64(pe, 63), tmask)), 31);
		po = _mm512_srai_epi64(_mm512_add_epi64(po, _mm512_and_si512(_mm512_srai_epi64(po, 63), tmask)), 31);
		__m512i h = mp_join64_v(pe, po);
		if (ep->qm == INT32_MIN)
			h = _mm512_mask_mov_epi32(h, _mm512_cmpeq_epi32_mask(x, qm),
						  _mm512_set1_epi32(INT32_MAX));
		/* RoundingDivideByPOT(h, right) */
		int32_t mk = (int32_t)(((int64_t)1 << right) - 1);
		const __m512i one = _mm512_set1_epi32(1);
		__m512i rem = _mm512_and_si512(h, _mm512_set1_epi32(mk));
		__m512i thr = _mm512_set1_epi32(mk >> 1);
		thr = _mm512_mask_add_epi32(thr, _mm512_cmplt_epi32_mask(h, _mm512_setzero_si512()), thr, one);
		__m512i y = _mm512_sra_epi32(h, _mm_cvtsi32_si128(right));
		y = _mm512_mask_add_epi32(y, _mm512_cmpgt_epi32_mask(rem, thr), y, one);
		x = mp_clamp_v(_mm512_add_epi32(y, zp), lo, hi);
		break;
	}
	case MP_EPI_RNDNU: {
		const __m512i qm = _mm512_set1_epi32(ep->qm);
		const __m512i rnd = _mm512_set1_epi64((int64_t)((uint64_t)1 << (30 - ep->shift)));
		const __m128i sh = _mm_cvtsi32_si128(31 - ep->shift);
		__m512i pe, po;
		mp_mul64_v(x, qm, &pe, &po);
		pe = _mm512_sra_epi64(_mm512_add_epi64(pe, rnd), sh);
		po = _mm512_sra_epi64(_mm512_add_epi64(po, rnd), sh);
		x = mp_clamp_v(_mm512_add_epi32(mp_join64_v(pe, po), zp), lo, hi);
		break;
	}
	}
	if (ep->out_dt == MP_DT_S32)
		_mm512_mask_storeu_epi32((int32_t *)ep->out + i * ep->out_si + j, m, x);
	else
		_mm512_mask_cvtepi32_storeu_epi8((int8_t *)ep->out + i * ep->out_si + j, m, x);
}

/* Stores (or adds) lanes [0, min(n, 16)) (n >= 1) of S at (i, j..): through
 * the vector epilogue or straight into c when vec_ok (mp_epi_vec_ok, or
 * c_sj == 1 without epilogue), else per element. */
static inline __attribute__((always_inline)) void
mp_out_vec(const mp_gemm_args *g, __m512i x, long i, long j, int n, int vec_ok)
{
	n = n > 16 ? 16 : n;
	__mmask16 m = n >= 16 ? 0xffff : (__mmask16)((1u << n) - 1);
	if (vec_ok && g->ep) {
		mp_epi_vec(g->ep, x, i, j, m);
	} else if (vec_ok) {
		int32_t *c = g->c + i * g->c_si + j;
		if (g->accumulate)
			x = _mm512_add_epi32(x, _mm512_maskz_loadu_epi32(m, c));
		_mm512_mask_storeu_epi32(c, m, x);
	} else {
		int32_t t[16] __attribute__((aligned(64)));
		_mm512_store_si512(t, x);
		mp_store_tile(g, t, 16, i, j, 1, n);
	}
}

/* vec_ok of mp_out_vec for g. */
static inline int mp_out_vec_ok(const mp_gemm_args *g)
{
	return g->ep ? mp_epi_vec_ok(g->ep) : g->c_sj == 1;
}

/* Transposes 8 rows of 8 dwords: r[a] dword c -> r[c] dword a. */
static inline __attribute__((always_inline)) void mp_transpose8x8_epi32(__m256i r[8])
{
	__m256i t[8], u[8];
	for (int i = 0; i < 4; i++) {
		t[2 * i] = _mm256_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
		t[2 * i + 1] = _mm256_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
	}
	for (int h = 0; h < 2; h++) {
		u[4 * h + 0] = _mm256_unpacklo_epi64(t[4 * h], t[4 * h + 2]);
		u[4 * h + 1] = _mm256_unpackhi_epi64(t[4 * h], t[4 * h + 2]);
		u[4 * h + 2] = _mm256_unpacklo_epi64(t[4 * h + 1], t[4 * h + 3]);
		u[4 * h + 3] = _mm256_unpackhi_epi64(t[4 * h + 1], t[4 * h + 3]);
	}
	for (int c = 0; c < 4; c++) {
		r[c] = _mm256_permute2x128_si256(u[c], u[4 + c], 0x20);
		r[4 + c] = _mm256_permute2x128_si256(u[c], u[4 + c], 0x31);
	}
}

/* Packs A block rows [i0, i0+mc) (see mp_pack_a_fn).  Fast path for
 * a_sk == 1: 32 bytes of k from each of the sliver's 8 rows at a time, an
 * 8x8 dword transpose gives 8 k-groups of the c4 layout; row sums with
 * vpsadbw.  Other strides go through the generic packer. */
static void mp_x8_pack_a_c4__avx512vnni(const mp_gemm_args *g, long i0, long mc, long kp,
					void *ap, int32_t *rcorr)
{
	if (g->a_sk != 1) {
		mp_pack_a_generic(g, i0, mc, kp, ap, rcorr, MP_MR, MP_KG, 1);
		return;
	}
	const __m256i fl = _mm256_set1_epi8((char)mp_flip_a(g->a_dt)), zero = _mm256_setzero_si256();
	const uint32_t q = mp_corr_q(g), kpq = (uint32_t)g->K * mp_corr_p(g) * q;
	const long K = g->K, ng = kp / 4;
	long nsl = (mc + MP_MR - 1) / MP_MR;
	for (long s = 0; s < nsl; s++) {
		uint8_t *dst = (uint8_t *)ap + s * kp * MP_MR;
		const uint8_t *row[MP_MR];
		int live[MP_MR];
		__m256i sum[MP_MR];
		for (int r = 0; r < MP_MR; r++) {
			long i = s * MP_MR + r;
			live[r] = i < mc;
			row[r] = live[r] ? (const uint8_t *)g->a + (i0 + i) * g->a_si : NULL;
			sum[r] = zero;
		}
		/* long rows: the next sliver's, a sliver ahead (A comes from
		   L3 or memory: at 1024^3 the loads here waited on each line,
		   9% of the time; a small problem's operands were asked for
		   by the driver) */
		const long ahead = s + 1 < nsl && K >= 256 ? MP_MR * g->a_si : 0;
		for (long k0 = 0; k0 < kp; k0 += 32) {
			long rem = K - k0;
			__mmask32 m = rem >= 32 ? ~(__mmask32)0 : rem > 0 ? (((__mmask32)1 << rem) - 1) : 0;
			__m256i x[MP_MR];
			if (ahead && !(k0 & 63) && k0 < K)
				for (int r = 0; r < MP_MR; r++)
					if (s * MP_MR + MP_MR + r < mc)
						_mm_prefetch((const char *)row[r] + ahead + k0, _MM_HINT_T0);
			for (int r = 0; r < MP_MR; r++) {
				x[r] = live[r] ? _mm256_maskz_mov_epi8(m, _mm256_xor_si256(
					_mm256_maskz_loadu_epi8(m, row[r] + k0), fl)) : zero;
				sum[r] = _mm256_add_epi64(sum[r], _mm256_sad_epu8(x[r], zero));
			}
			mp_transpose8x8_epi32(x);
			__m256i *d = (__m256i *)(dst + k0 * MP_MR);
			if (ng - k0 / 4 >= 8) {
				_mm256_store_si256(d + 0, x[0]);
				_mm256_store_si256(d + 1, x[1]);
				_mm256_store_si256(d + 2, x[2]);
				_mm256_store_si256(d + 3, x[3]);
				_mm256_store_si256(d + 4, x[4]);
				_mm256_store_si256(d + 5, x[5]);
				_mm256_store_si256(d + 6, x[6]);
				_mm256_store_si256(d + 7, x[7]);
			} else {
				for (long qq = 0; qq < ng - k0 / 4; qq++)
					_mm256_store_si256(d + qq, x[qq]);
			}
		}
		for (int r = 0; r < MP_MR; r++) {
			if (!live[r])
				continue;
			__m128i h = _mm_add_epi64(_mm256_castsi256_si128(sum[r]),
						  _mm256_extracti128_si256(sum[r], 1));
			uint32_t t = (uint32_t)(_mm_cvtsi128_si64(h) +
						_mm_extract_epi64(h, 1));
			rcorr[s * MP_MR + r] = (int32_t)(kpq - q * t);
		}
	}
}

/* Transposes 16 rows of 16 dwords: r[a] dword c -> r[c] dword a. */
static inline void mp_transpose16x16_epi32(__m512i r[16])
{
	__m512i t[16], u[16];
	for (int i = 0; i < 8; i++) {
		t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
		t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
	}
	for (int i = 0; i < 4; i++) {
		u[4 * i + 0] = _mm512_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
		u[4 * i + 1] = _mm512_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
		u[4 * i + 2] = _mm512_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
		u[4 * i + 3] = _mm512_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
	}
	/* u[4i+c] lane L: dword 4L+c of rows 4i..4i+3: transpose the lanes */
	for (int c = 0; c < 4; c++) {
		__m512i y[4] = {u[c], u[4 + c], u[8 + c], u[12 + c]};
		__m512i t0 = _mm512_shuffle_i32x4(y[0], y[1], 0x44);
		__m512i t1 = _mm512_shuffle_i32x4(y[2], y[3], 0x44);
		__m512i t2 = _mm512_shuffle_i32x4(y[0], y[1], 0xEE);
		__m512i t3 = _mm512_shuffle_i32x4(y[2], y[3], 0xEE);
		r[c] = _mm512_shuffle_i32x4(t0, t1, 0x88);
		r[4 + c] = _mm512_shuffle_i32x4(t0, t1, 0xDD);
		r[8 + c] = _mm512_shuffle_i32x4(t2, t3, 0x88);
		r[12 + c] = _mm512_shuffle_i32x4(t2, t3, 0xDD);
	}
}

/* Transposes the 128-bit lanes of x[0..3] (x[v] lane L -> x[L] lane v). */
static inline void mp_lane_transpose4(__m512i x[4])
{
	__m512i t0 = _mm512_shuffle_i32x4(x[0], x[1], 0x44);
	__m512i t1 = _mm512_shuffle_i32x4(x[2], x[3], 0x44);
	__m512i t2 = _mm512_shuffle_i32x4(x[0], x[1], 0xEE);
	__m512i t3 = _mm512_shuffle_i32x4(x[2], x[3], 0xEE);
	x[0] = _mm512_shuffle_i32x4(t0, t1, 0x88);
	x[1] = _mm512_shuffle_i32x4(t0, t1, 0xDD);
	x[2] = _mm512_shuffle_i32x4(t2, t3, 0x88);
	x[3] = _mm512_shuffle_i32x4(t2, t3, 0xDD);
}

/* Four rows x[0..3] of 64 bytes interleaved in each 128-bit lane: x[w]
 * lane L then holds columns 16L+4w .. 16L+4w+3, each as its 4 bytes of the
 * four rows (the c4 layout, lanes in the wrong order: mp_lane_transpose4
 * repairs them). */
static inline __attribute__((always_inline)) void mp_interleave4_c4(__m512i x[4])
{
	__m512i t0 = _mm512_unpacklo_epi8(x[0], x[1]);
	__m512i t1 = _mm512_unpackhi_epi8(x[0], x[1]);
	__m512i t2 = _mm512_unpacklo_epi8(x[2], x[3]);
	__m512i t3 = _mm512_unpackhi_epi8(x[2], x[3]);
	x[0] = _mm512_unpacklo_epi16(t0, t2);
	x[1] = _mm512_unpackhi_epi16(t0, t2);
	x[2] = _mm512_unpacklo_epi16(t1, t3);
	x[3] = _mm512_unpackhi_epi16(t1, t3);
}

/* Rows 4Q .. 4Q+3 of row-major B (64 columns from COL, mask M; rows at or
 * past K zero), flipped by FL, in c4 order (mp_interleave4_c4). */
static inline __attribute__((always_inline)) void
mp_b_rows4_c4(const uint8_t *col, long q, long K, ptrdiff_t b_sk, __mmask64 m, __m512i fl,
	      __m512i x[4])
{
#pragma GCC unroll 4
	for (int u = 0; u < 4; u++) {
		long k = 4 * q + u;
		x[u] = k < K ? _mm512_maskz_mov_epi8(m, _mm512_xor_si512(
				_mm512_maskz_loadu_epi8(m, col + k * b_sk), fl))
			     : _mm512_setzero_si512();
	}
	mp_interleave4_c4(x);
}

/* Packs B panel columns [j0, j0+nc) (see mp_pack_b_fn).  Fast paths for
 * b_sj == 1 (rows of B contiguous: 4x16 byte interleave, column sums with
 * vpdpbusd against ones) and b_sk == 1 (4-byte words); else generic. */
static void mp_x8_pack_b_c4__avx512vnni(const mp_gemm_args *g, long j0, long nc, long kp,
					void *bp, int32_t *ccorr)
{
	const uint8_t *b = (const uint8_t *)g->b;
	const uint8_t flip = (uint8_t)mp_flip_b(g->b_dt);
	const uint32_t p = mp_corr_p(g);
	const long K = g->K;
	long nsl = (nc + MP_NR - 1) / MP_NR;
	if (g->b_sj == 1 && nc < 64) {   /* one vector of 16 columns at a time */
		const __m128i fl = _mm_set1_epi8((char)flip);
		const __m512i ones = _mm512_set1_epi8(1);
		for (long s = 0; s < nsl; s++) {
			int8_t *dst = (int8_t *)bp + s * kp * MP_NR;
			for (int v = 0; v < MP_NRV; v++) {
				long jv = s * MP_NR + 16 * v;
				long cols = nc - jv;
				cols = cols < 0 ? 0 : cols > 16 ? 16 : cols;
				__mmask16 m = (__mmask16)((1u << cols) - 1);
				const uint8_t *col = b + (j0 + jv) * g->b_sj;
				__m512i sum = _mm512_setzero_si512();
				for (long qq = 0; qq < kp / 4; qq++) {
					__m128i r[4];
					for (int u = 0; u < 4; u++) {
						long k = qq * 4 + u;
						r[u] = k < K ? _mm_maskz_mov_epi8(m, _mm_xor_si128(
							_mm_maskz_loadu_epi8(m, col + k * g->b_sk), fl))
							     : _mm_setzero_si128();
					}
					__m512i z = mp_interleave4x16(r[0], r[1], r[2], r[3]);
					_mm512_store_si512(dst + qq * MP_NR * 4 + 64 * v, z);
					sum = _mm512_dpbusd_epi32(sum, ones, z);
				}
				__m512i cc = _mm512_mullo_epi32(sum, _mm512_set1_epi32((int)p));
				_mm512_storeu_si512(ccorr + s * MP_NR + 16 * v, cc);
			}
		}
		return;
	}
	if (g->b_sj == 1) {
		/* 64 columns (a cache line of each row) at a time: 4 rows of
		   64 bytes give the 4 vectors of 16 columns of one k-group
		   (in-lane unpacks, then a transpose of the 128-bit lanes).
		   Reading 16 columns per pass over K instead read each line 4
		   times, from rows N bytes apart, which share a few L1 sets:
		   at N = 1024 the packer waited on L2 for every load.  (Below
		   64 columns the path above: these zmm shuffles cost more than
		   its xmm ones, 32x32x32 took 10% longer) */
		const __m512i fl = _mm512_set1_epi8((char)flip), ones = _mm512_set1_epi8(1);
		const long nvec = nsl * MP_NRV;   /* vectors of the panel, padding included */
		for (long gv0 = 0; gv0 < nvec; gv0 += 4) {
			long cols = nc - gv0 * 16;
			cols = cols < 0 ? 0 : cols > 64 ? 64 : cols;
			__mmask64 m = cols >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << cols) - 1);
			const uint8_t *col = b + (j0 + gv0 * 16) * g->b_sj;
			int nv = nvec - gv0 < 4 ? (int)(nvec - gv0) : 4;
			__m512i sum[4];
			int8_t *dst[4];
			for (int v = 0; v < 4; v++) {
				long gv = gv0 + v;
				sum[v] = _mm512_setzero_si512();
				dst[v] = (int8_t *)bp + (gv / MP_NRV) * kp * MP_NR + 64 * (gv % MP_NRV);
			}
			for (long qq = 0; qq < kp / 4; qq++) {
				__m512i x[4];
				mp_b_rows4_c4(col, qq, K, g->b_sk, m, fl, x);
				mp_lane_transpose4(x);   /* x[L]: columns 16L .. 16L+15 */
				for (int v = 0; v < nv; v++) {
					_mm512_store_si512(dst[v] + qq * MP_NR * 4, x[v]);
					sum[v] = _mm512_dpbusd_epi32(sum[v], ones, x[v]);
				}
			}
			for (int v = 0; v < nv; v++) {
				long gv = gv0 + v;
				_mm512_storeu_si512(ccorr + (gv / MP_NRV) * MP_NR + 16 * (gv % MP_NRV),
						    _mm512_mullo_epi32(sum[v], _mm512_set1_epi32((int)p)));
			}
		}
		return;
	}
	if (g->b_sk != 1) {
		mp_pack_b_generic(g, j0, nc, kp, bp, ccorr, MP_NR, MP_KG, 1);
		return;
	}
	/* b_sk == 1: 16 columns x 64 bytes of k at a time, a 16x16 dword
	 * transpose gives 16 k-groups of the c4 layout; column sums from
	 * vpdpbusd against ones on the transposed words */
	const __m512i fl = _mm512_set1_epi8((char)flip), ones = _mm512_set1_epi8(1);
	for (long s = 0; s < nsl; s++) {
		int8_t *dst = (int8_t *)bp + s * kp * MP_NR;
		for (int v = 0; v < MP_NRV; v++) {
			long jv = s * MP_NR + 16 * v;
			long cols = nc - jv;
			cols = cols < 0 ? 0 : cols > 16 ? 16 : cols;
			const uint8_t *col = b + (j0 + jv) * g->b_sj;
			__m512i sum = _mm512_setzero_si512();
			for (long k0 = 0; k0 < kp; k0 += 64) {
				long rem = K - k0;
				__mmask64 m = rem >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << rem) - 1);
				__m512i r[16];
				for (int c = 0; c < 16; c++)
					r[c] = c < cols ? _mm512_maskz_mov_epi8(m, _mm512_xor_si512(
						_mm512_maskz_loadu_epi8(m, col + c * g->b_sj + k0), fl))
							: _mm512_setzero_si512();
				mp_transpose16x16_epi32(r);
				long ng = (kp - k0) / 4 < 16 ? (kp - k0) / 4 : 16;
				for (long qq = 0; qq < ng; qq++) {
					_mm512_store_si512(dst + (k0 / 4 + qq) * MP_NR * 4 + 64 * v, r[qq]);
					sum = _mm512_dpbusd_epi32(sum, ones, r[qq]);
				}
			}
			_mm512_storeu_si512(ccorr + s * MP_NR + 16 * v,
					    _mm512_mullo_epi32(sum, _mm512_set1_epi32((int)p)));
		}
	}
}

/* The register tile for mr rows and nv vectors (compile-time constants
 * after inlining): accumulators start at rcorr[r] - ccorr[j]; then
 * vpdpbusd over kgroups groups; then store/add into c. */
static inline __attribute__((always_inline)) void
mp_x8_tile_c4__avx512vnni(const mp_gemm_args *g, long kgroups, const uint8_t *a,
			  const int8_t *b, const int32_t *rcorr, const int32_t *ccorr,
			  long i0, long j0, int nc, const int mr, const int nv)
{
	__m512i acc[MP_MR][MP_NRV];
	__m512i cc[MP_NRV];
#pragma GCC unroll 4
	for (int v = 0; v < nv; v++)
		cc[v] = _mm512_loadu_si512(ccorr + 16 * v);
#pragma GCC unroll 16
	for (int r = 0; r < mr; r++) {
		__m512i rv = _mm512_set1_epi32(rcorr[r]);
#pragma GCC unroll 4
		for (int v = 0; v < nv; v++)
			acc[r][v] = _mm512_sub_epi32(rv, cc[v]);
	}
	for (long q = 0; q < kgroups; q++) {
		__m512i bv[MP_NRV];
#pragma GCC unroll 4
		for (int v = 0; v < nv; v++)
			bv[v] = _mm512_load_si512(b + 64 * v);
#pragma GCC unroll 16
		for (int r = 0; r < mr; r++) {
			int32_t w;
			memcpy(&w, a + 4 * r, 4);
			__m512i av = _mm512_set1_epi32(w);
#pragma GCC unroll 4
			for (int v = 0; v < nv; v++)
				acc[r][v] = _mm512_dpbusd_epi32(acc[r][v], av, bv[v]);
		}
		a += MP_MR * 4;
		b += MP_NR * 4;
	}
	if (mp_out_vec_ok(g)) {
#pragma GCC unroll 16
		for (int r = 0; r < mr; r++)
#pragma GCC unroll 4
			for (int v = 0; v < nv; v++)
				mp_out_vec(g, acc[r][v], i0 + r, j0 + 16 * v, nc - 16 * v, 1);
	} else {
		int32_t t[MP_MR * MP_NR] __attribute__((aligned(64)));
#pragma GCC unroll 16
		for (int r = 0; r < mr; r++)
#pragma GCC unroll 4
			for (int v = 0; v < nv; v++)
				_mm512_store_si512(t + r * MP_NR + 16 * v, acc[r][v]);
		mp_store_tile(g, t, MP_NR, i0, j0, mr, nc);
	}
}

#define MP_TILE_NV(MR)                                                                   \
	switch (nv) {                                                                    \
	case 1: mp_x8_tile_c4__avx512vnni(g, kg, a, b, rc, cc, i0, j0, nc, MR, 1); return; \
	case 2: mp_x8_tile_c4__avx512vnni(g, kg, a, b, rc, cc, i0, j0, nc, MR, MP_NRV >= 2 ? 2 : 1); return; \
	case 3: mp_x8_tile_c4__avx512vnni(g, kg, a, b, rc, cc, i0, j0, nc, MR, MP_NRV >= 3 ? 3 : 1); return; \
	default: mp_x8_tile_c4__avx512vnni(g, kg, a, b, rc, cc, i0, j0, nc, MR, MP_NRV >= 4 ? 4 : 1); return; \
	}

/* mp_tile_fn of this family: picks the instance for (mr, vectors of nc). */
static void mp_x8_gemm_ukernel_c4__avx512vnni(const mp_gemm_args *g, long kg, const void *ap,
					      const void *bp, const int32_t *rc,
					      const int32_t *cc, long i0, long j0, int mr, int nc)
{
	const uint8_t *a = ap;
	const int8_t *b = bp;
	int nv = (nc + 15) / 16;
	switch (mr) {
#if MP_MR >= 16
	case 16: MP_TILE_NV(16)
#endif
#if MP_MR >= 15
	case 15: MP_TILE_NV(15)
#endif
#if MP_MR >= 14
	case 14: MP_TILE_NV(14)
#endif
#if MP_MR >= 13
	case 13: MP_TILE_NV(13)
#endif
#if MP_MR >= 12
	case 12: MP_TILE_NV(12)
#endif
#if MP_MR >= 11
	case 11: MP_TILE_NV(11)
#endif
#if MP_MR >= 10
	case 10: MP_TILE_NV(10)
#endif
#if MP_MR >= 9
	case 9: MP_TILE_NV(9)
#endif
#if MP_MR >= 8
	case 8: MP_TILE_NV(8)
#endif
#if MP_MR >= 7
	case 7: MP_TILE_NV(7)
#endif
#if MP_MR >= 6
	case 6: MP_TILE_NV(6)
#endif
#if MP_MR >= 5
	case 5: MP_TILE_NV(5)
#endif
#if MP_MR >= 4
	case 4: MP_TILE_NV(4)
#endif
#if MP_MR >= 3
	case 3: MP_TILE_NV(3)
#endif
#if MP_MR >= 2
	case 2: MP_TILE_NV(2)
#endif
	default: MP_TILE_NV(1)
	}
}

/* Few rows of A against row-major B without packing B: 4 rows of B are
 * interleaved in registers (in-lane unpacks; the lane order is repaired on
 * the accumulators at the end), column sums come from vpdpbusd against
 * ones.  mr (<= 4) rows, 64 columns per block. */
static inline __attribute__((always_inline)) void
mp_x8_gemm_direct_rows__avx512vnni(const mp_gemm_args *g, const uint8_t *ap,
				   const int32_t *rcorr, const int mr)
{
	const uint8_t *b = (const uint8_t *)g->b;
	const __m512i fl = _mm512_set1_epi8((char)mp_flip_b(g->b_dt));
	const __m512i ones = _mm512_set1_epi8(1);
	const __m512i p = _mm512_set1_epi32((int)mp_corr_p(g));
	const long K = g->K, kg = (K + 3) / 4;
	for (long j0 = 0; j0 < g->N; j0 += 64) {
		long cols = g->N - j0 < 64 ? g->N - j0 : 64;
		__mmask64 m = cols == 64 ? ~(__mmask64)0 : (((__mmask64)1 << cols) - 1);
		__m512i acc[4][4], cs[4];
		for (int v = 0; v < 4; v++) {
			cs[v] = _mm512_setzero_si512();
#pragma GCC unroll 4
			for (int r = 0; r < mr; r++)
				acc[r][v] = _mm512_setzero_si512();
		}
		const uint8_t *col = b + j0;
		for (long q = 0; q < kg; q++) {
			__m512i x[4];
			mp_b_rows4_c4(col, q, K, g->b_sk, m, fl, x);
#pragma GCC unroll 4
			for (int v = 0; v < 4; v++)
				cs[v] = _mm512_dpbusd_epi32(cs[v], ones, x[v]);
#pragma GCC unroll 4
			for (int r = 0; r < mr; r++) {
				int32_t w;
				memcpy(&w, ap + q * MP_MR * 4 + 4 * r, 4);
				__m512i av = _mm512_set1_epi32(w);
#pragma GCC unroll 4
				for (int v = 0; v < 4; v++)
					acc[r][v] = _mm512_dpbusd_epi32(acc[r][v], av, x[v]);
			}
		}
		mp_lane_transpose4(cs);
		int vec_ok = mp_out_vec_ok(g);
#pragma GCC unroll 4
		for (int r = 0; r < mr; r++) {
			mp_lane_transpose4(acc[r]);
			__m512i rc = _mm512_set1_epi32(rcorr[r]);
#pragma GCC unroll 4
			for (int v = 0; v < 4; v++) {
				if (16 * v >= cols)
					break;
				__m512i sv = _mm512_sub_epi32(_mm512_add_epi32(acc[r][v], rc),
							      _mm512_mullo_epi32(p, cs[v]));
				mp_out_vec(g, sv, r, j0 + 16 * v, (int)cols - 16 * v, vec_ok);
			}
		}
	}
}

/* ------------------------------------------ vector x matrix (M == 1) */

/* Dots of the packed vector xv (K bytes, zero-padded to 64) with nc (<= 4)
 * columns of B, column j at cols[j] with k contiguous, B bytes used raw:
 *   bu8: B is the u8 operand of vpdpbusd, xv the s8 one (else the reverse);
 *   csum: also the column sums of raw B (sad for u8, vpdpbusd against ones
 *   for s8), needed when p != 0.
 * Writes dot[j] and sum[j] (mod 2^32). */
static inline __attribute__((always_inline)) void
mp_gemv_cols_dot(const uint8_t *xv, const uint8_t *const *cols, long K, uint32_t *dot,
		 uint32_t *sum, const int nc, const int bu8, const int csum)
{
	__m512i acc[4], cs[4];
	const __m512i ones = _mm512_set1_epi8(1), zero = _mm512_setzero_si512();
	for (int c = 0; c < nc; c++)
		acc[c] = cs[c] = zero;
	/* a masked head first, so that the loads of column 0 (and of the others
	 * when b_sj keeps the alignment, e.g. K % 64 == 0) are aligned */
	long k = (long)(-(uintptr_t)cols[0] & 63);
	k = k > K ? K : k;
#define MP_GEMV_COLS_STEP(V, LOAD)                                                   \
	do {                                                                         \
		__m512i v_ = (V);                                                    \
		_Pragma("GCC unroll 4") for (int c = 0; c < nc; c++) {              \
			__m512i x = LOAD;                                            \
			if (bu8) {                                                   \
				acc[c] = _mm512_dpbusd_epi32(acc[c], x, v_);          \
				if (csum)                                            \
					cs[c] = _mm512_add_epi64(cs[c], _mm512_sad_epu8(x, zero)); \
			} else {                                                     \
				acc[c] = _mm512_dpbusd_epi32(acc[c], v_, x);          \
				if (csum)                                            \
					cs[c] = _mm512_dpbusd_epi32(cs[c], ones, x);  \
			}                                                            \
		}                                                                    \
	} while (0)
	if (k > 0) {
		__mmask64 m = ((__mmask64)1 << k) - 1;
		MP_GEMV_COLS_STEP(_mm512_maskz_loadu_epi8(m, xv), _mm512_maskz_loadu_epi8(m, cols[c]));
	}
	for (; k + 64 <= K; k += 64)
		MP_GEMV_COLS_STEP(_mm512_loadu_si512(xv + k), _mm512_loadu_si512(cols[c] + k));
	if (k < K) {
		__mmask64 m = ((__mmask64)1 << (K - k)) - 1;
		MP_GEMV_COLS_STEP(_mm512_maskz_loadu_epi8(m, xv + k),
				  _mm512_maskz_loadu_epi8(m, cols[c] + k));
	}
#undef MP_GEMV_COLS_STEP
#pragma GCC unroll 4
	for (int c = 0; c < nc; c++) {
		dot[c] = (uint32_t)_mm512_reduce_add_epi32(acc[c]);
		if (csum)
			sum[c] = bu8 ? (uint32_t)_mm512_reduce_add_epi64(cs[c])
				     : (uint32_t)_mm512_reduce_add_epi32(cs[c]);
	}
}

/* M == 1 with columns of B contiguous in k (b_sk == 1; the matrix-vector
 * product A x, A row-major, after transposition).  B is streamed once,
 * raw; the vector a is packed once to the other signedness:
 *   a' = a + alpha, alpha = (B u8 ? (a u8 ? -128 : 0) : (a s8 ? 128 : 0)),
 *   S(j) = sum a' b - zb sum a' - p colsum(b)(j) + K p zb,  p = alpha + za. */
static inline __attribute__((always_inline)) void
mp_gemv_cols_run(const mp_gemm_args *g, const uint8_t *xv, uint32_t base, uint32_t p,
		 const int bu8, const int csum)
{
	const uint8_t *b = (const uint8_t *)g->b;
	const long N = g->N, K = g->K;
	int vec_ok = mp_out_vec_ok(g);
	for (long j0 = 0; j0 < N; j0 += 16) {
		int n = N - j0 < 16 ? (int)(N - j0) : 16;
		uint32_t dot[16], sum[16] = {0};
		int j = 0;
		for (; j + 4 <= n; j += 4) {
			const uint8_t *cols[4];
			for (int c = 0; c < 4; c++)
				cols[c] = b + (j0 + j + c) * g->b_sj;
			mp_gemv_cols_dot(xv, cols, K, dot + j, sum + j, 4, bu8, csum);
		}
		for (; j < n; j++) {
			const uint8_t *col = b + (j0 + j) * g->b_sj;
			mp_gemv_cols_dot(xv, &col, K, dot + j, sum + j, 1, bu8, csum);
		}
		uint32_t s[16] __attribute__((aligned(64)));
		for (j = 0; j < n; j++)
			s[j] = dot[j] + base - p * sum[j];
		for (; j < 16; j++)
			s[j] = 0;
		mp_out_vec(g, _mm512_load_si512(s), 0, j0, n, vec_ok);
	}
}

/* The vector of an M == 1 problem, packed once for the paths that use B
 * raw: a' = a + alpha in the other signedness than B (zero-padded to a
 * multiple of 64 bytes, plus 64), p = alpha + za, and the constant part
 * base = K p q - q sum a' with q = zb.  Returns the buffer (the thread's
 * scratch). */
static uint8_t *mp_gemv_pack_vec(const mp_gemm_args *g, uint32_t *p_out, uint32_t *base_out)
{
	const long K = g->K;
	const int bu8 = g->b_dt == MP_DT_U8;
	const int au8 = g->a_dt == MP_DT_U8;
	const uint8_t flip = (uint8_t)(bu8 ? (au8 ? 0x80 : 0) : (au8 ? 0 : 0x80));
	const uint32_t alpha = bu8 ? (au8 ? (uint32_t)-128 : 0u) : (au8 ? 0u : 128u);
	const uint32_t p = alpha + (uint32_t)g->za, q = (uint32_t)g->zb;
	long kp = (K + 63) / 64 * 64;
	uint8_t *xv = mp_scratch(MP_SCR_VEC, (size_t)kp + 64);
	const uint8_t *a = (const uint8_t *)g->a;
	uint32_t suma = 0;
	for (long k = 0; k < K; k++) {
		uint8_t v = a[k * g->a_sk] ^ flip;
		xv[k] = v;
		suma += bu8 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)v;
	}
	memset(xv + K, 0, (size_t)(kp + 64 - K));
	*p_out = p;
	*base_out = (uint32_t)K * p * q - q * suma;
	return xv;
}

static int mp_x8_gemv_cols__avx512vnni(const mp_gemm_args *g)
{
	uint32_t p, base;
	uint8_t *xv = mp_gemv_pack_vec(g, &p, &base);
	if (g->b_dt == MP_DT_U8) {
		if (p)
			mp_gemv_cols_run(g, xv, base, p, 1, 1);
		else
			mp_gemv_cols_run(g, xv, base, p, 1, 0);
	} else {
		if (p)
			mp_gemv_cols_run(g, xv, base, p, 0, 1);
		else
			mp_gemv_cols_run(g, xv, base, p, 0, 0);
	}
	return 1;
}

#define MP_GEMV_NB 1024 /* columns per pass of the row path */

/* One k-group (rows r[0..3] of B, raw, from column j0, nb columns, the
 * 4 vector bytes in av) added into the accumulator arrays acc / cs (in
 * the in-lane interleaved column order, repaired at the end). */
static inline __attribute__((always_inline)) void
mp_gemv_rows_group(const uint8_t *const *r, long nb, const __m512i *av, int32_t *acc,
		   int32_t *cs, const int ng, const int bu8, const int csum)
{
	const __m512i ones = _mm512_set1_epi8(1);
	for (long j = 0; j < nb; j += 64) {
		__mmask64 m = nb - j >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (nb - j)) - 1);
		__m512i ya[4], yc[4];
#pragma GCC unroll 4
		for (int v = 0; v < 4; v++) {
			ya[v] = _mm512_load_si512(acc + j + 16 * v);
			if (csum)
				yc[v] = _mm512_load_si512(cs + j + 16 * v);
		}
#pragma GCC unroll 2
		for (int h = 0; h < ng; h++) {
			__m512i x[4];
#pragma GCC unroll 4
			for (int u = 0; u < 4; u++)
				x[u] = _mm512_maskz_loadu_epi8(m, r[4 * h + u] + j);
			mp_interleave4_c4(x);
#pragma GCC unroll 4
			for (int v = 0; v < 4; v++) {
				if (bu8) {
					ya[v] = _mm512_dpbusd_epi32(ya[v], x[v], av[h]);
					if (csum)
						yc[v] = _mm512_dpbusd_epi32(yc[v], x[v], ones);
				} else {
					ya[v] = _mm512_dpbusd_epi32(ya[v], av[h], x[v]);
					if (csum)
						yc[v] = _mm512_dpbusd_epi32(yc[v], ones, x[v]);
				}
			}
		}
#pragma GCC unroll 4
		for (int v = 0; v < 4; v++) {
			_mm512_store_si512(acc + j + 16 * v, ya[v]);
			if (csum)
				_mm512_store_si512(cs + j + 16 * v, yc[v]);
		}
	}
}

/* M == 1 with rows of B contiguous in j (b_sj == 1): B streamed once, row
 * by row, in passes of MP_GEMV_NB columns; accumulators in memory (L1). */
static inline __attribute__((always_inline)) void
mp_gemv_rows_run(const mp_gemm_args *g, const uint8_t *xv, const uint8_t *zrow, uint32_t base,
		 uint32_t p, int32_t *acc, int32_t *cs, const int bu8, const int csum)
{
	const uint8_t *b = (const uint8_t *)g->b;
	const long N = g->N, K = g->K, kg = (K + 3) / 4;
	int vec_ok = mp_out_vec_ok(g);
	for (long jb = 0; jb < N; jb += MP_GEMV_NB) {
		long nb = N - jb < MP_GEMV_NB ? N - jb : MP_GEMV_NB;
		long nbp = (nb + 63) / 64 * 64;
		memset(acc, 0, sizeof(int32_t) * (size_t)nbp);
		if (csum)
			memset(cs, 0, sizeof(int32_t) * (size_t)nbp);
		long q = 0;
		for (; q + 2 <= kg; q += 2) {
			const uint8_t *r[8];
			for (int u = 0; u < 8; u++) {
				long k = 4 * q + u;
				r[u] = k < K ? b + k * g->b_sk + jb : zrow;
			}
			int32_t w[2];
			memcpy(w, xv + 4 * q, 8);
			__m512i av[2] = {_mm512_set1_epi32(w[0]), _mm512_set1_epi32(w[1])};
			mp_gemv_rows_group(r, nb, av, acc, cs, 2, bu8, csum);
		}
		for (; q < kg; q++) {
			const uint8_t *r[4];
			for (int u = 0; u < 4; u++) {
				long k = 4 * q + u;
				r[u] = k < K ? b + k * g->b_sk + jb : zrow;
			}
			int32_t w;
			memcpy(&w, xv + 4 * q, 4);
			__m512i av[1] = {_mm512_set1_epi32(w)};
			mp_gemv_rows_group(r, nb, av, acc, cs, 1, bu8, csum);
		}
		const __m512i bv = _mm512_set1_epi32((int)base), pv = _mm512_set1_epi32((int)p);
		for (long j = 0; j < nb; j += 64) {
			__m512i x[4], c[4];
			for (int v = 0; v < 4; v++) {
				x[v] = _mm512_load_si512(acc + j + 16 * v);
				c[v] = csum ? _mm512_load_si512(cs + j + 16 * v) : _mm512_setzero_si512();
			}
			mp_lane_transpose4(x);
			if (csum)
				mp_lane_transpose4(c);
			for (int v = 0; v < 4 && j + 16 * v < nb; v++) {
				__m512i sv = _mm512_add_epi32(x[v], bv);
				if (csum)
					sv = _mm512_sub_epi32(sv, _mm512_mullo_epi32(pv, c[v]));
				mp_out_vec(g, sv, 0, jb + j + 16 * v, (int)(nb - j - 16 * v), vec_ok);
			}
		}
	}
}

static int mp_x8_gemv_rows__avx512vnni(const mp_gemm_args *g)
{
	uint32_t p, base;
	uint8_t *xv = mp_gemv_pack_vec(g, &p, &base);
	int32_t *acc = mp_scratch(MP_SCR_T, 2 * sizeof(int32_t) * MP_GEMV_NB);
	uint8_t *zrow = mp_scratch(MP_SCR_Z, MP_GEMV_NB + 64);
	memset(zrow, 0, MP_GEMV_NB + 64);
	int32_t *cs = acc + MP_GEMV_NB;
	if (g->b_dt == MP_DT_U8) {
		if (p)
			mp_gemv_rows_run(g, xv, zrow, base, p, acc, cs, 1, 1);
		else
			mp_gemv_rows_run(g, xv, zrow, base, p, acc, cs, 1, 0);
	} else {
		if (p)
			mp_gemv_rows_run(g, xv, zrow, base, p, acc, cs, 0, 1);
		else
			mp_gemv_rows_run(g, xv, zrow, base, p, acc, cs, 0, 0);
	}
	return 1;
}

/* mp_direct_fn of this family: takes M <= 4 with row-major B (b_sj == 1),
 * where packing B would cost as much as the product itself. */
static int mp_x8_gemm_direct__avx512vnni(const mp_gemm_args *g)
{
	if (g->M > 4 || g->b_sj != 1)
		return 0;
	long kp = (g->K + 3) / 4 * 4;
	uint8_t *ap = mp_scratch(MP_SCR_A, (size_t)(kp * MP_MR));
	int32_t rcorr[MP_MR];
	mp_x8_pack_a_c4__avx512vnni(g, 0, g->M, kp, ap, rcorr);
	switch (g->M) {
	case 4: mp_x8_gemm_direct_rows__avx512vnni(g, ap, rcorr, 4); break;
	case 3: mp_x8_gemm_direct_rows__avx512vnni(g, ap, rcorr, 3); break;
	case 2: mp_x8_gemm_direct_rows__avx512vnni(g, ap, rcorr, 2); break;
	default: mp_x8_gemm_direct_rows__avx512vnni(g, ap, rcorr, 1); break;
	}
	return 1;
}

/* gemv hook of this family (M == 1): columns of B contiguous in k, or rows
 * of B contiguous in j (the direct path); other layouts decline. */
static int mp_x8_gemv__avx512vnni(const mp_gemm_args *g)
{
	if (g->M != 1)
		return 0;
	if (g->K <= 0)
		return mp_x8_gemm_direct__avx512vnni(g);
	if (g->b_sk == 1)
		return mp_x8_gemv_cols__avx512vnni(g);
	if (g->b_sj == 1)
		return mp_x8_gemv_rows__avx512vnni(g);
	return 0;
}

const mp_gemm_kernel mp_x8_gemm_kernel__avx512vnni = {
	MP_MR, MP_NR, MP_KG, 1, MP_MC, MP_NC,
	mp_x8_pack_a_c4__avx512vnni, mp_x8_pack_b_c4__avx512vnni,
	mp_x8_gemm_ukernel_c4__avx512vnni, mp_x8_gemm_direct__avx512vnni,
	mp_x8_gemv__avx512vnni,
};
