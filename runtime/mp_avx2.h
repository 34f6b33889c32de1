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
/* The 8 x 8 transpose of dwords: o[t] holds dword t of w[0..7], in order. */
static inline void mp_avx2_transpose8(const __m256i w[8], __m256i o[8])
{
	__m256i t[8], u[8];
	for (int r = 0; r < 8; r += 2) {
		t[r] = _mm256_unpacklo_epi32(w[r], w[r + 1]);
		t[r + 1] = _mm256_unpackhi_epi32(w[r], w[r + 1]);
	}
	for (int r = 0; r < 8; r += 4) {
		u[r] = _mm256_unpacklo_epi64(t[r], t[r + 2]);
		u[r + 1] = _mm256_unpackhi_epi64(t[r], t[r + 2]);
		u[r + 2] = _mm256_unpacklo_epi64(t[r + 1], t[r + 3]);
		u[r + 3] = _mm256_unpackhi_epi64(t[r + 1], t[r + 3]);
	}
	for (int q = 0; q < 4; q++) {
		o[q] = _mm256_permute2x128_si256(u[q], u[q + 4], 0x20);
		o[q + 4] = _mm256_permute2x128_si256(u[q], u[q + 4], 0x31);
	}
}
#endif
