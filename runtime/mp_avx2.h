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
#endif
