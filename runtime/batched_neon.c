/* batched_neon.c -- the vector form of mp_gemm_x8_batched (batched.c) on
 * aarch64: the same problems as batched_avx2.c (A and B contiguous in the
 * batch index g, N == 1, at most MP_BATCHED_MAX_TAPS taps), 16 channels
 * per step, with the arithmetic of the scalar form:
 *
 *   a16 = A - za, b16 = B - zb                 (int16: |x - z| <= 383)
 *   acc += a16(t) * b16(t)                     (SMLAL / SMLAL2: exact
 *                                               int16 x int16 products,
 *                                               int32 sums modulo 2^32)
 *
 * so the result is bit-identical to the scalar form.  Four rows per step
 * share B's taps (widened once per call into a scratch buffer); a padded
 * tap takes the padding value without reading A.  Channel tails: the
 * bytes copied into a zeroed buffer, the sums stored through one.
 * Baseline ASIMD (any aarch64); batched.c runs it for the dotprod and i8mm
 * families (mp_batched_vec). */
#include <arm_neon.h>
#include <string.h>
#include "mp_gemm.h"
#include "mp_runtime.h"

/* n (<= 16) bytes at p as two int16 vectors (channels 0-7, 8-15), less z. */
static inline void mp_nb_ld16(const void *p, long n, int dt, int16x8_t z, int16x8_t *lo,
			      int16x8_t *hi)
{
	uint8x16_t v;
	if (n >= 16) {
		v = vld1q_u8((const uint8_t *)p);
	} else {
		uint8_t buf[16] = {0};
		memcpy(buf, p, (size_t)n);
		v = vld1q_u8(buf);
	}
	if (dt == MP_DT_U8) {
		*lo = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(v)));
		*hi = vreinterpretq_s16_u16(vmovl_high_u8(v));
	} else {
		int8x16_t s = vreinterpretq_s8_u8(v);
		*lo = vmovl_s8(vget_low_s8(s));
		*hi = vmovl_high_s8(s);
	}
	*lo = vsubq_s16(*lo, z);
	*hi = vsubq_s16(*hi, z);
}

/* Rows i .. i+R-1 (R <= 4), every channel; bw: B's taps widened, per
 * 16-channel block, per tap, (lo, hi). */
static inline __attribute__((always_inline)) void
mp_nb_rows(const mp_batched_args *x, long i, const int R, long T, const ptrdiff_t *oa,
	   const int16x8_t *bw, const uint64_t *in, int16x8_t vza, int16x8_t vpad)
{
	const long G = x->G;
	const char *arow = (const char *)x->a + i * x->a_si;

	for (long g = 0, blk = 0; g < G; g += 16, blk++) {
		const long n = G - g >= 16 ? 16 : G - g;
		int32x4_t acc[4][4];
		const int16x8_t *bp = bw + blk * T * 2;
		for (int r = 0; r < R; r++)
			for (int q = 0; q < 4; q++)
				acc[r][q] = vdupq_n_s32(0);
		for (long t = 0; t < T; t++) {
			const int16x8_t b0 = bp[2 * t], b1 = bp[2 * t + 1];
			for (int r = 0; r < R; r++) {
				int16x8_t a0 = vpad, a1 = vpad;
				if ((in[r] >> t) & 1)
					mp_nb_ld16(arow + r * x->a_si + oa[t] + g, n, x->a_dt, vza, &a0,
						   &a1);
				acc[r][0] = vmlal_s16(acc[r][0], vget_low_s16(a0), vget_low_s16(b0));
				acc[r][1] = vmlal_high_s16(acc[r][1], a0, b0);
				acc[r][2] = vmlal_s16(acc[r][2], vget_low_s16(a1), vget_low_s16(b1));
				acc[r][3] = vmlal_high_s16(acc[r][3], a1, b1);
			}
		}
		for (int r = 0; r < R; r++) {
			int32_t *o = x->t + (size_t)(i + r) * (size_t)G + g;
			int32_t buf[16];
			int32_t *d = n == 16 ? o : buf;
			for (int q = 0; q < 4; q++)
				vst1q_s32(d + 4 * q, acc[r][q]);
			if (n < 16)
				memcpy(o, buf, sizeof(int32_t) * (size_t)n);
		}
	}
}

/* See mp_gemm.h: 0 when the taps are too many or the scratch buffer
 * cannot be had (the caller then runs the scalar form). */
int mp_batched_rows__neon(const mp_batched_args *x, long lo, long hi)
{
	ptrdiff_t oa[MP_BATCHED_MAX_TAPS], ob[MP_BATCHED_MAX_TAPS];
	long dd[MP_BATCHED_MAX_TAPS][MP_MAX_KDIMS], least[MP_MAX_PAD];
	const long T = mp_batched_taps(x, oa, ob, dd, least);
	if (!T)
		return 0;
	const long G = x->G, nblk = (G + 15) / 16;
	const int16x8_t vza = vdupq_n_s16((int16_t)x->za), vzb = vdupq_n_s16((int16_t)x->zb);
	int16x8_t *bw = mp_scratch(MP_SCR_VEC, sizeof(int16x8_t) * 2 * (size_t)(nblk * T));
	if (!bw)
		return 0;
	for (long blk = 0; blk < nblk; blk++) {
		long g = blk * 16, n = G - g >= 16 ? 16 : G - g;
		for (long t = 0; t < T; t++)
			mp_nb_ld16((const char *)x->b + ob[t] + g, n, x->b_dt, vzb,
				   &bw[(blk * T + t) * 2], &bw[(blk * T + t) * 2 + 1]);
	}
	int32_t padv = mp_batched_padv(x);
	const int16x8_t vpad = vdupq_n_s16((int16_t)(padv - x->za));

	for (long i = lo; i < hi; i += 4) {
		int rows = hi - i < 4 ? (int)(hi - i) : 4;
		uint64_t in[4] = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0};
		for (int r = 0; r < rows && x->pad; r++)   /* the taps inside, per row */
			in[r] = mp_batched_row_in(x, i + r, T, (const long (*)[MP_MAX_KDIMS])dd, least);
		switch (rows) {
		case 4: mp_nb_rows(x, i, 4, T, oa, bw, in, vza, vpad); break;
		case 3: mp_nb_rows(x, i, 3, T, oa, bw, in, vza, vpad); break;
		case 2: mp_nb_rows(x, i, 2, T, oa, bw, in, vza, vpad); break;
		default: mp_nb_rows(x, i, 1, T, oa, bw, in, vza, vpad); break;
		}
	}
	return 1;
}
