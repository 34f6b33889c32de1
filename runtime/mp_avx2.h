/* mp_avx2.h -- helpers shared by the runtime's AVX2 files (compiled with
 * -mavx2; include only from those). */
#ifndef MP_AVX2_H
#define MP_AVX2_H
#include <immintrin.h>
#include <string.h>
#include "mp_gemm.h"

/* 16 bytes at p (n of them valid: the rest read as 0, never loaded) as
 * int16, widened as type dt (MP_DT_U8 or MP_DT_S8) reads them. */
static inline __m256i mp_avx2_w16(const void *p, long n, int dt)
{
	__m128i v;
	if (n >= 16) {
		v = _mm_loadu_si128((const __m128i *)p);
	} else {
		unsigned char buf[16] = {0};
		memcpy(buf, p, (size_t)n);
		v = _mm_loadu_si128((const __m128i *)buf);
	}
	return dt == MP_DT_U8 ? _mm256_cvtepu8_epi16(v) : _mm256_cvtepi8_epi16(v);
}

/* The four sums of s0..s3's dwords, in order. */
static inline __m128i mp_avx2_sum4(__m256i s0, __m256i s1, __m256i s2, __m256i s3)
{
	__m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
	return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}
#endif
