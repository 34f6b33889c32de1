/* gemm_avx2.c -- AVX2 kernel family of mp_gemm_x8:
 * mp_x8_gemm_ukernel_6x16c2__avx2.  Exact: operands are packed widened to
 * int16 (a' in [0,255], b' in [-128,127]) in K-groups of 2 and multiplied
 * with vpmaddwd (no vpmaddubsw, whose int16 pair sums saturate).  The
 * matrix-vector paths (M == 1, N == 1) are in gemv_avx2.c.
 * Compiled with -mavx2 -mfma: call only after
 * mp_kernel_available(MP_KERNEL_AVX2). */
#include <immintrin.h>
#include <string.h>
#include "mp_avx2.h"

#define MP_MR 6
#define MP_NR 16
#define MP_KG 2

/* One sliver of 6 rows of A contiguous in k (a_sk == 1), all live, into ap
 * (kp/2 groups of 6 row pairs, int16) and their sums into sum[0..5]: 16
 * bytes of each row, the 8 x 8 pairs (two rows of zeros) transposed, 24
 * bytes stored per pair.  The same bytes as mp_pack_a_generic. */
static void mp_x8_pack_a_sliver__avx2(const mp_gemm_args *g, long i, long kp, int16_t *ap,
				      uint32_t *sum)
{
	const uint8_t *a = (const uint8_t *)g->a + i * g->a_si;
	const __m128i flip = _mm_set1_epi8((char)mp_flip_a(g->a_dt));
	const __m256i ones = _mm256_set1_epi16(1);
	const long K = g->K;
	__m256i acc = _mm256_setzero_si256();
	long k = 0;
	for (; k + 16 <= K; k += 16, ap += 8 * MP_MR * MP_KG) {
		__m256i w[8], o[8];
		for (int r = 0; r < MP_MR; r++)
			w[r] = _mm256_cvtepu8_epi16(_mm_xor_si128(
				_mm_loadu_si128((const __m128i *)(a + r * g->a_si + k)), flip));
		w[6] = w[7] = _mm256_setzero_si256();
		mp_avx2_transpose8(w, o);
		for (int q = 0; q < 8; q++) {   /* pair q: 6 dwords, 24 bytes */
			int16_t *px = ap + q * MP_MR * MP_KG;
			_mm_storeu_si128((__m128i *)px, _mm256_castsi256_si128(o[q]));
			_mm_storel_epi64((__m128i *)(px + 8), _mm256_extracti128_si256(o[q], 1));
			acc = _mm256_add_epi32(acc, _mm256_madd_epi16(o[q], ones));
		}
	}
	uint32_t s8[8];
	_mm256_storeu_si256((__m256i *)s8, acc);
	/* the k left (fewer than 16), then zeros up to kp */
	const int flipa = mp_flip_a(g->a_dt);
	for (; k < kp; k += 2, ap += MP_MR * MP_KG)
		for (int r = 0; r < MP_MR; r++)
			for (int u = 0; u < 2; u++) {
				uint8_t v = 0;
				if (k + u < K)
					v = (uint8_t)(a[r * g->a_si + k + u] ^ flipa);
				ap[2 * r + u] = v;
				s8[r] += v;
			}
	memcpy(sum, s8, MP_MR * sizeof *sum);
}

static void mp_x8_pack_a_6c2__avx2(const mp_gemm_args *g, long i0, long mc, long kp,
				   void *ap, int32_t *rcorr)
{
	long s = 0;
	if (g->a_sk == 1) {   /* full slivers on the vector path */
		const uint32_t q = mp_corr_q(g), kpq = (uint32_t)g->K * mp_corr_p(g) * q;
		for (; (s + 1) * MP_MR <= mc; s++) {
			uint32_t sum[MP_MR];
			mp_x8_pack_a_sliver__avx2(g, i0 + s * MP_MR, kp,
						  (int16_t *)ap + s * kp * MP_MR, sum);
			for (int r = 0; r < MP_MR; r++)
				rcorr[s * MP_MR + r] = (int32_t)(kpq - q * sum[r]);
		}
	}
	if (s * MP_MR < mc)
		mp_pack_a_generic(g, i0 + s * MP_MR, mc - s * MP_MR, kp,
				  (int16_t *)ap + s * kp * MP_MR, rcorr + s * MP_MR, MP_MR, MP_KG, 2);
}

/* One sliver of 16 columns of B, all live, into bp (kp/2 groups of 16
 * column pairs, int16) and their sums into sum[0..15], when B is contiguous
 * in j (b_sj == 1: two rows' 16 bytes interleaved per k pair) or in k
 * (b_sk == 1: 16 bytes of each column, the 16 x 8 pairs transposed);
 * returns 0 for other layouts.  The same bytes as mp_pack_b_generic. */
static int mp_x8_pack_b_sliver__avx2(const mp_gemm_args *g, long j, long kp, int16_t *bp,
				     uint32_t *sum)
{
	const uint8_t *b = (const uint8_t *)g->b + j * g->b_sj;
	const __m128i flip = _mm_set1_epi8((char)mp_flip_b(g->b_dt));
	const __m256i ones = _mm256_set1_epi16(1);
	const long K = g->K;
	__m256i s0 = _mm256_setzero_si256(), s1 = s0;
	long k = 0;
	if (g->b_sj == 1) {
		for (; k + 1 < K; k += 2, bp += 32) {
			__m256i w0 = _mm256_cvtepi8_epi16(_mm_xor_si128(
				_mm_loadu_si128((const __m128i *)(b + k * g->b_sk)), flip));
			__m256i w1 = _mm256_cvtepi8_epi16(_mm_xor_si128(
				_mm_loadu_si128((const __m128i *)(b + (k + 1) * g->b_sk)), flip));
			__m256i lo = _mm256_unpacklo_epi16(w0, w1), hi = _mm256_unpackhi_epi16(w0, w1);
			__m256i o0 = _mm256_permute2x128_si256(lo, hi, 0x20);
			__m256i o1 = _mm256_permute2x128_si256(lo, hi, 0x31);
			_mm256_storeu_si256((__m256i *)bp, o0);
			_mm256_storeu_si256((__m256i *)(bp + 16), o1);
			s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(o0, ones));
			s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(o1, ones));
		}
	} else if (g->b_sk == 1) {
		for (; k + 16 <= K; k += 16, bp += 8 * 32) {
			for (int h = 0; h < 2; h++) {   /* columns 0-7, then 8-15 */
				__m256i w[8], o[8];
				for (int r = 0; r < 8; r++)
					w[r] = _mm256_cvtepi8_epi16(_mm_xor_si128(_mm_loadu_si128(
						(const __m128i *)(b + (8 * h + r) * g->b_sj + k)), flip));
				mp_avx2_transpose8(w, o);
				__m256i acc = h ? s1 : s0;
				for (int q = 0; q < 8; q++) {   /* pair q, these 8 columns */
					_mm256_storeu_si256((__m256i *)(bp + q * 32 + 16 * h), o[q]);
					acc = _mm256_add_epi32(acc, _mm256_madd_epi16(o[q], ones));
				}
				if (h)
					s1 = acc;
				else
					s0 = acc;
			}
		}
	} else {
		return 0;
	}
	_mm256_storeu_si256((__m256i *)sum, s0);
	_mm256_storeu_si256((__m256i *)(sum + 8), s1);
	/* the k left (fewer than a pair, or than 16), then zeros up to kp */
	const int flipb = mp_flip_b(g->b_dt);
	for (; k < kp; k += 2, bp += 32)
		for (int r = 0; r < 16; r++)
			for (int u = 0; u < 2; u++) {
				int8_t v = 0;
				if (k + u < K)
					v = (int8_t)(b[r * g->b_sj + (k + u) * g->b_sk] ^ flipb);
				bp[2 * r + u] = v;
				sum[r] += (uint32_t)(int32_t)v;
			}
	return 1;
}

static void mp_x8_pack_b_16c2__avx2(const mp_gemm_args *g, long j0, long nc, long kp,
				    void *bp, int32_t *ccorr)
{
	const uint32_t p = mp_corr_p(g);
	long s = 0;
	/* full slivers on the vector path, the rest (and other layouts)
	   generic */
	for (; (s + 1) * MP_NR <= nc; s++) {
		uint32_t sum[MP_NR];
		if (!mp_x8_pack_b_sliver__avx2(g, j0 + s * MP_NR, kp,
					       (int16_t *)bp + s * kp * MP_NR, sum))
			break;
		for (int r = 0; r < MP_NR; r++)
			ccorr[s * MP_NR + r] = (int32_t)(p * sum[r]);
	}
	if (s * MP_NR < nc)
		mp_pack_b_generic(g, j0 + s * MP_NR, nc - s * MP_NR, kp,
				  (int16_t *)bp + s * kp * MP_NR, ccorr + s * MP_NR, MP_NR, MP_KG, 2);
}

/* The register tile for mr rows (constant after inlining). */
static inline __attribute__((always_inline)) void
mp_x8_tile_16c2__avx2(const mp_gemm_args *g, long kgroups, const int16_t *a,
		      const int16_t *b, const int32_t *rcorr, const int32_t *ccorr,
		      long i0, long j0, int nc, const int mr)
{
	__m256i acc[MP_MR][2];
	__m256i cc0 = _mm256_loadu_si256((const __m256i *)ccorr);
	__m256i cc1 = _mm256_loadu_si256((const __m256i *)(ccorr + 8));
#pragma GCC unroll 8
	for (int r = 0; r < mr; r++) {
		__m256i rv = _mm256_set1_epi32(rcorr[r]);
		acc[r][0] = _mm256_sub_epi32(rv, cc0);
		acc[r][1] = _mm256_sub_epi32(rv, cc1);
	}
	for (long q = 0; q < kgroups; q++) {
		__m256i b0 = _mm256_load_si256((const __m256i *)b);
		__m256i b1 = _mm256_load_si256((const __m256i *)(b + 16));
#pragma GCC unroll 8
		for (int r = 0; r < mr; r++) {
			int32_t w;
			memcpy(&w, a + 2 * r, 4);
			__m256i av = _mm256_set1_epi32(w);
			acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(av, b0));
			acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(av, b1));
		}
		a += MP_MR * MP_KG;
		b += MP_NR * MP_KG;
	}
	if (!g->ep && g->c_sj == 1 && nc == MP_NR) {
		int32_t *c = g->c + i0 * g->c_si + j0;
#pragma GCC unroll 8
		for (int r = 0; r < mr; r++) {
			__m256i *cr = (__m256i *)(c + r * g->c_si);
			__m256i x0 = acc[r][0], x1 = acc[r][1];
			if (g->accumulate) {
				x0 = _mm256_add_epi32(x0, _mm256_loadu_si256(cr));
				x1 = _mm256_add_epi32(x1, _mm256_loadu_si256(cr + 1));
			}
			_mm256_storeu_si256(cr, x0);
			_mm256_storeu_si256(cr + 1, x1);
		}
	} else {
		int32_t t[MP_MR * MP_NR] __attribute__((aligned(32)));
		for (int r = 0; r < mr; r++) {
			_mm256_store_si256((__m256i *)(t + r * MP_NR), acc[r][0]);
			_mm256_store_si256((__m256i *)(t + r * MP_NR + 8), acc[r][1]);
		}
		mp_store_tile(g, t, MP_NR, i0, j0, mr, nc);
	}
}

/* mp_tile_fn of this family. */
static void mp_x8_gemm_ukernel_6x16c2__avx2(const mp_gemm_args *g, long kg, const void *ap,
					    const void *bp, const int32_t *rc, const int32_t *cc,
					    long i0, long j0, int mr, int nc)
{
	switch (mr) {
	case 6: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 6); break;
	case 5: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 5); break;
	case 4: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 4); break;
	case 3: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 3); break;
	case 2: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 2); break;
	default: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 1); break;
	}
}

const mp_gemm_kernel mp_x8_gemm_kernel__avx2 = {
	MP_MR, MP_NR, MP_KG, 2, 72, 512,
	mp_x8_pack_a_6c2__avx2, mp_x8_pack_b_16c2__avx2, mp_x8_gemm_ukernel_6x16c2__avx2, NULL,
	mp_x8_gemv__avx2,
};
