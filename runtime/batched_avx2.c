/* batched_avx2.c -- the vector form of mp_gemm_x8_batched (batched.c) on
 * AVX2, for CPUs without AVX512-VNNI: the same problems as
 * batched_avx512.c (A and B contiguous in the batch index g, N == 1, at
 * most MP_BATCHED_MAX_TAPS taps) and the same arithmetic, 16 channels per
 * step instead of 32:
 *
 *   a16 = A - za, b16 = B - zb       (int16: |x - z| <= 383)
 *   acc[r] += a16(t) * b16(t) + a16(t+1) * b16(t+1)     (vpmaddwd, vpaddd)
 *
 * Taps t and t+1 interleaved per channel (vpunpcklwd / vpunpckhwd within
 * each 128-bit lane: accumulators lo = channels {0-3, 8-11}, hi = {4-7,
 * 12-15}, put back in order by vperm2i128 at the store).  A pair's sum
 * fits 19 bits, vpmaddwd never saturates on such values, and the int32
 * additions wrap modulo 2^32 as the scalar form's: bit-identical to it.
 * Channel tails: the bytes copied into a zeroed buffer, the sums stored
 * through one (AVX2 has no byte masks); a padded tap takes the padding
 * value without reading it. */
#include <immintrin.h>
#include <string.h>
#include "mp_avx2.h"
#include "mp_gemm.h"
#include "mp_runtime.h"

/* n (<= 16) bytes at p as int16, less z. */
static inline __m256i mp_ld16(const void *p, long n, int dt, __m256i z)
{
	return _mm256_sub_epi16(mp_avx2_w16(p, n, dt), z);
}

/* Rows i .. i+R-1 (R <= 4), every channel; bq: B's interleaved pairs. */
static inline __attribute__((always_inline)) void
mp_rows2(const mp_batched_args *x, long i, const int R, long T, const ptrdiff_t *oa,
	 const __m256i *bq, const uint64_t *in, __m256i vza, __m256i vpad)
{
	const long G = x->G, P = (T + 1) / 2;
	const char *arow = (const char *)x->a + i * x->a_si;

	for (long g = 0, blk = 0; g < G; g += 16, blk++) {
		const long n = G - g >= 16 ? 16 : G - g;
		__m256i lo[4], hi[4];
		const __m256i *bp = bq + blk * P * 2;
		for (int r = 0; r < R; r++)
			lo[r] = hi[r] = _mm256_setzero_si256();
		for (long p = 0; p < P; p++) {
			const long t0 = 2 * p, t1 = 2 * p + 1;
			const __m256i b0 = _mm256_load_si256(&bp[2 * p]);
			const __m256i b1 = _mm256_load_si256(&bp[2 * p + 1]);
			for (int r = 0; r < R; r++) {
				__m256i a0 = (in[r] >> t0) & 1
					? mp_ld16(arow + r * x->a_si + oa[t0] + g, n, x->a_dt, vza)
					: vpad;
				__m256i a1 = t1 >= T ? _mm256_setzero_si256()
					   : (in[r] >> t1) & 1
					   ? mp_ld16(arow + r * x->a_si + oa[t1] + g, n, x->a_dt, vza)
					   : vpad;
				lo[r] = _mm256_add_epi32(
					lo[r], _mm256_madd_epi16(_mm256_unpacklo_epi16(a0, a1), b0));
				hi[r] = _mm256_add_epi32(
					hi[r], _mm256_madd_epi16(_mm256_unpackhi_epi16(a0, a1), b1));
			}
		}
		for (int r = 0; r < R; r++) {
			int32_t *o = x->t + (size_t)(i + r) * (size_t)G + g;
			__m256i c0 = _mm256_permute2x128_si256(lo[r], hi[r], 0x20);   /* 0-7 */
			__m256i c1 = _mm256_permute2x128_si256(lo[r], hi[r], 0x31);   /* 8-15 */
			if (n == 16) {
				_mm256_storeu_si256((__m256i *)o, c0);
				_mm256_storeu_si256((__m256i *)(o + 8), c1);
			} else {
				int32_t buf[16];
				_mm256_storeu_si256((__m256i *)buf, c0);
				_mm256_storeu_si256((__m256i *)(buf + 8), c1);
				memcpy(o, buf, sizeof(int32_t) * (size_t)n);
			}
		}
	}
}

/* See mp_gemm.h: 0 when the taps are too many or the scratch buffer
 * cannot be had (the caller then runs the scalar form). */
int mp_batched_rows__avx2(const mp_batched_args *x, long lo, long hi)
{
	ptrdiff_t oa[MP_BATCHED_MAX_TAPS], ob[MP_BATCHED_MAX_TAPS];
	long dd[MP_BATCHED_MAX_TAPS][MP_MAX_KDIMS], least[MP_MAX_PAD];
	const long T = mp_batched_taps(x, oa, ob, dd, least);
	if (!T)
		return 0;
	const long G = x->G, P = (T + 1) / 2, nblk = (G + 15) / 16;
	const __m256i vza = _mm256_set1_epi16((short)x->za), vzb = _mm256_set1_epi16((short)x->zb);
	/* B's taps as int16 less zb, pairs (t, t+1) interleaved per channel
	   as A's will be: per 16-channel block, per pair, (lo, hi) */
	__m256i *bq = mp_scratch(MP_SCR_VEC, sizeof(__m256i) * 2 * (size_t)(nblk * P));
	if (!bq)
		return 0;
	for (long blk = 0; blk < nblk; blk++) {
		long g = blk * 16, n = G - g >= 16 ? 16 : G - g;
		for (long p = 0; p < P; p++) {
			__m256i b0 = mp_ld16((const char *)x->b + ob[2 * p] + g, n, x->b_dt, vzb);
			__m256i b1 = 2 * p + 1 < T
				? mp_ld16((const char *)x->b + ob[2 * p + 1] + g, n, x->b_dt, vzb)
				: _mm256_setzero_si256();
			_mm256_store_si256(&bq[(blk * P + p) * 2], _mm256_unpacklo_epi16(b0, b1));
			_mm256_store_si256(&bq[(blk * P + p) * 2 + 1], _mm256_unpackhi_epi16(b0, b1));
		}
	}
	int32_t padv = mp_batched_padv(x);
	const __m256i vpad = _mm256_set1_epi16((short)(padv - x->za));

	for (long i = lo; i < hi; i += 4) {
		int rows = hi - i < 4 ? (int)(hi - i) : 4;
		uint64_t in[4] = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0};
		for (int r = 0; r < rows && x->pad; r++)   /* the taps inside, per row */
			in[r] = mp_batched_row_in(x, i + r, T, (const long (*)[MP_MAX_KDIMS])dd, least);
		switch (rows) {
		case 4: mp_rows2(x, i, 4, T, oa, bq, in, vza, vpad); break;
		case 3: mp_rows2(x, i, 3, T, oa, bq, in, vza, vpad); break;
		case 2: mp_rows2(x, i, 2, T, oa, bq, in, vza, vpad); break;
		default: mp_rows2(x, i, 1, T, oa, bq, in, vza, vpad); break;
		}
	}
	return 1;
}
