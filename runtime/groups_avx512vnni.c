/* groups_avx512vnni.c -- int32 sums per group of a matrix-vector product
 * (mp_gemm_x8_groups, mp_gemm.h) on AVX512-VNNI: block-quantized code
 * sums each group of K elements of a row of A with the same group of the
 * vector b, then scales the sum by the group's scales:
 *
 *   t[i*G + g] = sum_k A[i*a_si + g*a_sg + k] * b[g*b_sg + k]    (k < K)
 *
 * Both operands are contiguous in k, so no packing: each group is one
 * masked 64-byte load of A's row and of b per 64 elements, one vpdpbusd,
 * and a horizontal sum.  vpdpbusd multiplies unsigned by signed bytes:
 * u8 x s8 runs as is (s8 x u8 swapped); s8 x s8 flips A's sign bit
 * (a + 128, unsigned) and subtracts 128 * sum_k b per group, computed once
 * for all rows.  Exact modulo 2^32 (each product fits 16 bits, the dword
 * sums wrap as the source's int32 arithmetic does).  Four rows share each
 * load of b. */
#include <immintrin.h>
#include <stdlib.h>
#include "mp_gemm.h"

static inline __mmask64 mp_mask(long left)
{
	return left >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << left) - 1);
}

/* Four rows' dword sums s0..s3 reduced within each 128-bit lane: lane L
 * of the result holds (row 0, row 1, row 2, row 3), each the sum of that
 * row's four dwords of lane L (pairwise adds, no horizontal instruction). */
static inline __m512i mp_rows4(__m512i s0, __m512i s1, __m512i s2, __m512i s3)
{
	__m512i p01 = _mm512_add_epi32(_mm512_unpacklo_epi32(s0, s1),
				       _mm512_unpackhi_epi32(s0, s1));
	__m512i p23 = _mm512_add_epi32(_mm512_unpacklo_epi32(s2, s3),
				       _mm512_unpackhi_epi32(s2, s3));
	return _mm512_add_epi32(_mm512_unpacklo_epi64(p01, p23), _mm512_unpackhi_epi64(p01, p23));
}

/* The sum of two 128-bit lanes of a 256-bit half. */
static inline __m128i mp_lanes2(__m256i h)
{
	return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

int mp_x8_dot_groups__avx512vnni(long M, long K, long G, const void *a, int a_dt,
				 ptrdiff_t a_si, ptrdiff_t a_sg, const void *b, int b_dt,
				 ptrdiff_t b_sg, int32_t *t)
{
	const uint8_t *ua = a, *ub = b;
	int flip = a_dt == MP_DT_S8 && b_dt == MP_DT_S8;
	int swap = a_dt == MP_DT_S8 && b_dt == MP_DT_U8;
	int32_t *corr = NULL;
	const __m512i x80 = _mm512_set1_epi8((char)0x80);

	if (a_dt == MP_DT_U8 && b_dt == MP_DT_U8)
		return 0;   /* no sign trick for two unsigned operands here */
	if (flip) {
		corr = malloc(sizeof(int32_t) * (size_t)G);
		if (!corr)
			return 0;
		for (long g = 0; g < G; g++) {
			__m512i s = _mm512_setzero_si512();
			for (long k = 0; k < K; k += 64) {
				__m512i vb = _mm512_maskz_loadu_epi8(mp_mask(K - k), ub + g * b_sg + k);
				s = _mm512_dpbusd_epi32(s, x80, vb);   /* 128 * b */
			}
			corr[g] = _mm512_reduce_add_epi32(s);
		}
	}
	long i = 0;
	/* groups of 32 one after the other (GS 32, llama2.c's and ggml's
	   Q8_0 block): two groups per 64-byte load */
	if (K == 32 && a_sg == 32 && b_sg == 32 && !swap)
		for (; i + 4 <= M; i += 4) {
			const uint8_t *r0 = ua + i * a_si, *r1 = r0 + a_si, *r2 = r1 + a_si,
				      *r3 = r2 + a_si;
			long g = 0;
			for (; g + 2 <= G; g += 2) {
				__m512i vb = _mm512_loadu_si512(ub + g * 32);
				__m512i v0 = _mm512_loadu_si512(r0 + g * 32);
				__m512i v1 = _mm512_loadu_si512(r1 + g * 32);
				__m512i v2 = _mm512_loadu_si512(r2 + g * 32);
				__m512i v3 = _mm512_loadu_si512(r3 + g * 32);
				if (flip) {
					v0 = _mm512_xor_si512(v0, x80);
					v1 = _mm512_xor_si512(v1, x80);
					v2 = _mm512_xor_si512(v2, x80);
					v3 = _mm512_xor_si512(v3, x80);
				}
				__m512i z = _mm512_setzero_si512();
				__m512i s0 = _mm512_dpbusd_epi32(z, v0, vb);
				__m512i s1 = _mm512_dpbusd_epi32(z, v1, vb);
				__m512i s2 = _mm512_dpbusd_epi32(z, v2, vb);
				__m512i s3 = _mm512_dpbusd_epi32(z, v3, vb);
				/* 128-bit lanes 0-1: group g, 2-3: group g + 1; in each
				   the rows 0..3 */
				__m512i q = mp_rows4(s0, s1, s2, s3);
				__m128i r_g = mp_lanes2(_mm512_castsi512_si256(q));
				__m128i r_h = mp_lanes2(_mm512_extracti64x4_epi64(q, 1));
				if (flip) {
					r_g = _mm_sub_epi32(r_g, _mm_set1_epi32(corr[g]));
					r_h = _mm_sub_epi32(r_h, _mm_set1_epi32(corr[g + 1]));
				}
				int32_t og[4], oh[4];
				_mm_storeu_si128((__m128i *)og, r_g);
				_mm_storeu_si128((__m128i *)oh, r_h);
				for (int r = 0; r < 4; r++) {
					t[(i + r) * G + g] = og[r];
					t[(i + r) * G + g + 1] = oh[r];
				}
			}
			for (; g < G; g++) {
				const __mmask64 m = mp_mask(32);
				__m512i vb = _mm512_maskz_loadu_epi8(m, ub + g * 32);
				const uint8_t *rr[4] = { r0, r1, r2, r3 };
				for (int r = 0; r < 4; r++) {
					__m512i v = _mm512_maskz_loadu_epi8(m, rr[r] + g * 32);
					if (flip)
						v = _mm512_xor_si512(v, x80);
					__m512i sr = _mm512_dpbusd_epi32(_mm512_setzero_si512(), v, vb);
					t[(i + r) * G + g] = (int32_t)((uint32_t)_mm512_reduce_add_epi32(sr) -
								       (uint32_t)(flip ? corr[g] : 0));
				}
			}
		}
	for (; i + 4 <= M; i += 4) {
		const uint8_t *r0 = ua + i * a_si, *r1 = r0 + a_si, *r2 = r1 + a_si, *r3 = r2 + a_si;
		for (long g = 0; g < G; g++) {
			__m512i s0 = _mm512_setzero_si512(), s1 = s0, s2 = s0, s3 = s0;
			const uint8_t *pb = ub + g * b_sg;
			ptrdiff_t og = g * a_sg;
			for (long k = 0; k < K; k += 64) {
				__mmask64 m = mp_mask(K - k);
				__m512i vb = _mm512_maskz_loadu_epi8(m, pb + k);
				__m512i v0 = _mm512_maskz_loadu_epi8(m, r0 + og + k);
				__m512i v1 = _mm512_maskz_loadu_epi8(m, r1 + og + k);
				__m512i v2 = _mm512_maskz_loadu_epi8(m, r2 + og + k);
				__m512i v3 = _mm512_maskz_loadu_epi8(m, r3 + og + k);
				if (swap) {
					s0 = _mm512_dpbusd_epi32(s0, vb, v0);
					s1 = _mm512_dpbusd_epi32(s1, vb, v1);
					s2 = _mm512_dpbusd_epi32(s2, vb, v2);
					s3 = _mm512_dpbusd_epi32(s3, vb, v3);
				} else {
					if (flip) {
						/* masked lanes: 0x80 times b's 0 */
						v0 = _mm512_xor_si512(v0, x80);
						v1 = _mm512_xor_si512(v1, x80);
						v2 = _mm512_xor_si512(v2, x80);
						v3 = _mm512_xor_si512(v3, x80);
					}
					s0 = _mm512_dpbusd_epi32(s0, v0, vb);
					s1 = _mm512_dpbusd_epi32(s1, v1, vb);
					s2 = _mm512_dpbusd_epi32(s2, v2, vb);
					s3 = _mm512_dpbusd_epi32(s3, v3, vb);
				}
			}
			/* the four sums at once: the four lanes of each row added */
			__m512i q = mp_rows4(s0, s1, s2, s3);
			__m128i r = mp_lanes2(_mm256_add_epi32(_mm512_castsi512_si256(q),
							       _mm512_extracti64x4_epi64(q, 1)));
			int32_t out[4];
			_mm_storeu_si128((__m128i *)out, r);
			int32_t c = flip ? corr[g] : 0;
			t[(i + 0) * G + g] = (int32_t)((uint32_t)out[0] - (uint32_t)c);
			t[(i + 1) * G + g] = (int32_t)((uint32_t)out[1] - (uint32_t)c);
			t[(i + 2) * G + g] = (int32_t)((uint32_t)out[2] - (uint32_t)c);
			t[(i + 3) * G + g] = (int32_t)((uint32_t)out[3] - (uint32_t)c);
		}
	}
	for (; i < M; i++) {
		const uint8_t *r0 = ua + i * a_si;
		for (long g = 0; g < G; g++) {
			__m512i s0 = _mm512_setzero_si512();
			for (long k = 0; k < K; k += 64) {
				__mmask64 m = mp_mask(K - k);
				__m512i vb = _mm512_maskz_loadu_epi8(m, ub + g * b_sg + k);
				__m512i v0 = _mm512_maskz_loadu_epi8(m, r0 + g * a_sg + k);
				if (swap)
					s0 = _mm512_dpbusd_epi32(s0, vb, v0);
				else
					s0 = _mm512_dpbusd_epi32(s0, flip ? _mm512_xor_si512(v0, x80) : v0,
								 vb);
			}
			t[i * G + g] = (int32_t)((uint32_t)_mm512_reduce_add_epi32(s0) -
						 (uint32_t)(flip ? corr[g] : 0));
		}
	}
	free(corr);
	return 1;
}
