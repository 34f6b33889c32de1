/* gemm_i8mm.c -- kernel family "i8mm" of mp_gemm_x8 on aarch64 with the
 * int8 matrix-multiply instructions (FEAT_I8MM, Armv8.6: Neoverse V1/N2/V2,
 * Cortex-A510/A710 and later): 8x8 tiles on K-groups of 8.
 *
 * The three matrix instructions multiply a 2 x 8 block of bytes by the
 * transpose of another into a 2 x 2 int32 block, rows 2r and 2r+1 being one
 * 16-byte vector of the shared packed layout with K-groups of 8 (mp_gemm.h:
 * inside a group [mr][8] / [nr][8]).  The family picks one per call from
 * the operand types (mp_x8_i8mm_kernel), so that the bytes are the
 * operands' own where an instruction takes them:
 *   - u8 A x s8 B, s8 A x u8 B: USMMLA on the shared layout (A as u8 a',
 *     B as s8 b'; for s8 x u8 both are the sign-flipped values and the
 *     corrections undo it, as on every family);
 *   - s8 A x s8 B: SMMLA, A stored as a' - 128 = a (SXOR 0x80, PSUB 128);
 *   - u8 A x u8 B: UMMLA, B stored as b' + 128 = b (BXOR 0x80, QADD 128).
 * With zero points 0 the corrections of the last three are all 0.  Per
 * K-group: four A vectors (8 rows), four B vectors (8 columns), 16 matrix
 * multiply-adds into 16 2 x 2 accumulators (512 multiply-adds for 8
 * loads).  Built with -march=armv8.2-a+i8mm; run only after
 * mp_kernel_available(MP_KERNEL_I8MM). */
#include "mp_neon.h"

#define MP_MR 8
#define MP_NR 8
#define MP_KG 8

/* The packers of each form: (SXOR, QADD) for A, (PSUB, BXOR) for B. */
#define MP_I8MM_PACKERS(SFX, SXOR, QADD, PSUB, BXOR)                                     \
	static void mp_x8_pack_a_8c8__##SFX(const mp_gemm_args *g, long i0, long mc, long kp, \
					    void *ap, int32_t *rcorr)                       \
	{                                                                                 \
		mp_pack_a_generic_x(g, i0, mc, kp, ap, rcorr, MP_MR, MP_KG, 1, SXOR, QADD);   \
	}                                                                                 \
	static void mp_x8_pack_b_8c8__##SFX(const mp_gemm_args *g, long j0, long nc, long kp, \
					    void *bp, int32_t *ccorr)                       \
	{                                                                                 \
		mp_pack_b_generic_x(g, j0, nc, kp, bp, ccorr, MP_NR, MP_KG, 1, PSUB, BXOR);   \
	}
MP_I8MM_PACKERS(i8mm, 0, 0, 0, 0)
MP_I8MM_PACKERS(i8mm_ss, 0x80, 0, 128, 0)
MP_I8MM_PACKERS(i8mm_uu, 0, 128, 0, 0x80)

/* One multiply-add of each form on int32x4 accumulators and byte vectors. */
static inline int32x4_t mp_mmla_us(int32x4_t acc, uint8x16_t a, uint8x16_t b)
{
	return vusmmlaq_s32(acc, a, vreinterpretq_s8_u8(b));
}
static inline int32x4_t mp_mmla_ss(int32x4_t acc, uint8x16_t a, uint8x16_t b)
{
	return vmmlaq_s32(acc, vreinterpretq_s8_u8(a), vreinterpretq_s8_u8(b));
}
static inline int32x4_t mp_mmla_uu(int32x4_t acc, uint8x16_t a, uint8x16_t b)
{
	return vreinterpretq_s32_u32(vmmlaq_u32(vreinterpretq_u32_s32(acc), a, b));
}

/* The tile (mp_tile_fn) with the multiply-add MMLA: accumulator (rp, cp)
 * holds rows 2rp, 2rp+1 x columns 2cp, 2cp+1 ({r0c0, r0c1, r1c0, r1c1}),
 * started at rcorr - ccorr. */
static inline __attribute__((always_inline)) void
mp_i8mm_tile(const mp_gemm_args *g, long kgroups, const void *ap, const void *bp,
	     const int32_t *rcorr, const int32_t *ccorr, long i0, long j0, int mr, int nc,
	     int32x4_t (*mmla)(int32x4_t, uint8x16_t, uint8x16_t))
{
	const uint8_t *a = ap;
	const uint8_t *b = bp;
	int32x4_t acc[4][4];
	for (int rp = 0; rp < 4; rp++) {
		int32_t r0 = 2 * rp < mr ? rcorr[2 * rp] : 0;
		int32_t r1 = 2 * rp + 1 < mr ? rcorr[2 * rp + 1] : 0;
		int32x4_t rc = {r0, r0, r1, r1};
		for (int cp = 0; cp < 4; cp++) {
			int32x2_t c2 = vld1_s32(ccorr + 2 * cp);
			acc[rp][cp] = vsubq_s32(rc, vcombine_s32(c2, c2));
		}
	}
	for (long q = 0; q < kgroups; q++, a += MP_MR * MP_KG, b += MP_NR * MP_KG) {
		const uint8x16_t a0 = vld1q_u8(a), a1 = vld1q_u8(a + 16), a2 = vld1q_u8(a + 32),
				 a3 = vld1q_u8(a + 48);
		const uint8x16_t b0 = vld1q_u8(b), b1 = vld1q_u8(b + 16), b2 = vld1q_u8(b + 32),
				 b3 = vld1q_u8(b + 48);
#define MP_MMLA_ROW(RP, AV)                                          \
	do {                                                         \
		acc[RP][0] = mmla(acc[RP][0], AV, b0);       \
		acc[RP][1] = mmla(acc[RP][1], AV, b1);       \
		acc[RP][2] = mmla(acc[RP][2], AV, b2);       \
		acc[RP][3] = mmla(acc[RP][3], AV, b3);       \
	} while (0)
		MP_MMLA_ROW(0, a0);
		MP_MMLA_ROW(1, a1);
		MP_MMLA_ROW(2, a2);
		MP_MMLA_ROW(3, a3);
#undef MP_MMLA_ROW
	}
	int32_t t[MP_MR * MP_NR];
	for (int rp = 0; rp < 4; rp++)
		for (int cp = 0; cp < 4; cp++) {
			vst1_s32(t + (2 * rp) * MP_NR + 2 * cp, vget_low_s32(acc[rp][cp]));
			vst1_s32(t + (2 * rp + 1) * MP_NR + 2 * cp, vget_high_s32(acc[rp][cp]));
		}
	mp_neon_store_tile(g, t, MP_MR, MP_NR, i0, j0, mr, nc);
}

#define MP_I8MM_TILE(SFX, MMLA)                                                          \
	static void mp_x8_gemm_ukernel_8x8c8__##SFX(const mp_gemm_args *g, long kgroups,      \
						    const void *ap, const void *bp,           \
						    const int32_t *rcorr,                     \
						    const int32_t *ccorr, long i0, long j0,   \
						    int mr, int nc)                           \
	{                                                                                 \
		mp_i8mm_tile(g, kgroups, ap, bp, rcorr, ccorr, i0, j0, mr, nc, MMLA);     \
	}                                                                                 \
	const mp_gemm_kernel mp_x8_gemm_kernel__##SFX = {                                 \
		MP_MR, MP_NR, MP_KG, 1, 96, 384,                                          \
		mp_x8_pack_a_8c8__##SFX, mp_x8_pack_b_8c8__##SFX,                         \
		mp_x8_gemm_ukernel_8x8c8__##SFX, NULL, NULL,                              \
	};
MP_I8MM_TILE(i8mm, mp_mmla_us)
MP_I8MM_TILE(i8mm_ss, mp_mmla_ss)
MP_I8MM_TILE(i8mm_uu, mp_mmla_uu)
