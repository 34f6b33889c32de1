/* gemm_scalar.c -- portable kernel family of mp_gemm_x8:
 * mp_x8_gemm_ukernel_4x8c4__scalar on the shared packed layout (u8 A, s8 B,
 * K-groups of 4).  Runs everywhere; exercises the packing algebra on CPUs
 * without SIMD kernels. */
#include "mp_gemm.h"

#define MP_MR 4
#define MP_NR 8
#define MP_KG 4

static void mp_x8_pack_a_4c4__scalar(const mp_gemm_args *g, long i0, long mc, long kp,
				     void *ap, int32_t *rcorr)
{
	mp_pack_a_generic(g, i0, mc, kp, ap, rcorr, MP_MR, MP_KG, 1);
}

static void mp_x8_pack_b_8c4__scalar(const mp_gemm_args *g, long j0, long nc, long kp,
				     void *bp, int32_t *ccorr)
{
	mp_pack_b_generic(g, j0, nc, kp, bp, ccorr, MP_NR, MP_KG, 1);
}

/* The tile (mp_tile_fn): accumulators start at rcorr[i] - ccorr[j]. */
static void mp_x8_gemm_ukernel_4x8c4__scalar(const mp_gemm_args *g, long kgroups,
					     const void *ap, const void *bp,
					     const int32_t *rcorr, const int32_t *ccorr,
					     long i0, long j0, int mr, int nc)
{
	const uint8_t *a = ap;
	const int8_t *b = bp;
	uint32_t t[MP_MR][MP_NR];
	for (int r = 0; r < MP_MR; r++)
		for (int j = 0; j < MP_NR; j++)
			t[r][j] = (uint32_t)(r < mr ? rcorr[r] : 0) - (uint32_t)ccorr[j];
	for (long q = 0; q < kgroups; q++, a += MP_MR * MP_KG, b += MP_NR * MP_KG)
		for (int r = 0; r < MP_MR; r++)
			for (int j = 0; j < MP_NR; j++)
				for (int u = 0; u < MP_KG; u++)
					t[r][j] += (uint32_t)(a[r * MP_KG + u] * b[j * MP_KG + u]);
	mp_store_tile(g, (const int32_t *)t, MP_NR, i0, j0, mr, nc);
}

const mp_gemm_kernel mp_x8_gemm_kernel__scalar = {
	MP_MR, MP_NR, MP_KG, 1, 64, 512,
	mp_x8_pack_a_4c4__scalar, mp_x8_pack_b_8c4__scalar, mp_x8_gemm_ukernel_4x8c4__scalar, NULL, NULL,
};
