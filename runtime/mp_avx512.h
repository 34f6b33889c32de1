/* mp_avx512.h -- helpers shared by the runtime's AVX-512 files (compiled
 * with the AVX-512 flags; include only from those). */
#ifndef MP_AVX512_H
#define MP_AVX512_H
#include <immintrin.h>

/* Interleaves 16 columns of 4 rows (xmm bytes each) into the c4 layout:
 * column j gets bytes (r0[j], r1[j], r2[j], r3[j]). */
static inline __m512i mp_interleave4x16(__m128i r0, __m128i r1, __m128i r2, __m128i r3)
{
	__m128i t0 = _mm_unpacklo_epi8(r0, r1), t1 = _mm_unpackhi_epi8(r0, r1);
	__m128i t2 = _mm_unpacklo_epi8(r2, r3), t3 = _mm_unpackhi_epi8(r2, r3);
	__m512i z = _mm512_castsi128_si512(_mm_unpacklo_epi16(t0, t2));
	z = _mm512_inserti32x4(z, _mm_unpackhi_epi16(t0, t2), 1);
	z = _mm512_inserti32x4(z, _mm_unpacklo_epi16(t1, t3), 2);
	return _mm512_inserti32x4(z, _mm_unpackhi_epi16(t1, t3), 3);
}

#endif
