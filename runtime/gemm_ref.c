/* gemm_ref.c -- the reference int8 contraction: the plain loop of
 * mp_gemm_x8's contract in wrapping int32 arithmetic (done in uint32 to
 * avoid undefined behaviour).  Slow and obviously right: the oracle of the
 * tests; not used by mp_gemm_x8. */
#include "mp_gemm.h"

/* Element (i,k) of an operand of type dt at x[off], widened. */
static int32_t mp_ref_load(const void *x, int dt, ptrdiff_t off)
{
	return dt == MP_DT_S8 ? ((const int8_t *)x)[off] : ((const uint8_t *)x)[off];
}

/* See mp_gemm.h. */
void mp_gemm_x8_ref(const mp_gemm_args *g)
{
	for (long i = 0; i < g->M; i++)
		for (long j = 0; j < g->N; j++) {
			uint32_t s = 0;
			for (long k = 0; k < g->K; k++) {
				uint32_t x = (uint32_t)mp_ref_load(g->a, g->a_dt, i * g->a_si + k * g->a_sk) -
					     (uint32_t)g->za;
				uint32_t y = (uint32_t)mp_ref_load(g->b, g->b_dt, k * g->b_sk + j * g->b_sj) -
					     (uint32_t)g->zb;
				s += x * y;
			}
			int32_t *d = g->c + i * g->c_si + j * g->c_sj;
			*d = (int32_t)(g->accumulate ? (uint32_t)*d + s : s);
		}
}

/* See mp_gemm.h: S by the plain loop, then the header's helpers, called
 * literally, one element at a time (compiled with -fwrapv: the int32
 * additions of the contract wrap). */
void mp_gemm_x8_epi_ref(const mp_gemm_args *g)
{
	const mp_epilogue *ep = g->ep;
	for (long i = 0; i < g->M; i++)
		for (long j = 0; j < g->N; j++) {
			uint32_t s = 0;
			for (long k = 0; k < g->K; k++) {
				uint32_t x = (uint32_t)mp_ref_load(g->a, g->a_dt, i * g->a_si + k * g->a_sk) -
					     (uint32_t)g->za;
				uint32_t y = (uint32_t)mp_ref_load(g->b, g->b_dt, k * g->b_sk + j * g->b_sj) -
					     (uint32_t)g->zb;
				s += x * y;
			}
			s += (uint32_t)ep->init;
			if (ep->bias)
				s += (uint32_t)ep->bias[i * ep->bias_si + j * ep->bias_sj];
			int32_t acc = (int32_t)s, v = acc;
			switch (ep->kind) {
			case MP_EPI_STORE: v = acc; break;
			case MP_EPI_FP32: v = mp_requant_fp32(acc, ep->scale, ep->zp, ep->qmin, ep->qmax); break;
			case MP_EPI_GEMMLOWP: v = mp_requant_gemmlowp(acc, ep->qm, ep->shift, ep->zp, ep->qmin, ep->qmax); break;
			case MP_EPI_RNDNU: v = mp_requant_rndnu(acc, ep->qm, ep->shift, ep->zp, ep->qmin, ep->qmax); break;
			case MP_EPI_CLAMP: v = mp_clamp_i32(acc, ep->qmin, ep->qmax); break;
			}
			ptrdiff_t o = i * ep->out_si + j * ep->out_sj;
			switch (ep->out_dt) {
			case MP_DT_S8: ((int8_t *)ep->out)[o] = (int8_t)v; break;
			case MP_DT_U8: ((uint8_t *)ep->out)[o] = (uint8_t)v; break;
			default: ((int32_t *)ep->out)[o] = v; break;
			}
		}
}
