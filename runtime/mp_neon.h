/* mp_neon.h -- what the aarch64 kernel families share (gemm_dotprod.c,
 * gemm_i8mm.c).  Include only from files built for aarch64. */
#ifndef MP_NEON_H
#define MP_NEON_H

#include <arm_neon.h>
#include "mp_gemm.h"

/* Stores (or adds) the tile t (TMR x TNR int32, rows TNR apart, TNR a
 * multiple of 4), of which rows 0..mr-1 and columns 0..nc-1 are the
 * output's at (i0, j0): four columns per vector when the whole tile goes to
 * a row-major output without an epilogue, mp_store_tile otherwise. */
static inline void mp_neon_store_tile(const mp_gemm_args *g, const int32_t *t, int tmr, int tnr,
				      long i0, long j0, int mr, int nc)
{
	if (g->ep || mr != tmr || nc != tnr || g->c_sj != 1) {
		mp_store_tile(g, t, tnr, i0, j0, mr, nc);
		return;
	}
	for (int r = 0; r < tmr; r++) {
		int32_t *d = g->c + (i0 + r) * g->c_si + j0;
		for (int v = 0; v < tnr; v += 4) {
			int32x4_t x = vld1q_s32(t + r * tnr + v);
			if (g->accumulate)
				x = vaddq_s32(x, vld1q_s32(d + v));
			vst1q_s32(d + v, x);
		}
	}
}

#endif
