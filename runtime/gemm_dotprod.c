/* gemm_dotprod.c -- kernel family "dotprod" of mp_gemm_x8 on aarch64 with
 * the dot-product instructions (FEAT_DotProd, Armv8.2+: Neoverse N1/V1/N2,
 * Cortex-A76 and later, Apple M1): mp_x8_gemm_ukernel_8x12c4__dotprod.
 *
 * SDOT multiplies signed by signed bytes, so this family packs A as a' - 128
 * (a signed byte; mp_pack_a_generic_x with SXOR 0x80) and B as usual (s8),
 * its B corrections with p - 128 (mp_pack_b_generic_x): the tile then starts
 * at rcorr[i] - ccorr[j] and ends at S(i,j) exactly, as every family does
 * (mp_gemm.h).  Per K-group of 4: two A vectors (8 rows x 4 bytes), three B
 * vectors (12 columns x 4 bytes), 24 SDOT by lane into 24 accumulators
 * (384 multiply-adds for 5 loads).  Built with -march=armv8.2-a+dotprod;
 * run only after mp_kernel_available(MP_KERNEL_DOTPROD). */
#include "mp_neon.h"

#define MP_MR 8
#define MP_NR 12
#define MP_KG 4

static void mp_x8_pack_a_8c4__dotprod(const mp_gemm_args *g, long i0, long mc, long kp,
				      void *ap, int32_t *rcorr)
{
	mp_pack_a_generic_x(g, i0, mc, kp, ap, rcorr, MP_MR, MP_KG, 1, 0x80, 0);
}

static void mp_x8_pack_b_12c4__dotprod(const mp_gemm_args *g, long j0, long nc, long kp,
				       void *bp, int32_t *ccorr)
{
	mp_pack_b_generic_x(g, j0, nc, kp, bp, ccorr, MP_NR, MP_KG, 1, 128, 0);
}

/* Row R of the tile: three accumulators, lane R % 4 of A vector R / 4. */
#define MP_DOT_ROW(R, AV)                                                     \
	do {                                                                  \
		acc[R][0] = vdotq_laneq_s32(acc[R][0], b0, AV, (R) % 4);      \
		acc[R][1] = vdotq_laneq_s32(acc[R][1], b1, AV, (R) % 4);      \
		acc[R][2] = vdotq_laneq_s32(acc[R][2], b2, AV, (R) % 4);      \
	} while (0)

/* The tile (mp_tile_fn): accumulators start at rcorr[i] - ccorr[j]. */
static void mp_x8_gemm_ukernel_8x12c4__dotprod(const mp_gemm_args *g, long kgroups,
					       const void *ap, const void *bp,
					       const int32_t *rcorr, const int32_t *ccorr,
					       long i0, long j0, int mr, int nc)
{
	const int8_t *a = ap;
	const int8_t *b = bp;
	int32x4_t acc[MP_MR][3];
	const int32x4_t cc0 = vld1q_s32(ccorr), cc1 = vld1q_s32(ccorr + 4),
			cc2 = vld1q_s32(ccorr + 8);
	for (int r = 0; r < MP_MR; r++) {
		int32x4_t rc = vdupq_n_s32(r < mr ? rcorr[r] : 0);
		acc[r][0] = vsubq_s32(rc, cc0);
		acc[r][1] = vsubq_s32(rc, cc1);
		acc[r][2] = vsubq_s32(rc, cc2);
	}
	for (long q = 0; q < kgroups; q++, a += MP_MR * MP_KG, b += MP_NR * MP_KG) {
		const int8x16_t a0 = vld1q_s8(a), a1 = vld1q_s8(a + 16);
		const int8x16_t b0 = vld1q_s8(b), b1 = vld1q_s8(b + 16), b2 = vld1q_s8(b + 32);
		MP_DOT_ROW(0, a0);
		MP_DOT_ROW(1, a0);
		MP_DOT_ROW(2, a0);
		MP_DOT_ROW(3, a0);
		MP_DOT_ROW(4, a1);
		MP_DOT_ROW(5, a1);
		MP_DOT_ROW(6, a1);
		MP_DOT_ROW(7, a1);
	}
	int32_t t[MP_MR * MP_NR];
	for (int r = 0; r < MP_MR; r++)
		for (int v = 0; v < 3; v++)
			vst1q_s32(t + r * MP_NR + 4 * v, acc[r][v]);
	mp_neon_store_tile(g, t, MP_MR, MP_NR, i0, j0, mr, nc);
}

const mp_gemm_kernel mp_x8_gemm_kernel__dotprod = {
	MP_MR, MP_NR, MP_KG, 1, 96, 384,
	mp_x8_pack_a_8c4__dotprod, mp_x8_pack_b_12c4__dotprod,
	mp_x8_gemm_ukernel_8x12c4__dotprod, NULL, NULL,
};
