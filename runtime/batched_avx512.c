/* batched_avx512.c -- the vector form of mp_gemm_x8_batched (batched.c)
 * on AVX512-VNNI: A and B contiguous in the batch index g (a depthwise
 * convolution's channels in NHWC, the weights' channels innermost), one
 * output column (N == 1).  32 channels per step, four rows (output
 * pixels) at a time sharing each vector of B, the reduction's points (the
 * window's taps, at most 64) taken two at a time:
 *
 *   a16 = A - za, b16 = B - zb       (int16: |x - z| <= 383)
 *   acc[r] += a16(t) * b16(t) + a16(t+1) * b16(t+1)     (vpdpwssd)
 *
 * The taps' int16 values are interleaved per channel (vpunpcklwd /
 * vpunpckhwd of taps t and t+1, within each 128-bit lane), B's once per
 * call part into a scratch buffer in that order, A's as they are loaded;
 * the two accumulators per row hold channels {0-3, 8-11, 16-19, 24-27} and
 * {4-7, ...}, put back in order by one vpermt2d per 16 channels at the
 * store.  Each product fits 18 bits and a pair's sum 19: vpdpwssd's int32
 * sums wrap modulo 2^32 as the scalar form's do, so the two are
 * bit-identical.  A padded tap (a condition fails) takes the padding
 * value, its bytes never read; channel tails use masked loads and stores
 * (a missing tap of an odd count is zero). */
#include <immintrin.h>
#include <string.h>
#include "mp_gemm.h"
#include "mp_runtime.h"


/* 32 bytes at p (lanes of m) as int16, less z. */
static inline __m512i mp_ld32(const void *p, __mmask32 m, int dt, __m512i z)
{
	__m256i v = _mm256_maskz_loadu_epi8(m, p);
	return _mm512_sub_epi16(dt == MP_DT_U8 ? _mm512_cvtepu8_epi16(v) : _mm512_cvtepi8_epi16(v),
				z);
}

/* Rows i .. i+R-1 (R <= 4), every channel; bq: B's interleaved pairs. */
static inline __attribute__((always_inline)) void
mp_rows(const mp_batched_args *x, long i, const int R, long T, const ptrdiff_t *oa,
	const __m512i *bq, const uint64_t *in, __m512i vza, __m512i vpad)
{
	const long G = x->G, P = (T + 1) / 2;
	const char *arow = (const char *)x->a + i * x->a_si;
	/* lanes 0..15 of (lo, hi): lo's lane 4q+e for q even... : channel
	   order of the accumulators, undone at the store */
	const __m512i perm0 = _mm512_set_epi32(23, 22, 21, 20, 7, 6, 5, 4, 19, 18, 17, 16, 3, 2, 1, 0);
	const __m512i perm1 = _mm512_set_epi32(31, 30, 29, 28, 15, 14, 13, 12, 27, 26, 25, 24, 11, 10,
					       9, 8);

	for (long g = 0, blk = 0; g < G; g += 32, blk++) {
		__mmask32 m = G - g >= 32 ? ~(__mmask32)0 : (__mmask32)((1u << (G - g)) - 1);
		__m512i lo[4], hi[4];
		const __m512i *bp = bq + blk * P * 2;
		for (int r = 0; r < R; r++)
			lo[r] = hi[r] = _mm512_setzero_si512();
		for (long p = 0; p < P; p++) {
			const long t0 = 2 * p, t1 = 2 * p + 1;
			for (int r = 0; r < R; r++) {
				__m512i a0 = (in[r] >> t0) & 1
					? mp_ld32(arow + r * x->a_si + oa[t0] + g, m, x->a_dt, vza)
					: vpad;
				__m512i a1 = t1 >= T ? _mm512_setzero_si512()
					   : (in[r] >> t1) & 1
					   ? mp_ld32(arow + r * x->a_si + oa[t1] + g, m, x->a_dt, vza)
					   : vpad;
				lo[r] = _mm512_dpwssd_epi32(lo[r], _mm512_unpacklo_epi16(a0, a1),
							    bp[2 * p]);
				hi[r] = _mm512_dpwssd_epi32(hi[r], _mm512_unpackhi_epi16(a0, a1),
							    bp[2 * p + 1]);
			}
		}
		__mmask16 m0 = (__mmask16)m, m1 = (__mmask16)(m >> 16);
		for (int r = 0; r < R; r++) {
			int32_t *o = x->t + (size_t)(i + r) * (size_t)G + g;
			_mm512_mask_storeu_epi32(o, m0, _mm512_permutex2var_epi32(lo[r], perm0, hi[r]));
			if (m1)
				_mm512_mask_storeu_epi32(o + 16, m1,
							 _mm512_permutex2var_epi32(lo[r], perm1, hi[r]));
		}
	}
}

/* See mp_gemm.h: 0 when the taps are too many or the scratch buffer
 * cannot be had (the caller then runs the scalar form). */
int mp_batched_rows__avx512(const mp_batched_args *x, long lo, long hi)
{
	ptrdiff_t oa[MP_BATCHED_MAX_TAPS], ob[MP_BATCHED_MAX_TAPS];
	long dd[MP_BATCHED_MAX_TAPS][MP_MAX_KDIMS], least[MP_MAX_PAD];
	const long T = mp_batched_taps(x, oa, ob, dd, least);
	if (!T)
		return 0;
	const long G = x->G, P = (T + 1) / 2, nblk = (G + 31) / 32;
	const __m512i vza = _mm512_set1_epi16((short)x->za), vzb = _mm512_set1_epi16((short)x->zb);
	/* B's taps as int16 less zb, pairs (t, t+1) interleaved per channel
	   as A's will be: per 32-channel block, per pair, (lo, hi) */
	__m512i *bq = mp_scratch(MP_SCR_VEC, sizeof(__m512i) * 2 * (size_t)(nblk * P));
	if (!bq)
		return 0;
	for (long blk = 0; blk < nblk; blk++) {
		long g = blk * 32;
		__mmask32 m = G - g >= 32 ? ~(__mmask32)0 : (__mmask32)((1u << (G - g)) - 1);
		for (long p = 0; p < P; p++) {
			__m512i b0 = mp_ld32((const char *)x->b + ob[2 * p] + g, m, x->b_dt, vzb);
			__m512i b1 = 2 * p + 1 < T
				? mp_ld32((const char *)x->b + ob[2 * p + 1] + g, m, x->b_dt, vzb)
				: _mm512_setzero_si512();
			_mm512_store_si512(&bq[(blk * P + p) * 2], _mm512_unpacklo_epi16(b0, b1));
			_mm512_store_si512(&bq[(blk * P + p) * 2 + 1], _mm512_unpackhi_epi16(b0, b1));
		}
	}
	int32_t padv = mp_batched_padv(x);
	const __m512i vpad = _mm512_set1_epi16((short)(padv - x->za));

	for (long i = lo; i < hi; i += 4) {
		int rows = hi - i < 4 ? (int)(hi - i) : 4;
		uint64_t in[4] = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0};
		for (int r = 0; r < rows && x->pad; r++)   /* the taps inside, per row */
			in[r] = mp_batched_row_in(x, i + r, T, (const long (*)[MP_MAX_KDIMS])dd, least);
		/* the row count a constant in each call: the accumulators stay
		   in registers */
		switch (rows) {
		case 4: mp_rows(x, i, 4, T, oa, bq, in, vza, vpad); break;
		case 3: mp_rows(x, i, 3, T, oa, bq, in, vza, vpad); break;
		case 2: mp_rows(x, i, 2, T, oa, bq, in, vza, vpad); break;
		default: mp_rows(x, i, 1, T, oa, bq, in, vza, vpad); break;
		}
	}
	return 1;
}
