/* lp_avx512vnni.c -- the INT8 and UINT8 paths of mp_gemm_lp on the
 * avx512vnni int8 tiles (mp_x8_gemm_kernel__avx512vnni, 8x32c4): quantizing
 * packers for float sources (A contiguous in k or in i, symmetric s8 + 128 or
 * asymmetric u8 with the row's zero point; row-major or column-major B) and
 * a vector dequantizing epilogue (UINT8's zero-point correction, steps,
 * alpha); other layouts and double sources go through the generic packers
 * of lp.c.  Results equal the generic path bit for bit (same offset
 * subtraction, same divisions, same rounding, same double epilogue in the
 * same order).
 * Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512vnni
 * -ffp-contract=off (a fused multiply-add in the epilogue would round
 * differently from lp.c's): call only after
 * mp_kernel_available(MP_KERNEL_AVX512VNNI).  Also lp.c's scan of float
 * and double operands (maxima and the NaN / Inf test) with AVX-512F, for
 * every precision. */
#include <immintrin.h>
#include <stdlib.h>
#include <string.h>
#include "lp_int.h"
#include "mp_avx512.h"

/* 16 floats at p (lanes outside m: 0) minus the operand's offset o
 * (hz: the offset is not +0), as mp_lp_ldf: one float subtraction per
 * element; lanes outside m stay 0, like the loads' padding. */
static inline __m512 mp_lp_ld_v(__mmask16 m, const float *p, int hz, __m512 o)
{
	__m512 v = _mm512_maskz_loadu_ps(m, p);
	return hz ? _mm512_maskz_sub_ps(m, v, o) : v;
}

/* q = clamp(rne(x / s), -127, 127) on 16 lanes (y clamped before the
 * conversion, which then is exact). */
static inline __m512i mp_q8_v(__m512 x, __m512 s)
{
	__m512 y = _mm512_div_ps(x, s);
	y = _mm512_min_ps(_mm512_max_ps(y, _mm512_set1_ps(-127.0f)), _mm512_set1_ps(127.0f));
	return _mm512_cvt_roundps_epi32(y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

/* UINT8: q = clamp(rne(x / s) + za, 0, 255) on 16 lanes (mp_u8_round: y
 * clamped to +-255 first, which saturates alike whatever za is). */
static inline __m512i mp_qu8_v(__m512 x, __m512 s, __m512i za)
{
	__m512 y = _mm512_div_ps(x, s);
	y = _mm512_min_ps(_mm512_max_ps(y, _mm512_set1_ps(-255.0f)), _mm512_set1_ps(255.0f));
	__m512i q = _mm512_cvt_roundps_epi32(y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
	q = _mm512_add_epi32(q, za);
	return _mm512_min_epi32(_mm512_max_epi32(q, _mm512_setzero_si512()), _mm512_set1_epi32(255));
}

static void mp_lp_i8_pack_a__avx512vnni(const mp_lp_ctx *x, int mr, int kg, int esz, long i0,
					long mc, long k0, long kc, long kp, void *ap,
					int32_t *rcorr)
{
	if (x->dbl || (x->a_sk != 1 && x->a_si != 1) || mr != 8 || kg != 4 || esz != 1) {
		mp_lp_i8_pack_a_generic(x, mr, kg, esz, i0, mc, k0, kc, kp, ap, rcorr);
		return;
	}
	const __m512i off = _mm512_set1_epi32(128);
	const int u8 = x->lp == MP_LP_UINT8;
	const int hz = mp_f64_bits(x->oa) != 0;
	const __m512 ov = _mm512_set1_ps((float)x->oa);
	long nsl = (mc + 7) / 8;
	if (x->a_sk != 1) {
		/* rows contiguous in i (A read by its columns): the sliver's 8
		   rows at k are one vector load, each row with its own scale
		   (and zero point); four k interleaved to the c4 layout (row r's
		   bytes at g*32 + r*4); rows past mc and k past kc are 0, as
		   below (element by element this packer took 15x the loop's
		   time on a 512 x 512 matrix-vector product) */
		for (long s = 0; s < nsl; s++) {
			uint8_t *dst = (uint8_t *)ap + s * kp * 8;
			long rows = mc - s * 8;
			rows = rows > 8 ? 8 : rows;
			__mmask16 rm = (__mmask16)((1u << rows) - 1);
			const float *col = (const float *)x->a + i0 + s * 8 + k0 * x->a_sk;
			const __m512 sv = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), rm,
							       x->fa_f + i0 + s * 8);
			const __m512i zv = u8 ? _mm512_maskz_loadu_epi32(rm, x->za + i0 + s * 8)
					      : _mm512_setzero_si512();
			for (long r = 0; r < rows; r++)
				rcorr[s * 8 + r] = 0;
			for (long g = 0; g < kp / 4; g++) {
				__m128i b[4];
				for (int u = 0; u < 4; u++) {
					long k = g * 4 + u;
					__m512i q = _mm512_setzero_si512();
					if (k < kc) {
						__m512 v = mp_lp_ld_v(rm, col + k * x->a_sk, hz, ov);
						q = u8 ? _mm512_maskz_mov_epi32(rm, mp_qu8_v(v, sv, zv))
						       : _mm512_maskz_add_epi32(rm, mp_q8_v(v, sv), off);
					}
					b[u] = _mm512_cvtepi32_epi8(q);
				}
				_mm256_storeu_si256((__m256i *)(dst + g * 32),
						    _mm512_castsi512_si256(mp_interleave4x16(b[0], b[1], b[2], b[3])));
			}
		}
		return;
	}
	for (long s = 0; s < nsl; s++) {
		uint8_t *dst = (uint8_t *)ap + s * kp * 8;
		for (int r = 0; r < 8; r++) {
			long i = s * 8 + r;
			uint8_t *d = dst + r * 4;
			if (i >= mc) {
				for (long g = 0; g < kp / 4; g++)
					memset(d + g * 32, 0, 4);
				continue;
			}
			rcorr[i] = 0;
			const float *row = (const float *)x->a + (i0 + i) * x->a_si + k0;
			const __m512 sv = _mm512_set1_ps(x->fa_f[i0 + i]);
			const __m512i zv = _mm512_set1_epi32(u8 ? x->za[i0 + i] : 0);
			for (long k = 0; k < kp; k += 16) {
				long rem = kc - k;
				__mmask16 m = rem >= 16 ? 0xffff : rem <= 0 ? 0 : (__mmask16)((1u << rem) - 1);
				__m512 v = mp_lp_ld_v(m, row + k, hz, ov);
				/* padding (beyond kc) is 0 */
				__m512i q = u8 ? _mm512_maskz_mov_epi32(m, mp_qu8_v(v, sv, zv))
					       : _mm512_maskz_add_epi32(m, mp_q8_v(v, sv), off);
				uint32_t w[4];
				_mm_storeu_si128((__m128i *)w, _mm512_cvtepi32_epi8(q));
				long ng = (kp - k) / 4 < 4 ? (kp - k) / 4 : 4;
				for (long g = 0; g < ng; g++)
					memcpy(d + (k / 4 + g) * 32, &w[g], 4);
			}
		}
	}
}


static void mp_lp_i8_pack_b__avx512vnni(const mp_lp_ctx *x, int nr, int kg, int esz, long j0,
					long nc, long k0, long kc, long kp, void *bp,
					int32_t *ccorr)
{
	if (x->dbl || (x->b_sj != 1 && x->b_sk != 1) || nr != 32 || kg != 4 || esz != 1) {
		mp_lp_i8_pack_b_generic(x, nr, kg, esz, j0, nc, k0, kc, kp, bp, ccorr);
		return;
	}
	const float *b = (const float *)x->b;
	const int32_t cm = mp_lp_ccorr_mul(x);
	const int hz = mp_f64_bits(x->ob) != 0;
	const __m512 ov = _mm512_set1_ps((float)x->ob);
	long nsl = (nc + 31) / 32;
	if (x->b_sj == 1) {
		for (long s = 0; s < nsl; s++) {
			int8_t *dst = (int8_t *)bp + s * kp * 32;
			for (int v = 0; v < 2; v++) {
				long jv = s * 32 + 16 * v;
				long cols = nc - jv;
				cols = cols < 0 ? 0 : cols > 16 ? 16 : cols;
				__mmask16 m = (__mmask16)((1u << cols) - 1);
				__m512 sv = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, x->fb_f + j0 + jv);
				const float *col = b + (j0 + jv);
				__m512i sum = _mm512_setzero_si512();
				for (long g = 0; g < kp / 4; g++) {
					__m128i r[4];
					for (int u = 0; u < 4; u++) {
						long k = g * 4 + u;
						__m512i q = _mm512_setzero_si512();
						if (k < kc)
							q = mp_q8_v(mp_lp_ld_v(m, col + (k0 + k) * x->b_sk, hz, ov), sv);
						sum = _mm512_add_epi32(sum, q);
						r[u] = _mm512_cvtepi32_epi8(q);
					}
					_mm512_store_si512(dst + g * 128 + 64 * v, mp_interleave4x16(r[0], r[1], r[2], r[3]));
				}
				_mm512_storeu_si512(ccorr + s * 32 + 16 * v,
						    _mm512_mullo_epi32(sum, _mm512_set1_epi32(cm)));
			}
		}
		return;
	}
	/* b_sk == 1: each column contiguous in k */
	for (long s = 0; s < nsl; s++) {
		int8_t *dst = (int8_t *)bp + s * kp * 32;
		for (int r = 0; r < 32; r++) {
			long j = s * 32 + r;
			int8_t *d = dst + r * 4;
			if (j >= nc) {
				for (long g = 0; g < kp / 4; g++)
					memset(d + g * 128, 0, 4);
				ccorr[j] = 0;
				continue;
			}
			const float *col = b + (j0 + j) * x->b_sj + k0;
			const __m512 sv = _mm512_set1_ps(x->fb_f[j0 + j]);
			__m512i sum = _mm512_setzero_si512();
			for (long k = 0; k < kp; k += 16) {
				long rem = kc - k;
				__mmask16 m = rem >= 16 ? 0xffff : rem <= 0 ? 0 : (__mmask16)((1u << rem) - 1);
				__m512i q = _mm512_maskz_mov_epi32(m, mp_q8_v(mp_lp_ld_v(m, col + k, hz, ov), sv));
				sum = _mm512_add_epi32(sum, q);
				uint32_t w[4];
				_mm_storeu_si128((__m128i *)w, _mm512_cvtepi32_epi8(q));
				long ng = (kp - k) / 4 < 4 ? (kp - k) / 4 : 4;
				for (long g = 0; g < ng; g++)
					memcpy(d + (k / 4 + g) * 128, &w[g], 4);
			}
			ccorr[j] = cm * _mm512_reduce_add_epi32(sum);
		}
	}
}

/* The dequantizing epilogue on 8 lanes at a time in double (bit-identical
 * to mp_lp_epilogue_generic: the same operations in the same order) for
 * float outputs with c_sj == 1. */
static void mp_lp_i8_epi__avx512vnni(const mp_lp_ctx *x, const void *t, int is_i32, long ldt,
				     long i0, long j0, int mr, int nc)
{
	if (x->dbl || x->c_sj != 1 || !is_i32) {
		mp_lp_epilogue_generic(x, t, is_i32, ldt, i0, j0, mr, nc);
		return;
	}
	for (int r = 0; r < mr; r++) {
		const int32_t *tr = (const int32_t *)t + r * ldt;
		float *c = (float *)x->c + (i0 + r) * x->c_si + j0;
		const __m512d da = _mm512_set1_pd(x->da[i0 + r]);
		const __m512d al = _mm512_set1_pd(x->alpha);
		const __m512d z = _mm512_set1_pd(x->za ? (double)x->za[i0 + r] : 0.0);
		for (int j = 0; j < nc; j += 8) {
			int n = nc - j < 8 ? nc - j : 8;
			__mmask8 m = (__mmask8)((1u << n) - 1);
			__m512d v = _mm512_cvtepi32_pd(_mm256_maskz_loadu_epi32(m, tr + j));
			if (x->za) { /* exact: integers below 2^31 */
				const int32_t *cs = x->csum + (j0 + j - x->csum_j0);
				v = _mm512_sub_pd(v, _mm512_mul_pd(z, _mm512_cvtepi32_pd(
								  _mm256_maskz_loadu_epi32(m, cs))));
			}
			v = _mm512_mul_pd(_mm512_mul_pd(v, da), _mm512_maskz_loadu_pd(m, x->db + j0 + j));
			v = _mm512_mul_pd(v, al);
			if (x->accumulate)
				v = _mm512_add_pd(_mm512_cvtps_pd(_mm256_maskz_loadu_ps(m, c + j)), v);
			_mm256_mask_storeu_ps(c + j, m, _mm512_cvtpd_ps(v));
		}
	}
}

/* ---------------------------------------------- the scan (lp.c) */

/* max |X(t)| of T contiguous floats X(t) = p[t] - z (hz: z is not +0), as
 * bits (for non-negative floats their order is the values', as lp.c's
 * mp_lp_amax_f32_z); lanes outside the tail's mask read as 0. */
static inline uint32_t mp_lp_amax_row_f32(const float *p, long T, int hz, __m512 zv)
{
	const __m512i ab = _mm512_set1_epi32(0x7fffffff);
	__m512i m0 = _mm512_setzero_si512(), m1 = m0, m2 = m0, m3 = m0;
	long t = 0;
	if (!hz) { /* the common case: four independent chains */
		for (; t + 64 <= T; t += 64) {
			m0 = _mm512_max_epu32(m0, _mm512_and_si512(_mm512_loadu_si512(p + t), ab));
			m1 = _mm512_max_epu32(m1, _mm512_and_si512(_mm512_loadu_si512(p + t + 16), ab));
			m2 = _mm512_max_epu32(m2, _mm512_and_si512(_mm512_loadu_si512(p + t + 32), ab));
			m3 = _mm512_max_epu32(m3, _mm512_and_si512(_mm512_loadu_si512(p + t + 48), ab));
		}
	}
	for (; t < T; t += 16) {
		long rem = T - t;
		__mmask16 m = rem >= 16 ? 0xffff : (__mmask16)((1u << rem) - 1);
		__m512 v = mp_lp_ld_v(m, p + t, hz, zv);
		m0 = _mm512_max_epu32(m0, _mm512_and_si512(_mm512_castps_si512(v), ab));
	}
	m0 = _mm512_max_epu32(_mm512_max_epu32(m0, m1), _mm512_max_epu32(m2, m3));
	return (uint32_t)_mm512_reduce_max_epu32(m0);
}

/* See lp.h. */
int mp_lp_amax_f32__avx512(const float *p, long R, long T, ptrdiff_t sr, ptrdiff_t st, float z,
			   int hz, double *amax)
{
	const __m512 zv = _mm512_set1_ps(z);
	const __m512i ab = _mm512_set1_epi32(0x7fffffff);
	uint32_t all = 0;
	if (st == 1) {
		for (long r = 0; r < R; r++) {
			uint32_t m = mp_lp_amax_row_f32(p + r * sr, T, hz, zv);
			amax[r] = mp_f32_from_bits(m);
			all = m > all ? m : all;
		}
		return all >= 0x7f800000u;
	}
	/* sr == 1: 16 rows side by side, memory walked in order */
	for (long r0 = 0; r0 < R; r0 += 16) {
		long rem = R - r0;
		__mmask16 msk = rem >= 16 ? 0xffff : (__mmask16)((1u << rem) - 1);
		__m512i m = _mm512_setzero_si512();
		for (long t = 0; t < T; t++) {
			__m512 v = mp_lp_ld_v(msk, p + r0 + t * st, hz, zv);
			m = _mm512_max_epu32(m, _mm512_and_si512(_mm512_castps_si512(v), ab));
		}
		uint32_t w[16];
		_mm512_storeu_si512(w, m);
		for (long r = 0; r < 16 && r < rem; r++) {
			amax[r0 + r] = mp_f32_from_bits(w[r]);
			all = w[r] > all ? w[r] : all;
		}
	}
	return all >= 0x7f800000u;
}

/* 8 doubles at p (lanes outside m: 0) minus z (hz), as mp_lp_ldd. */
static inline __m512i mp_lp_ld_abs_pd(__mmask8 m, const double *p, int hz, __m512d zv)
{
	__m512d v = _mm512_maskz_loadu_pd(m, p);
	if (hz)
		v = _mm512_maskz_sub_pd(m, v, zv);
	return _mm512_and_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(0x7fffffffffffffffll));
}

/* See lp.h. */
int mp_lp_amax_f64__avx512(const double *p, long R, long T, ptrdiff_t sr, ptrdiff_t st,
			   double z, int hz, double *amax)
{
	const __m512d zv = _mm512_set1_pd(z);
	uint64_t all = 0;
	if (st == 1) {
		for (long r = 0; r < R; r++) {
			const double *q = p + r * sr;
			__m512i m0 = _mm512_setzero_si512(), m1 = m0;
			long t = 0;
			for (; t + 16 <= T; t += 16) {
				m0 = _mm512_max_epu64(m0, mp_lp_ld_abs_pd(0xff, q + t, hz, zv));
				m1 = _mm512_max_epu64(m1, mp_lp_ld_abs_pd(0xff, q + t + 8, hz, zv));
			}
			for (; t < T; t += 8) {
				long rem = T - t;
				__mmask8 mk = rem >= 8 ? 0xff : (__mmask8)((1u << rem) - 1);
				m0 = _mm512_max_epu64(m0, mp_lp_ld_abs_pd(mk, q + t, hz, zv));
			}
			uint64_t m = (uint64_t)_mm512_reduce_max_epu64(_mm512_max_epu64(m0, m1));
			amax[r] = mp_f64_from_bits(m);
			all = m > all ? m : all;
		}
		return all >= 0x7ff0000000000000ull;
	}
	/* sr == 1: 8 rows side by side */
	for (long r0 = 0; r0 < R; r0 += 8) {
		long rem = R - r0;
		__mmask8 msk = rem >= 8 ? 0xff : (__mmask8)((1u << rem) - 1);
		__m512i m = _mm512_setzero_si512();
		for (long t = 0; t < T; t++)
			m = _mm512_max_epu64(m, mp_lp_ld_abs_pd(msk, p + r0 + t * st, hz, zv));
		uint64_t w[8];
		_mm512_storeu_si512(w, m);
		for (long r = 0; r < 8 && r < rem; r++) {
			amax[r0 + r] = mp_f64_from_bits(w[r]);
			all = w[r] > all ? w[r] : all;
		}
	}
	return all >= 0x7ff0000000000000ull;
}

/* See lp.h. */
void mp_lp_i8_run__avx512vnni(const mp_lp_ctx *x)
{
	mp_lp_i8_driver(x, &mp_x8_gemm_kernel__avx512vnni, mp_lp_i8_pack_a__avx512vnni,
			mp_lp_i8_pack_b__avx512vnni, mp_lp_i8_epi__avx512vnni);
}
