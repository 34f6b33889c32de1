/* groups_avx2.c -- int32 sums per group of a matrix-vector product
 * (mp_gemm_x8_groups, mp_gemm.h) on AVX2, for CPUs without AVX512-VNNI:
 *
 *   t[i*G + g] = sum_k A[i*a_si + g*a_sg + k] * b[g*b_sg + k]    (k < K)
 *
 * as groups_avx512vnni.c computes it, with the bytes widened to int16
 * instead of the sign trick: b once per call into a scratch buffer (K
 * rounded up to 16 per group, zeros after K), each row's group as it is
 * loaded (vpmovsxbw / vpmovzxbw), vpmaddwd and vpaddd, then one horizontal
 * sum per row and group (four rows reduced together).  Any signedness (u8
 * x u8 too).  Exact modulo 2^32: a product fits 16 bits, a pair's sum 17,
 * and the int32 additions wrap as the source's do; the order of the
 * additions differs from the loop's, which integer sums do not see. */
#include <immintrin.h>
#include <string.h>
#include "mp_gemm.h"
#include "mp_avx2.h"
#include "mp_runtime.h"

/* See mp_gemm.h.  0 (nothing done) when the scratch buffer cannot be had. */
int mp_x8_dot_groups__avx2(long M, long K, long G, const void *a, int a_dt, ptrdiff_t a_si,
			   ptrdiff_t a_sg, const void *b, int b_dt, ptrdiff_t b_sg, int32_t *t)
{
	const uint8_t *ua = a, *ub = b;
	const long KP = (K + 15) / 16;   /* 16-element steps per group */
	__m256i *bw = mp_scratch(MP_SCR_VEC, sizeof(__m256i) * (size_t)(G * KP));
	if (!bw)
		return 0;
	for (long g = 0; g < G; g++)
		for (long s = 0; s < KP; s++)
			_mm256_store_si256(&bw[g * KP + s], mp_avx2_w16(ub + g * b_sg + 16 * s,
								   K - 16 * s, b_dt));
	long i = 0;
	for (; i + 4 <= M; i += 4) {
		const uint8_t *r0 = ua + i * a_si, *r1 = r0 + a_si, *r2 = r1 + a_si,
			      *r3 = r2 + a_si;
		for (long g = 0; g < G; g++) {
			__m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
			const ptrdiff_t o = g * a_sg;
			for (long s = 0; s < KP; s++) {
				const __m256i vb = _mm256_load_si256(&bw[g * KP + s]);
				const long n = K - 16 * s;
				s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(mp_avx2_w16(r0 + o + 16 * s, n, a_dt), vb));
				s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(mp_avx2_w16(r1 + o + 16 * s, n, a_dt), vb));
				s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(mp_avx2_w16(r2 + o + 16 * s, n, a_dt), vb));
				s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(mp_avx2_w16(r3 + o + 16 * s, n, a_dt), vb));
			}
			int32_t v[4];
			_mm_storeu_si128((__m128i *)v, mp_avx2_sum4(s0, s1, s2, s3));
			t[(i + 0) * G + g] = v[0];
			t[(i + 1) * G + g] = v[1];
			t[(i + 2) * G + g] = v[2];
			t[(i + 3) * G + g] = v[3];
		}
	}
	for (; i < M; i++) {
		const uint8_t *r0 = ua + i * a_si;
		for (long g = 0; g < G; g++) {
			__m256i s0 = _mm256_setzero_si256();
			for (long s = 0; s < KP; s++)
				s0 = _mm256_add_epi32(
					s0, _mm256_madd_epi16(mp_avx2_w16(r0 + g * a_sg + 16 * s, K - 16 * s,
								     a_dt),
							      _mm256_load_si256(&bw[g * KP + s])));
			int32_t v[4];
			_mm_storeu_si128((__m128i *)v, mp_avx2_sum4(s0, s0, s0, s0));
			t[i * G + g] = v[0];
		}
	}
	return 1;
}
