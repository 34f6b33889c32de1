/* groups_dotprod.c -- int32 sums per group of a matrix-vector product
 * (mp_gemm_x8_groups, mp_gemm.h) on aarch64 with the dot-product
 * instructions (FEAT_DotProd: the dotprod and i8mm families):
 *
 *   t[i*G + g] = sum_k A[i*a_si + g*a_sg + k] * b[g*b_sg + k]    (k < K)
 *
 * as groups_avx2.c computes it on x86 (llama2.c's runq.c matmul: int8
 * activations and weights in groups of GS).  16 bytes of a row and of b at
 * a time: SDOT for s8 x s8, UDOT for u8 x u8, and for u8 A x s8 b SDOT on
 * a - 128 (the byte xor 0x80) plus 128 sum_k b, b's group sums computed
 * once per call; s8 A x u8 b is declined (mp_x8_groups_vec).  The K % 16
 * tail in scalar.  Exact modulo 2^32: the int32 additions wrap as the
 * source's do, in another order, which integer sums do not see.  Built
 * with -march=armv8.2-a+dotprod; run only where it is available. */
#include <arm_neon.h>
#include "mp_gemm.h"
#include "mp_runtime.h"

/* The sum over one group: A's K bytes at ra, b's at rb. */
static inline uint32_t mp_dot_group(const uint8_t *ra, const uint8_t *rb, long K, int a_dt,
				    int b_dt)
{
	long k = 0;
	uint32_t s = 0;
	if (a_dt == MP_DT_U8 && b_dt == MP_DT_U8) {
		uint32x4_t acc = vdupq_n_u32(0);
		for (; k + 16 <= K; k += 16)
			acc = vdotq_u32(acc, vld1q_u8(ra + k), vld1q_u8(rb + k));
		s = vaddvq_u32(acc);
		for (; k < K; k++)
			s += (uint32_t)ra[k] * (uint32_t)rb[k];
		return s;
	}
	const uint8x16_t ax = vdupq_n_u8(a_dt == MP_DT_U8 ? 0x80 : 0);
	int32x4_t acc = vdupq_n_s32(0);
	for (; k + 16 <= K; k += 16)
		acc = vdotq_s32(acc, vreinterpretq_s8_u8(veorq_u8(vld1q_u8(ra + k), ax)),
				vld1q_s8((const int8_t *)rb + k));
	s = (uint32_t)vaddvq_s32(acc);
	for (; k < K; k++) {   /* the value SDOT multiplies: a - 128 for u8 A */
		int32_t av = a_dt == MP_DT_U8 ? (int32_t)ra[k] - 128 : (int32_t)(int8_t)ra[k];
		s += (uint32_t)(av * (int32_t)(int8_t)rb[k]);
	}
	return s;
}

/* See mp_gemm.h.  0 (nothing done): s8 A x u8 b, or no scratch. */
int mp_x8_dot_groups__dotprod(long M, long K, long G, const void *a, int a_dt, ptrdiff_t a_si,
			      ptrdiff_t a_sg, const void *b, int b_dt, ptrdiff_t b_sg, int32_t *t)
{
	const uint8_t *ua = a, *ub = b;
	if (a_dt == MP_DT_S8 && b_dt == MP_DT_U8)
		return 0;
	/* u8 A x s8 b: sum a b = sum (a - 128) b + 128 sum b, per group */
	uint32_t *bsum = NULL;
	if (a_dt == MP_DT_U8 && b_dt == MP_DT_S8) {
		bsum = mp_scratch(MP_SCR_VEC, sizeof(uint32_t) * (size_t)G);
		if (!bsum)
			return 0;
		for (long g = 0; g < G; g++) {
			uint32_t s = 0;
			for (long k = 0; k < K; k++)
				s += (uint32_t)(int32_t)(int8_t)ub[g * b_sg + k];
			bsum[g] = 128u * s;
		}
	}
	for (long i = 0; i < M; i++)
		for (long g = 0; g < G; g++) {
			uint32_t s = mp_dot_group(ua + i * a_si + g * a_sg, ub + g * b_sg, K, a_dt,
						  b_dt);
			t[i * G + g] = (int32_t)(s + (bsum ? bsum[g] : 0u));
		}
	return 1;
}
