/* gemm_avx2.c -- AVX2 kernel family of mp_gemm_x8:
 * mp_x8_gemm_ukernel_6x16c2__avx2.  Exact: operands are packed widened to
 * int16 (a' in [0,255], b' in [-128,127]) in K-groups of 2 and multiplied
 * with vpmaddwd (no vpmaddubsw, whose int16 pair sums saturate).  The
 * matrix-vector paths (M == 1, N == 1) are in gemv_avx2.c.
 * Compiled with -mavx2 -mfma: call only after
 * mp_kernel_available(MP_KERNEL_AVX2). */
#include <immintrin.h>
#include <string.h>
#include "mp_gemm.h"

#define MP_MR 6
#define MP_NR 16
#define MP_KG 2

static void mp_x8_pack_a_6c2__avx2(const mp_gemm_args *g, long i0, long mc, long kp,
				   void *ap, int32_t *rcorr)
{
	mp_pack_a_generic(g, i0, mc, kp, ap, rcorr, MP_MR, MP_KG, 2);
}

static void mp_x8_pack_b_16c2__avx2(const mp_gemm_args *g, long j0, long nc, long kp,
				    void *bp, int32_t *ccorr)
{
	mp_pack_b_generic(g, j0, nc, kp, bp, ccorr, MP_NR, MP_KG, 2);
}

/* The register tile for mr rows (constant after inlining). */
static inline __attribute__((always_inline)) void
mp_x8_tile_16c2__avx2(const mp_gemm_args *g, long kgroups, const int16_t *a,
		      const int16_t *b, const int32_t *rcorr, const int32_t *ccorr,
		      long i0, long j0, int nc, const int mr)
{
	__m256i acc[MP_MR][2];
	__m256i cc0 = _mm256_loadu_si256((const __m256i *)ccorr);
	__m256i cc1 = _mm256_loadu_si256((const __m256i *)(ccorr + 8));
#pragma GCC unroll 8
	for (int r = 0; r < mr; r++) {
		__m256i rv = _mm256_set1_epi32(rcorr[r]);
		acc[r][0] = _mm256_sub_epi32(rv, cc0);
		acc[r][1] = _mm256_sub_epi32(rv, cc1);
	}
	for (long q = 0; q < kgroups; q++) {
		__m256i b0 = _mm256_load_si256((const __m256i *)b);
		__m256i b1 = _mm256_load_si256((const __m256i *)(b + 16));
#pragma GCC unroll 8
		for (int r = 0; r < mr; r++) {
			int32_t w;
			memcpy(&w, a + 2 * r, 4);
			__m256i av = _mm256_set1_epi32(w);
			acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(av, b0));
			acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(av, b1));
		}
		a += MP_MR * MP_KG;
		b += MP_NR * MP_KG;
	}
	if (!g->ep && g->c_sj == 1 && nc == MP_NR) {
		int32_t *c = g->c + i0 * g->c_si + j0;
#pragma GCC unroll 8
		for (int r = 0; r < mr; r++) {
			__m256i *cr = (__m256i *)(c + r * g->c_si);
			__m256i x0 = acc[r][0], x1 = acc[r][1];
			if (g->accumulate) {
				x0 = _mm256_add_epi32(x0, _mm256_loadu_si256(cr));
				x1 = _mm256_add_epi32(x1, _mm256_loadu_si256(cr + 1));
			}
			_mm256_storeu_si256(cr, x0);
			_mm256_storeu_si256(cr + 1, x1);
		}
	} else {
		int32_t t[MP_MR * MP_NR] __attribute__((aligned(32)));
		for (int r = 0; r < mr; r++) {
			_mm256_store_si256((__m256i *)(t + r * MP_NR), acc[r][0]);
			_mm256_store_si256((__m256i *)(t + r * MP_NR + 8), acc[r][1]);
		}
		mp_store_tile(g, t, MP_NR, i0, j0, mr, nc);
	}
}

/* mp_tile_fn of this family. */
static void mp_x8_gemm_ukernel_6x16c2__avx2(const mp_gemm_args *g, long kg, const void *ap,
					    const void *bp, const int32_t *rc, const int32_t *cc,
					    long i0, long j0, int mr, int nc)
{
	switch (mr) {
	case 6: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 6); break;
	case 5: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 5); break;
	case 4: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 4); break;
	case 3: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 3); break;
	case 2: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 2); break;
	default: mp_x8_tile_16c2__avx2(g, kg, ap, bp, rc, cc, i0, j0, nc, 1); break;
	}
}

const mp_gemm_kernel mp_x8_gemm_kernel__avx2 = {
	MP_MR, MP_NR, MP_KG, 2, 72, 512,
	mp_x8_pack_a_6c2__avx2, mp_x8_pack_b_16c2__avx2, mp_x8_gemm_ukernel_6x16c2__avx2, NULL,
	mp_x8_gemv__avx2,
};
