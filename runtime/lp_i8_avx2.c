/* lp_i8_avx2.c -- the INT8 / UINT8 packers of mp_gemm_lp on CPUs without
 * AVX512-VNNI (the avx2 int8 family: int16 elements, K-groups of 2).
 *
 * Float sources at int8 spent most of their time in lp.c's generic
 * packers, one float division and one double rounding per element: a
 * 128x1024x1024 dense layer took 33 ms at int8 against 7.6 ms at bf16
 * (bench_threads on an AVX2 EPYC), the integer kernel itself 5%.  Here
 * eight elements of a row of A (or a column of B) contiguous in k are
 * quantized at once, with the reference's operations (lp.c): x - offset
 * in float, x / scale in float (vdivps rounds as divss), clamped to
 * +-127 (+-255 for UINT8's A) and rounded to nearest even explicitly
 * (vroundps, whatever the caller's MXCSR), so the packed values are those
 * of mp_lp_i8_pack_*_generic bit for bit; the generic packers take the
 * other cases (double sources, strided operands).
 * Layout (mp_gemm.h, esz 2, kg 2): element k of row r of sliver s at
 * int16 s*kp*mr + (k/2)*mr*2 + r*2 + k%2, so each pair of k is one int32
 * word, mr words apart. */
#include <immintrin.h>
#include <string.h>
#include "lp.h"
#include "lp_int.h"
#include "mp_gemm.h"

/* Eight elements at p (the first n valid, n may be <= 0; the others 0, not
 * loaded) minus the offset o when hz: as mp_lp_ldf. */
static inline __m256 mp_lq_ld8(const float *p, long n, int hz, __m256 o)
{
	__m256 v;
	if (n >= 8) {
		v = _mm256_loadu_ps(p);
	} else {
		float buf[8] = {0};
		if (n > 0)
			memcpy(buf, p, sizeof(float) * (size_t)n);
		v = _mm256_loadu_ps(buf);
	}
	return hz ? _mm256_sub_ps(v, o) : v;
}

/* Lanes below n (n may be <= 0 or >= 8) all ones, the others 0. */
static inline __m256i mp_lq_live(long n)
{
	const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	int c = n < 0 ? 0 : n > 8 ? 8 : (int)n;
	return _mm256_cmpgt_epi32(_mm256_set1_epi32(c), idx);
}

/* clamp(rne(x / s), -lim, lim) as int32 (exact: integral and in range). */
static inline __m256i mp_lq_q(__m256 x, __m256 s, float lim)
{
	__m256 y = _mm256_div_ps(x, s);
	y = _mm256_min_ps(_mm256_max_ps(y, _mm256_set1_ps(-lim)), _mm256_set1_ps(lim));
	y = _mm256_round_ps(y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
	return _mm256_cvttps_epi32(y);
}

/* Stores the eight int32 values q (in int16 range) of elements k .. k+7 of
 * one row as four pair words at d[(k/2 + g) * mr], those below kp. */
static inline void mp_lq_store(int32_t *d, long k, long kp, int mr, __m256i q)
{
	__m128i p = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
	int32_t w[4];
	_mm_storeu_si128((__m128i *)w, p);
	long ng = (kp - k) / 2 < 4 ? (kp - k) / 2 : 4;
	for (long g = 0; g < ng; g++)
		d[(k / 2 + g) * mr] = w[g];
}

/* mp_lp_pack_fn for A (see lp_int.h): as mp_lp_i8_pack_a_generic. */
static void mp_lp_i8_pack_a__avx2(const mp_lp_ctx *x, int mr, int kg, int esz, long i0, long mc,
				  long k0, long kc, long kp, void *ap, int32_t *rcorr)
{
	if (x->dbl || x->a_sk != 1 || kg != 2 || esz != 2) {
		mp_lp_i8_pack_a_generic(x, mr, kg, esz, i0, mc, k0, kc, kp, ap, rcorr);
		return;
	}
	const int u8 = x->lp == MP_LP_UINT8;
	const int hz = mp_f64_bits(x->oa) != 0;
	const __m256 ov = _mm256_set1_ps((float)x->oa);
	const __m256i off = _mm256_set1_epi32(128);
	long nsl = (mc + mr - 1) / mr;
	for (long s = 0; s < nsl; s++)
		for (int r = 0; r < mr; r++) {
			long i = s * mr + r;
			int32_t *d = (int32_t *)((int16_t *)ap + s * kp * mr) + r;
			if (i >= mc) {
				for (long g = 0; g < kp / 2; g++)
					d[g * mr] = 0;
				continue;
			}
			rcorr[i] = 0;
			const float *row = (const float *)x->a + (i0 + i) * x->a_si + k0;
			const __m256 sv = _mm256_set1_ps(x->fa_f[i0 + i]);
			const __m256i zv = _mm256_set1_epi32(u8 ? x->za[i0 + i] : 0);
			for (long k = 0; k < kp; k += 8) {
				__m256 v = mp_lq_ld8(row + k, kc - k, hz, ov);
				__m256i q;
				if (u8) {
					q = _mm256_add_epi32(mp_lq_q(v, sv, 255.0f), zv);
					q = _mm256_min_epi32(_mm256_max_epi32(q, _mm256_setzero_si256()),
							     _mm256_set1_epi32(255));
				} else {
					q = _mm256_add_epi32(mp_lq_q(v, sv, 127.0f), off);
				}
				/* padding (beyond kc) is 0 */
				mp_lq_store(d, k, kp, mr, _mm256_and_si256(q, mp_lq_live(kc - k)));
			}
		}
}

/* mp_lp_pack_fn for B (see lp_int.h): as mp_lp_i8_pack_b_generic. */
static void mp_lp_i8_pack_b__avx2(const mp_lp_ctx *x, int nr, int kg, int esz, long j0, long nc,
				  long k0, long kc, long kp, void *bp, int32_t *ccorr)
{
	if (x->dbl || x->b_sk != 1 || kg != 2 || esz != 2) {
		mp_lp_i8_pack_b_generic(x, nr, kg, esz, j0, nc, k0, kc, kp, bp, ccorr);
		return;
	}
	const int32_t cm = mp_lp_ccorr_mul(x);
	const int hz = mp_f64_bits(x->ob) != 0;
	const __m256 ov = _mm256_set1_ps((float)x->ob);
	long nsl = (nc + nr - 1) / nr;
	for (long s = 0; s < nsl; s++)
		for (int r = 0; r < nr; r++) {
			long j = s * nr + r;
			int32_t *d = (int32_t *)((int16_t *)bp + s * kp * nr) + r;
			if (j >= nc) {
				for (long g = 0; g < kp / 2; g++)
					d[g * nr] = 0;
				ccorr[j] = 0;
				continue;
			}
			const float *col = (const float *)x->b + (j0 + j) * x->b_sj + k0;
			const __m256 sv = _mm256_set1_ps(x->fb_f[j0 + j]);
			__m256i sum = _mm256_setzero_si256();
			for (long k = 0; k < kp; k += 8) {
				__m256 v = mp_lq_ld8(col + k, kc - k, hz, ov);
				__m256i q = _mm256_and_si256(mp_lq_q(v, sv, 127.0f), mp_lq_live(kc - k));
				sum = _mm256_add_epi32(sum, q);
				mp_lq_store(d, k, kp, nr, q);
			}
			__m128i h = _mm_add_epi32(_mm256_castsi256_si128(sum),
						  _mm256_extracti128_si256(sum, 1));
			h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4e));
			h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xb1));
			ccorr[j] = cm * _mm_cvtsi128_si32(h);
		}
}

/* See lp.h. */
void mp_lp_i8_run__avx2(const mp_lp_ctx *x)
{
	mp_lp_i8_driver(x, &mp_x8_gemm_kernel__avx2, mp_lp_i8_pack_a__avx2, mp_lp_i8_pack_b__avx2,
			mp_lp_epilogue_generic);
}
