/* lp_int.h -- the INT8 path of mp_gemm_lp on the int8 kernel families'
 * tiles (lp.c), shared with the ISA file that brings faster packers. */
#ifndef MP_LP_INT_H
#define MP_LP_INT_H

#include "mp_gemm.h"
#include "lp.h"

/* Packs and quantizes rows [r0, r0+n) of A (or columns of B), k in
 * [k0, k0+kc), zero-padded to kp, into the layout of mp_gemm.h for a tile
 * of mr (nr) rows, K-groups of kg, elements of esz bytes: A as q + 128
 * (u8; UINT8: q itself, already u8), B as q (s8); corr: rcorr = 0 (A) /
 * ccorr = mp_lp_ccorr_mul(x) colsum(q) (B).  INT8: the tiles start at
 * -128 colsum and compute sum_k qa qb.  UINT8: the driver gives the tiles
 * zeros instead (raw sum_k qa qb) and hands ccorr = colsum to the epilogue
 * (x->csum), which subtracts za_i colsum_j. */
typedef void (*mp_lp_pack_fn)(const mp_lp_ctx *x, int mr, int kg, int esz, long r0, long n,
			      long k0, long kc, long kp, void *dst, int32_t *corr);

/* The factor of the B packers' ccorr (above). */
static inline int32_t mp_lp_ccorr_mul(const mp_lp_ctx *x)
{
	return x->lp == MP_LP_UINT8 ? 1 : 128;
}

/* Writes tile rows [i0, i0+mr) x columns [j0, j0+nc) (lp.h epilogue). */
typedef void (*mp_lp_epi_fn)(const mp_lp_ctx *x, const void *t, int is_i32, long ldt,
			     long i0, long j0, int mr, int nc);

void mp_lp_i8_pack_a_generic(const mp_lp_ctx *x, int mr, int kg, int esz, long i0, long mc,
			     long k0, long kc, long kp, void *ap, int32_t *rcorr);
void mp_lp_i8_pack_b_generic(const mp_lp_ctx *x, int nr, int kg, int esz, long j0, long nc,
			     long k0, long kc, long kp, void *bp, int32_t *ccorr);
void mp_lp_i8_driver(const mp_lp_ctx *x, const mp_gemm_kernel *k, mp_lp_pack_fn pa,
		     mp_lp_pack_fn pb, mp_lp_epi_fn epi);

#endif
